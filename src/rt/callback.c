/*
 * callback.c - host callbacks on streams: the registry of subscribed report
 * threads and their queues (aclrtSubscribeReport, aclrtProcessReport,
 * aclrtUnSubscribeReport), callback tasks (aclrtLaunchCallback), host
 * function tasks (aclrtLaunchHostFunc), and the per-thread "inside a
 * callback" flag behind acl__callback_forbid.
 *
 * How a callback travels:
 *   aclrtLaunchCallback  allocates a cb_item and submits a cb_task to the
 *                        stream (the stream must have a report thread);
 *   executor             runs the task in stream order: it appends the item
 *                        to the report queue of the stream's thread; a
 *                        NO_BLOCK task then finishes, a BLOCK task returns
 *                        ACL__TASK_PARK, holding the rest of the stream;
 *   aclrtProcessReport   (the subscribed thread) takes one item, runs
 *                        fn(userData) with no lock held, marks it done and,
 *                        for BLOCK, calls acl__stream_unpark; the task, run
 *                        again, sees "done" and finishes.
 * An item is shared by its task and the queue (then the thread running it),
 * so it is reference counted; whoever drops the last reference frees it.
 *
 * Lock order (see callback.h): context -> cb_lock -> stream lock.  cb_lock
 * guards the registry, every report queue, every item's state and links,
 * and the subscribed threads' wait counts.  Each stream's report_thread is
 * written with both cb_lock and the stream's lock held, so either lock is
 * enough to read it.  acl__stream_unpark is called with cb_lock held (it
 * takes the stream's lock and the scheduler's): a stream is freed only after
 * its tasks are released, and cb_task_release clears the item's stream under
 * cb_lock, so the check "stream still set" and the wake cannot straddle the
 * free.
 */
#include "rt/callback.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/log.h"

/* ---- state -------------------------------------------------------------- */

enum {
  CB_ITEM_NEW = 0,   /* launched, its task has not run yet */
  CB_ITEM_QUEUED,    /* in a report queue */
  CB_ITEM_RUNNING,   /* a thread runs fn inside aclrtProcessReport */
  CB_ITEM_DONE,      /* fn returned */
  CB_ITEM_CANCELLED  /* dropped: unsubscribed, stream gone or task discarded */
};

typedef struct cb_thread cb_thread;
typedef struct cb_item cb_item;

struct cb_item {
  cb_item *next;         /* report queue link (cb_lock) */
  aclrtCallback fn;
  void *user;
  int block;
  int32_t stream_id;     /* for messages */
  acl__stream *stream;   /* the stream to wake after a BLOCK callback; NULL once the
                            stream is gone or its task released (cb_lock) */
  cb_thread *owner;      /* the queue it is in while QUEUED (cb_lock) */
  int state;             /* CB_ITEM_* (cb_lock) */
  int refs;              /* the task's, plus one while queued or running (cb_lock) */
};

/* One subscribed thread. */
struct cb_thread {
  uint64_t id;           /* the pthread_t value given to aclrtSubscribeReport */
  acl__device *dev;      /* the device all its streams belong to */
  int nstreams;          /* streams subscribed to it (cb_lock) */
  int waiters;           /* calls of aclrtProcessReport waiting on it (cb_lock) */
  int gone;              /* removed from the registry; freed by the last waiter (cb_lock) */
  cb_item *head, *tail;  /* posted callbacks not taken yet (cb_lock) */
  pthread_cond_t cond;   /* signalled on a post and when it goes */
};

/* A callback task on a stream. */
typedef struct cb_task {
  acl__task base;        /* first: the runtime sees an acl__task */
  cb_item *item;
  int posted;            /* the first run has happened (only the executor touches it) */
} cb_task;

/* A host function task on a stream. */
typedef struct hf_task {
  acl__task base;
  aclrtHostFunc fn;
  void *args;
} hf_task;

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static cb_thread *cb_threads[ACL__CALLBACK_MAX_THREADS]; /* cb_lock */
static int cb_nthreads;                                  /* cb_lock */

/* What the calling thread is running right now: nothing, a callback or a
 * host function, and on which stream. */
