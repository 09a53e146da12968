/*
 * graph_build.c - model runtime instances built explicitly (aclmdlRIBuild*),
 * and the control tasks of their streams: end of graph, stream activation
 * and switches, labels and jumps to them.
 *
 * aclmdlRIBuildBegin makes an empty RI; aclmdlRIBindStream hooks a
 * persistent stream to a new lane of it (HEAD: the lane runs from the start
 * of each replay; DEFAULT: only when a task activates or switches to it),
 * so that what is submitted to the stream is recorded there, as in a
 * capture (graph_capture.c).  aclmdlRIBuildEnd seals it; the streams stay
 * bound (and refuse more tasks) until aclmdlRIUnbindStream.
 *
 * The control tasks act on the runner that meets them (graph_replay.c):
 *   end       the runner stops (aclmdlRIEndTask);
 *   active    a new runner starts on the target lane (aclrtActiveStream);
 *   switch    when *left cond *right holds, the runner continues at the start
 *             of the target lane and the rest of its lane is skipped
 *             (aclrtSwitchStream);
 *   label     nothing (aclrtSetLabel records its place);
 *   goto      the runner continues at list[*index] (aclrtSwitchLabelByIndex;
 *             an index past the end means the last label); the places are
 *             looked up when the build ends, so labels may be set after the
 *             jump is recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph_impl.h"
#include "rt/label.h"
#include "rt/memory.h"

/* The hook of s when it is bound to an RI in build mode (stream lock
 * taken and dropped). */
static acl__capture *bound_hook(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  if (h != NULL && h->cs != NULL)
    h = NULL;
  pthread_mutex_unlock(&s->lock);
  return h;
}

static int not_bound(const char *api, acl__stream *s) {
  return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                   "stream %d is not bound to a model runtime instance in build mode. Remedy: bind it with "
                   "aclmdlRIBindStream between aclmdlRIBuildBegin and aclmdlRIBuildEnd",
                   s->id);
}

/* Submits control task t to bound stream s (recorded by its hook). */
static int submit_ctl(const char *api, acl__stream *s, acl__task *t) {
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  int rc = acl__stream_submit(s, t);
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed", s->id);
  return rc; /* a refusal was recorded by the hook */
}

/* ---- build ---------------------------------------------------------------------- */

int acl__graph_build_begin(const char *api, acl__context *c, acl__ri **out) {
  acl__ri *ri = acl__ri_new(c, RI_BUILT);
  if (ri == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a model runtime instance");
  acl__handle_register(ri, ACL__H_MODEL_RI);
  pthread_mutex_lock(&acl__g_lock); /* listed while building, so that aclFinalize finds it */
  ri->next = acl__g_ris;
  acl__g_ris = ri;
  pthread_mutex_unlock(&acl__g_lock);
  *out = ri;
  return 0;
}

int acl__graph_bind(const char *api, acl__ri *ri, acl__stream *s, uint32_t flag) {
  if (ri->kind != RI_BUILT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u was captured, not built; streams are bound only to instances made by "
                     "aclmdlRIBuildBegin",
                     ri->id);
  if (!(s->flags & ACL_STREAM_PERSISTENT) || s->is_default)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "stream %d is not persistent. Remedy: create it with aclrtCreateStreamWithConfig(&s, 0, "
                     "ACL_STREAM_PERSISTENT)",
                     s->id);
  if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "flag 0x%x is neither ACL_MODEL_STREAM_FLAG_HEAD (0) nor ACL_MODEL_STREAM_FLAG_DEFAULT "
                     "(0x7FFFFFFF)",
                     flag);
  if (s->ctx != ri->ctx)
    return acl__fail(api, ACL_ERROR_RT_STREAM_CONTEXT, __FILE__, __LINE__,
                     "stream %d is in another context than aclmdlRI %u", s->id, ri->id);
  pthread_mutex_lock(&ri->lock);
  int recording = ri->recording;
  pthread_mutex_unlock(&ri->lock);
  if (!recording)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the build of aclmdlRI %u has ended; no stream can be bound to it any more", ri->id);
  acl__capture *h = calloc(1, sizeof(*h));
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory binding a stream");
  pthread_mutex_lock(&s->lock);
  if (s->capture != NULL) {
    pthread_mutex_unlock(&s->lock);
    free(h);
    return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                     "stream %d is bound to a model runtime instance already, or being captured. Remedy: a stream "
                     "belongs to one; unbind it first",
                     s->id);
  }
  pthread_mutex_lock(&acl__g_lock);
  ri_lane *lane = acl__ri_add_lane(ri, s, flag);
  pthread_mutex_unlock(&acl__g_lock);
  if (lane == NULL) {
    pthread_mutex_unlock(&s->lock);
    free(h);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory binding a stream");
  }
  h->ri = ri;
  h->lane = lane;
  h->s = s;
  __atomic_store_n(&s->capture, h, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&s->lock);
  return 0;
}

