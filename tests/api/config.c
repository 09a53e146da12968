/*
 * config.c - acl.json through the public API only.
 *
 * Every case of tests/data/config/cases.tsv (file, expected aclInit code,
 * expected message fragment) runs in its own forked child: aclInit(path),
 * then for errors the fragment must be in aclGetRecentErrMsg, for valid
 * files in openaclGetEffectiveConfig or in the warnings that
 * openaclCheckConfigFile reports; openaclCheckConfigFile must agree with
 * aclInit on the code.  tests/api/config.cmake also registers one ctest
 * entry per case (OPENACL_CONFIG_CASE=<file> ... one_case).
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "openacl/openacl.h"

#define DATA_DIR OPENACL_SOURCE_DIR "/tests/data/config"

typedef struct config_case {
  char *file;
  int code;
  char *fragment;
} config_case;

/* The manifest; the array ends with file == NULL.  Lines starting with '#'
 * are comments. */
static config_case *load_cases(size_t *count) {
  char *tsv = th_read_file(DATA_DIR "/cases.tsv");
  CHECK_NOT_NULL(tsv);
  size_t cap = 256, n = 0;
  config_case *cases = calloc(cap, sizeof(*cases));
  CHECK_NOT_NULL(cases);
  char *save = NULL;
  for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || line[0] == '\0')
      continue;
    char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (t2 == NULL)
      th_fail(__FILE__, __LINE__, "cases.tsv: bad line '%s'", line);
    *t1 = *t2 = '\0';
    if (n + 1 == cap) {
      cap *= 2;
      cases = realloc(cases, cap * sizeof(*cases));
      CHECK_NOT_NULL(cases);
    }
    cases[n].file = strdup(line);
    cases[n].code = atoi(t1 + 1);
    cases[n].fragment = strdup(t2 + 1);
    n++;
  }
  cases[n].file = NULL;
  free(tsv);
  *count = n;
  return cases;
}

static void free_cases(config_case *cases) {
  for (size_t i = 0; cases[i].file; i++) {
    free(cases[i].file);
    free(cases[i].fragment);
  }
  free(cases);
}

/* openaclCheckConfigFile's whole report (malloc'd) and its code. */
static char *check_report(const char *path, aclError *rc) {
  size_t needed = 0;
  *rc = openaclCheckConfigFile(path, NULL, 0, &needed);
  if (needed == 0)
    return strdup("");
  char *buf = malloc(needed);
  CHECK_NOT_NULL(buf);
  aclError again = openaclCheckConfigFile(path, buf, needed, &needed);
  CHECK_INT_EQ(again, *rc);
  return buf;
}

static char *effective_config(void) {
  size_t needed = 0;
  aclError rc = openaclGetEffectiveConfig(NULL, 0, &needed);
  CHECK_INT_EQ(rc, ACL_ERROR_INVALID_PARAM);  /* too small, needed set */
  CHECK(needed > 2);
  char *buf = malloc(needed);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(openaclGetEffectiveConfig(buf, needed, &needed), ACL_SUCCESS);
  return buf;
}

#define CASE_FAIL(...)                                                       \
  do {                                                                       \
    printf("  %s: ", c->file);                                               \
    printf(__VA_ARGS__);                                                     \
    printf("\n");                                                            \
    fflush(stdout);                                                          \
    _exit(1);                                                                \
  } while (0)

/* Runs in the child: one case, exit status 0 when it passes. */
static void run_case(const config_case *c) {
  char path[PATH_MAX];
  snprintf(path, sizeof(path), "%s/%s", DATA_DIR, c->file);
  /* the documented path priorities must not pick up the caller's setting */
  unsetenv("NPU_COLLECT_PATH");
  unsetenv("ASCEND_WORK_PATH");
  unsetenv("ASCEND_DUMP_PATH");
  /* aclInit prints warnings to stderr; keep the report readable */
  int null_fd = open("/dev/null", O_WRONLY);
  if (null_fd >= 0) {
    dup2(null_fd, 2);
    close(null_fd);
  }

  aclError check_rc;
  char *report = check_report(path, &check_rc);
  if (check_rc != c->code)
    CASE_FAIL("openaclCheckConfigFile returned %d, expected %d; report:\n%s", check_rc, c->code,
              report);
  if (strstr(report, c->fragment) == NULL && c->code != 0)
    CASE_FAIL("openaclCheckConfigFile report lacks '%s':\n%s", c->fragment, report);
  if (c->code != 0 && strncmp(report, "error ", 6) != 0 && strstr(report, "\nerror ") == NULL)
    CASE_FAIL("openaclCheckConfigFile report has no 'error' line:\n%s", report);

  aclError rc = aclInit(path);
  if (rc != c->code) {
    const char *msg = aclGetRecentErrMsg();
    CASE_FAIL("aclInit returned %d, expected %d (%s)", rc, c->code, msg ? msg : "no message");
  }
  if (c->code != 0) {
    const char *msg = aclGetRecentErrMsg();
    if (msg == NULL || strstr(msg, c->fragment) == NULL)
      CASE_FAIL("aclGetRecentErrMsg lacks '%s': %s", c->fragment, msg ? msg : "(null)");
    if (strstr(msg, c->file) == NULL)
      CASE_FAIL("aclGetRecentErrMsg does not name the file: %s", msg);
  } else {
    char *json = effective_config();
    if (strstr(json, c->fragment) == NULL && strstr(report, c->fragment) == NULL)
      CASE_FAIL("neither the effective configuration nor a warning has '%s':\n%s\n%s",
                c->fragment, json, report);
    free(json);
    rc = aclFinalize();
    if (rc != ACL_SUCCESS)
      CASE_FAIL("aclFinalize returned %d", rc);
  }
  free(report);
  fflush(stdout);
  _exit(0);
}

