/*
 * bench_tool_loop.c - the peer of `openacl infer --loop N` in the tool
 * overhead benchmark (run.sh): the same model, zero-filled inputs, the same
 * N executions written as the plain C loop a user would write against the
 * library.  Each iteration copies the inputs to the device, executes and
 * copies the outputs back (reading the actual size of an output the model
 * leaves open from the output dataset, as any caller must); the loop times
 * the whole iteration (end-to-end)
 * and aclmdlExecute alone (compute), after one unmeasured first execution
 * as the tool does.  Prints one JSON line with the mean and median of each.
 * A symbolic first dimension gets BATCH (default 1) through a tensor
 * descriptor, as `openacl infer --dym-batch BATCH` does.
 *
 *   bench_tool_loop MODEL [N [BATCH]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    aclError rc_ = (call);                                                                                             \
    if (rc_ != ACL_SUCCESS) {                                                                                          \
      fprintf(stderr, "bench_tool_loop: %s failed: %d %s\n", #call, (int)rc_, aclGetRecentErrMsg());                   \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_tool_loop MODEL [N]\n");
    return 2;
  }
  const long n = argc > 2 ? atol(argv[2]) : 1000;
  const int64_t batch = argc > 3 ? atol(argv[3]) : 1;
  uint32_t id;
  aclrtContext ctx;
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtCreateContext(&ctx, 0));
  CHECK(aclmdlLoadFromFile(argv[1], &id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, id));
  size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc);
  void **hin = calloc(n_in, sizeof(void *)), **din = calloc(n_in, sizeof(void *));
  void **hout = calloc(n_out, sizeof(void *)), **dout = calloc(n_out, sizeof(void *));
  size_t *sin = calloc(n_in, sizeof(size_t)), *sout = calloc(n_out, sizeof(size_t));
  int *dyn_out = calloc(n_out, sizeof(int));
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  for (size_t i = 0; i < n_in; i++) {
    aclmdlIODims d;
    CHECK(aclmdlGetInputDims(desc, i, &d));
    sin[i] = aclDataTypeSize(aclmdlGetInputDataType(desc, i));
    for (size_t k = 0; k < d.dimCount; k++) {
      if (d.dims[k] < 0 && k > 0) {
        fprintf(stderr, "bench_tool_loop: input %zu has a symbolic dimension %zu; only the first may be\n", i, k);
        return 1;
      }
      if (d.dims[k] < 0)
        d.dims[k] = batch;
      sin[i] *= (size_t)d.dims[k];
    }
    /* written, as real input data would be: calloc'd pages never written
     * all map the kernel's one zero page, which reads faster than memory */
    hin[i] = malloc(sin[i]);
    memset(hin[i], 0, sin[i]);
    CHECK(aclrtMalloc(&din[i], sin[i], ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(din[i], sin[i])));
    if (aclmdlGetInputSizeByIndex(desc, i) == 0) {
      aclTensorDesc *td =
          aclCreateTensorDesc(aclmdlGetInputDataType(desc, i), (int)d.dimCount, d.dims, aclmdlGetInputFormat(desc, i));
      CHECK(aclmdlSetDatasetTensorDesc(in, td, i));
      aclDestroyTensorDesc(td);
    }
  }
  for (size_t i = 0; i < n_out; i++) {
    aclmdlIODims d;
    CHECK(aclmdlGetOutputDims(desc, i, &d));
    dyn_out[i] = aclmdlGetOutputSizeByIndex(desc, i) == 0;
    sout[i] = aclDataTypeSize(aclmdlGetOutputDataType(desc, i));
    for (size_t k = 0; k < d.dimCount; k++)
      sout[i] *= (size_t)(d.dims[k] < 0 ? batch : d.dims[k]);
    if (d.dimCount == 0 || sout[i] == 0) {
      fprintf(stderr, "bench_tool_loop: output %zu has no declared shape\n", i);
      return 1;
    }
    hout[i] = malloc(sout[i]);
    CHECK(aclrtMalloc(&dout[i], sout[i], ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(dout[i], sout[i])));
  }
  double *e2e = malloc((size_t)n * sizeof(double)), *compute = malloc((size_t)n * sizeof(double));
  for (long r = -1; r < n; r++) {
    double t0 = now_ms();
    for (size_t i = 0; i < n_in; i++)
      CHECK(aclrtMemcpy(din[i], sin[i], hin[i], sin[i], ACL_MEMCPY_HOST_TO_DEVICE));
    double t1 = now_ms();
    CHECK(aclmdlExecute(id, in, out));
    double t2 = now_ms();
    for (size_t i = 0; i < n_out; i++) {
      /* an output the model leaves open: its actual size is in the dataset */
      size_t bytes = sout[i];
      const aclTensorDesc *td = dyn_out[i] ? aclmdlGetDatasetTensorDesc(out, i) : NULL;
      if (td != NULL)
        bytes = aclGetTensorDescSize(td);
      CHECK(aclrtMemcpy(hout[i], sout[i], dout[i], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    double t3 = now_ms();
    if (r >= 0) { /* r = -1: the first execution, not measured (nor by the tool) */
      e2e[r] = t3 - t0;
      compute[r] = t2 - t1;
    }
  }
  double se = 0, sc = 0;
  for (long r = 0; r < n; r++) {
    se += e2e[r];
    sc += compute[r];
  }
  qsort(e2e, (size_t)n, sizeof(double), cmp);
  qsort(compute, (size_t)n, sizeof(double), cmp);
  printf("{\"runs\": %ld, \"end_to_end\": {\"mean_ms\": %.6f, \"p50_ms\": %.6f}, \"compute\": {\"mean_ms\": %.6f, "
         "\"p50_ms\": %.6f}}\n",
         n, se / (double)n, e2e[n / 2], sc / (double)n, compute[n / 2]);
  aclmdlUnload(id);
  aclFinalize();
  return 0;
}
