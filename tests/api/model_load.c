/*
 * model_load.c - loading ONNX models and describing them (tests
 * api/model_load/...), through the public API only: models written here
 * with the generated protobuf-c structs and a few of Debian's
 * libonnx-testdata models are loaded, described (counts, names, dims, sizes,
 * types, formats, index by name) and unloaded; wrong ids, wrong contexts,
 * calls before aclInit and after aclFinalize, bad files (code, file name and
 * place in the message), many loads (leaks: ASan build) and threads loading
 * at once.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "onnx.pb-c.h"

#define TESTDATA "/usr/share/libonnx-testdata/data"

/* ---- a model written with the generated structs --------------------------------- */

/* The model: inputs X float [batch,3,4,4], W (an initializer the file also
 * lists as an input, as IR 3 required), M int64 [2,5], and an input with a
 * 200-character name, bool [7]; nodes Add(X, W) -> Y, Relu(M) -> Z,
 * Not(L) -> N; outputs Y float [batch,3,4,4], Z int64 without a shape,
 * N bool [7]. */
static char long_name[201];

static void vi(Onnx__ValueInfoProto *v, Onnx__TypeProto *t, Onnx__TypeProto__Tensor *tt,
               Onnx__TensorShapeProto *sh, Onnx__TensorShapeProto__Dimension *d,
               Onnx__TensorShapeProto__Dimension **dp, const char *name, int elem, int rank,
               const int64_t *dims) {
  onnx__value_info_proto__init(v);
  onnx__type_proto__init(t);
  onnx__type_proto__tensor__init(tt);
  onnx__tensor_shape_proto__init(sh);
  v->name = (char *)name;
  v->type = t;
  t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  t->tensor_type = tt;
  tt->has_elem_type = 1;
  tt->elem_type = elem;
  if (rank < 0)
    return;
  tt->shape = sh;
  sh->n_dim = (size_t)rank;
  sh->dim = dp;
  for (int i = 0; i < rank; i++) {
    onnx__tensor_shape_proto__dimension__init(&d[i]);
    if (dims[i] >= 0) {
      d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      d[i].dim_value = dims[i];
    } else {
      d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      d[i].dim_param = "batch";
    }
    dp[i] = &d[i];
  }
}

/* The packed model (malloc'd); *size its length.  `bad_node` makes node 0
 * use a tensor nobody produces. */
