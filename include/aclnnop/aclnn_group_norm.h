/*
 * aclnnop/aclnn_group_norm.h - group normalisation of self viewed as [N, C, HxW], C split into group
 * groups. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx
 * queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_GROUP_NORM_H_
#define OP_API_INC_LEVEL2_ACLNN_GROUP_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
    const aclTensor *beta, int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor *out,
    aclTensor *meanOut, aclTensor *rstdOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_GROUP_NORM_H_ */
