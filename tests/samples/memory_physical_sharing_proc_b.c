/*
 * memory_physical_sharing_proc_b.c - process B of the vendor's samples
 * example/1_basic_features/memory/7_physical_memory_sharing_withpid and
 * 8_physical_memory_sharing_withoutpid (ipc-vmm-graphs-tdt §4.3), built once
 * for each (SAMPLE_WITH_PID 1 or 0).  B gives A its pid (withpid only),
 * waits for the shareable handle in file/handle.bin, imports it, maps it,
 * copies the value to host memory and prints it, unmaps, signals A through
 * file/flag.bin and releases everything.
 */
#include <stdint.h>

#include "acl/acl.h"
#include "sample_files.h"

#ifndef SAMPLE_WITH_PID
#define SAMPLE_WITH_PID 1
#endif

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process B", call)

int main(void) {
  int32_t deviceId = 0;
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(deviceId));
#if SAMPLE_WITH_PID
  int32_t pid = 0;
  CHECK_ACL(aclrtDeviceGetBareTgid(&pid));
  if (sample_write_file("pid.bin", &pid, sizeof(pid)) != 0)
    return 1;
  INFO_LOG("get Process B's pid successfully, pid is %d", (int)pid);
#endif
  uint64_t shareableHandle = 0;
  if (sample_read_file("handle.bin", &shareableHandle, sizeof(shareableHandle)) != (long)sizeof(shareableHandle))
    return 1;
  INFO_LOG("get a shareable handle successfully, shareableHandle is %llu", (unsigned long long)shareableHandle);
  aclrtDrvMemHandle handle = NULL;
  CHECK_ACL(aclrtMemImportFromShareableHandle(shareableHandle, deviceId, &handle));

  aclrtPhysicalMemProp prop = {ACL_MEM_HANDLE_TYPE_NONE,
                               ACL_MEM_ALLOCATION_TYPE_PINNED,
                               ACL_HBM_MEM_NORMAL,
                               {(uint32_t)deviceId, ACL_MEM_LOCATION_TYPE_DEVICE},
                               0};
  size_t granularity = 0;
  CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  size_t size = (4096 + granularity - 1) / granularity * granularity;
  void *virPtr = NULL;
  CHECK_ACL(aclrtReserveMemAddress(&virPtr, size, 0, NULL, 0));
  CHECK_ACL(aclrtMapMem(virPtr, size, 0, handle, 0));
  aclrtMemAccessDesc desc = {
      ACL_RT_MEM_ACCESS_FLAGS_READWRITE, {(uint32_t)deviceId, ACL_MEM_LOCATION_TYPE_DEVICE}, {0}};
  CHECK_ACL(aclrtMemSetAccess(virPtr, size, &desc, 1));
  INFO_LOG("map virtual memory address to physical memory handle successfully");

  void *hostPtr = NULL;
  CHECK_ACL(aclrtMallocHost(&hostPtr, size));
  CHECK_ACL(aclrtMemcpy(hostPtr, size, virPtr, size, ACL_MEMCPY_DEVICE_TO_HOST));
  INFO_LOG("copy memory from device address %p to host address %p successfully", virPtr, hostPtr);
  INFO_LOG("Destination data: %d", (int)*(int32_t *)hostPtr);

  CHECK_ACL(aclrtUnmapMem(virPtr));
  int32_t flag = 1;
  if (sample_write_file("flag.bin", &flag, sizeof(flag)) != 0)
    return 1;
  INFO_LOG("complete physical memory sharing");
  CHECK_ACL(aclrtReleaseMemAddress(virPtr));
  CHECK_ACL(aclrtFreePhysical(handle));
  CHECK_ACL(aclrtFreeHost(hostPtr));
  INFO_LOG("release the virtual and physical memory successfully");
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  return 0;
}
