/*
 * util.c - acl.util's memory helpers: bytes_to_ptr, ptr_to_bytes,
 * numpy_to_ptr, numpy_contiguous_to_ptr and ptr_to_numpy (pyacl.md §2.4,
 * §3.5).  The thread helpers of acl.util are in util_thread.c.
 *
 * Pointers are Python ints.  The bytes and numpy helpers make no copy (the
 * caller keeps the owner alive across the C call that uses the address);
 * ptr_to_bytes copies.  numpy is imported lazily, on the first numpy helper
 * call, and used through its Python API only (no numpy C headers): `import
 * acl` works without numpy, and the numpy helpers then raise ImportError.
 */
#include "pyacl.h"

#include <string.h>

/* The numpy module, imported on first use and kept for the process (the
 * extension is single-phase and never unloaded; sys.modules holds it too). */
static PyObject *numpy_mod;

static PyObject *numpy_module(void) {
  if (!numpy_mod)
    numpy_mod = PyImport_ImportModule("numpy"); /* ImportError when absent */
  return numpy_mod;
}

/* 1 if `o` is a numpy.ndarray (subclasses too), 0 if not, -1 on error. */
static int is_ndarray(PyObject *o) {
  PyObject *np = numpy_module();
  if (!np)
    return -1;
  PyObject *nd = PyObject_GetAttrString(np, "ndarray");
  if (!nd)
    return -1;
  int r = PyObject_IsInstance(o, nd);
  Py_DECREF(nd);
  return r;
}

/* The array's data pointer, from __array_interface__['data'][0]: the address
 * of its first element, whatever its strides.  0 with an exception set on
 * failure (a NULL data pointer of an empty array is returned as 0 too, with
 * no exception). */
static void *array_data(PyObject *arr) {
  PyObject *ai = PyObject_GetAttrString(arr, "__array_interface__");
  if (!ai)
    return NULL;
  void *p = NULL;
  PyObject *data = PyDict_Check(ai) ? PyDict_GetItemString(ai, "data") : NULL; /* borrowed */
  if (data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) >= 1) {
    unsigned long long v = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(data, 0));
    if (!(v == (unsigned long long)-1 && PyErr_Occurred()))
      p = (void *)(uintptr_t)v;
  } else {
    PyErr_SetString(PyExc_ValueError, "the array's __array_interface__ has no data pointer");
  }
  Py_DECREF(ai);
  return p;
}

/* 1 if the array is C-contiguous, 0 if not, -1 on error. */
static int c_contiguous(PyObject *arr) {
  PyObject *flags = PyObject_GetAttrString(arr, "flags");
  if (!flags)
    return -1;
  PyObject *c = PyObject_GetAttrString(flags, "c_contiguous");
  Py_DECREF(flags);
  if (!c)
    return -1;
  int r = PyObject_IsTrue(c);
  Py_DECREF(c);
  return r;
}

/* pyACL warns with the base Warning category (not DeprecationWarning) on
 * every use of the numpy helpers; scripts filter on it.  -1 when a warnings
 * filter turned the warning into an exception. */
static int deprecation_warning(const char *name) {
  char msg[256];
  snprintf(msg, sizeof msg,
           "%s is deprecated in pyACL: continued use needs Python >= 3.8 and numpy >= 1.22; "
           "prefer acl.util.bytes_to_ptr / ptr_to_bytes",
           name);
  return PyErr_WarnEx(PyExc_Warning, msg, 1);
}

/* ---- bytes ---------------------------------------------------------- */

/*
 * The address of the bytes object's own storage: no copy, no reference kept.
 * C may write through it (acllite fills `np.zeros(n).tobytes()` with a D2H
 * memcpy, then reads it back with np.frombuffer), so this must not copy.
 * The caller keeps the object alive across the C call.  CPython shares the
 * empty bytes object and the 1-byte ones: writing into those corrupts every
 * user of them, as with pyACL; scripts pass buffers of real sizes.
 */
