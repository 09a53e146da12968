/*
 * rt_memory.c - acl.rt memory: device and pinned host allocation (with the
 * malloc config dict), copies, 2-D copies, fills, flushes, memory info and
 * pointer attributes.
 *
 * Host addresses arrive as bare ints, so the host side of every copy or
 * fill is checked to be mapped memory before C touches it: a bogus int
 * gets ACL_ERROR_INVALID_PARAM (100000) and a message, not a crash.  Which
 * side is host follows from the kind, as the runtime decides it; device
 * pointers are the runtime's to check.  Copies and fills run without the
 * GIL: they can be long, and an asynchronous one with pageable memory
 * waits for the stream, whose earlier work may be a callback needing it.
 */
#include "pyacl.h"

#include <string.h>

#include "openacl/openacl.h"

/* ---- host-side checks ---------------------------------------------------- */

/* 1 when [p, p+n) may be touched; otherwise records why and returns 0.  NULL
 * passes: C rejects it with its own message. */
static int host_ok(const char *api, const char *arg, const void *p, size_t n) {
  if (p == NULL || pyacl_host_range_ok(p, n))
    return 1;
  char detail[320];
  snprintf(detail, sizeof detail,
           "%s: host address %p (%zu bytes) is not mapped memory of this process, so it cannot be read or "
           "written. Remedy: pass an address from acl.util.bytes_to_ptr, acl.util.numpy_to_ptr or "
           "acl.rt.malloc_host, with a size that stays inside that buffer",
           arg, p, n);
  openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail);
  return 0;
}

/* For copies and fills whose direction the runtime infers (ACL_MEMCPY_DEFAULT,
 * memset): p is host memory unless the runtime says it is device memory.
 * The cheap mapping test goes first, so the runtime is asked only about a
 * range that fails it; a runtime that cannot answer (not initialised) will
 * refuse the copy itself before touching memory. */
static int inferred_ok(const char *api, const char *arg, const void *p, size_t n) {
  if (p == NULL || pyacl_host_range_ok(p, n))
    return 1;
  aclrtPtrAttributes a;
  memset(&a, 0, sizeof a);
  if (aclrtPointerGetAttributes(p, &a) != ACL_SUCCESS || a.location.type == ACL_MEM_LOCATION_TYPE_DEVICE)
    return 1;
  return host_ok(api, arg, p, n);
}

/* Checks the host sides of a copy of kind `kind`; dst_n and src_n are the
 * bytes each side spans. */
static int copy_host_ok(const char *api, void *dst, size_t dst_n, const void *src, size_t src_n, int32_t kind) {
  switch (kind) {
  case ACL_MEMCPY_HOST_TO_HOST:
    return host_ok(api, "dst", dst, dst_n) && host_ok(api, "src", src, src_n);
  case ACL_MEMCPY_HOST_TO_DEVICE:
  case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
    return host_ok(api, "src", src, src_n);
  case ACL_MEMCPY_DEVICE_TO_HOST:
    return host_ok(api, "dst", dst, dst_n);
  case ACL_MEMCPY_DEFAULT:
    return inferred_ok(api, "dst", dst, dst_n) && inferred_ok(api, "src", src, src_n);
  default:
    return 1; /* device to device, or a kind C refuses */
  }
}

/* The bytes a 2-D side spans, or 0 when C rejects the shape before any access. */
static size_t span_2d(size_t pitch, size_t width, size_t height) {
  if (width == 0 || height == 0 || width > pitch || height - 1 > (SIZE_MAX - width) / pitch)
    return 0;
  return pitch * (height - 1) + width;
}

/* ---- allocation --------------------------------------------------------- */

static PyObject *malloc_common(const char *name, PyObject *const *args, Py_ssize_t nargs,
                               aclError (*fn)(void **, size_t, aclrtMemMallocPolicy)) {
  size_t size;
  int32_t policy;
  if (!pyacl_parse(name, args, nargs, "zi", &size, &policy))
    return NULL;
  void *p = NULL;
  aclError ret = fn(&p, size, (aclrtMemMallocPolicy)policy);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_malloc) {
  (void)self;
  return malloc_common("acl.rt.malloc", args, nargs, aclrtMalloc);
}

