/*
 * onnx.c - the ONNX loader (src/model/onnx_loader.c): models built here with
 * the generated protobuf-c structs, packed and loaded back; every error path
 * with its code and message; truncated and random input; external data
 * rules; and the ONNX backend test models of Debian's libonnx-testdata.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "model/onnx_loader.h"
#include "onnx.pb-c.h"

/* ---- a small model builder over the generated structs -------------------- */

#define MAXN 8
typedef struct mb {
  Onnx__ModelProto model;
  Onnx__GraphProto graph;
  Onnx__OperatorSetIdProto opset[MAXN];
  Onnx__OperatorSetIdProto *opset_p[MAXN];
  Onnx__NodeProto node[MAXN];
  Onnx__NodeProto *node_p[MAXN];
  char *node_io[MAXN][2][4];
  Onnx__AttributeProto attr[MAXN];
  Onnx__AttributeProto *attr_p[MAXN][MAXN];
  Onnx__ValueInfoProto vi[MAXN];
  Onnx__ValueInfoProto *in_p[MAXN], *out_p[MAXN];
  Onnx__TypeProto type[MAXN];
  Onnx__TypeProto__Tensor tt[MAXN];
  Onnx__TensorShapeProto shape[MAXN];
  Onnx__TensorShapeProto__Dimension dim[MAXN][4];
  Onnx__TensorShapeProto__Dimension *dim_p[MAXN][4];
  Onnx__TensorProto tensor[MAXN];
  Onnx__TensorProto *init_p[MAXN];
  Onnx__StringStringEntryProto ext[MAXN];
  Onnx__StringStringEntryProto *ext_p[MAXN];
  int n_vi, n_tensor, n_attr, n_ext;
} mb;

static mb M;

static void mb_init(int64_t ir, int64_t opset) {
  memset(&M, 0, sizeof(M));
  onnx__model_proto__init(&M.model);
  onnx__graph_proto__init(&M.graph);
  M.model.has_ir_version = 1;
  M.model.ir_version = ir;
  M.model.producer_name = "openacl-test";
  M.model.graph = &M.graph;
  M.graph.name = "g";
  onnx__operator_set_id_proto__init(&M.opset[0]);
  M.opset[0].domain = "";
  M.opset[0].has_version = 1;
  M.opset[0].version = opset;
  M.opset_p[0] = &M.opset[0];
  M.model.n_opset_import = 1;
  M.model.opset_import = M.opset_p;
  M.graph.node = M.node_p;
  M.graph.input = M.in_p;
  M.graph.output = M.out_p;
  M.graph.initializer = M.init_p;
}

/* dims: >= 0 a size; -1 unknown; -2 the symbol "batch" */
static void mb_value(int output, const char *name, int elem, int rank, const int64_t *dims) {
  int k = M.n_vi++;
  Onnx__ValueInfoProto *v = &M.vi[k];
  onnx__value_info_proto__init(v);
  onnx__type_proto__init(&M.type[k]);
  onnx__type_proto__tensor__init(&M.tt[k]);
  onnx__tensor_shape_proto__init(&M.shape[k]);
  v->name = (char *)name;
  v->type = &M.type[k];
  M.type[k].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  M.type[k].tensor_type = &M.tt[k];
  M.tt[k].has_elem_type = 1;
  M.tt[k].elem_type = elem;
  if (rank >= 0) {
    M.tt[k].shape = &M.shape[k];
    M.shape[k].n_dim = (size_t)rank;
    M.shape[k].dim = M.dim_p[k];
    for (int i = 0; i < rank; i++) {
      Onnx__TensorShapeProto__Dimension *d = &M.dim[k][i];
      onnx__tensor_shape_proto__dimension__init(d);
      if (dims[i] >= 0) {
        d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        d->dim_value = dims[i];
      } else if (dims[i] == -2) {
        d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
        d->dim_param = "batch";
      }
      M.dim_p[k][i] = d;
    }
  }
  if (output)
    M.out_p[M.graph.n_output++] = v;
  else
    M.in_p[M.graph.n_input++] = v;
}

static Onnx__NodeProto *mb_node(const char *op, const char *name, const char *in0, const char *in1,
                                const char *out0) {
  size_t k = M.graph.n_node++;
  Onnx__NodeProto *n = &M.node[k];
  onnx__node_proto__init(n);
  n->op_type = (char *)op;
  n->name = (char *)name;
  n->input = M.node_io[k][0];
  n->output = M.node_io[k][1];
  if (in0)
    n->input[n->n_input++] = (char *)in0;
  if (in1)
    n->input[n->n_input++] = (char *)in1;
  n->output[n->n_output++] = (char *)out0;
  n->attribute = M.attr_p[k];
  M.node_p[k] = n;
  return n;
}

static Onnx__AttributeProto *mb_attr(Onnx__NodeProto *n, const char *name, int type) {
  Onnx__AttributeProto *a = &M.attr[M.n_attr++];
  onnx__attribute_proto__init(a);
  a->name = (char *)name;
  a->has_type = 1;
  a->type = (Onnx__AttributeProto__AttributeType)type;
  n->attribute[n->n_attribute++] = a;
  return a;
}

static Onnx__TensorProto *mb_tensor(const char *name, int elem, size_t rank, int64_t *dims) {
  Onnx__TensorProto *t = &M.tensor[M.n_tensor++];
  onnx__tensor_proto__init(t);
  t->name = (char *)name;
  t->has_data_type = 1;
  t->data_type = elem;
  t->n_dims = rank;
  t->dims = dims;
  return t;
}

