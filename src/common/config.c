/*
 * config.c - acl.json: the configuration's lifecycle and accessors, reading
 * the file, the top-level parse and the small sections (defaultDevice,
 * StackSize, the printf FIFO sizes, acl_graph, max_opqueue_num,
 * err_msg_mode).
 *
 * The file is parsed by jansson (duplicate keys rejected), then walked
 * section by section.  Every problem is appended to an acl__diags list with
 * the key path ("dump.dump_list[1].layer"), the bad value and the rule it
 * breaks; validation goes on after an error so that a checker can print all
 * of them, and acl__config_parse returns the code of the first error.
 *
 * The other pieces (config_internal.h declares what they share):
 *  - config_values.c: reporting problems, key paths, showing values, the
 *    scalar readers;
 *  - config_dump.c: the dump section and its cross rules;
 *  - config_profiler.c: the profiler section;
 *  - config_paths.c: environment-dependent path resolution;
 *  - config_json.c: the effective configuration as JSON, and differences
 *    between two configurations.
 *
 * Invariants:
 *  - an acl__config always holds a usable value for every field: the default
 *    until a valid value from the file replaces it;
 *  - strings in the config are owned by it (malloc'd) and freed by
 *    acl__config_free;
 *  - work is bounded: the text is at most 64 MiB, nesting at most 10 levels,
 *    duplicate searches sort, and at most DIAG_CAP entries of each kind are
 *    listed per parse.
 * docs/configuration.md describes every key for users.
 */
#include "common/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "acl/acl_base.h"
#include "common/config_internal.h"

#define CFG_MAX_DEPTH 10                  /* vendor limit on nesting */
#define CFG_MAX_FILE_SIZE (64u << 20)     /* larger files: ACL_ERROR_INVALID_FILE_SIZE */

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* ---- defaults and bounds ------------------------------------------------ */

#define DEF_MAX_OPQUEUE_NUM 20000ull
#define MAX_MAX_OPQUEUE_NUM 4294967295ull
#define DEF_AICORE_STACK (32 * KIB)
#define MIN_AICORE_STACK (32 * KIB)
#define MAX_AICORE_STACK (192 * KIB)       /* A2/A3 families */
#define AICORE_STACK_ALIGN (16 * KIB)
#define SIMT_STACK_ALIGN 128ull
#define MAX_SIMT_STACK (2048 * MIB)
#define FIFO_ALIGN 8ull
#define DEF_SIMT_FIFO (2 * MIB)
#define MIN_SIMT_FIFO (1 * MIB)
#define MAX_SIMT_FIFO (64 * MIB)
#define DEF_SIMD_FIFO (32 * KIB)
#define MIN_SIMD_FIFO (1 * KIB)
#define MAX_SIMD_FIFO (64 * MIB)
#define MAX_DEVICE_ID 2147483647ull

/* ---- key tables --------------------------------------------------------- */

static const char *const k_top_keys[] = {"dump", "profiler", "max_opqueue_num", "err_msg_mode",
                                         "defaultDevice", "StackSize", "simt_printf_fifo_size",
                                         "simd_printf_fifo_size_per_core", "acl_graph", NULL};
static const char *const k_device_keys[] = {"default_device", NULL};
static const char *const k_stack_keys[] = {"aicore_stack_size", "simt_stack_size",
                                           "simt_divergence_stack_size", NULL};
static const char *const k_graph_keys[] = {"event_mode", NULL};

/* ---- the configuration -------------------------------------------------- */

static void strlist_free(strlist *l) {
  for (size_t i = 0; i < l->count; i++)
    free(l->items[i]);
  free(l->items);
  l->items = NULL;
  l->count = 0;
}

void acl__cfg_dump_list_free(acl__config *cfg) {
  for (size_t i = 0; i < cfg->dump_list_count; i++) {
    free(cfg->dump_list[i].model_name);
    strlist_free(&cfg->dump_list[i].layer);
    strlist_free(&cfg->dump_list[i].watcher_nodes);
  }
  free(cfg->dump_list);
  cfg->dump_list = NULL;
  cfg->dump_list_count = 0;
}

