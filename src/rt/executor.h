/* executor.h - the scheduler's interface to the rest of the runtime (see executor.c). */
#ifndef OPENACL_RT_EXECUTOR_H
#define OPENACL_RT_EXECUTOR_H

#include <time.h>

#include "rt/rt.h"

enum { ACL__STREAM_IDLE = 0, ACL__STREAM_READY, ACL__STREAM_RUNNING, ACL__STREAM_PARKED, ACL__STREAM_STOPPED };

/* Starts / stops the device's executor threads (device lock held). */
int acl__sched_start(acl__device *d);
void acl__sched_stop(acl__device *d);
void acl__sched_forget(acl__device *d);
/* Stream lock held: if the stream waits in the ready list, claim it and run
 * its tasks in the calling thread until `until` has completed or it parks.
 * Returns 1 when it ran something. */
int acl__stream_help(acl__stream *s, uint64_t until);
/* Stream lock held: wakes a parked stream and runs its tasks in the calling
 * thread until it parks again, empties, or reaches a task only an
 * executor runs (then an executor takes over); a stream not parked is
 * woken as acl__stream_unpark does.  For a thread that has nothing better
 * to do (the bell thread, ipc_signal.c).  Returns 1 when it ran something. */
int acl__stream_resume_here(acl__stream *s);
/* The CLOCK_REALTIME time timeout_ms from now, for pthread_cond_timedwait (stream.c). */
void acl__deadline(struct timespec *ts, int32_t timeout_ms);
/* Removes a stream from the ready list (stream lock held); 1 if it was there. */
int acl__stream_unlist(acl__stream *s);
/* Puts a READY stream on its device's ready list and wakes an executor
 * (stream lock held). */
void acl__sched_push(acl__stream *s);
/* 1 when the device has an executor with nothing to run: a task queued now
 * would start at once, as on an idle card. */
int acl__sched_has_idle(acl__device *d);
/* CLOCK_MONOTONIC nanoseconds. */
uint64_t acl__now_ns(void);

/* stream.c: an orphan (destroyed by force) whose last user just let go
 * becomes dead; its id goes back at once (stream lock held). */
void acl__stream_settle_locked(acl__stream *s);
/* Stream lock held, no task of the stream running (idle, parked, stopped):
 * unlinks the head tasks that are to be dropped (aborted, destroyed, or
 * behind a failure in stop mode; only the first with head_only) and returns
 * them for acl__tasks_discard, which the caller calls without the lock. */
acl__task *acl__stream_take_dropped_locked(acl__stream *s, int head_only);
void acl__tasks_discard(acl__task *list);

/* The id of the last task the calling thread queued on a stream it created
 * (aclrtGetThreadLastTaskId); 0 when none. */
uint32_t acl__thread_last_task_id(void);

#endif
