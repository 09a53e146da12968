/*
 * call_overhead.c - the C side of the Python binding benchmark (run.sh): the
 * calls that bench/python/run.py makes through `import acl` and
 * openacl.Session, made directly against the library, so that the difference
 * is what the binding adds.
 *
 *   bench_call_overhead micro TINY_MODEL [--iters N] [--batches B]
 *       aclrtGetDevice; a 4-byte aclrtMemcpy host to device and device to
 *       host, from pinned host memory (aclrtMallocHost) and pageable
 *       (malloc); host to device from 8 pageable buffers in turn, each on its
 *       own page; aclmdlExecute on TINY_MODEL (one node, input and output
 *       [1,4] float32; run.py make-tiny writes it); and a whole run of it as
 *       openacl.Session.run makes one (copy in, execute, copy out).  Each
 *       case: a warm-up of N/10 calls, then B batches of N calls (N/20 for
 *       the model cases), each batch timed as a whole; one JSON line per case
 *       with ns/call, the median and the minimum of the batches.
 *   bench_call_overhead resnet MODEL [--iters N] [--warmup W]
 *       The end-to-end loop at batch 1 (the model's first dimension is
 *       symbolic and gets 1 through a tensor descriptor): copy the input to
 *       the device, aclmdlExecute, copy the output back; one unmeasured first
 *       execution, W untimed, then N timed iterations.  One JSON line: the
 *       median, minimum and mean of the per-iteration latencies in ms, of
 *       aclmdlExecute alone (compute), the median time of the two copies,
 *       and a checksum of the output.
 *
 * The pinned host buffers come from aclrtMallocHost, as acl.rt.malloc_host
 * gives them to run.py; run.py's pageable ones are numpy arrays' data.  The
 * device set-up is aclInit, aclrtSetDevice(0), aclrtCreateContext, as a
 * pyACL script does.  The executor threads come from
 * OPENACL_EXECUTOR_THREADS, which run.sh sets for both sides.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define PROG "bench_call_overhead"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    aclError rc_ = (call);                                                                                             \
    if (rc_ != ACL_SUCCESS) {                                                                                          \
      fprintf(stderr, PROG ": %s failed: %d %s\n", #call, (int)rc_, aclGetRecentErrMsg());                             \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

static void usage(void) {
  fprintf(stderr, "usage: " PROG " micro TINY_MODEL [--iters N] [--batches B]\n"
                  "       " PROG " resnet MODEL [--iters N] [--warmup W]\n");
  exit(2);
}

static void setup(void) {
  aclrtContext ctx;
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtCreateContext(&ctx, 0));
}

/* A loaded model with one input and one output, buffers and datasets. */
typedef struct model {
  uint32_t id;
  void *din, *dout;  /* device buffers */
  size_t in_size, out_size;
  aclmdlDataset *in, *out;
} model;