static PYACL_FASTCALL(py_bytes_to_ptr) {
  (void)self;
  PyObject *data;
  if (!pyacl_parse("acl.util.bytes_to_ptr", args, nargs, "O", &data))
    return NULL;
  if (!PyBytes_Check(data)) {
    /* pyACL's ValueError (bytearray and memoryview too: only bytes). */
    PyErr_Format(PyExc_ValueError, "acl.util.bytes_to_ptr: data must be bytes, not %.100s", Py_TYPE(data)->tp_name);
    return NULL;
  }
  return pyacl_ptr(PyBytes_AS_STRING(data));
}

/* Copies below this size are done with the GIL held: releasing it costs more
 * than the copy. */
#define PTR_TO_BYTES_NOGIL_MIN ((size_t)1 << 20)

/*
 * A copy of `size` bytes of host memory at `ptr`.  pyACL reads the memory
 * unchecked, so a bad pointer is a segfault there.  Here the range is
 * checked first (pyacl_host_range_ok: mapped pages) and a bad one raises
 * ValueError.  This is one of the few places a call raises instead of
 * returning a code, because there is no code to return: pyACL's result is a
 * bare bytes object, and a crash is what the vendor "returns", so no script
 * can depend on the call succeeding with such a pointer.  The check cannot
 * tell a freed block still mapped by the allocator from a live one: it
 * catches bogus ints and NULL, not use after free.
 */
static PYACL_FASTCALL(py_ptr_to_bytes) {
  (void)self;
  void *ptr;
  size_t size;
  if (!pyacl_parse("acl.util.ptr_to_bytes", args, nargs, "pz", &ptr, &size))
    return NULL;
  if (size > (size_t)PY_SSIZE_T_MAX) {
    PyErr_Format(PyExc_ValueError, "acl.util.ptr_to_bytes: size %zu is too large", size);
    return NULL;
  }
  if (size == 0)
    return PyBytes_FromStringAndSize(NULL, 0);
  if (!pyacl_host_range_ok(ptr, size)) {
    PyErr_Format(PyExc_ValueError,
                 "acl.util.ptr_to_bytes: [0x%llx, +%zu) is not mapped host memory "
                 "(pyACL would crash here); pass a host pointer and a size within its allocation",
                 (unsigned long long)(uintptr_t)ptr, size);
    return NULL;
  }
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
  if (!b)
    return NULL;
  char *dst = PyBytes_AS_STRING(b);
  /* The new object is not visible to other threads yet, so a long copy can
   * let them run. */
  if (size >= PTR_TO_BYTES_NOGIL_MIN) {
    Py_BEGIN_ALLOW_THREADS
    memcpy(dst, ptr, size);
    Py_END_ALLOW_THREADS
  } else {
    memcpy(dst, ptr, size);
  }
  return b;
}

/* ---- numpy ---------------------------------------------------------- */

/*
 * The array's data pointer, no copy: C reads and writes the array's memory
 * (even a read-only array's, as pyACL).  Warns (Warning) on each call, and
 * once more when the array is not C-contiguous, because C then sees its
 * memory as contiguous and gets the wrong elements.
 */
static PYACL_FASTCALL(py_numpy_to_ptr) {
  (void)self;
  PyObject *arr;
  if (!pyacl_parse("acl.util.numpy_to_ptr", args, nargs, "O", &arr))
    return NULL;
  int nd = is_ndarray(arr);
  if (nd < 0)
    return NULL;
  if (!nd) {
    PyErr_Format(PyExc_ValueError, "acl.util.numpy_to_ptr: arr must be a numpy.ndarray, not %.100s",
                 Py_TYPE(arr)->tp_name);
    return NULL;
  }
  if (deprecation_warning("acl.util.numpy_to_ptr") < 0)
    return NULL;
  int c = c_contiguous(arr);
  if (c < 0)
    return NULL;
  if (!c && PyErr_WarnEx(PyExc_Warning,
                         "acl.util.numpy_to_ptr: the array is not C-contiguous, so C will not see its elements in "
                         "order; use acl.util.numpy_contiguous_to_ptr, or numpy.ascontiguousarray first",
                         1) < 0)
    return NULL;
  void *p = array_data(arr);
  if (!p && PyErr_Occurred())
    return NULL;
  return pyacl_ptr(p);
}

