/*
 * engine.c - the optimised model engine (src/model/engine/) against the
 * reference executor (tests unit/engine/...).
 *
 * Each test builds a small graph in memory, the shapes real models use
 * (a residual block with batch norms, a depthwise block with Clip, a
 * transformer-style MatMul + bias + Softmax, concatenations of blocked and
 * plain tensors, pooling with ceil mode and padding), runs it on both
 * executors with the same random inputs, and compares every output
 * (rtol 1e-4, atol 1e-5).  It also checks what the engine did with it:
 * which nodes were fused, that no reference kernel was needed where oneDNN
 * should run, that value-dependent shapes fall back to the reference
 * executor, that a plan is built per input shape, and that one engine runs
 * on several threads at once.
 */
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "model/engine/engine.h"
#include "model/engine/engine_internal.h" /* acl__eng_vec512 */
#include "model/exec.h"
#include "model/graph.h"
#include "model/model.h"

/* ---- a graph builder ---------------------------------------------------------- */

typedef struct gb {
  acl__graph *g;
  unsigned seed;
} gb;

static gb gb_new(int64_t opset) {
  gb b = {calloc(1, sizeof(acl__graph)), 12345u};
  b.g->ir_version = 8;
  b.g->opsets = calloc(1, sizeof(acl__graph_opset));
  b.g->opsets[0].domain = strdup("");
  b.g->opsets[0].version = opset;
  b.g->n_opsets = 1;
  return b;
}

static float rnd(gb *b) {
  b->seed = b->seed * 1103515245u + 12345u;
  return (float)((b->seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static int gb_tensor(gb *b, const char *name, acl__graph_tensor_kind kind, int type, int rank, const int64_t *dims) {
  acl__graph *g = b->g;
  g->tensors = realloc(g->tensors, (g->n_tensors + 1) * sizeof(*g->tensors));
  acl__graph_tensor *t = &g->tensors[g->n_tensors];
  memset(t, 0, sizeof(*t));
  t->name = strdup(name);
  t->kind = kind;
  t->producer = -1;
  t->onnx_type = type;
  t->dtype = acl__graph_onnx_to_acl(type);
  t->rank = rank;
  if (rank > 0) {
    t->dims = calloc((size_t)rank, sizeof(*t->dims));
    for (int k = 0; k < rank; k++)
      t->dims[k].value = dims[k];
  }
  return (int)g->n_tensors++;
}

/* A float graph input; -1 dims are symbolic. */
static int gb_input(gb *b, const char *name, int rank, const int64_t *dims) {
  int t = gb_tensor(b, name, ACL__TENSOR_INPUT, ACL__ONNX_FLOAT, rank, dims);
  b->g->inputs = realloc(b->g->inputs, (b->g->n_inputs + 1) * sizeof(int));
  b->g->inputs[b->g->n_inputs++] = t;
  return t;
}

/* A constant: given data, or random floats in [lo, lo + span). */
static int gb_const(gb *b, const char *name, int type, int rank, const int64_t *dims, const void *data, float lo,
                    float span) {
  int t = gb_tensor(b, name, ACL__TENSOR_INITIALIZER, type, rank, dims);
  acl__graph_tensor *x = &b->g->tensors[t];
  int64_t n = 1;
  for (int k = 0; k < rank; k++)
    n *= dims[k];
  x->data_size = (size_t)n * acl__graph_onnx_elem_size(type);
  x->data = malloc(x->data_size ? x->data_size : 1);
  if (data != NULL)
    memcpy(x->data, data, x->data_size);
  else
    for (int64_t i = 0; i < n; i++)
      ((float *)x->data)[i] = lo + span * (rnd(b) + 1.0f) / 2.0f;
  return t;
}

static int gb_w(gb *b, const char *name, int rank, const int64_t *dims) {
  return gb_const(b, name, ACL__ONNX_FLOAT, rank, dims, NULL, -0.5f, 1.0f);
}

/* A node with inputs `ins` (-1: omitted) and one new output tensor; returns its tensor. */
static int gb_node(gb *b, const char *op, const int *ins, size_t n_in, const char *out) {
  acl__graph *g = b->g;
  int t = gb_tensor(b, out, ACL__TENSOR_NODE_OUTPUT, 0, -1, NULL);
  g->nodes = realloc(g->nodes, (g->n_nodes + 1) * sizeof(*g->nodes));
  acl__graph_node *n = &g->nodes[g->n_nodes];
  memset(n, 0, sizeof(*n));
  n->name = strdup(out);
  n->op_type = strdup(op);
  n->domain = strdup("");
  n->inputs = malloc((n_in ? n_in : 1) * sizeof(int));
  memcpy(n->inputs, ins, n_in * sizeof(int));
  n->n_inputs = n_in;
  n->outputs = malloc(sizeof(int));
  n->outputs[0] = t;
  n->n_outputs = 1;
  g->tensors[t].producer = (int)g->n_nodes++;
  return t;
}

static acl__graph_attr *gb_attr(gb *b, const char *name, acl__graph_attr_type type) {
  acl__graph_node *n = &b->g->nodes[b->g->n_nodes - 1];
  n->attrs = realloc(n->attrs, (n->n_attrs + 1) * sizeof(*n->attrs));
  acl__graph_attr *a = &n->attrs[n->n_attrs++];
  memset(a, 0, sizeof(*a));
  a->name = strdup(name);
  a->type = type;
  return a;
}

static void gb_int(gb *b, const char *name, int64_t v) {
  gb_attr(b, name, ACL__ATTR_INT)->i = v;
}

static void gb_float(gb *b, const char *name, float v) {
  gb_attr(b, name, ACL__ATTR_FLOAT)->f = v;
}

static void gb_ints(gb *b, const char *name, size_t n, const int64_t *v) {
  acl__graph_attr *a = gb_attr(b, name, ACL__ATTR_INTS);
  a->count = n;
  a->ints = malloc(n * sizeof(int64_t));
  memcpy(a->ints, v, n * sizeof(int64_t));
}

static void gb_output(gb *b, int t) {
  b->g->tensors[t].is_graph_output = 1;
  b->g->outputs = realloc(b->g->outputs, (b->g->n_outputs + 1) * sizeof(int));
  b->g->outputs[b->g->n_outputs++] = t;
}

/* Conv with pads (all sides) and stride, weights [oc, ic/group, k, k]. */
static int conv(gb *b, const char *name, int x, int64_t ic, int64_t oc, int64_t k, int64_t pad, int64_t stride,
                int64_t group, int bias) {
  char wn[64], bn[64];
  snprintf(wn, sizeof(wn), "%s.w", name);
  snprintf(bn, sizeof(bn), "%s.b", name);
  int w = gb_w(b, wn, 4, (int64_t[]){oc, ic / group, k, k});
  int ins[3] = {x, w, bias ? gb_w(b, bn, 1, &oc) : -1};
  int y = gb_node(b, "Conv", ins, bias ? 3 : 2, name);
  gb_ints(b, "pads", 4, (int64_t[]){pad, pad, pad, pad});
  gb_ints(b, "strides", 2, (int64_t[]){stride, stride});
  if (group > 1)
    gb_int(b, "group", group);
  return y;
}

static int batchnorm(gb *b, const char *name, int x, int64_t c) {
  char n[4][64];
  const char *sfx[4] = {"scale", "bias", "mean", "var"};
  for (int i = 0; i < 4; i++)
    snprintf(n[i], sizeof(n[i]), "%s.%s", name, sfx[i]);
  int ins[5] = {x, gb_const(b, n[0], ACL__ONNX_FLOAT, 1, &c, NULL, 0.5f, 1.0f), gb_w(b, n[1], 1, &c),
                gb_w(b, n[2], 1, &c), gb_const(b, n[3], ACL__ONNX_FLOAT, 1, &c, NULL, 0.5f, 1.0f)};
  int y = gb_node(b, "BatchNormalization", ins, 5, name);
  gb_float(b, "epsilon", 1e-5f);
  return y;
}

static int unary(gb *b, const char *op, int x, const char *name) {
  return gb_node(b, op, &x, 1, name);
}

static int binary(gb *b, const char *op, int x, int y, const char *name) {
  int ins[2] = {x, y};
  return gb_node(b, op, ins, 2, name);
}

/* ---- running both executors ----------------------------------------------------- */

typedef struct feed {
  acl__tensor in[4];
  size_t n;
} feed;

static void feed_add(feed *f, gb *b, int rank, const int64_t *dims) {
  acl__tensor *t = &f->in[f->n++];
  CHECK_INT_EQ(acl__tensor_alloc(t, ACL__ONNX_FLOAT, rank, dims), 0);
  for (int64_t i = 0; i < acl__tensor_numel(t); i++)
    ((float *)t->data)[i] = rnd(b);
}

static void feed_free(feed *f) {
  for (size_t i = 0; i < f->n; i++)
    acl__tensor_release(&f->in[i]);
  f->n = 0;
}

/* Runs g on both executors with f and compares every output: element-wise
 * (1e-5 + 1e-4 relative) when scaled is 0, else within scaled times the
 * largest |reference| of that output (a reduced precision, whose rounding
 * errors scale with the values summed, not with each result). */
static void compare_run_tol(acl__engine *e, const acl__graph *g, const feed *f, double scaled) {
  acl__tensor want[4] = {{0}}, got[4] = {{0}};
  acl__diags d = {0};
  CHECK_INT_EQ(acl__exec_run(g, f->in, f->n, want, g->n_outputs, &d), 0);
  int rc = acl__engine_run(e, f->in, f->n, got, g->n_outputs, 2, NULL, 0, &d);
  CHECK_INT_EQ(rc, 0);
  if (rc != 0 && d.count > 0)
    printf("engine: %s: %s\n", d.items[0].path, d.items[0].message);
  for (size_t k = 0; rc == 0 && k < g->n_outputs; k++) {
    CHECK_INT_EQ(got[k].onnx_type, want[k].onnx_type);
    CHECK_INT_EQ(got[k].rank, want[k].rank);
    CHECK(memcmp(got[k].dims, want[k].dims, sizeof(int64_t) * (size_t)want[k].rank) == 0);
    int64_t n = acl__tensor_numel(&want[k]), bad = 0;
    double worst = 0, top = 0;
    for (int64_t i = 0; i < n && got[k].onnx_type == ACL__ONNX_FLOAT; i++)
      top = fmax(top, fabs(((float *)want[k].data)[i]));
    for (int64_t i = 0; i < n && got[k].onnx_type == ACL__ONNX_FLOAT; i++) {
      double a = ((float *)got[k].data)[i], w = ((float *)want[k].data)[i];
      double err = fabs(a - w);
      if (scaled > 0 ? !(err <= scaled * top) : err > 1e-5 + 1e-4 * fabs(w))
        bad++;
      if (err > worst)
        worst = err;
    }
    if (bad)
      printf("output %zu: %lld of %lld elements differ (max abs error %g)\n", k, (long long)bad, (long long)n,
                worst);
    CHECK_INT_EQ(bad, 0);
    /* other types (indices, masks) must match exactly */
    if (got[k].onnx_type != ACL__ONNX_FLOAT)
      CHECK(got[k].size == want[k].size && memcmp(got[k].data, want[k].data, want[k].size) == 0);
  }
  for (size_t k = 0; k < g->n_outputs; k++) {
    acl__tensor_release(&want[k]);
    acl__tensor_release(&got[k]);
  }
  acl__diags_free(&d);
}

static void compare_run(acl__engine *e, const acl__graph *g, const feed *f) { compare_run_tol(e, g, f, 0); }

static acl__engine *make_engine(const acl__graph *g) {
  acl__engine *e = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(acl__engine_create(g, ACL__PREC_FP32, &e, &d), 0);
  acl__diags_free(&d);
  return e;
}

static acl__engine_stats stats(acl__engine *e) {
  acl__engine_stats st;
  acl__engine_get_stats(e, &st);
  return st;
}

/* ---- tests ------------------------------------------------------------------------ */

/* conv -> BN -> relu -> conv -> BN -> add(downsample conv) -> relu -> GAP ->
 * flatten -> gemm: both BNs fold, relu, the residual add and the final relu fuse. */
TEST(residual_block) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){2, 8, 10, 10});
  int ds = conv(&b, "down", x, 8, 16, 1, 0, 1, 1, 1);
  int h = unary(&b, "Relu", batchnorm(&b, "bn1", conv(&b, "c1", x, 8, 16, 3, 1, 1, 1, 0), 16), "r1");
  int y = batchnorm(&b, "bn2", conv(&b, "c2", h, 16, 16, 3, 1, 1, 1, 0), 16);
  y = unary(&b, "Relu", binary(&b, "Add", y, ds, "add"), "r2");
  y = unary(&b, "Flatten", unary(&b, "GlobalAveragePool", y, "gap"), "flat");
  int ins[3] = {y, gb_w(&b, "fc.w", 2, (int64_t[]){10, 16}), gb_w(&b, "fc.b", 1, (int64_t[]){10})};
  y = gb_node(&b, "Gemm", ins, 3, "fc");
  gb_int(&b, "transB", 1);
  gb_output(&b, y);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){2, 8, 10, 10});
  compare_run(e, b.g, &f);
  acl__engine_stats st = stats(e);
  printf("%zu steps (%zu oneDNN, %zu reference), %zu fused\n", st.steps, st.dnnl_steps, st.ref_steps, st.fused);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK((long)st.fused >= 5); /* 2 BN folds, relu, add, relu */
  CHECK_INT_EQ(st.fallback, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* ResNet's basic block at a size where the engine picks Winograd for the
 * 3x3 convolutions (64 channels, 16x16 maps): relu, the residual add and the
 * final relu fused into them, as on the direct path; results as the
 * reference executor's within 1e-5 of the largest output (Winograd's
 * transforms round sums of the whole tile, so its error follows the
 * tile's magnitude rather than each element's: 3 of 32768 elements miss
 * the element-wise bound by a few 1e-5). */
