/*
 * null_backend.c - the dispatch layer on the null backend (api/null_backend/...).
 *
 * With OPENACL_BACKEND=null and OPENACL_NULL_BACKEND_LOG=<file>, the null
 * backend (src/hal/null/null.c) appends one line per hook call: "probe N 0",
 * "device_open ID 0", "mem_reserve ID CAPACITY", "device_close ID 0".  These
 * tests read the file to check which hooks the runtime calls, in which order
 * and how often (docs/backend-guide.md): aclInit only probes; the first
 * aclrtSetDevice (or aclrtCreateContext) of a device opens it and reserves
 * its memory once; later sets, streams, events and memory never open again;
 * the last reset (or aclFinalize) closes it; each device on its own.  They
 * also check that ordinary stream, event, memory and host-function work runs
 * on the null backend, and that kernel loading fails with a clear message.
 *
 * Each TEST runs in its own process (ctest), so the environment is set
 * before aclInit and nothing leaks between tests.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#ifndef OPENACL_TEST_KERNELS
#error "OPENACL_TEST_KERNELS must name the test kernel binary"
#endif

/* The null backend reports this capacity for every device. */
#define NULL_CAPACITY ((uint64_t)64 << 20)

static char *log_path;

/* Chooses the null backend and a fresh call log; before aclInit. */
static void use_null_backend(int devices) {
  char *dir = th_tmpdir();
  if (asprintf(&log_path, "%s/null-backend.log", dir) < 0)
    abort();
  free(dir);
  setenv("OPENACL_BACKEND", "null", 1);
  setenv("OPENACL_NULL_BACKEND_LOG", log_path, 1);
  char n[16];
  snprintf(n, sizeof(n), "%d", devices);
  setenv("OPENACL_DEVICE_COUNT", n, 1);
}

/* The hook calls so far, one per line, "" when none. */
static char *calls(void) {
  char *t = th_read_file(log_path);
  return t ? t : strdup("");
}

/* Lines of the log that are exactly `line`. */
static int count_line(const char *line) {
  char *t = calls();
  int n = 0;
  size_t len = strlen(line);
  for (char *p = t; p && *p;) {
    char *nl = strchr(p, '\n');
    size_t l = nl ? (size_t)(nl - p) : strlen(p);
    if (l == len && strncmp(p, line, len) == 0)
      n++;
    p = nl ? nl + 1 : NULL;
  }
  free(t);
  return n;
}

/* Lines of the log whose first word is `hook`. */
static int count_hook(const char *hook) {
  char *t = calls();
  int n = 0;
  size_t len = strlen(hook);
  for (char *p = t; p && *p;) {
    if (strncmp(p, hook, len) == 0 && (p[len] == ' ' || p[len] == '\n' || p[len] == '\0'))
      n++;
    char *nl = strchr(p, '\n');
    p = nl ? nl + 1 : NULL;
  }
  free(t);
  return n;
}

/* The whole log must equal `want` (lines joined by '\n', trailing '\n'). */
#define CHECK_CALLS(want)                                                      \
  do {                                                                         \
    char *got_ = calls();                                                      \
    CHECK_STR_EQ(got_, want);                                                  \
    free(got_);                                                                \
  } while (0)

#define CAP_STR "67108864"

TEST(init_only_probes) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\n");
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 1);
  int64_t v = 0;
  CHECK_INT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, (int64_t)NULL_CAPACITY);
  /* queries of a device that was never set open nothing */
  CHECK_CALLS("probe 1 0\n");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\n");
}

