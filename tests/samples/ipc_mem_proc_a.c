/*
 * ipc_mem_proc_a.c - process A of the samples in the style of the vendor's
 * example/1_basic_features/memory/10_ipc_memory_withpid (built with
 * WITH_PID=1) and 11_ipc_memory_withoutpid (WITH_PID=0; reference
 * ipc-vmm-graphs-tdt §1.3): A allocates 1 MiB of device memory on device 0,
 * writes 123 into it with a kernel (which prints "Source data: 123"),
 * exports it - with the pid whitelist on, adding process B's pid from
 * ./file/pid.bin, or with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION -
 * hands B the key (./file/memName.bin), waits for B's completion flag
 * (./file/flag.bin), then closes the key and frees the memory.
 * run_sample.sh starts A and B (ipc_mem_proc_b.c) at once and compares A's
 * "Source data:" with B's "Destination data:".  argv[1]: the kernel binary
 * (ipc_value_kernel.c) where the vendor's sample links its AscendC kernels in.
 */
#include <string.h>

#include "ipc_sample_common.h"

#define CHECK_ERROR(ret, what)                                                                                         \
  do {                                                                                                                 \
    if ((ret) != ACL_SUCCESS) {                                                                                        \
      ERROR_LOG("Process A: %s failed, errorCode = %d: %s", what, (int)(ret), aclGetRecentErrMsg());                   \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  const char *kernelPath = argc > 1 ? argv[1] : "./libsample_ipc_value_kernel.so";
  int32_t deviceId = 0;
  size_t size = 1024 * 1024;
  CHECK_ERROR(aclInit(NULL), "aclInit");
  CHECK_ERROR(aclrtSetDevice(deviceId), "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_ERROR(aclrtCreateStream(&stream), "aclrtCreateStream");

  void *devPtr = NULL;
  CHECK_ERROR(aclrtMalloc(&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  INFO_LOG("Process A: allocate %zu bytes of device memory successfully", size);
  INFO_LOG("Process A: Write data 123 to the device memory");
  if (DeviceWrite(kernelPath, devPtr, 123, stream) != 0)
    return 1;

  char key[256] = {0};
#if WITH_PID
  CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT),
              "aclrtIpcMemGetExportKey");
#else
  CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
              "aclrtIpcMemGetExportKey");
#endif
  INFO_LOG("Process A: get the shareable memory identifier of the device memory successfully");

#if WITH_PID
  int32_t pid = 0;
  if (sample_read_file("pid.bin", &pid, sizeof(pid)) != (long)sizeof(pid))
    return 1;
  CHECK_ERROR(aclrtIpcMemSetImportPid(key, &pid, 1), "aclrtIpcMemSetImportPid");
  INFO_LOG("Process A: add Process B to the whitelist successfully, pid = %d", (int)pid);
#endif
  if (sample_write_file("memName.bin", key, strlen(key)) != 0)
    return 1;

  int32_t flag = 0;
  if (sample_read_file("flag.bin", &flag, sizeof(flag)) != (long)sizeof(flag))
    return 1;
  INFO_LOG("Process A: receive the completion signal from Process B, flag = %d", (int)flag);

  CHECK_ERROR(aclrtIpcMemClose(key), "aclrtIpcMemClose");
  CHECK_ERROR(aclrtFree(devPtr), "aclrtFree");
  CHECK_ERROR(aclrtDestroyStream(stream), "aclrtDestroyStream");
  CHECK_ERROR(aclrtResetDevice(deviceId), "aclrtResetDevice");
  CHECK_ERROR(aclFinalize(), "aclFinalize");
  INFO_LOG("Process A: release resources successfully");
  return 0;
}
