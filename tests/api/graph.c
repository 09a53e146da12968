/*
 * graph.c - model runtime instances captured from one stream (aclmdlRI,
 * docs/graphs.md): capture and replay equal eager execution, replays are
 * serialised, host functions, value waits and notifies replay, capture modes, the
 * capture error codes, names, ids, callbacks, introspection and the JSON
 * dump.  Several streams, build mode and conditional tasks are in
 * graph_multi.c, changes after recording in graph_update.c.  Public API
 * only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#define TK OPENACL_TEST_KERNELS
#define N 1024

static _Thread_local aclrtParamHandle ph_;
static aclrtBinHandle bin_;
static aclrtFuncHandle axpb_, vadd_;

static void up(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, NULL, &bin_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin_, "tk_axpb", &axpb_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin_, "tk_vadd", &vadd_), ACL_SUCCESS);
}

static void down(void) {
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void *dev_alloc(size_t n) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}

/* z = z * mul + add over n floats, 4 blocks */
static void axpb(aclrtStream s, float *z, uint64_t n, float mul, float add) {
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(axpb_, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &z, sizeof z, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &n, sizeof n, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &mul, sizeof mul, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &add, sizeof add, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(axpb_, 4, s, NULL, a, NULL), ACL_SUCCESS);
}

/* z = x + y */
static void vadd(aclrtStream s, const float *x, const float *y, float *z, uint64_t n) {
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(vadd_, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &x, sizeof x, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &y, sizeof y, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &z, sizeof z, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &n, sizeof n, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(vadd_, 3, s, NULL, a, NULL), ACL_SUCCESS);
}

/* The chain: A -> B (copy), B = 2B + 1, C = 0 (memset), C = A + B,
 * C = max(C, B) (aclrtReduceAsync), A = C (copy), A = 0.5 A - 3.  Each
 * run changes A. */
static void chain(aclrtStream s, float *A, float *B, float *C) {
  size_t bytes = N * sizeof(float);
  CHECK_INT_EQ(aclrtMemcpyAsync(B, bytes, A, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  axpb(s, B, N, 2.0f, 1.0f);
  CHECK_INT_EQ(aclrtMemsetAsync(C, bytes, 0, bytes, s), ACL_SUCCESS);
  vadd(s, A, B, C, N);
  CHECK_INT_EQ(aclrtReduceAsync(C, B, bytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(A, bytes, C, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  axpb(s, A, N, 0.5f, -3.0f);
}

static void init_a(float *A) {
  float h[N];
  for (int i = 0; i < N; i++)
    h[i] = (float)(i % 97) * 0.25f;
  CHECK_INT_EQ(aclrtMemcpy(A, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void read_a(const float *A, float *h) {
  CHECK_INT_EQ(aclrtMemcpy(h, N * sizeof(float), A, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
}

static aclmdlRI capture_chain(aclrtStream s, float *A, float *B, float *C) {
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  chain(s, A, B, C);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_NOT_NULL(ri);
  return ri;
}

TEST(replay_equals_eager) {
  up();
  aclrtStream s = NULL, other = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  float *A = dev_alloc(N * 4), *B = dev_alloc(N * 4), *C = dev_alloc(N * 4);
  static float eager[3][N], got[N];
  init_a(A);
  for (int r = 0; r < 3; r++) {
    chain(s, A, B, C);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    read_a(A, eager[r]);
  }
  init_a(A);
  aclmdlRI ri = capture_chain(s, A, B, C);
  /* captured, not run: A still holds its initial values */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  read_a(A, got);
  CHECK(got[5] == 5 * 0.25f);
  for (int r = 0; r < 3; r++) {
    /* the 2nd replay runs on another stream than the capture stream */
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, r == 1 ? other : s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(r == 1 ? other : s), ACL_SUCCESS);
    read_a(A, got);
    CHECK_INT_EQ(memcmp(got, eager[r], sizeof got), 0);
  }
  /* aclmdlRIExecute: synchronous */
  init_a(A);
  CHECK_INT_EQ(aclmdlRIExecute(ri, -1), ACL_SUCCESS);
  read_a(A, got);
  CHECK_INT_EQ(memcmp(got, eager[0], sizeof got), 0);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(A), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(B), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(C), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  down();
}

static void nap(void *arg) {
  (void)arg;
  usleep(300);
}

/* A -> B, (nap), B -> C, C += 1, C -> A: two replays at once would both
 * copy the same A and one increment would be lost. */
TEST(replays_are_serialised) {
  up();
  aclrtStream cap = NULL, s1 = NULL, s2 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&cap), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  size_t bytes = N * sizeof(float);
  float *A = dev_alloc(bytes), *B = dev_alloc(bytes), *C = dev_alloc(bytes);
  CHECK_INT_EQ(aclrtMemset(A, bytes, 0, bytes), ACL_SUCCESS);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(B, bytes, A, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, cap), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(cap, nap, NULL), ACL_SUCCESS); /* widens the window two replays would share */
  CHECK_INT_EQ(aclrtMemcpyAsync(C, bytes, B, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, cap), ACL_SUCCESS);
  axpb(cap, C, N, 1.0f, 1.0f);
  CHECK_INT_EQ(aclrtMemcpyAsync(A, bytes, C, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, cap), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(cap, &ri), ACL_SUCCESS);
  /* back to back on one stream, then on two streams at once */
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  for (int i = 0; i < 40; i++) {
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s1), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s2), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  static float h[N];
  read_a(A, h);
  for (int i = 0; i < N; i++)
    CHECK(h[i] == 90.0f); /* 90 replays of +1, exact in binary */
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtFree(A);
  aclrtFree(B);
  aclrtFree(C);
  aclrtDestroyStream(cap);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
  down();
}

static void count_call(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

TEST(host_function_runs_once_per_replay) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  static atomic_int calls;
  atomic_store(&calls, 0);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&calls), 0);
  for (int i = 0; i < 5; i++)
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&calls), 10);
  aclmdlRITask tasks[2];
  uint32_t n = 2;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks, &n), ACL_SUCCESS);
  aclmdlRITaskType type = ACL_MODEL_RI_TASK_KERNEL;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_DEFAULT);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyStream(s);
  down();
}

