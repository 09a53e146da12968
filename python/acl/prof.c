/*
 * prof.c - acl.prof: pyACL's 36 profiling names over openacl's aclprof*
 * functions (src/prof/, docs/profiling.md): the lifecycle (init, configs,
 * start, stop, finalize), model subscription and the readers of the
 * ProfOpDesc records read from its pipe, step info and the msproftx
 * stamps, marks and ranges.  Names, argument orders and return shapes are
 * pyACL's (pyacl.md §2.5); a C failure comes back as ret, never raised.
 *
 * Handles (configs, stamps, step infos, subscription configs) are C
 * pointers that C recognises by a magic number at their start; an int that
 * is not mapped host memory is refused here with ACL_ERROR_INVALID_PARAM
 * instead of being dereferenced.  op_info (the bytes read from the
 * subscription pipe) is checked the same way over its whole length.
 *
 * The GIL is released around start, stop, finalize (they write the profile
 * files) and model_unsubscribe (it flushes records into a pipe that a Python
 * thread may be reading).
 */
#include "pyacl.h"

#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "openacl/openacl.h"

#define MAX_STR_LEN 4096 /* get_op_type / get_op_name: longer buffers give ('', 100000), as pyACL */

/* Records "<api> failed: ACL_ERROR_INVALID_PARAM" for an int that is not
 * mapped host memory; returns that code.  NULL passes (C names it). */
static aclError bad_host(const char *api, const char *arg, const void *p, size_t n) {
  char detail[192];
  snprintf(detail, sizeof detail,
           "%s %p (%zu bytes) is not readable host memory: not a handle or buffer of this "
           "process",
           arg, p, n);
  return openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail);
}

/* A handle C checks by the magic number it starts with: mapped for 8 bytes, or NULL. */
static int handle_ok(const void *p) { return p == NULL || pyacl_host_range_ok(p, sizeof(uint64_t)); }

/* op_info: op_info_len bytes of host memory (0 or NULL is C's to refuse). */
static int op_info_ok(const void *p, size_t n) { return p == NULL || n == 0 || pyacl_host_range_ok(p, n); }

/* A new reference to None (Py_NewRef needs Python 3.10). */
static PyObject *none_ref(void) {
  Py_INCREF(Py_None);
  return Py_None;
}

/* ---- lifecycle ------------------------------------------------------------ */

static PYACL_FASTCALL(py_init) {
  (void)self;
  const char *path;
  if (!pyacl_parse("acl.prof.init", args, nargs, "s", &path))
    return NULL;
  return pyacl_ret(aclprofInit(path, strlen(path)));
}

