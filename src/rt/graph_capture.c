/*
 * graph_capture.c - filling a model runtime instance by capturing streams.
 *
 * aclmdlRICaptureBegin opens a session on its origin stream and hooks the
 * stream (s->capture): from then on acl__stream_submit_seq hands each task
 * to acl__graph_capture_task_locked, which appends it to the stream's lane
 * instead of queuing it.  Only tasks whose submitter set ri_ok are taken
 * (they can run many times and keep nothing from their submission); any
 * other invalidates the capture, and CaptureEnd then fails with 507903.
 * Streams bound in build mode (graph_build.c) have the same hook without a
 * session.
 *
 * Cross-stream capture: an event recorded on a hooked stream becomes an
 * internal edge of the RI (the event remembers the RI and edge).  A stream
 * that waits on it gets an edge wait; a stream not yet captured joins the
 * session with a lane of its own.  CaptureEnd requires every joined lane to
 * end with a record that a joined lane waits for (107025 otherwise).
 * EXTERNAL records and waits (the flags, or an event made with
 * ACL_EVENT_EXTERNAL) are real event tasks recorded in the lane (event.c).
 *
 * Locks (graph_impl.h): stream lock -> acl__g_lock -> RI lock; an event
 * lock is taken alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph_impl.h"

static ri_session *g_sessions; /* acl__g_lock */
static atomic_int g_active;    /* number of active sessions: the fast path of the unsafe check */
static atomic_ullong g_next_session = 1;
static _Thread_local int tls_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

static const char *mode_name(int m) {
  return m == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL         ? "GLOBAL"
         : m == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ? "THREAD_LOCAL"
                                                       : "RELAXED";
}

static void invalidate(ri_session *cs, const char *why) {
  if (atomic_exchange(&cs->invalid, 1) == 0)
    ACL__LOGW(ACL__MOD_RUNTIME, "capture of aclmdlRI %u on stream %d invalidated: %s", cs->ri->id,
              (int)cs->origin->lane->sid, why);
}

/* ---- recording ------------------------------------------------------------------ */

int acl__graph_capture_task_locked(acl__stream *s, acl__task *t) {
  acl__capture *h = s->capture;
  acl__ri *ri = h->ri;
  if (h->grp != NULL)
    return acl__ri_update_collect_locked(h, t);
  acl__capture *grp = h->cs != NULL ? __atomic_load_n(&h->cs->grp_hook, __ATOMIC_ACQUIRE) : NULL;
  if (grp != NULL && grp != h) {
    invalidate(h->cs, "a task on another stream while a task group was open");
    return acl__fail("capture", ACL_ERROR_STREAM_TASK_GROUP_INTR, __FILE__, __LINE__,
                     "stream %d received a task while stream %d has a task group open in the capture of aclmdlRI "
                     "%u; the capture is now invalidated. Remedy: end the group (aclmdlRICaptureTaskGrpEnd) first",
                     s->id, (int)grp->lane->sid, ri->id);
  }
  if (grp == h && t->ri_type != ACL_MODEL_RI_TASK_KERNEL) {
    invalidate(h->cs, "a task group holds kernel launches only");
    return acl__fail("capture", ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, __FILE__, __LINE__,
                     "a task group holds single-operator kernel launches (aclrtLaunchKernel*, aclnn operators), "
                     "and this task (%s) is not one; the capture is now invalidated",
                     t->what[0] ? t->what : "unnamed task");
  }
  if (h->cs == NULL && h->sealed)
    return acl__fail("build", ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                     "stream %d is bound to aclmdlRI %u, whose build has ended (aclmdlRIBuildEnd); no more tasks "
                     "can be added. Remedy: unbind the stream (aclmdlRIUnbindStream) to use it normally",
                     s->id, ri->id);
  if (!t->ri_ok) {
    if (h->cs != NULL)
      invalidate(h->cs, t->what[0] ? t->what : "a task that cannot be recorded");
    return acl__fail("capture", ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "stream %d records into aclmdlRI %u, and this task (%s) cannot be recorded%s. Remedy: submit "
                     "it outside the model runtime instance; docs/graphs.md lists what can be recorded",
                     s->id, ri->id, t->what[0] ? t->what : "unnamed task",
                     h->cs != NULL ? "; the capture is now invalidated (aclmdlRICaptureEnd returns 507903)" : "");
  }
  if (acl__ri_append_locked(h, t) != 0) {
    if (h->cs != NULL)
      invalidate(h->cs, "out of host memory");
    return acl__fail("capture", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory recording task %u of aclmdlRI %u", h->lane->n + 1, ri->id);
  }
  return 0;
}

/* ---- sessions ------------------------------------------------------------------- */

static int begin_on(const char *api, acl__stream *s, acl__ri *ri, aclmdlRICaptureMode mode) {
  ri_session *cs = calloc(1, sizeof(*cs));
  acl__capture *h = calloc(1, sizeof(*h));
  ri_lane *lane = NULL;
  if (cs == NULL || h == NULL || (lane = acl__ri_add_lane(ri, s, ACL_MODEL_STREAM_FLAG_HEAD)) == NULL) {
    free(cs);
    free(h);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a capture");
  }
  cs->id = atomic_fetch_add(&g_next_session, 1);
  cs->ri = ri;
  cs->origin = h;
  cs->mode = mode;
  cs->thread = pthread_self();
  cs->hooks = h;
  h->ri = ri;
  h->lane = lane;
  h->s = s;
  h->cs = cs;
  pthread_mutex_lock(&s->lock);
  if (s->capture != NULL) {
    int built = s->capture->cs == NULL;
    pthread_mutex_unlock(&s->lock);
    ri->nlanes--;
    free(lane);
    free(cs);
    free(h);
    if (built)
      return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURED, __FILE__, __LINE__,
                       "stream %d is bound to a model runtime instance in build mode. Remedy: capture another "
                       "stream",
                       s->id);
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURED, __FILE__, __LINE__,
                     "stream %d is already being captured. Remedy: end that capture with aclmdlRICaptureEnd first",
                     s->id);
  }
  __atomic_store_n(&s->capture, h, __ATOMIC_RELAXED);
  pthread_mutex_lock(&acl__g_lock);
  cs->next = g_sessions;
  g_sessions = cs;
  atomic_fetch_add(&g_active, 1);
  pthread_mutex_unlock(&acl__g_lock);
  pthread_mutex_unlock(&s->lock);
  ACL__LOGI(ACL__MOD_RUNTIME, "capture of aclmdlRI %u begins on stream %d, mode %s", ri->id, s->id, mode_name(mode));
  return 0;
}

