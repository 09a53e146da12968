/*
 * exception.c - exception-info callbacks and the device fault record.
 *
 * When a task ends with an error, the executor that ran it calls
 * acl__exception_task_failed (executor.c) before it goes on.  That builds an
 * aclrtExceptionInfo on its stack (task, stream, submitting thread, device,
 * error code, and for a kernel the argument block and function handle the
 * kernel noted just before failing), registers it in the handle table for
 * the duration, and calls every registered callback one after the other on
 * this thread - the vendor runs them on its completion thread, not on the
 * submitting one.  While they run, the thread counts as inside a callback
 * (callback.c's guard: synchronising calls fail instead of waiting for the
 * very task that is being reported) and device memory is closed to it, as
 * for any host code.  The info dies when the callbacks return.
 *
 * Not reported: aborts (the stream or model was stopped on purpose),
 * END_OF_SEQUENCE, and BLOCK callbacks released by an unsubscribe (a
 * host-side bookkeeping outcome, not a device task failing).
 *
 * Registrations are process-wide and survive aclFinalize / aclInit, like the
 * vendor's (they live in a static of its runtime library).
 *
 * Lock: exc_lock guards the two registrations; a leaf, never held while a
 * callback runs.  fork(): taken in the prepare step after the callback
 * registry (acl__exception_atfork, called by callback.c's fork hooks).
 */
#include "rt/exception.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/callback.h"
#include "rt/kernel.h"
#include "rt/mem_internal.h" /* acl__mem_view_of: the program's address of a device pointer */

static pthread_mutex_t exc_lock = PTHREAD_MUTEX_INITIALIZER;
static aclrtExceptionInfoCallback exc_single;   /* aclrtSetExceptionInfoCallback (exc_lock) */
static aclrtExceptionInfoCallback *exc_list;    /* aclrtExceptionInfoCallbackRegister (exc_lock) */
static int exc_n, exc_cap;                      /* exc_lock */

/* The kernel that is failing on this thread (acl__exception_note_kernel),
 * consumed by the acl__exception_task_failed that follows on the same
 * thread. */
static _Thread_local struct {
  int set;
  aclrtFuncHandle func;
  void *args;
  size_t size;
} exc_kernel;
static _Thread_local uint32_t exc_tid;
static acl__exception_dump_fn exc_dump; /* atomic */

void acl__exception_set_dump(acl__exception_dump_fn fn) { __atomic_store_n(&exc_dump, fn, __ATOMIC_RELEASE); }

void acl__exception_atfork(int phase) {
  if (phase == ACL__FORK_PREPARE) {
    pthread_mutex_lock(&exc_lock);
  } else if (phase == ACL__FORK_PARENT) {
    pthread_mutex_unlock(&exc_lock);
  } else {
    pthread_mutex_init(&exc_lock, NULL);
    exc_tid = 0; /* the child's thread has an id of its own */
  }
}

uint32_t acl__exception_thread_id(void) {
  if (exc_tid == 0)
    exc_tid = (uint32_t)syscall(SYS_gettid);
  return exc_tid;
}

void acl__exception_note_kernel(aclrtFuncHandle func, void *args, size_t args_size) {
  exc_kernel.set = 1;
  exc_kernel.func = func;
  exc_kernel.args = args;
  exc_kernel.size = args_size;
}

static int exc_reported(int rc) {
  return rc != ACL_ERROR_RT_STREAM_ABORT && rc != ACL_ERROR_RT_MODEL_ABORT_NORMAL &&
         rc != ACL_ERROR_RT_END_OF_SEQUENCE && rc != ACL_ERROR_RT_STREAM_NO_CB_REG;
}

/* A copy of a kernel's arguments as the program wrote them: the copy the
 * kernel received holds device pointers translated to the runtime's view of
 * device memory (memory.h, OPENACL_MEMORY_PROTECTION=alias), and the program
 * knows them by its own addresses.  NULL when out of memory. */
static unsigned char *exc_args_as_written(const void *args, uint32_t len) {
  unsigned char *c = malloc(len);
  if (c == NULL)
    return NULL;
  memcpy(c, args, len);
  for (size_t off = 0; off + sizeof(uintptr_t) <= len; off += sizeof(uintptr_t)) {
    uintptr_t w, v;
    memcpy(&w, c + off, sizeof w);
    if (w != 0 && (v = acl__mem_view_of(w)) != w)
      memcpy(c + off, &v, sizeof v);
  }
  return c;
}

