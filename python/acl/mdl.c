/*
 * mdl.c - acl.mdl: loading and unloading models, model descriptions (counts,
 * sizes, names, formats, data types), datasets and execution.  The dims and
 * dynamic-shape functions are in mdl_dims.c, with the mdl stubs.
 *
 * Descriptions and datasets are registered handles in openacl's C layer, so
 * a stale or garbage int is refused there with a message.  Host memory given
 * as an int (a model in memory, an aclDataBuffer) is checked here before C
 * reads it.  The GIL is released around everything that reads a model or
 * runs one (loads, query_size*, get_desc_from_*, unload, execute*): they can
 * take seconds, and a callback or another thread may need the GIL meanwhile.
 * The small getters keep it.
 */
#include "pyacl.h"

#include <string.h>

#include "openacl/openacl.h"

/* Records "<api> failed: ACL_ERROR_INVALID_PARAM" for a host pointer that is
 * not mapped for `size` bytes; returns that code.  NULL is left to C, which
 * names the argument itself. */
static aclError bad_host_range(const char *api, const char *arg, const void *p, size_t size) {
  char detail[192];
  snprintf(detail, sizeof detail, "%s %p with size %zu is not readable host memory", arg, p, size);
  return openaclRecordError(api, ACL_ERROR_INVALID_PARAM, detail);
}

static int host_ok(const void *p, size_t size) { return p == NULL || pyacl_host_range_ok(p, size); }

/* ---- loading ------------------------------------------------------------ */

static PYACL_FASTCALL(py_load_from_file) {
  (void)self;
  const char *path;
  if (!pyacl_parse("acl.mdl.load_from_file", args, nargs, "s", &path))
    return NULL;
  uint32_t id = 0;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlLoadFromFile(path, &id);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_load_from_mem) {
  (void)self;
  void *model;
  size_t size;
  if (!pyacl_parse("acl.mdl.load_from_mem", args, nargs, "pz", &model, &size))
    return NULL;
  uint32_t id = 0;
  aclError ret;
  if (!host_ok(model, size))
    ret = bad_host_range("aclmdlLoadFromMem", "model", model, size);
  else {
    Py_BEGIN_ALLOW_THREADS
    ret = aclmdlLoadFromMem(model, size, &id);
    Py_END_ALLOW_THREADS
  }
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_load_from_file_with_mem) {
  (void)self;
  const char *path;
  void *work, *weight;
  size_t work_size, weight_size;
  if (!pyacl_parse("acl.mdl.load_from_file_with_mem", args, nargs, "spzpz", &path, &work, &work_size, &weight, &weight_size))
    return NULL;
  uint32_t id = 0;
  aclError ret;
  /* work and weight are device memory: the runtime checks them. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlLoadFromFileWithMem(path, &id, work, work_size, weight, weight_size);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_load_from_mem_with_mem) {
  (void)self;
  void *model, *work, *weight;
  size_t size, work_size, weight_size;
  if (!pyacl_parse("acl.mdl.load_from_mem_with_mem", args, nargs, "pzpzpz", &model, &size, &work, &work_size, &weight,
                   &weight_size))
    return NULL;
  uint32_t id = 0;
  aclError ret;
  if (!host_ok(model, size))
    ret = bad_host_range("aclmdlLoadFromMemWithMem", "model", model, size);
  else {
    Py_BEGIN_ALLOW_THREADS
    ret = aclmdlLoadFromMemWithMem(model, size, &id, work, work_size, weight, weight_size);
    Py_END_ALLOW_THREADS
  }
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

static PYACL_FASTCALL(py_unload) {
  (void)self;
  uint32_t id;
  if (!pyacl_parse("acl.mdl.unload", args, nargs, "I", &id))
    return NULL;
  aclError ret;
  /* Waits for the model's queued executions. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlUnload(id);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_query_size) {
  (void)self;
  const char *path;
  if (!pyacl_parse("acl.mdl.query_size", args, nargs, "s", &path))
    return NULL;
  size_t work = 0, weight = 0;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlQuerySize(path, &work, &weight);
  Py_END_ALLOW_THREADS
  return pyacl_tuple2_ret(PyLong_FromSize_t(work), PyLong_FromSize_t(weight), ret);
}

static PYACL_FASTCALL(py_query_size_from_mem) {
  (void)self;
  void *model;
  size_t size;
  if (!pyacl_parse("acl.mdl.query_size_from_mem", args, nargs, "pz", &model, &size))
    return NULL;
  size_t work = 0, weight = 0;
  aclError ret;
  if (!host_ok(model, size))
    ret = bad_host_range("aclmdlQuerySizeFromMem", "model", model, size);
  else {
    Py_BEGIN_ALLOW_THREADS
    ret = aclmdlQuerySizeFromMem(model, size, &work, &weight);
    Py_END_ALLOW_THREADS
  }
  return pyacl_tuple2_ret(PyLong_FromSize_t(work), PyLong_FromSize_t(weight), ret);
}

/* ---- loading with a configuration handle --------------------------------- */

static PYACL_FASTCALL(py_create_config_handle) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclmdlCreateConfigHandle());
}

