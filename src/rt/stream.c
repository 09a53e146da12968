/*
 * stream.c - streams: creation, the default stream, synchronisation,
 * destruction.  How tasks run is executor.c's business.
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

/* How long teardown (reset, aclFinalize, destroy) waits for a stream's work
 * before it discards what has not started. */
#define ACL__TEARDOWN_WAIT_MS 10000

static atomic_int acl__stream_ids;

acl__stream *acl__stream_new(acl__context *c, uint32_t priority, uint32_t flags, int is_default) {
  acl__stream *s = calloc(1, sizeof(*s));
  if (s == NULL)
    return NULL;
  s->ctx = c;
  s->priority = priority;
  s->flags = flags;
  s->is_default = is_default;
  s->id = atomic_fetch_add(&acl__stream_ids, 1);
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

/* Stream lock held.  Waits until `target` has completed; 0, or ETIMEDOUT. */
static int acl__stream_wait_locked(acl__stream *s, uint64_t target, int32_t timeout_ms) {
  struct timespec deadline;
  if (timeout_ms > 0)
    acl__deadline(&deadline, timeout_ms);
  while (s->completed < target) {
    if (acl__stream_help(s, target))
      continue;
    if (timeout_ms == 0)
      return ETIMEDOUT;
    s->waiters++;
    int w = timeout_ms < 0 ? pthread_cond_wait(&s->idle_cond, &s->lock)
                           : pthread_cond_timedwait(&s->idle_cond, &s->lock, &deadline);
    s->waiters--;
    if (s->destroying && s->waiters == 0)
      pthread_cond_broadcast(&s->idle_cond); /* the destroyer waits for the last waiter to leave */
    if (w == ETIMEDOUT && s->completed < target)
      return ETIMEDOUT;
  }
  return 0;
}

int acl__stream_sync_api(const char *api, acl__stream *s, int32_t timeout_ms) {
  pthread_mutex_lock(&s->lock);
  uint64_t target = s->submitted;
  int w = acl__stream_wait_locked(s, target, timeout_ms);
  int err = s->error, id = s->id;
  uint64_t completed = s->completed;
  char msg[sizeof(s->error_msg)];
  if (w == 0 && err != 0) {
    memcpy(msg, s->error_msg, sizeof(msg));
    s->error = 0;
    s->error_msg[0] = '\0';
  }
  pthread_mutex_unlock(&s->lock);
  /* s may be destroyed by another thread from here on: only copies are used */
  if (w != 0)
    return acl__fail(api, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, __FILE__, __LINE__,
                     "stream %d still had work after %d ms (task %llu of %llu finished)", id, (int)timeout_ms,
                     (unsigned long long)completed, (unsigned long long)target);
  if (err != 0)
    return acl__fail(api, err, __FILE__, __LINE__, "%s; the error is reported once, at this synchronisation",
                     msg);
  return 0;
}

/* Discards the queued tasks that have not started (stream lock held);
 * returns them as a list for release outside the lock. */
static acl__task *acl__stream_take_queued_locked(acl__stream *s) {
  acl__task *keep = NULL, *list;
  if (s->state == ACL__STREAM_RUNNING) {
    /* the batch being run stays (its runner holds it without the lock) */
    acl__task *end = s->batch_last ? s->batch_last : s->head;
    keep = s->head;
    list = end ? end->next : NULL;
    if (end)
      end->next = NULL;
    s->tail = end;
  } else {
    list = s->head;
    s->tail = NULL;
    if (s->state == ACL__STREAM_READY)
      acl__stream_unlist(s);
    s->state = ACL__STREAM_IDLE;
  }
  s->head = keep;
  uint64_t last = s->completed;
  for (acl__task *t = list; t; t = t->next)
    last = t->seq;
  if (keep == NULL)
    s->completed = last;
  return list;
}

void acl__stream_destroy(acl__stream *s, int force, const char *api) {
  acl__handle_unregister(s);
  acl__callback_stream_gone(s);
  pthread_mutex_lock(&s->lock);
  s->destroying = 1;
  if (force)
    atomic_store(&s->discard, 1);
  uint64_t target = s->submitted;
  int w = force ? ETIMEDOUT : acl__stream_wait_locked(s, target, ACL__TEARDOWN_WAIT_MS);
  /* the last task has completed, but its executor may not have let go yet */
  while (w == 0 && s->state == ACL__STREAM_RUNNING) {
    s->waiters++;
    pthread_cond_wait(&s->idle_cond, &s->lock);
    s->waiters--;
  }
  acl__task *dropped = NULL;
  if (w != 0) {
    dropped = acl__stream_take_queued_locked(s);
    if (!force && dropped != NULL)
      ACL__LOGE(ACL__MOD_RUNTIME, "%s: stream %d still had work after %d ms; tasks not started were discarded",
                api, s->id, ACL__TEARDOWN_WAIT_MS);
    /* a task that is running (or parked) must end before the memory goes */
    struct timespec deadline;
    acl__deadline(&deadline, ACL__TEARDOWN_WAIT_MS);
    while (s->state == ACL__STREAM_RUNNING) {
      s->waiters++;
      int r = pthread_cond_timedwait(&s->idle_cond, &s->lock, &deadline);
      s->waiters--;
      if (r == ETIMEDOUT)
        break;
    }
    if (s->state == ACL__STREAM_PARKED) {
      acl__task *t = s->head;
      s->head = s->tail = NULL;
      s->state = ACL__STREAM_IDLE;
      if (t != NULL) {
        t->next = dropped;
        dropped = t;
      }
    }
  }
  int stuck = s->state == ACL__STREAM_RUNNING;
  /* threads still inside a synchronisation of this stream leave first, and
   * an executor that took it off the ready list lets go of it */
  while (!stuck && (s->waiters > 0 || atomic_load(&s->sched_refs) > 0))
    pthread_cond_wait(&s->idle_cond, &s->lock);
  pthread_mutex_unlock(&s->lock);
  for (acl__task *t = dropped, *next; t != NULL; t = next) {
    next = t->next;
    t->discarded = 1;
    if (t->release)
      t->release(t);
    else
      free(t);
  }
  if (stuck) {
    /* A task never returned (a kernel that loops forever): the stream's
     * memory is leaked on purpose rather than freed under it. */
    ACL__LOGE(ACL__MOD_RUNTIME, "%s: stream %d has a task that did not finish; its memory is kept", api, s->id);
    return;
  }
  pthread_cond_destroy(&s->idle_cond);
  pthread_mutex_destroy(&s->lock);
  free(s);
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
