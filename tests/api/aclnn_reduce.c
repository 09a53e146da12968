/*
 * aclnn_reduce.c - the reductions of reference aclnn.md section 8.11
 * (ctest -R api/aclnn/reduce): ReduceSum, Mean, MeanV2, Amax, Amin,
 * ArgMax, ArgMin over every type they list, over each set of dims, with and
 * without keepDim, on views, against references computed here; NaN; the
 * argument checks with their codes.  Also Sum of a tensor list (AddN, not a
 * reduction): every type, broadcasting, views, out over a term's memory.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_norm.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};

enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN };

/* Reference over self [2, 3, 4] (dense v) reducing the dims in mask; out dense over the kept dims. */
static int64_t ref_reduce(int kind, const double *v, int mask, double *out) {
  const int64_t d[3] = {2, 3, 4};
  int64_t kept[3], nk = 0, nrows = 1;
  for (int i = 0; i < 3; i++)
    if (!(mask & (1 << i))) {
      kept[nk++] = i;
      nrows *= d[i];
    }
  for (int64_t r = 0; r < nrows; r++) {
    int64_t idx[3] = {0, 0, 0}, rem = r;
    for (int64_t k = nk - 1; k >= 0; k--) {
      idx[kept[k]] = rem % d[kept[k]];
      rem /= d[kept[k]];
    }
    double acc = kind == R_SUM || kind == R_MEAN ? 0 : NAN;
    int64_t n = 0, best = 0, pos = 0;
    for (int64_t a = 0; a < 2; a++)
      for (int64_t b = 0; b < 3; b++)
        for (int64_t c = 0; c < 4; c++) {
          int64_t id[3] = {a, b, c};
          int ok = 1;
          for (int i = 0; i < 3; i++)
            if (!(mask & (1 << i)) && id[i] != idx[i])
              ok = 0;
          if (!ok)
            continue;
          double x = v[(a * 3 + b) * 4 + c];
          if (kind == R_SUM || kind == R_MEAN)
            acc += x;
          else if (n == 0 || (kind == R_MAX || kind == R_ARGMAX ? x > acc : x < acc)) {
            acc = x;
            best = pos;
          }
          n++;
          pos++;
        }
    out[r] = kind == R_MEAN ? acc / (double)n : kind >= R_ARGMAX ? (double)best : acc;
  }
  return nrows;
}

typedef aclnnStatus (*red_p1)(const aclTensor *, const aclIntArray *, bool, aclTensor *, uint64_t *, aclOpExecutor **);

