/*
 * attention.c - the attention operator of reference aclnn.md section 8.14:
 * FlashAttentionScore, the forward of fused attention,
 *
 *   attentionOut = Dropout(Softmax(Mask(scale * (pse + Q K^T))), keepProb) V
 *
 * for the layouts BSH, SBH, BSND and BNSD, grouped key / value heads (GQA),
 * an optional pse (realShift), an attention mask (1 = masked) and the
 * sparse modes 0-4, with the softmax's row maximum and sum written to
 * softmaxMaxOut / softmaxSumOut ([B, N, Sq, 8], the value repeated 8 times).
 *
 * Every tensor is seen as a [B, N, S, D] view (the H of BSH / SBH split
 * into N heads of D: nothing is copied).  Work is shared out by blocks of
 * ATT_QB query rows of one head; a block gathers its key and value head
 * into float, then walks the keys ATT_KB at a time with the online softmax
 * (running maximum m, sum l, accumulator rescaled by exp(m_old - m_new)),
 * so at most one ATT_QB x ATT_KB block of scores exists at a time.  All
 * arithmetic is float; f16 / bf16 are converted on load and rounded once on
 * store.  A row whose keys are all masked gets 0 (max -inf, sum 0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/index.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/rt.h"

#define ATT_QB 32  /* query rows per block of work */
#define ATT_KB 128 /* keys per block of scores */

enum { ATT_BSH, ATT_SBH, ATT_BSND, ATT_BNSD };
enum { T_Q, T_K, T_V, T_PSE, T_DROP, T_MASK, T_MAX, T_SUM, T_OUT, T_COUNT };

typedef struct att_job {
  acl__nn_job base;
  int ti[T_COUNT]; /* job tensor of each role (-1: absent) */
  int64_t B, N, Nkv, Sq, Skv, D;
  float scale;
  float keep;        /* keepProb */
  int mode;          /* sparseMode 0-4 */
  int64_t pre, next; /* the band of modes 0 and 4 */
} att_job;

typedef struct att_work {
  const att_job *j;
  char *const *ptr;
  int failed;
} att_work;

/* Query row i's window of keys, [*lo, *hi] (the sparse mode's causal or band limits; pre and next are
 * clamped in phase 1, so nothing overflows). */
static void att_window(const att_job *j, int64_t i, int64_t *lo, int64_t *hi) {
  int64_t shift = j->mode == 3 || j->mode == 4 ? j->Skv - j->Sq : 0; /* aligned at the bottom right */
  switch (j->mode) {
  case 0:
  case 4:
    *lo = i + shift - j->pre;
    *hi = i + shift + j->next;
    break;
  case 2:
  case 3:
    *lo = 0;
    *hi = i + shift;
    break;
  default:
    *lo = 0;
    *hi = j->Skv - 1;
    break;
  }
  if (*lo < 0)
    *lo = 0;
  if (*hi > j->Skv - 1)
    *hi = j->Skv - 1;
}

static uint8_t att_byte(const acl__nn_tref *t, const char *base, int64_t flat) {
  int64_t c[ACL__NN_MAX_RANK];
  acl__ix_unravel(flat, t->rank, t->dims, c);
  return *(const uint8_t *)(base + acl__ix_off(t, c));
}

/* The buffers of one thread's blocks. */
typedef struct att_buf {
  float *kt;  /* the key head transposed, [D, Skv] */
  float *v;   /* the value head, [Skv, D] */
  float *q;   /* the block's query rows, [ATT_QB, D] */
  float *acc; /* their output rows */
  float *s;   /* one block of scores, [ATT_QB, ATT_KB] */
  float *pse; /* one row of pse, [ATT_KB] */
  float m[ATT_QB], l[ATT_QB];
} att_buf;

/* Scores of rows [0, rows) of the block against keys [k0, k0 + kn): scale * (pse + q.k), masked to -inf,
 * then the online softmax step, then the value rows added to the accumulators. */