static Onnx__TensorProto *mb_initializer(const char *name, int elem, size_t rank, int64_t *dims) {
  Onnx__TensorProto *t = mb_tensor(name, elem, rank, dims);
  M.init_p[M.graph.n_initializer++] = t;
  return t;
}

static void mb_external(Onnx__TensorProto *t, const char *loc, const char *off, const char *len) {
  t->has_data_location = 1;
  t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  t->external_data = &M.ext_p[M.n_ext];
  const char *kv[3][2] = {{"location", loc}, {"offset", off}, {"length", len}};
  for (int i = 0; i < 3; i++) {
    if (kv[i][1] == NULL)
      continue;
    Onnx__StringStringEntryProto *e = &M.ext[M.n_ext];
    onnx__string_string_entry_proto__init(e);
    e->key = (char *)kv[i][0];
    e->value = (char *)kv[i][1];
    M.ext_p[M.n_ext++] = e;
    t->n_external_data++;
  }
}

static uint8_t *mb_pack(size_t *len) {
  *len = onnx__model_proto__get_packed_size(&M.model);
  uint8_t *buf = malloc(*len ? *len : 1);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(onnx__model_proto__pack(&M.model, buf), *len);
  return buf;
}

/* A Relu model: X float [batch, 3] -> Relu -> Y. */
static void build_relu(void) {
  mb_init(8, 13);
  int64_t d[] = {-2, 3};
  mb_value(0, "X", ACL__ONNX_FLOAT, 2, d);
  mb_value(1, "Y", ACL__ONNX_FLOAT, 2, d);
  mb_node("Relu", "relu0", "X", NULL, "Y");
}

static float add_b[3] = {1.5f, -2.0f, 4.0f};
static int64_t add_b_dims[] = {3};

/* Add(X, B) with B an initializer, then Relu. */
static void build_add(void) {
  mb_init(7, 13);
  int64_t d[] = {2, 3};
  mb_value(0, "X", ACL__ONNX_FLOAT, 2, d);
  mb_value(1, "Y", ACL__ONNX_FLOAT, 2, d);
  Onnx__TensorProto *b = mb_initializer("B", ACL__ONNX_FLOAT, 1, add_b_dims);
  b->has_raw_data = 1;
  b->raw_data.data = (uint8_t *)add_b;
  b->raw_data.len = sizeof(add_b);
  mb_node("Add", "add0", "X", "B", "S");
  mb_node("Relu", "relu0", "S", NULL, "Y");
}

/* Loads what M holds from memory; returns the code, the graph in *g, the
 * first message in msg (freed with the diags). */
static int load_built(acl__graph **g, acl__diags *d, const char *base_dir) {
  size_t len;
  uint8_t *buf = mb_pack(&len);
  int rc = acl__onnx_load_mem(buf, len, base_dir, NULL, g, d);
  free(buf);
  return rc;
}

static const char *first_msg(const acl__diags *d, char *out, size_t cap) {
  const acl__diag *e = acl__diags_first_error(d);
  snprintf(out, cap, "%s: %s", e ? e->path : "(none)", e ? e->message : "(none)");
  return out;
}

/* Expects loading M to fail with `code` and a message containing `needle`. */
static void expect_fail(int code, const char *needle) {
  acl__graph *g = (acl__graph *)1;
  acl__diags d = {0};
  char msg[2048];
  int rc = load_built(&g, &d, NULL);
  first_msg(&d, msg, sizeof(msg));
  printf("  expected failure: %d %s\n", rc, msg);
  CHECK_INT_EQ(rc, code);
  CHECK_NULL(g);
  CHECK_STR_HAS(msg, needle);
  CHECK_INT_EQ(acl__diags_first_error(&d)->code, code);
  acl__diags_free(&d);
}

/* ---- models that load ----------------------------------------------------- */

TEST(relu_model_loads) {
  build_relu();
  acl__graph *g = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  CHECK_INT_EQ(d.count, 0);
  CHECK_INT_EQ(g->ir_version, 8);
  CHECK_INT_EQ(acl__graph_opset_version(g, ""), 13);
  CHECK_INT_EQ(acl__graph_opset_version(g, "ai.onnx"), 13);
  CHECK_INT_EQ(acl__graph_opset_version(g, "ai.onnx.ml"), -1);
  CHECK_STR_EQ(g->producer_name, "openacl-test");
  CHECK_INT_EQ(g->n_nodes, 1);
  CHECK_STR_EQ(g->nodes[0].op_type, "Relu");
  CHECK_STR_EQ(g->nodes[0].name, "relu0");
  CHECK_STR_EQ(g->nodes[0].domain, "");
  CHECK_INT_EQ(g->n_inputs, 1);
  CHECK_INT_EQ(g->n_outputs, 1);
  const acl__graph_tensor *x = &g->tensors[g->inputs[0]];
  const acl__graph_tensor *y = &g->tensors[g->outputs[0]];
  CHECK_STR_EQ(x->name, "X");
  CHECK_INT_EQ(x->kind, ACL__TENSOR_INPUT);
  CHECK_INT_EQ(x->dtype, ACL_FLOAT);
  CHECK_INT_EQ(x->rank, 2);
  CHECK_INT_EQ(x->dims[0].value, -1);
  CHECK_STR_EQ(x->dims[0].symbol, "batch");
  CHECK_INT_EQ(x->dims[1].value, 3);
  CHECK_NULL(x->dims[1].symbol);
  CHECK_STR_EQ(y->name, "Y");
  CHECK_INT_EQ(y->kind, ACL__TENSOR_NODE_OUTPUT);
  CHECK_INT_EQ(y->producer, 0);
  CHECK(y->is_graph_output);
  CHECK_INT_EQ(y->dtype, ACL_FLOAT);
  CHECK_INT_EQ(g->nodes[0].inputs[0], g->inputs[0]);
  CHECK_INT_EQ(g->nodes[0].outputs[0], g->outputs[0]);
  CHECK_INT_EQ(acl__graph_find(g, "Y"), g->outputs[0]);
  CHECK_INT_EQ(acl__graph_find(g, "nope"), -1);
  acl__graph_free(g);
  acl__diags_free(&d);
}

