/*
 * tensor_desc.c - aclTensorDesc: a tensor's element type, shape, format and
 * name, plus what the dynamic-shape and operator APIs attach to it (shape
 * and value ranges, a constant value, a placement).  Plain host data: no
 * aclInit is needed, as with the vendor's.
 *
 * A descriptor holds two shapes and two formats, as the vendor's does: the
 * origin ones (aclCreateTensorDesc, aclSetTensorOrigin*) are what the
 * queries return; the storage ones (aclSetTensorFormat / aclSetTensorShape
 * and the deprecated aclSetTensorStorage* names) describe the layout in
 * memory and start unset.
 *
 * Every descriptor is registered in the runtime's handle table, so a
 * destroyed or garbage pointer is rejected with a message instead of being
 * dereferenced.  A descriptor is not locked: like the vendor's, one
 * descriptor must not be changed by two threads at once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/tensor_desc.h"
#include "model/io_data.h"
#include "common/errmsg.h"
#include "rt/rt.h"
#include "prof/prof.h"


/* ---- checks ------------------------------------------------------------- */

static int td_known_type(aclDataType t) {
  switch (t) {
  case ACL_DT_UNDEFINED: case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32: case ACL_UINT8:
  case ACL_INT16: case ACL_UINT16: case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE:
  case ACL_BOOL: case ACL_STRING: case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4:
  case ACL_UINT1: case ACL_COMPLEX32: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
  case ACL_FLOAT8_E8M0: case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3: case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
    return 1;
  default:
    return 0;
  }
}

static int td_known_format(aclFormat f) {
  switch (f) {
  case ACL_FORMAT_UNDEFINED: case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND:
  case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z: case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN:
  case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ: case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0:
  case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL: case ACL_FORMAT_FRACTAL_NZ_C0_16:
  case ACL_FORMAT_FRACTAL_NZ_C0_32: case ACL_FORMAT_FRACTAL_NZ_C0_2: case ACL_FORMAT_FRACTAL_NZ_C0_4:
  case ACL_FORMAT_FRACTAL_NZ_C0_8:
    return 1;
  default:
    return 0;
  }
}

int acl__tensor_desc_check(const char *api, const char *arg, const aclTensorDesc *desc) {
  if (desc == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", arg);
  if (acl__handle_valid(desc, ACL__H_TENSOR_DESC))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(desc, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s %p is a %s handle, not an aclTensorDesc", arg, (const void *)desc,
                       acl__handle_type_name((acl__handle_type)t));
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "%s %p is not a live aclTensorDesc (it was destroyed, or never created by aclCreateTensorDesc)",
                   arg, (const void *)desc);
}

static int td_check_type(const char *api, aclDataType t) {
  if (td_known_type(t))
    return 0;
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "dataType is %d, which is not an aclDataType value", (int)t);
}

static int td_check_format(const char *api, const char *arg, aclFormat f) {
  if (td_known_format(f))
    return 0;
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is %d, which is not an aclFormat value",
                   arg, (int)f);
}

/* A shape: 0 (a scalar) to ACL_MAX_DIM_CNT dimensions, each >= 0 or -1
 * (unknown), or the single dimension -2 (unknown rank). */
static int td_check_shape(const char *api, int numDims, const int64_t *dims) {
  if (numDims < 0 || numDims > ACL__TD_MAX_DIMS)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "numDims is %d; it must be 0 (a scalar) to %d (ACL_MAX_DIM_CNT)", numDims, ACL__TD_MAX_DIMS);
  if (numDims > 0 && dims == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dims is NULL while numDims is %d",
                     numDims);
  for (int i = 0; i < numDims; i++) {
    if (dims[i] >= -1 || (dims[i] == ACL__TD_UNKNOWN_RANK_DIM && numDims == 1))
      continue;
    if (dims[i] == ACL__TD_UNKNOWN_RANK_DIM)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "dims[%d] is -2 in a shape of %d dimensions; -2 (unknown rank) must be the only dimension",
                       i, numDims);
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "dims[%d] is %lld; a dimension is >= 0, -1 (unknown) or, alone, -2 (unknown rank)", i,
                     (long long)dims[i]);
  }
  return 0;
}

