/*
 * convtranspose.c - ConvTranspose (opset 1+) over any number of spatial
 * dims: every input element scatters x * w into the output window it
 * reaches (out = in * stride - pad_begin + k * dilation), then the bias is
 * added.  Arithmetic is in double.
 *
 * Output size per spatial axis: `output_shape` when given (the padding is
 * then derived, split by auto_pad: SAME_UPPER puts the smaller half first,
 * anything else the larger half first); otherwise
 * stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pads, with
 * auto_pad SAME_* meaning an output of in * stride.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

#define MAXSP (ACL__EXEC_MAX_RANK - 2)

/* Fills v[0..n) from INTS attribute `name` (dflt when absent); -1 on a length mismatch. */
static int ints_or(const acl__op_ctx *ctx, const char *name, int64_t *v, int n, int64_t dflt) {
  const int64_t *a;
  int64_t c = acl__op_attr_ints(ctx, name, &a);
  for (int i = 0; i < n; i++)
    v[i] = dflt;
  if (c < 0)
    return 0;
  if (c != n)
    return -1;
  memcpy(v, a, (size_t)n * sizeof(int64_t));
  return 0;
}

int acl__k_convtranspose(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *w = ctx->in[1], *b = ctx->n_in > 2 ? ctx->in[2] : NULL;
  int nsp = x->rank - 2;
  if (nsp < 1 || w->rank != x->rank)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input and weight must be (N, C, ...) of the same rank");
  int64_t N = x->dims[0], C = x->dims[1], group = acl__op_attr_int(ctx, "group", 1);
  if (group <= 0 || C % group != 0 || w->dims[0] != C)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "weight does not match the input channels and group");
  int64_t mg = w->dims[1], M = mg * group, cg = C / group;
  if (b != NULL && acl__tensor_numel(b) != M)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "bias must hold one value per output channel");
  int64_t k[MAXSP], s[MAXSP], d[MAXSP], op[MAXSP], pads[2 * MAXSP], os[MAXSP];
  if (ints_or(ctx, "kernel_shape", k, nsp, 0) != 0 || ints_or(ctx, "strides", s, nsp, 1) != 0 ||
      ints_or(ctx, "dilations", d, nsp, 1) != 0 || ints_or(ctx, "output_padding", op, nsp, 0) != 0 ||
      ints_or(ctx, "pads", pads, 2 * nsp, 0) != 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "an attribute has the wrong number of entries");
  for (int i = 0; i < nsp; i++) {
    if (k[i] == 0)
      k[i] = w->dims[i + 2];
    if (k[i] != w->dims[i + 2] || s[i] <= 0 || d[i] <= 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "kernel_shape, strides or dilations invalid");
  }
  const char *ap = acl__op_attr_str(ctx, "auto_pad", "NOTSET");
  int same = strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0, upper = strcmp(ap, "SAME_UPPER") == 0;
  if (strcmp(ap, "VALID") == 0)
    for (int i = 0; i < 2 * nsp; i++)
      pads[i] = 0;
  const int64_t *oshape;
  int64_t nos = acl__op_attr_ints(ctx, "output_shape", &oshape);
  if (nos >= 0 && nos != nsp && nos != nsp + 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "output_shape has the wrong number of entries");
  int64_t od[ACL__EXEC_MAX_RANK];
  od[0] = N;
  od[1] = M;
  for (int i = 0; i < nsp; i++) {
    int64_t full = s[i] * (x->dims[i + 2] - 1) + op[i] + (k[i] - 1) * d[i] + 1;
    if (nos >= 0 || same) {
      os[i] = nos >= 0 ? oshape[nos - nsp + i] : x->dims[i + 2] * s[i];
      int64_t total = full - os[i];
      int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2); /* floor, as the reference's // */
      pads[i] = upper ? half : total - half;
      pads[i + nsp] = total - pads[i];
    } else {
      os[i] = full - pads[i] - pads[i + nsp];
    }
    if (os[i] < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "negative output size");
    od[i + 2] = os[i];
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc != 0)
    return rc;
  int64_t isz = acl__op_numel(nsp, x->dims + 2), ksz = acl__op_numel(nsp, k), osz = acl__op_numel(nsp, os);
  double *acc = calloc((size_t)(N * M * osz) + 1, sizeof(double));
  if (acc == NULL)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  for (int64_t n = 0; n < N; n++)
    for (int64_t c = 0; c < C; c++) {
      int64_t g = c / cg;
      for (int64_t ip = 0; ip < isz; ip++) {
        double xv = acl__op_get(x, (n * C + c) * isz + ip);
        if (xv == 0)
          continue;
        int64_t iidx[MAXSP], rem = ip;
        for (int i = nsp - 1; i >= 0; i--) {
          iidx[i] = rem % x->dims[i + 2];
          rem /= x->dims[i + 2];
        }
        for (int64_t kp = 0; kp < ksz; kp++) {
          int64_t krem = kp, opos = 0, ostride = 1;
          int inside = 1;
          for (int i = nsp - 1; i >= 0; i--) {
            int64_t kk = krem % k[i];
            krem /= k[i];
            int64_t o = iidx[i] * s[i] - pads[i] + kk * d[i];
            if (o < 0 || o >= os[i])
              inside = 0;
            opos += o * ostride;
            ostride *= os[i];
          }
          if (!inside)
            continue;
          for (int64_t m = 0; m < mg; m++)
            acc[(n * M + g * mg + m) * osz + opos] += xv * acl__op_get(w, (c * mg + m) * ksz + kp);
        }
      }
    }
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++) {
      double bv = b != NULL ? acl__op_get(b, m) : 0;
      for (int64_t p = 0; p < osz; p++)
        acl__op_set(&ctx->out[0], (n * M + m) * osz + p, acc[(n * M + m) * osz + p] + bv);
    }
  free(acc);
  return 0;
}