static int check_capturable(const char *api, acl__stream *s, aclmdlRICaptureMode mode) {
  if (s->is_default)
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, __FILE__, __LINE__,
                     "the default stream cannot be captured. Remedy: create a stream with aclrtCreateStream and "
                     "capture that one");
  if ((int)mode < 0 || mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "mode %d is not an aclmdlRICaptureMode (0 GLOBAL, 1 THREAD_LOCAL, 2 RELAXED)", (int)mode);
  return 0;
}

int acl__graph_capture_begin(const char *api, acl__stream *s, aclmdlRICaptureMode mode) {
  int rc = check_capturable(api, s, mode);
  if (rc != 0)
    return rc;
  acl__ri *ri = acl__ri_new(s->ctx, RI_CAPTURED);
  if (ri == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a capture");
  if ((rc = begin_on(api, s, ri, mode)) != 0) {
    acl__ri_free(ri);
    return rc;
  }
  acl__handle_register(ri, ACL__H_MODEL_RI);
  return 0;
}

int acl__graph_capture_into(const char *api, acl__stream *s, acl__ri *ri, aclmdlRICaptureMode mode) {
  int rc = check_capturable(api, s, mode);
  if (rc != 0)
    return rc;
  if (ri->kind != RI_BRANCH)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is not a branch made by aclmdlRIAddCondTask. Remedy: capture a new model runtime "
                     "instance with aclmdlRICaptureBegin",
                     ri->id);
  pthread_mutex_lock(&acl__g_lock);
  int taken = ri->nlanes > 0 || !ri->recording;
  pthread_mutex_unlock(&acl__g_lock);
  if (taken)
    return acl__fail(api, ACL_ERROR_RT_MODEL_CAPTURED, __FILE__, __LINE__,
                     "branch aclmdlRI %u has been captured already. Remedy: capture each branch once", ri->id);
  if (s->ctx != ri->ctx)
    return acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                     "stream %d is not in the context of aclmdlRI %u", s->id, ri->id);
  pthread_mutex_lock(&ri->parent->lock);
  ri->parent->capturing_branches++;
  pthread_mutex_unlock(&ri->parent->lock);
  if ((rc = begin_on(api, s, ri, mode)) != 0) {
    pthread_mutex_lock(&ri->parent->lock);
    ri->parent->capturing_branches--;
    pthread_mutex_unlock(&ri->parent->lock);
  }
  return rc;
}

