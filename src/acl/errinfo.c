/*
 * errinfo.c - the openacl error-table extension (openacl/openacl.h):
 * explaining a code by number, by name or by position in the table.
 *
 * These functions only read the static table in src/common/error_table.h,
 * so they work before aclInit and after aclFinalize, from any thread.  A
 * NULL info pointer is a caller error and is recorded for
 * aclGetRecentErrMsg; a code or name that is not in the table is an answer
 * (ACL_ERROR_INVALID_PARAM with info cleared), so it records nothing.
 */
#include <stddef.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "common/error.h"
#include "openacl/openacl.h"

/* Copies a table entry to the public struct, or clears it when e is NULL.
 * Returns the code the public functions report. */
static aclError errinfo_fill(const acl__error_info *e, openaclErrorInfo *info) {
  if (e == NULL) {
    memset(info, 0, sizeof(*info));
    return ACL_ERROR_INVALID_PARAM;
  }
  info->name = e->name;
  info->code = e->code;
  info->meaning = e->meaning;
  info->causes = e->causes;
  info->remedy = e->remedy;
  return ACL_SUCCESS;
}

aclError openaclGetErrorInfo(aclError code, openaclErrorInfo *info) {
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL");
  return errinfo_fill(acl__error_lookup(code), info);
}

aclError openaclGetErrorInfoByName(const char *name, openaclErrorInfo *info) {
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL");
  return errinfo_fill(acl__error_lookup_name(name), info);
}

const char *openaclGetErrorName(aclError code) { return acl__error_name(code); }

size_t openaclGetErrorCount(void) { return acl__error_count(); }

aclError openaclGetErrorInfoByIndex(size_t index, openaclErrorInfo *info) {
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL");
  return errinfo_fill(acl__error_at(index), info);
}
