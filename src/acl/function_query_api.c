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
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/kernel.h"
#include "prof/prof.h"

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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

/* ---- symbol sizes and parameter descriptions ------------------------------------ */

/* The size of the kernel's code: its ELF symbol's size.  One C function
 * serves every core: it is the AI Core part; there is no vector part (0). */
aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (funcHandle == NULL || aicSize == NULL || aivSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     funcHandle == NULL ? "funcHandle"
                     : aicSize == NULL  ? "aicSize"
                                        : "aivSize");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  size_t size = 0;
  rc = acl__kernel_function_size(__func__, funcHandle, &size);
  if (rc != 0)
    return rc;
  *aicSize = size;
  *aivSize = 0;
  return 0;
}

/* The parameters a kernel describes with OPENACL_KERNEL_PARAMS (docs/kernels.md
 * "Parameter descriptions"): count, and each one's offset and size in the
 * packed buffer, laid out as aclrtKernelArgsAppend lays them out. */
typedef struct acl__fparams {
  uint32_t count;
  size_t offset[ACL__KERNEL_MAX_PARAMS];
  size_t size[ACL__KERNEL_MAX_PARAMS];
  size_t total;
} acl__fparams;

static int acl__fparams_get(const char *api, aclrtFuncHandle func, acl__fparams *p) {
  uint32_t sizes[ACL__KERNEL_MAX_PARAMS];
  int rc = acl__kernel_function_params(api, func, &p->count, sizes);
  if (rc != 0)
    return rc;
  size_t off = 0;
  for (uint32_t i = 0; i < p->count; i++) {
    size_t a = sizes[i] >= 8 ? 8 : sizes[i] >= 4 ? 4 : sizes[i] >= 2 ? 2 : 1;
    off = (off + a - 1) / a * a;
    p->offset[i] = off;
    p->size[i] = sizes[i];
    off += sizes[i];
  }
  p->total = off;
  return 0;
}

aclError aclrtFunctionGetParamCount(aclrtFuncHandle funcHandle, size_t *paramCount) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (funcHandle == NULL || paramCount == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "paramCount");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__fparams p;
  rc = acl__fparams_get(__func__, funcHandle, &p);
  if (rc != 0)
    return rc;
  *paramCount = p.count;
  return 0;
}

aclError aclrtFunctionGetParamInfo(aclrtFuncHandle funcHandle, size_t paramIndex, size_t *paramOffset,
                                   size_t *paramSize) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (funcHandle == NULL || paramOffset == NULL || paramSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     funcHandle == NULL    ? "funcHandle"
                     : paramOffset == NULL ? "paramOffset"
                                           : "paramSize");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__fparams p;
  rc = acl__fparams_get(__func__, funcHandle, &p);
  if (rc != 0)
    return rc;
  if (paramIndex >= p.count)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "paramIndex %zu is out of range: the kernel has %u parameter%s",
                     paramIndex, p.count, p.count == 1 ? "" : "s");
  *paramOffset = p.offset[paramIndex];
  *paramSize = p.size[paramIndex];
  return 0;
}

/* args[i] points to the value of parameter i; the values are packed as the
 * kernel's description lays them out and launched as host arguments. */
aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                        void **args) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (func == NULL || args == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", func == NULL ? "func" : "args");
  if (numBlocks == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "numBlocks is 0; a launch needs at least one block");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__fparams p;
  rc = acl__fparams_get(__func__, func, &p);
  if (rc != 0)
    return rc;
  unsigned char *buf = p.total > 0 ? calloc(1, p.total) : NULL;
  if (p.total > 0 && buf == NULL)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory to pack %zu argument bytes", p.total);
  for (uint32_t i = 0; i < p.count; i++) {
    if (args[i] == NULL && p.size[i] > 0) {
      free(buf);
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "args[%u] is NULL; it must point to the %zu-byte value of parameter %u",
                       i, p.size[i], i);
    }
    if (p.size[i] > 0)
      memcpy(buf + p.offset[i], args[i], p.size[i]);
  }
  acl__launch l;
  memset(&l, 0, sizeof l);
  l.func = func;
  l.num_blocks = numBlocks;
  l.stream = stream;
  l.cfg = cfg;
  l.source = ACL__KARGS_HOST;
  l.args = buf;
  l.args_size = p.total;
  rc = acl__kernel_launch(__func__, &l); /* copies the arguments */
  free(buf);
  return rc;
}

aclError aclrtFunctionGetAvailDynUbufPerBlock(aclrtFuncHandle funcHandle, uint32_t numBlocks, size_t *dynUbufSize) {
  ACL__PROF_API_SCOPE();
  if (funcHandle == NULL || dynUbufSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", funcHandle == NULL ? "funcHandle" : "dynUbufSize");
  (void)numBlocks;
  return acl__not_supported(__func__, "", "the simulated device's kernels have no unified buffer (UB)");
}

aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim, size_t dynUbufSize,
                                            aclrtStream stream, aclrtLaunchKernelCfg *cfg, void **args) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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

/* A global of the binary (docs/kernels.md "Device globals"): an exported
 * variable of the kernel's shared object; its address is its device address
 * and the symbol aclrtGetSymbolAddress and the symbol copies take. */
aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr, size_t *size) {
  ACL__PROF_API_SCOPE();
  if (binHandle == NULL || name == NULL || dptr == NULL || size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     binHandle == NULL ? "binHandle"
                     : name == NULL    ? "name"
                     : dptr == NULL    ? "dptr"
                                       : "size");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__kernel_binary_global(__func__, binHandle, name, dptr, size);
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize) {
  ACL__PROF_API_SCOPE();
  if (binHandle == NULL || binAddr == NULL || binSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     binHandle == NULL ? "binHandle"
                     : binAddr == NULL ? "binAddr"
                                       : "binSize");
  return acl__not_supported(__func__, "", "kernel binaries are loaded as host code, not copied to device memory");
}

/* Called, after the process-wide exception callbacks, when a kernel task
 * of this binary fails (docs/kernels.md "Exception callbacks").  The last
 * call wins; the callback goes with the binary. */
aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle, aclrtOpExceptionCallback callback, void *userData) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (binHandle == NULL || callback == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", binHandle == NULL ? "binHandle" : "callback");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__kernel_set_exception_callback(__func__, binHandle, callback, userData);
}
