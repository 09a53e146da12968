/*
 * ipc_vmm_api_pending.c - virtual memory management of acl_rt.h
 * (ipc-vmm-graphs-tdt §4; IPC memory is in ipc_mem_api.c, notifies in
 * notify_api.c, IPC events in event_api.c): declared
 * and exported so that programs build and link, pointer arguments checked
 * as the vendor's ACL layer checks them, then
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT until issue 13 replaces this file.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  (void)size;
  (void)alignment;
  (void)expectPtr;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                          uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || expectPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "expectPtr");
  (void)size;
  (void)alignment;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtReleaseMemAddress(void *virPtr) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || prop == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "prop");
  (void)size;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "handle");
  (void)size;
  (void)offset;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "handle");
  (void)size;
  (void)offset;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtUnmapMem(void *virPtr) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || desc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "desc");
  (void)size;
  (void)count;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || location == NULL || flag == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     virPtr == NULL     ? "virPtr"
                     : location == NULL ? "location"
                                        : "flag");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option,
                                          size_t *granularity) {
  ACL__PROF_API_SCOPE();
  if (prop == NULL || granularity == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", prop == NULL ? "prop" : "granularity");
  (void)option;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtr == NULL ? "virPtr" : "handle");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp *prop) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || prop == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "prop");
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize) {
  ACL__PROF_API_SCOPE();
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  (void)pbase;
  (void)psize;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t *shareableHandle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || shareableHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "shareableHandle");
  (void)handleType;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType,
                                           void *shareableHandle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || shareableHandle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "shareableHandle");
  (void)flags;
  (void)shareType;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  (void)shareableHandle;
  (void)deviceId;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (shareableHandle == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", shareableHandle == NULL ? "shareableHandle" : "handle");
  (void)shareType;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum) {
  ACL__PROF_API_SCOPE();
  if (pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pid is NULL");
  (void)shareableHandle;
  (void)pidNum;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle, aclrtMemSharedHandleType shareType, int32_t *pid,
                                           size_t pidNum) {
  ACL__PROF_API_SCOPE();
  if (shareableHandle == NULL || pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", shareableHandle == NULL ? "shareableHandle" : "pid");
  (void)shareType;
  (void)pidNum;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx) {
  ACL__PROF_API_SCOPE();
  if (virPtrDst == NULL || virPtrSrc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", virPtrDst == NULL ? "virPtrDst" : "virPtrSrc");
  (void)size;
  (void)linkIdx;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemMapSetLink(void *virPtr, size_t size, aclrtMemLinkType linkType) {
  ACL__PROF_API_SCOPE();
  if (virPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "virPtr is NULL");
  (void)size;
  (void)linkType;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}

aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDeviceId, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  (void)size;
  (void)dstDeviceId;
  (void)flags;
  return acl__not_supported(__func__, "issue 13", "virtual memory management is not implemented");
}
