/*
 * resize.c - Resize (opset 10+) and Upsample (opset 7 to 9): nearest,
 * (n-)linear and cubic interpolation over every axis, computed as the
 * tensor product of per-axis 1-D taps like ONNX's reference implementation
 * (edge values repeat beyond the border).  Arithmetic is in double.
 *
 * Opset differences handled here:
 *   Upsample  `scales` attribute in opset 7, input 1 from 9; asymmetric
 *             coordinates, nearest rounds down.
 *   Resize    opset 10: inputs X, scales, same coordinates as Upsample.
 *             opset 11+: inputs X, roi, scales, sizes, with
 *             coordinate_transformation_mode, nearest_mode, cubic_coeff_a,
 *             exclude_outside and extrapolation_value.  The opset 18
 *             attributes (antialias, axes, keep_aspect_ratio_policy) are
 *             not read.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

enum { CT_HALF, CT_PYTORCH, CT_ALIGN, CT_ASYM, CT_TFNN, CT_TFCROP };
enum { NM_RPF, NM_RPC, NM_FLOOR, NM_CEIL };
enum { MD_NEAREST, MD_LINEAR, MD_CUBIC };

typedef struct {
  int64_t idx[4];
  double w[4];
  int n;       /* taps used */
  int outside; /* tf_crop_and_resize: the coordinate lies outside the input */
} taps;

static int pick(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(s, names[i]) == 0)
      return i;
  return -1;
}

