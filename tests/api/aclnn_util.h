/*
 * aclnn_util.h - helpers of the aclnn tests (public API only): device
 * tensors made from double values in any element type, read back as
 * doubles, and a reference side that rounds like the element types do.
 *
 * The reference conversions are the test's own (float16 through the public
 * aclFloatToFloat16, bfloat16 by bits, integers wrapping), so the operators
 * are checked against an independent model of the types, computed in
 * double precision.
 */
#ifndef OPENACL_TEST_ACLNN_UTIL_H
#define OPENACL_TEST_ACLNN_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_ops_math.h"
#include "harness.h"

static inline size_t nt_size(aclDataType t) {
  switch (t) {
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_BOOL:
    return 1;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
  case ACL_UINT16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32:
    return 4;
  case ACL_COMPLEX64:
    return 8;
  case ACL_COMPLEX128:
    return 16;
  default:
    return 8;
  }
}

static inline int nt_is_float(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

static inline uint16_t nt_f2bf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (f != f)
    return 0x7fc0;
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

static inline float nt_bf2f(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static inline int64_t nt_f2i(double v) {
  if (v != v)
    return 0;
  if (v >= 9.2e18)
    return INT64_MAX;
  if (v <= -9.2e18)
    return INT64_MIN;
  return (int64_t)v;
}

/* v as an element of type t would hold it (rounded, wrapped, 0/1). */
static inline double nt_round(aclDataType t, double v) {
  switch (t) {
  case ACL_FLOAT:
    return (float)v;
  case ACL_FLOAT16:
    return aclFloat16ToFloat(aclFloatToFloat16((float)v));
  case ACL_BF16:
    return nt_bf2f(nt_f2bf((float)v));
  case ACL_DOUBLE:
    return v;
  case ACL_INT8:
    return (int8_t)(uint8_t)(uint64_t)nt_f2i(v);
  case ACL_UINT8:
    return (uint8_t)(uint64_t)nt_f2i(v);
  case ACL_INT16:
    return (int16_t)(uint16_t)(uint64_t)nt_f2i(v);
  case ACL_UINT16:
    return (uint16_t)(uint64_t)nt_f2i(v);
  case ACL_INT32:
    return (int32_t)(uint32_t)(uint64_t)nt_f2i(v);
  case ACL_UINT32:
    return (uint32_t)(uint64_t)nt_f2i(v);
  case ACL_INT64:
    return (double)nt_f2i(v);
  case ACL_BOOL:
    return v != 0;
  default:
    return v;
  }
}

static inline void nt_put(aclDataType t, void *p, double v) {
  switch (t) {
  case ACL_FLOAT:
    *(float *)p = (float)v;
    break;
  case ACL_FLOAT16:
    *(uint16_t *)p = aclFloatToFloat16((float)v);
    break;
  case ACL_BF16:
    *(uint16_t *)p = nt_f2bf((float)v);
    break;
  case ACL_DOUBLE:
    *(double *)p = v;
    break;
  case ACL_INT8:
    *(int8_t *)p = (int8_t)nt_round(t, v);
    break;
  case ACL_UINT8:
    *(uint8_t *)p = (uint8_t)nt_round(t, v);
    break;
  case ACL_INT16:
    *(int16_t *)p = (int16_t)nt_round(t, v);
    break;
  case ACL_UINT16:
    *(uint16_t *)p = (uint16_t)nt_round(t, v);
    break;
  case ACL_INT32:
    *(int32_t *)p = (int32_t)nt_round(t, v);
    break;
  case ACL_UINT32:
    *(uint32_t *)p = (uint32_t)nt_round(t, v);
    break;
  case ACL_INT64:
    *(int64_t *)p = nt_f2i(v);
    break;
  case ACL_BOOL:
    *(uint8_t *)p = v != 0;
    break;
  default:
    memset(p, 0, nt_size(t));
    break;
  }
}

static inline double nt_get(aclDataType t, const void *p) {
  switch (t) {
  case ACL_FLOAT:
    return *(const float *)p;
  case ACL_FLOAT16:
    return aclFloat16ToFloat(*(const uint16_t *)p);
  case ACL_BF16:
    return nt_bf2f(*(const uint16_t *)p);
  case ACL_DOUBLE:
    return *(const double *)p;
  case ACL_INT8:
    return *(const int8_t *)p;
  case ACL_UINT8:
    return *(const uint8_t *)p;
  case ACL_INT16:
    return *(const int16_t *)p;
  case ACL_UINT16:
    return *(const uint16_t *)p;
  case ACL_INT32:
    return *(const int32_t *)p;
  case ACL_UINT32:
    return *(const uint32_t *)p;
  case ACL_INT64:
    return (double)*(const int64_t *)p;
  case ACL_BOOL:
    return *(const uint8_t *)p;
  default:
    return 0;
  }
}

static inline const char *nt_name(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
    return "f32";
  case ACL_FLOAT16:
    return "f16";
  case ACL_BF16:
    return "bf16";
  case ACL_DOUBLE:
    return "f64";
  case ACL_INT8:
    return "s8";
  case ACL_UINT8:
    return "u8";
  case ACL_INT16:
    return "s16";
  case ACL_UINT16:
    return "u16";
  case ACL_INT32:
    return "s32";
  case ACL_UINT32:
    return "u32";
  case ACL_INT64:
    return "s64";
  case ACL_BOOL:
    return "bool";
  default:
    return "?";
  }
}

/* ---- device tensors ------------------------------------------------------------ */

/* A tensor and the device memory under it (its storage: `elems` elements). */
typedef struct nt_tensor {
  aclTensor *t;
  void *dev;
  aclDataType dt;
  int64_t ndim, dims[9], strides[9], offset, elems;
} nt_tensor;

static inline int64_t nt_numel(int64_t ndim, const int64_t *dims) {
  int64_t n = 1;
  for (int64_t i = 0; i < ndim; i++)
    n *= dims[i];
  return n;
}

/* A view (dims, strides, offset) over `elems` elements of fresh device
 * memory that hold fill[0..elems) (NULL: the value 77 everywhere). */
static inline nt_tensor nt_view(aclDataType dt, int64_t ndim, const int64_t *dims, const int64_t *strides,
                                int64_t offset, int64_t elems, const double *fill) {
  nt_tensor x;
  memset(&x, 0, sizeof x);
  x.dt = dt;
  x.ndim = ndim;
  x.offset = offset;
  x.elems = elems;
  for (int64_t i = 0; i < ndim; i++) {
    x.dims[i] = dims[i];
    x.strides[i] = strides[i];
  }
  size_t bytes = (size_t)(elems > 0 ? elems : 1) * nt_size(dt);
  unsigned char *host = calloc(1, bytes);
  CHECK_NOT_NULL(host);
  for (int64_t i = 0; i < elems; i++)
    nt_put(dt, host + (size_t)i * nt_size(dt), fill ? fill[i] : 77);
  CHECK_INT_EQ(aclrtMalloc(&x.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(x.dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  free(host);
  int64_t sdims[1] = {elems};
  x.t = aclCreateTensor(dims, (uint64_t)ndim, dt, strides, offset, ACL_FORMAT_ND, sdims, 1, x.dev);
  CHECK_NOT_NULL(x.t);
  return x;
}

/* A contiguous tensor holding v[0..numel) (NULL: 77 everywhere). */
static inline nt_tensor nt_make(aclDataType dt, int64_t ndim, const int64_t *dims, const double *v) {
  int64_t st[9], s = 1;
  for (int64_t i = ndim; i-- > 0;) {
    st[i] = s;
    s *= dims[i];
  }
  return nt_view(dt, ndim, dims, st, 0, nt_numel(ndim, dims), v);
}

/* The view's elements in row-major order, as doubles (malloc'd). */
static inline double *nt_read(const nt_tensor *x) {
  size_t bytes = (size_t)(x->elems > 0 ? x->elems : 1) * nt_size(x->dt);
  unsigned char *host = malloc(bytes);
  CHECK_NOT_NULL(host);
  CHECK_INT_EQ(aclrtMemcpy(host, bytes, x->dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  int64_t n = nt_numel(x->ndim, x->dims);
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  CHECK_NOT_NULL(v);
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, off = x->offset;
    for (int64_t d = x->ndim; d-- > 0;) {
      off += (rem % x->dims[d]) * x->strides[d];
      rem /= x->dims[d];
    }
    v[i] = nt_get(x->dt, host + (size_t)off * nt_size(x->dt));
  }
  free(host);
  return v;
}

/* The whole storage as doubles (malloc'd). */
static inline double *nt_read_storage(const nt_tensor *x) {
  size_t bytes = (size_t)x->elems * nt_size(x->dt);
  unsigned char *host = malloc(bytes);
  CHECK_NOT_NULL(host);
  CHECK_INT_EQ(aclrtMemcpy(host, bytes, x->dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  double *v = malloc((size_t)x->elems * sizeof(double));
  for (int64_t i = 0; i < x->elems; i++)
    v[i] = nt_get(x->dt, host + (size_t)i * nt_size(x->dt));
  free(host);
  return v;
}

static inline void nt_free(nt_tensor *x) {
  if (x->t != NULL)
    CHECK_INT_EQ(aclDestroyTensor(x->t), 0);
  if (x->dev != NULL)
    CHECK_INT_EQ(aclrtFree(x->dev), ACL_SUCCESS);
  memset(x, 0, sizeof *x);
}

static inline aclScalar *nt_scalar(aclDataType dt, double v) {
  unsigned char buf[16] = {0};
  nt_put(dt, buf, v);
  aclScalar *s = aclCreateScalar(buf, dt);
  CHECK_NOT_NULL(s);
  return s;
}

/* ---- comparing ------------------------------------------------------------------ */

/* The relative tolerance of results of type t computed in type c. */
static inline double nt_rtol(aclDataType t) {
  switch (t) {
  case ACL_FLOAT16:
    return 2e-3;
  case ACL_BF16:
    return 1.6e-2;
  case ACL_FLOAT:
    return 2e-6;
  case ACL_DOUBLE:
    return 1e-13;
  default:
    return 0;
  }
}

static inline int nt_close(double got, double want, double rtol) {
  if (want != want)
    return got != got;
  if (isinf(want))
    return got == want;
  /* relative, with an absolute floor for results near 0 (cancellation) */
  return fabs(got - want) <= rtol * (fabs(want) + 4);
}

/* Compares n results with the reference, failing with the first difference. */
#define NT_CHECK_ALL(what, got, want, n, rtol)                                                                         \
  do {                                                                                                                 \
    for (int64_t nt_i = 0; nt_i < (int64_t)(n); nt_i++)                                                                \
      if (!nt_close((got)[nt_i], (want)[nt_i], (rtol)))                                                                \
        th_fail(__FILE__, __LINE__, "%s: element %lld is %.17g, want %.17g", (what), (long long)nt_i, (got)[nt_i],     \
                (want)[nt_i]);                                                                                         \
  } while (0)

/* ---- running ------------------------------------------------------------------ */

/* Phase 2 for an executor from any operator: the operator's own function,
 * with a workspace when phase 1 asked for one, then synchronising. */
typedef aclnnStatus (*nt_phase2)(void *, uint64_t, aclOpExecutor *, aclrtStream);

static inline void nt_run(nt_phase2 fn, uint64_t ws, aclOpExecutor *ex, aclrtStream st) {
  void *w = NULL;
  if (ws > 0)
    CHECK_INT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int rc = fn(w, ws, ex, st);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "phase 2 returned %d: %s", rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  if (w != NULL)
    CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
}

/* Phase 1 must succeed. */
#define NT_OK(call)                                                                                                    \
  do {                                                                                                                 \
    int nt_rc = (call);                                                                                                \
    if (nt_rc != 0)                                                                                                    \
      th_fail(__FILE__, __LINE__, "%s returned %d: %s", #call, nt_rc, aclGetRecentErrMsg());                           \
  } while (0)

/* A call fails with `code` and aclGetRecentErrMsg holds `text`. */
#define NT_FAILS(call, code, text)                                                                                     \
  do {                                                                                                                 \
    (void)aclGetRecentErrMsg();                                                                                        \
    int nt_rc = (call);                                                                                                \
    if (nt_rc != (code))                                                                                               \
      th_fail(__FILE__, __LINE__, "%s returned %d, want %d (%s)", #call, nt_rc, (int)(code), aclGetRecentErrMsg());    \
    CHECK_STR_HAS(aclGetRecentErrMsg(), (text));                                                                       \
  } while (0)

static inline aclrtStream nt_up(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  return st;
}

static inline void nt_down(aclrtStream st) {
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* Deterministic values: a small LCG. */
static inline double nt_rand(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return (double)(*s >> 8) / 16777216.0;
}

#endif
