/*
 * ri_update_api.c - changing model runtime instances after recording:
 * task groups and their updates (aclmdlRICaptureTaskGrp*,
 * aclmdlRICaptureTaskUpdate*), task parameters (aclmdlRITaskGetParams /
 * SetParams, aclmdlRIKernelTaskGetAttribute, aclmdlRITaskDisable,
 * aclmdlRIUpdate) and aclmdlRIAbort: the vendor's ACL-layer checks (NULL ->
 * 100000), then src/rt/graph_update.c.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/graph.h"
#include "rt/rt.h"

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__graph_grp_begin(__func__, s);
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__graph_grp_end(__func__, s, handle);
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__graph_update_begin(__func__, s, handle);
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__graph_update_end(__func__, s);
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  return ri == NULL ? rc : acl__graph_abort(__func__, ri);
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  return t == NULL ? rc : acl__graph_task_get(__func__, t, params);
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  return t == NULL ? rc : acl__graph_task_set(__func__, t, params);
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue *attrValue) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "attrValue");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  return t == NULL ? rc : acl__graph_kernel_attr(__func__, t, attrId, attrValue);
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (task == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "task is NULL");
  acl__task *t = acl__ri_task_resolve(__func__, task, &rc);
  return t == NULL ? rc : acl__graph_task_disable(__func__, t);
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  acl__ri *ri = acl__ri_resolve(__func__, modelRI, &rc);
  return ri == NULL ? rc : acl__graph_update(__func__, ri);
}
