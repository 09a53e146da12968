/*
 * graph.c - model runtime instances captured from one stream (aclmdlRI,
 * "ACL graph"): issue 14, first slice.  docs/graphs.md has the user's view.
 *
 * Capture: aclmdlRICaptureBegin hangs an acl__capture on the stream; from
 * then on acl__stream_submit_seq hands each task to
 * acl__graph_capture_task_locked, which appends it to the RI's list instead
 * of queuing it.  Only tasks whose submitter set ri_ok are taken: those
 * can run many times and keep nothing from their submission (kernel
 * launches, async copies / memsets of device or pinned memory, reductions,
 * host functions, value write and wait).  Any other task invalidates the
 * capture (CaptureEnd then fails with 507903 and discards the RI).  A
 * recorded task that parks has a cancel hook: when the replay parked in it
 * is discarded (abort, aclmdlRIExecute's timeout) it forgets the wait.
 *
 * Replay: aclmdlRIExecuteAsync queues one composite task on the executing
 * stream; it runs the recorded tasks in order with their `stream` pointed
 * at the executing stream.  A recorded task that parks parks the composite
 * (which remembers its position).  One RI runs one replay at a time: a
 * composite that finds the RI busy waits in the RI's list of waiters
 * (parked) and the replay that finishes unparks the first.  Recorded
 * tasks are released only when the RI is destroyed.
 *
 * Locks: stream lock -> graph lock (g_lock, a leaf: the list of active
 * captures and of live RIs); an RI's lock is a leaf too, taken by the
 * composite with no other lock held.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph.h"

#define RI_NAME_MAX 512

typedef struct acl__capture {
  acl__ri *ri;
  acl__stream *s;
  aclmdlRICaptureMode mode;
  pthread_t thread;          /* the thread that called CaptureBegin */
  atomic_int invalid;        /* a forbidden call was made: CaptureEnd discards the RI */
  struct acl__capture *next; /* active captures (g_lock) */
} acl__capture;

typedef struct ri_cb {
  aclrtCallback fn;
  void *user;
} ri_cb;

/* One replay queued on a stream: the composite task's payload. */
typedef struct ri_exec {
  acl__ri *ri;
  acl__task *self;
  uint32_t pos; /* next recorded task to run */
  int owner;    /* this replay holds the RI (ri->busy) */
  int done;     /* ran to its end: no longer counted in ri->queued, and the RI
                   may be destroyed before the task is released */
  int waiting;  /* in ri->waiters (ri->lock) */
  struct ri_exec *wnext;
} ri_exec;

