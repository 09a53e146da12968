/*
 * norm.c - the normalisations of reference aclnn.md section 8.5:
 * LayerNorm (and LayerNormWithImplMode), RmsNorm, BatchNorm (inference and
 * training, with the running statistics' update) and GroupNorm.
 *
 * Each works on groups of elements that share statistics: a row of the
 * trailing dims (LayerNorm, RmsNorm), a channel across the batch and the
 * spatial dims (BatchNorm), the channels of a group with their spatial dims
 * (GroupNorm).  A group is gathered into a float buffer (strided views of
 * any floating type), its mean and variance summed in double, normalised,
 * scaled and shifted, and scattered into the output; groups are shared out
 * over the device's executors.  Variances are the biased (population) ones;
 * BatchNorm's running variance takes the unbiased one, as torch's does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))

enum { NK_LAYER, NK_RMS, NK_BATCH, NK_GROUP };
/* The tensors of a norm job (their trefs; -1 absent). */
enum { NT_X, NT_W, NT_B, NT_Y, NT_MEAN, NT_RSTD, NT_RM, NT_RV, NT_X2, NT_XOUT, NT_N };

typedef struct norm_job {
  acl__nn_job base;
  int kind;
  int ti[NT_N];
  /* the views the kernel walks: x and y with the group's dims last (from dim k on); the statistics
   * outputs as one element per group (rank k); LayerNorm / RmsNorm weights as a row */
  acl__nn_tref vx, vy, vmean, vrstd, vw, vb;
  acl__nn_tref vx2, vxo; /* AddRmsNorm: the second addend and the sum */
  int k;
  int64_t groups, len;   /* groups, elements per group */
  int64_t chans, per_ch; /* GroupNorm: channels per group, elements per channel */
  double eps, momentum;
  int training;
} norm_job;

typedef struct norm_work {
  const norm_job *j;
  char *const *ptr;
  float *w, *b; /* weights and shifts: per position (layer, rms) or per channel (batch, group) */
  int failed;
} norm_work;

static const char *P(const norm_work *w, int t) { return w->j->ti[t] >= 0 ? w->ptr[w->j->ti[t]] : NULL; }

/* Group g of x into buf (GroupNorm: its channels one after another). */
static void norm_gather(const norm_work *w, int64_t g, float *buf) {
  const norm_job *j = w->j;
  if (j->kind != NK_GROUP) {
    acl__nn_gather_f32(&j->vx, P(w, NT_X), j->k, g, buf);
    return;
  }
  int64_t n = g / (j->groups / j->vx.dims[0]), gi = g % (j->groups / j->vx.dims[0]);
  for (int64_t c = 0; c < j->chans; c++)
    acl__nn_gather_f32(&j->vx, P(w, NT_X), 2, n * j->vx.dims[1] + gi * j->chans + c, buf + c * j->per_ch);
}

static void norm_scatter(const norm_work *w, int64_t g, const float *buf) {
  const norm_job *j = w->j;
  char *y = (char *)P(w, NT_Y);
  if (j->kind != NK_GROUP) {
    acl__nn_scatter_f32(&j->vy, y, j->k, g, buf);
    return;
  }
  int64_t n = g / (j->groups / j->vy.dims[0]), gi = g % (j->groups / j->vy.dims[0]);
  for (int64_t c = 0; c < j->chans; c++)
    acl__nn_scatter_f32(&j->vy, y, 2, n * j->vy.dims[1] + gi * j->chans + c, buf + c * j->per_ch);
}

/* One element of a per-group statistics output. */
static void norm_stat(const norm_work *w, int t, const acl__nn_tref *v, int64_t g, float val) {
  if (w->j->ti[t] >= 0)
    acl__nn_scatter_f32(v, (char *)P(w, t), v->rank, g, &val);
}

