/*
 * common.c - what every TDT file needs: handle checks that say what a bad
 * handle really is, and timeouts turned into deadlines.
 */
#include <time.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/tdt.h"

int acl__tdt_check(const char *api, const char *arg, const void *h, int type, const char *maker) {
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL. Remedy: pass a handle made by %s",
                     arg, maker);
  if (acl__handle_valid(h, (acl__handle_type)type))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(h, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s %p is a %s handle, not a %s. Remedy: pass a handle made by %s", arg, h,
                       acl__handle_type_name((acl__handle_type)t), acl__handle_type_name((acl__handle_type)type),
                       maker);
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "%s %p is not a live %s (destroyed, or never made by %s). Remedy: pass a handle made by %s", arg,
                   h, acl__handle_type_name((acl__handle_type)type), maker, maker);
}

int acl__tdt_deadline(const char *api, int32_t timeout, struct timespec *deadline) {
  if (timeout < -1)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "timeout is %d ms: it is -1 (wait for ever), 0 (do not wait) or a positive number of "
                     "milliseconds", (int)timeout);
  clock_gettime(CLOCK_MONOTONIC, deadline);
  if (timeout > 0) {
    deadline->tv_sec += timeout / 1000;
    deadline->tv_nsec += (long)(timeout % 1000) * 1000000L;
    if (deadline->tv_nsec >= 1000000000L) {
      deadline->tv_sec++;
      deadline->tv_nsec -= 1000000000L;
    }
  }
  return 0;
}
