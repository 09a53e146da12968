/*
 * memory_api.c - the public memory API: allocation (device and pinned
 * host), copies, fills, queries.  docs/memory.md states the rules.
 *
 * Each entry point checks its arguments in the vendor's order, then calls a
 * body shared with its asynchronous twin (aclrtMemcpy / aclrtMemcpyAsync,
 * ...).  A copy is described once (acl__xfer), validated once
 * (acl__xfer_check: kind against the pointers, bounds, peer access), then
 * either done in the calling thread with device access enabled, or queued
 * as a task on the stream.  Asynchronous work that involves pageable host
 * memory completes before the call returns, as the vendor documents: the
 * task is queued behind the stream's earlier work and the call waits for
 * that task alone (not for the whole stream, whose errors stay for the
 * next synchronisation).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"
#include "rt/device.h"
#include "rt/rt.h"

#define ACL__PAD 32u

/* ---- allocation ----------------------------------------------------------- */

static int acl__policy_is_1g(uint32_t policy) {
  uint32_t base = policy & 0xffu;
  return (policy & 0xff00ffu) == policy &&
         (base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P);
}

/* The vendor's sizing: round up to 32, then 32 more (align32: round up
 * only; 1 GiB policies: round up to 1 GiB, no padding).  0 or 100000. */
static int acl__mem_sizing(const char *api, size_t size, uint32_t policy, int align32, size_t *charged) {
  size_t pad = align32 ? 0 : ACL__PAD;
  if (acl__policy_is_1g(policy)) {
    const size_t g = (size_t)1 << 30;
    if (size > SIZE_MAX - (g - 1))
      goto overflow;
    *charged = (size + g - 1) & ~(g - 1);
    return 0;
  }
  if (size > SIZE_MAX - 31 - pad)
    goto overflow;
  *charged = ((size + 31) & ~(size_t)31) + pad;
  return 0;
overflow:
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "size %zu is too large: rounded up to the device's granularity it does not fit in a size_t", size);
}

static int acl__malloc_body(const char *api, void **devPtr, size_t size, uint32_t policy, int align32,
                            const aclrtMallocConfig *cfg, const void *ra) {
  int rc = 0;
  if (devPtr == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "devPtr is NULL");
  if (size == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "size is 0: an allocation must be at least 1 byte");
  int32_t want_dev = -1;
  if (cfg != NULL) {
    if (cfg->numAttrs != 0 && cfg->attrs == NULL)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "cfg->numAttrs is %zu but cfg->attrs is NULL",
                       cfg->numAttrs);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
      const aclrtMallocAttribute *at = &cfg->attrs[i];
      switch (at->attr) {
      case ACL_RT_MEM_ATTR_RSV:
      case ACL_RT_MEM_ATTR_MODULE_ID:
      case ACL_RT_MEM_ATTR_VA_FLAG:
        break;
      case ACL_RT_MEM_ATTR_DEVICE_ID:
        want_dev = (int32_t)at->value.deviceId;
        break;
      default:
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "cfg->attrs[%zu].attr is %d, not an aclrtMallocAttrType value (0..3)", i, (int)at->attr);
      }
    }
  }
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  acl__device *d = c->dev;
  if (want_dev >= 0 && want_dev != d->id) {
    d = acl__device_get(api, want_dev, &rc);
    if (d == NULL)
      return rc;
  }
  size_t charged = 0;
  rc = acl__mem_sizing(api, size, policy, align32, &charged);
  if (rc != 0)
    return rc;
  return acl__mem_alloc(api, d, size, charged, policy, ra, devPtr);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, NULL, __builtin_return_address(0));
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 1, NULL, __builtin_return_address(0));
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  /* The simulated device's memory is coherent with itself: cached memory is ordinary memory. */
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, NULL, __builtin_return_address(0));
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg) {
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, cfg, __builtin_return_address(0));
}

/* Flush / invalidate: the range must lie inside one device allocation;
 * there is no cache to maintain. */
static int acl__cache_op(const char *api, void *devPtr, size_t size) {
  int rc = 0;
  if (devPtr == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "devPtr is NULL");
  if (size == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "size is 0");
  if (acl__context_current(api, &rc) == NULL)
    return rc;
  acl__ptr_info in;
  acl__mem_classify(devPtr, &in);
  if (in.kind != ACL__PTR_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "devPtr %p is not inside a live device allocation", devPtr);
  if (size > in.alloc_size - in.offset)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%zu bytes from %p run past the end of the %zu-byte allocation at %p (%zu bytes are left)", size,
                     devPtr, in.alloc_size, in.alloc_base, in.alloc_size - in.offset);
  return 0;
}

