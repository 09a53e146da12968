/*
 * slice_pad.c - ops that cut a tensor or extend it: Split, Slice, Expand,
 * Tile, Pad.  Like shape.c they copy elements by size, so every fixed-size
 * type works and int64 stays exact; only Pad's constant attribute (a float)
 * goes through double.
 *
 * Opset differences handled here:
 *   Split   `split` attribute before opset 13, optional input 1 from 13
 *           (also input 1 in opset 1); without it the axis is cut into
 *           n_out parts of ceil(dim / n_out) (equal when it divides).
 *   Slice   starts/ends/axes attributes before opset 10, inputs 1..4
 *           (with steps) from 10.
 *   Pad     `paddings` attribute in opset 1, `pads` (and float `value`)
 *           in 2..10, inputs pads / constant_value / axes from 11.
 *   Tile    repeats input (opset 6+); the opset-1 tiles/axis form is not
 *           supported.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static int64_t ints_attr(const acl__op_ctx *ctx, const char *name, int64_t *v, int64_t max) {
  const int64_t *a;
  int64_t n = acl__op_attr_ints(ctx, name, &a);
  if (n > max)
    return -2;
  for (int64_t i = 0; i < n; i++)
    v[i] = a[i];
  return n;
}

/* ---- Split ------------------------------------------------------------------ */

int acl__k_split(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int axis = acl__op_axis(acl__op_attr_int(ctx, "axis", 0), x->rank);
  if (axis < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
  size_t no = ctx->n_out;
  if (no == 0)
    return 0;
  int64_t *len = calloc(no, sizeof(int64_t));
  if (len == NULL)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  int64_t dim = x->dims[axis], n = -1;
  const acl__tensor *sp = ctx->n_in > 1 ? ctx->in[1] : NULL;
  if (sp != NULL && (ctx->opset >= 13 || ctx->opset < 2)) {
    n = acl__tensor_numel(sp);
    if (n == (int64_t)no)
      for (int64_t i = 0; i < n; i++)
        len[i] = acl__op_get_i64(sp, i);
  } else if (ctx->opset < 13) {
    const int64_t *a;
    n = acl__op_attr_ints(ctx, "split", &a);
    if (n == (int64_t)no)
      memcpy(len, a, no * sizeof(int64_t));
  }
  if (n >= 0) {
    int64_t sum = 0;
    for (size_t k = 0; k < no && n == (int64_t)no; k++)
      sum += len[k] < 0 ? dim + 1 : len[k];
    if (n != (int64_t)no || sum != dim) {
      free(len);
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "split does not match %zu outputs of dim %lld", no,
                          (long long)dim);
    }
  } else {
    int64_t chunk = (dim + (int64_t)no - 1) / (int64_t)no, left = dim;
    for (size_t k = 0; k < no; k++) {
      len[k] = left < chunk ? left : chunk;
      left -= len[k];
    }
  }
  size_t es = acl__op_esize(x->onnx_type);
  int64_t outer = acl__op_numel(axis, x->dims), inner = acl__op_numel(x->rank - axis - 1, x->dims + axis + 1);
  int64_t od[ACL__EXEC_MAX_RANK], off = 0;
  memcpy(od, x->dims, (size_t)x->rank * sizeof(int64_t));
  for (size_t k = 0; k < no && rc == 0; k++) {
    od[axis] = len[k];
    rc = acl__op_alloc(ctx, k, x->onnx_type, x->rank, od);
    if (rc != 0)
      break;
    size_t chunk = (size_t)(len[k] * inner) * es;
    for (int64_t o = 0; o < outer && chunk > 0; o++)
      memcpy((char *)ctx->out[k].data + (size_t)o * chunk,
             (const char *)x->data + ((size_t)(o * dim * inner) + (size_t)(off * inner)) * es, chunk);
    off += len[k];
  }
  free(len);
  return rc;
}

/* ---- Slice ------------------------------------------------------------------ */

