/*
 * bench_hccl.c - HCCL collectives against plain MPI on the same machine:
 *
 *   mpirun -n N bench_hccl [iters]
 *
 * For each operator and size, the average time of `iters` HCCL operations
 * queued on one stream (device buffers; then one synchronisation, as
 * hccl_test times them) and of as many plain MPI calls on host buffers of
 * the same size, with the algorithm bandwidth of each and the ratio
 * (hccl / mpi: below 1 is faster).  The peer is MPI itself: libhccl moves
 * its data with MPI between processes, so the ratio is the cost of staging
 * device memory, the stream task and the progress thread.
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

enum { ALLREDUCE, ALLGATHER, BROADCAST, ALLTOALL, NOPS };
static const char *const names[NOPS] = {"allreduce", "allgather", "broadcast", "alltoall"};

int main(int argc, char **argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iters = argc > 1 ? atoi(argv[1]) : 20;
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
  const size_t max = 16u << 20;
  void *din, *dout;
  aclrtMalloc(&din, max * (size_t)size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dout, max * (size_t)size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(din, max * (size_t)size, 0, max * (size_t)size);
  char *hin = calloc(max, size), *hout = calloc(max, size);
  if (rank == 0) {
    printf("bench_hccl: %d ranks (processes), %d iterations, float32; times in us per operation\n", size, iters);
    printf("%-10s %10s %12s %12s %8s %12s %12s\n", "op", "bytes", "hccl us", "mpi us", "ratio", "hccl GB/s",
           "mpi GB/s");
  }
  for (int op = 0; op < NOPS; op++)
    for (size_t bytes = 4096; bytes <= max; bytes *= 8) {
      uint64_t count = bytes / 4;
      uint64_t per = op == ALLTOALL ? count / (uint64_t)size : count;
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
            case BROADCAST: HcclBroadcast(din, count, HCCL_DATA_TYPE_FP32, 0, comm, s); break;
            default: HcclAlltoAll(din, per, HCCL_DATA_TYPE_FP32, dout, per, HCCL_DATA_TYPE_FP32, comm, s); break;
            }
          } else {
            switch (op) {
            case ALLREDUCE: MPI_Allreduce(hin, hout, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
            case ALLGATHER: MPI_Allgather(hin, (int)count, MPI_FLOAT, hout, (int)count, MPI_FLOAT, MPI_COMM_WORLD); break;
            case BROADCAST: MPI_Bcast(hin, (int)count, MPI_FLOAT, 0, MPI_COMM_WORLD); break;
            default: MPI_Alltoall(hin, (int)per, MPI_FLOAT, hout, (int)per, MPI_FLOAT, MPI_COMM_WORLD); break;
            }
          }
        }
        if (side == 0)
          aclrtSynchronizeStream(s);
        double mine = (now_s() - t0) / iters, worst = 0;
        MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[side] = worst * 1e6;
      }
      /* algorithm bandwidth as hccl_test counts it: the per-rank buffer, the gathered buffer for allgather */
      double moved = op == ALLGATHER ? (double)bytes * size : (double)bytes;
      if (rank == 0)
        printf("%-10s %10zu %12.1f %12.1f %8.2f %12.3f %12.3f\n", names[op], bytes, t[0], t[1], t[0] / t[1],
               moved / t[0] * 1e-3, moved / t[1] * 1e-3);
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
