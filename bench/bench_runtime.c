/*
 * bench_runtime.c - what the runtime's everyday calls cost, next to PoCL.
 *
 *   bench_runtime [--runs N] [--procs N] [--kernel PATH] [--peer-only] [--acl-only] [--profile DIR]
 *
 * openacl goes through the public ACL API only; the peer is PoCL (the CPU
 * OpenCL runtime, through the ICD loader) and, for copies and allocation,
 * plain libc.  Both run in the same process, on the same machine:
 *
 *   (a) 10,000 asynchronous empty kernel launches, then one synchronise
 *       (per launch)            aclrtLaunchKernel      clEnqueueNDRangeKernel
 *   (b) one empty launch + synchronise                 ... + clFinish
 *   (c) event record + synchronise  aclrtRecordEvent + aclrtSynchronizeEvent;
 *       clEnqueueMarkerWithWaitList + clWaitForEvents + clReleaseEvent
 *       (OpenCL events cannot be reused)
 *   (d) 64 MiB host-to-device and device-to-host copies (bandwidth) against
 *       memcpy and blocking clEnqueueWriteBuffer / clEnqueueReadBuffer
 *   (e) aclrtMalloc + aclrtFree of 1 MiB against malloc + free and
 *       clCreateBuffer + clReleaseMemObject
 *   (f) a cold process (this binary re-executed): aclInit + aclrtSetDevice +
 *       aclrtCreateStream against clGetPlatformIDs + clGetDeviceIDs +
 *       clCreateContext + clCreateCommandQueue, and the teardown of each
 *   (g) creating (and then destroying) 10,000 streams / command queues
 *
 * The empty kernel is bench/kernels/empty_kernel.c, built as a shared object
 * (path compiled in, or --kernel); the OpenCL one is built from source before
 * anything is timed.  Every in-process case runs a warm-up, then N runs
 * (default 11); the table gives the median and the minimum over the runs (for
 * bandwidth the median and the best), the ratio of medians openacl / peer
 * (for times lower is better, for bandwidth higher) and whether the goal is
 * met.
 * Without OpenCL headers at build time the PoCL column says n/a.
 * --profile DIR runs openacl's in-process cases with profiling on
 * (aclprofInit(DIR), ACL_API | TASK_TIME | RUNTIME_API): what it costs
 * (docs/performance.md, "Profiling cost").
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#if OPENACL_BENCH_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#endif

#ifndef OPENACL_BENCH_EMPTY_KERNEL
#define OPENACL_BENCH_EMPTY_KERNEL ""
#endif

#define MAX_RUNS 101
#define LAUNCHES 10000                /* (a) */
#define ROUND_TRIPS 2000              /* (b), (c) per run */
#define COPY_BYTES (64u << 20)        /* (d) */
#define ALLOC_BYTES (1u << 20)        /* (e) */
#define ALLOCS 10000                  /* (e) per run */
#define STREAMS 10000                 /* (g) */
#define CASE_BUDGET_NS 15000000000ull /* a case stops adding runs after 15 s (at least 3 runs) */
#define WATCHDOG_S 300

static const char *g_tool = "bench_runtime";
static volatile const char *g_case = "start-up";
static int g_runs = 11;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_alarm(int sig) {
  (void)sig;
  static const char msg[] = "bench_runtime: watchdog: a case ran longer than 300 s; stopped in: ";
  ssize_t unused = write(2, msg, sizeof(msg) - 1);
  const char *c = (const char *)g_case;
  unused = write(2, c, strlen(c));
  unused = write(2, "\n", 1);
  (void)unused;
  _exit(2);
}

/* ---- statistics ---------------------------------------------------------- */

/* Per-operation nanoseconds over the runs; n == 0: not measured. */
typedef struct {
  double med, min;
  int n;
} stat_t;

static const stat_t none = {0, 0, 0};

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static stat_t summarize(uint64_t *v, int n, double per) {
  stat_t s = none;
  if (n <= 0)
    return s;
  qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
  s.med = (n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2) / per;
  s.min = (double)v[0] / per;
  s.n = n;
  return s;
}

/* One timed run: does `iters` operations, stores the elapsed ns; 0 = ok. */
typedef int (*run_fn)(void *env, int iters, uint64_t *ns);

