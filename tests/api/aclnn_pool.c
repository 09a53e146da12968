/*
 * aclnn_pool.c - the 2-D poolings of reference aclnn.md section 8.7
 * (ctest -R api/aclnn/pool): MaxPool (ONNX), MaxPool2dWithIndices,
 * AvgPool2d, AdaptiveAvgPool2d, AdaptiveMaxPool2d on their types, with
 * stride, padding, dilation, ceil mode, the divisor rules and 3-D / 4-D
 * inputs, strided views, against references computed here (torch's
 * definitions); MaxPool2dWithMask's int8 bit mask against a mask built
 * here byte by byte; the argument checks with their codes.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

static const aclDataType flt3[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

typedef struct pspec {
  int kind; /* 0 max, 1 avg, 2 adaptive avg, 3 adaptive max */
  int64_t h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow;
  int ceil, count_pad;
  int64_t divisor;
} pspec;

static int64_t osz(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int ceil) {
  int64_t num = in + 2 * p - d * (k - 1) - 1;
  int64_t o = (ceil ? (num + s - 1) / s : num / s) + 1;
  if (ceil && (o - 1) * s >= in + p)
    o--;
  return o;
}

/* One plane: in [h, w] -> out [oh, ow] (+ flat indices). */
static void ref_plane(const pspec *c, const double *in, double *out, double *idx) {
  for (int64_t y = 0; y < c->oh; y++)
    for (int64_t x = 0; x < c->ow; x++) {
      int64_t h0, h1, w0, w1, sth = c->dh, stw = c->dw;
      if (c->kind >= 2) {
        h0 = (int64_t)floor((double)(y * c->h) / (double)c->oh);
        h1 = (int64_t)ceil((double)((y + 1) * c->h) / (double)c->oh);
        w0 = (int64_t)floor((double)(x * c->w) / (double)c->ow);
        w1 = (int64_t)ceil((double)((x + 1) * c->w) / (double)c->ow);
        sth = stw = 1;
      } else {
        h0 = y * c->sh - c->ph;
        w0 = x * c->sw - c->pw;
        h1 = h0 + c->dh * (c->kh - 1) + 1;
        w1 = w0 + c->dw * (c->kw - 1) + 1;
      }
      double acc = (c->kind == 0 || c->kind == 3) ? -INFINITY : 0;
      int64_t best = 0, n = 0;
      for (int64_t a = h0; a < h1; a += sth)
        for (int64_t b = w0; b < w1; b += stw) {
          if (a < 0 || b < 0 || a >= c->h || b >= c->w)
            continue;
          double v = in[a * c->w + b];
          if (c->kind == 0 || c->kind == 3) {
            if (n == 0 || v > acc) {
              acc = v;
              best = a * c->w + b;
            }
          } else {
            acc += v;
          }
          n++;
        }
      if (c->kind == 1) {
        int64_t div = c->divisor;
        if (div == 0)
          div = c->count_pad ? ((h0 + c->kh < c->h + c->ph ? h0 + c->kh : c->h + c->ph) - h0) *
                                   ((w0 + c->kw < c->w + c->pw ? w0 + c->kw : c->w + c->pw) - w0)
                             : n;
        acc /= (double)div;
      } else if (c->kind == 2) {
        acc /= (double)n;
      }
      out[y * c->ow + x] = acc;
      idx[y * c->ow + x] = (double)best;
    }
}

