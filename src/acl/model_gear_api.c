/*
 * model_gear_api.c - the public gear functions of dynamic models: the
 * queries on a description (aclmdlGetDynamicBatch, aclmdlGetDynamicHW,
 * aclmdlGetInputDynamicGearCount, aclmdlGetInputDynamicDims,
 * aclmdlGetInputDimsRange) and the choice of a gear before an execution
 * (aclmdlSetDynamicBatchSize, aclmdlSetDynamicHWSize,
 * aclmdlSetInputDynamicDims).  The gears come from the OPENACL_DYNAMIC_*
 * variables at load (src/model/gears.c, docs/models.md "Gears").
 *
 * Choosing a gear records it in the input dataset as a tensor descriptor
 * with the gear's actual shape on every input the gear shapes (what the
 * execution reads, see run.c check_gear), writes the gear's key into the
 * device buffer of the extra input ACL_DYNAMIC_TENSOR_NAME, as the vendor
 * does, and remembers it on the model for aclmdlGetCurOutputDims.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/process.h"
#include "common/errmsg.h"
#include "model/gears.h"
#include "model/model.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "prof/prof.h"

/* ---- queries on a description -------------------------------------------------- */

/* The description's gears (may be NULL) after checking desc and the index
 * argument: (size_t)-1, as the vendor documents ("reserved, pass -1"), or any
 * input index (both mean the whole model). */
