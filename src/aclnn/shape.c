/*
 * shape.c - the type conversion and shape operators of reference aclnn.md
 * section 8.8: Cast, Cat, Stack, SplitTensor, SplitWithSize, Slice,
 * SliceV2, StridedSlice, Permute, Flatten, Expand, Repeat, Flip, Tril /
 * Triu (and their in-place forms) and ConstantPadNd.
 *
 * Each is planned as pieces of the copy engine (copy.c): phase 1 checks the
 * call, describes which view of the input lands in which view of the
 * output, and hands the job out; nothing here runs on the device.  Data
 * movement is the same for every type, so the movement operators take
 * every fixed-size type of the reference's unions (a superset of each
 * operator's list, reference section 10 allows it); out keeps self's type
 * except for Cast and Cat, which convert.
 */
#include <stdint.h>
#include <string.h>

#include "aclnn/nn.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flatten.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_slice_v2.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_strided_slice.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "common/errmsg.h"
#include "prof/prof.h"

/* Every fixed-size type of the reference's unions. */
#define ALL_T                                                                                                          \
  (ACL__NN_ARITH | ACL__NN_BIT(ACL_UINT16) | ACL__NN_BIT(ACL_UINT32) | ACL__NN_BIT(ACL_UINT64) |                       \
   ACL__NN_BIT(ACL_COMPLEX64) | ACL__NN_BIT(ACL_COMPLEX128))
/* Cat's list (reference 8.8). */
#define CAT_T (ACL__NN_ARITH | ACL__NN_BIT(ACL_COMPLEX64))

/* Phase 2 of every operator here: the same call (nn.h). */
#define SHAPE_OPS(X)                                                                                                   \
  X(aclnnCast)                                                                                                         \
  X(aclnnCat)                                                                                                          \
  X(aclnnStack)                                                                                                        \
  X(aclnnSplitTensor)                                                                                                  \
  X(aclnnSplitWithSize)                                                                                                \
  X(aclnnSlice)                                                                                                        \
  X(aclnnSliceV2)                                                                                                      \
  X(aclnnStridedSlice)                                                                                                 \
  X(aclnnPermute)                                                                                                      \
  X(aclnnFlatten)                                                                                                      \
  X(aclnnExpand)                                                                                                       \
  X(aclnnRepeat)                                                                                                       \
  X(aclnnFlip)                                                                                                         \
  X(aclnnTril)                                                                                                         \
  X(aclnnInplaceTril)                                                                                                  \
  X(aclnnTriu)                                                                                                         \
  X(aclnnInplaceTriu)                                                                                                  \
  X(aclnnConstantPadNd)
SHAPE_OPS(ACL__NN_PHASE2)

/* Names of list elements in messages (an executor keeps the pointer). */
static const char *const sh_in_names[ACL__NN_MAX_SLOTS] = {
    "tensors[0]",  "tensors[1]",  "tensors[2]",  "tensors[3]",  "tensors[4]",  "tensors[5]",  "tensors[6]",
    "tensors[7]",  "tensors[8]",  "tensors[9]",  "tensors[10]", "tensors[11]", "tensors[12]", "tensors[13]",
    "tensors[14]", "tensors[15]", "tensors[16]", "tensors[17]", "tensors[18]", "tensors[19]", "tensors[20]",
    "tensors[21]", "tensors[22]", "tensors[23]", "tensors[24]", "tensors[25]", "tensors[26]", "tensors[27]",
    "tensors[28]", "tensors[29]", "tensors[30]", "tensors[31]"};
static const char *const sh_out_names[ACL__NN_MAX_SLOTS] = {
    "out[0]",  "out[1]",  "out[2]",  "out[3]",  "out[4]",  "out[5]",  "out[6]",  "out[7]",
    "out[8]",  "out[9]",  "out[10]", "out[11]", "out[12]", "out[13]", "out[14]", "out[15]",
    "out[16]", "out[17]", "out[18]", "out[19]", "out[20]", "out[21]", "out[22]", "out[23]",
    "out[24]", "out[25]", "out[26]", "out[27]", "out[28]", "out[29]", "out[30]", "out[31]"};

/* ---- shared steps -------------------------------------------------------------------------------- */

/* The opening of a self -> out operator (or of an in-place one: self named
 * "selfRef", no out): both live, at most 8 dims, self of a type in `types`,
 * out of self's type (same_type) or of one in `types`. */
static int sh_begin(const char *api, const char *api2, const char *sname, const aclTensor *self, const aclTensor *out,
                    uint64_t types, int same_type, const uint64_t *ws, aclOpExecutor *const *ex) {
  const aclTensor *ts[2] = {self, out};
  const char *names[2] = {sname, strcmp(sname, "selfRef") != 0 ? "out" : NULL}; /* in place: no out */
  int rc = acl__nn_cp_args(api, api2, 2, ts, names, ws, ex);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", sname, self->dtype, types)) != 0)
    return rc;
  if (names[1] != NULL)
    rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, same_type ? ACL__NN_BIT(self->dtype) : types);
  return rc;
}

