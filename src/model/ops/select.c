/*
 * select.c - ops that pick elements by index or by value: GatherND,
 * ScatterND, TopK, NonZero, ReverseSequence.  Data movement copies elements
 * by size (every fixed-size type, int64 exact); TopK compares and
 * ScatterND's reductions compute in double.
 *
 * Opset differences handled here:
 *   GatherND   batch_dims from opset 12.
 *   ScatterND  reduction (add, mul) from 16, max/min from 18.
 *   TopK       k attribute in opset 1, input 1 from 10; largest/sorted
 *              from 11 (results are always sorted; ties keep the lower
 *              index first).
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* ---- GatherND / ScatterND --------------------------------------------------- */

int acl__k_gather_nd(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *idx = ctx->in[1];
  int64_t b = acl__op_attr_int(ctx, "batch_dims", 0);
  int q = idx->rank, r = x->rank;
  if (q < 1 || b < 0 || b >= q || b >= r)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "indices rank or batch_dims invalid");
  int64_t k = idx->dims[q - 1];
  if (k < 1 || b + k > r || q - 1 + r - b - k > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "indices' last dim does not fit the data rank");
  for (int i = 0; i < b; i++)
    if (idx->dims[i] != x->dims[i])
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "batch dims differ");
  int64_t od[ACL__EXEC_MAX_RANK], xs[ACL__EXEC_MAX_RANK];
  int ro = 0;
  for (int i = 0; i < q - 1; i++)
    od[ro++] = idx->dims[i];
  for (int64_t i = b + k; i < r; i++)
    od[ro++] = x->dims[i];
  rc = acl__op_alloc(ctx, 0, x->onnx_type, ro, od);
  if (rc != 0)
    return rc;
  acl__op_strides(r, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t np = acl__op_numel(q - 1, idx->dims), per_batch = acl__op_numel(q - 1 - (int)b, idx->dims + b);
  int64_t inner = acl__op_numel(r - (int)(b + k), x->dims + b + k);
  for (int64_t p = 0; p < np; p++) {
    int64_t off = (per_batch > 0 ? p / per_batch : 0) * (b > 0 ? xs[b - 1] : 0);
    for (int64_t j = 0; j < k; j++) {
      int64_t v = acl__op_get_i64(idx, p * k + j), len = x->dims[b + j];
      if (v < 0)
        v += len;
      if (v < 0 || v >= len)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "index %lld out of range", (long long)v);
      off += v * xs[b + j];
    }
    memcpy((char *)ctx->out[0].data + (size_t)(p * inner) * es, (const char *)x->data + (size_t)off * es,
           (size_t)inner * es);
  }
  return 0;
}

int acl__k_scatter_nd(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *idx = ctx->in[1], *u = ctx->in[2];
  int q = idx->rank, r = x->rank;
  int64_t k = q >= 1 ? idx->dims[q - 1] : 0;
  if (q < 1 || k < 1 || k > r || u->onnx_type != x->onnx_type || u->rank != q - 1 + r - k)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "indices or updates do not fit the data");
  for (int i = 0; i < u->rank; i++)
    if (u->dims[i] != (i < q - 1 ? idx->dims[i] : x->dims[k + i - (q - 1)]))
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "updates have the wrong shape");
  const char *red = acl__op_attr_str(ctx, "reduction", "none");
  int mode = strcmp(red, "none") == 0 ? 0 : strcmp(red, "add") == 0 ? 1 : strcmp(red, "mul") == 0 ? 2
           : strcmp(red, "max") == 0 ? 3 : strcmp(red, "min") == 0 ? 4 : -1;
  if (mode < 0 || (mode > 0 && !acl__op_numeric(x->onnx_type)))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "reduction \"%s\" not supported", red);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, x->dims);
  if (rc != 0)
    return rc;
  memcpy(ctx->out[0].data, x->data, x->size);
  int64_t xs[ACL__EXEC_MAX_RANK];
  acl__op_strides(r, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t np = acl__op_numel(q - 1, idx->dims), inner = acl__op_numel(r - (int)k, x->dims + k);
  for (int64_t p = 0; p < np; p++) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; j++) {
      int64_t v = acl__op_get_i64(idx, p * k + j), len = x->dims[j];
      if (v < 0)
        v += len;
      if (v < 0 || v >= len)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "index %lld out of range", (long long)v);
      off += v * xs[j];
    }
    if (mode == 0) {
      memcpy((char *)ctx->out[0].data + (size_t)off * es, (const char *)u->data + (size_t)(p * inner) * es,
             (size_t)inner * es);
      continue;
    }
    for (int64_t i = 0; i < inner; i++) {
      double a = acl__op_get(&ctx->out[0], off + i), c = acl__op_get(u, p * inner + i);
      acl__op_set(&ctx->out[0], off + i,
                  mode == 1 ? a + c : mode == 2 ? a * c : mode == 3 ? (a > c ? a : c) : (a < c ? a : c));
    }
  }
  return 0;
}

