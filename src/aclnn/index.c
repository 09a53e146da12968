/*
 * index.c - the gathers of reference aclnn.md section 8.9 (Gather, the
 * torch.gather form; GatherV2, IndexSelect and Embedding, which take whole
 * slices by index) and the helpers every operator of the section shares
 * (index.h): the phase-1 prologue over a table of tensor parameters, the
 * job it builds, element offsets, conversions and run-time index faults.
 *
 * An index outside its dim is refused when the task runs: the element is
 * not read, the task fails (ACL_ERROR_RT_AICORE_EXCEPTION, what a card's
 * kernel fault reports) and the log names the operator, the value and the
 * bound.  The rest of the output may then be partly written.
 */
#include <stdarg.h>
#include <string.h>

#include "aclnn/index.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_index_select.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "prof/prof.h"
#include "rt/rt.h"

/* ---- the shared prologue ---------------------------------------------------------------- */

int acl__ix_check(const char *api, const char *api2, const acl__ix_arg *a, int n, const uint64_t *workspaceSize,
                  aclOpExecutor *const *executor) {
  int rc = 0;
  for (int i = 0; i < n; i++)
    if ((a[i].t != NULL || !a[i].optional) && acl__nn_tensor_arg(api, a[i].name, a[i].t, &rc) == NULL)
      return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  for (int i = 0; i < n; i++) {
    if (a[i].t == NULL)
      continue;
    if ((rc = acl__nn_check_dims(api, api2, a[i].name, a[i].t)) != 0 ||
        (rc = acl__nn_check_type(api, api2, a[i].is_out ? "output" : "tensor", a[i].name, a[i].t->dtype,
                                 a[i].types != 0 ? a[i].types : ACL__IX_ANY)) != 0)
      return rc;
  }
  return 0;
}

void *acl__ix_job(const char *api, const char *api2, size_t size, acl__nn_job_fn run, const acl__ix_arg *a, int n,
                  int *ti, aclOpExecutor **ex) {
  acl__nn_job *j = acl__nn_job_new(size, run);
  *ex = acl__nn_job_exec(api, api2, j);
  if (*ex == NULL)
    return NULL;
  for (int i = 0; i < n; i++) {
    ti[i] = -1;
    if (a[i].t == NULL)
      continue;
    ti[i] = acl__nn_job_tensor(*ex, a[i].t, a[i].name, a[i].is_out);
    acl__nn_tref *r = &j->t[ti[i]];
    if (r->rank == 0) {
      r->rank = 1;
      r->dims[0] = 1;
      r->st[0] = 0;
    }
  }
  return j;
}

int acl__ix_dim(const char *api, const char *what, int64_t dim, int rank, int *d) {
  int r1 = rank > 0 ? rank : 1;
  if (dim < -r1 || dim >= r1)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %lld, out of range for %d dims ([%d, %d]). Remedy: pass a dim of the tensor", what,
                     (long long)dim, rank, -r1, r1 - 1);
  *d = (int)(dim < 0 ? dim + r1 : dim);
  return 0;
}

int acl__ix_broadcasts(const char *api, const char *name, const aclTensor *t, int rank, const int64_t *dims) {
  char s1[200], s2[200];
  int ok = (int)t->ndim <= rank;
  for (int k = 0; ok && k < (int)t->ndim; k++) {
    int64_t a = t->dims[t->ndim - 1 - (uint64_t)k], b = dims[rank - 1 - k];
    ok = a == b || a == 1;
  }
  if (ok)
    return 0;
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s has shape %s, which does not broadcast to %s. Remedy: give %s a shape that does", name,
                   acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1),
                   acl__nn_shape_text(dims, (uint64_t)rank, s2, sizeof s2), name);
}

void acl__ix_broadcast_view(acl__nn_tref *r, int rank, const int64_t *dims) {
  int64_t d[ACL__NN_MAX_RANK], st[ACL__NN_MAX_RANK];
  int have = r->rank == 1 && r->dims[0] == 1 && r->st[0] == 0 ? 0 : r->rank; /* a 0-D made [1] */
  for (int k = 0; k < rank; k++) {
    int src = have - rank + k;
    d[k] = dims[k];
    st[k] = src >= 0 && r->dims[src] == dims[k] ? r->st[src] : 0;
  }
  r->rank = rank > 0 ? rank : 1;
  for (int k = 0; k < rank; k++) {
    r->dims[k] = d[k];
    r->st[k] = st[k];
  }
  if (rank == 0) {
    r->dims[0] = 1;
    r->st[0] = 0;
  }
}

int64_t acl__ix_index(const char *p, aclDataType t) {
  switch (t) {
  case ACL_INT32:
    return *(const int32_t *)p;
  case ACL_INT64:
    return *(const int64_t *)p;
  case ACL_UINT8:
  case ACL_BOOL:
    return *(const uint8_t *)p;
  default:
    return 0;
  }
}

