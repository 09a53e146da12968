/*
 * elementwise.c - unary math, binary ops with numpy broadcasting (and the
 * pre-opset-7 `broadcast`/`axis` form), variadic Max/Min/Sum/Mean, Where,
 * Clip, PRelu and Cast.  Arithmetic is done in double and stored back in the
 * output's type.
 */
#include <math.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static int is(const acl__op_ctx *ctx, const char *op) {
  return strcmp(ctx->node->op_type, op) == 0;
}

int acl__k_unary(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (!acl__op_numeric(x->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(x->onnx_type));
  const char *op = ctx->node->op_type;
  int boolout = is(ctx, "IsNaN") || is(ctx, "IsInf");
  rc = acl__op_alloc(ctx, 0, boolout ? ACL__ONNX_BOOL : x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  double alpha = acl__op_attr_float(ctx, "alpha", 0), beta = acl__op_attr_float(ctx, "beta", 0);
  double gamma = acl__op_attr_float(ctx, "gamma", 1.05070102214813232421875f);
  int64_t det_neg = acl__op_attr_int(ctx, "detect_negative", 1), det_pos = acl__op_attr_int(ctx, "detect_positive", 1);
  if (acl__op_attr(ctx, "alpha") == NULL) {
    if (is(ctx, "LeakyRelu"))
      alpha = 0.01f;
    else if (is(ctx, "Elu") || is(ctx, "ThresholdedRelu") || is(ctx, "Celu"))
      alpha = 1.0;
    else if (is(ctx, "Selu"))
      alpha = 1.67326319217681884765625f;
    else if (is(ctx, "HardSigmoid"))
      alpha = 0.2f;
  }
  if (is(ctx, "HardSigmoid") && acl__op_attr(ctx, "beta") == NULL)
    beta = 0.5f;
  int isint = !acl__op_is_float(x->onnx_type);
  int64_t n = acl__tensor_numel(x);
  for (int64_t i = 0; i < n; i++) {
    double v = acl__op_get(x, i), r;
    switch (op[0]) {
    default: r = v; break;
    case 'A':
      r = is(ctx, "Abs") ? fabs(v) : is(ctx, "Asin") ? asin(v) : is(ctx, "Acos") ? acos(v) : is(ctx, "Atan") ? atan(v)
        : is(ctx, "Asinh") ? asinh(v) : is(ctx, "Acosh") ? acosh(v) : atanh(v);
      break;
    case 'C':
      r = is(ctx, "Ceil") ? ceil(v) : is(ctx, "Cos") ? cos(v) : is(ctx, "Cosh") ? cosh(v)
        : /* Celu */ fmax(0, v) + fmin(0, alpha * (exp(v / alpha) - 1));
      break;
    case 'E':
      r = is(ctx, "Exp") ? exp(v) : is(ctx, "Erf") ? erf(v) : v >= 0 ? v : alpha * (exp(v) - 1);
      break;
    case 'F': r = floor(v); break;
    case 'H':
      r = is(ctx, "HardSigmoid") ? fmax(0, fmin(1, alpha * v + beta)) : v * fmax(0, fmin(1, v / 6 + 0.5));
      break;
    case 'I':
      r = is(ctx, "IsNaN") ? isnan(v) : isinf(v) && ((v > 0 && det_pos) || (v < 0 && det_neg));
      break;
    case 'L':
      r = is(ctx, "Log") ? log(v) : v >= 0 ? v : alpha * v;
      break;
    case 'M': r = v * tanh(log1p(exp(v))); break;
    case 'N': r = is(ctx, "Neg") ? -v : !(v != 0); break;
    case 'R':
      r = is(ctx, "Relu") ? (v > 0 ? v : 0) : is(ctx, "Reciprocal") ? 1 / v : nearbyint(v);
      break;
    case 'S':
      if (is(ctx, "Sigmoid"))
        r = v >= 0 ? 1 / (1 + exp(-v)) : exp(v) / (1 + exp(v));
      else if (is(ctx, "Sqrt"))
        r = sqrt(v);
      else if (is(ctx, "Selu"))
        r = v > 0 ? gamma * v : gamma * alpha * (exp(v) - 1);
      else if (is(ctx, "Softplus"))
        r = v > 30 ? v : log1p(exp(v));
      else if (is(ctx, "Softsign"))
        r = v / (1 + fabs(v));
      else if (is(ctx, "Sin"))
        r = sin(v);
      else if (is(ctx, "Sinh"))
        r = sinh(v);
      else
        r = (v > 0) - (v < 0);
      break;
    case 'T':
      r = is(ctx, "Tanh") ? tanh(v) : is(ctx, "Tan") ? tan(v) : v > alpha ? v : 0;
      break;
    }
    if (isint && !boolout && !is(ctx, "Not"))
      r = trunc(r);
    acl__op_set(&ctx->out[0], i, r);
  }
  return 0;
}

/* a op b for the binary op named `op` */
static double apply(const char *op, double a, double b, int isint, int fmod_attr, int dir_left) {
  switch (op[0]) {
  case 'A': return op[1] == 'd' ? a + b : (a != 0 && b != 0);
  case 'S': return op[1] == 'u' && op[2] == 'b' ? a - b : a + b; /* Sub, Sum */
  case 'M':
    if (op[1] == 'u')
      return a * b;
    if (op[1] == 'o') {
      if (fmod_attr || !isint)
        return fmod(a, b);
      if (b == 0)
        return 0;
      double m = fmod(a, b);
      return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
    }
    if (op[1] == 'e')
      return a + b; /* Mean: summed here, divided later */
    if (op[2] == 'x')
      return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
  case 'D':
    if (isint)
      return b == 0 ? 0 : trunc(a / b);
    return a / b;
  case 'P': return pow(a, b);
  case 'E': return a == b;
  case 'L': return op[4] == 'O' ? a <= b : a < b;
  case 'G': return op[7] == 'O' ? a >= b : a > b;
  case 'O': return a != 0 || b != 0;
  case 'X': return (a != 0) != (b != 0);
  case 'B': {
    uint64_t x = (uint64_t)a, s = (uint64_t)b;
    return s >= 64 ? 0 : dir_left ? (double)(x << s) : (double)(x >> s);
  }
  default: return 0;
  }
}

static int is_compare(const char *op) {
  return strcmp(op, "Equal") == 0 || strcmp(op, "Less") == 0 || strcmp(op, "Greater") == 0 ||
         strcmp(op, "LessOrEqual") == 0 || strcmp(op, "GreaterOrEqual") == 0;
}

/* out = a op b, broadcasting; `out` allocated here with type `otype`. */
static int binary(acl__op_ctx *ctx, const char *op, const acl__tensor *a, const acl__tensor *b, int otype,
                  acl__tensor *out) {
  int ro;
  int64_t dout[ACL__EXEC_MAX_RANK], sa[ACL__EXEC_MAX_RANK], sb[ACL__EXEC_MAX_RANK];
  if (acl__op_broadcast_shape(a->rank, a->dims, b->rank, b->dims, &ro, dout) != 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shapes cannot be broadcast together");
  if (acl__tensor_alloc(out, otype, ro, dout) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output");
  acl__op_bcast_strides(a, ro, dout, sa);
  acl__op_bcast_strides(b, ro, dout, sb);
  int isint = !acl__op_is_float(a->onnx_type);
  int fm = (int)acl__op_attr_int(ctx, "fmod", 0);
  int left = strcmp(acl__op_attr_str(ctx, "direction", "LEFT"), "LEFT") == 0;
  int64_t n = acl__tensor_numel(out), idx[ACL__EXEC_MAX_RANK] = {0}, ia = 0, ib = 0;
  int exact = isint && a->onnx_type == ACL__ONNX_INT64 && b->onnx_type == ACL__ONNX_INT64 && otype == ACL__ONNX_INT64 &&
              (op[0] == 'A' || (op[0] == 'S' && op[1] == 'u') || (op[0] == 'M' && op[1] == 'u'));
  for (int64_t i = 0; i < n; i++) {
    if (exact) {
      int64_t x = ((const int64_t *)a->data)[ia], y = ((const int64_t *)b->data)[ib];
      ((int64_t *)out->data)[i] = op[0] == 'A' ? (int64_t)((uint64_t)x + (uint64_t)y)
                                  : op[1] == 'u' && op[0] == 'S' && op[2] == 'b' ? (int64_t)((uint64_t)x - (uint64_t)y)
                                  : op[0] == 'S' ? (int64_t)((uint64_t)x + (uint64_t)y)
                                                 : (int64_t)((uint64_t)x * (uint64_t)y);
    } else {
      acl__op_set(out, i, apply(op, acl__op_get(a, ia), acl__op_get(b, ib), isint, fm, left));
    }
    for (int d = ro - 1; d >= 0; d--) {
      ia += sa[d];
      ib += sb[d];
      if (++idx[d] < dout[d])
        break;
      ia -= sa[d] * dout[d];
      ib -= sb[d] * dout[d];
      idx[d] = 0;
    }
  }
  return 0;
}

int acl__k_binary(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *a = ctx->in[0], *b0 = ctx->in[1];
  if (!acl__op_numeric(a->onnx_type) || !acl__op_numeric(b0->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type %s not supported",
                        acl__graph_onnx_type_name(acl__op_numeric(a->onnx_type) ? b0->onnx_type : a->onnx_type));
  acl__tensor b = *b0;
  b.owned = 0;
  /* opset < 7: `broadcast` = 1 aligns B with A starting at `axis` */
  if (ctx->opset < 7 && acl__op_attr_int(ctx, "broadcast", 0) != 0 && b.rank < a->rank) {
    const acl__graph_attr *ax = acl__op_attr(ctx, "axis");
    int axis = ax != NULL ? acl__op_axis(ax->i, a->rank) : a->rank - b.rank;
    if (axis < 0 || axis + b.rank > a->rank)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "axis out of range");
    int r = a->rank - axis;
    for (int i = b.rank; i < r; i++)
      b.dims[i] = 1;
    b.rank = r;
  }
  const char *op = ctx->node->op_type;
  int otype = is_compare(op) ? ACL__ONNX_BOOL : a->onnx_type;
  return binary(ctx, op, a, &b, otype, &ctx->out[0]);
}

int acl__k_variadic(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const char *op = ctx->node->op_type;
  const acl__tensor *a = ctx->in[0];
  if (!acl__op_numeric(a->onnx_type))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "data type not supported");
  /* accumulate in double precision, convert at the end */
  acl__tensor acc, tmp;
  if (acl__tensor_alloc(&acc, ACL__ONNX_DOUBLE, a->rank, a->dims) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory");
  for (int64_t i = 0; i < acl__tensor_numel(a); i++)
    acl__op_set(&acc, i, acl__op_get(a, i));
  size_t count = 1;
  for (size_t k = 1; k < ctx->n_in; k++) {
    if (ctx->in[k] == NULL)
      continue;
    acl__tensor b = *ctx->in[k];
    rc = binary(ctx, op, &acc, &b, ACL__ONNX_DOUBLE, &tmp);
    acl__tensor_release(&acc);
    if (rc != 0)
      return rc;
    acc = tmp;
    count++;
  }
  rc = acl__op_alloc(ctx, 0, a->onnx_type, acc.rank, acc.dims);
  if (rc == 0) {
    int mean = strcmp(op, "Mean") == 0;
    for (int64_t i = 0; i < acl__tensor_numel(&acc); i++) {
      double v = acl__op_get(&acc, i);
      acl__op_set(&ctx->out[0], i, mean ? v / (double)count : v);
    }
  }
  acl__tensor_release(&acc);
  return rc;
}

int acl__k_where(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 3);
  if (rc != 0)
    return rc;
  const acl__tensor *c = ctx->in[0], *x = ctx->in[1], *y = ctx->in[2];
  int r1, ro;
  int64_t d1[ACL__EXEC_MAX_RANK], dout[ACL__EXEC_MAX_RANK];
  if (acl__op_broadcast_shape(c->rank, c->dims, x->rank, x->dims, &r1, d1) != 0 ||
      acl__op_broadcast_shape(r1, d1, y->rank, y->dims, &ro, dout) != 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "shapes cannot be broadcast together");
  rc = acl__op_alloc(ctx, 0, x->onnx_type, ro, dout);
  if (rc != 0)
    return rc;
  int64_t sc[ACL__EXEC_MAX_RANK], sx[ACL__EXEC_MAX_RANK], sy[ACL__EXEC_MAX_RANK];
  acl__op_bcast_strides(c, ro, dout, sc);
  acl__op_bcast_strides(x, ro, dout, sx);
  acl__op_bcast_strides(y, ro, dout, sy);
  size_t es = acl__op_esize(x->onnx_type);
  int64_t n = acl__tensor_numel(&ctx->out[0]);
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, ic = 0, ix = 0, iy = 0;
    for (int d = ro - 1; d >= 0; d--) {
      int64_t v = rem % dout[d];
      rem /= dout[d];
      ic += v * sc[d];
      ix += v * sx[d];
      iy += v * sy[d];
    }
    int take = ((const uint8_t *)c->data)[ic] != 0;
    memcpy((char *)ctx->out[0].data + (size_t)i * es,
           take ? (const char *)x->data + (size_t)ix * es : (const char *)y->data + (size_t)iy * es, es);
  }
  return 0;
}

int acl__k_clip(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  double lo = -INFINITY, hi = INFINITY;
  if (ctx->opset < 11) {
    lo = acl__op_attr_float(ctx, "min", -INFINITY);
    hi = acl__op_attr_float(ctx, "max", INFINITY);
  } else {
    if (ctx->n_in > 1 && ctx->in[1] != NULL)
      lo = acl__op_get(ctx->in[1], 0);
    if (ctx->n_in > 2 && ctx->in[2] != NULL)
      hi = acl__op_get(ctx->in[2], 0);
  }
  rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc != 0)
    return rc;
  for (int64_t i = 0; i < acl__tensor_numel(x); i++) {
    double v = acl__op_get(x, i);
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    acl__op_set(&ctx->out[0], i, v);
  }
  return 0;
}

int acl__k_prelu(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 2);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  acl__tensor s = *ctx->in[1];
  s.owned = 0;
  /* old models give slope [C] for NCHW input: align it with the channel axis */
  if (s.rank == 1 && x->rank > 2 && s.dims[0] == x->dims[1] && s.dims[0] != x->dims[x->rank - 1]) {
    s.rank = x->rank - 1;
    for (int i = 1; i < s.rank; i++)
      s.dims[i] = 1;
  }
  int ro;
  int64_t dout[ACL__EXEC_MAX_RANK], sx[ACL__EXEC_MAX_RANK], ss[ACL__EXEC_MAX_RANK];
  if (acl__op_broadcast_shape(x->rank, x->dims, s.rank, s.dims, &ro, dout) != 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "slope cannot be broadcast to X");
  rc = acl__op_alloc(ctx, 0, x->onnx_type, ro, dout);
  if (rc != 0)
    return rc;
  acl__op_bcast_strides(x, ro, dout, sx);
  acl__op_bcast_strides(&s, ro, dout, ss);
  for (int64_t i = 0; i < acl__tensor_numel(&ctx->out[0]); i++) {
    int64_t rem = i, ix = 0, is_ = 0;
    for (int d = ro - 1; d >= 0; d--) {
      int64_t v = rem % dout[d];
      rem /= dout[d];
      ix += v * sx[d];
      is_ += v * ss[d];
    }
    double v = acl__op_get(x, ix);
    acl__op_set(&ctx->out[0], i, v >= 0 ? v : v * acl__op_get(&s, is_));
  }
  return 0;
}

int acl__k_cast(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  int to = (int)acl__op_attr_int(ctx, "to", 0);
  if (x->onnx_type == ACL__ONNX_STRING || to == ACL__ONNX_STRING)
    return acl__op_cast_strings(ctx, x, to);
  if (!acl__op_numeric(x->onnx_type) || !acl__op_numeric(to))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "cast from %s to %s not supported",
                        acl__graph_onnx_type_name(x->onnx_type), acl__graph_onnx_type_name(to));
  rc = acl__op_alloc(ctx, 0, to, x->rank, x->dims);
  if (rc != 0)
    return rc;
  for (int64_t i = 0; i < acl__tensor_numel(x); i++) {
    if (x->onnx_type == ACL__ONNX_INT64 && to == ACL__ONNX_INT64)
      ((int64_t *)ctx->out[0].data)[i] = ((const int64_t *)x->data)[i];
    else if (to == ACL__ONNX_FLOAT && x->onnx_type == ACL__ONNX_DOUBLE)
      ((float *)ctx->out[0].data)[i] = (float)((const double *)x->data)[i];
    else
      acl__op_set(&ctx->out[0], i, acl__op_get(x, i));
  }
  return 0;
}
