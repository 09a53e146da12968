/*
 * infer_shard.c - `mpirun -n N openacl infer ...`: the inputs split between
 * the ranks, one summary for the whole job.
 *
 * The launcher's environment says who we are (Open MPI's
 * OMPI_COMM_WORLD_RANK / _SIZE / _LOCAL_RANK, or PMI_RANK / PMI_SIZE and
 * MPI_LOCALRANKID), so splitting needs no MPI call: rank r runs the
 * executions [n*r/N, n*(r+1)/N) of the n a single run would make, in the
 * same order, and names their outputs as the single run does.  Each rank
 * uses device (local rank mod device count) unless --device says otherwise.
 *
 * Talking between the ranks goes through the tool's own stack: an HCCL
 * communicator (libhccl.so on Open MPI) made from a rank table the tool
 * writes (every rank writes the same bytes, so no file needs to be shared),
 * before the model is loaded, when all ranks start together.  Two all-gathers
 * follow: after setup every rank says whether it is ready (a rank that
 * failed stops every rank before anything runs), and after the run each
 * rank's figures and status go to every rank; rank 0 prints the summary.
 * A rank that fails always reaches both exchanges with its status, so the
 * others never wait for it; one that cannot (no device, killed) exits, and
 * mpirun ends the job.  HCCL_CONNECT_TIMEOUT and HCCL_EXEC_TIMEOUT bound
 * the waits for a rank that stalls.
 *
 * Built without libhccl (OPENACL_HCCL off), or launched by a launcher other
 * than Open MPI's (only PMI_RANK / PMI_SIZE set: libhccl, built on Open MPI,
 * cannot join such a job), the inputs are still split but there is nothing
 * to exchange: every rank prints its own summary.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infer_job.h"

#ifdef OPENACL_TOOL_HCCL
#include "hccl/hccl.h"
#endif

/* The figures each rank sends, as doubles (one HcclAllGather of FP64). */
enum {
  R_STATUS,   /* 0 ok, else the rank's exit code */
  R_DEVICE,
  R_EXECS,    /* executions of distinct data in its shard */
  R_ITEMS,    /* items of distinct data */
  R_RUNS,     /* aclmdlExecute calls */
  R_ITEMS_RUN, /* items over every run (loop and warm-up included) */
  R_RUN_MS,   /* wall time of the runs, file reading and writing included */
  R_COUNT,    /* steady-state runs measured */
  R_P50,
  R_MIN,
  R_MAX,
  R_LOAD_MS,
  R_FIRST,
  R_N
};

static const char *env_first(const char *a, const char *b) {
  const char *v = getenv(a);
  if (v == NULL || *v == '\0')
    v = getenv(b);
  return v != NULL && *v != '\0' ? v : NULL;
}

static int env_int(const char *s, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || errno != 0 || v < 0 || v > 1000000)
    return -1;
  *out = (int)v;
  return 0;
}

/* Every rank on a node starting one executor thread per core of the node
 * (the default) would put N times as many busy threads as cores on it, and
 * oneDNN's OpenMP teams spin: hundreds of times slower.  Unless the user set
 * OPENACL_EXECUTOR_THREADS, a rank takes the cores it is bound to (mpirun
 * --bind-to core: one) or, unbound, its share of the node's cores. */
static void share_cores(int local_size) {
  const char *set = getenv("OPENACL_EXECUTOR_THREADS");
  if (set != NULL && *set != '\0')
    return;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t mask;
  long mine = online;
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
    mine = CPU_COUNT(&mask);
  long threads = mine < online ? mine : online / (local_size > 0 ? local_size : 1);
  if (threads < 1)
    threads = 1;
  if (threads > 256)
    threads = 256;
  char v[16];
  snprintf(v, sizeof(v), "%ld", threads);
  setenv("OPENACL_EXECUTOR_THREADS", v, 1);
}

