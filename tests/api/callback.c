/*
 * callback.c - host callbacks on streams through the public API:
 * aclrtSubscribeReport / aclrtProcessReport / aclrtUnSubscribeReport /
 * aclrtLaunchCallback (BLOCK and NO_BLOCK) and aclrtLaunchHostFunc: the
 * thread model, ordering, every error code, calls a callback must not make,
 * unsubscribe and destroy with callbacks pending, and a stress run.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

/* ---- helpers ----------------------------------------------------------- */

static aclrtContext g_ctx;

static void setup(void) {
  /* Enough executors that a host function holding one never starves the
   * streams a test expects to keep running. */
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetCurrentContext(&g_ctx), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Waits until *flag >= want, at most ms; returns 1 when reached. */
static int wait_for(atomic_int *flag, int want, int ms) {
  uint64_t end = th_now_ns() + (uint64_t)ms * 1000000u;
  while (atomic_load(flag) < want) {
    if (th_now_ns() > end)
      return 0;
    sleep_ms(1);
  }
  return 1;
}

static aclrtEventRecordedStatus event_status(aclrtEvent ev) {
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_INT_EQ(aclrtQueryEventStatus(ev, &st), ACL_SUCCESS);
  return st;
}

/* A report thread: loops on aclrtProcessReport until stopped or no longer
 * subscribed (aclrtProcessReport returns 107012 then).  Started
 * waiting on `go`, so that the test subscribes it before its first call. */
typedef struct worker {
  pthread_t tid;
  atomic_int go;
  atomic_int stop;
  atomic_int processed;  /* callbacks run */
  atomic_int bad_rc;     /* a code other than success or timeout */
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  aclrtSetCurrentContext(g_ctx);
  while (!atomic_load(&w->go))
    sleep_ms(1);
  while (!atomic_load(&w->stop)) {
    int rc = aclrtProcessReport(20);
    if (rc == ACL_SUCCESS)
      atomic_fetch_add(&w->processed, 1);
    else if (rc == ACL_ERROR_RT_THREAD_SUBSCRIBE)
      break; /* the last stream was unsubscribed: the loop is over */
    else if (rc != ACL_ERROR_RT_REPORT_TIMEOUT)
      atomic_store(&w->bad_rc, rc);
  }
  return NULL;
}

static void worker_start(worker *w) {
  memset(w, 0, sizeof(*w));
  CHECK_INT_EQ(pthread_create(&w->tid, NULL, worker_main, w), 0);
}

static void worker_stop(worker *w) {
  atomic_store(&w->go, 1);
  atomic_store(&w->stop, 1);
  pthread_join(w->tid, NULL);
}

/* ---- thread model --------------------------------------------------------- */

typedef struct seen {
  atomic_int calls;
  pthread_t thread;      /* written by the callback, read after synchronisation */
  void *user;
} seen;

static void record_cb(void *userData) {
  seen *s = userData;
  s->thread = pthread_self();
  s->user = userData;
  atomic_fetch_add(&s->calls, 1);
}

TEST(callback_runs_in_subscribed_thread_with_user_data) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  worker w;
  worker_start(&w);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  atomic_store(&w.go, 1);

  seen a = {0}, b = {0};
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &b, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  /* BLOCK: done once the stream is; NO_BLOCK may still be on its way. */
  CHECK_INT_EQ(atomic_load(&a.calls), 1);
  CHECK(wait_for(&b.calls, 1, 10000));
  CHECK(pthread_equal(a.thread, w.tid));
  CHECK(pthread_equal(b.thread, w.tid));
  CHECK(a.user == &a);
  CHECK(b.user == &b);

  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  worker_stop(&w);
  CHECK_INT_EQ(atomic_load(&w.bad_rc), 0);
  CHECK_INT_EQ(atomic_load(&w.processed), 2);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

TEST(calling_thread_can_be_its_own_report_thread_default_stream) {
  setup();
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  seen a = {0};
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&a.calls), 1);
  CHECK(pthread_equal(a.thread, pthread_self()));
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  /* One callback per call: nothing left now. */
  CHECK_INT_EQ(aclrtProcessReport(30), ACL_ERROR_RT_REPORT_TIMEOUT);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  teardown();
}

