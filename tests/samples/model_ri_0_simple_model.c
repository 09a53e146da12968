/*
 * model_ri_0_simple_model.c - in the style of the vendor's
 * example/2_advanced_features/model_ri/0_simple_model (reference
 * ipc-vmm-graphs-tdt §5.7): a GLOBAL capture of an async host-to-device
 * copy from pinned memory, a synchronous copy made with the thread switched
 * to RELAXED (runs at once, not recorded), and two adds; CaptureEnd,
 * DebugJsonPrint("./modelRI.json"), then four replays on the same stream.
 * The vendor computes with aclnnAdd and aclnnMul; openacl has no aclnn
 * operators yet, so two launches of the kernel of add_kernel.c (out = self
 * + alpha * other; path in argv[1]) give the same numbers: x = 1..8,
 * tmp = x + 1 * x, out = tmp + 1.1 * 4.  Prints "execute model, loop
 * count: N." and 6.4000 8.4000 ... 20.4000 each time (run_sample.sh).
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK_RET(cond, what)                                                                                          \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("[ERROR] %s failed at line %d: %s\n", what, __LINE__, aclGetRecentErrMsg());                              \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

#define N 8

static int launch_add(aclrtFuncHandle func, aclrtStream stream, void *self, void *other, void *out, float alpha) {
  uint32_t n = N;
  aclrtArgsHandle args = NULL;
  aclrtParamHandle param = NULL;
  CHECK_RET(aclrtKernelArgsInit(func, &args) == ACL_SUCCESS, "aclrtKernelArgsInit");
  CHECK_RET(aclrtKernelArgsAppend(args, &self, sizeof(self), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &other, sizeof(other), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &out, sizeof(out), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &alpha, sizeof(alpha), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &n, sizeof(n), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsFinalize(args) == ACL_SUCCESS, "aclrtKernelArgsFinalize");
  CHECK_RET(aclrtLaunchKernelWithConfig(func, 1, stream, NULL, args, NULL) == ACL_SUCCESS,
            "aclrtLaunchKernelWithConfig");
  return 0;
}

int main(int argc, char **argv) {
  const char *kernelPath = argc > 1 ? argv[1] : "./libsample_add_kernel.so";
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle func = NULL;
  CHECK_RET(aclrtBinaryLoadFromFile(kernelPath, NULL, &bin) == ACL_SUCCESS, "aclrtBinaryLoadFromFile");
  CHECK_RET(aclrtBinaryGetFunction(bin, "sample_add", &func) == ACL_SUCCESS, "aclrtBinaryGetFunction");

  size_t size = N * sizeof(float);
  float *hostX = NULL;
  float hostY[N], result[N];
  CHECK_RET(aclrtMallocHost((void **)&hostX, size) == ACL_SUCCESS, "aclrtMallocHost");
  for (int i = 0; i < N; i++) {
    hostX[i] = (float)(i + 1);
    hostY[i] = 4.0f;
  }
  void *x = NULL, *y = NULL, *tmp = NULL, *out = NULL;
  CHECK_RET(aclrtMalloc(&x, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&y, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&tmp, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&out, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");

  aclmdlRI modelRI = NULL;
  CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  CHECK_RET(aclrtMemcpyAsync(x, size, hostX, size, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS,
            "aclrtMemcpyAsync");
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode) == ACL_SUCCESS, "aclmdlRICaptureThreadExchangeMode");
  CHECK_RET(aclrtMemcpy(y, size, hostY, size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
  CHECK_RET(aclmdlRICaptureThreadExchangeMode(&mode) == ACL_SUCCESS, "aclmdlRICaptureThreadExchangeMode");
  if (launch_add(func, stream, x, x, tmp, 1.0f) != 0 || launch_add(func, stream, tmp, y, out, 1.1f) != 0)
    return 1;
  CHECK_RET(aclmdlRICaptureEnd(stream, &modelRI) == ACL_SUCCESS, "aclmdlRICaptureEnd");
  CHECK_RET(aclmdlRIDebugJsonPrint(modelRI, "./modelRI.json", ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY) == ACL_SUCCESS,
            "aclmdlRIDebugJsonPrint");

  for (int loop = 1; loop <= 4; loop++) {
    CHECK_RET(aclmdlRIExecuteAsync(modelRI, stream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    CHECK_RET(aclrtMemcpy(result, size, out, size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
    printf("execute model, loop count: %d.\n", loop);
    for (int i = 0; i < N; i++)
      printf("%.4f ", result[i]);
    printf("\n");
  }

  CHECK_RET(aclmdlRIDestroy(modelRI) == ACL_SUCCESS, "aclmdlRIDestroy");
  aclrtFree(x);
  aclrtFree(y);
  aclrtFree(tmp);
  aclrtFree(out);
  aclrtFreeHost(hostX);
  aclrtBinaryUnLoad(bin);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
