/*
 * rt_stream.c - acl.rt streams and events: creation, destruction,
 * synchronisation, queries, cross-stream waits and event timing.
 *
 * Stream 0 is the current context's default stream: it goes to C as NULL,
 * which C reads the same way.  Every call that can wait for a stream runs
 * without the GIL, because the work it waits for may be a host callback
 * that needs the GIL to run.
 */
#include "pyacl.h"

/* ---- streams ---------------------------------------------------------- */

static PYACL_FASTCALL(py_create_stream) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtStream stream = NULL;
  aclError ret = aclrtCreateStream(&stream);
  return pyacl_tuple_ret(pyacl_ptr(stream), ret);
}

static PYACL_FASTCALL(py_create_stream_with_config) {
  (void)self;
  int32_t priority, flag;
  if (!pyacl_parse("acl.rt.create_stream_with_config", args, nargs, "ii", &priority, &flag))
    return NULL;
  aclrtStream stream = NULL;
  /* The vendor parses ints and hands C their uint32 bit patterns. */
  aclError ret = aclrtCreateStreamWithConfig(&stream, (uint32_t)priority, (uint32_t)flag);
  return pyacl_tuple_ret(pyacl_ptr(stream), ret);
}

/* A stream or event in, ret out, without the GIL: the call may wait. */
static PyObject *call_handle_nogil(const char *name, PyObject *const *args, Py_ssize_t nargs, aclError (*fn)(void *)) {
  void *h;
  if (!pyacl_parse(name, args, nargs, "p", &h))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = fn(h);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/* The same with a timeout in milliseconds after the handle. */
static PyObject *call_handle_timeout_nogil(const char *name, PyObject *const *args, Py_ssize_t nargs,
                                           aclError (*fn)(void *, int32_t)) {
  void *h;
  int32_t timeout;
  if (!pyacl_parse(name, args, nargs, "pi", &h, &timeout))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = fn(h, timeout);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_destroy_stream) {
  (void)self;
  return call_handle_nogil("acl.rt.destroy_stream", args, nargs, aclrtDestroyStream);
}

static PYACL_FASTCALL(py_destroy_stream_force) {
  (void)self;
  return call_handle_nogil("acl.rt.destroy_stream_force", args, nargs, aclrtDestroyStreamForce);
}

static PYACL_FASTCALL(py_synchronize_stream) {
  (void)self;
  return call_handle_nogil("acl.rt.synchronize_stream", args, nargs, aclrtSynchronizeStream);
}

static PYACL_FASTCALL(py_synchronize_stream_with_timeout) {
  (void)self;
  return call_handle_timeout_nogil("acl.rt.synchronize_stream_with_timeout", args, nargs, aclrtSynchronizeStreamWithTimeout);
}

static PYACL_FASTCALL(py_stream_query) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.stream_query", args, nargs, "p", &stream))
    return NULL;
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  aclError ret = aclrtStreamQuery(stream, &status);
  return pyacl_tuple_ret(PyLong_FromLong((long)status), ret);
}

static PYACL_FASTCALL(py_stream_wait_event) {
  (void)self;
  void *stream, *event;
  if (!pyacl_parse("acl.rt.stream_wait_event", args, nargs, "pp", &stream, &event))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclrtStreamWaitEvent(stream, event);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_stream_get_id) {
  (void)self;
  void *stream;
  if (!pyacl_parse("acl.rt.stream_get_id", args, nargs, "p", &stream))
    return NULL;
  int32_t id = 0;
  aclError ret = aclrtStreamGetId(stream, &id);
  return pyacl_tuple_ret(PyLong_FromLong(id), ret);
}

static PYACL_FASTCALL(py_set_stream_failure_mode) {
  (void)self;
  void *stream;
  uint32_t mode;
  if (!pyacl_parse("acl.rt.set_stream_failure_mode", args, nargs, "pI", &stream, &mode))
    return NULL;
  return pyacl_ret(aclrtSetStreamFailureMode(stream, (uint64_t)mode));
}

/* ---- events ------------------------------------------------------------ */

static PYACL_FASTCALL(py_create_event) {
  (void)self;
  (void)args;
  (void)nargs;
  aclrtEvent event = NULL;
  aclError ret = aclrtCreateEvent(&event);
  return pyacl_tuple_ret(pyacl_ptr(event), ret);
}

static PYACL_FASTCALL(py_create_event_with_flag) {
  (void)self;
  uint32_t flag;
  if (!pyacl_parse("acl.rt.create_event_with_flag", args, nargs, "I", &flag))
    return NULL;
  aclrtEvent event = NULL;
  aclError ret = aclrtCreateEventWithFlag(&event, flag);
  return pyacl_tuple_ret(pyacl_ptr(event), ret);
}

static PYACL_FASTCALL(py_create_event_ex_with_flag) {
  (void)self;
  uint32_t flag;
  if (!pyacl_parse("acl.rt.create_event_ex_with_flag", args, nargs, "I", &flag))
    return NULL;
  aclrtEvent event = NULL;
  aclError ret = aclrtCreateEventExWithFlag(&event, flag);
  return pyacl_tuple_ret(pyacl_ptr(event), ret);
}

