/*
 * misuse_memory.c - the misuse matrix of the memory families of rt-breadth
 * §5 (api/misuse_memory/...): registered host memory, managed memory,
 * batches, descriptors, pointer-held copies, cache operations and the
 * memory queries.  The same harness as misuse.c: each case sets up state
 * through the public API, performs ONE misuse and checks that
 *   (a) the call returns the documented code (docs/memory.md),
 *   (b) aclGetRecentErrMsg() names the API ("<api> failed"),
 *   (c) the process does not crash: each case runs in its own forked child,
 *       set up inside the child, with an alarm against hangs,
 *   (d) the runtime still works afterwards (a copy, a host function, a
 *       synchronisation, a clean aclFinalize).
 * Stale handles (streams destroyed, of another context) and calls without
 * a context or before aclInit are crossed with every stream-taking call.
 * One ctest entry per area; MISUSE_CASE=<substring> picks cases by name.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#define MiB ((size_t)1 << 20)

#include "misuse_check.h"

/* (d): the runtime still works. */
static int alive(void) {
  OK(aclrtSetDevice(0));
  aclrtStream s = NULL;
  OK(aclrtCreateStream(&s));
  void *d = NULL;
  OK(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  unsigned char h[256], back[256];
  memset(h, 0x5a, sizeof(h));
  memset(back, 0, sizeof(back));
  OK(aclrtMemcpyAsync(d, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
  atomic_int flag = 0;
  OK(aclrtLaunchHostFunc(s, set_flag, &flag));
  OK(aclrtSynchronizeStream(s));
  if (atomic_load(&flag) != 1)
    return 1;
  OK(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  if (memcmp(h, back, sizeof(h)) != 0)
    return 1;
  OK(aclrtFree(d));
  OK(aclrtDestroyStream(s));
  OK(aclrtResetDevice(0));
  return 0;
}

static int up(void) {
  OK(aclInit(NULL));
  OK(aclrtSetDevice(0));
  return 0;
}

/* Ends a case that set device 0 once. */
static int done(void) {
  OK(aclrtResetDevice(0));
  return finish();
}

/* ---- registered host memory --------------------------------------------------- */

static char page_buf[3 * 4096] __attribute__((aligned(4096)));

static int rg_null_ptr(void) {
  if (up()) return 1;
  void *d = NULL;
  MISUSE(aclrtHostRegister(NULL, 4096, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_INVALID_PARAM, "aclrtHostRegister");
  return done();
}
static int rg_null_devptr(void) {
  if (up()) return 1;
  MISUSE(aclrtHostRegister(page_buf, 4096, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtHostRegister");
  return done();
}
static int rg_zero_size(void) {
  if (up()) return 1;
  MISUSE(aclrtHostRegisterV2(page_buf, 0, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM, "aclrtHostRegisterV2");
  return done();
}
static int rg_bad_type(void) {
  if (up()) return 1;
  void *d = NULL;
  MISUSE(aclrtHostRegister(page_buf, 4096, (aclrtHostRegisterType)0x77, &d), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "aclrtHostRegister");
  return done();
}
static int rg_unaligned(void) {
  if (up()) return 1;
  void *d = NULL;
  MISUSE(aclrtHostRegister(page_buf + 1, 4096, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtHostRegister");
  return done();
}
static int rg_flag_zero(void) {
  if (up()) return 1;
  MISUSE(aclrtHostRegisterV2(page_buf, 4096, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2");
  return done();
}
static int rg_flag_unknown(void) {
  if (up()) return 1;
  MISUSE(aclrtHostRegisterV2(page_buf, 4096, 0x1), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2");
  return done();
}
static int rg_flag_readonly(void) {
  if (up()) return 1;
  MISUSE(aclrtHostRegisterV2(page_buf, 4096, ACL_HOST_REG_READONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "aclrtHostRegisterV2");
  return done();
}
static int rg_twice(void) {
  if (up()) return 1;
  OK(aclrtHostRegisterV2(page_buf, 8192, ACL_HOST_REG_MAPPED));
  MISUSE(aclrtHostRegisterV2(page_buf + 4096, 8192, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
         "aclrtHostRegisterV2");
  OK(aclrtHostUnregister(page_buf));
  return done();
}
static int rg_device_memory(void) {
  if (up()) return 1;
  void *d = NULL;
  OK(aclrtMalloc(&d, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtHostRegisterV2(d, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2");
  OK(aclrtFree(d));
  return done();
}
static int rg_managed_memory(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtHostRegisterV2(m, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegisterV2");
  OK(aclrtFree(m));
  return done();
}
static int rg_pinned_with_pinned(void) {
  if (up()) return 1;
  void *p = NULL;
  OK(aclrtMallocHost(&p, 4096));
  MISUSE(aclrtHostRegisterV2(p, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
         "aclrtHostRegisterV2");
  OK(aclrtFreeHost(p));
  return done();
}
static int rg_unregister_unknown(void) {
  if (up()) return 1;
  MISUSE(aclrtHostUnregister(page_buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
  return done();
}
static int rg_unregister_twice(void) {
  if (up()) return 1;
  OK(aclrtHostRegisterV2(page_buf, 4096, ACL_HOST_REG_MAPPED));
  OK(aclrtHostUnregister(page_buf));
  MISUSE(aclrtHostUnregister(page_buf), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
  return done();
}
static int rg_unregister_device_address(void) {
  if (up()) return 1;
  void *d = NULL;
  OK(aclrtHostRegister(page_buf, 4096, ACL_HOST_REGISTER_MAPPED, &d));
  MISUSE(aclrtHostUnregister(d), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "aclrtHostUnregister");
  OK(aclrtHostUnregister(page_buf));
  return done();
}
static int rg_unregister_null(void) {
  if (up()) return 1;
  MISUSE(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM, "aclrtHostUnregister");
  return done();
}
static int rg_devptr_flag(void) {
  if (up()) return 1;
  void *d = NULL;
  OK(aclrtHostRegisterV2(page_buf, 4096, ACL_HOST_REG_MAPPED));
  MISUSE(aclrtHostGetDevicePointer(page_buf, &d, 2), ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer");
  OK(aclrtHostUnregister(page_buf));
  return done();
}
static int rg_devptr_unregistered(void) {
  if (up()) return 1;
  void *d = NULL;
  MISUSE(aclrtHostGetDevicePointer(page_buf, &d, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
         "aclrtHostGetDevicePointer");
  return done();
}
static int rg_devptr_null(void) {
  if (up()) return 1;
  MISUSE(aclrtHostGetDevicePointer(page_buf, NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtHostGetDevicePointer");
  return done();
}
static int rg_copy_device_address(void) {
  if (up()) return 1;
  void *d = NULL, *dev = NULL;
  OK(aclrtHostRegister(page_buf, 4096, ACL_HOST_REGISTER_MAPPED, &d));
  OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtMemcpy(dev, 64, d, 64, ACL_MEMCPY_DEFAULT), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  OK(aclrtFree(dev));
  OK(aclrtHostUnregister(page_buf));
  return done();
}
static int rg_no_context(void) {
  OK(aclInit(NULL));
  MISUSE(aclrtHostRegisterV2(page_buf, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_CONTEXT_NULL, "aclrtHostRegisterV2");
  return finish();
}
static int rg_before_init(void) {
  MISUSE(aclrtHostRegisterV2(page_buf, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_UNINITIALIZE, "aclrtHostRegisterV2");
  return finish_init();
}
static int rg_caps_null(void) {
  if (up()) return 1;
  MISUSE(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtHostMemMapCapabilities");
  return done();
}
static int rg_caps_bad_device(void) {
  if (up()) return 1;
  aclrtHostMemMapCapability c;
  MISUSE(aclrtHostMemMapCapabilities(99, ACL_RT_HAC_TYPE_AIC, &c), ACL_ERROR_RT_INVALID_DEVICEID,
         "aclrtHostMemMapCapabilities");
  return done();
}

/* ---- managed memory ------------------------------------------------------------------- */

static const aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};

static int mg_null(void) {
  if (up()) return 1;
  MISUSE(aclrtMemAllocManaged(NULL, MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM, "aclrtMemAllocManaged");
  return done();
}
static int mg_zero(void) {
  if (up()) return 1;
  void *m = NULL;
  MISUSE(aclrtMemAllocManaged(&m, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM, "aclrtMemAllocManaged");
  return done();
}
static int mg_flag(void) {
  if (up()) return 1;
  void *m = NULL;
  MISUSE(aclrtMemAllocManaged(&m, MiB, 2), ACL_ERROR_INVALID_PARAM, "aclrtMemAllocManaged");
  return done();
}
static int mg_too_large(void) {
  if (up()) return 1;
  void *m = NULL;
  MISUSE(aclrtMemAllocManaged(&m, (uint64_t)4 << 40, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_MEMORY_ALLOCATION,
         "aclrtMemAllocManaged");
  return done();
}
static int mg_no_context(void) {
  OK(aclInit(NULL));
  void *m = NULL;
  MISUSE(aclrtMemAllocManaged(&m, MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemAllocManaged");
  return finish();
}
static int mg_free_interior(void) {
  if (up()) return 1;
  char *m = NULL;
  OK(aclrtMemAllocManaged((void **)&m, MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtFree(m + 64), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  OK(aclrtFree(m));
  return done();
}
static int mg_advise_unaligned(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 4 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtMemManagedAdvise(m, MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMemManagedAdvise");
  OK(aclrtFree(m));
  return done();
}
static int mg_advise_host_memory(void) {
  if (up()) return 1;
  static char h[4 * MiB];
  MISUSE(aclrtMemManagedAdvise(h, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMemManagedAdvise");
  return done();
}
static int mg_advise_bad_kind(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtMemManagedAdvise(m, 2 * MiB, (aclrtMemManagedAdviseType)99, dev0), ACL_ERROR_INVALID_PARAM,
         "aclrtMemManagedAdvise");
  OK(aclrtFree(m));
  return done();
}
static int mg_advise_bad_device(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  aclrtMemManagedLocation l = {ACL_MEM_LOCATIONTYPE_DEVICE, 42};
  MISUSE(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, l), ACL_ERROR_RT_INVALID_DEVICEID,
         "aclrtMemManagedAdvise");
  OK(aclrtFree(m));
  return done();
}
static int mg_advise_freed(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  OK(aclrtFree(m));
  MISUSE(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMemManagedAdvise");
  return done();
}
static int mg_prefetch_flags(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtMemManagedPrefetchAsync(m, 2 * MiB, dev0, 3, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtMemManagedPrefetchAsync");
  OK(aclrtFree(m));
  return done();
}
static int mg_prefetch_destroyed_stream(void) {
  if (up()) return 1;
  void *m = NULL;
  aclrtStream s = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  OK(aclrtCreateStream(&s));
  OK(aclrtDestroyStream(s));
  MISUSE(aclrtMemManagedPrefetchAsync(m, 2 * MiB, dev0, 0, s), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtMemManagedPrefetchAsync");
  OK(aclrtFree(m));
  return done();
}
static int mg_getattr_size(void) {
  if (up()) return 1;
  void *m = NULL;
  int64_t v = 0;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 2 * MiB, &v, 8),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtMemManagedGetAttr");
  OK(aclrtFree(m));
  return done();
}
static int mg_getattr_bad_attr(void) {
  if (up()) return 1;
  void *m = NULL;
  int32_t v = 0;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  MISUSE(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)9, m, 2 * MiB, &v, 4), ACL_ERROR_INVALID_PARAM,
         "aclrtMemManagedGetAttr");
  OK(aclrtFree(m));
  return done();
}
static int mg_getattrs_null_data(void) {
  if (up()) return 1;
  void *m = NULL;
  OK(aclrtMemAllocManaged(&m, 2 * MiB, ACL_RT_MEM_ATTACH_GLOBAL));
  aclrtMemManagedRangeAttribute a = ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY;
  void *data[1] = {NULL};
  size_t sz[1] = {4};
  MISUSE(aclrtMemManagedGetAttrs(&a, 1, m, 2 * MiB, data, sz), ACL_ERROR_INVALID_PARAM, "aclrtMemManagedGetAttrs");
  OK(aclrtFree(m));
  return done();
}

/* ---- copies --------------------------------------------------------------------------- */

static int bt_fail_index_null(void) {
  if (up()) return 1;
  char h[8];
  void *d = NULL;
  OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  void *dsts[1] = {d}, *srcs[1] = {h};
  size_t sz[1] = {8}, mx[1] = {8}, idx[1] = {0};
  aclrtMemcpyBatchAttr at;
  memset(&at, 0, sizeof(at));
  at.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  at.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  MISUSE(aclrtMemcpyBatch(dsts, mx, srcs, sz, 1, &at, idx, 1, NULL), ACL_ERROR_INVALID_PARAM, "aclrtMemcpyBatch");
  OK(aclrtFree(d));
  return done();
}
static int bt_too_many(void) {
  if (up()) return 1;
  enum { N = 4097 };
  static void *dsts[N], *srcs[N];
  static size_t sz[N], mx[N];
  static char h[N];
  void *d = NULL;
  OK(aclrtMalloc(&d, N, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < N; i++) {
    dsts[i] = (char *)d + i;
    srcs[i] = h + i;
    sz[i] = mx[i] = 1;
  }
  size_t idx[1] = {0}, fail = 0;
  aclrtMemcpyBatchAttr at;
  memset(&at, 0, sizeof(at));
  at.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  at.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  MISUSE(aclrtMemcpyBatchAsync(dsts, mx, srcs, sz, N, &at, idx, 1, &fail, NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMemcpyBatchAsync");
  OK(aclrtFree(d));
  return done();
}
static int bt_host_to_host(void) {
  if (up()) return 1;
  char a[8], b[8];
  void *dsts[1] = {a}, *srcs[1] = {b};
  size_t sz[1] = {8}, mx[1] = {8}, idx[1] = {0};
  aclrtMemcpyBatchAttr at;
  memset(&at, 0, sizeof(at));
  at.dstLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  at.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  MISUSE(aclrtMemcpyBatchV2(dsts, mx, srcs, sz, 1, &at, idx, 1), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyBatchV2");
  return done();
}
static int bt_other_context_stream(void) {
  if (up()) return 1;
  aclrtContext other = NULL, mine = NULL;
  aclrtStream s = NULL;
  OK(aclrtGetCurrentContext(&mine));
  OK(aclrtCreateContext(&other, 0));
  OK(aclrtCreateStream(&s));
  OK(aclrtSetCurrentContext(mine));
  char h[8];
  void *d = NULL;
  OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  void *dsts[1] = {d}, *srcs[1] = {h};
  size_t sz[1] = {8}, mx[1] = {8}, idx[1] = {0};
  aclrtMemcpyBatchAttr at;
  memset(&at, 0, sizeof(at));
  at.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  at.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  MISUSE(aclrtMemcpyBatchAsyncV2(dsts, mx, srcs, sz, 1, &at, idx, 1, s), ACL_ERROR_RT_STREAM_CONTEXT,
         "aclrtMemcpyBatchAsyncV2");
  OK(aclrtFree(d));
  OK(aclrtSetCurrentContext(other));
  OK(aclrtDestroyStream(s));
  OK(aclrtDestroyContext(other));
  OK(aclrtSetCurrentContext(mine));
  return done();
}
static int cd_inter_kind(void) {
  if (up()) return 1;
  char h[8], b[8];
  MISUSE(aclrtMemcpyAsyncWithCondition(h, 8, b, 8, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtMemcpyAsyncWithCondition");
  return done();
}
static int cd_kind_range(void) {
  if (up()) return 1;
  char h[8];
  void *d = NULL;
  OK(aclrtMalloc(&d, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtMemcpyAsyncWithCondition(d, 8, h, 8, (aclrtMemcpyKind)42, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtMemcpyAsyncWithCondition");
  OK(aclrtFree(d));
  return done();
}
static int ds_size_null(void) {
  if (up()) return 1;
  MISUSE(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtGetMemcpyDescSize");
  return done();
}
static int ds_host_desc(void) {
  if (up()) return 1;
  static char hdesc[128];
  void *a = NULL;
  OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtSetMemcpyDesc(hdesc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, a, 8, NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSetMemcpyDesc");
  OK(aclrtFree(a));
  return done();
}
static int ds_config(void) {
  if (up()) return 1;
  void *a = NULL;
  int cfg = 0;
  OK(aclrtMalloc(&a, 128, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtSetMemcpyDesc(a, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, a, a, 8, &cfg), ACL_ERROR_INVALID_PARAM,
         "aclrtSetMemcpyDesc");
  OK(aclrtFree(a));
  return done();
}
static int ds_freed_desc(void) {
  if (up()) return 1;
  void *a = NULL;
  OK(aclrtMalloc(&a, 128, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtFree(a));
  MISUSE(aclrtMemcpyAsyncWithDesc(a, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMemcpyAsyncWithDesc");
  return done();
}
static int ds_destroyed_stream(void) {
  if (up()) return 1;
  void *a = NULL;
  aclrtStream s = NULL;
  OK(aclrtMalloc(&a, 128, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtCreateStream(&s));
  OK(aclrtDestroyStream(s));
  MISUSE(aclrtMemcpyAsyncWithDesc(a, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtMemcpyAsyncWithDesc");
  OK(aclrtFree(a));
  return done();
}
static int of_host_slots(void) {
  if (up()) return 1;
  void *a = NULL;
  OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  void *slot_d = a;
  const void *slot_s = a;
  MISUSE(aclrtMemcpyAsyncWithOffset(&slot_d, 8, 0, &slot_s, 8, 0, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsyncWithOffset");
  OK(aclrtFree(a));
  return done();
}
static int of_other_device_slots(void) {
  if (up()) return 1;
  void *slots = NULL;
  OK(aclrtMalloc(&slots, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetDevice(1));
  MISUSE(aclrtMemcpyAsyncWithOffset((void **)slots, 8, 0, (const void **)((char *)slots + 8), 8, 0,
                                    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsyncWithOffset");
  OK(aclrtResetDevice(1));
  OK(aclrtSetDevice(0));
  OK(aclrtFree(slots));
  OK(aclrtResetDevice(0));
  return done();
}
static int cm_writeback(void) {
  if (up()) return 1;
  void *a = NULL;
  OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtCmoAsync(a, 64, ACL_RT_CMO_TYPE_INVALID, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsync");
  OK(aclrtFree(a));
  return done();
}
static int cm_freed(void) {
  if (up()) return 1;
  void *a = NULL;
  OK(aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtFree(a));
  MISUSE(aclrtCmoAsync(a, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoAsync");
  return done();
}
static int cm_no_context(void) {
  OK(aclInit(NULL));
  char h[8];
  MISUSE(aclrtCmoAsync(h, 8, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCmoAsync");
  return finish();
}

/* ---- queries ---------------------------------------------------------------------------- */

static int qy_check_reserve(void) {
  if (up()) return 1;
  void *l[1] = {page_buf};
  uint32_t r = 0;
  MISUSE(aclrtCheckMemType(l, 1, ACL_RT_MEM_TYPE_DEV, &r, 5), ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType");
  return done();
}
static int qy_check_null_result(void) {
  if (up()) return 1;
  void *l[1] = {page_buf};
  MISUSE(aclrtCheckMemType(l, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCheckMemType");
  return done();
}
static int qy_check_before_init(void) {
  void *l[1] = {page_buf};
  uint32_t r = 0;
  MISUSE(aclrtCheckMemType(l, 1, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_UNINITIALIZE, "aclrtCheckMemType");
  return finish_init();
}
static int qy_usage_bad_device(void) {
  if (up()) return 1;
  aclrtMemUsageInfo i[2];
  size_t n = 0;
  MISUSE(aclrtGetMemUsageInfo(-1, i, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetMemUsageInfo");
  return done();
}
static int qy_usage_null_count(void) {
  if (up()) return 1;
  aclrtMemUsageInfo i[2];
  MISUSE(aclrtGetMemUsageInfo(0, i, 2, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetMemUsageInfo");
  return done();
}
static int qy_free_sync_host(void) {
  if (up()) return 1;
  MISUSE(aclrtFreeWithDevSync(page_buf), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeWithDevSync");
  return done();
}

/* ==== the table and the runner ================================================= */

typedef struct mcase {
  const char *group;
  const char *name;
  int (*fn)(void);
} mcase;

#define C(group, fn) {group, #fn, fn}
static const mcase cases[] = {
    C("register", rg_null_ptr), C("register", rg_null_devptr), C("register", rg_zero_size),
    C("register", rg_bad_type), C("register", rg_unaligned), C("register", rg_flag_zero),
    C("register", rg_flag_unknown), C("register", rg_flag_readonly), C("register", rg_twice),
    C("register", rg_device_memory), C("register", rg_managed_memory), C("register", rg_pinned_with_pinned),
    C("register", rg_unregister_unknown), C("register", rg_unregister_twice),
    C("register", rg_unregister_device_address), C("register", rg_unregister_null), C("register", rg_devptr_flag),
    C("register", rg_devptr_unregistered), C("register", rg_devptr_null), C("register", rg_copy_device_address),
    C("register", rg_no_context), C("register", rg_before_init), C("register", rg_caps_null),
    C("register", rg_caps_bad_device),
    C("managed", mg_null), C("managed", mg_zero), C("managed", mg_flag), C("managed", mg_too_large),
    C("managed", mg_no_context), C("managed", mg_free_interior), C("managed", mg_advise_unaligned),
    C("managed", mg_advise_host_memory), C("managed", mg_advise_bad_kind), C("managed", mg_advise_bad_device),
    C("managed", mg_advise_freed), C("managed", mg_prefetch_flags), C("managed", mg_prefetch_destroyed_stream),
    C("managed", mg_getattr_size), C("managed", mg_getattr_bad_attr), C("managed", mg_getattrs_null_data),
    C("copies", bt_fail_index_null), C("copies", bt_too_many), C("copies", bt_host_to_host),
    C("copies", bt_other_context_stream), C("copies", cd_inter_kind), C("copies", cd_kind_range),
    C("copies", ds_size_null), C("copies", ds_host_desc), C("copies", ds_config), C("copies", ds_freed_desc),
    C("copies", ds_destroyed_stream), C("copies", of_host_slots), C("copies", of_other_device_slots),
    C("copies", cm_writeback), C("copies", cm_freed), C("copies", cm_no_context),
    C("queries", qy_check_reserve), C("queries", qy_check_null_result), C("queries", qy_check_before_init),
    C("queries", qy_usage_bad_device), C("queries", qy_usage_null_count), C("queries", qy_free_sync_host),
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static int run_case_body(const void *p) {
  const mcase *c = p;
  return c->fn();
}

/* Runs one case in a forked child; 1 when it passed. */
static int run_case(const mcase *c) {
  return misuse_in_child("misuse_memory", c->group, c->name, run_case_body, c);
}

static void run_group(const char *group) {
  /* Before any thread exists: the children inherit these. */
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  setenv("OPENACL_DEVICE_MEMORY", "64M", 1);
  const char *only = getenv("MISUSE_CASE");
  int ran = 0, failed = 0;
  for (size_t i = 0; i < N_CASES; i++) {
    if (strcmp(cases[i].group, group) != 0)
      continue;
    if (only != NULL && *only != '\0' && strstr(cases[i].name, only) == NULL)
      continue;
    ran++;
    failed += !run_case(&cases[i]);
  }
  printf("misuse_memory/%s: %d cases, %d passed, %d failed\n", group, ran, ran - failed, failed);
  fflush(stdout);
  if (failed != 0)
    th_fail(__FILE__, __LINE__, "%d of %d misuse cases failed", failed, ran);
}

TEST(registration) { run_group("register"); }
TEST(managed) { run_group("managed"); }
TEST(copies) { run_group("copies"); }
TEST(queries) { run_group("queries"); }
