/*
 * model_api.c - the public model functions: loading ONNX models
 * (aclmdlLoadFromFile / FromMem, aclmdlUnload) and model descriptions
 * (aclmdlDesc and its queries).  Argument checks and error recording here;
 * the loader is src/model/onnx_loader.c, the registry src/model/model.c.
 *
 * An aclmdlDesc holds its own copy of a model's input/output description,
 * so it stays valid after the model is unloaded (and after aclFinalize); it
 * is plain host data: creating, querying and destroying one needs no
 * aclInit.  Filling one (aclmdlGetDesc*) does.  Descriptions are registered
 * in the handle table, so a destroyed or garbage pointer is rejected with a
 * message.  A description is not locked: do not fill it on one thread while
 * another reads it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/model_load.h"
#include "acl/process.h"
#include "common/diag.h"
#include "common/errmsg.h"
#include "dump/dump.h"
#include "prof/prof.h"
#include "model/exec.h"
#include "model/gears.h"
#include "model/model.h"
#include "model/onnx_loader.h"
#include "model/run.h"
#include "rt/callback.h"
#include "rt/graph.h"
#include "rt/memory.h"
#include "rt/rt.h"

struct aclmdlDesc {
  acl__model_iodesc io;
  acl__gears *gears;  /* the model's gears (copy), NULL without */
  uint32_t model_id;  /* aclmdlGetDesc's model (for aclmdlGetCurOutputDims); 0 for ...FromFile/FromMem */
  int filled;   /* an aclmdlGetDesc* call succeeded on it */
};

/* ---- loading ----------------------------------------------------------------- */

/* Reads a model from a file (path != NULL) or memory into *g, recording the
 * loader's first problem as a failure of api. */
static int load_graph(const char *api, const char *path, const void *data, size_t size, acl__graph **g) {
  acl__diags diags = {0};
  int rc = path != NULL ? acl__onnx_load_file(path, NULL, g, &diags)
                        : acl__onnx_load_mem(data, size, NULL, NULL, g, &diags);
  if (rc != 0) {
    const acl__diag *d = acl__diags_first_error(&diags);
    const char *where = d != NULL && d->path[0] != '\0' ? d->path : "";
    const char *what = d != NULL ? d->message : "the model could not be read";
    char src[96] = "";
    if (path == NULL)
      snprintf(src, sizeof(src), "model in memory (%zu bytes at %p)", size, data);
    rc = acl__fail(api, rc, __FILE__, __LINE__, "%s%s%s: %s%s%s", path != NULL ? "model file '" : "",
                   path != NULL ? path : src, path != NULL ? "'" : "", where, where[0] ? ": " : "", what);
  }
  acl__diags_free(&diags);
  return rc;
}

/* The memory of a ...WithMem load (mem != NULL): device memory of the
 * current context's device, at least the queried sizes; NULL pointers with
 * size 0 let openacl manage that part.  Then copies the weights into it. */
static int load_with_mem(const char *api, acl__context *ctx, acl__graph *g, acl__model_mem *mem) {
  size_t need[2] = {acl__model_work_size(g), acl__model_weight_size(g)};
  void *ptr[2] = {mem->work, mem->weight};
  size_t have[2] = {mem->work_size, mem->weight_size};
  const char *pname[2] = {"workPtr", "weightPtr"}, *sname[2] = {"workSize", "weightSize"};
  for (int i = 0; i < 2; i++) {
    if (ptr[i] == NULL) {
      if (have[i] != 0)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "%s is NULL but %s is %zu: pass both (device memory from aclrtMalloc), or NULL and 0 to "
                         "let openacl manage that memory", pname[i], sname[i], have[i]);
      continue;
    }
    if (have[i] < need[i])
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s is %zu bytes, but the model needs %zu. Remedy: allocate the %s that aclmdlQuerySize "
                       "reports", sname[i], have[i], need[i], sname[i]);
    acl__ptr_info info;
    acl__mem_classify(ptr[i], &info);
    if (info.kind != ACL__PTR_DEVICE)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s %p is %s, not device memory. Remedy: aclrtMalloc %zu bytes on the current device", pname[i],
                       ptr[i], info.kind == ACL__PTR_DEVICE_UNALLOCATED ? "device memory that is not allocated (freed?)"
                               : info.kind == ACL__PTR_PINNED_HOST ? "pinned host memory (aclrtMallocHost)"
                                                                   : "host memory", have[i]);
    if (info.dev != ctx->dev)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s %p is memory of device %d, but the current context is on device %d", pname[i], ptr[i],
                       info.dev != NULL ? (int)info.dev->id : -1, (int)ctx->dev->id);
    if (info.offset > info.alloc_size || have[i] > info.alloc_size - info.offset)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s: %zu bytes at %p run past the end of its allocation (offset %zu of a %zu-byte allocation)",
                       sname[i], have[i], ptr[i], info.offset, info.alloc_size);
  }
  if (mem->weight == NULL)
    return 0;
  return acl__model_weights_move(api, g, mem->weight, mem->weight_size);
}

