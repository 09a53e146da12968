/*
 * misuse.c - the misuse matrix (api/misuse/...): every handle is validated.
 *
 * Each case is a small function that sets up state through the public API
 * (aclInit, devices, contexts, streams, events, memory, kernels, threads),
 * performs ONE misuse, and checks that
 *   (a) the call returns the documented code,
 *   (b) aclGetRecentErrMsg() is non-NULL and names the API ("<api> failed"),
 *   (c) the process does not crash: each case runs in its own forked child
 *       (set up inside the child, so the parent never has threads when it
 *       forks: safe under ASan), with an alarm against hangs,
 *   (d) the runtime still works afterwards: a stream, a copy, a host
 *       function, a synchronisation and a clean aclFinalize (finish()).
 *
 * Many cases are generated: every aclrt* function that takes a stream,
 * an event or a context, crossed with every kind of bad handle (destroyed,
 * garbage, a pointer to a stack int, a handle of another type, a handle of
 * another context or of a device that was reset, NULL where not allowed).
 * The rest are written out below, by area.  One ctest entry per area
 * (api/misuse/<area>) runs that area's cases; the binary run without
 * arguments runs them all; MISUSE_CASE=<substring> picks cases by name.
 *
 * The expected codes are those of docs/devices.md, streams.md, memory.md,
 * callbacks.md and kernels.md.  Where the library disagrees with the docs,
 * the case keeps the documented code (and fails).
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
#define TK OPENACL_TEST_KERNELS

#include "misuse_check.h"

/* ---- common state ------------------------------------------------------- */



static void noop_cb(void *arg) { (void)arg; }

static int up(void) {
  OK(aclInit(NULL));
  OK(aclrtSetDevice(0));
  return 0;
}

/* (d): the runtime still works.  Sets device 0 once more (and resets it),
 * runs a copy, a host function and a synchronisation on a new stream. */