/* Forks a child per case; prints one line per case; the number that failed. */
static int run_cases(const config_case *cases, const char *only) {
  int failed = 0, ran = 0;
  for (size_t i = 0; cases[i].file; i++) {
    if (only != NULL && strcmp(cases[i].file, only) != 0)
      continue;
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
      run_case(&cases[i]);
    int status = 0;
    CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    printf("%s %s (expect %d)%s\n", ok ? "ok  " : "FAIL", cases[i].file, cases[i].code,
           WIFSIGNALED(status) ? " - killed by a signal" : "");
    failed += !ok;
    ran++;
  }
  printf("%d configuration cases, %d failed\n", ran, failed);
  if (only != NULL && ran == 0)
    th_fail(__FILE__, __LINE__, "no case named '%s' in cases.tsv", only);
  return failed;
}

TEST(all_cases) {
  size_t n;
  config_case *cases = load_cases(&n);
  CHECK(n >= 60);
  int failed = run_cases(cases, NULL);
  free_cases(cases);
  CHECK_INT_EQ(failed, 0);
}

/* One case named by OPENACL_CONFIG_CASE (ctest runs each this way); nothing
 * when the variable is unset. */
TEST(one_case) {
  const char *only = getenv("OPENACL_CONFIG_CASE");
  if (only == NULL || only[0] == '\0')
    return;
  size_t n;
  config_case *cases = load_cases(&n);
  int failed = run_cases(cases, only);
  free_cases(cases);
  CHECK_INT_EQ(failed, 0);
}

/* ---- openaclCheckConfigFile ---------------------------------------------- */

TEST(check_reports_every_problem) {
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "acl.json",
                             "{\n"
                             "  \"dumpp\": {},\n"
                             "  \"err_msg_mode\": \"x\",\n"
                             "  \"dump\": {\"dump_mode\": \"everything\"},\n"
                             "  \"max_opqueue_num\": -3,\n"
                             "  \"StackSize\": {\"aicore_stack_size\": 40000}\n"
                             "}\n");
  aclError rc;
  char *report = check_report(path, &rc);
  CHECK_INT_EQ(rc, ACL_ERROR_INVALID_PARAM);  /* the first error's code */
  CHECK_STR_HAS(report, "warning dumpp: unknown key, ignored; did you mean \"dump\"?\n");
  CHECK_STR_HAS(report, "error err_msg_mode: \"x\" is not one of \"0\", \"1\"\n");
  CHECK_STR_HAS(report, "error dump.dump_mode: \"everything\" is not one of input, output, all\n");
  CHECK_STR_HAS(report, "error max_opqueue_num: -3 is negative");
  CHECK_STR_HAS(report, "warning StackSize.aicore_stack_size: 40000 rounded up to 49152");
  /* in file order */
  CHECK(strstr(report, "dumpp") < strstr(report, "err_msg_mode"));
  CHECK(strstr(report, "dump.dump_mode") < strstr(report, "max_opqueue_num"));
  free(report);
  /* checking does not initialise */
  size_t needed = 0;
  CHECK_INT_EQ(openaclGetEffectiveConfig(NULL, 0, &needed), ACL_ERROR_UNINITIALIZE);
  free(path);
  th_rmtree(dir);
  free(dir);
}

