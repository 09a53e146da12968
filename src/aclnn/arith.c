/*
 * arith.c - the element-wise arithmetic operators of reference aclnn.md
 * section 8.1: Add, Adds, AddV3, Sub, Subs, Rsub, Rsubs, Mul, Muls, Div,
 * Divs, DivMod, DivMods and their in-place forms.
 *
 * Types: every real type of ARITH (complex is not computed yet).  A tensor
 * with a tensor computes in the Tensor (+) Tensor promotion; a tensor with
 * a scalar (Adds, Subs, Muls, Rsubs) in the rule the reference gives for
 * Adds on Atlas A2/A3; Divs in self's type when it is floating, else
 * float32; true division of integers computes in float32 (the vendor keeps
 * int32 / int32 native on some products: uncertain, docs/aclnn.md).
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sub.h"
#include "common/errmsg.h"
#include "prof/prof.h"

enum { ACL__NN_TT = 0, ACL__NN_TS = 1, ACL__NN_INPLACE = 2 };

/* self (a tensor) op other: a tensor, or a scalar when form has ACL__NN_TS;
 * written to out, or to self when form has ACL__NN_INPLACE (then self's
 * parameter is selfRef and out is unused). */
static aclnnStatus acl__nn_arith(const char *api, const char *api2, acl__nn_op op, int flags, acl__nn_rule rule,
                                 int form, const aclTensor *self, const void *other, const aclScalar *alpha,
                                 const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int inplace = (form & ACL__NN_INPLACE) != 0, ts = (form & ACL__NN_TS) != 0;
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = flags,
      .rule = rule,
      .in_types = ACL__NN_ARITH,
      .out_types = ACL__NN_ARITH,
      .name = {inplace ? "selfRef" : "self", "other"},
      .t = {self, ts ? NULL : other},
      .s = {NULL, ts ? other : NULL},
      .nin = 2,
      .scalar_operand = {0, ts},
      .alpha = alpha,
      .out = out,
      .out_name = "out",
      .inplace = inplace,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

/* ---- Add ------------------------------------------------------------------------------- */

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnAdd", ACL__NN_ADD, ACL__NN_F_ALPHA, ACL__NN_RULE_TT, ACL__NN_TT, self, other,
                       alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAdd)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnAdds", ACL__NN_ADD, ACL__NN_F_ALPHA, ACL__NN_RULE_ADDS, ACL__NN_TS, self, other,
                       alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAdds)

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha,
                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceAdd", ACL__NN_ADD, ACL__NN_F_ALPHA, ACL__NN_RULE_TT,
                       ACL__NN_TT | ACL__NN_INPLACE, selfRef, other, alpha, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceAdd)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha,
                                             uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceAdds", ACL__NN_ADD, ACL__NN_F_ALPHA, ACL__NN_RULE_ADDS,
                       ACL__NN_TS | ACL__NN_INPLACE, selfRef, other, alpha, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceAdds)

/* AddV3: a scalar self plus alpha times a tensor: Tensor (+) Scalar promotion. */
aclnnStatus aclnnAddV3GetWorkspaceSize(const aclScalar *self, const aclTensor *other, const aclScalar *alpha,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = __func__,
      .api2 = "aclnnAddV3",
      .op = ACL__NN_ADD,
      .flags = ACL__NN_F_ALPHA,
      .rule = ACL__NN_RULE_TS,
      .in_types = ACL__NN_ARITH,
      .out_types = ACL__NN_ARITH,
      .name = {"self", "other"},
      .t = {NULL, other},
      .s = {self, NULL},
      .nin = 2,
      .scalar_operand = {1, 0},
      .alpha = alpha,
      .out = out,
      .out_name = "out",
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAddV3)

/* ---- Sub, Rsub ------------------------------------------------------------------------------ */

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnSub", ACL__NN_SUB, ACL__NN_F_ALPHA, ACL__NN_RULE_TT, ACL__NN_TT, self, other,
                       alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSub)

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha,
                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceSub", ACL__NN_SUB, ACL__NN_F_ALPHA, ACL__NN_RULE_TT,
                       ACL__NN_TT | ACL__NN_INPLACE, selfRef, other, alpha, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSub)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnSubs", ACL__NN_SUB, ACL__NN_F_ALPHA, ACL__NN_RULE_ADDS, ACL__NN_TS, self, other,
                       alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSubs)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha,
                                             uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceSubs", ACL__NN_SUB, ACL__NN_F_ALPHA, ACL__NN_RULE_ADDS,
                       ACL__NN_TS | ACL__NN_INPLACE, selfRef, other, alpha, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSubs)

/* Rsub: other - alpha * self; the plan computes it as Sub with the operands swapped. */
aclnnStatus aclnnRsubGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnRsub", ACL__NN_SUB, ACL__NN_F_ALPHA | ACL__NN_F_SWAP, ACL__NN_RULE_TT,
                       ACL__NN_TT, self, other, alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRsub)

aclnnStatus aclnnRsubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnRsubs", ACL__NN_SUB, ACL__NN_F_ALPHA | ACL__NN_F_SWAP, ACL__NN_RULE_ADDS,
                       ACL__NN_TS, self, other, alpha, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRsubs)

