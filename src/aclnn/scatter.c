/*
 * scatter.c - the writes of reference aclnn.md section 8.9 that go through
 * an index or a mask: Scatter and ScatterValue (torch scatter along a dim,
 * reduce 0 replace, 1 add, 2 multiply; out-of-place and in-place) and
 * InplaceMaskedFillScalar / InplaceMaskedFillTensor.
 *
 * Scatter first copies self to out (not in place), then walks index in
 * row-major order on one thread, so repeated indices resolve as they do
 * in torch's CPU kernel (the last write wins; add and multiply combine
 * them all).  The value of ScatterValue and MaskedFillScalar is converted
 * to self's type in phase 1; MaskedFillTensor's one-element value is read
 * when the task runs.
 */
#include <string.h>

#include "aclnn/index.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_scatter.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

/* ---- Scatter ---------------------------------------------------------------------------- */

enum { SC_REPLACE = 0, SC_ADD = 1, SC_MUL = 2 };

typedef struct scatter_job {
  acl__nn_job base; /* self, index, [src,] out */
  const char *api2;
  int d, reduce, inplace;
  int ti_src; /* -1: the value */
  int ti_out;
  _Alignas(16) unsigned char value[16]; /* ScatterValue: the value as an element of self's type */
} scatter_job;

/* dst (op)= src, both elements of type t. */
static void scatter_combine(char *dst, const char *src, aclDataType t, int reduce) {
  if (reduce == SC_REPLACE) {
    memcpy(dst, src, acl__nn_dtype_size(t));
  } else if (acl__nn_class_of(t) == ACL__NN_I64) {
    int64_t a, b;
    acl__nn_load_i64(&a, dst, 0, 1, t);
    acl__nn_load_i64(&b, src, 0, 1, t);
    a = reduce == SC_ADD ? (int64_t)((uint64_t)a + (uint64_t)b) : (int64_t)((uint64_t)a * (uint64_t)b);
    acl__nn_store_i64(dst, 0, 1, t, &a);
  } else {
    double a, b;
    acl__nn_load_f64(&a, dst, 0, 1, t);
    acl__nn_load_f64(&b, src, 0, 1, t);
    a = reduce == SC_ADD ? a + b : a * b;
    acl__nn_store_f64(dst, 0, 1, t, &a);
  }
}

static int scatter_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  (void)dev;
  const scatter_job *j = (const scatter_job *)base;
  const acl__nn_tref *s = &base->t[0], *ix = &base->t[1], *o = &base->t[j->ti_out];
  size_t es = acl__nn_dtype_size(o->dtype);
  int64_t c[ACL__NN_MAX_RANK];
  if (!j->inplace) { /* out = self */
    int64_t n = acl__nn_tref_numel(o, 0, o->rank);
    for (int64_t i = 0; i < n; i++) {
      acl__ix_unravel(i, o->rank, o->dims, c);
      memcpy(acl__ix_at(o, ptr[j->ti_out], acl__ix_off(o, c)), acl__ix_at(s, ptr[0], acl__ix_off(s, c)), es);
    }
  }
  acl__ix_fault f = {0};
  int64_t n = acl__nn_tref_numel(ix, 0, ix->rank), bound = o->dims[j->d];
  for (int64_t i = 0; i < n; i++) {
    acl__ix_unravel(i, ix->rank, ix->dims, c);
    const char *src = (const char *)j->value;
    if (j->ti_src >= 0)
      src = acl__ix_at(&base->t[j->ti_src], ptr[j->ti_src], acl__ix_off(&base->t[j->ti_src], c));
    int64_t v = acl__ix_index(acl__ix_at(ix, ptr[1], acl__ix_off(ix, c)), ix->dtype);
    if (v < 0 || v >= bound) {
      acl__ix_fault_note(&f, "index", v, bound);
      continue;
    }
    c[j->d] = v;
    scatter_combine(acl__ix_at(o, ptr[j->ti_out], acl__ix_off(o, c)), src, o->dtype, j->reduce);
  }
  return acl__ix_fault_report(j->api2, &f);
}

