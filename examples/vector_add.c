/*
 * vector_add.c - z = x + y on the device, end to end: initialise, set a
 * device, allocate, copy in, load a kernel binary, build its arguments,
 * launch, copy out, check against the host, release everything.
 *
 *   vector_add [KERNEL_BINARY [ELEMENTS [BLOCKS]]]
 *
 * KERNEL_BINARY defaults to libvadd_kernel.so next to this program (built
 * from examples/kernels/vadd_kernel.c).  Written against acl/acl.h only, as
 * for an Ascend card; only the kernel binary is specific to the device.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, readlink */

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

#define CHECK_ACL(call)                                                                            \
  do {                                                                                             \
    aclError check_rc_ = (call);                                                                   \
    if (check_rc_ != ACL_SUCCESS) {                                                                \
      const char *check_msg_ = aclGetRecentErrMsg();                                               \
      fprintf(stderr, "vector_add: %s failed with %d\n%s\n", #call, (int)check_rc_,                \
              check_msg_ ? check_msg_ : "(no message)");                                          \
      goto out;                                                                                    \
    }                                                                                              \
  } while (0)

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* dir-of-this-program/libvadd_kernel.so */
static void default_kernel_path(char *out, size_t len) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    snprintf(out, len, "libvadd_kernel.so");
    return;
  }
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (slash != NULL)
    *slash = '\0';
  snprintf(out, len, "%s/libvadd_kernel.so", self);
}

int main(int argc, char **argv) {
  char kernel_path[PATH_MAX + 32];
  uint64_t n = 1u << 24;
  uint32_t blocks = 64;
  if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
    printf("usage: %s [KERNEL_BINARY [ELEMENTS [BLOCKS]]]\n", argv[0]);
    return 0;
  }
  if (argc > 1)
    snprintf(kernel_path, sizeof kernel_path, "%s", argv[1]);
  else
    default_kernel_path(kernel_path, sizeof kernel_path);
  if (argc > 2)
    n = strtoull(argv[2], NULL, 0);
  if (argc > 3)
    blocks = (uint32_t)strtoul(argv[3], NULL, 0);
  if (n == 0 || blocks == 0) {
    fprintf(stderr, "vector_add: ELEMENTS and BLOCKS must be positive\n");
    return 2;
  }

  int status = 1, initialised = 0, device_set = 0;
  aclrtStream stream = NULL;
  aclrtEvent start = NULL, stop = NULL;
  float *hx = NULL, *hy = NULL, *hz = NULL;
  void *dx = NULL, *dy = NULL, *dz = NULL;
  aclrtBinHandle bin = NULL;
  aclrtFuncHandle func = NULL;
  aclrtArgsHandle args = NULL;
  aclrtParamHandle param = NULL;
  size_t bytes = (size_t)n * sizeof(float);
  double t0 = now_ms();

  CHECK_ACL(aclInit(NULL));
  initialised = 1;
  CHECK_ACL(aclrtSetDevice(0));
  device_set = 1;
  CHECK_ACL(aclrtCreateStream(&stream));
  CHECK_ACL(aclrtCreateEvent(&start));
  CHECK_ACL(aclrtCreateEvent(&stop));

  /* Host buffers (pinned, so the asynchronous copies are truly asynchronous)
   * and device buffers. */
  CHECK_ACL(aclrtMallocHost((void **)&hx, bytes));
  CHECK_ACL(aclrtMallocHost((void **)&hy, bytes));
  CHECK_ACL(aclrtMallocHost((void **)&hz, bytes));
  CHECK_ACL(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (uint64_t i = 0; i < n; i++) {
    hx[i] = (float)(i % 1000) * 0.5f;
    hy[i] = (float)(i % 7) - 3.0f;
  }

  /* The kernel: load the binary, find the function, pack its arguments. */
  double t_load = now_ms();
  aclrtBinaryLoadOption option;
  memset(&option, 0, sizeof option);
  option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
  option.value.magic = ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
  aclrtBinaryLoadOptions options = {&option, 1};
  CHECK_ACL(aclrtBinaryLoadFromFile(kernel_path, &options, &bin));
  CHECK_ACL(aclrtBinaryGetFunction(bin, "vadd", &func));
  CHECK_ACL(aclrtKernelArgsInit(func, &args));
  CHECK_ACL(aclrtKernelArgsAppend(args, &dx, sizeof dx, &param));
  CHECK_ACL(aclrtKernelArgsAppend(args, &dy, sizeof dy, &param));
  CHECK_ACL(aclrtKernelArgsAppend(args, &dz, sizeof dz, &param));
  CHECK_ACL(aclrtKernelArgsAppend(args, &n, sizeof n, &param));
  CHECK_ACL(aclrtKernelArgsFinalize(args));
  t_load = now_ms() - t_load;

  /* Copy in, add, copy out: all queued on one stream, in order. */
  double t_run = now_ms();
  CHECK_ACL(aclrtMemcpyAsync(dx, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK_ACL(aclrtMemcpyAsync(dy, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK_ACL(aclrtRecordEvent(start, stream));
  CHECK_ACL(aclrtLaunchKernelWithConfig(func, blocks, stream, NULL, args, NULL));
  CHECK_ACL(aclrtRecordEvent(stop, stream));
  CHECK_ACL(aclrtMemcpyAsync(hz, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  t_run = now_ms() - t_run;
  float kernel_ms = 0.0f;
  CHECK_ACL(aclrtEventElapsedTime(&kernel_ms, start, stop));

  /* Check against the host. */
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < n; i++) {
    float want = hx[i] + hy[i];
    if (fabsf(hz[i] - want) > 0.0f) {
      if (wrong < 5)
        fprintf(stderr, "vector_add: z[%llu] = %g, expected %g\n", (unsigned long long)i, (double)hz[i],
                (double)want);
      wrong++;
    }
  }
  printf("vector_add: %llu floats in %u blocks, kernel 'vadd' from %s\n", (unsigned long long)n, blocks,
         kernel_path);
  printf("  load+args %.2f ms | copy in, add, copy out %.2f ms | kernel %.3f ms (%.2f GB/s)\n", t_load, t_run,
         (double)kernel_ms, kernel_ms > 0 ? 3.0 * (double)bytes / ((double)kernel_ms * 1e6) : 0.0);
  printf("  %s: %llu of %llu results differ from the host's\n", wrong ? "FAILED" : "PASSED",
         (unsigned long long)wrong, (unsigned long long)n);
  status = wrong ? 1 : 0;

out:
  /* Release in reverse order; the args handle goes with its binary. */
  if (bin != NULL && aclrtBinaryUnLoad(bin) != ACL_SUCCESS)
    status = 1;
  if (dz != NULL)
    aclrtFree(dz);
  if (dy != NULL)
    aclrtFree(dy);
  if (dx != NULL)
    aclrtFree(dx);
  if (hz != NULL)
    aclrtFreeHost(hz);
  if (hy != NULL)
    aclrtFreeHost(hy);
  if (hx != NULL)
    aclrtFreeHost(hx);
  if (stop != NULL)
    aclrtDestroyEvent(stop);
  if (start != NULL)
    aclrtDestroyEvent(start);
  if (stream != NULL)
    aclrtDestroyStream(stream);
  if (device_set)
    aclrtResetDevice(0);
  if (initialised)
    aclFinalize();
  if (status == 0)
    printf("  total %.1f ms\n", now_ms() - t0);
  return status;
}
