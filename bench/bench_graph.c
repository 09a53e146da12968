/*
 * bench_graph.c - what replaying a captured task graph (aclmdlRI) saves.
 *
 *   bench_graph [RUNS] [TASKS]     (default 21 runs of 1000 tasks)
 *
 * The work, each case TASKS tasks: tiny device memsets (64 bytes each,
 * aclrtMemsetAsync) on one stream; launches of the empty kernel of
 * bench_runtime (bench/kernels/empty_kernel.c, one block); aclnnAdd on 16
 * floats (two phases per call); and the memsets spread over four streams
 * that fork from the first through an event and join back (each stream a
 * quarter of them).  Eager: the host submits them one by one.  Replay:
 * they were captured once (aclmdlRICaptureBegin/End, the other streams
 * joining through the events) and one aclmdlRIExecuteAsync queues them
 * all.  Rows: host time to submit, and end to end (submit +
 * aclrtSynchronizeStream); median and min over RUNS, and replay / eager.
 * Goal (issue 14): replay host time <= 1/3 of eager, end to end no worse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

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

enum { MEMSETS, KERNELS, OPERATORS, FORK_JOIN };
static int g_case;
static aclrtFuncHandle g_func;                 /* the empty kernel */
static aclTensor *g_x, *g_y, *g_z;            /* aclnnAdd: z = x + 1 * y */
static aclScalar *g_alpha;
static aclrtStream g_side[3];                 /* FORK_JOIN: the other three streams */
static aclrtEvent g_fork, g_join[3];

static void add_once(aclrtStream s) {
  uint64_t ws = 0;
  aclOpExecutor *ex = NULL;
  CHECK(aclnnAddGetWorkspaceSize(g_x, g_y, g_alpha, g_z, &ws, &ex));
  CHECK(aclnnAdd(NULL, 0, ex, s));
}

static void submit_all(aclrtStream s, char *buf, int tasks) {
  if (g_case == FORK_JOIN) {
    CHECK(aclrtRecordEvent(g_fork, s));
    for (int k = 0; k < 3; k++)
      CHECK(aclrtStreamWaitEvent(g_side[k], g_fork));
  }
  for (int i = 0; i < tasks; i++) {
    switch (g_case) {
    case KERNELS:
      CHECK(aclrtLaunchKernel(g_func, 1, NULL, 0, s));
      break;
    case OPERATORS:
      add_once(s);
      break;
    case FORK_JOIN: {
      aclrtStream on = i % 4 == 0 ? s : g_side[i % 4 - 1];
      CHECK(aclrtMemsetAsync(buf + (size_t)(i % 64) * 64, 64, i & 0xff, 64, on));
      break;
    }
    default:
      CHECK(aclrtMemsetAsync(buf + (size_t)(i % 64) * 64, 64, i & 0xff, 64, s));
    }
  }
  if (g_case == FORK_JOIN)
    for (int k = 0; k < 3; k++) {
      CHECK(aclrtRecordEvent(g_join[k], g_side[k]));
      CHECK(aclrtStreamWaitEvent(s, g_join[k]));
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
  g_case = MEMSETS;
  measure("tiny memsets on one stream", s, buf, runs, tasks);
  aclrtBinHandle bin = NULL;
  if (aclrtBinaryLoadFromFile(OPENACL_BENCH_EMPTY_KERNEL, NULL, &bin) == ACL_SUCCESS &&
      aclrtBinaryGetFunction(bin, "empty_kernel", &g_func) == ACL_SUCCESS) {
    printf("\n");
    g_case = KERNELS;
    measure("empty kernel launches on one stream", s, buf, runs, tasks);
    CHECK(aclrtBinaryUnLoad(bin));
  } else {
    printf("bench_graph: no empty kernel at %s, that case is left out\n", OPENACL_BENCH_EMPTY_KERNEL);
  }

  /* aclnnAdd over 16 floats */
  int64_t n = 16, stride = 1;
  void *dx = NULL, *dy = NULL, *dz = NULL;
  CHECK(aclrtMalloc(&dx, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemset(dx, 64, 0, 64));
  CHECK(aclrtMemset(dy, 64, 0, 64));
  g_x = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, dx);
  g_y = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, dy);
  g_z = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, dz);
  float one = 1.0f;
  g_alpha = aclCreateScalar(&one, ACL_FLOAT);
  printf("\n");
  g_case = OPERATORS;
  measure("aclnnAdd (16 floats) on one stream", s, buf, runs, tasks);
  aclDestroyTensor(g_x);
  aclDestroyTensor(g_y);
  aclDestroyTensor(g_z);
  aclDestroyScalar(g_alpha);
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));

  /* four streams: fork and join through events */
  CHECK(aclrtCreateEvent(&g_fork));
  for (int k = 0; k < 3; k++) {
    CHECK(aclrtCreateStream(&g_side[k]));
    CHECK(aclrtCreateEvent(&g_join[k]));
  }
  printf("\n");
  g_case = FORK_JOIN;
  measure("tiny memsets over 4 streams (fork / join)", s, buf, runs, tasks);
  for (int k = 0; k < 3; k++) {
    CHECK(aclrtDestroyStream(g_side[k]));
    CHECK(aclrtDestroyEvent(g_join[k]));
  }
  CHECK(aclrtDestroyEvent(g_fork));
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
  printf("bench_graph: %d %s, %d runs (us)\n", tasks, what, runs);
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