static PYACL_FASTCALL(py_destroy_event) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.destroy_event", args, nargs, "p", &event))
    return NULL;
  return pyacl_ret(aclrtDestroyEvent(event));
}

static PYACL_FASTCALL(py_record_event) {
  (void)self;
  void *event, *stream;
  if (!pyacl_parse("acl.rt.record_event", args, nargs, "pp", &event, &stream))
    return NULL;
  return pyacl_ret(aclrtRecordEvent(event, stream));
}

static PYACL_FASTCALL(py_reset_event) {
  (void)self;
  void *event, *stream;
  if (!pyacl_parse("acl.rt.reset_event", args, nargs, "pp", &event, &stream))
    return NULL;
  return pyacl_ret(aclrtResetEvent(event, stream));
}

static PYACL_FASTCALL(py_query_event) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.query_event", args, nargs, "p", &event))
    return NULL;
  aclrtEventStatus status = ACL_EVENT_STATUS_COMPLETE;
  aclError ret = aclrtQueryEvent(event, &status);
  return pyacl_tuple_ret(PyLong_FromLong((long)status), ret);
}

static PYACL_FASTCALL(py_query_event_status) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.query_event_status", args, nargs, "p", &event))
    return NULL;
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  aclError ret = aclrtQueryEventStatus(event, &status);
  return pyacl_tuple_ret(PyLong_FromLong((long)status), ret);
}

static PYACL_FASTCALL(py_query_event_wait_status) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.query_event_wait_status", args, nargs, "p", &event))
    return NULL;
  aclrtEventWaitStatus status = ACL_EVENT_WAIT_STATUS_COMPLETE;
  aclError ret = aclrtQueryEventWaitStatus(event, &status);
  return pyacl_tuple_ret(PyLong_FromLong((long)status), ret);
}

static PYACL_FASTCALL(py_synchronize_event) {
  (void)self;
  return call_handle_nogil("acl.rt.synchronize_event", args, nargs, aclrtSynchronizeEvent);
}

static PYACL_FASTCALL(py_synchronize_event_with_timeout) {
  (void)self;
  return call_handle_timeout_nogil("acl.rt.synchronize_event_with_timeout", args, nargs, aclrtSynchronizeEventWithTimeout);
}

static PYACL_FASTCALL(py_event_elapsed_time) {
  (void)self;
  void *start, *end;
  if (!pyacl_parse("acl.rt.event_elapsed_time", args, nargs, "pp", &start, &end))
    return NULL;
  float ms = 0.0f;
  aclError ret = aclrtEventElapsedTime(&ms, start, end);
  return pyacl_tuple_ret(PyFloat_FromDouble((double)ms), ret);
}

static PYACL_FASTCALL(py_event_get_timestamp) {
  (void)self;
  void *event;
  if (!pyacl_parse("acl.rt.event_get_timestamp", args, nargs, "p", &event))
    return NULL;
  uint64_t ts = 0;
  aclError ret = aclrtEventGetTimestamp(event, &ts);
  return pyacl_tuple_ret(PyLong_FromUnsignedLongLong((unsigned long long)ts), ret);
}

PyMethodDef pyacl_rt_stream_methods[] = {
    PYACL_FN("create_stream", py_create_stream),
    PYACL_FN("create_stream_with_config", py_create_stream_with_config),
    PYACL_FN("destroy_stream", py_destroy_stream),
    PYACL_FN("destroy_stream_force", py_destroy_stream_force),
    PYACL_FN("synchronize_stream", py_synchronize_stream),
    PYACL_FN("synchronize_stream_with_timeout", py_synchronize_stream_with_timeout),
    PYACL_FN("stream_query", py_stream_query),
    PYACL_FN("stream_wait_event", py_stream_wait_event),
    PYACL_FN("stream_get_id", py_stream_get_id),
    PYACL_FN("set_stream_failure_mode", py_set_stream_failure_mode),
    PYACL_FN("create_event", py_create_event),
    PYACL_FN("create_event_with_flag", py_create_event_with_flag),
    PYACL_FN("create_event_ex_with_flag", py_create_event_ex_with_flag),
    PYACL_FN("destroy_event", py_destroy_event),
    PYACL_FN("record_event", py_record_event),
    PYACL_FN("reset_event", py_reset_event),
    PYACL_FN("query_event", py_query_event),
    PYACL_FN("query_event_status", py_query_event_status),
    PYACL_FN("query_event_wait_status", py_query_event_wait_status),
    PYACL_FN("synchronize_event", py_synchronize_event),
    PYACL_FN("synchronize_event_with_timeout", py_synchronize_event_with_timeout),
    PYACL_FN("event_elapsed_time", py_event_elapsed_time),
    PYACL_FN("event_get_timestamp", py_event_get_timestamp),
    {NULL, NULL, 0, NULL},
};
