/*
 * reduce.c - the reductions of reference aclnn.md section 8.11: ReduceSum,
 * Mean and MeanV2, Amax and Amin over a list of dims, ArgMax and ArgMin
 * along one dim.
 *
 * The reduced dims are moved to the end of self's view (nothing is copied)
 * and each output element's block is gathered into a buffer of its class:
 * double for floating types (sums and means accumulate in double, then are
 * rounded to out's type once), int64 for the integers and bool (sums wrap as
 * the result type does).  Blocks are shared out over the device's executors.
 * Amax / Amin / ArgMax / ArgMin propagate NaN (NaN is the maximum and the
 * minimum; its first index is the answer); ties give the first index.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_min.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

enum { RK_SUM, RK_MEAN, RK_MAX, RK_MIN, RK_ARGMAX, RK_ARGMIN, RK_COPY, RK_PROD, RK_LSE, RK_NORM };

typedef struct reduce_job {
  acl__nn_job base; /* self, out[, indices] */
  int kind;
  int k;                   /* self's view: kept dims [0, k), reduced dims [k, rank) */
  acl__nn_tref vx, vo, vi; /* vo, vi: out and indices as rank k (kept dims only) */
  int ti_idx;              /* MaxDim / MinDim: the indices' tref (else -1) */
  int in_int;              /* the elements are read as int64 (integral / bool self and a non-floating result) */
  aclDataType cdt;         /* the type a sum / mean / product is computed in (the dtype asked for) */
  double p;                /* Norm's order */
  int64_t len, rows;
} reduce_job;

typedef struct reduce_work {
  const reduce_job *j;
  char *const *ptr;
  int failed;
} reduce_work;

/* Writes one result (int64 iv or double dv) as element r of v (rank k, one element per row). */
static void reduce_put(const acl__nn_tref *v, char *base, int64_t r, int is_int, int64_t iv, double dv) {
  int64_t off = 0, rem = r;
  for (int d = v->rank - 1; d >= 0; d--) {
    off += (rem % v->dims[d]) * v->st[d];
    rem /= v->dims[d];
  }
  char *at = base + off * (int64_t)acl__nn_dtype_size(v->dtype);
  if (is_int)
    acl__nn_store_i64(at, 0, 1, v->dtype, &iv);
  else
    acl__nn_store_f64(at, 0, 1, v->dtype, &dv);
}

/* The row's result in the int64 class. */
static int64_t reduce_int(const reduce_job *j, int64_t *b, int64_t *best) {
  if (j->cdt != ACL_DT_UNDEFINED && j->cdt != ACL_BOOL) /* converted to the asked type first (torch's dtype) */
    for (int64_t i = 0; i < j->len; i++) {
      int64_t x = b[i];
      acl__nn_store_i64((char *)&b[i], 0, 1, j->cdt, &x);
      acl__nn_load_i64(&b[i], (const char *)&b[i], 0, 1, j->cdt);
    }
  uint64_t acc = j->kind == RK_PROD ? 1 : 0;
  *best = 0;
  switch (j->kind) {
  case RK_SUM:
    for (int64_t i = 0; i < j->len; i++)
      acc += (uint64_t)b[i];
    return (int64_t)acc;
  case RK_PROD:
    for (int64_t i = 0; i < j->len; i++)
      acc *= (uint64_t)b[i];
    return (int64_t)acc;
  case RK_COPY:
    return b[0];
  default: /* the extremes and their first index */
    for (int64_t i = 1; i < j->len; i++) {
      int max = j->kind == RK_MAX || j->kind == RK_ARGMAX;
      if (max ? b[i] > b[*best] : b[i] < b[*best])
        *best = i;
    }
    return j->len > 0 ? b[*best] : 0;
  }
}

