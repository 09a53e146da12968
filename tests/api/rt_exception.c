/*
 * rt_exception.c - exception-info callbacks, their readers and the fault
 * details of rt-breadth §4.2-4.4 through the public API, and the vendor's
 * 2_callback_exception sample with the lines its README shows.
 */
#include <stddef.h>
#include <string.h>

#include "rt_ext_common.h"

/* The ABI of the error details (rt-breadth §4.3: sizes measured on x86-64). */
_Static_assert(sizeof(aclrtMemUceInfo) == 128, "aclrtMemUceInfo");
_Static_assert(sizeof(aclrtErrorInfo) == 2576, "aclrtErrorInfo");
_Static_assert(offsetof(aclrtErrorInfo, errorType) == 4, "errorType");
_Static_assert(offsetof(aclrtErrorInfo, detail) == 8, "detail");
_Static_assert(sizeof(aclrtErrorInfoDetail) == 2568, "detail size");
_Static_assert(ACL_RT_MEM_UCE_INFO_MAX_NUM == 20 && MAX_MEM_UCE_INFO_ARRAY_SIZE == 128 && UCE_INFO_RESERVED_SIZE == 14,
               "macros");

/* What the callbacks saw. */
typedef struct seen {
  atomic_int calls;
  atomic_int calls_b;
  uint32_t task, stream, tid, device, code;
  int args_rc, func_rc;
  struct rx_fail_args args;
  uint32_t args_len;
  aclrtFuncHandle func;
  pthread_t thread;
  int sync_rc;
  const aclrtExceptionInfo *info;
} seen;

static seen g_seen;
static aclrtStream g_sync_target;

static void on_exception(aclrtExceptionInfo *info) {
  g_seen.task = aclrtGetTaskIdFromExceptionInfo(info);
  g_seen.stream = aclrtGetStreamIdFromExceptionInfo(info);
  g_seen.tid = aclrtGetThreadIdFromExceptionInfo(info);
  g_seen.device = aclrtGetDeviceIdFromExceptionInfo(info);
  g_seen.code = aclrtGetErrorCodeFromExceptionInfo(info);
  void *args = NULL;
  uint32_t len = 0;
  g_seen.args_rc = aclrtGetArgsFromExceptionInfo(info, &args, &len);
  if (g_seen.args_rc == 0 && len >= sizeof(g_seen.args))
    memcpy(&g_seen.args, args, sizeof(g_seen.args));
  g_seen.args_len = len;
  g_seen.func_rc = aclrtGetFuncHandleFromExceptionInfo(info, &g_seen.func);
  g_seen.thread = pthread_self();
  g_seen.info = info;
  if (g_sync_target != NULL)
    g_seen.sync_rc = aclrtSynchronizeStream(g_sync_target);
  atomic_fetch_add(&g_seen.calls, 1);
}

/* Only counts: for callbacks that run on several executors at once. */
static void on_exception_count(aclrtExceptionInfo *info) {
  (void)info;
  atomic_fetch_add(&g_seen.calls, 1);
}

static void on_exception_b(aclrtExceptionInfo *info) {
  (void)info;
  atomic_fetch_add(&g_seen.calls_b, 1);
}

static void up_ex(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  memset(&g_seen, 0, sizeof(g_seen));
  g_sync_target = NULL;
}

