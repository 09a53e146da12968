/*
 * executor.c - how work runs: each device has a pool of executor threads
 * that take ready streams and run their tasks.
 *
 * A stream is a queue, not a thread.  It is in one of four states, guarded
 * by its lock:
 *   IDLE     nothing to run; in no list
 *   READY    has tasks; in the device's ready list (by priority)
 *   RUNNING  one thread is running its tasks (an executor, or a thread that
 *            synchronises and helps: acl__stream_sync_api)
 *   PARKED   its first task returned ACL__TASK_PARK; acl__stream_unpark
 *            makes it READY again
 *   STOPPED  aclrtStreamStop: in no list; new tasks queue but nothing runs
 *            until aclrtStreamAbort (or a destroy) discards them
 * So tasks of one stream run in submission order, one at a time, and
 * different streams run concurrently.  An executor runs at most
 * ACL__QUANTUM tasks of a stream before putting it back, so that streams of
 * equal priority share the executors; a lower priority number is served
 * first.
 *
 * Idle executors spin for a short while (work often follows work), then
 * sleep on the device's condition variable: an idle device uses no CPU.
 * Parked tasks that must wake on time rather than on a record or a write
 * are woken by the timer thread (timer.c), not by the executors, which may
 * all be busy.
 *
 * Stopping, aborting and destroying by force never walk the queue: they
 * set marks on the stream (drop_upto, keep_seq, cut_upto, stopped) that the
 * runner reads between tasks, so they return at once however many tasks
 * are queued; the runner then releases the discarded tasks unrun.  A kernel
 * that is running when its stream is stopped or aborted skips its remaining
 * blocks (acl__device_parallel_for) and fails with the stream's cut code.
 *
 * Locks: stream lock, then scheduler lock (a leaf).  Task functions run
 * with no runtime lock held.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/error.h"
#include "common/log.h"
#include "prof/prof.h"
#include "rt/device_query.h"
#include "rt/exception.h"
#include "rt/executor.h"
#include "rt/graph.h"
#include "rt/mem_fault.h"
#include "rt/rt.h"

#define ACL__QUANTUM 64
#define ACL__PRIORITIES 8
#define ACL__SPIN_NS 50000       /* how long an idle executor looks for work before sleeping */

/* A parallel loop (kernel blocks) that executors help with. */
typedef struct acl__pjob {
  struct acl__pjob *next;
  int (*fn)(uint32_t i, void *arg);
  void *arg;
  uint32_t n;
  atomic_uint next_i;
  atomic_uint done;
  atomic_int helpers;           /* executors inside the job */
  atomic_int first_err;
  _Atomic uint64_t *cut_upto;   /* the stream's cut mark (stop, abort), or NULL */
  uint64_t seq;                 /* the kernel task's position: cut when <= *cut_upto */
  atomic_int cut;               /* blocks were skipped */
} acl__pjob;

struct acl__sched {
  acl__device *dev;
  int nthreads;
  pthread_t *threads;
  int started;                  /* threads created */
  int stop;                     /* guarded by sched_lock */
  acl__stream *ready_head[ACL__PRIORITIES], *ready_tail[ACL__PRIORITIES];
  acl__pjob *jobs;              /* guarded by sched_lock */
  int sleeping;                 /* guarded by sched_lock */
  atomic_int spinning;
  atomic_int pending;           /* streams in ready lists + open jobs: what spinners watch */
  atomic_int busy;              /* executors holding a stream or a job */
};

/* The task this thread is running, for acl__device_parallel_for: a kernel's
 * blocks stop early when its stream is stopped or aborted. */
static _Thread_local acl__task *acl__tls_task;
static _Thread_local int acl__tls_cut;            /* blocks of it were skipped */
static _Thread_local char acl__tls_cut_what[64];  /* its name before the kernel rewrote it */
static _Thread_local uint32_t acl__tls_last_task_id;

uint32_t acl__thread_last_task_id(void) { return acl__tls_last_task_id; }

uint64_t acl__now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- tasks -------------------------------------------------------------- */

