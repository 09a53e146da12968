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
#include "rt/event.h"
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

acl__event *acl__event_resolve(const char *api, aclrtEvent event, int *rc) {
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

/* ---- operations behind the public functions (src/acl/event_api.c) ---------- */

int acl__event_new(const char *api, acl__context *c, uint32_t flag, int ex, acl__event **out) {
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
  *out = e;
  return 0;
}

int acl__event_remove(const char *api, acl__event *e) {
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
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "event %p is being destroyed by another thread", (void *)e);
  acl__event_destroy(e);
  return 0;
}

int acl__event_same_context(const char *api, acl__event *e, acl__stream *s) {
  if (e->ctx == s->ctx)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                   "the event belongs to a context of device %d and the stream %d to one of device %d. Remedy: "
                   "use an event created in the stream's context",
                   (int)e->ctx->dev->id, s->id, (int)s->ctx->dev->id);
}

int acl__event_record(const char *api, acl__event *e, acl__stream *s) {
  pthread_mutex_lock(&e->lock);
  uint64_t seq = ++e->recorded;
  pthread_mutex_unlock(&e->lock);
  return acl__event_submit(api, e, s, acl__record_run, seq, "event record");
}

int acl__event_reset(const char *api, acl__event *e, acl__stream *s) {
  return acl__event_submit(api, e, s, acl__reset_run, 0, "event reset");
}

int acl__event_wait(const char *api, acl__stream *s, acl__event *e) {
  pthread_mutex_lock(&e->lock);
  uint64_t target = e->recorded;
  pthread_mutex_unlock(&e->lock);
  if (target == 0)
    return 0; /* never recorded: nothing to wait for */
  return acl__event_submit(api, e, s, acl__wait_run, target, "event wait");
}

void acl__event_state(acl__event *e, int *all_ran, int *signaled) {
  pthread_mutex_lock(&e->lock);
  *all_ran = e->done >= e->recorded;
  *signaled = e->recorded == 0 || e->signaled;
  pthread_mutex_unlock(&e->lock);
}

int acl__event_sync(const char *api, acl__event *e, int32_t timeout) {
  struct timespec deadline;
  if (timeout > 0)
    acl__deadline(&deadline, timeout);
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

int acl__event_time(const char *api, const char *which, acl__event *e, uint64_t *ts) {
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
