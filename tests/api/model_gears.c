/*
 * model_gears.c - gears of dynamic models and loading with caller memory
 * (tests api/model_gears/...), through the public API only.  The models are
 * written here with the generated protobuf-c structs:
 *
 *   bias:  x float [N,4] + B (initializer float [4]) -> Add -> y float [N,4]
 *   hw:    x float [1,2,H,W] -> Relu -> y float [1,2,H,W]
 *   relu2: x float [A,B] -> Relu -> y float [A,B]
 *   add2:  x float [N,4] + z float [M,4] -> Add -> y (no shape)
 *   sbias: x float [2,4] + B -> Add -> y float [2,4]   (static)
 *   col:   x float [2,N] + B -> Add -> y (a dynamic dim that is not first)
 *
 * Gears come from OPENACL_DYNAMIC_BATCH / _HW / _DIMS, set around each load.
 * Executions at each gear are compared with the same model loaded without
 * the variable and run with tensor descriptors, and with values computed here.
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

typedef enum { M_BIAS, M_HW, M_RELU2, M_ADD2, M_SBIAS, M_COL } model_kind;

static uint8_t *model_bytes(model_kind kind, size_t *size) {
  const tw_value bx = {"x", 2, {-1, 4}, {"N"}}, by = {"y", 2, {-1, 4}, {"N"}};
  const tw_value hx = {"x", 4, {1, 2, -1, -1}, {NULL, NULL, "H", "W"}},
             hy = {"y", 4, {1, 2, -1, -1}, {NULL, NULL, "H", "W"}};
  const tw_value rx = {"x", 2, {-1, -1}, {"A", "B"}}, ry = {"y", 2, {-1, -1}, {"A", "B"}};
  const tw_value ax[2] = {{"x", 2, {-1, 4}, {"N"}}, {"z", 2, {-1, 4}, {"M"}}}, ay = {"y", -1, {0}, {NULL}};
  const tw_value sx = {"x", 2, {2, 4}, {NULL}}, sy = {"y", 2, {2, 4}, {NULL}};
  const tw_value cx = {"x", 2, {2, -1}, {NULL, "N"}}, cy = {"y", -1, {0}, {NULL}};
  switch (kind) {
  case M_BIAS:
    return tw_one_node("Add", &bx, 1, &by, bias_data, "model_gears test", size);
  case M_HW:
    return tw_one_node("Relu", &hx, 1, &hy, NULL, "model_gears test", size);
  case M_RELU2:
    return tw_one_node("Relu", &rx, 1, &ry, NULL, "model_gears test", size);
  case M_ADD2:
    return tw_one_node("Add", ax, 2, &ay, NULL, "model_gears test", size);
  case M_SBIAS:
    return tw_one_node("Add", &sx, 1, &sy, bias_data, "model_gears test", size);
  default:
    return tw_one_node("Add", &cx, 1, &cy, bias_data, "model_gears test", size);
  }
}

/* Writes model `kind` into dir; the path, malloc'd. */
static char *write_model(const char *dir, model_kind kind) {
  size_t size = 0;
  uint8_t *buf = model_bytes(kind, &size);
  size_t len = strlen(dir) + 32;
  char *path = malloc(len);
  CHECK_NOT_NULL(path);
  snprintf(path, len, "%s/m%d.onnx", dir, (int)kind);
  FILE *f = fopen(path, "wb");
  CHECK_NOT_NULL(f);
  CHECK_INT_EQ(fwrite(buf, 1, size, f), size);
  CHECK_INT_EQ(fclose(f), 0);
  free(buf);
  return path;
}

/* Loads model `kind` from memory with variable var=value set (var NULL:
 * none); the code of the load. */
static int try_load(model_kind kind, const char *var, const char *value, uint32_t *id) {
  size_t size = 0;
  uint8_t *buf = model_bytes(kind, &size);
  if (var != NULL)
    CHECK_INT_EQ(setenv(var, value, 1), 0);
  int rc = aclmdlLoadFromMem(buf, size, id);
  if (var != NULL)
    CHECK_INT_EQ(unsetenv(var), 0);
  free(buf);
  return rc;
}

static uint32_t load(model_kind kind, const char *var, const char *value) {
  uint32_t id = 0;
  CHECK_INT_EQ(try_load(kind, var, value, &id), ACL_SUCCESS);
  return id;
}

static aclmdlDesc *describe(uint32_t id) {
  aclmdlDesc *d = aclmdlCreateDesc();
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  return d;
}

