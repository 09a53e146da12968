/*
 * model_exec.c - executing models (tests api/model_exec/...), through the
 * public API only: libonnx-testdata models run with their reference inputs
 * (test_data_set_0/input_*.pb), synchronously and asynchronously on two
 * streams, and their outputs are compared with output_*.pb (rtol 1e-3);
 * every argument mismatch (buffer counts, sizes, host memory, empty output
 * buffers, model ids, contexts) is refused before anything runs; an
 * asynchronous execution is ordered with a copy on the same stream; an
 * unsupported operator fails at load.  Models that are not installed are
 * skipped.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "onnx.pb-c.h"

#define TESTDATA "/usr/share/libonnx-testdata/data"
#define MAXIO 4

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* The float elements of a TensorProto file (raw_data or float_data), malloc'd; NULL when absent. */
static float *read_pb(const char *path, size_t *bytes) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  size_t got = buf != NULL ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  Onnx__TensorProto *tp = buf != NULL && (long)got == n ? onnx__tensor_proto__unpack(NULL, got, buf) : NULL;
  free(buf);
  CHECK_NOT_NULL(tp);
  if (tp == NULL)
    return NULL;
  CHECK_INT_EQ(tp->data_type, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
  float *out = NULL;
  if (tp->has_raw_data) {
    *bytes = tp->raw_data.len;
    out = malloc(*bytes ? *bytes : 1);
    memcpy(out, tp->raw_data.data, *bytes);
  } else {
    *bytes = tp->n_float_data * sizeof(float);
    out = malloc(*bytes ? *bytes : 1);
    memcpy(out, tp->float_data, *bytes);
  }
  onnx__tensor_proto__free_unpacked(tp, NULL);
  return out;
}

/* One model with its reference data, in device buffers. */
typedef struct run_case {
  uint32_t id;
  size_t n_in, n_out;
  void *in_dev[MAXIO], *out_dev[MAXIO];
  size_t in_size[MAXIO], out_size[MAXIO];
  float *expect[MAXIO];
  aclDataBuffer *in_buf[MAXIO], *out_buf[MAXIO];
  aclmdlDataset *in, *out;
} run_case;