TEST(first_set_device_opens_then_reserves_once) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\n");
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void host_fn_count(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

/* Streams, events, memory, host functions and contexts on an open device:
 * none of them may open or reserve anything again. */
static void ordinary_work(void) {
  aclrtStream s;
  aclrtEvent a, b;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
  void *d = NULL, *pin = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMallocHost(&pin, 4096), ACL_SUCCESS);
  unsigned char src[4096], back[4096];
  for (int i = 0; i < 4096; i++)
    src[i] = (unsigned char)(i * 7);
  memset(back, 0, sizeof(back));
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(d, 4096, src, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, host_fn_count, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(pin, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeEvent(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 1);
  CHECK(memcmp(pin, src, sizeof(src)) == 0);
  float ms = -1;
  CHECK_INT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
  CHECK(ms >= 0);
  aclrtEventRecordedStatus st;
  CHECK_INT_EQ(aclrtQueryEventStatus(b, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  /* synchronous copy and fill */
  CHECK_INT_EQ(aclrtMemset(d, 4096, 0xab, 100), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(back, sizeof(back), d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int i = 0; i < 100; i++)
    CHECK_INT_EQ(back[i], 0xab);
  CHECK_INT_EQ(memcmp(back + 100, src + 100, 4096 - 100), 0);
  /* the stream waits for an event, the default stream too */
  CHECK_INT_EQ(aclrtStreamWaitEvent(NULL, b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, host_fn_count, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 2);
  /* memory information comes from the backend's properties */
  size_t free_b = 0, total = 0;
  CHECK_INT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total), ACL_SUCCESS);
  CHECK_INT_EQ(total, NULL_CAPACITY);
  CHECK(free_b <= NULL_CAPACITY - 4096 - 32); /* other threads may allocate too */
  aclrtPtrAttributes attr;
  CHECK_INT_EQ(aclrtPointerGetAttributes(d, &attr), ACL_SUCCESS);
  CHECK_INT_EQ(attr.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  /* a user context on the open device opens nothing */
  aclrtContext def, c;
  CHECK_INT_EQ(aclrtGetCurrentContext(&def), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateContext(&c, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetCurrentContext(def), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFreeHost(pin), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST(second_set_and_work_do_not_reopen) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ordinary_work();
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\n");
  /* one reset of two: still open */
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\n");
  /* the count reaches zero: closed, once */
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
}

static void *other_thread_sets(void *arg) {
  (void)arg;
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ordinary_work();
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  return NULL;
}

TEST(threads_share_one_open) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(pthread_create(&t[i], NULL, other_thread_sets, NULL), 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  CHECK_INT_EQ(count_hook("device_open"), 1);
  CHECK_INT_EQ(count_hook("mem_reserve"), 1);
  CHECK_INT_EQ(count_hook("device_close"), 0);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 1);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(reset_to_zero_then_set_opens_again) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  for (int round = 0; round < 3; round++) {
    CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void *d = NULL;
    CHECK_INT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }
  CHECK_CALLS("probe 1 0\n"
              "device_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n"
              "device_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n"
              "device_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 3);
}

TEST(reset_force_closes) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
  /* a reset of a device that is not set changes nothing */
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 1);
}

TEST(finalize_closes_a_device_still_set) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS); /* leaked on purpose */
  void *d;
  CHECK_INT_EQ(aclrtMalloc(&d, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); /* leaked too */
  CHECK_INT_EQ(count_hook("device_close"), 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
  /* a new cycle probes again and opens again */
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n"
              "probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
}

TEST(two_devices_open_and_close_independently) {
  use_null_backend(2);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_CALLS("probe 2 0\n");
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_CALLS("probe 2 0\ndevice_open 1 0\nmem_reserve 1 " CAP_STR "\n");
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_CALLS("probe 2 0\ndevice_open 1 0\nmem_reserve 1 " CAP_STR "\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\n");
  ordinary_work(); /* on device 0 */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ordinary_work(); /* on device 1 */
  CHECK_INT_EQ(count_hook("device_open"), 2);
  /* device 1 was set twice: the first reset keeps it open */
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 0);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(count_line("device_close 1 0"), 1);
  CHECK_INT_EQ(count_line("device_close 0 0"), 0);
  /* device 0 is closed by aclFinalize */
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_line("device_close 0 0"), 1);
  CHECK_INT_EQ(count_line("device_close 1 0"), 1);
  CHECK_INT_EQ(count_line("device_open 0 0"), 1);
  CHECK_INT_EQ(count_line("device_open 1 0"), 1);
  CHECK_INT_EQ(count_hook("mem_reserve"), 2);
  CHECK_INT_EQ(count_hook("probe"), 1);
}

TEST(two_devices_both_closed_by_finalize) {
  use_null_backend(2);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_line("device_open 0 0"), 1);
  CHECK_INT_EQ(count_line("device_open 1 0"), 1);
  CHECK_INT_EQ(count_line("device_close 0 0"), 1);
  CHECK_INT_EQ(count_line("device_close 1 0"), 1);
  CHECK_INT_EQ(count_hook("mem_reserve"), 2);
  /* each close comes after its open */
  char *t = calls();
  CHECK(strstr(t, "device_open 0 0") < strstr(t, "device_close 0 0"));
  CHECK(strstr(t, "device_open 1 0") < strstr(t, "device_close 1 0"));
  free(t);
}

TEST(user_context_opens_and_keeps_device_open) {
  use_null_backend(2);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  aclrtContext c;
  CHECK_INT_EQ(aclrtCreateContext(&c, 1), ACL_SUCCESS);
  CHECK_CALLS("probe 2 0\ndevice_open 1 0\nmem_reserve 1 " CAP_STR "\n");
  /* set and reset the device: the user context keeps it open */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 0);
  CHECK_INT_EQ(count_hook("device_open"), 1);
  /* the last user of the device goes: closed */
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_SUCCESS);
  CHECK_CALLS("probe 2 0\ndevice_open 1 0\nmem_reserve 1 " CAP_STR "\ndevice_close 1 0\n");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("device_close"), 1);
}

