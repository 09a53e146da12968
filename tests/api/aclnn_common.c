/*
 * aclnn_common.c - the executors of the aclnn common layer through the
 * public API: one-shot by default, repeatable, address setters; and phase
 * 2 as a stream task: asynchronous, ordered, visible to events, device
 * memory only, a current context needed, several threads at once.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "aclnn_util.h"
#include "rt_common.h"

/* ---- executors ----------------------------------------------------------------------------------- */

typedef struct abc {
  nt_tensor a, b, o;
  aclScalar *one;
} abc;

static abc abc_make(double va, double vb) {
  abc x;
  const int64_t d[1] = {4};
  double a[4] = {va, va, va, va}, b[4] = {vb, vb, vb, vb};
  x.a = nt_make(ACL_FLOAT, 1, d, a);
  x.b = nt_make(ACL_FLOAT, 1, d, b);
  x.o = nt_make(ACL_FLOAT, 1, d, NULL);
  x.one = nt_scalar(ACL_FLOAT, 1);
  return x;
}

static void abc_free(abc *x) {
  nt_free(&x->a);
  nt_free(&x->b);
  nt_free(&x->o);
  aclDestroyScalar(x->one);
}

static void expect_all(const nt_tensor *t, double v) {
  double *got = nt_read(t);
  for (int64_t i = 0; i < nt_numel(t->ndim, t->dims); i++)
    if (got[i] != v)
      th_fail(__FILE__, __LINE__, "element %lld is %g, want %g", (long long)i, got[i], v);
  free(got);
}

