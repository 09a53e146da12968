/*
 * args.c - positional-argument parsing, return builders, the not-supported
 * stubs and the host-pointer check shared by every file of the extension.
 *
 * The parser follows pyACL's rules (pointers must be real ints, bool
 * included; numbers accept __index__; lists must be lists) so scripts that
 * run on the vendor's module run here, and it is a hand-written loop over a
 * format string because PyArg_ParseTuple cannot express pointer masking and
 * builds a tuple per call on METH_FASTCALL: the per-call cost is the point.
 */
#include "pyacl.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "openacl/openacl.h"

static int parse_failed(const char *name) {
  if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s args parse failed", name);
  }
  return 0;
}

/* A pointer-like value: pyACL takes a real int only, masked to 64 bits. */
static int get_masked(PyObject *o, unsigned long long *out) {
  if (!PyLong_Check(o))
    return 0;
  unsigned long long v = PyLong_AsUnsignedLongLongMask(o);
  if (v == (unsigned long long)-1 && PyErr_Occurred())
    return 0;
  *out = v;
  return 1;
}

/* A number: int or anything with __index__, as a C long long. */
static int get_index(PyObject *o, long long *out, int *overflow) {
  *overflow = 0;
  if (PyFloat_Check(o))
    return 0;
  PyObject *idx = PyNumber_Index(o);
  if (!idx)
    return 0;
  long long v = PyLong_AsLongLongAndOverflow(idx, overflow);
  Py_DECREF(idx);
  if (v == -1 && PyErr_Occurred())
    return 0;
  *out = v;
  return 1;
}

/* A number masked to `bits`: negative values wrap, as C's conversions do. */
static int get_index_masked(PyObject *o, unsigned long long *out) {
  if (PyFloat_Check(o))
    return 0;
  PyObject *idx = PyNumber_Index(o);
  if (!idx)
    return 0;
  unsigned long long v = PyLong_AsUnsignedLongLongMask(idx);
  Py_DECREF(idx);
  if (v == (unsigned long long)-1 && PyErr_Occurred())
    return 0;
  *out = v;
  return 1;
}

static int range_error(const char *name, long long v, long long lo, long long hi) {
  PyErr_Format(PyExc_OverflowError, "%s: %lld is out of range [%lld, %lld]", name, v, lo, hi);
  return 0;
}

int pyacl_parse(const char *name, PyObject *const *args, Py_ssize_t nargs, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  Py_ssize_t i = 0;
  int optional = 0;
  int ok = 1;
  for (const char *f = format; *f && ok; f++) {
    if (*f == '|') {
      optional = 1;
      continue;
    }
    void *dst = va_arg(ap, void *);
    if (i >= nargs) {
      if (!optional)
        ok = parse_failed(name);
      continue; /* absent optional: untouched */
    }
    PyObject *o = args[i++];
    unsigned long long u = 0;
    long long v = 0;
    int of = 0;
    switch (*f) {
    case 'p':
      if (!get_masked(o, &u))
        ok = parse_failed(name);
      else
        *(void **)dst = (void *)(uintptr_t)u;
      break;
    case 'z':
      if (!get_masked(o, &u))
        ok = parse_failed(name);
      else
        *(size_t *)dst = (size_t)u;
      break;
    case 'K':
      if (!get_masked(o, &u))
        ok = parse_failed(name);
      else
        *(uint64_t *)dst = (uint64_t)u;
      break;
    case 'i':
      if (!get_index(o, &v, &of))
        ok = parse_failed(name);
      else if (of || v < INT32_MIN || v > INT32_MAX)
        ok = range_error(name, v, INT32_MIN, INT32_MAX);
      else
        *(int32_t *)dst = (int32_t)v;
      break;
    case 'L':
      if (!get_index(o, &v, &of))
        ok = parse_failed(name);
      else if (of)
        ok = range_error(name, v, INT64_MIN, INT64_MAX);
      else
        *(int64_t *)dst = (int64_t)v;
      break;
    case 'h':
      if (!get_index(o, &v, &of))
        ok = parse_failed(name);
      else if (of || v < INT16_MIN || v > INT16_MAX)
        ok = range_error(name, v, INT16_MIN, INT16_MAX);
      else
        *(int16_t *)dst = (int16_t)v;
      break;
    case 'B':
      if (!get_index(o, &v, &of))
        ok = parse_failed(name);
      else if (of || v < 0 || v > 255)
        ok = range_error(name, v, 0, 255);
      else
        *(uint8_t *)dst = (uint8_t)v;
      break;
    case 'I':
    case 'H':
    case 'b':
      if (!get_index_masked(o, &u))
        ok = parse_failed(name);
      else if (*f == 'I')
        *(uint32_t *)dst = (uint32_t)u;
      else if (*f == 'H')
        *(uint16_t *)dst = (uint16_t)u;
      else
        *(uint8_t *)dst = (uint8_t)u;
      break;
    case 'f': {
      /* Anything with __float__ or __index__, as PyArg's "f" (numpy scalars too). */
      double d = PyFloat_AsDouble(o);
      if (d == -1.0 && PyErr_Occurred())
        ok = parse_failed(name);
      else
        *(float *)dst = (float)d;
      break;
    }
    case 's': {
      const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
      if (!s)
        ok = parse_failed(name);
      else
        *(const char **)dst = s;
      break;
    }
    case 'O':
      *(PyObject **)dst = o;
      break;
    case 'l':
      if (!PyList_Check(o))
        ok = parse_failed(name);
      else
        *(PyObject **)dst = o;
      break;
    case 'a':
      /* a list, or a numpy array (anything exporting __array_interface__) */
      if (!PyList_Check(o) && !PyObject_HasAttrString(o, "__array_interface__"))
        ok = parse_failed(name);
      else
        *(PyObject **)dst = o;
      break;
    case 'd':
      if (!PyDict_Check(o))
        ok = parse_failed(name);
      else
        *(PyObject **)dst = o;
      break;
    case 'c':
      if (!PyCallable_Check(o))
        ok = parse_failed(name);
      else
        *(PyObject **)dst = o;
      break;
    default:
      PyErr_Format(PyExc_SystemError, "%s: bad format character '%c'", name, *f);
      ok = 0;
    }
  }
  va_end(ap);
  /* Too many arguments is an error, except for functions that take none. */
  if (ok && i < nargs && format[0] != '\0')
    ok = parse_failed(name);
  return ok;
}

