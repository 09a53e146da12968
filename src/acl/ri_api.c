/*
 * ri_api.c - model runtime instances (aclmdlRI, "ACL graph",
 * ipc-vmm-graphs-tdt §5): capture, replay, names, ids, callbacks,
 * introspection: argument checks, then the runtime in src/rt/graph*.c.
 * Build mode and conditional tasks are in ri_build_api.c, task groups,
 * parameters and aborts in ri_update_api.c.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/graph.h"
#include "rt/rt.h"

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL; the default stream cannot be captured");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__graph_capture_begin(__func__, s, mode);
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  if (status == NULL && modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status and modelRI are both NULL; pass at least one");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__ri *ri = NULL;
  acl__graph_capture_info(s, status, &ri);
  if (modelRI != NULL)
    *modelRI = ri;
  return 0;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL || modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "modelRI");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__ri *ri = NULL;
  rc = acl__graph_capture_end(__func__, s, &ri);
  if (rc == 0 || rc == ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
    *modelRI = ri;
  return rc;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
  ACL__PROF_API_SCOPE();
  if (mode == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "mode is NULL");
  if ((int)*mode < 0 || *mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "*mode %d is not an aclmdlRICaptureMode (0 GLOBAL, 1 THREAD_LOCAL, 2 RELAXED)", (int)*mode);
  return acl__graph_exchange_mode(mode);
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  return acl__graph_execute_async(__func__, ri, s);
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (timeout < -1)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timeout %d is invalid: pass milliseconds, or -1 to wait forever",
                     (int)timeout);
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  /* an internal stream of the current context: the replay is ordered with nothing else */
  aclrtStream s = NULL;
  if ((rc = aclrtCreateStream(&s)) != 0)
    return rc;
  rc = acl__graph_execute_async(__func__, ri, (acl__stream *)s);
  if (rc == 0)
    rc = aclrtSynchronizeStreamWithTimeout(s, timeout);
  if (rc != 0)
    aclrtStreamAbort(s); /* a replay still parked (timeout) is discarded, so the RI is free again */
  aclrtDestroyStream(s);
  return rc;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_destroy(__func__, ri);
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || func == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "func");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_callback(__func__, ri, func, userData, 1);
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || func == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "func");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_callback(__func__, ri, func, NULL, 0);
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || name == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "name");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_set_name(ri, name);
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || name == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "name");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_get_name(__func__, ri, maxLen, name);
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || modelRIId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "modelRIId");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  *modelRIId = acl__graph_id(ri);
  return 0;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_debug_print(ri);
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || path == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "path");
  if (flags > ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "flags %u is neither ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY (0) nor ..._VERBOSE (1)", flags);
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  return acl__graph_debug_json(__func__, ri, path, flags);
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL || numStreams == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "numStreams");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  if (ri == NULL)
    return rc;
  uint32_t given = *numStreams;
  if (acl__graph_streams(ri, streams, numStreams))
    return ACL__FAIL(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                     "the array holds %u streams but aclmdlRI %u has more; %u were written. Remedy: call with "
                     "streams NULL to get the count",
                     given, acl__graph_id(ri), *numStreams);
  return 0;
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL || numTasks == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "numTasks");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  uint32_t given = *numTasks;
  if (acl__graph_tasks_of_stream(s, tasks, numTasks))
    return ACL__FAIL(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY,
                     "the array holds %u tasks but stream %d's model runtime instance has more; %u were written. "
                     "Remedy: call with tasks NULL to get the count",
                     given, s->id, *numTasks);
  return 0;
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL || type == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "type");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  if (t == NULL)
    return rc;
  *type = (aclmdlRITaskType)t->ri_type;
  return 0;
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL || id == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "id");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  if (t == NULL)
    return rc;
  *id = acl__graph_task_seq(t);
  return 0;
}