TEST(executor_is_one_shot) {
  aclrtStream st = nt_up();
  abc x = abc_make(1, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  /* the run released it: a second run is refused */
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID,
           "aclnnAdd failed: ACLNN_ERR_PARAM_INVALID (161002): executor");
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "an executor runs once and is released by that run");
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  expect_all(&x.o, 3);
  /* NULL executor; an executor of another operator; a failed run also releases it */
  NT_FAILS(aclnnAdd(NULL, 0, NULL, st), ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
  NT_OK(aclnnMulGetWorkspaceSize(x.a.t, x.b.t, x.o.t, &ws, &ex));
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID,
           "was planned by aclnnMulGetWorkspaceSize: pass it to aclnnMul, not to aclnnAdd");
  NT_FAILS(aclnnMul(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "not a live aclOpExecutor");
  /* a one-shot executor that is never run can be destroyed */
  NT_OK(aclnnMulGetWorkspaceSize(x.a.t, x.b.t, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_FAILS(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID, "not a live aclOpExecutor");
  NT_FAILS(aclDestroyAclOpExecutor(NULL), ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
  NT_FAILS(aclSetAclOpExecutorRepeatable(NULL), ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
  abc_free(&x);
  nt_down(st);
}

TEST(repeatable_executor_and_address_setters) {
  aclrtStream st = nt_up();
  abc x = abc_make(1, 2), y = abc_make(10, 20);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  expect_all(&x.o, 3);
  /* new addresses: inputs 0 (self) and 1 (other), output 0; the tensors get them too */
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 0, x.a.t, y.a.dev), 0);
  CHECK_INT_EQ(aclSetTensorAddr(ex, 1, x.b.t, y.b.dev), 0);
  CHECK_INT_EQ(aclSetOutputTensorAddr(ex, 0, x.o.t, y.o.dev), 0);
  void *addr;
  CHECK_INT_EQ(aclGetRawTensorAddr(x.a.t, &addr), 0);
  CHECK(addr == y.a.dev);
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  expect_all(&y.o, 30);
  /* aclSetTensorAddr counts inputs then outputs: 2 is the output */
  CHECK_INT_EQ(AclSetTensorAddr(ex, 2, x.o.t, x.o.dev), 0);
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  expect_all(&x.o, 30);
  /* bad indices, NULLs, and tensor lists (no operator of this slice has one) */
  NT_FAILS(aclSetInputTensorAddr(ex, 2, x.a.t, y.a.dev), ACLNN_ERR_PARAM_INVALID, "index 2 is out of range");
  NT_FAILS(aclSetOutputTensorAddr(ex, 1, x.o.t, y.o.dev), ACLNN_ERR_PARAM_INVALID, "index 1 is out of range");
  NT_FAILS(aclSetTensorAddr(ex, 3, x.o.t, y.o.dev), ACLNN_ERR_PARAM_INVALID,
           "indices count the inputs, then the outputs");
  NT_FAILS(aclSetInputTensorAddr(NULL, 0, x.a.t, y.a.dev), ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
  NT_FAILS(AclSetInputTensorAddr(ex, 0, NULL, y.a.dev), ACLNN_ERR_INNER_NULLPTR, "tensor is NULL");
  const aclTensor *one[1] = {aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL)};
  aclTensorList *tl = aclCreateTensorList(one, 1);
  NT_FAILS(aclSetDynamicInputTensorAddr(ex, 0, 0, tl, y.a.dev), ACLNN_ERR_PARAM_INVALID, "not a tensor-list parameter");
  NT_FAILS(aclSetDynamicOutputTensorAddr(ex, 0, 0, tl, y.a.dev), ACLNN_ERR_PARAM_INVALID,
           "not a tensor-list parameter");
  NT_FAILS(aclSetDynamicTensorAddr(ex, 0, 0, NULL, y.a.dev), ACLNN_ERR_INNER_NULLPTR, "tensors is NULL");
  NT_FAILS(AclSetDynamicInputTensorAddr(NULL, 0, 0, tl, y.a.dev), ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
  NT_FAILS(AclSetDynamicOutputTensorAddr(ex, 0, 0, tl, NULL), ACLNN_ERR_PARAM_INVALID, "not a tensor-list");
  NT_FAILS(AclSetDynamicTensorAddr(ex, 1, 0, tl, NULL), ACLNN_ERR_PARAM_INVALID, "irIndex 1");
  NT_FAILS(AclSetOutputTensorAddr(ex, 5, x.o.t, NULL), ACLNN_ERR_PARAM_INVALID, "index 5");
  aclDestroyTensorList(tl);
  /* destroyed while its last task may still be queued: the task has its own copy */
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "not a live aclOpExecutor");
  abc_free(&x);
  abc_free(&y);
  nt_down(st);
}

/* ---- phase 2 on streams ------------------------------------------------------------------------- */

TEST(phase_two_is_asynchronous_and_ordered) {
  aclrtStream st = nt_up();
  abc x = abc_make(1, 2);
  rt_gate gate = {0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(st, rt_gate_wait, &gate), ACL_SUCCESS);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, st), 0);
  /* queued behind the gate, with the next operator (out += out) behind it */
  NT_OK(aclnnInplaceAddGetWorkspaceSize(x.o.t, x.o.t, x.one, &ws, &ex));
  CHECK_INT_EQ(aclnnInplaceAdd(NULL, ws, ex, st), 0);
  aclrtEvent ev;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, st), ACL_SUCCESS);
  /* the descriptors may go now: each task carries its own copy */
  CHECK_INT_EQ(aclDestroyTensor(x.a.t), 0);
  x.a.t = NULL;
  rt_sleep_ms(20);
  expect_all(&x.o, 77); /* nothing ran yet */
  aclrtEventRecordedStatus status;
  CHECK_INT_EQ(aclrtQueryEventStatus(ev, &status), ACL_SUCCESS);
  CHECK_INT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  atomic_store(&gate.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeEvent(ev), ACL_SUCCESS);
  expect_all(&x.o, 6); /* (1 + 2) * 2: in stream order */
  CHECK_INT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  abc_free(&x);
  nt_down(st);
}

