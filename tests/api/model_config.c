/*
 * model_config.c - loading a model from a configuration handle and the
 * precision modes (tests api/model_config/...), through the public API only:
 * aclmdlCreateConfigHandle / SetConfigOpt / LoadWithConfig /
 * DestroyConfigHandle with every load type openacl runs (file, memory, each
 * with the caller's memory), the codes and messages of wrong attributes,
 * sizes, values and handles, and a model run in float32 and in a reduced
 * precision mode (OPENACL_MDL_PRECISION_MODE_PTR, OPENACL_PRECISION_MODE):
 * within bfloat16's tolerance of the reference, and, on a CPU with bfloat16
 * units, not bit-identical to float32 (it did run in bfloat16).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "onnx.pb-c.h"
#include "openacl/openacl.h"

/* MatMul of two graph inputs [3,4] x [4,3] with random-normal data: every
 * input has mantissa bits bfloat16 drops. */
#define CASE "/usr/share/libonnx-testdata/data/node/test_matmul_2d"

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static int installed(void) {
  if (access(CASE "/model.onnx", R_OK) == 0)
    return 1;
  printf("SKIP: %s not installed (libonnx-testdata)\n", CASE);
  return 0;
}

/* The whole file, malloc'd. */
static uint8_t *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  CHECK_NOT_NULL(f);
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  *size = fread(buf, 1, (size_t)n, f);
  fclose(f);
  CHECK_INT_EQ((long)*size, n);
  return buf;
}

/* The n float elements of a TensorProto file. */
static void read_pb(const char *path, float *out, size_t n_want) {
  size_t n = 0;
  uint8_t *buf = read_file(path, &n);
  Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, n, buf);
  free(buf);
  CHECK_NOT_NULL(tp);
  if (tp == NULL)
    return;
  if (tp->has_raw_data) {
    CHECK_INT_EQ(tp->raw_data.len, n_want * sizeof(float));
    if (tp->raw_data.len == n_want * sizeof(float))
      memcpy(out, tp->raw_data.data, n_want * sizeof(float));
  } else {
    CHECK_INT_EQ(tp->n_float_data, n_want);
    if (tp->n_float_data == n_want)
      memcpy(out, tp->float_data, n_want * sizeof(float));
  }
  onnx__tensor_proto__free_unpacked(tp, NULL);
}

