/*
 * rt_stream_ctl.c - controlling streams (rt-breadth §1): stop, abort, destroy
 * by force, device task abort, attributes, ids, configuration handles, the
 * stream budget, the last task id, state callbacks, and the model-stream
 * control calls.  Black-box: public API only.
 */
#include "rt_common.h"

#ifndef OPENACL_TEST_KERNELS
#error "OPENACL_TEST_KERNELS must name the test kernel binary"
#endif

static void count_fn(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }
static void set_fn(void *arg) { atomic_store((atomic_int *)arg, 1); }

static int32_t stream_id(aclrtStream s) {
  int32_t id = -1;
  CHECK_INT_EQ(aclrtStreamGetId(s, &id), ACL_SUCCESS);
  return id;
}

static uint32_t streams_available(void) {
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetStreamAvailableNum(&n), ACL_SUCCESS);
  return n;
}

/* Waits up to ms for *flag >= want. */
static int wait_flag(atomic_int *flag, int want, int ms) {
  uint64_t end = th_now_ns() + (uint64_t)ms * 1000000u;
  while (atomic_load(flag) < want) {
    if (th_now_ns() > end)
      return 0;
    rt_sleep_ms(1);
  }
  return 1;
}

/* ---- ids, budget, configuration ------------------------------------------------- */

TEST(stream_ids_start_at_one_on_a_fresh_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  CHECK_INT_EQ(stream_id(NULL), 0); /* the default stream */
  aclrtStream a, b;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(stream_id(a), 1); /* the vendor's sample 3_stream_config_query expects 1 */
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  CHECK_INT_EQ(stream_id(b), 2);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(stream_id(a), 1); /* ids come back */
  /* device 1 numbers its own streams */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream c;
  CHECK_INT_EQ(aclrtCreateStream(&c), ACL_SUCCESS);
  CHECK_INT_EQ(stream_id(c), 1);
  CHECK_INT_EQ(aclrtDestroyStream(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  rt_down();
}

TEST(stream_available_num_counts_the_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  CHECK_INT_EQ(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM);
  uint32_t before = streams_available();
  CHECK(before > 1000);
  aclrtStream s[10];
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(aclrtCreateStream(&s[i]), ACL_SUCCESS);
  CHECK_INT_EQ(streams_available(), before - 10);
  /* another device has its own budget */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(streams_available(), before);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(aclrtDestroyStream(s[i]), ACL_SUCCESS);
  CHECK_INT_EQ(streams_available(), before);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  rt_down();
}

/* The vendor's sample 1_basic_features/stream/3_stream_config_query. */
TEST(stream_config_query_sample) {
  rt_up();
  aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
  CHECK_NOT_NULL(h);
  uint32_t flag4 = 0, prio = 0;
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag4, sizeof(flag4)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)), ACL_SUCCESS);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS); /* may go right after */
  CHECK_INT_EQ(stream_id(s), 1);
  uint32_t f = 99, p = 99;
  CHECK_INT_EQ(aclrtStreamGetFlags(s, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, 0);
  CHECK_INT_EQ(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
  CHECK_INT_EQ(p, 0);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  rt_down();
}

TEST(stream_config_options) {
  rt_up();
  aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
  CHECK_NOT_NULL(h);
  size_t flag8 = ACL_STREAM_FAST_LAUNCH;
  uint32_t flag4 = ACL_STREAM_FAST_SYNC, prio = 5, bad_prio = 8;
  uint16_t two = 0;
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag8, sizeof(flag8)), ACL_SUCCESS);
  CHECK_INT_EQ(h->flag, ACL_STREAM_FAST_LAUNCH);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag4, sizeof(flag4)), ACL_SUCCESS);
  CHECK_INT_EQ(h->flag, ACL_STREAM_FAST_SYNC);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &two, sizeof(two)), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetStreamConfigOpt failed");
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &bad_prio, sizeof(bad_prio)),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &flag8, sizeof(flag8)), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &prio, sizeof(prio)), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, 4), ACL_ERROR_INVALID_PARAM);
  /* work memory: the address of the pointer, then the size */
  void *work = NULL;
  CHECK_INT_EQ(aclrtMalloc(&work, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t work_size = 1 << 20;
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof(work)), ACL_SUCCESS);
  CHECK(h->workptr == work);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &work_size, sizeof(work_size)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &prio, sizeof(prio)), ACL_ERROR_INVALID_PARAM);
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
  uint32_t f = 0, p = 0;
  CHECK_INT_EQ(aclrtStreamGetFlags(s, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, ACL_STREAM_FAST_SYNC);
  CHECK_INT_EQ(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
  CHECK_INT_EQ(p, 5);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  /* work memory that is not device memory, or larger than the allocation */
  int host = 0;
  void *hp = &host;
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &hp, sizeof(hp)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, h), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtCreateStreamV2 failed");
  work_size = (1 << 20) + 4096;
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &work, sizeof(work)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &work_size, sizeof(work_size)), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, h), ACL_ERROR_INVALID_PARAM);
  /* a NULL handle means the defaults; a handle the program declared works too */
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  aclrtStreamConfigHandle mine = {NULL, 0, 0, 7};
  CHECK_INT_EQ(aclrtCreateStreamV2(&s, &mine), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
  CHECK_INT_EQ(p, 7);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamV2(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStreamConfigHandle(&mine), ACL_ERROR_INVALID_PARAM); /* not made by Create */
  CHECK_INT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamConfigHandle(h), ACL_ERROR_INVALID_PARAM); /* twice */
  CHECK_INT_EQ(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtFree(work), ACL_SUCCESS);
  rt_down();
}

