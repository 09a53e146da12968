/*
 * memory_host.c - memory host and device share (api/memory_host/...):
 * registered host memory (aclrtHostRegister, aclrtHostRegisterV2,
 * aclrtHostGetDevicePointer, aclrtHostUnregister,
 * aclrtHostMemMapCapabilities) and managed memory (aclrtMemAllocManaged,
 * aclrtMemManagedAdvise, aclrtMemManagedPrefetchAsync,
 * aclrtMemManagedGetAttr[s]), pointer attributes of both.  Rules:
 * docs/memory.md.  (Kernels through registered memory: memory_protection.c.)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#define MiB ((size_t)1 << 20)

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

/* The last failure's message names the API. */
static void msg_names(const char *api) {
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, api);
}

/* ---- registration --------------------------------------------------------------------- */

TEST(register_and_copy_like_pinned_memory) {
  up(1);
  enum { N = 1 << 20 };
  unsigned char *h = NULL, *back = malloc(N);
  CHECK_INT_EQ(posix_memalign((void **)&h, 4096, N), 0);
  for (int i = 0; i < N; i++)
    h[i] = (unsigned char)(i * 13);
  CHECK_INT_EQ(aclrtHostRegisterV2(h, N, ACL_HOST_REG_PINNED), ACL_SUCCESS);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(h + 10, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  /* pinned only: no device-side address */
  void *d = NULL;
  CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &d, 0), ACL_ERROR_RT_PARAM_INVALID);
  msg_names("aclrtHostGetDevicePointer");
  /* an asynchronous copy from it is queued, not done on return */
  void *dev = NULL;
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(dev, N, h, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(h, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK(memcmp(back, h, N) == 0);
  /* bounds are those of the registration */
  CHECK_INT_EQ(aclrtMemcpyAsync(dev, N, h + 1, N, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "registered host range");
  CHECK_INT_EQ(aclrtHostUnregister(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostUnregister(h), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  msg_names("aclrtHostUnregister");
  CHECK_INT_EQ(aclrtPointerGetAttributes(h, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  CHECK_INT_EQ(aclrtFree(dev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  free(h);
  free(back);
  down(1);
}

/* The vendor's sample: aclrtMallocHost, register MAPPED, device pointer. */
TEST(mapped_pinned_memory_has_a_device_address) {
  up(1);
  void *h = NULL, *d = NULL, *d2 = NULL, *inner = NULL;
  CHECK_INT_EQ(aclrtMallocHost(&h, 3 * 4096), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 3 * 4096, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &d, 0), ACL_SUCCESS);
  CHECK(d != NULL && d != h);
  CHECK_INT_EQ(aclrtHostGetDevicePointer((char *)h + 5000, &inner, 0), ACL_SUCCESS);
  CHECK((char *)inner == (char *)d + 5000);
  /* the device address is for device code: copies refuse it */
  char buf[16];
  CHECK_INT_EQ(aclrtMemcpy(buf, 16, d, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "device-side address of registered host memory");
  /* V1: the same for page-aligned memory */
  void *h2 = NULL;
  CHECK_INT_EQ(posix_memalign(&h2, 4096, 8192), 0);
  CHECK_INT_EQ(aclrtHostRegister(h2, 8192, ACL_HOST_REGISTER_MAPPED, &d2), ACL_SUCCESS);
  CHECK(d2 != NULL && d2 != h2 && d2 != d);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(d2, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  CHECK_INT_EQ(aclrtHostUnregister(h2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostUnregister(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
  free(h2);
  down(1);
}

TEST(registration_errors) {
  up(1);
  void *h = NULL, *d = NULL, *dev = NULL;
  CHECK_INT_EQ(posix_memalign(&h, 4096, 16384), 0);
  CHECK_INT_EQ(aclrtHostRegister(NULL, 4096, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostRegister(h, 0, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostRegister(h, 4096, ACL_HOST_REGISTER_MAPPED, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostRegister(h, 4096, ACL_HOST_REGISTER_IOMEMORY, &d), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtHostRegister(h, 4096, ACL_HOST_REGISTER_READONLY, &d), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtHostRegister((char *)h + 8, 4096, ACL_HOST_REGISTER_MAPPED, &d), ACL_ERROR_RT_PARAM_INVALID);
  msg_names("aclrtHostRegister");
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 4096, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 4096, 0x40), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 4096, ACL_HOST_REG_IOMEMORY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtHostRegisterV2(NULL, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_INVALID_PARAM);
  /* V2 takes any alignment; an overlap is refused */
  CHECK_INT_EQ(aclrtHostRegisterV2((char *)h + 8, 100, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostGetDevicePointer((char *)h + 8, &d, 0), ACL_SUCCESS);
  CHECK_INT_EQ((uintptr_t)d % 4096, 8); /* the offset in the page carries over */
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  msg_names("aclrtHostRegisterV2");
  CHECK_INT_EQ(aclrtHostUnregister((char *)h + 9), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not its start");
  CHECK_INT_EQ(aclrtHostUnregister(d), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK_INT_EQ(aclrtHostUnregister((char *)h + 8), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &d, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &d, 0), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK_INT_EQ(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
  /* device memory, and pinned memory with PINNED, are not for registering */
  CHECK_INT_EQ(aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostRegisterV2(dev, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "device memory");
  void *pin = NULL;
  CHECK_INT_EQ(aclrtMallocHost(&pin, 4096), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostRegisterV2(pin, 4096, ACL_HOST_REG_PINNED), ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  /* unmapped memory */
  long page = sysconf(_SC_PAGESIZE);
  CHECK_INT_EQ(aclrtHostRegisterV2((void *)(uintptr_t)page, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not all mapped");
  /* freeing pinned memory drops its registrations */
  CHECK_INT_EQ(aclrtHostRegisterV2(pin, 4096, ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtHostUnregister(pin), ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK_INT_EQ(aclrtFree(dev), ACL_SUCCESS);
  free(h);
  down(1);
}

TEST(registration_needs_a_context) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  void *h = NULL;
  CHECK_INT_EQ(posix_memalign(&h, 4096, 4096), 0);
  CHECK_INT_EQ(aclrtHostRegisterV2(h, 4096, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_CONTEXT_NULL);
  free(h);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(map_capabilities) {
  up(1);
  aclrtHostMemMapCapability c = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &c), ACL_SUCCESS);
  CHECK_INT_EQ(c, ACL_RT_HOST_MEM_MAP_SUPPORTED);
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_SDMA, &c), ACL_SUCCESS);
  CHECK_INT_EQ(c, ACL_RT_HOST_MEM_MAP_SUPPORTED);
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_RDMA, &c), ACL_SUCCESS);
  CHECK_INT_EQ(c, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED);
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(0, (aclrtHacType)10, &c), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtHostMemMapCapabilities(7, ACL_RT_HAC_TYPE_AIC, &c), ACL_ERROR_RT_INVALID_DEVICEID);
  msg_names("aclrtHostMemMapCapabilities");
  down(1);
}

static void *register_loop(void *arg) {
  (void)arg;
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  for (int i = 0; i < 300; i++) {
    void *h = NULL, *d = NULL;
    CHECK_INT_EQ(posix_memalign(&h, 4096, 4096 * (1 + i % 4)), 0);
    CHECK_INT_EQ(aclrtHostRegister(h, 4096 * (1 + i % 4), ACL_HOST_REGISTER_MAPPED, &d), ACL_SUCCESS);
    void *again = NULL;
    CHECK_INT_EQ(aclrtHostGetDevicePointer(h, &again, 0), ACL_SUCCESS);
    CHECK(again == d);
    CHECK_INT_EQ(aclrtHostUnregister(h), ACL_SUCCESS);
    free(h);
  }
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  return NULL;
}

TEST(threads_register_concurrently) {
  up(1);
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, register_loop, NULL), 0);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  down(1);
}

/* ---- managed memory ---------------------------------------------------------------------- */

static int32_t attr_int(aclrtMemManagedRangeAttribute a, const void *p, size_t size) {
  int32_t v = 12345;
  CHECK_INT_EQ(aclrtMemManagedGetAttr(a, p, size, &v, sizeof(v)), ACL_SUCCESS);
  return v;
}

TEST(managed_memory_is_shared_by_host_and_device) {
  up(1);
  char *m = NULL;
  CHECK_INT_EQ(aclrtMemAllocManaged((void **)&m, 3 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ((uintptr_t)m % (2 * MiB), 0);
  /* host code uses it directly; copies see it as device memory */
  memset(m, 7, 3 * MiB);
  char back[64];
  CHECK_INT_EQ(aclrtMemcpy(back, 64, m + 100, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(back[0], 7);
  CHECK_INT_EQ(aclrtMemset(m, 4 * MiB, 9, 4 * MiB), ACL_SUCCESS); /* rounded up to 4 MiB: usable */
  CHECK_INT_EQ(m[4 * MiB - 1], 9);
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(d, 64, m, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(m, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(m + 5, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  CHECK_INT_EQ(at.location.id, 0);
  CHECK_INT_EQ(at.pageSize, 2 * MiB);
  /* aclrtFree frees it; an interior pointer is refused */
  CHECK_INT_EQ(aclrtFree(m + 1), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "managed allocation");
  CHECK_INT_EQ(aclrtFree(m), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(m), ACL_ERROR_RT_MEMORY_FREE);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  down(1);
}

TEST(managed_advice_and_attributes) {
  up(2);
  char *m = NULL;
  CHECK_INT_EQ(aclrtMemAllocManaged((void **)&m, 8 * MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  aclrtMemManagedLocation dev1 = {ACL_MEM_LOCATIONTYPE_DEVICE, 1}, host = {ACL_MEM_LOCATIONTYPE_HOST, 0};
  aclrtMemManagedLocation none = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8 * MiB), 0);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8 * MiB), -2);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 4 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, none), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4 * MiB), 1);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8 * MiB), 0); /* half of it */
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 8 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, dev1), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8 * MiB), 1);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 8 * MiB), ACL_MEM_LOCATIONTYPE_DEVICE);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, m, 8 * MiB), 1);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m + 6 * MiB, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m + 6 * MiB, 2 * MiB), -1);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8 * MiB), -2); /* mixed */
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, 8 * MiB), ACL_MEM_LOCATIONTYPE_INVALID);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 8 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, dev1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, host), ACL_SUCCESS);
  int32_t acc[4];
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MiB, acc, sizeof(acc)), ACL_SUCCESS);
  CHECK_INT_EQ(acc[0], 1);
  CHECK_INT_EQ(acc[1], -1);
  CHECK_INT_EQ(acc[2], -2);
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 8 * MiB, acc, sizeof(acc)), ACL_SUCCESS);
  CHECK_INT_EQ(acc[0], 1);
  CHECK_INT_EQ(acc[1], -2);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 8 * MiB, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, dev1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 8 * MiB, acc, sizeof(acc)), ACL_SUCCESS);
  CHECK_INT_EQ(acc[0], -2);
  /* prefetch: recorded when the stream runs it */
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MiB), -2);
  CHECK_INT_EQ(aclrtMemManagedPrefetchAsync(m, 2 * MiB, dev1, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, 2 * MiB), 1);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, 2 * MiB), ACL_MEM_LOCATIONTYPE_DEVICE);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, m + MiB, 1), 1);
  /* several at once */
  aclrtMemManagedRangeAttribute as[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                         ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID};
  int32_t v0 = 0, v1 = 0;
  void *data[2] = {&v0, &v1};
  size_t sizes[2] = {4, 4};
  CHECK_INT_EQ(aclrtMemManagedGetAttrs(as, 2, m, 2 * MiB, data, sizes), ACL_SUCCESS);
  CHECK_INT_EQ(v0, 1);
  CHECK_INT_EQ(v1, 1);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 4 * MiB, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, none), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MiB), 0);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 8 * MiB, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, none), ACL_SUCCESS);
  CHECK_INT_EQ(attr_int(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, 8 * MiB), -2);
  CHECK_INT_EQ(aclrtFree(m), ACL_SUCCESS);
  down(1);
}