TEST(value_wait_parks_the_replay) {
  up();
  aclrtStream s = NULL, w = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&w), ACL_SUCCESS);
  uint64_t *flag = dev_alloc(64);
  CHECK_INT_EQ(aclrtMemset(flag, 64, 0, 64), ACL_SUCCESS);
  static atomic_int calls;
  atomic_store(&calls, 0);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_GEQ, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(flag + 1, 7, 0, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  for (int round = 1; round <= 2; round++) {
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
    usleep(50000);
    CHECK_INT_EQ(atomic_load(&calls), round - 1);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    CHECK_INT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    /* destroying it while a replay waits: 107037 */
    CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_MODEL_RUNNING);
    CHECK_INT_EQ(aclrtValueWrite(flag, (uint64_t)round, 0, w), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK_INT_EQ(atomic_load(&calls), round);
    CHECK_INT_EQ(aclrtValueWrite(flag, 0, 0, w), ACL_SUCCESS); /* the next replay waits again */
    CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  }
  uint64_t h[2] = {0, 0};
  CHECK_INT_EQ(aclrtMemcpy(h, sizeof h, flag, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(h[1], 7);
  /* aclmdlRIExecute times out in the wait: the replay is discarded and the RI usable again */
  CHECK_INT_EQ(aclmdlRIExecute(ri, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&calls), 2);
  CHECK_INT_EQ(aclrtValueWrite(flag, 1, 0, w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIExecute(ri, -1), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&calls), 3);
  CHECK_INT_EQ(aclrtValueWrite(flag, 0, 0, w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  aclmdlRITask tasks[3];
  uint32_t n = 3;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 3);
  aclmdlRITaskType type;
  uint32_t seq = 0;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_VALUE_WAIT);
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[2], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_VALUE_WRITE);
  CHECK_INT_EQ(aclmdlRITaskGetSeqId(tasks[2], &seq), ACL_SUCCESS);
  CHECK_INT_EQ(seq, 3);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtFree(flag);
  aclrtDestroyStream(s);
  aclrtDestroyStream(w);
  down();
}

/* Notifies in a graph: a recorded wait parks each replay until a record
 * (here an eager one on another stream) and resets the notify; recorded
 * records set notifies and change a count notify's count at each replay.  A
 * replay discarded while it waits, and one whose wait timed out, leave the RI
 * usable: the next replay waits afresh. */
TEST(notifies_replay) {
  up();
  aclrtStream s = NULL, w = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&w), ACL_SUCCESS);
  aclrtNotify go = NULL, done = NULL;
  aclrtCntNotify cnt = NULL;
  CHECK_INT_EQ(aclrtCreateNotify(&go, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&done, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyCreate(&cnt, 0), ACL_SUCCESS);
  static atomic_int calls;
  atomic_store(&calls, 0);
  aclrtCntNotifyRecordInfo add1 = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1};
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(go, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(done, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyRecord(cnt, s, &add1), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  usleep(20000);
  CHECK_INT_EQ(atomic_load(&calls), 0); /* recorded, not run */
  for (int round = 1; round <= 2; round++) {
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
    usleep(30000);
    CHECK_INT_EQ(atomic_load(&calls), round - 1);
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
    CHECK_INT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    CHECK_INT_EQ(aclrtRecordNotify(go, w), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK_INT_EQ(atomic_load(&calls), round);
    /* the replay's record releases one eager wait, with a timeout that would fail it otherwise */
    CHECK_INT_EQ(aclrtWaitAndResetNotify(done, w, 2), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  }
  /* two replays added 1 each */
  aclrtCntNotifyWaitInfo two = {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 2, 2, 1, {0}};
  CHECK_INT_EQ(aclrtCntNotifyWaitWithTimeout(cnt, w, &two), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  /* aclmdlRIExecute times out in the wait: that replay is discarded, the next one waits again */
  CHECK_INT_EQ(aclmdlRIExecute(ri, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&calls), 2);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  usleep(30000);
  CHECK_INT_EQ(atomic_load(&calls), 2);
  CHECK_INT_EQ(aclrtRecordNotify(go, w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&calls), 3);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(done, w, 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  aclmdlRITask tasks[4];
  uint32_t n = 4;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 4);
  aclmdlRITaskType type = ACL_MODEL_RI_TASK_KERNEL;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_DEFAULT);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);

  /* a recorded wait with a timeout: the replay fails with 107019 ... */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(go, s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&calls), 3);
  /* ... and the next replay waits afresh, with a timer of its own */
  CHECK_INT_EQ(aclrtRecordNotify(go, w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&calls), 4);
  /* the notifies may go before the RI that recorded them (it holds them until destroyed) */
  CHECK_INT_EQ(aclrtDestroyNotify(go), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyNotify(done), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyDestroy(cnt), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyStream(s);
  aclrtDestroyStream(w);
  down();
}

TEST(capture_errors) {
  up();
  aclrtStream s = NULL, def = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  if (def != NULL)
    CHECK_INT_EQ(aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, &st, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, &st, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  CHECK_NOT_NULL(ri);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, NULL), ACL_ERROR_RT_PARAM_INVALID); /* still being captured */
  /* a synchronous copy in GLOBAL mode: refused, the capture invalidated */
  void *d = dev_alloc(64);
  char h[64] = {0};
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "RELAXED");
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, &st, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  CHECK_NULL(ri);
  /* synchronizing the capturing stream: the same */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  /* RELAXED: the copy runs at once and is not recorded */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  h[0] = 42;
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  uint32_t n = 5;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, NULL, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 0);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* GLOBAL, with the thread switched to RELAXED around the call (sample 0_simple_model) */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  aclmdlRICaptureMode m = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  CHECK_INT_EQ(aclmdlRICaptureThreadExchangeMode(&m), ACL_SUCCESS);
  CHECK_INT_EQ(m, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureThreadExchangeMode(&m), ACL_SUCCESS);
  CHECK_INT_EQ(m, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  CHECK_INT_EQ(aclrtMemset(d, 64, 0, 64), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  /* a captured wait for an event recorded outside the capture: 107024, capture invalidated */
  aclrtEvent ev = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s, ev), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "ACL_EVENT_EXTERNAL");
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  CHECK_INT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  aclrtFree(d);
  aclrtDestroyStream(s);
  down();
}

