/*
 * aclnn_clamp.c - the clamp family of reference aclnn.md section 8.3
 * (ctest -R api/aclnn/clamp): Clamp, ClampMin, ClampMax, InplaceClampMax
 * with scalar bounds, ClampTensor, ClampMinTensor, ClampMaxTensor and their
 * in-place forms, on every type they list, with broadcasting and NaN,
 * against references computed here; the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8};

static double *cvals(aclDataType t, int n, uint32_t seed) {
  double *v = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) {
    double u = nt_rand(&seed);
    v[i] = nt_round(t, t == ACL_UINT8 ? floor(u * 20) : nt_is_float(t) ? -6 + 12 * u : floor(u * 21) - 10);
  }
  return v;
}

static double clampd(double x, double lo, double hi) {
  if (x != x)
    return x;
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

TEST(scalar_bounds_every_type) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {3, 4};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    aclDataType t = types[k];
    double lo = t == ACL_UINT8 ? 5 : -3, hi = t == ACL_UINT8 ? 12 : 4;
    aclDataType bt = nt_is_float(t) ? ACL_FLOAT : ACL_INT64;
    for (int form = 0; form < 4; form++) { /* Clamp, ClampMin, ClampMax, InplaceClampMax */
      double *v = cvals(t, 12, 3u + (uint32_t)k), want[12];
      for (int i = 0; i < 12; i++)
        want[i] = clampd(v[i], form == 2 || form == 3 ? -INFINITY : lo, form == 1 ? INFINITY : hi);
      nt_tensor x = nt_make(t, 2, d, v), o = nt_make(t, 2, d, NULL);
      aclScalar *sl = nt_scalar(bt, lo), *sh = nt_scalar(bt, hi);
      uint64_t ws;
      aclOpExecutor *ex;
      nt_phase2 p2;
      if (form == 0) {
        NT_OK(aclnnClampGetWorkspaceSize(x.t, sl, sh, o.t, &ws, &ex));
        p2 = aclnnClamp;
      } else if (form == 1) {
        NT_OK(aclnnClampMinGetWorkspaceSize(x.t, sl, o.t, &ws, &ex));
        p2 = aclnnClampMin;
      } else if (form == 2) {
        NT_OK(aclnnClampMaxGetWorkspaceSize(x.t, sh, o.t, &ws, &ex));
        p2 = aclnnClampMax;
      } else {
        NT_OK(aclnnInplaceClampMaxGetWorkspaceSize(x.t, sh, &ws, &ex));
        p2 = aclnnInplaceClampMax;
      }
      nt_run(p2, ws, ex, st);
      double *g = nt_read(form == 3 ? &x : &o);
      char what[64];
      snprintf(what, sizeof what, "clamp form %d on %s", form, nt_name(t));
      NT_CHECK_ALL(what, g, want, 12, 0);
      free(g);
      free(v);
      aclDestroyScalar(sl);
      aclDestroyScalar(sh);
      nt_free(&x);
      nt_free(&o);
    }
  }
  /* one bound may be NULL in Clamp; NaN stays NaN */
  double v[3] = {NAN, -9, 9}, w[3] = {NAN, -9, 2};
  const int64_t d3[1] = {3};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d3, v), o = nt_make(ACL_FLOAT, 1, d3, NULL);
  aclScalar *two = nt_scalar(ACL_DOUBLE, 2), *fl = nt_scalar(ACL_FLOAT, 1.5);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnClampGetWorkspaceSize(x.t, NULL, two, o.t, &ws, &ex));
  nt_run(aclnnClamp, ws, ex, st);
  double *g = nt_read(&o);
  NT_CHECK_ALL("Clamp with max only", g, w, 3, 0);
  free(g);
  NT_FAILS(aclnnClampGetWorkspaceSize(x.t, NULL, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "at least one bound");
  NT_FAILS(aclnnClampMinGetWorkspaceSize(x.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "clipValueMin is NULL");
  NT_FAILS(aclnnClampMaxGetWorkspaceSize(NULL, two, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  nt_tensor xi = nt_make(ACL_INT32, 1, d3, NULL), xb = nt_make(ACL_BOOL, 1, d3, NULL);
  NT_FAILS(aclnnClampMinGetWorkspaceSize(xi.t, fl, xi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cannot be cast");
  NT_FAILS(aclnnClampMinGetWorkspaceSize(xb.t, two, xb.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  aclDestroyScalar(two);
  aclDestroyScalar(fl);
  nt_free(&x);
  nt_free(&o);
  nt_free(&xi);
  nt_free(&xb);
  nt_down(st);
}

TEST(tensor_bounds) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {3, 4}, dl[1] = {4}, dh[2] = {3, 1};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    aclDataType t = types[k];
    double *v = cvals(t, 12, 5u + (uint32_t)k), lo[4], hi[3], want[12];
    for (int i = 0; i < 4; i++)
      lo[i] = nt_round(t, t == ACL_UINT8 ? 2 + i : -4 + i);
    for (int i = 0; i < 3; i++)
      hi[i] = nt_round(t, t == ACL_UINT8 ? 10 + i : 1 + i);
    nt_tensor x = nt_make(t, 2, d, v), l = nt_make(t, 1, dl, lo), h = nt_make(t, 2, dh, hi), o = nt_make(t, 2, d, NULL);
    uint64_t ws;
    aclOpExecutor *ex;
    /* ClampTensor: [3, 4] with [4] and [3, 1] */
    NT_OK(aclnnClampTensorGetWorkspaceSize(x.t, l.t, h.t, o.t, &ws, &ex));
    nt_run(aclnnClampTensor, ws, ex, st);
    for (int i = 0; i < 12; i++)
      want[i] = clampd(v[i], lo[i % 4], hi[i / 4]);
    double *g = nt_read(&o);
    NT_CHECK_ALL("ClampTensor", g, want, 12, 0);
    free(g);
    NT_OK(aclnnClampMinTensorGetWorkspaceSize(x.t, l.t, o.t, &ws, &ex));
    nt_run(aclnnClampMinTensor, ws, ex, st);
    for (int i = 0; i < 12; i++)
      want[i] = clampd(v[i], lo[i % 4], INFINITY);
    g = nt_read(&o);
    NT_CHECK_ALL("ClampMinTensor", g, want, 12, 0);
    free(g);
    NT_OK(aclnnClampMaxTensorGetWorkspaceSize(x.t, h.t, o.t, &ws, &ex));
    nt_run(aclnnClampMaxTensor, ws, ex, st);
    for (int i = 0; i < 12; i++)
      want[i] = clampd(v[i], -INFINITY, hi[i / 4]);
    g = nt_read(&o);
    NT_CHECK_ALL("ClampMaxTensor", g, want, 12, 0);
    free(g);
    NT_OK(aclnnInplaceClampMinTensorGetWorkspaceSize(x.t, l.t, &ws, &ex));
    nt_run(aclnnInplaceClampMinTensor, ws, ex, st);
    NT_OK(aclnnInplaceClampMaxTensorGetWorkspaceSize(x.t, h.t, &ws, &ex));
    nt_run(aclnnInplaceClampMaxTensor, ws, ex, st);
    for (int i = 0; i < 12; i++)
      want[i] = clampd(v[i], lo[i % 4], hi[i / 4]);
    g = nt_read(&x);
    NT_CHECK_ALL("InplaceClampMin/MaxTensor", g, want, 12, 0);
    free(g);
    free(v);
    nt_free(&x);
    nt_free(&l);
    nt_free(&h);
    nt_free(&o);
  }
  const int64_t d5[1] = {5};
  nt_tensor x = nt_make(ACL_FLOAT, 2, d, NULL), bad = nt_make(ACL_FLOAT, 1, d5, NULL),
            o = nt_make(ACL_FLOAT, 2, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnClampTensorGetWorkspaceSize(x.t, bad.t, x.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not broadcast");
  NT_FAILS(aclnnClampTensorGetWorkspaceSize(x.t, NULL, x.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "clipValueMin is NULL");
  NT_FAILS(aclnnClampMaxTensorGetWorkspaceSize(x.t, x.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  nt_free(&x);
  nt_free(&bad);
  nt_free(&o);
  nt_down(st);
}
