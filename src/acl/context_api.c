/* context_api.c - the public context functions: argument checks, then src/rt/context.c. */
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (context == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "context is NULL; pass where to store the new context");
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  acl__context *c = NULL;
  rc = acl__context_create_user(__func__, d, &c);
  if (rc == 0)
    *context = c;
  return rc;
}

/* The live context behind a handle, or a recorded failure. */
static acl__context *acl__context_resolve(const char *api, aclrtContext context, int *rc) {
  if (!acl__rt_live(api, rc))
    return NULL;
  if (context == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "context is NULL");
    return NULL;
  }
  if (!acl__handle_valid(context, ACL__H_CONTEXT)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "context %p is not a live context (destroyed already, released by aclrtResetDevice, or never "
                    "created)",
                    context);
    return NULL;
  }
  return context;
}

aclError aclrtDestroyContext(aclrtContext context) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__context *c = acl__context_resolve(__func__, context, &rc);
  return c == NULL ? rc : acl__context_destroy_user(__func__, c);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__context *c = acl__context_resolve(__func__, context, &rc);
  if (c == NULL)
    return rc;
  acl__context_set_current(c);
  return 0;
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (context == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "context is NULL");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  *context = c;
  return 0;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  *stream = c->default_stream;
  return 0;
}

aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (flags == NULL || active == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", flags == NULL ? "flags" : "active");
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  pthread_mutex_lock(&d->lock);
  *flags = 0;
  *active = d->default_ctx != NULL;
  pthread_mutex_unlock(&d->lock);
  return 0;
}