#define ACL__TASK_HDR ((sizeof(acl__task) + 15) & ~(size_t)15)

acl__task *acl__task_new(size_t extra, acl__task_run_fn run, const char *what) {
  acl__task *t = calloc(1, ACL__TASK_HDR + extra);
  if (t == NULL)
    return NULL;
  t->run = run;
  if (what != NULL)
    snprintf(t->what, sizeof(t->what), "%s", what);
  return t;
}

void *acl__task_payload(acl__task *t) { return (char *)t + ACL__TASK_HDR; }

void acl__tasks_discard(acl__task *list) {
  for (acl__task *x = list, *next; x != NULL; x = next) {
    next = x->next;
    x->discarded = 1;
    if (x->release != NULL)
      x->release(x);
    else
      free(x);
  }
}

static void acl__task_release(acl__task *t) {
  if (t->release != NULL)
    t->release(t);
  else
    free(t);
}

/* ---- ready lists (sched_lock held) ------------------------------------- */

static void acl__ready_push_locked(struct acl__sched *sc, acl__stream *s) {
  uint32_t p = s->priority < ACL__PRIORITIES ? s->priority : ACL__PRIORITIES - 1;
  s->sched_next = NULL;
  if (sc->ready_tail[p] != NULL)
    sc->ready_tail[p]->sched_next = s;
  else
    sc->ready_head[p] = s;
  sc->ready_tail[p] = s;
  atomic_fetch_add(&sc->pending, 1);
}

static acl__stream *acl__ready_pop_locked(struct acl__sched *sc) {
  for (int p = 0; p < ACL__PRIORITIES; p++) {
    acl__stream *s = sc->ready_head[p];
    if (s != NULL) {
      sc->ready_head[p] = s->sched_next;
      if (sc->ready_head[p] == NULL)
        sc->ready_tail[p] = NULL;
      s->sched_next = NULL;
      atomic_fetch_sub(&sc->pending, 1);
      return s;
    }
  }
  return NULL;
}

/* Removes s from its ready list; 1 when it was there. */
static int acl__ready_remove_locked(struct acl__sched *sc, acl__stream *s) {
  uint32_t p = s->priority < ACL__PRIORITIES ? s->priority : ACL__PRIORITIES - 1;
  acl__stream *prev = NULL;
  for (acl__stream *it = sc->ready_head[p]; it != NULL; prev = it, it = it->sched_next) {
    if (it != s)
      continue;
    if (prev != NULL)
      prev->sched_next = it->sched_next;
    else
      sc->ready_head[p] = it->sched_next;
    if (sc->ready_tail[p] == it)
      sc->ready_tail[p] = prev;
    it->sched_next = NULL;
    atomic_fetch_sub(&sc->pending, 1);
    return 1;
  }
  return 0;
}

static void acl__sched_wake_locked(struct acl__sched *sc) {
  if (sc->sleeping > 0 && atomic_load_explicit(&sc->spinning, memory_order_relaxed) == 0)
    pthread_cond_signal(&sc->dev->sched_cond);
}

/* Puts a READY stream in its device's list and wakes an executor.  Called
 * with the stream's lock held, so that the stream cannot be destroyed
 * between becoming READY and being listed. */
void acl__sched_push(acl__stream *s) {
  acl__device *d = s->dev;
  pthread_mutex_lock(&d->sched_lock);
  acl__ready_push_locked(d->sched, s);
  acl__sched_wake_locked(d->sched);
  pthread_mutex_unlock(&d->sched_lock);
}

/* ---- running a stream ----------------------------------------------------- */

static void acl__stream_note_error_locked(acl__stream *s, acl__task *t, int rc) {
  if (s->error != 0)
    return;
  s->error = rc;
  snprintf(s->error_msg, sizeof(s->error_msg), "task %llu on stream %d (%s) failed with %s (%d)",
           (unsigned long long)t->seq, s->id, t->what[0] ? t->what : "unnamed task", acl__error_name(rc), rc);
  ACL__LOGE(ACL__MOD_RUNTIME, "%s", s->error_msg);
}

