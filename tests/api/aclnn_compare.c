/*
 * aclnn_compare.c - the comparisons of reference aclnn.md section 8.10
 * (ctest -R api/aclnn/compare): Eq, Ne, Gt, Ge, Lt, Le in tensor, scalar and
 * in-place forms on every type they list, against references computed here;
 * the type the operands are compared in, broadcasting, NaN, views, any out
 * type, and the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"

#define B(t) (1ull << (t))

typedef aclnnStatus (*cmp_tt)(const aclTensor *, const aclTensor *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_ts)(const aclTensor *, const aclScalar *, aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_itt)(const aclTensor *, const aclTensor *, uint64_t *, aclOpExecutor **);
typedef aclnnStatus (*cmp_its)(const aclTensor *, const aclScalar *, uint64_t *, aclOpExecutor **);

static int r_eq(double a, double b) { return a == b; }
static int r_ne(double a, double b) { return a != b; }
static int r_gt(double a, double b) { return a > b; }
static int r_ge(double a, double b) { return a >= b; }
static int r_lt(double a, double b) { return a < b; }
static int r_le(double a, double b) { return a <= b; }

typedef struct cmpop {
  const char *name;
  int (*ref)(double, double);
  cmp_tt tt;
  nt_phase2 tt2;
  cmp_ts ts;
  nt_phase2 ts2;
  cmp_itt itt;
  nt_phase2 itt2;
  cmp_its its;
  nt_phase2 its2;
} cmpop;

#define OP(N, r)                                                                                                       \
  {                                                                                                                    \
#N, r, aclnn##N##TensorGetWorkspaceSize, aclnn##N##Tensor, aclnn##N##ScalarGetWorkspaceSize, aclnn##N##Scalar,     \
        aclnnInplace##N##TensorGetWorkspaceSize, aclnnInplace##N##Tensor, aclnnInplace##N##ScalarGetWorkspaceSize,     \
        aclnnInplace##N##Scalar                                                                                        \
  }

static const cmpop ops[] = {OP(Eq, r_eq), OP(Ne, r_ne), OP(Gt, r_gt), OP(Ge, r_ge), OP(Lt, r_lt), OP(Le, r_le)};

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};

/* Small values, so that equal pairs are common. */
static double gen(uint32_t *s, aclDataType t) {
  double u = nt_rand(s);
  if (t == ACL_BOOL)
    return u < 0.5;
  if (t == ACL_UINT8)
    return floor(u * 4);
  return nt_is_float(t) ? floor(u * 8) / 2 - 2 : floor(u * 5) - 2;
}

/* form 0 tensor, 1 scalar; in place writes self */
static void run_cmp(const cmpop *op, aclDataType t, int form, int inplace, aclrtStream st) {
  char what[128];
  snprintf(what, sizeof what, "%s%s%s on %s", inplace ? "Inplace" : "", op->name, form ? "Scalar" : "Tensor",
           nt_name(t));
  const int64_t dims[2] = {4, 5}, n = 20;
  double va[20], vb[20], want[20];
  uint32_t seed = 17u + (uint32_t)t;
  for (int i = 0; i < n; i++) {
    va[i] = gen(&seed, t);
    vb[i] = gen(&seed, t);
  }
  aclDataType odt = inplace ? t : ACL_BOOL;
  nt_tensor a = nt_make(t, 2, dims, va), b = nt_make(t, 2, dims, vb), o = {0};
  if (!inplace)
    o = nt_make(odt, 2, dims, NULL);
  aclScalar *s = nt_scalar(t, vb[0]);
  uint64_t ws = 9;
  aclOpExecutor *ex;
  int rc = form == 0 ? (inplace ? op->itt(a.t, b.t, &ws, &ex) : op->tt(a.t, b.t, o.t, &ws, &ex))
                     : (inplace ? op->its(a.t, s, &ws, &ex) : op->ts(a.t, s, o.t, &ws, &ex));
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  nt_run(form == 0 ? (inplace ? op->itt2 : op->tt2) : (inplace ? op->its2 : op->ts2), ws, ex, st);
  for (int i = 0; i < n; i++)
    want[i] = op->ref(va[i], form == 0 ? vb[i] : vb[0]);
  double *got = nt_read(inplace ? &a : &o);
  NT_CHECK_ALL(what, got, want, n, 0);
  free(got);
  aclDestroyScalar(s);
  nt_free(&a);
  nt_free(&b);
  if (!inplace)
    nt_free(&o);
}

static void sweep(int form, int inplace) {
  aclrtStream st = nt_up();
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
      run_cmp(&ops[k], types[i], form, inplace, st);
  nt_down(st);
}

TEST(tensor_every_type) { sweep(0, 0); }
TEST(scalar_every_type) { sweep(1, 0); }
TEST(inplace_tensor_every_type) { sweep(0, 1); }
TEST(inplace_scalar_every_type) { sweep(1, 1); }

/* One comparison of a (type ta) with b (tensor of type tb, or scalar when scalar) into out of type to. */
static double one(aclrtStream st, cmp_tt tt, nt_phase2 p2, cmp_ts ts, nt_phase2 s2, aclDataType ta, double a,
                  aclDataType tb, double b, int scalar, aclDataType to) {
  const int64_t d[1] = {1};
  nt_tensor x = nt_make(ta, 1, d, &a), y = nt_make(tb, 1, d, &b), o = nt_make(to, 1, d, NULL);
  aclScalar *s = nt_scalar(tb, b);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(scalar ? ts(x.t, s, o.t, &ws, &ex) : tt(x.t, y.t, o.t, &ws, &ex));
  nt_run(scalar ? s2 : p2, ws, ex, st);
  double *g = nt_read(&o), r = g[0];
  free(g);
  aclDestroyScalar(s);
  nt_free(&x);
  nt_free(&y);
  nt_free(&o);
  return r;
}

