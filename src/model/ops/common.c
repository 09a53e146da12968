/* common.c - helpers shared by the reference kernels (see ops.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int acl__op_fail(acl__op_ctx *ctx, int code, const char *fmt, ...) {
  char path[256], msg[512];
  snprintf(path, sizeof(path), "graph.node[%d] (\"%s\", %s)", ctx->node_index, ctx->node->name,
           ctx->node->op_type);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  acl__diags_add(ctx->diags, ACL__DIAG_ERROR, code, path, "%s", msg);
  return code;
}

int acl__op_alloc(acl__op_ctx *ctx, size_t k, int onnx_type, int rank, const int64_t *dims) {
  if (k >= ctx->n_out)
    return 0; /* the node does not declare this output: nothing to fill */
  if (rank < 0 || rank > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "output rank %d out of range", rank);
  for (int i = 0; i < rank; i++)
    if (dims[i] < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "output dim %d is negative (%lld)", i,
                          (long long)dims[i]);
  if (acl__op_esize(onnx_type) == 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(onnx_type));
  if (acl__tensor_alloc(&ctx->out[k], onnx_type, rank, dims) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate output %zu", k);
  return 0;
}

int acl__op_need(acl__op_ctx *ctx, size_t min) {
  for (size_t i = 0; i < min; i++)
    if (i >= ctx->n_in || ctx->in[i] == NULL)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu is required", i);
  return 0;
}

const acl__graph_attr *acl__op_attr(const acl__op_ctx *ctx, const char *name) {
  for (size_t i = 0; i < ctx->node->n_attrs; i++)
    if (strcmp(ctx->node->attrs[i].name, name) == 0)
      return &ctx->node->attrs[i];
  return NULL;
}

int64_t acl__op_attr_int(const acl__op_ctx *ctx, const char *name, int64_t dflt) {
  const acl__graph_attr *a = acl__op_attr(ctx, name);
  return a != NULL && a->type == ACL__ATTR_INT ? a->i : dflt;
}

float acl__op_attr_float(const acl__op_ctx *ctx, const char *name, float dflt) {
  const acl__graph_attr *a = acl__op_attr(ctx, name);
  if (a == NULL)
    return dflt;
  if (a->type == ACL__ATTR_FLOAT)
    return a->f;
  if (a->type == ACL__ATTR_INT)
    return (float)a->i;
  return dflt;
}

const char *acl__op_attr_str(const acl__op_ctx *ctx, const char *name, const char *dflt) {
  const acl__graph_attr *a = acl__op_attr(ctx, name);
  return a != NULL && a->type == ACL__ATTR_STRING ? a->s : dflt;
}

int64_t acl__op_attr_ints(const acl__op_ctx *ctx, const char *name, const int64_t **vals) {
  const acl__graph_attr *a = acl__op_attr(ctx, name);
  *vals = NULL;
  if (a == NULL || a->type != ACL__ATTR_INTS)
    return -1;
  *vals = a->ints;
  return (int64_t)a->count;
}

/* ---- element access -------------------------------------------------------- */

size_t acl__op_esize(int t) {
  return acl__graph_onnx_elem_size(t);
}

int acl__op_numeric(int t) {
  switch (t) {
  case ACL__ONNX_FLOAT: case ACL__ONNX_DOUBLE: case ACL__ONNX_FLOAT16: case ACL__ONNX_BFLOAT16:
  case ACL__ONNX_INT8: case ACL__ONNX_INT16: case ACL__ONNX_INT32: case ACL__ONNX_INT64:
  case ACL__ONNX_UINT8: case ACL__ONNX_UINT16: case ACL__ONNX_UINT32: case ACL__ONNX_UINT64:
  case ACL__ONNX_BOOL:
    return 1;
  default:
    return 0;
  }
}

int acl__op_is_float(int t) {
  return t == ACL__ONNX_FLOAT || t == ACL__ONNX_DOUBLE || t == ACL__ONNX_FLOAT16 || t == ACL__ONNX_BFLOAT16;
}

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float f;
  if (exp == 0)
    f = ldexpf((float)man, -24);
  else if (exp == 31)
    f = man ? NAN : INFINITY;
  else
    f = ldexpf((float)(man | 0x400), (int)exp - 25);
  return sign ? -f : f;
}

static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  if (isnan(f))
    return sign | 0x7e00;
  float a = fabsf(f);
  if (a >= 65520.0f)
    return sign | 0x7c00;
  if (a < 6.103515625e-05f) { /* subnormal: units of 2^-24, round to nearest even */
    float q = nearbyintf(a * 16777216.0f);
    return sign | (uint16_t)q;
  }
  int e;
  float m = frexpf(a, &e);                    /* a = m * 2^e, m in [0.5, 1) */
  float q = nearbyintf(ldexpf(m, 11));        /* 11 significant bits */
  if (q >= 2048.0f) {
    q /= 2;
    e++;
  }
  return sign | (uint16_t)(((e + 14) << 10) | ((uint32_t)q & 0x3ff));
}

