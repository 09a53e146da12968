/*
 * copy.c - the copy engine under the shape, fill and creation operators of
 * reference aclnn.md sections 8.8 and 8.12 (shape.c, fill.c): a job of
 * pieces, each a strided view of one of the job's tensors copied into a
 * view of another (converted to its type), a constant filled into a view,
 * a triangle of the last two dims kept, or an arithmetic sequence.
 *
 * Every shape operator is a view of its input with out's dims: Permute
 * permutes the strides, Slice scales and offsets them, Flip negates them,
 * Expand zeroes the broadcast ones, Flatten and Repeat split out's dims
 * (Repeat into (repeat, size) pairs, up to 16 dims).  Cat, Stack and the
 * Splits are one piece per list element.  Phase 1 merges the dims a piece
 * walks in step; a task walks each piece row by row (the innermost dim),
 * rows shared out over the device's executors, pieces in order.
 *
 * A job's inputs that share memory with its outputs are read from a copy
 * (executor.c), so in-place forms and overlapping views are safe; Tril /
 * Triu and InplaceCopy are pointwise (nn.h), so an input that is the
 * output's very view is read in place instead.
 */
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "common/errmsg.h"
#include "rt/half.h"
#include "rt/rt.h"

typedef struct cp_job {
  acl__nn_job base;
  int n, cap; /* pieces used, room */
  acl__nn_piece p[];
} cp_job;

static int cp_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev);

/* ---- conversion ---------------------------------------------------------------------------- */

/* Element k of type t at s as a complex value (real types: imaginary 0). */
static void cp_load_c(const char *s, aclDataType t, double *re, double *im) {
  if (t == ACL_COMPLEX64) {
    float v[2];
    memcpy(v, s, sizeof v);
    *re = v[0];
    *im = v[1];
  } else if (t == ACL_COMPLEX128) {
    double v[2];
    memcpy(v, s, sizeof v);
    *re = v[0];
    *im = v[1];
  } else if (t == ACL_COMPLEX32) {
    uint16_t v[2];
    memcpy(v, s, sizeof v);
    *re = acl__half_to_float(v[0]);
    *im = acl__half_to_float(v[1]);
  } else {
    acl__nn_load_f64(re, s, 0, 1, t);
    *im = 0;
  }
}

static void cp_store_c(char *d, aclDataType t, double re, double im) {
  if (t == ACL_COMPLEX64) {
    float v[2] = {(float)re, (float)im};
    memcpy(d, v, sizeof v);
  } else if (t == ACL_COMPLEX128) {
    double v[2] = {re, im};
    memcpy(d, v, sizeof v);
  } else if (t == ACL_COMPLEX32) {
    uint16_t v[2] = {acl__float_to_half((float)re), acl__float_to_half((float)im)};
    memcpy(d, v, sizeof v);
  } else {
    acl__nn_store_f64(d, 0, 1, t, &re);
  }
}

#define CP_CHUNK 256

void acl__nn_convert(char *d, int64_t ds, aclDataType dt, const char *s, int64_t ss, aclDataType st, int64_t n) {
  if (dt == st) {
    size_t es = acl__nn_dtype_size(dt);
    if (d == s && ds == ss) /* onto itself (an in-place operator): nothing to move */
      return;
    if (ds == (int64_t)es && ss == (int64_t)es) {
      memmove(d, s, (size_t)n * es);
      return;
    }
#define CP_MOVE(T)                                                                                                     \
  for (int64_t k = 0; k < n; k++)                                                                                      \
    memcpy(d + k * ds, s + k * ss, sizeof(T));                                                                         \
  break
    switch (es) {
    case 1:
      CP_MOVE(uint8_t);
    case 2:
      CP_MOVE(uint16_t);
    case 4:
      CP_MOVE(uint32_t);
    case 8:
      CP_MOVE(uint64_t);
    default:
      for (int64_t k = 0; k < n; k++)
        memcpy(d + k * ds, s + k * ss, es);
      break;
    }
#undef CP_MOVE
    return;
  }
  if (acl__nn_is_complex(dt) || acl__nn_is_complex(st)) {
    for (int64_t k = 0; k < n; k++) {
      double re, im;
      cp_load_c(s + k * ss, st, &re, &im);
      cp_store_c(d + k * ds, dt, re, im);
    }
    return;
  }
  int in_int = !acl__nn_is_float(dt) && !acl__nn_is_float(st); /* exact for every integer */
  union {
    double f[CP_CHUNK];
    int64_t i[CP_CHUNK];
  } b;
  for (int64_t k = 0; k < n; k += CP_CHUNK) {
    int64_t m = n - k < CP_CHUNK ? n - k : CP_CHUNK;
    if (in_int) {
      acl__nn_load_i64(b.i, s + k * ss, ss, m, st);
      acl__nn_store_i64(d + k * ds, ds, m, dt, b.i);
    } else {
      acl__nn_load_f64(b.f, s + k * ss, ss, m, st);
      acl__nn_store_f64(d + k * ds, ds, m, dt, b.f);
    }
  }
}

