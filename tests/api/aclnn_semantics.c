/*
 * aclnn_semantics.c - the rules every element-wise aclnn operator follows
 * (reference aclnn.md sections 6 and 7): type promotion and the type an
 * operation rounds in, casting to out, broadcasting, alpha, strided and
 * offset views (inputs and outputs), 0-D and empty tensors, the rank
 * limit, outputs that overlap inputs (the workspace), large tensors
 * (block-parallel), and the argument checks with their codes and messages.
 */
#include <math.h>

#include "aclnn_util.h"

static void check_values(const char *what, const nt_tensor *x, const double *want, int64_t n, double rtol) {
  double *got = nt_read(x);
  NT_CHECK_ALL(what, got, want, n, rtol);
  free(got);
}

/* out = self + alpha * other for the given types; checks the result. */
static void add_case(aclrtStream st, aclDataType ta, double va, aclDataType tb, double vb, aclDataType to,
                     aclDataType alpha_t, double alpha, double want) {
  const int64_t d[1] = {1};
  nt_tensor a = nt_make(ta, 1, d, &va), b = nt_make(tb, 1, d, &vb), o = nt_make(to, 1, d, NULL);
  aclScalar *al = nt_scalar(alpha_t, alpha);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(a.t, b.t, al, o.t, &ws, &ex));
  nt_run(aclnnAdd, ws, ex, st);
  char what[160];
  snprintf(what, sizeof what, "%s(%g) + %g * %s(%g) -> %s", nt_name(ta), va, alpha, nt_name(tb), vb, nt_name(to));
  check_values(what, &o, &want, 1, 0);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  aclDestroyScalar(al);
}

TEST(promotion_tensor_tensor) {
  aclrtStream st = nt_up();
  /* int8 + uint8 computes in int16: no wrap at 8 bits */
  add_case(st, ACL_INT8, 100, ACL_UINT8, 200, ACL_INT16, ACL_INT64, 1, 300);
  /* int32 + float16 computes in float16: 2049 rounds to 2048 before the add */
  add_case(st, ACL_INT32, 2049, ACL_FLOAT16, 0, ACL_FLOAT, ACL_FLOAT, 1, 2048);
  /* float16 + bfloat16 computes in float32 */
  add_case(st, ACL_FLOAT16, 1, ACL_BF16, 1.0 / 256, ACL_FLOAT, ACL_FLOAT, 1, 1 + 1.0 / 256);
  /* bool + bool stays bool (true + true = true); bool + int8 is int8 */
  add_case(st, ACL_BOOL, 1, ACL_BOOL, 1, ACL_BOOL, ACL_BOOL, 1, 1);
  add_case(st, ACL_BOOL, 1, ACL_INT8, 127, ACL_INT32, ACL_INT64, 1, -128);
  /* int64 + float32 is float32; float32 + double is double */
  add_case(st, ACL_INT64, 16777217, ACL_FLOAT, 0, ACL_DOUBLE, ACL_FLOAT, 1, 16777216);
  add_case(st, ACL_FLOAT, 0.1, ACL_DOUBLE, 0, ACL_DOUBLE, ACL_FLOAT, 1, (double)0.1f);
  nt_down(st);
}

TEST(rounding_in_the_operation_type_before_out) {
  aclrtStream st = nt_up();
  /* int8 + int8 wraps as int8 even when written to an int32 out */
  add_case(st, ACL_INT8, 100, ACL_INT8, 100, ACL_INT32, ACL_INT64, 1, -56);
  /* float16 + float16 rounds to float16 before reaching a float32 out */
  add_case(st, ACL_FLOAT16, 2048, ACL_FLOAT16, 1, ACL_FLOAT, ACL_FLOAT, 1, 2048);
  /* bfloat16 likewise (8 significant bits) */
  add_case(st, ACL_BF16, 256, ACL_BF16, 1, ACL_DOUBLE, ACL_FLOAT, 1, 256);
  /* uint8 wraps */
  add_case(st, ACL_UINT8, 3, ACL_UINT8, 5, ACL_UINT8, ACL_INT64, -1, 254);
  nt_down(st);
}

