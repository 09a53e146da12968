/*
 * quant.c - linear (de)quantisation: QuantizeLinear, DequantizeLinear and
 * DynamicQuantizeLinear.
 *
 * Rounding is half to even (nearbyint in the default rounding mode), as the
 * ONNX spec asks; results saturate to the range of the quantised type.
 */
#include <math.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static double saturate(double v, int type) {
  double lo = type == ACL__ONNX_INT8 ? -128 : 0, hi = type == ACL__ONNX_INT8 ? 127 : 255;
  return v < lo ? lo : v > hi ? hi : v;
}

/* x / scale rounded half to even; float inputs divide in float, as ONNX's
 * reference does, so results on a .5 boundary agree with its test data. */
static double quant_div(const acl__tensor *x, double xv, double scale) {
  return nearbyint(x->onnx_type == ACL__ONNX_FLOAT ? (double)((float)xv / (float)scale) : xv / scale);
}

/* The index into scale / zero point of element i: per tensor, or along `axis`. */
static int64_t param_index(const acl__tensor *x, const acl__tensor *scale, int axis, int64_t i) {
  if (acl__tensor_numel(scale) == 1)
    return 0;
  int64_t inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  return (i / inner) % x->dims[axis];
}

/* Shared checks: x, scale (and optional zero point) fit; *axis normalised. */
static int check_params(acl__op_ctx *ctx, int *axis) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *scale = ctx->in[1];
  const acl__tensor *zp = ctx->n_in > 2 ? ctx->in[2] : NULL;
  *axis = x->rank > 0 ? acl__op_axis(acl__op_attr_int(ctx, "axis", 1), x->rank) : 0;
  int64_t ns = acl__tensor_numel(scale);
  if (ns != 1 && (*axis < 0 || scale->rank != 1 || ns != x->dims[*axis]))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM,
                        "scale has %lld elements: it must be a scalar or 1-D along axis %lld", (long long)ns,
                        (long long)acl__op_attr_int(ctx, "axis", 1));
  if (zp != NULL && acl__tensor_numel(zp) != ns)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "zero point and scale differ in size");
  return 0;
}

int acl__k_quantize_linear(acl__op_ctx *ctx) {
  int axis, rc = check_params(ctx, &axis);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *scale = ctx->in[1], *zp = ctx->n_in > 2 ? ctx->in[2] : NULL;
  int type = zp != NULL ? zp->onnx_type : ACL__ONNX_UINT8;
  if (type != ACL__ONNX_UINT8 && type != ACL__ONNX_INT8)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "zero point type %s: only uint8 and int8 are supported",
                        acl__graph_onnx_type_name(type));
  rc = acl__op_alloc(ctx, 0, type, x->rank, x->dims);
  for (int64_t i = 0; rc == 0 && i < acl__tensor_numel(x); i++) {
    int64_t p = param_index(x, scale, axis, i);
    double q = quant_div(x, acl__op_get(x, i), acl__op_get(scale, p)) + (zp != NULL ? acl__op_get(zp, p) : 0);
    acl__op_set(&ctx->out[0], i, saturate(q, type));
  }
  return rc;
}

int acl__k_dequantize_linear(acl__op_ctx *ctx) {
  int axis, rc = check_params(ctx, &axis);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *scale = ctx->in[1], *zp = ctx->n_in > 2 ? ctx->in[2] : NULL;
  rc = acl__op_alloc(ctx, 0, scale->onnx_type, x->rank, x->dims);
  for (int64_t i = 0; rc == 0 && i < acl__tensor_numel(x); i++) {
    int64_t p = param_index(x, scale, axis, i);
    acl__op_set(&ctx->out[0], i, (acl__op_get(x, i) - (zp != NULL ? acl__op_get(zp, p) : 0)) * acl__op_get(scale, p));
  }
  return rc;
}

/* uint8 with scale and zero point chosen so the range [min(x, 0), max(x, 0)] fits. */
int acl__k_dynamic_quantize_linear(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  double lo = 0, hi = 0;
  for (int64_t i = 0; i < acl__tensor_numel(x); i++) {
    double v = acl__op_get(x, i);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  /* in float throughout, like the op's definition; the scale output is float anyway */
  double scale = (double)((float)((float)hi - (float)lo) / 255.0f);
  double zp = scale != 0 ? saturate(nearbyint((double)(-(float)lo / (float)scale)), ACL__ONNX_UINT8) : 0;
  rc = acl__op_alloc(ctx, 0, ACL__ONNX_UINT8, x->rank, x->dims);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 1, ACL__ONNX_FLOAT, 0, NULL);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 2, ACL__ONNX_UINT8, 0, NULL);
  for (int64_t i = 0; rc == 0 && i < acl__tensor_numel(x); i++)
    acl__op_set(&ctx->out[0], i, scale != 0 ? saturate(quant_div(x, acl__op_get(x, i), scale) + zp, ACL__ONNX_UINT8) : zp);
  if (rc == 0) {
    acl__op_set(&ctx->out[1], 0, scale);
    acl__op_set(&ctx->out[2], 0, zp);
  }
  return rc;
}
