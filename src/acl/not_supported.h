/*
 * not_supported.h - the one way a public function says it is not
 * implemented on openacl.  scripts/rt_functions_table.py finds the calls of
 * acl__not_supported in src/acl/ to list these functions, with the reason
 * and the issue that will bring them, in docs/rt-functions.md; so call it
 * with string literals, each on one line.
 */
#ifndef OPENACL_ACL_NOT_SUPPORTED_H
#define OPENACL_ACL_NOT_SUPPORTED_H

/* Records a failure of `api` with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000)
 * and returns that code.  `issue` names the open issue that will implement
 * the function ("issue 13"), or is "" when nothing will because the
 * simulated device cannot give the function a meaning; `why` says what is
 * missing, in the user's terms. */
int acl__not_supported(const char *api, const char *issue, const char *why);

#endif
