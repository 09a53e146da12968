/*
 * real_models.c - real networks exported from PyTorch run through openacl and
 * compared with PyTorch's own outputs (tests models/real/...), through the
 * public API only.
 *
 * scripts/models/export_models.py --refs writes the models, a seeded input
 * and PyTorch's output for each batch size, and manifest.tsv listing the
 * cases; OPENACL_MODELS_DIR names that directory (scripts/test.sh exports
 * into build/models and sets it).  Without the variable every test says it
 * is skipped and how to enable it, and passes.
 *
 * One test per model: load it from the file, check the description (one
 * float input "input" [-1,3,H,W] (bert_base_l2: [-1,128,768]), one output
 * "output" [-1,classes] (bert_base_l2: [-1,128,768])), run
 * every batch size of the manifest with aclmdlExecute, the batch given by a
 * tensor descriptor on the input dataset, and compare each element:
 *
 *   |got - want| <= atol + rtol * |want|,  rtol = 1e-4,
 *   atol = 5e-5 x the largest |want| of the case.
 *
 * Why: the outputs are logits of order 1 at the end of 20 to 70 float32
 * layers.  PyTorch and openacl add the products of each convolution and
 * matrix product in different orders (blocked, vectorised, fused
 * multiply-adds), and PyTorch applies the batch norms that the export folds
 * into the weights; each sum differs by a few ulps and the differences carry
 * through the network.  Their size: PyTorch's own float32 output is up to
 * 1.5e-5 x max |want| away from the same network computed in float64
 * (ResNet-50; 1e-6 to 5e-6 for the others), openacl's oneDNN engine about
 * as far, so two correct engines can differ by twice that; the largest
 * difference measured is 2.2e-5 x max |want| (ResNet-50, batch 8).  A
 * wrong kernel (a misplaced padding, a wrong epsilon, a transposed weight)
 * moves logits by 1e-3 or more of their range.  rtol alone would fail on logits close to zero,
 * which carry the same absolute rounding error as large ones: hence an atol
 * scaled to the case's magnitude.  docs/model-tests.md has the figures.
 *
 * two_streams runs one model at batch 8 on two streams at the same time with
 * aclmdlExecuteAsync, the second with the images in reverse order, and
 * checks both results (no state shared between concurrent executions).
 * manifest_known checks that every model in the manifest has a test here.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "harness.h"

#define RTOL 1e-4
#define ATOL_SCALE 5e-5

/* The models export_models.py writes; each has a TEST below. */
static const char *const known_models[] = {
    "resnet18",      "resnet50",           "mobilenet_v2",   "efficientnet_b0", "shufflenet_v2_x1_0",
    "tiny_transformer", "densenet121",     "convnext_tiny",  "mobilenet_v3_large", "regnet_y_400mf",
    "resnext50_32x4d", "bert_base_l2"};

/* ---- the manifest ----------------------------------------------------------------- */

#define MAX_RANK 8
#define MAX_CASES 64

typedef struct ref_case {
  char model[128]; /* file name, e.g. resnet18.onnx */
  long batch;
  int in_rank, out_rank;
  int64_t in_dims[MAX_RANK], out_dims[MAX_RANK];
} ref_case;

/* The directory from OPENACL_MODELS_DIR, or NULL after printing that the
 * test is skipped. */
static const char *models_dir(void) {
  const char *dir = getenv("OPENACL_MODELS_DIR");
  if (dir == NULL || dir[0] == '\0') {
    printf("skipped: OPENACL_MODELS_DIR is not set. To run the real-model tests, export the models with\n"
           "  /usr/bin/python3 scripts/models/export_models.py --out build/models --refs\n"
           "and run with OPENACL_MODELS_DIR=build/models (scripts/test.sh does both).\n");
    return NULL;
  }
  return dir;
}

static char *path_join(const char *dir, const char *name) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *p = malloc(len);
  CHECK_NOT_NULL(p);
  snprintf(p, len, "%s/%s", dir, name);
  return p;
}

/* "8,3,224,224" -> dims; returns the rank. */
static int parse_shape(const char *text, int64_t *dims) {
  int rank = 0;
  const char *s = text;
  while (*s != '\0') {
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0 || rank == MAX_RANK)
      th_fail(__FILE__, __LINE__, "manifest: bad shape \"%s\"", text);
    dims[rank++] = v;
    s = *end == ',' ? end + 1 : end;
  }
  return rank;
}

