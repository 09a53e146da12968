/*
 * acl_base.c - the top-level `acl` functions: lifecycle, versions, error
 * messages, the application log, float16 conversions and data buffers.
 */
#include "pyacl.h"

#include <string.h>

static PYACL_FASTCALL(py_init) {
  (void)self;
  const char *path = NULL; /* omitted: NULL; "" is "no file" as well */
  if (!pyacl_parse("acl.init", args, nargs, "|s", &path))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclInit(path);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_finalize) {
  (void)self;
  (void)args;
  (void)nargs;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclFinalize();
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_finalize_reference) {
  (void)self;
  (void)args;
  (void)nargs;
  uint64_t count = 0;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclFinalizeReference(&count);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong(count), ret);
}

static PYACL_FASTCALL(py_get_version) {
  (void)self;
  (void)args;
  (void)nargs;
  int32_t major = 0, minor = 0, patch = 0;
  aclError ret = aclrtGetVersion(&major, &minor, &patch);
  return Py_BuildValue("(iiii)", major, minor, patch, ret);
}

static PYACL_FASTCALL(py_get_soc_name) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_str_or_none(aclrtGetSocName());
}

static PYACL_FASTCALL(py_get_recent_err_msg) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_str_or_none(aclGetRecentErrMsg());
}

static PYACL_FASTCALL(py_get_version_str) {
  (void)self;
  const char *pkg;
  if (!pyacl_parse("acl.get_version_str", args, nargs, "s", &pkg))
    return NULL;
  char name[ACL_PKG_VERSION_MAX_SIZE];
  char version[ACL_PKG_VERSION_MAX_SIZE] = "";
  snprintf(name, sizeof name, "%s", pkg);
  aclError ret = aclsysGetVersionStr(name, version);
  return pyacl_tuple_ret(PyUnicode_FromString(ret == ACL_SUCCESS ? version : ""), ret);
}

static PYACL_FASTCALL(py_get_cann_version) {
  (void)self;
  uint32_t pkg;
  if (!pyacl_parse("acl.get_cann_version", args, nargs, "I", &pkg))
    return NULL;
  aclCANNPackageVersion v;
  memset(&v, 0, sizeof v);
  aclError ret = aclsysGetCANNVersion((aclCANNPackageName)pkg, &v);
  PyObject *d = Py_BuildValue("{s:s,s:s,s:s,s:s,s:s,s:s}", "version", v.version, "major_version", v.majorVersion,
                              "minor_version", v.minorVersion, "release_version", v.releaseVersion, "patch_version",
                              v.patchVersion, "reserved", v.reserved);
  return pyacl_tuple_ret(d, ret);
}

static PYACL_FASTCALL(py_get_cann_attribute_list) {
  (void)self;
  (void)args;
  (void)nargs;
  const aclCannAttr *list = NULL;
  size_t num = 0;
  aclError ret = aclGetCannAttributeList(&list, &num);
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && list && i < num; i++) {
    PyObject *x = PyLong_FromLong((long)list[i]);
    if (!x || PyList_Append(l, x) < 0) {
      Py_XDECREF(x);
      Py_CLEAR(l);
      break;
    }
    Py_DECREF(x);
  }
  return pyacl_tuple2_ret(l, PyLong_FromSize_t(num), ret);
}

static PYACL_FASTCALL(py_get_cann_attribute) {
  (void)self;
  int32_t attr;
  if (!pyacl_parse("acl.get_cann_attribute", args, nargs, "i", &attr))
    return NULL;
  int32_t value = 0;
  aclError ret = aclGetCannAttribute((aclCannAttr)attr, &value);
  return pyacl_tuple_ret(PyLong_FromLong(value), ret);
}

static PYACL_FASTCALL(py_get_device_capability) {
  (void)self;
  uint32_t dev;
  int32_t info;
  if (!pyacl_parse("acl.get_device_capability", args, nargs, "Ii", &dev, &info))
    return NULL;
  int64_t value = 0;
  aclError ret = aclGetDeviceCapability(dev, (aclDeviceInfo)info, &value);
  return pyacl_tuple_ret(PyLong_FromLongLong(value), ret);
}

static PYACL_FASTCALL(py_app_log) {
  (void)self;
  int32_t level;
  const char *msg;
  if (!pyacl_parse("acl.app_log", args, nargs, "is", &level, &msg))
    return NULL;
  /* The message is logged verbatim: a fixed "%s", never a format. */
  aclAppLog((aclLogLevel)level, "python", "acl", 0, "%s", msg);
  Py_RETURN_NONE;
}