TEST(misuse_opens_nothing) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtContext c;
  CHECK_INT_EQ(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
  CHECK_CALLS("probe 1 0\n");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\n");
}

static void cb_count(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

typedef struct reporter {
  atomic_int stop;
  atomic_int go; /* set once the thread is subscribed */
} reporter;

static void *report_loop(void *arg) {
  reporter *r = arg;
  while (!atomic_load(&r->go))
    sched_yield();
  while (!atomic_load(&r->stop)) {
    int rc = aclrtProcessReport(20);
    if (rc == ACL_ERROR_RT_THREAD_SUBSCRIBE)
      break;
  }
  return NULL;
}

TEST(callbacks_run_on_null_backend) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  reporter r = {0, 0};
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, report_loop, &r), 0);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
  atomic_store(&r.go, 1);
  atomic_int n = 0;
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(aclrtLaunchCallback(cb_count, &n, i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, s),
                 ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(cb_count, &n, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&n), 11); /* the last BLOCK callback ran, and all before it */
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
  atomic_store(&r.stop, 1);
  pthread_join(t, NULL);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
}

TEST(memory_capacity_is_the_backends) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void *d = NULL;
  CHECK_INT_EQ(aclrtMalloc(&d, (size_t)NULL_CAPACITY, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtMalloc failed");
  CHECK_INT_EQ(aclrtMalloc(&d, (size_t)NULL_CAPACITY - 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(d, (size_t)NULL_CAPACITY - 32, 1, 1 << 20), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(count_hook("mem_reserve"), 1);
}

/* Kernels: the null backend loads none.  The failure must name the API,
 * say why, return an ACL error code (the runtime's "this device cannot run
 * kernels": ACL_ERROR_RT_FEATURE_NOT_SUPPORT), and leave the runtime
 * working. */
static void check_no_kernels(int rc, const char *api) {
  const char *m = aclGetRecentErrMsg();
  CHECK_INT_EQ(rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_NOT_NULL(m);
  char want[96];
  snprintf(want, sizeof(want), "%s failed", api);
  CHECK_STR_HAS(m, want);
  CHECK_STR_HAS(m, "null backend");
  CHECK_STR_HAS(m, "kernels");
}

TEST(kernel_load_from_file_fails_clearly) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtBinHandle b = NULL;
  (void)aclGetRecentErrMsg();
  check_no_kernels(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, NULL, &b), "aclrtBinaryLoadFromFile");
  ordinary_work();
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(kernel_load_from_data_fails_clearly) {
  use_null_backend(1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  /* the start of a 64-bit ELF file: the null backend refuses any binary */
  static const unsigned char bytes[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  size_t len = sizeof(bytes);
  aclrtBinHandle b = NULL;
  (void)aclGetRecentErrMsg();
  check_no_kernels(aclrtBinaryLoadFromData(bytes, len, NULL, &b), "aclrtBinaryLoadFromData");
  aclrtBinary blob = aclrtCreateBinary(bytes, len);
  CHECK_NOT_NULL(blob);
  (void)aclGetRecentErrMsg();
  check_no_kernels(aclrtBinaryLoad(blob, &b), "aclrtBinaryLoad");
  CHECK_INT_EQ(aclrtDestroyBinary(blob), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  /* loading touches no device hook */
  CHECK_CALLS("probe 1 0\ndevice_open 0 0\nmem_reserve 0 " CAP_STR "\ndevice_close 0 0\n");
}
