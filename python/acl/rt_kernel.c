/*
 * rt_kernel.c - acl.rt kernel binaries and launches: creating and loading
 * binaries (with the load-option list), looking functions up, building
 * argument handles and launching (with the launch-config list).
 *
 * Several calls read or write host memory given as an int (binary bytes,
 * parameter values, caller memory for argument handles): the range is
 * checked to be mapped first, so a bogus int gets ACL_ERROR_INVALID_PARAM
 * instead of a crash.
 */
#include "pyacl.h"

#include <string.h>

#include "openacl/openacl.h"

/* Longest kernel name get_function_name returns, as pyACL bounds it. */
#define NAME_MAX_LEN 1024

/* 1 when [p, p+n) is mapped (or p is NULL, which C reports itself);
 * otherwise records why against `api` and returns 0. */
static int host_ok(const char *api, const char *arg, const void *p, size_t n) {
  if (p == NULL || pyacl_host_range_ok(p, n))
    return 1;
  char detail[256];
  snprintf(detail, sizeof detail,
           "%s: host address %p (%zu bytes) is not mapped memory of this process. Remedy: pass the address "
           "and size of a live host buffer",
           arg, p, n);
  openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail);
  return 0;
}

/* An int item of a dict in an options list; KeyError when absent. */
static int item_int(const char *name, PyObject *d, const char *key, unsigned long long *out) {
  PyObject *v = PyDict_GetItemString(d, key); /* borrowed */
  if (!v) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_KeyError, key);
    return 0;
  }
  if (!PyLong_Check(v)) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: '%s' must be an int", name, key);
    return 0;
  }
  *out = PyLong_AsUnsignedLongLongMask(v);
  return !PyErr_Occurred();
}

/* The dicts of an options or config list, in order; each must be a dict. */
static PyObject *list_dict(const char *name, PyObject *list, Py_ssize_t i) {
  PyObject *d = PyList_GET_ITEM(list, i);
  if (!PyDict_Check(d)) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: list items must be dicts", name);
    return NULL;
  }
  return d;
}

/*
 * [{'type': t, 'value': v}, ...] as aclrtBinaryLoadOptions; `[]` gives no
 * options (*use = 0).  opts->options is PyMem-allocated: free it.  Every
 * option value is a 32-bit field at the start of the union.
 */
static int parse_load_options(const char *name, PyObject *list, aclrtBinaryLoadOptions *opts, int *use) {
  Py_ssize_t n = PyList_GET_SIZE(list);
  memset(opts, 0, sizeof *opts);
  *use = n != 0;
  if (!*use)
    return 1;
  opts->options = PyMem_Calloc((size_t)n, sizeof *opts->options);
  if (!opts->options) {
    PyErr_NoMemory();
    return 0;
  }
  opts->numOpt = (size_t)n;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *d = list_dict(name, list, i);
    unsigned long long type, value;
    if (!d || !item_int(name, d, "type", &type) || !item_int(name, d, "value", &value))
      return 0;
    opts->options[i].type = (aclrtBinaryLoadOptionType)(int)type;
    opts->options[i].value.rsv[0] = (uint32_t)value;
  }
  return 1;
}

/* Sets one launch attribute's value in the union member its id selects. */
static void set_launch_value(aclrtLaunchKernelAttr *at, unsigned long long v) {
  switch (at->id) {
  case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
    at->value.schemMode = (uint8_t)v;
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
    at->value.engineType = (aclrtEngineType)(int)v;
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
    at->value.isBlockTaskPrefetch = (uint8_t)v;
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
    at->value.isDataDump = (uint8_t)v;
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
    at->value.timeout = (uint16_t)v;
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
    at->value.timeoutUs.timeoutLow = (uint32_t)v;
    at->value.timeoutUs.timeoutHigh = (uint32_t)(v >> 32);
    break;
  case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: /* a one-byte switch, absent from the union */
    at->value.isDataDump = (uint8_t)v;
    break;
  default: /* DYN_UBUF_SIZE, BLOCKDIM_OFFSET and unknown ids: 32 bits */
    at->value.rsv[0] = (uint32_t)v;
    break;
  }
}

