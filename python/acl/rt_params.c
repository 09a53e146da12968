/*
 * rt_params.c - acl.rt's system parameters, operator timeouts and compute
 * groups (pyacl.md §2.2; C side: src/acl/sysparam_api.c, group_api.c):
 * ctx_set_sys_param_opt, ctx_get_sys_param_opt, set_sys_param_opt,
 * get_sys_param_opt, set_op_wait_timeout, set_op_execute_time_out,
 * set_op_execute_timeout_v2, get_op_timeout_interval,
 * get_op_execute_timeout, and the USE_MDL group functions set_group,
 * get_group_count, create_group_info, destroy_group_info,
 * get_all_group_info and get_group_info_detail; and set_ts_device,
 * get_mem_uce_info, register_cpu_func and get_function_addr.
 */
#include "pyacl.h"

/* ---- system parameters ----------------------------------------------------- */

static PyObject *param_set(const char *name, PyObject *const *args, Py_ssize_t nargs,
                           aclError (*fn)(aclSysParamOpt, int64_t)) {
  int32_t opt;
  int64_t value;
  if (!pyacl_parse(name, args, nargs, "iL", &opt, &value))
    return NULL;
  return pyacl_ret(fn((aclSysParamOpt)opt, value));
}

static PyObject *param_get(const char *name, PyObject *const *args, Py_ssize_t nargs,
                           aclError (*fn)(aclSysParamOpt, int64_t *)) {
  int32_t opt;
  if (!pyacl_parse(name, args, nargs, "i", &opt))
    return NULL;
  int64_t value = 0;
  aclError ret = fn((aclSysParamOpt)opt, &value);
  return pyacl_tuple_ret(PyLong_FromLongLong(ret == ACL_SUCCESS ? (long long)value : 0), ret);
}

static PYACL_FASTCALL(py_ctx_set_sys_param_opt) {
  (void)self;
  return param_set("acl.rt.ctx_set_sys_param_opt", args, nargs, aclrtCtxSetSysParamOpt);
}

static PYACL_FASTCALL(py_ctx_get_sys_param_opt) {
  (void)self;
  return param_get("acl.rt.ctx_get_sys_param_opt", args, nargs, aclrtCtxGetSysParamOpt);
}

static PYACL_FASTCALL(py_set_sys_param_opt) {
  (void)self;
  return param_set("acl.rt.set_sys_param_opt", args, nargs, aclrtSetSysParamOpt);
}

static PYACL_FASTCALL(py_get_sys_param_opt) {
  (void)self;
  return param_get("acl.rt.get_sys_param_opt", args, nargs, aclrtGetSysParamOpt);
}

/* ---- operator timeouts --------------------------------------------------------- */

static PYACL_FASTCALL(py_set_op_wait_timeout) {
  (void)self;
  uint32_t timeout;
  if (!pyacl_parse("acl.rt.set_op_wait_timeout", args, nargs, "I", &timeout))
    return NULL;
  return pyacl_ret(aclrtSetOpWaitTimeout(timeout));
}

static PYACL_FASTCALL(py_set_op_execute_time_out) {
  (void)self;
  uint32_t timeout;
  if (!pyacl_parse("acl.rt.set_op_execute_time_out", args, nargs, "I", &timeout))
    return NULL;
  return pyacl_ret(aclrtSetOpExecuteTimeOut(timeout));
}

static PYACL_FASTCALL(py_set_op_execute_timeout_v2) {
  (void)self;
  uint64_t timeout;
  if (!pyacl_parse("acl.rt.set_op_execute_timeout_v2", args, nargs, "K", &timeout))
    return NULL;
  uint64_t actual = 0;
  aclError ret = aclrtSetOpExecuteTimeOutV2(timeout, &actual);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong(ret == ACL_SUCCESS ? actual : 0), ret);
}

static PYACL_FASTCALL(py_get_op_timeout_interval) {
  (void)self;
  (void)args;
  (void)nargs;
  uint64_t interval = 0;
  aclError ret = aclrtGetOpTimeOutInterval(&interval);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong(ret == ACL_SUCCESS ? interval : 0), ret);
}