/* ---- stop ------------------------------------------------------------------------ */

TEST(stop_keeps_the_queue_and_synchronize_reports_507000) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {0, 0};
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  for (int i = 0; i < 100; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000));
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtStreamStop(s), ACL_SUCCESS);
  CHECK(th_now_ns() - t0 < 100000000u); /* returns at once */
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_INTERNAL_ERROR);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtStreamStop");
  CHECK_INT_EQ(atomic_load(&ran), 0); /* the queue stays and does not run */
  aclrtStreamStatus st;
  CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
  /* work queued after the stop waits too */
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_INTERNAL_ERROR);
  CHECK_INT_EQ(atomic_load(&ran), 0);
  /* the abort discards it all; the stream works again */
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS); /* reported once */
  CHECK_INT_EQ(atomic_load(&ran), 0);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 1);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(stop_arguments) {
  rt_up();
  CHECK_INT_EQ(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID); /* not the default stream */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtStreamStop failed");
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamStop(s), ACL_SUCCESS); /* idle: nothing to wait for */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamStop(s), ACL_SUCCESS); /* twice */
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS); /* a stopped stream goes without waiting */
  CHECK_INT_EQ(aclrtStreamStop(s), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

static aclrtFuncHandle slow_kernel(aclrtBinHandle *bin) {
  CHECK_INT_EQ(aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, NULL, bin), ACL_SUCCESS);
  aclrtFuncHandle f = NULL;
  CHECK_INT_EQ(aclrtBinaryGetFunction(*bin, "tk_slow", &f), ACL_SUCCESS);
  return f;
}

