/*
 * conv.c - Convolution of reference aclnn.md section 8.6: 1-D, 2-D and 3-D,
 * grouped, dilated, strided, padded, and transposed (with outputPadding),
 * on oneDNN's convolution and deconvolution primitives.
 *
 * At phase 1 the primitive is made with layouts of oneDNN's choice (its
 * blocked formats are where its fast kernels are), and reorders from and to
 * the caller's tensors as they lie: a float32 view oneDNN can describe is
 * read or written in place by the reorder, strides and all; float16,
 * bfloat16 and views it cannot describe go through dense float32 buffers.
 * The weights are reordered at every run (phase 2 may see new weights in
 * the same memory).  Computation is float32 whatever cubeMathType says.
 *
 * A program calls phase 1 once per operator call, most often on shapes it
 * has seen (a network's layers, step after step).  oneDNN caches the
 * primitives it makes, but asking for one still walks its implementations
 * (the primitive descriptors): so the primitives of the last CONV_CACHE
 * shapes are kept here (conv_cache), shared by the jobs of the same shape
 * and attributes, and phase 1 on a known shape makes none.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/dnnl.h"
#include "aclnnop/aclnn_convolution.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define FLT3 (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16))

/* The three tensors of a convolution oneDNN reads or writes through a reorder. */
enum { CV_SRC, CV_WEI, CV_DST, CV_N };

/* What the primitives depend on: the caller's side of the reorders and the attributes. */
typedef struct conv_key {
  dnnl_memory_desc_t user[CV_N]; /* the caller's side of each reorder (its tensor, or the dense copy) */
  int transposed, bias, threads; /* threads: the OpenMP team the primitives are made for */
  int64_t groups, st[3], dl[3], pl[3], pr[3], op[3];
} conv_key;

/* The primitives of one key, shared by the jobs of that key and the cache. */
typedef struct conv_prims {
  int refs; /* conv_cache.lock */
  conv_key key;
  dnnl_memory_desc_t prim[CV_N];  /* the convolution's side */
  dnnl_primitive_t reorder[CV_N]; /* NULL: the layouts are equal */
  dnnl_memory_desc_t bias_md, scratch_md;
  dnnl_primitive_t conv;
  dnnl_memory_t mem[CV_N + 1][ACL__NN_DNNL_MAX_ARGS + 1]; /* each step's memory objects (acl__nn_dstep.mem) */
} conv_prims;

typedef struct conv_job {
  acl__nn_job base;         /* input, weight, [bias], output */
  int ti[CV_N], tbias;      /* their trefs (tbias -1: none) */
  int direct[CV_N];         /* the caller's tensor is what the reorder reads / writes */
  acl__nn_tref dense[CV_N]; /* the tensors' dims, dense (the float32 copies when not direct) */
  conv_prims *p;            /* a reference */
} conv_job;

/* ---- the primitives of recent shapes ------------------------------------------------------------ */

#define CONV_CACHE 16

/* Lock: a leaf (nothing is called with it held but the reference counts' arithmetic). */
static struct {
  pthread_mutex_t lock;
  conv_prims *e[CONV_CACHE]; /* most recently used first; a reference each */
} conv_cache = {PTHREAD_MUTEX_INITIALIZER, {0}};

static void conv_prims_free(conv_prims *p) {
  for (int s = 0; s < CV_N + 1; s++)
    acl__nn_dnnl_mem_free(p->mem[s], ACL__NN_DNNL_MAX_ARGS + 1);
  for (int i = 0; i < CV_N; i++)
    if (p->reorder[i] != NULL)
      dnnl_primitive_destroy(p->reorder[i]);
  if (p->conv != NULL)
    dnnl_primitive_destroy(p->conv);
  free(p);
}

static void conv_prims_unref(conv_prims *p) {
  if (p == NULL)
    return;
  pthread_mutex_lock(&conv_cache.lock);
  int last = --p->refs == 0;
  pthread_mutex_unlock(&conv_cache.lock);
  if (last)
    conv_prims_free(p);
}

