/*
 * elementwise.c - phase 1 shared by every element-wise operator: the
 * vendor's argument checks, in the vendor's order (NULL pointers, then data
 * types, promotion, broadcast, the output's shape and type, alpha), each
 * failure recorded with the parameter's name and the rule; then the plan:
 * the broadcast shape with runs of dims merged, each operand's byte strides
 * (0 where broadcast), the classes to compute in, and the executor that
 * carries it to phase 2.
 *
 * Codes (reference aclnn.md section 3): 161001 for a NULL required pointer,
 * 161002 for every type or shape rule, 561101 when the executor cannot be
 * made (out of memory).
 */
#include <stdio.h>
#include <string.h>

#include "aclnn/nn.h"
#include "common/errmsg.h"

/* "[2, 3, 4]" */
const char *acl__nn_shape_text(const int64_t *d, uint64_t n, char *buf, size_t size) {
  size_t used = (size_t)snprintf(buf, size, "[");
  for (uint64_t i = 0; i < n && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? ", " : "", (long long)d[i]);
  if (used < size)
    snprintf(buf + used, size - used, "]");
  return buf;
}

/* numpy broadcasting of b into the shape out (rank *n, right-aligned);
 * 0, or -1 when a dim differs and neither is 1. */
static int acl__nn_broadcast(int64_t *out, int *n, const aclTensor *b) {
  int rb = (int)b->ndim;
  if (rb > *n) {
    memmove(out + (rb - *n), out, (size_t)*n * sizeof(int64_t));
    for (int i = 0; i < rb - *n; i++)
      out[i] = 1;
    *n = rb;
  }
  for (int i = 0; i < rb; i++) {
    int64_t *o = &out[*n - rb + i], d = b->dims[i];
    if (*o == d || d == 1)
      continue;
    if (*o != 1)
      return -1;
    *o = d;
  }
  return 0;
}

static int acl__nn_same_shape(const aclTensor *t, const int64_t *d, int n) {
  if ((int)t->ndim != n)
    return 0;
  for (int i = 0; i < n; i++)
    if (t->dims[i] != d[i])
      return 0;
  return 1;
}

/* Rank and dims of a tensor operand. */
int acl__nn_check_dims(const char *api, const char *api2, const char *name, const aclTensor *t) {
  char sb[200];
  if (t->ndim > ACL__NN_MAX_RANK)
    return acl__fail(
        api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
        "%s has %llu dims; %s takes at most %d. Remedy: merge dims (a view with fewer dims over the same memory)", name,
        (unsigned long long)t->ndim, api2, ACL__NN_MAX_RANK);
  for (uint64_t i = 0; i < t->ndim; i++)
    if (t->dims[i] < 0)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s: dim %llu is negative. Remedy: give every dim as a size >= 0", name,
                       acl__nn_shape_text(t->dims, t->ndim, sb, sizeof sb), (unsigned long long)i);
  return 0;
}

int acl__nn_check_type(const char *api, const char *api2, const char *what, const char *name, aclDataType t,
                              uint64_t allowed) {
  char list[400];
  if ((unsigned)t < 64 && (allowed & ACL__NN_BIT(t)))
    return 0;
  acl__nn_dtype_list(allowed, list, sizeof list);
  if (acl__nn_is_complex(t))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %s is %s: openacl's aclnn operators do not compute in complex types yet. Remedy: %s takes "
                     "%s",
                     what, name, acl__nn_dtype_name(t), api2, list);
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s %s is %s, which %s does not take. Remedy: use %s", what, name, acl__nn_dtype_name(t), api2,
                   list);
}

/* The scalar's value is exactly 1 (alpha's plain form). */
static int acl__nn_is_one(const aclScalar *s) {
  acl__nn_val v;
  acl__nn_const_of(s, ACL_DOUBLE, &v);
  return v.d == 1.0;
}

static int acl__nn_scalar_negative(const aclScalar *s) {
  acl__nn_val v;
  acl__nn_const_of(s, ACL_DOUBLE, &v);
  return v.d < 0;
}

/* The operand types: a tensor's or a scalar's. */
static aclDataType acl__nn_operand_type(const acl__nn_ew *e, int i) {
  return e->scalar_operand[i] ? e->s[i]->dtype : e->t[i]->dtype;
}

