/*
 * callback.c - host callbacks on streams: the registry of subscribed
 * threads and their queues - report threads (aclrtSubscribeReport,
 * aclrtProcessReport, aclrtUnSubscribeReport) and host-function threads
 * (aclrtSubscribeHostFunc, aclrtProcessHostFunc, aclrtUnSubscribeHostFunc)
 * - callback tasks (aclrtLaunchCallback), host function tasks
 * (aclrtLaunchHostFunc), and the per-thread "inside a callback" flag behind
 * acl__callback_forbid.
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
 * A host function travels the same way when its stream has a host-function
 * thread (aclrtSubscribeHostFunc): its task posts an item to that thread's
 * queue and parks until aclrtProcessHostFunc has run it.  Without one, or
 * when the subscription goes before the thread took the item, the executor
 * runs the function itself: a host function always runs, exactly once
 * (unless its stream is destroyed by force first).
 *
 * Report threads and host-function threads are separate registrations (one
 * thread may be both); host-function subscriptions are kept here, in
 * cb_hf_subs, not in the stream.
 *
 * Lock order (see callback.h): context -> cb_lock -> stream lock.  cb_lock
 * guards the registry, every queue, every item's state and links, the
 * host-function subscriptions and the subscribed threads' wait counts.  Each stream's report_thread is
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
#include "rt/allocator.h"
#include "rt/exception.h"
#include "rt/label.h"
#include "rt/reslimit.h"
#include "prof/prof.h"

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
  int host_func;         /* an aclrtLaunchHostFunc function, for a host-function thread */
};

/* What a thread is subscribed as (the two registrations are separate). */
enum { CB_KIND_REPORT = 0, CB_KIND_HOST_FUNC = 1 };

/* One subscribed thread. */
struct cb_thread {
  uint64_t id;           /* the pthread_t value given to aclrtSubscribeReport / HostFunc */
  int kind;              /* CB_KIND_* */
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
  cb_item *item;         /* posted to a host-function thread; NULL while not (executor only) */
} hf_task;

/* A stream's host-function thread (aclrtSubscribeHostFunc). */
typedef struct cb_hf_sub {
  const acl__stream *stream;
  uint64_t thread_id;
} cb_hf_sub;

static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
/* both kinds of thread, ACL__CALLBACK_MAX_THREADS of each at most */
static cb_thread *cb_threads[2 * ACL__CALLBACK_MAX_THREADS]; /* cb_lock */
static int cb_nthreads;                                      /* cb_lock */
static int cb_nkind[2];                                      /* cb_lock: threads of each kind */
static cb_hf_sub *cb_hf_subs;                                /* cb_lock */
static int cb_hf_n, cb_hf_cap;                               /* cb_lock */

/* What the calling thread is running right now: nothing, a callback or a
 * host function, and on which stream. */
enum { CB_IN_NONE = 0, CB_IN_CALLBACK, CB_IN_HOST_FUNC, CB_IN_EXCEPTION };
static _Thread_local int cb_tls_in;
static _Thread_local int32_t cb_tls_stream;

/* ---- helpers (cb_lock held) ---------------------------------------------- */

static cb_thread *cb_thread_find(uint64_t id, int kind) {
  for (int i = 0; i < cb_nthreads; i++)
    if (cb_threads[i]->id == id && cb_threads[i]->kind == kind)
      return cb_threads[i];
  return NULL;
}

/* The index of stream s in cb_hf_subs, or -1. */
static int cb_hf_find(const acl__stream *s) {
  for (int i = 0; i < cb_hf_n; i++)
    if (cb_hf_subs[i].stream == s)
      return i;
  return -1;
}

static void cb_hf_remove(int i) { cb_hf_subs[i] = cb_hf_subs[--cb_hf_n]; }

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
 * stream for ever.  Counts both kinds.  Host functions are cancelled and
 * their stream woken too: their task then runs them on the executor.
 */
