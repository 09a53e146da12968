/*
 * aclnn_matmul.c - the matrix products of reference aclnn.md section 8.6
 * (ctest -R api/aclnn/matmul): Matmul in each of torch.matmul's shapes, Mm,
 * BatchMatMul, Addmm / InplaceAddmm on float32, float16 and bfloat16
 * against a double-precision reference computed here; transposed, strided
 * and offset views on both sides; empty and K = 0 products; the argument
 * checks with their codes.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

static const aclDataType flt3[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

/* c[bt][m][n] = sum_k a[bt % ba][m][k] * b[bt % bb][k][n] (dense, double) */
static void ref_bmm(const double *a, int64_t ba, const double *b, int64_t bb, int64_t bt, int64_t m, int64_t k,
                    int64_t n, double *c) {
  for (int64_t t = 0; t < bt; t++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t x = 0; x < k; x++)
          s += a[((t % ba) * m + i) * k + x] * b[((t % bb) * k + x) * n + j];
        c[(t * m + i) * n + j] = s;
      }
}

static double *values(aclDataType t, int64_t n, uint32_t seed) {
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++)
    v[i] = nt_round(t, -2 + 4 * nt_rand(&seed));
  return v;
}

typedef aclnnStatus (*mm_p1)(const aclTensor *, const aclTensor *, aclTensor *, int8_t, uint64_t *, aclOpExecutor **);

/* One product: a (ra dims ad) @ b (rb dims bd) into out (ro dims od); the reference is a bmm of
 * [ba, m, k] @ [bb, k, n] = [bt, m, n]. */
static void mm_case(aclrtStream st, const char *name, mm_p1 p1, nt_phase2 p2, aclDataType t, int ra, const int64_t *ad,
                    int rb, const int64_t *bd, int ro, const int64_t *od, int64_t ba, int64_t bb, int64_t bt, int64_t m,
                    int64_t k, int64_t n) {
  char what[160];
  snprintf(what, sizeof what, "%s on %s (%dD @ %dD)", name, nt_name(t), ra, rb);
  double *va = values(t, nt_numel(ra, ad), 11), *vb = values(t, nt_numel(rb, bd), 23);
  int64_t no = nt_numel(ro, od);
  double *want = malloc((size_t)(no > 0 ? no : 1) * sizeof(double));
  ref_bmm(va, ba, vb, bb, bt, m, k, n, want);
  for (int64_t i = 0; i < no; i++)
    want[i] = nt_round(t, want[i]);
  nt_tensor a = nt_make(t, ra, ad, va), b = nt_make(t, rb, bd, vb), o = nt_make(t, ro, od, NULL);
  uint64_t ws = 9;
  aclOpExecutor *ex;
  int rc = p1(a.t, b.t, o.t, 1, &ws, &ex);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "%s: phase 1 returned %d: %s", what, rc, aclGetRecentErrMsg());
  CHECK_INT_EQ(ws, 0);
  nt_run(p2, ws, ex, st);
  double *got = nt_read(&o);
  NT_CHECK_ALL(what, got, want, no, t == ACL_FLOAT ? 1e-5 : 2 * nt_rtol(t));
  free(got);
  free(va);
  free(vb);
  free(want);
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
}