/* The row's result in double. */
static double reduce_dbl(const reduce_job *j, double *b, int64_t *best) {
  if (j->cdt == ACL_FLOAT16 || j->cdt == ACL_BF16 || j->cdt == ACL_FLOAT)
    for (int64_t i = 0; i < j->len; i++) { /* the elements as the computing type holds them */
      double x = b[i];
      acl__nn_store_f64((char *)&b[i], 0, 1, j->cdt, &x);
      acl__nn_load_f64(&b[i], (const char *)&b[i], 0, 1, j->cdt);
    }
  double acc = 0;
  *best = 0;
  switch (j->kind) {
  case RK_SUM:
  case RK_MEAN:
    for (int64_t i = 0; i < j->len; i++)
      acc += b[i];
    return j->kind == RK_MEAN ? (j->len > 0 ? acc / (double)j->len : NAN) : acc;
  case RK_PROD:
    acc = 1;
    for (int64_t i = 0; i < j->len; i++)
      acc *= b[i];
    return acc;
  case RK_COPY:
    return b[0];
  case RK_LSE: {
    double mx = -INFINITY;
    for (int64_t i = 0; i < j->len; i++)
      mx = b[i] > mx || b[i] != b[i] ? b[i] : mx;
    if (mx != mx || isinf(mx))
      return mx; /* NaN, or all -inf (log 0), or +inf */
    for (int64_t i = 0; i < j->len; i++)
      acc += exp(b[i] - mx);
    return mx + log(acc);
  }
  case RK_NORM: {
    double p = j->p;
    if (p == 0) {
      for (int64_t i = 0; i < j->len; i++)
        acc += b[i] != 0;
      return acc;
    }
    if (isinf(p)) {
      acc = j->len > 0 ? fabs(b[0]) : 0;
      for (int64_t i = 1; i < j->len; i++)
        acc = p > 0 ? fmax(acc, fabs(b[i])) : fmin(acc, fabs(b[i]));
      return acc;
    }
    for (int64_t i = 0; i < j->len; i++)
      acc += p == 1 ? fabs(b[i]) : p == 2 ? b[i] * b[i] : pow(fabs(b[i]), p);
    return p == 1 ? acc : p == 2 ? sqrt(acc) : pow(acc, 1 / p);
  }
  default: /* the extremes and their first index; NaN wins at its first index */
    for (int64_t i = 1; i < j->len && b[*best] == b[*best]; i++) {
      int max = j->kind == RK_MAX || j->kind == RK_ARGMAX;
      if (b[i] != b[i] || (max ? b[i] > b[*best] : b[i] < b[*best]))
        *best = i;
    }
    return j->len > 0 ? b[*best] : 0;
  }
}

