/*
 * rt_hostfunc.c - host-function threads (aclrtSubscribeHostFunc,
 * aclrtProcessHostFunc, aclrtUnSubscribeHostFunc; rt-breadth §4.1) through
 * the public API, and the vendor's 0_simple_callback sample, which
 * subscribes a report thread and a host-function thread to one stream.
 */
#include <string.h>

#include "rt_ext_common.h"

/* A processing thread: loops on aclrtProcessHostFunc (or ProcessReport)
 * until told to stop, counting what it ran. */
typedef struct proc {
  pthread_t thread;
  int report;          /* 1: aclrtProcessReport, 0: aclrtProcessHostFunc */
  atomic_int stop;
  atomic_int started;
  const char *exit_line;
} proc;

static void *proc_main(void *arg) {
  proc *p = arg;
  atomic_store(&p->started, 1);
  while (!atomic_load(&p->stop))
    (void)(p->report ? aclrtProcessReport(20) : aclrtProcessHostFunc(20));
  if (p->exit_line != NULL)
    printf("%s\n", p->exit_line);
  return NULL;
}

static void proc_start(proc *p, int report) {
  memset(p, 0, sizeof(*p));
  p->report = report;
  CHECK_INT_EQ(pthread_create(&p->thread, NULL, proc_main, p), 0);
}

static void proc_stop(proc *p) {
  atomic_store(&p->stop, 1);
  pthread_join(p->thread, NULL);
}

/* Records which thread ran it, in order. */
typedef struct ran {
  rt_log *log;
  int value;
  pthread_t by;
  atomic_int done;
} ran;

static void ran_fn(void *arg) {
  ran *r = arg;
  r->by = pthread_self();
  rt_note n = {r->log, r->value};
  rt_note_fn(&n);
  atomic_store(&r->done, 1);
}

static rt_log g_log = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};

TEST(host_functions_run_on_the_subscribed_thread_in_stream_order) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  proc p;
  proc_start(&p, 0);
  CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)p.thread, s), ACL_SUCCESS);
  ran r[3];
  for (int i = 0; i < 3; i++) {
    memset(&r[i], 0, sizeof(r[i]));
    r[i].log = &g_log;
    r[i].value = i + 1;
  }
  rt_note before = {&g_log, 10}, between = {&g_log, 20};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_note_fn, &before), ACL_SUCCESS); /* runs on its thread too */
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r[1]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_note_fn, &between), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r[2]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  for (int i = 0; i < 3; i++) {
    CHECK_INT_EQ(atomic_load(&r[i].done), 1);
    CHECK(pthread_equal(r[i].by, p.thread));
  }
  CHECK_INT_EQ(g_log.n, 5);
  int want[5] = {10, 1, 2, 20, 3};
  for (int i = 0; i < 5; i++)
    CHECK_INT_EQ(g_log.v[i], want[i]);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc((uint64_t)p.thread, s), ACL_SUCCESS);
  /* without a subscriber the runtime's own thread runs them */
  ran after;
  memset(&after, 0, sizeof(after));
  after.log = &g_log;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after.done), 1);
  CHECK(!pthread_equal(after.by, p.thread));
  proc_stop(&p);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(a_host_function_holds_its_stream_until_processed) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  pthread_t self = pthread_self();
  CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)self, s), ACL_SUCCESS); /* this thread processes */
  ran r;
  memset(&r, 0, sizeof(r));
  r.log = &g_log;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r), ACL_SUCCESS);
  rt_sleep_ms(50);
  aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
  CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_STREAM_STATUS_NOT_READY); /* waits for this thread */
  CHECK_INT_EQ(aclrtProcessHostFunc(1000), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&r.done), 1);
  CHECK(pthread_equal(r.by, self));
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc((uint64_t)self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(unsubscribe_hands_pending_host_functions_to_the_runtime) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  pthread_t self = pthread_self();
  CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)self, s), ACL_SUCCESS);
  ran r[2];
  memset(r, 0, sizeof(r));
  r[0].log = r[1].log = &g_log;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r[1]), ACL_SUCCESS);
  rt_sleep_ms(30);
  /* nobody processes them: unsubscribing lets the runtime run them, once each */
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc((uint64_t)self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  for (int i = 0; i < 2; i++) {
    CHECK_INT_EQ(atomic_load(&r[i].done), 1);
    CHECK(!pthread_equal(r[i].by, self));
  }
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(destroying_a_subscribed_stream_runs_what_is_pending) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  pthread_t self = pthread_self();
  CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)self, s), ACL_SUCCESS);
  ran r;
  memset(&r, 0, sizeof(r));
  r.log = &g_log;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, ran_fn, &r), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&r.done), 1);
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE); /* its only stream went */
  rt_down();
}