static int conv_key_equal(const conv_key *a, const conv_key *b) {
  for (int i = 0; i < CV_N; i++)
    if (!dnnl_memory_desc_equal(&a->user[i], &b->user[i]))
      return 0;
  return a->transposed == b->transposed && a->bias == b->bias && a->threads == b->threads && a->groups == b->groups &&
         memcmp(a->st, b->st, sizeof a->st) == 0 && memcmp(a->dl, b->dl, sizeof a->dl) == 0 &&
         memcmp(a->pl, b->pl, sizeof a->pl) == 0 && memcmp(a->pr, b->pr, sizeof a->pr) == 0 &&
         memcmp(a->op, b->op, sizeof a->op) == 0;
}

/* The cached primitives of key k (a new reference, moved to the front), or NULL. */
static conv_prims *conv_cache_get(const conv_key *k) {
  conv_prims *p = NULL;
  pthread_mutex_lock(&conv_cache.lock);
  for (int i = 0; i < CONV_CACHE && conv_cache.e[i] != NULL; i++)
    if (conv_key_equal(&conv_cache.e[i]->key, k)) {
      p = conv_cache.e[i];
      memmove(&conv_cache.e[1], &conv_cache.e[0], (size_t)i * sizeof p);
      conv_cache.e[0] = p;
      p->refs++;
      break;
    }
  pthread_mutex_unlock(&conv_cache.lock);
  return p;
}

/* Puts p at the front (the cache takes a reference of its own); the last entry drops out. */
static void conv_cache_put(conv_prims *p) {
  pthread_mutex_lock(&conv_cache.lock);
  conv_prims *out = conv_cache.e[CONV_CACHE - 1];
  int last = out != NULL && --out->refs == 0;
  memmove(&conv_cache.e[1], &conv_cache.e[0], (CONV_CACHE - 1) * sizeof p);
  conv_cache.e[0] = p;
  p->refs++;
  pthread_mutex_unlock(&conv_cache.lock);
  if (last)
    conv_prims_free(out);
}

void acl__nn_conv_cache_drain(void) {
  conv_prims *gone[CONV_CACHE];
  pthread_mutex_lock(&conv_cache.lock);
  for (int i = 0; i < CONV_CACHE; i++) {
    conv_prims *p = conv_cache.e[i];
    conv_cache.e[i] = NULL;
    gone[i] = p != NULL && --p->refs == 0 ? p : NULL;
  }
  pthread_mutex_unlock(&conv_cache.lock);
  for (int i = 0; i < CONV_CACHE; i++)
    if (gone[i] != NULL)
      conv_prims_free(gone[i]);
}

static void conv_destroy(acl__nn_job *base) { conv_prims_unref(((conv_job *)base)->p); }

