/*
 * memory_batch_api.c - copies beyond aclrtMemcpy: batches
 * (aclrtMemcpyBatch*), copy descriptors (aclrtGetMemcpyDescSize,
 * aclrtSetMemcpyDesc, aclrtMemcpyAsyncWithDesc), copies through pointers
 * held in device memory (aclrtMemcpyAsyncWithOffset) and cache maintenance
 * (aclrtCmoAsync).  docs/memory.md states the rules.
 *
 * A batch is checked whole, then runs as one task (or in the calling thread
 * for the synchronous forms) through mem_xfer.c.  Descriptors and
 * pointer-held copies are read by the device when their task runs, so the
 * task checks what it read there (live allocations, bounds) and fails the
 * stream with ACL_ERROR_RT_PARAM_INVALID when it is wrong, as a card's copy
 * engine would fault.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/mem_xfer.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "prof/prof.h"

#define ACL__BATCH_MAX 4096u

/* ---- batches ---------------------------------------------------------------------- */

/* Host or device, as an attribute's location says; -1 for neither. */
static int acl__loc_is_device(const aclrtMemLocation *l) {
  switch (l->type) {
  case ACL_MEM_LOCATION_TYPE_DEVICE:
    return 1;
  case ACL_MEM_LOCATION_TYPE_HOST:
  case ACL_MEM_LOCATION_TYPE_HOST_NUMA:
    return 0;
  default:
    return -1;
  }
}

static int acl__batch_body(const char *api, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t n,
                           aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                           int v1, int async, aclrtStream stream) {
  int rc = 0;
  if (v1 && failIndex == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "failIndex is NULL");
  if (failIndex != NULL)
    *failIndex = SIZE_MAX;
  if (sizes == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "sizes is NULL");
  if (n == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "numBatches is 0");
  int any = 0;
  for (size_t i = 0; i < n && !any; i++)
    any = sizes[i] != 0;
  if (!any)
    return 0; /* every size 0: nothing to do, as the vendor does */
  if (dsts == NULL || destMaxs == NULL || srcs == NULL || attrs == NULL || attrsIndexes == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     dsts == NULL       ? "dsts"
                     : destMaxs == NULL ? "destMaxs"
                     : srcs == NULL     ? "srcs"
                     : attrs == NULL    ? "attrs"
                                        : "attrsIndexes");
  for (size_t i = 0; i < n; i++)
    if (destMaxs[i] < sizes[i])
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "copy %zu: sizes[%zu] %zu is larger than destMaxs[%zu] %zu", i, i, sizes[i], i, destMaxs[i]);
  for (size_t k = 0; k < numAttrs && k < n; k++)
    for (size_t b = 0; b < sizeof(attrs[k].rsv); b++)
      if (attrs[k].rsv[b] != 0)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "attrs[%zu].rsv[%zu] is %u; the reserved bytes must be 0", k, b, attrs[k].rsv[b]);
  if (n > ACL__BATCH_MAX)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "numBatches %zu is more than the %u copies a batch may hold", n, ACL__BATCH_MAX);
  if (numAttrs == 0 || numAttrs > n)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "numAttrs is %zu; it must be from 1 to numBatches (%zu)", numAttrs, n);
  for (size_t k = 0; k < numAttrs; k++)
    if (attrsIndexes[k] >= n || (k == 0 ? attrsIndexes[0] != 0 : attrsIndexes[k] <= attrsIndexes[k - 1]))
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "attrsIndexes[%zu] is %zu: the indexes start at 0 and increase strictly, each below "
                       "numBatches (%zu)",
                       k, attrsIndexes[k], n);
  acl__stream *s = NULL;
  if (async) {
    s = acl__stream_resolve(api, stream, &rc);
    if (s == NULL)
      return rc;
  } else if (acl__context_current(api, &rc) == NULL) {
    return rc;
  }
  /* One direction for the whole batch, from the attributes. */
  int h2d = -1;
  for (size_t k = 0; k < numAttrs; k++) {
    int dd = acl__loc_is_device(&attrs[k].dstLoc), sd = acl__loc_is_device(&attrs[k].srcLoc);
    if (dd < 0 || sd < 0 || dd == sd) {
      if (failIndex != NULL)
        *failIndex = attrsIndexes[k];
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "attrs[%zu] has dstLoc.type %d and srcLoc.type %d: a batch copies host to device or device "
                       "to host (ACL_MEM_LOCATION_TYPE_HOST and _DEVICE)",
                       k, (int)attrs[k].dstLoc.type, (int)attrs[k].srcLoc.type);
    }
    if (h2d < 0)
      h2d = dd;
    else if (h2d != dd) {
      if (failIndex != NULL)
        *failIndex = attrsIndexes[k];
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "attrs[%zu] copies %s, but attrs[0] copies %s: a batch goes one way. Remedy: split it in two",
                       k, dd ? "host to device" : "device to host", h2d ? "host to device" : "device to host");
    }
  }
  acl__xfer *xs = calloc(n, sizeof(*xs));
  if (xs == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for %zu copies", n);
  size_t m = 0;
  int kind = h2d ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST;
  for (size_t k = 0, i = 0; i < n && rc == 0; i++) {
    while (k + 1 < numAttrs && attrsIndexes[k + 1] <= i)
      k++;
    if (sizes[i] == 0)
      continue;
    if (dsts[i] == NULL || srcs[i] == NULL) {
      rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "copy %zu: %s[%zu] is NULL", i,
                     dsts[i] == NULL ? "dsts" : "srcs", i);
      break;
    }
    /* Direction first: a pointer on the wrong side is tied to this copy. */
    acl__ptr_info di, si;
    acl__mem_classify(dsts[i], &di);
    acl__mem_classify(srcs[i], &si);
    int d_dev = di.kind == ACL__PTR_DEVICE || di.kind == ACL__PTR_MANAGED;
    int s_dev = si.kind == ACL__PTR_DEVICE || si.kind == ACL__PTR_MANAGED;
    const aclrtMemLocation *dev_loc = h2d ? &attrs[k].dstLoc : &attrs[k].srcLoc;
    const acl__ptr_info *dev_side = h2d ? &di : &si;
    if (d_dev != h2d || s_dev != !h2d ||
        (dev_side->kind == ACL__PTR_DEVICE && dev_side->dev != NULL && (uint32_t)dev_side->dev->id != dev_loc->id)) {
      if (failIndex != NULL)
        *failIndex = i;
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "copy %zu goes from %p (%s) to %p (%s), but its attribute attrs[%zu] says %s device %u. "
                     "Remedy: give each copy an attribute that matches its pointers",
                     i, srcs[i], acl__ptr_kind_text(&si), dsts[i], acl__ptr_kind_text(&di), k,
                     h2d ? "host to" : "from", dev_loc->id);
      break;
    }
    acl__xfer *x = &xs[m];
    memset(x, 0, sizeof(*x));
    x->op = ACL__XFER_COPY;
    x->dst = dsts[i];
    x->src = srcs[i];
    x->width = x->dpitch = x->spitch = sizes[i];
    x->height = 1;
    rc = acl__xfer_check(api, x, kind, sizes[i], sizes[i], async);
    if (rc == 0)
      m++;
  }
  if (rc == 0 && m > 0) {
    if (async) {
      rc = acl__xfer_submit(api, s, xs, m);
    } else {
      for (size_t j = 0; j < m; j++)
        acl__xfer_now(&xs[j]);
    }
  }
  free(xs);
  return rc;
}

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex) {
  ACL__PROF_API_SCOPE();
  return acl__batch_body(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex,
                         1, 0, NULL);
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                               aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  return acl__batch_body(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex,
                         1, 1, stream);
}

aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs) {
  ACL__PROF_API_SCOPE();
  return acl__batch_body(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL, 0, 0,
                         NULL);
}

aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs,
                                 aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  return acl__batch_body(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL, 0, 1,
                         stream);
}

/* ---- copies the device resolves when they run ------------------------------------------ */

/* Copy descriptors (device memory): what aclrtSetMemcpyDesc writes. */
#define ACL__DESC_SIZE 64u
#define ACL__DESC_MAGIC 0x4f41434c4d435059ull /* "OACLMCPY" */
typedef struct acl__memcpy_desc {
  uint64_t magic;
  uint64_t src, dst, count;
  uint32_t kind;
  uint8_t rsv[ACL__DESC_SIZE - 36];
} acl__memcpy_desc;
_Static_assert(sizeof(acl__memcpy_desc) == ACL__DESC_SIZE, "descriptor layout");

/* The kinds of copies the device resolves: between device memory. */
static int acl__devkind(const char *api, int kind) {
  int rc = acl__kind_valid(api, kind);
  if (rc != 0)
    return rc;
  if (kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "kind is %s; these copies run between device memory of one device: "
                     "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE or ACL_MEMCPY_DEVICE_TO_DEVICE",
                     acl__kind_names[kind]);
  return 0;
}

/* `bytes` of device memory of device d (any device when NULL) at p. */
static int acl__dev_span(const char *api, const char *name, const void *p, size_t bytes, acl__device *d) {
  acl__ptr_info in;
  acl__mem_classify(p, &in);
  if (in.kind != ACL__PTR_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is %s, not a live device allocation. Remedy: aclrtMalloc it on the stream's device",
                     name, p, in.kind == ACL__PTR_DEVICE_UNALLOCATED ? "freed device memory" : acl__ptr_kind_text(&in));
  if (d != NULL && in.dev != d)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is memory of device %d, but the stream is on device %d", name, p, (int)in.dev->id,
                     (int)d->id);
  if (bytes > in.alloc_size - in.offset)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p needs %zu bytes, but only %zu are left in its %zu-byte allocation at %p", name, p, bytes,
                     in.alloc_size - in.offset, in.alloc_size, in.alloc_base);
  return 0;
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (descSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "descSize is NULL");
  rc = acl__devkind(__func__, (int)kind);
  if (rc != 0)
    return rc;
  *descSize = ACL__DESC_SIZE;
  return 0;
}

aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr, size_t count,
                            void *config) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (desc == NULL || srcAddr == NULL || dstAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     desc == NULL ? "desc" : srcAddr == NULL ? "srcAddr" : "dstAddr");
  if (config != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "config is %p; it is reserved and must be NULL", config);
  if (count == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "count is 0");
  rc = acl__devkind(__func__, (int)kind);
  if (rc != 0)
    return rc;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  rc = acl__dev_span(__func__, "desc", desc, ACL__DESC_SIZE, NULL);
  if (rc != 0)
    return rc;
  /* The copy it describes, checked as aclrtMemcpy would now (and again when it runs). */
  acl__xfer x = {ACL__XFER_COPY, dstAddr, srcAddr, count, 1, count, count, 0, NULL, NULL, 0, NULL, 0, NULL};
  rc = acl__xfer_check(__func__, &x, (int)kind, count, count, 1);
  if (rc != 0)
    return rc;
  acl__memcpy_desc d;
  memset(&d, 0, sizeof(d));
  d.magic = ACL__DESC_MAGIC;
  d.src = (uint64_t)(uintptr_t)srcAddr;
  d.dst = (uint64_t)(uintptr_t)dstAddr;
  d.count = count;
  d.kind = (uint32_t)kind;
  /* Written into device memory as a host-to-device copy would write it. */
  acl__xfer w = {ACL__XFER_COPY, desc, &d, sizeof(d), 1, sizeof(d), sizeof(d), 0, NULL, NULL, 0, NULL, 0, NULL};
  rc = acl__xfer_check(__func__, &w, ACL_MEMCPY_HOST_TO_DEVICE, sizeof(d), sizeof(d), 0);
  if (rc != 0)
    return rc;
  acl__xfer_now(&w);
  return 0;
}

/* A copy whose addresses the task reads from device memory when it runs. */
typedef struct acl__devcopy_task {
  acl__device *dev;
  int kind;
  int by_desc;          /* 1: desc; 0: pointer slots */
  const void *desc;     /* by_desc */
  void **dst_slot;      /* !by_desc */
  const void **src_slot;
  size_t dst_off, src_off, count, dest_max;
} acl__devcopy_task;

