/*
 * aclnnop/aclnn_layer_norm.h - out = (input - mean) / sqrt(var + eps) * weight + bias over the trailing
 * normalizedShape dims. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans the work,
 * aclnnXxx queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_LAYER_NORM_H_
#define OP_API_INC_LEVEL2_ACLNN_LAYER_NORM_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps, aclTensor *out,
    aclTensor *meanOutOptional, aclTensor *rstdOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

ACLNN_API aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(const aclTensor *input,
    const aclIntArray *normalizedShape, const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
    aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional, int32_t implMode, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLayerNormWithImplMode(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_LAYER_NORM_H_ */
