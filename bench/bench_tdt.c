/*
 * bench_tdt.c - TDT channel throughput for 1 MiB tensors against memcpy
 * bandwidth (docs/performance.md, issue 13: goal >= 0.5x).
 *
 *   bench_tdt [--runs N] [--mib M]
 *
 * Sides, each moving one M MiB (default 1) float tensor per transfer:
 *   memcpy       memcpy of the tensor into a buffer that is reused (the peer)
 *   channel 1t   acltdtSendTensor then acltdtReceiveTensor in one thread
 *   channel 2t   a sender thread and a receiver thread, capacity 8
 *   queue 1t     acltdtEnqueueData then acltdtDequeueData (shared memory,
 *                two copies: in and out) in one thread
 * Every run does enough transfers to last a few milliseconds; runs of the
 * sides are interleaved; the table gives the median and best GB/s of each
 * side over N runs (default 11) and the ratio of its median to memcpy's.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

#define MAX_RUNS 101

static size_t bytes = 1u << 20;
static int reps = 200;

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
    fprintf(stderr, "bench_tdt: %s failed: %d: %s\n", what, rc, aclGetRecentErrMsg());
    exit(1);
  }
}

static float *src, *dst;
static acltdtDataset *send_ds;

static double run_memcpy(void) {
  double t0 = now_s();
  for (int i = 0; i < reps; i++) {
    memcpy(dst, src, bytes);
    __asm__ volatile("" ::"r"(dst) : "memory");
  }
  return (double)bytes * reps / (now_s() - t0) / 1e9;
}

static double run_channel_1t(acltdtChannelHandle *h, acltdtDataset *r) {
  double t0 = now_s();
  for (int i = 0; i < reps; i++) {
    check(acltdtSendTensor(h, send_ds, -1), "acltdtSendTensor");
    check(acltdtReceiveTensor(h, r, -1), "acltdtReceiveTensor");
  }
  return (double)bytes * reps / (now_s() - t0) / 1e9;
}

static void *sender(void *arg) {
  for (int i = 0; i < reps; i++)
    check(acltdtSendTensor(arg, send_ds, -1), "acltdtSendTensor");
  return NULL;
}

static double run_channel_2t(acltdtChannelHandle *h, acltdtDataset *r) {
  pthread_t t;
  double t0 = now_s();
  pthread_create(&t, NULL, sender, h);
  for (int i = 0; i < reps; i++)
    check(acltdtReceiveTensor(h, r, -1), "acltdtReceiveTensor");
  pthread_join(t, NULL);
  return (double)bytes * reps / (now_s() - t0) / 1e9;
}

static double run_queue_1t(uint32_t q) {
  size_t got = 0;
  double t0 = now_s();
  for (int i = 0; i < reps; i++) {
    check(acltdtEnqueueData(q, src, bytes, NULL, 0, -1, 0), "acltdtEnqueueData");
    check(acltdtDequeueData(q, dst, bytes, &got, NULL, 0, -1), "acltdtDequeueData");
  }
  return (double)bytes * reps / (now_s() - t0) / 1e9;
}

int main(int argc, char **argv) {
  int runs = 11;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--mib") == 0 && i + 1 < argc) {
      bytes = (size_t)atoi(argv[++i]) << 20;
    } else {
      fprintf(stderr, "usage: bench_tdt [--runs N] [--mib M]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS || bytes == 0) {
    fprintf(stderr, "bench_tdt: --runs is 1 to %d and --mib at least 1\n", MAX_RUNS);
    return 2;
  }
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  src = malloc(bytes);
  dst = malloc(bytes);
  if (src == NULL || dst == NULL)
    return 1;
  memset(src, 1, bytes);
  memset(dst, 0, bytes);
  int64_t dims[1] = {(int64_t)(bytes / sizeof(float))};
  acltdtDataItem *it = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, src, bytes);
  send_ds = acltdtCreateDataset();
  check(acltdtAddDataItem(send_ds, it), "acltdtAddDataItem");
  acltdtChannelHandle *h1 = acltdtCreateChannelWithCapacity(0, "bench1", 2);
  acltdtChannelHandle *h2 = acltdtCreateChannelWithCapacity(0, "bench2", 8);
  acltdtDataset *r = acltdtCreateDataset();
  uint32_t q = 0;
  check(acltdtCreateQueue(NULL, &q), "acltdtCreateQueue");
  if (h1 == NULL || h2 == NULL) {
    fprintf(stderr, "bench_tdt: channel creation failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  /* about 20 ms per run at memcpy speed */
  double gbs = run_memcpy();
  reps = (int)(gbs * 1e9 * 0.02 / (double)bytes);
  if (reps < 20)
    reps = 20;
  run_channel_1t(h1, r);
  run_channel_2t(h2, r);
  run_queue_1t(q);
  enum { MEMCPY, CH1, CH2, Q1, SIDES };
  static const char *names[SIDES] = {"memcpy", "channel send+receive, 1 thread", "channel, sender + receiver thread",
                                     "queue enqueue+dequeue, 1 thread"};
  double v[SIDES][MAX_RUNS];
  for (int k = 0; k < runs; k++) {
    v[MEMCPY][k] = run_memcpy();
    v[CH1][k] = run_channel_1t(h1, r);
    v[CH2][k] = run_channel_2t(h2, r);
    v[Q1][k] = run_queue_1t(q);
  }
  printf("TDT throughput, %zu KiB tensors, %d transfers per run, %d runs (GB/s)\n", bytes >> 10, reps, runs);
  printf("%-36s %10s %10s %14s\n", "side", "median", "best", "median/memcpy");
  double med[SIDES];
  for (int s = 0; s < SIDES; s++) {
    qsort(v[s], (size_t)runs, sizeof(double), cmp_double);
    med[s] = v[s][runs / 2];
    printf("%-36s %10.2f %10.2f %14.2f\n", names[s], med[s], v[s][runs - 1], med[s] / med[MEMCPY]);
  }
  check(acltdtDestroyQueue(q), "acltdtDestroyQueue");
  check(acltdtDestroyDataset(r), "acltdtDestroyDataset");
  check(acltdtDestroyChannel(h1), "acltdtDestroyChannel");
  check(acltdtDestroyChannel(h2), "acltdtDestroyChannel");
  check(acltdtDestroyDataset(send_ds), "acltdtDestroyDataset");
  check(acltdtDestroyDataItem(it), "acltdtDestroyDataItem");
  free(src);
  free(dst);
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  return 0;
}
