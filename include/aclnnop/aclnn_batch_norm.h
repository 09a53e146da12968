/*
 * aclnnop/aclnn_batch_norm.h - batch normalisation over channel dim 1, inference or training. Two phases
 * each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a stream
 * (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_BATCH_NORM_H_
#define OP_API_INC_LEVEL2_ACLNN_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
    const aclTensor *bias, aclTensor *runningMean, aclTensor *runningVar, bool training, double momentum, double eps,
    aclTensor *output, aclTensor *saveMean, aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_BATCH_NORM_H_ */
