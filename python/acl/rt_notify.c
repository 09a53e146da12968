/*
 * rt_notify.c - acl.rt notifies, as pyACL names them (reference pyacl.md
 * §2.2): create, destroy, record, wait-and-reset, ids, batch reset, and the
 * IPC key, whitelist and import calls.  The work is the C library's
 * (src/rt/notify.c).
 */
#include "pyacl.h"

static PYACL_FASTCALL(py_create_notify) {
  (void)self;
  uint64_t flag;
  if (!pyacl_parse("acl.rt.create_notify", args, nargs, "K", &flag))
    return NULL;
  aclrtNotify n = NULL;
  aclError ret = aclrtCreateNotify(&n, flag);
  return pyacl_tuple_ret(pyacl_ptr(n), ret);
}

static PYACL_FASTCALL(py_destroy_notify) {
  (void)self;
  void *n;
  if (!pyacl_parse("acl.rt.destroy_notify", args, nargs, "p", &n))
    return NULL;
  return pyacl_ret(aclrtDestroyNotify(n));
}

static PYACL_FASTCALL(py_record_notify) {
  (void)self;
  void *n, *stream;
  if (!pyacl_parse("acl.rt.record_notify", args, nargs, "pp", &n, &stream))
    return NULL;
  return pyacl_ret(aclrtRecordNotify(n, stream));
}

static PYACL_FASTCALL(py_wait_and_reset_notify) {
  (void)self;
  void *n, *stream;
  int64_t timeout;
  if (!pyacl_parse("acl.rt.wait_and_reset_notify", args, nargs, "ppL", &n, &stream, &timeout))
    return NULL;
  if (timeout < 0 || timeout > (int64_t)UINT32_MAX) {
    PyErr_SetString(PyExc_TypeError, "acl.rt.wait_and_reset_notify: timeout must be in 0..4294967295 (seconds)");
    return NULL;
  }
  return pyacl_ret(aclrtWaitAndResetNotify(n, stream, (uint32_t)timeout));
}

static PYACL_FASTCALL(py_get_notify_id) {
  (void)self;
  void *n;
  if (!pyacl_parse("acl.rt.get_notify_id", args, nargs, "p", &n))
    return NULL;
  uint32_t id = 0;
  aclError ret = aclrtGetNotifyId(n, &id);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_notify_batch_reset) {
  (void)self;
  PyObject *list;
  if (!pyacl_parse("acl.rt.notify_batch_reset", args, nargs, "l", &list))
    return NULL;
  int64_t v[1024];
  size_t n = 0;
  if (!pyacl_list_to_i64("acl.rt.notify_batch_reset", list, v, 1024, &n))
    return NULL;
  aclrtNotify ns[1024];
  for (size_t i = 0; i < n; i++)
    ns[i] = (aclrtNotify)(uintptr_t)v[i];
  return pyacl_ret(aclrtNotifyBatchReset(n > 0 ? ns : NULL, n));
}

static PYACL_FASTCALL(py_notify_get_export_key) {
  (void)self;
  void *n;
  size_t key_len;
  uint64_t flag;
  if (!pyacl_parse("acl.rt.notify_get_export_key", args, nargs, "pzK", &n, &key_len, &flag))
    return NULL;
  if (key_len >= 1024) {
    PyErr_SetString(PyExc_ValueError, "acl.rt.notify_get_export_key: key_len must be below 1024");
    return NULL;
  }
  char key[1024] = "";
  aclError ret = aclrtNotifyGetExportKey(n, key, key_len, flag);
  return pyacl_tuple_ret(PyUnicode_FromString(ret == ACL_SUCCESS ? key : ""), ret);
}

static PYACL_FASTCALL(py_notify_set_import_pid) {
  (void)self;
  void *n;
  PyObject *list;
  if (!pyacl_parse("acl.rt.notify_set_import_pid", args, nargs, "pl", &n, &list))
    return NULL;
  int32_t pids[PYACL_MAX_PIDS];
  size_t cnt = 0;
  if (!pyacl_list_to_pids("acl.rt.notify_set_import_pid", list, pids, &cnt))
    return NULL;
  return pyacl_ret(aclrtNotifySetImportPid(n, cnt > 0 ? pids : NULL, cnt));
}

static PYACL_FASTCALL(py_notify_import_by_key) {
  (void)self;
  const char *key;
  uint64_t flag;
  if (!pyacl_parse("acl.rt.notify_import_by_key", args, nargs, "sK", &key, &flag))
    return NULL;
  aclrtNotify n = NULL;
  aclError ret = aclrtNotifyImportByKey(&n, key, flag);
  return pyacl_tuple_ret(pyacl_ptr(n), ret);
}

PyMethodDef pyacl_rt_notify_methods[] = {
    PYACL_FN("create_notify", py_create_notify),
    PYACL_FN("destroy_notify", py_destroy_notify),
    PYACL_FN("record_notify", py_record_notify),
    PYACL_FN("wait_and_reset_notify", py_wait_and_reset_notify),
    PYACL_FN("get_notify_id", py_get_notify_id),
    PYACL_FN("notify_batch_reset", py_notify_batch_reset),
    PYACL_FN("notify_get_export_key", py_notify_get_export_key),
    PYACL_FN("notify_set_import_pid", py_notify_set_import_pid),
    PYACL_FN("notify_import_by_key", py_notify_import_by_key),
    {NULL, NULL, 0, NULL},
};
