/* event_api.c - the public event functions: argument checks, then src/rt/event.c. */
#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/event.h"
#include "rt/rt.h"

static int acl__event_create(const char *api, aclrtEvent *event, uint32_t flag, int ex) {
  int rc = 0;
  if (event == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "event is NULL; pass where to store it");
  const uint32_t known = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                         ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;
  if (flag & ~known)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "flag 0x%x has bits that are not ACL_EVENT_* flags (0x%x)", flag, flag & ~known);
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  acl__event *e = NULL;
  rc = acl__event_new(api, c, flag, ex, &e);
  if (rc == 0)
    *event = e;
  return rc;
}

aclError aclrtCreateEvent(aclrtEvent *event) {
  /* The default event can time, and be waited on across streams. */
  return acl__event_create(__func__, event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 0);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  return acl__event_create(__func__, event, flag, 0);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  return acl__event_create(__func__, event, flag, 1);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  return e == NULL ? rc : acl__event_remove(__func__, e);
}

/* The checks every call that puts event work on a stream makes: a live
 * event (not an Ex one when ex_ok is 0), a stream of the current context,
 * both in the same context.  0 with *e and *s set, or the recorded code. */
static int acl__event_and_stream(const char *api, aclrtEvent event, aclrtStream stream, int ex_ok, acl__event **e,
                                 acl__stream **s) {
  int rc = 0;
  if ((*e = acl__event_resolve(api, event, &rc)) == NULL)
    return rc;
  if ((*e)->ex && !ex_ok)
    return acl__fail(api, ACL_ERROR_FEATURE_UNSUPPORTED, __FILE__, __LINE__,
                     "event %p was made by aclrtCreateEventExWithFlag, which cannot be reset", event);
  if ((*s = acl__stream_resolve(api, stream, &rc)) == NULL)
    return rc;
  return acl__event_same_context(api, *e, *s);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  return rc != 0 ? rc : acl__event_record(__func__, e, s);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 0, &e, &s);
  return rc != 0 ? rc : acl__event_reset(__func__, e, s);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  return rc != 0 ? rc : acl__event_wait(__func__, s, e);
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled;
  acl__event_state(e, &all_ran, &signaled);
  *status = all_ran && signaled ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return 0;
}

/* The event behind a handle for the queries that Ex events do not support. */
static acl__event *acl__event_resolve_not_ex(const char *api, const void *status, aclrtEvent event, int *rc) {
  if (status == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "status is NULL");
    return NULL;
  }
  acl__event *e = acl__event_resolve(api, event, rc);
  if (e != NULL && e->ex) {
    *rc = acl__fail(api, ACL_ERROR_FEATURE_UNSUPPORTED, __FILE__, __LINE__,
                    "event %p was made by aclrtCreateEventExWithFlag, which this query does not support; use "
                    "aclrtQueryEventStatus",
                    event);
    return NULL;
  }
  return e;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  int rc = 0;
  acl__event *e = acl__event_resolve_not_ex(__func__, status, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled;
  acl__event_state(e, &all_ran, &signaled);
  *status = all_ran && signaled ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return 0;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
  int rc = 0;
  acl__event *e = acl__event_resolve_not_ex(__func__, status, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled;
  acl__event_state(e, &all_ran, &signaled);
  *status = all_ran ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return 0;
}

static int acl__event_sync_api(const char *api, aclrtEvent event, int32_t timeout) {
  int rc = acl__sync_precheck(api, timeout);
  if (rc != 0)
    return rc;
  acl__event *e = acl__event_resolve(api, event, &rc);
  return e == NULL ? rc : acl__event_sync(api, e, timeout);
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return acl__event_sync_api(__func__, event, -1); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return acl__event_sync_api(__func__, event, timeout);
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  int rc = 0;
  if (ms == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ms is NULL");
  acl__event *a = acl__event_resolve(__func__, startEvent, &rc);
  if (a == NULL)
    return rc;
  acl__event *b = acl__event_resolve(__func__, endEvent, &rc);
  if (b == NULL)
    return rc;
  uint64_t ta, tb;
  if ((rc = acl__event_time(__func__, "start", a, &ta)) != 0 || (rc = acl__event_time(__func__, "end", b, &tb)) != 0)
    return rc;
  if (tb < ta)
    return ACL__FAIL(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                     "the end event ran %.3f ms before the start event. Remedy: record start before end on the "
                     "same stream",
                     (double)(ta - tb) / 1e6);
  *ms = (float)((double)(tb - ta) / 1e6);
  return 0;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp) {
  int rc = 0;
  if (timestamp == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  return acl__event_time(__func__, "", e, timestamp);
}