static uint8_t *pack_model(size_t *size, int bad_node) {
  memset(long_name, 'n', 200);
  long_name[200] = '\0';
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
  model.producer_name = "model_load test";
  model.n_opset_import = 1;
  model.opset_import = opset_p;
  model.graph = &graph;
  graph.name = "described";

  enum { NV = 7 };
  Onnx__ValueInfoProto v[NV];
  Onnx__TypeProto t[NV];
  Onnx__TypeProto__Tensor tt[NV];
  Onnx__TensorShapeProto sh[NV];
  Onnx__TensorShapeProto__Dimension d[NV][4];
  Onnx__TensorShapeProto__Dimension *dp[NV][4];
  const int64_t xd[4] = {-1, 3, 4, 4}, wd[1] = {4}, md[2] = {2, 5}, ld[1] = {7};
  vi(&v[0], &t[0], &tt[0], &sh[0], d[0], dp[0], "X", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, xd);
  vi(&v[1], &t[1], &tt[1], &sh[1], d[1], dp[1], "W", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 1, wd);
  vi(&v[2], &t[2], &tt[2], &sh[2], d[2], dp[2], "M", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 2, md);
  vi(&v[3], &t[3], &tt[3], &sh[3], d[3], dp[3], long_name, ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 1, ld);
  vi(&v[4], &t[4], &tt[4], &sh[4], d[4], dp[4], "Y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, xd);
  vi(&v[5], &t[5], &tt[5], &sh[5], d[5], dp[5], "Z", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, -1, NULL);
  vi(&v[6], &t[6], &tt[6], &sh[6], d[6], dp[6], "N", ONNX__TENSOR_PROTO__DATA_TYPE__BOOL, 1, ld);
  Onnx__ValueInfoProto *in_p[4] = {&v[0], &v[1], &v[2], &v[3]}, *out_p[3] = {&v[4], &v[5], &v[6]};
  graph.n_input = 4;
  graph.input = in_p;
  graph.n_output = 3;
  graph.output = out_p;

  Onnx__TensorProto w, *init_p[1] = {&w};
  float wdata[4] = {1, 2, 3, 4};
  int64_t wdims[1] = {4};
  onnx__tensor_proto__init(&w);
  w.name = "W";
  w.has_data_type = 1;
  w.data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  w.n_dims = 1;
  w.dims = wdims;
  w.has_raw_data = 1;
  w.raw_data.len = sizeof(wdata);
  w.raw_data.data = (uint8_t *)wdata;
  graph.n_initializer = 1;
  graph.initializer = init_p;

  Onnx__NodeProto n[3], *node_p[3] = {&n[0], &n[1], &n[2]};
  char *add_in[2] = {bad_node ? "nowhere" : "X", "W"}, *add_out[1] = {"Y"};
  char *relu_in[1] = {"M"}, *relu_out[1] = {"Z"};
  char *not_in[1] = {long_name}, *not_out[1] = {"N"};
  for (int i = 0; i < 3; i++)
    onnx__node_proto__init(&n[i]);
  n[0].op_type = "Add", n[0].name = "add0", n[0].n_input = 2, n[0].input = add_in, n[0].n_output = 1;
  n[0].output = add_out;
  n[1].op_type = "Relu", n[1].name = "relu0", n[1].n_input = 1, n[1].input = relu_in, n[1].n_output = 1;
  n[1].output = relu_out;
  n[2].op_type = "Not", n[2].name = "not0", n[2].n_input = 1, n[2].input = not_in, n[2].n_output = 1;
  n[2].output = not_out;
  graph.n_node = 3;
  graph.node = node_p;

  *size = onnx__model_proto__get_packed_size(&model);
  uint8_t *buf = malloc(*size);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(onnx__model_proto__pack(&model, buf), *size);
  return buf;
}

static char *write_bytes(const char *dir, const char *name, const void *data, size_t size) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  CHECK_NOT_NULL(path);
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK_NOT_NULL(f);
  CHECK_INT_EQ(fwrite(data, 1, size, f), size);
  CHECK_INT_EQ(fclose(f), 0);
  return path;
}

/* Writes the model into a fresh temp dir; *dir to th_rmtree afterwards. */
static char *model_file(char **dir) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  *dir = th_tmpdir();
  char *path = write_bytes(*dir, "described.onnx", buf, size);
  free(buf);
  return path;
}

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void check_dims(const aclmdlIODims *d, const char *name, size_t n, const int64_t *dims) {
  CHECK_STR_EQ(d->name, name);
  CHECK_INT_EQ(d->dimCount, n);
  for (size_t i = 0; i < n; i++)
    CHECK_INT_EQ(d->dims[i], dims[i]);
}

/* Everything the description of the model written above says. */
static void check_described(aclmdlDesc *desc) {
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 3); /* W is an initializer, not an input */
  CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 3);
  CHECK_STR_EQ(aclmdlGetInputNameByIndex(desc, 0), "X");
  CHECK_STR_EQ(aclmdlGetInputNameByIndex(desc, 1), "M");
  CHECK_STR_EQ(aclmdlGetInputNameByIndex(desc, 2), long_name); /* whole name here */
  CHECK_STR_EQ(aclmdlGetOutputNameByIndex(desc, 0), "Y");
  CHECK_STR_EQ(aclmdlGetOutputNameByIndex(desc, 1), "Z");
  CHECK_STR_EQ(aclmdlGetOutputNameByIndex(desc, 2), "N");
  aclmdlIODims d;
  const int64_t xd[4] = {-1, 3, 4, 4}, md[2] = {2, 5}, ld[1] = {7};
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
  check_dims(&d, "X", 4, xd);
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 1, &d), ACL_SUCCESS);
  check_dims(&d, "M", 2, md);
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 2, &d), ACL_SUCCESS);
  CHECK_INT_EQ(strlen(d.name), ACL_MAX_TENSOR_NAME_LEN - 1); /* cut to fit, NUL-terminated */
  CHECK(strncmp(d.name, long_name, ACL_MAX_TENSOR_NAME_LEN - 1) == 0);
  CHECK_INT_EQ(d.dimCount, 1);
  CHECK_INT_EQ(d.dims[0], 7);
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 0, &d), ACL_SUCCESS);
  check_dims(&d, "Y", 4, xd);
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 1, &d), ACL_SUCCESS);
  check_dims(&d, "Z", 0, NULL); /* no declared shape */
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 2, &d), ACL_SUCCESS);
  check_dims(&d, "N", 1, ld);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 0); /* a -1 dim */
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 1), 2 * 5 * 8);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 2), 7);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 0);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 1), 0);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 2), 7);
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 1), ACL_INT64);
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 2), ACL_BOOL);
  CHECK_INT_EQ(aclmdlGetOutputDataType(desc, 1), ACL_INT64);
  CHECK_INT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);
  CHECK_INT_EQ(aclmdlGetInputFormat(desc, 1), ACL_FORMAT_ND);
  CHECK_INT_EQ(aclmdlGetOutputFormat(desc, 0), ACL_FORMAT_NCHW);
  CHECK_INT_EQ(aclmdlGetOutputFormat(desc, 1), ACL_FORMAT_ND);
  size_t idx = 99;
  CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, "M", &idx), ACL_SUCCESS);
  CHECK_INT_EQ(idx, 1);
  CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, long_name, &idx), ACL_SUCCESS);
  CHECK_INT_EQ(idx, 2);
  CHECK_INT_EQ(aclmdlGetOutputIndexByName(desc, "N", &idx), ACL_SUCCESS);
  CHECK_INT_EQ(idx, 2);
  CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, "W", &idx), ACL_ERROR_INVALID_PARAM); /* a weight */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "no input named \"W\"");
  CHECK_INT_EQ(aclmdlGetOutputIndexByName(desc, "X", &idx), ACL_ERROR_INVALID_PARAM);
}