static PYACL_FASTCALL(py_finalize) {
  (void)self;
  (void)args;
  (void)nargs; /* zero-argument functions ignore extras */
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclprofFinalize();
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_create_config) {
  (void)self;
  PyObject *list;
  int32_t metrics;
  void *events;
  uint64_t bits;
  if (!pyacl_parse("acl.prof.create_config", args, nargs, "lipK", &list, &metrics, &events, &bits))
    return NULL;
  size_t cap = (size_t)PyList_GET_SIZE(list), n = 0;
  int64_t *ids = malloc((cap ? cap : 1) * sizeof(*ids));
  uint32_t *dev = malloc((cap ? cap : 1) * sizeof(*dev));
  if (ids == NULL || dev == NULL) {
    free(ids);
    free(dev);
    return PyErr_NoMemory();
  }
  if (!pyacl_list_to_i64("acl.prof.create_config", list, ids, cap, &n)) {
    free(ids);
    free(dev);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    dev[i] = (uint32_t)ids[i];
  aclprofConfig *c = aclprofCreateConfig(n ? dev : NULL, (uint32_t)n, (aclprofAicoreMetrics)metrics,
                                         (const aclprofAicoreEvents *)events, bits);
  free(ids);
  free(dev);
  return pyacl_ptr(c);
}

static PYACL_FASTCALL(py_destroy_config) {
  (void)self;
  void *c;
  if (!pyacl_parse("acl.prof.destroy_config", args, nargs, "p", &c))
    return NULL;
  if (!handle_ok(c))
    return pyacl_ret(bad_host("aclprofDestroyConfig", "profilerConfig", c, sizeof(uint64_t)));
  return pyacl_ret(aclprofDestroyConfig(c));
}

static PYACL_FASTCALL(py_set_config) {
  (void)self;
  int32_t type;
  const char *value;
  if (!pyacl_parse("acl.prof.set_config", args, nargs, "is", &type, &value))
    return NULL;
  return pyacl_ret(aclprofSetConfig((aclprofConfigType)type, value, strlen(value)));
}

/* start and stop: the same shape, C function chosen by `stop`. */
static PyObject *start_stop(const char *pyname, const char *api, int stop, PyObject *const *args, Py_ssize_t nargs) {
  void *c;
  if (!pyacl_parse(pyname, args, nargs, "p", &c))
    return NULL;
  if (!handle_ok(c))
    return pyacl_ret(bad_host(api, "profilerConfig", c, sizeof(uint64_t)));
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = stop ? aclprofStop(c) : aclprofStart(c);
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_start) {
  (void)self;
  return start_stop("acl.prof.start", "aclprofStart", 0, args, nargs);
}

static PYACL_FASTCALL(py_stop) {
  (void)self;
  return start_stop("acl.prof.stop", "aclprofStop", 1, args, nargs);
}

/* ---- model subscription ------------------------------------------------- */

/*
 * aclprofCreateSubscribeConfig keeps a pointer to the int holding the pipe's
 * write end and reads it at aclprofModelSubscribe, so each configuration
 * made here gets its own int, freed with the configuration.  The list is
 * guarded by the GIL.
 */
typedef struct sub_fd {
  const void *config;
  int *fd;
  struct sub_fd *next;
} sub_fd;
static sub_fd *sub_fds;

static PYACL_FASTCALL(py_create_subscribe_config) {
  (void)self;
  uint8_t time_info;
  int32_t metrics, fd;
  if (!pyacl_parse("acl.prof.create_subscribe_config", args, nargs, "Bii", &time_info, &metrics, &fd))
    return NULL;
  sub_fd *e = malloc(sizeof(*e));
  int *slot = malloc(sizeof(*slot));
  if (e == NULL || slot == NULL) {
    free(e);
    free(slot);
    return PyErr_NoMemory();
  }
  *slot = fd;
  aclprofSubscribeConfig *c = aclprofCreateSubscribeConfig((int8_t)time_info, (aclprofAicoreMetrics)metrics, slot);
  if (c == NULL) {
    free(e);
    free(slot);
    return pyacl_ptr(NULL);
  }
  e->config = c;
  e->fd = slot;
  e->next = sub_fds;
  sub_fds = e;
  return pyacl_ptr(c);
}

static PYACL_FASTCALL(py_destroy_subscribe_config) {
  (void)self;
  void *c;
  if (!pyacl_parse("acl.prof.destroy_subscribe_config", args, nargs, "p", &c))
    return NULL;
  if (!handle_ok(c))
    return pyacl_ret(bad_host("aclprofDestroySubscribeConfig", "profSubscribeConfig", c, sizeof(uint64_t)));
  aclError ret = aclprofDestroySubscribeConfig(c);
  if (ret == ACL_SUCCESS)
    for (sub_fd **p = &sub_fds; *p != NULL; p = &(*p)->next)
      if ((*p)->config == c) {
        sub_fd *dead = *p;
        *p = dead->next;
        free(dead->fd);
        free(dead);
        break;
      }
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_model_subscribe) {
  (void)self;
  uint32_t id;
  void *c;
  if (!pyacl_parse("acl.prof.model_subscribe", args, nargs, "Ip", &id, &c))
    return NULL;
  if (!handle_ok(c))
    return pyacl_ret(bad_host("aclprofModelSubscribe", "profSubscribeConfig", c, sizeof(uint64_t)));
  return pyacl_ret(aclprofModelSubscribe(id, c));
}

static PyObject *unsubscribe(const char *pyname, PyObject *const *args, Py_ssize_t nargs) {
  uint32_t id;
  if (!pyacl_parse(pyname, args, nargs, "I", &id))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS ret = aclprofModelUnSubscribe(id);
  Py_END_ALLOW_THREADS return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_model_unsubscribe) {
  (void)self;
  return unsubscribe("acl.prof.model_unsubscribe", args, nargs);
}

static PYACL_FASTCALL(py_model_un_subscribe) {
  (void)self;
  return unsubscribe("acl.prof.model_un_subscribe", args, nargs);
}

/* ---- ProfOpDesc readers ---------------------------------------------------- */

static PYACL_FASTCALL(py_get_op_desc_size) {
  (void)self;
  (void)args;
  (void)nargs;
  size_t size = 0;
  aclError ret = aclprofGetOpDescSize(&size);
  return pyacl_tuple_ret(PyLong_FromSize_t(size), ret);
}

static PYACL_FASTCALL(py_get_op_num) {
  (void)self;
  void *info;
  size_t len;
  if (!pyacl_parse("acl.prof.get_op_num", args, nargs, "pz", &info, &len))
    return NULL;
  uint32_t num = 0;
  aclError ret =
      op_info_ok(info, len) ? aclprofGetOpNum(info, len, &num) : bad_host("aclprofGetOpNum", "opInfo", info, len);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(num), ret);
}

