/*
 * stream_config_api.c - stream configuration handles for aclrtCreateStreamV2
 * (which lives with the other creators in stream_api.c).
 *
 * aclrtStreamConfigHandle is a public struct.  Handles made here are
 * registered in the handle table so that a destroy of anything else (or of
 * one destroyed already) is an error, not a bad free; aclrtSetStreamConfigOpt
 * and aclrtCreateStreamV2 take any handle, as the vendor's do, including one
 * the program declared itself.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void) {
  ACL__PROF_API_SCOPE();
  aclrtStreamConfigHandle *h = calloc(1, sizeof(*h));
  if (h == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a stream configuration handle");
    return NULL;
  }
  acl__handle_register(h, ACL__H_STREAM_CONFIG);
  return h;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "handle is NULL");
  if (!acl__handle_valid(handle, ACL__H_STREAM_CONFIG))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "handle %p was not made by aclrtCreateStreamConfigHandle, or was destroyed already",
                     (void *)handle);
  acl__handle_unregister(handle);
  free(handle);
  return 0;
}

static int acl__config_size(const char *api, const char *attr, size_t got, size_t want, size_t alt) {
  if (got == want || (alt != 0 && got == alt))
    return 0;
  if (alt != 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s takes a value of %zu or %zu bytes, not %zu. Remedy: pass the size of the variable that "
                     "attrValue points to",
                     attr, alt, want, got);
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "%s takes a value of %zu bytes, not %zu. Remedy: pass the size of the variable that attrValue "
                   "points to",
                   attr, want, got);
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr, const void *attrValue,
                                 size_t valueSize) {
  ACL__PROF_API_SCOPE();
  int rc;
  if (handle == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "attrValue");
  switch (attr) {
  case ACL_RT_STREAM_WORK_ADDR_PTR:
    /* attrValue points to the pointer (pass &ptr) */
    if ((rc = acl__config_size(__func__, "ACL_RT_STREAM_WORK_ADDR_PTR", valueSize, sizeof(void *), 0)) != 0)
      return rc;
    memcpy(&handle->workptr, attrValue, sizeof(void *));
    return 0;
  case ACL_RT_STREAM_WORK_SIZE:
    if ((rc = acl__config_size(__func__, "ACL_RT_STREAM_WORK_SIZE", valueSize, sizeof(size_t), 0)) != 0)
      return rc;
    memcpy(&handle->workSize, attrValue, sizeof(size_t));
    return 0;
  case ACL_RT_STREAM_FLAG: {
    /* The vendor wants a size_t; its own sample passes a uint32_t with
     * valueSize 4.  Both are taken. */
    if ((rc = acl__config_size(__func__, "ACL_RT_STREAM_FLAG", valueSize, sizeof(size_t), sizeof(uint32_t))) != 0)
      return rc;
    if (valueSize == sizeof(uint32_t)) {
      uint32_t f;
      memcpy(&f, attrValue, sizeof(f));
      handle->flag = f;
    } else {
      memcpy(&handle->flag, attrValue, sizeof(size_t));
    }
    return 0;
  }
  case ACL_RT_STREAM_PRIORITY: {
    if ((rc = acl__config_size(__func__, "ACL_RT_STREAM_PRIORITY", valueSize, sizeof(uint32_t), 0)) != 0)
      return rc;
    uint32_t p;
    memcpy(&p, attrValue, sizeof(p));
    if (p > 7)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "priority %u is outside 0 (highest) .. 7 (lowest)", p);
    handle->priority = p;
    return 0;
  }
  default:
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "attr %d is not an aclrtStreamConfigAttr (ACL_RT_STREAM_WORK_ADDR_PTR 0 .. "
                     "ACL_RT_STREAM_PRIORITY 3)",
                     (int)attr);
  }
}
