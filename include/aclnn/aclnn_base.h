/*
 * aclnn/aclnn_base.h - the base of every aclnn operator header: the common
 * objects (aclnn/acl_meta.h), the status codes (aclnn/opdev/op_errno.h) and
 * the process-wide set-up of the operator library.
 *
 * aclInit calls aclnnInit and aclFinalize calls aclnnFinalize, so programs
 * need not; both may be called any number of times (docs/aclnn.md).
 */
#ifndef OP_API_INC_ACLNN_BASE_H_
#define OP_API_INC_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath: NULL, or a JSON file {"op_debug_config": {"enable_debug_kernel": "on"|"off"}};
 * a missing or unreadable file is not an error. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_ACLNN_BASE_H_ */
