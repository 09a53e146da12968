/*
 * model_config_api.c - loading a model from a configuration handle:
 * aclmdlCreateConfigHandle, aclmdlSetConfigOpt, aclmdlLoadWithConfig,
 * aclmdlDestroyConfigHandle.
 *
 * A handle is plain host data (no aclInit needed to make, set or destroy
 * one), registered in the handle table so that a destroyed or foreign
 * pointer is rejected with a message.  Each attribute takes a value of one
 * exact size: int32_t (..._INT32), size_t (..._SIZET and the three enum-like
 * ones), or a pointer (..._PTR, given as the address of the pointer).
 * Strings (ACL_MDL_PATH_PTR, ACL_MDL_WEIGHT_PATH_PTR and openacl's
 * OPENACL_MDL_PRECISION_MODE_PTR) are copied when set; buffers are not.
 *
 * What a load uses: the load type, then the path or the model's bytes, the
 * working and weight memory of the ...WITH_MEM types, and the precision mode.
 * The queue types (..._WITH_Q) need the data-transfer queues of issue 13 and
 * are refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.  The attributes that
 * describe a card's task streams and kernels (ACL_MDL_KERNEL_PTR and the
 * like) are kept and have no effect on the CPU device; ACL_MDL_PRIORITY_INT32
 * is kept, as aclmdlSetAttribute would be.  A handle is not locked: do not
 * set it on one thread while another loads with it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/model_load.h"
#include "acl/process.h"
#include "common/errmsg.h"
#include "common/precision.h"
#include "openacl/openacl.h"
#include "rt/rt.h"
#include "prof/prof.h"

#define ATTR_SLOTS (ACL_NPU_PERF_MODE + 1)

struct aclmdlConfigHandle {
  uint64_t set;               /* bit a: attribute a was set (a < ATTR_SLOTS) */
  uint64_t value[ATTR_SLOTS]; /* the value of each, as its bits (int32, size_t or pointer) */
  char *path;                 /* ACL_MDL_PATH_PTR's string */
  char *weight_path;          /* ACL_MDL_WEIGHT_PATH_PTR's string */
  int precision_set;          /* OPENACL_MDL_PRECISION_MODE_PTR was set */
  int precision;              /* its ACL__PREC_* value */
};

enum { KIND_INT32 = 1, KIND_SIZET, KIND_PTR, KIND_STRING };

/* The size and kind of each vendor attribute's value. */
static int attr_kind(int attr) {
  switch (attr) {
  case ACL_MDL_PRIORITY_INT32:
  case ACL_MDL_WITHOUT_GRAPH_INT32:
    return KIND_INT32;
  case ACL_MDL_PATH_PTR:
  case ACL_MDL_WEIGHT_PATH_PTR:
    return KIND_STRING;
  case ACL_MDL_MEM_ADDR_PTR:
  case ACL_MDL_WEIGHT_ADDR_PTR:
  case ACL_MDL_WORKSPACE_ADDR_PTR:
  case ACL_MDL_INPUTQ_ADDR_PTR:
  case ACL_MDL_OUTPUTQ_ADDR_PTR:
  case ACL_MDL_MODEL_DESC_PTR:
  case ACL_MDL_KERNEL_PTR:
  case ACL_MDL_KERNEL_ARGS_PTR:
  case ACL_MDL_STATIC_TASK_PTR:
  case ACL_MDL_DYNAMIC_TASK_PTR:
  case ACL_MDL_FIFO_PTR:
    return KIND_PTR;
  default:
    return attr >= 0 && attr < ATTR_SLOTS ? KIND_SIZET : 0;
  }
}

static int handle_check(const char *api, const aclmdlConfigHandle *h) {
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "handle is NULL; pass a handle made by aclmdlCreateConfigHandle");
  if (acl__handle_valid(h, ACL__H_MODEL_CONFIG))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(h, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "handle %p is a %s handle, not an aclmdlConfigHandle", (const void *)h,
                       acl__handle_type_name((acl__handle_type)t));
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "handle %p is not a live aclmdlConfigHandle (it was destroyed, or never made by "
                   "aclmdlCreateConfigHandle)", (const void *)h);
}