/* Loads path; a symbolic first input dimension gets `batch`. */
static void model_load(model *m, const char *path, int64_t batch) {
  CHECK(aclmdlLoadFromFile(path, &m->id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, m->id));
  if (aclmdlGetNumInputs(desc) != 1 || aclmdlGetNumOutputs(desc) != 1) {
    fprintf(stderr, PROG ": %s: want one input and one output\n", path);
    exit(1);
  }
  aclmdlIODims d;
  CHECK(aclmdlGetInputDims(desc, 0, &d));
  m->in_size = aclDataTypeSize(aclmdlGetInputDataType(desc, 0));
  for (size_t k = 0; k < d.dimCount; k++) {
    if (d.dims[k] < 0)
      d.dims[k] = batch;
    m->in_size *= (size_t)d.dims[k];
  }
  m->in = aclmdlCreateDataset();
  m->out = aclmdlCreateDataset();
  CHECK(aclrtMalloc(&m->din, m->in_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclmdlAddDatasetBuffer(m->in, aclCreateDataBuffer(m->din, m->in_size)));
  if (aclmdlGetInputSizeByIndex(desc, 0) == 0) { /* symbolic: say the shape */
    aclTensorDesc *td =
        aclCreateTensorDesc(aclmdlGetInputDataType(desc, 0), (int)d.dimCount, d.dims, aclmdlGetInputFormat(desc, 0));
    CHECK(aclmdlSetDatasetTensorDesc(m->in, td, 0));
    aclDestroyTensorDesc(td);
  }
  CHECK(aclmdlGetOutputDims(desc, 0, &d));
  m->out_size = aclDataTypeSize(aclmdlGetOutputDataType(desc, 0));
  for (size_t k = 0; k < d.dimCount; k++)
    m->out_size *= (size_t)(d.dims[k] < 0 ? batch : d.dims[k]);
  CHECK(aclrtMalloc(&m->dout, m->out_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclmdlAddDatasetBuffer(m->out, aclCreateDataBuffer(m->dout, m->out_size)));
  aclmdlDestroyDesc(desc);
}

/* ---- micro: single calls ------------------------------------------------ */

/* What every case's loop needs; the loops are written out, one per case, so
 * that each is the plain loop a C program would write. */
typedef struct micro {
  void *host, *dev; /* 4 bytes each; host from aclrtMallocHost */
  void *pageable;   /* 4 bytes from malloc */
  char *rot;        /* 8 pageable 4-byte buffers, each on its own page, used in turn */
  float *x, *y;     /* the one-node model's input and output in pageable host memory */
  model tiny;
} micro;

static aclError loop_get_device(micro *m, long n) {
  (void)m;
  aclError err = ACL_SUCCESS;
  int32_t dev;
  for (long i = 0; i < n; i++)
    err |= aclrtGetDevice(&dev);
  return err;
}

static aclError loop_memcpy_h2d(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclrtMemcpy(m->dev, 4, m->host, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  return err;
}

static aclError loop_memcpy_d2h(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclrtMemcpy(m->host, 4, m->dev, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  return err;
}

static aclError loop_memcpy_h2d_pageable(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclrtMemcpy(m->dev, 4, m->pageable, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  return err;
}

static aclError loop_memcpy_d2h_pageable(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclrtMemcpy(m->pageable, 4, m->dev, 4, ACL_MEMCPY_DEVICE_TO_HOST);
  return err;
}

static aclError loop_execute(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclmdlExecute(m->tiny.id, m->tiny.in, m->tiny.out);
  return err;
}

/* Host to device from 8 host buffers in turn, each on its own page: the
 * binding checks host pages it has not seen recently, and remembers only a
 * few (its worst case; a script that copies from fresh buffers). */
static aclError loop_memcpy_h2d_rotating(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++)
    err |= aclrtMemcpy(m->dev, 4, m->rot + (i & 7) * 4096, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  return err;
}

/* A whole run of the one-node model, as openacl.Session.run does it: copy
 * the input in, execute, copy the output out (pageable host memory). */
static aclError loop_run_tiny(micro *m, long n) {
  aclError err = ACL_SUCCESS;
  for (long i = 0; i < n; i++) {
    err |= aclrtMemcpy(m->tiny.din, 16, m->x, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    err |= aclmdlExecute(m->tiny.id, m->tiny.in, m->tiny.out);
    err |= aclrtMemcpy(m->y, 16, m->tiny.dout, 16, ACL_MEMCPY_DEVICE_TO_HOST);
  }
  return err;
}

typedef struct micro_case {
  const char *name;
  aclError (*loop)(micro *, long);
  long scale; /* divides --iters: execute is ~100x slower than the others */
} micro_case;

static const micro_case micro_cases[] = {
    {"get_device", loop_get_device, 1},
    {"memcpy_h2d_4", loop_memcpy_h2d, 1},
    {"memcpy_d2h_4", loop_memcpy_d2h, 1},
    {"memcpy_h2d_4_pageable", loop_memcpy_h2d_pageable, 1},
    {"memcpy_d2h_4_pageable", loop_memcpy_d2h_pageable, 1},
    {"memcpy_h2d_4_rotating", loop_memcpy_h2d_rotating, 1},
    {"execute_tiny", loop_execute, 20},
    {"run_tiny", loop_run_tiny, 20},
};

static int run_micro(const char *tiny, long iters, long batches) {
  micro m;
  setup();
  CHECK(aclrtMallocHost(&m.host, 4));
  CHECK(aclrtMalloc(&m.dev, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  memset(m.host, 0, 4);
  m.pageable = calloc(1, 4);
  m.rot = calloc(8, 4096);
  m.x = calloc(4, sizeof(float));
  m.y = calloc(4, sizeof(float));
  model_load(&m.tiny, tiny, 1);
  if (m.tiny.in_size != 16 || m.tiny.out_size != 16) {
    fprintf(stderr, PROG ": %s: want a [1,4] float32 input and output\n", tiny);
    return 1;
  }
  CHECK(aclrtMemcpy(m.tiny.din, 16, m.x, 16, ACL_MEMCPY_HOST_TO_DEVICE)); /* zeros */
  double *ns = malloc((size_t)batches * sizeof *ns);
  for (size_t c = 0; c < sizeof micro_cases / sizeof micro_cases[0]; c++) {
    const micro_case *mc = &micro_cases[c];
    long n = iters / mc->scale > 0 ? iters / mc->scale : 1;
    CHECK(mc->loop(&m, n / 10 + 1)); /* warm-up */
    for (long b = 0; b < batches; b++) {
      uint64_t t0 = now_ns();
      aclError err = mc->loop(&m, n);
      ns[b] = (double)(now_ns() - t0) / (double)n;
      CHECK(err);
    }
    double lo = ns[0];
    for (long b = 1; b < batches; b++)
      lo = ns[b] < lo ? ns[b] : lo;
    printf("{\"side\": \"c\", \"case\": \"%s\", \"iters\": %ld, \"batches\": %ld, \"ns_median\": %.2f, "
           "\"ns_min\": %.2f}\n",
           mc->name, n, batches, median(ns, (size_t)batches), lo);
    fflush(stdout);
  }
  free(ns);
  CHECK(aclmdlUnload(m.tiny.id));
  return 0;
}

/* ---- resnet: the end-to-end loop ---------------------------------------- */

static int run_resnet(const char *path, long iters, long warmup) {
  model m;
  setup();
  model_load(&m, path, 1);
  float *hin, *hout;
  CHECK(aclrtMallocHost((void **)&hin, m.in_size));
  CHECK(aclrtMallocHost((void **)&hout, m.out_size));
  /* The input of bench/models: element i is (i * 7919 mod 2001) / 1000 - 1. */
  for (size_t i = 0; i < m.in_size / sizeof(float); i++)
    hin[i] = (float)((double)((i * 7919u) % 2001u) / 1000.0 - 1.0);
  double *e2e = malloc((size_t)iters * sizeof *e2e), *compute = malloc((size_t)iters * sizeof *compute);
  double *outside = malloc((size_t)iters * sizeof *outside); /* the copies: e2e - compute, in us */
  for (long r = -1 - warmup; r < iters; r++) {
    uint64_t t0 = now_ns();
    CHECK(aclrtMemcpy(m.din, m.in_size, hin, m.in_size, ACL_MEMCPY_HOST_TO_DEVICE));
    uint64_t t1 = now_ns();
    CHECK(aclmdlExecute(m.id, m.in, m.out));
    uint64_t t2 = now_ns();
    CHECK(aclrtMemcpy(hout, m.out_size, m.dout, m.out_size, ACL_MEMCPY_DEVICE_TO_HOST));
    uint64_t t3 = now_ns();
    if (r >= 0) {
      e2e[r] = (double)(t3 - t0) / 1e6;
      compute[r] = (double)(t2 - t1) / 1e6;
      outside[r] = (double)((t3 - t0) - (t2 - t1)) / 1e3;
    }
  }
  double se = 0, sc = 0, le = e2e[0], lc = compute[0];
  for (long r = 0; r < iters; r++) {
    se += e2e[r], sc += compute[r];
    le = e2e[r] < le ? e2e[r] : le;
    lc = compute[r] < lc ? compute[r] : lc;
  }
  /* A checksum of the output, so that the sides can be seen to compute the same. */
  double sum = 0;
  for (size_t i = 0; i < m.out_size / sizeof(float); i++)
    sum += hout[i];
  printf("{\"side\": \"c\", \"case\": \"resnet18\", \"iters\": %ld, \"ms_median\": %.4f, \"ms_min\": %.4f, "
         "\"ms_mean\": %.4f, \"compute_ms_median\": %.4f, \"compute_ms_min\": %.4f, \"compute_ms_mean\": %.4f, "
         "\"outside_us_median\": %.2f, \"out_sum\": %.6g}\n",
         iters, median(e2e, (size_t)iters), le, se / (double)iters, median(compute, (size_t)iters), lc,
         sc / (double)iters, median(outside, (size_t)iters), sum);
  CHECK(aclmdlUnload(m.id));
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3)
    usage();
  int is_micro = strcmp(argv[1], "micro") == 0;
  if (!is_micro && strcmp(argv[1], "resnet") != 0)
    usage();
  long iters = is_micro ? 100000 : 30, batches = 7, warmup = 3;
  for (int i = 3; i < argc; i += 2) { /* --option value pairs */
    if (i + 1 >= argc)
      usage();
    char *end;
    long v = strtol(argv[i + 1], &end, 10);
    if (*end || v < (strcmp(argv[i], "--warmup") == 0 ? 0 : 1))
      usage();
    if (strcmp(argv[i], "--iters") == 0)
      iters = v;
    else if (strcmp(argv[i], "--batches") == 0 && is_micro)
      batches = v;
    else if (strcmp(argv[i], "--warmup") == 0 && !is_micro)
      warmup = v;
    else
      usage();
  }
  int rc = is_micro ? run_micro(argv[2], iters, batches) : run_resnet(argv[2], iters, warmup);
  aclFinalize();
  return rc;
}