/* Launches tk_slow: `blocks` blocks of `ms` each, counting into *counter (device memory). */
static void launch_slow(aclrtFuncHandle f, aclrtStream s, uint32_t *counter, uint32_t ms, uint32_t blocks) {
  aclrtArgsHandle a = NULL;
  aclrtParamHandle ph;
  CHECK_INT_EQ(aclrtKernelArgsInit(f, &a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &counter, sizeof(counter), &ph), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsAppend(a, &ms, sizeof(ms), &ph), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtKernelArgsFinalize(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchKernelWithConfig(f, blocks, s, NULL, a, NULL), ACL_SUCCESS);
}

static uint32_t read_counter(uint32_t *counter) {
  uint32_t v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, sizeof(v), counter, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

/* The vendor's sample 1_stream_with_failure_mode: a long kernel on an
 * ACL_STREAM_DEVICE_USE_ONLY stream, stopped while it runs. */
TEST(stop_cuts_a_running_kernel_at_a_block) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtBinHandle bin;
  aclrtFuncHandle f = slow_kernel(&bin);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
  uint32_t *counter = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&counter, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(counter, 64, 0, 64), ACL_SUCCESS);
  atomic_int started = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, set_fn, &started), ACL_SUCCESS); /* just before the kernel */
  launch_slow(f, s, counter, 2, 2000); /* 2000 blocks of 2 ms: seconds of work */
  CHECK(wait_flag(&started, 1, 5000));
  rt_sleep_ms(50); /* the kernel runs */
  CHECK_INT_EQ(aclrtStreamStop(s), ACL_SUCCESS);
  printf("aclrtStreamStop returned 0.\n");
  uint64_t t0 = th_now_ns();
  int rc = aclrtSynchronizeStream(s);
  printf("aclrtSynchronizeStream(after stop) returned %d.\n", rc);
  CHECK_INT_EQ(rc, ACL_ERROR_RT_INTERNAL_ERROR);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtStreamStop");
  CHECK(th_now_ns() - t0 < 1000000000ull); /* the kernel stopped well before its end */
  uint32_t done = read_counter(counter);   /* read after the kernel ended */
  printf("%u of 2000 blocks ran\n", done);
  CHECK(done < 2000);
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  rt_down();
}

/* ---- abort ----------------------------------------------------------------------- */

TEST(abort_discards_ten_thousand_queued_tasks_at_once) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {0, 0};
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  for (int i = 0; i < 10000; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000));
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  uint64_t took = th_now_ns() - t0;
  printf("aclrtStreamAbort with 10,000 queued tasks returned in %.1f us\n", (double)took / 1e3);
  CHECK(took < 50000000u);
  atomic_store(&g.open, 1);
  int rc = aclrtSynchronizeStream(s);
  printf("aclrtSynchronizeStream(after abort) returned %d.\n", rc);
  CHECK_INT_EQ(rc, ACL_ERROR_RT_STREAM_ABORT);
  CHECK_INT_EQ(atomic_load(&ran), 0);
  /* new work runs */
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 1);
  /* an abort with nothing pending reports nothing */
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamAbort(NULL), ACL_SUCCESS); /* NULL: the default stream */
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  rt_down();
}

typedef struct sync_job {
  aclrtContext ctx;
  aclrtStream s;
  atomic_int started;
  int rc;
} sync_job;

static void *sync_thread(void *arg) {
  sync_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  atomic_store(&j->started, 1);
  j->rc = aclrtSynchronizeStream(j->s);
  return NULL;
}

TEST(abort_ends_a_synchronisation_in_progress) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s, other;
  aclrtEvent e;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  /* s waits for an event recorded behind a closed gate on another stream */
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(other, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s, e), ACL_SUCCESS);
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  sync_job j = {NULL, s, 0, -1};
  CHECK_INT_EQ(aclrtGetCurrentContext(&j.ctx), ACL_SUCCESS);
  pthread_t t;
  pthread_create(&t, NULL, sync_thread, &j);
  CHECK(wait_flag(&j.started, 1, 5000));
  rt_sleep_ms(20);
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  pthread_join(t, NULL);
  CHECK_INT_EQ(j.rc, ACL_ERROR_RT_STREAM_ABORT);
  CHECK_INT_EQ(atomic_load(&ran), 0);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 0);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  rt_down();
}

