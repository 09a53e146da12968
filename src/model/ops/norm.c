/* norm.c - BatchNormalization (inference), InstanceNormalization,
 * LayerNormalization, Softmax / LogSoftmax / Hardmax. */
#include <math.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int acl__k_batchnorm(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 5);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (acl__op_attr_int(ctx, "training_mode", 0) != 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "training_mode not supported");
  double eps = acl__op_attr_float(ctx, "epsilon", 1e-5f);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t C = x->rank > 1 ? x->dims[1] : 1, sp = x->rank > 2 ? acl__op_numel(x->rank - 2, x->dims + 2) : 1;
  for (int i = 1; i < 5; i++)
    if (acl__tensor_numel(ctx->in[i]) < C)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %d has fewer than C elements", i);
  for (int64_t i = 0; i < acl__tensor_numel(x); i++) {
    int64_t c = (i / sp) % C;
    double v = (acl__op_get(x, i) - acl__op_get(ctx->in[3], c)) / sqrt(acl__op_get(ctx->in[4], c) + eps);
    acl__op_set(&ctx->out[0], i, v * acl__op_get(ctx->in[1], c) + acl__op_get(ctx->in[2], c));
  }
  return 0;
}

int acl__k_instancenorm(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  double eps = acl__op_attr_float(ctx, "epsilon", 1e-5f);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0 || x->rank < 2)
    return rc;
  int64_t C = x->dims[1], sp = acl__op_numel(x->rank - 2, x->dims + 2);
  for (int64_t nc = 0; nc < x->dims[0] * C; nc++) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < sp; i++)
      m += acl__op_get(x, nc * sp + i);
    m /= (double)sp;
    for (int64_t i = 0; i < sp; i++) {
      double d = acl__op_get(x, nc * sp + i) - m;
      v += d * d;
    }
    v /= (double)sp;
    for (int64_t i = 0; i < sp; i++)
      acl__op_set(&ctx->out[0], nc * sp + i,
                  (acl__op_get(x, nc * sp + i) - m) / sqrt(v + eps) * acl__op_get(ctx->in[1], nc % C) +
                      acl__op_get(ctx->in[2], nc % C));
  }
  return 0;
}

int acl__k_layernorm(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *sc = ctx->in[1], *bi = ctx->n_in > 2 ? ctx->in[2] : NULL;
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", -1), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  double eps = acl__op_attr_float(ctx, "epsilon", 1e-5f);
  int64_t outer = acl__op_numel(axis, x->dims), inner = acl__op_numel(x->rank - axis, x->dims + axis);
  int64_t md[ACL__EXEC_MAX_RANK];
  for (int i = 0; i < x->rank; i++)
    md[i] = i < axis ? x->dims[i] : 1;
  int stype = (int)acl__op_attr_int(ctx, "stash_type", 1);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 1, stype, x->rank, md);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 2, stype, x->rank, md);
  if (rc != 0)
    return rc;
  int64_t ss[ACL__EXEC_MAX_RANK], sb[ACL__EXEC_MAX_RANK];
  acl__op_bcast_strides(sc, x->rank - axis, x->dims + axis, ss);
  if (bi != NULL)
    acl__op_bcast_strides(bi, x->rank - axis, x->dims + axis, sb);
  for (int64_t o = 0; o < outer; o++) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < inner; i++)
      m += acl__op_get(x, o * inner + i);
    m /= (double)inner;
    for (int64_t i = 0; i < inner; i++) {
      double d = acl__op_get(x, o * inner + i) - m;
      v += d * d;
    }
    v /= (double)inner;
    double inv = 1 / sqrt(v + eps);
    for (int64_t i = 0; i < inner; i++) {
      int64_t rem = i, is = 0, ib = 0;
      for (int d = x->rank - axis - 1; d >= 0; d--) {
        int64_t q = rem % x->dims[axis + d];
        rem /= x->dims[axis + d];
        is += q * ss[d];
        if (bi != NULL)
          ib += q * sb[d];
      }
      double y = (acl__op_get(x, o * inner + i) - m) * inv * acl__op_get(sc, is);
      acl__op_set(&ctx->out[0], o * inner + i, bi != NULL ? y + acl__op_get(bi, ib) : y);
    }
    if (ctx->n_out > 1 && ctx->out[1].data != NULL)
      acl__op_set(&ctx->out[1], o, m);
    if (ctx->n_out > 2 && ctx->out[2].data != NULL)
      acl__op_set(&ctx->out[2], o, inv);
  }
  return 0;
}

int acl__k_softmax(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int newsem = ctx->opset >= 13;
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", newsem ? -1 : 1), x->rank);
  if (axis < 0 && x->rank > 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  if (axis < 0)
    axis = 0;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  /* opset < 13: the input is seen as 2-D [outer, inner] split at axis;
   * opset 13: the op runs along the one axis. */
  int64_t outer = acl__op_numel(axis, x->dims), len, inner;
  if (newsem) {
    len = x->rank > 0 ? x->dims[axis] : 1;
    inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  } else {
    len = acl__op_numel(x->rank - axis, x->dims + axis);
    inner = 1;
  }
  char k = ctx->node->op_type[0]; /* S, L, H */
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double mx = -INFINITY, s = 0;
      int64_t am = 0;
      for (int64_t i = 0; i < len; i++) {
        double v = acl__op_get(x, base + i * inner);
        if (v > mx) {
          mx = v;
          am = i;
        }
      }
      for (int64_t i = 0; i < len; i++)
        s += exp(acl__op_get(x, base + i * inner) - mx);
      for (int64_t i = 0; i < len; i++) {
        double v = acl__op_get(x, base + i * inner) - mx, r;
        r = k == 'S' ? exp(v) / s : k == 'L' ? v - log(s) : (double)(i == am);
        acl__op_set(&ctx->out[0], base + i * inner, r);
      }
    }
  return 0;
}
