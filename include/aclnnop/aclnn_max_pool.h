/*
 * aclnnop/aclnn_max_pool.h - out = the ONNX MaxPool of self ((N,) C, H, W). Two phases each:
 * aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a stream
 * (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_MAX_POOL_H_
#define OP_API_INC_LEVEL2_ACLNN_MAX_POOL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelShape,
    const aclIntArray *strides, const int64_t autoPad, const aclIntArray *pads, const aclIntArray *dilations,
    const int64_t ceilMode, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMaxPool(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_MAX_POOL_H_ */
