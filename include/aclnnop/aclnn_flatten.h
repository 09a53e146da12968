/*
 * aclnnop/aclnn_flatten.h - out = self flattened to 2-D at axis (ONNX Flatten).
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_FLATTEN_H_
#define OP_API_INC_LEVEL2_ACLNN_FLATTEN_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor *self, int64_t axis, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlatten(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_FLATTEN_H_ */