aclmdlConfigHandle *aclmdlCreateConfigHandle(void) {
  ACL__PROF_API_SCOPE();
  aclmdlConfigHandle *h = calloc(1, sizeof(*h));
  if (h == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a model load configuration");
    return NULL;
  }
  acl__handle_register(h, ACL__H_MODEL_CONFIG);
  if (!acl__handle_valid(h, ACL__H_MODEL_CONFIG)) {
    free(h);
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory to register a model load configuration");
    return NULL;
  }
  return h;
}

aclError aclmdlDestroyConfigHandle(aclmdlConfigHandle *handle) {
  ACL__PROF_API_SCOPE();
  int rc = handle_check(__func__, handle);
  if (rc != 0)
    return rc;
  acl__handle_unregister(handle);
  free(handle->path);
  free(handle->weight_path);
  free(handle);
  return ACL_SUCCESS;
}

/* Replaces *slot with a copy of the string whose address is attrValue. */
static int set_string(const char *api, char **slot, const void *attrValue, const char *what) {
  const char *s = *(const char *const *)attrValue;
  if (s == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "the %s is NULL: attrValue must be the address of a `const char *` that points at the %s",
                     what, what);
  char *copy = strdup(s);
  if (copy == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the %s", what);
  free(*slot);
  *slot = copy;
  return 0;
}

static int set_precision(const char *api, aclmdlConfigHandle *h, const void *attrValue) {
  const char *name = *(const char *const *)attrValue;
  int prec = 0;
  if (name == NULL || acl__precision_parse(name, &prec) != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "OPENACL_MDL_PRECISION_MODE_PTR: '%s' is not a precision mode; use one of %s",
                     name != NULL ? name : "(NULL)", acl__precision_names());
  h->precision = prec;
  h->precision_set = 1;
  return 0;
}

aclError aclmdlSetConfigOpt(aclmdlConfigHandle *handle, aclmdlConfigAttr attr, const void *attrValue,
                            size_t valueSize) {
  ACL__PROF_API_SCOPE();
  const char *api = __func__;
  int rc = handle_check(api, handle);
  if (rc != 0)
    return rc;
  if (attrValue == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "attrValue is NULL; pass the address of the value for attribute %d", (int)attr);
  int a = (int)attr;
  if (a == OPENACL_MDL_PRECISION_MODE_PTR) {
    if (valueSize != sizeof(const char *))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "valueSize is %zu; OPENACL_MDL_PRECISION_MODE_PTR takes the address of a `const char *` "
                       "(valueSize %zu)", valueSize, sizeof(const char *));
    return set_precision(api, handle, attrValue);
  }
  int kind = attr_kind(a);
  if (kind == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "attr %d is not an aclmdlConfigAttr (ACL_MDL_PRIORITY_INT32 = 0 to ACL_NPU_PERF_MODE = %d, or "
                     "openacl's OPENACL_MDL_PRECISION_MODE_PTR)", a, ACL_NPU_PERF_MODE);
  size_t want = kind == KIND_INT32 ? sizeof(int32_t) : kind == KIND_SIZET ? sizeof(size_t) : sizeof(void *);
  if (valueSize != want)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "valueSize is %zu; attribute %d takes %s (valueSize %zu)", valueSize, a,
                     kind == KIND_INT32   ? "an int32_t"
                     : kind == KIND_SIZET ? "a size_t"
                     : kind == KIND_PTR   ? "the address of a pointer"
                                          : "the address of a `const char *`",
                     want);
  uint64_t v = 0;
  if (kind == KIND_INT32) {
    int32_t x;
    memcpy(&x, attrValue, sizeof(x));
    v = (uint64_t)(int64_t)x;
  } else if (kind == KIND_SIZET) {
    size_t x;
    memcpy(&x, attrValue, sizeof(x));
    v = (uint64_t)x;
  } else {
    void *p;
    memcpy(&p, attrValue, sizeof(p));
    v = (uint64_t)(uintptr_t)p;
  }
  if (a == ACL_MDL_LOAD_TYPE_SIZET && (v < ACL_MDL_LOAD_FROM_FILE || v > ACL_MDL_LOAD_FROM_MEM_WITH_Q))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "ACL_MDL_LOAD_TYPE_SIZET is %llu; use ACL_MDL_LOAD_FROM_FILE (1) to ACL_MDL_LOAD_FROM_MEM_WITH_Q "
                     "(6)", (unsigned long long)v);
  if (a == ACL_MDL_WORKSPACE_MEM_OPTIMIZE && v > ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "ACL_MDL_WORKSPACE_MEM_OPTIMIZE is %llu; use ACL_WORKSPACE_MEM_OPTIMIZE_DEFAULT (0) or "
                     "ACL_WORKSPACE_MEM_OPTIMIZE_INPUTOUTPUT (1)", (unsigned long long)v);
  if (a == ACL_MDL_PATH_PTR && (rc = set_string(api, &handle->path, attrValue, "model path")) != 0)
    return rc;
  if (a == ACL_MDL_WEIGHT_PATH_PTR &&
      (rc = set_string(api, &handle->weight_path, attrValue, "weight path")) != 0)
    return rc;
  handle->value[a] = v;
  handle->set |= 1ull << a;
  return ACL_SUCCESS;
}