/* A warm-up run, then up to g_runs runs; per-operation stats. */
static stat_t measure(const char *name, run_fn fn, void *env, int iters) {
  uint64_t v[MAX_RUNS], t;
  g_case = name;
  if (fn(env, iters / 10 + 1, &t) != 0)
    return none;
  int n = 0;
  uint64_t start = now_ns();
  for (int r = 0; r < g_runs; r++) {
    if (fn(env, iters, &v[n]) != 0)
      return none;
    n++;
    if (n >= 3 && now_ns() - start > CASE_BUDGET_NS)
      break;
  }
  return summarize(v, n, (double)iters);
}

/* ---- the table ----------------------------------------------------------- */

typedef enum { U_NS, U_US, U_MS, U_GBS } unit_t;
typedef enum { G_NONE, G_RATIO_MAX, G_BW_RATIO_MIN, G_ABS_MAX_NS } goal_kind;
typedef struct {
  goal_kind kind;
  double value;
  const char *text;
} goal_t;

static const goal_t no_goal = {G_NONE, 0, ""};
static int g_missed = 0;

/* bytes > 0: the row is a bandwidth (bytes per operation). */
static void fmt(char *buf, size_t len, stat_t s, unit_t u, double bytes) {
  if (s.n == 0) {
    snprintf(buf, len, "n/a");
    return;
  }
  switch (u) {
  case U_NS:
    snprintf(buf, len, "%.1f / %.1f ns", s.med, s.min);
    break;
  case U_US:
    snprintf(buf, len, "%.2f / %.2f us", s.med / 1e3, s.min / 1e3);
    break;
  case U_MS:
    snprintf(buf, len, "%.2f / %.2f ms", s.med / 1e6, s.min / 1e6);
    break;
  case U_GBS: /* bytes per ns = GB/s; median / best */
    snprintf(buf, len, "%.2f / %.2f GB/s", bytes / s.med, bytes / s.min);
    break;
  }
}

static void row(const char *name, stat_t ours, const char *peer_name, stat_t peer, unit_t u, double bytes,
                goal_t goal) {
  char o[64], p[96], pv[64], r[32] = "n/a", m[16] = "";
  fmt(o, sizeof(o), ours, u, bytes);
  fmt(pv, sizeof(pv), peer, u, bytes);
  if (peer_name[0] == '\0')
    snprintf(p, sizeof(p), "-");
  else
    snprintf(p, sizeof(p), "%s %s", peer_name, pv);
  double ratio = 0;
  int have_ratio = ours.n > 0 && peer.n > 0;
  if (have_ratio) {
    ratio = u == U_GBS ? peer.med / ours.med : ours.med / peer.med;
    snprintf(r, sizeof(r), "%.3f", ratio);
  } else if (peer_name[0] == '\0') {
    snprintf(r, sizeof(r), "-");
  }
  int met = -1;
  switch (goal.kind) {
  case G_NONE:
    break;
  case G_RATIO_MAX:
    met = have_ratio ? ratio <= goal.value : -1;
    break;
  case G_BW_RATIO_MIN:
    met = have_ratio ? ratio >= goal.value : -1;
    break;
  case G_ABS_MAX_NS:
    met = ours.n > 0 ? ours.med <= goal.value : -1;
    break;
  }
  if (goal.kind != G_NONE)
    snprintf(m, sizeof(m), "%s", met < 0 ? "n/a" : met ? "yes" : "**no**");
  if (met == 0)
    g_missed++;
  printf("| %-48s | %-26s | %-50s | %-7s | %-16s | %-6s |\n", name, o, p, r, goal.text, m);
}

static void table_head(void) {
  printf("| %-48s | %-26s | %-50s | %-7s | %-16s | %-6s |\n", "case", "openacl (median / min)", "peer (median / min)",
         "ratio", "goal", "met?");
  printf(
      "|--------------------------------------------------|----------------------------|------------------------------"
      "----------------------|---------|------------------|--------|\n");
}

/* ---- openacl side -------------------------------------------------------- */

typedef struct {
  int ok; /* device + stream ready */
  aclrtStream stream;
  aclrtBinHandle bin;
  aclrtFuncHandle func; /* NULL: the kernel did not load */
  aclrtEvent event;     /* NULL: no event */
  void *dev;            /* COPY_BYTES of device memory, NULL if that failed */
  void *host;           /* COPY_BYTES of host memory */
} acl_env;

static int acl_failed(const char *what, aclError rc) {
  const char *m = aclGetRecentErrMsg();
  fprintf(stderr, "%s: %s returned %d: %s\n", g_tool, what, (int)rc, m != NULL ? m : "(no message)");
  return 1;
}

