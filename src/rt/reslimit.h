/*
 * reslimit.h - core limits (reslimit.c): per device for the process
 * (aclrtSetDeviceResLimit), per stream (aclrtSetStreamResLimit), the
 * stream whose limits the calling thread uses (aclrtUseStreamResInCurrentThread),
 * and the process-wide device limits of aclrtDeviceSetLimit.  The public
 * entry points are in src/acl/device_limit_api.c.
 */
#ifndef OPENACL_RT_RESLIMIT_H
#define OPENACL_RT_RESLIMIT_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

/* The hardware count of a kind of core (CUBE: AI cores, VECTOR: vector
 * cores); type is 0 or 1 (checked by the caller). */
uint32_t acl__reslimit_hw(const acl__device *d, int type);
/* The device's limit for the process: set, else the hardware count. */
uint32_t acl__reslimit_device(acl__device *d, int type);
int acl__reslimit_device_set(const char *api, acl__device *d, int type, uint32_t value);
void acl__reslimit_device_reset(acl__device *d);

/* A stream's own limit: set, else the device's. */
uint32_t acl__reslimit_stream(const acl__stream *s, int type);
int acl__reslimit_stream_set(const char *api, const acl__stream *s, int type, uint32_t value);
void acl__reslimit_stream_reset(const acl__stream *s);
/* The stream is going away (callback.c's acl__callback_stream_gone). */
void acl__reslimit_stream_gone(const acl__stream *s);

/* The calling thread's limit stream. */
void acl__reslimit_thread_use(const acl__stream *s);
void acl__reslimit_thread_unuse(const acl__stream *s);
/* The calling thread's limit: its stream's own limit for `type` when set,
 * else the device's (the thread's stream's device, else `d`).  d may be
 * NULL when the thread uses a stream. */
int acl__reslimit_thread(const char *api, acl__device *d, int type, uint32_t *value);
/* 1 when the calling thread uses a stream (aclrtUseStreamResInCurrentThread). */
int acl__reslimit_thread_has_stream(void);

/* fork(): see callback.h (ACL__FORK_*). */
void acl__reslimit_atfork(int phase);

/* aclrtDeviceSetLimit / aclrtDeviceGetLimit (process-wide, all devices). */
int acl__device_limit_set(const char *api, aclrtDeviceLimit limit, size_t value);
int acl__device_limit_get(const char *api, aclrtDeviceLimit limit, size_t *value);

#endif
