/*
 * graph_replay.c - running a model runtime instance.
 *
 * aclmdlRIExecuteAsync queues one replay task on the executing stream.  A
 * replay is a set of runners: the replay task itself walks the RI's main
 * lane (its first HEAD lane), and every other HEAD lane gets a runner task
 * on that lane's internal stream, so lanes run concurrently, as the streams
 * they were recorded from did.  aclrtActiveStream starts one more runner.
 * A runner runs the recorded tasks of its lane in order; a task that parks
 * parks the runner (and so its stream) and is run again when woken.
 * Control tasks act on the runner: an internal edge (a captured event
 * record) releases the runners waiting for it, a switch moves the runner
 * to another lane or label, a cond task pushes a branch frame, the end
 * task stops it.  The replay task ends when every runner has ended; it
 * fails with the first error a runner met (which also stops the others).
 *
 * One replay of an RI at a time: a replay task that finds the RI busy waits
 * in ri->waiters (parked) and the replay that finishes wakes the first.
 * Per-replay state (edge generations, runner count, first error) lives in
 * the RI for that reason.
 *
 * Discard (the executing stream aborted, aclmdlRIExecute's timeout): the
 * replay task's release marks the replay aborting, makes the recorded task
 * it parked in forget its wait, and wakes the other runners, which end at
 * their next step (cancelling their own parked task); the last one frees
 * the RI for the next replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph_impl.h"

_Thread_local ri_runner *acl__ri_cur;

/* The replay task's payload. */
typedef struct ri_exec {
  ri_runner r;      /* the main runner (r.self = the replay task) */
  int owner;        /* this replay holds the RI (ri->busy) */
  int main_ended;   /* the main runner has ended and left ri->runners */
  int done;         /* ran to its end: the RI may be destroyed before the task is released */
  int waiting;      /* in ri->waiters (ri->lock) */
  struct ri_exec *wnext;
  uint32_t n_ext;
  uint64_t ext_seq[]; /* the sequence numbers of the RI's EXTERNAL records in this replay */
} ri_exec;

/* ---- runners -------------------------------------------------------------------- */

/* ri->lock held: the replay stops (an error, or its task was discarded):
 * every runner ends at its next step.  Returns the streams to wake (the
 * caller unparks them once the lock is dropped, then frees the array). */
static acl__stream **stop_all_locked(acl__ri *ri, int rc, const char *what, int *n) {
  if (rc != 0 && ri->first_error == 0) {
    ri->first_error = rc;
    snprintf(ri->error_what, sizeof(ri->error_what), "%s", what);
  }
  __atomic_store_n(&ri->aborting, 1, __ATOMIC_RELEASE);
  for (ri_runner *w = ri->edge_waiters; w != NULL; w = w->wnext)
    w->parked_edge = 0;
  ri->edge_waiters = NULL;
  *n = 0;
  acl__stream **wake = malloc((size_t)(ri->nlive + 1) * sizeof(*wake));
  if (wake == NULL)
    return NULL; /* they end when their wait ends */
  for (int i = 0; i < ri->nlive; i++)
    wake[(*n)++] = ri->live[i]->self->stream;
  if (ri->main_runner != NULL)
    wake[(*n)++] = ri->main_runner->self->stream;
  return wake;
}

static void wake_all(acl__stream **wake, int n) {
  for (int i = 0; i < n; i++)
    acl__stream_unpark(wake[i]);
  free(wake);
}

/* Runs r until it ends (0 / an error) or parks (ACL__TASK_PARK). */
static int runner_go(ri_runner *r) {
  acl__ri *ri = r->ri;
  while (r->depth > 0) {
    if (__atomic_load_n(&ri->aborting, __ATOMIC_ACQUIRE)) {
      if (r->parked_in != NULL && r->parked_in->cancel != NULL)
        r->parked_in->cancel(r->parked_in);
      r->parked_in = NULL;
      r->depth = 0;
      return 0;
    }
    ri_frame *f = &r->st[r->depth - 1];
    if (f->pos >= f->lane->n) {
      r->depth--;
      continue;
    }
    if (f->lane->off != NULL && f->lane->off[f->pos]) { /* disabled */
      f->pos++;
      continue;
    }
    acl__task *t = __atomic_load_n(&f->lane->tasks[f->pos], __ATOMIC_ACQUIRE); /* a group update swaps them */
    t->stream = r->self->stream;
    acl__ri_cur = r;
    int rc = t->run(t);
    acl__ri_cur = NULL;
    r->parked_in = NULL;
    if (rc == 0) {
      f->pos++;
    } else if (rc == RI_CTL_JUMPED) {
      /* the control task moved the runner */
    } else if (rc == RI_CTL_END) {
      r->depth = 0;
    } else if (rc == ACL__TASK_PARK) {
      r->parked_in = t;
      return ACL__TASK_PARK;
    } else {
      char what[64];
      snprintf(what, sizeof(what), "aclmdlRI %u task %u of stream %d (%.24s)", f->lane->ri->id, f->pos + 1,
               (int)f->lane->sid, t->what[0] ? t->what : acl__graph_kind_name(t->ri_type));
      int n = 0;
      pthread_mutex_lock(&ri->lock);
      acl__stream **wake = stop_all_locked(ri, rc, what, &n);
      pthread_mutex_unlock(&ri->lock);
      wake_all(wake, n);
      r->depth = 0;
      return rc;
    }
  }
  return 0;
}