TEST(winograd_block) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){2, 64, 16, 16});
  int ds = conv(&b, "down", x, 64, 64, 1, 0, 1, 1, 1);
  int h = unary(&b, "Relu", conv(&b, "c1", x, 64, 64, 3, 1, 1, 1, 1), "r1");
  int y = conv(&b, "c2", h, 64, 64, 3, 1, 1, 1, 1);
  y = unary(&b, "Relu", binary(&b, "Add", y, ds, "add"), "r2");
  gb_output(&b, y);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){2, 64, 16, 16});
  compare_run_tol(e, b.g, &f, 1e-5);
  acl__engine_stats st = stats(e);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK((long)st.fused >= 3); /* relu, add, relu */
  CHECK_INT_EQ(st.fallback, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* depthwise conv + Clip(0, 6) (opset 13, bounds as inputs) + 1x1 conv, MobileNet's pattern. */
TEST(depthwise_clip) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){1, 16, 9, 9});
  float lo = 0, hi = 6;
  int y = conv(&b, "dw", x, 16, 16, 3, 1, 2, 16, 1);
  int ins[3] = {y, gb_const(&b, "lo", ACL__ONNX_FLOAT, 0, NULL, &lo, 0, 0),
                gb_const(&b, "hi", ACL__ONNX_FLOAT, 0, NULL, &hi, 0, 0)};
  y = gb_node(&b, "Clip", ins, 3, "clip");
  y = conv(&b, "pw", y, 16, 24, 1, 0, 1, 1, 1);
  gb_output(&b, y);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, 16, 9, 9});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).fused, 1);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* MobileNetV2's expansion: pointwise conv + Clip(0, 6) -> depthwise 3x3
 * (stride 2, then stride 1 with a Swish after the pointwise one) + Clip.
 * Where the pointwise output is large (batch 8 here: 4.7 M floats) the two
 * are one oneDNN primitive (a dw post-op; its output in oneDNN's blocked
 * layout costs a reorder before the channels-last projection, so the plan
 * has as many steps as at batch 1, one of them fused); the results match
 * the reference executor either way. */
TEST(pointwise_depthwise_fused) {
  for (int v = 0; v < 3; v++) {
    /* stride 2 with ReLU6, stride 1 with Swish, and that without the pointwise bias (not fused: oneDNN
     * 2.6's fused kernel crashed on it) */
    int stride = v == 0 ? 2 : 1, pw_bias = v != 2;
    gb b = gb_new(13);
    int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 96, 96});
    float lo = 0, hi = 6;
    int lo_v = gb_const(&b, "lo", ACL__ONNX_FLOAT, 0, NULL, &lo, 0, 0);
    int hi_v = gb_const(&b, "hi", ACL__ONNX_FLOAT, 0, NULL, &hi, 0, 0);
    int y = conv(&b, "pw", x, 8, 64, 1, 0, 1, 1, pw_bias);
    if (stride == 2) {
      int ins[3] = {y, lo_v, hi_v};
      y = gb_node(&b, "Clip", ins, 3, "pw_clip");
    } else {
      y = binary(&b, "Mul", y, unary(&b, "Sigmoid", y, "pw_sig"), "pw_swish");
    }
    y = conv(&b, "dw", y, 64, 64, 3, 1, stride, 64, 1);
    int ins2[3] = {y, lo_v, hi_v};
    y = gb_node(&b, "Clip", ins2, 3, "dw_clip");
    gb_output(&b, conv(&b, "project", y, 64, 16, 1, 0, 1, 1, 1));
    acl__engine *e = make_engine(b.g);
    size_t fused[2];
    for (int k = 0; k < 2; k++) {
      feed f = {0};
      feed_add(&f, &b, 4, (int64_t[]){k ? 8 : 1, 8, 96, 96});
      compare_run(e, b.g, &f);
      feed_free(&f);
      fused[k] = stats(e).fused;
      CHECK_INT_EQ((long)stats(e).ref_steps, 0);
    }
    printf("stride %d: %zu nodes fused at batch 1, %zu at batch 8\n", stride, fused[0], fused[1]);
    /* the depthwise Conv (its Clip is fused either way); and the Sigmoid of a Swish, which the fused
     * primitive computes but, unfused, the engine's own kernel does as a step of its own (vec512.c) */
    int own_swish = stride == 1 && pw_bias && acl__eng_vec512();
    CHECK_INT_EQ((long)fused[1], (long)fused[0] + pw_bias + own_swish);
    acl__engine_destroy(e);
    acl__graph_free(b.g);
  }
}

/* MatMul + bias + Relu, Softmax on the last axis, Transpose: a transformer's pieces. */
TEST(matmul_softmax_transpose) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 3, (int64_t[]){2, 3, 5});
  int y = binary(&b, "MatMul", x, gb_w(&b, "w", 2, (int64_t[]){5, 6}), "mm");
  y = binary(&b, "Add", y, gb_w(&b, "bias", 1, (int64_t[]){6}), "bias_add");
  y = unary(&b, "Relu", y, "relu");
  int s = unary(&b, "Softmax", y, "softmax");
  int t = unary(&b, "Transpose", s, "transpose");
  gb_ints(&b, "perm", 3, (int64_t[]){0, 2, 1});
  int q = binary(&b, "MatMul", s, t, "attn"); /* [2,3,6] x [2,6,3]: a batched product of two activations */
  gb_output(&b, t);
  gb_output(&b, q);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 3, (int64_t[]){2, 3, 5});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).fused, 2); /* bias add and relu */
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Softmax and LogSoftmax before opset 13 coerce the input to 2-D at `axis`. */
TEST(softmax_opset11) {
  gb b = gb_new(11);
  int x = gb_input(&b, "x", 3, (int64_t[]){2, 3, 4});
  int s = unary(&b, "Softmax", x, "softmax");
  gb_int(&b, "axis", 1);
  int l = unary(&b, "LogSoftmax", x, "logsoftmax");
  gb_output(&b, s);
  gb_output(&b, l);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 3, (int64_t[]){2, 3, 4});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* A convolution's (blocked) output concatenated with a pooled tensor and
 * transposed: layouts are converted where needed, results unchanged. */
TEST(layouts) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){1, 8, 8, 8});
  int c = unary(&b, "Relu", conv(&b, "c", x, 8, 16, 3, 1, 1, 1, 1), "relu");
  int p = unary(&b, "MaxPool", x, "pool");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){3, 3});
  gb_ints(&b, "pads", 4, (int64_t[]){1, 1, 1, 1});
  int ins[3] = {c, p, x};
  int cat = gb_node(&b, "Concat", ins, 3, "cat");
  gb_int(&b, "axis", 1);
  int t = unary(&b, "Transpose", cat, "nhwc");
  gb_ints(&b, "perm", 4, (int64_t[]){0, 2, 3, 1});
  int s = unary(&b, "Sigmoid", c, "sig"); /* a second reader of the blocked tensor */
  gb_output(&b, t);
  gb_output(&b, s);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, 8, 8, 8});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Pooling: ceil mode, padding counted or not, global max. */
TEST(pooling) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){2, 3, 10, 10});
  int m = unary(&b, "MaxPool", x, "max_ceil");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){3, 3});
  gb_ints(&b, "strides", 2, (int64_t[]){2, 2});
  gb_int(&b, "ceil_mode", 1);
  int a = unary(&b, "AveragePool", x, "avg_incl");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){3, 3});
  gb_ints(&b, "pads", 4, (int64_t[]){1, 1, 1, 1});
  gb_int(&b, "count_include_pad", 1);
  int a2 = unary(&b, "AveragePool", x, "avg_excl");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){2, 2});
  gb_ints(&b, "strides", 2, (int64_t[]){3, 3});
  gb_ints(&b, "pads", 4, (int64_t[]){1, 0, 1, 0});
  gb_int(&b, "ceil_mode", 1);
  int g = unary(&b, "GlobalMaxPool", x, "gmax");
  gb_output(&b, m);
  gb_output(&b, a);
  gb_output(&b, a2);
  gb_output(&b, g);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){2, 3, 10, 10});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Broadcasting binaries: a squeeze-and-excitation Mul, a Sub whose first
 * operand is the broadcast one (oneDNN cannot: the reference kernel runs it). */
TEST(broadcast_binaries) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){2, 4, 5, 5});
  int s = gb_input(&b, "s", 4, (int64_t[]){2, 4, 1, 1});
  int c = conv(&b, "c", x, 4, 4, 3, 1, 1, 1, 1);
  int m = binary(&b, "Mul", c, unary(&b, "Sigmoid", s, "gate"), "se");
  int d = binary(&b, "Sub", s, m, "sub");
  int q = binary(&b, "Div", m, gb_const(&b, "two", ACL__ONNX_FLOAT, 1, (int64_t[]){1}, (float[]){2.0f}, 0, 0), "div");
  gb_output(&b, d);
  gb_output(&b, q);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){2, 4, 5, 5});
  feed_add(&f, &b, 4, (int64_t[]){2, 4, 1, 1});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).ref_steps, 1); /* the Sub */
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* NonZero's output shape depends on the data: those shapes run on the reference executor. */
TEST(value_dependent_shape_falls_back) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 2, (int64_t[]){3, 4});
  int r = unary(&b, "Relu", x, "relu");
  int nz = unary(&b, "NonZero", r, "nz");
  gb_output(&b, nz);
  gb_output(&b, r);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 2, (int64_t[]){3, 4});
  compare_run(e, b.g, &f); /* NonZero's int64 indices compared exactly */
  CHECK_INT_EQ(stats(e).fallback, 1);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* A Reshape whose shape comes from Shape -> Gather -> Concat: known once the
 * input shape is, so every batch size gets its own plan, none falls back. */
static void build_dynamic_reshape(gb *b) {
  int x = gb_input(b, "x", 3, (int64_t[]){-1, 4, 6});
  int sh = unary(b, "Shape", x, "shape");
  int64_t zero = 0, minus1 = -1;
  int idx = gb_const(b, "idx", ACL__ONNX_INT64, 0, NULL, &zero, 0, 0);
  int n = binary(b, "Gather", sh, idx, "n");
  int ax = gb_const(b, "axes", ACL__ONNX_INT64, 1, (int64_t[]){1}, &zero, 0, 0);
  int n1 = binary(b, "Unsqueeze", n, ax, "n1");
  int rest = gb_const(b, "rest", ACL__ONNX_INT64, 1, (int64_t[]){1}, &minus1, 0, 0);
  int ins[2] = {n1, rest};
  int shape = gb_node(b, "Concat", ins, 2, "newshape");
  gb_int(b, "axis", 0);
  int y = binary(b, "Reshape", unary(b, "Relu", x, "relu"), shape, "flat");
  y = binary(b, "MatMul", y, gb_w(b, "w", 2, (int64_t[]){24, 3}), "fc");
  gb_output(b, y);
}

