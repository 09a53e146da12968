/*
 * rt_host_mem.c - acl.rt's registered host memory, copy descriptors and
 * the device's in-memory tasks (pyacl.md §2.2; C side: docs/memory.md,
 * docs/streams.md): host_register, host_register_v2, host_unregister,
 * host_get_device_pointer, get_memcpy_desc_size, set_memcpy_desc,
 * memcpy_async_with_desc, cmo_async and reduce_async.
 *
 * Registered host memory is read and written by the device's tasks through
 * the device-side address, so the host range is checked to be mapped memory
 * before C records it: a bogus int gets ACL_ERROR_INVALID_PARAM instead of
 * a crash later on an executor thread.
 */
#include "pyacl.h"

#include "openacl/openacl.h"

static int host_mapped(const char *api, const void *p, uint64_t n) {
  if (p == NULL || n == 0 || (n <= SIZE_MAX && pyacl_host_range_ok(p, (size_t)n)))
    return 1; /* C rejects NULL and 0 with its own message */
  char detail[320];
  snprintf(detail, sizeof detail,
           "ptr: host address %p (%llu bytes) is not mapped memory of this process. Remedy: register memory "
           "you own (mmap, acl.rt.malloc_host, a numpy array's pages) with a size inside it",
           p, (unsigned long long)n);
  openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail);
  return 0;
}

/* ---- registered host memory ---------------------------------------------- */

/* (ptr, size, type) -> (dev_ptr, ret); ptr 4 KiB aligned, type 0 (MAPPED). */
static PYACL_FASTCALL(py_host_register) {
  (void)self;
  void *ptr;
  size_t size;
  int32_t type;
  if (!pyacl_parse("acl.rt.host_register", args, nargs, "pzi", &ptr, &size, &type))
    return NULL;
  void *dev = NULL;
  aclError ret = ACL_ERROR_INVALID_PARAM;
  if (host_mapped("aclrtHostRegister", ptr, size))
    ret = aclrtHostRegister(ptr, size, (aclrtHostRegisterType)type, &dev);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? dev : NULL), ret);
}

/* (ptr, size, flag) -> ret; flag an OR of ACL_HOST_REG_MAPPED (0x2) and
 * ACL_HOST_REG_PINNED (0x10000000). */
static PYACL_FASTCALL(py_host_register_v2) {
  (void)self;
  uint64_t ptr, size;
  uint32_t flag;
  if (!pyacl_parse("acl.rt.host_register_v2", args, nargs, "KKI", &ptr, &size, &flag))
    return NULL;
  void *p = (void *)(uintptr_t)ptr;
  if (!host_mapped("aclrtHostRegisterV2", p, size))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  return pyacl_ret(aclrtHostRegisterV2(p, size, flag));
}

/* Unregistering waits for the tasks that use the memory: without the GIL. */
static PYACL_FASTCALL(py_host_unregister) {
  (void)self;
  void *ptr;
  if (!pyacl_parse("acl.rt.host_unregister", args, nargs, "p", &ptr))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtHostUnregister(ptr);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* (host_ptr, flag) -> (dev_ptr, ret): the device-side address of registered
 * memory (interior addresses map to interior addresses). */
static PYACL_FASTCALL(py_host_get_device_pointer) {
  (void)self;
  uint64_t host;
  uint32_t flag;
  if (!pyacl_parse("acl.rt.host_get_device_pointer", args, nargs, "KI", &host, &flag))
    return NULL;
  void *dev = NULL;
  aclError ret = aclrtHostGetDevicePointer((void *)(uintptr_t)host, &dev, flag);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? dev : NULL), ret);
}

/* ---- copy descriptors ------------------------------------------------------ */

static PYACL_FASTCALL(py_get_memcpy_desc_size) {
  (void)self;
  int32_t kind;
  if (!pyacl_parse("acl.rt.get_memcpy_desc_size", args, nargs, "i", &kind))
    return NULL;
  size_t size = 0;
  aclError ret = aclrtGetMemcpyDescSize((aclrtMemcpyKind)kind, &size);
  return pyacl_tuple_ret(PyLong_FromSize_t(ret == ACL_SUCCESS ? size : 0), ret);
}

/* (desc, kind, src, dst, count, config) -> (desc, ret): kind second, src
 * before dst, and the descriptor handed back, as pyACL. */
static PYACL_FASTCALL(py_set_memcpy_desc) {
  (void)self;
  void *desc, *src, *dst, *config;
  int32_t kind;
  size_t count;
  if (!pyacl_parse("acl.rt.set_memcpy_desc", args, nargs, "pippzp", &desc, &kind, &src, &dst, &count, &config))
    return NULL;
  aclError ret = aclrtSetMemcpyDesc(desc, (aclrtMemcpyKind)kind, src, dst, count, config);
  return pyacl_tuple_ret(pyacl_ptr(desc), ret);
}

static PYACL_FASTCALL(py_memcpy_async_with_desc) {
  (void)self;
  void *desc, *stream;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy_async_with_desc", args, nargs, "pip", &desc, &kind, &stream))
    return NULL;
  return pyacl_ret(aclrtMemcpyAsyncWithDesc(desc, (aclrtMemcpyKind)kind, (aclrtStream)stream));
}

/* ---- in-memory tasks ---------------------------------------------------------- */

static PYACL_FASTCALL(py_cmo_async) {
  (void)self;
  void *src, *stream;
  size_t size;
  int32_t type;
  if (!pyacl_parse("acl.rt.cmo_async", args, nargs, "pzip", &src, &size, &type, &stream))
    return NULL;
  return pyacl_ret(aclrtCmoAsync(src, size, (aclrtCmoType)type, (aclrtStream)stream));
}

/* dst = dst (kind) src element-wise over count bytes of dtype, on the
 * stream: kind 10 SUM, 11 MAX, 12 MIN, 13 EQUAL; reserve must be 0. */
static PYACL_FASTCALL(py_reduce_async) {
  (void)self;
  void *dst, *src, *stream, *reserve;
  size_t count;
  int32_t kind, dtype;
  if (!pyacl_parse("acl.rt.reduce_async", args, nargs, "ppziipp", &dst, &src, &count, &kind, &dtype, &stream,
                   &reserve))
    return NULL;
  return pyacl_ret(
      aclrtReduceAsync(dst, src, count, (aclrtReduceKind)kind, (aclDataType)dtype, (aclrtStream)stream, reserve));
}

PyMethodDef pyacl_rt_host_mem_methods[] = {
    PYACL_FN("host_register", py_host_register),
    PYACL_FN("host_register_v2", py_host_register_v2),
    PYACL_FN("host_unregister", py_host_unregister),
    PYACL_FN("host_get_device_pointer", py_host_get_device_pointer),
    PYACL_FN("get_memcpy_desc_size", py_get_memcpy_desc_size),
    PYACL_FN("set_memcpy_desc", py_set_memcpy_desc),
    PYACL_FN("memcpy_async_with_desc", py_memcpy_async_with_desc),
    PYACL_FN("cmo_async", py_cmo_async),
    PYACL_FN("reduce_async", py_reduce_async),
    {NULL, NULL, 0, NULL},
};