static int conv_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const conv_job *j = (const conv_job *)base;
  conv_prims *p = j->p; /* its memory objects change (the engine's thread only: dnnl.h) */
  void *dense[CV_N] = {NULL, NULL, NULL}, *inner[CV_N] = {NULL, NULL, NULL}, *user[CV_N], *at[CV_N];
  float *bias = NULL;
  int rc = 0;
  for (int i = 0; i < CV_N && rc == 0; i++) {
    user[i] = ptr[j->ti[i]];
    if (!j->direct[i]) {
      if ((dense[i] = acl__nn_dnnl_temp(&p->key.user[i])) == NULL)
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
      else if (i != CV_DST)
        acl__nn_gather_f32(&base->t[j->ti[i]], ptr[j->ti[i]], 0, 0, dense[i]);
      user[i] = dense[i];
    }
    at[i] = user[i];
    if (rc == 0 && p->reorder[i] != NULL) {
      if ((inner[i] = acl__nn_dnnl_temp(&p->prim[i])) == NULL)
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
      at[i] = inner[i];
    }
  }
  if (rc == 0 && j->tbias >= 0) {
    const acl__nn_tref *b = &base->t[j->tbias];
    if ((bias = malloc((size_t)b->dims[0] * sizeof(float) + 1)) == NULL)
      rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
    else
      acl__nn_gather_f32(b, ptr[j->tbias], 0, 0, bias);
  }
  if (rc == 0) {
    acl__nn_dstep steps[4];
    int n = 0;
    for (int i = 0; i < CV_DST; i++)
      if (p->reorder[i] != NULL) {
        steps[n] = (acl__nn_dstep){
            p->reorder[i], 2,        {DNNL_ARG_FROM, DNNL_ARG_TO}, {&p->key.user[i], &p->prim[i]}, {user[i], at[i]},
            NULL,          p->mem[n]};
        n++;
      }
    steps[n] = (acl__nn_dstep){p->conv,
                               bias != NULL ? 4 : 3,
                               {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_BIAS},
                               {&p->prim[CV_SRC], &p->prim[CV_WEI], &p->prim[CV_DST], &p->bias_md},
                               {at[CV_SRC], at[CV_WEI], at[CV_DST], bias},
                               &p->scratch_md,
                               p->mem[n]};
    n++;
    if (p->reorder[CV_DST] != NULL) {
      steps[n] = (acl__nn_dstep){p->reorder[CV_DST],
                                 2,
                                 {DNNL_ARG_FROM, DNNL_ARG_TO},
                                 {&p->prim[CV_DST], &p->key.user[CV_DST]},
                                 {at[CV_DST], user[CV_DST]},
                                 NULL,
                                 p->mem[n]};
      n++;
    }
    rc = acl__nn_dnnl_run(dev, p->key.threads, steps, n);
  }
  if (rc == 0 && !j->direct[CV_DST])
    acl__nn_scatter_f32(&base->t[j->ti[CV_DST]], ptr[j->ti[CV_DST]], 0, 0, dense[CV_DST]);
  for (int i = 0; i < CV_N; i++) {
    acl__nn_temp_free(dense[i]);
    acl__nn_temp_free(inner[i]);
  }
  free(bias);
  return rc;
}

/* ---- phase 1 ------------------------------------------------------------------------------ */

typedef struct conv_args {
  const char *api;
  int nd; /* spatial dims: 1, 2 or 3 */
  int64_t st[3], dl[3], pl[3], pr[3], op[3];
} conv_args;

/* An aclIntArray attribute of n values (or, for padding, the forms the sheet lists). */
static int conv_array(conv_args *c, const char *name, const aclIntArray *arr, int64_t *out, int min) {
  int rc = 0;
  uint64_t n = 0;
  const int64_t *v = acl__nn_int_array_arg(c->api, name, arr, &n, &rc);
  if (v == NULL)
    return rc;
  if (n != (uint64_t)c->nd)
    return acl__fail(c->api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "%s has %llu values; a %d-D convolution takes %d. Remedy: give one per spatial dim", name,
                     (unsigned long long)n, c->nd, c->nd);
  for (int k = 0; k < c->nd; k++) {
    if (v[k] < min)
      return acl__fail(c->api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                       "%s[%d] is %lld; it must be at least %d. Remedy: give %s values >= %d", name, k, (long long)v[k],
                       min, name, min);
    out[k] = v[k];
  }
  return 0;
}

