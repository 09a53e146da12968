/*
 * aclnn_conv.c - Convolution of reference aclnn.md section 8.6 (ctest -R
 * api/aclnn/conv): 1-D, 2-D and 3-D; stride, asymmetric padding, dilation,
 * groups, bias; transposed with outputPadding; float32, float16, bfloat16;
 * strided input and output views; shapes seen before (their primitives
 * kept); against a double-precision reference computed here; the argument
 * checks with their codes.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

typedef struct conv_spec {
  int nd;
  int64_t n, cin, cout, groups;
  int64_t in[3], k[3], st[3], dl[3], pl[3], pr[3], op[3];
  int transposed, bias;
} conv_spec;

static int64_t out_dim(const conv_spec *c, int d) {
  int64_t span = c->dl[d] * (c->k[d] - 1) + 1;
  return c->transposed ? (c->in[d] - 1) * c->st[d] - c->pl[d] - c->pr[d] + span + c->op[d]
                       : (c->in[d] + c->pl[d] + c->pr[d] - span) / c->st[d] + 1;
}

/* Reference in double on dense NC(D)(H)W data; spatial dims padded to 3 with 1s. */
static void ref_conv(const conv_spec *c, const double *x, const double *w, const double *b, double *y) {
  int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, o[3] = {1, 1, 1}, s[3] = {1, 1, 1}, dl[3] = {1, 1, 1}, pl[3] = {0};
  for (int d = 0; d < c->nd; d++) {
    int e = 3 - c->nd + d;
    in[e] = c->in[d];
    k[e] = c->k[d];
    o[e] = out_dim(c, d);
    s[e] = c->st[d];
    dl[e] = c->dl[d];
    pl[e] = c->pl[d];
  }
  int64_t osz = o[0] * o[1] * o[2], isz = in[0] * in[1] * in[2], ksz = k[0] * k[1] * k[2];
  int64_t cig = c->cin / c->groups, cog = c->cout / c->groups;
  for (int64_t i = 0; i < c->n * c->cout * osz; i++)
    y[i] = b != NULL ? b[(i / osz) % c->cout] : 0;
  for (int64_t n = 0; n < c->n; n++)
    for (int64_t g = 0; g < c->groups; g++)
      for (int64_t oc = 0; oc < cog; oc++)
        for (int64_t ic = 0; ic < cig; ic++)
          for (int64_t kk = 0; kk < ksz; kk++) {
            int64_t kz = kk / (k[1] * k[2]), ky = (kk / k[2]) % k[1], kx = kk % k[2];
            double wv =
                c->transposed ? w[((g * cig + ic) * cog + oc) * ksz + kk] : w[((g * cog + oc) * cig + ic) * ksz + kk];
            if (!c->transposed) {
              for (int64_t p = 0; p < osz; p++) {
                int64_t pz = p / (o[1] * o[2]), py = (p / o[2]) % o[1], px = p % o[2];
                int64_t iz = pz * s[0] - pl[0] + kz * dl[0], iy = py * s[1] - pl[1] + ky * dl[1],
                        ix = px * s[2] - pl[2] + kx * dl[2];
                if (iz < 0 || iy < 0 || ix < 0 || iz >= in[0] || iy >= in[1] || ix >= in[2])
                  continue;
                y[(n * c->cout + g * cog + oc) * osz + p] +=
                    wv * x[(n * c->cin + g * cig + ic) * isz + (iz * in[1] + iy) * in[2] + ix];
              }
            } else {
              for (int64_t p = 0; p < isz; p++) {
                int64_t iz = p / (in[1] * in[2]), iy = (p / in[2]) % in[1], ix = p % in[2];
                int64_t oz = iz * s[0] - pl[0] + kz * dl[0], oy = iy * s[1] - pl[1] + ky * dl[1],
                        ox = ix * s[2] - pl[2] + kx * dl[2];
                if (oz < 0 || oy < 0 || ox < 0 || oz >= o[0] || oy >= o[1] || ox >= o[2])
                  continue;
                y[(n * c->cout + g * cog + oc) * osz + (oz * o[1] + oy) * o[2] + ox] +=
                    wv * x[(n * c->cin + g * cig + ic) * isz + p];
              }
            }
          }
}

