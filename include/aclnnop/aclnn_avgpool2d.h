/*
 * aclnnop/aclnn_avgpool2d.h - out = the 2-D average pooling of self. Two phases each:
 * aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a stream
 * (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_AVGPOOL2D_H_
#define OP_API_INC_LEVEL2_ACLNN_AVGPOOL2D_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
    const aclIntArray *strides, const aclIntArray *paddings, const bool ceilMode, const bool countIncludePad,
    const int64_t divisorOverride, const int8_t cubeMathType, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_AVGPOOL2D_H_ */