static PYACL_FASTCALL(py_malloc_align32) {
  (void)self;
  return malloc_common("acl.rt.malloc_align32", args, nargs, aclrtMallocAlign32);
}

static PYACL_FASTCALL(py_malloc_cached) {
  (void)self;
  return malloc_common("acl.rt.malloc_cached", args, nargs, aclrtMallocCached);
}

/* A required key of a cfg dict: KeyError when absent, as pyACL raises. */
static PyObject *cfg_item(PyObject *d, const char *key) {
  PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
  if (!v && !PyErr_Occurred())
    PyErr_SetString(PyExc_KeyError, key);
  return v;
}

static int cfg_int(const char *name, PyObject *d, const char *key, unsigned long long *out) {
  PyObject *v = cfg_item(d, key);
  if (!v)
    return 0;
  if (!PyLong_Check(v)) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: cfg '%s' must be an int", name, key);
    return 0;
  }
  *out = PyLong_AsUnsignedLongLongMask(v);
  return !PyErr_Occurred();
}

/*
 * Fills *cfg from {'numAttrs': n, 'attrs': [{'attr': a, 'value': {...}}]}.
 * The value key follows the attribute: 'moduleId', 'deviceId', or 'rsv' (a
 * list of up to 8 byte values) for the others.  `{}` means no
 * config (*use = 0).  The attrs array is PyMem-allocated: free it.
 */
static int parse_malloc_cfg(const char *name, PyObject *dict, aclrtMallocConfig *cfg, int *use) {
  memset(cfg, 0, sizeof *cfg);
  *use = PyDict_GET_SIZE(dict) != 0;
  if (!*use)
    return 1;
  unsigned long long n;
  if (!cfg_int(name, dict, "numAttrs", &n))
    return 0;
  PyObject *list = cfg_item(dict, "attrs");
  if (!list)
    return 0;
  if (!PyList_Check(list)) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: cfg 'attrs' must be a list", name);
    return 0;
  }
  if ((unsigned long long)PyList_GET_SIZE(list) != n) {
    PyErr_Format(PyExc_KeyError, "cfg 'numAttrs' is %llu but 'attrs' has %zd entries", n, PyList_GET_SIZE(list));
    return 0;
  }
  cfg->numAttrs = (size_t)n;
  cfg->attrs = PyMem_Calloc(n ? (size_t)n : 1, sizeof *cfg->attrs);
  if (!cfg->attrs) {
    PyErr_NoMemory();
    return 0;
  }
  for (size_t i = 0; i < (size_t)n; i++) {
    PyObject *item = PyList_GET_ITEM(list, (Py_ssize_t)i);
    aclrtMallocAttribute *at = &cfg->attrs[i];
    unsigned long long attr, v;
    if (!PyDict_Check(item)) {
      PyErr_Format(PyExc_TypeError, "%s args parse failed: cfg 'attrs' items must be dicts", name);
      return 0;
    }
    if (!cfg_int(name, item, "attr", &attr))
      return 0;
    PyObject *value = cfg_item(item, "value");
    if (!value)
      return 0;
    if (!PyDict_Check(value)) {
      PyErr_Format(PyExc_TypeError, "%s args parse failed: cfg attr 'value' must be a dict", name);
      return 0;
    }
    at->attr = (aclrtMallocAttrType)(int)attr;
    switch (at->attr) {
    case ACL_RT_MEM_ATTR_MODULE_ID:
      if (!cfg_int(name, value, "moduleId", &v))
        return 0;
      at->value.moduleId = (uint16_t)v;
      break;
    case ACL_RT_MEM_ATTR_DEVICE_ID:
      if (!cfg_int(name, value, "deviceId", &v))
        return 0;
      at->value.deviceId = (uint32_t)v;
      break;
    case ACL_RT_MEM_ATTR_VA_FLAG:
      /* pyACL names no key for it: 'vaFlag', else the raw 'rsv' bytes. */
      if (PyDict_GetItemString(value, "vaFlag")) {
        if (!cfg_int(name, value, "vaFlag", &v))
          return 0;
        at->value.vaFlag = (uint32_t)v;
        break;
      }
      /* fall through */
    default: {
      PyObject *rsv = cfg_item(value, "rsv");
      if (!rsv)
        return 0;
      int64_t bytes[8];
      size_t nb = 0;
      if (!pyacl_list_to_i64(name, rsv, bytes, 8, &nb))
        return 0;
      for (size_t k = 0; k < nb; k++)
        at->value.rsv[k] = (uint8_t)bytes[k];
    }
    }
  }
  return 1;
}

