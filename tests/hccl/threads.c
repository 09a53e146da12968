/*
 * threads.c - libhccl with one process and a thread per rank (no mpirun):
 * every operator, data type and reduce op against a C reference, in-place
 * use, the argument checks and their codes, stream order, and the timeouts
 * of a rank that never comes.  Each TEST makes its ranks with HcclGetRootInfo
 * + HcclCommInitRootInfo from threads (the vendor's pattern B) unless it says
 * otherwise; OPENACL_DEVICE_COUNT (hccl.cmake) gives the devices.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "hccl/hccl.h"

#define ACL_OK(call) CHECK_INT_EQ((call), ACL_SUCCESS)
#define HCCL_OK(call) CHECK_INT_EQ((call), HCCL_SUCCESS)

/* Four simulated devices, in a shared-device namespace of these tests' own. */
__attribute__((constructor)) static void four_devices(void) {
  setenv("OPENACL_DEVICE_COUNT", "4", 0);
  setenv("OPENACL_SHARED_DEVICE_NAME", "hccl_threads", 0);
  setenv("HCCL_EXEC_TIMEOUT", "20", 0); /* a hang fails in seconds, not in the vendor's half hour */
}

/* ---- ranks ----------------------------------------------------------------------- */

typedef void (*rank_fn)(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg);

typedef struct {
  uint32_t rank, n;
  HcclRootInfo *root;
  rank_fn fn;
  void *arg;
} rank_ctx;

static void *rank_thread(void *p) {
  rank_ctx *c = p;
  ACL_OK(aclrtSetDevice((int32_t)c->rank));
  HcclComm comm = NULL;
  HCCL_OK(HcclCommInitRootInfo(c->n, c->root, c->rank, &comm));
  uint32_t v = 99;
  HCCL_OK(HcclGetRankSize(comm, &v));
  CHECK_INT_EQ(v, c->n);
  HCCL_OK(HcclGetRankId(comm, &v));
  CHECK_INT_EQ(v, c->rank);
  aclrtStream s;
  ACL_OK(aclrtCreateStream(&s));
  c->fn(c->rank, c->n, comm, s, c->arg);
  ACL_OK(aclrtDestroyStream(s));
  HCCL_OK(HcclCommDestroy(comm));
  ACL_OK(aclrtResetDevice((int32_t)c->rank));
  return NULL;
}

static void run_ranks(uint32_t n, rank_fn fn, void *arg) {
  ACL_OK(aclInit(NULL));
  HcclRootInfo root;
  HCCL_OK(HcclGetRootInfo(&root));
  pthread_t th[16];
  rank_ctx ctx[16];
  for (uint32_t r = 0; r < n; r++) {
    ctx[r] = (rank_ctx){r, n, &root, fn, arg};
    CHECK_INT_EQ(pthread_create(&th[r], NULL, rank_thread, &ctx[r]), 0);
  }
  for (uint32_t r = 0; r < n; r++)
    pthread_join(th[r], NULL);
  ACL_OK(aclFinalize());
}

static void *dev_alloc(size_t bytes) {
  void *p = NULL;
  ACL_OK(aclrtMalloc(&p, bytes ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST));
  return p;
}

