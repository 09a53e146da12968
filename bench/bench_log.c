/*
 * bench_log.c - the cost of a log call that the threshold filters out.
 *
 * openacl: aclAppLog(ACL_DEBUG, ...) with the threshold at ERROR, through the
 * public API (a call into the shared library, one relaxed load, a compare).
 * Peers: the cheapest filter an application could write itself, an inline
 * `if (level >= threshold) fprintf(...)`, and an empty variadic function
 * called through a pointer (the bare price of the call aclAppLog needs).
 *
 * Each case runs 7 times 10M calls; the table gives ns/call (median and
 * minimum of the 7 runs) and the ratio of medians to the inline check.
 * Goal: the filtered aclAppLog call costs at most 10 ns.
 *
 * Usage: bench_log [calls-per-run]
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define RUNS 7
#define GOAL_NS 10.0

static volatile int peer_threshold = ACL_ERROR;  /* volatile: read on every call, as a real one */
static volatile int sink;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void empty_log(aclLogLevel level, const char *func, const char *file, uint32_t line,
                      const char *fmt, ...) {
  (void)level, (void)func, (void)file, (void)line, (void)fmt;
  sink = 0;
}
static void (*volatile empty_ptr)(aclLogLevel, const char *, const char *, uint32_t, const char *,
                                  ...) = empty_log;

static double run_applog(long n) {
  uint64_t t0 = now_ns();
  for (long i = 0; i < n; i++)
    aclAppLog(ACL_DEBUG, __func__, __FILE__, __LINE__, "value %ld", i);
  return (double)(now_ns() - t0) / (double)n;
}

static double run_inline(long n) {
  uint64_t t0 = now_ns();
  for (long i = 0; i < n; i++)
    if (ACL_DEBUG >= peer_threshold)
      fprintf(stderr, "%s %s:%d value %ld\n", __func__, __FILE__, __LINE__, i);
  return (double)(now_ns() - t0) / (double)n;
}

static double run_fnptr(long n) {
  uint64_t t0 = now_ns();
  for (long i = 0; i < n; i++)
    empty_ptr(ACL_DEBUG, __func__, __FILE__, __LINE__, "value %ld", i);
  return (double)(now_ns() - t0) / (double)n;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct { const char *name; double (*run)(long); double median, min; } bench_case;

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000L;
  if (n <= 0) {
    fprintf(stderr, "bench_log: usage: bench_log [calls-per-run > 0]\n");
    return 2;
  }
  /* Threshold ERROR for every module; nothing is written, so no files. */
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
  unsetenv("ASCEND_MODULE_LOG_LEVEL");
  if (aclInit(NULL) != ACL_SUCCESS)
    fprintf(stderr, "bench_log: aclInit failed; measuring the logger configured on first use\n");

  bench_case cases[] = {
    {"openacl aclAppLog(DEBUG), filtered", run_applog, 0, 0},
    {"peer: inline if (level >= threshold)", run_inline, 0, 0},
    {"peer: empty call through a pointer", run_fnptr, 0, 0},
  };
  size_t ncases = sizeof(cases) / sizeof(cases[0]);
  for (size_t c = 0; c < ncases; c++) {
    double t[RUNS];
    cases[c].run(n / 10 + 1);  /* warm up (and configure the logger) */
    for (int r = 0; r < RUNS; r++)
      t[r] = cases[c].run(n);
    qsort(t, RUNS, sizeof(double), cmp_double);
    cases[c].median = t[RUNS / 2];
    cases[c].min = t[0];
  }

  printf("bench_log: %d runs of %ld calls each\n", RUNS, n);
  printf("%-40s %14s %12s %10s\n", "case", "median ns/call", "min ns/call", "ratio");
  for (size_t c = 0; c < ncases; c++)
    printf("%-40s %14.2f %12.2f %9.2fx\n", cases[c].name, cases[c].median, cases[c].min,
           cases[1].median > 0 ? cases[c].median / cases[1].median : 0.0);
  printf("goal: filtered aclAppLog <= %.0f ns/call: %s (%.2f ns)\n", GOAL_NS,
         cases[0].median <= GOAL_NS ? "met" : "NOT met", cases[0].median);
  aclFinalize();
  return 0;
}