/* [{'id': id, 'value': v}, ...] as aclrtLaunchKernelCfg; `[]` gives none. */
static int parse_launch_cfg(const char *name, PyObject *list, aclrtLaunchKernelCfg *cfg, int *use) {
  Py_ssize_t n = PyList_GET_SIZE(list);
  memset(cfg, 0, sizeof *cfg);
  *use = n != 0;
  if (!*use)
    return 1;
  cfg->attrs = PyMem_Calloc((size_t)n, sizeof *cfg->attrs);
  if (!cfg->attrs) {
    PyErr_NoMemory();
    return 0;
  }
  cfg->numAttrs = (size_t)n;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *d = list_dict(name, list, i);
    unsigned long long id, value;
    if (!d || !item_int(name, d, "id", &id) || !item_int(name, d, "value", &value))
      return 0;
    cfg->attrs[i].id = (aclrtLaunchKernelAttrId)(int)id;
    set_launch_value(&cfg->attrs[i], value);
  }
  return 1;
}

/* ---- binaries ----------------------------------------------------------- */

static PYACL_FASTCALL(py_create_binary) {
  (void)self;
  void *data;
  size_t size;
  if (!pyacl_parse("acl.rt.create_binary", args, nargs, "pz", &data, &size))
    return NULL;
  if (!host_ok("aclrtCreateBinary", "data", data, size))
    return pyacl_ptr(NULL);
  return pyacl_ptr(aclrtCreateBinary(data, size));
}

static PYACL_FASTCALL(py_destroy_binary) {
  (void)self;
  void *bin;
  if (!pyacl_parse("acl.rt.destroy_binary", args, nargs, "p", &bin))
    return NULL;
  return pyacl_ret(aclrtDestroyBinary(bin));
}

/* Loading runs the loader (and the binary's constructors): without the GIL. */
static PYACL_FASTCALL(py_binary_load) {
  (void)self;
  void *bin;
  if (!pyacl_parse("acl.rt.binary_load", args, nargs, "p", &bin))
    return NULL;
  aclrtBinHandle h = NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtBinaryLoad(bin, &h);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(pyacl_ptr(h), ret);
}

static PYACL_FASTCALL(py_binary_unload) {
  (void)self;
  void *h;
  if (!pyacl_parse("acl.rt.binary_unload", args, nargs, "p", &h))
    return NULL;
  return pyacl_ret(aclrtBinaryUnLoad(h));
}

static PYACL_FASTCALL(py_binary_load_from_file) {
  (void)self;
  const char *path;
  PyObject *list;
  if (!pyacl_parse("acl.rt.binary_load_from_file", args, nargs, "sl", &path, &list))
    return NULL;
  aclrtBinaryLoadOptions opts;
  int use;
  if (!parse_load_options("acl.rt.binary_load_from_file", list, &opts, &use)) {
    PyMem_Free(opts.options);
    return NULL;
  }
  aclrtBinHandle h = NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtBinaryLoadFromFile(path, use ? &opts : NULL, &h);
  Py_END_ALLOW_THREADS
  PyMem_Free(opts.options);
  return pyacl_tuple_ret(pyacl_ptr(h), ret);
}

static PYACL_FASTCALL(py_binary_load_from_data) {
  (void)self;
  void *data;
  size_t size;
  PyObject *list;
  if (!pyacl_parse("acl.rt.binary_load_from_data", args, nargs, "pzl", &data, &size, &list))
    return NULL;
  aclrtBinaryLoadOptions opts;
  int use;
  if (!parse_load_options("acl.rt.binary_load_from_data", list, &opts, &use)) {
    PyMem_Free(opts.options);
    return NULL;
  }
  aclrtBinHandle h = NULL;
  aclError ret = ACL_ERROR_INVALID_PARAM;
  if (host_ok("aclrtBinaryLoadFromData", "data", data, size)) {
    Py_BEGIN_ALLOW_THREADS
    ret = aclrtBinaryLoadFromData(data, size, use ? &opts : NULL, &h);
    Py_END_ALLOW_THREADS
  }
  PyMem_Free(opts.options);
  return pyacl_tuple_ret(pyacl_ptr(h), ret);
}

static PYACL_FASTCALL(py_binary_get_function) {
  (void)self;
  void *h;
  const char *kernel;
  if (!pyacl_parse("acl.rt.binary_get_function", args, nargs, "ps", &h, &kernel))
    return NULL;
  aclrtFuncHandle f = NULL;
  aclError ret = aclrtBinaryGetFunction(h, kernel, &f);
  return pyacl_tuple_ret(pyacl_ptr(f), ret);
}

