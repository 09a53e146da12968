/*
 * rt_symbols.c - black-box tests of device symbols (aclrtBinaryGetGlobal,
 * aclrtGetSymbolAddress/Size, aclrtMemcpyTo/FromSymbol[Async]), function
 * sizes and parameter descriptions (aclrtGetFunctionSize,
 * aclrtFunctionGetParamCount/Info, aclrtLaunchKernelWithArgsArray),
 * per-binary exception callbacks (aclrtBinarySetExceptionCallback) and
 * cache maintenance with descriptors and barriers (aclrtCmo*), through the
 * public API.  The kernels are tests/api/rt_symbols_kernels.c.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "rt_common.h"

static aclrtBinHandle load(void) {
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_SYMBOL_KERNELS, NULL, &bin), ACL_SUCCESS);
  CHECK_NOT_NULL(bin);
  return bin;
}

TEST(globals_are_found_by_name_and_symbol) {
  rt_up();
  aclrtBinHandle bin = load();
  void *table = NULL, *scale = NULL, *p = NULL;
  size_t size = 0;
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", &table, &size), ACL_SUCCESS);
  CHECK_NOT_NULL(table);
  CHECK_INT_EQ(size, 64 * sizeof(uint32_t));
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_scale", &scale, &size), ACL_SUCCESS);
  CHECK_INT_EQ(size, sizeof(float));
  /* the symbol is the global's address; its device address is the same */
  CHECK_INT_EQ(aclrtGetSymbolAddress(table, &p), ACL_SUCCESS);
  CHECK(p == table);
  CHECK_INT_EQ(aclrtGetSymbolSize(table, &size), ACL_SUCCESS);
  CHECK_INT_EQ(size, 256);
  /* unknown names: missing, hidden, a function, a library's symbol */
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "no_such_global", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "no_such_global");
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_hidden", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_read", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "a function");
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "environ", &p, &size), ACL_ERROR_RT_SYMBOL_NOT_FOUND);
  /* symbols that are not the start of a global */
  int local = 0;
  CHECK_INT_EQ(aclrtGetSymbolAddress(&local, &p), ACL_ERROR_RT_INVALID_SYMBOL);
  CHECK_INT_EQ(aclrtGetSymbolSize((char *)table + 4, &size), ACL_ERROR_RT_INVALID_SYMBOL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not its start");
  /* NULL arguments */
  CHECK_INT_EQ(aclrtBinaryGetGlobal(NULL, "sym_table", &p, &size), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, NULL, &p, &size), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", NULL, &size), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", &p, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetSymbolAddress(NULL, &p), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetSymbolAddress(table, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetSymbolSize(table, NULL), ACL_ERROR_INVALID_PARAM);
  /* after unload the global is no symbol any more */
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetSymbolSize(table, &size), ACL_ERROR_RT_INVALID_SYMBOL);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", &p, &size), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
  CHECK_INT_EQ(aclrtGetSymbolAddress(table, &p), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, &local, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_UNINITIALIZE);
}

