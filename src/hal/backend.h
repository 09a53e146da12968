/*
 * backend.h - the contract between the runtime (src/rt) and a device
 * backend (src/hal/<name>/).  Version 3.
 *
 * A backend fills one acl__backend_ops table.  New hooks are only ever
 * appended; `version` says how many a table has.  The runtime calls:
 *
 *   probe            aclInit thread, process lock held.  Counts devices and
 *                    fills their static properties.  Must not start threads,
 *                    reserve memory or block.
 *   device_open      first aclrtSetDevice (or aclrtCreateContext) of a
 *                    device, device lock held.  May reserve memory; must not
 *                    start threads (the runtime owns the executors).
 *   device_close     last reset of the device or aclFinalize, device lock
 *                    held, after every executor has stopped.
 *   mem_reserve      device_open time: the device's memory region.  It
 *                    must reserve 2 x `capacity` bytes of address space
 *                    (without committing memory): the runtime counts
 *                    `capacity` bytes of allocations against the device and
 *                    uses the rest as slack against fragmentation.  Returns
 *                    the base the application sees; the runtime
 *                    sub-allocates it.
 *   access_begin/end any thread: let the calling thread touch device memory
 *                    between the two calls (nesting allowed; cheap: a few
 *                    instructions).  Executor threads call access_begin once
 *                    at start.  Never blocks.
 *   module_load      caller's thread, no runtime lock held; may block (file
 *                    I/O, dynamic loading).  module_get_function and
 *                    module_unload likewise.
 *   timestamp_ns     any thread, never blocks: the device clock.
 *
 * Version 2 appends the hooks of the protection mechanisms (docs/memory.md);
 * the runtime calls them only when `version` >= 2:
 *   mem_alias        after mem_reserve, device lock held: where device
 *                    threads reach the region - the base of a second
 *                    mapping of the same memory, or NULL when they use the
 *                    region's own addresses (protection keys, or none).
 *                    The runtime translates every device pointer it hands
 *                    to device code by (alias - base).
 *   mem_discard      any thread, the runtime's memory lock held, never
 *                    blocks for long: the contents of [addr, addr + len)
 *                    (region addresses, page-aligned) are no longer
 *                    needed; give the physical memory back.
 *   mem_protection   any thread: the mechanism in force for this device,
 *                    "pkeys", "alias" or "off".
 *   thread_has_access  async-signal-safe, any thread: 1 when the calling
 *                    thread is between access_begin and access_end (the
 *                    fault handler tells device code from host code).
 *
 * Version 3 appends symbol lookups in a loaded module (device globals and
 * function sizes, docs/kernels.md "Device globals"); the runtime calls them
 * only when `version` >= 3 and the pointer is not NULL, and otherwise says
 * the device has no symbols (ACL_ERROR_RT_FEATURE_NOT_SUPPORT):
 *   module_symbol    caller's thread, no runtime lock held; may block
 *                    briefly (the dynamic loader's lock).  Finds the
 *                    exported symbol `name` defined by the module itself (not
 *                    by a library it links) and of the kind asked for
 *                    (ACL__SYM_DATA: a variable, ACL__SYM_FUNC: a function);
 *                    gives its address and its size in bytes (ELF st_size).
 *                    ACL_ERROR_RT_SYMBOL_NOT_FOUND, with the reason in
 *                    `why`, when there is none.
 *   module_symbol_at caller's thread, no runtime lock held; may block
 *                    briefly.  The exported variable of the module that
 *                    contains `addr`: its start and size;
 *                    ACL_ERROR_RT_SYMBOL_NOT_FOUND when addr is in none.
 *
 * Version 4 appends device memory other processes can map (docs/processes.md);
 * the runtime calls them only when `version` >= 4 and the pointer is not NULL:
 *   mem_fd           any thread: the shared-memory object behind the region
 *                    (region address base + x is offset x in it), or -1 when
 *                    the region is private memory (OPENACL_SHARED_DEVICE=0).
 *   mem_map_shared   the runtime's memory lock held: maps [off, off + len) of
 *                    the object `fd` (another process's mem_fd, opened here)
 *                    over the region's [addr, addr + len) with the device's
 *                    protection (the alias mapped too); fd -1 puts the
 *                    device's own memory back (fresh pages where the region
 *                    is private memory).  addr, len, off page-aligned.  Also
 *                    how virtual memory management maps a physical
 *                    allocation (its own memfd, src/rt/vmm.c) into a
 *                    reserved range of the region.
 *
 * Hooks that return int return 0 on success or an aclError the runtime
 * passes on to the user (module_load: a code such as ACL_ERROR_INVALID_FILE
 * or ACL_ERROR_RT_FEATURE_NOT_SUPPORT, with the reason in `why`).
 */