int acl__k_slice(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, ctx->opset < 10 ? 1 : 3);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int r = x->rank;
  int64_t st[ACL__EXEC_MAX_RANK], en[ACL__EXEC_MAX_RANK], ax[ACL__EXEC_MAX_RANK], sp[ACL__EXEC_MAX_RANK];
  int64_t ns, ne, na = -1, nstep = -1;
  if (ctx->opset < 10) {
    ns = ints_attr(ctx, "starts", st, r);
    ne = ints_attr(ctx, "ends", en, r);
    na = ints_attr(ctx, "axes", ax, r);
  } else {
    ns = acl__op_ints_in(ctx->in[1], st, r);
    ne = acl__op_ints_in(ctx->in[2], en, r);
    if (ctx->n_in > 3 && ctx->in[3] != NULL && (na = acl__op_ints_in(ctx->in[3], ax, r)) < 0)
      na = -2;
    if (ctx->n_in > 4 && ctx->in[4] != NULL && (nstep = acl__op_ints_in(ctx->in[4], sp, r)) < 0)
      ns = -1;
  }
  if (ns < 0 || ne != ns || na < -1 || (na >= 0 && na != ns) || (nstep >= 0 && nstep != ns))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "starts/ends/axes/steps missing or of different lengths");
  /* Per-axis start and step; default: the whole axis. */
  int64_t b[ACL__EXEC_MAX_RANK], s[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK];
  int seen[ACL__EXEC_MAX_RANK] = {0};
  for (int i = 0; i < r; i++) {
    b[i] = 0;
    s[i] = 1;
    od[i] = x->dims[i];
  }
  for (int64_t i = 0; i < ns; i++) {
    int a = acl__op_axis(na >= 0 ? ax[i] : i, r);
    if (a < 0 || seen[a]++)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range or repeated",
                          (long long)(na >= 0 ? ax[i] : i));
    int64_t step = nstep >= 0 ? sp[i] : 1, dim = x->dims[a], lo = st[i], hi = en[i];
    if (step == 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "step is 0");
    if (lo < 0)
      lo += dim;
    if (hi < 0)
      hi += dim;
    /* Counts in unsigned arithmetic: a step may be as large as INT64_MAX or INT64_MIN. */
    if (step > 0) {
      lo = lo < 0 ? 0 : lo > dim ? dim : lo;
      hi = hi < 0 ? 0 : hi > dim ? dim : hi;
      od[a] = hi > lo ? (int64_t)((uint64_t)(hi - lo - 1) / (uint64_t)step + 1) : 0;
    } else {
      lo = lo < 0 ? 0 : lo > dim - 1 ? dim - 1 : lo;
      hi = hi < -1 ? -1 : hi > dim - 1 ? dim - 1 : hi;
      od[a] = lo > hi ? (int64_t)((uint64_t)(lo - hi - 1) / ((uint64_t)0 - (uint64_t)step) + 1) : 0;
    }
    b[a] = lo;
    s[a] = step;
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  int64_t xs[ACL__EXEC_MAX_RANK];
  acl__op_strides(r, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t n = acl__op_numel(r, od);
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, src = 0;
    for (int d = r - 1; d >= 0; d--) {
      src += (b[d] + (rem % od[d]) * s[d]) * xs[d];
      rem /= od[d];
    }
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)src * es, es);
  }
  return 0;
}

/* ---- Expand / Tile ---------------------------------------------------------- */

int acl__k_expand(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int64_t sh[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK], xs[ACL__EXEC_MAX_RANK];
  int64_t n = acl__op_ints_in(ctx->in[1], sh, ACL__EXEC_MAX_RANK);
  int ro;
  if (n < 0 || acl__op_broadcast_shape(x->rank, x->dims, (int)n, sh, &ro, od) != 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shape does not broadcast with the input");
  rc = acl__op_alloc(ctx, 0, x->onnx_type, ro, od);
  if (rc != 0)
    return rc;
  acl__op_bcast_strides(x, ro, od, xs);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t total = acl__op_numel(ro, od);
  for (int64_t i = 0; i < total; i++) {
    int64_t rem = i, src = 0;
    for (int d = ro - 1; d >= 0; d--) {
      src += (rem % od[d]) * xs[d];
      rem /= od[d];
    }
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)src * es, es);
  }
  return 0;
}

int acl__k_tile(acl__op_ctx *ctx) {
  if (ctx->opset < 6)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "the opset-1 tiles/axis form is not supported");
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int r = x->rank;
  int64_t rep[ACL__EXEC_MAX_RANK], od[ACL__EXEC_MAX_RANK], xs[ACL__EXEC_MAX_RANK];
  if (acl__op_ints_in(ctx->in[1], rep, ACL__EXEC_MAX_RANK) != r)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "repeats must have one entry per input dim");
  for (int i = 0; i < r; i++) {
    if (rep[i] < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "negative repeat");
    od[i] = x->dims[i] * rep[i];
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  acl__op_strides(r, x->dims, xs);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t total = acl__op_numel(r, od);
  for (int64_t i = 0; i < total; i++) {
    int64_t rem = i, src = 0;
    for (int d = r - 1; d >= 0; d--) {
      src += ((rem % od[d]) % x->dims[d]) * xs[d];
      rem /= od[d];
    }
    memcpy((char *)ctx->out[0].data + (size_t)i * es, (const char *)x->data + (size_t)src * es, es);
  }
  return 0;
}

