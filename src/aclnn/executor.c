/*
 * executor.c - aclOpExecutor: what an operator's first phase hands its
 * second, the second phase itself (acl__nn_run: checks, then one task on
 * the stream), repeatable executors and their address setters,
 * aclDumpOpTensors, and aclnnInit / aclnnFinalize.
 *
 * Phase 2 follows the vendor's CommonOpExecutorRun (reference aclnn.md
 * section 5): a one-shot executor is released by its run whether the run
 * succeeded or not; a repeatable one lives until aclDestroyAclOpExecutor.
 * Each run queues one task carrying its own copy of the plan with the
 * device addresses of that moment, so the executor, the workspace pointer
 * variable and the tensor descriptors may all go once aclnnXxx returns;
 * the memory itself must stay until the stream has run the task.
 *
 * Every address is checked when the task is queued: device memory (or
 * managed memory, or the device address of registered host memory) of the
 * stream's device, long enough for the elements the plan touches, aligned
 * to the element size.  Host memory is refused (161002), as a card refuses
 * it with a fault.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aclnn/aclnn_base.h"
#include "aclnn/nn.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/memory.h"
#include "rt/rt.h"

/* A plan smaller than this runs on the executor thread alone; larger ones
 * are split into blocks of at least ACL__NN_BLOCK elements that the
 * device's executors share (acl__device_parallel_for). */
#define ACL__NN_PARALLEL_MIN 65536
#define ACL__NN_BLOCK 32768
#define ACL__NN_MAX_BLOCKS 1024

/* ---- executors ---------------------------------------------------------------------- */

aclOpExecutor *acl__nn_exec_new(const char *api2) {
  aclOpExecutor *ex = calloc(1, sizeof *ex);
  if (ex == NULL)
    return NULL;
  ex->api2 = api2;
  acl__handle_register(ex, ACL__H_NN_EXECUTOR);
  return ex;
}

static void acl__nn_exec_free(aclOpExecutor *ex) {
  acl__handle_unregister(ex);
  acl__nn_job_unref(ex->job);
  free(ex->views);
  free(ex);
}

/* 0 when ex is a live executor; otherwise the code, recorded for api
 * (null_code for NULL: 161001 in phase 2, 561103 in the executor APIs). */
static int acl__nn_exec_check(const char *api, const aclOpExecutor *ex, int null_code) {
  if (ex == NULL)
    return acl__fail(api, null_code, __FILE__, __LINE__, "executor is NULL");
  if (acl__handle_valid(ex, ACL__H_NN_EXECUTOR))
    return 0;
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "executor %p is not a live aclOpExecutor: an executor runs once and is released by that run "
                   "unless aclSetAclOpExecutorRepeatable made it repeatable, and aclDestroyAclOpExecutor releases a "
                   "repeatable one. Remedy: call aclnnXxxGetWorkspaceSize again for each run, or make the executor "
                   "repeatable right after it",
                   (const void *)ex);
}

/* Whether writing the output element by element could overwrite an input
 * element not read yet: the output's bytes meet an input's, and the two are
 * not the same elements in the same order. */
