/*
 * kernels.c - the engine's own kernels, for patterns oneDNN has no fast
 * path for.  Each is a plain loop the compiler vectorises (this file gets
 * -O3's cost model, see CMakeLists.txt), run on oneDNN's OpenMP team
 * through acl__engine_parallel, and described to the plan by a params
 * struct the step owns (engine_internal.h).
 */
#include "model/engine/engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- concatenation + batch normalization (+ ReLU) ---------------------------
 *
 * DenseNet concatenates every earlier feature map of a block before each
 * layer, and the concatenation is read only by the layer's batch norm and
 * ReLU.  oneDNN can neither run those on a channel slice of a tensor at
 * speed (its batch norm on a sub-memory is the reference kernel) nor fuse
 * them into the concatenation, so the plan wrote the concatenation (read +
 * write) and normalised it (read + write again).  Here one pass reads each
 * part and writes the normalised output: half the memory traffic of the
 * two steps, which were 40 % of DenseNet-121's time.
 *
 * A unit of work is one image's group of channels: `group * spatial`
 * contiguous floats in the part and in the output alike. */

eng_concat_norm *acl__eng_concat_norm_new(int parts, int64_t channels) {
  size_t bytes = sizeof(eng_concat_norm) + (size_t)parts * sizeof(int64_t) + 2 * (size_t)channels * sizeof(float);
  eng_concat_norm *k = calloc(1, bytes);
  if (k == NULL)
    return NULL;
  k->parts = parts;
  k->channels = channels;
  k->part_channels = (int64_t *)(k + 1);
  k->scale = (float *)(k->part_channels + parts);
  k->shift = k->scale + channels;
  return k;
}

typedef struct cn_ctx {
  const eng_concat_norm *k;
  void *const *ptr;
} cn_ctx;

/* n floats of y = x * s + t (ReLU'd when relu), s and t cycling over g
 * channels: g is a constant at each call, so each is its own vector loop. */
static inline void affine(float *restrict y, const float *restrict x, const float *restrict s,
                          const float *restrict t, int64_t n, int g, int relu) {
  for (int64_t i = 0; i < n; i += g)
    for (int c = 0; c < g; c++) {
      float v = x[i + c] * s[c] + t[c];
      y[i + c] = relu && v < 0.f ? 0.f : v;
    }
}

static void concat_norm_units(void *arg, size_t begin, size_t end) {
  const cn_ctx *cx = arg;
  const eng_concat_norm *k = cx->k;
  int64_t groups = k->channels / k->group, run = k->group * k->spatial;
  float *y = cx->ptr[k->parts];
  int64_t c0 = 0; /* the first channel of `part`, the part holding unit u's channels */
  int part = 0;
  for (size_t u = begin; u < end; u++) {
    int64_t n = (int64_t)u / groups, c = ((int64_t)u % groups) * k->group;
    if (c == 0)
      part = 0, c0 = 0;
    while (c >= c0 + k->part_channels[part])
      c0 += k->part_channels[part++];
    const float *x = (const float *)cx->ptr[part] + (n * k->part_channels[part] + (c - c0)) * k->spatial;
    float *out = y + (n * k->channels + c) * k->spatial;
    const float *s = k->scale + c, *t = k->shift + c;
    if (k->group == 16)
      affine(out, x, s, t, run, 16, k->relu);
    else if (k->group == 8)
      affine(out, x, s, t, run, 8, k->relu);
    else
      for (int64_t i = 0; i < run; i++) {
        float v = x[i] * s[0] + t[0];
        out[i] = k->relu && v < 0.f ? 0.f : v;
      }
  }
}

/* Channels-last: a unit is one pixel of one image, each part's channels a
 * contiguous run in it. */