static PYACL_FASTCALL(py_malloc_with_cfg) {
  (void)self;
  size_t size;
  int32_t policy;
  PyObject *dict;
  if (!pyacl_parse("acl.rt.malloc_with_cfg", args, nargs, "zid", &size, &policy, &dict))
    return NULL;
  aclrtMallocConfig cfg;
  int use;
  if (!parse_malloc_cfg("acl.rt.malloc_with_cfg", dict, &cfg, &use)) {
    PyMem_Free(cfg.attrs);
    return NULL;
  }
  void *p = NULL;
  aclError ret = aclrtMallocWithCfg(&p, size, (aclrtMemMallocPolicy)policy, use ? &cfg : NULL);
  PyMem_Free(cfg.attrs);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

/* Memory the task scheduler reads; cfg as malloc_with_cfg's. */
static PYACL_FASTCALL(py_malloc_for_task_scheduler) {
  (void)self;
  size_t size;
  int32_t policy;
  PyObject *dict;
  if (!pyacl_parse("acl.rt.malloc_for_task_scheduler", args, nargs, "zid", &size, &policy, &dict))
    return NULL;
  aclrtMallocConfig cfg;
  int use;
  if (!parse_malloc_cfg("acl.rt.malloc_for_task_scheduler", dict, &cfg, &use)) {
    PyMem_Free(cfg.attrs);
    return NULL;
  }
  void *p = NULL;
  aclError ret = aclrtMallocForTaskScheduler(&p, size, (aclrtMemMallocPolicy)policy, use ? &cfg : NULL);
  PyMem_Free(cfg.attrs);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? p : NULL), ret);
}

static PYACL_FASTCALL(py_malloc_host) {
  (void)self;
  size_t size;
  if (!pyacl_parse("acl.rt.malloc_host", args, nargs, "z", &size))
    return NULL;
  void *p = NULL;
  aclError ret = aclrtMallocHost(&p, size);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_malloc_host_with_cfg) {
  (void)self;
  size_t size;
  PyObject *dict;
  if (!pyacl_parse("acl.rt.malloc_host_with_cfg", args, nargs, "zd", &size, &dict))
    return NULL;
  aclrtMallocConfig cfg;
  int use;
  if (!parse_malloc_cfg("acl.rt.malloc_host_with_cfg", dict, &cfg, &use)) {
    PyMem_Free(cfg.attrs);
    return NULL;
  }
  void *p = NULL;
  aclError ret = aclrtMallocHostWithCfg(&p, (uint64_t)size, use ? &cfg : NULL);
  PyMem_Free(cfg.attrs);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_free) {
  (void)self;
  void *p;
  if (!pyacl_parse("acl.rt.free", args, nargs, "p", &p))
    return NULL;
  return pyacl_ret(aclrtFree(p));
}

static PYACL_FASTCALL(py_free_host) {
  (void)self;
  void *p;
  if (!pyacl_parse("acl.rt.free_host", args, nargs, "p", &p))
    return NULL;
  aclError ret = aclrtFreeHost(p);
  pyacl_host_range_forget(); /* its pages may be unmapped now */
  return pyacl_ret(ret);
}

/* ---- copies and fills --------------------------------------------------- */

