/* reduce.c - the Reduce* family and ArgMax/ArgMin. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* Which axes to reduce: mask[rank]; returns 0, 1 = nothing to reduce (identity), or an error. */
static int reduce_axes(acl__op_ctx *ctx, const acl__tensor *x, int *mask) {
  const int64_t *ax = NULL;
  int64_t nax = acl__op_attr_ints(ctx, "axes", &ax);
  int64_t tmp[ACL__EXEC_MAX_RANK];
  if (ctx->n_in > 1 && ctx->in[1] != NULL) {
    nax = acl__tensor_numel(ctx->in[1]);
    if (nax > ACL__EXEC_MAX_RANK)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "too many axes");
    for (int64_t i = 0; i < nax; i++)
      tmp[i] = acl__op_get_i64(ctx->in[1], i);
    ax = tmp;
  }
  for (int i = 0; i < x->rank; i++)
    mask[i] = nax <= 0;
  if (nax <= 0 && acl__op_attr_int(ctx, "noop_with_empty_axes", 0) != 0)
    return 1;
  for (int64_t i = 0; i < nax && nax > 0; i++) {
    int a = acl__op_axis(ax[i], x->rank);
    if (a < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range", (long long)ax[i]);
    mask[a] = 1;
  }
  return 0;
}

int acl__k_reduce(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int mask[ACL__EXEC_MAX_RANK];
  rc = reduce_axes(ctx, x, mask);
  if (rc > 1)
    return rc;
  int keep = (int)acl__op_attr_int(ctx, "keepdims", 1);
  const char *op = ctx->node->op_type + 6;
  int64_t od[ACL__EXEC_MAX_RANK], kd[ACL__EXEC_MAX_RANK];
  int ro = 0;
  for (int i = 0; i < x->rank; i++) {
    int red = rc == 0 && mask[i];
    kd[i] = red ? 1 : x->dims[i];
    if (!red || keep)
      od[ro++] = kd[i];
  }
  int noop = rc == 1;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, ro, od);
  if (rc != 0)
    return rc;
  int64_t no = acl__op_numel(x->rank, kd), n = acl__tensor_numel(x);
  double *acc = malloc((size_t)(no ? no : 1) * sizeof(double));
  int64_t *cnt = calloc((size_t)(no ? no : 1), sizeof(int64_t));
  if (acc == NULL || cnt == NULL) {
    free(acc);
    free(cnt);
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  }
  int ismax = strcmp(op, "Max") == 0, ismin = strcmp(op, "Min") == 0, isprod = strcmp(op, "Prod") == 0;
  for (int64_t i = 0; i < no; i++)
    acc[i] = ismax ? -INFINITY : ismin ? INFINITY : isprod ? 1 : 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, oi = 0, mul = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
      int64_t q = rem % x->dims[d];
      rem /= x->dims[d];
      oi += (kd[d] == 1 ? 0 : q) * mul;
      mul *= kd[d];
    }
    double v = acl__op_get(x, i);
    if (noop)
      acc[oi] = v;
    else if (ismax)
      acc[oi] = v > acc[oi] || isnan(v) ? v : acc[oi];
    else if (ismin)
      acc[oi] = v < acc[oi] || isnan(v) ? v : acc[oi];
    else if (isprod)
      acc[oi] *= v;
    else if (strcmp(op, "L1") == 0)
      acc[oi] += fabs(v);
    else if (strcmp(op, "L2") == 0 || strcmp(op, "SumSquare") == 0)
      acc[oi] += v * v;
    else if (strcmp(op, "LogSumExp") == 0)
      acc[oi] += exp(v);
    else
      acc[oi] += v;
    cnt[oi]++;
  }
  for (int64_t i = 0; i < no; i++) {
    double v = acc[i];
    if (!noop) {
      if (strcmp(op, "Mean") == 0)
        v = cnt[i] ? v / (double)cnt[i] : NAN;
      else if (strcmp(op, "L2") == 0)
        v = sqrt(v);
      else if (strcmp(op, "LogSum") == 0 || strcmp(op, "LogSumExp") == 0)
        v = log(v);
    }
    acl__op_set(&ctx->out[0], i, v);
  }
  free(acc);
  free(cnt);
  return 0;
}

int acl__k_argminmax(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  int keep = (int)acl__op_attr_int(ctx, "keepdims", 1), last = (int)acl__op_attr_int(ctx, "select_last_index", 0);
  int ismax = strcmp(ctx->node->op_type, "ArgMax") == 0;
  int64_t od[ACL__EXEC_MAX_RANK];
  int ro = 0;
  for (int i = 0; i < x->rank; i++)
    if (i != axis || keep)
      od[ro++] = i == axis ? 1 : x->dims[i];
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_INT64, ro, od);
  if (rc != 0)
    return rc;
  int64_t outer = acl__op_numel(axis, x->dims), len = x->dims[axis];
  int64_t inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t best = 0;
      double bv = acl__op_get(x, o * len * inner + in);
      for (int64_t i = 1; i < len; i++) {
        double v = acl__op_get(x, (o * len + i) * inner + in);
        int better = ismax ? (last ? v >= bv : v > bv) : (last ? v <= bv : v < bv);
        if (better) {
          bv = v;
          best = i;
        }
      }
      ((int64_t *)ctx->out[0].data)[o * inner + in] = best;
    }
  return 0;
}
