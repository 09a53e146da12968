/*
 * event.c - events: records are tasks on a stream that stamp the device
 * time when they run; waits are tasks that park their stream until the
 * record they depend on has run.
 *
 * An event counts the records submitted (`recorded`) and the highest one
 * executed (`done`).  aclrtRecordEvent captures the work submitted to its
 * stream so far simply by being queued behind it.  aclrtStreamWaitEvent and
 * aclrtSynchronizeEvent wait for the record that was the latest when they
 * were called; an event never recorded does not hold anyone.
 *
 * Lifetime: the handle holds one reference and every queued task that
 * uses the event holds one; aclrtDestroyEvent drops the handle's, so an
 * event destroyed with records in flight is freed when they have run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/executor.h"
#include "rt/rt.h"

typedef struct acl__event_waiter {
  struct acl__event_waiter *next;
  acl__stream *stream;
  uint64_t target;
} acl__event_waiter;

static void acl__event_unref(acl__event *e) {
  pthread_mutex_lock(&e->lock);
  int last = --e->refs == 0;
  pthread_mutex_unlock(&e->lock);
  if (!last)
    return;
  pthread_cond_destroy(&e->cond);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

void acl__event_destroy(acl__event *e) {
  acl__handle_unregister(e);
  acl__event_unref(e);
}

static acl__event *acl__event_resolve(const char *api, aclrtEvent event, int *rc) {
  if (!acl__rt_live(api, rc))
    return NULL;
  if (event == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "event is NULL");
    return NULL;
  }
  if (!acl__handle_valid(event, ACL__H_EVENT)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "event %p is not a live event (destroyed already, or never created)", event);
    return NULL;
  }
  return event;
}

/* ---- tasks ------------------------------------------------------------------ */

typedef struct acl__event_task {
  acl__task t;
  acl__event *ev;
  uint64_t seq;                 /* record: which record this is; wait: the target */
  acl__event_waiter *waiter;    /* wait: registered in ev->waiters while parked */
} acl__event_task;

static void acl__event_task_release(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  if (et->waiter != NULL) {
    /* discarded while parked: leave the event's waiter list */
    pthread_mutex_lock(&et->ev->lock);
    for (acl__event_waiter **pp = &et->ev->waiters; *pp; pp = &(*pp)->next)
      if (*pp == et->waiter) {
        *pp = et->waiter->next;
        break;
      }
    pthread_mutex_unlock(&et->ev->lock);
    free(et->waiter);
  }
  acl__event_unref(et->ev);
  free(et);
}

static int acl__record_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  acl__device *d = t->stream->ctx->dev;
  uint64_t now = d->ops->timestamp_ns(d->bdev);
  acl__event_waiter *wake = NULL;
  pthread_mutex_lock(&e->lock);
  if (et->seq > e->done) {
    e->done = et->seq;
    e->ts_ns = now;
    e->signaled = 1;
  }
  for (acl__event_waiter **pp = &e->waiters; *pp;) {
    acl__event_waiter *w = *pp;
    if (w->target <= e->done) {
      *pp = w->next;
      w->next = wake;
      wake = w;
    } else {
      pp = &w->next;
    }
  }
  if (e->host_waiters)
    pthread_cond_broadcast(&e->cond);
  /* unpark while holding the event lock: the waiting task cannot be
   * released (it unlinks itself under this lock) before we are done */
  for (acl__event_waiter *w = wake, *next; w; w = next) {
    next = w->next;
    w->next = NULL;
    acl__stream_unpark(w->stream);
  }
  pthread_mutex_unlock(&e->lock);
  return 0;
}

static int acl__wait_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  pthread_mutex_lock(&e->lock);
  if (e->done >= et->seq) {
    if (et->waiter != NULL) {
      /* woken: record_run already unlinked it */
      for (acl__event_waiter **pp = &e->waiters; *pp; pp = &(*pp)->next)
        if (*pp == et->waiter) {
          *pp = et->waiter->next;
          break;
        }
      free(et->waiter);
      et->waiter = NULL;
    }
    pthread_mutex_unlock(&e->lock);
    return 0;
  }
  if (et->waiter == NULL) {
    et->waiter = calloc(1, sizeof(*et->waiter));
    if (et->waiter == NULL) {
      pthread_mutex_unlock(&e->lock);
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    et->waiter->stream = t->stream;
    et->waiter->target = et->seq;
    et->waiter->next = e->waiters;
    e->waiters = et->waiter;
  }
  pthread_mutex_unlock(&e->lock);
  return ACL__TASK_PARK;
}