static void cb_drop_stream_items(cb_thread *th, const acl__stream *s, int *dropped, int *released) {
  cb_item *p = th->head;
  while (p != NULL) {
    cb_item *next = p->next;
    if (p->stream == s) {
      cb_queue_unlink(th, p);
      p->state = CB_ITEM_CANCELLED;
      if (p->host_func) {
        acl__stream_unpark(p->stream); /* its task runs the function on the executor instead */
      } else if (p->block) {
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
      cb_nkind[th->kind]--;
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

static cb_thread *cb_thread_new(uint64_t id, int kind, acl__device *dev) {
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
  th->kind = kind;
  th->dev = dev;
  return th;
}

/* Queues a task; on failure (the stream is being destroyed) the runtime has
 * released it, and the failure is recorded here. */
static int cb_submit(const char *api, acl__stream *s, acl__task *t) {
  int32_t id = s->id;
  int rc = acl__stream_submit(s, t);
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT) /* else a capture refused it and said why (graph.c) */
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
  const char *in = cb_tls_in == CB_IN_HOST_FUNC  ? "a host function (aclrtLaunchHostFunc)"
                   : cb_tls_in == CB_IN_EXCEPTION ? "an exception callback (aclrtExceptionInfoCallbackRegister)"
                                                  : "a host callback (aclrtLaunchCallback)";
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "%s was called from inside %s of stream %d, which would wait for the callback itself; "
                   "callbacks and host functions must not synchronise, destroy streams or reset devices. "
                   "Remedy: make this call from another thread after the callback has returned (e.g. the "
                   "thread that launched the work), or signal that thread from the callback",
                   api, in, (int)cb_tls_stream);
}

acl__cb_guard acl__callback_guard_enter(int32_t stream_id) {
  acl__cb_guard g = {cb_tls_in, cb_tls_stream};
  cb_tls_in = CB_IN_EXCEPTION;
  cb_tls_stream = stream_id;
  return g;
}

void acl__callback_guard_leave(acl__cb_guard g) {
  cb_tls_in = g.in;
  cb_tls_stream = g.stream;
}

/* ---- subscription ----------------------------------------------------------- */

/* Finds or makes the record of a thread about to take one more stream of
 * `dev` (cb_lock held); NULL after recording why not. */
static cb_thread *cb_thread_for(const char *api, uint64_t thread_id, int kind, acl__device *dev, const acl__stream *s,
                                int *rc) {
  cb_thread *th = cb_thread_find(thread_id, kind);
  const char *what = kind == CB_KIND_HOST_FUNC ? "host-function" : "callback";
  if (th != NULL && th->dev != dev) {
    *rc = acl__fail(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                    "thread %" PRIu64 " already serves streams of device %d and stream %d belongs to device "
                    "%d; a %s thread serves one device. Remedy: use one processing thread per device",
                    thread_id, (int)th->dev->id, (int)s->id, (int)dev->id, what);
    return NULL;
  }
  if (th != NULL)
    return th;
  if (cb_nkind[kind] >= ACL__CALLBACK_MAX_THREADS) {
    *rc = acl__fail(api, ACL_ERROR_RT_OVER_LIMIT, __FILE__, __LINE__,
                    "%d %s threads are subscribed already, the most allowed; thread %" PRIu64
                    " would be one more. Remedy: let one thread serve several streams of a device (32 "
                    "threads or fewer are recommended), or unsubscribe threads you no longer use",
                    cb_nkind[kind], what, thread_id);
    return NULL;
  }
  th = cb_thread_new(thread_id, kind, dev);
  if (th == NULL) {
    *rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                    "out of host memory for the queue of thread %" PRIu64, thread_id);
    return NULL;
  }
  cb_threads[cb_nthreads++] = th;
  cb_nkind[kind]++;
  return th;
}

int acl__callback_subscribe(const char *api, uint64_t thread_id, acl__stream *s) {
  acl__device *dev = s->dev;
  int rc = 0;
  pthread_mutex_lock(&cb_lock);
  pthread_mutex_lock(&s->lock);
  uint64_t cur = s->report_thread;
  pthread_mutex_unlock(&s->lock);
  cb_thread *th = NULL;
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
  th = cb_thread_for(api, thread_id, CB_KIND_REPORT, dev, s, &rc);
  if (th == NULL)
    goto out;
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
  cb_thread *th = cb_thread_find(thread_id, CB_KIND_REPORT);
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
  /* what the other per-stream registries of this layer keep (leaf locks) */
  acl__reslimit_stream_gone(s);
  acl__allocator_stream_gone(s);
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
   * cb_task_release stops the wake before the stream is freed.  Host
   * functions taken back from their thread run on the executor instead. */
  if (cur != 0) {
    cb_thread *th = cb_thread_find(cur, CB_KIND_REPORT);
    if (th != NULL && --th->nstreams == 0)
      cb_thread_remove(th);
  }
  int hf = cb_hf_find(s);
  if (hf >= 0) {
    cb_thread *th = cb_thread_find(cb_hf_subs[hf].thread_id, CB_KIND_HOST_FUNC);
    cb_hf_remove(hf);
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
  cb_thread *th = id != 0 ? cb_thread_find(id, CB_KIND_REPORT) : NULL;
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

/* ---- aclrtProcessReport / aclrtProcessHostFunc ------------------------------ */

/* Runs at most one item posted to the calling thread as a thread of `kind`,
 * waiting up to timeout_ms (-1: without a bound). */
static int cb_process(const char *api, int kind, int32_t timeout_ms) {
  const int hf = kind == CB_KIND_HOST_FUNC;
  const char *sub_api = hf ? "aclrtSubscribeHostFunc" : "aclrtSubscribeReport";
  const char *unsub_api = hf ? "aclrtUnSubscribeHostFunc" : "aclrtUnSubscribeReport";
  if (cb_tls_in != CB_IN_NONE)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "%s was called from inside %s of stream %d; callbacks run one at a time, and a nested "
                     "call could wait for a callback that this one holds back. Remedy: return from the "
                     "callback; the processing loop calls %s again",
                     api,
                     cb_tls_in == CB_IN_HOST_FUNC  ? "a host function"
                     : cb_tls_in == CB_IN_EXCEPTION ? "an exception callback"
                                                    : "a host callback",
                     (int)cb_tls_stream, api);
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
  cb_thread *th = cb_thread_find(self, kind);
  if (th == NULL) {
    pthread_mutex_unlock(&cb_lock);
    /* The vendor's processing loop starts before the subscription and spins
     * here until then: polled, not logged as an error. */
    return acl__fail_polled(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                            "the calling thread (%" PRIu64 ") is not subscribed to any stream. Remedy: pass "
                            "this thread's pthread_self() value to %s before it calls %s, and stop calling it "
                            "after the last %s",
                            self, sub_api, api, unsub_api);
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
                              "waited. Remedy: stop the processing loop after %s",
                              self, unsub_api);
    /* aclrtProcessHostFunc: the vendor's code for a timeout is not
     * documented; the report loop's is used (docs/callbacks.md). */
    return acl__fail_polled(api, ACL_ERROR_RT_REPORT_TIMEOUT, __FILE__, __LINE__,
                            "no %s arrived within %d ms. Remedy: normal when none are pending: keep looping, or "
                            "pass a longer timeout (-1 waits without a bound)",
                            hf ? "host function" : "callback", (int)timeout_ms);
  }

  cb_tls_in = it->host_func ? CB_IN_HOST_FUNC : CB_IN_CALLBACK;
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

int acl__callback_process(const char *api, int32_t timeout_ms) { return cb_process(api, CB_KIND_REPORT, timeout_ms); }

int acl__callback_process_host_func(const char *api, int32_t timeout_ms) {
  return cb_process(api, CB_KIND_HOST_FUNC, timeout_ms);
}

/* ---- host-function threads (aclrtSubscribeHostFunc) ------------------------------ */

int acl__callback_subscribe_host_func(const char *api, uint64_t thread_id, acl__stream *s) {
  acl__device *dev = s->dev;
  int rc = 0;
  pthread_mutex_lock(&cb_lock);
  int i = cb_hf_find(s);
  if (i >= 0) {
    uint64_t cur = cb_hf_subs[i].thread_id;
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d already has a host-function thread (%" PRIu64 "%s); a stream has one. Remedy: "
                   "call aclrtUnSubscribeHostFunc first, or subscribe another stream",
                   (int)s->id, cur, cur == thread_id ? ", the same one" : "");
    goto out;
  }
  if (cb_hf_n == cb_hf_cap) {
    int cap = cb_hf_cap ? 2 * cb_hf_cap : 16;
    cb_hf_sub *bigger = realloc(cb_hf_subs, (size_t)cap * sizeof(*bigger));
    if (bigger == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a subscription");
      goto out;
    }
    cb_hf_subs = bigger;
    cb_hf_cap = cap;
  }
  cb_thread *th = cb_thread_for(api, thread_id, CB_KIND_HOST_FUNC, dev, s, &rc);
  if (th == NULL)
    goto out;
  th->nstreams++;
  cb_hf_subs[cb_hf_n].stream = s;
  cb_hf_subs[cb_hf_n].thread_id = thread_id;
  cb_hf_n++;
  ACL__LOGI(ACL__MOD_RUNTIME, "stream %d of device %d subscribed to host-function thread %" PRIu64 " (%d stream(s))",
            (int)s->id, (int)dev->id, thread_id, th->nstreams);
out:
  pthread_mutex_unlock(&cb_lock);
  return rc;
}

int acl__callback_unsubscribe_host_func(const char *api, uint64_t thread_id, acl__stream *s) {
  int rc = 0, dropped = 0, released = 0;
  pthread_mutex_lock(&cb_lock);
  int i = cb_hf_find(s);
  if (i < 0) {
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d has no host-function thread. Remedy: unsubscribe only streams subscribed with "
                   "aclrtSubscribeHostFunc, once each",
                   (int)s->id);
    goto out;
  }
  if (cb_hf_subs[i].thread_id != thread_id) {
    rc = acl__fail(api, ACL_ERROR_RT_THREAD_SUBSCRIBE, __FILE__, __LINE__,
                   "stream %d is subscribed to host-function thread %" PRIu64 ", not to thread %" PRIu64
                   ". Remedy: pass the thread id the stream was subscribed with",
                   (int)s->id, cb_hf_subs[i].thread_id, thread_id);
    goto out;
  }
  cb_hf_remove(i);
  cb_thread *th = cb_thread_find(thread_id, CB_KIND_HOST_FUNC);
  if (th != NULL) {
    /* host functions it has not taken yet run on the executor instead */
    cb_drop_stream_items(th, s, &dropped, &released);
    if (--th->nstreams == 0)
      cb_thread_remove(th);
  }
  ACL__LOGI(ACL__MOD_RUNTIME, "stream %d unsubscribed from host-function thread %" PRIu64, (int)s->id, thread_id);
out:
  pthread_mutex_unlock(&cb_lock);
  return rc;
}