/* ---- loading and describing ------------------------------------------------------- */

TEST(load_describe_unload_file) {
  char *dir = NULL, *path = model_file(&dir);
  setup();
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(path, &id), ACL_SUCCESS);
  CHECK(id >= 1);
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_NOT_NULL(desc);
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  check_described(desc);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  check_described(desc); /* a description is a copy: it outlives the model */
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "was unloaded");
  CHECK_INT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  teardown();
  th_rmtree(dir);
  free(dir);
  free(path);
}

TEST(load_from_mem_and_desc_from_file_and_mem) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  char *dir = NULL, *path = model_file(&dir);
  setup();
  uint32_t a = 0, b = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &b), ACL_SUCCESS);
  CHECK_INT_EQ(b, a + 1);
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, b), ACL_SUCCESS);
  check_described(desc);
  aclmdlDesc *f = aclmdlCreateDesc(), *m = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDescFromFile(f, path), ACL_SUCCESS);
  check_described(f);
  CHECK_INT_EQ(aclmdlGetDescFromMem(m, buf, size), ACL_SUCCESS);
  check_described(m);
  CHECK_INT_EQ(aclmdlGetDescFromMem(m, buf, size), ACL_SUCCESS); /* refilled: the old content freed */
  check_described(m);
  CHECK_INT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(b), ACL_SUCCESS);
  uint32_t c = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &c), ACL_SUCCESS);
  CHECK(c > b); /* ids are never reused */
  CHECK_INT_EQ(aclmdlUnload(c), ACL_SUCCESS);
  aclmdlDestroyDesc(desc);
  aclmdlDestroyDesc(f);
  aclmdlDestroyDesc(m);
  teardown();
  th_rmtree(dir);
  free(dir);
  free(path);
  free(buf);
}

static aclmdlDesc *testdata_desc(const char *model, uint32_t *id) {
  char path[512];
  snprintf(path, sizeof(path), TESTDATA "/%s/model.onnx", model);
  if (access(path, R_OK) != 0) {
    printf("SKIP: %s not installed (libonnx-testdata)\n", path);
    return NULL;
  }
  CHECK_INT_EQ(aclmdlLoadFromFile(path, id), ACL_SUCCESS);
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, *id), ACL_SUCCESS);
  return desc;
}

