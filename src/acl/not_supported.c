/*
 * not_supported.c - the failure every not-implemented public function
 * records (not_supported.h): one wording, so that aclGetRecentErrMsg always
 * names the function and says whether it is coming.
 */
#include "acl/not_supported.h"

#include "acl/acl.h"
#include "common/errmsg.h"

int acl__not_supported(const char *api, const char *issue, const char *why) {
  if (issue != NULL && issue[0] != '\0')
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "%s is not implemented by openacl yet (%s will bring it): %s. Remedy: avoid %s for now, or "
                     "treat 207000 as \"not available on this device\" as programs do for features a card lacks",
                     api, issue, why, api);
  return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "%s is not supported on openacl's simulated device: %s. Remedy: treat 207000 as \"not "
                   "available on this device\", as programs do for features a card lacks",
                   api, why);
}