/* Runs spec c on type t; view: the input is a channels-last view, the output has a gap after each image. */
static void conv_case(aclrtStream st, const conv_spec *c, aclDataType t, int view) {
  char what[160];
  snprintf(what, sizeof what, "%dD %sconv on %s, groups %lld%s", c->nd, c->transposed ? "transposed " : "", nt_name(t),
           (long long)c->groups, view ? " (views)" : "");
  int rank = c->nd + 2;
  int64_t xd[5] = {c->n, c->cin}, wd[5], od[5] = {c->n, c->cout}, bd[1] = {c->cout};
  wd[0] = c->transposed ? c->cin : c->cout;
  wd[1] = c->transposed ? c->cout / c->groups : c->cin / c->groups;
  for (int d = 0; d < c->nd; d++) {
    xd[2 + d] = c->in[d];
    wd[2 + d] = c->k[d];
    od[2 + d] = out_dim(c, d);
  }
  int64_t nx = nt_numel(rank, xd), nw = nt_numel(rank, wd), no = nt_numel(rank, od);
  double *x = malloc((size_t)nx * sizeof(double)), *w = malloc((size_t)nw * sizeof(double)),
         *b = malloc((size_t)c->cout * sizeof(double)), *want = malloc((size_t)no * sizeof(double));
  uint32_t seed = 41;
  for (int64_t i = 0; i < nx; i++)
    x[i] = nt_round(t, -1 + 2 * nt_rand(&seed));
  for (int64_t i = 0; i < nw; i++)
    w[i] = nt_round(t, -1 + 2 * nt_rand(&seed));
  for (int64_t i = 0; i < c->cout; i++)
    b[i] = nt_round(t, -1 + 2 * nt_rand(&seed));
  ref_conv(c, x, w, c->bias ? b : NULL, want);
  for (int64_t i = 0; i < no; i++)
    want[i] = nt_round(t, want[i]);
  nt_tensor xt, wt = nt_make(t, rank, wd, w), bt = {0}, ot;
  if (c->bias)
    bt = nt_make(t, 1, bd, b);
  if (view) {
    /* input: channels last in memory (N, spatial..., C), seen as N C spatial... */
    int64_t xs[5], sp = nx / (c->n * c->cin);
    double *sto = calloc((size_t)nx, sizeof(double));
    xs[0] = sp * c->cin;
    xs[1] = 1;
    int64_t s = c->cin;
    for (int d = rank - 1; d >= 2; d--) {
      xs[d] = s;
      s *= xd[d];
    }
    for (int64_t i = 0; i < nx; i++) {
      int64_t n = i / (c->cin * sp), ch = (i / sp) % c->cin, p = i % sp;
      sto[n * xs[0] + p * c->cin + ch] = x[i];
    }
    xt = nt_view(t, rank, xd, xs, 0, nx, sto);
    free(sto);
    int64_t os[5], s2 = 1;
    for (int d = rank - 1; d >= 1; d--) {
      os[d] = s2;
      s2 *= od[d];
    }
    os[0] = s2 + 3;
    ot = nt_view(t, rank, od, os, 2, 2 + c->n * os[0], NULL);
  } else {
    xt = nt_make(t, rank, xd, x);
    ot = nt_make(t, rank, od, NULL);
  }
  int64_t pad[4];
  int np = c->nd;
  for (int d = 0; d < c->nd; d++)
    pad[d] = c->pl[d];
  if (c->nd == 2 && (c->pl[0] != c->pr[0] || c->pl[1] != c->pr[1])) {
    pad[0] = c->pl[0];
    pad[1] = c->pr[0];
    pad[2] = c->pl[1];
    pad[3] = c->pr[1];
    np = 4;
  }
  aclIntArray *sa = aclCreateIntArray(c->st, (uint64_t)c->nd), *pa = aclCreateIntArray(pad, (uint64_t)np),
              *da = aclCreateIntArray(c->dl, (uint64_t)c->nd), *oa = aclCreateIntArray(c->op, (uint64_t)c->nd);
  uint64_t ws = 9;
  aclOpExecutor *ex;
  int rc = aclnnConvolutionGetWorkspaceSize(xt.t, wt.t, c->bias ? bt.t : NULL, sa, pa, da, c->transposed, oa, c->groups,
                                            ot.t, 0, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(aclnnConvolution, ws, ex, st);
  double *got = nt_read(&ot);
  NT_CHECK_ALL(what, got, want, no, t == ACL_FLOAT ? 1e-5 : 4 * nt_rtol(t));
  free(got);
  aclDestroyIntArray(sa);
  aclDestroyIntArray(pa);
  aclDestroyIntArray(da);
  aclDestroyIntArray(oa);
  free(x);
  free(w);
  free(b);
  free(want);
  nt_free(&xt);
  nt_free(&wt);
  nt_free(&ot);
  if (c->bias)
    nt_free(&bt);
}

static const conv_spec specs[] = {
    /* 2-D: plain, strided + padded, grouped + dilated, asymmetric padding, depthwise */
    {2, 2, 3, 4, 1, {7, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0}, 0, 1},
    {2, 1, 4, 6, 2, {9, 8}, {3, 2}, {2, 3}, {2, 1}, {2, 0}, {2, 0}, {0}, 0, 1},
    {2, 1, 3, 5, 1, {6, 7}, {2, 3}, {1, 2}, {1, 1}, {0, 2}, {1, 0}, {0}, 0, 0},
    {2, 2, 4, 4, 4, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0}, 0, 1},
    /* 1-D and 3-D */
    {1, 2, 3, 4, 1, {10}, {3}, {2}, {1}, {1}, {1}, {0}, 0, 1},
    {3, 1, 2, 3, 1, {4, 5, 4}, {2, 3, 2}, {1, 2, 1}, {1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {0}, 0, 1},
    /* transposed: plain, strided with outputPadding, grouped */
    {2, 1, 3, 2, 1, {4, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0}, 1, 1},
    {2, 2, 4, 6, 2, {3, 4}, {3, 2}, {2, 2}, {1, 1}, {1, 0}, {1, 0}, {1, 1}, 1, 1},
    {1, 1, 2, 3, 1, {5}, {4}, {3}, {2}, {2}, {2}, {0}, 1, 0},
};

TEST(every_form_float32) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    conv_case(st, &specs[i], ACL_FLOAT, 0);
  nt_down(st);
}

