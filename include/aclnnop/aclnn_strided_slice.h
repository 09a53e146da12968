/*
 * aclnnop/aclnn_strided_slice.h - out = TensorFlow's strided_slice of self (begin, end, strides and the five bit masks).
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_STRIDED_SLICE_H_
#define OP_API_INC_LEVEL2_ACLNN_STRIDED_SLICE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnStridedSliceGetWorkspaceSize(const aclTensor *self, const aclIntArray *begin, const aclIntArray *end,
    const aclIntArray *strides, int64_t beginMask, int64_t endMask, int64_t ellipsisMask, int64_t newAxisMask,
    int64_t shrinkAxisMask, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnStridedSlice(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_STRIDED_SLICE_H_ */
