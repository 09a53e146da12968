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
 * `ra` is the user's call site (for reports); `module` the component the
 * bytes are counted for (aclrtGetMemUsageInfo).  ACL_ERROR_RT_MEMORY_ALLOCATION
 * when the capacity is used up or no free range is large enough. */
int acl__mem_alloc(const char *api, acl__device *d, size_t requested, size_t charged, uint32_t policy,
                   uint16_t module, const void *ra, void **out);
/* Frees a device allocation or a managed one: p must be the start of a
 * live one.  ACL_ERROR_RT_MEMORY_FREE otherwise (the message says what p is). */
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

/* Device id's struct while its memory is open, else NULL (never a stale one). */
acl__device *acl__mem_open_device(int32_t id);
/* The protection mechanism of device d's open memory ("pkeys", "alias",
 * "off"), NULL when it is not open. */
const char *acl__mem_protection(acl__device *d);
/* Free and total bytes of device d by the vendor's accounting. */
void acl__mem_info(acl__device *d, size_t *free_bytes, size_t *total_bytes);
/* The page size to report for p (aclrtPointerGetAttributes): 2 MiB or
 * 1 GiB for allocations made with a huge-page policy, else 4 KiB. */
uint32_t acl__mem_page_size(const void *p);

/* The component of allocations made without ACL_RT_MEM_ATTR_MODULE_ID. */
#define ACL__MEM_MODULE_APP 0xFFFFu
/* One component's use of a device's memory (aclrtGetMemUsageInfo). */
typedef struct acl__mem_usage {
  uint16_t module;
  uint64_t cur, peak;
} acl__mem_usage;
#define ACL__MEM_USAGE_MAX 32
/* Fills up to `max` entries (unsorted); returns how many there are. */
size_t acl__mem_usage_get(acl__device *d, acl__mem_usage *out, size_t max);

/* ---- IPC memory (mem_ipc.c) ---------------------------------------------------- */

/* aclrtIpcMemGetExportKey: a key for [p, p + size) inside one allocation of
 * this process.  check_pid: only whitelisted pids may import. */
int acl__mem_ipc_export(const char *api, void *p, size_t size, int check_pid, char *key, size_t len);
/* openaclDeviceMemoryLocate: where [p, p + size), inside one allocation of
 * this process, lies in the shared-memory object behind its device's
 * memory.  0, or -1 (nothing recorded) when it is not there: not device
 * memory, a VMM mapping or an IPC import (another object), or a device
 * private to this process. */
int acl__mem_ipc_locate(const void *p, uint64_t size, int32_t *fd, uint64_t *off);
/* aclrtIpcMemSetImportPid */
int acl__mem_ipc_allow(const char *api, const char *key, const int32_t *pids, size_t n);
/* aclrtIpcMemImportByKey: maps the key's memory into device d's range. */
int acl__mem_ipc_import(const char *api, acl__device *d, const char *key, void **out);
/* aclrtIpcMemClose: closes this process's imports of key, or, in the
 * exporter, destroys the key. */
int acl__mem_ipc_close(const char *api, const char *key);
/* aclrtFree of an imported pointer (space lock not held): closes that import. */
int acl__mem_import_close_at(const char *api, void *p);
/* 1 when p was an imported pointer closed recently (aclrtFree then succeeds). */
int acl__mem_import_was_closed(const void *p);
/* Device reset: closes the imports of device id (space lock not held). */
void acl__mem_ipc_reset(int32_t id);
/* aclFinalize: unmaps the registries of devices this process only imported from. */
void acl__mem_ipc_shutdown(void);

/* ---- translation (mem_xlate.c) ------------------------------------------------ */

/* Device dev_id's region [base, base + span) is reached by device code at
 * alias (alias == base or 0: no translation; span 0 forgets the entry). */
void acl__mem_xlate_region(int32_t dev_id, uintptr_t base, size_t span, uintptr_t alias);
/* fork child: forgets every region entry. */
void acl__mem_xlate_forget_all(void);
/* The view address (what host code holds) of an address device code was
 * given; a itself for any other address. */
uintptr_t acl__mem_view_of(uintptr_t a);

/* ---- registered host memory (host_register.c) --------------------------------- */

/* Registers [p, p + size) for device d with ACL_HOST_REG_* flags (PINNED
 * and/or MAPPED); *dev_out (may be NULL) receives the device-side address
 * when MAPPED.  Errors recorded for api. */
int acl__mem_reg_add(const char *api, acl__device *d, void *p, uint64_t size, uint32_t flags, const void *ra,
                     void **dev_out);
int acl__mem_reg_remove(const char *api, void *p);
/* The device-side address of host pointer p inside a MAPPED registration. */
int acl__mem_reg_dev_pointer(const char *api, void *p, void **dev_out);
/* Classification: 1 when a is inside a registration (host side) or in the
 * registration window (device side), with info filled. */
int acl__mem_reg_classify(uintptr_t a, acl__ptr_info *info);
/* The host address behind device-side address a; 0 when a is not one. */
int acl__mem_reg_translate(uintptr_t a, uintptr_t *host);
int acl__mem_reg_window_active(void);
/* The fault handler: the registration whose device-side range holds a
 * (best effort, no lock).  1 when found. */
int acl__mem_reg_fault_describe(uintptr_t a, uintptr_t *dev_base, uintptr_t *host, size_t *size, const char **api,
                                const char **caller);
void acl__mem_reg_atfork_child(void);
/* aclrtFreeHost: registrations inside the freed block are dropped (logged). */
void acl__mem_reg_drop_range(void *p, size_t size);

/* ---- managed memory (managed.c; the rest in rt/managed.h) ------------------------- */

/* 1 when p is a managed allocation's start (then freed), 0 otherwise; an
 * interior pointer records ACL_ERROR_RT_MEMORY_FREE and sets *rc. */
int acl__mem_managed_free(const char *api, void *p, int *rc);
int acl__mem_managed_classify(uintptr_t a, acl__ptr_info *info);
void acl__mem_managed_atfork_child(void);

#endif
