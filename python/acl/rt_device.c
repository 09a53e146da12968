/*
 * rt_device.c - acl.rt devices and contexts: set/reset/query devices, peer
 * access, device synchronisation, and creating, switching and querying
 * contexts.
 */
#include "pyacl.h"

/* Opening or resetting a device starts or joins its executor threads, and
 * synchronising waits for them: none of it may hold the GIL, since a host
 * callback they wait for may need it. */
static PyObject *call_i32_nogil(const char *name, PyObject *const *args, Py_ssize_t nargs, aclError (*fn)(int32_t)) {
  int32_t v;
  if (!pyacl_parse(name, args, nargs, "i", &v))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = fn(v);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_set_device) {
  (void)self;
  return call_i32_nogil("acl.rt.set_device", args, nargs, aclrtSetDevice);
}

static PYACL_FASTCALL(py_reset_device) {
  (void)self;
  return call_i32_nogil("acl.rt.reset_device", args, nargs, aclrtResetDevice);
}

static PYACL_FASTCALL(py_reset_device_force) {
  (void)self;
  return call_i32_nogil("acl.rt.reset_device_force", args, nargs, aclrtResetDeviceForce);
}

static PYACL_FASTCALL(py_synchronize_device_with_timeout) {
  (void)self;
  /* The vendor keeps the GIL here; a wait of up to timeout_ms must not. */
  return call_i32_nogil("acl.rt.synchronize_device_with_timeout", args, nargs, aclrtSynchronizeDeviceWithTimeout);
}

static PYACL_FASTCALL(py_synchronize_device) {
  (void)self;
  (void)args;
  (void)nargs;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtSynchronizeDevice();
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_get_device) {
  (void)self;
  (void)args;
  (void)nargs;
  int32_t dev = 0;
  aclError ret = aclrtGetDevice(&dev);
  return pyacl_tuple_ret(PyLong_FromLong(dev), ret);
}

static PYACL_FASTCALL(py_get_device_count) {
  (void)self;
  (void)args;
  (void)nargs;
  uint32_t count = 0;
  aclError ret = aclrtGetDeviceCount(&count);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(count), ret);
}

static PYACL_FASTCALL(py_get_run_mode) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtRunMode mode = ACL_DEVICE;
  aclError ret = aclrtGetRunMode(&mode);
  return pyacl_tuple_ret(PyLong_FromLong((long)mode), ret);
}

static PYACL_FASTCALL(py_get_device_info) {
  (void)self;
  uint32_t dev, attr;
  if (!pyacl_parse("acl.rt.get_device_info", args, nargs, "II", &dev, &attr))
    return NULL;
  int64_t value = 0;
  aclError ret = aclrtGetDeviceInfo(dev, (aclrtDevAttr)attr, &value);
  /* Whole int64: the vendor's 32-bit truncation loses memory sizes. */
  return pyacl_tuple_ret(PyLong_FromLongLong((long long)value), ret);
}

static PYACL_FASTCALL(py_query_device_status) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.query_device_status", args, nargs, "i", &dev))
    return NULL;
  aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_NORMAL;
  aclError ret = aclrtQueryDeviceStatus(dev, &status);
  return pyacl_tuple_ret(PyLong_FromLong((long)status), ret);
}

static PYACL_FASTCALL(py_device_get_stream_priority_range) {
  (void)self;
  (void)args;
  (void)nargs;
  int32_t least = 0, greatest = 0;
  aclError ret = aclrtDeviceGetStreamPriorityRange(&least, &greatest);
  return Py_BuildValue("(iii)", (int)least, (int)greatest, (int)ret);
}

static PYACL_FASTCALL(py_device_can_access_peer) {
  (void)self;
  int32_t dev, peer;
  if (!pyacl_parse("acl.rt.device_can_access_peer", args, nargs, "ii", &dev, &peer))
    return NULL;
  int32_t can = 0;
  aclError ret = aclrtDeviceCanAccessPeer(&can, dev, peer);
  return pyacl_tuple_ret(PyLong_FromLong(can), ret);
}

