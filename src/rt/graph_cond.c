/*
 * graph_cond.c - conditional tasks in captured model runtime instances
 * (aclmdlRICondHandle*, aclmdlRIAddCondTask): IF, WHILE and SWITCH decided
 * on the device by a 64-bit condition word.
 *
 * A cond handle owns 8 bytes of device memory (the runtime's, freed with
 * the RI) and, with ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, is set to its
 * default value when each replay starts (so a value the host wrote before
 * aclmdlRIExecuteAsync is overwritten: the vendor's 3_cond_model sample
 * shows that order).  aclmdlRIAddCondTask records a cond task and makes
 * its branches: empty RIs (kind RI_BRANCH) that the program captures with
 * aclmdlRICaptureToModelRIBegin, each on one stream.  When the cond task
 * runs it reads the word and pushes the chosen branch's lane on the
 * runner's stack of frames (graph_replay.c):
 *   IF      value != 0 runs branch 0, value == 0 branch 1 if there is one;
 *   WHILE   value != 0 runs branch 0 and evaluates again after it;
 *   SWITCH  runs branch `value`, nothing when value >= size (the reference
 *           leaves it open; nothing is the safe reading).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/graph_impl.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"

typedef struct ri_cond_handle {
  acl__ri *ri;                 /* the RI being captured when it was made */
  uint64_t *word;              /* device memory */
  uint64_t def;
  int assign;                  /* set to def at each replay's start */
  int used;                    /* a cond task reads it */
  struct ri_cond_handle *next; /* ri->conds */
} ri_cond_handle;

typedef struct ri_cond_task {
  ri_cond_handle *h;
  aclmdlRICondTaskType type;
  uint32_t size;
  acl__ri **branches;
} ri_cond_task;

int acl__graph_cond_create(const char *api, acl__ri *ri, uint32_t def, aclmdlRICondHandleFlag flag,
                           aclmdlRICondHandle *out) {
  if ((uint32_t)flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "flag %d is neither 0 (the program sets the value) nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT "
                     "(1)",
                     (int)flag);
  pthread_mutex_lock(&ri->lock);
  int recording = ri->recording && ri->kind != RI_BUILT;
  pthread_mutex_unlock(&ri->lock);
  if (!recording)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "aclmdlRI %u is not being captured; condition handles are made during its capture. Remedy: "
                     "pass the instance aclmdlRICaptureGetInfo returns while the capture is active",
                     ri->id);
  ri_cond_handle *h = calloc(1, sizeof(*h));
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a condition handle");
  void *p = NULL;
  int rc = acl__mem_alloc(api, ri->dev, sizeof(uint64_t), 64, ACL_MEM_MALLOC_HUGE_FIRST, 0,
                          __builtin_return_address(0), &p);
  if (rc != 0) {
    free(h);
    return rc;
  }
  h->ri = ri;
  h->word = p;
  h->def = def;
  h->assign = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
  acl__device_access_begin(ri->dev);
  *(volatile uint64_t *)acl__mem_dev_ptr(p) = 0;
  acl__device_access_end(ri->dev);
  pthread_mutex_lock(&ri->lock);
  h->next = ri->conds;
  ri->conds = h;
  pthread_mutex_unlock(&ri->lock);
  acl__handle_register(h, ACL__H_RI_COND);
  *out = h;
  return 0;
}

static ri_cond_handle *cond_resolve(const char *api, aclmdlRICondHandle handle, int *rc) {
  if (acl__handle_valid(handle, ACL__H_RI_COND))
    return handle;
  *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                  "handle %p is not a live condition handle (made by aclmdlRICondHandleCreate; it goes with its "
                  "model runtime instance)",
                  handle);
  return NULL;
}

int acl__graph_cond_ptr(const char *api, aclmdlRICondHandle handle, uint64_t **ptr) {
  int rc = 0;
  ri_cond_handle *h = cond_resolve(api, handle, &rc);
  if (h == NULL)
    return rc;
  *ptr = h->word;
  return 0;
}

void acl__ri_cond_reset(acl__ri *ri) {
  for (ri_cond_handle *h = ri->conds; h != NULL; h = h->next)
    if (h->assign)
      *(volatile uint64_t *)acl__mem_dev_ptr(h->word) = h->def;
  for (uint32_t i = 0; i < ri->nbranches; i++)
    acl__ri_cond_reset(ri->branches[i]);
}

void acl__ri_cond_free(acl__ri *ri) {
  for (ri_cond_handle *h = ri->conds, *next; h != NULL; h = next) {
    next = h->next;
    acl__handle_unregister(h);
    acl__mem_free("aclmdlRIDestroy", h->word);
    free(h);
  }
  ri->conds = NULL;
}

