/*
 * add_kernel.c - out = self + alpha * other over n floats: the kernel that
 * prof_3_mstx_with_domain.c launches where the vendor's sample calls
 * aclnnAdd (openacl has no aclnn operators yet, issue 14).  One block
 * does the whole (tiny) vector.  Arguments, packed by the host in this
 * order: self, other, out (device pointers), alpha (float), n (uint32_t).
 */
#include "openacl/kernel.h"

struct add_args {
  const float *self;
  const float *other;
  float *out;
  float alpha;
  uint32_t n;
};

OPENACL_KERNEL(sample_add)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx;
  (void)block_num;
  if (args_size < sizeof(struct add_args))
    return 1;
  const struct add_args *a = (const struct add_args *)args;
  for (uint32_t i = 0; i < a->n; i++)
    a->out[i] = a->self[i] + a->alpha * a->other[i];
  return 0;
}