void acl__cfg_resolved_free(acl__config *cfg) {
  free(cfg->dump_path_abs);
  free(cfg->exception_path);
  free(cfg->kernel_data_path);
  free(cfg->prof_output_abs);
  cfg->dump_path_abs = cfg->exception_path = cfg->kernel_data_path = cfg->prof_output_abs = NULL;
  cfg->exception_path_source = cfg->kernel_data_path_source = NULL;
  cfg->env_applied = 0;
}

acl__config *acl__config_new(void) {
  acl__config *cfg = calloc(1, sizeof(*cfg));
  if (cfg == NULL)
    return NULL;
  cfg->dump_mode = DUMP_MODE_OUTPUT;
  cfg->dump_data = DUMP_DATA_TENSOR;
  cfg->dump_level = DUMP_LEVEL_ALL;
  cfg->dump_scene = SCENE_NONE;
  cfg->max_opqueue_num = DEF_MAX_OPQUEUE_NUM;
  cfg->default_device = -1;
  cfg->aicore_stack_size = DEF_AICORE_STACK;
  cfg->simt_printf_fifo_size = DEF_SIMT_FIFO;
  cfg->simd_printf_fifo_size_per_core = DEF_SIMD_FIFO;
  return cfg;
}

void acl__config_free(acl__config *cfg) {
  if (cfg == NULL)
    return;
  acl__cfg_dump_list_free(cfg);
  free(cfg->dump_path);
  free(cfg->dump_step);
  for (size_t i = 0; i < PROF_KEY_COUNT; i++)
    free(cfg->prof[i]);
  acl__cfg_resolved_free(cfg);
  free(cfg);
}

int acl__config_err_msg_mode(const acl__config *cfg) { return cfg ? cfg->err_msg_mode : 0; }

int32_t acl__config_default_device(const acl__config *cfg) { return cfg ? cfg->default_device : -1; }

/* ---- reading the file --------------------------------------------------- */

int acl__config_read_file(const char *path, char **text, size_t *len, acl__diags *diags) {
  int rc = ACL_SUCCESS;
  FILE *f = NULL;
  char *buf = NULL;
  size_t used = 0, cap = 0;

  if (text != NULL)
    *text = NULL;
  if (len != NULL)
    *len = 0;
  if (path == NULL || path[0] == '\0' || text == NULL || len == NULL) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE, "",
                   "no configuration file path given");
    return ACL_ERROR_INVALID_FILE;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE, "",
                   "cannot read the configuration file: %s", strerror(errno));
    return ACL_ERROR_INVALID_FILE;
  }
  if (S_ISDIR(st.st_mode)) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE, "",
                   "the configuration path is a directory, not a file");
    return ACL_ERROR_INVALID_FILE;
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > CFG_MAX_FILE_SIZE)
    goto too_big;
  f = fopen(path, "rb");
  if (f == NULL) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE, "",
                   "cannot open the configuration file: %s", strerror(errno));
    return ACL_ERROR_INVALID_FILE;
  }
  /* Read in chunks: the size from stat is only a hint (pipes, /proc). */
  for (;;) {
    if (cap - used < 2) {
      size_t ncap = cap ? cap * 2 : 4096;
      if (ncap > CFG_MAX_FILE_SIZE + 2)
        ncap = CFG_MAX_FILE_SIZE + 2;
      char *nbuf = realloc(buf, ncap);
      if (nbuf == NULL) {
        acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "",
                       "out of memory while reading the configuration file");
        rc = ACL_ERROR_BAD_ALLOC;
        goto out;
      }
      buf = nbuf;
      cap = ncap;
    }
    size_t n = fread(buf + used, 1, cap - used - 1, f);
    used += n;
    if (used > CFG_MAX_FILE_SIZE)
      goto too_big;
    if (n == 0) {
      if (ferror(f)) {
        acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE, "",
                       "cannot read the configuration file: %s", strerror(errno ? errno : EIO));
        rc = ACL_ERROR_INVALID_FILE;
        goto out;
      }
      break;
    }
  }
  buf[used] = '\0';
  *text = buf;
  *len = used;
  buf = NULL;
  goto out;

