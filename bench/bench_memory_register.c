/*
 * bench_memory_register.c - copies from and to registered host memory
 * against copies from and to pinned memory (docs/performance.md).
 *
 *   bench_memory_register [--runs N]
 *
 * The peer of registered memory (ordinary memory the application allocated,
 * made page-locked and mapped with aclrtHostRegisterV2) is pinned memory
 * from aclrtMallocHost: both are asynchronous on a stream, both are
 * bounds-checked against their range.  Each case copies host to device and
 * device to host with aclrtMemcpyAsync followed by aclrtSynchronizeStream,
 * at 64 KiB (call overhead), 1 MiB and 64 MiB (bandwidth).  Every case runs
 * a warm-up, then N runs (default 11) of each side, interleaved, each run
 * enough copies to last a few milliseconds; the table gives the median and
 * best bandwidth of each side and the ratio of medians registered / pinned;
 * the goal is >= 0.9.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"

#define MAX_RUNS 101

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void check(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS) {
    fprintf(stderr, "bench_memory_register: %s failed: %d: %s\n", what, rc, aclGetRecentErrMsg());
    exit(1);
  }
}

/* GB/s of one run: `reps` copies of `bytes` in direction h2d between host and dev. */
static double one_run(void *host, void *dev, size_t bytes, int h2d, int reps, aclrtStream s) {
  double t0 = now_s();
  for (int i = 0; i < reps; i++) {
    if (h2d)
      check(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s), "aclrtMemcpyAsync");
    else
      check(aclrtMemcpyAsync(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s), "aclrtMemcpyAsync");
  }
  check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  return (double)bytes * reps / (now_s() - t0) / 1e9;
}

/* Both sides of one case, their runs interleaved (the order alternating) so
 * that a change in the machine's load falls on both alike. */
static void measure(void *reg, void *pinned, void *dev, size_t bytes, int h2d, int runs, aclrtStream s,
                    double out[4]) {
  int reps = bytes >= ((size_t)16 << 20) ? 8 : bytes >= ((size_t)1 << 20) ? 64 : 1024;
  double r[MAX_RUNS], p[MAX_RUNS];
  one_run(reg, dev, bytes, h2d, reps, s); /* warm-up */
  one_run(pinned, dev, bytes, h2d, reps, s);
  for (int i = 0; i < runs; i++) {
    if (i % 2 == 0) {
      r[i] = one_run(reg, dev, bytes, h2d, reps, s);
      p[i] = one_run(pinned, dev, bytes, h2d, reps, s);
    } else {
      p[i] = one_run(pinned, dev, bytes, h2d, reps, s);
      r[i] = one_run(reg, dev, bytes, h2d, reps, s);
    }
  }
  qsort(r, (size_t)runs, sizeof(double), cmp_double);
  qsort(p, (size_t)runs, sizeof(double), cmp_double);
  out[0] = r[runs / 2];
  out[1] = r[runs - 1];
  out[2] = p[runs / 2];
  out[3] = p[runs - 1];
}

int main(int argc, char **argv) {
  int runs = 11;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: bench_memory_register [--runs N]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "bench_memory_register: --runs must be 1..%d\n", MAX_RUNS);
    return 2;
  }
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  aclrtStream s = NULL;
  check(aclrtCreateStream(&s), "aclrtCreateStream");
  const size_t sizes[] = {(size_t)64 << 10, (size_t)1 << 20, (size_t)64 << 20};
  const size_t max = (size_t)64 << 20;
  void *dev = NULL, *pinned = NULL, *reg = NULL;
  check(aclrtMalloc(&dev, max, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  check(aclrtMallocHost(&pinned, max), "aclrtMallocHost");
  if (posix_memalign(&reg, 4096, max) != 0) {
    fprintf(stderr, "bench_memory_register: out of memory\n");
    return 1;
  }
  check(aclrtHostRegisterV2(reg, max, ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED), "aclrtHostRegisterV2");
  memset(pinned, 1, max); /* both sides touched before timing */
  memset(reg, 1, max);
  check(aclrtMemset(dev, max, 0, max), "aclrtMemset");
  printf("registered host memory (malloc + aclrtHostRegisterV2) against pinned memory (aclrtMallocHost):\n");
  printf("aclrtMemcpyAsync + aclrtSynchronizeStream, %d runs, GB/s median / best\n\n", runs);
  printf("| copy       | registered (GB/s)  | pinned (GB/s)      | ratio | goal   | met    |\n");
  printf("|------------|--------------------|--------------------|-------|--------|--------|\n");
  int all_met = 1;
  for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
    for (int h2d = 1; h2d >= 0; h2d--) {
      double v[4];
      measure(reg, pinned, dev, sizes[k], h2d, runs, s, v);
      double ratio = v[0] / v[2];
      int met = ratio >= 0.9;
      all_met = all_met && met;
      char label[32];
      snprintf(label, sizeof(label), "%zu %s %s", sizes[k] >= ((size_t)1 << 20) ? sizes[k] >> 20 : sizes[k] >> 10,
               sizes[k] >= ((size_t)1 << 20) ? "MiB" : "KiB", h2d ? "H2D" : "D2H");
      printf("| %-10s | %7.2f / %7.2f  | %7.2f / %7.2f  | %5.3f | >= 0.9 | %-6s |\n", label, v[0], v[1], v[2], v[3],
             ratio, met ? "yes" : "**no**");
    }
  }
  check(aclrtHostUnregister(reg), "aclrtHostUnregister");
  free(reg);
  check(aclrtFreeHost(pinned), "aclrtFreeHost");
  check(aclrtFree(dev), "aclrtFree");
  check(aclrtDestroyStream(s), "aclrtDestroyStream");
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  printf("\n%s\n", all_met ? "every case meets its goal" : "some cases miss their goal");
  return 0;
}
