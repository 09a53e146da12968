/*
 * reduce.c - aclrtReduceAsync: dst[i] = dst[i] OP src[i], element-wise over
 * device memory, as a stream task (on a card: the SDMA engine's inline
 * reduction).
 *
 * Kinds: SUM, MAX, MIN, and EQUAL, whose meaning the vendor does not
 * document: openacl writes 1 where the two elements are equal and 0 where
 * they differ (docs/streams.md).  Half and bfloat16 are computed in float
 * and rounded back; integers wrap as in C's unsigned arithmetic (the
 * hardware's adders).  INT4 packs two elements per byte, low nibble first.
 */
#include <stdlib.h>
#include <string.h>

#include "rt/half.h"
#include "rt/rt.h"
#include "rt/value.h"

typedef struct acl__reduce_task {
  void *dst;
  const void *src;
  uint64_t bytes;
  aclrtReduceKind kind;
  aclDataType type;
} acl__reduce_task;

static double acl__reduce_op(aclrtReduceKind kind, double a, double b) {
  switch (kind) {
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return a > b || isnan(a) ? a : b;
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: return a < b || isnan(a) ? a : b;
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL: return a == b ? 1.0 : 0.0;
  default: return a + b;
  }
}

static int64_t acl__reduce_iop(aclrtReduceKind kind, int64_t a, int64_t b) {
  switch (kind) {
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX: return a > b ? a : b;
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN: return a < b ? a : b;
  case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL: return a == b;
  default: return (int64_t)((uint64_t)a + (uint64_t)b);
  }
}

/* One integer type: load both, combine, store (wrapping). */
#define ACL__REDUCE_INT(T)                                                                 \
  do {                                                                                     \
    T *d = r->dst;                                                                         \
    const T *s = r->src;                                                                   \
    for (uint64_t i = 0; i < r->bytes / sizeof(T); i++)                                    \
      d[i] = (T)acl__reduce_iop(r->kind, (int64_t)d[i], (int64_t)s[i]);                    \
  } while (0)

static int acl__reduce_run(acl__task *t) {
  acl__reduce_task *r = acl__task_payload(t);
  switch (r->type) {
  case ACL_FLOAT: {
    float *d = r->dst;
    const float *s = r->src;
    for (uint64_t i = 0; i < r->bytes / 4; i++)
      d[i] = (float)acl__reduce_op(r->kind, d[i], s[i]);
    break;
  }
  case ACL_FLOAT16:
  case ACL_BF16: {
    uint16_t *d = r->dst;
    const uint16_t *s = r->src;
    int bf = r->type == ACL_BF16;
    for (uint64_t i = 0; i < r->bytes / 2; i++) {
      float a = bf ? acl__bf16_to_float(d[i]) : acl__half_to_float(d[i]);
      float b = bf ? acl__bf16_to_float(s[i]) : acl__half_to_float(s[i]);
      float v = (float)acl__reduce_op(r->kind, a, b);
      d[i] = bf ? acl__float_to_bf16(v) : acl__float_to_half(v);
    }
    break;
  }
  case ACL_INT8: ACL__REDUCE_INT(int8_t); break;
  case ACL_UINT8: ACL__REDUCE_INT(uint8_t); break;
  case ACL_INT16: ACL__REDUCE_INT(int16_t); break;
  case ACL_UINT16: ACL__REDUCE_INT(uint16_t); break;
  case ACL_INT32: ACL__REDUCE_INT(int32_t); break;
  case ACL_UINT32: ACL__REDUCE_INT(uint32_t); break;
  case ACL_INT4: {
    uint8_t *d = r->dst;
    const uint8_t *s = r->src;
    for (uint64_t i = 0; i < r->bytes; i++) {
      uint8_t out = 0;
      for (int half = 0; half < 2; half++) {
        int sh = half * 4;
        int a = (int)((d[i] >> sh) & 0xf), b = (int)((s[i] >> sh) & 0xf);
        a = a >= 8 ? a - 16 : a; /* sign-extend the nibble */
        b = b >= 8 ? b - 16 : b;
        out |= (uint8_t)((acl__reduce_iop(r->kind, a, b) & 0xf) << sh);
      }
      d[i] = out;
    }
    break;
  }
  default:
    return ACL_ERROR_RT_PARAM_INVALID; /* the API checks the type first */
  }
  return 0;
}

int acl__reduce_submit(acl__stream *s, void *dst, const void *src, uint64_t bytes, aclrtReduceKind kind,
                       aclDataType type) {
  acl__task *t = acl__task_new(sizeof(acl__reduce_task), acl__reduce_run, "reduce");
  if (t == NULL)
    return ACL_ERROR_BAD_ALLOC;
  t->ri_ok = 1; /* reads and writes the buffers each time it runs: a capture may record it (graph.c) */
  acl__reduce_task *r = acl__task_payload(t);
  r->dst = dst;
  r->src = src;
  r->bytes = bytes;
  r->kind = kind;
  r->type = type;
  return acl__stream_submit(s, t);
}