/* The type the operation computes in (before ACL__NN_F_FLOAT). */
static int acl__nn_common_type(const acl__nn_ew *e, aclDataType *cdt) {
  aclDataType a = acl__nn_operand_type(e, 0), b = e->nin > 1 ? acl__nn_operand_type(e, 1) : a;
  /* the tensor and the scalar of a tensor-scalar pair */
  aclDataType tt = e->scalar_operand[0] ? b : a, st = e->scalar_operand[0] ? a : b;
  switch (e->rule) {
  case ACL__NN_RULE_TT:
    *cdt = acl__nn_promote(a, b);
    break;
  case ACL__NN_RULE_TS:
    *cdt = e->nin > 1 ? acl__nn_promote_scalar(tt, st) : a;
    break;
  case ACL__NN_RULE_ADDS: {
    aclDataType o = e->inplace ? e->t[0]->dtype : e->out->dtype;
    if (acl__nn_is_float(tt))
      *cdt = tt;
    else if (st == ACL_DOUBLE && o == ACL_FLOAT)
      *cdt = ACL_FLOAT;
    else if (acl__nn_is_float(st) || tt == ACL_BOOL)
      *cdt = acl__nn_promote(tt, st);
    else
      *cdt = tt;
    break;
  }
  case ACL__NN_RULE_SELF:
    *cdt = a;
    break;
  default:
    *cdt = ACL_BOOL;
    break;
  }
  if (*cdt != ACL_DT_UNDEFINED)
    return 0;
  if (e->nin > 1)
    return acl__fail(e->api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s (%s) and %s (%s) have no common type in the vendor's promotion table. Remedy: cast one of "
                     "them first",
                     e->name[0], acl__nn_dtype_name(a), e->name[1], acl__nn_dtype_name(b));
  return acl__fail(e->api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__, "%s (%s) cannot be computed in", e->name[0],
                   acl__nn_dtype_name(a));
}

/* ---- the plan ------------------------------------------------------------------------- */

/* The slot of tensor t, adding it when new. */
static int acl__nn_slot_of(aclOpExecutor *ex, const aclTensor **keys, const aclTensor *t, const char *name) {
  for (int i = 0; i < ex->nslots; i++)
    if (keys[i] == t)
      return i;
  int s = ex->nslots++;
  keys[s] = t;
  ex->slot[s].addr = t->data;
  ex->slot[s].name = name;
  acl__nn_dump_view(ex, s, t);
  return s;
}

/* Operand strides (elements) of tensor t seen from the broadcast shape. */
void acl__nn_bcast_strides(const aclTensor *t, int rank, const int64_t *dims, int64_t *st) {
  int lead = rank - (int)t->ndim;
  for (int d = 0; d < rank; d++) {
    if (d < lead || (t->dims[d - lead] == 1 && dims[d] != 1))
      st[d] = 0;
    else
      st[d] = t->strides[d - lead];
  }
}

/* Fills the plan's shape (rank, dims, numel) and the byte strides of the
 * nargs operands args[] (their dtype set) from the broadcast shape (rank,
 * dims) and their element strides est[a][rank]: drops dims of 1 and merges
 * neighbours that every operand walks as one. */
void acl__nn_plan_dims(acl__nn_plan *p, int rank, const int64_t *dims, int nargs, acl__nn_arg *const *args,
                       int64_t (*est)[ACL__NN_MAX_RANK]) {
  int r = 0;
  int64_t d[ACL__NN_MAX_RANK];
  for (int k = 0; k < rank; k++) {
    if (dims[k] == 1)
      continue;
    int merge = r > 0;
    for (int a = 0; a < nargs && merge; a++)
      merge = args[a]->st[r - 1] == est[a][k] * dims[k];
    if (merge) {
      d[r - 1] *= dims[k];
      for (int a = 0; a < nargs; a++)
        args[a]->st[r - 1] = est[a][k];
      continue;
    }
    d[r] = dims[k];
    for (int a = 0; a < nargs; a++)
      args[a]->st[r] = est[a][k];
    r++;
  }
  if (r == 0) { /* 0-D, or all ones: one element */
    d[0] = 1;
    for (int a = 0; a < nargs; a++)
      args[a]->st[0] = 0;
    r = 1;
  }
  p->rank = r;
  p->numel = 1;
  for (int k = 0; k < r; k++) {
    p->dims[k] = d[k];
    p->numel *= d[k];
    for (int a = 0; a < nargs; a++)
      args[a]->st[k] *= (int64_t)acl__nn_dtype_size(args[a]->dtype);
  }
}

