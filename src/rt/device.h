/* device.h - device and context internals shared by the runtime files (device.c, context.c). */
#ifndef OPENACL_RT_DEVICE_H
#define OPENACL_RT_DEVICE_H

#include "rt/rt.h"

/* 1 when the runtime is up (between aclInit and aclFinalize); else records
 * ACL_ERROR_UNINITIALIZE for api into *rc and returns 0. */
int acl__rt_live(const char *api, int *rc);
int acl__rt_visibility_error(const char *api);
/* The device with user id `id`, or NULL (not initialised, or no such
 * device) without recording anything: for lookups by other ids. */
acl__device *acl__device_peek(int32_t id);
int32_t acl__rt_default_device(void);

int acl__device_set(const char *api, acl__device *d);
/* Synchronises every stream of every context of device d, within timeout_ms
 * overall (-1: forever); failures are recorded as failures of `api`. */
int acl__device_sync(const char *api, acl__device *d, int32_t timeout_ms);
int acl__device_reset(const char *api, acl__device *d, int force);
void acl__device_context_gone(acl__device *d);

/* context.c */
acl__context *acl__context_new(acl__device *d, int is_default);
/* Synchronises and destroys a context's streams and events (logging any
 * the user left), then the context itself. */
void acl__context_release(acl__context *c, const char *api);
/* aclFinalize: releases every user context of a device. */
void acl__contexts_release_all(acl__device *d, const char *api);
void acl__context_set_current(acl__context *c);
/* aclrtCreateContext / aclrtDestroyContext (failures recorded for api). */
int acl__context_create_user(const char *api, acl__device *d, acl__context **out);
int acl__context_destroy_user(const char *api, acl__context *c);
/* The context's list of user streams (O(1) both ways); remove returns 0
 * when the stream was not in the list (another thread took it). */
void acl__context_add_stream(acl__context *c, acl__stream *s);
int acl__context_remove_stream(acl__context *c, acl__stream *s);

/* stream.c */
/* The checks every synchronising call makes first: timeout_ms is -1 or >= 0
 * (else 107000), and the caller is not inside a host callback (else the
 * callback guard's error).  0 when the call may wait. */
int acl__sync_precheck(const char *api, int32_t timeout_ms);
acl__stream *acl__stream_new(acl__context *c, uint32_t priority, uint32_t flags, int is_default);
/* Waits (bounded) for the stream's work, discards what is left, frees it. */
void acl__stream_destroy(acl__stream *s, int force, const char *api);

/* event.c */
void acl__event_destroy(acl__event *e);

#endif
