/*
 * model_ri_1_model_update.c - in the style of the vendor's
 * model_ri/1_model_update (reference ipc-vmm-graphs-tdt §5.3, §5.7): a
 * RELAXED capture that first waits on an ACL_EVENT_EXTERNAL event and
 * resets it, then two aclnnAdd, the second inside a task group.  Each
 * iteration records the event on an update stream and replays the model;
 * in iteration 2 the update stream first re-submits the grouped aclnnAdd
 * with a new alpha (aclmdlRICaptureTaskUpdateBegin / End), so the replay
 * that waits for the event sees it.  x = 1..8, y = 2.2: out = x + y +
 * alpha * y: 5.4000 ... 12.4000, then "Update alpha value of aclnnAdd" and
 * 7.6000 ... 14.6000.
 */
#include <stdio.h>

#include "model_ri_common.h"

#define N 8

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL, updateStream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  CHECK_RET(aclrtCreateStream(&updateStream) == ACL_SUCCESS, "aclrtCreateStream");
  aclrtEvent event = NULL;
  CHECK_RET(aclrtCreateEventWithFlag(&event, ACL_EVENT_EXTERNAL) == ACL_SUCCESS, "aclrtCreateEventWithFlag");

  float hostX[N], hostY[N];
  for (int i = 0; i < N; i++) {
    hostX[i] = (float)(i + 1);
    hostY[i] = 2.2f;
  }
  void *x = NULL, *y = NULL, *tmp = NULL, *out = NULL;
  aclTensor *tx = NULL, *ty = NULL, *ttmp = NULL, *tout = NULL;
  if (CreateTensor(hostX, N, &x, &tx) || CreateTensor(hostY, N, &y, &ty) || CreateTensor(NULL, N, &tmp, &ttmp) ||
      CreateTensor(NULL, N, &out, &tout))
    return 1;

  aclmdlRI modelRI = NULL;
  aclrtTaskGrp taskGrp = NULL;
  CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  CHECK_RET(aclrtStreamWaitEvent(stream, event) == ACL_SUCCESS, "aclrtStreamWaitEvent");
  CHECK_RET(aclrtResetEvent(event, stream) == ACL_SUCCESS, "aclrtResetEvent");
  if (RunAdd(tx, ty, 1.0f, ttmp, stream))
    return 1;
  CHECK_RET(aclmdlRICaptureTaskGrpBegin(stream) == ACL_SUCCESS, "aclmdlRICaptureTaskGrpBegin");
  if (RunAdd(ttmp, ty, 1.0f, tout, stream))
    return 1;
  CHECK_RET(aclmdlRICaptureTaskGrpEnd(stream, &taskGrp) == ACL_SUCCESS, "aclmdlRICaptureTaskGrpEnd");
  CHECK_RET(aclmdlRICaptureEnd(stream, &modelRI) == ACL_SUCCESS, "aclmdlRICaptureEnd");

  for (int loop = 1; loop <= 3; loop++) {
    if (loop == 2) {
      CHECK_RET(aclmdlRICaptureTaskUpdateBegin(updateStream, taskGrp) == ACL_SUCCESS,
                "aclmdlRICaptureTaskUpdateBegin");
      if (RunAdd(ttmp, ty, 2.0f, tout, updateStream))
        return 1;
      CHECK_RET(aclmdlRICaptureTaskUpdateEnd(updateStream) == ACL_SUCCESS, "aclmdlRICaptureTaskUpdateEnd");
      printf("Update alpha value of aclnnAdd\n");
    }
    CHECK_RET(aclrtRecordEvent(event, updateStream) == ACL_SUCCESS, "aclrtRecordEvent");
    CHECK_RET(aclmdlRIExecuteAsync(modelRI, stream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    printf("execute model, loop count: %d.\n", loop);
    if (PrintDevice(NULL, out, N))
      return 1;
  }

  CHECK_RET(aclmdlRIDestroy(modelRI) == ACL_SUCCESS, "aclmdlRIDestroy");
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(ttmp);
  aclDestroyTensor(tout);
  aclrtFree(x);
  aclrtFree(y);
  aclrtFree(tmp);
  aclrtFree(out);
  aclrtDestroyEvent(event);
  aclrtDestroyStream(updateStream);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
