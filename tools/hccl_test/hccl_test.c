/*
 * hccl_test.c - the vendor's HCCL performance tool (oam-tools hccl_test,
 * reference §5) on libhccl: one source, built once per operator
 * (HT_OP_<NAME>) into bin/all_reduce_test, bin/broadcast_test, ...
 *
 *   mpirun -n <ranks> ./bin/all_reduce_test -b 8K -e 64M -f 2 -d fp32 -o sum -p 8
 *
 * Each rank drives one device (MPI rank % npus, or the HCCL_TEST_USE_DEVS
 * list).  For each data size the root runs warm-up and timed iterations
 * between two events on one stream, then, when checking is on, refills the
 * input, runs once more and compares with the expected values (reductions:
 * every input 2, so sum 2n, prod 2^n, max and min 2; gathers and all-to-all:
 * rank r's blocks hold r + 1).  The root prints the vendor's table:
 *
 *   data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:
 *
 * alg_bandwidth = bytes / avg_time_us * 1e-3 (GB = 10^9), where bytes is the
 * per-rank buffer (AllReduce, Broadcast, Reduce, all-to-all) or the
 * per-rank block times the rank count (gathers, reduce-scatters, Scatter).
 * Options -z -m -s -t -a (zero copy, symmetric memory, NSLB, device timing,
 * accelerator mode) need hardware and are accepted and ignored.
 */
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

enum { OP_ALLREDUCE, OP_BROADCAST, OP_REDUCE, OP_ALLGATHER, OP_ALLGATHERV, OP_REDUCESCATTER, OP_REDUCESCATTERV,
       OP_SCATTER, OP_ALLTOALL, OP_ALLTOALLV, OP_ALLTOALLVC };
#ifndef HT_OP
#define HT_OP OP_ALLREDUCE
#endif

typedef struct {
  long long minbytes, maxbytes, stepbytes;
  double stepfactor;
  HcclReduceOp op;
  uint32_t root;
  HcclDataType dtype;
  int iters, warmup, check, npus;
} ht_opts;

static const struct {
  const char *name;
  HcclDataType type;
  size_t size;
} ht_types[] = {
    {"int8", HCCL_DATA_TYPE_INT8, 1},       {"int16", HCCL_DATA_TYPE_INT16, 2},
    {"int32", HCCL_DATA_TYPE_INT32, 4},     {"fp16", HCCL_DATA_TYPE_FP16, 2},
    {"fp32", HCCL_DATA_TYPE_FP32, 4},       {"int64", HCCL_DATA_TYPE_INT64, 8},
    {"uint64", HCCL_DATA_TYPE_UINT64, 8},   {"uint8", HCCL_DATA_TYPE_UINT8, 1},
    {"uint16", HCCL_DATA_TYPE_UINT16, 2},   {"uint32", HCCL_DATA_TYPE_UINT32, 4},
    {"fp64", HCCL_DATA_TYPE_FP64, 8},       {"bfp16", HCCL_DATA_TYPE_BFP16, 2},
    {"int128", HCCL_DATA_TYPE_INT128, 16},  {"hif8", HCCL_DATA_TYPE_HIF8, 1},
    {"fp8e4m3", HCCL_DATA_TYPE_FP8E4M3, 1}, {"fp8e5m2", HCCL_DATA_TYPE_FP8E5M2, 1},
    {"fp8e8m0", HCCL_DATA_TYPE_FP8E8M0, 1},
};
#define HT_NTYPES (sizeof(ht_types) / sizeof(ht_types[0]))

static int g_rank, g_size;

static size_t type_size(HcclDataType t) {
  for (size_t i = 0; i < HT_NTYPES; i++)
    if (ht_types[i].type == t)
      return ht_types[i].size;
  return 0;
}

