/*
 * aclnn_activation.c - the activations of reference aclnn.md section 8.4
 * (ctest -R api/aclnn/activation): every operator on every type it lists against a
 * double-precision reference computed here, the in-place forms, strided and
 * offset views, Prelu's per-channel weight, Softmax / LogSoftmax along every
 * dim, and the argument checks with their codes.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

#define B(t) (1ull << (t))
#define FLT3 (B(ACL_FLOAT) | B(ACL_FLOAT16) | B(ACL_BF16))

static const aclDataType all_types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};

/* ---- the operators, behind one calling shape ------------------------------------------------ */

typedef aclnnStatus (*act_p1)(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex);
typedef aclnnStatus (*act_ip1)(aclTensor *self, uint64_t *ws, aclOpExecutor **ex);

/* the attribute values of the sweep */
#define SLOPE 0.1
#define BETA 2.0
#define THRESH 3.0
#define ELU_A 1.5
#define ELU_S 1.25
#define ELU_I 0.75

static aclnnStatus with_slope(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex, int inplace) {
  aclScalar *sl = nt_scalar(ACL_FLOAT, SLOPE);
  aclnnStatus rc = inplace ? aclnnInplaceLeakyReluGetWorkspaceSize((aclTensor *)s, sl, ws, ex)
                           : aclnnLeakyReluGetWorkspaceSize(s, sl, o, ws, ex);
  aclDestroyScalar(sl);
  return rc;
}
static aclnnStatus p_leaky(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return with_slope(s, o, ws, ex, 0);
}
static aclnnStatus i_leaky(aclTensor *s, uint64_t *ws, aclOpExecutor **ex) { return with_slope(s, NULL, ws, ex, 1); }

static aclnnStatus p_softplus(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  aclScalar *b = nt_scalar(ACL_FLOAT, BETA), *t = nt_scalar(ACL_DOUBLE, THRESH);
  aclnnStatus rc = aclnnSoftplusGetWorkspaceSize(s, b, t, o, ws, ex);
  aclDestroyScalar(b);
  aclDestroyScalar(t);
  return rc;
}

static aclnnStatus with_elu(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex, int inplace) {
  aclScalar *a = nt_scalar(ACL_FLOAT, ELU_A), *sc = nt_scalar(ACL_FLOAT, ELU_S), *is = nt_scalar(ACL_DOUBLE, ELU_I);
  aclnnStatus rc = inplace ? aclnnInplaceEluGetWorkspaceSize((aclTensor *)s, a, sc, is, ws, ex)
                           : aclnnEluGetWorkspaceSize(s, a, sc, is, o, ws, ex);
  aclDestroyScalar(a);
  aclDestroyScalar(sc);
  aclDestroyScalar(is);
  return rc;
}
static aclnnStatus p_elu(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return with_elu(s, o, ws, ex, 0);
}
static aclnnStatus i_elu(aclTensor *s, uint64_t *ws, aclOpExecutor **ex) { return with_elu(s, NULL, ws, ex, 1); }

static aclnnStatus p_gelu_erf(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnGeluV2GetWorkspaceSize(s, 0, o, ws, ex);
}
static aclnnStatus p_gelu_tanh2(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnGeluV2GetWorkspaceSize(s, 1, o, ws, ex);
}
static aclnnStatus p_relu(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnReluGetWorkspaceSize(s, o, ws, ex);
}
static aclnnStatus p_hardswish(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnHardswishGetWorkspaceSize(s, o, ws, ex);
}
static aclnnStatus i_hardswish(aclTensor *s, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnInplaceHardswishGetWorkspaceSize(s, ws, ex);
}
static aclnnStatus i_hardsigmoid(aclTensor *s, uint64_t *ws, aclOpExecutor **ex) {
  return aclnnInplaceHardsigmoidGetWorkspaceSize(s, ws, ex);
}

/* ---- references, in double ------------------------------------------------------------------ */

static double r_relu(double x) { return x < 0 ? 0 : x; }
static double r_gelu_tanh(double x) { return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }
static double r_gelu_erf(double x) { return 0.5 * x * (1 + erf(x / sqrt(2))); }
static double r_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double r_silu(double x) { return x * r_sigmoid(x); }
static double r_leaky(double x) { return x > 0 ? x : SLOPE * x; }
static double r_hardswish(double x) { return x * fmin(fmax(x + 3, 0), 6) / 6; }
static double r_hardsigmoid(double x) { return fmin(fmax(x / 6 + 0.5, 0), 1); }
static double r_softplus(double x) { return BETA * x > THRESH ? x : log1p(exp(BETA * x)) / BETA; }
static double r_elu(double x) { return x > 0 ? ELU_S * x : ELU_A * ELU_S * expm1(x * ELU_I); }
static double r_mish(double x) { return x * tanh(log1p(exp(x))); }

