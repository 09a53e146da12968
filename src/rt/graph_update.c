/*
 * graph_update.c - changing a model runtime instance after it was recorded.
 *
 * Task groups (aclmdlRICaptureTaskGrpBegin / End): the kernel launches a
 * capturing stream records between the two calls form a group.  Later, on
 * a stream that is not capturing, aclmdlRICaptureTaskUpdateBegin(u, grp)
 * puts u in update mode: what the program submits to u is collected (the
 * same operators with new arguments), and aclmdlRICaptureTaskUpdateEnd(u)
 * queues one task on u that, when it runs, swaps the group's tasks for the
 * new ones.  So the update is ordered with u's other work, as on the
 * vendor's runtime, and a replay that starts after it uses the new tasks.
 * Swapped-out tasks are kept until the RI goes: a replay running at that
 * moment may still be executing one.
 *
 * Task parameters (aclmdlRITaskGetParams / SetParams, aclmdlRITaskDisable,
 * aclmdlRIUpdate): Set and Disable are noted on the RI and applied by
 * aclmdlRIUpdate, which refuses (107040) while a replay is queued or
 * running.  Kernel launches change function (same binary), argument bytes
 * (same size) and blocks; event tasks their event; value writes / waits
 * their address, value and flag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/event.h"
#include "rt/graph_impl.h"
#include "rt/kernel.h"
#include "rt/memory.h"
#include "rt/value.h"

typedef struct ri_grp {
  acl__ri *ri;
  ri_lane *lane;
  uint32_t first, n;
  struct ri_grp *next; /* ri->grps */
} ri_grp;

typedef struct ri_info {
  acl__task *t;
  int extend;            /* ExtendInfo (else OpInfo) */
  size_t n;
  struct ri_info *next;  /* ri->infos */
  unsigned char data[];
} ri_info;

typedef struct ri_edit {
  acl__task *t;
  int disable;
  aclmdlRITaskParams p;
  struct ri_edit *next;
} ri_edit;

/* ---- task groups ------------------------------------------------------------------ */

int acl__graph_grp_begin(const char *api, acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  int rc = 0;
  if (h == NULL || h->cs == NULL)
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                   "stream %d is not being captured; task groups are recorded in a capture", s->id);
  else if (__atomic_load_n(&h->cs->grp_hook, __ATOMIC_ACQUIRE) != NULL)
    rc = acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_STATUS, __FILE__, __LINE__,
                   "a task group is open already in the capture of aclmdlRI %u. Remedy: end it with "
                   "aclmdlRICaptureTaskGrpEnd first",
                   h->ri->id);
  else {
    h->cs->grp_first = h->lane->n;
    __atomic_store_n(&h->cs->grp_hook, h, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&s->lock);
  return rc;
}

int acl__graph_grp_end(const char *api, acl__stream *s, aclrtTaskGrp *out) {
  ri_grp *g = calloc(1, sizeof(*g));
  if (g == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task group");
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  int rc = 0;
  if (h == NULL || h->cs == NULL)
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                   "stream %d is not being captured", s->id);
  else if (__atomic_load_n(&h->cs->grp_hook, __ATOMIC_ACQUIRE) != h)
    rc = acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_STATUS, __FILE__, __LINE__,
                   "stream %d has no task group open. Remedy: call aclmdlRICaptureTaskGrpBegin on it first", s->id);
  else {
    g->ri = h->ri;
    g->lane = h->lane;
    g->first = h->cs->grp_first;
    g->n = h->lane->n - g->first;
    __atomic_store_n(&h->cs->grp_hook, NULL, __ATOMIC_RELEASE);
    pthread_mutex_lock(&h->ri->lock);
    g->next = h->ri->grps;
    h->ri->grps = g;
    pthread_mutex_unlock(&h->ri->lock);
  }
  pthread_mutex_unlock(&s->lock);
  if (rc != 0) {
    free(g);
    return rc;
  }
  acl__handle_register(g, ACL__H_RI_GRP);
  *out = g;
  return 0;
}

