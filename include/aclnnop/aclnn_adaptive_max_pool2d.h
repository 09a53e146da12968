/*
 * aclnnop/aclnn_adaptive_max_pool2d.h - outputOut, indicesOut = the adaptive max pooling of self to
 * outputSize. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx
 * queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_ADAPTIVE_MAX_POOL2D_H_
#define OP_API_INC_LEVEL2_ACLNN_ADAPTIVE_MAX_POOL2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
    aclTensor *outputOut, aclTensor *indicesOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveMaxPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_ADAPTIVE_MAX_POOL2D_H_ */