TEST(alpha) {
  aclrtStream st = nt_up();
  add_case(st, ACL_FLOAT, 1, ACL_FLOAT, 4, ACL_FLOAT, ACL_FLOAT, 0.25, 2);
  add_case(st, ACL_INT32, 10, ACL_INT32, 3, ACL_INT32, ACL_INT64, -3, 1);
  add_case(st, ACL_DOUBLE, 1, ACL_DOUBLE, 1, ACL_DOUBLE, ACL_DOUBLE, 1e-17, 1); /* not the plain form */
  /* bool computing type: alpha may be integral */
  add_case(st, ACL_BOOL, 0, ACL_BOOL, 1, ACL_INT32, ACL_INT32, 2, 1);
  /* Sub and Rsub scale other and self */
  const int64_t d[1] = {1};
  double x = 10, y = 4;
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, &x), b = nt_make(ACL_FLOAT, 1, d, &y), o = nt_make(ACL_FLOAT, 1, d, NULL);
  aclScalar *al = nt_scalar(ACL_FLOAT, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnSubGetWorkspaceSize(a.t, b.t, al, o.t, &ws, &ex));
  nt_run(aclnnSub, ws, ex, st);
  double want = 2;
  check_values("10 - 2*4", &o, &want, 1, 0);
  NT_OK(aclnnRsubGetWorkspaceSize(a.t, b.t, al, o.t, &ws, &ex));
  nt_run(aclnnRsub, ws, ex, st);
  want = -16;
  check_values("4 - 2*10", &o, &want, 1, 0);
  /* a floating alpha cannot scale an integral operation */
  nt_tensor i = nt_make(ACL_INT32, 1, d, &x);
  NT_FAILS(aclnnAddGetWorkspaceSize(i.t, i.t, al, i.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "alpha is ACL_FLOAT, which cannot be cast to ACL_INT32");
  aclDestroyScalar(al);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&i);
  nt_down(st);
}

