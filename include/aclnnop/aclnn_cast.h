/*
 * aclnnop/aclnn_cast.h - out = self converted to dtype (out of that type and self's shape).
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_CAST_H_
#define OP_API_INC_LEVEL2_ACLNN_CAST_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_CAST_H_ */
