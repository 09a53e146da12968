/*
 * ipc_mem_proc_b.c - process B of the samples in the style of the vendor's
 * example/1_basic_features/memory/10_ipc_memory_withpid and
 * 11_ipc_memory_withoutpid (ipc_mem_proc_a.c has the story): with WITH_PID B
 * writes its pid (aclrtDeviceGetBareTgid) to ./file/pid.bin; it reads A's key
 * from ./file/memName.bin, imports the memory on device 0, reads it with a
 * kernel (which prints "Destination data: 123"), closes the import and
 * writes the completion flag 1 to ./file/flag.bin.  The vendor's B closes
 * after writing the flag, racing A's close of the key; the vendor's rule is
 * that every importer closes before the exporter, so this B closes first.
 * argv[1]: the kernel binary (ipc_value_kernel.c).
 */
#include "ipc_sample_common.h"

#define CHECK_ERROR(ret, what)                                                                                         \
  do {                                                                                                                 \
    if ((ret) != ACL_SUCCESS) {                                                                                        \
      ERROR_LOG("Process B: %s failed, errorCode = %d: %s", what, (int)(ret), aclGetRecentErrMsg());                   \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  const char *kernelPath = argc > 1 ? argv[1] : "./libsample_ipc_value_kernel.so";
  int32_t deviceId = 0;
  CHECK_ERROR(aclInit(NULL), "aclInit");
  CHECK_ERROR(aclrtSetDevice(deviceId), "aclrtSetDevice");
  aclrtStream stream = NULL;
  CHECK_ERROR(aclrtCreateStream(&stream), "aclrtCreateStream");

#if WITH_PID
  int32_t pid = 0;
  CHECK_ERROR(aclrtDeviceGetBareTgid(&pid), "aclrtDeviceGetBareTgid");
  if (sample_write_file("pid.bin", &pid, sizeof(pid)) != 0)
    return 1;
  INFO_LOG("Process B: get Process B's pid successfully, pid = %d", (int)pid);
#endif

  char key[65] = {0};
  if (sample_read_file("memName.bin", key, sizeof(key) - 1) <= 0)
    return 1;
  INFO_LOG("Process B: get the shareable memory identifier successfully, key = %s", key);

  void *devPtr = NULL;
  CHECK_ERROR(aclrtIpcMemImportByKey(&devPtr, key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT), "aclrtIpcMemImportByKey");
  if (DeviceRead(kernelPath, devPtr, stream) != 0)
    return 1;
  CHECK_ERROR(aclrtIpcMemClose(key), "aclrtIpcMemClose");
  CHECK_ERROR(aclrtFree(devPtr), "aclrtFree"); /* as the vendor's B does: harmless after the close */

  int32_t flag = 1;
  if (sample_write_file("flag.bin", &flag, sizeof(flag)) != 0)
    return 1;
  INFO_LOG("Process B: complete ipc memory sharing");

  CHECK_ERROR(aclrtDestroyStream(stream), "aclrtDestroyStream");
  CHECK_ERROR(aclrtResetDevice(deviceId), "aclrtResetDevice");
  CHECK_ERROR(aclFinalize(), "aclFinalize");
  return 0;
}