int acl__mdl_load(const char *api, const char *path, const void *data, size_t size, acl__model_mem *mem,
                  int precision, uint32_t *modelId) {
  int rc = 0;
  if (modelId == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "modelId is NULL; pass where to store the id");
  acl__context *ctx = acl__context_current(api, &rc);
  if (ctx == NULL)
    return rc;
  acl__graph *g = NULL;
  if ((rc = load_graph(api, path, data, size, &g)) != 0)
    return rc;
  /* every operator must run: refuse the model now rather than at its first execution */
  acl__diags diags = {0};
  rc = acl__exec_check_supported(g, &diags);
  if (rc != 0) {
    const acl__diag *d = acl__diags_first_error(&diags);
    char src[96] = "";
    if (path == NULL)
      snprintf(src, sizeof(src), "model in memory (%zu bytes at %p)", size, data);
    rc = acl__fail(api, rc, __FILE__, __LINE__, "%s%s%s: %s", path != NULL ? "model file '" : "",
                   path != NULL ? path : src, path != NULL ? "'" : "",
                   d != NULL ? d->message : "the model uses operators openacl cannot run");
    acl__diags_free(&diags);
    acl__graph_free(g);
    return rc;
  }
  acl__diags_free(&diags);
  if (mem != NULL && (rc = load_with_mem(api, ctx, g, mem)) != 0) {
    if (mem->weight != NULL)
      acl__model_weights_forget(g, mem->weight, mem->weight_size);
    acl__graph_free(g);
    return rc;
  }
  if ((rc = acl__model_add(api, g, ctx, mem, precision, modelId)) != 0) /* takes g */
    return rc;
  acl__model *m = acl__model_acquire(api, *modelId, &rc);
  if (m == NULL)
    return 0; /* unloaded by another thread already */
  /* dump: bind the model to the dump configuration in force now */
  if (acl__dump_cfg_any())
    __atomic_store_n(&m->dump, acl__dump_bind(path, m->graph, m->id, m->device_id), __ATOMIC_RELEASE);
  acl__model_prepare(m);
  acl__model_release(m);
  return 0;
}

aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (modelPath == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelPath is NULL; pass the path of an .onnx file");
  return acl__mdl_load(__func__, modelPath, NULL, 0, NULL, acl__process_precision_mode(), modelId);
}

aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (model == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "model is NULL; pass the bytes of an .onnx file");
  return acl__mdl_load(__func__, NULL, model, modelSize, NULL, acl__process_precision_mode(), modelId);
}

aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId, void *workPtr, size_t workSize,
                                   void *weightPtr, size_t weightSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (modelPath == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelPath is NULL; pass the path of an .onnx file");
  acl__model_mem mem = {workPtr, workSize, weightPtr, weightSize};
  return acl__mdl_load(__func__, modelPath, NULL, 0, &mem, acl__process_precision_mode(), modelId);
}

aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize, uint32_t *modelId, void *workPtr,
                                  size_t workSize, void *weightPtr, size_t weightSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (model == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "model is NULL; pass the bytes of an .onnx file");
  acl__model_mem mem = {workPtr, workSize, weightPtr, weightSize};
  return acl__mdl_load(__func__, NULL, model, modelSize, &mem, acl__process_precision_mode(), modelId);
}

/* aclmdlQuerySize*: the sizes a ...WithMem load needs (worksize.c). */
static int query_size(const char *api, const char *path, const void *data, size_t size, size_t *workSize,
                      size_t *weightSize) {
  if (workSize == NULL || weightSize == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL; pass where to store the size",
                     workSize == NULL ? "workSize" : "weightSize");
  acl__graph *g = NULL;
  int rc = load_graph(api, path, data, size, &g);
  if (rc != 0)
    return rc;
  *workSize = acl__model_work_size(g);
  *weightSize = acl__model_weight_size(g);
  acl__graph_free(g);
  return ACL_SUCCESS;
}

