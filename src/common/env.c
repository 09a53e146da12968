/*
 * env.c - reads every environment variable openacl uses (see env.h and
 * docs/environment.md).  A bad value is replaced by the default and
 * reported as a warning; nothing is ignored silently.
 */
#include "common/env.h"
#include "common/precision.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl_base.h"

/* Parses a whole decimal integer in [lo, hi]; 0 on success. */
static int acl__env_parse_int(const char *s, long lo, long hi, long *out) {
  if (s == NULL || *s == '\0')
    return -1;
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

/* Reads an integer variable; a bad value warns and keeps the default. */
static void acl__env_int(const char *name, long lo, long hi, int *value, acl__diags *diags) {
  const char *s = getenv(name);
  long v;
  if (s == NULL)
    return;
  if (acl__env_parse_int(s, lo, hi, &v) == 0) {
    *value = (int)v;
    return;
  }
  acl__diags_add(diags, ACL__DIAG_WARNING, 0, name,
                 "value '%s' is not an integer from %ld to %ld; using %d instead", s, lo, hi, *value);
}

static char *acl__env_path(const char *name) {
  const char *s = getenv(name);
  return (s != NULL && *s != '\0') ? strdup(s) : NULL;
}

/* ASCEND_MODULE_LOG_LEVEL: "GE=1:RUNTIME=0"; unknown modules and bad levels warn. */
static void acl__env_module_levels(acl__env *env, acl__diags *diags) {
  static const char *const names[ACL__MOD_COUNT] = {
#define ACL__ENV_MOD_NAME(name) #name,
      ACL__LOG_MODULES(ACL__ENV_MOD_NAME)
#undef ACL__ENV_MOD_NAME
  };
  const char *s = getenv("ASCEND_MODULE_LOG_LEVEL");
  if (s == NULL || *s == '\0')
    return;
  char *copy = strdup(s);
  if (copy == NULL)
    return;
  char *save = NULL;
  for (char *item = strtok_r(copy, ":", &save); item != NULL; item = strtok_r(NULL, ":", &save)) {
    char *eq = strchr(item, '=');
    long level;
    if (eq == NULL || acl__env_parse_int(eq + 1, 0, 4, &level) != 0) {
      acl__diags_add(diags, ACL__DIAG_WARNING, 0, "ASCEND_MODULE_LOG_LEVEL",
                     "item '%s' of '%s' is not MODULE=LEVEL with LEVEL 0..4; ignoring that item", item, s);
      continue;
    }
    *eq = '\0';
    int found = 0;
    for (int m = 0; m < ACL__MOD_COUNT; m++)
      if (strcmp(item, names[m]) == 0) {
        env->module_log_level[m] = (int)level;
        found = 1;
      }
    if (!found)
      acl__diags_add(diags, ACL__DIAG_WARNING, 0, "ASCEND_MODULE_LOG_LEVEL",
                     "module '%s' in '%s' is not one openacl logs (ASCENDCL, RUNTIME, GE, DRV, APP); ignoring it",
                     item, s);
  }
  free(copy);
}

void acl__env_parse_device_list(const char *value, int allow_ranges, acl__device_list *out) {
  memset(out, 0, sizeof(*out));
  if (value == NULL)
    return;
  out->set = 1;
  out->raw = strdup(value);
  const char *p = value;
  int pos = 0;
  while (*p != '\0') {
    const char *tok = p;
    while (*p != '\0' && *p != ',')
      p++;
    int len = (int)(p - tok);
    pos++;
    long lo = -1, hi = -1;
    char buf[32];
    int ok = len > 0 && len < (int)sizeof(buf);
    if (ok) {
      memcpy(buf, tok, (size_t)len);
      buf[len] = '\0';
      char *dash = allow_ranges ? strchr(buf, '-') : NULL;
      if (dash != NULL) {
        *dash = '\0';
        ok = acl__env_parse_int(buf, 0, 1 << 20, &lo) == 0 &&
             acl__env_parse_int(dash + 1, 0, 1 << 20, &hi) == 0 && lo <= hi;
        *dash = '-';
      } else {
        ok = acl__env_parse_int(buf, 0, 1 << 20, &lo) == 0;
        hi = lo;
      }
      for (const char *c = buf; ok && *c; c++)
        ok = isdigit((unsigned char)*c) || (allow_ranges && *c == '-');
    }
    if (!ok) {
      if (asprintf(&out->error, "token %d ('%.*s') is not a device id%s", pos, len, tok,
                   allow_ranges ? " or a range such as 0-2" : "") < 0)
        out->error = NULL;
      out->valid = 0;
      out->count = 0;
      return;
    }
    for (long id = lo; id <= hi; id++) {
      for (size_t i = 0; i < out->count; i++)
        if (out->ids[i] == id) {
          if (asprintf(&out->error, "device id %ld is listed twice", id) < 0)
            out->error = NULL;
          out->count = 0;
          return;
        }
      if (out->count == ACL__ENV_MAX_DEVICES) {
        if (asprintf(&out->error, "more than %d device ids", ACL__ENV_MAX_DEVICES) < 0)
          out->error = NULL;
        out->count = 0;
        return;
      }
      out->ids[out->count++] = (int32_t)id;
    }
    if (*p == ',')
      p++;
    if (*p == '\0' && p > value && p[-1] == ',') {
      if (asprintf(&out->error, "the list ends with a comma") < 0)
        out->error = NULL;
      out->count = 0;
      return;
    }
  }
  if (out->count == 0 && asprintf(&out->error, "the list is empty") < 0)
    out->error = NULL;
  out->valid = out->count > 0;
}

/* OPENACL_DEVICE_MEMORY: "68719476736", "512M", "16G" (binary units). */
static void acl__env_device_memory(acl__env *env, acl__diags *diags) {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  uint64_t host = (pages > 0 && page > 0) ? (uint64_t)pages * (uint64_t)page : ((uint64_t)8 << 30);
  uint64_t def = host / 2;
  if (def > ((uint64_t)32 << 30))
    def = (uint64_t)32 << 30;
  env->device_memory = def;
  const char *s = getenv("OPENACL_DEVICE_MEMORY");
  if (s == NULL)
    return;
  char *end = NULL;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  if (end != NULL && *end != '\0' && end[1] == '\0') {
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    default: break;
    }
  }
  const uint64_t min = (uint64_t)1 << 20, max = (uint64_t)1 << 46;
  if (errno == 0 && end != s && *end == '\0' && s[0] != '-' && v <= (max >> shift) && (v << shift) >= min) {
    env->device_memory = (uint64_t)v << shift;
    return;
  }
  acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_DEVICE_MEMORY",
                 "value '%s' is not a size from 1M to 64T (a byte count with an optional K, M or G); using %llu "
                 "bytes instead",
                 s, (unsigned long long)def);
}