int acl__nn_exec_overlaps(const aclOpExecutor *ex) {
  const acl__nn_plan *p = &ex->plan;
  const acl__nn_slot *so = &ex->slot[p->out.slot];
  if (so->addr == NULL)
    return 0;
  uintptr_t olo = (uintptr_t)so->addr + (uintptr_t)so->lo, ohi = (uintptr_t)so->addr + (uintptr_t)so->hi;
  for (int i = 0; i < p->nin; i++) {
    const acl__nn_arg *a = &p->in[i];
    if (a->is_const)
      continue;
    const acl__nn_slot *si = &ex->slot[a->slot];
    if (si->addr == NULL)
      continue;
    uintptr_t ilo = (uintptr_t)si->addr + (uintptr_t)si->lo, ihi = (uintptr_t)si->addr + (uintptr_t)si->hi;
    if (ihi <= olo || ohi <= ilo)
      continue;
    int same = (uintptr_t)si->addr + (uintptr_t)a->off == (uintptr_t)so->addr + (uintptr_t)p->out.off &&
               acl__nn_dtype_size(a->dtype) == acl__nn_dtype_size(p->out.dtype);
    for (int k = 0; k < p->rank && same; k++)
      same = p->dims[k] == 1 || a->st[k] == p->out.st[k];
    if (!same)
      return 1;
  }
  return 0;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
  int rc = acl__nn_exec_check(__func__, executor, ACLNN_ERR_INNER_NULLPTR);
  if (rc == 0)
    executor->repeatable = 1;
  return rc;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
  int rc = acl__nn_exec_check(__func__, executor, ACLNN_ERR_INNER_NULLPTR);
  if (rc == 0)
    acl__nn_exec_free(executor);
  return rc;
}

/* ---- address setters ----------------------------------------------------------------- */

enum { ACL__NN_SET_IN, ACL__NN_SET_OUT, ACL__NN_SET_ANY };

static aclnnStatus acl__nn_set_addr(const char *api, aclOpExecutor *ex, size_t index, aclTensor *tensor, void *addr,
                                    int which) {
  int rc = acl__nn_exec_check(api, ex, ACLNN_ERR_INNER_NULLPTR);
  if (rc != 0)
    return rc;
  if (tensor == NULL)
    return acl__fail(api, ACLNN_ERR_INNER_NULLPTR, __FILE__, __LINE__, "tensor is NULL");
  if (acl__nn_tensor_arg(api, "tensor", tensor, &rc) == NULL)
    return rc;
  size_t count = which == ACL__NN_SET_IN    ? (size_t)ex->n_in
                 : which == ACL__NN_SET_OUT ? (size_t)ex->n_out
                                            : (size_t)(ex->n_in + ex->n_out);
  if (index >= count)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "index %zu is out of range: the executor of %s has %d input and %d output tensor(s)%s", index,
                     ex->api2, ex->n_in, ex->n_out,
                     which == ACL__NN_SET_ANY ? " (indices count the inputs, then the outputs)" : "");
  int slot;
  if (which == ACL__NN_SET_IN || (which == ACL__NN_SET_ANY && index < (size_t)ex->n_in))
    slot = ex->in_slot[index];
  else
    slot = ex->out_slot[which == ACL__NN_SET_ANY ? index - (size_t)ex->n_in : index];
  ex->slot[slot].addr = addr;
  tensor->data = addr;
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_IN);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_OUT);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_ANY);
}

/* The tensor-list setters: element relativeIndex of the list parameter at
 * position irIndex among the operator's inputs (ACL__NN_SET_IN), its
 * outputs (ACL__NN_SET_OUT) or both, inputs first (ACL__NN_SET_ANY); the
 * address also goes into that element of `tensors`, as the vendor's do. */