#define ACL_TRY(call)                                                                                                  \
  do {                                                                                                                 \
    aclError try_rc_ = (call);                                                                                         \
    if (try_rc_ != ACL_SUCCESS)                                                                                        \
      return acl_failed(#call, try_rc_);                                                                               \
  } while (0)

static int acl_launches(void *p, int iters, uint64_t *ns) {
  acl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    ACL_TRY(aclrtLaunchKernel(e->func, 1, NULL, 0, e->stream));
  ACL_TRY(aclrtSynchronizeStream(e->stream));
  *ns = now_ns() - t0;
  return 0;
}

static int acl_launch_sync(void *p, int iters, uint64_t *ns) {
  acl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    ACL_TRY(aclrtLaunchKernel(e->func, 1, NULL, 0, e->stream));
    ACL_TRY(aclrtSynchronizeStream(e->stream));
  }
  *ns = now_ns() - t0;
  return 0;
}

static int acl_event_sync(void *p, int iters, uint64_t *ns) {
  acl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    ACL_TRY(aclrtRecordEvent(e->event, e->stream));
    ACL_TRY(aclrtSynchronizeEvent(e->event));
  }
  *ns = now_ns() - t0;
  return 0;
}

static int acl_h2d(void *p, int iters, uint64_t *ns) {
  acl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    ACL_TRY(aclrtMemcpy(e->dev, COPY_BYTES, e->host, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
  *ns = now_ns() - t0;
  return 0;
}

static int acl_d2h(void *p, int iters, uint64_t *ns) {
  acl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    ACL_TRY(aclrtMemcpy(e->host, COPY_BYTES, e->dev, COPY_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
  *ns = now_ns() - t0;
  return 0;
}

static int acl_alloc(void *p, int iters, uint64_t *ns) {
  (void)p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    void *d = NULL;
    ACL_TRY(aclrtMalloc(&d, ALLOC_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_TRY(aclrtFree(d));
  }
  *ns = now_ns() - t0;
  return 0;
}

/* (g): creates n streams (timed into ns[0]) and destroys them (ns[1]). */
static int acl_streams(int n, uint64_t ns[2]) {
  aclrtStream *s = calloc((size_t)n, sizeof(*s));
  int made = 0, rc = 0;
  if (s == NULL)
    return 1;
  uint64_t t0 = now_ns();
  for (; made < n; made++) {
    aclError e = aclrtCreateStream(&s[made]);
    if (e != ACL_SUCCESS) {
      char what[64];
      snprintf(what, sizeof(what), "aclrtCreateStream (stream %d of %d)", made + 1, n);
      rc = acl_failed(what, e);
      break;
    }
  }
  uint64_t t1 = now_ns();
  for (int i = 0; i < made; i++) {
    aclError e = aclrtDestroyStream(s[i]);
    if (e != ACL_SUCCESS && rc == 0)
      rc = acl_failed("aclrtDestroyStream", e);
  }
  uint64_t t2 = now_ns();
  free(s);
  ns[0] = t1 - t0;
  ns[1] = t2 - t1;
  return rc;
}

static void acl_setup(acl_env *e, const char *kernel_path) {
  memset(e, 0, sizeof(*e));
  aclError rc;
  if ((rc = aclInit(NULL)) != ACL_SUCCESS) {
    acl_failed("aclInit", rc);
    return;
  }
  if ((rc = aclrtSetDevice(0)) != ACL_SUCCESS) {
    acl_failed("aclrtSetDevice(0)", rc);
    return;
  }
  if ((rc = aclrtCreateStream(&e->stream)) != ACL_SUCCESS) {
    acl_failed("aclrtCreateStream", rc);
    return;
  }
  e->ok = 1;
  if (kernel_path[0] == '\0')
    fprintf(stderr, "%s: no empty kernel (build target empty_kernel or pass --kernel PATH)\n", g_tool);
  else if ((rc = aclrtBinaryLoadFromFile(kernel_path, NULL, &e->bin)) != ACL_SUCCESS)
    acl_failed("aclrtBinaryLoadFromFile", rc);
  else if ((rc = aclrtBinaryGetFunction(e->bin, "empty_kernel", &e->func)) != ACL_SUCCESS) {
    acl_failed("aclrtBinaryGetFunction(\"empty_kernel\")", rc);
    e->func = NULL;
  }
  if ((rc = aclrtCreateEvent(&e->event)) != ACL_SUCCESS) {
    acl_failed("aclrtCreateEvent", rc);
    e->event = NULL;
  }
  if ((rc = aclrtMalloc(&e->dev, COPY_BYTES, ACL_MEM_MALLOC_HUGE_FIRST)) != ACL_SUCCESS) {
    acl_failed("aclrtMalloc(64 MiB)", rc);
    e->dev = NULL;
  }
}

/* --profile DIR: profiling on for the in-process cases; the config, or NULL. */
static aclprofConfig *prof_start(const char *dir) {
  aclError rc = aclprofInit(dir, strlen(dir));
  if (rc != ACL_SUCCESS) {
    acl_failed("aclprofInit (--profile)", rc);
    return NULL;
  }
  uint32_t dev = 0;
  aclprofConfig *c =
      aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API);
  if (c == NULL || (rc = aclprofStart(c)) != ACL_SUCCESS) {
    acl_failed(c == NULL ? "aclprofCreateConfig (--profile)" : "aclprofStart (--profile)", c == NULL ? 1 : rc);
    if (c != NULL)
      aclprofDestroyConfig(c);
    aclprofFinalize();
    return NULL;
  }
  fprintf(stderr, "%s: profiling on (ACL_API | TASK_TIME | RUNTIME_API) into %s\n", g_tool, dir);
  return c;
}

static void prof_stop(aclprofConfig *c) {
  if (c == NULL)
    return;
  aclError rc = aclprofStop(c);
  if (rc != ACL_SUCCESS)
    acl_failed("aclprofStop (--profile)", rc);
  aclprofDestroyConfig(c);
  aclprofFinalize();
}

static void acl_teardown(acl_env *e) {
  if (e->dev != NULL)
    aclrtFree(e->dev);
  if (e->event != NULL)
    aclrtDestroyEvent(e->event);
  if (e->bin != NULL)
    aclrtBinaryUnLoad(e->bin);
  if (e->stream != NULL)
    aclrtDestroyStream(e->stream);
  if (e->ok)
    aclrtResetDevice(0);
  aclFinalize();
}

/* ---- libc peers ------------------------------------------------------------ */

typedef struct {
  void *src, *dst;
} libc_env;

static void *volatile g_sink;

static int libc_memcpy(void *p, int iters, uint64_t *ns) {
  libc_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    memcpy(e->dst, e->src, COPY_BYTES);
    g_sink = e->dst;
  }
  *ns = now_ns() - t0;
  return 0;
}

static int libc_malloc(void *p, int iters, uint64_t *ns) {
  (void)p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    void *m = malloc(ALLOC_BYTES);
    g_sink = m; /* escapes: the pair cannot be optimised away */
    free(m);
  }
  *ns = now_ns() - t0;
  return 0;
}

/* ---- PoCL side ------------------------------------------------------------- */

#if OPENACL_BENCH_OPENCL
typedef struct {
  int ok; /* context + queue ready */
  cl_platform_id platform;
  cl_device_id device;
  cl_context ctx;
  cl_command_queue queue;
  cl_program program;
  cl_kernel kernel; /* NULL: the kernel did not build */
  cl_mem buf;       /* COPY_BYTES, NULL if that failed */
  void *host;
  char name[200]; /* platform and device, for the table */
} cl_env;

static int cl_failed(const char *what, cl_int rc) {
  fprintf(stderr, "%s: %s returned %d\n", g_tool, what, (int)rc);
  return 1;
}

#define CL_TRY(call)                                                                                                   \
  do {                                                                                                                 \
    cl_int try_rc_ = (call);                                                                                           \
    if (try_rc_ != CL_SUCCESS)                                                                                         \
      return cl_failed(#call, try_rc_);                                                                                \
  } while (0)

static const size_t one = 1;

static int cl_launches(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    CL_TRY(clEnqueueNDRangeKernel(e->queue, e->kernel, 1, NULL, &one, &one, 0, NULL, NULL));
  CL_TRY(clFinish(e->queue));
  *ns = now_ns() - t0;
  return 0;
}

static int cl_launch_sync(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    CL_TRY(clEnqueueNDRangeKernel(e->queue, e->kernel, 1, NULL, &one, &one, 0, NULL, NULL));
    CL_TRY(clFinish(e->queue));
  }
  *ns = now_ns() - t0;
  return 0;
}

static int cl_event_sync(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    cl_event ev;
    CL_TRY(clEnqueueMarkerWithWaitList(e->queue, 0, NULL, &ev));
    CL_TRY(clWaitForEvents(1, &ev));
    CL_TRY(clReleaseEvent(ev));
  }
  *ns = now_ns() - t0;
  return 0;
}

static int cl_write(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    CL_TRY(clEnqueueWriteBuffer(e->queue, e->buf, CL_TRUE, 0, COPY_BYTES, e->host, 0, NULL, NULL));
  *ns = now_ns() - t0;
  return 0;
}

static int cl_read(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++)
    CL_TRY(clEnqueueReadBuffer(e->queue, e->buf, CL_TRUE, 0, COPY_BYTES, e->host, 0, NULL, NULL));
  *ns = now_ns() - t0;
  return 0;
}

