/*
 * mem_space.h - one device's memory as memory.c keeps it, for the files
 * that work on the same arena under the same lock (mem_ipc.c: IPC export
 * keys and imports; vmm.c: address reservations and physical memory).
 * Everything here is guarded by `lock`, a leaf lock.
 */
#ifndef OPENACL_RT_MEM_SPACE_H
#define OPENACL_RT_MEM_SPACE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rt/devshare.h"
#include "rt/mem_alloc.h"
#include "rt/mem_internal.h"

struct acl__mem_space {
  pthread_mutex_t lock; /* guards every field below */
  int open;
  int stale; /* the parent's, in a forked child */
  const char *mech; /* the protection mechanism (backend.h mem_protection) */
  acl__device *dev;
  int32_t dev_id;
  uint64_t capacity;
  size_t trim_budget;
  uint64_t serial; /* allocations made, for reports */
  acl__arena arena;
  acl__mem_usage usage[ACL__MEM_USAGE_MAX]; /* per component, in first-use order */
  size_t n_usage;
  atomic_int opened; /* alias: the fault handler opened pages of the view (acl__mem_fault_open) */
  acl__ds *ds;       /* the device's registry when shared between processes, else NULL */
};

/* Device id's space (open or not), NULL for an id out of range. */
struct acl__mem_space *acl__mem_space_of(int32_t id);
/* The id of the open device region that holds address a, or -1 (no lock). */
int acl__mem_region_id(uintptr_t a);

/* Physical memory without a block of the arena (vmm.c, aclrtMallocPhysical):
 * charged against the device's capacity as aclrtMalloc's bytes are, shared
 * device included.  Space lock held.  acl__mem_charge_locked records
 * ACL_ERROR_RT_MEMORY_ALLOCATION for api when the bytes do not fit.
 * keep_in_use: other processes still hold the pages (a shareable handle),
 * so only this process's share is given back and the device's bytes in
 * use stay until the registry releases them. */
int acl__mem_charge_locked(const char *api, struct acl__mem_space *sp, size_t bytes, size_t requested);
void acl__mem_uncharge_locked(struct acl__mem_space *sp, size_t bytes, int keep_in_use);

#endif
