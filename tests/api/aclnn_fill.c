/*
 * aclnn_fill.c - the fill, copy and creation operators of reference
 * aclnn.md section 8.12 (ctest -R api/aclnn/fill): InplaceCopy (broadcast,
 * conversion, strided and overlapping views), InplaceZero, InplaceOne,
 * InplaceFillScalar, InplaceFillTensor on every type and on views (the
 * elements outside the view keep their values), in-place forms on their own
 * and on partly overlapping views, Arange and Range against
 * references computed here; the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_tril.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,   ACL_UINT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_BOOL,   ACL_UINT16, ACL_UINT32};
#define NTYPES (sizeof types / sizeof types[0])

/* A [3, 4] view with strides (8, 2) over 24 elements that hold 77: every other column of every other row. */
static nt_tensor sparse(aclDataType t, const double *v) {
  const int64_t d[2] = {3, 4}, s[2] = {8, 2};
  double sto[24];
  for (int i = 0; i < 24; i++)
    sto[i] = 77;
  for (int i = 0; i < 12 && v != NULL; i++)
    sto[(i / 4) * 8 + (i % 4) * 2] = v[i];
  return nt_view(t, 2, d, s, 0, 24, sto);
}

/* The view holds want[], and every storage element outside it still 77. */
static void expect_sparse(const char *what, const nt_tensor *x, const double *want) {
  double *sto = nt_read_storage(x), w[24];
  for (int i = 0; i < 24; i++)
    w[i] = nt_round(x->dt, 77);
  for (int i = 0; i < 12; i++)
    w[(i / 4) * 8 + (i % 4) * 2] = want[i];
  NT_CHECK_ALL(what, sto, w, 24, 0);
  free(sto);
}

