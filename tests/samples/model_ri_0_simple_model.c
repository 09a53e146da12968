/*
 * model_ri_0_simple_model.c - in the style of the vendor's
 * example/2_advanced_features/model_ri/0_simple_model (reference
 * ipc-vmm-graphs-tdt §5.7): a GLOBAL capture of an async host-to-device
 * copy from pinned memory, a synchronous copy made with the thread switched
 * to RELAXED (runs at once, not recorded), aclnnAdd and aclnnMul;
 * CaptureEnd, DebugJsonPrint("./modelRI.json"), then four replays on the
 * same stream.  x = 1..8, y = 2: tmp = x + 1.1 * y, out = tmp * y.  Prints
 * "execute model, loop count: N." and 6.4000 8.4000 ... 20.4000 each time
 * (run_sample.sh).
 */
#include <stdio.h>
#include <string.h>

#include "model_ri_common.h"

#define N 8

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  size_t size = N * sizeof(float);
  float *hostX = NULL;
  float hostY[N];
  CHECK_RET(aclrtMallocHost((void **)&hostX, size) == ACL_SUCCESS, "aclrtMallocHost");
  for (int i = 0; i < N; i++) {
    hostX[i] = (float)(i + 1);
    hostY[i] = 2.0f;
  }
  void *x = NULL, *y = NULL, *tmp = NULL, *out = NULL;
  aclTensor *tx = NULL, *ty = NULL, *ttmp = NULL, *tout = NULL;
  if (CreateTensor(NULL, N, &x, &tx) || CreateTensor(NULL, N, &y, &ty) || CreateTensor(NULL, N, &tmp, &ttmp) ||
      CreateTensor(NULL, N, &out, &tout))
    return 1;

  aclmdlRI modelRI = NULL;
  CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  CHECK_RET(aclrtMemcpyAsync(x, size, hostX, size, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS,
            "aclrtMemcpyAsync");
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode) == ACL_SUCCESS, "aclmdlRICaptureThreadExchangeMode");
  CHECK_RET(aclrtMemcpy(y, size, hostY, size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
  CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode) == ACL_SUCCESS, "aclmdlRICaptureThreadExchangeMode");
  if (RunAdd(tx, ty, 1.1f, ttmp, stream) || RunMul(ttmp, ty, tout, stream))
    return 1;
  CHECK_RET(aclmdlRICaptureEnd(stream, &modelRI) == ACL_SUCCESS, "aclmdlRICaptureEnd");
  CHECK_RET(aclmdlRIDebugJsonPrint(modelRI, "./modelRI.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY) == ACL_SUCCESS,
            "aclmdlRIDebugJsonPrint");

  for (int loop = 1; loop <= 4; loop++) {
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
  aclrtFreeHost(hostX);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
