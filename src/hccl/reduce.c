/*
 * reduce.c - HCCL data types and the reductions the collectives compute on
 * the host: element sizes, the vendor's type and op checks, and
 * acc = acc op in for each type.  float16 and bfloat16 are converted to
 * float, combined, and rounded back (round to nearest even), one element at
 * a time, so a sum of n ranks rounds n - 1 times as a card's would.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hccl/hccl_int.h"
#include "rt/half.h"

size_t hccl__dtype_size(HcclDataType t) {
  switch (t) {
  case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: case HCCL_DATA_TYPE_HIF8:
  case HCCL_DATA_TYPE_FP8E4M3: case HCCL_DATA_TYPE_FP8E5M2: case HCCL_DATA_TYPE_FP8E8M0:
    return 1;
  case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16:
    return 2;
  case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32:
    return 4;
  case HCCL_DATA_TYPE_INT64: case HCCL_DATA_TYPE_UINT64: case HCCL_DATA_TYPE_FP64:
    return 8;
  case HCCL_DATA_TYPE_INT128:
    return 16;
  default:
    return 0;
  }
}

const char *hccl__dtype_name(HcclDataType t) {
  static const char *const names[] = {"int8", "int16", "int32", "fp16", "fp32", "int64", "uint64", "uint8",
                                      "uint16", "uint32", "fp64", "bfp16", "int128", "?", "hif8", "fp8e4m3",
                                      "fp8e5m2", "fp8e8m0"};
  return (unsigned)t < sizeof(names) / sizeof(names[0]) && (unsigned)t != 13 ? names[t] : "unknown";
}

const char *hccl__op_name(HcclReduceOp op) {
  switch (op) {
  case HCCL_REDUCE_SUM: return "sum";
  case HCCL_REDUCE_PROD: return "prod";
  case HCCL_REDUCE_MAX: return "max";
  case HCCL_REDUCE_MIN: return "min";
  default: return "unknown";
  }
}

HcclResult hccl__check_dtype(const char *api, HcclDataType t, int reducing) {
  if (hccl__dtype_size(t) == 0)
    return hccl__fail(api, HCCL_E_NOT_SUPPORT, "dataType %d is no HcclDataType. Remedy: pass an HCCL_DATA_TYPE_*",
                      (int)t);
  if (t == HCCL_DATA_TYPE_INT128)
    return hccl__fail(api, HCCL_E_NOT_SUPPORT,
                      "dataType int128 is not supported by any collective. Remedy: move 16-byte elements as "
                      "2 x int64 or uint64");
  if (reducing) {
    switch (t) {
    case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_UINT64: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_FP32: case HCCL_DATA_TYPE_FP64:
    case HCCL_DATA_TYPE_BFP16:
      break;
    default:
      return hccl__fail(api, HCCL_E_NOT_SUPPORT,
                        "dataType %s cannot be reduced (reductions take int8, int16, int32, int64, uint64, fp16, "
                        "fp32, fp64, bfp16). Remedy: use one of those types",
                        hccl__dtype_name(t));
    }
  }
  return HCCL_SUCCESS;
}

HcclResult hccl__check_reduce(const char *api, HcclDataType t, HcclReduceOp op) {
  if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_PROD && op != HCCL_REDUCE_MAX && op != HCCL_REDUCE_MIN)
    return hccl__fail(api, HCCL_E_NOT_SUPPORT, "op %d is no HcclReduceOp. Remedy: pass HCCL_REDUCE_SUM, _PROD, "
                      "_MAX or _MIN", (int)op);
  if (op == HCCL_REDUCE_PROD && (t == HCCL_DATA_TYPE_INT16 || t == HCCL_DATA_TYPE_BFP16))
    return hccl__fail(api, HCCL_E_NOT_SUPPORT,
                      "HCCL_REDUCE_PROD is not supported for %s (prod takes int8, int32, int64, uint64, fp16, fp32, "
                      "fp64). Remedy: use another type", hccl__dtype_name(t));
  return HCCL_SUCCESS;
}

/* Integers wrap as the card's do: computed unsigned, stored back. */
#define HCCL__RED_INT(T, UT)                                                                           \
  do {                                                                                                 \
    T *a = acc;                                                                                        \
    const T *b = in;                                                                                   \
    for (uint64_t i = 0; i < n; i++) {                                                                 \
      switch (op) {                                                                                    \
      case HCCL_REDUCE_SUM: a[i] = (T)(UT)((UT)a[i] + (UT)b[i]); break;                                \
      case HCCL_REDUCE_PROD: a[i] = (T)(UT)((UT)a[i] * (UT)b[i]); break;                               \
      case HCCL_REDUCE_MAX: a[i] = a[i] > b[i] ? a[i] : b[i]; break;                                   \
      default: a[i] = a[i] < b[i] ? a[i] : b[i]; break;                                                \
      }                                                                                                \
    }                                                                                                  \
  } while (0)

