/*
 * windows.c - the signal windows of opset 17: HannWindow, HammingWindow,
 * BlackmanWindow.  Input: the window length (a scalar); attributes
 * `periodic` (1: the period is the length, for spectral analysis; 0:
 * symmetric, the period is length - 1) and `output_datatype` (float).
 */
#include <math.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int acl__k_window(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  int64_t size = acl__op_get_i64(ctx->in[0], 0);
  if (acl__tensor_numel(ctx->in[0]) != 1 || size < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "size must be one non-negative integer");
  int type = (int)acl__op_attr_int(ctx, "output_datatype", ACL__ONNX_FLOAT);
  rc = acl__op_alloc(ctx, 0, type, 1, &size);
  if (rc != 0)
    return rc;
  double period = acl__op_attr_int(ctx, "periodic", 1) != 0 ? (double)size : (double)(size - 1);
  const char *op = ctx->node->op_type;
  /* the cosine terms: a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N) */
  double a0 = 0.5, a1 = 0.5, a2 = 0;
  if (strcmp(op, "HammingWindow") == 0)
    a0 = 25.0 / 46, a1 = 21.0 / 46;
  else if (strcmp(op, "BlackmanWindow") == 0)
    a0 = 0.42, a1 = 0.5, a2 = 0.08;
  for (int64_t n = 0; n < size; n++) {
    double w = period > 0 ? 2 * M_PI * (double)n / period : 0;
    acl__op_set(&ctx->out[0], n, a0 - a1 * cos(w) + a2 * cos(2 * w));
  }
  return 0;
}