/* Takes cs off the active list and unhooks all its streams; `s` (the
 * origin, locked by the caller) is unhooked by the caller. */
static void session_close(ri_session *cs, acl__stream *origin_locked) {
  pthread_mutex_lock(&acl__g_lock);
  for (ri_session **pp = &g_sessions; *pp != NULL; pp = &(*pp)->next)
    if (*pp == cs) {
      *pp = cs->next;
      break;
    }
  atomic_fetch_sub(&g_active, 1);
  acl__capture *hooks = cs->hooks;
  cs->hooks = NULL;
  pthread_mutex_unlock(&acl__g_lock);
  for (acl__capture *h = hooks, *next; h != NULL; h = next) {
    next = h->snext;
    if (h->s != origin_locked) {
      pthread_mutex_lock(&h->s->lock);
      if (h->s->capture == h)
        __atomic_store_n(&h->s->capture, NULL, __ATOMIC_RELAXED);
      pthread_mutex_unlock(&h->s->lock);
    }
    if (h != cs->origin)
      free(h);
  }
}

/* 0 when every lane but the origin's joins back to it: its last task is a
 * record that a joined lane waits for. */
static int unjoined_lane(acl__ri *ri) {
  uint32_t n = ri->nlanes;
  char *joined = calloc(n, 1);
  if (joined == NULL)
    return -1;
  joined[0] = 1; /* the origin */
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = 1; i < n; i++) {
      ri_lane *l = ri->lanes[i];
      uint32_t k = 0;
      int wait = 0;
      if (joined[i] || l->n == 0 || !acl__ri_edge_of(l->tasks[l->n - 1], &k, &wait) || wait)
        continue;
      for (uint32_t j = 0; j < n && !joined[i]; j++) {
        if (!joined[j])
          continue;
        for (uint32_t x = 0; x < ri->lanes[j]->n; x++) {
          uint32_t k2 = 0;
          int w2 = 0;
          if (acl__ri_edge_of(ri->lanes[j]->tasks[x], &k2, &w2) && w2 && k2 == k) {
            joined[i] = 1;
            changed = 1;
            break;
          }
        }
      }
    }
  }
  int bad = 0;
  for (uint32_t i = 1; i < n && bad == 0; i++)
    if (!joined[i])
      bad = (int)i;
  free(joined);
  return bad;
}

int acl__graph_capture_end(const char *api, acl__stream *s, acl__ri **out) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  if (h == NULL || h->cs == NULL) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                     "stream %d is not being captured%s. Remedy: call aclmdlRICaptureBegin on it first", s->id,
                     h != NULL ? " (it is bound to a model runtime instance in build mode)" : "");
  }
  ri_session *cs = h->cs;
  if (h != cs->origin) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, __FILE__, __LINE__,
                     "stream %d joined the capture of aclmdlRI %u through an event; only the stream the capture "
                     "began on (stream %d) can end it",
                     s->id, cs->ri->id, (int)cs->origin->lane->sid);
  }
  if (cs->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && !pthread_equal(cs->thread, pthread_self())) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, __FILE__, __LINE__,
                     "the capture on stream %d was begun by another thread in mode %s; only that thread may end "
                     "it. Remedy: end it on the thread that began it, or capture in RELAXED mode",
                     s->id, mode_name(cs->mode));
  }
  acl__ri *ri = cs->ri;
  pthread_mutex_lock(&ri->lock);
  int branches = ri->capturing_branches;
  pthread_mutex_unlock(&ri->lock);
  if (branches > 0) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, __FILE__, __LINE__,
                     "%d branch(es) of the conditional tasks of aclmdlRI %u are still being captured. Remedy: end "
                     "each branch capture (aclmdlRICaptureEnd on its stream) first",
                     branches, ri->id);
  }
  __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
  session_close(cs, s);
  pthread_mutex_unlock(&s->lock);
  int invalid = atomic_load(&cs->invalid);
  free(cs->origin);
  free(cs);
  int rc = 0;
  int bad = invalid ? 0 : unjoined_lane(ri);
  if (invalid)
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, __FILE__, __LINE__,
                   "the capture of aclmdlRI %u on stream %d was invalidated by a forbidden call made while it was "
                   "active (an earlier error message names it); the model runtime instance is discarded. Remedy: "
                   "capture again without that call, or make it in RELAXED mode",
                   ri->id, s->id);
  else if (bad < 0)
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory ending a capture");
  else if (bad > 0)
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_UNJOINED, __FILE__, __LINE__,
                   "stream %d joined the capture of aclmdlRI %u but does not join back: its last task must be an "
                   "event record that the capture stream waits for (directly or through other joined streams); "
                   "the model runtime instance is discarded. Remedy: record an event on stream %d after its last "
                   "task and make stream %d wait for it before aclmdlRICaptureEnd",
                   (int)ri->lanes[bad]->sid, ri->id, (int)ri->lanes[bad]->sid, s->id);
  else
    rc = acl__ri_seal(api, ri);
  if (ri->kind == RI_BRANCH) {
    acl__ri *p = ri->parent;
    pthread_mutex_lock(&p->lock);
    p->capturing_branches--;
    pthread_mutex_unlock(&p->lock);
    if (rc != 0) {
      /* the branch stays empty and the parent cannot be used */
      acl__graph_invalidate_ri(p, "a branch capture failed");
      *out = NULL;
      return rc;
    }
    acl__ri_publish(ri);
    *out = ri;
    return 0;
  }
  if (rc != 0) {
    acl__ri_free(ri);
    *out = NULL;
    return rc;
  }
  acl__ri_publish(ri);
  ACL__LOGI(ACL__MOD_RUNTIME, "capture of aclmdlRI %u on stream %d ends: %u stream(s)", ri->id, s->id, ri->nlanes);
  *out = ri;
  return 0;
}