/* Tensor-scalar types (reference 7.1 and Adds in 8.1). */
TEST(promotion_tensor_scalar) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {1};
  struct {
    aclDataType self, scalar, out;
    double s, v, want;
  } rows[] = {
      {ACL_INT8, ACL_INT64, ACL_INT8, 1, 300, 45},         /* integral scalar: self's type, 300 wraps to 44 */
      {ACL_INT32, ACL_DOUBLE, ACL_FLOAT, 1, 0.5, 1.5},     /* f64 scalar with an f32 out: f32 */
      {ACL_INT32, ACL_FLOAT, ACL_FLOAT, 1, 0.25, 1.25},    /* floating scalar: promoted */
      {ACL_FLOAT16, ACL_DOUBLE, ACL_FLOAT, 2048, 1, 2048}, /* floating self keeps its type */
      {ACL_BOOL, ACL_INT64, ACL_INT64, 1, 1000, 1001},     /* bool self takes the scalar's type */
  };
  for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
    nt_tensor a = nt_make(rows[k].self, 1, d, &rows[k].s), o = nt_make(rows[k].out, 1, d, NULL);
    aclScalar *sc = nt_scalar(rows[k].scalar, rows[k].v), *al = nt_scalar(ACL_INT64, 1);
    uint64_t ws;
    aclOpExecutor *ex;
    NT_OK(aclnnAddsGetWorkspaceSize(a.t, sc, al, o.t, &ws, &ex));
    nt_run(aclnnAdds, ws, ex, st);
    check_values("Adds", &o, &rows[k].want, 1, 0);
    nt_free(&a);
    nt_free(&o);
    aclDestroyScalar(sc);
    aclDestroyScalar(al);
  }
  /* Divs on integers computes in float32; Muls keeps an integral type */
  double v = 7;
  nt_tensor a = nt_make(ACL_INT32, 1, d, &v), o = nt_make(ACL_FLOAT, 1, d, NULL), oi = nt_make(ACL_INT32, 1, d, NULL);
  aclScalar *two = nt_scalar(ACL_INT32, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnDivsGetWorkspaceSize(a.t, two, o.t, &ws, &ex));
  nt_run(aclnnDivs, ws, ex, st);
  double want = 3.5;
  check_values("7 / 2", &o, &want, 1, 0);
  NT_FAILS(aclnnDivsGetWorkspaceSize(a.t, two, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "computes ACL_FLOAT here, which cannot be cast to out's ACL_INT32");
  NT_OK(aclnnMulsGetWorkspaceSize(a.t, two, oi.t, &ws, &ex));
  nt_run(aclnnMuls, ws, ex, st);
  want = 14;
  check_values("7 * 2", &oi, &want, 1, 0);
  /* a negative scalar exponent of an integral power is refused */
  aclScalar *neg = nt_scalar(ACL_INT32, -1);
  NT_FAILS(aclnnPowTensorScalarGetWorkspaceSize(a.t, neg, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "integers to negative integer powers");
  aclDestroyScalar(neg);
  aclDestroyScalar(two);
  nt_free(&a);
  nt_free(&o);
  nt_free(&oi);
  nt_down(st);
}

TEST(special_values) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {6};
  double x[6] = {NAN, 1, -7, 7, -7, 0}, y[6] = {1, NAN, 2, -2, 0, 0};
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, x), b = nt_make(ACL_FLOAT, 1, d, y), o = nt_make(ACL_FLOAT, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnMaximumGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex));
  nt_run(aclnnMaximum, ws, ex, st);
  double wmax[6] = {NAN, NAN, 2, 7, 0, 0};
  check_values("maximum with NaN", &o, wmax, 6, 0);
  NT_OK(aclnnRemainderTensorTensorGetWorkspaceSize(a.t, b.t, o.t, &ws, &ex));
  nt_run(aclnnRemainderTensorTensor, ws, ex, st);
  double wrem[6] = {NAN, NAN, 1, -1, NAN, NAN};
  check_values("float remainder", &o, wrem, 6, 0);
  /* integers: the sign of other; modulo 0 gives self; floor division by 0 gives 0 (openacl's choice) */
  nt_tensor ia = nt_make(ACL_INT32, 1, d, x), ib = nt_make(ACL_INT32, 1, d, y), io = nt_make(ACL_INT32, 1, d, NULL);
  NT_OK(aclnnRemainderTensorTensorGetWorkspaceSize(ia.t, ib.t, io.t, &ws, &ex));
  nt_run(aclnnRemainderTensorTensor, ws, ex, st);
  double wirem[6] = {0, 1, 1, -1, -7, 0};
  check_values("int remainder", &io, wirem, 6, 0);
  NT_OK(aclnnDivModGetWorkspaceSize(ia.t, ib.t, 2, io.t, &ws, &ex));
  nt_run(aclnnDivMod, ws, ex, st);
  double wfloor[6] = {0, 0, -4, -4, 0, 0};
  check_values("int floor division", &io, wfloor, 6, 0);
  NT_OK(aclnnDivModGetWorkspaceSize(ia.t, ib.t, 1, io.t, &ws, &ex));
  nt_run(aclnnDivMod, ws, ex, st);
  double wtrunc[6] = {0, 0, -3, -3, 0, 0};
  check_values("int trunc division", &io, wtrunc, 6, 0);
  /* integral powers with a negative tensor exponent */
  double base[6] = {1, -1, -1, 2, 0, 3}, ex_[6] = {-3, -3, -2, -1, 2, 3};
  nt_tensor pb = nt_make(ACL_INT64, 1, d, base), pe = nt_make(ACL_INT64, 1, d, ex_),
            po = nt_make(ACL_INT64, 1, d, NULL);
  NT_OK(aclnnPowTensorTensorGetWorkspaceSize(pb.t, pe.t, po.t, &ws, &ex));
  nt_run(aclnnPowTensorTensor, ws, ex, st);
  double wpow[6] = {1, -1, 1, 0, 0, 27};
  check_values("integral powers", &po, wpow, 6, 0);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&ia);
  nt_free(&ib);
  nt_free(&io);
  nt_free(&pb);
  nt_free(&pe);
  nt_free(&po);
  nt_down(st);
}

/* ---- shapes ----------------------------------------------------------------------------------- */