/* dim d of a tensor of `rank` dims ([-rank, rank-1]) as an index, or -1 after recording 161002. */
static int sh_dim(const char *api, const char *name, int64_t d, int rank, const char *what) {
  if (d >= -rank && d < rank)
    return (int)(d < 0 ? d + rank : d);
  acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
            "%s is %lld, out of range for %s of %d dims ([%d, %d]). Remedy: pass a dim of %s", name, (long long)d, what,
            rank, -rank, rank - 1, what);
  return -1;
}

/* An int-array argument: its parameter name, the array, and where its
 * values and their count go. */
typedef struct sh_ints {
  const char *name;
  const aclIntArray *a;
  const int64_t **v;
  uint64_t *n;
} sh_ints;

/* Reads the n int-array arguments of t[] in order: 0, or the code recorded
 * for the first that is not a live aclIntArray (acl__nn_int_array_arg). */
static int sh_int_args(const char *api, const sh_ints *t, int n) {
  int rc = 0;
  for (int i = 0; i < n; i++)
    if ((*t[i].v = acl__nn_int_array_arg(api, t[i].name, t[i].a, t[i].n, &rc)) == NULL)
      return rc;
  return 0;
}

/* The n dims v[] names, wrapped into out[]: 0, or 161002 for a dim out of
 * range or named twice. */
static int sh_dims_once(const char *api, const char *name, const int64_t *v, uint64_t n, int rank, int *out) {
  int seen[ACL__NN_MAX_RANK] = {0};
  for (uint64_t i = 0; i < n; i++) {
    int d = sh_dim(api, name, v[i], rank, "self");
    if (d < 0)
      return ACLNN_ERR_PARAM_INVALID;
    if (seen[d]++)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s names dim %d twice. Remedy: list each dim once", name, d);
    out[i] = d;
  }
  return 0;
}

/* Appends to view v the np dims parts[] that one dim of stride st splits
 * into (row-major: the last keeps st). */
static void sh_split(acl__nn_view *v, const int64_t *parts, int np, int64_t st) {
  for (int q = np - 1; q >= 0; q--) {
    v->dims[v->rank + q] = parts[q];
    v->st[v->rank + q] = st;
    st *= parts[q];
  }
  v->rank += np;
}

/* Ends a one-copy operator: self's view src into out's view dst (kind COPY,
 * TRIL or TRIU), in place when out is self. */
static aclnnStatus sh_one(const char *api, const char *api2, const char *sname, const aclTensor *self,
                          const aclTensor *out, acl__nn_piece_kind kind, const acl__nn_view *src,
                          const acl__nn_view *dst, int64_t diag, uint64_t *ws, aclOpExecutor **exo) {
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, 1);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  int ti = acl__nn_cp_tensor(ex, self, sname, ACL__NN_CP_IN);
  int to = acl__nn_cp_tensor(ex, out, out == self ? sname : "out", ACL__NN_CP_OUT);
  acl__nn_piece *p = acl__nn_cp_add(ex, kind);
  p->src = *src;
  p->src.t = ti;
  p->dst = *dst;
  p->dst.t = to;
  p->diag = diag;
  return acl__nn_cp_done(ex, ws, exo);
}

/* The common case: out (of the view's dims) = the view src of self. */
static aclnnStatus sh_view(const char *api, const char *api2, const aclTensor *self, const aclTensor *out,
                           const acl__nn_view *src, uint64_t *ws, aclOpExecutor **ex) {
  int rc;
  if (src->rank > ACL__NN_MAX_RANK)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "the result would have %d dims; %s writes at most %d", src->rank, api2, ACL__NN_MAX_RANK);
  if ((rc = acl__nn_check_shape(api, api2, "out", out, src->dims, src->rank)) != 0)
    return rc;
  acl__nn_view dst;
  acl__nn_cp_full(&dst, 0, out);
  return sh_one(api, api2, "self", self, out, ACL__NN_PIECE_COPY, src, &dst, 0, ws, ex);
}