/* ---- Mul -------------------------------------------------------------------------------------- */

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnMul", ACL__NN_MUL, 0, ACL__NN_RULE_TT, ACL__NN_TT, self, other, NULL, out,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMul)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceMul", ACL__NN_MUL, 0, ACL__NN_RULE_TT, ACL__NN_TT | ACL__NN_INPLACE,
                       selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceMul)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnMuls", ACL__NN_MUL, 0, ACL__NN_RULE_ADDS, ACL__NN_TS, self, other, NULL, out,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMuls)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceMuls", ACL__NN_MUL, 0, ACL__NN_RULE_ADDS, ACL__NN_TS | ACL__NN_INPLACE,
                       selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceMuls)

/* ---- Div, DivMod ------------------------------------------------------------------------------ */

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnDiv", ACL__NN_DIV, ACL__NN_F_FLOAT, ACL__NN_RULE_TT, ACL__NN_TT, self, other,
                       NULL, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnDiv)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceDiv", ACL__NN_DIV, ACL__NN_F_FLOAT, ACL__NN_RULE_TT,
                       ACL__NN_TT | ACL__NN_INPLACE, selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceDiv)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnDivs", ACL__NN_DIV, ACL__NN_F_FLOAT, ACL__NN_RULE_SELF, ACL__NN_TS, self, other,
                       NULL, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnDivs)

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return acl__nn_arith(__func__, "aclnnInplaceDivs", ACL__NN_DIV, ACL__NN_F_FLOAT, ACL__NN_RULE_SELF,
                       ACL__NN_TS | ACL__NN_INPLACE, selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceDivs)

/* mode 0: true division; 1: rounded toward zero; 2: rounded down.  The
 * rounded forms keep an integral common type (Python's // on integers).
 * The pointers are checked first, in parameter order (out NULL in place),
 * as every other check of the operator comes after them. */
static int acl__nn_divmod_mode(const char *api, int mode, acl__nn_op *op, int *flags, const void *self,
                               const void *other, const void *out, int inplace, const void *ws, const void *ex) {
  const char *null = self == NULL                ? (inplace ? "selfRef" : "self")
                     : other == NULL             ? "other"
                     : (!inplace && out == NULL) ? "out"
                     : ws == NULL                ? "workspaceSize"
                     : ex == NULL                ? "executor"
                                                 : NULL;
  if (null != NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL", null);
  switch (mode) {
  case 0:
    *op = ACL__NN_DIV;
    *flags = ACL__NN_F_FLOAT;
    return 0;
  case 1:
    *op = ACL__NN_DIV_TRUNC;
    *flags = 0;
    return 0;
  case 2:
    *op = ACL__NN_DIV_FLOOR;
    *flags = 0;
    return 0;
  default:
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "mode is %d. Remedy: use 0 (true division), 1 (round toward zero) or 2 (round down)", mode);
  }
}

aclnnStatus aclnnDivModGetWorkspaceSize(const aclTensor *self, const aclTensor *other, int mode, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_op op = ACL__NN_DIV;
  int flags = 0, rc;
  if ((rc = acl__nn_divmod_mode(__func__, mode, &op, &flags, self, other, out, 0, workspaceSize, executor)) != 0)
    return rc;
  return acl__nn_arith(__func__, "aclnnDivMod", op, flags, ACL__NN_RULE_TT, ACL__NN_TT, self, other, NULL, out,
                       workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnDivMod)

aclnnStatus aclnnInplaceDivModGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, int mode,
                                               uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_op op = ACL__NN_DIV;
  int flags = 0, rc;
  if ((rc = acl__nn_divmod_mode(__func__, mode, &op, &flags, selfRef, other, NULL, 1, workspaceSize, executor)) != 0)
    return rc;
  return acl__nn_arith(__func__, "aclnnInplaceDivMod", op, flags, ACL__NN_RULE_TT, ACL__NN_TT | ACL__NN_INPLACE,
                       selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceDivMod)

/* DivMods: mode 0 computes as Divs; the rounded forms in the Tensor (+) Scalar type. */
aclnnStatus aclnnDivModsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, int mode, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_op op = ACL__NN_DIV;
  int flags = 0, rc;
  if ((rc = acl__nn_divmod_mode(__func__, mode, &op, &flags, self, other, out, 0, workspaceSize, executor)) != 0)
    return rc;
  return acl__nn_arith(__func__, "aclnnDivMods", op, flags, mode == 0 ? ACL__NN_RULE_SELF : ACL__NN_RULE_TS, ACL__NN_TS,
                       self, other, NULL, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnDivMods)

aclnnStatus aclnnInplaceDivModsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other, int mode,
                                                uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_op op = ACL__NN_DIV;
  int flags = 0, rc;
  if ((rc = acl__nn_divmod_mode(__func__, mode, &op, &flags, selfRef, other, NULL, 1, workspaceSize, executor)) != 0)
    return rc;
  return acl__nn_arith(__func__, "aclnnInplaceDivMods", op, flags, mode == 0 ? ACL__NN_RULE_SELF : ACL__NN_RULE_TS,
                       ACL__NN_TS | ACL__NN_INPLACE, selfRef, other, NULL, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceDivMods)
