/*
 * pow_rem.c - the other element-wise binary operators of reference
 * aclnn.md section 8.1: PowTensorScalar, PowScalarTensor, PowTensorTensor
 * (and in place), Maximum, Minimum, and the Remainder family.
 *
 * Pow refuses a bool base with a bool exponent, and a negative scalar
 * exponent when the result is integral (Python's rule); a negative tensor
 * exponent of an integral power gives what the real power truncates to.
 * Maximum and Minimum propagate NaN.  Remainder is Python's modulo (the
 * sign of other); an integer self modulo 0 is self (reference 8.1).
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_remainder.h"
#include "prof/prof.h"

/* The shapes of a call: which operand is a scalar, and whether in place. */
enum { ACL__NN_TT = 0, ACL__NN_TS = 1, ACL__NN_ST = 2, ACL__NN_INPLACE = 4 };

static aclnnStatus acl__nn_binary(const char *api, const char *api2, acl__nn_op op, int flags, uint64_t types, int form,
                                  const char *n0, const void *a, const char *n1, const void *b, const aclTensor *out,
                                  uint64_t *workspaceSize, aclOpExecutor **executor) {
  int ts = (form & ACL__NN_TS) != 0, st = (form & ACL__NN_ST) != 0;
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = flags,
      .rule = ts || st ? ACL__NN_RULE_TS : ACL__NN_RULE_TT,
      .in_types = types,
      .out_types = ACL__NN_ARITH,
      .name = {n0, n1},
      .t = {st ? NULL : a, ts ? NULL : b},
      .s = {st ? a : NULL, ts ? b : NULL},
      .nin = 2,
      .scalar_operand = {st, ts},
      .out = out,
      .out_name = "out",
      .inplace = (form & ACL__NN_INPLACE) != 0,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

#define ACL__NN_POW_FLAGS (ACL__NN_F_NOT_BOTH_BOOL | ACL__NN_F_INT_EXP_NONNEG)
#define ACL__NN_NO_BOOL_TYPES (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))

/* ---- Pow --------------------------------------------------------------------------------- */

aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *exponent, const aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnPowTensorScalar", ACL__NN_POW, ACL__NN_POW_FLAGS, ACL__NN_ARITH, ACL__NN_TS,
                        "self", self, "exponent", exponent, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnPowTensorScalar)

aclnnStatus aclnnInplacePowTensorScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *exponent,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnInplacePowTensorScalar", ACL__NN_POW, ACL__NN_POW_FLAGS, ACL__NN_ARITH,
                        ACL__NN_TS | ACL__NN_INPLACE, "self", self, "exponent", exponent, NULL, workspaceSize,
                        executor);
}
ACL__NN_PHASE2(aclnnInplacePowTensorScalar)

aclnnStatus aclnnPowScalarTensorGetWorkspaceSize(const aclScalar *self, const aclTensor *exponent, const aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnPowScalarTensor", ACL__NN_POW, ACL__NN_POW_FLAGS, ACL__NN_NO_BOOL_TYPES,
                        ACL__NN_ST, "self", self, "exponent", exponent, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnPowScalarTensor)

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *exponent, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnPowTensorTensor", ACL__NN_POW, ACL__NN_POW_FLAGS, ACL__NN_ARITH, ACL__NN_TT,
                        "self", self, "exponent", exponent, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnPowTensorTensor)

aclnnStatus aclnnInplacePowTensorTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *exponent,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnInplacePowTensorTensor", ACL__NN_POW, ACL__NN_POW_FLAGS, ACL__NN_ARITH,
                        ACL__NN_TT | ACL__NN_INPLACE, "self", self, "exponent", exponent, NULL, workspaceSize,
                        executor);
}
ACL__NN_PHASE2(aclnnInplacePowTensorTensor)

/* ---- Maximum, Minimum ------------------------------------------------------------------------ */

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnMaximum", ACL__NN_MAX, 0, ACL__NN_ARITH, ACL__NN_TT, "self", self, "other",
                        other, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaximum)

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnMinimum", ACL__NN_MIN, 0, ACL__NN_ARITH, ACL__NN_TT, "self", self, "other",
                        other, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMinimum)

/* ---- Remainder --------------------------------------------------------------------------------- */

aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnRemainderTensorTensor", ACL__NN_REM, ACL__NN_F_NO_BOOL, ACL__NN_ARITH,
                        ACL__NN_TT, "self", self, "other", other, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRemainderTensorTensor)

aclnnStatus aclnnRemainderTensorScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnRemainderTensorScalar", ACL__NN_REM, ACL__NN_F_NO_BOOL, ACL__NN_ARITH,
                        ACL__NN_TS, "self", self, "other", other, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRemainderTensorScalar)

aclnnStatus aclnnRemainderScalarTensorGetWorkspaceSize(const aclScalar *self, const aclTensor *other, aclTensor *out,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnRemainderScalarTensor", ACL__NN_REM, ACL__NN_F_NO_BOOL, ACL__NN_ARITH,
                        ACL__NN_ST, "self", self, "other", other, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnRemainderScalarTensor)

aclnnStatus aclnnInplaceRemainderTensorTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
  return acl__nn_binary(__func__, "aclnnInplaceRemainderTensorTensor", ACL__NN_REM, ACL__NN_F_NO_BOOL, ACL__NN_ARITH,
                        ACL__NN_TT | ACL__NN_INPLACE, "selfRef", selfRef, "other", other, NULL, workspaceSize,
                        executor);
}
ACL__NN_PHASE2(aclnnInplaceRemainderTensorTensor)
