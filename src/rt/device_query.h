/*
 * device_query.h - what a device reports about itself beyond
 * aclrtGetDeviceInfo (device_query.c): utilisation, UUID, PCI bus id,
 * topology, and the architecture behind a SoC name.  The public entry
 * points are in src/acl/device_query_api.c; docs/devices.md says what each
 * reports on the simulated device.
 */
#ifndef OPENACL_RT_DEVICE_QUERY_H
#define OPENACL_RT_DEVICE_QUERY_H

#include <stdint.h>

#include "rt/rt.h"

/* ---- utilisation ----------------------------------------------------------
 * A device's cores are its executor threads; its utilisation is the CPU
 * time they spent over the wall time they had.  Each executor registers its
 * CPU clock when it starts and removes it before it ends. */

/* device.c, device lock held: before the executors start (0, or
 * ACL_ERROR_BAD_ALLOC) and after they have all stopped. */
int acl__devstat_open(acl__device *d);
void acl__devstat_close(acl__device *d);
/* executor.c: first and last thing an executor thread does. */
void acl__devstat_executor_enter(acl__device *d);
void acl__devstat_executor_leave(acl__device *d);
/* Percent (0..100) of the executors' time spent running since the previous
 * sample (at least 20 ms ago; a closer query gets the previous figure), or
 * since the device opened.  0 for a device that is not open.  Takes the
 * device lock. */
int32_t acl__devstat_utilization(acl__device *d);

/* ---- identity --------------------------------------------------------------- */

/* A stable UUID (version-5 layout) derived from the backend and the
 * physical id: the same device gets the same UUID in every process. */
void acl__device_uuid(const acl__device *d, unsigned char out[16]);
/* "0000:bb:00.0", bus = physical id + 1 (bus 0 is the host bridge's).
 * `out` holds at least 13 bytes. */
void acl__device_pci_bus_id(const acl__device *d, char *out, size_t size);

/* The NPU architecture of a SoC name ("dav-c220" for Ascend910B3), or
 * NULL when the name is not one openacl knows.  "openacl-cpu" (the
 * simulated device's default name) is an architecture of its own. */
const char *acl__soc_arch(const char *soc);

#endif
