/* model_helpers.c - see model_helpers.h. */
#include "model_helpers.h"

#include <stdlib.h>

#include "harness.h"
#include "onnx.pb-c.h"

#define TW_MAX 4

typedef struct vbox {
  Onnx__ValueInfoProto v;
  Onnx__TypeProto t;
  Onnx__TypeProto__Tensor tt;
  Onnx__TensorShapeProto sh;
  Onnx__TensorShapeProto__Dimension d[4];
  Onnx__TensorShapeProto__Dimension *dp[4];
} vbox;

static void vinit(vbox *b, const tw_value *def) {
  onnx__value_info_proto__init(&b->v);
  onnx__type_proto__init(&b->t);
  onnx__type_proto__tensor__init(&b->tt);
  onnx__tensor_shape_proto__init(&b->sh);
  b->v.name = (char *)def->name;
  b->v.type = &b->t;
  b->t.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  b->t.tensor_type = &b->tt;
  b->tt.has_elem_type = 1;
  b->tt.elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  if (def->rank < 0)
    return;
  b->tt.shape = &b->sh;
  b->sh.n_dim = (size_t)def->rank;
  b->sh.dim = b->dp;
  for (int i = 0; i < def->rank; i++) {
    onnx__tensor_shape_proto__dimension__init(&b->d[i]);
    if (def->dims[i] >= 0) {
      b->d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      b->d[i].dim_value = def->dims[i];
    } else {
      b->d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      b->d[i].dim_param = (char *)(def->sym[i] != NULL ? def->sym[i] : "N");
    }
    b->dp[i] = &b->d[i];
  }
}

uint8_t *tw_one_node(const char *op, const tw_value *in, size_t n_in, const tw_value *out, const float *bias,
                     const char *producer, size_t *size) {
  CHECK(n_in <= TW_MAX);
  Onnx__ModelProto model;
  Onnx__GraphProto graph;
  Onnx__OperatorSetIdProto opset, *opset_p[1] = {&opset};
  onnx__model_proto__init(&model);
  onnx__graph_proto__init(&graph);
  onnx__operator_set_id_proto__init(&opset);
  opset.domain = "";
  opset.has_version = 1;
  opset.version = 13;
  model.has_ir_version = 1;
  model.ir_version = 7;
  model.producer_name = (char *)producer;
  model.n_opset_import = 1;
  model.opset_import = opset_p;
  model.graph = &graph;
  graph.name = (char *)op;

  vbox vin[TW_MAX], vout;
  Onnx__ValueInfoProto *in_p[TW_MAX], *out_p[1] = {&vout.v};
  for (size_t i = 0; i < n_in; i++) {
    vinit(&vin[i], &in[i]);
    in_p[i] = &vin[i].v;
  }
  vinit(&vout, out);
  graph.n_input = n_in;
  graph.input = in_p;
  graph.n_output = 1;
  graph.output = out_p;

  Onnx__TensorProto w, *init_p[1] = {&w};
  int64_t wdims[1] = {4};
  if (bias != NULL) {
    onnx__tensor_proto__init(&w);
    w.name = "B";
    w.has_data_type = 1;
    w.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    w.n_dims = 1;
    w.dims = wdims;
    w.has_raw_data = 1;
    w.raw_data.len = 4 * sizeof(float);
    w.raw_data.data = (uint8_t *)bias;
    graph.n_initializer = 1;
    graph.initializer = init_p;
  }

  Onnx__NodeProto n, *node_p[1] = {&n};
  char *node_in[TW_MAX + 1], *node_out[1] = {(char *)out->name};
  size_t k = 0;
  for (; k < n_in; k++)
    node_in[k] = (char *)in[k].name;
  if (bias != NULL)
    node_in[k++] = "B";
  onnx__node_proto__init(&n);
  n.op_type = (char *)op;
  n.name = "node0";
  n.n_input = k;
  n.input = node_in;
  n.n_output = 1;
  n.output = node_out;
  graph.n_node = 1;
  graph.node = node_p;

  *size = onnx__model_proto__get_packed_size(&model);
  uint8_t *buf = malloc(*size);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(onnx__model_proto__pack(&model, buf), *size);
  return buf;
}

void tw_io_alloc(tw_io *b, size_t size) {
  b->size = size;
  b->dev = NULL;
  CHECK_INT_EQ(aclrtMalloc(&b->dev, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  b->buf = aclCreateDataBuffer(b->dev, size);
  CHECK_NOT_NULL(b->buf);
}

void tw_io_free(tw_io *b) {
  CHECK_INT_EQ(aclDestroyDataBuffer(b->buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(b->dev), ACL_SUCCESS);
}

float tw_in_value(int k, size_t i) { return (float)((int)(i * 7 + (size_t)k * 3) % 11) - 5.0f; }

void tw_io_fill(tw_io *b, int k, size_t n) {
  if (n == 0)
    return;
  float *host = malloc(n * sizeof(float));
  CHECK_NOT_NULL(host);
  for (size_t i = 0; i < n; i++)
    host[i] = tw_in_value(k, i);
  CHECK_INT_EQ(aclrtMemcpy(b->dev, b->size, host, n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  free(host);
}
