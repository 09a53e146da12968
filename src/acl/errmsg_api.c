/* errmsg_api.c - aclGetRecentErrMsg, aclrtGetLastError, aclrtPeekAtLastError. */
#include "acl/acl.h"
#include "common/errmsg.h"
#include "openacl/openacl.h"
#include "prof/prof.h"

const char *aclGetRecentErrMsg(void) { return acl__errmsg_take(); }

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  ACL__PROF_API_SCOPE();
  if (level != ACL_RT_THREAD_LEVEL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "level %d is not ACL_RT_THREAD_LEVEL (0)", (int)level);
  return acl__last_error_get(1);
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  ACL__PROF_API_SCOPE();
  if (level != ACL_RT_THREAD_LEVEL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "level %d is not ACL_RT_THREAD_LEVEL (0)", (int)level);
  return acl__last_error_get(0);
}

aclError openaclRecordError(const char *api, aclError code, const char *detail) {
  return acl__fail(api ? api : "(null)", code, __FILE__, __LINE__, "%s", detail ? detail : "(null)");
}
