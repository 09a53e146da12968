/*
 * aclnn_ops.c - every element-wise operator of the aclnn slice on every
 * data type its reference lists, against a double-precision reference
 * computed here: tensor-tensor, tensor-scalar, scalar-tensor and in-place
 * forms (the api/aclnn/ops tests).  Values are deterministic and chosen inside each
 * operator's domain; integer results wrap as the types do.
 */
#include <math.h>

#include "aclnn_util.h"

/* ---- the operators, behind one calling shape ------------------------------------------- */

/* a, b: tensor operands (NULL where a scalar); sa, sb: scalar operands;
 * out NULL for the in-place forms (a is written). */
typedef aclnnStatus (*bin_p1)(const aclTensor *a, const aclTensor *b, const aclScalar *sa, const aclScalar *sb,
                              const aclScalar *alpha, aclTensor *out, uint64_t *ws, aclOpExecutor **ex);

#define U (void)
#define ADAPT(name, body)                                                                                              \
  static aclnnStatus name(const aclTensor *a, const aclTensor *b, const aclScalar *sa, const aclScalar *sb,            \
                          const aclScalar *alpha, aclTensor *out, uint64_t *ws, aclOpExecutor **ex) {                  \
    U a;                                                                                                               \
    U b;                                                                                                               \
    U sa;                                                                                                              \
    U sb;                                                                                                              \
    U alpha;                                                                                                           \
    U out;                                                                                                             \
    return body;                                                                                                       \
  }

ADAPT(p_add, aclnnAddGetWorkspaceSize(a, b, alpha, out, ws, ex))
ADAPT(p_sub, aclnnSubGetWorkspaceSize(a, b, alpha, out, ws, ex))
ADAPT(p_rsub, aclnnRsubGetWorkspaceSize(a, b, alpha, out, ws, ex))
ADAPT(p_mul, aclnnMulGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_div, aclnnDivGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_divt, aclnnDivModGetWorkspaceSize(a, b, 1, out, ws, ex))
ADAPT(p_divf, aclnnDivModGetWorkspaceSize(a, b, 2, out, ws, ex))
ADAPT(p_powtt, aclnnPowTensorTensorGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_max, aclnnMaximumGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_min, aclnnMinimumGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_remtt, aclnnRemainderTensorTensorGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_and, aclnnLogicalAndGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_or, aclnnLogicalOrGetWorkspaceSize(a, b, out, ws, ex))
ADAPT(p_adds, aclnnAddsGetWorkspaceSize(a, sb, alpha, out, ws, ex))
ADAPT(p_subs, aclnnSubsGetWorkspaceSize(a, sb, alpha, out, ws, ex))
ADAPT(p_rsubs, aclnnRsubsGetWorkspaceSize(a, sb, alpha, out, ws, ex))
ADAPT(p_muls, aclnnMulsGetWorkspaceSize(a, sb, out, ws, ex))
ADAPT(p_divs, aclnnDivsGetWorkspaceSize(a, sb, out, ws, ex))
ADAPT(p_divmods, aclnnDivModsGetWorkspaceSize(a, sb, 2, out, ws, ex))
ADAPT(p_powts, aclnnPowTensorScalarGetWorkspaceSize(a, sb, out, ws, ex))
ADAPT(p_remts, aclnnRemainderTensorScalarGetWorkspaceSize(a, sb, out, ws, ex))
ADAPT(p_powst, aclnnPowScalarTensorGetWorkspaceSize(sa, b, out, ws, ex))
ADAPT(p_remst, aclnnRemainderScalarTensorGetWorkspaceSize(sa, b, out, ws, ex))
ADAPT(p_addv3, aclnnAddV3GetWorkspaceSize(sa, b, alpha, out, ws, ex))
ADAPT(p_iadd, aclnnInplaceAddGetWorkspaceSize(a, b, alpha, ws, ex))
ADAPT(p_isub, aclnnInplaceSubGetWorkspaceSize((aclTensor *)a, b, alpha, ws, ex))
ADAPT(p_imul, aclnnInplaceMulGetWorkspaceSize((aclTensor *)a, b, ws, ex))
ADAPT(p_idiv, aclnnInplaceDivGetWorkspaceSize((aclTensor *)a, b, ws, ex))
ADAPT(p_idivf, aclnnInplaceDivModGetWorkspaceSize((aclTensor *)a, b, 2, ws, ex))
ADAPT(p_ipowtt, aclnnInplacePowTensorTensorGetWorkspaceSize(a, b, ws, ex))
ADAPT(p_iremtt, aclnnInplaceRemainderTensorTensorGetWorkspaceSize((aclTensor *)a, b, ws, ex))
ADAPT(p_iand, aclnnInplaceLogicalAndGetWorkspaceSize((aclTensor *)a, b, ws, ex))
ADAPT(p_ior, aclnnInplaceLogicalOrGetWorkspaceSize((aclTensor *)a, b, ws, ex))
ADAPT(p_iadds, aclnnInplaceAddsGetWorkspaceSize(a, sb, alpha, ws, ex))
ADAPT(p_isubs, aclnnInplaceSubsGetWorkspaceSize((aclTensor *)a, sb, alpha, ws, ex))
ADAPT(p_imuls, aclnnInplaceMulsGetWorkspaceSize((aclTensor *)a, sb, ws, ex))
ADAPT(p_idivs, aclnnInplaceDivsGetWorkspaceSize((aclTensor *)a, sb, ws, ex))
ADAPT(p_idivmods, aclnnInplaceDivModsGetWorkspaceSize((aclTensor *)a, sb, 1, ws, ex))
ADAPT(p_ipowts, aclnnInplacePowTensorScalarGetWorkspaceSize(a, sb, ws, ex))

