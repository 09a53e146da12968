/*
 * sum.c - Sum of a tensor list (reference aclnn.md section 8.11, "Sum
 * (list)"; the vendor's AccumulateNV2, TensorFlow's AddN): out = tensors[0]
 * + tensors[1] + ... element by element, each tensor broadcast to out's
 * shape.  Not a reduction: ReduceSum (reduce.c) sums along dims.
 *
 * The work is the element-wise engine's (kernel.c): phase 1 builds one plan
 * geometry for the list's elements and out together (the broadcast shape,
 * dims merged where every operand allows, each operand's byte strides), and
 * the task runs it as a chain of Adds over each block of out's elements:
 * out = t0 + t1, then out = out + t2, ... so each addition is rounded to the
 * type as the vendor's kernel adds pairwise in it (float16 sums round after
 * every term; integers wrap).  One tensor is a copy.
 *
 * The elements and out are of one type (f32, f16, s8, s32, u8: the
 * reference's list).  An element that shares memory with out is read from a
 * copy taken when the task runs (job.c), since out is written before the
 * later terms are read.
 */
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_sum.h"
#include "common/errmsg.h"
#include "prof/prof.h"

#define SUM_T                                                                                                          \
  (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_INT8) | ACL__NN_BIT(ACL_INT32) |                \
   ACL__NN_BIT(ACL_UINT8))

/* At most this many terms: each is a tensor of the executor, out is one more. */
#define SUM_MAX (ACL__NN_MAX_SLOTS - 1)

/* Names of list elements in messages (an executor keeps the pointer). */
static const char *const sum_names[SUM_MAX] = {
    "tensors[0]",  "tensors[1]",  "tensors[2]",  "tensors[3]",  "tensors[4]",  "tensors[5]",  "tensors[6]",
    "tensors[7]",  "tensors[8]",  "tensors[9]",  "tensors[10]", "tensors[11]", "tensors[12]", "tensors[13]",
    "tensors[14]", "tensors[15]", "tensors[16]", "tensors[17]", "tensors[18]", "tensors[19]", "tensors[20]",
    "tensors[21]", "tensors[22]", "tensors[23]", "tensors[24]", "tensors[25]", "tensors[26]", "tensors[27]",
    "tensors[28]", "tensors[29]", "tensors[30]"};

typedef struct sum_job {
  acl__nn_job base;          /* trefs: the n terms, then out */
  int n;                     /* terms */
  acl__nn_plan plan;         /* the geometry and out; in[] is set for each step when run */
  acl__nn_arg term[SUM_MAX]; /* each term seen from out's shape (byte strides of the plan's dims) */
} sum_job;

typedef struct sum_work {
  const sum_job *j;
  char *const *ptr;
} sum_work;

/* Output elements [begin, end): every step of the chain over them. */
static void sum_range(int64_t begin, int64_t end, void *arg) {
  const sum_work *w = arg;
  const sum_job *j = w->j;
  acl__nn_plan p = j->plan;
  p.out.p = w->ptr[j->n];
  p.in[0] = j->term[0];
  p.in[0].p = w->ptr[0];
  if (j->n == 1) {
    p.op = ACL__NN_COPY;
    p.nin = 1;
    acl__nn_kernel_range(&p, begin, end);
    return;
  }
  for (int k = 1; k < j->n; k++) {
    if (k > 1) { /* the sum so far, where it lies in out */
      p.in[0] = p.out;
    }
    p.in[1] = j->term[k];
    p.in[1].p = w->ptr[k];
    acl__nn_kernel_range(&p, begin, end);
  }
}

static int sum_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const sum_job *j = (const sum_job *)base;
  sum_work w = {j, ptr};
  return acl__nn_parallel(dev, j->plan.numel, j->n, sum_range, &w);
}

