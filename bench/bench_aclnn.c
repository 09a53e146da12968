/*
 * bench_aclnn.c - what an aclnn operator call costs the host, next to the
 * same work launched as a kernel, and what the element-wise engine moves.
 *
 *   bench_aclnn [--runs N] [--kernel PATH]
 *
 *   (a) 10,000 x (aclnnAddGetWorkspaceSize + aclnnAdd) of 16 floats, then
 *       one aclrtSynchronizeStream; per call.  Peer: 10,000 x
 *       aclrtLaunchKernelWithHostArgs (arguments copied per launch, as
 *       aclnnAdd copies its plan) of examples/kernels/vadd_kernel.c
 *       on the same device memory, then one synchronise; per launch.
 *   (b) one call + aclrtSynchronizeStream (a round trip); the same for the
 *       kernel launch.
 *   (c) phase 1 alone (aclnnAddGetWorkspaceSize + aclDestroyAclOpExecutor).
 *   (d) the 16-float add itself: a plain C loop on the host (the kernel's
 *       share of (a) and (b)).
 *   (e) bandwidth of a 4 Mi-float (16 MiB) float32 add, bytes read and
 *       written per second: aclnnAdd (block-parallel on the executors) and a
 *       plain C loop on one thread.
 *
 * Every case runs a warm-up, then N runs (default 11); the table gives the
 * median and the minimum over the runs and the ratio of medians openacl /
 * peer.  The goal for the host overhead: (a) minus (d) at most 2 us.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#ifndef OPENACL_BENCH_VADD_KERNEL
#define OPENACL_BENCH_VADD_KERNEL ""
#endif

#define MAX_RUNS 101
#define CALLS 10000
#define ROUND_TRIPS 2000
#define SMALL 16
#define BIG (4 << 20)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof v[0], cmp_double);
  return v[n / 2];
}

static double minimum(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] < m ? v[i] : m;
  return m;
}

#define TRY(call)                                                                                                      \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    if (rc_ != 0) {                                                                                                    \
      fprintf(stderr, "bench_aclnn: %s failed: %d (%s)\n", #call, rc_, aclGetRecentErrMsg());                          \
      exit(1);                                                                                                         \
    }                                                                                                                  \
  } while (0)

typedef struct env {
  aclrtStream st;
  aclTensor *x, *y, *z, *bx, *by, *bz;
  aclScalar *one;
  void *dx, *dy, *dz, *bdx, *bdy, *bdz;
  aclrtBinHandle bin;
  aclrtFuncHandle func;
  struct {
    const float *x, *y;
    float *z;
    uint64_t n;
  } args;
} env;

static aclTensor *tensor(void **dev, int64_t n) {
  TRY(aclrtMalloc(dev, (size_t)n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  TRY(aclrtMemset(*dev, (size_t)n * sizeof(float), 0, (size_t)n * sizeof(float)));
  int64_t d[1] = {n};
  return aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, *dev);
}

static void add_once(env *e, aclTensor *x, aclTensor *y, aclTensor *z) {
  uint64_t ws;
  aclOpExecutor *ex;
  TRY(aclnnAddGetWorkspaceSize(x, y, e->one, z, &ws, &ex));
  TRY(aclnnAdd(NULL, ws, ex, e->st));
}

/* (a) per call, ns */
static double run_calls(env *e) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < CALLS; i++)
    add_once(e, e->x, e->y, e->z);
  TRY(aclrtSynchronizeStream(e->st));
  return (double)(now_ns() - t0) / CALLS;
}

static double run_launches(env *e) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < CALLS; i++)
    TRY(aclrtLaunchKernelWithHostArgs(e->func, 1, e->st, NULL, &e->args, sizeof e->args, NULL, 0));
  TRY(aclrtSynchronizeStream(e->st));
  return (double)(now_ns() - t0) / CALLS;
}

/* (b) round trips, ns */
static double run_call_sync(env *e) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < ROUND_TRIPS; i++) {
    add_once(e, e->x, e->y, e->z);
    TRY(aclrtSynchronizeStream(e->st));
  }
  return (double)(now_ns() - t0) / ROUND_TRIPS;
}

