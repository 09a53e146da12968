/*
 * pool.c - the 2-D poolings of reference aclnn.md section 8.7: MaxPool
 * (ONNX style), MaxPool2dWithIndices, AvgPool2d, AdaptiveAvgPool2d,
 * MaxPool2dWithMask, AdaptiveMaxPool2d, on (N,)C,H,W tensors.
 *
 * Each H x W plane is gathered into a float buffer (double for double
 * inputs of AdaptiveMaxPool2d) from any strided view, its windows reduced,
 * and the output plane (and the indices, torch's flat h * W + w within the
 * plane) scattered into out; planes are shared out over the device's
 * executors.  Padding counts as -infinity for the maxima; NaN propagates.
 *
 * MaxPool2dWithMask writes the Ascend kernel's bit mask instead of indices
 * (MaxPoolWithArgmaxV1 as torch_npu uses it; the reference does not give the
 * encoding, docs/aclnn.md says what openacl chose): an int8 tensor
 * [(N,) C, kH*kW, (ceil(Ho*Wo/16) + 1) * 32] whose row k (a window position,
 * kh*kW + kw) has bit p (byte p/8, bit p%8) set when window position k
 * holds the first maximum of output position p = h*Wo + w; every other bit
 * is 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))

enum { PK_MAX, PK_AVG, PK_ADAPTIVE_AVG, PK_ADAPTIVE_MAX };

typedef struct pool_job {
  acl__nn_job base; /* self, out[, indices] */
  int kind;
  int ti_x, ti_y, ti_i;    /* trefs (ti_i -1: no indices) */
  int mask;                /* ti_i is MaxPool2dWithMask's bit mask, vi [planes..., kh*kw, mask_row] */
  int64_t mask_row;        /* bytes of a mask row */
  acl__nn_tref vx, vy, vi; /* views [planes..., H, W] */
  int64_t planes, h, w, oh, ow;
  int64_t kh, kw, sh, sw, pt, pl, dh, dw; /* window, stride, leading padding, dilation */
  int count_pad;                          /* AvgPool2d: padding counts in the divisor */
  int64_t divisor;                        /* AvgPool2d: divisorOverride (0: off) */
} pool_job;

typedef struct pool_work {
  const pool_job *j;
  char *const *ptr;
  int failed;
} pool_work;

/* MaxPool2dWithMask: plane p's mask from pos[] (each output position's window position of its maximum, -1 for
 * none), built in bits (kh*kw rows of mask_row bytes) and written to the int8 tensor at base (any strides). */
static void pool_store_mask(const pool_job *j, char *base, int64_t p, const int64_t *pos, unsigned char *bits) {
  const acl__nn_tref *t = &j->vi;
  int64_t rows = j->kh * j->kw, ohw = j->oh * j->ow, off = 0, rem = p;
  memset(bits, 0, (size_t)(rows * j->mask_row));
  for (int64_t q = 0; q < ohw; q++)
    if (pos[q] >= 0)
      bits[pos[q] * j->mask_row + q / 8] |= (unsigned char)(1u << (q % 8));
  for (int d = t->rank - 3; d >= 0; d--) { /* the plane's first element (element size 1: bytes) */
    off += (rem % t->dims[d]) * t->st[d];
    rem /= t->dims[d];
  }
  int64_t sr = t->st[t->rank - 2], sc = t->st[t->rank - 1];
  for (int64_t r = 0; r < rows; r++) {
    char *row = base + off + r * sr;
    const unsigned char *src = bits + r * j->mask_row;
    if (sc == 1)
      memcpy(row, src, (size_t)j->mask_row);
    else
      for (int64_t c = 0; c < j->mask_row; c++)
        row[c * sc] = (char)src[c];
  }
}

