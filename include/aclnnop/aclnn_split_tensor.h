/*
 * aclnnop/aclnn_split_tensor.h - the pieces of self along dim, splitSections long each (the last shorter), into a list.
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_SPLIT_TENSOR_H_
#define OP_API_INC_LEVEL2_ACLNN_SPLIT_TENSOR_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections, int64_t dim, aclTensorList *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSplitTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_SPLIT_TENSOR_H_ */