aclError aclmdlQuerySize(const char *fileName, size_t *workSize, size_t *weightSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (fileName == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "fileName is NULL; pass the path of an .onnx file");
  return query_size(__func__, fileName, NULL, 0, workSize, weightSize);
}

aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize, size_t *workSize, size_t *weightSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (model == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "model is NULL; pass the bytes of an .onnx file");
  return query_size(__func__, NULL, model, modelSize, workSize, weightSize);
}

aclError aclmdlUnload(uint32_t modelId) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  acl__context *ctx = acl__context_current(__func__, &rc);
  if (ctx == NULL)
    return rc;
  return acl__model_unload(__func__, modelId, ctx);
}

/* ---- execution ------------------------------------------------------------------ */

/* The checks both executions share, then the submit.  result as in run.h. */
static int execute_common(const char *api, uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                          aclrtStream stream, int sync, acl__stream **out_stream, acl__model_run_result *result) {
  int rc = acl__process_require_init(api);
  if (rc != 0)
    return rc;
  acl__context *ctx = acl__context_current(api, &rc);
  if (ctx == NULL)
    return rc;
  acl__model *m = acl__model_acquire(api, modelId, &rc);
  if (m == NULL)
    return rc;
  if (m->ctx != ctx) {
    rc = acl__fail(api, ACL_ERROR_RT_MODEL_CONTEXT, __FILE__, __LINE__,
                   "model %u was loaded in context %p (device %d), but the current context is %p (device %d). "
                   "Remedy: make the loading context current (aclrtSetCurrentContext) before executing",
                   modelId, (void *)m->ctx, (int)m->device_id, (void *)ctx, (int)ctx->dev->id);
    acl__model_release(m);
    return rc;
  }
  acl__stream *s = sync ? ctx->default_stream : acl__stream_resolve(api, stream, &rc);
  if (s == NULL) {
    acl__model_release(m);
    return rc != 0 ? rc : acl__fail(api, ACL_ERROR_RT_CONTEXT_NULL, __FILE__, __LINE__,
                                    "the current context has no default stream");
  }
  if (sync && (rc = acl__callback_forbid(api)) != 0) {
    acl__model_release(m);
    return rc;
  }
  rc = acl__model_run_submit(api, m, input, output, s, result);
  acl__model_release(m);
  *out_stream = s;
  return rc;
}

static aclError execute_sync(const char *api, uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output) {
  acl__stream *s = NULL;
  acl__model_run_result res;
  int rc = execute_common(api, modelId, input, output, NULL, 1, &s, &res);
  if (rc != 0)
    return rc;
  rc = acl__stream_sync_api(api, s, -1);
  if (res.ran && res.rc != 0)
    return acl__fail(api, res.rc, __FILE__, __LINE__, "%s", res.msg);
  if (rc == 0 && !res.ran)
    return acl__fail(api, ACL_ERROR_RT_STREAM_ABORT, __FILE__, __LINE__,
                     "the execution of model %u was discarded before it ran", modelId);
  return rc;
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output) {
  ACL__PROF_API_SCOPE();
  /* it waits for the execution: the capture modes govern it (graph.c) */
  aclError rc = acl__graph_check_unsafe(__func__, NULL);
  if (rc == 0)
    rc = execute_sync(__func__, modelId, input, output);
  return rc;
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__stream *s = NULL;
  aclError rc = execute_common(__func__, modelId, input, output, stream, 0, &s, NULL);
  return rc;
}

/* ---- descriptions -------------------------------------------------------------- */

static int desc_check(const char *api, const aclmdlDesc *desc) {
  if (desc == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "modelDesc is NULL; pass a description made by aclmdlCreateDesc");
  if (acl__handle_valid(desc, ACL__H_MODEL_DESC))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(desc, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "modelDesc %p is a %s handle, not an aclmdlDesc", (const void *)desc,
                       acl__handle_type_name((acl__handle_type)t));
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "modelDesc %p is not a live aclmdlDesc (it was destroyed, or never created by aclmdlCreateDesc)",
                   (const void *)desc);
}

/* The entry `index` of the inputs (output = 0) or outputs, or NULL after
 * recording why. */
