/*
 * bench_init.c - what process start-up and teardown cost.
 *
 *   bench_init [PROCESSES]      (default 21 cold processes per case)
 *
 * Each cold case runs in a fresh process (this binary re-executed with
 * --child CASE) so that nothing is warm but the loaded library, and
 * reports its timing through a pipe.  The peer is the OpenCL runtime on the
 * same machine (PoCL through the ICD loader, loaded with dlopen):
 * clGetPlatformIDs + clGetDeviceIDs is the work an OpenCL program does
 * before it can use a device, as aclInit is for ACL.  OpenCL has no
 * process-level finalize, so that row has no peer; the vendor's aclFinalize
 * waits up to 2000 ms by default (ASCEND_LOG_DEVICE_FLUSH_TIMEOUT).
 * In-process cases (error messages) compare with glibc's dlerror, the
 * per-thread error-string API every C programmer already uses.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const char *full_config =
    "{\n"
    "  \"dump\": {\"dump_list\": [{\"model_name\": \"resnet50\", \"layer\": [\"conv1\", \"fc\"]}],\n"
    "           \"dump_path\": \"/tmp/openacl-bench-dump\", \"dump_mode\": \"all\", \"dump_data\": \"tensor\"},\n"
    "  \"max_opqueue_num\": \"10000\",\n"
    "  \"err_msg_mode\": \"1\",\n"
    "  \"defaultDevice\": {\"default_device\": \"0\"},\n"
    "  \"StackSize\": {\"aicore_stack_size\": 49152},\n"
    "  \"simd_printf_fifo_size_per_core\": 65536,\n"
    "  \"acl_graph\": {\"event_mode\": \"0\"}\n"
    "}\n";

/* ---- children: one measurement each, printed as "init_ns fini_ns" ---- */

static int child_acl(const char *config) {
  uint64_t t0 = now_ns();
  aclError rc = aclInit(config);
  uint64_t t1 = now_ns();
  aclError rc2 = aclFinalize();
  uint64_t t2 = now_ns();
  if (rc != ACL_SUCCESS || rc2 != ACL_SUCCESS) {
    const char *m = aclGetRecentErrMsg();
    fprintf(stderr, "bench_init: aclInit %d aclFinalize %d: %s\n", rc, rc2, m ? m : "");
    return 1;
  }
  printf("%llu %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1));
  return 0;
}

typedef int32_t (*cl_get_platform_ids_fn)(uint32_t, void **, uint32_t *);
typedef int32_t (*cl_get_device_ids_fn)(void *, uint64_t, uint32_t, void **, uint32_t *);

static int child_opencl(void) {
  uint64_t t0 = now_ns();
  void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
  if (lib == NULL)
    return 2;
  cl_get_platform_ids_fn get_platforms = (cl_get_platform_ids_fn)dlsym(lib, "clGetPlatformIDs");
  cl_get_device_ids_fn get_devices = (cl_get_device_ids_fn)dlsym(lib, "clGetDeviceIDs");
  void *platforms[8];
  uint32_t np = 0;
  if (get_platforms == NULL || get_devices == NULL || get_platforms(8, platforms, &np) != 0 || np == 0)
    return 2;
  void *devices[8];
  uint32_t nd = 0;
  get_devices(platforms[0], 0xFFFFFFFFu /* CL_DEVICE_TYPE_ALL */, 8, devices, &nd);
  uint64_t t1 = now_ns();
  printf("%llu 0\n", (unsigned long long)(t1 - t0));
  return 0;
}

/* ---- parent ---- */

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct { double median_us, min_us; int ok; } stat_t;

static stat_t summarize(uint64_t *v, int n) {
  stat_t s = {0, 0, n > 0};
  if (n == 0)
    return s;
  qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
  s.median_us = (double)v[n / 2] / 1e3;
  s.min_us = (double)v[0] / 1e3;
  return s;
}

/* Runs `procs` cold children of one case; fills init and fini stats. */
static void run_cold(const char *self, const char *kind, const char *arg, int procs, stat_t *init, stat_t *fini) {
  uint64_t *a = calloc((size_t)procs, sizeof(uint64_t)), *b = calloc((size_t)procs, sizeof(uint64_t));
  int n = 0;
  for (int i = 0; i < procs; i++) {
    int fd[2];
    if (pipe(fd) != 0)
      break;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(fd[1], 1);
      close(fd[0]);
      execl(self, self, "--child", kind, arg, (char *)NULL);
      _exit(127);
    }
    close(fd[1]);
    char buf[128] = "";
    ssize_t len = read(fd[0], buf, sizeof(buf) - 1);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    unsigned long long x, y;
    if (len > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && sscanf(buf, "%llu %llu", &x, &y) == 2) {
      a[n] = x;
      b[n] = y;
      n++;
    }
  }
  *init = summarize(a, n);
  *fini = summarize(b, n);
  free(a);
  free(b);
}