/* Checks, on the executor, a device address read from device memory. */
static int acl__devcopy_side(acl__task *t, const char *name, uintptr_t p, size_t bytes, acl__device *d,
                             acl__device **dev_out) {
  acl__ptr_info in;
  acl__mem_classify((const void *)p, &in);
  if (in.kind != ACL__PTR_DEVICE || (d != NULL && in.dev != d) || bytes > in.alloc_size - in.offset) {
    snprintf(t->what, sizeof(t->what), "device copy: %s 0x%llx is no %zu-byte device range", name,
             (unsigned long long)p, bytes);
    ACL__LOGE(ACL__MOD_RUNTIME,
              "a copy resolved on the device failed: its %s address 0x%llx is %s (%zu bytes needed on device %d)",
              name, (unsigned long long)p,
              in.kind != ACL__PTR_DEVICE ? "not inside a live device allocation"
              : in.dev != d             ? "memory of another device"
                                        : "too close to the end of its allocation",
              bytes, d != NULL ? (int)d->id : -1);
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  *dev_out = in.dev;
  return 0;
}

static int acl__devcopy_run(acl__task *t) {
  acl__devcopy_task *p = acl__task_payload(t);
  uintptr_t src, dst;
  size_t count = p->count, dst_room = 0;
  if (p->by_desc) {
    acl__memcpy_desc d;
    memcpy(&d, acl__mem_dev_ptr(p->desc), sizeof(d)); /* executors have device access */
    if (d.magic != ACL__DESC_MAGIC || d.kind != (uint32_t)p->kind) {
      snprintf(t->what, sizeof(t->what), "copy by descriptor %p: %s", p->desc,
               d.magic != ACL__DESC_MAGIC ? "descriptor not set" : "kind differs");
      ACL__LOGE(ACL__MOD_RUNTIME,
                "aclrtMemcpyAsyncWithDesc: the descriptor at %p %s. Remedy: write it with aclrtSetMemcpyDesc, with "
                "the kind given here",
                p->desc, d.magic != ACL__DESC_MAGIC ? "holds no descriptor" : "was set for another kind");
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    src = (uintptr_t)d.src;
    dst = (uintptr_t)d.dst;
    count = (size_t)d.count;
    dst_room = count;
  } else {
    uintptr_t ds, ss;
    memcpy(&ds, acl__mem_dev_ptr(p->dst_slot), sizeof ds);
    memcpy(&ss, acl__mem_dev_ptr(p->src_slot), sizeof ss);
    dst = ds + p->dst_off;
    src = ss + p->src_off;
    dst_room = p->dest_max;
  }
  acl__device *dd = NULL, *sd = NULL;
  int rc = acl__devcopy_side(t, "destination", dst, dst_room, p->dev, &dd);
  if (rc == 0)
    rc = acl__devcopy_side(t, "source", src, count, p->dev, &sd);
  if (rc != 0)
    return rc;
  acl__xfer x = {ACL__XFER_COPY, (void *)dst, (const void *)src, count, 1, count, count, 0, dd, sd, 0, NULL, 0, NULL};
  acl__xfer_now(&x);
  return 0;
}

static int acl__devcopy_submit(const char *api, acl__stream *s, const acl__devcopy_task *in) {
  acl__task *t = acl__task_new(sizeof(*in), acl__devcopy_run, NULL);
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  snprintf(t->what, sizeof(t->what), "%s", in->by_desc ? "copy by descriptor" : "copy through device pointers");
  memcpy(acl__task_payload(t), in, sizeof(*in));
  int rc = acl__stream_submit(s, t);
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks: it is being destroyed",
                     (int)s->id);
  return 0;
}

aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (desc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "desc is NULL");
  rc = acl__devkind(__func__, (int)kind);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__device *d = s->ctx->dev;
  rc = acl__dev_span(__func__, "desc", desc, ACL__DESC_SIZE, d);
  if (rc != 0)
    return rc;
  acl__devcopy_task p = {d, (int)kind, 1, desc, NULL, NULL, 0, 0, 0, 0};
  return acl__devcopy_submit(__func__, s, &p);
}

aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset, const void **src, size_t count,
                                    size_t srcDataOffset, aclrtMemcpyKind kind, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (count == 0)
    return 0; /* as aclrtMemcpyAsync */
  if (dst == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", dst == NULL ? "dst" : "src");
  rc = acl__devkind(__func__, (int)kind);
  if (rc != 0)
    return rc;
  if (count > destMax)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "count %zu is larger than destMax %zu: the copy would overrun the destination", count, destMax);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__device *d = s->ctx->dev;
  rc = acl__dev_span(__func__, "dst (the device memory holding the destination address)", dst, sizeof(void *), d);
  if (rc == 0)
    rc = acl__dev_span(__func__, "src (the device memory holding the source address)", src, sizeof(void *), d);
  if (rc != 0)
    return rc;
  acl__devcopy_task p = {d, (int)kind, 0, NULL, dst, src, dstDataOffset, srcDataOffset, count, destMax};
  return acl__devcopy_submit(__func__, s, &p);
}

/* ---- cache maintenance ---------------------------------------------------------------- */

static int acl__cmo_run(acl__task *t) {
  (void)t; /* the simulated device's memory has no cache of its own to prefetch into */
  return 0;
}

aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "src is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  if ((int)cmoType < ACL_RT_CMO_TYPE_PREFETCH || (int)cmoType > ACL_RT_CMO_TYPE_FLUSH)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cmoType %d is not an aclrtCmoType value (0..3)", (int)cmoType);
  if (cmoType != ACL_RT_CMO_TYPE_PREFETCH)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "cmoType %d is not supported: only ACL_RT_CMO_TYPE_PREFETCH is, as on the vendor's current "
                     "devices",
                     (int)cmoType);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  rc = acl__dev_span(__func__, "src", src, size, s->ctx->dev);
  if (rc != 0)
    return rc;
  acl__task *t = acl__task_new(0, acl__cmo_run, NULL);
  if (t == NULL)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a task");
  snprintf(t->what, sizeof(t->what), "cache prefetch of %zu bytes", size);
  rc = acl__stream_submit(s, t);
  if (rc != 0)
    return ACL__FAIL(rc, "stream %d does not accept tasks: it is being destroyed", (int)s->id);
  return 0;
}
