/*
 * acl_ext.c - acl._openacl: openacl's own extensions (include/openacl/
 * openacl.h) for the pythonic `openacl` package: the error table behind
 * openacl.explain() and AclError, the effective configuration, the log file.
 * The name starts with an underscore so pyACL feature tests on dir(acl) see
 * the vendor's names only.
 */
#include "pyacl.h"

#include <stdlib.h>

#include "openacl/openacl.h"

static PyObject *info_dict(const openaclErrorInfo *i) {
  return Py_BuildValue("{s:s,s:i,s:s,s:s,s:s}", "name", i->name, "code", (int)i->code, "meaning",
                       i->meaning ? i->meaning : "", "causes", i->causes ? i->causes : "", "remedy",
                       i->remedy ? i->remedy : "");
}

/* error_info(code:int) -> dict | None */
static PYACL_FASTCALL(py_error_info) {
  (void)self;
  int32_t code;
  if (!pyacl_parse("acl._openacl.error_info", args, nargs, "i", &code))
    return NULL;
  openaclErrorInfo i;
  if (openaclGetErrorInfo((aclError)code, &i) != ACL_SUCCESS)
    Py_RETURN_NONE;
  return info_dict(&i);
}

/* error_info_by_name(name:str) -> dict | None */
static PYACL_FASTCALL(py_error_info_by_name) {
  (void)self;
  const char *name;
  if (!pyacl_parse("acl._openacl.error_info_by_name", args, nargs, "s", &name))
    return NULL;
  openaclErrorInfo i;
  if (openaclGetErrorInfoByName(name, &i) != ACL_SUCCESS)
    Py_RETURN_NONE;
  return info_dict(&i);
}

/* error_list() -> list of dicts, the whole table */
static PYACL_FASTCALL(py_error_list) {
  (void)self;
  (void)args;
  (void)nargs;
  size_t n = openaclGetErrorCount();
  PyObject *l = PyList_New(0);
  for (size_t k = 0; l && k < n; k++) {
    openaclErrorInfo i;
    if (openaclGetErrorInfoByIndex(k, &i) != ACL_SUCCESS)
      continue;
    PyObject *d = info_dict(&i);
    if (!d || PyList_Append(l, d) < 0) {
      Py_XDECREF(d);
      Py_CLEAR(l);
      break;
    }
    Py_DECREF(d);
  }
  return l;
}

/* Calls a "size query then fill" function into a Python str. */
typedef aclError (*text_fn)(const char *arg, char *buf, size_t size, size_t *needed);

static aclError effective_config(const char *arg, char *buf, size_t size, size_t *needed) {
  (void)arg;
  return openaclGetEffectiveConfig(buf, size, needed);
}

static aclError init_warnings(const char *arg, char *buf, size_t size, size_t *needed) {
  (void)arg;
  return openaclGetInitWarnings(buf, size, needed);
}

static aclError check_config(const char *arg, char *buf, size_t size, size_t *needed) {
  return openaclCheckConfigFile(arg, buf, size, needed);
}

static PyObject *text_call(text_fn fn, const char *arg) {
  size_t needed = 0;
  char small[4096];
  aclError ret = fn(arg, small, sizeof small, &needed);
  if (needed <= sizeof small)
    return pyacl_tuple_ret(needed ? PyUnicode_FromString(small) : PyUnicode_FromString(""), ret);
  char *big = malloc(needed);
  if (!big)
    return PyErr_NoMemory();
  ret = fn(arg, big, needed, &needed);
  PyObject *s = PyUnicode_FromString(big);
  free(big);
  return pyacl_tuple_ret(s, ret);
}

/* effective_config() -> (json:str, ret); "" before aclInit */
static PYACL_FASTCALL(py_effective_config) {
  (void)self;
  (void)args;
  (void)nargs;
  return text_call(effective_config, NULL);
}

/* init_warnings() -> (lines:str, ret): the warnings of this init cycle, one
 * "warning <source>: <key>: <message>" line each; ("", 100001) before aclInit */
static PYACL_FASTCALL(py_init_warnings) {
  (void)self;
  (void)args;
  (void)nargs;
  return text_call(init_warnings, NULL);
}

/* check_config(path:str) -> (report:str, ret): ret is what aclInit would return */
static PYACL_FASTCALL(py_check_config) {
  (void)self;
  const char *path;
  if (!pyacl_parse("acl._openacl.check_config", args, nargs, "s", &path))
    return NULL;
  return text_call(check_config, path);
}

/* visible_device_count() -> (count, ret): works before acl.init; when a
 * visibility variable is invalid, (0, 107001) and the reason is in
 * acl.get_recent_err_msg() */
static PYACL_FASTCALL(py_visible_device_count) {
  (void)self;
  (void)args;
  (void)nargs;
  uint32_t n = 0;
  aclError ret = openaclGetVisibleDeviceCount(&n);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(n), ret);
}

/* log_file_path() -> str | None */
static PYACL_FASTCALL(py_log_file_path) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_str_or_none(openaclGetLogFilePath());
}

/* record_error(api:str, code:int, detail:str) -> ret: a failure for acl.get_recent_err_msg() */
static PYACL_FASTCALL(py_record_error) {
  (void)self;
  const char *api, *detail;
  int32_t code;
  if (!pyacl_parse("acl._openacl.record_error", args, nargs, "sis", &api, &code, &detail))
    return NULL;
  return pyacl_ret(openaclRecordError(api, (aclError)code, detail));
}

PyMethodDef pyacl_ext_methods[] = {
    PYACL_FN("error_info", py_error_info),
    PYACL_FN("error_info_by_name", py_error_info_by_name),
    PYACL_FN("error_list", py_error_list),
    PYACL_FN("effective_config", py_effective_config),
    PYACL_FN("init_warnings", py_init_warnings),
    PYACL_FN("check_config", py_check_config),
    PYACL_FN("log_file_path", py_log_file_path),
    PYACL_FN("visible_device_count", py_visible_device_count),
    PYACL_FN("record_error", py_record_error),
    {NULL, NULL, 0, NULL},
};
