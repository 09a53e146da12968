/*
 * bench_model.c - openacl's side of the model benchmark (bench/models/run.sh):
 * loads one ONNX model through the public API, runs it with aclmdlExecute on
 * device buffers at a given batch size and prints one JSON line with the load
 * time, the first execution, the median, 99th-percentile and minimum latency and the peak RSS.
 * The peers (peer_torch.py, peer_cv2.py) print the same line for PyTorch and
 * OpenCV DNN, so the driver can put the three side by side.
 *
 *   bench_model MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--profile DIR]
 *               [--min-time MS]
 *
 * The run: one execution timed as first_ms (it pays for anything done lazily),
 * WARMUP more untimed, then ITERATIONS timed ones, and more until the timed
 * ones took MS milliseconds in all (--min-time; 0 by default), so that a fast
 * model gets enough samples for its 99th percentile to be one.  --threads N sets
 * OPENACL_EXECUTOR_THREADS before aclInit: the engine takes the device's
 * executor threads as its thread budget.  --dump writes output 0 of the last
 * execution as raw float32 for the driver's cross-check of the three sides.
 * --profile DIR profiles the warm-up and the timed executions (aclprofInit
 * DIR; ACL_API | TASK_TIME | RUNTIME_API, operators included) and writes
 * the profile after the timing, to measure what profiling costs.
 * The input is the same deterministic pattern every side uses (input_value).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define MAX_IO 8

static const char *prog = "bench_model";

/* Input element i: every side computes it the same way, exactly, in float
 * (integers below 2^24 and one correctly rounded division). */