struct acl__ri {
  acl__device *dev;
  uint32_t id;
  acl__stream *origin; /* the stream it was captured on (may be destroyed since: only
                          compared and handed back, never dereferenced) */
  int32_t origin_id;   /* its id, for messages and the JSON dump */
  acl__task **tasks;   /* recorded, in order; written only while capturing */
  uint32_t n, cap;
  int executor_only;    /* a recorded task must run on an executor */
  pthread_mutex_t lock; /* guards what follows */
  int capturing;
  int busy;                 /* a replay is running */
  ri_exec *waiters, *wtail; /* replays waiting for it */
  int queued;               /* replays submitted and not yet released */
  char name[RI_NAME_MAX];
  ri_cb *cbs;
  int ncbs;
  acl__ri *next; /* live RIs (g_lock) */
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static acl__capture *g_captures; /* g_lock */
static atomic_int g_active;      /* number of active captures: the fast path reads it */
static acl__ri *g_ris;           /* g_lock */
static atomic_uint g_next_id;
static _Thread_local int tls_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

static const char *mode_name(int m) {
  return m == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL         ? "GLOBAL"
         : m == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ? "THREAD_LOCAL"
                                                       : "RELAXED";
}

static const char *kind_name(int k) {
  switch (k) {
  case ACL_MODEL_RI_TASK_KERNEL:
    return "kernel";
  case ACL_MODEL_RI_TASK_EVENT_RECORD:
    return "event record";
  case ACL_MODEL_RI_TASK_EVENT_WAIT:
    return "event wait";
  case ACL_MODEL_RI_TASK_EVENT_RESET:
    return "event reset";
  case ACL_MODEL_RI_TASK_VALUE_WRITE:
    return "value write";
  case ACL_MODEL_RI_TASK_VALUE_WAIT:
    return "value wait";
  default:
    return "default";
  }
}

static void invalidate(acl__capture *c, const char *why) {
  if (atomic_exchange(&c->invalid, 1) == 0)
    ACL__LOGW(ACL__MOD_RUNTIME, "capture of aclmdlRI %u on stream %d invalidated: %s", c->ri->id, c->s->id, why);
}

/* ---- capture ------------------------------------------------------------- */

int acl__graph_capture_task_locked(acl__stream *s, acl__task *t) {
  acl__capture *c = s->capture;
  acl__ri *ri = c->ri;
  if (!t->ri_ok) {
    invalidate(c, t->what[0] ? t->what : "a task that cannot be recorded");
    return acl__fail("capture", ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "stream %d is being captured into aclmdlRI %u, and this task (%s) cannot be recorded yet; the "
                     "capture is now invalidated (aclmdlRICaptureEnd returns 507903). Remedy: submit it outside the "
                     "capture; kernel launches, async copies and memsets of device or aclrtMallocHost memory and "
                     "value write / wait can be captured (docs/graphs.md)",
                     s->id, ri->id, t->what[0] ? t->what : "unnamed task");
  }
  if (ri->n == ri->cap) {
    uint32_t cap = ri->cap ? ri->cap * 2 : 16;
    acl__task **nt = realloc(ri->tasks, cap * sizeof(*nt));
    if (nt == NULL) {
      invalidate(c, "out of host memory");
      return acl__fail("capture", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                       "out of host memory recording task %u of aclmdlRI %u", ri->n + 1, ri->id);
    }
    ri->tasks = nt;
    ri->cap = cap;
  }
  t->seq = ri->n + 1;
  t->next = NULL;
  if (t->executor_only)
    ri->executor_only = 1;
  ri->tasks[ri->n++] = t;
  acl__handle_register(t, ACL__H_RI_TASK);
  return 0;
}

int acl__graph_capture_begin(const char *api, acl__stream *s, aclmdlRICaptureMode mode) {
  if (s->is_default)
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, __FILE__, __LINE__,
                     "the default stream cannot be captured. Remedy: create a stream with aclrtCreateStream and "
                     "capture that one");
  if ((int)mode < 0 || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "mode %d is not an aclmdlRICaptureMode (0 GLOBAL, 1 THREAD_LOCAL, 2 RELAXED)", (int)mode);
  acl__capture *c = calloc(1, sizeof(*c));
  acl__ri *ri = calloc(1, sizeof(*ri));
  if (c == NULL || ri == NULL) {
    free(c);
    free(ri);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a capture");
  }
  pthread_mutex_init(&ri->lock, NULL);
  ri->dev = s->dev;
  ri->origin = s;
  ri->origin_id = s->id;
  ri->capturing = 1;
  ri->id = atomic_fetch_add(&g_next_id, 1);
  c->ri = ri;
  c->s = s;
  c->mode = mode;
  c->thread = pthread_self();
  pthread_mutex_lock(&s->lock);
  if (s->capture != NULL) {
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_destroy(&ri->lock);
    free(c);
    free(ri);
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURED, __FILE__, __LINE__,
                     "stream %d is already being captured. Remedy: end that capture with aclmdlRICaptureEnd first",
                     s->id);
  }
  __atomic_store_n(&s->capture, c, __ATOMIC_RELAXED);
  pthread_mutex_lock(&g_lock);
  c->next = g_captures;
  g_captures = c;
  atomic_fetch_add(&g_active, 1);
  pthread_mutex_unlock(&g_lock);
  pthread_mutex_unlock(&s->lock);
  acl__handle_register(ri, ACL__H_MODEL_RI);
  ACL__LOGI(ACL__MOD_RUNTIME, "capture of aclmdlRI %u begins on stream %d, mode %s", ri->id, s->id, mode_name(mode));
  return 0;
}

static void ri_free(acl__ri *ri) {
  for (uint32_t i = 0; i < ri->n; i++) {
    acl__task *t = ri->tasks[i];
    acl__handle_unregister(t);
    if (t->release != NULL)
      t->release(t);
    else
      free(t);
  }
  free(ri->tasks);
  for (int i = 0; i < ri->ncbs; i++)
    ri->cbs[i].fn(ri->cbs[i].user);
  free(ri->cbs);
  pthread_mutex_destroy(&ri->lock);
  free(ri);
}