enum { CB_IN_NONE = 0, CB_IN_CALLBACK, CB_IN_HOST_FUNC };
static _Thread_local int cb_tls_in;
static _Thread_local int32_t cb_tls_stream;

/* ---- helpers (cb_lock held) ---------------------------------------------- */

static cb_thread *cb_thread_find(uint64_t id) {
  for (int i = 0; i < cb_nthreads; i++)
    if (cb_threads[i]->id == id)
      return cb_threads[i];
  return NULL;
}

static void cb_item_unref(cb_item *it) {
  if (--it->refs == 0)
    free(it);
}

static void cb_queue_unlink(cb_thread *th, cb_item *it) {
  cb_item *prev = NULL;
  for (cb_item *p = th->head; p != NULL; prev = p, p = p->next) {
    if (p != it)
      continue;
    if (prev != NULL)
      prev->next = p->next;
    else
      th->head = p->next;
    if (th->tail == p)
      th->tail = prev;
    p->next = NULL;
    p->owner = NULL;
    return;
  }
}

/*
 * Takes every queued callback of stream s out of th's queue.  NO_BLOCK ones
 * are dropped; BLOCK ones are cancelled and their stream woken, so the parked
 * task finishes (with ACL_ERROR_RT_STREAM_NO_CB_REG) instead of holding the
 * stream for ever.  Counts both kinds.
 */
static void cb_drop_stream_items(cb_thread *th, const acl__stream *s, int *dropped, int *released) {
  cb_item *p = th->head;
  while (p != NULL) {
    cb_item *next = p->next;
    if (p->stream == s) {
      cb_queue_unlink(th, p);
      p->state = CB_ITEM_CANCELLED;
      if (p->block) {
        (*released)++;
        acl__stream_unpark(p->stream);
      } else {
        (*dropped)++;
      }
      cb_item_unref(p); /* the queue's reference */
    }
    p = next;
  }
}

/* Removes a thread whose last stream went; a waiting aclrtProcessReport
 * wakes, sees `gone` and frees it when it is the last waiter. */
static void cb_thread_remove(cb_thread *th) {
  for (int i = 0; i < cb_nthreads; i++) {
    if (cb_threads[i] == th) {
      cb_threads[i] = cb_threads[--cb_nthreads];
      cb_threads[cb_nthreads] = NULL;
      break;
    }
  }
  th->gone = 1;
  /* The queue is empty: each stream's items left with its subscription. */
  pthread_cond_broadcast(&th->cond);
  if (th->waiters == 0) {
    pthread_cond_destroy(&th->cond);
    free(th);
  }
}

static cb_thread *cb_thread_new(uint64_t id, acl__device *dev) {
  cb_thread *th = calloc(1, sizeof(*th));
  if (th == NULL)
    return NULL;
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  int rc = pthread_cond_init(&th->cond, &attr);
  pthread_condattr_destroy(&attr);
  if (rc != 0) {
    free(th);
    return NULL;
  }
  th->id = id;
  th->dev = dev;
  return th;
}

/* Queues a task; on failure (the stream is being destroyed) the runtime has
 * released it, and the failure is recorded here. */
static int cb_submit(const char *api, acl__stream *s, acl__task *t) {
  int32_t id = s->id;
  int rc = acl__stream_submit(s, t);
  if (rc != 0)
    rc = acl__fail(api, rc, __FILE__, __LINE__,
                   "stream %d is being destroyed; nothing more can be launched on it", (int)id);
  return rc;
}

/* ---- the guard ------------------------------------------------------------ */

int acl__callback_in_progress(void) { return cb_tls_in != CB_IN_NONE; }

int acl__callback_forbid(const char *api) {
  if (cb_tls_in == CB_IN_NONE)
    return 0;
  /* ACL_ERROR_RT_FEATURE_NOT_SUPPORT: the arguments are fine (107000 would
   * send the user looking at them); the call is one the runtime does not
   * support in this situation, which is what 207000 says, and aclrt* calls
   * pass runtime codes through.  The point is a clear error instead of a
   * thread that waits for itself. */
  const char *in = cb_tls_in == CB_IN_HOST_FUNC ? "a host function (aclrtLaunchHostFunc)"
                                                : "a host callback (aclrtLaunchCallback)";
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "%s was called from inside %s of stream %d, which would wait for the callback itself; "
                   "callbacks and host functions must not synchronise, destroy streams or reset devices. "
                   "Remedy: make this call from another thread after the callback has returned (e.g. the "
                   "thread that launched the work), or signal that thread from the callback",
                   api, in, (int)cb_tls_stream);
}