int acl__graph_update_begin(const char *api, acl__stream *u, aclrtTaskGrp handle) {
  if (!acl__handle_valid(handle, ACL__H_RI_GRP))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "handle %p is not a live task group (from aclmdlRICaptureTaskGrpEnd; it goes with its model "
                     "runtime instance)",
                     handle);
  ri_grp *g = handle;
  pthread_mutex_lock(&g->ri->lock);
  int recording = g->ri->recording;
  pthread_mutex_unlock(&g->ri->lock);
  if (recording)
    return acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_STATUS, __FILE__, __LINE__,
                     "aclmdlRI %u is still being captured; a task group is updated after aclmdlRICaptureEnd",
                     g->ri->id);
  acl__capture *h = calloc(1, sizeof(*h));
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task update");
  h->ri = g->ri;
  h->lane = g->lane;
  h->s = u;
  h->grp = g;
  pthread_mutex_lock(&u->lock);
  if (u->capture != NULL) {
    pthread_mutex_unlock(&u->lock);
    free(h);
    return acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_STATUS, __FILE__, __LINE__,
                     "stream %d is being captured, bound to a model runtime instance or updating a task group "
                     "already. Remedy: update on a stream that does none of these",
                     u->id);
  }
  __atomic_store_n(&u->capture, h, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&u->lock);
  return 0;
}

int acl__ri_update_collect_locked(acl__capture *h, acl__task *t) {
  if (!t->ri_ok || t->ri_type != ACL_MODEL_RI_TASK_KERNEL)
    return acl__fail("task update", ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, __FILE__, __LINE__,
                     "stream %d is updating a task group, which holds kernel launches only, and this task (%s) is not "
                     "one",
                     h->s->id, t->what[0] ? t->what : "unnamed task");
  if (h->npend == h->cap_pend) {
    uint32_t cap = h->cap_pend ? h->cap_pend * 2 : 8;
    acl__task **np = realloc(h->pend, cap * sizeof(*np));
    if (np == NULL)
      return acl__fail("task update", ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    h->pend = np;
    h->cap_pend = cap;
  }
  t->next = NULL;
  h->pend[h->npend++] = t;
  return 0;
}

typedef struct ri_swap {
  ri_grp *g;
  acl__task **tasks;
  uint32_t n;
  int applied;
} ri_swap;

static void release_tasks(acl__task **ts, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (ts[i]->release != NULL)
      ts[i]->release(ts[i]);
    else
      free(ts[i]);
}

static int swap_run(acl__task *t) {
  ri_swap *w = acl__task_payload(t);
  ri_grp *g = w->g;
  acl__ri *ri = g->ri;
  pthread_mutex_lock(&ri->lock);
  int ok = ri->nold + w->n <= ri->cap_old;
  if (!ok) {
    uint32_t cap = (ri->nold + w->n) * 2;
    acl__task **no = realloc(ri->old, cap * sizeof(*no));
    if (no != NULL) {
      ri->old = no;
      ri->cap_old = cap;
      ok = 1;
    }
  }
  pthread_mutex_unlock(&ri->lock);
  if (!ok)
    return ACL_ERROR_RT_MODEL_UPDATE_FAILED;
  pthread_mutex_lock(&acl__g_lock);
  pthread_mutex_lock(&ri->lock);
  for (uint32_t i = 0; i < w->n; i++) {
    acl__task *old = g->lane->tasks[g->first + i], *nt = w->tasks[i];
    nt->seq = old->seq;
    acl__handle_unregister(old);
    acl__handle_register(nt, ACL__H_RI_TASK);
    __atomic_store_n(&g->lane->tasks[g->first + i], nt, __ATOMIC_RELEASE);
    ri->old[ri->nold++] = old;
  }
  pthread_mutex_unlock(&ri->lock);
  pthread_mutex_unlock(&acl__g_lock);
  w->applied = 1;
  return 0;
}

static void swap_release(acl__task *t) {
  ri_swap *w = acl__task_payload(t);
  if (!w->applied)
    release_tasks(w->tasks, w->n);
  free(w->tasks);
  acl__ri *ri = w->g->ri;
  pthread_mutex_lock(&ri->lock);
  ri->queued--;
  pthread_mutex_unlock(&ri->lock);
  free(t);
}

int acl__graph_update_end(const char *api, acl__stream *u) {
  pthread_mutex_lock(&u->lock);
  acl__capture *h = u->capture;
  if (h == NULL || h->grp == NULL) {
    pthread_mutex_unlock(&u->lock);
    return acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_STATUS, __FILE__, __LINE__,
                     "stream %d is not updating a task group. Remedy: call aclmdlRICaptureTaskUpdateBegin first",
                     u->id);
  }
  __atomic_store_n(&u->capture, NULL, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&u->lock);
  ri_grp *g = h->grp;
  int rc = 0;
  if (h->npend != g->n)
    rc = acl__fail(api, ACL_ERROR_STREAM_TASK_GROUP_INTR, __FILE__, __LINE__,
                   "the update submitted %u task(s) but the group of aclmdlRI %u holds %u; an update resubmits the "
                   "same operators in the same order. Nothing was changed",
                   h->npend, g->ri->id, g->n);
  acl__task *t = rc == 0 ? acl__task_new(sizeof(ri_swap), swap_run, "task group update") : NULL;
  if (rc == 0 && t == NULL)
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task update");
  if (rc != 0) {
    release_tasks(h->pend, h->npend);
    free(h->pend);
    free(h);
    return rc;
  }
  t->release = swap_release;
  ri_swap *w = acl__task_payload(t);
  w->g = g;
  w->tasks = h->pend;
  w->n = h->npend;
  free(h);
  pthread_mutex_lock(&g->ri->lock);
  g->ri->queued++; /* the RI must outlive the update */
  pthread_mutex_unlock(&g->ri->lock);
  rc = acl__stream_submit(u, t);
  if (rc != 0)
    rc = acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed", u->id);
  return rc;
}