static aclnnStatus scatter_plan(const char *api, const char *api2, const aclTensor *self, int64_t dim,
                                const aclTensor *index, const aclTensor *src, const aclScalar *value, int64_t reduce,
                                const aclTensor *out, int inplace, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *sname = inplace ? "selfRef" : "self";
  int rc = 0, d = 0;
  char s1[200], s2[200];
  if (src == NULL && acl__nn_scalar_arg(api, "value", value, &rc) == NULL)
    return rc;
  acl__ix_arg a[4] = {{sname, self, 0, 0, reduce != SC_REPLACE ? ACL__IX_REAL : 0},
                      {"index", index, 0, 0, ACL__IX_INDEX},
                      {"src", src, 0, value != NULL, 0},
                      {inplace ? sname : "out", out, 1, 0, 0}};
  if ((rc = acl__ix_check(api, api2, a, 4, workspaceSize, executor)) != 0)
    return rc;
  if (reduce < SC_REPLACE || reduce > SC_MUL)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "reduce is %lld; %s takes 0 (replace), 1 (add) or 2 (multiply). Remedy: pass one of those",
                     (long long)reduce, api2);
  int rs = (int)self->ndim;
  if ((rc = acl__ix_dim(api, "dim", dim, rs, &d)) != 0)
    return rc;
  const aclTensor *same[2] = {src, out};
  const char *names[2] = {"src", "out"};
  for (int i = 0; i < 2; i++)
    if (same[i] != NULL && same[i]->dtype != self->dtype)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s is %s and %s %s; they must be of one type. Remedy: cast %s to %s's type", names[i],
                       acl__nn_dtype_name(same[i]->dtype), sname, acl__nn_dtype_name(self->dtype), names[i], sname);
  int ok = (int)index->ndim == rs && (src == NULL || (int)src->ndim == rs);
  for (int k = 0; ok && k < rs; k++)
    ok = (k == d || index->dims[k] <= self->dims[k]) && (src == NULL || index->dims[k] <= src->dims[k]);
  if (!ok)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "index has shape %s and %s %s: index must have %s's rank, no dim larger than src's, and none "
                     "larger than %s's but dim %d. Remedy: pass such an index",
                     acl__nn_shape_text(index->dims, index->ndim, s1, sizeof s1), sname,
                     acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2), sname, sname, d);
  if (!inplace && (rc = acl__nn_check_shape(api, api2, "out", out, self->dims, rs)) != 0)
    return rc;
  if (src == NULL && acl__nn_is_complex(self->dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s: a scalar value is not converted to complex types here. Remedy: use aclnnScatter "
                     "with a src tensor",
                     sname, acl__nn_dtype_name(self->dtype));
  aclOpExecutor *ex;
  int ti[4];
  scatter_job *j = acl__ix_job(api, api2, sizeof *j, scatter_run, a, 4, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->api2 = api2;
  j->d = d;
  j->reduce = (int)reduce;
  j->inplace = inplace;
  j->ti_src = ti[2];
  j->ti_out = ti[3];
  if (src == NULL) {
    acl__nn_val v;
    acl__nn_const_of(value, self->dtype, &v);
    if (acl__nn_class_of(self->dtype) == ACL__NN_I64)
      acl__nn_store_i64((char *)j->value, 0, 1, self->dtype, &v.i);
    else
      acl__nn_store_f64((char *)j->value, 0, 1, self->dtype, &v.d);
  }
  ex->empty = acl__nn_numel(self) == 0 || (inplace && acl__nn_numel(index) == 0);
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
                                         const aclTensor *src, int64_t reduce, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  int rc = 0;
  if (src == NULL || acl__nn_tensor_arg(__func__, "src", src, &rc) == NULL)
    return src == NULL ? ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "src is NULL") : rc;
  return scatter_plan(__func__, "aclnnScatter", self, dim, index, src, NULL, reduce, out, 0, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnScatter)

aclnnStatus aclnnScatterValueGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index,
                                              const aclScalar *value, int64_t reduce, aclTensor *out,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
  return scatter_plan(__func__, "aclnnScatterValue", self, dim, index, NULL, value, reduce, out, 0, workspaceSize,
                      executor);
}
ACL__NN_PHASE2(aclnnScatterValue)

aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor *selfRef, int64_t dim, const aclTensor *index,
                                                const aclTensor *src, int64_t reduce, uint64_t *workspaceSize,
                                                aclOpExecutor **executor) {
  int rc = 0;
  if (src == NULL || acl__nn_tensor_arg(__func__, "src", src, &rc) == NULL)
    return src == NULL ? ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "src is NULL") : rc;
  return scatter_plan(__func__, "aclnnInplaceScatter", selfRef, dim, index, src, NULL, reduce, selfRef, 1,
                      workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceScatter)