static PYACL_FASTCALL(py_memcpy) {
  (void)self;
  void *dst, *src;
  size_t dst_max, count;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy", args, nargs, "pzpzi", &dst, &dst_max, &src, &count, &kind))
    return NULL;
  size_t n = count <= dst_max ? count : 0; /* C refuses count > dst_max before any access */
  if (!copy_host_ok("aclrtMemcpy", dst, n, src, n, kind))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemcpy(dst, dst_max, src, count, (aclrtMemcpyKind)kind);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_memcpy_async) {
  (void)self;
  void *dst, *src, *stream;
  size_t dst_max, count;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy_async", args, nargs, "pzpzip", &dst, &dst_max, &src, &count, &kind, &stream))
    return NULL;
  /* Pageable host memory is copied by an executor thread: a bad address
   * would crash the process from there. */
  size_t n = count <= dst_max ? count : 0;
  if (!copy_host_ok("aclrtMemcpyAsync", dst, n, src, n, kind))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemcpyAsync(dst, dst_max, src, count, (aclrtMemcpyKind)kind, stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* aclrtMemcpyAsync that also refuses the inner/inter-device kinds
 * (deprecated by the vendor); the same host checks. */
static PYACL_FASTCALL(py_memcpy_async_with_condition) {
  (void)self;
  void *dst, *src, *stream;
  size_t dst_max, count;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy_async_with_condition", args, nargs, "pzpzip", &dst, &dst_max, &src, &count, &kind,
                   &stream))
    return NULL;
  size_t n = count <= dst_max ? count : 0;
  if (!copy_host_ok("aclrtMemcpyAsyncWithCondition", dst, n, src, n, kind))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemcpyAsyncWithCondition(dst, dst_max, src, count, (aclrtMemcpyKind)kind, stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_memcpy2d) {
  (void)self;
  void *dst, *src;
  size_t dpitch, spitch, width, height;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy2d", args, nargs, "pzpzzzi", &dst, &dpitch, &src, &spitch, &width, &height, &kind))
    return NULL;
  if (!copy_host_ok("aclrtMemcpy2d", dst, span_2d(dpitch, width, height), src, span_2d(spitch, width, height), kind))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemcpy2d(dst, dpitch, src, spitch, width, height, (aclrtMemcpyKind)kind);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_memcpy2d_async) {
  (void)self;
  void *dst, *src, *stream;
  size_t dpitch, spitch, width, height;
  int32_t kind;
  if (!pyacl_parse("acl.rt.memcpy2d_async", args, nargs, "pzpzzzip", &dst, &dpitch, &src, &spitch, &width, &height, &kind,
                   &stream))
    return NULL;
  if (!copy_host_ok("aclrtMemcpy2dAsync", dst, span_2d(dpitch, width, height), src, span_2d(spitch, width, height),
                    kind))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemcpy2dAsync(dst, dpitch, src, spitch, width, height, (aclrtMemcpyKind)kind, stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* C fills host memory too.  count > max_count is refused before any access. */
static int fill_host_ok(const char *api, void *p, size_t max_count, size_t count) {
  return count > max_count || inferred_ok(api, "devPtr", p, count);
}

static PYACL_FASTCALL(py_memset) {
  (void)self;
  void *p;
  size_t max_count, count;
  int32_t value;
  if (!pyacl_parse("acl.rt.memset", args, nargs, "pziz", &p, &max_count, &value, &count))
    return NULL;
  if (!fill_host_ok("aclrtMemset", p, max_count, count))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemset(p, max_count, value, count);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_memset_async) {
  (void)self;
  void *p, *stream;
  size_t max_count, count;
  int32_t value;
  if (!pyacl_parse("acl.rt.memset_async", args, nargs, "pzizp", &p, &max_count, &value, &count, &stream))
    return NULL;
  if (!fill_host_ok("aclrtMemsetAsync", p, max_count, count))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtMemsetAsync(p, max_count, value, count, stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* ---- queries and cache maintenance -------------------------------------- */

static PYACL_FASTCALL(py_get_mem_info) {
  (void)self;
  int32_t attr;
  if (!pyacl_parse("acl.rt.get_mem_info", args, nargs, "i", &attr))
    return NULL;
  size_t free_bytes = 0, total = 0;
  aclError ret = aclrtGetMemInfo((aclrtMemAttr)attr, &free_bytes, &total);
  return pyacl_tuple2_ret(PyLong_FromSize_t(free_bytes), PyLong_FromSize_t(total), ret);
}

static PYACL_FASTCALL(py_mem_flush) {
  (void)self;
  void *p;
  size_t size;
  if (!pyacl_parse("acl.rt.mem_flush", args, nargs, "pz", &p, &size))
    return NULL;
  return pyacl_ret(aclrtMemFlush(p, size));
}

static PYACL_FASTCALL(py_mem_invalidate) {
  (void)self;
  void *p;
  size_t size;
  if (!pyacl_parse("acl.rt.mem_invalidate", args, nargs, "pz", &p, &size))
    return NULL;
  return pyacl_ret(aclrtMemInvalidate(p, size));
}

static PYACL_FASTCALL(py_pointer_get_attributes) {
  (void)self;
  void *p;
  if (!pyacl_parse("acl.rt.pointer_get_attributes", args, nargs, "p", &p))
    return NULL;
  aclrtPtrAttributes a;
  memset(&a, 0, sizeof a);
  aclError ret = aclrtPointerGetAttributes(p, &a);
  PyObject *d =
      Py_BuildValue("{s:{s:k,s:i},s:k,s:[kkkk]}", "location", "id", (unsigned long)a.location.id, "type",
                    (int)a.location.type, "page_size", (unsigned long)a.pageSize, "rsv", (unsigned long)a.rsv[0],
                    (unsigned long)a.rsv[1], (unsigned long)a.rsv[2], (unsigned long)a.rsv[3]);
  return pyacl_tuple_ret(d, ret);
}

/* IPC memory (docs/processes.md). */
static PYACL_FASTCALL(py_ipc_mem_get_export_key) {
  (void)self;
  void *p;
  size_t size, key_len;
  uint64_t flag;
  if (!pyacl_parse("acl.rt.ipc_mem_get_export_key", args, nargs, "pzzK", &p, &size, &key_len, &flag))
    return NULL;
  if (key_len >= 1024) {
    PyErr_SetString(PyExc_ValueError, "acl.rt.ipc_mem_get_export_key: key_len must be below 1024");
    return NULL;
  }
  char key[1024] = "";
  aclError ret = aclrtIpcMemGetExportKey(p, size, key, key_len, flag);
  return pyacl_tuple_ret(PyUnicode_FromString(ret == ACL_SUCCESS ? key : ""), ret);
}

static PYACL_FASTCALL(py_ipc_mem_set_import_pid) {
  (void)self;
  const char *key;
  PyObject *list;
  if (!pyacl_parse("acl.rt.ipc_mem_set_import_pid", args, nargs, "sl", &key, &list))
    return NULL;
  int32_t pids[PYACL_MAX_PIDS];
  size_t n = 0;
  if (!pyacl_list_to_pids("acl.rt.ipc_mem_set_import_pid", list, pids, &n))
    return NULL;
  return pyacl_ret(aclrtIpcMemSetImportPid(key, n > 0 ? pids : NULL, n));
}

static PYACL_FASTCALL(py_ipc_mem_import_by_key) {
  (void)self;
  const char *key;
  uint64_t flag;
  if (!pyacl_parse("acl.rt.ipc_mem_import_by_key", args, nargs, "sK", &key, &flag))
    return NULL;
  void *p = NULL;
  aclError ret = aclrtIpcMemImportByKey(&p, key, flag);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_ipc_mem_close) {
  (void)self;
  const char *key;
  if (!pyacl_parse("acl.rt.ipc_mem_close", args, nargs, "s", &key))
    return NULL;
  return pyacl_ret(aclrtIpcMemClose(key));
}

/* Virtual memory and shareable handles (docs/processes.md). */

/* prop for malloc_physical / mem_get_allocation_granularity: {'memAttr': int,
 * 'location': {'id': int, 'type': int}} required (KeyError when missing),
 * 'handleType', 'allocationType', 'reserve' optional (0). */
static int parse_phys_prop(const char *name, PyObject *d, aclrtPhysicalMemProp *p) {
  memset(p, 0, sizeof *p);
  unsigned long long v = 0;
  static const char *const optional[] = {"handleType", "allocationType", "reserve"};
  for (int i = 0; i < 3; i++) {
    v = 0;
    if (PyDict_GetItemString(d, optional[i]) != NULL && !cfg_int(name, d, optional[i], &v))
      return 0;
    if (i == 0)
      p->handleType = (aclrtMemHandleType)(int)v;
    else if (i == 1)
      p->allocationType = (aclrtMemAllocationType)(int)v;
    else
      p->reserve = v;
  }
  if (!cfg_int(name, d, "memAttr", &v))
    return 0;
  p->memAttr = (aclrtMemAttr)(int)v;
  PyObject *loc = cfg_item(d, "location");
  if (!loc)
    return 0;
  if (!PyDict_Check(loc)) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: prop 'location' must be a dict", name);
    return 0;
  }
  if (!cfg_int(name, loc, "id", &v))
    return 0;
  p->location.id = (uint32_t)v;
  if (!cfg_int(name, loc, "type", &v))
    return 0;
  p->location.type = (aclrtMemLocationType)(int)v;
  return 1;
}

static PYACL_FASTCALL(py_reserve_mem_address) {
  (void)self;
  size_t size, alignment;
  void *expect;
  uint64_t flags;
  if (!pyacl_parse("acl.rt.reserve_mem_address", args, nargs, "zzpK", &size, &alignment, &expect, &flags))
    return NULL;
  void *p = NULL;
  aclError ret = aclrtReserveMemAddress(&p, size, alignment, expect, flags);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? p : NULL), ret);
}

static PYACL_FASTCALL(py_release_mem_address) {
  (void)self;
  void *p;
  if (!pyacl_parse("acl.rt.release_mem_address", args, nargs, "p", &p))
    return NULL;
  return pyacl_ret(aclrtReleaseMemAddress(p));
}

static PYACL_FASTCALL(py_malloc_physical) {
  (void)self;
  size_t size;
  PyObject *d;
  uint64_t flags;
  if (!pyacl_parse("acl.rt.malloc_physical", args, nargs, "zdK", &size, &d, &flags))
    return NULL;
  aclrtPhysicalMemProp prop;
  if (!parse_phys_prop("acl.rt.malloc_physical", d, &prop))
    return NULL;
  aclrtDrvMemHandle h = NULL;
  aclError ret = aclrtMallocPhysical(&h, size, &prop, flags);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? h : NULL), ret);
}