TEST(process_report_runs_one_callback_per_call) {
  setup();
  uint64_t self = (uint64_t)pthread_self();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  seen a = {0};
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS); /* all three posted */
  for (int i = 1; i <= 3; i++) {
    CHECK_INT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
    CHECK_INT_EQ(atomic_load(&a.calls), i);
  }
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

/* ---- ordering: BLOCK holds its stream, NO_BLOCK does not --------------------- */

typedef struct gate {
  atomic_int started;
  atomic_int open;
  atomic_int finished;
} gate;

static void gate_cb(void *userData) {
  gate *g = userData;
  atomic_fetch_add(&g->started, 1);
  while (!atomic_load(&g->open))
    sleep_ms(1);
  atomic_fetch_add(&g->finished, 1);
}

static void count_host_func(void *args) { atomic_fetch_add((atomic_int *)args, 1); }

TEST(block_callback_holds_later_tasks_of_its_stream_only) {
  setup();
  aclrtStream a = NULL, b = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  worker w;
  worker_start(&w);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, a), ACL_SUCCESS);
  atomic_store(&w.go, 1);

  gate g = {0};
  aclrtEvent before = NULL, after[3] = {NULL, NULL, NULL};
  CHECK_INT_EQ(aclrtCreateEvent(&before), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(before, a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(gate_cb, &g, ACL_CALLBACK_BLOCK, a), ACL_SUCCESS);
  CHECK(wait_for(&g.started, 1, 10000));
  /* The host keeps submitting to the held stream without waiting. */
  for (int i = 0; i < 3; i++) {
    CHECK_INT_EQ(aclrtCreateEvent(&after[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtRecordEvent(after[i], a), ACL_SUCCESS);
  }
  /* Another stream keeps running meanwhile. */
  atomic_int other = 0;
  for (int i = 0; i < 10; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(b, count_host_func, &other), ACL_SUCCESS);
  CHECK(wait_for(&other, 10, 10000));
  CHECK_INT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);

  sleep_ms(50);
  CHECK_INT_EQ(event_status(before), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(event_status(after[i]), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  CHECK_INT_EQ(atomic_load(&g.finished), 0);

  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g.finished), 1);
  for (int i = 0; i < 3; i++) {
    CHECK_INT_EQ(event_status(after[i]), ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK_INT_EQ(aclrtDestroyEvent(after[i]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtDestroyEvent(before), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w.tid, a), ACL_SUCCESS);
  worker_stop(&w);
  CHECK_INT_EQ(atomic_load(&w.bad_rc), 0);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  teardown();
}

TEST(no_block_callback_does_not_hold_its_stream) {
  setup();
  aclrtStream a = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  worker w;
  worker_start(&w);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, a), ACL_SUCCESS);
  atomic_store(&w.go, 1);

  gate g = {0};
  aclrtEvent after = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(gate_cb, &g, ACL_CALLBACK_NO_BLOCK, a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(after, a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(a, 10000), ACL_SUCCESS);
  CHECK_INT_EQ(event_status(after), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK(wait_for(&g.started, 1, 10000));
  CHECK_INT_EQ(atomic_load(&g.finished), 0); /* still inside the callback */
  atomic_store(&g.open, 1);
  CHECK(wait_for(&g.finished, 1, 10000));

  CHECK_INT_EQ(aclrtDestroyEvent(after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w.tid, a), ACL_SUCCESS);
  worker_stop(&w);
  CHECK_INT_EQ(atomic_load(&w.bad_rc), 0);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  teardown();
}

/* ---- error codes --------------------------------------------------------------- */

static void nop_cb(void *userData) { (void)userData; }

TEST(process_report_timeout_is_507012) {
  setup();
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtProcessReport(100), ACL_ERROR_RT_REPORT_TIMEOUT);
  CHECK(th_now_ns() - t0 >= 90u * 1000000u);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "ACL_ERROR_RT_REPORT_TIMEOUT (507012)");
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  teardown();
}

TEST(process_report_from_unsubscribed_thread_is_107012) {
  setup();
  CHECK_INT_EQ(aclrtProcessReport(100), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not subscribed");
  /* Also after the thread's last stream was unsubscribed. */
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(100), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  teardown();
}

TEST(launch_on_unsubscribed_stream_is_107015) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(nop_cb, NULL, ACL_CALLBACK_BLOCK, st), ACL_ERROR_RT_STREAM_NO_CB_REG);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSubscribeReport");
  CHECK_INT_EQ(aclrtLaunchCallback(nop_cb, NULL, ACL_CALLBACK_NO_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

TEST(subscription_errors) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  uint64_t other = self + 4096; /* never checked against a live thread */
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  /* the same stream again: to the same thread, to another */
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "already subscribed");
  CHECK_INT_EQ(aclrtSubscribeReport(other, st), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  /* one thread may serve several streams of a device */
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  /* unsubscribe with the wrong thread, then twice */
  CHECK_INT_EQ(aclrtUnSubscribeReport(other, st), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, st), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not subscribed");
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  /* a stream may be subscribed again after unsubscribing, to another thread */
  CHECK_INT_EQ(aclrtSubscribeReport(other, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(other, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

TEST(bad_arguments_are_100000) {
  setup();
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(nop_cb, NULL, (aclrtCallbackBlockType)2, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "blockType is 2");
  CHECK_INT_EQ(aclrtLaunchCallback(nop_cb, NULL, (aclrtCallbackBlockType)-1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "timeout is 0 ms");
  CHECK_INT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtProcessReport(INT32_MIN), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSubscribeReport(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtUnSubscribeReport(0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  /* a destroyed stream is an invalid handle */
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  CHECK_INT_NE(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_NE(aclrtLaunchCallback(nop_cb, NULL, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_NE(aclrtLaunchHostFunc(st, count_host_func, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  teardown();
}

TEST(no_current_context_is_107002) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)pthread_self(), NULL), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtLaunchCallback(nop_cb, NULL, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_host_func, NULL), ACL_ERROR_RT_CONTEXT_NULL);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(one_thread_serves_one_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setup();
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "one device");
  CHECK_INT_EQ(aclrtSubscribeReport(self + 4096, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self + 4096, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetCurrentContext(g_ctx), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  teardown();
}

TEST(at_most_1024_subscribed_threads) {
  setup();
  enum { N = 1025 };
  static aclrtStream st[N];
  uint64_t base = (uint64_t)pthread_self();
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtCreateStream(&st[i]), ACL_SUCCESS);
  for (int i = 0; i < 1024; i++)
    CHECK_INT_EQ(aclrtSubscribeReport(base + (uint64_t)i, st[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeReport(base + 1024, st[1024]), ACL_ERROR_RT_OVER_LIMIT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "1024");
  /* an already subscribed thread may take more streams */
  CHECK_INT_EQ(aclrtSubscribeReport(base, st[1024]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(base, st[1024]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeReport(base + 7, st[7]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeReport(base + 1024, st[1024]), ACL_SUCCESS);
  /* destroying subscribed streams unsubscribes them */
  for (int i = 0; i < N; i++)
    CHECK_INT_EQ(aclrtDestroyStream(st[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  teardown();
}

/* ---- unsubscribe and destroy with callbacks pending ------------------------------ */

TEST(unsubscribe_with_pending_callbacks_drops_them_without_hanging) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self(); /* subscribed, but never processes */
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  seen a = {0};
  aclrtEvent ev = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(st, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(event_status(ev), ACL_EVENT_RECORDED_STATUS_NOT_READY);

  CHECK_INT_EQ(aclrtUnSubscribeReport(self, st), ACL_SUCCESS);
  /* The BLOCK callback was released: the stream finishes and reports it once. */
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(st, 10000), ACL_ERROR_RT_STREAM_NO_CB_REG);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(event_status(ev), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK_INT_EQ(atomic_load(&a.calls), 0);
  CHECK_INT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  /* The stream is usable again. */
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&a.calls), 1);
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

typedef struct waiter {
  pthread_t tid;
  atomic_int go;
  atomic_int rc;
  atomic_int done;
} waiter;

static void *waiter_main(void *arg) {
  waiter *w = arg;
  aclrtSetCurrentContext(g_ctx);
  while (!atomic_load(&w->go))
    sleep_ms(1);
  atomic_store(&w->rc, aclrtProcessReport(-1));
  atomic_store(&w->done, 1);
  return NULL;
}

TEST(unsubscribe_wakes_a_thread_waiting_forever) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  waiter w;
  memset(&w, 0, sizeof(w));
  CHECK_INT_EQ(pthread_create(&w.tid, NULL, waiter_main, &w), 0);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  atomic_store(&w.go, 1);
  sleep_ms(50);
  CHECK_INT_EQ(atomic_load(&w.done), 0);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  CHECK(wait_for(&w.done, 1, 10000));
  CHECK_INT_EQ(atomic_load(&w.rc), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  pthread_join(w.tid, NULL);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

TEST(destroying_a_subscribed_stream_unsubscribes_it) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  waiter w;
  memset(&w, 0, sizeof(w));
  CHECK_INT_EQ(pthread_create(&w.tid, NULL, waiter_main, &w), 0);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  seen a = {0};
  /* A NO_BLOCK callback nobody processes yet: the destroy drops it. */
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  atomic_store(&w.go, 1);
  CHECK(wait_for(&w.done, 1, 10000));
  CHECK_INT_EQ(atomic_load(&w.rc), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(atomic_load(&a.calls), 0);
  pthread_join(w.tid, NULL);
  teardown();
}

TEST(reset_device_with_a_block_callback_pending_does_not_hang) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  seen a = {0};
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st), ACL_SUCCESS);
  sleep_ms(20);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&a.calls), 0);
  CHECK_INT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

/* ---- host functions ------------------------------------------------------------- */

typedef struct order {
  int seq[200];
  int n;                 /* written only by host functions, in stream order */
  pthread_t threads[200];
  atomic_int done;
} order;

typedef struct order_arg {
  order *o;
  int i;
} order_arg;

static void order_host_func(void *args) {
  order_arg *a = args;
  a->o->seq[a->o->n] = a->i;
  a->o->threads[a->o->n] = pthread_self();
  a->o->n++;
  atomic_fetch_add(&a->o->done, 1);
}

TEST(host_funcs_run_in_stream_order_on_a_runtime_thread) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  static order o;
  static order_arg args[200];
  for (int i = 0; i < 200; i++) {
    args[i].o = &o;
    args[i].i = i;
    CHECK_INT_EQ(aclrtLaunchHostFunc(st, order_host_func, &args[i]), ACL_SUCCESS);
  }
  /* Not synchronising first: the runtime's own threads run them. */
  CHECK(wait_for(&o.done, 200, 10000));
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(o.n, 200);
  for (int i = 0; i < 200; i++) {
    CHECK_INT_EQ(o.seq[i], i);
    CHECK(!pthread_equal(o.threads[i], pthread_self()));
  }
  /* The default stream too. */
  atomic_int n = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_host_func, &n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&n), 1);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

static void gate_host_func(void *args) { gate_cb(args); }

TEST(host_func_holds_later_tasks_of_its_stream) {
  setup();
  aclrtStream a = NULL, b = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  gate g = {0};
  aclrtEvent after = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, gate_host_func, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(after, a), ACL_SUCCESS);
  CHECK(wait_for(&g.started, 1, 10000));
  atomic_int other = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(b, count_host_func, &other), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&other), 1);
  sleep_ms(20);
  CHECK_INT_EQ(event_status(after), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(event_status(after), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK_INT_EQ(aclrtDestroyEvent(after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  teardown();
}

TEST(host_func_on_a_subscribed_stream_is_rejected) {
  setup();
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_host_func, NULL), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "must not be mixed");
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, NULL), ACL_SUCCESS);
  atomic_int n = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, count_host_func, &n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&n), 1);
  teardown();
}

/* ---- what a callback may and may not call ------------------------------------------ */

typedef struct inside {
  aclrtStream stream;
  aclrtEvent event;
  int sync_stream_rc, sync_stream_timeout_rc, sync_device_rc, sync_event_rc, destroy_rc, process_rc;
  int launch_rc, record_rc, malloc_rc, free_rc;
  char msg[2048];
  seen nested;
} inside;

static void forbidden_calls(inside *in) {
  in->sync_stream_rc = aclrtSynchronizeStream(in->stream);
  const char *m = aclGetRecentErrMsg();
  snprintf(in->msg, sizeof(in->msg), "%s", m ? m : "(none)");
  in->sync_stream_timeout_rc = aclrtSynchronizeStreamWithTimeout(in->stream, 1000);
  in->sync_device_rc = aclrtSynchronizeDevice();
  in->sync_event_rc = aclrtSynchronizeEvent(in->event);
  in->destroy_rc = aclrtDestroyStream(in->stream);
  in->process_rc = aclrtProcessReport(10);
}

static void forbidden_cb(void *userData) {
  inside *in = userData;
  aclrtSetCurrentContext(g_ctx);
  forbidden_calls(in);
  /* Calls that only queue work or take memory are fine. */
  in->launch_rc = aclrtLaunchCallback(record_cb, &in->nested, ACL_CALLBACK_NO_BLOCK, in->stream);
  in->record_rc = aclrtRecordEvent(in->event, in->stream);
  void *p = NULL;
  in->malloc_rc = aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
  in->free_rc = in->malloc_rc == ACL_SUCCESS ? aclrtFree(p) : -1;
}

static void check_forbidden(const inside *in, const char *where) {
  CHECK_INT_EQ(in->sync_stream_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(in->msg, "aclrtSynchronizeStream failed");
  CHECK_STR_HAS(in->msg, where);
  CHECK_STR_HAS(in->msg, "would wait for the callback itself");
  CHECK_INT_EQ(in->sync_stream_timeout_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(in->sync_device_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(in->sync_event_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(in->destroy_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(in->process_rc, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}

TEST(sync_inside_a_callback_is_an_error_not_a_hang) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  worker w;
  worker_start(&w);
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  atomic_store(&w.go, 1);
  static inside in;
  memset(&in, 0, sizeof(in));
  in.stream = st;
  CHECK_INT_EQ(aclrtCreateEvent(&in.event), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(in.event, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(forbidden_cb, &in, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  check_forbidden(&in, "inside a host callback (aclrtLaunchCallback)");
  CHECK_INT_EQ(in.launch_rc, ACL_SUCCESS);
  CHECK_INT_EQ(in.record_rc, ACL_SUCCESS);
  CHECK_INT_EQ(in.malloc_rc, ACL_SUCCESS);
  CHECK_INT_EQ(in.free_rc, ACL_SUCCESS);
  CHECK(wait_for(&in.nested.calls, 1, 10000)); /* the callback's own launch ran */
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w.tid, st), ACL_SUCCESS);
  worker_stop(&w);
  CHECK_INT_EQ(atomic_load(&w.bad_rc), 0);
  CHECK_INT_EQ(aclrtDestroyEvent(in.event), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

static void forbidden_host_func(void *args) {
  inside *in = args;
  aclrtSetCurrentContext(g_ctx);
  forbidden_calls(in);
  in->launch_rc = aclrtLaunchHostFunc(in->stream, count_host_func, &in->nested.calls);
}

TEST(sync_inside_a_host_func_is_an_error_not_a_hang) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  static inside in;
  memset(&in, 0, sizeof(in));
  in.stream = st;
  CHECK_INT_EQ(aclrtCreateEvent(&in.event), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(in.event, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(st, forbidden_host_func, &in), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  check_forbidden(&in, "inside a host function (aclrtLaunchHostFunc)");
  CHECK_INT_EQ(in.launch_rc, ACL_SUCCESS);
  /* Queued behind it on the same stream (after the synchronisation's target). */
  CHECK(wait_for(&in.nested.calls, 1, 10000));
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(in.event), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

static void unsubscribe_self_cb(void *userData) {
  aclrtStream st = userData;
  aclrtSetCurrentContext(g_ctx);
  /* Allowed: the callback's own subscription may end from inside it. */
  aclError rc = aclrtUnSubscribeReport((uint64_t)pthread_self(), st);
  if (rc != ACL_SUCCESS)
    abort();
}

TEST(callback_may_unsubscribe_its_own_stream) {
  setup();
  aclrtStream st = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&st), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(unsubscribe_self_cb, st, ACL_CALLBACK_BLOCK, st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(10000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtDestroyStream(st), ACL_SUCCESS);
  teardown();
}

/* ---- stress ------------------------------------------------------------------------ */

enum { S_STREAMS = 8, S_WORKERS = 3, S_PER_STREAM = 300 };

typedef struct s_stream {
  atomic_int next;     /* the sequence number the next callback must carry */
  atomic_int bad;      /* out-of-order arrivals */
  atomic_int count;
  int seq[S_PER_STREAM];
} s_stream;

typedef struct s_arg {
  s_stream *s;
  int seq;
} s_arg;

static void stress_cb(void *userData) {
  s_arg *a = userData;
  int expect = atomic_fetch_add(&a->s->next, 1);
  if (expect != a->seq)
    atomic_fetch_add(&a->s->bad, 1);
  atomic_fetch_add(&a->s->count, 1);
}

TEST(stress_many_streams_many_callbacks) {
  setup();
  static aclrtStream st[S_STREAMS];
  static aclrtStream hf_stream;
  static s_stream ss[S_STREAMS];
  static s_arg args[S_STREAMS][S_PER_STREAM];
  static worker w[S_WORKERS];
  memset(ss, 0, sizeof(ss));
  CHECK_INT_EQ(aclrtCreateStream(&hf_stream), ACL_SUCCESS);
  for (int i = 0; i < S_WORKERS; i++)
    worker_start(&w[i]);
  for (int i = 0; i < S_STREAMS; i++) {
    CHECK_INT_EQ(aclrtCreateStream(&st[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)w[i % S_WORKERS].tid, st[i]), ACL_SUCCESS);
  }
  for (int i = 0; i < S_WORKERS; i++)
    atomic_store(&w[i].go, 1);
  atomic_int hf = 0;
  for (int k = 0; k < S_PER_STREAM; k++) {
    for (int i = 0; i < S_STREAMS; i++) {
      args[i][k].s = &ss[i];
      args[i][k].seq = k;
      aclrtCallbackBlockType bt = (k + i) % 3 == 0 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK;
      CHECK_INT_EQ(aclrtLaunchCallback(stress_cb, &args[i][k], bt, st[i]), ACL_SUCCESS);
    }
    CHECK_INT_EQ(aclrtLaunchHostFunc(hf_stream, count_host_func, &hf), ACL_SUCCESS);
  }
  for (int i = 0; i < S_STREAMS; i++)
    CHECK_INT_EQ(aclrtSynchronizeStream(st[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(hf_stream), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&hf), S_PER_STREAM);
  for (int i = 0; i < S_STREAMS; i++) {
    CHECK(wait_for(&ss[i].count, S_PER_STREAM, 20000));
    CHECK_INT_EQ(atomic_load(&ss[i].bad), 0);
  }
  for (int i = 0; i < S_STREAMS; i++)
    CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)w[i % S_WORKERS].tid, st[i]), ACL_SUCCESS);
  int total = 0;
  for (int i = 0; i < S_WORKERS; i++) {
    worker_stop(&w[i]);
    total += atomic_load(&w[i].processed);
  }
  CHECK_INT_EQ(total, S_STREAMS * S_PER_STREAM);
  for (int i = 0; i < S_STREAMS; i++)
    CHECK_INT_EQ(aclrtDestroyStream(st[i]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(hf_stream), ACL_SUCCESS);
  teardown();
}

/* Subscribing, launching and unsubscribing from several threads at once. */
typedef struct churn_arg {
  int rounds;
  atomic_int failures;
} churn_arg;

static void *churn_main(void *arg) {
  churn_arg *c = arg;
  aclrtSetCurrentContext(g_ctx);
  aclrtStream st = NULL;
  if (aclrtCreateStream(&st) != ACL_SUCCESS) {
    atomic_fetch_add(&c->failures, 1);
    return NULL;
  }
  uint64_t self = (uint64_t)pthread_self();
  for (int r = 0; r < c->rounds; r++) {
    seen a = {0};
    if (aclrtSubscribeReport(self, st) != ACL_SUCCESS ||
        aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_BLOCK, st) != ACL_SUCCESS ||
        aclrtLaunchCallback(record_cb, &a, ACL_CALLBACK_NO_BLOCK, st) != ACL_SUCCESS ||
        aclrtProcessReport(10000) != ACL_SUCCESS || aclrtProcessReport(10000) != ACL_SUCCESS ||
        aclrtSynchronizeStream(st) != ACL_SUCCESS || atomic_load(&a.calls) != 2 ||
        aclrtUnSubscribeReport(self, st) != ACL_SUCCESS)
      atomic_fetch_add(&c->failures, 1);
  }
  aclrtDestroyStream(st);
  return NULL;
}

TEST(stress_subscribe_launch_unsubscribe_from_many_threads) {
  setup();
  enum { T = 6 };
  pthread_t th[T];
  churn_arg c = {.rounds = 100};
  for (int i = 0; i < T; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, churn_main, &c), 0);
  for (int i = 0; i < T; i++)
    pthread_join(th[i], NULL);
  CHECK_INT_EQ(atomic_load(&c.failures), 0);
  teardown();
}
