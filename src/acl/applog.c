/*
 * applog.c - aclAppLog, the application's own lines in the process log
 * (module APP), and openaclGetLogFilePath.
 *
 * aclAppLog may be called before aclInit: the logger then configures itself
 * from the environment on first use (src/common/log.c).  A call below the
 * APP threshold returns after one relaxed load, before touching its
 * variable arguments.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "openacl/openacl.h"
#include "common/log.h"
#include "prof/prof.h"

/* The documented limit: 1024 bytes including the NUL, "func: " included. */
#define APPLOG_MSG_MAX 1024
#define APPLOG_TRUNCATED "...[truncated]"

/* The slow path, out of line so that a filtered call pays for no stack
 * buffer: "func: " + the message, cut at the documented limit. */
static __attribute__((noinline)) void applog_write(int level, const char *func, const char *file,
                                                   uint32_t line, const char *fmt, va_list ap) {
  char msg[APPLOG_MSG_MAX];
  int n = 0;
  if (func != NULL && *func != '\0')
    n = snprintf(msg, sizeof(msg), "%.256s: ", func);
  if (n < 0)
    n = 0;
  int m = vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
  if (m >= 0 && (size_t)n + (size_t)m >= sizeof(msg)) {
    /* Cut on a UTF-8 character boundary and mark the cut. */
    size_t keep = sizeof(msg) - sizeof(APPLOG_TRUNCATED);
    while (keep > 0 && ((unsigned char)msg[keep] & 0xC0) == 0x80)
      keep--;
    memcpy(msg + keep, APPLOG_TRUNCATED, sizeof(APPLOG_TRUNCATED));
  }
  acl__log_write(level, ACL__MOD_APP, file, (int)line, "%s", msg);
}

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
               const char *fmt, ...) {
  ACL__PROF_API_SCOPE();
  int level = (int)logLevel;
  if (level < ACL__LOG_DEBUG || level > ACL__LOG_ERROR || fmt == NULL)
    return;
  if (!ACL__LOG_ENABLED(level, ACL__MOD_APP))
    return;
  va_list ap;
  va_start(ap, fmt);
  applog_write(level, func, file, line, fmt, ap);
  va_end(ap);
}

const char *openaclGetLogFilePath(void) { return acl__log_current_path(); }