static int has(const aclmdlConfigHandle *h, int a) { return (int)((h->set >> a) & 1); }

static void *ptr_of(const aclmdlConfigHandle *h, int a) { return (void *)(uintptr_t)h->value[a]; }

aclError aclmdlLoadWithConfig(const aclmdlConfigHandle *handle, uint32_t *modelId) {
  ACL__PROF_API_SCOPE();
  const char *api = __func__;
  int rc = acl__process_require_init(api);
  if (rc != 0)
    return rc;
  if ((rc = handle_check(api, handle)) != 0)
    return rc;
  if (!has(handle, ACL_MDL_LOAD_TYPE_SIZET))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "the handle has no load type. Remedy: set ACL_MDL_LOAD_TYPE_SIZET (ACL_MDL_LOAD_FROM_FILE, "
                     "..._FROM_MEM, ..._WITH_MEM) with aclmdlSetConfigOpt");
  size_t type = (size_t)handle->value[ACL_MDL_LOAD_TYPE_SIZET];
  if (type == ACL_MDL_LOAD_FROM_FILE_WITH_Q || type == ACL_MDL_LOAD_FROM_MEM_WITH_Q)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "load type %zu (with input and output queues) needs the data-transfer queues, which openacl "
                     "does not have yet (issue 13). Remedy: load with ACL_MDL_LOAD_FROM_FILE or ..._FROM_MEM and "
                     "pass the data in datasets", type);
  if (handle->weight_path != NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "ACL_MDL_WEIGHT_PATH_PTR is set ('%s'), but an ONNX model keeps its weights inside the model "
                     "(or in external-data files named by the model itself). Remedy: leave it unset",
                     handle->weight_path);
  int from_file = type == ACL_MDL_LOAD_FROM_FILE || type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM;
  int with_mem = type == ACL_MDL_LOAD_FROM_FILE_WITH_MEM || type == ACL_MDL_LOAD_FROM_MEM_WITH_MEM;
  const void *data = NULL;
  size_t size = 0;
  if (from_file && handle->path == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "load type %zu reads a file, but ACL_MDL_PATH_PTR is not set. Remedy: set it to the model's "
                     "path", type);
  if (!from_file) {
    data = ptr_of(handle, ACL_MDL_MEM_ADDR_PTR);
    size = (size_t)handle->value[ACL_MDL_MEM_SIZET];
    if (data == NULL || !has(handle, ACL_MDL_MEM_SIZET))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "load type %zu reads the model from memory, but %s. Remedy: set ACL_MDL_MEM_ADDR_PTR and "
                       "ACL_MDL_MEM_SIZET to the model's bytes", type,
                       data == NULL ? "ACL_MDL_MEM_ADDR_PTR is not set (or NULL)" : "ACL_MDL_MEM_SIZET is not set");
  }
  acl__model_mem mem = {0};
  if (with_mem) {
    mem.work = ptr_of(handle, ACL_MDL_WORKSPACE_ADDR_PTR);
    mem.work_size = (size_t)handle->value[ACL_MDL_WORKSPACE_SIZET];
    mem.weight = ptr_of(handle, ACL_MDL_WEIGHT_ADDR_PTR);
    mem.weight_size = (size_t)handle->value[ACL_MDL_WEIGHT_SIZET];
  }
  int precision = handle->precision_set ? handle->precision : acl__process_precision_mode();
  return acl__mdl_load(api, from_file ? handle->path : NULL, data, size, with_mem ? &mem : NULL, precision,
                       modelId);
}
