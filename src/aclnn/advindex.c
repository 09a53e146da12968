/*
 * advindex.c - the operators of reference aclnn.md section 8.9 that index
 * with lists or masks: Index (out = self[indices...]), IndexPutImpl
 * (selfRef[indices...] = values, or +=), and the two whose output size
 * depends on the data, MaskedSelect and Nonzero.
 *
 * Advanced indexing follows torch: the list names self's leading dims in
 * order, a NULL entry is a whole dim (":"), integer index tensors (s32,
 * s64, negative values counting from the end) broadcast together to a
 * shape B that replaces the dims they index, in place when those dims are
 * adjacent, in front otherwise.  A bool / u8 mask covers as many dims as
 * it has and selects the coordinates of its true elements: it must be the
 * list's only tensor (NULL entries may precede it), and B is then one dim
 * of the true count, known only when the task runs: Index checks it
 * against out's shape there, IndexPutImpl against values'.
 *
 * MaskedSelect and Nonzero write a worst-case sized out and then rewrite
 * the view shape of the out descriptor given to phase 1 to the real count
 * (dim 0), as the vendor documents for Nonzero (reference section 6);
 * callers read it with aclGetViewShape after synchronising.
 */
#include <string.h>

#include "aclnn/index.h"
#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_nonzero.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "prof/prof.h"
#include "rt/rt.h"

/* ---- advanced indexing ------------------------------------------------------------------- */

typedef struct adv_job {
  acl__nn_job base; /* self, the list's tensors, then out (Index) or values (IndexPutImpl) */
  const char *api2;
  int put, accumulate;
  int ti_self;  /* self as read (Index) or as written (IndexPutImpl: its output entry) */
  int ti_other; /* out or values */
  int nent;     /* entries with a tensor */
  int ent_ti[ACL__NN_MAX_RANK], ent_pos[ACL__NN_MAX_RANK];
  int mask_k;                      /* the mask's rank (0: integer indices) */
  int rb;                          /* B's rank */
  int64_t bdims[ACL__NN_MAX_RANK]; /* B (a mask's count is filled in when run) */
  int bpos;                        /* where B lies in the result */
  int rr;                          /* the result's rank */
  int64_t rdims[ACL__NN_MAX_RANK];
  int rest_self[ACL__NN_MAX_RANK], rest_res[ACL__NN_MAX_RANK], nrest; /* the whole dims: self's dim, result's */
} adv_job;

typedef struct adv_work {
  const adv_job *j;
  char *const *ptr;
  const int64_t *nz;  /* a mask's true coordinates, mask_k per row */
  acl__nn_tref other; /* out, or values broadcast to the result */
  int64_t rdims[ACL__NN_MAX_RANK];
  acl__ix_fault fault;
} adv_work;

static void adv_range(int64_t begin, int64_t end, void *arg) {
  adv_work *w = arg;
  const adv_job *j = w->j;
  const acl__nn_tref *s = &j->base.t[j->ti_self];
  int64_t c[ACL__NN_MAX_RANK], sc[ACL__NN_MAX_RANK];
  size_t es = acl__nn_dtype_size(s->dtype);
  for (int64_t i = begin; i < end; i++) {
    acl__ix_unravel(i, j->rr, w->rdims, c);
    int ok = 1;
    for (int q = 0; q < j->nrest; q++)
      sc[j->rest_self[q]] = c[j->rest_res[q]];
    if (j->mask_k > 0) {
      const int64_t *row = w->nz + c[j->bpos] * j->mask_k;
      for (int q = 0; q < j->mask_k; q++)
        sc[j->ent_pos[0] + q] = row[q];
    } else {
      for (int e = 0; e < j->nent && ok; e++) {
        const acl__nn_tref *x = &j->base.t[j->ent_ti[e]];
        int64_t v = acl__ix_index(acl__ix_at(x, w->ptr[j->ent_ti[e]], acl__ix_off(x, c + j->bpos)), x->dtype);
        int64_t n = s->dims[j->ent_pos[e]];
        if (v < -n || v >= n) {
          acl__ix_fault_note(&w->fault, "index", v, n);
          ok = 0;
        }
        sc[j->ent_pos[e]] = v < 0 ? v + n : v;
      }
    }
    if (!ok)
      continue;
    char *se = acl__ix_at(s, w->ptr[j->ti_self], acl__ix_off(s, sc));
    char *oe = acl__ix_at(&w->other, w->ptr[j->ti_other], acl__ix_off(&w->other, c));
    if (!j->put) {
      memcpy(oe, se, es);
    } else if (!j->accumulate) {
      acl__ix_convert(se, s->dtype, oe, w->other.dtype);
    } else if (acl__nn_class_of(s->dtype) == ACL__NN_I64) {
      int64_t a, b;
      acl__nn_load_i64(&a, se, 0, 1, s->dtype);
      acl__nn_load_i64(&b, oe, 0, 1, w->other.dtype);
      a = (int64_t)((uint64_t)a + (uint64_t)b);
      acl__nn_store_i64(se, 0, 1, s->dtype, &a);
    } else {
      double a, b;
      acl__nn_load_f64(&a, se, 0, 1, s->dtype);
      acl__nn_load_f64(&b, oe, 0, 1, w->other.dtype);
      a += b;
      acl__nn_store_f64(se, 0, 1, s->dtype, &a);
    }
  }
}

