/*
 * function_query_api.c - questions about kernel functions and binaries
 * (aclrtFunctionGetBinary, aclrtGetFunctionAddr, aclrtGetFunctionAttribute,
 * aclrtBinaryGetFunctionByEntry, aclrtGetFuncBySymbol, aclrtRegisterCpuFunc)
 * and the kernel functions openacl's kernel format cannot serve yet.
 *
 * On the simulated device a function's entry is the address of its C
 * function in the loaded shared object (openacl/kernel.h): that address is
 * what aclrtGetFunctionAddr returns, what aclrtBinaryGetFunctionByEntry and
 * aclrtGetFuncBySymbol take.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/kernel.h"

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle) {
  int rc = 0;
  if (funcHandle == NULL || binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "binHandle");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__kernel_function_binary(__func__, funcHandle, binHandle);
}

/* A kernel of the simulated device is one C function that serves every
 * core: it is the AI Core part; there is no separate vector part (NULL). */
aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr) {
  int rc = 0;
  if (funcHandle == NULL || aicAddr == NULL || aivAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     funcHandle == NULL ? "funcHandle"
                     : aicAddr == NULL  ? "aicAddr"
                                        : "aivAddr");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  void *entry = NULL;
  rc = acl__kernel_function_entry(__func__, funcHandle, &entry);
  if (rc != 0)
    return rc;
  *aicAddr = entry;
  *aivAddr = NULL;
  return 0;
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType, int64_t *attrValue) {
  int rc = 0;
  if (funcHandle == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "attrValue");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  void *entry = NULL;
  rc = acl__kernel_function_entry(__func__, funcHandle, &entry);
  if (rc != 0)
    return rc;
  switch (attrType) {
  case ACL_FUNC_ATTR_KERNEL_TYPE:
    *attrValue = ACL_KERNEL_TYPE_AICORE; /* runs on every core of the device alike */
    return 0;
  case ACL_FUNC_ATTR_KERNEL_RATIO:
    *attrValue = 0; /* not a mixed cube/vector kernel: no ratio */
    return 0;
  case ACL_FUNC_ATTR_KERNEL_SCHED_MODE:
    *attrValue = 0; /* normal scheduling: blocks go to whichever core is free */
    return 0;
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "attrType %d is not an aclrtFuncAttribute value (1..3)", (int)attrType);
  }
}

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry, aclrtFuncHandle *funcHandle) {
  int rc = 0;
  if (binHandle == NULL || funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", binHandle == NULL ? "binHandle" : "funcHandle");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  const void *entry = (const void *)(uintptr_t)funcEntry;
  if (acl__kernel_find_by_entry(binHandle, entry, funcHandle))
    return 0;
  /* Not looked up yet: the exported name at that address, then the
   * ordinary lookup, which must give the same address back. */
  Dl_info info;
  memset(&info, 0, sizeof info);
  if (funcEntry == 0 || dladdr(entry, &info) == 0 || info.dli_sname == NULL || info.dli_saddr != entry)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "funcEntry 0x%llx is not the entry of an exported kernel function. Remedy: pass an address "
                     "aclrtGetFunctionAddr returned for a function of this binary",
                     (unsigned long long)funcEntry);
  aclrtFuncHandle f = NULL;
  rc = acl__kernel_get_function(__func__, binHandle, info.dli_sname, &f);
  if (rc != 0)
    return rc;
  void *got = NULL;
  rc = acl__kernel_function_entry(__func__, f, &got);
  if (rc != 0)
    return rc;
  if (got != entry)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "funcEntry 0x%llx (function '%s') is not in this binary",
                     (unsigned long long)funcEntry, info.dli_sname);
  *funcHandle = f;
  return 0;
}

aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle) {
  int rc = 0;
  if (symbol == NULL || funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "funcHandle");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (acl__kernel_find_by_entry(NULL, symbol, funcHandle))
    return 0;
  return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                   "symbol %p is not the entry of a kernel function looked up in a loaded binary. Remedy: get the "
                   "function once with aclrtBinaryGetFunction; its entry (aclrtGetFunctionAddr) is its symbol",
                   symbol);
}

