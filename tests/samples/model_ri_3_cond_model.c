/*
 * model_ri_3_cond_model.c - in the style of the vendor's
 * model_ri/3_cond_model (reference ipc-vmm-graphs-tdt §5.4, §5.7): one
 * capture with three conditional tasks, each on its own condition handle
 * (ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, default 0): an IF with two
 * branches (alpha 1.0 / 0.5), a WHILE whose body adds and then copies 0
 * into its condition, and a SWITCH with three cases.  The branches are
 * captured on a second stream with aclmdlRICaptureToModelRIBegin.  The
 * host writes 1 into every condition before each execution; the default
 * is assigned when the execution starts, so both runs take the value-0
 * paths: IF 1.2500..., SWITCH "case 0" 1.5000..., WHILE body not run.
 * Ends "All tests PASSED".
 */
#include <math.h>
#include <stdio.h>

#include "model_ri_common.h"

#define N 8

static int CaptureBranch(aclrtStream sub, aclmdlRI *branch, aclTensor *self, aclTensor *other, float alpha,
                         aclTensor *out) {
  CHECK_RET(aclmdlRICaptureToModelRIBegin(sub, *branch, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS,
            "aclmdlRICaptureToModelRIBegin");
  if (RunAdd(self, other, alpha, out, sub))
    return 1;
  CHECK_RET(aclmdlRICaptureEnd(sub, branch) == ACL_SUCCESS, "aclmdlRICaptureEnd");
  return 0;
}

static int Check(const char *what, const void *dev, float want) {
  float h[N];
  CHECK_RET(aclrtMemcpy(h, sizeof h, dev, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
  printf("%s: ", what);
  for (int i = 0; i < N; i++)
    printf("%.4f ", h[i]);
  printf("\n");
  for (int i = 0; i < N; i++)
    if (fabsf(h[i] - want) > 1e-5f) {
      printf("[ERROR] %s[%d] is %.4f, expected %.4f\n", what, i, h[i], want);
      return 1;
    }
  return 0;
}

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL, subStream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  CHECK_RET(aclrtCreateStream(&subStream) == ACL_SUCCESS, "aclrtCreateStream");
  float hostX[N], hostY[N];
  for (int i = 0; i < N; i++) {
    hostX[i] = 1.0f;
    hostY[i] = 0.5f;
  }
  void *x = NULL, *y = NULL, *ifOut = NULL, *whileOut = NULL, *switchOut = NULL;
  aclTensor *tx = NULL, *ty = NULL, *tIf = NULL, *tWhile = NULL, *tSwitch = NULL;
  if (CreateTensor(hostX, N, &x, &tx) || CreateTensor(hostY, N, &y, &ty) || CreateTensor(NULL, N, &ifOut, &tIf) ||
      CreateTensor(NULL, N, &whileOut, &tWhile) || CreateTensor(NULL, N, &switchOut, &tSwitch))
    return 1;
  uint64_t *zero = NULL;
  CHECK_RET(aclrtMalloc((void **)&zero, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemset(zero, sizeof(uint64_t), 0, sizeof(uint64_t)) == ACL_SUCCESS, "aclrtMemset");

  aclmdlRI modelRI = NULL, captured = NULL;
  CHECK_RET(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS, "aclmdlRICaptureBegin");
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  CHECK_RET(aclmdlRICaptureGetInfo(stream, &status, &captured) == ACL_SUCCESS, "aclmdlRICaptureGetInfo");
  CHECK_RET(status == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, "capture status");

  aclmdlRICondHandle handles[3] = {NULL};
  uint64_t *condPtr[3] = {NULL};
  for (int i = 0; i < 3; i++) {
    CHECK_RET(aclmdlRICondHandleCreate(captured, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &handles[i]) ==
                  ACL_SUCCESS,
              "aclmdlRICondHandleCreate");
    CHECK_RET(aclmdlRICondHandleGetCondPtr(handles[i], &condPtr[i]) == ACL_SUCCESS, "aclmdlRICondHandleGetCondPtr");
  }
  /* IF: true -> alpha 1.0, false -> alpha 0.5 */
  aclmdlRI ifBranches[2] = {NULL};
  aclmdlRICondTaskParams ifParams = {handles[0], ACL_MODEL_RI_COND_TYPE_IF, 2, ifBranches};
  CHECK_RET(aclmdlRIAddCondTask(ifParams, stream, 0) == ACL_SUCCESS, "aclmdlRIAddCondTask(IF)");
  if (CaptureBranch(subStream, &ifBranches[0], tx, ty, 1.0f, tIf) ||
      CaptureBranch(subStream, &ifBranches[1], tx, ty, 0.5f, tIf))
    return 1;
  /* WHILE: whileOut += y, then the condition becomes 0 */
  aclmdlRI whileBody[1] = {NULL};
  aclmdlRICondTaskParams whileParams = {handles[1], ACL_MODEL_RI_COND_TYPE_WHILE, 1, whileBody};
  CHECK_RET(aclmdlRIAddCondTask(whileParams, stream, 0) == ACL_SUCCESS, "aclmdlRIAddCondTask(WHILE)");
  CHECK_RET(aclmdlRICaptureToModelRIBegin(subStream, whileBody[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == ACL_SUCCESS,
            "aclmdlRICaptureToModelRIBegin");
  if (RunAdd(tWhile, ty, 1.0f, tWhile, subStream))
    return 1;
  CHECK_RET(aclrtMemcpyAsync(condPtr[1], sizeof(uint64_t), zero, sizeof(uint64_t), ACL_MEMCPY_DEVICE_TO_DEVICE,
                             subStream) == ACL_SUCCESS,
            "aclrtMemcpyAsync");
  CHECK_RET(aclmdlRICaptureEnd(subStream, &whileBody[0]) == ACL_SUCCESS, "aclmdlRICaptureEnd");
  /* SWITCH: case i -> alpha 1.0 + i */
  aclmdlRI cases[3] = {NULL};
  aclmdlRICondTaskParams switchParams = {handles[2], ACL_MODEL_RI_COND_TYPE_SWITCH, 3, cases};
  CHECK_RET(aclmdlRIAddCondTask(switchParams, stream, 0) == ACL_SUCCESS, "aclmdlRIAddCondTask(SWITCH)");
  for (int i = 0; i < 3; i++)
    if (CaptureBranch(subStream, &cases[i], tx, ty, 1.0f + (float)i, tSwitch))
      return 1;
  CHECK_RET(aclmdlRICaptureEnd(stream, &modelRI) == ACL_SUCCESS, "aclmdlRICaptureEnd");

  int failed = 0;
  for (int run = 1; run <= 2; run++) {
    uint64_t one = 1;
    for (int i = 0; i < 3; i++)
      CHECK_RET(aclrtMemcpy(condPtr[i], sizeof one, &one, sizeof one, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
                "aclrtMemcpy");
    CHECK_RET(aclmdlRIExecuteAsync(modelRI, stream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    printf("execute model, run %d.\n", run);
    failed |= Check("IF result", ifOut, 1.25f);
    failed |= Check("WHILE result", whileOut, 0.0f);
    failed |= Check("SWITCH result (case 0)", switchOut, 1.5f);
  }

  CHECK_RET(aclmdlRIDestroy(modelRI) == ACL_SUCCESS, "aclmdlRIDestroy");
  aclDestroyTensor(tx);
  aclDestroyTensor(ty);
  aclDestroyTensor(tIf);
  aclDestroyTensor(tWhile);
  aclDestroyTensor(tSwitch);
  void *ds[6] = {x, y, ifOut, whileOut, switchOut, zero};
  for (int i = 0; i < 6; i++)
    aclrtFree(ds[i]);
  aclrtDestroyStream(subStream);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  printf(failed ? "Some tests FAILED\n" : "All tests PASSED\n");
  return failed;
}
