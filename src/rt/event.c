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
 *
 * Ids: events of aclrtCreateEvent / ...WithFlag take the lowest free id of
 * their device, at most ACL__MAX_EVENTS of them (a card's hardware events);
 * Ex events are not limited and are numbered above that range.
 *
 * Waits with a timeout (aclrtStreamWaitEventWithTimeout, ...WithFlag): a
 * parked wait with a deadline is also on the timer list, which the timer
 * thread polls (timer.c, acl__event_poll); at the deadline the wait fails with
 * ACL_ERROR_RT_WAIT_TIMEOUT, which the stream reports at its next
 * synchronisation, and the stream goes on.
 *
 * IPC events (ACL_EVENT_IPC): aclrtIpcGetEventHandle moves `recorded` and
 * `done` into a shared signal of the host-wide registry (ipc_signal.c), and
 * aclrtIpcOpenEventHandle binds an event of another process to it.  Every
 * process keeps its own copy of the two counters, pulled from the signal
 * under the event lock before they are read; a record bumps the shared
 * `recorded` when it is submitted and raises the shared `done` when it
 * runs, then rings the bells of the processes waiting (their bell threads
 * poke the event, which wakes its waiters and host synchronisations).  A
 * wait whose record can no longer come (every other process bound to the
 * event ended, and no record of it is queued here) fails with
 * ACL_ERROR_RT_SUSPECT_REMOTE_ERROR.
 *
 * Locks: timer lock (acl__event_timers.lock) -> event lock -> stream lock.
 * Nobody takes the timer lock while holding an event lock: a wait that ends
 * takes the two one after the other.
 */
#include <errno.h>
#include <stddef.h>
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
#include "rt/idpool.h"
#include "rt/ipc_signal.h"
#include "rt/rt.h"
#include "rt/timer.h"

typedef struct acl__event_waiter {
  struct acl__event_waiter *next;     /* the event's waiter list (event lock) */
  acl__stream *stream;
  uint64_t target;
  acl__event *ev;
  acl__deadline_entry timer;          /* with a timeout: on acl__event_timers */
  int finished, timed_out;            /* event lock */
  int lost;                           /* IPC: nobody is left to record (event lock) */
} acl__event_waiter;

static acl__deadline_list acl__event_timers = ACL__DEADLINE_LIST_INIT;

static pthread_once_t acl__event_timers_once = PTHREAD_ONCE_INIT;
static void acl__event_timers_atfork_child(void) { acl__deadline_reset(&acl__event_timers); }
static void acl__event_timers_setup(void) { pthread_atfork(NULL, NULL, acl__event_timers_atfork_child); }

/* Takes w off the timer list if it is there (timer lock taken here). */
static void acl__event_timer_remove(acl__event_waiter *w) { acl__deadline_remove(&acl__event_timers, &w->timer); }

/* Event lock held: an IPC event's counters catch up with the shared ones. */
static void acl__event_pull_locked(acl__event *e) {
  if (e->ipc == NULL)
    return;
  uint64_t done = atomic_load(&e->ipc->word), rec = atomic_load(&e->ipc->recorded);
  if (done > e->done) {
    e->done = done;
    e->signaled = 1; /* IPC events cannot be reset */
  }
  if (rec > e->recorded)
    e->recorded = rec;
}

/* Event lock held: this process is in the signal's waiting mask exactly
 * while something here waits on the event. */
static void acl__event_ipc_waiting_locked(acl__event *e) {
  if (e->ipc == NULL)
    return;
  if (e->waiters != NULL || e->host_waiters > 0)
    atomic_fetch_or(&e->ipc->waiting, acl__ipcsig_my_bit());
  else
    atomic_fetch_and(&e->ipc->waiting, ~acl__ipcsig_my_bit());
}

static void acl__event_unref(acl__event *e) {
  pthread_mutex_lock(&e->lock);
  int last = --e->refs == 0;
  pthread_mutex_unlock(&e->lock);
  if (!last)
    return;
  if (e->ipc != NULL) {
    acl__ipcsig_unwatch(e->ipc_watch); /* no poke runs on e after this */
    acl__ipcsig_release(e->ipc_index);
    free(e->ipc_watch);
  }
  pthread_cond_destroy(&e->cond);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

void acl__event_destroy(acl__event *e) {
  acl__handle_unregister(e);
  if (!e->ex) {
    /* the id goes back with the handle: queued records keep only the struct */
    acl__idpool_give(e->dev->event_ids, (int32_t)e->id);
    atomic_fetch_sub(&e->dev->events_live, 1);
  }
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
  int32_t timeout_ms;           /* wait: 0 = none */
  int ran;                      /* record: has run */
  int ext;                      /* an EXTERNAL record or wait recorded in a task graph */
} acl__event_task;

static int acl__record_run(acl__task *t);

static void acl__event_task_release(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  if (et->waiter != NULL) {
    /* discarded while parked: leave the timer list, then the event's waiter list */
    acl__event_timer_remove(et->waiter);
    pthread_mutex_lock(&et->ev->lock);
    for (acl__event_waiter **pp = &et->ev->waiters; *pp; pp = &(*pp)->next)
      if (*pp == et->waiter) {
        *pp = et->waiter->next;
        break;
      }
    acl__event_ipc_waiting_locked(et->ev);
    pthread_mutex_unlock(&et->ev->lock);
    free(et->waiter);
  }
  if (et->t.run == acl__record_run && !et->ran)
    atomic_fetch_sub(&et->ev->ipc_pending, 1);
  acl__event_unref(et->ev);
  free(et);
}

/* Event lock held, e->done just rose: wakes the streams and host threads
 * waiting for it.  Unparks while holding the event lock: a waiting task
 * cannot be released (it unlinks itself under this lock) before we are
 * done. */
static void acl__event_wake_locked(acl__event *e) {
  acl__event_waiter *wake = NULL;
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
  for (acl__event_waiter *w = wake, *next; w; w = next) {
    next = w->next;
    w->next = NULL;
    acl__stream_unpark(w->stream);
  }
}

static int acl__record_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  acl__device *d = t->stream->ctx->dev;
  uint64_t now = d->ops->timestamp_ns(d->bdev);
  pthread_mutex_lock(&e->lock);
  struct acl__ds_sig *ipc = e->ipc;
  if (ipc != NULL) { /* the shared done rises to this record */
    uint64_t v = atomic_load(&ipc->word);
    while (v < et->seq && !atomic_compare_exchange_weak(&ipc->word, &v, et->seq)) {
    }
    acl__event_pull_locked(e);
  }
  et->ran = 1;
  atomic_fetch_sub(&e->ipc_pending, 1);
  if (et->seq > e->done || (ipc != NULL && et->seq == e->done)) {
    e->done = et->seq > e->done ? et->seq : e->done;
    e->ts_ns = now;
    e->signaled = 1;
  }
  acl__event_wake_locked(e);
  acl__event_ipc_waiting_locked(e);
  pthread_mutex_unlock(&e->lock);
  if (ipc != NULL)
    acl__ipcsig_ring(ipc);
  return 0;
}

/* Event lock held: takes w off the event's waiter list if it is there. */
static void acl__event_unlink_waiter_locked(acl__event *e, acl__event_waiter *w) {
  for (acl__event_waiter **pp = &e->waiters; *pp; pp = &(*pp)->next)
    if (*pp == w) {
      *pp = w->next;
      break;
    }
}

static int acl__wait_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  pthread_mutex_lock(&e->lock);
  acl__event_pull_locked(e);
  int done = e->done >= et->seq;
  int timed_out = et->waiter != NULL && (et->waiter->timed_out || et->waiter->lost);
  if (done || timed_out) {
    acl__event_waiter *w = et->waiter;
    et->waiter = NULL;
    if (w != NULL) {
      w->finished = 1;
      acl__event_unlink_waiter_locked(e, w); /* woken: record_run unlinked it already */
      acl__event_ipc_waiting_locked(e);
    }
    int lost = w != NULL && w->lost;
    pthread_mutex_unlock(&e->lock);
    if (w != NULL) {
      acl__event_timer_remove(w);
      free(w);
    }
    if (!done && lost) {
      snprintf(t->what, sizeof(t->what), "IPC event wait (every other process bound to it ended)");
      return ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
    }
    if (!done) {
      snprintf(t->what, sizeof(t->what), "event wait (no record within %d ms)", (int)et->timeout_ms);
      return ACL_ERROR_RT_WAIT_TIMEOUT;
    }
    return 0;
  }
  int arm = 0;
  acl__event_waiter *w = et->waiter;
  if (w == NULL) {
    w = calloc(1, sizeof(*w));
    if (w == NULL) {
      pthread_mutex_unlock(&e->lock);
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    w->stream = t->stream;
    w->target = et->seq;
    w->ev = e;
    w->next = e->waiters;
    e->waiters = w;
    et->waiter = w;
    arm = et->timeout_ms > 0;
    if (e->ipc != NULL) {
      /* publish this process as a waiter, then look once more: a record in
       * another process either sees the bit or raised done before */
      acl__event_ipc_waiting_locked(e);
      acl__event_pull_locked(e);
      if (e->done >= et->seq)
        acl__stream_unpark(t->stream); /* run again at once: it will see done */
    }
  }
  pthread_mutex_unlock(&e->lock);
  if (arm) {
    /* the timeout runs from when the wait starts on the device */
    pthread_once(&acl__event_timers_once, acl__event_timers_setup);
    acl__deadline_add(&acl__event_timers, &w->timer, acl__now_ns() + (uint64_t)et->timeout_ms * 1000000u);
  }
  return ACL__TASK_PARK;
}

/* A wait's deadline passed (timer lock held): unless it ended meanwhile, it fails. */
static void acl__event_wait_due(acl__deadline_entry *d) {
  acl__event_waiter *w = (acl__event_waiter *)((char *)d - offsetof(acl__event_waiter, timer));
  acl__event *e = w->ev;
  pthread_mutex_lock(&e->lock);
  if (!w->finished && !w->timed_out && !w->lost && e->done < w->target) {
    w->timed_out = 1;
    acl__event_unlink_waiter_locked(e, w);
    acl__event_ipc_waiting_locked(e);
    acl__stream_unpark(w->stream); /* the task (and w) lives until it has run again */
  }
  pthread_mutex_unlock(&e->lock);
}

uint64_t acl__event_poll(uint64_t now) { return acl__deadline_poll(&acl__event_timers, now, acl__event_wait_due); }

static int acl__reset_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  pthread_mutex_lock(&et->ev->lock);
  et->ev->signaled = 0;
  pthread_mutex_unlock(&et->ev->lock);
  return 0;
}

