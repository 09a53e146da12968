/*
 * memory.h - device memory: each device's own address space with a
 * capacity, the vendor's sizing rules, a caching sub-allocator, and the
 * pointer lookups the copy functions need.  Pinned host memory
 * (aclrtMallocHost) is tracked here too.
 *
 * Called by device.c: acl__mem_open when a device is brought up (device
 * lock held), acl__mem_reset when its last reference goes (device lock
 * held, executors idle: frees every allocation and logs what leaked),
 * acl__mem_close before the backend closes.
 */
#ifndef OPENACL_RT_MEMORY_H
#define OPENACL_RT_MEMORY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rt/rt.h"

int acl__mem_open(acl__device *d);
void acl__mem_reset(acl__device *d);
void acl__mem_close(acl__device *d);

/* Where a pointer lives. */
typedef enum acl__ptr_kind {
  ACL__PTR_HOST = 0,        /* ordinary (pageable) host memory */
  ACL__PTR_PINNED_HOST,     /* from aclrtMallocHost */
  ACL__PTR_DEVICE,          /* inside an allocation of some device */
  ACL__PTR_DEVICE_UNALLOCATED, /* inside a device region but not in a live allocation */
  ACL__PTR_REGISTERED_HOST, /* host memory inside an aclrtHostRegister* range (page-locked) */
  ACL__PTR_REGISTERED_DEVICE, /* the device-side address of registered host memory (device code
                                 only; alloc_base NULL when no live registration covers it) */
  ACL__PTR_MANAGED          /* inside an aclrtMemAllocManaged allocation (host and device code) */
} acl__ptr_kind;

typedef struct acl__ptr_info {
  acl__ptr_kind kind;
  acl__device *dev;         /* for device pointers (registered: the device that registered it) */
  void *alloc_base;         /* start of the allocation containing the pointer */
  size_t alloc_size;        /* its size as requested */
  size_t offset;            /* pointer - alloc_base */
  uint8_t vmm;              /* ACL__VMM_*: inside a virtual address reservation (vmm.c) */
} acl__ptr_info;

/* Where in a reservation (aclrtReserveMemAddress) a pointer lies.  MAPPED is
 * ACL__PTR_DEVICE, alloc_base/alloc_size the run of accessible mappings
 * around it (copies may cross adjacent mappings); NO_ACCESS and UNMAPPED
 * are ACL__PTR_DEVICE_UNALLOCATED, alloc_base/alloc_size the reservation. */
enum { ACL__VMM_NONE = 0, ACL__VMM_MAPPED, ACL__VMM_NO_ACCESS, ACL__VMM_UNMAPPED };

/* Classifies p (never dereferences it).  An address device code got from
 * acl__mem_dev_ptr is classified as the device pointer it came from. */
void acl__mem_classify(const void *p, acl__ptr_info *info);

/* ---- addresses for device code (mem_xlate.c) --------------------------------
 * Device code - the executors' copies, kernels, the model engine - may not
 * reach device memory through the addresses host code holds: with the alias
 * protection mechanism those have no access at all, and the device-side
 * address of registered host memory is no host address.  Whoever hands a
 * device pointer to device code passes it through acl__mem_dev_ptr first (one
 * compare when nothing is translated, one addition for a device region).
 * The result is valid as long as the allocation is. */
extern atomic_int acl__mem_xlate_active; /* ranges that translate; 0: every address is its own */
void *acl__mem_dev_ptr_slow(const void *p);
static inline void *acl__mem_dev_ptr(const void *p) {
  if (atomic_load_explicit(&acl__mem_xlate_active, memory_order_acquire) == 0)
    return (void *)(uintptr_t)p;
  return acl__mem_dev_ptr_slow(p);
}
/* acl__mem_dev_ptr as it was while p's device was open, also after it
 * closed: for comparing addresses stored earlier, never for access. */
void *acl__mem_dev_ptr_ever(const void *p);
/* Translates in place every 8-byte-aligned word of a kernel's argument copy
 * that holds a device address (a device pointer argument), so the kernel can
 * dereference it.  A word that is not an address is left alone: device
 * regions and the registration window are ranges no integer argument
 * plausibly falls in. */
void acl__mem_dev_args(void *args, size_t size);

#endif
