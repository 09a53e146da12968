/* rt_stream.c - contexts and streams: ownership, ordering, asynchrony, timeouts, priorities. */
#include "rt_common.h"

TEST(context_create_destroy_and_current) {
  rt_up();
  aclrtContext def, c;
  CHECK_INT_EQ(aclrtGetCurrentContext(&def), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateContext(&c, 0), ACL_SUCCESS);
  aclrtContext cur;
  CHECK_INT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  CHECK(cur == c);
  CHECK_INT_EQ(aclrtSetCurrentContext(def), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtSetCurrentContext(c), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyContext(def), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "default context");
  CHECK_INT_EQ(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
}

TEST(destroyed_current_context_reads_as_none) {
  rt_up();
  aclrtContext c;
  CHECK_INT_EQ(aclrtCreateContext(&c, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
  rt_down();
}

static void *use_foreign_stream(void *arg) {
  aclrtStream s = arg;
  aclrtContext c;
  CHECK_INT_EQ(aclrtCreateContext(&c, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CONTEXT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtSetCurrentContext");
  CHECK_INT_EQ(aclrtDestroyContext(c), ACL_SUCCESS);
  return NULL;
}

TEST(stream_of_another_context_is_107003) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  pthread_t t;
  pthread_create(&t, NULL, use_foreign_stream, s);
  pthread_join(t, NULL);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(context_default_stream_is_real) {
  rt_up();
  aclrtStream d = NULL;
  CHECK_INT_EQ(aclrtCtxGetCurrentDefaultStream(&d), ACL_SUCCESS);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclrtSynchronizeStream(d), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(d), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
  rt_down();
}

TEST(stream_arguments) {
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 8, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 0, 0x80000000u), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
  uint32_t p = 0, f = 0;
  CHECK_INT_EQ(aclrtStreamGetPriority(s, &p), ACL_SUCCESS);
  CHECK_INT_EQ(p, 3);
  CHECK_INT_EQ(aclrtStreamGetFlags(s, &f), ACL_SUCCESS);
  CHECK_INT_EQ(f, ACL_STREAM_FAST_LAUNCH);
  CHECK_INT_EQ(aclrtSetStreamFailureMode(s, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

TEST(tasks_run_in_submission_order) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  static rt_log log = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};
  static rt_note notes[2000];
  for (int i = 0; i < 2000; i++) {
    notes[i].log = &log;
    notes[i].value = i;
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_note_fn, &notes[i]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(log.n, 2000);
  for (int i = 0; i < 2000; i++)
    CHECK_INT_EQ(log.v[i], i);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(submission_is_asynchronous_and_query_sees_it) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  /* the host keeps submitting while the stream is held */
  for (int i = 0; i < 1000; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  aclrtStreamStatus st;
  CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "after 20 ms");
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g.entered), 1001);
  CHECK_INT_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* b opens a's gate: only possible when the two streams run at the same time */
static void open_gate(void *arg) { atomic_store(&((rt_gate *)arg)->open, 1); }

TEST(streams_run_concurrently) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream a, b;
  CHECK_INT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(a, rt_gate_wait, &g), ACL_SUCCESS);
  while (atomic_load(&g.entered) == 0)
    rt_sleep_ms(1);
  CHECK_INT_EQ(aclrtLaunchHostFunc(b, open_gate, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(a, 10000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
  rt_down();
}

TEST(higher_priority_stream_runs_first) {
  setenv("OPENACL_EXECUTOR_THREADS", "1", 1);
  rt_up();
  aclrtStream blocker, low, high;
  CHECK_INT_EQ(aclrtCreateStream(&blocker), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&low, 7, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&high, 0, 0), ACL_SUCCESS);
  rt_gate g = {0, 0};
  static rt_log log = {PTHREAD_MUTEX_INITIALIZER, 0, {0}};
  static rt_note lo = {&log, 7}, hi = {&log, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(blocker, rt_gate_wait, &g), ACL_SUCCESS);
  while (atomic_load(&g.entered) == 0)
    rt_sleep_ms(1);
  /* the only executor is busy: both become ready, the low one first */
  CHECK_INT_EQ(aclrtLaunchHostFunc(low, rt_note_fn, &lo), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(high, rt_note_fn, &hi), ACL_SUCCESS);
  atomic_store(&g.open, 1);
  /* wait without synchronising: a synchronising thread helps run the stream it waits on, whatever the
   * priorities, and would race the executor for the order this test checks */
  for (int waited = 0; waited < 10000; waited++) {
    pthread_mutex_lock(&log.lock);
    int done = log.n == 2;
    pthread_mutex_unlock(&log.lock);
    if (done)
      break;
    rt_sleep_ms(1);
  }
  CHECK_INT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  CHECK_INT_EQ(log.n, 2);
  CHECK_INT_EQ(log.v[0], 0);
  CHECK_INT_EQ(log.v[1], 7);
  CHECK_INT_EQ(aclrtDestroyStream(blocker), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(low), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(high), ACL_SUCCESS);
  rt_down();
}

TEST(ten_thousand_streams) {
  rt_up();
  static aclrtStream s[10000];
  uint64_t t0 = th_now_ns();
  for (int i = 0; i < 10000; i++)
    CHECK_INT_EQ(aclrtCreateStream(&s[i]), ACL_SUCCESS);
  for (int i = 0; i < 10000; i += 97)
    CHECK_INT_EQ(aclrtSynchronizeStream(s[i]), ACL_SUCCESS);
  for (int i = 0; i < 10000; i++)
    CHECK_INT_EQ(aclrtDestroyStream(s[i]), ACL_SUCCESS);
  printf("10,000 streams created, synchronised and destroyed in %.1f ms\n", (double)(th_now_ns() - t0) / 1e6);
  rt_down();
}

static void *open_gate_later(void *arg) {
  rt_sleep_ms(20);
  open_gate(arg);
  return NULL;
}

TEST(destroy_waits_force_does_not) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  rt_gate g = {1, 0};
  for (int i = 0; i < 200; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&g.entered), 200);

  rt_gate h = {0, 0};
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  for (int i = 0; i < 200; i++)
    CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &h), ACL_SUCCESS);
  while (atomic_load(&h.entered) == 0)
    rt_sleep_ms(1);
  /* force: the running function must end first, the rest is dropped */
  pthread_t opener;
  pthread_create(&opener, NULL, open_gate_later, &h);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  pthread_join(opener, NULL);
  CHECK(atomic_load(&h.entered) < 200);
  rt_down();
}

/* ---- stress: many threads, many streams, ordering per stream ---- */

typedef struct stress_counter {
  atomic_long next;
  atomic_long bad;
} stress_counter;

typedef struct stress_task {
  stress_counter *c;
  long expect;
} stress_task;

static void stress_fn(void *arg) {
  stress_task *t = arg;
  long got = atomic_fetch_add(&t->c->next, 1);
  if (got != t->expect)
    atomic_fetch_add(&t->c->bad, 1);
}

static long stress_tasks(void) {
  const char *s = getenv("OPENACL_STRESS_TASKS");
  return s ? atol(s) : 10000;
}

static void *stress_thread(void *arg) {
  (void)arg;
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  long n = stress_tasks();
  aclrtStream s[8];
  stress_counter c[8];
  stress_task *tasks = calloc((size_t)(8 * n), sizeof(*tasks));
  for (int k = 0; k < 8; k++) {
    CHECK_INT_EQ(aclrtCreateStream(&s[k]), ACL_SUCCESS);
    atomic_init(&c[k].next, 0);
    atomic_init(&c[k].bad, 0);
  }
  for (long i = 0; i < n; i++)
    for (int k = 0; k < 8; k++) {
      stress_task *t = &tasks[k * n + i];
      t->c = &c[k];
      t->expect = i;
      CHECK_INT_EQ(aclrtLaunchHostFunc(s[k], stress_fn, t), ACL_SUCCESS);
    }
  for (int k = 0; k < 8; k++) {
    CHECK_INT_EQ(aclrtSynchronizeStream(s[k]), ACL_SUCCESS);
    CHECK_INT_EQ(atomic_load(&c[k].next), n);
    CHECK_INT_EQ(atomic_load(&c[k].bad), 0);
    CHECK_INT_EQ(aclrtDestroyStream(s[k]), ACL_SUCCESS);
  }
  free(tasks);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  return NULL;
}

TEST(stress_64_threads_8_streams_each) {
  rt_up();
  uint64_t t0 = th_now_ns();
  pthread_t t[64];
  for (int i = 0; i < 64; i++)
    pthread_create(&t[i], NULL, stress_thread, NULL);
  for (int i = 0; i < 64; i++)
    pthread_join(t[i], NULL);
  printf("64 threads x 8 streams x %ld tasks in %.1f ms\n", stress_tasks(), (double)(th_now_ns() - t0) / 1e6);
  rt_down();
}
