/*
 * mpi_checks.c - libhccl under mpirun, beyond the samples:
 *
 *   mpi_checks order   the collective is a stream task: HcclAllReduce
 *                      returns while a host function ahead of it still
 *                      blocks the stream; copies before and after it on
 *                      the same stream see it in order; an event recorded
 *                      after it lets a second stream use the result
 *   mpi_checks stall   the last rank never joins the operation: the others'
 *                      synchronisation fails within HCCL_EXEC_TIMEOUT with
 *                      ACL_ERROR_RT_STREAM_SYNC_TIMEOUT naming that rank
 *   mpi_checks subcomm even and odd ranks each make a sub-communicator
 *                      (HcclCreateSubCommConfig) and all-reduce in it
 *   mpi_checks mixed   two ranks per process, one thread each, in one
 *                      communicator with the other processes' ranks: host
 *                      memory inside a process, MPI between processes
 *   mpi_checks connect the last rank never calls HcclCommInitRootInfo: the
 *                      others' init fails with HCCL_E_TIMEOUT within
 *                      HCCL_CONNECT_TIMEOUT, the root naming the rank
 *   mpi_checks kill    the last rank is killed (SIGKILL) after the
 *                      communicator is made: the others fail with 507057 or
 *                      507046 naming it, never hang
 *   mpi_checks stall_split, kill_split   the same with an AllReduce large
 *                      enough to go in two phases (reduce-scatter, all-gather)
 *   mpi_checks kill_mapped  the same after a large AllGather that made every
 *                      rank map every other's device memory (same-host
 *                      transfers): the survivors fail, naming the victim,
 *                      and do not crash on its memory
 *   mpi_checks sizes   AllReduce (also in place), AllGather (also both in-place
 *                      forms), ReduceScatter (also in place), Broadcast,
 *                      Reduce, Scatter, AlltoAll and Send/Recv from 1 element
 *                      to past 4 MiB, counts that do not divide by the ranks:
 *                      each algorithm (direct and two-phase), the task's own
 *                      fast path and the progress thread's, messages from
 *                      device memory and staged (OPENACL_HCCL_ZERO_COPY);
 *                      afterwards each rank holds a read-only mapping of the
 *                      device memory of other processes (same-host
 *                      transfers) unless OPENACL_HCCL_PEER_MEMORY=0,
 *                      OPENACL_HCCL_ZERO_COPY=0 or protection keys rule
 *                      them out, and none then; with the argument
 *                      "refusing", rank 0 runs with OPENACL_HCCL_PEER_MEMORY=0
 *                      or OPENACL_HCCL_ZERO_COPY=0: it refuses the others'
 *                      descriptions, which then send it the data by MPI
 *
 * Prints "rank r: ok ..." per rank and exits 0 when what it checks holds.
 */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "openacl/openacl.h"

static int g_rank;

#define FAIL(...)                                       \
  do {                                                  \
    printf("rank %d: FAILED line %d: ", g_rank, __LINE__); \
    printf(__VA_ARGS__);                                \
    printf("\n");                                       \
    fflush(stdout);                                     \
    return 1;                                           \
  } while (0)
