/*
 * model_ri_4_model_sync_external.c - in the style of the vendor's
 * model_ri/4_model_sync_external (reference ipc-vmm-graphs-tdt §5.3,
 * §5.7): three ways a captured model meets the outside through ACL_EVENT_SYNC
 * events and the EXTERNAL flags.
 *   1. an outside record releases an in-graph WAIT_EXTERNAL;
 *   2. an in-graph RECORD_EXTERNAL releases an outside stream wait;
 *   3. graph 1's RECORD_EXTERNAL releases graph 2's WAIT_EXTERNAL.
 * x = 1..8; graph 1 computes out1 = x + 1, graph 2 out2 = out1 + 1, the
 * outside stream copies out1 once graph 1 recorded.  Prints each case and
 * "Run the model_sync_external sample successfully."
 */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "model_ri_common.h"

#define N 8

static int Expect(const char *what, const void *dev, float first) {
  float h[N];
  CHECK_RET(aclrtMemcpy(h, sizeof h, dev, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
  for (int i = 0; i < N; i++)
    if (fabsf(h[i] - (first + (float)i)) > 1e-5f) {
      printf("[ERROR] %s[%d] is %.4f, expected %.4f\n", what, i, h[i], first + (float)i);
      return 1;
    }
  printf("%s: %.4f ... %.4f\n", what, h[0], h[N - 1]);
  return 0;
}

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream s1 = NULL, s2 = NULL, outside = NULL;
  CHECK_RET(aclrtCreateStream(&s1) == ACL_SUCCESS, "aclrtCreateStream");
  CHECK_RET(aclrtCreateStream(&s2) == ACL_SUCCESS, "aclrtCreateStream");
  CHECK_RET(aclrtCreateStream(&outside) == ACL_SUCCESS, "aclrtCreateStream");
  aclrtEvent startEvent = NULL, doneEvent = NULL, linkEvent = NULL;
  CHECK_RET(aclrtCreateEventWithFlag(&startEvent, ACL_EVENT_SYNC) == ACL_SUCCESS, "aclrtCreateEventWithFlag");
  CHECK_RET(aclrtCreateEventWithFlag(&doneEvent, ACL_EVENT_SYNC) == ACL_SUCCESS, "aclrtCreateEventWithFlag");
  CHECK_RET(aclrtCreateEventWithFlag(&linkEvent, ACL_EVENT_SYNC) == ACL_SUCCESS, "aclrtCreateEventWithFlag");
  float hostX[N], hostOne[N];
  for (int i = 0; i < N; i++) {
    hostX[i] = (float)(i + 1);
    hostOne[i] = 1.0f;
  }
  void *x = NULL, *one = NULL, *out1 = NULL, *out2 = NULL, *copy = NULL;
  aclTensor *tx = NULL, *tone = NULL, *t1 = NULL, *t2 = NULL, *tcopy = NULL;
  if (CreateTensor(hostX, N, &x, &tx) || CreateTensor(hostOne, N, &one, &tone) || CreateTensor(NULL, N, &out1, &t1) ||
      CreateTensor(NULL, N, &out2, &t2) || CreateTensor(NULL, N, &copy, &tcopy))
    return 1;

  aclmdlRI graph1 = NULL, graph2 = NULL;
  CHECK_RET(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  CHECK_RET(aclrtStreamWaitEventWithFlag(s1, startEvent, 0, ACL_EVENT_WAIT_EXTERNAL) == ACL_SUCCESS,
            "aclrtStreamWaitEventWithFlag");
  CHECK_RET(aclrtResetEvent(startEvent, s1) == ACL_SUCCESS, "aclrtResetEvent");
  if (RunAdd(tx, tone, 1.0f, t1, s1))
    return 1;
  CHECK_RET(aclrtRecordEventWithFlag(doneEvent, s1, ACL_EVENT_RECORD_EXTERNAL) == ACL_SUCCESS,
            "aclrtRecordEventWithFlag");
  CHECK_RET(aclrtRecordEventWithFlag(linkEvent, s1, ACL_EVENT_RECORD_EXTERNAL) == ACL_SUCCESS,
            "aclrtRecordEventWithFlag");
  CHECK_RET(aclmdlRICaptureEnd(s1, &graph1) == ACL_SUCCESS, "aclmdlRICaptureEnd");

  CHECK_RET(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  CHECK_RET(aclrtStreamWaitEventWithFlag(s2, linkEvent, 0, ACL_EVENT_WAIT_EXTERNAL) == ACL_SUCCESS,
            "aclrtStreamWaitEventWithFlag");
  CHECK_RET(aclrtResetEvent(linkEvent, s2) == ACL_SUCCESS, "aclrtResetEvent");
  if (RunAdd(t1, tone, 1.0f, t2, s2))
    return 1;
  CHECK_RET(aclmdlRICaptureEnd(s2, &graph2) == ACL_SUCCESS, "aclmdlRICaptureEnd");

  /* graph 2 first: it waits for graph 1, which waits for the outside */
  CHECK_RET(aclmdlRIExecuteAsync(graph2, s2) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
  CHECK_RET(aclmdlRIExecuteAsync(graph1, s1) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
  CHECK_RET(aclrtStreamWaitEvent(outside, doneEvent) == ACL_SUCCESS, "aclrtStreamWaitEvent");
  if (RunAdd(t1, tone, 0.0f, tcopy, outside))
    return 1;
  usleep(20000);
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  CHECK_RET(aclrtQueryEventStatus(doneEvent, &st) == ACL_SUCCESS, "aclrtQueryEventStatus");
  CHECK_RET(st == ACL_EVENT_RECORDED_STATUS_NOT_READY, "graph 1 waits for the outside record");
  printf("case 1: graph 1 waits for the outside record\n");
  aclrtStream recorder = NULL;
  CHECK_RET(aclrtCreateStream(&recorder) == ACL_SUCCESS, "aclrtCreateStream");
  CHECK_RET(aclrtRecordEvent(startEvent, recorder) == ACL_SUCCESS, "aclrtRecordEvent");
  CHECK_RET(aclrtSynchronizeStream(outside) == ACL_SUCCESS, "aclrtSynchronizeStream");
  if (Expect("case 2: the outside stream saw graph 1's result", copy, 2.0f))
    return 1;
  CHECK_RET(aclrtSynchronizeStream(s2) == ACL_SUCCESS, "aclrtSynchronizeStream");
  if (Expect("case 3: graph 2 ran after graph 1", out2, 3.0f))
    return 1;
  /* graph 1's replay may still be ending after its records released the others */
  CHECK_RET(aclrtSynchronizeStream(s1) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(aclmdlRIDestroy(graph1) == ACL_SUCCESS, "aclmdlRIDestroy");
  CHECK_RET(aclmdlRIDestroy(graph2) == ACL_SUCCESS, "aclmdlRIDestroy");
  aclTensor *ts[5] = {tx, tone, t1, t2, tcopy};
  void *ds[5] = {x, one, out1, out2, copy};
  for (int i = 0; i < 5; i++) {
    aclDestroyTensor(ts[i]);
    aclrtFree(ds[i]);
  }
  aclrtDestroyEvent(startEvent);
  aclrtDestroyEvent(doneEvent);
  aclrtDestroyEvent(linkEvent);
  aclrtDestroyStream(recorder);
  aclrtDestroyStream(outside);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
  aclrtResetDevice(0);
  aclFinalize();
  printf("Run the model_sync_external sample successfully.\n");
  return 0;
}
