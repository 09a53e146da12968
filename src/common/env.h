/*
 * env.h - every environment variable openacl reads, parsed once into one
 * struct.  A bad value never passes silently: it is replaced by the default
 * and a warning naming the variable, the value and what is used instead is
 * added to the diagnostics (aclInit prints them).  docs/environment.md lists
 * each variable.
 */
#ifndef OPENACL_COMMON_ENV_H
#define OPENACL_COMMON_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "common/log_modules.h"

#define ACL__ENV_MAX_DEVICES 64

/* A device list from ASCEND_RT_VISIBLE_DEVICES or ASCEND_VISIBLE_DEVICES. */
typedef struct acl__device_list {
  int set;                /* the variable is present */
  int valid;              /* it parsed; if not, `error` says why */
  size_t count;
  int32_t ids[ACL__ENV_MAX_DEVICES];
  char *raw;              /* the value as given */
  char *error;            /* e.g. "token 'x' at position 3 is not a device id" */
} acl__device_list;

typedef struct acl__env {
  /* logging */
  int global_log_level;                  /* ASCEND_GLOBAL_LOG_LEVEL: 0 debug .. 3 error, 4 off; default 3 */
  int module_log_level[ACL__MOD_COUNT];  /* ASCEND_MODULE_LOG_LEVEL: -1 = use global */
  int print_to_stdout;                   /* ASCEND_SLOG_PRINT_TO_STDOUT or ASCEND_LOG_PRINT_TO_STDOUT = 1 */
  char *process_log_path;                /* ASCEND_PROCESS_LOG_PATH, default $HOME/ascend/log */
  int log_flush_timeout_ms;              /* ASCEND_LOG_DEVICE_FLUSH_TIMEOUT: 0..180000, default 2000 */
  int host_log_file_num;                 /* ASCEND_HOST_LOG_FILE_NUM: files kept per process, 1..1000, default 10 */
  size_t log_file_size;                  /* OPENACL_LOG_FILE_SIZE: bytes before rotation, default 20 MiB */
  /* paths (NULL when unset) */
  char *work_path;                       /* ASCEND_WORK_PATH */
  char *npu_collect_path;                /* NPU_COLLECT_PATH */
  char *dump_path;                       /* ASCEND_DUMP_PATH */
  /* devices: parsed and validated here, applied by the device layer */
  acl__device_list rt_visible_devices;   /* ASCEND_RT_VISIBLE_DEVICES */
  acl__device_list visible_devices;      /* ASCEND_VISIBLE_DEVICES */
  int device_count;                      /* OPENACL_DEVICE_COUNT: simulated devices, 1..64, default 1 */
  char *soc_name;                        /* OPENACL_SOC_NAME: what aclrtGetSocName reports, default "openacl-cpu" */
  char *backend;                         /* OPENACL_BACKEND: "cpu" (default) or "null" (dispatch tests only) */
  int executor_threads;                  /* OPENACL_EXECUTOR_THREADS: per device, 1..256, default = host cores */
  uint64_t device_memory;                /* OPENACL_DEVICE_MEMORY: bytes per device (K/M/G suffixes),
                                            default half the host's memory, at most 32 GiB */
  int device_memory_host_access;         /* OPENACL_DEVICE_MEMORY_HOST_ACCESS=1: host code may touch device memory */
  int memory_protection;                 /* OPENACL_MEMORY_PROTECTION: an ACL__MEMPROT_* value, default AUTO */
  int shared_device;                     /* OPENACL_SHARED_DEVICE: 1 (default) devices shared by the user's
                                            processes, 0 a private device per process (docs/processes.md) */
  /* models */
  int precision_mode;                    /* OPENACL_PRECISION_MODE: an ACL__PREC_* value (common/precision.h),
                                            default float32 */
} acl__env;

/* How host code is kept out of device memory (docs/memory.md). */
#define ACL__MEMPROT_AUTO 0  /* the best this machine offers: pkeys, else alias, else off */
#define ACL__MEMPROT_PKEYS 1 /* memory protection keys */
#define ACL__MEMPROT_ALIAS 2 /* a shared-memory object mapped twice */
#define ACL__MEMPROT_OFF 3   /* not trapped */

/* Reads the environment.  Bad values produce warnings in `diags` (may be
 * NULL).  Returns 0, or ACL_ERROR_BAD_ALLOC when out of memory. */
int acl__env_load(acl__env *env, acl__diags *diags);
void acl__env_free(acl__env *env);
/* Parses a device list ("0,2,3"; with allow_ranges also "0-2,4").  Used for
 * both visibility variables and by tests. */
void acl__env_parse_device_list(const char *value, int allow_ranges, acl__device_list *out);

#endif
