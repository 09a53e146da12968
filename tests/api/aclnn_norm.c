/*
 * aclnn_norm.c - the normalisations of reference aclnn.md section 8.5
 * (ctest -R api/aclnn/norm): LayerNorm, RmsNorm, BatchNorm (inference and
 * training with the running statistics), GroupNorm on float32, float16 and
 * bfloat16 against double-precision references computed here; views;
 * optional parameters; the argument checks with their codes.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

static const aclDataType flt3[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

static double *vals(aclDataType t, int64_t n, uint32_t seed, double lo, double hi) {
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++)
    v[i] = nt_round(t, lo + (hi - lo) * nt_rand(&seed));
  return v;
}

static double tol(aclDataType t) { return t == ACL_FLOAT ? 1e-5 : 4 * nt_rtol(t); }

/* mean / rstd of n values at v with stride s */
static void stats(const double *v, int64_t n, int64_t s, double eps, double *mean, double *rstd) {
  double m = 0, q = 0;
  for (int64_t i = 0; i < n; i++)
    m += v[i * s];
  m /= (double)n;
  for (int64_t i = 0; i < n; i++)
    q += (v[i * s] - m) * (v[i * s] - m);
  *mean = m;
  *rstd = 1 / sqrt(q / (double)n + eps);
}

static void layer_case(aclrtStream st, aclDataType t, int with_wb, int view) {
  char what[96];
  snprintf(what, sizeof what, "LayerNorm on %s%s%s", nt_name(t), with_wb ? " with weight and bias" : "",
           view ? " (views)" : "");
  /* input [3, 4, 5] normalised over [4, 5] */
  const int64_t d[3] = {3, 4, 5}, ns[2] = {4, 5}, sd[3] = {3, 1, 1};
  double *x = vals(t, 60, 1, -3, 3), *w = vals(t, 20, 2, 0.5, 1.5), *b = vals(t, 20, 3, -1, 1), want[60], wm[3], wr[3];
  for (int r = 0; r < 3; r++) {
    stats(x + r * 20, 20, 1, 1e-5, &wm[r], &wr[r]);
    for (int i = 0; i < 20; i++)
      want[r * 20 + i] = nt_round(t, (x[r * 20 + i] - wm[r]) * wr[r] * (with_wb ? w[i] : 1) + (with_wb ? b[i] : 0));
  }
  nt_tensor xt, ot;
  if (view) { /* x: rows of 20 at a stride of 23; out: transposed storage of the last two dims */
    double sto[3 * 23];
    for (int i = 0; i < 69; i++)
      sto[i] = 0;
    for (int r = 0; r < 3; r++)
      for (int i = 0; i < 20; i++)
        sto[r * 23 + i] = x[r * 20 + i];
    const int64_t xs[3] = {23, 5, 1}, os[3] = {20, 1, 4};
    xt = nt_view(t, 3, d, xs, 0, 69, sto);
    ot = nt_view(t, 3, d, os, 0, 60, NULL);
  } else {
    xt = nt_make(t, 3, d, x);
    ot = nt_make(t, 3, d, NULL);
  }
  nt_tensor wt = nt_make(t, 2, ns, w), bt = nt_make(t, 2, ns, b), mt = nt_make(ACL_FLOAT, 3, sd, NULL),
            rt = nt_make(ACL_FLOAT, 3, sd, NULL);
  aclIntArray *na = aclCreateIntArray(ns, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnLayerNormGetWorkspaceSize(xt.t, na, with_wb ? wt.t : NULL, with_wb ? bt.t : NULL, 1e-5, ot.t, mt.t, rt.t,
                                       &ws, &ex));
  nt_run(aclnnLayerNorm, ws, ex, st);
  double *g = nt_read(&ot), *gm = nt_read(&mt), *gr = nt_read(&rt);
  NT_CHECK_ALL(what, g, want, 60, tol(t));
  NT_CHECK_ALL("LayerNorm mean", gm, wm, 3, 1e-5);
  NT_CHECK_ALL("LayerNorm rstd", gr, wr, 3, 1e-5);
  free(g);
  free(gm);
  free(gr);
  free(x);
  free(w);
  free(b);
  aclDestroyIntArray(na);
  nt_free(&xt);
  nt_free(&ot);
  nt_free(&wt);
  nt_free(&bt);
  nt_free(&mt);
  nt_free(&rt);
}