typedef struct actop {
  const char *name;
  act_p1 p1;
  nt_phase2 p2;
  act_ip1 ip1;
  nt_phase2 ip2;
  double (*ref)(double);
  int float_out; /* integral inputs give a floating out (Tanh) */
  uint64_t types;
} actop;

static const actop actops[] = {
    {"Relu", p_relu, aclnnRelu, aclnnInplaceReluGetWorkspaceSize, aclnnInplaceRelu, r_relu, 0,
     FLT3 | B(ACL_INT8) | B(ACL_INT32) | B(ACL_INT64)},
    {"Gelu", aclnnGeluGetWorkspaceSize, aclnnGelu, NULL, NULL, r_gelu_tanh, 0, FLT3},
    {"GeluV2(0)", p_gelu_erf, aclnnGeluV2, NULL, NULL, r_gelu_erf, 0, FLT3},
    {"GeluV2(1)", p_gelu_tanh2, aclnnGeluV2, NULL, NULL, r_gelu_tanh, 0, FLT3},
    {"Silu", aclnnSiluGetWorkspaceSize, aclnnSilu, NULL, NULL, r_silu, 0, FLT3},
    {"Sigmoid", aclnnSigmoidGetWorkspaceSize, aclnnSigmoid, aclnnInplaceSigmoidGetWorkspaceSize, aclnnInplaceSigmoid,
     r_sigmoid, 0, FLT3},
    {"Tanh", aclnnTanhGetWorkspaceSize, aclnnTanh, aclnnInplaceTanhGetWorkspaceSize, aclnnInplaceTanh, tanh, 1,
     FLT3 | B(ACL_BOOL) | B(ACL_UINT8) | B(ACL_INT8) | B(ACL_INT16) | B(ACL_INT32) | B(ACL_INT64)},
    {"LeakyRelu", p_leaky, aclnnLeakyRelu, i_leaky, aclnnInplaceLeakyRelu, r_leaky, 0, FLT3},
    {"Hardswish", p_hardswish, aclnnHardswish, i_hardswish, aclnnInplaceHardswish, r_hardswish, 0, FLT3},
    {"Hardsigmoid", aclnnHardsigmoidGetWorkspaceSize, aclnnHardsigmoid, i_hardsigmoid, aclnnInplaceHardsigmoid,
     r_hardsigmoid, 0, FLT3 | B(ACL_INT32)},
    {"Softplus", p_softplus, aclnnSoftplus, NULL, NULL, r_softplus, 0, FLT3},
    {"Elu", p_elu, aclnnElu, i_elu, aclnnInplaceElu, r_elu, 0, FLT3},
    {"Mish", aclnnMishGetWorkspaceSize, aclnnMish, aclnnInplaceMishGetWorkspaceSize, aclnnInplaceMish, r_mish, 0, FLT3},
};

/* Values of type t around the activations' bends. */
static double agen(uint32_t *s, aclDataType t) {
  double u = nt_rand(s);
  if (t == ACL_BOOL)
    return u < 0.5 ? 0 : 1;
  if (t == ACL_UINT8)
    return floor(u * 8);
  return nt_round(t, nt_is_float(t) ? -5 + 10 * u : -6 + floor(u * 13));
}

/* self: a transposed [3, 4] view of a [4, 3] storage when `view`; out: a [3, 4] view at offset 5 with a row
 * stride of 6. */