/*
 * (ptr, arr_c): arr_c is arr itself when it is C-contiguous, else a
 * C-contiguous copy made with numpy.ascontiguousarray.  ptr points into
 * arr_c, so the caller must keep arr_c (not arr) alive while C uses ptr.
 */
static PYACL_FASTCALL(py_numpy_contiguous_to_ptr) {
  (void)self;
  PyObject *arr;
  if (!pyacl_parse("acl.util.numpy_contiguous_to_ptr", args, nargs, "O", &arr))
    return NULL;
  int nd = is_ndarray(arr);
  if (nd < 0)
    return NULL;
  if (!nd) {
    PyErr_Format(PyExc_ValueError, "acl.util.numpy_contiguous_to_ptr: arr must be a numpy.ndarray, not %.100s",
                 Py_TYPE(arr)->tp_name);
    return NULL;
  }
  if (deprecation_warning("acl.util.numpy_contiguous_to_ptr") < 0)
    return NULL;
  int c = c_contiguous(arr);
  if (c < 0)
    return NULL;
  PyObject *arr_c;
  if (c) {
    Py_INCREF(arr);
    arr_c = arr;
  } else {
    arr_c = PyObject_CallMethod(numpy_mod, "ascontiguousarray", "O", arr);
    if (!arr_c)
      return NULL;
  }
  void *p = array_data(arr_c);
  if (!p && PyErr_Occurred()) {
    Py_DECREF(arr_c);
    return NULL;
  }
  PyObject *ptr = pyacl_ptr(p);
  if (!ptr) {
    Py_DECREF(arr_c);
    return NULL;
  }
  PyObject *t = PyTuple_New(2);
  if (!t) {
    Py_DECREF(ptr);
    Py_DECREF(arr_c);
    return NULL;
  }
  PyTuple_SET_ITEM(t, 0, ptr);
  PyTuple_SET_ITEM(t, 1, arr_c);
  return t;
}

/* NumPy type number -> numpy type character (pyacl.md §3.5): the numbers
 * pyACL's documentation and samples use, plus the other numeric ones. */
static const char *npy_type_char(int32_t t) {
  static const char *const chars[] = {"?", "b", "B", "h", "H", "i", "I", "l", "L",
                                      "q", "Q", "f", "d", "g", "F", "D", "G"}; /* 0..16 */
  if (t == 23)
    return "e"; /* float16 */
  if (t < 0 || t > 16)
    return NULL;
  return chars[t];
}

/*
 * A writeable C-order array over `shape` elements of type `npy_type` at
 * `ptr`, no copy and no owner: it dangles once the memory is freed (samples
 * copy it, np.array(view), before free_host).  Built without numpy headers
 * as numpy.frombuffer over a writable memoryview of the range, reshaped.
 * shape must be a tuple (pyACL's rule; a list is a TypeError).  The range is
 * checked to be mapped host memory, like ptr_to_bytes: pyACL would hand back
 * a view that crashes on first use; here the call raises ValueError.
 */
