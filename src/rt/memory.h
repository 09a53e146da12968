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
  ACL__PTR_DEVICE_UNALLOCATED /* inside a device region but not in a live allocation */
} acl__ptr_kind;

typedef struct acl__ptr_info {
  acl__ptr_kind kind;
  acl__device *dev;         /* for device pointers */
  void *alloc_base;         /* start of the allocation containing the pointer */
  size_t alloc_size;        /* its size as requested */
  size_t offset;            /* pointer - alloc_base */
} acl__ptr_info;

/* Classifies p (never dereferences it). */
void acl__mem_classify(const void *p, acl__ptr_info *info);

#endif