static void run_act(const actop *op, aclDataType t, int inplace, int view, aclrtStream st) {
  char what[128];
  snprintf(what, sizeof what, "%s%s on %s%s", inplace ? "Inplace" : "", op->name, nt_name(t), view ? " (views)" : "");
  const int64_t dims[2] = {3, 4}, n = 12;
  double v[12], want[12];
  uint32_t seed = 99u + (uint32_t)t * 31u;
  for (int64_t i = 0; i < n; i++)
    v[i] = agen(&seed, t);
  aclDataType odt = inplace ? t : op->float_out && !nt_is_float(t) ? ACL_FLOAT : t;
  aclDataType cdt = op->float_out && !nt_is_float(t) ? ACL_FLOAT : t;
  nt_tensor a, o = {0};
  if (view) {
    /* storage [4, 3] holds v transposed: element (i, j) of the view is storage[j * 3 + i] */
    double sto[12];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++)
        sto[j * 3 + i] = v[i * 4 + j];
    const int64_t tst[2] = {1, 3};
    a = nt_view(t, 2, dims, tst, 0, 12, sto);
    if (!inplace) {
      const int64_t ost[2] = {6, 1};
      o = nt_view(odt, 2, dims, ost, 5, 5 + 2 * 6 + 4, NULL);
    }
  } else {
    a = nt_make(t, 2, dims, v);
    if (!inplace)
      o = nt_make(odt, 2, dims, NULL);
  }
  uint64_t ws = 99;
  aclOpExecutor *ex = NULL;
  int rc = inplace ? op->ip1(a.t, &ws, &ex) : op->p1(a.t, o.t, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(inplace ? op->ip2 : op->p2, ws, ex, st);
  double *got = nt_read(inplace ? &a : &o);
  for (int64_t i = 0; i < n; i++)
    want[i] = nt_round(odt, nt_round(cdt, op->ref(v[i])));
  NT_CHECK_ALL(what, got, want, n, 2 * nt_rtol(odt));
  free(got);
  nt_free(&a);
  if (!inplace)
    nt_free(&o);
}

static void sweep(int inplace, int view) {
  aclrtStream st = nt_up();
  int ran = 0;
  for (size_t k = 0; k < sizeof actops / sizeof actops[0]; k++) {
    const actop *op = &actops[k];
    if (inplace && op->ip1 == NULL)
      continue;
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++) {
      aclDataType t = all_types[i];
      if (!(op->types & B(t)) || (inplace && op->float_out && !nt_is_float(t)))
        continue;
      run_act(op, t, inplace, view, st);
      ran++;
    }
  }
  CHECK(ran > 20);
  nt_down(st);
}

TEST(every_type) { sweep(0, 0); }
TEST(inplace_every_type) { sweep(1, 0); }
TEST(strided_and_offset_views) { sweep(0, 1); }
TEST(inplace_views) { sweep(1, 1); }