/* ---- aclrtLaunchHostFunc -------------------------------------------------------- */

/* Runs the function here, on the executor, as host code. */
static void hf_run_inline(acl__task *t) {
  hf_task *h = (hf_task *)t;
  acl__device *d = t->stream->dev;
  int saved_in = cb_tls_in;
  int32_t saved_stream = cb_tls_stream;
  /* Host code cannot touch device memory: access is off while fn runs. */
  acl__device_access_end(d);
  cb_tls_in = CB_IN_HOST_FUNC;
  cb_tls_stream = t->stream->id;
  int saved_depth = acl__prof_api_depth;
  acl__prof_api_depth = 0; /* the user's code: its API calls are profiled */
  h->fn(h->args);
  acl__prof_api_depth = saved_depth;
  cb_tls_in = saved_in;
  cb_tls_stream = saved_stream;
  acl__device_access_begin(d);
}

static int hf_task_run(acl__task *t) {
  hf_task *h = (hf_task *)t;
  acl__stream *s = t->stream;
  pthread_mutex_lock(&cb_lock);
  cb_item *it = h->item;
  if (it != NULL) {
    /* run again after a wake: done by its thread, taken back, or not yet */
    int state = it->state;
    if (state == CB_ITEM_DONE || state == CB_ITEM_CANCELLED) {
      /* finished with the item: a replayed graph (graph.c) runs the task again from the start */
      h->item = NULL;
      it->stream = NULL;
      cb_item_unref(it); /* the task's */
    }
    pthread_mutex_unlock(&cb_lock);
    if (state == CB_ITEM_DONE)
      return 0;
    if (state != CB_ITEM_CANCELLED)
      return ACL__TASK_PARK;
    hf_run_inline(t);
    return 0;
  }
  int i = cb_hf_find(s);
  cb_thread *th = i >= 0 ? cb_thread_find(cb_hf_subs[i].thread_id, CB_KIND_HOST_FUNC) : NULL;
  if (th != NULL && (it = calloc(1, sizeof(*it))) != NULL) {
    it->fn = h->fn;
    it->user = h->args;
    it->block = 1; /* a host function always holds its stream */
    it->host_func = 1;
    it->stream_id = s->id;
    it->stream = s;
    it->owner = th;
    it->state = CB_ITEM_QUEUED;
    it->refs = 2; /* the task's and the queue's */
    h->item = it;
    if (th->tail != NULL)
      th->tail->next = it;
    else
      th->head = it;
    th->tail = it;
    pthread_cond_signal(&th->cond);
    pthread_mutex_unlock(&cb_lock);
    return ACL__TASK_PARK;
  }
  pthread_mutex_unlock(&cb_lock);
  hf_run_inline(t); /* no host-function thread (or no memory to post to it) */
  return 0;
}