static void pool_case(aclrtStream st, pspec c, aclDataType t, int api, int rank, int view) {
  static const char *names[] = {"MaxPool2dWithIndices", "AvgPool2d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d",
                                "MaxPool"};
  char what[160];
  snprintf(what, sizeof what, "%s on %s, %lldx%lld k%lldx%lld s%lld p%lld d%lld%s%s%s", names[api], nt_name(t),
           (long long)c.h, (long long)c.w, (long long)c.kh, (long long)c.kw, (long long)c.sh, (long long)c.ph,
           (long long)c.dh, c.ceil ? " ceil" : "", c.count_pad ? " countpad" : "", view ? " (view)" : "");
  if (c.kind < 2) {
    c.oh = osz(c.h, c.kh, c.sh, c.ph, c.dh, c.ceil);
    c.ow = osz(c.w, c.kw, c.sw, c.pw, c.dw, c.ceil);
  }
  int64_t planes = 6, hw = c.h * c.w, ohw = c.oh * c.ow;
  double *x = malloc((size_t)(planes * hw) * sizeof(double)), *want = malloc((size_t)(planes * ohw) * sizeof(double)),
         *wi = malloc((size_t)(planes * ohw) * sizeof(double));
  uint32_t seed = 3;
  for (int64_t i = 0; i < planes * hw; i++)
    x[i] = nt_round(t, -4 + 8 * nt_rand(&seed));
  for (int64_t p = 0; p < planes; p++)
    ref_plane(&c, x + p * hw, want + p * ohw, wi + p * ohw);
  for (int64_t i = 0; i < planes * ohw; i++)
    want[i] = nt_round(t, want[i]);
  int64_t xd[4] = {2, 3, c.h, c.w}, od[4] = {2, 3, c.oh, c.ow};
  const int64_t *xdp = rank == 4 ? xd : xd + 1, *odp = rank == 4 ? od : od + 1;
  if (rank == 3) {
    xd[1] = 6;
    od[1] = 6;
  }
  nt_tensor xt, ot = nt_make(t, rank, odp, NULL), it = nt_make(ACL_INT64, rank, odp, NULL);
  if (view) { /* H and W swapped in memory */
    double *sto = malloc((size_t)(planes * hw) * sizeof(double));
    for (int64_t p = 0; p < planes; p++)
      for (int64_t a = 0; a < c.h; a++)
        for (int64_t b = 0; b < c.w; b++)
          sto[p * hw + b * c.h + a] = x[p * hw + a * c.w + b];
    int64_t xs[4] = {3 * hw, hw, 1, c.h};
    const int64_t *xsp = rank == 4 ? xs : xs + 1;
    xt = nt_view(t, rank, xdp, xsp, 0, planes * hw, sto);
    free(sto);
  } else {
    xt = nt_make(t, rank, xdp, x);
  }
  int64_t k[2] = {c.kh, c.kw}, s[2] = {c.sh, c.sw}, p[2] = {c.ph, c.pw}, d[2] = {c.dh, c.dw}, o[2] = {c.oh, c.ow},
          p4[4] = {c.ph, c.pw, c.ph, c.pw};
  aclIntArray *ka = aclCreateIntArray(k, 2), *sa = aclCreateIntArray(s, 2), *pa = aclCreateIntArray(p, 2),
              *da = aclCreateIntArray(d, 2), *oa = aclCreateIntArray(o, 2), *p4a = aclCreateIntArray(p4, 4);
  uint64_t ws;
  aclOpExecutor *ex;
  int rc;
  nt_phase2 p2;
  switch (api) {
  case 0:
    rc = aclnnMaxPool2dWithIndicesGetWorkspaceSize(xt.t, ka, sa, pa, da, c.ceil, ot.t, it.t, &ws, &ex);
    p2 = aclnnMaxPool2dWithIndices;
    break;
  case 1:
    rc = aclnnAvgPool2dGetWorkspaceSize(xt.t, ka, sa, pa, c.ceil, c.count_pad, c.divisor, 0, ot.t, &ws, &ex);
    p2 = aclnnAvgPool2d;
    break;
  case 2:
    rc = aclnnAdaptiveAvgPool2dGetWorkspaceSize(xt.t, oa, ot.t, &ws, &ex);
    p2 = aclnnAdaptiveAvgPool2d;
    break;
  case 3:
    rc = aclnnAdaptiveMaxPool2dGetWorkspaceSize(xt.t, oa, ot.t, it.t, &ws, &ex);
    p2 = aclnnAdaptiveMaxPool2d;
    break;
  default:
    rc = aclnnMaxPoolGetWorkspaceSize(xt.t, ka, sa, 0, p4a, da, c.ceil, ot.t, &ws, &ex);
    p2 = aclnnMaxPool;
    break;
  }
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  nt_run(p2, ws, ex, st);
  double *g = nt_read(&ot);
  NT_CHECK_ALL(what, g, want, planes * ohw, 2 * nt_rtol(t));
  free(g);
  if (api == 0 || api == 3) {
    g = nt_read(&it);
    NT_CHECK_ALL("indices", g, wi, planes * ohw, 0);
    free(g);
  }
  aclDestroyIntArray(ka);
  aclDestroyIntArray(sa);
  aclDestroyIntArray(pa);
  aclDestroyIntArray(da);
  aclDestroyIntArray(oa);
  aclDestroyIntArray(p4a);
  free(x);
  free(want);
  free(wi);
  nt_free(&xt);
  nt_free(&ot);
  nt_free(&it);
}

