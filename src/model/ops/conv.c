/*
 * conv.c - Conv (1-3 spatial dims, groups, pads, strides, dilations,
 * auto_pad) and MaxPool / AveragePool / GlobalAveragePool / GlobalMaxPool.
 * Naive loops; spatial shapes are padded to 3-D with size-1 dims.
 */
#include <math.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

typedef acl__op_geom geom;

int acl__op_conv_geometry(acl__op_ctx *ctx, const acl__tensor *x, const int64_t *ks, int ceil_mode, geom *g) {
  int ns = x->rank - 2;
  if (ns < 1 || ns > 3)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "%d spatial dims not supported", ns);
  const int64_t *strides, *dil, *pads;
  int64_t nst = acl__op_attr_ints(ctx, "strides", &strides), nd = acl__op_attr_ints(ctx, "dilations", &dil);
  int64_t np = acl__op_attr_ints(ctx, "pads", &pads);
  const char *ap = acl__op_attr_str(ctx, "auto_pad", "NOTSET");
  g->ns = ns;
  for (int i = 0; i < 3; i++) {
    int j = i - (3 - ns);
    g->in[i] = j >= 0 ? x->dims[2 + j] : 1;
    g->k[i] = j >= 0 ? ks[j] : 1;
    g->s[i] = j >= 0 && nst == ns ? strides[j] : 1;
    g->d[i] = j >= 0 && nd == ns ? dil[j] : 1;
    g->pb[i] = j >= 0 && np == 2 * ns ? pads[j] : 0;
    g->pe[i] = j >= 0 && np == 2 * ns ? pads[ns + j] : 0;
    if (g->s[i] < 1 || g->d[i] < 1 || g->k[i] < 1)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "strides, dilations and kernel must be >= 1");
    int64_t ek = (g->k[i] - 1) * g->d[i] + 1;
    if (j >= 0 && (strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0)) {
      int64_t o = (g->in[i] + g->s[i] - 1) / g->s[i];
      int64_t total = (o - 1) * g->s[i] + ek - g->in[i];
      if (total < 0)
        total = 0;
      g->pb[i] = strcmp(ap, "SAME_UPPER") == 0 ? total / 2 : total - total / 2;
      g->pe[i] = total - g->pb[i];
    } else if (j >= 0 && strcmp(ap, "VALID") == 0) {
      g->pb[i] = g->pe[i] = 0;
    }
    int64_t span = g->in[i] + g->pb[i] + g->pe[i] - ek;
    if (span < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "kernel larger than the padded input");
    g->out[i] = (ceil_mode ? (span + g->s[i] - 1) / g->s[i] : span / g->s[i]) + 1;
    /* ceil mode: the last window must start inside the input or left padding */
    if (ceil_mode && (g->out[i] - 1) * g->s[i] >= g->in[i] + g->pb[i])
      g->out[i]--;
  }
  return 0;
}

static void out_dims(const acl__tensor *x, int64_t c, const geom *g, int64_t *od) {
  od[0] = x->dims[0];
  od[1] = c;
  for (int j = 0; j < g->ns; j++)
    od[2 + j] = g->out[3 - g->ns + j];
}

int acl__k_conv(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0], *w = ctx->in[1], *b = ctx->n_in > 2 ? ctx->in[2] : NULL;
  int64_t group = acl__op_attr_int(ctx, "group", 1);
  if (w->rank != x->rank || x->rank < 3 || group < 1 || x->dims[1] % group != 0 || w->dims[0] % group != 0 ||
      w->dims[1] * group != x->dims[1])
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "X, W and group do not fit together");
  geom g;
  rc = acl__op_conv_geometry(ctx, x, w->dims + 2, 0, &g);
  if (rc != 0)
    return rc;
  int64_t od[ACL__EXEC_MAX_RANK], M = w->dims[0], C = x->dims[1], N = x->dims[0];
  out_dims(x, M, &g, od);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc != 0)
    return rc;
  int64_t cg = C / group, mg = M / group;
  int64_t isz = g.in[0] * g.in[1] * g.in[2], ksz = g.k[0] * g.k[1] * g.k[2], osz = g.out[0] * g.out[1] * g.out[2];
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++) {
      int64_t gi = m / mg;
      for (int64_t o0 = 0; o0 < g.out[0]; o0++)
        for (int64_t o1 = 0; o1 < g.out[1]; o1++)
          for (int64_t o2 = 0; o2 < g.out[2]; o2++) {
            double s = b != NULL ? acl__op_get(b, m) : 0;
            for (int64_t c = 0; c < cg; c++) {
              int64_t xb = (n * C + gi * cg + c) * isz, wb = (m * cg + c) * ksz;
              for (int64_t k0 = 0; k0 < g.k[0]; k0++) {
                int64_t i0 = o0 * g.s[0] - g.pb[0] + k0 * g.d[0];
                if (i0 < 0 || i0 >= g.in[0])
                  continue;
                for (int64_t k1 = 0; k1 < g.k[1]; k1++) {
                  int64_t i1 = o1 * g.s[1] - g.pb[1] + k1 * g.d[1];
                  if (i1 < 0 || i1 >= g.in[1])
                    continue;
                  for (int64_t k2 = 0; k2 < g.k[2]; k2++) {
                    int64_t i2 = o2 * g.s[2] - g.pb[2] + k2 * g.d[2];
                    if (i2 < 0 || i2 >= g.in[2])
                      continue;
                    s += acl__op_get(x, xb + (i0 * g.in[1] + i1) * g.in[2] + i2) *
                         acl__op_get(w, wb + (k0 * g.k[1] + k1) * g.k[2] + k2);
                  }
                }
              }
            }
            acl__op_set(&ctx->out[0], (n * M + m) * osz + (o0 * g.out[1] + o1) * g.out[2] + o2, s);
          }
    }
  return 0;
}