void acl__ix_convert(char *dst, aclDataType dt, const char *src, aclDataType st) {
  if (dt == st) {
    memcpy(dst, src, acl__nn_dtype_size(dt));
  } else if (acl__nn_class_of(dt) == ACL__NN_I64 && acl__nn_class_of(st) == ACL__NN_I64) {
    int64_t v;
    acl__nn_load_i64(&v, src, 0, 1, st);
    acl__nn_store_i64(dst, 0, 1, dt, &v);
  } else {
    double v;
    acl__nn_load_f64(&v, src, 0, 1, st);
    acl__nn_store_f64(dst, 0, 1, dt, &v);
  }
}

void acl__ix_fault_note(acl__ix_fault *f, const char *what, int64_t value, int64_t bound) {
  int expected = 0;
  if (__atomic_compare_exchange_n(&f->hit, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    f->value = value;
    f->bound = bound;
    f->what = what;
  }
}

int acl__ix_fault_report(const char *api2, const acl__ix_fault *f) {
  if (!__atomic_load_n(&f->hit, __ATOMIC_ACQUIRE))
    return 0;
  ACL__LOGE(ACL__MOD_ASCENDCL,
            "%s: %s %lld is out of range [0, %lld) (negative values count from the end where the operator allows "
            "them); the element is not read or written and the task fails",
            api2, f->what, (long long)f->value, (long long)f->bound);
  return ACL_ERROR_RT_AICORE_EXCEPTION;
}

void acl__ix_set_dim0(aclTensor *t, int64_t n) {
  if (t != NULL && acl__handle_valid(t, ACL__H_NN_TENSOR) && t->ndim > 0)
    t->dims[0] = n;
}

/* ---- the gathers ------------------------------------------------------------------------- */

enum { GK_ELEMENTS, GK_SLICES, GK_SELECT }; /* torch.gather; GatherV2, Embedding; IndexSelect */

typedef struct gather_job {
  acl__nn_job base; /* self, index, out */
  int kind;
  int d;  /* the dim indexed */
  int ri; /* GK_SLICES: the dims of out the index's dims take (at d) */
  const char *api2;
} gather_job;

typedef struct gather_work {
  const gather_job *j;
  char *const *ptr;
  acl__ix_fault fault;
} gather_work;

static void gather_range(int64_t begin, int64_t end, void *arg) {
  gather_work *w = arg;
  const gather_job *j = w->j;
  const acl__nn_tref *s = &j->base.t[0], *ix = &j->base.t[1], *o = &j->base.t[2];
  size_t es = acl__nn_dtype_size(o->dtype);
  int64_t c[ACL__NN_MAX_RANK], sc[ACL__NN_MAX_RANK];
  int64_t bound = s->dims[j->d];
  for (int64_t i = begin; i < end; i++) {
    acl__ix_unravel(i, o->rank, o->dims, c);
    int64_t v;
    if (j->kind == GK_ELEMENTS) { /* index has out's shape; self's other coordinates are out's */
      v = acl__ix_index(acl__ix_at(ix, w->ptr[1], acl__ix_off(ix, c)), ix->dtype);
      memcpy(sc, c, sizeof(int64_t) * (size_t)o->rank);
    } else { /* out = self[:d] + index + self[d+1:] */
      v = acl__ix_index(acl__ix_at(ix, w->ptr[1], acl__ix_off(ix, c + j->d)), ix->dtype);
      for (int k = 0; k < j->d; k++)
        sc[k] = c[k];
      for (int k = j->d + 1; k < s->rank; k++)
        sc[k] = c[k - 1 + j->ri];
    }
    if (v < 0 || v >= bound) {
      acl__ix_fault_note(&w->fault, "index", v, bound);
      continue;
    }
    sc[j->d] = v;
    memcpy(acl__ix_at(o, w->ptr[2], acl__ix_off(o, c)), acl__ix_at(s, w->ptr[0], acl__ix_off(s, sc)), es);
  }
}

static int gather_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const gather_job *j = (const gather_job *)base;
  gather_work w = {j, ptr, {0}};
  int rc = acl__nn_parallel(dev, acl__nn_tref_numel(&base->t[2], 0, base->t[2].rank), 8, gather_range, &w);
  return rc != 0 ? rc : acl__ix_fault_report(j->api2, &w.fault);
}

