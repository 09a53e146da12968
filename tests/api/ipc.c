/*
 * ipc.c - one device shared by several processes (api/ipc/...,
 * docs/processes.md): IPC memory exported here and imported by helper
 * processes (ipc_proc.c, started with fork+exec and driven through pipes)
 * and the other way round, pid whitelists, wrong and forged keys, kill -9 of
 * an exporter with the survivor checking codes and the registry recovering,
 * capacity shared exactly by several processes, and eight processes under
 * load at once, one of them killed, with the accounting exact at the end;
 * openaclDeviceMemoryLocate, which names the object behind device memory.
 *
 * The harness gives each test its own OPENACL_SHARED_DEVICE_NAME, so tests
 * running at once never share a device; the helpers inherit it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "proc_driver.h"
#include "openacl/openacl.h"
#include "openacl/stream_task.h"

static void proc_start(proc *p) { proc_start_args(p, OPENACL_IPC_PROC, NULL); }

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  aclrtResetDevice(0);
  aclFinalize();
}

static unsigned long long dev_sum(void *p, size_t n) {
  unsigned char *h = malloc(n);
  CHECK_INT_EQ(aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  free(h);
  return s;
}

/* This process exports, a helper imports, reads, writes; this one sees the write. */
TEST(export_import_write_read) {
  setup();
  size_t n = 1 << 20;
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 3, n), ACL_SUCCESS);
  char key[256] = "";
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, n, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
  CHECK(strlen(key) > 0 && strlen(key) <= 64);
  proc b;
  proc_start(&b);
  CHECK(strcmp(proc_cmd(&b, "import %s", key), "ok") == 0);
  char want[64];
  snprintf(want, sizeof(want), "sum %zu", 3 * n);
  CHECK(strcmp(proc_cmd(&b, "sum 0 %zu", n), want) == 0);
  CHECK(strcmp(proc_cmd(&b, "write 0 7 4096"), "ok") == 0);
  CHECK(dev_sum(p, 4096) == 7ull * 4096);
  CHECK(strcmp(proc_cmd(&b, "close %s", key), "ok") == 0);
  CHECK(strcmp(proc_cmd(&b, "free 0"), "ok") == 0); /* as the vendor's sample: harmless after the close */
  CHECK_INT_EQ(proc_end(&b), 0);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  teardown();
}

/* Two processes that number devices differently meet on the physical
 * device: this one uses device 1 of two, the helper sees only physical
 * device 1 (ASCEND_RT_VISIBLE_DEVICES=1), as its device 0. */