static void norm_groups(int64_t begin, int64_t end, void *arg) {
  norm_work *w = arg;
  const norm_job *j = w->j;
  int add = j->ti[NT_X2] >= 0;
  float *buf = malloc((size_t)j->len * sizeof(float) * (add ? 2 : 1) + 1), *buf2 = buf + j->len;
  if (buf == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  for (int64_t g = begin; g < end; g++) {
    norm_gather(w, g, buf);
    if (add) { /* AddRmsNorm: xOut = x1 + x2 in its type, normalised as stored */
      acl__nn_gather_f32(&j->vx2, P(w, NT_X2), j->k, g, buf2);
      for (int64_t i = 0; i < j->len; i++)
        buf[i] += buf2[i];
      acl__nn_scatter_f32(&j->vxo, (char *)P(w, NT_XOUT), j->k, g, buf);
      acl__nn_gather_f32(&j->vxo, P(w, NT_XOUT), j->k, g, buf);
    }
    double mean = 0, var = 0;
    if (j->kind == NK_RMS) {
      for (int64_t i = 0; i < j->len; i++)
        var += (double)buf[i] * buf[i];
      var = j->len > 0 ? var / (double)j->len : 0;
    } else if (j->kind == NK_BATCH && !j->training) {
      float m = 0, v = 1;
      if (j->ti[NT_RM] >= 0)
        acl__nn_gather_f32(&j->base.t[j->ti[NT_RM]], P(w, NT_RM), 1, g, &m);
      if (j->ti[NT_RV] >= 0)
        acl__nn_gather_f32(&j->base.t[j->ti[NT_RV]], P(w, NT_RV), 1, g, &v);
      mean = m;
      var = v;
    } else {
      for (int64_t i = 0; i < j->len; i++)
        mean += buf[i];
      mean = j->len > 0 ? mean / (double)j->len : 0;
      for (int64_t i = 0; i < j->len; i++)
        var += ((double)buf[i] - mean) * ((double)buf[i] - mean);
      var = j->len > 0 ? var / (double)j->len : 0;
    }
    float fm = (float)mean, rstd = (float)(1 / sqrt(var + j->eps));
    for (int64_t i = 0; i < j->len; i++) {
      float x = (buf[i] - fm) * rstd;
      if (j->kind == NK_LAYER || j->kind == NK_RMS) {
        x = j->kind == NK_RMS ? buf[i] * rstd : x;
        buf[i] = x * (w->w != NULL ? w->w[i] : 1) + (w->b != NULL ? w->b[i] : 0);
      } else {
        int64_t c = j->kind == NK_BATCH ? g : (g % (j->groups / j->vx.dims[0])) * j->chans + i / j->per_ch;
        buf[i] = x * (w->w != NULL ? w->w[c] : 1) + (w->b != NULL ? w->b[c] : 0);
      }
    }
    norm_scatter(w, g, buf);
    norm_stat(w, NT_MEAN, &j->vmean, g, fm);
    norm_stat(w, NT_RSTD, &j->vrstd, g, rstd);
    if (j->kind == NK_BATCH && j->training) {
      double unbiased = j->len > 1 ? var * (double)j->len / (double)(j->len - 1) : var;
      for (int s = 0; s < 2; s++) {
        int t = s ? NT_RV : NT_RM;
        if (j->ti[t] < 0)
          continue;
        const acl__nn_tref *r = &j->base.t[j->ti[t]];
        float old;
        acl__nn_gather_f32(r, P(w, t), 1, g, &old);
        float nv = (float)((1 - j->momentum) * old + j->momentum * (s ? unbiased : mean));
        acl__nn_scatter_f32(r, (char *)P(w, t), 1, g, &nv);
      }
    }
  }
  free(buf);
}

/* A whole 1-D (or row) parameter tensor as float, or NULL when absent. */
static float *norm_param(const norm_job *j, char *const *ptr, int t, const acl__nn_tref *v, int *failed) {
  if (j->ti[t] < 0)
    return NULL;
  int64_t n = acl__nn_tref_numel(v, 0, v->rank);
  float *p = malloc((size_t)n * sizeof(float) + 1);
  if (p == NULL)
    *failed = 1;
  else
    acl__nn_gather_f32(v, ptr[j->ti[t]], 0, 0, p);
  return p;
}

static int norm_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const norm_job *j = (const norm_job *)base;
  norm_work w = {j, ptr, NULL, NULL, 0};
  w.w = norm_param(j, ptr, NT_W, &j->vw, &w.failed);
  w.b = norm_param(j, ptr, NT_B, &j->vb, &w.failed);
  int rc = w.failed ? 0 : acl__nn_parallel(dev, j->groups, j->len * 8, norm_groups, &w);
  free(w.w);
  free(w.b);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

/* ---- phase 1 ---------------------------------------------------------------------------------- */

static int same_dims(const aclTensor *t, const int64_t *d, int n) {
  if ((int)t->ndim != n)
    return 0;
  for (int i = 0; i < n; i++)
    if (t->dims[i] != d[i])
      return 0;
  return 1;
}

static int shape_fail(const char *api, const char *name, const aclTensor *t, const int64_t *want, int n,
                      const char *why) {
  char s1[200], s2[200];
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s has shape %s; it must be %s (%s). Remedy: give %s that shape", name,
                   acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1),
                   acl__nn_shape_text(want, (uint64_t)n, s2, sizeof s2), why, name);
}