static int conv_padding(conv_args *c, const aclIntArray *arr) {
  int rc = 0;
  uint64_t n = 0;
  const int64_t *v = acl__nn_int_array_arg(c->api, "padding", arr, &n, &rc);
  if (v == NULL)
    return rc;
  int nd = c->nd;
  int ok = n == (uint64_t)nd || (nd == 1 && n == 2) || (nd == 2 && n == 4);
  for (uint64_t k = 0; ok && k < n; k++)
    ok = v[k] >= 0;
  if (!ok)
    return acl__fail(c->api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__,
                     "padding has %llu values (or a negative one); a %d-D convolution takes %s. Remedy: give "
                     "padding in one of those forms",
                     (unsigned long long)n, nd,
                     nd == 1   ? "1 ([both sides]) or 2 ([left, right]), >= 0"
                     : nd == 2 ? "2 ([h, w]) or 4 ([top, bottom, left, right]), >= 0"
                               : "3 ([d, h, w]), >= 0");
  for (int k = 0; k < nd; k++) {
    if (n == (uint64_t)nd) {
      c->pl[k] = c->pr[k] = v[k];
    } else if (nd == 1) {
      c->pl[0] = v[0];
      c->pr[0] = v[1];
    } else {
      c->pl[k] = v[2 * k];
      c->pr[k] = v[2 * k + 1];
    }
  }
  return 0;
}

/* The oneDNN weights view of the [Cout, Cin/g, k...] (transposed: [Cin, Cout/g, k...]) tensor view t:
 * [g, Cout/g, Cin/g, k...] when grouped. */
static void conv_weights_view(const acl__nn_tref *t, int64_t g, int transposed, acl__nn_tref *v) {
  *v = *t;
  int a = transposed ? 1 : 0, b = transposed ? 0 : 1; /* which tensor dims are oc and ic */
  int64_t oc = transposed ? t->dims[1] * g : t->dims[0], ic = transposed ? t->dims[0] : t->dims[1] * g;
  int sp = t->rank - 2, r = 0;
  if (g > 1) {
    v->dims[r] = g;
    v->st[r++] = (transposed ? ic / g : oc / g) * t->st[transposed ? 0 : 0];
  }
  v->dims[r] = oc / g;
  v->st[r++] = t->st[a];
  v->dims[r] = ic / g;
  v->st[r++] = t->st[b];
  for (int k = 0; k < sp; k++) {
    v->dims[r] = t->dims[2 + k];
    v->st[r++] = t->st[2 + k];
  }
  v->rank = r;
}

/* The caller's side of each reorder (j->dense, j->direct) and the key of the primitives; -1 when oneDNN
 * cannot describe a tensor. */
static int conv_key_of(conv_job *j, const conv_args *c, int transposed, int64_t g, conv_key *k) {
  memset(k, 0, sizeof *k);
  /* the caller's side: each tensor where it lies, or a dense float32 copy */
  for (int i = 0; i < CV_N; i++) {
    const acl__nn_tref *t = &j->base.t[j->ti[i]];
    j->dense[i] = *t;
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
      j->dense[i].st[d] = s;
      s *= t->dims[d];
    }
    j->direct[i] = acl__nn_dnnl_usable(t);
    const acl__nn_tref *src = j->direct[i] ? t : &j->dense[i];
    acl__nn_tref wv;
    if (i == CV_WEI) {
      conv_weights_view(src, g, transposed, &wv);
      src = &wv;
    }
    if (acl__nn_dnnl_md(&k->user[i], src, dnnl_f32) != 0)
      return -1;
  }
  k->transposed = transposed;
  k->bias = j->tbias >= 0;
  k->threads = acl__nn_dnnl_threads();
  k->groups = g;
  for (int d = 0; d < c->nd; d++) {
    k->st[d] = c->st[d];
    k->dl[d] = c->dl[d];
    k->pl[d] = c->pl[d];
    k->pr[d] = c->pr[d];
    k->op[d] = transposed ? c->op[d] : 0;
  }
  return 0;
}