static void reduce_rows(int64_t begin, int64_t end, void *arg) {
  reduce_work *w = arg;
  const reduce_job *j = w->j;
  void *mem = malloc((size_t)(j->len > 0 ? j->len : 1) * 8);
  if (mem == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  int arg_kind = j->kind == RK_ARGMAX || j->kind == RK_ARGMIN;
  for (int64_t r = begin; r < end; r++) {
    int64_t iv = 0, best = 0;
    double dv = 0;
    if (j->in_int) {
      acl__nn_gather_i64(&j->vx, w->ptr[0], j->k, r, mem);
      iv = reduce_int(j, mem, &best);
    } else {
      acl__nn_gather_f64(&j->vx, w->ptr[0], j->k, r, mem);
      dv = reduce_dbl(j, mem, &best);
    }
    if (arg_kind)
      reduce_put(&j->vo, w->ptr[1], r, 1, best, 0);
    else
      reduce_put(&j->vo, w->ptr[1], r, j->in_int, iv, dv);
    if (j->ti_idx >= 0)
      reduce_put(&j->vi, w->ptr[j->ti_idx], r, 1, best, 0);
  }
  free(mem);
}

static int reduce_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const reduce_job *j = (const reduce_job *)base;
  reduce_work w = {j, ptr, 0};
  int rc = acl__nn_parallel(dev, j->rows, j->len + 16, reduce_rows, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

/* ---- phase 1 ---------------------------------------------------------------------------------- */

typedef struct reduce_call {
  const char *api, *api2;
  int kind;
  const aclTensor *self, *out;
  const char *dim_name;
  const int64_t *dims; /* NULL with ndims 0: every dim */
  uint64_t ndims;
  int keep;
  aclDataType dtype; /* the result type asked for (ACL_DT_UNDEFINED: none) */
  uint64_t in_types, out_types;
  int out_same;             /* out's type must be self's */
  const aclTensor *indices; /* MaxDim / MinDim */
  int any_one;              /* Max / Min: out is one element of any shape of 1s */
  double p;                 /* Norm */
} reduce_call;

static aclnnStatus reduce_plan(const reduce_call *c, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = c->api, *api2 = c->api2;
  const aclTensor *self = c->self, *out = c->out;
  int rc = 0;
  char s1[200], s2[200], s3[200];
  if ((rc = acl__nn_check_dims(api, api2, "self", self)) != 0 ||
      (rc = acl__nn_check_dims(api, api2, "out", out)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, c->in_types)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, c->out_types)) != 0)
    return rc;
  if (c->indices != NULL && ((rc = acl__nn_check_dims(api, api2, "indices", c->indices)) != 0 ||
                             (rc = acl__nn_check_type(api, api2, "output", "indices", c->indices->dtype,
                                                      ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))) != 0))
    return rc;
  if (c->out_same && out->dtype != self->dtype)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "out is %s but self is %s: %s writes self's type. Remedy: create out as %s",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(self->dtype), api2, acl__nn_dtype_name(self->dtype));
  if (c->dtype != ACL_DT_UNDEFINED && out->dtype != c->dtype)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "out is %s but dtype is %s: the result is dtype's type. Remedy: create out "
                     "as %s",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(c->dtype), acl__nn_dtype_name(c->dtype));
  int rank = (int)self->ndim, r1 = rank > 0 ? rank : 1;
  int red[ACL__NN_MAX_RANK] = {0}, nred = 0;
  for (uint64_t i = 0; i < c->ndims; i++) {
    int64_t d = c->dims[i];
    if (d < -r1 || d >= r1)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s holds %lld, out of range for self of %d dims ([%d, %d]). Remedy: name dims of self",
                       c->dim_name, (long long)d, rank, -r1, r1 - 1);
    int dd = (int)(d < 0 ? d + r1 : d);
    if (rank == 0)
      continue;
    if (red[dd])
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s names dim %d twice. Remedy: name each dim once", c->dim_name, dd);
    red[dd] = 1;
    nred++;
  }
  if (c->ndims == 0 && c->kind != RK_COPY)
    for (int d = 0; d < rank; d++)
      red[d] = 1, nred++;
  int64_t want[ACL__NN_MAX_RANK];
  int wr = 0;
  for (int d = 0; d < rank; d++)
    if (!red[d] || c->keep)
      want[wr++] = red[d] ? 1 : self->dims[d];
  const aclTensor *outs[2] = {out, c->indices};
  for (int i = 0; i < 2; i++) {
    const aclTensor *t = outs[i];
    if (t == NULL)
      continue;
    int same = (int)t->ndim == wr;
    for (int d = 0; same && d < wr; d++)
      same = t->dims[d] == want[d];
    if (c->any_one) { /* the vendor's docs disagree on Max / Min's out shape: one element, any rank */
      same = 1;
      for (uint64_t d = 0; d < t->ndim; d++)
        same = same && t->dims[d] == 1;
    }
    if (!same)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s; %s of self %s writes %s. Remedy: create %s with that shape",
                       i ? "indices" : "out", acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1), api2,
                       acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2),
                       acl__nn_shape_text(want, (uint64_t)wr, s3, sizeof s3), i ? "indices" : "out");
  }
  int64_t len = 1;
  for (int d = 0; d < rank; d++)
    if (red[d])
      len *= self->dims[d];
  int64_t rows = acl__nn_numel(out);
  if (len == 0 && rows > 0 && c->kind != RK_SUM && c->kind != RK_MEAN && c->kind != RK_PROD && c->kind != RK_NORM &&
      c->kind != RK_LSE)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s of self %s reduces empty dims: there is no maximum or minimum of no "
                     "elements. Remedy: reduce non-empty dims",
                     api2, acl__nn_shape_text(self->dims, self->ndim, s1, sizeof s1));

  reduce_job *j = acl__nn_job_new(sizeof *j, reduce_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->kind = c->kind;
  int ix = acl__nn_job_tensor(ex, self, "self", 0), io = acl__nn_job_tensor(ex, out, "out", 1);
  j->ti_idx = c->indices != NULL ? acl__nn_job_tensor(ex, c->indices, "indices", 1) : -1;
  j->p = c->p;
  j->vx = j->base.t[ix];
  /* reduced dims last, in order */
  int k = 0;
  acl__nn_tref v = j->vx;
  for (int d = 0; d < rank; d++)
    if (!red[d]) {
      v.dims[k] = self->dims[d];
      v.st[k++] = self->strides[d];
    }
  for (int d = 0, e = k; d < rank; d++)
    if (red[d]) {
      v.dims[e] = self->dims[d];
      v.st[e++] = self->strides[d];
    }
  j->vx = v;
  j->k = k;
  /* out as the kept dims only */
  j->vo = j->base.t[io];
  if (c->keep && rank > 0) {
    for (int d = 0, e = 0; d < rank; d++)
      if (!red[d]) {
        j->vo.dims[e] = out->dims[d];
        j->vo.st[e++] = out->strides[d];
      }
  }
  j->vo.rank = k;
  if (c->any_one)
    j->vo.rank = 0;
  if (j->ti_idx >= 0) {
    j->vi = j->base.t[j->ti_idx];
    if (c->keep && rank > 0)
      for (int d = 0, e = 0; d < rank; d++)
        if (!red[d]) {
          j->vi.dims[e] = c->indices->dims[d];
          j->vi.st[e++] = c->indices->strides[d];
        }
    j->vi.rank = k;
  }
  j->len = len;
  j->rows = rows;
  aclDataType rt = c->dtype != ACL_DT_UNDEFINED ? c->dtype : out->dtype;
  j->cdt = c->kind == RK_SUM || c->kind == RK_MEAN || c->kind == RK_PROD ? rt : ACL_DT_UNDEFINED;
  j->in_int = c->kind != RK_COPY && c->kind != RK_LSE && c->kind != RK_NORM && !acl__nn_is_float(self->dtype) &&
              (j->cdt == ACL_DT_UNDEFINED || !acl__nn_is_float(j->cdt));
  ex->empty = rows == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

/* The common NULL checks, in the vendor's parameter order. */
static int reduce_args(const char *api, const aclTensor *self, const char *dim_name, const aclIntArray *dims,
                       const int64_t **dv, uint64_t *n, const aclTensor *out, uint64_t *workspaceSize,
                       aclOpExecutor **executor) {
  int rc = 0;
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL)
    return rc;
  if (dim_name != NULL && (*dv = acl__nn_int_array_arg(api, dim_name, dims, n, &rc)) == NULL)
    return rc;
  if (acl__nn_tensor_arg(api, "out", out, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  return 0;
}

#define SUM_T (ACL__NN_ARITH)
#define MEAN_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))
#define MAX_T (ACL__NN_ARITH)
#define ARG_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))
#define IDX_T (ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, bool keepDims,
                                           aclDataType dtype, aclTensor *out, uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
  const int64_t *dv = NULL;
  uint64_t n = 0;
  int rc = reduce_args(__func__, self, "dims", dims, &dv, &n, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  if ((unsigned)dtype >= 64 || !(SUM_T & ACL__NN_BIT(dtype)) || !acl__nn_can_cast(self->dtype, dtype))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "dtype is %s, which aclnnReduceSum does not compute self (%s) in (a type self casts to: floating "
                     "to integral and anything but bool to bool are refused). Remedy: pass such a type",
                     acl__nn_dtype_name(dtype), acl__nn_dtype_name(self->dtype));
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnReduceSum",
                   .kind = RK_SUM,
                   .self = self,
                   .out = out,
                   .dim_name = "dims",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepDims,
                   .dtype = dtype,
                   .in_types = SUM_T,
                   .out_types = SUM_T,
                   .out_same = 0};
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnReduceSum)

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype,
                                      aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const int64_t *dv = NULL;
  uint64_t n = 0;
  int rc = reduce_args(__func__, self, "dim", dim, &dv, &n, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  if (!acl__nn_is_float(dtype) || !acl__nn_can_cast(self->dtype, dtype))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "dtype is %s: a mean is computed in a floating type self (%s) can be cast to. Remedy: pass "
                     "ACL_FLOAT, ACL_FLOAT16, ACL_BF16 or ACL_DOUBLE",
                     acl__nn_dtype_name(dtype), acl__nn_dtype_name(self->dtype));
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnMean",
                   .kind = RK_MEAN,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepDim,
                   .dtype = dtype,
                   .in_types = MEAN_T,
                   .out_types = ACL__NN_FLOATS,
                   .out_same = 0};
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMean)