static void att_keys(const att_job *j, char *const *ptr, att_buf *bf, int64_t b, int64_t n, int64_t i0, int64_t rows,
                     int64_t k0, int64_t kn) {
  const acl__nn_tref *t = j->base.t;
  const acl__nn_tref *mk = j->ti[T_MASK] >= 0 ? &t[j->ti[T_MASK]] : NULL;
  const acl__nn_tref *ps = j->ti[T_PSE] >= 0 ? &t[j->ti[T_PSE]] : NULL;
  const acl__nn_tref *dm = j->ti[T_DROP] >= 0 ? &t[j->ti[T_DROP]] : NULL;
  int64_t D = j->D, Skv = j->Skv;
  for (int64_t r = 0; r < rows; r++) {
    int64_t i = i0 + r, lo, hi;
    att_window(j, i, &lo, &hi);
    if (hi < k0 || lo >= k0 + kn)
      continue; /* no key of this block in the row's window */
    float *sr = bf->s + r * ATT_KB, mx = -INFINITY;
    const float *q = bf->q + r * D;
    for (int64_t c = 0; c < kn; c++)
      sr[c] = 0;
    for (int64_t e = 0; e < D; e++) { /* axpy over the keys: the loop the compiler vectorises */
      float qe = q[e];
      const float *kt = bf->kt + e * Skv + k0;
      for (int64_t c = 0; c < kn; c++)
        sr[c] += qe * kt[c];
    }
    if (ps != NULL) { /* pse row [k0, k0+kn) */
      int64_t c4[4] = {b, n, i, k0};
      acl__nn_load_f32(bf->pse, acl__ix_at(ps, ptr[j->ti[T_PSE]], acl__ix_off(ps, c4)),
                       ps->st[3] * (int64_t)acl__nn_dtype_size(ps->dtype), kn, ps->dtype);
      for (int64_t c = 0; c < kn; c++)
        sr[c] += bf->pse[c];
    }
    for (int64_t c = 0; c < kn; c++) {
      int64_t kj = k0 + c;
      int masked = kj < lo || kj > hi;
      if (!masked && mk != NULL) {
        int64_t mc[4] = {b, n, i, kj};
        masked = *(const uint8_t *)(ptr[j->ti[T_MASK]] + acl__ix_off(mk, mc)) != 0;
      }
      sr[c] = masked ? -INFINITY : sr[c] * j->scale;
      if (sr[c] > mx)
        mx = sr[c];
    }
    float mn = mx > bf->m[r] ? mx : bf->m[r];
    if (mn == -INFINITY)
      continue; /* every key so far masked */
    float corr = expf(bf->m[r] - mn), sum = 0;
    for (int64_t c = 0; c < kn; c++) {
      sr[c] = expf(sr[c] - mn);
      sum += sr[c];
    }
    bf->l[r] = bf->l[r] * corr + sum;
    bf->m[r] = mn;
    if (dm != NULL) { /* dropout: bit (row-major over [B, N, Sq, Skv]) set = kept, scaled by 1 / keepProb */
      int64_t flat = ((b * j->N + n) * j->Sq + i) * Skv + k0;
      for (int64_t c = 0; c < kn; c++) {
        int64_t f = flat + c;
        sr[c] = (att_byte(dm, ptr[j->ti[T_DROP]], f / 8) >> (f % 8)) & 1 ? sr[c] / j->keep : 0;
      }
    }
    float *ar = bf->acc + r * D;
    if (corr != 1)
      for (int64_t e = 0; e < D; e++)
        ar[e] *= corr;
    for (int64_t c = 0; c < kn; c++) {
      const float *vr = bf->v + (k0 + c) * D;
      float p = sr[c];
      if (p == 0)
        continue;
      for (int64_t e = 0; e < D; e++)
        ar[e] += p * vr[e];
    }
  }
}

