/*
 * comm.c - communicators: the registry of live handles and groups, the
 * rendezvous that makes a group, and destruction.
 *
 * Rendezvous of rank r of communicator `id` (hccl__comm_init):
 *   - every rank registers in its process's group for `id` (made by the
 *     first rank of the process to arrive);
 *   - local mode (the root info comes from a process in no MPI job): all
 *     ranks must be in this process; each waits until nranks have joined;
 *   - MPI mode: a rank in another process than the root sends (rank, world
 *     rank) to the root process (tag JOIN) and receives the full map (tag
 *     MAP); in the root process the first rank to arrive collects the joins
 *     until local + remote ranks make nranks, then answers each remote rank
 *     with the map.  Then the lowest rank of each process makes the MPI
 *     communicator of the processes involved with MPI_Comm_create_group
 *     (collective over those processes only), with MPI_ERRORS_RETURN.
 * Every wait is bounded by HCCL_CONNECT_TIMEOUT: missing ranks give
 * HCCL_E_TIMEOUT with the ranks named.
 *
 * Locks: the registry lock guards the live list and the group list; a
 * group's lock its rendezvous state and mailboxes (hccl_int.h has the
 * order).  MPI calls are made with neither held.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hccl/hccl_transport.h"

static pthread_mutex_t hccl__reg_lock = PTHREAD_MUTEX_INITIALIZER;
static hccl__comm *hccl__live;   /* registry lock */
static hccl__group *hccl__groups; /* registry lock */

enum { HCCL__TAG_JOIN = 0, HCCL__TAG_MAP = 1, HCCL__TAG_CREATE = 2 };

/* ---- handles ----------------------------------------------------------------- */

hccl__comm *hccl__comm_get(const char *api, HcclComm h, HcclResult *rc) {
  if (h == NULL) {
    *rc = hccl__fail(api, HCCL_E_PTR, "comm is NULL. Remedy: pass a communicator from HcclCommInit*");
    return NULL;
  }
  pthread_mutex_lock(&hccl__reg_lock);
  hccl__comm *c = hccl__live;
  while (c != NULL && c != (hccl__comm *)h)
    c = c->next;
  pthread_mutex_unlock(&hccl__reg_lock);
  if (c == NULL)
    *rc = hccl__fail(api, HCCL_E_PARA, "comm %p is no live communicator (destroyed already, or not one). "
                     "Remedy: pass a handle from HcclCommInit* that was not destroyed", h);
  return c;
}

hccl__comm *hccl__comm_find_name(const char *name) {
  pthread_mutex_lock(&hccl__reg_lock);
  hccl__comm *c = hccl__live;
  while (c != NULL && strcmp(c->name, name) != 0)
    c = c->next;
  pthread_mutex_unlock(&hccl__reg_lock);
  return c;
}

/* ---- groups ------------------------------------------------------------------ */

static hccl__group *hccl__group_new(uint64_t id, uint32_t nranks) {
  hccl__group *g = calloc(1, sizeof(*g));
  if (g == NULL)
    return NULL;
  g->id = id;
  g->nranks = nranks;
  g->mpi = MPI_COMM_NULL;
  g->ack = MPI_COMM_NULL;
  g->members = calloc(nranks, sizeof(*g->members));
  g->world = malloc(nranks * sizeof(*g->world));
  g->proc = malloc(nranks * sizeof(*g->proc));
  g->box_send = calloc((size_t)nranks * nranks, sizeof(*g->box_send));
  g->box_recv = calloc((size_t)nranks * nranks, sizeof(*g->box_recv));
  g->shm_refused = calloc(nranks, 1);
  if (g->members == NULL || g->world == NULL || g->proc == NULL || g->box_send == NULL || g->box_recv == NULL ||
      g->shm_refused == NULL) {
    free(g->members), free(g->world), free(g->proc), free(g->box_send), free(g->box_recv), free(g->shm_refused);
    free(g);
    return NULL;
  }
  for (uint32_t i = 0; i < nranks; i++)
    g->world[i] = -2; /* unknown yet */
  pthread_mutex_init(&g->lock, NULL);
  pthread_cond_init(&g->cond, NULL);
  return g;
}