static int cl_alloc(void *p, int iters, uint64_t *ns) {
  cl_env *e = p;
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    cl_int rc;
    cl_mem m = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, ALLOC_BYTES, NULL, &rc);
    if (m == NULL)
      return cl_failed("clCreateBuffer(1 MiB)", rc);
    CL_TRY(clReleaseMemObject(m));
  }
  *ns = now_ns() - t0;
  return 0;
}

static int cl_streams(cl_env *e, int n, uint64_t ns[2]) {
  cl_command_queue *q = calloc((size_t)n, sizeof(*q));
  int made = 0, rc = 0;
  if (q == NULL)
    return 1;
  uint64_t t0 = now_ns();
  for (; made < n; made++) {
    cl_int err;
    q[made] = clCreateCommandQueue(e->ctx, e->device, 0, &err);
    if (q[made] == NULL) {
      char what[64];
      snprintf(what, sizeof(what), "clCreateCommandQueue (queue %d of %d)", made + 1, n);
      rc = cl_failed(what, err);
      break;
    }
  }
  uint64_t t1 = now_ns();
  for (int i = 0; i < made; i++)
    clReleaseCommandQueue(q[i]);
  uint64_t t2 = now_ns();
  free(q);
  ns[0] = t1 - t0;
  ns[1] = t2 - t1;
  return rc;
}