static aclnnStatus acl__nn_set_dynamic(const char *api, aclOpExecutor *ex, size_t irIndex, size_t relativeIndex,
                                       aclTensorList *tensors, void *addr, int which) {
  int rc = acl__nn_exec_check(api, ex, ACLNN_ERR_INNER_NULLPTR);
  if (rc != 0)
    return rc;
  if (tensors == NULL)
    return acl__fail(api, ACLNN_ERR_INNER_NULLPTR, __FILE__, __LINE__, "tensors is NULL");
  uint64_t n = 0;
  aclTensor *const *el = acl__nn_tensor_list_arg(api, "tensors", tensors, &n, &rc);
  if (el == NULL)
    return rc;
  int match = ex->has_list && (which == ACL__NN_SET_ANY ? irIndex == (size_t)(ex->list_out ? ex->list_ir_all
                                                                                            : ex->list_ir)
                                                        : (which == ACL__NN_SET_OUT) == ex->list_out &&
                                                              irIndex == (size_t)ex->list_ir);
  if (!match)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "irIndex %zu (element %zu) is not a tensor-list parameter of %s%s%s. Remedy: use "
                     "aclSetInputTensorAddr / aclSetOutputTensorAddr%s",
                     irIndex, relativeIndex, ex->api2,
                     which == ACL__NN_SET_OUT  ? " among its outputs"
                     : which == ACL__NN_SET_IN ? " among its inputs"
                                               : "",
                     ex->has_list ? "" : ": it has none", ex->has_list ? ", or the list's irIndex (docs/aclnn.md)" : "");
  if (relativeIndex >= (size_t)ex->list_n || relativeIndex >= n || ex->list_el[relativeIndex] < 0 ||
      el[relativeIndex] == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "relativeIndex %zu is out of range (or a NULL entry): the list of %s has %d element(s)",
                     relativeIndex, ex->api2, ex->list_n);
  const int *slots = ex->list_out ? ex->out_slot : ex->in_slot;
  ex->slot[slots[ex->list_el[relativeIndex]]].addr = addr;
  el[relativeIndex]->data = addr;
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_IN);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_OUT);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_ANY);
}

/* The reserved capitalised names (reference aclnn.md section 4). */
aclnnStatus AclSetInputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_IN);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_OUT);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor *executor, const size_t index, aclTensor *tensor, void *addr) {
  return acl__nn_set_addr(__func__, executor, index, tensor, addr, ACL__NN_SET_ANY);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_IN);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_OUT);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor *executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList *tensors, void *addr) {
  return acl__nn_set_dynamic(__func__, executor, irIndex, relativeIndex, tensors, addr, ACL__NN_SET_ANY);
}

/* ---- the task -------------------------------------------------------------------------- */

typedef struct acl__nn_task {
  acl__nn_plan plan; /* addresses set */
  acl__device *dev;
  int via_temp; /* compute into a temporary, then copy it to the output */
  char *temp;   /* the workspace for it, or NULL: allocated when run */
  acl__nn_dump *dump; /* operator dump (dump.c), or NULL */
} acl__nn_task;

typedef struct acl__nn_par {
  const acl__nn_plan *p;
  int64_t per;
} acl__nn_par;

static int acl__nn_block(uint32_t i, void *arg) {
  const acl__nn_par *w = arg;
  int64_t start = (int64_t)i * w->per, end = start + w->per;
  acl__nn_kernel_range(w->p, start, end < w->p->numel ? end : w->p->numel);
  return 0;
}

/* Runs a whole plan, block-parallel when it is large. */
static int acl__nn_exec_plan(acl__device *dev, const acl__nn_plan *p) {
  if (p->numel < ACL__NN_PARALLEL_MIN) {
    acl__nn_kernel_range(p, 0, p->numel);
    return 0;
  }
  int64_t per = ACL__NN_BLOCK;
  if ((p->numel + per - 1) / per > ACL__NN_MAX_BLOCKS)
    per = (p->numel + ACL__NN_MAX_BLOCKS - 1) / ACL__NN_MAX_BLOCKS;
  acl__nn_par w = {p, per};
  return acl__device_parallel_for(dev, (uint32_t)((p->numel + per - 1) / per), acl__nn_block, &w);
}

static int acl__nn_task_compute(acl__task *t);

static int acl__nn_task_run(acl__task *t) {
  acl__nn_task *k = acl__task_payload(t);
  acl__nn_dump_before(k->dump);
  int rc = acl__nn_task_compute(t);
  acl__nn_dump_after(k->dump, t->seq, rc);
  return rc;
}

static void acl__nn_task_release(acl__task *t) {
  acl__nn_task *k = acl__task_payload(t);
  acl__nn_dump_free(k->dump);
  free(t);
}