/* "64M" -> 67108864: K, M, G are powers of 1024. -1 when it does not parse. */
static long long parse_bytes(const char *s) {
  char *end;
  double v = strtod(s, &end);
  long long mul = 1;
  if (*end == 'K' || *end == 'k')
    mul = 1024, end++;
  else if (*end == 'M' || *end == 'm')
    mul = 1024 * 1024, end++;
  else if (*end == 'G' || *end == 'g')
    mul = 1024LL * 1024 * 1024, end++;
  if (end == s || *end != '\0' || v < 0)
    return -1;
  return (long long)(v * (double)mul);
}

static void usage(void) {
  if (g_rank == 0)
    printf("usage: mpirun -n <ranks> <test> [-p npus] [-b minbytes] [-e maxbytes] [-i stepbytes | -f stepfactor]\n"
           "       [-o sum|prod|max|min] [-r root] [-d datatype] [-n iters] [-w warmup_iters] [-c 0|1|2] [-h]\n"
           "datatype: int8 int16 int32 fp16 fp32 int64 uint64 uint8 uint16 uint32 fp64 bfp16 int128 hif8 fp8e4m3\n"
           "          fp8e5m2 fp8e8m0 (default fp32); sizes take K, M, G (powers of 1024)\n");
}

static int parse(int argc, char **argv, ht_opts *o) {
  static const struct option longs[] = {
      {"npus", required_argument, 0, 'p'},      {"minbytes", required_argument, 0, 'b'},
      {"maxbytes", required_argument, 0, 'e'},  {"stepbytes", required_argument, 0, 'i'},
      {"stepfactor", required_argument, 0, 'f'}, {"op", required_argument, 0, 'o'},
      {"root", required_argument, 0, 'r'},      {"datatype", required_argument, 0, 'd'},
      {"iters", required_argument, 0, 'n'},     {"warmup_iters", required_argument, 0, 'w'},
      {"check", required_argument, 0, 'c'},     {"zero_copy", required_argument, 0, 'z'},
      {"symmetric_memory", required_argument, 0, 'm'}, {"nslb", required_argument, 0, 's'},
      {"device_time", required_argument, 0, 't'}, {"accelerator", required_argument, 0, 'a'},
      {"help", no_argument, 0, 'h'},            {0, 0, 0, 0}};
  long long step = -1;
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "p:b:e:i:f:o:r:d:n:w:c:z:m:s:t:a:h", longs, NULL)) != -1) {
    switch (c) {
    case 'p': o->npus = atoi(optarg); break;
    case 'b': o->minbytes = parse_bytes(optarg); break;
    case 'e': o->maxbytes = parse_bytes(optarg); break;
    case 'i': step = parse_bytes(optarg); break;
    case 'f': o->stepfactor = atof(optarg); if (o->stepfactor <= 1.0) { if (g_rank == 0) printf("stepfactor must be > 1.0\n"); return -1; } break;
    case 'r': o->root = (uint32_t)atoi(optarg); break;
    case 'n': o->iters = atoi(optarg); break;
    case 'w': o->warmup = atoi(optarg); break;
    case 'c': o->check = atoi(optarg); break;
    case 'z': case 'm': case 's': case 't': case 'a': break; /* hardware features: ignored */
    case 'o':
      if (!strcmp(optarg, "sum")) o->op = HCCL_REDUCE_SUM;
      else if (!strcmp(optarg, "prod")) o->op = HCCL_REDUCE_PROD;
      else if (!strcmp(optarg, "max")) o->op = HCCL_REDUCE_MAX;
      else if (!strcmp(optarg, "min")) o->op = HCCL_REDUCE_MIN;
      else { if (g_rank == 0) printf("invalid op %s\n", optarg); return -1; }
      break;
    case 'd': {
      size_t i = 0;
      while (i < HT_NTYPES && strcmp(ht_types[i].name, optarg) != 0)
        i++;
      if (i == HT_NTYPES) { if (g_rank == 0) printf("invalid datatype %s\n", optarg); return -1; }
      o->dtype = ht_types[i].type;
      break;
    }
    case 'h': usage(); return 1;
    default:
      if (g_rank == 0)
        printf("invalid option\n");
      return -1;
    }
  }
  if (o->minbytes < 0 || o->maxbytes < 0 || o->maxbytes < o->minbytes) {
    if (g_rank == 0)
      printf("maxbytes must not be below minbytes, and sizes must parse\n");
    return -1;
  }
  if (o->iters <= 0 || o->warmup < 0 || o->check < 0 || o->check > 2 || o->root >= (uint32_t)g_size) {
    if (g_rank == 0)
      printf("invalid iters, warmup_iters, check or root\n");
    return -1;
  }
  o->stepbytes = step >= 0 ? step : (o->maxbytes - o->minbytes) / 10;
  return 0;
}