/* ---- subscription ----------------------------------------------------------- */

int acl__callback_subscribe(const char *api, uint64_t thread_id, acl__stream *s) {
  acl__device *dev = s->ctx->dev;
  int rc = 0;
  pthread_mutex_lock(&cb_lock);
  pthread_mutex_lock(&s->lock);
  uint64_t cur = s->report_thread;
  pthread_mutex_unlock(&s->lock);
  cb_thread *th = cb_thread_find(thread_id);
  /* A second subscription of a stream returns 107011, the runtime's "error
   * subscribe stream": aclrt* calls return runtime codes unchanged, the
   * vendor's error list gives 107011 for "subscribed twice", and the ACL
   * codes of this family (100034..100036) are deprecated in favour of the
   * 107xxx ones; ACL_ERROR_REPEAT_SUBSCRIBE (100033) is not used. */
  if (cur == thread_id) {
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d is already subscribed to thread %" PRIu64
                   ". Remedy: subscribe a stream once; call aclrtUnSubscribeReport before subscribing it again",
                   (int)s->id, thread_id);
    goto out;
  }
  if (cur != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d is already subscribed to another thread (%" PRIu64 "); a stream has one "
                   "callback thread. Remedy: unsubscribe it from that thread first (aclrtUnSubscribeReport), "
                   "or launch the callbacks for thread %" PRIu64 " on another stream",
                   (int)s->id, cur, thread_id);
    goto out;
  }
  if (th != NULL && th->dev != dev) {
    rc = acl__fail(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                   "thread %" PRIu64 " already serves streams of device %d and stream %d belongs to device "
                   "%d; a callback thread serves one device. Remedy: use one processing thread per device",
                   thread_id, (int)th->dev->id, (int)s->id, (int)dev->id);
    goto out;
  }
  if (th == NULL) {
    if (cb_nthreads >= ACL__CALLBACK_MAX_THREADS) {
      rc = acl__fail(api, ACL_ERROR_RT_OVER_LIMIT, __FILE__, __LINE__,
                     "%d threads are subscribed already, the most allowed; thread %" PRIu64
                     " would be one more. Remedy: let one thread serve several streams of a device (32 "
                     "threads or fewer are recommended), or unsubscribe threads you no longer use",
                     cb_nthreads, thread_id);
      goto out;
    }
    th = cb_thread_new(thread_id, dev);
    if (th == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory for the report queue of thread %" PRIu64, thread_id);
      goto out;
    }
    cb_threads[cb_nthreads++] = th;
  }
  th->nstreams++;
  pthread_mutex_lock(&s->lock);
  s->report_thread = thread_id;
  pthread_mutex_unlock(&s->lock);
  ACL__LOGI(ACL__MOD_RUNTIME, "stream %d of device %d subscribed to callback thread %" PRIu64 " (%d stream(s))",
            (int)s->id, (int)dev->id, thread_id, th->nstreams);
out:
  pthread_mutex_unlock(&cb_lock);
  return rc;
}

int acl__callback_unsubscribe(const char *api, uint64_t thread_id, acl__stream *s) {
  int rc = 0, dropped = 0, released = 0;
  pthread_mutex_lock(&cb_lock);
  pthread_mutex_lock(&s->lock);
  uint64_t cur = s->report_thread;
  if (cur == thread_id && cur != 0)
    s->report_thread = 0;
  pthread_mutex_unlock(&s->lock);
  if (cur == 0) {
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d is not subscribed to any thread. Remedy: unsubscribe only streams subscribed "
                   "with aclrtSubscribeReport, once each",
                   (int)s->id);
    goto out;
  }
  if (cur != thread_id) {
    rc = acl__fail(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d is subscribed to thread %" PRIu64 ", not to thread %" PRIu64
                   ". Remedy: pass the thread id the stream was subscribed with",
                   (int)s->id, cur, thread_id);
    goto out;
  }
  cb_thread *th = cb_thread_find(thread_id);
  if (th != NULL) {
    cb_drop_stream_items(th, s, &dropped, &released);
    if (--th->nstreams == 0)
      cb_thread_remove(th);
  }
  ACL__LOGI(ACL__MOD_RUNTIME, "stream %d unsubscribed from callback thread %" PRIu64, (int)s->id, thread_id);