TEST(half_and_bfloat16) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i += 2) {
    conv_case(st, &specs[i], ACL_FLOAT16, 0);
    conv_case(st, &specs[i], ACL_BF16, 0);
  }
  nt_down(st);
}

TEST(strided_views) {
  aclrtStream st = nt_up();
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
    conv_case(st, &specs[i], i % 2 ? ACL_FLOAT : ACL_BF16, 1);
  nt_down(st);
}

/* Phase 1 on shapes seen before reuses their primitives (kept for the last 16): with new tensors each
 * time, 18 keys in turn (every form, with and without views) so that the oldest drop out, and a repeatable
 * executor made before them all that still runs right after its shape has dropped out. */
TEST(shapes_seen_before) {
  aclrtStream st = nt_up();
  /* 1x1x4x4 of ones, a 3x3 kernel of ones, padding 1: each output is the count of its neighbours */
  const int64_t xd[4] = {1, 1, 4, 4}, wd[4] = {1, 1, 3, 3};
  double ones[16], want[16];
  for (int i = 0; i < 16; i++) {
    int r = i / 4, c = i % 4, nr = (r > 0) + 1 + (r < 3), nc = (c > 0) + 1 + (c < 3);
    ones[i] = 1;
    want[i] = nr * nc;
  }
  nt_tensor x = nt_make(ACL_FLOAT, 4, xd, ones), w = nt_make(ACL_FLOAT, 4, wd, ones),
            o = nt_make(ACL_FLOAT, 4, xd, NULL);
  int64_t one[2] = {1, 1}, zero[2] = {0, 0};
  aclIntArray *sa = aclCreateIntArray(one, 2), *pa = aclCreateIntArray(one, 2), *da = aclCreateIntArray(one, 2),
              *oa = aclCreateIntArray(zero, 2);
  uint64_t ws = 0;
  aclOpExecutor *ex = NULL;
  NT_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, sa, pa, da, false, oa, 1, o.t, 0, &ws, &ex));
  NT_OK(aclSetAclOpExecutorRepeatable(ex));
  for (int round = 0; round < 2; round++)
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
      conv_case(st, &specs[i], ACL_FLOAT, 0);
      conv_case(st, &specs[i], ACL_FLOAT, 1);
    }
  NT_OK(aclnnConvolution(NULL, 0, ex, st));
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  double *got = nt_read(&o);
  NT_CHECK_ALL("a repeatable executor whose shape left the cache", got, want, 16, 0);
  free(got);
  NT_OK(aclDestroyAclOpExecutor(ex));
  aclDestroyIntArray(sa);
  aclDestroyIntArray(pa);
  aclDestroyIntArray(da);
  aclDestroyIntArray(oa);
  nt_free(&x);
  nt_free(&w);
  nt_free(&o);
  nt_down(st);
}

