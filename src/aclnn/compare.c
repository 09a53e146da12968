/*
 * compare.c - the comparisons of reference aclnn.md section 8.10: Eq, Ne,
 * Gt, Ge, Lt, Le, each in a tensor form (broadcast), a scalar form and the
 * in-place forms of both.
 *
 * The operands are compared in their common type: the Tensor (+) Tensor
 * promotion for the tensor forms, the Tensor (+) Scalar one for the scalar
 * forms (an int32 tensor against 2.5 compares in float32); float16 and
 * bfloat16 values are compared as they are stored.  The result is 1 or 0
 * in out's type (any real type; bool is usual), or in selfRef's type in
 * place.  NaN compares unequal to everything, itself included.
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "prof/prof.h"

/* One comparison: `other` is a tensor (scalar == 0) or a scalar; in place
 * when out_name is NULL. */
static aclnnStatus cmp(const char *api, const char *api2, acl__nn_op op, const char *name, const aclTensor *self,
                       int scalar, const aclTensor *other, const aclScalar *sother, const char *out_name,
                       const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = ACL__NN_F_COMPARE,
      .rule = scalar ? ACL__NN_RULE_TS : ACL__NN_RULE_TT,
      .in_types = ACL__NN_ARITH,
      .out_types = ACL__NN_ARITH,
      .name = {name, "other"},
      .t = {self, other},
      .s = {NULL, sother},
      .nin = 2,
      .scalar_operand = {0, scalar},
      .out = out,
      .out_name = out_name != NULL ? out_name : name,
      .inplace = out_name == NULL,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

aclnnStatus aclnnEqTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnEqTensor", ACL__NN_EQ, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnEqTensor)

aclnnStatus aclnnEqScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnEqScalar", ACL__NN_EQ, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnEqScalar)

aclnnStatus aclnnInplaceEqTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceEqTensor", ACL__NN_EQ, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceEqTensor)

aclnnStatus aclnnInplaceEqScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceEqScalar", ACL__NN_EQ, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceEqScalar)

aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnNeTensor", ACL__NN_NE, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnNeTensor)

aclnnStatus aclnnNeScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnNeScalar", ACL__NN_NE, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnNeScalar)

aclnnStatus aclnnInplaceNeTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceNeTensor", ACL__NN_NE, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceNeTensor)

aclnnStatus aclnnInplaceNeScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceNeScalar", ACL__NN_NE, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceNeScalar)

aclnnStatus aclnnGtTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnGtTensor", ACL__NN_GT, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGtTensor)

aclnnStatus aclnnGtScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnGtScalar", ACL__NN_GT, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGtScalar)

aclnnStatus aclnnInplaceGtTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceGtTensor", ACL__NN_GT, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceGtTensor)

aclnnStatus aclnnInplaceGtScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceGtScalar", ACL__NN_GT, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceGtScalar)

aclnnStatus aclnnGeTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnGeTensor", ACL__NN_GE, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGeTensor)

aclnnStatus aclnnGeScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnGeScalar", ACL__NN_GE, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGeScalar)

aclnnStatus aclnnInplaceGeTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceGeTensor", ACL__NN_GE, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceGeTensor)

aclnnStatus aclnnInplaceGeScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceGeScalar", ACL__NN_GE, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceGeScalar)

aclnnStatus aclnnLtTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnLtTensor", ACL__NN_LT, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLtTensor)

aclnnStatus aclnnLtScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnLtScalar", ACL__NN_LT, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLtScalar)

aclnnStatus aclnnInplaceLtTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceLtTensor", ACL__NN_LT, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLtTensor)

aclnnStatus aclnnInplaceLtScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceLtScalar", ACL__NN_LT, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLtScalar)

aclnnStatus aclnnLeTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnLeTensor", ACL__NN_LE, "self", self, 0, other, NULL, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLeTensor)

aclnnStatus aclnnLeScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnLeScalar", ACL__NN_LE, "self", self, 1, NULL, other, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLeScalar)

aclnnStatus aclnnInplaceLeTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceLeTensor", ACL__NN_LE, "selfRef", selfRef, 0, other, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLeTensor)

aclnnStatus aclnnInplaceLeScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return cmp(__func__, "aclnnInplaceLeScalar", ACL__NN_LE, "selfRef", selfRef, 1, NULL, other, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLeScalar)
