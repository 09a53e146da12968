/*
 * job.c - the operators that are not element-wise (activations along a
 * dim, matrix products, convolutions, normalisations, reductions): phase 1
 * builds a job (nn.h) with the operator's tensors and attributes and hands
 * it out in an executor; phase 2 queues one task per run that holds a
 * reference to the job (executor.c, acl__nn_job_submit).
 *
 * Also the helpers the operators' kernels share: gathering a block of a
 * strided tensor of any floating type into float / double and scattering
 * it back, moving a dim to the end of a view, and splitting work over the
 * device's executors.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "common/errmsg.h"
#include "rt/rt.h"

void *acl__nn_job_new(size_t size, acl__nn_job_fn run) {
  acl__nn_job *j = calloc(1, size);
  if (j == NULL)
    return NULL;
  j->refs = 1;
  j->run = run;
  return j;
}

void acl__nn_job_unref(acl__nn_job *j) {
  if (j == NULL || __atomic_sub_fetch(&j->refs, 1, __ATOMIC_ACQ_REL) != 0)
    return;
  if (j->destroy != NULL)
    j->destroy(j);
  free(j);
}

aclOpExecutor *acl__nn_job_exec(const char *api, const char *api2, acl__nn_job *job) {
  aclOpExecutor *ex = job != NULL ? acl__nn_exec_new(api2) : NULL;
  if (ex == NULL) {
    acl__nn_job_unref(job);
    acl__fail(api, ACLNN_ERR_INNER_CREATE_EXECUTOR, __FILE__, __LINE__, "out of host memory for the executor");
    return NULL;
  }
  ex->job = job;
  return ex;
}

int acl__nn_job_tensor(aclOpExecutor *ex, const aclTensor *t, const char *name, int is_out) {
  acl__nn_job *j = ex->job;
  int s = 0;
  while (s < ex->nslots && ex->slot[s].key != t)
    s++;
  if (s == ex->nslots) {
    ex->nslots++;
    ex->slot[s].key = t;
    ex->slot[s].addr = t->data;
    ex->slot[s].name = name;
    acl__nn_dump_view(ex, s, t);
  }
  if (is_out)
    ex->out_slot[ex->n_out++] = s;
  else
    ex->in_slot[ex->n_in++] = s;
  int i = j->nt++;
  acl__nn_tref *r = &j->t[i];
  size_t es = acl__nn_dtype_size(t->dtype);
  r->slot = s;
  r->is_out = is_out;
  r->dtype = t->dtype;
  r->rank = (int)t->ndim;
  r->off = t->offset;
  int64_t lo = t->offset * (int64_t)es, hi = lo, n = 1;
  for (int k = 0; k < r->rank; k++) {
    r->dims[k] = t->dims[k];
    r->st[k] = t->strides[k];
    n *= t->dims[k];
    int64_t span = (t->dims[k] - 1) * t->strides[k] * (int64_t)es;
    if (span < 0)
      lo += span;
    else
      hi += span;
  }
  r->lo = lo;
  r->hi = n > 0 ? hi + (int64_t)es : lo;
  if (n > 0) {
    acl__nn_slot *sl = &ex->slot[s];
    if (!sl->used || r->lo < sl->lo)
      sl->lo = r->lo;
    if (!sl->used || r->hi > sl->hi)
      sl->hi = r->hi;
    sl->used = 1;
  }
  return i;
}

aclnnStatus acl__nn_job_done(aclOpExecutor *ex, uint64_t *workspaceSize, aclOpExecutor **executor) {
  *workspaceSize = ex->workspace;
  *executor = ex;
  return ACLNN_SUCCESS;
}

/* ---- views and blocks ------------------------------------------------------------------ */

void acl__nn_tref_move_last(acl__nn_tref *t, int d) {
  int64_t dim = t->dims[d], st = t->st[d];
  for (int k = d; k + 1 < t->rank; k++) {
    t->dims[k] = t->dims[k + 1];
    t->st[k] = t->st[k + 1];
  }
  t->dims[t->rank - 1] = dim;
  t->st[t->rank - 1] = st;
}

