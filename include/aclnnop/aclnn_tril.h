/*
 * aclnnop/aclnn_tril.h - the lower triangle of the last two dims (above the diagonal-shifted diagonal zeroed).
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_TRIL_H_
#define OP_API_INC_LEVEL2_ACLNN_TRIL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTril(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor *selfRef, int64_t diagonal,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceTril(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_TRIL_H_ */