TEST(copies_to_and_from_symbols_reach_kernels) {
  rt_up();
  aclrtBinHandle bin = load();
  void *table = NULL, *scale = NULL;
  size_t size = 0;
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", &table, &size), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_scale", &scale, &size), ACL_SUCCESS);
  uint32_t host[64];
  for (int i = 0; i < 64; i++)
    host[i] = (uint32_t)(i * 3);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, sizeof host, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  float three = 3.0f;
  CHECK_INT_EQ(aclrtMemcpyToSymbol(scale, &three, sizeof three, 0, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  /* a kernel reads them */
  aclrtFuncHandle rd = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "sym_read", &rd), ACL_SUCCESS);
  float *out = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&out, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  struct {
    float *out;
    uint64_t n;
  } ra = {out, 64};
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(rd, 2, s, NULL, &ra, sizeof ra, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  float res[64];
  CHECK_INT_EQ(aclrtMemcpy(res, sizeof res, out, sizeof res, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(res[5] == 45.0f && res[63] == 567.0f);
  /* read back, with an offset, synchronously and on a stream */
  uint32_t back[4] = {0};
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, 8, 4 * 10, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 30);
  CHECK_INT_EQ(back[1], 33);
  uint32_t seven[2] = {7, 8};
  CHECK_INT_EQ(aclrtMemcpyToSymbolAsync(table, seven, 8, 248, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyFromSymbolAsync(back, table, 8, 248, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 7);
  CHECK_INT_EQ(back[1], 8);
  /* device memory on the other side: device-to-device */
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(out, table, 16, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyToSymbolAsync(table, out, 16, 16, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, 16, 16, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 0);
  CHECK_INT_EQ(back[3], 9);
  /* sizes out of range, kinds that do not match, bad kinds, NULL, zero */
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, 8, 252, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "256-byte global");
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, 4, SIZE_MAX, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, 300, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, 8, 0, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, 8, 0, (aclrtMemcpyKind)9), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(NULL, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, NULL, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(NULL, table, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyFromSymbolAsync(back, NULL, 8, 0, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, host, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyToSymbol(host, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_INVALID_SYMBOL);
  CHECK_INT_EQ(aclrtMemcpyToSymbolAsync(table, host, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE, (aclrtStream)host),
               ACL_ERROR_RT_INVALID_HANDLE);
  /* an asynchronous copy keeps the binary loaded until it has run */
  CHECK_INT_EQ(aclrtMemcpyToSymbolAsync(table, out, 16, 0, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_INVALID_SYMBOL);
  CHECK_INT_EQ(aclrtFree(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(function_sizes_and_parameter_descriptions) {
  rt_up();
  aclrtBinHandle bin = load();
  aclrtFuncHandle add = NULL, rd = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "sym_add", &add), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "sym_read", &rd), ACL_SUCCESS);
  size_t aic = 0, aiv = 99, n = 0, off = 0, sz = 0;
  CHECK_INT_EQ(aclrtGetFunctionSize(add, &aic, &aiv), ACL_SUCCESS);
  CHECK(aic > 0 && aic < 65536);
  CHECK_INT_EQ(aiv, 0);
  CHECK_INT_EQ(aclrtGetFunctionSize(add, NULL, &aiv), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetFunctionSize((aclrtFuncHandle)bin, &aic, &aiv), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtFunctionGetParamCount(add, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 3);
  CHECK_INT_EQ(aclrtFunctionGetParamInfo(add, 0, &off, &sz), ACL_SUCCESS);
  CHECK_INT_EQ(off, 0);
  CHECK_INT_EQ(sz, 4);
  CHECK_INT_EQ(aclrtFunctionGetParamInfo(add, 1, &off, &sz), ACL_SUCCESS);
  CHECK_INT_EQ(off, 8);
  CHECK_INT_EQ(sz, 8);
  CHECK_INT_EQ(aclrtFunctionGetParamInfo(add, 2, &off, &sz), ACL_SUCCESS);
  CHECK_INT_EQ(off, 16);
  CHECK_INT_EQ(sz, 1);
  CHECK_INT_EQ(aclrtFunctionGetParamInfo(add, 3, &off, &sz), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFunctionGetParamInfo(add, 0, NULL, &sz), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFunctionGetParamCount(add, NULL), ACL_ERROR_INVALID_PARAM);
  /* a kernel without a description says so */
  CHECK_INT_EQ(aclrtFunctionGetParamCount(rd, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "OPENACL_KERNEL_PARAMS(sym_read");
  void *none[1] = {NULL};
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(rd, 1, NULL, NULL, none), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  /* launch by argument array: sym_table[i] += add + tag */
  void *table = NULL;
  CHECK_INT_EQ(aclrtBinaryGetGlobal(bin, "sym_table", &table, &sz), ACL_SUCCESS);
  uint32_t zero[64] = {0}, back[64];
  CHECK_INT_EQ(aclrtMemcpyToSymbol(table, zero, sizeof zero, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  uint32_t a = 5;
  uint64_t tag = 100;
  uint8_t fail = 0;
  void *args[3] = {&a, &tag, &fail};
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 4, s, NULL, args), ACL_SUCCESS);
  a = 1000; /* the values were copied at the call */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyFromSymbol(back, table, sizeof back, 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 105);
  CHECK_INT_EQ(back[63], 105);
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 0, s, NULL, args), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 1, s, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  void *holes[3] = {&a, NULL, &fail};
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 1, s, NULL, holes), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFunctionGetParamCount(add, &n), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
  CHECK_INT_EQ(aclrtFunctionGetParamCount(add, &n), ACL_ERROR_UNINITIALIZE);
}

static atomic_int bin_calls;
static atomic_uint bin_code;
static void *bin_seen_user;
static aclrtFuncHandle bin_seen_func;

static void bin_cb(aclrtExceptionInfo *info, void *user) {
  bin_seen_user = user;
  atomic_store(&bin_code, aclrtGetErrorCodeFromExceptionInfo(info));
  aclrtFuncHandle f = NULL;
  if (aclrtGetFuncHandleFromExceptionInfo(info, &f) == ACL_SUCCESS)
    bin_seen_func = f;
  atomic_fetch_add(&bin_calls, 1);
}

TEST(a_failing_kernel_calls_its_binarys_exception_callback) {
  rt_up();
  aclrtBinHandle bin = load();
  aclrtFuncHandle add = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "sym_add", &add), ACL_SUCCESS);
  int user = 0;
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback(bin, bin_cb, &user), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback(NULL, bin_cb, &user), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback(bin, NULL, &user), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback((aclrtBinHandle)&user, bin_cb, &user), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t a = 1;
  uint64_t tag = 0;
  uint8_t fail = 0;
  void *args[3] = {&a, &tag, &fail};
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 2, s, NULL, args), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&bin_calls), 0); /* success: not called */
  fail = 1;
  CHECK_INT_EQ(aclrtLaunchKernelWithArgsArray(add, 2, s, NULL, args), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_INT_EQ(atomic_load(&bin_calls), 1); /* once per failing task */
  CHECK_INT_EQ(atomic_load(&bin_code), ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK(bin_seen_user == &user);
  CHECK(bin_seen_func == add);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback(bin, bin_cb, &user), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
  CHECK_INT_EQ(aclrtBinarySetExceptionCallback(bin, bin_cb, &user), ACL_ERROR_UNINITIALIZE);
}

TEST(cache_descriptors_and_barriers_are_stream_tasks) {
  rt_up();
  size_t dsz = 0;
  CHECK_INT_EQ(aclrtCmoGetDescSize(&dsz), ACL_SUCCESS);
  CHECK(dsz >= 16);
  void *desc = NULL, *mem = NULL;
  CHECK_INT_EQ(aclrtMalloc(&desc, dsz, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&mem, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  /* a descriptor never set fails the stream when its task runs */
  CHECK_INT_EQ(aclrtMemset(desc, dsz, 0, dsz), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCmoSetDesc(desc, mem, 4096), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_WRITEBACK, s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoSetDesc(desc, mem, 4097), ACL_ERROR_RT_PARAM_INVALID);
  char host[64];
  CHECK_INT_EQ(aclrtCmoSetDesc(host, mem, 16), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCmoSetDesc(desc, host, 16), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCmoSetDesc(desc, mem, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoSetDesc(NULL, mem, 16), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithDesc(desc, (aclrtCmoType)4, s, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, host), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithDesc(host, ACL_RT_CMO_TYPE_PREFETCH, s, NULL), ACL_ERROR_RT_PARAM_INVALID);
  /* barriers: operations then a wait, in stream order */
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(mem, 4096, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(mem, 1024, ACL_RT_CMO_TYPE_FLUSH, 2, NULL), ACL_SUCCESS);
  aclrtBarrierTaskInfo bi;
  memset(&bi, 0, sizeof bi);
  bi.barrierNum = 1;
  bi.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
  bi.cmoInfo[0].barrierId = 1;
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, s, 1), ACL_ERROR_INVALID_PARAM);
  bi.barrierNum = 0;
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, s, 0), ACL_ERROR_INVALID_PARAM);
  bi.barrierNum = ACL_RT_CMO_MAX_BARRIER_NUM + 1;
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, s, 0), ACL_ERROR_INVALID_PARAM);
  bi.barrierNum = 1;
  bi.cmoInfo[0].cmoType = (aclrtCmoType)7;
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, s, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoWaitBarrier(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(mem, 8192, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(mem, 0, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(NULL, 16, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsyncWithBarrier(host, 16, ACL_RT_CMO_TYPE_INVALID, 1, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCmoGetDescSize(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(mem), ACL_SUCCESS);
  rt_down();
  CHECK_INT_EQ(aclrtCmoGetDescSize(&dsz), ACL_ERROR_UNINITIALIZE);
  bi.cmoInfo[0].cmoType = ACL_RT_CMO_TYPE_INVALID;
  CHECK_INT_EQ(aclrtCmoWaitBarrier(&bi, NULL, 0), ACL_ERROR_UNINITIALIZE);
}