static void hccl__group_free(hccl__group *g) {
  /* after MPI_Finalize (a program that destroys late) the communicator is gone with MPI */
  if (g->mpi != MPI_COMM_NULL && !g->mpi_broken && hccl__mpi_alive()) {
    hccl__mpi_lock();
    if (g->ack != MPI_COMM_NULL)
      MPI_Comm_free(&g->ack);
    MPI_Comm_free(&g->mpi);
    hccl__mpi_unlock();
  }
  hccl__shm_group_free(g);
  pthread_mutex_destroy(&g->lock);
  pthread_cond_destroy(&g->cond);
  free(g->members), free(g->world), free(g->proc), free(g->box_send), free(g->box_recv), free(g);
}

void hccl__group_unref(hccl__group *g) {
  pthread_mutex_lock(&hccl__reg_lock);
  pthread_mutex_lock(&g->lock);
  int last = --g->refs == 0;
  pthread_mutex_unlock(&g->lock);
  if (last) {
    hccl__group **pp = &hccl__groups;
    while (*pp != NULL && *pp != g)
      pp = &(*pp)->next;
    if (*pp == g)
      *pp = g->next;
  }
  pthread_mutex_unlock(&hccl__reg_lock);
  if (last)
    hccl__group_free(g);
}

/* Waits on the group's condition until `*flag` or g->failed, or the deadline.
 * Group lock held.  0 when *flag, 1 timed out, 2 failed. */
static int hccl__group_wait(hccl__group *g, const int *flag, uint64_t deadline_ns) {
  while (!*flag && !g->failed) {
    uint64_t now = hccl__now_ns();
    if (now >= deadline_ns)
      return 1;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t step = deadline_ns - now < 50000000u ? deadline_ns - now : 50000000u;
    ts.tv_nsec += (long)step;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&g->cond, &g->lock, &ts);
  }
  return *flag ? 0 : 2;
}

/* The ranks not in g->world yet, as "1, 3" (group lock held). */
static void hccl__missing(hccl__group *g, char *buf, size_t n) {
  size_t used = 0;
  int count = 0;
  buf[0] = '\0';
  for (uint32_t r = 0; r < g->nranks && used + 16 < n; r++)
    if (g->world[r] == -2) {
      used += (size_t)snprintf(buf + used, n - used, "%s%u", count++ ? ", " : "", r);
      if (count == 16) {
        snprintf(buf + used, n - used, ", ...");
        break;
      }
    }
}

/* ---- rendezvous ----------------------------------------------------------------- */

typedef struct hccl__join_msg {
  uint64_t id;
  uint32_t rank, nranks;
  int32_t world;
  int32_t pad;
} hccl__join_msg;

/* The root process's collector: takes joins until every rank is known.
 * Called without locks. */
