/*
 * dnnl_ops.c - the operators that run on oneDNN, and the fusions around
 * them.  Each builder checks that oneDNN can take the node as it is (float32,
 * supported attributes, constant weights where the primitive needs them);
 * if not it returns 1 and the plan runs the reference kernel instead, so
 * every unusual case stays correct.
 *
 * Fusions, decided here because they depend on layouts and lifetimes:
 *  - Conv -> Add(residual) -> activation: the convolution accumulates into
 *    the residual tensor's buffer (a "sum" post-op) when that tensor is read
 *    by nothing else afterwards, then applies the activation;
 *  - Conv / Gemm / MatMul / binary -> activation (an eltwise post-op; GELU
 *    as exported, five nodes, included);
 *  - MatMul -> Add(constant bias over the last axis) or a constant scale ->
 *    Add(residual, accumulated in place as for Conv) -> activation;
 *  - Transpose -> MatMul: the product reads the transposed view in place,
 *    and MatMul -> Transpose: the product writes the transposed order
 *    (attention's heads split and merged without copies);
 *  - Concat(channels) -> BatchNormalization -> Relu: one pass of an engine
 *    kernel (kernels.c) that never writes the concatenation (DenseNet).
 * Weights are reordered once, when the plan is built, into the layout the
 * chosen convolution implementation prefers.
 *
 * This file is the one thin layer over oneDNN 2.x's C API (Debian's
 * libdnnl-dev 2.6): 3.x changed operation descriptors and post-ops, so a
 * port touches this file and plan.c's reorder/instance code only.
 */
#include "model/engine/engine_internal.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

typedef struct post {
  int n;
  struct { dnnl_alg_kind_t alg; float a, b; } e[2];
} post;

static eng_val *V(eng_build *b, int v) {
  return &b->p->vals[v];
}

static const acl__graph_node *N(eng_build *b, int ni) {
  return &b->e->g->nodes[ni];
}

static int op_is(eng_build *b, int ni, const char *op) {
  return N(b, ni)->domain[0] == '\0' && strcmp(N(b, ni)->op_type, op) == 0;
}

/* OPENACL_CONV_WINOGRAD=0 keeps every convolution on oneDNN's direct
 * algorithm (for comparisons; the default lets dnnl_ops.c pick Winograd
 * where it pays). */
static pthread_once_t wino_once = PTHREAD_ONCE_INIT;
static int wino_on = 1;

static void wino_read(void) {
  const char *v = getenv("OPENACL_CONV_WINOGRAD");
  wino_on = v == NULL || v[0] == '\0' || strcmp(v, "0") != 0;
}

int acl__eng_winograd_on(void) {
  pthread_once(&wino_once, wino_read);
  return wino_on;
}

/* A float32 tensor oneDNN can describe, held as float32 (not a quantised
 * value: operators that read md directly would take its integers for
 * floats; they get it through a scaling reorder instead). */
static int f32(eng_build *b, int v) {
  return v >= 0 && V(b, v)->onnx_type == ACL__ONNX_FLOAT && V(b, v)->qscale == 0 && V(b, v)->rank >= 1 &&
         V(b, v)->rank <= DNNL_MAX_NDIMS && acl__op_numel(V(b, v)->rank, V(b, v)->dims) > 0;
}

/* f32, also a scalar (rank 0), which binary operations broadcast. */
static int f32_or_scalar(eng_build *b, int v) {
  return f32(b, v) || (v >= 0 && V(b, v)->onnx_type == ACL__ONNX_FLOAT && V(b, v)->qscale == 0 && V(b, v)->rank == 0);
}

static int same_dims(const eng_val *x, int rank, const int64_t *dims) {
  return x->rank == rank && memcmp(x->dims, dims, sizeof(int64_t) * (size_t)rank) == 0;
}

/* The output value of node ni (output k), rewrites applied. */
static int out_of(eng_build *b, int ni, int k) {
  return acl__eng_resolve(b->e, N(b, ni)->outputs[k]);
}

/* Defines value v as an arena tensor of the given shape and layout. */
/* Whether md lays out `dims` densely in row-major order, whatever strides it
 * gives dimensions of size 1 (oneDNN may choose any there, and then two
 * equal layouts compare unequal and a binary falls back to its slow
 * reference implementation). */
static int plain_equivalent(const dnnl_memory_desc_t *md, const dnnl_memory_desc_t *plain) {
  if (md->data_type != plain->data_type || md->format_kind != dnnl_blocked || md->format_desc.blocking.inner_nblks != 0 || md->ndims != plain->ndims ||
      md->offset0 != 0 || md->extra.flags != 0)
    return 0;
  for (int k = 0; k < md->ndims; k++)
    if (md->dims[k] != plain->dims[k] || md->padded_dims[k] != plain->padded_dims[k] ||
        (md->dims[k] > 1 && md->format_desc.blocking.strides[k] != plain->format_desc.blocking.strides[k]))
      return 0;
  return 1;
}

static void define(eng_build *b, int v, int rank, const int64_t *dims, const dnnl_memory_desc_t *md) {
  eng_val *x = V(b, v);
  x->kind = ENG_ARENA;
  x->onnx_type = ACL__ONNX_FLOAT;
  x->rank = rank;
  memcpy(x->dims, dims, sizeof(int64_t) * (size_t)rank);
  dnnl_memory_desc_t plain;
  acl__eng_plain_md(&plain, rank, dims);
  x->plain = dnnl_memory_desc_equal(md, &plain) || plain_equivalent(md, &plain);
  x->md = x->plain ? plain : *md;
  x->bytes = dnnl_memory_desc_get_size(&x->md);
}

/* v is written by another value's step: its bytes are base's. */
static void define_view(eng_build *b, int v, int base, int rank, const int64_t *dims, const dnnl_memory_desc_t *md) {
  define(b, v, rank, dims, md);
  V(b, v)->kind = ENG_VIEW;
  V(b, v)->base = base;
}

/* A new view of v's bytes with another md (plain v reshaped, a strided or
 * permuted description); -1 when out of memory. */
static int view_as(eng_build *b, int v, int rank, const int64_t *dims, const dnnl_memory_desc_t *md) {
  /* dims and md may point into the value table, which a new value can move */
  int64_t d[ACL__EXEC_MAX_RANK];
  dnnl_memory_desc_t m = *md;
  memcpy(d, dims, sizeof(int64_t) * (size_t)rank);
  int n = acl__eng_val_new(b->p);
  if (n < 0)
    return -1;
  define_view(b, n, v, rank, d, &m);
  if (V(b, v)->kind == ENG_CONST) {
    /* views of constants stay constants, so instances point at their data */
    eng_val *x = V(b, n), *c = V(b, v);
    x->kind = ENG_CONST;
    x->base = -1;
    x->konst = c->konst;
    x->konst.owned = 0;
  }
  return n;
}

/* A plain view of v with leading 1s up to rank r. */
static int padded(eng_build *b, int v, int r) {
  int pv = acl__eng_plain(b, v);
  if (pv < 0)
    return -1;
  const eng_val *x = V(b, pv);
  if (x->rank == r)
    return pv;
  int64_t d[DNNL_MAX_NDIMS];
  int lead = r - x->rank;
  for (int k = 0; k < r; k++)
    d[k] = k < lead ? 1 : x->dims[k - lead];
  dnnl_memory_desc_t md;
  acl__eng_plain_md(&md, r, d);
  return view_as(b, pv, r, d, &md);
}

static acl__op_ctx ctx_of(eng_build *b, int ni, acl__diags *d) {
  acl__op_ctx c = {b->e->g, N(b, ni), ni, b->e->opset, NULL, 0, NULL, 0, d};
  return c;
}

/* The only later node that reads v, or -1 (v read by more nodes, or a graph
 * output). */
static int single_next(eng_build *b, int ni, int v) {
  if (v < 0 || b->uses_left[v] != 1 || V(b, v)->graph_output)
    return -1;
  const acl__graph *g = b->e->g;
  for (size_t j = (size_t)ni + 1; j < g->n_nodes; j++) {
    if (b->e->dead[j] || b->skip[j])
      continue;
    for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
      if (acl__eng_resolve(b->e, g->nodes[j].inputs[k]) == v)
        return (int)j;
  }
  return -1;
}

/* Like single_next, but Shape and Size nodes do not count: they read only
 * v's dimensions (exporters compute the next Reshape's shape from them), and
 * the plan turns them into constants. */
static int data_next(eng_build *b, int ni, int v) {
  if (v < 0 || V(b, v)->graph_output)
    return -1;
  const acl__graph *g = b->e->g;
  int found = -1, reads = 0;
  for (size_t j = (size_t)ni + 1; j < g->n_nodes; j++) {
    if (b->e->dead[j] || b->skip[j])
      continue;
    int shape_only = op_is(b, (int)j, "Shape") || op_is(b, (int)j, "Size");
    for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
      if (acl__eng_resolve(b->e, g->nodes[j].inputs[k]) == v) {
        reads++;
        if (shape_only)
          continue;
        if (found >= 0)
          return -1;
        found = (int)j;
      }
  }
  return reads == b->uses_left[v] ? found : -1;
}

/* Whether every later reader of v is a convolution reading it as its data:
 * then a bfloat16 convolution may write v in bfloat16 and lose nothing, as
 * its readers round it so anyway, and no reorder runs between them. */
static int only_convs_read(eng_build *b, int ni, int v) {
  if (v < 0 || b->uses_left[v] < 1 || V(b, v)->graph_output)
    return 0;
  const acl__graph *g = b->e->g;
  int found = 0;
  for (size_t j = (size_t)ni + 1; j < g->n_nodes; j++) {
    if (b->e->dead[j] || b->skip[j])
      continue;
    for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
      if (acl__eng_resolve(b->e, g->nodes[j].inputs[k]) == v) {
        if (k != 0 || !op_is(b, (int)j, "Conv"))
          return 0;
        found++;
      }
  }
  return found == b->uses_left[v];
}

/* Whether the Add about to be fused is the last reader of v's bytes: v is
 * an arena buffer (or a view of one, such as an activation fused into the
 * convolution that wrote it) that no later node reads through any name and
 * the caller does not read either.  Only then may a convolution accumulate
 * into it. */
static int only_reader_left(eng_build *b, int v) {
  int r = v;
  while (V(b, r)->kind == ENG_VIEW)
    r = V(b, r)->base;
  if (V(b, r)->kind != ENG_ARENA)
    return 0;
  int reads = 0;
  for (int u = 0; u < b->p->n_vals; u++) {
    int ur = u;
    while (V(b, ur)->kind == ENG_VIEW)
      ur = V(b, ur)->base;
    if (ur != r)
      continue;
    if (V(b, u)->graph_output)
      return 0;
    reads += u < b->p->n_vals && u < (int)(b->e->g->n_tensors) + b->e->n_extra ? b->uses_left[u] : 0;
  }
  return reads == 1 && b->uses_left[v] == 1;
}

static int const_scalar(eng_build *b, int v, float *out) {
  if (v < 0 || V(b, v)->kind != ENG_CONST || V(b, v)->onnx_type != ACL__ONNX_FLOAT ||
      acl__op_numel(V(b, v)->rank, V(b, v)->dims) != 1)
    return 0;
  *out = *(const float *)V(b, v)->konst.data;
  return 1;
}

/* Node ni as eltwise operations on its first input; 0 when it is not one. */
static int activation(eng_build *b, int ni, post *po) {
  const acl__graph_node *n = N(b, ni);
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  po->n = 0;
  if (n->domain[0] != '\0' || n->n_outputs != 1 || n->n_inputs < 1)
    return 0;
  const char *op = n->op_type;
#define E(alg_, a_, b_) (po->e[po->n].alg = (alg_), po->e[po->n].a = (a_), po->e[po->n].b = (b_), po->n++)
  if (strcmp(op, "Relu") == 0)
    E(dnnl_eltwise_relu, 0.f, 0.f);
  else if (strcmp(op, "LeakyRelu") == 0)
    E(dnnl_eltwise_relu, acl__op_attr_float(&c, "alpha", 0.01f), 0.f);
  else if (strcmp(op, "Sigmoid") == 0)
    E(dnnl_eltwise_logistic, 0.f, 0.f);
  else if (strcmp(op, "Tanh") == 0)
    E(dnnl_eltwise_tanh, 0.f, 0.f);
  else if (strcmp(op, "Elu") == 0)
    E(dnnl_eltwise_elu, acl__op_attr_float(&c, "alpha", 1.f), 0.f);
  else if (strcmp(op, "HardSwish") == 0)
    E(dnnl_eltwise_hardswish, 0.f, 0.f);
  else if (strcmp(op, "Exp") == 0)
    E(dnnl_eltwise_exp, 0.f, 0.f);
  else if (strcmp(op, "Sqrt") == 0)
    E(dnnl_eltwise_sqrt, 0.f, 0.f);
  else if (strcmp(op, "Abs") == 0)
    E(dnnl_eltwise_abs, 0.f, 0.f);
  else if (strcmp(op, "Neg") == 0)
    E(dnnl_eltwise_linear, -1.f, 0.f);
  else if (strcmp(op, "HardSigmoid") == 0) {
    E(dnnl_eltwise_linear, acl__op_attr_float(&c, "alpha", 0.2f), acl__op_attr_float(&c, "beta", 0.5f));
    E(dnnl_eltwise_clip_v2, 0.f, 1.f);
  } else if (strcmp(op, "Clip") == 0) {
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (b->e->opset < 11) {
      lo = acl__op_attr_float(&c, "min", lo);
      hi = acl__op_attr_float(&c, "max", hi);
    } else {
      int vl = n->n_inputs > 1 ? acl__eng_resolve(b->e, n->inputs[1]) : -1;
      int vh = n->n_inputs > 2 ? acl__eng_resolve(b->e, n->inputs[2]) : -1;
      if ((vl >= 0 && !const_scalar(b, vl, &lo)) || (vh >= 0 && !const_scalar(b, vh, &hi)))
        return 0;
    }
    E(dnnl_eltwise_clip_v2, lo, hi);
  }
#undef E
  acl__diags_free(&d);
  return po->n;
}

/* Primitive attributes: user scratchpad, and post-ops. */
static dnnl_primitive_attr_t make_attr(int sum, const post *po, const dnnl_memory_desc_t *bin_md, float scale) {
  dnnl_primitive_attr_t a = NULL;
  if (dnnl_primitive_attr_create(&a) != dnnl_success)
    return NULL;
  dnnl_primitive_attr_set_scratchpad_mode(a, dnnl_scratchpad_mode_user);
  if (scale != 1.f)
    dnnl_primitive_attr_set_output_scales(a, 1, 0, &scale);
  if (sum || bin_md != NULL || (po != NULL && po->n > 0)) {
    dnnl_post_ops_t ops = NULL;
    dnnl_post_ops_create(&ops);
    if (sum)
      dnnl_post_ops_append_sum(ops, 1.f);
    if (bin_md != NULL)
      dnnl_post_ops_append_binary(ops, dnnl_binary_add, bin_md);
    for (int i = 0; po != NULL && i < po->n; i++)
      dnnl_post_ops_append_eltwise(ops, 1.f, po->e[i].alg, po->e[i].a, po->e[i].b);
    dnnl_primitive_attr_set_post_ops(a, ops);
    dnnl_post_ops_destroy(ops);
  }
  return a;
}

/* x * Sigmoid(x) (SiLU, Swish) and x * HardSigmoid(x) with alpha 1/6 and
 * beta 1/2 (HardSwish as exported before opset 14): `act` is the Sigmoid or
 * HardSigmoid node reading v.  Returns the Mul node that completes the
 * pattern and sets *alg, or -1.  v must be read by nothing else (counted by
 * the caller), and the activation's output by the Mul only. */
static int swish_mul(eng_build *b, int act, int v, dnnl_alg_kind_t *alg) {
  const acl__graph_node *n = N(b, act);
  if (n->domain[0] != '\0' || n->n_inputs != 1 || n->n_outputs != 1 || acl__eng_resolve(b->e, n->inputs[0]) != v)
    return -1;
  if (strcmp(n->op_type, "Sigmoid") == 0) {
    *alg = dnnl_eltwise_swish;
  } else if (strcmp(n->op_type, "HardSigmoid") == 0) {
    acl__diags d = {0};
    acl__op_ctx c = ctx_of(b, act, &d);
    float alpha = acl__op_attr_float(&c, "alpha", 0.2f), beta = acl__op_attr_float(&c, "beta", 0.5f);
    acl__diags_free(&d);
    if (!(alpha > 0.1666666f && alpha < 0.1666668f) || beta != 0.5f)
      return -1;
    *alg = dnnl_eltwise_hardswish;
  } else {
    return -1;
  }
  int s = out_of(b, act, 0);
  int m = single_next(b, act, s);
  if (m < 0 || !op_is(b, m, "Mul") || N(b, m)->n_inputs != 2)
    return -1;
  int a0 = acl__eng_resolve(b->e, N(b, m)->inputs[0]), a1 = acl__eng_resolve(b->e, N(b, m)->inputs[1]);
  return (a0 == v && a1 == s) || (a0 == s && a1 == v) ? m : -1;
}

static int in_of(eng_build *b, int ni, size_t k) {
  return k < N(b, ni)->n_inputs ? acl__eng_resolve(b->e, N(b, ni)->inputs[k]) : -1;
}

/* The next node of `op` reading v as its only later reader, or -1. */
static int next_op(eng_build *b, int ni, int v, const char *op) {
  int c = single_next(b, ni, v);
  return c >= 0 && op_is(b, c, op) ? c : -1;
}

/* The operand of binary node c that is not v, or -1 (also when both are v). */
static int other_in(eng_build *b, int c, int v) {
  int a0 = in_of(b, c, 0), a1 = in_of(b, c, 1);
  if (N(b, c)->n_inputs != 2 || a0 == a1)
    return -1;
  return a0 == v ? a1 : a1 == v ? a0 : -1;
}

static int near(float a, float want) {
  return a > want - 1e-3f * (want > 0 ? want : -want) - 1e-6f && a < want + 1e-3f * (want > 0 ? want : -want) + 1e-6f;
}

/* GELU as PyTorch exports it, y = x * (Erf(x / sqrt(2)) + 1) * 0.5, starting
 * at the Div node dv that reads x: 1 and its five nodes in order (Div, Erf,
 * Add, Mul by x, Mul by 0.5) in chain, or 0. */
