/*
 * reslimit.c - core limits and device limits (see reslimit.h).
 *
 * A core limit says how many cube or vector cores later tasks may use.  The
 * device's limit for the process lives in the device (res_limit, atomics:
 * any thread reads it); a stream's own limits live here, in a table keyed
 * by the stream's address (few streams have one; the table is cleaned when
 * a stream goes, so a new stream at the same address starts without).  The
 * thread's limit stream is a thread-local pointer that is only compared,
 * never dereferenced, so a stream destroyed meanwhile cannot be touched.
 *
 * On the simulated device the limits are bookkeeping: a kernel's blocks
 * still run on as many executors as are free (docs/devices.md).
 *
 * aclrtDeviceSetLimit's values (stack and printf FIFO sizes) are process-wide
 * and kept for the life of the process, as the vendor keeps them in its
 * runtime library; they are checked and rounded by the vendor's rules and
 * reported back, and change nothing on the simulated device, whose kernels
 * run on executor threads with the system's stack.  The SIMT items do not
 * exist here (no SIMT cores, like Atlas A2/A3): ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
 *
 * Locks: rl_lock (the stream table) and dl_lock (device limits) are leaves.
 * fork(): taken in the prepare step after the callback registry
 * (acl__reslimit_atfork, called by callback.c's fork hooks).
 */
#include "rt/reslimit.h"

#include <pthread.h>
#include <stdlib.h>

#include "common/errmsg.h"
#include "rt/callback.h"
#include "rt/device.h"

typedef struct rl_stream {
  const acl__stream *s;  /* compared only */
  uint32_t v[2];         /* 0: not set */
} rl_stream;

static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;
static rl_stream *rl_streams; /* rl_lock */
static int rl_n, rl_cap;      /* rl_lock */

static _Thread_local const acl__stream *rl_tls_stream; /* compared only */
static _Thread_local int32_t rl_tls_dev;               /* its device's id */

static pthread_mutex_t dl_lock = PTHREAD_MUTEX_INITIALIZER;

void acl__reslimit_atfork(int phase) {
  if (phase == ACL__FORK_PREPARE) {
    pthread_mutex_lock(&rl_lock);
    pthread_mutex_lock(&dl_lock);
  } else if (phase == ACL__FORK_PARENT) {
    pthread_mutex_unlock(&dl_lock);
    pthread_mutex_unlock(&rl_lock);
  } else {
    pthread_mutex_init(&rl_lock, NULL);
    pthread_mutex_init(&dl_lock, NULL);
    rl_n = 0; /* the parent's streams do not exist here (the table is forgotten, not freed) */
    rl_tls_stream = NULL;
  }
}

static const char *const rl_names[2] = {"ACL_RT_DEV_RES_CUBE_CORE", "ACL_RT_DEV_RES_VECTOR_CORE"};

/* ---- devices ------------------------------------------------------------------ */

uint32_t acl__reslimit_hw(const acl__device *d, int type) {
  int n = type == ACL_RT_DEV_RES_CUBE_CORE ? d->props.ai_core_num : d->props.vector_core_num;
  return n > 0 ? (uint32_t)n : 0;
}

uint32_t acl__reslimit_device(acl__device *d, int type) {
  uint32_t v = atomic_load(&d->res_limit[type]);
  return v != 0 ? v : acl__reslimit_hw(d, type);
}

static int rl_check(const char *api, const acl__device *d, int type, uint32_t value) {
  uint32_t hw = acl__reslimit_hw(d, type);
  if (value == 0 || value > hw)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "value %u for %s is outside 1..%u, the %s cores device %d has. Remedy: pass at most %u "
                     "(aclrtGetDeviceInfo reports the count; on the simulated device OPENACL_EXECUTOR_THREADS sets it)",
                     value, rl_names[type], hw, type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector",
                     (int)d->id, hw);
  return 0;
}

int acl__reslimit_device_set(const char *api, acl__device *d, int type, uint32_t value) {
  int rc = rl_check(api, d, type, value);
  if (rc == 0)
    atomic_store(&d->res_limit[type], value);
  return rc;
}

void acl__reslimit_device_reset(acl__device *d) {
  atomic_store(&d->res_limit[0], 0);
  atomic_store(&d->res_limit[1], 0);
}

/* ---- streams -------------------------------------------------------------------- */

static int rl_find_locked(const acl__stream *s) {
  for (int i = 0; i < rl_n; i++)
    if (rl_streams[i].s == s)
      return i;
  return -1;
}

/* The stream's own limit, 0 when not set. */
static uint32_t rl_own(const acl__stream *s, int type) {
  pthread_mutex_lock(&rl_lock);
  int i = rl_find_locked(s);
  uint32_t v = i >= 0 ? rl_streams[i].v[type] : 0;
  pthread_mutex_unlock(&rl_lock);
  return v;
}

uint32_t acl__reslimit_stream(const acl__stream *s, int type) {
  uint32_t v = rl_own(s, type);
  return v != 0 ? v : acl__reslimit_device(s->dev, type);
}

