/*
 * fill.c - the fill, copy and creation operators of reference aclnn.md
 * section 8.12: InplaceCopy, InplaceZero, InplaceOne, InplaceFillScalar,
 * InplaceFillTensor, Arange and Range, planned as pieces of the copy engine
 * (copy.c).
 *
 * A fill reads nothing of selfRef: it counts as the operator's input and
 * output (the address setters' indices) but no copy of its old values is
 * made before the task runs.  Arange / Range compute element k as
 * start + k*step, in int64 when the three scalars are integral and out is
 * integral, else in double, then store it in out's type.
 */
#include <math.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_fill_tensor.h"
#include "aclnnop/aclnn_ones.h"
#include "aclnnop/aclnn_range.h"
#include "aclnnop/aclnn_zero.h"
#include "common/errmsg.h"
#include "prof/prof.h"

#define ALL_T                                                                                                          \
  (ACL__NN_ARITH | ACL__NN_BIT(ACL_UINT16) | ACL__NN_BIT(ACL_UINT32) | ACL__NN_BIT(ACL_UINT64) |                       \
   ACL__NN_BIT(ACL_COMPLEX64) | ACL__NN_BIT(ACL_COMPLEX128))
/* Arange / Range's out (reference 8.12). */
#define RANGE_T                                                                                                        \
  (ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_DOUBLE) | ACL__NN_BIT(ACL_INT32) |              \
   ACL__NN_BIT(ACL_INT64) | ACL__NN_BIT(ACL_BF16))

#define FILL_OPS(X)                                                                                                    \
  X(aclnnInplaceCopy)                                                                                                  \
  X(aclnnInplaceZero)                                                                                                  \
  X(aclnnInplaceOne)                                                                                                   \
  X(aclnnInplaceFillScalar)                                                                                            \
  X(aclnnInplaceFillTensor)                                                                                            \
  X(aclnnArange)                                                                                                       \
  X(aclnnRange)
FILL_OPS(ACL__NN_PHASE2)

/* selfRef = a value: the scalar s, or v when s is NULL (Zero, One). */
static aclnnStatus fill_value(const char *api, const char *api2, const aclTensor *selfRef, const aclScalar *s, double v,
                              int need_scalar, uint64_t *ws, aclOpExecutor **exo) {
  const char *names[1] = {"selfRef"};
  int rc = acl__nn_cp_args(api, api2, 1, &selfRef, names, ws, exo);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", "selfRef", selfRef->dtype, ALL_T)) != 0)
    return rc;
  if (need_scalar) {
    if (acl__nn_scalar_arg(api, "value", s, &rc) == NULL)
      return rc;
    if ((unsigned)s->dtype >= 64 || !(ALL_T & ACL__NN_BIT(s->dtype)) || !acl__nn_can_cast(s->dtype, selfRef->dtype))
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "value is %s, which cannot be cast to selfRef's %s. Remedy: give a value of selfRef's kind",
                       acl__nn_dtype_name(s->dtype), acl__nn_dtype_name(selfRef->dtype));
  }
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, 1);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  acl__nn_cp_tensor(ex, selfRef, "selfRef", ACL__NN_CP_IN_UNREAD);
  acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_FILL);
  acl__nn_cp_full(&p->dst, acl__nn_cp_tensor(ex, selfRef, "selfRef", ACL__NN_CP_OUT), selfRef);
  acl__nn_cp_const(ex, p, s, v);
  return acl__nn_cp_done(ex, ws, exo);
}

aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return fill_value(__func__, "aclnnInplaceZero", selfRef, NULL, 0, 0, workspaceSize, executor);
}

aclnnStatus aclnnInplaceOneGetWorkspaceSize(const aclTensor *selfRef, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return fill_value(__func__, "aclnnInplaceOne", selfRef, NULL, 1, 0, workspaceSize, executor);
}

aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *value, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return fill_value(__func__, "aclnnInplaceFillScalar", selfRef, value, 0, 1, workspaceSize, executor);
}