static PYACL_FASTCALL(py_ptr_to_numpy) {
  (void)self;
  void *ptr;
  PyObject *shape;
  int32_t type;
  if (!pyacl_parse("acl.util.ptr_to_numpy", args, nargs, "pOi", &ptr, &shape, &type))
    return NULL;
  if (!PyTuple_Check(shape)) {
    PyErr_SetString(PyExc_TypeError, "acl.util.ptr_to_numpy args parse failed");
    return NULL;
  }
  const char *tc = npy_type_char(type);
  if (!tc) {
    PyErr_Format(PyExc_ValueError,
                 "acl.util.ptr_to_numpy: npy_type %d is not supported (0-16 and 23 are: numpy's type numbers "
                 "of bool, the integers, the floats and the complex types, 23 float16)",
                 (int)type);
    return NULL;
  }
  PyObject *np = numpy_module();
  if (!np)
    return NULL;
  if (deprecation_warning("acl.util.ptr_to_numpy") < 0)
    return NULL;
  PyObject *dtype = PyObject_CallMethod(np, "dtype", "s", tc);
  if (!dtype)
    return NULL;
  PyObject *isz = PyObject_GetAttrString(dtype, "itemsize");
  size_t itemsize = isz ? PyLong_AsSize_t(isz) : (size_t)-1;
  Py_XDECREF(isz);
  if (itemsize == (size_t)-1) {
    Py_DECREF(dtype);
    return NULL;
  }
  /* Bytes spanned by the array, with overflow checks. */
  size_t total = itemsize;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(shape); i++) {
    PyObject *d = PyTuple_GET_ITEM(shape, i);
    if (PyFloat_Check(d)) {
      PyErr_SetString(PyExc_TypeError, "acl.util.ptr_to_numpy args parse failed");
      Py_DECREF(dtype);
      return NULL;
    }
    Py_ssize_t n = PyNumber_AsSsize_t(d, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred()) {
      if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "acl.util.ptr_to_numpy args parse failed");
      }
      Py_DECREF(dtype);
      return NULL;
    }
    if (n < 0) {
      PyErr_Format(PyExc_ValueError, "acl.util.ptr_to_numpy: negative dimension %zd in shape", n);
      Py_DECREF(dtype);
      return NULL;
    }
    if (n != 0 && total > (size_t)PY_SSIZE_T_MAX / (size_t)n) {
      PyErr_SetString(PyExc_ValueError, "acl.util.ptr_to_numpy: shape is too large");
      Py_DECREF(dtype);
      return NULL;
    }
    total *= (size_t)n;
  }
  if (!pyacl_host_range_ok(ptr, total)) {
    PyErr_Format(PyExc_ValueError,
                 "acl.util.ptr_to_numpy: [0x%llx, +%zu) is not mapped host memory "
                 "(pyACL would return a view that crashes on use); pass a host pointer and a shape within its "
                 "allocation",
                 (unsigned long long)(uintptr_t)ptr, total);
    Py_DECREF(dtype);
    return NULL;
  }
  /* PyMemoryView_FromMemory wants a non-NULL address even for 0 bytes. */
  static char empty;
  char *mem = total == 0 ? &empty : (char *)ptr;
  PyObject *mv = PyMemoryView_FromMemory(mem, (Py_ssize_t)total, PyBUF_WRITE);
  if (!mv) {
    Py_DECREF(dtype);
    return NULL;
  }
  PyObject *flat = PyObject_CallMethod(np, "frombuffer", "OO", mv, dtype);
  Py_DECREF(mv);
  Py_DECREF(dtype);
  if (!flat)
    return NULL;
  PyObject *arr = PyObject_CallMethod(flat, "reshape", "(O)", shape);
  Py_DECREF(flat);
  return arr;
}

PyMethodDef pyacl_util_methods[] = {
    PYACL_FN("bytes_to_ptr", py_bytes_to_ptr),
    PYACL_FN("ptr_to_bytes", py_ptr_to_bytes),
    PYACL_FN("numpy_to_ptr", py_numpy_to_ptr),
    PYACL_FN("numpy_contiguous_to_ptr", py_numpy_contiguous_to_ptr),
    PYACL_FN("ptr_to_numpy", py_ptr_to_numpy),
    {NULL, NULL, 0, NULL},
};
