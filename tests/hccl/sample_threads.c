/*
 * sample_threads.c - the vendor's hicann/hccl examples (02_collectives, one per operator) as
 * one program: one process, one thread per device (reference §4 B), or
 * HcclCommInitAll then a thread per communicator (§4 D, argument "initall").
 *
 *   sample_threads OP [initall]
 *
 * OP: allreduce broadcast allgather reducescatter reduce alltoall alltoallv
 * alltoallvc scatter sendrecv batchsendrecv.  Every rank prints
 * "rankId: <i>, output: [ v0 v1 ... ]" as the vendor's samples do; where they
 * sleep i seconds to print in rank order this program takes turns instead,
 * so the test stays fast.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

#define ACLCHECK(ret)                                                                          \
  do {                                                                                         \
    if ((ret) != ACL_SUCCESS) {                                                                \
      printf("acl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)(ret)); \
      return NULL;                                                                             \
    }                                                                                          \
  } while (0)
#define HCCLCHECK(ret)                                                                          \
  do {                                                                                          \
    if ((ret) != HCCL_SUCCESS) {                                                                \
      printf("hccl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)(ret)); \
      return NULL;                                                                              \
    }                                                                                           \
  } while (0)

static const char *g_op;
static uint32_t g_n;
static HcclRootInfo *g_root;
static HcclComm *g_comms;
static int g_failed;

/* printing in rank order */
static pthread_mutex_t g_turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_turn_cond = PTHREAD_COND_INITIALIZER;
static uint32_t g_turn;

static void print_in_turn(uint32_t rank, const float *v, uint64_t n, int print) {
  pthread_mutex_lock(&g_turn_lock);
  while (g_turn != rank)
    pthread_cond_wait(&g_turn_cond, &g_turn_lock);
  if (print) {
    printf("rankId: %u, output: [", rank);
    for (uint64_t i = 0; i < n; i++)
      printf(" %g", v[i]);
    printf(" ]\n");
    fflush(stdout);
  }
  g_turn++;
  pthread_cond_broadcast(&g_turn_cond);
  pthread_mutex_unlock(&g_turn_lock);
}

static void *rank_main(void *arg) {
  uint32_t rank = (uint32_t)(uintptr_t)arg, n = g_n;
  ACLCHECK(aclrtSetDevice((int32_t)rank));
  HcclComm comm = NULL;
  if (g_comms != NULL)
    comm = g_comms[rank];
  else
    HCCLCHECK(HcclCommInitRootInfo(n, g_root, rank, &comm));
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
    g_failed = 1;
    return NULL;
  }
  ACLCHECK(aclrtSynchronizeStream(stream));
  ACLCHECK(aclrtMemcpy(host_out, out_bytes, recv, out_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  print_in_turn(rank, host_out, out_count, print);
  if (recv != send)
    ACLCHECK(aclrtFree(recv));
  ACLCHECK(aclrtFree(send));
  free(host_in), free(host_out);
  HCCLCHECK(HcclCommDestroy(comm));
  ACLCHECK(aclrtDestroyStream(stream));
  ACLCHECK(aclrtResetDevice((int32_t)rank));
  return (void *)1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OP [initall]\n", argv[0]);
    return 2;
  }
  g_op = argv[1];
  int initall = argc > 2 && !strcmp(argv[2], "initall");
  if (aclInit(NULL) != ACL_SUCCESS)
    return 1;
  if (aclrtGetDeviceCount(&g_n) != ACL_SUCCESS)
    return 1;
  printf("Found %u NPU device(s) available\n", g_n);
  int32_t *devices = malloc(g_n * sizeof(int32_t));
  for (uint32_t i = 0; i < g_n; i++)
    devices[i] = (int32_t)i;
  if (aclrtSetDevice(0) != ACL_SUCCESS)
    return 1;
  void *root = NULL;
  if (initall) {
    g_comms = malloc(g_n * sizeof(HcclComm));
    for (uint32_t i = 0; i < g_n; i++)
      if (aclrtSetDevice((int32_t)i) != ACL_SUCCESS)
        return 1;
    HcclResult r = HcclCommInitAll(g_n, devices, g_comms);
    if (r != HCCL_SUCCESS) {
      printf("hccl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)r);
      return 1;
    }
  } else {
    if (aclrtMallocHost(&root, sizeof(HcclRootInfo)) != ACL_SUCCESS)
      return 1;
    g_root = root;
    HcclResult r = HcclGetRootInfo(g_root);
    if (r != HCCL_SUCCESS) {
      printf("hccl interface return err %s:%d, retcode: %d \n", __FILE__, __LINE__, (int)r);
      return 1;
    }
  }
  pthread_t *th = malloc(g_n * sizeof(pthread_t));
  for (uint32_t i = 0; i < g_n; i++)
    pthread_create(&th[i], NULL, rank_main, (void *)(uintptr_t)i);
  for (uint32_t i = 0; i < g_n; i++) {
    void *ok = NULL;
    pthread_join(th[i], &ok);
    if (ok == NULL)
      g_failed = 1;
  }
  if (initall)
    for (uint32_t i = 1; i < g_n; i++)
      aclrtResetDevice((int32_t)i);
  if (root != NULL)
    aclrtFreeHost(root);
  free(th), free(devices), free(g_comms);
  aclrtResetDevice(0);
  aclFinalize();
  return g_failed;
}