/* A replay parked in this host function was discarded (graph.c): the item
 * is let go as a discard does, to post a new one at the next replay. */
static void hf_task_cancel(acl__task *t) {
  hf_task *h = (hf_task *)t;
  cb_item *it = h->item;
  if (it == NULL)
    return;
  pthread_mutex_lock(&cb_lock);
  if (it->state == CB_ITEM_QUEUED && it->owner != NULL) {
    cb_queue_unlink(it->owner, it);
    it->state = CB_ITEM_CANCELLED;
    it->refs--; /* the queue's */
  }
  it->stream = NULL; /* running now: no wake for a replay that is gone */
  cb_item_unref(it);  /* the task's */
  h->item = NULL;
  pthread_mutex_unlock(&cb_lock);
}

static void hf_task_release(acl__task *t) {
  hf_task *h = (hf_task *)t;
  cb_item *it = h->item;
  if (it != NULL) {
    pthread_mutex_lock(&cb_lock);
    /* discarded while its thread had not taken it: nobody waits for it now */
    if (it->state == CB_ITEM_QUEUED && it->owner != NULL) {
      cb_queue_unlink(it->owner, it);
      it->state = CB_ITEM_CANCELLED;
      it->refs--; /* the queue's */
    }
    it->stream = NULL; /* running now: the stream may be freed after this, so no wake */
    cb_item_unref(it);  /* the task's */
    pthread_mutex_unlock(&cb_lock);
  }
  free(h);
}