static HcclResult hccl__collect(const char *api, hccl__group *g, uint64_t deadline) {
  int tag = hccl__mpi_tag(g->id, HCCL__TAG_JOIN);
  HcclResult rc = HCCL_SUCCESS;
  unsigned spins = 0;
  for (;;) {
    pthread_mutex_lock(&g->lock);
    uint32_t known = 0;
    for (uint32_t r = 0; r < g->nranks; r++)
      known += g->world[r] != -2;
    int failed = g->failed;
    pthread_mutex_unlock(&g->lock);
    if (known == g->nranks || failed)
      break;
    int flag = 0;
    MPI_Status st;
    hccl__mpi_lock();
    int mrc = MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &st);
    hccl__join_msg m;
    if (mrc == MPI_SUCCESS && flag)
      mrc = MPI_Recv(&m, (int)sizeof(m), MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    hccl__mpi_unlock();
    if (mrc != MPI_SUCCESS) {
      rc = hccl__fail(api, HCCL_E_TCP_CONNECT, "receiving the ranks' joins over MPI failed");
      break;
    }
    if (flag) {
      pthread_mutex_lock(&g->lock);
      if (m.id != g->id || m.nranks != g->nranks || m.rank >= g->nranks || g->world[m.rank] != -2) {
        fprintf(stderr, "hccl: %s: ignored a join from MPI rank %d (rank %u of %u%s)\n", api, (int)m.world,
                m.rank, m.nranks, m.rank < g->nranks && g->world[m.rank] != -2 ? ", joined twice" : "");
      } else {
        g->world[m.rank] = m.world;
      }
      pthread_mutex_unlock(&g->lock);
      continue;
    }
    if (hccl__now_ns() >= deadline) {
      char miss[256];
      pthread_mutex_lock(&g->lock);
      hccl__missing(g, miss, sizeof(miss));
      pthread_mutex_unlock(&g->lock);
      rc = hccl__fail(api, HCCL_E_TIMEOUT,
                      "ranks %s of %u did not join within HCCL_CONNECT_TIMEOUT (%d s). Remedy: start every rank "
                      "with the same root info and nRanks, and check that none failed before HcclCommInit*",
                      miss, g->nranks, hccl__env_connect_timeout());
      break;
    }
    struct timespec ts = {0, spins++ < 200 ? 50000 : 2000000};
    nanosleep(&ts, NULL);
  }
  if (rc != HCCL_SUCCESS)
    return rc;
  /* answer each remote rank with the map, sent from a copy that MPI may
   * keep if a send cannot be cancelled */
  tag = hccl__mpi_tag(g->id, HCCL__TAG_MAP);
  int32_t *map = malloc(g->nranks * sizeof(int32_t));
  if (map == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  memcpy(map, g->world, g->nranks * sizeof(int32_t));
  int keep = 0;
  for (uint32_t r = 0; r < g->nranks && rc == HCCL_SUCCESS; r++) {
    if (map[r] == g->my_world)
      continue;
    MPI_Request req;
    hccl__mpi_lock();
    int mrc = MPI_Isend(map, (int)(g->nranks * sizeof(int32_t)), MPI_BYTE, map[r], tag, MPI_COMM_WORLD, &req);
    hccl__mpi_unlock();
    int w = mrc == MPI_SUCCESS ? hccl__mpi_wait(&req, deadline) : -1;
    keep |= w == 2;
    if (w != 0)
      rc = hccl__fail(api, w > 0 ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT,
                      "could not send the rank map to rank %u (MPI rank %d)%s", r, (int)map[r],
                      w > 0 ? " within HCCL_CONNECT_TIMEOUT" : "");
  }
  if (!keep)
    free(map);
  return rc;
}

/* A rank in another process than the root's: join and take the map. */
static HcclResult hccl__join_remote(const char *api, hccl__group *g, uint32_t rank, int32_t root_world,
                                    uint64_t deadline) {
  /* both buffers on the heap: after a timeout MPI may keep one (then it is left to MPI) */
  hccl__join_msg *m = malloc(sizeof(*m));
  int32_t *map = malloc(g->nranks * sizeof(int32_t));
  if (m == NULL || map == NULL) {
    free(m), free(map);
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory for the rank map");
  }
  *m = (hccl__join_msg){g->id, rank, g->nranks, g->my_world, 0};
  MPI_Request req;
  hccl__mpi_lock();
  int mrc = MPI_Isend(m, (int)sizeof(*m), MPI_BYTE, root_world, hccl__mpi_tag(g->id, HCCL__TAG_JOIN), MPI_COMM_WORLD,
                      &req);
  hccl__mpi_unlock();
  int w = mrc == MPI_SUCCESS ? hccl__mpi_wait(&req, deadline) : -1;
  if (w != 2)
    free(m);
  if (w != 0) {
    free(map);
    return hccl__fail(api, w > 0 ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT,
                      "rank %u could not reach the root process (MPI rank %d)%s. Remedy: check that the root is "
                      "alive and called HcclCommInit* with the same root info",
                      rank, (int)root_world, w > 0 ? " within HCCL_CONNECT_TIMEOUT" : "");
  }
  hccl__mpi_lock();
  mrc = MPI_Irecv(map, (int)(g->nranks * sizeof(int32_t)), MPI_BYTE, root_world, hccl__mpi_tag(g->id, HCCL__TAG_MAP),
                  MPI_COMM_WORLD, &req);
  hccl__mpi_unlock();
  w = mrc == MPI_SUCCESS ? hccl__mpi_wait(&req, deadline) : -1;
  if (w != 0) {
    if (w != 2)
      free(map);
    return hccl__fail(api, w > 0 ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT,
                      "rank %u got no rank map from the root process (MPI rank %d)%s: some ranks did not join. "
                      "Remedy: start all nRanks ranks with the same root info",
                      rank, (int)root_world, w > 0 ? " within HCCL_CONNECT_TIMEOUT" : "");
  }
  pthread_mutex_lock(&g->lock);
  if (!g->mapped) {
    memcpy(g->world, map, g->nranks * sizeof(int32_t));
    g->mapped = 1;
    pthread_cond_broadcast(&g->cond);
  }
  pthread_mutex_unlock(&g->lock);
  free(map);
  return HCCL_SUCCESS;
}

/* With the map known: proc[] and, by the lowest local rank, the MPI
 * communicator of the processes involved. */
static HcclResult hccl__make_mpi_comm(const char *api, hccl__group *g, uint32_t rank, uint64_t deadline) {
  pthread_mutex_lock(&g->lock);
  int maker = 1;
  for (uint32_t r = 0; r < rank; r++)
    if (g->world[r] == g->my_world)
      maker = 0;
  if (!maker) {
    int w = hccl__group_wait(g, &g->ready, deadline);
    pthread_mutex_unlock(&g->lock);
    if (w == 0)
      return HCCL_SUCCESS;
    return hccl__fail(api, w == 1 ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT,
                      "the communicator's MPI connections were not made%s",
                      w == 1 ? " within HCCL_CONNECT_TIMEOUT" : " (another rank of this process failed)");
  }
  /* processes in the order of their world ranks */
  int nproc = 0;
  int *procs = malloc(g->nranks * sizeof(int));
  if (procs == NULL) {
    pthread_mutex_unlock(&g->lock);
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  }
  for (uint32_t r = 0; r < g->nranks; r++) {
    int seen = 0;
    for (int i = 0; i < nproc; i++)
      seen |= procs[i] == g->world[r];
    if (!seen)
      procs[nproc++] = g->world[r];
  }
  for (int i = 1; i < nproc; i++) /* insertion sort: few processes */
    for (int j = i; j > 0 && procs[j - 1] > procs[j]; j--) {
      int t = procs[j];
      procs[j] = procs[j - 1];
      procs[j - 1] = t;
    }
  for (uint32_t r = 0; r < g->nranks; r++) {
    g->proc[r] = -1;
    if (g->world[r] != g->my_world)
      for (int i = 0; i < nproc; i++)
        if (procs[i] == g->world[r])
          g->proc[r] = i;
  }
  pthread_mutex_unlock(&g->lock);
  HcclResult rc = HCCL_SUCCESS;
  MPI_Comm mc = MPI_COMM_NULL, ack = MPI_COMM_NULL;
  if (nproc > 1) {
    MPI_Group world_group, grp;
    hccl__mpi_lock();
    int mrc = MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    if (mrc == MPI_SUCCESS)
      mrc = MPI_Group_incl(world_group, nproc, procs, &grp);
    if (mrc == MPI_SUCCESS) {
      mrc = MPI_Comm_create_group(MPI_COMM_WORLD, grp, hccl__mpi_tag(g->id, HCCL__TAG_CREATE), &mc);
      MPI_Group_free(&grp);
    }
    MPI_Group_free(&world_group);
    if (mrc == MPI_SUCCESS)
      MPI_Comm_set_errhandler(mc, MPI_ERRORS_RETURN);
    /* same-host transfers' replies (transport_shm.c): without it every
     * message goes as plain data */
    if (mrc == MPI_SUCCESS && MPI_Comm_dup(mc, &ack) == MPI_SUCCESS)
      MPI_Comm_set_errhandler(ack, MPI_ERRORS_RETURN);
    hccl__mpi_unlock();
    if (mrc != MPI_SUCCESS)
      rc = hccl__fail(api, HCCL_E_TCP_CONNECT, "MPI_Comm_create_group over %d processes failed", nproc);
  }
  free(procs);
  pthread_mutex_lock(&g->lock);
  if (rc == HCCL_SUCCESS) {
    g->mpi = mc;
    g->ack = ack;
    g->ready = 1;
  } else {
    g->failed = 1;
  }
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->lock);
  return rc;
}