int acl__graph_unbind(const char *api, acl__ri *ri, acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  if (h == NULL || h->cs != NULL || h->ri != ri) {
    pthread_mutex_unlock(&s->lock);
    return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                     "stream %d is not bound to aclmdlRI %u", s->id, ri->id);
  }
  __atomic_store_n(&s->capture, NULL, __ATOMIC_RELAXED);
  pthread_mutex_lock(&acl__g_lock);
  h->lane->bound = 0;
  pthread_mutex_unlock(&acl__g_lock);
  pthread_mutex_unlock(&s->lock);
  free(h);
  return 0;
}

void acl__graph_unbind_all(acl__ri *ri) {
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    pthread_mutex_lock(&acl__g_lock);
    ri_lane *l = ri->lanes[i];
    acl__stream *s = l->bound && ri->kind == RI_BUILT ? l->s : NULL;
    pthread_mutex_unlock(&acl__g_lock);
    if (s != NULL && acl__handle_valid(s, ACL__H_STREAM))
      acl__graph_unbind("aclmdlRIDestroy", ri, s);
  }
}

static int end_run(acl__task *t) {
  (void)t;
  return RI_CTL_END;
}

int acl__graph_end_task(const char *api, acl__ri *ri, acl__stream *s) {
  acl__capture *h = bound_hook(s);
  if (h == NULL || h->ri != ri)
    return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__, "stream %d is not bound to aclmdlRI %u",
                     s->id, ri->id);
  acl__task *t = acl__ri_ctl_new(0, end_run, "end of graph");
  return submit_ctl(api, s, t);
}

/* ---- jumps to labels -------------------------------------------------------------- */

typedef struct ri_goto {
  const uint32_t *index;  /* device address of the index */
  uint32_t n;
  aclrtLabelList list;    /* resolved at aclmdlRIBuildEnd into: */
  ri_lane **lanes;
  uint32_t *pos;
} ri_goto;

static int goto_run(acl__task *t) {
  ri_goto *g = acl__task_payload(t);
  ri_runner *r = acl__ri_cur;
  uint32_t i = *(const volatile uint32_t *)acl__mem_dev_ptr(g->index);
  if (i >= g->n)
    i = g->n - 1;
  ri_frame *f = &r->st[r->depth - 1];
  f->lane = g->lanes[i];
  f->pos = g->pos[i];
  return RI_CTL_JUMPED;
}

static void goto_release(acl__task *t) {
  ri_goto *g = acl__task_payload(t);
  free(g->lanes);
  free(g->pos);
  free(t);
}

int acl__graph_switch_label(const char *api, void *ptr, uint32_t max_value, aclrtLabelList list, acl__stream *s) {
  if (bound_hook(s) == NULL)
    return not_bound(api, s);
  acl__task *t = acl__ri_ctl_new(sizeof(ri_goto), goto_run, "switch label by index");
  if (t != NULL) {
    t->release = goto_release;
    ri_goto *g = acl__task_payload(t);
    g->index = ptr;
    g->n = max_value;
    g->list = list;
  }
  return submit_ctl(api, s, t);
}

static int label_run(acl__task *t) {
  (void)t;
  return 0;
}