static int desc_gears(const char *api, const aclmdlDesc *desc, size_t index, int check_index, const acl__gears **gr,
                      const acl__model_iodesc **io) {
  uint32_t id = 0;
  int rc = acl__mdl_desc_gears(api, desc, gr, io, &id);
  if (rc != 0)
    return rc;
  if (check_index && index != (size_t)-1 && index >= (*io)->n_inputs)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "index is %zu; pass -1 (the vendor's reserved value) or an input index below %zu", index,
                     (*io)->n_inputs);
  return 0;
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch) {
  ACL__PROF_API_SCOPE();
  const acl__gears *gr = NULL;
  const acl__model_iodesc *io = NULL;
  int rc = desc_gears(__func__, modelDesc, 0, 0, &gr, &io);
  if (rc != 0)
    return rc;
  if (batch == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "batch is NULL; pass an aclmdlBatch to fill");
  memset(batch, 0, sizeof(*batch));
  if (gr == NULL || gr->kind != ACL__GEAR_BATCH)
    return ACL_SUCCESS; /* not a dynamic-batch model: batchCount 0, as the vendor's */
  batch->batchCount = gr->n_gears;
  for (size_t g = 0; g < gr->n_gears; g++)
    acl__gears_key(gr, g, (int64_t *)&batch->batch[g]);
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index, aclmdlHW *hw) {
  ACL__PROF_API_SCOPE();
  const acl__gears *gr = NULL;
  const acl__model_iodesc *io = NULL;
  int rc = desc_gears(__func__, modelDesc, index, 1, &gr, &io);
  if (rc != 0)
    return rc;
  if (hw == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "hw is NULL; pass an aclmdlHW to fill");
  memset(hw, 0, sizeof(*hw));
  if (gr == NULL || gr->kind != ACL__GEAR_HW)
    return ACL_SUCCESS;
  hw->hwCount = gr->n_gears;
  for (size_t g = 0; g < gr->n_gears; g++) {
    int64_t key[2];
    acl__gears_key(gr, g, key);
    hw->hw[g][0] = (uint64_t)key[0];
    hw->hw[g][1] = (uint64_t)key[1];
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t index, size_t *gearCount) {
  ACL__PROF_API_SCOPE();
  const acl__gears *gr = NULL;
  const acl__model_iodesc *io = NULL;
  int rc = desc_gears(__func__, modelDesc, index, 1, &gr, &io);
  if (rc != 0)
    return rc;
  if (gearCount == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "gearCount is NULL; pass where to store the count");
  *gearCount = gr != NULL && gr->kind == ACL__GEAR_DIMS ? gr->n_gears : 0;
  return ACL_SUCCESS;
}

/* Every input's shape in gear `gear`, concatenated in input order (the
 * format of aclmdlGetInputDynamicDims and aclmdlSetInputDynamicDims). */
static int gear_all_dims(const char *api, const acl__gears *gr, size_t gear, aclmdlIODims *d) {
  memset(d, 0, sizeof(*d));
  for (size_t i = 0; i < gr->n_in; i++) {
    const acl__gear_shape *s = &gr->in[i];
    if (s->rank <= 0)
      continue;
    if (d->dimCount + (size_t)s->rank > ACL_MAX_DIM_CNT)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "the model's inputs have more than %d dimensions in all; aclmdlIODims cannot hold them",
                       ACL_MAX_DIM_CNT);
    acl__gears_shape(gr, s, gear, &d->dims[d->dimCount]);
    d->dimCount += (size_t)s->rank;
  }
  return 0;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims, size_t gearCount) {
  ACL__PROF_API_SCOPE();
  const acl__gears *gr = NULL;
  const acl__model_iodesc *io = NULL;
  int rc = desc_gears(__func__, modelDesc, index, 1, &gr, &io);
  if (rc != 0)
    return rc;
  if (dims == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dims is NULL; pass an array of gearCount aclmdlIODims");
  if (gr == NULL || gr->kind != ACL__GEAR_DIMS)
    return ACL__FAIL(ACL_ERROR_MODEL_NOT_DYNAMIC,
                     "the model has no OPENACL_DYNAMIC_DIMS gears (%s). Remedy: set OPENACL_DYNAMIC_DIMS before "
                     "loading it, or use aclmdlGetDynamicBatch / aclmdlGetDynamicHW",
                     gr == NULL                    ? "no gears at all"
                     : gr->kind == ACL__GEAR_BATCH ? "it has batch gears"
                                                   : "it has HW gears");
  if (gearCount != gr->n_gears)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "gearCount is %zu, but the model has %zu gears (aclmdlGetInputDynamicGearCount)", gearCount,
                     gr->n_gears);
  for (size_t g = 0; g < gr->n_gears; g++)
    if ((rc = gear_all_dims(__func__, gr, g, &dims[g])) != 0)
      return rc;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index, aclmdlIODimsRange *dimsRange) {
  ACL__PROF_API_SCOPE();
  const acl__gears *gr = NULL;
  const acl__model_iodesc *io = NULL;
  int rc = desc_gears(__func__, modelDesc, 0, 0, &gr, &io);
  if (rc != 0)
    return rc;
  if (index >= io->n_inputs)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index is %zu; the model has %zu inputs", index, io->n_inputs);
  if (dimsRange == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimsRange is NULL; pass an aclmdlIODimsRange to fill");
  const acl__model_io *in = &io->inputs[index];
  if (in->rank > ACL_MAX_DIM_CNT)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "input %zu (\"%s\") has %zu dimensions; at most %d fit", index, in->name,
                     in->rank, ACL_MAX_DIM_CNT);
  memset(dimsRange, 0, sizeof(*dimsRange));
  dimsRange->rangeCount = in->rank;
  const acl__gear_shape *s = gr != NULL && index < gr->n_in ? &gr->in[index] : NULL;
  for (size_t k = 0; k < in->rank; k++) {
    int64_t lo, hi;
    if (s != NULL && s->pos[k] >= 0) {
      lo = INT64_MAX;
      hi = 0;
      for (size_t g = 0; g < gr->n_gears; g++) {
        int64_t v = gr->values[g * gr->n_pos + (size_t)s->pos[k]];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
    } else if (s != NULL || in->dims[k] >= 0) {
      lo = hi = s != NULL ? s->dims[k] : in->dims[k];
    } else {
      lo = 0; /* a symbolic dim without gears: any size (-1: no upper bound) */
      hi = -1;
    }
    dimsRange->range[k][0] = lo;
    dimsRange->range[k][1] = hi;
  }
  return ACL_SUCCESS;
}

/* ---- choosing a gear ---------------------------------------------------------------- */

static const char *set_api_for(acl__gear_kind kind) {
  return kind == ACL__GEAR_BATCH ? "aclmdlSetDynamicBatchSize"
         : kind == ACL__GEAR_HW  ? "aclmdlSetDynamicHWSize"
                                 : "aclmdlSetInputDynamicDims";
}

/* dims (every input's shape, concatenated) -> the key of a dims gear. */
static int key_from_dims(const char *api, const acl__gears *gr, const aclmdlIODims *dims, int64_t *key) {
  aclmdlIODims want;
  int rc = gear_all_dims(api, gr, gr->largest, &want);
  if (rc != 0)
    return rc;
  if (dims->dimCount != want.dimCount)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "dims->dimCount is %zu, but the model's inputs have %zu dimensions in all: give every input's "
                     "shape, concatenated in input order (as aclmdlGetInputDynamicDims reports a gear)",
                     dims->dimCount, want.dimCount);
  size_t at = 0;
  for (size_t i = 0; i < gr->n_in; i++)
    for (int k = 0; k < gr->in[i].rank; k++, at++) {
      const acl__gear_shape *s = &gr->in[i];
      if (s->pos[k] >= 0)
        key[s->pos[k]] = dims->dims[at];
      else if (dims->dims[at] != s->dims[k])
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "dims->dims[%zu] is %" PRId64
                         ", but it is dimension %d of input %zu, which is static: %" PRId64,
                         at, dims->dims[at], k, i, s->dims[k]);
    }
  return 0;
}