static PYACL_FASTCALL(py_get_function_name) {
  (void)self;
  void *f;
  uint32_t max_len;
  if (!pyacl_parse("acl.rt.get_function_name", args, nargs, "pI", &f, &max_len))
    return NULL;
  if (max_len >= NAME_MAX_LEN) {
    PyErr_Format(PyExc_ValueError, "get_function_name: max_len %u must be less than %d", max_len, NAME_MAX_LEN);
    return NULL;
  }
  char name[NAME_MAX_LEN];
  memset(name, 0, sizeof name);
  aclError ret = aclrtGetFunctionName(f, max_len, name);
  name[NAME_MAX_LEN - 1] = '\0';
  return pyacl_tuple_ret(PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name), "replace"), ret);
}

/* ---- argument handles --------------------------------------------------- */

static PYACL_FASTCALL(py_kernel_args_init) {
  (void)self;
  void *f;
  if (!pyacl_parse("acl.rt.kernel_args_init", args, nargs, "p", &f))
    return NULL;
  aclrtArgsHandle a = NULL;
  aclError ret = aclrtKernelArgsInit(f, &a);
  return pyacl_tuple_ret(pyacl_ptr(a), ret);
}

static PYACL_FASTCALL(py_kernel_args_init_by_user_mem) {
  (void)self;
  void *f, *handle_mem, *user_mem;
  size_t size;
  if (!pyacl_parse("acl.rt.kernel_args_init_by_user_mem", args, nargs, "pppz", &f, &handle_mem, &user_mem, &size))
    return NULL;
  /* C builds the handle in handle_mem, as many bytes as the function's
   * handle size; when that size is unknown (a bad function) C refuses. */
  size_t handle_size = 0;
  if (aclrtKernelArgsGetHandleMemSize(f, &handle_size) != ACL_SUCCESS)
    handle_size = 0;
  if (!host_ok("aclrtKernelArgsInitByUserMem", "argsHandle", handle_mem, handle_size) ||
      !host_ok("aclrtKernelArgsInitByUserMem", "userHostMem", user_mem, size))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  return pyacl_ret(aclrtKernelArgsInitByUserMem(f, handle_mem, user_mem, size));
}

static PYACL_FASTCALL(py_kernel_args_get_mem_size) {
  (void)self;
  void *f;
  size_t user_size;
  if (!pyacl_parse("acl.rt.kernel_args_get_mem_size", args, nargs, "pz", &f, &user_size))
    return NULL;
  size_t actual = 0;
  aclError ret = aclrtKernelArgsGetMemSize(f, user_size, &actual);
  return pyacl_tuple_ret(PyLong_FromSize_t(actual), ret);
}

static PYACL_FASTCALL(py_kernel_args_get_handle_mem_size) {
  (void)self;
  void *f;
  if (!pyacl_parse("acl.rt.kernel_args_get_handle_mem_size", args, nargs, "p", &f))
    return NULL;
  size_t size = 0;
  aclError ret = aclrtKernelArgsGetHandleMemSize(f, &size);
  return pyacl_tuple_ret(PyLong_FromSize_t(size), ret);
}

static PYACL_FASTCALL(py_kernel_args_append) {
  (void)self;
  void *a, *param;
  size_t size;
  if (!pyacl_parse("acl.rt.kernel_args_append", args, nargs, "ppz", &a, &param, &size))
    return NULL;
  if (!host_ok("aclrtKernelArgsAppend", "param", param, size))
    return pyacl_tuple_ret(pyacl_ptr(NULL), ACL_ERROR_INVALID_PARAM);
  aclrtParamHandle p = NULL;
  aclError ret = aclrtKernelArgsAppend(a, param, size, &p);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_kernel_args_append_place_holder) {
  (void)self;
  void *a;
  if (!pyacl_parse("acl.rt.kernel_args_append_place_holder", args, nargs, "p", &a))
    return NULL;
  aclrtParamHandle p = NULL;
  aclError ret = aclrtKernelArgsAppendPlaceHolder(a, &p);
  return pyacl_tuple_ret(pyacl_ptr(p), ret);
}

