/*
 * model_dynamic.c - models with dynamic (symbolic) dimensions (tests
 * api/model_dynamic/...), through the public API only.  The models are
 * written here with the generated protobuf-c structs:
 *
 *   relu:  x float [N,4] -> Relu -> y float [N,4]
 *   bias:  x float [N,4] + B (initializer float [4]) -> Add -> y (no shape)
 *   add2:  x float [N,4] + z float [N,4] -> Add -> y float [N,4]
 *
 * The description reports -1 and size 0 (aclmdlGetCurOutputDims too); the
 * models run with several batch sizes given by a tensor descriptor on the
 * input dataset, into output buffers bigger than needed, and the output
 * dataset gets a descriptor with the actual shape.  Errors: a dynamic input
 * without a descriptor, a descriptor contradicting a static dimension, the
 * rank or the type, a descriptor with -1, a buffer of the wrong size, an
 * output buffer too small for the actual result, inputs whose run-time
 * shapes do not broadcast.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "harness.h"
#include "onnx.pb-c.h"
#include "model_helpers.h"

/* ---- models ------------------------------------------------------------------------ */

static const float bias_data[4] = {10, 20, 30, 40};

typedef enum { M_RELU, M_BIAS, M_ADD2 } model_kind;

/* Writes model `kind` into dir; the path, malloc'd. */
static char *write_model(const char *dir, model_kind kind) {
  const tw_value x = {"x", 2, {-1, 4}, {NULL}}, z = {"z", 2, {-1, 4}, {NULL}};
  const tw_value y = {"y", 2, {-1, 4}, {NULL}}, y_noshape = {"y", -1, {0}, {NULL}};
  tw_value in2[2] = {x, z};
  size_t size = 0;
  uint8_t *buf = NULL;
  const char *name = NULL;
  switch (kind) {
  case M_RELU:
    buf = tw_one_node("Relu", &x, 1, &y, NULL, "model_dynamic test", &size), name = "relu.onnx";
    break;
  case M_BIAS:
    buf = tw_one_node("Add", &x, 1, &y_noshape, bias_data, "model_dynamic test", &size), name = "bias.onnx";
    break;
  case M_ADD2:
    buf = tw_one_node("Add", in2, 2, &y, NULL, "model_dynamic test", &size), name = "add2.onnx";
    break;
  }
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  CHECK_NOT_NULL(path);
  snprintf(path, len, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK_NOT_NULL(f);
  CHECK_INT_EQ(fwrite(buf, 1, size, f), size);
  CHECK_INT_EQ(fclose(f), 0);
  free(buf);
  return path;
}

/* Loads model `kind` (written to a temp dir, removed again). */
static uint32_t load(model_kind kind) {
  char *dir = th_tmpdir();
  char *path = write_model(dir, kind);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(path, &id), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
  return id;
}

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- device buffers --------------------------------------------------------------- */

#define MAXB 8 /* the largest batch the tests run */

/* Sets a float [batch, cols] descriptor on dataset ds at index i. */
static void set_desc(aclmdlDataset *ds, size_t i, aclDataType dt, int rank, const int64_t *dims) {
  aclTensorDesc *d = aclCreateTensorDesc(dt, rank, dims, ACL_FORMAT_ND);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, d, i), ACL_SUCCESS);
  aclDestroyTensorDesc(d);
}

/* The output dataset's descriptor at 0 is float [batch,4] named "y". */
static void check_out_desc(const aclmdlDataset *out, int64_t batch) {
  aclTensorDesc *d = aclmdlGetDatasetTensorDesc(out, 0);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescType(d), ACL_FLOAT);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 2);
  int64_t v = -7;
  CHECK_INT_EQ(aclGetTensorDescDimV2(d, 0, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, batch);
  CHECK_INT_EQ(aclGetTensorDescDimV2(d, 1, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 4);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), (size_t)batch * 4);
  CHECK_INT_EQ(aclGetTensorDescSize(d), (size_t)batch * 4 * sizeof(float));
  CHECK_STR_EQ(aclGetTensorDescName(d), "y");
}

/* Reads MAXB x 4 floats of the output; elements past batch x 4 must still
 * be the 0xff fill (the model writes only the actual result). */