int acl__graph_set_label(const char *api, acl__stream *s, void **lane, uint32_t *pos) {
  acl__capture *h = bound_hook(s);
  if (h == NULL)
    return not_bound(api, s);
  acl__task *t = acl__ri_ctl_new(0, label_run, "label");
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  pthread_mutex_lock(&s->lock);
  int rc = s->capture == h ? 0 : ACL_ERROR_RT_STREAM_MODEL;
  if (rc == 0 && h->sealed)
    rc = ACL_ERROR_RT_STREAM_MODEL;
  if (rc == 0 && acl__ri_append_locked(h, t) != 0)
    rc = ACL_ERROR_BAD_ALLOC;
  *lane = h->lane;
  *pos = h->lane->n - 1; /* the label task itself: a jump lands on it and goes on */
  pthread_mutex_unlock(&s->lock);
  if (rc != 0) {
    free(t);
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d cannot take a label now (unbound, or the build ended)",
                     s->id);
  }
  return 0;
}

/* ---- stream activation and switches ------------------------------------------------ */

typedef struct ri_active {
  ri_lane *target;
} ri_active;

static int active_run(acl__task *t) {
  ri_active *a = acl__task_payload(t);
  int rc = acl__ri_start_runner(acl__ri_cur->ri, a->target);
  return rc == 0 ? 0 : rc;
}

int acl__graph_active_stream(const char *api, acl__stream *active, acl__stream *s) {
  acl__capture *h = bound_hook(s), *ha = bound_hook(active);
  if (h == NULL)
    return not_bound(api, s);
  if (ha == NULL || ha->ri != h->ri)
    return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                     "stream %d is not bound to the model runtime instance of stream %d (aclmdlRI %u). Remedy: bind "
                     "both to the same instance",
                     active->id, s->id, h->ri->id);
  acl__task *t = acl__ri_ctl_new(sizeof(ri_active), active_run, NULL);
  if (t != NULL) {
    snprintf(t->what, sizeof(t->what), "activate stream %d", active->id);
    ((ri_active *)acl__task_payload(t))->target = ha->lane;
  }
  return submit_ctl(api, s, t);
}

typedef struct ri_switch {
  const void *left, *right;
  aclrtCondition cond;
  aclrtCompareDataType type;
  ri_lane *target;
} ri_switch;

static int switch_run(acl__task *t) {
  ri_switch *w = acl__task_payload(t);
  int64_t l, r;
  if (w->type == ACL_RT_SWITCH_INT32) {
    l = *(const volatile int32_t *)acl__mem_dev_ptr(w->left);
    r = *(const volatile int32_t *)acl__mem_dev_ptr(w->right);
  } else {
    l = *(const volatile int64_t *)acl__mem_dev_ptr(w->left);
    r = *(const volatile int64_t *)acl__mem_dev_ptr(w->right);
  }
  int holds = 0;
  switch (w->cond) {
  case ACL_RT_EQUAL: holds = l == r; break;
  case ACL_RT_NOT_EQUAL: holds = l != r; break;
  case ACL_RT_GREATER: holds = l > r; break;
  case ACL_RT_GREATER_OR_EQUAL: holds = l >= r; break;
  case ACL_RT_LESS: holds = l < r; break;
  case ACL_RT_LESS_OR_EQUAL: holds = l <= r; break;
  }
  if (!holds)
    return 0;
  ri_frame *f = &acl__ri_cur->st[acl__ri_cur->depth - 1];
  f->lane = w->target;
  f->pos = 0;
  return RI_CTL_JUMPED;
}