/* aclGetRecentErrMsg empties the message; keep it for several checks. */
static char last_msg[4096];
static const char *grab_msg(void) {
  const char *m = aclGetRecentErrMsg();
  snprintf(last_msg, sizeof(last_msg), "%s", m != NULL ? m : "(null)");
  return last_msg;
}

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void check_dims(const aclmdlIODims *d, size_t n, const int64_t *want) {
  CHECK_INT_EQ(d->dimCount, n);
  for (size_t i = 0; i < n; i++)
    CHECK_INT_EQ(d->dims[i], want[i]);
}

/* ---- device buffers --------------------------------------------------------------- */

static float *io_read(const tw_io *b) {
  float *host = malloc(b->size);
  CHECK_NOT_NULL(host);
  CHECK_INT_EQ(aclrtMemcpy(host, b->size, b->dev, b->size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return host;
}

/* The output descriptor's shape equals want. */
static void check_desc_shape(aclTensorDesc *d, size_t n, const int64_t *want) {
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), n);
  for (size_t i = 0; i < n; i++) {
    int64_t v = -7;
    CHECK_INT_EQ(aclGetTensorDescDimV2(d, i, &v), ACL_SUCCESS);
    CHECK_INT_EQ(v, want[i]);
  }
}

/* Runs the tensor-descriptor model `ref` (no gears) on input shapes
 * shape[k] (rank dims each) with the same fill; returns its output. */
static float *run_reference(uint32_t ref, size_t n_in, int rank, const int64_t *shape, size_t numel) {
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  tw_io x[2], y;
  for (size_t k = 0; k < n_in; k++) {
    tw_io_alloc(&x[k], numel * sizeof(float));
    tw_io_fill(&x[k], (int)k, numel);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x[k].buf), ACL_SUCCESS);
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, rank, shape, ACL_FORMAT_ND);
    CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(in, d, k), ACL_SUCCESS);
    aclDestroyTensorDesc(d);
  }
  tw_io_alloc(&y, numel * sizeof(float));
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(ref, in, out), ACL_SUCCESS);
  float *r = io_read(&y);
  for (size_t k = 0; k < n_in; k++)
    tw_io_free(&x[k]);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  return r;
}

/* A gear model's datasets: n_in inputs of `in_bytes`, the extra input, one
 * output of out_bytes. */
typedef struct gear_run {
  aclmdlDataset *in, *out;
  tw_io x[2], key, y;
  size_t n_in;
} gear_run;

static void gear_run_init(gear_run *r, size_t n_in, size_t in_bytes, size_t key_bytes, size_t out_bytes) {
  r->n_in = n_in;
  r->in = aclmdlCreateDataset();
  r->out = aclmdlCreateDataset();
  for (size_t k = 0; k < n_in; k++) {
    tw_io_alloc(&r->x[k], in_bytes);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(r->in, r->x[k].buf), ACL_SUCCESS);
  }
  tw_io_alloc(&r->key, key_bytes);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(r->in, r->key.buf), ACL_SUCCESS);
  tw_io_alloc(&r->y, out_bytes);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(r->out, r->y.buf), ACL_SUCCESS);
}