/* ---- Cast, Permute, Flip, Expand, Repeat, Flatten ------------------------------------------------ */

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnCast";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 0, workspaceSize, executor);
  if (rc != 0)
    return rc;
  if (out->dtype != dtype)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "out is %s, but dtype is %s. Remedy: create out of type dtype",
                     acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(dtype));
  acl__nn_view src;
  acl__nn_cp_full(&src, 0, self);
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnPermute";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor), d[ACL__NN_MAX_RANK];
  if (rc != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"dims", dims, &v, &n}}, 1)) != 0)
    return rc;
  if (n != self->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "dims has %llu values; self has %llu dims. Remedy: give a permutation of all of self's dims",
                     (unsigned long long)n, (unsigned long long)self->ndim);
  if ((rc = sh_dims_once(api, "dims", v, n, (int)self->ndim, d)) != 0)
    return rc;
  acl__nn_view src;
  acl__nn_cp_full(&src, 0, self);
  for (uint64_t i = 0; i < n; i++) {
    src.dims[i] = self->dims[d[i]];
    src.st[i] = self->strides[d[i]];
  }
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnFlip";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor), d[ACL__NN_MAX_RANK];
  if (rc != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"dims", dims, &v, &n}}, 1)) != 0)
    return rc;
  if (n > self->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "dims has %llu values; self has %llu dims", (unsigned long long)n,
                     (unsigned long long)self->ndim);
  if ((rc = sh_dims_once(api, "dims", v, n, (int)self->ndim, d)) != 0)
    return rc;
  acl__nn_view src;
  acl__nn_cp_full(&src, 0, self);
  for (uint64_t i = 0; i < n; i++) { /* walk the dim backwards from its last element */
    int k = d[i];
    if (src.dims[k] > 0)
      src.off += (src.dims[k] - 1) * src.st[k];
    src.st[k] = -src.st[k];
  }
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self, const aclIntArray *size, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnExpand";
  char s1[200];
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"size", size, &v, &n}}, 1)) != 0)
    return rc;
  int rank = (int)self->ndim;
  if (n < self->ndim || n > ACL__NN_MAX_RANK)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "size has %llu values; it needs at least self's %d and at most %d. Remedy: give a size per dim "
                     "of the result",
                     (unsigned long long)n, rank, ACL__NN_MAX_RANK);
  acl__nn_view src;
  memset(&src, 0, sizeof src);
  src.rank = (int)n;
  for (int i = 0; i < (int)n; i++) {
    int j = i - ((int)n - rank);
    int64_t want = v[i];
    if (j < 0) {
      if (want < 0)
        return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "size[%d] is %lld: a new leading dim needs a size >= 0", i,
                         (long long)want);
      src.dims[i] = want;
      continue;
    }
    int64_t sd = self->dims[j];
    if (want == -1)
      want = sd;
    if (want != sd && sd != 1)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "self %s does not expand to size[%d] = %lld: dim %d is %lld. Remedy: expand dims of 1 only",
                       acl__nn_shape_text(self->dims, self->ndim, s1, sizeof s1), i, (long long)v[i], j, (long long)sd);
    if (want < 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "size[%d] is %lld; sizes are >= 0 (or -1: keep)", i, (long long)want);
    src.dims[i] = want;
    src.st[i] = want == sd ? self->strides[j] : 0;
  }
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self, const aclIntArray *repeats, aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnRepeat";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"repeats", repeats, &v, &n}}, 1)) != 0)
    return rc;
  int rank = (int)self->ndim;
  if (n < self->ndim || n > ACL__NN_MAX_RANK)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "repeats has %llu values; it needs at least self's %d dims and at most %d. Remedy: give a repeat "
                     "count per dim of the result",
                     (unsigned long long)n, rank, ACL__NN_MAX_RANK);
  int64_t want[ACL__NN_MAX_RANK];
  acl__nn_view src, dst;
  memset(&src, 0, sizeof src);
  memset(&dst, 0, sizeof dst);
  for (int i = 0; i < (int)n; i++) {
    int j = i - ((int)n - rank);
    int64_t sd = j >= 0 ? self->dims[j] : 1;
    if (v[i] < 0 || (sd > 0 && v[i] > INT64_MAX / sd))
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "repeats[%d] is %lld; counts are >= 0 (and the result's dims fit int64)", i, (long long)v[i]);
    want[i] = v[i] * sd;
    /* dim i of out is (repeat, size): src walks the repeat with stride 0 */
    src.dims[2 * i] = v[i];
    src.dims[2 * i + 1] = sd;
    src.st[2 * i + 1] = j >= 0 ? self->strides[j] : 0;
  }
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, (int)n)) != 0)
    return rc;
  src.rank = 2 * (int)n;
  for (int i = 0; i < (int)n; i++)
    sh_split(&dst, &src.dims[2 * i], 2, out->strides[i]);
  return sh_one(api, api2, "self", self, out, ACL__NN_PIECE_COPY, &src, &dst, 0, workspaceSize, executor);
}

aclnnStatus aclnnFlattenGetWorkspaceSize(const aclTensor *self, int64_t axis, aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnFlatten";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  int rank = (int)self->ndim;
  if (axis < -rank || axis > rank)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "axis is %lld, out of range for self of %d dims ([%d, %d])",
                     (long long)axis, rank, -rank, rank);
  int a = (int)(axis < 0 ? axis + rank : axis);
  int64_t want[2] = {1, 1};
  for (int k = 0; k < rank; k++)
    want[k < a ? 0 : 1] *= self->dims[k];
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, 2)) != 0)
    return rc;
  acl__nn_view src, dst;
  acl__nn_cp_full(&src, 0, self);
  memset(&dst, 0, sizeof dst); /* out's two dims split into self's */
  sh_split(&dst, self->dims, a, out->strides[0]);
  sh_split(&dst, self->dims + a, rank - a, out->strides[1]);
  return sh_one(api, api2, "self", self, out, ACL__NN_PIECE_COPY, &src, &dst, 0, workspaceSize, executor);
}