TEST(zero_one_fill_scalar) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++) {
    aclDataType t = types[ti];
    for (int op = 0; op < 4; op++) {
      nt_tensor x = sparse(t, NULL);
      uint64_t ws;
      aclOpExecutor *ex;
      double want = 0;
      aclScalar *s = NULL;
      if (op == 0) {
        NT_OK(aclnnInplaceZeroGetWorkspaceSize(x.t, &ws, &ex));
        nt_run(aclnnInplaceZero, ws, ex, st);
      } else if (op == 1) {
        want = 1;
        NT_OK(aclnnInplaceOneGetWorkspaceSize(x.t, &ws, &ex));
        nt_run(aclnnInplaceOne, ws, ex, st);
      } else {
        /* a value of the tensor's own type, then an integer one where it casts */
        aclDataType vt = op == 2 ? t : t == ACL_BOOL ? ACL_BOOL : ACL_INT8;
        want = nt_round(t, nt_round(vt, op == 2 ? (nt_is_float(t) ? -3.5 : 5) : 7));
        s = nt_scalar(vt, op == 2 ? (nt_is_float(t) ? -3.5 : 5) : 7);
        NT_OK(aclnnInplaceFillScalarGetWorkspaceSize(x.t, s, &ws, &ex));
        nt_run(aclnnInplaceFillScalar, ws, ex, st);
      }
      double w[12];
      for (int i = 0; i < 12; i++)
        w[i] = nt_round(t, want);
      expect_sparse(op == 0 ? "InplaceZero" : op == 1 ? "InplaceOne" : "InplaceFillScalar", &x, w);
      aclDestroyScalar(s);
      nt_free(&x);
    }
  }
  /* int64 beyond 2^53 is filled exactly */
  const int64_t d1[1] = {2};
  nt_tensor x = nt_make(ACL_INT64, 1, d1, NULL);
  int64_t big = (1LL << 60) + 1, got[2];
  aclScalar *s = aclCreateScalar(&big, ACL_INT64);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnInplaceFillScalarGetWorkspaceSize(x.t, s, &ws, &ex));
  nt_run(aclnnInplaceFillScalar, ws, ex, st);
  CHECK_INT_EQ(aclrtMemcpy(got, sizeof got, x.dev, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  CHECK(got[0] == big && got[1] == big);
  aclDestroyScalar(s);
  /* errors */
  aclScalar *f = nt_scalar(ACL_FLOAT, 1.5);
  NT_FAILS(aclnnInplaceFillScalarGetWorkspaceSize(x.t, f, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cannot be cast");
  NT_FAILS(aclnnInplaceFillScalarGetWorkspaceSize(x.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
  NT_FAILS(aclnnInplaceZeroGetWorkspaceSize(NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "selfRef is NULL");
  NT_FAILS(aclnnInplaceOneGetWorkspaceSize(x.t, &ws, NULL), ACLNN_ERR_PARAM_NULLPTR, "executor is NULL");
  aclDestroyScalar(f);
  nt_free(&x);
  nt_down(st);
}

TEST(fill_tensor) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int rank = 0; rank < 2; rank++) {
      aclDataType t = types[ti], vt = t == ACL_BOOL ? ACL_BOOL : ACL_UINT8;
      const int64_t d1[1] = {1};
      double one = 9, w[12];
      nt_tensor x = sparse(t, NULL), v = nt_make(vt, rank, d1, &one);
      uint64_t ws;
      aclOpExecutor *ex;
      NT_OK(aclnnInplaceFillTensorGetWorkspaceSize(x.t, v.t, &ws, &ex));
      nt_run(aclnnInplaceFillTensor, ws, ex, st);
      for (int i = 0; i < 12; i++)
        w[i] = nt_round(t, nt_round(vt, 9));
      expect_sparse("InplaceFillTensor", &x, w);
      nt_free(&x);
      nt_free(&v);
    }
  const int64_t d2[1] = {2};
  nt_tensor x = nt_make(ACL_INT32, 1, d2, NULL), two = nt_make(ACL_INT32, 1, d2, NULL);
  const int64_t d0[1] = {1};
  nt_tensor f = nt_make(ACL_FLOAT, 0, d0, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnInplaceFillTensorGetWorkspaceSize(x.t, two.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "one element");
  NT_FAILS(aclnnInplaceFillTensorGetWorkspaceSize(x.t, f.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "castable");
  NT_FAILS(aclnnInplaceFillTensorGetWorkspaceSize(x.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
  nt_free(&x);
  nt_free(&two);
  nt_free(&f);
  nt_down(st);
}

TEST(inplace_copy) {
  aclrtStream st = nt_up();
  for (size_t a = 0; a < NTYPES; a++)
    for (size_t b = 0; b < NTYPES; b += 3) {
      aclDataType td = types[a], ts = types[b];
      /* src [4] broadcast over the rows of a sparse [3, 4] view, converted */
      const int64_t d4[1] = {4};
      double sv[4] = {1, 0, 3, 2}, w[12];
      if (nt_is_float(ts))
        sv[2] = -2.5;
      for (int i = 0; i < 4; i++)
        sv[i] = nt_round(ts, sv[i]);
      for (int i = 0; i < 12; i++)
        w[i] = nt_round(td, sv[i % 4]);
      nt_tensor x = sparse(td, NULL), s = nt_make(ts, 1, d4, sv);
      uint64_t ws;
      aclOpExecutor *ex;
      NT_OK(aclnnInplaceCopyGetWorkspaceSize(x.t, s.t, &ws, &ex));
      nt_run(aclnnInplaceCopy, ws, ex, st);
      char what[64];
      snprintf(what, sizeof what, "InplaceCopy %s <- %s", nt_name(td), nt_name(ts));
      expect_sparse(what, &x, w);
      nt_free(&x);
      nt_free(&s);
    }
  /* a transposed view of the same memory: the copy reads the old values */
  const int64_t d[2] = {3, 3}, tst[2] = {1, 3}, cst[2] = {3, 1};
  double v[9], w[9];
  for (int i = 0; i < 9; i++)
    v[i] = i;
  nt_tensor x = nt_view(ACL_FLOAT, 2, d, cst, 0, 9, v);
  aclTensor *tr = aclCreateTensor(d, 2, ACL_FLOAT, tst, 0, ACL_FORMAT_ND, d, 2, x.dev);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnInplaceCopyGetWorkspaceSize(x.t, tr, &ws, &ex));
  nt_run(aclnnInplaceCopy, ws, ex, st);
  for (int i = 0; i < 9; i++)
    w[i] = (i % 3) * 3 + i / 3;
  double *g = nt_read(&x);
  NT_CHECK_ALL("InplaceCopy from its own transpose", g, w, 9, 0);
  free(g);
  /* errors */
  const int64_t d2[1] = {2};
  nt_tensor s2 = nt_make(ACL_FLOAT, 1, d2, NULL);
  NT_FAILS(aclnnInplaceCopyGetWorkspaceSize(x.t, s2.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not broadcast");
  NT_FAILS(aclnnInplaceCopyGetWorkspaceSize(x.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "src is NULL");
  NT_FAILS(aclnnInplaceCopyGetWorkspaceSize(NULL, s2.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "selfRef is NULL");
  aclDestroyTensor(tr);
  nt_free(&s2);
  nt_free(&x);
  nt_down(st);
}

/* In place on the very view (InplaceCopy from a second tensor over the same elements, InplaceTril,
 * InplaceMaskedFillScalar, on a strided view): the result is right and the storage outside the view keeps
 * its values.  Views that overlap only in part (a copy from the same elements two places on, a Tril written
 * one row further down) read the old values, as if the input had been copied first. */
TEST(inplace_views) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  double v[24], w[24];
  for (int i = 0; i < 24; i++)
    v[i] = i + 1;
  /* InplaceCopy from a second tensor of the same view: nothing changes */
  {
    nt_tensor x = sparse(ACL_FLOAT, v);
    aclTensor *same = aclCreateTensor(x.dims, 2, ACL_FLOAT, x.strides, 0, ACL_FORMAT_ND, &x.elems, 1, x.dev);
    NT_OK(aclnnInplaceCopyGetWorkspaceSize(x.t, same, &ws, &ex));
    nt_run(aclnnInplaceCopy, ws, ex, st);
    expect_sparse("InplaceCopy from its own view", &x, v);
    aclDestroyTensor(same);
    nt_free(&x);
  }
  /* InplaceCopy of x[2 + 2i] <- x[2i]: the old values, not the ones just written */
  {
    const int64_t d[1] = {10}, s2[1] = {2};
    nt_tensor x = nt_view(ACL_FLOAT, 1, d, s2, 2, 24, v);
    int64_t n = 24;
    aclTensor *src = aclCreateTensor(d, 1, ACL_FLOAT, s2, 0, ACL_FORMAT_ND, &n, 1, x.dev);
    NT_OK(aclnnInplaceCopyGetWorkspaceSize(x.t, src, &ws, &ex));
    nt_run(aclnnInplaceCopy, ws, ex, st);
    for (int i = 0; i < 24; i++)
      w[i] = v[i];
    for (int i = 0; i < 10; i++)
      w[2 + 2 * i] = v[2 * i];
    double *g = nt_read_storage(&x);
    NT_CHECK_ALL("InplaceCopy from a view two elements back", g, w, 24, 0);
    free(g);
    aclDestroyTensor(src);
    nt_free(&x);
  }
  /* InplaceTril of the sparse [3, 4] view, diagonal 1 */
  {
    nt_tensor x = sparse(ACL_FLOAT, v);
    NT_OK(aclnnInplaceTrilGetWorkspaceSize(x.t, 1, &ws, &ex));
    nt_run(aclnnInplaceTril, ws, ex, st);
    for (int i = 0; i < 12; i++)
      w[i] = i % 4 <= i / 4 + 1 ? v[i] : 0;
    expect_sparse("InplaceTril of a strided view", &x, w);
    nt_free(&x);
  }
  /* Tril of rows 0-2 of a [4, 4] matrix into rows 1-3 of it */
  {
    const int64_t d[2] = {3, 4}, s44[2] = {4, 1};
    nt_tensor x = nt_view(ACL_FLOAT, 2, d, s44, 0, 16, v);
    int64_t n = 16;
    aclTensor *down = aclCreateTensor(d, 2, ACL_FLOAT, s44, 4, ACL_FORMAT_ND, &n, 1, x.dev);
    NT_OK(aclnnTrilGetWorkspaceSize(x.t, 0, down, &ws, &ex));
    nt_run(aclnnTril, ws, ex, st);
    for (int i = 0; i < 4; i++)
      w[i] = v[i];
    for (int i = 0; i < 12; i++)
      w[4 + i] = i % 4 <= i / 4 ? v[i] : 0;
    double *g = nt_read_storage(&x);
    NT_CHECK_ALL("Tril into its own rows one further down", g, w, 16, 0);
    free(g);
    aclDestroyTensor(down);
    nt_free(&x);
  }
  /* InplaceMaskedFillScalar of the sparse view where the mask is set */
  {
    nt_tensor x = sparse(ACL_FLOAT, v);
    const int64_t dm[1] = {4};
    double mv[4] = {1, 0, 0, 1};
    nt_tensor m = nt_make(ACL_BOOL, 1, dm, mv);
    aclScalar *val = nt_scalar(ACL_FLOAT, -5);
    NT_OK(aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.t, m.t, val, &ws, &ex));
    nt_run(aclnnInplaceMaskedFillScalar, ws, ex, st);
    for (int i = 0; i < 12; i++)
      w[i] = mv[i % 4] != 0 ? -5 : v[i];
    expect_sparse("InplaceMaskedFillScalar of a strided view", &x, w);
    aclDestroyScalar(val);
    nt_free(&m);
    nt_free(&x);
  }
  nt_down(st);
}

/* A repeatable fill whose target moves between runs (aclSetOutputTensorAddr). */
TEST(fill_repeatable) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {3};
  nt_tensor a = nt_make(ACL_FLOAT, 1, d, NULL), b = nt_make(ACL_FLOAT, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnInplaceOneGetWorkspaceSize(a.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclnnInplaceOne(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclSetOutputTensorAddr(ex, 0, a.t, b.dev), 0);
  CHECK_INT_EQ(aclnnInplaceOne(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  double *ga = nt_read(&a), *gb = nt_read(&b);
  for (int i = 0; i < 3; i++)
    CHECK(ga[i] == 1 && gb[i] == 1); /* run 1 filled a, run 2 b */
  free(ga);
  free(gb);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  nt_free(&a);
  nt_free(&b);
  nt_down(st);
}

/* ---- Arange / Range ---------------------------------------------------------------------------------- */

static void range_case(aclrtStream st, int inclusive, aclDataType out, aclDataType sdt, double a, double b, double s,
                       int64_t n) {
  char what[96];
  snprintf(what, sizeof what, "%s(%g, %g, %g) into %s", inclusive ? "Range" : "Arange", a, b, s, nt_name(out));
  const int64_t d[1] = {n};
  double *w = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t k = 0; k < n; k++) /* from the values the scalars hold */
    w[k] = nt_round(out, nt_round(sdt, a) + (double)k * nt_round(sdt, s));
  aclScalar *sa = nt_scalar(sdt, a), *sb = nt_scalar(sdt, b), *ss = nt_scalar(sdt, s);
  const int64_t st2[1] = {2};
  nt_tensor o = nt_view(out, 1, d, st2, 1, 2 * n + 1, NULL); /* every other element */
  uint64_t ws;
  aclOpExecutor *ex;
  if (inclusive) {
    NT_OK(aclnnRangeGetWorkspaceSize(sa, sb, ss, o.t, &ws, &ex));
    nt_run(aclnnRange, ws, ex, st);
  } else {
    NT_OK(aclnnArangeGetWorkspaceSize(sa, sb, ss, o.t, &ws, &ex));
    nt_run(aclnnArange, ws, ex, st);
  }
  double *g = nt_read(&o);
  NT_CHECK_ALL(what, g, w, n, nt_rtol(out));
  free(g);
  free(w);
  aclDestroyScalar(sa);
  aclDestroyScalar(sb);
  aclDestroyScalar(ss);
  nt_free(&o);
}

TEST(arange_range) {
  aclrtStream st = nt_up();
  static const aclDataType outs[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT32, ACL_INT64};
  for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
    aclDataType t = outs[i];
    range_case(st, 0, t, ACL_INT64, 0, 10, 3, 4);  /* 0 3 6 9 */
    range_case(st, 1, t, ACL_INT64, 0, 9, 3, 4);   /* 0 3 6 9 */
    range_case(st, 0, t, ACL_INT32, 5, -4, -2, 5); /* 5 3 1 -1 -3 */
    range_case(st, 1, t, ACL_INT32, 5, -3, -2, 5); /* 5 3 1 -1 -3 */
    range_case(st, 0, t, ACL_INT64, 3, 3, 1, 0);   /* empty */
    if (nt_is_float(t)) {
      range_case(st, 0, t, ACL_DOUBLE, -1, 1, 0.25, 8);
      range_case(st, 1, t, ACL_FLOAT, -1, 1, 0.25, 9);
      range_case(st, 0, t, ACL_FLOAT, 0.5, 2.7, 0.7, 4); /* ceil(3.14) */
    }
  }
  aclScalar *z = nt_scalar(ACL_INT64, 0), *one = nt_scalar(ACL_INT64, 1), *ten = nt_scalar(ACL_INT64, 10),
            *neg = nt_scalar(ACL_INT64, -1);
  const int64_t d[1] = {10};
  nt_tensor o = nt_make(ACL_INT64, 1, d, NULL), o8 = nt_make(ACL_INT8, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnArangeGetWorkspaceSize(z, ten, z, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "make no sequence");
  NT_FAILS(aclnnArangeGetWorkspaceSize(z, ten, neg, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "sign of end - start");
  NT_FAILS(aclnnRangeGetWorkspaceSize(z, ten, one, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "writes [11]");
  NT_FAILS(aclnnArangeGetWorkspaceSize(z, ten, one, o8.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "ACL_INT8");
  NT_FAILS(aclnnArangeGetWorkspaceSize(z, NULL, one, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "end is NULL");
  NT_FAILS(aclnnArangeGetWorkspaceSize(z, ten, one, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  aclScalar *smin = aclCreateScalar(&lo, ACL_INT64), *smax = aclCreateScalar(&hi, ACL_INT64);
  NT_FAILS(aclnnArangeGetWorkspaceSize(smin, smax, one, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "more than a tensor holds");
  aclDestroyScalar(smin);
  aclDestroyScalar(smax);
  NT_OK(aclnnArangeGetWorkspaceSize(z, ten, one, o.t, &ws, &ex));
  nt_run(aclnnArange, ws, ex, st);
  aclDestroyScalar(z);
  aclDestroyScalar(one);
  aclDestroyScalar(ten);
  aclDestroyScalar(neg);
  nt_free(&o);
  nt_free(&o8);
  nt_down(st);
}

/* A long sequence is shared out over the executors in runs: element k is still start + k*step. */
TEST(arange_large) {
  aclrtStream st = nt_up();
  range_case(st, 0, ACL_INT64, ACL_INT64, -7, 3 * 200003 - 7, 3, 200003);
  range_case(st, 1, ACL_DOUBLE, ACL_DOUBLE, 0.5, 0.5 + 0.25 * 100000, 0.25, 100001);
  nt_down(st);
}