static int gelu_match(eng_build *b, int dv, int x, int chain[5]) {
  float c = 0, one = 0, half = 0;
  if (!op_is(b, dv, "Div") || N(b, dv)->n_inputs != 2 || in_of(b, dv, 0) != x ||
      !const_scalar(b, in_of(b, dv, 1), &c) || !near(c, 1.41421356f))
    return 0;
  int e = next_op(b, dv, out_of(b, dv, 0), "Erf");
  int a = e >= 0 ? next_op(b, e, out_of(b, e, 0), "Add") : -1;
  if (a < 0 || !const_scalar(b, other_in(b, a, out_of(b, e, 0)), &one) || one != 1.0f)
    return 0;
  int m1 = next_op(b, a, out_of(b, a, 0), "Mul");
  if (m1 < 0 || other_in(b, m1, out_of(b, a, 0)) != x)
    return 0;
  int m2 = next_op(b, m1, out_of(b, m1, 0), "Mul");
  if (m2 < 0 || !const_scalar(b, other_in(b, m2, out_of(b, m1, 0)), &half) || half != 0.5f)
    return 0;
  chain[0] = dv, chain[1] = e, chain[2] = a, chain[3] = m1, chain[4] = m2;
  return 1;
}

/* The nodes of an activation a primitive absorbs, in graph order: the
 * activation (or the pattern's first node), the pattern's middle nodes, and
 * the Mul that completes a Swish / HardSwish / GELU pattern; -1 where none. */
typedef struct tail {
  int act, mid[3], mul;
} tail;

static const tail no_tail = {-1, {-1, -1, -1}, -1};

/* The tail a primitive writing `out` can absorb: an activation node after
 * it, or a Swish / HardSwish pair (the activation and the Mul), or the five
 * nodes of an exported GELU.  1 when there is one. */
static int tail_activation(eng_build *b, int ni, int out, post *po, tail *t) {
  *t = no_tail;
  t->act = single_next(b, ni, out);
  if (t->act >= 0 && activation(b, t->act, po) > 0)
    return 1;
  po->n = 0;
  t->act = -1;
  /* out read twice: by the activation and by the Mul */
  if (out >= 0 && b->uses_left[out] == 2 && !V(b, out)->graph_output) {
    const acl__graph *g = b->e->g;
    for (size_t j = (size_t)ni + 1; j < g->n_nodes && t->act < 0; j++) {
      if (b->e->dead[j] || b->skip[j])
        continue;
      for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
        if (acl__eng_resolve(b->e, g->nodes[j].inputs[k]) == out) {
          dnnl_alg_kind_t alg;
          int m = swish_mul(b, (int)j, out, &alg), chain[5];
          if (m >= 0) {
            t->act = (int)j;
            t->mul = m;
            po->n = 1;
            po->e[0].alg = alg;
            po->e[0].a = alg == dnnl_eltwise_swish ? 1.f : 0.f;
            po->e[0].b = 0.f;
            return 1;
          }
          if (gelu_match(b, (int)j, out, chain)) {
            t->act = chain[0];
            memcpy(t->mid, chain + 1, sizeof(t->mid));
            t->mul = chain[4];
            po->n = 1;
            po->e[0].alg = dnnl_eltwise_gelu_erf;
            po->e[0].a = po->e[0].b = 0.f;
            return 1;
          }
          j = g->n_nodes; /* the first reader decides */
          break;
        }
    }
  }
  return 0;
}

/* The value the tail's last node writes, or `out` when there is no tail. */
static int tail_out(eng_build *b, const tail *t, int out) {
  return t->mul >= 0 ? out_of(b, t->mul, 0) : t->act >= 0 ? out_of(b, t->act, 0) : out;
}

static void absorb(eng_build *b, int node, int final);

static void absorb_tail(eng_build *b, const tail *t, int final) {
  absorb(b, t->act, final);
  for (int k = 0; k < 3; k++)
    absorb(b, t->mid[k], final);
  absorb(b, t->mul, final);
}

/* Marks the fused nodes and makes their outputs views of `final`. */
static void absorb(eng_build *b, int node, int final) {
  if (node < 0)
    return;
  b->skip[node] = 1;
  b->p->fused++;
  /* the reads the plan counted for it: a convolution's folded weights and bias in place of its own */
  const int *cw = b->e->conv_w, *cb = b->e->conv_b;
  for (size_t k = 0; k < N(b, node)->n_inputs || (k == 2 && cb[node] >= 0); k++) {
    int v = k == 1 && cw[node] >= 0 ? cw[node]
            : k == 2 && cb[node] >= 0 ? cb[node]
                                      : acl__eng_resolve(b->e, N(b, node)->inputs[k]);
    if (v >= 0)
      b->uses_left[v]--;
  }
  int o = out_of(b, node, 0);
  if (o >= 0 && o != final) {
    const eng_val *f = V(b, final);
    define_view(b, o, final, f->rank, f->dims, &f->md);
  }
}

/* Whether a primitive writing `numel` floats should leave its activation
 * po (a Swish or GELU post-op) to a step of the engine's own kernel
 * (vec512.c), which then takes the activation's nodes as they come: on
 * outputs of 64 Ki floats or more, where the CPU has AVX-512, in float32.
 * oneDNN 2.6's post-ops cost 0.34 ns per element for swish (a 1x1
 * convolution to 112 x 112 x 96: 0.85 ms without, 1.26 with) and 0.42 for
 * gelu_erf (ConvNeXt's first MLP: 0.85 against 1.33 ms), the separate step
 * about half that (EfficientNet-B0 at batch 1 3 %, ConvNeXt-T 5-7 %
 * faster); on small outputs a step's fixed cost is more than the post-op's. */
static int own_activation(eng_build *b, const post *po, int64_t numel) {
  return po->n == 1 && (po->e[0].alg == dnnl_eltwise_swish || po->e[0].alg == dnnl_eltwise_gelu_erf) &&
         numel >= 65536 && !b->e->bf16 && acl__eng_vec512();
}

/* A constant value holding src's data reordered into md (weights).  The
 * copy of a model's weight is the engine's, shared by its plans (weights.c). */
static int const_reordered(eng_build *b, int src, const dnnl_memory_desc_t *src_md, const dnnl_memory_desc_t *md) {
  if (dnnl_memory_desc_equal(src_md, md))
    return view_as(b, src, V(b, src)->rank, V(b, src)->dims, md);
  int id = acl__eng_weight_id(b->e, V(b, src)->konst.data);
  size_t bytes = dnnl_memory_desc_get_size(md);
  void *buf = id >= 0 ? (void *)acl__eng_wcopy_find(b->e, id, src_md, md) : NULL;
  int shared = buf != NULL, ok = shared;
  if (!shared && posix_memalign(&buf, 64, bytes ? bytes : 1) != 0)
    return -1;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_t pr = NULL;
  dnnl_memory_t ms = NULL, md_mem = NULL;
  dnnl_stream_t st = NULL;
  if (!shared && dnnl_reorder_primitive_desc_create(&pd, src_md, b->e->dnnl, md, b->e->dnnl, NULL) == dnnl_success &&
      dnnl_primitive_create(&pr, pd) == dnnl_success &&
      dnnl_memory_create(&ms, src_md, b->e->dnnl, V(b, src)->konst.data) == dnnl_success &&
      dnnl_memory_create(&md_mem, md, b->e->dnnl, buf) == dnnl_success &&
      dnnl_stream_create(&st, b->e->dnnl, dnnl_stream_default_flags) == dnnl_success) {
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, ms}, {DNNL_ARG_TO, md_mem}};
    ok = dnnl_primitive_execute(pr, st, 2, args) == dnnl_success && dnnl_stream_wait(st) == dnnl_success;
  }
  if (st)
    dnnl_stream_destroy(st);
  if (ms)
    dnnl_memory_destroy(ms);
  if (md_mem)
    dnnl_memory_destroy(md_mem);
  if (pr)
    dnnl_primitive_destroy(pr);
  if (pd)
    dnnl_primitive_desc_destroy(pd);
  if (ok && !shared && id >= 0 && acl__eng_wcopy_add(b->e, id, src_md, md, buf) == 0) {
    shared = 1;
    acl__eng_weight_copied(b->e, id);
  }
  int v = ok ? acl__eng_val_new(b->p) : -1;
  if (v < 0) {
    if (!shared)
      free(buf);
    return -1;
  }
  eng_val *x = V(b, v);
  const eng_val *s = V(b, src);
  x->kind = ENG_CONST;
  x->onnx_type = ACL__ONNX_FLOAT;
  x->rank = s->rank;
  memcpy(x->dims, s->dims, sizeof(x->dims));
  x->md = *md;
  x->bytes = bytes;
  x->konst.onnx_type = ACL__ONNX_FLOAT;
  x->konst.rank = s->rank;
  memcpy(x->konst.dims, s->dims, sizeof(x->konst.dims));
  x->konst.data = buf;
  x->konst.size = bytes;
  x->konst.owned = !shared;
  return v;
}

/* src's value in the layout md, reordering when it differs. */
static int in_layout(eng_build *b, int src, const dnnl_memory_desc_t *md) {
  if (dnnl_memory_desc_equal(&V(b, src)->md, md))
    return src;
  /* DenseNet's concatenations read each earlier output again and again */
  int c = V(b, src)->layout_copy;
  if (c >= 0 && dnnl_memory_desc_equal(&V(b, c)->md, md))
    return c;
  c = acl__eng_reorder(b, src, md);
  if (c >= 0)
    V(b, src)->layout_copy = c;
  return c;
}

static void md_any_dt(dnnl_memory_desc_t *md, int rank, const int64_t *dims, dnnl_data_type_t dt) {
  dnnl_dims_t d;
  for (int k = 0; k < rank; k++)
    d[k] = dims[k];
  dnnl_memory_desc_init_by_tag(md, rank, d, dt, dnnl_format_tag_any);
}

static void md_any(dnnl_memory_desc_t *md, int rank, const int64_t *dims) {
  md_any_dt(md, rank, dims, dnnl_f32);
}

/* ---- QuantizeLinear / DequantizeLinear ------------------------------------- */

/* The scale and 8-bit type of a (De)QuantizeLinear whose scale is one
 * constant float32 and whose zero point is absent or a constant 0 (the
 * symmetric quantisation int8 convolutions run on); 0 otherwise.  For a
 * DequantizeLinear the type is its input's. */
static int qparams(eng_build *b, const int *ins, size_t nin, int in_type, float *scale, int *type) {
  if (nin < 2 || ins[1] < 0 || V(b, ins[1])->kind != ENG_CONST || V(b, ins[1])->onnx_type != ACL__ONNX_FLOAT ||
      acl__op_numel(V(b, ins[1])->rank, V(b, ins[1])->dims) != 1)
    return 0;
  *scale = *(const float *)V(b, ins[1])->konst.data;
  if (!(*scale > 0) || !isfinite(*scale))
    return 0;
  *type = in_type != 0 ? in_type : ACL__ONNX_UINT8; /* QuantizeLinear without a zero point: uint8 */
  if (nin > 2 && ins[2] >= 0) {
    const eng_val *z = V(b, ins[2]);
    if (z->kind != ENG_CONST || acl__op_numel(z->rank, z->dims) != 1 ||
        (z->onnx_type != ACL__ONNX_UINT8 && z->onnx_type != ACL__ONNX_INT8) || *(const uint8_t *)z->konst.data != 0 ||
        (in_type != 0 && z->onnx_type != in_type))
      return 0;
    *type = z->onnx_type;
  }
  return *type == ACL__ONNX_UINT8 || *type == ACL__ONNX_INT8;
}

/* QuantizeLinear of float32 x: one reorder into 8 bits in x's layout,
 * multiplied by 1 / scale (oneDNN rounds half to even and saturates, as
 * ONNX asks; multiplying by the reciprocal instead of dividing can move a
 * value that lies exactly between two steps by one step). */
static int quantize(eng_build *b, int ni, const int *ins, size_t nin) {
  float scale;
  int type, x = ins[0];
  if (!f32(b, x) || V(b, x)->md.ndims == 0 || !qparams(b, ins, nin, 0, &scale, &type))
    return 1;
  dnnl_memory_desc_t md = V(b, x)->md;
  md.data_type = acl__eng_dnnl_type(type);
  float inv = 1.f / scale;
  dnnl_primitive_attr_t attr = NULL;
  dnnl_primitive_desc_t pd = NULL;
  if (dnnl_primitive_attr_create(&attr) != dnnl_success)
    return ACL_ERROR_BAD_ALLOC;
  if (dnnl_primitive_attr_set_output_scales(attr, 1, 0, &inv) != dnnl_success ||
      dnnl_reorder_primitive_desc_create(&pd, &V(b, x)->md, b->e->dnnl, &md, b->e->dnnl, attr) != dnnl_success)
    pd = NULL;
  dnnl_primitive_attr_destroy(attr);
  if (pd == NULL)
    return 1;
  int y = out_of(b, ni, 0);
  eng_val *Y = V(b, y);
  Y->kind = ENG_ARENA;
  Y->onnx_type = type;
  Y->rank = V(b, x)->rank;
  memcpy(Y->dims, V(b, x)->dims, sizeof(Y->dims));
  Y->md = md;
  Y->bytes = dnnl_memory_desc_get_size(&md);
  dnnl_memory_desc_t plain;
  acl__eng_val_plain_md(Y, &plain);
  Y->plain = dnnl_memory_desc_equal(&md, &plain);
  eng_arg args[2] = {{DNNL_ARG_FROM, x}, {DNNL_ARG_TO, y}};
  int rc = acl__eng_prim_step(b, pd, args, 2, "quantize");
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* DequantizeLinear of 8-bit data a oneDNN step wrote: no step, a view of the
 * same bytes marked with the scale (eng_val.qscale).  An int8 convolution
 * reads it as it is; every other reader gets a reorder that scales it to
 * float32 (the dequantisation, done where it is needed, in the layout it is
 * needed in). */
static int dequantize(eng_build *b, int ni, const int *ins, size_t nin) {
  float scale;
  int type, q = ins[0];
  if (q < 0 || (V(b, q)->kind != ENG_ARENA && V(b, q)->kind != ENG_VIEW) || V(b, q)->md.ndims == 0 ||
      V(b, q)->qscale != 0 || !qparams(b, ins, nin, V(b, q)->onnx_type, &scale, &type))
    return 1;
  int y = out_of(b, ni, 0);
  define_view(b, y, q, V(b, q)->rank, V(b, q)->dims, &V(b, q)->md);
  V(b, y)->plain = 0;
  V(b, y)->qscale = scale;
  return 0;
}

/* The int8 weights of convolution ni: its weight input is a
 * DequantizeLinear of a constant int8 tensor along axis 0 (one scale per
 * output channel, or one for all) with zero points 0.  The value of those
 * integers, and the scales (*n of them), or -1. */
static int int8_weights(eng_build *b, int ni, int64_t oc, const float **scales, int64_t *n) {
  const acl__graph *g = b->e->g;
  int wt = N(b, ni)->n_inputs > 1 ? N(b, ni)->inputs[1] : -1;
  int dq = wt >= 0 ? g->tensors[wt].producer : -1;
  if (dq < 0 || b->e->dead[dq] || !op_is(b, dq, "DequantizeLinear") || N(b, dq)->n_inputs < 2)
    return -1;
  int w8 = acl__eng_resolve(b->e, N(b, dq)->inputs[0]);
  int sc = acl__eng_resolve(b->e, N(b, dq)->inputs[1]);
  int zp = N(b, dq)->n_inputs > 2 ? acl__eng_resolve(b->e, N(b, dq)->inputs[2]) : -1;
  if (w8 < 0 || sc < 0 || V(b, w8)->kind != ENG_CONST || V(b, w8)->onnx_type != ACL__ONNX_INT8 ||
      V(b, sc)->kind != ENG_CONST || V(b, sc)->onnx_type != ACL__ONNX_FLOAT)
    return -1;
  int64_t ns = acl__op_numel(V(b, sc)->rank, V(b, sc)->dims);
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, dq, &d);
  int64_t axis = acl__op_attr_int(&c, "axis", 1);
  acl__diags_free(&d);
  if (ns != 1 && (ns != oc || (axis != 0 && axis != -V(b, w8)->rank)))
    return -1;
  if (zp >= 0) {
    const eng_val *z = V(b, zp);
    if (z->kind != ENG_CONST || z->onnx_type != ACL__ONNX_INT8 || acl__op_numel(z->rank, z->dims) != ns)
      return -1;
    for (int64_t i = 0; i < ns; i++)
      if (((const int8_t *)z->konst.data)[i] != 0)
        return -1;
  }
  const float *s = V(b, sc)->konst.data;
  for (int64_t i = 0; i < ns; i++)
    if (!(s[i] > 0) || !isfinite(s[i]))
      return -1;
  *scales = s;
  *n = ns;
  return w8;
}

/* A constant [n] float32 value holding bias / scale, element-wise. */
static int scaled_bias(eng_build *b, int bias, const float *scale, int64_t n) {
  float *buf = NULL;
  if (posix_memalign((void **)&buf, 64, (size_t)n * sizeof(float)) != 0)
    return -1;
  const float *src = V(b, bias)->konst.data;
  for (int64_t k = 0; k < n; k++)
    buf[k] = src[k] / scale[k];
  int v = acl__eng_val_new(b->p);
  if (v < 0) {
    free(buf);
    return -1;
  }
  eng_val *x = V(b, v);
  x->kind = ENG_CONST;
  x->onnx_type = ACL__ONNX_FLOAT;
  x->rank = 1;
  x->dims[0] = n;
  acl__eng_plain_md(&x->md, 1, &n);
  x->plain = 1;
  x->bytes = (size_t)n * sizeof(float);
  x->konst.onnx_type = ACL__ONNX_FLOAT;
  x->konst.rank = 1;
  x->konst.dims[0] = n;
  x->konst.data = buf;
  x->konst.size = x->bytes;
  x->konst.owned = 1;
  return v;
}

/* ---- Conv ------------------------------------------------------------------ */

static int is_ref(const_dnnl_primitive_desc_t pd);

/* A depthwise 3x3 convolution (stride 1 or 2, padding 1, bias) reading
 * only the output of a pointwise one: oneDNN runs the two as one primitive
 * (its "dw" post-op) and never writes the pointwise output, which on large
 * maps does not fit the cache: MobileNetV2's expansion to 96 x 112 x 112 at
 * batch 8 is 38 MB, and the pair ran 3x faster fused (1.6 against 5.1 ms).
 * Below DW_FUSE_BYTES the separate kernels are as fast or faster. */
#define DW_FUSE_BYTES ((size_t)16 << 20)

typedef struct dw_fuse {
  int node;          /* the depthwise Conv node, or -1 */
  int w, bias, out;  /* its weights and bias (BN folded in), and the value its tail ends in */
  int64_t stride, od[4];
  post po;           /* its activation */
  tail tl;
} dw_fuse;