/* ---- references, in double ---------------------------------------------------------------- */

static double alpha_v; /* the alpha of the running case */

static double r_add(double a, double b) { return a + alpha_v * b; }
static double r_sub(double a, double b) { return a - alpha_v * b; }
static double r_rsub(double a, double b) { return b - alpha_v * a; }
static double r_mul(double a, double b) { return a * b; }
static double r_div(double a, double b) { return a / b; }
static double r_divt(double a, double b) { return trunc(a / b); }
static double r_divf(double a, double b) { return floor(a / b); }
static double r_max(double a, double b) { return a > b || a != a ? a : b; }
static double r_min(double a, double b) { return a < b || a != a ? a : b; }
static double r_and(double a, double b) { return a != 0 && b != 0; }
static double r_or(double a, double b) { return a != 0 || b != 0; }
static double r_rem(double a, double b) {
  double m = fmod(a, b);
  return m != 0 && ((m < 0) != (b < 0)) ? m + b : m;
}
static double r_pow(double a, double b) { return pow(a, b); }

/* ---- the sweep ---------------------------------------------------------------------------- */

enum { D_ANY, D_NONZERO_B, D_POW, D_POW_BASE_SCALAR };
/* What the result type is: the common type, float32 for integral
 * operands (true division), or bool (logical). */
enum { RES_COMMON, RES_FLOAT, RES_BOOL };
/* The operands' shapes: tensor op tensor, tensor op scalar, scalar op tensor. */
enum { F_TT, F_TS, F_ST };

typedef struct binop {
  const char *name;
  bin_p1 p1;
  nt_phase2 p2;
  double (*ref)(double, double);
  int form;
  int inplace;
  int res;
  int domain;
  int alpha; /* takes alpha */
  uint64_t types;
} binop;

#define B(t) (1ull << (t))
#define ARITH                                                                                                          \
  (B(ACL_FLOAT) | B(ACL_FLOAT16) | B(ACL_BF16) | B(ACL_DOUBLE) | B(ACL_INT8) | B(ACL_INT16) | B(ACL_INT32) |           \
   B(ACL_INT64) | B(ACL_UINT8) | B(ACL_BOOL))
