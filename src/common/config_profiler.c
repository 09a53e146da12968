/*
 * config_profiler.c - the "profiler" section of acl.json: every key openacl
 * knows, the form of its value, and the rules between switch and output.
 * Values are kept as written (numbers as decimal text).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "acl/acl_base.h"
#include "common/config_internal.h"

/* The profiler section: every key openacl knows and the form of its value. */
static const char *const k_task_time[] = {"on", "off", "l0", "l1", NULL};
static const char *const k_ge_api[] = {"off", "l0", "l1", NULL};
static const char *const k_aic_metrics[] = {"ArithmeticUtilization", "PipeUtilization", "Memory",
                                            "MemoryL0", "MemoryUB", "ResourceConflictRatio",
                                            "L2Cache", "PipeExecuteUtilization", "MemoryAccess",
                                            NULL};
static const char *const k_llc[] = {"read", "write", NULL};
static const char *const k_host_sys[] = {"cpu", "mem", "disk", "network", "osrt", NULL};
static const char *const k_host_sys_usage[] = {"cpu", "mem", NULL};

const prof_key acl__cfg_prof_keys[] = {
    {"switch", PK_SWITCH, acl__cfg_on_off_names},
    {"output", PK_PATH, NULL},
    {"storage_limit", PK_STORAGE, NULL},
    {"acl_api", PK_SWITCH, acl__cfg_on_off_names},
    {"ascendcl", PK_SWITCH, acl__cfg_on_off_names}, /* the vendor's name for acl_api */
    {"task_time", PK_ENUM, k_task_time},
    {"aicpu", PK_SWITCH, acl__cfg_on_off_names},
    {"aic_metrics", PK_ENUM, k_aic_metrics},
    {"l2", PK_SWITCH, acl__cfg_on_off_names},
    {"hccl", PK_SWITCH, acl__cfg_on_off_names},
    {"msproftx", PK_SWITCH, acl__cfg_on_off_names},
    {"runtime_api", PK_SWITCH, acl__cfg_on_off_names},
    {"ge_api", PK_ENUM, k_ge_api},
    {"training_trace", PK_SWITCH, acl__cfg_on_off_names},
    {"task_memory", PK_SWITCH, acl__cfg_on_off_names},
    {"op_attr", PK_SWITCH, acl__cfg_on_off_names},
    {"sys_hardware_mem_freq", PK_FREQ, NULL},
    {"llc_profiling", PK_ENUM, k_llc},
    {"sys_io_sampling_freq", PK_FREQ, NULL},
    {"sys_interconnection_freq", PK_FREQ, NULL},
    {"dvpp_freq", PK_FREQ, NULL},
    {"host_sys", PK_LIST, k_host_sys},
    {"host_sys_usage", PK_LIST, k_host_sys_usage},
    {"host_sys_usage_freq", PK_FREQ, NULL},
};
_Static_assert(sizeof(acl__cfg_prof_keys) / sizeof(acl__cfg_prof_keys[0]) == PROF_KEY_COUNT,
               "PROF_KEY_COUNT in config_internal.h must count the profiler keys");

#define MIN_FREQ 1
#define MAX_FREQ 100
#define MIN_STORAGE_MB 200ull
#define MAX_STORAGE_MB 4294967295ull

#define PROF_ERR ACL_ERROR_INVALID_PROFILING_CONFIG

static void prof_key_fn(pctx *c, acl__config *cfg, const char *key, const char *path,
                        json_t *v, void *arg) {
  (void)arg;
  size_t k = 0;
  while (k < PROF_KEY_COUNT && strcmp(acl__cfg_prof_keys[k].key, key) != 0)
    k++;
  const prof_key *pk = &acl__cfg_prof_keys[k];
  char value[64];
  const char *store = NULL;
  switch (pk->kind) {
  case PK_SWITCH:
  case PK_ENUM: {
    int i = acl__cfg_get_enum(c, PROF_ERR, path, v, pk->values);
    if (i >= 0)
      store = pk->values[i];
    break;
  }
  case PK_PATH: {
    const char *p = acl__cfg_get_string(c, PROF_ERR, path, v, "a directory path");
    if (p != NULL && strlen(p) >= PATH_MAX) {
      shown s;
      acl__cfg_err(c, PROF_ERR, path, "%s is longer than %d bytes", acl__cfg_show(&s, v),
                   PATH_MAX - 1);
    } else {
      store = p;
    }
    break;
  }
  case PK_FREQ: {
    uint64_t hz;
    if (acl__cfg_get_uint(c, PROF_ERR, path, v, MIN_FREQ, MAX_FREQ,
                          "a sampling frequency from 1 to 100", &hz) == 0) {
      snprintf(value, sizeof(value), "%llu", (unsigned long long)hz);
      store = value;
    }
    break;
  }
  case PK_LIST: {
    unsigned bits;
    if (acl__cfg_get_name_set(c, PROF_ERR, path, v, pk->values, &bits) == 0)
      store = json_string_value(v);
    break;
  }
  case PK_STORAGE: {
    shown s;
    const char *str = acl__cfg_get_string(c, PROF_ERR, path, v, "a size such as \"200MB\"");
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
      acl__cfg_err(c, PROF_ERR, path, "%s is not a size in MB such as \"200MB\"",
                   acl__cfg_show(&s, v));
    else if (mb < MIN_STORAGE_MB || mb > MAX_STORAGE_MB)
      acl__cfg_err(c, PROF_ERR, path, "%s is out of range; expected 200MB to 4294967295MB",
                   acl__cfg_show(&s, v));
    else
      store = str;
    break;
  }
  }
  if (store != NULL) {
    free(cfg->prof[k]);
    cfg->prof[k] = acl__cfg_dup_str(c, path, store);
  }
}

void acl__cfg_parse_profiler(pctx *c, acl__config *cfg, const char *path, json_t *v) {
  if (!acl__cfg_need_object(c, PROF_ERR, path, v))
    return;
  cfg->prof_present = 1;
  const char *known[PROF_KEY_COUNT + 1];
  for (size_t i = 0; i < PROF_KEY_COUNT; i++)
    known[i] = acl__cfg_prof_keys[i].key;
  known[PROF_KEY_COUNT] = NULL;
  acl__cfg_walk_object(c, cfg, path, v, known, prof_key_fn, NULL);

  int on = cfg->prof[PROF_SWITCH] != NULL && strcmp(cfg->prof[PROF_SWITCH], "on") == 0;
  if (json_object_get(v, "switch") == NULL && json_object_size(v) > 0)
    acl__cfg_warn(c, "profiler.switch",
                  "missing; profiling stays off and the other profiler keys are ignored");
  if (on && json_object_get(v, "output") == NULL)
    acl__cfg_err(c, PROF_ERR, "profiler.output",
                 "missing; required when profiler.switch is \"on\"");
}

/* Values the profiler reads (src/prof/session.c). */
const char *acl__config_prof(const acl__config *cfg, const char *key) {
  for (size_t k = 0; cfg != NULL && k < PROF_KEY_COUNT; k++)
    if (strcmp(acl__cfg_prof_keys[k].key, key) == 0)
      return cfg->prof[k];
  return NULL;
}

const char *acl__config_prof_output(const acl__config *cfg) { return cfg != NULL ? cfg->prof_output_abs : NULL; }
