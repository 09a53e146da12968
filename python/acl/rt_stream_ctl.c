/*
 * rt_stream_ctl.c - acl.rt's stream and event controls beyond rt_stream.c
 * (pyacl.md §2.2; C side: docs/streams.md, docs/devices.md): stream abort,
 * the overflow switch, stream attributes, per-stream resource limits and
 * the thread's stream resources, stream and event counts, event ids, the
 * thread's last task id, and the value write / wait tasks.
 *
 * Stream 0 is the current context's default stream, as everywhere.
 */
#include "pyacl.h"

#include <string.h>

/* ---- stream abort and counts ------------------------------------------- */

/* Discards the stream's pending tasks and waits for the running one: without
 * the GIL, since that task may be a host callback that needs it. */
static PYACL_FASTCALL(py_stream_abort) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.stream_abort", args, nargs, "p", &stream))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtStreamAbort((aclrtStream)stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* (uint32 count, ret) from a C getter without arguments. */
static PyObject *u32_getter(aclError (*fn)(uint32_t *)) {
  uint32_t v = 0;
  aclError ret = fn(&v);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? v : 0), ret);
}

static PYACL_FASTCALL(py_get_stream_available_num) {
  (void)self;
  (void)args;
  (void)nargs;
  return u32_getter(aclrtGetStreamAvailableNum);
}

static PYACL_FASTCALL(py_get_event_avail_num) {
  (void)self;
  (void)args;
  (void)nargs;
  return u32_getter(aclrtGetEventAvailNum);
}

static PYACL_FASTCALL(py_get_thread_last_task_id) {
  (void)self;
  (void)args;
  (void)nargs;
  return u32_getter(aclrtGetThreadLastTaskId);
}

static PYACL_FASTCALL(py_get_event_id) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.get_event_id", args, nargs, "p", &event))
    return NULL;
  uint32_t id = 0;
  aclError ret = aclrtGetEventId((aclrtEvent)event, &id);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? id : 0), ret);
}

/* ---- overflow switch ------------------------------------------------------ */

static PYACL_FASTCALL(py_set_stream_overflow_switch) {
  (void)self;
  void *stream;
  uint32_t flag;
  if (!pyacl_parse("acl.rt.set_stream_overflow_switch", args, nargs, "pI", &stream, &flag))
    return NULL;
  return pyacl_ret(aclrtSetStreamOverflowSwitch((aclrtStream)stream, flag));
}

static PYACL_FASTCALL(py_get_stream_overflow_switch) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.get_stream_overflow_switch", args, nargs, "p", &stream))
    return NULL;
  uint32_t flag = 0;
  aclError ret = aclrtGetStreamOverflowSwitch((aclrtStream)stream, &flag);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? flag : 0), ret);
}

/* ---- stream attributes ------------------------------------------------------
 * The value dict has one key, chosen by the attribute as pyACL chooses it:
 * ACL_STREAM_ATTR_FAILURE_MODE (1) 'failureMode', FLOAT_OVERFLOW_CHECK (2)
 * 'overflowSwitch', USER_CUSTOM_TAG (3) 'userCustomTag', any other
 * 'reserved' (a list of the union's four uint32 words; CACHE_OP_INFO and
 * PRIORITY are its first word).  A missing key is 0. */

static const char *attr_key(int32_t attr) {
  switch (attr) {
  case ACL_STREAM_ATTR_FAILURE_MODE: return "failureMode";
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: return "overflowSwitch";
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG: return "userCustomTag";
  default: return "reserved";
  }
}

/* An int (or __index__) masked to 64 bits; 0 with TypeError otherwise. */
static int masked_u64(PyObject *o, uint64_t *out) {
  if (PyFloat_Check(o))
    return 0;
  PyObject *idx = PyNumber_Index(o);
  if (!idx)
    return 0;
  unsigned long long v = PyLong_AsUnsignedLongLongMask(idx);
  Py_DECREF(idx);
  if (v == (unsigned long long)-1 && PyErr_Occurred())
    return 0;
  *out = (uint64_t)v;
  return 1;
}

