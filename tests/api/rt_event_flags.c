/*
 * rt_event_flags.c - events (rt-breadth §2): records and waits with flags,
 * waits with a timeout, event ids and the event budget, and the status of
 * an event never recorded.  Black-box: public API only.
 */
#include "rt_common.h"

static void count_fn(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

static aclrtEventRecordedStatus status_of(aclrtEvent e) {
  aclrtEventRecordedStatus st = (aclrtEventRecordedStatus)-1;
  CHECK_INT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
  return st;
}

/* The vendor's sample 1_basic_features/event/0_event_status. */
TEST(event_status_sample) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s;
  aclrtEvent e;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  printf("After create event, current event status is %d.\n", (int)status_of(e));
  CHECK_INT_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS); /* the "long kernel" */
  CHECK_INT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
  CHECK_INT_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  printf("The answer is %d.\n", (int)status_of(e));
  CHECK_INT_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  /* an Ex event never recorded reads as complete; with flags, as an old one */
  aclrtEvent ex, wf;
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(status_of(ex), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK_INT_EQ(aclrtCreateEventWithFlag(&wf, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(status_of(wf), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  CHECK_INT_EQ(aclrtDestroyEvent(wf), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS);
  rt_down();
}

TEST(record_with_flag) {
  rt_up();
  aclrtEvent e, ex;
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(e, NULL, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtRecordEventWithFlag failed");
  CHECK_INT_EQ(aclrtRecordEventWithFlag(e, NULL, ACL_EVENT_RECORD_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  /* EXTERNAL belongs to a stream being captured, which this one is not */
  CHECK_INT_EQ(aclrtRecordEventWithFlag(ex, NULL, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "captured");
  /* ... and the event keeps the flavour of its first call, even a failed one */
  CHECK_INT_EQ(aclrtRecordEventWithFlag(ex, NULL, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(NULL, e, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(e, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE);
  rt_down();
}

/* A wait with a timeout whose record comes in time passes; one whose
 * record comes too late fails at the next synchronisation, and the stream
 * goes on. */
TEST(wait_with_timeout) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream producer, consumer;
  aclrtEvent e;
  CHECK_INT_EQ(aclrtCreateStream(&producer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&consumer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(consumer, e, -1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtStreamWaitEventWithTimeout failed");

  /* in time */
  atomic_int ran = 0;
  CHECK_INT_EQ(aclrtRecordEvent(e, producer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(consumer, e, 5000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(consumer, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 1);

  /* too late: 30 ms, the record comes after the test opens the gate */
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(producer, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, producer), ACL_SUCCESS);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(consumer, e, 30), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(consumer, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(consumer), ACL_ERROR_RT_WAIT_TIMEOUT);
  uint64_t took = th_now_ns() - t0;
  printf("the wait timed out after %.1f ms\n", (double)took / 1e6);
  CHECK(took >= 25000000u && took < 2000000000u);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "event wait");
  CHECK_INT_EQ(atomic_load(&ran), 2); /* the stream went on after the failed wait */
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(producer), ACL_SUCCESS);

  /* 0: no limit */
  rt_gate h = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(producer, rt_gate_wait, &h), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, producer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, e, 0, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(consumer, count_fn, &ran), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 60), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  atomic_store(&h.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&ran), 3);

  /* the flag form with a timeout */
  rt_gate k = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(producer, rt_gate_wait, &k), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, producer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, e, 20, ACL_EVENT_WAIT_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(consumer), ACL_ERROR_RT_WAIT_TIMEOUT);
  atomic_store(&k.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(producer), ACL_SUCCESS);

  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, e, 0, 2), ACL_ERROR_INVALID_PARAM);
  aclrtEvent ex;
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, ex, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(consumer, ex, 0, ACL_EVENT_WAIT_EXTERNAL),
               ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  CHECK_INT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(producer), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(consumer), ACL_SUCCESS);
  rt_down();
}

/* A timed wait discarded while parked (abort, destroy) leaves no timer behind. */
TEST(timed_wait_discarded_while_parked) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream p, c;
  aclrtEvent e;
  CHECK_INT_EQ(aclrtCreateStream(&p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(p, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, p), ACL_SUCCESS);
  for (int i = 0; i < 20; i++)
    CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(c, e, 50 + i), ACL_SUCCESS);
  rt_sleep_ms(10);
  CHECK_INT_EQ(aclrtStreamAbort(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(c), ACL_ERROR_RT_STREAM_ABORT);
  CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(c, e, 5000), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStreamForce(c), ACL_SUCCESS);
  rt_sleep_ms(100); /* the deadlines pass with nothing left to wake */
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(p), ACL_SUCCESS);
  rt_down();
}

/* ---- ids and budget -------------------------------------------------------------------- */

static uint32_t event_id(aclrtEvent e) {
  uint32_t id = 0xffffffffu;
  CHECK_INT_EQ(aclrtGetEventId(e, &id), ACL_SUCCESS);
  return id;
}

static uint32_t events_available(void) {
  uint32_t n = 0;
  CHECK_INT_EQ(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
  return n;
}

TEST(event_ids_and_budget) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  rt_up();
  CHECK_INT_EQ(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM);
  uint32_t before = events_available();
  CHECK_INT_EQ(before, 65536);
  aclrtEvent a, b, c, ex;
  CHECK_INT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEventWithFlag(&b, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(event_id(a), 0);
  CHECK_INT_EQ(event_id(b), 1);
  CHECK_INT_EQ(events_available(), before - 2);
  CHECK_INT_EQ(aclrtDestroyEvent(a), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&c), ACL_SUCCESS);
  CHECK_INT_EQ(event_id(c), 0); /* the lowest free id */
  /* Ex events are not limited: they do not count, and their ids are apart */
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK(event_id(ex) >= 65536);
  CHECK_INT_EQ(events_available(), before - 2);
  /* an event destroyed with records in flight gives its id back at once */
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(NULL, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(c, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(c), ACL_SUCCESS);
  CHECK_INT_EQ(events_available(), before - 1);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  /* another device numbers its own */
  CHECK_INT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(events_available(), before);
  aclrtEvent d1;
  CHECK_INT_EQ(aclrtCreateEvent(&d1), ACL_SUCCESS);
  CHECK_INT_EQ(event_id(d1), 0);
  CHECK_INT_EQ(aclrtDestroyEvent(d1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetEventId(NULL, &(uint32_t){0}), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetEventId(b, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyEvent(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetEventId(b, &(uint32_t){0}), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  CHECK_INT_EQ(events_available(), before);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  rt_down();
}

TEST(event_budget_runs_out) {
  rt_up();
  enum { MAX = 65536 };
  aclrtEvent *ev = calloc(MAX + 1, sizeof(*ev));
  CHECK_NOT_NULL(ev);
  for (int i = 0; i < MAX; i++)
    CHECK_INT_EQ(aclrtCreateEventWithFlag(&ev[i], ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(events_available(), 0);
  CHECK_INT_EQ(aclrtCreateEvent(&ev[MAX]), ACL_ERROR_RT_NO_EVENT_RESOURCE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtCreateEventExWithFlag");
  aclrtEvent ex;
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS); /* not limited */
  CHECK_INT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(ev[123]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&ev[123]), ACL_SUCCESS);
  CHECK_INT_EQ(event_id(ev[123]), 123);
  for (int i = MAX - 1; i >= 0; i--)
    CHECK_INT_EQ(aclrtDestroyEvent(ev[i]), ACL_SUCCESS);
  free(ev);
  rt_down();
}

/* Several threads wait with timeouts on events others record: every wait
 * either passes or times out, none hangs. */
typedef struct tw_job {
  aclrtContext ctx;
  int seed;
  atomic_int *timeouts;
} tw_job;

static void *timed_waits(void *arg) {
  tw_job *j = arg;
  CHECK_INT_EQ(aclrtSetCurrentContext(j->ctx), ACL_SUCCESS);
  aclrtStream p, c;
  aclrtEvent e;
  CHECK_INT_EQ(aclrtCreateStream(&p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
  for (int i = 0; i < 50; i++) {
    rt_gate g = {i % 2, 0};
    CHECK_INT_EQ(aclrtLaunchHostFunc(p, rt_gate_wait, &g), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtRecordEvent(e, p), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtStreamWaitEventWithTimeout(c, e, 1 + (i + j->seed) % 3), ACL_SUCCESS);
    int rc = aclrtSynchronizeStream(c);
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_WAIT_TIMEOUT);
    if (rc != 0)
      atomic_fetch_add(j->timeouts, 1);
    atomic_store(&g.open, 1);
    CHECK_INT_EQ(aclrtSynchronizeStream(p), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(p), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(c), ACL_SUCCESS);
  return NULL;
}

TEST(timed_waits_from_many_threads) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  atomic_int timeouts = 0;
  tw_job j[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    j[i].seed = i;
    j[i].timeouts = &timeouts;
    CHECK_INT_EQ(aclrtGetCurrentContext(&j[i].ctx), ACL_SUCCESS);
    pthread_create(&t[i], NULL, timed_waits, &j[i]);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  printf("%d of 200 waits timed out\n", atomic_load(&timeouts));
  CHECK(atomic_load(&timeouts) > 0);
  rt_down();
}