/* 1 when t is to be discarded unrun: aborted, or its stream destroyed by force. */
static inline int acl__task_dropped(acl__stream *s, const acl__task *t) {
  return t->seq <= atomic_load_explicit(&s->drop_upto, memory_order_acquire) &&
         t->seq != atomic_load_explicit(&s->keep_seq, memory_order_relaxed);
}

/* Stream lock held, head != NULL: takes the tasks at the head that are not
 * to run (dropped, or after a failure with ACL_STOP_ON_FAILURE) off the
 * queue and returns them as a list; NULL when the head is to run. */
acl__task *acl__stream_take_dropped_locked(acl__stream *s, int head_only) {
  int stop_mode = s->error != 0 && s->failure_mode == ACL_STOP_ON_FAILURE;
  acl__task *last = NULL;
  for (acl__task *t = s->head; t != NULL && (stop_mode || acl__task_dropped(s, t)); t = t->next) {
    last = t;
    if (head_only)
      break;
  }
  if (last == NULL)
    return NULL;
  acl__task *list = s->head;
  s->head = last->next;
  last->next = NULL;
  s->completed = last->seq;
  s->wakeups = 0; /* they belonged to the dropped head */
  if (s->head == NULL) {
    s->tail = NULL;
    s->completed = s->submitted;
  }
  if (s->waiters)
    pthread_cond_broadcast(&s->idle_cond);
  return list;
}

/* The code a task whose kernel blocks were cut short fails with, and its
 * name, saying why. */
static int acl__task_cut(acl__stream *s, acl__task *t) {
  int code = atomic_load_explicit(&s->cut_code, memory_order_relaxed);
  if (code == 0)
    code = ACL_ERROR_RT_STREAM_ABORT;
  const char *by = code == ACL_ERROR_RT_INTERNAL_ERROR ? "aclrtStreamStop"
                   : code == ACL_ERROR_RT_DEVICE_TASK_ABORT ? "aclrtDeviceTaskAbort"
                                                             : "aclrtStreamAbort";
  char what[sizeof(t->what) + 32] = "";
  snprintf(what, sizeof(what), "%.40s, cut by %s", acl__tls_cut_what, by);
  memcpy(t->what, what, sizeof(t->what) - 1); /* at most 40 + 29 bytes: cut to fit */
  t->what[sizeof(t->what) - 1] = '\0';
  return code;
}

/* Runs tasks of a stream that the caller has set RUNNING (stream lock
 * held on entry and exit).  Stops when the queue is empty (-> IDLE), the
 * head task parks (-> PARKED), the stream is stopped (-> STOPPED), `limit`
 * tasks ran (-> READY), or, for a thread that synchronises and helps, when
 * `until` has completed or the next task is executor-only (-> READY).
 * Returns 1 when the caller must push the stream back on the ready list.
 *
 * Tasks run in batches without the lock: the tasks from head to the tail
 * seen under the lock have stable links (submitters only append after the
 * tail), so the lock is taken once per batch, not twice per task. */
