/*
 * loss.c - training losses: NegativeLogLikelihoodLoss (opset 12+) and
 * SoftmaxCrossEntropyLoss (opset 12+, with its optional log_prob output).
 *
 * Both take scores of shape (N, C, d1..dk), integer targets of shape
 * (N, d1..dk) and an optional weight per class; `ignore_index` (only when
 * the attribute is present) zeroes a target's loss and weight.  reduction
 * "none" yields (N, d1..dk), "sum" the sum, "mean" (default) the sum
 * divided by the sum of the weights of the targets not ignored.  All
 * arithmetic is in double.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

/* loss over log-probabilities lp (a tensor of the same shape as the scores,
 * read through acl__op_get) into out[0]. */
static int nll(acl__op_ctx *ctx, const acl__tensor *lp, const acl__tensor *tg, const acl__tensor *w) {
  if (lp->rank < 2 || tg->rank != lp->rank - 1 || tg->dims[0] != lp->dims[0])
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "scores must be (N, C, ...) and target (N, ...)");
  for (int i = 1; i < tg->rank; i++)
    if (tg->dims[i] != lp->dims[i + 1])
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "target shape does not match the scores");
  if (w != NULL && (w->rank != 1 || w->dims[0] != lp->dims[1]))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "weight must be of shape (C)");
  const char *red = acl__op_attr_str(ctx, "reduction", "mean");
  int mode = strcmp(red, "none") == 0 ? 0 : strcmp(red, "sum") == 0 ? 1 : strcmp(red, "mean") == 0 ? 2 : -1;
  if (mode < 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "reduction \"%s\" not supported", red);
  int has_ii = acl__op_attr(ctx, "ignore_index") != NULL;
  int64_t ii = acl__op_attr_int(ctx, "ignore_index", 0);
  int64_t n = lp->dims[0], c = lp->dims[1], inner = acl__op_numel(lp->rank - 2, lp->dims + 2);
  int rc = mode == 0 ? acl__op_alloc(ctx, 0, lp->onnx_type, tg->rank, tg->dims)
                     : acl__op_alloc(ctx, 0, lp->onnx_type, 0, NULL);
  if (rc != 0)
    return rc;
  double sum = 0, wsum = 0;
  for (int64_t b = 0; b < n; b++)
    for (int64_t j = 0; j < inner; j++) {
      int64_t t = acl__op_get_i64(tg, b * inner + j);
      double l = 0, wt = 0;
      if (!(has_ii && t == ii)) {
        if (t < 0 || t >= c)
          return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "target %lld out of range", (long long)t);
        wt = w != NULL ? acl__op_get(w, t) : 1.0;
        l = -acl__op_get(lp, (b * c + t) * inner + j) * wt;
      }
      if (mode == 0)
        acl__op_set(&ctx->out[0], b * inner + j, l);
      sum += l;
      wsum += wt;
    }
  if (mode == 1)
    acl__op_set(&ctx->out[0], 0, sum);
  else if (mode == 2)
    acl__op_set(&ctx->out[0], 0, wsum != 0 ? sum / wsum : 0.0);
  return 0;
}

int acl__k_nllloss(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  return nll(ctx, ctx->in[0], ctx->in[1], ctx->n_in > 2 ? ctx->in[2] : NULL);
}

int acl__k_sce(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->rank < 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "scores must be (N, C, ...)");
  /* log_softmax over axis 1, kept as the second output when asked for. */
  acl__tensor lp;
  memset(&lp, 0, sizeof(lp));
  if (acl__tensor_alloc(&lp, x->onnx_type, x->rank, x->dims) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  int64_t n = x->dims[0], c = x->dims[1], inner = acl__op_numel(x->rank - 2, x->dims + 2);
  for (int64_t b = 0; b < n; b++)
    for (int64_t j = 0; j < inner; j++) {
      double m = -INFINITY, s = 0;
      for (int64_t k = 0; k < c; k++) {
        double v = acl__op_get(x, (b * c + k) * inner + j);
        m = v > m ? v : m;
      }
      for (int64_t k = 0; k < c; k++)
        s += exp(acl__op_get(x, (b * c + k) * inner + j) - m);
      double ls = log(s) + m;
      for (int64_t k = 0; k < c; k++)
        acl__op_set(&lp, (b * c + k) * inner + j, acl__op_get(x, (b * c + k) * inner + j) - ls);
    }
  rc = nll(ctx, &lp, ctx->in[1], ctx->n_in > 2 ? ctx->in[2] : NULL);
  if (rc == 0 && ctx->n_out > 1)
    ctx->out[1] = lp;
  else
    acl__tensor_release(&lp);
  return rc;
}