/* Reads dir/manifest.tsv; returns the number of cases. */
static size_t read_manifest(const char *dir, ref_case *cases) {
  char *path = path_join(dir, "manifest.tsv");
  char *text = th_read_file(path);
  if (text == NULL)
    th_fail(__FILE__, __LINE__, "cannot read %s: export the models with scripts/models/export_models.py --refs", path);
  size_t n = 0;
  for (char *save = NULL, *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || line[0] == '\0')
      continue;
    char *f[4], *s2 = NULL;
    int k = 0;
    for (char *t = strtok_r(line, "\t", &s2); t != NULL && k < 4; t = strtok_r(NULL, "\t", &s2))
      f[k++] = t;
    if (k != 4 || n == MAX_CASES)
      th_fail(__FILE__, __LINE__, "%s: bad line (need model, batch, input shape, output shape)", path);
    ref_case *c = &cases[n++];
    snprintf(c->model, sizeof(c->model), "%s", f[0]);
    c->batch = strtol(f[1], NULL, 10);
    c->in_rank = parse_shape(f[2], c->in_dims);
    c->out_rank = parse_shape(f[3], c->out_dims);
    CHECK(c->batch >= 1);
    CHECK_INT_EQ(c->in_dims[0], c->batch);
    CHECK_INT_EQ(c->out_dims[0], c->batch);
  }
  free(text);
  free(path);
  return n;
}

static size_t elements(const int64_t *dims, int rank) {
  size_t n = 1;
  for (int i = 0; i < rank; i++)
    n *= (size_t)dims[i];
  return n;
}

/* Reads dir/<model stem>.b<batch>.<what>.bin: exactly n floats. */
static float *read_ref(const char *dir, const ref_case *c, const char *what, size_t n) {
  char name[256];
  int stem = (int)(strlen(c->model) > 5 ? strlen(c->model) - 5 : strlen(c->model)); /* drop .onnx */
  snprintf(name, sizeof(name), "%.*s.b%ld.%s.bin", stem, c->model, c->batch, what);
  char *path = path_join(dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    th_fail(__FILE__, __LINE__, "cannot open %s: %s", path, strerror(errno));
  float *v = malloc(n * sizeof(float) + 1);
  CHECK_NOT_NULL(v);
  size_t got = fread(v, sizeof(float), n, f);
  int extra = fgetc(f);
  fclose(f);
  if (got != n || extra != EOF)
    th_fail(__FILE__, __LINE__, "%s: expected exactly %zu floats (%zu bytes)", path, n, n * sizeof(float));
  free(path);
  return v;
}

/* ---- running ---------------------------------------------------------------------- */

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* Loads the case's model file, or `file` instead when not NULL (a
 * quantised copy: <model>_int8.onnx). */
static uint32_t load(const char *dir, const ref_case *c, const char *file) {
  char *path = path_join(dir, file != NULL ? file : c->model);
  uint32_t id = 0;
  uint64_t t0 = th_now_ns();
  int rc = aclmdlLoadFromFile(path, &id);
  if (rc != ACL_SUCCESS)
    th_fail(__FILE__, __LINE__, "aclmdlLoadFromFile(%s) = %d: %s", path, rc, aclGetRecentErrMsg());
  printf("%s: loaded in %.2fs\n", file != NULL ? file : c->model, (double)(th_now_ns() - t0) / 1e9);
  free(path);
  return id;
}

/* The description: one float input "input" [-1, <the case's shape>], one
 * float output "output" [-1, <the case's shape>] (or not declared). */
