/*
 * misuse_streams.c - the misuse matrix of the stream and event functions of
 * rt-breadth sections 1 and 2 (api/misuse_streams/...), in the pattern of
 * misuse.c: each case sets up state through the public API, performs ONE
 * misuse, and checks that
 *   (a) the call returns the documented code (docs/streams.md),
 *   (b) aclGetRecentErrMsg() names the API ("<api> failed"),
 *   (c) the process does not crash: each case runs in its own forked child,
 *       with an alarm against hangs,
 *   (d) the runtime still works afterwards (finish()).
 *
 * Generated: every new function that takes a stream, crossed with every kind
 * of bad stream (destroyed, garbage, a stack address, an event or context
 * handle, a stream of another device's context, one of a device that was
 * reset), and every new function that takes an event, crossed with the bad
 * events.  Written out: NULL arguments, bad values, calls without a context,
 * before aclInit and after aclFinalize, wrong devices, in-use cases.  One
 * ctest entry per group; MISUSE_CASE=<substring> picks cases by name.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#ifndef OPENACL_TEST_KERNELS
#error "OPENACL_TEST_KERNELS must name the test kernel binary"
#endif

#include "misuse_check.h"

/* ---- common state ----------------------------------------------------------- */



static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static int up(void) {
  OK(aclInit(NULL));
  OK(aclrtSetDevice(0));
  return 0;
}

/* (d): a stream, a value hand-off, a reduction, a stop/abort cycle and a
 * host function still work. */