aclnnStatus aclnnMeanV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                        bool noopWithEmptyAxes, aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
  const int64_t *dv = NULL;
  uint64_t n = 0;
  int rc = reduce_args(__func__, self, "dim", dim, &dv, &n, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnMeanV2",
                   .kind = n == 0 && noopWithEmptyAxes ? RK_COPY : RK_MEAN,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepDim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = MEAN_T,
                   .out_types = ACL__NN_FLOATS,
                   .out_same = 0};
  if (acl__nn_is_float(self->dtype) || (unsigned)self->dtype >= 64)
    c.out_same = 1;
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMeanV2)

static aclnnStatus amax_amin(const char *api, const char *api2, int kind, const aclTensor *self, const aclIntArray *dim,
                             bool keepDim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const int64_t *dv = NULL;
  uint64_t n = 0;
  int rc = reduce_args(api, self, "dim", dim, &dv, &n, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = api,
                   .api2 = api2,
                   .kind = kind,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepDim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = MAX_T,
                   .out_types = MAX_T,
                   .out_same = 1};
  return reduce_plan(&c, workspaceSize, executor);
}

aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  return amax_amin(__func__, "aclnnAmax", RK_MAX, self, dim, keepDim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAmax)

aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  return amax_amin(__func__, "aclnnAmin", RK_MIN, self, dim, keepDim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAmin)

