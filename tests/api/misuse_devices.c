/*
 * misuse_devices.c - the misuse matrix of the functions of rt-breadth §3,
 * §4, §6 and §7 (api/misuse_devices/...): device queries and limits,
 * overflow, host-function threads, exception readers, allocators, labels.
 *
 * The harness is misuse.c's: each case sets up state through the public
 * API inside a forked child, performs ONE misuse, and checks that the call
 * returns the documented code, that aclGetRecentErrMsg() names the API
 * ("<api> failed"), that nothing crashes or hangs (alarm), and that the
 * runtime still works afterwards (a stream, a copy, a host function, a
 * synchronisation and a clean aclFinalize).  One ctest entry per area;
 * MISUSE_CASE=<substring> picks cases by name.
 *
 * The stream matrix crosses every function here that takes a stream with
 * every kind of bad stream: destroyed, garbage, a stack int, an event
 * handle, a context handle, a stream of another context (107003) and a
 * stream of a device that was reset.  The expected codes are those of
 * docs/devices.md, callbacks.md, allocators.md and labels.md.
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

#include "misuse_check.h"

static int up(void) {
  OK(aclInit(NULL));
  OK(aclrtSetDevice(0));
  return 0;
}

/* The runtime still works: a copy, a host function and a synchronisation. */
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

/* ---- the stream matrix ------------------------------------------------------------------- */

enum bad_kind {
  BAD_DESTROYED,
  BAD_GARBAGE,
  BAD_STACK,
  BAD_EVENT,
  BAD_CONTEXT,
  BAD_FOREIGN, /* a stream of a context on device 1: 107003 */
  BAD_RESET,   /* a stream of device 1, which was reset since */
  BAD_KIND_COUNT
};

static const char *const bad_names[BAD_KIND_COUNT] = {
    "destroyed", "garbage", "stack_int", "event_handle", "context_handle", "of_other_device_context",
    "of_reset_device"};

typedef struct mx_env {
  aclrtContext ctx0;
  aclrtStream stream;
  aclrtEvent event;
  void *dev;          /* 4096 bytes of device memory */
  aclrtAllocatorDesc desc;
  aclrtLabel label;
  aclrtLabelList list;
  int stack_int;
} mx_env;

static void *fake_alloc(aclrtAllocator a, size_t size) { (void)a, (void)size; return NULL; }
static void fake_free(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a, (void)b; }
static void *fake_addr(aclrtAllocatorBlock b) { return b; }

static int mx_env_make(mx_env *e) {
  memset(e, 0, sizeof(*e));
  if (up() != 0)
    return 1;
  OK(aclrtGetCurrentContext(&e->ctx0));
  OK(aclrtCreateStream(&e->stream));
  OK(aclrtCreateEvent(&e->event));
  OK(aclrtMalloc(&e->dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  e->desc = aclrtAllocatorCreateDesc();
  REQUIRE(e->desc != NULL);
  OK(aclrtAllocatorSetObjToDesc(e->desc, e));
  OK(aclrtAllocatorSetAllocFuncToDesc(e->desc, fake_alloc));
  OK(aclrtAllocatorSetFreeFuncToDesc(e->desc, fake_free));
  OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(e->desc, fake_addr));
  OK(aclrtCreateLabel(&e->label));
  OK(aclrtCreateLabelList(&e->label, 1, &e->list));
  return 0;
}

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
  case BAD_EVENT: *out = e->event; return 0;
  case BAD_CONTEXT: *out = e->ctx0; return 0;
  case BAD_FOREIGN: {
    aclrtContext c1;
    aclrtStream s;
    OK(aclrtCreateContext(&c1, 1));
    OK(aclrtCreateStream(&s));
    OK(aclrtSetCurrentContext(e->ctx0));
    *out = s;
    return 0;
  }
  case BAD_RESET: {
    aclrtStream s;
    OK(aclrtSetDevice(1));
    OK(aclrtCreateStream(&s));
    OK(aclrtResetDevice(1));
    OK(aclrtSetCurrentContext(e->ctx0));
    *out = s;
    return 0;
  }
  default: return 1;
  }
}

typedef struct stream_fn {
  const char *api;
  int (*call)(mx_env *e, aclrtStream s);
} stream_fn;

