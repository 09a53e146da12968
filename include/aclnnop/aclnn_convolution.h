/*
 * aclnnop/aclnn_convolution.h - output = the 1-D, 2-D or 3-D convolution (or transposed convolution) of
 * input with weight, plus bias. Two phases each: aclnnXxxGetWorkspaceSize checks the arguments and plans
 * the work, aclnnXxx queues it on a stream (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_CONVOLUTION_H_
#define OP_API_INC_LEVEL2_ACLNN_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
    const aclTensor *bias, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation,
    bool transposed, const aclIntArray *outputPadding, const int64_t groups, aclTensor *output, int8_t cubeMathType,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConvolution(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_CONVOLUTION_H_ */
