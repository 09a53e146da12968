/*
 * device_limit_api.c - the public limit functions of rt-breadth §3: core
 * limits of a device, of a stream and of the calling thread
 * (aclrt{Get,Set,Reset}{Device,Stream}ResLimit,
 * aclrt{Use,Unuse}StreamResInCurrentThread, aclrtGetResInCurrentThread) and
 * the process-wide device limits (aclrtDeviceSetLimit / GetLimit).  The
 * bookkeeping is src/rt/reslimit.c; docs/devices.md has the rules.
 */
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/reslimit.h"
#include "rt/rt.h"
#include "prof/prof.h"

static int type_check(const char *api, aclrtDevResLimitType type) {
  if (type == ACL_RT_DEV_RES_CUBE_CORE || type == ACL_RT_DEV_RES_VECTOR_CORE)
    return 0;
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "type %d is not an aclrtDevResLimitType (ACL_RT_DEV_RES_CUBE_CORE = 0, "
                   "ACL_RT_DEV_RES_VECTOR_CORE = 1)",
                   (int)type);
}

/* ---- the device's limits for the process ---------------------------------------- */

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if ((rc = type_check(__func__, type)) != 0)
    return rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  *value = acl__reslimit_device(d, (int)type);
  return 0;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  ACL__PROF_API_SCOPE();
  int rc = type_check(__func__, type);
  if (rc != 0)
    return rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  return d == NULL ? rc : acl__reslimit_device_set(__func__, d, (int)type, value);
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  acl__reslimit_device_reset(d);
  return 0;
}

/* ---- a stream's limits ------------------------------------------------------------- */

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if ((rc = type_check(__func__, type)) != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  *value = acl__reslimit_stream(s, (int)type);
  return 0;
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  ACL__PROF_API_SCOPE();
  int rc = type_check(__func__, type);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__reslimit_stream_set(__func__, s, (int)type, value);
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__reslimit_stream_reset(s);
  return 0;
}

/* ---- the calling thread -------------------------------------------------------------- */

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__reslimit_thread_use(s); /* the last call wins */
  return 0;
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__reslimit_thread_unuse(s); /* only when it is the thread's stream */
  return 0;
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if ((rc = type_check(__func__, type)) != 0)
    return rc;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__device *d = NULL;
  if (!acl__reslimit_thread_has_stream()) {
    acl__context *c = acl__context_current(__func__, &rc);
    if (c == NULL)
      return rc;
    d = c->dev;
  }
  return acl__reslimit_thread(__func__, d, (int)type, value);
}

/* ---- process-wide device limits ---------------------------------------------------------- */

aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__device_limit_set(__func__, limit, value);
}

aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__device_limit_get(__func__, limit, value);
}