/* 0 when the model is installed and prepared; -1 when skipped. */
static int prepare(const char *model, run_case *c) {
  memset(c, 0, sizeof(*c));
  char path[512];
  snprintf(path, sizeof(path), TESTDATA "/%s/model.onnx", model);
  if (access(path, R_OK) != 0) {
    printf("SKIP: %s not installed (libonnx-testdata)\n", path);
    return -1;
  }
  CHECK_INT_EQ(aclmdlLoadFromFile(path, &c->id), ACL_SUCCESS);
  c->in = aclmdlCreateDataset();
  c->out = aclmdlCreateDataset();
  for (int o = 0; o < 2; o++) {
    for (size_t i = 0; i < MAXIO; i++) {
      snprintf(path, sizeof(path), TESTDATA "/%s/test_data_set_0/%s_%zu.pb", model, o ? "output" : "input", i);
      if (access(path, R_OK) != 0)
        break;
      size_t bytes = 0;
      float *host = read_pb(path, &bytes);
      void *dev = NULL;
      CHECK_INT_EQ(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      aclDataBuffer *b = aclCreateDataBuffer(dev, bytes);
      if (o == 0) {
        CHECK_INT_EQ(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        free(host);
        c->in_dev[i] = dev, c->in_size[i] = bytes, c->in_buf[i] = b, c->n_in = i + 1;
        CHECK_INT_EQ(aclmdlAddDatasetBuffer(c->in, b), ACL_SUCCESS);
      } else {
        CHECK_INT_EQ(aclrtMemset(dev, bytes, 0xff, bytes), ACL_SUCCESS);
        c->out_dev[i] = dev, c->out_size[i] = bytes, c->out_buf[i] = b, c->expect[i] = host, c->n_out = i + 1;
        CHECK_INT_EQ(aclmdlAddDatasetBuffer(c->out, b), ACL_SUCCESS);
      }
    }
  }
  return 0;
}

static void compare(const char *what, const float *got, const float *want, size_t bytes) {
  size_t bad = 0;
  for (size_t k = 0; k < bytes / sizeof(float); k++)
    if (!(fabs((double)got[k] - want[k]) <= 1e-7 + 1e-3 * fabs((double)want[k]))) {
      if (bad++ == 0)
        printf("%s: element %zu is %g, expected %g\n", what, k, got[k], want[k]);
    }
  CHECK_INT_EQ(bad, 0);
}

/* Reads the outputs back (synchronously) and compares them. */
static void check_outputs(const char *model, const run_case *c) {
  for (size_t i = 0; i < c->n_out; i++) {
    float *got = malloc(c->out_size[i] ? c->out_size[i] : 1);
    CHECK_INT_EQ(aclrtMemcpy(got, c->out_size[i], c->out_dev[i], c->out_size[i], ACL_MEMCPY_DEVICE_TO_HOST),
                 ACL_SUCCESS);
    compare(model, got, c->expect[i], c->out_size[i]);
    free(got);
  }
}

static void release(run_case *c, int unload) {
  if (unload)
    CHECK_INT_EQ(aclmdlUnload(c->id), ACL_SUCCESS);
  for (size_t i = 0; i < c->n_in; i++) {
    aclDestroyDataBuffer(c->in_buf[i]);
    aclrtFree(c->in_dev[i]);
  }
  for (size_t i = 0; i < c->n_out; i++) {
    aclDestroyDataBuffer(c->out_buf[i]);
    aclrtFree(c->out_dev[i]);
    free(c->expect[i]);
  }
  aclmdlDestroyDataset(c->in);
  aclmdlDestroyDataset(c->out);
}

static const char *const models[] = {"node/test_relu", "node/test_add", "node/test_conv_with_strides_padding",
                                     "pytorch-converted/test_Conv2d"};

TEST(testdata_sync) {
  setup();
  for (size_t k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
    run_case c;
    if (prepare(models[k], &c) != 0)
      continue;
    CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_SUCCESS);
    check_outputs(models[k], &c);
    /* a second run on the same buffers gives the same result */
    CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_SUCCESS);
    check_outputs(models[k], &c);
    /* static shapes: no output descriptor is added */
    CHECK_NULL(aclmdlGetDatasetTensorDesc(c.out, 0));
    release(&c, 1);
  }
  teardown();
}

/* An asynchronous execution captured into a task graph runs at each
 * replay, on the same buffers. */
