/*
 * managed.h - managed (unified) memory: aclrtMemAllocManaged and the
 * advice, prefetch and attribute calls (managed.c; docs/memory.md
 * "Managed memory").
 *
 * Managed memory is one range that host code and device code both use
 * directly.  On the simulated device host and device share the host's RAM,
 * so there is nothing to migrate: the runtime keeps what the vendor's
 * driver would be told (the advice per 2 MiB page, the last prefetch
 * target) so that the attribute queries answer as on a card, and a
 * prefetch populates the pages.
 */
#ifndef OPENACL_RT_MANAGED_H
#define OPENACL_RT_MANAGED_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

#define ACL__MANAGED_PAGE ((uint64_t)2 << 20)   /* the vendor's granularity */
#define ACL__MANAGED_LIMIT ((uint64_t)3 << 40)  /* per process (the vendor's 3 TB) */

/* Allocates `size` bytes rounded up to 2 MiB for device d (the device
 * pointer attributes report).  Errors recorded for api. */
int acl__managed_alloc(const char *api, acl__device *d, uint64_t size, const void *ra, void **out);

/* Checks that [ptr, ptr + size) lies inside one managed allocation. */
int acl__managed_check_range(const char *api, const void *ptr, uint64_t size);

/* Checks a location argument (type in range, the device or NUMA node
 * exists); `what` names it in messages.  0 or an error recorded for api. */
int acl__managed_check_location(const char *api, const char *what, aclrtMemManagedLocation loc);

/* aclrtMemManagedAdvise on a checked range and location. */
int acl__managed_advise(const char *api, const void *ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                        aclrtMemManagedLocation loc);

/* A prefetch task's work: records the target and populates the pages
 * (skips what was freed meanwhile).  Any thread, no lock held. */
void acl__managed_prefetch_run(const void *ptr, uint64_t size, aclrtMemManagedLocation loc);

/* One attribute over a checked range (aclrtMemManagedGetAttr). */
int acl__managed_get_attr(const char *api, aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size,
                          void *data, size_t data_size);

#endif