/* ---- slices ---------------------------------------------------------------------------------------- */

/* Narrows dim k of v to start:end:step (python rules: negative values count
 * from the end, both clamped to [0, size]; step > 0). */
static void sh_slice(acl__nn_view *v, int k, int64_t start, int64_t end, int64_t step) {
  int64_t size = v->dims[k];
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = start < 0 ? 0 : start > size ? size : start;
  end = end < 0 ? 0 : end > size ? size : end;
  int64_t len = end > start ? (end - start - 1) / step + 1 : 0;
  if (len > 0)
    v->off += start * v->st[k];
  v->dims[k] = len;
  if (len > 1) /* (then step < size: no overflow) */
    v->st[k] *= step;
}

aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start, int64_t end, int64_t step,
                                       aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSlice";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  int d = sh_dim(api, "dim", dim, (int)self->ndim, "self");
  if (d < 0)
    return ACLNN_ERR_PARAM_INVALID;
  if (step <= 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "step is %lld; it must be > 0", (long long)step);
  acl__nn_view src;
  acl__nn_cp_full(&src, 0, self);
  sh_slice(&src, d, start, end, step);
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

aclnnStatus aclnnSliceV2GetWorkspaceSize(const aclTensor *self, const aclIntArray *starts, const aclIntArray *ends,
                                         const aclIntArray *axes, const aclIntArray *steps, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSliceV2";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor), d[ACL__NN_MAX_RANK];
  if (rc != 0)
    return rc;
  const int64_t *sv = NULL, *ev = NULL, *av = NULL, *pv = NULL;
  uint64_t ns = 0, ne = 0, na = 0, np = 0;
  const sh_ints arrays[] = {
      {"starts", starts, &sv, &ns}, {"ends", ends, &ev, &ne}, {"axes", axes, &av, &na}, {"steps", steps, &pv, &np}};
  if ((rc = sh_int_args(api, arrays, 4)) != 0)
    return rc;
  if (ne != ns || na != ns || np != ns || ns > self->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "starts, ends, axes and steps have %llu, %llu, %llu and %llu values; they need one length, at "
                     "most self's %llu dims",
                     (unsigned long long)ns, (unsigned long long)ne, (unsigned long long)na, (unsigned long long)np,
                     (unsigned long long)self->ndim);
  if ((rc = sh_dims_once(api, "axes", av, na, (int)self->ndim, d)) != 0)
    return rc;
  acl__nn_view src;
  acl__nn_cp_full(&src, 0, self);
  for (uint64_t i = 0; i < ns; i++) {
    if (pv[i] <= 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "steps[%llu] is %lld; steps must be > 0", (unsigned long long)i,
                       (long long)pv[i]);
    sh_slice(&src, d[i], sv[i], ev[i], pv[i]);
  }
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
}

/* Appends a dim to a view of at most 8: 0, or -1 when it is full. */
static int sh_add(acl__nn_view *v, int64_t size, int64_t st) {
  if (v->rank >= ACL__NN_MAX_RANK)
    return -1;
  v->dims[v->rank] = size;
  v->st[v->rank++] = st;
  return 0;
}

/* TensorFlow's strided_slice: the spec's entries (begin, end, strides and
 * the bit masks) walk self's dims; an ellipsis stands for the dims the
 * other entries leave, a new axis adds a dim of 1, a shrunk axis takes one
 * element and drops the dim; dims after the spec are taken whole. */