int acl__callback_launch_host_func(const char *api, acl__stream *s, aclrtHostFunc fn, void *args) {
  pthread_mutex_lock(&cb_lock);
  int has_hf_thread = cb_hf_find(s) >= 0;
  pthread_mutex_unlock(&cb_lock);
  pthread_mutex_lock(&s->lock);
  uint64_t id = s->report_thread;
  pthread_mutex_unlock(&s->lock);
  /* The rule "do not mix the families on one stream" is about the runtime's
   * own callback thread; a stream with a host-function thread of its own may
   * also have a report thread (the vendor's 0_simple_callback sample). */
  if (id != 0 && !has_hf_thread)
    return acl__fail(api, ACL_ERROR_RT_STREAM_SUBSCRIBE, __FILE__, __LINE__,
                     "stream %d is subscribed to callback thread %" PRIu64 " (aclrtSubscribeReport); host "
                     "functions and the subscribe/launch-callback family must not be mixed on one stream. "
                     "Remedy: launch host functions on another stream, subscribe a host-function thread to this "
                     "one (aclrtSubscribeHostFunc), or unsubscribe it first",
                     (int)s->id, id);
  hf_task *h = calloc(1, sizeof(*h));
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a host function task");
  h->fn = fn;
  h->args = args;
  h->base.run = hf_task_run;
  h->base.release = hf_task_release;
  h->base.executor_only = 1; /* host code runs on a runtime thread, never in a synchronising caller */
  h->base.ri_ok = 1;         /* keeps no state between runs: a capture may record it (graph.c) */
  h->base.cancel = hf_task_cancel;
  snprintf(h->base.what, sizeof(h->base.what), "host function");
  return cb_submit(api, s, &h->base);
}

/* ---- fork ---------------------------------------------------------------------- */

/* The other registries' locks: taken in this order, released in reverse. */
static void (*const cb_fork_steps[])(int) = {acl__exception_atfork, acl__reslimit_atfork, acl__allocator_atfork,
                                             acl__label_atfork};
#define CB_FORK_STEPS (sizeof(cb_fork_steps) / sizeof(cb_fork_steps[0]))

void acl__callback_atfork_prepare(void) {
  pthread_mutex_lock(&cb_lock);
  for (size_t i = 0; i < CB_FORK_STEPS; i++)
    cb_fork_steps[i](ACL__FORK_PREPARE);
}

void acl__callback_atfork_parent(void) {
  for (size_t i = CB_FORK_STEPS; i-- > 0;)
    cb_fork_steps[i](ACL__FORK_PARENT);
  pthread_mutex_unlock(&cb_lock);
}

void acl__callback_atfork_child(void) {
  /* The subscribed threads do not exist in the child; their records (and
   * condition variables another thread may have been waiting on) are
   * forgotten, not freed. */
  pthread_mutex_init(&cb_lock, NULL);
  for (size_t i = 0; i < CB_FORK_STEPS; i++)
    cb_fork_steps[i](ACL__FORK_CHILD);
  for (int i = 0; i < cb_nthreads; i++)
    cb_threads[i] = NULL;
  cb_nthreads = 0;
  cb_nkind[0] = cb_nkind[1] = 0;
  cb_hf_n = 0;
  cb_tls_in = CB_IN_NONE;
}