TEST(plan_per_shape) {
  gb b = gb_new(13);
  build_dynamic_reshape(&b);
  acl__engine *e = make_engine(b.g);
  int64_t batches[3] = {2, 5, 2};
  for (int i = 0; i < 3; i++) {
    feed f = {0};
    feed_add(&f, &b, 3, (int64_t[]){batches[i], 4, 6});
    compare_run(e, b.g, &f);
    feed_free(&f);
    CHECK_INT_EQ(stats(e).fallback, 0);
  }
  CHECK_INT_EQ((long)stats(e).plans, 2);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* One engine, four threads, two shapes: each execution has its own arena. */
typedef struct thr_arg {
  acl__engine *e;
  const acl__graph *g;
  int id;
} thr_arg;

static void *thr_main(void *p) {
  thr_arg *a = p;
  gb rng = {NULL, (unsigned)a->id * 7919u + 1u};
  for (int i = 0; i < 8; i++) {
    feed f = {0};
    feed_add(&f, &rng, 3, (int64_t[]){1 + (a->id + i) % 3, 4, 6});
    compare_run(a->e, a->g, &f);
    feed_free(&f);
  }
  return NULL;
}

TEST(threads) {
  gb b = gb_new(13);
  build_dynamic_reshape(&b);
  acl__engine *e = make_engine(b.g);
  pthread_t t[4];
  thr_arg a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = (thr_arg){e, b.g, i};
    CHECK_INT_EQ(pthread_create(&t[i], NULL, thr_main, &a[i]), 0);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  CHECK_INT_EQ((long)stats(e).plans, 3);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Inputs that contradict the model are refused, as the reference executor does. */
TEST(bad_input_shape) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 2, (int64_t[]){3, 4});
  gb_output(&b, unary(&b, "Relu", x, "relu"));
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 2, (int64_t[]){4, 3});
  acl__tensor out[1] = {{0}};
  acl__diags d = {0};
  CHECK_INT_EQ(acl__engine_run(e, f.in, 1, out, 1, 2, NULL, 0, &d), ACL_ERROR_INVALID_PARAM);
  CHECK(d.count > 0);
  CHECK(out[0].data == NULL);
  acl__diags_free(&d);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* The caller's work memory (aclmdlLoadFrom*WithMem) serves as the arena when it
 * is big enough; a smaller one is ignored, never overrun. */
TEST(work_memory) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){1, 8, 8, 8});
  int y = unary(&b, "Relu", conv(&b, "c1", x, 8, 8, 3, 1, 1, 1, 1), "r");
  gb_output(&b, conv(&b, "c2", y, 8, 8, 3, 1, 1, 1, 1));
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, 8, 8, 8});
  compare_run(e, b.g, &f); /* builds the plan: its arena size is known now */
  size_t need = stats(e).arena_bytes;
  CHECK(need > 0);
  for (int fits = 0; fits < 2; fits++) {
    size_t size = fits ? need : need / 2;
    unsigned char *work = NULL;
    CHECK_INT_EQ(posix_memalign((void **)&work, 64, need + 64), 0);
    memset(work, 0xA5, need + 64);
    acl__tensor out[1] = {{0}}, want[1] = {{0}};
    acl__diags d = {0};
    CHECK_INT_EQ(acl__engine_run(e, f.in, 1, out, 1, 2, work, size, &d), 0);
    CHECK_INT_EQ(acl__exec_run(b.g, f.in, 1, want, 1, &d), 0);
    for (int64_t i = 0; i < acl__tensor_numel(&want[0]); i++)
      CHECK(fabsf(((float *)out[0].data)[i] - ((float *)want[0].data)[i]) <= 1e-4f + 1e-4f * fabsf(((float *)want[0].data)[i]));
    int touched = 0;
    for (size_t i = 0; i < need; i++)
      touched |= work[i] != 0xA5;
    CHECK_INT_EQ(touched, fits); /* used only when it fits */
    for (size_t i = need; i < need + 64; i++)
      CHECK_INT_EQ(work[i], 0xA5); /* never beyond */
    acl__tensor_release(&out[0]);
    acl__tensor_release(&want[0]);
    acl__diags_free(&d);
    free(work);
  }
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* A transformer block's pieces as PyTorch exports them before opset 17: the
 * layer normalisation decomposed into nine nodes, GELU as Erf, and q/k/v
 * picked from one tensor with Gather: one layer normalisation, one GELU and
 * two views, no reference kernel. */
TEST(transformer_patterns) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 3, (int64_t[]){2, 5, 8});
  float two = 2.0f, eps = 1e-5f, sqrt2 = 1.41421356f, one = 1.0f, half = 0.5f;
  int m = unary(&b, "ReduceMean", x, "mean");
  gb_ints(&b, "axes", 1, (int64_t[]){-1});
  int d = binary(&b, "Sub", x, m, "centred");
  int p = binary(&b, "Pow", d, gb_const(&b, "two", ACL__ONNX_FLOAT, 0, NULL, &two, 0, 0), "sq");
  int v = unary(&b, "ReduceMean", p, "var");
  gb_ints(&b, "axes", 1, (int64_t[]){-1});
  int a = binary(&b, "Add", v, gb_const(&b, "eps", ACL__ONNX_FLOAT, 0, NULL, &eps, 0, 0), "var_eps");
  int s = unary(&b, "Sqrt", a, "std");
  int n = binary(&b, "Div", d, s, "normed");
  int y = binary(&b, "Mul", n, gb_const(&b, "gamma", ACL__ONNX_FLOAT, 1, (int64_t[]){8}, NULL, 0.5f, 1.0f), "scaled");
  y = binary(&b, "Add", y, gb_w(&b, "beta", 1, (int64_t[]){8}), "ln");
  /* GELU */
  int g0 = binary(&b, "Div", y, gb_const(&b, "sqrt2", ACL__ONNX_FLOAT, 0, NULL, &sqrt2, 0, 0), "g_div");
  int g1 = unary(&b, "Erf", g0, "g_erf");
  int g2 = binary(&b, "Add", g1, gb_const(&b, "one", ACL__ONNX_FLOAT, 0, NULL, &one, 0, 0), "g_add");
  int g3 = binary(&b, "Mul", y, g2, "g_mul");
  int g = binary(&b, "Mul", g3, gb_const(&b, "half", ACL__ONNX_FLOAT, 0, NULL, &half, 0, 0), "gelu");
  /* q, k from a [2, 2, 5, 4] reshape of the GELU output */
  int64_t shape[4] = {2, 2, 5, 4}, zero = 0, onei = 1;
  int r = binary(&b, "Reshape", g, gb_const(&b, "shape", ACL__ONNX_INT64, 1, (int64_t[]){4}, shape, 0, 0), "heads");
  int q = binary(&b, "Gather", r, gb_const(&b, "i0", ACL__ONNX_INT64, 0, NULL, &zero, 0, 0), "q");
  int k = binary(&b, "Gather", r, gb_const(&b, "i1", ACL__ONNX_INT64, 0, NULL, &onei, 0, 0), "k");
  gb_output(&b, binary(&b, "Add", q, k, "qk"));
  gb_output(&b, g);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 3, (int64_t[]){2, 5, 8});
  compare_run(e, b.g, &f);
  acl__engine_stats st = stats(e);
  printf("%zu steps (%zu oneDNN, %zu reference), %zu fused\n", st.steps, st.dnnl_steps, st.ref_steps, st.fused);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK((long)st.fused >= 12); /* 8 + the mean into the layer norm, 4 into the GELU */
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* LayerNormalization (opset 17) over the last axis, with and without a bias. */
TEST(layernorm_op) {
  gb b = gb_new(17);
  int x = gb_input(&b, "x", 3, (int64_t[]){3, 4, 6});
  int ins[3] = {x, gb_const(&b, "scale", ACL__ONNX_FLOAT, 1, (int64_t[]){6}, NULL, 0.5f, 1.0f),
                gb_w(&b, "bias", 1, (int64_t[]){6})};
  int y = gb_node(&b, "LayerNormalization", ins, 3, "ln");
  gb_float(&b, "epsilon", 1e-3f);
  int z = gb_node(&b, "LayerNormalization", ins, 2, "ln_nobias");
  gb_output(&b, y);
  gb_output(&b, z);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 3, (int64_t[]){3, 4, 6});
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Runs graph b on inputs of shape `dims` with batch 1 and 8 (dims[0]
 * replaced), comparing with the reference executor each time; returns the
 * stats of the last plan. */
static acl__engine_stats compare_batches(gb *b, int rank, const int64_t *dims) {
  acl__engine *e = make_engine(b->g);
  acl__engine_stats st = {0};
  for (int64_t n = 1; n <= 8; n += 7) {
    int64_t d[8];
    memcpy(d, dims, sizeof(int64_t) * (size_t)rank);
    d[0] = n;
    feed f = {0};
    feed_add(&f, b, rank, d);
    compare_run(e, b->g, &f);
    feed_free(&f);
    st = stats(e);
    printf("batch %lld: %zu steps (%zu oneDNN, %zu own kernels, %zu reference), %zu fused\n", (long long)n, st.steps,
           st.dnnl_steps, st.kernel_steps, st.ref_steps, st.fused);
  }
  acl__engine_destroy(e);
  return st;
}

/* x * Sigmoid(x) and x * HardSigmoid(x) (alpha 1/6, beta 1/2) after a
 * convolution become its swish / hardswish post-op, in either operand
 * order; on a graph input they become one eltwise.  A HardSigmoid with other
 * parameters is no hardswish and stays two steps. */
TEST(swish_hardswish) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 9, 9});
  int c1 = conv(&b, "c1", x, 8, 32, 3, 1, 1, 1, 1);
  int s1 = unary(&b, "Sigmoid", c1, "sig1");
  int y1 = binary(&b, "Mul", c1, s1, "swish1");
  int c2 = conv(&b, "c2", y1, 32, 32, 3, 1, 1, 32, 1); /* depthwise */
  int h2 = unary(&b, "HardSigmoid", c2, "hs2");
  gb_float(&b, "alpha", 1.0f / 6.0f);
  gb_float(&b, "beta", 0.5f);
  int y2 = binary(&b, "Mul", h2, c2, "hswish2");
  int c3 = conv(&b, "c3", y2, 32, 24, 1, 0, 1, 1, 1);
  int h3 = unary(&b, "HardSigmoid", c3, "hs3"); /* ONNX's default alpha 0.2: no hardswish, two steps */
  int y3 = binary(&b, "Mul", c3, h3, "mul3");
  gb_output(&b, y3);
  int s4 = unary(&b, "Sigmoid", x, "sig4"); /* on the plain graph input */
  gb_output(&b, binary(&b, "Mul", s4, x, "swish4"));
  int h5 = unary(&b, "HardSigmoid", x, "hs5"); /* alone: linear + clip on oneDNN */
  gb_float(&b, "alpha", 0.3f);
  gb_float(&b, "beta", 0.4f);
  gb_output(&b, h5);
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, 8, 9, 9});
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK((long)st.fused >= 5); /* the two pairs after c1 and c2, the Mul of swish4 */
  acl__graph_free(b.g);
}

/* The engine's Swish kernel (vec512.c, on AVX-512) over the whole float
 * range: tiny, ordinary, and large values of both signs (where e^-x over-
 * or underflows and the result is x or 0), element counts that leave a
 * partial vector and a partial unit of work, as the reference's. */