aclnnStatus aclnnStridedSliceGetWorkspaceSize(const aclTensor *self, const aclIntArray *begin, const aclIntArray *end,
                                              const aclIntArray *strides, int64_t beginMask, int64_t endMask,
                                              int64_t ellipsisMask, int64_t newAxisMask, int64_t shrinkAxisMask,
                                              aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnStridedSlice";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  const int64_t *bv = NULL, *ev = NULL, *sv = NULL;
  uint64_t nb = 0, ne = 0, ns = 0;
  const sh_ints arrays[] = {{"begin", begin, &bv, &nb}, {"end", end, &ev, &ne}, {"strides", strides, &sv, &ns}};
  if ((rc = sh_int_args(api, arrays, 3)) != 0)
    return rc;
  if (ne != nb || ns != nb || nb > 64)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "begin, end and strides have %llu, %llu and %llu values; they need one "
                     "length (at most 64)",
                     (unsigned long long)nb, (unsigned long long)ne, (unsigned long long)ns);
  uint64_t em = (uint64_t)ellipsisMask & (nb < 64 ? (1ull << nb) - 1 : ~0ull);
  if (em & (em - 1))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "ellipsisMask 0x%llx has more than one bit set; one ellipsis at most",
                     (unsigned long long)ellipsisMask);
  int rank = (int)self->ndim, idx = 0;
  acl__nn_view src;
  memset(&src, 0, sizeof src);
  for (uint64_t i = 0; i < nb; i++) {
    uint64_t bit = 1ull << i;
    if (em & bit) {
      int rest = 0;
      for (uint64_t q = i + 1; q < nb; q++)
        rest += !((uint64_t)newAxisMask & (1ull << q));
      for (int f = rank - idx - rest; f > 0; f--, idx++)
        if (sh_add(&src, self->dims[idx], self->strides[idx]) != 0)
          goto too_many;
      continue;
    }
    if ((uint64_t)newAxisMask & bit) {
      if (sh_add(&src, 1, 0) != 0)
        goto too_many;
      continue;
    }
    if (idx >= rank)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "begin has more entries (%llu) than self has dims (%d)",
                       (unsigned long long)nb, rank);
    int64_t size = self->dims[idx], st = self->strides[idx], s = sv[i];
    if (s == 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "strides[%llu] is 0; strides are non-zero", (unsigned long long)i);
    int64_t b = bv[i] < 0 ? bv[i] + size : bv[i], e = ev[i] < 0 ? ev[i] + size : ev[i];
    if ((uint64_t)shrinkAxisMask & bit) {
      if (b < 0 || b >= size)
        return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "begin[%llu] is %lld, outside dim %d of size %lld (shrunk axis)",
                         (unsigned long long)i, (long long)bv[i], idx, (long long)size);
      src.off += b * st;
      idx++;
      continue;
    }
    int64_t len;
    if (s > 0) {
      b = ((uint64_t)beginMask & bit) ? 0 : b < 0 ? 0 : b > size ? size : b;
      e = ((uint64_t)endMask & bit) ? size : e < 0 ? 0 : e > size ? size : e;
      len = e > b ? (e - b - 1) / s + 1 : 0;
    } else {
      b = ((uint64_t)beginMask & bit) ? size - 1 : b < -1 ? -1 : b > size - 1 ? size - 1 : b;
      e = ((uint64_t)endMask & bit) ? -1 : e < -1 ? -1 : e > size - 1 ? size - 1 : e;
      len = b > e ? (b - e - 1) / -s + 1 : 0;
    }
    if (len > 0)
      src.off += b * st;
    if (sh_add(&src, len, len > 1 ? st * s : st) != 0) /* (len > 1: |s| < size, no overflow) */
      goto too_many;
    idx++;
  }
  for (; idx < rank; idx++)
    if (sh_add(&src, self->dims[idx], self->strides[idx]) != 0)
      goto too_many;
  return sh_view(api, api2, self, out, &src, workspaceSize, executor);
too_many:
  return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "the result would have more than %d dims", ACL__NN_MAX_RANK);
}

/* ---- triangles ------------------------------------------------------------------------------------- */

/* Tril / Triu; in place when inplace (out unused). */
static aclnnStatus sh_tri(const char *api, const char *api2, const aclTensor *self, int64_t diagonal, int inplace,
                          const aclTensor *out, acl__nn_piece_kind kind, uint64_t *ws, aclOpExecutor **ex) {
  const char *sname = inplace ? "selfRef" : "self";
  if (inplace)
    out = self;
  int rc = sh_begin(api, api2, sname, self, out, ALL_T, 1, ws, ex);
  if (rc != 0)
    return rc;
  if (self->ndim < 2)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has %llu dims; %s works on the last two of 2 to 8. Remedy: give a matrix or a batch of "
                     "them",
                     sname, (unsigned long long)self->ndim, api2);
  if ((rc = acl__nn_check_shape(api, api2, "out", out, self->dims, (int)self->ndim)) != 0)
    return rc;
  acl__nn_view src, dst;
  acl__nn_cp_full(&src, 0, self);
  acl__nn_cp_full(&dst, 0, out);
  rc = sh_one(api, api2, sname, self, out, kind, &src, &dst, diagonal, ws, ex);
  if (rc == 0)
    (*ex)->job->pointwise = 1; /* an element is kept or zeroed where it lies: in place needs no copy */
  return rc;
}

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return sh_tri(__func__, "aclnnTril", self, diagonal, 0, out, ACL__NN_PIECE_TRIL, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return sh_tri(__func__, "aclnnInplaceTril", selfRef, diagonal, 1, NULL, ACL__NN_PIECE_TRIL, workspaceSize, executor);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor *self, int64_t diagonal, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
  return sh_tri(__func__, "aclnnTriu", self, diagonal, 0, out, ACL__NN_PIECE_TRIU, workspaceSize, executor);
}

aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor *selfRef, int64_t diagonal, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return sh_tri(__func__, "aclnnInplaceTriu", selfRef, diagonal, 1, NULL, ACL__NN_PIECE_TRIU, workspaceSize, executor);
}

/* The largest pad taken (a dim plus two of them stays within int64). */
#define SH_PAD_MAX ((int64_t)1 << 60)

/* ---- ConstantPadNd ------------------------------------------------------------------------------- */

aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad, const aclScalar *value,
                                               aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnConstantPadNd";
  int rc = sh_begin(api, api2, "self", self, out, ALL_T, 1, workspaceSize, executor);
  if (rc != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"pad", pad, &v, &n}}, 1)) != 0 ||
      acl__nn_scalar_arg(api, "value", value, &rc) == NULL)
    return rc;
  if ((rc = acl__nn_check_type(api, api2, "scalar", "value", value->dtype, ALL_T)) != 0)
    return rc;
  int rank = (int)self->ndim;
  if (n % 2 != 0 || n > 2 * self->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "pad has %llu values; it needs an even count, at most twice self's %d dims. Remedy: give "
                     "(begin, end) pairs from the last dim",
                     (unsigned long long)n, rank);
  int64_t want[ACL__NN_MAX_RANK];
  acl__nn_view src, dst;
  acl__nn_cp_full(&src, 0, self);
  acl__nn_cp_full(&dst, 0, out);
  int grows = 0;
  for (int k = 0; k < rank; k++) {
    int q = rank - 1 - k; /* pairs count from the last dim */
    int64_t pb = 2 * q < (int)n ? v[2 * q] : 0, pe = 2 * q + 1 < (int)n ? v[2 * q + 1] : 0;
    if (pb < -SH_PAD_MAX || pb > SH_PAD_MAX || pe < -SH_PAD_MAX || pe > SH_PAD_MAX)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "pad (%lld, %lld) of dim %d is beyond +-2^60", (long long)pb,
                       (long long)pe, k);
    want[k] = self->dims[k] + pb + pe;
    if (want[k] < 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "pad (%lld, %lld) crops dim %d of size %lld below 0", (long long)pb,
                       (long long)pe, k, (long long)self->dims[k]);
    grows |= pb > 0 || pe > 0;
    /* the part of self that stays, and where it lands */
    int64_t sb = pb < 0 ? -pb : 0, se = pe < 0 ? -pe : 0, len = self->dims[k] - sb - se;
    len = len < 0 ? 0 : len;
    src.off += len > 0 ? sb * src.st[k] : 0;
    src.dims[k] = len;
    if (len > 0 && pb > 0)
      dst.off += pb * dst.st[k];
    dst.dims[k] = len;
  }
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, rank)) != 0)
    return rc;
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, 2);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  int ti = acl__nn_cp_tensor(ex, self, "self", ACL__NN_CP_IN);
  int to = acl__nn_cp_tensor(ex, out, "out", ACL__NN_CP_OUT);
  if (grows) { /* the value everywhere first, then self over it */
    acl__nn_piece *f = acl__nn_cp_add(ex, ACL__NN_PIECE_FILL);
    acl__nn_cp_full(&f->dst, to, out);
    acl__nn_cp_const(ex, f, value, 0);
  }
  acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_COPY);
  p->src = src;
  p->src.t = ti;
  p->dst = dst;
  p->dst.t = to;
  return acl__nn_cp_done(ex, workspaceSize, executor);
}

/* ---- lists: Cat, Stack, SplitTensor, SplitWithSize ---------------------------------------------- */

/* The elements of a tensor-list parameter, each live and of at most 8
 * dims; at most ACL__NN_MAX_SLOTS - 1 of them (one slot is the other side). */
static aclTensor *const *sh_list(const char *api, const char *api2, const char *name, const aclTensorList *l,
                                 const char *const *names, uint64_t *n, int *rc) {
  aclTensor *const *v = acl__nn_tensor_list_arg(api, name, l, n, rc);
  if (v == NULL)
    return NULL;
  if (*n == 0 || *n >= ACL__NN_MAX_SLOTS) {
    *rc = acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                    "%s has %llu tensors; openacl's %s takes 1 to %d. Remedy: %s", name, (unsigned long long)*n, api2,
                    ACL__NN_MAX_SLOTS - 1, *n == 0 ? "give at least one tensor" : "split the work in several calls");
    return NULL;
  }
  for (uint64_t i = 0; i < *n; i++)
    if (acl__nn_tensor_arg(api, names[i], v[i], rc) == NULL ||
        (*rc = acl__nn_check_dims(api, api2, names[i], v[i])) != 0)
      return NULL;
  return v;
}

/* The list's record for aclSetDynamic*TensorAddr: count elements, inputs
 * (or outputs) first .. first + count - 1 of the executor. */
static void sh_list_record(aclOpExecutor *ex, int is_out, int ir, int ir_all, int first, int count) {
  ex->has_list = 1;
  ex->list_out = is_out;
  ex->list_ir = ir;
  ex->list_ir_all = ir_all;
  ex->list_n = count;
  for (int i = 0; i < count; i++)
    ex->list_el[i] = first + i;
}