static int acl__event_submit(const char *api, acl__event *e, acl__stream *s, acl__task_run_fn run, uint64_t seq,
                             int32_t timeout_ms, const char *what) {
  acl__event_task *et = calloc(1, sizeof(*et));
  if (et == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for an event task");
  et->t.run = run;
  et->t.release = acl__event_task_release;
  snprintf(et->t.what, sizeof(et->t.what), "%s", what);
  et->ev = e;
  et->seq = seq;
  et->timeout_ms = timeout_ms;
  if (run == acl__reset_run) { /* the same each time it runs: a capture may record it (graph.c) */
    et->t.ri_ok = 1;
    et->t.ri_type = ACL_MODEL_RI_TASK_EVENT_RESET;
  }
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
  acl__device *d = c->dev;
  int32_t id;
  if (ex) {
    id = ACL__MAX_EVENTS + (int32_t)(atomic_fetch_add(&d->ex_event_ids, 1) % (uint32_t)(INT32_MAX - ACL__MAX_EVENTS));
  } else {
    id = acl__idpool_take(d->event_ids, ACL__MAX_EVENTS / 64);
    if (id < 0)
      return acl__fail(api, ACL_ERROR_RT_NO_EVENT_RESOURCE, __FILE__, __LINE__,
                       "device %d has %d events already, as many as a card has. Remedy: destroy events you no "
                       "longer use, or use aclrtCreateEventExWithFlag, whose events are not limited",
                       (int)d->id, ACL__MAX_EVENTS);
  }
  acl__event *e = calloc(1, sizeof(*e));
  if (e == NULL) {
    if (!ex)
      acl__idpool_give(d->event_ids, id);
    return acl__fail(api, ACL_ERROR_RT_NO_EVENT_RESOURCE, __FILE__, __LINE__, "out of host memory for an event");
  }
  if (!ex)
    atomic_fetch_add(&d->events_live, 1);
  e->id = (uint32_t)id;
  e->dev = d;
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
  __atomic_store_n(&e->graph_ri, 0, __ATOMIC_RELAXED); /* the latest record is a real one */
  uint64_t seq;
  if (e->ipc != NULL) {
    seq = atomic_fetch_add(&e->ipc->recorded, 1) + 1;
    acl__event_pull_locked(e);
  } else {
    seq = ++e->recorded;
  }
  atomic_fetch_add(&e->ipc_pending, 1);
  pthread_mutex_unlock(&e->lock);
  return acl__event_submit(api, e, s, acl__record_run, seq, 0, "event record");
}

int acl__event_reset(const char *api, acl__event *e, acl__stream *s) {
  return acl__event_submit(api, e, s, acl__reset_run, 0, 0, "event reset");
}

/* ---- events in task graphs (graph_capture.c, graph_replay.c) ------------------- */

void acl__event_graph_mark(acl__event *e, uint32_t ri_id, uint32_t edge) {
  pthread_mutex_lock(&e->lock);
  __atomic_store_n(&e->graph_ri, ri_id + 1, __ATOMIC_RELAXED);
  e->graph_edge = edge;
  pthread_mutex_unlock(&e->lock);
}

uint32_t acl__event_graph_mark_of(acl__event *e, uint32_t *edge) {
  if (__atomic_load_n(&e->graph_ri, __ATOMIC_RELAXED) == 0)
    return UINT32_MAX; /* the common case: no lock (written under it, read alone as a hint) */
  pthread_mutex_lock(&e->lock);
  uint32_t r = e->graph_ri == 0 ? UINT32_MAX : e->graph_ri - 1;
  *edge = e->graph_edge;
  pthread_mutex_unlock(&e->lock);
  return r;
}

/* An EXTERNAL record replayed: it raises done to the number its replay was
 * given at aclmdlRIExecuteAsync (et->seq), so that waits queued after that
 * call wait for it. */
static int acl__ext_record_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  acl__device *d = t->stream->ctx->dev;
  uint64_t now = d->ops->timestamp_ns(d->bdev);
  pthread_mutex_lock(&e->lock);
  uint64_t seq = et->seq != 0 ? et->seq : ++e->recorded;
  et->seq = 0;
  if (seq > e->done)
    e->done = seq;
  e->ts_ns = now;
  e->signaled = 1;
  acl__event_wake_locked(e);
  pthread_mutex_unlock(&e->lock);
  return 0;
}

