/*
 * transport_mpi.c - how libhccl uses Open MPI: joining the application's MPI
 * job (or initialising MPI when the program was launched by mpirun without
 * calling MPI_Init), the serialisation our calls need when MPI gives less
 * than MPI_THREAD_MULTIPLE, the rendezvous tags, and bounded waits.
 *
 * An MPI the application initialised is the application's to finalise
 * (after HcclCommDestroy).  One we initialised is finalised at exit (Open
 * MPI counts a process that initialised and exits without finalising as a
 * failure of the job).  Either way, when MPI goes down - our exit handler,
 * or the application's MPI_Finalize, which first deletes the attributes of
 * MPI_COMM_SELF and so calls hccl__mpi_self_delete - hccl__mpi_rw is taken
 * for writing and kept, so that a libhccl thread still about to call MPI
 * (the progress thread testing what a failed operation left behind) waits
 * forever instead of calling into a finalised library.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hccl/hccl_int.h"

static pthread_mutex_t hccl__mpi_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t hccl__mpi_rw = PTHREAD_RWLOCK_INITIALIZER; /* read: an MPI call; write: finalising */
static pthread_mutex_t hccl__mpi_init_mutex = PTHREAD_MUTEX_INITIALIZER;
static atomic_int hccl__mpi_serial; /* 1: MPI gave less than MPI_THREAD_MULTIPLE: serialise our calls */
static int hccl__mpi_tag_ub = 32767; /* hccl__mpi_init_mutex, then constant */

void hccl__mpi_lock(void) {
  pthread_rwlock_rdlock(&hccl__mpi_rw);
  if (atomic_load_explicit(&hccl__mpi_serial, memory_order_relaxed))
    pthread_mutex_lock(&hccl__mpi_mutex);
}

void hccl__mpi_unlock(void) {
  if (atomic_load_explicit(&hccl__mpi_serial, memory_order_relaxed))
    pthread_mutex_unlock(&hccl__mpi_mutex);
  pthread_rwlock_unlock(&hccl__mpi_rw);
}

static atomic_int hccl__mpi_gone; /* hccl__mpi_rw is held for writing: MPI is (being) finalised */
static int hccl__mpi_keyval_set;  /* hccl__mpi_init_mutex */

static void hccl__mpi_close(void) {
  if (!atomic_exchange(&hccl__mpi_gone, 1))
    pthread_rwlock_wrlock(&hccl__mpi_rw); /* never released: see the top of the file */
}

static int hccl__mpi_self_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  hccl__mpi_close();
  return MPI_SUCCESS;
}

int hccl__mpi_alive(void) { return !atomic_load(&hccl__mpi_gone); }

static void hccl__mpi_atexit(void) {
  if (atomic_load(&hccl__mpi_gone))
    return;
  hccl__mpi_close();
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/* Launched by mpirun / a PMIx launcher (Open MPI sets these for every process). */
static int hccl__launched_by_mpirun(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMIX_RANK") != NULL || getenv("PMI_RANK") != NULL;
}

/* The launcher's rank and size for this process, from its environment. */
static int hccl__launcher_rank(int *rank, int *size) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK"), *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (r == NULL || n == NULL)
    return 0;
  *rank = atoi(r);
  *size = atoi(n);
  return 1;
}

HcclResult hccl__mpi_ensure(const char *api, int init, int *world_rank, int *world_size) {
  *world_rank = -1;
  *world_size = 0;
  HcclResult rc = HCCL_SUCCESS;
  pthread_mutex_lock(&hccl__mpi_init_mutex);
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (finalized) {
    rc = hccl__fail(api, HCCL_E_UNAVAIL, "MPI has been finalised already. Remedy: call MPI_Finalize after the "
                    "last HcclCommDestroy");
    goto done;
  }
  if (!inited) {
    if (!hccl__launched_by_mpirun())
      goto done; /* one process: every rank is in it, no MPI needed */
    /* MPI_Init is collective over the job (Open MPI exchanges its
     * addresses there), so HcclGetRootInfo must not call it: the root would
     * wait for processes that wait for its root info.  The launcher says
     * who we are; the communicator's init, which every rank calls, starts
     * MPI. */
    if (!init && hccl__launcher_rank(world_rank, world_size))
      goto done;
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
      rc = hccl__fail(api, HCCL_E_NETWORK, "MPI_Init_thread failed. Remedy: check the mpirun line and "
                      "OMPI_MCA_* settings");
      goto done;
    }
    atexit(hccl__mpi_atexit);
  }
  if (!hccl__mpi_keyval_set) {
    /* told when MPI_Finalize starts, whoever calls it */
    int key;
    if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, hccl__mpi_self_delete, &key, NULL) == MPI_SUCCESS &&
        MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL) == MPI_SUCCESS)
      hccl__mpi_keyval_set = 1;
  }
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  /* The vendor's samples call plain MPI_Init: then our threads (the
   * progress thread, the ranks' init) take turns; the application's own
   * MPI calls are its business, as with any library. */
  if (level < MPI_THREAD_MULTIPLE)
    atomic_store(&hccl__mpi_serial, 1);
  MPI_Comm_rank(MPI_COMM_WORLD, world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, world_size);
  void *ub = NULL;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
  if (flag && ub != NULL && *(int *)ub > 32767)
    hccl__mpi_tag_ub = *(int *)ub;
done:
  pthread_mutex_unlock(&hccl__mpi_init_mutex);
  return rc;
}

/* Rendezvous tags on MPI_COMM_WORLD sit at the top of the tag range, 4 per
 * id modulo 4096 ids, away from the small tags applications use. */
int hccl__mpi_tag(uint64_t id, int which) {
  pthread_mutex_lock(&hccl__mpi_init_mutex);
  int ub = hccl__mpi_tag_ub;
  pthread_mutex_unlock(&hccl__mpi_init_mutex);
  return ub - (int)((id % 4096u) * 4u) - which;
}

int hccl__mpi_wait(MPI_Request *req, uint64_t deadline_ns) {
  unsigned spins = 0;
  for (;;) {
    int flag = 0;
    hccl__mpi_lock();
    int rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    hccl__mpi_unlock();
    if (rc != MPI_SUCCESS)
      return -1;
    if (flag)
      return 0;
    if (deadline_ns != 0 && hccl__now_ns() >= deadline_ns)
      break;
    struct timespec ts = {0, spins < 100 ? 20000 : 1000000};
    spins++;
    nanosleep(&ts, NULL);
  }
  /* Timed out: cancel.  A receive cancels at once; a send Open MPI has
   * started cannot be cancelled, and waiting for it could last forever:
   * give it 100 ms, then let MPI keep the request and its buffer. */
  hccl__mpi_lock();
  MPI_Cancel(req);
  hccl__mpi_unlock();
  for (int i = 0; i < 100; i++) {
    int flag = 0;
    hccl__mpi_lock();
    MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    hccl__mpi_unlock();
    if (flag)
      return 1;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  hccl__mpi_lock();
  MPI_Request_free(req);
  hccl__mpi_unlock();
  return 2;
}