TEST(layer_norm) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++) {
    layer_case(st, flt3[i], 1, 0);
    layer_case(st, flt3[i], 0, 0);
    layer_case(st, flt3[i], 1, 1);
  }
  /* the ImplMode form, without the optional outputs */
  const int64_t d[2] = {2, 8}, ns[1] = {8};
  double *x = vals(ACL_FLOAT, 16, 9, -1, 1), want[16];
  for (int r = 0; r < 2; r++) {
    double m, rs;
    stats(x + r * 8, 8, 1, 0.1, &m, &rs);
    for (int i = 0; i < 8; i++)
      want[r * 8 + i] = (x[r * 8 + i] - m) * rs;
  }
  nt_tensor xt = nt_make(ACL_FLOAT, 2, d, x), ot = nt_make(ACL_FLOAT, 2, d, NULL);
  aclIntArray *na = aclCreateIntArray(ns, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnLayerNormWithImplModeGetWorkspaceSize(xt.t, na, NULL, NULL, 0.1, ot.t, NULL, NULL, 0, &ws, &ex));
  nt_run(aclnnLayerNormWithImplMode, ws, ex, st);
  double *g = nt_read(&ot);
  NT_CHECK_ALL("LayerNormWithImplMode", g, want, 16, 1e-5);
  free(g);
  free(x);
  aclDestroyIntArray(na);
  nt_free(&xt);
  nt_free(&ot);
  nt_down(st);
}

TEST(rms_norm) {
  aclrtStream st = nt_up();
  for (int k = 0; k < 3; k++) {
    aclDataType t = flt3[k];
    const int64_t d[3] = {2, 3, 6}, gd[1] = {6}, rd[3] = {2, 3, 1};
    double *x = vals(t, 36, 4, -2, 2), *gm = vals(t, 6, 5, 0.5, 2), want[36], wr[6];
    for (int r = 0; r < 6; r++) {
      double q = 0;
      for (int i = 0; i < 6; i++)
        q += x[r * 6 + i] * x[r * 6 + i];
      wr[r] = 1 / sqrt(q / 6 + 1e-6);
      for (int i = 0; i < 6; i++)
        want[r * 6 + i] = nt_round(t, x[r * 6 + i] * wr[r] * gm[i]);
    }
    nt_tensor xt = nt_make(t, 3, d, x), gt = nt_make(t, 1, gd, gm), yt = nt_make(t, 3, d, NULL),
              rt = nt_make(ACL_FLOAT, 3, rd, NULL);
    uint64_t ws;
    aclOpExecutor *ex;
    NT_OK(aclnnRmsNormGetWorkspaceSize(xt.t, gt.t, 1e-6, yt.t, rt.t, &ws, &ex));
    nt_run(aclnnRmsNorm, ws, ex, st);
    double *g = nt_read(&yt), *gr = nt_read(&rt);
    NT_CHECK_ALL("RmsNorm", g, want, 36, tol(t));
    NT_CHECK_ALL("RmsNorm rstd", gr, wr, 6, 1e-5);
    free(g);
    free(gr);
    free(x);
    free(gm);
    nt_free(&xt);
    nt_free(&gt);
    nt_free(&yt);
    nt_free(&rt);
  }
  nt_down(st);
}