TEST(abort_cuts_a_running_kernel) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtBinHandle bin;
  aclrtFuncHandle f = slow_kernel(&bin);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint32_t *counter = NULL;
  CHECK_INT_EQ(aclrtMalloc((void **)&counter, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(counter, 64, 0, 64), ACL_SUCCESS);
  atomic_int started = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, set_fn, &started), ACL_SUCCESS);
  launch_slow(f, s, counter, 2, 2000);
  launch_slow(f, s, counter, 2, 2000);
  CHECK(wait_flag(&started, 1, 5000));
  rt_sleep_ms(50);
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
  uint32_t done = read_counter(counter);
  CHECK(done < 2000); /* the first launch was cut, the second never started */
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(counter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS);
  rt_down();
}

/* ---- destroy by force ------------------------------------------------------------- */

TEST(destroy_force_runs_the_head_task_on_an_idle_device) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  /* a task queued on an idle device is one the card would be running: it
   * completes although the destroy returns at once */
  for (int i = 0; i < 200; i++) {
    aclrtStream s;
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    atomic_int flag = 0;
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, set_fn, &flag), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE); /* invalid at once */
    CHECK(wait_flag(&flag, 1, 5000));
  }
  rt_down();
}

TEST(destroy_force_returns_without_waiting_and_drops_the_queue) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  uint32_t before = streams_available();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {0, 0};
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  for (int i = 0; i < 1000; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &ran), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000));
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  CHECK(th_now_ns() - t0 < 50000000u); /* the gate is still closed */
  CHECK_INT_EQ(aclrtStreamQuery(s, &(aclrtStreamStatus){0}), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(streams_available(), before - 1); /* held while its task runs */
  atomic_store(&g.open, 1);
  /* released when the running task ends; the queue never ran */
  uint64_t end = th_now_ns() + 5000000000ull;
  while (streams_available() != before && th_now_ns() < end)
    rt_sleep_ms(1);
  CHECK_INT_EQ(streams_available(), before);
  CHECK_INT_EQ(atomic_load(&ran), 0);
  /* its id is free again */
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(stream_id(s), 1);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(destroy_force_drops_a_task_a_busy_device_has_not_started) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream busy[2], s;
  rt_gate g = {0, 0};
  for (int i = 0; i < 2; i++) {
    CHECK_INT_EQ(aclrtCreateStream(&busy[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtLaunchHostFunc(busy[i], rt_gate_wait, &g), ACL_SUCCESS);
  }
  CHECK(wait_flag(&g.entered, 2, 30000)); /* both executors are taken */
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  atomic_int flag = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, set_fn, &flag), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  atomic_store(&g.open, 1);
  for (int i = 0; i < 2; i++) {
    CHECK_INT_EQ(aclrtSynchronizeStream(busy[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStream(busy[i]), ACL_SUCCESS);
  }
  rt_sleep_ms(20);
  CHECK_INT_EQ(atomic_load(&flag), 0);
  rt_down();
}

static void *open_later(void *arg) {
  rt_sleep_ms(50);
  atomic_store(&((rt_gate *)arg)->open, 1);
  return NULL;
}

/* The context ends (device reset) while a stream destroyed by force still
 * runs its task: the reset waits for it, then frees the stream. */
TEST(destroy_force_then_reset_with_the_task_still_running) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {0, 0};
  atomic_int after = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &after), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000));
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  pthread_t opener;
  pthread_create(&opener, NULL, open_later, &g);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK(th_now_ns() - t0 >= 20000000u); /* it waited for the running task */
  pthread_join(opener, NULL);
  CHECK_INT_EQ(atomic_load(&after), 0);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- attributes --------------------------------------------------------------------- */

