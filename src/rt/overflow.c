/*
 * overflow.c - float overflow detection on the simulated device.
 *
 * The device computes IEEE floats: an overflow gives an infinity, an
 * invalid operation a NaN (the vendor's INFNAN mode, the default of its
 * recent chips).  Saturation mode cannot be had: kernels are the program's
 * own C code, and nothing can make their arithmetic saturate, so
 * aclrtSetDeviceSatMode(SATURATION) is refused as on a chip that lacks it.
 *
 * Detection is real: when a stream's overflow switch is on at the time a
 * kernel is launched, each of its blocks runs with the thread's float
 * exception flags cleared, and a block that leaves FE_OVERFLOW, FE_INVALID
 * or FE_DIVBYZERO raised marks the device's status (flags are per thread,
 * so blocks on several executors do not disturb each other).  The status
 * is the device's (the vendor's is per process on A2/A3/950) and is read and
 * cleared by stream tasks, in stream order, like the vendor's.
 */
#include "rt/overflow.h"

#include <fenv.h>
#include <stdio.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/memory.h"

#define ACL__OVERFLOW_STATUS_BYTES 64

void acl__overflow_switch_set(acl__stream *s, uint32_t on) {
  pthread_mutex_lock(&s->lock);
  __atomic_store_n(&s->overflow_switch, on, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&s->lock);
}

uint32_t acl__overflow_switch_get(const acl__stream *s) {
  return __atomic_load_n(&s->overflow_switch, __ATOMIC_RELAXED);
}

int acl__overflow_run_block(acl__device *d, acl__kernel_entry entry, uint32_t block_idx, uint32_t block_num,
                            void *args, size_t args_size) {
  const int watched = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;
  feclearexcept(watched);
  int st = entry(block_idx, block_num, args, args_size);
  if (fetestexcept(watched) != 0)
    atomic_store(&d->overflow, 1);
  return st;
}

/* ---- status tasks ------------------------------------------------------------------ */

static int ov_get_run(acl__task *t) {
  void *out = *(void **)acl__task_payload(t);
  /* the layout the vendor's samples read: the first word is 0 when nothing
   * overflowed; the rest is reserved (zero) */
  uint32_t status[ACL__OVERFLOW_STATUS_BYTES / 4];
  memset(status, 0, sizeof(status));
  status[0] = atomic_load(&t->stream->dev->overflow) ? 1u : 0u;
  /* device code reaches device memory through the runtime's view of it */
  memcpy(acl__mem_dev_ptr(out), status, sizeof(status));
  return 0;
}

static int ov_reset_run(acl__task *t) {
  atomic_store(&t->stream->dev->overflow, 0);
  return 0;
}

static int ov_submit(const char *api, acl__stream *s, acl__task *t) {
  int32_t id = s->id;
  int rc = acl__stream_submit(s, t);
  if (rc != 0)
    rc = acl__fail(api, rc, __FILE__, __LINE__, "stream %d no longer accepts work (it is being destroyed)", (int)id);
  return rc;
}

int acl__overflow_status_get(const char *api, acl__stream *s, void *out) {
  acl__task *t = acl__task_new(sizeof(void *), ov_get_run, "overflow status copy");
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  *(void **)acl__task_payload(t) = out;
  return ov_submit(api, s, t);
}

int acl__overflow_status_reset(const char *api, acl__stream *s) {
  acl__task *t = acl__task_new(0, ov_reset_run, "overflow status reset");
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  return ov_submit(api, s, t);
}