/* ri->lock held: the RI is free for the next replay; returns the stream
 * of the replay to wake (or NULL). */
static acl__stream *ri_release_locked(acl__ri *ri) {
  /* a runner discarded while it waited for an edge that never came (a
   * built graph whose recorder was never activated) leaves no trace */
  for (ri_runner *w = ri->edge_waiters; w != NULL; w = w->wnext)
    w->parked_edge = 0;
  ri->edge_waiters = NULL;
  ri->busy = 0;
  __atomic_store_n(&ri->aborting, 0, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&ri->idle);
  ri_exec *w = ri->waiters;
  if (w == NULL)
    return NULL;
  ri->waiters = w->wnext;
  if (ri->waiters == NULL)
    ri->wtail = NULL;
  w->waiting = 0;
  w->wnext = NULL;
  return w->r.self->stream;
}

/* A runner other than the main one ended (ri->lock taken here). */
static void runner_ended(ri_runner *r) {
  acl__ri *ri = r->ri;
  acl__stream *wake = NULL, *next = NULL;
  pthread_mutex_lock(&ri->lock);
  for (int i = 0; i < ri->nlive; i++)
    if (ri->live[i] == r) {
      ri->live[i] = ri->live[--ri->nlive];
      break;
    }
  if (--ri->runners == 0) {
    wake = ri->main_parked;
    ri->main_parked = NULL;
    if (ri->main_gone) /* the replay task was discarded: nobody else frees the RI */
      next = ri_release_locked(ri);
  }
  pthread_mutex_unlock(&ri->lock);
  if (wake != NULL)
    acl__stream_unpark(wake);
  if (next != NULL)
    acl__stream_unpark(next);
}

typedef struct ri_lane_run {
  ri_runner r;
} ri_lane_run;

static int lane_task_run(acl__task *t) {
  ri_lane_run *lr = acl__task_payload(t);
  int rc = runner_go(&lr->r);
  if (rc == ACL__TASK_PARK)
    return rc;
  runner_ended(&lr->r);
  return 0; /* an error is the replay's: the replay task reports it */
}

int acl__ri_start_runner(acl__ri *ri, ri_lane *lane) {
  if (lane->runner == NULL)
    return ACL_ERROR_RT_PARAM_INVALID; /* a branch lane: runs only inside its cond task */
  acl__task *t = acl__task_new(sizeof(ri_lane_run), lane_task_run, NULL);
  if (t == NULL)
    return ACL_ERROR_BAD_ALLOC;
  snprintf(t->what, sizeof(t->what), "aclmdlRI %u stream %d", ri->id, (int)lane->sid);
  t->executor_only = ri->executor_only;
  ri_lane_run *lr = acl__task_payload(t);
  lr->r.ri = ri;
  lr->r.self = t;
  lr->r.st[0].lane = lane;
  lr->r.st[0].pos = 0;
  lr->r.depth = 1;
  pthread_mutex_lock(&ri->lock);
  if (ri->nlive == ri->cap_live) {
    int cap = ri->cap_live ? ri->cap_live * 2 : 8;
    ri_runner **nl = realloc(ri->live, (size_t)cap * sizeof(*nl));
    if (nl == NULL) {
      pthread_mutex_unlock(&ri->lock);
      free(t);
      return ACL_ERROR_BAD_ALLOC;
    }
    ri->live = nl;
    ri->cap_live = cap;
  }
  ri->live[ri->nlive++] = &lr->r;
  ri->runners++;
  pthread_mutex_unlock(&ri->lock);
  if (acl__stream_submit(lane->runner, t) != 0) { /* released it */
    pthread_mutex_lock(&ri->lock);
    for (int i = 0; i < ri->nlive; i++)
      if (ri->live[i] == &lr->r) {
        ri->live[i] = ri->live[--ri->nlive];
        break;
      }
    ri->runners--;
    pthread_mutex_unlock(&ri->lock);
    return ACL_ERROR_RT_STREAM_CONTEXT;
  }
  return 0;
}

