/*
 * memory_physical_sharing_proc_a.c - process A of the vendor's samples
 * example/1_basic_features/memory/7_physical_memory_sharing_withpid and
 * 8_physical_memory_sharing_withoutpid (ipc-vmm-graphs-tdt §4.3), built once
 * for each (SAMPLE_WITH_PID 1 or 0).  A allocates physical memory, maps it,
 * writes 123 into it (the vendor launches a kernel; here aclrtMemcpy),
 * exports a shareable handle (flags 0 with B's pid on the whitelist, or
 * flags 1), hands it to B through file/handle.bin, waits for B's completion
 * signal in file/flag.bin and releases everything.  run_sample.sh starts A
 * and B at once and compares "Source data" with B's "Destination data".
 */
#include <stdint.h>

#include "acl/acl.h"
#include "sample_files.h"

#ifndef SAMPLE_WITH_PID
#define SAMPLE_WITH_PID 1
#endif

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process A", call)

int main(void) {
  int32_t deviceId = 0;
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(deviceId));

  aclrtPhysicalMemProp prop = {ACL_MEM_HANDLE_TYPE_NONE,
                               ACL_MEM_ALLOCATION_TYPE_PINNED,
                               ACL_HBM_MEM_NORMAL,
                               {(uint32_t)deviceId, ACL_MEM_LOCATION_TYPE_DEVICE},
                               0};
  size_t granularity = 0;
  CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  size_t size = (4096 + granularity - 1) / granularity * granularity;
  aclrtDrvMemHandle handle = NULL;
  CHECK_ACL(aclrtMallocPhysical(&handle, size, &prop, 0));
  INFO_LOG("allocate physical memory successfully");
  void *virPtr = NULL;
  CHECK_ACL(aclrtReserveMemAddress(&virPtr, size, 0, NULL, 0));
  INFO_LOG("reserve virtual memory successfully");
  CHECK_ACL(aclrtMapMem(virPtr, size, 0, handle, 0));
  aclrtMemAccessDesc desc = {
      ACL_RT_MEM_ACCESS_FLAGS_READWRITE, {(uint32_t)deviceId, ACL_MEM_LOCATION_TYPE_DEVICE}, {0}};
  CHECK_ACL(aclrtMemSetAccess(virPtr, size, &desc, 1));

  int32_t value = 123;
  CHECK_ACL(aclrtMemcpy(virPtr, size, &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE));
  INFO_LOG("Write data %d to the device memory", (int)value);

  uint64_t shareableHandle = 0;
  CHECK_ACL(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE,
                                            SAMPLE_WITH_PID ? ACL_RT_VMM_EXPORT_FLAG_DEFAULT
                                                            : ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                            &shareableHandle));
  INFO_LOG("export a shareable handle successfully, shareableHandle is %llu", (unsigned long long)shareableHandle);
#if SAMPLE_WITH_PID
  int32_t pid = 0;
  if (sample_read_file("pid.bin", &pid, sizeof(pid)) != (long)sizeof(pid))
    return 1;
  CHECK_ACL(aclrtMemSetPidToShareableHandle(shareableHandle, &pid, 1));
  INFO_LOG("add Process B to the whitelist successfully");
#endif
  if (sample_write_file("handle.bin", &shareableHandle, sizeof(shareableHandle)) != 0)
    return 1;

  int32_t source = 0;
  CHECK_ACL(aclrtMemcpy(&source, sizeof(source), virPtr, sizeof(source), ACL_MEMCPY_DEVICE_TO_HOST));
  INFO_LOG("Source data: %d", (int)source);

  int32_t flag = 0;
  if (sample_read_file("flag.bin", &flag, sizeof(flag)) != (long)sizeof(flag))
    return 1;
  INFO_LOG("receive the completion signal from Process B, flag = %d", (int)flag);

  CHECK_ACL(aclrtUnmapMem(virPtr));
  CHECK_ACL(aclrtReleaseMemAddress(virPtr));
  CHECK_ACL(aclrtFreePhysical(handle));
  INFO_LOG("release the virtual and physical memory successfully");
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  return 0;
}
