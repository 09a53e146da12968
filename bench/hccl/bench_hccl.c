/*
 * bench_hccl.c - HCCL collectives against plain MPI on the same machine:
 *
 *   mpirun -n N bench_hccl [iters] [-s SIZES] [-o OPS]
 *
 *   SIZES  comma-separated byte counts, with K / M / G suffixes (1024-based),
 *          or FROM:TO:FACTOR; default 8,4K,256K,16M (a short run).  The whole
 *          range the issue asks for: -s 8:256M:8
 *   OPS    comma-separated: allreduce, allgather, reducescatter, broadcast,
 *          alltoall; default all
 *
 * For each operator and size, the average time of `iters` HCCL operations
 * queued on one stream (device buffers; then one synchronisation, as
 * hccl_test times them) and of as many plain MPI calls on host buffers of
 * the same size (MPI_Allreduce, MPI_Allgather, MPI_Reduce_scatter_block,
 * MPI_Bcast, MPI_Alltoall), the ratio (hccl time / mpi time: below 1 is
 * faster) and the bus bandwidth of each as nccl-tests count it.  The size is
 * nccl-tests' too: the buffer each rank sends for allreduce and broadcast,
 * the whole (gathered) buffer for allgather, reducescatter and alltoall.
 * float32, rounded down to whole elements per rank.  bench/hccl/run.sh runs
 * it with 2 and 4 ranks several times and prints medians and minimums.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum { ALLREDUCE, ALLGATHER, REDUCESCATTER, BROADCAST, ALLTOALL, NOPS };
static const char *const names[NOPS] = {"allreduce", "allgather", "reducescatter", "broadcast", "alltoall"};

static size_t parse_size(const char *s) {
  char *end;
  double v = strtod(s, &end);
  size_t mul = *end == 'K' || *end == 'k' ? 1u << 10 : *end == 'M' || *end == 'm' ? 1u << 20
             : *end == 'G' || *end == 'g' ? 1u << 30 : 1;
  return (size_t)(v * (double)mul);
}

/* Fills sizes[] from "a,b,c" or "from:to:factor"; returns how many. */
static int parse_sizes(const char *arg, size_t *sizes, int max) {
  int n = 0;
  if (strchr(arg, ':') != NULL) {
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", arg);
    char *a = strtok(buf, ":"), *b = strtok(NULL, ":"), *f = strtok(NULL, ":");
    size_t lo = a ? parse_size(a) : 8, hi = b ? parse_size(b) : lo, fac = f ? (size_t)atoi(f) : 2;
    for (size_t v = lo; v <= hi && n < max && fac > 1; v *= fac)
      sizes[n++] = v;
    return n;
  }
  char *copy = strdup(arg);
  for (char *t = strtok(copy, ","); t != NULL && n < max; t = strtok(NULL, ","))
    sizes[n++] = parse_size(t);
  free(copy);
  return n;
}