static const char *empty_cl = "__kernel void empty_kernel(void) {}\n";

static void cl_setup(cl_env *e) {
  memset(e, 0, sizeof(*e));
  cl_int rc;
  cl_uint n = 0;
  if ((rc = clGetPlatformIDs(1, &e->platform, &n)) != CL_SUCCESS || n == 0) {
    cl_failed("clGetPlatformIDs (is pocl-opencl-icd installed?)", rc);
    return;
  }
  if ((rc = clGetDeviceIDs(e->platform, CL_DEVICE_TYPE_ALL, 1, &e->device, &n)) != CL_SUCCESS || n == 0) {
    cl_failed("clGetDeviceIDs", rc);
    return;
  }
  /* "OpenCL 3.0 PoCL 3.1+debian  Linux, ..." -> "OpenCL 3.0 PoCL 3.1+debian" */
  char pver[256] = "", dname[256] = "";
  clGetPlatformInfo(e->platform, CL_PLATFORM_VERSION, sizeof(pver), pver, NULL);
  clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof(dname), dname, NULL);
  pver[strcspn(pver, ",")] = '\0';
  char *gap = strstr(pver, "  ");
  if (gap != NULL)
    *gap = '\0';
  snprintf(e->name, sizeof(e->name), "%.80s, device %.100s", pver, dname);
  e->ctx = clCreateContext(NULL, 1, &e->device, NULL, NULL, &rc);
  if (e->ctx == NULL) {
    cl_failed("clCreateContext", rc);
    return;
  }
  e->queue = clCreateCommandQueue(e->ctx, e->device, 0, &rc);
  if (e->queue == NULL) {
    cl_failed("clCreateCommandQueue", rc);
    return;
  }
  e->ok = 1;
  e->program = clCreateProgramWithSource(e->ctx, 1, &empty_cl, NULL, &rc);
  if (e->program == NULL)
    cl_failed("clCreateProgramWithSource", rc);
  else if ((rc = clBuildProgram(e->program, 1, &e->device, "", NULL, NULL)) != CL_SUCCESS)
    cl_failed("clBuildProgram", rc);
  else if ((e->kernel = clCreateKernel(e->program, "empty_kernel", &rc)) == NULL)
    cl_failed("clCreateKernel", rc);
  e->buf = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, COPY_BYTES, NULL, &rc);
  if (e->buf == NULL)
    cl_failed("clCreateBuffer(64 MiB)", rc);
}

static void cl_teardown(cl_env *e) {
  if (e->buf != NULL)
    clReleaseMemObject(e->buf);
  if (e->kernel != NULL)
    clReleaseKernel(e->kernel);
  if (e->program != NULL)
    clReleaseProgram(e->program);
  if (e->queue != NULL)
    clReleaseCommandQueue(e->queue);
  if (e->ctx != NULL)
    clReleaseContext(e->ctx);
}
#endif /* OPENACL_BENCH_OPENCL */

