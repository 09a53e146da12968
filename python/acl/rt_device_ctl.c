/*
 * rt_device_ctl.c - acl.rt's device controls and queries beyond the basics
 * of rt_device.c (pyacl.md §2.2; C side: docs/devices.md): saturation mode,
 * capabilities, utilisation, task abort, resource limits, topology, the
 * device-id mappings, UUID, peer-access status, the bare tgid, and the
 * device's float-overflow status.
 *
 * Out-parameters come back zero on failure; the utilisation and UUID dicts
 * come from zeroed structs, so their keys are there whatever ret says
 * (pyacl.md §3.2).
 */
#include "pyacl.h"

#include <string.h>

/* (int32 value, ret) getters taking one int32 argument: the id mappings. */
static PyObject *id_map(const char *name, PyObject *const *args, Py_ssize_t nargs,
                        aclError (*fn)(const int32_t, int32_t *const)) {
  int32_t in;
  if (!pyacl_parse(name, args, nargs, "i", &in))
    return NULL;
  int32_t out = 0;
  aclError ret = fn(in, &out);
  return pyacl_tuple_ret(PyLong_FromLong((long)out), ret);
}

static PYACL_FASTCALL(py_set_device_sat_mode) {
  (void)self;
  int32_t mode;
  if (!pyacl_parse("acl.rt.set_device_sat_mode", args, nargs, "i", &mode))
    return NULL;
  return pyacl_ret(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)mode));
}

static PYACL_FASTCALL(py_get_device_sat_mode) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtFloatOverflowMode mode = (aclrtFloatOverflowMode)0;
  aclError ret = aclrtGetDeviceSatMode(&mode);
  return pyacl_tuple_ret(PyLong_FromLong(ret == ACL_SUCCESS ? (long)mode : 0), ret);
}

static PYACL_FASTCALL(py_get_device_capability) {
  (void)self;
  int32_t dev;
  uint32_t feature;
  if (!pyacl_parse("acl.rt.get_device_capability", args, nargs, "iI", &dev, &feature))
    return NULL;
  int32_t value = 0;
  aclError ret = aclrtGetDeviceCapability(dev, (aclrtDevFeatureType)feature, &value);
  return pyacl_tuple_ret(PyLong_FromLong(ret == ACL_SUCCESS ? (long)value : 0), ret);
}

static PYACL_FASTCALL(py_get_device_utilization_rate) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.get_device_utilization_rate", args, nargs, "i", &dev))
    return NULL;
  aclrtUtilizationInfo u;
  memset(&u, 0, sizeof u); /* utilizationExtend must be NULL */
  aclError ret = aclrtGetDeviceUtilizationRate(dev, &u);
  if (ret != ACL_SUCCESS)
    memset(&u, 0, sizeof u);
  PyObject *d = Py_BuildValue("{s:i,s:i,s:i,s:i,s:N}", "cube_utilization", (int)u.cubeUtilization,
                              "vector_utilization", (int)u.vectorUtilization, "aicpu_utilization",
                              (int)u.aicpuUtilization, "memory_utilization", (int)u.memoryUtilization,
                              "utilization_extend", pyacl_ptr(u.utilizationExtend));
  return pyacl_tuple_ret(d, ret);
}

/* Waits up to `timeout` for the device's tasks to stop: without the GIL. */
static PYACL_FASTCALL(py_device_task_abort) {
  (void)self;
  int32_t dev;
  uint32_t timeout;
  if (!pyacl_parse("acl.rt.device_task_abort", args, nargs, "iI", &dev, &timeout))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtDeviceTaskAbort(dev, timeout);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_get_device_res_limit) {
  (void)self;
  int32_t dev;
  uint32_t type;
  if (!pyacl_parse("acl.rt.get_device_res_limit", args, nargs, "iI", &dev, &type))
    return NULL;
  uint32_t value = 0;
  aclError ret = aclrtGetDeviceResLimit(dev, (aclrtDevResLimitType)type, &value);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(ret == ACL_SUCCESS ? value : 0), ret);
}

static PYACL_FASTCALL(py_set_device_res_limit) {
  (void)self;
  int32_t dev;
  uint32_t type, value;
  if (!pyacl_parse("acl.rt.set_device_res_limit", args, nargs, "iII", &dev, &type, &value))
    return NULL;
  return pyacl_ret(aclrtSetDeviceResLimit(dev, (aclrtDevResLimitType)type, value));
}

static PYACL_FASTCALL(py_reset_device_res_limit) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.reset_device_res_limit", args, nargs, "i", &dev))
    return NULL;
  return pyacl_ret(aclrtResetDeviceResLimit(dev));
}

/* The whole 64-bit value (the vendor truncates it to 32 bits: §3.7). */
static PYACL_FASTCALL(py_get_devices_topo) {
  (void)self;
  uint32_t dev, other;
  if (!pyacl_parse("acl.rt.get_devices_topo", args, nargs, "II", &dev, &other))
    return NULL;
  uint64_t value = 0;
  aclError ret = aclrtGetDevicesTopo(dev, other, &value);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong(ret == ACL_SUCCESS ? value : 0), ret);
}

