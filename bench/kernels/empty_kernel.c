/*
 * empty_kernel.c - a kernel that does nothing, for bench_runtime: what a
 * launch costs when the kernel itself costs nothing.  Built as a shared
 * object (bench/bench_runtime.cmake) and loaded with aclrtBinaryLoadFromFile;
 * the ABI is in include/openacl/kernel.h and docs/kernels.md.
 */
#include "openacl/kernel.h"

OPENACL_KERNEL(empty_kernel)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx, (void)block_num, (void)args, (void)args_size;
  return 0;
}