/* With one executor the OpenMP team is one thread, and a run does not go to the engine's thread: the
 * executor (or the synchronising thread) runs the primitives itself.  Every form, on two streams in turn. */
TEST(one_executor) {
  setenv("OPENACL_EXECUTOR_THREADS", "1", 1);
  aclrtStream st = nt_up(), st2 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st2), ACL_SUCCESS);
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    conv_case(i % 2 ? st : st2, &specs[i], ACL_FLOAT, 0);
    conv_case(i % 2 ? st2 : st, &specs[i], ACL_FLOAT, 1);
  }
  CHECK_INT_EQ(aclrtDestroyStream(st2), ACL_SUCCESS);
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t xd[4] = {1, 3, 5, 5}, wd[4] = {4, 3, 3, 3}, od[4] = {1, 4, 3, 3}, bd[1] = {5}, x3[3] = {1, 3, 5};
  nt_tensor x = nt_make(ACL_FLOAT, 4, xd, NULL), w = nt_make(ACL_FLOAT, 4, wd, NULL),
            o = nt_make(ACL_FLOAT, 4, od, NULL), b = nt_make(ACL_FLOAT, 1, bd, NULL),
            xi = nt_make(ACL_INT32, 4, xd, NULL), xr = nt_make(ACL_FLOAT, 3, x3, NULL);
  int64_t one[2] = {1, 1}, zero[2] = {0, 0}, three[3] = {1, 1, 1};
  aclIntArray *s = aclCreateIntArray(one, 2), *p = aclCreateIntArray(zero, 2), *d = aclCreateIntArray(one, 2),
              *s3 = aclCreateIntArray(three, 3), *z = aclCreateIntArray(zero, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex));
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(NULL, w.t, NULL, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "input is NULL");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, NULL, NULL, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "weight is NULL");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, NULL, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "stride is NULL");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, false, NULL, 1, NULL, 0, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "output is NULL");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(xi.t, w.t, NULL, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(xr.t, w.t, NULL, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "weight of the same rank");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, b.t, s, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "bias has shape [5]");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s3, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "stride has 3 values");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, z, p, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "stride[0] is 0");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, false, NULL, 3, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "do not fit");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, false, NULL, 0, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "groups is 0");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, s, d, false, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "writes [1, 4, 5, 5]");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, false, NULL, 1, o.t, 7, &ws, &ex),
           ACLNN_ERR_PARAM_INVALID, "cubeMathType is 7");
  NT_FAILS(aclnnConvolutionGetWorkspaceSize(x.t, w.t, NULL, s, p, d, true, NULL, 1, o.t, 0, &ws, &ex),
           ACLNN_ERR_PARAM_NULLPTR, "outputPadding is NULL");
  aclDestroyIntArray(s);
  aclDestroyIntArray(p);
  aclDestroyIntArray(d);
  aclDestroyIntArray(s3);
  aclDestroyIntArray(z);
  nt_free(&x);
  nt_free(&w);
  nt_free(&o);
  nt_free(&b);
  nt_free(&xi);
  nt_free(&xr);
  nt_down(st);
}
