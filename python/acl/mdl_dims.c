/*
 * mdl_dims.c - acl.mdl's shapes: the dims dicts (get_input_dims,
 * get_output_dims, get_cur_output_dims, get_input_dynamic_dims), dims ranges,
 * the dynamic batch / HW / dims gears and their setters; and the stubs of
 * every acl.mdl name whose C function openacl does not export (config
 * handles, bundles, queues, exec configs, AIPP, ...; dump is in mdl_dump.c).
 *
 * Dict formats are pyACL's (docs: pyacl.md §3.4), keys in insertion order:
 *   dims   {'name': str, 'dimCount': int, 'dims': [int]}   signed: -1 is dynamic
 *   range  {'rangeCount': int, 'range': [[min, max], ...]}
 *   batch  {'batchCount': int, 'batch': [int]}
 *   hw     {'hwCount': int, 'hw': [[h, w], ...]}           inner lists: scripts test `[h, w] in`
 * A C failure gives {} for dims, batch and hw (pyACL's), a zeroed range dict
 * for the range, [] for get_input_dynamic_dims (pyACL returns a list of
 * unfilled slots there, which crashes when read).
 */
#include "pyacl.h"

#include <string.h>

#include "openacl/openacl.h"

/* pyACL refuses a gear count above this before calling C. */
#define PYACL_MAX_GEAR_COUNT 4096

/* Sets d[key] = value, stealing value; 0 on failure. */
static int put(PyObject *d, const char *key, PyObject *value) {
  if (!value)
    return 0;
  int rc = PyDict_SetItemString(d, key, value);
  Py_DECREF(value);
  return rc == 0;
}

/* A dims dict from a C struct.  dimCount is bounded by the array so a
 * corrupt count cannot read past it. */
static PyObject *dims_dict(const aclmdlIODims *dims) {
  size_t n = dims->dimCount < ACL_MAX_DIM_CNT ? dims->dimCount : ACL_MAX_DIM_CNT;
  /* The name is cut at 127 bytes by C, maybe inside a UTF-8 sequence. */
  size_t len = strnlen(dims->name, sizeof dims->name);
  PyObject *d = PyDict_New();
  if (!d || !put(d, "name", PyUnicode_DecodeUTF8(dims->name, (Py_ssize_t)len, "replace")) ||
      !put(d, "dimCount", PyLong_FromSize_t(n)) || !put(d, "dims", pyacl_list_i64(dims->dims, n))) {
    Py_XDECREF(d);
    return NULL;
  }
  return d;
}

/* A list of [a, b] lists from n pairs of int64 (ranges) or uint64 (hw).  Not
 * const: C11 cannot pass T (*)[2] as const T (*)[2] without a cast. */
static PyObject *pairs_i64(int64_t (*v)[2], size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *pair = pyacl_list_i64(v[i], 2);
    if (!pair)
      Py_CLEAR(l);
    else
      PyList_SET_ITEM(l, (Py_ssize_t)i, pair);
  }
  return l;
}

static PyObject *pairs_u64(uint64_t (*v)[2], size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *pair = Py_BuildValue("[KK]", (unsigned long long)v[i][0], (unsigned long long)v[i][1]);
    if (!pair)
      Py_CLEAR(l);
    else
      PyList_SET_ITEM(l, (Py_ssize_t)i, pair);
  }
  return l;
}

/* ---- dims --------------------------------------------------------------- */

typedef aclError (*dims_getter)(const aclmdlDesc *, size_t, aclmdlIODims *);

static PyObject *get_dims(const char *name, dims_getter fn, PyObject *const *args, Py_ssize_t nargs) {
  void *desc;
  size_t index;
  if (!pyacl_parse(name, args, nargs, "pz", &desc, &index))
    return NULL;
  aclmdlIODims dims;
  memset(&dims, 0, sizeof dims);
  aclError ret = fn((const aclmdlDesc *)desc, index, &dims);
  return pyacl_tuple_ret(ret == ACL_SUCCESS ? dims_dict(&dims) : PyDict_New(), ret);
}

static PYACL_FASTCALL(py_get_input_dims) {
  (void)self;
  return get_dims("acl.mdl.get_input_dims", aclmdlGetInputDims, args, nargs);
}

static PYACL_FASTCALL(py_get_output_dims) {
  (void)self;
  return get_dims("acl.mdl.get_output_dims", aclmdlGetOutputDims, args, nargs);
}

static PYACL_FASTCALL(py_get_cur_output_dims) {
  (void)self;
  return get_dims("acl.mdl.get_cur_output_dims", aclmdlGetCurOutputDims, args, nargs);
}

