/*
 * aclnnop/aclnn_slice.h - out = self[start:end:step] along dim.
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_SLICE_H_
#define OP_API_INC_LEVEL2_ACLNN_SLICE_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSlice(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_SLICE_H_ */
