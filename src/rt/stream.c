/*
 * stream.c - streams: creation and ids, synchronisation, stop and abort,
 * destruction.  How tasks run is executor.c's business.
 *
 * Ids: each device numbers its streams from 0 (the default stream of the
 * first context), taking the lowest free id, as a card does; an id comes
 * back when its stream is gone.
 *
 * Destruction.  aclrtDestroyStream waits (bounded at teardown) for the
 * stream's work; aclrtDestroyStreamForce does not.  Both then mark every
 * task that has not started as dropped (drop_upto), make the handle
 * invalid, and hand the stream to whoever still runs on it: a task that is
 * running ends normally, and so does the head task of a READY stream when
 * the device has an idle executor, because a card would already be running
 * it (keep_seq).  The stream becomes an "orphan": the last thread to let go
 * of it (an executor, a synchronising thread, or the destroyer itself) marks
 * it dead and gives its id back; the struct is freed by the destroyer when
 * it is dead at once, otherwise it waits in its context's orphan list and is
 * freed by the next stream create or destroy in that context, and at the
 * latest when the context ends (whose default-stream destroy waits, bounded,
 * for its orphans).  An orphan reaches its device through s->dev, never
 * through its context.
 *
 * Stop and abort (aclrtStreamStop / aclrtStreamAbort) set marks the runner
 * reads between tasks and return at once; see executor.c.
 *
 * Locks: context lock -> stream lock (rt.h).  The stream-state callbacks run
 * with no lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/executor.h"
#include "rt/idpool.h"
#include "rt/rt.h"
#include "rt/state_callback.h"
#include "rt/stream_ctl.h"

/* How long teardown (reset, aclFinalize, destroy) waits for a stream's work
 * before it discards what has not started. */
#define ACL__TEARDOWN_WAIT_MS 10000

/* Results of acl__stream_wait_locked besides 0 and ETIMEDOUT. */
#define ACL__WAIT_STOPPED (-2)

acl__stream *acl__stream_new(acl__context *c, uint32_t priority, uint32_t flags, int is_default) {
  acl__device *d = c->dev;
  int32_t id = acl__idpool_take(d->stream_ids, ACL__MAX_STREAMS / 64);
  if (id < 0)
    return NULL;
  acl__stream *s = calloc(1, sizeof(*s));
  if (s == NULL) {
    acl__idpool_give(d->stream_ids, id);
    return NULL;
  }
  atomic_fetch_add(&d->streams_live, 1);
  s->ctx = c;
  s->dev = d;
  s->priority = priority;
  s->flags = flags;
  s->is_default = is_default;
  s->id = id;
  s->failure_mode = ACL_CONTINUE_ON_FAILURE;
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->idle_cond, NULL);
  acl__handle_register(s, ACL__H_STREAM);
  return s;
}

void acl__deadline(struct timespec *ts, int32_t timeout_ms) {
  clock_gettime(CLOCK_REALTIME, ts);
  ts->tv_sec += timeout_ms / 1000;
  ts->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
  if (ts->tv_nsec >= 1000000000L) {
    ts->tv_sec++;
    ts->tv_nsec -= 1000000000L;
  }
}

/* Stream lock held.  Waits until `target` has completed; 0, ETIMEDOUT, or
 * ACL__WAIT_STOPPED when the stream is stopped (aclrtStreamStop) with the
 * target not reached: stopped work never completes, so nobody waits for it.
 * A stream that is stopped while its task runs is left to finish that task
 * first (a kernel ends at its next block). */
static int acl__stream_wait_locked(acl__stream *s, uint64_t target, int32_t timeout_ms) {
  struct timespec deadline;
  if (timeout_ms > 0)
    acl__deadline(&deadline, timeout_ms);
  while (s->completed < target) {
    if (s->state == ACL__STREAM_STOPPED)
      return ACL__WAIT_STOPPED;
    if (acl__stream_help(s, target))
      continue;
    if (timeout_ms == 0)
      return ETIMEDOUT;
    s->waiters++;
    int w = timeout_ms < 0 ? pthread_cond_wait(&s->idle_cond, &s->lock)
                           : pthread_cond_timedwait(&s->idle_cond, &s->lock, &deadline);
    s->waiters--;
    if (w == ETIMEDOUT && s->completed < target)
      return ETIMEDOUT;
  }
  return 0;
}