static int alive(void) {
  OK(aclrtSetDevice(0));
  aclrtStream s = NULL;
  OK(aclrtCreateStream(&s));
  void *d = NULL;
  OK(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  unsigned char h[256], back[256];
  memset(h, 0x5a, sizeof(h));
  memset(back, 0, sizeof(back));
  OK(aclrtMemcpyAsync(d, 256, h, 256, ACL_MEMCPY_HOST_TO_DEVICE, s));
  atomic_int flag = 0;
  OK(aclrtLaunchHostFunc(s, set_flag, &flag));
  OK(aclrtSynchronizeStream(s));
  REQUIRE(atomic_load(&flag) == 1);
  OK(aclrtMemcpy(back, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST));
  REQUIRE(memcmp(h, back, sizeof(h)) == 0);
  OK(aclrtFree(d));
  OK(aclrtDestroyStream(s));
  OK(aclrtResetDevice(0));
  return 0;
}

/* ---- the generated matrix: bad handles ------------------------------------ */

enum bad_kind {
  BAD_DESTROYED,  /* created, then destroyed */
  BAD_GARBAGE,    /* (void *)0x1234 */
  BAD_STACK,      /* the address of a stack int */
  BAD_WRONG_TYPE_A, /* a live handle of another type: streams get an event, events and contexts a stream */
  BAD_WRONG_TYPE_B, /* another: streams and events get a context, contexts an event */
  BAD_FOREIGN,    /* streams: of a context on device 1 (107003); events and contexts: NULL (100000) */
  BAD_RESET,      /* of device 1, which was reset since */
  BAD_KIND_COUNT
};

/* Case-name suffixes per matrix (streams, events, contexts). */
static const char *const bad_names[3][BAD_KIND_COUNT] = {
    {"destroyed", "garbage", "stack_int", "event_handle", "context_handle", "of_other_device_context",
     "of_reset_device"},
    {"destroyed", "garbage", "stack_int", "stream_handle", "context_handle", "null", "of_reset_device"},
    {"destroyed", "garbage", "stack_int", "stream_handle", "event_handle", "null", "of_reset_device"},
};

/* What the functions of the matrix use besides the bad handle; all in
 * device 0's default context, which is current when the misuse is made. */
typedef struct mx_env {
  aclrtContext ctx0;
  aclrtStream stream;   /* a good user stream */
  aclrtEvent event;     /* a good event, recorded and complete */
  void *dev;            /* 4096 bytes of device memory */
  void *pinned;         /* 4096 bytes of pinned host memory */
  aclrtBinHandle bin;
  aclrtFuncHandle func; /* tk_nop */
  int stack_int;
} mx_env;

static int mx_env_make(mx_env *e, int need_kernel) {
  memset(e, 0, sizeof(*e));
  if (up() != 0)
    return 1;
  OK(aclrtGetCurrentContext(&e->ctx0));
  OK(aclrtCreateStream(&e->stream));
  OK(aclrtCreateEvent(&e->event));
  OK(aclrtRecordEvent(e->event, e->stream));
  OK(aclrtSynchronizeStream(e->stream));
  OK(aclrtMalloc(&e->dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMallocHost(&e->pinned, 4096));
  if (need_kernel) {
    OK(aclrtBinaryLoadFromFile(TK, NULL, &e->bin));
    OK(aclrtBinaryGetFunction(e->bin, "tk_nop", &e->func));
  }
  return 0;
}

/* A stream, event or context handle of device 1's default context after
 * device 1 was reset.  Leaves ctx0 current.  which: 0 stream, 1 event, 2 context. */
static int make_reset_handle(mx_env *e, int which, void **out) {
  OK(aclrtSetDevice(1));
  if (which == 0) {
    aclrtStream s;
    OK(aclrtCreateStream(&s));
    *out = s;
  } else if (which == 1) {
    aclrtEvent ev;
    OK(aclrtCreateEvent(&ev));
    *out = ev;
  } else {
    aclrtContext c;
    OK(aclrtGetCurrentContext(&c));
    *out = c;
  }
  OK(aclrtResetDevice(1));
  OK(aclrtSetCurrentContext(e->ctx0));
  return 0;
}

/* -- streams -- */

static int make_bad_stream(mx_env *e, int kind, aclrtStream *out) {
  switch (kind) {
  case BAD_DESTROYED: {
    aclrtStream s;
    OK(aclrtCreateStream(&s));
    OK(aclrtDestroyStream(s));
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

typedef struct stream_fn {
  const char *api;
  int kernel;
  int (*call)(mx_env *e, aclrtStream s);
} stream_fn;

static int sf_sync(mx_env *e, aclrtStream s) { (void)e; return aclrtSynchronizeStream(s); }
static int sf_sync_to(mx_env *e, aclrtStream s) { (void)e; return aclrtSynchronizeStreamWithTimeout(s, 100); }
static int sf_query(mx_env *e, aclrtStream s) {
  (void)e;
  aclrtStreamStatus st;
  return aclrtStreamQuery(s, &st);
}
static int sf_failmode(mx_env *e, aclrtStream s) { (void)e; return aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE); }
static int sf_prio(mx_env *e, aclrtStream s) {
  (void)e;
  uint32_t p;
  return aclrtStreamGetPriority(s, &p);
}
static int sf_flags(mx_env *e, aclrtStream s) {
  (void)e;
  uint32_t f;
  return aclrtStreamGetFlags(s, &f);
}
static int sf_id(mx_env *e, aclrtStream s) {
  (void)e;
  int32_t id;
  return aclrtStreamGetId(s, &id);
}
static int sf_destroy(mx_env *e, aclrtStream s) { (void)e; return aclrtDestroyStream(s); }
static int sf_destroy_force(mx_env *e, aclrtStream s) { (void)e; return aclrtDestroyStreamForce(s); }
static int sf_record(mx_env *e, aclrtStream s) { return aclrtRecordEvent(e->event, s); }
static int sf_reset_event(mx_env *e, aclrtStream s) { return aclrtResetEvent(e->event, s); }
static int sf_wait_event(mx_env *e, aclrtStream s) { return aclrtStreamWaitEvent(s, e->event); }
static int sf_memcpy_async(mx_env *e, aclrtStream s) {
  return aclrtMemcpyAsync(e->dev, 4096, e->pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, s);
}
static int sf_memset_async(mx_env *e, aclrtStream s) { return aclrtMemsetAsync(e->dev, 4096, 0, 64, s); }
static int sf_memset_d32_async(mx_env *e, aclrtStream s) { return aclrtMemsetD32Async(e->dev, 4096, 7, 16, s); }
static int sf_memcpy2d_async(mx_env *e, aclrtStream s) {
  return aclrtMemcpy2dAsync(e->dev, 64, e->pinned, 64, 32, 4, ACL_MEMCPY_HOST_TO_DEVICE, s);
}
static int sf_host_func(mx_env *e, aclrtStream s) { (void)e; return aclrtLaunchHostFunc(s, noop_cb, NULL); }
static int sf_callback(mx_env *e, aclrtStream s) {
  (void)e;
  return aclrtLaunchCallback(noop_cb, NULL, ACL_CALLBACK_BLOCK, s);
}
static int sf_subscribe(mx_env *e, aclrtStream s) {
  (void)e;
  return aclrtSubscribeReport((uint64_t)pthread_self(), s);
}
static int sf_unsubscribe(mx_env *e, aclrtStream s) {
  (void)e;
  return aclrtUnSubscribeReport((uint64_t)pthread_self(), s);
}
static int sf_launch(mx_env *e, aclrtStream s) { return aclrtLaunchKernel(e->func, 1, NULL, 0, s); }
static int sf_launch_host_args(mx_env *e, aclrtStream s) {
  return aclrtLaunchKernelWithHostArgs(e->func, 1, s, NULL, NULL, 0, NULL, 0);
}

static const stream_fn stream_fns[] = {
    {"aclrtSynchronizeStream", 0, sf_sync},
    {"aclrtSynchronizeStreamWithTimeout", 0, sf_sync_to},
    {"aclrtStreamQuery", 0, sf_query},
    {"aclrtSetStreamFailureMode", 0, sf_failmode},
    {"aclrtStreamGetPriority", 0, sf_prio},
    {"aclrtStreamGetFlags", 0, sf_flags},
    {"aclrtStreamGetId", 0, sf_id},
    {"aclrtDestroyStream", 0, sf_destroy},
    {"aclrtDestroyStreamForce", 0, sf_destroy_force},
    {"aclrtRecordEvent", 0, sf_record},
    {"aclrtResetEvent", 0, sf_reset_event},
    {"aclrtStreamWaitEvent", 0, sf_wait_event},
    {"aclrtMemcpyAsync", 0, sf_memcpy_async},
    {"aclrtMemsetAsync", 0, sf_memset_async},
    {"aclrtMemsetD32Async", 0, sf_memset_d32_async},
    {"aclrtMemcpy2dAsync", 0, sf_memcpy2d_async},
    {"aclrtLaunchHostFunc", 0, sf_host_func},
    {"aclrtLaunchCallback", 0, sf_callback},
    {"aclrtSubscribeReport", 0, sf_subscribe},
    {"aclrtUnSubscribeReport", 0, sf_unsubscribe},
    {"aclrtLaunchKernel", 1, sf_launch},
    {"aclrtLaunchKernelWithHostArgs", 1, sf_launch_host_args},
};
#define N_STREAM_FNS (sizeof(stream_fns) / sizeof(stream_fns[0]))

static int run_stream_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e, stream_fns[fn].kernel) != 0)
    return 1;
  aclrtStream bad = NULL;
  if (make_bad_stream(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_RT_STREAM_CONTEXT : ACL_ERROR_RT_INVALID_HANDLE;
  MISUSE(stream_fns[fn].call(&e, bad), want, stream_fns[fn].api);
  /* the good objects are untouched */
  OK(aclrtRecordEvent(e.event, e.stream));
  OK(aclrtSynchronizeStream(e.stream));
  OK(aclrtSynchronizeEvent(e.event));
  return finish();
}

/* -- events -- */

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

typedef struct event_fn {
  const char *api;
  int (*call)(mx_env *e, aclrtEvent ev);
} event_fn;

static int ef_destroy(mx_env *e, aclrtEvent ev) { (void)e; return aclrtDestroyEvent(ev); }
static int ef_record(mx_env *e, aclrtEvent ev) { return aclrtRecordEvent(ev, e->stream); }
static int ef_reset(mx_env *e, aclrtEvent ev) { return aclrtResetEvent(ev, e->stream); }
static int ef_wait(mx_env *e, aclrtEvent ev) { return aclrtStreamWaitEvent(e->stream, ev); }
static int ef_query_status(mx_env *e, aclrtEvent ev) {
  (void)e;
  aclrtEventRecordedStatus st;
  return aclrtQueryEventStatus(ev, &st);
}
static int ef_query(mx_env *e, aclrtEvent ev) {
  (void)e;
  aclrtEventStatus st;
  return aclrtQueryEvent(ev, &st);
}
static int ef_query_wait(mx_env *e, aclrtEvent ev) {
  (void)e;
  aclrtEventWaitStatus st;
  return aclrtQueryEventWaitStatus(ev, &st);
}
static int ef_sync(mx_env *e, aclrtEvent ev) { (void)e; return aclrtSynchronizeEvent(ev); }
static int ef_sync_to(mx_env *e, aclrtEvent ev) { (void)e; return aclrtSynchronizeEventWithTimeout(ev, 100); }
static int ef_elapsed_start(mx_env *e, aclrtEvent ev) {
  float ms;
  return aclrtEventElapsedTime(&ms, ev, e->event);
}
static int ef_elapsed_end(mx_env *e, aclrtEvent ev) {
  float ms;
  return aclrtEventElapsedTime(&ms, e->event, ev);
}
static int ef_timestamp(mx_env *e, aclrtEvent ev) {
  (void)e;
  uint64_t ts;
  return aclrtEventGetTimestamp(ev, &ts);
}

static const event_fn event_fns[] = {
    {"aclrtDestroyEvent", ef_destroy},
    {"aclrtRecordEvent", ef_record},
    {"aclrtResetEvent", ef_reset},
    {"aclrtStreamWaitEvent", ef_wait},
    {"aclrtQueryEventStatus", ef_query_status},
    {"aclrtQueryEvent", ef_query},
    {"aclrtQueryEventWaitStatus", ef_query_wait},
    {"aclrtSynchronizeEvent", ef_sync},
    {"aclrtSynchronizeEventWithTimeout", ef_sync_to},
    {"aclrtEventElapsedTime", ef_elapsed_start},
    {"aclrtEventElapsedTime", ef_elapsed_end},
    {"aclrtEventGetTimestamp", ef_timestamp},
};
static const char *const event_fn_names[] = {
    "aclrtDestroyEvent",     "aclrtRecordEvent",      "aclrtResetEvent",
    "aclrtStreamWaitEvent",  "aclrtQueryEventStatus", "aclrtQueryEvent",
    "aclrtQueryEventWaitStatus", "aclrtSynchronizeEvent", "aclrtSynchronizeEventWithTimeout",
    "aclrtEventElapsedTime_start", "aclrtEventElapsedTime_end", "aclrtEventGetTimestamp",
};
#define N_EVENT_FNS (sizeof(event_fns) / sizeof(event_fns[0]))

static int run_event_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e, 0) != 0)
    return 1;
  aclrtEvent bad = NULL;
  if (make_bad_event(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_INVALID_HANDLE;
  MISUSE(event_fns[fn].call(&e, bad), want, event_fns[fn].api);
  OK(aclrtRecordEvent(e.event, e.stream));
  OK(aclrtSynchronizeEvent(e.event));
  OK(aclrtSynchronizeStream(e.stream));
  return finish();
}

/* -- contexts -- */

static int make_bad_context(mx_env *e, int kind, aclrtContext *out) {
  switch (kind) {
  case BAD_DESTROYED: {
    aclrtContext c;
    OK(aclrtCreateContext(&c, 0));
    OK(aclrtDestroyContext(c));
    OK(aclrtSetCurrentContext(e->ctx0));
    *out = c;
    return 0;
  }
  case BAD_GARBAGE: *out = (aclrtContext)(uintptr_t)0x1234; return 0;
  case BAD_STACK: *out = &e->stack_int; return 0;
  case BAD_WRONG_TYPE_A: *out = e->stream; return 0;
  case BAD_WRONG_TYPE_B: *out = e->event; return 0;
  case BAD_FOREIGN: *out = NULL; return 0;
  case BAD_RESET: return make_reset_handle(e, 2, out);
  default: return 1;
  }
}

static int run_context_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e, 0) != 0)
    return 1;
  aclrtContext bad = NULL;
  if (make_bad_context(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_INVALID_HANDLE;
  if (fn == 0)
    MISUSE(aclrtDestroyContext(bad), want, "aclrtDestroyContext");
  else
    MISUSE(aclrtSetCurrentContext(bad), want, "aclrtSetCurrentContext");
  /* the current context is still ctx0 */
  aclrtContext cur = NULL;
  OK(aclrtGetCurrentContext(&cur));
  REQUIRE(cur == e.ctx0);
  OK(aclrtSynchronizeStream(e.stream));
  return finish();
}

/* ==== written-out cases ===================================================== */

/* ---- streams ---- */

static int st_destroy_null(void) {
  if (up()) return 1;
  MISUSE(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
  return finish();
}

static int st_destroy_force_null(void) {
  if (up()) return 1;
  MISUSE(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce");
  return finish();
}

static int st_destroy_default_by_handle(void) {
  if (up()) return 1;
  aclrtStream d;
  OK(aclrtCtxGetCurrentDefaultStream(&d));
  MISUSE(aclrtDestroyStream(d), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
  OK(aclrtSynchronizeStream(d));
  return finish();
}

static int st_destroy_force_default_by_handle(void) {
  if (up()) return 1;
  aclrtStream d;
  OK(aclrtCtxGetCurrentDefaultStream(&d));
  MISUSE(aclrtDestroyStreamForce(d), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce");
  OK(aclrtSynchronizeStream(NULL));
  return finish();
}

static int st_create_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream");
  return finish();
}

static int st_create_config_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig");
  return finish();
}

static int st_create_priority_8(void) {
  if (up()) return 1;
  aclrtStream s;
  MISUSE(aclrtCreateStreamWithConfig(&s, 8, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig");
  return finish();
}

static int st_create_unknown_flag(void) {
  if (up()) return 1;
  aclrtStream s;
  MISUSE(aclrtCreateStreamWithConfig(&s, 0, 0x40000000u), ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig");
  return finish();
}

static int st_failure_mode_default_stream(void) {
  if (up()) return 1;
  MISUSE(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode");
  return finish();
}

static int st_failure_mode_bad_value(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  MISUSE(aclrtSetStreamFailureMode(s, 7), ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode");
  OK(aclrtDestroyStream(s));
  return finish();
}

static int st_query_null_status(void) {
  if (up()) return 1;
  MISUSE(aclrtStreamQuery(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery");
  return finish();
}

static int st_get_priority_null(void) {
  if (up()) return 1;
  MISUSE(aclrtStreamGetPriority(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetPriority");
  return finish();
}

static int st_get_flags_null(void) {
  if (up()) return 1;
  MISUSE(aclrtStreamGetFlags(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetFlags");
  return finish();
}

static int st_get_id_null(void) {
  if (up()) return 1;
  MISUSE(aclrtStreamGetId(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId");
  return finish();
}

static int st_sync_timeout_below_minus_one(void) {
  if (up()) return 1;
  MISUSE(aclrtSynchronizeStreamWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSynchronizeStreamWithTimeout");
  return finish();
}

static int st_sync_timeout_expires(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  MISUSE(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
         "aclrtSynchronizeStreamWithTimeout");
  atomic_store(&g.open, 1);
  OK(aclrtSynchronizeStream(s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int st_destroy_via_destroyed_context(void) {
  /* a stream of a context that was destroyed is gone with it */
  if (up()) return 1;
  aclrtContext def, c;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtCreateContext(&c, 0));
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  OK(aclrtDestroyContext(c));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream");
  return finish();
}

static int st_sync_stream_of_other_device_context(void) {
  if (up()) return 1;
  aclrtContext def;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtSetDevice(1));
  aclrtStream s1;
  OK(aclrtCreateStream(&s1));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtSynchronizeStream(s1), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtSynchronizeStream");
  OK(aclrtSetDevice(1));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtDestroyStream(s1));
  OK(aclrtResetDevice(1));
  OK(aclrtResetDevice(1));
  return finish();
}

static int st_stream_of_user_context_same_device(void) {
  /* two contexts on one device: a stream of one is foreign to the other */
  if (up()) return 1;
  aclrtContext def, c;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtCreateContext(&c, 0));
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtStreamQuery(s, &(aclrtStreamStatus){0}), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtStreamQuery");
  OK(aclrtDestroyContext(c));
  OK(aclrtSetCurrentContext(def));
  return finish();
}

static int st_default_stream_of_other_context(void) {
  if (up()) return 1;
  aclrtContext def, c;
  aclrtStream d1;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtCreateContext(&c, 1));
  OK(aclrtCtxGetCurrentDefaultStream(&d1));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtLaunchHostFunc(d1, noop_cb, NULL), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtLaunchHostFunc");
  OK(aclrtDestroyContext(c));
  OK(aclrtSetCurrentContext(def));
  return finish();
}

/* ---- events ---- */

static int ev_create_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent");
  return finish();
}

static int ev_create_flag_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag");
  return finish();
}

static int ev_create_unknown_flag(void) {
  if (up()) return 1;
  aclrtEvent e;
  MISUSE(aclrtCreateEventWithFlag(&e, 0x80000000u), ACL_ERROR_INVALID_PARAM, "aclrtCreateEventWithFlag");
  return finish();
}

static int ev_create_ex_unknown_flag(void) {
  if (up()) return 1;
  aclrtEvent e;
  MISUSE(aclrtCreateEventExWithFlag(&e, 0x80000000u), ACL_ERROR_INVALID_PARAM, "aclrtCreateEventExWithFlag");
  return finish();
}

static int ev_elapsed_unrecorded_start(void) {
  if (up()) return 1;
  aclrtEvent a, b;
  OK(aclrtCreateEvent(&a));
  OK(aclrtCreateEvent(&b));
  OK(aclrtRecordEvent(b, NULL));
  OK(aclrtSynchronizeEvent(b));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventElapsedTime");
  OK(aclrtDestroyEvent(a));
  OK(aclrtDestroyEvent(b));
  return finish();
}

static int ev_elapsed_unrecorded_end(void) {
  if (up()) return 1;
  aclrtEvent a, b;
  OK(aclrtCreateEvent(&a));
  OK(aclrtCreateEvent(&b));
  OK(aclrtRecordEvent(a, NULL));
  OK(aclrtSynchronizeEvent(a));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventElapsedTime");
  OK(aclrtDestroyEvent(a));
  OK(aclrtDestroyEvent(b));
  return finish();
}

static int ev_elapsed_both_unrecorded(void) {
  if (up()) return 1;
  aclrtEvent a, b;
  OK(aclrtCreateEvent(&a));
  OK(aclrtCreateEvent(&b));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventElapsedTime");
  return finish();
}

static int ev_elapsed_without_time_line(void) {
  if (up()) return 1;
  aclrtEvent a, b;
  OK(aclrtCreateEventWithFlag(&a, ACL_EVENT_SYNC));
  OK(aclrtCreateEventWithFlag(&b, ACL_EVENT_SYNC));
  OK(aclrtRecordEvent(a, NULL));
  OK(aclrtRecordEvent(b, NULL));
  OK(aclrtSynchronizeStream(NULL));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventElapsedTime");
  return finish();
}

static int ev_elapsed_reversed(void) {
  if (up()) return 1;
  aclrtEvent a, b;
  OK(aclrtCreateEvent(&a));
  OK(aclrtCreateEvent(&b));
  OK(aclrtRecordEvent(b, NULL));
  OK(aclrtSynchronizeStream(NULL));
  struct timespec ts = {0, 2000000};
  nanosleep(&ts, NULL);
  OK(aclrtRecordEvent(a, NULL));
  OK(aclrtSynchronizeStream(NULL));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, "aclrtEventElapsedTime");
  return finish();
}

static int ev_elapsed_not_complete(void) {
  if (up()) return 1;
  aclrtStream s;
  aclrtEvent a, b;
  OK(aclrtCreateStream(&s));
  OK(aclrtCreateEvent(&a));
  OK(aclrtCreateEvent(&b));
  OK(aclrtRecordEvent(a, s));
  OK(aclrtSynchronizeEvent(a));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  OK(aclrtRecordEvent(b, s));
  float ms;
  MISUSE(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_NOT_COMPLETE, "aclrtEventElapsedTime");
  atomic_store(&g.open, 1);
  OK(aclrtSynchronizeStream(s));
  OK(aclrtEventElapsedTime(&ms, a, b));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int ev_elapsed_null_ms(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtEventElapsedTime(NULL, a, a), ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime");
  return finish();
}

static int ev_timestamp_unrecorded(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  uint64_t ts;
  MISUSE(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "aclrtEventGetTimestamp");
  return finish();
}

static int ev_timestamp_null(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtEventGetTimestamp(a, NULL), ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp");
  return finish();
}

static int ev_reset_ex_event(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEventExWithFlag(&a, ACL_EVENT_SYNC));
  MISUSE(aclrtResetEvent(a, NULL), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtResetEvent");
  OK(aclrtRecordEvent(a, NULL));
  OK(aclrtSynchronizeEvent(a));
  OK(aclrtDestroyEvent(a));
  return finish();
}

static int ev_query_ex_event(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEventExWithFlag(&a, ACL_EVENT_SYNC));
  aclrtEventStatus st;
  MISUSE(aclrtQueryEvent(a, &st), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtQueryEvent");
  return finish();
}

static int ev_query_wait_status_ex_event(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEventExWithFlag(&a, ACL_EVENT_SYNC));
  aclrtEventWaitStatus st;
  MISUSE(aclrtQueryEventWaitStatus(a, &st), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtQueryEventWaitStatus");
  return finish();
}

static int ev_query_status_null(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtQueryEventStatus(a, NULL), ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus");
  return finish();
}

static int ev_query_null(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtQueryEvent(a, NULL), ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent");
  return finish();
}

static int ev_query_wait_status_null(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtQueryEventWaitStatus(a, NULL), ACL_ERROR_INVALID_PARAM, "aclrtQueryEventWaitStatus");
  return finish();
}

static int ev_sync_timeout_below_minus_one(void) {
  if (up()) return 1;
  aclrtEvent a;
  OK(aclrtCreateEvent(&a));
  MISUSE(aclrtSynchronizeEventWithTimeout(a, -2), ACL_ERROR_RT_PARAM_INVALID, "aclrtSynchronizeEventWithTimeout");
  return finish();
}

static int ev_sync_timeout_expires(void) {
  if (up()) return 1;
  aclrtStream s;
  aclrtEvent a;
  OK(aclrtCreateStream(&s));
  OK(aclrtCreateEvent(&a));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  OK(aclrtRecordEvent(a, s));
  MISUSE(aclrtSynchronizeEventWithTimeout(a, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "aclrtSynchronizeEventWithTimeout");
  atomic_store(&g.open, 1);
  OK(aclrtSynchronizeEvent(a));
  OK(aclrtDestroyStream(s));
  return finish();
}

/* An event of another context (device 1) used on a stream of this one. */
static int foreign_event(aclrtContext *def, aclrtContext *c1, aclrtEvent *ev) {
  OK(aclrtGetCurrentContext(def));
  OK(aclrtCreateContext(c1, 1));
  OK(aclrtCreateEvent(ev));
  OK(aclrtSetCurrentContext(*def));
  return 0;
}

static int ev_record_foreign_event(void) {
  if (up()) return 1;
  aclrtContext def, c1;
  aclrtEvent ev;
  if (foreign_event(&def, &c1, &ev)) return 1;
  MISUSE(aclrtRecordEvent(ev, NULL), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtRecordEvent");
  return finish();
}

static int ev_reset_foreign_event(void) {
  if (up()) return 1;
  aclrtContext def, c1;
  aclrtEvent ev;
  if (foreign_event(&def, &c1, &ev)) return 1;
  MISUSE(aclrtResetEvent(ev, NULL), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtResetEvent");
  return finish();
}

static int ev_wait_foreign_event(void) {
  if (up()) return 1;
  aclrtContext def, c1;
  aclrtEvent ev;
  if (foreign_event(&def, &c1, &ev)) return 1;
  MISUSE(aclrtStreamWaitEvent(NULL, ev), ACL_ERROR_RT_STREAM_CONTEXT, "aclrtStreamWaitEvent");
  return finish();
}

static int ev_record_event_of_destroyed_context(void) {
  if (up()) return 1;
  aclrtContext def, c;
  aclrtEvent ev;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtCreateContext(&c, 0));
  OK(aclrtCreateEvent(&ev));
  OK(aclrtDestroyContext(c));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtRecordEvent(ev, NULL), ACL_ERROR_RT_INVALID_HANDLE, "aclrtRecordEvent");
  return finish();
}

static int ev_destroy_twice_with_record_in_flight(void) {
  if (up()) return 1;
  aclrtStream s;
  aclrtEvent ev;
  OK(aclrtCreateStream(&s));
  OK(aclrtCreateEvent(&ev));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  OK(aclrtRecordEvent(ev, s));
  OK(aclrtDestroyEvent(ev)); /* allowed with a record in flight */
  MISUSE(aclrtDestroyEvent(ev), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyEvent");
  atomic_store(&g.open, 1);
  OK(aclrtSynchronizeStream(s));
  OK(aclrtDestroyStream(s));
  return finish();
}

/* ---- contexts ---- */

static int ctx_destroy_default(void) {
  if (up()) return 1;
  aclrtContext def;
  OK(aclrtGetCurrentContext(&def));
  MISUSE(aclrtDestroyContext(def), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyContext");
  OK(aclrtSynchronizeStream(NULL));
  return finish();
}

static int ctx_create_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext");
  return finish();
}

static int ctx_create_negative_device(void) {
  if (up()) return 1;
  aclrtContext c;
  MISUSE(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext");
  return finish();
}

static int ctx_create_device_too_large(void) {
  if (up()) return 1;
  aclrtContext c;
  MISUSE(aclrtCreateContext(&c, 2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext");
  return finish();
}

static int ctx_get_current_null(void) {
  if (up()) return 1;
  MISUSE(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext");
  return finish();
}

static int ctx_default_stream_null(void) {
  if (up()) return 1;
  MISUSE(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCtxGetCurrentDefaultStream");
  return finish();
}

static int ctx_primary_state_null(void) {
  if (up()) return 1;
  int32_t active;
  MISUSE(aclrtGetPrimaryCtxState(0, NULL, &active), ACL_ERROR_INVALID_PARAM, "aclrtGetPrimaryCtxState");
  return finish();
}

static int ctx_primary_state_bad_device(void) {
  if (up()) return 1;
  uint32_t flags;
  int32_t active;
  MISUSE(aclrtGetPrimaryCtxState(7, &flags, &active), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetPrimaryCtxState");
  return finish();
}

static int ctx_destroy_current_then_create_stream(void) {
  if (up()) return 1;
  aclrtContext c;
  OK(aclrtCreateContext(&c, 0));
  OK(aclrtDestroyContext(c));
  aclrtStream s;
  MISUSE(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
  return finish();
}

typedef struct ctx_share {
  aclrtContext ctx;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int step;
} ctx_share;

static void share_step(ctx_share *sh, int to) {
  pthread_mutex_lock(&sh->lock);
  sh->step = to;
  pthread_cond_broadcast(&sh->cond);
  pthread_mutex_unlock(&sh->lock);
}

static void share_wait(ctx_share *sh, int at_least) {
  pthread_mutex_lock(&sh->lock);
  while (sh->step < at_least)
    pthread_cond_wait(&sh->cond, &sh->lock);
  pthread_mutex_unlock(&sh->lock);
}

static int ctx_user_thread(void *p) {
  ctx_share *sh = p;
  if (aclrtSetCurrentContext(sh->ctx) != 0) {
    share_step(sh, 1);
    return 1;
  }
  share_step(sh, 1);
  share_wait(sh, 2); /* the main thread destroys the context */
  aclrtStream s;
  MISUSE(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
  return 0;
}

static void *ctx_user_thread_main(void *p) { return (void *)(intptr_t)ctx_user_thread(p); }

static int ctx_destroyed_by_other_thread_reads_as_none(void) {
  if (up()) return 1;
  aclrtContext def;
  OK(aclrtGetCurrentContext(&def));
  ctx_share sh = {NULL, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
  OK(aclrtCreateContext(&sh.ctx, 0));
  OK(aclrtSetCurrentContext(def));
  pthread_t t;
  REQUIRE(pthread_create(&t, NULL, ctx_user_thread_main, &sh) == 0);
  share_wait(&sh, 1);
  int drc = aclrtDestroyContext(sh.ctx);
  share_step(&sh, 2);
  void *ret = NULL;
  pthread_join(t, &ret);
  OK(drc);
  REQUIRE(ret == NULL);
  return finish();
}

/* ---- devices ---- */

#define DEVICE_CASE(fname, call, want, api)                                    \
  static int fname(void) {                                                     \
    if (up()) return 1;                                                        \
    MISUSE(call, want, api);                                                   \
    return finish();                                                           \
  }

DEVICE_CASE(dev_set_negative, aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice")
DEVICE_CASE(dev_set_count, aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice")
DEVICE_CASE(dev_set_int_max, aclrtSetDevice(INT32_MAX), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice")
DEVICE_CASE(dev_set_int_min, aclrtSetDevice(INT32_MIN), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice")
DEVICE_CASE(dev_reset_negative, aclrtResetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice")
DEVICE_CASE(dev_reset_too_large, aclrtResetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice")
DEVICE_CASE(dev_reset_force_negative, aclrtResetDeviceForce(-3), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtResetDeviceForce")
DEVICE_CASE(dev_reset_not_set, aclrtResetDevice(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDevice")
DEVICE_CASE(dev_reset_force_not_set, aclrtResetDeviceForce(1), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
            "aclrtResetDeviceForce")
DEVICE_CASE(dev_info_bad_device, aclrtGetDeviceInfo(9, ACL_DEV_ATTR_AICORE_CORE_NUM, &(int64_t){0}),
            ACL_ERROR_RT_INVALID_DEVICEID, "aclrtGetDeviceInfo")
DEVICE_CASE(dev_info_null_value, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceInfo")
DEVICE_CASE(dev_info_bad_attr, aclrtGetDeviceInfo(0, (aclrtDevAttr)123456, &(int64_t){0}), ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceInfo")
DEVICE_CASE(dev_capability_bad_device, aclGetDeviceCapability(5, ACL_DEVICE_INFO_AI_CORE_NUM, &(int64_t){0}),
            ACL_ERROR_RT_INVALID_DEVICEID, "aclGetDeviceCapability")
DEVICE_CASE(dev_query_status_negative, aclrtQueryDeviceStatus(-1, &(aclrtDeviceStatus){0}),
            ACL_ERROR_RT_INVALID_DEVICEID, "aclrtQueryDeviceStatus")
DEVICE_CASE(dev_query_status_null, aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus")
DEVICE_CASE(dev_can_access_peer_self, aclrtDeviceCanAccessPeer(&(int32_t){0}, 0, 0), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceCanAccessPeer")
DEVICE_CASE(dev_can_access_peer_bad_peer, aclrtDeviceCanAccessPeer(&(int32_t){0}, 0, 7), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtDeviceCanAccessPeer")
DEVICE_CASE(dev_can_access_peer_null, aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceCanAccessPeer")
DEVICE_CASE(dev_enable_peer_self, aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceEnablePeerAccess")
DEVICE_CASE(dev_enable_peer_flags, aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceEnablePeerAccess")
DEVICE_CASE(dev_enable_peer_bad_device, aclrtDeviceEnablePeerAccess(7, 0), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtDeviceEnablePeerAccess")
DEVICE_CASE(dev_disable_peer_not_enabled, aclrtDeviceDisablePeerAccess(1), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtDeviceDisablePeerAccess")
DEVICE_CASE(dev_disable_peer_bad_device, aclrtDeviceDisablePeerAccess(-1), ACL_ERROR_RT_INVALID_DEVICEID,
            "aclrtDeviceDisablePeerAccess")
DEVICE_CASE(dev_get_device_null, aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice")
DEVICE_CASE(dev_get_count_null, aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount")
DEVICE_CASE(dev_sync_timeout_below_minus_one, aclrtSynchronizeDeviceWithTimeout(-5), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtSynchronizeDeviceWithTimeout")
DEVICE_CASE(dev_priority_range_null, aclrtDeviceGetStreamPriorityRange(NULL, &(int32_t){0}), ACL_ERROR_INVALID_PARAM,
            "aclrtDeviceGetStreamPriorityRange")

static int dev_reset_twice(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  MISUSE(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDevice");
  return finish();
}

static int dev_get_device_after_reset(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  int32_t id;
  MISUSE(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
  return finish();
}

static int dev_create_stream_after_reset(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  aclrtStream s;
  MISUSE(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
  return finish();
}

static int dev_sync_device_after_reset(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  MISUSE(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice");
  return finish();
}

static int dev_stream_after_force_reset(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  OK(aclrtSetDevice(0));
  OK(aclrtResetDeviceForce(0));
  OK(aclrtSetDevice(0));
  MISUSE(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeStream");
  OK(aclrtResetDevice(0));
  return finish();
}

/* ---- memory ---- */

static int mem_malloc_null(void) {
  if (up()) return 1;
  MISUSE(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
  return finish();
}

static int mem_malloc_size_zero(void) {
  if (up()) return 1;
  void *p;
  MISUSE(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
  return finish();
}

static int mem_malloc_align32_size_zero(void) {
  if (up()) return 1;
  void *p;
  MISUSE(aclrtMallocAlign32(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMallocAlign32");
  return finish();
}

static int mem_malloc_cached_null(void) {
  if (up()) return 1;
  MISUSE(aclrtMallocCached(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMallocCached");
  return finish();
}

static int mem_malloc_size_overflow(void) {
  if (up()) return 1;
  void *p;
  MISUSE(aclrtMalloc(&p, SIZE_MAX - 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
  return finish();
}

static int mem_malloc_over_capacity(void) {
  if (up()) return 1;
  void *p;
  size_t total = 0, free_b = 0;
  OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
  MISUSE(aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc");
  return finish();
}

static int mem_malloc_cfg_attrs_null(void) {
  if (up()) return 1;
  void *p;
  aclrtMallocConfig cfg = {NULL, 2};
  MISUSE(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM, "aclrtMallocWithCfg");
  return finish();
}

static int mem_malloc_cfg_bad_device(void) {
  if (up()) return 1;
  void *p;
  aclrtMallocAttribute at;
  memset(&at, 0, sizeof(at));
  at.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  at.value.deviceId = 9;
  aclrtMallocConfig cfg = {&at, 1};
  MISUSE(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_INVALID_DEVICEID,
         "aclrtMallocWithCfg");
  return finish();
}

static int mem_malloc_cfg_unknown_attr(void) {
  if (up()) return 1;
  void *p;
  aclrtMallocAttribute at;
  memset(&at, 0, sizeof(at));
  at.attr = (aclrtMallocAttrType)77;
  aclrtMallocConfig cfg = {&at, 1};
  MISUSE(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM, "aclrtMallocWithCfg");
  return finish();
}

static int mem_malloc_cfg_closed_device(void) {
  /* device 1 exists but is not open: no context there */
  if (up()) return 1;
  void *p;
  aclrtMallocAttribute at;
  memset(&at, 0, sizeof(at));
  at.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  at.value.deviceId = 1;
  aclrtMallocConfig cfg = {&at, 1};
  MISUSE(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMallocWithCfg");
  return finish();
}

static int mem_free_null(void) {
  if (up()) return 1;
  MISUSE(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFree");
  return finish();
}

static int mem_free_twice(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtFree(p));
  MISUSE(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  return finish();
}

static int mem_free_heap_pointer(void) {
  if (up()) return 1;
  void *h = malloc(64);
  REQUIRE(h != NULL);
  MISUSE(aclrtFree(h), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  free(h);
  return finish();
}

static int mem_free_stack_pointer(void) {
  if (up()) return 1;
  int local = 0;
  MISUSE(aclrtFree(&local), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  return finish();
}

static int mem_free_garbage_pointer(void) {
  if (up()) return 1;
  MISUSE(aclrtFree((void *)(uintptr_t)0x1234), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  return finish();
}

static int mem_free_interior(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMalloc(&p, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtFree((char *)p + 64), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  OK(aclrtFree(p));
  return finish();
}

static int mem_free_pinned_with_aclrtFree(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMallocHost(&p, 256));
  MISUSE(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  OK(aclrtFreeHost(p));
  return finish();
}

static int mem_free_after_device_reset(void) {
  if (up()) return 1;
  aclrtContext def;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtSetDevice(1));
  void *p;
  OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtResetDevice(1));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree");
  return finish();
}

static int mem_free_with_dev_sync_null(void) {
  if (up()) return 1;
  MISUSE(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeWithDevSync");
  return finish();
}

static int mem_free_with_dev_sync_host(void) {
  if (up()) return 1;
  int local;
  MISUSE(aclrtFreeWithDevSync(&local), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeWithDevSync");
  return finish();
}

static int mem_free_host_null(void) {
  if (up()) return 1;
  MISUSE(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost");
  return finish();
}

static int mem_free_host_twice(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMallocHost(&p, 256));
  OK(aclrtFreeHost(p));
  MISUSE(aclrtFreeHost(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeHost");
  return finish();
}

static int mem_free_host_device_pointer(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtFreeHost(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeHost");
  OK(aclrtFree(p));
  return finish();
}

static int mem_free_host_heap_pointer(void) {
  if (up()) return 1;
  void *h = malloc(64);
  REQUIRE(h != NULL);
  MISUSE(aclrtFreeHost(h), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeHost");
  free(h);
  return finish();
}

static int mem_free_host_interior(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMallocHost(&p, 8192));
  MISUSE(aclrtFreeHost((char *)p + 100), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeHost");
  OK(aclrtFreeHost(p));
  return finish();
}

static int mem_free_host_with_dev_sync_device_pointer(void) {
  if (up()) return 1;
  void *p;
  OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtFreeHostWithDevSync(p), ACL_ERROR_RT_MEMORY_FREE, "aclrtFreeHostWithDevSync");
  OK(aclrtFree(p));
  return finish();
}

static int mem_malloc_host_null(void) {
  if (up()) return 1;
  MISUSE(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
  return finish();
}

static int mem_malloc_host_size_zero(void) {
  if (up()) return 1;
  void *p;
  MISUSE(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
  return finish();
}

static int mem_malloc_host_cfg_size_zero(void) {
  if (up()) return 1;
  void *p;
  MISUSE(aclrtMallocHostWithCfg(&p, 0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtMallocHostWithCfg");
  return finish();
}

/* Copies: a device buffer of 256 bytes and host buffers. */
#define MEMCPY_CASE(fname, call, want, api)                                    \
  static int fname(void) {                                                     \
    if (up()) return 1;                                                        \
    void *dev = NULL, *dev2 = NULL, *pin = NULL;                               \
    unsigned char host[512], host2[512];                                       \
    memset(host, 1, sizeof(host));                                             \
    OK(aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST));                     \
    OK(aclrtMalloc(&dev2, 256, ACL_MEM_MALLOC_HUGE_FIRST));                    \
    OK(aclrtMallocHost(&pin, 256));                                            \
    (void)host2;                                                               \
    MISUSE(call, want, api);                                                   \
    OK(aclrtMemcpy(dev, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE));           \
    OK(aclrtFree(dev));                                                        \
    OK(aclrtFree(dev2));                                                       \
    OK(aclrtFreeHost(pin));                                                    \
    return finish();                                                           \
  }

MEMCPY_CASE(mem_memcpy_dst_null, aclrtMemcpy(NULL, 256, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_src_null, aclrtMemcpy(dev, 256, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_kind_8, aclrtMemcpy(dev, 256, host, 64, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_kind_negative, aclrtMemcpy(dev, 256, host, 64, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_count_over_dest_max, aclrtMemcpy(dev, 64, host, 128, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_past_device_allocation, aclrtMemcpy(dev, 512, host, 512, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_past_device_allocation_interior,
            aclrtMemcpy((char *)dev + 200, 100, host, 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_read_past_device_allocation, aclrtMemcpy(host, 512, dev, 300, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_past_pinned_allocation, aclrtMemcpy(dev, 256, (char *)pin + 128, 200, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_host_pointer_as_device, aclrtMemcpy(host2, 512, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_device_pointer_as_host, aclrtMemcpy(dev, 256, dev2, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_wrong_kind_d2h_for_h2d, aclrtMemcpy(dev, 256, host, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_wrong_kind_h2h_for_d2d, aclrtMemcpy(dev, 256, dev2, 64, ACL_MEMCPY_HOST_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_pinned_as_device, aclrtMemcpy(pin, 256, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_inter_device_kind_same_device,
            aclrtMemcpy(dev, 256, dev2, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemcpy")
MEMCPY_CASE(mem_memcpy_async_host_to_host, aclrtMemcpyAsync(host2, 512, host, 64, ACL_MEMCPY_HOST_TO_HOST, NULL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtMemcpyAsync")
MEMCPY_CASE(mem_memcpy_async_kind_9, aclrtMemcpyAsync(dev, 256, host, 64, (aclrtMemcpyKind)9, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync")
MEMCPY_CASE(mem_memcpy_async_count_over_dest_max, aclrtMemcpyAsync(dev, 16, pin, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsync")
MEMCPY_CASE(mem_memcpy_async_past_allocation, aclrtMemcpyAsync(dev, 4096, pin, 257, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpyAsync")
MEMCPY_CASE(mem_memcpy2d_width_over_pitch, aclrtMemcpy2d(dev, 16, host, 64, 32, 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy2d")
MEMCPY_CASE(mem_memcpy2d_device_to_device, aclrtMemcpy2d(dev, 64, dev2, 64, 32, 2, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy2d")
MEMCPY_CASE(mem_memcpy2d_both_host, aclrtMemcpy2d(host2, 64, host, 64, 32, 2, ACL_MEMCPY_DEFAULT),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy2d")
MEMCPY_CASE(mem_memcpy2d_past_allocation, aclrtMemcpy2d(dev, 128, host, 128, 64, 3, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy2d")
MEMCPY_CASE(mem_memcpy2d_null_dst, aclrtMemcpy2d(NULL, 64, host, 64, 32, 2, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM, "aclrtMemcpy2d")
MEMCPY_CASE(mem_memset_null, aclrtMemset(NULL, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "aclrtMemset")
MEMCPY_CASE(mem_memset_count_over_max, aclrtMemset(dev, 32, 0, 64), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset")
MEMCPY_CASE(mem_memset_past_allocation, aclrtMemset((char *)dev + 128, 256, 0, 256), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemset")
MEMCPY_CASE(mem_memset_d32_over_mem_size, aclrtMemsetD32(dev, 16, 1, 8), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemsetD32")
MEMCPY_CASE(mem_memset_d32_null, aclrtMemsetD32(NULL, 16, 1, 4), ACL_ERROR_INVALID_PARAM, "aclrtMemsetD32")
MEMCPY_CASE(mem_memset_async_null, aclrtMemsetAsync(NULL, 64, 0, 64, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtMemsetAsync")
MEMCPY_CASE(mem_memset_async_past_allocation, aclrtMemsetAsync(dev, 1024, 0, 1024, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemsetAsync")
MEMCPY_CASE(mem_flush_size_zero, aclrtMemFlush(dev, 0), ACL_ERROR_INVALID_PARAM, "aclrtMemFlush")
MEMCPY_CASE(mem_flush_host_pointer, aclrtMemFlush(host, 64), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemFlush")
MEMCPY_CASE(mem_invalidate_past_allocation, aclrtMemInvalidate(dev, 4096), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtMemInvalidate")
MEMCPY_CASE(mem_invalidate_null, aclrtMemInvalidate(NULL, 64), ACL_ERROR_INVALID_PARAM, "aclrtMemInvalidate")
MEMCPY_CASE(mem_get_mem_info_null, aclrtGetMemInfo(ACL_HBM_MEM, NULL, &(size_t){0}), ACL_ERROR_INVALID_PARAM,
            "aclrtGetMemInfo")
MEMCPY_CASE(mem_pointer_attributes_null, aclrtPointerGetAttributes(NULL, &(aclrtPtrAttributes){0}),
            ACL_ERROR_INVALID_PARAM, "aclrtPointerGetAttributes")
MEMCPY_CASE(mem_pointer_attributes_null_out, aclrtPointerGetAttributes(dev, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtPointerGetAttributes")

static int mem_memcpy_freed_device_pointer(void) {
  if (up()) return 1;
  void *p, *q;
  OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMalloc(&q, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtFree(p));
  unsigned char host[64] = {0};
  MISUSE(aclrtMemcpy(p, 256, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  OK(aclrtFree(q));
  return finish();
}

static int mem_memcpy_pointer_of_reset_device(void) {
  if (up()) return 1;
  aclrtContext def;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtSetDevice(1));
  void *p;
  OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtResetDevice(1));
  OK(aclrtSetCurrentContext(def));
  unsigned char host[64];
  MISUSE(aclrtMemcpy(host, 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  return finish();
}

static int mem_memcpy_between_devices_without_peer(void) {
  if (up()) return 1;
  aclrtContext def;
  void *p0, *p1;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtMalloc(&p0, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetDevice(1));
  OK(aclrtMalloc(&p1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtMemcpy(p1, 64, p0, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  OK(aclrtFree(p0));
  OK(aclrtFree(p1));
  OK(aclrtResetDevice(1));
  return finish();
}

static int mem_memcpy_inner_kind_between_devices(void) {
  if (up()) return 1;
  aclrtContext def;
  void *p0, *p1;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtMalloc(&p0, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetDevice(1));
  OK(aclrtMalloc(&p1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetCurrentContext(def));
  OK(aclrtDeviceEnablePeerAccess(1, 0));
  MISUSE(aclrtMemcpy(p1, 64, p0, 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID, "aclrtMemcpy");
  OK(aclrtMemcpy(p1, 64, p0, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
  OK(aclrtFree(p0));
  OK(aclrtFree(p1));
  OK(aclrtResetDevice(1));
  return finish();
}

static int mem_get_mem_info_after_reset(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  size_t f, t;
  MISUSE(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetMemInfo");
  return finish();
}

static int mem_malloc_after_reset(void) {
  if (up()) return 1;
  OK(aclrtResetDevice(0));
  void *p;
  MISUSE(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc");
  return finish();
}

/* ---- callbacks ---- */

DEVICE_CASE(cb_process_report_timeout_zero, aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM, "aclrtProcessReport")
DEVICE_CASE(cb_process_report_timeout_minus_two, aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM, "aclrtProcessReport")
DEVICE_CASE(cb_process_report_unsubscribed_thread, aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE,
            "aclrtProcessReport")
DEVICE_CASE(cb_launch_callback_unsubscribed_stream, aclrtLaunchCallback(noop_cb, NULL, ACL_CALLBACK_BLOCK, NULL),
            ACL_ERROR_RT_STREAM_NO_CB_REG, "aclrtLaunchCallback")
DEVICE_CASE(cb_launch_callback_null_fn, aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback")
DEVICE_CASE(cb_launch_callback_bad_block_type, aclrtLaunchCallback(noop_cb, NULL, (aclrtCallbackBlockType)2, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback")
DEVICE_CASE(cb_subscribe_thread_zero, aclrtSubscribeReport(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtSubscribeReport")
DEVICE_CASE(cb_unsubscribe_thread_zero, aclrtUnSubscribeReport(0, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtUnSubscribeReport")
DEVICE_CASE(cb_unsubscribe_not_subscribed, aclrtUnSubscribeReport((uint64_t)pthread_self(), NULL),
            ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtUnSubscribeReport")
DEVICE_CASE(cb_launch_host_func_null_fn, aclrtLaunchHostFunc(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchHostFunc")

static int cb_subscribe_twice_same_thread(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  MISUSE(aclrtSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport");
  OK(aclrtUnSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_subscribe_to_second_thread(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  MISUSE(aclrtSubscribeReport(self + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport");
  OK(aclrtUnSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_unsubscribe_wrong_thread(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  MISUSE(aclrtUnSubscribeReport(self + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtUnSubscribeReport");
  OK(aclrtUnSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_unsubscribe_twice(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  OK(aclrtUnSubscribeReport(self, s));
  MISUSE(aclrtUnSubscribeReport(self, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtUnSubscribeReport");
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_subscribe_thread_on_two_devices(void) {
  if (up()) return 1;
  aclrtContext def, c1;
  aclrtStream s0, s1;
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtCreateStream(&s0));
  OK(aclrtSubscribeReport(self, s0));
  OK(aclrtCreateContext(&c1, 1));
  OK(aclrtCreateStream(&s1));
  MISUSE(aclrtSubscribeReport(self, s1), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtSubscribeReport");
  OK(aclrtDestroyContext(c1));
  OK(aclrtSetCurrentContext(def));
  OK(aclrtUnSubscribeReport(self, s0));
  OK(aclrtDestroyStream(s0));
  return finish();
}

static int cb_host_func_on_subscribed_stream(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  MISUSE(aclrtLaunchHostFunc(s, noop_cb, NULL), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtLaunchHostFunc");
  OK(aclrtUnSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_process_report_after_unsubscribe(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  OK(aclrtUnSubscribeReport(self, s));
  MISUSE(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport");
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_process_report_after_stream_destroyed(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  MISUSE(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport");
  return finish();
}

static int cb_process_report_timeout_expires(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  MISUSE(aclrtProcessReport(5), ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport");
  OK(aclrtUnSubscribeReport(self, s));
  OK(aclrtDestroyStream(s));
  return finish();
}

static int cb_launch_callback_after_unsubscribe(void) {
  if (up()) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  uint64_t self = (uint64_t)pthread_self();
  OK(aclrtSubscribeReport(self, s));
  OK(aclrtUnSubscribeReport(self, s));
  MISUSE(aclrtLaunchCallback(noop_cb, NULL, ACL_CALLBACK_NO_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
         "aclrtLaunchCallback");
  OK(aclrtDestroyStream(s));
  return finish();
}

/* Forbidden calls from inside a host function (docs/callbacks.md): the
 * function runs on an executor thread; its result is checked there (the
 * message is that thread's) and reported back. */
typedef struct inside {
  int which;
  aclrtContext ctx;
  aclrtStream stream;  /* the stream the host function runs on */
  aclrtEvent event;
  void *dev;
  int ok;
} inside;

static int inside_body(inside *in) {
  switch (in->which) {
  case 0: MISUSE(aclrtSynchronizeStream(in->stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSynchronizeStream"); break;
  case 1: MISUSE(aclrtSynchronizeDevice(), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSynchronizeDevice"); break;
  case 2: MISUSE(aclrtSynchronizeEvent(in->event), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtSynchronizeEvent"); break;
  case 3: MISUSE(aclrtDestroyStream(in->stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDestroyStream"); break;
  case 4: MISUSE(aclrtResetDevice(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtResetDevice"); break;
  case 5: MISUSE(aclrtProcessReport(10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtProcessReport"); break;
  case 6: {
    OK(aclrtSetCurrentContext(in->ctx));
    unsigned char host[64] = {0};
    MISUSE(aclrtMemcpyAsync(in->dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtMemcpyAsync");
    break;
  }
  case 7:
    OK(aclrtSetCurrentContext(in->ctx));
    MISUSE(aclrtFreeWithDevSync(in->dev), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtFreeWithDevSync");
    break;
  case 8: MISUSE(aclrtDestroyStreamForce(in->stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtDestroyStreamForce"); break;
  case 9:
    MISUSE(aclrtSynchronizeStreamWithTimeout(in->stream, 10), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
           "aclrtSynchronizeStreamWithTimeout");
    break;
  default: return 1;
  }
  return 0;
}

static void inside_fn(void *arg) {
  inside *in = arg;
  in->ok = inside_body(in) == 0;
}

static int run_inside(int which) {
  if (up()) return 1;
  inside in;
  memset(&in, 0, sizeof(in));
  in.which = which;
  OK(aclrtGetCurrentContext(&in.ctx));
  OK(aclrtCreateStream(&in.stream));
  OK(aclrtCreateEvent(&in.event));
  OK(aclrtMalloc(&in.dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtLaunchHostFunc(in.stream, inside_fn, &in));
  OK(aclrtSynchronizeStream(in.stream));
  if (!in.ok)
    return 1;
  OK(aclrtFree(in.dev));
  OK(aclrtDestroyEvent(in.event));
  OK(aclrtDestroyStream(in.stream));
  return finish();
}

static int cb_inside_sync_stream(void) { return run_inside(0); }
static int cb_inside_sync_device(void) { return run_inside(1); }
static int cb_inside_sync_event(void) { return run_inside(2); }
static int cb_inside_destroy_stream(void) { return run_inside(3); }
static int cb_inside_reset_device(void) { return run_inside(4); }
static int cb_inside_process_report(void) { return run_inside(5); }
static int cb_inside_pageable_memcpy_async(void) { return run_inside(6); }
static int cb_inside_free_with_dev_sync(void) { return run_inside(7); }
static int cb_inside_destroy_stream_force(void) { return run_inside(8); }
static int cb_inside_sync_stream_with_timeout(void) { return run_inside(9); }

/* ---- kernels ---- */

typedef struct kenv {
  aclrtBinHandle bin;
  aclrtFuncHandle func;
  aclrtArgsHandle args;
} kenv;

static int kup(kenv *k, int with_args) {
  memset(k, 0, sizeof(*k));
  if (up()) return 1;
  OK(aclrtBinaryLoadFromFile(TK, NULL, &k->bin));
  OK(aclrtBinaryGetFunction(k->bin, "tk_nop", &k->func));
  if (with_args)
    OK(aclrtKernelArgsInit(k->func, &k->args));
  return 0;
}

/* A kernel case: kup, then the misuse (which may use k.bin, k.func, k.args). */
#define KERNEL_CASE(fname, args, pre, call, want, api)                         \
  static int fname(void) {                                                     \
    kenv k;                                                                    \
    if (kup(&k, args)) return 1;                                               \
    pre;                                                                       \
    MISUSE(call, want, api);                                                   \
    return finish();                                                           \
  }

static aclrtFuncHandle g_func_out;
static aclrtBinHandle g_bin_out;
static aclrtParamHandle g_param;
static uint64_t g_u64 = 7;

KERNEL_CASE(k_stale_binary_get_function, 0, OK(aclrtBinaryUnLoad(k.bin)),
            aclrtBinaryGetFunction(k.bin, "tk_nop", &g_func_out), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtBinaryGetFunction")
KERNEL_CASE(k_unload_twice, 0, OK(aclrtBinaryUnLoad(k.bin)), aclrtBinaryUnLoad(k.bin), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtBinaryUnLoad")
KERNEL_CASE(k_stale_function_launch, 0, OK(aclrtBinaryUnLoad(k.bin)), aclrtLaunchKernel(k.func, 1, NULL, 0, NULL),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtLaunchKernel")
KERNEL_CASE(k_stale_function_launch_host_args, 0, OK(aclrtBinaryUnLoad(k.bin)),
            aclrtLaunchKernelWithHostArgs(k.func, 1, NULL, NULL, NULL, 0, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtLaunchKernelWithHostArgs")
KERNEL_CASE(k_stale_function_args_init, 0, OK(aclrtBinaryUnLoad(k.bin)), aclrtKernelArgsInit(k.func, &k.args),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsInit")
KERNEL_CASE(k_stale_function_name, 0, OK(aclrtBinaryUnLoad(k.bin)),
            aclrtGetFunctionName(k.func, 16, (char[16]){0}), ACL_ERROR_RT_INVALID_HANDLE, "aclrtGetFunctionName")
KERNEL_CASE(k_stale_function_handle_mem_size, 0, OK(aclrtBinaryUnLoad(k.bin)),
            aclrtKernelArgsGetHandleMemSize(k.func, &(size_t){0}), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtKernelArgsGetHandleMemSize")
KERNEL_CASE(k_stale_args_append, 1, OK(aclrtBinaryUnLoad(k.bin)),
            aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtKernelArgsAppend")
KERNEL_CASE(k_stale_args_finalize, 1, OK(aclrtBinaryUnLoad(k.bin)), aclrtKernelArgsFinalize(k.args),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsFinalize")
KERNEL_CASE(k_stale_args_launch_with_config, 1,
            OK(aclrtKernelArgsFinalize(k.args)); OK(aclrtBinaryUnLoad(k.bin)),
            aclrtLaunchKernelWithConfig(k.func, 1, NULL, NULL, k.args, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_num_blocks_zero, 0, (void)0, aclrtLaunchKernel(k.func, 0, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernel")
KERNEL_CASE(k_num_blocks_zero_v2, 0, (void)0, aclrtLaunchKernelV2(k.func, 0, NULL, 0, NULL, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelV2")
KERNEL_CASE(k_num_blocks_zero_with_config, 1, OK(aclrtKernelArgsFinalize(k.args)),
            aclrtLaunchKernelWithConfig(k.func, 0, NULL, NULL, k.args, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_num_blocks_zero_host_args, 0, (void)0,
            aclrtLaunchKernelWithHostArgs(k.func, 0, NULL, NULL, NULL, 0, NULL, 0), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernelWithHostArgs")
KERNEL_CASE(k_launch_null_function, 0, (void)0, aclrtLaunchKernel(NULL, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernel")
KERNEL_CASE(k_get_function_null_name, 0, (void)0, aclrtBinaryGetFunction(k.bin, NULL, &g_func_out),
            ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunction")
KERNEL_CASE(k_get_function_empty_name, 0, (void)0, aclrtBinaryGetFunction(k.bin, "", &g_func_out),
            ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunction")
KERNEL_CASE(k_get_function_null_out, 0, (void)0, aclrtBinaryGetFunction(k.bin, "tk_nop", NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunction")
KERNEL_CASE(k_get_function_unknown_name, 0, (void)0, aclrtBinaryGetFunction(k.bin, "no_such_kernel", &g_func_out),
            ACL_ERROR_RT_SYMBOL_NOT_FOUND, "aclrtBinaryGetFunction")
KERNEL_CASE(k_get_function_hidden_helper, 0, (void)0, aclrtBinaryGetFunction(k.bin, "tk_helper", &g_func_out),
            ACL_ERROR_RT_SYMBOL_NOT_FOUND, "aclrtBinaryGetFunction")
KERNEL_CASE(k_get_function_null_binary, 0, (void)0, aclrtBinaryGetFunction(NULL, "tk_nop", &g_func_out),
            ACL_ERROR_INVALID_PARAM, "aclrtBinaryGetFunction")
KERNEL_CASE(k_stream_as_binary, 0, aclrtStream s; OK(aclrtCreateStream(&s)),
            aclrtBinaryGetFunction(s, "tk_nop", &g_func_out), ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction")
KERNEL_CASE(k_function_as_binary, 0, (void)0, aclrtBinaryGetFunction(k.func, "tk_nop", &g_func_out),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction")
KERNEL_CASE(k_garbage_binary, 0, (void)0, aclrtBinaryGetFunction((void *)(uintptr_t)0x1234, "tk_nop", &g_func_out),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction")
KERNEL_CASE(k_garbage_binary_unload, 0, (void)0, aclrtBinaryUnLoad((void *)(uintptr_t)0x1234),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryUnLoad")
KERNEL_CASE(k_function_as_binary_unload, 0, (void)0, aclrtBinaryUnLoad(k.func), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtBinaryUnLoad")
KERNEL_CASE(k_event_as_function, 0, aclrtEvent ev; OK(aclrtCreateEvent(&ev)), aclrtLaunchKernel(ev, 1, NULL, 0, NULL),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtLaunchKernel")
KERNEL_CASE(k_binary_as_function, 0, (void)0, aclrtLaunchKernel(k.bin, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtLaunchKernel")
KERNEL_CASE(k_stack_int_as_function, 0, int local = 0, aclrtLaunchKernel(&local, 1, NULL, 0, NULL),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtLaunchKernel")
KERNEL_CASE(k_function_as_args, 0, (void)0, aclrtKernelArgsAppend(k.func, &g_u64, sizeof(g_u64), &g_param),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsAppend")
KERNEL_CASE(k_garbage_args_finalize, 0, (void)0, aclrtKernelArgsFinalize((void *)(uintptr_t)0x1234),
            ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsFinalize")
KERNEL_CASE(k_args_init_null_out, 0, (void)0, aclrtKernelArgsInit(k.func, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtKernelArgsInit")
KERNEL_CASE(k_host_args_data_for_device_launch, 0, uint64_t hostargs[2] = {0},
            aclrtLaunchKernel(k.func, 1, hostargs, sizeof(hostargs), NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernel")
KERNEL_CASE(k_null_args_data_with_size, 0, (void)0, aclrtLaunchKernel(k.func, 1, NULL, 16, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel")
KERNEL_CASE(k_launch_unfinalized_args, 1, OK(aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param)),
            aclrtLaunchKernelWithConfig(k.func, 1, NULL, NULL, k.args, NULL), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_finalize_twice, 1, OK(aclrtKernelArgsFinalize(k.args)), aclrtKernelArgsFinalize(k.args),
            ACL_ERROR_RT_PARAM_INVALID, "aclrtKernelArgsFinalize")
KERNEL_CASE(k_append_after_finalize, 1, OK(aclrtKernelArgsFinalize(k.args)),
            aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtKernelArgsAppend")
KERNEL_CASE(k_append_null_param_handle, 1, (void)0, aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsAppend")
KERNEL_CASE(k_update_other_size, 1, OK(aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param)),
            aclrtKernelArgsParaUpdate(k.args, g_param, &g_u64, 4), ACL_ERROR_RT_PARAM_INVALID,
            "aclrtKernelArgsParaUpdate")
KERNEL_CASE(k_placeholder_buffer_of_plain_param, 1,
            OK(aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param)),
            aclrtKernelArgsGetPlaceHolderBuffer(k.args, g_param, 16, &(void *){NULL}), ACL_ERROR_INVALID_PARAM,
            "aclrtKernelArgsGetPlaceHolderBuffer")
KERNEL_CASE(k_finalize_placeholder_without_buffer, 1, OK(aclrtKernelArgsAppendPlaceHolder(k.args, &g_param)),
            aclrtKernelArgsFinalize(k.args), ACL_ERROR_RT_PARAM_INVALID, "aclrtKernelArgsFinalize")
KERNEL_CASE(k_reserve_not_null, 1, OK(aclrtKernelArgsFinalize(k.args)),
            aclrtLaunchKernelWithConfig(k.func, 1, NULL, NULL, k.args, &g_u64), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_launch_with_config_null_args, 0, (void)0, aclrtLaunchKernelWithConfig(k.func, 1, NULL, NULL, NULL, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_args_of_another_function, 0,
            aclrtFuncHandle other; aclrtArgsHandle oa; OK(aclrtBinaryGetFunction(k.bin, "tk_echo", &other));
            OK(aclrtKernelArgsInit(other, &oa)); OK(aclrtKernelArgsFinalize(oa)),
            aclrtLaunchKernelWithConfig(k.func, 1, NULL, NULL, oa, NULL), ACL_ERROR_INVALID_PARAM,
            "aclrtLaunchKernelWithConfig")
KERNEL_CASE(k_get_function_name_zero_len, 0, (void)0, aclrtGetFunctionName(k.func, 0, (char[4]){0}),
            ACL_ERROR_INVALID_PARAM, "aclrtGetFunctionName")
KERNEL_CASE(k_load_null_path, 0, (void)0, aclrtBinaryLoadFromFile(NULL, NULL, &g_bin_out), ACL_ERROR_INVALID_PARAM,
            "aclrtBinaryLoadFromFile")
KERNEL_CASE(k_load_missing_file, 0, (void)0, aclrtBinaryLoadFromFile("/nonexistent/libnone.so", NULL, &g_bin_out),
            ACL_ERROR_RT_FILE_OPEN, "aclrtBinaryLoadFromFile")
KERNEL_CASE(k_load_from_data_null, 0, (void)0, aclrtBinaryLoadFromData(NULL, 10, NULL, &g_bin_out),
            ACL_ERROR_INVALID_PARAM, "aclrtBinaryLoadFromData")
KERNEL_CASE(k_load_from_data_not_elf, 0, (void)0, aclrtBinaryLoadFromData("not an elf file", 15, NULL, &g_bin_out),
            ACL_ERROR_INVALID_FILE, "aclrtBinaryLoadFromData")
KERNEL_CASE(k_destroy_binary_null, 0, (void)0, aclrtDestroyBinary(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyBinary")
KERNEL_CASE(k_destroy_binary_twice, 0,
            aclrtBinary blob = aclrtCreateBinary("abc", 3); REQUIRE(blob != NULL); OK(aclrtDestroyBinary(blob)),
            aclrtDestroyBinary(blob), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyBinary")
KERNEL_CASE(k_binary_load_destroyed_binary, 0,
            aclrtBinary blob = aclrtCreateBinary("abc", 3); REQUIRE(blob != NULL); OK(aclrtDestroyBinary(blob)),
            aclrtBinaryLoad(blob, &g_bin_out), ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryLoad")
KERNEL_CASE(k_destroy_binary_loaded_handle, 0, (void)0, aclrtDestroyBinary(k.bin), ACL_ERROR_RT_INVALID_HANDLE,
            "aclrtDestroyBinary")

static aclrtLaunchKernelAttr g_bad_attr = {(aclrtLaunchKernelAttrId)999, {0}};
static aclrtLaunchKernelCfg g_cfg_bad_id = {&g_bad_attr, 1};
static aclrtLaunchKernelCfg g_cfg_no_attrs = {NULL, 1};

KERNEL_CASE(k_launch_cfg_unknown_attr, 0, (void)0, aclrtLaunchKernelV2(k.func, 1, NULL, 0, &g_cfg_bad_id, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelV2")
KERNEL_CASE(k_launch_cfg_attrs_null, 0, (void)0, aclrtLaunchKernelV2(k.func, 1, NULL, 0, &g_cfg_no_attrs, NULL),
            ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernelV2")
KERNEL_CASE(k_update_param_of_other_args, 1,
            aclrtArgsHandle other; aclrtParamHandle op; OK(aclrtKernelArgsInit(k.func, &other));
            OK(aclrtKernelArgsAppend(other, &g_u64, sizeof(g_u64), &op));
            OK(aclrtKernelArgsAppend(k.args, &g_u64, sizeof(g_u64), &g_param)),
            aclrtKernelArgsParaUpdate(k.args, op, &g_u64, sizeof(g_u64)), ACL_ERROR_INVALID_PARAM,
            "aclrtKernelArgsParaUpdate")

static int k_stale_user_mem_args(void) {
  /* an args handle in the caller's memory is retired with its binary */
  kenv k;
  if (kup(&k, 0)) return 1;
  size_t hsize = 0, asize = 0;
  OK(aclrtKernelArgsGetHandleMemSize(k.func, &hsize));
  OK(aclrtKernelArgsGetMemSize(k.func, 64, &asize));
  void *hmem = aligned_alloc(8, (hsize + 7) / 8 * 8);
  void *amem = malloc(asize);
  REQUIRE(hmem != NULL && amem != NULL);
  OK(aclrtKernelArgsInitByUserMem(k.func, hmem, amem, asize));
  OK(aclrtBinaryUnLoad(k.bin));
  MISUSE(aclrtKernelArgsAppend(hmem, &g_u64, sizeof(g_u64), &g_param), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtKernelArgsAppend");
  free(hmem);
  free(amem);
  return finish();
}

static int k_create_binary_null(void) {
  if (up()) return 1;
  (void)aclGetRecentErrMsg();
  aclrtBinary b = aclrtCreateBinary(NULL, 10);
  REQUIRE(b == NULL);
  const char *m = aclGetRecentErrMsg();
  REQUIRE(m != NULL && strstr(m, "aclrtCreateBinary failed") != NULL);
  return finish();
}

static int k_function_of_other_device(void) {
  if (up()) return 1;
  aclrtContext def;
  aclrtBinHandle b1;
  aclrtFuncHandle f1;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtSetDevice(1));
  OK(aclrtBinaryLoadFromFile(TK, NULL, &b1));
  OK(aclrtBinaryGetFunction(b1, "tk_nop", &f1));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtLaunchKernel(f1, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION, "aclrtLaunchKernel");
  OK(aclrtBinaryUnLoad(b1));
  OK(aclrtResetDevice(1));
  return finish();
}

static int k_device_args_of_other_device(void) {
  kenv k;
  if (kup(&k, 0)) return 1;
  aclrtContext def;
  void *p1;
  OK(aclrtGetCurrentContext(&def));
  OK(aclrtSetDevice(1));
  OK(aclrtMalloc(&p1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtSetCurrentContext(def));
  MISUSE(aclrtLaunchKernel(k.func, 1, p1, 16, NULL), ACL_ERROR_INVALID_PARAM, "aclrtLaunchKernel");
  OK(aclrtFree(p1));
  OK(aclrtResetDevice(1));
  return finish();
}

static int k_launch_after_unload_then_valid_launch(void) {
  /* unload with a launch queued, then use the stale handle */
  kenv k;
  if (kup(&k, 0)) return 1;
  aclrtStream s;
  OK(aclrtCreateStream(&s));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  OK(aclrtLaunchKernel(k.func, 4, NULL, 0, s));
  OK(aclrtBinaryUnLoad(k.bin));
  MISUSE(aclrtLaunchKernel(k.func, 4, NULL, 0, s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtLaunchKernel");
  atomic_store(&g.open, 1);
  OK(aclrtSynchronizeStream(s));
  OK(aclrtDestroyStream(s));
  return finish();
}

/* ---- destroy while in use ---- */

/* A second thread, in the given context, synchronises a stream or an event
 * that is held back by a gate, while the main thread destroys it (destroy
 * waits for the work).  Both must succeed and nothing may be touched after
 * it is freed (ASan). */
typedef struct user_sync {
  aclrtContext ctx;
  aclrtStream stream;
  aclrtEvent event;
  atomic_int started;
  int rc;
} user_sync;

static void *user_sync_main(void *p) {
  user_sync *u = p;
  u->rc = aclrtSetCurrentContext(u->ctx);
  atomic_store(&u->started, 1);
  if (u->rc == 0)
    u->rc = u->event != NULL ? aclrtSynchronizeEvent(u->event) : aclrtSynchronizeStream(u->stream);
  return NULL;
}

typedef struct destroyer {
  int what; /* 0 stream, 1 event, 2 context */
  aclrtContext ctx;
  void *h;
  int rc;
} destroyer;

static void *destroyer_main(void *p) {
  destroyer *d = p;
  d->rc = aclrtSetCurrentContext(d->ctx);
  if (d->rc == 0)
    d->rc = d->what == 0 ? aclrtDestroyStream(d->h) : d->what == 1 ? aclrtDestroyEvent(d->h) : aclrtDestroyContext(d->h);
  return NULL;
}

static int run_in_use(int what) {
  if (up()) return 1;
  aclrtContext def, ctx;
  OK(aclrtGetCurrentContext(&def));
  ctx = def;
  if (what == 2)
    OK(aclrtCreateContext(&ctx, 0));
  aclrtStream s;
  aclrtEvent ev = NULL;
  OK(aclrtCreateStream(&s));
  gate g = {0, 0};
  OK(aclrtLaunchHostFunc(s, gate_wait, &g));
  if (what == 1) {
    OK(aclrtCreateEvent(&ev));
    OK(aclrtRecordEvent(ev, s));
  }
  user_sync u = {ctx, s, ev, 0, -1};
  pthread_t ts, td;
  REQUIRE(pthread_create(&ts, NULL, user_sync_main, &u) == 0);
  while (!atomic_load(&u.started) || !atomic_load(&g.entered)) {
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
  }
  struct timespec t = {0, 20000000};
  nanosleep(&t, NULL); /* let the other thread block in its wait */
  destroyer d = {what, ctx, what == 0 ? (void *)s : what == 1 ? (void *)ev : (void *)ctx, -1};
  REQUIRE(pthread_create(&td, NULL, destroyer_main, &d) == 0);
  nanosleep(&t, NULL);
  atomic_store(&g.open, 1);
  pthread_join(td, NULL);
  pthread_join(ts, NULL);
  OK(d.rc);
  /* Normally the wait began first and ends with success; on a loaded
   * machine the destroy may have come first, which makes the handle (or the
   * thread's context) invalid: acceptable.  What matters is no crash and no
   * use after free. */
  if (u.rc != 0 && u.rc != ACL_ERROR_RT_INVALID_HANDLE && u.rc != ACL_ERROR_RT_CONTEXT_NULL)
    OK(u.rc);
  OK(aclrtSetCurrentContext(def));
  if (what != 0 && what != 2)
    OK(aclrtDestroyStream(s));
  return finish();
}

static int use_destroy_stream_while_synchronized(void) { return run_in_use(0); }
static int use_destroy_event_while_synchronized(void) { return run_in_use(1); }
static int use_destroy_context_while_stream_synchronized(void) { return run_in_use(2); }

/* ---- threads without a context ---- */

typedef struct nctx {
  aclrtStream stream;
  aclrtEvent event;
  void *dev;
  int which;
} nctx;

static int nctx_body(void *p) {
  nctx *n = p;
  aclrtStream s;
  aclrtEvent e;
  void *ptr;
  int32_t id;
  aclrtContext c;
  size_t f, t;
  unsigned char host[64] = {0};
  switch (n->which) {
  case 0: MISUSE(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream"); break;
  case 1: MISUSE(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateEvent"); break;
  case 2: MISUSE(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream"); break;
  case 3: MISUSE(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice"); break;
  case 4: MISUSE(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc"); break;
  case 5: MISUSE(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice"); break;
  case 6: MISUSE(aclrtGetCurrentContext(&c), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext"); break;
  case 7:
    MISUSE(aclrtCtxGetCurrentDefaultStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCtxGetCurrentDefaultStream");
    break;
  case 8: MISUSE(aclrtSynchronizeStream(n->stream), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeStream"); break;
  case 9: MISUSE(aclrtRecordEvent(n->event, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtRecordEvent"); break;
  case 10: MISUSE(aclrtLaunchHostFunc(NULL, noop_cb, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtLaunchHostFunc"); break;
  case 11: MISUSE(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetMemInfo"); break;
  case 12: {
    aclrtBinHandle b;
    MISUSE(aclrtBinaryLoadFromFile(TK, NULL, &b), ACL_ERROR_RT_CONTEXT_NULL, "aclrtBinaryLoadFromFile");
    break;
  }
  case 13: MISUSE(aclrtDestroyStream(n->stream), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyStream"); break;
  case 14:
    MISUSE(aclrtMemcpy(n->dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemcpy");
    break;
  case 15: MISUSE(aclrtFree(n->dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtFree"); break;
  case 16: MISUSE(aclrtMemset(n->dev, 64, 0, 64), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemset"); break;
  case 17:
    MISUSE(aclrtMemcpyAsync(n->dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_CONTEXT_NULL,
           "aclrtMemcpyAsync");
    break;
  case 18:
    MISUSE(aclrtSubscribeReport((uint64_t)pthread_self(), NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSubscribeReport");
    break;
  case 19:
    MISUSE(aclrtLaunchCallback(noop_cb, NULL, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_CONTEXT_NULL,
           "aclrtLaunchCallback");
    break;
  case 20: MISUSE(aclrtStreamWaitEvent(NULL, n->event), ACL_ERROR_RT_CONTEXT_NULL, "aclrtStreamWaitEvent"); break;
  case 21: MISUSE(aclrtCreateStreamWithConfig(&s, 1, 0), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStreamWithConfig"); break;
  case 22: MISUSE(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceEnablePeerAccess"); break;
  case 23: MISUSE(aclrtMemFlush(n->dev, 64), ACL_ERROR_RT_CONTEXT_NULL, "aclrtMemFlush"); break;
  default: return 1;
  }
  return 0;
}

static int run_no_context(int which) {
  if (up()) return 1;
  nctx n;
  memset(&n, 0, sizeof(n));
  n.which = which;
  OK(aclrtCreateStream(&n.stream));
  OK(aclrtCreateEvent(&n.event));
  OK(aclrtMalloc(&n.dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  if (in_thread(nctx_body, &n) != 0)
    return 1;
  /* the objects the other thread named are intact */
  OK(aclrtRecordEvent(n.event, n.stream));
  OK(aclrtSynchronizeStream(n.stream));
  OK(aclrtFree(n.dev));
  OK(aclrtDestroyStream(n.stream));
  return finish();
}

#define NCTX_CASE(fname, which) static int fname(void) { return run_no_context(which); }
NCTX_CASE(nc_create_stream, 0)
NCTX_CASE(nc_create_event, 1)
NCTX_CASE(nc_sync_default_stream, 2)
NCTX_CASE(nc_sync_device, 3)
NCTX_CASE(nc_malloc, 4)
NCTX_CASE(nc_get_device, 5)
NCTX_CASE(nc_get_current_context, 6)
NCTX_CASE(nc_get_default_stream, 7)
NCTX_CASE(nc_sync_stream_of_other_thread, 8)
NCTX_CASE(nc_record_event_on_default_stream, 9)
NCTX_CASE(nc_launch_host_func, 10)
NCTX_CASE(nc_get_mem_info, 11)
NCTX_CASE(nc_binary_load, 12)
NCTX_CASE(nc_destroy_stream_of_other_thread, 13)
NCTX_CASE(nc_memcpy, 14)
NCTX_CASE(nc_free, 15)
NCTX_CASE(nc_memset, 16)
NCTX_CASE(nc_memcpy_async, 17)
NCTX_CASE(nc_subscribe_default_stream, 18)
NCTX_CASE(nc_launch_callback, 19)
NCTX_CASE(nc_stream_wait_event, 20)
NCTX_CASE(nc_create_stream_with_config, 21)
NCTX_CASE(nc_enable_peer_access, 22)
NCTX_CASE(nc_mem_flush, 23)

/* ---- lifecycle: before aclInit, after aclFinalize ---- */

#define BEFORE_INIT_CASE(fname, call, api)                                     \
  static int fname(void) {                                                     \
    MISUSE(call, ACL_ERROR_UNINITIALIZE, api);                                 \
    return finish_init();                                                      \
  }

static aclrtStream g_stream_out;
static aclrtEvent g_event_out;
static aclrtContext g_ctx_out;
static void *g_ptr_out;
static unsigned char g_host[64];

BEFORE_INIT_CASE(li_before_init_set_device, aclrtSetDevice(0), "aclrtSetDevice")
BEFORE_INIT_CASE(li_before_init_reset_device, aclrtResetDevice(0), "aclrtResetDevice")
BEFORE_INIT_CASE(li_before_init_create_context, aclrtCreateContext(&g_ctx_out, 0), "aclrtCreateContext")
BEFORE_INIT_CASE(li_before_init_create_stream, aclrtCreateStream(&g_stream_out), "aclrtCreateStream")
BEFORE_INIT_CASE(li_before_init_create_event, aclrtCreateEvent(&g_event_out), "aclrtCreateEvent")
BEFORE_INIT_CASE(li_before_init_sync_stream, aclrtSynchronizeStream(NULL), "aclrtSynchronizeStream")
BEFORE_INIT_CASE(li_before_init_sync_device, aclrtSynchronizeDevice(), "aclrtSynchronizeDevice")
BEFORE_INIT_CASE(li_before_init_malloc, aclrtMalloc(&g_ptr_out, 64, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")
BEFORE_INIT_CASE(li_before_init_memcpy, aclrtMemcpy(g_host, 64, g_host + 32, 16, ACL_MEMCPY_HOST_TO_HOST),
                 "aclrtMemcpy")
BEFORE_INIT_CASE(li_before_init_get_device_count, aclrtGetDeviceCount(&(uint32_t){0}), "aclrtGetDeviceCount")
BEFORE_INIT_CASE(li_before_init_get_device, aclrtGetDevice(&(int32_t){0}), "aclrtGetDevice")
BEFORE_INIT_CASE(li_before_init_destroy_garbage_stream, aclrtDestroyStream((void *)(uintptr_t)0x1234),
                 "aclrtDestroyStream")
BEFORE_INIT_CASE(li_before_init_destroy_garbage_event, aclrtDestroyEvent((void *)(uintptr_t)0x1234),
                 "aclrtDestroyEvent")
BEFORE_INIT_CASE(li_before_init_set_garbage_context, aclrtSetCurrentContext((void *)(uintptr_t)0x1234),
                 "aclrtSetCurrentContext")
BEFORE_INIT_CASE(li_before_init_launch_host_func, aclrtLaunchHostFunc(NULL, noop_cb, NULL), "aclrtLaunchHostFunc")
BEFORE_INIT_CASE(li_before_init_free_garbage, aclrtFree((void *)(uintptr_t)0x1234), "aclrtFree")
BEFORE_INIT_CASE(li_before_init_binary_load, aclrtBinaryLoadFromFile(TK, NULL, &g_bin_out), "aclrtBinaryLoadFromFile")
/* The docs promise 100001 for every aclrt* call but aclrtGetRunMode before aclInit. */
BEFORE_INIT_CASE(li_before_init_process_report, aclrtProcessReport(10), "aclrtProcessReport")
BEFORE_INIT_CASE(li_before_init_malloc_host, aclrtMallocHost(&g_ptr_out, 64), "aclrtMallocHost")
BEFORE_INIT_CASE(li_before_init_priority_range,
                 aclrtDeviceGetStreamPriorityRange(&(int32_t){0}, &(int32_t){0}), "aclrtDeviceGetStreamPriorityRange")
BEFORE_INIT_CASE(li_before_init_pointer_attributes, aclrtPointerGetAttributes(g_host, &(aclrtPtrAttributes){0}),
                 "aclrtPointerGetAttributes")
BEFORE_INIT_CASE(li_before_init_free_host_garbage, aclrtFreeHost((void *)(uintptr_t)0x1234), "aclrtFreeHost")
BEFORE_INIT_CASE(li_before_init_get_device_info,
                 aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &(int64_t){0}), "aclrtGetDeviceInfo")

/* After aclFinalize, with handles from before it. */
typedef struct old_handles {
  aclrtContext ctx;
  aclrtStream stream;
  aclrtEvent event;
  void *dev;
  aclrtBinHandle bin;
} old_handles;

static int make_then_finalize(old_handles *o) {
  if (up()) return 1;
  OK(aclrtCreateContext(&o->ctx, 0));
  OK(aclrtCreateStream(&o->stream));
  OK(aclrtCreateEvent(&o->event));
  OK(aclrtMalloc(&o->dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtBinaryLoadFromFile(TK, NULL, &o->bin));
  OK(aclFinalize()); /* everything above leaks, on purpose */
  return 0;
}

#define AFTER_FINALIZE_CASE(fname, call, want, api)                            \
  static int fname(void) {                                                     \
    old_handles o;                                                             \
    if (make_then_finalize(&o)) return 1;                                      \
    MISUSE(call, want, api);                                                   \
    return finish_init();                                                      \
  }

AFTER_FINALIZE_CASE(li_after_finalize_sync_stream, aclrtSynchronizeStream(o.stream), ACL_ERROR_UNINITIALIZE,
                    "aclrtSynchronizeStream")
AFTER_FINALIZE_CASE(li_after_finalize_destroy_stream, aclrtDestroyStream(o.stream), ACL_ERROR_UNINITIALIZE,
                    "aclrtDestroyStream")
AFTER_FINALIZE_CASE(li_after_finalize_destroy_event, aclrtDestroyEvent(o.event), ACL_ERROR_UNINITIALIZE,
                    "aclrtDestroyEvent")
AFTER_FINALIZE_CASE(li_after_finalize_record_event, aclrtRecordEvent(o.event, o.stream), ACL_ERROR_UNINITIALIZE,
                    "aclrtRecordEvent")
AFTER_FINALIZE_CASE(li_after_finalize_destroy_context, aclrtDestroyContext(o.ctx), ACL_ERROR_UNINITIALIZE,
                    "aclrtDestroyContext")
AFTER_FINALIZE_CASE(li_after_finalize_set_context, aclrtSetCurrentContext(o.ctx), ACL_ERROR_UNINITIALIZE,
                    "aclrtSetCurrentContext")
AFTER_FINALIZE_CASE(li_after_finalize_free, aclrtFree(o.dev), ACL_ERROR_UNINITIALIZE, "aclrtFree")
AFTER_FINALIZE_CASE(li_after_finalize_set_device, aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, "aclrtSetDevice")
AFTER_FINALIZE_CASE(li_after_finalize_create_stream, aclrtCreateStream(&g_stream_out), ACL_ERROR_UNINITIALIZE,
                    "aclrtCreateStream")
AFTER_FINALIZE_CASE(li_after_finalize_finalize_again, aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize")
AFTER_FINALIZE_CASE(li_after_finalize_memcpy_to_old_pointer,
                    aclrtMemcpy(o.dev, 64, g_host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_UNINITIALIZE,
                    "aclrtMemcpy")
/* docs/devices.md: every aclrt* call after aclFinalize returns 100001 (the
 * binary was also unloaded by aclFinalize, so its handle is stale too). */
AFTER_FINALIZE_CASE(li_after_finalize_unload_binary, aclrtBinaryUnLoad(o.bin), ACL_ERROR_UNINITIALIZE,
                    "aclrtBinaryUnLoad")

/* After aclFinalize and a new aclInit: the old handles are stale. */
#define AFTER_REINIT_CASE(fname, call, want, api)                              \
  static int fname(void) {                                                     \
    old_handles o;                                                             \
    if (make_then_finalize(&o)) return 1;                                      \
    if (up()) return 1;                                                        \
    MISUSE(call, want, api);                                                   \
    return finish();                                                           \
  }

AFTER_REINIT_CASE(li_after_reinit_old_stream, aclrtSynchronizeStream(o.stream), ACL_ERROR_RT_INVALID_HANDLE,
                  "aclrtSynchronizeStream")
AFTER_REINIT_CASE(li_after_reinit_old_event, aclrtQueryEventStatus(o.event, &(aclrtEventRecordedStatus){0}),
                  ACL_ERROR_RT_INVALID_HANDLE, "aclrtQueryEventStatus")
static int li_after_reinit_old_context(void) {
  old_handles o;
  if (make_then_finalize(&o)) return 1;
  if (up()) return 1;
  /* Handles are addresses: the new default context may be allocated where
   * the old one was, and then the old handle names a live context. */
  aclrtContext now = NULL;
  OK(aclrtGetCurrentContext(&now));
  if (now == o.ctx)
    return finish();
  MISUSE(aclrtSetCurrentContext(o.ctx), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetCurrentContext");
  return finish();
}
AFTER_REINIT_CASE(li_after_reinit_old_device_pointer, aclrtFree(o.dev), ACL_ERROR_RT_MEMORY_FREE, "aclrtFree")
AFTER_REINIT_CASE(li_after_reinit_old_binary, aclrtBinaryGetFunction(o.bin, "tk_nop", &g_func_out),
                  ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction")

static int li_init_twice(void) {
  /* docs/design.md: a repeat aclInit with the same configuration counts
   * once more and returns 100002 without a message (one comes only when the
   * configuration differs), so only the code is checked here. */
  OK(aclInit(NULL));
  int rc = aclInit(NULL);
  REQUIRE(rc == ACL_ERROR_REPEAT_INITIALIZE);
  return finish();
}

static int li_finalize_before_init(void) {
  MISUSE(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize");
  return finish_init();
}

/* ==== the table and the runner ============================================== */

typedef struct mcase {
  const char *group;
  char name[128];
  int (*fn)(void);
  int kind; /* generated cases */
  int sub;
  int gen;  /* 0 written out, 1 stream, 2 event, 3 context */
} mcase;

#define MAX_CASES 1024
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
      add_gen("event_handles", 2, f, k, event_fn_names[f]);
  for (int f = 0; f < 2; f++)
    for (int k = 0; k < BAD_KIND_COUNT; k++)
      add_gen("context_handles", 3, f, k, f == 0 ? "aclrtDestroyContext" : "aclrtSetCurrentContext");

  ADD("streams", st_destroy_null);
  ADD("streams", st_destroy_force_null);
  ADD("streams", st_destroy_default_by_handle);
  ADD("streams", st_destroy_force_default_by_handle);
  ADD("streams", st_create_null);
  ADD("streams", st_create_config_null);
  ADD("streams", st_create_priority_8);
  ADD("streams", st_create_unknown_flag);
  ADD("streams", st_failure_mode_default_stream);
  ADD("streams", st_failure_mode_bad_value);
  ADD("streams", st_query_null_status);
  ADD("streams", st_get_priority_null);
  ADD("streams", st_get_flags_null);
  ADD("streams", st_get_id_null);
  ADD("streams", st_sync_timeout_below_minus_one);
  ADD("streams", st_sync_timeout_expires);
  ADD("streams", st_destroy_via_destroyed_context);
  ADD("streams", st_sync_stream_of_other_device_context);
  ADD("streams", st_stream_of_user_context_same_device);
  ADD("streams", st_default_stream_of_other_context);

  ADD("events", ev_create_null);
  ADD("events", ev_create_flag_null);
  ADD("events", ev_create_unknown_flag);
  ADD("events", ev_create_ex_unknown_flag);
  ADD("events", ev_elapsed_unrecorded_start);
  ADD("events", ev_elapsed_unrecorded_end);
  ADD("events", ev_elapsed_both_unrecorded);
  ADD("events", ev_elapsed_without_time_line);
  ADD("events", ev_elapsed_reversed);
  ADD("events", ev_elapsed_not_complete);
  ADD("events", ev_elapsed_null_ms);
  ADD("events", ev_timestamp_unrecorded);
  ADD("events", ev_timestamp_null);
  ADD("events", ev_reset_ex_event);
  ADD("events", ev_query_ex_event);
  ADD("events", ev_query_wait_status_ex_event);
  ADD("events", ev_query_status_null);
  ADD("events", ev_query_null);
  ADD("events", ev_query_wait_status_null);
  ADD("events", ev_sync_timeout_below_minus_one);
  ADD("events", ev_sync_timeout_expires);
  ADD("events", ev_record_foreign_event);
  ADD("events", ev_reset_foreign_event);
  ADD("events", ev_wait_foreign_event);
  ADD("events", ev_record_event_of_destroyed_context);
  ADD("events", ev_destroy_twice_with_record_in_flight);

  ADD("contexts", ctx_destroy_default);
  ADD("contexts", ctx_create_null);
  ADD("contexts", ctx_create_negative_device);
  ADD("contexts", ctx_create_device_too_large);
  ADD("contexts", ctx_get_current_null);
  ADD("contexts", ctx_default_stream_null);
  ADD("contexts", ctx_primary_state_null);
  ADD("contexts", ctx_primary_state_bad_device);
  ADD("contexts", ctx_destroy_current_then_create_stream);
  ADD("contexts", ctx_destroyed_by_other_thread_reads_as_none);

  ADD("devices", dev_set_negative);
  ADD("devices", dev_set_count);
  ADD("devices", dev_set_int_max);
  ADD("devices", dev_set_int_min);
  ADD("devices", dev_reset_negative);
  ADD("devices", dev_reset_too_large);
  ADD("devices", dev_reset_force_negative);
  ADD("devices", dev_reset_not_set);
  ADD("devices", dev_reset_force_not_set);
  ADD("devices", dev_info_bad_device);
  ADD("devices", dev_info_null_value);
  ADD("devices", dev_info_bad_attr);
  ADD("devices", dev_capability_bad_device);
  ADD("devices", dev_query_status_negative);
  ADD("devices", dev_query_status_null);
  ADD("devices", dev_can_access_peer_self);
  ADD("devices", dev_can_access_peer_bad_peer);
  ADD("devices", dev_can_access_peer_null);
  ADD("devices", dev_enable_peer_self);
  ADD("devices", dev_enable_peer_flags);
  ADD("devices", dev_enable_peer_bad_device);
  ADD("devices", dev_disable_peer_not_enabled);
  ADD("devices", dev_disable_peer_bad_device);
  ADD("devices", dev_get_device_null);
  ADD("devices", dev_get_count_null);
  ADD("devices", dev_sync_timeout_below_minus_one);
  ADD("devices", dev_priority_range_null);
  ADD("devices", dev_reset_twice);
  ADD("devices", dev_get_device_after_reset);
  ADD("devices", dev_create_stream_after_reset);
  ADD("devices", dev_sync_device_after_reset);
  ADD("devices", dev_stream_after_force_reset);

  ADD("memory", mem_malloc_null);
  ADD("memory", mem_malloc_size_zero);
  ADD("memory", mem_malloc_align32_size_zero);
  ADD("memory", mem_malloc_cached_null);
  ADD("memory", mem_malloc_size_overflow);
  ADD("memory", mem_malloc_over_capacity);
  ADD("memory", mem_malloc_cfg_attrs_null);
  ADD("memory", mem_malloc_cfg_bad_device);
  ADD("memory", mem_malloc_cfg_unknown_attr);
  ADD("memory", mem_malloc_cfg_closed_device);
  ADD("memory", mem_free_null);
  ADD("memory", mem_free_twice);
  ADD("memory", mem_free_heap_pointer);
  ADD("memory", mem_free_stack_pointer);
  ADD("memory", mem_free_garbage_pointer);
  ADD("memory", mem_free_interior);
  ADD("memory", mem_free_pinned_with_aclrtFree);
  ADD("memory", mem_free_after_device_reset);
  ADD("memory", mem_free_with_dev_sync_null);
  ADD("memory", mem_free_with_dev_sync_host);
  ADD("memory", mem_free_host_null);
  ADD("memory", mem_free_host_twice);
  ADD("memory", mem_free_host_device_pointer);
  ADD("memory", mem_free_host_heap_pointer);
  ADD("memory", mem_free_host_interior);
  ADD("memory", mem_free_host_with_dev_sync_device_pointer);
  ADD("memory", mem_malloc_host_null);
  ADD("memory", mem_malloc_host_size_zero);
  ADD("memory", mem_malloc_host_cfg_size_zero);
  ADD("memory", mem_memcpy_dst_null);
  ADD("memory", mem_memcpy_src_null);
  ADD("memory", mem_memcpy_kind_8);
  ADD("memory", mem_memcpy_kind_negative);
  ADD("memory", mem_memcpy_count_over_dest_max);
  ADD("memory", mem_memcpy_past_device_allocation);
  ADD("memory", mem_memcpy_past_device_allocation_interior);
  ADD("memory", mem_memcpy_read_past_device_allocation);
  ADD("memory", mem_memcpy_past_pinned_allocation);
  ADD("memory", mem_memcpy_host_pointer_as_device);
  ADD("memory", mem_memcpy_device_pointer_as_host);
  ADD("memory", mem_memcpy_wrong_kind_d2h_for_h2d);
  ADD("memory", mem_memcpy_wrong_kind_h2h_for_d2d);
  ADD("memory", mem_memcpy_pinned_as_device);
  ADD("memory", mem_memcpy_inter_device_kind_same_device);
  ADD("memory", mem_memcpy_async_host_to_host);
  ADD("memory", mem_memcpy_async_kind_9);
  ADD("memory", mem_memcpy_async_count_over_dest_max);
  ADD("memory", mem_memcpy_async_past_allocation);
  ADD("memory", mem_memcpy2d_width_over_pitch);
  ADD("memory", mem_memcpy2d_device_to_device);
  ADD("memory", mem_memcpy2d_both_host);
  ADD("memory", mem_memcpy2d_past_allocation);
  ADD("memory", mem_memcpy2d_null_dst);
  ADD("memory", mem_memset_null);
  ADD("memory", mem_memset_count_over_max);
  ADD("memory", mem_memset_past_allocation);
  ADD("memory", mem_memset_d32_over_mem_size);
  ADD("memory", mem_memset_d32_null);
  ADD("memory", mem_memset_async_null);
  ADD("memory", mem_memset_async_past_allocation);
  ADD("memory", mem_flush_size_zero);
  ADD("memory", mem_flush_host_pointer);
  ADD("memory", mem_invalidate_past_allocation);
  ADD("memory", mem_invalidate_null);
  ADD("memory", mem_get_mem_info_null);
  ADD("memory", mem_pointer_attributes_null);
  ADD("memory", mem_pointer_attributes_null_out);
  ADD("memory", mem_memcpy_freed_device_pointer);
  ADD("memory", mem_memcpy_pointer_of_reset_device);
  ADD("memory", mem_memcpy_between_devices_without_peer);
  ADD("memory", mem_memcpy_inner_kind_between_devices);
  ADD("memory", mem_get_mem_info_after_reset);
  ADD("memory", mem_malloc_after_reset);

  ADD("callbacks", cb_process_report_timeout_zero);
  ADD("callbacks", cb_process_report_timeout_minus_two);
  ADD("callbacks", cb_process_report_unsubscribed_thread);
  ADD("callbacks", cb_launch_callback_unsubscribed_stream);
  ADD("callbacks", cb_launch_callback_null_fn);
  ADD("callbacks", cb_launch_callback_bad_block_type);
  ADD("callbacks", cb_subscribe_thread_zero);
  ADD("callbacks", cb_unsubscribe_thread_zero);
  ADD("callbacks", cb_unsubscribe_not_subscribed);
  ADD("callbacks", cb_launch_host_func_null_fn);
  ADD("callbacks", cb_subscribe_twice_same_thread);
  ADD("callbacks", cb_subscribe_to_second_thread);
  ADD("callbacks", cb_unsubscribe_wrong_thread);
  ADD("callbacks", cb_unsubscribe_twice);
  ADD("callbacks", cb_subscribe_thread_on_two_devices);
  ADD("callbacks", cb_host_func_on_subscribed_stream);
  ADD("callbacks", cb_process_report_after_unsubscribe);
  ADD("callbacks", cb_process_report_after_stream_destroyed);
  ADD("callbacks", cb_process_report_timeout_expires);
  ADD("callbacks", cb_launch_callback_after_unsubscribe);
  ADD("callbacks", cb_inside_sync_stream);
  ADD("callbacks", cb_inside_sync_device);
  ADD("callbacks", cb_inside_sync_event);
  ADD("callbacks", cb_inside_destroy_stream);
  ADD("callbacks", cb_inside_reset_device);
  ADD("callbacks", cb_inside_process_report);
  ADD("callbacks", cb_inside_pageable_memcpy_async);
  ADD("callbacks", cb_inside_free_with_dev_sync);
  ADD("callbacks", cb_inside_destroy_stream_force);
  ADD("callbacks", cb_inside_sync_stream_with_timeout);

  ADD("kernels", k_stale_binary_get_function);
  ADD("kernels", k_unload_twice);
  ADD("kernels", k_stale_function_launch);
  ADD("kernels", k_stale_function_launch_host_args);
  ADD("kernels", k_stale_function_args_init);
  ADD("kernels", k_stale_function_name);
  ADD("kernels", k_stale_function_handle_mem_size);
  ADD("kernels", k_stale_args_append);
  ADD("kernels", k_stale_args_finalize);
  ADD("kernels", k_stale_args_launch_with_config);
  ADD("kernels", k_num_blocks_zero);
  ADD("kernels", k_num_blocks_zero_v2);
  ADD("kernels", k_num_blocks_zero_with_config);
  ADD("kernels", k_num_blocks_zero_host_args);
  ADD("kernels", k_launch_null_function);
  ADD("kernels", k_get_function_null_name);
  ADD("kernels", k_get_function_empty_name);
  ADD("kernels", k_get_function_null_out);
  ADD("kernels", k_get_function_unknown_name);
  ADD("kernels", k_get_function_hidden_helper);
  ADD("kernels", k_get_function_null_binary);
  ADD("kernels", k_stream_as_binary);
  ADD("kernels", k_function_as_binary);
  ADD("kernels", k_garbage_binary);
  ADD("kernels", k_garbage_binary_unload);
  ADD("kernels", k_function_as_binary_unload);
  ADD("kernels", k_event_as_function);
  ADD("kernels", k_binary_as_function);
  ADD("kernels", k_stack_int_as_function);
  ADD("kernels", k_function_as_args);
  ADD("kernels", k_garbage_args_finalize);
  ADD("kernels", k_args_init_null_out);
  ADD("kernels", k_host_args_data_for_device_launch);
  ADD("kernels", k_null_args_data_with_size);
  ADD("kernels", k_launch_unfinalized_args);
  ADD("kernels", k_finalize_twice);
  ADD("kernels", k_append_after_finalize);
  ADD("kernels", k_append_null_param_handle);
  ADD("kernels", k_update_other_size);
  ADD("kernels", k_placeholder_buffer_of_plain_param);
  ADD("kernels", k_finalize_placeholder_without_buffer);
  ADD("kernels", k_reserve_not_null);
  ADD("kernels", k_launch_with_config_null_args);
  ADD("kernels", k_args_of_another_function);
  ADD("kernels", k_get_function_name_zero_len);
  ADD("kernels", k_load_null_path);
  ADD("kernels", k_load_missing_file);
  ADD("kernels", k_load_from_data_null);
  ADD("kernels", k_load_from_data_not_elf);
  ADD("kernels", k_destroy_binary_null);
  ADD("kernels", k_destroy_binary_twice);
  ADD("kernels", k_binary_load_destroyed_binary);
  ADD("kernels", k_destroy_binary_loaded_handle);
  ADD("kernels", k_create_binary_null);
  ADD("kernels", k_launch_cfg_unknown_attr);
  ADD("kernels", k_launch_cfg_attrs_null);
  ADD("kernels", k_update_param_of_other_args);
  ADD("kernels", k_stale_user_mem_args);
  ADD("kernels", k_function_of_other_device);
  ADD("kernels", k_device_args_of_other_device);
  ADD("kernels", k_launch_after_unload_then_valid_launch);

  ADD("in_use", use_destroy_stream_while_synchronized);
  ADD("in_use", use_destroy_event_while_synchronized);
  ADD("in_use", use_destroy_context_while_stream_synchronized);

  ADD("no_context", nc_create_stream);
  ADD("no_context", nc_create_event);
  ADD("no_context", nc_sync_default_stream);
  ADD("no_context", nc_sync_device);
  ADD("no_context", nc_malloc);
  ADD("no_context", nc_get_device);
  ADD("no_context", nc_get_current_context);
  ADD("no_context", nc_get_default_stream);
  ADD("no_context", nc_sync_stream_of_other_thread);
  ADD("no_context", nc_record_event_on_default_stream);
  ADD("no_context", nc_launch_host_func);
  ADD("no_context", nc_get_mem_info);
  ADD("no_context", nc_binary_load);
  ADD("no_context", nc_destroy_stream_of_other_thread);
  ADD("no_context", nc_memcpy);
  ADD("no_context", nc_free);
  ADD("no_context", nc_memset);
  ADD("no_context", nc_memcpy_async);
  ADD("no_context", nc_subscribe_default_stream);
  ADD("no_context", nc_launch_callback);
  ADD("no_context", nc_stream_wait_event);
  ADD("no_context", nc_create_stream_with_config);
  ADD("no_context", nc_enable_peer_access);
  ADD("no_context", nc_mem_flush);

  ADD("lifecycle", li_before_init_set_device);
  ADD("lifecycle", li_before_init_reset_device);
  ADD("lifecycle", li_before_init_create_context);
  ADD("lifecycle", li_before_init_create_stream);
  ADD("lifecycle", li_before_init_create_event);
  ADD("lifecycle", li_before_init_sync_stream);
  ADD("lifecycle", li_before_init_sync_device);
  ADD("lifecycle", li_before_init_malloc);
  ADD("lifecycle", li_before_init_memcpy);
  ADD("lifecycle", li_before_init_get_device_count);
  ADD("lifecycle", li_before_init_get_device);
  ADD("lifecycle", li_before_init_destroy_garbage_stream);
  ADD("lifecycle", li_before_init_destroy_garbage_event);
  ADD("lifecycle", li_before_init_set_garbage_context);
  ADD("lifecycle", li_before_init_launch_host_func);
  ADD("lifecycle", li_before_init_free_garbage);
  ADD("lifecycle", li_before_init_binary_load);
  ADD("lifecycle", li_before_init_process_report);
  ADD("lifecycle", li_before_init_malloc_host);
  ADD("lifecycle", li_before_init_get_device_info);
  ADD("lifecycle", li_before_init_priority_range);
  ADD("lifecycle", li_before_init_pointer_attributes);
  ADD("lifecycle", li_before_init_free_host_garbage);
  ADD("lifecycle", li_after_finalize_sync_stream);
  ADD("lifecycle", li_after_finalize_destroy_stream);
  ADD("lifecycle", li_after_finalize_destroy_event);
  ADD("lifecycle", li_after_finalize_record_event);
  ADD("lifecycle", li_after_finalize_destroy_context);
  ADD("lifecycle", li_after_finalize_set_context);
  ADD("lifecycle", li_after_finalize_free);
  ADD("lifecycle", li_after_finalize_set_device);
  ADD("lifecycle", li_after_finalize_create_stream);
  ADD("lifecycle", li_after_finalize_finalize_again);
  ADD("lifecycle", li_after_finalize_memcpy_to_old_pointer);
  ADD("lifecycle", li_after_finalize_unload_binary);
  ADD("lifecycle", li_after_reinit_old_stream);
  ADD("lifecycle", li_after_reinit_old_event);
  ADD("lifecycle", li_after_reinit_old_context);
  ADD("lifecycle", li_after_reinit_old_device_pointer);
  ADD("lifecycle", li_after_reinit_old_binary);
  ADD("lifecycle", li_init_twice);
  ADD("lifecycle", li_finalize_before_init);
}

static int run_case_body(const mcase *c) {
  switch (c->gen) {
  case 1: return run_stream_case(c->sub, c->kind);
  case 2: return run_event_case(c->sub, c->kind);
  case 3: return run_context_case(c->sub, c->kind);
  default: return c->fn();
  }
}

static int run_case_in_child(const void *c) { return run_case_body(c); }

/* Runs one case in a forked child; 1 when it passed. */
static int run_case(const mcase *c) {
  return misuse_in_child("misuse", c->group, c->name, run_case_in_child, c);
}

/* Runs every case of `group` (NULL: all); the test fails if any fails. */
static void run_group(const char *group) {
  /* Before any thread exists: the children inherit these. */
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
  printf("misuse%s%s: %d cases, %d passed, %d failed (of %d in the matrix)\n", group ? "/" : "", group ? group : "",
         ran, ran - failed, failed, n_cases);
  fflush(stdout);
  if (failed != 0)
    th_fail(__FILE__, __LINE__, "%d of %d misuse cases failed", failed, ran);
}

TEST(stream_handles) { run_group("stream_handles"); }
TEST(event_handles) { run_group("event_handles"); }
TEST(context_handles) { run_group("context_handles"); }
TEST(streams) { run_group("streams"); }
TEST(events) { run_group("events"); }
TEST(contexts) { run_group("contexts"); }
TEST(devices) { run_group("devices"); }
TEST(memory) { run_group("memory"); }
TEST(callbacks) { run_group("callbacks"); }
TEST(kernels) { run_group("kernels"); }
TEST(no_context) { run_group("no_context"); }
TEST(in_use) { run_group("in_use"); }
TEST(lifecycle) { run_group("lifecycle"); }

/* The matrix holds at least the 150 cases the issue asks for. */
TEST(matrix_size) {
  build_table();
  printf("%d misuse cases\n", n_cases);
  CHECK(n_cases >= 150);
}