/* ---- the replay task --------------------------------------------------------------- */

static void replay_start(ri_exec *e) {
  acl__ri *ri = e->r.ri;
  pthread_mutex_lock(&ri->lock);
  ri->gen++;
  ri->runners = 1; /* the main runner */
  ri->first_error = 0;
  __atomic_store_n(&ri->aborting, 0, __ATOMIC_RELEASE);
  ri->main_gone = 0;
  ri->main_parked = NULL;
  ri->main_runner = &e->r;
  pthread_mutex_unlock(&ri->lock);
  for (uint32_t i = 0; i < e->n_ext; i++)
    acl__event_task_set_seq(ri->ext_records[i], e->ext_seq[i]);
  acl__ri_cond_reset(ri);
  e->r.depth = 0;
  if (ri->main != NULL) {
    e->r.st[0].lane = ri->main;
    e->r.st[0].pos = 0;
    e->r.depth = 1;
  }
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    if (l == ri->main || l->flag != ACL_MODEL_STREAM_FLAG_HEAD)
      continue;
    int rc = acl__ri_start_runner(ri, l);
    if (rc != 0) {
      int n = 0;
      pthread_mutex_lock(&ri->lock);
      acl__stream **wake = stop_all_locked(ri, rc, "starting a stream of the replay", &n);
      pthread_mutex_unlock(&ri->lock);
      wake_all(wake, n);
      break;
    }
  }
}

static int ri_exec_run(acl__task *t) {
  ri_exec *e = acl__task_payload(t);
  acl__ri *ri = e->r.ri;
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
    e->main_ended = 0;
    replay_start(e);
  }
  if (!e->main_ended) {
    if (runner_go(&e->r) == ACL__TASK_PARK)
      return ACL__TASK_PARK;
    e->main_ended = 1;
    pthread_mutex_lock(&ri->lock);
    ri->runners--;
    ri->main_runner = NULL;
    pthread_mutex_unlock(&ri->lock);
  }
  pthread_mutex_lock(&ri->lock);
  if (ri->runners > 0) { /* the other lanes are still going: the last one wakes us */
    ri->main_parked = t->stream;
    pthread_mutex_unlock(&ri->lock);
    return ACL__TASK_PARK;
  }
  int rc = ri->first_error;
  if (rc != 0)
    snprintf(t->what, sizeof(t->what), "%s", ri->error_what);
  e->owner = 0;
  e->done = 1;
  ri->queued--;
  acl__stream *next = ri_release_locked(ri);
  pthread_mutex_unlock(&ri->lock);
  if (next != NULL)
    acl__stream_unpark(next);
  return rc;
}

static void ri_exec_release(acl__task *t) {
  ri_exec *e = acl__task_payload(t);
  acl__ri *ri = e->r.ri;
  if (e->done) {
    free(t); /* the RI may be gone already */
    return;
  }
  acl__stream *next = NULL;
  if (e->owner) {
    /* discarded inside the replay: the task it parked in forgets its wait,
     * the other runners stop, the last one frees the RI */
    if (e->r.parked_in != NULL && e->r.parked_in->cancel != NULL)
      e->r.parked_in->cancel(e->r.parked_in);
    int n = 0;
    acl__stream **wake = NULL;
    pthread_mutex_lock(&ri->lock);
    ri->main_parked = NULL;
    ri->main_runner = NULL;
    if (!e->main_ended)
      ri->runners--;
    if (ri->runners == 0) {
      next = ri_release_locked(ri);
    } else {
      ri->main_gone = 1;
      wake = stop_all_locked(ri, 0, NULL, &n);
    }
    pthread_mutex_unlock(&ri->lock);
    wake_all(wake, n);
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
  if (next != NULL)
    acl__stream_unpark(next);
  free(t);
}

int acl__graph_execute_async(const char *api, acl__ri *ri, acl__stream *s) {
  if (s->ctx != ri->ctx)
    return acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                     "aclmdlRI %u belongs to a context of device %d, and stream %d to another context (device %d). "
                     "Remedy: execute it on a stream of the context it was captured or built in",
                     ri->id, (int)ri->dev->id, s->id, (int)s->dev->id);
  if (ri->kind == RI_BRANCH)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is a branch of a conditional task; it runs only inside its root model runtime "
                     "instance. Remedy: execute the root",
                     ri->id);
  pthread_mutex_lock(&ri->lock);
  int recording = ri->recording;
  if (!recording)
    ri->queued++;
  pthread_mutex_unlock(&ri->lock);
  if (recording)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is still being captured or built. Remedy: end it with aclmdlRICaptureEnd or "
                     "aclmdlRIBuildEnd first",
                     ri->id);
  acl__task *t = acl__task_new(sizeof(ri_exec) + ri->n_ext * sizeof(uint64_t), ri_exec_run, NULL);
  if (t == NULL) {
    pthread_mutex_lock(&ri->lock);
    ri->queued--;
    pthread_mutex_unlock(&ri->lock);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a replay task");
  }
  snprintf(t->what, sizeof(t->what), "aclmdlRI %u replay", ri->id);
  t->release = ri_exec_release;
  t->executor_only = ri->executor_only;
  ri_exec *e = acl__task_payload(t);
  e->r.ri = ri;
  e->r.self = t;
  /* EXTERNAL records are numbered now, so that a wait queued after this
   * call waits for this replay's record */
  e->n_ext = ri->n_ext;
  for (uint32_t i = 0; i < ri->n_ext; i++)
    e->ext_seq[i] = acl__event_task_take_seq(ri->ext_records[i]);
  int rc = acl__stream_submit(s, t); /* releases the task on failure */
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed; nothing more can be queued on it",
                     s->id);
  return rc; /* a capture refused it: recorded already */
}