TEST(phase_two_checks_memory_and_stream) {
  aclrtStream st = nt_up();
  abc x = abc_make(1, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  /* host memory is refused */
  float host[4] = {0};
  const int64_t d[1] = {4}, d8[1] = {8};
  aclTensor *h = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, host);
  NT_OK(aclnnAddGetWorkspaceSize(h, x.b.t, x.one, x.o.t, &ws, &ex));
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "is host memory; operators run on the device");
  void *pinned;
  CHECK_INT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
  aclSetRawTensorAddr(h, pinned);
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, h, &ws, &ex));
  NT_FAILS(aclnnAdd(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "is host memory from aclrtMallocHost");
  CHECK_INT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  /* a view reaching past its allocation, a misaligned one, freed memory, no memory */
  aclTensor *big = aclCreateTensor(d8, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d8, 1, x.a.dev);
  NT_OK(aclnnAbsGetWorkspaceSize(big, big, &ws, &ex));
  NT_FAILS(aclnnAbs(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "span 32 bytes");
  aclSetRawTensorAddr(h, (char *)x.a.dev + 2);
  aclInitTensor(h, d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, (char *)x.a.dev + 2);
  const int64_t d3[1] = {3};
  aclInitTensor(h, d3, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d3, 1, (char *)x.a.dev + 2);
  NT_OK(aclnnAbsGetWorkspaceSize(h, h, &ws, &ex));
  NT_FAILS(aclnnAbs(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "not aligned to its element size");
  void *gone;
  CHECK_INT_EQ(aclrtMalloc(&gone, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(gone), ACL_SUCCESS);
  aclInitTensor(h, d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, gone);
  NT_OK(aclnnAbsGetWorkspaceSize(h, x.o.t, &ws, &ex));
  NT_FAILS(aclnnAbs(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "not in a live device allocation");
  aclInitTensor(h, d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
  NT_OK(aclnnAbsGetWorkspaceSize(h, x.o.t, &ws, &ex));
  NT_FAILS(aclnnAbs(NULL, ws, ex, st), ACLNN_ERR_PARAM_INVALID, "self has no data address");
  /* a destroyed stream; the default stream (NULL) works */
  aclrtStream dead;
  CHECK_INT_EQ(aclrtCreateStream(&dead), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(dead), ACL_SUCCESS);
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  NT_FAILS(aclnnAdd(NULL, ws, ex, dead), ACLNN_ERR_RUNTIME_ERROR,
           "ACLNN_ERR_RUNTIME_ERROR (361001): the operator cannot be queued");
  NT_OK(aclnnAddGetWorkspaceSize(x.a.t, x.b.t, x.one, x.o.t, &ws, &ex));
  CHECK_INT_EQ(aclnnAdd(NULL, ws, ex, NULL), 0);
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  expect_all(&x.o, 3);
  aclDestroyTensor(h);
  aclDestroyTensor(big);
  abc_free(&x);
  nt_down(st);
}

/* A thread with no current context: phase 1 works (host only), phase 2 cannot queue. */
static void *no_context_thread(void *arg) {
  aclTensor **t = arg;
  uint64_t ws;
  aclOpExecutor *ex;
  int rc = aclnnNegGetWorkspaceSize(t[0], t[1], &ws, &ex);
  if (rc != 0)
    return (void *)1;
  rc = aclnnNeg(NULL, ws, ex, NULL);
  const char *msg = aclGetRecentErrMsg();
  return (void *)(intptr_t)(rc == ACLNN_ERR_RUNTIME_ERROR && msg != NULL && strstr(msg, "aclnnNeg failed") ? 0 : 2);
}

TEST(phase_two_needs_a_context) {
  aclrtStream st = nt_up();
  abc x = abc_make(1, 2);
  aclTensor *t[2] = {x.a.t, x.o.t};
  pthread_t th;
  void *res;
  CHECK_INT_EQ(pthread_create(&th, NULL, no_context_thread, t), 0);
  CHECK_INT_EQ(pthread_join(th, &res), 0);
  CHECK_INT_EQ((intptr_t)res, 0);
  abc_free(&x);
  nt_down(st);
}

/* Independent executors on several threads and streams at once. */
typedef struct worker {
  aclrtContext ctx;
  int id;
  int failed;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  if (aclrtSetCurrentContext(w->ctx) != ACL_SUCCESS) {
    w->failed = 1;
    return NULL;
  }
  aclrtStream st;
  aclrtCreateStream(&st);
  const int64_t d[1] = {1000};
  double va[1000], vb[1000];
  for (int i = 0; i < 1000; i++) {
    va[i] = w->id;
    vb[i] = i;
  }
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, va), b = nt_make(ACL_FLOAT, 1, d, vb), o = nt_make(ACL_FLOAT, 1, d, NULL);
  for (int k = 0; k < 50; k++) {
    uint64_t ws;
    aclOpExecutor *ex;
    if (aclnnMulGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex) != 0 || aclnnMul(NULL, ws, ex, st) != 0)
      w->failed = 1;
    if (aclnnInplaceAddGetWorkspaceSize(a.t, o.t, NULL, &ws, &ex) == 0)
      w->failed = 1; /* alpha NULL is refused */
  }
  aclrtSynchronizeStream(st);
  double *got = nt_read(&o);
  for (int i = 0; i < 1000; i++)
    if (got[i] != (double)w->id * i)
      w->failed = 1;
  free(got);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  aclrtDestroyStream(st);
  return NULL;
}

TEST(threads_run_their_own_executors) {
  aclrtStream st = nt_up();
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  worker w[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    w[i] = (worker){ctx, i + 1, 0};
    CHECK_INT_EQ(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
  }
  for (int i = 0; i < 4; i++) {
    CHECK_INT_EQ(pthread_join(th[i], NULL), 0);
    CHECK_INT_EQ(w[i].failed, 0);
  }
  nt_down(st);
}