/* ---- cold processes (f) ----------------------------------------------------- */

/* Children print "setup_ns teardown_ns" on stdout. */
static int child_acl(void) {
  aclrtStream s = NULL;
  uint64_t t0 = now_ns();
  aclError a = aclInit(NULL);
  aclError b = a == ACL_SUCCESS ? aclrtSetDevice(0) : a;
  aclError c = b == ACL_SUCCESS ? aclrtCreateStream(&s) : b;
  uint64_t t1 = now_ns();
  if (c != ACL_SUCCESS)
    return acl_failed("aclInit + aclrtSetDevice + aclrtCreateStream (cold)", c);
  aclError d = aclrtDestroyStream(s);
  aclError f = d == ACL_SUCCESS ? aclrtResetDevice(0) : d;
  aclError g = f == ACL_SUCCESS ? aclFinalize() : f;
  uint64_t t2 = now_ns();
  if (g != ACL_SUCCESS)
    return acl_failed("aclrtDestroyStream + aclrtResetDevice + aclFinalize (cold)", g);
  printf("%llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1));
  return 0;
}

static int child_opencl(void) {
#if OPENACL_BENCH_OPENCL
  cl_platform_id platform;
  cl_device_id device;
  cl_uint n = 0;
  cl_int rc;
  uint64_t t0 = now_ns();
  if ((rc = clGetPlatformIDs(1, &platform, &n)) != CL_SUCCESS || n == 0)
    return cl_failed("clGetPlatformIDs (cold)", rc);
  if ((rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &n)) != CL_SUCCESS || n == 0)
    return cl_failed("clGetDeviceIDs (cold)", rc);
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
  if (ctx == NULL)
    return cl_failed("clCreateContext (cold)", rc);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &rc);
  if (q == NULL)
    return cl_failed("clCreateCommandQueue (cold)", rc);
  uint64_t t1 = now_ns();
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  uint64_t t2 = now_ns();
  printf("%llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1));
  return 0;
#else
  return 3;
#endif
}