int acl__env_load(acl__env *env, acl__diags *diags) {
  memset(env, 0, sizeof(*env));
  env->global_log_level = 3;
  for (int m = 0; m < ACL__MOD_COUNT; m++)
    env->module_log_level[m] = -1;
  env->log_flush_timeout_ms = 2000;
  env->host_log_file_num = 10;
  env->log_file_size = 20u << 20;
  env->device_count = 1;

  acl__env_int("ASCEND_GLOBAL_LOG_LEVEL", 0, 4, &env->global_log_level, diags);
  acl__env_module_levels(env, diags);
  int to_stdout = 0;
  acl__env_int("ASCEND_SLOG_PRINT_TO_STDOUT", 0, 1, &to_stdout, diags);
  int to_stdout2 = 0;
  acl__env_int("ASCEND_LOG_PRINT_TO_STDOUT", 0, 1, &to_stdout2, diags);
  env->print_to_stdout = to_stdout || to_stdout2;
  acl__env_int("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", 0, 180000, &env->log_flush_timeout_ms, diags);
  acl__env_int("ASCEND_HOST_LOG_FILE_NUM", 1, 1000, &env->host_log_file_num, diags);
  const char *fs = getenv("OPENACL_LOG_FILE_SIZE");
  if (fs != NULL) {
    long v;
    if (acl__env_parse_int(fs, 1024, 1L << 30, &v) == 0)
      env->log_file_size = (size_t)v;
    else
      acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_LOG_FILE_SIZE",
                     "value '%s' is not a byte count from 1024 to 1073741824; using %zu instead", fs,
                     env->log_file_size);
  }
  acl__env_int("OPENACL_DEVICE_COUNT", 1, ACL__ENV_MAX_DEVICES, &env->device_count, diags);

  env->process_log_path = acl__env_path("ASCEND_PROCESS_LOG_PATH");
  if (env->process_log_path == NULL) {
    const char *home = getenv("HOME");
    if (asprintf(&env->process_log_path, "%s/ascend/log", home && *home ? home : "/tmp") < 0)
      env->process_log_path = NULL;
  }
  env->work_path = acl__env_path("ASCEND_WORK_PATH");
  env->npu_collect_path = acl__env_path("NPU_COLLECT_PATH");
  env->dump_path = acl__env_path("ASCEND_DUMP_PATH");
  env->soc_name = acl__env_path("OPENACL_SOC_NAME");
  if (env->soc_name != NULL && strlen(env->soc_name) > 63) {
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_SOC_NAME",
                   "value '%.20s...' is longer than 63 characters; using \"openacl-cpu\" instead", env->soc_name);
    free(env->soc_name);
    env->soc_name = NULL;
  }
  if (env->soc_name == NULL)
    env->soc_name = strdup("openacl-cpu");
  env->backend = acl__env_path("OPENACL_BACKEND");
  if (env->backend != NULL && strcmp(env->backend, "cpu") != 0 && strcmp(env->backend, "null") != 0) {
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_BACKEND",
                   "value '%s' is not a backend openacl has (cpu, null); using \"cpu\" instead", env->backend);
    free(env->backend);
    env->backend = NULL;
  }
  if (env->backend == NULL)
    env->backend = strdup("cpu");
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  env->executor_threads = cores > 0 ? (int)(cores > 256 ? 256 : cores) : 1;
  acl__env_int("OPENACL_EXECUTOR_THREADS", 1, 256, &env->executor_threads, diags);
  acl__env_device_memory(env, diags);
  acl__env_int("OPENACL_DEVICE_MEMORY_HOST_ACCESS", 0, 1, &env->device_memory_host_access, diags);
  env->shared_device = 1;
  acl__env_int("OPENACL_SHARED_DEVICE", 0, 1, &env->shared_device, diags);
  const char *mp = getenv("OPENACL_MEMORY_PROTECTION");
  if (mp != NULL && *mp != '\0') {
    static const char *const names[] = {"auto", "pkeys", "alias", "off"};
    int found = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(mp, names[i]) == 0)
        found = i;
    if (found >= 0)
      env->memory_protection = found; /* names[] is in ACL__MEMPROT_* order */
    else
      acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_MEMORY_PROTECTION",
                     "value '%s' is not one of auto, pkeys, alias, off; using auto instead", mp);
  }
  const char *pm = getenv("OPENACL_PRECISION_MODE");
  if (pm != NULL && *pm != '\0' && acl__precision_parse(pm, &env->precision_mode) != 0)
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, "OPENACL_PRECISION_MODE",
                   "value '%s' is not a precision mode (%s); using must_keep_origin_dtype (float32) instead", pm,
                   acl__precision_names());

  acl__env_parse_device_list(getenv("ASCEND_RT_VISIBLE_DEVICES"), 0, &env->rt_visible_devices);
  acl__env_parse_device_list(getenv("ASCEND_VISIBLE_DEVICES"), 1, &env->visible_devices);
  if (env->rt_visible_devices.set && !env->rt_visible_devices.valid)
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, "ASCEND_RT_VISIBLE_DEVICES",
                   "value '%s' is not a comma-separated list of device ids: %s; device calls will fail "
                   "with ACL_ERROR_RT_INVALID_DEVICEID until it is fixed",
                   env->rt_visible_devices.raw ? env->rt_visible_devices.raw : "",
                   env->rt_visible_devices.error ? env->rt_visible_devices.error : "invalid");
  if (env->visible_devices.set && !env->visible_devices.valid)
    acl__diags_add(diags, ACL__DIAG_WARNING, 0, "ASCEND_VISIBLE_DEVICES",
                   "value '%s' is not a list of device ids and ranges such as 0-2,4: %s; device calls will "
                   "fail with ACL_ERROR_RT_INVALID_DEVICEID until it is fixed",
                   env->visible_devices.raw ? env->visible_devices.raw : "",
                   env->visible_devices.error ? env->visible_devices.error : "invalid");
  return (env->process_log_path == NULL || env->soc_name == NULL || env->backend == NULL) ? ACL_ERROR_BAD_ALLOC : ACL_SUCCESS;
}

static void acl__device_list_free(acl__device_list *l) {
  free(l->raw);
  free(l->error);
  memset(l, 0, sizeof(*l));
}

void acl__env_free(acl__env *env) {
  if (env == NULL)
    return;
  free(env->process_log_path);
  free(env->work_path);
  free(env->npu_collect_path);
  free(env->dump_path);
  free(env->soc_name);
  free(env->backend);
  acl__device_list_free(&env->rt_visible_devices);
  acl__device_list_free(&env->visible_devices);
  memset(env, 0, sizeof(*env));
}