static void att_blocks(int64_t begin, int64_t end, void *arg) {
  att_work *w = arg;
  const att_job *j = w->j;
  char *const *ptr = w->ptr;
  const acl__nn_tref *t = j->base.t;
  int64_t D = j->D, Skv = j->Skv, nqb = (j->Sq + ATT_QB - 1) / ATT_QB;
  att_buf bf;
  float *k = malloc((size_t)(Skv * D + 1) * sizeof(float)), row8[8];
  bf.kt = malloc((size_t)(Skv * D + 1) * sizeof(float));
  bf.v = malloc((size_t)(Skv * D + 1) * sizeof(float));
  bf.q = malloc((size_t)(ATT_QB * D + 1) * sizeof(float));
  bf.acc = malloc((size_t)(ATT_QB * D + 1) * sizeof(float));
  bf.s = malloc((size_t)ATT_QB * ATT_KB * sizeof(float));
  bf.pse = malloc(ATT_KB * sizeof(float));
  if (k == NULL || bf.kt == NULL || bf.v == NULL || bf.q == NULL || bf.acc == NULL || bf.s == NULL || bf.pse == NULL) {
    __atomic_store_n(&w->failed, 1, __ATOMIC_RELAXED);
    goto out;
  }
  int64_t last_head = -1;
  for (int64_t u = begin; u < end; u++) {
    int64_t head = u / nqb, i0 = (u % nqb) * ATT_QB, b = head / j->N, n = head % j->N;
    int64_t rows = j->Sq - i0 < ATT_QB ? j->Sq - i0 : ATT_QB;
    int64_t kvh = b * j->Nkv + n / (j->N / j->Nkv);
    if (kvh != last_head) { /* the key head (transposed) and value head as float */
      acl__nn_gather_f32(&t[j->ti[T_K]], ptr[j->ti[T_K]], 2, kvh, k);
      for (int64_t c = 0; c < Skv; c++)
        for (int64_t e = 0; e < D; e++)
          bf.kt[e * Skv + c] = k[c * D + e];
      acl__nn_gather_f32(&t[j->ti[T_V]], ptr[j->ti[T_V]], 2, kvh, bf.v);
      last_head = kvh;
    }
    int64_t lo = Skv, hi = -1; /* the keys any row of the block sees */
    for (int64_t r = 0; r < rows; r++) {
      int64_t a, z;
      acl__nn_gather_f32(&t[j->ti[T_Q]], ptr[j->ti[T_Q]], 3, head * j->Sq + i0 + r, bf.q + r * D);
      bf.m[r] = -INFINITY;
      bf.l[r] = 0;
      att_window(j, i0 + r, &a, &z);
      if (a <= z) {
        lo = a < lo ? a : lo;
        hi = z > hi ? z : hi;
      }
    }
    memset(bf.acc, 0, (size_t)(rows * D) * sizeof(float));
    for (int64_t k0 = lo / ATT_KB * ATT_KB; k0 <= hi; k0 += ATT_KB)
      att_keys(j, ptr, &bf, b, n, i0, rows, k0, Skv - k0 < ATT_KB ? Skv - k0 : ATT_KB);
    for (int64_t r = 0; r < rows; r++) {
      float inv = bf.l[r] > 0 ? 1 / bf.l[r] : 0, *ar = bf.acc + r * D;
      for (int64_t e = 0; e < D; e++)
        ar[e] *= inv;
      int64_t outer = head * j->Sq + i0 + r;
      acl__nn_scatter_f32(&t[j->ti[T_OUT]], ptr[j->ti[T_OUT]], 3, outer, ar);
      const int roles[2] = {T_MAX, T_SUM};
      for (int q = 0; q < 2; q++) {
        if (j->ti[roles[q]] < 0)
          continue;
        for (int e = 0; e < 8; e++)
          row8[e] = q == 0 ? bf.m[r] : bf.l[r];
        acl__nn_scatter_f32(&t[j->ti[roles[q]]], ptr[j->ti[roles[q]]], 3, outer, row8);
      }
    }
  }
out:
  free(k);
  free(bf.kt);
  free(bf.v);
  free(bf.q);
  free(bf.acc);
  free(bf.s);
  free(bf.pse);
}