static void gear_run_free(gear_run *r) {
  for (size_t k = 0; k < r->n_in; k++)
    tw_io_free(&r->x[k]);
  tw_io_free(&r->key);
  tw_io_free(&r->y);
  CHECK_INT_EQ(aclmdlDestroyDataset(r->in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(r->out), ACL_SUCCESS);
}

/* The extra input's device buffer holds key (n values). */
static void check_key(const gear_run *r, size_t n, const int64_t *key) {
  int64_t host[8] = {0};
  CHECK_INT_EQ(aclrtMemcpy(host, sizeof(host), r->key.dev, n * sizeof(int64_t), ACL_MEMCPY_DEVICE_TO_HOST),
               ACL_SUCCESS);
  for (size_t i = 0; i < n; i++)
    CHECK_INT_EQ(host[i], key[i]);
}

/* ---- OPENACL_DYNAMIC_BATCH ---------------------------------------------------------- */

TEST(batch_description) {
  setup();
  uint32_t id = load(M_BIAS, "OPENACL_DYNAMIC_BATCH", "1, 2,4,8");
  aclmdlDesc *d = describe(id);
  CHECK_INT_EQ(aclmdlGetNumInputs(d), 2);
  CHECK_STR_EQ(aclmdlGetInputNameByIndex(d, 1), ACL_DYNAMIC_TENSOR_NAME);
  size_t index = 0;
  CHECK_INT_EQ(aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &index), ACL_SUCCESS);
  CHECK_INT_EQ(index, 1);
  CHECK_INT_EQ(aclmdlGetInputDataType(d, 1), ACL_INT64);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 1), 8);
  aclmdlIODims dims;
  CHECK_INT_EQ(aclmdlGetInputDims(d, 1, &dims), ACL_SUCCESS);
  check_dims(&dims, 1, (int64_t[]){1});
  /* largest gear: 8 */
  CHECK_INT_EQ(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){8, 4});
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 0), 8 * 4 * 4);
  CHECK_INT_EQ(aclmdlGetOutputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){8, 4});
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(d, 0), 8 * 4 * 4);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){8, 4});
  aclmdlBatch batch;
  memset(&batch, 0x55, sizeof(batch));
  CHECK_INT_EQ(aclmdlGetDynamicBatch(d, &batch), ACL_SUCCESS);
  CHECK_INT_EQ(batch.batchCount, 4);
  CHECK_INT_EQ(batch.batch[0], 1);
  CHECK_INT_EQ(batch.batch[1], 2);
  CHECK_INT_EQ(batch.batch[2], 4);
  CHECK_INT_EQ(batch.batch[3], 8);
  /* the other kinds report no gears */
  aclmdlHW hw;
  CHECK_INT_EQ(aclmdlGetDynamicHW(d, (size_t)-1, &hw), ACL_SUCCESS);
  CHECK_INT_EQ(hw.hwCount, 0);
  size_t count = 9;
  CHECK_INT_EQ(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &count), ACL_SUCCESS);
  CHECK_INT_EQ(count, 0);
  CHECK_INT_EQ(aclmdlGetInputDynamicDims(d, (size_t)-1, &dims, 0), ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK_STR_HAS(grab_msg(), "no OPENACL_DYNAMIC_DIMS gears");
  aclmdlIODimsRange range;
  CHECK_INT_EQ(aclmdlGetInputDimsRange(d, 0, &range), ACL_SUCCESS);
  CHECK_INT_EQ(range.rangeCount, 2);
  CHECK_INT_EQ(range.range[0][0], 1);
  CHECK_INT_EQ(range.range[0][1], 8);
  CHECK_INT_EQ(range.range[1][0], 4);
  CHECK_INT_EQ(range.range[1][1], 4);
  CHECK_INT_EQ(aclmdlGetInputDimsRange(d, 1, &range), ACL_SUCCESS);
  CHECK_INT_EQ(range.range[0][0], 1);
  CHECK_INT_EQ(range.range[0][1], 1);
  CHECK_INT_EQ(aclmdlGetInputDimsRange(d, 2, &range), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetInputDimsRange(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDynamicBatch(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDynamicBatch(NULL, &batch), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetDynamicHW(d, 2, &hw), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "pass -1");
  CHECK_INT_EQ(aclmdlGetInputDynamicGearCount(d, (size_t)-1, NULL), ACL_ERROR_INVALID_PARAM);

  /* the current output dims follow the gear chosen on the model */
  gear_run r;
  gear_run_init(&r, 1, 8 * 16, 8, 8 * 16);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){2, 4});
  CHECK_INT_EQ(aclmdlGetOutputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){8, 4});
  gear_run_free(&r);

  /* a description read from the file with the variable set says the same */
  char *dir = th_tmpdir();
  char *path = write_model(dir, M_BIAS);
  aclmdlDesc *fd = aclmdlCreateDesc();
  CHECK_INT_EQ(setenv("OPENACL_DYNAMIC_BATCH", "3,5", 1), 0);
  CHECK_INT_EQ(aclmdlGetDescFromFile(fd, path), ACL_SUCCESS);
  CHECK_INT_EQ(unsetenv("OPENACL_DYNAMIC_BATCH"), 0);
  CHECK_INT_EQ(aclmdlGetNumInputs(fd), 2);
  CHECK_INT_EQ(aclmdlGetDynamicBatch(fd, &batch), ACL_SUCCESS);
  CHECK_INT_EQ(batch.batchCount, 2);
  CHECK_INT_EQ(batch.batch[1], 5);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(fd, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){5, 4});
  /* without it: no gears, as before */
  CHECK_INT_EQ(aclmdlGetDescFromFile(fd, path), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetNumInputs(fd), 1);
  CHECK_INT_EQ(aclmdlGetDynamicBatch(fd, &batch), ACL_SUCCESS);
  CHECK_INT_EQ(batch.batchCount, 0);
  CHECK_INT_EQ(aclmdlGetInputDimsRange(fd, 0, &range), ACL_SUCCESS);
  CHECK_INT_EQ(range.range[0][0], 0);
  CHECK_INT_EQ(range.range[0][1], -1);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(fd, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){-1, 4});
  CHECK_INT_EQ(aclmdlDestroyDesc(fd), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

static void batch_runs(int async) {
  setup();
  uint32_t id = load(M_BIAS, "OPENACL_DYNAMIC_BATCH", "1,2,4,8");
  uint32_t ref = load(M_BIAS, NULL, NULL);
  gear_run r;
  gear_run_init(&r, 1, 8 * 16, 8, 8 * 16);
  aclrtStream s = NULL;
  if (async)
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const int64_t batches[] = {4, 1, 8, 2};
  for (size_t b = 0; b < 4; b++) {
    int64_t n = batches[b];
    CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, (uint64_t)n), ACL_SUCCESS);
    check_key(&r, 1, &n);
    check_desc_shape(aclmdlGetDatasetTensorDesc(r.in, 0), 2, (int64_t[]){n, 4});
    tw_io_fill(&r.x[0], 0, (size_t)n * 4);
    CHECK_INT_EQ(aclrtMemset(r.y.dev, r.y.size, 0, r.y.size), ACL_SUCCESS);
    if (async) {
      CHECK_INT_EQ(aclmdlExecuteAsync(id, r.in, r.out, s), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    } else {
      CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_SUCCESS);
    }
    check_desc_shape(aclmdlGetDatasetTensorDesc(r.out, 0), 2, (int64_t[]){n, 4});
    float *got = io_read(&r.y);
    float *want = run_reference(ref, 1, 2, (int64_t[]){n, 4}, (size_t)n * 4);
    for (size_t i = 0; i < (size_t)n * 4; i++) {
      CHECK(got[i] == want[i]);
      CHECK(got[i] == tw_in_value(0, i) + bias_data[i % 4]);
    }
    for (size_t i = (size_t)n * 4; i < 8 * 4; i++)
      CHECK(got[i] == 0.0f); /* only the gear's result is written */
    free(got);
    free(want);
  }
  if (async)
    CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  gear_run_free(&r);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(ref), ACL_SUCCESS);
  teardown();
}