#define NOBOOL (ARITH & ~B(ACL_BOOL))
#define FLOATS (B(ACL_FLOAT) | B(ACL_FLOAT16) | B(ACL_BF16) | B(ACL_DOUBLE))

static const binop binops[] = {
    {"Add", p_add, aclnnAdd, r_add, F_TT, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Sub", p_sub, aclnnSub, r_sub, F_TT, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Rsub", p_rsub, aclnnRsub, r_rsub, F_TT, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Mul", p_mul, aclnnMul, r_mul, F_TT, 0, RES_COMMON, D_ANY, 0, ARITH},
    {"Div", p_div, aclnnDiv, r_div, F_TT, 0, RES_FLOAT, D_NONZERO_B, 0, ARITH},
    {"DivMod1", p_divt, aclnnDivMod, r_divt, F_TT, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"DivMod2", p_divf, aclnnDivMod, r_divf, F_TT, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"PowTensorTensor", p_powtt, aclnnPowTensorTensor, r_pow, F_TT, 0, RES_COMMON, D_POW, 0, NOBOOL},
    {"Maximum", p_max, aclnnMaximum, r_max, F_TT, 0, RES_COMMON, D_ANY, 0, ARITH},
    {"Minimum", p_min, aclnnMinimum, r_min, F_TT, 0, RES_COMMON, D_ANY, 0, ARITH},
    {"RemainderTensorTensor", p_remtt, aclnnRemainderTensorTensor, r_rem, F_TT, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"LogicalAnd", p_and, aclnnLogicalAnd, r_and, F_TT, 0, RES_BOOL, D_ANY, 0, ARITH},
    {"LogicalOr", p_or, aclnnLogicalOr, r_or, F_TT, 0, RES_BOOL, D_ANY, 0, ARITH},
    {"Adds", p_adds, aclnnAdds, r_add, F_TS, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Subs", p_subs, aclnnSubs, r_sub, F_TS, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Rsubs", p_rsubs, aclnnRsubs, r_rsub, F_TS, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"Muls", p_muls, aclnnMuls, r_mul, F_TS, 0, RES_COMMON, D_ANY, 0, ARITH},
    {"Divs", p_divs, aclnnDivs, r_div, F_TS, 0, RES_FLOAT, D_NONZERO_B, 0, ARITH},
    {"DivMods2", p_divmods, aclnnDivMods, r_divf, F_TS, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"PowTensorScalar", p_powts, aclnnPowTensorScalar, r_pow, F_TS, 0, RES_COMMON, D_POW, 0, NOBOOL},
    {"RemainderTensorScalar", p_remts, aclnnRemainderTensorScalar, r_rem, F_TS, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"PowScalarTensor", p_powst, aclnnPowScalarTensor, r_pow, F_ST, 0, RES_COMMON, D_POW_BASE_SCALAR, 0, NOBOOL},
    {"RemainderScalarTensor", p_remst, aclnnRemainderScalarTensor, r_rem, F_ST, 0, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"AddV3", p_addv3, aclnnAddV3, r_add, F_ST, 0, RES_COMMON, D_ANY, 1, ARITH},
    {"InplaceAdd", p_iadd, aclnnInplaceAdd, r_add, F_TT, 1, RES_COMMON, D_ANY, 1, ARITH},
    {"InplaceSub", p_isub, aclnnInplaceSub, r_sub, F_TT, 1, RES_COMMON, D_ANY, 1, ARITH},
    {"InplaceMul", p_imul, aclnnInplaceMul, r_mul, F_TT, 1, RES_COMMON, D_ANY, 0, ARITH},
    {"InplaceDiv", p_idiv, aclnnInplaceDiv, r_div, F_TT, 1, RES_COMMON, D_NONZERO_B, 0, FLOATS},
    {"InplaceDivMod2", p_idivf, aclnnInplaceDivMod, r_divf, F_TT, 1, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"InplacePowTensorTensor", p_ipowtt, aclnnInplacePowTensorTensor, r_pow, F_TT, 1, RES_COMMON, D_POW, 0, NOBOOL},
    {"InplaceRemainderTensorTensor", p_iremtt, aclnnInplaceRemainderTensorTensor, r_rem, F_TT, 1, RES_COMMON,
     D_NONZERO_B, 0, NOBOOL},
    {"InplaceLogicalAnd", p_iand, aclnnInplaceLogicalAnd, r_and, F_TT, 1, RES_BOOL, D_ANY, 0, ARITH},
    {"InplaceLogicalOr", p_ior, aclnnInplaceLogicalOr, r_or, F_TT, 1, RES_BOOL, D_ANY, 0, ARITH},
    {"InplaceAdds", p_iadds, aclnnInplaceAdds, r_add, F_TS, 1, RES_COMMON, D_ANY, 1, ARITH},
    {"InplaceSubs", p_isubs, aclnnInplaceSubs, r_sub, F_TS, 1, RES_COMMON, D_ANY, 1, ARITH},
    {"InplaceMuls", p_imuls, aclnnInplaceMuls, r_mul, F_TS, 1, RES_COMMON, D_ANY, 0, ARITH},
    {"InplaceDivs", p_idivs, aclnnInplaceDivs, r_div, F_TS, 1, RES_COMMON, D_NONZERO_B, 0, FLOATS},
    {"InplaceDivMods1", p_idivmods, aclnnInplaceDivMods, r_divt, F_TS, 1, RES_COMMON, D_NONZERO_B, 0, NOBOOL},
    {"InplacePowTensorScalar", p_ipowts, aclnnInplacePowTensorScalar, r_pow, F_TS, 1, RES_COMMON, D_POW, 0, NOBOOL},
};

static const aclDataType all_types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                        ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};