too_big:
  acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_FILE_SIZE, "",
                 "the configuration file is larger than %u MiB", CFG_MAX_FILE_SIZE >> 20);
  rc = ACL_ERROR_INVALID_FILE_SIZE;
out:
  if (f != NULL)
    fclose(f);
  free(buf);
  return rc;
}

/* ---- the other sections ------------------------------------------------- */

/* Rounds v up to a multiple of align; warns when that changes it. */
static uint64_t round_up(pctx *c, const char *path, uint64_t v, uint64_t align) {
  uint64_t r = (v + align - 1) / align * align;
  if (r != v)
    acl__cfg_warn(c, path, "%llu rounded up to %llu (a multiple of %llu); effective value %llu",
                  (unsigned long long)v, (unsigned long long)r, (unsigned long long)align,
                  (unsigned long long)r);
  return r;
}

static void device_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                       void *arg) {
  (void)key;
  (void)arg;
  uint64_t id;
  if (acl__cfg_get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 0, MAX_DEVICE_ID,
                        "a device id (0 or a positive decimal integer)", &id) == 0)
    cfg->default_device = (int32_t)id;
}

static void stack_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                      void *arg) {
  (void)arg;
  uint64_t n;
  if (strcmp(key, "aicore_stack_size") == 0) {
    if (acl__cfg_get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 0, MAX_AICORE_STACK,
                          "a size in bytes of at most 196608 (192 KiB)", &n) != 0)
      return;
    if (n < MIN_AICORE_STACK) {
      acl__cfg_warn(c, path, "%llu is below the minimum; effective value %llu (32 KiB)",
                    (unsigned long long)n, (unsigned long long)MIN_AICORE_STACK);
      n = MIN_AICORE_STACK;
    }
    cfg->aicore_stack_size = round_up(c, path, n, AICORE_STACK_ALIGN);
  } else {
    if (acl__cfg_get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 1, MAX_SIMT_STACK,
                          "a size in bytes from 1 to 2147483648 (2 GiB)", &n) != 0)
      return;
    n = round_up(c, path, n, SIMT_STACK_ALIGN);
    if (strcmp(key, "simt_stack_size") == 0)
      cfg->simt_stack_size = n;
    else
      cfg->simt_divergence_stack_size = n;
  }
}

static void graph_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                      void *arg) {
  (void)key;
  (void)arg;
  int m = acl__cfg_get_zero_one(c, ACL_ERROR_INVALID_PARAM, path, v);
  if (m >= 0)
    cfg->event_mode = m;
}

static void parse_fifo(pctx *c, const char *path, json_t *v, uint64_t min, uint64_t max,
                       const char *what, uint64_t *out) {
  uint64_t n;
  if (acl__cfg_get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, min, max, what, &n) == 0)
    *out = round_up(c, path, n, FIFO_ALIGN);
}