TEST(batch_execute) { batch_runs(0); }
TEST(batch_execute_async) { batch_runs(1); }

TEST(batch_errors) {
  setup();
  uint32_t id = load(M_BIAS, "OPENACL_DYNAMIC_BATCH", "1,2,4,8");
  uint32_t plain = load(M_BIAS, NULL, NULL);
  gear_run r;
  gear_run_init(&r, 1, 8 * 16, 8, 8 * 16);
  /* executing without a gear */
  CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(grab_msg(), "no gear was chosen");
  CHECK_STR_HAS(last_msg, "aclmdlSetDynamicBatchSize");
  /* a value that is not a gear */
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, 3), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "3 is not one of the gears");
  CHECK_STR_HAS(last_msg, "1, 2, 4, 8");
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, UINT64_MAX), ACL_ERROR_INVALID_PARAM);
  /* the wrong index */
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 0, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), ACL_DYNAMIC_TENSOR_NAME);
  /* the wrong kind, and a model without gears */
  CHECK_INT_EQ(aclmdlSetDynamicHWSize(id, r.in, 1, 2, 2), ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK_STR_HAS(grab_msg(), "aclmdlSetDynamicBatchSize");
  aclmdlIODims dims = {.dimCount = 2, .dims = {2, 4}};
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 1, &dims), ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(plain, r.in, 1, 2), ACL_ERROR_MODEL_NOT_DYNAMIC);
  CHECK_STR_HAS(grab_msg(), "has no gears");
  /* bad arguments */
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, NULL, 1, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(9999, r.in, 1, 2), ACL_ERROR_INVALID_MODEL_ID);
  /* a dataset without the extra buffer */
  aclmdlDataset *short_ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(short_ds, r.x[0].buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, short_ds, 1, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "add every input's buffer");
  CHECK_INT_EQ(aclmdlExecute(id, short_ds, r.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(grab_msg(), "has 2 inputs");
  CHECK_INT_EQ(aclmdlDestroyDataset(short_ds), ACL_SUCCESS);
  /* an extra buffer in host memory */
  int64_t host_key = 0;
  aclDataBuffer *hb = aclCreateDataBuffer(&host_key, sizeof(host_key));
  aclmdlDataset *host_ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(host_ds, r.x[0].buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(host_ds, hb), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, host_ds, 1, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "must be device memory");
  CHECK_INT_EQ(aclmdlDestroyDataset(host_ds), ACL_SUCCESS);
  CHECK_INT_EQ(aclDestroyDataBuffer(hb), ACL_SUCCESS);
  /* a descriptor set by hand that is no gear */
  aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, (int64_t[]){3, 4}, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(r.in, td, 0), ACL_SUCCESS);
  aclDestroyTensorDesc(td);
  CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(grab_msg(), "not one of the model's gears");
  /* an input buffer too small for the chosen gear */
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, 8), ACL_SUCCESS);
  CHECK_INT_EQ(aclUpdateDataBuffer(r.x[0].buf, r.x[0].dev, 4 * 16), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(grab_msg(), "needs a buffer of at least 128 bytes");
  /* ... but big enough for a smaller gear */
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, 4), ACL_SUCCESS);
  tw_io_fill(&r.x[0], 0, 16);
  CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_SUCCESS);
  gear_run_free(&r);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(plain), ACL_SUCCESS);
  teardown();
}