TEST(process_host_func_errors) {
  rt_up();
  aclrtStream s, s2;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSubscribeHostFunc");
  CHECK_INT_EQ(aclrtProcessHostFunc(0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtProcessHostFunc(-2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(0, s), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s2), ACL_SUCCESS); /* one thread, several streams */
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT);
  /* not a report thread: the two registrations are separate */
  CHECK_INT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT); /* still serves s2 */
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  rt_down();
}

TEST(a_host_function_thread_serves_one_device) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  uint64_t self = (uint64_t)pthread_self();
  aclrtStream s0, s1;
  CHECK_INT_EQ(aclrtCreateStream(&s0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s0), ACL_SUCCESS);
  aclrtContext c0;
  CHECK_INT_EQ(aclrtGetCurrentContext(&c0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  /* a stream of another context than the current one */
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s0), ACL_ERROR_RT_STREAM_CONTEXT);
  CHECK_INT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetCurrentContext(c0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, s0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s0), ACL_SUCCESS);
  rt_down();
}

static void nested_process(void *arg) { *(int *)arg = aclrtProcessHostFunc(10); }

TEST(no_nested_processing) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeHostFunc(self, s), ACL_SUCCESS);
  int inner = 0;
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, nested_process, &inner), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtProcessHostFunc(2000), ACL_SUCCESS);
  CHECK_INT_EQ(inner, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc(self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(report_subscription_without_a_host_function_thread_still_refuses) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  uint64_t self = (uint64_t)pthread_self();
  CHECK_INT_EQ(aclrtSubscribeReport(self, s), ACL_SUCCESS);
  rt_gate g = {1, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSubscribeHostFunc");
  CHECK_INT_EQ(aclrtUnSubscribeReport(self, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* ---- E/2_advanced_features/callback/0_simple_callback -------------------------------------- */

static int g_user_data = 520;
static atomic_int g_hostfunc_on_thread;
static pthread_t g_hf_thread;

static void callback_before(void *arg) {
  printf("This callback before task, result: user data is: %d.\n", *(int *)arg);
}

static void hostfunc(void *arg) {
  if (pthread_equal(pthread_self(), g_hf_thread)) {
    atomic_store(&g_hostfunc_on_thread, 1);
    printf("Hostfunc executed in subscribed thread, user data is: %d.\n", *(int *)arg);
  }
}

static atomic_int g_after_count;
static void callback_after(void *arg) {
  if (atomic_fetch_add(&g_after_count, 1) == 4)
    printf("This callback after task and loop five times, result: user data is: %d.\n", *(int *)arg);
}

TEST(sample_simple_callback) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  proc report, hf;
  proc_start(&report, 1);
  proc_start(&hf, 0);
  report.exit_line = "Report callback thread exit";
  hf.exit_line = "Hostfunc processing thread exit";
  g_hf_thread = hf.thread;
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)report.thread, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)hf.thread, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchCallback(callback_before, &g_user_data, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
  aclrtFuncHandle spin = rx_func("rx_spin", NULL);
  struct rx_spin_args a = {50}; /* the "long kernel" */
  CHECK_INT_EQ(rx_launch(spin, 1, &a, sizeof(a), s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, hostfunc, &g_user_data), ACL_SUCCESS);
  for (int i = 0; i < 5; i++)
    CHECK_INT_EQ(aclrtLaunchCallback(callback_after, &g_user_data, ACL_CALLBACK_BLOCK, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g_hostfunc_on_thread), 1);
  CHECK_INT_EQ(atomic_load(&g_after_count), 5);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)report.thread, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc((uint64_t)hf.thread, s), ACL_SUCCESS);
  proc_stop(&report);
  proc_stop(&hf);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* ---- threads ---------------------------------------------------------------------------------- */

static atomic_int g_count;
static void count_fn(void *arg) {
  (void)arg;
  atomic_fetch_add(&g_count, 1);
}

TEST(many_streams_one_host_function_thread) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  rt_up();
  proc p;
  proc_start(&p, 0);
  aclrtStream s[4];
  for (int i = 0; i < 4; i++) {
    CHECK_INT_EQ(aclrtCreateStream(&s[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSubscribeHostFunc((uint64_t)p.thread, s[i]), ACL_SUCCESS);
  }
  for (int k = 0; k < 50; k++)
    for (int i = 0; i < 4; i++)
      CHECK_INT_EQ(aclrtLaunchHostFunc(s[i], count_fn, NULL), ACL_SUCCESS);
  /* unsubscribe two while work is pending: theirs run on executors instead */
  CHECK_INT_EQ(aclrtUnSubscribeHostFunc((uint64_t)p.thread, s[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s[1]), ACL_SUCCESS);
  for (int i = 0; i < 4; i++)
    if (i != 1)
      CHECK_INT_EQ(aclrtSynchronizeStream(s[i]), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g_count), 200);
  proc_stop(&p);
  for (int i = 0; i < 4; i++)
    if (i != 1)
      CHECK_INT_EQ(aclrtDestroyStream(s[i]), ACL_SUCCESS);
  rt_down();
}