struct end_arg {
  aclrtStream s;
  aclrtContext ctx;
  int rc;
  aclmdlRI ri;
};

static void *end_elsewhere(void *p) {
  struct end_arg *a = p;
  aclrtSetCurrentContext(a->ctx);
  a->rc = aclmdlRICaptureEnd(a->s, &a->ri);
  return NULL;
}

static void on_nothing(void *arg) { (void)arg; }

TEST(end_from_another_thread) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct end_arg a = {s, NULL, 0, NULL};
  CHECK_INT_EQ(aclrtGetCurrentContext(&a.ctx), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  pthread_t th;
  CHECK_INT_EQ(pthread_create(&th, NULL, end_elsewhere, &a), 0);
  pthread_join(th, NULL);
  CHECK_INT_EQ(a.rc, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* RELAXED: any thread may end it */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(pthread_create(&th, NULL, end_elsewhere, &a), 0);
  pthread_join(th, NULL);
  CHECK_INT_EQ(a.rc, ACL_SUCCESS);
  CHECK_NOT_NULL(a.ri);
  CHECK_INT_EQ(aclmdlRIDestroy(a.ri), ACL_SUCCESS);
  /* a stream destroyed while it is captured: the capture goes with it */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, on_nothing, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  void *d = dev_alloc(64);
  CHECK_INT_EQ(aclrtMemset(d, 64, 0, 64), ACL_SUCCESS); /* no capture left to forbid it */
  aclrtFree(d);
  down();
}

static void on_destroy(void *arg) { (*(int *)arg)++; }
static void on_destroy2(void *arg) { (*(int *)arg) += 10; }

TEST(names_ids_callbacks_json) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  float *A = dev_alloc(N * 4), *B = dev_alloc(N * 4), *C = dev_alloc(N * 4);
  aclmdlRI ri = capture_chain(s, A, B, C), ri2 = capture_chain(s, A, B, C);
  uint32_t id = 0, id2 = 0;
  CHECK_INT_EQ(aclmdlRIGetId(ri, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIGetId(ri2, &id2), ACL_SUCCESS);
  CHECK_INT_NE(id, id2);
  char name[16] = "x";
  CHECK_INT_EQ(aclmdlRIGetName(ri, sizeof name, name), ACL_SUCCESS);
  CHECK_STR_EQ(name, "");
  CHECK_INT_EQ(aclmdlRISetName(ri, "first"), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRISetName(ri, "chain"), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIGetName(ri, 5, name), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIGetName(ri, 6, name), ACL_SUCCESS);
  CHECK_STR_EQ(name, "chain");
  aclrtStream streams[2] = {NULL, NULL};
  uint32_t ns = 0;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, NULL, &ns), ACL_SUCCESS);
  CHECK_INT_EQ(ns, 1);
  ns = 2;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, streams, &ns), ACL_SUCCESS);
  CHECK(streams[0] == s && streams[1] == NULL && ns == 1);
  /* tasks by stream: the newest RI captured on it */
  uint32_t n = 0;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, NULL, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 7);
  aclmdlRITask tasks[7];
  n = 4;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
  CHECK_INT_EQ(n, 4);
  aclmdlRITaskType type;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[1], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[0], &type), ACL_SUCCESS);
  CHECK_INT_EQ(type, ACL_MODEL_RI_TASK_DEFAULT);
  /* the JSON dump parses */
  char path[] = "/tmp/openacl-graph-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  CHECK_INT_EQ(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDebugPrint(ri), ACL_SUCCESS);
  FILE *f = fopen(path, "r");
  CHECK_NOT_NULL(f);
  static char text[8192];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  CHECK_STR_HAS(text, "\"cat\": \"kernel\"");
  CHECK_STR_HAS(text, "tk_axpb");
  CHECK_STR_HAS(text, "\"model\": \"chain\"");
  if (access("/usr/bin/python3", X_OK) == 0) {
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==7' %s", path);
    CHECK_INT_EQ(system(cmd), 0);
  }
  unlink(path);
  CHECK_INT_EQ(aclmdlRIDebugJsonPrint(ri, "/nonexistent-dir/x.json", 0), ACL_ERROR_INVALID_FILE);
  /* destroy callbacks */
  int count = 0;
  CHECK_INT_EQ(aclmdlRIDestroyRegisterCallback(ri, on_destroy, &count), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroyRegisterCallback(ri, on_destroy2, &count), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroyUnregisterCallback(ri, on_destroy2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroyUnregisterCallback(ri, on_destroy2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIDestroy(ri2), ACL_SUCCESS);
  CHECK_INT_EQ(count, 0);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(count, 1);
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[1], &type), ACL_ERROR_RT_PARAM_INVALID);
  aclrtFree(A);
  aclrtFree(B);
  aclrtFree(C);
  aclrtDestroyStream(s);
  down();
}

