/*
 * acl_tensor.c - the top-level `acl` tensor-descriptor functions
 * (create_tensor_desc, the get_tensor_desc_* queries, the set_tensor_*
 * setters) and the stubs of the top-level names whose C function openacl does
 * not export (trans_tensor_desc_format, get_tensor_desc_address,
 * get_tensor_desc_by_index).
 *
 * Descriptors are registered handles in openacl's C layer, so a destroyed or
 * garbage int is refused there with a message; nothing here dereferences one.
 * None of these calls can block: they all keep the GIL.
 */
#include "pyacl.h"

#include <limits.h>
#include <string.h>

#include "openacl/openacl.h"

/* pyACL refuses a dim-range count above this before calling C (§2.1). */
#define PYACL_MAX_RANGE_NUM 4096

/*
 * A list of int64 converted for C: in `stack` when it fits (every real
 * shape: C takes at most ACL_MAX_DIM_CNT dims), else on the heap, so a longer
 * list still reaches C and gets C's own error and message instead of a
 * TypeError that pyACL would not raise.
 */
typedef struct i64_list {
  int64_t *v;
  size_t n;
  int64_t stack[ACL_MAX_DIM_CNT * 2];
} i64_list;

static void i64_list_free(i64_list *l) {
  if (l->v != l->stack)
    PyMem_Free(l->v);
  l->v = NULL;
}

/* Fills l from a list of ints (a tuple is a TypeError, as in pyACL). */
static int i64_list_from(const char *name, PyObject *list, i64_list *l) {
  l->v = l->stack;
  l->n = 0;
  Py_ssize_t len = PyList_Check(list) ? PyList_GET_SIZE(list) : 0;
  if (len > INT_MAX) {
    PyErr_Format(PyExc_TypeError, "%s args parse failed", name);
    return 0;
  }
  if ((size_t)len > sizeof l->stack / sizeof l->stack[0]) {
    l->v = PyMem_Malloc((size_t)len * sizeof *l->v);
    if (!l->v) {
      l->v = l->stack;
      PyErr_NoMemory();
      return 0;
    }
  }
  if (!pyacl_list_to_i64(name, list, l->v, (size_t)(len > 0 ? len : 0), &l->n)) {
    i64_list_free(l);
    return 0;
  }
  return 1;
}

/*
 * A list of [min, max] lists (set_tensor_shape_range / value_range) as C's
 * int64_t[n][2]: each item must be a list of exactly two ints.  Stored
 * flat in l (2n values).
 */
static int ranges_from(const char *name, PyObject *list, i64_list *l) {
  l->v = l->stack;
  l->n = 0;
  Py_ssize_t len = PyList_GET_SIZE(list);
  if ((size_t)len * 2 > sizeof l->stack / sizeof l->stack[0]) {
    l->v = PyMem_Malloc((size_t)len * 2 * sizeof *l->v);
    if (!l->v) {
      l->v = l->stack;
      PyErr_NoMemory();
      return 0;
    }
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    PyObject *pair = PyList_GET_ITEM(list, i);
    size_t got = 0;
    if (!PyList_Check(pair) || PyList_GET_SIZE(pair) != 2 ||
        !pyacl_list_to_i64(name, pair, l->v + 2 * i, 2, &got)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s args parse failed", name);
      i64_list_free(l);
      return 0;
    }
  }
  l->n = (size_t)len;
  return 1;
}

/* A new reference to None (Py_NewRef needs Python 3.10). */
static PyObject *none_ref(void) {
  Py_INCREF(Py_None);
  return Py_None;
}

/* ---- create, destroy ---------------------------------------------------- */

