/*
 * memory_api.c - the public memory API: allocation (device and pinned
 * host), copies, fills, queries.  docs/memory.md states the rules.
 *
 * Each entry point checks its arguments in the vendor's order, then calls a
 * body shared with its asynchronous twin (aclrtMemcpy / aclrtMemcpyAsync,
 * ...).  Transfers are described, checked and run by mem_xfer.c; the newer
 * families live beside this file: registration and managed memory
 * (memory_host_api.c), batches, descriptors and cache operations
 * (memory_batch_api.c).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/prof.h"
#include "acl/acl.h"
#include "openacl/openacl.h"
#include "common/errmsg.h"
#include "acl/mem_xfer.h"
#include "rt/graph.h"
#include "rt/callback.h"
#include "rt/mem_internal.h"
#include "rt/devshare.h"
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
  uint16_t module = ACL__MEM_MODULE_APP;
  if (cfg != NULL) {
    if (cfg->numAttrs != 0 && cfg->attrs == NULL)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "cfg->numAttrs is %zu but cfg->attrs is NULL",
                       cfg->numAttrs);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
      const aclrtMallocAttribute *at = &cfg->attrs[i];
      switch (at->attr) {
      case ACL_RT_MEM_ATTR_RSV:
      case ACL_RT_MEM_ATTR_VA_FLAG:
        break;
      case ACL_RT_MEM_ATTR_MODULE_ID:
        module = at->value.moduleId;
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
  return acl__mem_alloc(api, d, size, charged, policy, module, ra, devPtr);
}

/* Profiling with ACL_PROF_TASK_MEMORY: device memory in use now (src/prof/). */
static void prof_mem_note(void) {
  if (!(atomic_load_explicit(&acl__prof_flags, memory_order_relaxed) & ACL__PROF_F_MEM))
    return; /* profiling without memory records: no device query on every allocation */
  size_t free_b = 0, total = 0;
  int32_t dev = 0;
  if (aclrtGetDevice(&dev) == ACL_SUCCESS && aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total) == ACL_SUCCESS)
    acl__prof_mem(dev, total - free_b);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACL__PROF_API_SCOPE();
  aclError rc = acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, NULL, __builtin_return_address(0));
  if (ACL__PROF_ON() && rc == ACL_SUCCESS)
    prof_mem_note();
  return rc;
}

aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACL__PROF_API_SCOPE();
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 1, NULL, __builtin_return_address(0));
}

aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACL__PROF_API_SCOPE();
  /* The simulated device's memory is coherent with itself: cached memory is ordinary memory. */
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, NULL, __builtin_return_address(0));
}

aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  rc = acl__mem_free(__func__, devPtr);
  if (ACL__PROF_ON() && rc == ACL_SUCCESS)
    prof_mem_note();
  return rc;
}

aclError aclrtFreeWithDevSync(void *devPtr) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  rc = acl__callback_forbid(__func__);
  if (rc != 0)
    return rc;
  /* Wait for the device the memory belongs to (the current one for
   * anything else: the free reports what it is), then free. */
  acl__device *owner = acl__mem_owner(devPtr);
  rc = acl__device_sync(__func__, owner != NULL ? owner : c->dev, -1);
  if (rc != 0)
    return rc;
  return acl__mem_free(__func__, devPtr);
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (hostPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hostPtr is NULL");
  return acl__mem_host_free(__func__, hostPtr);
}

aclError aclrtFreeHostWithDevSync(void *hostPtr) {
  ACL__PROF_API_SCOPE();
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

/* ---- copies ------------------------------------------------------------------ */

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
  acl__xfer x = {ACL__XFER_COPY, dst, src, count, 1, count, count, 0, NULL, NULL, 0, NULL, 0, NULL};
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
  return acl__xfer_submit(api, s, &x, 1);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  ACL__PROF_API_SCOPE();
  aclError rc = acl__graph_check_unsafe(__func__, NULL); /* capture modes (graph.c) */
  if (rc != 0)
    return rc;
  rc = acl__memcpy_body(__func__, dst, destMax, src, count, (int)kind, 0, NULL);
  return rc;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  aclError rc = acl__memcpy_body(__func__, dst, destMax, src, count, (int)kind, 1, stream);
  return rc;
}