static void check_desc(uint32_t id, const ref_case *c) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_NOT_NULL(desc);
  CHECK_INT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetNumInputs(desc), 1);
  CHECK_INT_EQ(aclmdlGetNumOutputs(desc), 1);
  CHECK_STR_EQ(aclmdlGetInputNameByIndex(desc, 0), "input");
  CHECK_STR_EQ(aclmdlGetOutputNameByIndex(desc, 0), "output");
  CHECK_INT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  CHECK_INT_EQ(aclmdlGetOutputDataType(desc, 0), ACL_FLOAT);
  /* images NCHW; the token embeddings of bert_base_l2 [batch,128,768] ND */
  CHECK_INT_EQ(aclmdlGetInputFormat(desc, 0), c->in_rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND);
  /* the batch is symbolic: the sizes are unknown until run time */
  CHECK_INT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 0);
  aclmdlIODims d;
  CHECK_INT_EQ(aclmdlGetInputDims(desc, 0, &d), ACL_SUCCESS);
  CHECK_INT_EQ(d.dimCount, c->in_rank);
  CHECK_INT_EQ(d.dims[0], -1);
  for (int i = 1; i < c->in_rank; i++)
    CHECK_INT_EQ(d.dims[i], c->in_dims[i]);
  CHECK_INT_EQ(aclmdlGetOutputDims(desc, 0, &d), ACL_SUCCESS);
  if (d.dimCount != 0) { /* PyTorch declares the output's shape; tolerate its absence */
    CHECK_INT_EQ(d.dimCount, c->out_rank);
    CHECK_INT_EQ(d.dims[0], -1);
    for (int i = 1; i < c->out_rank; i++)
      CHECK(d.dims[i] == c->out_dims[i] || d.dims[i] == -1);
  }
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
}

typedef struct run {
  aclmdlDataset *in, *out;
  aclDataBuffer *in_buf, *out_buf;
  void *in_dev, *out_dev;
  size_t in_bytes, out_bytes;
} run;