static const acl__model_io *desc_io(const char *api, const aclmdlDesc *desc, int output, size_t index) {
  if (desc_check(api, desc) != 0)
    return NULL;
  size_t n = output ? desc->io.n_outputs : desc->io.n_inputs;
  const char *kind = output ? "output" : "input";
  if (index < n)
    return output ? &desc->io.outputs[index] : &desc->io.inputs[index];
  if (!desc->filled)
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
              "index is %zu but modelDesc %p is empty. Remedy: fill it with aclmdlGetDesc first", index,
              (const void *)desc);
  else if (n == 0)
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "index is %zu; the model has no %ss", index, kind);
  else
    acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
              "index is %zu; the model has %zu %ss (indexes 0 to %zu are valid)", index, n, kind, n - 1);
  return NULL;
}

aclmdlDesc *aclmdlCreateDesc(void) {
  ACL__PROF_API_SCOPE();
  aclmdlDesc *d = calloc(1, sizeof(*d));
  if (d == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte aclmdlDesc", sizeof(*d));
    return NULL;
  }
  acl__handle_register(d, ACL__H_MODEL_DESC);
  if (!acl__handle_valid(d, ACL__H_MODEL_DESC)) {
    free(d);
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory to register a model description");
    return NULL;
  }
  return d;
}

aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  ACL__PROF_API_SCOPE();
  int rc = desc_check(__func__, modelDesc);
  if (rc != 0)
    return rc;
  acl__handle_unregister(modelDesc);
  acl__model_iodesc_free(&modelDesc->io);
  acl__gears_free(modelDesc->gears);
  free(modelDesc);
  return ACL_SUCCESS;
}

/* Replaces what desc holds with io and gears (both taken). */
static void desc_set(aclmdlDesc *desc, acl__model_iodesc *io, acl__gears *gears, uint32_t model_id) {
  acl__model_iodesc_free(&desc->io);
  acl__gears_free(desc->gears);
  desc->io = *io;
  desc->gears = gears;
  desc->model_id = model_id;
  desc->filled = 1;
  memset(io, 0, sizeof(*io));
}

int acl__mdl_desc_gears(const char *api, const aclmdlDesc *desc, const acl__gears **gears,
                        const acl__model_iodesc **io, uint32_t *model_id) {
  int rc = desc_check(api, desc);
  if (rc != 0)
    return rc;
  if (!desc->filled)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "modelDesc %p is empty. Remedy: fill it with aclmdlGetDesc first", (const void *)desc);
  *gears = desc->gears;
  *io = &desc->io;
  *model_id = desc->model_id;
  return 0;
}

aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0 || (rc = desc_check(__func__, modelDesc)) != 0)
    return rc;
  acl__model *m = acl__model_acquire(__func__, modelId, &rc);
  if (m == NULL)
    return rc;
  acl__model_iodesc io;
  rc = acl__model_iodesc_copy(&m->io, &io);
  acl__gears *gears = NULL;
  if (rc == 0 && (gears = acl__gears_copy(m->gears, &rc)) == NULL && rc != 0)
    acl__model_iodesc_free(&io);
  acl__model_release(m);
  if (rc != 0)
    return ACL__FAIL(rc, "out of host memory to copy the description of model %u", modelId);
  desc_set(modelDesc, &io, gears, modelId);
  return ACL_SUCCESS;
}

static int desc_from(const char *api, aclmdlDesc *desc, const char *path, const void *data, size_t size) {
  acl__graph *g = NULL;
  int rc = load_graph(api, path, data, size, &g);
  if (rc != 0)
    return rc;
  acl__model_iodesc io;
  acl__gears *gears = NULL;
  rc = acl__model_describe(api, g, &io, &gears);
  acl__graph_free(g);
  if (rc != 0)
    return rc;
  desc_set(desc, &io, gears, 0);
  return ACL_SUCCESS;
}

aclError aclmdlGetDescFromFile(aclmdlDesc *modelDesc, const char *modelPath) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0 || (rc = desc_check(__func__, modelDesc)) != 0)
    return rc;
  if (modelPath == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelPath is NULL; pass the path of an .onnx file");
  return desc_from(__func__, modelDesc, modelPath, NULL, 0);
}

aclError aclmdlGetDescFromMem(aclmdlDesc *modelDesc, const void *model, size_t modelSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0 || (rc = desc_check(__func__, modelDesc)) != 0)
    return rc;
  if (model == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "model is NULL; pass the bytes of an .onnx file");
  return desc_from(__func__, modelDesc, NULL, model, modelSize);
}

