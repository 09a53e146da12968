/*
 * mem_xfer.c - checking and running copies and fills (see mem_xfer.h;
 * docs/memory.md "Copies" states the rules).
 *
 * Each side of a transfer is one of: device memory (of a device: bounds
 * checked against its allocation; device code reaches it through
 * acl__mem_dev_ptr), managed memory (host and device alike: counts as
 * device memory for the kind, needs no translation), pinned or registered
 * host memory (asynchronous copies stay asynchronous), or pageable host
 * memory.  The device-side address of registered host memory is refused:
 * it is for device code only, as the vendor documents.
 */
#include "acl/mem_xfer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/kernel.h"

const char *const acl__kind_names[8] = {"ACL_MEMCPY_HOST_TO_HOST",
                                        "ACL_MEMCPY_HOST_TO_DEVICE",
                                        "ACL_MEMCPY_DEVICE_TO_HOST",
                                        "ACL_MEMCPY_DEVICE_TO_DEVICE",
                                        "ACL_MEMCPY_DEFAULT",
                                        "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
                                        "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
                                        "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE"};

int acl__kind_valid(const char *api, int kind) {
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "kind %d is not an aclrtMemcpyKind value (0..7)",
                     kind);
  return 0;
}

const char *acl__ptr_kind_text(const acl__ptr_info *in) {
  switch (in->kind) {
  case ACL__PTR_PINNED_HOST:
    return "pinned host memory";
  case ACL__PTR_DEVICE:
  case ACL__PTR_DEVICE_UNALLOCATED:
    return "device memory";
  case ACL__PTR_REGISTERED_HOST:
    return "registered host memory";
  case ACL__PTR_REGISTERED_DEVICE:
    return "the device-side address of registered host memory";
  case ACL__PTR_MANAGED:
    return "managed memory";
  default:
    return "host memory";
  }
}

/* Managed memory counts as device memory for the kind. */
static int acl__side_is_device(const acl__ptr_info *in) {
  return in->kind == ACL__PTR_DEVICE || in->kind == ACL__PTR_MANAGED;
}

/* Checks one side of a transfer: a device pointer must be inside a live
 * allocation, and `extent` bytes from it must stay inside. */
static int acl__xfer_side(const char *api, const char *name, const void *p, size_t extent, const acl__ptr_info *in) {
  if (in->kind == ACL__PTR_DEVICE_UNALLOCATED) {
    if (in->vmm == ACL__VMM_NO_ACCESS)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %p is virtual memory mapped with aclrtMemMapNoAccess, which no device may access yet. "
                       "Remedy: grant access first: aclrtMemSetAccess on the mapping with "
                       "ACL_RT_MEM_ACCESS_FLAGS_READWRITE for the device",
                       name, p);
    if (in->vmm == ACL__VMM_UNMAPPED)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %p is in the %zu-byte address range reserved at %p (aclrtReserveMemAddress), where no "
                       "physical memory is mapped. Remedy: map physical memory there first (aclrtMallocPhysical, "
                       "then aclrtMapMem)",
                       name, p, in->alloc_size, in->alloc_base);
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
  if (in->kind == ACL__PTR_REGISTERED_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is the device-side address of registered host memory (aclrtHostGetDevicePointer), "
                     "which copies may not use: it is for device code, such as a kernel argument. Remedy: copy "
                     "from or to the host pointer that was registered%s",
                     name, p, in->alloc_base == NULL ? " (and this address is not registered any more)" : "");
  if (in->kind != ACL__PTR_HOST && extent > in->alloc_size - in->offset) {
    if (in->kind == ACL__PTR_DEVICE)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "the copy runs past the end of a device allocation: %s %p is %zu bytes into the %zu-byte "
                       "allocation at %p on device %d, and %zu bytes from there go %zu bytes beyond its end",
                       name, p, in->offset, in->alloc_size, in->alloc_base, (int)in->dev->id, extent,
                       extent - (in->alloc_size - in->offset));
    const char *what = in->kind == ACL__PTR_PINNED_HOST    ? "pinned host allocation (aclrtMallocHost)"
                       : in->kind == ACL__PTR_MANAGED      ? "managed allocation (aclrtMemAllocManaged)"
                                                           : "registered host range";
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the copy runs past the end of a %s: %s %p is %zu bytes into the %zu-byte range at %p, and %zu "
                     "bytes from there go %zu bytes beyond its end",
                     what, name, p, in->offset, in->alloc_size, in->alloc_base, extent,
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