TEST(captured_in_a_graph) {
  setup();
  run_case c;
  if (prepare("node/test_conv_with_strides_padding", &c) != 0) {
    teardown();
    return;
  }
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecuteAsync(c.id, c.in, c.out, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC); /* synchronous */
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecuteAsync(c.id, c.in, c.out, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  for (int round = 0; round < 3; round++) {
    CHECK_INT_EQ(aclrtMemset(c.out_dev[0], c.out_size[0], 0xff, c.out_size[0]), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    check_outputs("captured conv", &c);
  }
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  release(&c, 1);
  teardown();
}

/* Two models on two streams; each execution is followed by a copy of its
 * output on the same stream, which must see the execution's result. */
TEST(testdata_async_two_streams) {
  setup();
  run_case c[2];
  if (prepare("node/test_relu", &c[0]) != 0) {
    teardown();
    return;
  }
  if (prepare("node/test_conv_with_strides_padding", &c[1]) != 0) {
    release(&c[0], 1);
    teardown();
    return;
  }
  aclrtStream s[2];
  void *host[2];
  for (int k = 0; k < 2; k++) {
    CHECK_INT_EQ(aclrtCreateStream(&s[k]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMallocHost(&host[k], c[k].out_size[0]), ACL_SUCCESS);
    memset(host[k], 0, c[k].out_size[0]);
  }
  for (int round = 0; round < 3; round++) {
    for (int k = 0; k < 2; k++) {
      CHECK_INT_EQ(aclrtMemsetAsync(c[k].out_dev[0], c[k].out_size[0], 0, c[k].out_size[0], s[k]), ACL_SUCCESS);
      CHECK_INT_EQ(aclmdlExecuteAsync(c[k].id, c[k].in, c[k].out, s[k]), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtMemcpyAsync(host[k], c[k].out_size[0], c[k].out_dev[0], c[k].out_size[0],
                                    ACL_MEMCPY_DEVICE_TO_HOST, s[k]),
                   ACL_SUCCESS);
    }
    for (int k = 0; k < 2; k++) {
      CHECK_INT_EQ(aclrtSynchronizeStream(s[k]), ACL_SUCCESS);
      compare("async", host[k], c[k].expect[0], c[k].out_size[0]);
      memset(host[k], 0, c[k].out_size[0]);
    }
  }
  /* the default stream (NULL) */
  CHECK_INT_EQ(aclmdlExecuteAsync(c[0].id, c[0].in, c[0].out, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  check_outputs("default stream", &c[0]);
  /* unloading right after queueing: the queued execution keeps the model alive */
  CHECK_INT_EQ(aclmdlExecuteAsync(c[1].id, c[1].in, c[1].out, s[1]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(c[1].id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s[1]), ACL_SUCCESS);
  check_outputs("unloaded while queued", &c[1]);
  for (int k = 0; k < 2; k++) {
    CHECK_INT_EQ(aclrtDestroyStream(s[k]), ACL_SUCCESS);
    aclrtFreeHost(host[k]);
  }
  release(&c[0], 1);
  release(&c[1], 0);
  teardown();
}

/* Executions from several threads at once, synchronous and asynchronous:
 * they all hand their oneDNN work to the engine's one thread (engine.c), which
 * runs them one after another; each must still get its own result. */
typedef struct exec_thread {
  run_case *c;
  aclrtContext ctx;
  int async;
  int bad;          /* failed calls or wrong outputs, checked by the main thread */
} exec_thread;

static int outputs_match(const run_case *c) {
  int ok = 1;
  for (size_t i = 0; i < c->n_out; i++) {
    float *got = malloc(c->out_size[i] ? c->out_size[i] : 1);
    if (got == NULL ||
        aclrtMemcpy(got, c->out_size[i], c->out_dev[i], c->out_size[i], ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
      ok = 0;
    for (size_t k = 0; ok && k < c->out_size[i] / sizeof(float); k++)
      if (!(fabs((double)got[k] - c->expect[i][k]) <= 1e-7 + 1e-3 * fabs((double)c->expect[i][k])))
        ok = 0;
    free(got);
  }
  return ok;
}

static void *exec_thread_main(void *arg) {
  exec_thread *t = arg;
  aclrtStream s = NULL;
  if (aclrtSetCurrentContext(t->ctx) != ACL_SUCCESS || (t->async && aclrtCreateStream(&s) != ACL_SUCCESS)) {
    t->bad++;
    return NULL;
  }
  for (int k = 0; k < 20; k++) {
    int rc = t->async ? aclmdlExecuteAsync(t->c->id, t->c->in, t->c->out, s)
                      : aclmdlExecute(t->c->id, t->c->in, t->c->out);
    if (rc == ACL_SUCCESS && t->async)
      rc = aclrtSynchronizeStream(s);
    if (rc != ACL_SUCCESS || !outputs_match(t->c))
      t->bad++;
  }
  if (s != NULL && aclrtDestroyStream(s) != ACL_SUCCESS)
    t->bad++;
  return NULL;
}

TEST(threads_share_the_engine_thread) {
  setup();
  enum { N = 4 };
  run_case c[N];
  int n = 0;
  while (n < N && prepare("node/test_conv_with_strides_padding", &c[n]) == 0)
    n++;
  if (n == N) {
    aclrtContext ctx = NULL;
    CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
    exec_thread t[N];
    pthread_t th[N];
    for (int k = 0; k < N; k++) {
      t[k] = (exec_thread){.c = &c[k], .ctx = ctx, .async = k % 2};
      CHECK_INT_EQ(pthread_create(&th[k], NULL, exec_thread_main, &t[k]), 0);
    }
    for (int k = 0; k < N; k++) {
      pthread_join(th[k], NULL);
      CHECK_INT_EQ(t[k].bad, 0);
    }
  }
  for (int k = 0; k < n; k++)
    release(&c[k], 1);
  teardown();
}

/* A forked child has no engine thread: its first execution makes its own. */
TEST(fork_child_executes) {
  if (TH_SANITIZED) {
    /* sanitizers own malloc and cannot fork safely while other threads run (TSan refuses new threads after) */
    printf("skipped under a sanitizer\n");
    return;
  }
  setup();
  run_case c;
  if (prepare("node/test_relu", &c) != 0) {
    teardown();
    return;
  }
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_SUCCESS); /* the parent's engine thread exists now */
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    alarm(30); /* a hang (a lost wake-up of the engine's thread) ends the child with SIGALRM */
    /* the child initialises again (docs/design.md, "Exit and fork") */
    int ok = aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS;
    run_case cc;
    ok = ok && prepare("node/test_relu", &cc) == 0;
    ok = ok && aclmdlExecute(cc.id, cc.in, cc.out) == ACL_SUCCESS && outputs_match(&cc);
    _exit(ok ? 0 : 1);
  }
  CHECK(pid > 0);
  int status = -1;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  if (!WIFEXITED(status))
    th_fail(__FILE__, __LINE__, "child died with signal %d (a hang?)", WTERMSIG(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  release(&c, 1);
  teardown();
}

TEST(mismatches) {
  setup();
  run_case c;
  if (prepare("node/test_relu", &c) != 0) {
    teardown();
    return;
  }
  aclmdlDataset *empty = aclmdlCreateDataset();
  /* counts */
  CHECK_INT_EQ(aclmdlExecute(c.id, empty, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "holds 0 buffers");
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, empty), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "has 1 outputs");
  aclmdlDataset *two = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(two, c.in_buf[0]);
  aclmdlAddDatasetBuffer(two, c.in_buf[0]);
  CHECK_INT_EQ(aclmdlExecuteAsync(c.id, two, c.out, NULL), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  /* NULL and dead datasets */
  CHECK_INT_EQ(aclmdlExecute(c.id, NULL, c.out), ACL_ERROR_INVALID_PARAM);
  aclmdlDataset *dead = aclmdlCreateDataset();
  aclmdlDestroyDataset(dead);
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, dead), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not a live aclmdlDataset");
  /* a buffer destroyed while its dataset still lists it */
  aclDataBuffer *gone = aclCreateDataBuffer(c.in_dev[0], c.in_size[0]);
  aclmdlDataset *stale = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(stale, gone);
  aclDestroyDataBuffer(gone);
  CHECK_INT_EQ(aclmdlExecute(c.id, stale, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "an input dataset buffer");
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, stale), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "an output dataset buffer");
  aclmdlDestroyDataset(stale);
  /* sizes */
  aclDataBuffer *small = aclCreateDataBuffer(c.in_dev[0], c.in_size[0] - 4);
  aclmdlDataset *ds = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(ds, small);
  CHECK_INT_EQ(aclmdlExecute(c.id, ds, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "input 0 (\"x\", float [3,4,5]) needs a buffer of 240 bytes, but the "
                                      "dataset's buffer holds 236 bytes");
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, ds), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "output 0 (\"y\"");
  /* host memory */
  float *hostbuf = calloc(60, sizeof(float));
  aclDataBuffer *hb = aclCreateDataBuffer(hostbuf, 240);
  aclmdlDataset *hds = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(hds, hb);
  CHECK_INT_EQ(aclmdlExecute(c.id, hds, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "input 0 (\"x\") must be device memory from aclrtMalloc");
  CHECK_INT_EQ(aclmdlExecuteAsync(c.id, c.in, hds, NULL), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "output 0 (\"y\") must be device memory");
  /* a device buffer too short for its declared size: runs past its allocation */
  void *shortdev = NULL;
  CHECK_INT_EQ(aclrtMalloc(&shortdev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclDataBuffer *sb = aclCreateDataBuffer(shortdev, 240);
  aclmdlDataset *sds = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(sds, sb);
  CHECK_INT_EQ(aclmdlExecute(c.id, sds, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "past the end of its allocation");
  /* an empty output buffer (NULL, 0) is refused */
  aclDataBuffer *eb = aclCreateDataBuffer(NULL, 0);
  aclmdlDataset *eds = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(eds, eb);
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, eds), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "empty buffer (NULL, 0)");
  /* a tensor descriptor that contradicts the model */
  int64_t wrong[3] = {3, 4, 6};
  aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 3, wrong, ACL_FORMAT_ND);
  aclmdlDataset *tds = aclmdlCreateDataset();
  aclmdlAddDatasetBuffer(tds, c.in_buf[0]);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(tds, td, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(c.id, tds, c.out), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "does not fit");
  aclDestroyTensorDesc(td);
  /* model ids */
  CHECK_INT_EQ(aclmdlExecute(999999, c.in, c.out), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(aclmdlExecuteAsync(0, c.in, c.out, NULL), ACL_ERROR_INVALID_MODEL_ID);
  /* another context */
  aclrtContext mine = NULL, other = NULL;
  CHECK_INT_EQ(aclrtGetCurrentContext(&mine), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateContext(&other, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_ERROR_RT_MODEL_CONTEXT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "was loaded in context");
  CHECK_INT_EQ(aclmdlExecuteAsync(c.id, c.in, c.out, NULL), ACL_ERROR_RT_MODEL_CONTEXT);
  CHECK_INT_EQ(aclrtSetCurrentContext(mine), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(other), ACL_SUCCESS);
  /* nothing ran: the output still holds the fill pattern, and a valid run works */
  CHECK_INT_EQ(aclmdlExecute(c.id, c.in, c.out), ACL_SUCCESS);
  check_outputs("after the mismatches", &c);
  uint32_t id = c.id;
  release(&c, 1);
  CHECK_INT_EQ(aclmdlExecute(id, empty, empty), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "was unloaded");
  aclDestroyDataBuffer(small);
  aclDestroyDataBuffer(hb);
  aclDestroyDataBuffer(sb);
  aclDestroyDataBuffer(eb);
  aclrtFree(shortdev);
  free(hostbuf);
  aclmdlDestroyDataset(empty);
  aclmdlDestroyDataset(two);
  aclmdlDestroyDataset(ds);
  aclmdlDestroyDataset(hds);
  aclmdlDestroyDataset(sds);
  aclmdlDestroyDataset(eds);
  aclmdlDestroyDataset(tds);
  teardown();
}

TEST(before_init) {
  CHECK_INT_EQ(aclmdlExecute(1, NULL, NULL), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlExecuteAsync(1, NULL, NULL, NULL), ACL_ERROR_UNINITIALIZE);
}

TEST(unsupported_operator_fails_at_load) {
  const char *path = TESTDATA "/node/test_tfidfvectorizer_tf_only_bigrams_skip0/model.onnx";
  if (access(path, R_OK) != 0) {
    printf("SKIP: %s not installed (libonnx-testdata)\n", path);
    return;
  }
  setup();
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(path, &id), ACL_ERROR_PARSE_MODEL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "unsupported operator: TfIdfVectorizer (opset 9)");
  teardown();
}