/* ---- phase 1 ------------------------------------------------------------------------------- */

aclOpExecutor *acl__nn_cp_new(const char *api, const char *api2, int npieces) {
  cp_job *j = acl__nn_job_new(sizeof(cp_job) + (size_t)npieces * sizeof(acl__nn_piece), cp_run);
  if (j != NULL)
    j->cap = npieces;
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  return ex;
}

int acl__nn_cp_tensor(aclOpExecutor *ex, const aclTensor *t, const char *name, int role) {
  int i = acl__nn_job_tensor(ex, t, name, role == ACL__NN_CP_OUT);
  if (role == ACL__NN_CP_IN_UNREAD) /* nothing is read from it: no memory check, no copy before the run */
    ex->job->t[i].hi = ex->job->t[i].lo;
  return i;
}

void acl__nn_cp_full(acl__nn_view *v, int ti, const aclTensor *t) {
  memset(v, 0, sizeof *v);
  v->t = ti;
  v->rank = (int)t->ndim;
  for (int k = 0; k < v->rank; k++) {
    v->dims[k] = t->dims[k];
    v->st[k] = t->strides[k];
  }
}

acl__nn_piece *acl__nn_cp_add(aclOpExecutor *ex, acl__nn_piece_kind kind) {
  cp_job *j = (cp_job *)ex->job;
  if (j->n >= j->cap)
    return NULL;
  acl__nn_piece *p = &j->p[j->n++];
  memset(p, 0, sizeof *p);
  p->kind = kind;
  return p;
}

void acl__nn_cp_const(aclOpExecutor *ex, acl__nn_piece *p, const aclScalar *s, double v) {
  aclDataType dt = ex->job->t[p->dst.t].dtype;
  memset(p->c, 0, sizeof p->c);
  if (s == NULL) {
    cp_store_c((char *)p->c, dt, v, 0);
    return;
  }
  if (s->dtype == dt) { /* exactly the caller's value (int64 beyond 2^53, complex parts) */
    memcpy(p->c, s->v.raw, acl__nn_dtype_size(dt));
    return;
  }
  if (acl__nn_is_complex(s->dtype)) {
    acl__nn_convert((char *)p->c, 0, dt, (const char *)s->v.raw, 0, s->dtype, 1);
    return;
  }
  acl__nn_val x;
  acl__nn_const_of(s, acl__nn_is_float(s->dtype) ? ACL_DOUBLE : ACL_INT64, &x);
  if (acl__nn_is_float(s->dtype))
    cp_store_c((char *)p->c, dt, x.d, 0);
  else if (acl__nn_is_complex(dt))
    cp_store_c((char *)p->c, dt, (double)x.i, 0);
  else
    acl__nn_store_i64((char *)p->c, 0, 1, dt, &x.i);
}

static int64_t cp_numel(const acl__nn_view *v) {
  int64_t n = 1;
  for (int k = 0; k < v->rank; k++)
    n *= v->dims[k];
  return n;
}

/* Drops dims of 1 and merges neighbours that every view of the piece walks
 * in step (st[k] == st[k+1] * dims[k+1]).  A triangle keeps its last two dims. */