/* ---- task parameters ------------------------------------------------------------- */

/* The RI, lane and index of recorded task t (acl__g_lock held), 0 if found. */
static int find_in(acl__ri *ri, acl__task *t, acl__ri **ro, ri_lane **lo, uint32_t *io) {
  for (uint32_t i = 0; i < ri->nlanes; i++)
    for (uint32_t j = 0; j < ri->lanes[i]->n; j++)
      if (ri->lanes[i]->tasks[j] == t) {
        *ro = ri;
        *lo = ri->lanes[i];
        *io = j;
        return 0;
      }
  for (uint32_t b = 0; b < ri->nbranches; b++)
    if (find_in(ri->branches[b], t, ro, lo, io) == 0)
      return 0;
  return -1;
}

static int find_task(acl__task *t, acl__ri **ro, ri_lane **lo, uint32_t *io) {
  pthread_mutex_lock(&acl__g_lock);
  int rc = -1;
  for (acl__ri *ri = acl__g_ris; ri != NULL && rc != 0; ri = ri->next)
    rc = find_in(ri, t, ro, lo, io);
  pthread_mutex_unlock(&acl__g_lock);
  return rc;
}

static acl__ri *root_of(acl__ri *ri) {
  while (ri->parent != NULL)
    ri = ri->parent;
  return ri;
}

