/*
 * rt_ext_kernels.c - kernels for the tests of rt-breadth §3/§4 (devices,
 * overflow, exceptions): a shared object loaded with aclrtBinaryLoadFromFile
 * through OPENACL_TEST_EXT_KERNELS.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "openacl/kernel.h"

/* out[i] = x * x for each block i: x = 1e30 overflows to infinity. */
struct rx_square {
  float *out;
  float x;
};
OPENACL_KERNEL(rx_square)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct rx_square))
    return 1;
  const struct rx_square *a = args;
  volatile float x = a->x; /* computed at run time, not folded */
  a->out[block_idx] = x * x;
  return 0;
}

/* Block `bad` returns `status`, the others 0. */
struct rx_fail {
  uint32_t bad;
  int32_t status;
};
OPENACL_KERNEL(rx_fail)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct rx_fail))
    return 1;
  const struct rx_fail *a = args;
  return block_idx == a->bad ? a->status : 0;
}

/* Fails with `status` after writing it to *buf (a device pointer argument). */
struct rx_fail_ptr {
  int32_t *buf;
  int32_t status;
};
OPENACL_KERNEL(rx_fail_ptr)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct rx_fail_ptr))
    return 1;
  const struct rx_fail_ptr *a = args;
  if (block_idx == 0)
    *a->buf = a->status;
  return a->status;
}

/* out[i] = 2 * in[i] over n elements, split between the blocks. */
struct rx_double {
  const int32_t *in;
  int32_t *out;
  uint32_t n;
};
OPENACL_KERNEL(rx_double)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct rx_double))
    return 1;
  const struct rx_double *a = args;
  for (uint32_t i = block_idx; i < a->n; i += block_num)
    a->out[i] = 2 * a->in[i];
  return 0;
}

/* Prints "Hello World" once per block (the vendor's print kernel). */
OPENACL_KERNEL(rx_hello)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num, (void)args, (void)args_size;
  printf("Hello World (block %u)\n", block_idx);
  fflush(stdout);
  return 0;
}

/* Keeps its executor busy for ms milliseconds of CPU time. */
struct rx_spin {
  uint32_t ms;
};
OPENACL_KERNEL(rx_spin)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx, (void)block_num;
  if (args_size < sizeof(struct rx_spin))
    return 1;
  const struct rx_spin *a = args;
  struct timespec t0, t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  volatile uint64_t sink = 0; /* volatile: the loop burns CPU time and is not optimised away */
  for (;;) {
    for (int i = 0; i < 10000; i++)
      sink = sink + (uint64_t)i;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= (long)a->ms)
      return 0;
  }
}
