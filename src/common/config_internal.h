/*
 * config_internal.h - what the pieces of the acl.json reader share (config.c,
 * config_values.c, config_dump.c, config_profiler.c, config_paths.c,
 * config_json.c): struct acl__config, the value tables, the parse context
 * and the helpers that report problems and read values.  Private to those
 * files; everything else uses common/config.h.
 */
#ifndef OPENACL_COMMON_CONFIG_INTERNAL_H
#define OPENACL_COMMON_CONFIG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/config.h"
#include "common/diag.h"

#define CFG_SHOW_MAX 64                   /* bad values are shown up to this many bytes */
#define CFG_PATH_MAX 512                  /* a key path buffer */

/* ---- value tables (defined with the section that reads them) ------------ */

extern const char *const acl__cfg_on_off_names[];       /* "on", "off" */
extern const char *const acl__cfg_dump_mode_names[];    /* dump.dump_mode */
enum { DUMP_MODE_INPUT, DUMP_MODE_OUTPUT, DUMP_MODE_ALL };
extern const char *const acl__cfg_dump_data_names[];    /* dump.dump_data */
enum { DUMP_DATA_TENSOR, DUMP_DATA_STATS };
extern const char *const acl__cfg_dump_level_names[];   /* dump.dump_level */
enum { DUMP_LEVEL_OP, DUMP_LEVEL_KERNEL, DUMP_LEVEL_ALL };
extern const char *const acl__cfg_dump_scene_names[];   /* dump.dump_scene */
enum { SCENE_NONE = -1, SCENE_BRIEF, SCENE_NORM, SCENE_DETAIL, SCENE_LITE, SCENE_WATCHER };
extern const char *const acl__cfg_kernel_data_names[];  /* dump.dump_kernel_data items */
extern const char *const acl__cfg_dump_stats_names[];   /* dump.dump_stats items, in the CSV's column order */
enum { KD_ALL = 1, KD_PRINTF = 2, KD_TENSOR = 4, KD_ASSERT = 8, KD_TIMESTAMP = 16 };

/* A profiler key and the form of its value. */
enum prof_kind { PK_SWITCH, PK_PATH, PK_ENUM, PK_FREQ, PK_LIST, PK_STORAGE };
typedef struct prof_key {
  const char *key;
  enum prof_kind kind;
  const char *const *values;  /* PK_ENUM, PK_LIST */
} prof_key;

/* Every profiler key openacl knows (config_profiler.c), in this order. */
extern const prof_key acl__cfg_prof_keys[];
#define PROF_KEY_COUNT 24                 /* entries of acl__cfg_prof_keys */
#define PROF_SWITCH 0                     /* index of "switch" */
#define PROF_OUTPUT 1                     /* index of "output" */

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
  unsigned dump_stats;         /* bit i: acl__cfg_dump_stats_names[i] asked for; 0 when absent (the first six) */
  char *dump_step;             /* as written ("0|5|10-20"); NULL when absent; inference ignores it */
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

/* Fills s from the dump fields of cfg (config_dump.c). */
void acl__cfg_dump_state_of(const acl__config *cfg, dump_state *s);
/* Whether the dump section turns anything on. */
int acl__cfg_dump_any_on(const dump_state *s);
/* Frees cfg's dump_list and leaves it empty (config.c). */
void acl__cfg_dump_list_free(acl__config *cfg);
/* Frees the paths acl__config_apply_env resolved and marks them unresolved (config.c). */
void acl__cfg_resolved_free(acl__config *cfg);

/* ---- the parse context and reporting (config_values.c) ------------------ */

typedef struct pctx {
  acl__diags *diags;
  int first_error;     /* code of the first error of this parse, 0 if none */
  size_t errors, warnings;
  int capped;
} pctx;

/* Adds an error with `code` at key path `path`; the first one sets first_error. */
void acl__cfg_err(pctx *c, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Adds a warning at key path `path`. */
void acl__cfg_warn(pctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends src to dst (capacity n), keeping dst NUL-terminated. */
void acl__cfg_append(char *dst, size_t n, const char *src);
/* out = parent.key, with unprintable bytes of the key shown as \xNN. */
void acl__cfg_path_key(char *out, size_t n, const char *parent, const char *key);
/* out = parent[i]. */
void acl__cfg_path_index(char *out, size_t n, const char *parent, size_t i);

/* A JSON value as the user wrote it, ASCII only, shortened when long. */
typedef struct shown {
  char text[CFG_SHOW_MAX + 8];
} shown;

/* Fills s with v as written and returns its text. */
const char *acl__cfg_show(shown *s, const json_t *v);
/* "an object", "a string", ...: the kind of v for messages. */
const char *acl__cfg_type_name(const json_t *v);

/* ---- value readers (config_values.c) ------------------------------------ */

/* A non-empty string without embedded NULs; else an error (returns NULL). */
const char *acl__cfg_get_string(pctx *c, int code, const char *path, const json_t *v,
                                const char *what);
/* One of names (a string); the index, or -1 after an error. */
int acl__cfg_get_enum(pctx *c, int code, const char *path, const json_t *v,
                      const char *const *names);
/* A non-negative integer (number or decimal string) in [min, max]; 0 and *out, or -1. */
int acl__cfg_get_uint(pctx *c, int code, const char *path, const json_t *v, uint64_t min,
                      uint64_t max, const char *what, uint64_t *out);
/* "0" or "1" (string or number); the value or -1 after an error. */
int acl__cfg_get_zero_one(pctx *c, int code, const char *path, const json_t *v);
/* A comma-separated subset of names; 0 and *out (bit i = names[i]), or -1. */
int acl__cfg_get_name_set(pctx *c, int code, const char *path, const json_t *v,
                          const char *const *names, unsigned *out);
/* Copies a string; a failed allocation is an out-of-memory error. */
char *acl__cfg_dup_str(pctx *c, const char *path, const char *s);

/* Called for each known key of an object walked by acl__cfg_walk_object. */
typedef void (*key_fn)(pctx *c, acl__config *cfg, const char *key, const char *path,
                       json_t *v, void *arg);
/* Walks the keys of an object: calls fn for known ones, warns about others. */
void acl__cfg_walk_object(pctx *c, acl__config *cfg, const char *path, json_t *obj,
                          const char *const *known, key_fn fn, void *arg);
/* An object section; an error with `code` when v is something else. */
int acl__cfg_need_object(pctx *c, int code, const char *path, const json_t *v);

/* ---- sections ----------------------------------------------------------- */

/* The "dump" section, then its cross rules (config_dump.c). */
void acl__cfg_parse_dump(pctx *c, acl__config *cfg, const char *path, json_t *v);
/* The "profiler" section (config_profiler.c). */
void acl__cfg_parse_profiler(pctx *c, acl__config *cfg, const char *path, json_t *v);

#endif
