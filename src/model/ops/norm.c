/* norm.c - BatchNormalization (training mode: training.c), InstanceNormalization,
 * LayerNormalization, Softmax / LogSoftmax / Hardmax, LRN, MeanVarianceNormalization. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int acl__k_batchnorm(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 5);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (acl__op_attr_int(ctx, "training_mode", 0) != 0)
    return acl__op_batchnorm_training(ctx); /* training.c */
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

/* LRN: each element divided by (bias + alpha / size * sum of squares over
 * the `size` neighbouring channels)^beta; the window is
 * [c - floor((size-1)/2), c + ceil((size-1)/2)], clipped to the channels. */
int acl__k_lrn(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t size = acl__op_attr_int(ctx, "size", 0);
  if (x->rank < 3 || size < 1)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "needs input (N, C, D1, ...) and size >= 1");
  double alpha = acl__op_attr_float(ctx, "alpha", 1e-4f), beta = acl__op_attr_float(ctx, "beta", 0.75f);
  double bias = acl__op_attr_float(ctx, "bias", 1.0f);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t C = x->dims[1], sp = acl__op_numel(x->rank - 2, x->dims + 2);
  int64_t lo_off = (size - 1) / 2, hi_off = size - 1 - lo_off;
  for (int64_t i = 0; i < acl__tensor_numel(x); i++) {
    int64_t c = (i / sp) % C, base = i - c * sp;
    double sq = 0;
    for (int64_t k = c - lo_off; k <= c + hi_off; k++)
      if (k >= 0 && k < C) {
        double v = acl__op_get(x, base + k * sp);
        sq += v * v;
      }
    acl__op_set(&ctx->out[0], i, acl__op_get(x, i) / pow(bias + alpha / (double)size * sq, beta));
  }
  return 0;
}

/* MeanVarianceNormalization: (X - mean) / sqrt(variance + 1e-9) over `axes`
 * (default 0, 2, 3), as the op's function body in the ONNX spec defines it. */
int acl__k_mvn(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  const int64_t dflt[3] = {0, 2, 3}, *axes = NULL;
  int64_t na = acl__op_attr_ints(ctx, "axes", &axes);
  if (na < 0)
    axes = dflt, na = 3;
  int reduced[ACL__EXEC_MAX_RANK] = {0};
  for (int64_t k = 0; k < na; k++) {
    int a = acl__op_axis(axes[k], x->rank);
    if (a < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range for rank %d", (long long)axes[k],
                          x->rank);
    reduced[a] = 1;
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  int64_t n = acl__tensor_numel(x), groups = 1;
  for (int d = 0; d < x->rank; d++)
    groups *= reduced[d] ? 1 : x->dims[d];
  double *sum = rc == 0 ? calloc((size_t)(2 * groups + 1), sizeof(double)) : NULL;
  int64_t *gi = rc == 0 ? malloc((size_t)(n + 1) * sizeof(int64_t)) : NULL;
  if (rc == 0 && (sum == NULL || gi == NULL))
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  /* group of each element: its coordinates on the kept axes */
  for (int64_t i = 0; rc == 0 && i < n; i++) {
    int64_t rem = i, g = 0, mul = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
      int64_t c = rem % x->dims[d];
      rem /= x->dims[d];
      if (!reduced[d]) {
        g += c * mul;
        mul *= x->dims[d];
      }
    }
    gi[i] = g;
    double v = acl__op_get(x, i);
    sum[2 * g] += v;
    sum[2 * g + 1] += v * v;
  }
  double cnt = groups > 0 ? (double)n / (double)groups : 1;
  for (int64_t i = 0; rc == 0 && i < n; i++) {
    double mean = sum[2 * gi[i]] / cnt, var = sum[2 * gi[i] + 1] / cnt - mean * mean;
    acl__op_set(&ctx->out[0], i, (acl__op_get(x, i) - mean) / sqrt(var + 1e-9));
  }
  free(sum);
  free(gi);
  return rc;
}
