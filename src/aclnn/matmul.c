/*
 * matmul.c - the matrix products of reference aclnn.md section 8.6:
 * Matmul (torch.matmul: 1-D operands, broadcast batch dims), Mm (2-D),
 * BatchMatMul (3-D) and Addmm / InplaceAddmm (beta*self + alpha*mat1@mat2),
 * on oneDNN's matmul primitive.
 *
 * Every call is put in one canonical form: A [batch..., M, K] @ B [batch...,
 * K, N] = C [batch..., M, N], batch dims of 1 broadcasting, a 1-D operand
 * given a dim of 1 (stride 0) where torch inserts one.  float32 operands and
 * outputs oneDNN can describe are handed to it where they lie, strides and
 * all (a transposed view is a transposed descriptor); float16 and bfloat16
 * ones, and views it cannot describe, are gathered into dense float32
 * buffers first, and the result is scattered into out in its type.  The
 * products are computed in float32 whatever cubeMathType says (the sheet
 * allows a CPU to keep at least the inputs' precision).
 *
 * The primitive is made at phase 1 and kept in the job; each run executes it
 * on the model engine's thread (dnnl.c).
 */
#include <stdlib.h>
#include <string.h>

#include "aclnn/dnnl.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))
#define MM_MAX_RANK 6

enum { MM_PLAIN, MM_MM, MM_BMM, MM_ADDMM };

typedef struct mm_job {
  acl__nn_job base;  /* the tensors in the operator's order (Addmm: self, mat1, mat2, out) */
  int ti[4];         /* which of them is A, B, C, Addmm's self */
  acl__nn_tref v[4]; /* the canonical views: [batch..., M, K], [batch..., K, N], [batch..., M, N], bias [M, N] */
  int direct[3];     /* A, B, C used where they lie (else gathered / scattered through dense float32) */
  int has_bias;
  float alpha, beta;
  int64_t k; /* K: 0 gives zeros, without oneDNN */
  dnnl_primitive_t prim;
  dnnl_memory_desc_t md[3], scratch_md;
  int threads; /* the OpenMP team the primitive was made for */
} mm_job;

static void mm_destroy(acl__nn_job *base) {
  mm_job *j = (mm_job *)base;
  if (j->prim != NULL)
    dnnl_primitive_destroy(j->prim);
}

/* A dense float32 copy of canonical view v (element 0 at src), or NULL. */
static float *mm_gather(const acl__nn_tref *v, const char *src, const dnnl_memory_desc_t *md) {
  float *buf = acl__nn_dnnl_temp(md);
  if (buf != NULL)
    acl__nn_gather_f32(v, src, 0, 0, buf);
  return buf;
}

/* out = alpha * C + beta * bias, row by row (C dense [rows, N]). */
static void mm_epilogue(const mm_job *j, const float *c, char *out, const char *bias) {
  const acl__nn_tref *vc = &j->v[2], *vb = &j->v[3];
  int r = vc->rank;
  int64_t n = vc->dims[r - 1], rows = acl__nn_tref_numel(vc, 0, r - 1), m = vc->dims[r - 2];
  float *row = malloc((size_t)n * 2 * sizeof(float) + 1), *brow = row + n;
  if (row == NULL)
    return;
  for (int64_t i = 0; i < rows; i++) {
    const float *ci = c + i * n;
    if (j->has_bias && j->beta != 0) {
      acl__nn_gather_f32(vb, bias, 1, i % m, brow);
      for (int64_t x = 0; x < n; x++)
        row[x] = j->alpha * ci[x] + j->beta * brow[x];
    } else {
      for (int64_t x = 0; x < n; x++)
        row[x] = j->alpha * ci[x];
    }
    acl__nn_scatter_f32(vc, out, r - 1, i, row);
  }
  free(row);
}

