/*
 * random.c - aclrtRandomNumAsync: random numbers generated on the device
 * as a stream task.
 *
 * The generator is Philox4x32-10 (counter-based, as the vendor's and CUDA's
 * device generators): the key is the seed, the 128-bit counter lives in the
 * user's device memory (randomCounterAddr, 16 bytes) and is advanced past
 * the blocks a task used, so successive tasks with one counter give fresh
 * numbers and the same seed and counter give the same numbers again.
 *
 * Functions: uniform on [min, max) (floats, and integers of the four integer
 * types), normal (mean, stddev) by Box-Muller, truncated normal (values
 * beyond two standard deviations drawn again, as TensorFlow and the Ascend
 * operator do), and a dropout bitmask: bit i (byte i/8, low bit first) is 1
 * when element i is kept, which happens with probability 1 - ratio.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/half.h"
#include "rt/rt.h"
#include "rt/value.h"

typedef struct acl__random_task {
  acl__random_job job;
  size_t result_cap;           /* bytes from result to the end of its allocation */
} acl__random_task;

typedef struct acl__philox {
  uint32_t ctr[4], key[2], buf[4];
  int idx;
} acl__philox;

static void acl__philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c0 = n0;
    c1 = (uint32_t)p1;
    c2 = n2;
    c3 = (uint32_t)p0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

static uint32_t acl__philox_next(acl__philox *g) {
  if (g->idx == 4) {
    acl__philox_block(g->ctr, g->key, g->buf);
    for (int i = 0; i < 4 && ++g->ctr[i] == 0; i++)
      ; /* 128-bit increment */
    g->idx = 0;
  }
  return g->buf[g->idx++];
}

/* Uniform in [0, 1) with 24 bits, and in (0, 1] with 32 bits (for logs). */
static float acl__u01(acl__philox *g) { return (float)(acl__philox_next(g) >> 8) * (1.0f / 16777216.0f); }
static double acl__u01_open(acl__philox *g) { return ((double)acl__philox_next(g) + 1.0) / 4294967296.0; }

static size_t acl__random_elem_size(aclDataType t) {
  switch (t) {
  case ACL_FLOAT16:
  case ACL_BF16: return 2;
  case ACL_INT64:
  case ACL_UINT64: return 8;
  default: return 4;
  }
}

/* A parameter's bytes: inline, or read from device memory now. */
static void acl__random_param_bytes(const acl__random_param *p, uint8_t out[8]) {
  memset(out, 0, 8);
  size_t n = p->size > 8 ? 8 : p->size;
  memcpy(out, p->is_addr ? p->addr : p->bytes, n);
}

static uint64_t acl__random_param_u64(const acl__random_param *p) {
  uint8_t b[8];
  acl__random_param_bytes(p, b);
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | b[i];
  return v;
}

/* A parameter of the task's data type as a double (integers exactly up to 2^53). */
static double acl__random_param_value(const acl__random_param *p, aclDataType t, int64_t *as_int) {
  uint8_t b[8];
  acl__random_param_bytes(p, b);
  uint16_t h;
  uint32_t u32;
  uint64_t u64;
  float f;
  memcpy(&h, b, 2);
  memcpy(&u32, b, 4);
  memcpy(&u64, b, 8);
  memcpy(&f, b, 4);
  switch (t) {
  case ACL_FLOAT: *as_int = (int64_t)f; return f;
  case ACL_FLOAT16: *as_int = 0; return acl__half_to_float(h);
  case ACL_BF16: *as_int = 0; return acl__bf16_to_float(h);
  case ACL_INT32: *as_int = (int32_t)u32; return (double)(int32_t)u32;
  case ACL_UINT32: *as_int = u32; return u32;
  case ACL_INT64: *as_int = (int64_t)u64; return (double)(int64_t)u64;
  default: *as_int = (int64_t)u64; return (double)u64; /* UINT64 */
  }
}