static int sf_get_res(mx_env *e, aclrtStream s) {
  (void)e;
  uint32_t v;
  return aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v);
}
static int sf_set_res(mx_env *e, aclrtStream s) { (void)e; return aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1); }
static int sf_reset_res(mx_env *e, aclrtStream s) { (void)e; return aclrtResetStreamResLimit(s); }
static int sf_use_res(mx_env *e, aclrtStream s) { (void)e; return aclrtUseStreamResInCurrentThread(s); }
static int sf_unuse_res(mx_env *e, aclrtStream s) { (void)e; return aclrtUnuseStreamResInCurrentThread(s); }
static int sf_set_ovf(mx_env *e, aclrtStream s) { (void)e; return aclrtSetStreamOverflowSwitch(s, 1); }
static int sf_get_ovf(mx_env *e, aclrtStream s) {
  (void)e;
  uint32_t f;
  return aclrtGetStreamOverflowSwitch(s, &f);
}
static int sf_get_status(mx_env *e, aclrtStream s) { return aclrtGetOverflowStatus(e->dev, 64, s); }
static int sf_reset_status(mx_env *e, aclrtStream s) { (void)e; return aclrtResetOverflowStatus(s); }
static int sf_get_fstatus(mx_env *e, aclrtStream s) { return aclrtGetFloatOverflowStatus(e->dev, 64, s); }
static int sf_reset_fstatus(mx_env *e, aclrtStream s) { (void)e; return aclrtResetFloatOverflowStatus(s); }
static int sf_sub_hf(mx_env *e, aclrtStream s) { (void)e; return aclrtSubscribeHostFunc((uint64_t)pthread_self(), s); }
static int sf_unsub_hf(mx_env *e, aclrtStream s) {
  (void)e;
  return aclrtUnSubscribeHostFunc((uint64_t)pthread_self(), s);
}
static int sf_alloc_reg(mx_env *e, aclrtStream s) { return aclrtAllocatorRegister(s, e->desc); }
static int sf_alloc_get(mx_env *e, aclrtStream s) {
  aclrtAllocatorDesc d;
  (void)e;
  return aclrtAllocatorGetByStream(s, &d, NULL, NULL, NULL, NULL, NULL);
}
static int sf_alloc_unreg(mx_env *e, aclrtStream s) { (void)e; return aclrtAllocatorUnregister(s); }
static int sf_set_label(mx_env *e, aclrtStream s) { return aclrtSetLabel(e->label, s); }
static int sf_switch_label(mx_env *e, aclrtStream s) { return aclrtSwitchLabelByIndex(e->dev, 1, e->list, s); }

static const stream_fn stream_fns[] = {
    {"aclrtGetStreamResLimit", sf_get_res},
    {"aclrtSetStreamResLimit", sf_set_res},
    {"aclrtResetStreamResLimit", sf_reset_res},
    {"aclrtUseStreamResInCurrentThread", sf_use_res},
    {"aclrtUnuseStreamResInCurrentThread", sf_unuse_res},
    {"aclrtSetStreamOverflowSwitch", sf_set_ovf},
    {"aclrtGetStreamOverflowSwitch", sf_get_ovf},
    {"aclrtGetOverflowStatus", sf_get_status},
    {"aclrtResetOverflowStatus", sf_reset_status},
    {"aclrtGetFloatOverflowStatus", sf_get_fstatus},
    {"aclrtResetFloatOverflowStatus", sf_reset_fstatus},
    {"aclrtSubscribeHostFunc", sf_sub_hf},
    {"aclrtUnSubscribeHostFunc", sf_unsub_hf},
    {"aclrtAllocatorRegister", sf_alloc_reg},
    {"aclrtAllocatorGetByStream", sf_alloc_get},
    {"aclrtAllocatorUnregister", sf_alloc_unreg},
    {"aclrtSetLabel", sf_set_label},
    {"aclrtSwitchLabelByIndex", sf_switch_label},
};
#define N_STREAM_FNS (sizeof(stream_fns) / sizeof(stream_fns[0]))

static int run_stream_case(int fn, int kind) {
  mx_env e;
  if (mx_env_make(&e) != 0)
    return 1;
  aclrtStream bad = NULL;
  if (make_bad_stream(&e, kind, &bad) != 0)
    return 1;
  int want = kind == BAD_FOREIGN ? ACL_ERROR_RT_STREAM_CONTEXT : ACL_ERROR_RT_INVALID_HANDLE;
  MISUSE(stream_fns[fn].call(&e, bad), want, stream_fns[fn].api);
  /* the good objects are untouched */
  OK(aclrtAllocatorRegister(e.stream, e.desc));
  OK(aclrtSetStreamOverflowSwitch(e.stream, 1));
  OK(aclrtGetOverflowStatus(e.dev, 64, e.stream));
  OK(aclrtSynchronizeStream(e.stream));
  OK(aclrtAllocatorDestroyDesc(e.desc));
  OK(aclrtDestroyLabelList(e.list));
  OK(aclrtDestroyLabel(e.label));
  return finish();
}

/* ---- other handles: descriptors, labels, lists, exception infos ------------------------ */

static int h_desc_destroyed(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  OK(aclrtAllocatorDestroyDesc(e.desc));
  MISUSE(aclrtAllocatorSetObjToDesc(e.desc, &e), ACL_ERROR_RT_INVALID_HANDLE, "aclrtAllocatorSetObjToDesc");
  return finish();
}

static int h_desc_is_a_stream(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtAllocatorDestroyDesc(e.stream), ACL_ERROR_RT_INVALID_HANDLE, "aclrtAllocatorDestroyDesc");
  return finish();
}

static int h_desc_garbage_register(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtAllocatorRegister(e.stream, &e.stack_int), ACL_ERROR_RT_INVALID_HANDLE, "aclrtAllocatorRegister");
  return finish();
}

static int h_desc_incomplete_register(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
  REQUIRE(d != NULL);
  MISUSE(aclrtAllocatorRegister(e.stream, d), ACL_ERROR_INVALID_PARAM, "aclrtAllocatorRegister");
  OK(aclrtAllocatorDestroyDesc(d));
  return finish();
}