/* A value of type t for operand `which` (0 a, 1 b) in the domain. */
static double gen(uint32_t *s, aclDataType t, int domain, int which) {
  double u = nt_rand(s);
  double v;
  int fl = nt_is_float(t);
  if (t == ACL_BOOL)
    v = u < 0.5 ? 0 : 1;
  else if (domain == D_POW || domain == D_POW_BASE_SCALAR)
    v = which == 0 ? (fl ? 0.2 + 2.8 * u : (t == ACL_UINT8 ? 0 : -4) + floor(u * (t == ACL_UINT8 ? 5 : 9)))
                   : (fl ? -2 + 4 * u : floor(u * 5));
  else if (t == ACL_UINT8)
    v = floor(u * 40);
  else
    v = fl ? -8 + 16 * u : -20 + floor(u * 41);
  if (domain == D_NONZERO_B && which == 1 && nt_round(t, v) == 0)
    v = t == ACL_BOOL ? 1 : 3;
  if (domain == D_NONZERO_B && which == 1 && fl && fabs(v) < 0.5)
    v = v < 0 ? -0.75 : 0.75;
  return nt_round(t, v);
}

static void run_binop(const binop *op, aclDataType t, aclrtStream st) {
  char what[128];
  snprintf(what, sizeof what, "%s on %s", op->name, nt_name(t));
  const int64_t dims[2] = {3, 5};
  const int64_t n = 15;
  double va[15], vb[15], want[15];
  uint32_t seed = 12345u + (uint32_t)t * 7u;
  for (int64_t i = 0; i < n; i++) {
    va[i] = gen(&seed, t, op->domain, 0);
    vb[i] = gen(&seed, t, op->domain, 1);
  }
  /* scalar operands: one value of the same type */
  double sv = op->form == F_ST ? va[0] : vb[0];
  aclScalar *sa = NULL, *sb = NULL;
  if (op->form == F_TS)
    sb = nt_scalar(t, sv);
  if (op->form == F_ST)
    sa = nt_scalar(t, sv);
  /* alpha: 2 for integral types, 1.5 for floating ones (bool: true) */
  alpha_v = t == ACL_BOOL ? 1 : nt_is_float(t) ? 1.5 : 2;
  aclScalar *alpha =
      nt_is_float(t) ? nt_scalar(ACL_FLOAT, alpha_v) : nt_scalar(t == ACL_BOOL ? ACL_BOOL : ACL_INT64, alpha_v);
  aclDataType cdt = op->res == RES_FLOAT && !nt_is_float(t) ? ACL_FLOAT : t;
  aclDataType odt = op->inplace ? t : op->res == RES_BOOL ? ACL_BOOL : cdt;
  nt_tensor a = nt_make(t, 2, dims, va), b = nt_make(t, 2, dims, vb);
  nt_tensor o = {0};
  if (!op->inplace)
    o = nt_make(odt, 2, dims, NULL);
  uint64_t ws = 99;
  aclOpExecutor *ex = NULL;
  int rc = op->p1(op->form == F_ST ? NULL : a.t, op->form == F_TS ? NULL : b.t, sa, sb, alpha, op->inplace ? NULL : o.t,
                  &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(op->p2, ws, ex, st);
  double *got = nt_read(op->inplace ? &a : &o);
  for (int64_t i = 0; i < n; i++) {
    double x = op->form == F_ST ? sv : va[i], y = op->form == F_TS ? sv : vb[i];
    double r = op->ref(x, y);
    if (op->res == RES_BOOL)
      want[i] = nt_round(odt, r);
    else
      want[i] = nt_round(odt, nt_round(cdt, r));
  }
  NT_CHECK_ALL(what, got, want, n, nt_rtol(odt) * (op->ref == r_pow ? 4 : 1));
  free(got);
  nt_free(&a);
  nt_free(&b);
  if (!op->inplace)
    nt_free(&o);
  aclDestroyScalar(sa);
  aclDestroyScalar(sb);
  aclDestroyScalar(alpha);
}

static void sweep_binops(int form, int inplace) {
  aclrtStream st = nt_up();
  int ran = 0;
  for (size_t k = 0; k < sizeof binops / sizeof binops[0]; k++) {
    const binop *op = &binops[k];
    if (op->form != form || op->inplace != inplace)
      continue;
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++)
      if (op->types & B(all_types[i])) {
        run_binop(op, all_types[i], st);
        ran++;
      }
  }
  CHECK(ran > 20);
  nt_down(st);
}

