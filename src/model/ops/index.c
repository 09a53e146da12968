/*
 * index.c - element-indexing ops: GatherElements, ScatterElements (and the
 * deprecated Scatter), Trilu, CumSum, EyeLike, Shrink, CastLike,
 * DepthToSpace, SpaceToDepth, OneHot, Compress.
 *
 * Pure data movement copies elements by size (every fixed-size type, int64
 * exact); arithmetic (CumSum, Shrink, ScatterElements reductions) goes
 * through double.
 *
 * Opset differences handled here:
 *   ScatterElements  `reduction` from opset 16 (none/add/mul), max/min from 18.
 *   DepthToSpace     `mode` (DCR default, CRD) from opset 11.
 */
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* Offset in a tensor of strides `st` of the multi-index of flat position i
 * in shape `dims`, with the coordinate on `axis` replaced by `k`. */
static int64_t offset_with(int rank, const int64_t *dims, const int64_t *st, int64_t i, int axis, int64_t k) {
  int64_t off = 0;
  for (int d = rank - 1; d >= 0; d--) {
    int64_t c = i % dims[d];
    i /= dims[d];
    off += (d == axis ? k : c) * st[d];
  }
  return off;
}

/* ---- GatherElements / ScatterElements ------------------------------------- */

int acl__k_gather_elements(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *idx = ctx->in[1];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0 || idx->rank != x->rank)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range or ranks differ");
  rc = acl__op_alloc(ctx, 0, x->onnx_type, idx->rank, idx->dims);
  if (rc != 0)
    return rc;
  int64_t xs[ACL__EXEC_MAX_RANK], n = acl__tensor_numel(idx), len = x->dims[axis];
  acl__op_strides(x->rank, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = acl__op_get_i64(idx, i);
    if (k < 0)
      k += len;
    if (k < 0 || k >= len)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "index %lld out of range", (long long)k);
    int64_t off = offset_with(idx->rank, idx->dims, xs, i, axis, k);
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)off * es, es);
  }
  return 0;
}

int acl__k_scatter_elements(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *idx = ctx->in[1], *u = ctx->in[2];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0 || idx->rank != x->rank || u->rank != idx->rank || u->onnx_type != x->onnx_type)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range or inputs do not match");
  for (int i = 0; i < u->rank; i++)
    if (u->dims[i] != idx->dims[i])
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "updates and indices differ in shape");
  const char *red = acl__op_attr_str(ctx, "reduction", "none");
  int mode = strcmp(red, "none") == 0 ? 0 : strcmp(red, "add") == 0 ? 1 : strcmp(red, "mul") == 0 ? 2
           : strcmp(red, "max") == 0 ? 3 : strcmp(red, "min") == 0 ? 4 : -1;
  if (mode < 0 || (mode > 0 && !acl__op_numeric(x->onnx_type)))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "reduction \"%s\" not supported", red);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  memcpy(ctx->out[0].data, x->data, x->size);
  int64_t xs[ACL__EXEC_MAX_RANK], n = acl__tensor_numel(idx), len = x->dims[axis];
  acl__op_strides(x->rank, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = acl__op_get_i64(idx, i);
    if (k < 0)
      k += len;
    if (k < 0 || k >= len)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "index %lld out of range", (long long)k);
    int64_t off = offset_with(idx->rank, idx->dims, xs, i, axis, k);
    if (mode == 0) {
      memcpy((char *)ctx->out[0].data + (size_t)off * es, (const char *)u->data + (size_t)i * es, es);
      continue;
    }
    double a = acl__op_get(&ctx->out[0], off), b = acl__op_get(u, i);
    double v = mode == 1 ? a + b : mode == 2 ? a * b : mode == 3 ? (a > b ? a : b) : (a < b ? a : b);
    acl__op_set(&ctx->out[0], off, v);
  }
  return 0;
}

/* ---- Trilu / EyeLike -------------------------------------------------------- */

int acl__k_trilu(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->rank < 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input must have rank >= 2");
  int64_t k = ctx->n_in > 1 && ctx->in[1] != NULL && acl__tensor_numel(ctx->in[1]) > 0 ? acl__op_get_i64(ctx->in[1], 0) : 0;
  int upper = acl__op_attr_int(ctx, "upper", 1) != 0;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t rows = x->dims[x->rank - 2], cols = x->dims[x->rank - 1], n = acl__tensor_numel(x);
  size_t es = acl__op_esize(x->onnx_type);
  for (int64_t i = 0; i < n; i++) {
    int64_t c = i % cols, r = (i / cols) % rows;
    int keep = upper ? c - r >= k : c - r <= k;
    if (keep)
      memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)i * es, es);
  }
  return 0;
}

