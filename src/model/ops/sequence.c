/*
 * sequence.c - ONNX sequence ops (opset 11+): SequenceEmpty,
 * SequenceConstruct, SequenceInsert, SequenceErase, SequenceAt,
 * SequenceLength, ConcatFromSequence, SplitToSequence.
 *
 * A sequence value is an acl__tensor with is_sequence set (exec.h); every
 * item is a deep copy, so a sequence never shares buffers with the tensors
 * it was built from and releasing it frees exactly what it holds.  Items
 * are moved by bytes, so every fixed-size element type works.
 */
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static int need_seq(acl__op_ctx *ctx, size_t k) {
  if (k >= ctx->n_in || ctx->in[k] == NULL || !ctx->in[k]->is_sequence)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu must be a sequence", k);
  return 0;
}

/* A new owned sequence in out[0]. */
static int new_seq(acl__op_ctx *ctx, int elem_type) {
  if (acl__tensor_alloc_sequence(&ctx->out[0], elem_type) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output sequence");
  return 0;
}

/* Reads the optional scalar position input k; *pos = dflt when absent.
 * Accepts [-n, n-1] (n+1 too when `insert`) and normalises negatives. */
static int read_pos(acl__op_ctx *ctx, size_t k, int64_t n, int insert, int64_t dflt, int64_t *pos) {
  *pos = dflt;
  if (k >= ctx->n_in || ctx->in[k] == NULL)
    return 0;
  const acl__tensor *p = ctx->in[k];
  if (acl__tensor_numel(p) != 1 || (p->onnx_type != ACL__ONNX_INT64 && p->onnx_type != ACL__ONNX_INT32))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "position must be one int32 or int64 value");
  int64_t v = acl__op_get_i64(p, 0);
  if (v < -n || v > (insert ? n : n - 1))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "position %lld is outside the sequence of %lld tensors",
                        (long long)v, (long long)n);
  *pos = v < 0 ? v + n : v;
  return 0;
}

static int copy_items(acl__op_ctx *ctx, const acl__tensor *seq) {
  for (size_t i = 0; i < seq->n_items; i++)
    if (acl__tensor_seq_insert(&ctx->out[0], i, &seq->items[i]) != 0)
      return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot copy the sequence");
  return 0;
}

int acl__k_sequence_empty(acl__op_ctx *ctx) {
  return new_seq(ctx, (int)acl__op_attr_int(ctx, "dtype", ACL__ONNX_FLOAT));
}

int acl__k_sequence_construct(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, ctx->n_in);
  for (size_t i = 1; rc == 0 && i < ctx->n_in; i++)
    if (ctx->in[i]->onnx_type != ctx->in[0]->onnx_type)
      rc = acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu is %s, input 0 is %s: a sequence holds one type",
                        i, acl__graph_onnx_type_name(ctx->in[i]->onnx_type),
                        acl__graph_onnx_type_name(ctx->in[0]->onnx_type));
  if (rc == 0)
    rc = new_seq(ctx, ctx->n_in ? ctx->in[0]->onnx_type : 0);
  for (size_t i = 0; rc == 0 && i < ctx->n_in; i++)
    if (ctx->in[i]->is_sequence || acl__tensor_seq_insert(&ctx->out[0], i, ctx->in[i]) != 0)
      rc = acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %zu cannot be added (a sequence, or out of memory)", i);
  return rc;
}

int acl__k_sequence_insert(acl__op_ctx *ctx) {
  int rc = need_seq(ctx, 0);
  if (rc == 0)
    rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *seq = ctx->in[0], *x = ctx->in[1];
  if (seq->onnx_type != 0 && seq->n_items > 0 && x->onnx_type != seq->onnx_type)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "tensor is %s, the sequence holds %s",
                        acl__graph_onnx_type_name(x->onnx_type), acl__graph_onnx_type_name(seq->onnx_type));
  int64_t n = (int64_t)seq->n_items, pos;
  rc = read_pos(ctx, 2, n, 1, n, &pos);
  if (rc == 0)
    rc = new_seq(ctx, seq->n_items > 0 ? seq->onnx_type : x->onnx_type);
  if (rc == 0)
    rc = copy_items(ctx, seq);
  if (rc == 0 && acl__tensor_seq_insert(&ctx->out[0], (size_t)pos, x) != 0)
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot insert into the sequence");
  return rc;
}

int acl__k_sequence_erase(acl__op_ctx *ctx) {
  int rc = need_seq(ctx, 0);
  if (rc != 0)
    return rc;
  const acl__tensor *seq = ctx->in[0];
  int64_t n = (int64_t)seq->n_items, pos;
  if (n == 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "cannot erase from an empty sequence");
  rc = read_pos(ctx, 1, n, 0, n - 1, &pos);
  if (rc == 0)
    rc = new_seq(ctx, seq->onnx_type);
  for (int64_t i = 0, j = 0; rc == 0 && i < n; i++)
    if (i != pos && acl__tensor_seq_insert(&ctx->out[0], (size_t)j++, &seq->items[i]) != 0)
      rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot copy the sequence");
  return rc;
}

int acl__k_sequence_at(acl__op_ctx *ctx) {
  int rc = need_seq(ctx, 0);
  if (rc == 0)
    rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  int64_t pos;
  rc = read_pos(ctx, 1, (int64_t)ctx->in[0]->n_items, 0, 0, &pos);
  if (rc == 0 && acl__tensor_copy(&ctx->out[0], &ctx->in[0]->items[pos]) != 0)
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot copy sequence item %lld", (long long)pos);
  return rc;
}

