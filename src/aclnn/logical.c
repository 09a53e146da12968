/*
 * logical.c - the truth-valued element-wise operators: LogicalNot,
 * LogicalAnd, LogicalOr (and in place) and IsFinite (reference aclnn.md
 * section 8.2).  Zero is false, anything else (NaN too) true; results are
 * 1 / 0 written in the output's type (bool as a rule).  And / Or broadcast
 * and need no common type of their operands.
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "prof/prof.h"

static aclnnStatus acl__nn_logical(const char *api, const char *api2, acl__nn_op op, const aclTensor *self,
                                   const aclTensor *other, const aclTensor *out, int inplace, uint64_t *workspaceSize,
                                   aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = ACL__NN_F_RESULT_BOOL,
      .rule = ACL__NN_RULE_NONE,
      .in_types = ACL__NN_ARITH,
      .out_types = ACL__NN_ARITH,
      .name = {inplace ? "selfRef" : "self", "other"},
      .t = {self, other},
      .nin = 2,
      .out = out,
      .out_name = "out",
      .inplace = inplace,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_logical(__func__, "aclnnLogicalAnd", ACL__NN_AND, self, other, out, 0, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLogicalAnd)

aclnnStatus aclnnInplaceLogicalAndGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return acl__nn_logical(__func__, "aclnnInplaceLogicalAnd", ACL__NN_AND, selfRef, other, NULL, 1, workspaceSize,
                         executor);
}
ACL__NN_PHASE2(aclnnInplaceLogicalAnd)

aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_logical(__func__, "aclnnLogicalOr", ACL__NN_OR, self, other, out, 0, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLogicalOr)

aclnnStatus aclnnInplaceLogicalOrGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor) {
  return acl__nn_logical(__func__, "aclnnInplaceLogicalOr", ACL__NN_OR, selfRef, other, NULL, 1, workspaceSize,
                         executor);
}
ACL__NN_PHASE2(aclnnInplaceLogicalOr)

aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnLogicalNot", ACL__NN_NOT, ACL__NN_F_RESULT_BOOL, ACL__NN_ARITH, ACL__NN_ARITH,
                       "self", self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLogicalNot)

aclnnStatus aclnnInplaceLogicalNotGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceLogicalNot", ACL__NN_NOT, ACL__NN_F_RESULT_BOOL, ACL__NN_ARITH,
                       ACL__NN_ARITH, "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLogicalNot)

aclnnStatus aclnnIsFiniteGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                          aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnIsFinite", ACL__NN_ISFINITE, ACL__NN_F_OUT_BOOL, ACL__NN_FLOATS,
                       ACL__NN_BIT(ACL_BOOL), "self", self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnIsFinite)