static int acl__reset_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  pthread_mutex_lock(&et->ev->lock);
  et->ev->signaled = 0;
  pthread_mutex_unlock(&et->ev->lock);
  return 0;
}

static int acl__event_submit(const char *api, acl__event *e, acl__stream *s, acl__task_run_fn run, uint64_t seq,
                             const char *what) {
  acl__event_task *et = calloc(1, sizeof(*et));
  if (et == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for an event task");
  et->t.run = run;
  et->t.release = acl__event_task_release;
  snprintf(et->t.what, sizeof(et->t.what), "%s", what);
  et->ev = e;
  et->seq = seq;
  pthread_mutex_lock(&e->lock);
  e->refs++;
  pthread_mutex_unlock(&e->lock);
  uint64_t pos = 0;
  int rc = acl__stream_submit_seq(s, &et->t, &pos);
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed", s->id);
  if (run == acl__record_run) {
    pthread_mutex_lock(&e->lock);
    if (seq == e->recorded) { /* still the latest record */
      e->last_stream = s;
      e->last_stream_seq = pos;
    }
    pthread_mutex_unlock(&e->lock);
  }
  return 0;
}

/* ---- public API --------------------------------------------------------------- */

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
  acl__event *e = calloc(1, sizeof(*e));
  if (e == NULL)
    return acl__fail(api, ACL_ERROR_RT_NO_EVENT_RESOURCE, __FILE__, __LINE__, "out of host memory for an event");
  e->ctx = c;
  e->flags = flag;
  e->ex = ex;
  e->refs = 1;
  pthread_mutex_init(&e->lock, NULL);
  pthread_cond_init(&e->cond, NULL);
  pthread_mutex_lock(&c->lock);
  e->ctx_next = c->events;
  c->events = e;
  pthread_mutex_unlock(&c->lock);
  acl__handle_register(e, ACL__H_EVENT);
  *event = e;
  return 0;
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
  if (e == NULL)
    return rc;
  acl__context *c = e->ctx;
  pthread_mutex_lock(&c->lock);
  int found = 0;
  for (acl__event **pp = &c->events; *pp; pp = &(*pp)->ctx_next)
    if (*pp == e) {
      *pp = e->ctx_next;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&c->lock);
  if (!found)
    return ACL__FAIL(ACL_ERROR_RT_INVALID_HANDLE, "event %p is being destroyed by another thread", event);
  acl__event_destroy(e);
  return 0;
}

/* Checks that an event may be used on stream s (same context). */
static int acl__event_same_context(const char *api, acl__event *e, acl__stream *s) {
  if (e->ctx == s->ctx)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                   "the event belongs to a context of device %d and the stream %d to one of device %d. Remedy: "
                   "use an event created in the stream's context",
                   (int)e->ctx->dev->id, s->id, (int)s->ctx->dev->id);
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__event_same_context(__func__, e, s)) != 0)
    return rc;
  pthread_mutex_lock(&e->lock);
  uint64_t seq = ++e->recorded;
  pthread_mutex_unlock(&e->lock);
  return acl__event_submit(__func__, e, s, acl__record_run, seq, "event record");
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  if (e->ex)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "event %p was made by aclrtCreateEventExWithFlag, which cannot be reset", event);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__event_same_context(__func__, e, s)) != 0)
    return rc;
  return acl__event_submit(__func__, e, s, acl__reset_run, 0, "event reset");
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  int rc = 0;
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__event_same_context(__func__, e, s)) != 0)
    return rc;
  pthread_mutex_lock(&e->lock);
  uint64_t target = e->recorded;
  pthread_mutex_unlock(&e->lock);
  if (target == 0)
    return 0; /* never recorded: nothing to wait for */
  return acl__event_submit(__func__, e, s, acl__wait_run, target, "event wait");
}

