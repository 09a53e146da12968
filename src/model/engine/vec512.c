/*
 * vec512.c - the engine's AVX-512 kernels, where oneDNN 2.6 is slow or has
 * nothing to fuse: Swish (SiLU), y = x * sigmoid(x), alone or with the
 * channel means of a squeeze-and-excitation block's pool; GELU; and the SE
 * block's per-channel scale.  Without AVX-512 the plan keeps oneDNN's
 * primitives (acl__eng_vec512).
 *
 * The scale: oneDNN's binary multiply took 2-3x ONNX Runtime's time on
 * EfficientNet's large channels-last maps (96 against 37 us at 112 x 112 x
 * 32); here it is a loop of loads, multiplies and stores.
 *
 * GELU (erf form): oneDNN's gelu_erf post-op added 0.42 ns per element to
 * a product (ConvNeXt's first MLP: 0.85 against 1.33 ms at 56 x 56 x 384);
 * this one, a step of its own, costs half that.
 *
 * Swish: oneDNN computes it with a division per element and ran at 1.6
 * elements per ns on one core here, ONNX Runtime's at about twice that;
 * EfficientNet-B0 has one after each of its 16 depthwise convolutions (10 %
 * of its time).  e^-x = 2^n * e^r: n = -x / ln 2 rounded, r = -x - n ln 2
 * (ln 2 in two parts, so that r is exact) in [-ln2/2, ln2/2], e^r by its
 * Taylor polynomial to r^6 (relative error under 2e-7), the 2^n applied by
 * vscalefps; 1 / (1 + e^-x) by the 14-bit reciprocal and one Newton step.
 * -x is clamped to [-87, 87] first, so that 1 + e^-x and its reciprocal
 * stay normal floats: below -87 the result is x * 0 (as in float
 * arithmetic, where e^x underflows), above 87 it is x to float precision.
 */
#include "model/engine/engine_internal.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define VEC512 1
#define AVX512 __attribute__((target("avx512f")))

/* e^t for t in [-87, 87] */
AVX512 static inline __m512 exp16(__m512 t) {
  __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(t, _mm512_set1_ps(1.44269504f)),
                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693145752f), t);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(1.42860677e-6f), r);
  __m512 p = _mm512_set1_ps(1.f / 720);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.f));
  return _mm512_scalef_ps(p, n);
}

/* 1 / d for normal d: the 14-bit estimate and a Newton step, a (2 - d a) */
AVX512 static inline __m512 rcp16(__m512 d) {
  __m512 a = _mm512_rcp14_ps(d);
  return _mm512_mul_ps(a, _mm512_fnmadd_ps(d, a, _mm512_set1_ps(2.f)));
}

AVX512 static inline __m512 swish16(__m512 x) {
  __m512 t = _mm512_sub_ps(_mm512_setzero_ps(), x);
  __mmask16 tiny = _mm512_cmp_ps_mask(t, _mm512_set1_ps(87.f), _CMP_GT_OQ); /* x < -87: x e^x is 0 in float */
  t = _mm512_min_ps(_mm512_max_ps(t, _mm512_set1_ps(-87.f)), _mm512_set1_ps(87.f));
  __m512 a = rcp16(_mm512_add_ps(_mm512_set1_ps(1.f), exp16(t)));
  return _mm512_mask_mul_ps(_mm512_mul_ps(x, a), tiny, x, _mm512_setzero_ps()); /* -0, or NaN for -inf */
}

/* GELU, x * Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2, with erfc(z) for z >= 0
 * as Abramowitz and Stegun's 7.1.26, (a1 t + ... + a5 t^5) e^(-z^2), t = 1
 * / (1 + 0.3275911 z) (absolute error under 1.5e-7); for x >= 0, Phi is 1
 * minus the same.  Errors against erf in double: 4e-7 absolute, 2e-4
 * relative where |GELU| > 1e-3 (x near -3). */
AVX512 static inline __m512 gelu16(__m512 x) {
  __m512 z = _mm512_min_ps(_mm512_abs_ps(_mm512_mul_ps(x, _mm512_set1_ps(0.70710678f))), _mm512_set1_ps(9.f));
  __m512 t = rcp16(_mm512_fmadd_ps(z, _mm512_set1_ps(0.3275911f), _mm512_set1_ps(1.f)));
  __m512 p = _mm512_set1_ps(1.061405429f);
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-1.453152027f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(1.421413741f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(-0.284496736f));
  p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(0.254829592f));
  __m512 e = exp16(_mm512_mul_ps(_mm512_sub_ps(_mm512_setzero_ps(), z), z));
  __m512 half_erfc = _mm512_mul_ps(_mm512_mul_ps(_mm512_mul_ps(p, t), e), _mm512_set1_ps(0.5f));
  __mmask16 neg = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  __m512 phi = _mm512_mask_blend_ps(neg, _mm512_sub_ps(_mm512_set1_ps(1.f), half_erfc), half_erfc);
  return _mm512_mul_ps(x, phi);
}