/* Deprecated: aclrtMemcpyAsync with fewer kinds (no INNER / INTER device
 * kinds).  The runtime checks whether host memory is page-locked, which it
 * does for every asynchronous copy anyway. */
aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                                       aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (count != 0 && (kind == ACL_MEMCPY_INNER_DEVICE_TO_DEVICE || kind == ACL_MEMCPY_INTER_DEVICE_TO_DEVICE))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "kind %s is not accepted here: use ACL_MEMCPY_DEVICE_TO_DEVICE, or aclrtMemcpyAsync",
                     acl__kind_names[kind]);
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
  acl__xfer x = {ACL__XFER_COPY, dst, src, width, height, dpitch, spitch, 0, NULL, NULL, 0, NULL, 0, NULL};
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
  return acl__xfer_submit(api, s, &x, 1);
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind) {
  ACL__PROF_API_SCOPE();
  int rc = acl__graph_check_unsafe(__func__, NULL); /* capture modes (graph.c) */
  if (rc != 0)
    return rc;
  return acl__memcpy2d_body(__func__, dst, dpitch, src, spitch, width, height, (int)kind, 0, NULL);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
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
  acl__xfer x = {op, ptr, NULL, bytes, 1, bytes, bytes, value, NULL, NULL, 0, NULL, 0, NULL};
  rc = acl__xfer_check(api, &x, ACL_MEMCPY_DEFAULT, bytes, 0, async);
  if (rc != 0)
    return rc;
  if (!async) {
    acl__xfer_now(&x);
    return 0;
  }
  return acl__xfer_submit(api, s, &x, 1);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  ACL__PROF_API_SCOPE();
  int rc = acl__graph_check_unsafe(__func__, NULL); /* capture modes (graph.c) */
  if (rc != 0)
    return rc;
  char text[96];
  snprintf(text, sizeof(text), "count %zu", count);
  return acl__fill_body(__func__, devPtr, maxCount, count, ACL__XFER_FILL8, (uint32_t)value & 0xffu, 0, NULL,
                        "maxCount", text);
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
  size_t bytes = 0;
  char text[96];
  int rc = acl__d32_bytes(__func__, N, &bytes);
  if (rc != 0)
    return rc;
  snprintf(text, sizeof(text), "4 * N (N = %zu)", N);
  return acl__fill_body(__func__, ptr, memSize, bytes, ACL__XFER_FILL32, value, 0, NULL, "memSize", text);
}

aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  ACL__PROF_API_SCOPE();
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
  case ACL__PTR_REGISTERED_DEVICE: /* undefined input for the vendor: a device-side address */
    if (in.dev != NULL) {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      attributes->location.id = (uint32_t)in.dev->id;
    } else {
      attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    }
    break;
  case ACL__PTR_PINNED_HOST:
  case ACL__PTR_REGISTERED_HOST:
    attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
    break;
  case ACL__PTR_MANAGED:
    attributes->location.type = ACL_MEM_LOCATION_TYPE_MANAGED;
    attributes->location.id = in.dev != NULL ? (uint32_t)in.dev->id : 0;
    attributes->pageSize = 2u << 20;
    return 0;
  default:
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    break;
  }
  attributes->pageSize = acl__mem_page_size(ptr);
  return 0;
}

/* aclrtCheckMemType: openacl has no DVPP memory (acldvppMalloc), so
 * ACL_RT_MEM_TYPE_DEV matches a live device allocation of any device and
 * ACL_RT_MEM_TYPE_RSVD an address in a range reserved with
 * aclrtReserveMemAddress (mapped or not); DVPP matches nothing. */
aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult, uint32_t reserve) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (addrList == NULL || checkResult == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", addrList == NULL ? "addrList" : "checkResult");
  if (reserve != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is %u; it is reserved and must be 0", reserve);
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0: the list must hold at least one address");
  const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
  if (memType == 0 || (memType & ~known) != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "memType 0x%x is not an OR of ACL_RT_MEM_TYPE_DEV (0x2), ACL_RT_MEM_TYPE_DVPP (0x8) and "
                     "ACL_RT_MEM_TYPE_RSVD (0x10)",
                     memType);
  uint32_t ok = 1;
  for (uint32_t i = 0; i < size && ok; i++) {
    acl__ptr_info in;
    acl__mem_classify(addrList[i], &in);
    ok = in.vmm != ACL__VMM_NONE ? (memType & ACL_RT_MEM_TYPE_RSVD) != 0
                                 : (memType & ACL_RT_MEM_TYPE_DEV) != 0 && in.kind == ACL__PTR_DEVICE;
  }
  *checkResult = ok;
  return 0;
}

/* Component names of aclrtGetMemUsageInfo: allocations without a module id
 * are the application's. */
static void acl__usage_name(uint16_t module, char name[32]) {
  if (module == ACL__MEM_MODULE_APP)
    snprintf(name, 32, "APP");
  else
    snprintf(name, 32, "module %u", (unsigned)module);
}

aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum, size_t *outputNum) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (memUsageInfo == NULL || outputNum == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", memUsageInfo == NULL ? "memUsageInfo" : "outputNum");
  if (inputNum == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "inputNum is 0: pass the number of entries memUsageInfo holds");
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  acl__mem_usage u[ACL__MEM_USAGE_MAX];
  size_t n = acl__mem_usage_get(d, u, ACL__MEM_USAGE_MAX);
  if (n > ACL__MEM_USAGE_MAX)
    n = ACL__MEM_USAGE_MAX;
  /* Largest current use first (insertion sort: a handful of entries). */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && u[j].cur > u[j - 1].cur; j--) {
      acl__mem_usage t = u[j];
      u[j] = u[j - 1];
      u[j - 1] = t;
    }
  size_t out = n < inputNum ? n : inputNum;
  for (size_t i = 0; i < out; i++) {
    memset(&memUsageInfo[i], 0, sizeof(memUsageInfo[i]));
    acl__usage_name(u[i].module, memUsageInfo[i].name);
    memUsageInfo[i].curMemSize = u[i].cur;
    memUsageInfo[i].memPeakSize = u[i].peak;
  }
  *outputNum = out;
  return 0;
}

aclError openaclGetMemoryProtection(int32_t deviceId, const char **mechanism) {
  int rc = 0;
  if (mechanism == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "mechanism is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  const char *m = acl__mem_protection(d);
  if (m == NULL)
    return ACL__FAIL(ACL_ERROR_RT_CONTEXT_NULL,
                     "device %d is not open: its memory, and how it is protected, exist from aclrtSetDevice(%d) on",
                     (int)deviceId, (int)deviceId);
  *mechanism = m;
  return 0;
}

/* Memory the task scheduler reads (aclrtMallocForTaskScheduler): the
 * simulated device's scheduler is its executor threads, which reach all
 * device memory, so this is device memory as aclrtMallocWithCfg gives it. */
aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg) {
  ACL__PROF_API_SCOPE();
  return acl__malloc_body(__func__, devPtr, size, (uint32_t)policy, 0, cfg, __builtin_return_address(0));
}

aclError openaclGetDeviceProcesses(int32_t deviceId, openaclDeviceProcess *procs, uint32_t maxCount, uint32_t *count,
                                   uint64_t *capacity, uint64_t *inUse) {
  int rc = 0;
  if (count == NULL || capacity == NULL || inUse == NULL || (procs == NULL && maxCount > 0))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     count == NULL ? "count" : capacity == NULL ? "capacity" : inUse == NULL ? "inUse"
                                                                                  : "procs (with maxCount > 0)");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  enum { MAX = 256 };
  acl__ds_proc found[MAX];
  int n = acl__ds_list(d->phys_id, found, MAX, capacity, inUse); /* the physical device's registry */
  *count = n > 0 ? (uint32_t)n : 0;
  for (int i = 0; i < n && i < MAX && (uint32_t)i < maxCount; i++) {
    procs[i].pid = (int32_t)found[i].pid;
    procs[i].memoryBytes = found[i].bytes;
    memcpy(procs[i].name, found[i].comm, sizeof(procs[i].name));
    procs[i].name[sizeof(procs[i].name) - 1] = '\0';
  }
  return ACL_SUCCESS;
}
