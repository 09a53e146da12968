/*
 * openacl/kernel.h - writing kernels for openacl's simulated NPU (the "cpu"
 * device).  Include it in the kernel's source, not in the host program: a
 * host program uses only acl/acl.h and loads the kernel binary with
 * aclrtBinaryLoadFromFile / aclrtBinaryLoadFromData.
 *
 * A kernel binary is an ELF shared object holding C functions with this
 * signature, each exported under the name the host passes to
 * aclrtBinaryGetFunction:
 *
 *   int name(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size);
 *
 *   block_idx  this block's index, 0 .. block_num - 1
 *   block_num  the numBlocks of the launch
 *   args       a copy of the launch's packed argument buffer, taken when the
 *              launch call returned; shared by all blocks of the launch, so
 *              treat it as read-only.  Device pointers inside it (from
 *              aclrtMalloc) are usable directly; placeholder slots point at
 *              their data inside the same copy.
 *   args_size  the bytes behind args
 *   returns    0 for success; any other value fails the launch: the stream
 *              reports ACL_ERROR_RT_AICORE_EXCEPTION (507015) at its next
 *              synchronisation, with a message naming the kernel, the block
 *              and the value.
 *
 * The blocks of one launch run in parallel on the device's executor threads
 * (and the thread that waits for them), in no particular order; a kernel
 * must not wait for a block with a higher index to make progress unless the
 * launch has no more blocks than the device has threads.  Kernels must not
 * call openacl (ACL) functions.
 *
 * Write kernels with OPENACL_KERNEL, which declares the function with the
 * right signature and default visibility (so it is exported even when the
 * binary is built with -fvisibility=hidden) and C linkage:
 *
 *   #include "openacl/kernel.h"
 *   struct vadd_args { const float *x; const float *y; float *z; uint64_t n; };
 *   OPENACL_KERNEL(vadd)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) {
 *     const struct vadd_args *a = (const struct vadd_args *)args;
 *     ...
 *     return 0;
 *   }
 *
 * Device globals: a variable defined with OPENACL_GLOBAL is exported, so the
 * host finds it with aclrtBinaryGetGlobal(bin, "name", &addr, &size) and
 * writes or reads it with aclrtMemcpyToSymbol / aclrtMemcpyFromSymbol:
 *
 *   OPENACL_GLOBAL(float, scale) = 1.0f;
 *   OPENACL_GLOBAL(uint32_t, table)[256];
 *
 * Build:  cc -O2 -fPIC -shared -o libvadd_kernel.so vadd_kernel.c -I<prefix>/include
 * (docs/kernels.md has the details, including how arguments are packed).
 */
#ifndef OPENACL_KERNEL_H
#define OPENACL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* The ABI described above; raised only if the signature ever changes. */
#define OPENACL_KERNEL_ABI_VERSION 1

#ifdef __cplusplus
#define OPENACL_KERNEL_LINKAGE_ extern "C"
#else
#define OPENACL_KERNEL_LINKAGE_
#endif

#if defined(__GNUC__) || defined(__clang__)
#define OPENACL_KERNEL_EXPORT_ __attribute__((visibility("default")))
#else
#define OPENACL_KERNEL_EXPORT_
#endif

/* OPENACL_KERNEL(name)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size) { ... }
 * The prototype it emits makes the compiler reject a definition whose
 * parameters do not match the ABI. */
#define OPENACL_KERNEL(name)                                                                           \
  OPENACL_KERNEL_LINKAGE_ OPENACL_KERNEL_EXPORT_ int name(uint32_t, uint32_t, void *, size_t);         \
  OPENACL_KERNEL_LINKAGE_ OPENACL_KERNEL_EXPORT_ int name

/* OPENACL_GLOBAL(type, name) [= init];  a device global: an exported
 * variable (variables at namespace scope are not name-mangled in C++
 * either); see docs/kernels.md "Device globals". */
#define OPENACL_GLOBAL(type, name) OPENACL_KERNEL_EXPORT_ type name

/* OPENACL_KERNEL_PARAMS(name, size0, size1, ...);  describes the kernel's
 * parameters, in order, by their sizes in bytes (sizeof each member of its
 * argument struct).  It exports the array openacl_params_<name> =
 * {count, size0, size1, ...} (uint32_t), which aclrtFunctionGetParamCount,
 * aclrtFunctionGetParamInfo and aclrtLaunchKernelWithArgsArray read; each
 * parameter is placed at its natural alignment (1, 2, 4 or 8 bytes), as a
 * C struct of those members is on LP64.  Optional: a kernel without it
 * still launches every other way.  At most 128 parameters.
 *
 *   OPENACL_KERNEL_PARAMS(vadd, sizeof(float *), sizeof(float *), sizeof(float *), sizeof(uint64_t));
 */
#define OPENACL_KERNEL_PARAMS(name, ...)                                                                \
  OPENACL_KERNEL_LINKAGE_ OPENACL_KERNEL_EXPORT_ const uint32_t openacl_params_##name[] = {             \
      (uint32_t)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)), __VA_ARGS__}

#endif
