/*
 * rt_symbols_kernels.c - the kernel binary tests/api/rt_symbols.c loads:
 * device globals (OPENACL_GLOBAL), kernels that read and write them, and a
 * kernel with a parameter description (OPENACL_KERNEL_PARAMS) next to one
 * without.  Built with hidden visibility (tests/api/rt_rest.cmake).
 */
#include <stddef.h>
#include <stdint.h>

#include "openacl/kernel.h"

OPENACL_GLOBAL(uint32_t, sym_table)[64] = {1, 2, 3};
OPENACL_GLOBAL(float, sym_scale) = 2.0f;
int sym_hidden = 7; /* not exported: aclrtBinaryGetGlobal must not find it */

/* out[i] = sym_table[i] * sym_scale; args {out, n}. */
struct sym_read_args {
  float *out;
  uint64_t n;
};
OPENACL_KERNEL(sym_read)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct sym_read_args))
    return 1;
  const struct sym_read_args *a = args;
  if (block_idx == 0)
    for (uint64_t i = 0; i < a->n && i < 64; i++)
      a->out[i] = (float)sym_table[i] * sym_scale;
  return 0;
}

/* sym_table[i] += add for i < 64 (block 0); parameters {uint32_t add, uint64_t tag, uint8_t fail}; fails with 9 when fail. */
struct sym_add_args {
  uint32_t add;
  uint64_t tag;
  uint8_t fail;
};
OPENACL_KERNEL(sym_add)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < offsetof(struct sym_add_args, fail) + 1) /* packed: 17 bytes, no tail padding */
    return 2;
  const struct sym_add_args *a = args;
  if (a->fail)
    return 9;
  if (block_idx == 0)
    for (int i = 0; i < 64; i++)
      sym_table[i] += a->add + (uint32_t)a->tag;
  return 0;
}
OPENACL_KERNEL_PARAMS(sym_add, sizeof(uint32_t), sizeof(uint64_t), sizeof(uint8_t));