TEST(managed_errors) {
  up(1);
  void *m = NULL, *d = NULL;
  aclrtMemManagedLocation dev0 = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  CHECK_INT_EQ(aclrtMemAllocManaged(NULL, MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemAllocManaged(&m, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemAllocManaged(&m, MiB, 0), ACL_ERROR_INVALID_PARAM);
  msg_names("aclrtMemAllocManaged");
  CHECK_INT_EQ(aclrtMemAllocManaged(&m, MiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "multiple of 2 MiB");
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 4 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "past the end");
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 2 * MiB, (aclrtMemManagedAdviseType)6, dev0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemManagedAdvise(NULL, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_INVALID_PARAM);
  aclrtMemManagedLocation bad = {ACL_MEM_LOCATIONTYPE_DEVICE, 9};
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, bad),
               ACL_ERROR_RT_INVALID_DEVICEID);
  bad.type = (aclrtMemManagedLocationType)7;
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, bad), ACL_ERROR_INVALID_PARAM);
  aclrtMemManagedLocation none = {ACL_MEM_LOCATIONTYPE_INVALID, 0};
  CHECK_INT_EQ(aclrtMemManagedAdvise(m, 2 * MiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, none),
               ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemManagedPrefetchAsync(m, 2 * MiB, dev0, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemManagedPrefetchAsync(m, 2 * MiB, none, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
  msg_names("aclrtMemManagedPrefetchAsync");
  /* not managed memory */
  CHECK_INT_EQ(aclrtMalloc(&d, 2 * MiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemManagedAdvise(d, 2 * MiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, dev0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not managed memory");
  int32_t v = 0;
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MiB, &v, 8), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 2 * MiB, &v, 3), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtMemManagedGetAttr((aclrtMemManagedRangeAttribute)0, m, 2 * MiB, &v, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 2 * MiB, NULL, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 0, &v, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtMemManagedGetAttrs(NULL, 1, m, 2 * MiB, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  msg_names("aclrtMemManagedGetAttrs");
  CHECK_INT_EQ(aclrtFree(m), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  down(1);
}