int acl__reslimit_stream_set(const char *api, const acl__stream *s, int type, uint32_t value) {
  /* checked against the hardware, not against the device's limit (the vendor's rule) */
  int rc = rl_check(api, s->dev, type, value);
  if (rc != 0)
    return rc;
  pthread_mutex_lock(&rl_lock);
  int i = rl_find_locked(s);
  if (i < 0 && rl_n == rl_cap) {
    int cap = rl_cap ? 2 * rl_cap : 16;
    rl_stream *bigger = realloc(rl_streams, (size_t)cap * sizeof(*bigger));
    if (bigger == NULL) {
      pthread_mutex_unlock(&rl_lock);
      return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a stream's limits");
    }
    rl_streams = bigger;
    rl_cap = cap;
  }
  if (i < 0) {
    i = rl_n++;
    rl_streams[i].s = s;
    rl_streams[i].v[0] = rl_streams[i].v[1] = 0;
  }
  rl_streams[i].v[type] = value;
  pthread_mutex_unlock(&rl_lock);
  return 0;
}

void acl__reslimit_stream_reset(const acl__stream *s) {
  pthread_mutex_lock(&rl_lock);
  int i = rl_find_locked(s);
  if (i >= 0)
    rl_streams[i] = rl_streams[--rl_n];
  pthread_mutex_unlock(&rl_lock);
}

void acl__reslimit_stream_gone(const acl__stream *s) { acl__reslimit_stream_reset(s); }

/* ---- the calling thread ------------------------------------------------------------ */

void acl__reslimit_thread_use(const acl__stream *s) {
  rl_tls_stream = s;
  rl_tls_dev = s->dev->id;
}

void acl__reslimit_thread_unuse(const acl__stream *s) {
  if (rl_tls_stream == s) /* another stream: nothing to undo (the vendor's rule) */
    rl_tls_stream = NULL;
}

int acl__reslimit_thread_has_stream(void) {
  if (rl_tls_stream != NULL && !acl__handle_valid(rl_tls_stream, ACL__H_STREAM))
    rl_tls_stream = NULL; /* destroyed since: the thread uses no stream now */
  return rl_tls_stream != NULL;
}

int acl__reslimit_thread(const char *api, acl__device *d, int type, uint32_t *value) {
  if (acl__reslimit_thread_has_stream()) {
    uint32_t v = rl_own(rl_tls_stream, type);
    acl__device *sd = acl__device_peek(rl_tls_dev);
    if (v == 0 && sd != NULL)
      v = acl__reslimit_device(sd, type);
    if (v != 0) {
      *value = v;
      return 0;
    }
  }
  if (d == NULL)
    return acl__fail(api, ACL_ERROR_RT_CONTEXT_NULL, __FILE__, __LINE__,
                     "this thread has no current context and uses no stream's limits. Remedy: call "
                     "aclrtSetDevice or aclrtUseStreamResInCurrentThread first");
  *value = acl__reslimit_device(d, type);
  return 0;
}

/* ---- aclrtDeviceSetLimit ----------------------------------------------------------------- */

/* by aclrtDeviceLimit: the vendor's defaults (dl_lock) */
static size_t dl_values[5] = {1152, 1024, 32768, 32768, 2u * 1024 * 1024};

static const char *const dl_names[5] = {
    "ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE", "ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE",
    "ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE", "ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE",
    "ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE"};

static int dl_check_kind(const char *api, aclrtDeviceLimit limit) {
  if ((int)limit < 0 || (int)limit > 4)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "limit %d is not an aclrtDeviceLimit (0..4)", (int)limit);
  if (limit == ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE || limit == ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE ||
      limit == ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "%s is a limit of SIMT cores, which the simulated device does not have (as Atlas A2/A3 "
                     "devices do not). Remedy: set only the SIMD limits (ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, "
                     "ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE)",
                     dl_names[limit]);
  return 0;
}

static size_t dl_round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

int acl__device_limit_set(const char *api, aclrtDeviceLimit limit, size_t value) {
  if ((int)limit < 0 || (int)limit > 4)
    return dl_check_kind(api, limit);
  if (value > UINT32_MAX)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "value %zu for %s is above UINT32_MAX", value, dl_names[limit]);
  int rc = dl_check_kind(api, limit);
  if (rc != 0)
    return rc;
  size_t v = value;
  if (limit == ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE) {
    if (value > 196608)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "value %zu for %s is above 196608 (192 KiB), the most a core's stack may have. Remedy: "
                       "pass at most 196608; values up to 32768 mean the default, 32768",
                       value, dl_names[limit]);
    v = value <= 32768 ? 32768 : dl_round_up(value, 16384);
  } else { /* SIMD_PRINTF_FIFO_SIZE_PER_CORE */
    if (value < 1024 || value > 64u * 1024 * 1024)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "value %zu for %s is outside [1024, 67108864] (1 KiB .. 64 MiB). Remedy: pass a size "
                       "in that range",
                       value, dl_names[limit]);
    v = dl_round_up(value, 8);
  }
  pthread_mutex_lock(&dl_lock);
  dl_values[limit] = v;
  pthread_mutex_unlock(&dl_lock);
  return 0;
}

int acl__device_limit_get(const char *api, aclrtDeviceLimit limit, size_t *value) {
  int rc = dl_check_kind(api, limit);
  if (rc != 0)
    return rc;
  pthread_mutex_lock(&dl_lock);
  *value = dl_values[limit];
  pthread_mutex_unlock(&dl_lock);
  return 0;
}
