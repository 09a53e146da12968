/*
 * rt_rest_impl.c - the functions of issue 10 §2 that openacl implements on
 * the simulated device, through the public API: system parameters,
 * operator timeouts (a kernel that runs past one fails), compute groups,
 * shared buffers and chains, device queries, function queries.
 */
#include <stdint.h>
#include <string.h>

#include "rt_ext_common.h"

/* rx_spin's arguments (rt_ext_kernels.c): spin that many milliseconds of CPU time. */
struct spin_args {
  uint32_t ms;
};

TEST(sys_params_process_and_context) {
  int64_t v = -1;
  CHECK_INT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_UNINITIALIZE);
  rt_up();
  CHECK_INT_EQ(aclrtGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  CHECK_INT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 3);
  CHECK_INT_EQ(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetSysParamOpt((aclSysParamOpt)7, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, NULL), ACL_ERROR_INVALID_PARAM);
  /* context scope: its own values, per context */
  CHECK_INT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "ACL_OPT_ENABLE_KERNEL_EARLY_START");
  CHECK_INT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  aclrtContext ctx = NULL;
  CHECK_INT_EQ(aclrtCreateContext(&ctx, 0), ACL_SUCCESS); /* becomes current */
  CHECK_INT_EQ(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
  CHECK_INT_EQ(aclrtDestroyContext(ctx), ACL_SUCCESS);
  rt_down();
  CHECK_INT_EQ(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1), ACL_ERROR_UNINITIALIZE);
}

