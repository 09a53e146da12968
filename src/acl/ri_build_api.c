/*
 * ri_build_api.c - model runtime instances built stream by stream
 * (aclmdlRIBuild*, aclmdlRIBindStream, aclmdlRIEndTask), branch captures and
 * conditional tasks (aclmdlRICaptureToModelRIBegin, aclmdlRICondHandle*,
 * aclmdlRIAddCondTask) and the stream switches of built instances
 * (aclrtActiveStream, aclrtSwitchStream): the vendor's ACL-layer argument
 * checks (NULL -> 100000), then src/rt/graph_build.c / graph_cond.c.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/graph.h"
#include "rt/rt.h"

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL || modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "modelRI");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__graph_capture_into(__func__, s, ri, mode);
}

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (flag != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "flag is %u; it is reserved and must be 0", flag);
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  acl__ri *ri = NULL;
  if ((rc = acl__graph_build_begin(__func__, c, &ri)) != 0)
    return rc;
  *modelRI = ri;
  return 0;
}

/* The RI and stream of a build call, both checked. */
static int ri_and_stream(const char *api, aclmdlRI modelRI, aclrtStream stream, acl__ri **ri, acl__stream **s) {
  int rc = 0;
  if (modelRI == NULL || stream == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     modelRI == NULL ? "modelRI" : "stream");
  if ((*ri = acl__ri_resolve(api, modelRI, &rc)) == NULL)
    return rc;
  if ((*s = acl__stream_resolve(api, stream, &rc)) == NULL)
    return rc;
  return 0;
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  acl__ri *ri = NULL;
  acl__stream *s = NULL;
  int rc = ri_and_stream(__func__, modelRI, stream, &ri, &s);
  return rc != 0 ? rc : acl__graph_bind(__func__, ri, s, flag);
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__ri *ri = NULL;
  acl__stream *s = NULL;
  int rc = ri_and_stream(__func__, modelRI, stream, &ri, &s);
  return rc != 0 ? rc : acl__graph_end_task(__func__, ri, s);
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  return ri == NULL ? rc : acl__graph_build_end(__func__, ri);
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__ri *ri = NULL;
  acl__stream *s = NULL;
  int rc = ri_and_stream(__func__, modelRI, stream, &ri, &s);
  return rc != 0 ? rc : acl__graph_unbind(__func__, ri, s);
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle *handle) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "handle");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_cond_create(__func__, ri, defaultLaunchValue, flag, handle);
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "ptr");
  return acl__graph_cond_ptr(__func__, handle, ptr);
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL; conditional tasks go on the capturing stream");
  if (params.handle == NULL || params.modelRIArray == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "params.%s is NULL",
                     params.handle == NULL ? "handle" : "modelRIArray");
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "flags is %u; it is reserved and must be 0", flags);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__graph_cond_add(__func__, &params, s);
}

aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (activeStream == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL; both streams must be streams of a model runtime instance",
                     activeStream == NULL ? "activeStream" : "stream");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__stream *a = acl__stream_resolve(__func__, activeStream, &rc);
  if (a == NULL)
    return rc;
  return acl__graph_active_stream(__func__, a, s);
}

aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue, aclrtCompareDataType dataType,
                           aclrtStream trueStream, aclrtStream falseStream, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (leftValue == NULL || rightValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL; pass device memory holding the value to compare",
                     leftValue == NULL ? "leftValue" : "rightValue");
  if (trueStream == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL; pass a stream of the model runtime instance",
                     trueStream == NULL ? "trueStream" : "stream");
  if (falseStream != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "falseStream is reserved and must be NULL");
  if ((unsigned)cond > ACL_RT_LESS_OR_EQUAL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cond %d is not an aclrtCondition (ACL_RT_EQUAL 0 .. "
                     "ACL_RT_LESS_OR_EQUAL 5)", (int)cond);
  if ((unsigned)dataType > ACL_RT_SWITCH_INT64)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataType %d is not ACL_RT_SWITCH_INT32 (0) or ACL_RT_SWITCH_INT64 (1)", (int)dataType);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__stream *t = acl__stream_resolve(__func__, trueStream, &rc);
  if (t == NULL)
    return rc;
  return acl__graph_switch_stream(__func__, leftValue, cond, rightValue, dataType, t, s);
}
