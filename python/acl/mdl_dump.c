/*
 * mdl_dump.c - the dump names of acl.mdl (init_dump, set_dump,
 * finalize_dump, dump_reg_callback, dump_unreg_callback) and of acl.op
 * (start_dump_args, stop_dump_args), over src/acl/dump_api.c (docs/dump.md).
 *
 * dump_reg_callback(fn, flag) keeps one process-wide callable, as the C API
 * keeps one function.  C calls the trampoline on the executor thread that
 * wrote the dump, with no lock of its own held; the trampoline takes the GIL
 * and calls fn(chunk, length) with chunk a dict {"file_name": str,
 * "buf_len": int, "is_last_chunk": int, "offset": int, "flag": int,
 * "data_buf": bytes} and length = the C struct's size plus buf_len, as C
 * passes it.  fn returns an int (0 = accepted); anything else, or a raise
 * (reported as unraisable), stops the delivery of that file.
 */
#include "pyacl.h"

static PYACL_FASTCALL(py_init_dump) {
  (void)self;
  (void)args;
  (void)nargs; /* zero-argument functions ignore extras */
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclmdlInitDump();
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_set_dump) {
  (void)self;
  const char *path = NULL;
  if (!pyacl_parse("acl.mdl.set_dump", args, nargs, "|s", &path))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclmdlSetDump(path);
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_finalize_dump) {
  (void)self;
  (void)args;
  (void)nargs;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclmdlFinalizeDump();
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PyObject *dump_fn; /* strong reference, or NULL; guarded by the GIL */

static int32_t dump_trampoline(const acldumpChunk *c, int32_t len) {
  if (!Py_IsInitialized())
    return -1;
  int32_t rc = -1;
  PyGILState_STATE st = PyGILState_Ensure();
  PyObject *fn = dump_fn;
  if (fn != NULL) {
    Py_INCREF(fn);
    PyObject *chunk = Py_BuildValue("{s:s,s:I,s:I,s:L,s:i,s:y#}", "file_name", c->fileName, "buf_len", c->bufLen,
                                    "is_last_chunk", c->isLastChunk, "offset", (long long)c->offset, "flag",
                                    (int)c->flag, "data_buf", (const char *)c->dataBuf, (Py_ssize_t)c->bufLen);
    PyObject *res = chunk != NULL ? PyObject_CallFunction(fn, "Oi", chunk, (int)len) : NULL;
    Py_XDECREF(chunk);
    if (res == NULL) {
      PyErr_WriteUnraisable(fn);
    } else {
      long v = PyLong_Check(res) ? PyLong_AsLong(res) : (res == Py_None ? 0 : -1);
      if (v == -1 && PyErr_Occurred())
        PyErr_WriteUnraisable(fn);
      rc = (int32_t)v;
      Py_DECREF(res);
    }
    Py_DECREF(fn);
  }
  PyGILState_Release(st);
  return rc;
}

static PYACL_FASTCALL(py_dump_reg_callback) {
  (void)self;
  PyObject *fn = NULL;
  int32_t flag = 0;
  if (!pyacl_parse("acl.mdl.dump_reg_callback", args, nargs, "ci", &fn, &flag))
    return NULL;
  if (!PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "acl.mdl.dump_reg_callback args parse failed");
    return NULL;
  }
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = acldumpRegCallback(dump_trampoline, flag);
  Py_END_ALLOW_THREADS if (ret == ACL_SUCCESS) {
    PyObject *old = dump_fn;
    Py_INCREF(fn);
    dump_fn = fn;
    Py_XDECREF(old);
  }
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_dump_unreg_callback) {
  (void)self;
  (void)args;
  (void)nargs;
  Py_BEGIN_ALLOW_THREADS acldumpUnregCallback();
  Py_END_ALLOW_THREADS Py_CLEAR(dump_fn);
  Py_RETURN_NONE;
}

static PYACL_FASTCALL(py_start_dump_args) {
  (void)self;
  uint32_t type;
  const char *path;
  if (!pyacl_parse("acl.op.start_dump_args", args, nargs, "Is", &type, &path))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclopStartDumpArgs(type, path);
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_stop_dump_args) {
  (void)self;
  uint32_t type;
  if (!pyacl_parse("acl.op.stop_dump_args", args, nargs, "I", &type))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclopStopDumpArgs(type);
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

PyMethodDef pyacl_mdl_dump_methods[] = {
    PYACL_FN("init_dump", py_init_dump),
    PYACL_FN("set_dump", py_set_dump),
    PYACL_FN("finalize_dump", py_finalize_dump),
    PYACL_FN("dump_reg_callback", py_dump_reg_callback),
    PYACL_FN("dump_unreg_callback", py_dump_unreg_callback),
    {NULL, NULL, 0, NULL},
};

PyMethodDef pyacl_op_dump_methods[] = {
    PYACL_FN("start_dump_args", py_start_dump_args),
    PYACL_FN("stop_dump_args", py_stop_dump_args),
    {NULL, NULL, 0, NULL},
};