static PYACL_FASTCALL(py_get_op_execute_timeout) {
  (void)self;
  (void)args;
  (void)nargs;
  uint32_t ms = 0;
  aclError ret = aclrtGetOpExecuteTimeout(&ms);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? ms : 0), ret);
}

/* ---- compute groups (USE_MDL in pyACL) --------------------------------------------- */

static PYACL_FASTCALL(py_set_group) {
  (void)self;
  uint32_t group;
  if (!pyacl_parse("acl.rt.set_group", args, nargs, "I", &group))
    return NULL;
  return pyacl_ret(aclrtSetGroup((int32_t)group));
}

/* The argument is unused but required, as pyACL's. */
static PYACL_FASTCALL(py_get_group_count) {
  (void)self;
  uint32_t dummy;
  if (!pyacl_parse("acl.rt.get_group_count", args, nargs, "I", &dummy))
    return NULL;
  uint32_t count = 0;
  aclError ret = aclrtGetGroupCount(&count);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? count : 0), ret);
}

static PYACL_FASTCALL(py_create_group_info) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclrtCreateGroupInfo());
}

static PYACL_FASTCALL(py_destroy_group_info) {
  (void)self;
  void *g;
  if (!pyacl_parse("acl.rt.destroy_group_info", args, nargs, "p", &g))
    return NULL;
  return pyacl_ret(aclrtDestroyGroupInfo((aclrtGroupInfo *)g));
}

static PYACL_FASTCALL(py_get_all_group_info) {
  (void)self;
  void *g;
  if (!pyacl_parse("acl.rt.get_all_group_info", args, nargs, "p", &g))
    return NULL;
  return pyacl_ret(aclrtGetAllGroupInfo((aclrtGroupInfo *)g));
}

/* (group_info, group_index, attr) -> ([int32 values], ret).  As pyACL, and
 * unlike the rest of the module, a C failure or an empty answer raises
 * RuntimeError (pyacl.md §3.1). */
static PYACL_FASTCALL(py_get_group_info_detail) {
  (void)self;
  void *g;
  int32_t index, attr;
  if (!pyacl_parse("acl.rt.get_group_info_detail", args, nargs, "pii", &g, &index, &attr))
    return NULL;
  int32_t values[16] = {0};
  size_t got = 0;
  aclError ret = aclrtGetGroupInfoDetail((const aclrtGroupInfo *)g, index, (aclrtGroupAttr)attr, values,
                                         sizeof values, &got);
  size_t n = got / sizeof values[0];
  if (ret != ACL_SUCCESS || n == 0) {
    PyErr_Format(PyExc_RuntimeError, "acl.rt.get_group_info_detail: aclrtGetGroupInfoDetail returned %d with %zu "
                 "values", (int)ret, n);
    return NULL;
  }
  if (n > sizeof values / sizeof values[0])
    n = sizeof values / sizeof values[0];
  int64_t wide[sizeof values / sizeof values[0]];
  for (size_t i = 0; i < n; i++)
    wide[i] = values[i];
  return pyacl_tuple_ret(pyacl_list_i64(wide, n), ret);
}

/* ---- the rest: task scheduler, UCE records, CPU kernels ----------------------------- */

static PYACL_FASTCALL(py_set_ts_device) {
  (void)self;
  int32_t ts;
  if (!pyacl_parse("acl.rt.set_ts_device", args, nargs, "i", &ts))
    return NULL;
  return pyacl_ret(aclrtSetTsDevice((aclrtTsId)ts));
}

/* (device_id, array_size) -> ([{'addr', 'len', 'reserved'}...], ret): at
 * most array_size records (capped at 1024) of memory hit by uncorrectable
 * errors. */
