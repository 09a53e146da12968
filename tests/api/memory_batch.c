/*
 * memory_batch.c - copies beyond aclrtMemcpy and the memory queries
 * (api/memory_batch/...): aclrtMemcpyBatch*, aclrtMemcpyAsyncWithCondition,
 * copy descriptors, aclrtMemcpyAsyncWithOffset, aclrtCmoAsync,
 * aclrtCheckMemType, aclrtGetMemUsageInfo, aclrtFreeWithDevSync, with two
 * devices where it matters.  Rules: docs/memory.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "harness.h"

static void up(int devices) {
  char n[8];
  snprintf(n, sizeof(n), "%d", devices);
  setenv("OPENACL_DEVICE_COUNT", n, 1);
  setenv("OPENACL_DEVICE_MEMORY", "128M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void down(int devices) {
  for (int i = devices - 1; i >= 0; i--)
    CHECK_INT_EQ(aclrtResetDevice(i), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void *dalloc(size_t n) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  return p;
}

static aclrtMemcpyBatchAttr h2d_attr(uint32_t dev) {
  aclrtMemcpyBatchAttr a;
  memset(&a, 0, sizeof(a));
  a.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  a.dstLoc.id = dev;
  a.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  return a;
}

static aclrtMemcpyBatchAttr d2h_attr(uint32_t dev) {
  aclrtMemcpyBatchAttr a;
  memset(&a, 0, sizeof(a));
  a.srcLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  a.srcLoc.id = dev;
  a.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  return a;
}

/* ---- batches ---------------------------------------------------------------------------- */

