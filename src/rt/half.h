/*
 * half.h - IEEE half (float16) and bfloat16 conversions for the runtime's
 * built-in tasks (reduce.c, random.c); round to nearest even, NaN kept.
 */
#ifndef OPENACL_RT_HALF_H
#define OPENACL_RT_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float acl__half_to_float(uint16_t h) {
  uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float f;
  if (exp == 0)
    f = ldexpf((float)man, -24);
  else if (exp == 31)
    f = man ? NAN : INFINITY;
  else
    f = ldexpf((float)(man | 0x400), (int)exp - 25);
  return (h >> 15) ? -f : f;
}

static inline uint16_t acl__float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  if (isnan(f))
    return sign | 0x7e00;
  float a = fabsf(f);
  if (a >= 65520.0f)
    return sign | 0x7c00;
  if (a < 6.103515625e-05f) /* subnormal: units of 2^-24 */
    return sign | (uint16_t)nearbyintf(a * 16777216.0f);
  int e;
  float m = frexpf(a, &e);             /* a = m * 2^e, m in [0.5, 1) */
  float q = nearbyintf(ldexpf(m, 11)); /* 11 significant bits */
  if (q >= 2048.0f) {
    q /= 2;
    e++;
  }
  return sign | (uint16_t)(((e + 14) << 10) | ((uint32_t)q & 0x3ff));
}

static inline float acl__bf16_to_float(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static inline uint16_t acl__float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (isnan(f))
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

#endif