static PYACL_FASTCALL(py_get_mem_uce_info) {
  (void)self;
  int32_t dev;
  uint32_t n;
  if (!pyacl_parse("acl.rt.get_mem_uce_info", args, nargs, "iI", &dev, &n))
    return NULL;
  if (n > 1024)
    n = 1024;
  aclrtMemUceInfo *v = PyMem_Calloc(n ? n : 1, sizeof *v);
  if (!v)
    return PyErr_NoMemory();
  size_t got = 0;
  aclError ret = aclrtGetMemUceInfo(dev, v, n, &got);
  if (ret != ACL_SUCCESS || got > n)
    got = 0;
  PyObject *list = PyList_New((Py_ssize_t)got);
  for (size_t i = 0; list && i < got; i++) {
    int64_t rsv[14];
    for (size_t k = 0; k < 14; k++)
      rsv[k] = (int64_t)v[i].reserved[k];
    PyObject *d = Py_BuildValue("{s:N,s:n,s:N}", "addr", pyacl_ptr(v[i].addr), "len", (Py_ssize_t)v[i].len,
                                "reserved", pyacl_list_i64(rsv, 14));
    if (!d)
      Py_CLEAR(list);
    else
      PyList_SET_ITEM(list, (Py_ssize_t)i, d);
  }
  PyMem_Free(v);
  return pyacl_tuple_ret(list, ret);
}

static PYACL_FASTCALL(py_register_cpu_func) {
  (void)self;
  void *bin;
  const char *func_name, *kernel_name;
  if (!pyacl_parse("acl.rt.register_cpu_func", args, nargs, "pss", &bin, &func_name, &kernel_name))
    return NULL;
  aclrtFuncHandle f = NULL;
  aclError ret = aclrtRegisterCpuFunc((aclrtBinHandle)bin, func_name, kernel_name, &f);
  return pyacl_tuple_ret(pyacl_ptr(ret == ACL_SUCCESS ? f : NULL), ret);
}

static PYACL_FASTCALL(py_get_function_addr) {
  (void)self;
  void *f;
  if (!pyacl_parse("acl.rt.get_function_addr", args, nargs, "p", &f))
    return NULL;
  void *aic = NULL, *aiv = NULL;
  aclError ret = aclrtGetFunctionAddr((aclrtFuncHandle)f, &aic, &aiv);
  if (ret != ACL_SUCCESS)
    aic = aiv = NULL;
  return pyacl_tuple2_ret(pyacl_ptr(aic), pyacl_ptr(aiv), ret);
}

PyMethodDef pyacl_rt_params_methods[] = {
    PYACL_FN("ctx_set_sys_param_opt", py_ctx_set_sys_param_opt),
    PYACL_FN("ctx_get_sys_param_opt", py_ctx_get_sys_param_opt),
    PYACL_FN("set_sys_param_opt", py_set_sys_param_opt),
    PYACL_FN("get_sys_param_opt", py_get_sys_param_opt),
    PYACL_FN("set_op_wait_timeout", py_set_op_wait_timeout),
    PYACL_FN("set_op_execute_time_out", py_set_op_execute_time_out),
    PYACL_FN("set_op_execute_timeout_v2", py_set_op_execute_timeout_v2),
    PYACL_FN("get_op_timeout_interval", py_get_op_timeout_interval),
    PYACL_FN("get_op_execute_timeout", py_get_op_execute_timeout),
    PYACL_FN("set_group", py_set_group),
    PYACL_FN("get_group_count", py_get_group_count),
    PYACL_FN("create_group_info", py_create_group_info),
    PYACL_FN("destroy_group_info", py_destroy_group_info),
    PYACL_FN("get_all_group_info", py_get_all_group_info),
    PYACL_FN("get_group_info_detail", py_get_group_info_detail),
    PYACL_FN("set_ts_device", py_set_ts_device),
    PYACL_FN("get_mem_uce_info", py_get_mem_uce_info),
    PYACL_FN("register_cpu_func", py_register_cpu_func),
    PYACL_FN("get_function_addr", py_get_function_addr),
    {NULL, NULL, 0, NULL},
};