static double run_launch_sync(env *e) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < ROUND_TRIPS; i++) {
    TRY(aclrtLaunchKernelWithHostArgs(e->func, 1, e->st, NULL, &e->args, sizeof e->args, NULL, 0));
    TRY(aclrtSynchronizeStream(e->st));
  }
  return (double)(now_ns() - t0) / ROUND_TRIPS;
}

/* (c) phase 1 alone, ns */
static double run_phase1(env *e) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < CALLS; i++) {
    uint64_t ws;
    aclOpExecutor *ex;
    TRY(aclnnAddGetWorkspaceSize(e->x, e->y, e->one, e->z, &ws, &ex));
    TRY(aclDestroyAclOpExecutor(ex));
  }
  return (double)(now_ns() - t0) / CALLS;
}

/* (d) the 16-float add on the host, ns */
static float hx[SMALL], hy[SMALL], hz[SMALL];
static volatile float sink;
static double run_loop_small(void) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < CALLS; i++) {
    for (int k = 0; k < SMALL; k++)
      hz[k] = hx[k] + hy[k];
    __asm__ volatile("" ::: "memory");
  }
  sink = hz[0];
  return (double)(now_ns() - t0) / CALLS;
}

/* (e) GB/s: 3 x 4 bytes per element */
static double run_big(env *e) {
  uint64_t t0 = now_ns();
  add_once(e, e->bx, e->by, e->bz);
  TRY(aclrtSynchronizeStream(e->st));
  return 12.0 * BIG / (double)(now_ns() - t0);
}

static float *bhx, *bhy, *bhz;
static double run_big_loop(void) {
  uint64_t t0 = now_ns();
  for (int k = 0; k < BIG; k++)
    bhz[k] = bhx[k] + bhy[k];
  __asm__ volatile("" ::: "memory");
  return 12.0 * BIG / (double)(now_ns() - t0);
}

typedef double (*case_fn)(env *);

static void measure(env *e, case_fn f, double (*g)(void), int runs, double *med, double *mn) {
  double v[MAX_RUNS];
  if (f != NULL)
    f(e);
  else
    g();
  for (int r = 0; r < runs; r++)
    v[r] = f != NULL ? f(e) : g();
  *mn = minimum(v, runs);
  *med = median(v, runs);
}

static double best_of(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] > m ? v[i] : m;
  return m;
}

static void measure_bw(env *e, case_fn f, double (*g)(void), int runs, double *med, double *best) {
  double v[MAX_RUNS];
  if (f != NULL)
    f(e);
  else
    g();
  for (int r = 0; r < runs; r++)
    v[r] = f != NULL ? f(e) : g();
  *best = best_of(v, runs);
  *med = median(v, runs);
}

