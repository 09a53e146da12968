/*
 * graph_update.c - changing model runtime instances after recording
 * (docs/graphs.md): task groups and their updates on another stream, task
 * parameters (get, set, disable, aclmdlRIUpdate), kernel task attributes,
 * cached operator information, aclmdlRIAbort and aclrtPersistentTaskClean.
 * Public API only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#define TK OPENACL_TEST_KERNELS
#define N 512

static _Thread_local aclrtParamHandle ph_;
static aclrtBinHandle bin_;
static aclrtFuncHandle axpb_;

static void up(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(TK, NULL, &bin_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin_, "tk_axpb", &axpb_), ACL_SUCCESS);
}

static void down(void) {
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void *dev_alloc(size_t n) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
  return p;
}

/* z = z * mul + add over N floats, 4 blocks */
static aclError axpb(aclrtStream s, float *z, float mul, float add) {
  aclrtArgsHandle a = NULL;
  uint64_t n = N;
  CHECK_INT_EQ(aclrtKernelArgsInit(axpb_, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &z, sizeof z, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &n, sizeof n, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &mul, sizeof mul, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &add, sizeof add, &ph_), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  return aclrtLaunchKernelWithConfig(axpb_, 4, s, NULL, a, NULL);
}

static float get_f(const float *d, size_t i) {
  float v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, 4, d + i, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

static void set_all(float *d, float v) {
  float h[N];
  for (int i = 0; i < N; i++)
    h[i] = v;
  CHECK_INT_EQ(aclrtMemcpy(d, sizeof h, h, sizeof h, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static uint64_t get_u64(const void *d) {
  uint64_t v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

/* A word device tasks may be waiting on: written by a value write (an
 * atomic store), not by a copy. */
static void put_u64(void *d, uint64_t v) {
  CHECK_INT_EQ(aclrtValueWrite(d, v, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
}

static void replay(aclmdlRI ri, aclrtStream s) {
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
}

TEST(task_group_update) {
  up();
  aclrtStream s = NULL, u = NULL, other = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&u), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  float *z = dev_alloc(N * sizeof(float)), *w = dev_alloc(N * sizeof(float));
  aclrtTaskGrp grp = NULL;
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  CHECK_INT_EQ(axpb(s, z, 2.0f, 1.0f), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  CHECK_INT_EQ(axpb(s, z, 1.0f, 5.0f), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_SUCCESS);
  CHECK_NOT_NULL(grp);
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS); /* still capturing */
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);

  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 7) == 8.0f); /* (1*2+1)*1+5 */
  uint32_t nt = 4;
  aclmdlRITask tasks[4];
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks, &nt), ACL_SUCCESS);
  CHECK_INT_EQ(nt, 2);
  aclmdlRITaskParams p;
  CHECK_INT_EQ(aclmdlRITaskGetParams(tasks[1], &p), ACL_SUCCESS);
  CHECK(p.taskGrp == grp);
  CHECK_INT_EQ(aclmdlRITaskGetParams(tasks[0], &p), ACL_SUCCESS);
  CHECK(p.taskGrp == NULL);

  /* the update: the same operator with new arguments, collected on u, applied in u's order */
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_SUCCESS);
  CHECK_INT_EQ(axpb(u, z, 3.0f, 0.0f), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(w, 4, 0, 4, u), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT); /* kernels only */
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateEnd(u), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(u), ACL_SUCCESS);
  CHECK(get_f(z, 7) == 8.0f); /* nothing ran on u */
  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 100) == 9.0f); /* (1*2+1)*3 */
  uint32_t nt2 = 4;
  aclmdlRITask tasks2[4];
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, tasks2, &nt2), ACL_SUCCESS);
  CHECK(tasks2[0] == tasks[0] && tasks2[1] != tasks[1]); /* the group's task was swapped */
  aclmdlRITaskType ty;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[1], &ty), ACL_ERROR_RT_PARAM_INVALID);
  uint32_t seq = 0;
  CHECK_INT_EQ(aclmdlRITaskGetSeqId(tasks2[1], &seq), ACL_SUCCESS);
  CHECK_INT_EQ(seq, 2);
  /* a count that does not match: nothing changes */
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_SUCCESS);
  CHECK_INT_EQ(axpb(u, z, 4.0f, 0.0f), ACL_SUCCESS);
  CHECK_INT_EQ(axpb(u, z, 4.0f, 0.0f), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_STREAM_TASK_GROUP_INTR);
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateEnd(u), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 0) == 9.0f);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskUpdateBegin(u, grp), ACL_ERROR_RT_PARAM_INVALID); /* went with its RI */

  /* a group holds kernel launches only, and no other captured stream may take tasks meanwhile */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(w, 4, 0, 4, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  aclrtEvent ev = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(other, ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
  CHECK_INT_EQ(axpb(other, w, 1.0f, 1.0f), ACL_ERROR_STREAM_TASK_GROUP_INTR);
  CHECK_INT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  aclrtDestroyEvent(ev);
  aclrtFree(z);
  aclrtFree(w);
  aclrtDestroyStream(s);
  aclrtDestroyStream(u);
  aclrtDestroyStream(other);
  down();
}

TEST(task_params_disable_update) {
  up();
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  float *z = dev_alloc(N * sizeof(float));
  uint64_t *word = dev_alloc(64), *word2 = dev_alloc(64), *gate = dev_alloc(64);
  aclrtEvent ev = NULL, ev2 = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&ev2), ACL_SUCCESS);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclrtCacheLastTaskOpInfo("x", 1), ACL_ERROR_RT_PARAM_INVALID); /* nothing recorded yet */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(axpb(s, z, 2.0f, 1.0f), ACL_SUCCESS);
  const char shape[] = "shape=[512]";
  CHECK_INT_EQ(aclrtCacheLastTaskOpInfo(shape, sizeof shape), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCacheLastTaskExtendInfo("ext", 3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_GEQ, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(word, 5, 0, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(ev, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  aclmdlRITask t[4];
  uint32_t nt = 4;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s, t, &nt), ACL_SUCCESS);
  CHECK_INT_EQ(nt, 4);

  /* get */
  aclmdlRITaskParams p;
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[0], &p), ACL_SUCCESS);
  CHECK_INT_EQ(p.type, ACL_MODEL_RI_TASK_KERNEL);
  CHECK(p.kernelTaskParams.funcHandle == axpb_);
  CHECK_INT_EQ(p.kernelTaskParams.numBlocks, 4);
  CHECK_INT_EQ(p.kernelTaskParams.argsSize, 24);
  CHECK_INT_EQ(p.kernelTaskParams.isHostArgs, 0);
  CHECK_INT_EQ(p.opInfoSize, sizeof shape);
  CHECK(memcmp(p.opInfoPtr, shape, sizeof shape) == 0);
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[2], &p), ACL_SUCCESS);
  CHECK_INT_EQ(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
  CHECK(p.valueWriteTaskParams.devAddr == word);
  CHECK_INT_EQ(p.valueWriteTaskParams.value, 5);
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[3], &p), ACL_SUCCESS);
  CHECK_INT_EQ(p.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
  CHECK(p.eventRecordTaskParams.event == ev);
  CHECK_INT_EQ(p.eventRecordTaskParams.recordFlag, ACL_EVENT_RECORD_EXTERNAL);
  aclrtLaunchKernelAttrValue av;
  CHECK_INT_EQ(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &av), ACL_SUCCESS);
  CHECK_INT_EQ(av.timeout, 0);
  CHECK_INT_EQ(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &av),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIKernelTaskGetAttribute(t[2], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &av),
               ACL_ERROR_RT_PARAM_INVALID);

  put_u64(gate, 1);
  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 3) == 3.0f);
  CHECK_INT_EQ(get_u64(word), 5);

  /* set: new multiplier (host argument bytes) and 2 blocks; a new value; another event */
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[0], &p), ACL_SUCCESS);
  unsigned char args[24];
  memcpy(args, p.kernelTaskParams.args, sizeof args);
  float mul = 10.0f;
  memcpy(args + 16, &mul, 4);
  p.kernelTaskParams.args = args;
  p.kernelTaskParams.isHostArgs = 1;
  p.kernelTaskParams.numBlocks = 2;
  CHECK_INT_EQ(aclmdlRITaskSetParams(t[0], &p), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[2], &p), ACL_SUCCESS);
  p.valueWriteTaskParams.value = 9;
  CHECK_INT_EQ(aclmdlRITaskSetParams(t[2], &p), ACL_SUCCESS);
  p.type = ACL_MODEL_RI_TASK_KERNEL;
  CHECK_INT_EQ(aclmdlRITaskSetParams(t[2], &p), ACL_ERROR_RT_PARAM_INVALID); /* a task keeps its type */
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[3], &p), ACL_SUCCESS);
  p.eventRecordTaskParams.event = ev2;
  CHECK_INT_EQ(aclmdlRITaskSetParams(t[3], &p), ACL_SUCCESS);
  /* not applied before aclmdlRIUpdate */
  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 3) == 3.0f);
  CHECK_INT_EQ(get_u64(word), 5);
  /* aclmdlRIUpdate refuses while a replay is queued */
  put_u64(gate, 0);
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIUpdate(ri), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
  put_u64(gate, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIUpdate(ri), ACL_SUCCESS);
  set_all(z, 1.0f);
  replay(ri, s);
  CHECK(get_f(z, 3) == 11.0f);
  CHECK(get_f(z, N - 1) == 11.0f);
  CHECK_INT_EQ(get_u64(word), 9);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_INT_EQ(aclrtQueryEventStatus(ev2, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);

  /* disable: the kernel no longer runs */
  CHECK_INT_EQ(aclmdlRITaskDisable(t[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIUpdate(ri), ACL_SUCCESS);
  set_all(z, 1.0f);
  put_u64(word, 0);
  replay(ri, s);
  CHECK(get_f(z, 3) == 1.0f);
  CHECK_INT_EQ(get_u64(word), 9);
  /* a captured RI cannot be aborted */
  CHECK_INT_EQ(aclmdlRIAbort(ri), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRITaskGetParams(t[0], &p), ACL_ERROR_RT_PARAM_INVALID);
  aclrtDestroyEvent(ev);
  aclrtDestroyEvent(ev2);
  aclrtFree(z);
  aclrtFree(word);
  aclrtFree(word2);
  aclrtFree(gate);
  aclrtDestroyStream(s);
  down();
}

TEST(abort_and_persistent_clean) {
  up();
  aclrtStream p = NULL, exec = NULL, plain = NULL;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&exec), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  uint64_t *gate = dev_alloc(64), *word = dev_alloc(64);
  CHECK_INT_EQ(aclrtPersistentTaskClean(plain), ACL_ERROR_RT_STREAM_MODEL);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(word, 1, 0, p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtPersistentTaskClean(p), ACL_SUCCESS); /* the write is gone */
  CHECK_INT_EQ(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(word, 2, 0, p), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIEndTask(ri, p), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtPersistentTaskClean(p), ACL_ERROR_RT_PARAM_INVALID); /* the build ended */
  uint32_t nt = 0;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(p, NULL, &nt), ACL_SUCCESS);
  CHECK_INT_EQ(nt, 3);
  /* abort: the replay waiting at the gate stops with 507023 */
  CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, exec), ACL_SUCCESS);
  usleep(10000);
  CHECK_INT_EQ(aclmdlRIAbort(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(exec), ACL_ERROR_RT_MODEL_ABORT_NORMAL);
  CHECK_INT_EQ(get_u64(word), 0);
  CHECK_INT_EQ(aclmdlRIAbort(ri), ACL_SUCCESS); /* not running: nothing to do */
  put_u64(gate, 1);
  CHECK_INT_EQ(aclmdlRIExecute(ri, 5000), ACL_SUCCESS);
  CHECK_INT_EQ(get_u64(word), 2);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtFree(gate);
  aclrtFree(word);
  aclrtDestroyStream(p);
  aclrtDestroyStream(exec);
  aclrtDestroyStream(plain);
  down();
}
