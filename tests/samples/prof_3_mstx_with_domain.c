/*
 * prof_3_mstx_with_domain.c - in the style of the vendor's
 * example/5_performance/profiling/3_mstx_with_domain: mstx marks and
 * ranges, in the default domain and in "DoAclAdd_Inner", around an add of
 * two 8-element vectors on a stream.  The vendor's sample computes the add
 * with aclnnAdd; openacl has no aclnn operators yet (issue 14), so this one
 * launches a kernel doing the same (add_kernel.c, path in argv[1]).
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
#include "mstx/ms_tools_ext.h"

#define CHECK_RET(cond, what)                                                                                          \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("[ERROR] %s failed at line %d: %s\n", what, __LINE__, aclGetRecentErrMsg());                              \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

#define N 8

int main(int argc, char **argv) {
  const char *kernelPath = argc > 1 ? argv[1] : "./libsample_add_kernel.so";
  CHECK_RET(aclInit("./acl.json") == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  float self[N] = {0, 1, 2, 3, 4, 5, 6, 7};
  float other[N] = {1, 1, 1, 2, 2, 2, 3, 3};
  float result[N] = {0};
  float alpha = 1.2f;
  uint32_t n = N;
  void *dSelf = NULL, *dOther = NULL, *dOut = NULL;
  CHECK_RET(aclrtMalloc(&dSelf, sizeof(self), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&dOther, sizeof(other), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc(&dOut, sizeof(result), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemcpy(dSelf, sizeof(self), self, sizeof(self), ACL_MEMCPY_HOST_TO_DEVICE) == 0, "aclrtMemcpy");
  CHECK_RET(aclrtMemcpy(dOther, sizeof(other), other, sizeof(other), ACL_MEMCPY_HOST_TO_DEVICE) == 0, "aclrtMemcpy");

  aclrtBinaryLoadOption option;
  memset(&option, 0, sizeof(option));
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  aclrtBinaryLoadOptions options = {&option, 1};
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle func = NULL;
  aclrtArgsHandle args = NULL;
  aclrtParamHandle param = NULL;
  CHECK_RET(aclrtBinaryLoadFromFile(kernelPath, &options, &bin) == ACL_SUCCESS, "aclrtBinaryLoadFromFile");
  CHECK_RET(aclrtBinaryGetFunction(bin, "sample_add", &func) == ACL_SUCCESS, "aclrtBinaryGetFunction");
  CHECK_RET(aclrtKernelArgsInit(func, &args) == ACL_SUCCESS, "aclrtKernelArgsInit");
  CHECK_RET(aclrtKernelArgsAppend(args, &dSelf, sizeof(dSelf), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &dOther, sizeof(dOther), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &dOut, sizeof(dOut), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &alpha, sizeof(alpha), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsAppend(args, &n, sizeof(n), &param) == ACL_SUCCESS, "aclrtKernelArgsAppend");
  CHECK_RET(aclrtKernelArgsFinalize(args) == ACL_SUCCESS, "aclrtKernelArgsFinalize");

  /* the marks, as in the vendor's sample */
  mstxDomainHandle_t domain = mstxDomainCreateA("DoAclAdd_Inner");
  CHECK_RET(domain != NULL, "mstxDomainCreateA");
  mstxRangeId outer = mstxRangeStartA("TestMstxWithDomain", stream);
  CHECK_RET(outer != 0, "mstxRangeStartA (is msproftx collection on?)");
  mstxMarkA("AclAdd_Start", stream);
  mstxDomainMarkA(domain, "AclAdd_Inner_Start", stream);
  mstxRangeId inner = mstxDomainRangeStartA(domain, "AclAdd_Inner_Range", stream);
  CHECK_RET(inner != 0 && inner != outer, "mstxDomainRangeStartA");
  CHECK_RET(aclrtLaunchKernelWithConfig(func, 1, stream, NULL, args, NULL) == ACL_SUCCESS, "aclrtLaunchKernel");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  mstxDomainRangeEnd(domain, inner);
  mstxRangeEnd(outer);
  mstxDomainDestroy(domain);

  CHECK_RET(aclrtMemcpy(result, sizeof(result), dOut, sizeof(result), ACL_MEMCPY_DEVICE_TO_HOST) == 0, "aclrtMemcpy");
  for (int i = 0; i < N; i++)
    printf("result[%d] is: %g\n", i, (double)result[i]);

  aclrtBinaryUnLoad(bin);
  aclrtFree(dSelf);
  aclrtFree(dOther);
  aclrtFree(dOut);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