int64_t acl__nn_tref_numel(const acl__nn_tref *t, int from, int to) {
  int64_t n = 1;
  for (int k = from; k < to; k++)
    n *= t->dims[k];
  return n;
}

/* Element offset of the first element of block `outer` (dims[0..k)). */
static int64_t acl__nn_outer_off(const acl__nn_tref *t, int k, int64_t outer) {
  int64_t off = 0;
  for (int d = k - 1; d >= 0; d--) {
    off += (outer % t->dims[d]) * t->st[d];
    outer /= t->dims[d];
  }
  return off;
}

/* Walks the block dims[k..rank) of block `outer`: calls the row function
 * for each run along the last dim.  A rank-0 tref (or k == rank) is one
 * element. */
#define ACL__NN_BLOCK_WALK(ROW)                                                                                        \
  do {                                                                                                                 \
    size_t es = acl__nn_dtype_size(t->dtype);                                                                          \
    int64_t base_off = acl__nn_outer_off(t, k, outer);                                                                 \
    if (k >= t->rank) {                                                                                                \
      int64_t m = 1, st = 0, pos = 0;                                                                                  \
      char *p = (char *)base + base_off * (int64_t)es;                                                                 \
      ROW;                                                                                                             \
      break;                                                                                                           \
    }                                                                                                                  \
    int last = t->rank - 1;                                                                                            \
    int64_t m = t->dims[last], st = t->st[last] * (int64_t)es;                                                         \
    int64_t rows = acl__nn_tref_numel(t, k, last);                                                                     \
    for (int64_t r = 0; r < rows; r++) {                                                                               \
      int64_t off = base_off, rem = r;                                                                                 \
      for (int d = last - 1; d >= k; d--) {                                                                            \
        off += (rem % t->dims[d]) * t->st[d];                                                                          \
        rem /= t->dims[d];                                                                                             \
      }                                                                                                                \
      int64_t pos = r * m;                                                                                             \
      char *p = (char *)base + off * (int64_t)es;                                                                      \
      ROW;                                                                                                             \
    }                                                                                                                  \
  } while (0)

void acl__nn_gather_f32(const acl__nn_tref *t, const char *base, int k, int64_t outer, float *dst) {
  ACL__NN_BLOCK_WALK(acl__nn_load_f32(dst + pos, p, st, m, t->dtype));
}

void acl__nn_scatter_f32(const acl__nn_tref *t, char *base, int k, int64_t outer, const float *src) {
  ACL__NN_BLOCK_WALK(acl__nn_store_f32(p, st, m, t->dtype, src + pos));
}

void acl__nn_gather_f64(const acl__nn_tref *t, const char *base, int k, int64_t outer, double *dst) {
  ACL__NN_BLOCK_WALK(acl__nn_load_f64(dst + pos, p, st, m, t->dtype));
}

void acl__nn_scatter_f64(const acl__nn_tref *t, char *base, int k, int64_t outer, const double *src) {
  ACL__NN_BLOCK_WALK(acl__nn_store_f64(p, st, m, t->dtype, src + pos));
}

void acl__nn_gather_i64(const acl__nn_tref *t, const char *base, int k, int64_t outer, int64_t *dst) {
  ACL__NN_BLOCK_WALK(acl__nn_load_i64(dst + pos, p, st, m, t->dtype));
}

void acl__nn_scatter_i64(const acl__nn_tref *t, char *base, int k, int64_t outer, const int64_t *src) {
  ACL__NN_BLOCK_WALK(acl__nn_store_i64(p, st, m, t->dtype, src + pos));
}

/* ---- parallel work ----------------------------------------------------------------------- */

/* Work below this many element operations runs on the calling thread. */
#define ACL__NN_JOB_PARALLEL_MIN 65536
#define ACL__NN_JOB_MAX_BLOCKS 256

typedef struct acl__nn_pwork {
  void (*fn)(int64_t begin, int64_t end, void *arg);
  void *arg;
  int64_t n, per;
} acl__nn_pwork;

static int acl__nn_pblock(uint32_t i, void *arg) {
  const acl__nn_pwork *w = arg;
  int64_t b = (int64_t)i * w->per, e = b + w->per;
  w->fn(b, e < w->n ? e : w->n, w->arg);
  return 0;
}