int acl__graph_task_get(const char *api, acl__task *t, aclmdlRITaskParams *p) {
  acl__ri *ri = NULL;
  ri_lane *lane = NULL;
  uint32_t idx = 0;
  if (find_task(t, &ri, &lane, &idx) != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "the task is in no live model runtime "
                     "instance");
  memset(p, 0, sizeof(*p));
  p->type = (aclmdlRITaskType)t->ri_type;
  pthread_mutex_lock(&ri->lock);
  for (ri_info *in = ri->infos; in != NULL; in = in->next)
    if (in->t == t && !in->extend) {
      p->opInfoPtr = in->data;
      p->opInfoSize = in->n;
    }
  for (ri_grp *g = ri->grps; g != NULL; g = g->next)
    if (g->lane == lane && idx >= g->first && idx < g->first + g->n)
      p->taskGrp = g;
  pthread_mutex_unlock(&ri->lock);
  switch (t->ri_type) {
  case ACL_MODEL_RI_TASK_KERNEL: {
    aclrtFuncHandle f = NULL;
    void *args = NULL;
    size_t size = 0;
    uint32_t blocks = 0;
    if (acl__kernel_task_params(t, &f, &args, &size, &blocks) == 0) {
      p->kernelTaskParams.funcHandle = f;
      p->kernelTaskParams.args = args;
      p->kernelTaskParams.argsSize = size;
      p->kernelTaskParams.numBlocks = blocks;
    } /* an operator's task: no function handle of the program's */
    break;
  }
  case ACL_MODEL_RI_TASK_EVENT_RECORD:
  case ACL_MODEL_RI_TASK_EVENT_WAIT:
  case ACL_MODEL_RI_TASK_EVENT_RESET: {
    acl__event *e = acl__event_of_task(t);
    if (e != NULL) { /* an internal edge has no event of its own */
      p->eventRecordTaskParams.event = e;
      p->eventRecordTaskParams.eventFlag = e->flags;
      p->eventRecordTaskParams.recordFlag = t->ri_type == ACL_MODEL_RI_TASK_EVENT_RESET ? 0 : 1;
    }
    break;
  }
  case ACL_MODEL_RI_TASK_VALUE_WRITE:
  case ACL_MODEL_RI_TASK_VALUE_WAIT: {
    void *addr = NULL;
    uint64_t value = 0;
    uint32_t flag = 0;
    acl__value_task_params(t, &addr, &value, &flag);
    p->valueWaitTaskParams.devAddr = addr;
    p->valueWaitTaskParams.value = value;
    if (t->ri_type == ACL_MODEL_RI_TASK_VALUE_WAIT)
      p->valueWaitTaskParams.flag = flag;
    break;
  }
  default:
    break;
  }
  return 0;
}

static int note_edit(const char *api, acl__task *t, const aclmdlRITaskParams *p, int disable) {
  acl__ri *ri = NULL;
  ri_lane *lane = NULL;
  uint32_t idx = 0;
  if (find_task(t, &ri, &lane, &idx) != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "the task is in no live model runtime "
                     "instance");
  if (p != NULL && p->type != (aclmdlRITaskType)t->ri_type)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "params->type is %d but the task is of type %d; a task keeps its type", (int)p->type,
                     (int)t->ri_type);
  ri_edit *e = calloc(1, sizeof(*e));
  if (e == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
  e->t = t;
  e->disable = disable;
  if (p != NULL)
    e->p = *p;
  acl__ri *root = root_of(ri);
  pthread_mutex_lock(&root->lock);
  ri_edit **tail = &root->edits; /* applied in the order given */
  while (*tail != NULL)
    tail = &(*tail)->next;
  *tail = e;
  pthread_mutex_unlock(&root->lock);
  return 0;
}

int acl__graph_task_set(const char *api, acl__task *t, const aclmdlRITaskParams *p) {
  return note_edit(api, t, p, 0);
}

int acl__graph_task_disable(const char *api, acl__task *t) { return note_edit(api, t, NULL, 1); }

