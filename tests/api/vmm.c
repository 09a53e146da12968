/*
 * vmm.c - virtual memory management in one process (api/vmm/...,
 * docs/processes.md "Virtual memory and shareable handles";
 * ipc-vmm-graphs-tdt §4): the canonical flow (reserve, allocate physical
 * memory, map, grant access, use it with copies, fills and a kernel, unmap,
 * free, release), every error code of the reference's table, the
 * granularities, the canonical memAttr read back from a handle, retain and
 * free balance with the deferred release, address ranges, the capacity
 * charged and given back, mappings without access refused by copies until
 * aclrtMemSetAccess, adjacent mappings, host code trapped, device reset
 * with virtual memory left.  vmm.cmake runs every test under the default
 * protection mechanism and under alias and off.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "model_helpers.h"

#ifndef OPENACL_MEMORY_KERNELS
#error "OPENACL_MEMORY_KERNELS must name the memory test kernels"
#endif

#define MiB ((size_t)1 << 20)

static void up(void) {
  setenv("OPENACL_DEVICE_MEMORY", "256M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void down(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static aclrtPhysicalMemProp prop_of(aclrtMemAttr attr, aclrtMemLocationType type, uint32_t id) {
  aclrtPhysicalMemProp p;
  memset(&p, 0, sizeof(p));
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.memAttr = attr;
  p.location.type = type;
  p.location.id = id;
  return p;
}

static aclrtMemAccessDesc rw_device(uint32_t id) {
  aclrtMemAccessDesc d;
  memset(&d, 0, sizeof(d));
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = id;
  return d;
}

static size_t free_bytes(void) {
  size_t f = 0, t = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
  return f;
}

static unsigned long long dev_sum(const void *p, size_t n) {
  unsigned char *h = malloc(n);
  CHECK_NOT_NULL(h);
  CHECK_INT_EQ(aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  free(h);
  return s;
}

/* A mapped, accessible range of `size` bytes: reservation *va, handle *h. */
static void map_rw(size_t size, void **va, aclrtDrvMemHandle *h) {
  aclrtPhysicalMemProp prop = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  CHECK_INT_EQ(aclrtMallocPhysical(h, size, &prop, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(va, size, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(*va, size, 0, *h, 0), ACL_SUCCESS);
}

static void unmap_free(void *va, aclrtDrvMemHandle h) {
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
}

struct scale_args {
  const float *in;
  float *out;
  uint64_t n;
};

/* The vendor's flow (example 7's process A, then B's copy back). */
TEST(canonical_flow) {
  up();
  aclrtPhysicalMemProp prop = prop_of(ACL_HBM_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  size_t g = 0;
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g), ACL_SUCCESS);
  CHECK_INT_EQ(g, 2 * MiB);
  size_t size = (4096 + g - 1) / g * g;
  aclrtDrvMemHandle h = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, size, &prop, 0), ACL_SUCCESS);
  CHECK_NOT_NULL(h);
  void *va = NULL;
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 2 * g, 0, NULL, 0), ACL_SUCCESS);
  CHECK_NOT_NULL(va);
  CHECK_INT_EQ((uintptr_t)va % g, 0);
  CHECK_INT_EQ(aclrtMapMem(va, size, 0, h, 0), ACL_SUCCESS);
  aclrtMemAccessDesc d = rw_device(0);
  CHECK_INT_EQ(aclrtMemSetAccess(va, size, &d, 1), ACL_SUCCESS);
  /* copies both ways, a fill, an asynchronous copy */
  int32_t v = 123, back = 0;
  CHECK_INT_EQ(aclrtMemcpy(va, size, &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(&back, sizeof(back), va, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(back, 123);
  CHECK_INT_EQ(aclrtMemset((char *)va + 4096, size - 4096, 2, size - 4096), ACL_SUCCESS);
  CHECK(dev_sum((char *)va + 4096, size - 4096) == 2ull * (size - 4096));
  void *dm = NULL;
  CHECK_INT_EQ(aclrtMalloc(&dm, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(dm, size, va, size, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK(dev_sum((char *)dm + 4096, 4096) == 2ull * 4096);
  CHECK_INT_EQ(aclrtMemsetAsync(va, size, 5, 4096, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(dm, size, va, 4096, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK(dev_sum(dm, 4096) == 5ull * 4096);
  /* device memory of device 0 everywhere */
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes((char *)va + 100, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  CHECK_INT_EQ(at.location.id, 0);
  CHECK_INT_EQ(at.pageSize, 2 * MiB);
  CHECK_INT_EQ(aclrtMemcpy(&back, sizeof(back), va, sizeof(back), ACL_MEMCPY_HOST_TO_DEVICE),
               ACL_ERROR_RT_PARAM_INVALID);
  /* a kernel reads and writes it through its arguments */
  const uint64_t n = 1024;
  float hin[1024], hout[1024];
  for (uint64_t i = 0; i < n; i++)
    hin[i] = (float)i;
  CHECK_INT_EQ(aclrtMemcpy(va, size, hin, sizeof(hin), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(OPENACL_MEMORY_KERNELS, NULL, &bin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, "mk_scale", &f), ACL_SUCCESS);
  struct scale_args a = {(const float *)va, (float *)((char *)va + MiB), n};
  CHECK_INT_EQ(aclrtLaunchKernelWithHostArgs(f, 4, NULL, NULL, &a, sizeof(a), NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(hout, sizeof(hout), (char *)va + MiB, sizeof(hout), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint64_t i = 0; i < n; i++)
    if (hout[i] != hin[i] * 2.0f + 1.0f)
      th_fail(__FILE__, __LINE__, "out[%llu] is %g", (unsigned long long)i, (double)hout[i]);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  /* the canonical end */
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  /* unmapped: reserved but unusable, with a message that says what is missing */
  CHECK_INT_EQ(aclrtMemcpy(va, size, &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  const char *msg = aclGetRecentErrMsg(); /* read once: reading clears it */
  CHECK_STR_HAS(msg, "aclrtMemcpy failed");
  CHECK_STR_HAS(msg, "aclrtReserveMemAddress");
  CHECK_STR_HAS(msg, "aclrtMapMem");
  CHECK_INT_EQ(aclrtMemset(va, size, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(va, size, &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(dm), ACL_SUCCESS);
  down();
}

/* Every row of the reference's table: which layer refuses what. */
TEST(error_codes) {
  up();
  void *va = NULL, *q = NULL;
  aclrtDrvMemHandle h = NULL;
  aclrtPhysicalMemProp prop = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  /* aclrtReserveMemAddress */
  CHECK_INT_EQ(aclrtReserveMemAddress(NULL, 4096, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 4096, 0, NULL, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 4096, 0, (void *)((uintptr_t)16 << 40), 0),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 4096, 3, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 4096, 0, NULL, 1), ACL_SUCCESS); /* 1: legacy, accepted */
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 8 * MiB, 0, NULL, 0), ACL_SUCCESS);
  /* aclrtReleaseMemAddress */
  CHECK_INT_EQ(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtReleaseMemAddress((char *)va + 4096), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReleaseMemAddress(&q), ACL_ERROR_RT_PARAM_INVALID);
  /* aclrtMallocPhysical */
  CHECK_INT_EQ(aclrtMallocPhysical(NULL, 4096, &prop, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &prop, 1), ACL_ERROR_INVALID_PARAM);
  aclrtPhysicalMemProp bad = prop;
  bad.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  bad = prop;
  bad.allocationType = (aclrtMemAllocationType)1;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  bad = prop;
  bad.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  bad.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  const aclrtMemAttr ddr[] = {ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL};
  for (size_t i = 0; i < sizeof(ddr) / sizeof(ddr[0]); i++) {
    bad = prop_of(ddr[i], ACL_MEM_LOCATION_TYPE_DEVICE, 0); /* DDR is host memory */
    CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  }
  const aclrtMemAttr unsupported[] = {
      ACL_DDR_MEM, ACL_HBM_MEM, ACL_HBM_MEM_P2P_HUGE, ACL_HBM_MEM_P2P_NORMAL, ACL_HBM_MEM_P2P_HUGE1G, (aclrtMemAttr)18};
  for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
    bad = prop_of(unsupported[i], ACL_MEM_LOCATION_TYPE_DEVICE, 0);
    CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_INVALID_PARAM);
  }
  bad = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 99);
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &bad, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &prop, 0), ACL_SUCCESS);
  /* aclrtMapMem / aclrtMemMapNoAccess */
  CHECK_INT_EQ(aclrtMapMem(NULL, 4096, 0, h, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMapMem(va, 4096, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMapMem(va, 0, 0, h, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMapMem(va, 4096, 0, h, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemMapNoAccess(va, 4096, 0, h, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMapMem(va, 4096, 4096, h, 0), ACL_ERROR_RT_PARAM_INVALID);            /* offset */
  CHECK_INT_EQ(aclrtMapMem(va, 8192, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);               /* not its size */
  CHECK_INT_EQ(aclrtMapMem(&q, 4096, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);               /* no reservation */
  CHECK_INT_EQ(aclrtMapMem((char *)va + 100, 4096, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* unaligned */
  CHECK_INT_EQ(aclrtMapMem((char *)va + 8 * MiB - 4096, 4096, 0, (void *)&q, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMapMem((char *)va + 8 * MiB - 4096, 4096, 0, h, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem((char *)va + 8 * MiB - 4096, 4096, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* overlap */
  /* aclrtUnmapMem */
  CHECK_INT_EQ(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);                          /* nothing mapped there */
  CHECK_INT_EQ(aclrtUnmapMem((char *)va + 8 * MiB - 2048), ACL_ERROR_RT_PARAM_INVALID); /* not its start */
  /* aclrtReleaseMemAddress with a mapping left */
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtUnmapMem");
  /* aclrtMemSetAccess: the runtime layer checks everything */
  void *m = (char *)va + 8 * MiB - 4096;
  aclrtMemAccessDesc d = rw_device(0);
  CHECK_INT_EQ(aclrtMemSetAccess(NULL, 4096, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetAccess(m, 0, &d, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &d, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetAccess(m, 8192, &d, 1), ACL_ERROR_RT_PARAM_INVALID);  /* not the mapping's size */
  CHECK_INT_EQ(aclrtMemSetAccess(va, 4096, &d, 1), ACL_ERROR_RT_PARAM_INVALID); /* nothing mapped */
  aclrtMemAccessDesc bd = d;
  bd.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &bd, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  bd.flags = (aclrtMemAccessFlags)7;
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &bd, 1), ACL_ERROR_RT_PARAM_INVALID);
  bd = d;
  bd.rsv[3] = 1;
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &bd, 1), ACL_ERROR_RT_PARAM_INVALID);
  bd = d;
  bd.location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &bd, 1), ACL_ERROR_RT_PARAM_INVALID);
  bd = d;
  bd.location.id = 77;
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &bd, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetAccess(m, 4096, &d, 1), ACL_SUCCESS);
  /* aclrtMemGetAccess */
  aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
  uint64_t fl = 0;
  CHECK_INT_EQ(aclrtMemGetAccess(NULL, &loc, &fl), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAccess(m, NULL, &fl), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAccess(m, &loc, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAccess(va, &loc, &fl), ACL_ERROR_RT_PARAM_INVALID); /* nothing mapped */
  CHECK_INT_EQ(aclrtMemGetAccess(m, &loc, &fl), ACL_SUCCESS);
  CHECK_INT_EQ(fl, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  /* aclrtMemGetAllocationGranularity */
  size_t g = 0;
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g),
               ACL_ERROR_INVALID_PARAM);
  bad = prop_of(ACL_HBM_MEM, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
               ACL_ERROR_INVALID_PARAM);
  bad = prop_of(ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
               ACL_ERROR_INVALID_PARAM);
  bad = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_MANAGED, 0);
  CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&bad, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
               ACL_ERROR_INVALID_PARAM);
  /* aclrtMemRetainAllocationHandle */
  aclrtDrvMemHandle r = NULL;
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle(NULL, &r), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle(m, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle(va, &r), ACL_ERROR_RT_PARAM_INVALID);
  /* aclrtMemGetAllocationPropertiesFromHandle */
  aclrtPhysicalMemProp out;
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(NULL, &out), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle((void *)&q, &out), ACL_ERROR_RT_PARAM_INVALID);
  /* aclrtMemGetAddressRange */
  void *base = NULL;
  size_t sz = 0;
  CHECK_INT_EQ(aclrtMemGetAddressRange(NULL, &base, &sz), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemGetAddressRange(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
  /* shareable handles */
  uint64_t sh = 0;
  aclrtMemFabricHandle fab;
  memset(&fab, 0, sizeof(fab));
  int32_t pid = (int32_t)getpid();
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(NULL, ACL_MEM_HANDLE_TYPE_NONE, 0, &sh), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_POSIX, 0, &sh), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 2, &sh), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(NULL, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(h, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(h, 0, (aclrtMemSharedHandleType)3, &sh), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(h, 2, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(h, 1, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fab),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "A3");
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(1, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(1, 99, &r), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(0x1234567890abcdefull, 0, &r), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &r),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, NULL),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 1, &r),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&sh, (aclrtMemSharedHandleType)0, 0, &r),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&fab, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &r),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(1, NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(1, &pid, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(0x1234567890abcdefull, &pid, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(NULL, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, NULL, 1),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 0),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(&sh, (aclrtMemSharedHandleType)5, &pid, 1),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(&fab, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &pid, 1),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  /* export once; import in the exporting process refused */
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &sh), ACL_SUCCESS);
  CHECK(sh != 0);
  uint64_t sh2 = 0;
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &sh2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemExportToShareableHandleV2(h, 1, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh2),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(sh, &pid, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(sh, 0, &r), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "exported by this process");
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &r),
               ACL_ERROR_RT_PARAM_INVALID);
  /* aclrtFreePhysical */
  CHECK_INT_EQ(aclrtFreePhysical(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFreePhysical((void *)&q), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtUnmapMem(m), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID);                         /* freed already */
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(sh, &pid, 1), ACL_ERROR_RT_PARAM_INVALID); /* its memory is gone */
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);
  down();
}

/* The granularity of every kind (openacl's choice, docs/processes.md). */
TEST(granularity) {
  up();
  long pg = sysconf(_SC_PAGESIZE);
  size_t normal = pg > 4096 ? (size_t)pg : 4096;
  const struct {
    aclrtMemAttr attr;
    aclrtMemLocationType loc;
    size_t g;
  } t[] = {
      {ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, normal},
      {ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 2 * MiB},
      {ACL_MEM_HUGE1G, ACL_MEM_LOCATION_TYPE_DEVICE, 1024 * MiB},
      {ACL_HBM_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 2 * MiB},
      {ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 2 * MiB},
      {ACL_HBM_MEM_HUGE1G, ACL_MEM_LOCATION_TYPE_DEVICE, 1024 * MiB},
      {ACL_MEM_P2P_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, normal},
      {ACL_MEM_P2P_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 2 * MiB},
      {ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, normal},
      {ACL_DDR_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST, 2 * MiB},
      {ACL_DDR_MEM_P2P_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, normal},
      {ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST_NUMA, normal},
  };
  for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
    aclrtPhysicalMemProp p = prop_of(t[i].attr, t[i].loc, 0);
    size_t a = 0, b = 0;
    CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &a), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &b), ACL_SUCCESS);
    if (a != t[i].g || b != a)
      th_fail(__FILE__, __LINE__, "memAttr %d: granularity %zu / %zu, expected %zu", (int)t[i].attr, a, b, t[i].g);
  }
  /* sizes are rounded up to it: a 4096-byte ACL_MEM_HUGE allocation maps 2 MiB */
  aclrtPhysicalMemProp p = prop_of(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  aclrtDrvMemHandle h = NULL;
  void *va = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 4 * MiB, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(va, 4096, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMapMem((char *)va + 4096, 2 * MiB, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* unaligned */
  CHECK_INT_EQ(aclrtMapMem((char *)va + 2 * MiB, 2 * MiB, 0, h, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnmapMem((char *)va + 2 * MiB), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  down();
}

/* The memAttr read back is the vendor's canonical name of (pages, P2P, side). */
TEST(properties_canonical) {
  up();
  const struct {
    aclrtMemAttr in;
    aclrtMemLocationType loc;
    aclrtMemAttr out;
  } t[] = {
      {ACL_HBM_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_HBM_MEM_NORMAL},
      {ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_HBM_MEM_NORMAL},
      {ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_HBM_MEM_HUGE},
      {ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_HBM_MEM_HUGE},
      {ACL_MEM_P2P_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_P2P_NORMAL},
      {ACL_MEM_P2P_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_P2P_HUGE},
      {ACL_DDR_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_NORMAL},
      {ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_NORMAL},
      {ACL_DDR_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_HUGE},
      {ACL_DDR_MEM_P2P_NORMAL, ACL_MEM_LOCATION_TYPE_HOST, ACL_DDR_MEM_P2P_NORMAL},
      {ACL_DDR_MEM_P2P_HUGE, ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_P2P_HUGE},
      {ACL_MEM_P2P_NORMAL, ACL_MEM_LOCATION_TYPE_HOST_NUMA, ACL_DDR_MEM_P2P_NORMAL},
  };
  for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
    aclrtPhysicalMemProp p = prop_of(t[i].in, t[i].loc, 0);
    p.reserve = 0;
    aclrtDrvMemHandle h = NULL;
    CHECK_INT_EQ(aclrtMallocPhysical(&h, 4096, &p, 0), ACL_SUCCESS);
    aclrtPhysicalMemProp o;
    memset(&o, 0x5a, sizeof(o));
    CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &o), ACL_SUCCESS);
    CHECK_INT_EQ(o.handleType, ACL_MEM_HANDLE_TYPE_NONE);
    CHECK_INT_EQ(o.allocationType, ACL_MEM_ALLOCATION_TYPE_PINNED);
    CHECK_INT_EQ(o.location.type, t[i].loc);
    CHECK_INT_EQ(o.location.id, 0);
    CHECK_INT_EQ(o.reserve, 0);
    if (o.memAttr != t[i].out)
      th_fail(__FILE__, __LINE__, "memAttr %d (location %d) reads back as %d, expected %d", (int)t[i].in, (int)t[i].loc,
              (int)o.memAttr, (int)t[i].out);
    CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  }
  down();
}

/* Each retain needs a free; a free of a mapped handle waits for the unmap. */
TEST(retain_free_balance) {
  up();
  size_t f0 = free_bytes();
  void *va = NULL;
  aclrtDrvMemHandle h = NULL;
  map_rw(2 * MiB, &va, &h);
  CHECK_INT_EQ(f0 - free_bytes(), 2 * MiB);
  aclrtDrvMemHandle r1 = NULL, r2 = NULL;
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle(va, &r1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle((char *)va + 12345, &r2), ACL_SUCCESS); /* any address inside */
  CHECK(r1 == h && r2 == h);
  CHECK_INT_EQ(aclrtFreePhysical(r1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(r2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS); /* the last reference, still mapped: deferred */
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtUnmapMem");
  CHECK_INT_EQ(f0 - free_bytes(), 2 * MiB);                        /* still held */
  CHECK_INT_EQ(aclrtMemset(va, 2 * MiB, 7, 2 * MiB), ACL_SUCCESS); /* and usable */
  CHECK(dev_sum(va, 4096) == 7ull * 4096);
  aclrtDrvMemHandle r3 = NULL; /* a retain revives it */
  CHECK_INT_EQ(aclrtMemRetainAllocationHandle(va, &r3), ACL_SUCCESS);
  aclrtPhysicalMemProp o;
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(r3, &o), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(r3), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_SUCCESS); /* the release happens here */
  CHECK_INT_EQ(free_bytes(), f0);
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &o), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  down();
}

/* aclrtMemGetAddressRange of device, pinned and mapped memory. */
TEST(address_range) {
  up();
  void *dm = NULL, *hm = NULL, *base = NULL;
  size_t size = 0;
  CHECK_INT_EQ(aclrtMalloc(&dm, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)dm + 999, &base, &size), ACL_SUCCESS);
  CHECK(base == dm);
  CHECK_INT_EQ(size, 1000);
  CHECK_INT_EQ(aclrtMallocHost(&hm, 5000), ACL_SUCCESS);
  base = NULL;
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)hm + 10, &base, NULL), ACL_SUCCESS);
  CHECK(base == hm);
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)hm + 10, NULL, &size), ACL_SUCCESS);
  CHECK_INT_EQ(size, 5000);
  /* two adjacent mappings are two ranges */
  aclrtPhysicalMemProp p = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  aclrtDrvMemHandle h1 = NULL, h2 = NULL;
  void *va = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h1, 8192, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocPhysical(&h2, 4096, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 64 * 1024, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(va, 8192, 0, h1, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem((char *)va + 8192, 4096, 0, h2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)va + 8191, &base, &size), ACL_SUCCESS);
  CHECK(base == va);
  CHECK_INT_EQ(size, 8192);
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)va + 8192 + 5, &base, &size), ACL_SUCCESS);
  CHECK(base == (char *)va + 8192);
  CHECK_INT_EQ(size, 4096);
  /* but a copy may cross them; not into the hole after them */
  unsigned char buf[16384];
  memset(buf, 3, sizeof(buf));
  CHECK_INT_EQ(aclrtMemcpy((char *)va + 4096, 8192, buf, 8192, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK(dev_sum((char *)va + 4096, 8192) == 3ull * 8192);
  CHECK_INT_EQ(aclrtMemcpy(va, 16384, buf, 16384, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  /* reserved, nothing mapped; host memory; freed memory */
  CHECK_INT_EQ(aclrtMemGetAddressRange((char *)va + 20000, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemGetAddressRange(buf, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtUnmapMem((char *)va + 8192), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h2), ACL_SUCCESS);
  unmap_free(va, h1);
  CHECK_INT_EQ(aclrtFree(dm), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemGetAddressRange(dm, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFreeHost(hm), ACL_SUCCESS);
  down();
}

/* Physical memory is charged like aclrtMalloc; host memory and reservations are not. */
TEST(capacity) {
  setenv("OPENACL_DEVICE_MEMORY", "64M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  size_t f0 = free_bytes();
  aclrtPhysicalMemProp p = prop_of(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  aclrtDrvMemHandle h = NULL, hh = NULL, big = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 3 * MiB, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(f0 - free_bytes(), 4 * MiB); /* rounded up to 2 MiB pages */
  aclrtPhysicalMemProp hp = prop_of(ACL_MEM_HUGE, ACL_MEM_LOCATION_TYPE_HOST, 0);
  CHECK_INT_EQ(aclrtMallocPhysical(&hh, 8 * MiB, &hp, 0), ACL_SUCCESS);
  void *va = NULL;
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 32 * MiB, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(f0 - free_bytes(), 4 * MiB);
  CHECK_INT_EQ(aclrtMallocPhysical(&big, 62 * MiB, &p, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "out of memory");
  void *dm = NULL; /* aclrtMalloc sees the same capacity */
  CHECK_INT_EQ(aclrtMalloc(&dm, 61 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  CHECK_INT_EQ(aclrtMalloc(&dm, 59 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dm), ACL_SUCCESS);
  /* host physical memory maps into a device reservation too */
  CHECK_INT_EQ(aclrtMapMem(va, 8 * MiB, 0, hh, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem((char *)va + 8 * MiB, 4 * MiB, 0, h, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(va, 12 * MiB, 1, 12 * MiB), ACL_SUCCESS);
  CHECK(dev_sum((char *)va + 8 * MiB - 512, 1024) == 1024);
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnmapMem((char *)va + 8 * MiB), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(hh), ACL_SUCCESS);
  CHECK_INT_EQ(free_bytes(), f0);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  /* reservations take address space: twice the capacity at most */
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 256 * MiB, 0, NULL, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
  down();
}

/* A mapping without access is refused by copies until aclrtMemSetAccess. */
TEST(no_access_until_set_access) {
  up();
  aclrtPhysicalMemProp p = prop_of(ACL_HBM_MEM_HUGE, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  aclrtDrvMemHandle h = NULL;
  void *va = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, 2 * MiB, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va, 2 * MiB, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemMapNoAccess(va, 2 * MiB, 0, h, 0), ACL_SUCCESS);
  aclrtMemLocation dev0 = {0, ACL_MEM_LOCATION_TYPE_DEVICE}, host = {0, ACL_MEM_LOCATION_TYPE_HOST};
  uint64_t fl = 99;
  CHECK_INT_EQ(aclrtMemGetAccess(va, &dev0, &fl), ACL_SUCCESS);
  CHECK_INT_EQ(fl, ACL_RT_MEM_ACCESS_FLAGS_NONE);
  char buf[64] = {0};
  CHECK_INT_EQ(aclrtMemcpy(va, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMemSetAccess");
  CHECK_INT_EQ(aclrtMemcpy(buf, 64, va, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemset(va, 64, 1, 64), ACL_ERROR_RT_PARAM_INVALID);
  void *base = NULL;
  size_t sz = 0;
  CHECK_INT_EQ(aclrtMemGetAddressRange(va, &base, &sz), ACL_SUCCESS); /* mapped all the same */
  CHECK_INT_EQ(sz, 2 * MiB);
  aclrtMemAccessDesc d[2];
  d[0] = rw_device(0);
  d[1] = rw_device(0);
  d[1].location.type = ACL_MEM_LOCATION_TYPE_HOST;
  CHECK_INT_EQ(aclrtMemSetAccess(va, 2 * MiB, d, 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemGetAccess((char *)va + 100, &dev0, &fl), ACL_SUCCESS);
  CHECK_INT_EQ(fl, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  CHECK_INT_EQ(aclrtMemGetAccess(va, &host, &fl), ACL_SUCCESS);
  CHECK_INT_EQ(fl, ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
  memset(buf, 4, sizeof(buf));
  CHECK_INT_EQ(aclrtMemcpy(va, 64, buf, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK(dev_sum(va, 64) == 4ull * 64);
  unmap_free(va, h);
  down();
}

/* Host code that touches mapped memory is trapped like any device memory. */
static void touch(void *p) {
  volatile char *c = p;
  c[100] = 1;
  fprintf(stderr, "wrote without a fault\n");
}

TEST(host_access_traps) {
  const char *mode = getenv("OPENACL_MEMORY_PROTECTION");
  int traps = mode == NULL || strcmp(mode, "off") != 0;
  up();
  void *va = NULL;
  aclrtDrvMemHandle h = NULL;
  map_rw(64 * 1024, &va, &h);
  int fds[2];
  CHECK_INT_EQ(pipe(fds), 0);
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    touch(va);
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  size_t n = 0;
  ssize_t k;
  while (n + 1 < sizeof(buf) && (k = read(fds[0], buf + n, sizeof(buf) - 1 - n)) > 0)
    n += (size_t)k;
  buf[n] = '\0';
  close(fds[0]);
  int st = 0;
  CHECK_INT_EQ(waitpid(pid, &st, 0), pid);
  if (traps) {
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
    CHECK_STR_HAS(buf, "openacl: host code accessed device memory");
    CHECK_STR_HAS(buf, "aclrtReserveMemAddress");
  } else {
    CHECK(WIFEXITED(st));
    CHECK_STR_HAS(buf, "wrote without a fault");
  }
  unmap_free(va, h);
  down();
}

/* Mapped memory is no aclrtFree / IPC-key memory; aclrtCheckMemType says RSVD. */
/* A model reads its input, writes its output and keeps its weights and work
 * memory in mapped ranges: mapped memory is device memory for models too. */
TEST(model_in_mapped_memory) {
  up();
  const float bias[4] = {0.5f, 1.5f, -2.0f, 4.0f};
  tw_value x = {"X", 1, {4}, {NULL}}, y = {"Y", 1, {4}, {NULL}};
  size_t size = 0;
  uint8_t *onnx = tw_one_node("Add", &x, 1, &y, bias, "vmm test", &size);
  size_t work_size = 0, weight_size = 0;
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(onnx, size, &work_size, &weight_size), ACL_SUCCESS);
  void *va = NULL;
  aclrtDrvMemHandle h = NULL;
  map_rw(2 * MiB, &va, &h);
  /* one mapping, cut in four: input, output, weights, work */
  char *in = va, *out = in + 4096, *weight = out + 4096, *work = weight + 256 * 1024;
  CHECK(work_size + (size_t)(work - in) <= 2 * MiB && weight_size <= 256 * 1024);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(onnx, size, &id, work, work_size ? work_size : 1, weight,
                                        weight_size ? weight_size : 1),
               ACL_SUCCESS);
  float host_in[4], got[4];
  for (int i = 0; i < 4; i++)
    host_in[i] = tw_in_value(0, (size_t)i);
  CHECK_INT_EQ(aclrtMemcpy(in, sizeof(host_in), host_in, sizeof(host_in), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  aclDataBuffer *bi = aclCreateDataBuffer(in, sizeof(host_in)), *bo = aclCreateDataBuffer(out, sizeof(got));
  aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(di, bi), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(dout, bo), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(id, di, dout), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(got, sizeof(got), out, sizeof(got), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ((int)(got[i] * 2), (int)((host_in[i] + bias[i]) * 2));
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  aclmdlDestroyDataset(di);
  aclmdlDestroyDataset(dout);
  aclDestroyDataBuffer(bi);
  aclDestroyDataBuffer(bo);
  unmap_free(va, h);
  free(onnx);
  down();
}

TEST(other_apis) {
  up();
  void *va = NULL;
  aclrtDrvMemHandle h = NULL;
  map_rw(4096, &va, &h);
  CHECK_INT_EQ(aclrtFree(va), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtReleaseMemAddress");
  char key[128];
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(va, 4096, key, 65, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMemExportToShareableHandle");
  uint32_t res = 9;
  void *list[1] = {va};
  CHECK_INT_EQ(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_RSVD, &res, 0), ACL_SUCCESS);
  CHECK_INT_EQ(res, 1);
  CHECK_INT_EQ(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &res, 0), ACL_SUCCESS);
  CHECK_INT_EQ(res, 0);
  unmap_free(va, h);
  down();
}

/* A device reset with virtual memory left frees it all; the device works after. */
TEST(reset_with_mappings_left) {
  up();
  size_t f0 = free_bytes();
  void *va = NULL, *va2 = NULL;
  aclrtDrvMemHandle h = NULL, h2 = NULL;
  map_rw(2 * MiB, &va, &h);
  aclrtPhysicalMemProp p = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 0);
  CHECK_INT_EQ(aclrtMallocPhysical(&h2, 4096, &p, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&va2, 4096, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(free_bytes(), f0);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va2), ACL_ERROR_RT_PARAM_INVALID);
  map_rw(2 * MiB, &va, &h);
  CHECK_INT_EQ(aclrtMemset(va, 2 * MiB, 1, 2 * MiB), ACL_SUCCESS);
  unmap_free(va, h);
  down();
}

/* The private device (OPENACL_SHARED_DEVICE=0): virtual memory works, exports say why not. */
TEST(private_device) {
  setenv("OPENACL_SHARED_DEVICE", "0", 1);
  up();
  void *va = NULL;
  aclrtDrvMemHandle h = NULL;
  size_t f0 = free_bytes();
  map_rw(2 * MiB, &va, &h);
  CHECK_INT_EQ(f0 - free_bytes(), 2 * MiB);
  CHECK_INT_EQ(aclrtMemset(va, 2 * MiB, 9, 2 * MiB), ACL_SUCCESS);
  CHECK(dev_sum(va, 4096) == 9ull * 4096);
  uint64_t sh = 0;
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &sh), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  unmap_free(va, h);
  /* new physical memory reads as zeros */
  map_rw(2 * MiB, &va, &h);
  CHECK(dev_sum(va, 4096) == 0);
  unmap_free(va, h);
  CHECK_INT_EQ(free_bytes(), f0);
  down();
}

/* Two devices: physical memory of device 1 maps only into device 1's reservations. */
TEST(two_devices) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  up();
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtPhysicalMemProp p1 = prop_of(ACL_MEM_NORMAL, ACL_MEM_LOCATION_TYPE_DEVICE, 1);
  aclrtDrvMemHandle h1 = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h1, 4096, &p1, 0), ACL_SUCCESS);
  void *v0 = NULL, *v1 = NULL;
  CHECK_INT_EQ(aclrtReserveMemAddress(&v0, 4096, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(v0, 4096, 0, h1, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReserveMemAddress(&v1, 4096, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(v1, 4096, 0, h1, 0), ACL_SUCCESS);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(v1, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.id, 1);
  /* device 1's reset takes its reservation, mapping and memory */
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS); /* set twice */
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreePhysical(h1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReleaseMemAddress(v0), ACL_SUCCESS);
  down();
}