static const pspec maxes[] = {
    {0, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0},
    {0, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 1, 0, 0},
    {0, 8, 8, 2, 2, 2, 2, 0, 0, 1, 1, 0, 0, 0, 0, 0},
    {0, 9, 7, 3, 2, 1, 2, 1, 0, 2, 1, 0, 0, 0, 0, 0},
};
static const pspec avgs[] = {
    {1, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 1, 0},
    {1, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0},
    {1, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 1, 1, 0},
    {1, 8, 5, 2, 3, 2, 1, 0, 1, 1, 1, 0, 0, 0, 0, 5},
};

TEST(max_pool) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++)
    for (size_t k = 0; k < sizeof maxes / sizeof maxes[0]; k++) {
      pool_case(st, maxes[k], flt3[i], 0, 4, 0);
      if (maxes[k].dh == 1)
        pool_case(st, maxes[k], flt3[i], 4, 4, 0); /* the ONNX form (dilation 1 only) */
    }
  pool_case(st, maxes[0], ACL_FLOAT, 0, 3, 0);
  pool_case(st, maxes[3], ACL_FLOAT, 0, 4, 1);
  nt_down(st);
}

TEST(avg_pool) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++)
    for (size_t k = 0; k < sizeof avgs / sizeof avgs[0]; k++)
      pool_case(st, avgs[k], flt3[i], 1, 4, 0);
  pool_case(st, avgs[0], ACL_FLOAT, 1, 3, 1);
  nt_down(st);
}

TEST(adaptive) {
  aclrtStream st = nt_up();
  pspec a = {2, 7, 5, 0, 0, 0, 0, 0, 0, 0, 0, 3, 2, 0, 0, 0}, m = a;
  m.kind = 3;
  for (int i = 0; i < 3; i++) {
    pool_case(st, a, flt3[i], 2, 4, 0);
    pool_case(st, m, flt3[i], 3, 4, 0);
  }
  pool_case(st, m, ACL_DOUBLE, 3, 3, 1);
  pspec up = a; /* output larger than the input: windows overlap */
  up.oh = 9;
  up.ow = 6;
  pool_case(st, up, ACL_FLOAT, 2, 4, 1);
  nt_down(st);
}

/* ---- MaxPool2dWithMask ---------------------------------------------------------------------------------------- */

/* The reference mask of one plane (in [h, w]): rows kh*kw of mask_row bytes; bit p = y*ow + x of row k is set
 * when window position k (i*kw + j, the tap at (y*sh - ph + i*dh, x*sw - pw + j*dw)) holds the window's first
 * maximum.  The maxima go to out. */
static void ref_mask_plane(const pspec *c, const double *in, int64_t mask_row, unsigned char *bits, double *out) {
  int64_t taps = c->kh * c->kw;
  memset(bits, 0, (size_t)(taps * mask_row));
  for (int64_t y = 0; y < c->oh; y++)
    for (int64_t x = 0; x < c->ow; x++) {
      int64_t best = -1;
      double m = -INFINITY;
      for (int64_t k = 0; k < taps; k++) {
        int64_t a = y * c->sh - c->ph + (k / c->kw) * c->dh, b = x * c->sw - c->pw + (k % c->kw) * c->dw;
        if (a < 0 || b < 0 || a >= c->h || b >= c->w)
          continue;
        if (best < 0 || in[a * c->w + b] > m) {
          m = in[a * c->w + b];
          best = k;
        }
      }
      int64_t p = y * c->ow + x;
      if (best >= 0)
        bits[best * mask_row + p / 8] |= (unsigned char)(1u << (p % 8));
      out[p] = m;
    }
}

/* MaxPool2dWithMask of 6 planes ([2, 3, ...] or [6, ...]) of type t with spec c, values of few levels (ties: the
 * first maximum wins); view: the mask's rows lie 2 rows apart (the gaps must keep their bytes). */
