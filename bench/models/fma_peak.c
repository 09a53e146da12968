/*
 * fma_peak.c - this machine's fp32 FMA peak, the yardstick for the model
 * benchmark's "% of peak" column (bench/models/run.sh).
 *
 *   fma_peak [--threads N] [--ms M]
 *
 * Each thread runs chains of fused multiply-adds on independent accumulators:
 * enough of them (16 vectors with AVX-512, 12 with AVX2) to cover the FMA
 * latency on both FMA ports, so the loop is bound by FMA throughput alone.
 * The widest ISA the CPU has is picked at run time (__builtin_cpu_supports);
 * both AVX2 and AVX-512 are measured where present, because some CPUs lower
 * their clock for 512-bit work and then AVX2 is the real peak.
 *
 * The peak is the sum over threads of FLOPs per second of the thread's own CPU
 * time (CLOCK_THREAD_CPUTIME_ID), best of several rounds: on a shared machine
 * other processes take time slices from the benchmark, and wall time would
 * measure their load instead of the hardware.  The wall-clock rate (every
 * thread started together, from the first start to the last finish) is
 * printed beside it as wall_gflops: when the two differ much, the machine was
 * busy and every latency of the same run is inflated too.  One JSON line.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FMA_X86 1
#endif

static const char *prog = "fma_peak";

static double clock_s(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

/* Each kernel runs `reps` rounds and returns a value that depends on every
 * accumulator, so the compiler cannot drop any chain.  acc = acc * a + b with
 * a just below 1 converges to b / (1 - a): no overflow and no denormals. */
typedef float (*fma_kernel)(long reps);

#ifdef FMA_X86
/* The accumulators are named variables, not an array: at -O2 GCC keeps a
 * short array in memory, and the store-to-load latency would then bound the
 * loop instead of the FMA units.  FMA_EACH_n(X) expands X(k) for k < n. */
#define FMA_EACH_12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define FMA_EACH_16(X) FMA_EACH_12(X) X(12) X(13) X(14) X(15)
#define FMA_AVX512_ACCS 16
#define FMA_AVX2_ACCS 12

#define FMA_AVX512_INIT(k) __m512 acc##k = _mm512_set1_ps((float)(k));
#define FMA_AVX512_STEP(k) acc##k = _mm512_fmadd_ps(acc##k, a, b);
#define FMA_AVX512_SUM(k) s = _mm512_add_ps(s, acc##k);
__attribute__((target("avx512f"))) static float fma_avx512(long reps) {
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-6f);
  FMA_EACH_16(FMA_AVX512_INIT)
  for (long r = 0; r < reps; r++) {
    FMA_EACH_16(FMA_AVX512_STEP)
  }
  __m512 s = _mm512_setzero_ps();
  FMA_EACH_16(FMA_AVX512_SUM)
  return _mm512_reduce_add_ps(s);
}

#define FMA_AVX2_INIT(k) __m256 acc##k = _mm256_set1_ps((float)(k));
#define FMA_AVX2_STEP(k) acc##k = _mm256_fmadd_ps(acc##k, a, b);
#define FMA_AVX2_SUM(k) s = _mm256_add_ps(s, acc##k);
__attribute__((target("avx2,fma"))) static float fma_avx2(long reps) {
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-6f);
  FMA_EACH_12(FMA_AVX2_INIT)
  for (long r = 0; r < reps; r++) {
    FMA_EACH_12(FMA_AVX2_STEP)
  }
  __m256 s = _mm256_setzero_ps();
  FMA_EACH_12(FMA_AVX2_SUM)
  float v[8];
  _mm256_storeu_ps(v, s);
  return v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
}
#endif

/* The portable fallback for other CPUs: scalar chains the compiler may vectorise; a lower bound. */
#define FMA_SCALAR_ACCS 16
static float fma_scalar(long reps) {
  float acc[FMA_SCALAR_ACCS];
  for (int k = 0; k < FMA_SCALAR_ACCS; k++)
    acc[k] = (float)k;
  for (long r = 0; r < reps; r++) {
    for (int k = 0; k < FMA_SCALAR_ACCS; k++)
      acc[k] = acc[k] * 0.999999f + 1e-6f;
  }
  float s = 0;
  for (int k = 0; k < FMA_SCALAR_ACCS; k++)
    s += acc[k];
  return s;
}

typedef struct isa {
  const char *name;
  fma_kernel kernel;
  int flops_per_rep; /* accumulators x lanes x 2 */
} isa;

