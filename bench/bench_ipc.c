/*
 * bench_ipc.c - what importing another process's device memory costs
 * (docs/performance.md, issue 13), next to the system calls underneath.
 *
 *   bench_ipc [--runs N] [--iters M] [--procs P]
 *
 * A second process (this binary re-executed with --exporter) allocates 4 KiB,
 * 1 MiB and 64 MiB on device 0, exports each (whitelist off), and tells this
 * one each key, the descriptor of its device-memory object (memfd) and the
 * buffer's offset in it, found in its own /proc/self/maps.  This process
 * then times round trips, for each size:
 *   openacl  aclrtIpcMemImportByKey + aclrtIpcMemClose (the registry lookup,
 *            opening the object, a range of this device, the mapping with the
 *            device's protection, and all of it undone)
 *   peer     open(/proc/<pid>/fd/<fd>) + mmap of the same pages + munmap +
 *            close: the least a process can do to map the same memory
 * No side touches the pages.  Every run does M round trips (default 200) of
 * each side, the sides interleaved; the table gives the median and the
 * minimum microseconds per round trip over N runs (default 11) and the ratio
 * of the medians.  --procs P adds P idle processes on the device (default
 * 0): the registry's lock sweeps every process's entry, so what an import
 * costs grows with the processes sharing the device.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

#define MAX_RUNS 101
#define SIZES 3
#define MAX_PROCS 60 /* idle processes (a device takes 64) */
#define WATCHDOG_S 300

static const size_t sizes[SIZES] = {4u << 10, 1u << 20, 64u << 20};
static const char *size_names[SIZES] = {"4 KiB", "1 MiB", "64 MiB"};

static void check(aclError rc, const char *what) {
  if (rc != ACL_SUCCESS) {
    fprintf(stderr, "bench_ipc: %s failed: %d: %s\n", what, rc, aclGetRecentErrMsg());
    exit(1);
  }
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* ---- the exporter ---------------------------------------------------------------- */

/* The descriptor of the object mapped at p in this process and p's offset in it. */
static int object_of(const void *p, int *fd_out, uint64_t *off_out) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (maps == NULL)
    return -1;
  char line[512];
  unsigned long long lo = 0, hi = 0, off = 0, ino = 0;
  int found = 0;
  while (!found && fgets(line, sizeof(line), maps) != NULL) {
    unsigned maj = 0, min = 0;
    if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu", &lo, &hi, &off, &maj, &min, &ino) == 6 && (uintptr_t)p >= lo &&
        (uintptr_t)p < hi && ino != 0)
      found = 1;
  }
  fclose(maps);
  if (!found)
    return -1;
  for (int fd = 0; fd < 1024; fd++) {
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    if (stat(path, &st) == 0 && (unsigned long long)st.st_ino == ino) {
      *fd_out = fd;
      *off_out = off + ((uintptr_t)p - lo);
      return 0;
    }
  }
  return -1;
}

static int exporter(void) {
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  void *bufs[SIZES];
  char keys[SIZES][80];
  for (int i = 0; i < SIZES; i++) {
    check(aclrtMalloc(&bufs[i], sizes[i], ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    check(aclrtMemset(bufs[i], sizes[i], 7, sizes[i]), "aclrtMemset");
    check(aclrtIpcMemGetExportKey(bufs[i], sizes[i], keys[i], 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
          "aclrtIpcMemGetExportKey");
    int fd = -1;
    uint64_t off = 0;
    if (object_of(bufs[i], &fd, &off) != 0) {
      fprintf(stderr, "bench_ipc: the exporter cannot find its device memory object in /proc/self/maps\n");
      return 1;
    }
    printf("%s %d %llu\n", keys[i], fd, (unsigned long long)off);
  }
  fflush(stdout);
  char line[16];
  while (fgets(line, sizeof(line), stdin) != NULL) { /* until the importer is done */
  }
  for (int i = 0; i < SIZES; i++) {
    check(aclrtIpcMemClose(keys[i]), "aclrtIpcMemClose");
    check(aclrtFree(bufs[i]), "aclrtFree");
  }
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  return 0;
}

/* An idle process on the device, until its input ends. */
static int idle(void) {
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  printf("ready\n");
  fflush(stdout);
  char line[16];
  while (fgets(line, sizeof(line), stdin) != NULL) {
  }
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  return 0;
}

/* Starts this binary with `role`; *to: its input, *from: its output. */
static pid_t start(const char *argv0, const char *role, int *to, FILE **from) {
  int a[2], b[2];
  if (pipe(a) != 0 || pipe(b) != 0)
    exit(1);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(a[0], 0);
    dup2(b[1], 1);
    close(a[1]);
    close(b[0]);
    execl("/proc/self/exe", argv0, role, (char *)NULL);
    _exit(127);
  }
  close(a[0]);
  close(b[1]);
  fcntl(a[1], F_SETFD, FD_CLOEXEC); /* later children must not hold it: EOF ends this one */
  fcntl(b[0], F_SETFD, FD_CLOEXEC);
  *to = a[1];
  *from = fdopen(b[0], "r");
  return pid;
}

/* ---- the importer ---------------------------------------------------------------- */

typedef struct {
  char key[80];
  int fd;
  uint64_t off;
} export_t;

static pid_t exporter_pid;

static double run_openacl(const export_t *e, int iters) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    void *p = NULL;
    check(aclrtIpcMemImportByKey(&p, e->key, ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT), "aclrtIpcMemImportByKey");
    check(aclrtIpcMemClose(e->key), "aclrtIpcMemClose");
  }
  return (double)(now_ns() - t0) / 1e3 / iters;
}