/* ---- configs ----------------------------------------------------------------- */

HcclResult hccl__config_apply(const char *api, const HcclCommConfig *cfg, char *name, int *exec_timeout) {
  if (cfg == NULL)
    return HCCL_SUCCESS;
  HcclConfigInfo info;
  memcpy(&info, cfg, sizeof(info));
  if (info.magicWord != HCCL_COMM_CONFIG_MAGIC_WORD)
    return hccl__fail(api, HCCL_E_PARA, "config has magic word 0x%08x, not 0x%08x. Remedy: call "
                      "HcclCommConfigInit(&config) before setting its fields", info.magicWord,
                      HCCL_COMM_CONFIG_MAGIC_WORD);
  /* Only the fields the caller's version has are read (an older header's
   * struct is shorter). */
  uint32_t v = info.version;
  if (v >= 1) {
    if (cfg->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET && cfg->hcclBufferSize < 1)
      return hccl__fail(api, HCCL_E_PARA, "config hcclBufferSize is %u MB; it must be at least 1",
                        cfg->hcclBufferSize);
    if (cfg->hcclDeterministic != HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET && cfg->hcclDeterministic > 2)
      return hccl__fail(api, HCCL_E_PARA, "config hcclDeterministic is %u; it must be 0, 1 or 2",
                        cfg->hcclDeterministic);
  }
  if (v >= 2 && cfg->hcclCommName[0] != '\0') {
    if (memchr(cfg->hcclCommName, '\0', COMM_NAME_MAX_LENGTH) == NULL)
      return hccl__fail(api, HCCL_E_PARA, "config hcclCommName is not terminated within %d bytes",
                        COMM_NAME_MAX_LENGTH);
    snprintf(name, HCCL__NAME_MAX, "%s", cfg->hcclCommName);
  }
  if (v >= 7 && cfg->aclGraphZeroCopyEnable > 1)
    return hccl__fail(api, HCCL_E_PARA, "config aclGraphZeroCopyEnable is %u; it must be 0 or 1",
                      (unsigned)cfg->aclGraphZeroCopyEnable);
  if (v >= 8 && cfg->hcclExecTimeOut != HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET) {
    if (cfg->hcclExecTimeOut < 0)
      return hccl__fail(api, HCCL_E_PARA, "config hcclExecTimeOut is %d s; it must be 0 (never) or more",
                        (int)cfg->hcclExecTimeOut);
    *exec_timeout = cfg->hcclExecTimeOut;
  }
  return HCCL_SUCCESS;
}

