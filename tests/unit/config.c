/*
 * config.c - the acl.json reader (src/common/config.c) through its internal
 * interface: every case of tests/data/config/cases.tsv, plus what the
 * black-box test cannot reach (file size limits, environment priorities,
 * writability checks, diffs, the diagnostic cap).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#include "acl/acl_base.h"
#include "common/config.h"
#include "common/diag.h"
#include "common/env.h"

#define DATA_DIR OPENACL_SOURCE_DIR "/tests/data/config"

/* ---- helpers ------------------------------------------------------------- */

typedef struct result {
  int code;
  acl__diags diags;
  char *json;   /* effective configuration when the text is valid */
  acl__config *cfg;
} result;

static void result_free(result *r) {
  acl__diags_free(&r->diags);
  free(r->json);
  acl__config_free(r->cfg);
  memset(r, 0, sizeof(*r));
}

/* An environment with nothing set, as acl__env_load would give without any
 * variable (only the fields config.c reads matter). */
static acl__env empty_env(void) {
  acl__env env;
  memset(&env, 0, sizeof(env));
  env.global_log_level = 3;
  env.log_flush_timeout_ms = 2000;
  env.device_count = 1;
  return env;
}

static void run_text(result *r, const char *text, size_t len, const acl__env *env) {
  memset(r, 0, sizeof(*r));
  r->cfg = acl__config_new();
  CHECK_NOT_NULL(r->cfg);
  r->code = acl__config_parse(r->cfg, text, len, &r->diags);
  if (r->code == ACL_SUCCESS) {
    acl__config_apply_env(r->cfg, env, &r->diags);
    r->json = acl__config_to_json(r->cfg, env, 0);
    CHECK_NOT_NULL(r->json);
  }
}

static void run(result *r, const char *text) {
  acl__env env = empty_env();
  run_text(r, text, strlen(text), &env);
}

/* "path: message" of the first error, in a static buffer. */
static const char *first_error(const result *r) {
  static char buf[4096];
  const acl__diag *e = acl__diags_first_error(&r->diags);
  if (e == NULL)
    return "(no error)";
  snprintf(buf, sizeof(buf), "%s%s%s", e->path, e->path[0] ? ": " : "", e->message);
  return buf;
}

/* Every diagnostic as "kind path: message\n" (malloc'd). */
static char *all_diags(const result *r) {
  size_t cap = 1;
  for (size_t i = 0; i < r->diags.count; i++)
    cap += strlen(r->diags.items[i].path) + strlen(r->diags.items[i].message) + 16;
  char *out = malloc(cap);
  CHECK_NOT_NULL(out);
  out[0] = '\0';
  for (size_t i = 0; i < r->diags.count; i++) {
    const acl__diag *d = &r->diags.items[i];
    strcat(out, d->kind == ACL__DIAG_ERROR ? "error " : "warning ");
    strcat(out, d->path);
    strcat(out, ": ");
    strcat(out, d->message);
    strcat(out, "\n");
  }
  return out;
}

static int has_warning(const result *r, const char *path, const char *fragment) {
  for (size_t i = 0; i < r->diags.count; i++) {
    const acl__diag *d = &r->diags.items[i];
    if (d->kind == ACL__DIAG_WARNING && strcmp(d->path, path) == 0 &&
        strstr(d->message, fragment) != NULL)
      return 1;
  }
  return 0;
}

/* ---- the manifest -------------------------------------------------------- */