static int acl__stream_run_locked(acl__stream *s, int limit, uint64_t until) {
  int ran = 0;
  for (;;) {
    if (s->head != NULL) {
      acl__task *drop = acl__stream_take_dropped_locked(s, 0);
      if (drop != NULL) {
        pthread_mutex_unlock(&s->lock); /* still RUNNING: nobody else touches the queue's head */
        for (acl__task *x = drop, *next; x != NULL; x = next) {
          next = x->next;
          x->discarded = 1;
          acl__task_release(x);
        }
        pthread_mutex_lock(&s->lock);
        continue;
      }
    }
    acl__task *first = s->head;
    if (first == NULL) {
      s->state = ACL__STREAM_IDLE;
      s->completed = s->submitted; /* every task submitted has run or was discarded */
      if (s->waiters)
        pthread_cond_broadcast(&s->idle_cond);
      return 0;
    }
    if (atomic_load_explicit(&s->stopped, memory_order_relaxed)) {
      s->state = ACL__STREAM_STOPPED;
      if (s->waiters)
        pthread_cond_broadcast(&s->idle_cond);
      return 0;
    }
    if ((limit > 0 && ran >= limit) || (until != 0 && (s->completed >= until || first->executor_only))) {
      s->state = ACL__STREAM_READY;
      return 1;
    }
    acl__task *last = s->tail;
    s->batch_last = last;
    pthread_mutex_unlock(&s->lock);

    acl__task *t = first, *done = NULL;
    int rc = 0, n = 0;
    for (;;) {
      if (t != first && ((limit > 0 && ran + n >= limit) || (until != 0 && (t->seq > until || t->executor_only)) ||
                         acl__task_dropped(s, t) || atomic_load_explicit(&s->stopped, memory_order_relaxed)))
        break;
      acl__tls_task = t;
      acl__tls_cut = 0;
      uint64_t prof_t0 = ACL__PROF_ON() ? acl__prof_now() : 0;
      rc = t->run(t);
      if (prof_t0 != 0)
        acl__prof_task(t, prof_t0, rc); /* src/prof/hooks.c */
      acl__tls_task = NULL;
      if (atomic_load_explicit(&acl__mem_fault_note_pending, memory_order_relaxed))
        acl__mem_fault_log_note(); /* out of the signal handler, into the log */
      if (rc == ACL__TASK_PARK)
        break;
      if (acl__tls_cut)
        rc = acl__task_cut(s, t);
      else if (rc != 0)
        acl__exception_task_failed(t, rc); /* exception callbacks (exception.c) */
      done = t;
      n++;
      if (rc != 0 || t == last)
        break;
      t = t->next;
    }

    pthread_mutex_lock(&s->lock);
    s->batch_last = NULL;
    if (done != NULL) {
      s->head = done->next;
      s->completed = done->seq;
      if (s->head == NULL) {
        s->tail = NULL;
        s->completed = s->submitted;
      }
      done->next = NULL;
      if (rc != 0 && rc != ACL__TASK_PARK)
        acl__stream_note_error_locked(s, done, rc);
      if (s->waiters)
        pthread_cond_broadcast(&s->idle_cond);
      ran += n;
      pthread_mutex_unlock(&s->lock);
      for (acl__task *x = first, *next; x != NULL; x = next) {
        next = x->next;
        acl__task_release(x);
      }
      pthread_mutex_lock(&s->lock);
    }
    if (rc == ACL__TASK_PARK) {
      if (acl__task_dropped(s, s->head))
        continue; /* aborted or destroyed while it ran: discarded at the top */
      if (s->wakeups > 0) {
        s->wakeups--;
        continue; /* woken already: run it again */
      }
      s->state = ACL__STREAM_PARKED;
      return 0;
    }
  }
}

int acl__stream_submit(acl__stream *s, acl__task *t) { return acl__stream_submit_seq(s, t, NULL); }

int acl__stream_submit_seq(acl__stream *s, acl__task *t, uint64_t *seq) {
  uint64_t prof_t0 = ACL__PROF_ON() ? acl__prof_now() : 0;
  t->next = NULL;
  t->stream = s;
  pthread_mutex_lock(&s->lock);
  if (s->destroying) {
    pthread_mutex_unlock(&s->lock);
    t->discarded = 1;
    acl__task_release(t);
    return ACL_ERROR_RT_STREAM_CONTEXT;
  }
  if (s->capture != NULL) {
    /* aclmdlRICaptureBegin..End: recorded, not run (graph.c) */
    int rc = acl__graph_capture_task_locked(s, t);
    pthread_mutex_unlock(&s->lock);
    if (rc != 0) {
      t->discarded = 1;
      acl__task_release(t);
    } else if (seq != NULL) {
      *seq = t->seq;
    }
    return rc;
  }
  t->seq = ++s->submitted;
  if (seq != NULL)
    *seq = t->seq;
  if (!s->is_default)
    acl__tls_last_task_id = (uint32_t)t->seq;
  t->submit_tid = acl__exception_thread_id();
  if (prof_t0 != 0)
    acl__prof_submit(s, t, prof_t0); /* src/prof/hooks.c */
  if (s->tail != NULL)
    s->tail->next = t;
  else
    s->head = t;
  s->tail = t;
  if (s->state == ACL__STREAM_IDLE) {
    if (atomic_load_explicit(&s->stopped, memory_order_relaxed)) {
      s->state = ACL__STREAM_STOPPED; /* queued, not run: aclrtStreamStop */
    } else {
      s->state = ACL__STREAM_READY;
      acl__sched_push(s);
    }
  }
  pthread_mutex_unlock(&s->lock);
  return 0;
}

