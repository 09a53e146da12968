/*
 * clamp.c - the clamp family of reference aclnn.md section 8.3: Clamp,
 * ClampMin, ClampMax, InplaceClampMax with scalar bounds; ClampTensor,
 * ClampMinTensor, ClampMaxTensor and the in-place tensor forms.
 *
 * Scalar bounds run on the element-wise engine (kernel.c) in self's type:
 * each bound is converted to that type (it must cast to it) and kept in the
 * plan; an absent bound is -inf / +inf.  ClampMinTensor / ClampMaxTensor
 * are Maximum / Minimum with the Tensor (+) Tensor promotion (NaN in either
 * operand wins, as torch's clamp).  ClampTensor has three tensors, one more
 * than an element-wise plan: it is a job that walks the broadcast shape row
 * by row in double (int64 values beyond 2^53 lose their last bits).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_clamp.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define CLAMP_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))
#define OUT_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))

/* A bound: NULL (absent: `absent`) or a real scalar castable to self's type, converted to it. */
static int clamp_bound(const char *api, const char *name, const aclScalar *s, const aclTensor *self, double absent,
                       double *v) {
  int rc = 0;
  if (s == NULL) {
    *v = absent;
    return 0;
  }
  if (acl__nn_scalar_arg(api, name, s, &rc) == NULL)
    return rc;
  if ((unsigned)s->dtype >= 64 || !(ACL__NN_ARITH & ACL__NN_BIT(s->dtype)) || !acl__nn_can_cast(s->dtype, self->dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s, which cannot be cast to self's %s. Remedy: give the bound as a value of self's kind",
                     name, acl__nn_dtype_name(s->dtype), acl__nn_dtype_name(self->dtype));
  acl__nn_val x;
  acl__nn_const_of(s, self->dtype, &x);
  *v = acl__nn_is_float(self->dtype) ? x.d : (double)x.i;
  return 0;
}

/* need: 3 at least one bound (Clamp), 1 clipValueMin, 2 clipValueMax. */
static aclnnStatus clamp_scalar(const char *api, const char *api2, const char *name, const aclTensor *self,
                                const aclScalar *lo, const aclScalar *hi, int need, const char *out_name,
                                const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  double prm[3] = {-INFINITY, INFINITY, 0};
  if (acl__nn_tensor_arg(api, name, self, &rc) == NULL)
    return rc;
  if ((need == 3 && lo == NULL && hi == NULL) || (need == 1 && lo == NULL) || (need == 2 && hi == NULL))
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL%s",
                     need == 2   ? "clipValueMax"
                     : need == 1 ? "clipValueMin"
                                 : "clipValueMin and clipValueMax",
                     need == 3 ? ": aclnnClamp needs at least one bound" : "");
  if ((rc = acl__nn_check_type(api, api2, "tensor", name, self->dtype, CLAMP_T)) != 0 ||
      (rc = clamp_bound(api, "clipValueMin", lo, self, -INFINITY, &prm[0])) != 0 ||
      (rc = clamp_bound(api, "clipValueMax", hi, self, INFINITY, &prm[1])) != 0)
    return rc;
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = ACL__NN_CLAMP,
      .rule = ACL__NN_RULE_SELF,
      .in_types = CLAMP_T,
      .out_types = OUT_T,
      .name = {name, NULL},
      .t = {self, NULL},
      .nin = 1,
      .out = out,
      .out_name = out_name != NULL ? out_name : name,
      .inplace = out_name == NULL,
      .prm = {prm[0], prm[1], 0},
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

aclnnStatus aclnnClampGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin,
                                       const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
  return clamp_scalar(__func__, "aclnnClamp", "self", self, clipValueMin, clipValueMax, 3, "out", out, workspaceSize,
                      executor);
}
ACL__NN_PHASE2(aclnnClamp)

aclnnStatus aclnnClampMinGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_scalar(__func__, "aclnnClampMin", "self", self, clipValueMin, NULL, 1, "out", out, workspaceSize,
                      executor);
}
ACL__NN_PHASE2(aclnnClampMin)