/* ---- values ----------------------------------------------------------------- */

/* v (a small integer) in type t, written to p. */
static void put_value(void *p, HcclDataType t, double v) {
  union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
          float f; double d; } u;
  memset(&u, 0, sizeof(u));
  size_t n = type_size(t);
  switch (t) {
  case HCCL_DATA_TYPE_INT8: u.i8 = (int8_t)v; break;
  case HCCL_DATA_TYPE_INT16: u.i16 = (int16_t)v; break;
  case HCCL_DATA_TYPE_INT32: u.i32 = (int32_t)v; break;
  case HCCL_DATA_TYPE_INT64: u.i64 = (int64_t)v; break;
  case HCCL_DATA_TYPE_UINT8: case HCCL_DATA_TYPE_HIF8: case HCCL_DATA_TYPE_FP8E4M3: case HCCL_DATA_TYPE_FP8E5M2:
  case HCCL_DATA_TYPE_FP8E8M0: u.u8 = (uint8_t)v; break; /* bytes compared as they are */
  case HCCL_DATA_TYPE_UINT16: u.u16 = (uint16_t)v; break;
  case HCCL_DATA_TYPE_UINT32: u.u32 = (uint32_t)v; break;
  case HCCL_DATA_TYPE_UINT64: u.u64 = (uint64_t)v; break;
  case HCCL_DATA_TYPE_FP32: u.f = (float)v; break;
  case HCCL_DATA_TYPE_FP64: u.d = v; break;
  case HCCL_DATA_TYPE_BFP16: { float f = (float)v; uint32_t x; memcpy(&x, &f, 4); u.u16 = (uint16_t)(x >> 16); break; }
  case HCCL_DATA_TYPE_FP16: { /* exact for the small powers and integers used */
    int e;
    double m = frexp(fabs(v), &e);
    u.u16 = v == 0 ? 0 : (uint16_t)((v < 0 ? 0x8000 : 0) | ((e + 14) << 10) | ((uint32_t)ldexp(m, 11) & 0x3ff));
    break;
  }
  default: break;
  }
  memcpy(p, &u, n);
}

static void fill(void *buf, uint64_t count, HcclDataType t, double v) {
  size_t es = type_size(t);
  for (uint64_t i = 0; i < count; i++)
    put_value((char *)buf + i * es, t, v);
}

/* ---- one operator ------------------------------------------------------------------ */

typedef struct {
  uint64_t count;    /* per-rank element count the op is called with */
  uint64_t in_n, out_n; /* elements of the input and output buffers */
  double bytes;      /* what the bandwidth divides */
  uint64_t *counts, *displs, *matrix;
} ht_shape;

