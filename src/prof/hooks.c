/*
 * hooks.c - the bodies of the hooks in prof.h: what the executors, the API
 * layer and the model engine record while profiling is on.  Each appends
 * one record to the calling thread's buffer (recorder.c); nothing here
 * locks, except the subscription path (subscribe.c) for models that have
 * a subscriber.
 */
#include <string.h>

#include "prof/prof_internal.h"
#include "rt/rt.h"

/* The model execution the calling thread runs (acl__prof_exec_enter). */
static _Thread_local struct {
  int active;
  int sub;          /* the model has a subscriber */
  int16_t device;
  int32_t stream;
  uint64_t seq;
  uint32_t model;
} cur_exec;

static inline unsigned flags(void) { return atomic_load_explicit(&acl__prof_flags, memory_order_relaxed); }

static int task_kind(const char *what) {
  if (strncmp(what, "kernel", 6) == 0)
    return PTASK_KERNEL;
  if (strncmp(what, "execution of model", 18) == 0)
    return PTASK_MODEL;
  if (strncmp(what, "copy", 4) == 0 || strncmp(what, "fill", 4) == 0 || strncmp(what, "2d ", 3) == 0 ||
      strncmp(what, "batch of", 8) == 0 || strncmp(what, "device copy", 11) == 0)
    return PTASK_MEMCPY;
  if (strncmp(what, "host ", 5) == 0 || strncmp(what, "BLOCK callback", 14) == 0)
    return PTASK_HOSTFUNC;
  if (strncmp(what, "event record", 12) == 0 || strncmp(what, "event reset", 11) == 0)
    return PTASK_EVENT_RECORD;
  if (strncmp(what, "event wait", 10) == 0)
    return PTASK_EVENT_WAIT;
  if (strncmp(what, "msproftx", 8) == 0)
    return PTASK_MARKER;
  return PTASK_OTHER;
}

const char *acl__prof_task_kind_name(int kind) {
  static const char *const names[PTASK_KIND_COUNT] = {
      "task", "kernel", "model execution", "memcpy", "host function", "event record", "event wait", "marker"};
  return kind >= 0 && kind < PTASK_KIND_COUNT ? names[kind] : "task";
}

/* The vendor's Task Type / runtime API names for each kind. */
const char *acl__prof_task_type(int kind) {
  static const char *const names[PTASK_KIND_COUNT] = {
      "OTHER", "KERNEL_AICORE", "MODEL_EXECUTE", "MEMCPY_ASYNC", "HOST_FUNC", "EVENT_RECORD", "EVENT_WAIT",
      "MARKER"};
  return kind >= 0 && kind < PTASK_KIND_COUNT ? names[kind] : "OTHER";
}

_Thread_local int acl__prof_api_depth;

void acl__prof_api(const char *name, uint64_t t0) {
  if (!(flags() & ACL__PROF_F_API))
    return;
  uint64_t t1 = acl__prof_now();
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  r->kind = PREC_API;
  r->t0 = t0;
  r->t1 = t1;
  r->ptr = name;
  acl__prof_commit();
}

void acl__prof_submit(const struct acl__stream *s, const struct acl__task *t, uint64_t t0) {
  if (!(flags() & (ACL__PROF_F_RT | ACL__PROF_F_TASK)))
    return;
  uint64_t t1 = acl__prof_now();
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  r->kind = PREC_SUBMIT;
  r->sub = (uint8_t)task_kind(t->what);
  r->device = (int16_t)s->dev->id;
  r->stream = s->id;
  r->seq = t->seq;
  r->t0 = t0;
  r->t1 = t1;
  memcpy(r->text, t->what, sizeof(r->text) - 1);
  acl__prof_commit();
}

void acl__prof_task(const struct acl__task *t, uint64_t t0, int rc) {
  if (!(flags() & ACL__PROF_F_TASK))
    return;
  uint64_t t1 = acl__prof_now();
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  const acl__stream *s = t->stream;
  r->kind = PREC_TASK;
  r->sub = (uint8_t)task_kind(t->what);
  r->device = (int16_t)s->dev->id;
  r->stream = s->id;
  r->seq = t->seq;
  r->tid2 = t->submit_tid;
  r->rc = rc;
  r->t0 = t0;
  r->t1 = t1;
  memcpy(r->text, t->what, sizeof(r->text) - 1);
  if (r->sub == PTASK_MODEL) {
    unsigned id = 0;
    if (sscanf(t->what, "execution of model %u", &id) == 1)
      r->model = id;
  }
  acl__prof_commit();
}

void acl__prof_exec_enter(const struct acl__task *t, uint32_t model_id) {
  cur_exec.active = 1;
  cur_exec.device = (int16_t)t->stream->dev->id;
  cur_exec.stream = t->stream->id;
  cur_exec.seq = t->seq;
  cur_exec.model = model_id;
  cur_exec.sub = (flags() & ACL__PROF_F_SUB) && acl__prof_sub_wants(model_id);
}

void acl__prof_exec_leave(void) {
  if (cur_exec.sub)
    acl__prof_sub_flush(cur_exec.model);
  cur_exec.active = 0;
  cur_exec.sub = 0;
}

void acl__prof_op(const acl__prof_opinfo *info, uint64_t t0, uint64_t t1) {
  if (info == NULL)
    return;
  if (cur_exec.sub)
    acl__prof_sub_op(cur_exec.model, info, t0, t1, acl__prof_tid(), cur_exec.device);
  if (!(flags() & ACL__PROF_F_OP))
    return;
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  r->kind = PREC_OP;
  r->t0 = t0;
  r->t1 = t1;
  r->ptr = info;
  if (cur_exec.active) {
    r->device = cur_exec.device;
    r->stream = cur_exec.stream;
    r->seq = cur_exec.seq;
    r->model = cur_exec.model;
  }
  acl__prof_commit();
}

void acl__prof_mem(int32_t device, uint64_t bytes_in_use) {
  if (!(flags() & ACL__PROF_F_MEM))
    return;
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  r->kind = PREC_MEM;
  r->device = (int16_t)device;
  r->seq = bytes_in_use;
  r->t0 = r->t1 = acl__prof_now();
  acl__prof_commit();
}
