/*
 * device.c - the device table and device lifetime.
 *
 * aclInit builds the table from discovery (acl__rt_init); nothing is opened
 * then.  The first aclrtSetDevice or aclrtCreateContext of a device opens it:
 * backend state, memory region, executor threads.  The default context is
 * made by aclrtSetDevice and shared by every thread that sets the device;
 * when the last aclrtSetDevice is reset it is released (its streams
 * synchronised, leaked objects logged), and when no user context remains
 * the device closes: executors stop, memory is released, the backend
 * closes.  aclFinalize does the same for every device still open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/graph.h"
#include "rt/ipc_signal.h"
#include "rt/mem_internal.h"
#include "rt/device_query.h"
#include "rt/executor.h"
#include "rt/kernel.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "rt/state_callback.h"

static struct {
  atomic_int live;              /* 1 between acl__rt_init and acl__rt_shutdown */
  int forked;                   /* a fork child of an initialised process, not initialised again */
  int count;
  acl__device *devices;
  char visibility_error[256];
  int32_t default_device;
  int physical_count;
} acl__rt;

/* ---- table ------------------------------------------------------------------ */

int acl__rt_init(const acl__hal_info *hal, int32_t default_device) {
  int n = hal->visible_count;
  acl__device *devs = n > 0 ? calloc((size_t)n, sizeof(*devs)) : NULL;
  if (n > 0 && devs == NULL)
    return ACL_ERROR_BAD_ALLOC;
  for (int i = 0; i < n; i++) {
    acl__device *d = &devs[i];
    d->id = i;
    d->phys_id = hal->user_to_physical[i];
    d->logic_id = hal->user_to_logical[i];
    d->ops = hal->ops;
    d->props = hal->props[d->phys_id];
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_init(&d->sched_lock, NULL);
    pthread_cond_init(&d->sched_cond, NULL);
  }
  acl__rt.devices = devs;
  acl__rt.count = n;
  acl__rt.physical_count = hal->physical_count;
  acl__rt.default_device = default_device;
  snprintf(acl__rt.visibility_error, sizeof(acl__rt.visibility_error), "%s", hal->visibility_error);
  acl__rt.forked = 0;
  atomic_store(&acl__rt.live, 1);
  return 0;
}

int acl__device_count(void) { return acl__rt.count; }

acl__device *acl__device_peek(int32_t id) {
  if (!atomic_load_explicit(&acl__rt.live, memory_order_acquire) || id < 0 || id >= acl__rt.count)
    return NULL;
  return &acl__rt.devices[id];
}

int acl__rt_live(const char *api, int *rc) {
  if (atomic_load_explicit(&acl__rt.live, memory_order_acquire))
    return 1;
  if (acl__rt.forked)
    *rc = acl__fail(api, ACL_ERROR_UNINITIALIZE, __FILE__, __LINE__,
                    "this process was forked from one that had initialised openacl, and a forked child "
                    "inherits nothing. Remedy: call aclInit in the child first");
  else
    *rc = acl__fail(api, ACL_ERROR_UNINITIALIZE, __FILE__, __LINE__,
                    "openacl is not initialised. Remedy: call aclInit first");
  return 0;
}

int acl__rt_visibility_error(const char *api) {
  return acl__fail(api, ACL_ERROR_RT_INVALID_DEVICEID, __FILE__, __LINE__,
                   "no device is visible because %s. Remedy: fix the variable, or unset it to see every device",
                   acl__rt.visibility_error);
}

acl__device *acl__device_get(const char *api, int32_t id, int *rc) {
  if (!acl__rt_live(api, rc))
    return NULL;
  if (acl__rt.visibility_error[0] != '\0') {
    *rc = acl__rt_visibility_error(api);
    return NULL;
  }
  if (id < 0 || id >= acl__rt.count) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_DEVICEID, __FILE__, __LINE__,
                    "device %d does not exist: this process sees %d device%s (ids 0..%d)%s. Remedy: pass an id "
                    "below aclrtGetDeviceCount(); OPENACL_DEVICE_COUNT sets how many simulated devices exist",
                    (int)id, acl__rt.count, acl__rt.count == 1 ? "" : "s", acl__rt.count - 1,
                    acl__rt.count < acl__rt.physical_count ? " after ASCEND_VISIBLE_DEVICES / ASCEND_RT_VISIBLE_DEVICES"
                                                           : "");
    return NULL;
  }
  return &acl__rt.devices[id];
}