static PYACL_FASTCALL(py_destroy_config_handle) {
  (void)self;
  void *h;
  if (!pyacl_parse("acl.mdl.destroy_config_handle", args, nargs, "p", &h))
    return NULL;
  return pyacl_ret(aclmdlDestroyConfigHandle((aclmdlConfigHandle *)h));
}

/* value by attribute, as pyACL takes it: a str for the string attributes
 * (C copies it), an int of 4 bytes for the ..._INT32 ones, an address for
 * the ..._PTR ones, an int of 8 bytes for the rest. */
static PYACL_FASTCALL(py_set_config_opt) {
  (void)self;
  void *h;
  int attr;
  PyObject *value;
  if (!pyacl_parse("acl.mdl.set_config_opt", args, nargs, "piO", &h, &attr, &value))
    return NULL;
  aclmdlConfigHandle *ch = (aclmdlConfigHandle *)h;
  aclmdlConfigAttr a = (aclmdlConfigAttr)attr;
  if (PyUnicode_Check(value)) {
    const char *s = PyUnicode_AsUTF8(value);
    if (s == NULL)
      return NULL;
    return pyacl_ret(aclmdlSetConfigOpt(ch, a, &s, sizeof(s)));
  }
  if (!PyLong_Check(value) || PyBool_Check(value)) {
    PyErr_Format(PyExc_TypeError, "acl.mdl.set_config_opt: value must be an int or a str, not %.80s",
                 Py_TYPE(value)->tp_name);
    return NULL;
  }
  if (attr == ACL_MDL_PRIORITY_INT32 || attr == ACL_MDL_WITHOUT_GRAPH_INT32) {
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred())
      return NULL;
    if (v < INT32_MIN || v > INT32_MAX) {
      PyErr_Format(PyExc_OverflowError, "acl.mdl.set_config_opt: %ld does not fit an int32", v);
      return NULL;
    }
    int32_t x = (int32_t)v;
    return pyacl_ret(aclmdlSetConfigOpt(ch, a, &x, sizeof(x)));
  }
  int is_ptr = attr == ACL_MDL_MEM_ADDR_PTR || attr == ACL_MDL_WEIGHT_ADDR_PTR || attr == ACL_MDL_WORKSPACE_ADDR_PTR ||
               attr == ACL_MDL_INPUTQ_ADDR_PTR || attr == ACL_MDL_OUTPUTQ_ADDR_PTR || attr == ACL_MDL_MODEL_DESC_PTR ||
               attr == ACL_MDL_KERNEL_PTR || attr == ACL_MDL_KERNEL_ARGS_PTR || attr == ACL_MDL_STATIC_TASK_PTR ||
               attr == ACL_MDL_DYNAMIC_TASK_PTR || attr == ACL_MDL_FIFO_PTR || attr == ACL_MDL_PATH_PTR ||
               attr == ACL_MDL_WEIGHT_PATH_PTR || attr == OPENACL_MDL_PRECISION_MODE_PTR;
  if (is_ptr) {
    void *p = PyLong_AsVoidPtr(value);
    if (p == NULL && PyErr_Occurred())
      return NULL;
    return pyacl_ret(aclmdlSetConfigOpt(ch, a, &p, sizeof(p)));
  }
  size_t v = PyLong_AsSize_t(value);
  if (v == (size_t)-1 && PyErr_Occurred())
    return NULL;
  return pyacl_ret(aclmdlSetConfigOpt(ch, a, &v, sizeof(v)));
}