static int acl__nn_task_compute(acl__task *t) {
  acl__nn_task *k = acl__task_payload(t);
  if (!k->via_temp)
    return acl__nn_exec_plan(k->dev, &k->plan);
  /* pass 1 into a contiguous temporary of the output's type, pass 2 copies it out */
  size_t es = acl__nn_dtype_size(k->plan.out.dtype);
  char *owned = NULL, *temp = k->temp;
  if (temp == NULL && (temp = owned = malloc((size_t)k->plan.numel * es)) == NULL)
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  acl__nn_plan a = k->plan, b;
  a.out.p = temp;
  int64_t st = (int64_t)es;
  for (int d = a.rank - 1; d >= 0; d--) {
    a.out.st[d] = st;
    st *= a.dims[d];
  }
  int rc = acl__nn_exec_plan(k->dev, &a);
  if (rc == 0) {
    b = k->plan;
    b.op = ACL__NN_COPY;
    b.nin = 1;
    b.cdt = b.out.dtype;
    b.lcls = b.rcls = acl__nn_class_of(b.cdt);
    memset(&b.in[0], 0, sizeof b.in[0]);
    b.in[0].dtype = b.out.dtype;
    b.in[0].p = temp;
    memcpy(b.in[0].st, a.out.st, sizeof a.out.st);
    rc = acl__nn_exec_plan(k->dev, &b);
  }
  free(owned);
  return rc;
}

/* ---- phase 2 ------------------------------------------------------------------------------ */

int acl__nn_check_memory(const char *api, const char *name, const void *addr, int64_t lo, int64_t hi, int64_t off,
                         size_t esize, acl__device *dev) {
  if (addr == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has no data address (NULL). Remedy: create it over memory from aclrtMalloc, or set one with "
                     "aclSetRawTensorAddr",
                     name);
  const char *first = (const char *)addr + lo;
  acl__ptr_info in;
  acl__mem_classify(first, &in);
  int reachable = in.kind == ACL__PTR_DEVICE || in.kind == ACL__PTR_MANAGED ||
                  (in.kind == ACL__PTR_REGISTERED_DEVICE && in.alloc_base != NULL);
  if (!reachable)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s's data %p is %s; operators run on the device and read device memory only. Remedy: "
                     "aclrtMalloc the tensor's memory and copy the data there with aclrtMemcpy",
                     name, first,
                     in.kind == ACL__PTR_DEVICE_UNALLOCATED ? "not in a live device allocation (freed already?)"
                     : in.kind == ACL__PTR_PINNED_HOST      ? "host memory from aclrtMallocHost"
                                                            : "host memory");
  if (in.kind == ACL__PTR_DEVICE && dev != NULL && in.dev != dev)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s's data %p is memory of device %d, but the stream belongs to device %d. Remedy: use memory "
                     "of the stream's device",
                     name, first, (int)in.dev->id, (int)dev->id);
  if ((uint64_t)(hi - lo) > in.alloc_size - in.offset)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s's elements span %lld bytes from %p, but the allocation there ends %zu bytes on (offset, "
                     "strides or shape reach past the memory). Remedy: check the tensor's shape, strides and offset "
                     "against its memory",
                     name, (long long)(hi - lo), first, in.alloc_size - in.offset);
  if (esize > 1 && ((uintptr_t)addr + (uintptr_t)off) % esize != 0)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s's first element %p is not aligned to its element size (%zu bytes). Remedy: use an address "
                     "from aclrtMalloc (32-byte aligned) and whole-element offsets",
                     name, (const void *)((const char *)addr + off), esize);
  return 0;
}

