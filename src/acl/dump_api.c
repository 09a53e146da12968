/*
 * dump_api.c - the dump API's public entry points (docs/dump.md):
 * aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump (prof-dump §4.1),
 * acldumpRegCallback / UnregCallback / GetPath (§4.2, §4.4), the
 * exception-info helpers (§4.5) and aclopStartDumpArgs / StopDumpArgs
 * (§4.3).  Argument checks here; the bodies are in src/dump/.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/process.h"
#include "common/errmsg.h"
#include "dump/dump.h"
#include "prof/prof.h"

aclError aclmdlInitDump(void) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  return acl__dump_init_api(__func__);
}

aclError aclmdlSetDump(const char *dumpCfgPath) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  return acl__dump_set_api(__func__, dumpCfgPath);
}

aclError aclmdlFinalizeDump(void) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  return acl__dump_finalize_api(__func__);
}

aclError acldumpRegCallback(int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag) {
  ACL__PROF_API_SCOPE();
  if (messageCallback == NULL)
    return ACL__FAIL(ACL_ERROR_FAILURE, "messageCallback is NULL; pass the function that receives dump chunks");
  if (flag != 0)
    return ACL__FAIL(ACL_ERROR_FAILURE, "flag is %d; only 0 (deliver to the callback instead of files) is supported",
                     (int)flag);
  return acl__dump_cb_register(messageCallback);
}

void acldumpUnregCallback(void) { acl__dump_cb_unregister(); }

const char *acldumpGetPath(acldumpType dumpType) { return acl__dump_get_path(dumpType); }

aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen) {
  ACL__PROF_API_SCOPE();
  return acl__dump_exception_path_api(__func__, path, maxLen);
}

aclError acldumpSaveExceptionInfo(const char *fileName, const char *userTag, const acldumpTensorInfo *tensors,
                                  size_t tensorCount) {
  ACL__PROF_API_SCOPE();
  return acl__dump_save_exception_api(__func__, fileName, userTag, tensors, tensorCount);
}

/* aclopStartDumpArgs: openacl runs no single-operator API, so there is no
 * operator info to record; the calls keep their documented checks and
 * create the directory (prof-dump §4.3, "(openacl)"). */
static pthread_mutex_t args_lock = PTHREAD_MUTEX_INITIALIZER;
static int args_started; /* args_lock */

aclError aclopStartDumpArgs(uint32_t dumpType, const char *path) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (path == NULL || path[0] == '\0')
    return ACL__FAIL(ACL_ERROR_FAILURE, "path is %s; pass the directory for the operator info files",
                     path == NULL ? "NULL" : "empty");
  if (!(dumpType & ACL_OP_DUMP_OP_AICORE_ARGS))
    return ACL__FAIL(ACL_ERROR_FAILURE, "dumpType 0x%x lacks ACL_OP_DUMP_OP_AICORE_ARGS (0x1)", dumpType);
  pthread_mutex_lock(&args_lock);
  if (args_started) {
    rc = ACL__FAIL(ACL_ERROR_FAILURE, "the operator info record is already started. Remedy: call "
                                      "aclopStopDumpArgs first");
  } else if (acl__dump_mkdirs(path) != 0 || access(path, R_OK | W_OK | X_OK) != 0) {
    rc = ACL__FAIL(ACL_ERROR_FAILURE,
                   "path '%s' cannot be created or is not a directory this process may read and "
                   "write: %s",
                   path, strerror(errno));
  } else {
    args_started = 1;
  }
  pthread_mutex_unlock(&args_lock);
  return rc;
}

aclError aclopStopDumpArgs(uint32_t dumpType) {
  ACL__PROF_API_SCOPE();
  pthread_mutex_lock(&args_lock);
  if (dumpType & ACL_OP_DUMP_OP_AICORE_ARGS)
    args_started = 0;
  pthread_mutex_unlock(&args_lock);
  return ACL_SUCCESS;
}