out:
  pthread_mutex_unlock(&cb_lock);
  if (dropped != 0 || released != 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "%s: stream %d still had %d NO_BLOCK callback(s) waiting for thread %" PRIu64
              " (dropped, never run) and %d BLOCK callback(s) (released; the stream reports "
              "ACL_ERROR_RT_STREAM_NO_CB_REG at its next synchronisation); synchronise the stream before "
              "unsubscribing",
              api, (int)s->id, dropped, thread_id, released);
  return rc;
}

void acl__callback_stream_gone(acl__stream *s) {
  int dropped = 0, released = 0;
  pthread_mutex_lock(&cb_lock);
  pthread_mutex_lock(&s->lock);
  uint64_t cur = s->report_thread;
  s->report_thread = 0;
  pthread_mutex_unlock(&s->lock);
  for (int i = 0; i < cb_nthreads; i++)
    cb_drop_stream_items(cb_threads[i], s, &dropped, &released);
  /* A BLOCK callback of s that a thread runs now still wakes s when it
   * returns, so a destroy that waits for the stream's work sees it finish.
   * If the runtime gives up waiting, it releases the parked task, and
   * cb_task_release stops the wake before the stream is freed. */
  if (cur != 0) {
    cb_thread *th = cb_thread_find(cur);
    if (th != NULL && --th->nstreams == 0)
      cb_thread_remove(th);
  }
  pthread_mutex_unlock(&cb_lock);
  if (dropped != 0 || released != 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "stream %d went away with %d NO_BLOCK and %d BLOCK callback(s) not yet run by thread %" PRIu64
              "; they were dropped",
              (int)s->id, dropped, released, cur);
}

/* ---- aclrtLaunchCallback ---------------------------------------------------- */

static int cb_task_run(acl__task *t) {
  cb_task *ct = (cb_task *)t;
  cb_item *it = ct->item;
  acl__stream *s = t->stream;
  int rc = 0;
  pthread_mutex_lock(&cb_lock);
  if (ct->posted) {
    /* A BLOCK task run again after the wake. */
    if (it->state == CB_ITEM_DONE) {
      rc = 0;
    } else if (it->state == CB_ITEM_CANCELLED) {
      rc = ACL_ERROR_RT_STREAM_NO_CB_REG;
      /* what names the task in the stream's error (the executor reads it
       * on this thread after run returns) */
      snprintf(t->what, sizeof(t->what), "BLOCK callback dropped: stream unsubscribed before it ran");
      ACL__LOGW(ACL__MOD_RUNTIME,
                "BLOCK callback on stream %d was released without running: the stream was unsubscribed "
                "(or went away) while it waited for its thread",
                (int)s->id);
    } else {
      rc = ACL__TASK_PARK; /* woken before the callback ran: keep waiting */
    }
    goto out;
  }
  ct->posted = 1;
  uint64_t id = s->report_thread; /* read under cb_lock: see the top of the file */
  cb_thread *th = id != 0 ? cb_thread_find(id) : NULL;
  if (th == NULL) {
    it->state = CB_ITEM_CANCELLED;
    ACL__LOGW(ACL__MOD_RUNTIME,
              "%s callback on stream %d dropped: the stream was unsubscribed before the callback's turn "
              "came%s",
              it->block ? "BLOCK" : "NO_BLOCK", (int)s->id,
              it->block ? "; the stream reports ACL_ERROR_RT_STREAM_NO_CB_REG" : "");
    rc = it->block ? ACL_ERROR_RT_STREAM_NO_CB_REG : 0;
    if (it->block)
      snprintf(t->what, sizeof(t->what), "BLOCK callback dropped: stream unsubscribed before it ran");
    goto out;
  }
  it->state = CB_ITEM_QUEUED;
  it->stream = s;
  it->owner = th;
  it->refs++; /* the queue's */
  if (th->tail != NULL)
    th->tail->next = it;
  else
    th->head = it;
  th->tail = it;
  pthread_cond_signal(&th->cond);
  rc = it->block ? ACL__TASK_PARK : 0;
out:
  pthread_mutex_unlock(&cb_lock);
  return rc;
}