int acl__stream_sync_api(const char *api, acl__stream *s, int32_t timeout_ms) {
  pthread_mutex_lock(&s->lock);
  s->users++;
  uint64_t target = s->submitted, gen = s->abort_gen;
  int w = acl__stream_wait_locked(s, target, timeout_ms);
  int err = s->error, id = s->id, aborted = s->abort_gen != gen;
  uint64_t completed = s->completed;
  char msg[sizeof(s->error_msg)];
  if (w == 0 && err != 0) {
    memcpy(msg, s->error_msg, sizeof(msg));
    s->error = 0;
    s->error_msg[0] = '\0';
  }
  s->users--;
  if (s->destroying) {
    /* the destroyer (or the orphan's last user) waits for us to leave */
    pthread_cond_broadcast(&s->idle_cond);
    acl__stream_settle_locked(s);
  }
  pthread_mutex_unlock(&s->lock);
  /* s may be gone from here on: only copies are used */
  if (w == ACL__WAIT_STOPPED)
    return acl__fail(api, ACL_ERROR_RT_INTERNAL_ERROR, __FILE__, __LINE__,
                     "stream %d was stopped by aclrtStreamStop, so its %llu unfinished task(s) will not run. "
                     "Remedy: aclrtStreamAbort the stream to discard them and use it again, or destroy it",
                     id, (unsigned long long)(target - completed));
  if (w != 0)
    return acl__fail(api, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, __FILE__, __LINE__,
                     "stream %d still had work after %d ms (task %llu of %llu finished)", id, (int)timeout_ms,
                     (unsigned long long)completed, (unsigned long long)target);
  if (err != 0)
    return acl__fail(api, err, __FILE__, __LINE__, "%s; the error is reported once, at this synchronisation",
                     msg);
  if (aborted)
    return acl__fail(api, ACL_ERROR_RT_STREAM_ABORT, __FILE__, __LINE__,
                     "stream %d was aborted by aclrtStreamAbort while this call waited; its unfinished tasks were "
                     "discarded",
                     id);
  return 0;
}

/* ---- stop and abort ----------------------------------------------------------- */

int acl__stream_stop(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  atomic_store(&s->cut_code, ACL_ERROR_RT_INTERNAL_ERROR);
  atomic_store(&s->cut_upto, s->submitted); /* a kernel running now ends at its next block */
  atomic_store(&s->stopped, 1);
  switch (s->state) {
  case ACL__STREAM_READY:
    if (acl__stream_unlist(s))
      s->state = ACL__STREAM_STOPPED;
    /* else an executor has just taken it: it sees `stopped` before running anything */
    break;
  case ACL__STREAM_IDLE:
  case ACL__STREAM_PARKED: /* a wait in progress is stopped too */
    s->state = ACL__STREAM_STOPPED;
    break;
  default: /* RUNNING: the runner stops after the task it is in; STOPPED already */
    break;
  }
  if (s->waiters)
    pthread_cond_broadcast(&s->idle_cond);
  pthread_mutex_unlock(&s->lock);
  return 0;
}

/* Stream lock held: after the drop marks changed, a stream nobody would run
 * again (parked, stopped) loses its head task at once if it is dropped
 * (returned for acl__tasks_discard after the lock: a parked wait must stop
 * watching memory before the call returns, since the program may free it
 * next); the rest goes back to the ready list, where an executor discards
 * the other dropped tasks (the call stays O(1) with 10,000 queued), and an
 * empty stream becomes idle. */
static acl__task *acl__stream_requeue_locked(acl__stream *s) {
  if (s->state != ACL__STREAM_PARKED && s->state != ACL__STREAM_STOPPED)
    return NULL;
  acl__task *drop = s->head != NULL ? acl__stream_take_dropped_locked(s, 1) : NULL;
  if (s->head == NULL) {
    s->state = ACL__STREAM_IDLE;
    s->completed = s->submitted;
    return drop;
  }
  s->state = ACL__STREAM_READY;
  acl__sched_push(s);
  return drop;
}

