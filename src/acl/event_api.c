/* event_api.c - the public event functions: argument checks, then src/rt/event.c. */
#include <stdint.h>

#include "common/errmsg.h"
#include "rt/graph.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/event.h"
#include "rt/rt.h"
#include "prof/prof.h"

static int acl__event_create(const char *api, aclrtEvent *event, uint32_t flag, int ex) {
  int rc = 0;
  if (event == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "event is NULL; pass where to store it");
  const uint32_t known = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                         ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;
  if (flag & ~known)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "flag 0x%x has bits that are not ACL_EVENT_* flags (0x%x)", flag, flag & ~known);
  if ((flag & ACL_EVENT_IPC) && flag != ACL_EVENT_IPC)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "flag 0x%x combines ACL_EVENT_IPC with other flags; an IPC event takes that flag alone", flag);
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
  ACL__PROF_API_SCOPE();
  /* The default event can time, and be waited on across streams. */
  return acl__event_create(__func__, event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 0);
}

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  return acl__event_create(__func__, event, flag, 0);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  return acl__event_create(__func__, event, flag, 1);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  return e == NULL ? rc : acl__event_remove(__func__, e);
}

/* Calls an IPC event does not support (the vendor's list, reference
 * ipc-vmm-graphs-tdt §2): 0, or the recorded failure. */
static int acl__event_not_ipc(const char *api, const acl__event *e) {
  if (!(e->flags & ACL_EVENT_IPC))
    return 0;
  return acl__fail(api, ACL_ERROR_FEATURE_UNSUPPORTED, __FILE__, __LINE__,
                   "event %p was created with ACL_EVENT_IPC, which this call does not support (IPC events have no "
                   "id, no timestamps and no reset). Remedy: use aclrtQueryEventStatus and the record, wait and "
                   "synchronize calls",
                   (const void *)e);
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
  if (((*e)->flags & ACL_EVENT_IPC) && acl__stream_capturing(*s) &&
      (rc = acl__graph_refuse(api, *s, "an IPC event record, wait or reset")) != 0)
    return rc;
  return acl__event_same_context(api, *e, *s);
}

/* Records and waits on streams that record into a task graph (graph.c): an
 * EXTERNAL one (the flag, or an event made with ACL_EVENT_EXTERNAL) is a
 * real event task replayed each time; an ordinary one is an internal edge
 * of the graph, and a wait on it pulls a stream into the capture. */
static int acl__event_record_any(const char *api, acl__event *e, acl__stream *s, int external) {
  if ((external || (e->flags & ACL_EVENT_EXTERNAL)) && acl__stream_capturing(s))
    return acl__event_graph_submit(api, e, s, 0);
  int rc = acl__graph_event_record(api, e, s);
  return rc != ACL__GRAPH_PASS ? rc : acl__event_record(api, e, s);
}

static int acl__event_wait_any(const char *api, acl__stream *s, acl__event *e, int32_t timeout, int external) {
  if ((external || (e->flags & ACL_EVENT_EXTERNAL)) && acl__stream_capturing(s))
    return acl__event_graph_submit(api, e, s, 1);
  int rc = acl__graph_event_wait(api, s, e);
  return rc != ACL__GRAPH_PASS ? rc : acl__event_wait(api, s, e, timeout);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  return rc != 0 ? rc : acl__event_record_any(__func__, e, s, 0);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 0, &e, &s);
  if (rc == 0)
    rc = acl__event_not_ipc(__func__, e);
  return rc != 0 ? rc : acl__event_reset(__func__, e, s);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  ACL__PROF_API_SCOPE();
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  return rc != 0 ? rc : acl__event_wait_any(__func__, s, e, 0, 0);
}

/* ---- flavours of record and wait (rt-breadth: events) --------------------------- */

/* EXTERNAL records and waits connect a model runtime instance with the
 * outside: on a stream that records into one they are replayed as real
 * event tasks; elsewhere the vendor refuses them.  An event keeps the
 * flavour of its first ...WithFlag call, even a failed one (the vendor's
 * rule). */
static int acl__event_flavour(const char *api, acl__event *e, uint32_t flag) {
  int want = flag == 0 ? 1 : 2, cur = 0;
  if (!atomic_compare_exchange_strong(&e->flavour, &cur, want) && cur != want)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the event was first used with the %s flag, and an event keeps that flavour. Remedy: use "
                     "another event for %s records and waits",
                     cur == 1 ? "DEFAULT" : "EXTERNAL", want == 1 ? "DEFAULT" : "EXTERNAL");
  return 0;
}