static void acl__random_store(void *out, uint64_t i, aclDataType t, double v, uint64_t bits) {
  switch (t) {
  case ACL_FLOAT: ((float *)out)[i] = (float)v; break;
  case ACL_FLOAT16: ((uint16_t *)out)[i] = acl__float_to_half((float)v); break;
  case ACL_BF16: ((uint16_t *)out)[i] = acl__float_to_bf16((float)v); break;
  case ACL_INT32:
  case ACL_UINT32: ((uint32_t *)out)[i] = (uint32_t)bits; break;
  default: ((uint64_t *)out)[i] = bits; break;
  }
}

static int acl__random_run(acl__task *t) {
  acl__random_task *rt = acl__task_payload(t);
  const acl__random_job *j = &rt->job;
  uint64_t n = acl__random_param_u64(&j->num);
  int bitmask = j->func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK;
  uint64_t need = bitmask ? (n + 7) / 8 : n * acl__random_elem_size(j->type);
  if (need > rt->result_cap) {
    char what[128];
    snprintf(what, sizeof(what), "random numbers: %llu need %llu bytes, output has %zu", (unsigned long long)n,
             (unsigned long long)need, rt->result_cap);
    memcpy(t->what, what, sizeof(t->what) - 1); /* cut to fit */
    t->what[sizeof(t->what) - 1] = '\0';
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  acl__philox g;
  memset(&g, 0, sizeof(g));
  memcpy(g.ctr, j->counter, 16);
  uint64_t seed = acl__random_param_u64(&j->seed);
  g.key[0] = (uint32_t)seed;
  g.key[1] = (uint32_t)(seed >> 32);
  g.idx = 4;
  int64_t i1 = 0, i2 = 0;
  double a = acl__random_param_value(&j->p1, j->type, &i1);
  double b = bitmask ? 0 : acl__random_param_value(&j->p2, j->type, &i2);
  int is_int = j->type == ACL_INT32 || j->type == ACL_UINT32 || j->type == ACL_INT64 || j->type == ACL_UINT64;
  int wide = j->type == ACL_INT64 || j->type == ACL_UINT64;
  switch (j->func) {
  case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
    uint8_t *out = j->result;
    memset(out, 0, (size_t)need);
    for (uint64_t i = 0; i < n; i++)
      if ((double)acl__u01(&g) >= a)
        out[i / 8] |= (uint8_t)(1u << (i % 8));
    break;
  }
  case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
    if (is_int) {
      uint64_t range = (uint64_t)i2 - (uint64_t)i1;
      if (j->type == ACL_UINT64 || j->type == ACL_UINT32 ? (uint64_t)i2 <= (uint64_t)i1 : i2 <= i1) {
        snprintf(t->what, sizeof(t->what), "random numbers: uniform with max <= min");
        return ACL_ERROR_RT_PARAM_INVALID;
      }
      for (uint64_t i = 0; i < n; i++) {
        uint64_t r = acl__philox_next(&g);
        if (wide)
          r = (r << 32) | acl__philox_next(&g);
        acl__random_store(j->result, i, j->type, 0, (uint64_t)i1 + r % range);
      }
    } else {
      for (uint64_t i = 0; i < n; i++)
        acl__random_store(j->result, i, j->type, a + (double)acl__u01(&g) * (b - a), 0);
    }
    break;
  default: { /* normal, truncated normal */
    int truncated = j->func == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
    for (uint64_t i = 0; i < n;) {
      double r = sqrt(-2.0 * log(acl__u01_open(&g))), th = 6.283185307179586 * acl__u01_open(&g);
      double z[2] = {r * cos(th), r * sin(th)};
      for (int k = 0; k < 2 && i < n; k++) {
        if (truncated && fabs(z[k]) > 2.0)
          continue; /* drawn again */
        acl__random_store(j->result, i++, j->type, a + b * z[k], 0);
      }
    }
    break;
  }
  }
  memcpy(j->counter, g.ctr, 16); /* the next task goes on from here */
  return 0;
}

int acl__random_submit(acl__stream *s, const acl__random_job *job, size_t result_cap) {
  acl__task *t = acl__task_new(sizeof(acl__random_task), acl__random_run, "random numbers");
  if (t == NULL)
    return ACL_ERROR_BAD_ALLOC;
  acl__random_task *rt = acl__task_payload(t);
  rt->job = *job;
  rt->result_cap = result_cap;
  return acl__stream_submit(s, t);
}