TEST(binary_tensor_tensor_every_type) { sweep_binops(F_TT, 0); }
TEST(binary_tensor_scalar_every_type) { sweep_binops(F_TS, 0); }
TEST(binary_scalar_tensor_every_type) { sweep_binops(F_ST, 0); }
TEST(binary_inplace_tensor_every_type) { sweep_binops(F_TT, 1); }
TEST(binary_inplace_scalar_every_type) { sweep_binops(F_TS, 1); }

/* ---- unary ------------------------------------------------------------------------------------ */

typedef aclnnStatus (*un_p1)(const aclTensor *self, aclTensor *out, uint64_t *ws, aclOpExecutor **ex);
typedef aclnnStatus (*un_ip1)(aclTensor *self, uint64_t *ws, aclOpExecutor **ex);

#define UADAPT(name, fn)                                                                                               \
  static aclnnStatus name(const aclTensor *s, aclTensor *o, uint64_t *ws, aclOpExecutor **ex) {                        \
    return fn(s, o, ws, ex);                                                                                           \
  }
#define IADAPT(name, fn)                                                                                               \
  static aclnnStatus name(aclTensor *s, uint64_t *ws, aclOpExecutor **ex) { return fn(s, ws, ex); }

UADAPT(u_log2, aclnnLog2GetWorkspaceSize)
IADAPT(i_reciprocal, aclnnInplaceReciprocalGetWorkspaceSize)
IADAPT(i_round, aclnnInplaceRoundGetWorkspaceSize)