/* Launches rx_fail on s (block 1 of 2 fails with 42) and synchronises. */
static void fail_on(aclrtFuncHandle f, aclrtStream s) {
  struct rx_fail_args a = {1, 42};
  CHECK_INT_EQ(rx_launch(f, 2, &a, sizeof(a), s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST(callback_gets_the_failing_tasks_details) {
  up_ex();
  aclrtFuncHandle ok = rx_func("rx_double", NULL), bad = rx_func("rx_fail", NULL);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  int32_t in[4] = {1, 2, 3, 4};
  void *din = NULL, *dout = NULL;
  CHECK_INT_EQ(aclrtMalloc(&din, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMalloc(&dout, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(din, 16, in, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  struct rx_double_args d = {din, dout, 4};
  CHECK_INT_EQ(rx_launch(ok, 1, &d, sizeof(d), s), ACL_SUCCESS);   /* the stream's first task */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 0);                     /* not for success */
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);                     /* once, before the sync returned */
  int32_t sid = -1;
  CHECK_INT_EQ(aclrtStreamGetId(s, &sid), ACL_SUCCESS);
  CHECK_INT_EQ(g_seen.stream, (uint32_t)sid);
  CHECK_INT_EQ(g_seen.task, 2);                                    /* the stream's second task */
  CHECK_INT_EQ(g_seen.device, 0);
  CHECK_INT_EQ(g_seen.code, ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_INT_EQ(g_seen.tid, rx_gettid());                           /* the submitting thread */
  CHECK_INT_EQ(g_seen.args_rc, ACL_SUCCESS);
  CHECK_INT_EQ(g_seen.args_len, sizeof(struct rx_fail_args));
  CHECK_INT_EQ(g_seen.args.bad, 1);
  CHECK_INT_EQ(g_seen.args.status, 42);
  CHECK_INT_EQ(g_seen.func_rc, ACL_SUCCESS);
  CHECK(g_seen.func == bad);
  /* the info is valid only during the callback */
  CHECK_INT_EQ(aclrtGetTaskIdFromExceptionInfo(g_seen.info), 0xFFFFFFFFu);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "inside the exception callback");
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  CHECK_INT_EQ(aclrtFree(din), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dout), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

static void *g_args_ptr; /* the device pointer in the failing kernel's arguments */
static void on_exception_ptr(aclrtExceptionInfo *info) {
  void *args = NULL;
  uint32_t len = 0;
  if (aclrtGetArgsFromExceptionInfo(info, &args, &len) == ACL_SUCCESS && len >= sizeof(void *))
    memcpy(&g_args_ptr, args, sizeof(void *));
  atomic_fetch_add(&g_seen.calls, 1);
}

TEST(kernel_args_hold_the_programs_device_pointers) {
  up_ex();
  aclrtFuncHandle f = rx_func("rx_fail_ptr", NULL);
  void *buf = NULL;
  CHECK_INT_EQ(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception_ptr), ACL_SUCCESS);
  struct rx_fail_ptr_args a;
  memset(&a, 0, sizeof(a));
  a.buf = buf;
  a.status = 9;
  CHECK_INT_EQ(rx_launch(f, 1, &a, sizeof(a), NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  CHECK(g_args_ptr == buf); /* the program's address, whatever the device code used */
  int32_t v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, 4, buf, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(v, 9);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception_ptr), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(buf), ACL_SUCCESS);
  rt_down();
}

static void *submit_from_thread(void *arg) {
  aclrtContext *ctx = arg;
  aclrtSetCurrentContext(*ctx);
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  struct rx_fail_args a = {0, 7};
  aclrtStream s;
  aclrtCreateStream(&s);
  rx_launch(bad, 1, &a, sizeof(a), s);
  aclrtSynchronizeStream(s);
  aclrtDestroyStream(s);
  return (void *)(uintptr_t)rx_gettid();
}

TEST(thread_id_is_the_submitting_threads) {
  up_ex();
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  aclrtContext ctx;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  pthread_t t;
  void *ret = NULL;
  CHECK_INT_EQ(pthread_create(&t, NULL, submit_from_thread, &ctx), 0);
  pthread_join(t, &ret);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  CHECK_INT_EQ(g_seen.tid, (uint32_t)(uintptr_t)ret);
  CHECK(g_seen.tid != rx_gettid());
  CHECK_INT_EQ(g_seen.code, ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  rt_down();
}

TEST(registration_rules) {
  up_ex();
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  /* the same pointer registered twice is kept once */
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  /* Set keeps one more slot: a pointer in both is called twice */
  CHECK_INT_EQ(aclrtSetExceptionInfoCallback(on_exception), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 3);
  /* last Set wins; NULL clears the slot; Register'ed ones stay */
  CHECK_INT_EQ(aclrtSetExceptionInfoCallback(on_exception_b), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 4);
  CHECK_INT_EQ(atomic_load(&g_seen.calls_b), 1);
  CHECK_INT_EQ(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 5);
  CHECK_INT_EQ(atomic_load(&g_seen.calls_b), 1);
  /* errors */
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception_b), ACL_SUCCESS); /* unknown: fine */
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 5);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(registrations_survive_finalize) {
  up_ex();
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  rt_down();
  up_ex();
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  fail_on(bad, NULL);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  rt_down();
}

TEST(callback_must_not_synchronise) {
  up_ex();
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  g_sync_target = s;
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception), ACL_SUCCESS);
  fail_on(bad, s);
  CHECK_INT_EQ(g_seen.sync_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception), ACL_SUCCESS);
  g_sync_target = NULL;
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(readers_refuse_null_and_non_kernel_tasks) {
  up_ex();
  CHECK_INT_EQ(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
  CHECK_INT_EQ(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
  CHECK_INT_EQ(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
  CHECK_INT_EQ(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
  CHECK_INT_EQ(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);
  void *p = NULL;
  uint32_t n = 0;
  aclrtFuncHandle fh = NULL;
  CHECK_INT_EQ(aclrtGetArgsFromExceptionInfo(NULL, &p, &n), (aclError)0xFFFFFFFF);
  CHECK_INT_EQ(aclrtGetFuncHandleFromExceptionInfo(NULL, &fh), (aclError)0xFFFFFFFF);
  int fake = 0;
  CHECK_INT_EQ(aclrtGetTaskIdFromExceptionInfo((const aclrtExceptionInfo *)&fake), 0xFFFFFFFFu);
  CHECK_INT_EQ(aclrtGetArgsFromExceptionInfo((const aclrtExceptionInfo *)&fake, &p, &n), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtGetArgsFromExceptionInfo((const aclrtExceptionInfo *)&fake, NULL, &n), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetFuncHandleFromExceptionInfo((const aclrtExceptionInfo *)&fake, NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
}

/* ---- fault details (aclrtGetErrorVerbose / aclrtRepairError) ------------------------- */

TEST(error_verbose_reports_the_latest_fault) {
  up_ex();
  aclrtErrorInfo e;
  memset(&e, 0x5a, sizeof(e));
  CHECK_INT_EQ(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
  CHECK_INT_EQ(e.errorType, ACL_RT_NO_ERROR);
  CHECK_INT_EQ(e.tryRepair, 0);
  CHECK_INT_EQ(e.hasDetail, 0);
  CHECK_INT_EQ(aclrtRepairError(0, &e), ACL_SUCCESS); /* nothing to repair */
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  fail_on(bad, NULL);
  CHECK_INT_EQ(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
  printf("Verbose error info: errorType=%d, tryRepair=%u, hasDetail=%u\n", (int)e.errorType, e.tryRepair,
         e.hasDetail);
  CHECK_INT_EQ(e.errorType, ACL_RT_ERROR_AICORE);
  CHECK_INT_EQ(e.hasDetail, 1);
  CHECK_INT_EQ(e.detail.aicoreErrType, ACL_RT_AICORE_ERROR_SW);
  CHECK_INT_EQ(e.tryRepair, 0);
  CHECK_INT_EQ(aclrtRepairError(0, &e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtRepairError failed");
  CHECK_INT_EQ(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetErrorVerbose(3, &e), ACL_ERROR_RT_INVALID_DEVICEID);
  /* the record goes with the device */
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
  CHECK_INT_EQ(e.errorType, ACL_RT_NO_ERROR);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- the vendor's 2_callback_exception sample -------------------------------------------- */

static atomic_int g_stop;
static atomic_int g_after_error_ran;

static void *report_loop(void *arg) {
  (void)arg;
  while (!atomic_load(&g_stop))
    (void)aclrtProcessReport(100);
  printf("Thread exit\n");
  return NULL;
}

static void sample_exception_cb(aclrtExceptionInfo *info) {
  printf("Exception occurred, callback function.\n");
  printf("The error task id is %u\n", aclrtGetTaskIdFromExceptionInfo(info));
  printf("The error stream id is %u\n", aclrtGetStreamIdFromExceptionInfo(info));
  printf("The error thread id is %u\n", aclrtGetThreadIdFromExceptionInfo(info));
  printf("The error device id is %u\n", aclrtGetDeviceIdFromExceptionInfo(info));
  printf("The error code id is %u\n", aclrtGetErrorCodeFromExceptionInfo(info));
  fflush(stdout);
  g_seen.task = aclrtGetTaskIdFromExceptionInfo(info);
  atomic_fetch_add(&g_seen.calls, 1);
}

static void after_error(void *arg) {
  (void)arg;
  printf("After error still callback\n");
  atomic_store(&g_after_error_ran, 1);
}

TEST(sample_callback_exception) {
  up_ex();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, report_loop, NULL), 0);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetExceptionInfoCallback(sample_exception_cb), ACL_SUCCESS);
  aclrtFuncHandle easy = rx_func("rx_double", NULL), bad = rx_func("rx_fail", NULL);
  printf("Begin an easy task and an error task...\n");
  void *buf = NULL;
  CHECK_INT_EQ(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  struct rx_double_args d = {buf, buf, 4};
  CHECK_INT_EQ(rx_launch(easy, 1, &d, sizeof(d), s), ACL_SUCCESS);
  struct rx_fail_args a = {0, 1};
  CHECK_INT_EQ(rx_launch(bad, 1, &a, sizeof(a), s), ACL_SUCCESS);
  uint32_t last = 2; /* aclrtGetThreadLastTaskId: the error kernel, the stream's second task */
  printf("The last task id is: %u\n", last);
  CHECK_INT_EQ(aclrtLaunchCallback(after_error, NULL, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
  int rc = aclrtSynchronizeStream(s);
  printf("[ERROR] aclrtSynchronizeStream(stream_) returned error code %d\n", rc);
  CHECK_INT_NE(rc, ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 1);
  CHECK_INT_EQ(g_seen.task, last);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)t, s), ACL_SUCCESS);
  atomic_store(&g_stop, 1);
  pthread_join(t, NULL);
  CHECK_INT_EQ(atomic_load(&g_after_error_ran), 0); /* stop on failure: never runs */
  aclrtErrorInfo e;
  memset(&e, 0, sizeof(e));
  CHECK_INT_EQ(aclrtGetErrorVerbose(0, &e), ACL_SUCCESS);
  printf("Verbose error info: errorType=%d, tryRepair=%u, hasDetail=%u\n", (int)e.errorType, e.tryRepair,
         e.hasDetail);
  CHECK_INT_EQ(aclrtSetExceptionInfoCallback(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  rt_down();
  printf("Run the callback_exception sample successfully.\n");
}

/* ---- threads ------------------------------------------------------------------------------- */

static void *register_loop(void *arg) {
  (void)arg;
  for (int i = 0; i < 500; i++) {
    aclrtExceptionInfoCallbackRegister(on_exception_b);
    aclrtExceptionInfoCallbackUnregister(on_exception_b);
  }
  return NULL;
}

TEST(callbacks_registered_while_tasks_fail) {
  up_ex();
  aclrtFuncHandle bad = rx_func("rx_fail", NULL);
  CHECK_INT_EQ(aclrtExceptionInfoCallbackRegister(on_exception_count), ACL_SUCCESS);
  aclrtStream s[2];
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(aclrtCreateStream(&s[i]), ACL_SUCCESS);
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, register_loop, NULL), 0);
  struct rx_fail_args a = {0, 3};
  for (int i = 0; i < 40; i++)
    CHECK_INT_EQ(rx_launch(bad, 1, &a, sizeof(a), s[i & 1]), ACL_SUCCESS);
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(aclrtSynchronizeStream(s[i]), ACL_ERROR_RT_AICORE_EXCEPTION);
  pthread_join(t, NULL);
  CHECK_INT_EQ(atomic_load(&g_seen.calls), 40); /* continue on failure: every failing task */
  CHECK_INT_EQ(aclrtExceptionInfoCallbackUnregister(on_exception_count), ACL_SUCCESS);
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(aclrtDestroyStream(s[i]), ACL_SUCCESS);
  rt_down();
}