int acl__nn_parallel(acl__device *dev, int64_t n, int64_t cost_per_item,
                     void (*fn)(int64_t begin, int64_t end, void *arg), void *arg) {
  if (n <= 0)
    return 0;
  int64_t cost = cost_per_item > 0 ? cost_per_item : 1;
  int64_t blocks = n * cost / (ACL__NN_JOB_PARALLEL_MIN / 2);
  if (blocks > n)
    blocks = n;
  if (blocks > ACL__NN_JOB_MAX_BLOCKS)
    blocks = ACL__NN_JOB_MAX_BLOCKS;
  if (blocks <= 1 || n * cost < ACL__NN_JOB_PARALLEL_MIN || dev == NULL) {
    fn(0, n, arg);
    return 0;
  }
  acl__nn_pwork w = {fn, arg, n, (n + blocks - 1) / blocks};
  return acl__device_parallel_for(dev, (uint32_t)((n + w.per - 1) / w.per), acl__nn_pblock, &w);
}

/* ---- scratch buffers ------------------------------------------------------------------------- */

/* Buffers of at least ACL__NN_POOL_MIN bytes go back to this pool (at most ACL__NN_POOL_N of them,
 * ACL__NN_POOL_MAX bytes in all); a request takes the smallest one that holds it and is at most twice
 * its size.  Each buffer carries its size in a 64-byte header.  acl__nn_pool_lock guards the pool (a
 * leaf lock). */
#define ACL__NN_POOL_N 16
#define ACL__NN_POOL_MIN (64u << 10)
#define ACL__NN_POOL_MAX ((size_t)256 << 20)
#define ACL__NN_HDR 64

static pthread_mutex_t acl__nn_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static void *acl__nn_pool[ACL__NN_POOL_N]; /* headers */
static int acl__nn_pool_n;
static size_t acl__nn_pool_bytes;

static size_t acl__nn_temp_size(const void *hdr) { return *(const size_t *)hdr; }

void *acl__nn_temp(size_t bytes) {
  size_t want = (bytes + 4095) / 4096 * 4096;
  char *hdr = NULL;
  if (want >= ACL__NN_POOL_MIN) {
    pthread_mutex_lock(&acl__nn_pool_lock);
    int best = -1;
    for (int i = 0; i < acl__nn_pool_n; i++) {
      size_t s = acl__nn_temp_size(acl__nn_pool[i]);
      if (s >= want && s <= 2 * want && (best < 0 || s < acl__nn_temp_size(acl__nn_pool[best])))
        best = i;
    }
    if (best >= 0) {
      hdr = acl__nn_pool[best];
      acl__nn_pool[best] = acl__nn_pool[--acl__nn_pool_n];
      acl__nn_pool_bytes -= acl__nn_temp_size(hdr);
    }
    pthread_mutex_unlock(&acl__nn_pool_lock);
  }
  if (hdr == NULL) {
    if ((hdr = aligned_alloc(64, want + ACL__NN_HDR)) == NULL)
      return NULL;
    *(size_t *)hdr = want;
  }
  return hdr + ACL__NN_HDR;
}

void acl__nn_temp_free(void *p) {
  if (p == NULL)
    return;
  char *hdr = (char *)p - ACL__NN_HDR;
  size_t s = acl__nn_temp_size(hdr);
  if (s >= ACL__NN_POOL_MIN) {
    pthread_mutex_lock(&acl__nn_pool_lock);
    if (acl__nn_pool_n < ACL__NN_POOL_N && acl__nn_pool_bytes + s <= ACL__NN_POOL_MAX) {
      acl__nn_pool[acl__nn_pool_n++] = hdr;
      acl__nn_pool_bytes += s;
      hdr = NULL;
    }
    pthread_mutex_unlock(&acl__nn_pool_lock);
  }
  free(hdr);
}

void acl__nn_temp_drain(void) {
  pthread_mutex_lock(&acl__nn_pool_lock);
  while (acl__nn_pool_n > 0)
    free(acl__nn_pool[--acl__nn_pool_n]);
  acl__nn_pool_bytes = 0;
  pthread_mutex_unlock(&acl__nn_pool_lock);
}