/* The depthwise convolution that may join pointwise node ni, whose final
 * output `fin` has dims od; f->node -1 when there is none. */
static void dw_next(eng_build *b, int ni, int fin, const int64_t *od, dw_fuse *f) {
  f->node = -1;
  if ((size_t)acl__op_numel(4, od) * sizeof(float) < DW_FUSE_BYTES)
    return;
  int dn = single_next(b, ni, fin);
  if (dn < 0 || !op_is(b, dn, "Conv") || in_of(b, dn, 0) != fin)
    return;
  int w = b->e->conv_w[dn] >= 0 ? b->e->conv_w[dn] : in_of(b, dn, 1);
  int bias = b->e->conv_b[dn] >= 0 ? b->e->conv_b[dn] : in_of(b, dn, 2);
  int64_t wd[4] = {od[1], 1, 3, 3};
  if (!f32(b, w) || V(b, w)->kind != ENG_CONST || !same_dims(V(b, w), 4, wd) || !f32(b, bias) ||
      V(b, bias)->kind != ENG_CONST || acl__op_numel(V(b, bias)->rank, V(b, bias)->dims) != od[1])
    return;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, dn, &d);
  acl__tensor xt = {0};
  xt.onnx_type = ACL__ONNX_FLOAT;
  xt.rank = 4;
  memcpy(xt.dims, od, sizeof(xt.dims[0]) * 4);
  acl__op_geom gm;
  int ok = acl__op_attr_int(&c, "group", 1) == od[1] && acl__op_conv_geometry(&c, &xt, wd + 2, 0, &gm) == 0;
  acl__diags_free(&d);
  for (int i = 1; ok && i < 3; i++) /* geometry's last two of three dims are the spatial ones */
    ok = gm.s[i] == gm.s[1] && (gm.s[i] == 1 || gm.s[i] == 2) && gm.d[i] == 1 && gm.pb[i] == 1 &&
         gm.out[i] == (gm.in[i] + 2 - 3) / gm.s[i] + 1;
  if (!ok)
    return;
  f->node = dn;
  f->w = w;
  f->bias = bias;
  f->stride = gm.s[1];
  f->od[0] = od[0];
  f->od[1] = od[1];
  f->od[2] = gm.out[1];
  f->od[3] = gm.out[2];
  tail_activation(b, dn, out_of(b, dn, 0), &f->po, &f->tl);
  f->out = tail_out(b, &f->tl, out_of(b, dn, 0));
}

/* Input bytes from which a 3x3 convolution with 32-63 output channels runs
 * on Winograd's kernel (conv()). */
#define NARROW_WINO_BYTES ((int64_t)2 << 20)

/* Bytes (of its input or output) from which a convolution whose input is
 * blocked stays blocked (conv()): 4 MiB, or OPENACL_MODEL_BLOCKED_MIB (a
 * negative number: never; not a number: the default). */
static int64_t blocked_bytes(void) {
  const char *e = getenv("OPENACL_MODEL_BLOCKED_MIB");
  char *end = NULL;
  double mib = e != NULL ? strtod(e, &end) : 4;
  if (e != NULL && (end == e || *end != '\0' || !(mib < 1e6)))
    mib = 4;
  return mib < 0 ? INT64_MAX : (int64_t)(mib * 1048576.0);
}

/* Whether a float32 rank-4 convolution (plain or depthwise) of X into dims
 * od, kernel k[2], strides st[2], keeps oneDNN's 16-channel blocked layout
 * (see conv()), the channels padded to a multiple of 16 where they are not
 * one (EfficientNet's and MobileNetV2's 24-channel projections at 56 x 56,
 * batch 8: 2x faster than channels-last): a 1x1, strided or depthwise one,
 * X in a blocked layout, the input or output blocked_bytes() or more, and
 * the residual it accumulates into (sum_md, or NULL) 16-channel blocked too.
 * When it does, *src and *dst are the blocked layouts of X and the output. */
static int stays_blocked(const eng_val *X, const int64_t *od, int64_t group, const int64_t *k, const dnnl_dims_t st,
                         const dnnl_memory_desc_t *sum_md, dnnl_memory_desc_t *src, dnnl_memory_desc_t *dst) {
  int64_t ic = X->dims[1], oc = od[1];
  int depthwise = group == ic && group == oc;
  if (!(group == 1 || depthwise) || !(depthwise || (k[0] == 1 && k[1] == 1) || st[0] > 1 || st[1] > 1))
    return 0;
  int64_t big = acl__op_numel(4, od) > acl__op_numel(4, X->dims) ? acl__op_numel(4, od) : acl__op_numel(4, X->dims);
  if (big * (int64_t)sizeof(float) < blocked_bytes())
    return 0;
  dnnl_dims_t xd4 = {X->dims[0], X->dims[1], X->dims[2], X->dims[3]}, od4 = {od[0], od[1], od[2], od[3]};
  dnnl_memory_desc_init_by_tag(src, 4, xd4, dnnl_f32, dnnl_aBcd16b);
  dnnl_memory_desc_init_by_tag(dst, 4, od4, dnnl_f32, dnnl_aBcd16b);
  dnnl_format_tag_t t = acl__eng_nhwc_or_blocked(&X->md);
  int blocked = dnnl_memory_desc_equal(&X->md, src) || (t != 0 && t != dnnl_acdb);
  return blocked && (sum_md == NULL || dnnl_memory_desc_equal(sum_md, dst));
}

static int conv(eng_build *b, int ni, const int *ins, size_t nin) {
  int x = ins[0], w = nin > 1 ? ins[1] : -1, bias = nin > 2 ? ins[2] : -1;
  int xq = x >= 0 && V(b, x)->qscale != 0 && V(b, x)->onnx_type == ACL__ONNX_FLOAT;
  if (!(f32(b, x) || xq) || V(b, x)->rank < 3 || V(b, x)->rank > 5 || !f32(b, w) || V(b, w)->kind != ENG_CONST ||
      V(b, w)->rank != V(b, x)->rank || (bias >= 0 && (!f32(b, bias) || V(b, bias)->kind != ENG_CONST)))
    return 1;
  const eng_val *X = V(b, x), *W = V(b, w);
  int rank = X->rank, ns = rank - 2;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int64_t group = acl__op_attr_int(&c, "group", 1);
  acl__tensor xt = {0};
  xt.onnx_type = X->onnx_type;
  xt.rank = rank;
  memcpy(xt.dims, X->dims, sizeof(int64_t) * (size_t)rank);
  acl__op_geom gm;
  int bad = acl__op_conv_geometry(&c, &xt, W->dims + 2, 0, &gm) != 0;
  acl__diags_free(&d);
  int64_t oc = W->dims[0], ic = X->dims[1];
  if (bad || group < 1 || oc % group != 0 || ic != W->dims[1] * group ||
      (bias >= 0 && acl__op_numel(V(b, bias)->rank, V(b, bias)->dims) != oc))
    return 1;
  int64_t od[5] = {X->dims[0], oc};
  dnnl_dims_t st, dl, pl, pr;
  for (int j = 0; j < ns; j++) {
    int i = 3 - ns + j;
    od[2 + j] = gm.out[i];
    st[j] = gm.s[i];
    dl[j] = gm.d[i] - 1;
    pl[j] = gm.pb[i];
    pr[j] = gm.pe[i];
    /* oneDNN wants the right padding that gives exactly this output size */
    int64_t need = (gm.out[i] - 1) * gm.s[i] + (gm.k[i] - 1) * gm.d[i] + 1 - gm.in[i] - gm.pb[i];
    if (need < pr[j])
      pr[j] = need;
  }
  dnnl_memory_desc_t src_any, w_any, w_plain, b_md, dst_md;
  md_any(&src_any, rank, X->dims);
  /* a first layer (few input channels, plain input): oneDNN has kernels that
   * read it as it is, where a blocked layout would pad 3 channels to 16 and
   * cost a reorder of the whole input */
  if (X->plain && ic <= 4 && group == 1)
    src_any = X->md;
  int64_t wd[6];
  int wr = rank;
  if (group > 1) {
    wd[0] = group;
    wd[1] = oc / group;
    memcpy(wd + 2, W->dims + 1, sizeof(int64_t) * (size_t)(rank - 1));
    wr = rank + 1;
  } else {
    memcpy(wd, W->dims, sizeof(int64_t) * (size_t)rank);
  }
  md_any(&w_any, wr, wd);
  acl__eng_plain_md(&w_plain, wr, wd);
  if (bias >= 0)
    acl__eng_plain_md(&b_md, 1, &oc);

  /* fusions: a residual Add (accumulated in place) and an activation */
  int y = out_of(b, ni, 0), sum_x = -1, add_node = -1, cur = y;
  post po = {0};
  tail tl;
  int an = single_next(b, ni, y);
  if (an >= 0 && op_is(b, an, "Add") && N(b, an)->n_inputs == 2) {
    int a0 = acl__eng_resolve(b->e, N(b, an)->inputs[0]), a1 = acl__eng_resolve(b->e, N(b, an)->inputs[1]);
    int other = a0 == y ? a1 : a0;
    if (a0 != a1 && other >= 0 && only_reader_left(b, other) && same_dims(V(b, other), rank, od)) {
      sum_x = other;
      add_node = an;
      cur = out_of(b, an, 0);
    }
  }
  tail_activation(b, add_node >= 0 ? add_node : ni, cur, &po, &tl);
  /* Large maps whose input is already in a blocked layout stay blocked
   * (16 channels, oneDNN's jit kernels) rather than going to channels-last
   * (its brgemm ones): at ResNet-50's 56 x 56 x 256 at batch 8 (25 MB, more
   * than the cache holds) the channels-last 1x1 kernel with a residual sum
   * post-op takes 3.7-4.2 ms where the blocked one takes 2.1-2.6, and the
   * moves between the two layouts around Winograd, grouped and strided
   * convolutions go away (ResNet-50 and ResNeXt-50 at batch 8: 6-8 % faster).
   * A depthwise convolution likewise runs oneDNN's blocked kernel rather than
   * its channels-last one (brdgmm) there: MobileNetV2 at batch 8 6-15 %,
   * EfficientNet-B0 3-10 % faster.  Not a larger kernel at stride 1, which
   * is Winograd (blocked anyway) or brgemm, 20-30 % faster channels-last
   * than oneDNN's blocked direct kernel (DenseNet's 3x3 ones).  Below
   * blocked_bytes() (everything at batch 1) the brgemm kernels win.  An
   * input some other kernel wrote channels-last (DenseNet's concatenations)
   * keeps channels-last: moving it would cost what blocking saves. */
  dnnl_memory_desc_t src_blk, dst_blk;
  int blk = rank == 4 && !xq && !b->e->bf16 &&
            stays_blocked(X, od, group, W->dims + 2, st, sum_x >= 0 ? &V(b, sum_x)->md : NULL, &src_blk, &dst_blk);
  /* Not a Swish after a depthwise convolution: oneDNN 2.6's depthwise
   * kernel (brdgmm) computes it as a post-op 2-3x slower than its own
   * convolution (EfficientNet-B0's 32-channel 112x112 one: 150 against 51
   * us), where a separate swish eltwise takes 57: EfficientNet-B0 1-3 %
   * faster in a quiet A/B.  HardSwish and the clips cost nothing extra there. */
  if (group > 1 && group == ic && po.n == 1 && po.e[0].alg == dnnl_eltwise_swish) {
    po.n = 0;
    tl = no_tail;
  }
  if (sum_x >= 0)
    dst_md = V(b, sum_x)->md;
  else
    md_any(&dst_md, rank, od);
  dnnl_memory_desc_t src_own = src_any, dst_own = dst_md; /* oneDNN's choice, if the blocked one fails */
  if (blk) {
    src_any = src_blk;
    dst_md = dst_blk;
  }

  /* A quantised input (a DequantizeLinear kept in 8 bits) and int8 weights
   * (a DequantizeLinear of int8 constants): an int8 convolution, whose
   * integer sums oneDNN scales by input scale x weight scale per output
   * channel before the fusions run in float32. */
  const float *wsc = NULL;
  int64_t nsc = 0;
  int q8 = xq ? int8_weights(b, ni, oc, &wsc, &nsc) : -1;
  float *oscale = q8 >= 0 ? malloc((size_t)oc * sizeof(float)) : NULL;
  if (q8 >= 0 && oscale == NULL)
    return ACL_ERROR_BAD_ALLOC;
  for (int64_t k = 0; q8 >= 0 && k < oc; k++)
    oscale[k] = V(b, x)->qscale * wsc[nsc > 1 ? k : 0];
  /* ... and when its output (after a ReLU) is read only by a QuantizeLinear,
   * the convolution writes the 8-bit integers itself (scales divided by the
   * output scale: ReLU commutes with a positive scale) */
  int qnode = -1, qtype = 0;
  float qs = 1.f;
  if (q8 >= 0 && sum_x < 0 && tl.mul < 0 &&
      (tl.act < 0 || (po.n == 1 && po.e[0].alg == dnnl_eltwise_relu && po.e[0].a == 0.f))) {
    int last = tl.act >= 0 ? tl.act : ni, fin = out_of(b, last, 0);
    int qn = single_next(b, last, fin);
    if (qn >= 0 && op_is(b, qn, "QuantizeLinear") && N(b, qn)->n_inputs >= 2) {
      int qins[3] = {-1, -1, -1};
      for (size_t k = 0; k < N(b, qn)->n_inputs && k < 3; k++)
        qins[k] = acl__eng_resolve(b->e, N(b, qn)->inputs[k]);
      if (qparams(b, qins, N(b, qn)->n_inputs < 3 ? N(b, qn)->n_inputs : 3, 0, &qs, &qtype))
        qnode = qn;
    }
  }
  float *qoscale = qnode >= 0 ? malloc((size_t)oc * sizeof(float)) : NULL;
  if (qnode >= 0 && qoscale == NULL) {
    free(oscale);
    return ACL_ERROR_BAD_ALLOC;
  }
  for (int64_t k = 0; qnode >= 0 && k < oc; k++)
    qoscale[k] = oscale[k] / qs;

  /* a pointwise convolution in float32 whose output only a depthwise one reads; with a bias (oneDNN 2.6's
   * fused kernel crashed in its JIT code for a pointwise convolution without one) */
  dw_fuse dwf = {.node = -1};
  if (rank == 4 && group == 1 && bias >= 0 && W->dims[2] == 1 && W->dims[3] == 1 && st[0] == 1 && st[1] == 1 && pl[0] == 0 &&
      pl[1] == 0 && pr[0] == 0 && pr[1] == 0 && sum_x < 0 && q8 < 0 && qnode < 0 && !b->e->bf16)
    dw_next(b, ni, tail_out(b, &tl, cur), od, &dwf);
  /* Nor a Swish on a large output the engine's kernel does better
   * (own_activation), unless the output goes straight into a fused
   * depthwise convolution (never written) or the convolution is int8. */
  if (dwf.node < 0 && !xq && q8 < 0 && qnode < 0 && own_activation(b, &po, acl__op_numel(rank, od))) {
    po.n = 0;
    tl = no_tail;
  }

  /* attempts: in int8 (a quantised model) writing 8 bits, in int8 writing
   * float32, in bfloat16 (a precision mode; not a first layer read as it is),
   * in float32 - all with the fusions -, in float32 without them */
  dnnl_primitive_desc_t pd = NULL;
  int lowp = 0, int8 = 0, qout = 0;
  for (int attempt = -1; attempt < 4 && pd == NULL; attempt++) {
    if ((attempt == -1 && qnode < 0) || (attempt == 0 && q8 < 0) ||
        (attempt == 1 && !(b->e->bf16 && src_any.format_kind == dnnl_format_kind_any)))
      continue;
    if (attempt == 3) {
      if (sum_x < 0 && tl.act < 0)
        break;
      sum_x = add_node = -1;
      tl = no_tail;
      po.n = 0;
      md_any(&dst_md, rank, od);
    }
    int8 = attempt <= 0;
    qout = attempt == -1;
    lowp = attempt == 1;
    dnnl_memory_desc_t s_md = src_any, w_md = w_any, d_md = dst_md;
    if (int8) {
      md_any_dt(&s_md, rank, X->dims, V(b, x)->md.data_type);
      md_any_dt(&w_md, wr, wd, dnnl_s8);
    }
    if (qout)
      md_any_dt(&d_md, rank, od, acl__eng_dnnl_type(qtype));
    if (lowp) {
      md_any_dt(&s_md, rank, X->dims, dnnl_bf16);
      md_any_dt(&w_md, wr, wd, dnnl_bf16);
      int fin = tail_out(b, &tl, cur);
      if (sum_x < 0 && only_convs_read(b, ni, fin))
        md_any_dt(&d_md, rank, od, dnnl_bf16);
    }
    dnnl_convolution_desc_t cd;
    dnnl_primitive_attr_t attr = make_attr(sum_x >= 0, &po, NULL, 1.f);
    if (attr == NULL) {
      free(oscale);
      return ACL_ERROR_BAD_ALLOC;
    }
    if (attempt == 2 && dwf.node >= 0) {
      /* (in oneDNN's blocked layout: its fused kernel in channels-last gave wrong results, checked with
       * unit/engine/pointwise_depthwise_fused) */
      /* the pointwise activation, the depthwise convolution, its activation */
      dnnl_post_ops_t ops = NULL;
      dnnl_post_ops_create(&ops);
      for (int i = 0; i < po.n; i++)
        dnnl_post_ops_append_eltwise(ops, 1.f, po.e[i].alg, po.e[i].a, po.e[i].b);
      dnnl_post_ops_append_dw(ops, dnnl_f32, dnnl_f32, dnnl_f32, 3, dwf.stride, 1, 0, 0, NULL);
      for (int i = 0; i < dwf.po.n; i++)
        dnnl_post_ops_append_eltwise(ops, 1.f, dwf.po.e[i].alg, dwf.po.e[i].a, dwf.po.e[i].b);
      dnnl_primitive_attr_set_post_ops(attr, ops);
      dnnl_post_ops_destroy(ops);
    }
    if (int8)
      dnnl_primitive_attr_set_output_scales(attr, nsc > 1 ? oc : 1, nsc > 1 ? 1 << 1 : 0, qout ? qoscale : oscale);
    /* Winograd F(4,3) (oneDNN's AVX-512 kernel; elsewhere the creation
     * fails and the direct algorithm is used): 2.25x fewer multiplications
     * for a 3x3 stride-1 convolution.  It pays where the tiles are many and
     * the channels wide enough to feed its matrix products (ResNet's 56x56
     * to 14x14 stages: ~25 % off ResNet-18); with fewer than 14 x 14
     * output pixels in the batch its transforms cost more than they save,
     * and its weights are 4x larger.  The batch counts: ResNet-50's 7x7
     * ones at batch 8 take 4.4-4.6 against 6.0-7.2 ms direct (none at
     * batch 1, where the 2x3 variant oneDNN picks saved nothing).  Narrower
     * outputs (32-63 channels: DenseNet's 128 -> 32 ones) only from
     * NARROW_WINO_BYTES of input: 2.8-3.4 against 4.7-5.2 ms channels-last
     * at 56 x 56, batch 8 (DenseNet-121 at batch 8 ~10 % faster); below
     * that the moves to and from its blocked layout cost what it saves. */
    int wino_oc = oc >= 64 || (oc >= 32 && acl__op_numel(rank, X->dims) * (int64_t)sizeof(float) >= NARROW_WINO_BYTES);
    if (!int8 && !lowp && acl__eng_winograd_on() && rank == 4 && group == 1 && W->dims[2] == 3 &&
        W->dims[3] == 3 && st[0] == 1 && st[1] == 1 && dl[0] == 0 && dl[1] == 0 && ic >= 64 && wino_oc &&
        od[0] * od[2] * od[3] >= 14 * 14 &&
        (dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_winograd, &s_md,
                                                    &w_md, bias >= 0 ? &b_md : NULL, &d_md, st, dl, pl,
                                                    pr) != dnnl_success ||
         dnnl_primitive_desc_create(&pd, &cd, attr, b->e->dnnl, NULL) != dnnl_success))
      pd = NULL;
    if (pd == NULL &&
        (dnnl_dilated_convolution_forward_desc_init(&cd, dnnl_forward_inference, dnnl_convolution_direct, &s_md,
                                                    &w_md, bias >= 0 ? &b_md : NULL, &d_md, st, dl, pl,
                                                    pr) != dnnl_success ||
         dnnl_primitive_desc_create(&pd, &cd, attr, b->e->dnnl, NULL) != dnnl_success))
      pd = NULL;
    dnnl_primitive_attr_destroy(attr);
    if (pd != NULL && (lowp || int8) && is_ref(pd)) {
      dnnl_primitive_desc_destroy(pd); /* no fast kernel for this type */
      pd = NULL;
    }
    if (blk && (pd == NULL || is_ref(pd))) {
      /* no fast blocked kernel for this one: let oneDNN choose the layouts */
      if (pd != NULL)
        dnnl_primitive_desc_destroy(pd);
      pd = NULL;
      blk = 0;
      src_any = src_own;
      dst_md = dst_own;
      attempt--;
      continue;
    }
    if (attempt == 2 && dwf.node >= 0 && (pd == NULL || is_ref(pd))) {
      if (pd != NULL)
        dnnl_primitive_desc_destroy(pd); /* no fused kernel (oneDNN runs the two apart): as two steps */
      pd = NULL;
      dwf.node = -1;
      attempt--;
    }
  }
  free(qoscale);
  if (pd == NULL) {
    free(oscale);
    return 1;
  }
  int rc = ACL_ERROR_BAD_ALLOC;
  /* a quantised x read by a float convolution is scaled to float32 by the reorder */
  int xs = in_layout(b, x, dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0));
  dnnl_memory_desc_t w8_plain;
  acl__eng_plain_md_dt(&w8_plain, wr, wd, dnnl_s8);
  int wv = xs < 0 ? -1 : int8 ? view_as(b, q8, wr, wd, &w8_plain) : view_as(b, w, wr, wd, &w_plain);
  int wr_v = wv < 0 ? -1
                    : const_reordered(b, wv, int8 ? &w8_plain : &w_plain,
                                      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0));
  /* oneDNN 2.x adds an int8 convolution's bias before its output scales */
  int bv = bias < 0 ? -2 : int8 ? scaled_bias(b, bias, oscale, oc) : view_as(b, bias, 1, &oc, &b_md);
  free(oscale);
  if (wr_v >= 0 && bv != -1) {
    const dnnl_memory_desc_t *dm = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
    int dst, dww = -1, dwb = -1;
    if (dwf.node >= 0) {
      /* the step writes the depthwise convolution's (final) output; the
       * pointwise one's exists only inside the primitive */
      int64_t d5[5] = {dwf.od[1], 1, 1, 3, 3};
      dnnl_memory_desc_t p5;
      acl__eng_plain_md(&p5, 5, d5);
      int wv5 = view_as(b, dwf.w, 5, d5, &p5);
      dww = wv5 < 0 ? -1
                    : const_reordered(b, wv5, &p5,
                                      dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md,
                                                                   DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS));
      dwb = view_as(b, dwf.bias, 1, &oc, &b_md);
      if (dww < 0 || dwb < 0) {
        dnnl_primitive_desc_destroy(pd);
        return ACL_ERROR_BAD_ALLOC;
      }
      define(b, dwf.out, 4, dwf.od, dm);
      dst = dwf.out;
    } else if (sum_x >= 0) {
      define_view(b, y, sum_x, rank, od, dm);
      dst = y;
    } else if (qout) {
      /* the QuantizeLinear's output is what the step writes; the float
       * tensors before it have no other reader and are never made */
      dst = out_of(b, qnode, 0);
      eng_val *Q = V(b, dst);
      Q->kind = ENG_ARENA;
      Q->onnx_type = qtype;
      Q->rank = rank;
      memcpy(Q->dims, od, sizeof(int64_t) * (size_t)rank);
      Q->md = *dm;
      Q->bytes = dnnl_memory_desc_get_size(dm);
      dnnl_memory_desc_t plain;
      acl__eng_val_plain_md(Q, &plain);
      Q->plain = dnnl_memory_desc_equal(dm, &plain);
      define_view(b, y, dst, rank, od, dm);
    } else {
      define(b, y, rank, od, dm);
      dst = y;
    }
    eng_arg args[6] = {{DNNL_ARG_SRC, xs}, {DNNL_ARG_WEIGHTS, wr_v}, {DNNL_ARG_DST, dst}};
    int na = 3;
    if (bias >= 0)
      args[na++] = (eng_arg){DNNL_ARG_BIAS, bv};
    if (dwf.node >= 0) {
      args[na++] = (eng_arg){DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS, dww};
      args[na++] = (eng_arg){DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS, dwb};
    }
    rc = acl__eng_prim_step(b, pd, args, na, dwf.node >= 0 ? "convolution + depthwise" : "convolution");
    if (lowp)
      b->p->bf16_steps++;
    if (int8)
      b->p->int8_steps++;
    absorb(b, add_node, y);
    absorb_tail(b, &tl, dwf.node >= 0 ? dst : y);
    if (dwf.node >= 0) {
      absorb(b, dwf.node, dst);
      absorb_tail(b, &dwf.tl, dst);
    }
    if (qout)
      absorb(b, qnode, dst);
  }
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* ---- pooling ----------------------------------------------------------------- */