/* Runs model id on the case's inputs; out[9] receives its output. */
static void run(uint32_t id, float out[9]) {
  float a[12], b[12];
  read_pb(CASE "/test_data_set_0/input_0.pb", a, 12);
  read_pb(CASE "/test_data_set_0/input_1.pb", b, 12);
  void *dev[3] = {NULL, NULL, NULL};
  size_t size[3] = {sizeof(a), sizeof(b), 9 * sizeof(float)};
  aclmdlDataset *in = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
  aclDataBuffer *buf[3];
  for (int k = 0; k < 3; k++) {
    CHECK_INT_EQ(aclrtMalloc(&dev[k], size[k], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    buf[k] = aclCreateDataBuffer(dev[k], size[k]);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(k < 2 ? in : outs, buf[k]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtMemcpy(dev[0], size[0], a, size[0], ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(dev[1], size[1], b, size[1], ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(id, in, outs), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(out, size[2], dev[2], size[2], ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int k = 0; k < 3; k++) {
    aclDestroyDataBuffer(buf[k]);
    aclrtFree(dev[k]);
  }
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(outs);
}

static void expected(float want[9]) { read_pb(CASE "/test_data_set_0/output_0.pb", want, 9); }

/* Largest |got - want| relative to the largest |want|. */
static double rel_error(const float *got, const float *want, int n) {
  double worst = 0, scale = 1e-30;
  for (int i = 0; i < n; i++) {
    worst = fmax(worst, fabs((double)got[i] - want[i]));
    scale = fmax(scale, fabs((double)want[i]));
  }
  return worst / scale;
}

static uint32_t load_file_config(const char *precision) {
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
  CHECK_NOT_NULL(h);
  size_t type = ACL_MDL_LOAD_FROM_FILE;
  const char *path = CASE "/model.onnx";
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &path, sizeof(path)), ACL_SUCCESS);
  if (precision != NULL)
    CHECK_INT_EQ(aclmdlSetConfigOpt(h, OPENACL_MDL_PRECISION_MODE_PTR, &precision, sizeof(precision)), ACL_SUCCESS);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadWithConfig(h, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyConfigHandle(h), ACL_SUCCESS);
  return id;
}

/* bfloat16 units faster than float32 ones, as docs/models.md says: AMX-BF16
 * (7.0 EDX bit 22), or AVX512-BF16 (CPUID 7.1 EAX bit 5) on a CPU whose
 * vendor is not "GenuineIntel". */
static int cpu_bf16(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
  if (a < 7)
    return 0;
  int intel = b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
  int amx = (d >> 22) & 1, f = (b >> 16) & 1;
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(1));
  return amx || (f && ((a >> 5) & 1) && !intel);
#else
  return 0;
#endif
}

/* ---- loading ----------------------------------------------------------------- */

TEST(load_from_file_runs) {
  if (!installed())
    return;
  setup();
  uint32_t id = load_file_config(NULL);
  float got[9], want[9];
  run(id, got);
  expected(want);
  CHECK(rel_error(got, want, 9) < 1e-5);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  teardown();
}

TEST(load_from_mem_with_mem) {
  if (!installed())
    return;
  setup();
  size_t n = 0;
  uint8_t *bytes = read_file(CASE "/model.onnx", &n);
  size_t work = 0, weight = 0;
  CHECK_INT_EQ(aclmdlQuerySizeFromMem(bytes, n, &work, &weight), ACL_SUCCESS);
  void *work_ptr = NULL;
  CHECK_INT_EQ(aclrtMalloc(&work_ptr, work ? work : 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
  size_t type = ACL_MDL_LOAD_FROM_MEM_WITH_MEM, ws = work ? work : 1;
  const void *p = bytes;
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_MEM_ADDR_PTR, &p, sizeof(p)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_MEM_SIZET, &n, sizeof(n)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_ADDR_PTR, &work_ptr, sizeof(work_ptr)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_WORKSPACE_SIZET, &ws, sizeof(ws)), ACL_SUCCESS);
  int32_t prio = 1;
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_PRIORITY_INT32, &prio, sizeof(prio)), ACL_SUCCESS);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadWithConfig(h, &id), ACL_SUCCESS);
  free(bytes); /* the model was read at load */
  float got[9], want[9];
  run(id, got);
  expected(want);
  CHECK(rel_error(got, want, 9) < 1e-5);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyConfigHandle(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(work_ptr), ACL_SUCCESS);
  teardown();
}

/* ---- bad handles, attributes and values ------------------------------------------ */

static void expect_msg(aclError got, aclError want, const char *needle) {
  CHECK_INT_EQ(got, want);
  const char *msg = aclGetRecentErrMsg();
  if (msg == NULL || strstr(msg, needle) == NULL)
    printf("message \"%s\" lacks \"%s\"\n", msg ? msg : "(null)", needle);
  CHECK(msg != NULL && strstr(msg, needle) != NULL);
}

TEST(bad_options) {
  setup();
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
  size_t type = ACL_MDL_LOAD_FROM_FILE, bad_type = 7;
  int32_t i32 = 0;
  const char *name = "fastest", *null_str = NULL;
  expect_msg(aclmdlSetConfigOpt(NULL, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_ERROR_INVALID_PARAM,
             "handle is NULL");
  expect_msg(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, NULL, sizeof(type)), ACL_ERROR_INVALID_PARAM,
             "attrValue is NULL");
  expect_msg(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &i32, sizeof(i32)), ACL_ERROR_INVALID_PARAM,
             "takes a size_t");
  expect_msg(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &bad_type, sizeof(bad_type)), ACL_ERROR_INVALID_PARAM,
             "ACL_MDL_LOAD_TYPE_SIZET is 7");
  expect_msg(aclmdlSetConfigOpt(h, (aclmdlConfigAttr)1000, &type, sizeof(type)), ACL_ERROR_INVALID_PARAM,
             "not an aclmdlConfigAttr");
  expect_msg(aclmdlSetConfigOpt(h, OPENACL_MDL_PRECISION_MODE_PTR, &name, sizeof(name)), ACL_ERROR_INVALID_PARAM,
             "'fastest' is not a precision mode");
  expect_msg(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &null_str, sizeof(null_str)), ACL_ERROR_INVALID_PARAM,
             "model path is NULL");
  uint32_t id = 0;
  expect_msg(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "no load type");
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  expect_msg(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_PATH_PTR is not set");
  type = ACL_MDL_LOAD_FROM_MEM;
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  expect_msg(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "ACL_MDL_MEM_ADDR_PTR is not set");
  type = ACL_MDL_LOAD_FROM_FILE_WITH_Q;
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  expect_msg(aclmdlLoadWithConfig(h, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "queues");
  const char *missing = "/nonexistent/model.onnx";
  type = ACL_MDL_LOAD_FROM_FILE;
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type)), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &missing, sizeof(missing)), ACL_SUCCESS);
  CHECK_INT_NE(aclmdlLoadWithConfig(h, &id), ACL_SUCCESS);
  CHECK(strstr(aclGetRecentErrMsg(), "/nonexistent/model.onnx") != NULL);
  CHECK_INT_EQ(aclmdlDestroyConfigHandle(h), ACL_SUCCESS);
  /* destroyed: refused, not touched */
  expect_msg(aclmdlDestroyConfigHandle(h), ACL_ERROR_INVALID_PARAM, "not a live aclmdlConfigHandle");
  expect_msg(aclmdlLoadWithConfig(h, &id), ACL_ERROR_INVALID_PARAM, "not a live aclmdlConfigHandle");
  /* another kind of handle */
  aclmdlDesc *desc = aclmdlCreateDesc();
  expect_msg(aclmdlLoadWithConfig((const aclmdlConfigHandle *)desc, &id), ACL_ERROR_INVALID_PARAM,
             "model description");
  CHECK_INT_EQ(aclmdlDestroyDesc(desc), ACL_SUCCESS);
  teardown();
}

