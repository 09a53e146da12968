/*
 * rt_callback.c - acl.rt's host callbacks and last-error functions
 * (pyacl.md §2.2, §3.6; C side: docs/callbacks.md): subscribe_report,
 * unsubscribe_report, process_report, launch_callback, peek_at_last_error,
 * get_last_error, and set_exception_info_callback with the five
 * get_*_from_exception_info getters.
 *
 * The report loop of pyACL scripts: a thread from acl.util.start_thread sets
 * its context and loops on process_report; the main thread subscribes that
 * thread to a stream, launches Python callbacks on it, synchronises,
 * unsubscribes and stops the thread.  Each launch_callback hands C a one-shot
 * record holding new references to fn and user_data; C calls the trampoline
 * with it inside process_report, on the subscribed thread; the trampoline
 * takes the GIL, calls fn(user_data) and releases the record.
 *
 * Deadlock freedom: process_report waits in C with the GIL released, so
 * the trampoline can take it back, and a BLOCK callback may call back into
 * acl (rt.malloc_host, rt.memcpy, mdl.*) on the report thread while the
 * main thread waits in rt.synchronize_stream (which also releases the GIL).
 * The other calls here release the GIL around C too: they take the runtime's
 * callback lock, and a thread that holds the GIL must never wait for a C lock
 * whose holder may be waiting for the GIL.  C never holds a lock while it
 * runs a callback (src/rt/callback.c), so the trampoline's GIL wait is safe.
 */
#include "pyacl.h"

/* What C's userData points to for one launch_callback. */
typedef struct cb_record {
  PyObject *fn;        /* new reference */
  PyObject *user_data; /* new reference: the very object given, passed as is */
} cb_record;

/*
 * Runs fn(user_data) once and frees the record.  It runs on the thread that
 * called process_report, which released the GIL while C waited, so
 * PyGILState_Ensure takes it back on that thread's own state (and would make
 * a state for a thread that has none: a C program calling
 * aclrtProcessReport).  An exception from fn is reported through
 * sys.unraisablehook and cleared: the C runtime cannot take it, and pyACL
 * left it pending (a SystemError later).  The stream goes on either way.
 *
 * Records whose callback never runs are never freed, and keep fn and
 * user_data alive: NO_BLOCK callbacks still pending when their stream is
 * unsubscribed, destroyed, or its device reset or acl finalized are dropped
 * by C without a call (docs/callbacks.md), and C has no hook to free
 * userData.  pyACL leaks them the same way, by design; scripts synchronise
 * before unsubscribing, so nothing is pending then.
 */
static void callback_trampoline(void *user) {
  cb_record *r = user;
  if (!r)
    return; /* not ours: nothing to call (pyACL kept the GIL here, a defect) */
  if (!Py_IsInitialized())
    return; /* the interpreter is gone: the record leaks, nothing can run */
  PyGILState_STATE st = PyGILState_Ensure();
  PyObject *res = PyObject_CallFunctionObjArgs(r->fn, r->user_data, NULL);
  if (res)
    Py_DECREF(res);
  else
    PyErr_WriteUnraisable(r->fn); /* prints, or calls sys.unraisablehook; clears */
  Py_DECREF(r->fn);
  Py_DECREF(r->user_data);
  PyMem_RawFree(r);
  PyGILState_Release(st);
}