static float bf16_to_float(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static uint16_t float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (isnan(f))
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

double acl__op_get(const acl__tensor *t, int64_t i) {
  const void *p = t->data;
  switch (t->onnx_type) {
  case ACL__ONNX_FLOAT: return ((const float *)p)[i];
  case ACL__ONNX_DOUBLE: return ((const double *)p)[i];
  case ACL__ONNX_FLOAT16: return half_to_float(((const uint16_t *)p)[i]);
  case ACL__ONNX_BFLOAT16: return bf16_to_float(((const uint16_t *)p)[i]);
  case ACL__ONNX_INT8: return ((const int8_t *)p)[i];
  case ACL__ONNX_INT16: return ((const int16_t *)p)[i];
  case ACL__ONNX_INT32: return ((const int32_t *)p)[i];
  case ACL__ONNX_INT64: return (double)((const int64_t *)p)[i];
  case ACL__ONNX_UINT8: return ((const uint8_t *)p)[i];
  case ACL__ONNX_UINT16: return ((const uint16_t *)p)[i];
  case ACL__ONNX_UINT32: return ((const uint32_t *)p)[i];
  case ACL__ONNX_UINT64: return (double)((const uint64_t *)p)[i];
  case ACL__ONNX_BOOL: return ((const uint8_t *)p)[i] != 0;
  default: return 0;
  }
}

/* Float -> integer conversion saturates and maps NaN to 0 instead of being
 * undefined behaviour. */
static int64_t to_i64(double v, double lo, double hi) {
  if (isnan(v))
    return 0;
  if (v <= lo)
    return (int64_t)lo;
  if (v >= hi)
    return (int64_t)hi;
  return (int64_t)v;
}

void acl__op_set(acl__tensor *t, int64_t i, double v) {
  void *p = t->data;
  switch (t->onnx_type) {
  case ACL__ONNX_FLOAT: ((float *)p)[i] = (float)v; break;
  case ACL__ONNX_DOUBLE: ((double *)p)[i] = v; break;
  case ACL__ONNX_FLOAT16: ((uint16_t *)p)[i] = float_to_half((float)v); break;
  case ACL__ONNX_BFLOAT16: ((uint16_t *)p)[i] = float_to_bf16((float)v); break;
  case ACL__ONNX_INT8: ((int8_t *)p)[i] = (int8_t)to_i64(v, -128, 127); break;
  case ACL__ONNX_INT16: ((int16_t *)p)[i] = (int16_t)to_i64(v, -32768, 32767); break;
  case ACL__ONNX_INT32: ((int32_t *)p)[i] = (int32_t)to_i64(v, -2147483648.0, 2147483647.0); break;
  case ACL__ONNX_INT64:
    ((int64_t *)p)[i] = isnan(v) ? 0 : v >= 9223372036854775807.0 ? INT64_MAX
                                     : v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
    break;
  case ACL__ONNX_UINT8: ((uint8_t *)p)[i] = (uint8_t)to_i64(v, 0, 255); break;
  case ACL__ONNX_UINT16: ((uint16_t *)p)[i] = (uint16_t)to_i64(v, 0, 65535); break;
  case ACL__ONNX_UINT32: ((uint32_t *)p)[i] = (uint32_t)to_i64(v, 0, 4294967295.0); break;
  case ACL__ONNX_UINT64:
    ((uint64_t *)p)[i] = isnan(v) || v <= 0 ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
    break;
  case ACL__ONNX_BOOL: ((uint8_t *)p)[i] = v != 0; break;
  default: break;
  }
}

int64_t acl__op_get_i64(const acl__tensor *t, int64_t i) {
  switch (t->onnx_type) {
  case ACL__ONNX_INT64: return ((const int64_t *)t->data)[i];
  case ACL__ONNX_INT32: return ((const int32_t *)t->data)[i];
  default: return to_i64(acl__op_get(t, i), -9223372036854775808.0, 9223372036854775807.0);
  }
}

/* ---- shapes ----------------------------------------------------------------- */

int64_t acl__op_numel(int rank, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    n *= dims[i];
  return n;
}

void acl__op_strides(int rank, const int64_t *dims, int64_t *st) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    st[i] = s;
    s *= dims[i];
  }
}

int64_t acl__op_ints_in(const acl__tensor *t, int64_t *v, int64_t max) {
  int64_t n = acl__tensor_numel(t);
  if (n > max)
    return -1;
  for (int64_t i = 0; i < n; i++)
    v[i] = acl__op_get_i64(t, i);
  return n;
}

int acl__op_broadcast_shape(int ra, const int64_t *da, int rb, const int64_t *db, int *ro, int64_t *dout) {
  int r = ra > rb ? ra : rb;
  if (r > ACL__EXEC_MAX_RANK)
    return -1;
  for (int i = 0; i < r; i++) {
    int64_t a = i - (r - ra) >= 0 ? da[i - (r - ra)] : 1;
    int64_t b = i - (r - rb) >= 0 ? db[i - (r - rb)] : 1;
    if (a != b && a != 1 && b != 1)
      return -1;
    dout[i] = a == 1 ? b : a;
  }
  *ro = r;
  return 0;
}

void acl__op_bcast_strides(const acl__tensor *t, int ro, const int64_t *dout, int64_t *strides) {
  (void)dout;
  int64_t s = 1;
  for (int i = ro - 1; i >= 0; i--) {
    int ti = i - (ro - t->rank);
    if (ti < 0) {
      strides[i] = 0;
      continue;
    }
    strides[i] = t->dims[ti] == 1 ? 0 : s;
    s *= t->dims[ti];
  }
}

int acl__op_axis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank)
    return -1;
  return (int)(axis < 0 ? axis + rank : axis);
}