static int alive(void) {
  OK(aclrtSetDevice(0));
  aclrtStream s = NULL, t = NULL;
  OK(aclrtCreateStream(&s));
  OK(aclrtCreateStream(&t));
  uint64_t *w = NULL;
  OK(aclrtMalloc((void **)&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemset(w, 64, 0, 64));
  OK(aclrtValueWait(w, 3, ACL_STREAM_WAIT_VALUE_EQ, s));
  OK(aclrtValueWrite(w, 3, 0, t));
  float two[2] = {1, 2};
  OK(aclrtMemcpy(w + 2, 8, two, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  OK(aclrtReduceAsync(w + 2, w + 2, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL));
  atomic_int flag = 0;
  OK(aclrtLaunchHostFunc(s, set_flag, &flag));
  OK(aclrtSynchronizeStream(s));
  OK(aclrtSynchronizeStream(t));
  REQUIRE(atomic_load(&flag) == 1);
  OK(aclrtMemcpy(two, 8, w + 2, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  REQUIRE(two[0] == 2.0f && two[1] == 4.0f);
  OK(aclrtStreamStop(t));
  OK(aclrtStreamAbort(t));
  OK(aclrtFree(w));
  OK(aclrtDestroyStream(s));
  OK(aclrtDestroyStreamForce(t));
  OK(aclrtResetDevice(0));
  return 0;
}

/* ---- the generated matrix ---------------------------------------------------- */

enum bad_kind {
  BAD_DESTROYED,
  BAD_GARBAGE,
  BAD_STACK,
  BAD_WRONG_TYPE_A, /* streams get an event, events a stream */
  BAD_WRONG_TYPE_B, /* a context */
  BAD_FOREIGN,      /* streams: of a context on device 1 (107003); events: NULL (100000) */
  BAD_RESET,        /* of device 1, which was reset since */
  BAD_KIND_COUNT
};

static const char *const bad_names[2][BAD_KIND_COUNT] = {
    {"destroyed", "garbage", "stack_int", "event_handle", "context_handle", "of_other_device_context",
     "of_reset_device"},
    {"destroyed", "garbage", "stack_int", "stream_handle", "context_handle", "null", "of_reset_device"},
};

typedef struct mx_env {
  aclrtContext ctx0;
  aclrtStream stream; /* good */
  aclrtEvent event;   /* good, recorded */
  void *dev;          /* 4096 bytes */
  void *counter;      /* 16 bytes */
  aclrtRandomNumTaskInfo rand;
  int stack_int;
} mx_env;

static int mx_env_make(mx_env *e) {
  memset(e, 0, sizeof(*e));
  if (up() != 0)
    return 1;
  OK(aclrtGetCurrentContext(&e->ctx0));
  OK(aclrtCreateStream(&e->stream));
  OK(aclrtCreateEvent(&e->event));
  OK(aclrtRecordEvent(e->event, e->stream));
  OK(aclrtSynchronizeStream(e->stream));
  OK(aclrtMalloc(&e->dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemset(e->dev, 4096, 0, 4096));
  OK(aclrtMalloc(&e->counter, 16, ACL_MEM_MALLOC_HUGE_FIRST));
  e->rand.dataType = ACL_FLOAT;
  e->rand.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  float lo = 0, hi = 1;
  uint64_t seed = 1, num = 16;
  aclrtUniformDisInfo *u = &e->rand.randomNumFuncParaInfo.paramInfo.uniformDisInfo;
  memcpy(u->min.valueOrAddr, &lo, 4);
  u->min.size = 4;
  memcpy(u->max.valueOrAddr, &hi, 4);
  u->max.size = 4;
  memcpy(e->rand.randomSeed.valueOrAddr, &seed, 8);
  e->rand.randomSeed.size = 8;
  memcpy(e->rand.randomNum.valueOrAddr, &num, 8);
  e->rand.randomNum.size = 8;
  e->rand.randomResultAddr = e->dev;
  e->rand.randomCounterAddr = e->counter;
  return 0;
}

static int make_reset_handle(mx_env *e, int which, void **out) {
  OK(aclrtSetDevice(1));
  if (which == 0) {
    aclrtStream s;
    OK(aclrtCreateStream(&s));
    *out = s;
  } else {
    aclrtEvent ev;
    OK(aclrtCreateEvent(&ev));
    *out = ev;
  }
  OK(aclrtResetDevice(1));
  OK(aclrtSetCurrentContext(e->ctx0));
  return 0;
}

static int make_bad_stream(mx_env *e, int kind, aclrtStream *out) {
  switch (kind) {
  case BAD_DESTROYED: {
    aclrtStream s;
    OK(aclrtCreateStream(&s));
    OK(aclrtDestroyStreamForce(s));
    *out = s;
    return 0;
  }
  case BAD_GARBAGE: *out = (aclrtStream)(uintptr_t)0x1234; return 0;
  case BAD_STACK: *out = &e->stack_int; return 0;
  case BAD_WRONG_TYPE_A: *out = e->event; return 0;
  case BAD_WRONG_TYPE_B: *out = e->ctx0; return 0;
  case BAD_FOREIGN: {
    aclrtContext c1;
    aclrtStream s;
    OK(aclrtCreateContext(&c1, 1));
    OK(aclrtCreateStream(&s));
    OK(aclrtSetCurrentContext(e->ctx0));
    *out = s;
    return 0;
  }
  case BAD_RESET: return make_reset_handle(e, 0, out);
  default: return 1;
  }
}

static int make_bad_event(mx_env *e, int kind, aclrtEvent *out) {
  switch (kind) {
  case BAD_DESTROYED: {
    aclrtEvent ev;
    OK(aclrtCreateEvent(&ev));
    OK(aclrtDestroyEvent(ev));
    *out = ev;
    return 0;
  }
  case BAD_GARBAGE: *out = (aclrtEvent)(uintptr_t)0x1234; return 0;
  case BAD_STACK: *out = &e->stack_int; return 0;
  case BAD_WRONG_TYPE_A: *out = e->stream; return 0;
  case BAD_WRONG_TYPE_B: *out = e->ctx0; return 0;
  case BAD_FOREIGN: *out = NULL; return 0;
  case BAD_RESET: return make_reset_handle(e, 1, out);
  default: return 1;
  }
}

typedef struct mx_fn {
  const char *api;
  int (*call)(mx_env *e, void *bad);
} mx_fn;

static int sf_stop(mx_env *e, void *s) { (void)e; return aclrtStreamStop(s); }
static int sf_abort(mx_env *e, void *s) { (void)e; return aclrtStreamAbort(s); }
static int sf_set_attr(mx_env *e, void *s) {
  (void)e;
  aclrtStreamAttrValue v = {.streamPriority = 1};
  return aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v);
}
static int sf_get_attr(mx_env *e, void *s) {
  (void)e;
  aclrtStreamAttrValue v;
  return aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v);
}
static int sf_value_write(mx_env *e, void *s) { return aclrtValueWrite(e->dev, 1, 0, s); }
static int sf_value_wait(mx_env *e, void *s) { return aclrtValueWait(e->dev, 0, ACL_STREAM_WAIT_VALUE_GEQ, s); }
static int sf_reduce(mx_env *e, void *s) {
  return aclrtReduceAsync(e->dev, (char *)e->dev + 64, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL);
}
static int sf_random(mx_env *e, void *s) { return aclrtRandomNumAsync(&e->rand, s, NULL); }
static int sf_record_flag(mx_env *e, void *s) { return aclrtRecordEventWithFlag(e->event, s, 0); }
static int sf_wait_flag(mx_env *e, void *s) { return aclrtStreamWaitEventWithFlag(s, e->event, 0, 0); }
static int sf_wait_timeout(mx_env *e, void *s) { return aclrtStreamWaitEventWithTimeout(s, e->event, 10); }
static int sf_active(mx_env *e, void *s) { return aclrtActiveStream(s, e->stream); }
static int sf_switch(mx_env *e, void *s) {
  return aclrtSwitchStream(e->dev, ACL_RT_EQUAL, e->dev, ACL_RT_SWITCH_INT32, e->stream, NULL, s);
}
static int sf_task_update(mx_env *e, void *s) {
  aclrtTaskUpdateInfo info;
  memset(&info, 0, sizeof(info));
  return aclrtTaskUpdateAsync(e->stream, 1, &info, s);
}

static const mx_fn stream_fns[] = {
    {"aclrtStreamStop", sf_stop},
    {"aclrtStreamAbort", sf_abort},
    {"aclrtSetStreamAttribute", sf_set_attr},
    {"aclrtGetStreamAttribute", sf_get_attr},
    {"aclrtValueWrite", sf_value_write},
    {"aclrtValueWait", sf_value_wait},
    {"aclrtReduceAsync", sf_reduce},
    {"aclrtRandomNumAsync", sf_random},
    {"aclrtRecordEventWithFlag", sf_record_flag},
    {"aclrtStreamWaitEventWithFlag", sf_wait_flag},
    {"aclrtStreamWaitEventWithTimeout", sf_wait_timeout},
    {"aclrtActiveStream", sf_active},
    {"aclrtSwitchStream", sf_switch},
    {"aclrtTaskUpdateAsync", sf_task_update},
};
#define N_STREAM_FNS (sizeof(stream_fns) / sizeof(stream_fns[0]))

static int ef_record_flag(mx_env *e, void *ev) { return aclrtRecordEventWithFlag(ev, e->stream, 0); }
static int ef_wait_flag(mx_env *e, void *ev) { return aclrtStreamWaitEventWithFlag(e->stream, ev, 0, 0); }
static int ef_wait_timeout(mx_env *e, void *ev) { return aclrtStreamWaitEventWithTimeout(e->stream, ev, 10); }
static int ef_get_id(mx_env *e, void *ev) {
  (void)e;
  uint32_t id;
  return aclrtGetEventId(ev, &id);
}

static const mx_fn event_fns[] = {
    {"aclrtRecordEventWithFlag", ef_record_flag},
    {"aclrtStreamWaitEventWithFlag", ef_wait_flag},
    {"aclrtStreamWaitEventWithTimeout", ef_wait_timeout},
    {"aclrtGetEventId", ef_get_id},
};
#define N_EVENT_FNS (sizeof(event_fns) / sizeof(event_fns[0]))

static int run_stream_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  aclrtStream bad = NULL;
  if (make_bad_stream(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_RT_STREAM_CONTEXT : ACL_ERROR_RT_INVALID_HANDLE;
  MISUSE(stream_fns[fn].call(&e, bad), want, stream_fns[fn].api);
  OK(aclrtRecordEvent(e.event, e.stream));
  OK(aclrtSynchronizeStream(e.stream));
  OK(aclrtSynchronizeEvent(e.event));
  return finish();
}

static int run_event_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  aclrtEvent bad = NULL;
  if (make_bad_event(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_INVALID_HANDLE;
  MISUSE(event_fns[fn].call(&e, bad), want, event_fns[fn].api);
  OK(aclrtSynchronizeStream(e.stream));
  return finish();
}

/* ---- written out: arguments ------------------------------------------------------ */

static int a_stop_default_stream(void) {
  if (up()) return 1;
  MISUSE(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtStreamStop");
  return finish();
}

static int a_attr_value_null(void) {
  if (up()) return 1;
  MISUSE(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtSetStreamAttribute");
  MISUSE(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtGetStreamAttribute");
  return finish();
}

static int a_attr_unknown(void) {
  if (up()) return 1;
  aclrtStreamAttrValue v = {0};
  MISUSE(aclrtSetStreamAttribute(NULL, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSetStreamAttribute");
  return finish();
}

static int a_attr_failure_mode_default_stream(void) {
  if (up()) return 1;
  aclrtStreamAttrValue v = {.failureMode = ACL_STOP_ON_FAILURE};
  MISUSE(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_INVALID_PARAM,
         "aclrtSetStreamAttribute");
  return finish();
}

static int a_available_num_null(void) {
  if (up()) return 1;
  MISUSE(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum");
  MISUSE(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetEventAvailNum");
  MISUSE(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetThreadLastTaskId");
  return finish();
}

static int a_event_id_null(void) {
  if (up()) return 1;
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  MISUSE(aclrtGetEventId(e, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetEventId");
  OK(aclrtDestroyEvent(e));
  return finish();
}

static int a_value_bad_flags(void) {
  if (up()) return 1;
  void *w;
  OK(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtValueWrite(w, 1, 2, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWrite");
  MISUSE(aclrtValueWait(w, 1, 7, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWait");
  OK(aclrtFree(w));
  return finish();
}

static int a_value_freed_word(void) {
  if (up()) return 1;
  void *w;
  OK(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtFree(w));
  MISUSE(aclrtValueWait(w, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWait");
  return finish();
}

static int a_value_host_word(void) {
  if (up()) return 1;
  uint64_t h = 0;
  MISUSE(aclrtValueWrite(&h, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWrite");
  return finish();
}

static int a_value_unaligned(void) {
  if (up()) return 1;
  char *w;
  OK(aclrtMalloc((void **)&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtValueWait(w + 1, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtValueWait");
  OK(aclrtFree(w));
  return finish();
}

static int a_reduce_other_device_memory(void) {
  if (up()) return 1;
  void *d1;
  OK(aclrtSetDevice(1));
  OK(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetDevice(0));
  MISUSE(aclrtReduceAsync(d1, d1, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtReduceAsync");
  OK(aclrtResetDevice(0));
  OK(aclrtResetDevice(1));
  return finish();
}

static int a_reduce_reserve(void) {
  if (up()) return 1;
  void *d;
  OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtReduceAsync(d, d, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, d), ACL_ERROR_INVALID_PARAM,
         "aclrtReduceAsync");
  OK(aclrtFree(d));
  return finish();
}

static int a_random_reserve(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  MISUSE(aclrtRandomNumAsync(&e.rand, NULL, e.dev), ACL_ERROR_RT_PARAM_INVALID, "aclrtRandomNumAsync");
  MISUSE(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtRandomNumAsync");
  return finish();
}

static int a_random_counter_freed(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  OK(aclrtFree(e.counter));
  MISUSE(aclrtRandomNumAsync(&e.rand, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtRandomNumAsync");
  return finish();
}

static int a_wait_timeout_negative(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  MISUSE(aclrtStreamWaitEventWithTimeout(e.stream, e.event, -1), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtStreamWaitEventWithTimeout");
  return finish();
}

static int a_record_flag_bad(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  MISUSE(aclrtRecordEventWithFlag(e.event, e.stream, 5), ACL_ERROR_INVALID_PARAM, "aclrtRecordEventWithFlag");
  MISUSE(aclrtStreamWaitEventWithFlag(e.stream, e.event, 0, 5), ACL_ERROR_INVALID_PARAM,
         "aclrtStreamWaitEventWithFlag");
  return finish();
}

static int a_external_outside_capture(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  aclrtEvent ex;
  OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
  MISUSE(aclrtRecordEventWithFlag(ex, e.stream, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED,
         "aclrtRecordEventWithFlag");
  OK(aclrtDestroyEvent(ex));
  return finish();
}

static int a_record_event_of_other_context(void) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  aclrtContext c1;
  aclrtEvent ev1;
  OK(aclrtCreateContext(&c1, 1));
  OK(aclrtCreateEvent(&ev1));
  OK(aclrtSetCurrentContext(e.ctx0));
  MISUSE(aclrtRecordEventWithFlag(ev1, e.stream, 0), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtRecordEventWithFlag");
  MISUSE(aclrtStreamWaitEventWithTimeout(e.stream, ev1, 5), ACL_ERROR_RT_STREAM_CONTEXT,
         "aclrtStreamWaitEventWithTimeout");
  return finish();
}

static int a_config_handle_misuse(void) {
  if (up()) return 1;
  aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
  REQUIRE(h != NULL);
  uint32_t v = 0;
  MISUSE(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &v, sizeof(v)), ACL_ERROR_INVALID_PARAM,
         "aclrtSetStreamConfigOpt");
  MISUSE(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)9, &v, sizeof(v)), ACL_ERROR_INVALID_PARAM,
         "aclrtSetStreamConfigOpt");
  OK(aclrtDestroyStreamConfigHandle(h));
  MISUSE(aclrtDestroyStreamConfigHandle(h), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle");
  aclrtStreamConfigHandle local = {NULL, 0, 0, 0};
  MISUSE(aclrtDestroyStreamConfigHandle(&local), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle");
  MISUSE(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamConfigHandle");
  local.priority = 9;
  aclrtStream s;
  MISUSE(aclrtCreateStreamV2(&s, &local), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2");
  local.priority = 0;
  local.flag = 0x80000000u;
  MISUSE(aclrtCreateStreamV2(&s, &local), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2");
  MISUSE(aclrtCreateStreamV2(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamV2");
  return finish();
}

static void noop_state(aclrtStream s, aclrtStreamState st, void *a) { (void)s, (void)st, (void)a; }

static int a_state_callback_names(void) {
  if (up()) return 1;
  OK(aclrtRegStreamStateCallback("x", noop_state, NULL));
  MISUSE(aclrtRegStreamStateCallback("x", noop_state, NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtRegStreamStateCallback");
  MISUSE(aclrtRegStreamStateCallback(NULL, noop_state, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtRegStreamStateCallback");
  MISUSE(aclrtRegDeviceStateCallback("", NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtRegDeviceStateCallback");
  MISUSE(aclrtSetDeviceTaskAbortCallback(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtSetDeviceTaskAbortCallback");
  OK(aclrtRegStreamStateCallback("x", NULL, NULL));
  return finish();
}

static int a_task_abort_bad_device(void) {
  if (up()) return 1;
  MISUSE(aclrtDeviceTaskAbort(2, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceTaskAbort");
  MISUSE(aclrtDeviceTaskAbort(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceTaskAbort");
  MISUSE(aclrtDeviceTaskAbort(0, 2160001), ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceTaskAbort");
  return finish();
}

/* ---- in use ------------------------------------------------------------------ */

typedef struct hf_env {
  int rc;
  char msg[512];
  atomic_int done;
} hf_env;

/* Messages are per thread: the host function keeps its own. */
static void abort_from_host_func(void *arg) {
  hf_env *h = arg;
  (void)aclGetRecentErrMsg();
  h->rc = aclrtDeviceTaskAbort(0, 100);
  const char *m = aclGetRecentErrMsg();
  snprintf(h->msg, sizeof(h->msg), "%s", m ? m : "(no message)");
  atomic_store(&h->done, 1);
}

static int u_task_abort_from_host_func(void) {
  if (up()) return 1;
  hf_env h = {0, "", 0};
  OK(aclrtLaunchHostFunc(NULL, abort_from_host_func, &h));
  OK(aclrtSynchronizeStream(NULL));
  REQUIRE(atomic_load(&h.done) == 1);
  REQUIRE(h.rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  REQUIRE(strstr(h.msg, "aclrtDeviceTaskAbort failed") != NULL);
  return finish();
}

static int u_use_after_destroy_force(void) {
  if (up()) return 1;
  aclrtStream s;
  gate g = {0, 0};
  OK(aclrtCreateStream(&s));
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  while (!atomic_load(&g.entered))
    sleep_ms(1);
  OK(aclrtDestroyStreamForce(s)); /* its task still runs */
  MISUSE(aclrtStreamAbort(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamAbort");
  MISUSE(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStreamForce");
  atomic_store(&g.open, 1);
  return finish();
}

static int u_stopped_stream_synchronize(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  atomic_int flag = 0;
  OK(aclrtStreamStop(s));
  OK(aclrtLaunchHostFunc(s, set_flag, &flag));
  MISUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeStream");
  MISUSE(aclrtSynchronizeDevice(), ACL_ERROR_RT_INTERNAL_ERROR, "aclrtSynchronizeDevice");
  REQUIRE(atomic_load(&flag) == 0);
  OK(aclrtDestroyStream(s)); /* stopped: destroyed without waiting */
  return finish();
}

static int u_abort_while_value_wait_parked(void) {
  if (up()) return 1;
  aclrtStream s;
  void *w;
  OK(aclrtCreateStream(&s));
  OK(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemset(w, 64, 0, 64));
  OK(aclrtValueWait(w, 1, ACL_STREAM_WAIT_VALUE_EQ, s));
  sleep_ms(5);
  OK(aclrtStreamAbort(s));
  MISUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "aclrtSynchronizeStream");
  OK(aclrtFree(w)); /* nothing watches the word any more */
  OK(aclrtDestroyStream(s));
  return finish();
}

/* ---- no context, before init, after finalize ------------------------------------------ */

static int nc_body(void *arg) {
  (void)arg;
  MISUSE(aclrtStreamAbort(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtStreamAbort");
  MISUSE(aclrtGetStreamAvailableNum(&(uint32_t){0}), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetStreamAvailableNum");
  MISUSE(aclrtGetEventAvailNum(&(uint32_t){0}), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetEventAvailNum");
  MISUSE(aclrtCreateStreamV2(&(aclrtStream){0}, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStreamV2");
  MISUSE(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &(aclrtStreamAttrValue){0}),
         ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetStreamAttribute");
  return 0;
}

static int nc_no_context_thread(void) {
  if (up()) return 1;
  if (in_thread(nc_body, NULL) != 0)
    return 1;
  return finish();
}

static int nc_value_write_no_context(void *arg) {
  MISUSE(aclrtValueWrite(arg, 1, 0, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtValueWrite");
  return 0;
}

static int nc_value_write(void) {
  if (up()) return 1;
  void *w;
  OK(aclrtMalloc(&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  if (in_thread(nc_value_write_no_context, w) != 0)
    return 1;
  OK(aclrtFree(w));
  return finish();
}

#define BEFORE_INIT_CASE(fname, call, api)                                     \
  static int fname(void) {                                                     \
    MISUSE(call, ACL_ERROR_UNINITIALIZE, api);                                 \
    return finish_init();                                                      \
  }

BEFORE_INIT_CASE(li_before_init_stop, aclrtStreamStop((void *)(uintptr_t)0x1234), "aclrtStreamStop")
BEFORE_INIT_CASE(li_before_init_abort, aclrtStreamAbort(NULL), "aclrtStreamAbort")
BEFORE_INIT_CASE(li_before_init_available, aclrtGetStreamAvailableNum(&(uint32_t){0}), "aclrtGetStreamAvailableNum")
BEFORE_INIT_CASE(li_before_init_event_avail, aclrtGetEventAvailNum(&(uint32_t){0}), "aclrtGetEventAvailNum")
BEFORE_INIT_CASE(li_before_init_last_task, aclrtGetThreadLastTaskId(&(uint32_t){0}), "aclrtGetThreadLastTaskId")
BEFORE_INIT_CASE(li_before_init_event_id, aclrtGetEventId((void *)(uintptr_t)0x1234, &(uint32_t){0}),
                 "aclrtGetEventId")
BEFORE_INIT_CASE(li_before_init_task_abort, aclrtDeviceTaskAbort(0, 0), "aclrtDeviceTaskAbort")
BEFORE_INIT_CASE(li_before_init_create_v2, aclrtCreateStreamV2(&(aclrtStream){0}, NULL), "aclrtCreateStreamV2")

typedef struct old_handles {
  aclrtStream stream;
  aclrtEvent event;
  void *dev;
} old_handles;

static int make_then_finalize(old_handles *o) {
  if (up()) return 1;
  OK(aclrtCreateStream(&o->stream));
  OK(aclrtCreateEvent(&o->event));
  OK(aclrtMalloc(&o->dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclFinalize());
  return 0;
}

#define AFTER_FINALIZE_CASE(fname, call, want, api)                            \
  static int fname(void) {                                                     \
    old_handles o;                                                             \
    if (make_then_finalize(&o)) return 1;                                      \
    MISUSE(call, want, api);                                                   \
    return finish_init();                                                      \
  }

AFTER_FINALIZE_CASE(li_after_finalize_stop, aclrtStreamStop(o.stream), ACL_ERROR_UNINITIALIZE, "aclrtStreamStop")
AFTER_FINALIZE_CASE(li_after_finalize_abort, aclrtStreamAbort(o.stream), ACL_ERROR_UNINITIALIZE, "aclrtStreamAbort")
AFTER_FINALIZE_CASE(li_after_finalize_value_write, aclrtValueWrite(o.dev, 1, 0, o.stream), ACL_ERROR_UNINITIALIZE,
                    "aclrtValueWrite")
AFTER_FINALIZE_CASE(li_after_finalize_event_id, aclrtGetEventId(o.event, &(uint32_t){0}), ACL_ERROR_UNINITIALIZE,
                    "aclrtGetEventId")
AFTER_FINALIZE_CASE(li_after_finalize_record_flag, aclrtRecordEventWithFlag(o.event, o.stream, 0),
                    ACL_ERROR_UNINITIALIZE, "aclrtRecordEventWithFlag")

/* After a new aclInit, handles of the old runtime are stale. */
static int li_after_reinit_old_stream_abort(void) {
  old_handles o;
  if (make_then_finalize(&o)) return 1;
  if (up()) return 1;
  MISUSE(aclrtStreamAbort(o.stream), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamAbort");
  MISUSE(aclrtGetEventId(o.event, &(uint32_t){0}), ACL_ERROR_RT_INVALID_HANDLE, "aclrtGetEventId");
  OK(aclrtResetDevice(0));
  return finish();
}

/* ---- the table and the runner (as misuse.c) --------------------------------------- */

typedef struct mcase {
  const char *group;
  char name[128];
  int (*fn)(void);
  int kind;
  int sub;
  int gen; /* 0 written out, 1 stream, 2 event */
} mcase;

#define MAX_CASES 512
static mcase cases[MAX_CASES];
static int n_cases;

static void add(const char *group, const char *name, int (*fn)(void)) {
  mcase *c = &cases[n_cases++];
  c->group = group;
  snprintf(c->name, sizeof(c->name), "%s", name);
  c->fn = fn;
}

static void add_gen(const char *group, int gen, int sub, int kind, const char *fn_name) {
  mcase *c = &cases[n_cases++];
  c->group = group;
  snprintf(c->name, sizeof(c->name), "%s_%s", fn_name, bad_names[gen - 1][kind]);
  c->gen = gen;
  c->sub = sub;
  c->kind = kind;
}

#define ADD(group, fn) add(group, #fn, fn)

static void build_table(void) {
  if (n_cases != 0)
    return;
  for (int f = 0; f < (int)N_STREAM_FNS; f++)
    for (int k = 0; k < BAD_KIND_COUNT; k++)
      add_gen("stream_handles", 1, f, k, stream_fns[f].api);
  for (int f = 0; f < (int)N_EVENT_FNS; f++)
    for (int k = 0; k < BAD_KIND_COUNT; k++)
      add_gen("event_handles", 2, f, k, event_fns[f].api);
  ADD("arguments", a_stop_default_stream);
  ADD("arguments", a_attr_value_null);
  ADD("arguments", a_attr_unknown);
  ADD("arguments", a_attr_failure_mode_default_stream);
  ADD("arguments", a_available_num_null);
  ADD("arguments", a_event_id_null);
  ADD("arguments", a_value_bad_flags);
  ADD("arguments", a_value_freed_word);
  ADD("arguments", a_value_host_word);
  ADD("arguments", a_value_unaligned);
  ADD("arguments", a_reduce_other_device_memory);
  ADD("arguments", a_reduce_reserve);
  ADD("arguments", a_random_reserve);
  ADD("arguments", a_random_counter_freed);
  ADD("arguments", a_wait_timeout_negative);
  ADD("arguments", a_record_flag_bad);
  ADD("arguments", a_external_outside_capture);
  ADD("arguments", a_record_event_of_other_context);
  ADD("arguments", a_config_handle_misuse);
  ADD("arguments", a_state_callback_names);
  ADD("arguments", a_task_abort_bad_device);
  ADD("in_use", u_task_abort_from_host_func);
  ADD("in_use", u_use_after_destroy_force);
  ADD("in_use", u_stopped_stream_synchronize);
  ADD("in_use", u_abort_while_value_wait_parked);
  ADD("lifecycle", nc_no_context_thread);
  ADD("lifecycle", nc_value_write);
  ADD("lifecycle", li_before_init_stop);
  ADD("lifecycle", li_before_init_abort);
  ADD("lifecycle", li_before_init_available);
  ADD("lifecycle", li_before_init_event_avail);
  ADD("lifecycle", li_before_init_last_task);
  ADD("lifecycle", li_before_init_event_id);
  ADD("lifecycle", li_before_init_task_abort);
  ADD("lifecycle", li_before_init_create_v2);
  ADD("lifecycle", li_after_finalize_stop);
  ADD("lifecycle", li_after_finalize_abort);
  ADD("lifecycle", li_after_finalize_value_write);
  ADD("lifecycle", li_after_finalize_event_id);
  ADD("lifecycle", li_after_finalize_record_flag);
  ADD("lifecycle", li_after_reinit_old_stream_abort);
}

static int run_case_body(const mcase *c) {
  switch (c->gen) {
  case 1: return run_stream_case(c->sub, c->kind);
  case 2: return run_event_case(c->sub, c->kind);
  default: return c->fn();
  }
}

static int run_case_in_child(const void *c) { return run_case_body(c); }

/* Runs one case in a forked child; 1 when it passed. */
static int run_case(const mcase *c) {
  return misuse_in_child("misuse_streams", c->group, c->name, run_case_in_child, c);
}

static void run_group(const char *group) {
  setenv("OPENACL_DEVICE_COUNT", "2", 1);
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  setenv("OPENACL_DEVICE_MEMORY", "64M", 1);
  build_table();
  const char *only = getenv("MISUSE_CASE");
  int ran = 0, failed = 0;
  for (int i = 0; i < n_cases; i++) {
    if (group != NULL && strcmp(cases[i].group, group) != 0)
      continue;
    if (only != NULL && *only != '\0' && strstr(cases[i].name, only) == NULL)
      continue;
    ran++;
    failed += !run_case(&cases[i]);
  }
  printf("misuse_streams/%s: %d cases, %d passed, %d failed (of %d)\n", group, ran, ran - failed, failed, n_cases);
  fflush(stdout);
  if (failed != 0)
    th_fail(__FILE__, __LINE__, "%d of %d misuse cases failed", failed, ran);
}

TEST(stream_handles) { run_group("stream_handles"); }
TEST(event_handles) { run_group("event_handles"); }
TEST(arguments) { run_group("arguments"); }
TEST(in_use) { run_group("in_use"); }
TEST(lifecycle) { run_group("lifecycle"); }
