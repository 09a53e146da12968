/*
 * openacl/stream_task.h - host tasks on a stream for libraries layered on
 * openacl (libhccl.so): openaclLaunchStreamTask queues a function that runs
 * in stream order on the device's executors and may park its stream while
 * another thread finishes the work, without holding an executor.
 *
 * Nothing here exists in the vendor's headers.  The task function runs with
 * device-memory access enabled; it reaches device memory through the
 * addresses openaclDevicePtr gives (identical to the host's unless the
 * memory protection mechanism is "alias").
 */
#ifndef OPENACL_STREAM_TASK_H_
#define OPENACL_STREAM_TASK_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct openaclStreamTask openaclStreamTask;

/* What a task function returns besides ACL_SUCCESS or an aclError: park the
 * stream until openaclStreamTaskWake; the function is then called again. */
#define OPENACL_STREAM_TASK_PARK (-1)

typedef int (*openaclStreamTaskFn)(openaclStreamTask *task, void *arg);
/* Called exactly once, after the last run (ran = 1) or when the task is
 * discarded unrun (ran = 0: stream aborted, destroyed by force, or stopped
 * after an earlier failure). */
typedef void (*openaclStreamTaskRelease)(void *arg, int ran);

/* Queues fn(task, arg) on stream (NULL: the current context's default
 * stream, which must belong to the current context).  `what` names the task
 * in error messages (at most 63 bytes kept).  On failure release(arg, 0)
 * has been called and the failure is recorded for aclGetRecentErrMsg. */
ACL_FUNC_VISIBILITY aclError openaclLaunchStreamTask(aclrtStream stream, const char *what, openaclStreamTaskFn fn,
                                                     openaclStreamTaskRelease release, void *arg);
/* Wakes the stream of a task whose function returned OPENACL_STREAM_TASK_PARK.
 * Any thread; a wake that comes before the park is remembered. */
ACL_FUNC_VISIBILITY void openaclStreamTaskWake(openaclStreamTask *task);
/* Renames the task (the text the stream's failure message quotes), from
 * its function, before it returns an error: "HcclAllReduce: rank 3 lost". */
ACL_FUNC_VISIBILITY void openaclStreamTaskSetWhat(openaclStreamTask *task, const char *what);

/* The address device code uses for the device pointer p (p itself unless
 * the protection mechanism translates). */
ACL_FUNC_VISIBILITY void *openaclDevicePtr(const void *p);
/* The id of the device whose memory holds [p, p + size) inside one live
 * allocation (device or managed memory), or -1 when it is not there. */
ACL_FUNC_VISIBILITY int32_t openaclDeviceOfRange(const void *p, uint64_t size);

/* Where device memory lies in the shared-memory object behind its device's
 * memory, so that another process of the user on this host may map the
 * object once (open /proc/<pid>/fd/<fd>, mmap) and reach any buffer of the
 * device by its offset, the way CUDA IPC serves NCCL inside a node
 * (libhccl.so's same-host transfers, docs/distributed.md).  The mapping is
 * the whole object, so it carries no memory protection: a library that
 * makes one must keep it to itself, and should not when the device's
 * mechanism is "pkeys" (openaclGetMemoryProtection). */
typedef struct openaclDeviceMemoryLocation {
  int32_t pid;         /* the process holding the object: getpid() */
  int32_t fd;          /* the object's descriptor in that process */
  uint64_t inode;      /* the object's inode, which tells a reused descriptor */
  uint64_t objectSize; /* the object's size in bytes */
  uint64_t offset;     /* where p lies in it */
} openaclDeviceMemoryLocation;
/* Fills *loc for [p, p + size) inside one live device allocation of this
 * process.  0, or -1 (nothing recorded) when the range is not in the
 * device's own object: not device memory, a VMM mapping (aclrtMapMem), an
 * IPC import, or a device private to this process (OPENACL_SHARED_DEVICE=0). */
ACL_FUNC_VISIBILITY int openaclDeviceMemoryLocate(const void *p, uint64_t size, openaclDeviceMemoryLocation *loc);

#ifdef __cplusplus
}
#endif

#endif