PyObject *pyacl_ptr(const void *p) { return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)p); }

PyObject *pyacl_str_or_none(const char *s) {
  if (!s)
    Py_RETURN_NONE;
  return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

PyObject *pyacl_tuple_ret(PyObject *value, aclError ret) {
  if (!value)
    return NULL;
  PyObject *r = PyLong_FromLong((long)ret);
  if (!r) {
    Py_DECREF(value);
    return NULL;
  }
  PyObject *t = PyTuple_New(2);
  if (!t) {
    Py_DECREF(value);
    Py_DECREF(r);
    return NULL;
  }
  PyTuple_SET_ITEM(t, 0, value);
  PyTuple_SET_ITEM(t, 1, r);
  return t;
}

PyObject *pyacl_tuple2_ret(PyObject *a, PyObject *b, aclError ret) {
  PyObject *r = PyLong_FromLong((long)ret);
  PyObject *t = (a && b && r) ? PyTuple_New(3) : NULL;
  if (!t) {
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(r);
    return NULL;
  }
  PyTuple_SET_ITEM(t, 0, a);
  PyTuple_SET_ITEM(t, 1, b);
  PyTuple_SET_ITEM(t, 2, r);
  return t;
}

PyObject *pyacl_list_i64(const int64_t *v, size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  if (!l)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    PyObject *x = PyLong_FromLongLong((long long)v[i]);
    if (!x) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, x);
  }
  return l;
}

int pyacl_list_to_i64(const char *name, PyObject *list, int64_t *out, size_t max, size_t *n) {
  if (!PyList_Check(list))
    return parse_failed(name);
  Py_ssize_t len = PyList_GET_SIZE(list);
  if ((size_t)len > max) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed: %zd values, at most %zu", name, len, max);
    return 0;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    long long v;
    int of;
    if (!get_index(PyList_GET_ITEM(list, i), &v, &of) || of)
      return parse_failed(name);
    out[i] = (int64_t)v;
  }
  *n = (size_t)len;
  return 1;
}

int pyacl_list_to_pids(const char *name, PyObject *list, int32_t *out, size_t *n) {
  int64_t v[PYACL_MAX_PIDS];
  if (!pyacl_list_to_i64(name, list, v, PYACL_MAX_PIDS, n))
    return 0;
  for (size_t i = 0; i < *n; i++)
    out[i] = (int32_t)v[i];
  return 1;
}

/* ---- not-supported stubs ------------------------------------------------ */

aclError pyacl_not_supported(const char *c_name) {
  char detail[256];
  snprintf(detail, sizeof detail,
           "%s is not implemented by openacl yet (the Python name exists so scripts that reference it load); "
           "docs/python.md lists what is implemented",
           c_name);
  return openaclRecordError(c_name, ACL_ERROR_API_NOT_SUPPORT, detail);
}

static PyObject *stub_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  const pyacl_stub *s = PyCapsule_GetPointer(self, "pyacl_stub");
  if (!s)
    return NULL;
  const char *module = PyCapsule_GetContext(self); /* "acl.rt" */
  char name[128];
  snprintf(name, sizeof name, "%s.%s", module ? module : "acl", s->py_name);
  /* Check the arguments as the real function would: same TypeErrors. */
  void *sink[24];
  const char *f = s->format;
  Py_ssize_t slots = 0;
  for (const char *c = f; *c; c++)
    slots += (*c != '|');
  if (slots > 24)
    slots = 24;
  int ok;
  /* Every slot is at most 8 bytes, so one pointer-sized sink each suffices. */
  switch (slots) {
#define S(k) &sink[k]
  case 0: ok = pyacl_parse(name, args, nargs, f); break;
  case 1: ok = pyacl_parse(name, args, nargs, f, S(0)); break;
  case 2: ok = pyacl_parse(name, args, nargs, f, S(0), S(1)); break;
  case 3: ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2)); break;
  case 4: ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2), S(3)); break;
  case 5: ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2), S(3), S(4)); break;
  case 6: ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2), S(3), S(4), S(5)); break;
  case 7: ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2), S(3), S(4), S(5), S(6)); break;
  default:
    ok = pyacl_parse(name, args, nargs, f, S(0), S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8), S(9), S(10),
                     S(11), S(12), S(13), S(14), S(15), S(16), S(17), S(18), S(19), S(20), S(21), S(22), S(23));