static double run_peer(const export_t *e, size_t size, int iters) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  uint64_t lo = e->off & ~(uint64_t)(pg - 1);
  size_t len = (size_t)(((e->off + size + pg - 1) & ~(uint64_t)(pg - 1)) - lo);
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)exporter_pid, e->fd);
  uint64_t t0 = now_ns();
  for (int i = 0; i < iters; i++) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    void *p = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)lo);
    if (p == MAP_FAILED) {
      perror("bench_ipc: the peer's open + mmap");
      exit(1);
    }
    munmap(p, len);
    close(fd);
  }
  return (double)(now_ns() - t0) / 1e3 / iters;
}

int main(int argc, char **argv) {
  int runs = 11, iters = 200, procs = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--exporter") == 0) {
      return exporter();
    } else if (strcmp(argv[i], "--idle") == 0) {
      return idle();
    } else if (strcmp(argv[i], "--procs") == 0 && i + 1 < argc) {
      procs = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc) {
      iters = atoi(argv[++i]);
    } else {
      fprintf(stderr, "usage: bench_ipc [--runs N] [--iters M] [--procs P]\n");
      return 2;
    }
  }
  if (runs < 1 || runs > MAX_RUNS || iters < 1 || procs < 0 || procs > MAX_PROCS) {
    fprintf(stderr, "bench_ipc: --runs is 1 to %d, --iters at least 1, --procs 0 to %d\n", MAX_RUNS, MAX_PROCS);
    return 2;
  }
  alarm(WATCHDOG_S);
  /* a device of its own, shared by the two processes only */
  char name[32];
  snprintf(name, sizeof(name), "bench%d", (int)getpid());
  setenv("OPENACL_SHARED_DEVICE_NAME", name, 1);
  check(aclInit(NULL), "aclInit");
  check(aclrtSetDevice(0), "aclrtSetDevice");
  int to = -1;
  FILE *in = NULL;
  exporter_pid = start(argv[0], "--exporter", &to, &in);
  int idle_to[MAX_PROCS];
  pid_t idle_pid[MAX_PROCS];
  for (int i = 0; i < procs; i++) {
    FILE *f = NULL;
    char line[16];
    idle_pid[i] = start(argv[0], "--idle", &idle_to[i], &f);
    if (f == NULL || fgets(line, sizeof(line), f) == NULL) {
      fprintf(stderr, "bench_ipc: an idle process did not start\n");
      return 1;
    }
    fclose(f);
  }
  export_t ex[SIZES];
  for (int i = 0; i < SIZES; i++) {
    char line[256];
    unsigned long long off = 0;
    if (in == NULL || fgets(line, sizeof(line), in) == NULL ||
        sscanf(line, "%79s %d %llu", ex[i].key, &ex[i].fd, &off) != 3) {
      fprintf(stderr, "bench_ipc: the exporter did not answer\n");
      return 1;
    }
    ex[i].off = off;
  }
  /* warm-up, then the runs, the sides interleaved */
  for (int s = 0; s < SIZES; s++) {
    run_openacl(&ex[s], iters / 10 + 1);
    run_peer(&ex[s], sizes[s], iters / 10 + 1);
  }
  double v[SIZES][2][MAX_RUNS];
  for (int k = 0; k < runs; k++)
    for (int s = 0; s < SIZES; s++) {
      v[s][0][k] = run_openacl(&ex[s], iters);
      v[s][1][k] = run_peer(&ex[s], sizes[s], iters);
    }
  printf("IPC memory import + close in the importing process, %d processes on the device, %d round trips per run, "
         "%d runs (us per round trip)\n",
         procs + 2, iters, runs);
  printf("openacl: aclrtIpcMemImportByKey + aclrtIpcMemClose\n");
  printf("peer:    open(/proc/<pid>/fd/<fd>) + mmap + munmap + close\n");
  printf("%-8s %16s %12s %16s %12s %18s\n", "size", "openacl median", "min", "peer median", "min", "ratio of medians");
  for (int s = 0; s < SIZES; s++) {
    double med[2], min[2];
    for (int side = 0; side < 2; side++) {
      qsort(v[s][side], (size_t)runs, sizeof(double), cmp_double);
      med[side] = runs % 2 ? v[s][side][runs / 2] : (v[s][side][runs / 2 - 1] + v[s][side][runs / 2]) / 2;
      min[side] = v[s][side][0];
    }
    printf("%-8s %16.2f %12.2f %16.2f %12.2f %18.2f\n", size_names[s], med[0], min[0], med[1], min[1], med[0] / med[1]);
  }
  fclose(in);
  close(to); /* the exporter frees and leaves, as do the idle ones */
  int st = 0;
  waitpid(exporter_pid, &st, 0);
  for (int i = 0; i < procs; i++) {
    close(idle_to[i]);
    waitpid(idle_pid[i], NULL, 0);
  }
  check(aclrtResetDevice(0), "aclrtResetDevice");
  check(aclFinalize(), "aclFinalize");
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