void acl__exception_task_failed(acl__task *t, int rc) {
  int kernel = exc_kernel.set;
  struct rtExceptionInfo info;
  memset(&info, 0, sizeof(info));
  if (kernel) {
    info.func = exc_kernel.func;
    info.args = exc_kernel.args;
    info.args_len = exc_kernel.size > UINT32_MAX ? UINT32_MAX : (uint32_t)exc_kernel.size;
  }
  memset(&exc_kernel, 0, sizeof(exc_kernel));
  if (!exc_reported(rc))
    return;
  acl__stream *s = t->stream;
  acl__device *d = s->dev;
  if (atomic_load(&d->task_abort))
    return; /* aclrtDeviceTaskAbort kills tasks on purpose: not reported, as on the vendor's */
  /* what aclrtGetErrorVerbose reports: a kernel's error is a software error
   * of an AI Core task; anything else is "other" */
  atomic_store(&d->fault, kernel ? ACL_RT_ERROR_AICORE : ACL_RT_ERROR_OTHERS);
  acl__exception_dump_fn dump = __atomic_load_n(&exc_dump, __ATOMIC_ACQUIRE);
  if (dump != NULL && kernel) { /* exception dump (dump_scene aic_err_*) */
    struct rtExceptionInfo di = info;
    unsigned char *copy = info.args != NULL && info.args_len > 0 ? exc_args_as_written(info.args, info.args_len)
                                                                 : NULL;
    di.args = copy;
    di.args_len = copy != NULL ? info.args_len : 0;
    di.taskid = (uint32_t)t->seq;
    di.streamid = (uint32_t)s->id;
    di.tid = t->submit_tid;
    di.deviceid = (uint32_t)d->id;
    di.retcode = (uint32_t)rc;
    dump(&di);
    free(copy);
  }

  /* snapshot the callbacks: they run without the lock, and one may
   * unregister itself (the vendor does not wait for running callbacks) */
  aclrtExceptionInfoCallback local[16], *cbs = local;
  unsigned char *args = NULL;
  int n = 0;
  pthread_mutex_lock(&exc_lock);
  int want = exc_n + (exc_single != NULL);
  if (want > (int)(sizeof(local) / sizeof(local[0])))
    cbs = malloc((size_t)want * sizeof(*cbs));
  if (cbs != NULL) {
    if (exc_single != NULL)
      cbs[n++] = exc_single;
    for (int i = 0; i < exc_n; i++)
      cbs[n++] = exc_list[i];
  }
  pthread_mutex_unlock(&exc_lock);
  /* the failing kernel's binary may have its own (aclrtBinarySetExceptionCallback);
   * the launch's reference keeps the binary alive while this runs */
  void *bin_user = NULL;
  aclrtOpExceptionCallback bin_cb = kernel && info.func != NULL ? acl__kernel_exception_callback(info.func, &bin_user)
                                                                : NULL;
  if (cbs != NULL && n == 0 && bin_cb == NULL)
    goto out;
  if (cbs != NULL && info.args != NULL && info.args_len > 0)
    args = exc_args_as_written(info.args, info.args_len);
  if (cbs == NULL || (info.args != NULL && info.args_len > 0 && args == NULL)) {
    ACL__LOGE(ACL__MOD_RUNTIME, "out of host memory: the exception callbacks of a failed task on stream %d were not "
              "called", (int)s->id);
    goto out;
  }
  if (args != NULL)
    info.args = args;
  info.taskid = (uint32_t)t->seq;
  info.streamid = (uint32_t)s->id;
  info.tid = t->submit_tid;
  info.deviceid = (uint32_t)d->id;
  info.retcode = (uint32_t)rc;
  ACL__LOGI(ACL__MOD_RUNTIME, "task %u on stream %u of device %u failed with %d: calling %d exception callback(s)",
            info.taskid, info.streamid, info.deviceid, rc, n + (bin_cb != NULL));
  acl__handle_register(&info, ACL__H_EXCEPTION_INFO);
  acl__cb_guard g = acl__callback_guard_enter(s->id);
  acl__device_access_end(d); /* host code: device memory is closed to it */
  for (int i = 0; i < n; i++)
    cbs[i](&info);
  if (bin_cb != NULL)
    bin_cb(&info, bin_user);
  acl__device_access_begin(d);
  acl__callback_guard_leave(g);
  acl__handle_unregister(&info);
out:
  if (cbs != local)
    free(cbs);
  free(args);
}

int acl__exception_fault_of(acl__device *d) { return atomic_load(&d->fault); }

/* ---- registration ------------------------------------------------------------- */

int acl__exception_set_callback(aclrtExceptionInfoCallback cb) {
  pthread_mutex_lock(&exc_lock);
  exc_single = cb;
  pthread_mutex_unlock(&exc_lock);
  return 0;
}

int acl__exception_register(const char *api, aclrtExceptionInfoCallback cb) {
  int rc = 0;
  pthread_mutex_lock(&exc_lock);
  for (int i = 0; i < exc_n; i++)
    if (exc_list[i] == cb)
      goto out; /* registered already: kept once */
  if (exc_n == exc_cap) {
    int cap = exc_cap ? exc_cap * 2 : 8;
    aclrtExceptionInfoCallback *bigger = realloc(exc_list, (size_t)cap * sizeof(*bigger));
    if (bigger == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for one more callback");
      goto out;
    }
    exc_list = bigger;
    exc_cap = cap;
  }
  exc_list[exc_n++] = cb;
out:
  pthread_mutex_unlock(&exc_lock);
  return rc;
}

int acl__exception_unregister(const char *api, aclrtExceptionInfoCallback cb) {
  (void)api;
  pthread_mutex_lock(&exc_lock);
  for (int i = 0; i < exc_n; i++)
    if (exc_list[i] == cb) {
      memmove(&exc_list[i], &exc_list[i + 1], (size_t)(exc_n - i - 1) * sizeof(*exc_list));
      exc_n--;
      break;
    }
  pthread_mutex_unlock(&exc_lock);
  return 0; /* an unknown callback is not an error (the vendor's rule) */
}