#define OK(call)                                        \
  do {                                                  \
    int r_ = (int)(call);                               \
    if (r_ != 0)                                        \
      FAIL("%s returned %d: %s", #call, r_, aclGetRecentErrMsg()); \
  } while (0)

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void slow_host_fn(void *arg) {
  (void)arg;
  usleep(300000);
}

static int check_order(HcclComm comm, int rank, int size) {
  enum { N = 1024 };
  aclrtStream s, s2;
  OK(aclrtCreateStream(&s));
  OK(aclrtCreateStream(&s2));
  float *host = malloc(N * sizeof(float)), *back = malloc(N * sizeof(float));
  void *in, *out, *copy, *copy2;
  OK(aclrtMalloc(&in, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMalloc(&out, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMalloc(&copy, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMalloc(&copy2, N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < N; i++)
    host[i] = (float)(rank + i);
  aclrtEvent ev;
  OK(aclrtCreateEvent(&ev));
  /* memset, a slow host function, the input copy, the collective, a copy of
   * its output: all on one stream, queued before anything ran */
  OK(aclrtMemsetAsync(out, N * 4, 0xff, N * 4, s));
  OK(aclrtLaunchHostFunc(s, slow_host_fn, NULL));
  OK(aclrtMemcpyAsync(in, N * 4, host, N * 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
  double t0 = now_s();
  OK(HcclAllReduce(in, out, N, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  double dt = now_s() - t0;
  if (dt > 0.2)
    FAIL("HcclAllReduce took %.3f s to return: it waited instead of queuing", dt);
  OK(aclrtMemcpyAsync(copy, N * 4, out, N * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  OK(aclrtRecordEvent(ev, s));
  OK(aclrtStreamWaitEvent(s2, ev));
  OK(aclrtMemcpyAsync(copy2, N * 4, out, N * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  OK(aclrtSynchronizeStream(s2));
  aclrtEventRecordedStatus st;
  OK(aclrtQueryEventStatus(ev, &st));
  if (st != ACL_EVENT_RECORDED_STATUS_COMPLETE)
    FAIL("the event after the collective is not complete though a stream waiting on it ran");
  OK(aclrtSynchronizeStream(s));
  for (int which = 0; which < 2; which++) {
    OK(aclrtMemcpy(back, N * 4, which ? copy2 : copy, N * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++) {
      float want = (float)(size * (size - 1) / 2 + size * i);
      if (back[i] != want)
        FAIL("%s[%d] = %g, want %g", which ? "copy on the second stream" : "copy after", i, back[i], want);
    }
  }
  printf("rank %d: ok order (HcclAllReduce returned in %.3f s, before the stream reached it)\n", rank, dt);
  OK(aclrtDestroyEvent(ev));
  aclrtFree(in), aclrtFree(out), aclrtFree(copy), aclrtFree(copy2);
  free(host), free(back);
  OK(aclrtDestroyStream(s));
  OK(aclrtDestroyStream(s2));
  return 0;
}

static int check_fault(HcclComm comm, int rank, int size, const char *mode) {
  int kill_it = strncmp(mode, "kill", 4) == 0;
  /* 800 KB: two phases */
  uint64_t count = strstr(mode, "split") != NULL || strstr(mode, "mapped") != NULL ? 200000 : 1024;
  int victim = size - 1;
  if (strstr(mode, "mapped") != NULL) {
    /* every rank reads every other's 1 MiB block from its device memory */
    aclrtStream s0;
    void *in, *out;
    OK(aclrtCreateStream(&s0));
    OK(aclrtMalloc(&in, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&out, (size_t)size << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemset(in, 1 << 20, rank, 1 << 20));
    OK(HcclAllGather(in, out, 1 << 20, HCCL_DATA_TYPE_INT8, comm, s0));
    OK(aclrtSynchronizeStream(s0));
    OK(aclrtFree(in));
    OK(aclrtFree(out));
    OK(aclrtDestroyStream(s0));
  }
  if (rank == victim) {
    if (kill_it) {
      fflush(stdout);
      raise(SIGKILL);
    }
    int t = atoi(getenv("HCCL_EXEC_TIMEOUT") ? getenv("HCCL_EXEC_TIMEOUT") : "2");
    sleep((unsigned)t + 2); /* stalls past the others' timeout, then leaves */
    printf("rank %d: ok stalled\n", rank);
    return 0;
  }
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  void *buf;
  OK(aclrtMalloc(&buf, count * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemset(buf, count * 4, 0, count * 4));
  double t0 = now_s();
  OK(HcclAllReduce(buf, buf, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  int rc = aclrtSynchronizeStream(s);
  double dt = now_s() - t0;
  const char *msg = aclGetRecentErrMsg();
  char peer[32];
  snprintf(peer, sizeof(peer), "peer rank %d", victim);
  if (rc != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT && rc != ACL_ERROR_RT_SUSPECT_REMOTE_ERROR)
    FAIL("synchronising returned %d, not 507046 or 507057: %s", rc, msg ? msg : "(no message)");
  if (msg == NULL || strstr(msg, peer) == NULL)
    FAIL("the message does not name %s: %s", peer, msg ? msg : "(none)");
  HcclResult async = HCCL_SUCCESS;
  OK(HcclGetCommAsyncError(comm, &async));
  if (async != HCCL_E_TIMEOUT && async != HCCL_E_REMOTE)
    FAIL("HcclGetCommAsyncError gave %d", (int)async);
  printf("rank %d: ok %s after %.1f s with %d naming %s\n", rank, mode, dt, rc, peer);
  fflush(stdout);
  aclrtFree(buf);
  OK(aclrtDestroyStream(s));
  return 0;
}

/* Element i of rank r's input: small integers, so that float sums are exact. */
static float val(int r, uint64_t i) { return (float)((r * 7 + (int)(i % 13)) % 11); }

static int expect(const char *what, uint64_t count, const float *got, uint64_t i, float want) {
  if (got[i] != want) {
    printf("rank %d: FAILED %s count %llu [%llu]: got %g, want %g\n", g_rank, what, (unsigned long long)count,
           (unsigned long long)i, got[i], want);
    return 1;
  }
  return 0;
}

/* Read-only mappings of another process's device memory in this process. */
static int peer_mappings(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  int n = 0;
  while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
    char perms[8] = "";
    if (sscanf(line, "%*s %7s", perms) == 1 && strcmp(perms, "r--s") == 0 &&
        strstr(line, "openacl-device-memory") != NULL)
      n++;
  }
  if (f != NULL)
    fclose(f);
  return n;
}

static int env_is(const char *name, const char *value) {
  const char *v = getenv(name);
  return v != NULL && strcmp(v, value) == 0;
}

static int check_sizes(HcclComm comm, int rank, int size, int refusing) {
  /* up to 4.4 MB per block: past HCCL__COPY_STREAM_MIN (copies around the caches) */
  static const uint64_t counts[] = {1, 1000, 40001, 300001, 1100001};
  uint32_t n = (uint32_t)size, me = (uint32_t)rank;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  size_t cap = 1100001 * 4 * ((size_t)size + 1);
  float *h = malloc(cap), *out = malloc(cap);
  void *a, *b;
  OK(aclrtMalloc(&a, cap, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMalloc(&b, cap, ACL_MEM_MALLOC_HUGE_FIRST));
  float *da = a, *db = b;
  int bad = 0;
  for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]) && !bad; k++) {
    uint64_t c = counts[k], nc = c * n;
    size_t B = c * 4;
    for (uint64_t i = 0; i < nc; i++)
      h[i] = val(rank, i);
    /* AllReduce, out of place then in place, queued back to back */
    OK(aclrtMemcpy(a, nc * 4, h, nc * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(HcclAllReduce(a, b, c, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
    OK(HcclAllReduce(a, a, c, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, comm, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(out, B, b, B, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < c && !bad; i++) {
      float want = 0;
      for (int r = 0; r < size; r++)
        want += val(r, i);
      bad = expect("allreduce", c, out, i, want);
    }
    OK(aclrtMemcpy(out, B, a, B, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < c && !bad; i++) {
      float want = 0;
      for (int r = 0; r < size; r++)
        want = val(r, i) > want ? val(r, i) : want;
      bad = expect("allreduce in place", c, out, i, want);
    }
    /* AllGather: out of place; NCCL-style (sendBuf is block `me` of recvBuf);
     * sendBuf == recvBuf (block 0: overlaps what the other ranks send) */
    OK(aclrtMemcpy(a, B, h, B, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(HcclAllGather(a, b, c, HCCL_DATA_TYPE_FP32, comm, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(out, nc * 4, b, nc * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < nc && !bad; i++)
      bad = expect("allgather", c, out, i, val((int)(i / c), i % c));
    for (int form = 0; form < 2 && !bad; form++) {
      float *send = form == 0 ? db + me * c : db;
      OK(aclrtMemset(b, nc * 4, 0, nc * 4));
      OK(aclrtMemcpy(send, B, h, B, ACL_MEMCPY_HOST_TO_DEVICE));
      OK(HcclAllGather(send, b, c, HCCL_DATA_TYPE_FP32, comm, s));
      OK(aclrtSynchronizeStream(s));
      OK(aclrtMemcpy(out, nc * 4, b, nc * 4, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint64_t i = 0; i < nc && !bad; i++)
        bad = expect(form == 0 ? "allgather in place" : "allgather send == recv", c, out, i, val((int)(i / c), i % c));
    }
    /* ReduceScatter: out of place, then NCCL-style in place */
    for (int form = 0; form < 2 && !bad; form++) {
      float *recv = form == 0 ? db : da + me * c;
      OK(aclrtMemcpy(a, nc * 4, h, nc * 4, ACL_MEMCPY_HOST_TO_DEVICE));
      OK(HcclReduceScatter(a, recv, c, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
      OK(aclrtSynchronizeStream(s));
      OK(aclrtMemcpy(out, B, recv, B, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint64_t i = 0; i < c && !bad; i++) {
        float want = 0;
        for (int r = 0; r < size; r++)
          want += val(r, me * c + i);
        bad = expect(form == 0 ? "reducescatter" : "reducescatter in place", c, out, i, want);
      }
    }
    /* Broadcast from the last rank, Reduce to rank 0, Scatter from rank 1 */
    uint32_t root = n - 1;
    OK(aclrtMemcpy(a, nc * 4, h, nc * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(HcclBroadcast(a, c, HCCL_DATA_TYPE_FP32, root, comm, s));
    OK(HcclReduce(a, b, c, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 0, comm, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(out, B, a, B, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < c && !bad; i++)
      bad = expect("broadcast", c, out, i, val((int)root, i));
    if (rank == 0) {
      OK(aclrtMemcpy(out, B, b, B, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint64_t i = 0; i < c && !bad; i++)
        bad = expect("reduce", c, out, i, (float)n * val((int)root, i));
    }
    OK(aclrtMemcpy(a, nc * 4, h, nc * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(HcclScatter(a, b, c, HCCL_DATA_TYPE_FP32, 1 % n, comm, s));
    /* AlltoAll: block p of my input goes to rank p */
    OK(HcclAlltoAll(a, c, HCCL_DATA_TYPE_FP32, (char *)b + B, c, HCCL_DATA_TYPE_FP32, comm, s));
    OK(aclrtSynchronizeStream(s));
    OK(aclrtMemcpy(out, B + nc * 4, b, B + nc * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < c && !bad; i++)
      bad = expect("scatter", c, out, i, val((int)(1 % n), me * c + i));
    for (uint64_t i = 0; i < nc && !bad; i++)
      bad = expect("alltoall", c, out + c, i, val((int)(i / c), me * c + i % c));
    /* Send / Recv around a ring: even ranks send first (an odd ring's last
     * rank too: its receiver, rank 0, receives second, after its own send) */
    uint32_t next = (me + 1) % n, prev = (me + n - 1) % n;
    if (n > 1) {
      for (int step = 0; step < 2; step++) {
        if ((me % 2 == 0) == (step == 0))
          OK(HcclSend(a, c, HCCL_DATA_TYPE_FP32, next, comm, s));
        else
          OK(HcclRecv(b, c, HCCL_DATA_TYPE_FP32, prev, comm, s));
      }
      OK(aclrtSynchronizeStream(s));
      OK(aclrtMemcpy(out, B, b, B, ACL_MEMCPY_DEVICE_TO_HOST));
      for (uint64_t i = 0; i < c && !bad; i++)
        bad = expect("send/recv", c, out, i, val((int)prev, i));
    }
  }
  const char *mech = "";
  int32_t dev = 0;
  OK(aclrtGetDevice(&dev));
  OK(openaclGetMemoryProtection(dev, &mech));
  int want = !env_is("OPENACL_HCCL_PEER_MEMORY", "0") && !env_is("OPENACL_HCCL_ZERO_COPY", "0") &&
             !env_is("OPENACL_SHARED_DEVICE", "0") && strcmp(mech, "pkeys") != 0;
  /* refusing: rank 0 runs with OPENACL_HCCL_PEER_MEMORY=0 (or stages every
   * message, as under protection keys), so the others
   * send to it by MPI once it refused, and map each other only */
  int peers = size - 1 - (refusing && rank != 0);
  int maps = peer_mappings();
  if (!bad && (want ? maps < peers : maps != 0)) {
    printf("rank %d: FAILED %d mappings of other processes' device memory, want %s%d\n", rank, maps,
           want ? "at least " : "", want ? peers : 0);
    bad = 1;
  }
  if (!bad)
    printf("rank %d: ok sizes (%d peer mappings, protection %s)\n", rank, maps, mech);
  fflush(stdout);
  free(h), free(out);
  OK(aclrtFree(a));
  OK(aclrtFree(b));
  OK(aclrtDestroyStream(s));
  return bad;
}

static int check_subcomm(HcclComm comm, int rank, int size) {
  uint32_t ids[64], k = 0;
  for (int r = rank % 2; r < size; r += 2)
    ids[k++] = (uint32_t)r;
  HcclComm sub = NULL;
  OK(HcclCreateSubCommConfig(&comm, k, ids, (uint64_t)(rank % 2), (uint32_t)(rank / 2), NULL, &sub));
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  int32_t h = rank, out = -1, want = 0;
  for (uint32_t i = 0; i < k; i++)
    want += (int32_t)ids[i];
  void *d;
  OK(aclrtMalloc(&d, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemcpy(d, 4, &h, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  OK(HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, sub, s));
  OK(aclrtSynchronizeStream(s));
  OK(aclrtMemcpy(&out, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  if (out != want)
    FAIL("sub-communicator sum %d, want %d", out, want);
  printf("rank %d: ok subcomm (%u ranks, sum %d)\n", rank, k, out);
  OK(aclrtFree(d));
  OK(aclrtDestroyStream(s));
  OK(HcclCommDestroy(sub));
  return 0;
}

typedef struct {
  HcclRootInfo *root;
  uint32_t rank, nranks;
  int32_t dev;
  int ok;
} mixed_arg;

static void *mixed_thread(void *p) {
  mixed_arg *a = p;
  enum { C = 3 };
  uint32_t n = a->nranks, me = a->rank;
  if (aclrtSetDevice(a->dev) != ACL_SUCCESS)
    return NULL;
  HcclComm comm;
  if (HcclCommInitRootInfo(n, a->root, me, &comm) != HCCL_SUCCESS) {
    printf("rank %u: init failed: %s\n", me, aclGetRecentErrMsg());
    return NULL;
  }
  aclrtStream s;
  aclrtCreateStream(&s);
  float h[64 * C], out[64 * C];
  void *in, *res;
  aclrtMalloc(&in, sizeof(h), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&res, sizeof(h), ACL_MEM_MALLOC_HUGE_FIRST);
  for (uint32_t i = 0; i < n * C; i++)
    h[i] = (float)(me * 100 + i);
  aclrtMemcpy(in, sizeof(h), h, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE);
  int good = 1;
  /* all-reduce, all-gather, all-to-all */
  HcclAllReduce(in, res, C, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
  good &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
  aclrtMemcpy(out, C * 4, res, C * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (uint32_t i = 0; i < C; i++)
    good &= out[i] == (float)(100 * n * (n - 1) / 2 + n * i);
  HcclAllGather(in, res, C, HCCL_DATA_TYPE_FP32, comm, s);
  good &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
  aclrtMemcpy(out, n * C * 4, res, n * C * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (uint32_t p2 = 0; p2 < n; p2++)
    for (uint32_t i = 0; i < C; i++)
      good &= out[p2 * C + i] == (float)(p2 * 100 + i);
  HcclAlltoAll(in, C, HCCL_DATA_TYPE_FP32, res, C, HCCL_DATA_TYPE_FP32, comm, s);
  good &= aclrtSynchronizeStream(s) == ACL_SUCCESS;
  aclrtMemcpy(out, n * C * 4, res, n * C * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  for (uint32_t p2 = 0; p2 < n; p2++)
    for (uint32_t i = 0; i < C; i++)
      good &= out[p2 * C + i] == (float)(p2 * 100 + me * C + i);
  aclrtFree(in);
  aclrtFree(res);
  aclrtDestroyStream(s);
  good &= HcclCommDestroy(comm) == HCCL_SUCCESS;
  printf("rank %u: %s mixed\n", me, good ? "ok" : "FAILED");
  fflush(stdout);
  a->ok = good;
  return NULL;
}

static int check_mixed(HcclRootInfo *root, int rank, int size) {
  pthread_t th[2];
  mixed_arg a[2];
  for (int t = 0; t < 2; t++) {
    a[t] = (mixed_arg){root, (uint32_t)(2 * rank + t), (uint32_t)(2 * size), (int32_t)t, 0};
    pthread_create(&th[t], NULL, mixed_thread, &a[t]);
  }
  for (int t = 0; t < 2; t++)
    pthread_join(th[t], NULL);
  return a[0].ok && a[1].ok ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "order";
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  g_rank = rank;
  OK(aclInit(NULL));
  uint32_t ndev = 0;
  OK(aclrtGetDeviceCount(&ndev));
  OK(aclrtSetDevice((int32_t)((uint32_t)rank % ndev)));
  HcclRootInfo root;
  if (rank == 0)
    OK(HcclGetRootInfo(&root));
  MPI_Bcast(&root, HCCL_ROOT_INFO_BYTES, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!strcmp(mode, "mixed")) {
    int rc = check_mixed(&root, rank, size);
    OK(aclFinalize());
    MPI_Finalize();
    return rc;
  }
  HcclComm comm;
  if (!strcmp(mode, "connect")) {
    int rc = 0;
    if (rank != size - 1) {
      double t0 = now_s();
      int r = HcclCommInitRootInfo((uint32_t)size, &root, (uint32_t)rank, &comm);
      const char *msg = aclGetRecentErrMsg();
      char want[32];
      snprintf(want, sizeof(want), "ranks %d of %d", size - 1, size);
      if (r != HCCL_E_TIMEOUT || (rank == 0 && (msg == NULL || strstr(msg, want) == NULL))) {
        printf("rank %d: FAILED init returned %d: %s\n", rank, r, msg ? msg : "(none)");
        rc = 1;
      } else {
        printf("rank %d: ok connect HCCL_E_TIMEOUT after %.1f s\n", rank, now_s() - t0);
      }
    } else {
      sleep(4);
    }
    fflush(stdout);
    _exit(rc);
  }
  OK(HcclCommInitRootInfo((uint32_t)size, &root, (uint32_t)rank, &comm));
  int rc;
  if (!strcmp(mode, "order"))
    rc = check_order(comm, rank, size);
  else if (!strcmp(mode, "subcomm"))
    rc = check_subcomm(comm, rank, size);
  else if (!strcmp(mode, "sizes"))
    rc = check_sizes(comm, rank, size, argc > 2 && !strcmp(argv[2], "refusing"));
  else
    rc = check_fault(comm, rank, size, mode);
  if (rc == 0 && (!strcmp(mode, "order") || !strcmp(mode, "subcomm") || !strcmp(mode, "sizes"))) {
    OK(HcclCommDestroy(comm));
    OK(aclFinalize());
    MPI_Finalize();
  } else {
    /* after a fault the job cannot finalise together: leave at once */
    fflush(stdout);
    _exit(rc);
  }
  return rc;
}