static PYACL_FASTCALL(py_float16_to_float) {
  (void)self;
  uint16_t bits;
  if (!pyacl_parse("acl.float16_to_float", args, nargs, "H", &bits))
    return NULL;
  return PyFloat_FromDouble((double)aclFloat16ToFloat((aclFloat16)bits));
}

static PYACL_FASTCALL(py_float_to_float16) {
  (void)self;
  float v;
  if (!pyacl_parse("acl.float_to_float16", args, nargs, "f", &v))
    return NULL;
  return PyLong_FromLong((long)aclFloatToFloat16(v));
}

static PYACL_FASTCALL(py_data_type_size) {
  (void)self;
  int32_t dtype;
  if (!pyacl_parse("acl.data_type_size", args, nargs, "i", &dtype))
    return NULL;
  return PyLong_FromSize_t(aclDataTypeSize((aclDataType)dtype));
}

/* ---- data buffers --------------------------------------------------- */

static PYACL_FASTCALL(py_create_data_buffer) {
  (void)self;
  void *data;
  size_t size;
  if (!pyacl_parse("acl.create_data_buffer", args, nargs, "pz", &data, &size))
    return NULL;
  return pyacl_ptr(aclCreateDataBuffer(data, size));
}

static PYACL_FASTCALL(py_destroy_data_buffer) {
  (void)self;
  void *buf;
  if (!pyacl_parse("acl.destroy_data_buffer", args, nargs, "p", &buf))
    return NULL;
  return pyacl_ret(aclDestroyDataBuffer((const aclDataBuffer *)buf));
}

static PYACL_FASTCALL(py_update_data_buffer) {
  (void)self;
  void *buf, *data;
  size_t size;
  if (!pyacl_parse("acl.update_data_buffer", args, nargs, "ppz", &buf, &data, &size))
    return NULL;
  return pyacl_ret(aclUpdateDataBuffer((aclDataBuffer *)buf, data, size));
}

static PYACL_FASTCALL(py_get_data_buffer_addr) {
  (void)self;
  void *buf;
  if (!pyacl_parse("acl.get_data_buffer_addr", args, nargs, "p", &buf))
    return NULL;
  return pyacl_ptr(aclGetDataBufferAddr((const aclDataBuffer *)buf));
}

static PYACL_FASTCALL(py_get_data_buffer_size) {
  (void)self;
  void *buf;
  if (!pyacl_parse("acl.get_data_buffer_size", args, nargs, "p", &buf))
    return NULL;
  return PyLong_FromUnsignedLong(aclGetDataBufferSize((const aclDataBuffer *)buf));
}

static PYACL_FASTCALL(py_get_data_buffer_size_v2) {
  (void)self;
  void *buf;
  if (!pyacl_parse("acl.get_data_buffer_size_v2", args, nargs, "p", &buf))
    return NULL;
  return PyLong_FromSize_t(aclGetDataBufferSizeV2((const aclDataBuffer *)buf));
}

PyMethodDef pyacl_acl_methods[] = {
    PYACL_FN("init", py_init),
    PYACL_FN("finalize", py_finalize),
    PYACL_FN("finalize_reference", py_finalize_reference),
    PYACL_FN("get_version", py_get_version),
    PYACL_FN("get_soc_name", py_get_soc_name),
    PYACL_FN("get_recent_err_msg", py_get_recent_err_msg),
    PYACL_FN("get_version_str", py_get_version_str),
    PYACL_FN("get_cann_version", py_get_cann_version),
    PYACL_FN("get_cann_attribute_list", py_get_cann_attribute_list),
    PYACL_FN("get_cann_attribute", py_get_cann_attribute),
    PYACL_FN("get_device_capability", py_get_device_capability),
    PYACL_FN("app_log", py_app_log),
    PYACL_FN("float16_to_float", py_float16_to_float),
    PYACL_FN("float_to_float16", py_float_to_float16),
    PYACL_FN("data_type_size", py_data_type_size),
    PYACL_FN("create_data_buffer", py_create_data_buffer),
    PYACL_FN("destroy_data_buffer", py_destroy_data_buffer),
    PYACL_FN("update_data_buffer", py_update_data_buffer),
    PYACL_FN("get_data_buffer_addr", py_get_data_buffer_addr),
    PYACL_FN("get_data_buffer_size", py_get_data_buffer_size),
    PYACL_FN("get_data_buffer_size_v2", py_get_data_buffer_size_v2),
    {NULL, NULL, 0, NULL},
};