static void cb_task_release(acl__task *t) {
  cb_task *ct = (cb_task *)t;
  cb_item *it = ct->item;
  pthread_mutex_lock(&cb_lock);
  if (it->block) {
    /* Discarded while its callback waits in a queue (stream destroyed by
     * force): nothing will wait for the callback any more. */
    if (it->state == CB_ITEM_QUEUED && it->owner != NULL) {
      cb_queue_unlink(it->owner, it);
      it->state = CB_ITEM_CANCELLED;
      it->refs--; /* the queue's; the task's is dropped below */
    }
    /* Running now: the stream may be freed after this, so no wake. */
    it->stream = NULL;
  }
  cb_item_unref(it); /* the task's */
  pthread_mutex_unlock(&cb_lock);
  free(ct);
}

int acl__callback_launch(const char *api, acl__stream *s, aclrtCallback fn, void *user, int block) {
  pthread_mutex_lock(&s->lock);
  uint64_t id = s->report_thread;
  pthread_mutex_unlock(&s->lock);
  if (id == 0)
    return acl__fail(api, ACL_ERROR_RT_STREAM_NO_CB_REG, __FILE__, __LINE__,
                     "stream %d has no callback thread. Remedy: start a thread that loops on "
                     "aclrtProcessReport and pass its pthread_self() value and this stream to "
                     "aclrtSubscribeReport first",
                     (int)s->id);
  cb_item *it = calloc(1, sizeof(*it));
  cb_task *ct = calloc(1, sizeof(*ct));
  if (it == NULL || ct == NULL) {
    free(it);
    free(ct);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a callback task");
  }
  it->fn = fn;
  it->user = user;
  it->block = block;
  it->stream_id = s->id;
  it->state = CB_ITEM_NEW;
  it->refs = 1; /* the task's */
  ct->item = it;
  ct->base.run = cb_task_run;
  ct->base.release = cb_task_release;
  snprintf(ct->base.what, sizeof(ct->base.what), "host callback (%s)", block ? "BLOCK" : "NO_BLOCK");
  return cb_submit(api, s, &ct->base);
}

/* ---- aclrtProcessReport ------------------------------------------------------- */