static PYACL_FASTCALL(py_load_with_config) {
  (void)self;
  void *h;
  if (!pyacl_parse("acl.mdl.load_with_config", args, nargs, "p", &h))
    return NULL;
  uint32_t id = 0;
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlLoadWithConfig((const aclmdlConfigHandle *)h, &id);
  Py_END_ALLOW_THREADS
  return pyacl_tuple_ret(PyLong_FromUnsignedLong(id), ret);
}

/* ---- descriptions ------------------------------------------------------- */

static PYACL_FASTCALL(py_create_desc) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclmdlCreateDesc());
}

static PYACL_FASTCALL(py_destroy_desc) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.mdl.destroy_desc", args, nargs, "p", &desc))
    return NULL;
  return pyacl_ret(aclmdlDestroyDesc((aclmdlDesc *)desc));
}

static PYACL_FASTCALL(py_get_desc) {
  (void)self;
  void *desc;
  uint32_t id;
  /* desc first, as pyACL (and C). */
  if (!pyacl_parse("acl.mdl.get_desc", args, nargs, "pI", &desc, &id))
    return NULL;
  return pyacl_ret(aclmdlGetDesc((aclmdlDesc *)desc, id));
}

static PYACL_FASTCALL(py_get_desc_from_file) {
  (void)self;
  void *desc;
  const char *path;
  if (!pyacl_parse("acl.mdl.get_desc_from_file", args, nargs, "ps", &desc, &path))
    return NULL;
  aclError ret;
  /* Reads and parses the whole file. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlGetDescFromFile((aclmdlDesc *)desc, path);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_get_desc_from_mem) {
  (void)self;
  void *desc, *model;
  size_t size;
  if (!pyacl_parse("acl.mdl.get_desc_from_mem", args, nargs, "ppz", &desc, &model, &size))
    return NULL;
  if (!host_ok(model, size))
    return pyacl_ret(bad_host_range("aclmdlGetDescFromMem", "model", model, size));
  aclError ret;
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlGetDescFromMem((aclmdlDesc *)desc, model, size);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_get_num_inputs) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.mdl.get_num_inputs", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromSize_t(aclmdlGetNumInputs((aclmdlDesc *)desc));
}

static PYACL_FASTCALL(py_get_num_outputs) {
  (void)self;
  void *desc;
  if (!pyacl_parse("acl.mdl.get_num_outputs", args, nargs, "p", &desc))
    return NULL;
  return PyLong_FromSize_t(aclmdlGetNumOutputs((aclmdlDesc *)desc));
}

static PYACL_FASTCALL(py_get_input_size_by_index) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_size_by_index", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromSize_t(aclmdlGetInputSizeByIndex((aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_output_size_by_index) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_output_size_by_index", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromSize_t(aclmdlGetOutputSizeByIndex((aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_input_name_by_index) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_name_by_index", args, nargs, "pz", &desc, &index))
    return NULL;
  return pyacl_str_or_none(aclmdlGetInputNameByIndex((const aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_output_name_by_index) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_output_name_by_index", args, nargs, "pz", &desc, &index))
    return NULL;
  return pyacl_str_or_none(aclmdlGetOutputNameByIndex((const aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_input_index_by_name) {
  (void)self;
  void *desc;
  const char *name;
  if (!pyacl_parse("acl.mdl.get_input_index_by_name", args, nargs, "ps", &desc, &name))
    return NULL;
  size_t index = 0;
  aclError ret = aclmdlGetInputIndexByName((const aclmdlDesc *)desc, name, &index);
  return pyacl_tuple_ret(PyLong_FromSize_t(index), ret);
}

static PYACL_FASTCALL(py_get_output_index_by_name) {
  (void)self;
  void *desc;
  const char *name;
  if (!pyacl_parse("acl.mdl.get_output_index_by_name", args, nargs, "ps", &desc, &name))
    return NULL;
  size_t index = 0;
  aclError ret = aclmdlGetOutputIndexByName((const aclmdlDesc *)desc, name, &index);
  return pyacl_tuple_ret(PyLong_FromSize_t(index), ret);
}

static PYACL_FASTCALL(py_get_input_format) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_format", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromLong((long)aclmdlGetInputFormat((const aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_output_format) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_output_format", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromLong((long)aclmdlGetOutputFormat((const aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_input_data_type) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_input_data_type", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromLong((long)aclmdlGetInputDataType((const aclmdlDesc *)desc, index));
}

static PYACL_FASTCALL(py_get_output_data_type) {
  (void)self;
  void *desc;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_output_data_type", args, nargs, "pz", &desc, &index))
    return NULL;
  return PyLong_FromLong((long)aclmdlGetOutputDataType((const aclmdlDesc *)desc, index));
}

/* ---- datasets ----------------------------------------------------------- */

static PYACL_FASTCALL(py_create_dataset) {
  (void)self;
  (void)args;
  (void)nargs;
  return pyacl_ptr(aclmdlCreateDataset());
}

static PYACL_FASTCALL(py_destroy_dataset) {
  (void)self;
  void *ds;
  if (!pyacl_parse("acl.mdl.destroy_dataset", args, nargs, "p", &ds))
    return NULL;
  return pyacl_ret(aclmdlDestroyDataset((const aclmdlDataset *)ds));
}

static PYACL_FASTCALL(py_add_dataset_buffer) {
  (void)self;
  void *ds, *buf;
  if (!pyacl_parse("acl.mdl.add_dataset_buffer", args, nargs, "pp", &ds, &buf))
    return NULL;
  /* The runtime validates both handles (data buffers are registered). */
  aclError ret = aclmdlAddDatasetBuffer((aclmdlDataset *)ds, (aclDataBuffer *)buf);
  /* pyACL returns the dataset handle it was given: (dataset, ret). */
  return pyacl_tuple_ret(pyacl_ptr(ds), ret);
}

static PYACL_FASTCALL(py_get_dataset_num_buffers) {
  (void)self;
  void *ds;
  if (!pyacl_parse("acl.mdl.get_dataset_num_buffers", args, nargs, "p", &ds))
    return NULL;
  return PyLong_FromSize_t(aclmdlGetDatasetNumBuffers((const aclmdlDataset *)ds));
}

static PYACL_FASTCALL(py_get_dataset_buffer) {
  (void)self;
  void *ds;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_dataset_buffer", args, nargs, "pz", &ds, &index))
    return NULL;
  /* NULL (0) past the end: teardown loops test `if buf:`. */
  return pyacl_ptr(aclmdlGetDatasetBuffer((const aclmdlDataset *)ds, index));
}

static PYACL_FASTCALL(py_set_dataset_tensor_desc) {
  (void)self;
  void *ds, *desc;
  size_t index;
  /* desc before index, as pyACL (and C). */
  if (!pyacl_parse("acl.mdl.set_dataset_tensor_desc", args, nargs, "ppz", &ds, &desc, &index))
    return NULL;
  aclError ret = aclmdlSetDatasetTensorDesc((aclmdlDataset *)ds, (aclTensorDesc *)desc, index);
  return pyacl_tuple_ret(pyacl_ptr(ds), ret);
}

static PYACL_FASTCALL(py_get_dataset_tensor_desc) {
  (void)self;
  void *ds;
  size_t index;
  if (!pyacl_parse("acl.mdl.get_dataset_tensor_desc", args, nargs, "pz", &ds, &index))
    return NULL;
  return pyacl_ptr(aclmdlGetDatasetTensorDesc((const aclmdlDataset *)ds, index));
}

/* ---- execution ---------------------------------------------------------- */

static PYACL_FASTCALL(py_execute) {
  (void)self;
  uint32_t id;
  void *in, *out;
  if (!pyacl_parse("acl.mdl.execute", args, nargs, "Ipp", &id, &in, &out))
    return NULL;
  aclError ret;
  /* The vendor keeps the GIL here; releasing it lets other Python threads
   * (and callbacks that need the GIL) run during inference (§3.6). */
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlExecute(id, (const aclmdlDataset *)in, (aclmdlDataset *)out);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

static PYACL_FASTCALL(py_execute_async) {
  (void)self;
  uint32_t id;
  void *in, *out, *stream;
  if (!pyacl_parse("acl.mdl.execute_async", args, nargs, "Ippp", &id, &in, &out, &stream))
    return NULL;
  aclError ret;
  /* Only queues the work, but may wait for room on the stream. */
  Py_BEGIN_ALLOW_THREADS
  ret = aclmdlExecuteAsync(id, (const aclmdlDataset *)in, (aclmdlDataset *)out, (aclrtStream)stream);
  Py_END_ALLOW_THREADS
  return pyacl_ret(ret);
}

PyMethodDef pyacl_mdl_methods[] = {
    PYACL_FN("load_from_file", py_load_from_file),
    PYACL_FN("load_from_mem", py_load_from_mem),
    PYACL_FN("load_from_file_with_mem", py_load_from_file_with_mem),
    PYACL_FN("load_from_mem_with_mem", py_load_from_mem_with_mem),
    PYACL_FN("load_with_config", py_load_with_config),
    PYACL_FN("create_config_handle", py_create_config_handle),
    PYACL_FN("destroy_config_handle", py_destroy_config_handle),
    PYACL_FN("set_config_opt", py_set_config_opt),
    PYACL_FN("unload", py_unload),
    PYACL_FN("query_size", py_query_size),
    PYACL_FN("query_size_from_mem", py_query_size_from_mem),
    PYACL_FN("create_desc", py_create_desc),
    PYACL_FN("destroy_desc", py_destroy_desc),
    PYACL_FN("get_desc", py_get_desc),
    PYACL_FN("get_desc_from_file", py_get_desc_from_file),
    PYACL_FN("get_desc_from_mem", py_get_desc_from_mem),
    PYACL_FN("get_num_inputs", py_get_num_inputs),
    PYACL_FN("get_num_outputs", py_get_num_outputs),
    PYACL_FN("get_input_size_by_index", py_get_input_size_by_index),
    PYACL_FN("get_output_size_by_index", py_get_output_size_by_index),
    PYACL_FN("get_input_name_by_index", py_get_input_name_by_index),
    PYACL_FN("get_output_name_by_index", py_get_output_name_by_index),
    PYACL_FN("get_input_index_by_name", py_get_input_index_by_name),
    PYACL_FN("get_output_index_by_name", py_get_output_index_by_name),
    PYACL_FN("get_input_format", py_get_input_format),
    PYACL_FN("get_output_format", py_get_output_format),
    PYACL_FN("get_input_data_type", py_get_input_data_type),
    PYACL_FN("get_output_data_type", py_get_output_data_type),
    PYACL_FN("create_dataset", py_create_dataset),
    PYACL_FN("destroy_dataset", py_destroy_dataset),
    PYACL_FN("add_dataset_buffer", py_add_dataset_buffer),
    PYACL_FN("get_dataset_num_buffers", py_get_dataset_num_buffers),
    PYACL_FN("get_dataset_buffer", py_get_dataset_buffer),
    PYACL_FN("set_dataset_tensor_desc", py_set_dataset_tensor_desc),
    PYACL_FN("get_dataset_tensor_desc", py_get_dataset_tensor_desc),
    PYACL_FN("execute", py_execute),
    PYACL_FN("execute_async", py_execute_async),
    {NULL, NULL, 0, NULL},
};
