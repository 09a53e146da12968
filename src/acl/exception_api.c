/*
 * exception_api.c - the public exception functions of rt-breadth §4:
 * exception-info callbacks and their readers, aclrtGetErrorVerbose and
 * aclrtRepairError.  When callbacks fire and what they see:
 * src/rt/exception.c and docs/callbacks.md.
 */
#include <string.h>

#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/exception.h"
#include "rt/rt.h"
#include "prof/prof.h"

#define ACL__NO_FIELD 0xFFFFFFFFu

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  ACL__PROF_API_SCOPE();
  /* one slot, NULL clears it; the Register list is not touched */
  return acl__exception_set_callback(callback);
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  ACL__PROF_API_SCOPE();
  if (callback == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "callback is NULL. Remedy: pass the function to call");
  return acl__exception_register(__func__, callback);
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  ACL__PROF_API_SCOPE();
  if (callback == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "callback is NULL. Remedy: pass the function registered");
  return acl__exception_unregister(__func__, callback);
}

/* ---- readers ----------------------------------------------------------------------
 * The info is valid only while its callbacks run: it is a handle for that
 * long, so a stale or made-up pointer is refused instead of read. */

static const struct rtExceptionInfo *info_get(const char *api, const aclrtExceptionInfo *info) {
  if (info == NULL) {
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "info is NULL");
    return NULL;
  }
  if (!acl__handle_valid(info, ACL__H_EXCEPTION_INFO)) {
    acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
              "info %p is not the exception info of a callback that is running; it is valid only inside the "
              "exception callback it was passed to. Remedy: read what you need inside the callback",
              (const void *)info);
    return NULL;
  }
  return info;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  ACL__PROF_API_SCOPE();
  const struct rtExceptionInfo *e = info_get(__func__, info);
  return e != NULL ? e->taskid : ACL__NO_FIELD;
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  ACL__PROF_API_SCOPE();
  const struct rtExceptionInfo *e = info_get(__func__, info);
  return e != NULL ? e->streamid : ACL__NO_FIELD;
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  ACL__PROF_API_SCOPE();
  const struct rtExceptionInfo *e = info_get(__func__, info);
  return e != NULL ? e->tid : ACL__NO_FIELD;
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info) {
  ACL__PROF_API_SCOPE();
  const struct rtExceptionInfo *e = info_get(__func__, info);
  return e != NULL ? e->deviceid : ACL__NO_FIELD;
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info) {
  ACL__PROF_API_SCOPE();
  const struct rtExceptionInfo *e = info_get(__func__, info);
  return e != NULL ? e->retcode : ACL__NO_FIELD;
}

/* The vendor returns 0xFFFFFFFF (as an aclError: -1) for a NULL info and
 * for a task that is not a kernel. */
static int kernel_info(const char *api, const aclrtExceptionInfo *info, const struct rtExceptionInfo **out) {
  if (info == NULL)
    return acl__fail(api, (int)ACL__NO_FIELD, __FILE__, __LINE__, "info is NULL");
  const struct rtExceptionInfo *e = info_get(api, info);
  if (e == NULL)
    return ACL_ERROR_RT_INVALID_HANDLE;
  if (e->func == NULL)
    return acl__fail(api, (int)ACL__NO_FIELD, __FILE__, __LINE__,
                     "task %u on stream %u is not a kernel launch (error %u), so it has no arguments or function. "
                     "Remedy: read them only for kernel failures",
                     e->taskid, e->streamid, e->retcode);
  *out = e;
  return 0;
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr, uint32_t *devArgsLen) {
  ACL__PROF_API_SCOPE();
  if (info != NULL && (devArgsPtr == NULL || devArgsLen == NULL))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", devArgsPtr == NULL ? "devArgsPtr" : "devArgsLen");
  const struct rtExceptionInfo *e = NULL;
  int rc = kernel_info(__func__, info, &e);
  if (rc != 0)
    return rc;
  *devArgsPtr = e->args;
  *devArgsLen = e->args_len;
  return 0;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info, aclrtFuncHandle *func) {
  ACL__PROF_API_SCOPE();
  if (info != NULL && func == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "func is NULL");
  const struct rtExceptionInfo *e = NULL;
  int rc = kernel_info(__func__, info, &e);
  if (rc != 0)
    return rc;
  *func = e->func;
  return 0;
}

/* ---- fault details ----------------------------------------------------------------- */

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (errorInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "errorInfo is NULL");
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  memset(errorInfo, 0, sizeof(*errorInfo));
  int fault = acl__exception_fault_of(d);
  errorInfo->errorType = (aclrtErrorType)fault;
  /* nothing on a simulated device can be repaired: a failing kernel is the
   * program's own code (a software error), not broken hardware */
  errorInfo->tryRepair = 0;
  if (fault == ACL_RT_ERROR_AICORE) {
    errorInfo->hasDetail = 1;
    errorInfo->detail.aicoreErrType = ACL_RT_AICORE_ERROR_SW;
  }
  return 0;
}

aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (errorInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "errorInfo is NULL");
  if (acl__device_get(__func__, deviceId, &rc) == NULL)
    return rc;
  if (errorInfo->errorType == ACL_RT_NO_ERROR)
    return 0; /* nothing to repair */
  return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   "errorType %d: the simulated device has no hardware faults (memory UCE, L2, links) to repair; "
                   "its faults are errors of the program's kernels. Remedy: fix the failing task, or reset the "
                   "device (aclrtResetDevice) to start afresh",
                   (int)errorInfo->errorType);
}
