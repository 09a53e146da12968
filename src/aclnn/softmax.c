/*
 * softmax.c - Softmax and LogSoftmax along one dim (reference aclnn.md
 * section 8.4).
 *
 * Each line along `dim` is read into a buffer (float for float32, float16
 * and bfloat16; double for double), its maximum subtracted, the exponentials
 * summed in double, and the result written in out's type; lines are shared
 * out over the device's executors.  The dim is moved to the end of both
 * views (nothing is copied), so any dim and any strides take the same path.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_softmax.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

typedef struct softmax_job {
  acl__nn_job base; /* t[0] self, t[1] out, the dim moved last in both */
  int log;
  int dbl; /* computes in double */
} softmax_job;

typedef struct softmax_work {
  const softmax_job *j;
  char *const *ptr;
  int failed;
} softmax_work;

#define SOFTMAX_LINE(T, EXP)                                                                                           \
  do {                                                                                                                 \
    T mx = -INFINITY;                                                                                                  \
    for (int64_t i = 0; i < len; i++)                                                                                  \
      mx = buf[i] > mx || buf[i] != buf[i] ? buf[i] : mx;                                                              \
    double sum = 0;                                                                                                    \
    if (j->log) {                                                                                                      \
      for (int64_t i = 0; i < len; i++)                                                                                \
        sum += EXP(buf[i] - mx);                                                                                       \
      T lse = mx + (T)log(sum);                                                                                        \
      for (int64_t i = 0; i < len; i++)                                                                                \
        buf[i] -= lse;                                                                                                 \
    } else {                                                                                                           \
      for (int64_t i = 0; i < len; i++) {                                                                              \
        buf[i] = EXP(buf[i] - mx);                                                                                     \
        sum += buf[i];                                                                                                 \
      }                                                                                                                \
      T inv = (T)(1 / sum);                                                                                            \
      for (int64_t i = 0; i < len; i++)                                                                                \
        buf[i] *= inv;                                                                                                 \
    }                                                                                                                  \
  } while (0)

static void softmax_lines(int64_t begin, int64_t end, void *arg) {
  softmax_work *w = arg;
  const softmax_job *j = w->j;
  const acl__nn_tref *in = &j->base.t[0], *out = &j->base.t[1];
  int k = in->rank - 1;
  int64_t len = in->dims[k];
  void *mem = malloc((size_t)len * (j->dbl ? sizeof(double) : sizeof(float)));
  if (mem == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    return;
  }
  for (int64_t line = begin; line < end; line++) {
    if (j->dbl) {
      double *buf = mem;
      acl__nn_gather_f64(in, w->ptr[0], k, line, buf);
      SOFTMAX_LINE(double, exp);
      acl__nn_scatter_f64(out, w->ptr[1], k, line, buf);
    } else {
      float *buf = mem;
      acl__nn_gather_f32(in, w->ptr[0], k, line, buf);
      SOFTMAX_LINE(float, expf);
      acl__nn_scatter_f32(out, w->ptr[1], k, line, buf);
    }
  }
  free(mem);
}

static int softmax_run(const acl__nn_job *base, char *const *ptr, acl__device *dev) {
  const softmax_job *j = (const softmax_job *)base;
  const acl__nn_tref *in = &base->t[0];
  int64_t len = in->dims[in->rank - 1];
  softmax_work w = {j, ptr, 0};
  int rc = acl__nn_parallel(dev, acl__nn_tref_numel(in, 0, in->rank - 1), len * 8, softmax_lines, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

static aclnnStatus softmax(const char *api, const char *api2, int log, const aclTensor *self, int64_t dim,
                           const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  int rc = 0;
  char s1[200], s2[200];
  const uint64_t types = ACL__NN_FLOATS;
  if (acl__nn_tensor_arg(api, "self", self, &rc) == NULL || acl__nn_tensor_arg(api, "out", out, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  if ((rc = acl__nn_check_dims(api, api2, "self", self)) != 0 ||
      (rc = acl__nn_check_dims(api, api2, "out", out)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, types)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, types)) != 0)
    return rc;
  int min_rank = log ? 1 : 0;
  if ((int)self->ndim < min_rank)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "self has %llu dims; %s takes %d to %d. Remedy: give self a shape of that rank",
                     (unsigned long long)self->ndim, api2, min_rank, ACL__NN_MAX_RANK);
  int rank = (int)self->ndim, r1 = rank > 0 ? rank : 1;
  if (dim < -r1 || dim >= r1)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "dim is %lld, out of range for self of %d dims: it must lie in [%d, %d]. Remedy: pass a dim of "
                     "self (negative counts from the end)",
                     (long long)dim, rank, -r1, r1 - 1);
  int same = out->ndim == self->ndim;
  for (int k = 0; same && k < rank; k++)
    same = out->dims[k] == self->dims[k];
  if (!same)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "out has shape %s but self has %s: %s writes self's shape. Remedy: create out with self's shape",
                     acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1),
                     acl__nn_shape_text(self->dims, self->ndim, s2, sizeof s2), api2);
  for (int k = 0; k < rank; k++)
    if (out->dims[k] > 1 && out->strides[k] == 0)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "out has stride 0 along dim %d of size %lld: several of its elements are one memory location. "
                       "Remedy: give out distinct elements",
                       k, (long long)out->dims[k]);

  softmax_job *j = acl__nn_job_new(sizeof *j, softmax_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->log = log;
  j->dbl = self->dtype == ACL_DOUBLE || out->dtype == ACL_DOUBLE;
  int a = acl__nn_job_tensor(ex, self, "self", 0), b = acl__nn_job_tensor(ex, out, "out", 1);
  if (rank == 0) { /* one element: a line of 1 */
    for (int i = 0; i < 2; i++) {
      acl__nn_tref *t = &j->base.t[i];
      t->rank = 1;
      t->dims[0] = 1;
      t->st[0] = 0;
    }
  } else {
    int d = (int)(dim < 0 ? dim + rank : dim);
    acl__nn_tref_move_last(&j->base.t[a], d);
    acl__nn_tref_move_last(&j->base.t[b], d);
  }
  ex->empty = acl__nn_numel(self) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  return softmax(__func__, "aclnnSoftmax", 0, self, dim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSoftmax)

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
  return softmax(__func__, "aclnnLogSoftmax", 1, self, dim, out, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnLogSoftmax)