static int att_run(const acl__nn_job *base, char *const *ptr, struct acl__device *dev) {
  const att_job *j = (const att_job *)base;
  att_work w = {j, ptr, 0};
  int64_t units = j->B * j->N * ((j->Sq + ATT_QB - 1) / ATT_QB);
  int rc = acl__nn_parallel(dev, units, ATT_QB * j->Skv * j->D * 2, att_blocks, &w);
  return rc != 0 ? rc : w.failed ? ACL_ERROR_RT_MEMORY_ALLOCATION : 0;
}

/* ---- phase 1 ---------------------------------------------------------------------------- */

/* Makes r (a query, key, value or out tensor in `layout`) a [B, N, S, D] view with n heads of d. */
static void att_view(acl__nn_tref *r, int layout, int64_t n, int64_t d) {
  int64_t dims[4], st[4];
  switch (layout) {
  case ATT_BSH:
  case ATT_SBH: {
    int bi = layout == ATT_BSH ? 0 : 1, si = 1 - bi;
    dims[0] = r->dims[bi], st[0] = r->st[bi];
    dims[1] = n, st[1] = r->st[2] * d;
    dims[2] = r->dims[si], st[2] = r->st[si];
    dims[3] = d, st[3] = r->st[2];
    break;
  }
  case ATT_BSND:
    dims[0] = r->dims[0], st[0] = r->st[0];
    dims[1] = r->dims[2], st[1] = r->st[2];
    dims[2] = r->dims[1], st[2] = r->st[1];
    dims[3] = r->dims[3], st[3] = r->st[3];
    break;
  default:
    return; /* BNSD: as it is */
  }
  r->rank = 4;
  memcpy(r->dims, dims, sizeof dims);
  memcpy(r->st, st, sizeof st);
}

/* B, S, N (heads, given H for the 3-D layouts' d) and D of a tensor in `layout`. */
static void att_shape(const aclTensor *t, int layout, int64_t d, int64_t *B, int64_t *S, int64_t *N, int64_t *Dout) {
  const int64_t *x = t->dims;
  switch (layout) {
  case ATT_BSH:
    *B = x[0], *S = x[1], *N = d > 0 ? x[2] / d : 0, *Dout = d;
    break;
  case ATT_SBH:
    *B = x[1], *S = x[0], *N = d > 0 ? x[2] / d : 0, *Dout = d;
    break;
  case ATT_BSND:
    *B = x[0], *S = x[1], *N = x[2], *Dout = x[3];
    break;
  default:
    *B = x[0], *N = x[1], *S = x[2], *Dout = x[3];
    break;
  }
}

aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *realShiftOptional,
    const aclTensor *dropMaskOptional, const aclTensor *paddingMaskOptional, const aclTensor *attenMaskOptional,
    const aclIntArray *prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char *inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor *softmaxMaxOut,
    const aclTensor *softmaxSumOut, const aclTensor *softmaxOutOut, const aclTensor *attentionOutOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
  const char *api = __func__, *api2 = "aclnnFlashAttentionScore";
  const uint64_t flt3 = ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_BF16);
  const uint64_t f32 = ACL__NN_BIT(ACL_FLOAT);
  (void)prefixOptional; /* sparse modes 5 and 6 only, which are refused */
  (void)innerPrecise;   /* every mode computes in float */
  (void)softmaxOutOut;  /* reserved by the vendor: not written */
  acl__ix_arg a[T_COUNT] = {
      [T_Q] = {"query", query, 0, 0, flt3},
      [T_K] = {"key", key, 0, 0, flt3},
      [T_V] = {"value", value, 0, 0, flt3},
      [T_PSE] = {"realShiftOptional", realShiftOptional, 0, 1, flt3},
      [T_DROP] = {"dropMaskOptional", dropMaskOptional, 0, 1, ACL__NN_BIT(ACL_UINT8)},
      [T_MASK] = {"attenMaskOptional", attenMaskOptional, 0, 1, ACL__IX_MASK},
      [T_MAX] = {"softmaxMaxOut", softmaxMaxOut, 1, 1, f32},
      [T_SUM] = {"softmaxSumOut", softmaxSumOut, 1, 1, f32},
      [T_OUT] = {"attentionOutOut", attentionOutOut, 1, 0, flt3},
  };
  char s1[200], s2[200], s3[200];
  int rc = acl__ix_check(api, api2, a, T_COUNT, workspaceSize, executor);
  if (rc != 0)
    return rc;
  if (inputLayout == NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_NULLPTR, "inputLayout is NULL");
  static const char *const layouts[] = {"BSH", "SBH", "BSND", "BNSD"};
  int layout = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(inputLayout, layouts[i]) == 0)
      layout = i;
  if (layout < 0)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "inputLayout is \"%.16s\"; openacl's %s takes \"BSH\", \"SBH\", \"BSND\" or \"BNSD\". Remedy: "
                     "pass one of those",
                     inputLayout, api2);
  if (paddingMaskOptional != NULL)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "paddingMaskOptional is given; the vendor reserves it (not supported). Remedy: pass NULL");
  int rank = layout <= ATT_SBH ? 3 : 4;
  const aclTensor *qkv[4] = {query, key, value, attentionOutOut};
  const char *qn[4] = {"query", "key", "value", "attentionOutOut"};
  for (int i = 0; i < 4; i++) {
    if ((int)qkv[i]->ndim != rank)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "%s has %llu dims; layout %s has %d. Remedy: pass %s as %s", qn[i],
                       (unsigned long long)qkv[i]->ndim, layouts[layout], rank, qn[i], layouts[layout]);
    if (qkv[i]->dtype != query->dtype)
      return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "%s is %s and query %s; they must be of one type. Remedy: cast it",
                       qn[i], acl__nn_dtype_name(qkv[i]->dtype), acl__nn_dtype_name(query->dtype));
  }
  if (headNum <= 0 || (rank == 3 && query->dims[2] % headNum != 0) ||
      (rank == 4 && headNum != (layout == ATT_BSND ? query->dims[2] : query->dims[1])))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "headNum is %lld, which is not query's head count (query %s, layout %s: H must be headNum x D). "
                     "Remedy: pass query's number of heads",
                     (long long)headNum, acl__nn_shape_text(query->dims, query->ndim, s1, sizeof s1), layouts[layout]);
  int64_t B, Sq, N, D, Bk, Skv, Nkv, Dk;
  att_shape(query, layout, rank == 3 ? query->dims[2] / headNum : 0, &B, &Sq, &N, &D);
  att_shape(key, layout, D, &Bk, &Skv, &Nkv, &Dk);
  int key_ok = Bk == B && Nkv > 0 && N % Nkv == 0 && (rank == 4 ? key->dims[3] == D : key->dims[2] == Nkv * D);
  int same_kv = value->ndim == key->ndim;
  for (uint64_t k = 0; same_kv && k < key->ndim; k++)
    same_kv = value->dims[k] == key->dims[k];
  if (!key_ok || !same_kv)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "key %s (value %s) does not fit query %s in layout %s: batch and head size D = %lld must match, "
                     "and query's %lld heads be a multiple of key's. Remedy: pass key and value of one shape so",
                     acl__nn_shape_text(key->dims, key->ndim, s1, sizeof s1),
                     acl__nn_shape_text(value->dims, value->ndim, s2, sizeof s2),
                     acl__nn_shape_text(query->dims, query->ndim, s3, sizeof s3), layouts[layout], (long long)D,
                     (long long)N);
  if ((rc = acl__nn_check_shape(api, api2, "attentionOutOut", attentionOutOut, query->dims, rank)) != 0)
    return rc;
  const int64_t full[4] = {B, N, Sq, Skv}, stats[4] = {B, N, Sq, 8};
  if ((softmaxMaxOut != NULL && (rc = acl__nn_check_shape(api, api2, "softmaxMaxOut", softmaxMaxOut, stats, 4)) != 0) ||
      (softmaxSumOut != NULL && (rc = acl__nn_check_shape(api, api2, "softmaxSumOut", softmaxSumOut, stats, 4)) != 0))
    return rc;
  if (realShiftOptional != NULL &&
      (realShiftOptional->ndim != 4 || realShiftOptional->dtype != query->dtype ||
       (rc = acl__ix_broadcasts(api, "realShiftOptional", realShiftOptional, 4, full)) != 0))
    return rc != 0 ? rc
                   : ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                               "realShiftOptional must be 4-D of query's type, broadcasting to [B, N, Sq, Skv]. "
                               "Remedy: pass such a pse or NULL");
  if (attenMaskOptional != NULL &&
      ((attenMaskOptional->ndim != 2 && attenMaskOptional->ndim != 4) ||
       (rc = acl__ix_broadcasts(api, "attenMaskOptional", attenMaskOptional, 4, full)) != 0))
    return rc != 0 ? rc
                   : ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                               "attenMaskOptional has %llu dims; it is [Sq, Skv] or 4-D broadcasting to [B, N, Sq, "
                               "Skv]. Remedy: pass such a mask",
                               (unsigned long long)attenMaskOptional->ndim);
  if (!(keepProb > 0 && keepProb <= 1))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID, "keepProb is %g; it lies in (0, 1]. Remedy: pass such a value", keepProb);
  if (keepProb < 1 && (dropMaskOptional == NULL || acl__nn_numel(dropMaskOptional) * 8 < B * N * Sq * Skv))
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "keepProb is %g but dropMaskOptional is %s; dropout needs a u8 bit mask of B*N*Sq*Skv bits "
                     "(%lld bytes). Remedy: pass one, or keepProb 1",
                     keepProb, dropMaskOptional == NULL ? "NULL" : "too small",
                     (long long)((B * N * Sq * Skv + 7) / 8));
  if (sparseMode < 0 || sparseMode > 4)
    return ACL__FAIL(ACLNN_ERR_PARAM_INVALID,
                     "sparseMode is %lld; openacl's %s takes 0 (mask and band), 1 (mask), 2 (causal from the top "
                     "left), 3 (causal from the bottom right) and 4 (band). Remedy: pass one of those",
                     (long long)sparseMode, api2);
  aclOpExecutor *ex;
  int ti[T_COUNT];
  att_job *j = acl__ix_job(api, api2, sizeof *j, att_run, a, T_COUNT, ti, &ex);
  if (j == NULL)
    return ACLNN_ERR_INNER_CREATE_EXECUTOR;
  if (keepProb >= 1)
    ti[T_DROP] = -1;
  memcpy(j->ti, ti, sizeof ti);
  j->B = B, j->N = N, j->Nkv = Nkv, j->Sq = Sq, j->Skv = Skv, j->D = D;
  j->scale = (float)scaleValue;
  j->keep = (float)keepProb;
  j->mode = (int)sparseMode;
  int64_t lim = Sq + Skv + 1; /* a window wider than every key is the same window: no overflow below */
  j->pre = preTokens < -lim ? -lim : preTokens > lim ? lim : preTokens;
  j->next = nextTokens < -lim ? -lim : nextTokens > lim ? lim : nextTokens;
  acl__nn_tref *t = j->base.t;
  att_view(&t[ti[T_Q]], layout, N, D);
  att_view(&t[ti[T_K]], layout, Nkv, D);
  att_view(&t[ti[T_V]], layout, Nkv, D);
  att_view(&t[ti[T_OUT]], layout, N, D);
  if (ti[T_PSE] >= 0)
    acl__ix_broadcast_view(&t[ti[T_PSE]], 4, full);
  if (ti[T_MASK] >= 0)
    acl__ix_broadcast_view(&t[ti[T_MASK]], 4, full);
  ex->empty = acl__nn_numel(attentionOutOut) == 0 && (softmaxMaxOut == NULL || acl__nn_numel(softmaxMaxOut) == 0);
  return acl__nn_job_done(ex, workspaceSize, executor);
}
ACL__NN_PHASE2(aclnnFlashAttentionScore)