/* ---- open / close -------------------------------------------------------------- */

int acl__device_ensure_open(const char *api, acl__device *d) {
  pthread_mutex_lock(&d->lock);
  int rc = 0;
  if (d->open)
    goto out;
  if (d->ops->device_open(d->phys_id, &d->props, &d->bdev) != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_DEV_SETUP_ERROR, __FILE__, __LINE__,
                   "the %s backend could not open device %d", d->ops->name, (int)d->id);
    goto out;
  }
  rc = acl__mem_open(d);
  if (rc != 0) {
    rc = acl__fail(api, rc, __FILE__, __LINE__,
                   "device %d: its %llu-byte memory region could not be reserved. Remedy: lower "
                   "OPENACL_DEVICE_MEMORY",
                   (int)d->id, (unsigned long long)d->props.memory_capacity);
    d->ops->device_close(d->bdev);
    d->bdev = NULL;
    goto out;
  }
  rc = acl__devstat_open(d);
  if (rc == 0 && (rc = acl__sched_start(d)) != 0)
    acl__devstat_close(d);
  if (rc != 0) {
    rc = acl__fail(api, rc, __FILE__, __LINE__, "device %d: its %d executor threads could not be started",
                   (int)d->id, d->props.executor_threads);
    acl__mem_close(d);
    d->ops->device_close(d->bdev);
    d->bdev = NULL;
    goto out;
  }
  d->open = 1;
  ACL__LOGI(ACL__MOD_RUNTIME, "device %d (%s backend, physical %d) opened: %llu bytes of memory, %d executors",
            (int)d->id, d->ops->name, (int)d->phys_id, (unsigned long long)d->props.memory_capacity,
            d->props.executor_threads);
out:
  pthread_mutex_unlock(&d->lock);
  return rc;
}

/* Closes an open device with no contexts left (device lock held). */
static void acl__device_close_locked(acl__device *d) {
  if (!d->open)
    return;
  acl__sched_stop(d);
  acl__devstat_close(d);
  /* what the device recorded about its tasks goes with it */
  atomic_store(&d->overflow, 0);
  atomic_store(&d->fault, 0);
  acl__mem_reset(d);
  acl__mem_close(d);
  d->ops->device_close(d->bdev);
  d->bdev = NULL;
  d->open = 0;
  d->peer_mask = 0;
  ACL__LOGI(ACL__MOD_RUNTIME, "device %d closed", (int)d->id);
}

void acl__device_access_begin(acl__device *d) {
  if (d->bdev != NULL)
    d->ops->access_begin(d->bdev);
}

void acl__device_access_end(acl__device *d) {
  if (d->bdev != NULL)
    d->ops->access_end(d->bdev);
}

/* ---- set / reset -------------------------------------------------------------- */

int acl__device_set(const char *api, acl__device *d) {
  /* device-state callbacks (state_callback.c), with no lock held: SET_PRE
   * before the set that makes the default context, SET_POST after every
   * set that succeeds */
  pthread_mutex_lock(&d->lock);
  int first = d->default_ctx == NULL;
  pthread_mutex_unlock(&d->lock);
  if (first)
    acl__statecb_device(d->id, ACL_RT_DEVICE_STATE_SET_PRE);
  int rc = acl__device_ensure_open(api, d);
  if (rc != 0)
    return rc;
  acl__stream *made = NULL;
  pthread_mutex_lock(&d->lock);
  if (d->default_ctx == NULL) {
    d->default_ctx = acl__context_new(d, 1);
    if (d->default_ctx == NULL) {
      if (d->set_count == 0 && d->user_contexts == 0)
        acl__device_close_locked(d);
      pthread_mutex_unlock(&d->lock);
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the default context");
    }
    made = d->default_ctx->default_stream;
  }
  d->set_count++;
  acl__context *c = d->default_ctx;
  pthread_mutex_unlock(&d->lock);
  acl__context_set_current(c);
  if (made != NULL)
    acl__statecb_stream(made, ACL_RT_STREAM_STATE_CREATE_POST);
  acl__statecb_device(d->id, ACL_RT_DEVICE_STATE_SET_POST);
  return 0;
}

/* Drops `n` set counts (all when force); at zero releases the default
 * context and, when no user context is left, closes the device. */
