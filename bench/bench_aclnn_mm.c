/*
 * bench_aclnn_mm.c - aclnn's matrix products and convolutions against
 * PyTorch on the CPU, the same shapes, float32, the same thread count.
 *
 *   bench_aclnn_mm [--runs N] [--threads N] [--peer PATH] [--quick] [--only TEXT] [--pause-ms N]
 *
 *   --quick: fewer calls per run, no 1024-cube product; --only: the cases whose name contains TEXT;
 *   --pause-ms: idle time before each side's run (default 20), so that the other side's spinning
 *   OpenMP workers have gone to sleep.
 *
 * openacl's side: one call is what a program pays per operator, phase 1
 * (aclnnXxxGetWorkspaceSize: checks, the oneDNN primitive) + phase 2
 * (aclnnXxx: one task) + aclrtSynchronizeStream, on tensors made once.  The
 * device's executors (OPENACL_EXECUTOR_THREADS, default the host's cores)
 * are oneDNN's team.  The peer: torch.matmul / torch.bmm into a
 * preallocated out, F.conv2d / F.conv_transpose2d with bias
 * (bench_aclnn_mm_peer.py under /usr/bin/python3, torch.set_num_threads with
 * the same count), driven over a pipe so that the two sides alternate run by
 * run.
 *
 * Each case: a warm-up on both sides, then N runs (default 11) of ITERS
 * calls each (ITERS chosen from the case's work); the table gives per call
 * the median and the minimum over the runs, GFLOP/s of the medians, and the
 * ratio of medians openacl / PyTorch (goal: at most 1.0).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"

#ifndef OPENACL_BENCH_MM_PEER
#define OPENACL_BENCH_MM_PEER ""
#endif

#define MAX_RUNS 101

enum { K_MM, K_BMM, K_CONV };

typedef struct bcase {
  const char *name;
  int kind;
  /* mm: m k n transposed; bmm: b m k n; conv: n c h w oc kh kw stride pad dilation groups transposed */
  int64_t v[12];
} bcase;

static const bcase cases[] = {
    {"Mm 128x128x128", K_MM, {128, 128, 128, 0}},
    {"Mm 512x512x512", K_MM, {512, 512, 512, 0}},
    {"Mm 1024x1024x1024", K_MM, {1024, 1024, 1024, 0}},
    {"Mm 512x512x512, mat2 transposed", K_MM, {512, 512, 512, 1}},
    {"Matmul [32,768]x[768,3072]", K_MM, {32, 768, 3072, 0}},
    {"BatchMatMul 16x[128,64]x[64,128]", K_BMM, {16, 128, 64, 128}},
    {"Conv 1x64x56x56, 3x3 64", K_CONV, {1, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1, 0}},
    {"Conv 1x3x224x224, 7x7/2 64", K_CONV, {1, 3, 224, 224, 64, 7, 7, 2, 3, 1, 1, 0}},
    {"Conv 1x256x14x14, 3x3 256", K_CONV, {1, 256, 14, 14, 256, 3, 3, 1, 1, 1, 1, 0}},
    {"Conv 1x128x28x28, 1x1 512", K_CONV, {1, 128, 28, 28, 512, 1, 1, 1, 0, 1, 1, 0}},
    {"Conv 8x64x28x28, 3x3 64", K_CONV, {8, 64, 28, 28, 64, 3, 3, 1, 1, 1, 1, 0}},
    {"Conv 1x256x28x28 depthwise 3x3", K_CONV, {1, 256, 28, 28, 256, 3, 3, 1, 1, 1, 256, 0}},
    {"ConvTranspose 1x64x28x28, 4x4/2 32", K_CONV, {1, 64, 28, 28, 32, 4, 4, 2, 1, 1, 1, 1}},
    /* almost no work: what one call costs beyond its kernels */
    {"Conv 1x16x8x8, 1x1 16 (call cost)", K_CONV, {1, 16, 8, 8, 16, 1, 1, 1, 0, 1, 1, 0}},
};

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

