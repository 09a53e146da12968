/*
 * training.c - training-only computations: BatchNormalization's training
 * mode (at the end), and ai.onnx.preview.training.Gradient: reverse-mode
 * gradients of one graph tensor `y` with respect to the tensors named in `xs`.
 *
 * The node's inputs are the values of xs (then zs).  The kernel re-runs the
 * nodes that come before it in the graph on those values (so it never
 * depends on the executor's table) and then walks them backwards with one
 * double-precision gradient buffer per tensor, seeded with ones at y.
 * Differentiable ops: Add, Sub, Mul, Div (with numpy broadcasting, whose
 * gradient sums over the broadcast dims), Neg, Identity, Relu, Exp, Tanh,
 * Sigmoid.  A path through any other op is reported, not guessed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

typedef struct {
  acl__tensor *vals;  /* forward values, by tensor index */
  double **grads;     /* gradient buffers (numel of the value), NULL when none flows */
  size_t n;
} tape;

static void tape_free(tape *t) {
  for (size_t i = 0; i < t->n; i++) {
    acl__tensor_release(&t->vals[i]);
    free(t->grads[i]);
  }
  free(t->vals);
  free(t->grads);
}

/* Runs the nodes before the Gradient node on the bound values. */
static int forward(acl__op_ctx *ctx, tape *t) {
  const acl__graph *g = ctx->g;
  for (size_t i = 0; i < g->n_tensors; i++)
    if (g->tensors[i].kind == ACL__TENSOR_INITIALIZER && g->tensors[i].data != NULL) {
      acl__tensor *v = &t->vals[i];
      v->onnx_type = g->tensors[i].onnx_type;
      v->rank = g->tensors[i].rank;
      for (int d = 0; d < v->rank && d < ACL__EXEC_MAX_RANK; d++)
        v->dims[d] = g->tensors[i].dims[d].value;
      v->data = g->tensors[i].data;
      v->size = g->tensors[i].data_size;
    }
  const acl__tensor *ins[16];
  acl__tensor outs[16];
  for (int i = 0; i < ctx->node_index; i++) {
    const acl__graph_node *n = &g->nodes[i];
    acl__op_fn fn = n->domain[0] == '\0' ? acl__op_lookup(n->op_type, ctx->opset) : NULL;
    if (fn == NULL || n->n_inputs > 16 || n->n_outputs > 16)
      return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "cannot replay node %d (%s) for the gradient", i,
                          n->op_type);
    int ready = 1;
    for (size_t k = 0; k < n->n_inputs; k++) {
      ins[k] = n->inputs[k] >= 0 && acl__tensor_present(&t->vals[n->inputs[k]]) ? &t->vals[n->inputs[k]] : NULL;
      ready = ready && (n->inputs[k] < 0 || ins[k] != NULL);
    }
    if (!ready)
      continue; /* depends on something outside xs/zs: not on the path to y */
    memset(outs, 0, sizeof(outs));
    acl__op_ctx sub = {g, n, i, ctx->opset, ins, n->n_inputs, outs, n->n_outputs, ctx->diags};
    int rc = fn(&sub);
    for (size_t k = 0; k < n->n_outputs; k++) {
      if (rc == 0 && n->outputs[k] >= 0)
        t->vals[n->outputs[k]] = outs[k];
      else
        acl__tensor_release(&outs[k]);
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* Adds d(out)/d(in) * gout into the gradient of input `k` of node n, summing over broadcast dims. */
static int accumulate(acl__op_ctx *ctx, tape *t, const acl__graph_node *n, size_t k, const double *gout) {
  int ti = n->inputs[k];
  const acl__tensor *a = &t->vals[ti], *o = &t->vals[n->outputs[0]];
  const acl__tensor *b = n->n_inputs > 1 ? &t->vals[n->inputs[1 - k]] : NULL;
  if (t->grads[ti] == NULL) {
    t->grads[ti] = calloc((size_t)acl__tensor_numel(a) + 1, sizeof(double));
    if (t->grads[ti] == NULL)
      return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory for gradients");
  }
  int64_t sa[ACL__EXEC_MAX_RANK], sb[ACL__EXEC_MAX_RANK];
  acl__op_bcast_strides(a, o->rank, o->dims, sa);
  if (b != NULL)
    acl__op_bcast_strides(b, o->rank, o->dims, sb);
  const char *op = n->op_type;
  for (int64_t i = 0; i < acl__tensor_numel(o); i++) {
    int64_t ia = 0, ib = 0, rem = i;
    for (int d = o->rank - 1; d >= 0; d--) {
      int64_t c = rem % o->dims[d];
      rem /= o->dims[d];
      ia += c * sa[d];
      if (b != NULL)
        ib += c * sb[d];
    }
    double x = acl__op_get(a, ia), y = acl__op_get(o, i), other = b != NULL ? acl__op_get(b, ib) : 0, d;
    if (strcmp(op, "Add") == 0 || strcmp(op, "Identity") == 0)
      d = 1;
    else if (strcmp(op, "Sub") == 0)
      d = k == 0 ? 1 : -1;
    else if (strcmp(op, "Mul") == 0)
      d = other;
    else if (strcmp(op, "Div") == 0)
      d = k == 0 ? 1 / other : -other / (x * x); /* for k == 1, x is the divisor and other the dividend */
    else if (strcmp(op, "Neg") == 0)
      d = -1;
    else if (strcmp(op, "Relu") == 0)
      d = x > 0;
    else if (strcmp(op, "Exp") == 0)
      d = y;
    else if (strcmp(op, "Tanh") == 0)
      d = 1 - y * y;
    else if (strcmp(op, "Sigmoid") == 0)
      d = y * (1 - y);
    else
      return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "no gradient for %s (on the path to y)", op);
    t->grads[ti][ia] += d * gout[i];
  }
  return 0;
}

int acl__k_gradient(acl__op_ctx *ctx) {
  const acl__graph_attr *xs = acl__op_attr(ctx, "xs"), *zs = acl__op_attr(ctx, "zs");
  const char *yname = acl__op_attr_str(ctx, "y", NULL);
  if (xs == NULL || xs->type != ACL__ATTR_STRINGS || yname == NULL || (zs != NULL && zs->type != ACL__ATTR_STRINGS))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "needs the xs (strings) and y (string) attributes");
  size_t nz = zs != NULL ? zs->count : 0;
  int rc = acl__op_need(ctx, xs->count + nz);
  if (rc != 0)
    return rc;
  if (ctx->n_out != xs->count)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "%zu outputs for %zu xs", ctx->n_out, xs->count);
  int y = acl__graph_find(ctx->g, yname);
  if (y < 0)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "y \"%s\" is not a tensor of the graph", yname);
  tape t = {calloc(ctx->g->n_tensors, sizeof(acl__tensor)), calloc(ctx->g->n_tensors, sizeof(double *)),
            ctx->g->n_tensors};
  if (t.vals == NULL || t.grads == NULL) {
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory for gradients");
    goto out;
  }
  /* Bind xs and zs (borrowed: owned stays 0). */
  for (size_t i = 0; i < xs->count + nz; i++) {
    const char *name = i < xs->count ? xs->strings[i] : zs->strings[i - xs->count];
    int ti = acl__graph_find(ctx->g, name);
    if (ti < 0) {
      rc = acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "\"%s\" is not a tensor of the graph", name);
      goto out;
    }
    t.vals[ti] = *ctx->in[i];
    t.vals[ti].owned = 0;
  }
  rc = forward(ctx, &t);
  if (rc != 0)
    goto out;
  if (!acl__tensor_present(&t.vals[y])) {
    rc = acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "y \"%s\" does not depend on xs and zs alone", yname);
    goto out;
  }
  int64_t ny = acl__tensor_numel(&t.vals[y]);
  t.grads[y] = malloc(((size_t)ny + 1) * sizeof(double));
  if (t.grads[y] == NULL) {
    rc = acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "out of memory for gradients");
    goto out;
  }
  for (int64_t i = 0; i < ny; i++)
    t.grads[y][i] = 1;
  for (int i = ctx->node_index - 1; rc == 0 && i >= 0; i--) {
    const acl__graph_node *n = &ctx->g->nodes[i];
    if (n->n_outputs < 1 || n->outputs[0] < 0 || t.grads[n->outputs[0]] == NULL)
      continue;
    for (size_t k = 0; rc == 0 && k < n->n_inputs && k < 2; k++)
      if (n->inputs[k] >= 0 && (ctx->g->tensors[n->inputs[k]].kind != ACL__TENSOR_INITIALIZER))
        rc = accumulate(ctx, &t, n, k, t.grads[n->outputs[0]]);
  }
  for (size_t i = 0; rc == 0 && i < xs->count; i++) {
    const acl__tensor *x = ctx->in[i];
    const double *gx = t.grads[acl__graph_find(ctx->g, xs->strings[i])];
    rc = acl__op_alloc(ctx, i, x->onnx_type, x->rank, x->dims);
    for (int64_t e = 0; rc == 0 && e < acl__tensor_numel(x); e++)
      acl__op_set(&ctx->out[i], e, gx != NULL ? gx[e] : 0);
  }