TEST(swish_wide_range) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 3, 5, 7});
  gb_output(&b, binary(&b, "Mul", x, unary(&b, "Sigmoid", x, "sig"), "swish"));
  acl__engine *e = make_engine(b.g);
  static const float mags[] = {0.f, 1e-30f, 1e-3f, 0.25f, 1.f, 3.5f, 11.f, 20.f, 86.5f, 87.5f, 88.5f, 100.f, 1e4f, 3e38f};
  for (int64_t n = 1; n <= 8; n += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){n, 3, 5, 7});
    float *v = f.in[0].data;
    for (int64_t i = 0; i < acl__tensor_numel(&f.in[0]); i++)
      v[i] = (i % 2 ? -1.f : 1.f) * mags[(i / 2) % (sizeof(mags) / sizeof(mags[0]))] * (1.f + (float)(i % 5) / 8);
    compare_run(e, b.g, &f);
    feed_free(&f);
  }
  acl__engine_stats st = stats(e);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* EfficientNet's depthwise conv + Swish (x * Sigmoid(x)) + 1x1 conv: the
 * Swish is one eltwise step after the convolution rather than its post-op
 * (oneDNN's depthwise kernel is slow at it), results as the reference's. */
TEST(depthwise_swish) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 32, 12, 12});
  int y = conv(&b, "dw", x, 32, 32, 3, 1, 1, 32, 1);
  y = binary(&b, "Mul", y, unary(&b, "Sigmoid", y, "sig"), "swish");
  y = conv(&b, "pw", y, 32, 16, 1, 0, 1, 1, 1);
  gb_output(&b, y);
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){2, 32, 12, 12});
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK_INT_EQ((long)st.fused, 1); /* the Mul, into the swish step */
  CHECK_INT_EQ((long)st.steps, 5); /* to blocked, depthwise, swish, pointwise, to plain */
  acl__graph_free(b.g);
}

/* Squeeze-and-excitation: x * HardSigmoid(Conv(Relu(Conv(GAP(x))))) with x
 * in a blocked layout; the per-channel factor [N, C, 1, 1] is read in x's
 * layout, so nothing goes back to plain.  Also a constant [1, C, 1, 1] and a
 * per-sample [N, 1, 1, 1] factor, channel counts that are and are not
 * multiples of the block. */
TEST(se_block_broadcast) {
  for (int64_t C = 16; C <= 40; C += 24) {
    gb b = gb_new(13);
    int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 10, 10});
    int c = conv(&b, "c", x, 8, C, 3, 1, 1, 1, 1);
    int r = unary(&b, "Relu", c, "r");
    int p = unary(&b, "GlobalAveragePool", r, "gap");
    int f1 = unary(&b, "Relu", conv(&b, "fc1", p, C, 8, 1, 0, 1, 1, 1), "fc1r");
    int f2 = conv(&b, "fc2", f1, 8, C, 1, 0, 1, 1, 1);
    int s = unary(&b, "Sigmoid", f2, "gate");
    int y = binary(&b, "Mul", r, s, "se");
    int z = conv(&b, "proj", y, C, C, 1, 0, 1, 1, 1);
    int k = gb_const(&b, "k", ACL__ONNX_FLOAT, 4, (int64_t[]){1, C, 1, 1}, NULL, 0.5f, 1.0f);
    int zk = binary(&b, "Mul", k, z, "scaled");
    int m = unary(&b, "GlobalAveragePool", conv(&b, "one", zk, C, 1, 1, 0, 1, 1, 1), "per_sample");
    gb_output(&b, binary(&b, "Add", zk, m, "out"));
    acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, 8, 10, 10});
    CHECK_INT_EQ((long)st.ref_steps, 0);
    acl__graph_free(b.g);
  }
}

/* A DenseNet block: every layer concatenates all earlier outputs, which come
 * out of convolutions and pooling in different layouts (channel counts that
 * are and are not multiples of the block), then a transition with the
 * all-zero Pad exporters put before AveragePool (a view, no step). */
TEST(dense_concat_zero_pad) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 3, 16, 16});
  int feat = unary(&b, "Relu", conv(&b, "stem", x, 3, 16, 3, 1, 1, 1, 1), "stem_r");
  feat = unary(&b, "MaxPool", feat, "pool0");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){2, 2});
  gb_ints(&b, "strides", 2, (int64_t[]){2, 2});
  int64_t ch = 16;
  int parts[4] = {feat};
  for (int l = 0; l < 3; l++) {
    char nm[4][32];
    snprintf(nm[0], sizeof(nm[0]), "bn%d", l);
    snprintf(nm[1], sizeof(nm[1]), "relu%d", l);
    snprintf(nm[2], sizeof(nm[2]), "conv%d", l);
    snprintf(nm[3], sizeof(nm[3]), "cat%d", l);
    int h = unary(&b, "Relu", batchnorm(&b, nm[0], feat, ch), nm[1]);
    int64_t grow = l == 1 ? 8 : 16;
    parts[l + 1] = conv(&b, nm[2], h, ch, grow, 3, 1, 1, 1, 0);
    feat = gb_node(&b, "Concat", parts, (size_t)l + 2, nm[3]);
    gb_int(&b, "axis", 1);
    ch += grow;
  }
  int t = conv(&b, "trans", unary(&b, "Relu", batchnorm(&b, "tbn", feat, ch), "trelu"), ch, 32, 1, 0, 1, 1, 0);
  int64_t zeros[8] = {0};
  int pd = binary(&b, "Pad", t, gb_const(&b, "pads", ACL__ONNX_INT64, 1, (int64_t[]){8}, zeros, 0, 0), "pad");
  int ap = unary(&b, "AveragePool", pd, "tpool");
  gb_ints(&b, "kernel_shape", 2, (int64_t[]){2, 2});
  gb_ints(&b, "strides", 2, (int64_t[]){2, 2});
  gb_output(&b, ap);
  gb_output(&b, feat);
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, 3, 16, 16});
  CHECK_INT_EQ((long)st.ref_steps, 0);
  acl__graph_free(b.g);
}

/* Concat(channels) -> BatchNormalization [-> Relu] read by nothing else is
 * one pass of the engine's kernel, in each layout it reads: plain parts
 * (a graph input and an activation of it), channels-last parts out of
 * convolutions (oneDNN's pick for these; the graph input reordered to
 * match), channel counts that are not multiples of a block, and blocked
 * parts after a stem convolution on three channels and pooling, as in
 * DenseNet.
 * A concatenation also read elsewhere, or a normalisation without its
 * ReLU, stays correct. */
TEST(concat_norm) {
  for (int shape = 0; shape < 4; shape++) {
    gb b = gb_new(13);
    int64_t c0 = shape == 2 ? 12 : shape == 3 ? 3 : 16;
    int x = gb_input(&b, "x", 4, (int64_t[]){-1, c0, 7, 7});
    int parts[4], n = 0;
    int64_t ch = 0;
    if (shape == 3) { /* DenseNet's stem: a wide convolution and pooling, blocked */
      int stem = unary(&b, "Relu", conv(&b, "stem", x, c0, 64, 7, 3, 1, 1, 0), "stem_r");
      parts[n++] = unary(&b, "MaxPool", stem, "pool0"), ch += 64;
      gb_ints(&b, "kernel_shape", 2, (int64_t[]){3, 3});
      gb_ints(&b, "pads", 4, (int64_t[]){1, 1, 1, 1});
      parts[n++] = conv(&b, "s1", parts[0], 64, 32, 1, 0, 1, 1, 0), ch += 32;
    } else {
      parts[n++] = x, ch += c0;
    }
    if (shape == 3) {
    } else if (shape == 0) {
      parts[n++] = unary(&b, "Sigmoid", x, "sig"), ch += c0;
    } else {
      parts[n++] = conv(&b, "a", x, c0, 32, 3, 1, 1, 1, 1), ch += 32;
      parts[n++] = conv(&b, "b", x, c0, shape == 2 ? 8 : 16, 1, 0, 1, 1, 1), ch += shape == 2 ? 8 : 16;
      parts[n++] = unary(&b, "Relu", conv(&b, "c", x, c0, 32, 3, 1, 1, 1, 0), "cr"), ch += 32;
    }
    int cat = gb_node(&b, "Concat", parts, (size_t)n, "cat");
    gb_int(&b, "axis", 1);
    int y = batchnorm(&b, "bn", cat, ch);
    gb_output(&b, shape == 1 ? y : unary(&b, "Relu", y, "bnr"));
    /* a second concatenation that is also a graph output: not fused */
    int again = gb_node(&b, "Concat", parts, (size_t)n, "cat2");
    gb_int(&b, "axis", 1);
    gb_output(&b, again);
    gb_output(&b, unary(&b, "Relu", batchnorm(&b, "bn2", again, ch), "bn2r"));
    acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, c0, 7, 7});
    CHECK_INT_EQ((long)st.ref_steps, 0);
    CHECK_INT_EQ((long)st.kernel_steps, 1);
    acl__graph_free(b.g);
  }
}

/* ShuffleNet's channel shuffle and split: Reshape [N, 2, C/2, H, W] ->
 * Transpose(0, 2, 1, 3, 4) -> Reshape -> two Slices along the channels
 * (x.chunk(2, dim=1)); the Slices are views at batch 1 and sub-tensor
 * reorders otherwise.  Also Slices of a blocked convolution output (block
 * aligned or not), along the height with negative and huge bounds, and
 * negative axes. */
TEST(shuffle_slice) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 4, 6, 6});
  int c = unary(&b, "Relu", conv(&b, "c", x, 4, 32, 3, 1, 1, 1, 1), "cr");
  int64_t s5[5] = {-1, 2, 16, 6, 6}, s4[4] = {-1, 32, 6, 6};
  int r = binary(&b, "Reshape", c, gb_const(&b, "s5", ACL__ONNX_INT64, 1, (int64_t[]){5}, s5, 0, 0), "r5");
  int t = unary(&b, "Transpose", r, "shuffled");
  gb_ints(&b, "perm", 5, (int64_t[]){0, 2, 1, 3, 4});
  int sh = binary(&b, "Reshape", t, gb_const(&b, "s4", ACL__ONNX_INT64, 1, (int64_t[]){4}, s4, 0, 0), "r4");
  int64_t z = 0, h16 = 16, h32 = 32, one = 1, m3 = -3, big = INT64_MAX, ax2 = -2, st3 = 3, st12 = 12;
  int k0 = gb_const(&b, "k0", ACL__ONNX_INT64, 1, (int64_t[]){1}, &z, 0, 0);
  int k16 = gb_const(&b, "k16", ACL__ONNX_INT64, 1, (int64_t[]){1}, &h16, 0, 0);
  int k32 = gb_const(&b, "k32", ACL__ONNX_INT64, 1, (int64_t[]){1}, &h32, 0, 0);
  int a1 = gb_const(&b, "a1", ACL__ONNX_INT64, 1, (int64_t[]){1}, &one, 0, 0);
  int lo[4] = {sh, k0, k16, a1}, hi[4] = {sh, k16, k32, a1};
  int first = gb_node(&b, "Slice", lo, 4, "lo");
  int second = gb_node(&b, "Slice", hi, 4, "hi");
  int br = unary(&b, "Relu", conv(&b, "branch", second, 16, 16, 1, 0, 1, 1, 1), "branch_r");
  int cat[2] = {first, br};
  gb_output(&b, gb_node(&b, "Concat", cat, 2, "cat"));
  gb_int(&b, "axis", 1);
  /* a blocked tensor sliced at 3..12 (not block aligned) and along the height */
  int ub[4] = {c, gb_const(&b, "k3", ACL__ONNX_INT64, 1, (int64_t[]){1}, &st3, 0, 0),
               gb_const(&b, "k12", ACL__ONNX_INT64, 1, (int64_t[]){1}, &st12, 0, 0), a1};
  gb_output(&b, gb_node(&b, "Slice", ub, 4, "unaligned"));
  int hs[4] = {c, gb_const(&b, "km3", ACL__ONNX_INT64, 1, (int64_t[]){1}, &m3, 0, 0),
               gb_const(&b, "kbig", ACL__ONNX_INT64, 1, (int64_t[]){1}, &big, 0, 0),
               gb_const(&b, "am2", ACL__ONNX_INT64, 1, (int64_t[]){1}, &ax2, 0, 0)};
  gb_output(&b, gb_node(&b, "Slice", hs, 4, "rows"));
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, 4, 6, 6});
  CHECK_INT_EQ((long)st.ref_steps, 0);
  acl__graph_free(b.g);
}

/* ShuffleNet's Concat -> Reshape [N,G,C,H,W] -> Transpose (0,2,1,3,4) ->
 * Reshape [N,G*C,H,W] becomes one reorder per concatenated input into its
 * strided place in the output: with G 2 and 3, inputs in a convolution's
 * layout and a graph input in plain, shapes written with 0 and -1.  A concat
 * whose output is read elsewhere too is left as it was.  (compare_run takes
 * at most 4 outputs.) */