/* 1 when every record submitted so far has run. */
static int acl__event_complete_locked(const acl__event *e) { return e->done >= e->recorded; }

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  pthread_mutex_lock(&e->lock);
  int complete = acl__event_complete_locked(e) && (e->recorded == 0 || e->signaled);
  pthread_mutex_unlock(&e->lock);
  *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return 0;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status) {
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  if (e->ex)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "event %p was made by aclrtCreateEventExWithFlag; query it with aclrtQueryEventStatus", event);
  pthread_mutex_lock(&e->lock);
  int complete = acl__event_complete_locked(e) && (e->recorded == 0 || e->signaled);
  pthread_mutex_unlock(&e->lock);
  *status = complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return 0;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status) {
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__event *e = acl__event_resolve(__func__, event, &rc);
  if (e == NULL)
    return rc;
  if (e->ex)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "event %p was made by aclrtCreateEventExWithFlag, which has no wait status", event);
  pthread_mutex_lock(&e->lock);
  int complete = acl__event_complete_locked(e);
  pthread_mutex_unlock(&e->lock);
  *status = complete ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return 0;
}

static int acl__event_sync(const char *api, aclrtEvent event, int32_t timeout) {
  int rc = 0;
  if (timeout < -1)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "timeout %d ms is invalid: use -1 to wait forever, or 0 and above", (int)timeout);
  if (acl__callback_in_progress())
    return acl__callback_forbid(api);
  acl__event *e = acl__event_resolve(api, event, &rc);
  if (e == NULL)
    return rc;
  struct timespec deadline;
  if (timeout > 0) {
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout / 1000;
    deadline.tv_nsec += (long)(timeout % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
  }
  pthread_mutex_lock(&e->lock);
  e->refs++; /* stays alive even if destroyed while we wait */
  uint64_t target = e->recorded;
  if (e->done < target && e->last_stream != NULL) {
    /* The record may still wait in its stream's queue: run it here rather
     * than sleep until an executor gets to it (see acl__stream_help). */
    acl__stream *s = e->last_stream;
    uint64_t pos = e->last_stream_seq;
    pthread_mutex_unlock(&e->lock);
    if (acl__handle_valid(s, ACL__H_STREAM)) {
      pthread_mutex_lock(&s->lock);
      acl__stream_help(s, pos);
      pthread_mutex_unlock(&s->lock);
    }
    pthread_mutex_lock(&e->lock);
  }
  int timed_out = 0;
  while (e->done < target) {
    if (timeout == 0) {
      timed_out = 1;
      break;
    }
    e->host_waiters++;
    int w = timeout < 0 ? pthread_cond_wait(&e->cond, &e->lock) : pthread_cond_timedwait(&e->cond, &e->lock, &deadline);
    e->host_waiters--;
    if (w == ETIMEDOUT && e->done < target) {
      timed_out = 1;
      break;
    }
  }
  pthread_mutex_unlock(&e->lock);
  acl__event_unref(e);
  if (timed_out)
    return acl__fail(api, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, __FILE__, __LINE__,
                     "the event's latest record had not run after %d ms", (int)timeout);
  return 0;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) { return acl__event_sync(__func__, event, -1); }

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  return acl__event_sync(__func__, event, timeout);
}

/* The timestamp of a completed record, or a recorded failure. */
static int acl__event_time(const char *api, const char *which, acl__event *e, uint64_t *ts) {
  pthread_mutex_lock(&e->lock);
  uint64_t rec = e->recorded, done = e->done, t = e->ts_ns;
  uint32_t flags = e->flags;
  pthread_mutex_unlock(&e->lock);
  if (!(flags & ACL_EVENT_TIME_LINE))
    return acl__fail(api, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, __FILE__, __LINE__,
                     "the %s event was created without ACL_EVENT_TIME_LINE, so it takes no timestamps. Remedy: "
                     "create it with aclrtCreateEvent or with the ACL_EVENT_TIME_LINE flag",
                     which);
  if (rec == 0)
    return acl__fail(api, ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, __FILE__, __LINE__,
                     "the %s event was never recorded. Remedy: aclrtRecordEvent it first", which);
  if (done < rec)
    return acl__fail(api, ACL_ERROR_RT_EVENT_NOT_COMPLETE, __FILE__, __LINE__,
                     "the %s event's latest record has not run yet. Remedy: aclrtSynchronizeEvent first", which);
  *ts = t;
  return 0;
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
