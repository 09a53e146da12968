/*
 * sample_ops.c - what each of the vendor's HCCL collective samples does
 * once its communicator exists (hicann/hccl examples/02_collectives): fill
 * the input, run the operator on a stream, synchronise, copy the output
 * back.  Shared by sample_threads.c (one process) and sample_mpi.c (one
 * process per rank).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_ops.h"

#define ACLCHECK(ret)                                                                          \
  do {                                                                                         \
    if ((ret) != ACL_SUCCESS) {                                                                \
      printf("acl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)(ret)); \
      return -1;                                                                               \
    }                                                                                          \
  } while (0)
#define HCCLCHECK(ret)                                                                          \
  do {                                                                                          \
    if ((ret) != HCCL_SUCCESS) {                                                                \
      printf("hccl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)(ret)); \
      return -1;                                                                                \
    }                                                                                           \
  } while (0)

int sample_run_op(const char *g_op, uint32_t rank, uint32_t n, HcclComm comm, float **out, uint64_t *out_n,
                  int *printp) {
  aclrtStream stream;
  ACLCHECK(aclrtCreateStream(&stream));
  uint64_t count = n, in_count = count, out_count = count;
  if (!strcmp(g_op, "allgather"))
    in_count = 1, out_count = n;
  else if (!strcmp(g_op, "reducescatter"))
    in_count = n, out_count = 1;
  else if (!strcmp(g_op, "scatter"))
    in_count = n, out_count = 1;
  else if (!strcmp(g_op, "alltoall") || !strcmp(g_op, "alltoallv") || !strcmp(g_op, "alltoallvc"))
    in_count = n, out_count = n;
  size_t in_bytes = in_count * sizeof(float), out_bytes = out_count * sizeof(float);
  float *host_in = malloc(in_bytes), *host_out = malloc(out_bytes);
  for (uint64_t i = 0; i < in_count; i++)
    host_in[i] = (float)i;
  if (!strcmp(g_op, "allgather") || !strncmp(g_op, "alltoall", 8) || !strcmp(g_op, "sendrecv") ||
      !strcmp(g_op, "batchsendrecv"))
    for (uint64_t i = 0; i < in_count; i++)
      host_in[i] = (float)rank; /* rank r sends the value r */
  if (!strcmp(g_op, "broadcast") && rank != 0)
    memset(host_in, 0, in_bytes);
  void *send = NULL, *recv = NULL;
  ACLCHECK(aclrtMalloc(&send, in_bytes, ACL_MEM_MALLOC_HUGE_ONLY));
  ACLCHECK(aclrtMalloc(&recv, out_bytes, ACL_MEM_MALLOC_HUGE_ONLY));
  ACLCHECK(aclrtMemcpy(send, in_bytes, host_in, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ACLCHECK(aclrtMemset(recv, out_bytes, 0, out_bytes));
  int print = 1;
  if (!strcmp(g_op, "allreduce")) {
    HCCLCHECK(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  } else if (!strcmp(g_op, "broadcast")) {
    HCCLCHECK(HcclBroadcast(send, count, HCCL_DATA_TYPE_FP32, 0, comm, stream));
    recv = send;
  } else if (!strcmp(g_op, "allgather")) {
    HCCLCHECK(HcclAllGather(send, recv, 1, HCCL_DATA_TYPE_FP32, comm, stream));
  } else if (!strcmp(g_op, "reducescatter")) {
    for (uint64_t i = 0; i < in_count; i++)
      host_in[i] = (float)i;
    ACLCHECK(aclrtMemcpy(send, in_bytes, host_in, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    HCCLCHECK(HcclReduceScatter(send, recv, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
  } else if (!strcmp(g_op, "reduce")) {
    HCCLCHECK(HcclReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 0, comm, stream));
  } else if (!strcmp(g_op, "scatter")) {
    HCCLCHECK(HcclScatter(send, recv, 1, HCCL_DATA_TYPE_FP32, 0, comm, stream));
  } else if (!strcmp(g_op, "alltoall")) {
    HCCLCHECK(HcclAlltoAll(send, 1, HCCL_DATA_TYPE_FP32, recv, 1, HCCL_DATA_TYPE_FP32, comm, stream));
  } else if (!strcmp(g_op, "alltoallv")) {
    uint64_t *counts = malloc(n * sizeof(uint64_t)), *displs = malloc(n * sizeof(uint64_t));
    for (uint32_t i = 0; i < n; i++)
      counts[i] = 1, displs[i] = i;
    HCCLCHECK(HcclAlltoAllV(send, counts, displs, HCCL_DATA_TYPE_FP32, recv, counts, displs, HCCL_DATA_TYPE_FP32,
                            comm, stream));
    ACLCHECK(aclrtSynchronizeStream(stream));
    free(counts), free(displs);
  } else if (!strcmp(g_op, "alltoallvc")) {
    uint64_t *m = malloc((size_t)n * n * sizeof(uint64_t));
    for (uint32_t i = 0; i < n * n; i++)
      m[i] = 1;
    HCCLCHECK(HcclAlltoAllVC(send, m, HCCL_DATA_TYPE_FP32, recv, HCCL_DATA_TYPE_FP32, comm, stream));
    ACLCHECK(aclrtSynchronizeStream(stream));
    free(m);
  } else if (!strcmp(g_op, "sendrecv")) {
    /* even ranks send their id to rank + 1; only the odd ranks print */
    if (rank % 2 == 0) {
      print = 0;
      if (rank + 1 < n)
        HCCLCHECK(HcclSend(send, count, HCCL_DATA_TYPE_FP32, rank + 1, comm, stream));
    } else {
      HCCLCHECK(HcclRecv(recv, count, HCCL_DATA_TYPE_FP32, rank - 1, comm, stream));
    }
  } else if (!strcmp(g_op, "batchsendrecv")) {
    /* a ring: send to rank + 1, receive from rank - 1 */
    HcclSendRecvItem items[2] = {
        {HCCL_SEND, send, count, HCCL_DATA_TYPE_FP32, (rank + 1) % n},
        {HCCL_RECV, recv, count, HCCL_DATA_TYPE_FP32, (rank + n - 1) % n},
    };
    HCCLCHECK(HcclBatchSendRecv(items, 2, comm, stream));
  } else {
    printf("unknown op %s\n", g_op);
    return -1;
  }
  ACLCHECK(aclrtSynchronizeStream(stream));
  ACLCHECK(aclrtMemcpy(host_out, out_bytes, recv, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  if (recv != send)
    ACLCHECK(aclrtFree(recv));
  ACLCHECK(aclrtFree(send));
  ACLCHECK(aclrtDestroyStream(stream));
  free(host_in);
  *out = host_out;
  *out_n = out_count;
  *printp = print;
  return 0;
}