static void mask_case(aclrtStream st, pspec c, aclDataType t, int rank, int view) {
  char what[160];
  snprintf(what, sizeof what, "MaxPool2dWithMask on %s, %lldx%lld k%lldx%lld s%lld p%lld d%lld%s, rank %d%s",
           nt_name(t), (long long)c.h, (long long)c.w, (long long)c.kh, (long long)c.kw, (long long)c.sh,
           (long long)c.ph, (long long)c.dh, c.ceil ? " ceil" : "", rank, view ? " (mask view)" : "");
  c.oh = osz(c.h, c.kh, c.sh, c.ph, c.dh, c.ceil);
  c.ow = osz(c.w, c.kw, c.sw, c.pw, c.dw, c.ceil);
  int64_t planes = 6, hw = c.h * c.w, ohw = c.oh * c.ow, taps = c.kh * c.kw;
  int64_t mask_row = ((ohw + 15) / 16 + 1) * 32, msize = taps * mask_row;
  double *x = malloc((size_t)(planes * hw) * sizeof(double)), *want = malloc((size_t)(planes * ohw) * sizeof(double));
  unsigned char *bits = malloc((size_t)(planes * msize));
  uint32_t seed = 11;
  for (int64_t i = 0; i < planes * hw; i++)
    x[i] = floor(6 * nt_rand(&seed)) - 2; /* -2 .. 3: many ties */
  for (int64_t p = 0; p < planes; p++)
    ref_mask_plane(&c, x + p * hw, mask_row, bits + p * msize, want + p * ohw);
  int64_t xd[4] = {2, 3, c.h, c.w}, od[4] = {2, 3, c.oh, c.ow}, md[4] = {2, 3, taps, mask_row};
  if (rank == 3)
    xd[1] = od[1] = md[1] = 6;
  const int64_t *xdp = xd + 4 - rank, *odp = od + 4 - rank, *mdp = md + 4 - rank;
  nt_tensor xt = nt_make(t, rank, xdp, x), ot = nt_make(t, rank, odp, NULL), mt;
  if (view) {
    int64_t ms[4] = {3 * taps * 2 * mask_row, taps * 2 * mask_row, 2 * mask_row, 1};
    mt = nt_view(ACL_INT8, rank, mdp, ms + 4 - rank, 3, planes * taps * 2 * mask_row + 3, NULL);
  } else {
    mt = nt_make(ACL_INT8, rank, mdp, NULL); /* 77 everywhere: every byte must be written */
  }
  int64_t k[2] = {c.kh, c.kw}, s[2] = {c.sh, c.sw}, p[2] = {c.ph, c.pw}, d[2] = {c.dh, c.dw};
  aclIntArray *ka = aclCreateIntArray(k, 2), *sa = aclCreateIntArray(s, 2), *pa = aclCreateIntArray(p, 2),
              *da = aclCreateIntArray(d, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  int rc = aclnnMaxPool2dWithMaskGetWorkspaceSize(xt.t, ka, sa, pa, da, c.ceil, ot.t, mt.t, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  nt_run(aclnnMaxPool2dWithMask, ws, ex, st);
  double *g = nt_read(&ot);
  NT_CHECK_ALL(what, g, want, planes * ohw, 0);
  free(g);
  g = nt_read(&mt);
  for (int64_t i = 0; i < planes * msize; i++)
    if (g[i] != (double)(int8_t)bits[i])
      th_fail(__FILE__, __LINE__,
              "%s: mask byte %lld (plane %lld, window position %lld, byte %lld) is 0x%02x, want "
              "0x%02x",
              what, (long long)i, (long long)(i / msize), (long long)(i % msize / mask_row), (long long)(i % mask_row),
              (unsigned)(uint8_t)(int8_t)g[i], (unsigned)bits[i]);
  free(g);
  if (view) { /* the gaps between the rows, and the bytes before the first, are untouched */
    g = nt_read_storage(&mt);
    for (int64_t i = 0; i < mt.elems; i++)
      if (i < 3 || (i - 3) % (2 * mask_row) >= mask_row)
        if (g[i] != 77)
          th_fail(__FILE__, __LINE__, "%s: byte %lld outside the mask's view is %g", what, (long long)i, g[i]);
    free(g);
  }
  aclDestroyIntArray(ka);
  aclDestroyIntArray(sa);
  aclDestroyIntArray(pa);
  aclDestroyIntArray(da);
  free(x);
  free(want);
  free(bits);
  nt_free(&xt);
  nt_free(&ot);
  nt_free(&mt);
}

TEST(max_pool_with_mask) {
  aclrtStream st = nt_up();
  static const pspec cases[] = {
      {0, 6, 6, 2, 2, 2, 2, 0, 0, 1, 1, 0, 0, 0, 0, 0},   /* 9 outputs: one 16-block */
      {0, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0},   /* padding */
      {0, 7, 6, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 1, 0, 0},   /* padding, ceil mode */
      {0, 8, 9, 2, 3, 3, 2, 1, 1, 1, 1, 0, 0, 1, 0, 0},   /* ceil mode: a last window past the input */
      {0, 9, 7, 3, 2, 1, 2, 1, 0, 2, 1, 0, 0, 0, 0, 0},   /* dilation */
      {0, 12, 11, 3, 3, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0}, /* 132 outputs: 9 blocks of 16 */
  };
  for (int i = 0; i < 3; i++)
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
      mask_case(st, cases[k], flt3[i], 4, 0);
  mask_case(st, cases[1], ACL_FLOAT, 3, 0);
  mask_case(st, cases[2], ACL_FLOAT16, 3, 1);
  mask_case(st, cases[5], ACL_FLOAT, 4, 1);
  nt_down(st);
}

/* The kernel, padding and dilation arrays the argument checks pass: 2x2,
 * no padding, dilation 1, a 3-value kernel, padding 2 (more than half the
 * kernel) and an empty array. */
typedef struct check_arrays {
  aclIntArray *k2, *p0, *d1, *k3, *pb, *e;
} check_arrays;

static check_arrays check_arrays_make(void) {
  int64_t two[2] = {2, 2}, zero[2] = {0, 0}, one[2] = {1, 1}, three[3] = {1, 1, 1};
  check_arrays a = {aclCreateIntArray(two, 2), aclCreateIntArray(zero, 2), aclCreateIntArray(one, 2),
                    aclCreateIntArray(three, 3), aclCreateIntArray(two, 2), aclCreateIntArray(NULL, 0)};
  return a;
}

static void check_arrays_free(check_arrays *a) {
  aclIntArray *all[] = {a->k2, a->p0, a->d1, a->k3, a->pb, a->e};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    aclDestroyIntArray(all[i]);
}

TEST(max_pool_with_mask_checks) {
  aclrtStream st = nt_up();
  const int64_t xd[4] = {1, 2, 6, 6}, od[4] = {1, 2, 3, 3}, md[4] = {1, 2, 4, 64}, short_row[4] = {1, 2, 4, 32},
                rows[4] = {1, 2, 9, 64}, md3[3] = {2, 4, 64}, xd3[3] = {2, 6, 6};
  nt_tensor x = nt_make(ACL_FLOAT, 4, xd, NULL), o = nt_make(ACL_FLOAT, 4, od, NULL),
            m = nt_make(ACL_INT8, 4, md, NULL), mi32 = nt_make(ACL_INT32, 4, md, NULL),
            mu8 = nt_make(ACL_UINT8, 4, md, NULL), mout = nt_make(ACL_INT8, 4, od, NULL),
            mshort = nt_make(ACL_INT8, 4, short_row, NULL), mrows = nt_make(ACL_INT8, 4, rows, NULL),
            m3 = nt_make(ACL_INT8, 3, md3, NULL), x3 = nt_make(ACL_FLOAT, 3, xd3, NULL);
  const int64_t od3[3] = {2, 3, 3};
  nt_tensor o3 = nt_make(ACL_FLOAT, 3, od3, NULL);
  check_arrays a = check_arrays_make();
  aclIntArray *k2 = a.k2, *p0 = a.p0, *d1 = a.d1, *k3 = a.k3, *pb = a.pb, *e = a.e;
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, m.t, &ws, &ex));
  CHECK_INT_EQ((int)ws, 0);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_OK(aclnnMaxPool2dWithMaskGetWorkspaceSize(x3.t, k2, e, p0, d1, false, o3.t, m3.t, &ws, &ex));
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(NULL, k2, e, p0, d1, false, o.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "indices is NULL");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, m.t, NULL, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, NULL, e, p0, d1, false, o.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "kernelSize is NULL");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, mi32.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "output indices is ACL_INT32, which aclnnMaxPool2dWithMask does not take");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, mu8.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "use ACL_INT8");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, mout.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID,
           "indices has shape [1, 2, 3, 3]; aclnnMaxPool2dWithMask writes its bit mask as "
           "[1, 2, 4, 64] here");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, mshort.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "(ceil(Ho*Wo/16) + 1) * 32 = 64 bytes for Ho x Wo = 3 x 3");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, mrows.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "kH*kW = 4");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, m3.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "aclnnMaxPool2dWithMaskGetWorkspaceSize failed");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k3, e, p0, d1, false, o.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "kernelSize has 3 values");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, pb, d1, false, o.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "exceeds half the kernel");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, m.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "output out is ACL_INT8");
  NT_FAILS(aclnnMaxPool2dWithMaskGetWorkspaceSize(x.t, k2, e, p0, d1, false, mout.t, m.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "out");
  check_arrays_free(&a);
  nt_tensor all[] = {x, o, m, mi32, mu8, mout, mshort, mrows, m3, x3, o3};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    nt_free(&all[i]);
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t xd[4] = {1, 2, 6, 6}, od[4] = {1, 2, 3, 3}, bad[4] = {1, 2, 4, 4}, x2[2] = {6, 6};
  nt_tensor x = nt_make(ACL_FLOAT, 4, xd, NULL), o = nt_make(ACL_FLOAT, 4, od, NULL),
            i = nt_make(ACL_INT64, 4, od, NULL), ob = nt_make(ACL_FLOAT, 4, bad, NULL),
            xi = nt_make(ACL_INT32, 4, xd, NULL), oh = nt_make(ACL_FLOAT16, 4, od, NULL),
            if32 = nt_make(ACL_FLOAT, 4, od, NULL), xr = nt_make(ACL_FLOAT, 2, x2, NULL);
  check_arrays a = check_arrays_make();
  aclIntArray *k2 = a.k2, *p0 = a.p0, *d1 = a.d1, *k3 = a.k3, *pb = a.pb, *e = a.e;
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, i.t, &ws, &ex));
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(NULL, k2, e, p0, d1, false, o.t, i.t, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, NULL, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "indices is NULL");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, NULL, e, p0, d1, false, o.t, i.t, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "kernelSize is NULL");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k2, e, p0, d1, false, o.t, if32.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k3, e, p0, d1, false, o.t, i.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "kernelSize has 3 values");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k2, e, pb, d1, false, o.t, i.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "exceeds half the kernel");
  NT_FAILS(aclnnMaxPool2dWithIndicesGetWorkspaceSize(x.t, k2, e, p0, d1, false, ob.t, i.t, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "has shape [1, 2, 4, 4]");
  NT_FAILS(aclnnAvgPool2dGetWorkspaceSize(xi.t, k2, e, p0, false, true, 0, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not take");
  NT_FAILS(aclnnAvgPool2dGetWorkspaceSize(x.t, k2, e, p0, false, true, 0, 0, oh.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "writes self's type");
  NT_FAILS(aclnnAvgPool2dGetWorkspaceSize(x.t, k2, e, p0, false, true, -1, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "divisorOverride is -1");
  NT_FAILS(aclnnAvgPool2dGetWorkspaceSize(xr.t, k2, e, p0, false, true, 0, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "3 or 4 dims");
  NT_FAILS(aclnnMaxPoolGetWorkspaceSize(x.t, k2, k2, 1, p0, d1, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "autoPad is 1");
  NT_FAILS(aclnnMaxPoolGetWorkspaceSize(x.t, k2, k2, 0, k3, d1, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "pads has 3 values");
  NT_FAILS(aclnnAdaptiveAvgPool2dGetWorkspaceSize(x.t, p0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "at least 1");
  NT_FAILS(aclnnAdaptiveMaxPool2dGetWorkspaceSize(x.t, k2, o.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "indicesOut is NULL");
  check_arrays_free(&a);
  nt_free(&x);
  nt_free(&o);
  nt_free(&i);
  nt_free(&ob);
  nt_free(&xi);
  nt_free(&oh);
  nt_free(&if32);
  nt_free(&xr);
  nt_down(st);
}