static PYACL_FASTCALL(py_get_input_dims_range) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_dims_range", args, nargs, "pz", &desc, &index))
    return NULL;
  aclmdlIODimsRange r;
  memset(&r, 0, sizeof r);
  aclError ret = aclmdlGetInputDimsRange((const aclmdlDesc *)desc, index, &r);
  /* The dict even on failure (pyACL's): from the zeroed struct. */
  size_t n = r.rangeCount < ACL_MAX_DIM_CNT ? r.rangeCount : ACL_MAX_DIM_CNT;
  PyObject *d = PyDict_New();
  if (d && (!put(d, "rangeCount", PyLong_FromSize_t(n)) || !put(d, "range", pairs_i64(r.range, n))))
    Py_CLEAR(d);
  return pyacl_tuple_ret(d, ret);
}

/* ---- gears -------------------------------------------------------------- */

static PYACL_FASTCALL(py_get_dynamic_batch) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.mdl.get_dynamic_batch", args, nargs, "p", &desc))
    return NULL;
  aclmdlBatch b;
  memset(&b, 0, sizeof b);
  aclError ret = aclmdlGetDynamicBatch((const aclmdlDesc *)desc, &b);
  PyObject *d = PyDict_New();
  if (d && ret == ACL_SUCCESS) {
    size_t n = b.batchCount < ACL_MAX_BATCH_NUM ? b.batchCount : ACL_MAX_BATCH_NUM;
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
      PyObject *x = PyLong_FromUnsignedLongLong((unsigned long long)b.batch[i]);
      if (!x)
        Py_CLEAR(l);
      else
        PyList_SET_ITEM(l, (Py_ssize_t)i, x);
    }
    if (!put(d, "batchCount", PyLong_FromSize_t(n)) || !put(d, "batch", l))
      Py_CLEAR(d);
  }
  return pyacl_tuple_ret(d, ret);
}

static PYACL_FASTCALL(py_get_dynamic_hw) {
  (void)self;
  void *desc;
  size_t index;
  /* index may be -1 (the vendor's "any"): 'z' masks it to SIZE_MAX as C's size_t would. */
  if (!pyacl_parse("acl.mdl.get_dynamic_hw", args, nargs, "pz", &desc, &index))
    return NULL;
  aclmdlHW hw;
  memset(&hw, 0, sizeof hw);
  aclError ret = aclmdlGetDynamicHW((const aclmdlDesc *)desc, index, &hw);
  PyObject *d = PyDict_New();
  if (d && ret == ACL_SUCCESS) {
    size_t n = hw.hwCount < ACL_MAX_HW_NUM ? hw.hwCount : ACL_MAX_HW_NUM;
    if (!put(d, "hwCount", PyLong_FromSize_t(n)) || !put(d, "hw", pairs_u64(hw.hw, n)))
      Py_CLEAR(d);
  }
  return pyacl_tuple_ret(d, ret);
}

/* The Set functions write the gear into the extra input's device buffer with
 * a synchronous copy: the GIL is released around them. */
static PYACL_FASTCALL(py_set_dynamic_batch_size) {
  (void)self;
  uint32_t id;
  void *ds;
  size_t index;
  uint64_t batch;
  if (!pyacl_parse("acl.mdl.set_dynamic_batch_size", args, nargs, "IpzK", &id, &ds, &index, &batch))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlSetDynamicBatchSize(id, (aclmdlDataset *)ds, index, batch);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_set_dynamic_hw_size) {
  (void)self;
  uint32_t id;
  void *ds;
  size_t index;
  uint64_t h, w;
  if (!pyacl_parse("acl.mdl.set_dynamic_hw_size", args, nargs, "IpzKK", &id, &ds, &index, &h, &w))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlSetDynamicHWSize(id, (aclmdlDataset *)ds, index, h, w);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

/*
 * A dims dict given by the caller (set_input_dynamic_dims) into the C struct.
 * 'dims' (a list of ints) is required.  'name' is optional (a str; None is
 * absent).  'dimCount' is optional and, unlike pyACL, bounded: by
 * ACL_MAX_DIM_CNT and by len(dims), so a wrong count cannot make C read past
 * what was given; negative counts wrap as C's size_t does and are bounded
 * too.  Missing 'dimCount' means len(dims).
 */
static int dims_from_dict(const char *fname, PyObject *dict, aclmdlIODims *out) {
  memset(out, 0, sizeof *out);
  PyObject *dims = PyDict_GetItemString(dict, "dims"); /* borrowed */
  PyObject *count = PyDict_GetItemString(dict, "dimCount");
  PyObject *name = PyDict_GetItemString(dict, "name");
  if (!dims || !PyList_Check(dims))
    goto fail;
  size_t n = (size_t)PyList_GET_SIZE(dims);
  if (count) {
    size_t c;
    if (!pyacl_parse(fname, &count, 1, "z", &c)) /* an int: masked like any size_t argument */
      goto fail;
    if (c < n)
      n = c;
  }
  if (n > ACL_MAX_DIM_CNT)
    n = ACL_MAX_DIM_CNT;
  /* Only the first n items are read (and must be ints). */
  PyObject *head = PyList_GetSlice(dims, 0, (Py_ssize_t)n);
  size_t got = 0;
  int ok = head && pyacl_list_to_i64(fname, head, out->dims, ACL_MAX_DIM_CNT, &got);
  Py_XDECREF(head);
  if (!ok)
    goto fail;
  out->dimCount = n;
  if (name && name != Py_None) {
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (!s)
      goto fail;
    snprintf(out->name, sizeof out->name, "%s", s);
  }
  return 1;
fail:
  if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_MemoryError))
    return 0;
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "%s args parse failed", fname);
  return 0;
}

