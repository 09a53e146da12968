/*
 * config.c - acl.json: reading, validation, rounding, environment-dependent
 * path resolution, the effective configuration as JSON, and differences
 * between two configurations.
 *
 * The file is parsed by jansson (duplicate keys rejected), then walked
 * section by section.  Every problem is appended to an acl__diags list with
 * the key path ("dump.dump_list[1].layer"), the bad value and the rule it
 * breaks; validation goes on after an error so that a checker can print all
 * of them, and acl__config_parse returns the code of the first error.
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
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "acl/acl_base.h"

#define CFG_MAX_DEPTH 10                  /* vendor limit on nesting */
#define CFG_MAX_FILE_SIZE (64u << 20)     /* larger files: ACL_ERROR_INVALID_FILE_SIZE */
#define CFG_SHOW_MAX 64                   /* bad values are shown up to this many bytes */
#define CFG_KEY_SHOW_MAX 64               /* keys in paths likewise */
#define CFG_PATH_MAX 512                  /* a key path buffer */
#define DIAG_CAP 100                      /* entries of each kind listed per parse */

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

/* ---- value tables ------------------------------------------------------- */

static const char *const k_on_off[] = {"on", "off", NULL};
static const char *const k_dump_mode[] = {"input", "output", "all", NULL};
enum { DUMP_MODE_INPUT, DUMP_MODE_OUTPUT, DUMP_MODE_ALL };
static const char *const k_dump_data[] = {"tensor", "stats", NULL};
enum { DUMP_DATA_TENSOR, DUMP_DATA_STATS };
static const char *const k_dump_level[] = {"op", "kernel", "all", NULL};
enum { DUMP_LEVEL_OP, DUMP_LEVEL_KERNEL, DUMP_LEVEL_ALL };
static const char *const k_dump_scene[] = {"aic_err_brief_dump", "aic_err_norm_dump",
                                           "aic_err_detail_dump", "lite_exception",
                                           "watcher", NULL};
enum { SCENE_NONE = -1, SCENE_BRIEF, SCENE_NORM, SCENE_DETAIL, SCENE_LITE, SCENE_WATCHER };
static const char *const k_kernel_data[] = {"all", "printf", "tensor", "assert", "timestamp", NULL};
enum { KD_ALL = 1, KD_PRINTF = 2, KD_TENSOR = 4, KD_ASSERT = 8, KD_TIMESTAMP = 16 };

static const char *const k_dump_keys[] = {"dump_list", "dump_path", "dump_mode", "dump_op_switch",
                                          "dump_data", "dump_level", "dump_debug", "dump_scene",
                                          "dump_kernel_data", NULL};
static const char *const k_entry_keys[] = {"model_name", "layer", "watcher_nodes", NULL};
static const char *const k_top_keys[] = {"dump", "profiler", "max_opqueue_num", "err_msg_mode",
                                         "defaultDevice", "StackSize", "simt_printf_fifo_size",
                                         "simd_printf_fifo_size_per_core", "acl_graph", NULL};
static const char *const k_device_keys[] = {"default_device", NULL};
static const char *const k_stack_keys[] = {"aicore_stack_size", "simt_stack_size",
                                           "simt_divergence_stack_size", NULL};
static const char *const k_graph_keys[] = {"event_mode", NULL};

/* The profiler section: every key openacl knows and the form of its value. */
enum prof_kind { PK_SWITCH, PK_PATH, PK_ENUM, PK_FREQ, PK_LIST, PK_STORAGE };
static const char *const k_task_time[] = {"on", "off", "l0", "l1", NULL};
static const char *const k_ge_api[] = {"off", "l0", "l1", NULL};
static const char *const k_aic_metrics[] = {"ArithmeticUtilization", "PipeUtilization", "Memory",
                                            "MemoryL0", "MemoryUB", "ResourceConflictRatio",
                                            "L2Cache", "PipeExecuteUtilization", "MemoryAccess",
                                            NULL};
static const char *const k_llc[] = {"read", "write", NULL};
static const char *const k_host_sys[] = {"cpu", "mem", "disk", "network", "osrt", NULL};
static const char *const k_host_sys_usage[] = {"cpu", "mem", NULL};

typedef struct prof_key {
  const char *key;
  enum prof_kind kind;
  const char *const *values;  /* PK_ENUM, PK_LIST */
} prof_key;

static const prof_key k_prof[] = {
    {"switch", PK_SWITCH, k_on_off},
    {"output", PK_PATH, NULL},
    {"storage_limit", PK_STORAGE, NULL},
    {"acl_api", PK_SWITCH, k_on_off},
    {"task_time", PK_ENUM, k_task_time},
    {"aicpu", PK_SWITCH, k_on_off},
    {"aic_metrics", PK_ENUM, k_aic_metrics},
    {"l2", PK_SWITCH, k_on_off},
    {"hccl", PK_SWITCH, k_on_off},
    {"msproftx", PK_SWITCH, k_on_off},
    {"runtime_api", PK_SWITCH, k_on_off},
    {"ge_api", PK_ENUM, k_ge_api},
    {"training_trace", PK_SWITCH, k_on_off},
    {"task_memory", PK_SWITCH, k_on_off},
    {"op_attr", PK_SWITCH, k_on_off},
    {"sys_hardware_mem_freq", PK_FREQ, NULL},
    {"llc_profiling", PK_ENUM, k_llc},
    {"sys_io_sampling_freq", PK_FREQ, NULL},
    {"sys_interconnection_freq", PK_FREQ, NULL},
    {"dvpp_freq", PK_FREQ, NULL},
    {"host_sys", PK_LIST, k_host_sys},
    {"host_sys_usage", PK_LIST, k_host_sys_usage},
    {"host_sys_usage_freq", PK_FREQ, NULL},
};
#define PROF_KEY_COUNT (sizeof(k_prof) / sizeof(k_prof[0]))
#define PROF_SWITCH 0
#define PROF_OUTPUT 1
#define MIN_FREQ 1
#define MAX_FREQ 100
#define MIN_STORAGE_MB 200ull
#define MAX_STORAGE_MB 4294967295ull

/* ---- the configuration -------------------------------------------------- */

typedef struct strlist {
  char **items;
  size_t count;
} strlist;

typedef struct dump_entry {
  char *model_name;      /* NULL when absent */
  int has_layer;
  strlist layer;
  int has_watcher_nodes;
  strlist watcher_nodes;
} dump_entry;

struct acl__config {
  /* dump */
  int dump_present;
  int dump_list_present;
  dump_entry *dump_list;
  size_t dump_list_count;
  char *dump_path;             /* as written; NULL when absent */
  int dump_mode;
  int dump_mode_given;
  int dump_op_switch;          /* 0/1 */
  int dump_data;
  int dump_level;
  int dump_debug;              /* 0/1 */
  int dump_scene;              /* SCENE_* */
  unsigned kernel_data;        /* KD_* bits as written; 0 when absent */
  /* profiler */
  int prof_present;
  char *prof[PROF_KEY_COUNT];  /* values as written (numbers as decimal); NULL = absent */
  /* scalars */
  uint64_t max_opqueue_num;
  int err_msg_mode;
  int32_t default_device;      /* -1 = not set */
  uint64_t aicore_stack_size;
  uint64_t simt_stack_size;             /* 0 = platform default */
  uint64_t simt_divergence_stack_size;  /* 0 = platform default */
  uint64_t simt_printf_fifo_size;
  uint64_t simd_printf_fifo_size_per_core;
  int event_mode;
  /* resolved by acl__config_apply_env; NULL until then or when unused */
  int env_applied;
  char *dump_path_abs;
  char *exception_path;
  const char *exception_path_source;  /* static string */
  char *kernel_data_path;
  const char *kernel_data_path_source;
  char *prof_output_abs;
};