int acl__stream_abort(acl__stream *s, int code, const char *by) {
  pthread_mutex_lock(&s->lock);
  uint64_t unfinished = s->submitted - s->completed;
  atomic_store(&s->drop_upto, s->submitted);
  atomic_store(&s->keep_seq, 0);
  atomic_store(&s->cut_code, code);
  atomic_store(&s->cut_upto, s->submitted);
  atomic_store(&s->stopped, 0);
  s->abort_gen++;
  if (unfinished > 0 && s->error == 0) {
    s->error = code;
    snprintf(s->error_msg, sizeof(s->error_msg),
             "stream %d was aborted by %s: its %llu unfinished task(s) were discarded or cut short", s->id, by,
             (unsigned long long)unfinished);
  }
  acl__task *drop = acl__stream_requeue_locked(s);
  if (s->waiters)
    pthread_cond_broadcast(&s->idle_cond);
  pthread_mutex_unlock(&s->lock);
  acl__tasks_discard(drop);
  return 0;
}

void acl__stream_set_priority(acl__stream *s, uint32_t priority) {
  pthread_mutex_lock(&s->lock);
  if (s->state == ACL__STREAM_READY && acl__stream_unlist(s)) {
    s->priority = priority; /* its ready list changes with it */
    acl__sched_push(s);
  } else {
    s->priority = priority;
  }
  pthread_mutex_unlock(&s->lock);
}

/* ---- destruction ----------------------------------------------------------------- */

void acl__stream_settle_locked(acl__stream *s) {
  if (!s->orphan || s->dead || s->state != ACL__STREAM_IDLE || s->head != NULL || s->users > 0 ||
      atomic_load(&s->sched_refs) > 0)
    return;
  s->dead = 1;
  /* what the stream held on the device goes back now; only the struct waits */
  acl__idpool_give(s->dev->stream_ids, s->id);
  atomic_fetch_sub(&s->dev->streams_live, 1);
  if (s->waiters)
    pthread_cond_broadcast(&s->idle_cond);
}