/* Makes the primitives of p->key (acl__nn_dnnl_make: on a thread of its team); -1 when oneDNN refuses. */
static int conv_primitives(void *arg) {
  conv_prims *p = arg;
  const conv_key *k = &p->key;
  dnnl_engine_t eng = acl__engine_dnnl_cpu();
  if (eng == NULL)
    return -1;
  /* the convolution, layouts of oneDNN's choice */
  dnnl_memory_desc_t any[CV_N];
  for (int i = 0; i < CV_N; i++)
    dnnl_memory_desc_init_by_tag(&any[i], k->user[i].ndims, k->user[i].dims, dnnl_f32, dnnl_format_tag_any);
  int nd = k->user[CV_SRC].ndims - 2;
  dnnl_dims_t st, dl, pl, pr;
  for (int d = 0; d < nd; d++) {
    st[d] = k->st[d];
    dl[d] = k->dl[d] - 1;
    pl[d] = k->pl[d];
    pr[d] = k->pr[d] - k->op[d];
  }
  dnnl_dims_t bd = {k->user[CV_DST].dims[1]};
  dnnl_memory_desc_init_by_tag(&p->bias_md, 1, bd, dnnl_f32, dnnl_a);
  const dnnl_memory_desc_t *bmd = k->bias ? &p->bias_md : NULL;
  dnnl_primitive_desc_t pd = NULL;
  dnnl_status_t s;
  dnnl_primitive_attr_t attr = acl__nn_dnnl_attr();
  if (attr == NULL)
    return -1;
  /* layouts of oneDNN's choice: for the caller's own (NCHW) ones it has only its gemm kernels.  A convolution
   * asks for forward_training although it only infers (the result is the same): for inference oneDNN 2.6 picks
   * its brgemm kernels on NHWC, and the NCHW <-> NHWC reorders around them (jit:uni, a full transpose) cost
   * more than those kernels save, 60 of 115 us for a 1x256x28x28 depthwise 3x3; for training it picks the
   * nChw16c kernels whose reorders are cheap (jit:blk), which is also what PyTorch's CPU convolution runs. */
  if (k->transposed) {
    dnnl_deconvolution_desc_t d;
    s = dnnl_dilated_deconvolution_forward_desc_init(&d, dnnl_forward_inference, dnnl_deconvolution_direct, &any[0],
                                                     &any[1], bmd, &any[2], st, dl, pl, pr);
    if (s == dnnl_success)
      s = dnnl_primitive_desc_create(&pd, &d, attr, eng, NULL);
  } else {
    dnnl_convolution_desc_t d;
    s = dnnl_dilated_convolution_forward_desc_init(&d, dnnl_forward_training, dnnl_convolution_direct, &any[0], &any[1],
                                                   bmd, &any[2], st, dl, pl, pr);
    if (s == dnnl_success)
      s = dnnl_primitive_desc_create(&pd, &d, attr, eng, NULL);
  }
  dnnl_primitive_attr_destroy(attr);
  if (s != dnnl_success)
    return -1;
  p->scratch_md = *dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  static const dnnl_query_t q[CV_N] = {dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md};
  for (int i = 0; i < CV_N; i++)
    p->prim[i] = *dnnl_primitive_desc_query_md(pd, q[i], 0);
  s = dnnl_primitive_create(&p->conv, pd);
  dnnl_primitive_desc_destroy(pd);
  if (s != dnnl_success)
    return -1;
  for (int i = 0; i < CV_N; i++) {
    if (dnnl_memory_desc_equal(&k->user[i], &p->prim[i]))
      continue;
    dnnl_primitive_desc_t rpd;
    const dnnl_memory_desc_t *from = i == CV_DST ? &p->prim[i] : &k->user[i],
                             *to = i == CV_DST ? &k->user[i] : &p->prim[i];
    if (dnnl_reorder_primitive_desc_create(&rpd, from, eng, to, eng, NULL) != dnnl_success)
      return -1;
    s = dnnl_primitive_create(&p->reorder[i], rpd);
    dnnl_primitive_desc_destroy(rpd);
    if (s != dnnl_success)
      return -1;
  }
  return 0;
}

/* j->p for its tensors and attributes: the cache's, or made now (and cached).  0, -1 when oneDNN refuses,
 * or ACLNN_ERR_INNER without host memory. */