#undef S
  }
  if (!ok)
    return NULL;
  aclError ret = pyacl_not_supported(s->c_name);
  switch (s->shape) {
  case PYACL_RET: return pyacl_ret(ret);
  case PYACL_VAL_RET: return Py_BuildValue("(ii)", 0, ret);
  case PYACL_VAL2_RET: return Py_BuildValue("(iii)", 0, 0, ret);
  case PYACL_STR_RET: return Py_BuildValue("(si)", "", ret);
  case PYACL_NONESTR_RET: return Py_BuildValue("(Oi)", Py_None, ret);
  case PYACL_DICT_RET: return Py_BuildValue("({}i)", ret);
  case PYACL_LIST_RET: return Py_BuildValue("([]i)", ret);
  case PYACL_LIST_NUM_RET: return Py_BuildValue("([]ii)", 0, ret);
  case PYACL_HANDLE: return PyLong_FromLong(0);
  case PYACL_NONE: Py_RETURN_NONE;
  case PYACL_STR_NONE: Py_RETURN_NONE;
  case PYACL_OPDESC: return Py_BuildValue("(siiiii)", "", 0, 0, 0, 0, ret);
  }
  Py_RETURN_NONE;
}

int pyacl_add_stubs(PyObject *m, const char *dotted, const pyacl_stub *table) {
  /* The module's name lives as long as the process: keep one copy. */
  char *module = PyMem_RawMalloc(strlen(dotted) + 1);
  if (!module) {
    PyErr_NoMemory();
    return -1;
  }
  strcpy(module, dotted);
  for (const pyacl_stub *s = table; s->py_name; s++) {
    /* The method definitions must outlive the functions: allocate them once
     * per process (single-phase init: the module is never re-created). */
    PyMethodDef *def = PyMem_RawCalloc(1, sizeof *def);
    if (!def) {
      PyErr_NoMemory();
      return -1;
    }
    def->ml_name = s->py_name;
    def->ml_meth = (PyCFunction)(void (*)(void))stub_call;
    def->ml_flags = METH_FASTCALL;
    def->ml_doc = "not implemented by openacl yet: returns ACL_ERROR_API_NOT_SUPPORT (200001)";
    PyObject *cap = PyCapsule_New((void *)s, "pyacl_stub", NULL);
    if (cap && PyCapsule_SetContext(cap, module) < 0)
      Py_CLEAR(cap);
    PyObject *fn = cap ? PyCFunction_NewEx(def, cap, NULL) : NULL;
    Py_XDECREF(cap);
    if (!fn || PyModule_AddObject(m, s->py_name, fn) < 0) {
      Py_XDECREF(fn);
      return -1;
    }
  }
  return 0;
}

/* ---- host pointers ---------------------------------------------------- */

/* Page spans verified recently, newest first; guarded by the GIL.  A span
 * stays trusted until the binding frees host memory: memory a script frees
 * by other means (a numpy array going away) and then passes again is a
 * use-after-free, which no check can make safe. */
#define SPAN_CACHE 4
static struct {
  uintptr_t first, last;
} spans[SPAN_CACHE];

void pyacl_host_range_forget(void) { memset(spans, 0, sizeof spans); }

int pyacl_host_range_ok(const void *p, size_t n) {
  if (n == 0)
    return 1;
  uintptr_t a = (uintptr_t)p;
  if (a + n < a)
    return 0;
  static uintptr_t page;
  if (!page)
    page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t first = a & ~(page - 1);
  uintptr_t last = (a + n - 1) & ~(page - 1);
  for (int i = 0; i < SPAN_CACHE; i++)
    if (spans[i].last && first >= spans[i].first && last <= spans[i].last)
      return 1;
  /* msync(MS_ASYNC) fails with ENOMEM on any unmapped page of the range and
   * otherwise does nothing (no write-back since Linux 2.6.19): one system
   * call that only looks the mappings up, about a quarter of what mincore
   * costs (which also walks the page tables), whatever the length. */
  int rc = msync((void *)first, (size_t)(last - first + page), MS_ASYNC);
  if (rc != 0)
    return errno != ENOMEM;
  memmove(&spans[1], &spans[0], sizeof spans - sizeof spans[0]);
  spans[0].first = first;
  spans[0].last = last;
  return 1;
}