static void acl__stream_free(acl__stream *s) {
  pthread_cond_destroy(&s->idle_cond);
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* Frees the context's dead orphans; with wait_ms > 0 waits that long for
 * the others to die (the context ends).  Those still running then are
 * logged and left (their memory is kept, never freed under a task). */
static void acl__stream_reap(acl__context *c, int32_t wait_ms, const char *api) {
  uint64_t end = acl__now_ns() + (uint64_t)(wait_ms > 0 ? wait_ms : 0) * 1000000u;
  for (;;) {
    acl__stream *dead = NULL;
    int left = 0;
    pthread_mutex_lock(&c->lock);
    for (acl__stream *s = c->orphans, *next; s != NULL; s = next) {
      next = s->ctx_next;
      pthread_mutex_lock(&s->lock);
      if (wait_ms > 0 && s->state == ACL__STREAM_PARKED) {
        /* The context ends and the head task of this stream, kept by
         * aclrtDestroyStreamForce, waits for a value or an event that
         * nothing will bring now: it goes, and stops watching memory that
         * is about to be unmapped. */
        atomic_store(&s->keep_seq, 0);
        atomic_store(&s->drop_upto, s->submitted);
        acl__task *drop = acl__stream_requeue_locked(s);
        acl__stream_settle_locked(s);
        pthread_mutex_unlock(&s->lock);
        acl__tasks_discard(drop);
        pthread_mutex_lock(&s->lock);
      }
      acl__stream_settle_locked(s);
      int is_dead = s->dead;
      pthread_mutex_unlock(&s->lock);
      if (!is_dead) {
        left++;
        continue;
      }
      if (s->ctx_prev != NULL)
        s->ctx_prev->ctx_next = s->ctx_next;
      else
        c->orphans = s->ctx_next;
      if (s->ctx_next != NULL)
        s->ctx_next->ctx_prev = s->ctx_prev;
      s->ctx_next = dead;
      dead = s;
    }
    pthread_mutex_unlock(&c->lock);
    for (acl__stream *s = dead, *next; s != NULL; s = next) {
      next = s->ctx_next;
      acl__stream_free(s);
    }
    if (left == 0 || wait_ms <= 0)
      return;
    if (acl__now_ns() >= end) {
      ACL__LOGE(ACL__MOD_RUNTIME,
                "%s: %d stream(s) destroyed by force still run a task after %d ms; their memory is kept", api,
                left, (int)wait_ms);
      pthread_mutex_lock(&c->lock);
      c->orphans = NULL; /* the context goes; the orphans never touch it again */
      pthread_mutex_unlock(&c->lock);
      return;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

void acl__stream_reap_orphans(acl__context *c) { acl__stream_reap(c, 0, NULL); }

void acl__stream_destroy(acl__stream *s, int force, const char *api) {
  acl__statecb_stream(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
  if (s->is_default)
    acl__stream_reap(s->ctx, ACL__TEARDOWN_WAIT_MS, api); /* the context ends: its orphans go first */
  acl__handle_unregister(s);
  acl__callback_stream_gone(s);
  acl__graph_stream_gone(s); /* a capture still active on it is discarded (graph.c) */
  pthread_mutex_lock(&s->lock);
  s->destroying = 1;
  /* A stopped stream never drains, so it is destroyed by force, as the
   * vendor's runtime does for a stream that is not in normal status. */
  if (atomic_load(&s->stopped))
    force = 1;
  if (!force) {
    s->users++;
    int w = acl__stream_wait_locked(s, s->submitted, ACL__TEARDOWN_WAIT_MS);
    s->users--;
    if (w != 0 && s->head != NULL)
      ACL__LOGE(ACL__MOD_RUNTIME, "%s: stream %d still had work after %d ms; tasks not started were discarded",
                api, s->id, ACL__TEARDOWN_WAIT_MS);
  }
  /* Everything that has not started is dropped, except, when destroyed by
   * force, the head task of a stream waiting for an executor while one is
   * idle: on a card that task would already be running. */
  if (force && s->state == ACL__STREAM_READY && s->head != NULL && acl__sched_has_idle(s->dev))
    atomic_store(&s->keep_seq, s->head->seq);
  atomic_store(&s->drop_upto, s->submitted);
  atomic_store(&s->stopped, 0);
  acl__task *drop = acl__stream_requeue_locked(s);
  if (s->state == ACL__STREAM_IDLE)
    s->completed = s->submitted;
  s->orphan = 1;
  acl__stream_settle_locked(s);
  if (!force) {
    /* teardown wants the stream gone: wait (bounded) for the task that runs */
    struct timespec deadline;
    acl__deadline(&deadline, ACL__TEARDOWN_WAIT_MS);
    while (!s->dead) {
      s->waiters++;
      int r = pthread_cond_timedwait(&s->idle_cond, &s->lock, &deadline);
      s->waiters--;
      acl__stream_settle_locked(s);
      if (r == ETIMEDOUT)
        break;
    }
  }
  int dead = s->dead;
  int id = s->id;
  pthread_mutex_unlock(&s->lock);
  acl__tasks_discard(drop); /* before the stream may go: a task's release may look at it */
  if (dead) {
    acl__stream_free(s);
    return;
  }
  if (!force)
    ACL__LOGE(ACL__MOD_RUNTIME, "%s: stream %d has a task that did not finish; the stream is freed when it ends",
              api, id);
  /* freed later by its context (acl__stream_reap) */
  acl__context *c = s->ctx;
  pthread_mutex_lock(&c->lock);
  s->ctx_prev = NULL;
  s->ctx_next = c->orphans;
  if (c->orphans != NULL)
    c->orphans->ctx_prev = s;
  c->orphans = s;
  pthread_mutex_unlock(&c->lock);
}

int acl__sync_precheck(const char *api, int32_t timeout_ms) {
  if (timeout_ms < -1)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "timeout %d ms is invalid: use -1 to wait forever, or 0 and above", (int)timeout_ms);
  return acl__callback_in_progress() ? acl__callback_forbid(api) : 0;
}

/* ---- resolving arguments ----------------------------------------------------- */

acl__stream *acl__stream_resolve(const char *api, aclrtStream stream, int *rc) {
  acl__context *c = acl__context_current(api, rc);
  if (c == NULL)
    return NULL;
  if (stream == NULL)
    return c->default_stream;
  if (!acl__handle_valid(stream, ACL__H_STREAM)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "stream %p is not a live stream (destroyed already, or never created)", stream);
    return NULL;
  }
  acl__stream *s = stream;
  if (s->ctx != c) {
    *rc = acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                    "stream %d belongs to a context of device %d, not to this thread's current context (device "
                    "%d). Remedy: aclrtSetCurrentContext to the stream's context first",
                    s->id, (int)s->ctx->dev->id, (int)c->dev->id);
    return NULL;
  }
  return s;
}
