/*
 * scan.c - the scans and sorts of reference aclnn.md section 8.11: Cumsum
 * and CumsumV2 (exclusive, reverse), Sort, Argsort and Topk, along one dim.
 *
 * The dim is moved to the end of every view (nothing is copied) and each
 * line is read into a buffer: double for floating types (exact for all of
 * them), int64 for the integers and bool.  Sums accumulate in that class and
 * are rounded to out's type per element (integers wrap as it does).  Sorts
 * order (value, index) pairs, ties by index, so every sort is stable; NaN
 * sorts above every number (last ascending, first descending), as torch's.
 * Lines are shared out over the device's executors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_argsort.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

enum { SK_CUMSUM, SK_SORT, SK_TOPK };

typedef struct scan_job {
  acl__nn_job base; /* self, out / values[, indices] */
  int kind;
  int ti_v, ti_i;          /* values (-1: Argsort) and indices (-1: Cumsum) */
  acl__nn_tref vx, vv, vi; /* the dim last */
  int64_t lines, len, k;   /* k: elements written per line (Topk), else len */
  int in_int;              /* lines read as int64 */
  aclDataType cdt;         /* Cumsum: the type the sum is computed in */
  int exclusive, reverse, descending;
} scan_job;

typedef struct scan_elem {
  double d;
  int64_t i, idx;
} scan_elem;

static _Thread_local int scan_desc, scan_int; /* the comparison's order and class (qsort has no argument) */

static int scan_cmp(const void *pa, const void *pb) {
  const scan_elem *a = pa, *b = pb;
  int c;
  if (scan_int) {
    c = (a->i > b->i) - (a->i < b->i);
  } else {
    int na = a->d != a->d, nb = b->d != b->d; /* NaN above every number */
    c = na || nb ? na - nb : (a->d > b->d) - (a->d < b->d);
  }
  if (scan_desc)
    c = -c;
  return c != 0 ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

typedef struct scan_work {
  const scan_job *j;
  char *const *ptr;
  int failed;
} scan_work;

static void scan_lines(int64_t begin, int64_t end, void *arg) {
  scan_work *w = arg;
  const scan_job *j = w->j;
  int64_t n = j->len > 0 ? j->len : 1;
  double *d = malloc((size_t)n * sizeof(double));
  int64_t *iv = malloc((size_t)n * sizeof(int64_t)), *ix = malloc((size_t)n * sizeof(int64_t));
  scan_elem *e = j->kind == SK_CUMSUM ? NULL : malloc((size_t)n * sizeof(scan_elem));
  if (d == NULL || iv == NULL || ix == NULL || (j->kind != SK_CUMSUM && e == NULL)) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    goto out;
  }
  scan_desc = j->descending;
  scan_int = j->in_int;
  int k = j->vx.rank - 1;
  for (int64_t l = begin; l < end; l++) {
    if (j->in_int)
      acl__nn_gather_i64(&j->vx, w->ptr[0], k, l, iv);
    else
      acl__nn_gather_f64(&j->vx, w->ptr[0], k, l, d);
    if (j->kind == SK_CUMSUM) {
      uint64_t si = 0;
      double sd = 0;
      for (int64_t c = 0; c < j->len; c++) {
        int64_t at = j->reverse ? j->len - 1 - c : c;
        if (j->in_int) {
          int64_t x = iv[at];
          acl__nn_store_i64((char *)&x, 0, 1, j->cdt, &iv[at]); /* the element as the sum's type holds it */
          acl__nn_load_i64(&x, (const char *)&x, 0, 1, j->cdt);
          if (j->exclusive) {
            iv[at] = (int64_t)si;
            si += (uint64_t)x;
          } else {
            si += (uint64_t)x;
            iv[at] = (int64_t)si;
          }
        } else {
          double x = d[at];
          if (j->exclusive) {
            d[at] = sd;
            sd += x;
          } else {
            sd += x;
            d[at] = sd;
          }
        }
      }
      if (j->in_int)
        acl__nn_scatter_i64(&j->vv, w->ptr[j->ti_v], k, l, iv);
      else
        acl__nn_scatter_f64(&j->vv, w->ptr[j->ti_v], k, l, d);
      continue;
    }
    for (int64_t c = 0; c < j->len; c++) {
      e[c].d = j->in_int ? 0 : d[c];
      e[c].i = j->in_int ? iv[c] : 0;
      e[c].idx = c;
    }
    qsort(e, (size_t)j->len, sizeof *e, scan_cmp);
    for (int64_t c = 0; c < j->k; c++) {
      d[c] = e[c].d;
      iv[c] = e[c].i;
      ix[c] = e[c].idx;
    }
    if (j->ti_v >= 0) {
      if (j->in_int)
        acl__nn_scatter_i64(&j->vv, w->ptr[j->ti_v], k, l, iv);
      else
        acl__nn_scatter_f64(&j->vv, w->ptr[j->ti_v], k, l, d);
    }
    if (j->ti_i >= 0)
      acl__nn_scatter_i64(&j->vi, w->ptr[j->ti_i], k, l, ix);
  }
out:
  free(d);
  free(iv);
  free(ix);
  free(e);
}