static aclnnStatus arg(const char *api, const char *api2, int kind, const aclTensor *self, int64_t dim, bool keepdim,
                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = reduce_args(api, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = api,
                   .api2 = api2,
                   .kind = kind,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = &dim,
                   .ndims = 1,
                   .keep = keepdim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = ARG_T,
                   .out_types = IDX_T,
                   .out_same = 0};
  return reduce_plan(&c, workspaceSize, executor);
}

aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  return arg(__func__, "aclnnArgMax", RK_ARGMAX, self, dim, keepdim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnArgMax)

aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  return arg(__func__, "aclnnArgMin", RK_ARGMIN, self, dim, keepdim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnArgMin)

/* ---- Max / Min of all elements, MaxDim / MinDim, Prod, LogSumExp, Norm ----------------------------------- */

static aclnnStatus max_all(const char *api, const char *api2, int kind, const aclTensor *self, aclTensor *out,
                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = reduce_args(api, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = api,
                   .api2 = api2,
                   .kind = kind,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = NULL,
                   .ndims = 0,
                   .keep = 0,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = MAX_T,
                   .out_types = MAX_T,
                   .out_same = 1};
  c.any_one = 1;
  return reduce_plan(&c, workspaceSize, executor);
}

aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return max_all(__func__, "aclnnMax", RK_MAX, self, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMax)

aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return max_all(__func__, "aclnnMin", RK_MIN, self, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMin)

