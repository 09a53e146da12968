/*
 * select.c - the element-wise selections of reference aclnn.md section
 * 8.9: SWhere (out = condition ? self : other, three-way broadcast, self and
 * other promoted by the Tensor (+) Tensor table) and OneHot.
 *
 * SWhere rounds the chosen element to the promoted type, then to out's
 * (an int32 chosen beside a float16 is the float16 value); complex
 * operands are taken only when self, other and out are all one complex
 * type (copied as they are).  OneHot writes offValue everywhere but where
 * the class equals self's value (a value outside [0, numClasses) selects
 * no class, as the vendor's OneHot).
 */
#include <string.h>

#include "aclnn/index.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_s_where.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

/* ---- SWhere ----------------------------------------------------------------------------- */

typedef struct where_job {
  acl__nn_job base; /* condition, self, other, out (the inputs broadcast to out) */
  aclDataType cdt;  /* the promoted type */
} where_job;

typedef struct where_work {
  const where_job *j;
  char *const *ptr;
} where_work;

static void where_range(int64_t begin, int64_t end, void *arg) {
  const where_work *w = arg;
  const acl__nn_tref *t = w->j->base.t, *o = &t[3];
  int64_t c[ACL__NN_MAX_RANK];
  _Alignas(16) unsigned char tmp[16];
  for (int64_t i = begin; i < end; i++) {
    acl__ix_unravel(i, o->rank, o->dims, c);
    int pick = acl__ix_index(acl__ix_at(&t[0], w->ptr[0], acl__ix_off(&t[0], c)), t[0].dtype) != 0 ? 1 : 2;
    const char *src = acl__ix_at(&t[pick], w->ptr[pick], acl__ix_off(&t[pick], c));
    acl__ix_convert((char *)tmp, w->j->cdt, src, t[pick].dtype);
    acl__ix_convert(acl__ix_at(o, w->ptr[3], acl__ix_off(o, c)), o->dtype, (const char *)tmp, w->j->cdt);
  }
}

static int where_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  where_work w = {(const where_job *)base, ptr};
  return acl__nn_parallel(dev, acl__nn_tref_numel(&base->t[3], 0, base->t[3].rank), 6, where_range, &w);
}

aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition, const aclTensor *self, const aclTensor *other,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSWhere";
  acl__ix_arg a[4] = {{"condition", condition, 0, 0, ACL__IX_MASK},
                      {"self", self, 0, 0, 0},
                      {"other", other, 0, 0, 0},
                      {"out", out, 1, 0, 0}};
  int rc = acl__ix_check(api, api2, a, 4, workspaceSize, executor);
  if (rc != 0)
    return rc;
  aclDataType cdt = acl__nn_promote(self->dtype, other->dtype);
  int cplx = acl__nn_is_complex(self->dtype) || acl__nn_is_complex(other->dtype) || acl__nn_is_complex(out->dtype);
  if (cplx && !(self->dtype == other->dtype && other->dtype == out->dtype))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "self is %s, other %s and out %s: complex operands are taken only when all three are one type. "
                     "Remedy: cast them to one complex type",
                     acl__nn_dtype_name(self->dtype), acl__nn_dtype_name(other->dtype), acl__nn_dtype_name(out->dtype));
  if (cplx)
    cdt = out->dtype;
  if (cdt == ACL_DT_UNDEFINED)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "self (%s) and other (%s) have no common type (reference section 7.1). Remedy: cast one of them",
                     acl__nn_dtype_name(self->dtype), acl__nn_dtype_name(other->dtype));
  if (!acl__nn_can_cast(cdt, out->dtype))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out is %s, which the common type %s of self and other does not cast to. Remedy: create out of "
                     "type %s",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(cdt), acl__nn_dtype_name(cdt));
  /* the broadcast shape of the three */
  const aclTensor *in[3] = {condition, self, other};
  int r = 0;
  int64_t bd[ACL__NN_MAX_RANK];
  for (int i = 0; i < 3; i++)
    if ((int)in[i]->ndim > r)
      r = (int)in[i]->ndim;
  for (int k = 0; k < r; k++) {
    bd[k] = 1;
    for (int i = 0; i < 3; i++) {
      int ki = k - (r - (int)in[i]->ndim);
      if (ki >= 0 && in[i]->dims[ki] != 1)
        bd[k] = in[i]->dims[ki];
    }
  }
  if ((rc = acl__ix_broadcasts(api, "condition", condition, r, bd)) != 0 ||
      (rc = acl__ix_broadcasts(api, "self", self, r, bd)) != 0 ||
      (rc = acl__ix_broadcasts(api, "other", other, r, bd)) != 0 ||
      (rc = acl__nn_check_shape(api, api2, "out", out, bd, r)) != 0)
    return rc;
  aclOpExecutor *ex;
  int ti[4];
  where_job *j = acl__ix_job(api, api2, sizeof *j, where_run, a, 4, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->cdt = cdt;
  for (int i = 0; i < 3; i++)
    acl__ix_broadcast_view(&j->base.t[i], j->base.t[3].rank, j->base.t[3].dims);
  ex->empty = acl__nn_numel(out) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSWhere)