TEST(testdata_models) {
  setup();
  uint32_t id = 0;
  aclmdlIODims d;
  aclmdlDesc *desc = testdata_desc("node/test_relu", &id);
  if (desc != NULL) {
    const int64_t s[3] = {3, 4, 5};
    CHECK_INT_EQ(aclmdlGetNumInputs(desc), 1);
    CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 1);
    CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
    check_dims(&d, "x", 3, s);
    CHECK_INT_EQ(aclmdlGetOutputDims(desc, 0, &d), ACL_SUCCESS);
    check_dims(&d, "y", 3, s);
    CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 60 * 4);
    CHECK_INT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
    CHECK_INT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_ND);
    CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyDesc(desc);
  }
  desc = testdata_desc("node/test_add", &id);
  if (desc != NULL) {
    CHECK_INT_EQ(aclmdlGetNumInputs(desc), 2);
    CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 1);
    CHECK_STR_EQ(aclmdlGetInputNameByIndex(desc, 1), "y");
    CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 60 * 4);
    CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyDesc(desc);
  }
  desc = testdata_desc("node/test_conv_with_strides_padding", &id);
  if (desc != NULL) {
    const int64_t x[4] = {1, 1, 7, 5}, w[4] = {1, 1, 3, 3}, y[4] = {1, 1, 4, 3};
    CHECK_INT_EQ(aclmdlGetNumInputs(desc), 2); /* node tests feed the weights as inputs */
    CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
    check_dims(&d, "x", 4, x);
    CHECK_INT_EQ(aclmdlGetInputDims(desc, 1, &d), ACL_SUCCESS);
    check_dims(&d, "W", 4, w);
    CHECK_INT_EQ(aclmdlGetOutputDims(desc, 0, &d), ACL_SUCCESS);
    check_dims(&d, "y", 4, y);
    CHECK_INT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);
    CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 12 * 4);
    CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyDesc(desc);
  }
  desc = testdata_desc("pytorch-converted/test_Conv2d", &id);
  if (desc != NULL) {
    /* weights are initializers: one input, one output */
    CHECK_INT_EQ(aclmdlGetNumInputs(desc), 1);
    CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 1);
    CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
    CHECK_INT_EQ(d.dimCount, 4);
    CHECK_INT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_NCHW);
    CHECK_INT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
    size_t n = 1;
    for (size_t i = 0; i < d.dimCount; i++)
      n *= (size_t)d.dims[i];
    CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 0), n * 4);
    size_t idx = 9;
    CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, d.name, &idx), ACL_SUCCESS);
    CHECK_INT_EQ(idx, 0);
    printf("pytorch-converted/test_Conv2d: input \"%s\" [%lld,%lld,%lld,%lld], %zu bytes\n", d.name,
           (long long)d.dims[0], (long long)d.dims[1], (long long)d.dims[2], (long long)d.dims[3], n * 4);
    CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    aclmdlDestroyDesc(desc);
  }
  teardown();
}

/* ---- wrong ids, arguments, contexts, lifecycle ------------------------------------ */

TEST(wrong_ids_and_arguments) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  setup();
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, 0), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "never returned");
  CHECK_INT_EQ(aclmdlGetDesc(desc, 12345), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(aclmdlUnload(777), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlUnload failed");
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(NULL, &id), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromFile("x.onnx", NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromMem(NULL, 10, &id), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDesc(NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDescFromFile(desc, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDescFromMem(desc, NULL, 3), ACL_ERROR_INVALID_PARAM);
  /* an empty description */
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 0);
  CHECK_NULL(aclmdlGetInputNameByIndex(desc, 0));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "empty");
  /* NULL and foreign handles */
  CHECK_INT_EQ(aclmdlGetNumInputs(NULL), 0);
  CHECK_INT_EQ(aclmdlGetNumOutputs(NULL), 0);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "modelDesc is NULL");
  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlDestroyDesc((aclmdlDesc *)ds), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is a dataset handle");
  aclmdlDestroyDataset(ds);
  /* out-of-range indexes */
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  aclmdlIODims d;
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 3, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "indexes 0 to 2 are valid");
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 9, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 3), 0);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 3), 0);
  CHECK_NULL(aclmdlGetInputNameByIndex(desc, 3));
  CHECK_NULL(aclmdlGetOutputNameByIndex(desc, 3));
  CHECK_INT_EQ(aclmdlGetInputFormat(desc, 3), ACL_FORMAT_UNDEFINED);
  CHECK_INT_EQ(aclmdlGetOutputFormat(desc, 3), ACL_FORMAT_UNDEFINED);
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 3), ACL_DT_UNDEFINED);
  CHECK_INT_EQ(aclmdlGetOutputDataType(desc, 3), ACL_DT_UNDEFINED);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlGetOutputDataType failed");
  size_t idx = 0;
  CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, NULL, &idx), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetInputIndexByName(desc, "X", NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_ERROR_INVALID_PARAM); /* destroyed */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a live aclmdlDesc");
  teardown();
  free(buf);
}

