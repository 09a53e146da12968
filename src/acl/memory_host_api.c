/*
 * memory_host_api.c - the public API of memory that host and device share:
 * registered host memory (aclrtHostRegister*, aclrtHostGetDevicePointer,
 * aclrtHostUnregister, aclrtHostMemMapCapabilities) and managed memory
 * (aclrtMemAllocManaged, aclrtMemManagedAdvise, aclrtMemManagedPrefetchAsync,
 * aclrtMemManagedGetAttr[s]).  docs/memory.md states the rules; the bodies
 * are src/rt/host_register.c and src/rt/managed.c.
 *
 * Argument checks follow the vendor's layering: the ACL layer's (NULL,
 * zero sizes, reserved values) give ACL_ERROR_INVALID_PARAM, the runtime's
 * (alignment, ranges) ACL_ERROR_RT_PARAM_INVALID.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/managed.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "prof/prof.h"

/* ---- registered host memory ------------------------------------------------------ */

#define ACL__HOST_REG_KNOWN (ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED)

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL || devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", ptr == NULL ? "ptr" : "devPtr");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: register at least one byte");
  /* MAPPED (0) is the one mapping the simulated device has: it has no
   * third-party PCIe space to map (IOMEMORY), and READONLY is reserved. */
  if ((uint32_t)type != ACL_HOST_REGISTER_MAPPED)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "type %d is not supported: %s. Remedy: pass ACL_HOST_REGISTER_MAPPED", (int)type,
                     ((uint32_t)type & ~(uint32_t)(ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY)) != 0
                         ? "it is not an aclrtHostRegisterType value"
                         : "ACL_HOST_REGISTER_IOMEMORY and ACL_HOST_REGISTER_READONLY are reserved");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  if (((uintptr_t)ptr & 4095u) != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "ptr %p is not 4 KiB aligned, as aclrtHostRegister requires. Remedy: register page-aligned "
                     "memory (aclrtMallocHost, mmap, aligned_alloc), or use aclrtHostRegisterV2",
                     ptr);
  return acl__mem_reg_add(__func__, c->dev, ptr, size, ACL_HOST_REG_MAPPED, __builtin_return_address(0), devPtr);
}

aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: register at least one byte");
  if (flag == 0 || (flag & ~(uint32_t)ACL__HOST_REG_KNOWN) != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "flag 0x%x is not a non-empty OR of ACL_HOST_REG_MAPPED (0x2), ACL_HOST_REG_IOMEMORY (0x4), "
                     "ACL_HOST_REG_READONLY (0x8) and ACL_HOST_REG_PINNED (0x10000000)",
                     flag);
  if (flag & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY))
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "flag 0x%x asks for %s, which the simulated device does not have%s. Remedy: use "
                     "ACL_HOST_REG_MAPPED and/or ACL_HOST_REG_PINNED",
                     flag, (flag & ACL_HOST_REG_IOMEMORY) ? "ACL_HOST_REG_IOMEMORY" : "ACL_HOST_REG_READONLY",
                     (flag & ACL_HOST_REG_IOMEMORY) ? " (no third-party PCIe device's IO space to map)"
                                                    : " (reserved by the vendor)");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  return acl__mem_reg_add(__func__, c->dev, ptr, size, flag, __builtin_return_address(0), NULL);
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (pHost == NULL || pDevice == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", pHost == NULL ? "pHost" : "pDevice");
  if (flag != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flag is %u; it is reserved and must be 0", flag);
  return acl__mem_reg_dev_pointer(__func__, pHost, pDevice);
}

aclError aclrtHostUnregister(void *ptr) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  return acl__mem_reg_remove(__func__, ptr);
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                     aclrtHostMemMapCapability *capabilities) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (capabilities == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "capabilities is NULL");
  if ((int)hacType < ACL_RT_HAC_TYPE_STARS || (int)hacType > ACL_RT_HAC_TYPE_CCU)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hacType %d is not an aclrtHacType value (0..9)", (int)hacType);
  if (deviceId > (uint32_t)INT32_MAX || acl__device_get(__func__, (int32_t)deviceId, &rc) == NULL)
    return rc != 0 ? rc : ACL__FAIL(ACL_ERROR_RT_INVALID_DEVICEID, "deviceId %u is not a device", deviceId);
  /* The engines the simulated device has reach registered memory: the task
   * scheduler, the AI CPU, AI Core cube and vector units (kernels) and the
   * DMA engines (copies).  It has no RDMA, DVPP, UDMA or CCU. */
  switch (hacType) {
  case ACL_RT_HAC_TYPE_STARS:
  case ACL_RT_HAC_TYPE_AICPU:
  case ACL_RT_HAC_TYPE_AIC:
  case ACL_RT_HAC_TYPE_AIV:
  case ACL_RT_HAC_TYPE_PCIEDMA:
  case ACL_RT_HAC_TYPE_SDMA:
    *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
    break;
  default:
    *capabilities = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    break;
  }
  return 0;
}

