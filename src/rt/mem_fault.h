/*
 * mem_fault.h - explaining a host access to device memory.
 *
 * When host code dereferences a device pointer, the backend's protection
 * makes it fault.  The SIGSEGV handler here recognises a fault inside a
 * device region and prints which device, which allocation, which API made
 * it and from where, then lets the process die of the signal as it would
 * have.  The same goes for the device-side address of registered host
 * memory (host_register.c), and for device code that followed a device
 * pointer the alias mechanism could not translate.  A signal handler may
 * not take locks or allocate: it reads the
 * region table (atomics) and then looks the allocation up in the device's
 * allocation tree without the allocator's lock (acl__mem_fault_describe, in
 * memory.c) - a best-effort read that costs allocations nothing.
 */
#ifndef OPENACL_RT_MEM_FAULT_H
#define OPENACL_RT_MEM_FAULT_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

/* Installs the handler once per process (chaining the previous one). */
void acl__mem_fault_install(void);
/* Device `dev_id`'s region is [base, base + span); span 0 forgets it.
 * `mech` names the protection mechanism ("pkeys", "alias", "off"; a string
 * that lives as long as the process); has_access (may be NULL) tells
 * device threads from host threads, async-signal-safe. */
void acl__mem_fault_region(int32_t dev_id, uintptr_t base, size_t span, const char *mech, int (*has_access)(void));
/* The registration window (host_register.c): [base, base + span). */
void acl__mem_fault_window(uintptr_t base, size_t span);
/* memory.c, for the handler only: the live allocation of device dev that
 * contains a, read without the allocator's lock (async-signal-safe: pointer
 * walks in node memory that stays mapped).  1 when found. */
int acl__mem_fault_describe(int dev, uintptr_t a, uintptr_t *addr, size_t *size, const char **api,
                            const char **caller);

/* memory.c, for the handler only, alias mechanism: opens (read-write) the
 * pages of the view under the live allocation of device dev that contains
 * a, so device code that followed an untranslated pointer can go on.  1 and
 * the opened range when done. */
int acl__mem_fault_open(int dev, uintptr_t a, uintptr_t *lo, uintptr_t *hi);

/* A stable name for a code address ("main+0x1c", "libfoo.so+0x2a0"); the
 * string lives as long as the process.  Used for "made by ... from ...". */
const char *acl__mem_caller_name(const void *ret_addr);

/* fork child: re-creates the lock of the caller-name cache. */
void acl__mem_fault_atfork_child(void);

/* Set by the fault handler when it has a note for the log (device code
 * reached memory through an untranslated address, alias mechanism); the
 * executor calls acl__mem_fault_log_note after a task when it is set. */
extern atomic_int acl__mem_fault_note_pending;
void acl__mem_fault_log_note(void);

#endif