TEST(stream_attributes) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 2, 0), ACL_SUCCESS);
  aclrtStreamAttrValue v;
  memset(&v, 0xff, sizeof(v));
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v.streamPriority, 2);
  CHECK_INT_EQ(v.reserve[1], 0); /* the rest is cleared */
  v.streamPriority = 6;
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
  uint32_t p = 0;
  CHECK_INT_EQ(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
  CHECK_INT_EQ(p, 6);
  v.streamPriority = 8;
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID);

  memset(&v, 0, sizeof(v));
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v.failureMode, ACL_CONTINUE_ON_FAILURE);
  v.failureMode = ACL_STOP_ON_FAILURE;
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v.failureMode, ACL_STOP_ON_FAILURE);
  v.failureMode = 2;
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_PARAM_INVALID);
  v.failureMode = ACL_STOP_ON_FAILURE;
  CHECK_INT_EQ(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_INVALID_PARAM);

  uint32_t sw[] = {ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, ACL_STREAM_ATTR_CACHE_OP_INFO};
  for (int i = 0; i < 2; i++) {
    memset(&v, 0, sizeof(v));
    v.reserve[0] = 1;
    CHECK_INT_EQ(aclrtSetStreamAttribute(s, (aclrtStreamAttr)sw[i], &v), ACL_SUCCESS);
    memset(&v, 0, sizeof(v));
    CHECK_INT_EQ(aclrtGetStreamAttribute(s, (aclrtStreamAttr)sw[i], &v), ACL_SUCCESS);
    CHECK_INT_EQ(v.reserve[0], 1);
    v.reserve[0] = 2;
    CHECK_INT_EQ(aclrtSetStreamAttribute(s, (aclrtStreamAttr)sw[i], &v), ACL_ERROR_RT_PARAM_INVALID);
  }
  uint32_t on = 0;
  CHECK_INT_EQ(aclrtGetStreamOverflowSwitch(s, &on), ACL_SUCCESS); /* one switch, two ways to set it */
  CHECK_INT_EQ(on, 1);
  v.userCustomTag = 0xdeadbeef;
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
  memset(&v, 0, sizeof(v));
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v.userCustomTag, 0xdeadbeef);

  CHECK_INT_EQ(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, (aclrtStreamAttr)6, &v), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS); /* the default stream */
  CHECK_INT_EQ(v.streamPriority, 0);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

static void note_order(void *arg) { rt_note_fn(arg); }

/* Raising a queued stream's priority moves it ahead of the others. */
TEST(priority_attribute_reorders_waiting_streams) {
  setenv("OPENACL_EXECUTOR_THREADS", "1", 1);
  rt_up();
  aclrtStream low, mid, gate_s;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&gate_s, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&mid, 3, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&low, 7, 0), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(gate_s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000)); /* the only executor is held */
  rt_log log = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};
  rt_note n_mid = {&log, 3}, n_low = {&log, 7};
  CHECK_INT_EQ(aclrtLaunchHostFunc(low, note_order, &n_low), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(mid, note_order, &n_mid), ACL_SUCCESS);
  aclrtStreamAttrValue v = {.streamPriority = 1};
  CHECK_INT_EQ(aclrtSetStreamAttribute(low, ACL_STREAM_ATTR_PRIORITY, &v), ACL_SUCCESS);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  CHECK_INT_EQ(log.n, 2);
  CHECK_INT_EQ(log.v[0], 7); /* the former low one ran first */
  CHECK_INT_EQ(log.v[1], 3);
  CHECK_INT_EQ(aclrtDestroyStream(low), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(mid), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(gate_s), ACL_SUCCESS);
  rt_down();
}

/* ---- the last task id --------------------------------------------------------------- */

static void *last_task_other_thread(void *arg) {
  uint32_t *out = arg;
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(out), ACL_SUCCESS);
  return NULL;
}

TEST(thread_last_task_id) {
  rt_up();
  uint32_t id = 99;
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(&id), ACL_SUCCESS);
  CHECK_INT_EQ(id, 0);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  atomic_int n = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &n), ACL_SUCCESS);
  uint32_t a = 0, b = 0;
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(&b), ACL_SUCCESS);
  CHECK_INT_EQ(b, a + 1);
  /* the default stream is not a stream the thread created */
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_fn, &n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(&id), ACL_SUCCESS);
  CHECK_INT_EQ(id, b);
  /* per thread */
  uint32_t other = 99;
  pthread_t t;
  pthread_create(&t, NULL, last_task_other_thread, &other);
  pthread_join(t, NULL);
  CHECK_INT_EQ(other, 0);
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
  CHECK_INT_EQ(aclrtGetThreadLastTaskId(&id), ACL_ERROR_UNINITIALIZE);
}