/* ---- managed memory ---------------------------------------------------------------- */

aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: an allocation must be at least 1 byte");
  if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flag is %u; it must be ACL_RT_MEM_ATTACH_GLOBAL (1)", flag);
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  return acl__managed_alloc(__func__, c->dev, size, __builtin_return_address(0), ptr);
}

/* size: a non-zero multiple of 2 MiB up to 3 TB (checked by the runtime). */
static int acl__managed_size_ok(const char *api, uint64_t size) {
  if (size % ACL__MANAGED_PAGE != 0 || size > ACL__MANAGED_LIMIT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "size %llu is not a multiple of 2 MiB (2097152) up to 3 TB. Remedy: round the range to whole "
                     "2 MiB pages",
                     (unsigned long long)size);
  return 0;
}

aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  if ((int)advise < ACL_MEM_ADVISE_SET_READ_MOSTLY || (int)advise > ACL_MEM_ADVISE_UNSET_ACCESSED_BY)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "advise %d is not an aclrtMemManagedAdviseType value (0..5)",
                     (int)advise);
  rc = acl__managed_size_ok(__func__, size);
  if (rc == 0)
    rc = acl__managed_check_range(__func__, ptr, size);
  if (rc == 0)
    rc = acl__managed_check_location(__func__, "location", location);
  if (rc != 0)
    return rc;
  return acl__managed_advise(__func__, ptr, size, advise, location);
}

typedef struct acl__prefetch_task {
  const void *ptr;
  uint64_t size;
  aclrtMemManagedLocation loc;
} acl__prefetch_task;

static int acl__prefetch_run(acl__task *t) {
  acl__prefetch_task *p = acl__task_payload(t);
  acl__managed_prefetch_run(p->ptr, p->size, p->loc);
  return 0;
}

aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags is %u; it is reserved and must be 0", flags);
  rc = acl__managed_size_ok(__func__, size);
  if (rc == 0)
    rc = acl__managed_check_range(__func__, ptr, size);
  if (rc == 0)
    rc = acl__managed_check_location(__func__, "location", location);
  if (rc != 0)
    return rc;
  if (location.type == ACL_MEM_LOCATIONTYPE_INVALID)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "location.type is ACL_MEM_LOCATIONTYPE_INVALID: a prefetch needs a target (a device or the "
                     "host)");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__task *t = acl__task_new(sizeof(acl__prefetch_task), acl__prefetch_run, NULL);
  if (t == NULL)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a task");
  snprintf(t->what, sizeof(t->what), "managed prefetch of %zu bytes", size);
  acl__prefetch_task *p = acl__task_payload(t);
  p->ptr = ptr;
  p->size = size;
  p->loc = location;
  rc = acl__stream_submit(s, t);
  if (rc != 0)
    return ACL__FAIL(rc, "stream %d does not accept tasks: it is being destroyed", (int)s->id);
  return 0;
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size, void *data,
                                size_t dataSize) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (ptr == NULL || data == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", ptr == NULL ? "ptr" : "data");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  return acl__managed_get_attr(__func__, attribute, ptr, size, data, dataSize);
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes, size_t numAttributes, const void *ptr,
                                 size_t size, void **data, size_t *dataSizes) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (attributes == NULL || data == NULL || dataSizes == NULL || ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     attributes == NULL ? "attributes" : data == NULL ? "data" : dataSizes == NULL ? "dataSizes" : "ptr");
  if (numAttributes == 0 || size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is 0", numAttributes == 0 ? "numAttributes" : "size");
  for (size_t i = 0; i < numAttributes; i++)
    if (data[i] == NULL)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "data[%zu] is NULL", i);
  for (size_t i = 0; i < numAttributes; i++) {
    rc = acl__managed_get_attr(__func__, attributes[i], ptr, size, data[i], dataSizes[i]);
    if (rc != 0)
      return rc;
  }
  return 0;
}