/* the mask of the first n lanes, n < 16 (a partial vector at a run's end) */
static inline __mmask16 first_lanes(int64_t n) {
  return (__mmask16)((1u << n) - 1);
}

/* y = f(x) over n floats: inlined with f known, so each activation gets a
 * loop of its own with f inside it */
AVX512 static inline __attribute__((always_inline)) void span16(float *y, const float *x, size_t n,
                                                                __m512 (*f)(__m512)) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i)));
  if (i < n) {
    __mmask16 m = first_lanes((int64_t)(n - i));
    _mm512_mask_storeu_ps(y + i, m, f(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

AVX512 static void swish_span(float *y, const float *x, size_t n) {
  span16(y, x, n, swish16);
}

AVX512 static void gelu_span(float *y, const float *x, size_t n) {
  span16(y, x, n, gelu16);
}
#endif

int acl__eng_vec512(void) {
#ifdef VEC512
  return __builtin_cpu_supports("avx512f");
#else
  return 0;
#endif
}

typedef struct sw_ctx {
  const eng_swish *k;
  const float *x;
  float *y, *mean, *partial;
} sw_ctx;

#ifdef VEC512
#define FLAT_UNIT 4096 /* floats per unit of work of an element-wise kernel: 16 KiB */

/* an element-wise kernel over n floats, split in units of FLAT_UNIT */
typedef struct flat_ctx {
  void (*span)(float *y, const float *x, size_t n);
  const float *x;
  float *y;
  size_t n;
} flat_ctx;

static void flat_units(void *arg, size_t begin, size_t end) {
  const flat_ctx *cx = arg;
  size_t first = begin * FLAT_UNIT, last = end * FLAT_UNIT < cx->n ? end * FLAT_UNIT : cx->n;
  cx->span(cx->y + first, cx->x + first, last - first);
}

static void flat_run(void (*span)(float *, const float *, size_t), const float *x, float *y, int64_t n) {
  flat_ctx cx = {span, x, y, (size_t)n};
  acl__engine_parallel((cx.n + FLAT_UNIT - 1) / FLAT_UNIT, flat_units, &cx);
}

/* Channels-last: a unit is a run of pixels of one image (the image's
 * `parts`-th part), all channels of each pixel in turn; the run's channel
 * sums go to its row of the partial sums, which swish_run adds up. */
AVX512 static void swish_mean_pixels(void *arg, size_t begin, size_t end) {
  const sw_ctx *cx = arg;
  const eng_swish *k = cx->k;
  int64_t c = k->channels, full = c / 16 * 16;
  __mmask16 tail = first_lanes(c - full);
  for (size_t u = begin; u < end; u++) {
    int64_t n = (int64_t)u / k->parts, part = (int64_t)u % k->parts;
    int64_t p0 = k->spatial * part / k->parts, p1 = k->spatial * (part + 1) / k->parts;
    float *sum = cx->partial + (int64_t)u * c;
    memset(sum, 0, (size_t)c * sizeof(float));
    const float *x = cx->x + (n * k->spatial + p0) * c;
    float *y = cx->y + (n * k->spatial + p0) * c;
    for (int64_t p = p0; p < p1; p++, x += c, y += c) {
      int64_t i = 0;
      for (; i < full; i += 16) {
        __m512 v = swish16(_mm512_loadu_ps(x + i));
        _mm512_storeu_ps(y + i, v);
        _mm512_storeu_ps(sum + i, _mm512_add_ps(_mm512_loadu_ps(sum + i), v));
      }
      if (tail) {
        __m512 v = swish16(_mm512_maskz_loadu_ps(tail, x + i));
        _mm512_mask_storeu_ps(y + i, tail, v);
        _mm512_mask_storeu_ps(sum + i, tail, _mm512_add_ps(_mm512_maskz_loadu_ps(tail, sum + i), v));
      }
    }
  }
}

/* 16-channel blocked: a unit is one block of one image, `spatial * 16`
 * contiguous floats, lane c of each vector channel c of the block. */
AVX512 static void swish_mean_blocks(void *arg, size_t begin, size_t end) {
  const sw_ctx *cx = arg;
  const eng_swish *k = cx->k;
  int64_t blocks = k->channels / 16;
  for (size_t u = begin; u < end; u++) {
    const float *x = cx->x + (int64_t)u * k->spatial * 16;
    float *y = cx->y + (int64_t)u * k->spatial * 16;
    __m512 acc = _mm512_setzero_ps();
    for (int64_t p = 0; p < k->spatial; p++) {
      __m512 v = swish16(_mm512_loadu_ps(x + p * 16));
      _mm512_storeu_ps(y + p * 16, v);
      acc = _mm512_add_ps(acc, v);
    }
    float *mean = cx->mean + ((int64_t)u / blocks) * k->channels + ((int64_t)u % blocks) * 16;
    _mm512_storeu_ps(mean, _mm512_mul_ps(acc, _mm512_set1_ps(1.f / (float)k->spatial)));
  }
}
#endif

void acl__eng_swish_run(const void *params, void *const *ptr) {
  const eng_swish *k = params;
  sw_ctx cx = {k, ptr[0], ptr[1], k->channels > 0 ? ptr[2] : NULL, NULL};
#ifdef VEC512
  if (k->channels > 0 && k->group == ENG_CHANNELS_LAST) {
    cx.partial = ptr[3];
    acl__engine_parallel((size_t)(k->batch * k->parts), swish_mean_pixels, &cx);
    for (int64_t n = 0; n < k->batch; n++)
      for (int64_t c = 0; c < k->channels; c++) {
        float s = 0;
        for (int64_t part = 0; part < k->parts; part++)
          s += cx.partial[(n * k->parts + part) * k->channels + c];
        cx.mean[n * k->channels + c] = s / (float)k->spatial;
      }
    return;
  }
  if (k->channels > 0) {
    acl__engine_parallel((size_t)(k->batch * (k->channels / 16)), swish_mean_blocks, &cx);
    return;
  }
  flat_run(swish_span, cx.x, cx.y, k->n);
#else
  (void)cx; /* not planned: acl__eng_vec512() said no */
#endif
}

void acl__eng_gelu_run(const void *params, void *const *ptr) {
#ifdef VEC512
  flat_run(gelu_span, ptr[0], ptr[1], ((const eng_gelu *)params)->n);
#else
  (void)params, (void)ptr; /* not planned: acl__eng_vec512() said no */
#endif
}

/* ---- per-channel scale ---------------------------------------------------------- */

/* pixels per unit of work, channels-last: about 4096 floats */
static int64_t scale_pixels_per_unit(const eng_scale *k) {
  return k->channels >= 4096 ? 1 : 4096 / k->channels;
}

typedef struct sc_ctx {
  const eng_scale *k;
  const float *x, *s;
  float *y;
} sc_ctx;

#ifdef VEC512
/* Channels-last: a unit is a run of pixels of one image. */
AVX512 static void scale_pixels(void *arg, size_t begin, size_t end) {
  const sc_ctx *cx = arg;
  const eng_scale *k = cx->k;
  int64_t c = k->channels, full = c / 16 * 16, run = scale_pixels_per_unit(k), per = (k->spatial + run - 1) / run;
  __mmask16 tail = first_lanes(c - full);
  for (size_t u = begin; u < end; u++) {
    int64_t n = (int64_t)u / per, p0 = ((int64_t)u % per) * run;
    int64_t p1 = p0 + run < k->spatial ? p0 + run : k->spatial;
    const float *x = cx->x + (n * k->spatial + p0) * c, *s = cx->s + n * k->s_batch;
    float *y = cx->y + (n * k->spatial + p0) * c;
    for (int64_t p = p0; p < p1; p++, x += c, y += c) {
      int64_t i = 0;
      for (; i < full; i += 16)
        _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(s + i)));
      if (tail)
        _mm512_mask_storeu_ps(y + i, tail,
                              _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, x + i), _mm512_maskz_loadu_ps(tail, s + i)));
    }
  }
}

