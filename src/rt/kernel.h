/*
 * kernel.h - kernel binaries, functions, argument buffers and launches
 * (kernel.c); the public entry points are in src/acl/kernel_api.c.
 *
 * Objects and ownership:
 *   binary    (aclrtBinHandle) one loaded module of a device's backend.
 *             Counted: one reference for the user (dropped by
 *             aclrtBinaryUnLoad) and one per launch that is queued or
 *             running.  The module is unloaded when the count reaches zero,
 *             on whichever thread drops the last reference.
 *   function  (aclrtFuncHandle) one kernel of a binary; lives as long as
 *             the binary's memory.  Asking twice for a name gives the same
 *             handle.
 *   args      (aclrtArgsHandle) an argument buffer built for one function.
 *             Made by aclrtKernelArgsInit: owned by the binary, freed with
 *             it.  Made by aclrtKernelArgsInitByUserMem: lives in the
 *             caller's memory; openacl never touches it after aclrtBinaryUnLoad.
 *   aclrtBinary  (aclrtCreateBinary) a private copy of binary data, until
 *             aclrtDestroyBinary.
 * aclrtBinaryUnLoad unregisters the binary, its functions and its argument
 * handles at once (later use fails with ACL_ERROR_RT_INVALID_HANDLE) and
 * never waits: launches already queued keep the module alive and finish.
 *
 * Lock: one mutex (kernel lock) guards the live lists and handle
 * registration of these objects; it is taken before the handle table stripe
 * and never while a stream lock is held (references are atomic, so a task
 * release does not need it).
 */
#ifndef OPENACL_RT_KERNEL_H
#define OPENACL_RT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

int acl__kernel_binary_load(const char *api, const char *path, const void *data, size_t len,
                            const aclrtBinaryLoadOptions *options, aclrtBinHandle *out);
int acl__kernel_binary_unload(const char *api, aclrtBinHandle bin);
int acl__kernel_get_function(const char *api, aclrtBinHandle bin, const char *name, aclrtFuncHandle *out);
int acl__kernel_function_name(const char *api, aclrtFuncHandle func, uint32_t max_len, char *name);

/* aclrtCreateBinary / aclrtDestroyBinary / aclrtBinaryLoad */
aclrtBinary acl__kernel_binary_create(const char *api, const void *data, size_t len);
int acl__kernel_binary_destroy(const char *api, aclrtBinary binary);
int acl__kernel_binary_load_created(const char *api, aclrtBinary binary, aclrtBinHandle *out);

/* The argument builder. */
int acl__kargs_handle_mem_size(const char *api, aclrtFuncHandle func, size_t *size);
int acl__kargs_mem_size(const char *api, aclrtFuncHandle func, size_t user_size, size_t *actual);
int acl__kargs_init(const char *api, aclrtFuncHandle func, aclrtArgsHandle *out);
int acl__kargs_init_user_mem(const char *api, aclrtFuncHandle func, aclrtArgsHandle handle, void *mem,
                             size_t mem_size);
int acl__kargs_append(const char *api, aclrtArgsHandle args, const void *param, size_t size,
                      aclrtParamHandle *out);
int acl__kargs_append_placeholder(const char *api, aclrtArgsHandle args, aclrtParamHandle *out);
int acl__kargs_placeholder_buffer(const char *api, aclrtArgsHandle args, aclrtParamHandle param, size_t size,
                                  void **buf);
int acl__kargs_update(const char *api, aclrtArgsHandle args, aclrtParamHandle param, const void *data,
                      size_t size);
int acl__kargs_finalize(const char *api, aclrtArgsHandle args);

/* One launch, whatever the API: where the arguments come from. */
typedef enum acl__kargs_source {
  ACL__KARGS_DEVICE,   /* args/size: device memory (aclrtLaunchKernel, V2) */
  ACL__KARGS_HOST,     /* args/size + placeholders: host memory (WithHostArgs) */
  ACL__KARGS_HANDLE    /* handle: a finalized args handle (WithConfig) */
} acl__kargs_source;