/* get_op_type_len / get_op_name_len: (len, ret). */
static PyObject *str_len(const char *pyname, const char *api, int name, PyObject *const *args, Py_ssize_t nargs) {
  void *info;
  size_t len;
  uint32_t index;
  if (!pyacl_parse(pyname, args, nargs, "pzI", &info, &len, &index))
    return NULL;
  size_t n = 0;
  aclError ret;
  if (!op_info_ok(info, len))
    ret = bad_host(api, "opInfo", info, len);
  else
    ret = name ? aclprofGetOpNameLen(info, len, index, &n) : aclprofGetOpTypeLen(info, len, index, &n);
  return pyacl_tuple_ret(PyLong_FromSize_t(n), ret);
}

static PYACL_FASTCALL(py_get_op_type_len) {
  (void)self;
  return str_len("acl.prof.get_op_type_len", "aclprofGetOpTypeLen", 0, args, nargs);
}

static PYACL_FASTCALL(py_get_op_name_len) {
  (void)self;
  return str_len("acl.prof.get_op_name_len", "aclprofGetOpNameLen", 1, args, nargs);
}

/* Reads the type (name = 0) or name of record `index` into a buffer of
 * `size` bytes; *out is a new str ('' on failure). */
static aclError read_str(const char *api, int name, void *info, size_t len, uint32_t index, size_t size,
                         PyObject **out) {
  *out = NULL;
  char *buf = calloc(size ? size : 1, 1);
  if (buf == NULL) {
    PyErr_NoMemory();
    return ACL_ERROR_BAD_ALLOC;
  }
  aclError ret;
  if (!op_info_ok(info, len))
    ret = bad_host(api, "opInfo", info, len);
  else
    ret = name ? aclprofGetOpName(info, len, index, buf, size) : aclprofGetOpType(info, len, index, buf, size);
  if (ret != ACL_SUCCESS)
    buf[0] = '\0';
  *out = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)strnlen(buf, size ? size : 1), "replace");
  free(buf);
  return ret;
}

/* get_op_type / get_op_name (op_info, len, index, buf_len): (str, ret). */
static PyObject *get_str(const char *pyname, const char *api, int name, PyObject *const *args, Py_ssize_t nargs) {
  void *info;
  size_t len, size;
  uint32_t index;
  if (!pyacl_parse(pyname, args, nargs, "pzIz", &info, &len, &index, &size))
    return NULL;
  if (size > MAX_STR_LEN) {
    char detail[128];
    snprintf(detail, sizeof detail, "the buffer length %zu is more than %d", size, MAX_STR_LEN);
    return pyacl_tuple_ret(PyUnicode_FromString(""), openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail));
  }
  PyObject *s;
  aclError ret = read_str(api, name, info, len, index, size, &s);
  if (s == NULL)
    return NULL;
  return pyacl_tuple_ret(s, ret);
}

static PYACL_FASTCALL(py_get_op_type) {
  (void)self;
  return get_str("acl.prof.get_op_type", "aclprofGetOpType", 0, args, nargs);
}

static PYACL_FASTCALL(py_get_op_name) {
  (void)self;
  return get_str("acl.prof.get_op_name", "aclprofGetOpName", 1, args, nargs);
}

/* get_op_type_v2 / get_op_name_v2 (op_info, len, index): the length first,
 * then the string; (None, ret) when the length cannot be had. */
static PyObject *get_str_v2(const char *pyname, const char *api_len, const char *api, int name, PyObject *const *args,
                            Py_ssize_t nargs) {
  void *info;
  size_t len;
  uint32_t index;
  if (!pyacl_parse(pyname, args, nargs, "pzI", &info, &len, &index))
    return NULL;
  if (!op_info_ok(info, len))
    return pyacl_tuple_ret(none_ref(), bad_host(api_len, "opInfo", info, len));
  size_t size = 0;
  aclError ret = name ? aclprofGetOpNameLen(info, len, index, &size) : aclprofGetOpTypeLen(info, len, index, &size);
  if (ret != ACL_SUCCESS || size == 0)
    return pyacl_tuple_ret(none_ref(), ret != ACL_SUCCESS ? ret : ACL_ERROR_INVALID_PARAM);
  PyObject *s;
  ret = read_str(api, name, info, len, index, size, &s);
  if (s == NULL)
    return NULL;
  return pyacl_tuple_ret(s, ret);
}