TEST(renumbered_devices_share) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  size_t n = 1 << 16;
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 1, n), ACL_SUCCESS);
  char key[256] = "";
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, n, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "1", 1); /* read by the helper's aclInit; this one's is done */
  proc b;
  proc_start(&b);
  unsetenv("ASCEND_RT_VISIBLE_DEVICES");
  CHECK(strcmp(proc_cmd(&b, "import %s", key), "ok") == 0);
  CHECK(strcmp(proc_cmd(&b, "write 0 9 256"), "ok") == 0);
  CHECK(dev_sum(p, 256) == 9ull * 256);
  CHECK_INT_EQ(proc_end(&b), 0);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* A helper exports; this process imports: the imported pointer is device
 * memory here (attributes, copies, kernels' translation, the host trap). */
TEST(import_here) {
  setup();
  proc a;
  proc_start(&a);
  CHECK(strcmp(proc_cmd(&a, "alloc 100000"), "ok") == 0);
  CHECK(strcmp(proc_cmd(&a, "fill 0 9"), "ok") == 0);
  const char *r = proc_cmd(&a, "export 0 1");
  char key[128] = "";
  CHECK(sscanf(r, "key %127s", key) == 1);
  void *q = NULL;
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, key, 0), ACL_SUCCESS);
  CHECK(dev_sum(q, 100000) == 9ull * 100000);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(q, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  /* past the exported range: refused */
  unsigned char h[16];
  CHECK_INT_EQ(aclrtMemcpy(h, 16, (char *)q + 99990, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  memset(h, 1, sizeof(h));
  CHECK_INT_EQ(aclrtMemcpy(q, 16, h, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  char want[64];
  snprintf(want, sizeof(want), "sum %d", 16);
  CHECK(strcmp(proc_cmd(&a, "sum 0 16"), want) == 0);
  /* re-export of imported memory is refused */
  char k2[256];
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(q, 100, k2, 65, 1), ACL_ERROR_RT_PARAM_INVALID);
  /* nor does an import lie in this process's own device memory object */
  openaclDeviceMemoryLocation loc;
  CHECK_INT_EQ(openaclDeviceMemoryLocate(q, 100, &loc), -1);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(h, 16, q, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  CHECK(strcmp(proc_cmd(&a, "close %s", key), "ok") == 0);
  CHECK_INT_EQ(proc_end(&a), 0);
  teardown();
}

/* openaclDeviceMemoryLocate (libhccl's same-host transfers): the object it
 * names, mapped through /proc/<pid>/fd, holds the buffer's bytes at the
 * offset it gives; anything that is not device memory of this process's
 * own object is -1. */
TEST(device_memory_locate) {
  setup();
  size_t n = 1 << 20;
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 5, n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset((char *)p + 4096, 100, 6, 100), ACL_SUCCESS);
  openaclDeviceMemoryLocation loc, whole;
  CHECK_INT_EQ(openaclDeviceMemoryLocate((char *)p + 4096, 100, &loc), 0);
  CHECK_INT_EQ(openaclDeviceMemoryLocate(p, n, &whole), 0);
  CHECK_INT_EQ(loc.pid, (int32_t)getpid());
  CHECK(loc.fd >= 0 && loc.fd == whole.fd && loc.inode == whole.inode);
  CHECK(loc.offset == whole.offset + 4096);
  CHECK(whole.offset + n <= whole.objectSize);
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)loc.pid, (int)loc.fd);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  struct stat st;
  CHECK(fstat(fd, &st) == 0 && (uint64_t)st.st_ino == loc.inode && (uint64_t)st.st_size == loc.objectSize);
  const unsigned char *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_NORESERVE, fd, 0);
  close(fd);
  CHECK(m != MAP_FAILED);
  CHECK_INT_EQ(m[whole.offset], 5);
  CHECK_INT_EQ(m[loc.offset], 6);
  CHECK_INT_EQ(m[loc.offset + 99], 6);
  CHECK_INT_EQ(m[loc.offset + 100], 5);
  munmap((void *)(uintptr_t)m, (size_t)st.st_size);
  /* not this process's device memory, or past the allocation */
  char host[64];
  CHECK_INT_EQ(openaclDeviceMemoryLocate(host, sizeof(host), &loc), -1);
  CHECK_INT_EQ(openaclDeviceMemoryLocate(NULL, 1, &loc), -1);
  CHECK_INT_EQ(openaclDeviceMemoryLocate(p, n + 1, &loc), -1);
  CHECK_INT_EQ(openaclDeviceMemoryLocate(p, 1, NULL), -1);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  CHECK_INT_EQ(openaclDeviceMemoryLocate(p, 1, &loc), -1);
  teardown();
}