static PYACL_FASTCALL(py_free_physical) {
  (void)self;
  void *h;
  if (!pyacl_parse("acl.rt.free_physical", args, nargs, "p", &h))
    return NULL;
  return pyacl_ret(aclrtFreePhysical(h));
}

static PYACL_FASTCALL(py_map_mem) {
  (void)self;
  void *p, *h;
  size_t size, offset;
  uint64_t flags;
  if (!pyacl_parse("acl.rt.map_mem", args, nargs, "pzzpK", &p, &size, &offset, &h, &flags))
    return NULL;
  return pyacl_ret(aclrtMapMem(p, size, offset, h, flags));
}

static PYACL_FASTCALL(py_unmap_mem) {
  (void)self;
  void *p;
  if (!pyacl_parse("acl.rt.unmap_mem", args, nargs, "p", &p))
    return NULL;
  return pyacl_ret(aclrtUnmapMem(p));
}

static PYACL_FASTCALL(py_mem_export_to_shareable_handle) {
  (void)self;
  void *h;
  int32_t type;
  uint64_t flags;
  if (!pyacl_parse("acl.rt.mem_export_to_shareable_handle", args, nargs, "piK", &h, &type, &flags))
    return NULL;
  uint64_t sh = 0;
  aclError ret = aclrtMemExportToShareableHandle(h, (aclrtMemHandleType)type, flags, &sh);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong(ret == ACL_SUCCESS ? sh : 0), ret);
}