static PYACL_FASTCALL(py_get_op_type_v2) {
  (void)self;
  return get_str_v2("acl.prof.get_op_type_v2", "aclprofGetOpTypeLen", "aclprofGetOpType", 0, args, nargs);
}

static PYACL_FASTCALL(py_get_op_name_v2) {
  (void)self;
  return get_str_v2("acl.prof.get_op_name_v2", "aclprofGetOpNameLen", "aclprofGetOpName", 1, args, nargs);
}

/* get_op_start / end / duration / get_model_id: a bare int, 0 on failure. */
enum { F_START, F_END, F_DURATION, F_MODEL };

static PyObject *get_u64(const char *pyname, const char *api, int which, PyObject *const *args, Py_ssize_t nargs) {
  void *info;
  size_t len;
  uint32_t index;
  if (!pyacl_parse(pyname, args, nargs, "pzI", &info, &len, &index))
    return NULL;
  uint64_t v = 0;
  if (!op_info_ok(info, len))
    bad_host(api, "opInfo", info, len);
  else if (which == F_START)
    v = aclprofGetOpStart(info, len, index);
  else if (which == F_END)
    v = aclprofGetOpEnd(info, len, index);
  else if (which == F_DURATION)
    v = aclprofGetOpDuration(info, len, index);
  else
    v = aclprofGetModelId(info, len, index);
  return PyLong_FromUnsignedLongLong(v);
}

static PYACL_FASTCALL(py_get_op_start) {
  (void)self;
  return get_u64("acl.prof.get_op_start", "aclprofGetOpStart", F_START, args, nargs);
}

static PYACL_FASTCALL(py_get_op_end) {
  (void)self;
  return get_u64("acl.prof.get_op_end", "aclprofGetOpEnd", F_END, args, nargs);
}

static PYACL_FASTCALL(py_get_op_duration) {
  (void)self;
  return get_u64("acl.prof.get_op_duration", "aclprofGetOpDuration", F_DURATION, args, nargs);
}

static PYACL_FASTCALL(py_get_model_id) {
  (void)self;
  return get_u64("acl.prof.get_model_id", "aclprofGetModelId", F_MODEL, args, nargs);
}

/* ---- step info -------------------------------------------------------------- */

static PYACL_FASTCALL(py_create_step_info) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclprofCreateStepInfo());
}

static PYACL_FASTCALL(py_destroy_step_info) {
  (void)self;
  void *s;
  if (!pyacl_parse("acl.prof.destroy_step_info", args, nargs, "p", &s))
    return NULL;
  if (handle_ok(s))
    aclprofDestroyStepInfo(s);
  else
    bad_host("aclprofDestroyStepInfo", "stepinfo", s, sizeof(uint64_t));
  Py_RETURN_NONE;
}

static PYACL_FASTCALL(py_get_step_timestamp) {
  (void)self;
  void *s, *stream;
  int32_t tag;
  if (!pyacl_parse("acl.prof.get_step_timestamp", args, nargs, "pip", &s, &tag, &stream))
    return NULL;
  if (!handle_ok(s))
    return pyacl_ret(bad_host("aclprofGetStepTimestamp", "stepInfo", s, sizeof(uint64_t)));
  return pyacl_ret(aclprofGetStepTimestamp(s, (aclprofStepTag)tag, stream));
}

/* ---- msproftx: stamps, marks, ranges ------------------------------------------ */

static PYACL_FASTCALL(py_create_stamp) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclprofCreateStamp());
}

static PYACL_FASTCALL(py_destroy_stamp) {
  (void)self;
  void *s;
  if (!pyacl_parse("acl.prof.destroy_stamp", args, nargs, "p", &s))
    return NULL;
  if (handle_ok(s))
    aclprofDestroyStamp(s);
  else
    bad_host("aclprofDestroyStamp", "stamp", s, sizeof(uint64_t));
  Py_RETURN_NONE;
}

static PYACL_FASTCALL(py_set_stamp_trace_message) {
  (void)self;
  void *s;
  const char *msg;
  uint32_t len;
  if (!pyacl_parse("acl.prof.set_stamp_trace_message", args, nargs, "psI", &s, &msg, &len))
    return NULL;
  if (!handle_ok(s))
    return pyacl_ret(bad_host("aclprofSetStampTraceMessage", "stamp", s, sizeof(uint64_t)));
  /* C reads at most msg_len bytes and stops at the NUL: a msg_len past the
   * str's end reads no further than its terminator. */
  return pyacl_ret(aclprofSetStampTraceMessage(s, msg, len));
}