static PYACL_FASTCALL(py_get_logic_dev_id_by_user_dev_id) {
  (void)self;
  return id_map("acl.rt.get_logic_dev_id_by_user_dev_id", args, nargs, aclrtGetLogicDevIdByUserDevId);
}

static PYACL_FASTCALL(py_get_user_dev_id_by_logic_dev_id) {
  (void)self;
  return id_map("acl.rt.get_user_dev_id_by_logic_dev_id", args, nargs, aclrtGetUserDevIdByLogicDevId);
}

static PYACL_FASTCALL(py_get_logic_dev_id_by_phy_dev_id) {
  (void)self;
  return id_map("acl.rt.get_logic_dev_id_by_phy_dev_id", args, nargs, aclrtGetLogicDevIdByPhyDevId);
}

static PYACL_FASTCALL(py_get_phy_dev_id_by_logic_dev_id) {
  (void)self;
  return id_map("acl.rt.get_phy_dev_id_by_logic_dev_id", args, nargs, aclrtGetPhyDevIdByLogicDevId);
}

/* {'bytes': [16 ints 0..255]}: zeros on failure. */
static PYACL_FASTCALL(py_device_get_uuid) {
  (void)self;
  int32_t dev;
  if (!pyacl_parse("acl.rt.device_get_uuid", args, nargs, "i", &dev))
    return NULL;
  aclrtUuid uuid;
  memset(&uuid, 0, sizeof uuid);
  aclError ret = aclrtDeviceGetUuid(dev, &uuid);
  if (ret != ACL_SUCCESS)
    memset(&uuid, 0, sizeof uuid);
  int64_t b[sizeof uuid.bytes];
  for (size_t i = 0; i < sizeof uuid.bytes; i++)
    b[i] = (unsigned char)uuid.bytes[i];
  PyObject *list = pyacl_list_i64(b, sizeof uuid.bytes);
  PyObject *d = list ? Py_BuildValue("{s:N}", "bytes", list) : NULL;
  return pyacl_tuple_ret(d, ret);
}

static PYACL_FASTCALL(py_device_peer_access_status) {
  (void)self;
  int32_t dev, peer;
  if (!pyacl_parse("acl.rt.device_peer_access_status", args, nargs, "ii", &dev, &peer))
    return NULL;
  int32_t status = 0;
  aclError ret = aclrtDevicePeerAccessStatus(dev, peer, &status);
  return pyacl_tuple_ret(PyLong_FromLong(ret == ACL_SUCCESS ? (long)status : 0), ret);
}

static PYACL_FASTCALL(py_device_get_bare_tgid) {
  (void)self;
  (void)args;
  (void)nargs;
  int32_t pid = 0;
  aclError ret = aclrtDeviceGetBareTgid(&pid);
  return pyacl_tuple_ret(PyLong_FromLong(ret == ACL_SUCCESS ? (long)pid : 0), ret);
}

/* Queues a copy of the device's overflow status into output_addr (device
 * memory) on the stream. */
static PYACL_FASTCALL(py_get_overflow_status) {
  (void)self;
  void *out, *stream;
  size_t size;
  if (!pyacl_parse("acl.rt.get_overflow_status", args, nargs, "pzp", &out, &size, &stream))
    return NULL;
  return pyacl_ret(aclrtGetOverflowStatus(out, size, (aclrtStream)stream));
}

static PYACL_FASTCALL(py_reset_overflow_status) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.reset_overflow_status", args, nargs, "p", &stream))
    return NULL;
  return pyacl_ret(aclrtResetOverflowStatus((aclrtStream)stream));
}

PyMethodDef pyacl_rt_device_ctl_methods[] = {
    PYACL_FN("set_device_sat_mode", py_set_device_sat_mode),
    PYACL_FN("get_device_sat_mode", py_get_device_sat_mode),
    PYACL_FN("get_device_capability", py_get_device_capability),
    PYACL_FN("get_device_utilization_rate", py_get_device_utilization_rate),
    PYACL_FN("device_task_abort", py_device_task_abort),
    PYACL_FN("get_device_res_limit", py_get_device_res_limit),
    PYACL_FN("set_device_res_limit", py_set_device_res_limit),
    PYACL_FN("reset_device_res_limit", py_reset_device_res_limit),
    PYACL_FN("get_devices_topo", py_get_devices_topo),
    PYACL_FN("get_logic_dev_id_by_user_dev_id", py_get_logic_dev_id_by_user_dev_id),
    PYACL_FN("get_user_dev_id_by_logic_dev_id", py_get_user_dev_id_by_logic_dev_id),
    PYACL_FN("get_logic_dev_id_by_phy_dev_id", py_get_logic_dev_id_by_phy_dev_id),
    PYACL_FN("get_phy_dev_id_by_logic_dev_id", py_get_phy_dev_id_by_logic_dev_id),
    PYACL_FN("device_get_uuid", py_device_get_uuid),
    PYACL_FN("device_peer_access_status", py_device_peer_access_status),
    PYACL_FN("device_get_bare_tgid", py_device_get_bare_tgid),
    PYACL_FN("get_overflow_status", py_get_overflow_status),
    PYACL_FN("reset_overflow_status", py_reset_overflow_status),
    {NULL, NULL, 0, NULL},
};