/* Whitelist: a process not on the list gets ACL_ERROR_RT_NO_PERMISSION; once added, it imports. */
TEST(pid_whitelist) {
  setup();
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char key[256] = "";
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 8192, key, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT), ACL_SUCCESS);
  proc b;
  proc_start(&b);
  char want[32];
  snprintf(want, sizeof(want), "rc %d", ACL_ERROR_RT_NO_PERMISSION);
  CHECK(strcmp(proc_cmd(&b, "import %s", key), want) == 0);
  /* only the exporter may add pids */
  snprintf(want, sizeof(want), "rc %d", ACL_ERROR_RT_NO_PERMISSION);
  CHECK(strcmp(proc_cmd(&b, "allow %s %d", key, b.dev_pid), want) == 0 ||
        strncmp(proc_cmd(&b, "meminfo"), "mem", 3) == 0);
  int32_t pid = b.dev_pid;
  CHECK_INT_EQ(aclrtIpcMemSetImportPid(key, &pid, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtIpcMemSetImportPid(key, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemSetImportPid(key, NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK(strcmp(proc_cmd(&b, "import %s", key), "ok") == 0);
  CHECK(strcmp(proc_cmd(&b, "close %s", key), "ok") == 0);
  CHECK_INT_EQ(proc_end(&b), 0);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  teardown();
}

/* Wrong, forged and closed keys; argument checks. */
TEST(bad_keys) {
  setup();
  void *p = NULL, *q = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char key[256] = "";
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(NULL, 4096, key, 65, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 0, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 4097, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(key, 16, key, 65, 0), ACL_ERROR_RT_PARAM_INVALID); /* host memory */
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, "garbage", 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, "oacl-d0-00000000000000000000000000000000", 0), ACL_ERROR_RT_PARAM_INVALID);
  char forged[128];
  snprintf(forged, sizeof(forged), "%s", key);
  forged[strlen(forged) - 1] = forged[strlen(forged) - 1] == '0' ? '1' : '0';
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, forged, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, key, 2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtIpcMemImportByKey(NULL, key, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcMemClose(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcMemClose(forged), ACL_ERROR_RT_PARAM_INVALID);
  /* freeing the memory kills its key */
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_ERROR_RT_PARAM_INVALID);
  teardown();
}

/* kill -9 of the exporter: the importer keeps its mapping, the key dies,
 * the registry gives the dead process's memory back. */
TEST(exporter_killed) {
  setup();
  size_t f0 = 0, t0 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t0), ACL_SUCCESS);
  proc a;
  proc_start(&a);
  CHECK(strcmp(proc_cmd(&a, "alloc 65536"), "ok") == 0);
  CHECK(strcmp(proc_cmd(&a, "alloc 1000000"), "ok") == 0);
  CHECK(strcmp(proc_cmd(&a, "fill 0 5"), "ok") == 0);
  char key[128] = "";
  CHECK(sscanf(proc_cmd(&a, "export 0 1"), "key %127s", key) == 1);
  size_t f1 = 0, t1 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1), ACL_SUCCESS);
  CHECK(f0 - f1 == (65536 + 32) + ((1000000 + 31) / 32 * 32 + 32)); /* both allocations, the vendor's sizing */
  void *q = NULL;
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q, key, 0), ACL_SUCCESS);
  kill(a.pid, SIGKILL);
  proc_end(&a);
  CHECK(dev_sum(q, 65536) == 5ull * 65536); /* the mapping keeps the pages */
  void *q2 = NULL;
  CHECK_INT_EQ(aclrtIpcMemImportByKey(&q2, key, 0), ACL_ERROR_RT_PARAM_INVALID);
  size_t f2 = 0, t2 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f2, &t2), ACL_SUCCESS);
  CHECK(f2 == f0); /* recovered at the import's lookup */
  CHECK_INT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  teardown();
}

/* Four processes and this one share the capacity exactly. */
TEST(four_processes_capacity) {
  setup();
  size_t f0 = 0, t0 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t0), ACL_SUCCESS);
  proc ps[4];
  size_t expect = 0;
  for (int i = 0; i < 4; i++) {
    proc_start(&ps[i]);
    for (int j = 0; j < 3; j++) {
      size_t n = 1000 * (size_t)(i + 1) + 100 * (size_t)j;
      CHECK(strcmp(proc_cmd(&ps[i], "alloc %zu", n), "ok") == 0);
      expect += (n + 31) / 32 * 32 + 32;
    }
  }
  void *mine = NULL;
  CHECK_INT_EQ(aclrtMalloc(&mine, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  expect += 4096 + 32;
  size_t f1 = 0, t1 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f1, &t1), ACL_SUCCESS);
  CHECK(f0 - f1 == expect);
  char want[64];
  snprintf(want, sizeof(want), "mem %zu %zu", f1, t1);
  CHECK(strcmp(proc_cmd(&ps[2], "meminfo"), want) == 0); /* every process sees the same */
  /* one frees, one exits cleanly without freeing, one is killed, one finalises */
  CHECK(strcmp(proc_cmd(&ps[0], "free 0"), "ok") == 0);
  fprintf(ps[1].in, "exit\n");
  fflush(ps[1].in);
  proc_end(&ps[1]);
  kill(ps[2].pid, SIGKILL);
  proc_end(&ps[2]);
  CHECK_INT_EQ(proc_end(&ps[3]), 0);
  CHECK(strcmp(proc_cmd(&ps[0], "free 1"), "ok") == 0);
  CHECK(strcmp(proc_cmd(&ps[0], "free 2"), "ok") == 0);
  CHECK_INT_EQ(proc_end(&ps[0]), 0);
  /* a new allocation sweeps nothing by itself; an export does: use one */
  char key[256];
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(mine, 4096, key, 65, 1), ACL_SUCCESS);
  size_t f2 = 0, t2 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f2, &t2), ACL_SUCCESS);
  CHECK(f0 - f2 == 4096 + 32);
  CHECK_INT_EQ(aclrtFree(mine), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f2, &t2), ACL_SUCCESS);
  CHECK(f2 == f0);
  teardown();
}

