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
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

enum { RK_SUM, RK_MEAN, RK_MAX, RK_MIN, RK_ARGMAX, RK_ARGMIN, RK_COPY };

typedef struct reduce_job {
  acl__nn_job base; /* t[0] self, t[1] out */
  int kind;
  int k;               /* self's view: kept dims [0, k), reduced dims [k, rank) */
  acl__nn_tref vx, vo; /* vo: out as rank k (kept dims only) */
  int in_int;          /* the elements are read as int64 (integral / bool self and a non-floating result) */
  aclDataType cdt;     /* the type the sum / mean is computed in (ReduceSum's dtype, Mean's dtype) */
  int64_t len, rows;
} reduce_job;

typedef struct reduce_work {
  const reduce_job *j;
  char *const *ptr;
  int failed;
} reduce_work;

static void reduce_rows(int64_t begin, int64_t end, void *arg) {
  reduce_work *w = arg;
  const reduce_job *j = w->j;
  void *mem = malloc((size_t)(j->len > 0 ? j->len : 1) * 8);
  if (mem == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  for (int64_t r = begin; r < end; r++) {
    int64_t iv = 0;
    double dv = 0;
    int is_int = 0; /* the result is iv */
    if (j->in_int) {
      int64_t *b = mem;
      acl__nn_gather_i64(&j->vx, w->ptr[0], j->k, r, b);
      if (j->cdt != ACL_DT_UNDEFINED && j->cdt != ACL_BOOL) /* convert to the sum's type first (torch's dtype) */
        for (int64_t i = 0; i < j->len; i++) {
          int64_t x = b[i];
          acl__nn_store_i64((char *)&b[i], 0, 1, j->cdt, &x);
          acl__nn_load_i64(&b[i], (const char *)&b[i], 0, 1, j->cdt);
        }
      is_int = 1;
      switch (j->kind) {
      case RK_SUM: {
        uint64_t s = 0;
        for (int64_t i = 0; i < j->len; i++)
          s += (uint64_t)b[i];
        iv = (int64_t)s;
        break;
      }
      case RK_MAX:
      case RK_MIN:
        iv = j->len > 0 ? b[0] : 0;
        for (int64_t i = 1; i < j->len; i++)
          iv = j->kind == RK_MAX ? (b[i] > iv ? b[i] : iv) : (b[i] < iv ? b[i] : iv);
        break;
      default: { /* ArgMax / ArgMin */
        int64_t best = 0;
        for (int64_t i = 1; i < j->len; i++)
          if (j->kind == RK_ARGMAX ? b[i] > b[best] : b[i] < b[best])
            best = i;
        iv = best;
        break;
      }
      }
    } else {
      double *b = mem;
      acl__nn_gather_f64(&j->vx, w->ptr[0], j->k, r, b);
      if (j->cdt == ACL_FLOAT16 || j->cdt == ACL_BF16 || j->cdt == ACL_FLOAT)
        for (int64_t i = 0; i < j->len; i++) { /* the elements as the computing type holds them */
          double x = b[i];
          acl__nn_store_f64((char *)&b[i], 0, 1, j->cdt, &x);
          acl__nn_load_f64(&b[i], (const char *)&b[i], 0, 1, j->cdt);
        }
      switch (j->kind) {
      case RK_SUM:
      case RK_MEAN:
        for (int64_t i = 0; i < j->len; i++)
          dv += b[i];
        if (j->kind == RK_MEAN)
          dv = j->len > 0 ? dv / (double)j->len : NAN;
        break;
      case RK_COPY:
        dv = b[0];
        break;
      case RK_MAX:
      case RK_MIN:
        dv = j->len > 0 ? b[0] : 0;
        for (int64_t i = 1; i < j->len && dv == dv; i++)
          if (b[i] != b[i] || (j->kind == RK_MAX ? b[i] > dv : b[i] < dv))
            dv = b[i];
        break;
      default: {
        int64_t best = 0;
        for (int64_t i = 1; i < j->len && b[best] == b[best]; i++)
          if (b[i] != b[i] || (j->kind == RK_ARGMAX ? b[i] > b[best] : b[i] < b[best]))
            best = i;
        iv = best;
        is_int = 1;
        break;
      }
      }
    }
    char tmp[16];
    if (is_int)
      acl__nn_store_i64(tmp, 0, 1, j->vo.dtype, &iv);
    else
      acl__nn_store_f64(tmp, 0, 1, j->vo.dtype, &dv);
    /* the element of out for row r (vo has rank k: one element per row) */
    int64_t off = 0, rem = r;
    for (int d = j->vo.rank - 1; d >= 0; d--) {
      off += (rem % j->vo.dims[d]) * j->vo.st[d];
      rem /= j->vo.dims[d];
    }
    size_t es = acl__nn_dtype_size(j->vo.dtype);
    memcpy(w->ptr[1] + off * (int64_t)es, tmp, es);
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
  int out_same; /* out's type must be self's */
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
  if (c->out_same && out->dtype != self->dtype)
    return ACL__FAIL(
        ACLNN_ERR_PARAM_INVALID, "out is %s but self is %s: %s writes self's type. Remedy: create out as %s",
        acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(self->dtype), api2, acl__nn_dtype_name(self->dtype));
  if (c->dtype != ACL_DT_UNDEFINED && out->dtype != c->dtype)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out is %s but dtype is %s: the result is dtype's type. Remedy: create out "
                     "as %s",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(c->dtype), acl__nn_dtype_name(c->dtype));
  int rank = (int)self->ndim, r1 = rank > 0 ? rank : 1;
  int red[ACL__NN_MAX_RANK] = {0}, nred = 0;
  for (uint64_t i = 0; i < c->ndims; i++) {
    int64_t d = c->dims[i];
    if (d < -r1 || d >= r1)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "%s holds %lld, out of range for self of %d dims ([%d, %d]). Remedy: name dims of self",
                       c->dim_name, (long long)d, rank, -r1, r1 - 1);
    int dd = (int)(d < 0 ? d + r1 : d);
    if (rank == 0)
      continue;
    if (red[dd])
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "%s names dim %d twice. Remedy: name each dim once", c->dim_name, dd);
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
  int same = (int)out->ndim == wr;
  for (int d = 0; same && d < wr; d++)
    same = out->dims[d] == want[d];
  if (!same)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out has shape %s; %s of self %s writes %s. Remedy: create out with that "
                     "shape",
                     acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1), api2,
                     acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2),
                     acl__nn_shape_text(want, (uint64_t)wr, s3, sizeof s3));
  int64_t len = 1;
  for (int d = 0; d < rank; d++)
    if (red[d])
      len *= self->dims[d];
  int64_t rows = acl__nn_numel(out);
  if (len == 0 && rows > 0 && c->kind != RK_SUM && c->kind != RK_MEAN)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "%s of self %s reduces empty dims: there is no maximum or minimum of no "
                     "elements. Remedy: reduce non-empty dims",
                     api2, acl__nn_shape_text(self->dims, self->ndim, s1, sizeof s1));

  reduce_job *j = acl__nn_job_new(sizeof *j, reduce_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->kind = c->kind;
  int ix = acl__nn_job_tensor(ex, self, "self", 0), io = acl__nn_job_tensor(ex, out, "out", 1);
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
  j->len = len;
  j->rows = rows;
  aclDataType rt = c->dtype != ACL_DT_UNDEFINED ? c->dtype : out->dtype;
  j->cdt = c->kind == RK_SUM || c->kind == RK_MEAN ? rt : ACL_DT_UNDEFINED;
  j->in_int =
      c->kind != RK_COPY && !acl__nn_is_float(self->dtype) && (j->cdt == ACL_DT_UNDEFINED || !acl__nn_is_float(j->cdt));
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
  reduce_call c = {__func__, "aclnnReduceSum", RK_SUM, self, out, "dims", dv, n, keepDims, dtype, SUM_T, SUM_T, 0};
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
  reduce_call c = {__func__, "aclnnMean", RK_MEAN, self, out, "dim", dv, n, keepDim, dtype, MEAN_T, ACL__NN_FLOATS, 0};
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
  reduce_call c = {__func__,
                   "aclnnMeanV2",
                   n == 0 && noopWithEmptyAxes ? RK_COPY : RK_MEAN,
                   self,
                   out,
                   "dim",
                   dv,
                   n,
                   keepDim,
                   ACL_DT_UNDEFINED,
                   MEAN_T,
                   ACL__NN_FLOATS,
                   0};
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
  reduce_call c = {api, api2, kind, self, out, "dim", dv, n, keepDim, ACL_DT_UNDEFINED, MAX_T, MAX_T, 1};
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
  reduce_call c = {api, api2, kind, self, out, "dim", &dim, 1, keepdim, ACL_DT_UNDEFINED, ARG_T, IDX_T, 0};
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
