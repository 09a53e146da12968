/*
 * symbol_api.c - device symbols: the globals of loaded kernel binaries,
 * found by their symbol (aclrtGetSymbolAddress/Size) and copied to and from
 * (aclrtMemcpyTo/FromSymbol[Async]).  docs/kernels.md "Device globals"
 * states the rules.
 *
 * On the simulated device a global is an exported variable of the kernel's
 * shared object, found by aclrtBinaryGetGlobal; its address is the symbol
 * and also its device address.  It is device memory in the sense of the
 * API (only copies and kernels reach it; the kind of a copy counts it as
 * device memory of the device its binary was loaded for) but not memory of
 * the device allocator: host code touching it directly is not trapped
 * (docs/memory.md "Host access to device memory").  A copy holds a
 * reference on the binary until it has run, so unloading the binary with a
 * copy queued is safe.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/mem_xfer.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/kernel.h"
#include "prof/prof.h"

/* The symbol's global, preferring a binary of the current context's device. */
static int acl__symbol_find(const char *api, const void *symbol, acl__ksym *out) {
  acl__context *c = acl__context_peek(); /* none is fine: any device's binary will do */
  acl__device *prefer = c != NULL ? c->dev : NULL;
  return acl__kernel_symbol_lookup(api, symbol, prefer, out);
}

aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (symbol == NULL || devPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "devPtr");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__ksym k;
  rc = acl__symbol_find(__func__, symbol, &k);
  if (rc != 0)
    return rc;
  *devPtr = k.addr;
  acl__kernel_symbol_unpin(k.bin);
  return 0;
}

aclError aclrtGetSymbolSize(const void *symbol, size_t *size) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (symbol == NULL || size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", symbol == NULL ? "symbol" : "size");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__ksym k;
  rc = acl__symbol_find(__func__, symbol, &k);
  if (rc != 0)
    return rc;
  *size = k.size;
  acl__kernel_symbol_unpin(k.bin);
  return 0;
}

/* The shared body of the four copies: `to` is 1 for To (host or device
 * memory `mem` -> the global), 0 for From. */
static int acl__symbol_copy(const char *api, int to, const void *symbol, void *mem, size_t count, size_t offset,
                            int kind, int async, aclrtStream stream) {
  int rc = 0;
  if (symbol == NULL || mem == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     symbol == NULL ? "symbol" : to ? "src" : "dst");
  if (!acl__rt_live(api, &rc))
    return rc;
  rc = acl__kind_valid(api, kind);
  if (rc != 0)
    return rc;
  if (count == 0)
    return 0; /* as aclrtMemcpy: nothing to copy */
  acl__stream *s = NULL;
  if (async) {
    s = acl__stream_resolve(api, stream, &rc);
    if (s == NULL)
      return rc;
  } else if (acl__context_current(api, &rc) == NULL) {
    return rc;
  }
  acl__ksym k;
  rc = acl__symbol_find(api, symbol, &k);
  if (rc != 0)
    return rc;
  if (offset > k.size || count > k.size - offset) {
    acl__kernel_symbol_unpin(k.bin);
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "offset %zu + count %zu runs past the end of the %zu-byte global at %p", offset, count, k.size,
                     symbol);
  }
  char *at = (char *)k.addr + offset;
  acl__xfer x = {ACL__XFER_COPY, to ? (void *)at : mem, to ? (const void *)mem : at, count, 1, count, count, 0,
                 NULL, NULL, 0, NULL, to ? ACL__XFER_SYM_DST : ACL__XFER_SYM_SRC, k.bin};
  rc = acl__xfer_check_symbol(api, &x, kind, k.dev, count, async);
  if (rc != 0) {
    acl__xfer_discard(&x, 1);
    return rc;
  }
  if (!async) {
    acl__xfer_now(&x);
    acl__xfer_discard(&x, 1);
    return 0;
  }
  if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE && to && x.sdev == NULL) {
    x.staging = malloc(count);
    if (x.staging == NULL) {
      acl__xfer_discard(&x, 1);
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to stage %zu bytes", count);
    }
    memcpy(x.staging, mem, count);
  }
  return acl__xfer_submit(api, s, &x, 1); /* the task drops the reference */
}

aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, aclrtMemcpyKind kind) {
  ACL__PROF_API_SCOPE();
  return acl__symbol_copy(__func__, 1, symbol, (void *)src, count, offset, (int)kind, 0, NULL);
}

aclError aclrtMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind) {
  ACL__PROF_API_SCOPE();
  if (dst == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dst is NULL");
  return acl__symbol_copy(__func__, 0, symbol, dst, count, offset, (int)kind, 0, NULL);
}

aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  return acl__symbol_copy(__func__, 1, symbol, (void *)src, count, offset, (int)kind, 1, stream);
}

aclError aclrtMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset, aclrtMemcpyKind kind,
                                    aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (dst == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dst is NULL");
  return acl__symbol_copy(__func__, 0, symbol, dst, count, offset, (int)kind, 1, stream);
}
