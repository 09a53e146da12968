/* linalg.c - MatMul (numpy semantics, batch broadcasting), Gemm and Det. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int acl__k_matmul(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  acl__tensor a = *ctx->in[0], b = *ctx->in[1];
  if (a.rank < 1 || b.rank < 1 || !acl__op_numeric(a.onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "inputs must have rank >= 1");
  int a1 = a.rank == 1, b1 = b.rank == 1;
  if (a1) { /* [K] -> [1, K] */
    a.dims[1] = a.dims[0];
    a.dims[0] = 1;
    a.rank = 2;
  }
  if (b1) { /* [K] -> [K, 1] */
    b.dims[1] = 1;
    b.rank = 2;
  }
  int64_t M = a.dims[a.rank - 2], K = a.dims[a.rank - 1], N = b.dims[b.rank - 1];
  if (b.dims[b.rank - 2] != K)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "inner dimensions differ (%lld vs %lld)", (long long)K,
                        (long long)b.dims[b.rank - 2]);
  int rb;
  int64_t bd[ACL__EXEC_MAX_RANK];
  if (acl__op_broadcast_shape(a.rank - 2, a.dims, b.rank - 2, b.dims, &rb, bd) != 0 || rb + 2 > ACL__EXEC_MAX_RANK)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "batch dimensions cannot be broadcast");
  int64_t od[ACL__EXEC_MAX_RANK];
  memcpy(od, bd, (size_t)rb * sizeof(int64_t));
  int ro = rb;
  if (!a1)
    od[ro++] = M;
  if (!b1)
    od[ro++] = N;
  rc = acl__op_alloc(ctx, 0, a.onnx_type, ro, od);
  if (rc != 0)
    return rc;
  acl__tensor ab = a, bb = b;
  ab.rank = a.rank - 2;
  bb.rank = b.rank - 2;
  int64_t sa[ACL__EXEC_MAX_RANK], sb[ACL__EXEC_MAX_RANK];
  acl__op_bcast_strides(&ab, rb, bd, sa);
  acl__op_bcast_strides(&bb, rb, bd, sb);
  int64_t nb = acl__op_numel(rb, bd);
  for (int64_t bi = 0; bi < nb; bi++) {
    int64_t rem = bi, oa = 0, ob = 0;
    for (int d = rb - 1; d >= 0; d--) {
      int64_t v = rem % bd[d];
      rem /= bd[d];
      oa += v * sa[d];
      ob += v * sb[d];
    }
    oa *= M * K;
    ob *= K * N;
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++)
          s += acl__op_get(&a, oa + i * K + k) * acl__op_get(&b, ob + k * N + j);
        acl__op_set(&ctx->out[0], bi * M * N + i * N + j, s);
      }
  }
  return 0;
}

int acl__k_gemm(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *a = ctx->in[0], *b = ctx->in[1], *c = ctx->n_in > 2 ? ctx->in[2] : NULL;
  if (a->rank != 2 || b->rank != 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "A and B must be 2-D");
  double alpha = acl__op_attr_float(ctx, "alpha", 1), beta = acl__op_attr_float(ctx, "beta", 1);
  int ta = (int)acl__op_attr_int(ctx, "transA", 0), tb = (int)acl__op_attr_int(ctx, "transB", 0);
  int64_t M = ta ? a->dims[1] : a->dims[0], K = ta ? a->dims[0] : a->dims[1];
  int64_t N = tb ? b->dims[0] : b->dims[1], K2 = tb ? b->dims[1] : b->dims[0];
  if (K != K2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "inner dimensions differ");
  int64_t od[2] = {M, N};
  int64_t sc[2] = {0, 0};
  if (c != NULL) {
    int ro;
    int64_t cd[ACL__EXEC_MAX_RANK];
    if (acl__op_broadcast_shape(2, od, c->rank, c->dims, &ro, cd) != 0 || ro != 2 || cd[0] != M || cd[1] != N)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "C cannot be broadcast to [M, N]");
    acl__op_bcast_strides(c, 2, od, sc);
  }
  rc = acl__op_alloc(ctx, 0, a->onnx_type, 2, od);
  if (rc != 0)
    return rc;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double s = 0;
      for (int64_t k = 0; k < K; k++)
        s += acl__op_get(a, ta ? k * M + i : i * K + k) * acl__op_get(b, tb ? j * K + k : k * N + j);
      s *= alpha;
      if (c != NULL)
        s += beta * acl__op_get(c, i * sc[0] + j * sc[1]);
      acl__op_set(&ctx->out[0], i * N + j, s);
    }
  return 0;
}

/* Det: the determinant of each trailing [M, M] matrix, by LU decomposition
 * with partial pivoting in double. */
int acl__k_det(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2] || x->dims[x->rank - 1] > 4096)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input must end in a square [M, M] matrix (M <= 4096)");
  int64_t m = x->dims[x->rank - 1], batch = acl__op_numel(x->rank - 2, x->dims);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank - 2, x->dims);
  double *a = rc == 0 ? malloc((size_t)(m * m + 1) * sizeof(double)) : NULL;
  if (rc == 0 && a == NULL)
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory for a %lld x %lld matrix", (long long)m, (long long)m);
  for (int64_t b = 0; rc == 0 && b < batch; b++) {
    for (int64_t i = 0; i < m * m; i++)
      a[i] = acl__op_get(x, b * m * m + i);
    double det = 1;
    for (int64_t c = 0; c < m && det != 0; c++) {
      int64_t p = c;
      for (int64_t r = c + 1; r < m; r++)
        if (fabs(a[r * m + c]) > fabs(a[p * m + c]))
          p = r;
      if (a[p * m + c] == 0) {
        det = 0;
        break;
      }
      if (p != c) { /* a row swap flips the sign */
        for (int64_t k = 0; k < m; k++) {
          double t = a[c * m + k];
          a[c * m + k] = a[p * m + k];
          a[p * m + k] = t;
        }
        det = -det;
      }
      det *= a[c * m + c];
      for (int64_t r = c + 1; r < m; r++) {
        double f = a[r * m + c] / a[c * m + c];
        for (int64_t k = c; k < m; k++)
          a[r * m + k] -= f * a[c * m + k];
      }
    }
    acl__op_set(&ctx->out[0], b, det);
  }
  free(a);
  return rc;
}