int acl__k_eyelike(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->rank != 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input must be 2-D");
  int type = (int)acl__op_attr_int(ctx, "dtype", x->onnx_type);
  if (!acl__op_numeric(type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "dtype %d not supported", type);
  int64_t k = acl__op_attr_int(ctx, "k", 0);
  rc = acl__op_alloc(ctx, 0, type, 2, x->dims);
  if (rc != 0)
    return rc;
  for (int64_t r = 0; r < x->dims[0]; r++) {
    int64_t c = r + k;
    if (c >= 0 && c < x->dims[1])
      acl__op_set(&ctx->out[0], r * x->dims[1] + c, 1.0);
  }
  return 0;
}

/* ---- CumSum / Shrink / CastLike ------------------------------------------- */

int acl__k_cumsum(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (!acl__op_numeric(x->onnx_type) || acl__tensor_numel(ctx->in[1]) != 1)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "numeric input and a scalar axis expected");
  int axis = acl__op_axis(acl__op_get_i64(ctx->in[1], 0), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  int excl = acl__op_attr_int(ctx, "exclusive", 0) != 0, rev = acl__op_attr_int(ctx, "reverse", 0) != 0;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t outer = acl__op_numel(axis, x->dims), len = x->dims[axis];
  int64_t inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      double s = 0;
      for (int64_t t = 0; t < len; t++) {
        int64_t a = rev ? len - 1 - t : t, p = (o * len + a) * inner + j;
        double v = acl__op_get(x, p);
        if (!excl)
          s += v;
        acl__op_set(&ctx->out[0], p, s);
        if (excl)
          s += v;
      }
    }
  return 0;
}