/* ---- init ----------------------------------------------------------------------- */

static void hccl__comm_free(hccl__comm *c) {
  c->magic = 0;
  free(c->stage_cache);
  free(c->seq);
  pthread_mutex_destroy(&c->stage_lock);
  free(c);
}

static hccl__comm *hccl__comm_alloc(uint32_t rank, uint32_t nranks, int32_t dev) {
  hccl__comm *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return NULL;
  c->magic = HCCL__COMM_MAGIC;
  c->rank = rank;
  c->nranks = nranks;
  c->device = dev;
  c->exec_timeout_s = hccl__env_exec_timeout();
  c->peer_memory = hccl__env_peer_memory();
  c->seq = calloc(2 * (size_t)nranks, sizeof(uint32_t));
  if (c->seq == NULL) {
    free(c);
    return NULL;
  }
  atomic_init(&c->status, HCCL_COMM_STATUS_READY);
  pthread_mutex_init(&c->stage_lock, NULL);
  return c;
}

/* Takes the group for `id` (made when new), counting a reference. */
static hccl__group *hccl__group_take(uint64_t id, uint32_t nranks, int *mismatch) {
  *mismatch = 0;
  pthread_mutex_lock(&hccl__reg_lock);
  hccl__group *g = hccl__groups;
  while (g != NULL && g->id != id)
    g = g->next;
  if (g != NULL && g->nranks != nranks) {
    *mismatch = (int)g->nranks;
    g = NULL;
  } else if (g == NULL && (g = hccl__group_new(id, nranks)) != NULL) {
    g->next = hccl__groups;
    hccl__groups = g;
  }
  if (g != NULL) {
    pthread_mutex_lock(&g->lock);
    g->refs++;
    pthread_mutex_unlock(&g->lock);
  }
  pthread_mutex_unlock(&hccl__reg_lock);
  return g;
}