static void shape_of(uint64_t size, size_t es, uint32_t n, ht_shape *s) {
  uint64_t count = size / es;
  switch (HT_OP) {
  case OP_ALLGATHER: case OP_ALLGATHERV: case OP_REDUCESCATTER: case OP_REDUCESCATTERV: case OP_SCATTER:
    count = (count + n - 1) / n; /* per-rank block, so the data moved is about the size asked */
    s->bytes = (double)(count * es * n);
    break;
  case OP_ALLTOALL: case OP_ALLTOALLV: case OP_ALLTOALLVC: {
    uint64_t unit = count >= (uint64_t)n * 128 ? (uint64_t)n * 128 : n;
    count = (count + unit - 1) / unit * unit;
    s->bytes = (double)(count * es);
    break;
  }
  default:
    s->bytes = (double)(count * es);
    break;
  }
  s->count = count;
  switch (HT_OP) {
  case OP_ALLGATHER: case OP_ALLGATHERV: s->in_n = count, s->out_n = count * n; break;
  case OP_REDUCESCATTER: case OP_REDUCESCATTERV: case OP_SCATTER: s->in_n = count * n, s->out_n = count; break;
  default: s->in_n = s->out_n = count; break;
  }
  for (uint32_t p = 0; p < n; p++) {
    uint64_t per = HT_OP == OP_ALLTOALLV || HT_OP == OP_ALLTOALLVC ? count / n : count;
    s->counts[p] = per;
    s->displs[p] = p * per;
  }
  for (uint32_t i = 0; i < n * n; i++)
    s->matrix[i] = count / n;
}

static HcclResult run_op(const ht_opts *o, ht_shape *s, void *in, void *out, HcclComm comm, aclrtStream st) {
  HcclDataType t = o->dtype;
  switch (HT_OP) {
  case OP_ALLREDUCE: return HcclAllReduce(in, out, s->count, t, o->op, comm, st);
  case OP_BROADCAST: return HcclBroadcast(in, s->count, t, o->root, comm, st);
  case OP_REDUCE: return HcclReduce(in, out, s->count, t, o->op, o->root, comm, st);
  case OP_ALLGATHER: return HcclAllGather(in, out, s->count, t, comm, st);
  case OP_ALLGATHERV: return HcclAllGatherV(in, s->count, out, s->counts, s->displs, t, comm, st);
  case OP_REDUCESCATTER: return HcclReduceScatter(in, out, s->count, t, o->op, comm, st);
  case OP_REDUCESCATTERV: return HcclReduceScatterV(in, s->counts, s->displs, out, s->count, t, o->op, comm, st);
  case OP_SCATTER: return HcclScatter(in, out, s->count, t, o->root, comm, st);
  case OP_ALLTOALL: return HcclAlltoAll(in, s->count / (uint64_t)g_size, t, out, s->count / (uint64_t)g_size, t, comm, st);
  case OP_ALLTOALLV: return HcclAlltoAllV(in, s->counts, s->displs, t, out, s->counts, s->displs, t, comm, st);
  default: return HcclAlltoAllVC(in, s->matrix, t, out, t, comm, st);
  }
}

static int reducing(void) {
  return HT_OP == OP_ALLREDUCE || HT_OP == OP_REDUCE || HT_OP == OP_REDUCESCATTER || HT_OP == OP_REDUCESCATTERV;
}

/* Fills the host input for a check and the expected output; 0 when the
 * result would overflow (no check: "NULL"). */