TEST(unload_in_another_context) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  setup();
  aclrtContext first = NULL, other = NULL;
  CHECK_INT_EQ(aclrtGetCurrentContext(&first), ACL_SUCCESS);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS); /* becomes current */
  CHECK_INT_EQ(aclmdlUnload(id), ACL_ERROR_RT_MODEL_CONTEXT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "was loaded in context");
  /* a description needs no particular context */
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  aclmdlDestroyDesc(desc);
  teardown();
  free(buf);
}

static void *no_context_thread(void *arg) {
  uint32_t id = 0;
  int *rcs = arg;
  rcs[0] = aclmdlLoadFromMem(&rcs[2], 4, &id);
  rcs[1] = aclmdlUnload(1);
  return NULL;
}

TEST(needs_init_and_a_context) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  uint32_t id = 0;
  aclmdlDesc *desc = aclmdlCreateDesc(); /* plain host data: no aclInit needed */
  CHECK_NOT_NULL(desc);
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &id), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlLoadFromFile("m.onnx", &id), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlUnload(1), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlGetDesc(desc, 1), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlGetDescFromMem(desc, buf, size), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  int rcs[3] = {0, 0, 0};
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, no_context_thread, rcs), 0);
  CHECK_INT_EQ(pthread_join(t, NULL), 0);
  CHECK_INT_EQ(rcs[0], ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(rcs[1], ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclmdlGetDescFromMem(desc, buf, size), ACL_SUCCESS); /* needs no context */
  check_described(desc);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  free(buf);
}

TEST(finalize_unloads_models) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  setup();
  uint32_t a = 0, b = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &b), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS); /* b leaked: unloaded (ASan checks it is freed) */
  CHECK_INT_EQ(aclmdlUnload(b), ACL_ERROR_UNINITIALIZE);
  setup();
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, b), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(aclmdlUnload(b), ACL_ERROR_INVALID_MODEL_ID);
  uint32_t c = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &c), ACL_SUCCESS);
  CHECK(c > b); /* not reused after aclFinalize either */
  aclmdlDestroyDesc(desc);
  teardown(); /* c leaked too */
  free(buf);
}

/* ---- bad files ------------------------------------------------------------------ */

TEST(bad_files) {
  char *dir = th_tmpdir();
  size_t size = 0;
  uint8_t *good = pack_model(&size, 0), *bad = pack_model(&size, 1);
  char *missing = malloc(strlen(dir) + 32);
  sprintf(missing, "%s/missing.onnx", dir);
  char *empty = write_bytes(dir, "empty.onnx", "", 0);
  char *junk = write_bytes(dir, "junk.onnx", "this is not protobuf\xff\xff\xff", 23);
  char *truncated = write_bytes(dir, "truncated.onnx", good, size / 2);
  char *badnode = write_bytes(dir, "badnode.onnx", bad, size);
  setup();
  uint32_t id = 0;
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlLoadFromFile(missing, &id), ACL_ERROR_READ_MODEL_FAILURE);
  const char *msg = aclGetRecentErrMsg();
  CHECK_STR_HAS(msg, "aclmdlLoadFromFile failed");
  CHECK_STR_HAS(msg, missing);
  CHECK_INT_EQ(aclmdlLoadFromFile(dir, &id), ACL_ERROR_READ_MODEL_FAILURE); /* a directory */
  CHECK_INT_EQ(aclmdlLoadFromFile(empty, &id), ACL_ERROR_MODEL_SIZE_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), empty);
  CHECK_INT_EQ(aclmdlLoadFromFile(junk, &id), ACL_ERROR_PARSE_MODEL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), junk);
  CHECK_INT_EQ(aclmdlLoadFromFile(truncated, &id), ACL_ERROR_PARSE_MODEL);
  CHECK_INT_EQ(aclmdlLoadFromFile(badnode, &id), ACL_ERROR_PARSE_MODEL);
  msg = aclGetRecentErrMsg();
  CHECK_STR_HAS(msg, badnode);
  CHECK_STR_HAS(msg, "graph.node[0] (\"add0\", Add).input[0]");
  CHECK_STR_HAS(msg, "nowhere");
  CHECK_INT_EQ(aclmdlLoadFromMem(bad, size, &id), ACL_ERROR_PARSE_MODEL);
  msg = aclGetRecentErrMsg();
  CHECK_STR_HAS(msg, "aclmdlLoadFromMem failed");
  CHECK_STR_HAS(msg, "model in memory");
  CHECK_STR_HAS(msg, "graph.node[0]");
  CHECK_INT_EQ(aclmdlLoadFromMem(good, 0, &id), ACL_ERROR_MODEL_SIZE_INVALID);
  CHECK_INT_EQ(aclmdlGetDescFromFile(desc, badnode), ACL_ERROR_PARSE_MODEL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlGetDescFromFile failed");
  CHECK_INT_EQ(aclmdlGetDescFromMem(desc, junk, 5), ACL_ERROR_PARSE_MODEL);
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 0); /* failures leave it as it was */
  aclmdlDestroyDesc(desc);
  teardown();
  th_rmtree(dir);
  free(dir), free(missing), free(empty), free(junk), free(truncated), free(badnode), free(good), free(bad);
}