out:
  if (t.vals != NULL && t.grads != NULL)
    tape_free(&t);
  else {
    free(t.vals);
    free(t.grads);
  }
  return rc;
}

/* BatchNormalization, training_mode=1 (opset 14+): normalises with the
 * batch's own per-channel mean and (population) variance, and returns the
 * running statistics updated with `momentum`:
 *   running = input_running * momentum + batch * (1 - momentum). */
int acl__op_batchnorm_training(acl__op_ctx *ctx) {
  const acl__tensor *x = ctx->in[0], *scale = ctx->in[1], *bias = ctx->in[2], *mean = ctx->in[3], *var = ctx->in[4];
  double eps = acl__op_attr_float(ctx, "epsilon", 1e-5f), mom = acl__op_attr_float(ctx, "momentum", 0.9f);
  if (x->rank < 2)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input rank %d: training needs (N, C, ...)", x->rank);
  int64_t N = x->dims[0], C = x->dims[1], sp = acl__op_numel(x->rank - 2, x->dims + 2);
  for (int i = 1; i < 5; i++)
    if (acl__tensor_numel(ctx->in[i]) < C)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input %d has fewer than C elements", i);
  int rc = acl__op_alloc(ctx, 0, x->onnx_type, x->rank, x->dims);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 1, mean->onnx_type, mean->rank, mean->dims);
  if (rc == 0)
    rc = acl__op_alloc(ctx, 2, var->onnx_type, var->rank, var->dims);
  for (int64_t c = 0; rc == 0 && c < C; c++) {
    double m = 0, v = 0, cnt = (double)(N * sp);
    for (int64_t n = 0; n < N; n++)
      for (int64_t i = 0; i < sp; i++)
        m += acl__op_get(x, (n * C + c) * sp + i);
    m /= cnt;
    for (int64_t n = 0; n < N; n++)
      for (int64_t i = 0; i < sp; i++) {
        double d = acl__op_get(x, (n * C + c) * sp + i) - m;
        v += d * d;
      }
    v /= cnt;
    double k = acl__op_get(scale, c) / sqrt(v + eps), b = acl__op_get(bias, c);
    for (int64_t n = 0; n < N; n++)
      for (int64_t i = 0; i < sp; i++) {
        int64_t e = (n * C + c) * sp + i;
        acl__op_set(&ctx->out[0], e, (acl__op_get(x, e) - m) * k + b);
      }
    if (ctx->n_out > 1 && ctx->out[1].data != NULL)
      acl__op_set(&ctx->out[1], c, acl__op_get(mean, c) * mom + m * (1 - mom));
    if (ctx->n_out > 2 && ctx->out[2].data != NULL)
      acl__op_set(&ctx->out[2], c, acl__op_get(var, c) * mom + v * (1 - mom));
  }
  return rc;
}