/* mark, push, range_start: one stamp argument. */
static int stamp_arg(const char *pyname, const char *api, PyObject *const *args, Py_ssize_t nargs, void **s,
                     aclError *bad) {
  if (!pyacl_parse(pyname, args, nargs, "p", s))
    return 0;
  *bad = handle_ok(*s) ? ACL_SUCCESS : bad_host(api, "stamp", *s, sizeof(uint64_t));
  return 1;
}

static PYACL_FASTCALL(py_mark) {
  (void)self;
  void *s;
  aclError bad;
  if (!stamp_arg("acl.prof.mark", "aclprofMark", args, nargs, &s, &bad))
    return NULL;
  return pyacl_ret(bad ? bad : aclprofMark(s));
}

static PYACL_FASTCALL(py_push) {
  (void)self;
  void *s;
  aclError bad;
  if (!stamp_arg("acl.prof.push", "aclprofPush", args, nargs, &s, &bad))
    return NULL;
  return pyacl_ret(bad ? bad : aclprofPush(s));
}

static PYACL_FASTCALL(py_range_start) {
  (void)self;
  void *s;
  aclError bad;
  if (!stamp_arg("acl.prof.range_start", "aclprofRangeStart", args, nargs, &s, &bad))
    return NULL;
  uint32_t id = 0;
  aclError ret = bad ? bad : aclprofRangeStart(s, &id);
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_mark_ex) {
  (void)self;
  const char *msg;
  void *stream;
  if (!pyacl_parse("acl.prof.mark_ex", args, nargs, "sp", &msg, &stream))
    return NULL;
  return pyacl_ret(aclprofMarkEx(msg, strlen(msg), stream));
}

static PYACL_FASTCALL(py_pop) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ret(aclprofPop());
}

static PYACL_FASTCALL(py_range_stop) {
  (void)self;
  uint32_t id;
  if (!pyacl_parse("acl.prof.range_stop", args, nargs, "I", &id))
    return NULL;
  return pyacl_ret(aclprofRangeStop(id));
}

PyMethodDef pyacl_prof_methods[] = {
    PYACL_FN("init", py_init),
    PYACL_FN("finalize", py_finalize),
    PYACL_FN("create_config", py_create_config),
    PYACL_FN("destroy_config", py_destroy_config),
    PYACL_FN("set_config", py_set_config),
    PYACL_FN("start", py_start),
    PYACL_FN("stop", py_stop),
    PYACL_FN("model_subscribe", py_model_subscribe),
    PYACL_FN("model_unsubscribe", py_model_unsubscribe),
    PYACL_FN("model_un_subscribe", py_model_un_subscribe), /* pyACL's alias */
    PYACL_FN("create_subscribe_config", py_create_subscribe_config),
    PYACL_FN("destroy_subscribe_config", py_destroy_subscribe_config),
    PYACL_FN("get_op_desc_size", py_get_op_desc_size),
    PYACL_FN("get_op_num", py_get_op_num),
    PYACL_FN("get_op_type_len", py_get_op_type_len),
    PYACL_FN("get_op_name_len", py_get_op_name_len),
    PYACL_FN("get_op_type", py_get_op_type),
    PYACL_FN("get_op_name", py_get_op_name),
    PYACL_FN("get_op_type_v2", py_get_op_type_v2),
    PYACL_FN("get_op_name_v2", py_get_op_name_v2),
    PYACL_FN("get_op_start", py_get_op_start),
    PYACL_FN("get_op_end", py_get_op_end),
    PYACL_FN("get_op_duration", py_get_op_duration),
    PYACL_FN("get_model_id", py_get_model_id),
    PYACL_FN("create_step_info", py_create_step_info),
    PYACL_FN("destroy_step_info", py_destroy_step_info),
    PYACL_FN("get_step_timestamp", py_get_step_timestamp),
    PYACL_FN("create_stamp", py_create_stamp),
    PYACL_FN("destroy_stamp", py_destroy_stamp),
    PYACL_FN("set_stamp_trace_message", py_set_stamp_trace_message),
    PYACL_FN("mark", py_mark),
    PYACL_FN("mark_ex", py_mark_ex),
    PYACL_FN("push", py_push),
    PYACL_FN("pop", py_pop),
    PYACL_FN("range_start", py_range_start),
    PYACL_FN("range_stop", py_range_stop),
    {NULL, NULL, 0, NULL},
};