static PYACL_FASTCALL(py_mem_set_pid_to_shareable_handle) {
  (void)self;
  uint64_t sh;
  PyObject *list;
  if (!pyacl_parse("acl.rt.mem_set_pid_to_shareable_handle", args, nargs, "Kl", &sh, &list))
    return NULL;
  int32_t pids[PYACL_MAX_PIDS];
  size_t n = 0;
  if (!pyacl_list_to_pids("acl.rt.mem_set_pid_to_shareable_handle", list, pids, &n))
    return NULL;
  return pyacl_ret(aclrtMemSetPidToShareableHandle(sh, n > 0 ? pids : NULL, n));
}

static PYACL_FASTCALL(py_mem_import_from_shareable_handle) {
  (void)self;
  uint64_t sh;
  int32_t dev;
  if (!pyacl_parse("acl.rt.mem_import_from_shareable_handle", args, nargs, "Ki", &sh, &dev))
    return NULL;
  aclrtDrvMemHandle h = NULL;
  aclError ret = aclrtMemImportFromShareableHandle(sh, dev, &h);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? h : NULL), ret);
}

static PYACL_FASTCALL(py_mem_get_allocation_granularity) {
  (void)self;
  PyObject *d;
  int32_t option;
  if (!pyacl_parse("acl.rt.mem_get_allocation_granularity", args, nargs, "di", &d, &option))
    return NULL;
  aclrtPhysicalMemProp prop;
  if (!parse_phys_prop("acl.rt.mem_get_allocation_granularity", d, &prop))
    return NULL;
  size_t g = 0;
  aclError ret = aclrtMemGetAllocationGranularity(&prop, (aclrtMemGranularityOptions)option, &g);
  return pyacl_tuple_ret(PyLong_FromSize_t(ret == ACL_SUCCESS ? g : 0), ret);
}