static int conv_prims_of(conv_job *j, const conv_args *c, int transposed, int64_t g) {
  conv_key k;
  if (conv_key_of(j, c, transposed, g, &k) != 0)
    return -1;
  if ((j->p = conv_cache_get(&k)) != NULL)
    return 0;
  conv_prims *p = calloc(1, sizeof *p);
  if (p == NULL)
    return ACLNN_ERR_INNER;
  p->refs = 1;
  p->key = k;
  if (acl__nn_dnnl_make(k.threads, conv_primitives, p) != 0) {
    conv_prims_free(p);
    return -1;
  }
  conv_cache_put(p);
  j->p = p;
  return 0;
}

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias,
                                             const aclIntArray *stride, const aclIntArray *padding,
                                             const aclIntArray *dilation, bool transposed,
                                             const aclIntArray *outputPadding, const int64_t groups, aclTensor *output,
                                             int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnConvolution";
  int rc = 0;
  char s1[200], s2[200];
  if (acl__nn_tensor_arg(api, "input", input, &rc) == NULL || acl__nn_tensor_arg(api, "weight", weight, &rc) == NULL ||
      (bias != NULL && acl__nn_tensor_arg(api, "bias", bias, &rc) == NULL) ||
      acl__nn_tensor_arg(api, "output", output, &rc) == NULL)
    return rc;
  if (workspaceSize == NULL || executor == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", workspaceSize == NULL ? "workspaceSize" : "executor");
  const aclTensor *ts[4] = {input, weight, output, bias};
  const char *names[4] = {"input", "weight", "output", "bias"};
  for (int i = 0; i < (bias != NULL ? 4 : 3); i++)
    if ((rc = acl__nn_check_dims(api, api2, names[i], ts[i])) != 0 ||
        (rc = acl__nn_check_type(api, api2, i == 2 ? "output" : "tensor", names[i], ts[i]->dtype, FLT3)) != 0)
      return rc;
  if (cubeMathType < 0 || cubeMathType > 3)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "cubeMathType is %d; aclnnConvolution takes 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 "
                     "(USE_FP16) or 3 (USE_HF32). Remedy: pass one of them",
                     (int)cubeMathType);
  int rank = (int)input->ndim;
  if (rank < 3 || rank > 5 || weight->ndim != input->ndim)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "input %s and weight %s: aclnnConvolution takes a 3-D (NCL), 4-D (NCHW) or 5-D (NCDHW) input "
                     "and a weight of the same rank. Remedy: give shapes of those ranks",
                     acl__nn_shape_text(input->dims, input->ndim, s1, sizeof s1),
                     acl__nn_shape_text(weight->dims, weight->ndim, s2, sizeof s2));
  conv_args c = {.api = api, .nd = rank - 2};
  if ((rc = conv_array(&c, "stride", stride, c.st, 1)) != 0 || (rc = conv_padding(&c, padding)) != 0 ||
      (rc = conv_array(&c, "dilation", dilation, c.dl, 1)) != 0)
    return rc;
  if (transposed) {
    if ((rc = conv_array(&c, "outputPadding", outputPadding, c.op, 0)) != 0)
      return rc;
    for (int k = 0; k < c.nd; k++)
      if (c.op[k] >= c.st[k] && c.op[k] >= c.dl[k])
        return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                         "outputPadding[%d] is %lld; it must be smaller than stride (%lld) or dilation (%lld). "
                         "Remedy: give a smaller outputPadding",
                         k, (long long)c.op[k], (long long)c.st[k], (long long)c.dl[k]);
  }
  if (groups < 1 || groups > 65535)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "groups is %lld; it must lie in [1, 65535]. Remedy: pass such a value",
                     (long long)groups);
  int64_t cin = input->dims[1];
  int64_t cout = transposed ? weight->dims[1] * groups : weight->dims[0];
  int chan_ok = transposed ? weight->dims[0] == cin && cin % groups == 0
                           : weight->dims[1] * groups == cin && weight->dims[0] % groups == 0;
  if (!chan_ok)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "input %s, weight %s and groups %lld do not fit: %s. Remedy: give a weight of that shape",
                     acl__nn_shape_text(input->dims, input->ndim, s1, sizeof s1),
                     acl__nn_shape_text(weight->dims, weight->ndim, s2, sizeof s2), (long long)groups,
                     transposed ? "a transposed convolution's weight is [C_in, C_out / groups, k...], C_in a multiple "
                                  "of groups"
                                : "weight is [C_out, C_in / groups, k...], C_out a multiple of groups");
  if (bias != NULL && (bias->ndim != 1 || bias->dims[0] != cout))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "bias has shape %s; it must be [%lld] (one value per output channel). Remedy: give that shape or "
                     "NULL",
                     acl__nn_shape_text(bias->dims, bias->ndim, s1, sizeof s1), (long long)cout);
  int64_t want[5] = {input->dims[0], cout};
  for (int k = 0; k < c.nd; k++) {
    int64_t in = input->dims[2 + k], kk = weight->dims[2 + k], span = c.dl[k] * (kk - 1) + 1;
    want[2 + k] = transposed ? (in - 1) * c.st[k] - c.pl[k] - c.pr[k] + span + c.op[k]
                             : (in + c.pl[k] + c.pr[k] - span) / c.st[k] + 1;
    if (!transposed && in + c.pl[k] + c.pr[k] < span)
      want[2 + k] = 0;
    if (want[2 + k] <= 0 || in <= 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "spatial dim %d: input %lld with kernel %lld (dilation %lld, padding %lld + %lld) leaves no "
                       "output. Remedy: give a larger input or more padding",
                       k, (long long)in, (long long)kk, (long long)c.dl[k], (long long)c.pl[k], (long long)c.pr[k]);
  }
  int same = (int)output->ndim == rank;
  for (int k = 0; same && k < rank; k++)
    same = output->dims[k] == want[k];
  if (!same)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "output has shape %s; aclnnConvolution writes %s here. Remedy: create "
                     "output with that shape",
                     acl__nn_shape_text(output->dims, output->ndim, s1, sizeof s1),
                     acl__nn_shape_text(want, (uint64_t)rank, s2, sizeof s2));
  for (int k = 0; k < rank; k++)
    if (output->dims[k] > 1 && output->strides[k] == 0)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                       "output has stride 0 along dim %d: several of its elements are one "
                       "memory location. Remedy: give output distinct elements",
                       k);

  conv_job *j = acl__nn_job_new(sizeof *j, conv_run);
  aclOpExecutor *ex = acl__nn_job_exec(api, api2, j != NULL ? &j->base : NULL);
  if (ex == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  j->base.destroy = conv_destroy;
  j->ti[CV_SRC] = acl__nn_job_tensor(ex, input, "input", 0);
  j->ti[CV_WEI] = acl__nn_job_tensor(ex, weight, "weight", 0);
  j->tbias = bias != NULL ? acl__nn_job_tensor(ex, bias, "bias", 0) : -1;
  j->ti[CV_DST] = acl__nn_job_tensor(ex, output, "output", 1);
  ex->empty = acl__nn_numel(output) == 0;
  if (!ex->empty && (rc = conv_prims_of(j, &c, transposed, groups)) != 0) {
    aclDestroyAclOpExecutor(ex);
    if (rc > 0)
      return ACL__FAIL(rc, "out of host memory for the convolution's primitives");
    return ACL__FAIL(ACLNN_ERR_INNER, "oneDNN has no %sconvolution for input %s and weight %s with these attributes",
                     transposed ? "transposed " : "", acl__nn_shape_text(input->dims, input->ndim, s1, sizeof s1),
                     acl__nn_shape_text(weight->dims, weight->ndim, s2, sizeof s2));
  }
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnConvolution)
