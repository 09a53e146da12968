/*
 * aclnnop/aclnn_slice_v2.h - out = self sliced along several axes (starts, ends, axes, steps).
 * Two phases: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a
 * stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_SLICE_V2_H_
#define OP_API_INC_LEVEL2_ACLNN_SLICE_V2_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *starts, const aclIntArray *ends, const aclIntArray *axes,
    const aclIntArray *steps, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSliceV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_SLICE_V2_H_ */