/* A task that cannot be recorded (a copy of pageable host memory, staged at
 * submission) is refused with 207000 and a message naming it, and the
 * capture is invalidated. */
TEST(unrecordable_task_invalidates) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  void *d = dev_alloc(256);
  static char pageable[256];
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(d, 256, pageable, 256, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "cannot be recorded");
  CHECK_STR_HAS(m, "host to device");
  aclmdlRICaptureStatus st;
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, &st, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  /* after the capture, the same copy runs */
  CHECK_INT_EQ(aclrtMemcpyAsync(d, 256, pageable, 256, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  aclrtFree(d);
  aclrtDestroyStream(s);
  down();
}

/* A recorded kernel that fails fails the replay with its code; the message
 * names the RI and the task.  The RI can be replayed again afterwards. */
TEST(failing_task_fails_the_replay) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin_, "tk_fail", &f), ACL_SUCCESS);
  uint32_t bad = 1;
  int32_t status = 7;
  aclrtArgsHandle a = NULL;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &bad, sizeof bad, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &status, sizeof status, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  static atomic_int calls;
  atomic_store(&calls, 0);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, 2, s, NULL, a, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_call, &calls), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  for (int round = 0; round < 2; round++) {
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlRI");
    CHECK_INT_EQ(atomic_load(&calls), 0); /* the rest of the replay did not run */
  }
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyStream(s);
  down();
}

