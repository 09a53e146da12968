/*
 * aclnnop/aclnn_nonzero.h - out = the coordinates of self's non-zero elements, [N, rank]; out's view shape
 * is rewritten to the count after the run. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments
 * and plans the work, aclnnXxx queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_NONZERO_H_
#define OP_API_INC_LEVEL2_ACLNN_NONZERO_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNonzero(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_NONZERO_H_ */
