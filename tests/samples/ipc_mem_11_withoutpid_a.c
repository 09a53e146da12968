/*
 * ipc_mem_11_withoutpid_a.c - process A of a sample in the style of the
 * vendor's example/1_basic_features/memory/11_ipc_memory_withoutpid
 * (reference ipc-vmm-graphs-tdt §1.3): as ipc_mem_10_withpid_a.c, but the
 * key is exported with ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
 * so any process of the user may import it and no pid is exchanged.  A
 * allocates 1 MiB on device 0, writes 123 with a kernel (which prints
 * "Source data: 123"), hands B the key (./file/memName.bin), waits for B's
 * completion flag (./file/flag.bin), closes the key and frees the memory.
 * argv[1]: the kernel binary (ipc_value_kernel.c).
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
  CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
              "aclrtIpcMemGetExportKey");
  INFO_LOG("Process A: get the shareable memory identifier of the device memory successfully");

  size_t got = 0;
  if (WriteFile("./file/memName.bin", key, strlen(key)) != 0)
    return 1;

  int32_t flag = 0;
  if (ReadFile("./file/flag.bin", &flag, sizeof(flag), &got) != 0 || got != sizeof(flag))
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
