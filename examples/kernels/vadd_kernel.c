/*
 * vadd_kernel.c - z = x + y over n floats: the kernel of examples/vector_add.c.
 *
 * A kernel for openacl's cpu device is a C function in a shared object
 * (ABI: include/openacl/kernel.h, docs/kernels.md).  Each of the launch's
 * blocks adds one contiguous slice; the blocks run in parallel.
 *
 * The arguments are packed by the host in this order (aclrtKernelArgsAppend
 * aligns each to its size, so the layout is that of the struct below):
 *   x, y, z: device pointers; n: uint64_t element count.
 */
#include "openacl/kernel.h"

struct vadd_args {
  const float *x;
  const float *y;
  float *z;
  uint64_t n;
};

OPENACL_KERNEL(vadd)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct vadd_args))
    return 1; /* the host packed fewer arguments than this kernel reads */
  const struct vadd_args *a = (const struct vadd_args *)args;
  uint64_t per = (a->n + block_num - 1) / block_num;
  uint64_t begin = per * block_idx;
  uint64_t end = begin + per < a->n ? begin + per : a->n;
  for (uint64_t i = begin; i < end; i++)
    a->z[i] = a->x[i] + a->y[i];
  return 0;
}