static void top_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                    void *arg) {
  (void)arg;
  uint64_t n;
  int m;
  if (strcmp(key, "dump") == 0) {
    acl__cfg_parse_dump(c, cfg, path, v);
  } else if (strcmp(key, "profiler") == 0) {
    acl__cfg_parse_profiler(c, cfg, path, v);
  } else if (strcmp(key, "max_opqueue_num") == 0) {
    if (acl__cfg_get_uint(c, ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG, path, v, 1,
                          MAX_MAX_OPQUEUE_NUM, "a positive integer (1 to 4294967295)", &n) == 0)
      cfg->max_opqueue_num = n;
  } else if (strcmp(key, "err_msg_mode") == 0) {
    if ((m = acl__cfg_get_zero_one(c, ACL_ERROR_INVALID_PARAM, path, v)) >= 0)
      cfg->err_msg_mode = m;
  } else if (strcmp(key, "defaultDevice") == 0) {
    if (acl__cfg_need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      acl__cfg_walk_object(c, cfg, path, v, k_device_keys, device_key, NULL);
  } else if (strcmp(key, "StackSize") == 0) {
    if (acl__cfg_need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      acl__cfg_walk_object(c, cfg, path, v, k_stack_keys, stack_key, NULL);
  } else if (strcmp(key, "simt_printf_fifo_size") == 0) {
    parse_fifo(c, path, v, MIN_SIMT_FIFO, MAX_SIMT_FIFO,
               "a size in bytes from 1048576 (1 MiB) to 67108864 (64 MiB)",
               &cfg->simt_printf_fifo_size);
  } else if (strcmp(key, "simd_printf_fifo_size_per_core") == 0) {
    parse_fifo(c, path, v, MIN_SIMD_FIFO, MAX_SIMD_FIFO,
               "a size in bytes from 1024 (1 KiB) to 67108864 (64 MiB)",
               &cfg->simd_printf_fifo_size_per_core);
  } else { /* acl_graph */
    if (acl__cfg_need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      acl__cfg_walk_object(c, cfg, path, v, k_graph_keys, graph_key, NULL);
  }
}

/* ---- the whole file ------------------------------------------------------ */

/* Position of the first bracket nested deeper than CFG_MAX_DEPTH in text that
 * jansson accepted; 0 when there is none. */
static int too_deep(const char *text, size_t len, int *line, int *col) {
  int depth = 0, in_str = 0, esc = 0;
  *line = 1;
  *col = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == '\n') {
      (*line)++;
      *col = 0;
    } else if ((ch & 0xC0) != 0x80) {
      (*col)++;  /* columns count characters, as jansson's do */
    }
    if (in_str) {
      if (esc)
        esc = 0;
      else if (ch == '\\')
        esc = 1;
      else if (ch == '"')
        in_str = 0;
    } else if (ch == '"') {
      in_str = 1;
    } else if (ch == '{' || ch == '[') {
      if (++depth > CFG_MAX_DEPTH)
        return 1;
    } else if (ch == '}' || ch == ']') {
      depth--;
    }
  }
  return 0;
}

static int blank(const char *text, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (strchr(" \t\r\n", text[i]) == NULL || text[i] == '\0')
      return 0;
  return 1;
}

int acl__config_parse(acl__config *cfg, const char *text, size_t len, acl__diags *diags) {
  pctx c = {diags, 0, 0, 0, 0};
  json_t *root = NULL;
  json_error_t jerr;

  if (cfg == NULL || (text == NULL && len > 0)) {
    acl__cfg_err(&c, ACL_ERROR_INVALID_PARAM, "", "no configuration or text to parse");
    goto out;
  }
  /* Empty text is no configuration: aclInit(NULL) and aclInit("") pass it,
   * and an empty file means the same (the defaults). */
  if (text == NULL || blank(text, len))
    goto out;
  root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
  if (root == NULL) {
    acl__cfg_err(&c, ACL_ERROR_PARSE_FILE, "", "JSON syntax error at line %d, column %d: %s",
                 jerr.line, jerr.column, jerr.text);
    goto out;
  }
  int line, col;
  if (too_deep(text, len, &line, &col)) {
    acl__cfg_err(&c, ACL_ERROR_PARSE_FILE, "",
                 "nesting deeper than %d levels at line %d, column %d", CFG_MAX_DEPTH, line, col);
    goto out;
  }
  if (!json_is_object(root)) {
    shown s;
    acl__cfg_err(&c, ACL_ERROR_PARSE_FILE, "", "the top level is %s (%s); expected an object",
                 acl__cfg_type_name(root), acl__cfg_show(&s, root));
    goto out;
  }
  acl__cfg_walk_object(&c, cfg, "", root, k_top_keys, top_key, NULL);

  dump_state st;
  acl__cfg_dump_state_of(cfg, &st);
  int prof_on = cfg->prof[PROF_SWITCH] != NULL && strcmp(cfg->prof[PROF_SWITCH], "on") == 0;
  if (prof_on && acl__cfg_dump_any_on(&st))
    acl__cfg_warn(&c, "profiler.switch", "profiling and dump are both on; dumping distorts the "
                                         "profiled timings");
out:
  json_decref(root);
  return c.first_error;
}