TEST(load_needs_init) {
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle(); /* plain host data: no aclInit needed */
  CHECK_NOT_NULL(h);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadWithConfig(h, &id), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlDestroyConfigHandle(h), ACL_SUCCESS);
}

/* ---- precision modes --------------------------------------------------------------- */

/* float32 modes are exact to float32 rounding; a reduced one stays within
 * bfloat16's (8 bits of mantissa per operand: about 1 % on a 4-term dot
 * product of normal data) and, where the CPU has bfloat16 units, differs
 * from float32 in some bit. */
TEST(precision_by_config) {
  if (!installed())
    return;
  setup();
  float want[9], f32[9], keep[9], low[9];
  expected(want);
  uint32_t a = load_file_config(NULL), b = load_file_config("must_keep_origin_dtype"),
           c = load_file_config("allow_mix_precision");
  run(a, f32);
  run(b, keep);
  run(c, low);
  CHECK(rel_error(f32, want, 9) < 1e-5);
  CHECK(memcmp(f32, keep, sizeof(f32)) == 0);
  double e = rel_error(low, want, 9);
  printf("bfloat16 units: %s; reduced-precision relative error %.2e\n", cpu_bf16() ? "yes" : "no", e);
  CHECK(e < 3e-2);
  if (cpu_bf16())
    CHECK(memcmp(f32, low, sizeof(f32)) != 0);
  else
    CHECK(memcmp(f32, low, sizeof(f32)) == 0); /* falls back to float32 */
  CHECK_INT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(c), ACL_SUCCESS);
  teardown();
}

/* OPENACL_PRECISION_MODE applies to every load; the handle's option wins. */
TEST(precision_by_environment) {
  if (!installed())
    return;
  setenv("OPENACL_PRECISION_MODE", "force_fp16", 1);
  setup();
  float f32[9], env[9], want[9];
  expected(want);
  uint32_t a = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(CASE "/model.onnx", &a), ACL_SUCCESS);
  uint32_t b = load_file_config("force_fp32");
  run(a, env);
  run(b, f32);
  CHECK(rel_error(f32, want, 9) < 1e-5);
  CHECK(rel_error(env, want, 9) < 3e-2);
  if (cpu_bf16())
    CHECK(memcmp(f32, env, sizeof(f32)) != 0);
  CHECK_INT_EQ(aclmdlUnload(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(b), ACL_SUCCESS);
  teardown();
  unsetenv("OPENACL_PRECISION_MODE");
}

/* A name aclInit does not know: a warning, and float32. */
TEST(precision_environment_typo) {
  setenv("OPENACL_PRECISION_MODE", "allow_mixed_precision", 1);
  setup();
  char buf[2048];
  size_t need = 0;
  CHECK_INT_EQ(openaclGetInitWarnings(buf, sizeof(buf), &need), ACL_SUCCESS);
  CHECK(strstr(buf, "OPENACL_PRECISION_MODE") != NULL && strstr(buf, "allow_mixed_precision") != NULL);
  teardown();
  unsetenv("OPENACL_PRECISION_MODE");
}