TEST(matmul_shapes_every_type) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++) {
    aclDataType t = flt3[i];
    const int64_t k7[1] = {7}, m57[2] = {5, 7}, m73[2] = {7, 3}, o53[2] = {5, 3}, o3[1] = {3}, o5[1] = {5};
    /* 1-D . 1-D: a 0-D dot product */
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 1, k7, 1, k7, 0, NULL, 1, 1, 1, 1, 7, 1);
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 1, k7, 2, m73, 1, o3, 1, 1, 1, 1, 7, 3);
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 2, m57, 1, k7, 1, o5, 1, 1, 1, 5, 7, 1);
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 2, m57, 2, m73, 2, o53, 1, 1, 1, 5, 7, 3);
    /* batch dims broadcast: [2, 5, 7] @ [7, 3], [1, 5, 7] @ [4, 7, 3] */
    const int64_t b257[3] = {2, 5, 7}, b253[3] = {2, 5, 3}, b157[3] = {1, 5, 7}, b473[3] = {4, 7, 3},
                  b453[3] = {4, 5, 3};
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 3, b257, 2, m73, 3, b253, 2, 1, 2, 5, 7, 3);
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 3, b157, 3, b473, 3, b453, 1, 4, 4, 5, 7, 3);
    /* 4-D with a 1-D mat2 */
    const int64_t c4[4] = {1, 2, 5, 7}, c3[3] = {1, 2, 5};
    mm_case(st, "Matmul", aclnnMatmulGetWorkspaceSize, aclnnMatmul, t, 4, c4, 1, k7, 3, c3, 2, 1, 2, 5, 7, 1);
    mm_case(st, "Mm", aclnnMmGetWorkspaceSize, aclnnMm, t, 2, m57, 2, m73, 2, o53, 1, 1, 1, 5, 7, 3);
    mm_case(st, "BatchMatMul", aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, t, 3, b257, 3,
            (const int64_t[3]){1, 7, 3}, 3, b253, 2, 1, 2, 5, 7, 3);
    mm_case(st, "BatchMatMul", aclnnBatchMatMulGetWorkspaceSize, aclnnBatchMatMul, t, 3, b157, 3, b473, 3, b453, 1, 4,
            4, 5, 7, 3);
  }
  /* a larger float32 product (oneDNN's blocked kernels) */
  const int64_t l1[2] = {67, 129}, l2[2] = {129, 95}, lo[2] = {67, 95};
  mm_case(st, "Mm", aclnnMmGetWorkspaceSize, aclnnMm, ACL_FLOAT, 2, l1, 2, l2, 2, lo, 1, 1, 1, 67, 129, 95);
  nt_down(st);
}

/* self and mat2 as views: a transposed mat2 (float32: oneDNN reads it where it lies), a self with gaps
 * between rows at an offset, out with padded rows; also through float16 (gathered). */
TEST(matmul_views) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 2; i++) {
    aclDataType t = i == 0 ? ACL_FLOAT : ACL_FLOAT16;
    const int64_t m = 4, k = 6, n = 5;
    double *va = values(t, m * k, 3), *vb = values(t, k * n, 4), want[20];
    ref_bmm(va, 1, vb, 1, 1, m, k, n, want);
    for (int x = 0; x < 20; x++)
      want[x] = nt_round(t, want[x]);
    /* self: rows of 6 at a stride of 9, from offset 2 */
    double sa[2 + 4 * 9];
    for (int x = 0; x < 2 + 36; x++)
      sa[x] = 0;
    for (int r = 0; r < m; r++)
      for (int c = 0; c < k; c++)
        sa[2 + r * 9 + c] = va[r * k + c];
    /* mat2: transposed storage [n, k] */
    double sb[30];
    for (int r = 0; r < k; r++)
      for (int c = 0; c < n; c++)
        sb[c * k + r] = vb[r * n + c];
    const int64_t ad[2] = {m, k}, ast[2] = {9, 1}, bd[2] = {k, n}, bst[2] = {1, k}, od[2] = {m, n}, ost[2] = {7, 1};
    nt_tensor a = nt_view(t, 2, ad, ast, 2, 38, sa), b = nt_view(t, 2, bd, bst, 0, 30, sb),
              o = nt_view(t, 2, od, ost, 1, 1 + 3 * 7 + 5, NULL);
    uint64_t ws;
    aclOpExecutor *ex;
    NT_OK(aclnnMmGetWorkspaceSize(a.t, b.t, o.t, 0, &ws, &ex));
    nt_run(aclnnMm, ws, ex, st);
    double *got = nt_read(&o);
    NT_CHECK_ALL("Mm views", got, want, 20, t == ACL_FLOAT ? 1e-5 : 2 * nt_rtol(t));
    free(got);
    /* the padding between out's rows is untouched */
    double *all = nt_read_storage(&o);
    CHECK(all[0] == 77 && all[6] == 77 && all[7] == 77);
    free(all);
    free(va);
    free(vb);
    nt_free(&a);
    nt_free(&b);
    nt_free(&o);
  }
  nt_down(st);
}