static int cond_run(acl__task *t) {
  ri_cond_task *c = acl__task_payload(t);
  ri_runner *r = acl__ri_cur;
  uint64_t v = *(const volatile uint64_t *)acl__mem_dev_ptr(c->h->word);
  int64_t pick = -1;
  switch (c->type) {
  case ACL_MODEL_RI_COND_TYPE_IF:
    pick = v != 0 ? 0 : (c->size == 2 ? 1 : -1);
    break;
  case ACL_MODEL_RI_COND_TYPE_WHILE:
    pick = v != 0 ? 0 : -1;
    break;
  default:
    pick = v < c->size ? (int64_t)v : -1;
    break;
  }
  if (pick < 0 || c->branches[pick]->main == NULL)
    return 0; /* nothing to run (an empty WHILE body included: it would never end) */
  if (r->depth > RI_MAX_DEPTH) {
    snprintf(t->what, sizeof(t->what), "conditional task nested deeper than %d", RI_MAX_DEPTH);
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  if (c->type != ACL_MODEL_RI_COND_TYPE_WHILE)
    r->st[r->depth - 1].pos++; /* back from the branch: go on after this task */
  r->st[r->depth].lane = c->branches[pick]->main;
  r->st[r->depth].pos = 0;
  r->depth++;
  return RI_CTL_JUMPED;
}

static void cond_release(acl__task *t) {
  ri_cond_task *c = acl__task_payload(t);
  free(c->branches); /* the branch RIs go with their parent (acl__ri_free) */
  free(t);
}

static const char *cond_name(aclmdlRICondTaskType type) {
  return type == ACL_MODEL_RI_COND_TYPE_IF ? "IF" : type == ACL_MODEL_RI_COND_TYPE_WHILE ? "WHILE" : "SWITCH";
}

int acl__graph_cond_add(const char *api, aclmdlRICondTaskParams *p, acl__stream *s) {
  int rc = 0;
  ri_cond_handle *h = cond_resolve(api, p->handle, &rc);
  if (h == NULL)
    return rc;
  if ((unsigned)p->type > ACL_MODEL_RI_COND_TYPE_SWITCH)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "type %d is not IF (0), WHILE (1) or SWITCH (2)", (int)p->type);
  int size_ok = p->type == ACL_MODEL_RI_COND_TYPE_IF      ? p->size == 1 || p->size == 2
                : p->type == ACL_MODEL_RI_COND_TYPE_WHILE ? p->size == 1
                                                          : p->size >= 1 && p->size <= 65535;
  if (!size_ok)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "size %u does not fit a %s task (IF: 1 or 2 branches, WHILE: 1, SWITCH: 1 or more)", p->size,
                     cond_name(p->type));
  pthread_mutex_lock(&s->lock);
  acl__capture *hk = s->capture;
  acl__ri *ri = hk != NULL && hk->cs != NULL ? hk->ri : NULL;
  int origin = hk != NULL && hk->cs != NULL && hk->cs->origin == hk;
  pthread_mutex_unlock(&s->lock);
  if (ri == NULL)
    return acl__fail(api, ACL_ERROR_RT_STREAM_NOT_CAPTURED, __FILE__, __LINE__,
                     "stream %d is not being captured. Remedy: add conditional tasks on the capturing stream", s->id);
  if (!origin)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "stream %d joined the capture of aclmdlRI %u through an event; conditional tasks go on the "
                     "stream the capture began on",
                     s->id, ri->id);
  if (h->ri != ri)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the condition handle belongs to aclmdlRI %u, and stream %d is capturing aclmdlRI %u", h->ri->id,
                     s->id, ri->id);
  if (h->used)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "this condition handle is used by another conditional task already. Remedy: one handle per "
                     "conditional task");
  if (ri->depth + 1 > RI_MAX_DEPTH)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "conditional tasks nest at most %d deep", RI_MAX_DEPTH);
  acl__task *t = acl__ri_ctl_new(sizeof(ri_cond_task), cond_run, NULL);
  acl__ri **br = calloc(p->size, sizeof(*br));
  if (t == NULL || br == NULL) {
    free(t);
    free(br);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a conditional task");
  }
  snprintf(t->what, sizeof(t->what), "%s task (%u branch%s)", cond_name(p->type), p->size, p->size > 1 ? "es" : "");
  t->release = cond_release;
  ri_cond_task *c = acl__task_payload(t);
  c->h = h;
  c->type = p->type;
  c->size = p->size;
  c->branches = br;
  for (uint32_t i = 0; i < p->size && rc == 0; i++) {
    if ((br[i] = acl__ri_new(ri->ctx, RI_BRANCH)) == NULL) {
      rc = ACL_ERROR_BAD_ALLOC;
      break;
    }
    br[i]->parent = ri;
    br[i]->depth = ri->depth + 1;
  }
  pthread_mutex_lock(&ri->lock);
  if (rc == 0 && ri->nbranches + p->size > ri->cap_branches) {
    uint32_t cap = (ri->nbranches + p->size) * 2;
    acl__ri **nb = realloc(ri->branches, cap * sizeof(*nb));
    if (nb == NULL) {
      rc = ACL_ERROR_BAD_ALLOC;
    } else {
      ri->branches = nb;
      ri->cap_branches = cap;
    }
  }
  if (rc == 0)
    for (uint32_t i = 0; i < p->size; i++)
      ri->branches[ri->nbranches++] = br[i];
  pthread_mutex_unlock(&ri->lock);
  if (rc != 0) {
    for (uint32_t i = 0; i < p->size; i++)
      if (br[i] != NULL)
        acl__ri_free(br[i]);
    cond_release(t);
    return acl__fail(api, rc, __FILE__, __LINE__, "out of host memory for the branches of a conditional task");
  }
  for (uint32_t i = 0; i < p->size; i++)
    acl__handle_register(br[i], ACL__H_MODEL_RI);
  /* the branches are the parent's now: if recording the task fails they go with it */
  if ((rc = acl__stream_submit(s, t)) != 0)
    return rc == ACL_ERROR_RT_STREAM_CONTEXT ? acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed",
                                                         s->id)
                                             : rc;
  h->used = 1;
  for (uint32_t i = 0; i < p->size; i++)
    p->modelRIArray[i] = br[i];
  return 0;
}
