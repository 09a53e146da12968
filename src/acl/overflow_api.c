/*
 * overflow_api.c - the public float-overflow functions of rt-breadth §3:
 * the device's saturation mode, a stream's overflow switch, and the
 * device's overflow status (src/rt/overflow.c; docs/devices.md).
 */
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/memory.h"
#include "rt/overflow.h"
#include "rt/rt.h"
#include "prof/prof.h"

#define ACL__OVERFLOW_STATUS_BYTES 64

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (mode != ACL_RT_OVERFLOW_MODE_SATURATION && mode != ACL_RT_OVERFLOW_MODE_INFNAN)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "mode %d is neither ACL_RT_OVERFLOW_MODE_SATURATION (0) nor ACL_RT_OVERFLOW_MODE_INFNAN (1)",
                     (int)mode);
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  if (mode == ACL_RT_OVERFLOW_MODE_SATURATION)
    return ACL__FAIL(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                     "the simulated device computes IEEE floats (ACL_RT_OVERFLOW_MODE_INFNAN: an overflow gives an "
                     "infinity, an invalid operation a NaN) and cannot saturate them, like an Ascend 950. Remedy: "
                     "keep ACL_RT_OVERFLOW_MODE_INFNAN and detect overflows with aclrtSetStreamOverflowSwitch and "
                     "aclrtGetOverflowStatus");
  return 0;
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (mode == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "mode is NULL");
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  *mode = ACL_RT_OVERFLOW_MODE_INFNAN;
  return 0;
}

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (flag > 1)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flag is %u; it must be 0 (off) or 1 (on)", flag);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__overflow_switch_set(s, flag); /* kernels launched from now on */
  return 0;
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (flag == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flag is NULL");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  *flag = acl__overflow_switch_get(s);
  return 0;
}

/* The copy of the status: 64 bytes of device memory of the stream's device. */
static int status_get(const char *api, void *out, uint64_t size, aclrtStream stream) {
  int rc = 0;
  if (size != ACL__OVERFLOW_STATUS_BYTES)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "outputSize is %llu; the overflow status is %d bytes. Remedy: aclrtMalloc %d bytes and pass %d",
                     (unsigned long long)size, ACL__OVERFLOW_STATUS_BYTES, ACL__OVERFLOW_STATUS_BYTES,
                     ACL__OVERFLOW_STATUS_BYTES);
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  acl__ptr_info info;
  acl__mem_classify(out, &info);
  if (info.kind != ACL__PTR_DEVICE || info.dev != s->dev || info.alloc_size - info.offset < size)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "outputAddr %p must point to %d bytes of device memory of device %d, the stream's (%s). "
                     "Remedy: aclrtMalloc the buffer on that device, then copy it to the host after the stream "
                     "has run the task",
                     out, ACL__OVERFLOW_STATUS_BYTES, (int)s->dev->id,
                     info.kind == ACL__PTR_DEVICE ? (info.dev != s->dev ? "it is memory of another device"
                                                                        : "the allocation is smaller")
                     : info.kind == ACL__PTR_DEVICE_UNALLOCATED ? "it is not in a live allocation"
                                                                : "it is host memory");
  return acl__overflow_status_get(api, s, out);
}

aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (outputAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "outputAddr is NULL. Remedy: pass 64 bytes of device memory");
  return status_get(__func__, outputAddr, outputSize, stream);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__overflow_status_reset(__func__, s);
}

/* The vendor's other names for the two above; without the ACL layer's NULL
 * check, so a NULL address is the runtime's 107000. */
aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (outputAddr == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "outputAddr is NULL. Remedy: pass 64 bytes of device memory");
  return status_get(__func__, outputAddr, outputSize, stream);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__overflow_status_reset(__func__, s);
}
