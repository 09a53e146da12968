/*
 * bench_graph.c - what replaying a captured task graph (aclmdlRI) saves.
 *
 *   bench_graph [RUNS] [TASKS]     (default 21 runs of 1000 tasks)
 *
 * The work: TASKS tiny device memsets (64 bytes each, aclrtMemsetAsync) on
 * one stream, then TASKS launches of the empty kernel of bench_runtime
 * (bench/kernels/empty_kernel.c, one block).  Eager: the host submits them one by one.  Replay: they were
 * captured once (aclmdlRICaptureBegin/End) and one aclmdlRIExecuteAsync
 * queues them all.  Rows: host time to submit, and end to end (submit +
 * aclrtSynchronizeStream); median and min over RUNS, and replay / eager.
 * Goal (issue 14): replay host time <= 1/3 of eager, end to end no worse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    aclError rc_ = (call);                                                                                             \
    if (rc_ != ACL_SUCCESS) {                                                                                          \
      fprintf(stderr, "bench_graph: %s failed: %d %s\n", #call, rc_, aclGetRecentErrMsg());                            \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

static aclrtFuncHandle g_func; /* NULL: memsets, else empty kernel launches */

static void submit_all(aclrtStream s, char *buf, int tasks) {
  for (int i = 0; i < tasks; i++) {
    if (g_func != NULL)
      CHECK(aclrtLaunchKernel(g_func, 1, NULL, 0, s));
    else
      CHECK(aclrtMemsetAsync(buf + (size_t)(i % 64) * 64, 64, i & 0xff, 64, s));
  }
}

static void measure(const char *what, aclrtStream s, char *buf, int runs, int tasks);

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 21;
  int tasks = argc > 2 ? atoi(argv[2]) : 1000;
  if (runs < 1 || tasks < 1) {
    fprintf(stderr, "usage: bench_graph [RUNS] [TASKS]\n");
    return 2;
  }
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtStream s = NULL;
  CHECK(aclrtCreateStream(&s));
  void *buf = NULL;
  CHECK(aclrtMalloc(&buf, 64 * 64, ACL_MEM_MALLOC_HUGE_FIRST));
  measure("tiny memsets", s, buf, runs, tasks);
  aclrtBinHandle bin = NULL;
  if (aclrtBinaryLoadFromFile(OPENACL_BENCH_EMPTY_KERNEL, NULL, &bin) == ACL_SUCCESS &&
      aclrtBinaryGetFunction(bin, "empty_kernel", &g_func) == ACL_SUCCESS) {
    printf("\n");
    measure("empty kernel launches", s, buf, runs, tasks);
    CHECK(aclrtBinaryUnLoad(bin));
  } else {
    printf("bench_graph: no empty kernel at %s, that case is left out\n", OPENACL_BENCH_EMPTY_KERNEL);
  }
  CHECK(aclrtFree(buf));
  CHECK(aclrtDestroyStream(s));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}

static void measure(const char *what, aclrtStream s, char *buf, int runs, int tasks) {
  aclmdlRI ri = NULL;
  CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  submit_all(s, buf, tasks);
  CHECK(aclmdlRICaptureEnd(s, &ri));

  uint64_t *eh = calloc((size_t)runs, 8), *ee = calloc((size_t)runs, 8);
  uint64_t *rh = calloc((size_t)runs, 8), *re = calloc((size_t)runs, 8);
  /* one warm-up of each, then alternate */
  submit_all(s, buf, tasks);
  CHECK(aclmdlRIExecuteAsync(ri, s));
  CHECK(aclrtSynchronizeStream(s));
  for (int r = 0; r < runs; r++) {
    uint64_t t0 = now_ns();
    submit_all(s, buf, tasks);
    uint64_t t1 = now_ns();
    CHECK(aclrtSynchronizeStream(s));
    uint64_t t2 = now_ns();
    eh[r] = t1 - t0;
    ee[r] = t2 - t0;
    t0 = now_ns();
    CHECK(aclmdlRIExecuteAsync(ri, s));
    t1 = now_ns();
    CHECK(aclrtSynchronizeStream(s));
    t2 = now_ns();
    rh[r] = t1 - t0;
    re[r] = t2 - t0;
  }
  qsort(eh, (size_t)runs, 8, cmp_u64);
  qsort(ee, (size_t)runs, 8, cmp_u64);
  qsort(rh, (size_t)runs, 8, cmp_u64);
  qsort(re, (size_t)runs, 8, cmp_u64);
  int m = runs / 2;
  printf("bench_graph: %d %s on one stream, %d runs (us)\n", tasks, what, runs);
  printf("%-26s %12s %12s %12s %12s %9s\n", "case", "eager med", "eager min", "replay med", "replay min", "ratio med");
  printf("%-26s %12.1f %12.1f %12.1f %12.1f %9.3f\n", "host time to submit", eh[m] / 1e3, eh[0] / 1e3, rh[m] / 1e3,
         rh[0] / 1e3, (double)rh[m] / (double)eh[m]);
  printf("%-26s %12.1f %12.1f %12.1f %12.1f %9.3f\n", "submit + synchronize", ee[m] / 1e3, ee[0] / 1e3, re[m] / 1e3,
         re[0] / 1e3, (double)re[m] / (double)ee[m]);
  CHECK(aclmdlRIDestroy(ri));
  free(eh);
  free(ee);
  free(rh);
  free(re);
}