/* ---- ai.onnx.preview.training optimizers: Adagrad, Momentum, Adam ---------- */

/* Inputs: R (learning rate), T (update count), then n tensors each of X, G
 * and the n (Adagrad, Momentum) or 2n (Adam) state tensors; outputs: the n
 * new X, then the new states.  Formulas as in the ONNX operator docs; the
 * arithmetic is in double. */
int acl__k_optimizer(acl__op_ctx *ctx) {
  const char *op = ctx->node->op_type;
  int adam = strcmp(op, "Adam") == 0, momentum = strcmp(op, "Momentum") == 0;
  size_t per = adam ? 4 : 3; /* X, G, then one or two states */
  if (ctx->n_in < 2 + per || (ctx->n_in - 2) % per != 0 || ctx->n_out != ctx->n_in - 2 - (ctx->n_in - 2) / per)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "%zu inputs and %zu outputs do not fit %s", ctx->n_in,
                        ctx->n_out, op);
  int rc = acl__op_need(ctx, ctx->n_in);
  if (rc != 0)
    return rc;
  size_t n = (ctx->n_in - 2) / per;
  double r = acl__op_get(ctx->in[0], 0), t = (double)acl__op_get_i64(ctx->in[1], 0);
  double norm = acl__op_attr_float(ctx, "norm_coefficient", 0);
  double eps = acl__op_attr_float(ctx, "epsilon", 1e-6f);
  double alpha = acl__op_attr_float(ctx, "alpha", adam ? 0.9f : 0);
  double beta = acl__op_attr_float(ctx, "beta", adam ? 0.999f : 0);
  int nesterov = momentum && strcmp(acl__op_attr_str(ctx, "mode", "standard"), "nesterov") == 0;
  if (!adam && !momentum)
    r = r / (1 + t * acl__op_attr_float(ctx, "decay_factor", 0));
  if (adam && t > 0)
    r = r * sqrt(1 - pow(beta, t)) / (1 - pow(alpha, t));
  double post = adam ? acl__op_attr_float(ctx, "norm_coefficient_post", 0) : 0;
  for (size_t k = 0; rc == 0 && k < n; k++) {
    const acl__tensor *x = ctx->in[2 + k], *g = ctx->in[2 + n + k], *s1 = ctx->in[2 + 2 * n + k];
    const acl__tensor *s2 = adam ? ctx->in[2 + 3 * n + k] : NULL;
    int64_t m = acl__tensor_numel(x);
    if (acl__tensor_numel(g) != m || acl__tensor_numel(s1) != m || (s2 != NULL && acl__tensor_numel(s2) != m))
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "tensor group %zu: X, G and the states differ in size", k);
    rc = acl__op_alloc(ctx, k, x->onnx_type, x->rank, x->dims);
    if (rc == 0)
      rc = acl__op_alloc(ctx, n + k, s1->onnx_type, s1->rank, s1->dims);
    if (rc == 0 && adam)
      rc = acl__op_alloc(ctx, 2 * n + k, s2->onnx_type, s2->rank, s2->dims);
    for (int64_t i = 0; rc == 0 && i < m; i++) {
      double xv = acl__op_get(x, i), gr = norm * xv + acl__op_get(g, i), a = acl__op_get(s1, i), xn;
      if (adam) {
        double v = alpha * a + (1 - alpha) * gr, h = beta * acl__op_get(s2, i) + (1 - beta) * gr * gr;
        xn = (1 - post) * (xv - r * v / (sqrt(h) + eps));
        acl__op_set(&ctx->out[n + k], i, v);
        acl__op_set(&ctx->out[2 * n + k], i, h);
      } else if (momentum) {
        double v = alpha * a + (t > 0 ? beta : 1) * gr;
        xn = nesterov ? xv - r * (gr + alpha * v) : xv - r * v;
        acl__op_set(&ctx->out[n + k], i, v);
      } else {
        double h = a + gr * gr;
        xn = xv - r * gr / (sqrt(h) + eps);
        acl__op_set(&ctx->out[n + k], i, h);
      }
      acl__op_set(&ctx->out[k], i, xn);
    }
  }
  return rc;
}