static double r_neg(double a) { return -a; }
static double r_rsqrt(double a) { return 1 / sqrt(a); }
static double r_recip(double a) { return 1 / a; }
static double r_sign(double a) { return (a > 0) - (a < 0); }
static double r_not(double a) { return a == 0; }
static double r_isfinite(double a) { return isfinite(a); }
static double r_round(double a) { return nearbyint(a); }

enum { UD_ANY, UD_POS, UD_SMALL, UD_NONZERO, UD_SPECIAL };
/* result: RES_COMMON (self's type), RES_FLOAT (float32 for integral input), RES_BOOL */
typedef struct unop {
  const char *name;
  un_p1 p1;
  nt_phase2 p2;
  un_ip1 ip1;
  nt_phase2 ip2;
  double (*ref)(double);
  int res;
  int domain;
  uint64_t types;
} unop;

#define ALLINT (B(ACL_INT8) | B(ACL_INT16) | B(ACL_INT32) | B(ACL_INT64) | B(ACL_UINT8))
static const unop unops[] = {
    {"Neg", aclnnNegGetWorkspaceSize, aclnnNeg, aclnnInplaceNegGetWorkspaceSize, aclnnInplaceNeg, r_neg, RES_COMMON,
     UD_ANY, FLOATS | B(ACL_INT8) | B(ACL_INT32) | B(ACL_INT64)},
    {"Abs", aclnnAbsGetWorkspaceSize, aclnnAbs, NULL, NULL, fabs, RES_COMMON, UD_ANY, ARITH},
    {"Exp", aclnnExpGetWorkspaceSize, aclnnExp, aclnnInplaceExpGetWorkspaceSize, aclnnInplaceExp, exp, RES_FLOAT,
     UD_SMALL, FLOATS | B(ACL_BOOL) | B(ACL_INT64)},
    {"Log", aclnnLogGetWorkspaceSize, aclnnLog, aclnnInplaceLogGetWorkspaceSize, aclnnInplaceLog, log, RES_FLOAT,
     UD_POS, ARITH},
    {"Log2", u_log2, aclnnLog2, aclnnInplaceLog2GetWorkspaceSize, aclnnInplaceLog2, log2, RES_FLOAT, UD_POS, ARITH},
    {"Log10", aclnnLog10GetWorkspaceSize, aclnnLog10, aclnnInplaceLog10GetWorkspaceSize, aclnnInplaceLog10, log10,
     RES_FLOAT, UD_POS, ARITH},
    {"Log1p", aclnnLog1pGetWorkspaceSize, aclnnLog1p, aclnnInplaceLog1pGetWorkspaceSize, aclnnInplaceLog1p, log1p,
     RES_FLOAT, UD_POS, ARITH},
    {"Sqrt", aclnnSqrtGetWorkspaceSize, aclnnSqrt, aclnnInplaceSqrtGetWorkspaceSize, aclnnInplaceSqrt, sqrt, RES_FLOAT,
     UD_POS, ARITH},
    {"Rsqrt", aclnnRsqrtGetWorkspaceSize, aclnnRsqrt, aclnnInplaceRsqrtGetWorkspaceSize, aclnnInplaceRsqrt, r_rsqrt,
     RES_FLOAT, UD_POS, ARITH},
    {"Reciprocal", aclnnReciprocalGetWorkspaceSize, aclnnReciprocal, i_reciprocal, aclnnInplaceReciprocal, r_recip,
     RES_FLOAT, UD_NONZERO, ARITH},
    {"Sin", aclnnSinGetWorkspaceSize, aclnnSin, aclnnInplaceSinGetWorkspaceSize, aclnnInplaceSin, sin, RES_FLOAT,
     UD_ANY, ARITH},
    {"Cos", aclnnCosGetWorkspaceSize, aclnnCos, aclnnInplaceCosGetWorkspaceSize, aclnnInplaceCos, cos, RES_FLOAT,
     UD_ANY, ARITH},
    {"Tan", aclnnTanGetWorkspaceSize, aclnnTan, aclnnInplaceTanGetWorkspaceSize, aclnnInplaceTan, tan, RES_FLOAT,
     UD_SMALL, ARITH},
    {"Atan", aclnnAtanGetWorkspaceSize, aclnnAtan, aclnnInplaceAtanGetWorkspaceSize, aclnnInplaceAtan, atan, RES_FLOAT,
     UD_ANY, ARITH},
    {"Sinh", aclnnSinhGetWorkspaceSize, aclnnSinh, aclnnInplaceSinhGetWorkspaceSize, aclnnInplaceSinh, sinh, RES_FLOAT,
     UD_SMALL, ARITH},
    {"Cosh", aclnnCoshGetWorkspaceSize, aclnnCosh, aclnnInplaceCoshGetWorkspaceSize, aclnnInplaceCosh, cosh, RES_FLOAT,
     UD_SMALL, ARITH},
    {"Erf", aclnnErfGetWorkspaceSize, aclnnErf, aclnnInplaceErfGetWorkspaceSize, aclnnInplaceErf, erf, RES_FLOAT,
     UD_SMALL, FLOATS | B(ACL_BOOL) | B(ACL_INT64)},
    {"Floor", aclnnFloorGetWorkspaceSize, aclnnFloor, aclnnInplaceFloorGetWorkspaceSize, aclnnInplaceFloor, floor,
     RES_COMMON, UD_ANY, FLOATS | ALLINT},
    {"Ceil", aclnnCeilGetWorkspaceSize, aclnnCeil, aclnnInplaceCeilGetWorkspaceSize, aclnnInplaceCeil, ceil, RES_COMMON,
     UD_ANY, FLOATS},
    {"Round", aclnnRoundGetWorkspaceSize, aclnnRound, i_round, aclnnInplaceRound, r_round, RES_COMMON, UD_SPECIAL,
     FLOATS | B(ACL_INT32) | B(ACL_INT64)},
    {"Trunc", aclnnTruncGetWorkspaceSize, aclnnTrunc, aclnnInplaceTruncGetWorkspaceSize, aclnnInplaceTrunc, trunc,
     RES_COMMON, UD_ANY, B(ACL_FLOAT) | B(ACL_FLOAT16) | B(ACL_BF16)},
    {"Sign", aclnnSignGetWorkspaceSize, aclnnSign, NULL, NULL, r_sign, RES_COMMON, UD_ANY,
     FLOATS | B(ACL_INT32) | B(ACL_INT64) | B(ACL_BOOL)},
    {"LogicalNot", aclnnLogicalNotGetWorkspaceSize, aclnnLogicalNot, aclnnInplaceLogicalNotGetWorkspaceSize,
     aclnnInplaceLogicalNot, r_not, RES_BOOL, UD_ANY, ARITH},
    {"IsFinite", aclnnIsFiniteGetWorkspaceSize, aclnnIsFinite, NULL, NULL, r_isfinite, RES_BOOL, UD_SPECIAL, FLOATS},
};