TEST(variable_errors) {
  setup();
  uint32_t id = 0;
  const struct {
    model_kind kind;
    const char *var, *value, *msg;
  } bad[] = {
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "1,x", "OPENACL_DYNAMIC_BATCH=\"1,x\": expected a whole number"},
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "0,2", "from 1 to"},
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "2,4,", "character 5"},
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "2,4,2", "gears 1 and 3 are the same"},
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "2;4", "unexpected ';'"},
      {M_BIAS, "OPENACL_DYNAMIC_BATCH", "99999999999", "from 1 to"},
      {M_COL, "OPENACL_DYNAMIC_BATCH", "1,2", "dynamic dimension 1 of 2"},
      {M_BIAS, "OPENACL_DYNAMIC_HW", "2,2", "fills dimensions 2 and 3"},
      {M_HW, "OPENACL_DYNAMIC_HW", "2,2;3", "gear 2 has 1 value, but this model needs 2"},
      {M_HW, "OPENACL_DYNAMIC_HW", "2,2,2", "gear 1 has 3 values"},
      {M_RELU2, "OPENACL_DYNAMIC_DIMS", "1,2;3", "gear 2 has 1 value"},
      {M_RELU2, "OPENACL_DYNAMIC_DIMS", "1,2;1,2", "the same"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    CHECK_INT_EQ(try_load(bad[i].kind, bad[i].var, bad[i].value, &id), ACL_ERROR_INVALID_PARAM);
    CHECK_STR_HAS(grab_msg(), bad[i].var);
    CHECK_STR_HAS(last_msg, bad[i].msg);
  }
  /* two variables at once */
  CHECK_INT_EQ(setenv("OPENACL_DYNAMIC_HW", "2,2", 1), 0);
  CHECK_INT_EQ(try_load(M_BIAS, "OPENACL_DYNAMIC_BATCH", "1,2", &id), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "both OPENACL_DYNAMIC_BATCH and OPENACL_DYNAMIC_HW are set");
  CHECK_INT_EQ(unsetenv("OPENACL_DYNAMIC_HW"), 0);
  /* a static model is not touched; an empty value is unset */
  id = load(M_SBIAS, "OPENACL_DYNAMIC_BATCH", "1,2");
  aclmdlDesc *d = describe(id);
  CHECK_INT_EQ(aclmdlGetNumInputs(d), 1);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  id = load(M_BIAS, "OPENACL_DYNAMIC_BATCH", "");
  d = describe(id);
  CHECK_INT_EQ(aclmdlGetNumInputs(d), 1);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

/* ---- OPENACL_DYNAMIC_HW ------------------------------------------------------------ */

