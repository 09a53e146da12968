/*
 * objects.c - the aclnn objects of aclnn/acl_meta.h: tensors (descriptors
 * of a view over device memory), scalars, host arrays of int64 / float /
 * bool, and lists of tensors or scalars; their creation, queries and
 * release.
 *
 * Behaviour follows the vendor's (reference aclnn.md 4.1): create functions
 * copy what they are given and return NULL on failure, destroy functions
 * accept NULL, lists own their elements.  Where the vendor would
 * dereference a destroyed or foreign pointer, openacl refuses it with
 * ACLNN_ERR_PARAM_INVALID: every object is registered in the runtime's
 * handle table while it lives.
 */
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "common/errmsg.h"
#include "rt/rt.h"

/* The most dims a tensor descriptor keeps (operators take at most 8). */
#define ACL__NN_MAX_DESC_DIMS 64

struct aclIntArray {
  uint64_t size;
  int64_t v[];
};

struct aclFloatArray {
  uint64_t size;
  float v[];
};

struct aclBoolArray {
  uint64_t size;
  bool v[];
};

struct aclTensorList {
  uint64_t size;
  aclTensor *v[];
};

struct aclScalarList {
  uint64_t size;
  aclScalar *v[];
};

/* ---- handle checks ------------------------------------------------------------ */

/* 0 when h is a live handle of `type`, else records why (for `api`,
 * parameter `name`) and returns the code: 161001 for NULL, 161002 otherwise. */
static int acl__nn_check(const char *api, const char *name, const void *h, acl__handle_type type, const char *maker) {
  if (h == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL", name);
  if (acl__handle_valid(h, type))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(h, (acl__handle_type)t))
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__, "%s %p is an %s, not an %s", name, h,
                       acl__handle_type_name((acl__handle_type)t), acl__handle_type_name(type));
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s %p is not a live %s (it was destroyed already, or was not made by %s)", name, h,
                   acl__handle_type_name(type), maker);
}

const aclTensor *acl__nn_tensor_arg(const char *api, const char *name, const aclTensor *t, int *rc) {
  *rc = acl__nn_check(api, name, t, ACL__H_NN_TENSOR, "aclCreateTensor");
  return *rc == 0 ? t : NULL;
}

const aclScalar *acl__nn_scalar_arg(const char *api, const char *name, const aclScalar *s, int *rc) {
  *rc = acl__nn_check(api, name, s, ACL__H_NN_SCALAR, "aclCreateScalar");
  return *rc == 0 ? s : NULL;
}

const int64_t *acl__nn_int_array_arg(const char *api, const char *name, const aclIntArray *a, uint64_t *size,
                                     int *rc) {
  *rc = acl__nn_check(api, name, a, ACL__H_NN_INT_ARRAY, "aclCreateIntArray");
  if (*rc != 0)
    return NULL;
  *size = a->size;
  return a->v;
}

/* Unregisters and frees an object (const-ness is the vendor's signatures'). */
static void acl__nn_release(void *h) {
  acl__handle_unregister(h);
  free(h);
}