PyMethodDef pyacl_rt_memory_methods[] = {
    PYACL_FN("malloc", py_malloc),
    PYACL_FN("malloc_align32", py_malloc_align32),
    PYACL_FN("malloc_cached", py_malloc_cached),
    PYACL_FN("malloc_with_cfg", py_malloc_with_cfg),
    PYACL_FN("malloc_for_task_scheduler", py_malloc_for_task_scheduler),
    PYACL_FN("malloc_host", py_malloc_host),
    PYACL_FN("malloc_host_with_cfg", py_malloc_host_with_cfg),
    PYACL_FN("free", py_free),
    PYACL_FN("free_host", py_free_host),
    PYACL_FN("ipc_mem_get_export_key", py_ipc_mem_get_export_key),
    PYACL_FN("ipc_mem_set_import_pid", py_ipc_mem_set_import_pid),
    PYACL_FN("ipc_mem_import_by_key", py_ipc_mem_import_by_key),
    PYACL_FN("ipc_mem_close", py_ipc_mem_close),
    PYACL_FN("reserve_mem_address", py_reserve_mem_address),
    PYACL_FN("release_mem_address", py_release_mem_address),
    PYACL_FN("malloc_physical", py_malloc_physical),
    PYACL_FN("free_physical", py_free_physical),
    PYACL_FN("map_mem", py_map_mem),
    PYACL_FN("unmap_mem", py_unmap_mem),
    PYACL_FN("mem_export_to_shareable_handle", py_mem_export_to_shareable_handle),
    PYACL_FN("mem_set_pid_to_shareable_handle", py_mem_set_pid_to_shareable_handle),
    PYACL_FN("mem_import_from_shareable_handle", py_mem_import_from_shareable_handle),
    PYACL_FN("mem_get_allocation_granularity", py_mem_get_allocation_granularity),
    PYACL_FN("memcpy", py_memcpy),
    PYACL_FN("memcpy_async", py_memcpy_async),
    PYACL_FN("memcpy_async_with_condition", py_memcpy_async_with_condition),
    PYACL_FN("memcpy2d", py_memcpy2d),
    PYACL_FN("memcpy2d_async", py_memcpy2d_async),
    PYACL_FN("memset", py_memset),
    PYACL_FN("memset_async", py_memset_async),
    PYACL_FN("get_mem_info", py_get_mem_info),
    PYACL_FN("mem_flush", py_mem_flush),
    PYACL_FN("mem_invalidate", py_mem_invalidate),
    PYACL_FN("pointer_get_attributes", py_pointer_get_attributes),
    {NULL, NULL, 0, NULL},
};
