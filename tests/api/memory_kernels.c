/*
 * memory_kernels.c - kernels of the memory tests (api/memory_protection,
 * api/memory_register): what device code does with device memory and
 * registered host memory.
 */
#include <stdint.h>
#include <string.h>

#include "openacl/kernel.h"

/* out[i] = in[i] * 2 + 1 for i < n; args {in, out, n}. */
struct mk_scale {
  const float *in;
  float *out;
  uint64_t n;
};
OPENACL_KERNEL(mk_scale)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct mk_scale))
    return 1;
  const struct mk_scale *a = args;
  uint64_t per = (a->n + block_num - 1) / block_num, b = per * block_idx;
  for (uint64_t i = b; i < b + per && i < a->n; i++)
    a->out[i] = a->in[i] * 2.0f + 1.0f;
  return 0;
}

/* out[i] = table[i][i] for i < n: follows device pointers it reads from
 * device memory (a pointer table), as kernels of tensor lists do; args
 * {table, out, n}. */
struct mk_gather {
  const float *const *table;
  float *out;
  uint64_t n;
};
OPENACL_KERNEL(mk_gather)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct mk_gather))
    return 1;
  const struct mk_gather *a = args;
  if (block_idx != 0)
    return 0;
  (void)block_num;
  for (uint64_t i = 0; i < a->n; i++)
    a->out[i] = a->table[i][i];
  return 0;
}