static int apply_edit(const char *api, ri_edit *e) {
  acl__task *t = e->t;
  acl__ri *ri = NULL;
  ri_lane *lane = NULL;
  uint32_t idx = 0;
  if (find_task(t, &ri, &lane, &idx) != 0)
    return acl__fail(api, ACL_ERROR_RT_MODEL_UPDATE_FAILED, __FILE__, __LINE__,
                     "a task given to aclmdlRITaskSetParams or aclmdlRITaskDisable is no longer in the model "
                     "runtime instance (a task group update replaced it)");
  if (e->disable) {
    if (lane->off == NULL && (lane->off = calloc(lane->cap ? lane->cap : 1, 1)) == NULL)
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    lane->off[idx] = 1;
    return 0;
  }
  const aclmdlRITaskParams *p = &e->p;
  switch (t->ri_type) {
  case ACL_MODEL_RI_TASK_KERNEL: {
    const aclmdlRIKernelTaskParams *k = &p->kernelTaskParams;
    if (k->isHostArgs || k->args == NULL)
      return acl__kernel_task_update(api, t, k->funcHandle, k->args, k->argsSize, k->numBlocks);
    /* device arguments: read them from device memory */
    void *copy = malloc(k->argsSize ? k->argsSize : 1);
    if (copy == NULL)
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    acl__ptr_info in;
    acl__mem_classify(k->args, &in);
    int rc = 0;
    if (in.kind != ACL__PTR_DEVICE || in.alloc_size - in.offset < k->argsSize) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "args %p (isHostArgs 0) is not %zu bytes of device memory", k->args, k->argsSize);
    } else {
      acl__device_access_begin(in.dev);
      memcpy(copy, acl__mem_dev_ptr(k->args), k->argsSize);
      acl__device_access_end(in.dev);
      rc = acl__kernel_task_update(api, t, k->funcHandle, copy, k->argsSize, k->numBlocks);
    }
    free(copy);
    return rc;
  }
  case ACL_MODEL_RI_TASK_EVENT_RECORD:
  case ACL_MODEL_RI_TASK_EVENT_WAIT:
  case ACL_MODEL_RI_TASK_EVENT_RESET: {
    if (acl__event_of_task(t) == NULL)
      return acl__fail(api, ACL_ERROR_RT_MODEL_UPDATE_FAILED, __FILE__, __LINE__,
                       "the task is a record or wait between two streams of the capture (an internal edge); its "
                       "event cannot be changed. EXTERNAL records and waits and resets can");
    int rc = 0;
    acl__event *ev = acl__event_resolve(api, p->eventRecordTaskParams.event, &rc);
    if (ev == NULL)
      return rc;
    acl__event_task_set_event(t, ev);
    return 0;
  }
  case ACL_MODEL_RI_TASK_VALUE_WRITE:
  case ACL_MODEL_RI_TASK_VALUE_WAIT: {
    void *addr = p->valueWaitTaskParams.devAddr;
    uint32_t flag = t->ri_type == ACL_MODEL_RI_TASK_VALUE_WAIT ? p->valueWaitTaskParams.flag : 0;
    acl__ptr_info in;
    acl__mem_classify(addr, &in);
    if (in.kind != ACL__PTR_DEVICE || ((uintptr_t)addr & 7) != 0 || in.alloc_size - in.offset < 8)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "devAddr %p is not an 8-byte aligned word of device memory", addr);
    if (flag > ACL_STREAM_WAIT_VALUE_NOR)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "flag %u is not an ACL_STREAM_WAIT_VALUE_* value", flag);
    acl__value_task_update(t, addr, p->valueWaitTaskParams.value, flag);
    return 0;
  }
  default:
    return acl__fail(api, ACL_ERROR_RT_MODEL_UPDATE_FAILED, __FILE__, __LINE__,
                     "a task of type DEFAULT (copies, memsets, host functions) has no parameters to set");
  }
}

int acl__graph_update(const char *api, acl__ri *ri) {
  pthread_mutex_lock(&ri->lock);
  int busy = ri->queued > 0 || ri->busy;
  ri_edit *edits = busy ? NULL : ri->edits;
  if (!busy)
    ri->edits = NULL;
  pthread_mutex_unlock(&ri->lock);
  if (busy)
    return acl__fail(api, ACL_ERROR_RT_MODEL_UPDATE_FAILED, __FILE__, __LINE__,
                     "aclmdlRI %u has replays queued or running. Remedy: synchronize the streams it was executed on, "
                     "then call aclmdlRIUpdate",
                     ri->id);
  int rc = 0;
  for (ri_edit *e = edits, *next; e != NULL; e = next) {
    next = e->next;
    if (rc == 0 && (rc = apply_edit(api, e)) != 0 && rc != ACL_ERROR_RT_MODEL_UPDATE_FAILED)
      rc = acl__fail(api, ACL_ERROR_RT_MODEL_UPDATE_FAILED, __FILE__, __LINE__,
                     "aclmdlRIUpdate stopped at a task whose new parameters were refused (the previous message "
                     "says why); the edits after it were dropped");
    free(e);
  }
  return rc;
}