static PYACL_FASTCALL(py_device_enable_peer_access) {
  (void)self;
  int32_t peer;
  uint32_t flags;
  if (!pyacl_parse("acl.rt.device_enable_peer_access", args, nargs, "iI", &peer, &flags))
    return NULL;
  return pyacl_ret(aclrtDeviceEnablePeerAccess(peer, flags));
}

static PYACL_FASTCALL(py_device_disable_peer_access) {
  (void)self;
  int32_t peer;
  if (!pyacl_parse("acl.rt.device_disable_peer_access", args, nargs, "i", &peer))
    return NULL;
  return pyacl_ret(aclrtDeviceDisablePeerAccess(peer));
}

/* ---- contexts ----------------------------------------------------------- */

static PYACL_FASTCALL(py_create_context) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.create_context", args, nargs, "i", &dev))
    return NULL;
  aclrtContext ctx = NULL;
  aclError ret;
  /* May open the device, which starts its threads. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtCreateContext(&ctx, dev);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(pyacl_ptr(ctx), ret);
}

static PYACL_FASTCALL(py_destroy_context) {
  (void)self;
  void *ctx;
  if (!pyacl_parse("acl.rt.destroy_context", args, nargs, "p", &ctx))
    return NULL;
  aclError ret;
  /* Destroying the context's streams waits for their work. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtDestroyContext(ctx);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_set_context) {
  (void)self;
  void *ctx;
  if (!pyacl_parse("acl.rt.set_context", args, nargs, "p", &ctx))
    return NULL;
  return pyacl_ret(aclrtSetCurrentContext(ctx));
}

static PYACL_FASTCALL(py_get_context) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtContext ctx = NULL;
  aclError ret = aclrtGetCurrentContext(&ctx);
  return pyacl_tuple_ret(pyacl_ptr(ctx), ret);
}

static PYACL_FASTCALL(py_ctx_get_current_default_stream) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtStream stream = NULL;
  aclError ret = aclrtCtxGetCurrentDefaultStream(&stream);
  return pyacl_tuple_ret(pyacl_ptr(stream), ret);
}

static PYACL_FASTCALL(py_get_primary_ctx_state) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.get_primary_ctx_state", args, nargs, "i", &dev))
    return NULL;
  /* A real flags variable: the vendor passes NULL, which C rejects. */
  uint32_t flags = 0;
  int32_t active = 0;
  aclError ret = aclrtGetPrimaryCtxState(dev, &flags, &active);
  return pyacl_tuple2_ret(PyLong_FromLong(active), PyLong_FromUnsignedLong(flags), ret);
}

PyMethodDef pyacl_rt_device_methods[] = {
    PYACL_FN("set_device", py_set_device),
    PYACL_FN("reset_device", py_reset_device),
    PYACL_FN("reset_device_force", py_reset_device_force),
    PYACL_FN("get_device", py_get_device),
    PYACL_FN("get_device_count", py_get_device_count),
    PYACL_FN("get_run_mode", py_get_run_mode),
    PYACL_FN("synchronize_device", py_synchronize_device),
    PYACL_FN("synchronize_device_with_timeout", py_synchronize_device_with_timeout),
    PYACL_FN("get_device_info", py_get_device_info),
    PYACL_FN("query_device_status", py_query_device_status),
    PYACL_FN("device_get_stream_priority_range", py_device_get_stream_priority_range),
    PYACL_FN("device_can_access_peer", py_device_can_access_peer),
    PYACL_FN("device_enable_peer_access", py_device_enable_peer_access),
    PYACL_FN("device_disable_peer_access", py_device_disable_peer_access),
    PYACL_FN("create_context", py_create_context),
    PYACL_FN("destroy_context", py_destroy_context),
    PYACL_FN("set_context", py_set_context),
    PYACL_FN("get_context", py_get_context),
    PYACL_FN("ctx_get_current_default_stream", py_ctx_get_current_default_stream),
    PYACL_FN("get_primary_ctx_state", py_get_primary_ctx_state),
    {NULL, NULL, 0, NULL},
};