/* selfRef = src broadcast to selfRef's shape (src's dims equal or 1, right-aligned), converted. */
static aclnnStatus fill_copy(const char *api, const char *api2, const aclTensor *selfRef, const char *sname,
                             const aclTensor *src, int one_element, uint64_t *ws, aclOpExecutor **exo) {
  const aclTensor *ts[2] = {selfRef, src};
  const char *names[2] = {"selfRef", sname};
  char s1[200], s2[200];
  int rc = acl__nn_cp_args(api, api2, 2, ts, names, ws, exo);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", "selfRef", selfRef->dtype, ALL_T)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "tensor", sname, src->dtype, ALL_T)) != 0)
    return rc;
  if (one_element && (acl__nn_numel(src) != 1 || !acl__nn_can_cast(src->dtype, selfRef->dtype)))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "value is a %s tensor of shape %s; it must hold one element castable to selfRef's %s. Remedy: "
                     "give a 0-D or one-element tensor",
                     acl__nn_dtype_name(src->dtype), acl__nn_shape_text(src->dims, src->ndim, s1, sizeof s1),
                     acl__nn_dtype_name(selfRef->dtype));
  acl__nn_view sv, dv;
  acl__nn_cp_full(&dv, 0, selfRef);
  memset(&sv, 0, sizeof sv);
  sv.rank = dv.rank;
  int lead = (int)selfRef->ndim - (int)src->ndim;
  if (!one_element) {
    int ok = lead >= 0;
    for (int k = 0; ok && k < (int)src->ndim; k++)
      ok = src->dims[k] == selfRef->dims[lead + k] || src->dims[k] == 1;
    if (!ok)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "src %s does not broadcast to selfRef %s. Remedy: give src of selfRef's shape, or dims of 1 "
                       "where it repeats",
                       acl__nn_shape_text(src->dims, src->ndim, s1, sizeof s1),
                       acl__nn_shape_text(selfRef->dims, selfRef->ndim, s2, sizeof s2));
    for (int k = 0; k < (int)src->ndim; k++)
      sv.st[lead + k] = src->dims[k] == selfRef->dims[lead + k] ? src->strides[k] : 0;
  }
  memcpy(sv.dims, dv.dims, sizeof sv.dims);
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, 1);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  acl__nn_cp_tensor(ex, selfRef, "selfRef", ACL__NN_CP_IN_UNREAD);
  sv.t = acl__nn_cp_tensor(ex, src, sname, ACL__NN_CP_IN);
  dv.t = acl__nn_cp_tensor(ex, selfRef, "selfRef", ACL__NN_CP_OUT);
  acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_COPY);
  p->src = sv;
  p->dst = dv;
  ex->job->pointwise = 1; /* src element by element into selfRef's at the same position */
  return acl__nn_cp_done(ex, ws, exo);
}

aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return fill_copy(__func__, "aclnnInplaceCopy", selfRef, "src", src, 0, workspaceSize, executor);
}

aclnnStatus aclnnInplaceFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *value, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor) {
  return fill_copy(__func__, "aclnnInplaceFillTensor", selfRef, "value", value, 1, workspaceSize, executor);
}

/* ---- Arange / Range -------------------------------------------------------------------------------- */

static aclnnStatus fill_range(const char *api, const char *api2, const aclScalar *start, const aclScalar *end,
                              const aclScalar *step, int inclusive, aclTensor *out, uint64_t *ws, aclOpExecutor **exo) {
  int rc = 0;
  const aclScalar *ss[3] = {start, end, step};
  const char *sn[3] = {"start", "end", "step"};
  for (int i = 0; i < 3; i++)
    if (acl__nn_scalar_arg(api, sn[i], ss[i], &rc) == NULL)
      return rc;
  const aclTensor *ts[1] = {out};
  const char *names[1] = {"out"};
  if ((rc = acl__nn_cp_args(api, api2, 1, ts, names, ws, exo)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, RANGE_T)) != 0)
    return rc;
  int all_int = 1;
  acl__nn_val v[3];
  for (int i = 0; i < 3; i++) {
    if ((rc = acl__nn_check_type(api, api2, "scalar", sn[i], ss[i]->dtype, ACL__NN_ARITH)) != 0)
      return rc;
    all_int &= !acl__nn_is_float(ss[i]->dtype);
    acl__nn_const_of(ss[i], all_int ? ACL_INT64 : ACL_DOUBLE, &v[i]);
  }
  double a, b, s;
  if (all_int) {
    a = (double)v[0].i, b = (double)v[1].i, s = (double)v[2].i;
  } else {
    for (int i = 0; i < 3; i++)
      acl__nn_const_of(ss[i], ACL_DOUBLE, &v[i]);
    a = v[0].d, b = v[1].d, s = v[2].d;
  }
  if (!isfinite(a) || !isfinite(b) || !isfinite(s) || s == 0 || (b - a) * s < 0)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "start %g, end %g and step %g make no sequence: step must be finite, non-zero and have the sign "
                     "of end - start",
                     a, b, s);
  double q = (b - a) / s;
  if (q > 4e18)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "start %g, end %g and step %g make %g values, more than a tensor holds", a, b, s, q);
  int64_t n;
  if (all_int) { /* exact: the distance and the step as magnitudes */
    uint64_t dist = v[2].i > 0 ? (uint64_t)v[1].i - (uint64_t)v[0].i : (uint64_t)v[0].i - (uint64_t)v[1].i;
    uint64_t ustep = v[2].i > 0 ? (uint64_t)v[2].i : 0 - (uint64_t)v[2].i;
    n = (int64_t)(dist / ustep + (inclusive ? 1 : dist % ustep != 0));
  } else {
    n = (int64_t)(inclusive ? floor(q) + 1 : ceil(q));
  }
  int64_t want[1] = {n};
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, 1)) != 0)
    return rc;
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, 1);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_ARANGE);
  acl__nn_cp_full(&p->dst, acl__nn_cp_tensor(ex, out, "out", ACL__NN_CP_OUT), out);
  p->int_steps = all_int && !acl__nn_is_float(out->dtype);
  p->istart = v[0].i;
  p->istep = v[2].i;
  p->start = a;
  p->step = s;
  return acl__nn_cp_done(ex, ws, exo);
}

aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return fill_range(__func__, "aclnnArange", start, end, step, 0, out, workspaceSize, executor);
}

aclnnStatus aclnnRangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return fill_range(__func__, "aclnnRange", start, end, step, 1, out, workspaceSize, executor);
}