TEST(channel_shuffle) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 16, 5, 5});
  int a = unary(&b, "Relu", conv(&b, "a", x, 16, 16, 3, 1, 1, 1, 1), "ar");
  int c = unary(&b, "Relu", conv(&b, "c", x, 16, 16, 1, 0, 1, 1, 1), "cr");
  int64_t s5[5] = {0, 2, 16, 5, 5}, s4[4] = {-1, 32, 5, 5};
  int cat2[2] = {a, c};
  int y = gb_node(&b, "Concat", cat2, 2, "cat2");
  gb_int(&b, "axis", 1);
  int r = binary(&b, "Reshape", y, gb_const(&b, "s5", ACL__ONNX_INT64, 1, (int64_t[]){5}, s5, 0, 0), "r5");
  int t = unary(&b, "Transpose", r, "t5");
  gb_ints(&b, "perm", 5, (int64_t[]){0, 2, 1, 3, 4});
  int sh = binary(&b, "Reshape", t, gb_const(&b, "s4", ACL__ONNX_INT64, 1, (int64_t[]){4}, s4, 0, 0), "r4");
  gb_output(&b, unary(&b, "Relu", conv(&b, "after", sh, 32, 8, 1, 0, 1, 1, 1), "after_r"));
  /* three groups, one of them the plain graph input */
  int64_t g5[5] = {-1, 3, 16, 5, 5}, g4[4] = {0, 48, 5, 5};
  int cat3[3] = {x, a, c};
  int y3 = gb_node(&b, "Concat", cat3, 3, "cat3");
  gb_int(&b, "axis", 1);
  int r3 = binary(&b, "Reshape", y3, gb_const(&b, "g5", ACL__ONNX_INT64, 1, (int64_t[]){5}, g5, 0, 0), "g5r");
  int t3 = unary(&b, "Transpose", r3, "g5t");
  gb_ints(&b, "perm", 5, (int64_t[]){0, 2, 1, 3, 4});
  gb_output(&b, binary(&b, "Reshape", t3, gb_const(&b, "g4", ACL__ONNX_INT64, 1, (int64_t[]){4}, g4, 0, 0), "g4r"));
  /* the concat's output is read by the shuffle and is a graph output too */
  int y5 = gb_node(&b, "Concat", cat2, 2, "cat5");
  gb_int(&b, "axis", 1);
  gb_output(&b, y5);
  int r5 = binary(&b, "Reshape", y5, gb_const(&b, "s5c", ACL__ONNX_INT64, 1, (int64_t[]){5}, s5, 0, 0), "r5c");
  int t5 = unary(&b, "Transpose", r5, "t5c");
  gb_ints(&b, "perm", 5, (int64_t[]){0, 2, 1, 3, 4});
  gb_output(&b, binary(&b, "Reshape", t5, gb_const(&b, "s4c", ACL__ONNX_INT64, 1, (int64_t[]){4}, s4, 0, 0), "r4c"));
  acl__engine *e = make_engine(b.g);
  for (int64_t n = 1; n <= 8; n += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){n, 16, 5, 5});
    compare_run(e, b.g, &f);
    feed_free(&f);
  }
  acl__engine_stats st = stats(e);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  printf("%zu steps, %zu fused\n", st.steps, st.fused);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Reductions with constant axes, checked against the reference executor: the
 * global average over a convolution's blocked output without keeping the
 * axes (ShuffleNet's head: a oneDNN pooling),
 * ReduceSum with its axes as an input (opset 13), ReduceMax over the channels
 * and ReduceMin over every axis, keeping them, on the plain graph input. */
TEST(reductions) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 5, 7});
  int c = unary(&b, "Relu", conv(&b, "c", x, 8, 24, 3, 1, 1, 1, 1), "cr");
  int m = unary(&b, "ReduceMean", c, "gap");
  gb_ints(&b, "axes", 2, (int64_t[]){2, 3});
  gb_int(&b, "keepdims", 0);
  gb_output(&b, m);
  int64_t ax[2] = {-1, 1};
  gb_output(&b, binary(&b, "ReduceSum", c, gb_const(&b, "ax", ACL__ONNX_INT64, 1, (int64_t[]){2}, ax, 0, 0), "sum"));
  int mx = unary(&b, "ReduceMax", x, "max");
  gb_ints(&b, "axes", 1, (int64_t[]){1});
  gb_output(&b, mx);
  gb_output(&b, unary(&b, "ReduceMin", x, "min")); /* every axis, kept */
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, 8, 5, 7});
  /* the global average is a pooling; oneDNN 2.6 has jitted reductions only for some of the others (the rest
   * stay on the reference kernel, where its reduction would be the reference one too) */
  CHECK((long)st.ref_steps <= 2);
  acl__graph_free(b.g);
}

/* The precision modes' bfloat16 path (common/precision.h): convolutions
 * chained in bfloat16, a residual accumulated in float32, a Gemm with
 * constant weights and a MatMul of two activations, at batch 1 and 8,
 * within bfloat16's rounding of the reference; on a CPU without bfloat16
 * units the same engine runs float32 and matches as tightly as ever. */
TEST(bfloat16_precision) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 10, 10});
  int ds = conv(&b, "down", x, 8, 16, 1, 0, 1, 1, 1);
  int h = unary(&b, "Relu", conv(&b, "c1", x, 8, 16, 3, 1, 1, 1, 1), "r1");
  int y = conv(&b, "c2", h, 16, 16, 3, 1, 1, 1, 1);
  y = unary(&b, "Relu", binary(&b, "Add", y, ds, "add"), "r2");
  int64_t shape[3] = {0, 16, 100};
  int r = binary(&b, "Reshape", y, gb_const(&b, "shape", ACL__ONNX_INT64, 1, (int64_t[]){3}, shape, 0, 0), "rows");
  int t = unary(&b, "Transpose", r, "cols");
  gb_ints(&b, "perm", 3, (int64_t[]){0, 2, 1});
  int att = binary(&b, "MatMul", r, t, "gram"); /* [N, 16, 16]: two activations */
  gb_output(&b, att);
  int flat = unary(&b, "Flatten", unary(&b, "GlobalAveragePool", y, "gap"), "flat");
  int ins[3] = {flat, gb_w(&b, "fc.w", 2, (int64_t[]){10, 16}), gb_w(&b, "fc.b", 1, (int64_t[]){10})};
  int fc = gb_node(&b, "Gemm", ins, 3, "fc");
  gb_int(&b, "transB", 1);
  gb_output(&b, fc);
  acl__engine *e = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(acl__engine_create(b.g, ACL__PREC_BF16, &e, &d), 0);
  acl__diags_free(&d);
  int native = acl__precision_cpu_bf16();
  for (int64_t batch = 1; batch <= 8; batch += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){batch, 8, 10, 10});
    compare_run_tol(e, b.g, &f, native ? 2e-2 : 0);
    acl__engine_stats st = stats(e);
    printf("batch %lld: %zu steps, %zu in bfloat16 (bfloat16 units: %s)\n", (long long)batch, st.steps,
           st.bf16_steps, native ? "yes" : "no");
    if (native)
      CHECK(st.bf16_steps >= 5); /* the 3 convolutions (8 input channels: not a first layer), the MatMul, the Gemm */
    else
      CHECK_INT_EQ((long)st.bf16_steps, 0);
    feed_free(&f);
  }
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* x -> QuantizeLinear -> DequantizeLinear -> Conv with DequantizeLinear'd
 * int8 weights (per output channel, axis 0), as a quantiser writes a QDQ
 * model.  name: the conv's name; s: the activation scale; type: INT8 or
 * UINT8 (a zero point of 0 of that type); wscales: 1 or oc. */
static int qdq_conv(gb *b, const char *name, int x, float s, int type, int64_t ic, int64_t oc, int64_t k,
                    int64_t wscales, int bias) {
  char n[6][64];
  const char *sfx[6] = {"q", "dq", "s", "zp", "w8", "ws"};
  for (int i = 0; i < 6; i++)
    snprintf(n[i], sizeof(n[i]), "%s.%s", name, sfx[i]);
  uint8_t zero = 0;
  int sc = gb_const(b, n[2], ACL__ONNX_FLOAT, 0, NULL, &s, 0, 0);
  int zp = gb_const(b, n[3], type, 0, NULL, &zero, 0, 0);
  int q = gb_node(b, "QuantizeLinear", (int[]){x, sc, zp}, 3, n[0]);
  int dq = gb_node(b, "DequantizeLinear", (int[]){q, sc, zp}, 3, n[1]);
  int64_t wn = oc * ic * k * k;
  int8_t *w8 = malloc((size_t)wn);
  float *ws = malloc((size_t)wscales * sizeof(float));
  for (int64_t i = 0; i < wn; i++)
    w8[i] = (int8_t)(int)(rnd(b) * 127.0f);
  for (int64_t i = 0; i < wscales; i++)
    ws[i] = 0.002f + 0.001f * (float)(i % 5);
  int wq = gb_const(b, n[4], ACL__ONNX_INT8, 4, (int64_t[]){oc, ic, k, k}, w8, 0, 0);
  int wsv = gb_const(b, n[5], ACL__ONNX_FLOAT, wscales > 1 ? 1 : 0, &wscales, ws, 0, 0);
  free(w8);
  free(ws);
  char wdq[80];
  snprintf(wdq, sizeof(wdq), "%s.wdq", name);
  int w = gb_node(b, "DequantizeLinear", (int[]){wq, wsv}, 2, wdq);
  gb_int(b, "axis", 0);
  char bn[80];
  snprintf(bn, sizeof(bn), "%s.b", name);
  int ins[3] = {dq, w, bias ? gb_w(b, bn, 1, &oc) : -1};
  int y = gb_node(b, "Conv", ins, bias ? 3 : 2, name);
  gb_ints(b, "pads", 4, (int64_t[]){k / 2, k / 2, k / 2, k / 2});
  return y;
}

/* A QDQ model's convolutions run in int8 (signed input with bias and per
 * channel weight scales; unsigned input after a ReLU with one weight scale,
 * accumulating into a residual; a Conv -> ReLU -> QuantizeLinear writing
 * the integers itself), and a quantised value read by a float operator is
 * dequantised on the way: all against the reference
 * executor, which runs the graph as written, within a few quantisation
 * steps of the output's range (the engine quantises by multiplying with
 * 1 / scale, the reference divides: a value on a rounding tie may move one
 * step). */