TEST(common_type_nan_and_out_types) {
  aclrtStream st = nt_up();
  /* int32 3 against 2.5: the scalar form compares in float32 */
  CHECK(one(st, aclnnGtTensorGetWorkspaceSize, aclnnGtTensor, aclnnGtScalarGetWorkspaceSize, aclnnGtScalar, ACL_INT32,
            3, ACL_DOUBLE, 2.5, 1, ACL_BOOL) == 1);
  CHECK(one(st, aclnnEqTensorGetWorkspaceSize, aclnnEqTensor, aclnnEqScalarGetWorkspaceSize, aclnnEqScalar, ACL_INT32,
            2, ACL_FLOAT, 2.5, 1, ACL_BOOL) == 0);
  /* int32 2049 against float16 2048: compared in float16, where 2049 is 2048 */
  CHECK(one(st, aclnnEqTensorGetWorkspaceSize, aclnnEqTensor, aclnnEqScalarGetWorkspaceSize, aclnnEqScalar, ACL_INT32,
            2049, ACL_FLOAT16, 2048, 0, ACL_BOOL) == 1);
  /* int64 values beyond float precision compare exactly */
  CHECK(one(st, aclnnLtTensorGetWorkspaceSize, aclnnLtTensor, aclnnLtScalarGetWorkspaceSize, aclnnLtScalar, ACL_INT64,
            9007199254740993.0, ACL_INT64, 9007199254740992.0, 0, ACL_BOOL) == 0);
  /* NaN: unequal to everything */
  CHECK(one(st, aclnnNeTensorGetWorkspaceSize, aclnnNeTensor, aclnnNeScalarGetWorkspaceSize, aclnnNeScalar, ACL_FLOAT,
            NAN, ACL_FLOAT, NAN, 0, ACL_BOOL) == 1);
  CHECK(one(st, aclnnGeTensorGetWorkspaceSize, aclnnGeTensor, aclnnGeScalarGetWorkspaceSize, aclnnGeScalar, ACL_FLOAT,
            NAN, ACL_FLOAT, 1, 1, ACL_BOOL) == 0);
  /* any out type: 1 / 0 */
  CHECK(one(st, aclnnLeTensorGetWorkspaceSize, aclnnLeTensor, aclnnLeScalarGetWorkspaceSize, aclnnLeScalar, ACL_FLOAT,
            1, ACL_FLOAT, 1, 0, ACL_FLOAT16) == 1);
  CHECK(one(st, aclnnLeTensorGetWorkspaceSize, aclnnLeTensor, aclnnLeScalarGetWorkspaceSize, aclnnLeScalar, ACL_UINT8,
            3, ACL_INT8, -1, 0, ACL_INT64) == 0);
  nt_down(st);
}

TEST(broadcast_and_views) {
  aclrtStream st = nt_up();
  /* self [3, 1] (a strided column), other [4] -> out [3, 4] written through a transposed view */
  const int64_t ad[2] = {3, 1}, ast[2] = {2, 1}, bd[1] = {4}, od[2] = {3, 4}, ost[2] = {1, 3};
  double av[6] = {1, -9, 2, -9, 3, -9}, bv[4] = {0, 1, 2, 3};
  nt_tensor a = nt_view(ACL_FLOAT, 2, ad, ast, 0, 6, av), b = nt_make(ACL_INT32, 1, bd, bv),
            o = nt_view(ACL_BOOL, 2, od, ost, 0, 12, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnGeTensorGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex));
  nt_run(aclnnGeTensor, ws, ex, st);
  double *g = nt_read(&o), want[12];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      want[i * 4 + j] = (i + 1) >= j;
  NT_CHECK_ALL("GeTensor broadcast", g, want, 12, 0);
  free(g);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 3}, d2[1] = {4};
  nt_tensor a = nt_make(ACL_FLOAT, 2, d, NULL), b = nt_make(ACL_FLOAT, 1, d2, NULL), o = nt_make(ACL_BOOL, 2, d, NULL),
            c = nt_make(ACL_COMPLEX64, 2, d, NULL), u = nt_make(ACL_UINT16, 2, d, NULL);
  aclScalar *s = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnEqTensorGetWorkspaceSize(NULL, a.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnEqTensorGetWorkspaceSize(a.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "other is NULL");
  NT_FAILS(aclnnGtScalarGetWorkspaceSize(a.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "other is NULL");
  NT_FAILS(aclnnLtScalarGetWorkspaceSize(a.t, s, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnLeTensorGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "do not broadcast");
  NT_FAILS(aclnnNeTensorGetWorkspaceSize(c.t, a.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "complex");
  NT_FAILS(aclnnGeScalarGetWorkspaceSize(u.t, s, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  const int64_t d3[2] = {1, 3};
  nt_tensor small = nt_make(ACL_FLOAT, 2, d3, NULL);
  NT_FAILS(aclnnInplaceEqTensorGetWorkspaceSize(small.t, a.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "in-place");
  NT_FAILS(aclnnGtTensorGetWorkspaceSize(a.t, a.t, small.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [1, 3]");
  aclDestroyScalar(s);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&c);
  nt_free(&u);
  nt_free(&small);
  nt_down(st);
}