static void pool_planes(int64_t begin, int64_t end, void *arg) {
  pool_work *w = arg;
  const pool_job *j = w->j;
  int64_t hw = j->h * j->w, ohw = j->oh * j->ow;
  double *in = malloc((size_t)(hw + ohw) * sizeof(double) + 1), *out = in + hw;
  int64_t *idx = malloc((size_t)ohw * sizeof(int64_t) + 1);
  unsigned char *bits = j->mask ? malloc((size_t)(j->kh * j->kw * j->mask_row)) : NULL;
  if (in == NULL || idx == NULL || (j->mask && bits == NULL)) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    free(in);
    free(idx);
    free(bits);
    return;
  }
  for (int64_t p = begin; p < end; p++) {
    acl__nn_gather_f64(&j->vx, w->ptr[j->ti_x], j->vx.rank - 2, p, in);
    for (int64_t y = 0; y < j->oh; y++)
      for (int64_t x = 0; x < j->ow; x++) {
        int64_t h0, h1, w0, w1, step_h = j->dh, step_w = j->dw;
        if (j->kind == PK_ADAPTIVE_AVG || j->kind == PK_ADAPTIVE_MAX) {
          h0 = y * j->h / j->oh;
          h1 = ((y + 1) * j->h + j->oh - 1) / j->oh;
          w0 = x * j->w / j->ow;
          w1 = ((x + 1) * j->w + j->ow - 1) / j->ow;
          step_h = step_w = 1;
        } else {
          h0 = y * j->sh - j->pt;
          w0 = x * j->sw - j->pl;
          h1 = h0 + (j->kh - 1) * j->dh + 1;
          w1 = w0 + (j->kw - 1) * j->dw + 1;
        }
        double acc = j->kind == PK_MAX || j->kind == PK_ADAPTIVE_MAX ? -INFINITY : 0;
        int64_t best = -1, n = 0, pos = -1; /* pos: the maximum's window position (kh * kW + kw) */
        for (int64_t hh = h0; hh < h1; hh += step_h) {
          if (hh < 0 || hh >= j->h)
            continue;
          for (int64_t ww = w0; ww < w1; ww += step_w) {
            if (ww < 0 || ww >= j->w)
              continue;
            double v = in[hh * j->w + ww];
            n++;
            if (j->kind == PK_AVG || j->kind == PK_ADAPTIVE_AVG) {
              acc += v;
            } else if (best < 0 || v > acc || (v != v && acc == acc)) {
              acc = v;
              best = hh * j->w + ww;
              pos = (hh - h0) / step_h * j->kw + (ww - w0) / step_w;
            }
          }
        }
        if (j->kind == PK_AVG) {
          int64_t div = j->divisor;
          if (div == 0 && j->count_pad) { /* the window clipped to the padded input, as torch counts it */
            int64_t he = h0 + j->kh < j->h + j->pt ? h0 + j->kh : j->h + j->pt;
            int64_t we = w0 + j->kw < j->w + j->pl ? w0 + j->kw : j->w + j->pl;
            div = (he - h0) * (we - w0);
          }
          acc = acc / (double)(div != 0 ? div : n);
        } else if (j->kind == PK_ADAPTIVE_AVG) {
          acc = n > 0 ? acc / (double)n : NAN;
        }
        out[y * j->ow + x] = acc;
        idx[y * j->ow + x] = j->mask ? pos : best < 0 ? 0 : best;
      }
    acl__nn_scatter_f64(&j->vy, w->ptr[j->ti_y], j->vy.rank - 2, p, out);
    if (j->mask)
      pool_store_mask(j, w->ptr[j->ti_i], p, idx, bits);
    else if (j->ti_i >= 0)
      acl__nn_scatter_i64(&j->vi, w->ptr[j->ti_i], j->vi.rank - 2, p, idx);
  }
  free(in);
  free(idx);
  free(bits);
}