/* self (sa) + other (sb) broadcast to so; values a[i] = i, b[j] = 100 * (j + 1). */
static void bcast_case(aclrtStream st, int64_t na, const int64_t *da, int64_t nb, const int64_t *db, int64_t no,
                       const int64_t *dout) {
  int64_t ca = nt_numel(na, da), cb = nt_numel(nb, db), co = nt_numel(no, dout);
  double *va = malloc((size_t)ca * sizeof(double)), *vb = malloc((size_t)cb * sizeof(double));
  double *want = malloc((size_t)co * sizeof(double));
  for (int64_t i = 0; i < ca; i++)
    va[i] = (double)i;
  for (int64_t j = 0; j < cb; j++)
    vb[j] = 100.0 * (double)(j + 1);
  for (int64_t i = 0; i < co; i++) {
    int64_t idx[8], rem = i;
    for (int64_t d = no; d-- > 0;) {
      idx[d] = rem % dout[d];
      rem /= dout[d];
    }
    int64_t ia = 0, ib = 0;
    for (int64_t d = 0; d < na; d++)
      ia = ia * da[d] + (da[d] == 1 ? 0 : idx[no - na + d]);
    for (int64_t d = 0; d < nb; d++)
      ib = ib * db[d] + (db[d] == 1 ? 0 : idx[no - nb + d]);
    want[i] = va[ia] + vb[ib];
  }
  nt_tensor a = nt_make(ACL_FLOAT, na, da, va), b = nt_make(ACL_FLOAT, nb, db, vb),
            o = nt_make(ACL_FLOAT, no, dout, NULL);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(a.t, b.t, one, o.t, &ws, &ex));
  nt_run(aclnnAdd, ws, ex, st);
  check_values("broadcast add", &o, want, co, 0);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  aclDestroyScalar(one);
  free(va);
  free(vb);
  free(want);
}

TEST(broadcasting) {
  aclrtStream st = nt_up();
  const int64_t d31[2] = {3, 1}, d14[2] = {1, 4}, d34[2] = {3, 4}, d4[1] = {4}, d234[3] = {2, 3, 4};
  const int64_t d213[3] = {2, 1, 3}, d51[2] = {5, 1}, d253[3] = {2, 5, 3};
  bcast_case(st, 2, d31, 2, d14, 2, d34);
  bcast_case(st, 1, d4, 3, d234, 3, d234);
  bcast_case(st, 3, d213, 2, d51, 3, d253);
  bcast_case(st, 0, d4, 3, d234, 3, d234); /* a 0-D self */
  bcast_case(st, 3, d234, 0, d4, 3, d234); /* a 0-D other */
  nt_down(st);
}

TEST(views_strided_and_offset) {
  aclrtStream st = nt_up();
  /* self: the transpose of a 4x3 matrix (a 3x4 view, strides 1, 3);
   * other: a 3x4 view with row stride 6 starting at element 2 of 20;
   * out: every second element of a 3x8 buffer, from element 1 */
  double sa[12], sb[20];
  for (int i = 0; i < 12; i++)
    sa[i] = i;
  for (int i = 0; i < 20; i++)
    sb[i] = 1000 + i;
  const int64_t d[2] = {3, 4}, st_a[2] = {1, 3}, st_b[2] = {6, 1}, st_o[2] = {8, 2};
  nt_tensor a = nt_view(ACL_FLOAT, 2, d, st_a, 0, 12, sa), b = nt_view(ACL_FLOAT, 2, d, st_b, 2, 20, sb);
  nt_tensor o = nt_view(ACL_FLOAT, 2, d, st_o, 1, 24, NULL);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(a.t, b.t, one, o.t, &ws, &ex));
  CHECK_INT_EQ(ws, 0);
  nt_run(aclnnAdd, ws, ex, st);
  double want[12];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      want[i * 4 + j] = sa[j * 3 + i] + sb[2 + i * 6 + j];
  check_values("strided add", &o, want, 12, 0);
  /* the elements of out's storage outside the view are untouched */
  double *all = nt_read_storage(&o);
  for (int k = 0; k < 24; k++)
    if (k % 2 == 0 || k > 23)
      CHECK(all[k] == 77);
  free(all);
  /* a stride-0 view (an expand) as input, and in place through a view */
  const int64_t st0[2] = {0, 1};
  nt_tensor row = nt_view(ACL_FLOAT, 2, d, st0, 0, 4, sa);
  NT_OK(aclnnInplaceMulGetWorkspaceSize(b.t, row.t, &ws, &ex));
  CHECK_INT_EQ(ws, 0);
  nt_run(aclnnInplaceMul, ws, ex, st);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      want[i * 4 + j] = sb[2 + i * 6 + j] * sa[j];
  check_values("in place through a view", &b, want, 12, 0);
  /* an output with repeated elements is refused */
  NT_FAILS(aclnnAddGetWorkspaceSize(a.t, b.t, one, row.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out has stride 0 along dim 0");
  aclDestroyScalar(one);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&row);
  nt_down(st);
}

