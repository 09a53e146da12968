/*
 * unique.c - Unique (opset 11): the distinct slices of X along `axis` (or
 * the distinct elements of the flattened X without it), in sorted order or
 * in order of first occurrence, with the first-occurrence indices, the
 * inverse indices and the counts.  Slices compare element by element in
 * row-major order, as numpy.unique does; O(n^2) in the slice count, which
 * is fine for a reference.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

typedef struct {
  const acl__tensor *x;
  int64_t n, outer, inner; /* slices along the axis; elements before / after it */
} slices;

/* <0, 0, >0 as slice a sorts before, equal to or after slice b. */
static int slice_cmp(const slices *s, int64_t a, int64_t b) {
  for (int64_t o = 0; o < s->outer; o++)
    for (int64_t k = 0; k < s->inner; k++) {
      double va = acl__op_get(s->x, (o * s->n + a) * s->inner + k), vb = acl__op_get(s->x, (o * s->n + b) * s->inner + k);
      if (va != vb)
        return va < vb ? -1 : 1;
    }
  return 0;
}

int acl__k_unique(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  const acl__graph_attr *axis_attr = acl__op_attr(ctx, "axis");
  slices s = {x, acl__tensor_numel(x), 1, 1};
  int axis = -1;
  if (axis_attr != NULL) {
    axis = acl__op_axis(axis_attr->i, x->rank);
    if (axis < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range for rank %d", (long long)axis_attr->i,
                          x->rank);
    s.n = x->dims[axis];
    s.outer = acl__op_numel(axis, x->dims);
    s.inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  }
  if (!acl__op_numeric(x->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(x->onnx_type));
  int64_t *uniq = malloc((size_t)(s.n + 1) * sizeof(int64_t)), *inverse = malloc((size_t)(s.n + 1) * sizeof(int64_t));
  int64_t *counts = calloc((size_t)(s.n + 1), sizeof(int64_t)), nu = 0;
  if (uniq == NULL || inverse == NULL || counts == NULL) {
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
    goto out;
  }
  /* first occurrences, in order */
  for (int64_t i = 0; i < s.n; i++) {
    int64_t u = 0;
    while (u < nu && slice_cmp(&s, uniq[u], i) != 0)
      u++;
    if (u == nu)
      uniq[nu++] = i;
  }
  if (acl__op_attr_int(ctx, "sorted", 1) != 0) /* insertion sort: stable, and n is small */
    for (int64_t i = 1; i < nu; i++)
      for (int64_t j = i; j > 0 && slice_cmp(&s, uniq[j - 1], uniq[j]) > 0; j--) {
        int64_t t = uniq[j];
        uniq[j] = uniq[j - 1];
        uniq[j - 1] = t;
      }
  for (int64_t i = 0; i < s.n; i++) {
    int64_t u = 0;
    while (slice_cmp(&s, uniq[u], i) != 0)
      u++;
    inverse[i] = u;
    counts[u]++;
  }
  int64_t dims[ACL__EXEC_MAX_RANK];
  int rank = 1;
  dims[0] = nu;
  if (axis >= 0) {
    memcpy(dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
    dims[axis] = nu;
    rank = x->rank;
  }
  size_t es = acl__op_esize(x->onnx_type);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, rank, dims);
  for (int64_t o = 0; rc == 0 && o < s.outer; o++)
    for (int64_t u = 0; u < nu; u++)
      memcpy((char *)ctx->out[0].data + (size_t)((o * nu + u) * s.inner) * es,
             (const char *)x->data + (size_t)((o * s.n + uniq[u]) * s.inner) * es, (size_t)s.inner * es);
  const int64_t *src[3] = {uniq, inverse, counts};
  int64_t len[3] = {nu, s.n, nu};
  for (size_t k = 1; rc == 0 && k < 4; k++) {
    rc = acl__op_alloc(ctx, k, ACL__ONNX_INT64, 1, &len[k - 1]);
    if (rc == 0 && k < ctx->n_out && len[k - 1] > 0)
      memcpy(ctx->out[k].data, src[k - 1], (size_t)len[k - 1] * sizeof(int64_t));
  }
out:
  free(uniq);
  free(inverse);
  free(counts);
  return rc;
}