/* What the dump section turns on, derived from the fields. */
typedef struct dump_state {
  int model;       /* dump_list names a model (not in watcher mode) */
  int op;          /* dump_op_switch on */
  int overflow;    /* dump_debug on */
  int exception;   /* dump_scene aic_err_* / lite_exception */
  int watcher;     /* dump_scene watcher */
  unsigned kernel; /* effective KD_* bits (implied all with model/op dump) */
  int kernel_implied;
} dump_state;

static void dump_state_of(const acl__config *cfg, dump_state *s) {
  memset(s, 0, sizeof(*s));
  s->watcher = cfg->dump_scene == SCENE_WATCHER;
  s->exception = cfg->dump_scene >= SCENE_BRIEF && cfg->dump_scene <= SCENE_LITE;
  s->op = cfg->dump_op_switch;
  s->overflow = cfg->dump_debug;
  if (!s->watcher)
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      if (cfg->dump_list[i].model_name != NULL)
        s->model = 1;
  s->kernel = cfg->kernel_data;
  if (s->kernel == 0 && (s->model || s->op)) {
    s->kernel = KD_ALL;
    s->kernel_implied = 1;
  }
}

static int dump_any_on(const dump_state *s) {
  return s->model || s->op || s->overflow || s->exception || s->watcher || s->kernel;
}

static void strlist_free(strlist *l) {
  for (size_t i = 0; i < l->count; i++)
    free(l->items[i]);
  free(l->items);
  l->items = NULL;
  l->count = 0;
}

static void dump_list_free(acl__config *cfg) {
  for (size_t i = 0; i < cfg->dump_list_count; i++) {
    free(cfg->dump_list[i].model_name);
    strlist_free(&cfg->dump_list[i].layer);
    strlist_free(&cfg->dump_list[i].watcher_nodes);
  }
  free(cfg->dump_list);
  cfg->dump_list = NULL;
  cfg->dump_list_count = 0;
}

static void resolved_free(acl__config *cfg) {
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
  dump_list_free(cfg);
  free(cfg->dump_path);
  for (size_t i = 0; i < PROF_KEY_COUNT; i++)
    free(cfg->prof[i]);
  resolved_free(cfg);
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

/* ---- parse context, paths, value display -------------------------------- */

typedef struct pctx {
  acl__diags *diags;
  int first_error;     /* code of the first error of this parse, 0 if none */
  size_t errors, warnings;
  int capped;
} pctx;

static void vreport(pctx *c, acl__diag_kind kind, int code, const char *path, const char *fmt,
                    va_list ap) {
  size_t *n = kind == ACL__DIAG_ERROR ? &c->errors : &c->warnings;
  if (kind == ACL__DIAG_ERROR && c->first_error == 0)
    c->first_error = code;
  if (*n >= DIAG_CAP) {
    if (!c->capped)
      acl__diags_add(c->diags, ACL__DIAG_WARNING, 0, "",
                     "more than %d problems of one kind; the rest are not listed", DIAG_CAP);
    c->capped = 1;
    return;
  }
  (*n)++;
  char *msg = NULL;
  if (vasprintf(&msg, fmt, ap) < 0)
    msg = NULL;
  acl__diags_add(c->diags, kind, kind == ACL__DIAG_ERROR ? code : 0, path, "%s",
                 msg ? msg : "(out of memory formatting the message)");
  free(msg);
}

static void err(pctx *c, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void err(pctx *c, int code, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(c, ACL__DIAG_ERROR, code, path, fmt, ap);
  va_end(ap);
}

static void warn(pctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(pctx *c, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(c, ACL__DIAG_WARNING, 0, path, fmt, ap);
  va_end(ap);
}

/* Appends src to dst (capacity n), keeping dst NUL-terminated. */
static void append(char *dst, size_t n, const char *src) {
  size_t used = strlen(dst);
  if (used + 1 >= n)
    return;
  snprintf(dst + used, n - used, "%s", src);
}

/* out = parent.key, with unprintable bytes of the key shown as \xNN and long
 * keys shortened. */
static void path_key(char *out, size_t n, const char *parent, const char *key) {
  out[0] = '\0';
  if (parent[0] != '\0') {
    append(out, n, parent);
    append(out, n, ".");
  }
  size_t shown = 0;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++, shown++) {
    if (shown == CFG_KEY_SHOW_MAX) {
      append(out, n, "...");
      break;
    }
    char tmp[8];
    if (*p >= 0x20 && *p < 0x7f) {
      tmp[0] = (char)*p;
      tmp[1] = '\0';
    } else {
      snprintf(tmp, sizeof(tmp), "\\x%02X", *p);
    }
    append(out, n, tmp);
  }
}

static void path_index(char *out, size_t n, const char *parent, size_t i) {
  snprintf(out, n, "%s[%zu]", parent, i);
}

/* A JSON value as the user wrote it, ASCII only, shortened when long. */
typedef struct shown {
  char text[CFG_SHOW_MAX + 8];
} shown;

static const char *show(shown *s, const json_t *v) {
  char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
  if (d == NULL) {
    snprintf(s->text, sizeof(s->text), "(value)");
    return s->text;
  }
  size_t len = strlen(d);
  if (len <= CFG_SHOW_MAX) {
    memcpy(s->text, d, len + 1);
  } else {
    size_t cut = CFG_SHOW_MAX - 3;
    /* do not end inside a \uXXXX escape */
    for (size_t back = 0; back < 6 && back < cut; back++)
      if (d[cut - back - 1] == '\\') {
        cut -= back + 1;
        break;
      }
    memcpy(s->text, d, cut);
    memcpy(s->text + cut, "...", 4);
  }
  free(d);
  return s->text;
}

static const char *type_name(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER:
  case JSON_REAL: return "a number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  case JSON_NULL: return "null";
  }
  return "a value";
}

/* "a, b, c" from a NULL-terminated table. */
static void join_names(char *out, size_t n, const char *const *names) {
  out[0] = '\0';
  for (size_t i = 0; names[i] != NULL; i++) {
    if (i > 0)
      append(out, n, ", ");
    append(out, n, names[i]);
  }
}

static int name_index(const char *const *names, const char *s) {
  for (int i = 0; names[i] != NULL; i++)
    if (strcmp(names[i], s) == 0)
      return i;
  return -1;
}

/* ---- "did you mean" ------------------------------------------------------ */

static int lower(int ch) { return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch; }

/* Case-insensitive edit distance, or a large number for long strings. */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 48 || lb > 48)
    return 1000;
  size_t row[49];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t cost = lower((unsigned char)a[i - 1]) == lower((unsigned char)b[j - 1]) ? 0 : 1;
      size_t best = diag + cost;
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