/* An AI CPU kernel: on the simulated device every kernel runs on the host's
 * CPU, so funcName is found like any kernel; kernelName (the operator's name
 * on a card) is checked and otherwise unused. */
aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName, const char *kernelName,
                              aclrtFuncHandle *funcHandle) {
  int rc = 0;
  if (handle == NULL || funcName == NULL || kernelName == NULL || funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     handle == NULL       ? "handle"
                     : funcName == NULL   ? "funcName"
                     : kernelName == NULL ? "kernelName"
                                          : "funcHandle");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__kernel_get_function(__func__, handle, funcName, funcHandle);
}

/* ---- what the kernel format cannot serve yet ------------------------------------ */

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize) {
  if (funcHandle == NULL || aicSize == NULL || aivSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     funcHandle == NULL ? "funcHandle"
                     : aicSize == NULL  ? "aicSize"
                                        : "aivSize");
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not read symbol sizes yet");
}

aclError aclrtFunctionGetParamCount(aclrtFuncHandle funcHandle, size_t *paramCount) {
  if (funcHandle == NULL || paramCount == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "paramCount");
  return acl__not_supported(__func__, "issue 10", "openacl kernel binaries carry no parameter list");
}

aclError aclrtFunctionGetParamInfo(aclrtFuncHandle funcHandle, size_t paramIndex, size_t *paramOffset,
                                   size_t *paramSize) {
  if (funcHandle == NULL || paramOffset == NULL || paramSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     funcHandle == NULL    ? "funcHandle"
                     : paramOffset == NULL ? "paramOffset"
                                           : "paramSize");
  (void)paramIndex;
  return acl__not_supported(__func__, "issue 10", "openacl kernel binaries carry no parameter list");
}

aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                        void **args) {
  if (func == NULL || args == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", func == NULL ? "func" : "args");
  (void)numBlocks;
  (void)stream;
  (void)cfg;
  return acl__not_supported(__func__, "issue 10", "openacl kernel binaries carry no parameter list to pack args");
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(aclrtFuncHandle funcHandle, uint32_t numBlocks, size_t *dynUbufSize) {
  if (funcHandle == NULL || dynUbufSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "dynUbufSize");
  (void)numBlocks;
  return acl__not_supported(__func__, "", "the simulated device's kernels have no unified buffer (UB)");
}

aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args) {
  if (func == NULL || args == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", func == NULL ? "func" : "args");
  (void)gridDim;
  (void)blockDim;
  (void)dynUbufSize;
  (void)stream;
  (void)cfg;
  return acl__not_supported(__func__, "", "openacl kernels run blocks, not SIMT threads (no thread index)");
}

aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                           size_t argsSize, aclrtPlaceHolderInfo *placeHolderArray,
                                           size_t placeHolderNum) {
  if (func == NULL || hostArgs == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", func == NULL ? "func" : "hostArgs");
  (void)gridDim;
  (void)blockDim;
  (void)dynUbufSize;
  (void)stream;
  (void)cfg;
  (void)argsSize;
  (void)placeHolderArray;
  (void)placeHolderNum;
  return acl__not_supported(__func__, "", "openacl kernels run blocks, not SIMT threads (no thread index)");
}

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr, size_t *size) {
  if (binHandle == NULL || name == NULL || dptr == NULL || size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     binHandle == NULL ? "binHandle"
                     : name == NULL    ? "name"
                     : dptr == NULL    ? "dptr"
                                       : "size");
  return acl__not_supported(__func__, "issue 10", "the kernel loader does not look up data symbols yet");
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize) {
  if (binHandle == NULL || binAddr == NULL || binSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     binHandle == NULL ? "binHandle"
                     : binAddr == NULL ? "binAddr"
                                       : "binSize");
  return acl__not_supported(__func__, "", "kernel binaries are loaded as host code, not copied to device memory");
}

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void *userData) {
  if (binHandle == NULL || callback == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", binHandle == NULL ? "binHandle" : "callback");
  (void)userData;
  return acl__not_supported(__func__, "issue 10", "per-binary exception callbacks are not wired to kernel failures");
}