/* ---- Pad -------------------------------------------------------------------- */

int acl__k_pad(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, ctx->opset < 11 ? 1 : 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int r = x->rank;
  const char *mode = acl__op_attr_str(ctx, "mode", "constant");
  int m = strcmp(mode, "constant") == 0 ? 0 : strcmp(mode, "reflect") == 0 ? 1 : strcmp(mode, "edge") == 0 ? 2
          : strcmp(mode, "wrap") == 0 ? 3 : -1;
  if (m < 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "mode \"%s\" not supported", mode);
  int64_t raw[2 * ACL__EXEC_MAX_RANK], ax[ACL__EXEC_MAX_RANK], np, na = -1;
  if (ctx->opset < 11) {
    np = ints_attr(ctx, ctx->opset < 2 ? "paddings" : "pads", raw, 2 * r);
  } else {
    np = acl__op_ints_in(ctx->in[1], raw, 2 * r);
    if (ctx->n_in > 3 && ctx->in[3] != NULL && (na = acl__op_ints_in(ctx->in[3], ax, r)) < 0)
      na = -2;
  }
  int64_t nax = na >= 0 ? na : r;
  if (np != 2 * nax || na < -1)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "pads must hold two entries per padded axis");
  int64_t pb[ACL__EXEC_MAX_RANK] = {0}, pe[ACL__EXEC_MAX_RANK] = {0}, od[ACL__EXEC_MAX_RANK], xs[ACL__EXEC_MAX_RANK];
  for (int64_t i = 0; i < nax; i++) {
    int a = acl__op_axis(na >= 0 ? ax[i] : i, r);
    if (a < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis %lld out of range", (long long)ax[i]);
    pb[a] = raw[i];
    pe[a] = raw[nax + i];
  }
  for (int i = 0; i < r; i++) {
    od[i] = x->dims[i] + pb[i] + pe[i];
    if (od[i] < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "pads remove more than dim %d holds", i);
    if (od[i] > 0 && x->dims[i] == 0 && m != 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "cannot %s-pad an empty dim", mode);
  }
  /* The constant, as one element of x's type. */
  size_t es = acl__op_esize(x->onnx_type);
  unsigned char cval[16] = {0};
  if (es == 0 || es > sizeof(cval))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type not supported");
  if (ctx->opset >= 11 && ctx->n_in > 2 && ctx->in[2] != NULL && acl__tensor_numel(ctx->in[2]) > 0) {
    if (ctx->in[2]->onnx_type != x->onnx_type)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "constant_value type differs from the data");
    memcpy(cval, ctx->in[2]->data, es);
  } else if (ctx->opset < 11) {
    acl__tensor c = {0};
    c.onnx_type = x->onnx_type;
    c.data = cval;
    if (acl__op_numeric(x->onnx_type))
      acl__op_set(&c, 0, acl__op_attr_float(ctx, "value", 0.0f));
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, r, od);
  if (rc != 0)
    return rc;
  acl__op_strides(r, x->dims, xs);
  int64_t total = acl__op_numel(r, od);
  for (int64_t i = 0; i < total; i++) {
    int64_t rem = i, src = 0;
    int out = 0;
    for (int d = r - 1; d >= 0; d--) {
      int64_t c = rem % od[d] - pb[d], dim = x->dims[d];
      rem /= od[d];
      if (c < 0 || c >= dim) {
        if (m == 0) {
          out = 1;
          break;
        } else if (m == 2) {
          c = c < 0 ? 0 : dim - 1;
        } else if (m == 3) {
          c = ((c % dim) + dim) % dim;
        } else if (dim == 1) {
          c = 0;
        } else {
          int64_t period = 2 * (dim - 1);
          c = ((c % period) + period) % period;
          if (c >= dim)
            c = period - c;
        }
      }
      src += c * xs[d];
    }
    memcpy((char *)ctx->out[0].data + (size_t)i * es, out ? (const void *)cval : (const char *)x->data + (size_t)src * es,
           es);
  }
  return 0;
}
