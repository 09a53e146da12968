/*
 * ri_api_pending.c - the model runtime instance ("ACL graph") functions of
 * acl_rt.h (ipc-vmm-graphs-tdt §5): declared and exported so that programs
 * build and link, with their pointer arguments checked as the vendor's ACL
 * layer checks them, then ACL_ERROR_RT_FEATURE_NOT_SUPPORT until a later
 * slice of issue 14 (task graphs) implements them.  Single-stream capture
 * and replay are in ri_api.c.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "modelRI");
  (void)mode;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is not NULL; it is reserved and must be NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue *attrValue) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "attrValue");
  (void)attrId;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ACL__PROF_API_SCOPE();
  if (task == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "task is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "handle");
  (void)defaultLaunchValue;
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "ptr");
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  (void)params;
  (void)flags;
  return acl__not_supported(__func__, "issue 14", "not implemented yet: it comes in a later slice of issue 14 (single-stream capture and replay are implemented, docs/graphs.md)");
}
