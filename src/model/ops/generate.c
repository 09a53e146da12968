/*
 * generate.c - ops whose output is made rather than moved: ConstantOfShape,
 * Range, Size.  Range on floating types computes in double; integer types
 * stay exact.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* ---- ConstantOfShape / Range / Size ----------------------------------------- */

int acl__k_constant_of_shape(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  int64_t sh[ACL__EXEC_MAX_RANK];
  int64_t n = acl__op_ints_in(ctx->in[0], sh, ACL__EXEC_MAX_RANK);
  if (n < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shape too long");
  const acl__graph_attr *a = acl__op_attr(ctx, "value");
  int type = ACL__ONNX_FLOAT;
  const void *val = NULL;
  size_t vsize = 0;
  if (a != NULL) {
    if (a->type != ACL__ATTR_TENSOR || a->tensor == NULL)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "value must be a one-element tensor");
    type = a->tensor->onnx_type;
    val = a->tensor->data;
    vsize = a->tensor->data_size;
  }
  rc = acl__op_alloc(ctx, 0, type, (int)n, sh);
  if (rc != 0 || ctx->n_out == 0)
    return rc;
  size_t es = acl__op_esize(type);
  if (val != NULL && vsize < es)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "value tensor is empty");
  int64_t total = acl__op_numel((int)n, sh);
  for (int64_t i = 0; val != NULL && i < total; i++)
    memcpy((char *)ctx->out[0].data + (size_t)i * es, val, es);
  return 0; /* without a value the zeroed allocation is the answer */
}

int acl__k_range(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *s = ctx->in[0], *l = ctx->in[1], *d = ctx->in[2];
  int t = s->onnx_type;
  if (!acl__op_numeric(t) || t == ACL__ONNX_BOOL || l->onnx_type != t || d->onnx_type != t ||
      acl__tensor_numel(s) != 1 || acl__tensor_numel(l) != 1 || acl__tensor_numel(d) != 1)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "start, limit and delta must be scalars of one numeric type");
  int64_t n;
  if (acl__op_is_float(t)) {
    double a = acl__op_get(s, 0), b = acl__op_get(l, 0), c = acl__op_get(d, 0);
    if (c == 0 || a != a || b != b)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "delta is 0 or a bound is NaN");
    double q = (b - a) / c;
    if (q > 9.0e15)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "range too long");
    n = q > 0 ? (int64_t)q : 0;
    if (q > 0 && (double)n < q)
      n++;
    rc = acl__op_alloc(ctx, 0, t, 1, &n);
    for (int64_t i = 0; rc == 0 && i < n && ctx->n_out > 0; i++)
      acl__op_set(&ctx->out[0], i, a + (double)i * c);
  } else {
    int64_t a = acl__op_get_i64(s, 0), b = acl__op_get_i64(l, 0), c = acl__op_get_i64(d, 0);
    if (c == 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "delta is 0");
    /* Differences in unsigned arithmetic so that extreme bounds do not overflow. */
    uint64_t span, step;
    if (c > 0) {
      span = b > a ? (uint64_t)b - (uint64_t)a : 0;
      step = (uint64_t)c;
    } else {
      span = a > b ? (uint64_t)a - (uint64_t)b : 0;
      step = (uint64_t)0 - (uint64_t)c;
    }
    uint64_t cnt = span / step + (span % step != 0);
    if (cnt > (uint64_t)1 << 40)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "range too long");
    n = (int64_t)cnt;
    rc = acl__op_alloc(ctx, 0, t, 1, &n);
    size_t es = acl__op_esize(t);
    for (int64_t i = 0; rc == 0 && i < n && ctx->n_out > 0; i++) {
      int64_t v = (int64_t)((uint64_t)a + (uint64_t)i * (uint64_t)c);
      if (t == ACL__ONNX_INT64)
        memcpy((char *)ctx->out[0].data + (size_t)i * es, &v, es);
      else
        acl__op_set(&ctx->out[0], i, (double)v);
    }
  }
  return rc;
}

int acl__k_size(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  int64_t none[1] = {0};
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 0, none);
  if (rc == 0 && ctx->n_out > 0)
    ((int64_t *)ctx->out[0].data)[0] = acl__tensor_numel(ctx->in[0]);
  return rc;
}