TEST(add_rms_norm) {
  aclrtStream st = nt_up();
  for (int k = 0; k < 3; k++) {
    aclDataType t = flt3[k];
    const int64_t d[2] = {3, 8}, gd[1] = {8}, rd[2] = {3, 1};
    double *a = vals(t, 24, 14, -2, 2), *b = vals(t, 24, 15, -2, 2), *gm = vals(t, 8, 16, 0.5, 2), sum[24], want[24],
           wr[3];
    for (int r = 0; r < 3; r++) {
      double q = 0;
      for (int i = 0; i < 8; i++) {
        sum[r * 8 + i] = nt_round(t, a[r * 8 + i] + b[r * 8 + i]);
        q += sum[r * 8 + i] * sum[r * 8 + i];
      }
      wr[r] = 1 / sqrt(q / 8 + 1e-6);
      for (int i = 0; i < 8; i++)
        want[r * 8 + i] = nt_round(t, sum[r * 8 + i] * wr[r] * gm[i]);
    }
    nt_tensor at = nt_make(t, 2, d, a), bt = nt_make(t, 2, d, b), gt = nt_make(t, 1, gd, gm),
              yt = nt_make(t, 2, d, NULL), rt = nt_make(ACL_FLOAT, 2, rd, NULL);
    uint64_t ws;
    aclOpExecutor *ex;
    /* xOut is x1 itself: x1 is read from a copy */
    NT_OK(aclnnAddRmsNormGetWorkspaceSize(at.t, bt.t, gt.t, 1e-6, yt.t, rt.t, at.t, &ws, &ex));
    nt_run(aclnnAddRmsNorm, ws, ex, st);
    double *gy = nt_read(&yt), *gx = nt_read(&at), *gr = nt_read(&rt);
    NT_CHECK_ALL("AddRmsNorm yOut", gy, want, 24, tol(t));
    NT_CHECK_ALL("AddRmsNorm xOut", gx, sum, 24, 0);
    NT_CHECK_ALL("AddRmsNorm rstdOut", gr, wr, 3, tol(t));
    NT_FAILS(aclnnAddRmsNormGetWorkspaceSize(at.t, NULL, gt.t, 1e-6, yt.t, rt.t, at.t, &ws, &ex),
             ACLNN_ERR_PARAM_NULLPTR, "x2 is NULL");
    free(gy);
    free(gx);
    free(gr);
    free(a);
    free(b);
    free(gm);
    nt_free(&at);
    nt_free(&bt);
    nt_free(&gt);
    nt_free(&yt);
    nt_free(&rt);
  }
  nt_down(st);
}