/* Phase 1 of every gather: self, index, out checked, out's shape derived. */
static aclnnStatus gather_plan(const char *api, const char *api2, int kind, const aclTensor *self, int64_t dim,
                               const aclTensor *index, const aclTensor *out, const char *sname, const char *iname,
                               uint64_t *workspaceSize, aclOpExecutor **executor) {
  acl__ix_arg a[3] = {{sname, self, 0, 0, 0}, {iname, index, 0, 0, ACL__IX_INDEX}, {"out", out, 1, 0, 0}};
  int rc = acl__ix_check(api, api2, a, 3, workspaceSize, executor), d = 0;
  if (rc != 0)
    return rc;
  int rs = (int)self->ndim, ri = (int)index->ndim;
  char s1[200], s2[200];
  if ((rc = acl__ix_dim(api, "dim", dim, rs, &d)) != 0)
    return rc;
  if (out->dtype != self->dtype)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "out is %s and %s is %s; %s copies elements, so they must be of one type. Remedy: create out "
                     "of %s's type",
                     acl__nn_dtype_name(out->dtype), sname, acl__nn_dtype_name(self->dtype), api2, sname);
  int64_t want[2 * ACL__NN_MAX_RANK];
  int ro = 0;
  if (kind == GK_ELEMENTS) {
    int ok = ri == rs;
    for (int k = 0; ok && k < rs; k++)
      ok = k == d || index->dims[k] <= self->dims[k];
    if (!ok)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "index has shape %s and self %s: index must have self's rank and no dim larger than self's "
                       "(dim %d aside). Remedy: pass such an index",
                       acl__nn_shape_text(index->dims, index->ndim, s1, sizeof s1),
                       acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2), d);
    for (int k = 0; k < ri; k++)
      want[ro++] = index->dims[k];
  } else {
    int select = kind == GK_SELECT; /* index 0-D or 1-D: one dim of out */
    if (select && ri > 1)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "index has %d dims; aclnnIndexSelect takes a 0-D or 1-D index. Remedy: flatten it", ri);
    for (int k = 0; k < d; k++)
      want[ro++] = self->dims[k];
    if (select)
      want[ro++] = acl__nn_numel(index);
    else
      for (int k = 0; k < ri; k++)
        want[ro++] = index->dims[k];
    for (int k = d + 1; k < rs; k++)
      want[ro++] = self->dims[k];
    if (select && rs == 0 && out->ndim == 0 && want[0] == 1)
      ro = 0; /* a 0-D self selects into [1] or 0-D */
    if (ro > ACL__NN_MAX_RANK)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "the result would have %d dims; %s writes at most %d. Remedy: use fewer index dims", ro, api2,
                       ACL__NN_MAX_RANK);
  }
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, ro)) != 0)
    return rc;
  aclOpExecutor *ex;
  int ti[3];
  gather_job *j = acl__ix_job(api, api2, sizeof *j, gather_run, a, 3, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->kind = kind == GK_ELEMENTS ? GK_ELEMENTS : GK_SLICES;
  j->d = d;
  j->api2 = api2;
  j->ri = j->base.t[ti[1]].rank;
  acl__nn_tref *o = &j->base.t[ti[2]];
  if (kind == GK_SLICES && o->rank == j->base.t[ti[0]].rank - 2 + j->ri) {
    /* a 0-D index takes no dim of out (made [1]): give out's view a dim of 1 at d */
    for (int k = o->rank; k > d; k--) {
      o->dims[k] = o->dims[k - 1];
      o->st[k] = o->st[k - 1];
    }
    o->dims[d] = 1;
    o->st[d] = 0;
    o->rank++;
  }
  ex->empty = acl__nn_numel(out) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor *self, const int64_t dim, const aclTensor *index,
                                        aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  return gather_plan(__func__, "aclnnGather", GK_ELEMENTS, self, dim, index, out, "self", "index", workspaceSize,
                     executor);
}
ACL__NN_PHASE2(aclnnGather)

aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
  return gather_plan(__func__, "aclnnGatherV2", GK_SLICES, self, dim, index, out, "self", "index", workspaceSize,
                     executor);
}
ACL__NN_PHASE2(aclnnGatherV2)

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out,
                                             uint64_t *workspaceSize, aclOpExecutor **executor) {
  return gather_plan(__func__, "aclnnIndexSelect", GK_SELECT, self, dim, index, out, "self", "index", workspaceSize,
                     executor);
}
ACL__NN_PHASE2(aclnnIndexSelect)

aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight, const aclTensor *indices, const aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  if (weight != NULL && acl__nn_tensor_arg(__func__, "weight", weight, &rc) != NULL && weight->ndim != 2)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "weight has %llu dims; aclnnEmbedding takes a 2-D [num, dim] table. Remedy: pass such a weight",
                     (unsigned long long)weight->ndim);
  return gather_plan(__func__, "aclnnEmbedding", GK_SLICES, weight, 0, indices, out, "weight", "indices", workspaceSize,
                     executor);
}
ACL__NN_PHASE2(aclnnEmbedding)