static int td_unknown_rank(const aclTensorDesc *d) { return acl__td_unknown_rank(d); }

/* ---- creating and destroying ---------------------------------------------- */

static void td_free(aclTensorDesc *d) {
  free(d->value_ranges);
  free(d->name);
  free(d->dynamic_input);
  free(d->const_data);
  free(d);
}

/* Registers d; frees it and records a failure when the table has no room. */
static aclTensorDesc *td_register(const char *api, aclTensorDesc *d) {
  acl__handle_register(d, ACL__H_TENSOR_DESC);
  if (acl__handle_valid(d, ACL__H_TENSOR_DESC))
    return d;
  td_free(d);
  acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to register a tensor descriptor");
  return NULL;
}

aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims, aclFormat format) {
  ACL__PROF_API_SCOPE();
  if (td_check_type(__func__, dataType) != 0 || td_check_format(__func__, "format", format) != 0 ||
      td_check_shape(__func__, numDims, dims) != 0)
    return NULL;
  aclTensorDesc *d = calloc(1, sizeof(*d));
  if (d == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte aclTensorDesc", sizeof(*d));
    return NULL;
  }
  d->type = dataType;
  d->format = format;
  d->ndims = (size_t)numDims;
  if (numDims > 0)
    memcpy(d->dims, dims, (size_t)numDims * sizeof(dims[0]));
  d->storage_format = ACL_FORMAT_UNDEFINED;
  d->placement = ACL_MEMTYPE_DEVICE;
  return td_register(__func__, d);
}

void aclDestroyTensorDesc(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  if (desc == NULL)
    return; /* like free(NULL), and like the vendor's */
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return;
  if (desc->owned) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM,
              "desc %p belongs to a dataset (it came from aclmdlGetDatasetTensorDesc); aclmdlDestroyDataset "
              "frees it. Remedy: destroy only the descriptors you created with aclCreateTensorDesc",
              (const void *)desc);
    return;
  }
  aclTensorDesc *d = (aclTensorDesc *)desc;
  acl__handle_unregister(d);
  td_free(d);
}

static int td_dup(void **dst, const void *src, size_t n) {
  *dst = NULL;
  if (src == NULL)
    return 0;
  *dst = malloc(n);
  if (*dst == NULL)
    return -1;
  memcpy(*dst, src, n);
  return 0;
}

aclTensorDesc *acl__tensor_desc_clone_owned(const char *api, const aclTensorDesc *src) {
  aclTensorDesc *d = malloc(sizeof(*d));
  if (d == NULL) {
    acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to copy a tensor descriptor");
    return NULL;
  }
  *d = *src;
  d->owned = 1;
  void *vr, *name, *dyn, *cdata;
  int bad = td_dup(&vr, src->value_ranges, src->nvalue_ranges * sizeof(src->value_ranges[0]));
  bad |= td_dup(&name, src->name, src->name ? strlen(src->name) + 1 : 0);
  bad |= td_dup(&dyn, src->dynamic_input, src->dynamic_input ? strlen(src->dynamic_input) + 1 : 0);
  bad |= td_dup(&cdata, src->const_data, src->const_len);
  d->value_ranges = vr;
  d->name = name;
  d->dynamic_input = dyn;
  d->const_data = cdata;
  if (bad) {
    td_free(d);
    acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to copy a tensor descriptor");
    return NULL;
  }
  return td_register(api, d);
}

void acl__tensor_desc_free_owned(aclTensorDesc *desc) {
  if (desc == NULL)
    return;
  acl__handle_unregister(desc);
  td_free(desc);
}

/* ---- queries --------------------------------------------------------------- */

aclDataType aclGetTensorDescType(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return ACL_DT_UNDEFINED;
  return desc->type;
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return ACL_FORMAT_UNDEFINED;
  return desc->format;
}

/* The number of elements of desc's shape into *count; records a failure of
 * `api` (and gives 0) for an unknown dimension or rank, or an overflow. */