static void red_case(aclrtStream st, int kind, aclDataType t, int mask, int keep, int view) {
  static const char *names[] = {"ReduceSum", "Mean", "Amax", "Amin", "ArgMax", "ArgMin"};
  char what[128];
  snprintf(what, sizeof what, "%s on %s, dims mask %d%s%s", names[kind], nt_name(t), mask, keep ? ", keepDim" : "",
           view ? " (view)" : "");
  const int64_t d[3] = {2, 3, 4};
  double v[24], want[24];
  uint32_t seed = 5u + (uint32_t)t;
  for (int i = 0; i < 24; i++) {
    double u = nt_rand(&seed);
    v[i] = nt_round(t, t == ACL_BOOL    ? (u < 0.5)
                       : t == ACL_UINT8 ? floor(u * 50)
                       : nt_is_float(t) ? -4 + 8 * u
                                        : floor(u * 41) - 20);
  }
  int64_t rows = ref_reduce(kind, v, mask, want);
  aclDataType ot = kind >= R_ARGMAX ? ACL_INT64 : kind == R_MEAN && !nt_is_float(t) ? ACL_FLOAT : t;
  if (kind == R_SUM && t == ACL_BOOL)
    ot = ACL_INT64;
  for (int64_t i = 0; i < rows; i++)
    want[i] = nt_round(ot, want[i]);
  int64_t od[3], nd = 0, dl[3], ndl = 0;
  for (int i = 0; i < 3; i++) {
    if (mask & (1 << i))
      dl[ndl++] = i;
    if (!(mask & (1 << i)) || keep)
      od[nd++] = mask & (1 << i) ? 1 : d[i];
  }
  nt_tensor x, o = nt_make(ot, nd, od, NULL);
  if (view) { /* self: dims 0 and 2 swapped in memory */
    double sto[24];
    for (int i = 0; i < 24; i++)
      sto[(i % 4) * 6 + ((i / 4) % 3) * 2 + i / 12] = v[i];
    const int64_t xs[3] = {1, 2, 6};
    x = nt_view(t, 3, d, xs, 0, 24, sto);
  } else {
    x = nt_make(t, 3, d, v);
  }
  aclIntArray *da = aclCreateIntArray(dl, (uint64_t)ndl);
  uint64_t ws;
  aclOpExecutor *ex;
  int rc;
  nt_phase2 p2;
  switch (kind) {
  case R_SUM:
    rc = aclnnReduceSumGetWorkspaceSize(x.t, da, keep, ot, o.t, &ws, &ex);
    p2 = aclnnReduceSum;
    break;
  case R_MEAN:
    rc = aclnnMeanGetWorkspaceSize(x.t, da, keep, ot, o.t, &ws, &ex);
    p2 = aclnnMean;
    break;
  case R_MAX:
    rc = aclnnAmaxGetWorkspaceSize(x.t, da, keep, o.t, &ws, &ex);
    p2 = aclnnAmax;
    break;
  case R_MIN:
    rc = aclnnAminGetWorkspaceSize(x.t, da, keep, o.t, &ws, &ex);
    p2 = aclnnAmin;
    break;
  case R_ARGMAX:
    rc = aclnnArgMaxGetWorkspaceSize(x.t, dl[0], keep, o.t, &ws, &ex);
    p2 = aclnnArgMax;
    break;
  default:
    rc = aclnnArgMinGetWorkspaceSize(x.t, dl[0] - 3, keep, o.t, &ws, &ex);
    p2 = aclnnArgMin;
    break;
  }
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  nt_run(p2, ws, ex, st);
  double *g = nt_read(&o);
  NT_CHECK_ALL(what, g, want, rows, 2 * nt_rtol(ot));
  free(g);
  aclDestroyIntArray(da);
  nt_free(&x);
  nt_free(&o);
}

TEST(every_type_and_dims) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
    aclDataType t = types[i];
    for (int mask = 1; mask < 8; mask++)
      for (int keep = 0; keep < 2; keep++) {
        red_case(st, R_SUM, t, mask, keep, 0);
        red_case(st, R_MAX, t, mask, keep, 0);
        red_case(st, R_MIN, t, mask, keep, 0);
        if (t != ACL_BOOL)
          red_case(st, R_MEAN, t, mask, keep, 0);
      }
    if (t == ACL_BOOL)
      continue;
    for (int dim = 0; dim < 3; dim++)
      for (int keep = 0; keep < 2; keep++) {
        red_case(st, R_ARGMAX, t, 1 << dim, keep, 0);
        red_case(st, R_ARGMIN, t, 1 << dim, keep, 0);
      }
  }
  nt_down(st);
}

TEST(views) {
  aclrtStream st = nt_up();
  for (int mask = 1; mask < 8; mask++) {
    red_case(st, R_SUM, ACL_FLOAT, mask, 1, 1);
    red_case(st, R_MEAN, ACL_BF16, mask, 0, 1);
    red_case(st, R_MAX, ACL_INT32, mask, 0, 1);
  }
  red_case(st, R_ARGMAX, ACL_FLOAT16, 2, 0, 1);
  nt_down(st);
}

