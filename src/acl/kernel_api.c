/*
 * kernel_api.c - the public kernel API: binaries (aclrtBinary*,
 * aclrtCreateBinary), the argument builder (aclrtKernelArgs*) and launches
 * (aclrtLaunchKernel*).  Each entry point checks its plain arguments and
 * calls src/rt/kernel.c, which checks handles and records its own failures.
 */
#include <stdint.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/kernel.h"
#include "prof/prof.h"

/* ---- binaries ------------------------------------------------------------ */

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (binPath == NULL || binPath[0] == '\0')
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binPath must name a kernel binary file");
  if (binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binHandle must not be NULL");
  return acl__kernel_binary_load(__func__, binPath, NULL, 0, options, binHandle);
}

aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (data == NULL || length == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "data (%p) and length (%zu) must describe the binary's bytes", data,
                     length);
  if (binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binHandle must not be NULL");
  return acl__kernel_binary_load(__func__, NULL, data, length, options, binHandle);
}

aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return NULL;
  if (data == NULL || dataLen == 0) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "data (%p) and dataLen (%zu) must describe the binary's bytes", data, dataLen);
    return NULL;
  }
  return acl__kernel_binary_create(__func__, data, dataLen);
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (binary == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binary must not be NULL");
  return acl__kernel_binary_destroy(__func__, binary);
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (binary == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binary must not be NULL");
  if (binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binHandle must not be NULL");
  return acl__kernel_binary_load_created(__func__, binary, binHandle);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binHandle must not be NULL");
  return acl__kernel_binary_unload(__func__, binHandle);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (binHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "binHandle must not be NULL");
  if (kernelName == NULL || kernelName[0] == '\0')
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "kernelName must name a kernel of the binary");
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  return acl__kernel_get_function(__func__, binHandle, kernelName, funcHandle);
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  if (name == NULL || maxLen == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "name (%p) must point to maxLen (%u) > 0 bytes", (void *)name, maxLen);
  return acl__kernel_function_name(__func__, funcHandle, maxLen, name);
}

/* ---- the argument builder ------------------------------------------------- */

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle must not be NULL");
  return acl__kargs_init(__func__, funcHandle, argsHandle);
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void *userHostMem,
                                      size_t actualArgsSize) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "argsHandle must point to aclrtKernelArgsGetHandleMemSize bytes of caller memory");
  if (userHostMem == NULL || actualArgsSize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "userHostMem (%p) must point to actualArgsSize (%zu) > 0 bytes (see aclrtKernelArgsGetMemSize)",
                     userHostMem, actualArgsSize);
  return acl__kargs_init_user_mem(__func__, funcHandle, argsHandle, userHostMem, actualArgsSize);
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  if (actualArgsSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "actualArgsSize must not be NULL");
  return acl__kargs_mem_size(__func__, funcHandle, userArgsSize, actualArgsSize);
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (funcHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "funcHandle must not be NULL");
  if (memSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "memSize must not be NULL");
  return acl__kargs_handle_mem_size(__func__, funcHandle, memSize);
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                               aclrtParamHandle *paramHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle must not be NULL");
  if (param == NULL || paramSize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "param (%p) must point to paramSize (%zu) > 0 bytes", param,
                     paramSize);
  if (paramHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "paramHandle must not be NULL (it receives the parameter's handle)");
  return acl__kargs_append(__func__, argsHandle, param, paramSize, paramHandle);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle must not be NULL");
  if (paramHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "paramHandle must not be NULL: it is needed for aclrtKernelArgsGetPlaceHolderBuffer");
  return acl__kargs_append_placeholder(__func__, argsHandle, paramHandle);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                             size_t dataSize, void **bufferAddr) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (argsHandle == NULL || paramHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle (%p) and paramHandle (%p) must not be NULL", argsHandle,
                     paramHandle);
  if (dataSize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataSize must be > 0");
  if (bufferAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "bufferAddr must not be NULL");
  return acl__kargs_placeholder_buffer(__func__, argsHandle, paramHandle, dataSize, bufferAddr);
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
                                   size_t paramSize) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (argsHandle == NULL || paramHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle (%p) and paramHandle (%p) must not be NULL", argsHandle,
                     paramHandle);
  if (param == NULL || paramSize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "param (%p) must point to paramSize (%zu) > 0 bytes", param,
                     paramSize);
  return acl__kargs_update(__func__, argsHandle, paramHandle, param, paramSize);
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle must not be NULL");
  return acl__kargs_finalize(__func__, argsHandle);
}

/* ---- launches ------------------------------------------------------------- */

static int launch_check(const char *api, aclrtFuncHandle funcHandle, uint32_t numBlocks) {
  if (funcHandle == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "funcHandle must not be NULL");
  if (numBlocks == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "numBlocks must be at least 1");
  return 0;
}

static int device_args(const char *api, aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                       size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
  int rc = launch_check(api, funcHandle, numBlocks);
  if (rc != 0)
    return rc;
  if (argsData == NULL && argsSize > 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "argsData is NULL but argsSize is %zu; pass device memory holding the packed arguments",
                     argsSize);
  acl__launch l = {.func = funcHandle, .num_blocks = numBlocks, .stream = stream, .cfg = cfg,
                   .source = ACL__KARGS_DEVICE, .args = argsData, .args_size = argsSize};
  return acl__kernel_launch(api, &l);
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  return device_args(__func__, funcHandle, numBlocks, argsData, argsSize, NULL, stream);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                             aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  return device_args(__func__, funcHandle, numBlocks, argsData, argsSize, cfg, stream);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  int rc = launch_check(__func__, funcHandle, numBlocks);
  if (rc != 0)
    return rc;
  if (argsHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "argsHandle must not be NULL (build one with aclrtKernelArgsInit)");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  acl__launch l = {.func = funcHandle, .num_blocks = numBlocks, .stream = stream, .cfg = cfg,
                   .source = ACL__KARGS_HANDLE, .handle = argsHandle};
  return acl__kernel_launch(__func__, &l);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                       aclrtLaunchKernelCfg *cfg, void *hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo *placeHolderArray, size_t placeHolderNum) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  int rc = launch_check(__func__, funcHandle, numBlocks);
  if (rc != 0)
    return rc;
  if (hostArgs == NULL && argsSize > 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hostArgs is NULL but argsSize is %zu", argsSize);
  if (placeHolderArray == NULL && placeHolderNum > 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "placeHolderArray is NULL but placeHolderNum is %zu", placeHolderNum);
  acl__launch l = {.func = funcHandle, .num_blocks = numBlocks, .stream = stream, .cfg = cfg,
                   .source = ACL__KARGS_HOST, .args = hostArgs, .args_size = argsSize,
                   .placeholders = placeHolderArray, .placeholder_count = placeHolderNum};
  return acl__kernel_launch(__func__, &l);
}
