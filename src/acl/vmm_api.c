/*
 * vmm_api.c - virtual memory management and shareable physical-memory
 * handles of acl_rt.h (ipc-vmm-graphs-tdt §4; docs/processes.md "Virtual
 * memory and shareable handles").  Argument checks follow the vendor's
 * layers as the reference's table gives them: what the ACL layer checks
 * (NULL pointers, zero sizes, reserved flags, the physical-memory
 * properties) is ACL_ERROR_INVALID_PARAM (100000), what the runtime checks
 * ACL_ERROR_RT_PARAM_INVALID (107000) - aclrtMemSetAccess checks even its
 * pointers there.  The work is in src/rt/vmm.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/device.h"
#include "rt/mem_internal.h"
#include "rt/rt.h"
#include "rt/vmm.h"

/* The current context's device, or NULL with the error recorded. */
static acl__device *acl__vmm_current(const char *api, int *rc) {
  acl__context *c = acl__context_current(api, rc);
  return c != NULL ? c->dev : NULL;
}

/* The memAttr and location of prop, as the ACL layer checks them for
 * aclrtMallocPhysical and aclrtMemGetAllocationGranularity. */
static int acl__vmm_check_attr(const char *api, const aclrtPhysicalMemProp *prop) {
  aclrtMemLocationType t = prop->location.type;
  if (t == ACL_MEM_LOCATION_TYPE_UNREGISTERED || t == ACL_MEM_LOCATION_TYPE_MANAGED)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->location.type is %s: physical memory is on a device "
                     "(ACL_MEM_LOCATION_TYPE_DEVICE) or the host (ACL_MEM_LOCATION_TYPE_HOST, _HOST_NUMA)",
                     t == ACL_MEM_LOCATION_TYPE_MANAGED ? "ACL_MEM_LOCATION_TYPE_MANAGED"
                                                        : "ACL_MEM_LOCATION_TYPE_UNREGISTERED");
  if (t != ACL_MEM_LOCATION_TYPE_HOST && t != ACL_MEM_LOCATION_TYPE_DEVICE && t != ACL_MEM_LOCATION_TYPE_HOST_NUMA)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->location.type is %d, not an aclrtMemLocationType value", (int)t);
  int page = 0, p2p = 0, side = 0;
  int attr = (int)prop->memAttr;
  if (attr < ACL_DDR_MEM || attr > ACL_MEM_P2P_HUGE1G)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->memAttr is %d, not an aclrtMemAttr value (0..17)", attr);
  if (acl__vmm_attr_info(attr, &page, &p2p, &side) != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->memAttr %d is not supported for physical memory (ACL_DDR_MEM, ACL_HBM_MEM and "
                     "ACL_HBM_MEM_P2P_* are not, as on the vendor's devices). Remedy: use ACL_MEM_NORMAL, "
                     "ACL_MEM_HUGE or ACL_HBM_MEM_NORMAL, ACL_HBM_MEM_HUGE",
                     attr);
  if (t == ACL_MEM_LOCATION_TYPE_DEVICE && side == ACL__VMM_SIDE_HOST)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->memAttr %d is host (DDR) memory, but prop->location is a device. Remedy: use an "
                     "ACL_HBM_MEM_* or ACL_MEM_* value for device memory",
                     attr);
  if (t != ACL_MEM_LOCATION_TYPE_DEVICE && side == ACL__VMM_SIDE_DEVICE)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "prop->memAttr %d is device (HBM) memory, but prop->location is the host. Remedy: use an "
                     "ACL_DDR_MEM_* or ACL_MEM_* value for host memory",
                     attr);
  return 0;
}

/* ---- reservations ------------------------------------------------------------------ */

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: reserve at least one byte");
  if (flags > 1)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags is 0x%llx; it must be 0 (1 is accepted too, as the vendor does)",
                     (unsigned long long)flags);
  if (expectPtr != NULL)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "expectPtr is %p: reserving at a fixed address is not supported on the simulated device (an "
                     "experimental feature of the vendor's, not on every chip). Remedy: pass expectPtr NULL and use "
                     "the address *virPtr receives",
                     expectPtr);
  int rc = 0;
  acl__device *d = acl__vmm_current(__func__, &rc);
  if (d == NULL)
    return rc;
  return acl__vmm_reserve(__func__, d, size, alignment, __builtin_return_address(0), virPtr);
}

aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                          uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || expectPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "expectPtr");
  (void)size;
  (void)alignment;
  (void)flags;
  return acl__not_supported(__func__, "", "reservations at a fixed address without UC memory are an Atlas A3 feature the simulated device has no use for");
}

aclError aclrtReleaseMemAddress(void *virPtr) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_release(__func__, virPtr);
}

/* ---- physical memory ------------------------------------------------------------------ */

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || prop == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "prop");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: allocate at least one byte");
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags is 0x%llx; it is reserved and must be 0",
                     (unsigned long long)flags);
  if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "prop->handleType is %d; it must be ACL_MEM_HANDLE_TYPE_NONE (0)",
                     (int)prop->handleType);
  if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "prop->allocationType is %d; it must be ACL_MEM_ALLOCATION_TYPE_PINNED (0)",
                     (int)prop->allocationType);
  int rc = acl__vmm_check_attr(__func__, prop);
  if (rc != 0)
    return rc;
  acl__device *d = acl__vmm_current(__func__, &rc);
  if (d == NULL)
    return rc;
  return acl__vmm_malloc_physical(__func__, d, size, prop, __builtin_return_address(0), handle);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_free_physical(__func__, handle);
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                          size_t *granularity) {
  ACL__PROF_API_SCOPE();
  if (prop == NULL || granularity == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", prop == NULL ? "prop" : "granularity");
  if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "option is %d, not ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) or "
                     "ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED (1)",
                     (int)option);
  int rc = acl__vmm_check_attr(__func__, prop);
  if (rc != 0)
    return rc;
  /* The simulated device has one granularity per kind: RECOMMENDED = MINIMUM. */
  *granularity = acl__vmm_granularity((int)prop->memAttr);
  return 0;
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp *prop) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || prop == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "prop");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_properties(__func__, handle, prop);
}

aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "handle");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_retain(__func__, virPtr, handle);
}

/* ---- mappings ------------------------------------------------------------------------ */

static int acl__vmm_map_api(const char *api, void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                            uint64_t flags, int access) {
  if (virPtr == NULL || handle == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     virPtr == NULL ? "virPtr" : "handle");
  if (size == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "size is 0: map the whole physical allocation");
  if (flags != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "flags is 0x%llx; it is reserved and must be 0",
                     (unsigned long long)flags);
  int rc = 0;
  if (!acl__rt_live(api, &rc))
    return rc;
  return acl__vmm_map(api, virPtr, size, offset, handle, access);
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  return acl__vmm_map_api(__func__, virPtr, size, offset, handle, flags, 1);
}

aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  return acl__vmm_map_api(__func__, virPtr, size, offset, handle, flags, 0);
}

aclError aclrtUnmapMem(void *virPtr) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_unmap(__func__, virPtr);
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count) {
  ACL__PROF_API_SCOPE();
  /* The vendor checks this function's arguments in the runtime layer only. */
  if (virPtr == NULL || desc == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "%s is NULL", virPtr == NULL ? "virPtr" : "desc");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "size is 0: pass the size given to aclrtMapMem");
  if (count == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "count is 0: pass at least one access descriptor");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_set_access(__func__, virPtr, size, desc, count);
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || location == NULL || flag == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     virPtr == NULL     ? "virPtr"
                     : location == NULL ? "location"
                                        : "flag");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_get_access(__func__, virPtr, location, flag);
}

aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize) {
  ACL__PROF_API_SCOPE();
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (pbase == NULL && psize == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "pbase and psize are both NULL: ask for at least one");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_address_range(__func__, ptr, pbase, psize);
}

/* ---- shareable handles ------------------------------------------------------------------ */

static const char acl__vmm_fabric_why[] =
    "ACL_MEM_SHARE_HANDLE_TYPE_FABRIC handles share memory across servers of an Atlas A3 super-node, which the "
    "simulated device is not (as on the vendor's other chips). Remedy: use ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT "
    "between processes of this machine";

static int acl__vmm_share_type(const char *api, aclrtMemSharedHandleType t) {
  if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && t != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "shareType is %d, not ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT (1) or "
                     "ACL_MEM_SHARE_HANDLE_TYPE_FABRIC (2)",
                     (int)t);
  return 0;
}

