/*
 * aclnnop/aclnn_batch_matmul.h - out [B, M, N] = self [B, M, K] @ mat2 [B, K, N] (a batch of 1 broadcasts).
 * Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on
 * a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_BATCH_MATMUL_H_
#define OP_API_INC_LEVEL2_ACLNN_BATCH_MATMUL_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBatchMatMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_BATCH_MATMUL_H_ */