static aclnnStatus acl__nn_run_body(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *ex,
                                    aclrtStream stream) {
  int rc = 0;
  if (strcmp(ex->api2, api) != 0)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "executor %p was planned by %sGetWorkspaceSize: pass it to %s, not to %s", (void *)ex, ex->api2,
                     ex->api2, api);
  if (ex->workspace > 0 && workspace == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__,
                     "workspace is NULL, but %sGetWorkspaceSize asked for %llu bytes. Remedy: aclrtMalloc "
                     "workspaceSize bytes and pass them",
                     api, (unsigned long long)ex->workspace);
  if (workspaceSize < ex->workspace)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "workspaceSize is %llu bytes, less than the %llu %sGetWorkspaceSize asked for. Remedy: pass "
                     "the size phase 1 wrote (and memory of that size)",
                     (unsigned long long)workspaceSize, (unsigned long long)ex->workspace, api);
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return acl__fail(api, ACLNN_ERR_RUNTIME_ERROR, __FILE__, __LINE__,
                     "the operator cannot be queued: the stream is not usable (the previous message says why)");
  if (ex->empty)
    return ACLNN_SUCCESS;
  if (ex->job != NULL)
    return acl__nn_job_submit(api, ex, s);

  acl__task *t = acl__task_new(sizeof(acl__nn_task), acl__nn_task_run, api);
  if (t == NULL)
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for the task");
  t->ri_type = ACL_MODEL_RI_TASK_KERNEL;
  t->ri_ok = 1; /* the plan is copied into the task, which reads and writes the tensors each time it runs:
                   a capture may record it (graph.c) */
  acl__nn_task *k = acl__task_payload(t);
  k->plan = ex->plan;
  k->dev = s->dev;
  acl__nn_plan *p = &k->plan;
  acl__nn_arg *args[3] = {&p->in[0], &p->in[1], &p->out};
  for (int i = 0; i < 3; i++) {
    acl__nn_arg *a = args[i];
    if (i < 2 && (i >= p->nin || a->is_const))
      continue;
    const acl__nn_slot *sl = &ex->slot[a->slot];
    if ((rc = acl__nn_check_memory(api, sl->name, sl->addr, sl->lo, sl->hi, a->off, acl__nn_dtype_size(a->dtype),
                                   s->dev)) != 0)
      goto fail;
    a->p = (char *)acl__mem_dev_ptr(sl->addr) + a->off;
  }
  if (acl__nn_exec_overlaps(ex)) {
    k->via_temp = 1;
    uint64_t need = (uint64_t)p->numel * acl__nn_dtype_size(p->out.dtype);
    if (ex->workspace >= need) { /* as phase 1 planned: the caller's workspace */
      if ((rc = acl__nn_check_memory(api, "workspace", workspace, 0, (int64_t)need, 0, 1, s->dev)) != 0)
        goto fail;
      k->temp = acl__mem_dev_ptr(workspace);
    }
  }
  if ((k->dump = acl__nn_dump_attach(ex, api, s)) != NULL)
    t->release = acl__nn_task_release;
  if (acl__stream_submit(s, t) != 0)
    return acl__fail(api, ACLNN_ERR_RUNTIME_ERROR, __FILE__, __LINE__,
                     "stream %d does not take tasks (it is being destroyed, or host memory ran out)", s->id);
  return ACLNN_SUCCESS;
fail:
  free(t);
  return rc;
}

/* ---- the task of a job (job.c) ------------------------------------------------------------ */

_Static_assert(ACL__NN_MAX_SLOTS <= 32, "acl__nn_jtask.copy_in has one bit per tensor");

typedef struct acl__nn_jtask {
  acl__nn_job *job;                   /* a reference */
  acl__device *dev;
  char *ptr[ACL__NN_MAX_SLOTS];       /* element 0 of each tensor */
  uint32_t copy_in;                   /* inputs that share memory with an output: read from a copy (one bit
                                         each: ACL__NN_MAX_SLOTS <= 32) */
  acl__nn_dump *dump;                 /* operator dump (dump.c), or NULL */
} acl__nn_jtask;

/* a at pa and b at pb are the same elements in the same order: element size, dims and strides alike (dims of
 * 1 aside) */