aclnnStatus aclnnClampMaxGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMax, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_scalar(__func__, "aclnnClampMax", "self", self, NULL, clipValueMax, 2, "out", out, workspaceSize,
                      executor);
}
ACL__NN_PHASE2(aclnnClampMax)

aclnnStatus aclnnInplaceClampMaxGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *clipValueMax,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_scalar(__func__, "aclnnInplaceClampMax", "selfRef", selfRef, NULL, clipValueMax, 2, NULL, NULL,
                      workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceClampMax)

/* ---- tensor bounds ------------------------------------------------------------------------------ */

static aclnnStatus clamp_one_tensor(const char *api, const char *api2, acl__nn_op op, const char *name,
                                    const aclTensor *self, const char *bname, const aclTensor *bound, int inplace,
                                    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .rule = ACL__NN_RULE_TT,
      .in_types = CLAMP_T,
      .out_types = OUT_T,
      .name = {name, bname},
      .t = {self, bound},
      .nin = 2,
      .out = out,
      .out_name = inplace ? name : "out",
      .inplace = inplace,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}

aclnnStatus aclnnClampMinTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_one_tensor(__func__, "aclnnClampMinTensor", ACL__NN_MAX, "self", self, "clipValueMin", clipValueMin, 0,
                          out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnClampMinTensor)

aclnnStatus aclnnClampMaxTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *max, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_one_tensor(__func__, "aclnnClampMaxTensor", ACL__NN_MIN, "self", self, "max", max, 0, out, workspaceSize,
                          executor);
}
ACL__NN_PHASE2(aclnnClampMaxTensor)

aclnnStatus aclnnInplaceClampMinTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *clipValueMin,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_one_tensor(__func__, "aclnnInplaceClampMinTensor", ACL__NN_MAX, "selfRef", selfRef, "clipValueMin",
                          clipValueMin, 1, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceClampMinTensor)

aclnnStatus aclnnInplaceClampMaxTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *max,
                                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return clamp_one_tensor(__func__, "aclnnInplaceClampMaxTensor", ACL__NN_MIN, "selfRef", selfRef, "max", max, 1, NULL,
                          workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceClampMaxTensor)

/* ClampTensor: self, clipValueMin, clipValueMax broadcast together (a job, three inputs). */
typedef struct clamp_job {
  acl__nn_job base;  /* self, min, max, out */
  acl__nn_tref v[4]; /* each over the broadcast shape (stride 0 where broadcast) */
  aclDataType cdt;   /* the common type: the operands are rounded to it */
  int64_t rows, len;
} clamp_job;

typedef struct clamp_work {
  const clamp_job *j;
  char *const *ptr;
  int failed;
} clamp_work;

