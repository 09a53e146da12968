/*
 * activation.c - the element-wise activations of reference aclnn.md
 * section 8.4: Relu, Gelu, GeluV2, Silu, Sigmoid, Tanh, LeakyRelu,
 * Hardswish, Hardsigmoid, Softplus, Elu, Mish, Prelu, and their in-place
 * forms where the vendor has one.  (Softmax and LogSoftmax, which work
 * along a dim, are in softmax.c.)
 *
 * They run on the element-wise engine (kernel.c): float16 and bfloat16
 * compute in float32 and are rounded once, double in double.  Their
 * attributes (negativeSlope, beta, threshold, alpha, scale, inputScale) are
 * scalars of any real type, converted to double at phase 1 and kept in the
 * plan.  Prelu's weight is a tensor with one value per channel (dim 1 of
 * self) or a single value.
 */
#include "aclnn/nn.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_tanh.h"
#include "common/errmsg.h"
#include "prof/prof.h"

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))
#define RELU_T (FLT3 | ACL__NN_BIT(ACL_INT8) | ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))
#define TANH_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_DOUBLE))
#define HSIG_T (FLT3 | ACL__NN_BIT(ACL_INT32))
#define OUT_ANY (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))

/* An attribute scalar: a live aclScalar of a real type; its value as a double. */
static int act_scalar(const char *api, const char *name, const aclScalar *s, double *v) {
  int rc = 0;
  if (acl__nn_scalar_arg(api, name, s, &rc) == NULL)
    return rc;
  if ((unsigned)s->dtype >= 64 || !(ACL__NN_ARITH & ACL__NN_BIT(s->dtype)))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s, which cannot be cast to ACL_FLOAT. Remedy: give %s as a real number", name,
                     acl__nn_dtype_name(s->dtype), name);
  acl__nn_val x;
  acl__nn_const_of(s, ACL_DOUBLE, &x);
  *v = x.d;
  return 0;
}

/* One activation call: in place when out_name is NULL (self is written,
 * its parameter named `name`). */
static aclnnStatus act(const char *api, const char *api2, acl__nn_op op, int flags, uint64_t in_types,
                       uint64_t out_types, const char *name, const aclTensor *self, const char *out_name,
                       const aclTensor *out, const double *prm, uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = flags,
      .rule = ACL__NN_RULE_SELF,
      .in_types = in_types,
      .out_types = out_types,
      .name = {name, NULL},
      .t = {self, NULL},
      .nin = 1,
      .out = out,
      .out_name = out_name != NULL ? out_name : name,
      .inplace = out_name == NULL,
  };
  if (prm != NULL)
    for (int i = 0; i < 3; i++)
      e.prm[i] = prm[i];
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

/* The tensor first (the vendor checks parameters in order), then the attributes. */
static int act_self(const char *api, const char *name, const aclTensor *t) {
  int rc = 0;
  acl__nn_tensor_arg(api, name, t, &rc);
  return rc;
}

aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return act(__func__, "aclnnRelu", ACL__NN_RELU, 0, RELU_T, OUT_ANY, "self", self, "out", out, NULL, workspaceSize,
             executor);
}
ACL__NN_PHASE2(aclnnRelu)

aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceRelu", ACL__NN_RELU, 0, RELU_T, OUT_ANY, "selfRef", selfRef, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceRelu)

aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return act(__func__, "aclnnGelu", ACL__NN_GELU_TANH, ACL__NN_F_OUT_SAME, FLT3, FLT3, "self", self, "out", out, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGelu)

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate, aclTensor *y, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  int rc = act_self(__func__, "x", x);
  if (rc != 0)
    return rc;
  if (approximate != 0 && approximate != 1)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "approximate is %lld; aclnnGeluV2 takes 0 (exact, erf) or 1 (tanh). Remedy: pass 0 or 1",
                     (long long)approximate);
  return act(__func__, "aclnnGeluV2", approximate ? ACL__NN_GELU_TANH : ACL__NN_GELU_ERF, ACL__NN_F_OUT_SAME, FLT3,
             FLT3, "x", x, "y", y, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGeluV2)

aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return act(__func__, "aclnnSilu", ACL__NN_SILU, 0, FLT3, FLT3, "self", self, "out", out, NULL, workspaceSize,
             executor);
}
ACL__NN_PHASE2(aclnnSilu)

aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return act(__func__, "aclnnSigmoid", ACL__NN_SIGMOID, 0, FLT3, FLT3, "self", self, "out", out, NULL, workspaceSize,
             executor);
}
ACL__NN_PHASE2(aclnnSigmoid)

aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceSigmoid", ACL__NN_SIGMOID, 0, FLT3, FLT3, "selfRef", selfRef, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceSigmoid)

aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return act(__func__, "aclnnTanh", ACL__NN_TANH, ACL__NN_F_FLOAT, TANH_T, FLT3, "self", self, "out", out, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnTanh)