TEST(int8_qdq) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 8, 10, 10});
  int c1 = qdq_conv(&b, "c1", x, 0.02f, ACL__ONNX_INT8, 8, 16, 3, 16, 1);
  int r1 = unary(&b, "Relu", c1, "r1");
  int c2 = qdq_conv(&b, "c2", r1, 0.01f, ACL__ONNX_UINT8, 16, 16, 1, 1, 0);
  int sum = unary(&b, "Relu", binary(&b, "Add", c2, r1, "add"), "r2");
  gb_output(&b, sum);
  /* a quantised tensor read by a float operator: DequantizeLinear -> Sigmoid */
  int dq1 = b.g->nodes[b.g->tensors[c1].producer].inputs[0];
  gb_output(&b, unary(&b, "Sigmoid", dq1, "sig"));
  /* Conv -> Relu -> QuantizeLinear: the convolution writes the integers */
  int e1 = unary(&b, "Relu", qdq_conv(&b, "e1", x, 0.02f, ACL__ONNX_INT8, 8, 16, 3, 16, 1), "e1r");
  gb_output(&b, qdq_conv(&b, "e2", e1, 0.01f, ACL__ONNX_UINT8, 16, 8, 3, 8, 1));
  acl__engine *e = make_engine(b.g);
  for (int64_t batch = 1; batch <= 8; batch += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){batch, 8, 10, 10});
    compare_run_tol(e, b.g, &f, 2e-2);
    acl__engine_stats st = stats(e);
    printf("batch %lld: %zu steps (%zu reference), %zu in int8, %zu fused\n", (long long)batch, st.steps,
           st.ref_steps, st.int8_steps, st.fused);
    CHECK_INT_EQ((long)st.int8_steps, 4);
    CHECK_INT_EQ((long)st.ref_steps, 0);
    CHECK((long)st.fused >= 5); /* 3 ReLUs, the Add, e2's QuantizeLinear */
    feed_free(&f);
  }
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* [..., M, K] x constant [K, N] with a bias Add and a Relu (a Linear layer
 * over a channels-last image, as ConvNeXt's): one 2-D product over every
 * row, its result seen under the 4-D shape; a batched product of two
 * activations keeps its batch. */
TEST(matmul_flattened_rows) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 5, 6, 8});
  int y = binary(&b, "MatMul", x, gb_w(&b, "w", 2, (int64_t[]){8, 12}), "linear");
  y = unary(&b, "Relu", binary(&b, "Add", y, gb_w(&b, "bias", 1, (int64_t[]){12}), "biased"), "act");
  gb_output(&b, y);
  int t = unary(&b, "Transpose", y, "yt");
  gb_ints(&b, "perm", 4, (int64_t[]){0, 1, 3, 2});
  gb_output(&b, binary(&b, "MatMul", y, t, "gram")); /* [N,5,6,12] x [N,5,12,6] */
  acl__engine *e = make_engine(b.g);
  for (int64_t batch = 1; batch <= 8; batch += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){batch, 5, 6, 8});
    compare_run(e, b.g, &f);
    acl__engine_stats st = stats(e);
    CHECK_INT_EQ((long)st.ref_steps, 0);
    CHECK((long)st.fused >= 2); /* the Add and the Relu */
    feed_free(&f);
  }
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* One attention block and MLP as PyTorch exports a transformer layer: q, k, v
 * split into heads by Reshape + Transpose, scores scaled by a Div, the heads
 * merged back by Transpose + Reshape, the output projection and fc2 added to
 * their residuals, GELU (as Erf) after fc1.  The transposes are read in place
 * or written by the products, the scale, bias, residual and GELU run inside
 * them: eight products and a softmax after the input's Relu, equal to the reference
 * executor at batch 1 and 8. */
TEST(attention_block) {
  gb b = gb_new(13);
  const int64_t S = 6, H = 2, D = 4, E = H * D;
  int x = unary(&b, "Relu", gb_input(&b, "x", 3, (int64_t[]){-1, S, E}), "h"); /* a residual the block may overwrite */
  int64_t hs[4] = {0, S, H, D}, ms[3] = {0, S, E};
  int heads = gb_const(&b, "heads", ACL__ONNX_INT64, 1, (int64_t[]){4}, hs, 0, 0);
  int merged = gb_const(&b, "merged", ACL__ONNX_INT64, 1, (int64_t[]){3}, ms, 0, 0);
  const char *names[3] = {"q", "k", "v"};
  int qkv[3];
  for (int i = 0; i < 3; i++) {
    char w[8], bi[8], pr[8], ad[8], rs[8], tr[8];
    snprintf(w, sizeof(w), "w%s", names[i]);
    snprintf(bi, sizeof(bi), "b%s", names[i]);
    snprintf(pr, sizeof(pr), "%s_mm", names[i]);
    snprintf(ad, sizeof(ad), "%s_add", names[i]);
    snprintf(rs, sizeof(rs), "%s_rs", names[i]);
    snprintf(tr, sizeof(tr), "%s_t", names[i]);
    int y = binary(&b, "MatMul", x, gb_w(&b, w, 2, (int64_t[]){E, E}), pr);
    y = binary(&b, "Add", gb_w(&b, bi, 1, (int64_t[]){E}), y, ad); /* the bias first, as exported */
    y = binary(&b, "Reshape", y, heads, rs);
    qkv[i] = unary(&b, "Transpose", y, tr);
    gb_ints(&b, "perm", 4, i == 1 ? (int64_t[]){0, 2, 3, 1} : (int64_t[]){0, 2, 1, 3});
  }
  float scale = 2.0f, sqrt2 = 1.41421356f, one = 1.0f, half = 0.5f;
  int s = binary(&b, "MatMul", qkv[0], qkv[1], "scores");
  s = binary(&b, "Div", s, gb_const(&b, "scale", ACL__ONNX_FLOAT, 0, NULL, &scale, 0, 0), "scaled");
  s = unary(&b, "Softmax", s, "probs");
  gb_int(&b, "axis", -1);
  int o = binary(&b, "MatMul", s, qkv[2], "context");
  o = unary(&b, "Transpose", o, "context_t");
  gb_ints(&b, "perm", 4, (int64_t[]){0, 2, 1, 3});
  o = binary(&b, "Reshape", o, merged, "context_merged");
  o = binary(&b, "MatMul", o, gb_w(&b, "wo", 2, (int64_t[]){E, E}), "out_mm");
  o = binary(&b, "Add", gb_w(&b, "bo", 1, (int64_t[]){E}), o, "out");
  int r1 = binary(&b, "Add", x, o, "residual1");
  int f = binary(&b, "MatMul", r1, gb_w(&b, "w1", 2, (int64_t[]){E, 3 * E}), "fc1_mm");
  f = binary(&b, "Add", gb_w(&b, "b1", 1, (int64_t[]){3 * E}), f, "fc1");
  int g0 = binary(&b, "Div", f, gb_const(&b, "sqrt2", ACL__ONNX_FLOAT, 0, NULL, &sqrt2, 0, 0), "g_div");
  int g1 = unary(&b, "Erf", g0, "g_erf");
  int g2 = binary(&b, "Add", g1, gb_const(&b, "one", ACL__ONNX_FLOAT, 0, NULL, &one, 0, 0), "g_add");
  int g3 = binary(&b, "Mul", f, g2, "g_mul");
  int g = binary(&b, "Mul", g3, gb_const(&b, "half", ACL__ONNX_FLOAT, 0, NULL, &half, 0, 0), "gelu");
  int f2 = binary(&b, "MatMul", g, gb_w(&b, "w2", 2, (int64_t[]){3 * E, E}), "fc2_mm");
  f2 = binary(&b, "Add", gb_w(&b, "b2", 1, (int64_t[]){E}), f2, "fc2");
  gb_output(&b, binary(&b, "Add", r1, f2, "residual2"));
  acl__engine *e = make_engine(b.g);
  for (int64_t batch = 1; batch <= 8; batch += 7) {
    feed fd = {0};
    feed_add(&fd, &b, 3, (int64_t[]){batch, S, E});
    compare_run(e, b.g, &fd);
    acl__engine_stats st = stats(e);
    printf("batch %lld: %zu steps (%zu oneDNN, %zu reference), %zu fused\n", (long long)batch, st.steps,
           st.dnnl_steps, st.ref_steps, st.fused);
    CHECK_INT_EQ((long)st.ref_steps, 0);
    CHECK_INT_EQ((long)st.steps, 10); /* the Relu, 8 products and the softmax */
    feed_free(&fd);
  }
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* GELU as exported: x * (Erf(x / sqrt 2) + 1) * 0.5. */
static int gelu_nodes(gb *b, int x, const char *name) {
  float sqrt2 = 1.41421356f, one = 1.0f, half = 0.5f;
  char n[5][32];
  const char *sfx[5] = {"div", "erf", "add", "mul", ""};
  for (int i = 0; i < 5; i++)
    snprintf(n[i], sizeof(n[i]), "%s%s%s", name, i < 4 ? "_" : "", sfx[i]);
  int g = binary(b, "Div", x, gb_const(b, "sqrt2", ACL__ONNX_FLOAT, 0, NULL, &sqrt2, 0, 0), n[0]);
  g = binary(b, "Add", unary(b, "Erf", g, n[1]), gb_const(b, "one", ACL__ONNX_FLOAT, 0, NULL, &one, 0, 0), n[2]);
  g = binary(b, "Mul", x, g, n[3]);
  return binary(b, "Mul", g, gb_const(b, "half", ACL__ONNX_FLOAT, 0, NULL, &half, 0, 0), n[4]);
}

/* A product with 64 Ki outputs or more hands its GELU to the engine's own
 * kernel (vec512.c) as a step of its own, a smaller one keeps it as a
 * post-op; a GELU on a graph input is one step either way, over the whole
 * float range (values where erfc underflows, partial vectors).  Results as
 * the reference's. */
TEST(gelu_steps) {
  for (int64_t rows = 8; rows <= 128; rows += 120) {
    gb b = gb_new(13);
    int x = gb_input(&b, "x", 3, (int64_t[]){-1, rows, 64});
    int y = binary(&b, "MatMul", x, gb_w(&b, "w", 2, (int64_t[]){64, 512}), "fc_mm");
    y = binary(&b, "Add", gb_w(&b, "bias", 1, (int64_t[]){512}), y, "fc");
    gb_output(&b, gelu_nodes(&b, y, "gelu"));
    acl__engine *e = make_engine(b.g);
    for (int64_t n = 1; n <= 8; n += 7) {
      feed f = {0};
      feed_add(&f, &b, 3, (int64_t[]){n, rows, 64});
      compare_run(e, b.g, &f);
      feed_free(&f);
      acl__engine_stats st = stats(e);
      printf("[%lld, %lld, 512]: %zu steps\n", (long long)n, (long long)rows, st.steps);
      CHECK_INT_EQ((long)st.ref_steps, 0);
      CHECK_INT_EQ((long)st.steps, 1 + (acl__eng_vec512() && n * rows * 512 >= 65536));
    }
    acl__engine_destroy(e);
    acl__graph_free(b.g);
  }
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 2, (int64_t[]){-1, 37});
  gb_output(&b, gelu_nodes(&b, x, "gelu"));
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 2, (int64_t[]){5, 37});
  float *v = f.in[0].data;
  for (int i = 0; i < 5 * 37; i++)
    v[i] = (i % 2 ? -1.f : 1.f) * (i < 170 ? (float)i / 17 : i < 180 ? 1e-20f * (float)i : 1e30f);
  compare_run(e, b.g, &f);
  CHECK_INT_EQ((long)stats(e).steps, 1);
  CHECK_INT_EQ((long)stats(e).ref_steps, 0);
  feed_free(&f);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* ConvNeXt's block: depthwise conv (channels-last) -> Transpose to [N, H, W,
 * C] -> MLP (MatMul + bias, GELU, MatMul + bias) -> Transpose back ->
 * Mul by the [C, 1, 1] layer scale -> Add the block's input.  Both
 * Transposes are views (the convolution writes channels-last, the MLP's rows
 * are the channels-last form of its output) and the layer scale runs on the
 * channels-last map: no copies, no moves between layouts.  Results as the
 * reference's at batch 1 and 8. */
TEST(convnext_block) {
  const int64_t C = 32, HW = 9;
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, C, HW, HW});
  int y = conv(&b, "dw", x, C, C, 7, 3, 1, C, 1);
  y = unary(&b, "Transpose", y, "to_nhwc");
  gb_ints(&b, "perm", 4, (int64_t[]){0, 2, 3, 1});
  y = binary(&b, "MatMul", y, gb_w(&b, "w1", 2, (int64_t[]){C, 4 * C}), "fc1_mm");
  y = gelu_nodes(&b, binary(&b, "Add", gb_w(&b, "b1", 1, (int64_t[]){4 * C}), y, "fc1"), "gelu");
  y = binary(&b, "MatMul", y, gb_w(&b, "w2", 2, (int64_t[]){4 * C, C}), "fc2_mm");
  y = binary(&b, "Add", gb_w(&b, "b2", 1, (int64_t[]){C}), y, "fc2");
  y = unary(&b, "Transpose", y, "to_nchw");
  gb_ints(&b, "perm", 4, (int64_t[]){0, 3, 1, 2});
  y = binary(&b, "Mul", gb_w(&b, "layer_scale", 3, (int64_t[]){C, 1, 1}), y, "scaled");
  gb_output(&b, binary(&b, "Add", y, x, "residual"));
  acl__engine_stats st = compare_batches(&b, 4, (int64_t[]){1, C, HW, HW});
  CHECK_INT_EQ((long)st.ref_steps, 0);
  CHECK_INT_EQ((long)st.relayout_steps, 0);
  /* at batch 8: x to channels-last, dw, fc1, GELU (82944 outputs: a step of its own), fc2, scale, add, the
   * output to plain; no transpose */
  if (acl__eng_vec512())
    CHECK_INT_EQ((long)st.steps, 8);
  acl__graph_free(b.g);
}