static PYACL_FASTCALL(py_set_input_dynamic_dims) {
  (void)self;
  uint32_t id;
  void *ds;
  size_t index;
  PyObject *dict;
  if (!pyacl_parse("acl.mdl.set_input_dynamic_dims", args, nargs, "Ipzd", &id, &ds, &index, &dict))
    return NULL;
  aclmdlIODims dims;
  if (!dims_from_dict("acl.mdl.set_input_dynamic_dims", dict, &dims))
    return NULL;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlSetInputDynamicDims(id, (aclmdlDataset *)ds, index, &dims);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_get_input_dynamic_gear_count) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_dynamic_gear_count", args, nargs, "pz", &desc, &index))
    return NULL;
  size_t count = 0;
  aclError ret = aclmdlGetInputDynamicGearCount((const aclmdlDesc *)desc, index, &count);
  return pyacl_tuple_ret(PyLong_FromSize_t(count), ret);
}

static PYACL_FASTCALL(py_get_input_dynamic_dims) {
  (void)self;
  void *desc;
  size_t index, gears;
  if (!pyacl_parse("acl.mdl.get_input_dynamic_dims", args, nargs, "pzz", &desc, &index, &gears))
    return NULL;
  if (gears > PYACL_MAX_GEAR_COUNT) {
    char detail[128];
    snprintf(detail, sizeof detail, "gear_count is %zu; at most %d", gears, PYACL_MAX_GEAR_COUNT);
    aclError ret = openaclRecordError("aclmdlGetInputDynamicDims", ACL_ERROR_INVALID_PARAM, detail);
    Py_INCREF(Py_None);
    return pyacl_tuple_ret(Py_None, ret);
  }
  /* Never a NULL array, even for 0 gears: C reports the count mismatch. */
  aclmdlIODims *dims = PyMem_Calloc(gears ? gears : 1, sizeof *dims);
  if (!dims)
    return PyErr_NoMemory();
  aclError ret = aclmdlGetInputDynamicDims((const aclmdlDesc *)desc, index, dims, gears);
  PyObject *l = PyList_New(0);
  for (size_t g = 0; l && ret == ACL_SUCCESS && g < gears; g++) {
    PyObject *d = dims_dict(&dims[g]);
    if (!d || PyList_Append(l, d) < 0)
      Py_CLEAR(l);
    Py_XDECREF(d);
  }
  PyMem_Free(dims);
  return pyacl_tuple_ret(l, ret);
}

PyMethodDef pyacl_mdl_dims_methods[] = {
    PYACL_FN("get_input_dims", py_get_input_dims),
    PYACL_FN("get_output_dims", py_get_output_dims),
    PYACL_FN("get_cur_output_dims", py_get_cur_output_dims),
    PYACL_FN("get_input_dims_range", py_get_input_dims_range),
    PYACL_FN("get_dynamic_batch", py_get_dynamic_batch),
    PYACL_FN("get_dynamic_hw", py_get_dynamic_hw),
    PYACL_FN("set_dynamic_batch_size", py_set_dynamic_batch_size),
    PYACL_FN("set_dynamic_hw_size", py_set_dynamic_hw_size),
    PYACL_FN("set_input_dynamic_dims", py_set_input_dynamic_dims),
    PYACL_FN("get_input_dynamic_gear_count", py_get_input_dynamic_gear_count),
    PYACL_FN("get_input_dynamic_dims", py_get_input_dynamic_dims),
    {NULL, NULL, 0, NULL},
};