static int mm_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const mm_job *j = (const mm_job *)base;
  float *tmp[3] = {NULL, NULL, NULL};
  void *buf[3];
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; i++) {
    buf[i] = NULL;
    if (j->direct[i]) {
      buf[i] = ptr[j->ti[i]];
      continue;
    }
    if (i < 2 && j->k == 0)
      continue;
    tmp[i] = i < 2 ? mm_gather(&j->v[i], ptr[j->ti[i]], &j->md[i]) : acl__nn_dnnl_temp(&j->md[i]);
    if (tmp[i] == NULL)
      rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    buf[i] = tmp[i];
  }
  if (rc == 0 && j->k == 0) {
    memset(buf[2], 0, dnnl_memory_desc_get_size(&j->md[2]));
  } else if (rc == 0) {
    acl__nn_dstep s = {j->prim,
                       3,
                       {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST},
                       {&j->md[0], &j->md[1], &j->md[2]},
                       {buf[0], buf[1], buf[2]},
                       &j->scratch_md,
                       NULL};
    rc = acl__nn_dnnl_run(dev, j->threads, &s, 1);
  }
  if (rc == 0 && !j->direct[2])
    mm_epilogue(j, tmp[2], ptr[j->ti[2]], j->has_bias ? ptr[j->ti[3]] : NULL);
  for (int i = 0; i < 3; i++)
    acl__nn_temp_free(tmp[i]);
  return rc;
}

/* The canonical view of tensor tref t: `batch` leading dims (right-aligned
 * into R), then a row dim when has_row (else 1), a column dim when has_col
 * (else 1). */
static void mm_canon(const acl__nn_tref *t, int R, int has_row, int has_col, acl__nn_tref *v) {
  *v = *t;
  int nb = t->rank - has_row - has_col;
  v->rank = R + 2;
  for (int d = 0; d < R; d++) {
    int src = d - (R - nb);
    v->dims[d] = src >= 0 ? t->dims[src] : 1;
    v->st[d] = src >= 0 ? t->st[src] : 0;
  }
  v->dims[R] = has_row ? t->dims[nb] : 1;
  v->st[R] = has_row ? t->st[nb] : 0;
  v->dims[R + 1] = has_col ? t->dims[nb + has_row] : 1;
  v->st[R + 1] = has_col ? t->st[nb + has_row] : 0;
}

static int mm_shape_fail(const char *api, const char *api2, const aclTensor *a, const char *an, const aclTensor *b,
                         const char *bn, const char *why) {
  char s1[200], s2[200];
  return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                   "%s %s and %s %s cannot be multiplied by %s: %s. Remedy: give shapes whose inner dims match", an,
                   acl__nn_shape_text(a->dims, a->ndim, s1, sizeof s1), bn,
                   acl__nn_shape_text(b->dims, b->ndim, s2, sizeof s2), api2, why);
}

/* Makes the oneDNN primitive for the job's canonical views; chooses which
 * tensors are used where they lie.  0, or -1 when oneDNN refuses even dense
 * float32. */
static int mm_primitive(void *arg) {
  mm_job *j = arg;
  dnnl_engine_t eng = acl__engine_dnnl_cpu();
  if (eng == NULL)
    return -1;
  for (int attempt = 0; attempt < 2; attempt++) {
    for (int i = 0; i < 3; i++) {
      int direct = attempt == 0 && acl__nn_dnnl_usable(&j->v[i]) && !(i == 2 && j->has_bias) && j->k > 0;
      /* the gemm kernels want a unit stride in one of the two last dims */
      const acl__nn_tref *v = &j->v[i];
      int r = v->rank;
      if (direct && !(v->st[r - 1] == 1 || v->dims[r - 1] == 1 || v->st[r - 2] == 1 || v->dims[r - 2] == 1))
        direct = 0;
      if (direct && i == 2 && !(v->st[r - 1] == 1 || v->dims[r - 1] == 1))
        direct = 0;
      if (direct && acl__nn_dnnl_md(&j->md[i], v, dnnl_f32) != 0)
        direct = 0;
      if (!direct)
        acl__eng_plain_md(&j->md[i], v->rank, v->dims);
      j->direct[i] = direct;
    }
    if (j->k == 0)
      return 0;
    dnnl_matmul_desc_t desc;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_attr_t attr = acl__nn_dnnl_attr();
    dnnl_status_t made =
        attr == NULL ? dnnl_out_of_memory : dnnl_matmul_desc_init(&desc, &j->md[0], &j->md[1], NULL, &j->md[2]);
    if (made == dnnl_success)
      made = dnnl_primitive_desc_create(&pd, &desc, attr, eng, NULL);
    if (attr != NULL)
      dnnl_primitive_attr_destroy(attr);
    if (made != dnnl_success)
      continue;
    j->scratch_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    if (attempt == 0 && acl__nn_dnnl_is_ref(pd) && (j->direct[0] || j->direct[1] || j->direct[2])) {
      dnnl_primitive_desc_destroy(pd); /* strides oneDNN takes only slowly: dense copies instead */
      continue;
    }
    dnnl_status_t s = dnnl_primitive_create(&j->prim, pd);
    dnnl_primitive_desc_destroy(pd);
    if (s == dnnl_success)
      return 0;
  }
  return -1;
}