aclError aclrtMemFlush(void *devPtr, size_t size) { return acl__cache_op(__func__, devPtr, size); }
aclError aclrtMemInvalidate(void *devPtr, size_t size) { return acl__cache_op(__func__, devPtr, size); }

aclError aclrtFree(void *devPtr) {
  int rc = 0;
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  return acl__mem_free(__func__, devPtr);
}

aclError aclrtFreeWithDevSync(void *devPtr) {
  int rc = 0;
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  rc = acl__callback_forbid(__func__);
  if (rc != 0)
    return rc;
  /* Wait for the current device's streams, then free. */
  rc = acl__device_sync(__func__, c->dev, -1);
  if (rc != 0)
    return rc;
  return acl__mem_free(__func__, devPtr);
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (hostPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: an allocation must be at least 1 byte");
  return acl__mem_host_alloc(__func__, size, __builtin_return_address(0), hostPtr);
}

aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg) {
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: an allocation must be at least 1 byte");
  if (size > SIZE_MAX)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size %llu does not fit in this host's address space",
                     (unsigned long long)size);
  if (cfg != NULL && cfg->numAttrs != 0 && cfg->attrs == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cfg->numAttrs is %zu but cfg->attrs is NULL", cfg->numAttrs);
  return acl__mem_host_alloc(__func__, (size_t)size, __builtin_return_address(0), ptr);
}

aclError aclrtFreeHost(void *hostPtr) {
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (hostPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  return acl__mem_host_free(__func__, hostPtr);
}

aclError aclrtFreeHostWithDevSync(void *hostPtr) {
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  int rc = 0;
  if (hostPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  acl__context *c = acl__context_peek();
  if (c != NULL) {
    rc = acl__callback_forbid(__func__);
    if (rc != 0)
      return rc;
    rc = acl__device_sync(__func__, c->dev, -1);
    if (rc != 0)
      return rc;
  }
  return acl__mem_host_free(__func__, hostPtr);
}

/* ---- transfers: description and checks -------------------------------------- */

enum { ACL__XFER_COPY = 0, ACL__XFER_FILL8, ACL__XFER_FILL32 };

/* One copy or fill: `height` rows of `width` bytes, rows `dpitch` /
 * `spitch` apart (1 row for plain copies). */
typedef struct acl__xfer {
  int op;
  void *dst;
  const void *src;
  size_t width, height, dpitch, spitch;
  uint32_t value;
  acl__device *ddev, *sdev; /* device of each side, NULL for host */
  int pageable;             /* a side is ordinary (pageable) host memory */
  void *staging;            /* HOST_TO_BUF_TO_DEVICE: private copy of the source */
} acl__xfer;

static const char *const acl__kind_names[] = {"ACL_MEMCPY_HOST_TO_HOST",
                                              "ACL_MEMCPY_HOST_TO_DEVICE",
                                              "ACL_MEMCPY_DEVICE_TO_HOST",
                                              "ACL_MEMCPY_DEVICE_TO_DEVICE",
                                              "ACL_MEMCPY_DEFAULT",
                                              "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                                              "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                                              "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"};

static const char *acl__ptr_kind_text(const acl__ptr_info *in) {
  switch (in->kind) {
  case ACL__PTR_PINNED_HOST:
    return "pinned host memory";
  case ACL__PTR_DEVICE:
    return "device memory";
  case ACL__PTR_DEVICE_UNALLOCATED:
    return "device memory";
  default:
    return "host memory";
  }
}

/* Checks one side of a transfer: a device pointer must be inside a live
 * allocation, and `extent` bytes from it must stay inside. */
static int acl__xfer_side(const char *api, const char *name, const void *p, size_t extent, const acl__ptr_info *in) {
  if (in->kind == ACL__PTR_DEVICE_UNALLOCATED) {
    if (in->dev == NULL)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %p points into the memory of a device that is no longer open (reset, or the parent "
                       "process's before fork)",
                       name, p);
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is in device %d's memory but in no live allocation: freed already, or never "
                     "allocated",
                     name, p, (int)in->dev->id);
  }
  if ((in->kind == ACL__PTR_DEVICE || in->kind == ACL__PTR_PINNED_HOST) && extent > in->alloc_size - in->offset) {
    if (in->kind == ACL__PTR_DEVICE)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "the copy runs past the end of a device allocation: %s %p is %zu bytes into the %zu-byte "
                       "allocation at %p on device %d, and %zu bytes from there go %zu bytes beyond its end",
                       name, p, in->offset, in->alloc_size, in->alloc_base, (int)in->dev->id, extent,
                       extent - (in->alloc_size - in->offset));
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the copy runs past the end of a pinned host allocation: %s %p is %zu bytes into the "
                     "%zu-byte aclrtMallocHost allocation at %p, and %zu bytes from there go %zu bytes beyond its "
                     "end",
                     name, p, in->offset, in->alloc_size, in->alloc_base, extent,
                     extent - (in->alloc_size - in->offset));
  }
  return 0;
}