/* 16-channel blocked: a unit is one block of one image, its factors one register. */
AVX512 static void scale_blocks(void *arg, size_t begin, size_t end) {
  const sc_ctx *cx = arg;
  const eng_scale *k = cx->k;
  int64_t blocks = k->channels / 16;
  for (size_t u = begin; u < end; u++) {
    const float *x = cx->x + (int64_t)u * k->spatial * 16;
    float *y = cx->y + (int64_t)u * k->spatial * 16;
    __m512 f = _mm512_loadu_ps(cx->s + ((int64_t)u / blocks) * k->s_batch + ((int64_t)u % blocks) * 16);
    for (int64_t p = 0; p < k->spatial; p++)
      _mm512_storeu_ps(y + p * 16, _mm512_mul_ps(_mm512_loadu_ps(x + p * 16), f));
  }
}
#endif

void acl__eng_scale_run(const void *params, void *const *ptr) {
  const eng_scale *k = params;
  sc_ctx cx = {k, ptr[0], ptr[1], ptr[2]};
#ifdef VEC512
  int64_t run = scale_pixels_per_unit(k);
  if (k->group == ENG_CHANNELS_LAST)
    acl__engine_parallel((size_t)(k->batch * ((k->spatial + run - 1) / run)), scale_pixels, &cx);
  else
    acl__engine_parallel((size_t)(k->batch * (k->channels / 16)), scale_blocks, &cx);
#else
  (void)cx; /* not planned: acl__eng_vec512() said no */
#endif
}