static void cp_merge(acl__nn_piece *p) {
  acl__nn_view *vs[2] = {&p->dst, &p->src};
  int nv = p->kind == ACL__NN_PIECE_FILL || p->kind == ACL__NN_PIECE_ARANGE ? 1 : 2;
  int keep = p->kind == ACL__NN_PIECE_TRIL || p->kind == ACL__NN_PIECE_TRIU ? 2 : 0;
  int rank = p->dst.rank, lead = rank - keep, r = 0;
  for (int k = 0; k < rank; k++) {
    if (k < lead && p->dst.dims[k] == 1 && rank > 1)
      continue;
    int merge = r > 0 && k < lead;
    for (int v = 0; v < nv && merge; v++)
      merge = vs[v]->st[r - 1] == vs[v]->st[k] * vs[v]->dims[k];
    if (merge) {
      for (int v = 0; v < nv; v++) {
        vs[v]->dims[r - 1] *= vs[v]->dims[k];
        vs[v]->st[r - 1] = vs[v]->st[k];
      }
      continue;
    }
    for (int v = 0; v < nv; v++) {
      vs[v]->dims[r] = vs[v]->dims[k];
      vs[v]->st[r] = vs[v]->st[k];
    }
    r++;
  }
  if (r == 0) { /* every dim was 1, or 0-D: one element */
    for (int v = 0; v < nv; v++) {
      vs[v]->dims[0] = 1;
      vs[v]->st[0] = 0;
    }
    r = 1;
  }
  for (int v = 0; v < nv; v++)
    vs[v]->rank = r;
}