void acl__graph_invalidate_ri(acl__ri *ri, const char *why) {
  pthread_mutex_lock(&acl__g_lock);
  for (ri_session *cs = g_sessions; cs != NULL; cs = cs->next)
    if (cs->ri == ri)
      invalidate(cs, why);
  pthread_mutex_unlock(&acl__g_lock);
}

/* 1 when ri is `root` or one of its branches (at any depth). */
static int within(const acl__ri *ri, const acl__ri *root) {
  for (; ri != NULL; ri = ri->parent)
    if (ri == root)
      return 1;
  return 0;
}

/* The captures of root's branches still active end with it (their RIs go
 * with root). */
static void close_branch_sessions(acl__ri *root) {
  for (;;) {
    pthread_mutex_lock(&acl__g_lock);
    ri_session *cs = g_sessions;
    while (cs != NULL && (cs->ri == root || !within(cs->ri, root)))
      cs = cs->next;
    acl__capture *o = cs != NULL ? cs->origin : NULL;
    acl__stream *s = o != NULL ? o->s : NULL;
    pthread_mutex_unlock(&acl__g_lock);
    if (cs == NULL)
      return;
    /* the origin stream outlives its session (its destroy ends the session
     * first); the session lives while the stream's hook is its origin */
    pthread_mutex_lock(&s->lock);
    if (s->capture != o) {
      pthread_mutex_unlock(&s->lock);
      continue; /* ended meanwhile */
    }
    __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
    session_close(cs, s);
    pthread_mutex_unlock(&s->lock);
    ACL__LOGW(ACL__MOD_RUNTIME, "the capture of branch aclmdlRI %u on stream %d ends with its root aclmdlRI %u",
              cs->ri->id, s->id, root->id);
    free(cs->origin);
    free(cs);
  }
}

void acl__graph_stream_gone(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  if (h == NULL) {
    pthread_mutex_unlock(&s->lock);
    return;
  }
  __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
  if (h->cs == NULL) { /* bound in build mode */
    pthread_mutex_lock(&acl__g_lock);
    h->lane->bound = 0;
    pthread_mutex_unlock(&acl__g_lock);
    pthread_mutex_unlock(&s->lock);
    ACL__LOGW(ACL__MOD_RUNTIME, "stream %d destroyed while bound to aclmdlRI %u; it is unbound", s->id, h->ri->id);
    free(h);
    return;
  }
  ri_session *cs = h->cs;
  if (h != cs->origin) {
    /* a joined stream: the capture cannot join back any more */
    pthread_mutex_lock(&acl__g_lock);
    for (acl__capture **pp = &cs->hooks; *pp != NULL; pp = &(*pp)->snext)
      if (*pp == h) {
        *pp = h->snext;
        break;
      }
    h->lane->bound = 0;
    invalidate(cs, "a stream that joined the capture was destroyed");
    pthread_mutex_unlock(&acl__g_lock);
    pthread_mutex_unlock(&s->lock);
    free(h);
    return;
  }
  acl__ri *ri = cs->ri;
  session_close(cs, s);
  pthread_mutex_unlock(&s->lock);
  ACL__LOGW(ACL__MOD_RUNTIME, "stream %d destroyed while being captured into aclmdlRI %u: the capture is discarded",
            s->id, ri->id);
  free(cs->origin);
  free(cs);
  close_branch_sessions(ri);
  if (ri->kind == RI_BRANCH) {
    pthread_mutex_lock(&ri->parent->lock);
    ri->parent->capturing_branches--;
    pthread_mutex_unlock(&ri->parent->lock);
    acl__graph_invalidate_ri(ri->parent, "a branch capture was discarded");
    return;
  }
  acl__ri_free(ri);
}