/* ---- OneHot ----------------------------------------------------------------------------- */

typedef struct onehot_job {
  acl__nn_job base; /* self, onValue, offValue, out */
  int axis;         /* the classes' dim of out */
  int srank;        /* self's rank (0-D: 0) */
} onehot_job;

typedef struct onehot_work {
  const onehot_job *j;
  char *const *ptr;
} onehot_work;

static void onehot_range(int64_t begin, int64_t end, void *arg) {
  const onehot_work *w = arg;
  const onehot_job *j = w->j;
  const acl__nn_tref *s = &j->base.t[0], *o = &j->base.t[3];
  size_t es = acl__nn_dtype_size(o->dtype);
  int64_t c[ACL__NN_MAX_RANK + 1], sc[ACL__NN_MAX_RANK];
  for (int64_t i = begin; i < end; i++) {
    acl__ix_unravel(i, o->rank, o->dims, c);
    int q = 0;
    for (int k = 0; k < o->rank; k++)
      if (k != j->axis)
        sc[q++] = c[k];
    if (j->srank == 0)
      sc[0] = 0;
    int64_t v = acl__ix_index(acl__ix_at(s, w->ptr[0], acl__ix_off(s, sc)), s->dtype);
    memcpy(acl__ix_at(o, w->ptr[3], acl__ix_off(o, c)), v == c[j->axis] ? w->ptr[1] : w->ptr[2], es);
  }
}

static int onehot_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  onehot_work w = {(const onehot_job *)base, ptr};
  return acl__nn_parallel(dev, acl__nn_tref_numel(&base->t[3], 0, base->t[3].rank), 4, onehot_range, &w);
}

aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor *self, int numClasses, const aclTensor *onValue,
                                        const aclTensor *offValue, int64_t axis, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnOneHot";
  acl__ix_arg a[4] = {{"self", self, 0, 0, ACL__IX_INDEX | ACL__NN_BIT(ACL_UINT8)},
                      {"onValue", onValue, 0, 0, ACL__IX_REAL},
                      {"offValue", offValue, 0, 0, ACL__IX_REAL},
                      {"out", out, 1, 0, ACL__IX_REAL}};
  int rc = acl__ix_check(api, api2, a, 4, workspaceSize, executor);
  if (rc != 0)
    return rc;
  int rs = (int)self->ndim;
  if (numClasses < 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "numClasses is %d; it must be >= 0. Remedy: pass the class count",
                     numClasses);
  if (axis < -1 || axis > rs)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "axis is %lld; for self of %d dims it lies in [-1, %d] (-1: last). Remedy: pass such an axis",
                     (long long)axis, rs, rs);
  if (rs + 1 > ACL__NN_MAX_RANK)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "self has %d dims; out would have %d, more than %d. Remedy: merge dims",
                     rs, rs + 1, ACL__NN_MAX_RANK);
  const aclTensor *vals[2] = {onValue, offValue};
  for (int i = 0; i < 2; i++)
    if (vals[i]->dtype != out->dtype || acl__nn_numel(vals[i]) < 1)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "%s is %s with %lld elements; it must hold at least one element of out's type %s. Remedy: "
                       "pass such a tensor",
                       i == 0 ? "onValue" : "offValue", acl__nn_dtype_name(vals[i]->dtype),
                       (long long)acl__nn_numel(vals[i]), acl__nn_dtype_name(out->dtype));
  int ax = axis < 0 ? rs : (int)axis;
  int64_t want[ACL__NN_MAX_RANK];
  for (int k = 0, q = 0; k <= rs; k++)
    want[k] = k == ax ? numClasses : self->dims[q++];
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, rs + 1)) != 0)
    return rc;
  aclOpExecutor *ex;
  int ti[4];
  onehot_job *j = acl__ix_job(api, api2, sizeof *j, onehot_run, a, 4, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->axis = ax;
  j->srank = rs;
  ex->empty = acl__nn_numel(out) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnOneHot)