static int scan_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const scan_job *j = (const scan_job *)base;
  scan_work w = {j, ptr, 0};
  int rc = acl__nn_parallel(dev, j->lines, j->len * (j->kind == SK_CUMSUM ? 2 : 16), scan_lines, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

/* ---- phase 1 ---------------------------------------------------------------------------------- */

typedef struct scan_call {
  const char *api, *api2;
  int kind;
  const aclTensor *self, *values, *indices;
  const char *vname, *iname;
  int64_t dim, k;
  uint64_t types;
  aclDataType vtype; /* the values' required type (ACL_DT_UNDEFINED: self's) */
  int exclusive, reverse, descending;
} scan_call;

static aclnnStatus scan_plan(const scan_call *c, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = c->api, *api2 = c->api2;
  const aclTensor *self = c->self;
  int rc = 0;
  char s1[200], s2[200];
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL ||
      (c->vname != NULL && acl__nn_tensor_arg(api, c->vname, c->values, &rc) == NULL) ||
      (c->iname != NULL && acl__nn_tensor_arg(api, c->iname, c->indices, &rc) == NULL))
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  if ((rc = acl__nn_check_dims(api, api2, "self", self)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, c->types)) != 0)
    return rc;
  aclDataType vt = c->vtype != ACL_DT_UNDEFINED ? c->vtype : self->dtype;
  if (c->values != NULL &&
      ((rc = acl__nn_check_dims(api, api2, c->vname, c->values)) != 0 ||
       (rc = acl__nn_check_type(api, api2, "output", c->vname, c->values->dtype, ACL__NN_BIT(vt))) != 0))
    return rc;
  if (c->indices != NULL &&
      ((rc = acl__nn_check_dims(api, api2, c->iname, c->indices)) != 0 ||
       (rc = acl__nn_check_type(api, api2, "output", c->iname, c->indices->dtype, ACL__NN_BIT(ACL_INT64))) != 0))
    return rc;
  int rank = (int)self->ndim, r1 = rank > 0 ? rank : 1;
  if (c->dim < -r1 || c->dim >= r1)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "dim is %lld, out of range for self of %d dims ([%d, %d]). Remedy: pass a dim of self",
                     (long long)c->dim, rank, -r1, r1 - 1);
  int d = rank == 0 ? 0 : (int)(c->dim < 0 ? c->dim + rank : c->dim);
  int64_t len = rank == 0 ? 1 : self->dims[d];
  if (c->kind == SK_TOPK && (c->k < 0 || c->k > len))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "k is %lld; it must lie in [0, %lld] (the size of dim %d). Remedy: pass such a k", (long long)c->k,
                     (long long)len, d);
  int64_t want[ACL__NN_MAX_RANK];
  for (int i = 0; i < rank; i++)
    want[i] = i == d && c->kind == SK_TOPK ? c->k : self->dims[i];
  const aclTensor *outs[2] = {c->values, c->indices};
  const char *names[2] = {c->vname, c->iname};
  for (int i = 0; i < 2; i++) {
    const aclTensor *t = outs[i];
    if (t == NULL)
      continue;
    int same = (int)t->ndim == rank;
    for (int q = 0; same && q < rank; q++)
      same = t->dims[q] == want[q];
    if (!same)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s; %s writes %s here. Remedy: create %s with that shape", names[i],
                       acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1), api2,
                       acl__nn_shape_text(want, (uint64_t)rank, s2, sizeof s2), names[i]);
  }
  scan_job *j = acl__nn_job_new(sizeof *j, scan_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->kind = c->kind;
  int ix = acl__nn_job_tensor(ex, self, "self", 0);
  j->ti_v = c->values != NULL ? acl__nn_job_tensor(ex, c->values, c->vname, 1) : -1;
  j->ti_i = c->indices != NULL ? acl__nn_job_tensor(ex, c->indices, c->iname, 1) : -1;
  acl__nn_tref *vs[3] = {&j->vx, &j->vv, &j->vi};
  const int src[3] = {ix, j->ti_v, j->ti_i};
  for (int i = 0; i < 3; i++) {
    if (src[i] < 0)
      continue;
    *vs[i] = j->base.t[src[i]];
    if (rank == 0) { /* a line of one */
      vs[i]->rank = 1;
      vs[i]->dims[0] = 1;
      vs[i]->st[0] = 0;
    } else {
      acl__nn_tref_move_last(vs[i], d);
    }
  }
  j->len = len;
  j->k = c->kind == SK_TOPK ? c->k : len;
  j->lines = len > 0 ? acl__nn_numel(self) / len : 0;
  j->cdt = vt;
  j->in_int = !acl__nn_is_float(self->dtype) && (c->kind != SK_CUMSUM || !acl__nn_is_float(vt));
  j->exclusive = c->exclusive;
  j->reverse = c->reverse;
  j->descending = c->descending;
  ex->empty = j->lines == 0 || j->k == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

#define CUM_T (ACL__NN_ARITH & ~ACL__NN_BIT(ACL_BOOL))
#define SORT_T (ACL__NN_ARITH)

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dtype, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  if (self != NULL && acl__nn_tensor_arg(__func__, "self", self, &rc) != NULL &&
      ((unsigned)dtype >= 64 || !(CUM_T & ACL__NN_BIT(dtype)) || !acl__nn_can_cast(self->dtype, dtype)))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "dtype is %s, which the sum of self (%s) cannot be computed in (floating to integral is "
                     "refused). Remedy: pass such a type",
                     acl__nn_dtype_name(dtype), acl__nn_dtype_name(self->dtype));
  scan_call c = {.api = __func__,
                 .api2 = "aclnnCumsum",
                 .kind = SK_CUMSUM,
                 .self = self,
                 .values = out,
                 .vname = "out",
                 .dim = dim,
                 .types = CUM_T,
                 .vtype = dtype};
  return scan_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnCumsum)

aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim, bool exclusive, bool reverse,
                                          aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  scan_call c = {.api = __func__,
                 .api2 = "aclnnCumsumV2",
                 .kind = SK_CUMSUM,
                 .self = self,
                 .values = out,
                 .vname = "out",
                 .dim = dim,
                 .types = CUM_T,
                 .vtype = ACL_DT_UNDEFINED,
                 .exclusive = exclusive,
                 .reverse = reverse};
  return scan_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnCumsumV2)

aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable, int64_t dim, bool descending,
                                      aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  (void)stable; /* every sort here is stable */
  scan_call c = {.api = __func__,
                 .api2 = "aclnnSort",
                 .kind = SK_SORT,
                 .self = self,
                 .values = valuesOut,
                 .indices = indicesOut,
                 .vname = "valuesOut",
                 .iname = "indicesOut",
                 .dim = dim,
                 .types = SORT_T,
                 .vtype = ACL_DT_UNDEFINED,
                 .descending = descending};
  return scan_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSort)

aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor *self, int64_t dim, bool descending, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  scan_call c = {.api = __func__,
                 .api2 = "aclnnArgsort",
                 .kind = SK_SORT,
                 .self = self,
                 .indices = out,
                 .iname = "out",
                 .dim = dim,
                 .types = SORT_T,
                 .vtype = ACL_DT_UNDEFINED,
                 .descending = descending};
  return scan_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnArgsort)

aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest, bool sorted,
                                      aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  (void)sorted; /* the k values always come in order */
  scan_call c = {.api = __func__,
                 .api2 = "aclnnTopk",
                 .kind = SK_TOPK,
                 .self = self,
                 .values = valuesOut,
                 .indices = indicesOut,
                 .vname = "valuesOut",
                 .iname = "indicesOut",
                 .dim = dim,
                 .k = k,
                 .types = SORT_T & ~ACL__NN_BIT(ACL_BOOL),
                 .vtype = ACL_DT_UNDEFINED,
                 .descending = largest};
  return scan_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnTopk)