static aclnnStatus max_dim(const char *api, const char *api2, int kind, const aclTensor *self, int64_t dim,
                           bool keepdim, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
                           aclOpExecutor **executor) {
  int rc = 0;
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL || acl__nn_tensor_arg(api, "out", out, &rc) == NULL ||
      acl__nn_tensor_arg(api, "indices", indices, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  reduce_call c = {.api = api,
                   .api2 = api2,
                   .kind = kind,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = &dim,
                   .ndims = 1,
                   .keep = keepdim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = MAX_T,
                   .out_types = MAX_T,
                   .out_same = 1};
  c.indices = indices;
  return reduce_plan(&c, workspaceSize, executor);
}

aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
                                        aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return max_dim(__func__, "aclnnMaxDim", RK_MAX, self, dim, keepdim, out, indices, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaxDim)

aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out,
                                        aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return max_dim(__func__, "aclnnMinDim", RK_MIN, self, dim, keepdim, out, indices, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMinDim)

/* Prod's dtype: the result type, self castable to it. */
static int prod_dtype(const char *api, const aclTensor *self, aclDataType dtype) {
  if ((unsigned)dtype >= 64 || !(SUM_T & ACL__NN_BIT(dtype)) || !acl__nn_can_cast(self->dtype, dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "dtype is %s, which the product of self (%s) cannot be computed in (floating to integral and "
                     "anything but bool to bool are refused). Remedy: pass such a type",
                     acl__nn_dtype_name(dtype), acl__nn_dtype_name(self->dtype));
  return 0;
}

aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = reduce_args(__func__, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor);
  if (rc == 0)
    rc = prod_dtype(__func__, self, dtype);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnProd",
                   .kind = RK_PROD,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = NULL,
                   .ndims = 0,
                   .keep = 0,
                   .dtype = dtype,
                   .in_types = SUM_T,
                   .out_types = SUM_T,
                   .out_same = 0};
  c.any_one = 1;
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnProd)

aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim, const aclDataType dtype,
                                         aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = reduce_args(__func__, self, NULL, NULL, NULL, NULL, out, workspaceSize, executor);
  if (rc == 0)
    rc = prod_dtype(__func__, self, dtype);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnProdDim",
                   .kind = RK_PROD,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = &dim,
                   .ndims = 1,
                   .keep = keepDim,
                   .dtype = dtype,
                   .in_types = SUM_T,
                   .out_types = SUM_T,
                   .out_same = 0};
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnProdDim)

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))

aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  const int64_t *dv = NULL;
  uint64_t n = 0;
  int rc = reduce_args(__func__, self, "dim", dim, &dv, &n, out, workspaceSize, executor);
  if (rc != 0)
    return rc;
  reduce_call c = {.api = __func__,
                   .api2 = "aclnnLogSumExp",
                   .kind = RK_LSE,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepDim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = ACL__NN_ARITH,
                   .out_types = FLT3,
                   .out_same = 0};
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLogSumExp)

aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self, const aclScalar *pScalar, const aclIntArray *dim,
                                      bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__;
  int rc = 0;
  const int64_t *dv = NULL;
  uint64_t n = 0;
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL || acl__nn_scalar_arg(api, "pScalar", pScalar, &rc) == NULL)
    return rc;
  if ((rc = reduce_args(api, self, "dim", dim, &dv, &n, out, workspaceSize, executor)) != 0)
    return rc;
  if ((unsigned)pScalar->dtype >= 64 || !(ACL__NN_ARITH & ACL__NN_BIT(pScalar->dtype)))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "pScalar is %s; aclnnNorm takes a real order. Remedy: give a real number",
                     acl__nn_dtype_name(pScalar->dtype));
  acl__nn_val pv;
  acl__nn_const_of(pScalar, ACL_DOUBLE, &pv);
  reduce_call c = {.api = api,
                   .api2 = "aclnnNorm",
                   .kind = RK_NORM,
                   .self = self,
                   .out = out,
                   .dim_name = "dim",
                   .dims = dv,
                   .ndims = n,
                   .keep = keepdim,
                   .dtype = ACL_DT_UNDEFINED,
                   .in_types = FLT3,
                   .out_types = FLT3,
                   .out_same = 1};
  c.p = pv.d;
  return reduce_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnNorm)