static int pool(eng_build *b, int ni, const int *ins) {
  const acl__graph_node *n = N(b, ni);
  int x = ins[0];
  if (!f32(b, x) || V(b, x)->rank < 3 || V(b, x)->rank > 5 || (n->n_outputs > 1 && n->outputs[1] >= 0))
    return 1;
  const eng_val *X = V(b, x);
  int rank = X->rank, ns = rank - 2;
  int global = strncmp(n->op_type, "Global", 6) == 0;
  int is_max = strstr(n->op_type, "Max") != NULL;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int64_t ks[3];
  int ceil = 0, cip = 0;
  acl__op_geom gm;
  acl__tensor xt = {0};
  xt.onnx_type = X->onnx_type;
  xt.rank = rank;
  memcpy(xt.dims, X->dims, sizeof(int64_t) * (size_t)rank);
  int bad = 0;
  if (global) {
    memcpy(ks, X->dims + 2, sizeof(int64_t) * (size_t)ns);
    memset(&gm, 0, sizeof(gm));
    for (int i = 0; i < 3; i++) {
      int j = i - (3 - ns);
      gm.in[i] = gm.k[i] = j >= 0 ? X->dims[2 + j] : 1;
      gm.s[i] = gm.d[i] = gm.out[i] = 1;
    }
  } else {
    const int64_t *k = NULL;
    if (acl__op_attr_ints(&c, "kernel_shape", &k) != ns) {
      acl__diags_free(&d);
      return 1;
    }
    memcpy(ks, k, sizeof(int64_t) * (size_t)ns);
    ceil = (int)acl__op_attr_int(&c, "ceil_mode", 0);
    cip = (int)acl__op_attr_int(&c, "count_include_pad", 0);
    bad = acl__op_conv_geometry(&c, &xt, ks, ceil, &gm) != 0;
  }
  acl__diags_free(&d);
  if (bad || (ceil && cip && !is_max))
    return 1;
  int64_t od[5] = {X->dims[0], X->dims[1]};
  dnnl_dims_t st, kd, dl, pl, pr;
  for (int j = 0; j < ns; j++) {
    int i = 3 - ns + j;
    od[2 + j] = gm.out[i];
    st[j] = gm.s[i];
    kd[j] = gm.k[i];
    dl[j] = gm.d[i] - 1;
    pl[j] = gm.pb[i];
    int64_t need = (gm.out[i] - 1) * gm.s[i] + (gm.k[i] - 1) * gm.d[i] + 1 - gm.in[i] - gm.pb[i];
    pr[j] = need;
    if (pr[j] < 0 || pl[j] < 0)
      return 1;
  }
  dnnl_memory_desc_t dst_any;
  md_any(&dst_any, rank, od);
  dnnl_pooling_v2_desc_t pdsc;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_alg_kind_t alg = is_max ? dnnl_pooling_max
                               : (cip ? dnnl_pooling_avg_include_padding : dnnl_pooling_avg_exclude_padding);
  dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
  if (attr == NULL)
    return ACL_ERROR_BAD_ALLOC;
  if (dnnl_pooling_v2_forward_desc_init(&pdsc, dnnl_forward_inference, alg, &X->md, &dst_any, st, kd, dl, pl, pr) !=
          dnnl_success ||
      dnnl_primitive_desc_create(&pd, &pdsc, attr, b->e->dnnl, NULL) != dnnl_success)
    pd = NULL;
  dnnl_primitive_attr_destroy(attr);
  if (pd == NULL)
    return 1;
  int y = out_of(b, ni, 0);
  define(b, y, rank, od, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  eng_arg args[2] = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}};
  int rc = acl__eng_prim_step(b, pd, args, 2, "pooling");
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* ---- elementwise -------------------------------------------------------------- */

/* Whether the implementation oneDNN picked is its slow reference one. */
static int is_ref(const_dnnl_primitive_desc_t pd) {
  const char *impl = NULL;
  return dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl != NULL &&
         strncmp(impl, "ref", 3) == 0;
}

/* y = the eltwise operations of `po` on x, the first as the primitive and
 * the rest as its post-ops, in x's layout; when oneDNN has only its slow
 * reference kernel for that combination (linear + clip, a HardSigmoid), one
 * primitive per operation, the later ones in place on y.  1 when oneDNN
 * declines. */
static int eltwise_chain(eng_build *b, int x, int y, const post *po, const char *what) {
  const eng_val *X = V(b, x);
  dnnl_primitive_desc_t pd[2] = {NULL, NULL};
  int n = 1;
  for (int split = 0; split < 2 && pd[0] == NULL; split++) {
    if (split && po->n == 1)
      break;
    n = split ? po->n : 1;
    for (int i = 0; i < n; i++) {
      post rest = {0};
      for (int j = 1; !split && j < po->n; j++)
        rest.e[rest.n++] = po->e[j];
      dnnl_eltwise_desc_t ed;
      dnnl_primitive_attr_t attr = make_attr(0, &rest, NULL, 1.f);
      if (attr == NULL)
        return ACL_ERROR_BAD_ALLOC;
      if (dnnl_eltwise_forward_desc_init(&ed, dnnl_forward_inference, po->e[i].alg, &X->md, po->e[i].a,
                                         po->e[i].b) != dnnl_success ||
          dnnl_primitive_desc_create(&pd[i], &ed, attr, b->e->dnnl, NULL) != dnnl_success)
        pd[i] = NULL;
      dnnl_primitive_attr_destroy(attr);
    }
    if (!split && po->n > 1 && pd[0] != NULL && is_ref(pd[0])) {
      dnnl_primitive_desc_destroy(pd[0]);
      pd[0] = NULL;
    }
    if (split && (pd[0] == NULL || pd[1] == NULL)) {
      for (int i = 0; i < 2; i++)
        if (pd[i] != NULL)
          dnnl_primitive_desc_destroy(pd[i]);
      pd[0] = pd[1] = NULL;
    }
  }
  if (pd[0] == NULL)
    return 1;
  define(b, y, X->rank, X->dims, dnnl_primitive_desc_query_md(pd[0], dnnl_query_dst_md, 0));
  int rc = 0;
  for (int i = 0; i < n; i++) {
    eng_arg args[2] = {{DNNL_ARG_SRC, i == 0 ? x : y}, {DNNL_ARG_DST, y}};
    if (rc == 0)
      rc = acl__eng_prim_step(b, pd[i], args, 2, what);
    dnnl_primitive_desc_destroy(pd[i]);
  }
  return rc;
}

static int eltwise_step(eng_build *b, int x, int y, dnnl_alg_kind_t alg, float alpha, float beta, const char *what) {
  post po = {1, {{alg, alpha, beta}}};
  return eltwise_chain(b, x, y, &po, what);
}

/* The GlobalAveragePool reading swish output y (of node ni) beside one
 * other reader (a squeeze-and-excitation block: the pool feeds the
 * excitation, whose factor the other reader, a Mul, applies to y), or -1. */
static int se_pool(eng_build *b, int ni, int y) {
  if (b->uses_left[y] != 2 || V(b, y)->graph_output || V(b, y)->rank != 4)
    return -1;
  const acl__graph *g = b->e->g;
  for (size_t j = (size_t)ni + 1; j < g->n_nodes; j++) {
    if (b->e->dead[j] || b->skip[j] || !op_is(b, (int)j, "GlobalAveragePool") || g->nodes[j].n_inputs != 1 ||
        acl__eng_resolve(b->e, g->nodes[j].inputs[0]) != y)
      continue;
    int m = out_of(b, (int)j, 0);
    return m >= 0 && !V(b, m)->graph_output ? (int)j : -1;
  }
  return -1;
}

/* Defines the output y of an element-wise kernel step reading x: in x's
 * bytes (a view) when the step's node chain is x's last reader, so that
 * the arena holds one tensor instead of two (EfficientNet-B0 at batch 1:
 * 6.0 against 9.6 MB), else a new tensor in x's layout. */
static void in_place_or_new(eng_build *b, int x, int y) {
  const eng_val *X = V(b, x);
  if (only_reader_left(b, x))
    define_view(b, y, x, X->rank, X->dims, &X->md);
  else
    define(b, y, X->rank, X->dims, &X->md);
}

/* y = Swish(x) on the engine's own kernel (vec512.c, where the CPU has
 * AVX-512: EfficientNet-B0's 16 swish steps 0.65 against 0.96 ms with
 * oneDNN's eltwise), in x's layout.  When a squeeze-and-excitation block's
 * GlobalAveragePool reads y (se_pool), the same pass computes its means:
 * the pooling step, which read y again, goes (EfficientNet-B0: 16). */
static int swish_step(eng_build *b, int ni, int x, int y) {
  if (!acl__eng_vec512())
    return eltwise_step(b, x, y, dnnl_eltwise_swish, 1.f, 0.f, "swish");
  const eng_val *X = V(b, x);
  eng_swish *k = calloc(1, sizeof(*k));
  if (k == NULL)
    return ACL_ERROR_BAD_ALLOC;
  k->n = (int64_t)(dnnl_memory_desc_get_size(&X->md) / sizeof(float));
  in_place_or_new(b, x, y);
  eng_arg a[4] = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}, {DNNL_ARG_DST_1, -1}};
  int pool = se_pool(b, ni, y);
  dnnl_format_tag_t tag = pool >= 0 ? acl__eng_nhwc_or_blocked(&X->md) : 0;
  if (tag == dnnl_acdb || tag == dnnl_aBcd16b) {
    dnnl_dims_t dims = {X->dims[0], X->dims[1], 1, 1};
    dnnl_memory_desc_t md;
    if (dnnl_memory_desc_init_by_tag(&md, 4, dims, dnnl_f32, dnnl_abcd) != dnnl_success) {
      free(k);
      return ACL_ERROR_FAILURE;
    }
    k->batch = X->dims[0];
    k->channels = X->dims[1];
    k->spatial = X->dims[2] * X->dims[3];
    k->group = tag == dnnl_acdb ? ENG_CHANNELS_LAST : 16;
    /* channels-last, each image in runs of pixels (8 units of work in all,
     * or one per image), whose channel sums go to a value of their own */
    k->parts = k->batch >= 8 ? 1 : 8 / k->batch;
    a[2].val = out_of(b, pool, 0);
    define(b, a[2].val, 4, dims, &md);
    absorb(b, pool, a[2].val);
    a[3] = (eng_arg){DNNL_ARG_WORKSPACE, -1};
    if (k->group == ENG_CHANNELS_LAST) {
      dnnl_dims_t pd = {k->batch * k->parts, k->channels};
      dnnl_memory_desc_t pmd;
      a[3].val = acl__eng_val_new(b->p);
      if (a[3].val < 0 || dnnl_memory_desc_init_by_tag(&pmd, 2, pd, dnnl_f32, dnnl_ab) != dnnl_success) {
        free(k);
        return ACL_ERROR_BAD_ALLOC;
      }
      define(b, a[3].val, 2, pd, &pmd);
    }
    return acl__eng_kernel_step(b, acl__eng_swish_run, k, a, k->group == ENG_CHANNELS_LAST ? 4 : 3, "swish + mean",
                                "own");
  }
  return acl__eng_kernel_step(b, acl__eng_swish_run, k, a, 2, "swish", "own");
}

static int eltwise(eng_build *b, int ni, const int *ins) {
  post po;
  if (!f32(b, ins[0]) || activation(b, ni, &po) < 1)
    return 1;
  /* x * Sigmoid(x) or x * HardSigmoid(x): one swish / hardswish (x itself
   * is only read, so other readers of x do not matter) */
  dnnl_alg_kind_t alg;
  int m = swish_mul(b, ni, ins[0], &alg);
  if (m >= 0) {
    int y = out_of(b, m, 0);
    int rc = alg == dnnl_eltwise_swish ? swish_step(b, ni, ins[0], y)
                                       : eltwise_step(b, ins[0], y, alg, 0.f, 0.f, "hardswish");
    if (rc == 0) {
      absorb(b, m, y);
      define_view(b, out_of(b, ni, 0), y, V(b, y)->rank, V(b, y)->dims, &V(b, y)->md);
    }
    return rc;
  }
  return eltwise_chain(b, ins[0], out_of(b, ni, 0), &po, "eltwise");
}

