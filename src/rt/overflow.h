/*
 * overflow.h - float overflow on the simulated device (overflow.c): the
 * saturation mode, a stream's overflow detection switch, and the device's
 * overflow status.  The public entry points are in src/acl/overflow_api.c.
 */
#ifndef OPENACL_RT_OVERFLOW_H
#define OPENACL_RT_OVERFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "hal/backend.h"
#include "rt/rt.h"

/* A stream's switch (aclrtSetStreamOverflowSwitch and the stream attribute
 * ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK share it: acl__stream.overflow_switch).
 * Set takes the stream's lock; get reads without it. */
void acl__overflow_switch_set(acl__stream *s, uint32_t on);
uint32_t acl__overflow_switch_get(const acl__stream *s);

/* kernel.c: runs one block of a kernel launched on a stream whose switch
 * was on, and marks the device's status when the block raised a float
 * overflow, invalid-operation or division-by-zero exception. */
int acl__overflow_run_block(acl__device *d, acl__kernel_entry entry, uint32_t block_idx, uint32_t block_num,
                            void *args, size_t args_size);

/* Queue the copy of the device's 64-byte status into device memory `out`
 * (checked by the caller), and its reset, on stream s.  0 or a recorded error. */
int acl__overflow_status_get(const char *api, acl__stream *s, void *out);
int acl__overflow_status_reset(const char *api, acl__stream *s);

#endif