int infer_shard_detect(infer_shard *s) {
  memset(s, 0, sizeof(*s));
  const char *r = env_first("OMPI_COMM_WORLD_RANK", "PMI_RANK");
  const char *n = env_first("OMPI_COMM_WORLD_SIZE", "PMI_SIZE");
  const char *l = env_first("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID");
  if (r == NULL || n == NULL)
    return 0;
  if (env_int(r, &s->rank) != 0 || env_int(n, &s->size) != 0 || s->size < 1 || s->rank >= s->size ||
      (l != NULL && env_int(l, &s->local_rank) != 0)) {
    tool_error("the launcher's rank or size is not a number: rank '%s', size '%s'%s%s", r, n,
               l != NULL ? ", local rank " : "", l != NULL ? l : "");
    return TOOL_FAIL;
  }
  if (l == NULL)
    s->local_rank = s->rank;
  const char *ls = env_first("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS");
  int local_size = s->size;
  if (ls != NULL && env_int(ls, &local_size) != 0)
    local_size = s->size;
  share_cores(local_size);
  if (s->size > 1)
    tool_set_rank(s->rank);
  return 0;
}

void infer_shard_range(const infer_shard *s, size_t n_exec, size_t *lo, size_t *hi) {
  if (s->size <= 1) {
    *lo = 0;
    *hi = n_exec;
    return;
  }
  *lo = n_exec * (size_t)s->rank / (size_t)s->size;
  *hi = n_exec * ((size_t)s->rank + 1) / (size_t)s->size;
}

#ifdef OPENACL_TOOL_HCCL

static int hccl_error(const char *what, const char *api, HcclResult rc) {
  const char *msg = aclGetRecentErrMsg();
  tool_error("%s: %s returned %s (%d)%s%s", what, api, HcclGetErrorString(rc), (int)rc,
             msg != NULL && *msg ? ": " : "", msg != NULL ? msg : "");
  return TOOL_FAIL;
}

/* A rank table every rank writes alike (so its hash, the communicator's id,
 * agrees): ranks 0..N-1; the devices listed are not what HCCL uses (each
 * rank is on the device it set), so they are written as 0. */
static int make_comm(infer_shard *s) {
  const char *tmp = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof(path), "%s/openacl-infer-ranks-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f == NULL) {
    tool_error("cannot write the rank table '%s': %s", path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(path);
    }
    return TOOL_FAIL;
  }
  fprintf(f, "{\"status\": \"completed\", \"version\": \"2.0\", \"rank_list\": [");
  for (int r = 0; r < s->size; r++)
    fprintf(f, "%s{\"rank_id\": %d, \"device_id\": 0}", r ? ", " : "", r);
  fprintf(f, "]}\n");
  int bad = fclose(f) != 0;
  HcclResult rc = bad ? HCCL_E_INTERNAL : HcclCommInitClusterInfo(path, (uint32_t)s->rank, (HcclComm *)&s->comm);
  unlink(path);
  if (bad) {
    tool_error("cannot write the rank table '%s': %s", path, strerror(errno));
    return TOOL_FAIL;
  }
  if (rc != HCCL_SUCCESS) {
    s->comm = NULL;
    char what[128];
    snprintf(what, sizeof(what), "joining the other %d rank%s", s->size - 1, s->size == 2 ? "" : "s");
    return hccl_error(what, "HcclCommInitClusterInfo", rc);
  }
  return 0;
}

/* Every rank's R_N doubles into all (size * R_N), through device memory and
 * a stream of the current context, as HCCL wants them. */
