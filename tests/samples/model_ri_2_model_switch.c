/*
 * model_ri_2_model_switch.c - in the style of the vendor's
 * model_ri/2_model_switch (reference ipc-vmm-graphs-tdt §5.5, §5.7): a
 * model built stream by stream.  Five persistent streams: stream1 (HEAD)
 * computes data1 and switches to stream2 when the selector is 1 or to
 * stream3 when it is 2 (aclrtSwitchStream, int32 EQUAL), else activates
 * stream4; stream2 computes data2, stream3 data4; each of them activates
 * stream5, the convergence stream, which computes data3 and ends the graph
 * (aclmdlRIEndTask).  x = 1..8: data1 = x + 2.4, data2 = x + 3.4, data3 =
 * x + 4.4.  First run with selector 2: data1 3.4..., data2 0.0..., data3
 * 5.4...; second run with selector 1: data2 4.4....
 */
#include <stdio.h>

#include "model_ri_common.h"

#define N 8

static int Fill(float *h, float v) {
  for (int i = 0; i < N; i++)
    h[i] = v;
  return 0;
}

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream streams[5] = {NULL};
  for (int i = 0; i < 5; i++)
    CHECK_RET(aclrtCreateStreamWithConfig(&streams[i], 0, ACL_STREAM_PERSISTENT) == ACL_SUCCESS,
              "aclrtCreateStreamWithConfig");
  aclrtStream execStream = NULL;
  CHECK_RET(aclrtCreateStream(&execStream) == ACL_SUCCESS, "aclrtCreateStream");

  float hostX[N], hostC[N];
  for (int i = 0; i < N; i++)
    hostX[i] = (float)(i + 1);
  Fill(hostC, 1.0f);
  void *x = NULL, *c = NULL, *d1 = NULL, *d2 = NULL, *d3 = NULL, *d4 = NULL;
  aclTensor *tx = NULL, *tc = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL;
  if (CreateTensor(hostX, N, &x, &tx) || CreateTensor(hostC, N, &c, &tc) || CreateTensor(NULL, N, &d1, &t1) ||
      CreateTensor(NULL, N, &d2, &t2) || CreateTensor(NULL, N, &d3, &t3) || CreateTensor(NULL, N, &d4, &t4))
    return 1;
  int32_t *selector = NULL, *one = NULL, *two = NULL;
  int32_t v1 = 1, v2 = 2;
  CHECK_RET(aclrtMalloc((void **)&selector, 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc((void **)&one, 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc((void **)&two, 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemcpy(one, 4, &v1, 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
  CHECK_RET(aclrtMemcpy(two, 4, &v2, 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");

  aclmdlRI modelRI = NULL;
  CHECK_RET(aclmdlRIBuildBegin(&modelRI, 0) == ACL_SUCCESS, "aclmdlRIBuildBegin");
  CHECK_RET(aclmdlRIBindStream(modelRI, streams[0], ACL_MODEL_STREAM_FLAG_HEAD) == ACL_SUCCESS, "aclmdlRIBindStream");
  for (int i = 1; i < 5; i++)
    CHECK_RET(aclmdlRIBindStream(modelRI, streams[i], ACL_MODEL_STREAM_FLAG_DEFAULT) == ACL_SUCCESS,
              "aclmdlRIBindStream");
  /* stream1: data1, then the switches */
  if (RunAdd(tx, tc, 2.4f, t1, streams[0]))
    return 1;
  CHECK_RET(aclrtSwitchStream(selector, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, streams[1], NULL, streams[0]) ==
                ACL_SUCCESS,
            "aclrtSwitchStream");
  CHECK_RET(aclrtSwitchStream(selector, ACL_RT_EQUAL, two, ACL_RT_SWITCH_INT32, streams[2], NULL, streams[0]) ==
                ACL_SUCCESS,
            "aclrtSwitchStream");
  CHECK_RET(aclrtActiveStream(streams[3], streams[0]) == ACL_SUCCESS, "aclrtActiveStream");
  /* stream2 / stream3 / stream4: their work, then the convergence stream */
  if (RunAdd(tx, tc, 3.4f, t2, streams[1]) || RunAdd(tx, tc, 9.0f, t4, streams[2]))
    return 1;
  for (int i = 1; i < 4; i++)
    CHECK_RET(aclrtActiveStream(streams[4], streams[i]) == ACL_SUCCESS, "aclrtActiveStream");
  /* stream5: data3 and the end of the graph */
  if (RunAdd(tx, tc, 4.4f, t3, streams[4]))
    return 1;
  CHECK_RET(aclmdlRIEndTask(modelRI, streams[4]) == ACL_SUCCESS, "aclmdlRIEndTask");
  CHECK_RET(aclmdlRIBuildEnd(modelRI, NULL) == ACL_SUCCESS, "aclmdlRIBuildEnd");

  int32_t choices[2] = {2, 1};
  for (int run = 0; run < 2; run++) {
    CHECK_RET(aclrtMemcpy(selector, 4, &choices[run], 4, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
    CHECK_RET(aclmdlRIExecuteAsync(modelRI, execStream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
    CHECK_RET(aclrtSynchronizeStream(execStream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    printf("execute model with selector %d\n", choices[run]);
    if (PrintDevice("data1", d1, N) || PrintDevice("data2", d2, N) || PrintDevice("data3", d3, N))
      return 1;
  }

  for (int i = 0; i < 5; i++)
    CHECK_RET(aclmdlRIUnbindStream(modelRI, streams[i]) == ACL_SUCCESS, "aclmdlRIUnbindStream");
  CHECK_RET(aclmdlRIDestroy(modelRI) == ACL_SUCCESS, "aclmdlRIDestroy");
  aclTensor *ts[6] = {tx, tc, t1, t2, t3, t4};
  void *ds[9] = {x, c, d1, d2, d3, d4, selector, one, two};
  for (int i = 0; i < 6; i++)
    aclDestroyTensor(ts[i]);
  for (int i = 0; i < 9; i++)
    aclrtFree(ds[i]);
  for (int i = 0; i < 5; i++)
    aclrtDestroyStream(streams[i]);
  aclrtDestroyStream(execStream);
  aclrtResetDevice(0);
  aclFinalize();
  printf("Run the model_switch sample successfully.\n");
  return 0;
}