static int acl__nn_same_view(const acl__nn_tref *a, const char *pa, const acl__nn_tref *b, const char *pb) {
  if (pa != pb || acl__nn_dtype_size(a->dtype) != acl__nn_dtype_size(b->dtype) || a->rank != b->rank)
    return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d] || (a->dims[d] > 1 && a->st[d] != b->st[d]))
      return 0;
  return 1;
}

static int acl__nn_jtask_run(acl__task *t) {
  acl__nn_jtask *k = acl__task_payload(t);
  const acl__nn_job *j = k->job;
  char *ptr[ACL__NN_MAX_SLOTS], *copy[ACL__NN_MAX_SLOTS] = {0};
  int rc = 0;
  memcpy(ptr, k->ptr, sizeof ptr);
  for (int i = 0; i < j->nt && rc == 0; i++) {
    if (!(k->copy_in & (1u << i)))
      continue;
    const acl__nn_tref *r = &j->t[i];
    size_t es = acl__nn_dtype_size(r->dtype);
    char *first = k->ptr[i] - r->off * (int64_t)es + r->lo; /* the lowest byte it reads */
    if ((copy[i] = malloc((size_t)(r->hi - r->lo))) == NULL) {
      rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
      break;
    }
    memcpy(copy[i], first, (size_t)(r->hi - r->lo));
    ptr[i] = copy[i] + (k->ptr[i] - first);
  }
  acl__nn_dump_before(k->dump);
  if (rc == 0)
    rc = j->run(j, ptr, k->dev);
  acl__nn_dump_after(k->dump, t->seq, rc);
  for (int i = 0; i < j->nt; i++)
    free(copy[i]);
  return rc;
}

static void acl__nn_jtask_release(acl__task *t) {
  acl__nn_jtask *k = acl__task_payload(t);
  acl__nn_job_unref(k->job);
  acl__nn_dump_free(k->dump);
  free(t);
}

aclnnStatus acl__nn_job_submit(const char *api, aclOpExecutor *ex, acl__stream *s) {
  int rc = 0;
  const acl__nn_job *j = ex->job;
  acl__task *t = acl__task_new(sizeof(acl__nn_jtask), acl__nn_jtask_run, api);
  if (t == NULL)
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for the task");
  acl__nn_jtask *k = acl__task_payload(t);
  k->dev = s->dev;
  for (int i = 0; i < j->nt; i++) {
    const acl__nn_tref *r = &j->t[i];
    const acl__nn_slot *sl = &ex->slot[r->slot];
    size_t es = acl__nn_dtype_size(r->dtype);
    if (r->hi == r->lo) /* empty: nothing is read or written */
      continue;
    if ((rc = acl__nn_check_memory(api, sl->name, sl->addr, r->lo, r->hi, r->off * (int64_t)es, es, s->dev)) != 0) {
      free(t);
      return rc;
    }
    k->ptr[i] = (char *)acl__mem_dev_ptr(sl->addr) + r->off * (int64_t)es;
  }
  /* an input whose bytes an output also covers is read from a copy, unless it is the output's very view and
   * the operator is pointwise (an in-place operator) */
  for (int i = 0; i < j->nt; i++) {
    const acl__nn_tref *a = &j->t[i];
    if (a->is_out || a->hi == a->lo)
      continue;
    for (int o = 0; o < j->nt; o++) {
      const acl__nn_tref *b = &j->t[o];
      if (!b->is_out || b->hi == b->lo)
        continue;
      uintptr_t alo = (uintptr_t)ex->slot[a->slot].addr + (uintptr_t)a->lo, ahi = alo + (uintptr_t)(a->hi - a->lo);
      uintptr_t blo = (uintptr_t)ex->slot[b->slot].addr + (uintptr_t)b->lo, bhi = blo + (uintptr_t)(b->hi - b->lo);
      if (ahi > blo && bhi > alo && !(j->pointwise && acl__nn_same_view(a, k->ptr[i], b, k->ptr[o])))
        k->copy_in |= 1u << i;
    }
  }
  __atomic_add_fetch(&ex->job->refs, 1, __ATOMIC_RELAXED);
  k->job = ex->job;
  k->dump = acl__nn_dump_attach(ex, api, s);
  t->release = acl__nn_jtask_release;
  t->ri_type = ACL_MODEL_RI_TASK_KERNEL;
  t->ri_ok = 1; /* holds its job and addresses, keeps nothing between runs: a capture may record it (graph.c) */
  if (acl__stream_submit(s, t) != 0)
    return acl__fail(api, ACLNN_ERR_RUNTIME_ERROR, __FILE__, __LINE__,
                     "stream %d does not take tasks (it is being destroyed, or host memory ran out)", s->id);
  return ACLNN_SUCCESS;
}

