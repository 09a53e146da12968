/* rt_ext_common.h - helpers shared by the tests of rt-breadth §3, §4, §6, §7. */
#ifndef OPENACL_TEST_RT_EXT_COMMON_H
#define OPENACL_TEST_RT_EXT_COMMON_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_common.h"

#ifndef OPENACL_TEST_EXT_KERNELS
#error "OPENACL_TEST_EXT_KERNELS must name the test kernel binary (rt_ext_kernels.c)"
#endif

/* The function `name` of the test kernels, loaded for the current device. */
static inline aclrtFuncHandle rx_func(const char *name, aclrtBinHandle *bin_out) {
  aclrtBinHandle bin = NULL;
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_EXT_KERNELS, NULL, &bin), ACL_SUCCESS);
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(bin, name, &f), ACL_SUCCESS);
  if (bin_out != NULL)
    *bin_out = bin;
  return f;
}

/* Launches f with a copy of the host bytes args. */
static inline int rx_launch(aclrtFuncHandle f, uint32_t blocks, const void *args, size_t size, aclrtStream s) {
  return aclrtLaunchKernelWithHostArgs(f, blocks, s, NULL, (void *)args, size, NULL, 0);
}

struct rx_square_args {
  float *out;
  float x;
};
struct rx_fail_args {
  uint32_t bad;
  int32_t status;
};
struct rx_fail_ptr_args {
  int32_t *buf;
  int32_t status;
};
struct rx_double_args {
  const int32_t *in;
  int32_t *out;
  uint32_t n;
};
struct rx_spin_args {
  uint32_t ms;
};

static inline uint32_t rx_gettid(void) { return (uint32_t)syscall(SYS_gettid); }

#endif