int acl__graph_switch_stream(const char *api, void *left, aclrtCondition cond, void *right, aclrtCompareDataType type,
                             acl__stream *target, acl__stream *s) {
  acl__capture *h = bound_hook(s), *ht = bound_hook(target);
  if (h == NULL)
    return not_bound(api, s);
  if (ht == NULL || ht->ri != h->ri)
    return acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                     "trueStream %d is not bound to the model runtime instance of stream %d (aclmdlRI %u)", target->id,
                     s->id, h->ri->id);
  size_t need = type == ACL_RT_SWITCH_INT32 ? 4 : 8;
  const void *vals[2] = {left, right};
  for (int i = 0; i < 2; i++) {
    acl__ptr_info info;
    acl__mem_classify(vals[i], &info);
    if (info.kind != ACL__PTR_DEVICE || info.dev != s->dev || info.alloc_size - info.offset < need)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %p must point to a %s in device memory of device %d (aclrtMalloc): the switch reads it "
                       "when the model runs",
                       i == 0 ? "leftValue" : "rightValue", vals[i], need == 4 ? "int32_t" : "int64_t",
                       (int)s->dev->id);
  }
  acl__task *t = acl__ri_ctl_new(sizeof(ri_switch), switch_run, NULL);
  if (t != NULL) {
    snprintf(t->what, sizeof(t->what), "switch to stream %d", target->id);
    ri_switch *w = acl__task_payload(t);
    w->left = left;
    w->right = right;
    w->cond = cond;
    w->type = type;
    w->target = ht->lane;
  }
  return submit_ctl(api, s, t);
}

/* ---- the end of a build ------------------------------------------------------------- */

/* Looks up the label places of every jump; a place must be in this RI. */
static int resolve_gotos(const char *api, acl__ri *ri) {
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    ri_lane *l = ri->lanes[i];
    for (uint32_t j = 0; j < l->n; j++) {
      acl__task *t = l->tasks[j];
      if (t->run != goto_run)
        continue;
      ri_goto *g = acl__task_payload(t);
      void **lanes = calloc(g->n, sizeof(*lanes));
      uint32_t *pos = calloc(g->n, sizeof(*pos));
      if (lanes == NULL || pos == NULL) {
        free(lanes);
        free(pos);
        return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory resolving labels");
      }
      int rc = acl__label_targets(api, g->list, g->n, lanes, pos);
      for (uint32_t x = 0; x < g->n && rc == 0; x++) {
        int mine = 0;
        for (uint32_t y = 0; y < ri->nlanes && !mine; y++)
          mine = lanes[x] == (void *)ri->lanes[y];
        if (!mine)
          rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                         "label %u of the list that stream %d jumps through was set on a stream of another model "
                         "runtime instance; a jump stays inside aclmdlRI %u",
                         x, (int)l->sid, ri->id);
      }
      if (rc != 0) {
        free(lanes);
        free(pos);
        return rc;
      }
      free(g->lanes);
      free(g->pos);
      g->lanes = (ri_lane **)lanes;
      g->pos = pos;
    }
  }
  return 0;
}

int acl__graph_build_end(const char *api, acl__ri *ri) {
  pthread_mutex_lock(&ri->lock);
  int recording = ri->recording;
  pthread_mutex_unlock(&ri->lock);
  if (ri->kind != RI_BUILT || !recording)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is not being built (made by aclmdlRIBuildBegin and not ended yet)", ri->id);
  if (ri->nlanes == 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u has no stream. Remedy: bind a persistent stream with aclmdlRIBindStream and "
                     "submit its tasks before aclmdlRIBuildEnd",
                     ri->id);
  int rc = resolve_gotos(api, ri);
  if (rc == 0)
    rc = acl__ri_seal(api, ri);
  if (rc != 0)
    return rc;
  /* the bound streams take no more tasks */
  for (uint32_t i = 0; i < ri->nlanes; i++) {
    pthread_mutex_lock(&acl__g_lock);
    ri_lane *l = ri->lanes[i];
    acl__stream *s = l->bound ? l->s : NULL;
    pthread_mutex_unlock(&acl__g_lock);
    if (s == NULL)
      continue;
    pthread_mutex_lock(&s->lock);
    if (s->capture != NULL && s->capture->ri == ri)
      s->capture->sealed = 1;
    pthread_mutex_unlock(&s->lock);
  }
  pthread_mutex_lock(&ri->lock);
  ri->recording = 0;
  pthread_mutex_unlock(&ri->lock);
  ACL__LOGI(ACL__MOD_RUNTIME, "build of aclmdlRI %u ends: %u stream(s)", ri->id, ri->nlanes);
  return 0;
}
