/*
 * aclnn_scan.c - the scans and sorts of reference aclnn.md section 8.11
 * (ctest -R api/aclnn/scan): Cumsum, CumsumV2 (exclusive, reverse), Sort,
 * Argsort, Topk along each dim, on their types and on views, against
 * references computed here; NaN ordering; the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8};

/* self [2, 3, 4]: element of line l (the other dims, row-major) at position p along dim d */
static int64_t at(int d, int64_t l, int64_t p) {
  const int64_t dims[3] = {2, 3, 4};
  int64_t idx[3], rem = l;
  for (int q = 2; q >= 0; q--) {
    if (q == d)
      continue;
    idx[q] = rem % dims[q];
    rem /= dims[q];
  }
  idx[d] = p;
  return (idx[0] * 3 + idx[1]) * 4 + idx[2];
}

static double *line_vals(aclDataType t, uint32_t seed) {
  double *v = malloc(24 * sizeof(double));
  for (int i = 0; i < 24; i++) {
    double u = nt_rand(&seed);
    v[i] = nt_round(t, nt_is_float(t) ? floor(u * 16) / 4 - 2 : t == ACL_UINT8 ? floor(u * 30) : floor(u * 21) - 10);
  }
  return v;
}

static void cumsum_case(aclrtStream st, aclDataType t, int d, int v2, int excl, int rev, int view) {
  char what[96];
  snprintf(what, sizeof what, "Cumsum%s on %s dim %d%s%s%s", v2 ? "V2" : "", nt_name(t), d, excl ? " exclusive" : "",
           rev ? " reverse" : "", view ? " (view)" : "");
  const int64_t dims[3] = {2, 3, 4};
  double *v = line_vals(t, 7u + (uint32_t)d), want[24];
  int64_t len = dims[d];
  for (int64_t l = 0; l < 24 / len; l++) {
    double s = 0;
    for (int64_t c = 0; c < len; c++) {
      int64_t p = rev ? len - 1 - c : c, i = at(d, l, p);
      if (excl) {
        want[i] = s;
        s += v[i];
      } else {
        s += v[i];
        want[i] = s;
      }
    }
  }
  for (int i = 0; i < 24; i++)
    want[i] = nt_round(t, want[i]);
  nt_tensor x, o;
  if (view) {
    double sto[24];
    for (int i = 0; i < 24; i++)
      sto[(i % 4) * 6 + ((i / 4) % 3) * 2 + i / 12] = v[i];
    const int64_t xs[3] = {1, 2, 6}, os[3] = {1, 2, 6};
    x = nt_view(t, 3, dims, xs, 0, 24, sto);
    o = nt_view(t, 3, dims, os, 0, 24, NULL);
  } else {
    x = nt_make(t, 3, dims, v);
    o = nt_make(t, 3, dims, NULL);
  }
  uint64_t ws;
  aclOpExecutor *ex;
  if (v2) {
    NT_OK(aclnnCumsumV2GetWorkspaceSize(x.t, d, excl, rev, o.t, &ws, &ex));
    nt_run(aclnnCumsumV2, ws, ex, st);
  } else {
    NT_OK(aclnnCumsumGetWorkspaceSize(x.t, d - 3, t, o.t, &ws, &ex));
    nt_run(aclnnCumsum, ws, ex, st);
  }
  double *g = nt_read(&o);
  NT_CHECK_ALL(what, g, want, 24, 2 * nt_rtol(t));
  free(g);
  free(v);
  nt_free(&x);
  nt_free(&o);
}