/* Weights the products read only as reordered copies are freed from the
 * graph after a plan is built (the model's weights in memory once), rebuilt
 * byte for byte for the next plan's build and for the reference executor,
 * and trimmed again after that build; once the weights are kept for the
 * reference executor, they stay. */
static void run_engine_only(acl__engine *e, const acl__graph *g, int64_t batch, gb *b) {
  feed f = {0};
  feed_add(&f, b, 3, (int64_t[]){batch, 6, 8});
  acl__tensor got[4] = {{0}};
  acl__diags d = {0};
  CHECK_INT_EQ(acl__engine_run(e, f.in, f.n, got, g->n_outputs, 2, NULL, 0, &d), 0);
  for (size_t k = 0; k < g->n_outputs; k++)
    acl__tensor_release(&got[k]);
  acl__diags_free(&d);
  feed_free(&f);
}

TEST(weights_trimmed) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 3, (int64_t[]){-1, 6, 8});
  int w[2] = {gb_w(&b, "w1", 2, (int64_t[]){8, 32}), gb_w(&b, "w2", 2, (int64_t[]){32, 8})};
  int bias = gb_w(&b, "b1", 1, (int64_t[]){32});
  int y = unary(&b, "Relu", binary(&b, "Add", binary(&b, "MatMul", x, w[0], "fc1_mm"), bias, "fc1"), "act");
  gb_output(&b, binary(&b, "MatMul", y, w[1], "fc2"));
  void *saved[2];
  for (int k = 0; k < 2; k++) {
    const acl__graph_tensor *t = &b.g->tensors[w[k]];
    saved[k] = malloc(t->data_size);
    memcpy(saved[k], t->data, t->data_size);
  }
  acl__engine *e = make_engine(b.g);
  acl__engine_allow_weight_trim(e);
  run_engine_only(e, b.g, 1, &b);
  for (int k = 0; k < 2; k++)
    CHECK(b.g->tensors[w[k]].data == NULL);
  CHECK(b.g->tensors[bias].data != NULL); /* the bias is read as it is */
  run_engine_only(e, b.g, 8, &b);         /* a new plan: rebuilt for its build, trimmed again */
  for (int k = 0; k < 2; k++)
    CHECK(b.g->tensors[w[k]].data == NULL);
  acl__diags d = {0};
  CHECK_INT_EQ(acl__engine_keep_weights(e, &d), 0);
  acl__diags_free(&d);
  for (int k = 0; k < 2; k++) {
    const acl__graph_tensor *t = &b.g->tensors[w[k]];
    CHECK(t->data != NULL && memcmp(t->data, saved[k], t->data_size) == 0);
    free(saved[k]);
  }
  for (int64_t batch = 1; batch <= 8; batch *= 2) { /* batch 2: a new plan, no trimming any more */
    feed f = {0};
    feed_add(&f, &b, 3, (int64_t[]){batch, 6, 8});
    compare_run(e, b.g, &f);
    feed_free(&f);
  }
  CHECK(b.g->tensors[w[0]].data != NULL);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* A model whose input shapes are all static gets its engine and plan at
 * aclmdlLoadFromFile (acl__model_prepare), so its first execution builds
 * nothing; the plan is the one executions use (results are checked by the
 * api/model_exec tests on the same files). */
TEST(prepared_at_load) {
  const char *path = "/usr/share/libonnx-testdata/data/node/test_basic_conv_with_padding/model.onnx";
  if (access(path, R_OK) != 0) {
    printf("SKIP: %s not installed (libonnx-testdata)\n", path);
    return;
  }
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(path, &id), ACL_SUCCESS);
  int rc = 0;
  acl__model *m = acl__model_acquire("test", id, &rc);
  CHECK(m != NULL);
  acl__engine *e = __atomic_load_n(&m->engine, __ATOMIC_ACQUIRE);
  CHECK(e != NULL);
  acl__engine_stats st = stats(e);
  printf("prepared at load: %zu steps, built in %.1f ms\n", st.steps, st.build_ms);
  CHECK(st.steps > 0);
  acl__model_release(m);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* OPENACL_MODEL_PROFILE=all: when the plan goes, stderr gets the table with
 * every step (not only the 25 heaviest), each with its mean and its fastest
 * run, its implementation and its node. */
TEST(profile_every_step) {
  setenv("OPENACL_MODEL_PROFILE", "all", 1); /* read once, by this process's first plan */
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){1, 16, 8, 8});
  int y = x;
  char name[16];
  for (int i = 0; i < 30; i++) { /* 30 steps: more than the default table's 25 */
    snprintf(name, sizeof(name), "relu%d", i);
    y = unary(&b, i % 2 ? "Relu" : "Sigmoid", y, name);
  }
  gb_output(&b, y);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, 16, 8, 8});
  for (int run = 0; run < 3; run++)
    compare_run(e, b.g, &f);
  fflush(stderr);
  FILE *cap = tmpfile();
  CHECK(cap != NULL);
  int saved = dup(2);
  dup2(fileno(cap), 2);
  acl__engine_destroy(e); /* the plan goes: the table */
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(cap);
  char line[512];
  int header = 0, rows = 0, last_seen = 0;
  while (fgets(line, sizeof(line), cap) != NULL) {
    header |= strstr(line, "heaviest steps (ms per run: mean, fastest)") != NULL;
    double mean, fastest;
    int step;
    char kind[64], impl[64], node[64];
    if (sscanf(line, " %d %63s %63s %lf %lf %63s", &step, kind, impl, &mean, &fastest, node) == 6) {
      rows++;
      CHECK(fastest >= 0 && fastest <= mean + 0.0005); /* printed to the microsecond */
      last_seen |= strcmp(node, "relu29") == 0;
    }
  }
  fclose(cap);
  printf("%d step rows\n", rows);
  CHECK(header);
  CHECK(rows >= 30);
  CHECK(last_seen);
  feed_free(&f);
  acl__graph_free(b.g);
}

/* Outputs given as the caller's buffers (data, not owned, exactly the
 * result's size: what aclmdlExecute passes) come back borrowing them, with
 * the reference executor's results - computed in place where the output is
 * an arena value, copied otherwise (a second output sharing those bytes, an
 * output whose buffer is the input's: computed elsewhere, since steps after
 * it still read the input).  A buffer of another size, or a reference
 * kernel failing on data half-way, leaves every buffer untouched. */
TEST(outputs_in_caller_buffers) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){1, 8, 6, 6});
  int sig = unary(&b, "Sigmoid", x, "sig"); /* before the convolution reads x */
  int y = unary(&b, "Relu", conv(&b, "c", x, 8, 16, 3, 1, 1, 1, 1), "y");
  gb_output(&b, y);
  gb_output(&b, unary(&b, "Flatten", y, "flat")); /* the same bytes as y */
  gb_output(&b, sig);
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, 8, 6, 6});
  acl__tensor want[3] = {{0}};
  acl__diags d = {0};
  CHECK_INT_EQ(acl__exec_run(b.g, f.in, f.n, want, 3, &d), 0);
  void *buf[3];
  for (int k = 0; k < 3; k++) {
    CHECK_INT_EQ(posix_memalign(&buf[k], 64, want[k].size + 64), 0);
    memset(buf[k], 0x7f, want[k].size + 64);
  }
  for (int run = 0; run < 3; run++) {
    acl__tensor got[3] = {{0}};
    int give = run != 1; /* the middle run without buffers: the arena must be back in use */
    for (int k = 0; give && k < 3; k++) {
      got[k].data = buf[k];
      got[k].size = want[k].size;
    }
    CHECK_INT_EQ(acl__engine_run(e, f.in, f.n, got, 3, 2, NULL, 0, &d), 0);
    for (int k = 0; k < 3; k++) {
      CHECK(give ? got[k].data == buf[k] && !got[k].owned : got[k].data != buf[k] && got[k].owned);
      CHECK_INT_EQ((long)got[k].size, (long)want[k].size);
      int bad = 0;
      for (size_t i = 0; i < want[k].size / 4; i++)
        bad += fabsf(((float *)got[k].data)[i] - ((float *)want[k].data)[i]) > 1e-4f;
      CHECK_INT_EQ(bad, 0);
      CHECK(((unsigned char *)buf[k])[want[k].size] == 0x7f); /* nothing past the buffer */
      acl__tensor_release(&got[k]);
    }
  }
  /* output 2 in the input's own buffer (same shape): computed elsewhere, then copied over it */
  {
    acl__tensor inplace[3] = {{0}};
    acl__tensor xin = {0};
    CHECK_INT_EQ(acl__tensor_alloc(&xin, ACL__ONNX_FLOAT, 4, (int64_t[]){1, 8, 6, 6}), 0);
    memcpy(xin.data, f.in[0].data, xin.size);
    for (int k = 0; k < 3; k++) {
      inplace[k].data = k == 2 ? xin.data : buf[k];
      inplace[k].size = want[k].size;
    }
    CHECK_INT_EQ(acl__engine_run(e, &xin, 1, inplace, 3, 2, NULL, 0, &d), 0);
    int bad = 0;
    for (size_t i = 0; i < want[2].size / 4; i++)
      bad += fabsf(((float *)xin.data)[i] - ((float *)want[2].data)[i]) > 1e-4f;
    for (size_t i = 0; i < want[0].size / 4; i++)
      bad += fabsf(((float *)buf[0])[i] - ((float *)want[0].data)[i]) > 1e-4f;
    CHECK_INT_EQ(bad, 0);
    acl__tensor_release(&xin);
  }
  /* one buffer one float short: none of them is used, each output is the engine's own */
  for (int k = 0; k < 3; k++)
    memset(buf[k], 0x7f, want[k].size + 64);
  acl__tensor got[3] = {{0}};
  for (int k = 0; k < 3; k++) {
    got[k].data = buf[k];
    got[k].size = want[k].size - (k == 2 ? 4 : 0);
  }
  CHECK_INT_EQ(acl__engine_run(e, f.in, f.n, got, 3, 2, NULL, 0, &d), 0);
  for (int k = 0; k < 3; k++) {
    CHECK(got[k].owned && got[k].data != buf[k]);
    CHECK(((unsigned char *)buf[k])[0] == 0x7f && ((unsigned char *)buf[k])[want[k].size - 1] == 0x7f);
    acl__tensor_release(&got[k]);
    acl__tensor_release(&want[k]);
  }
  acl__engine_destroy(e);
  feed_free(&f);
  acl__graph_free(b.g);

  /* a Gather of run-time indices (a reference kernel) fails on an index out
   * of range after the convolution ran: the output buffer is untouched */
  gb b2 = gb_new(13);
  x = gb_input(&b2, "x", 4, (int64_t[]){1, 8, 6, 6});
  int idx = gb_tensor(&b2, "idx", ACL__TENSOR_INPUT, ACL__ONNX_INT64, 1, (int64_t[]){2});
  b2.g->inputs = realloc(b2.g->inputs, (b2.g->n_inputs + 1) * sizeof(int));
  b2.g->inputs[b2.g->n_inputs++] = idx;
  y = conv(&b2, "c", x, 8, 16, 1, 0, 1, 1, 1);
  gb_output(&b2, binary(&b2, "Gather", y, idx, "g"));
  e = make_engine(b2.g);
  feed_add(&f, &b2, 4, (int64_t[]){1, 8, 6, 6});
  CHECK_INT_EQ(acl__tensor_alloc(&f.in[1], ACL__ONNX_INT64, 1, (int64_t[]){2}), 0);
  f.n = 2;
  ((int64_t *)f.in[1].data)[1] = 5; /* batch 1: index 5 is out of range */
  size_t bytes = 2 * 16 * 6 * 6 * sizeof(float);
  unsigned char *gbuf = NULL;
  CHECK_INT_EQ(posix_memalign((void **)&gbuf, 64, bytes), 0);
  memset(gbuf, 0x7f, bytes);
  acl__tensor g1 = {.data = gbuf, .size = bytes};
  CHECK(acl__engine_run(e, f.in, f.n, &g1, 1, 2, NULL, 0, &d) != 0);
  CHECK(gbuf[0] == 0x7f && gbuf[bytes - 1] == 0x7f);
  CHECK(g1.data == NULL);
  free(gbuf);
  acl__diags_free(&d);
  acl__engine_destroy(e);
  feed_free(&f);
  acl__graph_free(b2.g);
  for (int k = 0; k < 3; k++)
    free(buf[k]);
}