TEST(add_with_initializer) {
  build_add();
  acl__graph *g = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  CHECK_INT_EQ(g->n_inputs, 1);
  CHECK_INT_EQ(g->n_nodes, 2);
  int b = acl__graph_find(g, "B");
  CHECK(b >= 0);
  const acl__graph_tensor *t = &g->tensors[b];
  CHECK_INT_EQ(t->kind, ACL__TENSOR_INITIALIZER);
  CHECK_INT_EQ(t->data_size, sizeof(add_b));
  CHECK(memcmp(t->data, add_b, sizeof(add_b)) == 0);
  CHECK_INT_EQ(g->nodes[0].inputs[1], b);
  CHECK_INT_EQ(g->nodes[1].inputs[0], g->nodes[0].outputs[0]);
  CHECK_INT_EQ(acl__graph_numel(t), 3);
  acl__graph_free(g);
  acl__diags_free(&d);
}

/* IR 3 lists initializers among the graph inputs: they are not inputs the
 * caller feeds. */
TEST(initializer_listed_as_input_is_not_an_input) {
  build_add();
  M.model.ir_version = 3;
  M.opset[0].version = 8;
  mb_value(0, "B", ACL__ONNX_FLOAT, 1, add_b_dims);
  acl__graph *g = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  CHECK_INT_EQ(g->n_inputs, 1);
  CHECK_STR_EQ(g->tensors[g->inputs[0]].name, "X");
  acl__graph_free(g);
  acl__diags_free(&d);
}

