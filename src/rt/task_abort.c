/*
 * task_abort.c - aclrtDeviceTaskAbort: every stream of a device aborted at
 * once, bracketed by the task-abort callbacks (state_callback.c).
 *
 * The vendor's order, kept here: the device enters the abort state; the PRE
 * callbacks run (a nonzero return ends the abort before anything is
 * killed, and is returned); every stream of every context of the device is
 * aborted (tasks not started are discarded, kernels that run stop at their
 * next block); the abort waits until the tasks that were running have
 * ended; the POST callbacks run.  The time budget (0: none) is checked
 * between the steps and handed to the callbacks as what is left; running
 * out gives ACL_ERROR_RT_WAIT_TIMEOUT.
 *
 * Locks: device lock -> context lock -> stream lock, only to visit the
 * streams; the callbacks and the waits run with none held.
 */
#include <stdio.h>
#include <time.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/executor.h"
#include "rt/rt.h"
#include "rt/state_callback.h"
#include "rt/stream_ctl.h"
#include "rt/task_abort.h"

/* Visits every stream of every context of d (device and context locks
 * held during fn; fn may take the stream lock).  Returns the sum of fn's
 * results. */
static int acl__device_each_stream(acl__device *d, int (*fn)(acl__stream *s)) {
  int sum = 0;
  pthread_mutex_lock(&d->lock);
  acl__context *ctxs[2] = {d->default_ctx, d->user_ctx_list};
  for (int k = 0; k < 2; k++)
    for (acl__context *c = ctxs[k]; c != NULL; c = k ? c->dev_next : NULL) {
      pthread_mutex_lock(&c->lock);
      for (acl__stream *s = c->default_stream; s != NULL; s = (s == c->default_stream) ? c->streams : s->ctx_next)
        sum += fn(s);
      pthread_mutex_unlock(&c->lock);
    }
  pthread_mutex_unlock(&d->lock);
  return sum;
}

static int acl__abort_one(acl__stream *s) {
  return acl__stream_abort(s, ACL_ERROR_RT_DEVICE_TASK_ABORT, "aclrtDeviceTaskAbort") == 0;
}

/* 1 while a task the abort found has not ended (everything up to the abort
 * mark has run or been discarded). */
static int acl__abort_pending(acl__stream *s) {
  pthread_mutex_lock(&s->lock);
  int pending = s->completed < atomic_load(&s->drop_upto);
  pthread_mutex_unlock(&s->lock);
  return pending;
}

/* Milliseconds of the budget left: UINT32_MAX when there is no budget, 0
 * when it is spent. */
static uint32_t acl__abort_left(uint64_t start, uint32_t timeout_ms) {
  if (timeout_ms == 0)
    return UINT32_MAX;
  uint64_t spent = (acl__now_ns() - start) / 1000000u;
  return spent >= timeout_ms ? 0 : (uint32_t)(timeout_ms - spent);
}

int acl__device_task_abort(const char *api, acl__device *d, uint32_t timeout_ms) {
  uint64_t start = acl__now_ns();
  int rc = 0;
  char name[128] = "";
  atomic_store(&d->task_abort, 1);
  uint32_t left = acl__abort_left(start, timeout_ms);
  int32_t cb = acl__statecb_task_abort(d->id, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout_ms == 0 ? 0 : left, name,
                                       sizeof(name));
  if (cb != 0) {
    rc = acl__fail(api, cb, __FILE__, __LINE__,
                   "the task-abort callback \"%s\" returned %d at ACL_RT_DEVICE_TASK_ABORT_PRE, which stops the "
                   "abort: nothing on device %d was aborted",
                   name, (int)cb, (int)d->id);
    goto out;
  }
  int streams = acl__device_each_stream(d, acl__abort_one);
  ACL__LOGI(ACL__MOD_RUNTIME, "%s: device %d: %d stream(s) aborted", api, (int)d->id, streams);
  /* the tasks that were running end (a kernel at its next block, a host
   * function when it returns) */
  while (acl__device_each_stream(d, acl__abort_pending) > 0) {
    if (acl__abort_left(start, timeout_ms) == 0) {
      rc = acl__fail(api, ACL_ERROR_RT_WAIT_TIMEOUT, __FILE__, __LINE__,
                     "device %d: a task that was running when the abort began had not ended after %u ms (a host "
                     "function still running?). Remedy: raise the timeout (0 waits as long as it takes)",
                     (int)d->id, timeout_ms);
      goto out;
    }
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  left = acl__abort_left(start, timeout_ms);
  if (left == 0) {
    rc = acl__fail(api, ACL_ERROR_RT_WAIT_TIMEOUT, __FILE__, __LINE__,
                   "device %d: the abort used up its %u ms before the POST callbacks", (int)d->id, timeout_ms);
    goto out;
  }
  cb = acl__statecb_task_abort(d->id, ACL_RT_DEVICE_TASK_ABORT_POST, timeout_ms == 0 ? 0 : left, name,
                               sizeof(name));
  if (cb != 0)
    rc = acl__fail(api, cb, __FILE__, __LINE__,
                   "the task-abort callback \"%s\" returned %d at ACL_RT_DEVICE_TASK_ABORT_POST (device %d's tasks "
                   "were aborted)",
                   name, (int)cb, (int)d->id);
out:
  atomic_store(&d->task_abort, 0);
  return rc;
}

int acl__device_task_aborting(acl__device *d) { return atomic_load(&d->task_abort); }