/* md describes `dims` in the format tag that `like` uses (plain, channels
 * last, or 8/16 channels blocked); 0 when like's tag is none of these. */
static int like_layout(const dnnl_memory_desc_t *like, int rank, const int64_t *dims, dnnl_memory_desc_t *md) {
  static const dnnl_format_tag_t tags[6][4] = {
    {dnnl_format_tag_undef}, {dnnl_format_tag_undef}, {dnnl_format_tag_undef},
    {dnnl_abc, dnnl_acb, dnnl_aBc16b, dnnl_aBc8b},
    {dnnl_abcd, dnnl_acdb, dnnl_aBcd16b, dnnl_aBcd8b},
    {dnnl_abcde, dnnl_acdeb, dnnl_aBcde16b, dnnl_aBcde8b}};
  if (rank < 3 || rank > 5 || like->ndims != rank)
    return 0;
  dnnl_dims_t ld, d;
  for (int k = 0; k < rank; k++) {
    ld[k] = like->dims[k];
    d[k] = dims[k];
  }
  for (int t = 0; t < 4; t++) {
    dnnl_memory_desc_t m;
    if (dnnl_memory_desc_init_by_tag(&m, rank, ld, dnnl_f32, tags[rank][t]) == dnnl_success &&
        dnnl_memory_desc_equal(&m, like))
      return dnnl_memory_desc_init_by_tag(md, rank, d, dnnl_f32, tags[rank][t]) == dnnl_success;
  }
  return 0;
}

/* Whether md lays out `dims` exactly as plain row-major does: true for any
 * of like_layout's tags when every dimension after the channels is 1 and no
 * channel block is padded (the per-channel operands of SE blocks). */
static int bytes_as_plain(const dnnl_memory_desc_t *md, int rank, const int64_t *dims) {
  for (int k = 2; k < rank; k++)
    if (dims[k] != 1)
      return 0;
  return dnnl_memory_desc_get_size(md) == (size_t)acl__op_numel(rank, dims) * sizeof(float);
}

/* y = x * e, e a squeeze-and-excitation block's [N, C, 1, 1] (or [1, C, 1,
 * 1]) factors, x [N, C, H, W] channels-last or 16-channel blocked, on the
 * engine's own kernel (vec512.c, where the CPU has AVX-512; oneDNN's
 * binary was 2-3x slower on EfficientNet's large channels-last maps): 0,
 * 1 when it does not apply, or an ACL error. */
static int channel_scale(eng_build *b, int x, int e, int y) {
  const eng_val *X = V(b, x), *E = V(b, e);
  dnnl_format_tag_t tag = acl__eng_nhwc_or_blocked(&X->md);
  int64_t ed[4] = {1, 1, 1, 1}; /* e's dims with leading 1s (ConvNeXt's layer scale is [C, 1, 1]) */
  for (int k = 0; k < E->rank && E->rank <= 4; k++)
    ed[4 - E->rank + k] = E->dims[k];
  if (!acl__eng_vec512() || (tag != dnnl_acdb && tag != dnnl_aBcd16b) || E->rank > 4 || ed[1] != X->dims[1] ||
      ed[2] != 1 || ed[3] != 1 || (ed[0] != X->dims[0] && ed[0] != 1) ||
      !(E->plain || (E->rank == 4 && acl__eng_nhwc_or_blocked(&E->md) != 0)) || !bytes_as_plain(&E->md, E->rank, E->dims))
    return 1; /* e's bytes are not [N][C] */
  eng_scale *k = malloc(sizeof(*k));
  if (k == NULL)
    return ACL_ERROR_BAD_ALLOC;
  *k = (eng_scale){X->dims[0], X->dims[1], X->dims[2] * X->dims[3], tag == dnnl_acdb ? ENG_CHANNELS_LAST : 16,
                   ed[0] == 1 ? 0 : ed[1]};
  define(b, y, 4, X->dims, &X->md);
  eng_arg a[3] = {{DNNL_ARG_SRC_0, x}, {DNNL_ARG_SRC_1, e}, {DNNL_ARG_DST, y}};
  return acl__eng_kernel_step(b, acl__eng_scale_run, k, a, 3, "scale", "own");
}