/* An EXTERNAL wait replayed: the stream waits until the event is signalled
 * (recorded, by anyone, since its last reset). */
static int acl__ext_wait_run(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  acl__event *e = et->ev;
  pthread_mutex_lock(&e->lock);
  acl__event_waiter *w = et->waiter;
  if (w != NULL && w->target > e->done) { /* still waiting: a spurious wake */
    pthread_mutex_unlock(&e->lock);
    return ACL__TASK_PARK;
  }
  if (w != NULL) {
    acl__event_unlink_waiter_locked(e, w);
    et->waiter = NULL;
  }
  if (e->signaled) {
    pthread_mutex_unlock(&e->lock);
    free(w);
    return 0;
  }
  if (w == NULL && (w = calloc(1, sizeof(*w))) == NULL) {
    pthread_mutex_unlock(&e->lock);
    return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
  }
  memset(w, 0, sizeof(*w));
  w->stream = t->stream;
  w->target = e->done + 1; /* the next record to run wakes it */
  w->ev = e;
  w->next = e->waiters;
  e->waiters = w;
  et->waiter = w;
  pthread_mutex_unlock(&e->lock);
  return ACL__TASK_PARK;
}

/* The replay parked in an EXTERNAL wait was discarded: it stops waiting. */
static void acl__ext_wait_cancel(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  pthread_mutex_lock(&et->ev->lock);
  acl__event_waiter *w = et->waiter;
  if (w != NULL)
    acl__event_unlink_waiter_locked(et->ev, w);
  et->waiter = NULL;
  pthread_mutex_unlock(&et->ev->lock);
  free(w);
}