static void check_out(const tw_io *o, model_kind kind, int64_t batch) {
  float host[MAXB * 4];
  CHECK_INT_EQ(aclrtMemcpy(host, sizeof(host), o->dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  size_t n = (size_t)batch * 4, bad = 0;
  for (size_t i = 0; i < n; i++) {
    float want = tw_in_value(0, i);
    if (kind == M_RELU)
      want = want > 0 ? want : 0;
    else if (kind == M_BIAS)
      want += bias_data[i % 4];
    else
      want += tw_in_value(1, i);
    if (host[i] != want && bad++ == 0)
      printf("batch %d: element %zu is %g, expected %g\n", (int)batch, i, host[i], want);
  }
  CHECK_INT_EQ(bad, 0);
  uint32_t fill;
  memset(&fill, 0xff, sizeof(fill));
  for (size_t i = n; i < MAXB * 4; i++)
    CHECK_INT_EQ(memcmp(&host[i], &fill, sizeof(fill)), 0);
}

/* ---- tests ---------------------------------------------------------------------- */

static void check_dyn_dims(const aclmdlIODims *d, const char *name) {
  CHECK_STR_EQ(d->name, name);
  CHECK_INT_EQ(d->dimCount, 2);
  CHECK_INT_EQ(d->dims[0], -1);
  CHECK_INT_EQ(d->dims[1], 4);
}

TEST(describe) {
  setup();
  uint32_t id = load(M_RELU);
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 1);
  CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 1);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 0);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 0);
  aclmdlIODims d;
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
  check_dyn_dims(&d, "x");
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 0, &d), ACL_SUCCESS);
  check_dyn_dims(&d, "y");
  /* no gears: the "current" output dims are the declared ones */
  memset(&d, 0x5a, sizeof(d));
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, &d), ACL_SUCCESS);
  check_dyn_dims(&d, "y");
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  CHECK_INT_EQ(aclmdlGetOutputFormat(desc, 0), ACL_FORMAT_ND);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);

  /* an output without a declared shape: 0 dims, size 0, here too */
  id = load(M_BIAS);
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 1); /* B is an initializer */
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, &d), ACL_SUCCESS);
  CHECK_STR_EQ(d.name, "y");
  CHECK_INT_EQ(d.dimCount, 0);
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), 0);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  /* the description outlives the model */
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, &d), ACL_SUCCESS);
  CHECK_STR_EQ(d.name, "y");
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  teardown();
}

TEST(cur_output_dims_errors) {
  aclmdlIODims d;
  CHECK_INT_EQ(aclmdlGetCurOutputDims(NULL, 0, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "modelDesc is NULL");
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_NOT_NULL(desc);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is empty");
  setup();
  uint32_t id = load(M_RELU);
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 1, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "the model has 1 outputs");
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "dims is NULL");
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(desc, 0, &d), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a live aclmdlDesc");
}

/* Runs `kind` with batches 1, 2, 5, 8, 3 (sync), each input buffer exactly
 * the batch's size, the output buffer always MAXB x 4 floats. */