static float input_value(size_t i) { return (float)(int)(i * 7919u % 2001u) / 1000.0f - 1.0f; }

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static long peak_rss_kib(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* User + system CPU time of the whole process so far: over the timed loop,
 * divided by its wall time, it says how many cores the side kept busy. */
static double cpu_ms(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return 0;
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Reports a failed ACL call with its code and the recorded message; returns 1 for the exit status. */
static int acl_failed(const char *call, aclError rc) {
  const char *msg = aclGetRecentErrMsg();
  fprintf(stderr, "%s: %s failed with %d: %s\n", prog, call, (int)rc, msg != NULL && *msg ? msg : "(no message)");
  return 1;
}

static int parse_count(const char *s, const char *what, long min, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > 1000000) {
    fprintf(stderr, "%s: %s must be an integer from %ld to 1000000, got '%s'\n", prog, what, min, s);
    return -1;
  }
  *out = v;
  return 0;
}

static void usage(void) {
  fprintf(stderr, "usage: %s MODEL.onnx BATCH ITERATIONS WARMUP [--threads N] [--dump FILE] [--profile DIR] "
          "[--min-time MS]\n",
          prog);
}

/* One model input or output: its shape at this batch size and its device buffer. */
typedef struct io_tensor {
  aclmdlIODims dims;
  size_t bytes;
  void *dev;
  aclDataBuffer *buf;
} io_tensor;

/* Replaces a symbolic (-1) leading dimension with the batch size; any other
 * unknown dimension is an error, since the benchmark cannot guess it. */
static int resolve_dims(aclmdlIODims *d, long batch, const char *kind, size_t index, size_t *bytes) {
  if (d->dimCount == 0) {
    fprintf(stderr, "%s: %s %zu (\"%s\") has no declared shape; export the model with its output shape\n", prog, kind,
            index, d->name);
    return -1;
  }
  size_t n = 1;
  for (size_t k = 0; k < d->dimCount; k++) {
    if (d->dims[k] < 0 && k == 0)
      d->dims[k] = batch;
    if (d->dims[k] < 0) {
      fprintf(stderr, "%s: %s %zu (\"%s\") dimension %zu is dynamic; only the batch axis (0) may be\n", prog, kind,
              index, d->name, k);
      return -1;
    }
    n *= (size_t)d->dims[k];
  }
  *bytes = n * sizeof(float);
  return 0;
}

int main(int argc, char **argv) {
  const char *model = NULL, *dump = NULL, *profile = NULL;
  long batch = 0, iters = 0, warmup = 0, threads = 0, min_time = 0;
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      if (parse_count(argv[++i], "--threads", 1, &threads) != 0)
        return 2;
    } else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
      dump = argv[++i];
    } else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
      profile = argv[++i];
    } else if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc) {
      if (parse_count(argv[++i], "--min-time", 0, &min_time) != 0)
        return 2;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0' && !(argv[i][1] >= '0' && argv[i][1] <= '9')) {
      fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[i]);
      usage();
      return 2;
    } else {
      int bad = 0;
      switch (npos++) {
      case 0:
        model = argv[i];
        break;
      case 1:
        bad = parse_count(argv[i], "BATCH", 1, &batch);
        break;
      case 2:
        bad = parse_count(argv[i], "ITERATIONS", 1, &iters);
        break;
      case 3:
        bad = parse_count(argv[i], "WARMUP", 0, &warmup);
        break;
      default:
        bad = -1;
        fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[i]);
        break;
      }
      if (bad != 0) {
        usage();
        return 2;
      }
    }
  }
  if (npos != 4) {
    usage();
    return 2;
  }
  if (threads > 0) {
    char v[24];
    snprintf(v, sizeof(v), "%ld", threads);
    setenv("OPENACL_EXECUTOR_THREADS", v, 1); /* read by aclInit */
  }

  int status = 1;
  aclError rc;
  aclrtContext ctx = NULL;
  aclmdlDesc *desc = NULL;
  aclmdlDataset *in = NULL, *out = NULL;
  uint32_t id = 0;
  int device_set = 0, loaded = 0, prof_on = 0; /* prof_on: 1 initialised, 2 started */
  aclprofConfig *pcfg = NULL;
  io_tensor ins[MAX_IO], outs[MAX_IO];
  size_t n_in = 0, n_out = 0;
  double *lat = NULL;
  float *host = NULL;
  memset(ins, 0, sizeof(ins));
  memset(outs, 0, sizeof(outs));

  if ((rc = aclInit(NULL)) != ACL_SUCCESS)
    return acl_failed("aclInit", rc);
  if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) {
    acl_failed("aclrtSetDevice(0)", rc);
    goto cleanup;
  }
  device_set = 1;
  if ((rc = aclrtCreateContext(&ctx, 0)) != ACL_SUCCESS) {
    acl_failed("aclrtCreateContext", rc);
    goto cleanup;
  }
  int64_t dev_threads = -1;
  if ((rc = aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &dev_threads)) != ACL_SUCCESS) {
    acl_failed("aclrtGetDeviceInfo(AICORE_CORE_NUM)", rc);
    goto cleanup;
  }

  long base_rss = peak_rss_kib();
  double t0 = now_ms();
  if ((rc = aclmdlLoadFromFile(model, &id)) != ACL_SUCCESS) {
    acl_failed("aclmdlLoadFromFile", rc);
    goto cleanup;
  }
  double load_ms = now_ms() - t0;
  loaded = 1;

  desc = aclmdlCreateDesc();
  if (desc == NULL || (rc = aclmdlGetDesc(desc, id)) != ACL_SUCCESS) {
    acl_failed("aclmdlGetDesc", desc == NULL ? ACL_ERROR_BAD_ALLOC : rc);
    goto cleanup;
  }
  n_in = aclmdlGetNumInputs(desc);
  n_out = aclmdlGetNumOutputs(desc);
  if (n_in == 0 || n_in > MAX_IO || n_out == 0 || n_out > MAX_IO) {
    fprintf(stderr, "%s: the model has %zu inputs and %zu outputs; this benchmark takes 1 to %d of each\n", prog, n_in,
            n_out, MAX_IO);
    n_in = n_out = 0;
    goto cleanup;
  }
  in = aclmdlCreateDataset();
  out = aclmdlCreateDataset();
  if (in == NULL || out == NULL) {
    acl_failed("aclmdlCreateDataset", ACL_ERROR_BAD_ALLOC);
    goto cleanup;
  }
  for (size_t i = 0; i < n_in + n_out; i++) {
    int is_in = i < n_in;
    size_t k = is_in ? i : i - n_in;
    io_tensor *t = is_in ? &ins[k] : &outs[k];
    rc = is_in ? aclmdlGetInputDims(desc, k, &t->dims) : aclmdlGetOutputDims(desc, k, &t->dims);
    if (rc != ACL_SUCCESS) {
      acl_failed(is_in ? "aclmdlGetInputDims" : "aclmdlGetOutputDims", rc);
      goto cleanup;
    }
    aclDataType dt = is_in ? aclmdlGetInputDataType(desc, k) : aclmdlGetOutputDataType(desc, k);
    if (dt != ACL_FLOAT) {
      fprintf(stderr, "%s: %s %zu (\"%s\") has data type %d; this benchmark feeds float32 only\n", prog,
              is_in ? "input" : "output", k, t->dims.name, (int)dt);
      goto cleanup;
    }
    if (resolve_dims(&t->dims, batch, is_in ? "input" : "output", k, &t->bytes) != 0)
      goto cleanup;
    if ((rc = aclrtMalloc(&t->dev, t->bytes, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) {
      acl_failed("aclrtMalloc", rc);
      goto cleanup;
    }
    t->buf = aclCreateDataBuffer(t->dev, t->bytes);
    if (t->buf == NULL || (rc = aclmdlAddDatasetBuffer(is_in ? in : out, t->buf)) != ACL_SUCCESS) {
      acl_failed("aclmdlAddDatasetBuffer", t->buf == NULL ? ACL_ERROR_BAD_ALLOC : rc);
      goto cleanup;
    }
    if (!is_in)
      continue;
    /* The actual shape of the symbolic batch axis goes in a tensor descriptor. */
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, (int)t->dims.dimCount, t->dims.dims, ACL_FORMAT_NCHW);
    rc = td == NULL ? ACL_ERROR_BAD_ALLOC : aclmdlSetDatasetTensorDesc(in, td, k);
    aclDestroyTensorDesc(td);
    if (rc != ACL_SUCCESS) {
      acl_failed("aclmdlSetDatasetTensorDesc", rc);
      goto cleanup;
    }
    host = malloc(t->bytes);
    if (host == NULL) {
      fprintf(stderr, "%s: out of host memory for %zu input bytes\n", prog, t->bytes);
      goto cleanup;
    }
    for (size_t e = 0; e < t->bytes / sizeof(float); e++)
      host[e] = input_value(e);
    rc = aclrtMemcpy(t->dev, t->bytes, host, t->bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    free(host);
    host = NULL;
    if (rc != ACL_SUCCESS) {
      acl_failed("aclrtMemcpy (input)", rc);
      goto cleanup;
    }
  }

  t0 = now_ms();
  if ((rc = aclmdlExecute(id, in, out)) != ACL_SUCCESS) {
    acl_failed("aclmdlExecute", rc);
    goto cleanup;
  }
  double first_ms = now_ms() - t0;
  if (profile != NULL) {
    uint32_t dev0 = 0;
    if ((rc = aclprofInit(profile, strlen(profile))) != ACL_SUCCESS) {
      acl_failed("aclprofInit", rc);
      goto cleanup;
    }
    prof_on = 1;
    pcfg = aclprofCreateConfig(&dev0, 1, ACL_AICORE_NONE, NULL,
                               ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API);
    if (pcfg == NULL || (rc = aclprofStart(pcfg)) != ACL_SUCCESS) {
      acl_failed("aclprofCreateConfig / aclprofStart", pcfg == NULL ? ACL_ERROR_INVALID_PARAM : rc);
      goto cleanup;
    }
    prof_on = 2;
  }
  for (long w = 0; w < warmup; w++) {
    if ((rc = aclmdlExecute(id, in, out)) != ACL_SUCCESS) {
      acl_failed("aclmdlExecute (warm-up)", rc);
      goto cleanup;
    }
  }
  long cap = iters;
  lat = malloc((size_t)cap * sizeof(double));
  if (lat == NULL) {
    fprintf(stderr, "%s: out of host memory for %ld latencies\n", prog, iters);
    goto cleanup;
  }
  double cpu0 = cpu_ms(), wall0 = now_ms();
  long n = 0;
  while (n < iters || now_ms() - wall0 < (double)min_time) {
    if (n == cap) {
      double *more = realloc(lat, (size_t)(cap *= 2) * sizeof(double));
      if (more == NULL) {
        fprintf(stderr, "%s: out of host memory for %ld latencies\n", prog, cap);
        goto cleanup;
      }
      lat = more;
    }
    t0 = now_ms();
    rc = aclmdlExecute(id, in, out);
    lat[n++] = now_ms() - t0;
    if (rc != ACL_SUCCESS) {
      acl_failed("aclmdlExecute", rc);
      goto cleanup;
    }
  }
  iters = n;
  double cores_busy = (cpu_ms() - cpu0) / (now_ms() - wall0);
  qsort(lat, (size_t)iters, sizeof(double), cmp_double);
  double median = iters % 2 ? lat[iters / 2] : (lat[iters / 2 - 1] + lat[iters / 2]) / 2;
  /* the 99th percentile, nearest rank: with fewer than 100 iterations, the slowest */
  long r99 = (long)((99 * iters + 99) / 100) - 1;
  double p99 = lat[r99 < 0 ? 0 : r99 >= iters ? iters - 1 : r99];

  if (dump != NULL) {
    host = malloc(outs[0].bytes);
    FILE *f = host != NULL ? fopen(dump, "wb") : NULL;
    rc = f != NULL ? aclrtMemcpy(host, outs[0].bytes, outs[0].dev, outs[0].bytes, ACL_MEMCPY_DEVICE_TO_HOST) : 0;
    int ok = f != NULL && rc == ACL_SUCCESS && fwrite(host, 1, outs[0].bytes, f) == outs[0].bytes;
    if (f != NULL && fclose(f) != 0)
      ok = 0;
    if (!ok) {
      fprintf(stderr, "%s: cannot write output 0 to '%s' (%s, acl code %d)\n", prog, dump, strerror(errno), (int)rc);
      goto cleanup;
    }
  }

  printf("{\"side\": \"openacl\", \"model\": \"%s\", \"batch\": %ld, \"threads\": %lld, \"load_ms\": %.3f, "
         "\"first_ms\": %.3f, \"median_ms\": %.3f, \"p99_ms\": %.3f, \"min_ms\": %.3f, \"iters\": %ld, "
         "\"warmup\": %ld, \"cores_busy\": %.2f, \"base_rss_kib\": %ld, \"peak_rss_kib\": %ld}\n",
         model, batch, (long long)dev_threads, load_ms, first_ms, median, p99, lat[0], iters, warmup, cores_busy,
         base_rss, peak_rss_kib());
  fflush(stdout);
  status = 0;

cleanup:
  if (prof_on == 2 && (rc = aclprofStop(pcfg)) != ACL_SUCCESS)
    status = acl_failed("aclprofStop", rc);
  if (pcfg != NULL)
    aclprofDestroyConfig(pcfg);
  if (prof_on && (rc = aclprofFinalize()) != ACL_SUCCESS)
    status = acl_failed("aclprofFinalize", rc);
  free(lat);
  free(host);
  /* The datasets first: they refer to the buffers. */
  if (in != NULL)
    aclmdlDestroyDataset(in);
  if (out != NULL)
    aclmdlDestroyDataset(out);
  for (size_t i = 0; i < MAX_IO; i++) {
    io_tensor *ts[2] = {&ins[i], &outs[i]};
    for (int j = 0; j < 2; j++) {
      if (ts[j]->buf != NULL)
        aclDestroyDataBuffer(ts[j]->buf);
      if (ts[j]->dev != NULL)
        aclrtFree(ts[j]->dev);
    }
  }
  if (desc != NULL)
    aclmdlDestroyDesc(desc);
  if (loaded && (rc = aclmdlUnload(id)) != ACL_SUCCESS)
    status = acl_failed("aclmdlUnload", rc);
  if (ctx != NULL && (rc = aclrtDestroyContext(ctx)) != ACL_SUCCESS)
    status = acl_failed("aclrtDestroyContext", rc);
  if (device_set && (rc = aclrtResetDevice(0)) != ACL_SUCCESS)
    status = acl_failed("aclrtResetDevice", rc);
  if ((rc = aclFinalize()) != ACL_SUCCESS)
    status = acl_failed("aclFinalize", rc);
  return status;
}