static int attr_from_dict(int32_t attr, PyObject *d, aclrtStreamAttrValue *v) {
  memset(v, 0, sizeof *v);
  const char *key = attr_key(attr);
  PyObject *o = PyDict_GetItemString(d, key); /* borrowed; NULL when missing */
  if (!o)
    return 1;
  uint64_t x = 0;
  switch (attr) {
  case ACL_STREAM_ATTR_FAILURE_MODE:
    if (!masked_u64(o, &x))
      return 0;
    v->failureMode = x;
    return 1;
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
    if (!masked_u64(o, &x))
      return 0;
    if (attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK)
      v->overflowSwitch = (uint32_t)x;
    else
      v->userCustomTag = (uint32_t)x;
    return 1;
  default:
    if (!PyList_Check(o) || PyList_GET_SIZE(o) > 4)
      return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
      if (!masked_u64(PyList_GET_ITEM(o, i), &x))
        return 0;
      v->reserve[i] = (uint32_t)x;
    }
    return 1;
  }
}

static PyObject *attr_to_dict(int32_t attr, const aclrtStreamAttrValue *v) {
  switch (attr) {
  case ACL_STREAM_ATTR_FAILURE_MODE:
    return Py_BuildValue("{s:K}", "failureMode", (unsigned long long)v->failureMode);
  case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
    return Py_BuildValue("{s:k}", "overflowSwitch", (unsigned long)v->overflowSwitch);
  case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
    return Py_BuildValue("{s:k}", "userCustomTag", (unsigned long)v->userCustomTag);
  default:
    return Py_BuildValue("{s:[kkkk]}", "reserved", (unsigned long)v->reserve[0], (unsigned long)v->reserve[1],
                         (unsigned long)v->reserve[2], (unsigned long)v->reserve[3]);
  }
}

static PYACL_FASTCALL(py_set_stream_attribute) {
  (void)self;
  void *stream;
  int32_t attr;
  PyObject *d;
  if (!pyacl_parse("acl.rt.set_stream_attribute", args, nargs, "pid", &stream, &attr, &d))
    return NULL;
  aclrtStreamAttrValue v;
  if (!attr_from_dict(attr, d, &v)) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "acl.rt.set_stream_attribute args parse failed");
    return NULL;
  }
  return pyacl_ret(aclrtSetStreamAttribute((aclrtStream)stream, (aclrtStreamAttr)attr, &v));
}

static PYACL_FASTCALL(py_get_stream_attribute) {
  (void)self;
  void *stream;
  int32_t attr;
  if (!pyacl_parse("acl.rt.get_stream_attribute", args, nargs, "pi", &stream, &attr))
    return NULL;
  aclrtStreamAttrValue v;
  memset(&v, 0, sizeof v);
  aclError ret = aclrtGetStreamAttribute((aclrtStream)stream, (aclrtStreamAttr)attr, &v);
  if (ret != ACL_SUCCESS)
    memset(&v, 0, sizeof v);
  return pyacl_tuple_ret(attr_to_dict(attr, &v), ret);
}

/* ---- resource limits ------------------------------------------------------- */

static PYACL_FASTCALL(py_get_stream_res_limit) {
  (void)self;
  void *stream;
  int32_t type;
  if (!pyacl_parse("acl.rt.get_stream_res_limit", args, nargs, "pi", &stream, &type))
    return NULL;
  uint32_t value = 0;
  aclError ret = aclrtGetStreamResLimit((aclrtStream)stream, (aclrtDevResLimitType)type, &value);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? value : 0), ret);
}

static PYACL_FASTCALL(py_set_stream_res_limit) {
  (void)self;
  void *stream;
  int32_t type;
  uint32_t value;
  if (!pyacl_parse("acl.rt.set_stream_res_limit", args, nargs, "piI", &stream, &type, &value))
    return NULL;
  return pyacl_ret(aclrtSetStreamResLimit((aclrtStream)stream, (aclrtDevResLimitType)type, value));
}