static int h_alloc_get_unregistered(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtAllocatorDesc d;
  MISUSE(aclrtAllocatorGetByStream(e.stream, &d, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtAllocatorGetByStream");
  return finish();
}

static int h_label_destroyed_twice(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtLabel l;
  OK(aclrtCreateLabel(&l));
  OK(aclrtDestroyLabel(l));
  MISUSE(aclrtDestroyLabel(l), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabel");
  return finish();
}

static int h_label_is_a_list(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtDestroyLabel(e.list), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabel");
  return finish();
}

static int h_list_is_a_label(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtDestroyLabelList(e.label), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabelList");
  return finish();
}

static int h_list_garbage_switch(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtSwitchLabelByIndex(e.dev, 1, (aclrtLabelList)(uintptr_t)0x1234, e.stream), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtSwitchLabelByIndex");
  return finish();
}

static int h_list_of_stale_label(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtLabel l;
  aclrtLabelList list;
  OK(aclrtCreateLabel(&l));
  OK(aclrtDestroyLabel(l));
  MISUSE(aclrtCreateLabelList(&l, 1, &list), ACL_ERROR_RT_INVALID_HANDLE, "aclrtCreateLabelList");
  return finish();
}

static int h_label_of_other_context(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtContext c1;
  aclrtStream s1;
  OK(aclrtCreateContext(&c1, 1));
  OK(aclrtCreateStream(&s1));
  MISUSE(aclrtSetLabel(e.label, s1), ACL_ERROR_RT_LABEL_CONTEXT, "aclrtSetLabel");
  OK(aclrtDestroyContext(c1));
  OK(aclrtSetCurrentContext(e.ctx0));
  return finish();
}

static int h_list_of_other_context(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtContext c1;
  aclrtStream s1;
  OK(aclrtCreateContext(&c1, 1));
  OK(aclrtCreateStream(&s1));
  void *d1;
  OK(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  MISUSE(aclrtSwitchLabelByIndex(d1, 1, e.list, s1), ACL_ERROR_RT_LABEL_CONTEXT, "aclrtSwitchLabelByIndex");
  OK(aclrtFree(d1));
  OK(aclrtDestroyContext(c1));
  OK(aclrtSetCurrentContext(e.ctx0));
  return finish();
}

static int h_label_of_reset_device(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtLabel l1;
  OK(aclrtSetDevice(1));
  OK(aclrtCreateLabel(&l1));
  OK(aclrtResetDevice(1));
  OK(aclrtSetCurrentContext(e.ctx0));
  MISUSE(aclrtDestroyLabel(l1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyLabel");
  return finish();
}

static int h_set_label_unbound(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  MISUSE(aclrtSetLabel(e.label, e.stream), ACL_ERROR_RT_STREAM_MODEL, "aclrtSetLabel");
  return finish();
}

static int h_exception_info_garbage(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  void *p;
  uint32_t n;
  MISUSE(aclrtGetArgsFromExceptionInfo((const aclrtExceptionInfo *)&e.stack_int, &p, &n), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtGetArgsFromExceptionInfo");
  return finish();
}

static int h_exception_info_stream(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtFuncHandle f;
  MISUSE(aclrtGetFuncHandleFromExceptionInfo((const aclrtExceptionInfo *)e.stream, &f), ACL_ERROR_RT_INVALID_HANDLE,
         "aclrtGetFuncHandleFromExceptionInfo");
  return finish();
}

static int h_exception_info_task_id_stale(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  (void)aclGetRecentErrMsg();
  uint32_t v = aclrtGetTaskIdFromExceptionInfo((const aclrtExceptionInfo *)&e.stack_int);
  REQUIRE(v == 0xFFFFFFFFu);
  REQUIRE(expect_fail("aclrtGetTaskIdFromExceptionInfo(stack)", ACL_ERROR_RT_INVALID_HANDLE,
                      aclrtGetLastError(ACL_RT_THREAD_LEVEL), "aclrtGetTaskIdFromExceptionInfo"));
  return finish();
}

/* ---- NULL and out-of-range arguments ------------------------------------------------------ */

#define ARG_CASE(fname, call, want, api)                                       \
  static int fname(void) {                                                     \
    mx_env e;                                                                  \
    if (mx_env_make(&e)) return 1;                                             \
    MISUSE(call, want, api);                                                   \
    return finish();                                                           \
  }

static aclrtUtilizationInfo g_util_ext = {0, 0, 0, 0, (aclrtUtilizationExtendInfo *)&g_util_ext};
static aclrtUtilizationInfo g_util;
static aclrtUuid g_uuid;
static aclrtErrorInfo g_einfo;
static char g_pci[32];
static int32_t g_i32;
static uint32_t g_u32;
static uint64_t g_u64;

ARG_CASE(a_util_null, aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceUtilizationRate")
ARG_CASE(a_util_extend, aclrtGetDeviceUtilizationRate(0, &g_util_ext), ACL_ERROR_INVALID_PARAM,
         "aclrtGetDeviceUtilizationRate")
ARG_CASE(a_dev_res_null, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtGetDeviceResLimit")
ARG_CASE(a_dev_res_type, aclrtSetDeviceResLimit(0, (aclrtDevResLimitType)9, 1), ACL_ERROR_INVALID_PARAM,
         "aclrtSetDeviceResLimit")
ARG_CASE(a_dev_res_over, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1000), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSetDeviceResLimit")
ARG_CASE(a_stream_res_over, aclrtSetStreamResLimit(e.stream, ACL_RT_DEV_RES_VECTOR_CORE, 1000),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtSetStreamResLimit")
ARG_CASE(a_stream_res_null, aclrtGetStreamResLimit(e.stream, ACL_RT_DEV_RES_VECTOR_CORE, NULL),
         ACL_ERROR_INVALID_PARAM, "aclrtGetStreamResLimit")
ARG_CASE(a_thread_res_null, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtGetResInCurrentThread")
ARG_CASE(a_arch_null, aclrtCheckArchCompatibility(NULL, &e.stack_int), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtCheckArchCompatibility")
ARG_CASE(a_arch_unknown, aclrtCheckArchCompatibility("NotASoC", &e.stack_int), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtCheckArchCompatibility")
ARG_CASE(a_capability_null, aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL),
         ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCapability")
ARG_CASE(a_capability_type, aclrtGetDeviceCapability(0, (aclrtDevFeatureType)0, &e.stack_int),
         ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCapability")
ARG_CASE(a_uuid_null, aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetUuid")
ARG_CASE(a_limit_kind, aclrtDeviceSetLimit((aclrtDeviceLimit)7, 1), ACL_ERROR_INVALID_PARAM, "aclrtDeviceSetLimit")
ARG_CASE(a_limit_simt, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, 2048), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "aclrtDeviceSetLimit")
ARG_CASE(a_limit_range, aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE, 8),
         ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceSetLimit")
ARG_CASE(a_limit_get_null, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtDeviceGetLimit")
ARG_CASE(a_pci_null, aclrtDeviceGetPCIBusId(0, NULL, 16), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetPCIBusId")
ARG_CASE(a_pci_short, aclrtDeviceGetPCIBusId(0, g_pci, 4), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtDeviceGetPCIBusId")
ARG_CASE(a_pci_lookup_null, aclrtDeviceGetByPCIBusId(NULL, &e.stack_int), ACL_ERROR_INVALID_PARAM,
         "aclrtDeviceGetByPCIBusId")
ARG_CASE(a_pci_lookup_miss, aclrtDeviceGetByPCIBusId("0000:7f:00.0", &e.stack_int), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtDeviceGetByPCIBusId")
ARG_CASE(a_topo_null, aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevicesTopo")
ARG_CASE(a_topo_same, aclrtGetDevicesTopo(1, 1, &g_u64), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtGetDevicesTopo")
ARG_CASE(a_peer_status_null, aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtDevicePeerAccessStatus")
ARG_CASE(a_map_null, aclrtGetPhyDevIdByUserDevId(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetPhyDevIdByUserDevId")
ARG_CASE(a_tgid_null, aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid")
ARG_CASE(a_sat_mode, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSetDeviceSatMode")
ARG_CASE(a_sat_saturation, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
         "aclrtSetDeviceSatMode")
ARG_CASE(a_sat_null, aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceSatMode")
ARG_CASE(a_ovf_flag, aclrtSetStreamOverflowSwitch(e.stream, 3), ACL_ERROR_INVALID_PARAM,
         "aclrtSetStreamOverflowSwitch")
ARG_CASE(a_ovf_get_null, aclrtGetStreamOverflowSwitch(e.stream, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtGetStreamOverflowSwitch")
ARG_CASE(a_status_null, aclrtGetOverflowStatus(NULL, 64, e.stream), ACL_ERROR_INVALID_PARAM, "aclrtGetOverflowStatus")
ARG_CASE(a_status_size, aclrtGetOverflowStatus(e.dev, 63, e.stream), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtGetOverflowStatus")
ARG_CASE(a_status_host, aclrtGetOverflowStatus(&g_util_ext, 64, e.stream), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtGetOverflowStatus")
ARG_CASE(a_fstatus_null, aclrtGetFloatOverflowStatus(NULL, 64, e.stream), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtGetFloatOverflowStatus")
ARG_CASE(a_exc_register_null, aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtExceptionInfoCallbackRegister")
ARG_CASE(a_exc_unregister_null, aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtExceptionInfoCallbackUnregister")
ARG_CASE(a_verbose_null, aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetErrorVerbose")
ARG_CASE(a_repair_null, aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM, "aclrtRepairError")
ARG_CASE(a_hf_thread_zero, aclrtSubscribeHostFunc(0, e.stream), ACL_ERROR_RT_PARAM_INVALID, "aclrtSubscribeHostFunc")
ARG_CASE(a_hf_stream_null, aclrtSubscribeHostFunc(1, NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtSubscribeHostFunc")
ARG_CASE(a_hf_timeout, aclrtProcessHostFunc(-5), ACL_ERROR_RT_PARAM_INVALID, "aclrtProcessHostFunc")
ARG_CASE(a_hf_not_subscribed, aclrtProcessHostFunc(5), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessHostFunc")
ARG_CASE(a_hf_unsubscribe_none, aclrtUnSubscribeHostFunc(1, e.stream), ACL_ERROR_RT_STREAM_SUBSCRIBE,
         "aclrtUnSubscribeHostFunc")
ARG_CASE(a_desc_null, aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM, "aclrtAllocatorDestroyDesc")
ARG_CASE(a_desc_set_null, aclrtAllocatorSetFreeFuncToDesc(e.desc, NULL), ACL_ERROR_INVALID_PARAM,
         "aclrtAllocatorSetFreeFuncToDesc")
ARG_CASE(a_alloc_default_stream, aclrtAllocatorRegister(NULL, e.desc), ACL_ERROR_INVALID_PARAM,
         "aclrtAllocatorRegister")
ARG_CASE(a_alloc_get_null, aclrtAllocatorGetByStream(e.stream, NULL, NULL, NULL, NULL, NULL, NULL),
         ACL_ERROR_INVALID_PARAM, "aclrtAllocatorGetByStream")
ARG_CASE(a_label_null, aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateLabel")
ARG_CASE(a_list_empty, aclrtCreateLabelList(&e.label, 0, &e.list), ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateLabelList")
ARG_CASE(a_switch_max, aclrtSwitchLabelByIndex(e.dev, 2, e.list, e.stream), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSwitchLabelByIndex")
ARG_CASE(a_switch_host_ptr, aclrtSwitchLabelByIndex(&g_util_ext, 1, e.list, e.stream), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtSwitchLabelByIndex")

/* ---- device ids -------------------------------------------------------------------------------- */

#define DEVICE_CASE(fname, call, api)                                          \
  ARG_CASE(fname##_minus_one, call(-1), ACL_ERROR_RT_INVALID_DEVICEID, api)    \
  ARG_CASE(fname##_past_the_end, call(2), ACL_ERROR_RT_INVALID_DEVICEID, api)


#define D_UTIL(id) aclrtGetDeviceUtilizationRate((id), &g_util)
#define D_RES(id) aclrtGetDeviceResLimit((id), ACL_RT_DEV_RES_CUBE_CORE, &g_u32)
#define D_SETRES(id) aclrtSetDeviceResLimit((id), ACL_RT_DEV_RES_CUBE_CORE, 1)
#define D_RESETRES(id) aclrtResetDeviceResLimit((id))
#define D_CAP(id) aclrtGetDeviceCapability((id), ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &g_i32)
#define D_UUID(id) aclrtDeviceGetUuid((id), &g_uuid)
#define D_PCI(id) aclrtDeviceGetPCIBusId((id), g_pci, (int32_t)sizeof(g_pci))
#define D_TOPO(id) aclrtGetDevicesTopo((uint32_t)(id), 0, &g_u64)
#define D_VERBOSE(id) aclrtGetErrorVerbose((id), &g_einfo)
#define D_REPAIR(id) aclrtRepairError((id), &g_einfo)
#define D_LOGIC(id) aclrtGetLogicDevIdByUserDevId((id), &g_i32)
#define D_PHY(id) aclrtGetPhyDevIdByUserDevId((id), &g_i32)
#define D_USER_BY_PHY(id) aclrtGetUserDevIdByPhyDevId((id), &g_i32)

DEVICE_CASE(d_util, D_UTIL, "aclrtGetDeviceUtilizationRate")
DEVICE_CASE(d_res, D_RES, "aclrtGetDeviceResLimit")
DEVICE_CASE(d_setres, D_SETRES, "aclrtSetDeviceResLimit")
DEVICE_CASE(d_resetres, D_RESETRES, "aclrtResetDeviceResLimit")
DEVICE_CASE(d_cap, D_CAP, "aclrtGetDeviceCapability")
DEVICE_CASE(d_uuid, D_UUID, "aclrtDeviceGetUuid")
DEVICE_CASE(d_pci, D_PCI, "aclrtDeviceGetPCIBusId")
DEVICE_CASE(d_topo, D_TOPO, "aclrtGetDevicesTopo")
DEVICE_CASE(d_verbose, D_VERBOSE, "aclrtGetErrorVerbose")
DEVICE_CASE(d_repair, D_REPAIR, "aclrtRepairError")
DEVICE_CASE(d_logic, D_LOGIC, "aclrtGetLogicDevIdByUserDevId")
DEVICE_CASE(d_phy, D_PHY, "aclrtGetPhyDevIdByUserDevId")
DEVICE_CASE(d_user_by_phy, D_USER_BY_PHY, "aclrtGetUserDevIdByPhyDevId")
ARG_CASE(d_peer_status_out_of_range, aclrtDevicePeerAccessStatus(0, 9, &g_i32), ACL_ERROR_RT_PARAM_INVALID,
         "aclrtDevicePeerAccessStatus")

/* ---- a thread without a context ---------------------------------------------------------------- */

static int nc_body(void *arg) {
  int which = *(int *)arg;
  aclrtFloatOverflowMode m;
  uint32_t v;
  aclrtLabel l;
  switch (which) {
  case 0: MISUSE(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL,
                 "aclrtGetResInCurrentThread"); break;
  case 1: MISUSE(aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, &v), ACL_ERROR_RT_CONTEXT_NULL,
                 "aclrtGetStreamResLimit"); break;
  case 2: MISUSE(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_ERROR_RT_CONTEXT_NULL,
                 "aclrtSetDeviceSatMode"); break;
  case 3: MISUSE(aclrtGetDeviceSatMode(&m), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDeviceSatMode"); break;
  case 4: MISUSE(aclrtResetOverflowStatus(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtResetOverflowStatus"); break;
  case 5: MISUSE(aclrtCreateLabel(&l), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateLabel"); break;
  case 6: MISUSE(aclrtUseStreamResInCurrentThread(NULL), ACL_ERROR_RT_CONTEXT_NULL,
                 "aclrtUseStreamResInCurrentThread"); break;
  case 7: MISUSE(aclrtGetStreamOverflowSwitch(NULL, &v), ACL_ERROR_RT_CONTEXT_NULL,
                 "aclrtGetStreamOverflowSwitch"); break;
  default: return 1;
  }
  return 0;
}

static int run_nc(int which) {
  if (up()) return 1;
  if (in_thread(nc_body, &which) != 0)
    return 1;
  return finish();
}

static int nc_thread_res(void) { return run_nc(0); }
static int nc_stream_res(void) { return run_nc(1); }
static int nc_set_sat(void) { return run_nc(2); }
static int nc_get_sat(void) { return run_nc(3); }
static int nc_reset_status(void) { return run_nc(4); }
static int nc_create_label(void) { return run_nc(5); }
static int nc_use_res(void) { return run_nc(6); }
static int nc_get_ovf(void) { return run_nc(7); }

/* ---- before aclInit and after aclFinalize -------------------------------------------------------- */

#define LIFE_CASE(fname, call, api)                                            \
  static int fname##_before_init(void) {                                       \
    MISUSE(call, ACL_ERROR_UNINITIALIZE, api);                                 \
    return finish_init();                                                      \
  }                                                                            \
  static int fname##_after_finalize(void) {                                    \
    if (up()) return 1;                                                        \
    OK(aclFinalize());                                                         \
    MISUSE(call, ACL_ERROR_UNINITIALIZE, api);                                 \
    return finish_init();                                                      \
  }

static size_t g_size;
LIFE_CASE(l_util, aclrtGetDeviceUtilizationRate(0, &g_util), "aclrtGetDeviceUtilizationRate")
LIFE_CASE(l_res, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &g_u32), "aclrtGetDeviceResLimit")
LIFE_CASE(l_thread_res, aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &g_u32), "aclrtGetResInCurrentThread")
LIFE_CASE(l_stream_res, aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_CUBE_CORE, 1), "aclrtSetStreamResLimit")
LIFE_CASE(l_limit, aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &g_size), "aclrtDeviceGetLimit")
LIFE_CASE(l_arch, aclrtCheckArchCompatibility("Ascend910B3", &g_i32), "aclrtCheckArchCompatibility")
LIFE_CASE(l_uuid, aclrtDeviceGetUuid(0, &g_uuid), "aclrtDeviceGetUuid")
LIFE_CASE(l_pci, aclrtDeviceGetByPCIBusId("0000:01:00.0", &g_i32), "aclrtDeviceGetByPCIBusId")
LIFE_CASE(l_topo, aclrtGetDevicesTopo(0, 1, &g_u64), "aclrtGetDevicesTopo")
LIFE_CASE(l_peer, aclrtDevicePeerAccessStatus(0, 1, &g_i32), "aclrtDevicePeerAccessStatus")
LIFE_CASE(l_map, aclrtGetUserDevIdByLogicDevId(0, &g_i32), "aclrtGetUserDevIdByLogicDevId")
LIFE_CASE(l_tgid, aclrtDeviceGetBareTgid(&g_i32), "aclrtDeviceGetBareTgid")
LIFE_CASE(l_sat, aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), "aclrtSetDeviceSatMode")
LIFE_CASE(l_ovf, aclrtSetStreamOverflowSwitch(NULL, 1), "aclrtSetStreamOverflowSwitch")
LIFE_CASE(l_status, aclrtResetOverflowStatus(NULL), "aclrtResetOverflowStatus")
LIFE_CASE(l_hf_process, aclrtProcessHostFunc(10), "aclrtProcessHostFunc")
LIFE_CASE(l_hf_subscribe, aclrtSubscribeHostFunc(1, (aclrtStream)(uintptr_t)0x1234), "aclrtSubscribeHostFunc")
LIFE_CASE(l_verbose, aclrtGetErrorVerbose(0, &g_einfo), "aclrtGetErrorVerbose")
LIFE_CASE(l_label, aclrtCreateLabel((aclrtLabel *)&g_u64), "aclrtCreateLabel")
LIFE_CASE(l_label_destroy, aclrtDestroyLabel((aclrtLabel)(uintptr_t)0x1234), "aclrtDestroyLabel")
LIFE_CASE(l_alloc_register, aclrtAllocatorRegister((aclrtStream)(uintptr_t)0x1234, (aclrtAllocatorDesc)&g_u64),
          "aclrtAllocatorRegister")

/* ---- state misuse -------------------------------------------------------------------------------- */

static int s_hf_subscribe_twice(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  OK(aclrtSubscribeHostFunc(1, e.stream));
  MISUSE(aclrtSubscribeHostFunc(2, e.stream), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeHostFunc");
  OK(aclrtUnSubscribeHostFunc(1, e.stream));
  return finish();
}

static int s_hf_unsubscribe_other_thread(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  OK(aclrtSubscribeHostFunc(1, e.stream));
  MISUSE(aclrtUnSubscribeHostFunc(2, e.stream), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtUnSubscribeHostFunc");
  OK(aclrtUnSubscribeHostFunc(1, e.stream));
  return finish();
}

static int s_hf_thread_two_devices(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  OK(aclrtSubscribeHostFunc(1, e.stream));
  aclrtContext c1;
  aclrtStream s1;
  OK(aclrtCreateContext(&c1, 1));
  OK(aclrtCreateStream(&s1));
  MISUSE(aclrtSubscribeHostFunc(1, s1), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtSubscribeHostFunc");
  OK(aclrtDestroyContext(c1));
  OK(aclrtSetCurrentContext(e.ctx0));
  OK(aclrtUnSubscribeHostFunc(1, e.stream));
  return finish();
}

static int s_hf_process_timeout(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  OK(aclrtSubscribeHostFunc((uint64_t)pthread_self(), e.stream));
  MISUSE(aclrtProcessHostFunc(10), ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessHostFunc");
  OK(aclrtUnSubscribeHostFunc((uint64_t)pthread_self(), e.stream));
  return finish();
}

static int s_repair_fault(void) {
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtErrorInfo info;
  memset(&info, 0, sizeof(info));
  info.errorType = ACL_RT_ERROR_MEMORY;
  MISUSE(aclrtRepairError(0, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtRepairError");
  return finish();
}

static int s_thread_res_of_destroyed_stream(void) {
  /* not a misuse: a thread keeps using the limits of a stream destroyed since */
  mx_env e;
  if (mx_env_make(&e)) return 1;
  aclrtStream s;
  uint32_t v = 0;
  OK(aclrtCreateStream(&s));
  OK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 1));
  OK(aclrtUseStreamResInCurrentThread(s));
  OK(aclrtDestroyStream(s));
  OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
  REQUIRE(v >= 1);
  MISUSE(aclrtUnuseStreamResInCurrentThread(s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtUnuseStreamResInCurrentThread");
  return finish();
}

/* ---- the table ------------------------------------------------------------------------------------ */

typedef struct mcase {
  const char *group;
  char name[96];
  int (*fn)(void);
  int gen_fn, gen_kind; /* stream matrix: gen_fn >= 0 */
} mcase;

static mcase cases[1024];
static int n_cases;

static void add(const char *group, const char *name, int (*fn)(void)) {
  mcase *c = &cases[n_cases++];
  c->group = group;
  snprintf(c->name, sizeof(c->name), "%s", name);
  c->fn = fn;
  c->gen_fn = -1;
}

#define ADD(group, fn) add(group, #fn, fn)
#define ADD_DEV(fn) ADD("device_ids", fn##_minus_one), ADD("device_ids", fn##_past_the_end)
#define ADD_LIFE(fn) ADD("lifecycle", fn##_before_init), ADD("lifecycle", fn##_after_finalize)

static void build_table(void) {
  if (n_cases > 0)
    return;
  for (size_t f = 0; f < N_STREAM_FNS; f++)
    for (int k = 0; k < BAD_KIND_COUNT; k++) {
      mcase *c = &cases[n_cases++];
      c->group = "stream_handles";
      snprintf(c->name, sizeof(c->name), "%s_%s", stream_fns[f].api, bad_names[k]);
      c->gen_fn = (int)f;
      c->gen_kind = k;
    }
  ADD("other_handles", h_desc_destroyed);
  ADD("other_handles", h_desc_is_a_stream);
  ADD("other_handles", h_desc_garbage_register);
  ADD("other_handles", h_desc_incomplete_register);
  ADD("other_handles", h_alloc_get_unregistered);
  ADD("other_handles", h_label_destroyed_twice);
  ADD("other_handles", h_label_is_a_list);
  ADD("other_handles", h_list_is_a_label);
  ADD("other_handles", h_list_garbage_switch);
  ADD("other_handles", h_list_of_stale_label);
  ADD("other_handles", h_label_of_other_context);
  ADD("other_handles", h_list_of_other_context);
  ADD("other_handles", h_label_of_reset_device);
  ADD("other_handles", h_set_label_unbound);
  ADD("other_handles", h_exception_info_garbage);
  ADD("other_handles", h_exception_info_stream);
  ADD("other_handles", h_exception_info_task_id_stale);

  ADD("arguments", a_util_null);
  ADD("arguments", a_util_extend);
  ADD("arguments", a_dev_res_null);
  ADD("arguments", a_dev_res_type);
  ADD("arguments", a_dev_res_over);
  ADD("arguments", a_stream_res_over);
  ADD("arguments", a_stream_res_null);
  ADD("arguments", a_thread_res_null);
  ADD("arguments", a_arch_null);
  ADD("arguments", a_arch_unknown);
  ADD("arguments", a_capability_null);
  ADD("arguments", a_capability_type);
  ADD("arguments", a_uuid_null);
  ADD("arguments", a_limit_kind);
  ADD("arguments", a_limit_simt);
  ADD("arguments", a_limit_range);
  ADD("arguments", a_limit_get_null);
  ADD("arguments", a_pci_null);
  ADD("arguments", a_pci_short);
  ADD("arguments", a_pci_lookup_null);
  ADD("arguments", a_pci_lookup_miss);
  ADD("arguments", a_topo_null);
  ADD("arguments", a_topo_same);
  ADD("arguments", a_peer_status_null);
  ADD("arguments", a_map_null);
  ADD("arguments", a_tgid_null);
  ADD("arguments", a_sat_mode);
  ADD("arguments", a_sat_saturation);
  ADD("arguments", a_sat_null);
  ADD("arguments", a_ovf_flag);
  ADD("arguments", a_ovf_get_null);
  ADD("arguments", a_status_null);
  ADD("arguments", a_status_size);
  ADD("arguments", a_status_host);
  ADD("arguments", a_fstatus_null);
  ADD("arguments", a_exc_register_null);
  ADD("arguments", a_exc_unregister_null);
  ADD("arguments", a_verbose_null);
  ADD("arguments", a_repair_null);
  ADD("arguments", a_hf_thread_zero);
  ADD("arguments", a_hf_stream_null);
  ADD("arguments", a_hf_timeout);
  ADD("arguments", a_hf_not_subscribed);
  ADD("arguments", a_hf_unsubscribe_none);
  ADD("arguments", a_desc_null);
  ADD("arguments", a_desc_set_null);
  ADD("arguments", a_alloc_default_stream);
  ADD("arguments", a_alloc_get_null);
  ADD("arguments", a_label_null);
  ADD("arguments", a_list_empty);
  ADD("arguments", a_switch_max);
  ADD("arguments", a_switch_host_ptr);

  ADD_DEV(d_util);
  ADD_DEV(d_res);
  ADD_DEV(d_setres);
  ADD_DEV(d_resetres);
  ADD_DEV(d_cap);
  ADD_DEV(d_uuid);
  ADD_DEV(d_pci);
  ADD_DEV(d_topo);
  ADD_DEV(d_verbose);
  ADD_DEV(d_repair);
  ADD_DEV(d_logic);
  ADD_DEV(d_phy);
  ADD_DEV(d_user_by_phy);
  ADD("device_ids", d_peer_status_out_of_range);

  ADD("no_context", nc_thread_res);
  ADD("no_context", nc_stream_res);
  ADD("no_context", nc_set_sat);
  ADD("no_context", nc_get_sat);
  ADD("no_context", nc_reset_status);
  ADD("no_context", nc_create_label);
  ADD("no_context", nc_use_res);
  ADD("no_context", nc_get_ovf);

  ADD_LIFE(l_util);
  ADD_LIFE(l_res);
  ADD_LIFE(l_thread_res);
  ADD_LIFE(l_stream_res);
  ADD_LIFE(l_limit);
  ADD_LIFE(l_arch);
  ADD_LIFE(l_uuid);
  ADD_LIFE(l_pci);
  ADD_LIFE(l_topo);
  ADD_LIFE(l_peer);
  ADD_LIFE(l_map);
  ADD_LIFE(l_tgid);
  ADD_LIFE(l_sat);
  ADD_LIFE(l_ovf);
  ADD_LIFE(l_status);
  ADD_LIFE(l_hf_process);
  ADD_LIFE(l_hf_subscribe);
  ADD_LIFE(l_verbose);
  ADD_LIFE(l_label);
  ADD_LIFE(l_label_destroy);
  ADD_LIFE(l_alloc_register);

  ADD("state", s_hf_subscribe_twice);
  ADD("state", s_hf_unsubscribe_other_thread);
  ADD("state", s_hf_thread_two_devices);
  ADD("state", s_hf_process_timeout);
  ADD("state", s_repair_fault);
  ADD("state", s_thread_res_of_destroyed_stream);
}

static int run_case_body(const void *p) {
  const mcase *c = p;
  return c->gen_fn >= 0 ? run_stream_case(c->gen_fn, c->gen_kind) : c->fn();
}

/* Runs one case in a forked child; 1 when it passed. */
static int run_case(const mcase *c) {
  return misuse_in_child("misuse_devices", c->group, c->name, run_case_body, c);
}

static void run_group(const char *group) {
  /* before any thread exists: the children inherit these */
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
  printf("misuse_devices/%s: %d cases, %d passed, %d failed (of %d in the matrix)\n", group, ran, ran - failed,
         failed, n_cases);
  fflush(stdout);
  if (failed != 0)
    th_fail(__FILE__, __LINE__, "%d of %d misuse cases failed", failed, ran);
}

TEST(stream_handles) { run_group("stream_handles"); }
TEST(other_handles) { run_group("other_handles"); }
TEST(arguments) { run_group("arguments"); }
TEST(device_ids) { run_group("device_ids"); }
TEST(no_context) { run_group("no_context"); }
TEST(lifecycle) { run_group("lifecycle"); }
TEST(state) { run_group("state"); }

TEST(matrix_size) {
  build_table();
  printf("%d misuse cases\n", n_cases);
  CHECK(n_cases >= 250);
}