/* ---- many and concurrent loads -------------------------------------------------- */

TEST(many_loads_and_unloads) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  setup();
  enum { N = 64 };
  uint32_t ids[N];
  aclmdlDesc *desc = aclmdlCreateDesc();
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < N; i++)
      CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &ids[i]), ACL_SUCCESS);
    for (int i = 0; i < N; i++) {
      CHECK_INT_EQ(aclmdlGetDesc(desc, ids[i]), ACL_SUCCESS);
      CHECK_INT_EQ(aclmdlGetNumInputs(desc), 3);
    }
    for (int i = N - 1; i >= 0; i -= 2) /* out of load order */
      CHECK_INT_EQ(aclmdlUnload(ids[i]), ACL_SUCCESS);
    for (int i = 0; i < N; i += 2)
      CHECK_INT_EQ(aclmdlUnload(ids[i]), ACL_SUCCESS);
  }
  aclmdlDestroyDesc(desc);
  teardown();
  free(buf);
}

typedef struct loader_arg {
  const uint8_t *buf;
  size_t size;
  aclrtContext ctx;
  uint32_t ids[16];
  int failures;
} loader_arg;

static void *loader_thread(void *p) {
  loader_arg *a = p;
  if (aclrtSetCurrentContext(a->ctx) != ACL_SUCCESS) {
    a->failures++;
    return NULL;
  }
  aclmdlDesc *desc = aclmdlCreateDesc();
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 16; i++)
      if (aclmdlLoadFromMem(a->buf, a->size, &a->ids[i]) != ACL_SUCCESS)
        a->failures++;
    for (int i = 0; i < 16; i++)
      if (aclmdlGetDesc(desc, a->ids[i]) != ACL_SUCCESS || aclmdlGetNumOutputs(desc) != 3)
        a->failures++;
    for (int i = 0; i < (round == 3 ? 8 : 16); i++) /* the last round leaves 8 for the checks below */
      if (aclmdlUnload(a->ids[i]) != ACL_SUCCESS)
        a->failures++;
  }
  aclmdlDestroyDesc(desc);
  return NULL;
}

TEST(threads_load_at_once) {
  size_t size = 0;
  uint8_t *buf = pack_model(&size, 0);
  setup();
  aclrtContext ctx = NULL;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  enum { T = 6 };
  pthread_t th[T];
  loader_arg args[T];
  for (int i = 0; i < T; i++) {
    args[i] = (loader_arg){.buf = buf, .size = size, .ctx = ctx};
    CHECK_INT_EQ(pthread_create(&th[i], NULL, loader_thread, &args[i]), 0);
  }
  for (int i = 0; i < T; i++)
    CHECK_INT_EQ(pthread_join(th[i], NULL), 0);
  /* every id distinct */
  for (int i = 0; i < T; i++) {
    CHECK_INT_EQ(args[i].failures, 0);
    for (int j = 8; j < 16; j++)
      for (int k = 0; k < T; k++)
        for (int l = 8; l < 16; l++)
          if (k != i || l != j)
            CHECK_INT_NE(args[i].ids[j], args[k].ids[l]);
  }
  /* the survivors: unload half here, leave the rest to aclFinalize */
  for (int i = 0; i < T; i++)
    for (int j = 8; j < 12; j++)
      CHECK_INT_EQ(aclmdlUnload(args[i].ids[j]), ACL_SUCCESS);
  teardown();
  free(buf);
}
