/*
 * ri_api_pending.c - the model runtime instance ("ACL graph") functions of
 * acl_rt.h (ipc-vmm-graphs-tdt §5): declared and exported so that programs
 * build and link, with their pointer arguments checked as the vendor's ACL
 * layer checks them, then ACL_ERROR_RT_FEATURE_NOT_SUPPORT until issue 14
 * (task graphs) replaces this file.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  (void)mode;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "modelRI");
  (void)mode;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  if (status == NULL && modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status and modelRI are both NULL; pass at least one");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "modelRI");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
  ACL__PROF_API_SCOPE();
  if (mode == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "mode is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "handle");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is not NULL; it is reserved and must be NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "stream");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  (void)stream;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  (void)timeout;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIAbort(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || func == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "func");
  (void)userData;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || func == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "func");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRISetName(aclmdlRI modelRI, const char *name) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || name == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "name");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || name == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "name");
  (void)maxLen;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || modelRIId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "modelRIId");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || path == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "path");
  (void)flags;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || numStreams == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "numStreams");
  (void)streams;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL || numTasks == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stream == NULL ? "stream" : "numTasks");
  (void)tasks;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || type == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "type");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || id == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "id");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || params == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "params");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                        aclrtLaunchKernelAttrValue *attrValue) {
  ACL__PROF_API_SCOPE();
  if (task == NULL || attrValue == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", task == NULL ? "task" : "attrValue");
  (void)attrId;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRITaskDisable(aclmdlRITask task) {
  ACL__PROF_API_SCOPE();
  if (task == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "task is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIUpdate(aclmdlRI modelRI) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "modelRI is NULL");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle *handle) {
  ACL__PROF_API_SCOPE();
  if (modelRI == NULL || handle == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", modelRI == NULL ? "modelRI" : "handle");
  (void)defaultLaunchValue;
  (void)flag;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr) {
  ACL__PROF_API_SCOPE();
  if (handle == NULL || ptr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", handle == NULL ? "handle" : "ptr");
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
  ACL__PROF_API_SCOPE();
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  (void)params;
  (void)flags;
  return acl__not_supported(__func__, "issue 14", "aclmdlRI task graphs (capture, build, replay) are not implemented");
}
