/*
 * ri_api_pending.c - the model runtime instance ("ACL graph") functions of
 * acl_rt.h (ipc-vmm-graphs-tdt §5): declared and exported so that programs
 * build and link, with their pointer arguments checked as the vendor's ACL
 * layer checks them, then ACL_ERROR_RT_FEATURE_NOT_SUPPORT until a later
 * slice of issue 14 (task graphs) implements them.  Capture and replay are
 * in ri_api.c, build mode and conditional tasks in ri_build_api.c.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue *attrValue) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "attrValue");
  (void)attrId;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ACL__PROF_API_SCOPE();
  if (task == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "task is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (capture, build, replay and conditional tasks are implemented, docs/graphs.md)");
}