static PYACL_FASTCALL(py_subscribe_report) {
  (void)self;
  uint64_t tid;
  void *stream;
  if (!pyacl_parse("acl.rt.subscribe_report", args, nargs, "Kp", &tid, &stream))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtSubscribeReport(tid, (aclrtStream)stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_unsubscribe_report) {
  (void)self;
  uint64_t tid;
  void *stream;
  if (!pyacl_parse("acl.rt.unsubscribe_report", args, nargs, "Kp", &tid, &stream))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtUnSubscribeReport(tid, (aclrtStream)stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* Waits up to timeout_ms (-1: no bound) and runs at most one callback, in
 * this thread.  The GIL is released while C waits and while it calls the
 * trampoline, which takes the GIL itself. */
static PYACL_FASTCALL(py_process_report) {
  (void)self;
  int32_t timeout;
  if (!pyacl_parse("acl.rt.process_report", args, nargs, "i", &timeout))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtProcessReport(timeout);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_launch_callback) {
  (void)self;
  PyObject *fn, *user_data;
  int32_t block;
  void *stream;
  if (!pyacl_parse("acl.rt.launch_callback", args, nargs, "cOip", &fn, &user_data, &block, &stream))
    return NULL;
  cb_record *r = PyMem_RawMalloc(sizeof *r);
  if (!r)
    return PyErr_NoMemory();
  Py_INCREF(fn);
  Py_INCREF(user_data);
  r->fn = fn;
  r->user_data = user_data;
  aclError ret;
  /* Once C has the record, the callback may run (and free it) on the report
   * thread before this call returns: r is not touched after success. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtLaunchCallback(callback_trampoline, r, (aclrtCallbackBlockType)block, (aclrtStream)stream);
  Py_END_ALLOW_THREADS
  if (ret != ACL_SUCCESS) {
    /* Not queued: the callback will never run, so the record goes now. */
    Py_DECREF(fn);
    Py_DECREF(user_data);
    PyMem_RawFree(r);
  }
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_peek_at_last_error) {
  (void)self;
  int32_t level;
  if (!pyacl_parse("acl.rt.peek_at_last_error", args, nargs, "i", &level))
    return NULL;
  return pyacl_ret(aclrtPeekAtLastError((aclrtLastErrLevel)level));
}

static PYACL_FASTCALL(py_get_last_error) {
  (void)self;
  int32_t level;
  if (!pyacl_parse("acl.rt.get_last_error", args, nargs, "i", &level))
    return NULL;
  return pyacl_ret(aclrtGetLastError((aclrtLastErrLevel)level));
}

/* ---- exception info ------------------------------------------------------ */

/*
 * One process-wide callable, as pyACL's: set_exception_info_callback(fn)
 * installs exc_trampoline in C and keeps fn here; None or no argument
 * unregisters.  The global is replaced only when C accepts the change
 * (pyacl.md §3.6), and read and written with the GIL held.  C calls the
 * trampoline on the executor thread that ran the failing task (not the
 * submitting one; src/rt/exception.c), with no lock of its own held: the
 * trampoline takes the GIL, calls fn(info) with the aclrtExceptionInfo
 * address as an int, valid only during the call (the get_*_from_exception_info
 * getters read it), and reports a raise as unraisable.  Unlike pyACL, fn is
 * kept after it raises: the hook stays installed and keeps calling it.
 */
static PyObject *exc_fn; /* strong reference, or NULL; guarded by the GIL */

static void exc_trampoline(aclrtExceptionInfo *info) {
  if (!Py_IsInitialized())
    return;
  PyGILState_STATE st = PyGILState_Ensure();
  PyObject *fn = exc_fn;
  if (fn) {
    Py_INCREF(fn); /* a call to set_exception_info_callback inside fn may drop the global */
    PyObject *addr = pyacl_ptr(info);
    PyObject *res = addr ? PyObject_CallFunctionObjArgs(fn, addr, NULL) : NULL;
    Py_XDECREF(addr);
    if (res)
      Py_DECREF(res);
    else
      PyErr_WriteUnraisable(fn);
    Py_DECREF(fn);
  }
  PyGILState_Release(st);
}

static PYACL_FASTCALL(py_set_exception_info_callback) {
  (void)self;
  PyObject *fn = NULL;
  if (!pyacl_parse("acl.rt.set_exception_info_callback", args, nargs, "|O", &fn))
    return NULL;
  if (fn == Py_None)
    fn = NULL;
  if (fn && !PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "acl.rt.set_exception_info_callback args parse failed");
    return NULL;
  }
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtSetExceptionInfoCallback(fn ? exc_trampoline : NULL);
  Py_END_ALLOW_THREADS
  if (ret == ACL_SUCCESS) {
    PyObject *old = exc_fn;
    Py_XINCREF(fn);
    exc_fn = fn;
    Py_XDECREF(old);
  }
  return pyacl_ret(ret);
}

/* The getters take the info address and return the field as a bare int;
 * C refuses an address that is not the info of a running callback
 * (0xFFFFFFFF, with a message for acl.get_recent_err_msg()). */
static PyObject *exception_info_getter(const char *py_name, PyObject *const *args, Py_ssize_t nargs,
                                       uint32_t (*get)(const aclrtExceptionInfo *)) {
  void *info;
  if (!pyacl_parse(py_name, args, nargs, "p", &info))
    return NULL;
  return PyLong_FromUnsignedLong((unsigned long)get((const aclrtExceptionInfo *)info));
}

static PYACL_FASTCALL(py_get_error_code_from_exception_info) {
  (void)self;
  return exception_info_getter("acl.rt.get_error_code_from_exception_info", args, nargs,
                               aclrtGetErrorCodeFromExceptionInfo);
}

static PYACL_FASTCALL(py_get_task_id_from_exception_info) {
  (void)self;
  return exception_info_getter("acl.rt.get_task_id_from_exception_info", args, nargs,
                               aclrtGetTaskIdFromExceptionInfo);
}

static PYACL_FASTCALL(py_get_stream_id_from_exception_info) {
  (void)self;
  return exception_info_getter("acl.rt.get_stream_id_from_exception_info", args, nargs,
                               aclrtGetStreamIdFromExceptionInfo);
}

static PYACL_FASTCALL(py_get_thread_id_from_exception_info) {
  (void)self;
  return exception_info_getter("acl.rt.get_thread_id_from_exception_info", args, nargs,
                               aclrtGetThreadIdFromExceptionInfo);
}

static PYACL_FASTCALL(py_get_device_id_from_exception_info) {
  (void)self;
  return exception_info_getter("acl.rt.get_device_id_from_exception_info", args, nargs,
                               aclrtGetDeviceIdFromExceptionInfo);
}

PyMethodDef pyacl_rt_callback_methods[] = {
    PYACL_FN("subscribe_report", py_subscribe_report),
    PYACL_FN("unsubscribe_report", py_unsubscribe_report),
    PYACL_FN("process_report", py_process_report),
    PYACL_FN("launch_callback", py_launch_callback),
    PYACL_FN("set_exception_info_callback", py_set_exception_info_callback),
    PYACL_FN("get_error_code_from_exception_info", py_get_error_code_from_exception_info),
    PYACL_FN("get_task_id_from_exception_info", py_get_task_id_from_exception_info),
    PYACL_FN("get_stream_id_from_exception_info", py_get_stream_id_from_exception_info),
    PYACL_FN("get_thread_id_from_exception_info", py_get_thread_id_from_exception_info),
    PYACL_FN("get_device_id_from_exception_info", py_get_device_id_from_exception_info),
    PYACL_FN("peek_at_last_error", py_peek_at_last_error),
    PYACL_FN("get_last_error", py_get_last_error),
    {NULL, NULL, 0, NULL},
};