static void hccl__comm_publish(hccl__comm *c) {
  pthread_mutex_lock(&hccl__reg_lock);
  c->next = hccl__live;
  hccl__live = c;
  pthread_mutex_unlock(&hccl__reg_lock);
}

HcclResult hccl__comm_init(const char *api, uint32_t nranks, const hccl__rootinfo *ri, uint32_t rank,
                           const HcclCommConfig *cfg, hccl__comm **out) {
  HcclResult rc;
  int32_t dev = -1;
  if (aclrtGetDevice(&dev) != ACL_SUCCESS)
    return hccl__fail(api, HCCL_E_RUNTIME, "the calling thread has no device. Remedy: call aclrtSetDevice for "
                      "this rank's device before HcclCommInit*");
  hccl__comm *c = hccl__comm_alloc(rank, nranks, dev);
  if (c == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  snprintf(c->name, sizeof(c->name), "%s", ri->name);
  if ((rc = hccl__config_apply(api, cfg, c->name, &c->exec_timeout_s)) != HCCL_SUCCESS) {
    hccl__comm_free(c);
    return rc;
  }
  int self_root = hccl__rootinfo_is_self(ri);
  int mpi_mode = ri->root_world >= 0;
  int world = -1, size = 0;
  if (!mpi_mode && !self_root) {
    hccl__comm_free(c);
    return hccl__fail(api, HCCL_E_NOT_SUPPORT,
                      "the root info comes from process %d on host %s, which is in no MPI job, and this is another "
                      "process. Remedy: launch every process with mpirun (MPI carries the data between processes), "
                      "or run all ranks in the root's process",
                      (int)ri->root_pid, ri->host);
  }
  if (mpi_mode) {
    if ((rc = hccl__mpi_ensure(api, 1, &world, &size)) != HCCL_SUCCESS) {
      hccl__comm_free(c);
      return rc;
    }
    if (size <= 1 || ri->root_world >= size) {
      hccl__comm_free(c);
      return hccl__fail(api, HCCL_E_NOT_SUPPORT,
                        "the root info comes from MPI rank %d of an MPI job, but this process is %s. Remedy: start "
                        "all processes with the same mpirun",
                        (int)ri->root_world, size <= 1 ? "in no MPI job" : "in a smaller job");
    }
  }
  int mismatch;
  hccl__group *g = hccl__group_take(ri->id, nranks, &mismatch);
  if (g == NULL) {
    hccl__comm_free(c);
    return mismatch ? hccl__fail(api, HCCL_E_PARA, "nRanks %u differs from the %d another rank of this process "
                                 "passed with the same root info", nranks, mismatch)
                    : hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  }
  uint64_t deadline = hccl__now_ns() + (uint64_t)hccl__env_connect_timeout() * 1000000000u;
  int collector = 0;
  rc = HCCL_SUCCESS;
  pthread_mutex_lock(&g->lock);
  if (g->members[rank] != NULL || g->ready || g->failed) {
    int taken = g->members[rank] != NULL, over = g->ready;
    pthread_mutex_unlock(&g->lock);
    hccl__group_unref(g);
    hccl__comm_free(c);
    if (taken)
      return hccl__fail(api, HCCL_E_PARA, "rank %u of this root info has joined already in this process. Remedy: "
                        "give each thread its own rank", rank);
    return hccl__fail(api, HCCL_E_PARA, "the communicator of this root info %s. Remedy: a root info makes one "
                      "communicator: call HcclGetRootInfo again for another",
                      over ? "is complete already" : "failed to form (a rank timed out)");
  }
  g->members[rank] = c;
  g->local_joined++;
  g->mpi_mode = mpi_mode;
  g->my_world = mpi_mode ? world : -1;
  c->g = g;
  int root_proc = !mpi_mode || ri->root_world == world;
  if (root_proc) {
    g->world[rank] = g->my_world;
    if (mpi_mode && !g->collector)
      collector = g->collector = 1;
  }
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->lock);

  if (!mpi_mode) {
    /* every rank in this process: wait for all */
    pthread_mutex_lock(&g->lock);
    while (g->local_joined < nranks && !g->failed && hccl__now_ns() < deadline) {
      int dummy = 0;
      (void)hccl__group_wait(g, &dummy, hccl__now_ns() + 50000000u < deadline ? hccl__now_ns() + 50000000u : deadline);
    }
    if (g->local_joined == nranks) {
      if (!g->ready) { /* the first to see it: proc[] is read without the lock once ready */
        for (uint32_t r = 0; r < nranks; r++)
          g->proc[r] = -1;
        g->mapped = g->ready = 1;
        pthread_cond_broadcast(&g->cond);
      }
    } else if (!g->failed) {
      char miss[256];
      size_t used = 0;
      miss[0] = '\0';
      for (uint32_t r = 0; r < nranks && used + 16 < sizeof(miss); r++)
        if (g->members[r] == NULL)
          used += (size_t)snprintf(miss + used, sizeof(miss) - used, "%s%u", used ? ", " : "", r);
      g->failed = 1;
      pthread_cond_broadcast(&g->cond);
      rc = hccl__fail(api, HCCL_E_TIMEOUT, "ranks %s of %u did not join within HCCL_CONNECT_TIMEOUT (%d s). "
                      "Remedy: start a thread per rank, each calling HcclCommInitRootInfo with its rank",
                      miss, nranks, hccl__env_connect_timeout());
    } else {
      rc = hccl__fail(api, HCCL_E_TIMEOUT, "another rank's join timed out");
    }
    pthread_mutex_unlock(&g->lock);
  } else {
    if (collector) {
      rc = hccl__collect(api, g, deadline);
      pthread_mutex_lock(&g->lock);
      if (rc == HCCL_SUCCESS)
        g->mapped = 1;
      else
        g->failed = 1;
      pthread_cond_broadcast(&g->cond);
      pthread_mutex_unlock(&g->lock);
    } else if (root_proc) {
      pthread_mutex_lock(&g->lock);
      int w = hccl__group_wait(g, &g->mapped, deadline);
      pthread_mutex_unlock(&g->lock);
      if (w != 0)
        rc = hccl__fail(api, HCCL_E_TIMEOUT, "the ranks did not all join within HCCL_CONNECT_TIMEOUT (%d s)",
                        hccl__env_connect_timeout());
    } else {
      rc = hccl__join_remote(api, g, rank, ri->root_world, deadline);
    }
    if (rc == HCCL_SUCCESS)
      rc = hccl__make_mpi_comm(api, g, rank, deadline);
  }
  if (rc != HCCL_SUCCESS) {
    pthread_mutex_lock(&g->lock);
    g->members[rank] = NULL;
    g->failed = 1;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
    hccl__group_unref(g);
    hccl__comm_free(c);
    return rc;
  }
  hccl__comm_publish(c);
  *out = c;
  return HCCL_SUCCESS;
}

