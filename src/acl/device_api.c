/* device_api.c - the public device functions. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/errmsg.h"
#include "rt/graph.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtSetDevice(int32_t deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  return acl__device_set(__func__, d);
}

static int acl__reset(const char *api, int32_t deviceId, int force) {
  int rc = acl__callback_forbid(api); /* a reset waits for the device's work */
  if (rc != 0)
    return rc;
  acl__device *d = acl__device_get(api, deviceId, &rc);
  return d == NULL ? rc : acl__device_reset(api, d, force);
}

aclError aclrtResetDevice(int32_t deviceId) { return acl__reset(__func__, deviceId, 0); }
aclError aclrtResetDeviceForce(int32_t deviceId) { return acl__reset(__func__, deviceId, 1); }

aclError aclrtGetDevice(int32_t *deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (deviceId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceId is NULL");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  *deviceId = c->dev->id;
  return 0;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (count == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "count is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (acl__device_count() == 0)
    return acl__rt_visibility_error(__func__);
  *count = (uint32_t)acl__device_count();
  return 0;
}

int acl__device_sync(const char *api, acl__device *d, int32_t timeout_ms) {
  /* Snapshot the streams under the locks, then wait on each with the time left. */
  size_t cap = 64, n = 0;
  acl__stream **list = malloc(cap * sizeof(*list));
  if (list == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
  pthread_mutex_lock(&d->lock);
  acl__context *ctxs[2] = {d->default_ctx, d->user_ctx_list};
  for (int k = 0; k < 2; k++)
    for (acl__context *c = ctxs[k]; c != NULL; c = k ? c->dev_next : NULL) {
      pthread_mutex_lock(&c->lock);
      for (acl__stream *s = c->default_stream; s != NULL; s = (s == c->default_stream) ? c->streams : s->ctx_next) {
        if (n == cap) {
          acl__stream **bigger = realloc(list, cap * 2 * sizeof(*list));
          if (bigger == NULL)
            break;
          list = bigger;
          cap *= 2;
        }
        list[n++] = s;
      }
      pthread_mutex_unlock(&c->lock);
    }
  pthread_mutex_unlock(&d->lock);
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (!acl__handle_valid(list[i], ACL__H_STREAM))
      continue; /* destroyed meanwhile */
    int32_t left = timeout_ms;
    if (timeout_ms > 0) {
      struct timespec t;
      clock_gettime(CLOCK_MONOTONIC, &t);
      int64_t spent = (int64_t)(t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
      left = spent >= timeout_ms ? 0 : (int32_t)(timeout_ms - spent);
    }
    rc = acl__stream_sync_api(api, list[i], left);
  }
  free(list);
  return rc;
}

static int acl__sync_device(const char *api, int32_t timeout) {
  int rc = acl__sync_precheck(api, timeout);
  if (rc != 0)
    return rc;
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  if ((rc = acl__graph_check_unsafe(api, NULL)) != 0) /* capture modes (graph.c) */
    return rc;
  return acl__device_sync(api, c->dev, timeout);
}

aclError aclrtSynchronizeDevice(void) { return acl__sync_device(__func__, -1); }
aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) { return acl__sync_device(__func__, timeout); }

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  acl__device *d = acl__device_get(__func__, (int32_t)deviceId, &rc);
  if (d == NULL)
    return rc;
  const acl__device_props *p = &d->props;
  switch (attr) {
  case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = p->executor_threads; return 0;
  case ACL_DEV_ATTR_AICORE_CORE_NUM:
  case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = p->ai_core_num; return 0;
  case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = p->vector_core_num; return 0;
  case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = (int64_t)p->memory_capacity; return 0;
  case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = (int64_t)p->l2_size; return 0;
  case ACL_DEV_ATTR_PHY_CHIP_ID: *value = d->phys_id; return 0;
  case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; return 0;
  case ACL_DEV_ATTR_DEVICE_FORM_FACTOR: *value = ACL_DEVICE_FORM_FACTOR_PCIE_CARD; return 0;
  case ACL_DEV_ATTR_HD_CONNECT_TYPE: *value = ACL_HOST_DEVICE_CONNECT_TYPE_PCIE; return 0;
  case ACL_DEV_ATTR_SMP_ID:
  case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
  case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
  case ACL_DEV_ATTR_SUPER_POD_ID:
  case ACL_DEV_ATTR_MAINBOARD_ID: *value = 0; return 0;
  case ACL_DEV_ATTR_WARP_SIZE:
  case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
  case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
  case ACL_DEV_ATTR_MAX_GRID_DIM_X:
  case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
  case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
  case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
  case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
  case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
  case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
  case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
  case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
  case ACL_DEV_ATTR_NPU_ARCH:
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "attribute %d describes SIMT or hardware details the simulated device does not have",
                     (int)attr);
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtDevAttr", (int)attr);
  }
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  acl__device *d = acl__device_get(__func__, (int32_t)deviceId, &rc);
  if (d == NULL)
    return rc;
  switch (deviceInfo) {
  case ACL_DEVICE_INFO_AI_CORE_NUM: *value = d->props.ai_core_num; return 0;
  case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = d->props.vector_core_num; return 0;
  case ACL_DEVICE_INFO_L2_SIZE: *value = (int64_t)d->props.l2_size; return 0;
  default: return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceInfo %d is not an aclDeviceInfo", (int)deviceInfo);
  }
}

aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (deviceStatus == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceStatus is NULL");
  if (acl__device_get(__func__, deviceId, &rc) == NULL)
    return rc;
  *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
  return 0;
}

aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority) {
  ACL__PROF_API_SCOPE();
  int live_rc = 0;
  if (!acl__rt_live(__func__, &live_rc))
    return live_rc;
  if (leastPriority == NULL || greatestPriority == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", leastPriority == NULL ? "leastPriority" : "greatestPriority");
  *leastPriority = 7;
  *greatestPriority = 0;
  return 0;
}

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (canAccessPeer == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "canAccessPeer is NULL");
  if (acl__device_get(__func__, deviceId, &rc) == NULL || acl__device_get(__func__, peerDeviceId, &rc) == NULL)
    return rc;
  if (deviceId == peerDeviceId)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "deviceId and peerDeviceId are both %d: a device is not its own peer",
                     (int)deviceId);
  *canAccessPeer = 1; /* simulated devices share one host: every pair can be peers */
  return 0;
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags must be 0, not %u", flags);
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  if (acl__device_get(__func__, peerDeviceId, &rc) == NULL)
    return rc;
  if (peerDeviceId == c->dev->id)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "device %d is the current device, not a peer", (int)peerDeviceId);
  pthread_mutex_lock(&c->dev->lock);
  c->dev->peer_mask |= (uint64_t)1 << peerDeviceId;
  pthread_mutex_unlock(&c->dev->lock);
  return 0;
}

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  if (acl__device_get(__func__, peerDeviceId, &rc) == NULL)
    return rc;
  pthread_mutex_lock(&c->dev->lock);
  int was = (c->dev->peer_mask >> peerDeviceId) & 1;
  c->dev->peer_mask &= ~((uint64_t)1 << peerDeviceId);
  pthread_mutex_unlock(&c->dev->lock);
  if (!was)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "peer access from device %d to device %d is not enabled. Remedy: call "
                     "aclrtDeviceEnablePeerAccess first",
                     (int)c->dev->id, (int)peerDeviceId);
  return 0;
}