static void batch_case(aclrtStream st, aclDataType t, int training) {
  char what[64];
  snprintf(what, sizeof what, "BatchNorm on %s, %s", nt_name(t), training ? "training" : "inference");
  /* input [2, 3, 4] (N, C, L) */
  const int64_t d[3] = {2, 3, 4}, cd[1] = {3};
  double *x = vals(t, 24, 6, -2, 2), *w = vals(t, 3, 7, 0.5, 1.5), *b = vals(t, 3, 8, -1, 1),
         *rm = vals(t, 3, 9, -0.5, 0.5), *rv = vals(t, 3, 10, 0.5, 2), want[24], wm[3], wi[3], nrm[3], nrv[3];
  const double eps = 1e-5, mom = 0.1;
  for (int c = 0; c < 3; c++) {
    double vbuf[8];
    for (int n = 0; n < 2; n++)
      for (int l = 0; l < 4; l++)
        vbuf[n * 4 + l] = x[(n * 3 + c) * 4 + l];
    double m, r;
    if (training) {
      stats(vbuf, 8, 1, eps, &m, &r);
      double var = 1 / (r * r) - eps;
      wm[c] = m;
      wi[c] = r;
      nrm[c] = nt_round(t, (1 - mom) * rm[c] + mom * m);
      nrv[c] = nt_round(t, (1 - mom) * rv[c] + mom * var * 8 / 7);
    } else {
      m = rm[c];
      r = 1 / sqrt(rv[c] + eps);
    }
    for (int n = 0; n < 2; n++)
      for (int l = 0; l < 4; l++) {
        int i = (n * 3 + c) * 4 + l;
        want[i] = nt_round(t, (x[i] - m) * r * w[c] + b[c]);
      }
  }
  nt_tensor xt = nt_make(t, 3, d, x), wt = nt_make(t, 1, cd, w), bt = nt_make(t, 1, cd, b), rmt = nt_make(t, 1, cd, rm),
            rvt = nt_make(t, 1, cd, rv), ot = nt_make(t, 3, d, NULL), smt = nt_make(ACL_FLOAT, 1, cd, NULL),
            sit = nt_make(ACL_FLOAT, 1, cd, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(
      aclnnBatchNormGetWorkspaceSize(xt.t, wt.t, bt.t, rmt.t, rvt.t, training, mom, eps, ot.t, smt.t, sit.t, &ws, &ex));
  nt_run(aclnnBatchNorm, ws, ex, st);
  double *g = nt_read(&ot);
  NT_CHECK_ALL(what, g, want, 24, tol(t));
  free(g);
  if (training) {
    double *gm = nt_read(&smt), *gi = nt_read(&sit), *grm = nt_read(&rmt), *grv = nt_read(&rvt);
    NT_CHECK_ALL("saveMean", gm, wm, 3, 1e-5);
    NT_CHECK_ALL("saveInvstd", gi, wi, 3, 1e-5);
    NT_CHECK_ALL("runningMean updated", grm, nrm, 3, tol(t));
    NT_CHECK_ALL("runningVar updated", grv, nrv, 3, tol(t));
    free(gm);
    free(gi);
    free(grm);
    free(grv);
  }
  free(x);
  free(w);
  free(b);
  free(rm);
  free(rv);
  nt_free(&xt);
  nt_free(&wt);
  nt_free(&bt);
  nt_free(&rmt);
  nt_free(&rvt);
  nt_free(&ot);
  nt_free(&smt);
  nt_free(&sit);
}

TEST(batch_norm) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++) {
    batch_case(st, flt3[i], 0);
    batch_case(st, flt3[i], 1);
  }
  nt_down(st);
}