static void die(const char *what) {
  fprintf(stderr, "bench_aclnn_mm: %s: %s\n", what, aclGetRecentErrMsg());
  exit(1);
}

/* ---- the peer ------------------------------------------------------------------------------------ */

static FILE *peer_in, *peer_out;
static pid_t peer_pid;

static void peer_start(const char *script, int threads) {
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0)
    die("pipe");
  peer_pid = fork();
  if (peer_pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    char t[16];
    snprintf(t, sizeof t, "%d", threads);
    unsetenv("ONEDNN_VERBOSE"); /* the peer's stdout carries the answers */
    unsetenv("DNNL_VERBOSE");
    execl("/usr/bin/python3", "python3", script, t, (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  peer_in = fdopen(to[1], "w");
  peer_out = fdopen(from[0], "r");
}

/* Sends a command, returns the answer line (static). */
static const char *peer_ask(const char *cmd) {
  static char line[256];
  fprintf(peer_in, "%s\n", cmd);
  fflush(peer_in);
  if (fgets(line, sizeof line, peer_out) == NULL) {
    fprintf(stderr, "bench_aclnn_mm: the PyTorch peer stopped (is python3-torch installed?)\n");
    exit(1);
  }
  return line;
}

/* ---- openacl's side ----------------------------------------------------------------------------- */

typedef struct side {
  const bcase *c;
  aclTensor *t[4];
  void *dev[4];
  aclIntArray *st, *pad, *dil, *opad;
} side;

static aclTensor *tensor(side *s, int i, int rank, const int64_t *dims, const int64_t *strides) {
  int64_t n = 1;
  for (int k = 0; k < rank; k++)
    n *= dims[k];
  size_t bytes = (size_t)n * sizeof(float);
  float *host = malloc(bytes);
  for (int64_t k = 0; k < n; k++)
    host[k] = (float)((k * 7919 % 1000) / 500.0 - 1.0);
  if (aclrtMalloc(&s->dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(s->dev[i], bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
    die("device memory");
  free(host);
  s->t[i] = aclCreateTensor(dims, (uint64_t)rank, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, &n, 1, s->dev[i]);
  return s->t[i];
}

static double flops(const bcase *c) {
  const int64_t *v = c->v;
  if (c->kind == K_MM)
    return 2.0 * (double)v[0] * (double)v[1] * (double)v[2];
  if (c->kind == K_BMM)
    return 2.0 * (double)v[0] * (double)v[1] * (double)v[2] * (double)v[3];
  int64_t n = v[0], ch = v[1], h = v[2], w = v[3], oc = v[4], kh = v[5], kw = v[6], s = v[7], p = v[8], g = v[10];
  int64_t oh = v[11] ? (h - 1) * s - 2 * p + kh : (h + 2 * p - kh) / s + 1;
  int64_t ow = v[11] ? (w - 1) * s - 2 * p + kw : (w + 2 * p - kw) / s + 1;
  return v[11] ? 2.0 * (double)(n * ch * h * w) * (double)(oc / g * kh * kw)
               : 2.0 * (double)(n * oc * oh * ow) * (double)(ch / g * kh * kw);
}

static void side_make(side *s, const bcase *c) {
  memset(s, 0, sizeof *s);
  s->c = c;
  const int64_t *v = c->v;
  if (c->kind == K_MM) {
    int64_t ad[2] = {v[0], v[1]}, bd[2] = {v[1], v[2]}, od[2] = {v[0], v[2]}, bt[2] = {1, v[1]};
    tensor(s, 0, 2, ad, NULL);
    tensor(s, 1, 2, bd, v[3] ? bt : NULL); /* transposed: [k, n] over an [n, k] buffer */
    tensor(s, 2, 2, od, NULL);
  } else if (c->kind == K_BMM) {
    int64_t ad[3] = {v[0], v[1], v[2]}, bd[3] = {v[0], v[2], v[3]}, od[3] = {v[0], v[1], v[3]};
    tensor(s, 0, 3, ad, NULL);
    tensor(s, 1, 3, bd, NULL);
    tensor(s, 2, 3, od, NULL);
  } else {
    int64_t n = v[0], ch = v[1], h = v[2], w = v[3], oc = v[4], kh = v[5], kw = v[6], st = v[7], p = v[8], d = v[9],
            g = v[10], tr = v[11];
    int64_t oh = tr ? (h - 1) * st - 2 * p + d * (kh - 1) + 1 : (h + 2 * p - d * (kh - 1) - 1) / st + 1;
    int64_t ow = tr ? (w - 1) * st - 2 * p + d * (kw - 1) + 1 : (w + 2 * p - d * (kw - 1) - 1) / st + 1;
    int64_t xd[4] = {n, ch, h, w}, wd[4] = {tr ? ch : oc, tr ? oc / g : ch / g, kh, kw}, bd[1] = {oc},
            od[4] = {n, oc, oh, ow};
    tensor(s, 0, 4, xd, NULL);
    tensor(s, 1, 4, wd, NULL);
    tensor(s, 2, 1, bd, NULL);
    tensor(s, 3, 4, od, NULL);
    int64_t sv[2] = {st, st}, pv[2] = {p, p}, dv[2] = {d, d}, ov[2] = {0, 0};
    s->st = aclCreateIntArray(sv, 2);
    s->pad = aclCreateIntArray(pv, 2);
    s->dil = aclCreateIntArray(dv, 2);
    s->opad = aclCreateIntArray(ov, 2);
  }
}

static void side_free(side *s) {
  for (int i = 0; i < 4; i++) {
    if (s->t[i] != NULL)
      aclDestroyTensor(s->t[i]);
    if (s->dev[i] != NULL)
      aclrtFree(s->dev[i]);
  }
  aclDestroyIntArray(s->st);
  aclDestroyIntArray(s->pad);
  aclDestroyIntArray(s->dil);
  aclDestroyIntArray(s->opad);
}

/* One call: phase 1, phase 2, synchronise. */
static void side_call(side *s, aclrtStream stream) {
  uint64_t ws = 0;
  aclOpExecutor *ex = NULL;
  int rc;
  if (s->c->kind == K_MM) {
    rc = aclnnMatmulGetWorkspaceSize(s->t[0], s->t[1], s->t[2], 0, &ws, &ex);
    if (rc == 0)
      rc = aclnnMatmul(NULL, 0, ex, stream);
  } else if (s->c->kind == K_BMM) {
    rc = aclnnBatchMatMulGetWorkspaceSize(s->t[0], s->t[1], s->t[2], 0, &ws, &ex);
    if (rc == 0)
      rc = aclnnBatchMatMul(NULL, 0, ex, stream);
  } else {
    rc = aclnnConvolutionGetWorkspaceSize(s->t[0], s->t[1], s->t[2], s->st, s->pad, s->dil, s->c->v[11] != 0, s->opad,
                                          s->c->v[10], s->t[3], 0, &ws, &ex);
    if (rc == 0)
      rc = aclnnConvolution(NULL, 0, ex, stream);
  }
  if (rc != 0 || aclrtSynchronizeStream(stream) != ACL_SUCCESS)
    die(s->c->name);
}

int main(int argc, char **argv) {
  int runs = 11, threads = 0, quick = 0, pause_us = 20000;
  const char *peer = OPENACL_BENCH_MM_PEER, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc)
      peer = argv[++i];
    else if (strcmp(argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp(argv[i], "--pause-ms") == 0 && i + 1 < argc)
      pause_us = atoi(argv[++i]) * 1000;
    else {
      fprintf(stderr, "usage: bench_aclnn_mm [--runs N] [--threads N] [--peer PATH] [--quick] [--only TEXT] [--pause-ms N]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS)
    runs = 11;
  if (threads <= 0) {
    const char *e = getenv("OPENACL_EXECUTOR_THREADS");
    threads = e != NULL && atoi(e) > 0 ? atoi(e) : (int)sysconf(_SC_NPROCESSORS_ONLN);
  }
  char tv[16];
  snprintf(tv, sizeof tv, "%d", threads);
  setenv("OPENACL_EXECUTOR_THREADS", tv, 1); /* oneDNN's team on openacl's side */
  if (peer[0] == '\0') {
    fprintf(stderr, "bench_aclnn_mm: no peer script (--peer PATH)\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  peer_start(peer, threads);
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
    die("init");
  aclrtStream stream;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS)
    die("stream");

  printf("float32, %d threads on both sides, %d runs; one openacl call = phase 1 + phase 2 + synchronize\n\n", threads,
         runs);
  printf("| case | openacl median (us) | min | PyTorch median (us) | min | GFLOP/s openacl / PyTorch | ratio |\n");
  printf("|---|---|---|---|---|---|---|\n");
  int worse = 0;
  size_t ncases = sizeof cases / sizeof cases[0];
  for (size_t ci = 0; ci < ncases; ci++) {
    const bcase *c = &cases[ci];
    if ((quick && (c->kind == K_MM && c->v[0] == 1024)) || (only != NULL && strstr(c->name, only) == NULL))
      continue;
    side s;
    side_make(&s, c);
    char cmd[256];
    const int64_t *v = c->v;
    if (c->kind == K_MM)
      snprintf(cmd, sizeof cmd, "case x mm %lld %lld %lld %lld", (long long)v[0], (long long)v[1], (long long)v[2],
               (long long)v[3]);
    else if (c->kind == K_BMM)
      snprintf(cmd, sizeof cmd, "case x bmm %lld %lld %lld %lld", (long long)v[0], (long long)v[1], (long long)v[2],
               (long long)v[3]);
    else {
      int n = snprintf(cmd, sizeof cmd, "case x conv");
      for (int k = 0; k < 12; k++)
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %lld", (long long)v[k]);
    }
    if (strncmp(peer_ask(cmd), "ok", 2) != 0)
      die("peer case");
    double fl = flops(c);
    int iters = (int)(1.5e9 / fl); /* about 10 ms of work per run at 150 GFLOP/s */
    iters = iters < 3 ? 3 : iters > 300 ? 300 : iters;
    if (quick)
      iters = iters / 3 + 1;
    double a[MAX_RUNS], b[MAX_RUNS];
    char run[32];
    snprintf(run, sizeof run, "run %d", iters);
    side_call(&s, stream); /* warm-up: first-touch of pages, oneDNN's kernels generated */
    side_call(&s, stream);
    peer_ask(run);
    for (int r = 0; r < runs; r++) {
      /* a pause before each side: the other side's OpenMP workers spin for a while after their last
       * parallel region, and on a machine with few cores they would take the next side's */
      usleep(pause_us);
      uint64_t t0 = now_ns();
      for (int i = 0; i < iters; i++)
        side_call(&s, stream);
      a[r] = (double)(now_ns() - t0) / 1e3 / iters;
      usleep(pause_us);
      b[r] = atof(peer_ask(run));
    }
    double am = median(a, runs), bm = median(b, runs);
    printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f | %.2f |\n", c->name, am, minimum(a, runs), bm,
           minimum(b, runs), fl / am / 1e3, fl / bm / 1e3, am / bm);
    fflush(stdout);
    worse += am > bm;
    side_free(&s);
  }
  fprintf(peer_in, "quit\n");
  fclose(peer_in);
  waitpid(peer_pid, NULL, 0);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  printf("\n%d of %zu cases slower than PyTorch (median)\n", worse, ncases);
  return 0;
}