int acl__graph_capture_end(const char *api, acl__stream *s, acl__ri **out) {
  pthread_mutex_lock(&s->lock);
  acl__capture *c = s->capture;
  if (c == NULL) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                     "stream %d is not being captured. Remedy: call aclmdlRICaptureBegin on it first", s->id);
  }
  if (c->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && !pthread_equal(c->thread, pthread_self())) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, __FILE__, __LINE__,
                     "the capture on stream %d was begun by another thread in mode %s; only that thread may end "
                     "it. Remedy: end it on the thread that began it, or capture in RELAXED mode",
                     s->id, mode_name(c->mode));
  }
  __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
  pthread_mutex_lock(&g_lock);
  for (acl__capture **pp = &g_captures; *pp != NULL; pp = &(*pp)->next)
    if (*pp == c) {
      *pp = c->next;
      break;
    }
  atomic_fetch_sub(&g_active, 1);
  pthread_mutex_unlock(&g_lock);
  pthread_mutex_unlock(&s->lock);
  acl__ri *ri = c->ri;
  int invalid = atomic_load(&c->invalid);
  free(c);
  if (invalid) {
    uint32_t id = ri->id;
    acl__handle_unregister(ri);
    ri_free(ri);
    *out = NULL;
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, __FILE__, __LINE__,
                     "the capture of aclmdlRI %u on stream %d was invalidated by a forbidden call made while it was "
                     "active (an earlier error message names it); the model runtime instance is discarded. Remedy: "
                     "capture again without that call, or make it in RELAXED mode",
                     id, s->id);
  }
  pthread_mutex_lock(&ri->lock);
  ri->capturing = 0;
  pthread_mutex_unlock(&ri->lock);
  pthread_mutex_lock(&g_lock);
  ri->next = g_ris;
  g_ris = ri;
  pthread_mutex_unlock(&g_lock);
  ACL__LOGI(ACL__MOD_RUNTIME, "capture of aclmdlRI %u on stream %d ends: %u tasks", ri->id, s->id, ri->n);
  *out = ri;
  return 0;
}

void acl__graph_stream_gone(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *c = s->capture;
  if (c == NULL) {
    pthread_mutex_unlock(&s->lock);
    return;
  }
  __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
  pthread_mutex_lock(&g_lock);
  for (acl__capture **pp = &g_captures; *pp != NULL; pp = &(*pp)->next)
    if (*pp == c) {
      *pp = c->next;
      break;
    }
  atomic_fetch_sub(&g_active, 1);
  pthread_mutex_unlock(&g_lock);
  pthread_mutex_unlock(&s->lock);
  ACL__LOGW(ACL__MOD_RUNTIME, "stream %d destroyed while being captured into aclmdlRI %u: the capture is discarded",
            s->id, c->ri->id);
  acl__handle_unregister(c->ri);
  ri_free(c->ri);
  free(c);
}

