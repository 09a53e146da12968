/*
 * dump_api_pending.c - aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump
 * (prof-dump §4.1): declared and exported so that programs build and link,
 * then ACL_ERROR_RT_FEATURE_NOT_SUPPORT until issue 12 (dump) replaces this
 * file.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "acl/process.h"
#include "common/errmsg.h"

aclError aclmdlInitDump(void) {
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  return acl__not_supported(__func__, "issue 12", "dump configured at run time is not implemented");
}

aclError aclmdlSetDump(const char *dumpCfgPath) {
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  if (dumpCfgPath == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dumpCfgPath is NULL");
  return acl__not_supported(__func__, "issue 12", "dump configured at run time is not implemented");
}

aclError aclmdlFinalizeDump(void) {
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  return acl__not_supported(__func__, "issue 12", "dump configured at run time is not implemented");
}