TEST(all_dims_nan_and_mean_v2) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {5};
  double v[5] = {1, NAN, 7, 3, NAN};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d, v), o = nt_make(ACL_FLOAT, 0, NULL, NULL),
            oi = nt_make(ACL_INT64, 0, NULL, NULL);
  aclIntArray *none = aclCreateIntArray(NULL, 0);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAmaxGetWorkspaceSize(x.t, none, false, o.t, &ws, &ex));
  nt_run(aclnnAmax, ws, ex, st);
  double *g = nt_read(&o);
  CHECK(isnan(g[0]));
  free(g);
  NT_OK(aclnnArgMinGetWorkspaceSize(x.t, 0, false, oi.t, &ws, &ex));
  nt_run(aclnnArgMin, ws, ex, st);
  g = nt_read(&oi);
  CHECK(g[0] == 1); /* the first NaN */
  free(g);
  /* MeanV2: empty dims with noopWithEmptyAxes copies, without it reduces everything */
  double w[5] = {1, 2, 3, 4, 10};
  nt_tensor y = nt_make(ACL_FLOAT, 1, d, w), yo = nt_make(ACL_FLOAT, 1, d, NULL);
  NT_OK(aclnnMeanV2GetWorkspaceSize(y.t, none, false, true, yo.t, &ws, &ex));
  nt_run(aclnnMeanV2, ws, ex, st);
  g = nt_read(&yo);
  NT_CHECK_ALL("MeanV2 noop", g, w, 5, 0);
  free(g);
  NT_OK(aclnnMeanV2GetWorkspaceSize(y.t, none, false, false, o.t, &ws, &ex));
  nt_run(aclnnMeanV2, ws, ex, st);
  g = nt_read(&o);
  CHECK(g[0] == 4);
  free(g);
  /* ReduceSum of int8 into int32 does not wrap at 8 bits; of an empty tensor is 0 */
  double big[5] = {100, 100, 100, 0, 0};
  nt_tensor b8 = nt_make(ACL_INT8, 1, d, big), s32 = nt_make(ACL_INT32, 0, NULL, NULL);
  NT_OK(aclnnReduceSumGetWorkspaceSize(b8.t, none, false, ACL_INT32, s32.t, &ws, &ex));
  nt_run(aclnnReduceSum, ws, ex, st);
  g = nt_read(&s32);
  CHECK(g[0] == 300);
  free(g);
  const int64_t z[1] = {0};
  nt_tensor e = nt_make(ACL_FLOAT, 1, z, NULL);
  NT_OK(aclnnReduceSumGetWorkspaceSize(e.t, none, false, ACL_FLOAT, o.t, &ws, &ex));
  nt_run(aclnnReduceSum, ws, ex, st);
  g = nt_read(&o);
  CHECK(g[0] == 0);
  free(g);
  aclDestroyIntArray(none);
  nt_free(&x);
  nt_free(&o);
  nt_free(&oi);
  nt_free(&y);
  nt_free(&yo);
  nt_free(&b8);
  nt_free(&s32);
  nt_free(&e);
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 3}, d2[1] = {2}, d3[1] = {3};
  nt_tensor x = nt_make(ACL_FLOAT, 2, d, NULL), o2 = nt_make(ACL_FLOAT, 1, d2, NULL),
            o3 = nt_make(ACL_FLOAT, 1, d3, NULL), oi = nt_make(ACL_INT64, 1, d2, NULL),
            oh = nt_make(ACL_FLOAT16, 1, d2, NULL), oc = nt_make(ACL_COMPLEX64, 2, d, NULL);
  int64_t one[1] = {1}, twice[2] = {1, -1}, far[1] = {2};
  aclIntArray *a1 = aclCreateIntArray(one, 1), *a2 = aclCreateIntArray(twice, 2), *af = aclCreateIntArray(far, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(NULL, a1, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "self is NULL");
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(x.t, NULL, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "dims is NULL");
  NT_FAILS(aclnnAmaxGetWorkspaceSize(x.t, a1, false, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(x.t, a1, false, ACL_INT32, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "dtype is ACL_INT32");
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(x.t, a1, false, ACL_FLOAT, o3.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "has shape [3]");
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(x.t, a2, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "twice");
  /* the shared checks name the function the program called */
  NT_FAILS(aclnnReduceSumGetWorkspaceSize(x.t, a2, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "aclnnReduceSumGetWorkspaceSize failed");
  NT_FAILS(aclnnMeanGetWorkspaceSize(x.t, af, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "aclnnMeanGetWorkspaceSize failed");
  NT_FAILS(aclnnMeanGetWorkspaceSize(x.t, af, false, ACL_FLOAT, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out of range");
  NT_FAILS(aclnnMeanGetWorkspaceSize(x.t, a1, false, ACL_INT32, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "dtype is ACL_INT32");
  NT_FAILS(aclnnAminGetWorkspaceSize(x.t, a1, false, oh.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "self's type");
  NT_FAILS(aclnnArgMaxGetWorkspaceSize(x.t, 1, false, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnArgMinGetWorkspaceSize(x.t, 5, false, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "out of range");
  NT_FAILS(aclnnAmaxGetWorkspaceSize(oc.t, a1, false, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "complex");
  const int64_t ez[2] = {2, 0};
  nt_tensor e = nt_make(ACL_FLOAT, 2, ez, NULL);
  NT_FAILS(aclnnAmaxGetWorkspaceSize(e.t, a1, false, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "empty dims");
  aclDestroyIntArray(a1);
  aclDestroyIntArray(a2);
  aclDestroyIntArray(af);
  nt_free(&x);
  nt_free(&o2);
  nt_free(&o3);
  nt_free(&oi);
  nt_free(&oh);
  nt_free(&oc);
  nt_free(&e);
  nt_down(st);
}

/* Max / Min of all elements, MaxDim / MinDim, Prod / ProdDim, LogSumExp, Norm on a [2, 3] tensor. */
TEST(max_min_dim_prod_logsumexp_norm) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 3}, d2[1] = {2}, d3[1] = {3}, one[1] = {1};
  double v[6] = {1, -4, 2.5, 3, 0.5, -2};
  uint64_t ws;
  aclOpExecutor *ex;
  for (int k = 0; k < 3; k++) {
    aclDataType t = k == 0 ? ACL_FLOAT : k == 1 ? ACL_FLOAT16 : ACL_INT32;
    double tv[6];
    for (int i = 0; i < 6; i++)
      tv[i] = nt_round(t, v[i]);
    nt_tensor x = nt_make(t, 2, d, tv), o0 = nt_make(t, 0, NULL, NULL), o1 = nt_make(t, 1, one, NULL),
              od = nt_make(t, 1, d2, NULL), oi = nt_make(ACL_INT64, 1, d2, NULL);
    NT_OK(aclnnMaxGetWorkspaceSize(x.t, o0.t, &ws, &ex));
    nt_run(aclnnMax, ws, ex, st);
    double *g = nt_read(&o0);
    CHECK(g[0] == tv[3]);
    free(g);
    NT_OK(aclnnMinGetWorkspaceSize(x.t, o1.t, &ws, &ex)); /* a one-element [1] out works too */
    nt_run(aclnnMin, ws, ex, st);
    g = nt_read(&o1);
    CHECK(g[0] == tv[1]);
    free(g);
    NT_OK(aclnnMaxDimGetWorkspaceSize(x.t, 1, false, od.t, oi.t, &ws, &ex));
    nt_run(aclnnMaxDim, ws, ex, st);
    double *gv = nt_read(&od), *gi = nt_read(&oi), wv[2] = {tv[2], tv[3]}, wi[2] = {2, 0};
    NT_CHECK_ALL("MaxDim values", gv, wv, 2, 0);
    NT_CHECK_ALL("MaxDim indices", gi, wi, 2, 0);
    free(gv);
    free(gi);
    NT_OK(aclnnMinDimGetWorkspaceSize(x.t, -1, false, od.t, oi.t, &ws, &ex));
    nt_run(aclnnMinDim, ws, ex, st);
    gv = nt_read(&od);
    gi = nt_read(&oi);
    double mv[2] = {tv[1], tv[5]}, mi[2] = {1, 2};
    NT_CHECK_ALL("MinDim values", gv, mv, 2, 0);
    NT_CHECK_ALL("MinDim indices", gi, mi, 2, 0);
    free(gv);
    free(gi);
    /* products: all, then along dim 0 in the same type */
    NT_OK(aclnnProdGetWorkspaceSize(x.t, t, o0.t, &ws, &ex));
    nt_run(aclnnProd, ws, ex, st);
    g = nt_read(&o0);
    double pa = 1;
    for (int i = 0; i < 6; i++)
      pa *= tv[i];
    CHECK(g[0] == nt_round(t, pa));
    free(g);
    nt_tensor o3 = nt_make(t, 1, d3, NULL);
    NT_OK(aclnnProdDimGetWorkspaceSize(x.t, 0, false, t, o3.t, &ws, &ex));
    nt_run(aclnnProdDim, ws, ex, st);
    g = nt_read(&o3);
    double pd[3] = {nt_round(t, tv[0] * tv[3]), nt_round(t, tv[1] * tv[4]), nt_round(t, tv[2] * tv[5])};
    NT_CHECK_ALL("ProdDim", g, pd, 3, 0);
    free(g);
    nt_free(&o3);
    nt_free(&x);
    nt_free(&o0);
    nt_free(&o1);
    nt_free(&od);
    nt_free(&oi);
  }
  /* LogSumExp and Norm in float32 over dim 1 */
  nt_tensor x = nt_make(ACL_FLOAT, 2, d, v), o = nt_make(ACL_FLOAT, 1, d2, NULL);
  int64_t dim1[1] = {1};
  aclIntArray *da = aclCreateIntArray(dim1, 1);
  NT_OK(aclnnLogSumExpGetWorkspaceSize(x.t, da, false, o.t, &ws, &ex));
  nt_run(aclnnLogSumExp, ws, ex, st);
  double *g = nt_read(&o), wl[2];
  for (int r = 0; r < 2; r++)
    wl[r] = log(exp(v[r * 3]) + exp(v[r * 3 + 1]) + exp(v[r * 3 + 2]));
  NT_CHECK_ALL("LogSumExp", g, wl, 2, 1e-6);
  free(g);
  const double ps[5] = {2, 1, 3, INFINITY, 0};
  for (int k = 0; k < 5; k++) {
    aclScalar *p = nt_scalar(ACL_FLOAT, ps[k]);
    NT_OK(aclnnNormGetWorkspaceSize(x.t, p, da, false, o.t, &ws, &ex));
    nt_run(aclnnNorm, ws, ex, st);
    g = nt_read(&o);
    double wn[2];
    for (int r = 0; r < 2; r++) {
      double acc = 0;
      for (int i = 0; i < 3; i++) {
        double a = fabs(v[r * 3 + i]);
        acc = isinf(ps[k]) ? fmax(acc, a) : ps[k] == 0 ? acc + (a != 0) : acc + pow(a, ps[k]);
      }
      wn[r] = isinf(ps[k]) || ps[k] == 0 ? acc : pow(acc, 1 / ps[k]);
    }
    char what[32];
    snprintf(what, sizeof what, "Norm p=%g", ps[k]);
    NT_CHECK_ALL(what, g, wn, 2, 1e-6);
    free(g);
    aclDestroyScalar(p);
  }
  NT_FAILS(aclnnNormGetWorkspaceSize(x.t, NULL, da, false, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "pScalar is NULL");
  NT_FAILS(aclnnMaxDimGetWorkspaceSize(x.t, 1, false, o.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "indices is NULL");
  NT_FAILS(aclnnMaxDimGetWorkspaceSize(x.t, 1, false, o.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnMaxGetWorkspaceSize(x.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [2]");
  NT_FAILS(aclnnProdGetWorkspaceSize(x.t, ACL_INT32, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dtype is ACL_INT32");
  aclDestroyIntArray(da);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* ---- Sum of a list (AddN, reference 8.11 "Sum (list)") ------------------------------------------------------ */

static const aclDataType sum_types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8};

/* Term i's value at its flat index k: f16 values that round when summed (spacing 1 above 1024), integers that
 * wrap in the type (s8, u8 from the third term on; s32 as stored). */
static double sum_val(aclDataType t, int i, int64_t k) {
  double m = (double)((k * 7 + i * 13) % 29);
  if (nt_is_float(t))
    return (m - 14) * 37.3 + 0.1 * i;
  if (t == ACL_INT32)
    return m * 97000000.0 - 1e9;
  return (double)((k * 37 + i * 53) % 120);
}

/* The shapes the terms take (right-aligned into [2, 3, 4]; rank 0 is a 0-D term). */
static const int sum_rank[5] = {3, 2, 1, 3, 0};
static const int64_t sum_dims[5][3] = {{2, 3, 4}, {3, 1}, {4}, {1, 3, 4}, {0}};

/* Sum of nterms terms shapes[(i + rot) % 5] of type t into out (of their broadcast shape); view: every [2, 3, 4]
 * term and out are transposed views (out at an offset). */
static void sum_case(aclrtStream st, aclDataType t, int nterms, int rot, int view) {
  char what[96];
  snprintf(what, sizeof what, "Sum of %d %s terms from shape %d%s", nterms, nt_name(t), rot, view ? " (views)" : "");
  nt_tensor xs[5];
  int64_t p3[5][3], od[3] = {1, 1, 1};
  double *vals[5];
  int orank = 0;
  for (int i = 0; i < nterms; i++) {
    int s = (i + rot) % 5, r = sum_rank[s];
    for (int d = 0; d < 3; d++)
      p3[i][d] = d < 3 - r ? 1 : sum_dims[s][d - (3 - r)];
    for (int d = 0; d < 3; d++)
      od[d] = p3[i][d] > od[d] ? p3[i][d] : od[d];
    orank = r > orank ? r : orank;
    int64_t n = p3[i][0] * p3[i][1] * p3[i][2];
    vals[i] = malloc((size_t)n * sizeof(double));
    for (int64_t k = 0; k < n; k++)
      vals[i][k] = sum_val(t, i, k);
    if (view && r == 3 && p3[i][0] == 2) { /* storage [4, 3, 2]: the view's (a, b, c) at a + 2b + 6c */
      double sto[24];
      for (int64_t k = 0; k < 24; k++)
        sto[(k / 12) + 2 * ((k / 4) % 3) + 6 * (k % 4)] = vals[i][k];
      const int64_t vs[3] = {1, 2, 6};
      xs[i] = nt_view(t, 3, sum_dims[s], vs, 0, 24, sto);
    } else {
      xs[i] = nt_make(t, r, sum_dims[s], vals[i]);
    }
  }
  /* the reference: the terms added in order, rounded to the type after each addition */
  int64_t on = od[0] * od[1] * od[2];
  double want[24];
  for (int64_t q = 0; q < on; q++) {
    int64_t o[3] = {q / (od[1] * od[2]), (q / od[2]) % od[1], q % od[2]};
    double acc = 0;
    for (int i = 0; i < nterms; i++) {
      int64_t k = 0;
      for (int d = 0; d < 3; d++)
        k = k * p3[i][d] + (p3[i][d] == 1 ? 0 : o[d]);
      double x = nt_round(t, vals[i][k]);
      acc = i == 0 ? x : nt_round(t, acc + x);
    }
    want[q] = acc;
  }
  const int64_t *odr = od + (3 - orank);
  nt_tensor o;
  if (view && orank == 3 && od[0] == 2) {
    const int64_t vs[3] = {1, 2, 6};
    o = nt_view(t, 3, odr, vs, 5, 29, NULL);
  } else {
    o = nt_make(t, orank, odr, NULL);
  }
  const aclTensor *ts[5];
  for (int i = 0; i < nterms; i++) {
    ts[i] = xs[i].t;
    xs[i].t = NULL;
  }
  aclTensorList *l = aclCreateTensorList(ts, (uint64_t)nterms);
  uint64_t ws;
  aclOpExecutor *ex;
  int rc = aclnnSumGetWorkspaceSize(l, o.t, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ((int)ws, 0);
  nt_run(aclnnSum, ws, ex, st);
  double *g = nt_read(&o);
  NT_CHECK_ALL(what, g, want, on, t == ACL_FLOAT ? 2e-7 : 0);
  free(g);
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  for (int i = 0; i < nterms; i++) {
    nt_free(&xs[i]);
    free(vals[i]);
  }
  nt_free(&o);
}

TEST(sum_of_list) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < sizeof sum_types / sizeof sum_types[0]; ti++)
    for (int view = 0; view < 2; view++) {
      sum_case(st, sum_types[ti], 1, 0, view); /* a copy */
      sum_case(st, sum_types[ti], 1, 4, view); /* a 0-D copy */
      sum_case(st, sum_types[ti], 2, 0, view);
      sum_case(st, sum_types[ti], 2, 1, view); /* [3, 1] + [4] -> [3, 4] */
      sum_case(st, sum_types[ti], 3, 3, view); /* [1, 3, 4] + 0-D + [2, 3, 4] */
      sum_case(st, sum_types[ti], 5, 0, view);
      sum_case(st, sum_types[ti], 5, 2, view);
    }
  nt_down(st);
}

/* out is the memory of one of the terms: the terms are read as they were before the task wrote out. */
TEST(sum_into_a_term) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {3, 4}, r[1] = {4};
  double a[12], b[12], c[4];
  for (int k = 0; k < 12; k++) {
    a[k] = k;
    b[k] = 100 * k;
  }
  for (int k = 0; k < 4; k++)
    c[k] = 10000 * (k + 1);
  for (int which = 0; which < 2; which++) { /* out over tensors[0]'s memory, then over tensors[1]'s */
    nt_tensor xs[3] = {nt_make(ACL_INT32, 2, d, a), nt_make(ACL_INT32, 2, d, b), nt_make(ACL_INT32, 1, r, c)};
    void *mem = xs[which].dev;
    const aclTensor *ts[3] = {xs[0].t, xs[1].t, xs[2].t};
    aclTensorList *l = aclCreateTensorList(ts, 3);
    const int64_t sd[1] = {12};
    aclTensor *o = aclCreateTensor(d, 2, ACL_INT32, NULL, 0, ACL_FORMAT_ND, sd, 1, mem);
    uint64_t ws;
    aclOpExecutor *ex;
    NT_OK(aclnnSumGetWorkspaceSize(l, o, &ws, &ex));
    nt_run(aclnnSum, ws, ex, st);
    double want[12];
    for (int k = 0; k < 12; k++)
      want[k] = a[k] + b[k] + c[k % 4];
    double *g = nt_read(&xs[which]);
    NT_CHECK_ALL(which ? "Sum into tensors[1]" : "Sum into tensors[0]", g, want, 12, 0);
    free(g);
    CHECK_INT_EQ(aclDestroyTensor(o), 0);
    CHECK_INT_EQ(aclDestroyTensorList(l), 0);
    for (int i = 0; i < 3; i++) {
      xs[i].t = NULL; /* destroyed with the list */
      nt_free(&xs[i]);
    }
  }
  nt_down(st);
}

/* A large sum runs block-parallel; a repeatable executor takes new addresses for the list's elements; an empty
 * sum does nothing. */
TEST(sum_large_repeatable_empty) {
  aclrtStream st = nt_up();
  const int64_t n = 300001, d[1] = {n};
  double *v[3], *want = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < 3; i++) {
    v[i] = malloc((size_t)n * sizeof(double));
    for (int64_t k = 0; k < n; k++)
      v[i][k] = (double)((k * (i + 3)) % 1001) - 500;
  }
  nt_tensor xs[3], alt = nt_make(ACL_FLOAT, 1, d, v[0]), o = nt_make(ACL_FLOAT, 1, d, NULL);
  const aclTensor *ts[3];
  for (int i = 0; i < 3; i++) {
    xs[i] = nt_make(ACL_FLOAT, 1, d, v[i]);
    ts[i] = xs[i].t;
  }
  aclTensorList *l = aclCreateTensorList(ts, 3);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnSumGetWorkspaceSize(l, o.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclnnSum(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  for (int64_t k = 0; k < n; k++)
    want[k] = v[0][k] + v[1][k] + v[2][k];
  double *g = nt_read(&o);
  NT_CHECK_ALL("Sum of 3 x 300001", g, want, n, 0);
  free(g);
  /* tensors[2] now reads alt (v[0]) */
  CHECK_INT_EQ(aclSetDynamicInputTensorAddr(ex, 0, 2, l, alt.dev), 0);
  CHECK_INT_EQ(aclnnSum(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  for (int64_t k = 0; k < n; k++)
    want[k] = v[0][k] + v[1][k] + v[0][k];
  g = nt_read(&o);
  NT_CHECK_ALL("Sum with a moved tensors[2]", g, want, n, 0);
  free(g);
  NT_FAILS(aclSetDynamicInputTensorAddr(ex, 0, 3, l, alt.dev), ACLNN_ERR_PARAM_INVALID, "relativeIndex 3");
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  void *mem[3] = {xs[0].dev, xs[1].dev, xs[2].dev};
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  for (int i = 0; i < 3; i++) {
    CHECK_INT_EQ(aclrtFree(mem[i]), 0);
    free(v[i]);
  }
  free(want);
  nt_free(&alt);
  nt_free(&o);

  /* [0, 3] + [3] -> [0, 3]: nothing to do */
  const int64_t e[2] = {0, 3}, r[1] = {3};
  nt_tensor ea = nt_make(ACL_INT8, 2, e, NULL), eb = nt_make(ACL_INT8, 1, r, NULL), eo = nt_make(ACL_INT8, 2, e, NULL);
  const aclTensor *es[2] = {ea.t, eb.t};
  aclTensorList *el = aclCreateTensorList(es, 2);
  NT_OK(aclnnSumGetWorkspaceSize(el, eo.t, &ws, &ex));
  CHECK_INT_EQ((int)ws, 0);
  nt_run(aclnnSum, ws, ex, st);
  CHECK_INT_EQ(aclDestroyTensorList(el), 0);
  ea.t = eb.t = NULL;
  nt_free(&ea);
  nt_free(&eb);
  nt_free(&eo);
  nt_down(st);
}

TEST(sum_checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t a[2] = {2, 3}, b[1] = {3}, c[2] = {2, 4}, w[2] = {3, 3}, big[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
  nt_tensor x = nt_make(ACL_FLOAT, 2, a, NULL), y = nt_make(ACL_FLOAT, 1, b, NULL), z = nt_make(ACL_FLOAT, 2, c, NULL),
            xi = nt_make(ACL_INT32, 2, a, NULL), xd = nt_make(ACL_DOUBLE, 2, a, NULL),
            x16 = nt_make(ACL_INT16, 2, a, NULL), o = nt_make(ACL_FLOAT, 2, a, NULL),
            oi = nt_make(ACL_INT32, 2, a, NULL), ow = nt_make(ACL_FLOAT, 2, w, NULL),
            x9 = nt_make(ACL_FLOAT, 9, big, NULL);
  /* the lists own their elements: each gets descriptors of its own over the memory above */
#define SUM_T(nt)                                                                                                      \
  aclCreateTensor((nt).dims, (uint64_t)(nt).ndim, (nt).dt, NULL, 0, ACL_FORMAT_ND, &(nt).elems, 1, (nt).dev)
  const aclTensor *l_ok[2] = {SUM_T(x), SUM_T(y)}, *l_mix[2] = {SUM_T(x), SUM_T(xi)}, *l_nob[2] = {SUM_T(x), SUM_T(z)},
                  *l_hole[2] = {SUM_T(x), NULL}, *l_d[1] = {SUM_T(xd)}, *l_16[1] = {SUM_T(x16)}, *l_9[1] = {SUM_T(x9)};
  aclTensorList *ok = aclCreateTensorList(l_ok, 2), *mix = aclCreateTensorList(l_mix, 2),
                *nob = aclCreateTensorList(l_nob, 2), *hole = aclCreateTensorList(l_hole, 2),
                *dl = aclCreateTensorList(l_d, 1), *sl = aclCreateTensorList(l_16, 1),
                *l9 = aclCreateTensorList(l_9, 1), *empty = aclCreateTensorList(NULL, 0);
  const aclTensor *many[32];
  for (int i = 0; i < 32; i++)
    many[i] = SUM_T(x);
  aclTensorList *lmany = aclCreateTensorList(many, 32);
#undef SUM_T
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnSumGetWorkspaceSize(ok, o.t, &ws, &ex));
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_FAILS(aclnnSumGetWorkspaceSize(NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "tensors is NULL");
  NT_FAILS(aclnnSumGetWorkspaceSize(hole, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "tensors[1] is NULL");
  NT_FAILS(aclnnSumGetWorkspaceSize(ok, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnSumGetWorkspaceSize(ok, o.t, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
  NT_FAILS(aclnnSumGetWorkspaceSize(ok, o.t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
  NT_FAILS(aclnnSumGetWorkspaceSize(empty, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 0 tensors");
  NT_FAILS(aclnnSumGetWorkspaceSize(lmany, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 32 tensors");
  NT_FAILS(aclnnSumGetWorkspaceSize(mix, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "tensors[1] is ACL_INT32 but tensors[0] is ACL_FLOAT");
  NT_FAILS(aclnnSumGetWorkspaceSize(ok, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out is ACL_INT32 but the tensors are ACL_FLOAT");
  NT_FAILS(aclnnSumGetWorkspaceSize(dl, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "tensor tensors[0] is ACL_DOUBLE, which aclnnSum does not take");
  NT_FAILS(aclnnSumGetWorkspaceSize(sl, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "ACL_INT16");
  NT_FAILS(aclnnSumGetWorkspaceSize(nob, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "tensors[1] [2, 4] does not broadcast with the shape [2, 3]");
  NT_FAILS(aclnnSumGetWorkspaceSize(ok, ow.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out has shape [3, 3]; aclnnSum writes [2, 3] here");
  NT_FAILS(aclnnSumGetWorkspaceSize(l9, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 9 dims");
  CHECK_INT_EQ(aclDestroyTensorList(ok), 0);
  CHECK_INT_EQ(aclDestroyTensorList(mix), 0);
  CHECK_INT_EQ(aclDestroyTensorList(nob), 0);
  CHECK_INT_EQ(aclDestroyTensorList(hole), 0);
  CHECK_INT_EQ(aclDestroyTensorList(dl), 0);
  CHECK_INT_EQ(aclDestroyTensorList(sl), 0);
  CHECK_INT_EQ(aclDestroyTensorList(l9), 0);
  CHECK_INT_EQ(aclDestroyTensorList(empty), 0);
  CHECK_INT_EQ(aclDestroyTensorList(lmany), 0);
  nt_tensor all[] = {x, y, z, xi, xd, x16, o, oi, ow, x9};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    nt_free(&all[i]);
  nt_down(st);
}
