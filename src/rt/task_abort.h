/* task_abort.h - aclrtDeviceTaskAbort (task_abort.c). */
#ifndef OPENACL_RT_TASK_ABORT_H
#define OPENACL_RT_TASK_ABORT_H

#include <stdint.h>

#include "rt/rt.h"

/* Aborts every stream of d between the task-abort callbacks; timeout_ms 0:
 * no limit.  0, a callback's nonzero value, or ACL_ERROR_RT_WAIT_TIMEOUT;
 * failures recorded for api.  No lock held by the caller. */
int acl__device_task_abort(const char *api, acl__device *d, uint32_t timeout_ms);
/* 1 while an abort of d runs: exception callbacks are not to be called
 * then (the vendor's rule; for callback.c and the exception reporters). */
int acl__device_task_aborting(acl__device *d);

#endif
