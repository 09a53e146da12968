/*
 * sample_mpi.c - the vendor's one-device-per-process sample
 * (hcomm examples/01_communicators/01_one_device_per_process, reference
 * §4 A) with the operator of each 02_collectives sample:
 *
 *   mpirun -n N sample_mpi OP            MPI_Init by the program; rank 0's
 *                                        root info goes out by MPI_Bcast
 *   mpirun -n N sample_mpi OP file PATH  the program never calls MPI (libhccl
 *                                        initialises it); rank 0 writes the
 *                                        root info to PATH, the others read it
 *   mpirun -n N sample_mpi OP config     MPI_Init, HcclCommInitRootInfoConfig
 *                                        with the sample's config
 *   mpirun -n N sample_mpi OP ranktable PATH
 *                                        MPI_Init, HcclCommInitClusterInfoConfig
 *                                        with the rank table at PATH (§4 C)
 *
 * Device = rank % device count, as hccl_test picks it.  Prints
 * "rankId: <r>, output: [ ... ]" like the vendor's samples.
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "sample_ops.h"

#define CHECK(what, ret)                                                                              \
  do {                                                                                                \
    if ((ret) != 0) {                                                                                 \
      printf("%s interface return err %s:%d, retcode: %d \n", what, __FILE__, __LINE__, (int)(ret)); \
      return 1;                                                                                       \
    }                                                                                                 \
  } while (0)

static int env_int(const char *name) {
  const char *v = getenv(name);
  return v != NULL ? atoi(v) : -1;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *op = argv[1];
  const char *mode = argc > 2 ? argv[2] : "mpi";
  int use_mpi = strcmp(mode, "file") != 0;
  int rank = -1, size = 0;
  if (use_mpi) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  } else {
    rank = env_int("OMPI_COMM_WORLD_RANK");
    size = env_int("OMPI_COMM_WORLD_SIZE");
    if (rank < 0 || size <= 0 || argc < 4) {
      fprintf(stderr, "file mode runs under mpirun with a path\n");
      return 2;
    }
  }
  CHECK("acl", aclInit(NULL));
  uint32_t ndev = 0;
  CHECK("acl", aclrtGetDeviceCount(&ndev));
  int32_t dev = (int32_t)((uint32_t)rank % ndev);
  CHECK("acl", aclrtSetDevice(dev));
  HcclRootInfo root;
  memset(&root, 0, sizeof(root));
  int table = !strcmp(mode, "ranktable");
  if (table) {
    if (argc < 4)
      return 2;
  } else if (use_mpi) {
    if (rank == 0)
      CHECK("hccl", HcclGetRootInfo(&root));
    MPI_Bcast(&root, HCCL_ROOT_INFO_BYTES, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", argv[3]);
    if (rank == 0) {
      CHECK("hccl", HcclGetRootInfo(&root));
      FILE *f = fopen(tmp, "wb");
      if (f == NULL || fwrite(&root, sizeof(root), 1, f) != 1 || fclose(f) != 0 || rename(tmp, argv[3]) != 0)
        return 1;
    } else {
      FILE *f = NULL;
      for (int i = 0; i < 2000 && (f = fopen(argv[3], "rb")) == NULL; i++)
        usleep(5000);
      if (f == NULL || fread(&root, sizeof(root), 1, f) != 1)
        return 1;
      fclose(f);
    }
  }
  HcclComm comm = NULL;
  if (table) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    CHECK("hccl", HcclCommInitClusterInfoConfig(argv[3], (uint32_t)rank, &config, &comm));
  } else if (!strcmp(mode, "config")) {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    config.hcclBufferSize = 1024;
    config.hcclDeterministic = 1;
    strcpy(config.hcclCommName, "comm_1");
    CHECK("hccl", HcclCommInitRootInfoConfig((uint32_t)size, &root, (uint32_t)rank, &config, &comm));
    char name[COMM_NAME_MAX_LENGTH];
    CHECK("hccl", HcclGetCommName(comm, name));
    if (strcmp(name, "comm_1") != 0)
      printf("comm name is %s, not comm_1\n", name);
  } else {
    CHECK("hccl", HcclCommInitRootInfo((uint32_t)size, &root, (uint32_t)rank, &comm));
  }
  float *out = NULL;
  uint64_t n = 0;
  int print = 1;
  if (sample_run_op(op, (uint32_t)rank, (uint32_t)size, comm, &out, &n, &print) != 0)
    return 1;
  if (print) {
    char line[8192];
    int len = snprintf(line, sizeof(line), "rankId: %d, output: [", rank);
    for (uint64_t i = 0; i < n && len < (int)sizeof(line) - 32; i++)
      len += snprintf(line + len, sizeof(line) - (size_t)len, " %g", out[i]);
    printf("%s ]\n", line);
    fflush(stdout);
  }
  free(out);
  CHECK("hccl", HcclCommDestroy(comm));
  CHECK("acl", aclrtResetDevice(dev));
  CHECK("acl", aclFinalize());
  if (use_mpi)
    MPI_Finalize();
  return 0;
}