/* ResNeXt's bottleneck: 1x1 convolutions (channels-last on oneDNN's fastest
 * kernels) around a grouped 3x3 one (4-channel blocks for 4 channels per
 * group) and a 16-channel blocked one (Winograd): the moves between those layouts are
 * the engine's own relayouts, both ways; results as the reference's, at
 * batch 1 and 8. */
TEST(relayouts) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 64, 14, 14});
  int y = unary(&b, "Relu", conv(&b, "c1", x, 64, 128, 1, 0, 1, 1, 1), "r1");
  y = unary(&b, "Relu", conv(&b, "grouped", y, 128, 128, 3, 1, 1, 32, 1), "r2");
  y = conv(&b, "c3", y, 128, 64, 1, 0, 1, 1, 1);
  y = unary(&b, "Relu", binary(&b, "Add", y, x, "residual"), "r3");
  y = unary(&b, "Relu", conv(&b, "c4", y, 64, 64, 3, 1, 1, 1, 1), "r4");
  gb_output(&b, conv(&b, "c5", y, 64, 64, 1, 0, 1, 1, 1));
  acl__engine *e = make_engine(b.g);
  for (int64_t n = 1; n <= 8; n += 7) {
    feed f = {0};
    feed_add(&f, &b, 4, (int64_t[]){n, 64, 14, 14});
    compare_run_tol(e, b.g, &f, 1e-5); /* c4 is a Winograd convolution (see winograd_block) */
    feed_free(&f);
    acl__engine_stats st = stats(e);
    printf("batch %lld: %zu steps, %zu relayouts\n", (long long)n, st.steps, st.relayout_steps);
    CHECK(st.relayout_steps >= 2);
    CHECK_INT_EQ((long)st.ref_steps, 0);
  }
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* Graph b on the engine and the reference with an [n, c, hw, hw] input:
 * results alike (1e-5: Winograd, see winograd_block), no reference kernel;
 * returns the plan's moves between layouts (relayouts). */
static size_t moves_at(acl__engine *e, gb *b, int64_t n, int64_t c, int64_t hw) {
  feed f = {0};
  feed_add(&f, b, 4, (int64_t[]){n, c, hw, hw});
  compare_run_tol(e, b->g, &f, 1e-5);
  feed_free(&f);
  acl__engine_stats st = stats(e);
  printf("batch %lld: %zu steps, %zu relayouts\n", (long long)n, st.steps, st.relayout_steps);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  return st.relayout_steps;
}

/* The [N, 64, 16, 16] graph b at batch 4 (no moves between layouts) and 1
 * (at least moves_at_1).  Frees the graph. */
static void blocked_at_batch_4(gb *b, size_t moves_at_1) {
  acl__engine *e = make_engine(b->g);
  CHECK_INT_EQ((long)moves_at(e, b, 4, 64, 16), 0);
  CHECK(moves_at(e, b, 1, 64, 16) >= moves_at_1);
  acl__engine_destroy(e);
  acl__graph_free(b->g);
}

/* A graph with input [N, 64, 16, 16] and a Winograd 3x3 stem (16-channel
 * blocked output, oc channels) + Relu, with the large-map threshold at mib
 * MiB (the reference executor is slow on maps of the default's size);
 * returns the stem's output (the test unsets the variable at its end). */
static int blocked_stem(gb *b, int64_t oc, const char *mib) {
  setenv("OPENACL_MODEL_BLOCKED_MIB", mib, 1);
  *b = gb_new(13);
  int x = gb_input(b, "x", 4, (int64_t[]){-1, 64, 16, 16});
  return unary(b, "Relu", conv(b, "stem", x, 64, oc, 3, 1, 1, 1, 1), "r0");
}

/* ResNet-50's bottleneck blocks after a Winograd convolution (16-channel
 * blocked), with the threshold for large maps at 1 MiB (4 by default; the
 * reference executor is slow at that size): at batch 4 the 256-channel maps
 * are 1 MiB, and the 1x1 convolutions, their residual sums included, stay
 * in the blocked layout (no moves); at batch 1 they go channels-last, with a
 * move around each Winograd convolution.  Results as the reference's at both. */
TEST(blocked_large_maps) {
  gb b;
  int r = blocked_stem(&b, 256, "1");
  for (int k = 0; k < 2; k++) {
    char n[4][16];
    for (int i = 0; i < 4; i++)
      snprintf(n[i], sizeof(n[i]), "b%d.%d", k, i);
    int y = unary(&b, "Relu", conv(&b, n[0], r, 256, 64, 1, 0, 1, 1, 1), n[1]);
    y = unary(&b, "Relu", conv(&b, n[2], y, 64, 64, 3, 1, 1, 1, 1), n[3]);
    y = binary(&b, "Add", conv(&b, k ? "c6" : "c3", y, 64, 256, 1, 0, 1, 1, 1), r, k ? "add2" : "add1");
    r = unary(&b, "Relu", y, k ? "r6" : "r3");
  }
  gb_output(&b, r);
  blocked_at_batch_4(&b, 2);
  unsetenv("OPENACL_MODEL_BLOCKED_MIB");
}

/* MobileNet's depthwise convolution after a blocked one (Winograd): on large
 * maps (threshold 256 KiB here, so batch 4) it stays in the blocked layout
 * with the pointwise ones after it, the 24-channel one padded (no moves); at
 * batch 1 it runs channels-last, with a move before it.  Results as the
 * reference's. */
TEST(blocked_depthwise) {
  gb b;
  int y = blocked_stem(&b, 64, "0.25");
  y = unary(&b, "Relu", conv(&b, "dw", y, 64, 64, 3, 1, 1, 64, 1), "r1");
  y = conv(&b, "pw", y, 64, 24, 1, 0, 1, 1, 1); /* 24 channels: padded to 32 in the blocked layout */
  gb_output(&b, unary(&b, "Relu", conv(&b, "pw2", y, 24, 64, 1, 0, 1, 1, 1), "r2"));
  blocked_at_batch_4(&b, 1);
  unsetenv("OPENACL_MODEL_BLOCKED_MIB");
}

/* EfficientNet's squeeze-and-excitation block: depthwise conv -> Swish ->
 * GlobalAveragePool -> 1x1 conv -> Swish -> 1x1 conv -> Sigmoid -> Mul by
 * the Swish's output.  The Swish step computes the pool's means in the
 * same pass (vec512.c): channels-last at batch 1 (c channels: 40 leaves a
 * partial vector), 16-channel blocked on large maps (threshold 256 KiB
 * here, so batch 4).  Where the Swish's output is also a graph output, the
 * pool stays a step of its own.  Results as the reference's. */
static int se_swish(gb *b, int y, int64_t c, int out_too) {
  y = conv(b, "dw", y, c, c, 3, 1, 1, c, 1);
  int s = binary(b, "Mul", y, unary(b, "Sigmoid", y, "sig"), "swish");
  if (out_too)
    gb_output(b, s);
  int e = conv(b, "fc1", unary(b, "GlobalAveragePool", s, "gap"), c, 8, 1, 0, 1, 1, 1);
  e = binary(b, "Mul", e, unary(b, "Sigmoid", e, "sig1"), "swish1");
  e = unary(b, "Sigmoid", conv(b, "fc2", e, 8, c, 1, 0, 1, 1, 1), "sig2");
  return conv(b, "proj", binary(b, "Mul", s, e, "scale"), c, 16, 1, 0, 1, 1, 1);
}

static size_t se_swish_steps(int64_t c, int64_t hw, int out_too) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, c, hw, hw});
  gb_output(&b, se_swish(&b, x, c, out_too));
  acl__engine *e = make_engine(b.g);
  feed f = {0};
  feed_add(&f, &b, 4, (int64_t[]){1, c, hw, hw});
  compare_run(e, b.g, &f);
  feed_free(&f);
  acl__engine_stats st = stats(e);
  printf("%lld channels, %lld x %lld%s: %zu steps\n", (long long)c, (long long)hw, (long long)hw,
         out_too ? ", swish output read outside" : "", st.steps);
  CHECK_INT_EQ((long)st.ref_steps, 0);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
  return st.steps;
}

TEST(se_swish_pool) {
  /* dw, swish + mean, fc1 + swish, fc2 + sigmoid, mul, proj; moves around them */
  size_t fused = se_swish_steps(40, 7, 0), apart = se_swish_steps(40, 7, 1);
  if (acl__eng_vec512())
    CHECK_INT_EQ((long)apart, (long)fused + 2); /* the pool, and the swish output's move to plain */
  CHECK_INT_EQ((long)se_swish_steps(32, 9, 0), (long)fused);
  gb b;
  int y = blocked_stem(&b, 64, "0.25");
  gb_output(&b, se_swish(&b, y, 64, 0));
  blocked_at_batch_4(&b, 1);
  unsetenv("OPENACL_MODEL_BLOCKED_MIB");
}

/* ResNet's last stage: a 3x3 convolution on 7 x 7 maps between two 1x1
 * ones.  At batch 1 (49 output pixels) it runs direct, channels-last like
 * its neighbours (no moves); at batch 8 (392) on Winograd's kernel, with
 * moves into its blocked layout and back.  Results as the reference's. */
TEST(winograd_by_batch) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 64, 7, 7});
  int y = unary(&b, "Relu", conv(&b, "c1", x, 64, 64, 1, 0, 1, 1, 1), "r1");
  y = unary(&b, "Relu", conv(&b, "c2", y, 64, 64, 3, 1, 1, 1, 1), "r2");
  gb_output(&b, conv(&b, "c3", y, 64, 64, 1, 0, 1, 1, 1));
  acl__engine *e = make_engine(b.g);
  CHECK_INT_EQ((long)moves_at(e, &b, 1, 64, 7), 0);
  if (acl__eng_winograd_on() && acl__eng_vec512()) /* oneDNN's Winograd kernel needs AVX-512 */
    CHECK((long)moves_at(e, &b, 8, 64, 7) >= 1);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* DenseNet's 3x3 convolutions (64 -> 32 channels here) run on Winograd's
 * kernel from 2 MiB of input (batch 8 at 32 x 32), with a move into its
 * blocked layout after the channels-last 1x1 one; at batch 1 they stay
 * channels-last (no move).  Results as the reference's at both. */
TEST(narrow_winograd) {
  gb b = gb_new(13);
  int x = gb_input(&b, "x", 4, (int64_t[]){-1, 64, 32, 32});
  int y = unary(&b, "Relu", conv(&b, "c1", x, 64, 64, 1, 0, 1, 1, 1), "r1");
  gb_output(&b, conv(&b, "c2", y, 64, 32, 3, 1, 1, 1, 1));
  acl__engine *e = make_engine(b.g);
  CHECK(moves_at(e, &b, 8, 64, 32) >= 1);
  CHECK_INT_EQ((long)moves_at(e, &b, 1, 64, 32), 0);
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}

/* ResNeXt's grouped convolution (4 channels per group: 4-channel blocks)
 * between 1x1 ones that stay 16-channel blocked on large maps (threshold
 * 256 KiB here, so batch 4): the moves between the two blocked layouts are
 * the engine's relayouts too, as are those to and from channels-last at
 * batch 1.  Results as the reference's at both. */
TEST(blocked_grouped_relayouts) {
  gb b;
  int y = blocked_stem(&b, 128, "0.25");
  y = unary(&b, "Relu", conv(&b, "c1", y, 128, 128, 1, 0, 1, 1, 1), "r1");
  y = unary(&b, "Relu", conv(&b, "grouped", y, 128, 128, 3, 1, 1, 32, 1), "r2");
  gb_output(&b, conv(&b, "c3", y, 128, 64, 1, 0, 1, 1, 1));
  acl__engine *e = make_engine(b.g);
  CHECK(moves_at(e, &b, 4, 64, 16) >= 2);
  CHECK(moves_at(e, &b, 1, 64, 16) >= 2);
  unsetenv("OPENACL_MODEL_BLOCKED_MIB");
  acl__engine_destroy(e);
  acl__graph_free(b.g);
}