TEST(group_norm) {
  aclrtStream st = nt_up();
  for (int k = 0; k < 3; k++) {
    aclDataType t = flt3[k];
    /* self [2, 6, 2, 3]: N 2, C 6, HxW 6, 3 groups of 2 channels */
    const int64_t d[4] = {2, 6, 2, 3}, cd[1] = {6}, sd[2] = {2, 3};
    double *x = vals(t, 72, 11, -2, 2), *gm = vals(t, 6, 12, 0.5, 1.5), *bt_v = vals(t, 6, 13, -1, 1), want[72], wm[6],
           wr[6];
    for (int n = 0; n < 2; n++)
      for (int g = 0; g < 3; g++) {
        const double *base = x + (n * 6 + g * 2) * 6;
        stats(base, 12, 1, 1e-5, &wm[n * 3 + g], &wr[n * 3 + g]);
        for (int i = 0; i < 12; i++) {
          int c = g * 2 + i / 6;
          want[(n * 6 + g * 2) * 6 + i] = nt_round(t, (base[i] - wm[n * 3 + g]) * wr[n * 3 + g] * gm[c] + bt_v[c]);
        }
      }
    nt_tensor xt = nt_make(t, 4, d, x), gt = nt_make(t, 1, cd, gm), bt = nt_make(t, 1, cd, bt_v),
              ot = nt_make(t, 4, d, NULL), mt = nt_make(t, 2, sd, NULL), rt = nt_make(t, 2, sd, NULL);
    uint64_t ws;
    aclOpExecutor *ex;
    NT_OK(aclnnGroupNormGetWorkspaceSize(xt.t, gt.t, bt.t, 2, 6, 6, 3, 1e-5, ot.t, mt.t, rt.t, &ws, &ex));
    nt_run(aclnnGroupNorm, ws, ex, st);
    double *g = nt_read(&ot), *gmo = nt_read(&mt), *gro = nt_read(&rt);
    for (int i = 0; i < 6; i++) {
      wm[i] = nt_round(t, wm[i]);
      wr[i] = nt_round(t, wr[i]);
    }
    NT_CHECK_ALL("GroupNorm", g, want, 72, tol(t));
    NT_CHECK_ALL("GroupNorm mean", gmo, wm, 6, tol(t));
    NT_CHECK_ALL("GroupNorm rstd", gro, wr, 6, tol(t));
    free(g);
    free(gmo);
    free(gro);
    free(x);
    free(gm);
    free(bt_v);
    nt_free(&xt);
    nt_free(&gt);
    nt_free(&bt);
    nt_free(&ot);
    nt_free(&mt);
    nt_free(&rt);
  }
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 4}, n4[1] = {4}, n3[1] = {3}, s21[2] = {2, 1};
  nt_tensor x = nt_make(ACL_FLOAT, 2, d, NULL), o = nt_make(ACL_FLOAT, 2, d, NULL),
            w4 = nt_make(ACL_FLOAT, 1, n4, NULL), w3 = nt_make(ACL_FLOAT, 1, n3, NULL),
            xi = nt_make(ACL_INT32, 2, d, NULL), r = nt_make(ACL_FLOAT, 2, s21, NULL),
            rh = nt_make(ACL_FLOAT16, 2, s21, NULL);
  aclIntArray *ns = aclCreateIntArray(n4, 1), *bad = aclCreateIntArray(n3, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnLayerNormGetWorkspaceSize(NULL, ns, NULL, NULL, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "input is NULL");
  NT_FAILS(aclnnLayerNormGetWorkspaceSize(x.t, NULL, NULL, NULL, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "normalizedShape is NULL");
  NT_FAILS(aclnnLayerNormGetWorkspaceSize(x.t, bad, NULL, NULL, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "normalizedShape");
  NT_FAILS(aclnnLayerNormGetWorkspaceSize(xi.t, ns, NULL, NULL, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnLayerNormGetWorkspaceSize(x.t, ns, w3.t, NULL, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "weightOptional has shape [3]");
  NT_FAILS(aclnnRmsNormGetWorkspaceSize(x.t, w3.t, 1e-6, o.t, r.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "last dims");
  NT_FAILS(aclnnRmsNormGetWorkspaceSize(x.t, w4.t, 1e-6, o.t, rh.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "ACL_FLOAT");
  NT_FAILS(aclnnRmsNormGetWorkspaceSize(x.t, w4.t, 1e-6, NULL, r.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "yOut is NULL");
  NT_FAILS(aclnnBatchNormGetWorkspaceSize(x.t, w3.t, NULL, w4.t, w4.t, false, 0.1, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "weight has shape [3]");
  NT_FAILS(aclnnBatchNormGetWorkspaceSize(x.t, NULL, NULL, NULL, w4.t, false, 0.1, 1e-5, o.t, NULL, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "runningMean is NULL");
  NT_FAILS(aclnnBatchNormGetWorkspaceSize(x.t, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, o.t, NULL, w4.t, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "saveMean is NULL");
  NT_FAILS(aclnnGroupNormGetWorkspaceSize(x.t, NULL, NULL, 2, 4, 1, 3, 1e-5, o.t, r.t, r.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "group is 3");
  NT_FAILS(aclnnGroupNormGetWorkspaceSize(x.t, NULL, NULL, 2, 5, 1, 1, 1e-5, o.t, r.t, r.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "is not [N = 2, C = 5");
  NT_FAILS(aclnnGroupNormGetWorkspaceSize(x.t, NULL, NULL, 2, 4, 1, 2, 0, o.t, r.t, r.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "eps is 0");
  aclDestroyIntArray(ns);
  aclDestroyIntArray(bad);
  nt_free(&x);
  nt_free(&o);
  nt_free(&w4);
  nt_free(&w3);
  nt_free(&xi);
  nt_free(&r);
  nt_free(&rh);
  nt_down(st);
}
