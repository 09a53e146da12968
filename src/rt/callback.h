/*
 * callback.h - host callbacks on streams: the subscription registry behind
 * aclrtSubscribeReport / aclrtProcessReport / aclrtUnSubscribeReport,
 * aclrtLaunchCallback, aclrtLaunchHostFunc, and the guard that turns a
 * forbidden call from inside a callback into an error instead of a hang.
 *
 * docs/callbacks.md has the user-facing thread model.  In short: a launched
 * callback is a task on its stream; when the executor reaches it, the task
 * posts the callback to the report queue of the thread subscribed to the
 * stream, and that thread runs it inside aclrtProcessReport.  A BLOCK
 * callback's task parks the stream until the callback has returned.
 *
 * Lock order: the registry lock (callback.c) sits between the context lock
 * and the stream lock:
 *   process -> device -> context -> callback registry -> stream -> ...
 * callback.c takes a stream's lock (to read or write report_thread) and calls
 * acl__stream_unpark while holding the registry lock, so the runtime must
 * never call into this file while holding a stream lock, and must run tasks
 * with no stream lock held.
 */
#ifndef OPENACL_RT_CALLBACK_H
#define OPENACL_RT_CALLBACK_H

#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

/* The most threads that may be subscribed at once (the vendor's limit). */
#define ACL__CALLBACK_MAX_THREADS 1024

/* ---- guard for APIs a callback must not call ------------------------------ */

/* Nonzero while the calling thread runs a host callback (inside
 * aclrtProcessReport) or a host function (aclrtLaunchHostFunc). */
int acl__callback_in_progress(void);

/*
 * For the APIs that wait for stream work or tear it down (stream, event and
 * device synchronisation, stream destroy, device reset, aclFinalize): call it
 * first.  Returns 0 when the calling thread is not inside a callback or host
 * function.  Otherwise it records a failure of `api` that names the callback
 * and its stream ("... was called from inside a host callback, which would
 * wait for the callback itself ...") and returns the code
 * (ACL_ERROR_RT_FEATURE_NOT_SUPPORT), which the caller returns:
 *   int rc = acl__callback_forbid(__func__);
 *   if (rc != 0) return rc;
 */
int acl__callback_forbid(const char *api);

/*
 * For user code the runtime calls on its own threads outside the two
 * callback families (exception callbacks, exception.c): the calling thread
 * counts as inside a callback until leave, so acl__callback_forbid refuses
 * the calls that would wait for the task being reported.  Nests.
 */
typedef struct acl__cb_guard {
  int in;
  int32_t stream;
} acl__cb_guard;
acl__cb_guard acl__callback_guard_enter(int32_t stream_id);
void acl__callback_guard_leave(acl__cb_guard saved);

/* ---- teardown -------------------------------------------------------------- */

/*
 * A stream is going away (destroy, device reset, aclFinalize): unsubscribe it
 * (from its report thread and its host-function thread) and drop the
 * callbacks of it still waiting in a queue (BLOCK ones are released, so their
 * parked task finishes with ACL_ERROR_RT_STREAM_NO_CB_REG; host functions are
 * run by the executor instead).  Also forgets what the other per-stream
 * registries of the runtime keep for it: resource limits (reslimit.c) and
 * the registered allocator (allocator.c).
 * A BLOCK callback of the stream that a thread is running right now finishes
 * normally and wakes the stream; if the runtime discards the parked task
 * instead (its release function runs), the wake is cancelled, so the stream
 * may be freed after its tasks are released.  Call it before the stream's
 * memory is freed, without holding the stream's lock (context and device
 * locks may be held; it never blocks on a callback).  Safe to call for a
 * stream that was never subscribed, and more than once.
 */
void acl__callback_stream_gone(acl__stream *s);

/* fork() support: prepare takes the registry lock, parent releases it, child
 * re-creates it and forgets every subscription (the parent's threads do not
 * exist in the child).  They also run the fork steps of this layer's other
 * registries, whose leaf locks come right after the registry lock in the
 * order fork.c keeps (before the handle table, error-message and log locks,
 * which they take inside): exception callbacks, core limits, allocators,
 * labels.  Each takes `phase`: */
enum { ACL__FORK_PREPARE = 0, ACL__FORK_PARENT = 1, ACL__FORK_CHILD = 2 };
void acl__callback_atfork_prepare(void);
void acl__callback_atfork_parent(void);
void acl__callback_atfork_child(void);

/* ---- bodies of the public entry points (src/acl/callback_api.c) -------------
 * The entry points check their plain arguments and resolve the stream; these
 * do the rest and record failures for `api`. */

int acl__callback_subscribe(const char *api, uint64_t thread_id, acl__stream *s);
int acl__callback_unsubscribe(const char *api, uint64_t thread_id, acl__stream *s);
/* block: 0 = ACL_CALLBACK_NO_BLOCK, 1 = ACL_CALLBACK_BLOCK (checked by the caller). */
int acl__callback_launch(const char *api, acl__stream *s, aclrtCallback fn, void *user, int block);
/* timeout_ms: -1 or > 0 (checked by the caller). */
int acl__callback_process(const char *api, int32_t timeout_ms);
int acl__callback_launch_host_func(const char *api, acl__stream *s, aclrtHostFunc fn, void *args);
/* aclrtSubscribeHostFunc / aclrtUnSubscribeHostFunc / aclrtProcessHostFunc:
 * a thread of the program runs the host functions of a stream. */
int acl__callback_subscribe_host_func(const char *api, uint64_t thread_id, acl__stream *s);
int acl__callback_unsubscribe_host_func(const char *api, uint64_t thread_id, acl__stream *s);
int acl__callback_process_host_func(const char *api, int32_t timeout_ms);

#endif