static const char *suggest(const char *key, const char *const *known) {
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  for (size_t i = 0; known[i] != NULL; i++) {
    size_t d = edit_distance(key, known[i]);
    if (d < best_d) {
      best_d = d;
      best = known[i];
    }
  }
  size_t len = strlen(key);
  size_t limit = len <= 4 ? 1 : len <= 10 ? 2 : 3;
  return best_d <= limit ? best : NULL;
}

static void unknown_key(pctx *c, const char *path, const char *key, const char *const *known) {
  const char *s = suggest(key, known);
  if (s != NULL)
    warn(c, path, "unknown key, ignored; did you mean \"%s\"?", s);
  else
    warn(c, path, "unknown key, ignored");
}

/* ---- scalar readers ------------------------------------------------------ */

/* A non-empty string without embedded NULs; else an error (returns NULL). */
static const char *get_string(pctx *c, int code, const char *path, const json_t *v,
                              const char *what) {
  shown s;
  if (!json_is_string(v)) {
    err(c, code, path, "%s is %s; expected %s", show(&s, v), type_name(v), what);
    return NULL;
  }
  const char *str = json_string_value(v);
  if (json_string_length(v) != strlen(str)) {
    err(c, code, path, "%s contains a NUL character; expected %s", show(&s, v), what);
    return NULL;
  }
  if (str[0] == '\0') {
    err(c, code, path, "\"\" is empty; expected %s", what);
    return NULL;
  }
  return str;
}

/* One of names (a string); the index, or -1 after an error. */
static int get_enum(pctx *c, int code, const char *path, const json_t *v,
                    const char *const *names) {
  char list[256];
  join_names(list, sizeof(list), names);
  shown s;
  if (!json_is_string(v) || json_string_length(v) != strlen(json_string_value(v))) {
    err(c, code, path, "%s is %s; expected a string, one of %s", show(&s, v),
        type_name(v), list);
    return -1;
  }
  int i = name_index(names, json_string_value(v));
  if (i < 0) {
    const char *near = suggest(json_string_value(v), names);
    err(c, code, path, "%s is not one of %s%s%s%s", show(&s, v), list,
        near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "");
  }
  return i;
}

/* A non-negative integer written as a JSON number or a string of decimal
 * digits, within [min, max].  Returns 0 and sets *out, or -1 after an error.
 * `what` describes the rule ("a positive integer"). */
static int get_uint(pctx *c, int code, const char *path, const json_t *v, uint64_t min,
                    uint64_t max, const char *what, uint64_t *out) {
  shown s;
  uint64_t val = 0;
  if (json_is_integer(v)) {
    json_int_t i = json_integer_value(v);
    if (i < 0) {
      err(c, code, path, "%s is negative; expected %s", show(&s, v), what);
      return -1;
    }
    val = (uint64_t)i;
  } else if (json_is_real(v)) {
    double d = json_real_value(v);
    if (d < 0) {
      err(c, code, path, "%s is negative; expected %s", show(&s, v), what);
      return -1;
    }
    if (d != d || d >= 18446744073709551616.0) {
      err(c, code, path, "%s is out of range; expected %s", show(&s, v), what);
      return -1;
    }
    val = (uint64_t)d;
    if ((double)val != d) {
      err(c, code, path, "%s is not an integer; expected %s", show(&s, v), what);
      return -1;
    }
  } else if (json_is_string(v)) {
    const char *str = json_string_value(v);
    size_t len = json_string_length(v);
    if (len == 0) {
      err(c, code, path, "\"\" is empty; expected %s", what);
      return -1;
    }
    if (str[0] == '-' && len > 1) {
      int digits = 1;
      for (size_t k = 1; k < len; k++)
        digits &= str[k] >= '0' && str[k] <= '9';
      if (digits) {
        err(c, code, path, "%s is negative; expected %s", show(&s, v), what);
        return -1;
      }
    }
    for (size_t k = 0; k < len; k++) {
      if (str[k] < '0' || str[k] > '9') {
        err(c, code, path, "%s is not a string of decimal digits; expected %s", show(&s, v),
            what);
        return -1;
      }
      unsigned digit = (unsigned)(str[k] - '0');
      if (val > (UINT64_MAX - digit) / 10) {
        err(c, code, path, "%s is out of range; expected %s", show(&s, v), what);
        return -1;
      }
      val = val * 10 + digit;
    }
  } else {
    err(c, code, path, "%s is %s; expected %s (a number or a string of digits)", show(&s, v),
        type_name(v), what);
    return -1;
  }
  if (val < min || val > max) {
    err(c, code, path, "%s is out of range; expected %s", show(&s, v), what);
    return -1;
  }
  *out = val;
  return 0;
}

/* "0" or "1" (string or number); the value or -1 after an error. */
static int get_zero_one(pctx *c, int code, const char *path, const json_t *v) {
  uint64_t val;
  shown s;
  if (json_is_string(v) || json_is_integer(v) || json_is_real(v)) {
    /* check form quietly first so that the message names the two values */
    pctx quiet = {NULL, 0, 0, 0, 1};
    if (get_uint(&quiet, code, path, v, 0, 1, "", &val) == 0)
      return (int)val;
  }
  err(c, code, path, "%s is not one of \"0\", \"1\"", show(&s, v));
  return -1;
}

/* Copies a string; a failed allocation is an out-of-memory error. */
static char *dup_str(pctx *c, const char *path, const char *s) {
  char *d = strdup(s);
  if (d == NULL)
    err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
  return d;
}

/* Walks the keys of an object: calls fn for known ones, warns about others. */
typedef void (*key_fn)(pctx *c, acl__config *cfg, const char *key, const char *path,
                       json_t *v, void *arg);

static void walk_object(pctx *c, acl__config *cfg, const char *path, json_t *obj,
                        const char *const *known, key_fn fn, void *arg) {
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    char child[CFG_PATH_MAX];
    path_key(child, sizeof(child), path, key);
    if (name_index(known, key) >= 0)
      fn(c, cfg, key, child, v, arg);
    else
      unknown_key(c, child, key, known);
  }
}

/* An object section; an error with `code` when v is something else. */
static int need_object(pctx *c, int code, const char *path, const json_t *v) {
  if (json_is_object(v))
    return 1;
  shown s;
  err(c, code, path, "%s is %s; expected an object", show(&s, v), type_name(v));
  return 0;
}

/* ---- dump ---------------------------------------------------------------- */

#define DUMP_ERR ACL_ERROR_INVALID_DUMP_CONFIG

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A sorted copy of a list's pointers (NULL when empty or out of memory). */
static char **sorted(const strlist *l) {
  if (l->count == 0)
    return NULL;
  char **s = malloc(l->count * sizeof(*s));
  if (s == NULL)
    return NULL;
  memcpy(s, l->items, l->count * sizeof(*s));
  qsort(s, l->count, sizeof(*s), cmp_str);
  return s;
}