int acl__graph_capture_info(acl__stream *s, aclmdlRICaptureStatus *status, acl__ri **ri) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  ri_session *cs = h != NULL ? h->cs : NULL;
  aclmdlRICaptureStatus st = cs == NULL                  ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
                             : atomic_load(&cs->invalid) ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                                         : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  if (status != NULL)
    *status = st;
  if (ri != NULL)
    *ri = st == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE ? cs->ri : NULL;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

int acl__graph_exchange_mode(aclmdlRICaptureMode *mode) {
  int old = tls_mode;
  tls_mode = (int)*mode;
  *mode = (aclmdlRICaptureMode)old;
  return 0;
}

/* ---- calls the capture modes govern ------------------------------------------------ */

/* 1 when session cs forbids an unsafe call from this thread (§5.3 modes). */
static int forbids(const ri_session *cs) {
  int self = pthread_equal(cs->thread, pthread_self());
  switch (cs->mode) {
  case ACL_MODEL_RI_CAPTURE_MODE_GLOBAL:
    return self ? tls_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED : tls_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
  case ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL:
    return self && tls_mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  default:
    return 0;
  }
}

static int session_has_stream(const ri_session *cs, const acl__stream *s) {
  for (const acl__capture *h = cs->hooks; h != NULL; h = h->snext)
    if (h->s == s)
      return 1;
  return 0;
}

int acl__graph_check_unsafe(const char *api, acl__stream *s) {
  if (atomic_load_explicit(&g_active, memory_order_relaxed) == 0)
    return 0;
  uint32_t id = 0;
  int sid = -1, mode = 0, hit = 0;
  pthread_mutex_lock(&acl__g_lock);
  for (ri_session *cs = g_sessions; cs != NULL; cs = cs->next) {
    if (s != NULL && !session_has_stream(cs, s))
      continue; /* a stream call concerns that stream's capture only */
    if (!forbids(cs))
      continue;
    invalidate(cs, api);
    if (!hit) {
      hit = 1;
      id = cs->ri->id;
      sid = (int)cs->origin->lane->sid;
      mode = cs->mode;
    }
  }
  pthread_mutex_unlock(&acl__g_lock);
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
  acl__capture *h = s->capture;
  uint32_t id = h != NULL ? h->ri->id : 0;
  if (h != NULL && h->cs != NULL)
    invalidate(h->cs, api);
  pthread_mutex_unlock(&s->lock);
  if (h == NULL)
    return 0;
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "stream %d records into aclmdlRI %u and %s cannot be recorded%s. Remedy: make the call outside "
                   "the model runtime instance",
                   s->id, id, what, h->cs != NULL ? "; the capture is now invalidated" : "");
}

/* ---- events in captures ------------------------------------------------------------ */

int acl__graph_event_record(const char *api, acl__event *e, acl__stream *s) {
  if (!acl__stream_capturing(s))
    return ACL__GRAPH_PASS; /* every ordinary record: one relaxed load, no lock */
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  if (h == NULL) {
    pthread_mutex_unlock(&s->lock);
    return ACL__GRAPH_PASS;
  }
  acl__ri *ri = h->ri;
  uint32_t k = atomic_fetch_add(&ri->nedges, 1);
  acl__task *t = acl__ri_edge_task(ri, k, 0);
  int rc = t == NULL ? ACL_ERROR_BAD_ALLOC : acl__ri_append_locked(h, t);
  if (rc != 0 && h->cs != NULL)
    invalidate(h->cs, "out of host memory");
  pthread_mutex_unlock(&s->lock);
  if (rc != 0) {
    free(t);
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory recording an event record");
  }
  acl__event_graph_mark(e, ri->id, k);
  return 0;
}