static int all_gather(infer_shard *s, const double *mine, double *all) {
  const size_t one = R_N * sizeof(double), every = one * (size_t)s->size;
  void *send = NULL, *recv = NULL;
  aclrtStream stream = NULL;
  aclrtContext was = NULL;
  /* the device's default context, which _begin opened: the model's may be
   * gone already (a rank whose load failed) */
  if (aclrtGetCurrentContext(&was) != ACL_SUCCESS)
    was = NULL;
  const char *api = "aclrtSetCurrentContext";
  aclError arc = aclrtSetCurrentContext((aclrtContext)s->ctx);
  if (arc == ACL_SUCCESS && (api = "aclrtMalloc", 1))
    arc = aclrtMalloc(&send, one, ACL_MEM_MALLOC_HUGE_FIRST);
  if (arc == ACL_SUCCESS)
    arc = aclrtMalloc(&recv, every, ACL_MEM_MALLOC_HUGE_FIRST);
  if (arc == ACL_SUCCESS && (api = "aclrtCreateStream", 1))
    arc = aclrtCreateStream(&stream);
  if (arc == ACL_SUCCESS && (api = "aclrtMemcpy", 1))
    arc = aclrtMemcpy(send, one, mine, one, ACL_MEMCPY_HOST_TO_DEVICE);
  int ret = 0;
  if (arc != ACL_SUCCESS) {
    ret = tool_acl_error("exchanging figures with the other ranks", api, arc);
    goto out;
  }
  HcclResult hrc = HcclAllGather(send, recv, R_N, HCCL_DATA_TYPE_FP64, (HcclComm)s->comm, stream);
  if (hrc != HCCL_SUCCESS) {
    ret = hccl_error("exchanging figures with the other ranks", "HcclAllGather", hrc);
    goto out;
  }
  api = "aclrtSynchronizeStream";
  arc = aclrtSynchronizeStream(stream);
  if (arc == ACL_SUCCESS && (api = "aclrtMemcpy", 1))
    arc = aclrtMemcpy(all, every, recv, every, ACL_MEMCPY_DEVICE_TO_HOST);
  if (arc != ACL_SUCCESS)
    ret = tool_acl_error("exchanging figures with the other ranks", api, arc);
out:
  if (stream != NULL)
    aclrtDestroyStream(stream);
  aclrtFree(send);
  aclrtFree(recv);
  if (was != NULL)
    aclrtSetCurrentContext(was);
  return ret;
}

static int begin_comm(infer_shard *s) { return make_comm(s); }

static void end_comm(infer_shard *s) {
  if (s->comm != NULL)
    HcclCommDestroy((HcclComm)s->comm);
  s->comm = NULL;
}

#else

static int begin_comm(infer_shard *s) {
  (void)s;
  return 0;
}
static int all_gather(infer_shard *s, const double *mine, double *all) {
  (void)s, (void)mine, (void)all;
  return -1;
}
static void end_comm(infer_shard *s) { (void)s; }

#endif

int infer_shard_begin(infer_shard *s, infer_opts *o) {
  if (s->size < 1)
    return 0;
  s->begun = 1;
  int ret = tool_acl_init();
  if (ret != 0)
    return ret;
  if (!o->device_given) {
    uint32_t count = 0;
    aclError rc = aclrtGetDeviceCount(&count);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("counting the devices", "aclrtGetDeviceCount", rc);
    if (count == 0) {
      tool_error("no device to run on");
      return TOOL_FAIL;
    }
    o->device = (int32_t)((uint32_t)s->local_rank % count);
  }
  /* libhccl joins Open MPI's jobs only: under another launcher (MPICH's
   * hydra, srun) the ranks split the inputs and report alone */
  if (s->size == 1 || getenv("OMPI_COMM_WORLD_SIZE") == NULL)
    return 0;
  aclError rc = aclrtSetDevice(o->device);
  if (rc != ACL_SUCCESS) {
    char what[128];
    snprintf(what, sizeof(what), "opening device %d", (int)o->device);
    return tool_acl_error(what, "aclrtSetDevice", rc);
  }
  s->device_set = 1;
  if ((rc = aclrtGetCurrentContext((aclrtContext *)&s->ctx)) != ACL_SUCCESS)
    return tool_acl_error("finding the device's default context", "aclrtGetCurrentContext", rc);
  ret = begin_comm(s);
  s->broken = ret != 0;
#ifdef OPENACL_TOOL_HCCL
  s->exchange = ret == 0;
#endif
  return ret;
}

int infer_shard_reports(const infer_shard *s) { return s->size == 1 || (s->size > 1 && s->exchange); }