int acl__k_pool(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int ismax = strcmp(ctx->node->op_type, "MaxPool") == 0;
  const int64_t *ks;
  if (acl__op_attr_ints(ctx, "kernel_shape", &ks) != x->rank - 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "kernel_shape must have one entry per spatial dim");
  /* storage_order 1: MaxPool's Indices count the spatial dims column-major */
  int colmajor = acl__op_attr_int(ctx, "storage_order", 0) != 0;
  geom g;
  rc = acl__op_conv_geometry(ctx, x, ks, (int)acl__op_attr_int(ctx, "ceil_mode", 0), &g);
  if (rc != 0)
    return rc;
  int cip = (int)acl__op_attr_int(ctx, "count_include_pad", 0);
  int64_t od[ACL__EXEC_MAX_RANK], N = x->dims[0], C = x->dims[1];
  out_dims(x, C, &g, od);
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc == 0 && ismax && ctx->n_out > 1)
    rc = acl__op_alloc(ctx, 1, ACL__ONNX_INT64, x->rank, od);
  if (rc != 0)
    return rc;
  int64_t isz = g.in[0] * g.in[1] * g.in[2], osz = g.out[0] * g.out[1] * g.out[2];
  for (int64_t nc = 0; nc < N * C; nc++)
    for (int64_t o0 = 0; o0 < g.out[0]; o0++)
      for (int64_t o1 = 0; o1 < g.out[1]; o1++)
        for (int64_t o2 = 0; o2 < g.out[2]; o2++) {
          double s = ismax ? -INFINITY : 0;
          int64_t cnt = 0, cntpad = 0, arg = 0;
          for (int64_t k0 = 0; k0 < g.k[0]; k0++) {
            int64_t i0 = o0 * g.s[0] - g.pb[0] + k0 * g.d[0];
            for (int64_t k1 = 0; k1 < g.k[1]; k1++) {
              int64_t i1 = o1 * g.s[1] - g.pb[1] + k1 * g.d[1];
              for (int64_t k2 = 0; k2 < g.k[2]; k2++) {
                int64_t i2 = o2 * g.s[2] - g.pb[2] + k2 * g.d[2];
                /* count_include_pad counts the explicit padding, not the ceil-mode overhang */
                if (i0 < g.in[0] + g.pe[0] && i1 < g.in[1] + g.pe[1] && i2 < g.in[2] + g.pe[2])
                  cntpad++;
                if (i0 < 0 || i0 >= g.in[0] || i1 < 0 || i1 >= g.in[1] || i2 < 0 || i2 >= g.in[2])
                  continue;
                int64_t idx = (i0 * g.in[1] + i1) * g.in[2] + i2;
                double v = acl__op_get(x, nc * isz + idx);
                cnt++;
                if (ismax) {
                  if (v > s) {
                    s = v;
                    arg = nc * isz + (colmajor ? (i2 * g.in[1] + i1) * g.in[0] + i0 : idx);
                  }
                } else {
                  s += v;
                }
              }
            }
          }
          int64_t oi = nc * osz + (o0 * g.out[1] + o1) * g.out[2] + o2;
          if (!ismax)
            s = (cip ? cntpad : cnt) > 0 ? s / (double)(cip ? cntpad : cnt) : 0;
          acl__op_set(&ctx->out[0], oi, s);
          if (ismax && ctx->n_out > 1 && ctx->out[1].data != NULL)
            ((int64_t *)ctx->out[1].data)[oi] = arg;
        }
  return 0;
}

int acl__k_global_pool(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->rank < 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input rank must be >= 2");
  int ismax = strcmp(ctx->node->op_type, "GlobalMaxPool") == 0;
  int64_t od[ACL__EXEC_MAX_RANK];
  od[0] = x->dims[0];
  od[1] = x->dims[1];
  for (int i = 2; i < x->rank; i++)
    od[i] = 1;
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, od);
  if (rc != 0)
    return rc;
  int64_t sp = acl__op_numel(x->rank - 2, x->dims + 2);
  for (int64_t nc = 0; nc < x->dims[0] * x->dims[1]; nc++) {
    double s = ismax ? -INFINITY : 0;
    for (int64_t i = 0; i < sp; i++) {
      double v = acl__op_get(x, nc * sp + i);
      s = ismax ? (v > s ? v : s) : s + v;
    }
    acl__op_set(&ctx->out[0], nc, ismax ? s : s / (double)sp);
  }
  return 0;
}