static PYACL_FASTCALL(py_create_tensor_desc) {
  (void)self;
  int32_t dtype, format;
  PyObject *dims_obj;
  if (!pyacl_parse("acl.create_tensor_desc", args, nargs, "ili", &dtype, &dims_obj, &format))
    return NULL;
  i64_list dims;
  if (!i64_list_from("acl.create_tensor_desc", dims_obj, &dims))
    return NULL;
  /* [] is a scalar: C takes NULL dims with 0 of them. */
  aclTensorDesc *d =
      aclCreateTensorDesc((aclDataType)dtype, (int)dims.n, dims.n ? dims.v : NULL, (aclFormat)format);
  i64_list_free(&dims);
  return pyacl_ptr(d);
}

static PYACL_FASTCALL(py_destroy_tensor_desc) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.destroy_tensor_desc", args, nargs, "p", &desc))
    return NULL;
  aclDestroyTensorDesc((const aclTensorDesc *)desc);
  Py_RETURN_NONE;
}

/* ---- queries ------------------------------------------------------------ */

static PYACL_FASTCALL(py_get_tensor_desc_type) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_type", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromLong((long)aclGetTensorDescType((const aclTensorDesc *)desc));
}

static PYACL_FASTCALL(py_get_tensor_desc_format) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_format", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromLong((long)aclGetTensorDescFormat((const aclTensorDesc *)desc));
}

static PYACL_FASTCALL(py_get_tensor_desc_size) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_size", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromSize_t(aclGetTensorDescSize((const aclTensorDesc *)desc));
}

static PYACL_FASTCALL(py_get_tensor_desc_element_count) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_element_count", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromSize_t(aclGetTensorDescElementCount((const aclTensorDesc *)desc));
}

static PYACL_FASTCALL(py_get_tensor_desc_num_dims) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_num_dims", args, nargs, "p", &desc))
    return NULL;
  /* size_t as C returns it: ACL_UNKNOWN_RANK (0xFFFFFFFFFFFFFFFE) stays that number. */
  return PyLong_FromSize_t(aclGetTensorDescNumDims((const aclTensorDesc *)desc));
}

static PYACL_FASTCALL(py_get_tensor_desc_dim) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.get_tensor_desc_dim", args, nargs, "pz", &desc, &index))
    return NULL;
  /* Deprecated in C, still part of pyACL: scripts call it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  int64_t dim = aclGetTensorDescDim((const aclTensorDesc *)desc, index);
#pragma GCC diagnostic pop
  return PyLong_FromLongLong((long long)dim);
}

static PYACL_FASTCALL(py_get_tensor_desc_dim_v2) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.get_tensor_desc_dim_v2", args, nargs, "pz", &desc, &index))
    return NULL;
  int64_t dim = 0;
  aclError ret = aclGetTensorDescDimV2((const aclTensorDesc *)desc, index, &dim);
  return pyacl_tuple_ret(PyLong_FromLongLong((long long)dim), ret);
}

static PYACL_FASTCALL(py_get_tensor_desc_dim_range) {
  (void)self;
  void *desc;
  size_t index, num;
  if (!pyacl_parse("acl.get_tensor_desc_dim_range", args, nargs, "pzz", &desc, &index, &num))
    return NULL;
  if (num > PYACL_MAX_RANGE_NUM) {
    /* pyACL's own bound: refused before C, which would get a buffer this big. */
    char detail[128];
    snprintf(detail, sizeof detail, "dim_range_num is %zu; at most %d", num, PYACL_MAX_RANGE_NUM);
    aclError ret = openaclRecordError("aclGetTensorDescDimRange", ACL_ERROR_INVALID_PARAM, detail);
    return pyacl_tuple_ret(none_ref(), ret);
  }
  int64_t range[PYACL_MAX_RANGE_NUM];
  memset(range, 0, num * sizeof range[0]);
  aclError ret = aclGetTensorDescDimRange((const aclTensorDesc *)desc, index, num, range);
  if (ret != ACL_SUCCESS)
    return pyacl_tuple_ret(none_ref(), ret);
  return pyacl_tuple_ret(pyacl_list_i64(range, num), ret);
}

static PYACL_FASTCALL(py_get_tensor_desc_name) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.get_tensor_desc_name", args, nargs, "p", &desc))
    return NULL;
  return pyacl_str_or_none(aclGetTensorDescName((aclTensorDesc *)desc));
}