static int td_count(const char *api, const aclTensorDesc *desc, size_t *count) {
  *count = 0;
  if (td_unknown_rank(desc))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "desc %p has a shape of unknown rank (-2), which has no element count. Remedy: set the "
                     "actual shape first (aclSetTensorOriginShape, or a new descriptor)", (const void *)desc);
  size_t n = 1;
  for (size_t i = 0; i < desc->ndims; i++) {
    int64_t v = desc->dims[i];
    if (v < 0)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "dimension %zu of desc %p is -1 (unknown), so it has no element count. Remedy: set the "
                       "actual shape first (aclSetTensorOriginShape, or a new descriptor)", i, (const void *)desc);
    if (__builtin_mul_overflow(n, (uint64_t)v, &n)) {
      for (size_t j = i + 1; j < desc->ndims; j++)
        if (desc->dims[j] == 0)
          return 0; /* a zero dimension later: 0 elements, no overflow */
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "the element count of desc %p overflows size_t at dimension %zu (%lld)",
                       (const void *)desc, i, (long long)v);
    }
  }
  *count = n;
  return 0;
}

size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  size_t n = 0;
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0 || td_count(__func__, desc, &n) != 0)
    return 0;
  return n;
}

size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  size_t n = 0;
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0 || td_count(__func__, desc, &n) != 0)
    return 0;
  size_t esize = aclDataTypeSize(desc->type);
  if (esize != 0 && n > SIZE_MAX / esize) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "the size of desc %p (%zu elements of %zu bytes) overflows size_t",
              (const void *)desc, n, esize);
    return 0;
  }
  return n * esize;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return 0;
  return td_unknown_rank(desc) ? (size_t)ACL_UNKNOWN_RANK : desc->ndims;
}

int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return -1;
  if (index >= desc->ndims) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index is %zu; desc %p has %zu dimensions", index, (const void *)desc,
              desc->ndims);
    return -1;
  }
  return desc->dims[index];
}

aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (dimSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimSize is NULL");
  if (index >= desc->ndims)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index is %zu; desc %p has %zu dimensions", index,
                     (const void *)desc, desc->ndims);
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index, size_t dimRangeNum, int64_t *dimRange) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (dimRange == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimRange is NULL");
  if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dimRangeNum is %zu; dimRange must hold at least %d values (ACL_TENSOR_SHAPE_RANGE_NUM)",
                     dimRangeNum, ACL_TENSOR_SHAPE_RANGE_NUM);
  if (index >= desc->nranges)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "index is %zu; desc %p has %zu shape ranges (set with aclSetTensorShapeRange)", index,
                     (const void *)desc, desc->nranges);
  dimRange[0] = desc->ranges[index][0];
  dimRange[1] = desc->ranges[index][1];
  return ACL_SUCCESS;
}

/* ---- ranges ---------------------------------------------------------------- */

aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
                                int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (dimsCount > ACL__TD_MAX_DIMS)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimsCount is %zu; at most %d ranges (ACL_MAX_DIM_CNT)", dimsCount,
                     ACL__TD_MAX_DIMS);
  if (dimsCount > 0 && dimsRange == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimsRange is NULL while dimsCount is %zu", dimsCount);
  for (size_t i = 0; i < dimsCount; i++) {
    int64_t lo = dimsRange[i][0], hi = dimsRange[i][1];
    if (lo < 0 || (hi != -1 && hi < lo))
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                       "dimsRange[%zu] is [%lld, %lld]; a range is [min, max] with 0 <= min <= max, or max -1 "
                       "(unbounded)", i, (long long)lo, (long long)hi);
  }
  if (dimsCount > 0)
    memcpy(desc->ranges, dimsRange, dimsCount * sizeof(desc->ranges[0]));
  desc->nranges = dimsCount;
  return ACL_SUCCESS;
}

aclError aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
                                int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (valueCount > 0 && valueRange == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "valueRange is NULL while valueCount is %zu", valueCount);
  if (valueCount > SIZE_MAX / sizeof(desc->value_ranges[0]))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "valueCount is %zu, too large", valueCount);
  void *copy = NULL;
  if (valueCount > 0 && td_dup(&copy, valueRange, valueCount * sizeof(desc->value_ranges[0])) != 0)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for %zu value ranges", valueCount);
  free(desc->value_ranges);
  desc->value_ranges = copy;
  desc->nvalue_ranges = valueCount;
  return ACL_SUCCESS;
}

