/*
 * version.c - version queries.
 *
 * aclrtGetVersion reports the ACL API version openacl implements (the
 * ACL_*_VERSION macros of acl_rt.h), so programs that check the API level
 * behave as on a vendor stack.  aclsysGetVersionStr / aclsysGetVersionNum /
 * aclsysGetCANNVersion report openacl's own release: the whole stack is
 * openacl, so the "cann", "runtime" and "openacl" packages have it; packages
 * openacl does not ship (driver, firmware, opp, ...) are not installed.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "prof/prof.h"

aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion) {
  ACL__PROF_API_SCOPE();
  if (majorVersion == NULL || minorVersion == NULL || patchVersion == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     majorVersion == NULL ? "majorVersion" : minorVersion == NULL ? "minorVersion" : "patchVersion");
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

static int acl__package_known(const char *name) {
  return strcmp(name, "cann") == 0 || strcmp(name, "runtime") == 0 || strcmp(name, "openacl") == 0;
}

static int acl__package_missing(const char *api, const char *name) {
  return acl__fail(api, ACL_ERROR_INVALID_FILE, __FILE__, __LINE__,
                   "package '%s' is not installed: openacl provides the packages \"cann\", \"runtime\" and "
                   "\"openacl\" (there is no driver or firmware on a simulated device)",
                   name);
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr) {
  ACL__PROF_API_SCOPE();
  if (pkgName == NULL || versionStr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", pkgName == NULL ? "pkgName" : "versionStr");
  if (!acl__package_known(pkgName))
    return acl__package_missing(__func__, pkgName);
  snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", OPENACL_VERSION_STRING);
  return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum) {
  ACL__PROF_API_SCOPE();
  if (pkgName == NULL || versionNum == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", pkgName == NULL ? "pkgName" : "versionNum");
  if (!acl__package_known(pkgName))
    return acl__package_missing(__func__, pkgName);
  /* MMmmpp999: 999 marks a release, so alpha/beta/rc builds of the same
   * version (stages below 999) sort before it. */
  *versionNum = ((OPENACL_VERSION_MAJOR * 100 + OPENACL_VERSION_MINOR) * 100 + OPENACL_VERSION_PATCH) * 1000 + 999;
  return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version) {
  ACL__PROF_API_SCOPE();
  if (version == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "version is NULL");
  if (name != ACL_PKG_NAME_CANN && name != ACL_PKG_NAME_RUNTIME)
    return ACL__FAIL(ACL_ERROR_INVALID_FILE,
                     "package %d is not installed: openacl provides ACL_PKG_NAME_CANN and ACL_PKG_NAME_RUNTIME",
                     (int)name);
  memset(version, 0, sizeof(*version));
  snprintf(version->version, sizeof(version->version), "%s", OPENACL_VERSION_STRING);
  snprintf(version->majorVersion, sizeof(version->majorVersion), "%d", OPENACL_VERSION_MAJOR);
  snprintf(version->minorVersion, sizeof(version->minorVersion), "%d", OPENACL_VERSION_MINOR);
  snprintf(version->releaseVersion, sizeof(version->releaseVersion), "%d", OPENACL_VERSION_PATCH);
  snprintf(version->patchVersion, sizeof(version->patchVersion), "%d", 0);
  return ACL_SUCCESS;
}
