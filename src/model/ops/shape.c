/*
 * shape.c - ops that move bytes without arithmetic: Identity, Dropout
 * (inference), Reshape, Flatten, Transpose, Concat, Squeeze, Unsqueeze,
 * Gather, Shape, Constant (value tensor, value_float(s), value_int(s)).
 * They copy elements by size, so every fixed-size type works and int64
 * stays exact.
 */
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static int copy_as(acl__op_ctx *ctx, size_t k, const acl__tensor *x, int rank, const int64_t *dims) {
  if (acl__op_numel(rank, dims) != acl__tensor_numel(x))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "element count changes");
  int rc = acl__op_alloc(ctx, k, x->onnx_type, rank, dims);
  if (rc == 0 && k < ctx->n_out)
    memcpy(ctx->out[k].data, x->data, ctx->out[k].size);
  return rc;
}

int acl__k_identity(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc == 0 && (ctx->in[0]->is_sequence || ctx->in[0]->onnx_type == ACL__ONNX_STRING)) {
    /* sequences and strings own pointers: copy deeply, never by bytes */
    if (acl__tensor_copy(&ctx->out[0], ctx->in[0]) != 0)
      rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot copy the input");
    return rc;
  }
  return rc != 0 ? rc : copy_as(ctx, 0, ctx->in[0], ctx->in[0]->rank, ctx->in[0]->dims);
}

int acl__k_dropout(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  double ratio = ctx->n_in > 1 && ctx->in[1] != NULL ? acl__op_get(ctx->in[1], 0) : 0.5;
  if (ctx->n_in > 2 && ctx->in[2] != NULL && acl__op_get(ctx->in[2], 0) != 0 && ratio != 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH,
                        "training_mode with a non-zero ratio is random; the reference executor supports only ratio 0");
  /* inference, or training with ratio 0: both keep every element */
  const acl__tensor *x = ctx->in[0];
  rc = copy_as(ctx, 0, x, x->rank, x->dims);
  if (rc == 0 && ctx->n_out > 1) {
    rc = acl__op_alloc(ctx, 1, ctx->opset >= 10 ? ACL__ONNX_BOOL : x->onnx_type, x->rank, x->dims);
    for (int64_t i = 0; rc == 0 && i < acl__tensor_numel(x); i++)
      acl__op_set(&ctx->out[1], i, 1);
  }
  return rc;
}

int acl__k_reshape(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t sh[ACL__EXEC_MAX_RANK];
  int64_t n;
  if (ctx->opset < 5) {
    const int64_t *s;
    n = acl__op_attr_ints(ctx, "shape", &s);
    if (n < 0 || n > ACL__EXEC_MAX_RANK)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shape attribute missing or too long");
    memcpy(sh, s, (size_t)n * sizeof(int64_t));
  } else {
    rc = acl__op_need(ctx, 2);
    if (rc != 0)
      return rc;
    n = acl__tensor_numel(ctx->in[1]);
    if (n > ACL__EXEC_MAX_RANK)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shape too long");
    for (int64_t i = 0; i < n; i++)
      sh[i] = acl__op_get_i64(ctx->in[1], i);
  }
  int allowzero = (int)acl__op_attr_int(ctx, "allowzero", 0);
  int64_t known = 1, infer = -1;
  for (int64_t i = 0; i < n; i++) {
    if (sh[i] == 0 && !allowzero) {
      if (i >= x->rank)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "0 at position %lld beyond the input rank", (long long)i);
      sh[i] = x->dims[i];
    }
    if (sh[i] == -1) {
      if (infer >= 0)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "more than one -1 in the shape");
      infer = i;
    } else if (sh[i] < 0) {
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "negative dim in the shape");
    } else {
      known *= sh[i];
    }
  }
  if (infer >= 0)
    sh[infer] = known ? acl__tensor_numel(x) / known : 0;
  return copy_as(ctx, 0, x, (int)n, sh);
}

int acl__k_flatten(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t axis = acl__op_attr_int(ctx, "axis", 1);
  if (axis < 0)
    axis += x->rank;
  if (axis < 0 || axis > x->rank)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  int64_t d[2] = {acl__op_numel((int)axis, x->dims), acl__op_numel(x->rank - (int)axis, x->dims + axis)};
  return copy_as(ctx, 0, x, 2, d);
}