TEST(hw_gears) {
  setup();
  uint32_t id = load(M_HW, "OPENACL_DYNAMIC_HW", "2,3;4,5");
  uint32_t ref = load(M_HW, NULL, NULL);
  aclmdlDesc *d = describe(id);
  aclmdlIODims dims;
  CHECK_INT_EQ(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 4, (int64_t[]){1, 2, 4, 5});
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 0), 2 * 4 * 5 * 4);
  CHECK_INT_EQ(aclmdlGetInputDims(d, 1, &dims), ACL_SUCCESS);
  check_dims(&dims, 1, (int64_t[]){2});
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 1), 16);
  aclmdlHW hw;
  CHECK_INT_EQ(aclmdlGetDynamicHW(d, (size_t)-1, &hw), ACL_SUCCESS);
  CHECK_INT_EQ(hw.hwCount, 2);
  CHECK_INT_EQ(hw.hw[0][0], 2);
  CHECK_INT_EQ(hw.hw[0][1], 3);
  CHECK_INT_EQ(hw.hw[1][0], 4);
  CHECK_INT_EQ(hw.hw[1][1], 5);
  CHECK_INT_EQ(aclmdlGetDynamicHW(d, 0, &hw), ACL_SUCCESS);
  CHECK_INT_EQ(hw.hwCount, 2);
  aclmdlBatch batch;
  CHECK_INT_EQ(aclmdlGetDynamicBatch(d, &batch), ACL_SUCCESS);
  CHECK_INT_EQ(batch.batchCount, 0);
  gear_run r;
  gear_run_init(&r, 1, 2 * 4 * 5 * 4, 16, 2 * 4 * 5 * 4);
  CHECK_INT_EQ(aclmdlSetDynamicHWSize(id, r.in, 1, 3, 3), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "3x3 is not one of the gears");
  CHECK_STR_HAS(last_msg, "2x3, 4x5");
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(id, r.in, 1, 2), ACL_ERROR_MODEL_NOT_DYNAMIC);
  const int64_t gears[2][2] = {{2, 3}, {4, 5}};
  for (int g = 0; g < 2; g++) {
    int64_t h = gears[g][0], w = gears[g][1];
    size_t n = (size_t)(2 * h * w);
    CHECK_INT_EQ(aclmdlSetDynamicHWSize(id, r.in, 1, (uint64_t)h, (uint64_t)w), ACL_SUCCESS);
    check_key(&r, 2, gears[g]);
    tw_io_fill(&r.x[0], 0, n);
    CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_SUCCESS);
    int64_t shape[4] = {1, 2, h, w};
    check_desc_shape(aclmdlGetDatasetTensorDesc(r.out, 0), 4, shape);
    CHECK_INT_EQ(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    check_dims(&dims, 4, shape);
    float *got = io_read(&r.y);
    float *want = run_reference(ref, 1, 4, shape, n);
    for (size_t i = 0; i < n; i++) {
      CHECK(got[i] == want[i]);
      CHECK(got[i] == (tw_in_value(0, i) > 0 ? tw_in_value(0, i) : 0.0f));
    }
    free(got);
    free(want);
  }
  gear_run_free(&r);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(ref), ACL_SUCCESS);
  teardown();
}

/* ---- OPENACL_DYNAMIC_DIMS ------------------------------------------------------------ */

TEST(dims_gears) {
  setup();
  uint32_t id = load(M_RELU2, "OPENACL_DYNAMIC_DIMS", "1,2;3,4;2,6");
  uint32_t ref = load(M_RELU2, NULL, NULL);
  aclmdlDesc *d = describe(id);
  aclmdlIODims dims, g3[3];
  CHECK_INT_EQ(aclmdlGetInputDims(d, 0, &dims), ACL_SUCCESS);
  check_dims(&dims, 2, (int64_t[]){3, 4}); /* the most elements: 12 */
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 0), 12 * 4);
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(d, 1), 16);
  size_t count = 0;
  CHECK_INT_EQ(aclmdlGetInputDynamicGearCount(d, (size_t)-1, &count), ACL_SUCCESS);
  CHECK_INT_EQ(count, 3);
  CHECK_INT_EQ(aclmdlGetInputDynamicDims(d, (size_t)-1, g3, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "has 3 gears");
  CHECK_INT_EQ(aclmdlGetInputDynamicDims(d, (size_t)-1, NULL, 3), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlGetInputDynamicDims(d, (size_t)-1, g3, 3), ACL_SUCCESS);
  check_dims(&g3[0], 2, (int64_t[]){1, 2});
  check_dims(&g3[1], 2, (int64_t[]){3, 4});
  check_dims(&g3[2], 2, (int64_t[]){2, 6});
  aclmdlIODimsRange range;
  CHECK_INT_EQ(aclmdlGetInputDimsRange(d, 0, &range), ACL_SUCCESS);
  CHECK_INT_EQ(range.range[0][0], 1);
  CHECK_INT_EQ(range.range[0][1], 3);
  CHECK_INT_EQ(range.range[1][0], 2);
  CHECK_INT_EQ(range.range[1][1], 6);
  gear_run r;
  gear_run_init(&r, 1, 12 * 4, 16, 12 * 4);
  aclmdlIODims bad = {.dimCount = 2, .dims = {2, 2}};
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 2, &g3[0]), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 1, &bad), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "[2,2] is not one of the gears");
  CHECK_STR_HAS(last_msg, "[1,2], [3,4], [2,6]");
  bad.dimCount = 3;
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 1, &bad), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "dims->dimCount is 3");
  for (int g = 0; g < 3; g++) {
    size_t n = (size_t)(g3[g].dims[0] * g3[g].dims[1]);
    CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 1, &g3[g]), ACL_SUCCESS);
    check_key(&r, 2, g3[g].dims);
    tw_io_fill(&r.x[0], 0, n);
    CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_SUCCESS);
    check_desc_shape(aclmdlGetDatasetTensorDesc(r.out, 0), 2, g3[g].dims);
    CHECK_INT_EQ(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
    check_dims(&dims, 2, g3[g].dims);
    float *got = io_read(&r.y);
    float *want = run_reference(ref, 1, 2, g3[g].dims, n);
    for (size_t i = 0; i < n; i++)
      CHECK(got[i] == want[i]);
    free(got);
    free(want);
  }
  gear_run_free(&r);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(ref), ACL_SUCCESS);
  teardown();
}