static void warn_duplicates(pctx *c, const char *path, const strlist *l) {
  char **s = sorted(l);
  if (s == NULL)
    return;
  for (size_t i = 1; i < l->count; i++)
    if (strcmp(s[i - 1], s[i]) == 0 && (i == 1 || strcmp(s[i - 2], s[i]) != 0))
      warn(c, path, "\"%.*s\" is listed more than once", CFG_SHOW_MAX, s[i]);
  free(s);
}

/* An array of non-empty operator names. */
static void get_name_list(pctx *c, const char *path, json_t *v, strlist *out) {
  shown s;
  if (!json_is_array(v)) {
    err(c, DUMP_ERR, path, "%s is %s; expected an array of operator names", show(&s, v),
        type_name(v));
    return;
  }
  size_t n = json_array_size(v);
  if (n == 0)
    return;
  out->items = calloc(n, sizeof(*out->items));
  if (out->items == NULL) {
    err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
    return;
  }
  for (size_t i = 0; i < n; i++) {
    char child[CFG_PATH_MAX];
    path_index(child, sizeof(child), path, i);
    const char *name = get_string(c, DUMP_ERR, child, json_array_get(v, i),
                                  "a non-empty operator name");
    if (name == NULL)
      continue;
    char *d = dup_str(c, child, name);
    if (d != NULL)
      out->items[out->count++] = d;
  }
  warn_duplicates(c, path, out);
}

static void entry_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                      void *arg) {
  (void)cfg;
  dump_entry *e = arg;
  if (strcmp(key, "model_name") == 0) {
    const char *name = get_string(c, DUMP_ERR, path, v, "a non-empty model name");
    if (name != NULL)
      e->model_name = dup_str(c, path, name);
  } else if (strcmp(key, "layer") == 0) {
    e->has_layer = 1;
    get_name_list(c, path, v, &e->layer);
  } else {
    e->has_watcher_nodes = 1;
    get_name_list(c, path, v, &e->watcher_nodes);
  }
}

static void parse_dump_list(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  shown s;
  if (!json_is_array(v)) {
    err(c, DUMP_ERR, path, "%s is %s; expected an array of objects", show(&s, v), type_name(v));
    return;
  }
  cfg->dump_list_present = 1;
  dump_list_free(cfg);
  size_t n = json_array_size(v);
  if (n == 0)
    return;
  cfg->dump_list = calloc(n, sizeof(*cfg->dump_list));
  if (cfg->dump_list == NULL) {
    err(c, ACL_ERROR_BAD_ALLOC, path, "out of memory");
    return;
  }
  cfg->dump_list_count = n;
  for (size_t i = 0; i < n; i++) {
    char child[CFG_PATH_MAX];
    path_index(child, sizeof(child), path, i);
    json_t *e = json_array_get(v, i);
    if (!json_is_object(e)) {
      err(c, DUMP_ERR, child, "%s is %s; expected an object such as {\"model_name\": \"...\"}",
          show(&s, e), type_name(e));
      continue;
    }
    walk_object(c, cfg, child, e, k_entry_keys, entry_key, &cfg->dump_list[i]);
  }
}

/* A comma-separated subset of names ("printf,assert"); bit i = names[i]. */
static int get_name_set(pctx *c, int code, const char *path, const json_t *v,
                        const char *const *names, unsigned *out) {
  char list[256];
  join_names(list, sizeof(list), names);
  const char *str = get_string(c, code, path, v, "a comma-separated list");
  if (str == NULL)
    return -1;
  unsigned bits = 0;
  int bad = 0;
  const char *p = str;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    /* items may be padded with spaces: "printf, assert" */
    while (len > 0 && *p == ' ') {
      p++;
      len--;
    }
    while (len > 0 && p[len - 1] == ' ')
      len--;
    int found = -1;
    for (int i = 0; names[i] != NULL; i++)
      if (strlen(names[i]) == len && strncmp(names[i], p, len) == 0)
        found = i;
    if (len == 0) {
      err(c, code, path, "\"%.*s\" has an empty item; expected a comma-separated list of %s",
          CFG_SHOW_MAX, str, list);
      bad = 1;
    } else if (found < 0) {
      int shown_len = len > CFG_SHOW_MAX ? CFG_SHOW_MAX : (int)len;
      err(c, code, path, "item \"%.*s\" is not one of %s", shown_len, p, list);
      bad = 1;
    } else if (bits & (1u << found)) {
      warn(c, path, "item \"%s\" is listed more than once", names[found]);
    } else {
      bits |= 1u << found;
    }
    if (end == NULL)
      break;
    p = end + 1;
  }
  if (bad)
    return -1;
  *out = bits;
  return 0;
}

static void dump_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                     void *arg) {
  (void)arg;
  int i;
  if (strcmp(key, "dump_list") == 0) {
    parse_dump_list(c, cfg, path, v);
  } else if (strcmp(key, "dump_path") == 0) {
    const char *p = get_string(c, DUMP_ERR, path, v, "a directory path");
    if (p != NULL && strlen(p) >= PATH_MAX) {
      shown s;
      err(c, DUMP_ERR, path, "%s is longer than %d bytes", show(&s, v), PATH_MAX - 1);
    } else if (p != NULL) {
      free(cfg->dump_path);
      cfg->dump_path = dup_str(c, path, p);
    }
  } else if (strcmp(key, "dump_mode") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_dump_mode)) >= 0) {
      cfg->dump_mode = i;
      cfg->dump_mode_given = 1;
    }
  } else if (strcmp(key, "dump_op_switch") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_on_off)) >= 0)
      cfg->dump_op_switch = i == 0;
  } else if (strcmp(key, "dump_data") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_dump_data)) >= 0)
      cfg->dump_data = i;
  } else if (strcmp(key, "dump_level") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_dump_level)) >= 0)
      cfg->dump_level = i;
  } else if (strcmp(key, "dump_debug") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_on_off)) >= 0)
      cfg->dump_debug = i == 0;
  } else if (strcmp(key, "dump_scene") == 0) {
    if ((i = get_enum(c, DUMP_ERR, path, v, k_dump_scene)) >= 0)
      cfg->dump_scene = i;
  } else { /* dump_kernel_data */
    unsigned bits;
    if (get_name_set(c, DUMP_ERR, path, v, k_kernel_data, &bits) == 0) {
      if ((bits & KD_ALL) && bits != KD_ALL)
        warn(c, path, "\"all\" already includes the other items");
      cfg->kernel_data = bits;
    }
  }
}

/* Names in both lists of a watcher entry: only their watcher output is dumped. */
static void warn_overlap(pctx *c, const char *path, const dump_entry *e) {
  char **a = sorted(&e->layer), **b = sorted(&e->watcher_nodes);
  size_t i = 0, j = 0;
  while (a && b && i < e->layer.count && j < e->watcher_nodes.count) {
    int r = strcmp(a[i], b[j]);
    if (r == 0) {
      warn(c, path, "\"%.*s\" is in both layer and watcher_nodes; only its watcher output is "
                    "dumped", CFG_SHOW_MAX, a[i]);
      const char *same = a[i];
      while (i < e->layer.count && strcmp(a[i], same) == 0)
        i++;
      while (j < e->watcher_nodes.count && strcmp(b[j], same) == 0)
        j++;
    } else if (r < 0) {
      i++;
    } else {
      j++;
    }
  }
  free(a);
  free(b);
}