static int acl__peer_enabled(acl__device *from, acl__device *to) {
  pthread_mutex_lock(&from->lock);
  int on = (int)((from->peer_mask >> to->id) & 1u);
  pthread_mutex_unlock(&from->lock);
  return on;
}

/* Validates a copy (src != NULL) or a fill (src == NULL) whose pointers are
 * already known to be non-NULL and whose kind is in range; fills x. */
static int acl__xfer_check(const char *api, acl__xfer *x, int kind, size_t dst_extent, size_t src_extent,
                           int is_async) {
  acl__ptr_info di, si;
  acl__mem_classify(x->dst, &di);
  int rc = acl__xfer_side(api, x->src ? "dst" : "devPtr", x->dst, dst_extent, &di);
  if (rc != 0)
    return rc;
  int d_dev = di.kind == ACL__PTR_DEVICE;
  x->ddev = d_dev ? di.dev : NULL;
  x->pageable = di.kind == ACL__PTR_HOST;
  if (x->src == NULL)
    return 0;
  acl__mem_classify(x->src, &si);
  rc = acl__xfer_side(api, "src", x->src, src_extent, &si);
  if (rc != 0)
    return rc;
  int s_dev = si.kind == ACL__PTR_DEVICE;
  x->sdev = s_dev ? si.dev : NULL;
  x->pageable = x->pageable || si.kind == ACL__PTR_HOST;

  int actual = s_dev ? (d_dev ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST)
                     : (d_dev ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_HOST_TO_HOST);
  int ok;
  switch (kind) {
  case ACL_MEMCPY_DEFAULT:
    ok = 1;
    break;
  case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
    ok = actual == ACL_MEMCPY_HOST_TO_DEVICE;
    break;
  case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    ok = actual == ACL_MEMCPY_DEVICE_TO_DEVICE && x->sdev == x->ddev;
    break;
  case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
    ok = actual == ACL_MEMCPY_DEVICE_TO_DEVICE && x->sdev != x->ddev;
    break;
  default:
    ok = actual == kind;
    break;
  }
  if (!ok) {
    char dwhere[64] = "", swhere[64] = "";
    if (d_dev)
      snprintf(dwhere, sizeof(dwhere), " of device %d", (int)x->ddev->id);
    if (s_dev)
      snprintf(swhere, sizeof(swhere), " of device %d", (int)x->sdev->id);
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "kind is %s, but dst %p is %s%s and src %p is %s%s: that is a %s copy. Remedy: pass the "
                     "kind that matches the pointers (%s), or ACL_MEMCPY_DEFAULT to let the runtime infer it",
                     acl__kind_names[kind], x->dst, acl__ptr_kind_text(&di), dwhere, x->src, acl__ptr_kind_text(&si),
                     swhere, acl__kind_names[actual] + strlen("ACL_MEMCPY_"),
                     actual == ACL_MEMCPY_DEVICE_TO_DEVICE
                         ? (x->sdev == x->ddev ? "ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_INNER_DEVICE_TO_DEVICE"
                                               : "ACL_MEMCPY_DEVICE_TO_DEVICE or ACL_MEMCPY_INTER_DEVICE_TO_DEVICE")
                         : acl__kind_names[actual]);
  }
  if (actual == ACL_MEMCPY_DEVICE_TO_DEVICE && x->sdev != x->ddev && !acl__peer_enabled(x->sdev, x->ddev) &&
      !acl__peer_enabled(x->ddev, x->sdev))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "copying from device %d to device %d needs peer access between them, and it is not "
                     "enabled. Remedy: aclrtSetDevice(%d) then aclrtDeviceEnablePeerAccess(%d, 0) (check with "
                     "aclrtDeviceCanAccessPeer)",
                     (int)x->sdev->id, (int)x->ddev->id, (int)x->sdev->id, (int)x->ddev->id);
  if (is_async && actual == ACL_MEMCPY_HOST_TO_HOST)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "dst %p and src %p are both host memory: an Ascend card's copy engines cannot run a "
                     "host-to-host copy on a stream. Remedy: use memcpy, or aclrtMemcpy with "
                     "ACL_MEMCPY_HOST_TO_HOST",
                     x->dst, x->src);
  return 0;
}