/*
 * Every §2.3 name whose C function openacl does not export: the argument
 * formats are pyACL's (so a wrong call raises the same TypeError) and the
 * shapes its returns, with zero / None / empty outputs and 200001.
 * load_from_file_with_q, load_from_mem_with_q and set_aipp_scf_params exist
 * only in vendor builds with USE_MDL; they are here so scripts written for
 * those builds load too.
 */
const pyacl_stub pyacl_mdl_stubs[] = {
    /* bundles */
    {"bundle_load_from_file", "aclmdlBundleLoadFromFile", "s", PYACL_VAL_RET},
    {"bundle_load_from_mem", "aclmdlBundleLoadFromMem", "pz", PYACL_VAL_RET},
    {"bundle_unload", "aclmdlBundleUnload", "I", PYACL_RET},
    {"bundle_get_model_num", "aclmdlBundleGetModelNum", "I", PYACL_VAL_RET},
    {"bundle_get_model_id", "aclmdlBundleGetModelId", "Iz", PYACL_VAL_RET},
    /* queues (USE_MDL) */
    {"load_from_file_with_q", "aclmdlLoadFromFileWithQ", "spzpz", PYACL_VAL_RET},
    {"load_from_mem_with_q", "aclmdlLoadFromMemWithQ", "pzpzpz", PYACL_VAL_RET},
    /* descriptions */
    {"get_input_dims_v2", "aclmdlGetInputDimsV2", "pz", PYACL_DICT_RET},
    {"get_tensor_real_name", "aclmdlGetTensorRealName", "ps", PYACL_STR_NONE},
    {"get_op_attr", "aclmdlGetOpAttr", "pss", PYACL_STR_NONE},
    /* execution with a config */
    {"execute_v2", "aclmdlExecuteV2", "Ipppp", PYACL_RET},
    {"create_exec_config_handle", "aclmdlCreateExecConfigHandle", "", PYACL_HANDLE},
    {"destroy_exec_config_handle", "aclmdlDestroyExecConfigHandle", "p", PYACL_RET},
    {"set_exec_config_opt", "aclmdlSetExecConfigOpt", "pzI", PYACL_RET},
    /* AIPP */
    {"create_aipp", "aclmdlCreateAIPP", "K", PYACL_HANDLE},
    {"destroy_aipp", "aclmdlDestroyAIPP", "p", PYACL_RET},
    {"get_aipp_data_size", "aclmdlGetAippDataSize", "K", PYACL_VAL_RET},
    {"get_aipp_type", "aclmdlGetAippType", "Iz", PYACL_VAL2_RET},
    {"get_first_aipp_info", "aclmdlGetFirstAippInfo", "Iz", PYACL_NONESTR_RET},
    {"set_aipp_input_format", "aclmdlSetAIPPInputFormat", "pI", PYACL_RET},
    {"set_aipp_csc_params", "aclmdlSetAIPPCscParams", "pBhhhhhhhhhbbbbbb", PYACL_RET},
    {"set_aipp_rbuv_swap_switch", "aclmdlSetAIPPRbuvSwapSwitch", "pB", PYACL_RET},
    {"set_aipp_ax_swap_switch", "aclmdlSetAIPPAxSwapSwitch", "pB", PYACL_RET},
    {"set_aipp_src_image_size", "aclmdlSetAIPPSrcImageSize", "pii", PYACL_RET},
    {"set_aipp_scf_params", "aclmdlSetAIPPScfParams", "pBiiiiK", PYACL_RET},
    {"set_aipp_crop_params", "aclmdlSetAIPPCropParams", "pBiiiiK", PYACL_RET},
    {"set_aipp_padding_params", "aclmdlSetAIPPPaddingParams", "pBiiiiK", PYACL_RET},
    {"set_aipp_dtc_pixel_mean", "aclmdlSetAIPPDtcPixelMean", "phhhhK", PYACL_RET},
    {"set_aipp_dtc_pixel_min", "aclmdlSetAIPPDtcPixelMin", "pffffK", PYACL_RET},
    {"set_aipp_pixel_var_reci", "aclmdlSetAIPPPixelVarReci", "pffffK", PYACL_RET},
    {"set_input_aipp", "aclmdlSetInputAIPP", "Ipzp", PYACL_RET},
    {"set_aipp_by_input_index", "aclmdlSetAIPPByInputIndex", "Ipzp", PYACL_RET},
    /* exception info */
    {"create_and_get_op_desc", "aclmdlCreateAndGetOpDesc", "IIIz", PYACL_OPDESC},
    {NULL, NULL, NULL, PYACL_RET},
};