size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc) {
  ACL__PROF_API_SCOPE();
  return desc_check(__func__, modelDesc) != 0 ? 0 : modelDesc->io.n_inputs;
}

size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc) {
  ACL__PROF_API_SCOPE();
  return desc_check(__func__, modelDesc) != 0 ? 0 : modelDesc->io.n_outputs;
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 0, index);
  return io != NULL ? io->size : 0;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 1, index);
  return io != NULL ? io->size : 0;
}

static int get_dims(const char *api, const aclmdlDesc *desc, int output, size_t index, aclmdlIODims *dims) {
  const acl__model_io *io = desc_io(api, desc, output, index);
  if (io == NULL)
    return ACL_ERROR_INVALID_PARAM;
  if (dims == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dims is NULL; pass an aclmdlIODims to fill");
  if (io->rank > ACL_MAX_DIM_CNT)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s %zu (\"%s\") has %zu dimensions; aclmdlIODims holds at most %d", output ? "output" : "input",
                     index, io->name, io->rank, ACL_MAX_DIM_CNT);
  memset(dims, 0, sizeof(*dims));
  /* Longer names are cut to ACL_MAX_TENSOR_NAME_LEN - 1 characters; the
   * ...NameByIndex functions return the whole name. */
  snprintf(dims->name, sizeof(dims->name), "%s", io->name);
  dims->dimCount = io->rank;
  for (size_t i = 0; i < io->rank; i++)
    dims->dims[i] = io->dims[i];
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  ACL__PROF_API_SCOPE();
  return get_dims(__func__, modelDesc, 0, index, dims);
}

aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  ACL__PROF_API_SCOPE();
  return get_dims(__func__, modelDesc, 1, index, dims);
}

/* The output dims of the gear last chosen on the description's model (the
 * largest gear before any is chosen, or for a description read from a file).
 * A model without gears: the declared dims, -1 for a symbolic dimension (as
 * aclmdlGetOutputDims); the shape an execution actually produced is the
 * tensor descriptor it leaves in the output dataset. */
aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  ACL__PROF_API_SCOPE();
  int rc = get_dims(__func__, modelDesc, 1, index, dims);
  if (rc != 0 || modelDesc->gears == NULL || index >= modelDesc->gears->n_out)
    return rc;
  const acl__gears *gr = modelDesc->gears;
  int gear = modelDesc->model_id != 0 ? acl__model_cur_gear(modelDesc->model_id) : -1;
  const acl__gear_shape *s = &gr->out[index];
  if (s->rank > 0 && (size_t)s->rank == dims->dimCount)
    acl__gears_shape(gr, s, gear >= 0 && (size_t)gear < gr->n_gears ? (size_t)gear : gr->largest, dims->dims);
  return ACL_SUCCESS;
}

const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 0, index);
  return io != NULL ? io->name : NULL;
}

const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 1, index);
  return io != NULL ? io->name : NULL;
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 0, index);
  return io != NULL ? io->format : ACL_FORMAT_UNDEFINED;
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 1, index);
  return io != NULL ? io->format : ACL_FORMAT_UNDEFINED;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 0, index);
  return io != NULL ? io->dtype : ACL_DT_UNDEFINED;
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  const acl__model_io *io = desc_io(__func__, modelDesc, 1, index);
  return io != NULL ? io->dtype : ACL_DT_UNDEFINED;
}

static int index_by_name(const char *api, const aclmdlDesc *desc, int output, const char *name, size_t *index) {
  int rc = desc_check(api, desc);
  if (rc != 0)
    return rc;
  if (name == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "name is NULL");
  if (index == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "index is NULL; pass where to store it");
  const acl__model_io *io = output ? desc->io.outputs : desc->io.inputs;
  size_t n = output ? desc->io.n_outputs : desc->io.n_inputs;
  for (size_t i = 0; i < n; i++)
    if (strcmp(io[i].name, name) == 0) {
      *index = i;
      return ACL_SUCCESS;
    }
  const char *kind = output ? "output" : "input";
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "the model has no %s named \"%s\" (it has %zu %ss)", kind, name, n, kind);
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  ACL__PROF_API_SCOPE();
  return index_by_name(__func__, modelDesc, 0, name, index);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  ACL__PROF_API_SCOPE();
  return index_by_name(__func__, modelDesc, 1, name, index);
}