int acl__device_reset(const char *api, acl__device *d, int force) {
  pthread_mutex_lock(&d->lock);
  if (d->set_count == 0) {
    pthread_mutex_unlock(&d->lock);
    return acl__fail(api, ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, __FILE__, __LINE__,
                     "device %d is not set in this process (aclrtSetDevice was not called, or every call was "
                     "already reset). Remedy: call aclrtResetDevice once per aclrtSetDevice",
                     (int)d->id);
  }
  d->set_count = force ? 0 : d->set_count - 1;
  acl__context *c = NULL;
  if (d->set_count == 0) {
    c = d->default_ctx;
    d->default_ctx = NULL;
  }
  pthread_mutex_unlock(&d->lock);
  if (c == NULL)
    return 0;
  if (acl__context_peek() == c)
    acl__context_set_current(NULL);
  acl__statecb_device(d->id, ACL_RT_DEVICE_STATE_RESET_PRE); /* state_callback.c, no lock held */
  acl__context_release(c, api);
  pthread_mutex_lock(&d->lock);
  if (d->set_count == 0 && d->default_ctx == NULL && d->user_contexts == 0)
    acl__device_close_locked(d);
  pthread_mutex_unlock(&d->lock);
  acl__statecb_device(d->id, ACL_RT_DEVICE_STATE_RESET_POST);
  return 0;
}

/* A user context went away (context.c); closes the device if it was the last user. */
void acl__device_context_gone(acl__device *d) {
  pthread_mutex_lock(&d->lock);
  d->user_contexts--;
  if (d->set_count == 0 && d->default_ctx == NULL && d->user_contexts == 0)
    acl__device_close_locked(d);
  pthread_mutex_unlock(&d->lock);
}

int32_t acl__rt_default_device(void) { return acl__rt.default_device; }

/* ---- process lifetime ------------------------------------------------------------ */

void acl__rt_shutdown(void) {
  if (!atomic_load(&acl__rt.live))
    return;
  atomic_store(&acl__rt.live, 0);
  /* (0. the models still loaded went first: the API layer unloads them before calling this) */
  /* 1. every context: streams drained (bounded) and destroyed, leaks logged */
  for (int i = 0; i < acl__rt.count; i++) {
    acl__device *d = &acl__rt.devices[i];
    if (!d->open)
      continue;
    acl__contexts_release_all(d, "aclFinalize");
    pthread_mutex_lock(&d->lock);
    if (d->set_count > 0)
      ACL__LOGW(ACL__MOD_RUNTIME, "aclFinalize: device %d was still set %d time(s); reset it", (int)d->id,
                d->set_count);
    d->set_count = 0;
    acl__context *c = d->default_ctx;
    d->default_ctx = NULL;
    pthread_mutex_unlock(&d->lock);
    if (c != NULL)
      acl__context_release(c, "aclFinalize");
  }
  /* 2. kernel binaries no launch uses any more; the signals shared with
   * other processes (their bell thread, the host-wide registry) */
  acl__kernel_finalize();
  acl__ipcsig_shutdown();
  /* 3. devices: executors, memory (leaks logged), backend */
  for (int i = 0; i < acl__rt.count; i++) {
    acl__device *d = &acl__rt.devices[i];
    pthread_mutex_lock(&d->lock);
    acl__device_close_locked(d);
    pthread_mutex_unlock(&d->lock);
    pthread_mutex_destroy(&d->lock);
    pthread_mutex_destroy(&d->sched_lock);
    pthread_cond_destroy(&d->sched_cond);
  }
  acl__mem_ipc_shutdown();
  acl__context_set_current(NULL);
  free(acl__rt.devices);
  acl__rt.devices = NULL;
  acl__rt.count = 0;
  acl__rt.visibility_error[0] = '\0';
}

void acl__rt_atfork_child(void) {
  /* The parent's devices, executors and memory are not ours: forget them
   * (the memory mappings stay until exit; the threads do not exist here). */
  for (int i = 0; i < acl__rt.count; i++)
    acl__sched_forget(&acl__rt.devices[i]);
  free(acl__rt.devices);
  acl__rt.devices = NULL;
  acl__rt.count = 0;
  atomic_store(&acl__rt.live, 0);
  acl__rt.forked = 1;
  acl__context_set_current(NULL);
}