static int expectation(const ht_opts *o, const ht_shape *s, void *hin, void *want) {
  uint32_t n = (uint32_t)g_size, me = (uint32_t)g_rank;
  size_t es = type_size(o->dtype);
  if (reducing()) {
    fill(hin, s->in_n, o->dtype, 2);
    double v = o->op == HCCL_REDUCE_SUM ? 2.0 * n : o->op == HCCL_REDUCE_PROD ? pow(2, n) : 2;
    double limit = es == 1 ? 127 : o->dtype == HCCL_DATA_TYPE_INT16 ? 32767
                   : o->dtype == HCCL_DATA_TYPE_FP16 ? 65504 : o->dtype == HCCL_DATA_TYPE_INT32 ? 2147483647.0 : 1e300;
    if (o->dtype == HCCL_DATA_TYPE_BFP16 && v > 256)
      return 0; /* not exact */
    if (v > limit)
      return 0;
    fill(want, s->out_n, o->dtype, v);
    return 1;
  }
  switch (HT_OP) {
  case OP_BROADCAST:
    fill(hin, s->in_n, o->dtype, me == o->root ? 2 : 0);
    fill(want, s->out_n, o->dtype, 2);
    break;
  case OP_SCATTER:
    for (uint32_t p = 0; p < n; p++)
      fill((char *)hin + p * s->count * es, s->count, o->dtype, p + 1);
    fill(want, s->out_n, o->dtype, me + 1);
    break;
  case OP_ALLGATHER: case OP_ALLGATHERV:
    fill(hin, s->in_n, o->dtype, me + 1);
    for (uint32_t p = 0; p < n; p++)
      fill((char *)want + p * s->count * es, s->count, o->dtype, p + 1);
    break;
  default: { /* all-to-all: block p of what rank r sends goes to p; what arrives from i holds i + 1 */
    uint64_t per = s->count / n;
    fill(hin, s->in_n, o->dtype, me + 1);
    for (uint32_t p = 0; p < n; p++)
      fill((char *)want + p * per * es, per, o->dtype, p + 1);
    break;
  }
  }
  return 1;
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  ht_opts o = {64 << 20, 64 << 20, -1, 0, HCCL_REDUCE_SUM, 0, HCCL_DATA_TYPE_FP32, 20, 10, 1, 0};
  int prc = parse(argc, argv, &o);
  if (prc != 0) {
    MPI_Finalize();
    return prc < 0 ? 1 : 0;
  }
  if (aclInit(NULL) != ACL_SUCCESS) {
    printf("aclInit failed: %s\n", aclGetRecentErrMsg());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  uint32_t ndev = 0;
  aclrtGetDeviceCount(&ndev);
  if (o.npus <= 0)
    o.npus = (int)ndev;
  int32_t dev = g_rank % o.npus;
  const char *use = getenv("HCCL_TEST_USE_DEVS");
  if (use != NULL && *use != '\0') { /* "4,5,6,7": this rank's entry */
    char *copy = strdup(use), *save = NULL, *tok = strtok_r(copy, ",", &save);
    for (int i = 0; tok != NULL && i < g_rank % o.npus; i++)
      tok = strtok_r(NULL, ",", &save);
    if (tok != NULL)
      dev = atoi(tok);
    free(copy);
  }
  if (aclrtSetDevice(dev) != ACL_SUCCESS) {
    printf("aclrtSetDevice(%d) failed: %s\n", (int)dev, aclGetRecentErrMsg());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  aclrtStream st;
  aclrtEvent start, end;
  aclrtCreateStream(&st);
  aclrtSetStreamFailureMode(st, ACL_STOP_ON_FAILURE);
  aclrtCreateEvent(&start);
  aclrtCreateEvent(&end);
  HcclRootInfo root;
  memset(&root, 0, sizeof(root));
  if (g_rank == (int)o.root) {
    printf("the minbytes is %llu, maxbytes is %llu, iters is %d, warmup_iters is %d\n",
           (unsigned long long)o.minbytes, (unsigned long long)o.maxbytes, o.iters, o.warmup);
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS)
      strcpy(root.internal, "invalid");
  }
  MPI_Bcast(&root, HCCL_ROOT_INFO_BYTES, MPI_CHAR, (int)o.root, MPI_COMM_WORLD);
  HcclComm comm;
  HcclResult hr;
  if (!strcmp(root.internal, "invalid") ||
      (hr = HcclCommInitRootInfo((uint32_t)g_size, &root, (uint32_t)g_rank, &comm)) != HCCL_SUCCESS) {
    printf("hccl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)HCCL_E_INTERNAL);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  size_t es = type_size(o.dtype);
  uint32_t n = (uint32_t)g_size;
  ht_shape s;
  s.counts = calloc(n, 8), s.displs = calloc(n, 8), s.matrix = calloc((size_t)n * n, 8);
  if (g_rank == (int)o.root)
    printf("%-15s | %-12s | %-18s | %s\n", "data_size(Bytes):", "aveg_time(us):", "alg_bandwidth(GB/s):",
           "check_result:");
  int status = 0;
  for (long long size = o.minbytes; size <= o.maxbytes;) {
    shape_of((uint64_t)size, es, n, &s);
    size_t in_b = s.in_n * es, out_b = s.out_n * es;
    void *in = NULL, *out = NULL, *hin = malloc(in_b ? in_b : 1), *hout = malloc(out_b ? out_b : 1),
         *want = malloc(out_b ? out_b : 1);
    aclrtMalloc(&in, in_b ? in_b : 1, ACL_MEM_MALLOC_HUGE_ONLY);
    aclrtMalloc(&out, out_b ? out_b : 1, ACL_MEM_MALLOC_HUGE_ONLY);
    int checkable = expectation(&o, &s, hin, want);
    if (in_b)
      aclrtMemcpy(in, in_b, hin, in_b, ACL_MEMCPY_HOST_TO_DEVICE);
    int ok = 1;
    for (int i = 0; i < o.warmup && ok; i++)
      ok = run_op(&o, &s, in, out, comm, st) == HCCL_SUCCESS;
    aclrtRecordEvent(start, st);
    for (int i = 0; i < o.iters && ok; i++)
      ok = run_op(&o, &s, in, out, comm, st) == HCCL_SUCCESS;
    aclrtRecordEvent(end, st);
    ok = ok && aclrtSynchronizeStream(st) == ACL_SUCCESS;
    float ms = 0;
    aclrtEventElapsedTime(&ms, start, end);
    const char *result = "NULL";
    if (o.check && checkable && ok) {
      if (in_b)
        aclrtMemcpy(in, in_b, hin, in_b, ACL_MEMCPY_HOST_TO_DEVICE);
      ok = run_op(&o, &s, in, HT_OP == OP_BROADCAST ? in : out, comm, st) == HCCL_SUCCESS &&
           aclrtSynchronizeStream(st) == ACL_SUCCESS;
      int good = ok;
      if (ok && out_b) {
        aclrtMemcpy(hout, out_b, HT_OP == OP_BROADCAST ? in : out, out_b, ACL_MEMCPY_DEVICE_TO_HOST);
        if (!(HT_OP == OP_REDUCE && g_rank != (int)o.root))
          for (size_t i = 0; i < s.out_n; i++)
            if (memcmp((char *)hout + i * es, (char *)want + i * es, es) != 0) {
              if (good && o.check == 2)
                printf("rank %d: element %zu differs\n", g_rank, i);
              good = 0;
            }
      }
      int all = 0;
      MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      result = all ? "success" : "failed";
      if (!good) {
        status = 1;
        printf("local rank_id %d, check result failed, %llu | failed\n", g_rank, (unsigned long long)size);
      }
    } else if (o.check && !checkable && g_rank == (int)o.root) {
      printf("Warning: The calculation result overflows, No verification is performed.\n");
    }
    if (!ok)
      status = 1, result = "failed";
    double avg_us = (double)ms * 1000.0 / o.iters;
    double bw = avg_us > 0 ? s.bytes / avg_us * 1e-3 : 0;
    if (g_rank == (int)o.root)
      printf("%-17llu | %-14.2f | %-20.5f | %s\n", (unsigned long long)size, avg_us, bw, result);
    fflush(stdout);
    aclrtFree(in), aclrtFree(out);
    free(hin), free(hout), free(want);
    if (!ok)
      break;
    long long next = o.stepfactor > 1.0 ? (long long)((double)size * o.stepfactor) : size + o.stepbytes;
    if (next <= size)
      break; /* a step of 0 runs the minimum size once */
    size = next;
  }
  free(s.counts), free(s.displs), free(s.matrix);
  HcclCommDestroy(comm);
  aclrtDestroyEvent(start), aclrtDestroyEvent(end);
  aclrtDestroyStream(st);
  aclrtResetDevice(dev);
  aclFinalize();
  MPI_Finalize();
  return status;
}