void acl__stream_unpark(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  if (s->state == ACL__STREAM_PARKED) {
    s->state = ACL__STREAM_READY;
    acl__sched_push(s);
    /* a thread synchronising the stream runs it itself rather than wait for
     * an executor (all of them may be busy with host functions) */
    if (s->waiters)
      pthread_cond_broadcast(&s->idle_cond);
  } else {
    s->wakeups++;
  }
  pthread_mutex_unlock(&s->lock);
}

/* ---- helping while synchronising ------------------------------------------ */

int acl__stream_help(acl__stream *s, uint64_t until) {
  /* stream lock held.  A READY stream waiting in the list is claimed and
   * run here: the caller would only sleep otherwise, and this saves the
   * wake-up of an executor on the short path (launch, then synchronise). */
  if (s->state != ACL__STREAM_READY)
    return 0;
  acl__device *d = s->dev;
  pthread_mutex_lock(&d->sched_lock);
  int claimed = acl__ready_remove_locked(d->sched, s);
  pthread_mutex_unlock(&d->sched_lock);
  if (!claimed)
    return 0;
  s->state = ACL__STREAM_RUNNING;
  acl__device_access_begin(d);
  uint64_t before = s->completed;
  int push = acl__stream_run_locked(s, 0, until);
  acl__device_access_end(d);
  if (push)
    acl__sched_push(s);
  return s->completed != before; /* 0: it stopped at once (executor-only task): wait instead */
}

int acl__stream_resume_here(acl__stream *s) {
  /* stream lock held.  Like acl__stream_unpark followed by
   * acl__stream_help, but a parked stream goes straight to RUNNING here:
   * no executor is woken to race for it, no synchronising thread is woken
   * before there is something to see. */
  if (s->state == ACL__STREAM_READY)
    return acl__stream_help(s, UINT64_MAX);
  if (s->state != ACL__STREAM_PARKED) {
    s->wakeups++; /* running (its task may be about to park): it runs the task again */
    return 0;
  }
  acl__device *d = s->dev;
  s->state = ACL__STREAM_RUNNING;
  acl__device_access_begin(d);
  uint64_t before = s->completed;
  int push = acl__stream_run_locked(s, 0, UINT64_MAX);
  acl__device_access_end(d);
  if (push)
    acl__sched_push(s);
  return s->completed != before;
}

/* ---- parallel loops -------------------------------------------------------- */

static void acl__pjob_work(acl__pjob *j) {
  for (;;) {
    uint32_t i = atomic_fetch_add(&j->next_i, 1);
    if (i >= j->n)
      return;
    if (j->cut_upto != NULL && atomic_load_explicit(j->cut_upto, memory_order_relaxed) >= j->seq) {
      /* stopped or aborted: this block and the ones nobody took yet are skipped */
      uint32_t rest = atomic_exchange(&j->next_i, j->n);
      uint32_t skipped = 1 + (rest < j->n ? j->n - rest : 0);
      atomic_store(&j->cut, 1);
      atomic_fetch_add(&j->done, skipped);
      return;
    }
    int rc = j->fn(i, j->arg);
    if (rc != 0) {
      int zero = 0;
      atomic_compare_exchange_strong(&j->first_err, &zero, rc);
    }
    atomic_fetch_add(&j->done, 1);
  }
}

/* The calling thread runs a task: note that its blocks were cut, keeping
 * the task's name as it was before the kernel rewrites it for its error. */
static void acl__note_cut(void) {
  acl__tls_cut = 1;
  snprintf(acl__tls_cut_what, sizeof(acl__tls_cut_what), "%s", acl__tls_task->what);
}