int infer_shard_ready(infer_shard *s, int ret) {
  if (!s->exchange || s->readied)
    return ret;
  s->readied = 1;
  double mine[R_N] = {0}, *all = calloc((size_t)s->size * R_N, sizeof(double));
  if (all == NULL) {
    tool_error("out of memory");
    s->exchange = 0;
    return TOOL_FAIL;
  }
  mine[R_STATUS] = ret;
  if (all_gather(s, mine, all) != 0) {
    s->exchange = 0; /* the communicator is not usable: later ones would wait */
    s->broken = 1;
    free(all);
    return ret != 0 ? ret : TOOL_FAIL;
  }
  for (int r = 0; r < s->size; r++) {
    if (all[r * R_N + R_STATUS] != 0 && ret == 0) {
      /* the failing rank printed why; one line from every other rank would
       * only repeat it */
      if (s->rank == 0 || (r == 0 && s->rank == 1))
        tool_error("rank %d failed before running (its message above): every rank stops", r);
      ret = TOOL_FAIL;
    }
  }
  s->stopped = ret != 0;
  free(all);
  return ret;
}

static void print_job(const infer_shard *s, const infer_job *j, const double *all, size_t n_exec) {
  double items = 0, items_run = 0, slowest = 0, runs = 0;
  for (int r = 0; r < s->size; r++) {
    const double *x = all + r * R_N;
    items += x[R_ITEMS];
    items_run += x[R_ITEMS_RUN];
    runs += x[R_RUNS];
    if (x[R_RUN_MS] > slowest)
      slowest = x[R_RUN_MS];
  }
  printf("model            %s (loaded in %.3f ms on rank 0)\n", j->o->model, all[R_LOAD_MS]);
  printf("job              %d ranks, %zu execution%s of %g item%s split between them, %g run%s in all\n", s->size,
         n_exec, n_exec == 1 ? "" : "s", items, items == 1 ? "" : "s", runs, runs == 1 ? "" : "s");
  printf("throughput       %.1f items/s (%g items run in %.3f ms, the slowest rank's time)\n",
         slowest > 0 ? items_run * 1000.0 / slowest : 0.0, items_run, slowest);
  printf("  %4s %6s %10s %6s %9s %9s %9s %12s\n", "rank", "device", "executions", "runs", "p50", "min", "max",
         "items/s");
  for (int r = 0; r < s->size; r++) {
    const double *x = all + r * R_N;
    double ips = x[R_RUN_MS] > 0 ? x[R_ITEMS_RUN] * 1000.0 / x[R_RUN_MS] : 0.0;
    if (x[R_COUNT] > 0)
      printf("  %4d %6g %10g %6g %9.3f %9.3f %9.3f %12.1f\n", r, x[R_DEVICE], x[R_EXECS], x[R_COUNT], x[R_P50],
             x[R_MIN], x[R_MAX], ips);
    else
      printf("  %4d %6g %10g %6g %9s %9s %9s %12.1f\n", r, x[R_DEVICE], x[R_EXECS], x[R_COUNT], "-", "-", "-", ips);
  }
  printf("  (ms; runs: steady-state runs measured, after each rank's first run and warm-up; use --loop N for more)\n");
}