TEST(typed_fields_and_attributes_convert) {
  build_relu();
  static int64_t d4[] = {4}, d2[] = {2}, d0[] = {0};
  static int64_t i64[] = {1, -2, 3, INT64_MIN};
  static int32_t i32[] = {-1, 127, 0x3c00, 0xffff};
  static uint64_t u64[] = {7, 0xffffffffu};
  static float fl[] = {0.5f, 2.0f};
  Onnx__TensorProto *a = mb_initializer("I64", ACL__ONNX_INT64, 1, d4);
  a->n_int64_data = 4, a->int64_data = i64;
  Onnx__TensorProto *b = mb_initializer("I8", ACL__ONNX_INT8, 1, d2);
  b->n_int32_data = 2, b->int32_data = i32;
  Onnx__TensorProto *c = mb_initializer("F16", ACL__ONNX_FLOAT16, 1, d2);
  c->n_int32_data = 2, c->int32_data = i32 + 2;
  Onnx__TensorProto *e = mb_initializer("U32", ACL__ONNX_UINT32, 1, d2);
  e->n_uint64_data = 2, e->uint64_data = u64;
  mb_initializer("EMPTY", ACL__ONNX_FLOAT, 1, d0);
  Onnx__NodeProto *n = mb_node("Constant", "c0", NULL, NULL, "C");
  Onnx__AttributeProto *at = mb_attr(n, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
  at->t = mb_tensor("", ACL__ONNX_FLOAT, 1, d2);
  at->t->n_float_data = 2, at->t->float_data = fl;
  Onnx__NodeProto *n2 = mb_node("LeakyRelu", "", "X", NULL, "Z");
  Onnx__AttributeProto *af = mb_attr(n2, "alpha", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  af->has_f = 1, af->f = 0.25f;
  Onnx__AttributeProto *ai = mb_attr(n2, "axis", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  ai->has_i = 1, ai->i = -1;
  Onnx__AttributeProto *as = mb_attr(n2, "mode", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
  as->has_s = 1, as->s.data = (uint8_t *)"nearest", as->s.len = 7;
  Onnx__AttributeProto *ais = mb_attr(n2, "pads", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
  ais->n_ints = 4, ais->ints = i64;
  Onnx__AttributeProto *afs = mb_attr(n2, "scales", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
  afs->n_floats = 2, afs->floats = fl;
  static ProtobufCBinaryData strs[] = {{3, (uint8_t *)"Tanh"}, {0, NULL}};
  Onnx__AttributeProto *ass = mb_attr(n2, "activations", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);
  ass->n_strings = 2, ass->strings = strs;

  acl__graph *g = NULL;
  acl__diags d = {0};
  char msg[1024];
  int rc = load_built(&g, &d, NULL);
  if (rc != 0)
    printf("%s\n", first_msg(&d, msg, sizeof(msg)));
  CHECK_INT_EQ(rc, 0);
  const acl__graph_tensor *t = &g->tensors[acl__graph_find(g, "I64")];
  CHECK_INT_EQ(t->dtype, ACL_INT64);
  CHECK_INT_EQ(t->data_size, 32);
  CHECK(memcmp(t->data, i64, 32) == 0);
  t = &g->tensors[acl__graph_find(g, "I8")];
  CHECK_INT_EQ(t->dtype, ACL_INT8);
  CHECK_INT_EQ(t->data_size, 2);
  CHECK_INT_EQ(((int8_t *)t->data)[0], -1);
  CHECK_INT_EQ(((int8_t *)t->data)[1], 127);
  t = &g->tensors[acl__graph_find(g, "F16")];
  CHECK_INT_EQ(t->dtype, ACL_FLOAT16);
  CHECK_INT_EQ(((uint16_t *)t->data)[0], 0x3c00);
  CHECK_INT_EQ(((uint16_t *)t->data)[1], 0xffff);
  t = &g->tensors[acl__graph_find(g, "U32")];
  CHECK_INT_EQ(t->dtype, ACL_UINT32);
  CHECK_INT_EQ(((uint32_t *)t->data)[1], 0xffffffffu);
  t = &g->tensors[acl__graph_find(g, "EMPTY")];
  CHECK_INT_EQ(t->data_size, 0);
  const acl__graph_node *cn = &g->nodes[1];
  CHECK_STR_EQ(cn->op_type, "Constant");
  CHECK_INT_EQ(cn->n_inputs, 0);
  CHECK_INT_EQ(cn->attrs[0].type, ACL__ATTR_TENSOR);
  CHECK_INT_EQ(cn->attrs[0].tensor->data_size, 8);
  CHECK(((float *)cn->attrs[0].tensor->data)[1] == 2.0f);
  const acl__graph_node *ln = &g->nodes[2];
  CHECK_INT_EQ(ln->n_attrs, 6);
  CHECK(ln->attrs[0].f == 0.25f);
  CHECK_INT_EQ(ln->attrs[1].i, -1);
  CHECK_STR_EQ(ln->attrs[2].s, "nearest");
  CHECK_INT_EQ(ln->attrs[3].count, 4);
  CHECK_INT_EQ(ln->attrs[3].ints[3], INT64_MIN);
  CHECK(ln->attrs[4].floats[0] == 0.5f);
  CHECK_STR_EQ(ln->attrs[5].strings[0], "Tan");
  CHECK_STR_EQ(ln->attrs[5].strings[1], "");
  acl__graph_free(g);
  acl__diags_free(&d);
}

TEST(optional_inputs_are_minus_one) {
  build_relu();
  Onnx__NodeProto *n = mb_node("Clip", "clip", "X", "", "Z");
  n->output[n->n_output++] = "";
  acl__graph *g = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  CHECK_INT_EQ(g->nodes[1].n_inputs, 2);
  CHECK_INT_EQ(g->nodes[1].inputs[1], -1);
  CHECK_INT_EQ(g->nodes[1].outputs[1], -1);
  acl__graph_free(g);
  acl__diags_free(&d);
}

/* ---- files and external data --------------------------------------------- */

static char *write_bytes(const char *dir, const char *name, const void *data, size_t len) {
  char *path = NULL;
  CHECK(asprintf(&path, "%s/%s", dir, name) > 0);
  FILE *f = fopen(path, "wb");
  CHECK_NOT_NULL(f);
  if (len)
    CHECK_INT_EQ(fwrite(data, 1, len, f), len);
  CHECK_INT_EQ(fclose(f), 0);
  return path;
}

static char *write_model(const char *dir, const char *name) {
  size_t len;
  uint8_t *buf = mb_pack(&len);
  char *path = write_bytes(dir, name, buf, len);
  free(buf);
  return path;
}

static int load_path(const char *path, acl__graph **g, char *msg, size_t cap) {
  acl__diags d = {0};
  int rc = acl__onnx_load_file(path, NULL, g, &d);
  first_msg(&d, msg, cap);
  if (rc != 0)
    printf("  %d %s\n", rc, msg);
  CHECK_INT_EQ(rc != 0, d.count > 0);
  acl__diags_free(&d);
  return rc;
}

/* Add with B stored at offset 4 of weights.bin. */
static void build_external(const char *loc, const char *off, const char *len) {
  build_add();
  Onnx__TensorProto *b = M.init_p[0];
  b->has_raw_data = 0;
  mb_external(b, loc, off, len);
}

TEST(external_data_loads) {
  char *dir = th_tmpdir();
  unsigned char bin[4 + sizeof(add_b)] = {0xde, 0xad, 0xbe, 0xef};
  memcpy(bin + 4, add_b, sizeof(add_b));
  CHECK(mkdir(dir, 0700) == 0 || 1);
  char *sub = NULL;
  CHECK(asprintf(&sub, "%s/w", dir) > 0);
  CHECK_INT_EQ(mkdir(sub, 0700), 0);
  free(write_bytes(sub, "weights.bin", bin, sizeof(bin)));
  build_external("w/weights.bin", "4", "12");
  char *path = write_model(dir, "model.onnx");
  acl__graph *g = NULL;
  char msg[1024];
  CHECK_INT_EQ(load_path(path, &g, msg, sizeof(msg)), 0);
  const acl__graph_tensor *t = &g->tensors[acl__graph_find(g, "B")];
  CHECK(t->external);
  CHECK_INT_EQ(t->data_size, sizeof(add_b));
  CHECK(memcmp(t->data, add_b, sizeof(add_b)) == 0);
  acl__graph_free(g);
  free(path);

  /* no length: the rest of the file */
  build_external("./w//weights.bin", "4", NULL);
  path = write_model(dir, "model2.onnx");
  CHECK_INT_EQ(load_path(path, &g, msg, sizeof(msg)), 0);
  acl__graph_free(g);
  free(path);

  /* from memory there is no directory unless the caller names one */
  build_external("w/weights.bin", "4", "12");
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), ACL_ERROR_READ_MODEL_FAILURE);
  CHECK_STR_HAS(first_msg(&d, msg, sizeof(msg)), "loaded from memory");
  acl__diags_free(&d);
  CHECK_INT_EQ(load_built(&g, &d, dir), 0);
  acl__graph_free(g);
  acl__diags_free(&d);
  free(sub);
  th_rmtree(dir);
  free(dir);
}

TEST(external_data_errors) {
  char *dir = th_tmpdir();
  unsigned char bin[12] = {0};
  free(write_bytes(dir, "weights.bin", bin, sizeof(bin)));
  char *link = NULL;
  CHECK(asprintf(&link, "%s/escape.bin", dir) > 0);
  CHECK_INT_EQ(symlink("/etc/passwd", link), 0);
  free(link);
  CHECK(asprintf(&link, "%s/sub", dir) > 0);
  CHECK_INT_EQ(mkdir(link, 0700), 0);
  free(link);
  static const struct {
    const char *loc, *off, *len;
    int code;
    const char *needle;
  } cases[] = {
    {"../../etc/passwd", NULL, NULL, ACL_ERROR_PARSE_MODEL, "inside the model's directory"},
    {"a/../../weights.bin", NULL, NULL, ACL_ERROR_PARSE_MODEL, "no \"..\""},
    {"/etc/passwd", NULL, NULL, ACL_ERROR_PARSE_MODEL, "no leading '/'"},
    {"escape.bin", "0", "12", ACL_ERROR_PARSE_MODEL, "outside the model's directory"},
    {"missing.bin", NULL, NULL, ACL_ERROR_READ_MODEL_FAILURE, "missing.bin"},
    {"", NULL, NULL, ACL_ERROR_PARSE_MODEL, "no \"location\""},
    {"weights.bin", "4", "12", ACL_ERROR_READ_MODEL_FAILURE, "runs past the end"},
    {"weights.bin", "99999999999999999999", "12", ACL_ERROR_PARSE_MODEL, "offset"},
    {"weights.bin", "-1", "12", ACL_ERROR_PARSE_MODEL, "offset"},
    {"weights.bin", "0", "8", ACL_ERROR_PARSE_MODEL, "need 12"},
    {"weights.bin", "8", NULL, ACL_ERROR_PARSE_MODEL, "need 12"},
    {"sub", "0", "12", ACL_ERROR_READ_MODEL_FAILURE, "not a regular file"},
    {".", "0", "12", ACL_ERROR_PARSE_MODEL, "outside the model's directory"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    build_external(cases[i].loc, cases[i].off, cases[i].len);
    char *path = write_model(dir, "model.onnx");
    acl__graph *g = (acl__graph *)1;
    char msg[1024];
    printf("case %zu: %s\n", i, cases[i].loc);
    CHECK_INT_EQ(load_path(path, &g, msg, sizeof(msg)), cases[i].code);
    CHECK_NULL(g);
    CHECK_STR_HAS(msg, cases[i].needle);
    CHECK_STR_HAS(msg, "graph.initializer[0] (\"B\").external_data");
    free(path);
  }
  th_rmtree(dir);
  free(dir);
}

TEST(file_errors) {
  char *dir = th_tmpdir();
  acl__graph *g = (acl__graph *)1;
  char msg[1024], *p = NULL;
  CHECK(asprintf(&p, "%s/none.onnx", dir) > 0);
  CHECK_INT_EQ(load_path(p, &g, msg, sizeof(msg)), ACL_ERROR_READ_MODEL_FAILURE);
  CHECK_NULL(g);
  CHECK_STR_HAS(msg, "none.onnx");
  free(p);
  CHECK_INT_EQ(load_path(dir, &g, msg, sizeof(msg)), ACL_ERROR_READ_MODEL_FAILURE);
  CHECK_STR_HAS(msg, "not a regular file");
  CHECK_INT_EQ(load_path(NULL, &g, msg, sizeof(msg)), ACL_ERROR_READ_MODEL_FAILURE);
  p = write_bytes(dir, "empty.onnx", "", 0);
  CHECK_INT_EQ(load_path(p, &g, msg, sizeof(msg)), ACL_ERROR_MODEL_SIZE_INVALID);
  CHECK_STR_HAS(msg, "empty");
  free(p);
  build_relu();
  p = write_model(dir, "relu.onnx");
  acl__onnx_limits lim = {.max_model_size = 10};
  acl__diags d = {0};
  CHECK_INT_EQ(acl__onnx_load_file(p, &lim, &g, &d), ACL_ERROR_MODEL_SIZE_INVALID);
  CHECK_STR_HAS(first_msg(&d, msg, sizeof(msg)), "the limit is 10");
  acl__diags_free(&d);
  CHECK_INT_EQ(load_path(p, &g, msg, sizeof(msg)), 0);
  acl__graph_free(g);
  free(p);
  CHECK_INT_EQ(acl__onnx_load_mem("", 0, NULL, NULL, &g, &d), ACL_ERROR_MODEL_SIZE_INVALID);
  acl__diags_free(&d);
  /* a decode budget too small for the model */
  size_t len;
  uint8_t *buf = mb_pack(&len);
  lim = (acl__onnx_limits){.max_decode_memory = 200};
  CHECK_INT_EQ(acl__onnx_load_mem(buf, len, NULL, &lim, &g, &d), ACL_ERROR_PARSE_MODEL);
  CHECK_STR_HAS(first_msg(&d, msg, sizeof(msg)), "bytes of memory");
  acl__diags_free(&d);
  free(buf);
  th_rmtree(dir);
  free(dir);
}

/* ---- hostile bytes ---------------------------------------------------------- */

TEST(every_truncation_fails_cleanly) {
  build_add();
  Onnx__AttributeProto *a = mb_attr(&M.node[1], "alpha", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
  a->f = 1.0f;
  size_t len;
  uint8_t *buf = mb_pack(&len);
  int codes[3] = {0};
  for (size_t n = 1; n < len; n++) {
    uint8_t *copy = malloc(n); /* exactly n bytes, so ASan sees any over-read */
    memcpy(copy, buf, n);
    acl__graph *g = (acl__graph *)1;
    acl__diags d = {0};
    int rc = acl__onnx_load_mem(copy, n, NULL, NULL, &g, &d);
    if (rc == 0)
      printf("prefix of %zu bytes loaded\n", n);
    CHECK(rc == ACL_ERROR_PARSE_MODEL || rc == ACL_ERROR_MODEL_SIZE_INVALID ||
          rc == ACL_ERROR_READ_MODEL_FAILURE);
    CHECK_NULL(g);
    CHECK_NOT_NULL(acl__diags_first_error(&d));
    codes[rc - ACL_ERROR_PARSE_MODEL]++;
    acl__diags_free(&d);
    free(copy);
  }
  printf("%zu prefixes: %d parse errors\n", len - 1, codes[0]);
  free(buf);
}

TEST(random_bytes_fail_cleanly) {
  uint64_t s = 0x9e3779b97f4a7c15ull;
  int ok = 0;
  for (int i = 0; i < 3000; i++) {
    size_t n = 1 + (size_t)(s % 600);
    uint8_t *buf = malloc(n);
    for (size_t j = 0; j < n; j++) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      buf[j] = (uint8_t)s;
    }
    if (i % 3 == 0) /* half-plausible: start like a model */
      buf[0] = 0x08, n > 1 ? buf[1] = 0x07 : 0;
    acl__graph *g = NULL;
    acl__diags d = {0};
    int rc = acl__onnx_load_mem(buf, n, NULL, NULL, &g, &d);
    CHECK(rc == 0 || rc == ACL_ERROR_PARSE_MODEL);
    ok += rc == 0;
    acl__graph_free(g);
    acl__diags_free(&d);
    free(buf);
  }
  CHECK_INT_EQ(ok, 0);
}

static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  do {
    p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

/* graph > node > attribute > graph > ... nested 10000 deep: must be refused
 * before protobuf-c recurses into it. */
TEST(deep_nesting_is_refused) {
  size_t cap = 1 << 20, len = 0;
  uint8_t *buf = malloc(cap), *tmp = malloc(cap);
  static const uint8_t fields[] = {(1 << 3) | 2, (5 << 3) | 2, (6 << 3) | 2}; /* node, attribute, g */
  const int levels = 9999;
  for (int level = 0; level < levels; level++) {
    uint8_t hdr[16];
    size_t h = 0;
    hdr[h++] = fields[(levels - 1 - level) % 3]; /* built inside out */
    h += put_varint(hdr + h, len);
    CHECK(h + len < cap);
    memcpy(tmp, hdr, h);
    memcpy(tmp + h, buf, len);
    memcpy(buf, tmp, h + len);
    len += h;
  }
  /* wrap in ModelProto.graph (7) after ir_version 8 */
  uint8_t hdr[16] = {0x08, 0x08, (7 << 3) | 2};
  size_t h = 3 + put_varint(hdr + 3, len);
  memcpy(tmp, hdr, h);
  memcpy(tmp + h, buf, len);
  acl__graph *g = NULL;
  acl__diags d = {0};
  char msg[1024];
  CHECK_INT_EQ(acl__onnx_load_mem(tmp, h + len, NULL, NULL, &g, &d), ACL_ERROR_PARSE_MODEL);
  CHECK_STR_HAS(first_msg(&d, msg, sizeof(msg)), "nested deeper");
  acl__diags_free(&d);
  free(buf);
  free(tmp);
}

/* ---- invalid structure ------------------------------------------------------ */

TEST(ir_version_out_of_range) {
  build_relu();
  M.model.ir_version = 2;
  expect_fail(ACL_ERROR_PARSE_MODEL, "IR version 2 is not supported");
  build_relu();
  M.model.ir_version = 9;
  expect_fail(ACL_ERROR_PARSE_MODEL, "ir_version: IR version 9");
  build_relu();
  M.model.has_ir_version = 0;
  expect_fail(ACL_ERROR_PARSE_MODEL, "no ir_version");
}

TEST(opset_out_of_range) {
  build_relu();
  M.opset[0].version = 18;
  expect_fail(ACL_ERROR_PARSE_MODEL, "opset_import[0]: opset 18 of domain ai.onnx is not supported");
  build_relu();
  M.opset[0].version = 0;
  expect_fail(ACL_ERROR_PARSE_MODEL, "opset_import[0]: domain \"ai.onnx\" has no valid version");
  build_relu();
  M.opset[M.model.n_opset_import] = M.opset[0];
  M.opset_p[M.model.n_opset_import] = &M.opset[M.model.n_opset_import];
  M.model.n_opset_import++;
  expect_fail(ACL_ERROR_PARSE_MODEL, "opset_import[1]: domain \"ai.onnx\" is imported twice");
  build_relu();
  M.opset[0].domain = "com.example";
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[0] (\"relu0\", Relu).domain");
  build_relu();
  M.node[0].domain = "com.example";
  expect_fail(ACL_ERROR_PARSE_MODEL, "\"com.example\" is not in the model's opset_import");
}

TEST(forward_reference_and_cycles) {
  mb_init(8, 13);
  int64_t d[] = {3};
  mb_value(0, "X", ACL__ONNX_FLOAT, 1, d);
  mb_value(1, "Y", ACL__ONNX_FLOAT, 1, d);
  mb_node("Relu", "second", "S", NULL, "Y");
  mb_node("Relu", "first", "X", NULL, "S");
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[0] (\"second\", Relu).input[0]: uses tensor \"S\", which a "
              "later node (graph.node[1])");
  build_relu();
  mb_node("Add", "self", "X", "Z", "Z");
  expect_fail(ACL_ERROR_PARSE_MODEL, "this node itself");
  build_relu();
  mb_node("Add", "undef", "X", "nowhere", "Z");
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[1] (\"undef\", Add).input[1]: uses tensor \"nowhere\", which "
              "is not a graph input");
}

TEST(bad_initializer_size) {
  build_add();
  M.init_p[0]->raw_data.len = 8;
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.initializer[0] (\"B\").raw_data: tensor \"B\" (float, 3 elements) "
              "needs 12 bytes but raw_data holds 8");
  build_add();
  M.init_p[0]->has_raw_data = 0;
  expect_fail(ACL_ERROR_PARSE_MODEL, "float_data holds 0");
  build_add();
  static int64_t neg[] = {-3};
  M.init_p[0]->dims = neg;
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.initializer[0] (\"B\").dims[0]: tensor \"B\" has negative dimension");
  build_add();
  static int64_t huge[] = {INT64_MAX, 4};
  M.init_p[0]->dims = huge;
  M.init_p[0]->n_dims = 2;
  expect_fail(ACL_ERROR_PARSE_MODEL, "more elements than fit");
  build_add();
  M.init_p[0]->data_type = 99;
  expect_fail(ACL_ERROR_PARSE_MODEL, "unknown data type 99");
  build_add();
  M.init_p[0]->data_type = ACL__ONNX_STRING;
  expect_fail(ACL_ERROR_PARSE_MODEL, "tensor \"B\" (string, 3 elements) holds 0 strings");
}

/* String initializers are kept as heap strings, sequence-typed inputs as
 * sequences of their element type (the reference executor runs both). */
TEST(strings_and_sequences_load) {
  build_add();
  static ProtobufCBinaryData words[3] = {{3, (uint8_t *)"one"}, {0, NULL}, {5, (uint8_t *)"three"}};
  Onnx__TensorProto *b = M.init_p[0];
  b->data_type = ACL__ONNX_STRING;
  b->has_raw_data = 0;
  b->string_data = words;
  b->n_string_data = 3;
  acl__graph *g = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  const acl__graph_tensor *t = &g->tensors[acl__graph_find(g, "B")];
  CHECK_INT_EQ(t->onnx_type, ACL__ONNX_STRING);
  CHECK_INT_EQ(t->data_size, 3 * sizeof(char *));
  CHECK_STR_EQ(((char **)t->data)[0], "one");
  CHECK_STR_EQ(((char **)t->data)[1], "");
  CHECK_STR_EQ(((char **)t->data)[2], "three");
  acl__graph_free(g);
  acl__diags_free(&d);

  build_relu();
  static Onnx__TypeProto__Sequence seq;
  onnx__type_proto__sequence__init(&seq);
  seq.elem_type = &M.type[1];
  M.type[0].value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
  M.type[0].sequence_type = &seq;
  g = NULL;
  CHECK_INT_EQ(load_built(&g, &d, NULL), 0);
  t = &g->tensors[g->inputs[0]];
  CHECK_INT_EQ(t->is_sequence, 1);
  CHECK_INT_EQ(t->onnx_type, ACL__ONNX_FLOAT);
  CHECK_INT_EQ(t->rank, -1);
  CHECK_INT_EQ(g->tensors[g->outputs[0]].is_sequence, 0);
  acl__graph_free(g);
  acl__diags_free(&d);
}

TEST(names_and_types_checked) {
  build_add();
  mb_node("Relu", "dup", "X", NULL, "S");
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[2] (\"dup\", Relu).output[0]: tensor \"S\" is already produced "
              "by graph.node[0]");
  build_add();
  mb_node("Relu", "over", "X", NULL, "B");
  expect_fail(ACL_ERROR_PARSE_MODEL, "already a graph initializer");
  build_add();
  M.init_p[M.graph.n_initializer++] = M.init_p[0];
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.initializer[1] (\"B\"): initializer \"B\" appears twice");
  build_relu();
  mb_value(0, "X", ACL__ONNX_FLOAT, -1, NULL);
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph input \"X\" appears twice");
  build_relu();
  M.tt[0].elem_type = 1234;
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.input[0] (\"X\").type.tensor_type.elem_type: tensor \"X\" has "
              "unknown data type 1234");
  build_relu();
  M.dim[0][1].dim_value = -5;
  expect_fail(ACL_ERROR_PARSE_MODEL, "shape.dim[1]: tensor \"X\" has negative dimension -5");
  build_relu();
  static Onnx__TypeProto__Sequence seq;
  onnx__type_proto__sequence__init(&seq);
  seq.elem_type = NULL; /* a sequence of nothing (of tensors it would load) */
  M.type[0].value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
  M.type[0].sequence_type = &seq;
  expect_fail(ACL_ERROR_PARSE_MODEL, "is a sequence type");
  build_relu();
  M.vi[1].name = "missing";
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph output \"missing\" is not produced");
  build_relu();
  M.node[0].op_type = "";
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[0] (\"relu0\", no op_type).op_type");
  build_relu();
  M.model.graph = NULL;
  expect_fail(ACL_ERROR_PARSE_MODEL, "the model has no graph");
  build_relu();
  Onnx__AttributeProto *a = mb_attr(&M.node[0], "k", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  mb_attr(&M.node[0], "k", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
  (void)a;
  expect_fail(ACL_ERROR_PARSE_MODEL, "attribute \"k\" appears twice");
}

TEST(subgraphs_not_supported_yet) {
  build_relu();
  static Onnx__GraphProto body;
  onnx__graph_proto__init(&body);
  Onnx__NodeProto *n = mb_node("If", "if0", "X", NULL, "Z");
  mb_attr(n, "then_branch", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)->g = &body;
  expect_fail(ACL_ERROR_PARSE_MODEL, "graph.node[1] (\"if0\", If).attribute[0] (\"then_branch\"): subgraphs not "
              "supported yet");
}

/* ---- Debian's ONNX backend test data ------------------------------------ */

#define TESTDATA "/usr/share/libonnx-testdata/data"

TEST(testdata_models_load) {
  static const char *groups[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};
  DIR *top = opendir(TESTDATA);
  if (top == NULL) {
    printf("SKIP: %s not installed (apt-get install libonnx-testdata)\n", TESTDATA);
    return;
  }
  closedir(top);
  int total_bad = 0, total = 0;
  for (size_t gi = 0; gi < sizeof(groups) / sizeof(groups[0]); gi++) {
    char dpath[512];
    snprintf(dpath, sizeof(dpath), "%s/%s", TESTDATA, groups[gi]);
    DIR *dir = opendir(dpath);
    if (dir == NULL)
      continue;
    int ok = 0, unsupported = 0, bad = 0, n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
      if (e->d_name[0] == '.')
        continue;
      char mpath[1024];
      snprintf(mpath, sizeof(mpath), "%s/%s/model.onnx", dpath, e->d_name);
      if (access(mpath, R_OK) != 0)
        continue;
      n++;
      acl__graph *g = NULL;
      acl__diags d = {0};
      int rc = acl__onnx_load_file(mpath, NULL, &g, &d);
      if (rc == 0) {
        ok++;
      } else {
        char msg[1024];
        first_msg(&d, msg, sizeof(msg));
        int clear = rc == ACL_ERROR_PARSE_MODEL &&
                    (strstr(msg, "not supported") != NULL || strstr(msg, "unsupported") != NULL);
        if (clear)
          unsupported++;
        else
          bad++;
        printf("  %s %s/%s: %s\n", clear ? "unsupported" : "FAILED", groups[gi], e->d_name, msg);
      }
      acl__graph_free(g);
      acl__diags_free(&d);
    }
    closedir(dir);
    printf("testdata %-18s %4d models: %4d load, %4d unsupported, %d failed\n", groups[gi], n, ok, unsupported,
           bad);
    total_bad += bad;
    total += n;
  }
  CHECK(total > 0);
  CHECK_INT_EQ(total_bad, 0);
}

/* A file's initializers are decoded one at a time from its bytes (the rest of
 * the model first): the graph is the one a load from memory makes, and an
 * initializer that is no TensorProto fails the load cleanly, naming it. */
TEST(file_initializers_streamed) {
  char *dir = th_tmpdir();
  char msg[1024];
  build_add();
  char *p = write_model(dir, "add.onnx");
  acl__graph *g = NULL, *h = NULL;
  acl__diags d = {0};
  CHECK_INT_EQ(load_path(p, &g, msg, sizeof(msg)), 0);
  CHECK_INT_EQ(load_built(&h, &d, NULL), 0);
  CHECK_INT_EQ(g->n_tensors, h->n_tensors);
  CHECK_INT_EQ(g->n_nodes, h->n_nodes);
  for (size_t i = 0; g != NULL && h != NULL && i < g->n_tensors && i < h->n_tensors; i++) {
    CHECK_STR_EQ(g->tensors[i].name, h->tensors[i].name);
    CHECK_INT_EQ(g->tensors[i].kind, h->tensors[i].kind);
    CHECK_INT_EQ(g->tensors[i].data_size, h->tensors[i].data_size);
    if (g->tensors[i].data_size > 0)
      CHECK(memcmp(g->tensors[i].data, h->tensors[i].data, g->tensors[i].data_size) == 0);
  }
  acl__graph_free(g);
  acl__graph_free(h);
  acl__diags_free(&d);
  free(p);
  /* ir_version 7, opset 13, a graph whose one initializer gives data_type
   * (field 2, a varint) as length-delimited bytes */
  static const uint8_t bad[] = {0x08, 0x07, 0x42, 0x02, 0x10, 0x0d, 0x3a, 0x08,
                                0x2a, 0x06, 0x12, 0x01, 0x01, 0x42, 0x01, 'w'};
  p = write_bytes(dir, "bad_init.onnx", bad, sizeof(bad));
  g = (acl__graph *)1;
  CHECK_INT_EQ(load_path(p, &g, msg, sizeof(msg)), ACL_ERROR_PARSE_MODEL);
  CHECK_NULL(g);
  CHECK_STR_HAS(msg, "initializer");
  free(p);
  th_rmtree(dir);
  free(dir);
}