/* Floats: max and min keep a NaN from either side (fmax would drop it). */
static double hccl__f1(HcclReduceOp op, double a, double b) {
  if (isnan(a))
    return a;
  if (isnan(b))
    return b;
  switch (op) {
  case HCCL_REDUCE_SUM: return a + b;
  case HCCL_REDUCE_PROD: return a * b;
  case HCCL_REDUCE_MAX: return a >= b ? a : b;
  default: return a <= b ? a : b;
  }
}

void hccl__reduce(void *acc, const void *in, uint64_t n, HcclDataType t, HcclReduceOp op) {
  switch (t) {
  case HCCL_DATA_TYPE_INT8: HCCL__RED_INT(int8_t, uint8_t); break;
  case HCCL_DATA_TYPE_INT16: HCCL__RED_INT(int16_t, uint16_t); break;
  case HCCL_DATA_TYPE_INT32: HCCL__RED_INT(int32_t, uint32_t); break;
  case HCCL_DATA_TYPE_INT64: HCCL__RED_INT(int64_t, uint64_t); break;
  case HCCL_DATA_TYPE_UINT8: HCCL__RED_INT(uint8_t, uint8_t); break;
  case HCCL_DATA_TYPE_UINT16: HCCL__RED_INT(uint16_t, uint16_t); break;
  case HCCL_DATA_TYPE_UINT32: HCCL__RED_INT(uint32_t, uint32_t); break;
  case HCCL_DATA_TYPE_UINT64: HCCL__RED_INT(uint64_t, uint64_t); break;
  case HCCL_DATA_TYPE_FP32: {
    /* sum and prod: plain loops the compiler vectorises (NaN propagates by
     * itself); max and min go through hccl__f1 to keep NaN */
    float *restrict a = acc;
    const float *restrict b = in;
    if (op == HCCL_REDUCE_SUM)
      for (uint64_t i = 0; i < n; i++)
        a[i] += b[i];
    else if (op == HCCL_REDUCE_PROD)
      for (uint64_t i = 0; i < n; i++)
        a[i] *= b[i];
    else
      for (uint64_t i = 0; i < n; i++)
        a[i] = (float)hccl__f1(op, a[i], b[i]);
    break;
  }
  case HCCL_DATA_TYPE_FP64: {
    double *restrict a = acc;
    const double *restrict b = in;
    if (op == HCCL_REDUCE_SUM)
      for (uint64_t i = 0; i < n; i++)
        a[i] += b[i];
    else if (op == HCCL_REDUCE_PROD)
      for (uint64_t i = 0; i < n; i++)
        a[i] *= b[i];
    else
      for (uint64_t i = 0; i < n; i++)
        a[i] = hccl__f1(op, a[i], b[i]);
    break;
  }
  case HCCL_DATA_TYPE_FP16: {
    uint16_t *a = acc;
    const uint16_t *b = in;
    for (uint64_t i = 0; i < n; i++)
      a[i] = acl__float_to_half((float)hccl__f1(op, acl__half_to_float(a[i]), acl__half_to_float(b[i])));
    break;
  }
  case HCCL_DATA_TYPE_BFP16: {
    uint16_t *a = acc;
    const uint16_t *b = in;
    for (uint64_t i = 0; i < n; i++)
      a[i] = acl__float_to_bf16((float)hccl__f1(op, acl__bf16_to_float(a[i]), acl__bf16_to_float(b[i])));
    break;
  }
  default:
    break; /* refused by hccl__check_dtype before any op is built */
  }
}