/* Two inputs: a gear is every input's shape, concatenated. */
TEST(dims_two_inputs) {
  setup();
  uint32_t id = load(M_ADD2, "OPENACL_DYNAMIC_DIMS", "2,2;5,5");
  uint32_t ref = load(M_ADD2, NULL, NULL);
  aclmdlDesc *d = describe(id);
  CHECK_INT_EQ(aclmdlGetNumInputs(d), 3);
  aclmdlIODims g2[2], dims;
  CHECK_INT_EQ(aclmdlGetInputDynamicDims(d, (size_t)-1, g2, 2), ACL_SUCCESS);
  check_dims(&g2[0], 4, (int64_t[]){2, 4, 2, 4});
  check_dims(&g2[1], 4, (int64_t[]){5, 4, 5, 4});
  /* the output has no declared shape: its size is unknown, its dims too */
  CHECK_INT_EQ(aclmdlGetOutputSizeByIndex(d, 0), 0);
  CHECK_INT_EQ(aclmdlGetCurOutputDims(d, 0, &dims), ACL_SUCCESS);
  CHECK_INT_EQ(dims.dimCount, 0);
  gear_run r;
  gear_run_init(&r, 2, 5 * 16, 16, 5 * 16);
  aclmdlIODims bad = {.dimCount = 4, .dims = {2, 3, 2, 4}};
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 2, &bad), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "which is static: 4");
  CHECK_INT_EQ(aclmdlSetInputDynamicDims(id, r.in, 2, &g2[0]), ACL_SUCCESS);
  check_key(&r, 2, (int64_t[]){2, 2});
  tw_io_fill(&r.x[0], 0, 8);
  tw_io_fill(&r.x[1], 1, 8);
  CHECK_INT_EQ(aclmdlExecute(id, r.in, r.out), ACL_SUCCESS);
  check_desc_shape(aclmdlGetDatasetTensorDesc(r.out, 0), 2, (int64_t[]){2, 4});
  float *got = io_read(&r.y);
  float *want = run_reference(ref, 2, 2, (int64_t[]){2, 4}, 8);
  for (size_t i = 0; i < 8; i++) {
    CHECK(got[i] == want[i]);
    CHECK(got[i] == tw_in_value(0, i) + tw_in_value(1, i));
  }
  free(got);
  free(want);
  gear_run_free(&r);
  CHECK_INT_EQ(aclmdlDestroyDesc(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(ref), ACL_SUCCESS);
  teardown();
}

/* ---- aclmdlQuerySize and the WithMem loads --------------------------------------------- */

TEST(query_size) {
  setup();
  char *dir = th_tmpdir();
  char *path = write_model(dir, M_SBIAS);
  size_t work = 1, weight = 1;
  /* y float [2,4] = 32 bytes of intermediates, B = 16 bytes of weights, each rounded up to 64 */
  CHECK_INT_EQ(aclmdlQuerySize(path, &work, &weight), ACL_SUCCESS);
  CHECK_INT_EQ(work, 64);
  CHECK_INT_EQ(weight, 64);
  size_t size = 0;
  uint8_t *bytes = model_bytes(M_SBIAS, &size);
  work = weight = 1;
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(bytes, size, &work, &weight), ACL_SUCCESS);
  CHECK_INT_EQ(work, 64);
  CHECK_INT_EQ(weight, 64);
  /* a dynamic output is not counted; a model without weights needs none */
  free(bytes);
  bytes = model_bytes(M_HW, &size);
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(bytes, size, &work, &weight), ACL_SUCCESS);
  CHECK_INT_EQ(work, 0);
  CHECK_INT_EQ(weight, 0);
  CHECK_INT_EQ(aclmdlQuerySize(NULL, &work, &weight), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlQuerySize(path, NULL, &weight), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "workSize is NULL");
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(bytes, size, &work, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(NULL, size, &work, &weight), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlQuerySizeFromMem("junk", 4, &work, &weight), ACL_ERROR_PARSE_MODEL);
  char missing[4096];
  snprintf(missing, sizeof(missing), "%s/none.onnx", dir);
  CHECK_INT_EQ(aclmdlQuerySize(missing, &work, &weight), ACL_ERROR_READ_MODEL_FAILURE);
  free(bytes);
  free(path);
  th_rmtree(dir);
  free(dir);
  teardown();
}

