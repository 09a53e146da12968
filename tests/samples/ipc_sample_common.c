/*
 * ipc_sample_common.c - the kernel launches of the IPC memory samples
 * (ipc_sample_common.h).
 */
#include "ipc_sample_common.h"

#include <string.h>

/* Loads the binary, launches kernel name with the packed host args on stream, waits. */
static int Launch(const char *kernelPath, const char *name, void *args, size_t argsSize, aclrtStream stream) {
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle func = NULL;
  aclError ret = aclrtBinaryLoadFromFile(kernelPath, NULL, &bin);
  if (ret == ACL_SUCCESS)
    ret = aclrtBinaryGetFunction(bin, name, &func);
  if (ret == ACL_SUCCESS)
    ret = aclrtLaunchKernelWithHostArgs(func, 1, stream, NULL, args, argsSize, NULL, 0);
  if (ret == ACL_SUCCESS)
    ret = aclrtSynchronizeStream(stream);
  if (bin != NULL)
    aclrtBinaryUnLoad(bin);
  if (ret != ACL_SUCCESS) {
    ERROR_LOG("kernel %s from %s failed, errorCode = %d: %s", name, kernelPath, (int)ret, aclGetRecentErrMsg());
    return -1;
  }
  fflush(stdout);
  return 0;
}

int DeviceWrite(const char *kernelPath, void *devPtr, int32_t value, aclrtStream stream) {
  struct {
    void *data;
    int32_t value;
  } args;
  /* zero the padding too: under the alias protection openacl rewrites every
   * 8-byte word of the arguments that looks like a device address
   * (docs/memory.md), and value with stack garbage above it can look like one */
  memset(&args, 0, sizeof(args));
  args.data = devPtr;
  args.value = value;
  return Launch(kernelPath, "write_value", &args, sizeof(args), stream);
}

int DeviceRead(const char *kernelPath, void *devPtr, aclrtStream stream) {
  return Launch(kernelPath, "read_value", &devPtr, sizeof(devPtr), stream);
}