int acl__k_transpose(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  const int64_t *p;
  int64_t perm[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK], st[ACL__EXEC_MAX_RANK];
  int64_t np = acl__op_attr_ints(ctx, "perm", &p);
  int seen[ACL__EXEC_MAX_RANK] = {0};
  for (int i = 0; i < x->rank; i++) {
    perm[i] = np < 0 ? x->rank - 1 - i : i < np ? p[i] : -1;
    if (np >= 0 && np != x->rank)
      perm[i] = -1;
    if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]]++)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "perm is not a permutation of the axes");
    od[i] = x->dims[perm[i]];
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc != 0)
    return rc;
  int64_t s = 1;
  int64_t xs[ACL__EXEC_MAX_RANK];
  for (int i = x->rank - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  for (int i = 0; i < x->rank; i++)
    st[i] = xs[perm[i]];
  size_t es = acl__op_esize(x->onnx_type);
  int64_t n = acl__tensor_numel(x);
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, src = 0;
    for (int d = x->rank - 1; d >= 0; d--) {
      src += (rem % od[d]) * st[d];
      rem /= od[d];
    }
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)src * es, es);
  }
  return 0;
}

int acl__k_concat(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", ctx->opset < 4 ? 1 : 0), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  int64_t od[ACL__EXEC_MAX_RANK];
  memcpy(od, x->dims, (size_t)x->rank * sizeof(int64_t));
  od[axis] = 0;
  for (size_t k = 0; k < ctx->n_in; k++) {
    const acl__tensor *t = ctx->in[k];
    if (t == NULL || t->rank != x->rank || t->onnx_type != x->onnx_type)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu does not match input 0", k);
    for (int i = 0; i < x->rank; i++)
      if (i != axis && t->dims[i] != x->dims[i])
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu dim %d differs", k, i);
    od[axis] += t->dims[axis];
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc != 0)
    return rc;
  size_t es = acl__op_esize(x->onnx_type);
  int64_t outer = acl__op_numel(axis, x->dims), inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  int64_t off = 0;
  for (size_t k = 0; k < ctx->n_in; k++) {
    const acl__tensor *t = ctx->in[k];
    size_t chunk = (size_t)(t->dims[axis] * inner) * es;
    for (int64_t o = 0; o < outer; o++)
      memcpy((char *)ctx->out[0].data + ((size_t)(o * od[axis] * inner) + (size_t)off) * es,
             (const char *)t->data + (size_t)o * chunk, chunk);
    off += t->dims[axis] * inner;
  }
  return 0;
}

/* Squeeze / Unsqueeze axes: from the attribute (opset < 13) or input 1. */
static int64_t axes_of(acl__op_ctx *ctx, int64_t *ax) {
  if (ctx->opset < 13) {
    const int64_t *a;
    int64_t n = acl__op_attr_ints(ctx, "axes", &a);
    if (n > ACL__EXEC_MAX_RANK)
      return -2;
    for (int64_t i = 0; i < n; i++)
      ax[i] = a[i];
    return n;
  }
  if (ctx->n_in < 2 || ctx->in[1] == NULL)
    return -1;
  int64_t n = acl__tensor_numel(ctx->in[1]);
  if (n > ACL__EXEC_MAX_RANK)
    return -2;
  for (int64_t i = 0; i < n; i++)
    ax[i] = acl__op_get_i64(ctx->in[1], i);
  return n;
}

int acl__k_squeeze(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t ax[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK];
  int64_t n = axes_of(ctx, ax);
  int drop[ACL__EXEC_MAX_RANK] = {0};
  if (n == -2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "too many axes");
  for (int i = 0; i < x->rank; i++)
    drop[i] = n <= 0 && x->dims[i] == 1;
  for (int64_t i = 0; i < n; i++) {
    int a = acl__op_axis(ax[i], x->rank);
    if (a < 0 || x->dims[a] != 1)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld is not a dim of size 1", (long long)ax[i]);
    drop[a] = 1;
  }
  int r = 0;
  for (int i = 0; i < x->rank; i++)
    if (!drop[i])
      od[r++] = x->dims[i];
  return copy_as(ctx, 0, x, r, od);
}