/* The common checks of an optional or required tensor: live, rank, type. */
static int norm_tensor(const char *api, const char *api2, const char *name, const aclTensor *t, int required,
                       int output) {
  int rc = 0;
  if (t == NULL && !required)
    return 0;
  if (acl__nn_tensor_arg(api, name, t, &rc) == NULL)
    return rc;
  if ((rc = acl__nn_check_dims(api, api2, name, t)) != 0)
    return rc;
  return acl__nn_check_type(api, api2, output ? "output" : "tensor", name, t->dtype, FLT3);
}

static aclnnStatus norm_finish(norm_job *j, aclOpExecutor *ex, uint64_t *workspaceSize, aclOpExecutor **executor) {
  ex->empty = j->groups == 0 || j->len == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

/* The statistics output t (per group, `outer` dims): one element per group in row-major order. */
static void stat_view(const acl__nn_tref *t, int k, const int64_t *outer, acl__nn_tref *v) {
  *v = *t;
  v->rank = k;
  /* the group index walks `outer`; t has those dims first (and 1s after) or is [N, group] */
  int64_t st[ACL__NN_MAX_RANK];
  for (int d = 0; d < k; d++) {
    v->dims[d] = outer[d];
    st[d] = d < t->rank ? t->st[d] : 0;
  }
  memcpy(v->st, st, sizeof st);
}

static aclnnStatus layer_norm(const char *api, const char *api2, const aclTensor *input, const aclIntArray *shape,
                              const aclTensor *weight, const aclTensor *bias, double eps, aclTensor *out,
                              aclTensor *mean, aclTensor *rstd, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  uint64_t nr = 0;
  if ((rc = norm_tensor(api, api2, "input", input, 1, 0)) != 0)
    return rc;
  const int64_t *ns = acl__nn_int_array_arg(api, "normalizedShape", shape, &nr, &rc);
  if (ns == NULL)
    return rc;
  if ((rc = norm_tensor(api, api2, "weightOptional", weight, 0, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "biasOptional", bias, 0, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "out", out, 1, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "meanOutOptional", mean, 0, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "rstdOutOptional", rstd, 0, 1)) != 0)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  int rank = (int)input->ndim, r = (int)nr, k = rank - r;
  char s1[200];
  int ok = r >= 1 && r <= rank;
  for (int d = 0; ok && d < r; d++)
    ok = ns[d] == input->dims[k + d];
  if (!ok)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "normalizedShape has %d values that are not input %s's last dims: it names the trailing dims "
                     "normalised (at least one). Remedy: give input's last dims",
                     r, acl__nn_shape_text(input->dims, input->ndim, s1, sizeof s1));
  if (!same_dims(out, input->dims, rank))
    return shape_fail(api, "out", out, input->dims, rank, "input's shape");
  if (weight != NULL && !same_dims(weight, ns, r))
    return shape_fail(api, "weightOptional", weight, ns, r, "normalizedShape");
  if (bias != NULL && !same_dims(bias, ns, r))
    return shape_fail(api, "biasOptional", bias, ns, r, "normalizedShape");
  int64_t sd[ACL__NN_MAX_RANK];
  for (int d = 0; d < rank; d++)
    sd[d] = d < k ? input->dims[d] : 1;
  if (mean != NULL && !same_dims(mean, sd, rank))
    return shape_fail(api, "meanOutOptional", mean, sd, rank, "input's shape with the normalised dims 1");
  if (rstd != NULL && !same_dims(rstd, sd, rank))
    return shape_fail(api, "rstdOutOptional", rstd, sd, rank, "input's shape with the normalised dims 1");
  if (!(eps >= 0))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__, "eps is %g; it must be >= 0", eps);

  norm_job *j = acl__nn_job_new(sizeof *j, norm_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  for (int t = 0; t < NT_N; t++)
    j->ti[t] = -1;
  j->kind = NK_LAYER;
  j->eps = eps;
  j->ti[NT_X] = acl__nn_job_tensor(ex, input, "input", 0);
  if (weight != NULL)
    j->ti[NT_W] = acl__nn_job_tensor(ex, weight, "weightOptional", 0);
  if (bias != NULL)
    j->ti[NT_B] = acl__nn_job_tensor(ex, bias, "biasOptional", 0);
  j->ti[NT_Y] = acl__nn_job_tensor(ex, out, "out", 1);
  if (mean != NULL)
    j->ti[NT_MEAN] = acl__nn_job_tensor(ex, mean, "meanOutOptional", 1);
  if (rstd != NULL)
    j->ti[NT_RSTD] = acl__nn_job_tensor(ex, rstd, "rstdOutOptional", 1);
  j->vx = j->base.t[j->ti[NT_X]];
  j->vy = j->base.t[j->ti[NT_Y]];
  j->k = k;
  j->groups = acl__nn_tref_numel(&j->vx, 0, k);
  j->len = acl__nn_tref_numel(&j->vx, k, rank);
  if (weight != NULL)
    j->vw = j->base.t[j->ti[NT_W]];
  if (bias != NULL)
    j->vb = j->base.t[j->ti[NT_B]];
  if (mean != NULL)
    stat_view(&j->base.t[j->ti[NT_MEAN]], k, input->dims, &j->vmean);
  if (rstd != NULL)
    stat_view(&j->base.t[j->ti[NT_RSTD]], k, input->dims, &j->vrstd);
  return norm_finish(j, ex, workspaceSize, executor);
}

aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
                                           const aclTensor *weightOptional, const aclTensor *biasOptional, double eps,
                                           aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  return layer_norm(__func__, "aclnnLayerNorm", input, normalizedShape, weightOptional, biasOptional, eps, out,
                    meanOutOptional, rstdOutOptional, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLayerNorm)

aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
                                                       const aclTensor *weightOptional, const aclTensor *biasOptional,
                                                       double eps, aclTensor *out, aclTensor *meanOutOptional,
                                                       aclTensor *rstdOutOptional, int32_t implMode,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  (void)implMode; /* the vendor's precision / speed trade-offs: openacl has one implementation (docs/aclnn.md) */
  return layer_norm(__func__, "aclnnLayerNormWithImplMode", input, normalizedShape, weightOptional, biasOptional, eps,
                    out, meanOutOptional, rstdOutOptional, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLayerNormWithImplMode)

/* RmsNorm, and AddRmsNorm when x2 is given (x is then x1 + x2, written to xOut). */
static aclnnStatus rms_norm(const char *api, const char *api2, int add, const char *xname, const aclTensor *x,
                            const aclTensor *x2, const aclTensor *gamma, double epsilon, const aclTensor *yOut,
                            const aclTensor *rstdOut, const aclTensor *xOut, uint64_t *workspaceSize,
                            aclOpExecutor **executor) {
  int rc = 0;
  if ((rc = norm_tensor(api, api2, xname, x, 1, 0)) != 0 ||
      (add && (rc = norm_tensor(api, api2, "x2", x2, 1, 0)) != 0) ||
      (rc = norm_tensor(api, api2, "gamma", gamma, 1, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "yOut", yOut, 1, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "rstdOut", rstdOut, 1, 1)) != 0 ||
      (add && (rc = norm_tensor(api, api2, "xOut", xOut, 1, 1)) != 0))
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  int rank = (int)x->ndim, r = (int)gamma->ndim, k = rank - r;
  char s1[200], s2[200];
  int ok = r >= 1 && r <= rank;
  for (int d = 0; ok && d < r; d++)
    ok = gamma->dims[d] == x->dims[k + d];
  if (!ok)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "gamma %s is not %s %s's last dims: %s normalises the trailing gamma-rank dims. Remedy: give "
                     "gamma those dims",
                     acl__nn_shape_text(gamma->dims, gamma->ndim, s1, sizeof s1), xname,
                     acl__nn_shape_text(x->dims, x->ndim, s2, sizeof s2), api2);
  const aclTensor *same[3] = {yOut, add ? x2 : NULL, add ? xOut : NULL};
  const char *names[3] = {"yOut", "x2", "xOut"};
  for (int i = 0; i < 3; i++) {
    if (same[i] == NULL)
      continue;
    if (!same_dims(same[i], x->dims, rank))
      return shape_fail(api, names[i], same[i], x->dims, rank, "x's shape");
    if (same[i]->dtype != x->dtype)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s is %s but %s is %s: %s takes and writes one type. Remedy: make them equal", names[i],
                       acl__nn_dtype_name(same[i]->dtype), xname, acl__nn_dtype_name(x->dtype), api2);
  }
  int64_t sd[ACL__NN_MAX_RANK];
  for (int d = 0; d < rank; d++)
    sd[d] = d < k ? x->dims[d] : 1;
  if (!same_dims(rstdOut, sd, rank))
    return shape_fail(api, "rstdOut", rstdOut, sd, rank, "x's shape with the normalised dims 1");
  if (rstdOut->dtype != ACL_FLOAT)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "rstdOut is %s; %s writes it as ACL_FLOAT. Remedy: make it float32",
                     acl__nn_dtype_name(rstdOut->dtype), api2);
  norm_job *j = acl__nn_job_new(sizeof *j, norm_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  for (int t = 0; t < NT_N; t++)
    j->ti[t] = -1;
  j->kind = NK_RMS;
  j->eps = epsilon;
  j->ti[NT_X] = acl__nn_job_tensor(ex, x, xname, 0);
  if (add)
    j->ti[NT_X2] = acl__nn_job_tensor(ex, x2, "x2", 0);
  j->ti[NT_W] = acl__nn_job_tensor(ex, gamma, "gamma", 0);
  j->ti[NT_Y] = acl__nn_job_tensor(ex, yOut, "yOut", 1);
  j->ti[NT_RSTD] = acl__nn_job_tensor(ex, rstdOut, "rstdOut", 1);
  if (add)
    j->ti[NT_XOUT] = acl__nn_job_tensor(ex, xOut, "xOut", 1);
  j->vx = j->base.t[j->ti[NT_X]];
  j->vy = j->base.t[j->ti[NT_Y]];
  j->vw = j->base.t[j->ti[NT_W]];
  if (add) {
    j->vx2 = j->base.t[j->ti[NT_X2]];
    j->vxo = j->base.t[j->ti[NT_XOUT]];
  }
  j->k = k;
  j->groups = acl__nn_tref_numel(&j->vx, 0, k);
  j->len = acl__nn_tref_numel(&j->vx, k, rank);
  stat_view(&j->base.t[j->ti[NT_RSTD]], k, x->dims, &j->vrstd);
  return norm_finish(j, ex, workspaceSize, executor);
}

aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma, double epsilon,
                                         const aclTensor *yOut, const aclTensor *rstdOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return rms_norm(__func__, "aclnnRmsNorm", 0, "x", x, NULL, gamma, epsilon, yOut, rstdOut, NULL, workspaceSize,
                  executor);
}
ACL__NN_PHASE2(aclnnRmsNorm)

/* A 1-D per-channel tensor of c elements (NULL allowed when optional). */
static int chan_param(const char *api, const char *name, const aclTensor *t, int64_t c) {
  int64_t want[1] = {c};
  if (t != NULL && !same_dims(t, want, 1))
    return shape_fail(api, name, t, want, 1, "one value per channel");
  return 0;
}

aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                           aclTensor *runningMean, aclTensor *runningVar, bool training,
                                           double momentum, double eps, aclTensor *output, aclTensor *saveMean,
                                           aclTensor *saveInvstd, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnBatchNorm";
  int rc = 0;
  if ((rc = norm_tensor(api, api2, "input", input, 1, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "weight", weight, 0, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "bias", bias, 0, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "runningMean", runningMean, !training, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "runningVar", runningVar, !training, 0)) != 0 ||
      (rc = norm_tensor(api, api2, "output", output, 1, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "saveMean", saveMean, training, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "saveInvstd", saveInvstd, training, 1)) != 0)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", workspaceSize == NULL ? "workspaceSize" : "executor");
  int rank = (int)input->ndim;
  char s1[200];
  if (rank < 2)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "input %s has fewer than 2 dims: BatchNorm normalises channel dim 1 of [N, C, ...]. Remedy: give "
                     "input 2 to 8 dims",
                     acl__nn_shape_text(input->dims, input->ndim, s1, sizeof s1));
  int64_t c = input->dims[1];
  if ((rc = chan_param(api, "weight", weight, c)) != 0 || (rc = chan_param(api, "bias", bias, c)) != 0 ||
      (rc = chan_param(api, "runningMean", runningMean, c)) != 0 ||
      (rc = chan_param(api, "runningVar", runningVar, c)) != 0 ||
      (rc = chan_param(api, "saveMean", saveMean, c)) != 0 || (rc = chan_param(api, "saveInvstd", saveInvstd, c)) != 0)
    return rc;
  if (!same_dims(output, input->dims, rank))
    return shape_fail(api, "output", output, input->dims, rank, "input's shape");
  if (!(eps >= 0))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "eps is %g; it must be >= 0", eps);
  norm_job *j = acl__nn_job_new(sizeof *j, norm_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  for (int t = 0; t < NT_N; t++)
    j->ti[t] = -1;
  j->kind = NK_BATCH;
  j->eps = eps;
  j->momentum = momentum;
  j->training = training;
  j->ti[NT_X] = acl__nn_job_tensor(ex, input, "input", 0);
  if (weight != NULL)
    j->ti[NT_W] = acl__nn_job_tensor(ex, weight, "weight", 0);
  if (bias != NULL)
    j->ti[NT_B] = acl__nn_job_tensor(ex, bias, "bias", 0);
  if (runningMean != NULL)
    j->ti[NT_RM] = acl__nn_job_tensor(ex, runningMean, "runningMean", training);
  if (runningVar != NULL)
    j->ti[NT_RV] = acl__nn_job_tensor(ex, runningVar, "runningVar", training);
  j->ti[NT_Y] = acl__nn_job_tensor(ex, output, "output", 1);
  if (saveMean != NULL && training)
    j->ti[NT_MEAN] = acl__nn_job_tensor(ex, saveMean, "saveMean", 1);
  if (saveInvstd != NULL && training)
    j->ti[NT_RSTD] = acl__nn_job_tensor(ex, saveInvstd, "saveInvstd", 1);
  /* channel first: a group is a channel over the batch and the spatial dims */
  j->vx = j->base.t[j->ti[NT_X]];
  j->vy = j->base.t[j->ti[NT_Y]];
  acl__nn_tref *vs[2] = {&j->vx, &j->vy};
  for (int i = 0; i < 2; i++) {
    int64_t d = vs[i]->dims[0], s = vs[i]->st[0];
    vs[i]->dims[0] = vs[i]->dims[1];
    vs[i]->st[0] = vs[i]->st[1];
    vs[i]->dims[1] = d;
    vs[i]->st[1] = s;
  }
  j->k = 1;
  j->groups = c;
  j->len = acl__nn_tref_numel(&j->vx, 1, rank);
  if (weight != NULL)
    j->vw = j->base.t[j->ti[NT_W]];
  if (bias != NULL)
    j->vb = j->base.t[j->ti[NT_B]];
  if (j->ti[NT_MEAN] >= 0)
    stat_view(&j->base.t[j->ti[NT_MEAN]], 1, &c, &j->vmean);
  if (j->ti[NT_RSTD] >= 0)
    stat_view(&j->base.t[j->ti[NT_RSTD]], 1, &c, &j->vrstd);
  return norm_finish(j, ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnBatchNorm)

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma, const aclTensor *beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps, aclTensor *out,
                                           aclTensor *meanOut, aclTensor *rstdOut, uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnGroupNorm";
  int rc = 0;
  if ((rc = norm_tensor(api, api2, "self", self, 1, 0)) != 0 || (rc = norm_tensor(api, api2, "gamma", gamma, 0, 0)) ||
      (rc = norm_tensor(api, api2, "beta", beta, 0, 0)) != 0 || (rc = norm_tensor(api, api2, "out", out, 1, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "meanOut", meanOut, 1, 1)) != 0 ||
      (rc = norm_tensor(api, api2, "rstdOut", rstdOut, 1, 1)) != 0)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", workspaceSize == NULL ? "workspaceSize" : "executor");
  int rank = (int)self->ndim;
  char s1[200];
  if (rank < 2 || self->dims[0] != N || self->dims[1] != C || acl__nn_numel(self) != N * C * HxW)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "self %s is not [N = %lld, C = %lld, ...] with HxW = %lld elements per channel. Remedy: pass "
                     "self's own N, C and HxW",
                     acl__nn_shape_text(self->dims, self->ndim, s1, sizeof s1), (long long)N, (long long)C,
                     (long long)HxW);
  if (group <= 0 || C % group != 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "group is %lld; it must be > 0 and divide C (%lld). Remedy: pass a divisor of C", (long long)group,
                     (long long)C);
  if (!(eps > 0))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "eps is %g; GroupNorm takes eps > 0", eps);
  if ((rc = chan_param(api, "gamma", gamma, C)) != 0 || (rc = chan_param(api, "beta", beta, C)) != 0)
    return rc;
  if (!same_dims(out, self->dims, rank))
    return shape_fail(api, "out", out, self->dims, rank, "self's shape");
  int64_t sd[2] = {N, group};
  if (!same_dims(meanOut, sd, 2))
    return shape_fail(api, "meanOut", meanOut, sd, 2, "[N, group]");
  if (!same_dims(rstdOut, sd, 2))
    return shape_fail(api, "rstdOut", rstdOut, sd, 2, "[N, group]");
  norm_job *j = acl__nn_job_new(sizeof *j, norm_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  for (int t = 0; t < NT_N; t++)
    j->ti[t] = -1;
  j->kind = NK_GROUP;
  j->eps = eps;
  j->ti[NT_X] = acl__nn_job_tensor(ex, self, "self", 0);
  if (gamma != NULL)
    j->ti[NT_W] = acl__nn_job_tensor(ex, gamma, "gamma", 0);
  if (beta != NULL)
    j->ti[NT_B] = acl__nn_job_tensor(ex, beta, "beta", 0);
  j->ti[NT_Y] = acl__nn_job_tensor(ex, out, "out", 1);
  j->ti[NT_MEAN] = acl__nn_job_tensor(ex, meanOut, "meanOut", 1);
  j->ti[NT_RSTD] = acl__nn_job_tensor(ex, rstdOut, "rstdOut", 1);
  j->vx = j->base.t[j->ti[NT_X]];
  j->vy = j->base.t[j->ti[NT_Y]];
  j->k = 2;
  j->groups = N * group;
  j->chans = C / group;
  j->per_ch = HxW;
  j->len = j->chans * HxW;
  if (gamma != NULL)
    j->vw = j->base.t[j->ti[NT_W]];
  if (beta != NULL)
    j->vb = j->base.t[j->ti[NT_B]];
  stat_view(&j->base.t[j->ti[NT_MEAN]], 2, sd, &j->vmean);
  stat_view(&j->base.t[j->ti[NT_RSTD]], 2, sd, &j->vrstd);
  return norm_finish(j, ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnGroupNorm)

aclnnStatus aclnnAddRmsNormGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2, const aclTensor *gamma,
                                            double epsilon, aclTensor *yOut, aclTensor *rstdOut, aclTensor *xOut,
                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
  return rms_norm(__func__, "aclnnAddRmsNorm", 1, "x1", x1, x2, gamma, epsilon, yOut, rstdOut, xOut, workspaceSize,
                  executor);
}
ACL__NN_PHASE2(aclnnAddRmsNorm)