aclnnStatus aclnnInplaceTanhGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceTanh", ACL__NN_TANH, ACL__NN_F_FLOAT, TANH_T, FLT3, "selfRef", selfRef, NULL, NULL,
             NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceTanh)

aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor *self, const aclScalar *negativeSlope, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  double prm[3] = {0};
  int rc = act_self(__func__, "self", self);
  if (rc == 0)
    rc = act_scalar(__func__, "negativeSlope", negativeSlope, &prm[0]);
  if (rc != 0)
    return rc;
  return act(__func__, "aclnnLeakyRelu", ACL__NN_LEAKY_RELU, 0, FLT3, FLT3, "self", self, "out", out, prm,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLeakyRelu)

aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *negativeSlope,
                                                  uint64_t *workspaceSize, aclOpExecutor **executor) {
  double prm[3] = {0};
  int rc = act_self(__func__, "selfRef", selfRef);
  if (rc == 0)
    rc = act_scalar(__func__, "negativeSlope", negativeSlope, &prm[0]);
  if (rc != 0)
    return rc;
  return act(__func__, "aclnnInplaceLeakyRelu", ACL__NN_LEAKY_RELU, 0, FLT3, FLT3, "selfRef", selfRef, NULL, NULL, prm,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceLeakyRelu)

aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  return act(__func__, "aclnnHardswish", ACL__NN_HARDSWISH, 0, FLT3, FLT3, "self", self, "out", out, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnHardswish)

aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize,
                                                  aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceHardswish", ACL__NN_HARDSWISH, 0, FLT3, FLT3, "self", self, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceHardswish)

aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return act(__func__, "aclnnHardsigmoid", ACL__NN_HARDSIGMOID, 0, HSIG_T, HSIG_T, "self", self, "out", out, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnHardsigmoid)

aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize,
                                                    aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceHardsigmoid", ACL__NN_HARDSIGMOID, 0, HSIG_T, HSIG_T, "self", self, NULL, NULL,
             NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceHardsigmoid)

aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor *self, const aclScalar *beta, const aclScalar *threshold,
                                          aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  double prm[3] = {0};
  int rc = act_self(__func__, "self", self);
  if (rc == 0)
    rc = act_scalar(__func__, "beta", beta, &prm[0]);
  if (rc == 0)
    rc = act_scalar(__func__, "threshold", threshold, &prm[1]);
  if (rc != 0)
    return rc;
  if (prm[0] == 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "beta is 0: softplus divides by it. Remedy: give a non-zero beta");
  return act(__func__, "aclnnSoftplus", ACL__NN_SOFTPLUS, 0, FLT3, FLT3, "self", self, "out", out, prm, workspaceSize,
             executor);
}
ACL__NN_PHASE2(aclnnSoftplus)

/* Elu's three attributes. */
static int elu_prm(const char *api, const aclScalar *alpha, const aclScalar *scale, const aclScalar *inputScale,
                   double *prm) {
  int rc = act_scalar(api, "alpha", alpha, &prm[0]);
  if (rc == 0)
    rc = act_scalar(api, "scale", scale, &prm[1]);
  if (rc == 0)
    rc = act_scalar(api, "inputScale", inputScale, &prm[2]);
  return rc;
}

aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, const aclScalar *scale,
                                     const aclScalar *inputScale, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  double prm[3];
  int rc = act_self(__func__, "self", self);
  if (rc == 0)
    rc = elu_prm(__func__, alpha, scale, inputScale, prm);
  if (rc != 0)
    return rc;
  return act(__func__, "aclnnElu", ACL__NN_ELU, 0, FLT3, FLT3, "self", self, "out", out, prm, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnElu)

aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor *selfRef, const aclScalar *alpha, const aclScalar *scale,
                                            const aclScalar *inputScale, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  double prm[3];
  int rc = act_self(__func__, "selfRef", selfRef);
  if (rc == 0)
    rc = elu_prm(__func__, alpha, scale, inputScale, prm);
  if (rc != 0)
    return rc;
  return act(__func__, "aclnnInplaceElu", ACL__NN_ELU, 0, FLT3, FLT3, "selfRef", selfRef, NULL, NULL, prm,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceElu)

aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return act(__func__, "aclnnMish", ACL__NN_MISH, 0, FLT3, FLT3, "self", self, "out", out, NULL, workspaceSize,
             executor);
}
ACL__NN_PHASE2(aclnnMish)

aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return act(__func__, "aclnnInplaceMish", ACL__NN_MISH, 0, FLT3, FLT3, "selfRef", selfRef, NULL, NULL, NULL,
             workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceMish)

aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = __func__,
      .api2 = "aclnnPrelu",
      .op = ACL__NN_PRELU,
      .flags = ACL__NN_F_CHANNEL,
      .rule = ACL__NN_RULE_TT,
      .in_types = FLT3,
      .out_types = FLT3,
      .name = {"self", "weight"},
      .t = {self, weight},
      .nin = 2,
      .out = out,
      .out_name = "out",
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnPrelu)