/* The bytes [lo, hi) around a tensor operand's address that the plan reads or writes. */
static void acl__nn_extent(const acl__nn_plan *p, const acl__nn_arg *a, int64_t *lo, int64_t *hi) {
  int64_t l = a->off, h = a->off;
  for (int k = 0; k < p->rank; k++) {
    int64_t span = (p->dims[k] - 1) * a->st[k];
    if (span < 0)
      l += span;
    else
      h += span;
  }
  *lo = l;
  *hi = h + (int64_t)acl__nn_dtype_size(a->dtype);
}

aclnnStatus acl__nn_elementwise(const acl__nn_ew *e, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = e->api;
  int rc = 0;
  char s1[200], s2[200], s3[200];

  /* NULL pointers and dead objects, in parameter order */
  for (int i = 0; i < e->nin; i++) {
    if (e->scalar_operand[i])
      acl__nn_scalar_arg(api, e->name[i], e->s[i], &rc);
    else
      acl__nn_tensor_arg(api, e->name[i], e->t[i], &rc);
    if (rc != 0)
      return rc;
  }
  if ((e->flags & ACL__NN_F_ALPHA) && acl__nn_scalar_arg(api, "alpha", e->alpha, &rc) == NULL)
    return rc;
  if (!e->inplace && acl__nn_tensor_arg(api, e->out_name, e->out, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "workspaceSize is NULL");
  if (executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "executor is NULL");
  const aclTensor *out = e->inplace ? e->t[0] : e->out;
  const char *oname = e->inplace ? e->name[0] : e->out_name; /* the written tensor's parameter */

  /* ranks and types */
  for (int i = 0; i < e->nin; i++) {
    if (!e->scalar_operand[i] && (rc = acl__nn_check_dims(api, e->api2, e->name[i], e->t[i])) != 0)
      return rc;
    if ((rc = acl__nn_check_type(api, e->api2, e->scalar_operand[i] ? "scalar" : "tensor", e->name[i],
                                 acl__nn_operand_type(e, i), e->in_types)) != 0)
      return rc;
  }
  if (!e->inplace && (rc = acl__nn_check_dims(api, e->api2, oname, out)) != 0)
    return rc;
  if ((rc = acl__nn_check_type(api, e->api2, "output", oname, out->dtype, e->out_types)) != 0)
    return rc;
  if ((e->flags & ACL__NN_F_NOT_BOTH_BOOL) && acl__nn_operand_type(e, 0) == ACL_BOOL &&
      acl__nn_operand_type(e, 1) == ACL_BOOL)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s and %s are both ACL_BOOL, which %s does not take. Remedy: cast one of them to an integer "
                     "or floating type",
                     e->name[0], e->name[1], e->api2);

  /* the common type, then the result's */
  aclDataType cdt;
  if ((rc = acl__nn_common_type(e, &cdt)) != 0)
    return rc;
  if ((e->flags & ACL__NN_F_NO_BOOL) && cdt == ACL_BOOL)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s computes in ACL_BOOL here, which %s does not take. Remedy: cast the operands to an integer "
                     "or floating type",
                     e->api2, e->api2);
  if ((e->flags & ACL__NN_F_FLOAT) && !acl__nn_is_float(cdt))
    cdt = ACL_FLOAT;
  aclDataType res =
      (e->flags & (ACL__NN_F_RESULT_BOOL | ACL__NN_F_OUT_BOOL | ACL__NN_F_COMPARE)) != 0 ? ACL_BOOL : cdt;

  /* shapes */
  int rank = 0;
  int64_t dims[ACL__NN_MAX_RANK] = {0};
  for (int i = 0; i < e->nin; i++) {
    if (e->scalar_operand[i] || (i == 1 && (e->flags & ACL__NN_F_CHANNEL)))
      continue;
    if (acl__nn_broadcast(dims, &rank, e->t[i]) != 0) {
      const aclTensor *a = e->t[0], *b = e->t[1];
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %s and %s %s do not broadcast: from the last dim on, each pair of dims must be equal or "
                       "one of them 1. Remedy: reshape one of them (a view with dims of 1 where it repeats)",
                       e->name[0], acl__nn_shape_text(a->dims, a->ndim, s1, sizeof s1), e->name[1],
                       acl__nn_shape_text(b->dims, b->ndim, s2, sizeof s2));
    }
  }
  if (!acl__nn_same_shape(out, dims, rank)) {
    if (e->inplace)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s %s and %s %s broadcast to %s, but an in-place operator writes %s's own shape. Remedy: "
                       "use the out-of-place form",
                       e->name[0], acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1), e->name[1],
                       acl__nn_shape_text(e->t[1]->dims, e->t[1]->ndim, s2, sizeof s2),
                       acl__nn_shape_text(dims, (uint64_t)rank, s3, sizeof s3), e->name[0]);
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has shape %s; %s writes %s (the %s shape). Remedy: create %s with that shape", oname,
                     acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1), e->api2,
                     acl__nn_shape_text(dims, (uint64_t)rank, s2, sizeof s2),
                     e->nin > 1 && !e->scalar_operand[0] && !e->scalar_operand[1] ? "broadcast" : "input's", oname);
  }

  if (e->flags & ACL__NN_F_CHANNEL) {
    const aclTensor *w = e->t[1];
    int64_t chans = rank >= 2 ? dims[1] : 1, wn = acl__nn_numel(w);
    if (w->ndim > 1 || (wn != 1 && wn != chans))
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s; %s takes one value per channel of %s (dim 1: %lld channels) or a single "
                       "value. Remedy: give %s as a 1-D tensor of %lld or 1 elements",
                       e->name[1], acl__nn_shape_text(w->dims, w->ndim, s1, sizeof s1), e->api2, e->name[0],
                       (long long)chans, e->name[1], (long long)chans);
  }

  /* the output's type */
  if ((e->flags & ACL__NN_F_OUT_SAME) && out->dtype != e->t[0]->dtype && !e->inplace)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s but %s is %s: %s writes %s's own type. Remedy: create %s as %s", oname,
                     acl__nn_dtype_name(out->dtype), e->name[0], acl__nn_dtype_name(e->t[0]->dtype), e->api2,
                     e->name[0], oname, acl__nn_dtype_name(e->t[0]->dtype));
  if (!(e->flags & ACL__NN_F_RESULT_BOOL) && !acl__nn_can_cast(res, out->dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s computes %s here, which cannot be cast to %s's %s (floating to integral, or anything but "
                     "bool to bool, is refused). Remedy: make %s %s or a wider type",
                     e->api2, acl__nn_dtype_name(res), oname, acl__nn_dtype_name(out->dtype), oname,
                     acl__nn_dtype_name(res));

  /* alpha and exponents */
  int alpha_one = 1;
  if (e->flags & ACL__NN_F_ALPHA) {
    aclDataType at = e->alpha->dtype;
    int ok = (unsigned)at < 64 && (ACL__NN_ARITH & ACL__NN_BIT(at)) &&
             (cdt == ACL_BOOL ? (at == ACL_BOOL || acl__nn_is_int(at)) : acl__nn_can_cast(at, cdt));
    if (!ok)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "alpha is %s, which cannot be cast to %s, the type %s computes in here. Remedy: give alpha "
                       "as %s",
                       acl__nn_dtype_name(at), acl__nn_dtype_name(cdt), e->api2,
                       acl__nn_is_float(cdt) ? "a real number" : "an integer (or bool)");
    alpha_one = acl__nn_is_one(e->alpha);
  }
  if ((e->flags & ACL__NN_F_INT_EXP_NONNEG) && !acl__nn_is_float(cdt) && e->scalar_operand[1] &&
      acl__nn_scalar_negative(e->s[1]))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is negative and the result type is %s: integers to negative integer powers are refused. "
                     "Remedy: use a floating self or a non-negative exponent",
                     e->name[1], acl__nn_dtype_name(cdt));

  /* an output whose elements share memory would be written twice */
  for (uint64_t k = 0; k < out->ndim; k++)
    if (out->dims[k] > 1 && out->strides[k] == 0)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has stride 0 along dim %llu of size %lld: several of its elements are one memory "
                       "location. Remedy: give %s distinct elements",
                       oname, (unsigned long long)k, (long long)out->dims[k], oname);

  /* the executor and its plan */
  aclOpExecutor *ex = acl__nn_exec_new(e->api2);
  if (ex == NULL)
    return acl__fail(api, ACLNN_ERR_INNER_CREATE_EXECUTOR, __FILE__, __LINE__, "out of host memory for the executor");
  acl__nn_plan *p = &ex->plan;
  const aclTensor *keys[ACL__NN_MAX_SLOTS];
  int swap = (e->flags & ACL__NN_F_SWAP) != 0;
  int64_t est[3][ACL__NN_MAX_RANK];
  memset(est, 0, sizeof est);
  p->op = e->op;
  p->nin = e->nin;
  p->cdt = cdt;
  if (e->flags & ACL__NN_F_RESULT_BOOL) {
    p->lcls = ACL__NN_F64;
    p->rcls = ACL__NN_I64;
  } else if (e->flags & ACL__NN_F_COMPARE) {
    p->lcls = acl__nn_class_of(cdt); /* the operands are compared in the common type */
    p->rcls = ACL__NN_I64;
  } else if (e->flags & ACL__NN_F_OUT_BOOL) {
    p->lcls = ACL__NN_F64; /* IsFinite: tests the value in double */
    p->rcls = ACL__NN_I64;
  } else {
    p->lcls = p->rcls = acl__nn_class_of(cdt);
  }
  p->alpha_one = alpha_one;
  memcpy(p->prm, e->prm, sizeof p->prm);
  if (e->flags & ACL__NN_F_ALPHA)
    acl__nn_const_of(e->alpha,
                     p->rcls == ACL__NN_F32   ? ACL_FLOAT
                     : p->rcls == ACL__NN_F64 ? ACL_DOUBLE
                                              : ACL_INT64,
                     &p->alpha);
  for (int i = 0; i < e->nin; i++) {
    int src = swap ? e->nin - 1 - i : i; /* Rsub computes other - alpha*self */
    acl__nn_arg *a = &p->in[i];
    if (e->scalar_operand[src]) {
      a->is_const = 1;
      a->dtype = cdt;
      acl__nn_const_of(e->s[src], p->lcls == acl__nn_class_of(cdt) ? cdt : ACL_DOUBLE, &a->c);
      continue;
    }
    const aclTensor *t = e->t[src];
    a->dtype = t->dtype;
    a->slot = acl__nn_slot_of(ex, keys, t, e->name[src]);
    a->off = t->offset * (int64_t)acl__nn_dtype_size(t->dtype);
    if (i == 1 && (e->flags & ACL__NN_F_CHANNEL)) { /* one value per channel: walks along dim 1 only */
      if (rank >= 2 && dims[1] > 1 && acl__nn_numel(t) > 1)
        est[i][1] = t->strides[0];
    } else {
      acl__nn_bcast_strides(t, rank, dims, est[i]);
    }
    ex->in_slot[ex->n_in++] = a->slot;
  }
  p->out.dtype = out->dtype;
  p->out.slot = acl__nn_slot_of(ex, keys, out, e->inplace ? e->name[0] : oname);
  p->out.off = out->offset * (int64_t)acl__nn_dtype_size(out->dtype);
  acl__nn_bcast_strides(out, rank, dims, est[2]);
  ex->out_slot[ex->n_out++] = p->out.slot;
  if (swap) { /* the inputs' order in the operator is self, other: the slots follow it */
    int t0 = ex->in_slot[0];
    ex->in_slot[0] = ex->in_slot[ex->n_in - 1];
    ex->in_slot[ex->n_in - 1] = t0;
  }
  acl__nn_arg *const pargs[3] = {&p->in[0], &p->in[1], &p->out};
  acl__nn_plan_dims(p, rank, dims, 3, pargs, est);
  for (int i = 0; i < rank; i++)
    if (dims[i] == 0)
      ex->empty = 1;
  if (!ex->empty) {
    const acl__nn_arg *args[3] = {&p->in[0], &p->in[1], &p->out};
    for (int i = 0; i < 3; i++) {
      if (i < 2 && (i >= p->nin || args[i]->is_const))
        continue;
      int64_t lo, hi;
      acl__nn_extent(p, args[i], &lo, &hi);
      acl__nn_slot *s = &ex->slot[args[i]->slot];
      if (!s->used || lo < s->lo)
        s->lo = lo;
      if (!s->used || hi > s->hi)
        s->hi = hi;
      s->used = 1;
    }
    if (acl__nn_exec_overlaps(ex))
      ex->workspace = (uint64_t)p->numel * acl__nn_dtype_size(out->dtype);
  }
  *workspaceSize = ex->workspace;
  *executor = ex;
  return ACLNN_SUCCESS;
}

aclnnStatus acl__nn_unary(const char *api, const char *api2, acl__nn_op op, int flags, uint64_t in_types,
                          uint64_t out_types, const char *name, const aclTensor *self, const char *out_name,
                          const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__nn_ew e = {
      .api = api,
      .api2 = api2,
      .op = op,
      .flags = flags,
      .rule = (flags & ACL__NN_F_RESULT_BOOL) ? ACL__NN_RULE_NONE : ACL__NN_RULE_SELF,
      .in_types = in_types,
      .out_types = out_types,
      .name = {name, NULL},
      .t = {self, NULL},
      .nin = 1,
      .out = out,
      .out_name = out_name != NULL ? out_name : name,
      .inplace = out_name == NULL,
  };
  return acl__nn_elementwise(&e, workspaceSize, executor);
}