static double ugen(uint32_t *s, aclDataType t, int domain, int64_t i) {
  double u = nt_rand(s);
  int fl = nt_is_float(t);
  double v;
  if (domain == UD_SPECIAL && fl) {
    /* halves (Round's ties), infinities and NaN (IsFinite) among ordinary values */
    static const double special[] = {0.5, 1.5, 2.5, -0.5, -2.5, INFINITY, -INFINITY, NAN, 3.25, -7.75};
    v = i < 10 ? special[i] : -6 + 12 * u;
  } else if (t == ACL_BOOL) {
    v = u < 0.5 ? 0 : 1;
    if (domain == UD_POS || domain == UD_NONZERO)
      v = 1;
  } else if (domain == UD_POS) {
    v = fl ? 0.05 + 9 * u : 1 + floor(u * 40);
  } else if (domain == UD_SMALL) {
    v = fl ? -1.4 + 2.8 * u : floor(u * 3) - (t == ACL_UINT8 ? 0 : 1);
  } else {
    v = t == ACL_UINT8 ? floor(u * 60) : fl ? -6 + 12 * u : -30 + floor(u * 61);
    if (domain == UD_NONZERO && nt_round(t, v) == 0)
      v = 2;
  }
  return nt_round(t, v);
}

static void run_unop(const unop *op, aclDataType t, int inplace, aclrtStream st) {
  char what[128];
  snprintf(what, sizeof what, "%s%s on %s", inplace ? "Inplace" : "", op->name, nt_name(t));
  const int64_t dims[3] = {2, 2, 5};
  const int64_t n = 20;
  double v[20], want[20];
  uint32_t seed = 777u + (uint32_t)t * 13u;
  for (int64_t i = 0; i < n; i++)
    v[i] = ugen(&seed, t, op->domain, i);
  aclDataType cdt = op->res == RES_FLOAT && !nt_is_float(t) ? ACL_FLOAT : t;
  aclDataType odt = inplace ? t : op->res == RES_BOOL ? ACL_BOOL : cdt;
  nt_tensor a = nt_make(t, 3, dims, v), o = {0};
  if (!inplace)
    o = nt_make(odt, 3, dims, NULL);
  uint64_t ws = 99;
  aclOpExecutor *ex = NULL;
  int rc = inplace ? op->ip1(a.t, &ws, &ex) : op->p1(a.t, o.t, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(inplace ? op->ip2 : op->p2, ws, ex, st);
  double *got = nt_read(inplace ? &a : &o);
  for (int64_t i = 0; i < n; i++)
    want[i] = op->res == RES_BOOL ? nt_round(odt, op->ref(v[i])) : nt_round(odt, nt_round(cdt, op->ref(v[i])));
  NT_CHECK_ALL(what, got, want, n, 2 * nt_rtol(odt));
  free(got);
  nt_free(&a);
  if (!inplace)
    nt_free(&o);
}

static void sweep_unops(int inplace) {
  aclrtStream st = nt_up();
  int ran = 0;
  for (size_t k = 0; k < sizeof unops / sizeof unops[0]; k++) {
    const unop *op = &unops[k];
    if (inplace && op->ip1 == NULL)
      continue;
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++) {
      aclDataType t = all_types[i];
      /* in place, a floating result cannot go back into an integral self */
      if (!(op->types & B(t)) || (inplace && op->res == RES_FLOAT && !nt_is_float(t)))
        continue;
      run_unop(op, t, inplace, st);
      ran++;
    }
  }
  CHECK(ran > 40);
  nt_down(st);
}

TEST(unary_every_type) { sweep_unops(0); }
TEST(unary_inplace_every_type) { sweep_unops(1); }

/* Each operator refuses a type its reference does not list (the sweep's complement). */
TEST(unary_refuses_unlisted_types) {
  aclrtStream st = nt_up();
  const int64_t dims[1] = {4};
  int refused = 0;
  for (size_t k = 0; k < sizeof unops / sizeof unops[0]; k++)
    for (size_t i = 0; i < sizeof all_types / sizeof all_types[0]; i++) {
      aclDataType t = all_types[i];
      if (unops[k].types & B(t))
        continue;
      nt_tensor a = nt_make(t, 1, dims, NULL), o = nt_make(ACL_FLOAT, 1, dims, NULL);
      uint64_t ws;
      aclOpExecutor *ex;
      NT_FAILS(unops[k].p1(a.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
      refused++;
      nt_free(&a);
      nt_free(&o);
    }
  CHECK(refused > 20);
  nt_down(st);
}