int acl__graph_capture_info(acl__stream *s, aclmdlRICaptureStatus *status, acl__ri **ri) {
  pthread_mutex_lock(&s->lock);
  acl__capture *c = s->capture;
  aclmdlRICaptureStatus st = c == NULL                  ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
                             : atomic_load(&c->invalid) ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                        : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  if (status != NULL)
    *status = st;
  if (ri != NULL)
    *ri = st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE ? c->ri : NULL;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

int acl__graph_exchange_mode(aclmdlRICaptureMode *mode) {
  int old = tls_mode;
  tls_mode = (int)*mode;
  *mode = (aclmdlRICaptureMode)old;
  return 0;
}

/* 1 when capture c forbids an unsafe call from this thread (§5.3 modes). */
static int forbids(const acl__capture *c) {
  int self = pthread_equal(c->thread, pthread_self());
  switch (c->mode) {
  case ACL_MODEL_RI_CAPTURE_MODE_GLOBAL:
    return self ? tls_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED : tls_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  case ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:
    return self && tls_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  default:
    return 0;
  }
}

int acl__graph_check_unsafe(const char *api, acl__stream *s) {
  if (atomic_load_explicit(&g_active, memory_order_relaxed) == 0)
    return 0;
  uint32_t id = 0;
  int sid = -1, mode = 0, hit = 0;
  pthread_mutex_lock(&g_lock);
  for (acl__capture *c = g_captures; c != NULL; c = c->next) {
    if (s != NULL && c->s != s)
      continue; /* a stream call concerns that stream's capture only */
    if (!forbids(c))
      continue;
    invalidate(c, api);
    if (!hit) {
      hit = 1;
      id = c->ri->id;
      sid = c->s->id;
      mode = c->mode;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (!hit)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC, __FILE__, __LINE__,
                   "this call is not allowed while stream %d is being captured into aclmdlRI %u in mode %s; the "
                   "capture is now invalidated. Remedy: use the async form on the capturing stream, or switch this "
                   "thread to RELAXED with aclmdlRICaptureThreadExchangeMode around the call",
                   sid, id, mode_name(mode));
}

int acl__graph_refuse(const char *api, acl__stream *s, const char *what) {
  pthread_mutex_lock(&s->lock);
  acl__capture *c = s->capture;
  uint32_t id = c != NULL ? c->ri->id : 0;
  if (c != NULL)
    invalidate(c, api);
  pthread_mutex_unlock(&s->lock);
  if (c == NULL)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "stream %d is being captured into aclmdlRI %u and %s cannot be captured yet (cross-stream capture "
                   "comes in a later slice of issue 14); the capture is now invalidated. Remedy: make the call "
                   "outside the capture",
                   s->id, id, what);
}

/* ---- replay --------------------------------------------------------------- */

/* The replay that held the RI lets it go and wakes the first waiter.
 * `end`: the replay ran to its end (not discarded): it stops counting as
 * queued now, before the stream reports it complete, so that a destroy
 * after a synchronisation succeeds. */
static void ri_exec_finish(ri_exec *e, int end) {
  acl__ri *ri = e->ri;
  e->owner = 0;
  e->pos = 0;
  pthread_mutex_lock(&ri->lock);
  ri->busy = 0;
  if (end) {
    e->done = 1;
    ri->queued--;
  }
  ri_exec *w = ri->waiters;
  if (w != NULL) {
    ri->waiters = w->wnext;
    if (ri->waiters == NULL)
      ri->wtail = NULL;
    w->waiting = 0;
    w->wnext = NULL;
  }
  acl__stream *ws = w != NULL ? w->self->stream : NULL;
  pthread_mutex_unlock(&ri->lock);
  if (ws != NULL)
    acl__stream_unpark(ws);
}

static int ri_exec_run(acl__task *t) {
  ri_exec *e = acl__task_payload(t);
  acl__ri *ri = e->ri;
  if (!e->owner) {
    pthread_mutex_lock(&ri->lock);
    if (ri->busy) {
      if (!e->waiting) {
        e->waiting = 1;
        e->wnext = NULL;
        if (ri->wtail != NULL)
          ri->wtail->wnext = e;
        else
          ri->waiters = e;
        ri->wtail = e;
      }
      pthread_mutex_unlock(&ri->lock);
      return ACL__TASK_PARK;
    }
    ri->busy = 1;
    pthread_mutex_unlock(&ri->lock);
    e->owner = 1;
    e->pos = 0;
  }
  for (; e->pos < ri->n; e->pos++) {
    acl__task *r = ri->tasks[e->pos];
    r->stream = t->stream;
    int rc = r->run(r);
    if (rc == ACL__TASK_PARK)
      return ACL__TASK_PARK;
    if (rc != 0) {
      snprintf(t->what, sizeof(t->what), "aclmdlRI %u task %u (%.30s)", ri->id, e->pos + 1,
               r->what[0] ? r->what : kind_name(r->ri_type));
      ri_exec_finish(e, 1);
      return rc;
    }
  }
  ri_exec_finish(e, 1);
  return 0;
}

static void ri_exec_release(acl__task *t) {
  ri_exec *e = acl__task_payload(t);
  acl__ri *ri = e->ri;
  if (e->done) {
    free(t); /* the RI may be gone already */
    return;
  }
  if (e->owner) {
    /* discarded while parked inside the graph: the recorded task it parked in forgets that wait */
    acl__task *r = ri->tasks[e->pos];
    if (r->cancel != NULL)
      r->cancel(r);
    ri_exec_finish(e, 0);
  }
  pthread_mutex_lock(&ri->lock);
  if (e->waiting) {
    ri_exec *prev = NULL;
    for (ri_exec *w = ri->waiters; w != NULL; prev = w, w = w->wnext)
      if (w == e) {
        if (prev != NULL)
          prev->wnext = e->wnext;
        else
          ri->waiters = e->wnext;
        if (ri->wtail == e)
          ri->wtail = prev;
        break;
      }
  }
  ri->queued--;
  pthread_mutex_unlock(&ri->lock);
  free(t);
}

int acl__graph_execute_async(const char *api, acl__ri *ri, acl__stream *s) {
  if (s->dev != ri->dev)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u was captured on device %d but stream %d is on device %d. Remedy: execute it on a "
                     "stream of device %d",
                     ri->id, (int)ri->dev->id, s->id, (int)s->dev->id, (int)ri->dev->id);
  pthread_mutex_lock(&ri->lock);
  int capturing = ri->capturing;
  if (!capturing)
    ri->queued++;
  pthread_mutex_unlock(&ri->lock);
  if (capturing)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is still being captured. Remedy: end the capture with aclmdlRICaptureEnd first",
                     ri->id);
  acl__task *t = acl__task_new(sizeof(ri_exec), ri_exec_run, NULL);
  if (t == NULL) {
    pthread_mutex_lock(&ri->lock);
    ri->queued--;
    pthread_mutex_unlock(&ri->lock);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a replay task");
  }
  snprintf(t->what, sizeof(t->what), "aclmdlRI %u replay (%u tasks)", ri->id, ri->n);
  t->release = ri_exec_release;
  t->executor_only = ri->executor_only;
  ri_exec *e = acl__task_payload(t);
  e->ri = ri;
  e->self = t;
  int rc = acl__stream_submit(s, t); /* releases the task on failure */
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed; nothing more can be queued on it",
                     s->id);
  return rc; /* a capture refused it: recorded already */
}

