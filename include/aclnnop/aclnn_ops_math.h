/*
 * aclnnop/aclnn_ops_math.h - every operator header of the math family that
 * openacl implements (docs/aclnn.md lists them).
 */
#ifndef OP_API_INC_ACLNN_OPS_MATH_H_
#define OP_API_INC_ACLNN_OPS_MATH_H_

#include "aclnn_abs.h"
#include "aclnn_add.h"
#include "aclnn_add_v3.h"
#include "aclnn_atan.h"
#include "aclnn_ceil.h"
#include "aclnn_cos.h"
#include "aclnn_cosh.h"
#include "aclnn_div.h"
#include "aclnn_erf.h"
#include "aclnn_exp.h"
#include "aclnn_floor.h"
#include "aclnn_isfinite.h"
#include "aclnn_log.h"
#include "aclnn_log10.h"
#include "aclnn_log1p.h"
#include "aclnn_log2.h"
#include "aclnn_logical_and.h"
#include "aclnn_logical_not.h"
#include "aclnn_logical_or.h"
#include "aclnn_maximum.h"
#include "aclnn_minimum.h"
#include "aclnn_mul.h"
#include "aclnn_neg.h"
#include "aclnn_pow.h"
#include "aclnn_pow_tensor_tensor.h"
#include "aclnn_reciprocal.h"
#include "aclnn_remainder.h"
#include "aclnn_round.h"
#include "aclnn_rsqrt.h"
#include "aclnn_rsub.h"
#include "aclnn_sign.h"
#include "aclnn_sin.h"
#include "aclnn_sinh.h"
#include "aclnn_sqrt.h"
#include "aclnn_sub.h"
#include "aclnn_tan.h"
#include "aclnn_trunc.h"

#endif /* OP_API_INC_ACLNN_OPS_MATH_H_ */