/* The true coordinates of mask tref m (row-major), mask_k per row; *count. */
static int64_t *adv_mask_coords(const acl__nn_tref *m, const char *base, int64_t *count) {
  int64_t n = acl__nn_tref_numel(m, 0, m->rank), cnt = 0, c[ACL__NN_MAX_RANK];
  for (int64_t i = 0; i < n; i++) {
    acl__ix_unravel(i, m->rank, m->dims, c);
    cnt += acl__ix_index(base + acl__ix_off(m, c), m->dtype) != 0;
  }
  int64_t *nz = acl__nn_temp((size_t)(cnt > 0 ? cnt : 1) * (size_t)m->rank * sizeof(int64_t));
  if (nz == NULL)
    return NULL;
  int64_t at = 0;
  for (int64_t i = 0; i < n; i++) {
    acl__ix_unravel(i, m->rank, m->dims, c);
    if (acl__ix_index(base + acl__ix_off(m, c), m->dtype) != 0)
      for (int q = 0; q < m->rank; q++)
        nz[at++] = c[q];
  }
  *count = cnt;
  return nz;
}

static int adv_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const adv_job *j = (const adv_job *)base;
  adv_work w = {j, ptr, NULL, j->base.t[j->ti_other], {0}, {0}};
  memcpy(w.rdims, j->rdims, sizeof w.rdims);
  int64_t *nz = NULL;
  int rc = 0;
  if (j->mask_k > 0) {
    int64_t cnt = 0;
    if ((nz = adv_mask_coords(&j->base.t[j->ent_ti[0]], ptr[j->ent_ti[0]], &cnt)) == NULL)
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    w.nz = nz;
    w.rdims[j->bpos] = cnt;
    /* out's dim (Index) must be the count; values' (IndexPutImpl) the count or 1 */
    int64_t have = j->put ? w.other.dims[j->bpos] : j->rdims[j->bpos];
    if (have != cnt && !(j->put && have == 1)) {
      ACL__LOGE(ACL__MOD_ASCENDCL,
                "%s: the mask selects %lld elements, but %s has %lld there (dim %d). Remedy: size it by the "
                "mask's true count",
                j->api2, (long long)cnt, j->put ? "values" : "out", (long long)have, j->bpos);
      acl__nn_temp_free(nz);
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    if (j->put && have == 1)
      w.other.st[j->bpos] = 0;
  }
  int64_t n = 1;
  for (int k = 0; k < j->rr; k++)
    n *= w.rdims[k];
  if (j->put)
    adv_range(0, n, &w); /* serial: repeated indices write in order, += accumulates them all */
  else
    rc = acl__nn_parallel(dev, n, 8, adv_range, &w);
  acl__nn_temp_free(nz);
  return rc != 0 ? rc : acl__ix_fault_report(j->api2, &w.fault);
}