/* The rules that involve several dump keys; run after every key is read. */
static void dump_cross_rules(pctx *c, acl__config *cfg) {
  dump_state st;
  dump_state_of(cfg, &st);
  char path[CFG_PATH_MAX];
  const char *scene = cfg->dump_scene >= 0 ? k_dump_scene[cfg->dump_scene] : "";

  for (size_t i = 0; i < cfg->dump_list_count; i++) {
    const dump_entry *e = &cfg->dump_list[i];
    char entry[CFG_PATH_MAX];
    path_index(entry, sizeof(entry), "dump.dump_list", i);
    if (st.watcher) {
      if (e->model_name != NULL) {
        path_key(path, sizeof(path), entry, "model_name");
        err(c, DUMP_ERR, path, "\"%.*s\": model_name is not allowed with dump_scene \"watcher\"",
            CFG_SHOW_MAX, e->model_name);
      }
      warn_overlap(c, entry, e);
    } else {
      if (e->has_watcher_nodes) {
        path_key(path, sizeof(path), entry, "watcher_nodes");
        warn(c, path, "ignored: watcher_nodes applies only with dump_scene \"watcher\"");
      }
      if (e->model_name == NULL && e->has_layer) {
        path_key(path, sizeof(path), entry, "layer");
        err(c, DUMP_ERR, path, "layer without model_name; a model dump entry needs "
                               "\"model_name\" (layer alone is for dump_scene \"watcher\")");
      }
    }
  }
  if (st.exception && (st.model || st.op))
    err(c, DUMP_ERR, "dump.dump_scene",
        "\"%s\" (exception dump) cannot be combined with %s", scene,
        st.model ? "model dump (dump_list with model_name)"
                 : "single-operator dump (dump_op_switch \"on\")");
  if (st.overflow && (st.model || st.op))
    err(c, DUMP_ERR, "dump.dump_debug",
        "\"on\" (overflow dump) cannot be combined with %s",
        st.model ? "model dump (dump_list with model_name)"
                 : "single-operator dump (dump_op_switch \"on\")");
  if (st.watcher) {
    if (st.overflow)
      err(c, DUMP_ERR, "dump.dump_debug", "\"on\" cannot be combined with dump_scene \"watcher\"");
    if (st.op)
      err(c, DUMP_ERR, "dump.dump_op_switch",
          "\"on\" cannot be combined with dump_scene \"watcher\"");
    if (cfg->dump_mode_given && cfg->dump_mode != DUMP_MODE_OUTPUT)
      err(c, DUMP_ERR, "dump.dump_mode",
          "\"%s\" is not allowed with dump_scene \"watcher\"; only output",
          k_dump_mode[cfg->dump_mode]);
    int nodes = 0;
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      nodes |= cfg->dump_list[i].watcher_nodes.count > 0;
    if (!nodes)
      err(c, DUMP_ERR, "dump.dump_list",
          "dump_scene \"watcher\" needs a dump_list entry with watcher_nodes");
  }
  if (cfg->dump_path == NULL) {
    const char *need = st.model      ? "model dump (dump_list with model_name)"
                       : st.op       ? "single-operator dump (dump_op_switch \"on\")"
                       : st.overflow ? "overflow dump (dump_debug \"on\")"
                       : st.watcher  ? "dump_scene \"watcher\""
                       : cfg->kernel_data ? "dump_kernel_data"
                                          : NULL;
    if (need != NULL)
      err(c, DUMP_ERR, "dump.dump_path", "missing; required with %s", need);
  }
  if (cfg->dump_list_count > 0 && !st.model && !st.op && !st.watcher) {
    int only_empty = 1;
    for (size_t i = 0; i < cfg->dump_list_count; i++)
      only_empty &= cfg->dump_list[i].model_name == NULL && !cfg->dump_list[i].has_layer;
    if (only_empty)
      warn(c, "dump.dump_list", "no entry names a model and dump_op_switch is off; "
                                "no model or operator is dumped");
  }
}

static void parse_dump(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  if (!need_object(c, DUMP_ERR, path, v))
    return;
  cfg->dump_present = 1;
  walk_object(c, cfg, path, v, k_dump_keys, dump_key, NULL);
  dump_cross_rules(c, cfg);
}

/* ---- profiler ----------------------------------------------------------- */

#define PROF_ERR ACL_ERROR_INVALID_PROFILING_CONFIG

static void prof_key_fn(pctx *c, acl__config *cfg, const char *key, const char *path,
                        json_t *v, void *arg) {
  (void)arg;
  size_t k = 0;
  while (k < PROF_KEY_COUNT && strcmp(k_prof[k].key, key) != 0)
    k++;
  const prof_key *pk = &k_prof[k];
  char value[64];
  const char *store = NULL;
  switch (pk->kind) {
  case PK_SWITCH:
  case PK_ENUM: {
    int i = get_enum(c, PROF_ERR, path, v, pk->values);
    if (i >= 0)
      store = pk->values[i];
    break;
  }
  case PK_PATH: {
    const char *p = get_string(c, PROF_ERR, path, v, "a directory path");
    if (p != NULL && strlen(p) >= PATH_MAX) {
      shown s;
      err(c, PROF_ERR, path, "%s is longer than %d bytes", show(&s, v), PATH_MAX - 1);
    } else {
      store = p;
    }
    break;
  }
  case PK_FREQ: {
    uint64_t hz;
    if (get_uint(c, PROF_ERR, path, v, MIN_FREQ, MAX_FREQ, "a sampling frequency from 1 to 100",
                 &hz) == 0) {
      snprintf(value, sizeof(value), "%llu", (unsigned long long)hz);
      store = value;
    }
    break;
  }
  case PK_LIST: {
    unsigned bits;
    if (get_name_set(c, PROF_ERR, path, v, pk->values, &bits) == 0)
      store = json_string_value(v);
    break;
  }
  case PK_STORAGE: {
    shown s;
    const char *str = get_string(c, PROF_ERR, path, v, "a size such as \"200MB\"");
    if (str == NULL)
      break;
    size_t len = strlen(str);
    uint64_t mb = 0;
    int ok = len > 2 && len <= 12 && strcmp(str + len - 2, "MB") == 0;
    for (size_t i = 0; ok && i < len - 2; i++) {
      ok = str[i] >= '0' && str[i] <= '9';
      mb = mb * 10 + (uint64_t)(str[i] - '0');
    }
    if (!ok)
      err(c, PROF_ERR, path, "%s is not a size in MB such as \"200MB\"", show(&s, v));
    else if (mb < MIN_STORAGE_MB || mb > MAX_STORAGE_MB)
      err(c, PROF_ERR, path, "%s is out of range; expected 200MB to 4294967295MB", show(&s, v));
    else
      store = str;
    break;
  }
  }
  if (store != NULL) {
    free(cfg->prof[k]);
    cfg->prof[k] = dup_str(c, path, store);
  }
}

