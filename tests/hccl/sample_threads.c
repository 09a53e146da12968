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
#include "sample_ops.h"

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
  float *host_out = NULL;
  uint64_t out_count = 0;
  int print = 1;
  if (sample_run_op(g_op, rank, n, comm, &host_out, &out_count, &print) != 0) {
    print_in_turn(rank, NULL, 0, 0); /* let the later ranks print */
    return NULL;
  }
  print_in_turn(rank, host_out, out_count, print);
  free(host_out);
  HCCLCHECK(HcclCommDestroy(comm));
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
