/*
 * aclnnop/aclnn_rms_norm.h - yOut = x / sqrt(mean(x^2) + epsilon) * gamma over the trailing gamma-rank
 * dims; rstdOut float32. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work,
 * aclnnXxx queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_RMS_NORM_H_
#define OP_API_INC_LEVEL2_ACLNN_RMS_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, double epsilon,
    const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnRmsNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_RMS_NORM_H_ */