static PYACL_FASTCALL(py_kernel_args_get_place_holder_buffer) {
  (void)self;
  void *a, *p;
  size_t size;
  if (!pyacl_parse("acl.rt.kernel_args_get_place_holder_buffer", args, nargs, "ppz", &a, &p, &size))
    return NULL;
  void *buf = NULL;
  aclError ret = aclrtKernelArgsGetPlaceHolderBuffer(a, p, size, &buf);
  return pyacl_tuple_ret(pyacl_ptr(buf), ret);
}

static PYACL_FASTCALL(py_kernel_args_para_update) {
  (void)self;
  void *a, *p, *param;
  size_t size;
  if (!pyacl_parse("acl.rt.kernel_args_para_update", args, nargs, "pppz", &a, &p, &param, &size))
    return NULL;
  if (!host_ok("aclrtKernelArgsParaUpdate", "param", param, size))
    return pyacl_ret(ACL_ERROR_INVALID_PARAM);
  return pyacl_ret(aclrtKernelArgsParaUpdate(a, p, param, size));
}

static PYACL_FASTCALL(py_kernel_args_finalize) {
  (void)self;
  void *a;
  if (!pyacl_parse("acl.rt.kernel_args_finalize", args, nargs, "p", &a))
    return NULL;
  return pyacl_ret(aclrtKernelArgsFinalize(a));
}

/* ---- launches (asynchronous: they only queue work) ---------------------- */

static PYACL_FASTCALL(py_launch_kernel) {
  (void)self;
  void *f, *argp, *stream;
  uint32_t blocks;
  size_t size;
  if (!pyacl_parse("acl.rt.launch_kernel", args, nargs, "pIpzp", &f, &blocks, &argp, &size, &stream))
    return NULL;
  return pyacl_ret(aclrtLaunchKernel(f, blocks, argp, size, stream));
}

static PYACL_FASTCALL(py_launch_kernel_with_config) {
  (void)self;
  void *f, *stream, *a, *reserve;
  uint32_t blocks;
  PyObject *list;
  if (!pyacl_parse("acl.rt.launch_kernel_with_config", args, nargs, "pIplpp", &f, &blocks, &stream, &list, &a, &reserve))
    return NULL;
  aclrtLaunchKernelCfg cfg;
  int use;
  if (!parse_launch_cfg("acl.rt.launch_kernel_with_config", list, &cfg, &use)) {
    PyMem_Free(cfg.attrs);
    return NULL;
  }
  aclError ret = aclrtLaunchKernelWithConfig(f, blocks, stream, use ? &cfg : NULL, a, reserve);
  PyMem_Free(cfg.attrs);
  return pyacl_ret(ret);
}

PyMethodDef pyacl_rt_kernel_methods[] = {
    PYACL_FN("create_binary", py_create_binary),
    PYACL_FN("destroy_binary", py_destroy_binary),
    PYACL_FN("binary_load", py_binary_load),
    PYACL_FN("binary_unload", py_binary_unload),
    PYACL_FN("binary_load_from_file", py_binary_load_from_file),
    PYACL_FN("binary_load_from_data", py_binary_load_from_data),
    PYACL_FN("binary_get_function", py_binary_get_function),
    PYACL_FN("get_function_name", py_get_function_name),
    PYACL_FN("launch_kernel", py_launch_kernel),
    PYACL_FN("kernel_args_init", py_kernel_args_init),
    PYACL_FN("kernel_args_init_by_user_mem", py_kernel_args_init_by_user_mem),
    PYACL_FN("kernel_args_get_mem_size", py_kernel_args_get_mem_size),
    PYACL_FN("kernel_args_get_handle_mem_size", py_kernel_args_get_handle_mem_size),
    PYACL_FN("kernel_args_append", py_kernel_args_append),
    PYACL_FN("kernel_args_append_place_holder", py_kernel_args_append_place_holder),
    PYACL_FN("kernel_args_get_place_holder_buffer", py_kernel_args_get_place_holder_buffer),
    PYACL_FN("kernel_args_para_update", py_kernel_args_para_update),
    PYACL_FN("kernel_args_finalize", py_kernel_args_finalize),
    PYACL_FN("launch_kernel_with_config", py_launch_kernel_with_config),
    {NULL, NULL, 0, NULL},
};