static int write_json(const infer_shard *s, const infer_job *j, const double *all, size_t n_exec) {
  FILE *f = fopen(j->o->summary_json, "w");
  if (f == NULL) {
    tool_error("cannot write --summary-json file '%s': %s", j->o->summary_json, strerror(errno));
    return TOOL_FAIL;
  }
  double items = 0, items_run = 0, slowest = 0;
  for (int r = 0; r < s->size; r++) {
    items += all[r * R_N + R_ITEMS];
    items_run += all[r * R_N + R_ITEMS_RUN];
    if (all[r * R_N + R_RUN_MS] > slowest)
      slowest = all[r * R_N + R_RUN_MS];
  }
  fprintf(f, "{\n  \"model\": \"");
  for (const char *p = j->o->model; *p != '\0'; p++)
    fprintf(f, (unsigned char)*p < 0x20 ? "\\u%04x" : *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
  fprintf(f, "\",\n  \"ranks\": %d,\n  \"distinct_inputs\": %zu,\n  \"items\": %g,\n  \"items_run\": %g,\n", s->size,
          n_exec, items, items_run);
  fprintf(f, "  \"run_ms\": %.6f,\n  \"items_per_s\": %.3f,\n  \"per_rank\": [\n", slowest,
          slowest > 0 ? items_run * 1000.0 / slowest : 0.0);
  for (int r = 0; r < s->size; r++) {
    const double *x = all + r * R_N;
    fprintf(f,
            "    {\"rank\": %d, \"device\": %g, \"executions\": %g, \"items\": %g, \"runs\": %g, \"run_ms\": %.6f, "
            "\"load_ms\": %.6f, \"steady_runs\": %g",
            r, x[R_DEVICE], x[R_EXECS], x[R_ITEMS], x[R_RUNS], x[R_RUN_MS], x[R_LOAD_MS], x[R_COUNT]);
    if (x[R_COUNT] > 0)
      fprintf(f, ", \"p50_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f", x[R_P50], x[R_MIN], x[R_MAX]);
    fprintf(f, "}%s\n", r + 1 < s->size ? "," : "");
  }
  fprintf(f, "  ]\n}\n");
  if (fclose(f) != 0) {
    tool_error("cannot write --summary-json file '%s': %s", j->o->summary_json, strerror(errno));
    return TOOL_FAIL;
  }
  return 0;
}

int infer_shard_end(infer_shard *s, const infer_job *j, const infer_times *t, int ret) {
  double mine[R_N] = {0}, *all = NULL;
  if (!s->begun)
    return ret; /* a usage error, or a failure before _begin: mpirun ends the job on our exit status */
  /* a rank that failed before infer_shard_ready still says so there: the
   * others are waiting in it */
  const int ran = s->readied;
  ret = infer_shard_ready(s, ret);
  if (ran && ret != 0 && !s->stopped && s->exchange) {
    /* failed while the others run: they would finish their shares before
     * hearing of it at the last exchange.  Leave now (below); mpirun ends
     * the job. */
    s->broken = 1;
    goto out;
  }
  if (!infer_shard_reports(s))
    goto out;
  if (s->size == 1) {
    all = mine; /* one rank: its own figures */
  } else if ((all = calloc((size_t)s->size * R_N, sizeof(double))) == NULL) {
    tool_error("out of memory");
    ret = ret != 0 ? ret : TOOL_FAIL;
    goto out;
  }
  mine[R_STATUS] = ret;
  mine[R_DEVICE] = j->o->device;
  mine[R_EXECS] = (double)t->shard_execs;
  mine[R_ITEMS] = t->items;
  mine[R_RUNS] = (double)t->executions;
  mine[R_ITEMS_RUN] = t->items_run;
  mine[R_RUN_MS] = t->run_ms;
  mine[R_COUNT] = (double)t->e2e.count;
  mine[R_P50] = t->e2e.p50;
  mine[R_MIN] = t->e2e.min;
  mine[R_MAX] = t->e2e.max;
  mine[R_LOAD_MS] = j->m != NULL ? j->m->load_ms : 0;
  mine[R_FIRST] = t->first_e2e;
  if (all != mine && !s->stopped && all_gather(s, mine, all) != 0) {
    s->broken = 1;
    ret = ret != 0 ? ret : TOOL_FAIL;
    goto out;
  }
  if (all != mine && s->stopped)
    goto out; /* every rank knows already; nothing ran */
  if (all == mine && ret != 0)
    goto out;
  int failed = 0;
  for (int r = 0; r < s->size; r++) {
    if (all[r * R_N + R_STATUS] == 0)
      continue;
    if (!failed && ret == 0 && (s->rank == 0 || (r == 0 && s->rank == 1)))
      tool_error("rank %d failed (its message above): the job's outputs are incomplete", r);
    failed = 1;
  }
  if (failed) {
    ret = ret != 0 ? ret : TOOL_FAIL;
    goto out;
  }
  if (s->rank == 0 && !j->o->quiet)
    print_job(s, j, all, j->n_exec);
  if (s->rank == 0 && j->o->summary_json != NULL)
    ret = write_json(s, j, all, j->n_exec);
out:
  if (all != mine)
    free(all);
  end_comm(s);
  if (s->device_set)
    aclrtResetDevice(j->o->device);
  s->device_set = 0;
  if (s->broken) {
    /* This rank could not tell the others, or should not make them wait.
     * Leaving through exit() would run MPI_Finalize, which waits for them
     * while they wait for us: leave at once instead, and mpirun, seeing a
     * rank fail, ends the job. */
    fflush(stdout);
    fflush(stderr);
    _exit(ret != 0 ? ret : TOOL_FAIL);
  }
  return ret;
}