TEST(batch_copies_both_ways) {
  up(1);
  enum { K = 5, N = 1000 };
  unsigned char *h[K], *back[K];
  void *d[K];
  size_t sizes[K], maxs[K];
  for (int i = 0; i < K; i++) {
    h[i] = malloc(N);
    back[i] = malloc(N);
    memset(h[i], 'a' + i, N);
    d[i] = dalloc(N);
    sizes[i] = (size_t)(N - 100 * i);
    maxs[i] = N;
  }
  sizes[2] = 0; /* a copy of 0 bytes is skipped */
  aclrtMemcpyBatchAttr attr = h2d_attr(0);
  size_t idx = 0, fail = 7;
  CHECK_INT_EQ(aclrtMemcpyBatch(d, maxs, (void **)h, sizes, K, &attr, &idx, 1, &fail), ACL_SUCCESS);
  CHECK_INT_EQ(fail, SIZE_MAX);
  /* back, asynchronously on a stream, into pinned memory (V2) */
  unsigned char *pin = NULL;
  CHECK_INT_EQ(aclrtMallocHost((void **)&pin, K * N), ACL_SUCCESS);
  void *pins[K];
  for (int i = 0; i < K; i++)
    pins[i] = pin + i * N;
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  attr = d2h_attr(0);
  CHECK_INT_EQ(aclrtMemcpyBatchAsyncV2(pins, maxs, d, sizes, K, &attr, &idx, 1, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  for (int i = 0; i < K; i++)
    if (sizes[i] > 0)
      CHECK(memcmp(pins[i], h[i], sizes[i]) == 0);
  /* pageable destinations: done when the call returns */
  CHECK_INT_EQ(aclrtMemcpyBatchAsync((void **)back, maxs, d, sizes, K, &attr, &idx, 1, &fail, s), ACL_SUCCESS);
  for (int i = 0; i < K; i++)
    if (sizes[i] > 0)
      CHECK(memcmp(back[i], h[i], sizes[i]) == 0);
  CHECK_INT_EQ(aclrtMemcpyBatchV2((void **)back, maxs, d, sizes, K, &attr, &idx, 1), ACL_SUCCESS);
  /* every size 0: nothing to do, even with NULL arrays */
  size_t zeros[2] = {0, 0};
  CHECK_INT_EQ(aclrtMemcpyBatch(NULL, NULL, NULL, zeros, 2, NULL, NULL, 0, &fail), ACL_SUCCESS);
  CHECK_INT_EQ(fail, SIZE_MAX);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  for (int i = 0; i < K; i++) {
    CHECK_INT_EQ(aclrtFree(d[i]), ACL_SUCCESS);
    free(h[i]);
    free(back[i]);
  }
  down(1);
}

TEST(batch_errors) {
  up(2);
  char h0[64], h1[64];
  void *d0 = dalloc(64);
  void *dsts[2] = {d0, d0}, *srcs[2] = {h0, h1};
  size_t sizes[2] = {64, 32}, maxs[2] = {64, 64}, idx[2] = {0, 1}, fail = 0;
  aclrtMemcpyBatchAttr at[2] = {h2d_attr(0), h2d_attr(0)};
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, NULL, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, NULL, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  size_t small[2] = {64, 16};
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, small, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  at[1].rsv[3] = 1;
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMemcpyBatch failed");
  at[1].rsv[3] = 0;
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 0, &fail), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 3, &fail), ACL_ERROR_RT_PARAM_INVALID);
  size_t bad_idx[2] = {1, 1};
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, bad_idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(fail, SIZE_MAX);
  /* a mixed direction: failIndex names the first copy of the attribute */
  at[1] = d2h_attr(0);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(fail, 1);
  /* a copy whose pointers contradict its attribute */
  at[1] = h2d_attr(0);
  srcs[1] = d0;
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(fail, 1);
  srcs[1] = h1;
  /* the attribute names device 1, the memory is device 0's */
  at[0] = h2d_attr(1);
  CHECK_INT_EQ(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(fail, 0);
  CHECK_INT_EQ(aclrtFree(d0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  down(2);
}

/* ---- conditional copies, descriptors, pointer-held copies ---------------------------------- */

TEST(memcpy_async_with_condition) {
  up(1);
  char h[256], back[256];
  memset(h, 5, sizeof(h));
  void *d = dalloc(256);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(d, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST, NULL), ACL_SUCCESS);
  CHECK(memcmp(h, back, 256) == 0); /* pageable: done on return */
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(d, 256, d, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(d, 256, d, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(back, 256, h, 8, ACL_MEMCPY_HOST_TO_HOST, NULL),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithCondition(NULL, 256, h, 8, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMemcpyAsyncWithCondition failed");
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  down(1);
}

TEST(copy_descriptors) {
  up(1);
  size_t ds = 0;
  CHECK_INT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &ds), ACL_SUCCESS);
  CHECK(ds >= 32);
  CHECK_INT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &ds), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
  char h[512], back[512];
  for (int i = 0; i < 512; i++)
    h[i] = (char)i;
  void *a = dalloc(512), *b = dalloc(512), *desc = dalloc(ds);
  CHECK_INT_EQ(aclrtMemcpy(a, 512, h, 512, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 300, NULL), ACL_SUCCESS);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(b, 512, 0, 512, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, 512, b, 512, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(back, h, 300) == 0);
  CHECK_INT_EQ(back[300], 0);
  /* the descriptor is read when the copy runs: rewritten, it copies the new range */
  CHECK_INT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, (char *)a + 300, (char *)b + 300, 212, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, 512, b, 512, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(back, h, 512) == 0);
  /* errors at the call */
  CHECK_INT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 600, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 8, h), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetMemcpyDesc(h, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetMemcpyDesc failed");
  CHECK_INT_EQ(aclrtMemcpyAsyncWithDesc(h, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
  /* a descriptor that was never set fails the stream when it runs */
  void *blank = dalloc(ds);
  CHECK_INT_EQ(aclrtMemset(blank, ds, 0, ds), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithDesc(blank, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "descriptor not set");
  /* nor does a freed source */
  CHECK_INT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, b, 8, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(blank), ACL_SUCCESS);
  down(1);
}

TEST(memcpy_async_with_offset) {
  up(1);
  char h[256], back[256];
  for (int i = 0; i < 256; i++)
    h[i] = (char)(255 - i);
  void *a = dalloc(256), *b = dalloc(256), *slots = dalloc(2 * sizeof(void *));
  CHECK_INT_EQ(aclrtMemcpy(a, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(b, 256, 0, 256), ACL_SUCCESS);
  void *addrs[2] = {b, a}; /* slot 0: destination, slot 1: source */
  CHECK_INT_EQ(aclrtMemcpy(slots, sizeof(addrs), addrs, sizeof(addrs), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  void **dslot = (void **)slots;
  const void **sslot = (const void **)((char *)slots + sizeof(void *));
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset(dslot, 100, 16, sslot, 100, 32, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, 256, b, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(back + 16, h + 32, 100) == 0);
  CHECK_INT_EQ(back[15], 0);
  CHECK_INT_EQ(back[116], 0);
  /* call-time errors */
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset(dslot, 10, 0, sslot, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset(NULL, 100, 0, sslot, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset((void **)addrs, 100, 0, sslot, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMemcpyAsyncWithOffset failed");
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset(dslot, 100, 0, sslot, 100, 0, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
               ACL_ERROR_RT_PARAM_INVALID);
  /* run-time: the offset takes the destination past its allocation */
  CHECK_INT_EQ(aclrtMemcpyAsyncWithOffset(dslot, 100, 200, sslot, 100, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(slots), ACL_SUCCESS);
  down(1);
}

TEST(cmo_prefetch_only) {
  up(2);
  void *d = dalloc(4096);
  CHECK_INT_EQ(aclrtCmoAsync(d, 4096, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoAsync(d, 4096, ACL_RT_CMO_TYPE_WRITEBACK, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtCmoAsync(d, 4096, ACL_RT_CMO_TYPE_FLUSH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtCmoAsync(d, 4096, (aclrtCmoType)4, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsync(NULL, 4096, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsync(d, 0, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCmoAsync(d, 8192, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_PARAM_INVALID);
  char h[16];
  CHECK_INT_EQ(aclrtCmoAsync(h, 16, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtCmoAsync failed");
  /* memory of another device than the stream's */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCmoAsync(d, 4096, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  down(2);
}

/* ---- queries ---------------------------------------------------------------------------- */

TEST(check_mem_type) {
  up(2);
  void *d0 = dalloc(64);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void *d1 = dalloc(64);
  char h[8];
  void *list[3] = {d0, (char *)d1 + 10, NULL};
  uint32_t r = 7;
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(r, 1);
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(r, 1);
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP, &r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(r, 0);
  list[2] = h;
  CHECK_INT_EQ(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(r, 0);
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCheckMemType(NULL, 2, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, 0x1, &r, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtCheckMemType failed");
  CHECK_INT_EQ(aclrtFree(d1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_SUCCESS);
  CHECK_INT_EQ(r, 0); /* freed */
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d0), ACL_SUCCESS);
  down(2);
}

TEST(mem_usage_info) {
  up(1);
  aclrtMemUsageInfo info[4];
  size_t n = 9;
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, info, 4, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 0);
  void *a = dalloc(1000), *b = NULL, *c = NULL;
  aclrtMallocAttribute attr;
  memset(&attr, 0, sizeof(attr));
  attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attr.value.moduleId = 7;
  aclrtMallocConfig cfg = {&attr, 1};
  CHECK_INT_EQ(aclrtMallocWithCfg(&b, 5000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocWithCfg(&c, 3000, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, info, 4, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  /* largest current use first; the vendor's sizing (round up to 32, + 32) */
  CHECK_STR_EQ(info[0].name, "module 7");
  CHECK_INT_EQ(info[0].curMemSize, (5024 + 32) + (3008 + 32));
  CHECK_STR_EQ(info[1].name, "APP");
  CHECK_INT_EQ(info[1].curMemSize, 1024 + 32);
  CHECK_INT_EQ(aclrtFree(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(c), ACL_SUCCESS);
  /* module 7 now uses nothing: the application comes first; peaks stay */
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, info, 1, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  CHECK_STR_EQ(info[0].name, "APP");
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, info, 4, &n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(info[1].curMemSize, 0);
  CHECK_INT_EQ(info[1].memPeakSize, (5024 + 32) + (3008 + 32));
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, NULL, 4, &n), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetMemUsageInfo(0, info, 0, &n), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetMemUsageInfo(5, info, 4, &n), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtGetMemUsageInfo failed");
  CHECK_INT_EQ(aclrtFree(a), ACL_SUCCESS);
  down(1);
}

static void slow_fn(void *arg) {
  struct timespec ts = {0, 50 * 1000000L};
  nanosleep(&ts, NULL);
  *(volatile int *)arg = 1;
}

TEST(free_with_dev_sync_waits_for_the_memory_s_device) {
  up(2);
  void *d0 = dalloc(64);
  int done = 0;
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, slow_fn, &done), ACL_SUCCESS);
  /* from device 1's context: the free still waits for device 0 */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeWithDevSync(d0), ACL_SUCCESS);
  CHECK_INT_EQ(done, 1);
  CHECK_INT_EQ(aclrtFreeWithDevSync(d0), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_INT_EQ(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  down(2);
}