static int acl__not_capturing(const char *api, acl__stream *s) {
  return acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                   "the EXTERNAL flag works only on a stream that is being captured into a model runtime instance, "
                   "and stream %d is not. Remedy: use the DEFAULT flag outside a capture",
                   s->id);
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (event == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "event is NULL");
  if (flag > ACL_EVENT_RECORD_EXTERNAL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "flag %u is neither ACL_EVENT_RECORD_DEFAULT (0) nor ACL_EVENT_RECORD_EXTERNAL (1)", flag);
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  if (rc != 0)
    return rc;
  if ((rc = acl__event_flavour(__func__, e, flag)) != 0)
    return rc;
  if (flag == ACL_EVENT_RECORD_EXTERNAL && !acl__stream_capturing(s))
    return acl__not_capturing(__func__, s);
  return acl__event_record_any(__func__, e, s, flag == ACL_EVENT_RECORD_EXTERNAL);
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (event == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "event is NULL");
  if (flag > ACL_EVENT_WAIT_EXTERNAL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "flag %u is neither ACL_EVENT_WAIT_DEFAULT (0) nor ACL_EVENT_WAIT_EXTERNAL (1)", flag);
  if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "an EXTERNAL wait never times out: timeout must be 0, not %u",
                     timeout);
  if (timeout > INT32_MAX)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "timeout %u ms is above the largest, %d ms", timeout,
                     (int)INT32_MAX);
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  if (rc != 0)
    return rc;
  if ((rc = acl__event_flavour(__func__, e, flag)) != 0)
    return rc;
  if (flag == ACL_EVENT_WAIT_EXTERNAL && !acl__stream_capturing(s))
    return acl__not_capturing(__func__, s);
  return acl__event_wait_any(__func__, s, e, (int32_t)timeout, flag == ACL_EVENT_WAIT_EXTERNAL);
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  ACL__PROF_API_SCOPE();
  /* timeout in milliseconds (the header's unit; one document says seconds),
   * 0 = never time out */
  if (timeout < 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "timeout %d ms is invalid: use 0 to wait as long as it takes, or a positive number of ms",
                     (int)timeout);
  acl__event *e = NULL;
  acl__stream *s = NULL;
  int rc = acl__event_and_stream(__func__, event, stream, 1, &e, &s);
  return rc != 0 ? rc : acl__event_wait_any(__func__, s, e, timeout, 0);
}

/* ---- ids and budget ------------------------------------------------------------- */

aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (eventId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "eventId is NULL; pass where to store the id");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  if ((rc = acl__event_not_ipc(__func__, e)) != 0)
    return rc;
  *eventId = e->id;
  return 0;
}

aclError aclrtGetEventAvailNum(uint32_t *eventCount) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (eventCount == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "eventCount is NULL; pass where to store the count");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  int live = atomic_load(&c->dev->events_live);
  *eventCount = live >= ACL__MAX_EVENTS ? 0 : (uint32_t)(ACL__MAX_EVENTS - live);
  return 0;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled, never;
  acl__event_state(e, &all_ran, &signaled, &never);
  /* Never recorded: an event of aclrtCreateEvent / ...WithFlag is still in
   * its initial state, which reads as NOT_READY (the vendor's sample expects
   * 0 right after create); an Ex event reads as COMPLETE. */
  if (never)
    *status = e->ex ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  else
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
  if (e != NULL && (*rc = acl__event_not_ipc(api, e)) != 0)
    return NULL;
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
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__event *e = acl__event_resolve_not_ex(__func__, status, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled, never;
  acl__event_state(e, &all_ran, &signaled, &never);
  *status = all_ran && signaled ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return 0;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__event *e = acl__event_resolve_not_ex(__func__, status, event, &rc);
  if (e == NULL)
    return rc;
  int all_ran, signaled, never;
  acl__event_state(e, &all_ran, &signaled, &never);
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
  ACL__PROF_API_SCOPE();
  return acl__event_sync_api(__func__, event, timeout);
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  ACL__PROF_API_SCOPE();
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
  if ((rc = acl__event_not_ipc(__func__, a)) != 0 || (rc = acl__event_not_ipc(__func__, b)) != 0)
    return rc;
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
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (timestamp == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  if ((rc = acl__event_not_ipc(__func__, e)) != 0)
    return rc;
  return acl__event_time(__func__, "", e, timestamp);
}

/* ---- IPC events (ipc-vmm-graphs-tdt §2) ----------------------------------------- */

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (event == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", event == NULL ? "event" : "handle");
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  return e == NULL ? rc : acl__event_ipc_export(__func__, e, handle->reserved);
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event) {
  ACL__PROF_API_SCOPE();
  if (event == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "event is NULL; pass where to store it");
  int rc = 0;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  acl__event *e = NULL;
  if ((rc = acl__event_ipc_open(__func__, c, handle.reserved, &e)) == 0)
    *event = e;
  return rc;
}
