/*
 * dtype.c - aclDataTypeSize and the fp16 conversions, with the vendor's
 * documented quirks: fp16 Inf/NaN are not special on the way in (exponent
 * 31 is read as a normal exponent), and float -> fp16 saturates (NaN and
 * +Inf become 65504, -Inf becomes -65504).
 */
#include <math.h>
#include <string.h>

#include "acl/acl.h"
#include "prof/prof.h"

size_t aclDataTypeSize(aclDataType dataType) {
  ACL__PROF_API_SCOPE();
  switch (dataType) {
  case ACL_STRING:
  case ACL_DT_UNDEFINED:
    return 0;
  case ACL_BOOL:
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_UINT1:
  case ACL_INT4:
  case ACL_HIFLOAT8:
  case ACL_FLOAT8_E5M2:
  case ACL_FLOAT8_E4M3FN:
  case ACL_FLOAT8_E8M0:
    return 1;
  case ACL_FLOAT16:
  case ACL_INT16:
  case ACL_UINT16:
  case ACL_BF16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32:
  case ACL_COMPLEX32:
    return 4;
  case ACL_COMPLEX128:
    return 16;
  default:
    /* INT64, UINT64, DOUBLE, COMPLEX64 and, as in the vendor's
     * implementation, every other value (FLOAT6_*, FLOAT4_* included). */
    return 8;
  }
}

float aclFloat16ToFloat(aclFloat16 value) {
  ACL__PROF_API_SCOPE();
  unsigned sign = (value >> 15) & 1u, exp = (value >> 10) & 0x1fu, man = value & 0x3ffu;
  float mag;
  if (exp == 0)
    mag = ldexpf((float)man, -24);                 /* zero and subnormals */
  else
    mag = ldexpf((float)(man | 0x400u), (int)exp - 25);  /* exponent 31 too: 0x7C00 -> 65536 */
  return sign ? -mag : mag;
}

aclFloat16 aclFloatToFloat16(float value) {
  ACL__PROF_API_SCOPE();
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  if (isnan(value))
    return 0x7BFF;                                 /* NaN saturates to +65504 */
  float a = fabsf(value);
  if (a >= 65520.0f)                               /* rounds beyond the largest finite fp16 */
    return (uint16_t)(sign | 0x7BFFu);
  if (a < ldexpf(1.0f, -25))                       /* below half the smallest subnormal */
    return sign;
  int e;
  frexpf(a, &e);                                   /* a = m * 2^e, 0.5 <= m < 1 */
  int exp16 = e - 1 + 15;
  uint32_t out;
  if (exp16 <= 0) {
    /* subnormal: units of 2^-24, round to nearest even */
    float q = ldexpf(a, 24);
    out = (uint32_t)nearbyintf(q);
  } else {
    float q = ldexpf(a, 10 - (e - 1));             /* in [1024, 2048) */
    uint32_t m = (uint32_t)nearbyintf(q);
    if (m == 2048) {
      m = 1024;
      exp16++;
    }
    if (exp16 >= 31)
      return (uint16_t)(sign | 0x7BFFu);
    out = ((uint32_t)exp16 << 10) | (m & 0x3ffu);
  }
  return (uint16_t)(sign | out);
}