TEST(manifest_cases) {
  char *tsv = th_read_file(DATA_DIR "/cases.tsv");
  CHECK_NOT_NULL(tsv);
  int cases = 0, failed = 0;
  char *save = NULL;
  for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || line[0] == '\0')
      continue;
    char *t1 = strchr(line, '\t');
    CHECK_NOT_NULL(t1);
    *t1 = '\0';
    char *t2 = strchr(t1 + 1, '\t');
    CHECK_NOT_NULL(t2);
    *t2 = '\0';
    const char *file = line, *fragment = t2 + 1;
    int want = atoi(t1 + 1);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", DATA_DIR, file);

    result r;
    memset(&r, 0, sizeof(r));
    char *text = NULL;
    size_t len = 0;
    r.code = acl__config_read_file(path, &text, &len, &r.diags);
    if (r.code == ACL_SUCCESS) {
      acl__diags_free(&r.diags);
      acl__env env = empty_env();
      run_text(&r, text, len, &env);
    }
    free(text);
    char *diags = all_diags(&r);
    int ok = r.code == want;
    if (ok && want != 0)
      ok = strstr(first_error(&r), fragment) != NULL;
    else if (ok)
      ok = strstr(r.json, fragment) != NULL || strstr(diags, fragment) != NULL;
    if (!ok) {
      printf("FAIL %s: code %d (want %d), fragment '%s'\n  first error: %s\n  diags:\n%s",
             file, r.code, want, fragment, first_error(&r), diags);
      failed++;
    }
    free(diags);
    result_free(&r);
    cases++;
  }
  free(tsv);
  printf("%d cases, %d failed\n", cases, failed);
  CHECK(cases >= 60);
  CHECK_INT_EQ(failed, 0);
}

/* ---- reading files ------------------------------------------------------- */

