/*
 * vmm.h - virtual memory management and shareable physical-memory handles
 * (ipc-vmm-graphs-tdt §4; docs/processes.md "Virtual memory and shareable
 * handles"): address ranges reserved in a device's region, physical
 * allocations (one memfd each, charged against the device's capacity),
 * mappings of the one over the other with access flags, and handles other
 * processes import.  The API checks are in src/acl/vmm_api.c; the runtime
 * work is in vmm.c.
 *
 * Every function that can fail records its failure for `api` (acl__fail)
 * and returns the code.  Handles (aclrtDrvMemHandle) are looked up, never
 * dereferenced, so a stale or forged one gets ACL_ERROR_RT_PARAM_INVALID.
 */
#ifndef OPENACL_RT_VMM_H
#define OPENACL_RT_VMM_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "rt/mem_alloc.h"
#include "rt/memory.h"
#include "rt/rt.h"

/* ---- properties (no state) ----------------------------------------------------- */

/* Page kinds of an aclrtMemAttr. */
enum { ACL__VMM_PG_NORMAL = 0, ACL__VMM_PG_HUGE, ACL__VMM_PG_1G };
/* Which location an aclrtMemAttr may be used for. */
enum { ACL__VMM_SIDE_ANY = 0, ACL__VMM_SIDE_DEVICE, ACL__VMM_SIDE_HOST };

/* What an aclrtMemAttr means here: 0, or -1 for a value the vendor refuses
 * for physical memory (ACL_DDR_MEM, ACL_HBM_MEM, ACL_HBM_MEM_P2P_*) or one
 * outside the enum. */
int acl__vmm_attr_info(int attr, int *page, int *p2p, int *side);
/* The granularity of a valid attr: 4 KiB (the host page where larger) for
 * normal pages, 2 MiB for huge pages and ACL_HBM_MEM_NORMAL (huge-backed),
 * 1 GiB for the 1 GiB kinds.  A choice: the vendor's values are the
 * driver's and unpublished; MINIMUM and RECOMMENDED are the same. */
size_t acl__vmm_granularity(int attr);

/* ---- the calls of vmm_api.c (arguments checked there as the ACL layer does) ----- */

/* aclrtReserveMemAddress: `size` bytes of device d's address range. */
int acl__vmm_reserve(const char *api, acl__device *d, size_t size, size_t alignment, const void *ra, void **out);
int acl__vmm_release(const char *api, void *va);
/* aclrtMallocPhysical: ctx_dev is the current device (that of host memory). */
int acl__vmm_malloc_physical(const char *api, acl__device *ctx_dev, size_t size, const aclrtPhysicalMemProp *prop,
                             const void *ra, void **handle_out);
int acl__vmm_free_physical(const char *api, void *handle);
/* aclrtMapMem (access 1) / aclrtMemMapNoAccess (access 0). */
int acl__vmm_map(const char *api, void *va, size_t size, size_t offset, void *handle, int access);
int acl__vmm_unmap(const char *api, void *va);
int acl__vmm_set_access(const char *api, void *va, size_t size, const aclrtMemAccessDesc *desc, size_t count);
int acl__vmm_get_access(const char *api, void *va, const aclrtMemLocation *loc, uint64_t *flag);
int acl__vmm_retain(const char *api, void *va, void **handle_out);
int acl__vmm_properties(const char *api, void *handle, aclrtPhysicalMemProp *prop);
/* aclrtMemGetAddressRange: device and pinned allocations, mapped ranges. */
int acl__vmm_address_range(const char *api, void *p, void **base, size_t *size);
/* Shareable handles (the device's registry, devshare.c). */
int acl__vmm_export(const char *api, void *handle, int check_pid, uint64_t *out);
int acl__vmm_allow(const char *api, uint64_t shareable, const int32_t *pids, size_t n);
int acl__vmm_import(const char *api, acl__device *d, uint64_t shareable, void **handle_out);

/* ---- what memory.c calls ----------------------------------------------------------- */

/* Space lock held, b a reservation's block (b->vmm): fills info for
 * address a (kind, alloc_base/alloc_size, vmm; memory.h). */
void acl__vmm_classify_locked(const acl__mblock *b, uintptr_t a, acl__ptr_info *info);
/* Space lock held: the page size of the mapping at a, dflt when none. */
uint32_t acl__vmm_page_size_locked(const acl__mblock *b, uintptr_t a, uint32_t dflt);
/* Device reset (no lock held, device still open): unmaps every mapping in
 * its reservations or of its physical memory, releases its reservations,
 * frees its physical memory (imports included), and logs what was left. */
void acl__vmm_reset(int32_t dev_id);
/* fork child: forgets the parent's reservations and handles. */
void acl__vmm_atfork_child(void);

#endif
