/*
 * dtype.c - the data types as the aclnn operators see them: names and
 * sizes, the vendor's two promotion tables and its castability rule
 * (reference aclnn.md sections 7.1 and 7.2, from the vendor's
 * data_type_utils.h).
 */
#include <stdio.h>
#include <string.h>

#include "aclnn/nn.h"

const char *acl__nn_dtype_name(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
    return "ACL_FLOAT";
  case ACL_FLOAT16:
    return "ACL_FLOAT16";
  case ACL_INT8:
    return "ACL_INT8";
  case ACL_INT32:
    return "ACL_INT32";
  case ACL_UINT8:
    return "ACL_UINT8";
  case ACL_INT16:
    return "ACL_INT16";
  case ACL_UINT16:
    return "ACL_UINT16";
  case ACL_UINT32:
    return "ACL_UINT32";
  case ACL_INT64:
    return "ACL_INT64";
  case ACL_UINT64:
    return "ACL_UINT64";
  case ACL_DOUBLE:
    return "ACL_DOUBLE";
  case ACL_BOOL:
    return "ACL_BOOL";
  case ACL_STRING:
    return "ACL_STRING";
  case ACL_COMPLEX64:
    return "ACL_COMPLEX64";
  case ACL_COMPLEX128:
    return "ACL_COMPLEX128";
  case ACL_BF16:
    return "ACL_BF16";
  case ACL_INT4:
    return "ACL_INT4";
  case ACL_UINT1:
    return "ACL_UINT1";
  case ACL_COMPLEX32:
    return "ACL_COMPLEX32";
  case ACL_HIFLOAT8:
    return "ACL_HIFLOAT8";
  case ACL_FLOAT8_E5M2:
    return "ACL_FLOAT8_E5M2";
  case ACL_FLOAT8_E4M3FN:
    return "ACL_FLOAT8_E4M3FN";
  case ACL_FLOAT8_E8M0:
    return "ACL_FLOAT8_E8M0";
  case ACL_FLOAT6_E3M2:
    return "ACL_FLOAT6_E3M2";
  case ACL_FLOAT6_E2M3:
    return "ACL_FLOAT6_E2M3";
  case ACL_FLOAT4_E2M1:
    return "ACL_FLOAT4_E2M1";
  case ACL_FLOAT4_E1M2:
    return "ACL_FLOAT4_E1M2";
  case ACL_DT_UNDEFINED:
    return "ACL_DT_UNDEFINED";
  default: {
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "data type %d", (int)t);
    return buf;
  }
  }
}