/* ---- setters ------------------------------------------------------------ */

static PYACL_FASTCALL(py_set_tensor_desc_name) {
  (void)self;
  void *desc;
  const char *name;
  if (!pyacl_parse("acl.set_tensor_desc_name", args, nargs, "ps", &desc, &name))
    return NULL;
  aclSetTensorDescName((aclTensorDesc *)desc, name);
  Py_RETURN_NONE;
}

/* The four (desc, format) setters differ only in the C function. */
typedef aclError (*format_setter)(aclTensorDesc *, aclFormat);

static PyObject *set_format(const char *name, format_setter fn, PyObject *const *args, Py_ssize_t nargs) {
  void *desc;
  int32_t format;
  if (!pyacl_parse(name, args, nargs, "pi", &desc, &format))
    return NULL;
  return pyacl_ret(fn((aclTensorDesc *)desc, (aclFormat)format));
}

/* The three (desc, dims) setters likewise. */
typedef aclError (*shape_setter)(aclTensorDesc *, int, const int64_t *);

static PyObject *set_shape(const char *name, shape_setter fn, PyObject *const *args, Py_ssize_t nargs) {
  void *desc;
  PyObject *dims_obj;
  if (!pyacl_parse(name, args, nargs, "pl", &desc, &dims_obj))
    return NULL;
  i64_list dims;
  if (!i64_list_from(name, dims_obj, &dims))
    return NULL;
  aclError ret = fn((aclTensorDesc *)desc, (int)dims.n, dims.n ? dims.v : NULL);
  i64_list_free(&dims);
  return pyacl_ret(ret);
}