/* ---- state callbacks ------------------------------------------------------------------ */

typedef struct state_log {
  pthread_mutex_t lock;
  int n;
  aclrtStream stm[64];
  int state[64];
  int dev[64];
  void *args[64];
} state_log;

static void on_stream_state(aclrtStream stm, aclrtStreamState state, void *args) {
  state_log *l = args;
  pthread_mutex_lock(&l->lock);
  if (l->n < 64) {
    l->stm[l->n] = stm;
    l->state[l->n] = (int)state;
    l->args[l->n] = args;
    l->n++;
  }
  pthread_mutex_unlock(&l->lock);
}

static void on_device_state(int32_t deviceId, aclrtDeviceState state, void *args) {
  state_log *l = args;
  pthread_mutex_lock(&l->lock);
  if (l->n < 64) {
    l->dev[l->n] = deviceId;
    l->state[l->n] = (int)state;
    l->n++;
  }
  pthread_mutex_unlock(&l->lock);
}

TEST(stream_state_callbacks) {
  static state_log l = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}, {0}, {0}};
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRegStreamStateCallback("streams", on_stream_state, &l), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRegStreamStateCallback("streams", on_stream_state, &l), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtRegStreamStateCallback failed");
  CHECK_INT_EQ(aclrtRegStreamStateCallback(NULL, on_stream_state, &l), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtRegStreamStateCallback("", on_stream_state, &l), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtRegStreamStateCallback("unknown", NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream def = NULL;
  CHECK_INT_EQ(aclrtCtxGetCurrentDefaultStream(&def), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 1); /* the default stream of the device's context */
  CHECK(l.stm[0] == def);
  CHECK_INT_EQ(l.state[0], ACL_RT_STREAM_STATE_CREATE_POST);
  CHECK(l.args[0] == &l);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 2);
  CHECK(l.stm[1] == s);
  CHECK_INT_EQ(l.state[1], ACL_RT_STREAM_STATE_CREATE_POST);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 3);
  CHECK(l.stm[2] == s);
  CHECK_INT_EQ(l.state[2], ACL_RT_STREAM_STATE_DESTROY_PRE);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 4); /* the default stream goes with its context */
  CHECK(l.stm[3] == def);
  CHECK_INT_EQ(l.state[3], ACL_RT_STREAM_STATE_DESTROY_PRE);
  /* removed: no more calls */
  CHECK_INT_EQ(aclrtRegStreamStateCallback("streams", NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 4);
  rt_down();
}