int acl__ri_abort(acl__ri *ri, int rc) {
  int n = 0;
  acl__stream **wake = NULL;
  pthread_mutex_lock(&ri->lock);
  int running = ri->busy;
  if (running)
    wake = stop_all_locked(ri, rc, "aclmdlRIAbort", &n);
  pthread_mutex_unlock(&ri->lock);
  wake_all(wake, n);
  return running;
}

/* ---- internal edges: a captured event record and the waits on it -------------------- */

typedef struct ri_edge {
  acl__ri *owner;
  uint32_t k;
} ri_edge;

static int edge_record_run(acl__task *t) {
  ri_edge *ed = acl__task_payload(t);
  ri_runner *cur = acl__ri_cur;
  acl__ri *root = cur->ri;
  acl__stream *wake[16];
  int nw = 0;
  for (;;) {
    pthread_mutex_lock(&root->lock);
    ed->owner->edge_gen[ed->k] = root->gen;
    nw = 0;
    for (ri_runner **pp = &root->edge_waiters; *pp != NULL && nw < 16;) {
      ri_runner *w = *pp;
      if (w->wait_edge == ed->k) {
        *pp = w->wnext;
        w->parked_edge = 0;
        wake[nw++] = w->self->stream;
      } else {
        pp = &w->wnext;
      }
    }
    pthread_mutex_unlock(&root->lock);
    for (int i = 0; i < nw; i++)
      acl__stream_unpark(wake[i]);
    if (nw < 16)
      return 0;
  }
}

static int edge_wait_run(acl__task *t) {
  ri_edge *ed = acl__task_payload(t);
  ri_runner *cur = acl__ri_cur;
  acl__ri *root = cur->ri;
  pthread_mutex_lock(&root->lock);
  if (ed->owner->edge_gen[ed->k] == root->gen) {
    pthread_mutex_unlock(&root->lock);
    return 0;
  }
  if (!cur->parked_edge) {
    cur->parked_edge = 1;
    cur->wait_edge = ed->k;
    cur->wnext = root->edge_waiters;
    root->edge_waiters = cur;
  }
  pthread_mutex_unlock(&root->lock);
  return ACL__TASK_PARK;
}

acl__task *acl__ri_edge_task(acl__ri *owner, uint32_t k, int wait) {
  acl__task *t = acl__ri_ctl_new(sizeof(ri_edge), wait ? edge_wait_run : edge_record_run, NULL);
  if (t == NULL)
    return NULL;
  snprintf(t->what, sizeof(t->what), "event %s (edge %u)", wait ? "wait" : "record", k);
  t->ri_type = wait ? ACL_MODEL_RI_TASK_EVENT_WAIT : ACL_MODEL_RI_TASK_EVENT_RECORD;
  ri_edge *ed = acl__task_payload(t);
  ed->owner = owner;
  ed->k = k;
  return t;
}

int acl__ri_edge_of(acl__task *t, uint32_t *k, int *wait) {
  if (t->run != edge_record_run && t->run != edge_wait_run)
    return 0;
  ri_edge *ed = acl__task_payload(t);
  *k = ed->k;
  *wait = t->run == edge_wait_run;
  return 1;
}