static void parse_profiler(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  if (!need_object(c, PROF_ERR, path, v))
    return;
  cfg->prof_present = 1;
  const char *known[PROF_KEY_COUNT + 1];
  for (size_t i = 0; i < PROF_KEY_COUNT; i++)
    known[i] = k_prof[i].key;
  known[PROF_KEY_COUNT] = NULL;
  walk_object(c, cfg, path, v, known, prof_key_fn, NULL);

  int on = cfg->prof[PROF_SWITCH] != NULL && strcmp(cfg->prof[PROF_SWITCH], "on") == 0;
  if (json_object_get(v, "switch") == NULL && json_object_size(v) > 0)
    warn(c, "profiler.switch", "missing; profiling stays off and the other profiler keys are "
                               "ignored");
  if (on && json_object_get(v, "output") == NULL)
    err(c, PROF_ERR, "profiler.output", "missing; required when profiler.switch is \"on\"");
}

/* ---- the other sections ------------------------------------------------- */

/* Rounds v up to a multiple of align; warns when that changes it. */
static uint64_t round_up(pctx *c, const char *path, uint64_t v, uint64_t align) {
  uint64_t r = (v + align - 1) / align * align;
  if (r != v)
    warn(c, path, "%llu rounded up to %llu (a multiple of %llu); effective value %llu",
         (unsigned long long)v, (unsigned long long)r, (unsigned long long)align,
         (unsigned long long)r);
  return r;
}

static void device_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                       void *arg) {
  (void)key;
  (void)arg;
  uint64_t id;
  if (get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 0, MAX_DEVICE_ID,
               "a device id (0 or a positive decimal integer)", &id) == 0)
    cfg->default_device = (int32_t)id;
}