size_t acl__nn_dtype_size(aclDataType t) {
  switch (t) {
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_BOOL:
  case ACL_HIFLOAT8:
  case ACL_FLOAT8_E5M2:
  case ACL_FLOAT8_E4M3FN:
  case ACL_FLOAT8_E8M0:
  case ACL_FLOAT6_E3M2:
  case ACL_FLOAT6_E2M3:
  case ACL_FLOAT4_E2M1:
  case ACL_FLOAT4_E1M2:
    return 1;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
  case ACL_UINT16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32:
  case ACL_COMPLEX32:
    return 4;
  case ACL_INT64:
  case ACL_UINT64:
  case ACL_DOUBLE:
  case ACL_COMPLEX64:
    return 8;
  case ACL_COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

int acl__nn_is_float(aclDataType t) { return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_DOUBLE || t == ACL_BF16; }

int acl__nn_is_int(aclDataType t) {
  switch (t) {
  case ACL_INT8:
  case ACL_INT16:
  case ACL_INT32:
  case ACL_INT64:
  case ACL_UINT8:
  case ACL_UINT16:
  case ACL_UINT32:
  case ACL_UINT64:
    return 1;
  default:
    return 0;
  }
}

int acl__nn_is_complex(aclDataType t) { return t == ACL_COMPLEX32 || t == ACL_COMPLEX64 || t == ACL_COMPLEX128; }

/* ---- promotion ------------------------------------------------------------------ */

/* Row and column order of the vendor's table. */
static const aclDataType acl__nn_order[16] = {
    ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16,   ACL_INT8, ACL_UINT8,     ACL_INT16,     ACL_UINT16,
    ACL_INT32, ACL_UINT32,  ACL_INT64,  ACL_UINT64, ACL_BOOL, ACL_COMPLEX32, ACL_COMPLEX64, ACL_COMPLEX128};

static int acl__nn_index(aclDataType t) {
  for (int i = 0; i < 16; i++)
    if (acl__nn_order[i] == t)
      return i;
  return -1;
}

#define F32 ACL_FLOAT
#define F16 ACL_FLOAT16
#define F64 ACL_DOUBLE
#define BF ACL_BF16
#define S8 ACL_INT8
#define U8 ACL_UINT8
#define S16 ACL_INT16
#define U16 ACL_UINT16
#define S32 ACL_INT32
#define U32 ACL_UINT32
#define S64 ACL_INT64
#define U64 ACL_UINT64
#define BO ACL_BOOL
#define C32 ACL_COMPLEX32
#define C64 ACL_COMPLEX64
#define C128 ACL_COMPLEX128
#define X ACL_DT_UNDEFINED

/* Tensor (+) Tensor, symmetric (reference aclnn.md 7.1). */
/* clang-format off */
static const aclDataType acl__nn_tt[16][16] = {
    /*        f32   f16   f64   bf16  s8    u8    s16   u16   s32   u32   s64   u64   bool  c32   c64   c128 */
    /* f32 */ {F32, F32, F64, F32, F32, F32, F32, X, F32, X, F32, X, F32, C64, C64, C128},
    /* f16 */ {F32, F16, F64, F32, F16, F16, F16, X, F16, X, F16, X, F16, C32, C64, C128},
    /* f64 */ {F64, F64, F64, F64, F64, F64, F64, X, F64, X, F64, X, F64, C128, C128, C128},
    /* bf16*/ {F32, F32, F64, BF, BF, BF, BF, X, BF, X, BF, X, BF, C32, C64, C128},
    /* s8  */ {F32, F16, F64, BF, S8, S16, S16, X, S32, X, S64, X, S8, C32, C64, C128},
    /* u8  */ {F32, F16, F64, BF, S16, U8, S16, X, S32, X, S64, X, U8, C32, C64, C128},
    /* s16 */ {F32, F16, F64, BF, S16, S16, S16, X, S32, X, S64, X, S16, C32, C64, C128},
    /* u16 */ {X, X, X, X, X, X, X, U16, X, X, X, X, X, X, X, X},
    /* s32 */ {F32, F16, F64, BF, S32, S32, S32, X, S32, X, S64, X, S32, C32, C64, C128},
    /* u32 */ {X, X, X, X, X, X, X, X, X, U32, X, X, X, X, X, X},
    /* s64 */ {F32, F16, F64, BF, S64, S64, S64, X, S64, X, S64, X, S64, C32, C64, C128},
    /* u64 */ {X, X, X, X, X, X, X, X, X, X, X, U64, X, X, X, X},
    /* bool*/ {F32, F16, F64, BF, S8, U8, S16, X, S32, X, S64, X, BO, C32, C64, C128},
    /* c32 */ {C64, C32, C128, C32, C32, C32, C32, X, C32, X, C32, X, C32, C32, C64, C128},
    /* c64 */ {C64, C64, C128, C64, C64, C64, C64, X, C64, X, C64, X, C64, C64, C64, C128},
    /* c128*/ {C128, C128, C128, C128, C128, C128, C128, X, C128, X, C128, X, C128, C128, C128, C128},
};

/* clang-format on */

aclDataType acl__nn_promote(aclDataType a, aclDataType b) {
  int i = acl__nn_index(a), j = acl__nn_index(b);
  if (i < 0 || j < 0)
    return ACL_DT_UNDEFINED;
  return acl__nn_tt[i][j];
}

static int acl__nn_is_unsigned_wide(aclDataType t) { return t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64; }

/* Tensor (+) Scalar, as the reference summarises the vendor's table. */
aclDataType acl__nn_promote_scalar(aclDataType tensor, aclDataType scalar) {
  if (acl__nn_index(tensor) < 0 || acl__nn_index(scalar) < 0)
    return ACL_DT_UNDEFINED;
  if (acl__nn_is_unsigned_wide(tensor) || acl__nn_is_unsigned_wide(scalar))
    return tensor == scalar ? tensor : ACL_DT_UNDEFINED;
  if (acl__nn_is_complex(tensor)) {
    if (scalar == ACL_DOUBLE && (tensor == ACL_COMPLEX32 || tensor == ACL_COMPLEX64))
      return ACL_COMPLEX128;
    return tensor;
  }
  if (acl__nn_is_complex(scalar))
    return tensor == ACL_FLOAT16 ? ACL_COMPLEX32 : tensor == ACL_DOUBLE ? ACL_COMPLEX128 : ACL_COMPLEX64;
  if (acl__nn_is_float(tensor))
    return tensor;
  if (acl__nn_is_float(scalar))
    return ACL_FLOAT;
  if (tensor == ACL_BOOL)
    return scalar;
  return tensor;
}

int acl__nn_can_cast(aclDataType from, aclDataType to) {
  if (acl__nn_is_complex(from) && !acl__nn_is_complex(to))
    return 0;
  if (acl__nn_is_float(from) && (acl__nn_is_int(to) || to == ACL_BOOL))
    return 0;
  if (to == ACL_BOOL && from != ACL_BOOL)
    return 0;
  return 1;
}

void acl__nn_dtype_list(uint64_t mask, char *buf, size_t size) {
  static const aclDataType order[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,   ACL_DOUBLE, ACL_INT8,   ACL_INT16, ACL_INT32,
                                      ACL_INT64, ACL_UINT8,   ACL_UINT16, ACL_UINT32, ACL_UINT64, ACL_BOOL};
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    if (!(mask & ACL__NN_BIT(order[i])))
      continue;
    int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", acl__nn_dtype_name(order[i]));
    if (n < 0 || (size_t)n >= size - used)
      break;
    used += (size_t)n;
  }
}
