/*
 * stream_ctl_api.c - the public functions that control streams rather than
 * queue work: stop, abort (one stream, or a whole device), attributes, the
 * stream budget of a device, the caller's last task id, and the control
 * flow between the streams of a model runtime instance.
 */
#include <string.h>

#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/executor.h"
#include "rt/overflow.h"
#include "rt/rt.h"
#include "rt/stream_ctl.h"
#include "rt/task_abort.h"
#include "prof/prof.h"

aclError aclrtStreamStop(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "stream is NULL: the default stream cannot be stopped. Remedy: stop a stream you created");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__stream_stop(s);
}

aclError aclrtStreamAbort(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  /* The header says the stream cannot be NULL, but the vendor's runtime
   * takes NULL as the default stream, like every other stream argument. */
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__stream_abort(s, ACL_ERROR_RT_STREAM_ABORT, "aclrtStreamAbort");
}

/* The longest budget aclrtDeviceTaskAbort takes: 36 minutes. */
#define ACL__TASK_ABORT_MAX_MS 2160000u

aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (timeout > ACL__TASK_ABORT_MAX_MS)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "timeout %u ms is above the limit of %u ms (36 minutes). Remedy: pass at most that, or 0 to "
                     "wait as long as it takes",
                     timeout, ACL__TASK_ABORT_MAX_MS);
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  rc = acl__callback_forbid(__func__); /* it waits for running tasks: a callback would wait for itself */
  if (rc != 0)
    return rc;
  return acl__device_task_abort(__func__, d, timeout);
}

/* ---- attributes --------------------------------------------------------------- */

static const char *acl__stream_attr_name(aclrtStreamAttr a) {
  switch (a) {
  case ACL_STREAM_ATTR_FAILURE_MODE: return "ACL_STREAM_ATTR_FAILURE_MODE";
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: return "ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK";
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG: return "ACL_STREAM_ATTR_USER_CUSTOM_TAG";
  case ACL_STREAM_ATTR_CACHE_OP_INFO: return "ACL_STREAM_ATTR_CACHE_OP_INFO";
  case ACL_STREAM_ATTR_PRIORITY: return "ACL_STREAM_ATTR_PRIORITY";
  default: return NULL;
  }
}

static int acl__attr_unknown(const char *api, aclrtStreamAttr a) {
  return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "stmAttrType %d is not an aclrtStreamAttr (ACL_STREAM_ATTR_FAILURE_MODE 1 .. "
                   "ACL_STREAM_ATTR_PRIORITY 5)",
                   (int)a);
}

/* 0/1 switches: anything else is refused. */
static int acl__attr_switch(const char *api, aclrtStreamAttr a, uint64_t v) {
  if (v <= 1)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "%s takes 0 (off) or 1 (on), not %llu",
                   acl__stream_attr_name(a), (unsigned long long)v);
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL; pass the attribute's new value");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  switch (stmAttrType) {
  case ACL_STREAM_ATTR_FAILURE_MODE:
    if (s->is_default)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                       "the failure mode of the default stream cannot be set. Remedy: use a stream you created");
    if ((rc = acl__attr_switch(__func__, stmAttrType, value->failureMode)) != 0)
      return rc;
    pthread_mutex_lock(&s->lock);
    s->failure_mode = value->failureMode;
    pthread_mutex_unlock(&s->lock);
    return 0;
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
    if ((rc = acl__attr_switch(__func__, stmAttrType, value->overflowSwitch)) != 0)
      return rc;
    acl__overflow_switch_set(s, value->overflowSwitch); /* = aclrtSetStreamOverflowSwitch */
    return 0;
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
    pthread_mutex_lock(&s->lock);
    s->user_tag = value->userCustomTag;
    pthread_mutex_unlock(&s->lock);
    return 0;
  case ACL_STREAM_ATTR_CACHE_OP_INFO:
    if ((rc = acl__attr_switch(__func__, stmAttrType, value->cacheOpInfoSwitch)) != 0)
      return rc;
    pthread_mutex_lock(&s->lock);
    s->cache_op_info = value->cacheOpInfoSwitch;
    pthread_mutex_unlock(&s->lock);
    return 0;
  case ACL_STREAM_ATTR_PRIORITY:
    if (value->streamPriority > 7)
      return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "priority %u is outside 0 (highest) .. 7 (lowest)",
                       value->streamPriority);
    acl__stream_set_priority(s, value->streamPriority);
    return 0;
  default:
    return acl__attr_unknown(__func__, stmAttrType);
  }
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType, aclrtStreamAttrValue *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL; pass where to store the attribute");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if (acl__stream_attr_name(stmAttrType) == NULL)
    return acl__attr_unknown(__func__, stmAttrType);
  memset(value, 0, sizeof(*value));
  pthread_mutex_lock(&s->lock);
  switch (stmAttrType) {
  case ACL_STREAM_ATTR_FAILURE_MODE: value->failureMode = s->failure_mode; break;
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: value->overflowSwitch = acl__overflow_switch_get(s); break;
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG: value->userCustomTag = s->user_tag; break;
  case ACL_STREAM_ATTR_CACHE_OP_INFO: value->cacheOpInfoSwitch = s->cache_op_info; break;
  default: value->streamPriority = s->priority; break;
  }
  pthread_mutex_unlock(&s->lock);
  return 0;
}

/* ---- budget and ids --------------------------------------------------------------- */

aclError aclrtGetStreamAvailableNum(uint32_t *streamCount) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (streamCount == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "streamCount is NULL; pass where to store the count");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  int live = atomic_load(&c->dev->streams_live);
  *streamCount = live >= ACL__MAX_STREAMS ? 0 : (uint32_t)(ACL__MAX_STREAMS - live);
  return 0;
}

aclError aclrtGetThreadLastTaskId(uint32_t *taskId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (taskId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "taskId is NULL; pass where to store the id");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  *taskId = acl__thread_last_task_id();
  return 0;
}

/* ---- control flow between the streams of a model runtime instance ----------------- */

/* aclrtTaskUpdateAsync updates a task of a stream bound to a model by its
 * task id; openacl's built model runtime instances update tasks through
 * aclmdlRITaskSetParams instead, so the call ends in the vendor's code for
 * an unbound stream, after the vendor's argument checks. */
static int acl__stream_not_bound(const char *api, aclrtStream stream) {
  int rc = 0;
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                   "stream %d is not bound to a model runtime instance; this call works only between the streams "
                   "of one (aclmdlRIBindStream); openacl updates such tasks with aclmdlRITaskSetParams",
                   s->id);
}

aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                              aclrtStream execStream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  (void)taskId;
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL; pass what to update");
  if (acl__stream_resolve(__func__, execStream, &rc) == NULL)
    return rc;
  return acl__stream_not_bound(__func__, taskStream);
}