static void addmm_case(aclrtStream st, aclDataType t, int sr, const int64_t *sd, double beta, double alpha,
                       int inplace) {
  char what[128];
  snprintf(what, sizeof what, "%sAddmm on %s, self %dD, beta %g", inplace ? "Inplace" : "", nt_name(t), sr, beta);
  const int64_t m = 3, k = 4, n = 5, ad[2] = {3, 4}, bd[2] = {4, 5}, od[2] = {3, 5};
  double *va = values(t, m * k, 5), *vb = values(t, k * n, 6), *vs = values(t, nt_numel(sr, sd), 7), want[15];
  if (beta == 0)
    vs[0] = NAN; /* ignored when beta is 0 */
  ref_bmm(va, 1, vb, 1, 1, m, k, n, want);
  for (int i = 0; i < 15; i++) {
    int64_t r = i / 5, c = i % 5;
    double sv = sr == 2   ? vs[(sd[0] == 1 ? 0 : r) * sd[1] + (sd[1] == 1 ? 0 : c)]
                : sr == 1 ? vs[sd[0] == 1 ? 0 : c]
                          : vs[0];
    want[i] = nt_round(t, alpha * want[i] + (beta == 0 ? 0 : beta * sv));
  }
  nt_tensor a = nt_make(t, 2, ad, va), b = nt_make(t, 2, bd, vb), s = nt_make(t, sr, sd, vs), o = {0};
  if (!inplace)
    o = nt_make(t, 2, od, NULL);
  aclScalar *be = nt_scalar(ACL_FLOAT, beta), *al = nt_scalar(ACL_DOUBLE, alpha);
  uint64_t ws;
  aclOpExecutor *ex;
  if (inplace) {
    NT_OK(aclnnInplaceAddmmGetWorkspaceSize(s.t, a.t, b.t, be, al, 0, &ws, &ex));
    nt_run(aclnnInplaceAddmm, ws, ex, st);
  } else {
    NT_OK(aclnnAddmmGetWorkspaceSize(s.t, a.t, b.t, be, al, o.t, 0, &ws, &ex));
    nt_run(aclnnAddmm, ws, ex, st);
  }
  double *got = nt_read(inplace ? &s : &o);
  NT_CHECK_ALL(what, got, want, 15, t == ACL_FLOAT ? 1e-5 : 3 * nt_rtol(t));
  free(got);
  free(va);
  free(vb);
  free(vs);
  aclDestroyScalar(be);
  aclDestroyScalar(al);
  nt_free(&a);
  nt_free(&b);
  nt_free(&s);
  if (!inplace)
    nt_free(&o);
}

TEST(addmm_every_type_and_bias_shape) {
  aclrtStream st = nt_up();
  for (int i = 0; i < 3; i++) {
    const int64_t full[2] = {3, 5}, row[1] = {5}, col[2] = {3, 1}, one[2] = {1, 5};
    addmm_case(st, flt3[i], 2, full, 0.5, 2, 0);
    addmm_case(st, flt3[i], 1, row, 1, 1, 0);
    addmm_case(st, flt3[i], 2, col, -1, 0.25, 0);
    addmm_case(st, flt3[i], 2, one, 2, 1, 0);
    addmm_case(st, flt3[i], 0, NULL, 1, 1, 0);
    addmm_case(st, flt3[i], 1, row, 0, 1, 0);
    addmm_case(st, flt3[i], 2, full, 0.5, 2, 1);
  }
  nt_down(st);
}

TEST(empty_and_k_zero) {
  aclrtStream st = nt_up();
  const int64_t a0[2] = {3, 0}, b0[2] = {0, 4}, o[2] = {3, 4}, e1[2] = {0, 5}, e2[2] = {5, 2}, eo[2] = {0, 2};
  nt_tensor a = nt_make(ACL_FLOAT, 2, a0, NULL), b = nt_make(ACL_FLOAT, 2, b0, NULL),
            out = nt_make(ACL_FLOAT, 2, o, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnMmGetWorkspaceSize(a.t, b.t, out.t, 0, &ws, &ex));
  nt_run(aclnnMm, ws, ex, st);
  double *g = nt_read(&out), zeros[12] = {0};
  NT_CHECK_ALL("K = 0 gives zeros", g, zeros, 12, 0);
  free(g);
  nt_tensor c = nt_make(ACL_FLOAT, 2, e1, NULL), d = nt_make(ACL_FLOAT, 2, e2, NULL),
            eo_t = nt_make(ACL_FLOAT, 2, eo, NULL);
  NT_OK(aclnnMatmulGetWorkspaceSize(c.t, d.t, eo_t.t, 0, &ws, &ex));
  nt_run(aclnnMatmul, ws, ex, st);
  nt_free(&a);
  nt_free(&b);
  nt_free(&out);
  nt_free(&c);
  nt_free(&d);
  nt_free(&eo_t);
  nt_down(st);
}

