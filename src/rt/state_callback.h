/*
 * state_callback.h - the process-wide registries of aclrtRegStreamStateCallback,
 * aclrtRegDeviceStateCallback and aclrtSetDeviceTaskAbortCallback
 * (state_callback.c).
 *
 * Each registry maps a name to (callback, args).  The notify functions copy
 * the registry and call every entry on the calling thread with no runtime
 * lock held by this file; callers must hold none that a callback's own API
 * calls would take (they call after the operation, or before it, outside
 * their locks).
 */
#ifndef OPENACL_RT_STATE_CALLBACK_H
#define OPENACL_RT_STATE_CALLBACK_H

#include "acl/acl.h"
#include "rt/rt.h"

typedef enum acl__statecb_kind {
  ACL__STATECB_STREAM = 0,   /* aclrtStreamStateCallback */
  ACL__STATECB_DEVICE,       /* aclrtDeviceStateCallback */
  ACL__STATECB_TASK_ABORT,   /* aclrtDeviceTaskAbortCallback */
  ACL__STATECB_KINDS
} acl__statecb_kind;

/* Registers (fn != NULL) or removes (fn == NULL) `name`; failures recorded
 * for api: NULL or empty name (100000), a name already registered
 * (107000), out of memory. */
int acl__statecb_register(const char *api, acl__statecb_kind kind, const char *name, void (*fn)(void), void *args);

void acl__statecb_stream(acl__stream *s, aclrtStreamState state);
void acl__statecb_device(int32_t device_id, aclrtDeviceState state);
/* Calls every task-abort callback; returns the first nonzero value one
 * returned (the others after it are not called; its name is copied to
 * failed_name), else 0. */
int32_t acl__statecb_task_abort(int32_t device_id, aclrtDeviceTaskAbortStage stage, uint32_t timeout_ms,
                                char *failed_name, size_t cap);

#endif