static void to_dev(void *d, const void *h, size_t bytes) {
  if (bytes)
    ACL_OK(aclrtMemcpy(d, bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
}

static void from_dev(void *h, const void *d, size_t bytes) {
  if (bytes)
    ACL_OK(aclrtMemcpy(h, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

/* ---- values and the reference --------------------------------------------------------- */

static size_t esize(HcclDataType t) {
  switch (t) {
  case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: case HCCL_DATA_TYPE_HIF8: case HCCL_DATA_TYPE_FP8E4M3:
  case HCCL_DATA_TYPE_FP8E5M2: case HCCL_DATA_TYPE_FP8E8M0: return 1;
  case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16: return 2;
  case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32: return 4;
  default: return 8;
  }
}

/* Small integers (-3 .. 3, never 0 so that prod says something): every
 * sum, product, max and min of 4 of them is exact in every type. */
static int value_of(uint32_t rank, uint64_t i) { return (int)((rank * 5 + i * 3) % 7) - 3 ?: 2; }

static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0 ? ldexp(m, -24) : ldexp(m | 0x400, e - 25);
  return (h & 0x8000) ? -v : v;
}
static uint16_t double_to_half(double d) { /* exact for the small integers used */
  if (d == 0)
    return 0;
  uint16_t s = d < 0 ? 0x8000 : 0;
  d = fabs(d);
  int e;
  double f = frexp(d, &e); /* d = f * 2^e, f in [0.5, 1) */
  return s | (uint16_t)((e + 14) << 10) | (uint16_t)((uint32_t)ldexp(f, 11) & 0x3ff);
}
static double bf16_to_double(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}
static uint16_t double_to_bf16(double d) {
  float f = (float)d;
  uint32_t x;
  memcpy(&x, &f, 4);
  return (uint16_t)(x >> 16);
}

static void put(void *buf, uint64_t i, HcclDataType t, double v) {
  switch (t) {
  case HCCL_DATA_TYPE_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
  case HCCL_DATA_TYPE_INT16: ((int16_t *)buf)[i] = (int16_t)v; break;
  case HCCL_DATA_TYPE_INT32: ((int32_t *)buf)[i] = (int32_t)v; break;
  case HCCL_DATA_TYPE_INT64: ((int64_t *)buf)[i] = (int64_t)v; break;
  case HCCL_DATA_TYPE_UINT64: ((uint64_t *)buf)[i] = (uint64_t)(int64_t)v; break;
  case HCCL_DATA_TYPE_FP16: ((uint16_t *)buf)[i] = double_to_half(v); break;
  case HCCL_DATA_TYPE_BFP16: ((uint16_t *)buf)[i] = double_to_bf16(v); break;
  case HCCL_DATA_TYPE_FP32: ((float *)buf)[i] = (float)v; break;
  case HCCL_DATA_TYPE_FP64: ((double *)buf)[i] = v; break;
  default: CHECK(0);
  }
}

static double get(const void *buf, uint64_t i, HcclDataType t) {
  switch (t) {
  case HCCL_DATA_TYPE_INT8: return ((const int8_t *)buf)[i];
  case HCCL_DATA_TYPE_INT16: return ((const int16_t *)buf)[i];
  case HCCL_DATA_TYPE_INT32: return ((const int32_t *)buf)[i];
  case HCCL_DATA_TYPE_INT64: return (double)((const int64_t *)buf)[i];
  case HCCL_DATA_TYPE_UINT64: return (double)(int64_t)((const uint64_t *)buf)[i];
  case HCCL_DATA_TYPE_FP16: return half_to_double(((const uint16_t *)buf)[i]);
  case HCCL_DATA_TYPE_BFP16: return bf16_to_double(((const uint16_t *)buf)[i]);
  case HCCL_DATA_TYPE_FP32: return ((const float *)buf)[i];
  case HCCL_DATA_TYPE_FP64: return ((const double *)buf)[i];
  default: CHECK(0); return 0;
  }
}

/* The reduction over ranks 0 .. n-1 of value_of(rank, i). */
static double reference(uint32_t n, uint64_t i, HcclReduceOp op, int shift) {
  double acc = value_of(0, i) + shift;
  for (uint32_t r = 1; r < n; r++) {
    double v = value_of(r, i) + shift;
    acc = op == HCCL_REDUCE_SUM ? acc + v : op == HCCL_REDUCE_PROD ? acc * v : op == HCCL_REDUCE_MAX ? fmax(acc, v)
                                                                                                     : fmin(acc, v);
  }
  return acc;
}

static const HcclDataType reducible[] = {HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32,
                                         HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_FP16,
                                         HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP64, HCCL_DATA_TYPE_BFP16};
static const HcclReduceOp ops[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
#define NREDUCIBLE (sizeof(reducible) / sizeof(reducible[0]))

static int prod_refused(HcclDataType t, HcclReduceOp op) {
  return op == HCCL_REDUCE_PROD && (t == HCCL_DATA_TYPE_INT16 || t == HCCL_DATA_TYPE_BFP16);
}

/* ---- reductions: every type and op ------------------------------------------------------ */

enum { RED_ALLREDUCE, RED_REDUCE, RED_REDUCESCATTER, RED_REDUCESCATTERV };

typedef struct {
  int kind;
  uint64_t count; /* per block */
} red_case;

static void reductions_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  int kind = ((red_case *)arg)->kind;
  const uint64_t count = ((red_case *)arg)->count;
  for (size_t ti = 0; ti < NREDUCIBLE; ti++)
    for (size_t oi = 0; oi < 4; oi++) {
      HcclDataType t = reducible[ti];
      HcclReduceOp op = ops[oi];
      size_t es = esize(t);
      uint64_t in_n = kind == RED_REDUCESCATTER || kind == RED_REDUCESCATTERV ? count * n : count;
      void *hin = malloc(in_n * es), *hout = malloc(count * es);
      int shift = t == HCCL_DATA_TYPE_UINT64 ? 4 : 0; /* unsigned: 1 .. 7 */
      for (uint64_t i = 0; i < in_n; i++)
        put(hin, i, t, value_of(rank, i) + shift);
      void *din = dev_alloc(in_n * es), *dout = dev_alloc(count * es);
      to_dev(din, hin, in_n * es);
      ACL_OK(aclrtMemset(dout, count * es, 0, count * es));
      HcclResult rc;
      uint64_t counts[16], displs[16];
      for (uint32_t p = 0; p < n; p++)
        counts[p] = count, displs[p] = p * count;
      switch (kind) {
      case RED_ALLREDUCE: rc = HcclAllReduce(din, dout, count, t, op, comm, s); break;
      case RED_REDUCE: rc = HcclReduce(din, dout, count, t, op, 1, comm, s); break;
      case RED_REDUCESCATTER: rc = HcclReduceScatter(din, dout, count, t, op, comm, s); break;
      default: rc = HcclReduceScatterV(din, counts, displs, dout, count, t, op, comm, s); break;
      }
      if (prod_refused(t, op)) {
        CHECK_INT_EQ(rc, HCCL_E_NOT_SUPPORT);
      } else {
        CHECK_INT_EQ(rc, HCCL_SUCCESS);
        ACL_OK(aclrtSynchronizeStream(s));
        from_dev(hout, dout, count * es);
        if (kind != RED_REDUCE || rank == 1)
          for (uint64_t i = 0; i < count; i++) {
            uint64_t gi = kind == RED_REDUCESCATTER || kind == RED_REDUCESCATTERV ? rank * count + i : i;
            double want = reference(n, gi, op, shift), got = get(hout, i, t);
            if (got != want)
              th_fail(__FILE__, __LINE__, "kind %d type %d op %d rank %u [%llu]: got %g, want %g", kind, (int)t,
                      (int)op, rank, (unsigned long long)i, got, want);
          }
        else
          for (uint64_t i = 0; i < count * es; i++)
            CHECK_INT_EQ(((uint8_t *)hout)[i], 0); /* non-root recvBuf untouched */
      }
      ACL_OK(aclrtFree(din));
      ACL_OK(aclrtFree(dout));
      free(hin), free(hout);
    }
  /* types no reduction takes */
  void *d = dev_alloc(64);
  HcclDataType bad[] = {HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_INT128,
                        HCCL_DATA_TYPE_HIF8, HCCL_DATA_TYPE_FP8E4M3, (HcclDataType)13, HCCL_DATA_TYPE_RESERVED};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    CHECK_INT_EQ(HcclAllReduce(d, d, 2, bad[i], HCCL_REDUCE_SUM, comm, s), HCCL_E_NOT_SUPPORT);
  CHECK_INT_EQ(HcclAllReduce(d, d, 2, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_RESERVED, comm, s), HCCL_E_NOT_SUPPORT);
  ACL_OK(aclrtFree(d));
}

TEST(allreduce_every_type_and_op) {
  red_case c = {RED_ALLREDUCE, 37};
  run_ranks(4, reductions_rank, &c);
}
/* 70001 elements: past the size where AllReduce goes in two phases
 * (reduce-scatter, all-gather) for every type, in chunks that do not divide
 * evenly; 2 and 3 ranks (4 above) */
TEST(allreduce_two_phase_every_type_and_op_2) {
  red_case c = {RED_ALLREDUCE, 70001};
  run_ranks(2, reductions_rank, &c);
}
TEST(allreduce_two_phase_every_type_and_op_3) {
  red_case c = {RED_ALLREDUCE, 70001};
  run_ranks(3, reductions_rank, &c);
}
TEST(reduce_every_type_and_op) {
  red_case c = {RED_REDUCE, 37};
  run_ranks(3, reductions_rank, &c);
}
TEST(reducescatter_every_type_and_op) {
  red_case c = {RED_REDUCESCATTER, 37};
  run_ranks(4, reductions_rank, &c);
}
TEST(reducescatter_large_every_type_and_op) {
  red_case c = {RED_REDUCESCATTER, 20011};
  run_ranks(3, reductions_rank, &c);
}
TEST(reducescatterv_every_type_and_op) {
  red_case c = {RED_REDUCESCATTERV, 37};
  run_ranks(2, reductions_rank, &c);
}

/* ---- data movement: every type (bytes moved as they are) -------------------------------------- */

static const HcclDataType movable[] = {
    HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32,
    HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32,
    HCCL_DATA_TYPE_FP64, HCCL_DATA_TYPE_BFP16, HCCL_DATA_TYPE_HIF8, HCCL_DATA_TYPE_FP8E4M3, HCCL_DATA_TYPE_FP8E5M2,
    HCCL_DATA_TYPE_FP8E8M0};
#define NMOVABLE (sizeof(movable) / sizeof(movable[0]))

static uint8_t byte_of(uint32_t rank, uint64_t i) { return (uint8_t)(rank * 61 + i * 7 + 1); }

enum { MV_BROADCAST, MV_ALLGATHER, MV_SCATTER, MV_ALLTOALL, MV_ALLTOALLV, MV_ALLTOALLVC, MV_ALLGATHERV };

typedef struct {
  int kind;
  uint64_t count; /* per block */
} mv_case;

static void movement_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  int kind = ((mv_case *)arg)->kind;
  const uint64_t count = ((mv_case *)arg)->count;
  const uint32_t root = n - 1;
  for (size_t ti = 0; ti < NMOVABLE; ti++) {
    HcclDataType t = movable[ti];
    size_t es = esize(t), B = count * es;
    uint64_t in_b = kind == MV_BROADCAST || kind == MV_ALLGATHER || kind == MV_ALLGATHERV ? B : n * B;
    uint64_t out_b = kind == MV_BROADCAST || kind == MV_SCATTER ? B : n * B;
    uint8_t *hin = malloc(in_b), *hout = malloc(out_b), *want = malloc(out_b);
    for (uint64_t i = 0; i < in_b; i++)
      hin[i] = byte_of(rank, i);
    void *din = dev_alloc(in_b), *dout = dev_alloc(out_b);
    to_dev(din, hin, in_b);
    uint64_t c[16], d[16], m[256];
    for (uint32_t p = 0; p < n; p++)
      c[p] = count, d[p] = p * count;
    for (uint32_t p = 0; p < n * n; p++)
      m[p] = count;
    switch (kind) {
    case MV_BROADCAST:
      HCCL_OK(HcclBroadcast(din, count, t, root, comm, s));
      dout = din;
      for (uint64_t i = 0; i < B; i++)
        want[i] = byte_of(root, i);
      break;
    case MV_ALLGATHER:
    case MV_ALLGATHERV:
      if (kind == MV_ALLGATHER)
        HCCL_OK(HcclAllGather(din, dout, count, t, comm, s));
      else
        HCCL_OK(HcclAllGatherV(din, count, dout, c, d, t, comm, s));
      for (uint32_t p = 0; p < n; p++)
        for (uint64_t i = 0; i < B; i++)
          want[p * B + i] = byte_of(p, i);
      break;
    case MV_SCATTER:
      HCCL_OK(HcclScatter(rank == root ? din : NULL, dout, count, t, root, comm, s));
      for (uint64_t i = 0; i < B; i++)
        want[i] = byte_of(root, rank * B + i);
      break;
    default:
      if (kind == MV_ALLTOALL)
        HCCL_OK(HcclAlltoAll(din, count, t, dout, count, t, comm, s));
      else if (kind == MV_ALLTOALLV)
        HCCL_OK(HcclAlltoAllV(din, c, d, t, dout, c, d, t, comm, s));
      else
        HCCL_OK(HcclAlltoAllVC(din, m, t, dout, t, comm, s));
      for (uint32_t p = 0; p < n; p++) /* block p comes from rank p: its block `rank` */
        for (uint64_t i = 0; i < B; i++)
          want[p * B + i] = byte_of(p, rank * B + i);
      break;
    }
    ACL_OK(aclrtSynchronizeStream(s));
    from_dev(hout, dout, out_b);
    for (uint64_t i = 0; i < out_b; i++)
      if (hout[i] != want[i])
        th_fail(__FILE__, __LINE__, "kind %d type %d rank %u byte %llu: got %u, want %u", kind, (int)t, rank,
                (unsigned long long)i, hout[i], want[i]);
    ACL_OK(aclrtFree(din));
    if (dout != din)
      ACL_OK(aclrtFree(dout));
    free(hin), free(hout), free(want);
  }
}

#define MOVEMENT_TEST(name, k, nranks, cnt)        \
  TEST(name) {                                     \
    mv_case c = {k, cnt};                          \
    run_ranks(nranks, movement_rank, &c);          \
  }
MOVEMENT_TEST(broadcast_every_type, MV_BROADCAST, 4, 11)
MOVEMENT_TEST(allgather_every_type, MV_ALLGATHER, 3, 11)
MOVEMENT_TEST(allgatherv_every_type, MV_ALLGATHERV, 4, 11)
MOVEMENT_TEST(scatter_every_type, MV_SCATTER, 4, 11)
MOVEMENT_TEST(alltoall_every_type, MV_ALLTOALL, 4, 11)
MOVEMENT_TEST(alltoallv_every_type, MV_ALLTOALLV, 3, 11)
MOVEMENT_TEST(alltoallvc_every_type, MV_ALLTOALLVC, 2, 11)
/* blocks of about 100 KB and more: messages straight between device memories */
MOVEMENT_TEST(broadcast_large_every_type, MV_BROADCAST, 3, 100003)
MOVEMENT_TEST(allgather_large_every_type, MV_ALLGATHER, 4, 30011)
MOVEMENT_TEST(alltoall_large_every_type, MV_ALLTOALL, 3, 30011)

/* Uneven all-to-all-v: rank r sends (r + p) % 3 elements to p, at spread-out displacements. */
static void alltoallv_uneven_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  uint64_t sc[8], sd[8], rc[8], rd[8], so = 0, ro = 0;
  for (uint32_t p = 0; p < n; p++) {
    sc[p] = (rank + p) % 3;
    sd[p] = so + 1; /* a gap of one element */
    so = sd[p] + sc[p];
    rc[p] = (p + rank) % 3;
    rd[p] = ro;
    ro += rc[p];
  }
  int32_t *hin = calloc(so + 1, 4), *hout = calloc(ro + 1, 4);
  for (uint32_t p = 0; p < n; p++)
    for (uint64_t i = 0; i < sc[p]; i++)
      hin[sd[p] + i] = (int32_t)(rank * 1000 + p * 10 + i);
  void *din = dev_alloc(so * 4 + 4), *dout = dev_alloc(ro * 4 + 4);
  to_dev(din, hin, so * 4);
  HCCL_OK(HcclAlltoAllV(din, sc, sd, HCCL_DATA_TYPE_INT32, dout, rc, rd, HCCL_DATA_TYPE_INT32, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(hout, dout, ro * 4);
  for (uint32_t p = 0; p < n; p++)
    for (uint64_t i = 0; i < rc[p]; i++)
      CHECK_INT_EQ(hout[rd[p] + i], p * 1000 + rank * 10 + i);
  ACL_OK(aclrtFree(din));
  ACL_OK(aclrtFree(dout));
  free(hin), free(hout);
}
TEST(alltoallv_uneven) { run_ranks(4, alltoallv_uneven_rank, NULL); }

/* ---- in place ------------------------------------------------------------------------------ */

static void inplace_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  const size_t C = arg != NULL ? *(size_t *)arg : 5;
  float *h = malloc(16 * C * 4), *out = malloc(16 * C * 4);
  float *d = dev_alloc(n * C * 4);
  /* AllReduce with sendBuf == recvBuf */
  for (size_t i = 0; i < C; i++)
    h[i] = (float)(rank + i);
  to_dev(d, h, C * 4);
  HCCL_OK(HcclAllReduce(d, d, C, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  /* Reduce in place, root 0 */
  HCCL_OK(HcclReduce(d, d, C, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, 0, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d, C * 4);
  for (size_t i = 0; i < C; i++)
    CHECK(out[i] == (float)(n * (n - 1) / 2 + n * i));
  /* AllGather, NCCL-style: sendBuf is block `rank` of recvBuf */
  for (size_t i = 0; i < C; i++)
    h[rank * C + i] = (float)(rank * 100 + i);
  to_dev(d + rank * C, h + rank * C, C * 4);
  HCCL_OK(HcclAllGather(d + rank * C, d, C, HCCL_DATA_TYPE_FP32, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d, n * C * 4);
  for (uint32_t p = 0; p < n; p++)
    for (size_t i = 0; i < C; i++)
      CHECK(out[p * C + i] == (float)(p * 100 + i));
  /* ReduceScatter, NCCL-style: recvBuf is block `rank` of sendBuf */
  HCCL_OK(HcclReduceScatter(d, d + rank * C, C, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d + rank * C, C * 4);
  for (size_t i = 0; i < C; i++)
    CHECK(out[i] == (float)n * (float)(rank * 100 + i));
  /* AllGather with sendBuf == recvBuf: block 0, which rank 0 sends to it */
  for (size_t i = 0; i < C; i++)
    h[i] = (float)(rank * 100 + i);
  to_dev(d, h, C * 4);
  HCCL_OK(HcclAllGather(d, d, C, HCCL_DATA_TYPE_FP32, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d, n * C * 4);
  for (uint32_t p = 0; p < n; p++)
    for (size_t i = 0; i < C; i++)
      CHECK(out[p * C + i] == (float)(p * 100 + i));
  ACL_OK(aclrtFree(d));
  free(h), free(out);
}
TEST(in_place) { run_ranks(4, inplace_rank, NULL); }
/* 40000 floats: the two-phase AllReduce, and messages to and from device memory */
TEST(in_place_large) {
  size_t c = 40000;
  run_ranks(3, inplace_rank, &c);
}
/* OPENACL_HCCL_ZERO_COPY=0: every message staged through host memory */
TEST(in_place_large_staged) {
  size_t c = 40000;
  setenv("OPENACL_HCCL_ZERO_COPY", "0", 1);
  run_ranks(2, inplace_rank, &c);
  mv_case m = {MV_ALLTOALL, 30011};
  run_ranks(2, movement_rank, &m);
  unsetenv("OPENACL_HCCL_ZERO_COPY");
}

/* ---- point to point, batch, barrier ----------------------------------------------------------- */

static void p2p_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  int64_t h[8], out[8];
  int64_t *d = dev_alloc(sizeof(h)), *r = dev_alloc(sizeof(h));
  for (int i = 0; i < 8; i++)
    h[i] = rank * 10 + i;
  to_dev(d, h, sizeof(h));
  /* the guide's pairing: even ranks send then receive, odd ranks receive then send */
  uint32_t peer = rank ^ 1;
  if (peer < n) {
    if (rank % 2 == 0) {
      HCCL_OK(HcclSend(d, 8, HCCL_DATA_TYPE_INT64, peer, comm, s));
      HCCL_OK(HcclRecv(r, 8, HCCL_DATA_TYPE_INT64, peer, comm, s));
    } else {
      HCCL_OK(HcclRecv(r, 8, HCCL_DATA_TYPE_INT64, peer, comm, s));
      HCCL_OK(HcclSend(d, 8, HCCL_DATA_TYPE_INT64, peer, comm, s));
    }
    ACL_OK(aclrtSynchronizeStream(s));
    from_dev(out, r, sizeof(out));
    for (int i = 0; i < 8; i++)
      CHECK_INT_EQ(out[i], peer * 10 + i);
  }
  /* a batch in any order: receive from the left, send to the right, and a
   * send / receive pair with self */
  int64_t *self = dev_alloc(sizeof(h));
  HcclSendRecvItem items[3] = {
      {HCCL_RECV, r, 8, HCCL_DATA_TYPE_INT64, (rank + n - 1) % n},
      {HCCL_SEND, d, 8, HCCL_DATA_TYPE_INT64, (rank + 1) % n},
  };
  HCCL_OK(HcclBatchSendRecv(items, 2, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, r, sizeof(out));
  for (int i = 0; i < 8; i++)
    CHECK_INT_EQ(out[i], ((rank + n - 1) % n) * 10 + i);
  items[0] = (HcclSendRecvItem){HCCL_SEND, d, 8, HCCL_DATA_TYPE_INT64, rank};
  items[1] = (HcclSendRecvItem){HCCL_RECV, self, 8, HCCL_DATA_TYPE_INT64, rank};
  HCCL_OK(HcclBatchSendRecv(items, 2, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, self, sizeof(out));
  for (int i = 0; i < 8; i++)
    CHECK_INT_EQ(out[i], rank * 10 + i);
  /* validation */
  items[0] = (HcclSendRecvItem){HCCL_SEND, d, 8, HCCL_DATA_TYPE_INT64, (rank + 1) % n};
  items[1] = items[0];
  CHECK_INT_EQ(HcclBatchSendRecv(items, 2, comm, s), HCCL_E_PARA); /* two sends to one peer */
  CHECK_INT_EQ(HcclBatchSendRecv(items, 0, comm, s), HCCL_E_PARA);
  items[1] = (HcclSendRecvItem){(HcclSendRecvType)7, d, 8, HCCL_DATA_TYPE_INT64, 0};
  CHECK_INT_EQ(HcclBatchSendRecv(items, 2, comm, s), HCCL_E_PARA);
  items[1] = (HcclSendRecvItem){HCCL_RECV, NULL, 8, HCCL_DATA_TYPE_INT64, 0};
  CHECK_INT_EQ(HcclBatchSendRecv(items, 2, comm, s), HCCL_E_PTR);
  items[0] = (HcclSendRecvItem){HCCL_SEND, d, 8, HCCL_DATA_TYPE_INT64, rank};
  CHECK_INT_EQ(HcclBatchSendRecv(items, 1, comm, s), HCCL_E_PARA); /* self send with no self receive */
  items[0].remoteRank = n;
  CHECK_INT_EQ(HcclBatchSendRecv(items, 1, comm, s), HCCL_E_PARA);
  /* barriers */
  for (int i = 0; i < 3; i++)
    HCCL_OK(HcclBarrier(comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  ACL_OK(aclrtFree(d));
  ACL_OK(aclrtFree(r));
  ACL_OK(aclrtFree(self));
}
TEST(send_recv_batch_barrier) { run_ranks(4, p2p_rank, NULL); }

/* ---- argument checks --------------------------------------------------------------------------- */

static void args_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  float *d = dev_alloc(64 * 4), host[64];
  /* zero counts succeed at once, before any pointer is looked at */
  HCCL_OK(HcclAllReduce(NULL, NULL, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, NULL));
  HCCL_OK(HcclBroadcast(NULL, 0, HCCL_DATA_TYPE_FP32, 0, NULL, NULL));
  HCCL_OK(HcclSend(NULL, 0, HCCL_DATA_TYPE_FP32, 0, NULL, NULL));
  HCCL_OK(HcclAlltoAll(NULL, 0, HCCL_DATA_TYPE_FP32, NULL, 0, HCCL_DATA_TYPE_FP32, NULL, NULL));
  /* NULLs */
  CHECK_INT_EQ(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, s), HCCL_E_PTR);
  CHECK_INT_EQ(HcclAllReduce(NULL, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s), HCCL_E_PTR);
  CHECK_INT_EQ(HcclReduce(d, NULL, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 0, comm, s), HCCL_E_PTR);
  CHECK_INT_EQ(HcclBarrier(comm, NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclBarrier(NULL, s), HCCL_E_PTR);
  /* counts, roots, peers */
  CHECK_INT_EQ(HcclAllReduce(d, d, 0x800000000ull, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclBroadcast(d, 4, HCCL_DATA_TYPE_FP32, n, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, n + 5, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclSend(d, 4, HCCL_DATA_TYPE_FP32, n, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclSend(d, 4, HCCL_DATA_TYPE_FP32, rank, comm, s), HCCL_E_NOT_SUPPORT);
  CHECK_INT_EQ(HcclRecv(d, 4, HCCL_DATA_TYPE_FP32, rank, comm, s), HCCL_E_NOT_SUPPORT);
  CHECK_INT_EQ(HcclBroadcast(d, 4, HCCL_DATA_TYPE_INT128, 0, comm, s), HCCL_E_NOT_SUPPORT);
  /* all-to-all rules */
  CHECK_INT_EQ(HcclAlltoAll(d, 2, HCCL_DATA_TYPE_FP32, d, 2, HCCL_DATA_TYPE_FP32, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclAlltoAll(d, 2, HCCL_DATA_TYPE_FP32, d + 32, 3, HCCL_DATA_TYPE_FP32, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclAlltoAll(d, 2, HCCL_DATA_TYPE_FP32, d + 32, 2, HCCL_DATA_TYPE_INT32, comm, s), HCCL_E_PARA);
  /* buffers must be device memory of the rank's device, large enough */
  CHECK_INT_EQ(HcclAllReduce(host, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s), HCCL_E_PARA);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "sendBuf");
  CHECK_INT_EQ(HcclAllReduce(d, d, 65, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s), HCCL_E_PARA);
  CHECK_INT_EQ(HcclAllGather(d, d, 64, HCCL_DATA_TYPE_FP32, comm, s), HCCL_E_PARA); /* recvBuf too small */
  /* a destroyed or foreign handle */
  int not_a_comm = 0;
  CHECK_INT_EQ(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, &not_a_comm, s), HCCL_E_PARA);
  uint32_t v;
  CHECK_INT_EQ(HcclGetRankSize(&not_a_comm, &v), HCCL_E_PARA);
  CHECK_INT_EQ(HcclGetRankSize(comm, NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclGetRankId(NULL, &v), HCCL_E_PTR);
  /* names */
  char name[COMM_NAME_MAX_LENGTH];
  HCCL_OK(HcclGetCommName(comm, name));
  CHECK(strlen(name) > 0);
  HcclComm found = NULL;
  HCCL_OK(HcclCommGetHandleWithName(name, &found)); /* one of the ranks' handles of that name */
  CHECK(found != NULL);
  CHECK_INT_EQ(HcclCommGetHandleWithName("no such communicator", &found), HCCL_E_NOT_FOUND);
  HcclCommStatus st;
  HCCL_OK(HcclCommGetStatus(name, &st));
  CHECK_INT_EQ(st, HCCL_COMM_STATUS_READY);
  /* suspend refuses operators until resumed */
  HCCL_OK(HcclCommSuspend(comm));
  CHECK_INT_EQ(HcclBarrier(comm, s), HCCL_E_SUSPENDING);
  HCCL_OK(HcclCommResume(comm));
  HcclResult async = HCCL_E_INTERNAL;
  HCCL_OK(HcclGetCommAsyncError(comm, &async));
  CHECK_INT_EQ(async, HCCL_SUCCESS);
  HcclConfigTypeOpExpansionMode mode;
  HCCL_OK(HcclConfigGetInfo(comm, HCCL_CONFIG_TYPE_OP_EXPANSION_MODE, sizeof(mode), &mode));
  ACL_OK(aclrtFree(d));
}
TEST(argument_checks) { run_ranks(2, args_rank, NULL); }

TEST(process_wide_functions) {
  CHECK_STR_EQ(HcclGetErrorString(HCCL_SUCCESS), "no error");
  CHECK_STR_EQ(HcclGetErrorString(HCCL_E_PARA), "parameter error");
  CHECK_STR_EQ(HcclGetErrorString(HCCL_E_OOM), "out of memory");
  CHECK_STR_EQ(HcclGetErrorString((HcclResult)-1), "unknown error");
  CHECK_STR_EQ(HcclGetErrorString(HCCL_E_RESERVED), "unknown error");
  CHECK_INT_EQ(HcclGetCommConfigCapability(), 12);
  HcclConfigValue v = {1};
  HCCL_OK(HcclSetConfig(HCCL_DETERMINISTIC, v));
  v.value = 0;
  HCCL_OK(HcclGetConfig(HCCL_DETERMINISTIC, &v));
  CHECK_INT_EQ(v.value, 1);
  v.value = 3;
  CHECK_INT_EQ(HcclSetConfig(HCCL_DETERMINISTIC, v), HCCL_E_PARA);
  CHECK_INT_EQ(HcclGetConfig(HCCL_DETERMINISTIC, NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclGetRootInfo(NULL), HCCL_E_PTR);
  HCCL_OK(HcclCommDestroy(NULL));
  bool on = true;
  HCCL_OK(HcclGroupStatusGet(&on));
  CHECK(!on);
  CHECK_INT_EQ(HcclGroupEnd(), HCCL_E_PARA);
  CHECK_INT_EQ(HcclGroupStatusGet(NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclCommRegCommStateCallback("x", NULL, NULL), HCCL_E_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "HcclCommRegCommStateCallback");
  CHECK_INT_EQ(HcclCommSymWinRegister(NULL, NULL, 0, NULL, 0), HCCL_E_NOT_SUPPORT);
  CHECK_INT_EQ(HcclCommSetMemoryRange(NULL, NULL, 0, 0, 0), HCCL_E_NOT_SUPPORT);
  /* HcclCommConfigInit */
  HcclCommConfig cfg;
  memset(&cfg, 0x5a, sizeof(cfg));
  HcclCommConfigInit(&cfg);
  HcclCommConfigInit(NULL);
  CHECK_INT_EQ(sizeof(HcclCommConfig), 2248);
  CHECK_INT_EQ(((HcclConfigInfo *)(void *)&cfg)->size, sizeof(HcclCommConfig));
  CHECK_INT_EQ(((HcclConfigInfo *)(void *)&cfg)->magicWord, 0xf0f0f0f0u);
  CHECK_INT_EQ(((HcclConfigInfo *)(void *)&cfg)->version, 11);
  CHECK_INT_EQ(cfg.hcclBufferSize, 0xffffffffu);
  CHECK_INT_EQ(cfg.hcclExecTimeOut, -1);
  CHECK_INT_EQ(cfg.hcclSymWinMaxMemSizePerRank, 16);
  CHECK_INT_EQ(cfg.hcclCommName[0], 0);
}

TEST(init_checks) {
  ACL_OK(aclInit(NULL));
  ACL_OK(aclrtSetDevice(0));
  HcclRootInfo root, junk;
  HCCL_OK(HcclGetRootInfo(&root));
  memset(&junk, 0x11, sizeof(junk));
  HcclComm comm = NULL;
  CHECK_INT_EQ(HcclCommInitRootInfo(2, NULL, 0, &comm), HCCL_E_PTR);
  CHECK_INT_EQ(HcclCommInitRootInfo(2, &root, 0, NULL), HCCL_E_PTR);
  CHECK_INT_EQ(HcclCommInitRootInfo(0, &root, 0, &comm), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCommInitRootInfo(2, &root, 2, &comm), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCommInitRootInfo(2, &junk, 0, &comm), HCCL_E_PARA);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "root info");
  HcclCommConfig cfg;
  HcclCommConfigInit(&cfg);
  ((HcclConfigInfo *)(void *)&cfg)->magicWord = 0;
  CHECK_INT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &comm), HCCL_E_PARA);
  HcclCommConfigInit(&cfg);
  cfg.hcclDeterministic = 3;
  CHECK_INT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &comm), HCCL_E_PARA);
  HcclCommConfigInit(&cfg);
  cfg.hcclBufferSize = 0;
  CHECK_INT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &comm), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, NULL, &comm), HCCL_E_PTR);
  /* a one-rank communicator with a name, and operators on it */
  HcclCommConfigInit(&cfg);
  strcpy(cfg.hcclCommName, "solo");
  HCCL_OK(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &comm));
  char name[COMM_NAME_MAX_LENGTH];
  HCCL_OK(HcclGetCommName(comm, name));
  CHECK_STR_EQ(name, "solo");
  aclrtStream s;
  ACL_OK(aclrtCreateStream(&s));
  float h[4] = {1, 2, 3, 4}, out[4];
  float *d = dev_alloc(16);
  to_dev(d, h, 16);
  HCCL_OK(HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_PROD, comm, s));
  HCCL_OK(HcclBarrier(comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d, 16);
  CHECK(out[3] == 4);
  /* HcclCommInitAll checks */
  int32_t devs[2] = {0, 0};
  HcclComm two[2];
  CHECK_INT_EQ(HcclCommInitAll(2, devs, two), HCCL_E_PARA);
  devs[1] = 999;
  CHECK_INT_EQ(HcclCommInitAll(2, devs, two), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCommInitAll(0, devs, two), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCommInitAll(2, NULL, two), HCCL_E_PTR);
  ACL_OK(aclrtFree(d));
  ACL_OK(aclrtDestroyStream(s));
  HCCL_OK(HcclCommDestroy(comm));
  CHECK_INT_EQ(HcclGetRankId(comm, (uint32_t *)h), HCCL_E_PARA); /* destroyed */
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
}

/* ---- HcclCommInitAll (pattern D): one thread per communicator ------------------------------------ */

static HcclComm g_all[4];
static void *initall_thread(void *arg) {
  uint32_t r = (uint32_t)(uintptr_t)arg;
  ACL_OK(aclrtSetDevice((int32_t)r));
  aclrtStream s;
  ACL_OK(aclrtCreateStream(&s));
  int32_t h[3] = {(int32_t)r, 1, -(int32_t)r}, out[3];
  int32_t *d = dev_alloc(12);
  to_dev(d, h, 12);
  HCCL_OK(HcclAllReduce(d, d, 3, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MIN, g_all[r], s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(out, d, 12);
  CHECK_INT_EQ(out[0], 0);
  CHECK_INT_EQ(out[1], 1);
  CHECK_INT_EQ(out[2], -3);
  ACL_OK(aclrtFree(d));
  ACL_OK(aclrtDestroyStream(s));
  HCCL_OK(HcclCommDestroy(g_all[r]));
  return NULL;
}
TEST(init_all) {
  ACL_OK(aclInit(NULL));
  int32_t devs[4] = {0, 1, 2, 3};
  for (int i = 0; i < 4; i++)
    ACL_OK(aclrtSetDevice(i));
  HCCL_OK(HcclCommInitAll(4, devs, g_all));
  pthread_t th[4];
  for (uintptr_t i = 0; i < 4; i++)
    pthread_create(&th[i], NULL, initall_thread, (void *)i);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < 4; i++)
    ACL_OK(aclrtResetDevice(i));
  ACL_OK(aclFinalize());
}

/* ---- stream order and events ------------------------------------------------------------------------- */

static void slow_fn(void *arg) {
  (void)arg;
  usleep(200000);
}

static void order_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  enum { C = 256 };
  float h[C], out[C];
  float *in = dev_alloc(C * 4), *res = dev_alloc(C * 4), *copy = dev_alloc(C * 4);
  for (int i = 0; i < C; i++)
    h[i] = (float)(rank + i);
  aclrtStream s2;
  ACL_OK(aclrtCreateStream(&s2));
  aclrtEvent ev;
  ACL_OK(aclrtCreateEvent(&ev));
  ACL_OK(aclrtMemsetAsync(res, C * 4, 0xff, C * 4, s));
  ACL_OK(aclrtLaunchHostFunc(s, slow_fn, NULL));
  ACL_OK(aclrtMemcpyAsync(in, C * 4, h, C * 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  HCCL_OK(HcclAllReduce(in, res, C, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  CHECK((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 150); /* queued, not run */
  ACL_OK(aclrtMemsetAsync(in, C * 4, 0, C * 4, s)); /* after the collective: must not change its input */
  ACL_OK(aclrtRecordEvent(ev, s));
  ACL_OK(aclrtStreamWaitEvent(s2, ev));
  ACL_OK(aclrtMemcpyAsync(copy, C * 4, res, C * 4, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  ACL_OK(aclrtSynchronizeStream(s2));
  ACL_OK(aclrtSynchronizeEvent(ev));
  from_dev(out, copy, C * 4);
  for (int i = 0; i < C; i++)
    CHECK(out[i] == (float)(n * (n - 1) / 2 + n * i));
  ACL_OK(aclrtDestroyEvent(ev));
  ACL_OK(aclrtDestroyStream(s2));
  ACL_OK(aclrtFree(in));
  ACL_OK(aclrtFree(res));
  ACL_OK(aclrtFree(copy));
}
TEST(stream_order_and_events) { run_ranks(3, order_rank, NULL); }

/* ---- a rank that never comes --------------------------------------------------------------------------- */

static void stall_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  float *d = dev_alloc(64);
  ACL_OK(aclrtMemset(d, 64, 0, 64));
  if (rank != n - 1) {
    HCCL_OK(HcclAllReduce(d, d, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    char want[32];
    snprintf(want, sizeof(want), "peer rank %u", n - 1);
    CHECK_STR_HAS(aclGetRecentErrMsg(), want);
    CHECK(t1.tv_sec - t0.tv_sec < 10);
    HcclResult async;
    HCCL_OK(HcclGetCommAsyncError(comm, &async));
    CHECK_INT_EQ(async, HCCL_E_TIMEOUT);
  }
  ACL_OK(aclrtFree(d));
}
TEST(exec_timeout_names_the_peer) {
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  run_ranks(3, stall_rank, NULL);
}

static void *join_one(void *arg) {
  HcclRootInfo *root = arg;
  ACL_OK(aclrtSetDevice(1));
  HcclComm comm = NULL;
  CHECK_INT_EQ(HcclCommInitRootInfo(3, root, 1, &comm), HCCL_E_TIMEOUT);
  return NULL;
}
TEST(connect_timeout_names_the_missing_rank) {
  setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
  ACL_OK(aclInit(NULL));
  ACL_OK(aclrtSetDevice(0));
  HcclRootInfo root;
  HCCL_OK(HcclGetRootInfo(&root));
  pthread_t th;
  pthread_create(&th, NULL, join_one, &root);
  HcclComm comm = NULL;
  CHECK_INT_EQ(HcclCommInitRootInfo(3, &root, 0, &comm), HCCL_E_TIMEOUT);
  const char *msg = aclGetRecentErrMsg();
  CHECK(msg != NULL && (strstr(msg, "ranks 2 of 3") != NULL || strstr(msg, "timed out") != NULL));
  pthread_join(th, NULL);
  ACL_OK(aclFinalize());
}

/* ---- rank tables (pattern C in one process) ------------------------------------------------------------ */

static const char *write_table(const char *name, const char *text) {
  static char path[256];
  snprintf(path, sizeof(path), "%s/hccl_%s_%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name,
           (int)getpid());
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
  return path;
}

static const char *g_table;
static void *table_rank(void *arg) {
  uint32_t r = (uint32_t)(uintptr_t)arg;
  ACL_OK(aclrtSetDevice((int32_t)r));
  HcclComm comm = NULL;
  HcclCommConfig cfg;
  HcclCommConfigInit(&cfg);
  if (r % 2)
    HCCL_OK(HcclCommInitClusterInfoConfig(g_table, r, &cfg, &comm));
  else
    HCCL_OK(HcclCommInitClusterInfo(g_table, r, &comm));
  uint32_t v;
  HCCL_OK(HcclGetRankSize(comm, &v));
  CHECK_INT_EQ(v, 4);
  char name[COMM_NAME_MAX_LENGTH];
  HCCL_OK(HcclGetCommName(comm, name));
  CHECK_STR_EQ(name, "hccl_world_group");
  aclrtStream s;
  ACL_OK(aclrtCreateStream(&s));
  int32_t h = (int32_t)r + 1, out = 0;
  int32_t *d = dev_alloc(4);
  to_dev(d, &h, 4);
  HCCL_OK(HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_PROD, comm, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(&out, d, 4);
  CHECK_INT_EQ(out, 24);
  ACL_OK(aclrtFree(d));
  ACL_OK(aclrtDestroyStream(s));
  HCCL_OK(HcclCommDestroy(comm));
  return NULL;
}

TEST(rank_table) {
  ACL_OK(aclInit(NULL));
  ACL_OK(aclrtSetDevice(0));
  g_table = write_table("table", "{\"status\": \"completed\", \"version\": \"1.0\", \"server_count\": \"1\",\n"
                        " \"server_list\": [{\"server_id\": \"node_0\", \"device\": [\n"
                        "  {\"device_id\": \"0\", \"device_ip\": \"192.168.1.8\", \"rank_id\": \"0\"},\n"
                        "  {\"device_id\": \"1\", \"device_ip\": \"192.168.1.9\", \"rank_id\": \"1\"},\n"
                        "  {\"device_id\": \"2\", \"device_ip\": \"192.168.1.10\", \"rank_id\": \"2\"},\n"
                        "  {\"device_id\": \"3\", \"device_ip\": \"192.168.1.11\", \"rank_id\": \"3\"}]}]}\n");
  pthread_t th[4];
  for (uintptr_t i = 0; i < 4; i++)
    pthread_create(&th[i], NULL, table_rank, (void *)i);
  for (int i = 0; i < 4; i++)
    pthread_join(th[i], NULL);
  unlink(g_table);
  /* what is refused */
  HcclComm comm = NULL;
  CHECK_INT_EQ(HcclCommInitClusterInfo(NULL, 0, &comm), HCCL_E_PTR);
  CHECK_INT_EQ(HcclCommInitClusterInfo("/nonexistent/rank_table.json", 0, &comm), HCCL_E_OPEN_FILE_FAILURE);
  const char *p = write_table("bad", "{\"status\": \"completed\", \"server_list\": [ // a comment\n]}");
  CHECK_INT_EQ(HcclCommInitClusterInfo(p, 0, &comm), HCCL_E_PARA);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "line 1");
  unlink(p);
  p = write_table("init", "{\"status\": \"initializing\", \"server_list\": []}");
  CHECK_INT_EQ(HcclCommInitClusterInfo(p, 0, &comm), HCCL_E_PARA);
  unlink(p);
  p = write_table("rank", "{\"status\": \"completed\", \"version\": \"2.0\", \"rank_count\": 1, \"rank_list\": "
                  "[{\"rank_id\": 0, \"device_id\": 0, \"local_id\": 0}]}");
  CHECK_INT_EQ(HcclCommInitClusterInfo(p, 1, &comm), HCCL_E_PARA); /* rank 1 is not in it */
  HCCL_OK(HcclCommInitClusterInfo(p, 0, &comm));                  /* a one-rank table, version 2.0 */
  HCCL_OK(HcclCommDestroy(comm));
  unlink(p);
  p = write_table("dup", "{\"status\": \"completed\", \"server_list\": [{\"device\": [{\"device_id\": \"0\", "
                  "\"rank_id\": \"0\"}, {\"device_id\": \"1\", \"rank_id\": \"0\"}]}]}");
  CHECK_INT_EQ(HcclCommInitClusterInfo(p, 0, &comm), HCCL_E_PARA);
  unlink(p);
  ACL_OK(aclFinalize());
}

/* ---- sub-communicators ---------------------------------------------------------------------------------- */

static void sub_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg, (void)n;
  /* odd ranks {1, 3} make sub-communicator 7, even ranks {0, 2} make 8 */
  uint32_t odd[2] = {1, 3}, even[2] = {0, 2};
  uint32_t *ids = rank % 2 ? odd : even;
  HcclComm sub = NULL;
  HCCL_OK(HcclCreateSubCommConfig(&comm, 2, ids, rank % 2 ? 7 : 8, rank / 2, NULL, &sub));
  CHECK(sub != NULL);
  uint32_t v;
  HCCL_OK(HcclGetRankSize(sub, &v));
  CHECK_INT_EQ(v, 2);
  HCCL_OK(HcclGetRankId(sub, &v));
  CHECK_INT_EQ(v, rank / 2);
  char name[COMM_NAME_MAX_LENGTH], want[COMM_NAME_MAX_LENGTH + 16];
  HCCL_OK(HcclGetCommName(comm, name));
  snprintf(want, sizeof(want), "%.100s_sub_%d", name, rank % 2 ? 7 : 8);
  HCCL_OK(HcclGetCommName(sub, name));
  CHECK_STR_EQ(name, want);
  int64_t h = rank, out = -1;
  int64_t *d = dev_alloc(8);
  to_dev(d, &h, 8);
  HCCL_OK(HcclAllReduce(d, d, 1, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_SUM, sub, s));
  ACL_OK(aclrtSynchronizeStream(s));
  from_dev(&out, d, 8);
  CHECK_INT_EQ(out, rank % 2 ? 4 : 2);
  /* one level only; a rank that does not join; bad lists */
  HcclComm sub2 = (HcclComm)1;
  CHECK_INT_EQ(HcclCreateSubCommConfig(&sub, 1, ids, 1, 0, NULL, &sub2), HCCL_E_NOT_SUPPORT);
  HCCL_OK(HcclCreateSubCommConfig(&comm, 0, NULL, 0xFFFFFFFFull, 0, NULL, &sub2));
  CHECK(sub2 == NULL);
  uint32_t unsorted[2] = {3, 1};
  CHECK_INT_EQ(HcclCreateSubCommConfig(&comm, 2, unsorted, 9, 0, NULL, &sub2), HCCL_E_PARA);
  CHECK_INT_EQ(HcclCreateSubCommConfig(&comm, 2, ids, 9, (rank / 2) ^ 1, NULL, &sub2), HCCL_E_PARA);
  ACL_OK(aclrtFree(d));
  HCCL_OK(HcclCommDestroy(sub));
}
TEST(sub_communicators) { run_ranks(4, sub_rank, NULL); }

/* ---- groups: sends and receives that only pair up when issued together ------------------------------------ */

static void group_rank(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream s, void *arg) {
  (void)arg;
  uint32_t right = (rank + 1) % n, left = (rank + n - 1) % n;
  int32_t h[2][4], out[2][4];
  int32_t *d[2], *r[2];
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < 4; i++)
      h[k][i] = (int32_t)(rank * 100 + k * 10 + i);
    d[k] = dev_alloc(16);
    r[k] = dev_alloc(16);
    to_dev(d[k], h[k], 16);
  }
  /* every rank sends first: one by one this would wait for ever (HCCL_EXEC_TIMEOUT) */
  HCCL_OK(HcclGroupStart());
  HCCL_OK(HcclGroupStart()); /* nested: only the outer End issues */
  bool on = false;
  HCCL_OK(HcclGroupStatusGet(&on));
  CHECK(on);
  HCCL_OK(HcclSend(d[0], 4, HCCL_DATA_TYPE_INT32, right, comm, s));
  HCCL_OK(HcclSend(d[1], 4, HCCL_DATA_TYPE_INT32, right, comm, s)); /* a second send to one peer: next batch */
  HCCL_OK(HcclGroupEnd());
  HCCL_OK(HcclRecv(r[0], 4, HCCL_DATA_TYPE_INT32, left, comm, s));
  HCCL_OK(HcclRecv(r[1], 4, HCCL_DATA_TYPE_INT32, left, comm, s));
  HCCL_OK(HcclGroupEnd());
  HCCL_OK(HcclGroupStatusGet(&on));
  CHECK(!on);
  ACL_OK(aclrtSynchronizeStream(s));
  for (int k = 0; k < 2; k++) {
    from_dev(out[k], r[k], 16);
    for (int i = 0; i < 4; i++)
      CHECK_INT_EQ(out[k][i], left * 100 + k * 10 + i);
    ACL_OK(aclrtFree(d[k]));
    ACL_OK(aclrtFree(r[k]));
  }
}
TEST(group_send_recv) { run_ranks(3, group_rank, NULL); }