TEST(cumsum) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    for (int d = 0; d < 3; d++) {
      cumsum_case(st, types[i], d, 0, 0, 0, 0);
      cumsum_case(st, types[i], d, 1, 1, 0, 0);
      cumsum_case(st, types[i], d, 1, 0, 1, 0);
      cumsum_case(st, types[i], d, 1, 1, 1, 1);
    }
  /* int8 into int32: no wrap at 8 bits */
  const int64_t d1[1] = {3};
  double big[3] = {100, 100, 100}, w[3] = {100, 200, 300};
  nt_tensor x = nt_make(ACL_INT8, 1, d1, big), o = nt_make(ACL_INT32, 1, d1, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnCumsumGetWorkspaceSize(x.t, 0, ACL_INT32, o.t, &ws, &ex));
  nt_run(aclnnCumsum, ws, ex, st);
  double *g = nt_read(&o);
  NT_CHECK_ALL("Cumsum int8 -> int32", g, w, 3, 0);
  free(g);
  NT_FAILS(aclnnCumsumGetWorkspaceSize(x.t, 0, ACL_INT8, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnCumsumV2GetWorkspaceSize(x.t, 3, false, false, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 3");
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* Sort / Argsort / Topk along dim d: reference by a stable insertion sort of (value, position). */
static void sort_case(aclrtStream st, aclDataType t, int d, int desc, int which, int64_t k) {
  static const char *names[] = {"Sort", "Argsort", "Topk"};
  char what[96];
  snprintf(what, sizeof what, "%s on %s dim %d%s k %lld", names[which], nt_name(t), d, desc ? " descending" : "",
           (long long)k);
  const int64_t dims[3] = {2, 3, 4};
  int64_t len = dims[d], kk = which == 2 ? k : len;
  double *v = line_vals(t, 11u + (uint32_t)d);
  if (nt_is_float(t) && t != ACL_FLOAT16) { /* (the test's float16 conversion, aclFloatToFloat16, has no NaN) */
    v[0] = NAN;
    v[13] = NAN;
  }
  int64_t od[3] = {2, 3, 4};
  od[d] = kk;
  int64_t nout = 24 / len * kk;
  double *wv = malloc((size_t)nout * sizeof(double)), *wi = malloc((size_t)nout * sizeof(double));
  for (int64_t l = 0; l < 24 / len; l++) {
    int64_t ord[4];
    for (int64_t c = 0; c < len; c++)
      ord[c] = c;
    for (int64_t a = 1; a < len; a++) /* stable insertion sort, NaN above every number */
      for (int64_t b = a; b > 0; b--) {
        double x = v[at(d, l, ord[b - 1])], y = v[at(d, l, ord[b])];
        int gt = (x != x && y == y) || (x == x && y == y && x > y); /* x sorts after y ascending */
        int lt = (y != y && x == x) || (x == x && y == y && x < y);
        if (desc ? lt : gt) {
          int64_t tmp = ord[b];
          ord[b] = ord[b - 1];
          ord[b - 1] = tmp;
        } else {
          break;
        }
      }
    for (int64_t c = 0; c < kk; c++) {
      int64_t idx[3] = {0, 0, 0}, rem = l, pos = 0;
      for (int q = 2; q >= 0; q--) { /* out element (line l, position c) in out's dense layout */
        if (q == d)
          continue;
        idx[q] = rem % dims[q];
        rem /= dims[q];
      }
      idx[d] = c;
      pos = (idx[0] * od[1] + idx[1]) * od[2] + idx[2];
      wv[pos] = v[at(d, l, ord[c])];
      wi[pos] = (double)ord[c];
    }
  }
  nt_tensor x = nt_make(t, 3, dims, v), ov = nt_make(t, 3, od, NULL), oi = nt_make(ACL_INT64, 3, od, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  if (which == 0) {
    NT_OK(aclnnSortGetWorkspaceSize(x.t, true, d, desc, ov.t, oi.t, &ws, &ex));
    nt_run(aclnnSort, ws, ex, st);
  } else if (which == 1) {
    NT_OK(aclnnArgsortGetWorkspaceSize(x.t, d, desc, oi.t, &ws, &ex));
    nt_run(aclnnArgsort, ws, ex, st);
  } else {
    NT_OK(aclnnTopkGetWorkspaceSize(x.t, k, d, desc, true, ov.t, oi.t, &ws, &ex));
    nt_run(aclnnTopk, ws, ex, st);
  }
  if (which != 1) {
    double *g = nt_read(&ov);
    NT_CHECK_ALL(what, g, wv, nout, 0);
    free(g);
  }
  double *g = nt_read(&oi);
  NT_CHECK_ALL(what, g, wi, nout, 0);
  free(g);
  free(v);
  free(wv);
  free(wi);
  nt_free(&x);
  nt_free(&ov);
  nt_free(&oi);
}

TEST(sort_argsort_topk) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    for (int d = 0; d < 3; d++)
      for (int desc = 0; desc < 2; desc++) {
        sort_case(st, types[i], d, desc, 0, 0);
        sort_case(st, types[i], d, desc, 1, 0);
        sort_case(st, types[i], d, desc, 2, 2);
      }
  sort_case(st, ACL_FLOAT, 2, 1, 2, 0);
  sort_case(st, ACL_FLOAT, 2, 1, 2, 4);
  const int64_t dims[2] = {2, 3}, bad[2] = {2, 5};
  nt_tensor x = nt_make(ACL_FLOAT, 2, dims, NULL), o = nt_make(ACL_FLOAT, 2, dims, NULL),
            oi = nt_make(ACL_INT64, 2, dims, NULL), o32 = nt_make(ACL_INT32, 2, dims, NULL),
            ob = nt_make(ACL_FLOAT, 2, bad, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnSortGetWorkspaceSize(NULL, true, 0, false, o.t, oi.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "self is NULL");
  NT_FAILS(aclnnSortGetWorkspaceSize(x.t, true, 0, false, o.t, o32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not take");
  NT_FAILS(aclnnArgsortGetWorkspaceSize(x.t, 2, false, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 2");
  NT_FAILS(aclnnTopkGetWorkspaceSize(x.t, 4, 1, true, true, o.t, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "k is 4");
  NT_FAILS(aclnnSortGetWorkspaceSize(x.t, true, 1, false, ob.t, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "has shape [2, 5]");
  nt_free(&x);
  nt_free(&o);
  nt_free(&oi);
  nt_free(&o32);
  nt_free(&ob);
  nt_down(st);
}
