/*
 * vmm_share.c - shareable physical-memory handles across processes
 * (api/vmm_share/..., docs/processes.md "Virtual memory and shareable
 * handles"): physical memory exported here and imported by a helper process
 * (vmm_proc.c, fork+exec, driven through pipes) and the other way round,
 * with and without pid validation, a process off the whitelist refused
 * with ACL_ERROR_RT_NO_PERMISSION, pages that outlive the exporter's free,
 * kill -9 of the exporter (its mapping stays with the importer, later
 * imports fail, the registry recovers the capacity) and of an importer.
 *
 * The harness gives each test its own OPENACL_SHARED_DEVICE_NAME; the
 * helpers inherit it.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "proc_driver.h"

#define KiB ((size_t)1024)

static void proc_start(proc *p) { proc_start_args(p, OPENACL_VMM_PROC, NULL); }

#define PROC_OK(p, ...) CHECK_STR_EQ(proc_cmd((p), __VA_ARGS__), "ok")

static void proc_kill(proc *p) {
  kill(p->pid, SIGKILL);
  proc_end(p);
}

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static size_t free_bytes(void) {
  size_t f = 0, t = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_SUCCESS);
  return f;
}

static unsigned long long dev_sum(const void *p, size_t n) {
  unsigned char *h = malloc(n);
  CHECK_NOT_NULL(h);
  CHECK_INT_EQ(aclrtMemcpy(h, n, p, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++)
    s += h[i];
  free(h);
  return s;
}

static void map_rw(aclrtDrvMemHandle h, size_t size, void **va) {
  CHECK_INT_EQ(aclrtReserveMemAddress(va, size, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(*va, size, 0, h, 0), ACL_SUCCESS);
  aclrtMemAccessDesc d;
  memset(&d, 0, sizeof(d));
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  CHECK_INT_EQ(aclrtMemSetAccess(*va, size, &d, 1), ACL_SUCCESS);
}

static void unmap(void *va) {
  CHECK_INT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
}

/* Physical memory of this process, mapped and filled with `byte`. */
static aclrtDrvMemHandle alloc_mapped(size_t size, int byte, void **va) {
  aclrtPhysicalMemProp p;
  memset(&p, 0, sizeof(p));
  p.memAttr = ACL_MEM_NORMAL;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  aclrtDrvMemHandle h = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&h, size, &p, 0), ACL_SUCCESS);
  map_rw(h, size, va);
  CHECK_INT_EQ(aclrtMemset(*va, size, byte, size), ACL_SUCCESS);
  return h;
}

static uint64_t parse_sh(const char *answer) {
  unsigned long long sh = 0;
  if (sscanf(answer, "sh %llu", &sh) != 1)
    th_fail(__FILE__, __LINE__, "expected 'sh <handle>', got '%s'", answer);
  return sh;
}

/* This process exports, a helper imports, reads, writes; this one sees the write. */
TEST(export_import_write_read) {
  setup();
  size_t f0 = free_bytes(), n = 64 * KiB;
  void *va = NULL;
  aclrtDrvMemHandle h = alloc_mapped(n, 3, &va);
  uint64_t sh = 0;
  CHECK_INT_EQ(
      aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &sh),
      ACL_SUCCESS);
  CHECK(sh != 0);
  proc b;
  proc_start(&b);
  PROC_OK(&b, "import %llu", (unsigned long long)sh);
  PROC_OK(&b, "map 0 %zu", n);
  char want[64];
  snprintf(want, sizeof(want), "sum %zu", 3 * n);
  CHECK_STR_EQ(proc_cmd(&b, "sum 0 %zu", n), want);
  PROC_OK(&b, "write 0 7 4096");
  CHECK(dev_sum(va, 4096) == 7ull * 4096);
  CHECK(dev_sum((char *)va + 4096, 4096) == 3ull * 4096);
  /* the importer costs nothing: both see the same free memory */
  snprintf(want, sizeof(want), "mem %zu", f0 - n);
  CHECK_STR_HAS(proc_cmd(&b, "meminfo"), want);
  PROC_OK(&b, "unmap 0");
  PROC_OK(&b, "free 0");
  CHECK_INT_EQ(proc_end(&b), 0);
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(free_bytes(), f0);
  teardown();
}