static void clamp_rows(int64_t begin, int64_t end, void *arg) {
  clamp_work *w = arg;
  const clamp_job *j = w->j;
  double *b = malloc((size_t)j->len * 3 * sizeof(double) + 1);
  if (b == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  int k = j->v[3].rank - 1;
  for (int64_t r = begin; r < end; r++) {
    for (int i = 0; i < 3; i++) {
      double *d = b + i * j->len;
      acl__nn_gather_f64(&j->v[i], w->ptr[i], k, r, d);
      for (int64_t c = 0; c < j->len; c++) { /* as the common type holds it */
        double x = d[c];
        acl__nn_store_f64((char *)&d[c], 0, 1, j->cdt, &x);
        acl__nn_load_f64(&d[c], (const char *)&d[c], 0, 1, j->cdt);
      }
    }
    for (int64_t c = 0; c < j->len; c++) {
      double x = b[c], lo = b[j->len + c], hi = b[2 * j->len + c];
      x = x != x || lo != lo ? (x != x ? x : lo) : x < lo ? lo : x;
      b[c] = x != x || hi != hi ? (x != x ? x : hi) : x > hi ? hi : x;
    }
    acl__nn_scatter_f64(&j->v[3], w->ptr[3], k, r, b);
  }
  free(b);
}

static int clamp_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const clamp_job *j = (const clamp_job *)base;
  clamp_work w = {j, ptr, 0};
  int rc = acl__nn_parallel(dev, j->rows, j->len * 4, clamp_rows, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

aclnnStatus aclnnClampTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *clipValueMin,
                                             const aclTensor *clipValueMax, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnClampTensor";
  int rc = 0;
  char s1[200], s2[200];
  const aclTensor *ts[4] = {self, clipValueMin, clipValueMax, out};
  const char *names[4] = {"self", "clipValueMin", "clipValueMax", "out"};
  for (int i = 0; i < 4; i++)
    if (acl__nn_tensor_arg(api, names[i], ts[i], &rc) == NULL)
      return rc;
  if (workspaceSize == NULL || executor == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", workspaceSize == NULL ? "workspaceSize" : "executor");
  for (int i = 0; i < 4; i++)
    if ((rc = acl__nn_check_dims(api, api2, names[i], ts[i])) != 0 ||
        (rc = acl__nn_check_type(api, api2, i == 3 ? "output" : "tensor", names[i], ts[i]->dtype,
                                 i == 3 ? OUT_T : CLAMP_T)) != 0)
      return rc;
  aclDataType cdt = acl__nn_promote(acl__nn_promote(self->dtype, clipValueMin->dtype), clipValueMax->dtype);
  if (cdt == ACL_DT_UNDEFINED || !acl__nn_can_cast(cdt, out->dtype))
    return ACL__FAIL(
        ACLNN_ERR_PARAM_INVALID,
        "self, clipValueMin and clipValueMax (%s, %s, %s) have no common type out (%s) takes. Remedy: cast "
        "them to one type",
        acl__nn_dtype_name(self->dtype), acl__nn_dtype_name(clipValueMin->dtype),
        acl__nn_dtype_name(clipValueMax->dtype), acl__nn_dtype_name(out->dtype));
  int rank = 0;
  int64_t dims[ACL__NN_MAX_RANK];
  for (int i = 0; i < 3; i++) {
    const aclTensor *t = ts[i];
    int r = (int)t->ndim;
    if (r > rank) {
      memmove(dims + (r - rank), dims, (size_t)rank * sizeof(int64_t));
      for (int q = 0; q < r - rank; q++)
        dims[q] = 1;
      rank = r;
    }
    for (int q = 0; q < r; q++) {
      int64_t *o = &dims[rank - r + q], dd = t->dims[q];
      if (*o == dd || dd == 1)
        continue;
      if (*o != 1)
        return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                         "%s %s does not broadcast with the others. Remedy: give shapes that "
                         "broadcast (equal dims or 1)",
                         names[i], acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1));
      *o = dd;
    }
  }
  int same = (int)out->ndim == rank;
  for (int q = 0; same && q < rank; q++)
    same = out->dims[q] == dims[q];
  if (!same)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out has shape %s; aclnnClampTensor writes %s. Remedy: create out with "
                     "that shape",
                     acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1),
                     acl__nn_shape_text(dims, (uint64_t)rank, s2, sizeof s2));
  clamp_job *j = acl__nn_job_new(sizeof *j, clamp_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  for (int i = 0; i < 4; i++) {
    int t = acl__nn_job_tensor(ex, ts[i], names[i], i == 3);
    acl__nn_tref *v = &j->v[i];
    *v = j->base.t[t];
    int r = (int)ts[i]->ndim;
    v->rank = rank > 0 ? rank : 1;
    for (int q = 0; q < v->rank; q++) {
      int src = q - (rank - r);
      int64_t dim = rank > 0 ? dims[q] : 1;
      v->dims[q] = dim;
      v->st[q] = src >= 0 && ts[i]->dims[src] == dim && rank > 0 ? ts[i]->strides[src] : 0;
    }
  }
  j->cdt = cdt;
  j->base.pointwise = 1; /* rows of self and the bounds gathered, then the row of out written */
  j->len = j->v[3].dims[j->v[3].rank - 1];
  j->rows = j->len > 0 ? acl__nn_numel(out) / j->len : 0;
  ex->empty = acl__nn_numel(out) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnClampTensor)