/* ---- lifetime, names, queries ------------------------------------------------ */

int acl__graph_destroy(const char *api, acl__ri *ri) {
  pthread_mutex_lock(&ri->lock);
  int capturing = ri->capturing, queued = ri->queued;
  pthread_mutex_unlock(&ri->lock);
  if (capturing)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is still being captured. Remedy: end the capture with aclmdlRICaptureEnd first",
                     ri->id);
  if (queued > 0)
    return acl__fail(api, ACL_ERROR_RT_MODEL_RUNNING, __FILE__, __LINE__,
                     "aclmdlRI %u has %d replay(s) queued or running. Remedy: synchronize the streams it was "
                     "executed on before destroying it",
                     ri->id, queued);
  pthread_mutex_lock(&g_lock);
  for (acl__ri **pp = &g_ris; *pp != NULL; pp = &(*pp)->next)
    if (*pp == ri) {
      *pp = ri->next;
      break;
    }
  pthread_mutex_unlock(&g_lock);
  acl__handle_unregister(ri);
  ri_free(ri);
  return 0;
}

void acl__graph_finalize(void) {
  /* aclFinalize, after every stream is gone: no replay runs any more */
  for (;;) {
    pthread_mutex_lock(&g_lock);
    acl__ri *ri = g_ris, **pp = &g_ris;
    while (ri != NULL && ri->queued > 0) { /* a replay task outlived its stream: keep its RI */
      pp = &ri->next;
      ri = ri->next;
    }
    if (ri != NULL)
      *pp = ri->next;
    pthread_mutex_unlock(&g_lock);
    if (ri == NULL)
      return;
    ACL__LOGW(ACL__MOD_RUNTIME, "aclFinalize: aclmdlRI %u (%u tasks) was not destroyed; destroyed now", ri->id,
              ri->n);
    acl__handle_unregister(ri);
    ri_free(ri);
  }
}

int acl__graph_callback(const char *api, acl__ri *ri, aclrtCallback fn, void *user, int add) {
  int rc = 0;
  pthread_mutex_lock(&ri->lock);
  if (add) {
    ri_cb *n = realloc(ri->cbs, (size_t)(ri->ncbs + 1) * sizeof(*n));
    if (n == NULL) {
      rc = ACL_ERROR_BAD_ALLOC;
    } else {
      ri->cbs = n;
      ri->cbs[ri->ncbs].fn = fn;
      ri->cbs[ri->ncbs].user = user;
      ri->ncbs++;
    }
  } else {
    int found = 0;
    for (int i = 0; i < ri->ncbs; i++)
      if (ri->cbs[i].fn == fn) {
        memmove(&ri->cbs[i], &ri->cbs[i + 1], (size_t)(ri->ncbs - i - 1) * sizeof(ri_cb));
        ri->ncbs--;
        found = 1;
        break;
      }
    if (!found)
      rc = ACL_ERROR_RT_PARAM_INVALID;
  }
  uint32_t id = ri->id;
  pthread_mutex_unlock(&ri->lock);
  if (rc == ACL_ERROR_BAD_ALLOC)
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory for a destroy callback");
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__,
                     "this function is not registered as a destroy callback of aclmdlRI %u. Remedy: pass the "
                     "function given to aclmdlRIDestroyRegisterCallback",
                     id);
  return 0;
}