/* ---- transfers: execution ------------------------------------------------------ */

static void acl__xfer_run_rows(const acl__xfer *x) {
  char *d = x->dst;
  const char *s = x->staging ? (const char *)x->staging : (const char *)x->src;
  size_t s_pitch = x->staging ? x->width : x->spitch;
  for (size_t r = 0; r < x->height; r++) {
    char *row = d + r * x->dpitch;
    if (x->op == ACL__XFER_COPY) {
      memmove(row, s + r * s_pitch, x->width);
    } else if (x->op == ACL__XFER_FILL8) {
      memset(row, (int)(x->value & 0xffu), x->width);
    } else {
      for (size_t i = 0; i + 4 <= x->width; i += 4)
        memcpy(row + i, &x->value, 4);
    }
  }
}

/* In the calling thread, with access to the devices involved. */
static void acl__xfer_now(const acl__xfer *x) {
  if (x->ddev != NULL)
    acl__device_access_begin(x->ddev);
  if (x->sdev != NULL)
    acl__device_access_begin(x->sdev);
  acl__xfer_run_rows(x);
  if (x->sdev != NULL)
    acl__device_access_end(x->sdev);
  if (x->ddev != NULL)
    acl__device_access_end(x->ddev);
}

/* A caller waiting for its own task (pageable host memory). */
typedef struct acl__xfer_waiter {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int done;
  int discarded;
} acl__xfer_waiter;

typedef struct acl__xfer_task {
  acl__xfer x;
  acl__xfer_waiter *waiter;
} acl__xfer_task;

static int acl__xfer_task_run(acl__task *t) {
  acl__xfer_task *p = acl__task_payload(t);
  /* Executors run with device access; memory of another device is covered too. */
  acl__xfer_now(&p->x);
  return 0;
}

static void acl__xfer_task_release(acl__task *t) {
  acl__xfer_task *p = acl__task_payload(t);
  free(p->x.staging);
  acl__xfer_waiter *w = p->waiter;
  int discarded = t->discarded;
  free(t);
  if (w != NULL) {
    pthread_mutex_lock(&w->lock);
    w->done = 1;
    w->discarded = discarded;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock); /* w may be gone after this */
  }
}

/* Queues x on s; waits for it when it involves pageable host memory. */
static int acl__xfer_submit(const char *api, acl__stream *s, acl__xfer *x) {
  int wait = x->pageable && x->staging == NULL;
  if (wait) {
    int rc = acl__callback_forbid(api);
    if (rc != 0) {
      free(x->staging);
      return rc;
    }
  }
  acl__task *t = acl__task_new(sizeof(acl__xfer_task), acl__xfer_task_run, NULL);
  if (t == NULL) {
    free(x->staging);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  }
  const char *what = x->op == ACL__XFER_COPY ? "copy" : "fill";
  const char *dir = x->op != ACL__XFER_COPY ? (x->ddev ? "device" : "host")
                    : x->sdev               ? (x->ddev ? "device to device" : "device to host")
                                            : (x->ddev ? "host to device" : "host to host");
  char desc[160];
  if (x->height <= 1)
    snprintf(desc, sizeof(desc), "%s of %zu bytes, %s", what, x->width, dir);
  else
    snprintf(desc, sizeof(desc), "2d %s of %zu rows of %zu bytes, %s", what, x->height, x->width, dir);
  size_t dlen = strnlen(desc, sizeof(t->what) - 1); /* a long description is cut, which is fine */
  memcpy(t->what, desc, dlen);
  t->what[dlen] = '\0';
  t->release = acl__xfer_task_release;
  acl__xfer_task *p = acl__task_payload(t);
  p->x = *x;
  acl__xfer_waiter w;
  if (wait) {
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    w.done = w.discarded = 0;
    p->waiter = &w;
  }
  int rc = acl__stream_submit(s, t);
  if (rc == 0 && wait) {
    pthread_mutex_lock(&w.lock);
    while (!w.done)
      pthread_cond_wait(&w.cond, &w.lock);
    pthread_mutex_unlock(&w.lock);
    if (w.discarded)
      rc = acl__fail(api, ACL_ERROR_RT_STREAM_ABORT, __FILE__, __LINE__,
                     "the %s on stream %d was discarded before it ran: an earlier task of the stream failed and "
                     "the stream stops on failure (ACL_STOP_ON_FAILURE), or the stream was destroyed",
                     what, s->id);
  } else if (rc != 0) {
    rc = acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks: it is being destroyed", s->id);
  }
  if (wait) {
    /* (a failed submit released the task already: nothing to wait for) */
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
  }
  return rc;
}