typedef struct mm_call {
  const char *api, *api2;
  int kind;
  const aclTensor *self, *mat2, *bias, *out;
  const char *self_name, *mat2_name, *out_name, *bias_name;
  const aclScalar *beta, *alpha;
  int inplace; /* InplaceAddmm: bias is out */
  int8_t cube;
} mm_call;

static aclnnStatus mm_plan(const mm_call *c, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = c->api, *api2 = c->api2;
  int rc = 0;
  char s1[200], s2[200];
  const aclTensor *a = c->self, *b = c->mat2, *out = c->out;
  if ((c->kind == MM_ADDMM && acl__nn_tensor_arg(api, c->bias_name, c->bias, &rc) == NULL) ||
      acl__nn_tensor_arg(api, c->self_name, a, &rc) == NULL || acl__nn_tensor_arg(api, c->mat2_name, b, &rc) == NULL)
    return rc;
  if (c->kind == MM_ADDMM && (acl__nn_scalar_arg(api, "beta", c->beta, &rc) == NULL ||
                              acl__nn_scalar_arg(api, "alpha", c->alpha, &rc) == NULL))
    return rc;
  if (!c->inplace && acl__nn_tensor_arg(api, c->out_name, out, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return acl__fail(api, ACLNN_ERR_PARAM_NULLPTR, __FILE__, __LINE__, "%s is NULL",
                     workspaceSize == NULL ? "workspaceSize" : "executor");
  const aclTensor *ts[4] = {a, b, out, c->bias};
  const char *names[4] = {c->self_name, c->mat2_name, c->out_name, c->bias_name};
  for (int i = 0; i < (c->kind == MM_ADDMM ? 4 : 3); i++)
    if ((rc = acl__nn_check_dims(api, api2, names[i], ts[i])) != 0 ||
        (rc = acl__nn_check_type(api, api2, i == 2 ? "output" : "tensor", names[i], ts[i]->dtype, FLT3)) != 0)
      return rc;
  if (c->cube < 0 || c->cube > 4)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "cubeMathType is %d; %s takes 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), 3 "
                     "(USE_HF32) or 4 (USE_FP32_ADD). Remedy: pass one of them",
                     (int)c->cube, api2);
  if (c->kind == MM_ADDMM)
    for (int i = 0; i < 2; i++) {
      const aclScalar *s = i ? c->alpha : c->beta;
      if ((unsigned)s->dtype >= 64 || !(ACL__NN_ARITH & ACL__NN_BIT(s->dtype)))
        return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                         "%s is %s, which cannot be cast to the type %s computes in. Remedy: give a real number",
                         i ? "alpha" : "beta", acl__nn_dtype_name(s->dtype), api2);
    }

  /* shapes */
  int ra = (int)a->ndim, rb = (int)b->ndim;
  if (c->kind == MM_MM || c->kind == MM_ADDMM) {
    if (ra != 2 || rb != 2)
      return mm_shape_fail(api, api2, a, c->self_name, b, c->mat2_name, "both must be 2-D");
  } else if (c->kind == MM_BMM) {
    if (ra != 3 || rb != 3)
      return mm_shape_fail(api, api2, a, c->self_name, b, c->mat2_name, "both must be 3-D");
  } else if (ra < 1 || rb < 1 || ra > MM_MAX_RANK || rb > MM_MAX_RANK) {
    return mm_shape_fail(api, api2, a, c->self_name, b, c->mat2_name, "each must have 1 to 6 dims");
  }
  int64_t K = a->dims[ra - 1], Kb = b->dims[rb >= 2 ? rb - 2 : 0];
  if (K != Kb)
    return mm_shape_fail(api, api2, a, c->self_name, b, c->mat2_name,
                         "the last dim of the first is not the "
                         "second's rows");
  int has_m = ra >= 2, has_n = rb >= 2;
  int nba = ra - has_m - 1, nbb = rb - has_n - 1;
  int R = nba > nbb ? nba : nbb;
  int64_t want[MM_MAX_RANK + 2];
  int wr = 0;
  for (int d = 0; d < R; d++) {
    int ia = d - (R - nba), ib = d - (R - nbb);
    int64_t da = ia >= 0 ? a->dims[ia] : 1, db = ib >= 0 ? b->dims[ib] : 1;
    if (da != db && da != 1 && db != 1)
      return mm_shape_fail(api, api2, a, c->self_name, b, c->mat2_name, "their batch dims do not broadcast");
    want[wr++] = da == 1 ? db : da;
  }
  if (has_m)
    want[wr++] = a->dims[ra - 2];
  if (has_n)
    want[wr++] = b->dims[rb - 1];
  int same = (int)out->ndim == wr;
  for (int d = 0; same && d < wr; d++)
    same = out->dims[d] == want[d];
  if (!same)
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has shape %s; %s writes %s here. Remedy: create %s with that shape", c->out_name,
                     acl__nn_shape_text(out->dims, out->ndim, s1, sizeof s1), api2,
                     acl__nn_shape_text(want, (uint64_t)wr, s2, sizeof s2), c->out_name);
  for (uint64_t d = 0; d < out->ndim; d++)
    if (out->dims[d] > 1 && out->strides[d] == 0)
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has stride 0 along dim %llu of size %lld: several of its elements are one memory location. "
                       "Remedy: give %s distinct elements",
                       c->out_name, (unsigned long long)d, (long long)out->dims[d], c->out_name);
  if (c->kind == MM_ADDMM) {
    const aclTensor *s = c->bias;
    int ok = s->ndim <= 2;
    for (uint64_t d = 0; ok && d < s->ndim; d++)
      ok = s->dims[d] == 1 || s->dims[d] == want[2 - s->ndim + d];
    if (!ok || (c->inplace && (s->ndim != 2 || s->dims[0] != want[0] || s->dims[1] != want[1])))
      return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s has shape %s, which does not broadcast to the product's %s%s. Remedy: give %s that shape "
                       "(or [%lld], [1, %lld] ...)",
                       c->bias_name, acl__nn_shape_text(s->dims, s->ndim, s1, sizeof s1),
                       acl__nn_shape_text(want, 2, s2, sizeof s2),
                       c->inplace ? " (in place it must be exactly that)" : "", c->bias_name, (long long)want[1],
                       (long long)want[1]);
  }

  /* the job */
  mm_job *j = acl__nn_job_new(sizeof *j, mm_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->base.destroy = mm_destroy;
  j->alpha = 1;
  j->k = K;
  /* the operator's order: inputs (Addmm's self first), then the output; selfRef in place is both */
  int ibias = -1;
  if (c->kind == MM_ADDMM)
    ibias = acl__nn_job_tensor(ex, c->bias, c->bias_name, 0);
  int ia = acl__nn_job_tensor(ex, a, c->self_name, 0), ib = acl__nn_job_tensor(ex, b, c->mat2_name, 0);
  int io = acl__nn_job_tensor(ex, out, c->out_name, 1);
  j->ti[0] = ia;
  j->ti[1] = ib;
  j->ti[2] = io;
  j->ti[3] = ibias;
  mm_canon(&j->base.t[ia], R, has_m, 1, &j->v[0]);
  mm_canon(&j->base.t[ib], R, 1, has_n, &j->v[1]);
  mm_canon(&j->base.t[io], R, has_m, has_n, &j->v[2]);
  if (ibias >= 0) {
    acl__nn_tref *t = &j->base.t[ibias], *v = &j->v[3];
    *v = *t;
    v->rank = 2;
    for (int d = 0; d < 2; d++) {
      int src = d - (2 - t->rank);
      int64_t dim = src >= 0 ? t->dims[src] : 1;
      v->dims[d] = want[d];
      v->st[d] = src >= 0 && dim != 1 ? t->st[src] : 0;
    }
    j->has_bias = 1;
    acl__nn_val x;
    acl__nn_const_of(c->beta, ACL_FLOAT, &x);
    j->beta = x.f;
    acl__nn_const_of(c->alpha, ACL_FLOAT, &x);
    j->alpha = x.f;
  }
  int64_t n_out = acl__nn_numel(out);
  ex->empty = n_out == 0;
  j->threads = acl__nn_dnnl_threads();
  if (!ex->empty && acl__nn_dnnl_make(j->threads, mm_primitive, j) != 0) {
    aclDestroyAclOpExecutor(ex);
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "oneDNN has no matrix product for %s %s and %s %s",
                     c->self_name, acl__nn_shape_text(a->dims, a->ndim, s1, sizeof s1), c->mat2_name,
                     acl__nn_shape_text(b->dims, b->ndim, s2, sizeof s2));
  }
  return acl__nn_job_done(ex, workspaceSize, executor);
}

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                        int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  mm_call c = {.api = __func__,
               .api2 = "aclnnMatmul",
               .kind = MM_PLAIN,
               .self = self,
               .mat2 = mat2,
               .out = out,
               .self_name = "self",
               .mat2_name = "mat2",
               .out_name = "out",
               .cube = cubeMathType};
  return mm_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMatmul)

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType,
                                    uint64_t *workspaceSize, aclOpExecutor **executor) {
  mm_call c = {.api = __func__,
               .api2 = "aclnnMm",
               .kind = MM_MM,
               .self = self,
               .mat2 = mat2,
               .out = out,
               .self_name = "self",
               .mat2_name = "mat2",
               .out_name = "out",
               .cube = cubeMathType};
  return mm_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnMm)

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  mm_call c = {.api = __func__,
               .api2 = "aclnnBatchMatMul",
               .kind = MM_BMM,
               .self = self,
               .mat2 = mat2,
               .out = out,
               .self_name = "self",
               .mat2_name = "mat2",
               .out_name = "out",
               .cube = cubeMathType};
  return mm_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnBatchMatMul)

aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1, const aclTensor *mat2,
                                       const aclScalar *beta, const aclScalar *alpha, aclTensor *out,
                                       int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  mm_call c = {.api = __func__,
               .api2 = "aclnnAddmm",
               .kind = MM_ADDMM,
               .self = mat1,
               .mat2 = mat2,
               .bias = self,
               .out = out,
               .self_name = "mat1",
               .mat2_name = "mat2",
               .out_name = "out",
               .bias_name = "self",
               .beta = beta,
               .alpha = alpha,
               .cube = cubeMathType};
  return mm_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnAddmm)

aclnnStatus aclnnInplaceAddmmGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *mat1, const aclTensor *mat2,
                                              const aclScalar *beta, const aclScalar *alpha, int8_t cubeMathType,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
  mm_call c = {.api = __func__,
               .api2 = "aclnnInplaceAddmm",
               .kind = MM_ADDMM,
               .self = mat1,
               .mat2 = mat2,
               .bias = selfRef,
               .out = selfRef,
               .self_name = "mat1",
               .mat2_name = "mat2",
               .out_name = "selfRef",
               .bias_name = "selfRef",
               .beta = beta,
               .alpha = alpha,
               .inplace = 1,
               .cube = cubeMathType};
  return mm_plan(&c, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnInplaceAddmm)