/* Runs `procs` fresh processes of one kind; stats of their two numbers. */
static void run_cold(const char *self, const char *kind, int procs, stat_t *setup, stat_t *teardown) {
  uint64_t *a = calloc((size_t)procs, sizeof(uint64_t)), *b = calloc((size_t)procs, sizeof(uint64_t));
  int n = 0;
  for (int i = 0; a != NULL && b != NULL && i < procs; i++) {
    int fd[2];
    if (pipe(fd) != 0)
      break;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
      close(fd[0]);
      close(fd[1]);
      break;
    }
    if (pid == 0) {
      dup2(fd[1], 1);
      close(fd[0]);
      close(fd[1]);
      execl(self, self, "--child", kind, (char *)NULL);
      _exit(127);
    }
    close(fd[1]);
    char buf[128] = "";
    ssize_t len = 0, got;
    while (len < (ssize_t)sizeof(buf) - 1 && (got = read(fd[0], buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
      len += got;
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    unsigned long long x, y;
    if (len > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && sscanf(buf, "%llu %llu", &x, &y) == 2) {
      a[n] = x;
      b[n] = y;
      n++;
    } else {
      break; /* the child said why on stderr */
    }
  }
  *setup = summarize(a, n, 1);
  *teardown = summarize(b, n, 1);
  free(a);
  free(b);
}

/* ---- main ---------------------------------------------------------------- */

static int usage(void) {
  fprintf(stderr,
          "usage: %s [--runs N] [--procs N] [--kernel PATH] [--peer-only] [--acl-only] [--profile DIR]\n"
          "  --runs N      timed runs per in-process case (default 11, at most %d)\n"
          "  --procs N     cold processes per side for start-up (default 21)\n"
          "  --kernel PATH the empty kernel's shared object (default: the one built with this binary)\n"
          "  --peer-only   measure only the peers (PoCL, libc)\n"
          "  --acl-only    measure only openacl (and libc)\n"
          "  --profile DIR openacl's in-process cases with profiling on, written under DIR\n",
          g_tool, MAX_RUNS);
  return 2;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--child") == 0)
    return strcmp(argv[2], "acl") == 0 ? child_acl() : child_opencl();

  const char *kernel_path = OPENACL_BENCH_EMPTY_KERNEL;
  const char *profile_dir = NULL;
  int procs = 21, do_acl = 1, do_peer = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      g_runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--procs") == 0 && i + 1 < argc)
      procs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc)
      kernel_path = argv[++i];
    else if (strcmp(argv[i], "--peer-only") == 0)
      do_acl = 0;
    else if (strcmp(argv[i], "--acl-only") == 0)
      do_peer = 0;
    else if (strcmp(argv[i], "--profile") == 0 && i + 1 < argc)
      profile_dir = argv[++i];
    else
      return usage();
  }
  if (g_runs < 1 || g_runs > MAX_RUNS || procs < 1 || procs > 10000)
    return usage();

  char self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (sl <= 0) {
    fprintf(stderr, "%s: cannot read /proc/self/exe\n", g_tool);
    return 1;
  }
  self[sl] = '\0';
  setenv("ASCEND_PROCESS_LOG_PATH", "/tmp/openacl-bench-log", 0);
  signal(SIGALRM, on_alarm);
  alarm(WATCHDOG_S);
  uint64_t bench_t0 = now_ns();

  /* Host buffers, touched so that no case pays for page faults. */
  libc_env lc = {malloc(COPY_BYTES), malloc(COPY_BYTES)};
  if (lc.src == NULL || lc.dst == NULL) {
    fprintf(stderr, "%s: out of memory\n", g_tool);
    return 1;
  }
  memset(lc.src, 1, COPY_BYTES);
  memset(lc.dst, 2, COPY_BYTES);

  /* (f) first: the cold processes should not compete with our own threads. */
  stat_t f_acl = none, f_acl_down = none, f_cl = none, f_cl_down = none;
  if (do_acl)
    run_cold(self, "acl", procs, &f_acl, &f_acl_down);
#if OPENACL_BENCH_OPENCL
  if (do_peer)
    run_cold(self, "opencl", procs, &f_cl, &f_cl_down);
#endif

  /* openacl, then the peer; never both at once. */
  stat_t a_acl = none, b_acl = none, c_acl = none, h2d_acl = none, d2h_acl = none, e_acl = none;
  stat_t g_acl = none, g_acl_down = none;
  if (do_acl) {
    acl_env ae;
    acl_setup(&ae, kernel_path);
    ae.host = lc.src;
    aclprofConfig *prof = ae.ok && profile_dir != NULL ? prof_start(profile_dir) : NULL;
    if (profile_dir != NULL && prof == NULL)
      ae.ok = 0;
    if (ae.ok && ae.func != NULL) {
      a_acl = measure("(a) openacl launches", acl_launches, &ae, LAUNCHES);
      b_acl = measure("(b) openacl launch + sync", acl_launch_sync, &ae, ROUND_TRIPS);
    }
    if (ae.ok && ae.event != NULL)
      c_acl = measure("(c) openacl event", acl_event_sync, &ae, ROUND_TRIPS);
    if (ae.ok && ae.dev != NULL) {
      h2d_acl = measure("(d) openacl H2D", acl_h2d, &ae, 1);
      ae.host = lc.dst;
      d2h_acl = measure("(d) openacl D2H", acl_d2h, &ae, 1);
    }
    if (ae.ok)
      e_acl = measure("(e) openacl malloc", acl_alloc, &ae, ALLOCS);
    if (ae.ok) {
      uint64_t v[2][MAX_RUNS], w[2];
      int n = 0;
      g_case = "(g) openacl streams";
      if (acl_streams(STREAMS / 10, w) == 0) /* warm-up */
        for (; n < g_runs && acl_streams(STREAMS, w) == 0; n++)
          v[0][n] = w[0], v[1][n] = w[1];
      g_acl = summarize(v[0], n, 1);
      g_acl_down = summarize(v[1], n, 1);
    }
    prof_stop(prof);
    acl_teardown(&ae);
  }

  const char *peer_name = "PoCL";
  stat_t a_cl = none, b_cl = none, c_cl = none, h2d_cl = none, d2h_cl = none, e_cl = none;
  stat_t g_cl = none, g_cl_down = none;
  char peer_desc[200] = "not built (no OpenCL headers at configure time)";
#if OPENACL_BENCH_OPENCL
  if (do_peer) {
    cl_env ce;
    g_case = "PoCL set-up (clBuildProgram)";
    cl_setup(&ce);
    ce.host = lc.src;
    snprintf(peer_desc, sizeof(peer_desc), "%s", ce.ok ? ce.name : "failed to start");
    if (ce.ok && ce.kernel != NULL) {
      a_cl = measure("(a) PoCL launches", cl_launches, &ce, LAUNCHES);
      b_cl = measure("(b) PoCL launch + sync", cl_launch_sync, &ce, ROUND_TRIPS);
    }
    if (ce.ok)
      c_cl = measure("(c) PoCL event", cl_event_sync, &ce, ROUND_TRIPS);
    if (ce.ok && ce.buf != NULL) {
      h2d_cl = measure("(d) PoCL write", cl_write, &ce, 1);
      ce.host = lc.dst;
      d2h_cl = measure("(d) PoCL read", cl_read, &ce, 1);
    }
    if (ce.ok)
      e_cl = measure("(e) PoCL buffers", cl_alloc, &ce, ALLOCS);
    if (ce.ok) {
      uint64_t v[2][MAX_RUNS], w[2];
      int n = 0;
      g_case = "(g) PoCL queues";
      if (cl_streams(&ce, STREAMS / 10, w) == 0)
        for (; n < g_runs && cl_streams(&ce, STREAMS, w) == 0; n++)
          v[0][n] = w[0], v[1][n] = w[1];
      g_cl = summarize(v[0], n, 1);
      g_cl_down = summarize(v[1], n, 1);
    }
    cl_teardown(&ce);
  } else {
    snprintf(peer_desc, sizeof(peer_desc), "skipped (--acl-only)");
  }
#else
  (void)do_peer;
#endif

  stat_t cpy = measure("(d) memcpy", libc_memcpy, &lc, 1);
  stat_t mal = measure("(e) malloc", libc_malloc, NULL, ALLOCS);
  g_case = "printing";

  printf("openacl runtime against PoCL and libc, same process, same machine.\n"
         "peer: %s; %d runs per in-process case after a warm-up, %d cold processes per side;\n"
         "ratio of medians, openacl / peer: for times lower is better, for bandwidth higher; values are median / min\n"
         "(bandwidth: median / best)%s\n\n",
         peer_desc, g_runs, procs, do_acl ? "" : "; openacl skipped (--peer-only)");
  table_head();
  const goal_t x5 = {G_RATIO_MAX, 0.2, "<= 0.2 (5x)"};
  const goal_t bw = {G_BW_RATIO_MIN, 0.9, ">= 0.9 of memcpy"};
  const goal_t x2 = {G_RATIO_MAX, 2.0, "<= 2 (malloc)"};
  const goal_t ms5 = {G_ABS_MAX_NS, 5e6, "<= 5 ms"};
  const goal_t ms50 = {G_ABS_MAX_NS, 50e6, "<= 50 ms"};
  const double bytes = (double)COPY_BYTES;
  row("(a) 10,000 async launches + sync, per launch", a_acl, peer_name, a_cl, U_US, 0, x5);
  row("(b) empty launch + synchronise", b_acl, peer_name, b_cl, U_US, 0, x5);
  row("(c) event record + synchronise", c_acl, peer_name, c_cl, U_US, 0, x5);
  row("(d) 64 MiB H2D copy", h2d_acl, "memcpy", cpy, U_GBS, bytes, bw);
  row("(d) 64 MiB H2D copy", h2d_acl, "PoCL write", h2d_cl, U_GBS, bytes, no_goal);
  row("(d) 64 MiB D2H copy", d2h_acl, "memcpy", cpy, U_GBS, bytes, bw);
  row("(d) 64 MiB D2H copy", d2h_acl, "PoCL read", d2h_cl, U_GBS, bytes, no_goal);
  row("(e) aclrtMalloc + aclrtFree, 1 MiB", e_acl, "malloc+free", mal, U_NS, 0, x2);
  row("(e) aclrtMalloc + aclrtFree, 1 MiB", e_acl, "PoCL clCreateBuffer+Release", e_cl, U_NS, 0, no_goal);
  row("(f) cold Init + SetDevice + CreateStream", f_acl, "PoCL platform+ctx+queue", f_cl, U_MS, 0, ms5);
  row("(f) cold DestroyStream + ResetDevice + Finalize", f_acl_down, "PoCL release queue+ctx", f_cl_down, U_US, 0,
      no_goal);
  row("(g) create 10,000 streams", g_acl, "PoCL 10,000 queues", g_cl, U_MS, 0, ms50);
  row("(g) destroy 10,000 streams", g_acl_down, "PoCL 10,000 queues", g_cl_down, U_MS, 0, no_goal);
  printf("\n%d goal(s) missed; whole benchmark %.1f s\n", g_missed, (double)(now_ns() - bench_t0) / 1e9);
  free(lc.src);
  free(lc.dst);
  return 0;
}
