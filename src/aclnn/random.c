/*
 * random.c - the random operators of reference aclnn.md section 8.13:
 * Dropout.
 *
 * Random numbers are counter-based: element i (row-major over input) draws
 * u = hash(seed, offset + i) in [0, 1) and is kept when u >= p, so a given
 * seed and offset give the same mask whatever the strides and however the
 * work is split over the device's executors; a caller advances offset by
 * the elements it used to get fresh numbers (as the vendor's philox
 * offset).  The hash is SplitMix64's finaliser over the 64-bit mix of the
 * two (a bijection of the counter for each seed).
 *
 * maskOut holds one bit per element, bit i%8 of byte i/8 set when element
 * i is kept, over align(numel, 128) bits (the bits past numel are 0).
 * train false or p 0: out = input and maskOut is left as it is; p 1: every
 * element dropped (out 0, mask 0).
 */
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_dropout.h"
#include "common/errmsg.h"
#include "prof/prof.h"

#define DROP_T (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))

typedef struct drop_job {
  acl__nn_job base;    /* input, out, maskOut */
  int64_t numel, bits; /* bits: numel rounded up to 128 */
  double p, scale;
  uint64_t seed, offset;
  int copy; /* out = input, mask untouched */
} drop_job;

static uint64_t drop_hash(uint64_t seed, uint64_t counter) {
  uint64_t z = counter + seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Element offset of element i (row-major) of tref t. */
static int64_t drop_at(const acl__nn_tref *t, int64_t i) {
  int64_t off = 0;
  for (int d = t->rank - 1; d >= 0; d--) {
    off += (i % t->dims[d]) * t->st[d];
    i /= t->dims[d];
  }
  return off;
}

typedef struct drop_work {
  const drop_job *j;
  char *const *ptr;
} drop_work;

/* Groups of 8 elements (one mask byte each). */
static void drop_groups(int64_t begin, int64_t end, void *arg) {
  const drop_work *w = arg;
  const drop_job *j = w->j;
  const acl__nn_tref *ti = &j->base.t[0], *to = &j->base.t[1];
  size_t ies = acl__nn_dtype_size(ti->dtype), oes = acl__nn_dtype_size(to->dtype);
  unsigned char *mask = (unsigned char *)w->ptr[2];
  for (int64_t g = begin; g < end; g++) {
    unsigned bits = 0;
    for (int64_t i = g * 8; i < g * 8 + 8 && i < j->numel; i++) {
      float x;
      acl__nn_load_f32(&x, w->ptr[0] + drop_at(ti, i) * (int64_t)ies, 0, 1, ti->dtype);
      double u = (double)(drop_hash(j->seed, j->offset + (uint64_t)i) >> 11) * 0x1.0p-53;
      int keep = u >= j->p;
      float y = keep ? (float)(x * j->scale) : 0.0f;
      acl__nn_store_f32(w->ptr[1] + drop_at(to, i) * (int64_t)oes, 0, 1, to->dtype, &y);
      bits |= (unsigned)keep << (i % 8);
    }
    mask[g] = (unsigned char)bits;
  }
}

static int drop_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const drop_job *j = (const drop_job *)base;
  drop_work w = {j, ptr};
  if (j->copy) {
    const acl__nn_tref *ti = &j->base.t[0], *to = &j->base.t[1];
    size_t ies = acl__nn_dtype_size(ti->dtype), oes = acl__nn_dtype_size(to->dtype);
    for (int64_t i = 0; i < j->numel; i++)
      acl__nn_convert(ptr[1] + drop_at(to, i) * (int64_t)oes, 0, to->dtype, ptr[0] + drop_at(ti, i) * (int64_t)ies, 0,
                      ti->dtype, 1);
    return 0;
  }
  return acl__nn_parallel(dev, j->bits / 8, 8 * 8, drop_groups, &w);
}

aclnnStatus aclnnDropoutGetWorkspaceSize(const aclTensor *input, double p, bool train, int64_t seed, int64_t offset,
                                         aclTensor *out, aclTensor *maskOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnDropout";
  const aclTensor *ts[3] = {input, out, maskOut};
  const char *names[3] = {"input", "out", "maskOut"};
  int rc = acl__nn_cp_args(api, api2, 3, ts, names, workspaceSize, executor);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", "input", input->dtype, DROP_T)) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, ACL__NN_BIT(input->dtype))) != 0 ||
      (rc = acl__nn_check_type(api, api2, "output", "maskOut", maskOut->dtype, ACL__NN_BIT(ACL_UINT8))) != 0 ||
      (rc = acl__nn_check_shape(api, api2, "out", out, input->dims, (int)input->ndim)) != 0)
    return rc;
  if (!(p >= 0 && p <= 1))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "p is %g; a probability lies in [0, 1]", p);
  int64_t numel = acl__nn_numel(input), bits = (numel + 127) / 128 * 128, want[1] = {bits / 8};
  if ((rc = acl__nn_check_shape(api, api2, "maskOut", maskOut, want, 1)) != 0)
    return rc;
  drop_job *j = acl__nn_job_new(sizeof *j, drop_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  acl__nn_job_tensor(ex, input, "input", 0);
  acl__nn_job_tensor(ex, out, "out", 1);
  int tm = acl__nn_job_tensor(ex, maskOut, "maskOut", 1);
  j->numel = numel;
  j->bits = bits;
  j->p = p;
  j->scale = p < 1 ? 1.0 / (1.0 - p) : 0;
  j->seed = (uint64_t)seed;
  j->offset = (uint64_t)offset;
  j->copy = !train || p == 0;
  if (j->copy) /* the mask is not written: no check of its memory */
    j->base.t[tm].hi = j->base.t[tm].lo;
  ex->empty = numel == 0;
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnDropout)