/* A getter's output pointer. */
static int acl__nn_out_arg(const char *api, const char *name, const void *p) {
  if (p == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL", name);
  return 0;
}

/* ---- tensors -------------------------------------------------------------------- */

int64_t acl__nn_numel(const aclTensor *t) {
  int64_t n = 1;
  for (uint64_t i = 0; i < t->ndim; i++)
    n *= t->dims[i];
  return n;
}

/* Fills t from aclCreateTensor's / aclInitTensor's parameters (checked).
 * 0, or ACLNN_ERR_INNER when out of memory (t unchanged then). */
static int acl__nn_tensor_fill(aclTensor *t, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                               const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                               uint64_t storageDimsNum, void *data) {
  int64_t *heap = NULL;
  if (viewDimsNum > ACL__NN_MAX_RANK || storageDimsNum > ACL__NN_MAX_RANK) {
    heap = malloc((2 * viewDimsNum + storageDimsNum + 1) * sizeof(int64_t));
    if (heap == NULL)
      return ACLNN_ERR_INNER;
  }
  free(t->heap);
  t->heap = heap;
  if (heap != NULL) {
    t->dims = heap;
    t->strides = heap + viewDimsNum;
    t->storage = heap + 2 * viewDimsNum;
  } else { /* three fixed slots inline */
    t->dims = t->inline_;
    t->strides = t->inline_ + ACL__NN_MAX_RANK;
    t->storage = t->inline_ + 2 * ACL__NN_MAX_RANK;
  }
  t->dtype = dataType;
  t->format = format;
  t->ndim = viewDimsNum;
  t->nstorage = storageDimsNum;
  t->offset = offset;
  t->data = data;
  if (viewDimsNum > 0)
    memcpy(t->dims, viewDims, viewDimsNum * sizeof(int64_t));
  if (storageDimsNum > 0)
    memcpy(t->storage, storageDims, storageDimsNum * sizeof(int64_t));
  if (stride != NULL) {
    if (viewDimsNum > 0)
      memcpy(t->strides, stride, viewDimsNum * sizeof(int64_t));
  } else {
    int64_t s = 1;
    for (uint64_t i = viewDimsNum; i-- > 0;) {
      t->strides[i] = s;
      s *= viewDims[i] > 0 ? viewDims[i] : 1;
    }
  }
  return 0;
}

static int acl__nn_tensor_params(const char *api, const int64_t *viewDims, uint64_t viewDimsNum,
                                 const int64_t *storageDims, uint64_t storageDimsNum) {
  if (viewDims == NULL && viewDimsNum > 0)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__,
                     "viewDims is NULL but viewDimsNum is %llu. Remedy: pass the view's dims, or viewDimsNum 0 for "
                     "a 0-D tensor",
                     (unsigned long long)viewDimsNum);
  if (storageDims == NULL && storageDimsNum > 0)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__,
                     "storageDims is NULL but storageDimsNum is %llu. Remedy: pass the storage's dims (usually the "
                     "view's), or storageDimsNum 0",
                     (unsigned long long)storageDimsNum);
  if (viewDimsNum > ACL__NN_MAX_DESC_DIMS || storageDimsNum > ACL__NN_MAX_DESC_DIMS)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has %llu dims; openacl keeps at most %d (operators take at most %d)",
                     viewDimsNum > ACL__NN_MAX_DESC_DIMS ? "viewDims" : "storageDims",
                     (unsigned long long)(viewDimsNum > ACL__NN_MAX_DESC_DIMS ? viewDimsNum : storageDimsNum),
                     ACL__NN_MAX_DESC_DIMS, ACL__NN_MAX_RANK);
  return 0;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData) {
  if (acl__nn_tensor_params(__func__, viewDims, viewDimsNum, storageDims, storageDimsNum) != 0)
    return NULL;
  aclTensor *t = calloc(1, sizeof *t);
  if (t == NULL || acl__nn_tensor_fill(t, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
                                       storageDimsNum, tensorData) != 0) {
    free(t);
    ACL__FAIL(ACLNN_ERR_INNER, "out of host memory for the descriptor");
    return NULL;
  }
  acl__handle_register(t, ACL__H_NN_TENSOR);
  return t;
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                          uint64_t storageDimsNum, void *tensorDataAddr) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc != 0)
    return rc;
  if ((rc = acl__nn_tensor_params(__func__, viewDims, viewDimsNum, storageDims, storageDimsNum)) != 0)
    return rc;
  if (acl__nn_tensor_fill(tensor, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                          tensorDataAddr) != 0)
    return ACL__FAIL(ACLNN_ERR_INNER, "out of host memory for the descriptor");
  return ACLNN_SUCCESS;
}

static void acl__nn_tensor_free(aclTensor *t) {
  acl__handle_unregister(t);
  free(t->heap);
  free(t);
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
  if (tensor == NULL)
    return ACLNN_SUCCESS;
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc != 0)
    return rc;
  acl__nn_tensor_free((aclTensor *)(uintptr_t)tensor);
  return ACLNN_SUCCESS;
}

/* A copy of n int64 values the caller frees (never NULL when it succeeds,
 * also for n == 0, as C++ new[] would). */
