/*
 * kernel.c - the element-wise engine: runs a plan (nn.h) over a range of
 * output elements, on an executor thread, with device-memory access on.
 *
 * A plan is walked row by row (a row = the innermost dim after merging),
 * a row in chunks of ACL__NN_CHUNK elements: each operand is loaded into a
 * buffer of its computing class (float, double or int64; float16 and
 * bfloat16 compute in float), the operation runs over the buffers in one
 * plain loop, the result is stored in the output's type.  An operand that
 * already is a contiguous row of the class's own type (the common float32
 * case) is used where it lies, and so is the output: then a chunk is one
 * loop the compiler vectorises (this file is built with the vectoriser on,
 * CMakeLists.txt).
 *
 * Rounding follows the operation's data type (plan cdt): an operand of
 * another type is rounded to it when loaded (an int32 tensor added to a
 * float16 one counts as float16), a result is rounded to it before it is
 * stored in an output of another type (int8 + int8 wraps as int8 even when
 * written to an int32 out).  Integer arithmetic wraps (two's complement);
 * float to integer conversion saturates and maps NaN to 0.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "aclnn/nn.h"
#include "rt/half.h"

#define ACL__NN_CHUNK 512

typedef union acl__nn_buf {
  float f[ACL__NN_CHUNK];
  double d[ACL__NN_CHUNK];
  int64_t i[ACL__NN_CHUNK];
} acl__nn_buf;

acl__nn_class acl__nn_class_of(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
  case ACL_FLOAT16:
  case ACL_BF16: return ACL__NN_F32;
  case ACL_DOUBLE: return ACL__NN_F64;
  default: return ACL__NN_I64;
  }
}

/* The type a class keeps values in. */
static aclDataType acl__nn_native(acl__nn_class c) {
  return c == ACL__NN_F32 ? ACL_FLOAT : c == ACL__NN_F64 ? ACL_DOUBLE : ACL_INT64;
}

/* Float to int64: saturating, NaN to 0 (the vendor's Cast maps NaN to 0). */
static inline int64_t acl__nn_f2i(double v) {
  if (v != v)
    return 0;
  if (v >= 9223372036854775807.0)
    return INT64_MAX;
  if (v <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)v;
}

/* ---- loads: n elements of type t at src (byte stride st) into a class buffer ---- */