int acl__k_shrink(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (!acl__op_numeric(x->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type not supported");
  double l = acl__op_attr_float(ctx, "lambd", 0.5f), b = acl__op_attr_float(ctx, "bias", 0.0f);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t n = acl__tensor_numel(x);
  for (int64_t i = 0; i < n; i++) {
    double v = acl__op_get(x, i);
    acl__op_set(&ctx->out[0], i, v < -l ? v + b : v > l ? v - b : 0.0);
  }
  return 0;
}

int acl__k_castlike(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int type = ctx->in[1]->onnx_type;
  if (x->onnx_type == ACL__ONNX_STRING || type == ACL__ONNX_STRING)
    return acl__op_cast_strings(ctx, x, type);
  if (!acl__op_numeric(x->onnx_type) || !acl__op_numeric(type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "cast from type %d to %d not supported", x->onnx_type,
                        type);
  rc = acl__op_alloc(ctx, 0, type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t n = acl__tensor_numel(x);
  if (type == x->onnx_type) {
    memcpy(ctx->out[0].data, x->data, x->size);
    return 0;
  }
  for (int64_t i = 0; i < n; i++)
    acl__op_set(&ctx->out[0], i, acl__op_get(x, i));
  return 0;
}

/* ---- DepthToSpace / SpaceToDepth ------------------------------------------ */

/* Both map (N, C, H, W) <-> (N, C*b*b, H/b, W/b); `d2s` picks the direction. */
static int depth_space(acl__op_ctx *ctx, int d2s) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t b = acl__op_attr_int(ctx, "blocksize", 0);
  int crd = d2s && strcmp(acl__op_attr_str(ctx, "mode", "DCR"), "CRD") == 0;
  if (x->rank != 4 || b <= 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "4-D input and a positive blocksize expected");
  int64_t n = x->dims[0], c = x->dims[1], h = x->dims[2], w = x->dims[3], od[4];
  if (d2s) {
    if (c % (b * b) != 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "channels not divisible by blocksize^2");
    od[0] = n, od[1] = c / (b * b), od[2] = h * b, od[3] = w * b;
  } else {
    if (h % b != 0 || w % b != 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "spatial dims not divisible by blocksize");
    od[0] = n, od[1] = c * b * b, od[2] = h / b, od[3] = w / b;
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, 4, od);
  if (rc != 0)
    return rc;
  size_t es = acl__op_esize(x->onnx_type);
  /* Walk the "small" side (N, C', H', W', i, j) where the big side is (N, C'*b*b or c, ...). */
  int64_t cs = d2s ? od[1] : c, hs = d2s ? h : od[2], ws = d2s ? w : od[3];
  for (int64_t bn = 0; bn < n; bn++)
    for (int64_t ch = 0; ch < cs; ch++)
      for (int64_t y = 0; y < hs; y++)
        for (int64_t xx = 0; xx < ws; xx++)
          for (int64_t i = 0; i < b; i++)
            for (int64_t j = 0; j < b; j++) {
              /* depth channel in the deep tensor, pixel in the spatial one */
              int64_t dc = crd ? (ch * b + i) * b + j : (i * b + j) * cs + ch;
              int64_t deep = ((bn * cs * b * b + dc) * hs + y) * ws + xx;
              int64_t flat = ((bn * cs + ch) * hs * b + y * b + i) * ws * b + xx * b + j;
              int64_t src = d2s ? deep : flat, dst = d2s ? flat : deep;
              memcpy((char *)ctx->out[0].data + (size_t)dst * es, (const char *)x->data + (size_t)src * es, es);
            }
  return 0;
}

int acl__k_depth_to_space(acl__op_ctx *ctx) { return depth_space(ctx, 1); }
int acl__k_space_to_depth(acl__op_ctx *ctx) { return depth_space(ctx, 0); }

/* ---- OneHot / Compress ------------------------------------------------------ */

int acl__k_onehot(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *idx = ctx->in[0], *dep = ctx->in[1], *val = ctx->in[2];
  if (acl__tensor_numel(dep) != 1 || acl__tensor_numel(val) != 2 || idx->rank + 1 > ACL__EXEC_MAX_RANK ||
      !acl__op_numeric(idx->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "depth must be a scalar and values hold 2 elements");
  int64_t depth = (int64_t)acl__op_get(dep, 0);
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", -1), idx->rank + 1);
  if (axis < 0 || depth < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range or negative depth");
  int64_t od[ACL__EXEC_MAX_RANK];
  int r = 0;
  for (int i = 0; i <= idx->rank; i++)
    od[r++] = i == axis ? depth : idx->dims[i < axis ? i : i - 1];
  rc = acl__op_alloc(ctx, 0, val->onnx_type, r, od);
  if (rc != 0)
    return rc;
  size_t es = acl__op_esize(val->onnx_type);
  int64_t outer = acl__op_numel(axis, od), inner = acl__op_numel(r - axis - 1, od + axis + 1);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t d = 0; d < depth; d++)
      for (int64_t j = 0; j < inner; j++) {
        int64_t k = (int64_t)acl__op_get(idx, o * inner + j);
        if (k < 0)
          k += depth;
        const char *v = (const char *)val->data + (k == d ? es : 0);
        memcpy((char *)ctx->out[0].data + (size_t)((o * depth + d) * inner + j) * es, v, es);
      }
  return 0;
}

int acl__k_compress(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *cond = ctx->in[1];
  const acl__graph_attr *ax = acl__op_attr(ctx, "axis");
  int axis = 0, r = x->rank;
  int64_t od[ACL__EXEC_MAX_RANK], outer = 1, len, inner = 1;
  if (ax == NULL) {
    r = 1;
    len = acl__tensor_numel(x);
  } else {
    axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
    if (axis < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
    memcpy(od, x->dims, (size_t)r * sizeof(int64_t));
    outer = acl__op_numel(axis, x->dims);
    inner = acl__op_numel(r - axis - 1, x->dims + axis + 1);
    len = x->dims[axis];
  }
  int64_t nc = acl__tensor_numel(cond), kept = 0;
  if (nc > len)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "condition longer than the axis");
  for (int64_t i = 0; i < nc; i++)
    kept += acl__op_get(cond, i) != 0;
  od[axis] = kept;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  size_t es = acl__op_esize(x->onnx_type), row = (size_t)inner * es;
  char *dst = ctx->out[0].data;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < nc; i++)
      if (acl__op_get(cond, i) != 0) {
        memcpy(dst, (const char *)x->data + (size_t)(o * len + i) * row, row);
        dst += row;
      }
  return 0;
}
