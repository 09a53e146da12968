/*
 * aclnnop/aclnn_argsort.h - out = the indices that sort self along dim. Two phases each:
 * aclnnXxxGetWorkspaceSize checks the arguments and plans the work, aclnnXxx queues it on a stream
 * (docs/aclnn.md).
 */
#ifndef OP_API_INC_LEVEL2_ACLNN_ARGSORT_H_
#define OP_API_INC_LEVEL2_ACLNN_ARGSORT_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor *self, int64_t dim, bool descending,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnArgsort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_LEVEL2_ACLNN_ARGSORT_H_ */