static void row(const char *name, stat_t ours, stat_t peer, const char *peer_name, const char *goal) {
  char p[64] = "n/a", r[32] = "n/a";
  if (peer.ok) {
    snprintf(p, sizeof(p), "%9.1f / %9.1f", peer.median_us, peer.min_us);
    snprintf(r, sizeof(r), "%.3f", ours.median_us / peer.median_us);
  }
  printf("| %-40s | %9.1f / %9.1f | %-28s %-23s | %-7s | %-10s |\n", name, ours.median_us, ours.min_us, peer_name, p,
         r, goal);
}

static stat_t bench_loop(const char *(*fn)(void), int iters, int runs) {
  uint64_t v[32];
  for (int r = 0; r < runs; r++) {
    uint64_t t0 = now_ns();
    for (int i = 0; i < iters; i++)
      fn();
    v[r] = (now_ns() - t0);
  }
  stat_t s = summarize(v, runs);
  /* per call, in nanoseconds (reported in the "us" columns as ns) */
  s.median_us = s.median_us * 1e3 / iters;
  s.min_us = s.min_us * 1e3 / iters;
  return s;
}

static const char *acl_errmsg_empty(void) { return aclGetRecentErrMsg(); }
static const char *dlerror_empty(void) { return dlerror(); }
static const char *acl_errmsg_one(void) {
  aclDestroyDataBuffer(NULL);
  return aclGetRecentErrMsg();
}
static const char *dlerror_one(void) {
  dlsym(RTLD_DEFAULT, "openacl_no_such_symbol");
  return dlerror();
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--child") == 0) {
    if (strcmp(argv[2], "acl") == 0)
      return child_acl(argc > 3 && argv[3][0] ? argv[3] : NULL);
    return child_opencl();
  }
  int procs = argc > 1 ? atoi(argv[1]) : 21;
  if (procs < 1 || procs > 10000)
    procs = 21;
  char self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (sl <= 0)
    return 1;
  self[sl] = '\0';
  setenv("ASCEND_PROCESS_LOG_PATH", "/tmp/openacl-bench-log", 0);

  char cfg_path[] = "/tmp/openacl-bench-XXXXXX.json";
  int fd = mkstemps(cfg_path, 5);
  if (fd < 0 || write(fd, full_config, strlen(full_config)) < 0)
    return 1;
  close(fd);

  stat_t i0, f0, i1, f1, ocl, unused;
  run_cold(self, "acl", "", procs, &i0, &f0);
  run_cold(self, "acl", cfg_path, procs, &i1, &f1);
  run_cold(self, "opencl", "", procs, &ocl, &unused);
  unlink(cfg_path);

  printf("openacl process start-up and teardown: %d cold processes per case; times in microseconds, median / min\n\n",
         procs);
  printf("| %-40s | %-21s | %-52s | %-7s | %-10s |\n", "case", "openacl (us)", "peer (us)", "ratio", "goal");
  printf("|%s|%s|%s|%s|%s|\n", "------------------------------------------", "-----------------------",
         "------------------------------------------------------", "---------", "------------");
  stat_t none = {0, 0, 0};
  row("aclInit(NULL), cold process", i0, ocl, "PoCL clGetPlatformIDs+Devices", "<= 1000 us");
  row("aclInit(full acl.json), cold process", i1, ocl, "PoCL clGetPlatformIDs+Devices", "<= 1000 us");
  row("aclFinalize, cold process", f0, none, "vendor: waits up to 2e6 us", "<= 1000 us");
  row("aclFinalize after full acl.json", f1, none, "", "<= 1000 us");

  aclInit(NULL);
  stat_t e0 = bench_loop(acl_errmsg_empty, 1000000, 7), d0 = bench_loop(dlerror_empty, 1000000, 7);
  stat_t e1 = bench_loop(acl_errmsg_one, 100000, 7), d1 = bench_loop(dlerror_one, 100000, 7);
  aclFinalize();
  printf("\nerror messages, in-process: 7 runs; times in nanoseconds per call, median / min\n\n");
  printf("| %-40s | %-21s | %-52s | %-7s | %-10s |\n", "case", "openacl (ns)", "peer (ns)", "ratio", "goal");
  printf("|%s|%s|%s|%s|%s|\n", "------------------------------------------", "-----------------------",
         "------------------------------------------------------", "---------", "------------");
  row("aclGetRecentErrMsg, nothing recorded", e0, d0, "glibc dlerror, nothing", "");
  row("failing call + aclGetRecentErrMsg", e1, d1, "failing dlsym + dlerror", "");
  return 0;
}