typedef struct acl__launch {
  aclrtFuncHandle func;
  uint32_t num_blocks;
  aclrtStream stream;
  const aclrtLaunchKernelCfg *cfg;   /* may be NULL */
  acl__kargs_source source;
  const void *args;
  size_t args_size;
  const aclrtPlaceHolderInfo *placeholders;
  size_t placeholder_count;
  aclrtArgsHandle handle;
} acl__launch;

/* Queues the launch on its stream; 0 or a recorded error. */
int acl__kernel_launch(const char *api, const acl__launch *l);
/* A launch recorded in a task graph: its function, argument bytes (the
 * task's copy) and blocks (-1: t is not a launch), and their replacement
 * (same binary, same argument size; args NULL keeps them). */
int acl__kernel_task_params(acl__task *t, aclrtFuncHandle *func, void **args, size_t *args_size, uint32_t *blocks);
int acl__kernel_task_update(const char *api, acl__task *t, aclrtFuncHandle func, const void *args, size_t args_size,
                            uint32_t blocks);

/* Function queries (src/acl/function_query_api.c): the binary a function
 * belongs to, its entry address, and the handle of an entry already looked
 * up (in binary `bin`, or in any binary when bin is NULL; 1 when found). */
int acl__kernel_function_binary(const char *api, aclrtFuncHandle func, aclrtBinHandle *bin);
int acl__kernel_function_entry(const char *api, aclrtFuncHandle func, void **entry);
int acl__kernel_find_by_entry(aclrtBinHandle bin, const void *entry, aclrtFuncHandle *out);

/* Device globals (docs/kernels.md "Device globals"). */
int acl__kernel_binary_global(const char *api, aclrtBinHandle bin, const char *name, void **addr, size_t *size);
/* The size of a kernel function's code (its ELF symbol's size). */
int acl__kernel_function_size(const char *api, aclrtFuncHandle func, size_t *size);

/* The parameter description of a kernel (OPENACL_KERNEL_PARAMS): the
 * exported array openacl_params_<name> = {count, size0, size1, ...}.
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT, recorded with a message saying how to
 * add one, when the kernel has none; ACL_ERROR_INVALID_FILE when it is
 * malformed. */
#define ACL__KERNEL_MAX_PARAMS 128
int acl__kernel_function_params(const char *api, aclrtFuncHandle func, uint32_t *count,
                                uint32_t sizes[ACL__KERNEL_MAX_PARAMS]);

/* A global found by its address.  `bin` is a reference on its binary that
 * keeps the global mapped until acl__kernel_symbol_unpin(bin). */
typedef struct acl__ksym {
  void *bin;
  struct acl__device *dev;   /* the device the binary was loaded for */
  void *addr;                /* the global's start (the symbol) */
  size_t size;               /* its bytes */
} acl__ksym;
/* `symbol` must be the start of an exported global of a loaded binary (one
 * loaded for `prefer` wins when several loads share the object); otherwise
 * ACL_ERROR_RT_INVALID_SYMBOL is recorded. */
int acl__kernel_symbol_lookup(const char *api, const void *symbol, struct acl__device *prefer, acl__ksym *out);
void acl__kernel_symbol_unpin(void *bin);

/* aclrtBinarySetExceptionCallback, and the callback a failing launch of
 * `func` calls (exception.c; NULL when none). */
int acl__kernel_set_exception_callback(const char *api, aclrtBinHandle bin, aclrtOpExceptionCallback cb, void *user);
aclrtOpExceptionCallback acl__kernel_exception_callback(aclrtFuncHandle func, void **user);

/* Teardown (aclFinalize, before devices close, after streams drained):
 * unloads every binary still loaded and frees every aclrtBinary, logging how
 * many the program left behind. */
void acl__kernel_finalize(void);

/* fork(): the kernel lock, taken after the process lock (src/acl/fork.c). */
void acl__kernel_atfork_prepare(void);
void acl__kernel_atfork_parent(void);
void acl__kernel_atfork_child(void);

#endif