TEST(device_state_callbacks) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  static state_log l = {PTHREAD_MUTEX_INITIALIZER, 0, {0}, {0}, {0}, {0}};
  /* registrations belong to the process: before aclInit is fine */
  CHECK_INT_EQ(aclrtRegDeviceStateCallback("devices", on_device_state, &l), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRegDeviceStateCallback("devices", on_device_state, &l), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtRegDeviceStateCallback(NULL, on_device_state, &l), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  int want_state[] = {ACL_RT_DEVICE_STATE_SET_PRE, ACL_RT_DEVICE_STATE_SET_POST, ACL_RT_DEVICE_STATE_SET_POST,
                      ACL_RT_DEVICE_STATE_RESET_PRE, ACL_RT_DEVICE_STATE_RESET_POST};
  CHECK_INT_EQ(l.n, 5);
  for (int i = 0; i < 5; i++) {
    CHECK_INT_EQ(l.state[i], want_state[i]);
    CHECK_INT_EQ(l.dev[i], 1);
  }
  CHECK_INT_EQ(aclrtRegDeviceStateCallback("devices", NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(l.n, 5);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- device task abort ---------------------------------------------------------------- */

typedef struct abort_log {
  atomic_int n;
  int stage[8];
  int dev[8];
  uint32_t timeout[8];
  int32_t fail_at; /* stage that returns nonzero, -1: none */
} abort_log;

static int32_t on_task_abort(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args) {
  abort_log *l = args;
  int i = atomic_fetch_add(&l->n, 1);
  if (i < 8) {
    l->stage[i] = (int)stage;
    l->dev[i] = deviceId;
    l->timeout[i] = timeout;
  }
  return (int32_t)stage == l->fail_at ? 4242 : 0;
}

TEST(device_task_abort) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  static abort_log l;
  l.fail_at = -1;
  CHECK_INT_EQ(aclrtSetDeviceTaskAbortCallback("abort", on_task_abort, &l), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceTaskAbort(0, 2160001), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDeviceTaskAbort(7, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  /* work on two streams of device 0, and on device 1 */
  aclrtStream a, b;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  rt_gate g = {0, 0};
  atomic_int ran = 0, ran1 = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, rt_gate_wait, &g), ACL_SUCCESS);
  for (int i = 0; i < 100; i++) {
    CHECK_INT_EQ(aclrtLaunchHostFunc(a, count_fn, &ran), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtLaunchHostFunc(b, count_fn, &ran), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  rt_gate g1 = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, rt_gate_wait, &g1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_fn, &ran1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK(wait_flag(&g.entered, 1, 30000));
  /* the abort waits for the task that runs: it opens later */
  pthread_t opener;
  pthread_create(&opener, NULL, open_later, &g);
  CHECK_INT_EQ(aclrtDeviceTaskAbort(0, 5000), ACL_SUCCESS);
  pthread_join(opener, NULL);
  CHECK_INT_EQ(atomic_load(&l.n), 2);
  CHECK_INT_EQ(l.stage[0], ACL_RT_DEVICE_TASK_ABORT_PRE);
  CHECK_INT_EQ(l.stage[1], ACL_RT_DEVICE_TASK_ABORT_POST);
  CHECK_INT_EQ(l.dev[0], 0);
  CHECK(l.timeout[0] > 0 && l.timeout[0] <= 5000);
  CHECK(l.timeout[1] <= l.timeout[0]);
  int rc_a = aclrtSynchronizeStream(a), rc_b = aclrtSynchronizeStream(b);
  CHECK_INT_EQ(rc_a, ACL_ERROR_RT_DEVICE_TASK_ABORT);
  CHECK(rc_b == ACL_SUCCESS || rc_b == ACL_ERROR_RT_DEVICE_TASK_ABORT); /* b may have drained already */
  CHECK(atomic_load(&ran) < 200);
  /* device 1 was not touched */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  atomic_store(&g1.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran1), 1);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  /* a PRE callback that says no stops the abort before anything is killed */
  l.fail_at = ACL_RT_DEVICE_TASK_ABORT_PRE;
  atomic_store(&l.n, 0);
  rt_gate h = {0, 0};
  atomic_int ran2 = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, rt_gate_wait, &h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, count_fn, &ran2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDeviceTaskAbort(0, 0), 4242);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "\"abort\"");
  CHECK_INT_EQ(atomic_load(&l.n), 1);
  atomic_store(&h.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran2), 1);
  /* a running task that outlasts the budget */
  l.fail_at = -1;
  rt_gate k = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, rt_gate_wait, &k), ACL_SUCCESS);
  CHECK(wait_flag(&k.entered, 1, 5000));
  CHECK_INT_EQ(aclrtDeviceTaskAbort(0, 30), ACL_ERROR_RT_WAIT_TIMEOUT);
  atomic_store(&k.open, 1);
  (void)aclrtSynchronizeStream(a);
  CHECK_INT_EQ(aclrtSetDeviceTaskAbortCallback("abort", NULL, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  rt_down();
}

/* ---- control flow of model runtime instances --------------------------------------------- */

TEST(model_stream_control_needs_bound_streams) {
  rt_up();
  aclrtStream s, t;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&t), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtActiveStream(NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtActiveStream(t, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtActiveStream(t, s), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtActiveStream failed");
  int32_t l = 1, r = 1;
  CHECK_INT_EQ(aclrtSwitchStream(&l, ACL_RT_EQUAL, &r, ACL_RT_SWITCH_INT32, t, NULL, s), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_INT_EQ(aclrtSwitchStream(NULL, ACL_RT_EQUAL, &r, ACL_RT_SWITCH_INT32, t, NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchStream(&l, ACL_RT_EQUAL, &r, ACL_RT_SWITCH_INT32, t, t, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchStream(&l, ACL_RT_EQUAL, &r, ACL_RT_SWITCH_INT32, NULL, NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSwitchStream(&l, (aclrtCondition)6, &r, ACL_RT_SWITCH_INT32, t, NULL, s),
               ACL_ERROR_INVALID_PARAM);
  aclrtTaskUpdateInfo info;
  memset(&info, 0, sizeof(info));
  CHECK_INT_EQ(aclrtTaskUpdateAsync(t, 1, NULL, s), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtTaskUpdateAsync(t, 1, &info, s), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(t), ACL_SUCCESS);
  rt_down();
}

/* ---- threads ------------------------------------------------------------------------------- */

typedef struct race_job {
  aclrtContext ctx;
  aclrtStream s;
  atomic_int *stop;
  atomic_int *ran;
} race_job;

static void *submit_loop(void *arg) {
  race_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  while (!atomic_load(j->stop))
    CHECK_INT_EQ(aclrtLaunchHostFunc(j->s, count_fn, j->ran), ACL_SUCCESS);
  return NULL;
}

static void *control_loop(void *arg) {
  race_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  for (int i = 0; i < 300; i++) {
    if (i % 3 == 0)
      CHECK_INT_EQ(aclrtStreamStop(j->s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtStreamAbort(j->s), ACL_SUCCESS);
    int rc = aclrtSynchronizeStreamWithTimeout(j->s, 1000);
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_STREAM_ABORT || rc == ACL_ERROR_RT_INTERNAL_ERROR ||
          rc == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  }
  atomic_store(j->stop, 1);
  return NULL;
}

/* Submitters race stops, aborts and synchronisations; afterwards the stream
 * works normally. */
TEST(stop_and_abort_race_submitters) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  atomic_int stop = 0, ran = 0;
  race_job j = {NULL, s, &stop, &ran};
  CHECK_INT_EQ(aclrtGetCurrentContext(&j.ctx), ACL_SUCCESS);
  pthread_t sub[3], ctl;
  for (int i = 0; i < 3; i++)
    pthread_create(&sub[i], NULL, submit_loop, &j);
  pthread_create(&ctl, NULL, control_loop, &j);
  pthread_join(ctl, NULL);
  for (int i = 0; i < 3; i++)
    pthread_join(sub[i], NULL);
  CHECK_INT_EQ(aclrtStreamAbort(s), ACL_SUCCESS);
  (void)aclrtSynchronizeStream(s);
  atomic_int after = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, &after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after), 1);
  printf("%d host functions ran between the aborts\n", atomic_load(&ran));
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

static void *destroy_force_loop(void *arg) {
  race_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  for (int i = 0; i < 500; i++) {
    aclrtStream s;
    CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    for (int k = 0; k < i % 5; k++)
      CHECK_INT_EQ(aclrtLaunchHostFunc(s, count_fn, j->ran), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  }
  return NULL;
}

/* Streams destroyed by force from several threads while their work runs:
 * nothing leaks (the budget comes back), nothing crashes. */
TEST(destroy_force_from_many_threads) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  uint32_t before = streams_available();
  atomic_int ran = 0;
  race_job j = {NULL, NULL, NULL, &ran};
  CHECK_INT_EQ(aclrtGetCurrentContext(&j.ctx), ACL_SUCCESS);
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, destroy_force_loop, &j);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  uint64_t end = th_now_ns() + 5000000000ull;
  while (streams_available() != before && th_now_ns() < end)
    rt_sleep_ms(1);
  CHECK_INT_EQ(streams_available(), before);
  rt_down();
}