/* The old private device: nothing is shared, exports say why. */
/* kill -9 of processes in the middle of aclrtMalloc / aclrtFree: the shared
 * counter and the process's own total are updated one after the other, so
 * some kills land between the two; the device's accounting must come back
 * exact each time (the registry counts again when a process died there). */
TEST(killed_while_allocating) {
  setup();
  size_t f0 = 0, t0 = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f0, &t0), ACL_SUCCESS);
  for (int i = 0; i < 25; i++) {
    proc a;
    proc_start(&a);
    CHECK(strcmp(proc_cmd(&a, "churn"), "ok") == 0);
    struct timespec ts = {0, (long)(1 + i % 7) * 1000000L};
    nanosleep(&ts, NULL);
    kill(a.pid, SIGKILL);
    proc_end(&a);
    size_t f = 0, t = 0;
    CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS); /* the sweep runs at the next lock */
    void *p = NULL;
    CHECK_INT_EQ(aclrtIpcMemImportByKey(&p, "oacl-d0-00000000000000000000000000000000", 0),
                 ACL_ERROR_RT_PARAM_INVALID); /* takes the registry's lock: the dead process is swept */
    CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
    CHECK(f == f0);
  }
  teardown();
}

TEST(private_device) {
  setenv("OPENACL_SHARED_DEVICE", "0", 1);
  setup();
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  char key[256];
  CHECK_INT_EQ(aclrtIpcMemGetExportKey(p, 4096, key, 65, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  openaclDeviceMemoryLocation loc;
  CHECK_INT_EQ(openaclDeviceMemoryLocate(p, 4096, &loc), -1); /* no other process may map it */
  CHECK_INT_EQ(aclrtFree(p), ACL_SUCCESS);
  teardown();
}

/* ---- eight processes under load (ipc_load.c) ----------------------------------------- */

#define LOAD_PROCS 8
#define LOAD_MEMORY (32ull << 20) /* small: the processes fill it at times */

/* The next answer of process i starts with want. */
#define EXPECT_ANSWER(p, i, want)                                                                                      \
  do {                                                                                                                 \
    const char *ea_line = proc_answer(p);                                                                                \
    if (strncmp(ea_line, (want), strlen(want)) != 0)                                                                   \
      th_fail(__FILE__, __LINE__, "process %d answered \"%s\", not \"%s...\"", (i), ea_line, (want));                  \
    if (strcmp((want), "done ") == 0)                                                                                  \
      printf("process %d: %s\n", (i), ea_line);                                                                        \
  } while (0)

/* Entries of /dev/shm named for this test's shared devices (printed). */
static int shm_entries(void) {
  char needle[64];
  snprintf(needle, sizeof(needle), "-%s-", getenv("OPENACL_SHARED_DEVICE_NAME"));
  DIR *d = opendir("/dev/shm");
  CHECK(d != NULL);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, needle) != NULL) {
      fprintf(stderr, "left in /dev/shm: %s\n", e->d_name);
      n++;
    }
  closedir(d);
  return n;
}

static void remove_dir(char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    char path[600];
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      unlink(path);
  }
  if (d != NULL)
    closedir(d);
  rmdir(dir);
  free(dir);
}

/* Eight helpers share device 0 under load for about 2.5 s each (ipc_load.c
 * says what each does and checks); victim >= 0: that one is killed with
 * kill -9 in the middle of its load, holding memory, keys and imports.  Then
 * the accounting must be exact: with the survivors still on the device but
 * holding nothing, the registry lists just them, at 0 bytes each and 0 in
 * use, and aclrtGetMemInfo says free == total; once they have left, no
 * registry and nothing in /dev/shm is left, and a fresh process finds the
 * whole device free.  No timing is checked. */