/* A helper exports; this process imports (V2): the handle describes device
 * memory here and its mapping is device memory of this process's device. */
TEST(import_here) {
  setup();
  size_t n = 8 * KiB;
  proc a;
  proc_start(&a);
  PROC_OK(&a, "malloc %zu", n);
  PROC_OK(&a, "map 0 %zu", n);
  PROC_OK(&a, "fill 0 9");
  uint64_t sh = parse_sh(proc_cmd(&a, "export 0 1"));
  aclrtDrvMemHandle h = NULL;
  CHECK_INT_EQ(aclrtMemImportFromShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h), ACL_SUCCESS);
  aclrtPhysicalMemProp o;
  CHECK_INT_EQ(aclrtMemGetAllocationPropertiesFromHandle(h, &o), ACL_SUCCESS);
  CHECK_INT_EQ(o.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  CHECK_INT_EQ(o.location.id, 0);
  CHECK_INT_EQ(o.memAttr, ACL_HBM_MEM_NORMAL);
  void *va = NULL;
  map_rw(h, n, &va);
  CHECK(dev_sum(va, n) == 9ull * n);
  aclrtPtrAttributes at;
  CHECK_INT_EQ(aclrtPointerGetAttributes(va, &at), ACL_SUCCESS);
  CHECK_INT_EQ(at.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  unsigned char one[16];
  memset(one, 1, sizeof(one));
  CHECK_INT_EQ(aclrtMemcpy((char *)va + 100, 16, one, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  char want[64];
  snprintf(want, sizeof(want), "sum %d", 9 * 100 + 16);
  CHECK_STR_EQ(proc_cmd(&a, "sum 0 116"), want);
  /* an imported handle is not exported again */
  uint64_t again = 0;
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &again), ACL_ERROR_RT_PARAM_INVALID);
  /* nor mixed with this process's physical memory in one reservation */
  aclrtPhysicalMemProp p;
  memset(&p, 0, sizeof(p));
  p.memAttr = ACL_MEM_NORMAL;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  aclrtDrvMemHandle mine = NULL;
  CHECK_INT_EQ(aclrtMallocPhysical(&mine, 4096, &p, 0), ACL_SUCCESS);
  void *v2 = NULL;
  CHECK_INT_EQ(aclrtReserveMemAddress(&v2, 2 * n, 0, NULL, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem(v2, n, 0, h, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMapMem((char *)v2 + n, 4096, 0, mine, 0), ACL_ERROR_RT_PARAM_INVALID);
  unmap(v2);
  CHECK_INT_EQ(aclrtFreePhysical(mine), ACL_SUCCESS);
  /* a second import of the same handle is a second handle */
  aclrtDrvMemHandle h2 = NULL;
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(sh, 0, &h2), ACL_SUCCESS);
  CHECK(h2 != h);
  CHECK_INT_EQ(aclrtFreePhysical(h2), ACL_SUCCESS);
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(proc_end(&a), 0);
  teardown();
}

/* Flag 0: only whitelisted pids import; only the exporter adds pids. */
TEST(pid_whitelist) {
  setup();
  void *va = NULL;
  aclrtDrvMemHandle h = alloc_mapped(4096, 6, &va);
  uint64_t sh = 0;
  CHECK_INT_EQ(
      aclrtMemExportToShareableHandleV2(h, ACL_RT_VMM_EXPORT_FLAG_DEFAULT, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &sh),
      ACL_SUCCESS);
  proc b;
  proc_start(&b);
  char denied[32];
  snprintf(denied, sizeof(denied), "rc %d", ACL_ERROR_RT_NO_PERMISSION);
  CHECK_STR_EQ(proc_cmd(&b, "import %llu", (unsigned long long)sh), denied);
  CHECK_STR_EQ(proc_cmd(&b, "allow %llu %d", (unsigned long long)sh, b.dev_pid), denied); /* not its handle */
  int32_t other = b.dev_pid + 1000000;
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandle(sh, &other, 1), ACL_SUCCESS);
  CHECK_STR_EQ(proc_cmd(&b, "import %llu", (unsigned long long)sh), denied);
  int32_t pid = 0;
  CHECK_INT_EQ(aclrtDeviceGetBareTgid(&pid), ACL_SUCCESS);
  pid = b.dev_pid;
  CHECK_INT_EQ(aclrtMemSetPidToShareableHandleV2(&sh, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &pid, 1), ACL_SUCCESS);
  PROC_OK(&b, "import %llu", (unsigned long long)sh);
  PROC_OK(&b, "map 0 4096");
  CHECK_STR_EQ(proc_cmd(&b, "sum 0 10"), "sum 60");
  CHECK_INT_EQ(proc_end(&b), 0); /* it ends without freeing: its reset frees the import */
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  teardown();
}

/* The exporter frees while an importer holds the memory: the pages and
 * their charge stay until the importer frees; no new imports. */
TEST(pages_outlive_the_exporters_free) {
  setup();
  size_t f0 = free_bytes(), n = 16 * KiB;
  void *va = NULL;
  aclrtDrvMemHandle h = alloc_mapped(n, 2, &va);
  uint64_t sh = 0;
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &sh), ACL_SUCCESS);
  proc b, c;
  proc_start(&b);
  proc_start(&c);
  PROC_OK(&b, "import %llu", (unsigned long long)sh);
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(f0 - free_bytes(), n); /* still charged: process b holds it */
  PROC_OK(&b, "map 0 %zu", n);
  char want[64];
  snprintf(want, sizeof(want), "sum %zu", 2 * n);
  CHECK_STR_EQ(proc_cmd(&b, "sum 0 %zu", n), want);
  char no[32];
  snprintf(no, sizeof(no), "rc %d", ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_EQ(proc_cmd(&c, "import %llu", (unsigned long long)sh), no);
  PROC_OK(&b, "unmap 0");
  PROC_OK(&b, "free 0");
  CHECK_INT_EQ(free_bytes(), f0);
  CHECK_INT_EQ(proc_end(&b), 0);
  CHECK_INT_EQ(proc_end(&c), 0);
  teardown();
}