int acl__k_sequence_length(acl__op_ctx *ctx) {
  int rc = need_seq(ctx, 0);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, 0, NULL);
  if (rc == 0)
    *(int64_t *)ctx->out[0].data = (int64_t)ctx->in[0]->n_items;
  return rc;
}

/* Bytes of one slab: the elements after `axis` (for rank r, dims d). */
static size_t inner_bytes(const acl__tensor *t, int axis) {
  return (size_t)acl__op_numel(t->rank - axis - 1, t->dims + axis + 1) * acl__op_esize(t->onnx_type);
}

int acl__k_concat_from_sequence(acl__op_ctx *ctx) {
  int rc = need_seq(ctx, 0);
  if (rc != 0)
    return rc;
  const acl__tensor *seq = ctx->in[0];
  if (seq->n_items == 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "cannot concatenate an empty sequence");
  const acl__tensor *first = &seq->items[0];
  int new_axis = acl__op_attr_int(ctx, "new_axis", 0) != 0;
  int out_rank = first->rank + new_axis;
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), out_rank);
  if (axis < 0 || (!new_axis && first->rank == 0) || out_rank > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range for rank %d",
                        (long long)acl__op_attr_int(ctx, "axis", 0), first->rank);
  if (acl__op_esize(first->onnx_type) == 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(first->onnx_type));
  /* Each item seen with rank out_rank: a 1 inserted at `axis` for new_axis. */
  int64_t dims[ACL__EXEC_MAX_RANK];
  for (int d = 0, s = 0; d < out_rank; d++)
    dims[d] = new_axis && d == axis ? 1 : first->dims[s++];
  dims[axis] = 0;
  for (size_t i = 0; i < seq->n_items; i++) {
    const acl__tensor *it = &seq->items[i];
    int bad = it->onnx_type != first->onnx_type || it->rank != first->rank;
    for (int d = 0, s = 0; !bad && d < out_rank; d++) {
      if (new_axis && d == axis)
        continue;
      bad = d != axis && it->dims[s] != first->dims[s];
      if (d == axis)
        dims[axis] += it->dims[s];
      s++;
    }
    if (bad)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "item %zu differs in type or shape from item 0 off the axis",
                          i);
    if (new_axis)
      dims[axis] += 1;
  }
  rc = acl__op_alloc(ctx, 0, first->onnx_type, out_rank, dims);
  if (rc != 0)
    return rc;
  /* Rows before the axis are interleaved: each item contributes its slab per outer index. */
  int64_t outer = acl__op_numel(axis, dims);
  size_t es = acl__op_esize(first->onnx_type), row = (size_t)acl__op_numel(out_rank - axis - 1, dims + axis + 1) * es;
  char *dst = ctx->out[0].data;
  for (int64_t o = 0; o < outer; o++)
    for (size_t i = 0; i < seq->n_items; i++) {
      const acl__tensor *it = &seq->items[i];
      size_t chunk = (new_axis ? 1 : (size_t)it->dims[axis]) * row;
      memcpy(dst, (const char *)it->data + (size_t)o * chunk, chunk);
      dst += chunk;
    }
  return 0;
}

int acl__k_split_to_sequence(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  const acl__tensor *split = ctx->n_in > 1 ? ctx->in[1] : NULL;
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range for rank %d",
                        (long long)acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (acl__op_esize(x->onnx_type) == 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(x->onnx_type));
  int64_t len = x->dims[axis], chunk = 1;
  int keep = split != NULL || acl__op_attr_int(ctx, "keepdims", 1) != 0;
  int64_t n_parts = len;
  if (split != NULL && split->rank == 0) {
    chunk = acl__op_get_i64(split, 0);
    if (chunk <= 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "split size %lld must be positive", (long long)chunk);
    n_parts = (len + chunk - 1) / chunk;
  } else if (split != NULL) {
    n_parts = acl__tensor_numel(split);
    int64_t sum = 0;
    for (int64_t i = 0; i < n_parts; i++) {
      int64_t v = acl__op_get_i64(split, i);
      if (v < 0)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "split[%lld] is negative", (long long)i);
      sum += v;
    }
    if (sum != len)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "split sums to %lld, the axis has %lld",
                          (long long)sum, (long long)len);
  }
  rc = new_seq(ctx, x->onnx_type);
  int64_t outer = acl__op_numel(axis, x->dims), start = 0;
  size_t row = inner_bytes(x, axis);
  for (int64_t p = 0; rc == 0 && p < n_parts; p++) {
    int64_t n = split == NULL ? 1 : split->rank == 0 ? (len - start < chunk ? len - start : chunk)
                                                     : acl__op_get_i64(split, p);
    int64_t dims[ACL__EXEC_MAX_RANK];
    memcpy(dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
    dims[axis] = n;
    acl__tensor part;
    if (acl__tensor_alloc(&part, x->onnx_type, x->rank, dims) != 0) {
      rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate part %lld", (long long)p);
      break;
    }
    for (int64_t o = 0; o < outer; o++)
      memcpy((char *)part.data + (size_t)(o * n) * row, (const char *)x->data + (size_t)(o * len + start) * row,
             (size_t)n * row);
    if (!keep) { /* drop the axis of size 1 */
      memmove(&part.dims[axis], &part.dims[axis + 1], sizeof(int64_t) * (size_t)(x->rank - axis - 1));
      part.rank--;
    }
    if (acl__tensor_seq_insert(&ctx->out[0], (size_t)p, &part) != 0)
      rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot add part %lld", (long long)p);
    acl__tensor_release(&part);
    start += n;
  }
  return rc;
}
