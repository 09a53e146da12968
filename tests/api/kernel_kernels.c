/*
 * kernel_kernels.c - the kernels tests/api/kernel.c launches, built as the
 * shared object openacl_test_kernels (tests/api/kernel.cmake) with hidden
 * visibility, so only OPENACL_KERNEL functions are exported.
 */
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "openacl/kernel.h"

/* Not a kernel: hidden, so aclrtBinaryGetFunction must not find it. */
int tk_helper(int v);
int tk_helper(int v) { return v + 1; }

static void tk_sleep_ms(unsigned ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void tk_slice(uint64_t n, uint32_t idx, uint32_t num, uint64_t *begin, uint64_t *end) {
  uint64_t per = (n + num - 1) / num;
  *begin = per * idx < n ? per * idx : n;
  *end = *begin + per < n ? *begin + per : n;
}

/* z = x + y; args {x, y, z, n}. */
struct tk_vadd {
  const float *x;
  const float *y;
  float *z;
  uint64_t n;
};
OPENACL_KERNEL(tk_vadd)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct tk_vadd))
    return 1;
  const struct tk_vadd *a = args;
  uint64_t b, e;
  tk_slice(a->n, block_idx, block_num, &b, &e);
  for (uint64_t i = b; i < e; i++)
    a->z[i] = a->x[i] + a->y[i];
  return tk_helper(-1);
}

/* z[i] = z[i] * mul + add; args {z, n, mul, add}: checks ordering. */
struct tk_axpb {
  float *z;
  uint64_t n;
  float mul;
  float add;
};
OPENACL_KERNEL(tk_axpb)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (args_size < sizeof(struct tk_axpb))
    return 1;
  const struct tk_axpb *a = args;
  uint64_t b, e;
  tk_slice(a->n, block_idx, block_num, &b, &e);
  for (uint64_t i = b; i < e; i++)
    a->z[i] = a->z[i] * a->mul + a->add;
  return 0;
}

/* Each block writes its thread id and waits (up to 5 s) until `want`
 * blocks have arrived: it fails unless blocks run at the same time.
 * args {tids (int32 per block), counter (uint32), want}. */
struct tk_meet {
  int32_t *tids;
  _Atomic uint32_t *counter;
  uint32_t want;
};
OPENACL_KERNEL(tk_meet)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct tk_meet))
    return 1;
  const struct tk_meet *a = args;
  a->tids[block_idx] = (int32_t)syscall(SYS_gettid);
  atomic_fetch_add(a->counter, 1);
  for (int i = 0; i < 5000; i++) {
    if (atomic_load(a->counter) >= a->want)
      return 0;
    tk_sleep_ms(1);
  }
  return 3;
}

/* Block `bad` returns `status`; args {bad, status}. */
struct tk_fail {
  uint32_t bad;
  int32_t status;
};
OPENACL_KERNEL(tk_fail)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (args_size < sizeof(struct tk_fail))
    return 1;
  const struct tk_fail *a = args;
  return block_idx == a->bad ? a->status : 0;
}

/* Sleeps, then counts itself; args {counter, sleep_ms}. */
struct tk_slow {
  _Atomic uint32_t *counter;
  uint32_t sleep_ms;
};
OPENACL_KERNEL(tk_slow)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx, (void)block_num;
  if (args_size < sizeof(struct tk_slow))
    return 1;
  const struct tk_slow *a = args;
  tk_sleep_ms(a->sleep_ms);
  atomic_fetch_add(a->counter, 1);
  return 0;
}

/* Block 0 writes args_size (uint64) then the argument bytes to out, the
 * first argument; each placeholder-like pointer is resolved by the test. */
OPENACL_KERNEL(tk_echo)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_num;
  if (block_idx != 0)
    return 0;
  if (args_size < sizeof(void *))
    return 1;
  unsigned char *out;
  memcpy(&out, args, sizeof out);
  uint64_t size = args_size;
  memcpy(out, &size, sizeof size);
  memcpy(out + sizeof size, args, args_size);
  return 0;
}

/* Reads the float behind the placeholder pointer at offset 8 and writes it
 * (times block count) to out (offset 0); args {out, ph}. */
OPENACL_KERNEL(tk_deref)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  if (block_idx != 0)
    return 0;
  if (args_size < 2 * sizeof(void *))
    return 1;
  float *out;
  const float *ph;
  memcpy(&out, args, sizeof out);
  memcpy(&ph, (const char *)args + sizeof(void *), sizeof ph);
  out[0] = ph[0] * (float)block_num;
  out[1] = ph[1];
  return 0;
}

/* Does nothing (numBlocks/no-argument launches). */
OPENACL_KERNEL(tk_nop)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
  (void)block_idx, (void)block_num, (void)args, (void)args_size;
  return 0;
}