int acl__k_unsqueeze(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t ax[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK];
  int64_t n = axes_of(ctx, ax);
  if (n < 0 || x->rank + n > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axes missing or too many");
  int r = x->rank + (int)n, ins[ACL__EXEC_MAX_RANK] = {0};
  for (int64_t i = 0; i < n; i++) {
    int a = acl__op_axis(ax[i], r);
    if (a < 0 || ins[a]++)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range or repeated", (long long)ax[i]);
  }
  for (int i = 0, j = 0; i < r; i++)
    od[i] = ins[i] ? 1 : x->dims[j++];
  return copy_as(ctx, 0, x, r, od);
}

int acl__k_gather(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *idx = ctx->in[1];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0 || x->rank + idx->rank - 1 > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  int64_t od[ACL__EXEC_MAX_RANK];
  int r = 0;
  for (int i = 0; i < axis; i++)
    od[r++] = x->dims[i];
  for (int i = 0; i < idx->rank; i++)
    od[r++] = idx->dims[i];
  for (int i = axis + 1; i < x->rank; i++)
    od[r++] = x->dims[i];
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  size_t es = acl__op_esize(x->onnx_type);
  int64_t outer = acl__op_numel(axis, x->dims), len = x->dims[axis];
  int64_t inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1), ni = acl__tensor_numel(idx);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < ni; j++) {
      int64_t k = acl__op_get_i64(idx, j);
      if (k < 0)
        k += len;
      if (k < 0 || k >= len)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "index %lld out of range", (long long)k);
      memcpy((char *)ctx->out[0].data + (size_t)((o * ni + j) * inner) * es,
             (const char *)x->data + (size_t)((o * len + k) * inner) * es, (size_t)inner * es);
    }
  return 0;
}

int acl__k_shape(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t s = acl__op_attr_int(ctx, "start", 0), e = acl__op_attr_int(ctx, "end", x->rank);
  s = s < 0 ? s + x->rank : s;
  e = e < 0 ? e + x->rank : e;
  s = s < 0 ? 0 : s > x->rank ? x->rank : s;
  e = e < 0 ? 0 : e > x->rank ? x->rank : e;
  int64_t n = e > s ? e - s : 0;
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 1, &n);
  for (int64_t i = 0; rc == 0 && i < n; i++)
    ((int64_t *)ctx->out[0].data)[i] = x->dims[s + i];
  return rc;
}

/* Constant's scalar and list forms (opset 12+): value_float(s), value_int(s). */
static int constant_list(acl__op_ctx *ctx) {
  const acl__graph_attr *a;
  int rc;
  int64_t n = 0;
  if ((a = acl__op_attr(ctx, "value_float")) != NULL && a->type == ACL__ATTR_FLOAT) {
    rc = acl__op_alloc(ctx, 0, ACL__ONNX_FLOAT, 0, &n);
    if (rc == 0 && ctx->n_out > 0)
      memcpy(ctx->out[0].data, &a->f, sizeof(float));
  } else if ((a = acl__op_attr(ctx, "value_int")) != NULL && a->type == ACL__ATTR_INT) {
    rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 0, &n);
    if (rc == 0 && ctx->n_out > 0)
      memcpy(ctx->out[0].data, &a->i, sizeof(int64_t));
  } else if ((a = acl__op_attr(ctx, "value_floats")) != NULL && a->type == ACL__ATTR_FLOATS) {
    n = (int64_t)a->count;
    rc = acl__op_alloc(ctx, 0, ACL__ONNX_FLOAT, 1, &n);
    if (rc == 0 && ctx->n_out > 0 && n > 0)
      memcpy(ctx->out[0].data, a->floats, a->count * sizeof(float));
  } else if ((a = acl__op_attr(ctx, "value_ints")) != NULL && a->type == ACL__ATTR_INTS) {
    n = (int64_t)a->count;
    rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 1, &n);
    if (rc == 0 && ctx->n_out > 0 && n > 0)
      memcpy(ctx->out[0].data, a->ints, a->count * sizeof(int64_t));
  } else {
    rc = acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH,
                      "only the value and value_float(s)/value_int(s) forms are supported");
  }
  return rc;
}

int acl__k_constant(acl__op_ctx *ctx) {
  const acl__graph_attr *a = acl__op_attr(ctx, "value");
  if (a == NULL)
    return constant_list(ctx);
  if (a->type != ACL__ATTR_TENSOR || a->tensor == NULL)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "`value` is not a tensor");
  const acl__graph_tensor *t = a->tensor;
  int64_t d[ACL__EXEC_MAX_RANK];
  if (t->rank > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "rank too large");
  for (int i = 0; i < t->rank; i++)
    d[i] = t->dims[i].value;
  int rc = acl__op_alloc(ctx, 0, t->onnx_type, t->rank, d);
  if (rc == 0 && t->data_size > 0)
    memcpy(ctx->out[0].data, t->data, t->data_size < ctx->out[0].size ? t->data_size : ctx->out[0].size);
  return rc;
}