#define ACL__NN_LOOP(T, EXPR)                                                                  \
  do {                                                                                         \
    if (st == (int64_t)sizeof(T)) {                                                            \
      const T *s_ = (const T *)src;                                                            \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T v = s_[k];                                                                           \
        dst[k] = EXPR;                                                                         \
      }                                                                                        \
    } else {                                                                                   \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T v = *(const T *)(src + k * st);                                                      \
        dst[k] = EXPR;                                                                         \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* The conversions every load shares: DST is the class's type, TOF the
 * conversion of a float / double value (the int class saturates). */
#define ACL__NN_LOAD_BODY(DST, TOF)                                                            \
  switch (t) {                                                                                 \
  case ACL_FLOAT: ACL__NN_LOOP(float, (DST)TOF(v)); break;                                     \
  case ACL_DOUBLE: ACL__NN_LOOP(double, (DST)TOF(v)); break;                                   \
  case ACL_FLOAT16: ACL__NN_LOOP(uint16_t, (DST)TOF(acl__half_to_float(v))); break;            \
  case ACL_BF16: ACL__NN_LOOP(uint16_t, (DST)TOF(acl__bf16_to_float(v))); break;               \
  case ACL_INT8: ACL__NN_LOOP(int8_t, (DST)v); break;                                          \
  case ACL_UINT8: ACL__NN_LOOP(uint8_t, (DST)v); break;                                        \
  case ACL_INT16: ACL__NN_LOOP(int16_t, (DST)v); break;                                        \
  case ACL_UINT16: ACL__NN_LOOP(uint16_t, (DST)v); break;                                      \
  case ACL_INT32: ACL__NN_LOOP(int32_t, (DST)v); break;                                        \
  case ACL_UINT32: ACL__NN_LOOP(uint32_t, (DST)v); break;                                      \
  case ACL_INT64: ACL__NN_LOOP(int64_t, (DST)v); break;                                        \
  case ACL_UINT64: ACL__NN_LOOP(uint64_t, (DST)v); break;                                      \
  case ACL_BOOL: ACL__NN_LOOP(uint8_t, (DST)(v != 0)); break;                                  \
  default: memset(dst, 0, (size_t)n * sizeof(DST)); break;                                     \
  }

#define ACL__NN_ID(x) (x)

void acl__nn_load_f32(float *dst, const char *src, int64_t st, int64_t n, aclDataType t) {
  ACL__NN_LOAD_BODY(float, ACL__NN_ID)
}

void acl__nn_load_f64(double *dst, const char *src, int64_t st, int64_t n, aclDataType t) {
  ACL__NN_LOAD_BODY(double, ACL__NN_ID)
}

void acl__nn_load_i64(int64_t *dst, const char *src, int64_t st, int64_t n, aclDataType t) {
  ACL__NN_LOAD_BODY(int64_t, acl__nn_f2i)
}

/* ---- stores: n class values into type t at dst (byte stride st) ------------------ */

#define ACL__NN_SLOOP(T, EXPR)                                                                 \
  do {                                                                                         \
    if (st == (int64_t)sizeof(T)) {                                                            \
      T *d_ = (T *)dst;                                                                        \
      for (int64_t k = 0; k < n; k++) {                                                        \
        SRC v = src[k];                                                                        \
        d_[k] = EXPR;                                                                          \
      }                                                                                        \
    } else {                                                                                   \
      for (int64_t k = 0; k < n; k++) {                                                        \
        SRC v = src[k];                                                                        \
        *(T *)(dst + k * st) = EXPR;                                                           \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* TOI converts a class value to int64 (saturating for the float classes);
 * narrower integers then wrap through uint64. */
#define ACL__NN_STORE_BODY(TOI)                                                                \
  switch (t) {                                                                                 \
  case ACL_FLOAT: ACL__NN_SLOOP(float, (float)v); break;                                       \
  case ACL_DOUBLE: ACL__NN_SLOOP(double, (double)v); break;                                    \
  case ACL_FLOAT16: ACL__NN_SLOOP(uint16_t, acl__float_to_half((float)v)); break;              \
  case ACL_BF16: ACL__NN_SLOOP(uint16_t, acl__float_to_bf16((float)v)); break;                 \
  case ACL_INT8: ACL__NN_SLOOP(int8_t, (int8_t)(uint8_t)(uint64_t)TOI(v)); break;              \
  case ACL_UINT8: ACL__NN_SLOOP(uint8_t, (uint8_t)(uint64_t)TOI(v)); break;                    \
  case ACL_INT16: ACL__NN_SLOOP(int16_t, (int16_t)(uint16_t)(uint64_t)TOI(v)); break;          \
  case ACL_UINT16: ACL__NN_SLOOP(uint16_t, (uint16_t)(uint64_t)TOI(v)); break;                 \
  case ACL_INT32: ACL__NN_SLOOP(int32_t, (int32_t)(uint32_t)(uint64_t)TOI(v)); break;          \
  case ACL_UINT32: ACL__NN_SLOOP(uint32_t, (uint32_t)(uint64_t)TOI(v)); break;                 \
  case ACL_INT64: ACL__NN_SLOOP(int64_t, TOI(v)); break;                                       \
  case ACL_UINT64: ACL__NN_SLOOP(uint64_t, (uint64_t)TOI(v)); break;                           \
  case ACL_BOOL: ACL__NN_SLOOP(uint8_t, (uint8_t)(v != 0)); break;                             \
  default: break;                                                                              \
  }

void acl__nn_store_f32(char *dst, int64_t st, int64_t n, aclDataType t, const float *src) {
#define SRC float
  ACL__NN_STORE_BODY(acl__nn_f2i)
#undef SRC
}

void acl__nn_store_f64(char *dst, int64_t st, int64_t n, aclDataType t, const double *src) {
#define SRC double
  ACL__NN_STORE_BODY(acl__nn_f2i)
#undef SRC
}

void acl__nn_store_i64(char *dst, int64_t st, int64_t n, aclDataType t, const int64_t *src) {
#define SRC int64_t
  ACL__NN_STORE_BODY(ACL__NN_ID)
#undef SRC
}

/* ---- rounding to the operation's type ------------------------------------------------ */

/* Rounds n class values to type t in place (f16 / bf16 in float, narrow
 * integers and bool in int64); nothing for the class's own types. */
static void acl__nn_narrow(void *buf, acl__nn_class c, aclDataType t, int64_t n) {
  if (c == ACL__NN_F32) {
    float *f = buf;
    if (t == ACL_FLOAT16)
      for (int64_t k = 0; k < n; k++)
        f[k] = acl__half_to_float(acl__float_to_half(f[k]));
    else if (t == ACL_BF16)
      for (int64_t k = 0; k < n; k++)
        f[k] = acl__bf16_to_float(acl__float_to_bf16(f[k]));
  } else if (c == ACL__NN_I64) {
    int64_t *x = buf;
    switch (t) {
    case ACL_INT8: for (int64_t k = 0; k < n; k++) x[k] = (int8_t)(uint8_t)(uint64_t)x[k]; break;
    case ACL_UINT8: for (int64_t k = 0; k < n; k++) x[k] = (uint8_t)(uint64_t)x[k]; break;
    case ACL_INT16: for (int64_t k = 0; k < n; k++) x[k] = (int16_t)(uint16_t)(uint64_t)x[k]; break;
    case ACL_INT32: for (int64_t k = 0; k < n; k++) x[k] = (int32_t)(uint32_t)(uint64_t)x[k]; break;
    case ACL_BOOL: for (int64_t k = 0; k < n; k++) x[k] = x[k] != 0; break;
    default: break;
    }
  }
}

/* ---- the operations, one loop each ---------------------------------------------------- */

/* Float operations for T = float (suffix f) and double (no suffix). */
#define ACL__NN_FLOAT_OPS(NAME, T, S)                                                          \
  static void NAME(const acl__nn_plan *p, T *r, const T *a, const T *b, int64_t n) {            \
    T al = (T)(sizeof(T) == sizeof(float) ? p->alpha.f : p->alpha.d);                          \
    switch (p->op) {                                                                           \
    case ACL__NN_ADD:                                                                          \
      if (p->alpha_one)                                                                        \
        for (int64_t k = 0; k < n; k++) r[k] = a[k] + b[k];                                    \
      else                                                                                     \
        for (int64_t k = 0; k < n; k++) r[k] = a[k] + al * b[k];                               \
      break;                                                                                   \
    case ACL__NN_SUB:                                                                          \
      if (p->alpha_one)                                                                        \
        for (int64_t k = 0; k < n; k++) r[k] = a[k] - b[k];                                    \
      else                                                                                     \
        for (int64_t k = 0; k < n; k++) r[k] = a[k] - al * b[k];                               \
      break;                                                                                   \
    case ACL__NN_MUL: for (int64_t k = 0; k < n; k++) r[k] = a[k] * b[k]; break;               \
    case ACL__NN_DIV: for (int64_t k = 0; k < n; k++) r[k] = a[k] / b[k]; break;               \
    case ACL__NN_DIV_TRUNC: for (int64_t k = 0; k < n; k++) r[k] = trunc##S(a[k] / b[k]); break; \
    case ACL__NN_DIV_FLOOR: for (int64_t k = 0; k < n; k++) r[k] = floor##S(a[k] / b[k]); break; \
    case ACL__NN_POW: for (int64_t k = 0; k < n; k++) r[k] = pow##S(a[k], b[k]); break;        \
    case ACL__NN_MAX:                                                                          \
      for (int64_t k = 0; k < n; k++) r[k] = (a[k] > b[k] || a[k] != a[k]) ? a[k] : b[k];      \
      break;                                                                                   \
    case ACL__NN_MIN:                                                                          \
      for (int64_t k = 0; k < n; k++) r[k] = (a[k] < b[k] || a[k] != a[k]) ? a[k] : b[k];      \
      break;                                                                                   \
    case ACL__NN_REM:                                                                          \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T m = fmod##S(a[k], b[k]);                                                             \
        r[k] = (m != 0 && ((m < 0) != (b[k] < 0))) ? m + b[k] : m;                             \
      }                                                                                        \
      break;                                                                                   \
    case ACL__NN_COPY: if (r != a) memmove(r, a, (size_t)n * sizeof(T)); break;                \
    case ACL__NN_NEG: for (int64_t k = 0; k < n; k++) r[k] = -a[k]; break;                     \
    case ACL__NN_ABS: for (int64_t k = 0; k < n; k++) r[k] = fabs##S(a[k]); break;             \
    case ACL__NN_EXP: for (int64_t k = 0; k < n; k++) r[k] = exp##S(a[k]); break;              \
    case ACL__NN_LOG: for (int64_t k = 0; k < n; k++) r[k] = log##S(a[k]); break;              \
    case ACL__NN_LOG2: for (int64_t k = 0; k < n; k++) r[k] = log2##S(a[k]); break;            \
    case ACL__NN_LOG10: for (int64_t k = 0; k < n; k++) r[k] = log10##S(a[k]); break;          \
    case ACL__NN_LOG1P: for (int64_t k = 0; k < n; k++) r[k] = log1p##S(a[k]); break;          \
    case ACL__NN_SQRT: for (int64_t k = 0; k < n; k++) r[k] = sqrt##S(a[k]); break;            \
    case ACL__NN_RSQRT: for (int64_t k = 0; k < n; k++) r[k] = 1 / sqrt##S(a[k]); break;       \
    case ACL__NN_RECIP: for (int64_t k = 0; k < n; k++) r[k] = 1 / a[k]; break;                \
    case ACL__NN_SIN: for (int64_t k = 0; k < n; k++) r[k] = sin##S(a[k]); break;              \
    case ACL__NN_COS: for (int64_t k = 0; k < n; k++) r[k] = cos##S(a[k]); break;              \
    case ACL__NN_TAN: for (int64_t k = 0; k < n; k++) r[k] = tan##S(a[k]); break;              \
    case ACL__NN_ATAN: for (int64_t k = 0; k < n; k++) r[k] = atan##S(a[k]); break;            \
    case ACL__NN_SINH: for (int64_t k = 0; k < n; k++) r[k] = sinh##S(a[k]); break;            \
    case ACL__NN_COSH: for (int64_t k = 0; k < n; k++) r[k] = cosh##S(a[k]); break;            \
    case ACL__NN_ERF: for (int64_t k = 0; k < n; k++) r[k] = erf##S(a[k]); break;              \
    case ACL__NN_FLOOR: for (int64_t k = 0; k < n; k++) r[k] = floor##S(a[k]); break;          \
    case ACL__NN_CEIL: for (int64_t k = 0; k < n; k++) r[k] = ceil##S(a[k]); break;            \
    case ACL__NN_ROUND: for (int64_t k = 0; k < n; k++) r[k] = nearbyint##S(a[k]); break;      \
    case ACL__NN_TRUNC: for (int64_t k = 0; k < n; k++) r[k] = trunc##S(a[k]); break;          \
    case ACL__NN_SIGN: for (int64_t k = 0; k < n; k++) r[k] = (T)((a[k] > 0) - (a[k] < 0)); break; \
    case ACL__NN_PRELU: for (int64_t k = 0; k < n; k++) r[k] = a[k] > 0 ? a[k] : b[k] * a[k]; break; \
    case ACL__NN_RELU: for (int64_t k = 0; k < n; k++) r[k] = a[k] < 0 ? 0 : a[k]; break;      \
    case ACL__NN_GELU_TANH:                                                                    \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T x = a[k];                                                                            \
        r[k] = (T)0.5 * x * (1 + tanh##S((T)0.7978845608028654 * (x + (T)0.044715 * x * x * x))); \
      }                                                                                        \
      break;                                                                                   \
    case ACL__NN_GELU_ERF:                                                                     \
      for (int64_t k = 0; k < n; k++) r[k] = (T)0.5 * a[k] * (1 + erf##S(a[k] * (T)0.7071067811865476)); \
      break;                                                                                   \
    case ACL__NN_SILU: for (int64_t k = 0; k < n; k++) r[k] = a[k] / (1 + exp##S(-a[k])); break; \
    case ACL__NN_SIGMOID: for (int64_t k = 0; k < n; k++) r[k] = 1 / (1 + exp##S(-a[k])); break; \
    case ACL__NN_TANH: for (int64_t k = 0; k < n; k++) r[k] = tanh##S(a[k]); break;            \
    case ACL__NN_LEAKY_RELU: {                                                                 \
      T sl = (T)p->prm[0];                                                                     \
      for (int64_t k = 0; k < n; k++) r[k] = a[k] > 0 ? a[k] : sl * a[k];                      \
      break;                                                                                   \
    }                                                                                          \
    case ACL__NN_HARDSWISH:                                                                    \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T x = a[k], c = x + 3;                                                                 \
        c = c < 0 ? 0 : c > 6 ? 6 : c;                                                         \
        r[k] = x * c / 6;                                                                      \
      }                                                                                        \
      break;                                                                                   \
    case ACL__NN_HARDSIGMOID:                                                                  \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T c = a[k] / 6 + (T)0.5;                                                               \
        r[k] = c < 0 ? 0 : c > 1 ? 1 : c;                                                      \
      }                                                                                        \
      break;                                                                                   \
    case ACL__NN_SOFTPLUS: {                                                                   \
      T beta = (T)p->prm[0], th = (T)p->prm[1];                                                \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T bx = beta * a[k];                                                                    \
        r[k] = bx > th ? a[k] : log1p##S(exp##S(bx)) / beta;                                   \
      }                                                                                        \
      break;                                                                                   \
    }                                                                                          \
    case ACL__NN_ELU: {                                                                        \
      T ea = (T)p->prm[0], sc = (T)p->prm[1], is = (T)p->prm[2];                               \
      for (int64_t k = 0; k < n; k++)                                                          \
        r[k] = a[k] > 0 ? sc * a[k] : ea * sc * expm1##S(a[k] * is);                           \
      break;                                                                                   \
    }                                                                                          \
    case ACL__NN_MISH:                                                                         \
      for (int64_t k = 0; k < n; k++) r[k] = a[k] * tanh##S(log1p##S(exp##S(a[k])));           \
      break;                                                                                   \
    case ACL__NN_CLAMP: {                                                                      \
      T lo = (T)p->prm[0], hi = (T)p->prm[1];                                                  \
      for (int64_t k = 0; k < n; k++) {                                                        \
        T x = a[k] < lo ? lo : a[k];                                                           \
        r[k] = x > hi ? hi : x;                                                                \
      }                                                                                        \
      break;                                                                                   \
    }                                                                                          \
    default: break;                                                                            \
    }                                                                                          \
  }

ACL__NN_FLOAT_OPS(acl__nn_ops_f32, float, f)
ACL__NN_FLOAT_OPS(acl__nn_ops_f64, double, )

/* a ** b in wrapping int64 arithmetic; a negative b gives what the real
 * power truncates to (1, -1 or 0). */
static int64_t acl__nn_ipow(int64_t a, int64_t b) {
  if (b < 0)
    return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  uint64_t r = 1, x = (uint64_t)a, e = (uint64_t)b;
  while (e != 0) {
    if (e & 1)
      r *= x;
    x *= x;
    e >>= 1;
  }
  return (int64_t)r;
}

static void acl__nn_ops_i64(const acl__nn_plan *p, int64_t *r, const int64_t *a, const int64_t *b, int64_t n) {
  uint64_t al = (uint64_t)p->alpha.i;
  switch (p->op) {
  case ACL__NN_ADD:
    if (p->alpha_one)
      for (int64_t k = 0; k < n; k++) r[k] = (int64_t)((uint64_t)a[k] + (uint64_t)b[k]);
    else
      for (int64_t k = 0; k < n; k++) r[k] = (int64_t)((uint64_t)a[k] + al * (uint64_t)b[k]);
    break;
  case ACL__NN_SUB:
    if (p->alpha_one)
      for (int64_t k = 0; k < n; k++) r[k] = (int64_t)((uint64_t)a[k] - (uint64_t)b[k]);
    else
      for (int64_t k = 0; k < n; k++) r[k] = (int64_t)((uint64_t)a[k] - al * (uint64_t)b[k]);
    break;
  case ACL__NN_MUL: for (int64_t k = 0; k < n; k++) r[k] = (int64_t)((uint64_t)a[k] * (uint64_t)b[k]); break;
  case ACL__NN_DIV_TRUNC:
  case ACL__NN_DIV_FLOOR:
    for (int64_t k = 0; k < n; k++) {
      int64_t x = a[k], y = b[k], q;
      if (y == 0)
        q = 0; /* the vendor does not say; openacl writes 0 (docs/aclnn.md) */
      else if (y == -1)
        q = (int64_t)(0 - (uint64_t)x);
      else {
        q = x / y;
        if (p->op == ACL__NN_DIV_FLOOR && x % y != 0 && ((x < 0) != (y < 0)))
          q--;
      }
      r[k] = q;
    }
    break;
  case ACL__NN_POW: for (int64_t k = 0; k < n; k++) r[k] = acl__nn_ipow(a[k], b[k]); break;
  case ACL__NN_MAX: for (int64_t k = 0; k < n; k++) r[k] = a[k] > b[k] ? a[k] : b[k]; break;
  case ACL__NN_MIN: for (int64_t k = 0; k < n; k++) r[k] = a[k] < b[k] ? a[k] : b[k]; break;
  case ACL__NN_REM:
    for (int64_t k = 0; k < n; k++) {
      int64_t x = a[k], y = b[k];
      if (y == 0 || y == -1) {
        r[k] = y == 0 ? x : 0; /* integer self with other == 0 returns self (reference 8.1) */
        continue;
      }
      int64_t m = x % y;
      r[k] = (m != 0 && ((m < 0) != (y < 0))) ? m + y : m;
    }
    break;
  case ACL__NN_COPY:
  case ACL__NN_FLOOR:
  case ACL__NN_CEIL:
  case ACL__NN_ROUND:
  case ACL__NN_TRUNC:
    if (r != a)
      memmove(r, a, (size_t)n * sizeof(int64_t));
    break;
  case ACL__NN_NEG: for (int64_t k = 0; k < n; k++) r[k] = (int64_t)(0 - (uint64_t)a[k]); break;
  case ACL__NN_ABS: for (int64_t k = 0; k < n; k++) r[k] = a[k] < 0 ? (int64_t)(0 - (uint64_t)a[k]) : a[k]; break;
  case ACL__NN_SIGN: for (int64_t k = 0; k < n; k++) r[k] = (a[k] > 0) - (a[k] < 0); break;
  case ACL__NN_RELU: for (int64_t k = 0; k < n; k++) r[k] = a[k] < 0 ? 0 : a[k]; break;
  case ACL__NN_HARDSIGMOID: for (int64_t k = 0; k < n; k++) r[k] = a[k] >= 3; break; /* clip(x/6 + 1/2) truncated */
  case ACL__NN_CLAMP: {
    int64_t lo = acl__nn_f2i(p->prm[0]), hi = acl__nn_f2i(p->prm[1]); /* -inf / +inf saturate */
    for (int64_t k = 0; k < n; k++) {
      int64_t x = a[k] < lo ? lo : a[k];
      r[k] = x > hi ? hi : x;
    }
    break;
  }
  default: break;
  }
}

/* Comparisons in the operands' class: 1 / 0 results. */
#define ACL__NN_CMP_OPS(NAME, T)                                                               \
  static void NAME(const acl__nn_plan *p, int64_t *r, const T *a, const T *b, int64_t n) {      \
    switch (p->op) {                                                                           \
    case ACL__NN_EQ: for (int64_t k = 0; k < n; k++) r[k] = a[k] == b[k]; break;               \
    case ACL__NN_NE: for (int64_t k = 0; k < n; k++) r[k] = a[k] != b[k]; break;               \
    case ACL__NN_GT: for (int64_t k = 0; k < n; k++) r[k] = a[k] > b[k]; break;                \
    case ACL__NN_GE: for (int64_t k = 0; k < n; k++) r[k] = a[k] >= b[k]; break;               \
    case ACL__NN_LT: for (int64_t k = 0; k < n; k++) r[k] = a[k] < b[k]; break;                \
    case ACL__NN_LE: for (int64_t k = 0; k < n; k++) r[k] = a[k] <= b[k]; break;               \
    default: break;                                                                            \
    }                                                                                          \
  }

ACL__NN_CMP_OPS(acl__nn_cmp_f32, float)
ACL__NN_CMP_OPS(acl__nn_cmp_f64, double)
ACL__NN_CMP_OPS(acl__nn_cmp_i64, int64_t)

/* Truth-valued operations: double operands, 1 / 0 results. */
static void acl__nn_ops_truth(const acl__nn_plan *p, int64_t *r, const double *a, const double *b, int64_t n) {
  switch (p->op) {
  case ACL__NN_AND: for (int64_t k = 0; k < n; k++) r[k] = (a[k] != 0) & (b[k] != 0); break;
  case ACL__NN_OR: for (int64_t k = 0; k < n; k++) r[k] = (a[k] != 0) | (b[k] != 0); break;
  case ACL__NN_NOT: for (int64_t k = 0; k < n; k++) r[k] = a[k] == 0; break;
  case ACL__NN_ISFINITE: for (int64_t k = 0; k < n; k++) r[k] = (a[k] - a[k]) == 0; break;
  default: break;
  }
}

/* ---- walking a plan ------------------------------------------------------------------------ */

static size_t acl__nn_class_size(acl__nn_class c) { return c == ACL__NN_F32 ? sizeof(float) : 8; }

static void acl__nn_fill(void *buf, acl__nn_class c, const acl__nn_val *v, int64_t n) {
  if (c == ACL__NN_F32)
    for (int64_t k = 0; k < n; k++) ((float *)buf)[k] = v->f;
  else if (c == ACL__NN_F64)
    for (int64_t k = 0; k < n; k++) ((double *)buf)[k] = v->d;
  else
    for (int64_t k = 0; k < n; k++) ((int64_t *)buf)[k] = v->i;
}

/* Operand i of chunk [c, c+m) of a row starting at `row`: where it lies
 * when usable as is, else loaded (and rounded) into `buf`. */
static const void *acl__nn_operand(const acl__nn_plan *p, const acl__nn_arg *in, const char *row, int64_t c,
                                   int64_t m, int64_t st, acl__nn_buf *buf) {
  const char *src = row + c * st;
  int round = p->lcls == acl__nn_class_of(p->cdt) && in->dtype != p->cdt;
  if (in->dtype == acl__nn_native(p->lcls) && st == (int64_t)acl__nn_class_size(p->lcls) && !round)
    return src;
  switch (p->lcls) {
  case ACL__NN_F32: acl__nn_load_f32(buf->f, src, st, m, in->dtype); break;
  case ACL__NN_F64: acl__nn_load_f64(buf->d, src, st, m, in->dtype); break;
  default: acl__nn_load_i64(buf->i, src, st, m, in->dtype); break;
  }
  if (round)
    acl__nn_narrow(buf, p->lcls, p->cdt, m);
  return buf;
}

/* One row of n elements; a, b, o: the row's first elements; sa, sb, so:
 * the innermost byte strides; ca, cb: filled constant buffers (or NULL). */
static void acl__nn_row(const acl__nn_plan *p, const char *a, const char *b, char *o, int64_t n, int64_t sa,
                        int64_t sb, int64_t so, const acl__nn_buf *ca, const acl__nn_buf *cb) {
  acl__nn_buf ba, bb, br;
  int round_out = p->rcls == acl__nn_class_of(p->cdt) && p->out.dtype != p->cdt;
  int direct_out = p->out.dtype == acl__nn_native(p->rcls) && so == (int64_t)acl__nn_class_size(p->rcls) &&
                   !round_out;
  for (int64_t c = 0; c < n; c += ACL__NN_CHUNK) {
    int64_t m = n - c < ACL__NN_CHUNK ? n - c : ACL__NN_CHUNK;
    const void *A = ca != NULL ? (const void *)ca : acl__nn_operand(p, &p->in[0], a, c, m, sa, &ba);
    const void *B = NULL;
    if (p->nin > 1)
      B = cb != NULL ? (const void *)cb : acl__nn_operand(p, &p->in[1], b, c, m, sb, &bb);
    void *R = direct_out ? (void *)(o + c * so) : (void *)&br;
    if (p->op >= ACL__NN_EQ && p->op <= ACL__NN_LE) {
      if (p->lcls == ACL__NN_F32)
        acl__nn_cmp_f32(p, R, A, B, m);
      else if (p->lcls == ACL__NN_F64)
        acl__nn_cmp_f64(p, R, A, B, m);
      else
        acl__nn_cmp_i64(p, R, A, B, m);
    } else if (p->lcls != p->rcls)
      acl__nn_ops_truth(p, R, A, B, m);
    else if (p->rcls == ACL__NN_F32)
      acl__nn_ops_f32(p, R, A, B, m);
    else if (p->rcls == ACL__NN_F64)
      acl__nn_ops_f64(p, R, A, B, m);
    else
      acl__nn_ops_i64(p, R, A, B, m);
    if (direct_out)
      continue;
    if (round_out)
      acl__nn_narrow(R, p->rcls, p->cdt, m);
    switch (p->rcls) {
    case ACL__NN_F32: acl__nn_store_f32(o + c * so, so, m, p->out.dtype, br.f); break;
    case ACL__NN_F64: acl__nn_store_f64(o + c * so, so, m, p->out.dtype, br.d); break;
    default: acl__nn_store_i64(o + c * so, so, m, p->out.dtype, br.i); break;
    }
  }
}

void acl__nn_kernel_range(const acl__nn_plan *p, int64_t start, int64_t end) {
  int r = p->rank;
  int64_t idx[ACL__NN_MAX_RANK];
  int64_t rem = start;
  for (int d = r - 1; d >= 0; d--) {
    idx[d] = rem % p->dims[d];
    rem /= p->dims[d];
  }
  /* constant operands: one chunk's worth, filled once */
  acl__nn_buf cbuf[2];
  int64_t fill = end - start < ACL__NN_CHUNK ? end - start : ACL__NN_CHUNK;
  for (int i = 0; i < p->nin; i++)
    if (p->in[i].is_const) {
      acl__nn_val v = p->in[i].c;
      acl__nn_fill(&cbuf[i], p->lcls, &v, fill);
    }
  const acl__nn_buf *ca = p->in[0].is_const ? &cbuf[0] : NULL;
  const acl__nn_buf *cb = p->nin > 1 && p->in[1].is_const ? &cbuf[1] : NULL;
  int64_t inner = p->dims[r - 1];
  while (start < end) {
    const char *a = p->in[0].p, *b = p->nin > 1 ? p->in[1].p : NULL;
    char *o = p->out.p;
    for (int d = 0; d < r; d++) {
      if (a != NULL)
        a += idx[d] * p->in[0].st[d];
      if (b != NULL)
        b += idx[d] * p->in[1].st[d];
      o += idx[d] * p->out.st[d];
    }
    int64_t n = inner - idx[r - 1];
    if (n > end - start)
      n = end - start;
    acl__nn_row(p, a, b, o, n, p->in[0].st[r - 1], p->nin > 1 ? p->in[1].st[r - 1] : 0, p->out.st[r - 1], ca, cb);
    start += n;
    idx[r - 1] += n;
    for (int d = r - 1; d > 0 && idx[d] >= p->dims[d]; d--) {
      idx[d] = 0;
      idx[d - 1]++;
    }
  }
}

/* ---- constants ------------------------------------------------------------------------------ */

/* The scalar's value as a double and as an int64 (exact for the integers). */
static void acl__nn_scalar_value(const aclScalar *s, double *d, int64_t *i, int *is_float) {
  *is_float = 1;
  switch (s->dtype) {
  case ACL_FLOAT: *d = s->v.f32; break;
  case ACL_DOUBLE: *d = s->v.f64; break;
  case ACL_FLOAT16: *d = acl__half_to_float(s->v.u16); break;
  case ACL_BF16: *d = acl__bf16_to_float(s->v.u16); break;
  default:
    *is_float = 0;
    switch (s->dtype) {
    case ACL_INT8: *i = s->v.s8; break;
    case ACL_INT16: *i = s->v.s16; break;
    case ACL_INT32: *i = s->v.s32; break;
    case ACL_INT64: *i = s->v.s64; break;
    case ACL_UINT8: *i = s->v.u8; break;
    case ACL_UINT16: *i = s->v.u16; break;
    case ACL_UINT32: *i = s->v.u32; break;
    case ACL_UINT64: *i = (int64_t)s->v.u64; break;
    case ACL_BOOL: *i = s->v.u8 != 0; break;
    default: *i = 0; break;
    }
    *d = s->dtype == ACL_UINT64 ? (double)s->v.u64 : (double)*i;
    return;
  }
  *i = acl__nn_f2i(*d);
}

void acl__nn_const_of(const aclScalar *s, aclDataType cdt, acl__nn_val *v) {
  double d;
  int64_t i;
  int is_float;
  acl__nn_scalar_value(s, &d, &i, &is_float);
  acl__nn_class c = acl__nn_class_of(cdt);
  if (c == ACL__NN_I64) {
    v->i = i;
    acl__nn_narrow(&v->i, ACL__NN_I64, cdt, 1);
    v->d = (double)v->i;
    v->f = (float)v->i;
  } else if (c == ACL__NN_F32) {
    v->f = (float)d;
    acl__nn_narrow(&v->f, ACL__NN_F32, cdt, 1);
    v->d = v->f;
    v->i = acl__nn_f2i(v->f);
  } else {
    v->d = d;
    v->f = (float)d;
    v->i = acl__nn_f2i(d);
  }
}