static void run_batches(model_kind kind, int async) {
  setup();
  uint32_t id = load(kind);
  size_t n_in = kind == M_ADD2 ? 2 : 1;
  aclrtStream s = NULL;
  if (async)
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  static const int64_t batches[] = {1, 2, 5, 8, 3};
  for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
    int64_t dims[2] = {batches[b], 4};
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    tw_io x[2], y;
    for (size_t k = 0; k < n_in; k++) {
      tw_io_alloc(&x[k], (size_t)batches[b] * 4 * sizeof(float));
      tw_io_fill(&x[k], (int)k, (size_t)(batches[b]) * 4);
      CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x[k].buf), ACL_SUCCESS);
      set_desc(in, k, ACL_FLOAT, 2, dims);
    }
    tw_io_alloc(&y, MAXB * 4 * sizeof(float));
    CHECK_INT_EQ(aclrtMemset(y.dev, y.size, 0xff, y.size), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
    CHECK_NULL(aclmdlGetDatasetTensorDesc(out, 0));
    if (async) {
      CHECK_INT_EQ(aclmdlExecuteAsync(id, in, out, s), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    } else {
      CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
    }
    check_out_desc(out, batches[b]);
    check_out(&y, kind, batches[b]);
    for (size_t k = 0; k < n_in; k++)
      tw_io_free(&x[k]);
    tw_io_free(&y);
    CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  }
  if (async)
    CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

TEST(relu_batches) { run_batches(M_RELU, 0); }
TEST(bias_batches) { run_batches(M_BIAS, 0); }
TEST(add2_batches) { run_batches(M_ADD2, 0); }
TEST(relu_batches_async) { run_batches(M_RELU, 1); }

/* One dataset pair reused: the descriptor is replaced between runs, and the
 * output descriptor follows. */
TEST(reuse_datasets) {
  setup();
  uint32_t id = load(M_BIAS);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  tw_io x, y;
  tw_io_alloc(&x, MAXB * 4 * sizeof(float));
  tw_io_alloc(&y, MAXB * 4 * sizeof(float));
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  for (int64_t batch = MAXB; batch >= 1; batch -= 3) {
    int64_t dims[2] = {batch, 4};
    set_desc(in, 0, ACL_FLOAT, 2, dims);
    CHECK_INT_EQ(aclUpdateDataBuffer(x.buf, x.dev, (size_t)batch * 4 * sizeof(float)), ACL_SUCCESS);
    tw_io_fill(&x, 0, (size_t)(batch) * 4);
    CHECK_INT_EQ(aclrtMemset(y.dev, y.size, 0xff, y.size), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
    check_out_desc(out, batch);
    check_out(&y, M_BIAS, batch);
  }
  tw_io_free(&x);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

/* Batch 0: an empty input (0 bytes) gives an empty output. */
TEST(batch_zero) {
  setup();
  uint32_t id = load(M_RELU);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  aclDataBuffer *x = aclCreateDataBuffer(NULL, 0);
  tw_io y;
  tw_io_alloc(&y, MAXB * 4 * sizeof(float));
  CHECK_INT_EQ(aclrtMemset(y.dev, y.size, 0xff, y.size), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  int64_t dims[2] = {0, 4};
  set_desc(in, 0, ACL_FLOAT, 2, dims);
  CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
  check_out_desc(out, 0);
  check_out(&y, M_RELU, 0);
  CHECK_INT_EQ(aclDestroyDataBuffer(x), ACL_SUCCESS);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

/* Runs model id with one input buffer of in_bytes (described by `desc`
 * unless rank < 0) and an output of out_bytes; returns the code.  The
 * output must be untouched on failure. */
static int run_one(uint32_t id, size_t in_bytes, aclDataType dt, int rank, const int64_t *dims, size_t out_bytes) {
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  tw_io x, y;
  tw_io_alloc(&x, in_bytes);
  tw_io_alloc(&y, out_bytes);
  CHECK_INT_EQ(aclrtMemset(x.dev, x.size, 0, x.size), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(y.dev, y.size, 0xff, y.size), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  if (rank >= 0)
    set_desc(in, 0, dt, rank, dims);
  int rc = aclmdlExecute(id, in, out);
  if (rc != ACL_SUCCESS) {
    unsigned char *host = malloc(out_bytes);
    CHECK_INT_EQ(aclrtMemcpy(host, out_bytes, y.dev, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (size_t i = 0; i < out_bytes; i++)
      CHECK_INT_EQ(host[i], 0xff);
    free(host);
    CHECK_NULL(aclmdlGetDatasetTensorDesc(out, 0));
  }
  tw_io_free(&x);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  return rc;
}

TEST(input_errors) {
  setup();
  uint32_t id = load(M_RELU);
  const size_t f4 = 4 * sizeof(float);
  /* no descriptor for the dynamic input */
  CHECK_INT_EQ(run_one(id, 2 * f4, ACL_FLOAT, -1, NULL, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  /* aclGetRecentErrMsg clears what it returns: keep a copy for two checks */
  char msg[1024];
  snprintf(msg, sizeof(msg), "%s", aclGetRecentErrMsg());
  CHECK_STR_HAS(msg, "input 0 (\"x\") is float [-1,4], with dimensions only known at run time");
  CHECK_STR_HAS(msg, "Remedy: describe the actual shape with aclCreateTensorDesc and "
                     "aclmdlSetDatasetTensorDesc(input, desc, 0)");
  /* a descriptor contradicting the static dimension 1 */
  const int64_t d25[2] = {2, 5};
  CHECK_INT_EQ(run_one(id, 2 * 5 * sizeof(float), ACL_FLOAT, 2, d25, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "has shape [2,5], which does not fit the model's float [-1,4] (dimension 1)");
  /* the rank */
  const int64_t d3[3] = {2, 4, 1};
  CHECK_INT_EQ(run_one(id, 2 * f4, ACL_FLOAT, 3, d3, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "has 3 dimensions, but the model's input is float [-1,4]");
  /* the type */
  const int64_t d24[2] = {2, 4};
  CHECK_INT_EQ(run_one(id, 2 * f4, ACL_INT32, 2, d24, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "has aclDataType 3, but the model's input is float (aclDataType 0)");
  /* a descriptor that is itself dynamic */
  const int64_t dm[2] = {-1, 4};
  CHECK_INT_EQ(run_one(id, 2 * f4, ACL_FLOAT, 2, dm, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "give the actual size of every dimension");
  /* the buffer does not match the described shape */
  CHECK_INT_EQ(run_one(id, 3 * f4, ACL_FLOAT, 2, d24, MAXB * f4), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "input 0 (\"x\", float [2,4]) needs a buffer of 32 bytes, but the dataset's "
                                      "buffer holds 48 bytes");
  /* and it still runs */
  CHECK_INT_EQ(run_one(id, 2 * f4, ACL_FLOAT, 2, d24, MAXB * f4), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

TEST(output_errors) {
  setup();
  uint32_t id = load(M_RELU);
  const size_t f4 = 4 * sizeof(float);
  const int64_t d5[2] = {5, 4};
  /* the output buffer is too small for the actual result: refused when it ran, outputs untouched */
  CHECK_INT_EQ(run_one(id, 5 * f4, ACL_FLOAT, 2, d5, 4 * f4), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "output 0 (\"y\") came out as float [5,4] (80 bytes), but its buffer holds "
                                      "64 bytes");
  /* exactly big enough */
  CHECK_INT_EQ(run_one(id, 5 * f4, ACL_FLOAT, 2, d5, 5 * f4), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

/* add2: x [N,4] and z [N,4] given different N that do not broadcast: the
 * executor refuses the node, outputs untouched. */
TEST(inconsistent_batches) {
  setup();
  uint32_t id = load(M_ADD2);
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  tw_io x, z, y;
  tw_io_alloc(&x, 2 * 4 * sizeof(float));
  tw_io_alloc(&z, 3 * 4 * sizeof(float));
  tw_io_alloc(&y, MAXB * 4 * sizeof(float));
  tw_io_fill(&x, 0, (size_t)(2) * 4);
  tw_io_fill(&z, 1, (size_t)(3) * 4);
  CHECK_INT_EQ(aclrtMemset(y.dev, y.size, 0xff, y.size), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, z.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  const int64_t d2[2] = {2, 4}, d3[2] = {3, 4};
  set_desc(in, 0, ACL_FLOAT, 2, d2);
  set_desc(in, 1, ACL_FLOAT, 2, d3);
  /* the executor's code (exec.h) and message, naming the node */
  CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "model 1: graph.node[0] (\"node0\", Add): shapes cannot be broadcast together");
  CHECK_NULL(aclmdlGetDatasetTensorDesc(out, 0));
  check_out(&y, M_ADD2, 0); /* all still 0xff */
  /* only the first input described: the second is refused before anything runs */
  aclmdlDataset *in1 = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in1, x.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in1, z.buf), ACL_SUCCESS);
  set_desc(in1, 0, ACL_FLOAT, 2, d2);
  CHECK_INT_EQ(aclmdlExecute(id, in1, out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "input 1 (\"z\") is float [-1,4], with dimensions only known at run time");
  tw_io_free(&x);
  tw_io_free(&z);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(in1), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}