TEST(checks_of_phase_one) {
  aclrtStream st = nt_up();
  const int64_t d23[2] = {2, 3}, d34[2] = {3, 4}, d24[2] = {2, 4}, d44[2] = {4, 4}, d3[3] = {1, 2, 3};
  nt_tensor a = nt_make(ACL_FLOAT, 2, d23, NULL), b = nt_make(ACL_FLOAT, 2, d34, NULL),
            o = nt_make(ACL_FLOAT, 2, d24, NULL), bad = nt_make(ACL_FLOAT, 2, d44, NULL),
            ai = nt_make(ACL_INT32, 2, d23, NULL), a3 = nt_make(ACL_FLOAT, 3, d3, NULL);
  aclScalar *one = nt_scalar(ACL_FLOAT, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnMatmulGetWorkspaceSize(NULL, b.t, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnMmGetWorkspaceSize(a.t, NULL, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "mat2 is NULL");
  NT_FAILS(aclnnBatchMatMulGetWorkspaceSize(a.t, b.t, NULL, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnAddmmGetWorkspaceSize(o.t, a.t, b.t, NULL, one, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "beta is NULL");
  NT_FAILS(aclnnMmGetWorkspaceSize(a.t, b.t, o.t, 0, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize is NULL");
  NT_FAILS(aclnnMmGetWorkspaceSize(ai.t, b.t, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnMmGetWorkspaceSize(b.t, b.t, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cannot be multiplied");
  NT_FAILS(aclnnMmGetWorkspaceSize(a.t, b.t, bad.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [4, 4]");
  NT_FAILS(aclnnMmGetWorkspaceSize(a3.t, b.t, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "both must be 2-D");
  NT_FAILS(aclnnBatchMatMulGetWorkspaceSize(a.t, b.t, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "both must be 3-D");
  NT_FAILS(aclnnMatmulGetWorkspaceSize(a.t, b.t, o.t, 9, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cubeMathType is 9");
  NT_FAILS(aclnnAddmmGetWorkspaceSize(bad.t, a.t, b.t, one, one, o.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not broadcast");
  nt_free(&a);
  nt_free(&b);
  nt_free(&o);
  nt_free(&bad);
  nt_free(&ai);
  nt_free(&a3);
  aclDestroyScalar(one);
  nt_down(st);
}

/* A repeatable executor runs again on new inputs; the output overlapping an input is read from a copy. */
TEST(repeatable_and_overlap) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 2};
  double x[4] = {1, 2, 3, 4}, y[4] = {1, 0, 0, 1};
  nt_tensor a = nt_make(ACL_FLOAT, 2, d, x), b = nt_make(ACL_FLOAT, 2, d, y), c = nt_make(ACL_FLOAT, 2, d, x);
  uint64_t ws;
  aclOpExecutor *ex;
  /* a = a @ a */
  NT_OK(aclnnMmGetWorkspaceSize(a.t, a.t, a.t, 0, &ws, &ex));
  nt_run(aclnnMm, ws, ex, st);
  double *g = nt_read(&a), sq[4] = {7, 10, 15, 22};
  NT_CHECK_ALL("a = a @ a", g, sq, 4, 1e-6);
  free(g);
  NT_OK(aclnnMmGetWorkspaceSize(c.t, b.t, b.t, 0, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  nt_run(aclnnMm, ws, ex, st); /* b = c @ b = c */
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 1, b.t, b.dev), 0);
  nt_run(aclnnMm, ws, ex, st); /* b = c @ c */
  g = nt_read(&b);
  NT_CHECK_ALL("repeatable", g, sq, 4, 1e-6);
  free(g);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  nt_free(&a);
  nt_free(&b);
  nt_free(&c);
  nt_down(st);
}