static void load_test(int victim) {
  setenv("OPENACL_DEVICE_MEMORY", "32M", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS); /* no device here: this process only reads the registry */
  char *dir = th_tmpdir();
  proc ps[LOAD_PROCS];
  char pids[LOAD_PROCS * 12] = "";
  size_t len = 0;
  for (int i = 0; i < LOAD_PROCS; i++) {
    proc_start(&ps[i]);
    len += (size_t)snprintf(pids + len, sizeof(pids) - len, " %d", ps[i].dev_pid);
  }
  unsigned seed = (unsigned)getpid(); /* a failing helper prints its seed */
  for (int i = 0; i < LOAD_PROCS; i++)
    proc_send(&ps[i], "load %d %s %d %u %s%s", i, dir, i == victim ? 600000 : 2500, seed + (unsigned)i,
              i == victim ? "noalloc" : "full", pids);
  for (int i = 0; i < LOAD_PROCS; i++)
    EXPECT_ANSWER(&ps[i], i, "started"); /* each imported every other's stable buffer */
  int alive = LOAD_PROCS, first = victim == 0 ? 1 : 0;
  if (victim >= 0) {
    usleep(300 * 1000); /* let the others get into their loops; nothing depends on it */
    CHECK_INT_EQ(kill(ps[victim].pid, SIGKILL), 0);
    proc_end(&ps[victim]); /* reaped: from now on the registry sees it gone */
    alive--;
  }
  for (int i = 0; i < LOAD_PROCS; i++)
    if (i != victim)
      EXPECT_ANSWER(&ps[i], i, "done ");
  for (int i = 0; i < LOAD_PROCS; i++)
    if (i != victim) {
      proc_send(&ps[i], "finish");
      EXPECT_ANSWER(&ps[i], i, "ok");
    }
  for (int i = 0; i < LOAD_PROCS; i++)
    if (i != victim) {
      proc_send(&ps[i], "unload");
      EXPECT_ANSWER(&ps[i], i, "ok");
    }
  /* the survivors hold nothing: the accounting is exact */
  openaclDeviceProcess procs[16];
  uint32_t count = 0;
  uint64_t cap = 0, in_use = 1;
  CHECK_INT_EQ(openaclGetDeviceProcesses(0, procs, 16, &count, &cap, &in_use), ACL_SUCCESS);
  CHECK_INT_EQ(count, alive);
  CHECK_INT_EQ(cap, LOAD_MEMORY);
  CHECK_INT_EQ(in_use, 0);
  for (uint32_t j = 0; j < count; j++) {
    CHECK_INT_EQ(procs[j].memoryBytes, 0);
    CHECK(victim < 0 || procs[j].pid != ps[victim].dev_pid);
  }
  char want[64];
  snprintf(want, sizeof(want), "mem %llu %llu", LOAD_MEMORY, LOAD_MEMORY);
  CHECK_STR_EQ(proc_cmd(&ps[first], "meminfo"), want);
  for (int i = 0; i < LOAD_PROCS; i++)
    if (i != victim)
      CHECK_INT_EQ(proc_end(&ps[i]), 0);
  /* all gone: no registry, nothing left in /dev/shm */
  CHECK_INT_EQ(openaclGetDeviceProcesses(0, NULL, 0, &count, &cap, &in_use), ACL_SUCCESS);
  CHECK_INT_EQ(count, 0);
  CHECK_INT_EQ(shm_entries(), 0);
  /* a fresh process finds the whole device free */
  proc f;
  proc_start(&f);
  CHECK_STR_EQ(proc_cmd(&f, "meminfo"), want);
  CHECK_INT_EQ(proc_end(&f), 0);
  CHECK_INT_EQ(shm_entries(), 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  remove_dir(dir);
}

/* Eight processes allocate, free, copy, export and import at once. */
TEST(eight_processes_under_load) { load_test(-1); }

/* The same, one of the eight killed with kill -9 in the middle of its load. */
TEST(eight_processes_one_killed) { load_test(3); }
