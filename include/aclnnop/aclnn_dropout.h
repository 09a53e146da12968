/*
 * aclnnop/aclnn_dropout.h - out = input with elements zeroed with probability p and the rest scaled by 1/(1-p), seeded;
 * maskOut = the kept elements, one bit each.
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_DROPOUT_H_
#define OP_API_INC_LEVEL2_ACLNN_DROPOUT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor *input, double p, bool train, int64_t seed, int64_t offset, aclTensor *out,
    aclTensor *maskOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDropout(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_DROPOUT_H_ */