int acl__callback_process(const char *api, int32_t timeout_ms) {
  if (cb_tls_in != CB_IN_NONE)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "aclrtProcessReport was called from inside %s of stream %d; callbacks run one at a "
                     "time, and a nested call could wait for a callback that this one holds back. Remedy: "
                     "return from the callback; the processing loop calls aclrtProcessReport again",
                     cb_tls_in == CB_IN_HOST_FUNC ? "a host function" : "a host callback", (int)cb_tls_stream);
  uint64_t self = (uint64_t)pthread_self();
  struct timespec deadline;
  if (timeout_ms > 0) {
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
  }

  pthread_mutex_lock(&cb_lock);
  cb_thread *th = cb_thread_find(self);
  if (th == NULL) {
    pthread_mutex_unlock(&cb_lock);
    /* The vendor's report loop starts before aclrtSubscribeReport and spins
     * here until then: polled, not logged as an error. */
    return acl__fail_polled(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                     "the calling thread (%" PRIu64 ") is not subscribed to any stream. Remedy: pass this "
                     "thread's pthread_self() value to aclrtSubscribeReport before it calls aclrtProcessReport, "
                     "and stop calling it after the last aclrtUnSubscribeReport",
                     self);
  }
  th->waiters++;
  int timed_out = 0;
  while (th->head == NULL && !th->gone && !timed_out) {
    if (timeout_ms < 0)
      pthread_cond_wait(&th->cond, &cb_lock);
    else if (pthread_cond_timedwait(&th->cond, &cb_lock, &deadline) == ETIMEDOUT)
      timed_out = 1;
  }
  cb_item *it = th->head;
  if (it != NULL) {
    th->head = it->next;
    if (th->head == NULL)
      th->tail = NULL;
    it->next = NULL;
    it->owner = NULL;
    it->state = CB_ITEM_RUNNING;
  }
  int gone = th->gone;
  if (--th->waiters == 0 && gone) {
    pthread_cond_destroy(&th->cond);
    free(th);
  }
  pthread_mutex_unlock(&cb_lock);

  if (it == NULL) {
    if (gone)
      return acl__fail_polled(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                       "the calling thread (%" PRIu64 ") was unsubscribed from its last stream while it "
                       "waited. Remedy: stop the processing loop after aclrtUnSubscribeReport",
                       self);
    return acl__fail_polled(api, ACL_ERROR_RT_REPORT_TIMEOUT, __FILE__, __LINE__,
                     "no callback arrived within %d ms. Remedy: normal when no callbacks are pending: keep "
                     "looping, or pass a longer timeout (-1 waits without a bound)",
                     (int)timeout_ms);
  }

  cb_tls_in = CB_IN_CALLBACK;
  cb_tls_stream = it->stream_id;
  it->fn(it->user);
  cb_tls_in = CB_IN_NONE;

  pthread_mutex_lock(&cb_lock);
  it->state = CB_ITEM_DONE;
  if (it->block && it->stream != NULL)
    acl__stream_unpark(it->stream);
  cb_item_unref(it); /* the queue's, carried by this thread */
  pthread_mutex_unlock(&cb_lock);
  return 0;
}

/* ---- aclrtLaunchHostFunc -------------------------------------------------------- */

static int hf_task_run(acl__task *t) {
  hf_task *h = (hf_task *)t;
  acl__device *d = t->stream->ctx->dev;
  int saved_in = cb_tls_in;
  int32_t saved_stream = cb_tls_stream;
  /* Host code cannot touch device memory: access is off while fn runs. */
  acl__device_access_end(d);
  cb_tls_in = CB_IN_HOST_FUNC;
  cb_tls_stream = t->stream->id;
  h->fn(h->args);
  cb_tls_in = saved_in;
  cb_tls_stream = saved_stream;
  acl__device_access_begin(d);
  return 0;
}

int acl__callback_launch_host_func(const char *api, acl__stream *s, aclrtHostFunc fn, void *args) {
  pthread_mutex_lock(&s->lock);
  uint64_t id = s->report_thread;
  pthread_mutex_unlock(&s->lock);
  if (id != 0)
    return acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                     "stream %d is subscribed to callback thread %" PRIu64 " (aclrtSubscribeReport); host "
                     "functions and the subscribe/launch-callback family must not be mixed on one stream. "
                     "Remedy: launch host functions on another stream, or unsubscribe this one first",
                     (int)s->id, id);
  hf_task *h = calloc(1, sizeof(*h));
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a host function task");
  h->fn = fn;
  h->args = args;
  h->base.run = hf_task_run;
  h->base.release = NULL; /* free() */
  h->base.executor_only = 1; /* host code runs on a runtime thread, never in a synchronising caller */
  snprintf(h->base.what, sizeof(h->base.what), "host function");
  return cb_submit(api, s, &h->base);
}

/* ---- fork ---------------------------------------------------------------------- */

void acl__callback_atfork_prepare(void) { pthread_mutex_lock(&cb_lock); }

void acl__callback_atfork_parent(void) { pthread_mutex_unlock(&cb_lock); }

void acl__callback_atfork_child(void) {
  /* The subscribed threads do not exist in the child; their records (and
   * condition variables another thread may have been waiting on) are
   * forgotten, not freed. */
  pthread_mutex_init(&cb_lock, NULL);
  for (int i = 0; i < cb_nthreads; i++)
    cb_threads[i] = NULL;
  cb_nthreads = 0;
  cb_tls_in = CB_IN_NONE;
}