/* Runs the static bias model `id` and checks y = x + B. */
static void run_sbias(uint32_t id) {
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  tw_io x, y;
  tw_io_alloc(&x, 32);
  tw_io_alloc(&y, 32);
  tw_io_fill(&x, 0, 8);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
  float *got = io_read(&y);
  for (size_t i = 0; i < 8; i++)
    CHECK(got[i] == tw_in_value(0, i) + bias_data[i % 4]);
  free(got);
  tw_io_free(&x);
  tw_io_free(&y);
  CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
}

TEST(load_with_mem) {
  setup();
  char *dir = th_tmpdir();
  char *path = write_model(dir, M_SBIAS);
  size_t work = 0, weight = 0;
  CHECK_INT_EQ(aclmdlQuerySize(path, &work, &weight), ACL_SUCCESS);
  void *wk = NULL, *wt = NULL;
  CHECK_INT_EQ(aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&wt, weight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(wt, weight, 0, weight), ACL_SUCCESS);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, wk, work, wt, weight), ACL_SUCCESS);
  /* the weights live in the caller's memory */
  float host[4] = {0};
  CHECK_INT_EQ(aclrtMemcpy(host, sizeof(host), wt, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 4; i++)
    CHECK(host[i] == bias_data[i]);
  run_sbias(id);
  /* and the model reads them there: change them, the result follows */
  const float other[4] = {1, 2, 3, 4};
  CHECK_INT_EQ(aclrtMemcpy(wt, weight, other, sizeof(other), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  {
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    tw_io x, y;
    tw_io_alloc(&x, 32);
    tw_io_alloc(&y, 32);
    tw_io_fill(&x, 0, 8);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, x.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, y.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
    float *got = io_read(&y);
    for (size_t i = 0; i < 8; i++)
      CHECK(got[i] == tw_in_value(0, i) + other[i % 4]);
    free(got);
    tw_io_free(&x);
    tw_io_free(&y);
    CHECK_INT_EQ(aclmdlDestroyDataset(in), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlDestroyDataset(out), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  /* from memory; and NULL / 0 lets openacl manage the memory */
  size_t size = 0;
  uint8_t *bytes = model_bytes(M_SBIAS, &size);
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(bytes, size, &id, wk, work, wt, weight), ACL_SUCCESS);
  run_sbias(id);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(bytes, size, &id, NULL, 0, NULL, 0), ACL_SUCCESS);
  run_sbias(id);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, NULL, 0, wt, weight), ACL_SUCCESS);
  run_sbias(id);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  /* errors */
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, wk, work, wt, weight - 1), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "weightSize is 63 bytes, but the model needs 64");
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, wk, work - 1, wt, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "workSize is 63 bytes");
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, NULL, work, wt, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "workPtr is NULL but workSize is 64");
  char hostmem[64];
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(bytes, size, &id, wk, work, hostmem, sizeof(hostmem)), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "not device memory");
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(path, &id, wk, work, (char *)wt + 32, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(grab_msg(), "run past the end");
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem(NULL, &id, wk, work, wt, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(NULL, size, &id, wk, work, wt, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem(bytes, size, NULL, wk, work, wt, weight), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlLoadFromMemWithMem("junk", 4, &id, wk, work, wt, weight), ACL_ERROR_PARSE_MODEL);
  free(bytes);
  CHECK_INT_EQ(aclrtFree(wk), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(wt), ACL_SUCCESS);
  free(path);
  th_rmtree(dir);
  free(dir);
  teardown();
}

TEST(uninitialized) {
  uint32_t id = 0;
  size_t a = 0, b = 0;
  CHECK_INT_EQ(aclmdlQuerySize("x.onnx", &a, &b), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlLoadFromFileWithMem("x.onnx", &id, NULL, 0, NULL, 0), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlSetDynamicBatchSize(1, NULL, 1, 1), ACL_ERROR_UNINITIALIZE);
}