int acl__graph_set_name(acl__ri *ri, const char *name) {
  pthread_mutex_lock(&ri->lock);
  snprintf(ri->name, sizeof(ri->name), "%s", name);
  pthread_mutex_unlock(&ri->lock);
  return 0;
}

int acl__graph_get_name(const char *api, acl__ri *ri, uint32_t max_len, char *name) {
  pthread_mutex_lock(&ri->lock);
  size_t len = strlen(ri->name);
  int ok = (size_t)max_len >= len + 1;
  if (ok)
    memcpy(name, ri->name, len + 1);
  pthread_mutex_unlock(&ri->lock);
  if (!ok)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "maxLen %u is too small for the name of aclmdlRI %u (%zu bytes with its terminating NUL). "
                     "Remedy: pass a buffer of at least %zu bytes (512 holds any name)",
                     max_len, ri->id, len + 1, len + 1);
  return 0;
}

uint32_t acl__graph_id(acl__ri *ri) { return ri->id; }
acl__stream *acl__graph_origin(acl__ri *ri) { return ri->origin; }

int acl__graph_tasks_of_stream(acl__stream *s, aclmdlRITask *tasks, uint32_t *n) {
  pthread_mutex_lock(&g_lock);
  acl__ri *ri = g_ris;
  while (ri != NULL && ri->origin != s)
    ri = ri->next;
  uint32_t total = ri != NULL ? ri->n : 0, give = total;
  int small = 0;
  if (tasks != NULL) {
    if (*n < total) {
      give = *n;
      small = 1;
    }
    for (uint32_t i = 0; i < give; i++)
      tasks[i] = ri->tasks[i];
    for (uint32_t i = give; i < *n; i++)
      tasks[i] = NULL;
  }
  *n = give;
  pthread_mutex_unlock(&g_lock);
  return small;
}

uint32_t acl__graph_task_seq(acl__task *t) { return (uint32_t)t->seq; }

int acl__graph_debug_print(acl__ri *ri) {
  ACL__LOGI(ACL__MOD_RUNTIME, "aclmdlRI %u \"%s\": captured on stream %d, %u tasks", ri->id, ri->name,
            (int)ri->origin_id, ri->n);
  for (uint32_t i = 0; i < ri->n; i++)
    ACL__LOGI(ACL__MOD_RUNTIME, "  task %u: %s, %s", i + 1, kind_name(ri->tasks[i]->ri_type), ri->tasks[i]->what);
  return 0;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s != '\0'; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

int acl__graph_debug_json(const char *api, acl__ri *ri, const char *path, uint32_t flags) {
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__,
                     "cannot write '%s': %s. Remedy: pass a file path in an existing, writable directory", path,
                     strerror(errno));
  fputs("[\n", f);
  for (uint32_t i = 0; i < ri->n; i++) {
    acl__task *t = ri->tasks[i];
    fputs("  {\"name\": ", f);
    json_str(f, t->what[0] ? t->what : kind_name(t->ri_type));
    fputs(", \"cat\": ", f);
    json_str(f, kind_name(t->ri_type));
    fprintf(f, ", \"ph\": \"X\", \"ts\": %u, \"dur\": 1, \"pid\": %d, \"tid\": %d, \"args\": {\"seq\": %u", i,
            ri->dev->id, (int)ri->origin_id, i + 1);
    if (flags & ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
      fputs(", \"model\": ", f);
      json_str(f, ri->name);
      fprintf(f, ", \"model_id\": %u, \"host_only\": %s", ri->id, t->executor_only ? "true" : "false");
    }
    fprintf(f, "}}%s\n", i + 1 < ri->n ? "," : "");
  }
  fputs("]\n", f);
  if (fclose(f) != 0)
    return acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__, "writing '%s' failed: %s", path, strerror(errno));
  return 0;
}