static int acl__nn_give_array(const char *api, const int64_t *v, uint64_t n, int64_t **out, uint64_t *count) {
  int64_t *a = malloc((n > 0 ? n : 1) * sizeof(int64_t));
  if (a == NULL)
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for %llu dims",
                     (unsigned long long)n);
  if (n > 0)
    memcpy(a, v, n * sizeof(int64_t));
  *out = a;
  *count = n;
  return 0;
}

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "viewDims", viewDims)) == 0 &&
      (rc = acl__nn_out_arg(__func__, "viewDimsNum", viewDimsNum)) == 0)
    rc = acl__nn_give_array(__func__, tensor->dims, tensor->ndim, viewDims, viewDimsNum);
  return rc;
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "storageDims", storageDims)) == 0 &&
      (rc = acl__nn_out_arg(__func__, "storageDimsNum", storageDimsNum)) == 0)
    rc = acl__nn_give_array(__func__, tensor->storage, tensor->nstorage, storageDims, storageDimsNum);
  return rc;
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "stridesValue", stridesValue)) == 0 &&
      (rc = acl__nn_out_arg(__func__, "stridesNum", stridesNum)) == 0)
    rc = acl__nn_give_array(__func__, tensor->strides, tensor->ndim, stridesValue, stridesNum);
  return rc;
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "offset", offset)) == 0)
    *offset = tensor->offset;
  return rc;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "format", format)) == 0)
    *format = tensor->format;
  return rc;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "dataType", dataType)) == 0)
    *dataType = tensor->dtype;
  return rc;
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0)
    tensor->data = addr;
  return rc;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr) {
  int rc = acl__nn_check(__func__, "tensor", tensor, ACL__H_NN_TENSOR, "aclCreateTensor");
  if (rc == 0 && (rc = acl__nn_out_arg(__func__, "addr", addr)) == 0)
    *addr = tensor->data;
  return rc;
}

/* ---- scalars -------------------------------------------------------------------- */

/* Bytes aclCreateScalar reads for each type it accepts; 0 for the others. */
static size_t acl__nn_scalar_size(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT8:
  case ACL_INT16:
  case ACL_INT32:
  case ACL_INT64:
  case ACL_UINT8:
  case ACL_UINT16:
  case ACL_UINT32:
  case ACL_UINT64:
  case ACL_BOOL:
  case ACL_DOUBLE:
  case ACL_COMPLEX64:
  case ACL_COMPLEX128:
  case ACL_HIFLOAT8:
  case ACL_FLOAT8_E5M2:
  case ACL_FLOAT8_E4M3FN:
  case ACL_FLOAT8_E8M0:
  case ACL_FLOAT6_E3M2:
  case ACL_FLOAT6_E2M3:
  case ACL_FLOAT4_E2M1:
  case ACL_FLOAT4_E1M2:
    return acl__nn_dtype_size(t);
  default:
    return 0;
  }
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
  if (value == NULL) {
    ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "value is NULL. Remedy: pass the address of a %s value",
              acl__nn_dtype_name(dataType));
    return NULL;
  }
  size_t n = acl__nn_scalar_size(dataType);
  if (n == 0) {
    ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
              "dataType %s cannot be a scalar. Remedy: use ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, an integer "
              "type, ACL_BOOL, a complex or an 8/6/4-bit float type",
              acl__nn_dtype_name(dataType));
    return NULL;
  }
  aclScalar *s = calloc(1, sizeof *s);
  if (s == NULL) {
    ACL__FAIL(ACLNN_ERR_INNER, "out of host memory for the scalar");
    return NULL;
  }
  s->dtype = dataType;
  memcpy(s->v.raw, value, n);
  if (dataType == ACL_BOOL)
    s->v.u8 = s->v.u8 != 0;
  acl__handle_register(s, ACL__H_NN_SCALAR);
  return s;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
  if (scalar == NULL)
    return ACLNN_SUCCESS;
  int rc = acl__nn_check(__func__, "scalar", scalar, ACL__H_NN_SCALAR, "aclCreateScalar");
  if (rc != 0)
    return rc;
  acl__nn_release((void *)(uintptr_t)scalar);
  return ACLNN_SUCCESS;
}

/* ---- arrays ------------------------------------------------------------------------ */

/* A header of `size` and `size` elements of `esize` copied from value. */
static void *acl__nn_array_new(const char *api, const void *value, uint64_t size, size_t esize, size_t header,
                               acl__handle_type type) {
  if (value == NULL && size > 0) {
    acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__,
              "value is NULL but size is %llu. Remedy: pass the values, or size 0 for an empty array",
              (unsigned long long)size);
    return NULL;
  }
  if (size > (SIZE_MAX - header) / esize) {
    acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__, "size %llu is too large", (unsigned long long)size);
    return NULL;
  }
  unsigned char *a = malloc(header + (size_t)size * esize);
  if (a == NULL) {
    acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for %llu elements",
              (unsigned long long)size);
    return NULL;
  }
  memcpy(a, &size, sizeof size);
  if (size > 0)
    memcpy(a + header, value, (size_t)size * esize);
  acl__handle_register(a, type);
  return a;
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
  return acl__nn_array_new(__func__, value, size, sizeof(int64_t), offsetof(aclIntArray, v), ACL__H_NN_INT_ARRAY);
}

aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size) {
  return acl__nn_array_new(__func__, value, size, sizeof(float), offsetof(aclFloatArray, v), ACL__H_NN_FLOAT_ARRAY);
}

aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
  return acl__nn_array_new(__func__, value, size, sizeof(bool), offsetof(aclBoolArray, v), ACL__H_NN_BOOL_ARRAY);
}

static aclnnStatus acl__nn_array_destroy(const char *api, const void *a, acl__handle_type type, const char *maker) {
  if (a == NULL)
    return ACLNN_SUCCESS;
  int rc = acl__nn_check(api, "array", a, type, maker);
  if (rc != 0)
    return rc;
  acl__nn_release((void *)(uintptr_t)a);
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
  return acl__nn_array_destroy(__func__, array, ACL__H_NN_INT_ARRAY, "aclCreateIntArray");
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray *array) {
  return acl__nn_array_destroy(__func__, array, ACL__H_NN_FLOAT_ARRAY, "aclCreateFloatArray");
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray *array) {
  return acl__nn_array_destroy(__func__, array, ACL__H_NN_BOOL_ARRAY, "aclCreateBoolArray");
}

static aclnnStatus acl__nn_array_size(const char *api, const char *name, const void *a, acl__handle_type type,
                                      const char *maker, uint64_t *size) {
  int rc = acl__nn_check(api, name, a, type, maker);
  if (rc == 0 && (rc = acl__nn_out_arg(api, "size", size)) == 0)
    memcpy(size, a, sizeof *size);
  return rc;
}

aclnnStatus aclGetIntArraySize(const aclIntArray *array, uint64_t *size) {
  return acl__nn_array_size(__func__, "array", array, ACL__H_NN_INT_ARRAY, "aclCreateIntArray", size);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray *array, uint64_t *size) {
  return acl__nn_array_size(__func__, "array", array, ACL__H_NN_FLOAT_ARRAY, "aclCreateFloatArray", size);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray *array, uint64_t *size) {
  return acl__nn_array_size(__func__, "array", array, ACL__H_NN_BOOL_ARRAY, "aclCreateBoolArray", size);
}

/* ---- lists ------------------------------------------------------------------------- */

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
  if (value == NULL)
    size = 0;
  return acl__nn_array_new(__func__, value, size, sizeof(aclTensor *), offsetof(aclTensorList, v),
                           ACL__H_NN_TENSOR_LIST);
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size) {
  if (value == NULL)
    size = 0;
  return acl__nn_array_new(__func__, value, size, sizeof(aclScalar *), offsetof(aclScalarList, v),
                           ACL__H_NN_SCALAR_LIST);
}

/* The list owns its elements: each live one is destroyed with it (an
 * element destroyed separately already, or listed twice, is skipped). */
aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
  if (array == NULL)
    return ACLNN_SUCCESS;
  int rc = acl__nn_check(__func__, "array", array, ACL__H_NN_TENSOR_LIST, "aclCreateTensorList");
  if (rc != 0)
    return rc;
  for (uint64_t i = 0; i < array->size; i++)
    if (array->v[i] != NULL && acl__handle_valid(array->v[i], ACL__H_NN_TENSOR))
      acl__nn_tensor_free(array->v[i]);
  acl__nn_release((void *)(uintptr_t)array);
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array) {
  if (array == NULL)
    return ACLNN_SUCCESS;
  int rc = acl__nn_check(__func__, "array", array, ACL__H_NN_SCALAR_LIST, "aclCreateScalarList");
  if (rc != 0)
    return rc;
  for (uint64_t i = 0; i < array->size; i++)
    if (array->v[i] != NULL && acl__handle_valid(array->v[i], ACL__H_NN_SCALAR)) {
      acl__nn_release(array->v[i]);
    }
  acl__nn_release((void *)(uintptr_t)array);
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
  return acl__nn_array_size(__func__, "tensorList", tensorList, ACL__H_NN_TENSOR_LIST, "aclCreateTensorList", size);
}

/* The elements of a tensor-list parameter (their pointers, which may be NULL)
 * and *size, or NULL after recording 161001 / 161002 for `api`. */
aclTensor *const *acl__nn_tensor_list_arg(const char *api, const char *name, const aclTensorList *l, uint64_t *size,
                                          int *rc) {
  *rc = acl__nn_check(api, name, l, ACL__H_NN_TENSOR_LIST, "aclCreateTensorList");
  if (*rc != 0)
    return NULL;
  *size = l->size;
  return l->v;
}

aclnnStatus aclGetScalarListSize(const aclScalarList *scalarList, uint64_t *size) {
  return acl__nn_array_size(__func__, "scalarList", scalarList, ACL__H_NN_SCALAR_LIST, "aclCreateScalarList", size);
}
