/*
 * callback_api.c - the public entry points of host callbacks on streams:
 * aclrtSubscribeReport, aclrtUnSubscribeReport, aclrtLaunchCallback,
 * aclrtProcessReport and aclrtLaunchHostFunc.  Plain arguments are checked
 * and the stream resolved here (NULL = the current context's default
 * stream); src/rt/callback.c does the rest.  docs/callbacks.md describes the
 * thread model and every error.
 */
#include <stdint.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (threadId == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "threadId is 0, which is not a thread. Remedy: pass the pthread_t value (pthread_self()) "
                     "of the thread that will call aclrtProcessReport, cast to uint64_t");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__callback_subscribe(__func__, threadId, s);
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (threadId == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "threadId is 0, which is not a thread. Remedy: pass the thread id the stream was "
                     "subscribed with");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__callback_unsubscribe(__func__, threadId, s);
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (fn == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "fn is NULL. Remedy: pass the function to call");
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "blockType is %d, not ACL_CALLBACK_NO_BLOCK (0) or ACL_CALLBACK_BLOCK (1)", (int)blockType);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__callback_launch(__func__, s, fn, userData, blockType == ACL_CALLBACK_BLOCK);
}

aclError aclrtProcessReport(int32_t timeout) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (timeout == 0 || timeout < -1)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "timeout is %d ms; it must be positive, or -1 to wait without a bound", (int)timeout);
  return acl__callback_process(__func__, timeout);
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (fn == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "fn is NULL. Remedy: pass the function to call");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__callback_launch_host_func(__func__, s, fn, args);
}

/* ---- host-function threads (aclrtSubscribeHostFunc family) -------------------------
 * The vendor ships these in its compact runtime only, with runtime-layer
 * checks: a NULL stream (no default stream here) and a bad timeout are
 * ACL_ERROR_RT_PARAM_INVALID. */

static acl__stream *hf_stream(const char *api, uint64_t thread_id, aclrtStream stream, int *rc) {
  if (thread_id == 0) {
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "hostFuncThreadId is 0, which is not a thread. Remedy: pass the pthread_t value "
                    "(pthread_self()) of the thread that calls aclrtProcessHostFunc, cast to uint64_t");
    return NULL;
  }
  if (stream == NULL) {
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "exeStream is NULL; these calls take a stream made by aclrtCreateStream*, not the default "
                    "stream");
    return NULL;
  }
  return acl__stream_resolve(api, stream, rc);
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = hf_stream(__func__, hostFuncThreadId, exeStream, &rc);
  return s == NULL ? rc : acl__callback_subscribe_host_func(__func__, hostFuncThreadId, s);
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = hf_stream(__func__, hostFuncThreadId, exeStream, &rc);
  return s == NULL ? rc : acl__callback_unsubscribe_host_func(__func__, hostFuncThreadId, s);
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (timeout == 0 || timeout < -1)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "timeout is %d ms; it must be positive, or -1 to wait without a bound", (int)timeout);
  return acl__callback_process_host_func(__func__, timeout);
}