/* The side of a copy that is a global of a kernel binary: device memory of
 * its binary's device, inside its bounds (checked by the caller). */
static void acl__symbol_info(const void *p, acl__device *dev, size_t extent, acl__ptr_info *in) {
  in->kind = ACL__PTR_DEVICE;
  in->dev = dev;
  in->alloc_base = (void *)p;
  in->alloc_size = extent;
  in->offset = 0;
}

static int acl__xfer_check_body(const char *api, acl__xfer *x, int kind, size_t dst_extent, size_t src_extent,
                                int is_async, acl__device *sym_dev);

int acl__xfer_check(const char *api, acl__xfer *x, int kind, size_t dst_extent, size_t src_extent, int is_async) {
  return acl__xfer_check_body(api, x, kind, dst_extent, src_extent, is_async, NULL);
}

int acl__xfer_check_symbol(const char *api, acl__xfer *x, int kind, acl__device *sym_dev, size_t extent,
                           int is_async) {
  int rc = acl__xfer_check_body(api, x, kind, extent, extent, is_async, sym_dev);
  /* The global is reached by its own address: no device translation. */
  if (x->symbol == ACL__XFER_SYM_DST)
    x->ddev = NULL;
  else
    x->sdev = NULL;
  return rc;
}

static int acl__xfer_check_body(const char *api, acl__xfer *x, int kind, size_t dst_extent, size_t src_extent,
                                int is_async, acl__device *sym_dev) {
  acl__ptr_info di, si;
  if (sym_dev != NULL && x->symbol == ACL__XFER_SYM_DST)
    acl__symbol_info(x->dst, sym_dev, dst_extent, &di);
  else
    acl__mem_classify(x->dst, &di);
  int rc = acl__xfer_side(api, x->src ? "dst" : "devPtr", x->dst, dst_extent, &di);
  if (rc != 0)
    return rc;
  int d_dev = acl__side_is_device(&di);
  x->ddev = di.kind == ACL__PTR_DEVICE ? di.dev : NULL;
  x->pageable = di.kind == ACL__PTR_HOST;
  if (x->src == NULL)
    return 0;
  if (sym_dev != NULL && x->symbol == ACL__XFER_SYM_SRC)
    acl__symbol_info(x->src, sym_dev, src_extent, &si);
  else
    acl__mem_classify(x->src, &si);
  rc = acl__xfer_side(api, "src", x->src, src_extent, &si);
  if (rc != 0)
    return rc;
  int s_dev = acl__side_is_device(&si);
  x->sdev = si.kind == ACL__PTR_DEVICE ? si.dev : NULL;
  x->pageable = x->pageable || si.kind == ACL__PTR_HOST;
  /* Two devices are known only when both sides are device memory. */
  int both_known = x->sdev != NULL && x->ddev != NULL;

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
    ok = actual == ACL_MEMCPY_DEVICE_TO_DEVICE && (!both_known || x->sdev == x->ddev);
    break;
  case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
    ok = actual == ACL_MEMCPY_DEVICE_TO_DEVICE && (!both_known || x->sdev != x->ddev);
    break;
  default:
    ok = actual == kind;
    break;
  }
  if (!ok) {
    char dwhere[64] = "", swhere[64] = "";
    if (x->ddev != NULL)
      snprintf(dwhere, sizeof(dwhere), " of device %d", (int)x->ddev->id);
    if (x->sdev != NULL)
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
  if (both_known && x->sdev != x->ddev && !acl__peer_enabled(x->sdev, x->ddev) &&
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

/* ---- execution ---------------------------------------------------------------------- */

static void acl__xfer_run_rows(const acl__xfer *x) {
  /* Device sides through the addresses device code uses (the alias). */
  char *d = x->ddev != NULL ? acl__mem_dev_ptr(x->dst) : x->dst;
  const char *s = x->staging ? (const char *)x->staging
                  : x->sdev != NULL ? (const char *)acl__mem_dev_ptr(x->src)
                                    : (const char *)x->src;
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

void acl__xfer_now(const acl__xfer *x) {
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
  acl__xfer_waiter *waiter;
  size_t n;
  acl__xfer x[]; /* n transfers, run in order */
} acl__xfer_task;

static int acl__xfer_task_run(acl__task *t) {
  acl__xfer_task *p = acl__task_payload(t);
  /* Executors run with device access; memory of another device is covered too. */
  for (size_t i = 0; i < p->n; i++)
    acl__xfer_now(&p->x[i]);
  return 0;
}

static void acl__xfer_task_release(acl__task *t) {
  acl__xfer_task *p = acl__task_payload(t);
  for (size_t i = 0; i < p->n; i++) {
    free(p->x[i].staging);
    acl__kernel_symbol_unpin(p->x[i].pin);
  }
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

static void acl__xfer_free_staging(acl__xfer *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(x[i].staging);
    x[i].staging = NULL;
    acl__kernel_symbol_unpin(x[i].pin);
    x[i].pin = NULL;
  }
}

void acl__xfer_discard(acl__xfer *x, size_t n) { acl__xfer_free_staging(x, n); }

int acl__xfer_submit(const char *api, acl__stream *s, acl__xfer *x, size_t n) {
  int wait = 0;
  for (size_t i = 0; i < n; i++)
    if (x[i].pageable && x[i].staging == NULL)
      wait = 1;
  if (wait) {
    int rc = acl__callback_forbid(api);
    if (rc != 0) {
      acl__xfer_free_staging(x, n);
      return rc;
    }
  }
  acl__task *t = n <= (SIZE_MAX - sizeof(acl__xfer_task)) / sizeof(acl__xfer)
                     ? acl__task_new(sizeof(acl__xfer_task) + n * sizeof(acl__xfer), acl__xfer_task_run, NULL)
                     : NULL;
  if (t == NULL) {
    acl__xfer_free_staging(x, n);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  }
  const char *what = x[0].op == ACL__XFER_COPY ? "copy" : "fill";
  int ddev = x[0].ddev != NULL || x[0].symbol == ACL__XFER_SYM_DST;
  int sdev = x[0].sdev != NULL || x[0].symbol == ACL__XFER_SYM_SRC;
  const char *dir = x[0].op != ACL__XFER_COPY ? (ddev ? "device" : "host")
                    : sdev                    ? (ddev ? "device to device" : "device to host")
                                              : (ddev ? "host to device" : "host to host");
  char desc[160];
  if (n > 1)
    snprintf(desc, sizeof(desc), "batch of %zu copies", n);
  else if (x[0].height <= 1)
    snprintf(desc, sizeof(desc), "%s of %zu bytes, %s", what, x[0].width, dir);
  else
    snprintf(desc, sizeof(desc), "2d %s of %zu rows of %zu bytes, %s", what, x[0].height, x[0].width, dir);
  size_t dlen = strnlen(desc, sizeof(t->what) - 1); /* a long description is cut, which is fine */
  memcpy(t->what, desc, dlen);
  t->what[dlen] = '\0';
  t->release = acl__xfer_task_release;
  /* a capture may record it when it reads and writes the user's memory itself each time it runs: no
   * staging copy taken at submission, nobody waiting for it (graph.c) */
  t->ri_ok = !wait;
  for (size_t i = 0; i < n; i++)
    if (x[i].pageable || x[i].staging != NULL)
      t->ri_ok = 0;
  acl__xfer_task *p = acl__task_payload(t);
  p->n = n;
  memcpy(p->x, x, n * sizeof(*x));
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
                     n > 1 ? "batch of copies" : what, s->id);
  } else if (rc == ACL_ERROR_RT_STREAM_CONTEXT) { /* else a capture refused it and said why (graph.c) */
    rc = acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks: it is being destroyed", s->id);
  }
  if (wait) {
    /* (a failed submit released the task already: nothing to wait for) */
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
  }
  return rc;
}