int acl__event_graph_submit(const char *api, acl__event *e, acl__stream *s, int wait) {
  acl__event_task *et = calloc(1, sizeof(*et));
  if (et == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for an event task");
  et->t.run = wait ? acl__ext_wait_run : acl__ext_record_run;
  et->t.release = acl__event_task_release;
  et->t.ri_ok = 1;
  et->t.ri_type = wait ? ACL_MODEL_RI_TASK_EVENT_WAIT : ACL_MODEL_RI_TASK_EVENT_RECORD;
  et->t.cancel = wait ? acl__ext_wait_cancel : NULL;
  snprintf(et->t.what, sizeof(et->t.what), "external event %s (event %u)", wait ? "wait" : "record", e->id);
  et->ev = e;
  et->ext = 1;
  et->ran = 1; /* no ipc_pending accounting: IPC events are never recorded in a graph */
  pthread_mutex_lock(&e->lock);
  e->refs++;
  pthread_mutex_unlock(&e->lock);
  int rc = acl__stream_submit(s, &et->t);
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed", s->id);
  return rc;
}

int acl__event_task_is_ext_record(acl__task *t) {
  return t->run == acl__ext_record_run;
}

uint64_t acl__event_task_take_seq(acl__task *t) {
  acl__event_task *et = (acl__event_task *)t;
  pthread_mutex_lock(&et->ev->lock);
  __atomic_store_n(&et->ev->graph_ri, 0, __ATOMIC_RELAXED);
  uint64_t seq = ++et->ev->recorded;
  pthread_mutex_unlock(&et->ev->lock);
  return seq;
}

void acl__event_task_set_seq(acl__task *t, uint64_t seq) { ((acl__event_task *)t)->seq = seq; }

void acl__event_task_set_event(acl__task *t, acl__event *e) {
  acl__event_task *et = (acl__event_task *)t;
  if (et->ev == e)
    return;
  pthread_mutex_lock(&e->lock);
  e->refs++;
  pthread_mutex_unlock(&e->lock);
  acl__event_unref(et->ev);
  et->ev = e;
}

acl__event *acl__event_of_task(acl__task *t) {
  if (t->run != acl__ext_record_run && t->run != acl__ext_wait_run && t->run != acl__reset_run)
    return NULL;
  return ((acl__event_task *)t)->ev;
}

int acl__event_wait(const char *api, acl__stream *s, acl__event *e, int32_t timeout_ms) {
  pthread_mutex_lock(&e->lock);
  acl__event_pull_locked(e);
  uint64_t target = e->recorded;
  pthread_mutex_unlock(&e->lock);
  if (target == 0)
    return 0; /* never recorded: nothing to wait for */
  return acl__event_submit(api, e, s, acl__wait_run, target, timeout_ms, "event wait");
}

void acl__event_state(acl__event *e, int *all_ran, int *signaled, int *never_recorded) {
  pthread_mutex_lock(&e->lock);
  acl__event_pull_locked(e);
  *all_ran = e->done >= e->recorded;
  *signaled = e->recorded == 0 || e->signaled;
  *never_recorded = e->recorded == 0;
  pthread_mutex_unlock(&e->lock);
}

int acl__event_sync(const char *api, acl__event *e, int32_t timeout) {
  struct timespec deadline;
  if (timeout > 0)
    acl__deadline(&deadline, timeout);
  pthread_mutex_lock(&e->lock);
  e->refs++; /* stays alive even if destroyed while we wait */
  acl__event_pull_locked(e);
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
  int timed_out = 0, lost = 0;
  acl__event_pull_locked(e);
  while (e->done < target) {
    if (timeout == 0) {
      timed_out = 1;
      break;
    }
    if (e->ipc_lost && atomic_load(&e->ipc_pending) == 0) {
      lost = 1;
      break;
    }
    e->host_waiters++;
    acl__event_ipc_waiting_locked(e);
    acl__event_pull_locked(e); /* published as a waiter: look once more */
    int w = e->done >= target ? 0
            : timeout < 0     ? pthread_cond_wait(&e->cond, &e->lock)
                              : pthread_cond_timedwait(&e->cond, &e->lock, &deadline);
    e->host_waiters--;
    acl__event_ipc_waiting_locked(e);
    acl__event_pull_locked(e);
    if (w == ETIMEDOUT && e->done < target) {
      timed_out = 1;
      break;
    }
  }
  pthread_mutex_unlock(&e->lock);
  acl__event_unref(e);
  if (lost)
    return acl__fail(api, ACL_ERROR_RT_SUSPECT_REMOTE_ERROR, __FILE__, __LINE__,
                     "the IPC event's latest record was to come from another process, and every other process "
                     "bound to the event has ended. Remedy: make sure the recording process lives until it has "
                     "recorded");
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

/* ---- IPC events --------------------------------------------------------------- */

/* The bell thread: another process changed the event's signal (or tick:
 * time to look whether anyone is left to record it). */
static void acl__event_poke(void *obj, int tick, acl__ipcsig_help *help) {
  acl__event *e = obj;
  int lost = 0;
  if (tick) {
    pthread_mutex_lock(&e->lock);
    int check = (e->waiters != NULL || e->host_waiters > 0) && atomic_load(&e->ipc_pending) == 0;
    pthread_mutex_unlock(&e->lock);
    lost = check && !acl__ipcsig_peers(e->ipc_index);
  }
  pthread_mutex_lock(&e->lock);
  acl__event_pull_locked(e);
  if (tick)
    e->ipc_lost = lost;
  for (acl__event_waiter **pp = &e->waiters; *pp;) {
    acl__event_waiter *w = *pp;
    if (w->target <= e->done || lost) {
      w->lost = w->target > e->done;
      *pp = w->next;
      w->next = NULL;
      if (!acl__ipcsig_help_add(help, w->stream)) /* the task (and w) lives until it has run again */
        acl__stream_unpark(w->stream);
    } else {
      pp = &w->next;
    }
  }
  acl__event_ipc_waiting_locked(e);
  if (e->host_waiters)
    pthread_cond_broadcast(&e->cond);
  pthread_mutex_unlock(&e->lock);
}

/* Event lock held: binds e to shared signal idx. */
static int acl__event_bind_locked(acl__event *e, acl__ds *ds, int32_t idx, const char *key) {
  acl__ipcsig_watcher *w = calloc(1, sizeof(*w));
  if (w == NULL)
    return ACL_ERROR_BAD_ALLOC;
  w->poke = acl__event_poke;
  w->obj = e;
  e->ipc_watch = w;
  e->ipc = acl__ds_sig_at(ds, idx);
  e->ipc_index = idx;
  snprintf(e->ipc_key, sizeof(e->ipc_key), "%s", key);
  acl__event_pull_locked(e);
  return 0;
}

int acl__event_ipc_export(const char *api, acl__event *e, char handle[ACL_IPC_EVENT_HANDLE_SIZE]) {
  if (!(e->flags & ACL_EVENT_IPC))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "event %p was not created with ACL_EVENT_IPC, so no other process can open it. Remedy: "
                     "create it with aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC)",
                     (void *)e);
  int rc = 0;
  acl__ds *ds = acl__ipcsig_registry(api, &rc);
  if (ds == NULL)
    return rc;
  int fresh = 0;
  pthread_mutex_lock(&e->lock);
  if (e->ipc == NULL) {
    char k[ACL__DS_KEY_LEN + 1];
    int32_t idx = -1;
    /* the counters move into the signal under the lock: no record of e runs meanwhile */
    if (acl__ds_sig_create(ds, ACL__DS_SIG_EVENT, 0, e->done, e->recorded, k, &idx) != 0) {
      pthread_mutex_unlock(&e->lock);
      return acl__fail(api, ACL_ERROR_RT_NO_EVENT_RESOURCE, __FILE__, __LINE__,
                       "%d notifies and events are shared between processes already (the most this host's "
                       "registry holds). Remedy: destroy IPC notifies and events no longer used",
                       ACL__DS_SIGS);
    }
    acl__ipcsig_hold(idx);
    if ((rc = acl__event_bind_locked(e, ds, idx, k)) != 0) {
      pthread_mutex_unlock(&e->lock);
      acl__ipcsig_release(idx);
      return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory");
    }
    fresh = 1;
  }
  /* the handle is the key, NUL-padded; asking again gives the same */
  memset(handle, 0, ACL_IPC_EVENT_HANDLE_SIZE);
  memcpy(handle, e->ipc_key, strlen(e->ipc_key));
  acl__ipcsig_watcher *w = e->ipc_watch;
  pthread_mutex_unlock(&e->lock);
  if (fresh) /* not under the event lock: the bell thread pokes with the watch lock held */
    acl__ipcsig_watch(w);
  return 0;
}

int acl__event_ipc_open(const char *api, acl__context *c, const char handle[ACL_IPC_EVENT_HANDLE_SIZE],
                        acl__event **out) {
  char key[ACL__DS_KEY_LEN + 1];
  size_t n = strnlen(handle, ACL_IPC_EVENT_HANDLE_SIZE);
  int ok = n == 7 + 32 && strncmp(handle, "oacl-e-", 7) == 0;
  for (size_t i = 7; ok && i < n; i++)
    ok = (handle[i] >= '0' && handle[i] <= '9') || (handle[i] >= 'a' && handle[i] <= 'f');
  for (size_t i = n; ok && i < ACL_IPC_EVENT_HANDLE_SIZE; i++)
    ok = handle[i] == 0;
  if (!ok)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the handle is not one aclrtIpcGetEventHandle wrote (it holds 'oacl-e-' and 32 hex digits, "
                     "then zeros). Remedy: pass all %u bytes of the creator's handle",
                     (unsigned)ACL_IPC_EVENT_HANDLE_SIZE);
  memcpy(key, handle, n);
  key[n] = '\0';
  int rc = 0;
  acl__ds *ds = acl__ipcsig_registry(api, &rc);
  if (ds == NULL)
    return rc;
  int32_t idx = -1;
  int r = acl__ds_sig_open(ds, key, ACL__DS_SIG_EVENT, &idx);
  if (r == ACL__DS_SELF)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "event handle '%s' was made by this process; use the event itself", key);
  if (r != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "event handle '%s' is not open: its creator destroyed the event, or the creator's process "
                     "ended. Remedy: open the handle while the creator keeps the event",
                     key);
  acl__ipcsig_hold(idx);
  acl__event *e = NULL;
  if ((rc = acl__event_new(api, c, ACL_EVENT_IPC, 1, &e)) != 0) {
    acl__ipcsig_release(idx);
    return rc;
  }
  pthread_mutex_lock(&e->lock);
  e->ipc_opened = 1;
  rc = acl__event_bind_locked(e, ds, idx, key);
  acl__ipcsig_watcher *w = e->ipc_watch;
  pthread_mutex_unlock(&e->lock);
  if (rc != 0) {
    acl__ipcsig_release(idx);
    acl__event_remove(api, e);
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory");
  }
  acl__ipcsig_watch(w);
  *out = e;
  return 0;
}