/* Phase 1 of Index (other = out) and IndexPutImpl (other = values). */
static aclnnStatus adv_plan(const char *api, const char *api2, const aclTensor *self, const aclTensorList *indices,
                            const aclTensor *other, int put, int accumulate, uint64_t *workspaceSize,
                            aclOpExecutor **executor) {
  const char *sname = put ? "selfRef" : "self", *oname = put ? "values" : "out";
  uint64_t m = 0;
  int rc = 0;
  char s1[200], s2[200];
  if (acl__nn_tensor_arg(api, sname, self, &rc) == NULL)
    return rc;
  aclTensor *const *ent = acl__nn_tensor_list_arg(api, "indices", indices, &m, &rc);
  if (ent == NULL)
    return rc;
  if (m > self->ndim || m > ACL__NN_MAX_RANK)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "indices has %llu entries, more than %s's %llu dims. Remedy: pass at most one per dim",
                     (unsigned long long)m, sname, (unsigned long long)self->ndim);
  /* the table: self, each entry with a tensor, then out / values (selfRef written: in and out) */
  acl__ix_arg a[ACL__NN_MAX_RANK + 3];
  int n = 0, pos[ACL__NN_MAX_RANK], nent = 0, mask_at = -1, mask_k = 0;
  a[n++] = (acl__ix_arg){sname, self, 0, 0, put && accumulate ? ACL__IX_REAL : 0};
  for (uint64_t i = 0; i < m; i++) {
    if (ent[i] == NULL)
      continue;
    static const char *const names[ACL__NN_MAX_RANK] = {"indices[0]", "indices[1]", "indices[2]", "indices[3]",
                                                        "indices[4]", "indices[5]", "indices[6]", "indices[7]"};
    a[n++] = (acl__ix_arg){names[i], ent[i], 0, 0, ACL__IX_INDEX | ACL__IX_MASK};
    pos[nent++] = (int)i;
  }
  a[n++] = (acl__ix_arg){oname, other, !put, 0, 0};
  if (put)
    a[n++] = (acl__ix_arg){sname, self, 1, 0, 0};
  if ((rc = acl__ix_check(api, api2, a, n, workspaceSize, executor)) != 0)
    return rc;
  if (other->dtype != self->dtype)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is %s and %s is %s; they must be of one type. Remedy: create %s of %s's type", oname,
                     acl__nn_dtype_name(other->dtype), sname, acl__nn_dtype_name(self->dtype), oname, sname);
  if (nent == 0)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "indices has no index tensor (every entry NULL). Remedy: pass at least one");
  /* B and the indexed dims */
  int rb = 0, rs = (int)self->ndim, indexed[ACL__NN_MAX_RANK] = {0};
  int64_t bd[ACL__NN_MAX_RANK];
  for (int e = 0; e < nent; e++) {
    const aclTensor *x = a[1 + e].t;
    if (x->dtype == ACL_BOOL || x->dtype == ACL_UINT8) {
      if (nent > 1)
        return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                         "indices mixes a bool / u8 mask with other index tensors; openacl's %s takes a mask only "
                         "as the list's one tensor (docs/aclnn.md). Remedy: turn the mask into integer indices "
                         "with aclnnNonzero",
                         api2);
      mask_at = pos[e];
      mask_k = x->ndim > 0 ? (int)x->ndim : 1;
      int ok = mask_at + (int)x->ndim <= rs;
      for (int q = 0; ok && q < (int)x->ndim; q++)
        ok = x->dims[q] == self->dims[mask_at + q];
      if (!ok || x->ndim == 0)
        return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                         "the mask has shape %s, which does not match %s's dims from %d (shape %s). Remedy: give "
                         "the mask the shape of the dims it selects",
                         acl__nn_shape_text(x->dims, x->ndim, s1, sizeof s1), sname, mask_at,
                         acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2));
      for (int q = 0; q < mask_k; q++)
        indexed[mask_at + q] = 1;
      rb = 1;
      bd[0] = -1; /* the count */
      continue;
    }
    indexed[pos[e]] = 1;
    /* broadcast B with x */
    int r = (int)x->ndim > rb ? (int)x->ndim : rb;
    int64_t nb[ACL__NN_MAX_RANK];
    for (int k = 0; k < r; k++) {
      int ka = k - (r - rb), kx = k - (r - (int)x->ndim);
      int64_t da = ka >= 0 ? bd[ka] : 1, dx = kx >= 0 ? x->dims[kx] : 1;
      if (da != dx && da != 1 && dx != 1)
        return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                         "the index tensors' shapes do not broadcast together (%s against %s). Remedy: pass index "
                         "tensors of broadcastable shapes",
                         acl__nn_shape_text(x->dims, x->ndim, s1, sizeof s1),
                         acl__nn_shape_text(bd, (uint64_t)rb, s2, sizeof s2));
      nb[k] = da == 1 ? dx : da;
    }
    rb = r;
    memcpy(bd, nb, sizeof(int64_t) * (size_t)r);
  }
  /* the result: B in place of adjacent indexed dims, else in front */
  int first = -1, last = -1, adjacent = 1;
  for (int k = 0; k < rs; k++)
    if (indexed[k]) {
      if (first < 0)
        first = k;
      else if (last != k - 1)
        adjacent = 0;
      last = k;
    }
  int bpos = adjacent ? first : 0, rr = 0, nrest = 0, rest_self[ACL__NN_MAX_RANK], rest_res[ACL__NN_MAX_RANK];
  int64_t rd[2 * ACL__NN_MAX_RANK];
  for (int q = 0; !adjacent && q < rb; q++)
    rd[rr++] = bd[q];
  for (int k = 0; k < rs; k++) {
    for (int q = 0; adjacent && k == first && q < rb; q++)
      rd[rr++] = bd[q];
    if (!indexed[k]) {
      rest_self[nrest] = k;
      rest_res[nrest++] = rr;
      rd[rr++] = self->dims[k];
    }
  }
  if (rr > ACL__NN_MAX_RANK)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "the result would have %d dims; %s takes at most %d. Remedy: use fewer index dims", rr, api2,
                     ACL__NN_MAX_RANK);
  /* out's shape (a mask's count: any), values' broadcast */
  int64_t want[ACL__NN_MAX_RANK];
  memcpy(want, rd, sizeof(int64_t) * (size_t)rr);
  if (mask_k > 0) {       /* the count's dim: out's or values' size there, checked against the count when run */
    int back = rr - bpos; /* values right-aligned: its dim back from the end */
    want[bpos] = !put ? ((int)other->ndim == rr ? other->dims[bpos] : 1)
                      : ((int)other->ndim >= back ? other->dims[other->ndim - (uint64_t)back] : 1);
  }
  if (!put && (rc = acl__nn_check_shape(api, api2, "out", other, want, rr)) != 0)
    return rc;
  if (put && (rc = acl__ix_broadcasts(api, "values", other, rr, want)) != 0)
    return rc;
  aclOpExecutor *ex;
  int ti[ACL__NN_MAX_RANK + 3];
  adv_job *j = acl__ix_job(api, api2, sizeof *j, adv_run, a, n, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->api2 = api2;
  j->put = put;
  j->accumulate = accumulate;
  j->nent = nent;
  j->mask_k = mask_k;
  j->rb = rb;
  j->bpos = bpos;
  j->rr = rr;
  j->nrest = nrest;
  j->ti_other = ti[1 + nent];
  memcpy(j->rdims, want, sizeof(int64_t) * (size_t)rr);
  memcpy(j->rest_self, rest_self, sizeof rest_self);
  memcpy(j->rest_res, rest_res, sizeof rest_res);
  for (int e = 0; e < nent; e++) {
    j->ent_ti[e] = ti[1 + e];
    j->ent_pos[e] = mask_k > 0 ? mask_at : pos[e];
    if (mask_k == 0) /* each index tensor broadcast to B */
      acl__ix_broadcast_view(&j->base.t[ti[1 + e]], rb, bd);
  }
  j->ti_self = put ? ti[n - 1] : ti[0];
  ex->has_list = 1; /* indices: parameter 1, its tensors inputs 1, 2 ... after self */
  ex->list_ir = 1;
  ex->list_n = (int)m;
  for (uint64_t i = 0; i < m; i++)
    ex->list_el[i] = -1;
  for (int e = 0; e < nent; e++)
    ex->list_el[pos[e]] = 1 + e;
  if (put)
    acl__ix_broadcast_view(&j->base.t[j->ti_other], rr, want);
  int64_t total = 1;
  for (int k = 0; k < rr; k++)
    total *= mask_k > 0 && k == bpos ? 1 : rd[k];
  ex->empty = total == 0 || acl__nn_numel(self) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor *self, const aclTensorList *indices, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return adv_plan(__func__, "aclnnIndex", self, indices, out, 0, 0, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnIndex)

aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor *selfRef, const aclTensorList *indices, const aclTensor *values,
                                              const bool accumulate, const bool unsafe, uint64_t *workspaceSize,
                                              aclOpExecutor **executor) {
  (void)unsafe; /* an index out of range always fails the task here, never writes */
  return adv_plan(__func__, "aclnnIndexPutImpl", selfRef, indices, values, 1, accumulate, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnIndexPutImpl)

/* ---- MaskedSelect, Nonzero ---------------------------------------------------------------- */

typedef struct count_job {
  acl__nn_job base; /* MaskedSelect: self, mask, out (self and mask broadcast); Nonzero: self, out */
  int select;
  aclTensor *resize; /* the out descriptor whose dim 0 becomes the count */
  int self_rank;     /* Nonzero: coordinates per row */
} count_job;

static int count_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  (void)dev;
  const count_job *j = (const count_job *)base;
  const acl__nn_tref *s = &base->t[0], *o = &base->t[j->select ? 2 : 1];
  int64_t n = acl__nn_tref_numel(s, 0, s->rank), cnt = 0, c[ACL__NN_MAX_RANK], oc[2];
  size_t es = acl__nn_dtype_size(s->dtype);
  int is_int = acl__nn_class_of(s->dtype) == ACL__NN_I64;
  for (int64_t i = 0; i < n; i++) {
    acl__ix_unravel(i, s->rank, s->dims, c);
    const char *se = acl__ix_at(s, ptr[0], acl__ix_off(s, c));
    if (j->select) {
      const acl__nn_tref *m = &base->t[1];
      if (acl__ix_index(acl__ix_at(m, ptr[1], acl__ix_off(m, c)), m->dtype) == 0)
        continue;
      oc[0] = cnt++;
      memcpy(acl__ix_at(o, ptr[2], acl__ix_off(o, oc)), se, es);
      continue;
    }
    int nonzero;
    if (is_int) {
      int64_t v;
      acl__nn_load_i64(&v, se, 0, 1, s->dtype);
      nonzero = v != 0;
    } else {
      double v;
      acl__nn_load_f64(&v, se, 0, 1, s->dtype);
      nonzero = v != 0;
    }
    if (!nonzero)
      continue;
    oc[0] = cnt++;
    for (int q = 0; q < j->self_rank; q++) {
      oc[1] = q;
      int64_t v = c[q];
      acl__nn_store_i64(acl__ix_at(o, ptr[1], acl__ix_off(o, oc)), 0, 1, o->dtype, &v);
    }
  }
  acl__ix_set_dim0(j->resize, cnt);
  return 0;
}

aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor *self, const aclTensor *mask, aclTensor *out,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnMaskedSelect";
  acl__ix_arg a[3] = {{"self", self, 0, 0, 0}, {"mask", mask, 0, 0, ACL__IX_MASK}, {"out", out, 1, 0, 0}};
  int rc = acl__ix_check(api, api2, a, 3, workspaceSize, executor);
  if (rc != 0)
    return rc;
  int r = self->ndim > mask->ndim ? (int)self->ndim : (int)mask->ndim;
  int64_t bd[ACL__NN_MAX_RANK], total = 1;
  for (int k = 0; k < r; k++) {
    int ks = k - (r - (int)self->ndim), km = k - (r - (int)mask->ndim);
    int64_t ds = ks >= 0 ? self->dims[ks] : 1, dm = km >= 0 ? mask->dims[km] : 1;
    bd[k] = ds == 1 ? dm : ds;
    total *= bd[k];
  }
  if ((rc = acl__ix_broadcasts(api, "self", self, r, bd)) != 0 ||
      (rc = acl__ix_broadcasts(api, "mask", mask, r, bd)) != 0)
    return rc;
  if (out->dtype != self->dtype)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out is %s and self %s; they must be of one type. Remedy: create out "
                     "of self's type",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(self->dtype));
  if (out->ndim != 1 || out->dims[0] < total)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out must be 1-D with room for every element of the broadcast shape (%lld); it has %llu dims "
                     "(first %lld). Remedy: allocate out as [%lld]; its view shape becomes [count] after the run",
                     (long long)total, (unsigned long long)out->ndim, out->ndim > 0 ? (long long)out->dims[0] : 0LL,
                     (long long)total);
  aclOpExecutor *ex;
  int ti[3];
  count_job *j = acl__ix_job(api, api2, sizeof *j, count_run, a, 3, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->select = 1;
  j->resize = out;
  acl__ix_broadcast_view(&j->base.t[0], r, bd);
  acl__ix_broadcast_view(&j->base.t[1], r, bd);
  ex->empty = 0; /* the count is written even when it is 0 */
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMaskedSelect)

aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnNonzero";
  acl__ix_arg a[2] = {{"self", self, 0, 0, ACL__IX_REAL},
                      {"out", out, 1, 0, ACL__NN_BIT(ACL_INT64) | ACL__NN_BIT(ACL_INT32)}};
  int rc = acl__ix_check(api, api2, a, 2, workspaceSize, executor);
  if (rc != 0)
    return rc;
  int64_t n = acl__nn_numel(self);
  if (out->ndim != 2 || out->dims[0] < n || out->dims[1] != (int64_t)self->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out must be [%lld, %llu] (room for every element of self, one coordinate per dim); it is %llu-D. "
                     "Remedy: allocate out so; its view shape becomes [count, %llu] after the run",
                     (long long)n, (unsigned long long)self->ndim, (unsigned long long)out->ndim,
                     (unsigned long long)self->ndim);
  aclOpExecutor *ex;
  int ti[2];
  count_job *j = acl__ix_job(api, api2, sizeof *j, count_run, a, 2, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->resize = out;
  j->self_rank = (int)self->ndim;
  ex->empty = 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnNonzero)