/* Stream lock held, s not hooked: s joins the live capture of RI `rid`
 * with a lane of its own.  The hook, or NULL with *rc set (0: no such
 * capture any more: the wait is an ordinary one). */
static acl__capture *join_locked(const char *api, acl__stream *s, uint32_t rid, int *rc) {
  *rc = 0;
  pthread_mutex_lock(&acl__g_lock);
  ri_session *cs = g_sessions;
  while (cs != NULL && cs->ri->id != rid)
    cs = cs->next;
  if (cs == NULL) {
    pthread_mutex_unlock(&acl__g_lock);
    return NULL;
  }
  if (cs->ri->kind == RI_BRANCH) {
    invalidate(cs, "a stream joined a branch capture");
    pthread_mutex_unlock(&acl__g_lock);
    *rc = acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                    "stream %d waits for an event recorded in the capture of branch aclmdlRI %u; the branches of "
                    "conditional tasks are captured on one stream each. Remedy: keep a branch's work on its stream",
                    s->id, cs->ri->id);
    return NULL;
  }
  if (s->ctx != cs->ri->ctx) {
    pthread_mutex_unlock(&acl__g_lock);
    *rc = acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                    "stream %d is in another context than the capture of aclmdlRI %u it would join", s->id,
                    cs->ri->id);
    return NULL;
  }
  acl__capture *h = calloc(1, sizeof(*h));
  ri_lane *lane = h != NULL ? acl__ri_add_lane(cs->ri, s, ACL_MODEL_STREAM_FLAG_HEAD) : NULL;
  if (lane == NULL) {
    invalidate(cs, "out of host memory");
    pthread_mutex_unlock(&acl__g_lock);
    free(h);
    *rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a joining stream");
    return NULL;
  }
  h->ri = cs->ri;
  h->lane = lane;
  h->s = s;
  h->cs = cs;
  h->snext = cs->hooks->snext; /* after the origin */
  cs->hooks->snext = h;
  pthread_mutex_unlock(&acl__g_lock);
  __atomic_store_n(&s->capture, h, __ATOMIC_RELAXED);
  ACL__LOGI(ACL__MOD_RUNTIME, "stream %d joins the capture of aclmdlRI %u", s->id, h->ri->id);
  return h;
}

int acl__graph_event_wait(const char *api, acl__stream *s, acl__event *e) {
  uint32_t k = 0;
  uint32_t rid = acl__event_graph_mark_of(e, &k);
  if (rid == UINT32_MAX && !acl__stream_capturing(s))
    return ACL__GRAPH_PASS;
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  int rc = 0;
  if (h == NULL) {
    if (rid == UINT32_MAX || (h = join_locked(api, s, rid, &rc)) == NULL) {
      pthread_mutex_unlock(&s->lock);
      return rc != 0 ? rc : ACL__GRAPH_PASS;
    }
  } else if (rid != h->ri->id) {
    uint32_t id = h->ri->id;
    if (h->cs != NULL)
      invalidate(h->cs, api);
    pthread_mutex_unlock(&s->lock);
    if (rid == UINT32_MAX)
      return acl__fail(api, ACL_ERROR_RT_CAPTURE_DEPENDENCY, __FILE__, __LINE__,
                       "stream %d records into aclmdlRI %u and waits for an event whose last record was not "
                       "recorded into it (made outside, or never). Remedy: record the event on a stream of the same "
                       "capture, or create it with ACL_EVENT_EXTERNAL / wait with ACL_EVENT_WAIT_EXTERNAL to wait "
                       "for a record made outside",
                       s->id, id);
    return acl__fail(api, ACL_ERROR_STREAM_CAPTURE_CONFLICT, __FILE__, __LINE__,
                     "stream %d records into aclmdlRI %u and waits for an event recorded into another one (aclmdlRI "
                     "%u). Remedy: connect model runtime instances with EXTERNAL records and waits",
                     s->id, id, rid);
  }
  acl__task *t = acl__ri_edge_task(h->ri, k, 1);
  rc = t == NULL ? ACL_ERROR_BAD_ALLOC : acl__ri_append_locked(h, t);
  if (rc != 0 && h->cs != NULL)
    invalidate(h->cs, "out of host memory");
  pthread_mutex_unlock(&s->lock);
  if (rc != 0) {
    free(t);
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory recording an event wait");
  }
  return 0;
}