static void cubic_coeffs(double r, double a, double *c) {
  double s = 1 - r;
  c[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
  c[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
  c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
  c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
}

/* The taps of output coordinate o on one axis. */
static void make_taps(taps *t, int64_t o, int64_t lin, int64_t lout, double scale, double r0, double r1, int ct,
                      int mode, int nm, double a, int excl) {
  double x;
  switch (ct) {
  case CT_PYTORCH: x = lout > 1 ? ((double)o + 0.5) / scale - 0.5 : 0; break;
  case CT_ALIGN: /* like the reference: the unrounded output length scale * lin */
    x = scale * (double)lin != 1 ? (double)o * (double)(lin - 1) / (scale * (double)lin - 1) : 0;
    break;
  case CT_ASYM: x = (double)o / scale; break;
  case CT_TFNN: x = ((double)o + 0.5) / scale; break;
  case CT_TFCROP:
    x = lout > 1 ? r0 * (double)(lin - 1) + (double)o * (r1 - r0) * (double)(lin - 1) / (double)(lout - 1)
                 : 0.5 * (r0 + r1) * (double)(lin - 1);
    break;
  default: x = ((double)o + 0.5) / scale - 0.5; break;
  }
  t->outside = ct == CT_TFCROP && (x < 0 || x > (double)(lin - 1));
  double fl = floor(x);
  int64_t i0 = (int64_t)fl;
  double r = x - fl;
  if (mode == MD_NEAREST) {
    int up = 0;
    if (r != 0)
      up = nm == NM_RPF ? r > 0.5 : nm == NM_RPC ? r >= 0.5 : nm == NM_CEIL;
    t->n = 1;
    t->idx[0] = i0 + up;
    t->w[0] = 1;
  } else if (mode == MD_LINEAR) {
    t->n = 2;
    t->idx[0] = i0;
    t->idx[1] = i0 + 1;
    t->w[0] = 1 - r;
    t->w[1] = r;
  } else {
    if (r == 0) {
      i0 -= 1;
      r = 1;
    }
    t->n = 4;
    for (int k = 0; k < 4; k++)
      t->idx[k] = i0 - 1 + k;
    cubic_coeffs(r, a, t->w);
  }
  if (excl) {
    double s = 0;
    for (int k = 0; k < t->n; k++) {
      if (t->idx[k] < 0 || t->idx[k] >= lin)
        t->w[k] = 0;
      s += t->w[k];
    }
    for (int k = 0; k < t->n && s != 0; k++)
      t->w[k] /= s;
  }
  /* Drop zero taps; clamp the rest (edge padding). */
  int m = 0;
  for (int k = 0; k < t->n; k++) {
    if (t->w[k] == 0 && t->n > 1)
      continue;
    int64_t i = t->idx[k] < 0 ? 0 : t->idx[k] >= lin ? lin - 1 : t->idx[k];
    t->idx[m] = i;
    t->w[m] = t->w[k];
    m++;
  }
  if (m == 0) {
    t->idx[0] = 0;
    t->w[0] = 0;
    m = 1;
  }
  t->n = m;
}

int acl__k_resize(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int r = x->rank, legacy = strcmp(ctx->node->op_type, "Upsample") == 0 || ctx->opset < 11;
  if (!acl__op_numeric(x->onnx_type) || r < 1)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type not supported");
  static const char *const modes[] = {"nearest", "linear", "cubic"};
  static const char *const cts[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                    "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  static const char *const nms[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  int mode = pick(acl__op_attr_str(ctx, "mode", "nearest"), modes, 3);
  int ct = legacy ? CT_ASYM : pick(acl__op_attr_str(ctx, "coordinate_transformation_mode", "half_pixel"), cts, 6);
  int nm = legacy ? NM_FLOOR : pick(acl__op_attr_str(ctx, "nearest_mode", "round_prefer_floor"), nms, 4);
  if (mode < 0 || ct < 0 || nm < 0 || (legacy && mode == MD_CUBIC))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "mode or coordinate transformation not supported");
  double a = acl__op_attr_float(ctx, "cubic_coeff_a", -0.75f);
  int excl = !legacy && acl__op_attr_int(ctx, "exclude_outside", 0) != 0;
  double extrap = acl__op_attr_float(ctx, "extrapolation_value", 0.0f);
  /* scales / sizes / roi */
  const acl__tensor *sc = NULL, *sz = NULL, *roi = NULL;
  const float *sattr = NULL;
  int64_t nsattr = -1;
  if (legacy) {
    if (ctx->n_in > 1 && ctx->in[1] != NULL)
      sc = ctx->in[1];
    else {
      const acl__graph_attr *at = acl__op_attr(ctx, "scales");
      if (at == NULL)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "scales missing");
      sattr = at->floats;
      nsattr = at->type == ACL__ATTR_FLOATS ? (int64_t)at->count : -1;
    }
  } else {
    roi = ctx->n_in > 1 ? ctx->in[1] : NULL;
    sc = ctx->n_in > 2 ? ctx->in[2] : NULL;
    sz = ctx->n_in > 3 ? ctx->in[3] : NULL;
    if (sc != NULL && acl__tensor_numel(sc) == 0)
      sc = NULL;
    if (sz != NULL && acl__tensor_numel(sz) == 0)
      sz = NULL;
  }
  double scale[ACL__EXEC_MAX_RANK], r0[ACL__EXEC_MAX_RANK], r1[ACL__EXEC_MAX_RANK];
  int64_t od[ACL__EXEC_MAX_RANK];
  if (sz != NULL) {
    if (acl__tensor_numel(sz) != r)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "sizes must have one entry per axis");
    for (int i = 0; i < r; i++) {
      od[i] = acl__op_get_i64(sz, i);
      scale[i] = x->dims[i] > 0 ? (double)od[i] / (double)x->dims[i] : 1;
    }
  } else if (sc != NULL || sattr != NULL) {
    if ((sc != NULL ? acl__tensor_numel(sc) : nsattr) != r)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "scales must have one entry per axis");
    for (int i = 0; i < r; i++) {
      scale[i] = sc != NULL ? acl__op_get(sc, i) : (double)sattr[i];
      if (!(scale[i] > 0))
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "scales must be positive");
      od[i] = (int64_t)floor((double)x->dims[i] * scale[i]);
    }
  } else {
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "neither scales nor sizes given");
  }
  int has_roi = ct == CT_TFCROP && roi != NULL && acl__tensor_numel(roi) == 2 * r;
  for (int i = 0; i < r; i++) {
    r0[i] = has_roi ? acl__op_get(roi, i) : 0;
    r1[i] = has_roi ? acl__op_get(roi, r + i) : 1;
    if (od[i] < 0 || (od[i] > 0 && x->dims[i] == 0))
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "invalid output size");
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  int64_t total = 0, base[ACL__EXEC_MAX_RANK];
  for (int i = 0; i < r; i++) {
    base[i] = total;
    total += od[i];
  }
  taps *tp = calloc(total > 0 ? (size_t)total : 1, sizeof(taps));
  if (tp == NULL)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  for (int i = 0; i < r; i++)
    for (int64_t o = 0; o < od[i]; o++)
      make_taps(&tp[base[i] + o], o, x->dims[i], od[i], scale[i], r0[i], r1[i], ct, mode, nm, a, excl);
  int64_t xs[ACL__EXEC_MAX_RANK], n = acl__op_numel(r, od);
  int64_t s = 1;
  for (int i = r - 1; i >= 0; i--) {
    xs[i] = s;
    s *= x->dims[i];
  }
  const taps *cur[ACL__EXEC_MAX_RANK];
  for (int64_t e = 0; e < n; e++) {
    int64_t rem = e;
    int outside = 0;
    for (int d = r - 1; d >= 0; d--) {
      cur[d] = &tp[base[d] + rem % od[d]];
      rem /= od[d];
      outside |= cur[d]->outside;
    }
    if (outside) {
      acl__op_set(&ctx->out[0], e, extrap);
      continue;
    }
    /* Sum over the product of taps, odometer style. */
    int k[ACL__EXEC_MAX_RANK] = {0};
    double acc = 0;
    for (;;) {
      double w = 1;
      int64_t off = 0;
      for (int d = 0; d < r; d++) {
        w *= cur[d]->w[k[d]];
        off += cur[d]->idx[k[d]] * xs[d];
      }
      if (w != 0)
        acc += w * acl__op_get(x, off);
      int d = r - 1;
      while (d >= 0 && ++k[d] == cur[d]->n)
        k[d--] = 0;
      if (d < 0)
        break;
    }
    acl__op_set(&ctx->out[0], e, acc);
  }
  free(tp);
  return 0;
}