/* The body of the three Set functions: kind is the caller's; key the gear's
 * key (NULL: from dims). */
static int set_gear(const char *api, uint32_t modelId, aclmdlDataset *ds, size_t index, acl__gear_kind kind,
                    const int64_t *key_in, const aclmdlIODims *dims) {
  int rc = acl__process_require_init(api);
  if (rc != 0)
    return rc;
  if (ds == NULL || !acl__handle_valid(ds, ACL__H_DATASET))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "dataset %p is %s; pass the input dataset of the execution (aclmdlCreateDataset)", (void *)ds,
                     ds == NULL ? "NULL" : "not a live aclmdlDataset");
  if (key_in == NULL && dims == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dims is NULL; pass the inputs' shapes");
  acl__context *ctx = acl__context_current(api, &rc);
  if (ctx == NULL)
    return rc;
  acl__model *m = acl__model_acquire(api, modelId, &rc);
  if (m == NULL)
    return rc;
  const acl__gears *gr = m->gears;
  const acl__graph *g = m->graph;
  char list[512] = "";
  int64_t key[ACL_MAX_DIM_CNT];
  int gear = -1;
  if (gr == NULL) {
    rc = acl__fail(api, ACL_ERROR_MODEL_NOT_DYNAMIC, __FILE__, __LINE__,
                   "model %u has no gears: it was loaded without OPENACL_DYNAMIC_BATCH, OPENACL_DYNAMIC_HW or "
                   "OPENACL_DYNAMIC_DIMS, or has no dynamic dimension. Remedy: set one before loading, or describe "
                   "dynamic inputs with tensor descriptors (aclmdlSetDatasetTensorDesc)",
                   modelId);
    goto done;
  }
  acl__gears_list(gr, list, sizeof(list));
  if (gr->kind != kind) {
    rc = acl__fail(api, ACL_ERROR_MODEL_NOT_DYNAMIC, __FILE__, __LINE__,
                   "model %u has gears of %s (%s), not of %s. Remedy: choose its gear with %s", modelId,
                   acl__gears_var(gr->kind), list, acl__gears_var(kind), set_api_for(gr->kind));
    goto done;
  }
  if (index != g->n_inputs) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "index is %zu, but the input \"%s\" of model %u is input %zu "
                   "(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &index))",
                   index, ACL_DYNAMIC_TENSOR_NAME, modelId, g->n_inputs);
    goto done;
  }
  if (key_in != NULL)
    memcpy(key, key_in, gr->n_key * sizeof(*key));
  else if ((rc = key_from_dims(api, gr, dims, key)) != 0)
    goto done;
  if ((gear = acl__gears_find(gr, key)) < 0) {
    char got[256] = "";
    size_t len = 0;
    for (size_t j = 0; j < gr->n_key && len + 1 < sizeof(got); j++)
      len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%" PRId64, j ? (kind == ACL__GEAR_HW ? "x" : ",") : "",
                              key[j]);
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "%s%s%s is not one of the gears of model %u (%s: %s)", kind == ACL__GEAR_DIMS ? "[" : "", got,
                   kind == ACL__GEAR_DIMS ? "]" : "", modelId, acl__gears_var(kind), list);
    goto done;
  }
  if (aclmdlGetDatasetNumBuffers(ds) <= index) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "dataset %p holds %zu buffers; model %u has %zu inputs. Remedy: add every input's buffer "
                   "(ACL_DYNAMIC_TENSOR_NAME last) with aclmdlAddDatasetBuffer first",
                   (void *)ds, aclmdlGetDatasetNumBuffers(ds), modelId, g->n_inputs + 1);
    goto done;
  }
  /* the key into the extra input's device buffer, as the vendor writes it */
  aclDataBuffer *buf = aclmdlGetDatasetBuffer(ds, index);
  void *addr = aclGetDataBufferAddr(buf);
  size_t size = aclGetDataBufferSizeV2(buf), need = gr->n_key * sizeof(int64_t);
  acl__ptr_info info;
  acl__mem_classify(addr, &info);
  if (addr == NULL || size < need || info.kind != ACL__PTR_DEVICE) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "the dataset's buffer %zu (\"%s\") is %p, %zu bytes; it must be device memory (aclrtMalloc) of "
                   "at least %zu bytes (aclmdlGetInputSizeByIndex)",
                   index, ACL_DYNAMIC_TENSOR_NAME, addr, size, need);
    goto done;
  }
  aclError mrc = aclrtMemcpy(addr, size, key, need, ACL_MEMCPY_HOST_TO_DEVICE);
  if (mrc != ACL_SUCCESS) {
    rc = acl__fail(api, mrc, __FILE__, __LINE__, "writing the gear into input \"%s\" at %p failed (aclrtMemcpy)",
                   ACL_DYNAMIC_TENSOR_NAME, addr);
    goto done;
  }
  /* the gear's shapes, which the execution reads */
  for (size_t i = 0; rc == 0 && i < gr->n_in; i++) {
    const acl__gear_shape *s = &gr->in[i];
    int shaped = 0;
    for (int k = 0; k < s->rank; k++)
      shaped |= s->pos[k] >= 0;
    if (!shaped)
      continue;
    int64_t shape[ACL_MAX_DIM_CNT];
    acl__gears_shape(gr, s, (size_t)gear, shape);
    aclTensorDesc *d = aclCreateTensorDesc(m->io.inputs[i].dtype, s->rank, shape, m->io.inputs[i].format);
    if (d == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a tensor descriptor");
      break;
    }
    aclSetTensorDescName(d, m->io.inputs[i].name);
    aclError drc = aclmdlSetDatasetTensorDesc(ds, d, i);
    aclDestroyTensorDesc(d);
    if (drc != ACL_SUCCESS)
      rc = acl__fail(api, drc, __FILE__, __LINE__, "recording the gear's shape of input %zu in dataset %p failed", i,
                     (void *)ds);
  }
  if (rc == 0)
    acl__model_set_cur_gear(m, gear);
done:
  acl__model_release(m);
  return rc;
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset, size_t index, uint64_t batchSize) {
  ACL__PROF_API_SCOPE();
  int64_t key[1] = {batchSize > INT64_MAX ? -1 : (int64_t)batchSize};
  return set_gear(__func__, modelId, dataset, index, ACL__GEAR_BATCH, key, NULL);
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset, size_t index, uint64_t height,
                                uint64_t width) {
  ACL__PROF_API_SCOPE();
  int64_t key[2] = {height > INT64_MAX ? -1 : (int64_t)height, width > INT64_MAX ? -1 : (int64_t)width};
  return set_gear(__func__, modelId, dataset, index, ACL__GEAR_HW, key, NULL);
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset, size_t index, const aclmdlIODims *dims) {
  ACL__PROF_API_SCOPE();
  return set_gear(__func__, modelId, dataset, index, ACL__GEAR_DIMS, NULL, dims);
}