aclnnStatus aclnnInplaceScatterValueGetWorkspaceSize(aclTensor *selfRef, int64_t dim, const aclTensor *index,
                                                     const aclScalar *value, int64_t reduce, uint64_t *workspaceSize,
                                                     aclOpExecutor **executor) {
  return scatter_plan(__func__, "aclnnInplaceScatterValue", selfRef, dim, index, NULL, value, reduce, selfRef, 1,
                      workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceScatterValue)

/* ---- MaskedFill ------------------------------------------------------------------------- */

typedef struct fill_job {
  acl__nn_job base; /* selfRef, mask (broadcast to selfRef), [value,] selfRef (written) */
  int ti_value;     /* -1: the scalar in `value` */
  int ti_out;
  _Alignas(16) unsigned char value[16];
} fill_job;

typedef struct fill_work {
  const fill_job *j;
  char *const *ptr;
  _Alignas(16) unsigned char value[16];
} fill_work;

static void fill_range(int64_t begin, int64_t end, void *arg) {
  const fill_work *w = arg;
  const acl__nn_tref *m = &w->j->base.t[1], *o = &w->j->base.t[w->j->ti_out];
  size_t es = acl__nn_dtype_size(o->dtype);
  int64_t c[ACL__NN_MAX_RANK];
  for (int64_t i = begin; i < end; i++) {
    acl__ix_unravel(i, o->rank, o->dims, c);
    if (acl__ix_index(acl__ix_at(m, w->ptr[1], acl__ix_off(m, c)), m->dtype) != 0)
      memcpy(acl__ix_at(o, w->ptr[w->j->ti_out], acl__ix_off(o, c)), w->value, es);
  }
}

static int fill_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const fill_job *j = (const fill_job *)base;
  fill_work w = {j, ptr, {0}};
  const acl__nn_tref *o = &base->t[j->ti_out];
  memcpy(w.value, j->value, sizeof w.value);
  if (j->ti_value >= 0)
    acl__ix_convert((char *)w.value, o->dtype, ptr[j->ti_value], base->t[j->ti_value].dtype);
  return acl__nn_parallel(dev, acl__nn_tref_numel(o, 0, o->rank), 4, fill_range, &w);
}

static aclnnStatus fill_plan(const char *api, const char *api2, aclTensor *self, const aclTensor *mask,
                             const aclTensor *vt, const aclScalar *vs, uint64_t *workspaceSize,
                             aclOpExecutor **executor) {
  int rc = 0;
  if (vt == NULL && acl__nn_scalar_arg(api, "value", vs, &rc) == NULL)
    return rc;
  acl__ix_arg a[4] = {{"selfRef", self, 0, 0, ACL__IX_REAL},
                      {"mask", mask, 0, 0, ACL__IX_MASK},
                      {"value", vt, 0, vs != NULL, ACL__IX_REAL},
                      {"selfRef", self, 1, 0, ACL__IX_REAL}};
  if ((rc = acl__ix_check(api, api2, a, 4, workspaceSize, executor)) != 0 ||
      (rc = acl__ix_broadcasts(api, "mask", mask, (int)self->ndim, self->dims)) != 0)
    return rc;
  aclDataType from = vt != NULL ? vt->dtype : vs->dtype;
  if (!acl__nn_can_cast(from, self->dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "value is %s, which does not cast to selfRef's %s. Remedy: pass a value of a type that does",
                     acl__nn_dtype_name(from), acl__nn_dtype_name(self->dtype));
  if (vt != NULL && acl__nn_numel(vt) != 1)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "value has %lld elements; it must be one element (0-D or [1]). Remedy: pass such a tensor",
                     (long long)acl__nn_numel(vt));
  aclOpExecutor *ex;
  int ti[4];
  fill_job *j = acl__ix_job(api, api2, sizeof *j, fill_run, a, 4, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->ti_value = ti[2];
  j->ti_out = ti[3];
  j->base.pointwise = 1; /* selfRef is read in place */
  acl__ix_broadcast_view(&j->base.t[1], j->base.t[ti[3]].rank, j->base.t[ti[3]].dims);
  if (vt == NULL) {
    acl__nn_val v;
    acl__nn_const_of(vs, self->dtype, &v);
    if (acl__nn_class_of(self->dtype) == ACL__NN_I64)
      acl__nn_store_i64((char *)j->value, 0, 1, self->dtype, &v.i);
    else
      acl__nn_store_f64((char *)j->value, 0, 1, self->dtype, &v.d);
  }
  ex->empty = acl__nn_numel(self) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                         const aclScalar *value, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor) {
  return fill_plan(__func__, "aclnnInplaceMaskedFillScalar", selfRef, mask, NULL, value, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceMaskedFillScalar)

aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
                                                         const aclTensor *value, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor) {
  int rc = 0;
  if (value == NULL || acl__nn_tensor_arg(__func__, "value", value, &rc) == NULL)
    return value == NULL ? ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "value is NULL") : rc;
  return fill_plan(__func__, "aclnnInplaceMaskedFillTensor", selfRef, mask, value, NULL, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceMaskedFillTensor)