/* Device buffers and datasets for case c fed with host input x. */
static void run_prepare(run *r, const ref_case *c, const float *x) {
  r->in_bytes = elements(c->in_dims, c->in_rank) * sizeof(float);
  r->out_bytes = elements(c->out_dims, c->out_rank) * sizeof(float);
  CHECK_INT_EQ(aclrtMalloc(&r->in_dev, r->in_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&r->out_dev, r->out_bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(r->in_dev, r->in_bytes, x, r->in_bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  /* NaN bytes: an output element the model never writes cannot pass */
  CHECK_INT_EQ(aclrtMemset(r->out_dev, r->out_bytes, 0xff, r->out_bytes), ACL_SUCCESS);
  r->in_buf = aclCreateDataBuffer(r->in_dev, r->in_bytes);
  r->out_buf = aclCreateDataBuffer(r->out_dev, r->out_bytes);
  CHECK_NOT_NULL(r->in_buf);
  CHECK_NOT_NULL(r->out_buf);
  r->in = aclmdlCreateDataset();
  r->out = aclmdlCreateDataset();
  CHECK_NOT_NULL(r->in);
  CHECK_NOT_NULL(r->out);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(r->in, r->in_buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(r->out, r->out_buf), ACL_SUCCESS);
  aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, c->in_rank, c->in_dims, ACL_FORMAT_NCHW);
  CHECK_NOT_NULL(td);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(r->in, td, 0), ACL_SUCCESS);
  aclDestroyTensorDesc(td);
}

/* The output dataset's descriptor has the case's output shape; returns the
 * output copied to the host (malloc'd). */
static float *run_result(const run *r, const ref_case *c) {
  aclTensorDesc *td = aclmdlGetDatasetTensorDesc(r->out, 0);
  if (td != NULL) { /* present whenever the declared shape was not exact (here: the batch) */
    CHECK_INT_EQ(aclGetTensorDescType(td), ACL_FLOAT);
    CHECK_INT_EQ(aclGetTensorDescNumDims(td), c->out_rank);
    for (int i = 0; i < c->out_rank; i++) {
      int64_t v = -7;
      CHECK_INT_EQ(aclGetTensorDescDimV2(td, (size_t)i, &v), ACL_SUCCESS);
      CHECK_INT_EQ(v, c->out_dims[i]);
    }
  } else {
    th_fail(__FILE__, __LINE__, "%s batch %ld: no output tensor descriptor after the run", c->model, c->batch);
  }
  float *y = malloc(r->out_bytes);
  CHECK_NOT_NULL(y);
  CHECK_INT_EQ(aclrtMemcpy(y, r->out_bytes, r->out_dev, r->out_bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return y;
}

static void run_free(run *r) {
  CHECK_INT_EQ(aclmdlDestroyDataset(r->in), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(r->out), ACL_SUCCESS);
  CHECK_INT_EQ(aclDestroyDataBuffer(r->in_buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclDestroyDataBuffer(r->out_buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(r->in_dev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(r->out_dev), ACL_SUCCESS);
}

/* Compares n outputs with the reference; prints the errors; fails if any
 * element is outside the tolerance.  `what` names the case. */
static void compare(const char *what, const float *got, const float *want, size_t n) {
  double scale = 0;
  for (size_t i = 0; i < n; i++)
    scale = fmax(scale, fabs((double)want[i]));
  double atol = ATOL_SCALE * scale, max_abs = 0, max_rel = 0, worst_excess = -1;
  size_t bad = 0, worst = 0;
  for (size_t i = 0; i < n; i++) {
    double g = got[i], w = want[i], err = fabs(g - w);
    if (isnan(err))
      err = INFINITY; /* NaN compares false: count it as the worst error */
    max_abs = fmax(max_abs, err);
    if (w != 0)
      max_rel = fmax(max_rel, err / fabs(w));
    double excess = err / (atol + RTOL * fabs(w));
    if (excess > worst_excess)
      worst_excess = excess, worst = i;
    if (excess > 1)
      bad++;
  }
  printf("%s: %zu values, max |want| %.4g, max abs error %.3g (%.3g x max |want|), max rel error %.3g; "
         "worst element %zu: got %.9g want %.9g (%.3g of the tolerance)\n",
         what, n, scale, max_abs, scale > 0 ? max_abs / scale : 0, max_rel, worst, (double)got[worst],
         (double)want[worst], worst_excess);
  if (bad != 0)
    th_fail(__FILE__, __LINE__, "%s: %zu of %zu values differ from PyTorch by more than %g + %g x |want|", what, bad, n,
            atol, RTOL);
}

/* In a reduced precision mode (bfloat16 products, float32 accumulation):
 * the largest error within BF16_ERR of the largest |want|, and the arg-max
 * of each row of the last axis (the class, or a token's largest feature)
 * the same as PyTorch's in at least BF16_TOP1 of the rows.  bfloat16 keeps
 * 8 bits of each operand; how far that carries depends on the network: the
 * zoo's randomly initialised weights amplify it more than trained ones.
 * Measured on this zoo: BERT (2 layers) 1e-3, ConvNeXt-T 5e-3 to 1e-2,
 * ResNeXt-50 0.10 of the largest logit, with every top-1 kept. */
#define BF16_ERR 0.2
#define BF16_TOP1 0.75
/* A quantised copy (scripts/models/quantize_qdq.py: int8 weights per
 * channel, 8-bit activations calibrated on 16 images) against PyTorch's
 * float32: post-training quantisation of these randomly initialised
 * networks moves their logits by 3 % (ResNet-18) to 20 % (ResNeXt-50) of
 * the largest; the exact int8 arithmetic is checked against the reference
 * executor in unit/engine/int8_qdq. */
#define INT8_ERR 0.35

static void compare_reduced(const char *what, const float *got, const float *want, size_t n, size_t row,
                            double err_bound) {
  double scale = 0, max_abs = 0;
  for (size_t i = 0; i < n; i++) {
    scale = fmax(scale, fabs((double)want[i]));
    double err = fabs((double)got[i] - want[i]);
    max_abs = fmax(max_abs, isnan(err) ? INFINITY : err);
  }
  size_t rows = n / row, same = 0;
  for (size_t r = 0; r < rows; r++) {
    size_t ag = 0, aw = 0;
    for (size_t i = 1; i < row; i++) {
      if (got[r * row + i] > got[r * row + ag])
        ag = i;
      if (want[r * row + i] > want[r * row + aw])
        aw = i;
    }
    same += ag == aw;
  }
  printf("%s: %zu values, max |want| %.4g, max abs error %.3g (%.3g x max |want|); top-1 agrees in %zu of %zu rows\n",
         what, n, scale, max_abs, scale > 0 ? max_abs / scale : 0, same, rows);
  if (!(max_abs <= err_bound * scale))
    th_fail(__FILE__, __LINE__, "%s: max abs error %.3g is above %g x max |want|", what, max_abs, err_bound);
  if ((double)same < BF16_TOP1 * (double)rows)
    th_fail(__FILE__, __LINE__, "%s: top-1 agrees in only %zu of %zu rows", what, same, rows);
}

/* Runs every case of `model` (<model>.onnx) with aclmdlExecute, in
 * float32, or in the precision mode `precision` (OPENACL_PRECISION_MODE)
 * when not NULL, or its quantised copy <model>_int8.onnx (scripts/test.sh
 * writes it with scripts/models/quantize_qdq.py) when `int8`; the last two
 * at the reduced-precision tolerance. */
static void run_model_as(const char *model, const char *precision, int int8) {
  const char *dir = models_dir();
  if (dir == NULL)
    return;
  char qfile[160];
  snprintf(qfile, sizeof(qfile), "%s_int8.onnx", model);
  if (precision != NULL)
    setenv("OPENACL_PRECISION_MODE", precision, 1);
  static ref_case cases[MAX_CASES];
  size_t n = read_manifest(dir, cases);
  char file[160];
  snprintf(file, sizeof(file), "%s.onnx", model);
  setup();
  uint32_t id = 0;
  int found = 0;
  for (size_t i = 0; i < n; i++) {
    const ref_case *c = &cases[i];
    if (strcmp(c->model, file) != 0)
      continue;
    if (!found++) {
      id = load(dir, c, int8 ? qfile : NULL);
      check_desc(id, c);
    }
    size_t n_in = elements(c->in_dims, c->in_rank), n_out = elements(c->out_dims, c->out_rank);
    float *x = read_ref(dir, c, "input", n_in), *want = read_ref(dir, c, "output", n_out);
    run r;
    run_prepare(&r, c, x);
    uint64_t t0 = th_now_ns();
    int rc = aclmdlExecute(id, r.in, r.out);
    if (rc != ACL_SUCCESS)
      th_fail(__FILE__, __LINE__, "%s batch %ld: aclmdlExecute = %d: %s", model, c->batch, rc, aclGetRecentErrMsg());
    double secs = (double)(th_now_ns() - t0) / 1e9;
    float *got = run_result(&r, c);
    char what[200];
    snprintf(what, sizeof(what), "%s%s batch %ld%s%s (%.2fs)", model, int8 ? " int8" : "", c->batch,
             precision ? " in " : "", precision ? precision : "", secs);
    if (precision != NULL || int8)
      compare_reduced(what, got, want, n_out, (size_t)c->out_dims[c->out_rank - 1], int8 ? INT8_ERR : BF16_ERR);
    else
      compare(what, got, want, n_out);
    free(got);
    free(x);
    free(want);
    run_free(&r);
  }
  if (!found)
    th_fail(__FILE__, __LINE__,
            "%s/manifest.tsv has no case for %s: export it with "
            "scripts/models/export_models.py --refs --out %s",
            dir, file, dir);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

static void run_model(const char *model) { run_model_as(model, NULL, 0); }
static void run_model_in(const char *model, const char *precision) { run_model_as(model, precision, 0); }

TEST(resnet18) { run_model("resnet18"); }
TEST(resnet50) { run_model("resnet50"); }
TEST(mobilenet_v2) { run_model("mobilenet_v2"); }
TEST(efficientnet_b0) { run_model("efficientnet_b0"); }
TEST(shufflenet_v2_x1_0) { run_model("shufflenet_v2_x1_0"); }
TEST(tiny_transformer) { run_model("tiny_transformer"); }
TEST(densenet121) { run_model("densenet121"); }
TEST(convnext_tiny) { run_model("convnext_tiny"); }
TEST(mobilenet_v3_large) { run_model("mobilenet_v3_large"); }
TEST(regnet_y_400mf) { run_model("regnet_y_400mf"); }
TEST(resnext50_32x4d) { run_model("resnext50_32x4d"); }
/* BERT-base's layers at sequence length 128, two of them: input [batch,128,768] */
TEST(bert_base_l2) { run_model("bert_base_l2"); }

/* A precision mode on a CNN and a transformer: bfloat16 where the CPU has
 * it (else float32, which passes too). */
TEST(resnext50_32x4d_mixed) { run_model_in("resnext50_32x4d", "allow_mix_precision"); }
TEST(convnext_tiny_mixed) { run_model_in("convnext_tiny", "allow_mix_precision"); }
TEST(bert_base_l2_mixed) { run_model_in("bert_base_l2", "allow_mix_precision"); }

/* Quantised copies (QDQ, int8 convolutions) of a residual CNN and of one
 * with grouped convolutions, against PyTorch's float32 outputs.  (The
 * mobile networks' logits are nearly flat with random weights: quantising
 * them reorders the top classes, which says nothing about the engine.) */
TEST(resnet18_int8) { run_model_as("resnet18", NULL, 1); }
TEST(resnext50_32x4d_int8) { run_model_as("resnext50_32x4d", NULL, 1); }

/* Every model of the manifest has a test above: none is exported and then
 * silently not compared. */
TEST(manifest_known) {
  const char *dir = models_dir();
  if (dir == NULL)
    return;
  static ref_case cases[MAX_CASES];
  size_t n = read_manifest(dir, cases);
  CHECK(n > 0);
  for (size_t i = 0; i < n; i++) {
    int known = 0;
    for (size_t k = 0; k < sizeof(known_models) / sizeof(known_models[0]); k++) {
      char file[160];
      snprintf(file, sizeof(file), "%s.onnx", known_models[k]);
      known |= strcmp(cases[i].model, file) == 0;
    }
    if (!known)
      th_fail(__FILE__, __LINE__, "manifest.tsv lists %s, which has no TEST in tests/models/real_models.c",
              cases[i].model);
  }
}

/* The model and batch two_streams runs: the first batch-8 case of this
 * model, else the manifest's first batch-8 case. */
#define TWO_STREAMS_MODEL "resnet18.onnx"

TEST(two_streams) {
  const char *dir = models_dir();
  if (dir == NULL)
    return;
  static ref_case cases[MAX_CASES];
  size_t n = read_manifest(dir, cases);
  const ref_case *c = NULL;
  for (size_t i = 0; i < n; i++)
    if (cases[i].batch == 8 && (c == NULL || strcmp(cases[i].model, TWO_STREAMS_MODEL) == 0))
      c = &cases[i];
  if (c == NULL)
    th_fail(__FILE__, __LINE__, "%s/manifest.tsv has no batch-8 case: export with --batches 1,8", dir);

  size_t n_in = elements(c->in_dims, c->in_rank), n_out = elements(c->out_dims, c->out_rank);
  size_t img = n_in / (size_t)c->batch, cls = n_out / (size_t)c->batch;
  float *x = read_ref(dir, c, "input", n_in), *want = read_ref(dir, c, "output", n_out);
  /* the second execution gets the images in reverse order, so it expects the
   * outputs in reverse order too */
  float *x_rev = malloc(n_in * sizeof(float)), *want_rev = malloc(n_out * sizeof(float));
  CHECK_NOT_NULL(x_rev);
  CHECK_NOT_NULL(want_rev);
  for (long b = 0; b < c->batch; b++) {
    memcpy(x_rev + (size_t)b * img, x + (size_t)(c->batch - 1 - b) * img, img * sizeof(float));
    memcpy(want_rev + (size_t)b * cls, want + (size_t)(c->batch - 1 - b) * cls, cls * sizeof(float));
  }

  setup();
  uint32_t id = load(dir, c, NULL);
  aclrtStream s[2];
  run r[2];
  for (int k = 0; k < 2; k++) {
    CHECK_INT_EQ(aclrtCreateStream(&s[k]), ACL_SUCCESS);
    run_prepare(&r[k], c, k == 0 ? x : x_rev);
  }
  uint64_t t0 = th_now_ns();
  for (int k = 0; k < 2; k++)
    CHECK_INT_EQ(aclmdlExecuteAsync(id, r[k].in, r[k].out, s[k]), ACL_SUCCESS);
  for (int k = 0; k < 2; k++) {
    int rc = aclrtSynchronizeStream(s[k]);
    if (rc != ACL_SUCCESS)
      th_fail(__FILE__, __LINE__, "stream %d: aclrtSynchronizeStream = %d: %s", k, rc, aclGetRecentErrMsg());
  }
  double secs = (double)(th_now_ns() - t0) / 1e9;
  for (int k = 0; k < 2; k++) {
    float *got = run_result(&r[k], c);
    char what[200];
    snprintf(what, sizeof(what), "%s batch %ld, stream %d of 2%s (both %.2fs)", c->model, c->batch, k,
             k ? ", images reversed" : "", secs);
    compare(what, got, k ? want_rev : want, n_out);
    free(got);
    run_free(&r[k]);
    CHECK_INT_EQ(aclrtDestroyStream(s[k]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
  free(x);
  free(want);
  free(x_rev);
  free(want_rev);
}