int acl__device_parallel_for(acl__device *d, uint32_t n, int (*fn)(uint32_t i, void *arg), void *arg) {
  if (n == 0)
    return 0;
  /* A kernel run as a stream task stops early when the stream is stopped or
   * aborted: remaining blocks are skipped and the task fails with the
   * stream's cut code (acl__stream_run_locked).  0 is returned for the
   * blocks that were skipped, so the kernel reports no failure of its own. */
  acl__task *cur = acl__tls_task;
  _Atomic uint64_t *cut_upto = cur != NULL ? &cur->stream->cut_upto : NULL;
  uint64_t seq = cur != NULL ? cur->seq : 0;
  struct acl__sched *sc = d->sched;
  if (n == 1 || sc == NULL || sc->nthreads <= 1) {
    int first = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (cut_upto != NULL && atomic_load_explicit(cut_upto, memory_order_relaxed) >= seq) {
        acl__note_cut();
        break;
      }
      int rc = fn(i, arg);
      if (rc != 0 && first == 0)
        first = rc;
    }
    return first;
  }
  acl__pjob j;
  memset(&j, 0, sizeof(j));
  j.fn = fn;
  j.arg = arg;
  j.n = n;
  j.cut_upto = cut_upto;
  j.seq = seq;
  pthread_mutex_lock(&d->sched_lock);
  j.next = sc->jobs;
  sc->jobs = &j;
  atomic_fetch_add(&sc->pending, 1);
  if (sc->sleeping > 0)
    pthread_cond_broadcast(&d->sched_cond);
  pthread_mutex_unlock(&d->sched_lock);

  acl__pjob_work(&j);

  /* Unlink, then wait for the helpers still inside to finish their blocks. */
  pthread_mutex_lock(&d->sched_lock);
  for (acl__pjob **pp = &sc->jobs; *pp != NULL; pp = &(*pp)->next)
    if (*pp == &j) {
      *pp = j.next;
      atomic_fetch_sub(&sc->pending, 1);
      break;
    }
  pthread_mutex_unlock(&d->sched_lock);
  while (atomic_load(&j.helpers) > 0 || atomic_load(&j.done) < j.n)
    sched_yield();
  if (atomic_load(&j.cut) && cur != NULL)
    acl__note_cut();
  return atomic_load(&j.first_err);
}

/* ---- executor threads ------------------------------------------------------ */

/* Takes work (sched_lock held): a parallel job to help with, else a ready
 * stream.  Returns 1 with *job or *stream set, 0 when there is none. */
static int acl__take_work_locked(struct acl__sched *sc, acl__pjob **job, acl__stream **stream) {
  for (acl__pjob *j = sc->jobs; j != NULL; j = j->next)
    if (atomic_load(&j->next_i) < j->n) {
      atomic_fetch_add(&j->helpers, 1);
      atomic_fetch_add(&sc->busy, 1);
      *job = j;
      return 1;
    }
  *stream = acl__ready_pop_locked(sc);
  if (*stream != NULL) {
    atomic_fetch_add(&(*stream)->sched_refs, 1);
    atomic_fetch_add(&sc->busy, 1);
  }
  return *stream != NULL;
}

int acl__sched_has_idle(acl__device *d) {
  struct acl__sched *sc = d->sched;
  return sc != NULL && atomic_load(&sc->busy) < sc->nthreads;
}