TEST(refuses_unlisted_types) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {4};
  int refused = 0;
  for (size_t k = 0; k < sizeof actops / sizeof actops[0]; k++)
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++) {
      aclDataType t = all_types[i];
      if (actops[k].types & B(t))
        continue;
      nt_tensor a = nt_make(t, 1, d, NULL), o = nt_make(ACL_FLOAT, 1, d, NULL);
      uint64_t ws;
      aclOpExecutor *ex;
      NT_FAILS(actops[k].p1(a.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
      refused++;
      nt_free(&a);
      nt_free(&o);
    }
  CHECK(refused > 40);
  nt_down(st);
}

/* ---- Prelu ------------------------------------------------------------------------------------ */

static void prelu_case(aclrtStream st, aclDataType t, int64_t nw) {
  const int64_t dims[3] = {2, 3, 4}, wd[1] = {nw};
  double v[24], w[3] = {0.25, -0.5, 2}, want[24];
  uint32_t seed = 5;
  for (int i = 0; i < 24; i++)
    v[i] = agen(&seed, t);
  for (int i = 0; i < 3; i++)
    w[i] = nt_round(t, w[i]);
  nt_tensor a = nt_make(t, 3, dims, v), wt = nt_make(t, 1, wd, w), o = nt_make(t, 3, dims, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnPreluGetWorkspaceSize(a.t, wt.t, o.t, &ws, &ex));
  nt_run(aclnnPrelu, ws, ex, st);
  for (int i = 0; i < 24; i++) {
    double x = v[i], c = w[nw == 1 ? 0 : (i / 4) % 3];
    want[i] = nt_round(t, x > 0 ? x : c * x);
  }
  double *got = nt_read(&o);
  NT_CHECK_ALL("Prelu", got, want, 24, 2 * nt_rtol(t));
  free(got);
  nt_free(&a);
  nt_free(&wt);
  nt_free(&o);
}

TEST(prelu_per_channel_and_single) {
  aclrtStream st = nt_up();
  const aclDataType ts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int i = 0; i < 3; i++) {
    prelu_case(st, ts[i], 3);
    prelu_case(st, ts[i], 1);
  }
  /* a weight that is neither one per channel nor a single value */
  const int64_t dims[3] = {2, 3, 4}, wd[1] = {4};
  nt_tensor a = nt_make(ACL_FLOAT, 3, dims, NULL), w = nt_make(ACL_FLOAT, 1, wd, NULL),
            o = nt_make(ACL_FLOAT, 3, dims, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnPreluGetWorkspaceSize(a.t, w.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "one value per channel");
  NT_FAILS(aclnnPreluGetWorkspaceSize(a.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "weight is NULL");
  nt_free(&a);
  nt_free(&w);
  nt_free(&o);
  nt_down(st);
}

/* ---- Softmax, LogSoftmax ------------------------------------------------------------------------ */

/* softmax (or log) of v [2, 3, 4] along dim d, into want */
static void ref_softmax(const double *v, int d, int lg, double *want) {
  const int64_t dims[3] = {2, 3, 4}, st[3] = {12, 4, 1};
  for (int i = 0; i < 24; i++) {
    int64_t idx[3] = {i / 12, (i / 4) % 3, i % 4};
    int64_t base = i - idx[d] * st[d];
    double mx = -INFINITY, sum = 0;
    for (int64_t k = 0; k < dims[d]; k++)
      mx = fmax(mx, v[base + k * st[d]]);
    for (int64_t k = 0; k < dims[d]; k++)
      sum += exp(v[base + k * st[d]] - mx);
    want[i] = lg ? v[i] - mx - log(sum) : exp(v[i] - mx) / sum;
  }
}

typedef aclnnStatus (*sm_p1)(const aclTensor *, int64_t, aclTensor *, uint64_t *, aclOpExecutor **);

static void softmax_case(aclrtStream st, int lg, aclDataType t, aclDataType ot, int64_t dim, int view) {
  char what[128];
  snprintf(what, sizeof what, "%s on %s -> %s, dim %lld%s", lg ? "LogSoftmax" : "Softmax", nt_name(t), nt_name(ot),
           (long long)dim, view ? " (views)" : "");
  const int64_t dims[3] = {2, 3, 4};
  double v[24], want[24];
  uint32_t seed = 77u + (uint32_t)dim;
  for (int i = 0; i < 24; i++)
    v[i] = nt_round(t, -4 + 8 * nt_rand(&seed));
  nt_tensor a, o;
  if (view) {
    /* self: a [2, 3, 4] view with dims 0 and 2 swapped in memory (storage [4, 3, 2]); out at offset 3, padded rows */
    double sto[24];
    for (int i = 0; i < 24; i++)
      sto[(i % 4) * 6 + ((i / 4) % 3) * 2 + i / 12] = v[i];
    const int64_t ast[3] = {1, 2, 6}, ost[3] = {20, 5, 1};
    a = nt_view(t, 3, dims, ast, 0, 24, sto);
    o = nt_view(ot, 3, dims, ost, 3, 3 + 40, NULL);
  } else {
    a = nt_make(t, 3, dims, v);
    o = nt_make(ot, 3, dims, NULL);
  }
  uint64_t ws = 9;
  aclOpExecutor *ex;
  sm_p1 p1 = lg ? aclnnLogSoftmaxGetWorkspaceSize : aclnnSoftmaxGetWorkspaceSize;
  int rc = p1(a.t, dim, o.t, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(lg ? aclnnLogSoftmax : aclnnSoftmax, ws, ex, st);
  ref_softmax(v, (int)(dim < 0 ? dim + 3 : dim), lg, want);
  for (int i = 0; i < 24; i++)
    want[i] = nt_round(ot, want[i]);
  double *got = nt_read(&o);
  double rtol = 4 * (nt_rtol(t) > nt_rtol(ot) ? nt_rtol(t) : nt_rtol(ot));
  NT_CHECK_ALL(what, got, want, 24, rtol);
  free(got);
  nt_free(&a);
  nt_free(&o);
}

TEST(softmax_every_dim_and_type) {
  aclrtStream st = nt_up();
  const aclDataType ts[4] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  for (int lg = 0; lg < 2; lg++)
    for (int i = 0; i < 4; i++)
      for (int64_t d = -3; d < 3; d++)
        softmax_case(st, lg, ts[i], ts[i], d, 0);
  /* out of another floating type */
  softmax_case(st, 0, ACL_FLOAT16, ACL_FLOAT, 2, 0);
  softmax_case(st, 1, ACL_FLOAT, ACL_DOUBLE, 1, 0);
  nt_down(st);
}

TEST(softmax_views) {
  aclrtStream st = nt_up();
  for (int lg = 0; lg < 2; lg++)
    for (int64_t d = 0; d < 3; d++) {
      softmax_case(st, lg, ACL_FLOAT, ACL_FLOAT, d, 1);
      softmax_case(st, lg, ACL_BF16, ACL_BF16, d, 1);
    }
  nt_down(st);
}

TEST(softmax_in_place_large_and_empty) {
  aclrtStream st = nt_up();
  /* out is self: each line is read before it is written */
  const int64_t dims[2] = {300, 1000};
  int64_t n = 300 * 1000;
  double *v = malloc((size_t)n * sizeof(double));
  uint32_t seed = 3;
  for (int64_t i = 0; i < n; i++)
    v[i] = -3 + 6 * nt_rand(&seed);
  nt_tensor a = nt_make(ACL_FLOAT, 2, dims, v);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnSoftmaxGetWorkspaceSize(a.t, 1, a.t, &ws, &ex));
  nt_run(aclnnSoftmax, ws, ex, st);
  double *got = nt_read(&a);
  for (int64_t r = 0; r < 300; r += 37) {
    double sum = 0, mx = -INFINITY;
    for (int64_t k = 0; k < 1000; k++)
      mx = fmax(mx, (float)v[r * 1000 + k]);
    for (int64_t k = 0; k < 1000; k++)
      sum += exp((float)v[r * 1000 + k] - mx);
    for (int64_t k = 0; k < 1000; k += 111)
      CHECK(nt_close(got[r * 1000 + k], exp((float)v[r * 1000 + k] - mx) / sum, 1e-5));
  }
  free(got);
  free(v);
  nt_free(&a);
  /* empty: nothing to do, phase 2 queues nothing */
  const int64_t ed[2] = {0, 5};
  nt_tensor e = nt_make(ACL_FLOAT, 2, ed, NULL), eo = nt_make(ACL_FLOAT, 2, ed, NULL);
  NT_OK(aclnnLogSoftmaxGetWorkspaceSize(e.t, 1, eo.t, &ws, &ex));
  nt_run(aclnnLogSoftmax, ws, ex, st);
  nt_free(&e);
  nt_free(&eo);
  /* 0-D softmax is 1 */
  double one = 5;
  nt_tensor z = nt_make(ACL_FLOAT, 0, NULL, &one), zo = nt_make(ACL_FLOAT, 0, NULL, NULL);
  NT_OK(aclnnSoftmaxGetWorkspaceSize(z.t, -1, zo.t, &ws, &ex));
  nt_run(aclnnSoftmax, ws, ex, st);
  double *g0 = nt_read(&zo);
  CHECK(g0[0] == 1);
  free(g0);
  nt_free(&z);
  nt_free(&zo);
  nt_down(st);
}

/* ---- argument checks ---------------------------------------------------------------------------- */

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 3}, d2[2] = {3, 2};
  nt_tensor a = nt_make(ACL_FLOAT, 2, d, NULL), o = nt_make(ACL_FLOAT, 2, d, NULL),
            o2 = nt_make(ACL_FLOAT, 2, d2, NULL);
  nt_tensor ai = nt_make(ACL_INT32, 2, d, NULL), oh = nt_make(ACL_FLOAT16, 2, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  aclScalar *s = nt_scalar(ACL_FLOAT, 1);
  /* NULL tensors, scalars and outputs */
  NT_FAILS(aclnnReluGetWorkspaceSize(NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnGeluGetWorkspaceSize(a.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnSigmoidGetWorkspaceSize(a.t, o.t, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
  NT_FAILS(aclnnSiluGetWorkspaceSize(a.t, o.t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
  NT_FAILS(aclnnLeakyReluGetWorkspaceSize(a.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "negativeSlope is NULL");
  NT_FAILS(aclnnSoftplusGetWorkspaceSize(a.t, s, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "threshold is NULL");
  NT_FAILS(aclnnEluGetWorkspaceSize(a.t, s, s, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "inputScale is NULL");
  NT_FAILS(aclnnSoftmaxGetWorkspaceSize(NULL, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnLogSoftmaxGetWorkspaceSize(a.t, 0, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  /* types */
  NT_FAILS(aclnnGeluGetWorkspaceSize(ai.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnGeluGetWorkspaceSize(a.t, oh.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "own type");
  NT_FAILS(aclnnSoftmaxGetWorkspaceSize(ai.t, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnSigmoidGetWorkspaceSize(a.t, ai.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnReluGetWorkspaceSize(a.t, ai.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cannot be cast");
  /* shapes and attributes */
  NT_FAILS(aclnnReluGetWorkspaceSize(a.t, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [3, 2]");
  NT_FAILS(aclnnSoftmaxGetWorkspaceSize(a.t, 0, o2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [3, 2]");
  NT_FAILS(aclnnSoftmaxGetWorkspaceSize(a.t, 2, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 2");
  NT_FAILS(aclnnLogSoftmaxGetWorkspaceSize(a.t, -3, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is -3");
  NT_FAILS(aclnnGeluV2GetWorkspaceSize(a.t, 2, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "approximate is 2");
  aclScalar *zero = nt_scalar(ACL_FLOAT, 0);
  NT_FAILS(aclnnSoftplusGetWorkspaceSize(a.t, zero, s, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "beta is 0");
  aclDestroyScalar(zero);
  /* a destroyed tensor */
  aclTensor *dead = aclCreateTensor(d, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 2, a.dev);
  CHECK_INT_EQ(aclDestroyTensor(dead), 0);
  NT_FAILS(aclnnTanhGetWorkspaceSize(dead, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "not a live");
  aclDestroyScalar(s);
  nt_free(&a);
  nt_free(&o);
  nt_free(&o2);
  nt_free(&ai);
  nt_free(&oh);
  nt_down(st);
}

/* Phase 2 of a softmax executor: repeatable with new addresses, host memory refused. */
TEST(softmax_executor_repeatable_and_memory_checks) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {4};
  double v[4] = {1, 2, 3, 4}, w[4] = {0, 0, 0, 0};
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, v), b = nt_make(ACL_FLOAT, 1, d, w), o = nt_make(ACL_FLOAT, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnSoftmaxGetWorkspaceSize(a.t, 0, o.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclnnSoftmax(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  double *g = nt_read(&o);
  CHECK(nt_close(g[3], exp(0) / (exp(-3) + exp(-2) + exp(-1) + 1), 1e-6));
  free(g);
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 0, a.t, b.dev), 0);
  CHECK_INT_EQ(aclnnSoftmax(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  g = nt_read(&o);
  CHECK(nt_close(g[0], 0.25, 1e-6));
  free(g);
  float host[4] = {0};
  CHECK_INT_EQ(aclSetOutputTensorAddr(ex, 0, o.t, host), 0);
  NT_FAILS(aclnnSoftmax(NULL, 0, ex, st), ACLNN_ERR_PARAM_INVALID, "host memory");
  CHECK_INT_EQ(aclSetOutputTensorAddr(ex, 0, o.t, o.dev), 0);
  NT_FAILS(aclnnLogSoftmax(NULL, 0, ex, st), ACLNN_ERR_PARAM_INVALID, "was planned by");
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 0, a.t, a.dev), ACLNN_ERR_PARAM_INVALID);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_down(st);
}

/* Phase 2 queues an ordinary stream task: a capture records it (an element-wise plan and a job alike), and each
 * replay computes again from the memory's current contents. */
TEST(captured_into_a_task_graph) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {4};
  double v[4] = {-1, 2, -3, 4};
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, v), r = nt_make(ACL_FLOAT, 1, d, NULL), o = nt_make(ACL_FLOAT, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex1, *ex2;
  NT_OK(aclnnReluGetWorkspaceSize(a.t, r.t, &ws, &ex1));
  NT_OK(aclnnSoftmaxGetWorkspaceSize(r.t, 0, o.t, &ws, &ex2));
  CHECK_INT_EQ(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclnnRelu(NULL, 0, ex1, st), 0);
  CHECK_INT_EQ(aclnnSoftmax(NULL, 0, ex2, st), 0);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(st, &ri), ACL_SUCCESS);
  for (int run = 0; run < 2; run++) {
    if (run == 1) { /* new input: the replay reads it */
      double w[4] = {0, 0, 0, 0};
      nt_tensor fresh = nt_make(ACL_FLOAT, 1, d, w);
      CHECK_INT_EQ(aclrtMemcpy(a.dev, 16, fresh.dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
      nt_free(&fresh);
    }
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, st), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
    double *g = nt_read(&o);
    double z = 2 + exp(2) + exp(4);
    double want[4] = {1 / z, exp(2) / z, 1 / z, exp(4) / z};
    if (run == 1)
      want[0] = want[1] = want[2] = want[3] = 0.25;
    NT_CHECK_ALL("captured Relu + Softmax", g, want, 4, 1e-6);
    free(g);
  }
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  nt_free(&a);
  nt_free(&r);
  nt_free(&o);
  nt_down(st);
}
