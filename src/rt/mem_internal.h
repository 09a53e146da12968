/*
 * mem_internal.h - what the memory API (src/acl/memory_api.c) needs from
 * the runtime's memory code (src/rt/memory.c) besides memory.h.
 *
 * Each function that can fail records its failure for `api` (acl__fail)
 * and returns the code; messages name the device, the sizes and the
 * allocation involved.
 */
#ifndef OPENACL_RT_MEM_INTERNAL_H
#define OPENACL_RT_MEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "rt/memory.h"
#include "rt/rt.h"

/* Allocates `charged` bytes of device d (the vendor's sizing of `requested`
 * bytes, already computed by the caller) with a 64-byte aligned start.
 * `ra` is the user's call site (for reports).  ACL_ERROR_RT_MEMORY_ALLOCATION
 * when the capacity is used up or no free range is large enough. */
int acl__mem_alloc(const char *api, acl__device *d, size_t requested, size_t charged, uint32_t policy, const void *ra,
                   void **out);
/* Frees a device allocation: p must be the start of a live one.
 * ACL_ERROR_RT_MEMORY_FREE otherwise (the message says what p is). */
int acl__mem_free(const char *api, void *p);
/* The device whose live allocation starts at p (for aclrtFreeWithDevSync);
 * NULL when there is none (nothing recorded). */
acl__device *acl__mem_owner(const void *p);

/* Pinned host memory (aclrtMallocHost): page-aligned, tracked for
 * classification.  ACL_ERROR_RT_MEMORY_ALLOCATION when the host is out of
 * memory; ACL_ERROR_RT_MEMORY_FREE for a pointer that is not the start of a
 * live pinned allocation. */
int acl__mem_host_alloc(const char *api, size_t size, const void *ra, void **out);
int acl__mem_host_free(const char *api, void *p);

/* Free and total bytes of device d by the vendor's accounting. */
void acl__mem_info(acl__device *d, size_t *free_bytes, size_t *total_bytes);
/* The page size to report for p (aclrtPointerGetAttributes): 2 MiB or
 * 1 GiB for allocations made with a huge-page policy, else 4 KiB. */
uint32_t acl__mem_page_size(const void *p);

#endif