struct other_arg {
  aclrtContext ctx;
  void *d;
  int rc;
};

static void *memset_elsewhere(void *p) {
  struct other_arg *o = p;
  aclrtSetCurrentContext(o->ctx);
  o->rc = aclrtMemset(o->d, 64, 0, 64);
  return NULL;
}

/* GLOBAL forbids unsafe calls in every thread whose mode is GLOBAL;
 * THREAD_LOCAL only in the capturing thread. */
TEST(modes_across_threads) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct other_arg o = {NULL, dev_alloc(64), 0};
  CHECK_INT_EQ(aclrtGetCurrentContext(&o.ctx), ACL_SUCCESS);
  aclmdlRI ri = NULL;
  pthread_t th;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  CHECK_INT_EQ(pthread_create(&th, NULL, memset_elsewhere, &o), 0);
  pthread_join(th, NULL);
  CHECK_INT_EQ(o.rc, ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(pthread_create(&th, NULL, memset_elsewhere, &o), 0);
  pthread_join(th, NULL);
  CHECK_INT_EQ(o.rc, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  aclrtFree(o.d);
  aclrtDestroyStream(s);
  down();
}

/* An RI the program never destroys goes at aclFinalize, its destroy
 * callbacks run (and nothing leaks under ASan). */
TEST(left_to_finalize) {
  up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  float *A = dev_alloc(N * sizeof(float)), *B = dev_alloc(N * sizeof(float)), *C = dev_alloc(N * sizeof(float));
  init_a(A);
  aclmdlRI ri = capture_chain(s, A, B, C);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  int count = 0;
  CHECK_INT_EQ(aclmdlRIDestroyRegisterCallback(ri, on_destroy, &count), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  down(); /* no aclmdlRIDestroy */
  CHECK_INT_EQ(count, 1);
}
