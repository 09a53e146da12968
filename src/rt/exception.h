/*
 * exception.h - what happens when a task fails (exception.c): the
 * exception-info callbacks (aclrtSetExceptionInfoCallback,
 * aclrtExceptionInfoCallbackRegister / Unregister) and the details they
 * read (aclrt*FromExceptionInfo), and the device's fault record behind
 * aclrtGetErrorVerbose.
 *
 * The runtime tells this file about failures through three small hooks:
 *   acl__exception_thread_id    the submitting thread's id, stored in each
 *                               task by acl__stream_submit (executor.c);
 *   acl__exception_note_kernel  a kernel launch that is about to fail
 *                               records its function and arguments
 *                               (kernel.c, on the thread that ran it);
 *   acl__exception_task_failed  the executor saw a task end with an error
 *                               (executor.c, no runtime lock held, the
 *                               task still alive).
 * Lock order: the callback list's lock (exception.c) is a leaf; callbacks
 * are called with no lock held.
 */
#ifndef OPENACL_RT_EXCEPTION_H
#define OPENACL_RT_EXCEPTION_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

/* The layout behind the opaque aclrtExceptionInfo.  The vendor's starts
 * with the same five words; the rest is openacl's. */
struct rtExceptionInfo {
  uint32_t taskid;        /* the task's position in its stream (as aclrtGetThreadLastTaskId counts) */
  uint32_t streamid;      /* aclrtStreamGetId */
  uint32_t tid;           /* the submitting thread (Linux thread id) */
  uint32_t deviceid;      /* user device id */
  uint32_t retcode;       /* the error code the stream reports */
  void *args;             /* kernel tasks: a copy of the arguments, device pointers as the program wrote them */
  uint32_t args_len;
  aclrtFuncHandle func;   /* kernel tasks: the function launched */
};

/* The calling thread's id as exception info reports it (cached per thread). */
uint32_t acl__exception_thread_id(void);
void acl__exception_note_kernel(aclrtFuncHandle func, void *args, size_t args_size);
void acl__exception_task_failed(acl__task *t, int rc);

/* Exception dump (src/dump/dump_exception.c) registers here to see every
 * failed kernel launch: called on the executor thread after the fault is
 * recorded, before the callbacks, with the info filled in (args: a copy as
 * the program wrote them, or NULL).  NULL unregisters. */
typedef void (*acl__exception_dump_fn)(const struct rtExceptionInfo *info);
void acl__exception_set_dump(acl__exception_dump_fn fn);

/* The public entry points' bodies (src/acl/exception_api.c); failures are
 * recorded for `api`. */
int acl__exception_set_callback(aclrtExceptionInfoCallback cb);
int acl__exception_register(const char *api, aclrtExceptionInfoCallback cb);
int acl__exception_unregister(const char *api, aclrtExceptionInfoCallback cb);

/* fork(): phase ACL__FORK_PREPARE / _PARENT / _CHILD (callback.h); called by
 * callback.c's fork hooks, after the callback registry's lock. */
void acl__exception_atfork(int phase);

/* aclrtGetErrorVerbose's record of a device (exception.c). */
int acl__exception_fault_of(acl__device *d);

#endif