/* The storage setters are deprecated in C (aclSetTensorFormat / Shape are
 * the same thing) but are pyACL names of their own. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static PYACL_FASTCALL(py_set_tensor_storage_format) {
  (void)self;
  return set_format("acl.set_tensor_storage_format", aclSetTensorStorageFormat, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_storage_shape) {
  (void)self;
  return set_shape("acl.set_tensor_storage_shape", aclSetTensorStorageShape, args, nargs);
}
#pragma GCC diagnostic pop

static PYACL_FASTCALL(py_set_tensor_format) {
  (void)self;
  return set_format("acl.set_tensor_format", aclSetTensorFormat, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_shape) {
  (void)self;
  return set_shape("acl.set_tensor_shape", aclSetTensorShape, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_origin_format) {
  (void)self;
  return set_format("acl.set_tensor_origin_format", aclSetTensorOriginFormat, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_origin_shape) {
  (void)self;
  return set_shape("acl.set_tensor_origin_shape", aclSetTensorOriginShape, args, nargs);
}

typedef aclError (*range_setter)(aclTensorDesc *, size_t, int64_t (*)[2]);

static PyObject *set_range(const char *name, range_setter fn, PyObject *const *args, Py_ssize_t nargs) {
  void *desc;
  PyObject *list;
  if (!pyacl_parse(name, args, nargs, "pl", &desc, &list))
    return NULL;
  i64_list r;
  if (!ranges_from(name, list, &r))
    return NULL;
  /* Never NULL, even for []: C clears the ranges on a count of 0. */
  aclError ret = fn((aclTensorDesc *)desc, r.n, (int64_t(*)[2])r.v);
  i64_list_free(&r);
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_set_tensor_shape_range) {
  (void)self;
  return set_range("acl.set_tensor_shape_range", aclSetTensorShapeRange, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_value_range) {
  (void)self;
  return set_range("acl.set_tensor_value_range", aclSetTensorValueRange, args, nargs);
}

static PYACL_FASTCALL(py_set_tensor_dynamic_input) {
  (void)self;
  void *desc;
  const char *name;
  if (!pyacl_parse("acl.set_tensor_dynamic_input", args, nargs, "ps", &desc, &name))
    return NULL;
  return pyacl_ret(aclSetTensorDynamicInput((aclTensorDesc *)desc, name));
}

static PYACL_FASTCALL(py_set_tensor_const) {
  (void)self;
  void *desc, *data;
  size_t size;
  if (!pyacl_parse("acl.set_tensor_const", args, nargs, "ppz", &desc, &data, &size))
    return NULL;
  /* C copies `size` bytes of host memory from data: a bogus int must not
   * crash the interpreter.  NULL is left to C, which names it. */
  if (data && !pyacl_host_range_ok(data, size)) {
    char detail[160];
    snprintf(detail, sizeof detail, "data %p with size %zu is not readable host memory", data, size);
    return pyacl_ret(openaclRecordError("aclSetTensorConst", ACL_ERROR_INVALID_PARAM, detail));
  }
  return pyacl_ret(aclSetTensorConst((aclTensorDesc *)desc, data, size));
}

static PYACL_FASTCALL(py_set_tensor_place_ment) {
  (void)self;
  void *desc;
  int32_t mem_type;
  if (!pyacl_parse("acl.set_tensor_place_ment", args, nargs, "pi", &desc, &mem_type))
    return NULL;
  return pyacl_ret(aclSetTensorPlaceMent((aclTensorDesc *)desc, (aclMemType)mem_type));
}

PyMethodDef pyacl_acl_tensor_methods[] = {
    PYACL_FN("create_tensor_desc", py_create_tensor_desc),
    PYACL_FN("destroy_tensor_desc", py_destroy_tensor_desc),
    PYACL_FN("get_tensor_desc_type", py_get_tensor_desc_type),
    PYACL_FN("get_tensor_desc_format", py_get_tensor_desc_format),
    PYACL_FN("get_tensor_desc_size", py_get_tensor_desc_size),
    PYACL_FN("get_tensor_desc_element_count", py_get_tensor_desc_element_count),
    PYACL_FN("get_tensor_desc_num_dims", py_get_tensor_desc_num_dims),
    PYACL_FN("get_tensor_desc_dim", py_get_tensor_desc_dim),
    PYACL_FN("get_tensor_desc_dim_v2", py_get_tensor_desc_dim_v2),
    PYACL_FN("get_tensor_desc_dim_range", py_get_tensor_desc_dim_range),
    PYACL_FN("get_tensor_desc_name", py_get_tensor_desc_name),
    PYACL_FN("set_tensor_desc_name", py_set_tensor_desc_name),
    PYACL_FN("set_tensor_storage_format", py_set_tensor_storage_format),
    PYACL_FN("set_tensor_storage_shape", py_set_tensor_storage_shape),
    PYACL_FN("set_tensor_format", py_set_tensor_format),
    PYACL_FN("set_tensor_shape", py_set_tensor_shape),
    PYACL_FN("set_tensor_origin_format", py_set_tensor_origin_format),
    PYACL_FN("set_tensor_origin_shape", py_set_tensor_origin_shape),
    PYACL_FN("set_tensor_shape_range", py_set_tensor_shape_range),
    PYACL_FN("set_tensor_value_range", py_set_tensor_value_range),
    PYACL_FN("set_tensor_dynamic_input", py_set_tensor_dynamic_input),
    PYACL_FN("set_tensor_const", py_set_tensor_const),
    PYACL_FN("set_tensor_place_ment", py_set_tensor_place_ment),
    {NULL, NULL, 0, NULL},
};

/* §2.1 names whose C function openacl does not export (docs/model-data.md:
 * format conversion and descriptor arrays belong to the operator layer). */
const pyacl_stub pyacl_acl_stubs[] = {
    {"trans_tensor_desc_format", "aclTransTensorDescFormat", "pi", PYACL_VAL_RET},
    {"get_tensor_desc_address", "aclGetTensorDescAddress", "p", PYACL_HANDLE},
    {"get_tensor_desc_by_index", "aclGetTensorDescByIndex", "pz", PYACL_HANDLE},
    {NULL, NULL, NULL, PYACL_RET},
};