int main(int argc, char **argv) {
  int runs = 11;
  const char *kernel = OPENACL_BENCH_VADD_KERNEL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) {
      kernel = argv[++i];
    } else {
      fprintf(stderr, "usage: bench_aclnn [--runs N] [--kernel PATH]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "bench_aclnn: --runs must be 1..%d\n", MAX_RUNS);
    return 2;
  }
  env e;
  memset(&e, 0, sizeof e);
  TRY(aclInit(NULL));
  TRY(aclrtSetDevice(0));
  TRY(aclrtCreateStream(&e.st));
  e.x = tensor(&e.dx, SMALL);
  e.y = tensor(&e.dy, SMALL);
  e.z = tensor(&e.dz, SMALL);
  e.bx = tensor(&e.bdx, BIG);
  e.by = tensor(&e.bdy, BIG);
  e.bz = tensor(&e.bdz, BIG);
  float one = 1;
  e.one = aclCreateScalar(&one, ACL_FLOAT);
  e.args.x = e.dx;
  e.args.y = e.dy;
  e.args.z = e.dz;
  e.args.n = SMALL;
  int have_kernel = kernel[0] != '\0' && aclrtBinaryLoadFromFile(kernel, NULL, &e.bin) == ACL_SUCCESS &&
                    aclrtBinaryGetFunction(e.bin, "vadd", &e.func) == ACL_SUCCESS;
  if (!have_kernel)
    fprintf(stderr, "bench_aclnn: no vadd kernel (build target vadd_kernel or pass --kernel PATH)\n");
  bhx = calloc(BIG, sizeof(float));
  bhy = calloc(BIG, sizeof(float));
  bhz = calloc(BIG, sizeof(float));

  double a_m, a_n, k_m = 0, k_n = 0, b_m, b_n, kb_m = 0, kb_n = 0, p_m, p_n, l_m, l_n, g_m, g_b, gl_m, gl_b;
  measure(&e, run_calls, NULL, runs, &a_m, &a_n);
  if (have_kernel)
    measure(&e, run_launches, NULL, runs, &k_m, &k_n);
  measure(&e, run_call_sync, NULL, runs, &b_m, &b_n);
  if (have_kernel)
    measure(&e, run_launch_sync, NULL, runs, &kb_m, &kb_n);
  measure(&e, run_phase1, NULL, runs, &p_m, &p_n);
  measure(NULL, NULL, run_loop_small, runs, &l_m, &l_n);
  measure_bw(&e, run_big, NULL, runs, &g_m, &g_b);
  measure_bw(NULL, NULL, run_big_loop, runs, &gl_m, &gl_b);

  printf("bench_aclnn: %d runs; values are median / min in us (bandwidth: median / best in GB/s)\n\n", runs);
  printf("| %-58s | %-17s | %-44s | %-6s |\n", "case", "openacl", "peer", "ratio");
  printf("|%s|%s|%s|%s|\n", "------------------------------------------------------------", "-------------------",
         "----------------------------------------------", "--------");
  char peer[64];
  snprintf(peer, sizeof peer, have_kernel ? "kernel launch %.2f / %.2f" : "n/a", k_m / 1000, k_n / 1000);
  printf("| %-58s | %6.2f / %-8.2f | %-44s | %6.2f |\n", "(a) 10,000 x aclnnAdd of 16 floats + 1 sync, per call",
         a_m / 1000, a_n / 1000, peer, have_kernel ? a_m / k_m : 0);
  snprintf(peer, sizeof peer, have_kernel ? "kernel launch + sync %.2f / %.2f" : "n/a", kb_m / 1000, kb_n / 1000);
  printf("| %-58s | %6.2f / %-8.2f | %-44s | %6.2f |\n", "(b) aclnnAdd (2 phases) + aclrtSynchronizeStream", b_m / 1000,
         b_n / 1000, peer, have_kernel ? b_m / kb_m : 0);
  printf("| %-58s | %6.2f / %-8.2f | %-44s | %6s |\n", "(c) phase 1 alone (+ aclDestroyAclOpExecutor)", p_m / 1000,
         p_n / 1000, "-", "-");
  printf("| %-58s | %6.3f / %-8.3f | %-44s | %6s |\n", "(d) the 16-float add as a host C loop (the kernel's share)",
         l_m / 1000, l_n / 1000, "-", "-");
  snprintf(peer, sizeof peer, "host C loop, 1 thread %.2f / %.2f", gl_m, gl_b);
  printf("| %-58s | %6.2f / %-8.2f | %-44s | %6.2f |\n", "(e) float32 add of 16 MiB operands, GB/s", g_m, g_b, peer,
         g_m / gl_m);
  printf("\nhost overhead of one aclnnAdd beyond the kernel ((a) - (d)): %.2f us (goal <= 2 us): %s\n",
         (a_m - l_m) / 1000, (a_m - l_m) / 1000 <= 2.0 ? "met" : "not met");

  free(bhx);
  free(bhy);
  free(bhz);
  aclDestroyTensor(e.x);
  aclDestroyTensor(e.y);
  aclDestroyTensor(e.z);
  aclDestroyTensor(e.bx);
  aclDestroyTensor(e.by);
  aclDestroyTensor(e.bz);
  aclDestroyScalar(e.one);
  aclrtFree(e.dx);
  aclrtFree(e.dy);
  aclrtFree(e.dz);
  aclrtFree(e.bdx);
  aclrtFree(e.bdy);
  aclrtFree(e.bdz);
  if (e.bin != NULL)
    aclrtBinaryUnLoad(e.bin);
  aclrtDestroyStream(e.st);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