static int usage(int rank) {
  if (rank == 0)
    fprintf(stderr, "usage: mpirun -n N bench_hccl [iters] [-s SIZES] [-o OPS]\n");
  MPI_Finalize();
  return 2;
}

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = 20, nsizes = 0, want[NOPS] = {1, 1, 1, 1, 1};
  size_t sizes[64];
  nsizes = parse_sizes("8,4K,256K,16M", sizes, 64);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
      nsizes = parse_sizes(argv[++i], sizes, 64);
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      memset(want, 0, sizeof(want));
      char *copy = strdup(argv[++i]);
      for (char *t = strtok(copy, ","); t != NULL; t = strtok(NULL, ",")) {
        int k = 0;
        while (k < NOPS && strcmp(t, names[k]) != 0)
          k++;
        if (k == NOPS) {
          free(copy);
          return usage(rank);
        }
        want[k] = 1;
      }
      free(copy);
    } else if (argv[i][0] >= '1' && argv[i][0] <= '9') {
      iters = atoi(argv[i]);
    } else {
      return usage(rank);
    }
  }
  if (nsizes == 0 || iters < 1)
    return usage(rank);
  size_t max = 0;
  for (int i = 0; i < nsizes; i++)
    if (sizes[i] > max)
      max = sizes[i];
  if (max < (size_t)size * 4)
    max = (size_t)size * 4;
  if (aclInit(NULL) != ACL_SUCCESS)
    return 1;
  uint32_t ndev = 1;
  aclrtGetDeviceCount(&ndev);
  int32_t dev = (int32_t)((uint32_t)rank % ndev);
  aclrtSetDevice(dev);
  HcclRootInfo root;
  if (rank == 0)
    HcclGetRootInfo(&root);
  MPI_Bcast(&root, HCCL_ROOT_INFO_BYTES, MPI_CHAR, 0, MPI_COMM_WORLD);
  HcclComm comm;
  if (HcclCommInitRootInfo((uint32_t)size, &root, (uint32_t)rank, &comm) != HCCL_SUCCESS) {
    printf("init failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  aclrtStream s;
  aclrtCreateStream(&s);
  void *din, *dout;
  if (aclrtMalloc(&din, max, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&dout, max, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    printf("out of device memory for %zu bytes\n", max);
    return 1;
  }
  aclrtMemset(din, max, 0, max);
  aclrtMemset(dout, max, 0, max);
  char *hin = calloc(max, 1), *hout = calloc(max, 1);
  if (rank == 0) {
    printf("bench_hccl: %d ranks (processes), %d iterations, float32; times in us per operation, bus bandwidth "
           "in GB/s\n", size, iters);
    printf("%-13s %10s %12s %12s %8s %10s %10s\n", "op", "bytes", "hccl us", "mpi us", "ratio", "hccl busbw",
           "mpi busbw");
  }
  for (int op = 0; op < NOPS; op++)
    for (int si = 0; si < nsizes && want[op]; si++) {
      size_t bytes = sizes[si];
      /* elements each rank sends (allreduce, broadcast) or owns (the others) */
      int whole = op == ALLREDUCE || op == BROADCAST || op == ALLTOALL;
      uint64_t count = whole ? bytes / 4 : bytes / 4 / (uint64_t)size;
      uint64_t per = op == ALLTOALL ? count / (uint64_t)size : count; /* alltoall: per pair */
      if (per == 0)
        continue;
      double t[2];
      for (int side = 0; side < 2; side++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now_s();
        for (int i = 0; i < iters + 1; i++) { /* the first is a warm-up */
          if (i == 1) {
            if (side == 0)
              aclrtSynchronizeStream(s);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = now_s();
          }
          if (side == 0) {
            switch (op) {
            case ALLREDUCE: HcclAllReduce(din, dout, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s); break;
            case ALLGATHER: HcclAllGather(din, dout, count, HCCL_DATA_TYPE_FP32, comm, s); break;
            case REDUCESCATTER:
              HcclReduceScatter(din, dout, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
              break;
            case BROADCAST: HcclBroadcast(din, count, HCCL_DATA_TYPE_FP32, 0, comm, s); break;
            default: HcclAlltoAll(din, per, HCCL_DATA_TYPE_FP32, dout, per, HCCL_DATA_TYPE_FP32, comm, s); break;
            }
          } else {
            int c = (int)count, p = (int)per;
            switch (op) {
            case ALLREDUCE: MPI_Allreduce(hin, hout, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
            case ALLGATHER: MPI_Allgather(hin, c, MPI_FLOAT, hout, c, MPI_FLOAT, MPI_COMM_WORLD); break;
            case REDUCESCATTER: MPI_Reduce_scatter_block(hin, hout, c, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
            case BROADCAST: MPI_Bcast(hin, c, MPI_FLOAT, 0, MPI_COMM_WORLD); break;
            default: MPI_Alltoall(hin, p, MPI_FLOAT, hout, p, MPI_FLOAT, MPI_COMM_WORLD); break;
            }
          }
        }
        if (side == 0)
          aclrtSynchronizeStream(s);
        double mine = (now_s() - t0) / iters, worst = 0;
        MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[side] = worst * 1e6;
      }
      /* bus bandwidth (nccl-tests): what crosses each rank's link */
      double n = size, total = op == ALLREDUCE || op == BROADCAST ? (double)count * 4 : (double)per * 4 * n;
      double factor = op == ALLREDUCE ? 2 * (n - 1) / n : op == BROADCAST ? 1 : (n - 1) / n;
      double moved = total * factor;
      if (rank == 0)
        printf("%-13s %10.0f %12.1f %12.1f %8.2f %10.3f %10.3f\n", names[op], total, t[0], t[1], t[0] / t[1],
               moved / t[0] * 1e-3, moved / t[1] * 1e-3);
      fflush(stdout);
    }
  free(hin), free(hout);
  aclrtFree(din), aclrtFree(dout);
  aclrtDestroyStream(s);
  HcclCommDestroy(comm);
  aclrtResetDevice(dev);
  aclFinalize();
  MPI_Finalize();
  return 0;
}