typedef struct worker {
  pthread_t tid;
  pthread_barrier_t *start;
  fma_kernel kernel;
  long reps;
  double end, cpu_s; /* wall time at the end, CPU time the kernel took */
  volatile float sink;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(w->start);
  double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
  w->sink = w->kernel(w->reps);
  w->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  w->end = now_s();
  return NULL;
}

typedef struct rate {
  double cpu, wall; /* GFLOP/s per CPU time (summed over threads), and per wall time */
} rate;

/* The rates of `nthreads` threads running the kernel together; -1 on failure. */
static rate run_round(const isa *s, int nthreads, long reps) {
  worker *ws = calloc((size_t)nthreads, sizeof(*ws));
  pthread_barrier_t start;
  if (ws == NULL || pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1) != 0) {
    free(ws);
    return (rate){-1, -1};
  }
  int started = 0;
  for (; started < nthreads; started++) {
    ws[started] = (worker){.start = &start, .kernel = s->kernel, .reps = reps};
    if (pthread_create(&ws[started].tid, NULL, worker_main, &ws[started]) != 0)
      break;
  }
  if (started < nthreads) {
    fprintf(stderr, "%s: pthread_create failed after %d threads\n", prog, started);
    exit(1); /* the barrier waits for every thread: no clean way back */
  }
  pthread_barrier_wait(&start);
  double t0 = now_s(), end = t0, cpu = 0;
  const double gflop = (double)s->flops_per_rep * (double)reps / 1e9; /* per thread */
  for (int i = 0; i < nthreads; i++) {
    pthread_join(ws[i].tid, NULL);
    if (ws[i].end > end)
      end = ws[i].end;
    cpu += gflop / (ws[i].cpu_s > 0 ? ws[i].cpu_s : 1e-9);
  }
  pthread_barrier_destroy(&start);
  free(ws);
  return (rate){cpu, gflop * nthreads / (end - t0)};
}

/* Best rates over rounds, the repetition count first sized to ~ms per round. */
static rate measure(const isa *s, int nthreads, double ms) {
  long reps = 1000;
  for (;;) {
    double t0 = now_s();
    volatile float sink = s->kernel(reps);
    (void)sink;
    double t = now_s() - t0;
    if (t * 1e3 >= ms / 4 || reps > (1L << 40))
      break;
    reps *= 2;
  }
  reps *= 4;
  rate best = {-1, -1};
  for (int round = 0; round < 7; round++) {
    rate g = run_round(s, nthreads, reps);
    if (g.cpu < 0)
      return g;
    if (g.cpu > best.cpu)
      best.cpu = g.cpu;
    if (g.wall > best.wall)
      best.wall = g.wall;
  }
  return best;
}

static long parse_arg(const char *s, const char *what, long min, long max) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
    fprintf(stderr, "%s: %s must be an integer from %ld to %ld, got '%s'\nusage: %s [--threads N] [--ms M]\n", prog,
            what, min, max, s, prog);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  int nthreads = 2;
  double ms = 200;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
      nthreads = (int)parse_arg(argv[++i], "--threads", 1, 1024);
    else if (strcmp(argv[i], "--ms") == 0 && i + 1 < argc)
      ms = (double)parse_arg(argv[++i], "--ms", 1, 100000);
    else {
      fprintf(stderr, "%s: unknown argument '%s'\nusage: %s [--threads N] [--ms M]\n", prog, argv[i], prog);
      return 2;
    }
  }

  isa isas[3];
  int n = 0;
#ifdef FMA_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    isas[n++] = (isa){"avx512", fma_avx512, FMA_AVX512_ACCS * 16 * 2};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    isas[n++] = (isa){"avx2", fma_avx2, FMA_AVX2_ACCS * 8 * 2};
#endif
  if (n == 0)
    isas[n++] = (isa){"scalar", fma_scalar, FMA_SCALAR_ACCS * 2};

  rate best = {-1, -1};
  const char *best_isa = isas[0].name;
  printf("{\"threads\": %d, \"widest_isa\": \"%s\"", nthreads, isas[0].name);
  for (int i = 0; i < n; i++) {
    rate g = measure(&isas[i], nthreads, ms);
    if (g.cpu < 0) {
      fprintf(stderr, "%s: could not start %d threads for %s\n", prog, nthreads, isas[i].name);
      return 1;
    }
    printf(", \"%s_gflops\": %.1f, \"%s_wall_gflops\": %.1f", isas[i].name, g.cpu, isas[i].name, g.wall);
    if (g.cpu > best.cpu) {
      best = g;
      best_isa = isas[i].name;
    }
  }
  printf(", \"peak_isa\": \"%s\", \"peak_gflops\": %.1f, \"wall_gflops\": %.1f}\n", best_isa, best.cpu, best.wall);
  return 0;
}