/* ---- name ------------------------------------------------------------------ */

void aclSetTensorDescName(aclTensorDesc *desc, const char *name) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return;
  char *copy = NULL;
  if (name != NULL && td_dup((void **)&copy, name, strlen(name) + 1) != 0) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte name; the name is unchanged",
              strlen(name) + 1);
    return;
  }
  free(desc->name); /* NULL name: the name becomes "" */
  desc->name = copy;
}

const char *aclGetTensorDescName(aclTensorDesc *desc) {
  ACL__PROF_API_SCOPE();
  if (acl__tensor_desc_check(__func__, "desc", desc) != 0)
    return "";
  return desc->name != NULL ? desc->name : "";
}

/* ---- formats and shapes ---------------------------------------------------- */

static aclError td_set_format(const char *api, aclTensorDesc *desc, aclFormat format, int storage) {
  int rc = acl__tensor_desc_check(api, "desc", desc);
  if (rc == 0)
    rc = td_check_format(api, "format", format);
  if (rc != 0)
    return rc;
  if (storage)
    desc->storage_format = format;
  else
    desc->format = format;
  return ACL_SUCCESS;
}

static aclError td_set_shape(const char *api, aclTensorDesc *desc, int numDims, const int64_t *dims, int storage) {
  int rc = acl__tensor_desc_check(api, "desc", desc);
  if (rc == 0)
    rc = td_check_shape(api, numDims, dims);
  if (rc != 0)
    return rc;
  int64_t *to = storage ? desc->storage_dims : desc->dims;
  if (numDims > 0)
    memcpy(to, dims, (size_t)numDims * sizeof(dims[0]));
  if (storage) {
    desc->storage_ndims = (size_t)numDims;
    desc->has_storage_shape = 1;
  } else {
    desc->ndims = (size_t)numDims;
  }
  return ACL_SUCCESS;
}

aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format) {
  ACL__PROF_API_SCOPE();
  return td_set_format(__func__, desc, format, 1);
}

aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
  ACL__PROF_API_SCOPE();
  return td_set_shape(__func__, desc, numDims, dims, 1);
}

aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format) { return td_set_format(__func__, desc, format, 1); }

aclError aclSetTensorShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
  ACL__PROF_API_SCOPE();
  return td_set_shape(__func__, desc, numDims, dims, 1);
}

aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format) {
  ACL__PROF_API_SCOPE();
  return td_set_format(__func__, desc, format, 0);
}

aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims, const int64_t *dims) {
  ACL__PROF_API_SCOPE();
  return td_set_shape(__func__, desc, numDims, dims, 0);
}

/* ---- operator attributes --------------------------------------------------- */

aclError aclSetTensorDynamicInput(aclTensorDesc *desc, const char *dynamicInputName) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (dynamicInputName == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dynamicInputName is NULL");
  char *copy;
  if (td_dup((void **)&copy, dynamicInputName, strlen(dynamicInputName) + 1) != 0)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte name", strlen(dynamicInputName) + 1);
  free(desc->dynamic_input);
  desc->dynamic_input = copy;
  return ACL_SUCCESS;
}

aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (dataBuffer == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
  if (length == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "length is 0; a constant holds at least one byte");
  void *copy;
  if (td_dup(&copy, dataBuffer, length) != 0)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte constant", length);
  free(desc->const_data);
  desc->const_data = copy;
  desc->const_len = length;
  return ACL_SUCCESS;
}

aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType) {
  ACL__PROF_API_SCOPE();
  int rc = acl__tensor_desc_check(__func__, "desc", desc);
  if (rc != 0)
    return rc;
  if (memType != ACL_MEMTYPE_DEVICE && memType != ACL_MEMTYPE_HOST && memType != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "memType is %d; it must be ACL_MEMTYPE_DEVICE (0), ACL_MEMTYPE_HOST (1) or "
                     "ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT (2)", (int)memType);
  desc->placement = memType;
  return ACL_SUCCESS;
}