/* ---- copies ------------------------------------------------------------------ */

static int acl__kind_valid(const char *api, int kind) {
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "kind %d is not an aclrtMemcpyKind value (0..7)",
                     kind);
  return 0;
}

static int acl__memcpy_body(const char *api, void *dst, size_t destMax, const void *src, size_t count, int kind,
                            int async, aclrtStream stream) {
  int rc = 0;
  if (count == 0)
    return 0; /* the vendor returns at once, before any check */
  if (dst == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dst is NULL");
  if (src == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "src is NULL");
  rc = acl__kind_valid(api, kind);
  if (rc != 0)
    return rc;
  if (count > destMax)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "count %zu is larger than destMax %zu: the copy would overrun the destination", count, destMax);
  acl__stream *s = NULL;
  if (async) {
    s = acl__stream_resolve(api, stream, &rc);
    if (s == NULL)
      return rc;
  } else if (acl__context_current(api, &rc) == NULL) {
    return rc;
  }
  acl__xfer x = {ACL__XFER_COPY, dst, src, count, 1, count, count, 0, NULL, NULL, 0, NULL};
  rc = acl__xfer_check(api, &x, kind, count, count, async);
  if (rc != 0)
    return rc;
  if (!async) {
    acl__xfer_now(&x);
    return 0;
  }
  if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE && x.sdev == NULL) {
    /* The source is staged now, so the caller may reuse it at once. */
    x.staging = malloc(count);
    if (x.staging == NULL)
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to stage %zu bytes", count);
    memcpy(x.staging, src, count);
  }
  return acl__xfer_submit(api, s, &x);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  return acl__memcpy_body(__func__, dst, destMax, src, count, (int)kind, 0, NULL);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  return acl__memcpy_body(__func__, dst, destMax, src, count, (int)kind, 1, stream);
}

static int acl__memcpy2d_body(const char *api, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, int kind, int async, aclrtStream stream) {
  int rc = 0;
  if (dst == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dst is NULL");
  if (src == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "src is NULL");
  rc = acl__kind_valid(api, kind);
  if (rc != 0)
    return rc;
  if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEFAULT)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "kind %s is not supported by 2-D copies: only ACL_MEMCPY_HOST_TO_DEVICE and "
                     "ACL_MEMCPY_DEVICE_TO_HOST (or ACL_MEMCPY_DEFAULT resolving to one of them)",
                     acl__kind_names[kind]);
  if (width == 0 || height == 0)
    return 0;
  if (width > dpitch || width > spitch)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "width %zu is larger than %s %zu: rows would overlap. Remedy: pass pitches of at least the "
                     "row width",
                     width, width > dpitch ? "dpitch" : "spitch", width > dpitch ? dpitch : spitch);
  if (height - 1 > (SIZE_MAX - width) / dpitch || height - 1 > (SIZE_MAX - width) / spitch)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%zu rows of pitch %zu do not fit in the address space", height,
                     dpitch > spitch ? dpitch : spitch);
  size_t dext = dpitch * (height - 1) + width, sext = spitch * (height - 1) + width;
  acl__stream *s = NULL;
  if (async) {
    s = acl__stream_resolve(api, stream, &rc);
    if (s == NULL)
      return rc;
  } else if (acl__context_current(api, &rc) == NULL) {
    return rc;
  }
  acl__xfer x = {ACL__XFER_COPY, dst, src, width, height, dpitch, spitch, 0, NULL, NULL, 0, NULL};
  rc = acl__xfer_check(api, &x, kind, dext, sext, async);
  if (rc != 0)
    return rc;
  if ((x.sdev == NULL) == (x.ddev == NULL))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "2-D copies go between host and device memory, and dst %p and src %p are both %s memory", dst, src,
                     x.ddev ? "device" : "host");
  if (!async) {
    acl__xfer_now(&x);
    return 0;
  }
  return acl__xfer_submit(api, s, &x);
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
  return acl__memcpy2d_body(__func__, dst, dpitch, src, spitch, width, height, (int)kind, 0, NULL);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
  return acl__memcpy2d_body(__func__, dst, dpitch, src, spitch, width, height, (int)kind, 1, stream);
}