aclnnStatus aclnnSumGetWorkspaceSize(const aclTensorList *tensors, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSum";
  int rc = 0;
  char s1[200], s2[200];
  uint64_t n = 0;

  /* NULL pointers and dead objects, in parameter order */
  aclTensor *const *v = acl__nn_tensor_list_arg(api, "tensors", tensors, &n, &rc);
  if (v == NULL)
    return rc;
  for (uint64_t i = 0; i < n && i < SUM_MAX; i++)
    if (acl__nn_tensor_arg(api, sum_names[i], v[i], &rc) == NULL)
      return rc;
  if (acl__nn_tensor_arg(api, "out", out, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", workspaceSize == NULL ? "workspaceSize" : "executor");
  if (n == 0 || n > SUM_MAX)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "tensors has %llu tensors; openacl's %s takes 1 to %d. Remedy: %s",
                     (unsigned long long)n, api2, SUM_MAX,
                     n == 0 ? "give at least one tensor" : "sum in several calls (the partial sums are tensors too)");

  /* ranks and types: one type for all */
  for (uint64_t i = 0; i < n; i++)
    if ((rc = acl__nn_check_dims(api, api2, sum_names[i], v[i])) != 0 ||
        (rc = acl__nn_check_type(api, api2, "tensor", sum_names[i], v[i]->dtype, SUM_T)) != 0)
      return rc;
  if ((rc = acl__nn_check_dims(api, api2, "out", out)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, SUM_T)) != 0)
    return rc;
  aclDataType dt = v[0]->dtype;
  for (uint64_t i = 1; i < n; i++)
    if (v[i]->dtype != dt)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "%s is %s but tensors[0] is %s: %s adds tensors of one type. Remedy: cast them to one type "
                       "(aclnnCast)",
                       sum_names[i], acl__nn_dtype_name(v[i]->dtype), acl__nn_dtype_name(dt), api2);
  if (out->dtype != dt)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "out is %s but the tensors are %s: %s writes their own type. Remedy: create out as %s",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(dt), api2, acl__nn_dtype_name(dt));

  /* shapes: numpy broadcasting of every term; out is exactly the result */
  int rank = 0;
  int64_t dims[ACL__NN_MAX_RANK] = {0};
  for (uint64_t i = 0; i < n; i++) {
    const aclTensor *t = v[i];
    int rt = (int)t->ndim, nr = rt > rank ? rt : rank;
    int64_t nd[ACL__NN_MAX_RANK];
    for (int k = 0; k < nr; k++) {
      int ka = k - (nr - rank), kb = k - (nr - rt);
      int64_t a = ka >= 0 ? dims[ka] : 1, b = kb >= 0 ? t->dims[kb] : 1;
      if (a != b && a != 1 && b != 1)
        return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                         "%s %s does not broadcast with the shape %s of the tensors before it: from the last dim "
                         "on, each pair of dims must be equal or one of them 1. Remedy: reshape it (a view with dims "
                         "of 1 where it repeats)",
                         sum_names[i], acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1),
                         acl__nn_shape_text(dims, (uint64_t)rank, s2, sizeof s2));
      nd[k] = a == 1 ? b : a;
    }
    rank = nr;
    memcpy(dims, nd, (size_t)rank * sizeof dims[0]);
  }
  if ((rc = acl__nn_check_shape(api, api2, "out", out, dims, rank)) != 0)
    return rc;
  for (uint64_t k = 0; k < out->ndim; k++)
    if (out->dims[k] > 1 && out->strides[k] == 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "out has stride 0 along dim %llu of size %lld: several of its elements are one memory "
                       "location. Remedy: give out distinct elements",
                       (unsigned long long)k, (long long)out->dims[k]);

  /* the job: the terms, out, and the plan's geometry over all of them */
  sum_job *j = acl__nn_job_new(sizeof *j, sum_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->n = (int)n;
  for (uint64_t i = 0; i < n; i++)
    acl__nn_job_tensor(ex, v[i], sum_names[i], 0);
  acl__nn_job_tensor(ex, out, "out", 1);
  ex->has_list = 1; /* aclSetDynamicInputTensorAddr: tensors is input 0 */
  ex->list_n = (int)n;
  for (uint64_t i = 0; i < n; i++)
    ex->list_el[i] = (int)i;

  acl__nn_plan *p = &j->plan;
  p->op = ACL__NN_ADD;
  p->nin = 2;
  p->cdt = dt;
  p->lcls = p->rcls = acl__nn_class_of(dt);
  p->alpha_one = 1;
  p->out.dtype = dt;
  int64_t est[ACL__NN_MAX_SLOTS][ACL__NN_MAX_RANK];
  acl__nn_arg *args[ACL__NN_MAX_SLOTS];
  for (uint64_t i = 0; i < n; i++) {
    j->term[i].dtype = dt;
    acl__nn_bcast_strides(v[i], rank, dims, est[i]);
    args[i] = &j->term[i];
  }
  acl__nn_bcast_strides(out, rank, dims, est[n]);
  args[n] = &p->out;
  acl__nn_plan_dims(p, rank, dims, (int)n + 1, args, est);
  ex->empty = p->numel == 0 || acl__nn_numel(out) == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnSum)