/* kill -9 of the exporter: this importer keeps its mapping, later imports
 * fail, the registry gives back everything but what this one still holds. */
TEST(exporter_killed) {
  setup();
  size_t f0 = free_bytes();
  proc a;
  proc_start(&a);
  PROC_OK(&a, "malloc 65536");
  PROC_OK(&a, "map 0 65536");
  PROC_OK(&a, "fill 0 5");
  uint64_t sh = parse_sh(proc_cmd(&a, "export 0 1"));
  PROC_OK(&a, "malloc 131072");
  uint64_t sh2 = parse_sh(proc_cmd(&a, "export 1 1"));
  CHECK_INT_EQ(f0 - free_bytes(), 65536 + 131072);
  aclrtDrvMemHandle h = NULL;
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(sh, 0, &h), ACL_SUCCESS);
  void *va = NULL;
  map_rw(h, 65536, &va);
  proc_kill(&a);
  CHECK(dev_sum(va, 65536) == 5ull * 65536); /* the mapping keeps the pages */
  aclrtDrvMemHandle h2 = NULL;
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(sh2, 0, &h2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "exporter");
  CHECK_INT_EQ(aclrtMemImportFromShareableHandle(sh, 0, &h2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(f0 - free_bytes(), 65536); /* recovered at the lookup; the import still holds its pages */
  unsigned char one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  CHECK_INT_EQ(aclrtMemcpy(va, 8, one, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(free_bytes(), f0);
  teardown();
}

/* kill -9 of an importer: the exporter's free then releases at once. */
TEST(importer_killed) {
  setup();
  size_t f0 = free_bytes();
  void *va = NULL;
  aclrtDrvMemHandle h = alloc_mapped(8 * KiB, 1, &va);
  uint64_t sh = 0;
  CHECK_INT_EQ(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 1, &sh), ACL_SUCCESS);
  proc b;
  proc_start(&b);
  PROC_OK(&b, "import %llu", (unsigned long long)sh);
  PROC_OK(&b, "map 0 8192");
  PROC_OK(&b, "malloc 4096");
  proc_kill(&b);
  unmap(va);
  CHECK_INT_EQ(aclrtFreePhysical(h), ACL_SUCCESS);
  CHECK_INT_EQ(free_bytes(), f0);
  teardown();
}