static int pool_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const pool_job *j = (const pool_job *)base;
  pool_work w = {j, ptr, 0};
  int64_t cost = j->oh * j->ow * (j->kind >= PK_ADAPTIVE_AVG ? (j->h / j->oh + 1) * (j->w / j->ow + 1) : j->kh * j->kw);
  int rc = acl__nn_parallel(dev, j->planes, cost + j->h * j->w, pool_planes, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

/* ---- phase 1 ---------------------------------------------------------------------------------- */

/* An attribute array of 1 or 2 values (or 0 when allow0: then def), each >= min: *a, *b (h, w). */
static int pool_pair(const char *api, const char *name, const aclIntArray *arr, int allow0, int64_t def, int64_t min,
                     int64_t *a, int64_t *b) {
  int rc = 0;
  uint64_t n = 0;
  const int64_t *v = acl__nn_int_array_arg(api, name, arr, &n, &rc);
  if (v == NULL)
    return rc;
  if (n > 2 || (n == 0 && !allow0))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has %llu values; it takes %s ([h, w], or one for both). Remedy: give that many", name,
                     (unsigned long long)n, allow0 ? "0 to 2" : "1 or 2");
  *a = n == 0 ? def : v[0];
  *b = n == 0 ? def : n == 1 ? v[0] : v[1];
  if (n > 0 && (*a < min || *b < min))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s holds %lld; each value must be at least %lld. Remedy: give such values", name,
                     (long long)(*a < min ? *a : *b), (long long)min);
  return 0;
}

static int64_t pool_out_size(int64_t in, int64_t k, int64_t s, int64_t pa, int64_t pb, int64_t d, int ceil_mode) {
  int64_t span = d * (k - 1) + 1, num = in + pa + pb - span;
  if (num < 0)
    return 0;
  int64_t o = (ceil_mode ? (num + s - 1) / s : num / s) + 1;
  if (ceil_mode && (o - 1) * s >= in + pa) /* the last window must start inside the input or its leading pad */
    o--;
  return o;
}

typedef struct pool_call {
  const char *api, *api2;
  int kind;
  const aclTensor *self, *out, *indices;
  const char *out_name, *idx_name;
  uint64_t types, idx_types;
  int64_t kh, kw, sh, sw, pt, pb, pl, pr, dh, dw, oh, ow;
  int ceil_mode, count_pad;
  int64_t divisor;
  int mask; /* indices is MaxPool2dWithMask's bit mask */
} pool_call;