TEST(read_missing_file) {
  acl__diags d = {0};
  char *text = (char *)1;
  size_t len = 7;
  CHECK_INT_EQ(acl__config_read_file("/nonexistent/openacl/acl.json", &text, &len, &d),
               ACL_ERROR_INVALID_FILE);
  CHECK_NULL(text);
  CHECK_INT_EQ(len, 0);
  CHECK_INT_EQ(acl__diags_error_count(&d), 1);
  CHECK_INT_EQ(d.items[0].code, ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(d.items[0].message, "No such file or directory");
  acl__diags_free(&d);
}

TEST(read_null_path) {
  acl__diags d = {0};
  char *text = NULL;
  size_t len = 0;
  CHECK_INT_EQ(acl__config_read_file(NULL, &text, &len, &d), ACL_ERROR_INVALID_FILE);
  CHECK_INT_EQ(acl__config_read_file("", &text, &len, &d), ACL_ERROR_INVALID_FILE);
  CHECK_INT_EQ(acl__diags_error_count(&d), 2);
  acl__diags_free(&d);
}

TEST(read_directory) {
  char *dir = th_tmpdir();
  acl__diags d = {0};
  char *text = NULL;
  size_t len = 0;
  CHECK_INT_EQ(acl__config_read_file(dir, &text, &len, &d), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(d.items[0].message, "is a directory");
  acl__diags_free(&d);
  th_rmtree(dir);
  free(dir);
}

TEST(read_unreadable_file) {
  if (geteuid() == 0)
    return; /* root reads anything */
  char *dir = th_tmpdir();
  char *p = th_write_file(dir, "acl.json", "{}");
  CHECK_INT_EQ(chmod(p, 0), 0);
  acl__diags d = {0};
  char *text = NULL;
  size_t len = 0;
  CHECK_INT_EQ(acl__config_read_file(p, &text, &len, &d), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(d.items[0].message, "Permission denied");
  acl__diags_free(&d);
  free(p);
  th_rmtree(dir);
  free(dir);
}

TEST(read_too_large) {
  char *dir = th_tmpdir();
  char *p = th_write_file(dir, "big.json", "{");
  CHECK_INT_EQ(truncate(p, (64 << 20) + 1), 0);  /* sparse: cheap */
  acl__diags d = {0};
  char *text = NULL;
  size_t len = 0;
  CHECK_INT_EQ(acl__config_read_file(p, &text, &len, &d), ACL_ERROR_INVALID_FILE_SIZE);
  CHECK_NULL(text);
  CHECK_STR_HAS(d.items[0].message, "larger than 64 MiB");
  acl__diags_free(&d);
  free(p);
  th_rmtree(dir);
  free(dir);
}

TEST(read_ok) {
  char *dir = th_tmpdir();
  char *p = th_write_file(dir, "acl.json", "{\"err_msg_mode\": \"1\"}");
  acl__diags d = {0};
  char *text = NULL;
  size_t len = 0;
  CHECK_INT_EQ(acl__config_read_file(p, &text, &len, &d), ACL_SUCCESS);
  CHECK_INT_EQ(len, strlen("{\"err_msg_mode\": \"1\"}"));
  CHECK_STR_EQ(text, "{\"err_msg_mode\": \"1\"}");
  CHECK_INT_EQ(d.count, 0);
  free(text);
  free(p);
  th_rmtree(dir);
  free(dir);
}

/* ---- parsing -------------------------------------------------------------- */

TEST(defaults) {
  acl__config *cfg = acl__config_new();
  CHECK_NOT_NULL(cfg);
  CHECK_INT_EQ(acl__config_err_msg_mode(cfg), 0);
  CHECK_INT_EQ(acl__config_default_device(cfg), -1);
  char *json = acl__config_to_json(cfg, NULL, 0);
  CHECK_NOT_NULL(json);
  CHECK_STR_HAS(json, "\"max_opqueue_num\": 20000");
  CHECK_STR_HAS(json, "\"aicore_stack_size\": 32768");
  CHECK_STR_HAS(json, "\"simt_printf_fifo_size\": 2097152");
  CHECK_STR_HAS(json, "\"simd_printf_fifo_size_per_core\": 32768");
  CHECK_STR_HAS(json, "\"dump_mode\": \"output\"");
  CHECK_STR_HAS(json, "\"dump_data\": \"tensor\"");
  CHECK_STR_HAS(json, "\"dump_level\": \"all\"");
  CHECK_STR_HAS(json, "\"event_mode\": \"0\"");
  CHECK_STR_HAS(json, "\"environment\": null");
  free(json);
  acl__config_free(cfg);
  acl__config_free(NULL);
}

TEST(empty_text_is_defaults) {
  result r;
  run(&r, "");
  CHECK_INT_EQ(r.code, 0);
  CHECK_INT_EQ(r.diags.count, 0);
  result_free(&r);
  acl__config *cfg = acl__config_new();
  CHECK_INT_EQ(acl__config_parse(cfg, NULL, 0, NULL), 0);
  acl__config_free(cfg);
}

TEST(accessors) {
  result r;
  run(&r, "{\"err_msg_mode\": \"1\", \"defaultDevice\": {\"default_device\": \"7\"}}");
  CHECK_INT_EQ(r.code, 0);
  CHECK_INT_EQ(acl__config_err_msg_mode(r.cfg), 1);
  CHECK_INT_EQ(acl__config_default_device(r.cfg), 7);
  result_free(&r);
}

TEST(error_message_shape) {
  result r;
  run(&r, "{\"dump\": {\"dump_mode\": \"everything\"}}");
  CHECK_INT_EQ(r.code, ACL_ERROR_INVALID_DUMP_CONFIG);
  const acl__diag *e = acl__diags_first_error(&r.diags);
  CHECK_NOT_NULL(e);
  CHECK_STR_EQ(e->path, "dump.dump_mode");
  CHECK_STR_EQ(e->message, "\"everything\" is not one of input, output, all");
  CHECK_INT_EQ(e->code, ACL_ERROR_INVALID_DUMP_CONFIG);
  result_free(&r);
}

TEST(syntax_error_position) {
  result r;
  run(&r, "{\n  \"a\": 1,\n  \"b\": }\n");
  CHECK_INT_EQ(r.code, ACL_ERROR_PARSE_FILE);
  CHECK_STR_HAS(first_error(&r), "line 3, column 8");
  result_free(&r);
}

TEST(collects_every_problem) {
  result r;
  run(&r, "{\"err_msg_mode\": \"x\", \"dump\": {\"dump_mode\": \"y\", \"dump_level\": \"z\"},"
          " \"max_opqueue_num\": 0, \"profiler\": 1, \"unknown\": 1,"
          " \"StackSize\": {\"aicore_stack_size\": 40000}}");
  CHECK_INT_EQ(r.code, ACL_ERROR_INVALID_PARAM);  /* the first one's code */
  CHECK_INT_EQ(acl__diags_error_count(&r.diags), 5);
  CHECK_INT_EQ(r.diags.count, 7);
  CHECK_STR_EQ(r.diags.items[0].path, "err_msg_mode");
  CHECK_STR_EQ(r.diags.items[1].path, "dump.dump_mode");
  CHECK_STR_EQ(r.diags.items[2].path, "dump.dump_level");
  CHECK_INT_EQ(r.diags.items[3].code, ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG);
  CHECK_INT_EQ(r.diags.items[4].code, ACL_ERROR_INVALID_PROFILING_CONFIG);
  CHECK_INT_EQ(r.diags.items[5].kind, ACL__DIAG_WARNING);
  CHECK_STR_EQ(r.diags.items[6].path, "StackSize.aicore_stack_size");
  result_free(&r);
}

TEST(diag_list_is_capped) {
  /* 500 unknown keys and 500 bad layer names: a bounded list, one note. */
  size_t cap = 64 * 1024;
  char *text = malloc(cap);
  CHECK_NOT_NULL(text);
  size_t n = (size_t)snprintf(text, cap, "{");
  for (int i = 0; i < 500; i++)
    n += (size_t)snprintf(text + n, cap - n, "\"k%d\": 1, ", i);
  n += (size_t)snprintf(text + n, cap - n,
                        "\"dump\": {\"dump_path\": \"/tmp\", \"dump_list\": [{\"model_name\": "
                        "\"m\", \"layer\": [");
  for (int i = 0; i < 500; i++)
    n += (size_t)snprintf(text + n, cap - n, "%s%d", i ? "," : "", i);
  snprintf(text + n, cap - n, "]}]}}");
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, ACL_ERROR_INVALID_DUMP_CONFIG);
  CHECK(r.diags.count <= 201);
  CHECK_INT_EQ(acl__diags_error_count(&r.diags), 100);
  char *all = all_diags(&r);
  CHECK_STR_HAS(all, "the rest are not listed");
  free(all);
  result_free(&r);
  free(text);
}

TEST(nesting_limits) {
  char text[256];
  /* 10 levels: fine (unknown keys only warn). */
  strcpy(text, "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":[\"[{\"]}}}}}}}}}");
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, 0);
  result_free(&r);
  /* 11 levels: rejected, with the position of the 11th bracket. */
  strcpy(text, "{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":{\"a\":[[\"}\"]]}}}}}}}}}");
  run(&r, text);
  CHECK_INT_EQ(r.code, ACL_ERROR_PARSE_FILE);
  CHECK_STR_HAS(first_error(&r), "nesting deeper than 10 levels at line 1, column 47");
  result_free(&r);
}

TEST(very_deep_nesting_does_not_crash) {
  size_t n = 200000;
  char *text = malloc(2 * n + 1);
  CHECK_NOT_NULL(text);
  memset(text, '[', n);
  memset(text + n, ']', n);
  text[2 * n] = '\0';
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, ACL_ERROR_PARSE_FILE);
  result_free(&r);
  free(text);
}

TEST(parse_twice_replaces) {
  acl__config *cfg = acl__config_new();
  acl__diags d = {0};
  const char *first = "{\"dump\": {\"dump_path\": \"/a\", \"dump_list\": [{\"model_name\": \"m\"}]}}";
  CHECK_INT_EQ(acl__config_parse(cfg, first, strlen(first), &d), 0);
  const char *second = "{\"dump\": {\"dump_path\": \"/b\", \"dump_list\": [{\"model_name\": \"n\"}]}}";
  CHECK_INT_EQ(acl__config_parse(cfg, second, strlen(second), &d), 0);
  char *json = acl__config_to_json(cfg, NULL, 0);
  CHECK_STR_HAS(json, "\"dump_path\": \"/b\"");
  CHECK_STR_HAS(json, "\"model_name\": \"n\"");
  free(json);
  acl__diags_free(&d);
  acl__config_free(cfg);
}

TEST(long_values_are_shortened) {
  char text[1024];
  char big[600];
  memset(big, 'q', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  snprintf(text, sizeof(text), "{\"err_msg_mode\": \"%s\"}", big);
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, ACL_ERROR_INVALID_PARAM);
  const char *msg = first_error(&r);
  CHECK_STR_HAS(msg, "qqq...");
  CHECK(strlen(msg) < 200);
  result_free(&r);
}

TEST(odd_keys_are_escaped_in_paths) {
  result r;
  run(&r, "{\"bad\\u0001key\": 1, \"dump\": {\"\\u00e9\": 1}}");
  CHECK_INT_EQ(r.code, 0);
  CHECK_STR_EQ(r.diags.items[0].path, "bad\\x01key");
  CHECK_STR_EQ(r.diags.items[1].path, "dump.\\xC3\\xA9");
  result_free(&r);
}

TEST(rounding_warnings_give_effective_value) {
  result r;
  run(&r, "{\"StackSize\": {\"aicore_stack_size\": 40000, \"simt_stack_size\": 129,"
          " \"simt_divergence_stack_size\": 1}, \"simt_printf_fifo_size\": 2097153,"
          " \"simd_printf_fifo_size_per_core\": 1025}");
  CHECK_INT_EQ(r.code, 0);
  CHECK(has_warning(&r, "StackSize.aicore_stack_size", "effective value 49152"));
  CHECK(has_warning(&r, "StackSize.simt_stack_size", "effective value 256"));
  CHECK(has_warning(&r, "StackSize.simt_divergence_stack_size", "effective value 128"));
  CHECK(has_warning(&r, "simt_printf_fifo_size", "effective value 2097160"));
  CHECK(has_warning(&r, "simd_printf_fifo_size_per_core", "effective value 1032"));
  CHECK_STR_HAS(r.json, "\"aicore_stack_size\": 49152");
  CHECK_STR_HAS(r.json, "\"simt_stack_size\": 256");
  CHECK_STR_HAS(r.json, "\"simt_divergence_stack_size\": 128");
  CHECK_STR_HAS(r.json, "\"simt_printf_fifo_size\": 2097160");
  CHECK_STR_HAS(r.json, "\"simd_printf_fifo_size_per_core\": 1032");
  result_free(&r);
  /* exact multiples: no warning */
  run(&r, "{\"StackSize\": {\"aicore_stack_size\": 49152}}");
  CHECK_INT_EQ(r.diags.count, 0);
  result_free(&r);
}

/* ---- the environment ------------------------------------------------------ */

static const char *exception_cfg = "{\"dump\": {\"dump_scene\": \"aic_err_brief_dump\", "
                                   "\"dump_path\": \"/tmp/from-file\"}}";

TEST(exception_path_priority) {
  acl__env env = empty_env();
  env.npu_collect_path = "/tmp/npu";
  env.work_path = "/tmp/work";
  result r;
  run_text(&r, exception_cfg, strlen(exception_cfg), &env);
  CHECK_STR_HAS(r.json, "\"exception_dump_path\": \"/tmp/npu\"");
  CHECK_STR_HAS(r.json, "\"exception_dump_path_from\": \"NPU_COLLECT_PATH\"");
  CHECK_STR_HAS(r.json, "\"NPU_COLLECT_PATH\": \"/tmp/npu\"");
  result_free(&r);

  env.npu_collect_path = "";  /* empty counts as unset */
  run_text(&r, exception_cfg, strlen(exception_cfg), &env);
  CHECK_STR_HAS(r.json, "\"exception_dump_path\": \"/tmp/work\"");
  CHECK_STR_HAS(r.json, "\"exception_dump_path_from\": \"ASCEND_WORK_PATH\"");
  result_free(&r);

  env.npu_collect_path = NULL;
  env.work_path = NULL;
  run_text(&r, exception_cfg, strlen(exception_cfg), &env);
  CHECK_STR_HAS(r.json, "\"exception_dump_path\": \"/tmp/from-file\"");
  CHECK_STR_HAS(r.json, "\"exception_dump_path_from\": \"dump.dump_path\"");
  result_free(&r);

  const char *no_path = "{\"dump\": {\"dump_scene\": \"lite_exception\"}}";
  char cwd[PATH_MAX], want[PATH_MAX + 64];
  CHECK_NOT_NULL(getcwd(cwd, sizeof(cwd)));
  snprintf(want, sizeof(want), "\"exception_dump_path\": \"%s\"", cwd);
  run_text(&r, no_path, strlen(no_path), &env);
  CHECK_STR_HAS(r.json, want);
  CHECK_STR_HAS(r.json, "\"exception_dump_path_from\": \"current directory\"");
  result_free(&r);
}

TEST(kernel_data_path_priority) {
  const char *text = "{\"dump\": {\"dump_kernel_data\": \"printf\", \"dump_path\": \"/tmp/f\"}}";
  acl__env env = empty_env();
  env.dump_path = "/tmp/kd";
  env.work_path = "/tmp/work";
  result r;
  run_text(&r, text, strlen(text), &env);
  CHECK_STR_HAS(r.json, "\"kernel_data_path\": \"/tmp/kd\"");
  CHECK_STR_HAS(r.json, "\"kernel_data_path_from\": \"ASCEND_DUMP_PATH\"");
  result_free(&r);
  env.dump_path = NULL;
  run_text(&r, text, strlen(text), &env);
  CHECK_STR_HAS(r.json, "\"kernel_data_path\": \"/tmp/work\"");
  CHECK_STR_HAS(r.json, "\"kernel_data_path_from\": \"ASCEND_WORK_PATH\"");
  result_free(&r);
  env.work_path = NULL;
  run_text(&r, text, strlen(text), &env);
  CHECK_STR_HAS(r.json, "\"kernel_data_path\": \"/tmp/f\"");
  CHECK_STR_HAS(r.json, "\"kernel_data_path_from\": \"dump.dump_path\"");
  result_free(&r);
  /* model dump implies kernel data "all" */
  const char *model = "{\"dump\": {\"dump_list\": [{\"model_name\": \"m\"}], \"dump_path\": \"/tmp/f\"}}";
  run_text(&r, model, strlen(model), &env);
  CHECK_STR_HAS(r.json, "\"dump_kernel_data\": \"all\"");
  CHECK_STR_HAS(r.json, "\"kernel_data_implied\": true");
  result_free(&r);
}

TEST(relative_paths_resolve_against_cwd) {
  char *dir = th_tmpdir();
  char old[PATH_MAX];
  CHECK_NOT_NULL(getcwd(old, sizeof(old)));
  CHECK_INT_EQ(chdir(dir), 0);
  char real[PATH_MAX];
  CHECK_NOT_NULL(getcwd(real, sizeof(real)));
  const char *text = "{\"dump\": {\"dump_list\": [{\"model_name\": \"m\"}], \"dump_path\": "
                     "\"./out/sub\"}, \"profiler\": {\"switch\": \"on\", \"output\": \"prof\"}}";
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, 0);
  char want[PATH_MAX + 64];
  snprintf(want, sizeof(want), "\"dump_path\": \"%s/out/sub\"", real);
  CHECK_STR_HAS(r.json, want);
  snprintf(want, sizeof(want), "\"output_resolved\": \"%s/prof\"", real);
  CHECK_STR_HAS(r.json, want);
  CHECK_STR_HAS(r.json, "\"dump_path\": \"./out/sub\"");  /* as written, too */
  /* nothing was created at init */
  struct stat st;
  CHECK_INT_NE(stat("out", &st), 0);
  /* a creatable directory is not a problem; dump + profiling is */
  char *all = all_diags(&r);
  CHECK(strstr(all, "not writable") == NULL);
  CHECK_STR_HAS(all, "dumping distorts");
  free(all);
  result_free(&r);
  CHECK_INT_EQ(chdir(old), 0);
  th_rmtree(dir);
  free(dir);
}

TEST(unwritable_paths_warn) {
  char *dir = th_tmpdir();
  char *file = th_write_file(dir, "plain", "x");
  char text[1024];
  snprintf(text, sizeof(text), "{\"dump\": {\"dump_debug\": \"on\", \"dump_path\": \"%s\"}}", file);
  result r;
  run(&r, text);
  CHECK_INT_EQ(r.code, 0);
  CHECK(has_warning(&r, "dump.dump_path", "exists and is not a directory"));
  result_free(&r);
  snprintf(text, sizeof(text), "{\"dump\": {\"dump_debug\": \"on\", \"dump_path\": \"%s/a/b\"}}",
           file);
  run(&r, text);
  CHECK(has_warning(&r, "dump.dump_path", "is not a directory"));
  result_free(&r);
  /* an environment path is checked too, under the variable's name */
  acl__env env = empty_env();
  env.npu_collect_path = file;
  run_text(&r, exception_cfg, strlen(exception_cfg), &env);
  CHECK(has_warning(&r, "NPU_COLLECT_PATH", "exists and is not a directory"));
  result_free(&r);
  if (geteuid() != 0) {
    char *ro = NULL;
    CHECK(asprintf(&ro, "%s/ro", dir) > 0);
    CHECK_INT_EQ(mkdir(ro, 0500), 0);
    snprintf(text, sizeof(text), "{\"dump\": {\"dump_debug\": \"on\", \"dump_path\": \"%s\"}}", ro);
    run(&r, text);
    CHECK(has_warning(&r, "dump.dump_path", "not writable"));
    result_free(&r);
    free(ro);
  }
  free(file);
  th_rmtree(dir);
  free(dir);
}

TEST(environment_in_effective_config) {
  acl__env env = empty_env();
  env.process_log_path = "/tmp/logs";
  env.global_log_level = 1;
  env.log_flush_timeout_ms = 0;
  env.rt_visible_devices.set = 1;
  env.rt_visible_devices.raw = "1,0";
  env.device_count = 4;
  result r;
  run_text(&r, "{}", 2, &env);
  CHECK_STR_HAS(r.json, "\"environment\": {");
  CHECK_STR_HAS(r.json, "\"ASCEND_GLOBAL_LOG_LEVEL\": 1");
  CHECK_STR_HAS(r.json, "\"ASCEND_PROCESS_LOG_PATH\": \"/tmp/logs\"");
  CHECK_STR_HAS(r.json, "\"ASCEND_LOG_DEVICE_FLUSH_TIMEOUT\": 0");
  CHECK_STR_HAS(r.json, "\"ASCEND_RT_VISIBLE_DEVICES\": \"1,0\"");
  CHECK_STR_HAS(r.json, "\"ASCEND_VISIBLE_DEVICES\": null");
  CHECK_STR_HAS(r.json, "\"OPENACL_DEVICE_COUNT\": 4");
  /* stable order: sections as documented, environment last */
  const char *d = strstr(r.json, "\"dump\""), *p = strstr(r.json, "\"profiler\""),
             *m = strstr(r.json, "\"max_opqueue_num\""), *e = strstr(r.json, "\"environment\"");
  CHECK(d && p && m && e && d < p && p < m && m < e);
  result_free(&r);
}

/* ---- diff ----------------------------------------------------------------- */

TEST(diff) {
  result a, b;
  run(&a, "{\"max_opqueue_num\": 100}");
  run(&b, "{\"max_opqueue_num\": \"100\"}");
  char *d = acl__config_diff(a.cfg, b.cfg);
  CHECK_STR_EQ(d, "");
  free(d);
  result_free(&b);
  run(&b, "{\"max_opqueue_num\": 10, \"err_msg_mode\": \"1\", \"dump\": {\"dump_list\": "
          "[{\"model_name\": \"m\"}], \"dump_path\": \"/tmp/x\"}}");
  d = acl__config_diff(a.cfg, b.cfg);
  CHECK_NOT_NULL(d);
  CHECK_STR_HAS(d, "max_opqueue_num: 100 -> 10");
  CHECK_STR_HAS(d, "err_msg_mode: \"0\" -> \"1\"");
  CHECK_STR_HAS(d, "dump.dump_path: null -> \"/tmp/x\"");
  CHECK_STR_HAS(d, "dump.dump_list: [] -> [{\"model_name\":\"m\"}]");
  CHECK_STR_HAS(d, "; ");
  CHECK(strstr(d, "enabled") == NULL);
  free(d);
  /* resolved paths and the environment are not configuration differences */
  acl__env env = empty_env();
  env.work_path = "/tmp/elsewhere";
  const char *t = "{\"dump\": {\"dump_scene\": \"lite_exception\", \"dump_path\": \"rel\"}}";
  result c1, c2;
  run_text(&c1, t, strlen(t), &env);
  memset(&c2, 0, sizeof(c2));
  c2.cfg = acl__config_new();
  CHECK_INT_EQ(acl__config_parse(c2.cfg, t, strlen(t), &c2.diags), 0);
  d = acl__config_diff(c1.cfg, c2.cfg);
  CHECK_STR_EQ(d, "");
  free(d);
  result_free(&c1);
  result_free(&c2);
  CHECK_NULL(acl__config_diff(NULL, b.cfg));
  result_free(&a);
  result_free(&b);
}
