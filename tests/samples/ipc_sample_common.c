/*
 * ipc_sample_common.c - the file protocol and the kernel launches of the
 * IPC memory samples (ipc_sample_common.h).
 */
#include "ipc_sample_common.h"

#include <string.h>
#include <sys/stat.h>
#include <time.h>

int WriteFile(const char *path, const void *data, size_t size) {
  char done[512];
  snprintf(done, sizeof(done), "%s.done", path);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    ERROR_LOG("write file %s failed", path);
    return -1;
  }
  f = fopen(done, "wb");
  if (f == NULL || fclose(f) != 0) {
    ERROR_LOG("create file %s failed", done);
    return -1;
  }
  return 0;
}

int ReadFile(const char *path, void *data, size_t size, size_t *got) {
  char done[512];
  snprintf(done, sizeof(done), "%s.done", path);
  struct stat st;
  for (int i = 0; stat(done, &st) != 0; i++) {
    if (i == 600) {
      ERROR_LOG("waited 60 s for %s", done);
      return -1;
    }
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    ERROR_LOG("open file %s failed", path);
    return -1;
  }
  *got = fread(data, 1, size, f);
  fclose(f);
  return 0;
}

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