HcclResult hccl__comm_init_all(const char *api, uint32_t ndev, const int32_t *devices, HcclComm *comms) {
  uint64_t id = hccl__unique_id();
  int mismatch;
  hccl__group *g = hccl__group_take(id, ndev, &mismatch);
  if (g == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  char name[HCCL__NAME_MAX];
  snprintf(name, sizeof(name), "hccl_all_%d_%016llx", (int)devices[0], (unsigned long long)id);
  hccl__comm **cs = calloc(ndev, sizeof(*cs));
  HcclResult rc = HCCL_SUCCESS;
  for (uint32_t i = 0; cs != NULL && i < ndev; i++)
    if ((cs[i] = hccl__comm_alloc(i, ndev, devices[i])) == NULL)
      rc = HCCL_E_MEMORY;
  if (cs == NULL || rc != HCCL_SUCCESS) {
    for (uint32_t i = 0; cs != NULL && i < ndev; i++)
      if (cs[i] != NULL)
        hccl__comm_free(cs[i]);
    free(cs);
    hccl__group_unref(g);
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  }
  pthread_mutex_lock(&g->lock);
  g->refs += (int)ndev - 1; /* one per comm */
  for (uint32_t i = 0; i < ndev; i++) {
    cs[i]->g = g;
    snprintf(cs[i]->name, sizeof(cs[i]->name), "%s", name);
    g->members[i] = cs[i];
    g->world[i] = -1;
    g->proc[i] = -1;
  }
  g->local_joined = ndev;
  g->my_world = -1;
  g->mapped = g->ready = 1;
  pthread_mutex_unlock(&g->lock);
  for (uint32_t i = 0; i < ndev; i++) {
    hccl__comm_publish(cs[i]);
    comms[i] = cs[i];
  }
  free(cs);
  return HCCL_SUCCESS;
}

/* ---- destroy ---------------------------------------------------------------------- */

HcclResult hccl__comm_destroy(const char *api, hccl__comm *c) {
  pthread_mutex_lock(&hccl__reg_lock);
  if (atomic_load(&c->inflight) > 0) {
    pthread_mutex_unlock(&hccl__reg_lock);
    return hccl__fail(api, HCCL_E_AGAIN, "communicator %s (rank %u) still has %d operations queued or running. "
                      "Remedy: synchronise their streams first, then destroy", c->name, c->rank,
                      atomic_load(&c->inflight));
  }
  hccl__comm **pp = &hccl__live;
  while (*pp != NULL && *pp != c)
    pp = &(*pp)->next;
  if (*pp == c)
    *pp = c->next;
  pthread_mutex_unlock(&hccl__reg_lock);
  hccl__group *g = c->g;
  pthread_mutex_lock(&g->lock);
  g->members[c->rank] = NULL;
  pthread_mutex_unlock(&g->lock);
  hccl__comm_free(c);
  hccl__group_unref(g);
  return HCCL_SUCCESS;
}