/* Cat and Stack: the elements promote to one type that out's takes. */
static int sh_list_types(const char *api, const char *api2, aclTensor *const *v, uint64_t n, const aclTensor *out,
                         uint64_t types) {
  int rc;
  aclDataType t = v[0]->dtype;
  for (uint64_t i = 0; i < n; i++) {
    if ((rc = acl__nn_check_type(api, api2, "tensor", sh_in_names[i], v[i]->dtype, types)) != 0)
      return rc;
    t = acl__nn_promote(t, v[i]->dtype);
    if (t == ACL_DT_UNDEFINED)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s (%s) has no common type with the tensors before it. Remedy: cast the tensors to one type",
                       sh_in_names[i], acl__nn_dtype_name(v[i]->dtype));
  }
  if ((rc = acl__nn_check_type(api, api2, "output", "out", out->dtype, types)) != 0)
    return rc;
  if (!acl__nn_can_cast(t, out->dtype))
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "the tensors' common type %s cannot be cast to out's %s. Remedy: create out of type %s",
                     acl__nn_dtype_name(t), acl__nn_dtype_name(out->dtype), acl__nn_dtype_name(t));
  return 0;
}

static aclnnStatus sh_cat_stack(const char *api, const char *api2, int stack, const aclTensorList *tensors, int64_t dim,
                                aclTensor *out, uint64_t *ws, aclOpExecutor **exo) {
  int rc = 0;
  char s1[200], s2[200];
  uint64_t n = 0;
  const char *names[1] = {"out"};
  const aclTensor *outs[1] = {out};
  aclTensor *const *v = sh_list(api, api2, "tensors", tensors, sh_in_names, &n, &rc);
  if (v == NULL || (rc = acl__nn_cp_args(api, api2, 1, outs, names, ws, exo)) != 0 ||
      (rc = sh_list_types(api, api2, v, n, out, stack ? ALL_T : CAT_T)) != 0)
    return rc;
  /* the reference shape: the first element that is not a legacy empty [0] (Cat skips those) */
  const aclTensor *ref = v[0];
  for (uint64_t i = 0; i < n && !stack; i++)
    if (!(v[i]->ndim == 1 && v[i]->dims[0] == 0)) {
      ref = v[i];
      break;
    }
  int rank = (int)ref->ndim;
  if (!stack && rank == 0)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s is 0-D; aclnnCat joins tensors of 1 to 8 dims", sh_in_names[0]);
  int d = sh_dim(api, "dim", dim, stack ? rank + 1 : rank, stack ? "the result" : "the tensors");
  if (d < 0)
    return ACLNN_ERR_PARAM_INVALID;
  int64_t want[ACL__NN_MAX_RANK + 1], total = 0;
  for (uint64_t i = 0; i < n; i++) {
    const aclTensor *t = v[i];
    if (!stack && t != ref && t->ndim == 1 && t->dims[0] == 0)
      continue;
    int same = (int)t->ndim == rank;
    for (int k = 0; same && k < rank; k++)
      same = stack || k != d ? t->dims[k] == ref->dims[k] : 1;
    if (!same)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s, %s %s. Remedy: give tensors of one shape%s", sh_in_names[i],
                       acl__nn_shape_text(t->dims, t->ndim, s1, sizeof s1),
                       stack ? "but the first is" : "which does not join the first's",
                       acl__nn_shape_text(ref->dims, ref->ndim, s2, sizeof s2), stack ? "" : " except along dim");
    total += stack ? 1 : t->dims[d];
  }
  for (int k = 0, q = 0; k < (stack ? rank + 1 : rank); k++)
    want[k] = k == d ? total : ref->dims[stack ? q++ : k];
  if ((rc = acl__nn_check_shape(api, api2, "out", out, want, stack ? rank + 1 : rank)) != 0)
    return rc;
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, (int)n);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  int ti[ACL__NN_MAX_SLOTS];
  for (uint64_t i = 0; i < n; i++)
    ti[i] = acl__nn_cp_tensor(ex, v[i], sh_in_names[i], ACL__NN_CP_IN);
  int to = acl__nn_cp_tensor(ex, out, "out", ACL__NN_CP_OUT);
  sh_list_record(ex, 0, 0, 0, 0, (int)n);
  int64_t at = 0;
  for (uint64_t i = 0; i < n; i++) {
    const aclTensor *t = v[i];
    if (!stack && t != ref && t->ndim == 1 && t->dims[0] == 0)
      continue;
    acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_COPY);
    acl__nn_cp_full(&p->src, ti[i], t);
    acl__nn_cp_full(&p->dst, to, out);
    if (stack) { /* out's dim d is the list index: drop it */
      p->dst.off = (int64_t)i * out->strides[d];
      for (int k = d; k + 1 < p->dst.rank; k++) {
        p->dst.dims[k] = p->dst.dims[k + 1];
        p->dst.st[k] = p->dst.st[k + 1];
      }
      p->dst.rank--;
    } else {
      p->dst.off = t->dims[d] > 0 ? at * out->strides[d] : 0;
      p->dst.dims[d] = t->dims[d];
      at += t->dims[d];
    }
  }
  return acl__nn_cp_done(ex, ws, exo);
}

aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                     aclOpExecutor **executor) {
  return sh_cat_stack(__func__, "aclnnCat", 0, tensors, dim, out, workspaceSize, executor);
}

aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
  return sh_cat_stack(__func__, "aclnnStack", 1, tensors, dim, out, workspaceSize, executor);
}

/* Splits self along dim into the np pieces of sizes[] (summing to the dim's size), one per element of out. */
static aclnnStatus sh_split_list(const char *api, const char *api2, const aclTensor *self, const int64_t *sizes,
                                 uint64_t np, int d, aclTensorList *out, uint64_t *ws, aclOpExecutor **exo) {
  int rc = 0;
  uint64_t n = 0;
  aclTensor *const *v = sh_list(api, api2, "out", out, sh_out_names, &n, &rc);
  if (v == NULL)
    return rc;
  if (n != np)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "out has %llu tensors; the split makes %llu pieces. Remedy: give one tensor per piece",
                     (unsigned long long)n, (unsigned long long)np);
  int64_t want[ACL__NN_MAX_RANK];
  memcpy(want, self->dims, self->ndim * sizeof(int64_t));
  for (uint64_t i = 0; i < n; i++)
    if ((rc = acl__nn_check_type(api, api2, "output", sh_out_names[i], v[i]->dtype, ACL__NN_BIT(self->dtype))) != 0)
      return rc;
  for (uint64_t i = 0; i < n; i++) {
    want[d] = sizes[i];
    if ((rc = acl__nn_check_shape(api, api2, sh_out_names[i], v[i], want, (int)self->ndim)) != 0)
      return rc;
  }
  aclOpExecutor *ex = acl__nn_cp_new(api, api2, (int)n);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  int ti = acl__nn_cp_tensor(ex, self, "self", ACL__NN_CP_IN);
  sh_list_record(ex, 1, 0, 1, 0, (int)n);
  int64_t at = 0;
  for (uint64_t i = 0; i < n; i++) {
    acl__nn_piece *p = acl__nn_cp_add(ex, ACL__NN_PIECE_COPY);
    acl__nn_cp_full(&p->src, ti, self);
    acl__nn_cp_full(&p->dst, acl__nn_cp_tensor(ex, v[i], sh_out_names[i], ACL__NN_CP_OUT), v[i]);
    p->src.off = sizes[i] > 0 ? at * self->strides[d] : 0;
    p->src.dims[d] = sizes[i];
    at += sizes[i];
  }
  return acl__nn_cp_done(ex, ws, exo);
}

aclnnStatus aclnnSplitTensorGetWorkspaceSize(const aclTensor *self, uint64_t splitSections, int64_t dim,
                                             aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSplitTensor";
  const char *names[1] = {"self"};
  int rc = acl__nn_cp_args(api, api2, 1, &self, names, workspaceSize, executor);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, ALL_T)) != 0)
    return rc;
  int d = sh_dim(api, "dim", dim, (int)self->ndim, "self");
  if (d < 0)
    return ACLNN_ERR_PARAM_INVALID;
  int64_t size = self->dims[d], sizes[ACL__NN_MAX_SLOTS];
  if (splitSections == 0 || splitSections > (uint64_t)INT64_MAX)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "splitSections is %llu; it must be > 0",
                     (unsigned long long)splitSections);
  uint64_t np = size == 0 ? 1 : ((uint64_t)size + splitSections - 1) / splitSections;
  if (np >= ACL__NN_MAX_SLOTS)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "the split makes %llu pieces; openacl's %s makes at most %d",
                     (unsigned long long)np, api2, ACL__NN_MAX_SLOTS - 1);
  for (uint64_t i = 0; i < np; i++) {
    int64_t left = size - (int64_t)(i * splitSections);
    sizes[i] = left < (int64_t)splitSections ? left : (int64_t)splitSections;
  }
  return sh_split_list(api, api2, self, sizes, np, d, out, workspaceSize, executor);
}

aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize, int64_t dim,
                                               aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnSplitWithSize";
  const char *names[1] = {"self"};
  int rc = acl__nn_cp_args(api, api2, 1, &self, names, workspaceSize, executor);
  if (rc != 0 || (rc = acl__nn_check_type(api, api2, "tensor", "self", self->dtype, ALL_T)) != 0)
    return rc;
  const int64_t *v = NULL;
  uint64_t n = 0;
  if ((rc = sh_int_args(api, (const sh_ints[]){{"splitSize", splitSize, &v, &n}}, 1)) != 0)
    return rc;
  int d = sh_dim(api, "dim", dim, (int)self->ndim, "self");
  if (d < 0)
    return ACLNN_ERR_PARAM_INVALID;
  int64_t sum = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (v[i] < 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "splitSize[%llu] is %lld; sizes are >= 0", (unsigned long long)i,
                       (long long)v[i]);
    sum += v[i];
  }
  if (sum != self->dims[d])
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "splitSize sums to %lld, but dim %d of self is %lld. Remedy: give sizes that add up to it",
                     (long long)sum, d, (long long)self->dims[d]);
  return sh_split_list(api, api2, self, v, n, d, out, workspaceSize, executor);
}