static void concat_norm_pixels(void *arg, size_t begin, size_t end) {
  const cn_ctx *cx = arg;
  const eng_concat_norm *k = cx->k;
  float *y = cx->ptr[k->parts];
  for (size_t u = begin; u < end; u++) {
    float *out = y + (int64_t)u * k->channels;
    const float *s = k->scale, *t = k->shift;
    for (int part = 0; part < k->parts; part++) {
      int64_t cn = k->part_channels[part];
      const float *restrict x = (const float *)cx->ptr[part] + (int64_t)u * cn;
      for (int64_t c = 0; c < cn; c++) {
        float v = x[c] * s[c] + t[c];
        out[c] = k->relu && v < 0.f ? 0.f : v;
      }
      out += cn, s += cn, t += cn;
    }
  }
}

void acl__eng_concat_norm_run(const void *params, void *const *ptr) {
  const eng_concat_norm *k = params;
  cn_ctx cx = {k, ptr};
  if (k->group == ENG_CHANNELS_LAST)
    acl__engine_parallel((size_t)(k->batch * k->spatial), concat_norm_pixels, &cx);
  else
    acl__engine_parallel((size_t)(k->batch * (k->channels / k->group)), concat_norm_units, &cx);
}

/* ---- channels-last <-> 8/16-channel blocked ---------------------------------
 *
 * oneDNN's kernels disagree on layouts: its 1x1 convolutions are fastest
 * channels-last, its Winograd and grouped ones want 16-channel blocks, so a
 * plan moves tensors between the two (27 times in ResNeXt-50).  oneDNN's
 * reorder for that moved ~15 GB/s here; the move is a copy of group-sized
 * runs (a cache line for 16 floats): each pixel's channels read in one pass
 * and written to their C / group planes, or gathered back.  A unit of work
 * is a run of pixels of one image. */

#define RELAYOUT_PIXELS 64

typedef struct rl_ctx {
  const eng_relayout *k;
  const float *src;
  float *dst;
} rl_ctx;

/* n pixels, g channels each, between the channels-last rows (stride c) and
 * the planes of each block (stride plane): g is a constant at each call. */
static inline void relayout_pixels(const rl_ctx *cx, int64_t img, int64_t p0, int64_t n, int g) {
  const eng_relayout *k = cx->k;
  int64_t c = k->channels, blocks = c / g, plane = k->spatial * g;
  const float *src = cx->src + img * c * k->spatial;
  float *dst = cx->dst + img * c * k->spatial;
  for (int64_t p = p0; p < p0 + n; p++)
    for (int64_t b = 0; b < blocks; b++) {
      if (k->to_blocked)
        memcpy(dst + b * plane + p * g, src + p * c + b * g, (size_t)g * sizeof(float));
      else
        memcpy(dst + p * c + b * g, src + b * plane + p * g, (size_t)g * sizeof(float));
    }
}

static void relayout_units(void *arg, size_t begin, size_t end) {
  const rl_ctx *cx = arg;
  const eng_relayout *k = cx->k;
  int64_t per = (k->spatial + RELAYOUT_PIXELS - 1) / RELAYOUT_PIXELS;
  for (size_t u = begin; u < end; u++) {
    int64_t img = (int64_t)u / per, p0 = ((int64_t)u % per) * RELAYOUT_PIXELS;
    int64_t n = k->spatial - p0 < RELAYOUT_PIXELS ? k->spatial - p0 : RELAYOUT_PIXELS;
    if (k->group == 16)
      relayout_pixels(cx, img, p0, n, 16);
    else if (k->group == 8)
      relayout_pixels(cx, img, p0, n, 8);
    else
      relayout_pixels(cx, img, p0, n, 4);
  }
}

void acl__eng_relayout_run(const void *params, void *const *ptr) {
  const eng_relayout *k = params;
  rl_ctx cx = {k, ptr[0], ptr[1]};
  int64_t per = (k->spatial + RELAYOUT_PIXELS - 1) / RELAYOUT_PIXELS;
  acl__engine_parallel((size_t)(k->batch * per), relayout_units, &cx);
}
