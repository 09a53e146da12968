/*
 * cmo_api.c - cache maintenance with descriptors and barriers.  The
 * simulated device's caches are the host's, coherent: aclrtCmoAsync
 * (memory_batch_api.c) gives prefetches their stream order; these forms
 * check their arguments and say they are not implemented yet.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"

aclError aclrtCmoGetDescSize(size_t *size) {
  if (size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is NULL");
  return acl__not_supported(__func__, "issue 10", "descriptor cache operations are not implemented yet");
}

aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size) {
  if (cmoDesc == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", cmoDesc == NULL ? "cmoDesc" : "src");
  (void)size;
  return acl__not_supported(__func__, "issue 10", "descriptor cache operations are not implemented yet");
}

aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void *reserve) {
  if (cmoDesc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cmoDesc is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is not NULL; it is reserved and must be NULL");
  (void)cmoType;
  (void)stream;
  return acl__not_supported(__func__, "issue 10", "descriptor cache operations are not implemented yet");
}

aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
  if (src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "src is NULL");
  (void)size;
  (void)cmoType;
  (void)barrierId;
  (void)stream;
  return acl__not_supported(__func__, "issue 10", "cache operations with barriers are not implemented yet");
}

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag) {
  if (taskInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
  (void)stream;
  (void)flag;
  return acl__not_supported(__func__, "issue 10", "cache operations with barriers are not implemented yet");
}