aclnnStatus acl__nn_cp_done(aclOpExecutor *ex, uint64_t *workspaceSize, aclOpExecutor **executor) {
  cp_job *j = (cp_job *)ex->job;
  int empty = 1;
  for (int i = 0; i < j->n; i++) {
    cp_merge(&j->p[i]);
    if (cp_numel(&j->p[i].dst) > 0)
      empty = 0;
  }
  ex->empty = empty;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

/* ---- the task ------------------------------------------------------------------------------ */

typedef struct cp_work {
  const cp_job *j;
  const acl__nn_piece *p;
  char *const *ptr;
  size_t des, ses;    /* element sizes of dst and src */
  int64_t nch, chunk; /* each row is cut in nch runs of chunk elements (the last shorter) */
} cp_work;

/* Rows of at least this many elements are cut into runs, so that a large
 * contiguous piece (one row after merging) is shared out too. */
#define CP_RUN 16384

static void cp_fill(char *d, int64_t ds, const unsigned char *c, size_t es, int64_t n) {
  if (es == 1 && ds == 1) {
    memset(d, c[0], (size_t)n);
    return;
  }
  for (int64_t k = 0; k < n; k++)
    memcpy(d + k * ds, c, es);
}

/* Runs items [begin, end): item i is run i % nch of row i / nch. */
static void cp_rows(int64_t begin, int64_t end, void *arg) {
  const cp_work *w = arg;
  const acl__nn_piece *p = w->p;
  const cp_job *j = w->j;
  const acl__nn_view *dv = &p->dst, *sv = &p->src;
  aclDataType dt = j->base.t[dv->t].dtype, st = j->base.t[sv->t].dtype;
  int last = dv->rank - 1;
  int64_t len = dv->dims[last], dstep = dv->st[last] * (int64_t)w->des, sstep = sv->st[last] * (int64_t)w->ses;
  static const unsigned char zero[16];
  for (int64_t it = begin; it < end; it++) {
    int64_t r = it / w->nch, c0 = (it % w->nch) * w->chunk, c1 = c0 + w->chunk < len ? c0 + w->chunk : len;
    int64_t doff = dv->off, soff = sv->off, rem = r, row = 0;
    for (int k = last - 1; k >= 0; k--) {
      int64_t i = rem % dv->dims[k];
      rem /= dv->dims[k];
      if (k == last - 1)
        row = i;
      doff += i * dv->st[k];
      soff += i * sv->st[k];
    }
    char *d = w->ptr[dv->t] + doff * (int64_t)w->des + c0 * dstep;
    const char *s = p->kind == ACL__NN_PIECE_COPY ? w->ptr[sv->t] + soff * (int64_t)w->ses + c0 * sstep : NULL;
    switch (p->kind) {
    case ACL__NN_PIECE_COPY:
      acl__nn_convert(d, dstep, dt, s, sstep, st, c1 - c0);
      break;
    case ACL__NN_PIECE_FILL:
      cp_fill(d, dstep, p->c, w->des, c1 - c0);
      break;
    case ACL__NN_PIECE_TRIL:
    case ACL__NN_PIECE_TRIU: {
      /* whole rows (nch 1); kept columns: [0, row + diag] (Tril) or [row + diag, len) (Triu) */
      const char *src = w->ptr[sv->t] + soff * (int64_t)w->ses;
      int64_t a = 0, b = len, edge = row + p->diag;
      if (p->kind == ACL__NN_PIECE_TRIL)
        b = edge + 1 < 0 ? 0 : edge + 1 > len ? len : edge + 1;
      else
        a = edge < 0 ? 0 : edge > len ? len : edge;
      cp_fill(d, dstep, zero, w->des, a);
      acl__nn_convert(d + a * dstep, dstep, dt, src + a * sstep, sstep, st, b - a);
      cp_fill(d + b * dstep, dstep, zero, w->des, len - b);
      break;
    }
    case ACL__NN_PIECE_ARANGE: {
      int64_t buf[CP_CHUNK];
      double f[CP_CHUNK];
      for (int64_t k = c0; k < c1; k += CP_CHUNK) {
        int64_t m = c1 - k < CP_CHUNK ? c1 - k : CP_CHUNK;
        for (int64_t q = 0; q < m; q++) {
          int64_t at = r * len + k + q;
          if (p->int_steps)
            buf[q] = (int64_t)((uint64_t)p->istart + (uint64_t)at * (uint64_t)p->istep);
          else
            f[q] = p->start + (double)at * p->step;
        }
        char *dk = d + (k - c0) * dstep;
        if (p->int_steps)
          acl__nn_store_i64(dk, dstep, m, dt, buf);
        else
          acl__nn_store_f64(dk, dstep, m, dt, f);
      }
      break;
    }
    }
  }
}

static int cp_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const cp_job *j = (const cp_job *)base;
  for (int i = 0; i < j->n; i++) {
    const acl__nn_piece *p = &j->p[i];
    int64_t n = cp_numel(&p->dst);
    if (n == 0)
      continue;
    int tri = p->kind == ACL__NN_PIECE_TRIL || p->kind == ACL__NN_PIECE_TRIU;
    int64_t len = p->dst.dims[p->dst.rank - 1], nch = tri || len < 2 * CP_RUN ? 1 : len / CP_RUN;
    cp_work w = {j,
                 p,
                 ptr,
                 acl__nn_dtype_size(j->base.t[p->dst.t].dtype),
                 p->kind == ACL__NN_PIECE_FILL || p->kind == ACL__NN_PIECE_ARANGE
                     ? 0
                     : acl__nn_dtype_size(j->base.t[p->src.t].dtype),
                 nch,
                 (len + nch - 1) / nch};
    int rc = acl__nn_parallel(dev, n / len * nch, w.chunk, cp_rows, &w);
    if (rc != 0)
      return rc;
  }
  return 0;
}

/* ---- the checks the operators share ------------------------------------------------------- */

int acl__nn_cp_args(const char *api, const char *api2, int n, const aclTensor *const *ts, const char *const *names,
                    const uint64_t *workspaceSize, aclOpExecutor *const *executor) {
  int rc = 0;
  for (int i = 0; i < n; i++)
    if (names[i] != NULL && acl__nn_tensor_arg(api, names[i], ts[i], &rc) == NULL)
      return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  for (int i = 0; i < n; i++)
    if (names[i] != NULL && (rc = acl__nn_check_dims(api, api2, names[i], ts[i])) != 0)
      return rc;
  return 0;
}

int acl__nn_check_shape(const char *api, const char *api2, const char *name, const aclTensor *t, const int64_t *want,
                        int rank) {
  char s1[200], s2[200];
  int same = (int)t->ndim == rank;
  for (int k = 0; same && k < rank; k++)
    same = t->dims[k] == want[k];
  if (same)
    return 0;
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s has shape %s; %s writes %s here. Remedy: create %s with that shape", name,
                   acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1), api2,
                   acl__nn_shape_text(want, (uint64_t)rank, s2, sizeof s2), name);
}