static void *acl__executor_main(void *arg) {
  struct acl__sched *sc = arg;
  acl__device *d = sc->dev;
  acl__prof_api_depth = 1; /* public functions the runtime calls here are not the user's (prof.h) */
  acl__device_access_begin(d);
  acl__devstat_executor_enter(d); /* utilisation (device_query.c) */
  pthread_mutex_lock(&d->sched_lock);
  while (!sc->stop) {
    acl__pjob *job = NULL;
    acl__stream *s = NULL;
    if (acl__take_work_locked(sc, &job, &s)) {
      /* A push does not wake a sleeper while another executor spins, as the
       * spinner will take the work; but a spinner takes one item.  Work left
       * behind wakes the next sleeper, or two streams pushed while one
       * executor spun would leave the second waiting for the first to end. */
      if (sc->sleeping > 0 && atomic_load(&sc->pending) > 0)
        pthread_cond_signal(&d->sched_cond);
      pthread_mutex_unlock(&d->sched_lock);
      if (job != NULL) {
        acl__pjob_work(job);
        atomic_fetch_sub(&job->helpers, 1);
      } else {
        pthread_mutex_lock(&s->lock);
        if (s->state == ACL__STREAM_READY) {
          s->state = ACL__STREAM_RUNNING;
          if (acl__stream_run_locked(s, ACL__QUANTUM, 0))
            acl__sched_push(s);
        }
        /* the last touch: a destroyer waiting for sched_refs frees it after,
         * and an orphan with nothing left becomes dead */
        if (atomic_fetch_sub(&s->sched_refs, 1) == 1 && s->destroying) {
          pthread_cond_broadcast(&s->idle_cond);
          acl__stream_settle_locked(s);
        }
        pthread_mutex_unlock(&s->lock);
      }
      atomic_fetch_sub(&sc->busy, 1);
      pthread_mutex_lock(&d->sched_lock);
      continue;
    }
    /* Nothing to do: look for work without the lock for a short while. */
    pthread_mutex_unlock(&d->sched_lock);
    atomic_fetch_add(&sc->spinning, 1);
    uint64_t until = acl__now_ns() + ACL__SPIN_NS;
    while (atomic_load_explicit(&sc->pending, memory_order_acquire) == 0 && acl__now_ns() < until)
      sched_yield();
    atomic_fetch_sub(&sc->spinning, 1);
    pthread_mutex_lock(&d->sched_lock);
    if (sc->stop || atomic_load(&sc->pending) > 0)
      continue;
    sc->sleeping++;
    pthread_cond_wait(&d->sched_cond, &d->sched_lock);
    sc->sleeping--;
  }
  pthread_mutex_unlock(&d->sched_lock);
  acl__devstat_executor_leave(d);
  acl__device_access_end(d);
  return NULL;
}

int acl__sched_start(acl__device *d) {
  struct acl__sched *sc = calloc(1, sizeof(*sc));
  if (sc == NULL)
    return ACL_ERROR_BAD_ALLOC;
  sc->dev = d;
  sc->nthreads = d->props.executor_threads > 0 ? d->props.executor_threads : 1;
  sc->threads = calloc((size_t)sc->nthreads, sizeof(pthread_t));
  if (sc->threads == NULL) {
    free(sc);
    return ACL_ERROR_BAD_ALLOC;
  }
  d->sched = sc;
  for (int i = 0; i < sc->nthreads; i++) {
    if (pthread_create(&sc->threads[i], NULL, acl__executor_main, sc) != 0) {
      acl__sched_stop(d);
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    sc->started++;
  }
  return 0;
}

void acl__sched_stop(acl__device *d) {
  struct acl__sched *sc = d->sched;
  if (sc == NULL)
    return;
  pthread_mutex_lock(&d->sched_lock);
  sc->stop = 1;
  pthread_cond_broadcast(&d->sched_cond);
  pthread_mutex_unlock(&d->sched_lock);
  for (int i = 0; i < sc->started; i++)
    pthread_join(sc->threads[i], NULL);
  free(sc->threads);
  free(sc);
  d->sched = NULL;
}

void acl__sched_forget(acl__device *d) {
  /* fork child: the threads do not exist here; drop the bookkeeping only. */
  if (d->sched != NULL) {
    free(d->sched->threads);
    free(d->sched);
    d->sched = NULL;
  }
}

int acl__stream_unlist(acl__stream *s) {
  acl__device *d = s->dev;
  if (d->sched == NULL)
    return 0;
  pthread_mutex_lock(&d->sched_lock);
  int removed = acl__ready_remove_locked(d->sched, s);
  pthread_mutex_unlock(&d->sched_lock);
  return removed;
}
