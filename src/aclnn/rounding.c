/*
 * rounding.c - Floor, Ceil, Round (halves to even), Trunc and their
 * in-place forms, and Sign (reference aclnn.md section 8.2).  The rounding
 * operators write self's own type; on integers they copy.  Sign gives
 * -1, 0 or +1 (0 for NaN: uncertain, docs/aclnn.md).
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_trunc.h"
#include "prof/prof.h"

#define FLOOR_T (ACL__NN_FLOATS | ACL__NN_SINTS | ACL__NN_BIT(ACL_UINT8))
#define ROUND_T (ACL__NN_FLOATS | ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))
#define TRUNC_T (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))
#define SIGN_T (ACL__NN_FLOATS | ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64) | ACL__NN_BIT(ACL_BOOL))

aclnnStatus aclnnFloorGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnFloor", ACL__NN_FLOOR, ACL__NN_F_OUT_SAME, FLOOR_T, FLOOR_T, "self", self, "out",
                       out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnFloor)

aclnnStatus aclnnInplaceFloorGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceFloor", ACL__NN_FLOOR, ACL__NN_F_OUT_SAME, FLOOR_T, FLOOR_T, "selfRef",
                       selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceFloor)

aclnnStatus aclnnCeilGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnCeil", ACL__NN_CEIL, ACL__NN_F_OUT_SAME, ACL__NN_FLOATS, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnCeil)

aclnnStatus aclnnInplaceCeilGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceCeil", ACL__NN_CEIL, ACL__NN_F_OUT_SAME, ACL__NN_FLOATS, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceCeil)

aclnnStatus aclnnRoundGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnRound", ACL__NN_ROUND, ACL__NN_F_OUT_SAME, ROUND_T, ROUND_T, "self", self, "out",
                       out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRound)

aclnnStatus aclnnInplaceRoundGetWorkspaceSize(const aclTensor *selfRef, uint64_t *workspaceSize,
                                              aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceRound", ACL__NN_ROUND, ACL__NN_F_OUT_SAME, ROUND_T, ROUND_T, "selfRef",
                       selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceRound)

aclnnStatus aclnnTruncGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnTrunc", ACL__NN_TRUNC, ACL__NN_F_OUT_SAME, TRUNC_T, TRUNC_T, "self", self, "out",
                       out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnTrunc)

aclnnStatus aclnnInplaceTruncGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceTrunc", ACL__NN_TRUNC, ACL__NN_F_OUT_SAME, TRUNC_T, TRUNC_T, "selfRef",
                       selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceTrunc)

aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor *self, aclTensor *result, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnSign", ACL__NN_SIGN, 0, SIGN_T, ACL__NN_ARITH, "self", self, "result", result,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSign)
