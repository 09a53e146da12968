/*
 * math.c - the element-wise unary math operators of reference aclnn.md
 * section 8.2: Neg, Abs, Exp, Log, Log2, Log10, Log1p, Sqrt, Rsqrt,
 * Reciprocal, Sin, Cos, Tan, Atan, Sinh, Cosh, Erf, and their in-place
 * forms where the vendor has one.
 *
 * Floating functions compute in self's type when it is floating and in
 * float32 for integral and bool inputs (the vendor's rule), so their
 * output must be floating.  Neg and Abs compute in self's type; the output
 * must be castable from it.
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tan.h"
#include "prof/prof.h"

#define NEG_T (ACL__NN_FLOATS | ACL__NN_BIT(ACL_INT8) | ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))
#define EXP_T (ACL__NN_FLOATS | ACL__NN_BIT(ACL_BOOL) | ACL__NN_BIT(ACL_INT64))
#define ERF_T EXP_T

aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnNeg", ACL__NN_NEG, 0, NEG_T, ACL__NN_ARITH, "self", self, "out", out,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnNeg)

aclnnStatus aclnnInplaceNegGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceNeg", ACL__NN_NEG, 0, NEG_T, ACL__NN_ARITH, "selfRef", selfRef, NULL,
                       NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceNeg)

aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnAbs", ACL__NN_ABS, 0, ACL__NN_ARITH, ACL__NN_ARITH, "self", self, "out", out,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAbs)

aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnExp", ACL__NN_EXP, ACL__NN_F_FLOAT, EXP_T, ACL__NN_FLOATS, "self", self, "out",
                       out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnExp)

aclnnStatus aclnnInplaceExpGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceExp", ACL__NN_EXP, ACL__NN_F_FLOAT, EXP_T, ACL__NN_FLOATS, "selfRef",
                       selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceExp)

aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnLog", ACL__NN_LOG, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self", self,
                       "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLog)

aclnnStatus aclnnInplaceLogGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceLog", ACL__NN_LOG, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLog)

aclnnStatus aclnnLog2GetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnLog2", ACL__NN_LOG2, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLog2)

aclnnStatus aclnnInplaceLog2GetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceLog2", ACL__NN_LOG2, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLog2)

aclnnStatus aclnnLog10GetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnLog10", ACL__NN_LOG10, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLog10)

aclnnStatus aclnnInplaceLog10GetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceLog10", ACL__NN_LOG10, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLog10)

aclnnStatus aclnnLog1pGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnLog1p", ACL__NN_LOG1P, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLog1p)

aclnnStatus aclnnInplaceLog1pGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceLog1p", ACL__NN_LOG1P, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLog1p)

aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **opExecutor) {
  return acl__nn_unary(__func__, "aclnnSqrt", ACL__NN_SQRT, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, opExecutor);
}
ACL__NN_PHASE2(aclnnSqrt)

aclnnStatus aclnnInplaceSqrtGetWorkspaceSize(aclTensor *self, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceSqrt", ACL__NN_SQRT, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "self", self, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSqrt)

aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnRsqrt", ACL__NN_RSQRT, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRsqrt)

aclnnStatus aclnnInplaceRsqrtGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceRsqrt", ACL__NN_RSQRT, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceRsqrt)

aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnReciprocal", ACL__NN_RECIP, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "self", self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnReciprocal)

aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(const aclTensor *selfRef, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceReciprocal", ACL__NN_RECIP, ACL__NN_F_FLOAT, ACL__NN_ARITH,
                       ACL__NN_FLOATS, "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceReciprocal)

aclnnStatus aclnnSinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnSin", ACL__NN_SIN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self", self,
                       "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSin)

aclnnStatus aclnnInplaceSinGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceSin", ACL__NN_SIN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSin)

aclnnStatus aclnnCosGetWorkspaceSize(const aclTensor *input, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnCos", ACL__NN_COS, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "input",
                       input, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnCos)

aclnnStatus aclnnInplaceCosGetWorkspaceSize(aclTensor *inputRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceCos", ACL__NN_COS, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "inputRef", inputRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceCos)

aclnnStatus aclnnTanGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnTan", ACL__NN_TAN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self", self,
                       "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnTan)

aclnnStatus aclnnInplaceTanGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceTan", ACL__NN_TAN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceTan)

aclnnStatus aclnnAtanGetWorkspaceSize(const aclTensor *input, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnAtan", ACL__NN_ATAN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "input",
                       input, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAtan)

aclnnStatus aclnnInplaceAtanGetWorkspaceSize(aclTensor *inputRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceAtan", ACL__NN_ATAN, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "inputRef", inputRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceAtan)

aclnnStatus aclnnSinhGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnSinh", ACL__NN_SINH, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSinh)

aclnnStatus aclnnInplaceSinhGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceSinh", ACL__NN_SINH, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSinh)

aclnnStatus aclnnCoshGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnCosh", ACL__NN_COSH, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS, "self",
                       self, "out", out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnCosh)

aclnnStatus aclnnInplaceCoshGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceCosh", ACL__NN_COSH, ACL__NN_F_FLOAT, ACL__NN_ARITH, ACL__NN_FLOATS,
                       "selfRef", selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceCosh)

aclnnStatus aclnnErfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnErf", ACL__NN_ERF, ACL__NN_F_FLOAT, ERF_T, ACL__NN_FLOATS, "self", self, "out",
                       out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnErf)

aclnnStatus aclnnInplaceErfGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_unary(__func__, "aclnnInplaceErf", ACL__NN_ERF, ACL__NN_F_FLOAT, ERF_T, ACL__NN_FLOATS, "selfRef",
                       selfRef, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceErf)