/* ---- fills ---------------------------------------------------------------------- */

/* bytes = what is written; max = the caller's bound (maxCount / memSize). */
static int acl__fill_body(const char *api, void *ptr, size_t max, size_t bytes, int op, uint32_t value, int async,
                          aclrtStream stream, const char *max_name, const char *count_text) {
  int rc = 0;
  if (ptr == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     op == ACL__XFER_FILL8 ? "devPtr" : "ptr");
  if (bytes == 0)
    return 0;
  if (bytes > max)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is larger than %s %zu: the fill would overrun the buffer", count_text, max_name, max);
  acl__stream *s = NULL;
  if (async) {
    s = acl__stream_resolve(api, stream, &rc);
    if (s == NULL)
      return rc;
  } else if (acl__context_current(api, &rc) == NULL) {
    return rc;
  }
  acl__xfer x = {op, ptr, NULL, bytes, 1, bytes, bytes, value, NULL, NULL, 0, NULL};
  rc = acl__xfer_check(api, &x, ACL_MEMCPY_DEFAULT, bytes, 0, async);
  if (rc != 0)
    return rc;
  if (!async) {
    acl__xfer_now(&x);
    return 0;
  }
  return acl__xfer_submit(api, s, &x);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  char text[96];
  snprintf(text, sizeof(text), "count %zu", count);
  return acl__fill_body(__func__, devPtr, maxCount, count, ACL__XFER_FILL8, (uint32_t)value & 0xffu, 0, NULL,
                        "maxCount", text);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  char text[96];
  snprintf(text, sizeof(text), "count %zu", count);
  return acl__fill_body(__func__, devPtr, maxCount, count, ACL__XFER_FILL8, (uint32_t)value & 0xffu, 1, stream,
                        "maxCount", text);
}

static int acl__d32_bytes(const char *api, size_t n, size_t *bytes) {
  if (n > SIZE_MAX / 4)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "N %zu words do not fit in memory", n);
  *bytes = n * 4;
  return 0;
}

aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N) {
  size_t bytes = 0;
  char text[96];
  int rc = acl__d32_bytes(__func__, N, &bytes);
  if (rc != 0)
    return rc;
  snprintf(text, sizeof(text), "4 * N (N = %zu)", N);
  return acl__fill_body(__func__, ptr, memSize, bytes, ACL__XFER_FILL32, value, 0, NULL, "memSize", text);
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) {
  size_t bytes = 0;
  char text[96];
  int rc = acl__d32_bytes(__func__, N, &bytes);
  if (rc != 0)
    return rc;
  snprintf(text, sizeof(text), "4 * N (N = %zu)", N);
  return acl__fill_body(__func__, ptr, memSize, bytes, ACL__XFER_FILL32, value, 1, stream, "memSize", text);
}

/* ---- queries ---------------------------------------------------------------------- */

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  int rc = 0;
  if (free == NULL || total == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", free == NULL ? "free" : "total");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  switch (attr) {
  case ACL_HBM_MEM_HUGE1G:
  case ACL_HBM_MEM_P2P_HUGE1G:
  case ACL_MEM_HUGE1G:
  case ACL_MEM_P2P_HUGE1G:
    /* The simulated device has no 1 GiB pages to report separately. */
    *free = *total = 0;
    return 0;
  default:
    if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G) {
      *free = *total = 0; /* an attribute the device does not have: 0 and 0, as the vendor reports */
      return 0;
    }
    /* One memory pool serves every page size and the P2P variants. */
    acl__mem_info(c->dev, free, total);
    return 0;
  }
}

aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes) {
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
  if (attributes == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "attributes is NULL");
  acl__ptr_info in;
  acl__mem_classify(ptr, &in);
  memset(attributes, 0, sizeof(*attributes));
  switch (in.kind) {
  case ACL__PTR_DEVICE:
  case ACL__PTR_DEVICE_UNALLOCATED:
    if (in.dev != NULL) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      attributes->location.id = (uint32_t)in.dev->id;
    } else {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    }
    break;
  case ACL__PTR_PINNED_HOST:
    attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
    break;
  default:
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    break;
  }
  attributes->pageSize = acl__mem_page_size(ptr);
  return 0;
}