static void stack_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                      void *arg) {
  (void)arg;
  uint64_t n;
  if (strcmp(key, "aicore_stack_size") == 0) {
    if (get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 0, MAX_AICORE_STACK,
                 "a size in bytes of at most 196608 (192 KiB)", &n) != 0)
      return;
    if (n < MIN_AICORE_STACK) {
      warn(c, path, "%llu is below the minimum; effective value %llu (32 KiB)",
           (unsigned long long)n, (unsigned long long)MIN_AICORE_STACK);
      n = MIN_AICORE_STACK;
    }
    cfg->aicore_stack_size = round_up(c, path, n, AICORE_STACK_ALIGN);
  } else {
    if (get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, 1, MAX_SIMT_STACK,
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
  int m = get_zero_one(c, ACL_ERROR_INVALID_PARAM, path, v);
  if (m >= 0)
    cfg->event_mode = m;
}

static void parse_fifo(pctx *c, const char *path, json_t *v, uint64_t min, uint64_t max,
                       const char *what, uint64_t *out) {
  uint64_t n;
  if (get_uint(c, ACL_ERROR_INVALID_PARAM, path, v, min, max, what, &n) == 0)
    *out = round_up(c, path, n, FIFO_ALIGN);
}

static void top_key(pctx *c, acl__config *cfg, const char *key, const char *path, json_t *v,
                    void *arg) {
  (void)arg;
  uint64_t n;
  int m;
  if (strcmp(key, "dump") == 0) {
    parse_dump(c, cfg, path, v);
  } else if (strcmp(key, "profiler") == 0) {
    parse_profiler(c, cfg, path, v);
  } else if (strcmp(key, "max_opqueue_num") == 0) {
    if (get_uint(c, ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG, path, v, 1, MAX_MAX_OPQUEUE_NUM,
                 "a positive integer (1 to 4294967295)", &n) == 0)
      cfg->max_opqueue_num = n;
  } else if (strcmp(key, "err_msg_mode") == 0) {
    if ((m = get_zero_one(c, ACL_ERROR_INVALID_PARAM, path, v)) >= 0)
      cfg->err_msg_mode = m;
  } else if (strcmp(key, "defaultDevice") == 0) {
    if (need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      walk_object(c, cfg, path, v, k_device_keys, device_key, NULL);
  } else if (strcmp(key, "StackSize") == 0) {
    if (need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      walk_object(c, cfg, path, v, k_stack_keys, stack_key, NULL);
  } else if (strcmp(key, "simt_printf_fifo_size") == 0) {
    parse_fifo(c, path, v, MIN_SIMT_FIFO, MAX_SIMT_FIFO,
               "a size in bytes from 1048576 (1 MiB) to 67108864 (64 MiB)",
               &cfg->simt_printf_fifo_size);
  } else if (strcmp(key, "simd_printf_fifo_size_per_core") == 0) {
    parse_fifo(c, path, v, MIN_SIMD_FIFO, MAX_SIMD_FIFO,
               "a size in bytes from 1024 (1 KiB) to 67108864 (64 MiB)",
               &cfg->simd_printf_fifo_size_per_core);
  } else { /* acl_graph */
    if (need_object(c, ACL_ERROR_INVALID_PARAM, path, v))
      walk_object(c, cfg, path, v, k_graph_keys, graph_key, NULL);
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
    err(&c, ACL_ERROR_INVALID_PARAM, "", "no configuration or text to parse");
    goto out;
  }
  /* Empty text is no configuration: aclInit(NULL) and aclInit("") pass it,
   * and an empty file means the same (the defaults). */
  if (text == NULL || blank(text, len))
    goto out;
  root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
  if (root == NULL) {
    err(&c, ACL_ERROR_PARSE_FILE, "", "JSON syntax error at line %d, column %d: %s",
        jerr.line, jerr.column, jerr.text);
    goto out;
  }
  int line, col;
  if (too_deep(text, len, &line, &col)) {
    err(&c, ACL_ERROR_PARSE_FILE, "", "nesting deeper than %d levels at line %d, column %d",
        CFG_MAX_DEPTH, line, col);
    goto out;
  }
  if (!json_is_object(root)) {
    shown s;
    err(&c, ACL_ERROR_PARSE_FILE, "", "the top level is %s (%s); expected an object",
        type_name(root), show(&s, root));
    goto out;
  }
  walk_object(&c, cfg, "", root, k_top_keys, top_key, NULL);

  dump_state st;
  dump_state_of(cfg, &st);
  int prof_on = cfg->prof[PROF_SWITCH] != NULL && strcmp(cfg->prof[PROF_SWITCH], "on") == 0;
  if (prof_on && dump_any_on(&st))
    warn(&c, "profiler.switch", "profiling and dump are both on; dumping distorts the "
                                "profiled timings");
out:
  json_decref(root);
  return c.first_error;
}

/* ---- environment: path resolution --------------------------------------- */

/* path made absolute against the current directory (malloc'd). */
static char *absolute(const char *path) {
  if (path == NULL)
    return NULL;
  if (path[0] == '/')
    return strdup(path);
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof(cwd)) == NULL)
    return strdup(path);
  if (strcmp(path, ".") == 0)
    return strdup(cwd);
  const char *rel = path;
  while (rel[0] == '.' && rel[1] == '/')
    rel += 2;
  char *out = NULL;
  if (asprintf(&out, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/", rel) < 0)
    return NULL;
  return out;
}

/* NULL when dir exists and is writable or could be created below a writable
 * ancestor; otherwise why not (static text in buf). */
static const char *not_writable(const char *dir, char *buf, size_t n) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return "it exists and is not a directory";
    if (access(dir, W_OK | X_OK) != 0) {
      snprintf(buf, n, "it is not writable (%s)", strerror(errno));
      return buf;
    }
    return NULL;
  }
  if (errno != ENOENT && errno != ENOTDIR) {
    snprintf(buf, n, "%s", strerror(errno));
    return buf;
  }
  /* Find the closest existing ancestor: it must be a writable directory. */
  char *copy = strdup(dir);
  if (copy == NULL)
    return NULL;
  const char *why = NULL;
  for (;;) {
    char *slash = strrchr(copy, '/');
    if (slash == NULL)
      break;
    if (slash == copy)
      slash[1] = '\0';
    else
      *slash = '\0';
    if (stat(copy, &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        snprintf(buf, n, "it cannot be created: %.200s is not a directory", copy);
      else if (access(copy, W_OK | X_OK) != 0)
        snprintf(buf, n, "it cannot be created: %.200s is not writable", copy);
      else
        break;
      why = buf;
      break;
    }
    if (errno != ENOENT && errno != ENOTDIR) {
      snprintf(buf, n, "it cannot be created: %.200s: %s", copy, strerror(errno));
      why = buf;
      break;
    }
    if (strcmp(copy, "/") == 0)
      break;
  }
  free(copy);
  return why;
}

static void check_dir(acl__diags *diags, const char *path, const char *dir, const char *use) {
  char buf[512];
  const char *why = not_writable(dir, buf, sizeof(buf));
  if (why != NULL)
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, path, "%s directory \"%.300s\": %s", use, dir,
                   why);
}

static int set_env(const char *v) { return v != NULL && v[0] != '\0'; }

void acl__config_apply_env(acl__config *cfg, const acl__env *env, acl__diags *diags) {
  if (cfg == NULL)
    return;
  resolved_free(cfg);
  cfg->env_applied = 1;
  const char *npu = env ? env->npu_collect_path : NULL;
  const char *work = env ? env->work_path : NULL;
  const char *dump_env = env ? env->dump_path : NULL;
  dump_state st;
  dump_state_of(cfg, &st);

  int dump_path_checked = 0;
  if (cfg->dump_path != NULL) {
    cfg->dump_path_abs = absolute(cfg->dump_path);
    if (cfg->dump_path_abs != NULL && (st.model || st.op || st.overflow || st.watcher)) {
      check_dir(diags, "dump.dump_path", cfg->dump_path_abs, "dump");
      dump_path_checked = 1;
    }
  }
  if (st.exception) {
    const char *src = NULL, *val = NULL;
    if (set_env(npu)) {
      src = "NPU_COLLECT_PATH";
      val = npu;
    } else if (set_env(work)) {
      src = "ASCEND_WORK_PATH";
      val = work;
    } else if (cfg->dump_path != NULL) {
      src = "dump.dump_path";
      val = cfg->dump_path;
    } else {
      src = "current directory";
      val = ".";
    }
    cfg->exception_path = absolute(val);
    cfg->exception_path_source = src;
    int from_file = strcmp(src, "dump.dump_path") == 0;
    if (cfg->exception_path != NULL && !(from_file && dump_path_checked))
      check_dir(diags, val == npu || val == work ? src : "dump.dump_scene", cfg->exception_path,
                "exception dump");
    dump_path_checked |= from_file;
  }
  if (st.kernel) {
    const char *src = NULL, *val = NULL;
    if (set_env(dump_env)) {
      src = "ASCEND_DUMP_PATH";
      val = dump_env;
    } else if (set_env(work)) {
      src = "ASCEND_WORK_PATH";
      val = work;
    } else if (cfg->dump_path != NULL) {
      src = "dump.dump_path";
      val = cfg->dump_path;
    }
    if (val != NULL) {
      cfg->kernel_data_path = absolute(val);
      cfg->kernel_data_path_source = src;
      int from_file = strcmp(src, "dump.dump_path") == 0;
      if (cfg->kernel_data_path != NULL && !(from_file && dump_path_checked))
        check_dir(diags, src, cfg->kernel_data_path, "kernel data");
    }
  }
  if (cfg->prof[PROF_OUTPUT] != NULL) {
    cfg->prof_output_abs = absolute(cfg->prof[PROF_OUTPUT]);
    if (cfg->prof_output_abs != NULL && cfg->prof[PROF_SWITCH] != NULL &&
        strcmp(cfg->prof[PROF_SWITCH], "on") == 0)
      check_dir(diags, "profiler.output", cfg->prof_output_abs, "profiling output");
  }
}

/* ---- the effective configuration ---------------------------------------- */

/* json_object_set_new that tolerates NULL values (out of memory). */
static void put(json_t *obj, const char *key, json_t *v) {
  if (obj != NULL && v != NULL)
    json_object_set_new(obj, key, v);
  else
    json_decref(v);
}

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *uint_json(uint64_t v) { return json_integer((json_int_t)v); }

static json_t *strlist_json(const strlist *l) {
  json_t *a = json_array();
  for (size_t i = 0; a != NULL && i < l->count; i++)
    json_array_append_new(a, json_string(l->items[i]));
  return a;
}

static json_t *dump_json(const acl__config *cfg, int derived) {
  dump_state st;
  dump_state_of(cfg, &st);
  json_t *d = json_object();
  json_t *list = json_array();
  for (size_t i = 0; list != NULL && i < cfg->dump_list_count; i++) {
    const dump_entry *e = &cfg->dump_list[i];
    json_t *o = json_object();
    if (e->model_name != NULL)
      put(o, "model_name", json_string(e->model_name));
    if (e->has_layer)
      put(o, "layer", strlist_json(&e->layer));
    if (e->has_watcher_nodes)
      put(o, "watcher_nodes", strlist_json(&e->watcher_nodes));
    if (o != NULL)
      json_array_append_new(list, o);
  }
  put(d, "dump_list", list);
  put(d, "dump_path", str_or_null(cfg->dump_path));
  put(d, "dump_mode", json_string(k_dump_mode[cfg->dump_mode]));
  put(d, "dump_op_switch", json_string(cfg->dump_op_switch ? "on" : "off"));
  put(d, "dump_data", json_string(k_dump_data[cfg->dump_data]));
  put(d, "dump_level", json_string(k_dump_level[cfg->dump_level]));
  put(d, "dump_debug", json_string(cfg->dump_debug ? "on" : "off"));
  put(d, "dump_scene", cfg->dump_scene >= 0 ? json_string(k_dump_scene[cfg->dump_scene])
                                             : json_null());
  if (st.kernel != 0) {
    char kd[128] = "";
    for (int i = 0; k_kernel_data[i] != NULL; i++)
      if (st.kernel & (1u << i)) {
        if (kd[0] != '\0')
          append(kd, sizeof(kd), ",");
        append(kd, sizeof(kd), k_kernel_data[i]);
      }
    put(d, "dump_kernel_data", json_string(kd));
  } else {
    put(d, "dump_kernel_data", json_null());
  }
  if (!derived)
    return d;
  json_t *on = json_object();
  put(on, "model_dump", json_boolean(st.model));
  put(on, "op_dump", json_boolean(st.op));
  put(on, "overflow_dump", json_boolean(st.overflow));
  put(on, "exception_dump", json_boolean(st.exception));
  put(on, "watcher", json_boolean(st.watcher));
  put(on, "kernel_data", json_boolean(st.kernel != 0));
  put(on, "kernel_data_implied", json_boolean(st.kernel_implied));
  put(d, "enabled", on);
  json_t *paths = json_object();
  put(paths, "dump_path", str_or_null(cfg->dump_path_abs));
  put(paths, "exception_dump_path", str_or_null(cfg->exception_path));
  put(paths, "exception_dump_path_from", str_or_null(cfg->exception_path_source));
  put(paths, "kernel_data_path", str_or_null(cfg->kernel_data_path));
  put(paths, "kernel_data_path_from", str_or_null(cfg->kernel_data_path_source));
  put(d, "resolved", paths);
  return d;
}

static json_t *env_json(const acl__env *env) {
  json_t *e = json_object();
  put(e, "ASCEND_GLOBAL_LOG_LEVEL", json_integer(env->global_log_level));
  put(e, "ASCEND_SLOG_PRINT_TO_STDOUT", json_integer(env->print_to_stdout));
  put(e, "ASCEND_PROCESS_LOG_PATH", str_or_null(env->process_log_path));
  put(e, "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", json_integer(env->log_flush_timeout_ms));
  put(e, "ASCEND_WORK_PATH", str_or_null(env->work_path));
  put(e, "NPU_COLLECT_PATH", str_or_null(env->npu_collect_path));
  put(e, "ASCEND_DUMP_PATH", str_or_null(env->dump_path));
  put(e, "ASCEND_RT_VISIBLE_DEVICES",
      str_or_null(env->rt_visible_devices.set ? env->rt_visible_devices.raw : NULL));
  put(e, "ASCEND_VISIBLE_DEVICES",
      str_or_null(env->visible_devices.set ? env->visible_devices.raw : NULL));
  put(e, "ASCEND_HOST_LOG_FILE_NUM", json_integer(env->host_log_file_num));
  json_t *mods = json_object();
  static const char *const mod_names[ACL__MOD_COUNT] = {
#define CONFIG_MOD_NAME(name) #name,
      ACL__LOG_MODULES(CONFIG_MOD_NAME)
#undef CONFIG_MOD_NAME
  };
  for (int m = 0; m < ACL__MOD_COUNT; m++)
    put(mods, mod_names[m],
        json_integer(env->module_log_level[m] >= 0 ? env->module_log_level[m] : env->global_log_level));
  put(e, "ASCEND_MODULE_LOG_LEVEL (effective)", mods);
  put(e, "OPENACL_DEVICE_COUNT", json_integer(env->device_count));
  put(e, "OPENACL_SOC_NAME", str_or_null(env->soc_name));
  put(e, "OPENACL_LOG_FILE_SIZE", json_integer((json_int_t)env->log_file_size));
  return e;
}

/* The effective configuration as a JSON tree.  `full` adds what is derived
 * or resolved (dump.enabled, dump.resolved, profiler.output_resolved) and
 * "environment"; without it only what a file configures is left, which is
 * what two configurations are compared on. */
static json_t *config_json(const acl__config *cfg, const acl__env *env, int full) {
  json_t *root = json_object();
  if (root == NULL)
    return NULL;
  put(root, "dump", dump_json(cfg, full));

  json_t *prof = json_object();
  put(prof, "switch", json_string(cfg->prof[PROF_SWITCH] ? cfg->prof[PROF_SWITCH] : "off"));
  for (size_t i = 1; i < PROF_KEY_COUNT; i++)
    put(prof, k_prof[i].key, str_or_null(cfg->prof[i]));
  if (full)
    put(prof, "output_resolved", str_or_null(cfg->prof_output_abs));
  put(root, "profiler", prof);

  put(root, "max_opqueue_num", uint_json(cfg->max_opqueue_num));
  put(root, "err_msg_mode", json_string(cfg->err_msg_mode ? "1" : "0"));
  json_t *dev = json_object();
  put(dev, "default_device",
      cfg->default_device >= 0 ? json_integer(cfg->default_device) : json_null());
  put(root, "defaultDevice", dev);
  json_t *stack = json_object();
  put(stack, "aicore_stack_size", uint_json(cfg->aicore_stack_size));
  put(stack, "simt_stack_size",
      cfg->simt_stack_size ? uint_json(cfg->simt_stack_size) : json_null());
  put(stack, "simt_divergence_stack_size",
      cfg->simt_divergence_stack_size ? uint_json(cfg->simt_divergence_stack_size)
                                      : json_null());
  put(root, "StackSize", stack);
  put(root, "simt_printf_fifo_size", uint_json(cfg->simt_printf_fifo_size));
  put(root, "simd_printf_fifo_size_per_core", uint_json(cfg->simd_printf_fifo_size_per_core));
  json_t *graph = json_object();
  put(graph, "event_mode", json_string(cfg->event_mode ? "1" : "0"));
  put(root, "acl_graph", graph);
  if (full)
    put(root, "environment", env ? env_json(env) : json_null());
  return root;
}

char *acl__config_to_json(const acl__config *cfg, const acl__env *env, int compact) {
  if (cfg == NULL)
    return NULL;
  json_t *root = config_json(cfg, env, 1);
  if (root == NULL)
    return NULL;
  char *text = json_dumps(root, (compact ? JSON_COMPACT : JSON_INDENT(2)) | JSON_PRESERVE_ORDER);
  json_decref(root);
  return text;
}

/* ---- differences --------------------------------------------------------- */

typedef struct strbuf {
  char *data;
  size_t len, cap;
  int oom;
} strbuf;

static void sb_add(strbuf *b, const char *s) {
  size_t n = strlen(s);
  if (b->oom)
    return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *d = realloc(b->data, cap);
    if (d == NULL) {
      b->oom = 1;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

static void diff_one(strbuf *b, const char *path, const json_t *x, const json_t *y) {
  if (json_is_object(x) && json_is_object(y)) {
    const char *key;
    json_t *v;
    char child[CFG_PATH_MAX];
    json_object_foreach((json_t *)x, key, v) {
      path_key(child, sizeof(child), path, key);
      json_t *w = json_object_get(y, key);
      diff_one(b, child, v, w ? w : json_null());
    }
    json_object_foreach((json_t *)y, key, v) {
      if (json_object_get(x, key) != NULL)
        continue;
      path_key(child, sizeof(child), path, key);
      diff_one(b, child, json_null(), v);
    }
    return;
  }
  if (json_equal(x, y))
    return;
  shown sx, sy;
  if (b->len > 0)
    sb_add(b, "; ");
  sb_add(b, path);
  sb_add(b, ": ");
  sb_add(b, show(&sx, x));
  sb_add(b, " -> ");
  sb_add(b, show(&sy, y));
}

char *acl__config_diff(const acl__config *a, const acl__config *b) {
  if (a == NULL || b == NULL)
    return NULL;
  json_t *x = config_json(a, NULL, 0), *y = config_json(b, NULL, 0);
  char *out = NULL;
  if (x != NULL && y != NULL) {
    strbuf sb = {NULL, 0, 0, 0};
    diff_one(&sb, "", x, y);
    if (sb.oom)
      free(sb.data);
    else
      out = sb.data ? sb.data : strdup("");
  }
  json_decref(x);
  json_decref(y);
  return out;
}