TEST(zero_d_and_empty_and_rank) {
  aclrtStream st = nt_up();
  double v = 2.5;
  nt_tensor s0 = nt_make(ACL_FLOAT, 0, NULL, &v), o0 = nt_make(ACL_FLOAT, 0, NULL, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnExpGetWorkspaceSize(s0.t, o0.t, &ws, &ex));
  nt_run(aclnnExp, ws, ex, st);
  double want = (float)exp(2.5);
  check_values("exp of a 0-D tensor", &o0, &want, 1, 2e-7);
  /* empty: nothing to do, no workspace, the executor still runs (and is released) */
  const int64_t de[2] = {0, 3};
  nt_tensor e1 = nt_make(ACL_FLOAT, 2, de, NULL), e2 = nt_make(ACL_FLOAT, 2, de, NULL);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  NT_OK(aclnnAddGetWorkspaceSize(e1.t, e2.t, one, e2.t, &ws, &ex));
  CHECK_INT_EQ(ws, 0);
  nt_run(aclnnAdd, ws, ex, st);
  /* rank 8 works, rank 9 is refused */
  const int64_t d8[9] = {1, 2, 1, 2, 1, 2, 1, 2, 1};
  double v8[16];
  for (int i = 0; i < 16; i++)
    v8[i] = i;
  nt_tensor r8 = nt_make(ACL_FLOAT, 8, d8, v8), o8 = nt_make(ACL_FLOAT, 8, d8, NULL);
  NT_OK(aclnnAbsGetWorkspaceSize(r8.t, o8.t, &ws, &ex));
  nt_run(aclnnAbs, ws, ex, st);
  check_values("rank 8", &o8, v8, 16, 0);
  nt_tensor r9 = nt_make(ACL_FLOAT, 9, d8, v8);
  NT_FAILS(aclnnAbsGetWorkspaceSize(r9.t, r9.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "self has 9 dims; aclnnAbs takes at most 8");
  aclDestroyScalar(one);
  nt_free(&s0);
  nt_free(&o0);
  nt_free(&e1);
  nt_free(&e2);
  nt_free(&r8);
  nt_free(&o8);
  nt_free(&r9);
  nt_down(st);
}

/* An output that overlaps an input other than element for element goes
 * through the workspace phase 1 asks for. */
TEST(overlap_uses_the_workspace) {
  aclrtStream st = nt_up();
  double v[10];
  for (int i = 0; i < 10; i++)
    v[i] = i;
  const int64_t d[1] = {9}, s1[1] = {1};
  nt_tensor base = nt_view(ACL_FLOAT, 1, d, s1, 0, 10, v);
  /* out = elements 1..9 of the same memory as self = elements 0..8 */
  const int64_t sd[1] = {10};
  aclTensor *shifted = aclCreateTensor(d, 1, ACL_FLOAT, s1, 1, ACL_FORMAT_ND, sd, 1, base.dev);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddsGetWorkspaceSize(base.t, one, one, shifted, &ws, &ex));
  CHECK_INT_EQ(ws, 9 * sizeof(float));
  NT_FAILS(aclnnAdds(NULL, ws, ex, st), ACLNN_ERR_PARAM_NULLPTR,
           "workspace is NULL, but aclnnAddsGetWorkspaceSize asked for 36 bytes");
  NT_OK(aclnnAddsGetWorkspaceSize(base.t, one, one, shifted, &ws, &ex));
  void *w;
  CHECK_INT_EQ(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  NT_FAILS(aclnnAdds(w, ws - 4, ex, st), ACLNN_ERR_PARAM_INVALID, "workspaceSize is 32 bytes, less than the 36");
  NT_OK(aclnnAddsGetWorkspaceSize(base.t, one, one, shifted, &ws, &ex));
  CHECK_INT_EQ(aclnnAdds(w, ws, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  double *all = nt_read_storage(&base);
  /* as if computed from a copy: all[i] = v[i - 1] + 1 */
  CHECK(all[0] == 0);
  for (int i = 1; i < 10; i++)
    if (all[i] != v[i - 1] + 1)
      th_fail(__FILE__, __LINE__, "element %d is %g, want %g", i, all[i], v[i - 1] + 1);
  free(all);
  /* exactly in place (the same elements) needs no workspace */
  NT_OK(aclnnInplaceAddsGetWorkspaceSize(base.t, one, one, &ws, &ex));
  CHECK_INT_EQ(ws, 0);
  nt_run(aclnnInplaceAdds, ws, ex, st);
  CHECK_INT_EQ(aclrtFree(w), ACL_SUCCESS);
  aclDestroyTensor(shifted);
  aclDestroyScalar(one);
  nt_free(&base);
  nt_down(st);
}

/* Big enough to run block-parallel on the executors, contiguous and strided. */
TEST(large_tensors) {
  aclrtStream st = nt_up();
  const int64_t n = 1 << 20;
  double *va = malloc((size_t)n * sizeof(double)), *vb = malloc((size_t)n * sizeof(double));
  double *want = malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    va[i] = (double)(i % 1000) * 0.5;
    vb[i] = (double)(i % 77);
    want[i] = (double)(float)(va[i] + 2 * vb[i]);
  }
  const int64_t d[1] = {n};
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, va), b = nt_make(ACL_FLOAT, 1, d, vb), o = nt_make(ACL_FLOAT, 1, d, NULL);
  aclScalar *two = nt_scalar(ACL_FLOAT, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnAddGetWorkspaceSize(a.t, b.t, two, o.t, &ws, &ex));
  nt_run(aclnnAdd, ws, ex, st);
  check_values("large add", &o, want, n, 0);
  /* a [1024, 1024] transposed view of a in float16 out */
  const int64_t d2[2] = {1024, 1024}, tr[2] = {1, 1024}, ct[2] = {1024, 1};
  aclTensor *at = aclCreateTensor(d2, 2, ACL_FLOAT, tr, 0, ACL_FORMAT_ND, d, 1, a.dev);
  nt_tensor oh = nt_make(ACL_FLOAT16, 2, d2, NULL);
  NT_OK(aclnnNegGetWorkspaceSize(at, oh.t, &ws, &ex));
  nt_run(aclnnNeg, ws, ex, st);
  for (int64_t i = 0; i < 1024; i++)
    for (int64_t j = 0; j < 1024; j++)
      want[i * 1024 + j] = nt_round(ACL_FLOAT16, -va[j * 1024 + i]);
  check_values("large transposed neg", &oh, want, n, 0);
  (void)ct;
  aclDestroyTensor(at);
  aclDestroyScalar(two);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&oh);
  free(va);
  free(vb);
  free(want);
  nt_down(st);
}