aclnnStatus acl__nn_run(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                        aclrtStream stream) {
  int rc = acl__nn_exec_check(api, executor, ACLNN_ERR_PARAM_NULLPTR);
  if (rc != 0)
    return rc;
  rc = acl__nn_run_body(api, workspace, workspaceSize, executor, stream);
  if (!executor->repeatable)
    acl__nn_exec_free(executor);
  return rc;
}

/* ---- dump, init ------------------------------------------------------------------------- */

/* Dumps the tensors (inputs first) in stream order when a dump
 * configuration with a dump_path is active (dump.c); nothing otherwise. */
aclnnStatus aclDumpOpTensors(const char *opType, const char *opName, aclTensor **tensors, size_t inputTensorNum,
                             size_t outputTensorNum, aclrtStream stream) {
  int rc = 0;
  const char *null = opType == NULL    ? "opType"
                     : opName == NULL  ? "opName"
                     : tensors == NULL ? "tensors"
                     : stream == NULL  ? "stream"
                                       : NULL;
  if (null != NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", null);
  for (size_t i = 0; i < inputTensorNum + outputTensorNum; i++)
    if (acl__nn_tensor_arg(__func__, i < inputTensorNum ? "an input tensor" : "an output tensor", tensors[i], &rc) ==
        NULL)
      return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return ACL__FAIL(ACLNN_ERR_RUNTIME_ERROR, "the dump cannot be queued: the stream is not usable (the previous "
                     "message says why)");
  return acl__nn_dump_tensors(__func__, opType, opName, tensors, inputTensorNum, outputTensorNum, s);
}

static _Atomic int acl__nn_debug_kernel;

void acl__nn_init(const char *config_path) {
  int debug = 0;
  const char *collect = getenv("NPU_COLLECT_PATH");
  if (collect != NULL && collect[0] != '\0')
    debug = 1;
  if (config_path != NULL && config_path[0] != '\0') {
    json_error_t err;
    json_t *root = json_load_file(config_path, 0, &err);
    if (root == NULL) {
      ACL__LOGW(ACL__MOD_ASCENDCL, "aclnnInit: '%s' is not read (%s, line %d); the defaults stay", config_path,
                err.text, err.line);
    } else {
      json_t *v = json_object_get(json_object_get(root, "op_debug_config"), "enable_debug_kernel");
      if (json_is_string(v) && strcmp(json_string_value(v), "on") == 0)
        debug = 1;
      json_decref(root);
    }
  }
  atomic_store(&acl__nn_debug_kernel, debug);
  ACL__LOGI(ACL__MOD_ASCENDCL, "aclnn initialised (debug kernels %s: openacl has one build of each operator)",
            debug ? "requested" : "off");
}

void acl__nn_finalize(void) {
  atomic_store(&acl__nn_debug_kernel, 0);
  acl__nn_temp_drain();
  acl__nn_conv_cache_drain();
}

aclnnStatus aclnnInit(const char *configPath) {
  acl__nn_init(configPath);
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) {
  acl__nn_finalize();
  return ACLNN_SUCCESS;
}