static PyObject *stream_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                             aclError (*fn)(aclrtStream)) {
  void *stream;
  if (!pyacl_parse(name, args, nargs, "p", &stream))
    return NULL;
  return pyacl_ret(fn((aclrtStream)stream));
}

static PYACL_FASTCALL(py_reset_stream_res_limit) {
  (void)self;
  return stream_call("acl.rt.reset_stream_res_limit", args, nargs, aclrtResetStreamResLimit);
}

static PYACL_FASTCALL(py_use_stream_res_in_current_thread) {
  (void)self;
  return stream_call("acl.rt.use_stream_res_in_current_thread", args, nargs, aclrtUseStreamResInCurrentThread);
}

static PYACL_FASTCALL(py_unuse_stream_res_in_current_thread) {
  (void)self;
  return stream_call("acl.rt.unuse_stream_res_in_current_thread", args, nargs, aclrtUnuseStreamResInCurrentThread);
}

static PYACL_FASTCALL(py_get_res_in_current_thread) {
  (void)self;
  int32_t type;
  if (!pyacl_parse("acl.rt.get_res_in_current_thread", args, nargs, "i", &type))
    return NULL;
  uint32_t value = 0;
  aclError ret = aclrtGetResInCurrentThread((aclrtDevResLimitType)type, &value);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? value : 0), ret);
}

/* ---- value write / wait ------------------------------------------------------
 * Tasks on the stream: value_write stores the 64-bit value at dev_addr (8-byte
 * aligned device memory) when it runs; value_wait holds the stream until the
 * word there satisfies flag (0 >=, 1 ==, 2 AND, 3 NOR).  Queuing does not
 * wait: the GIL is kept. */

static PyObject *value_task(const char *name, PyObject *const *args, Py_ssize_t nargs,
                            aclError (*fn)(void *, uint64_t, uint32_t, aclrtStream)) {
  void *addr, *stream;
  uint64_t value;
  uint32_t flag;
  if (!pyacl_parse(name, args, nargs, "pKIp", &addr, &value, &flag, &stream))
    return NULL;
  return pyacl_ret(fn(addr, value, flag, (aclrtStream)stream));
}

static PYACL_FASTCALL(py_value_write) {
  (void)self;
  return value_task("acl.rt.value_write", args, nargs, aclrtValueWrite);
}

static PYACL_FASTCALL(py_value_wait) {
  (void)self;
  return value_task("acl.rt.value_wait", args, nargs, aclrtValueWait);
}

PyMethodDef pyacl_rt_stream_ctl_methods[] = {
    PYACL_FN("stream_abort", py_stream_abort),
    PYACL_FN("get_stream_available_num", py_get_stream_available_num),
    PYACL_FN("set_stream_overflow_switch", py_set_stream_overflow_switch),
    PYACL_FN("get_stream_overflow_switch", py_get_stream_overflow_switch),
    PYACL_FN("set_stream_attribute", py_set_stream_attribute),
    PYACL_FN("get_stream_attribute", py_get_stream_attribute),
    PYACL_FN("get_stream_res_limit", py_get_stream_res_limit),
    PYACL_FN("set_stream_res_limit", py_set_stream_res_limit),
    PYACL_FN("reset_stream_res_limit", py_reset_stream_res_limit),
    PYACL_FN("use_stream_res_in_current_thread", py_use_stream_res_in_current_thread),
    PYACL_FN("unuse_stream_res_in_current_thread", py_unuse_stream_res_in_current_thread),
    PYACL_FN("get_res_in_current_thread", py_get_res_in_current_thread),
    PYACL_FN("get_event_id", py_get_event_id),
    PYACL_FN("get_event_avail_num", py_get_event_avail_num),
    PYACL_FN("get_thread_last_task_id", py_get_thread_last_task_id),
    PYACL_FN("value_write", py_value_write),
    PYACL_FN("value_wait", py_value_wait),
    {NULL, NULL, 0, NULL},
};