/* ---- argument checks: codes and messages ------------------------------------------------------ */

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d23[2] = {2, 3}, d4[1] = {4}, d32[2] = {3, 2};
  nt_tensor f = nt_make(ACL_FLOAT, 2, d23, NULL), g = nt_make(ACL_FLOAT, 2, d23, NULL);
  nt_tensor i32 = nt_make(ACL_INT32, 2, d23, NULL), u16 = nt_make(ACL_UINT16, 2, d23, NULL);
  nt_tensor c64 = nt_make(ACL_COMPLEX64, 2, d23, NULL), v4 = nt_make(ACL_FLOAT, 1, d4, NULL);
  nt_tensor t32 = nt_make(ACL_FLOAT, 2, d32, NULL), b = nt_make(ACL_BOOL, 2, d23, NULL);
  nt_tensor h = nt_make(ACL_FLOAT16, 2, d23, NULL);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  /* NULL pointers, in parameter order: 161001 naming the parameter */
  NT_FAILS(aclnnAddGetWorkspaceSize(NULL, g.t, one, f.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "aclnnAddGetWorkspaceSize failed: ACLNN_ERR_PARAM_NULLPTR (161001): self is NULL");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, NULL, one, f.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "other is NULL");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, NULL, f.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "alpha is NULL");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, one, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, one, f.t, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, one, f.t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
  NT_FAILS(aclnnAddsGetWorkspaceSize(f.t, NULL, one, f.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "other is NULL");
  NT_FAILS(aclnnSignGetWorkspaceSize(f.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "result is NULL");
  NT_FAILS(aclnnCosGetWorkspaceSize(NULL, f.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "input is NULL");
  /* an object of the wrong kind, and a destroyed one */
  NT_FAILS(aclnnAddGetWorkspaceSize((const aclTensor *)one, g.t, one, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "is an aclScalar, not an aclTensor");
  aclTensor *dead = aclCreateTensor(d4, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d4, 1, NULL);
  CHECK_INT_EQ(aclDestroyTensor(dead), 0);
  NT_FAILS(aclnnNegGetWorkspaceSize(dead, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "not a live aclTensor");
  /* types */
  NT_FAILS(aclnnAddGetWorkspaceSize(u16.t, u16.t, one, u16.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "tensor self is ACL_UINT16, which aclnnAdd does not take");
  NT_FAILS(aclnnMulGetWorkspaceSize(c64.t, f.t, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "complex");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, one, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "aclnnAdd computes ACL_FLOAT here, which cannot be cast to out's ACL_INT32");
  NT_FAILS(aclnnMaximumGetWorkspaceSize(i32.t, i32.t, b.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "cannot be cast to out's ACL_BOOL");
  NT_FAILS(aclnnPowTensorTensorGetWorkspaceSize(b.t, b.t, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "self and exponent are both ACL_BOOL");
  NT_FAILS(aclnnRemainderTensorTensorGetWorkspaceSize(b.t, b.t, b.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "computes in ACL_BOOL here");
  NT_FAILS(aclnnFloorGetWorkspaceSize(f.t, h.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out is ACL_FLOAT16 but self is ACL_FLOAT");
  NT_FAILS(aclnnIsFiniteGetWorkspaceSize(f.t, g.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "output out is ACL_FLOAT, which aclnnIsFinite does not take");
  NT_FAILS(aclnnExpGetWorkspaceSize(i32.t, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "tensor self is ACL_INT32");
  NT_FAILS(aclnnLogGetWorkspaceSize(i32.t, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "output out is ACL_INT32, which aclnnLog does not take");
  NT_FAILS(aclnnInplaceDivGetWorkspaceSize(i32.t, i32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "computes ACL_FLOAT here, which cannot be cast to selfRef's ACL_INT32");
  NT_FAILS(aclnnDivModGetWorkspaceSize(f.t, g.t, 3, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "mode is 3");
  NT_FAILS(aclnnDivModGetWorkspaceSize(f.t, g.t, 3, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnInplaceDivModsGetWorkspaceSize(f.t, one, -1, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "mode is -1");
  /* shapes */
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, v4.t, one, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "self [2, 3] and other [4] do not broadcast");
  NT_FAILS(aclnnAddGetWorkspaceSize(f.t, g.t, one, t32.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out has shape [3, 2]; aclnnAdd writes [2, 3]");
  const int64_t d13[2] = {1, 3};
  nt_tensor r13 = nt_make(ACL_FLOAT, 2, d13, NULL);
  NT_FAILS(aclnnInplaceAddGetWorkspaceSize(r13.t, f.t, one, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "an in-place operator writes selfRef's own shape");
  const int64_t dneg[1] = {-2};
  aclTensor *neg = aclCreateTensor(dneg, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dneg, 1, f.dev);
  NT_FAILS(aclnnAbsGetWorkspaceSize(neg, neg, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim 0 is negative");
  aclDestroyTensor(neg);
  aclDestroyScalar(one);
  nt_free(&f);
  nt_free(&g);
  nt_free(&i32);
  nt_free(&u16);
  nt_free(&c64);
  nt_free(&v4);
  nt_free(&t32);
  nt_free(&b);
  nt_free(&h);
  nt_free(&r13);
  nt_down(st);
}