static int binary(eng_build *b, int ni, const int *ins, size_t nin) {
  const char *op = N(b, ni)->op_type;
  dnnl_alg_kind_t alg;
  int comm = 1;
  if (strcmp(op, "Add") == 0)
    alg = dnnl_binary_add;
  else if (strcmp(op, "Mul") == 0)
    alg = dnnl_binary_mul;
  else if (strcmp(op, "Max") == 0)
    alg = dnnl_binary_max;
  else if (strcmp(op, "Min") == 0)
    alg = dnnl_binary_min;
  else if (strcmp(op, "Sub") == 0)
    alg = dnnl_binary_sub, comm = 0;
  else if (strcmp(op, "Div") == 0)
    alg = dnnl_binary_div, comm = 0;
  else
    return 1;
  if (nin != 2 || !f32_or_scalar(b, ins[0]) || !f32_or_scalar(b, ins[1]) || (!f32(b, ins[0]) && !f32(b, ins[1])))
    return 1;
  int a = ins[0], c = ins[1];
  int r = V(b, a)->rank > V(b, c)->rank ? V(b, a)->rank : V(b, c)->rank;
  int64_t od[DNNL_MAX_NDIMS], da[DNNL_MAX_NDIMS], dc[DNNL_MAX_NDIMS];
  for (int k = 0; k < r; k++) {
    int ka = k - (r - V(b, a)->rank), kc = k - (r - V(b, c)->rank);
    da[k] = ka >= 0 ? V(b, a)->dims[ka] : 1;
    dc[k] = kc >= 0 ? V(b, c)->dims[kc] : 1;
    if (da[k] != dc[k] && da[k] != 1 && dc[k] != 1)
      return 1;
    od[k] = da[k] > dc[k] ? da[k] : dc[k];
  }
  if (memcmp(da, od, sizeof(int64_t) * (size_t)r) != 0) {
    if (!comm || memcmp(dc, od, sizeof(int64_t) * (size_t)r) != 0)
      return 1;
    int t = a;
    a = c;
    c = t;
  }
  post po = {0};
  int y = out_of(b, ni, 0);
  tail tl;
  tail_activation(b, ni, y, &po, &tl);
  if (alg == dnnl_binary_mul && po.n == 0 && r == 4) {
    int rc = channel_scale(b, a, c, y);
    if (rc != 1)
      return rc;
  }
  dnnl_primitive_desc_t pd = NULL;
  int s0 = a, s1 = c;
  /* first in a's layout (blocked included), c described or reordered to
   * match it; then both plain */
  dnnl_memory_desc_t md1;
  int c_as = 0; /* attempt 0: 1 c as it is, 2 a view of c's bytes as md1, 3 c reordered into md1 */
  if (V(b, a)->rank == r && V(b, c)->rank == r) {
    const eng_val *A = V(b, a), *Cv = V(b, c);
    if (same_dims(Cv, r, od)) {
      md1 = A->md;
      c_as = dnnl_memory_desc_equal(&Cv->md, &md1) ? 1 : 3;
    } else if (A->plain) {
      acl__eng_plain_md(&md1, r, Cv->dims);
      c_as = Cv->plain ? 1 : 3;
    } else if (like_layout(&A->md, r, Cv->dims, &md1)) {
      /* a per-channel (or per-sample) operand of a blocked tensor: in the
       * same blocked tag, binary runs its jit kernel (ref otherwise) */
      c_as = dnnl_memory_desc_equal(&Cv->md, &md1) ? 1 : Cv->plain && bytes_as_plain(&md1, r, Cv->dims) ? 2 : 3;
    }
  }
  for (int attempt = c_as ? 0 : 1; attempt < 2 && pd == NULL; attempt++) {
    if (attempt == 1) {
      s0 = padded(b, a, r);
      s1 = padded(b, c, r);
      if (s0 < 0 || s1 < 0)
        return ACL_ERROR_BAD_ALLOC;
    }
    dnnl_binary_desc_t bd;
    dnnl_primitive_attr_t attr = make_attr(0, &po, NULL, 1.f);
    if (attr == NULL)
      return ACL_ERROR_BAD_ALLOC;
    if (dnnl_binary_desc_init(&bd, alg, &V(b, s0)->md, attempt == 0 ? &md1 : &V(b, s1)->md, &V(b, s0)->md) !=
            dnnl_success ||
        dnnl_primitive_desc_create(&pd, &bd, attr, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
    dnnl_primitive_attr_destroy(attr);
    if (attempt == 0 && pd != NULL && is_ref(pd)) {
      dnnl_primitive_desc_destroy(pd); /* oneDNN's reference binary: plain layouts are faster */
      pd = NULL;
    }
    if (attempt == 0 && pd != NULL && c_as != 1) {
      s1 = c_as == 2 ? view_as(b, c, r, V(b, c)->dims, &md1) : in_layout(b, c, &md1);
      if (s1 < 0) {
        dnnl_primitive_desc_destroy(pd);
        return ACL_ERROR_BAD_ALLOC;
      }
    }
  }
  if (pd == NULL)
    return 1;
  define(b, y, r, od, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  eng_arg args[3] = {{DNNL_ARG_SRC_0, s0}, {DNNL_ARG_SRC_1, s1}, {DNNL_ARG_DST, y}};
  int rc = acl__eng_prim_step(b, pd, args, 3, "binary");
  dnnl_primitive_desc_destroy(pd);
  if (rc == 0)
    absorb_tail(b, &tl, y);
  return rc;
}

/* ---- matrix products ----------------------------------------------------------- */

/* What a matrix product absorbs after it, found by mm_fusions: a constant
 * bias over the last axis (an Add), or a constant scale (a Div or Mul by a
 * scalar: attention's 1 / sqrt(d); only without a bias, whose order against
 * the scale oneDNN's implementations need not agree on), then a residual Add
 * accumulated into the other operand's buffer when nothing reads that buffer
 * later (oneDNN's sum post-op: a transformer's skip connection).  The
 * activation after them is tail_activation's. */
typedef struct mm_fuse {
  int bias; /* a constant bias value, or -1 */
  dnnl_memory_desc_t bias_md;
  float alpha;
  int sum_x;       /* the residual accumulated into, or -1 */
  int nodes[3], n; /* the nodes absorbed before the activation, in order */
} mm_fuse;

static void mm_no_fusion(mm_fuse *f) {
  memset(f, 0, sizeof(*f));
  f->bias = f->sum_x = -1;
  f->alpha = 1.f;
}

static void mm_fusions(eng_build *b, int ni, int r, const int64_t *od, mm_fuse *f) {
  mm_no_fusion(f);
  int cur = out_of(b, ni, 0), n = single_next(b, ni, cur);
  int other = n >= 0 ? other_in(b, n, cur) : -1;
  float c = 0.f;
  if (other >= 0 && op_is(b, n, "Add") && f32(b, other) && V(b, other)->kind == ENG_CONST && V(b, other)->rank <= r &&
      acl__op_numel(V(b, other)->rank, V(b, other)->dims) == od[r - 1] &&
      V(b, other)->dims[V(b, other)->rank - 1] == od[r - 1]) {
    int64_t bd[DNNL_MAX_NDIMS];
    for (int k = 0; k < r; k++)
      bd[k] = k == r - 1 ? od[r - 1] : 1;
    acl__eng_plain_md(&f->bias_md, r, bd);
    f->bias = other;
  } else if (other >= 0 && (op_is(b, n, "Mul") || (op_is(b, n, "Div") && in_of(b, n, 0) == cur)) &&
             const_scalar(b, other, &c) && c != 0.f && isfinite(c)) {
    f->alpha = op_is(b, n, "Div") ? 1.f / c : c;
  } else {
    n = -1;
  }
  if (n >= 0) {
    f->nodes[f->n++] = n;
    cur = out_of(b, n, 0);
    n = single_next(b, n, cur);
    other = n >= 0 ? other_in(b, n, cur) : -1;
  }
  if (other >= 0 && op_is(b, n, "Add") && f32(b, other) && V(b, other)->plain && same_dims(V(b, other), r, od) &&
      only_reader_left(b, other)) {
    f->sum_x = other;
    f->nodes[f->n++] = n;
  }
}

/* When the only reader of v (written by node) is a Transpose, the layout in
 * which v is written so that the Transpose's output is v's bytes in plain
 * order (attention's heads merged back: [B,H,S,D] -> [B,S,H,D]): *md, and z's
 * dims in zd; returns the Transpose node, or -1. */
static int transposed_dst(eng_build *b, int node, int v, int r, const int64_t *od, dnnl_memory_desc_t *md,
                          int64_t *zd) {
  int t = data_next(b, node, v);
  if (t < 0 || !op_is(b, t, "Transpose") || in_of(b, t, 0) != v)
    return -1;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, t, &d);
  const int64_t *perm = NULL;
  int64_t np = acl__op_attr_ints(&c, "perm", &perm);
  acl__diags_free(&d);
  if (np != r)
    return -1;
  int p[DNNL_MAX_NDIMS], seen[DNNL_MAX_NDIMS] = {0};
  for (int i = 0; i < r; i++) {
    if (perm[i] < 0 || perm[i] >= r || seen[perm[i]]++)
      return -1;
    p[i] = (int)perm[i];
    zd[i] = od[p[i]];
  }
  /* axis i of the Transpose's output z is axis p[i] of v */
  dnnl_memory_desc_t zplain;
  acl__eng_plain_md(&zplain, r, zd);
  return dnnl_memory_desc_permute_axes(md, &zplain, p) == dnnl_success ? t : -1;
}

/* Whether oneDNN reads v's layout in place as a matrix product's operand:
 * float32 without blocks, at any strides (a permuted plain tensor, such as
 * attention's heads split off by a Transpose). */
static int mm_strided(eng_build *b, int v, int r) {
  const dnnl_memory_desc_t *md = &V(b, v)->md;
  return V(b, v)->rank == r && md->data_type == dnnl_f32 && md->format_kind == dnnl_blocked &&
         md->format_desc.blocking.inner_nblks == 0 && md->offset0 == 0;
}

/* y = sa x sw (+ the fusions f, then an activation), of rank r and dims od;
 * when yr is not 0 the product is computed as given but y has rank yr and
 * dims yod (the same dense bytes: a [..., M, K] x [K, N] product done as one
 * 2-D product).  sa and sw may be strided (mm_strided): tried as they are,
 * then as plain copies if oneDNN has no fast kernel for them. */
static int matmul_step(eng_build *b, int ni, int sa, int sw, const mm_fuse *f, int r, const int64_t *od, int yr,
                       const int64_t *yod) {
  post po = {0};
  int y = out_of(b, ni, 0);
  int last = f->n > 0 ? f->nodes[f->n - 1] : ni;
  tail tl;
  tail_activation(b, last, out_of(b, last, 0), &po, &tl);
  if (own_activation(b, &po, acl__op_numel(yr ? yr : r, yr ? yod : od))) {
    po.n = 0;
    tl = no_tail;
  }
  int fin_node = tl.mul >= 0 ? tl.mul : tl.act >= 0 ? tl.act : last;
  dnnl_memory_desc_t dst, tmd;
  int64_t zd[DNNL_MAX_NDIMS];
  int tnode = yr == 0 && f->sum_x < 0 ? transposed_dst(b, fin_node, out_of(b, fin_node, 0), r, od, &tmd, zd) : -1;
  acl__eng_plain_md(&dst, r, od);
  /* constant weights in the layout oneDNN prefers (reordered once, shared by
   * the plans, the originals trimmed: weights.c), which runs BERT's products
   * 1.2-2.5x faster than plain weights; in a precision mode both operands in
   * bfloat16, then float32 if oneDNN has no fast kernel for that */
  int wconst = V(b, sw)->kind == ENG_CONST, lowp = b->e->bf16;
  int odd = !V(b, sa)->plain || !V(b, sw)->plain || tnode >= 0, strided = 1;
  dnnl_primitive_desc_t pd = NULL;
  for (;;) {
    dnnl_memory_desc_t a_md = V(b, sa)->md, w_md = V(b, sw)->md;
    if (lowp) {
      acl__eng_plain_md_dt(&a_md, r, V(b, sa)->dims, dnnl_bf16);
      if (wconst)
        md_any_dt(&w_md, r, V(b, sw)->dims, dnnl_bf16);
      else
        acl__eng_plain_md_dt(&w_md, r, V(b, sw)->dims, dnnl_bf16);
    } else if (!strided) {
      acl__eng_plain_md(&a_md, r, V(b, sa)->dims);
      acl__eng_plain_md(&w_md, r, V(b, sw)->dims);
    }
    if (!lowp && wconst)
      md_any(&w_md, r, V(b, sw)->dims);
    dnnl_matmul_desc_t md;
    dnnl_primitive_attr_t attr = make_attr(f->sum_x >= 0, &po, NULL, f->alpha);
    if (attr == NULL)
      return ACL_ERROR_BAD_ALLOC;
    if (dnnl_matmul_desc_init(&md, &a_md, &w_md, f->bias >= 0 ? &f->bias_md : NULL,
                              strided && tnode >= 0 ? &tmd : &dst) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &md, attr, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
    dnnl_primitive_attr_destroy(attr);
    if (pd != NULL && (lowp || (strided && odd)) && is_ref(pd)) {
      dnnl_primitive_desc_destroy(pd);
      pd = NULL;
    }
    if (pd != NULL)
      break;
    if (lowp)
      lowp = 0;
    else if (strided && odd)
      strided = 0;
    else
      return 1;
  }
  if (!strided)
    tnode = -1;
  const dnnl_memory_desc_t *qa = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t *qw = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  int xa = in_layout(b, sa, qa);
  int xw = xa < 0 ? -1 : wconst ? const_reordered(b, sw, &V(b, sw)->md, qw) : in_layout(b, sw, qw);
  int bv = f->bias >= 0 ? view_as(b, f->bias, r, f->bias_md.dims, &f->bias_md) : -2;
  int dv = yr != 0 ? acl__eng_val_new(b->p) : y;
  if (xa < 0 || xw < 0 || bv == -1 || dv < 0) {
    dnnl_primitive_desc_destroy(pd);
    return ACL_ERROR_BAD_ALLOC;
  }
  /* dv: what the step writes, with the product's rank */
  int z = tnode >= 0 ? out_of(b, tnode, 0) : -1;
  if (f->sum_x >= 0) {
    define_view(b, dv, f->sum_x, r, od, &dst);
  } else if (z >= 0) {
    dnnl_memory_desc_t zplain;
    acl__eng_plain_md(&zplain, r, zd);
    define(b, z, r, zd, &zplain);
    define_view(b, dv, z, r, od, &tmd);
  } else {
    define(b, dv, r, od, &dst);
  }
  if (yr != 0) {
    dnnl_memory_desc_t ymd;
    acl__eng_plain_md(&ymd, yr, yod);
    define_view(b, y, dv, yr, yod, &ymd);
  }
  eng_arg args[4] = {{DNNL_ARG_SRC, xa}, {DNNL_ARG_WEIGHTS, xw}, {DNNL_ARG_DST, dv}, {DNNL_ARG_BIAS, bv}};
  int rc = acl__eng_prim_step(b, pd, args, f->bias >= 0 ? 4 : 3, "matmul");
  dnnl_primitive_desc_destroy(pd);
  if (rc == 0 && lowp)
    b->p->bf16_steps++;
  if (rc == 0) {
    for (int k = 0; k < f->n; k++)
      absorb(b, f->nodes[k], y);
    absorb_tail(b, &tl, y);
    absorb(b, tnode, z);
  }
  return rc;
}

/* A plain 2-D view of v as [rows, cols] read transposed when `t`. */
static int view2d(eng_build *b, int v, int t, int64_t rows, int64_t cols) {
  int pv = acl__eng_plain(b, v);
  if (pv < 0)
    return -1;
  dnnl_memory_desc_t md;
  dnnl_dims_t d = {rows, cols}, s;
  s[0] = t ? 1 : cols;
  s[1] = t ? rows : 1;
  dnnl_memory_desc_init_by_strides(&md, 2, d, dnnl_f32, s);
  int64_t dims[2] = {rows, cols};
  return view_as(b, pv, 2, dims, &md);
}

static int gemm(eng_build *b, int ni, const int *ins, size_t nin) {
  int A = ins[0], B = nin > 1 ? ins[1] : -1, C = nin > 2 ? ins[2] : -1;
  if (!f32(b, A) || !f32(b, B) || V(b, A)->rank != 2 || V(b, B)->rank != 2 || (C >= 0 && !f32(b, C)))
    return 1;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int ta = (int)acl__op_attr_int(&c, "transA", 0), tb = (int)acl__op_attr_int(&c, "transB", 0);
  float alpha = acl__op_attr_float(&c, "alpha", 1.f), beta = acl__op_attr_float(&c, "beta", 1.f);
  acl__diags_free(&d);
  int64_t M = V(b, A)->dims[ta ? 1 : 0], K = V(b, A)->dims[ta ? 0 : 1];
  int64_t K2 = V(b, B)->dims[tb ? 1 : 0], Nn = V(b, B)->dims[tb ? 0 : 1];
  if (K != K2)
    return 1;
  mm_fuse f;
  mm_no_fusion(&f);
  f.alpha = alpha;
  int64_t od[2] = {M, Nn}, bd[2] = {1, Nn};
  if (C >= 0) {
    int64_t cn = acl__op_numel(V(b, C)->rank, V(b, C)->dims);
    int last = V(b, C)->dims[V(b, C)->rank - 1] == Nn;
    if (beta != 1.f || cn != Nn || !last)
      return 1; /* a full [M,N] or column C: the reference kernel */
    acl__eng_plain_md(&f.bias_md, 2, bd);
    f.bias = acl__eng_plain(b, C);
    if (f.bias < 0)
      return ACL_ERROR_BAD_ALLOC;
  }
  int sa = view2d(b, A, ta, M, K), sw = view2d(b, B, tb, K, Nn);
  if (sa < 0 || sw < 0)
    return ACL_ERROR_BAD_ALLOC;
  return matmul_step(b, ni, sa, sw, &f, 2, od, 0, NULL);
}

static int matmul(eng_build *b, int ni, const int *ins, size_t nin) {
  if (nin != 2 || !f32(b, ins[0]) || !f32(b, ins[1]) || V(b, ins[0])->rank < 2 || V(b, ins[1])->rank < 2)
    return 1;
  int A = ins[0], B = ins[1];
  int ra = V(b, A)->rank, rb = V(b, B)->rank, r = ra > rb ? ra : rb;
  int sa = mm_strided(b, A, r) ? A : padded(b, A, r), sw = mm_strided(b, B, r) ? B : padded(b, B, r);
  if (sa < 0 || sw < 0)
    return ACL_ERROR_BAD_ALLOC;
  const int64_t *da = V(b, sa)->dims, *dw = V(b, sw)->dims;
  if (da[r - 1] != dw[r - 2])
    return 1;
  int64_t od[DNNL_MAX_NDIMS];
  for (int k = 0; k < r - 2; k++) {
    if (da[k] != dw[k] && da[k] != 1 && dw[k] != 1)
      return 1;
    od[k] = da[k] > dw[k] ? da[k] : dw[k];
  }
  /* oneDNN broadcasts weights' batch dims, not the source's */
  for (int k = 0; k < r - 2; k++)
    if (da[k] != od[k])
      return 1;
  od[r - 2] = da[r - 2];
  od[r - 1] = dw[r - 1];
  mm_fuse f, none;
  mm_fusions(b, ni, r, od, &f);
  mm_no_fusion(&none);
  /* [..., M, K] x constant [K, N] (a Linear layer on a sequence or an image
   * in channels-last order): one [rows, K] x [K, N] product instead of one
   * per leading index, which oneDNN runs far better (ConvNeXt's 56 x 56 x 96
   * activations are 3136 rows, not 56 products of 56) */
  int flat = r > 2 && V(b, B)->kind == ENG_CONST;
  for (int k = 0; flat && k < r - 2; k++)
    flat = dw[k] == 1;
  int64_t rows = 1;
  for (int k = 0; k < r - 1; k++)
    rows *= od[k];
  if (flat) {
    int64_t od2[2] = {rows, od[r - 1]}, K = da[r - 1], N = dw[r - 1]; /* read before new values move the table */
    mm_fuse f2 = f;
    if (f2.bias >= 0) {
      int64_t bd2[2] = {1, N};
      acl__eng_plain_md(&f2.bias_md, 2, bd2);
    }
    int a2 = view2d(b, A, 0, rows, K), w2 = a2 < 0 ? -1 : view2d(b, B, 0, K, N);
    if (a2 < 0 || w2 < 0)
      return ACL_ERROR_BAD_ALLOC;
    int rc = matmul_step(b, ni, a2, w2, &f2, 2, od2, r, od);
    if (rc == 1 && f.n > 0)
      rc = matmul_step(b, ni, a2, w2, &none, 2, od2, r, od);
    if (rc != 1)
      return rc;
  }
  int rc = matmul_step(b, ni, sa, sw, &f, r, od, 0, NULL);
  if (rc == 1 && f.n > 0)
    rc = matmul_step(b, ni, sa, sw, &none, r, od, 0, NULL);
  return rc;
}

/* ---- softmax, concat, transpose, batch norm ----------------------------------- */

static int softmax(eng_build *b, int ni, const int *ins, int logsm) {
  int x = ins[0];
  if (!f32(b, x))
    return 1;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int rank = V(b, x)->rank;
  int old = b->e->opset < 13;
  int axis = acl__op_axis(acl__op_attr_int(&c, "axis", old ? 1 : -1), rank);
  acl__diags_free(&d);
  if (axis < 0)
    return 1;
  int xs = acl__eng_plain(b, x);
  if (xs < 0)
    return ACL_ERROR_BAD_ALLOC;
  const eng_val *X = V(b, xs);
  int64_t d2[2];
  int r = rank, ax = axis;
  const int64_t *dims = X->dims;
  if (old) {
    /* opset < 13: the input is seen as 2-D, [dims before axis] x [the rest] */
    d2[0] = acl__op_numel(axis, X->dims);
    d2[1] = acl__op_numel(rank - axis, X->dims + axis);
    r = 2;
    ax = 1;
    dims = d2;
  }
  dnnl_memory_desc_t md;
  acl__eng_plain_md(&md, r, dims);
  int sx = old ? view_as(b, xs, r, dims, &md) : xs;
  if (sx < 0)
    return ACL_ERROR_BAD_ALLOC;
  dnnl_softmax_v2_desc_t sd;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
  if (attr == NULL)
    return ACL_ERROR_BAD_ALLOC;
  if (dnnl_softmax_v2_forward_desc_init(&sd, dnnl_forward_inference, logsm ? dnnl_softmax_log : dnnl_softmax_accurate,
                                        &md, &md, ax) != dnnl_success ||
      dnnl_primitive_desc_create(&pd, &sd, attr, b->e->dnnl, NULL) != dnnl_success)
    pd = NULL;
  dnnl_primitive_attr_destroy(attr);
  if (pd == NULL)
    return 1;
  int y = out_of(b, ni, 0), dst = y;
  int64_t yd[ACL__EXEC_MAX_RANK];
  memcpy(yd, V(b, xs)->dims, sizeof(int64_t) * (size_t)rank);
  dnnl_memory_desc_t ymd;
  acl__eng_plain_md(&ymd, rank, yd);
  define(b, y, rank, yd, &ymd);
  int rc = ACL_ERROR_BAD_ALLOC;
  if (old) {
    dst = view_as(b, y, r, dims, &md);
    if (dst < 0)
      goto done;
  }
  eng_arg args[2] = {{DNNL_ARG_SRC, sx}, {DNNL_ARG_DST, dst}};
  rc = acl__eng_prim_step(b, pd, args, 2, "softmax");
done:
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* Whether BatchNormalization node bn runs in inference mode; its epsilon. */
static int bn_inference(eng_build *b, int bn, float *eps) {
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, bn, &d);
  *eps = acl__op_attr_float(&c, "epsilon", 1e-5f);
  int train = (int)acl__op_attr_int(&c, "training_mode", 0);
  acl__diags_free(&d);
  return !train;
}

/* How md (a layout of `dims`, rank >= 3) keeps channels, as the engine's
 * kernels read them: in contiguous groups of 1 (plain), 8 or 16 (blocked,
 * no padding), or channels-last (ENG_CHANNELS_LAST); 0 for others. */
static int channel_group(const dnnl_memory_desc_t *md, int rank, const int64_t *dims) {
  dnnl_memory_desc_t m;
  if (!like_layout(md, rank, dims, &m) || !dnnl_memory_desc_equal(&m, md))
    return 0;
  const dnnl_blocking_desc_t *bd = &md->format_desc.blocking;
  int g = 0;
  if (bd->inner_nblks == 0)
    g = bd->strides[1] == 1 && dims[1] > 1 ? ENG_CHANNELS_LAST : bd->strides[1] >= bd->strides[2] ? 1 : 0;
  else if (bd->inner_nblks == 1 && bd->inner_idxs[0] == 1)
    g = (int)bd->inner_blks[0];
  return g == ENG_CHANNELS_LAST || (g > 0 && dims[1] % g == 0) ? g : 0;
}

/* Concat(channels) -> BatchNormalization (inference, constant statistics)
 * [-> Relu] as one engine kernel, when the concatenation is read by nothing
 * else: its parts in one layout (the one most of them have), each read
 * once.  1 when this is not the pattern. */
static int concat_norm(eng_build *b, int ni, const int *ins, size_t nin, int axis, int rank, const int64_t *od) {
  int y = out_of(b, ni, 0);
  int bn = next_op(b, ni, y, "BatchNormalization");
  if (axis != 1 || rank < 3 || bn < 0 || N(b, bn)->n_inputs != 5 || in_of(b, bn, 0) != y)
    return 1;
  for (size_t k = 1; k < N(b, bn)->n_outputs; k++)
    if (N(b, bn)->outputs[k] >= 0)
      return 1;
  const float *pr[4];
  for (size_t k = 1; k < 5; k++) {
    int v = in_of(b, bn, k);
    if (v < 0 || !acl__eng_fold_ahead(b, v, 0) || V(b, v)->kind != ENG_CONST || !f32(b, v) || V(b, v)->rank != 1 ||
        V(b, v)->dims[0] != od[1])
      return 1;
    pr[k - 1] = V(b, v)->konst.data;
  }
  float eps;
  if (!bn_inference(b, bn, &eps))
    return 1;
  /* the layout most parts have (fewest reorders) */
  int best = -1, best_n = 0;
  for (size_t k = 0; k < nin; k++) {
    int g = channel_group(&V(b, ins[k])->md, rank, V(b, ins[k])->dims), same = 0;
    for (size_t j = 0; g != 0 && j < nin; j++)
      same += channel_group(&V(b, ins[j])->md, rank, V(b, ins[j])->dims) == g;
    if (same > best_n)
      best = (int)k, best_n = same;
  }
  dnnl_memory_desc_t lay, mds[64];
  if (best < 0 || !like_layout(&V(b, ins[best])->md, rank, od, &lay))
    return 1;
  int g = channel_group(&lay, rank, od);
  if (g == 0)
    return 1;
  for (size_t k = 0; k < nin; k++)
    if (!like_layout(&lay, rank, V(b, ins[k])->dims, &mds[k]) || channel_group(&mds[k], rank, V(b, ins[k])->dims) != g)
      return 1;
  eng_concat_norm *kn = acl__eng_concat_norm_new((int)nin, od[1]);
  if (kn == NULL)
    return ACL_ERROR_BAD_ALLOC;
  kn->group = g;
  kn->batch = od[0];
  kn->spatial = acl__op_numel(rank - 2, od + 2);
  for (size_t k = 0; k < nin; k++)
    kn->part_channels[k] = V(b, ins[k])->dims[1];
  for (int64_t ch = 0; ch < od[1]; ch++) {
    /* BatchNormalization's inputs: scale, bias, mean, var */
    kn->scale[ch] = pr[0][ch] / sqrtf(pr[3][ch] + eps);
    kn->shift[ch] = pr[1][ch] - pr[2][ch] * kn->scale[ch];
  }
  eng_arg args[65];
  for (size_t k = 0; k < nin; k++) {
    args[k].arg = (int)k;
    args[k].val = in_layout(b, ins[k], &mds[k]);
    if (args[k].val < 0) {
      free(kn);
      return ACL_ERROR_BAD_ALLOC;
    }
  }
  int z = out_of(b, bn, 0), relu = next_op(b, bn, z, "Relu");
  kn->relu = relu >= 0;
  define(b, z, rank, od, &lay);
  args[nin].arg = (int)nin;
  args[nin].val = z;
  ACL__LOGD(ACL__MOD_GE, "concatenation of %zu parts normalised in one pass, channels %s (group %d)", nin,
            g == ENG_CHANNELS_LAST ? "last" : g == 1 ? "plain" : "blocked", g);
  int rc = acl__eng_kernel_step(b, acl__eng_concat_norm_run, kn, args, (int)nin + 1,
                                kn->relu ? "concat + batch norm + relu" : "concat + batch norm", "concat_norm");
  if (rc == 0) {
    absorb(b, bn, z);
    absorb(b, relu, z);
  }
  return rc;
}

static int concat(eng_build *b, int ni, const int *ins, size_t nin) {
  if (nin < 1 || nin > 64)
    return 1;
  for (size_t k = 0; k < nin; k++)
    if (!f32(b, ins[k]) || V(b, ins[k])->rank != V(b, ins[0])->rank)
      return 1;
  int rank = V(b, ins[0])->rank;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int axis = acl__op_axis(acl__op_attr_int(&c, "axis", 0), rank);
  acl__diags_free(&d);
  if (axis < 0)
    return 1;
  int64_t od[ACL__EXEC_MAX_RANK];
  memcpy(od, V(b, ins[0])->dims, sizeof(int64_t) * (size_t)rank);
  od[axis] = 0;
  dnnl_memory_desc_t mds[64];
  if (nin > 63)
    return 1;
  for (size_t k = 0; k < nin; k++) {
    for (int j = 0; j < rank; j++)
      if (j != axis && V(b, ins[k])->dims[j] != od[j])
        return 1;
    od[axis] += V(b, ins[k])->dims[axis];
    mds[k] = V(b, ins[k])->md;
  }
  int fused = concat_norm(b, ni, ins, nin, axis, rank, od);
  if (fused != 1)
    return fused;
  /* Inputs in different layouts (a convolution's channels-last output next
   * to a blocked one) leave oneDNN its slow reference concat: then every
   * input goes into the layout most of them have (fewest reorders), or, if
   * that fails too, into plain row-major. */
  int big = 0, big_n = 0;
  for (size_t k = 0; k < nin; k++) {
    int same = 0;
    for (size_t j = 0; j < nin; j++)
      same += like_layout(&V(b, ins[k])->md, rank, V(b, ins[j])->dims, &mds[63]) &&
              dnnl_memory_desc_equal(&mds[63], &V(b, ins[j])->md);
    if (same > big_n)
      big = (int)k, big_n = same;
  }
  dnnl_primitive_desc_t pd = NULL;
  int try_as = 0; /* 0 as they are, 1 in the largest input's layout, 2 plain */
  dnnl_memory_desc_t dst;
  for (; try_as < 3 && pd == NULL; try_as++) {
    int ok = 1;
    if (try_as == 0)
      md_any(&dst, rank, od);
    else if (try_as == 1)
      ok = like_layout(&V(b, ins[big])->md, rank, od, &dst);
    else
      acl__eng_plain_md(&dst, rank, od);
    for (size_t k = 0; ok && k < nin; k++) {
      if (try_as == 1)
        ok = like_layout(&V(b, ins[big])->md, rank, V(b, ins[k])->dims, &mds[k]);
      else if (try_as == 2)
        acl__eng_plain_md(&mds[k], rank, V(b, ins[k])->dims);
    }
    dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
    if (attr == NULL)
      return ACL_ERROR_BAD_ALLOC;
    if (!ok || dnnl_concat_primitive_desc_create(&pd, &dst, (int)nin, axis, mds, attr, b->e->dnnl) != dnnl_success)
      pd = NULL;
    dnnl_primitive_attr_destroy(attr);
    if (pd != NULL && try_as < 2 && is_ref(pd)) {
      dnnl_primitive_desc_destroy(pd);
      pd = NULL;
    }
  }
  if (pd == NULL)
    return 1;
  int srcs[64];
  for (size_t k = 0; k < nin; k++) {
    srcs[k] = in_layout(b, ins[k], &mds[k]);
    if (srcs[k] < 0) {
      dnnl_primitive_desc_destroy(pd);
      return ACL_ERROR_BAD_ALLOC;
    }
  }
  int y = out_of(b, ni, 0);
  define(b, y, rank, od, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  eng_arg args[65];
  for (size_t k = 0; k < nin; k++) {
    args[k].arg = DNNL_ARG_MULTIPLE_SRC + (int)k;
    args[k].val = srcs[k];
  }
  args[nin].arg = DNNL_ARG_DST;
  args[nin].val = y;
  int rc = acl__eng_prim_step(b, pd, args, (int)nin + 1, "concat");
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* The output shape of Reshape node ri applied to dims `in` (ONNX: 0 copies
 * the input's dimension, -1 is inferred); 0 when its shape is not a
 * constant this can read. */
static int reshape_dims(eng_build *b, int ri, int rank_in, const int64_t *in, int *rank, int64_t *out) {
  const acl__graph_node *n = N(b, ri);
  for (size_t k = 0; k < n->n_attrs; k++)
    if (strcmp(n->attrs[k].name, "allowzero") == 0 && n->attrs[k].i != 0)
      return 0;
  int sv = n->n_inputs > 1 ? acl__eng_resolve(b->e, n->inputs[1]) : -1;
  if (sv < 0 || !acl__eng_fold_ahead(b, sv, 0) || V(b, sv)->onnx_type != ACL__ONNX_INT64 || V(b, sv)->rank != 1 ||
      V(b, sv)->dims[0] < 1 || V(b, sv)->dims[0] > DNNL_MAX_NDIMS)
    return 0;
  const int64_t *sh = V(b, sv)->konst.data;
  int64_t total = acl__op_numel(rank_in, in), known = 1;
  int infer = -1;
  *rank = (int)V(b, sv)->dims[0];
  for (int k = 0; k < *rank; k++) {
    out[k] = sh[k] == 0 && k < rank_in ? in[k] : sh[k];
    if (out[k] == -1 && infer < 0)
      infer = k;
    else if (out[k] < 1)
      return 0;
    else
      known *= out[k];
  }
  if (infer >= 0)
    out[infer] = known > 0 && total % known == 0 ? total / known : -1;
  return infer < 0 ? known == total : out[infer] > 0;
}

/* ShuffleNet's channel shuffle: Concat of G tensors [N,C,H,W] on the
 * channels, Reshape to [N,G,C,H,W], Transpose (0,2,1,3,4), Reshape to
 * [N,G*C,H,W]: output channel c*G+g is channel c of input g.  Done as one
 * reorder per input straight into its strided place in the plain output
 * (channel stride G*H*W, starting at channel g), instead of a concat, a
 * reorder to plain for the Reshape and a transpose, each over the whole
 * tensor.  Returns 1 when node ni does not start that pattern. */
static int channel_shuffle(eng_build *b, int ni, const int *ins, size_t nin) {
  if (nin < 2 || nin > 16 || V(b, ins[0])->rank != 4)
    return 1;
  int64_t d[4]; /* a copy: acl__eng_val_new below may move the values */
  memcpy(d, V(b, ins[0])->dims, sizeof(d));
  for (size_t k = 0; k < nin; k++)
    if (!f32(b, ins[k]) || !same_dims(V(b, ins[k]), 4, d))
      return 1;
  acl__diags dg = {0};
  acl__op_ctx c = ctx_of(b, ni, &dg);
  int axis = acl__op_axis(acl__op_attr_int(&c, "axis", 0), 4);
  acl__diags_free(&dg);
  int y = out_of(b, ni, 0);
  int r1 = data_next(b, ni, y);
  if (axis != 1 || r1 < 0 || !op_is(b, r1, "Reshape") || acl__eng_resolve(b->e, N(b, r1)->inputs[0]) != y)
    return 1;
  int64_t G = (int64_t)nin, cd[4] = {d[0], G * d[1], d[2], d[3]}, d1[DNNL_MAX_NDIMS], d2[DNNL_MAX_NDIMS];
  int rank1 = 0, rank2 = 0;
  /* y's dimensions, which Shape nodes computing the Reshape's shape read (acl__eng_fold_ahead); concat
   * defines y again, with its layout, if this is no shuffle */
  dnnl_memory_desc_t plain;
  acl__eng_plain_md(&plain, 4, cd);
  define(b, y, 4, cd, &plain);
  if (!reshape_dims(b, r1, 4, cd, &rank1, d1) || rank1 != 5 || d1[0] != d[0] || d1[1] != G || d1[2] != d[1] ||
      d1[3] != d[2] || d1[4] != d[3])
    return 1;
  int y1 = out_of(b, r1, 0), t = data_next(b, r1, y1);
  if (t < 0 || !op_is(b, t, "Transpose"))
    return 1;
  c = ctx_of(b, t, &dg);
  const int64_t *perm = NULL;
  int64_t np = acl__op_attr_ints(&c, "perm", &perm);
  acl__diags_free(&dg);
  static const int64_t want[5] = {0, 2, 1, 3, 4};
  if (np != 5 || memcmp(perm, want, sizeof(want)) != 0)
    return 1;
  int y2 = out_of(b, t, 0), r2 = data_next(b, t, y2);
  int64_t td[5] = {d[0], d[1], G, d[2], d[3]};
  if (r2 < 0 || !op_is(b, r2, "Reshape") || acl__eng_resolve(b->e, N(b, r2)->inputs[0]) != y2 ||
      !reshape_dims(b, r2, 5, td, &rank2, d2) || rank2 != 4 || memcmp(d2, cd, sizeof(cd)) != 0)
    return 1;
  /* input g's place: [N,C,H,W] with the output's batch stride, channel stride G*H*W */
  dnnl_dims_t dims = {d[0], d[1], d[2], d[3]}, strides = {G * d[1] * d[2] * d[3], G * d[2] * d[3], d[3], 1};
  dnnl_memory_desc_t place;
  if (dnnl_memory_desc_init_by_strides(&place, 4, dims, dnnl_f32, strides) != dnnl_success)
    return 1;
  dnnl_primitive_desc_t pd[16] = {NULL};
  int ok = 1;
  for (size_t g = 0; ok && g < nin; g++) {
    ok = dnnl_reorder_primitive_desc_create(&pd[g], &V(b, ins[g])->md, b->e->dnnl, &place, b->e->dnnl, NULL) ==
         dnnl_success;
    if (!ok)
      pd[g] = NULL;
    else if (is_ref(pd[g]))
      ok = 0; /* oneDNN's reference reorder would cost more than the three passes it replaces */
  }
  int z = out_of(b, r2, 0), rc = ok ? 0 : 1;
  if (ok) {
    define(b, z, 4, cd, &plain);
    define_view(b, y, z, 4, cd, &plain); /* the pattern's intermediate values: nobody reads them */
  }
  for (size_t g = 0; rc == 0 && g < nin; g++) {
    int dst = acl__eng_val_new(b->p);
    rc = dst < 0 ? ACL_ERROR_BAD_ALLOC : 0;
    if (rc == 0) {
      define_view(b, dst, z, 4, d, &place);
      V(b, dst)->view_off = g * (size_t)(d[2] * d[3]) * sizeof(float);
      eng_arg args[2] = {{DNNL_ARG_FROM, ins[g]}, {DNNL_ARG_TO, dst}};
      rc = acl__eng_prim_step(b, pd[g], args, 2, "shuffle");
    }
  }
  for (size_t g = 0; g < nin; g++)
    if (pd[g] != NULL)
      dnnl_primitive_desc_destroy(pd[g]);
  absorb(b, r1, z);
  absorb(b, t, z);
  absorb(b, r2, z);
  /* the intermediate values keep their own dimensions, for Shape nodes reading them */
  dnnl_memory_desc_t md5;
  acl__eng_plain_md(&md5, 5, d1);
  define_view(b, y1, z, 5, d1, &md5);
  acl__eng_plain_md(&md5, 5, td);
  define_view(b, y2, z, 5, td, &md5);
  return 0;
}

static int transpose(eng_build *b, int ni, const int *ins) {
  int x = ins[0];
  if (!f32(b, x))
    return 1;
  int rank = V(b, x)->rank;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  const int64_t *perm = NULL;
  int64_t np = acl__op_attr_ints(&c, "perm", &perm);
  acl__diags_free(&d);
  int q[DNNL_MAX_NDIMS], seen[DNNL_MAX_NDIMS] = {0};
  int64_t od[DNNL_MAX_NDIMS];
  for (int i = 0; i < rank; i++) {
    int pi = np == rank ? (int)perm[i] : rank - 1 - i;
    if (np >= 0 && np != rank)
      return 1;
    if (pi < 0 || pi >= rank || seen[pi]++)
      return 1;
    q[pi] = i;
    od[i] = V(b, x)->dims[pi];
  }
  /* describe x's bytes in the output's axis order, then copy into plain */
  dnnl_memory_desc_t pm, plain;
  if (dnnl_memory_desc_permute_axes(&pm, &V(b, x)->md, q) != dnnl_success)
    return 1;
  /* read by a matrix product only: a view of x's bytes, which the product
   * reads in place (attention's heads split off), no copy */
  int y = out_of(b, ni, 0), m = data_next(b, ni, y);
  int own = V(b, x)->kind == ENG_ARENA || V(b, x)->kind == ENG_VIEW;
  if (m >= 0 && op_is(b, m, "MatMul") && V(b, x)->plain && own) {
    define_view(b, y, x, rank, od, &pm);
    return 0;
  }
  /* x's bytes already in the output's row-major order, or in its channels-
   * last order: a view too, whose layout the readers take as any other
   * (ConvNeXt's permutes around its channels-last MLPs: the depthwise
   * convolution writes channels-last, the MLP's channels-last rows are the
   * next block's channels-last input; 46 copies, 8 % of its time, gone) */
  acl__eng_plain_md(&plain, rank, od);
  if (own && !V(b, y)->graph_output &&
      (dnnl_memory_desc_equal(&pm, &plain) || (rank == 4 && acl__eng_nhwc_or_blocked(&pm) == dnnl_acdb))) {
    define_view(b, y, x, rank, od, &pm);
    return 0;
  }
  int xv = view_as(b, x, rank, od, &pm);
  if (xv < 0)
    return ACL_ERROR_BAD_ALLOC;
  dnnl_primitive_desc_t pd = NULL;
  if (dnnl_reorder_primitive_desc_create(&pd, &pm, b->e->dnnl, &plain, b->e->dnnl, NULL) != dnnl_success)
    return 1;
  define(b, y, rank, od, &plain);
  eng_arg args[2] = {{DNNL_ARG_FROM, xv}, {DNNL_ARG_TO, y}};
  int rc = acl__eng_prim_step(b, pd, args, 2, "transpose");
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

static int batchnorm(eng_build *b, int ni, const int *ins, size_t nin) {
  const acl__graph_node *n = N(b, ni);
  if (nin != 5 || !f32(b, ins[0]) || V(b, ins[0])->rank < 2)
    return 1;
  for (size_t k = 1; k < n->n_outputs; k++)
    if (n->outputs[k] >= 0)
      return 1;
  int64_t C = V(b, ins[0])->dims[1];
  for (size_t k = 1; k < 5; k++)
    if (!f32(b, ins[k]) || V(b, ins[k])->rank != 1 || V(b, ins[k])->dims[0] != C || !V(b, ins[k])->plain)
      return 1;
  float eps;
  if (!bn_inference(b, ni, &eps))
    return 1;
  const eng_val *X = V(b, ins[0]);
  /* a Relu after it: oneDNN's fused normalisation + ReLU (DenseNet) */
  int y = out_of(b, ni, 0);
  int relu = single_next(b, ni, y);
  if (relu >= 0 && !op_is(b, relu, "Relu"))
    relu = -1;
  dnnl_batch_normalization_desc_t bd;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
  if (attr == NULL)
    return ACL_ERROR_BAD_ALLOC;
  for (int fuse = relu >= 0; fuse >= 0 && pd == NULL; fuse--) {
    unsigned flags = dnnl_use_global_stats | dnnl_use_scale | dnnl_use_shift | (fuse ? dnnl_fuse_norm_relu : 0u);
    if (dnnl_batch_normalization_forward_desc_init(&bd, dnnl_forward_inference, &X->md, eps, flags) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &bd, attr, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
    if (pd == NULL)
      relu = -1;
  }
  dnnl_primitive_attr_destroy(attr);
  if (pd == NULL)
    return 1;
  define(b, y, X->rank, X->dims, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  eng_arg args[6] = {{DNNL_ARG_SRC, ins[0]}, {DNNL_ARG_SCALE, ins[1]}, {DNNL_ARG_SHIFT, ins[2]},
                     {DNNL_ARG_MEAN, ins[3]}, {DNNL_ARG_VARIANCE, ins[4]}, {DNNL_ARG_DST, y}};
  int rc = acl__eng_prim_step(b, pd, args, 6, "batch normalization");
  dnnl_primitive_desc_destroy(pd);
  if (rc == 0)
    absorb(b, relu, y);
  return rc;
}


/* ---- normalisation and GELU patterns of exported transformers ---------------------- */

/* A constant float tensor of C elements spread over the last axis (gamma, beta). */
static int const_last_axis(eng_build *b, int v, int64_t c) {
  return v >= 0 && f32(b, v) && V(b, v)->kind == ENG_CONST && acl__op_numel(V(b, v)->rank, V(b, v)->dims) == c &&
         V(b, v)->dims[V(b, v)->rank - 1] == c;
}

/* ReduceMean over the last axis only, keeping it. */
static int mean_last_axis(eng_build *b, int ni, int rank) {
  const acl__graph_node *n = N(b, ni);
  if (!op_is(b, ni, "ReduceMean") || n->n_inputs != 1)
    return 0;
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  const int64_t *axes = NULL;
  int64_t na = acl__op_attr_ints(&c, "axes", &axes);
  int keep = (int)acl__op_attr_int(&c, "keepdims", 1);
  acl__diags_free(&d);
  return keep && na == 1 && (axes[0] == -1 || axes[0] == rank - 1);
}

/* y = layer normalisation of plain xs over its last axis (C values), scaled
 * by gamma and shifted by beta (-1: none); 1 when oneDNN declines. */
static int layernorm_step(eng_build *b, int xs, int gamma, int beta, float eps, int y) {
  const eng_val *X = V(b, xs);
  int64_t C = X->dims[X->rank - 1];
  dnnl_layer_normalization_desc_t ld;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
  if (attr == NULL)
    return ACL_ERROR_BAD_ALLOC;
  unsigned flags = dnnl_use_scale | (beta >= 0 ? dnnl_use_shift : 0u);
  if (dnnl_layer_normalization_forward_desc_init(&ld, dnnl_forward_inference, &X->md, NULL, eps, flags) !=
          dnnl_success ||
      dnnl_primitive_desc_create(&pd, &ld, attr, b->e->dnnl, NULL) != dnnl_success)
    pd = NULL;
  dnnl_primitive_attr_destroy(attr);
  if (pd == NULL)
    return 1;
  dnnl_memory_desc_t cmd;
  acl__eng_plain_md(&cmd, 1, &C);
  int gv = view_as(b, gamma, 1, &C, &cmd), bv = beta >= 0 ? view_as(b, beta, 1, &C, &cmd) : -2;
  int rc = ACL_ERROR_BAD_ALLOC;
  if (gv >= 0 && bv != -1) {
    define(b, y, X->rank, X->dims, &X->md);
    eng_arg args[4] = {{DNNL_ARG_SRC, xs}, {DNNL_ARG_DST, y}, {DNNL_ARG_SCALE, gv}, {DNNL_ARG_SHIFT, bv}};
    rc = acl__eng_prim_step(b, pd, args, beta >= 0 ? 4 : 3, "layer normalization");
  }
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* Layer normalisation as PyTorch exports it before opset 17:
 *   m = ReduceMean(x); d = x - m; v = ReduceMean(d ^ 2); y = d / Sqrt(v + eps) * gamma + beta
 * over the last axis, as one oneDNN layer normalisation. */
static int layernorm_chain(eng_build *b, int ni, const int *ins) {
  int x = ins[0];
  if (!f32(b, x) || V(b, x)->rank < 2 || !mean_last_axis(b, ni, V(b, x)->rank))
    return 1;
  int rank = V(b, x)->rank;
  int64_t C = V(b, x)->dims[rank - 1];
  int m = out_of(b, ni, 0);
  int sub = next_op(b, ni, m, "Sub");
  if (sub < 0 || in_of(b, sub, 0) != x || in_of(b, sub, 1) != m)
    return 1;
  int d = out_of(b, sub, 0);
  /* d is read twice: by Pow and by Div */
  if (b->uses_left[d] != 2 || V(b, d)->graph_output)
    return 1;
  int pw = -1, dv = -1;
  const acl__graph *g = b->e->g;
  for (size_t j = (size_t)sub + 1; j < g->n_nodes; j++)
    for (size_t k = 0; k < g->nodes[j].n_inputs; k++)
      if (!b->e->dead[j] && acl__eng_resolve(b->e, g->nodes[j].inputs[k]) == d) {
        if (op_is(b, (int)j, "Pow") && pw < 0)
          pw = (int)j;
        else if (op_is(b, (int)j, "Div") && dv < 0)
          dv = (int)j;
      }
  float two = 0, eps = 0;
  if (pw < 0 || dv < 0 || in_of(b, pw, 0) != d || !const_scalar(b, in_of(b, pw, 1), &two) || two != 2.0f ||
      in_of(b, dv, 0) != d)
    return 1;
  int r2 = single_next(b, pw, out_of(b, pw, 0));
  if (r2 < 0 || !mean_last_axis(b, r2, rank))
    return 1;
  int ad = next_op(b, r2, out_of(b, r2, 0), "Add");
  if (ad < 0 || !const_scalar(b, other_in(b, ad, out_of(b, r2, 0)), &eps) || eps < 0)
    return 1;
  int sq = next_op(b, ad, out_of(b, ad, 0), "Sqrt");
  if (sq < 0 || single_next(b, sq, out_of(b, sq, 0)) != dv || in_of(b, dv, 1) != out_of(b, sq, 0))
    return 1;
  int mu = next_op(b, dv, out_of(b, dv, 0), "Mul");
  int gamma = mu >= 0 ? other_in(b, mu, out_of(b, dv, 0)) : -1;
  int ab = mu >= 0 && const_last_axis(b, gamma, C) ? next_op(b, mu, out_of(b, mu, 0), "Add") : -1;
  int beta = ab >= 0 ? other_in(b, ab, out_of(b, mu, 0)) : -1;
  if (ab < 0 || !const_last_axis(b, beta, C))
    return 1;
  int xs = acl__eng_plain(b, x);
  if (xs < 0)
    return ACL_ERROR_BAD_ALLOC;
  int y = out_of(b, ab, 0);
  int rc = layernorm_step(b, xs, gamma, beta, eps, y);
  if (rc == 0) {
    const int chain[8] = {sub, pw, r2, ad, sq, dv, mu, ab};
    for (int k = 0; k < 8; k++)
      absorb(b, chain[k], y);
    /* the first ReduceMean's output is not materialised either */
    define_view(b, m, y, rank, V(b, y)->dims, &V(b, y)->md);
  }
  return rc;
}

/* LayerNormalization (opset 17) over the last axis, one output. */
static int layernorm_op(eng_build *b, int ni, const int *ins, size_t nin) {
  const acl__graph_node *n = N(b, ni);
  int x = ins[0];
  if (!f32(b, x) || V(b, x)->rank < 2 || nin < 2)
    return 1;
  for (size_t k = 1; k < n->n_outputs; k++)
    if (n->outputs[k] >= 0)
      return 1;
  int rank = V(b, x)->rank;
  int64_t C = V(b, x)->dims[rank - 1];
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  int axis = acl__op_axis(acl__op_attr_int(&c, "axis", -1), rank);
  float eps = acl__op_attr_float(&c, "epsilon", 1e-5f);
  acl__diags_free(&d);
  int sc = ins[1], sh = nin > 2 ? ins[2] : -1;
  if (axis != rank - 1 || !f32(b, sc) || acl__op_numel(V(b, sc)->rank, V(b, sc)->dims) != C ||
      (sh >= 0 && (!f32(b, sh) || acl__op_numel(V(b, sh)->rank, V(b, sh)->dims) != C)))
    return 1;
  int xs = acl__eng_plain(b, x), scp = acl__eng_plain(b, sc), shp = sh >= 0 ? acl__eng_plain(b, sh) : -2;
  if (xs < 0 || scp < 0 || shp == -1)
    return ACL_ERROR_BAD_ALLOC;
  return layernorm_step(b, xs, scp, sh >= 0 ? shp : -1, eps, out_of(b, ni, 0));
}

/* GELU as PyTorch exports it (gelu_match), not after a product that took it
 * as a post-op: one step, the engine's own kernel where the CPU has AVX-512
 * (vec512.c), else oneDNN's eltwise (gelu_erf). */
static int gelu_chain(eng_build *b, int ni, const int *ins, size_t nin) {
  int x = ins[0], chain[5];
  if (nin != 2 || !f32(b, x) || !gelu_match(b, ni, x, chain))
    return 1;
  int y = out_of(b, chain[4], 0);
  int rc;
  if (acl__eng_vec512()) {
    eng_gelu *k = malloc(sizeof(*k));
    if (k == NULL)
      return ACL_ERROR_BAD_ALLOC;
    k->n = (int64_t)(dnnl_memory_desc_get_size(&V(b, x)->md) / sizeof(float));
    in_place_or_new(b, x, y);
    eng_arg a[2] = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}};
    rc = acl__eng_kernel_step(b, acl__eng_gelu_run, k, a, 2, "gelu", "own");
  } else {
    rc = eltwise_step(b, x, y, dnnl_eltwise_gelu_erf, 0.f, 0.f, "gelu");
  }
  if (rc == 0) {
    for (int k = 1; k < 5; k++)
      absorb(b, chain[k], y);
    define_view(b, out_of(b, ni, 0), y, V(b, y)->rank, V(b, y)->dims, &V(b, y)->md);
  }
  return rc;
}

/* Element k of a constant int64/int32 vector value. */
static int64_t const_int(eng_build *b, int v, int64_t k) {
  const eng_val *x = V(b, v);
  return x->onnx_type == ACL__ONNX_INT64 ? ((const int64_t *)x->konst.data)[k] : ((const int32_t *)x->konst.data)[k];
}

static int const_ints(eng_build *b, int v, int64_t *n) {
  if (v < 0 || V(b, v)->kind != ENG_CONST || V(b, v)->rank != 1 ||
      (V(b, v)->onnx_type != ACL__ONNX_INT64 && V(b, v)->onnx_type != ACL__ONNX_INT32))
    return 0;
  *n = V(b, v)->dims[0];
  return 1;
}

/* Slice with constant starts/ends/axes and unit steps (the channel split of
 * ShuffleNet's x.chunk(2, dim=1)): a view when the slice is one contiguous
 * run of x's plain bytes (nothing before the sliced axis but 1s), else one
 * reorder from the sub-tensor, kept in x's layout when oneDNN can. */
static int slice(eng_build *b, int ni, const int *ins, size_t nin) {
  int x = ins[0];
  int64_t ns = 0, ne = 0, na = 0, nt = 0;
  if (b->e->opset < 10 || nin < 3 || !f32(b, x) || !const_ints(b, ins[1], &ns) || !const_ints(b, ins[2], &ne) ||
      ns != ne || (nin > 3 && ins[3] >= 0 && (!const_ints(b, ins[3], &na) || na != ns)) ||
      (nin > 4 && ins[4] >= 0 && (!const_ints(b, ins[4], &nt) || nt != ns)))
    return 1;
  const eng_val *X = V(b, x);
  int rank = X->rank;
  int64_t od[DNNL_MAX_NDIMS], off[DNNL_MAX_NDIMS] = {0};
  memcpy(od, X->dims, sizeof(int64_t) * (size_t)rank);
  for (int64_t k = 0; k < ns; k++) {
    int64_t ax = nin > 3 && ins[3] >= 0 ? const_int(b, ins[3], k) : k;
    if (ax < 0)
      ax += rank;
    if (ax < 0 || ax >= rank || (nin > 4 && ins[4] >= 0 && const_int(b, ins[4], k) != 1))
      return 1;
    int64_t dim = X->dims[ax], st = const_int(b, ins[1], k), en = const_int(b, ins[2], k);
    st = st < 0 ? st + dim : st;
    en = en < 0 ? en + dim : en;
    st = st < 0 ? 0 : st > dim ? dim : st;
    en = en < 0 ? 0 : en > dim ? dim : en;
    if (en <= st)
      return 1;
    off[ax] = st;
    od[ax] = en - st;
  }
  int y = out_of(b, ni, 0);
  dnnl_memory_desc_t plain;
  acl__eng_plain_md(&plain, rank, od);
  int first = 0; /* the first sliced axis: before it only 1s, after it everything */
  while (first < rank && od[first] == X->dims[first])
    first++;
  int contiguous = X->plain && X->kind != ENG_CONST;
  for (int k = 0; k < rank && contiguous; k++)
    contiguous = k < first ? X->dims[k] == 1 : k == first || od[k] == X->dims[k];
  if (contiguous) {
    size_t o = (size_t)(first < rank ? off[first] * acl__op_numel(rank - first - 1, X->dims + first + 1) : 0);
    define_view(b, y, x, rank, od, &plain);
    V(b, y)->view_off = o * sizeof(float);
    return 0;
  }
  dnnl_memory_desc_t sub, dst;
  dnnl_dims_t dd, oo;
  for (int k = 0; k < rank; k++) {
    dd[k] = od[k];
    oo[k] = off[k];
  }
  int src = x;
  if (dnnl_memory_desc_init_submemory(&sub, &X->md, dd, oo) != dnnl_success) {
    /* offsets inside a channel block: from a plain copy */
    src = X->plain ? -1 : acl__eng_plain(b, x);
    if (src < 0 || dnnl_memory_desc_init_submemory(&sub, &V(b, src)->md, dd, oo) != dnnl_success)
      return src == -1 && !X->plain ? ACL_ERROR_BAD_ALLOC : 1;
  }
  dnnl_primitive_desc_t pd = NULL;
  for (int t = 0; t < 2 && pd == NULL; t++) {
    if (t == 0 && !like_layout(&V(b, src)->md, rank, od, &dst))
      continue;
    if (t == 1)
      dst = plain;
    if (dnnl_reorder_primitive_desc_create(&pd, &sub, b->e->dnnl, &dst, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
    if (t == 0 && pd != NULL && is_ref(pd)) {
      dnnl_primitive_desc_destroy(pd);
      pd = NULL;
    }
  }
  if (pd == NULL)
    return 1;
  int xv = view_as(b, src, rank, od, &sub);
  int rc = ACL_ERROR_BAD_ALLOC;
  if (xv >= 0) {
    define(b, y, rank, od, &dst);
    eng_arg args[2] = {{DNNL_ARG_FROM, xv}, {DNNL_ARG_TO, y}};
    rc = acl__eng_prim_step(b, pd, args, 2, "slice");
  }
  dnnl_primitive_desc_destroy(pd);
  return rc;
}

/* ReduceMean / ReduceSum / ReduceMax / ReduceMin over constant axes (an
 * attribute, or the second input in newer opsets) as one oneDNN reduction
 * reading x in its layout, such as the global average over a convolution's
 * blocked output at the head of ShuffleNet, instead of the reference
 * kernel's per-element index arithmetic on a plain copy.  keepdims 0 makes
 * the output a view of the kept-dims result. */
static int reduce(eng_build *b, int ni, const int *ins, size_t nin) {
  const char *op = N(b, ni)->op_type;
  dnnl_alg_kind_t alg = strcmp(op, "ReduceMean") == 0  ? dnnl_reduction_mean
                        : strcmp(op, "ReduceSum") == 0 ? dnnl_reduction_sum
                        : strcmp(op, "ReduceMax") == 0 ? dnnl_reduction_max
                        : strcmp(op, "ReduceMin") == 0 ? dnnl_reduction_min
                                                       : dnnl_alg_kind_undef;
  int x = ins[0];
  if (alg == dnnl_alg_kind_undef || !f32(b, x))
    return 1;
  int rank = V(b, x)->rank;
  if (rank < 1 || rank > DNNL_MAX_NDIMS)
    return 1;
  int64_t xd[DNNL_MAX_NDIMS];
  memcpy(xd, V(b, x)->dims, sizeof(int64_t) * (size_t)rank);
  acl__diags d = {0};
  acl__op_ctx c = ctx_of(b, ni, &d);
  const int64_t *axes = NULL;
  int64_t na = acl__op_attr_ints(&c, "axes", &axes);
  int keep = (int)acl__op_attr_int(&c, "keepdims", 1);
  int noop = (int)acl__op_attr_int(&c, "noop_with_empty_axes", 0);
  acl__diags_free(&d);
  if (nin > 1 && ins[1] >= 0) {
    if (na > 0 || !const_ints(b, ins[1], &na) || V(b, ins[1])->onnx_type != ACL__ONNX_INT64)
      return 1;
    axes = V(b, ins[1])->konst.data;
  }
  int red[DNNL_MAX_NDIMS] = {0};
  if (na <= 0 && noop)
    return 1; /* the identity: left to the reference kernel */
  for (int k = 0; k < rank; k++)
    red[k] = na <= 0;
  for (int64_t k = 0; k < na; k++) {
    int64_t a = axes[k] < 0 ? axes[k] + rank : axes[k];
    if (a < 0 || a >= rank)
      return 1;
    red[a] = 1;
  }
  int64_t kd[DNNL_MAX_NDIMS], od[DNNL_MAX_NDIMS];
  int orank = 0;
  for (int k = 0; k < rank; k++) {
    if (xd[k] == 0)
      return 1; /* empty: the reference kernel knows the identities */
    kd[k] = red[k] ? 1 : xd[k];
    if (!red[k] || keep)
      od[orank++] = kd[k];
  }
  if (orank == 0)
    return 1;
  /* The mean or maximum over every spatial axis of [N, C, spatial...] is a
   * global pooling, which oneDNN runs in jitted code on blocked layouts; its
   * reduction primitive has only the reference kernel for those. */
  int spatial = rank >= 3 && rank <= 5 && !red[0] && !red[1] && (alg == dnnl_reduction_mean || alg == dnnl_reduction_max);
  for (int k = 2; k < rank && spatial; k++)
    spatial = red[k];
  dnnl_memory_desc_t dst;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_attr_t attr = make_attr(0, NULL, NULL, 1.f);
  if (attr == NULL)
    return ACL_ERROR_BAD_ALLOC;
  if (spatial) {
    dnnl_dims_t st, kern, dl, pad;
    for (int k = 2; k < rank; k++)
      st[k - 2] = 1, kern[k - 2] = xd[k], dl[k - 2] = 0, pad[k - 2] = 0;
    md_any(&dst, rank, kd);
    dnnl_pooling_v2_desc_t pdsc;
    if (dnnl_pooling_v2_forward_desc_init(&pdsc, dnnl_forward_inference,
                                          alg == dnnl_reduction_max ? dnnl_pooling_max : dnnl_pooling_avg_exclude_padding,
                                          &V(b, x)->md, &dst, st, kern, dl, pad, pad) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &pdsc, attr, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
  } else {
    acl__eng_plain_md(&dst, rank, kd);
    dnnl_reduction_desc_t rd;
    if (dnnl_reduction_desc_init(&rd, alg, &V(b, x)->md, &dst, 0.f, 0.f) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &rd, attr, b->e->dnnl, NULL) != dnnl_success)
      pd = NULL;
  }
  dnnl_primitive_attr_destroy(attr);
  if (pd != NULL && is_ref(pd)) {
    dnnl_primitive_desc_destroy(pd); /* no faster than the reference kernel */
    pd = NULL;
  }
  if (pd == NULL)
    return 1;
  int y = out_of(b, ni, 0), t = y;
  if (!keep && (t = acl__eng_val_new(b->p)) < 0) {
    dnnl_primitive_desc_destroy(pd);
    return ACL_ERROR_BAD_ALLOC;
  }
  define(b, t, rank, kd, dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0));
  eng_arg args[2] = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, t}};
  int rc = acl__eng_prim_step(b, pd, args, 2, spatial ? "pooling" : "reduction");
  dnnl_primitive_desc_destroy(pd);
  if (rc == 0 && t != y && (t = acl__eng_plain(b, t)) < 0)
    rc = ACL_ERROR_BAD_ALLOC; /* a blocked [N, C, 1, 1] reordered to plain for the view without the 1s */
  if (rc == 0 && t != y) {
    dnnl_memory_desc_t omd;
    acl__eng_plain_md(&omd, orank, od);
    define_view(b, y, t, orank, od, &omd);
  }
  return rc;
}

/* A constant Pad whose pads are all zero (exporters put one before some
 * AveragePools) changes nothing: its output is its input, in its layout. */
static int zero_pad(eng_build *b, int ni, const int *ins, size_t nin) {
  const acl__graph_node *n = N(b, ni);
  if (nin < 2 || !f32(b, ins[0]) || ins[1] < 0 || V(b, ins[1])->kind != ENG_CONST ||
      V(b, ins[1])->onnx_type != ACL__ONNX_INT64 || V(b, out_of(b, ni, 0))->graph_output)
    return 1;
  for (size_t k = 0; k < n->n_attrs; k++)
    if (strcmp(n->attrs[k].name, "mode") == 0 && strcmp(n->attrs[k].s, "constant") != 0)
      return 1;
  const int64_t *pads = V(b, ins[1])->konst.data;
  for (int64_t k = 0; k < acl__op_numel(V(b, ins[1])->rank, V(b, ins[1])->dims); k++)
    if (pads[k] != 0)
      return 1;
  const eng_val *X = V(b, ins[0]);
  define_view(b, out_of(b, ni, 0), ins[0], X->rank, X->dims, &X->md);
  return 0;
}

static int dnnl_node(eng_build *b, int ni, const int *ins, size_t nin);

int acl__eng_dnnl_node(eng_build *b, int ni, const int *ins, size_t nin) {
  const acl__graph_node *n = N(b, ni);
  const char *op = n->op_type;
  if (n->n_outputs < 1 || n->outputs[0] < 0 || nin < 1 || ins[0] < 0)
    return 1;
  if (strcmp(op, "Conv") == 0)
    return conv(b, ni, ins, nin);
  if (strcmp(op, "QuantizeLinear") == 0)
    return quantize(b, ni, ins, nin);
  if (strcmp(op, "DequantizeLinear") == 0)
    return dequantize(b, ni, ins, nin);
  /* every other operator reads a quantised value as float32, scaled by a
   * reorder that keeps its layout */
  int q = 0;
  for (size_t k = 0; k < nin; k++)
    q |= ins[k] >= 0 && V(b, ins[k])->qscale != 0;
  if (!q || nin > 32)
    return dnnl_node(b, ni, ins, nin);
  int fins[32];
  for (size_t k = 0; k < nin; k++) {
    fins[k] = ins[k];
    if (ins[k] >= 0 && V(b, ins[k])->qscale != 0) {
      dnnl_memory_desc_t md = V(b, ins[k])->md;
      md.data_type = dnnl_f32;
      if ((fins[k] = in_layout(b, ins[k], &md)) < 0)
        return ACL_ERROR_BAD_ALLOC;
    }
  }
  return dnnl_node(b, ni, fins, nin);
}

/* The operators that read float32 values only. */
static int dnnl_node(eng_build *b, int ni, const int *ins, size_t nin) {
  const char *op = N(b, ni)->op_type;
  if (strcmp(op, "MaxPool") == 0 || strcmp(op, "AveragePool") == 0 || strcmp(op, "GlobalAveragePool") == 0 ||
      strcmp(op, "GlobalMaxPool") == 0)
    return pool(b, ni, ins);
  if (strcmp(op, "Gemm") == 0)
    return gemm(b, ni, ins, nin);
  if (strcmp(op, "MatMul") == 0)
    return matmul(b, ni, ins, nin);
  if (strcmp(op, "Softmax") == 0 || strcmp(op, "LogSoftmax") == 0)
    return softmax(b, ni, ins, op[0] == 'L');
  if (strcmp(op, "Concat") == 0) {
    int r = channel_shuffle(b, ni, ins, nin);
    return r != 1 ? r : concat(b, ni, ins, nin);
  }
  if (strcmp(op, "Pad") == 0)
    return zero_pad(b, ni, ins, nin);
  if (strcmp(op, "Slice") == 0)
    return slice(b, ni, ins, nin);
  if (strcmp(op, "Transpose") == 0)
    return transpose(b, ni, ins);
  if (strcmp(op, "BatchNormalization") == 0)
    return batchnorm(b, ni, ins, nin);
  if (strcmp(op, "LayerNormalization") == 0)
    return layernorm_op(b, ni, ins, nin);
  if (strcmp(op, "ReduceMean") == 0) {
    int r = layernorm_chain(b, ni, ins);
    if (r != 1)
      return r;
  }
  if (strncmp(op, "Reduce", 6) == 0)
    return reduce(b, ni, ins, nin);
  if (strcmp(op, "Div") == 0) {
    int r = gelu_chain(b, ni, ins, nin);
    if (r != 1)
      return r;
  }
  int r = binary(b, ni, ins, nin);
  if (r != 1)
    return r;
  return eltwise(b, ni, ins);
}