TEST(check_valid_file_gives_effective_config) {
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "acl.json", "{\"max_opqueue_num\": \"300\"}");
  aclError rc;
  char *report = check_report(path, &rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_HAS(report, "\"max_opqueue_num\": 300");
  CHECK(strstr(report, "error ") == NULL);
  free(report);
  /* a short buffer truncates, never fails */
  char small[16];
  size_t needed = 0;
  CHECK_INT_EQ(openaclCheckConfigFile(path, small, sizeof(small), &needed), ACL_SUCCESS);
  CHECK(needed > sizeof(small));
  CHECK_INT_EQ(strlen(small), sizeof(small) - 1);
  free(path);
  th_rmtree(dir);
  free(dir);
}

TEST(check_missing_file) {
  aclError rc;
  char *report = check_report("/nonexistent/openacl/acl.json", &rc);
  CHECK_INT_EQ(rc, ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(report, "error ");
  CHECK_STR_HAS(report, "No such file or directory");
  free(report);
  size_t needed = 0;
  CHECK_INT_EQ(openaclCheckConfigFile(NULL, NULL, 0, &needed), ACL_ERROR_INVALID_PARAM);
}

/* ---- aclInit and the environment ----------------------------------------- */

TEST(no_file_means_defaults) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  char *json = effective_config();
  CHECK_STR_HAS(json, "\"max_opqueue_num\": 20000");
  CHECK_STR_HAS(json, "\"aicore_stack_size\": 32768");
  CHECK_STR_HAS(json, "\"environment\": {");
  free(json);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclInit(""), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(exception_dump_path_from_environment) {
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "acl.json",
                             "{\"dump\": {\"dump_scene\": \"aic_err_brief_dump\", "
                             "\"dump_path\": \"/tmp/from-file\"}}");
  setenv("NPU_COLLECT_PATH", dir, 1);
  setenv("ASCEND_WORK_PATH", "/tmp/work", 1);
  CHECK_INT_EQ(aclInit(path), ACL_SUCCESS);
  char *json = effective_config();
  char want[PATH_MAX + 64];
  snprintf(want, sizeof(want), "\"exception_dump_path\": \"%s\"", dir);
  CHECK_STR_HAS(json, want);
  CHECK_STR_HAS(json, "\"exception_dump_path_from\": \"NPU_COLLECT_PATH\"");
  free(json);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
}

TEST(kernel_data_path_from_environment) {
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "acl.json",
                             "{\"dump\": {\"dump_kernel_data\": \"printf\", "
                             "\"dump_path\": \"/tmp/from-file\"}}");
  unsetenv("ASCEND_DUMP_PATH");
  setenv("ASCEND_WORK_PATH", dir, 1);
  CHECK_INT_EQ(aclInit(path), ACL_SUCCESS);
  char *json = effective_config();
  char want[PATH_MAX + 64];
  snprintf(want, sizeof(want), "\"kernel_data_path\": \"%s\"", dir);
  CHECK_STR_HAS(json, want);
  CHECK_STR_HAS(json, "\"kernel_data_path_from\": \"ASCEND_WORK_PATH\"");
  free(json);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
}

TEST(error_names_code_and_key) {
  char *dir = th_tmpdir();
  char *path = th_write_file(dir, "acl.json", "{\"max_opqueue_num\": \"0\"}");
  CHECK_INT_EQ(aclInit(path), ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG);
  const char *msg = aclGetRecentErrMsg();
  CHECK_NOT_NULL(msg);
  CHECK_STR_HAS(msg, "aclInit failed: ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG (148048)");
  CHECK_STR_HAS(msg, "max_opqueue_num: \"0\" is out of range");
  /* a failed aclInit leaves the process uninitialised: a valid one works */
  free(path);
  path = th_write_file(dir, "ok.json", "{}");
  CHECK_INT_EQ(aclInit(path), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
}

TEST(repeated_init_reports_difference) {
  char *dir = th_tmpdir();
  char *first = th_write_file(dir, "first.json", "{\"dump\": {\"dump_scene\": \"lite_exception\"}}");
  char *second = th_write_file(dir, "second.json",
                               "{\"max_opqueue_num\": 10, \"dump\": {\"dump_scene\": "
                               "\"lite_exception\", \"dump_mode\": \"all\"}}");
  CHECK_INT_EQ(aclInit(first), ACL_SUCCESS);
  CHECK_INT_EQ(aclInit(second), ACL_ERROR_REPEAT_INITIALIZE);
  const char *msg = aclGetRecentErrMsg();
  CHECK_NOT_NULL(msg);
  CHECK_STR_HAS(msg, "max_opqueue_num: 20000 -> 10");
  CHECK_STR_HAS(msg, "dump.dump_mode: \"output\" -> \"all\"");
  CHECK(strstr(msg, "resolved") == NULL);
  /* the first configuration stays */
  char *json = effective_config();
  CHECK_STR_HAS(json, "\"max_opqueue_num\": 20000");
  free(json);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  free(first);
  free(second);
  th_rmtree(dir);
  free(dir);
}