static int acl__vmm_export_flags(const char *api, uint64_t flags) {
  if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "flags is 0x%llx, not ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or "
                     "ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION (1)",
                     (unsigned long long)flags);
  return 0;
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t *shareableHandle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || shareableHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "shareableHandle");
  if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handleType is %d; it must be ACL_MEM_HANDLE_TYPE_NONE (0)",
                     (int)handleType);
  int rc = acl__vmm_export_flags(__func__, flags);
  if (rc != 0)
    return rc;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_export(__func__, handle, flags == ACL_RT_VMM_EXPORT_FLAG_DEFAULT, shareableHandle);
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType,
                                           void *shareableHandle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || shareableHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "shareableHandle");
  int rc = acl__vmm_share_type(__func__, shareType);
  if (rc == 0)
    rc = acl__vmm_export_flags(__func__, flags);
  if (rc != 0)
    return rc;
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s", acl__vmm_fabric_why);
  if (!acl__rt_live(__func__, &rc))
    return rc;
  uint64_t h = 0;
  rc = acl__vmm_export(__func__, handle, flags == ACL_RT_VMM_EXPORT_FLAG_DEFAULT, &h);
  if (rc == 0)
    memcpy(shareableHandle, &h, sizeof(h)); /* the caller's buffer need not be aligned */
  return rc;
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  int rc = 0;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  if (acl__mem_open_device(deviceId) == NULL)
    return ACL__FAIL(ACL_ERROR_RT_CONTEXT_NULL,
                     "device %d is not open in this process. Remedy: aclrtSetDevice(%d) before importing onto it",
                     (int)deviceId, (int)deviceId);
  return acl__vmm_import(__func__, d, shareableHandle, handle);
}

aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (shareableHandle == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", shareableHandle == NULL ? "shareableHandle" : "handle");
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags is 0x%llx; it is reserved and must be 0",
                     (unsigned long long)flags);
  int rc = acl__vmm_share_type(__func__, shareType);
  if (rc != 0)
    return rc;
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s", acl__vmm_fabric_why);
  acl__device *d = acl__vmm_current(__func__, &rc); /* V2 imports onto the current device */
  if (d == NULL)
    return rc;
  uint64_t h = 0;
  memcpy(&h, shareableHandle, sizeof(h));
  return acl__vmm_import(__func__, d, h, handle);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum) {
  ACL__PROF_API_SCOPE();
  if (pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pid is NULL");
  if (pidNum == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pidNum is 0: give at least one pid");
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__vmm_allow(__func__, shareableHandle, pid, pidNum);
}

aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType, int32_t *pid,
                                           size_t pidNum) {
  ACL__PROF_API_SCOPE();
  if (shareableHandle == NULL || pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", shareableHandle == NULL ? "shareableHandle" : "pid");
  if (pidNum == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pidNum is 0: give at least one pid");
  int rc = acl__vmm_share_type(__func__, shareType);
  if (rc != 0)
    return rc;
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s", acl__vmm_fabric_why);
  if (!acl__rt_live(__func__, &rc))
    return rc;
  uint64_t h = 0;
  memcpy(&h, shareableHandle, sizeof(h));
  return acl__vmm_allow(__func__, h, pid, pidNum);
}

/* ---- links between devices (not implemented) ------------------------------------------------ */

aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx) {
  ACL__PROF_API_SCOPE();
  if (virPtrDst == NULL || virPtrSrc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtrDst == NULL ? "virPtrDst" : "virPtrSrc");
  (void)size;
  (void)linkIdx;
  return acl__not_supported(__func__, "", "the simulated devices have one link (no SIO / HCCS choice)");
}

aclError aclrtMemMapSetLink(void *virPtr, size_t size, aclrtMemLinkType linkType) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  (void)size;
  (void)linkType;
  return acl__not_supported(__func__, "", "the simulated devices have one link (no SIO / HCCS choice)");
}

aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDeviceId, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  (void)size;
  (void)dstDeviceId;
  (void)flags;
  return acl__not_supported(__func__, "", "the simulated devices share one address space: no peer mapping to make");
}