#ifndef OPENACL_HAL_BACKEND_H
#define OPENACL_HAL_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "common/env.h"

#define ACL__BACKEND_VERSION 4

/* module_symbol's kinds (version 3). */
enum { ACL__SYM_DATA = 0, ACL__SYM_FUNC = 1 };

/* Static properties of one physical device, filled by probe. */
typedef struct acl__device_props {
  char soc_name[64];
  uint64_t memory_capacity;     /* bytes of device memory */
  int executor_threads;         /* executors the runtime starts for it */
  int ai_core_num;              /* reported by aclrtGetDeviceInfo / aclGetDeviceCapability */
  int vector_core_num;
  uint64_t l2_size;
  int host_access;              /* 1: host code may touch device memory (debug switch) */
  int mem_protection;           /* ACL__MEMPROT_* asked for (OPENACL_MEMORY_PROTECTION) */
  int shareable;                /* 1: device memory in a shared-memory object (OPENACL_SHARED_DEVICE) */
} acl__device_props;

typedef struct acl__backend_dev acl__backend_dev;  /* the backend's per-device state */

/* Kernel entry as a backend resolves it; see docs/kernels.md for the ABI. */
typedef int (*acl__kernel_entry)(uint32_t block_idx, uint32_t block_num, void *args, size_t args_size);

typedef struct acl__backend_ops {
  uint32_t version;
  const char *name;
  int (*probe)(const acl__env *env, int *count, acl__device_props *props, int max);
  int (*device_open)(int phys_id, const acl__device_props *props, acl__backend_dev **out);
  void (*device_close)(acl__backend_dev *dev);
  int (*mem_reserve)(acl__backend_dev *dev, uint64_t capacity, void **base);
  void (*access_begin)(acl__backend_dev *dev);
  void (*access_end)(acl__backend_dev *dev);
  int (*module_load)(acl__backend_dev *dev, const char *path, const void *data, size_t len, void **module,
                     char *why, size_t why_len);
  int (*module_get_function)(void *module, const char *name, acl__kernel_entry *fn);
  void (*module_unload)(void *module);
  uint64_t (*timestamp_ns)(acl__backend_dev *dev);
  /* version 2 */
  void *(*mem_alias)(acl__backend_dev *dev);
  void (*mem_discard)(acl__backend_dev *dev, void *addr, size_t len);
  const char *(*mem_protection)(acl__backend_dev *dev);
  int (*thread_has_access)(void);
  /* version 3 */
  int (*module_symbol)(void *module, const char *name, int kind, void **addr, size_t *size, char *why,
                       size_t why_len);
  int (*module_symbol_at)(void *module, const void *addr, void **start, size_t *size);
  /* version 4 */
  int (*mem_fd)(acl__backend_dev *dev);
  int (*mem_map_shared)(acl__backend_dev *dev, void *addr, size_t len, int fd, uint64_t off);
} acl__backend_ops;

/* The backends built in.  OPENACL_BACKEND picks one ("cpu" by default). */
extern const acl__backend_ops acl__backend_cpu;
extern const acl__backend_ops acl__backend_null;

#endif