TEST(op_timeouts_round_and_read_back) {
  uint32_t ms = 7;
  uint64_t actual = 0, interval = 0;
  CHECK_INT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_ERROR_UNINITIALIZE);
  rt_up();
  CHECK_INT_EQ(aclrtGetOpTimeOutInterval(&interval), ACL_SUCCESS);
  CHECK(interval > 0);
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOut(3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  CHECK_INT_EQ(ms, 3000);
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutWithMs(250), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  CHECK_INT_EQ(ms, 250);
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutV2(interval + 1, &actual), ACL_SUCCESS);
  CHECK(actual == 2 * interval); /* rounded up to the interval */
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutV2(1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetOpTimeOutInterval(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetOpExecuteTimeout(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetOpWaitTimeout(5), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutWithMs(0), ACL_SUCCESS); /* none */
  rt_down();
}

TEST(a_kernel_past_the_op_timeout_fails) {
  rt_up();
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle f = rx_func("rx_spin", &bin);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  struct spin_args a = {5};
  CHECK_INT_EQ(rx_launch(f, 1, &a, sizeof a, s), ACL_SUCCESS); /* no timeout set: runs */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutWithMs(20), ACL_SUCCESS);
  a.ms = 200;
  CHECK_INT_EQ(rx_launch(f, 1, &a, sizeof a, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "operator timeout");
  CHECK_INT_EQ(aclrtSetOpExecuteTimeOutWithMs(0), ACL_SUCCESS);
  CHECK_INT_EQ(rx_launch(f, 1, &a, sizeof a, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  rt_down();
}

TEST(groups_one_group_with_every_core) {
  uint32_t n = 9;
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetGroupCount(&n), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_NULL(aclrtCreateGroupInfo());
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetGroupCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  CHECK_INT_EQ(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM);
  aclrtGroupInfo *g = aclrtCreateGroupInfo();
  CHECK_NOT_NULL(g);
  int32_t v = -1;
  size_t ret = 0;
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_AICORE_INT, &v, sizeof v, &ret), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetAllGroupInfo(g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_AICORE_INT, &v, sizeof v, &ret), ACL_SUCCESS);
  CHECK_INT_EQ((int)ret, 4);
  int64_t cores = 0;
  CHECK_INT_EQ(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &cores), ACL_SUCCESS);
  CHECK_INT_EQ(v, (int)cores);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_GROUPID_INT, &v, sizeof v, &ret), ACL_SUCCESS);
  CHECK_INT_EQ(v, 0);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 1, ACL_GROUP_AICORE_INT, &v, sizeof v, &ret), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, (aclrtGroupAttr)6, &v, sizeof v, &ret), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_AIV_INT, &v, 2, &ret), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetGroupInfoDetail(g, 0, ACL_GROUP_AIV_INT, NULL, 4, &ret), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetGroup(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetGroup(1), ACL_ERROR_RT_GROUP_NOT_CREATE);
  CHECK_INT_EQ(aclrtDestroyGroupInfo(g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyGroupInfo(NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
}

TEST(buffers_data_user_data_and_refs) {
  aclrtMbuf b = NULL, c = NULL;
  CHECK_INT_EQ(aclrtAllocBuf(&b, 64), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocBuf(NULL, 64), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocBuf(&b, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtAllocBuf(&b, 100), ACL_SUCCESS);
  void *data = NULL;
  size_t size = 0, len = 9;
  CHECK_INT_EQ(aclrtGetBufData(b, &data, &size), ACL_SUCCESS);
  CHECK(data != NULL && size == 100);
  memset(data, 0x5a, size);
  CHECK_INT_EQ(aclrtGetBufDataLen(b, &len), ACL_SUCCESS);
  CHECK_INT_EQ((int)len, 0);
  CHECK_INT_EQ(aclrtSetBufDataLen(b, 101), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetBufDataLen(b, 40), ACL_SUCCESS);
  char u[96], r[96];
  for (int i = 0; i < 96; i++)
    u[i] = (char)i;
  CHECK_INT_EQ(aclrtSetBufUserData(b, u, 96, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetBufUserData(b, u, 8, 90), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetBufUserData(b, r, 10, 86), ACL_SUCCESS);
  CHECK(memcmp(r, u + 86, 10) == 0);
  CHECK_INT_EQ(aclrtGetBufUserData(b, NULL, 10, 0), ACL_ERROR_INVALID_PARAM);
  /* a second header on the same data */
  CHECK_INT_EQ(aclrtCopyBufRef(b, &c), ACL_SUCCESS);
  void *data2 = NULL;
  CHECK_INT_EQ(aclrtGetBufData(c, &data2, &size), ACL_SUCCESS);
  CHECK(data2 == data);
  CHECK_INT_EQ(aclrtGetBufDataLen(c, &len), ACL_SUCCESS);
  CHECK_INT_EQ((int)len, 40);
  CHECK_INT_EQ(aclrtFreeBuf(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeBuf(b), ACL_ERROR_INVALID_PARAM); /* stale */
  CHECK(((unsigned char *)data2)[99] == 0x5a);           /* still alive through c */
  CHECK_INT_EQ(aclrtFreeBuf(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(buffer_chains) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtMbuf h = NULL, x = NULL, y = NULL, got = NULL;
  CHECK_INT_EQ(aclrtAllocBuf(&h, 8), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocBuf(&x, 8), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAllocBuf(&y, 8), ACL_SUCCESS);
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  CHECK_INT_EQ(aclrtAppendBufChain(h, x), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAppendBufChain(h, y), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtAppendBufChain(h, x), ACL_ERROR_INVALID_PARAM); /* already chained */
  CHECK_INT_EQ(aclrtAppendBufChain(h, h), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetBufChainNum(h, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 3);
  CHECK_INT_EQ(aclrtGetBufFromChain(h, 0, &got), ACL_SUCCESS);
  CHECK(got == h);
  CHECK_INT_EQ(aclrtGetBufFromChain(h, 2, &got), ACL_SUCCESS);
  CHECK(got == y);
  CHECK_INT_EQ(aclrtGetBufFromChain(h, 3, &got), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFreeBuf(x), ACL_ERROR_INVALID_PARAM); /* part of h's chain */
  CHECK_INT_EQ(aclrtFreeBuf(h), ACL_SUCCESS);             /* frees the chain */
  CHECK_INT_EQ(aclrtGetBufChainNum(y, &n), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(device_queries) {
  rt_up();
  CHECK_INT_EQ(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
  aclrtAtomicOperation ops[3] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_FLOAT_ADD,
                                 ACL_RT_ATOMIC_OPERATION_DMA_ADD};
  uint32_t caps[3] = {0, 0, 7};
  CHECK_INT_EQ(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0), ACL_SUCCESS);
  CHECK(caps[0] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
  CHECK(caps[1] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
  CHECK_INT_EQ((int)caps[2], 0);
  CHECK_INT_EQ(aclrtDeviceGetHostAtomicCapabilities(NULL, ops, 3, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 999), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDeviceL2CacheFlush(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceL2CacheFlush(999), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtMemUceInfo uce[2];
  size_t got = 9;
  CHECK_INT_EQ(aclrtGetMemUceInfo(0, uce, 2, &got), ACL_SUCCESS);
  CHECK_INT_EQ((int)got, 0);
  CHECK_INT_EQ(aclrtGetMemUceInfo(0, NULL, 2, &got), ACL_ERROR_INVALID_PARAM);
  void *p = NULL;
  CHECK_INT_EQ(aclrtMallocForTaskScheduler(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_SUCCESS);
  CHECK_NOT_NULL(p);
  CHECK_INT_EQ(aclrtMallocForTaskScheduler(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
  /* the overflow status under its Npu names: 64 bytes of device memory */
  void *st = NULL;
  CHECK_INT_EQ(aclrtMalloc(&st, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNpuClearFloatOverFlowStatus(0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNpuGetFloatOverFlowStatus(st, 64, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  unsigned char host[64];
  memset(host, 0xff, sizeof host);
  CHECK_INT_EQ(aclrtMemcpy(host, 64, st, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(host[0], 0);
  CHECK_INT_EQ(aclrtNpuGetFloatOverFlowStatus(st, 32, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNpuGetFloatOverFlowStatus(st, 64, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtNpuGetFloatOverFlowStatus(host, 64, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  rt_down();
  CHECK_INT_EQ(aclrtDeviceL2CacheFlush(0), ACL_ERROR_UNINITIALIZE);
}

TEST(function_queries) {
  rt_up();
  aclrtBinHandle bin = NULL, bin2 = NULL;
  aclrtFuncHandle f = rx_func("rx_double", &bin), g = NULL;
  CHECK_INT_EQ(aclrtFunctionGetBinary(f, &bin2), ACL_SUCCESS);
  CHECK(bin2 == bin);
  void *aic = NULL, *aiv = (void *)1;
  CHECK_INT_EQ(aclrtGetFunctionAddr(f, &aic, &aiv), ACL_SUCCESS);
  CHECK(aic != NULL && aiv == NULL);
  CHECK_INT_EQ(aclrtGetFuncBySymbol(aic, &g), ACL_SUCCESS);
  CHECK(g == f);
  CHECK_INT_EQ(aclrtBinaryGetFunctionByEntry(bin, (uint64_t)(uintptr_t)aic, &g), ACL_SUCCESS);
  CHECK(g == f);
  /* an entry not looked up yet: found through its exported name */
  aclrtFuncHandle sq = NULL, sq2 = NULL;
  CHECK_INT_EQ(aclrtRegisterCpuFunc(bin, "rx_square", "Square", &sq), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetFunctionAddr(sq, &aic, &aiv), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunctionByEntry(bin, (uint64_t)(uintptr_t)aic, &sq2), ACL_SUCCESS);
  CHECK(sq2 == sq);
  CHECK_INT_EQ(aclrtBinaryGetFunctionByEntry(bin, 0, &g), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetFuncBySymbol((void *)&bin, &g), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_NE(aclrtRegisterCpuFunc(bin, "no_such_kernel", "X", &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRegisterCpuFunc(bin, "rx_square", NULL, &g), ACL_ERROR_INVALID_PARAM);
  int64_t v = -1;
  CHECK_INT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, &v), ACL_SUCCESS);
  CHECK_INT_EQ((int)v, ACL_KERNEL_TYPE_AICORE);
  CHECK_INT_EQ(aclrtGetFunctionAttribute(f, (aclrtFuncAttribute)9, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetFunctionAttribute(f, ACL_FUNC_ATTR_KERNEL_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFunctionGetBinary(NULL, &bin2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  /* stale handles */
  CHECK_INT_EQ(aclrtFunctionGetBinary(f, &bin2), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtGetFunctionAddr(f, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtGetFuncBySymbol(aic, &g), ACL_ERROR_RT_PARAM_INVALID);
  rt_down();
  CHECK_INT_EQ(aclrtFunctionGetBinary(f, &bin2), ACL_ERROR_UNINITIALIZE);
}