/* ---- TopK ----------------------------------------------------------------------- */

typedef struct {
  double v;
  int64_t i;
} vi;

static int cmp_large(const void *pa, const void *pb) {
  const vi *a = pa, *b = pb;
  if (a->v != b->v)
    return a->v > b->v ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

static int cmp_small(const void *pa, const void *pb) {
  const vi *a = pa, *b = pb;
  if (a->v != b->v)
    return a->v < b->v ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

int acl__k_topk(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, ctx->opset < 10 ? 1 : 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t k = ctx->opset < 10 ? acl__op_attr_int(ctx, "k", -1)
            : acl__tensor_numel(ctx->in[1]) == 1 ? acl__op_get_i64(ctx->in[1], 0) : -1;
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", -1), x->rank);
  if (axis < 0 || !acl__op_numeric(x->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range or data type not supported");
  int64_t len = x->dims[axis];
  if (k < 0 || k > len)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "k = %lld out of range", (long long)k);
  int largest = acl__op_attr_int(ctx, "largest", 1) != 0;
  int64_t od[ACL__EXEC_MAX_RANK];
  memcpy(od, x->dims, (size_t)x->rank * sizeof(int64_t));
  od[axis] = k;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc == 0 && ctx->n_out > 1)
    rc = acl__op_alloc(ctx, 1, ACL__ONNX_INT64, x->rank, od);
  if (rc != 0)
    return rc;
  vi *buf = malloc((size_t)(len > 0 ? len : 1) * sizeof(vi));
  if (buf == NULL)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  int64_t outer = acl__op_numel(axis, x->dims), inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  size_t es = acl__op_esize(x->onnx_type);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t j = 0; j < inner; j++) {
      for (int64_t t = 0; t < len; t++) {
        buf[t].v = acl__op_get(x, (o * len + t) * inner + j);
        buf[t].i = t;
      }
      qsort(buf, (size_t)len, sizeof(vi), largest ? cmp_large : cmp_small);
      for (int64_t t = 0; t < k; t++) {
        int64_t dst = (o * k + t) * inner + j;
        memcpy((char *)ctx->out[0].data + (size_t)dst * es,
               (const char *)x->data + (size_t)((o * len + buf[t].i) * inner + j) * es, es);
        if (ctx->n_out > 1)
          ((int64_t *)ctx->out[1].data)[dst] = buf[t].i;
      }
    }
  free(buf);
  return 0;
}

/* ---- NonZero / ReverseSequence ------------------------------------------------ */

int acl__k_nonzero(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (!acl__op_numeric(x->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type not supported");
  int64_t n = acl__tensor_numel(x), nz = 0;
  for (int64_t i = 0; i < n; i++)
    nz += acl__op_get(x, i) != 0;
  int64_t od[2] = {x->rank, nz};
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 2, od);
  if (rc != 0)
    return rc;
  int64_t *o = ctx->out[0].data, col = 0;
  for (int64_t i = 0; i < n; i++) {
    if (acl__op_get(x, i) == 0)
      continue;
    int64_t rem = i;
    for (int d = x->rank - 1; d >= 0; d--) {
      o[d * nz + col] = rem % x->dims[d];
      rem /= x->dims[d];
    }
    col++;
  }
  return 0;
}

int acl__k_reverse_sequence(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *sl = ctx->in[1];
  int ba = acl__op_axis(acl__op_attr_int(ctx, "batch_axis", 1), x->rank);
  int ta = acl__op_axis(acl__op_attr_int(ctx, "time_axis", 0), x->rank);
  if (x->rank < 2 || ba < 0 || ta < 0 || ba == ta || acl__tensor_numel(sl) != x->dims[ba])
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axes or sequence_lens invalid");
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  int64_t xs[ACL__EXEC_MAX_RANK], n = acl__tensor_numel(x);
  acl__op_strides(x->rank, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  for (int64_t i = 0; i < n; i++) {
    int64_t bi = (i / xs[ba]) % x->dims[ba], t = (i / xs[ta]) % x->dims[ta];
    int64_t len = acl__op_get_i64(sl, bi), src = i;
    if (len > x->dims[ta])
      len = x->dims[ta];
    if (t < len)
      src = i + (len - 1 - 2 * t) * xs[ta];
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)src * es, es);
  }
  return 0;
}