static aclnnStatus pool_plan(pool_call *c, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = c->api, *api2 = c->api2;
  const aclTensor *self = c->self, *out = c->out;
  int rc = 0;
  char s1[200], s2[200];
  if ((rc = acl__nn_check_dims(api, api2, "self", self)) != 0 ||
      (rc = acl__nn_check_dims(api, api2, c->out_name, out)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, c->types)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", c->out_name, out->dtype, c->types)) != 0)
    return rc;
  if (c->indices != NULL &&
      ((rc = acl__nn_check_dims(api, api2, c->idx_name, c->indices)) != 0 ||
       (rc = acl__nn_check_type(api, api2, "output", c->idx_name, c->indices->dtype, c->idx_types)) != 0))
    return rc;
  if (out->dtype != self->dtype)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s but self is %s: %s writes self's type. Remedy: make them equal", c->out_name,
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(self->dtype), api2);
  int rank = (int)self->ndim;
  if (rank != 3 && rank != 4)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "self has shape %s; %s takes (N,) C, H, W (3 or 4 dims). Remedy: give "
                     "self that shape",
                     acl__nn_shape_text(self->dims, self->ndim, s1, sizeof s1), api2);
  int64_t h = self->dims[rank - 2], w = self->dims[rank - 1];
  if (c->kind == PK_MAX || c->kind == PK_AVG) {
    if (c->pt > c->kh / 2 || c->pl > c->kw / 2 || c->pb > c->kh / 2 || c->pr > c->kw / 2)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "padding (%lld, %lld) exceeds half the kernel (%lld, %lld). Remedy: give padding at most "
                       "kernel / 2",
                       (long long)(c->pt > c->pb ? c->pt : c->pb), (long long)(c->pl > c->pr ? c->pl : c->pr),
                       (long long)c->kh, (long long)c->kw);
    c->oh = pool_out_size(h, c->kh, c->sh, c->pt, c->pb, c->dh, c->ceil_mode);
    c->ow = pool_out_size(w, c->kw, c->sw, c->pl, c->pr, c->dw, c->ceil_mode);
    if ((c->oh <= 0 || c->ow <= 0) && h > 0 && w > 0)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "self's H x W %lld x %lld is smaller than the window: no output. "
                       "Remedy: give a larger input or a smaller kernel",
                       (long long)h, (long long)w);
  }
  int64_t want[2][4];
  for (int d = 0; d < rank - 2; d++)
    want[0][d] = want[1][d] = self->dims[d];
  want[0][rank - 2] = want[1][rank - 2] = c->oh;
  want[0][rank - 1] = want[1][rank - 1] = c->ow;
  int64_t mask_row = ((c->oh * c->ow + 15) / 16 + 1) * 32;
  if (c->mask) { /* [(N,) C, kH*kW, (ceil(Ho*Wo/16) + 1) * 32] */
    want[1][rank - 2] = c->kh * c->kw;
    want[1][rank - 1] = mask_row;
  }
  const aclTensor *outs[2] = {out, c->indices};
  const char *names[2] = {c->out_name, c->idx_name};
  for (int i = 0; i < 2; i++) {
    const aclTensor *t = outs[i];
    if (t == NULL)
      continue;
    int same = (int)t->ndim == rank;
    for (int d = 0; same && d < rank; d++)
      same = t->dims[d] == want[i][d];
    if (!same && i == 1 && c->mask)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s; %s writes its bit mask as %s here ((N,) C, kH*kW = %lld, (ceil(Ho*Wo/16) + "
                       "1) * 32 = %lld bytes for Ho x Wo = %lld x %lld). Remedy: create %s with that shape",
                       names[i], acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1), api2,
                       acl__nn_shape_text(want[i], (uint64_t)rank, s2, sizeof s2), (long long)(c->kh * c->kw),
                       (long long)mask_row, (long long)c->oh, (long long)c->ow, names[i]);
    if (!same)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s; %s writes %s here. Remedy: create %s with that shape", names[i],
                       acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1), api2,
                       acl__nn_shape_text(want[i], (uint64_t)rank, s2, sizeof s2), names[i]);
  }
  pool_job *j = acl__nn_job_new(sizeof *j, pool_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->kind = c->kind;
  j->ti_x = acl__nn_job_tensor(ex, self, "self", 0);
  j->ti_y = acl__nn_job_tensor(ex, out, c->out_name, 1);
  j->ti_i = c->indices != NULL ? acl__nn_job_tensor(ex, c->indices, c->idx_name, 1) : -1;
  j->mask = c->mask;
  j->mask_row = mask_row;
  j->vx = j->base.t[j->ti_x];
  j->vy = j->base.t[j->ti_y];
  if (j->ti_i >= 0)
    j->vi = j->base.t[j->ti_i];
  j->planes = acl__nn_tref_numel(&j->vx, 0, rank - 2);
  j->h = h;
  j->w = w;
  j->oh = c->oh;
  j->ow = c->ow;
  j->kh = c->kh;
  j->kw = c->kw;
  j->sh = c->sh;
  j->sw = c->sw;
  j->pt = c->pt;
  j->pl = c->pl;
  j->dh = c->dh > 0 ? c->dh : 1;
  j->dw = c->dw > 0 ? c->dw : 1;
  j->count_pad = c->count_pad;
  j->divisor = c->divisor;
  ex->empty = acl__nn_numel(out) == 0;
  if (!ex->empty && (h == 0 || w == 0)) {
    aclDestroyAclOpExecutor(ex);
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "self's H x W is %lld x %lld: there is nothing to pool. Remedy: give a "
                     "non-empty plane",
                     (long long)h, (long long)w);
  }
  return acl__nn_job_done(ex, workspaceSize, executor);
}

/* NULL checks in parameter order: self first, outputs last. */
static int pool_null(const char *api, const aclTensor *self, const aclTensor *out, const char *out_name,
                     const aclTensor *idx, const char *idx_name, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL || acl__nn_tensor_arg(api, out_name, out, &rc) == NULL ||
      (idx_name != NULL && acl__nn_tensor_arg(api, idx_name, idx, &rc) == NULL))
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  return 0;
}

aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelShape,
                                         const aclIntArray *strides, const int64_t autoPad, const aclIntArray *pads,
                                         const aclIntArray *dilations, const int64_t ceilMode, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__;
  pool_call c = {.api = api,
                 .api2 = "aclnnMaxPool",
                 .kind = PK_MAX,
                 .self = self,
                 .out = out,
                 .out_name = "out",
                 .types = FLT3,
                 .ceil_mode = ceilMode != 0};
  int rc = pool_null(api, self, out, "out", NULL, NULL, workspaceSize, executor);
  if (rc == 0)
    rc = pool_pair(api, "kernelShape", kernelShape, 0, 1, 1, &c.kh, &c.kw);
  if (rc == 0)
    rc = pool_pair(api, "strides", strides, 1, 1, 1, &c.sh, &c.sw);
  if (rc == 0)
    rc = pool_pair(api, "dilations", dilations, 1, 1, 1, &c.dh, &c.dw);
  if (rc != 0)
    return rc;
  if (autoPad != 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "autoPad is %lld; aclnnMaxPool takes 0 (NOTSET) only. Remedy: give the "
                     "padding in pads",
                     (long long)autoPad);
  if (c.dh != 1 || c.dw != 1)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "dilations are (%lld, %lld); aclnnMaxPool takes 1 only", (long long)c.dh,
                     (long long)c.dw);
  uint64_t np = 0;
  const int64_t *pv = acl__nn_int_array_arg(api, "pads", pads, &np, &rc);
  if (pv == NULL)
    return rc;
  if (np != 0 && np != 1 && np != 2 && np != 4)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "pads has %llu values; aclnnMaxPool takes 0, 1, 2 or 4 ({top, left, "
                     "bottom, right})",
                     (unsigned long long)np);
  c.pt = np == 0 ? 0 : pv[0];
  c.pl = np == 0 ? 0 : np == 1 ? pv[0] : pv[1];
  c.pb = np == 4 ? pv[2] : c.pt;
  c.pr = np == 4 ? pv[3] : c.pl;
  if (c.pt < 0 || c.pl < 0 || c.pb < 0 || c.pr < 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "pads holds a negative value. Remedy: give pads >= 0");
  return pool_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaxPool)

/* MaxPool2dWithIndices, and MaxPool2dWithMask (mask: indices is the Ascend kernel's int8 bit mask, the
 * file's comment): the same arguments and checks. */
static aclnnStatus pool_max2d(const char *api, const char *api2, int mask, const aclTensor *self,
                              const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
                              const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices,
                              uint64_t *workspaceSize, aclOpExecutor **executor) {
  pool_call c = {.api = api,
                 .api2 = api2,
                 .kind = PK_MAX,
                 .self = self,
                 .out = out,
                 .indices = indices,
                 .out_name = "out",
                 .idx_name = "indices",
                 .types = FLT3,
                 .idx_types = mask ? ACL__NN_BIT(ACL_INT8) : ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64),
                 .ceil_mode = ceilMode,
                 .mask = mask};
  int rc = pool_null(api, self, out, "out", indices, "indices", workspaceSize, executor);
  if (rc == 0)
    rc = pool_pair(api, "kernelSize", kernelSize, 0, 1, 1, &c.kh, &c.kw);
  if (rc == 0)
    rc = pool_pair(api, "stride", stride, 1, 0, 1, &c.sh, &c.sw);
  if (rc == 0)
    rc = pool_pair(api, "padding", padding, 0, 0, 0, &c.pt, &c.pl);
  if (rc == 0)
    rc = pool_pair(api, "dilation", dilation, 0, 1, 1, &c.dh, &c.dw);
  if (rc != 0)
    return rc;
  if (c.sh == 0) { /* stride empty: the kernel */
    c.sh = c.kh;
    c.sw = c.kw;
  }
  c.pb = c.pt;
  c.pr = c.pl;
  return pool_plan(&c, workspaceSize, executor);
}

aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                      const aclIntArray *stride, const aclIntArray *padding,
                                                      const aclIntArray *dilation, bool ceilMode, aclTensor *out,
                                                      aclTensor *indices, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor) {
  return pool_max2d(__func__, "aclnnMaxPool2dWithIndices", 0, self, kernelSize, stride, padding, dilation, ceilMode,
                    out, indices, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaxPool2dWithIndices)

aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                   const aclIntArray *stride, const aclIntArray *padding,
                                                   const aclIntArray *dilation, bool ceilMode, aclTensor *out,
                                                   aclTensor *indices, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return pool_max2d(__func__, "aclnnMaxPool2dWithMask", 1, self, kernelSize, stride, padding, dilation, ceilMode, out,
                    indices, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaxPool2dWithMask)

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                           const aclIntArray *strides, const aclIntArray *paddings, const bool ceilMode,
                                           const bool countIncludePad, const int64_t divisorOverride,
                                           const int8_t cubeMathType, aclTensor *out, uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  const char *api = __func__;
  pool_call c = {.api = api,
                 .api2 = "aclnnAvgPool2d",
                 .kind = PK_AVG,
                 .self = self,
                 .out = out,
                 .out_name = "out",
                 .types = FLT3,
                 .ceil_mode = ceilMode,
                 .count_pad = countIncludePad,
                 .divisor = divisorOverride,
                 .dh = 1,
                 .dw = 1};
  int rc = pool_null(api, self, out, "out", NULL, NULL, workspaceSize, executor);
  if (rc == 0)
    rc = pool_pair(api, "kernelSize", kernelSize, 0, 1, 1, &c.kh, &c.kw);
  if (rc == 0)
    rc = pool_pair(api, "strides", strides, 1, 0, 1, &c.sh, &c.sw);
  if (rc == 0)
    rc = pool_pair(api, "paddings", paddings, 0, 0, 0, &c.pt, &c.pl);
  if (rc != 0)
    return rc;
  if (divisorOverride < 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "divisorOverride is %lld; it must be 0 (off) or positive",
                     (long long)divisorOverride);
  if (cubeMathType < 0 || cubeMathType > 3)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "cubeMathType is %d; aclnnAvgPool2d takes 0 to 3", (int)cubeMathType);
  if (c.sh == 0) {
    c.sh = c.kh;
    c.sw = c.kw;
  }
  c.pb = c.pt;
  c.pr = c.pl;
  return pool_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAvgPool2d)

/* outputSize: 2 positive values (1: both). */
static int adaptive_size(const char *api, const aclIntArray *outputSize, pool_call *c) {
  return pool_pair(api, "outputSize", outputSize, 0, 1, 1, &c->oh, &c->ow);
}

aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize, aclTensor *out,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__;
  pool_call c = {.api = api,
                 .api2 = "aclnnAdaptiveAvgPool2d",
                 .kind = PK_ADAPTIVE_AVG,
                 .self = self,
                 .out = out,
                 .out_name = "out",
                 .types = FLT3};
  int rc = pool_null(api, self, out, "out", NULL, NULL, workspaceSize, executor);
  if (rc == 0)
    rc = adaptive_size(api, outputSize, &c);
  return rc != 0 ? rc : pool_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAdaptiveAvgPool2d)

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
                                                   aclTensor *outputOut, aclTensor *indicesOut, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  const char *api = __func__;
  pool_call c = {.api = api,
                 .api2 = "aclnnAdaptiveMaxPool2d",
                 .kind = PK_ADAPTIVE_MAX,
                 .self = self,
                 .out = outputOut,
                 .indices = indicesOut,
                 .out_name = "outputOut",
                 .idx_name = "indicesOut",
                 .types = FLT3 | ACL__NN_BIT(ACL_DOUBLE),
                 .idx_types = ACL__NN_BIT(ACL_INT64)};
  int rc = pool_null(api, self, outputOut, "outputOut", indicesOut, "indicesOut", workspaceSize, executor);
  if (rc == 0)
    rc = adaptive_size(api, outputSize, &c);
  return rc != 0 ? rc : pool_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAdaptiveMaxPool2d)
