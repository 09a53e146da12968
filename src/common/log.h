/*
 * log.h - the process logger: CANN-style plog files, optional copy to
 * stdout, per-module thresholds.
 *
 * A call below the threshold costs one relaxed atomic load and a compare
 * (ACL__LOG checks before evaluating arguments).  Lines are formatted by the
 * calling thread and written under one lock; ERROR lines are flushed at once
 * and never dropped.  aclFinalize calls acl__log_flush.
 *
 * Line format (one line per record):
 *   [INFO] ASCENDCL(4242,prog):2026-11-29-14:50:01.123.456 [init.c:120]4243 message
 *   level   module  pid  name  local time to the microsecond  file:line  tid
 */
#ifndef OPENACL_COMMON_LOG_H
#define OPENACL_COMMON_LOG_H

#include <stdarg.h>
#include <stdatomic.h>

#include "common/env.h"
#include "common/log_modules.h"

enum {
  ACL__LOG_DEBUG = 0,
  ACL__LOG_INFO = 1,
  ACL__LOG_WARNING = 2,
  ACL__LOG_ERROR = 3,
  ACL__LOG_NONE = 4   /* threshold only: nothing is logged */
};


/* Lowest level written, per module.  Read with relaxed loads on every log
 * call; written by acl__log_configure. */
extern _Atomic int acl__log_threshold[ACL__MOD_COUNT];

#define ACL__LOG_ENABLED(level, mod) \
  ((level) >= atomic_load_explicit(&acl__log_threshold[(mod)], memory_order_relaxed))

#define ACL__LOG(level, mod, ...)                                        \
  do {                                                                   \
    if (ACL__LOG_ENABLED(level, mod))                                    \
      acl__log_write((level), (mod), __FILE__, __LINE__, __VA_ARGS__);   \
  } while (0)

#define ACL__LOGD(mod, ...) ACL__LOG(ACL__LOG_DEBUG, mod, __VA_ARGS__)
#define ACL__LOGI(mod, ...) ACL__LOG(ACL__LOG_INFO, mod, __VA_ARGS__)
#define ACL__LOGW(mod, ...) ACL__LOG(ACL__LOG_WARNING, mod, __VA_ARGS__)
#define ACL__LOGE(mod, ...) ACL__LOG(ACL__LOG_ERROR, mod, __VA_ARGS__)

/* Writes one record (no threshold check: callers use ACL__LOG).  `file` may
 * be a full path; only its last component is printed.  Messages longer than
 * the line buffer are truncated with "...[truncated]". */
void acl__log_write(int level, acl__log_module mod, const char *file, int line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void acl__log_vwrite(int level, acl__log_module mod, const char *file, int line,
                     const char *fmt, va_list ap);

/* Applies the environment: thresholds, stdout copy, directory, rotation.
 * Safe to call again (aclInit after aclFinalize).  Never fails: an
 * unwritable directory gives one warning on stderr and lines go to stderr. */
void acl__log_configure(const acl__env *env);

/* Writes out everything buffered; waits at most timeout_ms (<0: no bound).
 * Returns 0 when everything was written, -1 when the bound expired. */
int acl__log_flush(int timeout_ms);

/* Path of the current log file, or NULL when none is open (for tests/tools). */
const char *acl__log_current_path(void);

/* fork() support, called by the process-wide atfork handlers in src/acl/fork.c:
 * prepare takes the logger lock, parent releases it, child re-creates it and
 * forgets the parent's file so the child opens its own plog file. */
void acl__log_atfork_prepare(void);
void acl__log_atfork_parent(void);
void acl__log_atfork_child(void);

/* Level name as printed in lines ("DEBUG", "INFO", "WARNING", "ERROR"). */
const char *acl__log_level_name(int level);
const char *acl__log_module_name(acl__log_module mod);

#endif