int acl__graph_kernel_attr(const char *api, acl__task *t, aclrtLaunchKernelAttrId id, aclrtLaunchKernelAttrValue *v) {
  if (t->ri_type != ACL_MODEL_RI_TASK_KERNEL)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "the task is not a kernel launch");
  if (id == ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE || id == ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET ||
      id == ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH || id < ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE ||
      id > ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "attribute %d cannot be read from a recorded kernel task (ENGINE_TYPE, BLOCKDIM_OFFSET and "
                     "BLOCK_TASK_PREFETCH are not kept)",
                     (int)id);
  /* the simulated device runs every launch with the default attributes (its launch calls check the given ones
   * and keep none): the value read back is the default, 0 */
  memset(v, 0, sizeof(*v));
  return 0;
}

int acl__graph_abort(const char *api, acl__ri *ri) {
  if (ri->kind != RI_BUILT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u was captured; aclmdlRIAbort stops built model runtime instances only", ri->id);
  if (acl__ri_abort(ri, ACL_ERROR_RT_MODEL_ABORT_NORMAL))
    ACL__LOGI(ACL__MOD_RUNTIME, "aclmdlRI %u aborted", ri->id);
  return 0;
}

/* ---- operator information of recorded tasks, persistent task cleaning ---------------- */

int acl__graph_cache_info(const char *api, const void *info, size_t size, int extend) {
  acl__ri *ri = acl__ri_last_ri;
  acl__task *t = acl__ri_last_task;
  if (ri == NULL || !acl__handle_valid(ri, ACL__H_MODEL_RI) || !acl__handle_valid(t, ACL__H_RI_TASK))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "this thread has recorded no task into a live model runtime instance; the information is "
                     "kept for the last task the thread submitted to a capturing or bound stream");
  ri_info *in = malloc(sizeof(*in) + size);
  if (in == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for %zu bytes", size);
  in->t = t;
  in->extend = extend;
  in->n = size;
  memcpy(in->data, info, size);
  pthread_mutex_lock(&ri->lock);
  for (ri_info **pp = &ri->infos; *pp != NULL; pp = &(*pp)->next)
    if ((*pp)->t == t && (*pp)->extend == extend) { /* the last call wins */
      ri_info *old = *pp;
      *pp = old->next;
      free(old);
      break;
    }
  in->next = ri->infos;
  ri->infos = in;
  pthread_mutex_unlock(&ri->lock);
  return 0;
}

size_t acl__graph_task_info(acl__ri *ri, acl__task *t, int extend, const void **data) {
  size_t n = 0;
  pthread_mutex_lock(&ri->lock);
  for (ri_info *in = ri->infos; in != NULL; in = in->next)
    if (in->t == t && in->extend == extend) {
      *data = in->data;
      n = in->n;
    }
  pthread_mutex_unlock(&ri->lock);
  return n;
}

int acl__graph_persistent_clean(const char *api, acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  acl__capture *h = s->capture;
  int rc = 0;
  acl__task **drop = NULL;
  uint32_t n = 0;
  if (h == NULL || h->cs != NULL || h->grp != NULL) {
    rc = acl__fail(api, ACL_ERROR_RT_STREAM_MODEL, __FILE__, __LINE__,
                   "stream %d is not a persistent stream bound to a model runtime instance being built; it holds "
                   "no persistent tasks",
                   s->id);
  } else if (h->sealed) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the build of aclmdlRI %u has ended; its tasks are cleaned with aclmdlRIDestroy", h->ri->id);
  } else {
    drop = h->lane->tasks;
    n = h->lane->n;
    h->lane->tasks = NULL;
    h->lane->n = h->lane->cap = 0;
  }
  pthread_mutex_unlock(&s->lock);
  for (uint32_t i = 0; i < n; i++)
    acl__handle_unregister(drop[i]);
  release_tasks(drop, n);
  free(drop);
  return rc;
}

void acl__ri_update_free(acl__ri *ri) {
  for (ri_info *in = ri->infos, *next; in != NULL; in = next) {
    next = in->next;
    free(in);
  }
  ri->infos = NULL;
  for (ri_grp *g = ri->grps, *next; g != NULL; g = next) {
    next = g->next;
    acl__handle_unregister(g);
    free(g);
  }
  ri->grps = NULL;
  release_tasks(ri->old, ri->nold);
  free(ri->old);
  for (ri_edit *e = ri->edits, *next; e != NULL; e = next) {
    next = e->next;
    free(e);
  }
}
