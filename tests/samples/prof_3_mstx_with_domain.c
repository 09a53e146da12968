/*
 * prof_3_mstx_with_domain.c - in the style of the vendor's
 * example/5_performance/profiling/3_mstx_with_domain: mstx marks and
 * ranges, in the default domain and in "DoAclAdd_Inner", around an
 * aclnnAdd of two 4x2 tensors on a stream (out = self + 1.2 * other), as
 * the vendor's sample does.
 *
 * The vendor runs it under `msprof --msproftx=on`; here acl.json's
 * profiler section (msproftx on) collects, and aclInit points
 * MSTX_INJECTION_PATH at libascendcl.so before the first mstx call binds.
 * Prints result[0..7] = 1.2 2.2 3.2 5.4 6.4 7.4 9.6 10.6.  run_sample.sh
 * checks them and the msprof_tx rows (domain column, nesting).
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "mstx/ms_tools_ext.h"

#define CHECK_RET(cond, what)                                                                                          \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("[ERROR] %s failed at line %d: %s\n", what, __LINE__, aclGetRecentErrMsg());                              \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

#define N 8

static aclTensor *Tensor(void *dev) {
  int64_t shape[2] = {4, 2}, strides[2] = {2, 1};
  return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev);
}

int main(void) {
  CHECK_RET(aclInit("./acl.json") == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  float self[N] = {0, 1, 2, 3, 4, 5, 6, 7};
  float other[N] = {1, 1, 1, 2, 2, 2, 3, 3};
  float result[N] = {0};
  float alphaValue = 1.2f;
  void *dSelf = NULL, *dOther = NULL, *dOut = NULL;
  CHECK_RET(aclrtMalloc(&dSelf, sizeof(self), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&dOther, sizeof(other), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&dOut, sizeof(result), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemcpy(dSelf, sizeof(self), self, sizeof(self), ACL_MEMCPY_HOST_TO_DEVICE) == 0, "aclrtMemcpy");
  CHECK_RET(aclrtMemcpy(dOther, sizeof(other), other, sizeof(other), ACL_MEMCPY_HOST_TO_DEVICE) == 0, "aclrtMemcpy");
  aclTensor *tSelf = Tensor(dSelf), *tOther = Tensor(dOther), *tOut = Tensor(dOut);
  aclScalar *alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  CHECK_RET(tSelf != NULL && tOther != NULL && tOut != NULL && alpha != NULL, "aclCreateTensor");
  uint64_t workspaceSize = 0;
  aclOpExecutor *executor = NULL;
  CHECK_RET(aclnnAddGetWorkspaceSize(tSelf, tOther, alpha, tOut, &workspaceSize, &executor) == ACL_SUCCESS,
            "aclnnAddGetWorkspaceSize");
  void *workspace = NULL;
  if (workspaceSize > 0)
    CHECK_RET(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");

  /* the marks, as in the vendor's sample */
  mstxDomainHandle_t domain = mstxDomainCreateA("DoAclAdd_Inner");
  CHECK_RET(domain != NULL, "mstxDomainCreateA");
  mstxRangeId outer = mstxRangeStartA("TestMstxWithDomain", stream);
  CHECK_RET(outer != 0, "mstxRangeStartA (is msproftx collection on?)");
  mstxMarkA("AclAdd_Start", stream);
  mstxDomainMarkA(domain, "AclAdd_Inner_Start", stream);
  mstxRangeId inner = mstxDomainRangeStartA(domain, "AclAdd_Inner_Range", stream);
  CHECK_RET(inner != 0 && inner != outer, "mstxDomainRangeStartA");
  CHECK_RET(aclnnAdd(workspace, workspaceSize, executor, stream) == ACL_SUCCESS, "aclnnAdd");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  mstxDomainRangeEnd(domain, inner);
  mstxRangeEnd(outer);
  mstxDomainDestroy(domain);

  CHECK_RET(aclrtMemcpy(result, sizeof(result), dOut, sizeof(result), ACL_MEMCPY_DEVICE_TO_HOST) == 0, "aclrtMemcpy");
  for (int i = 0; i < N; i++)
    printf("result[%d] is: %g\n", i, (double)result[i]);

  aclDestroyTensor(tSelf);
  aclDestroyTensor(tOther);
  aclDestroyTensor(tOut);
  aclDestroyScalar(alpha);
  if (workspace != NULL)
    aclrtFree(workspace);
  aclrtFree(dSelf);
  aclrtFree(dOther);
  aclrtFree(dOut);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
