/*
 * aclnn_attention.c - FlashAttentionScore, reference aclnn.md section 8.14
 * (ctest -R api/aclnn/attention): every layout on f32, f16 and bf16 with
 * grouped key / value heads, against a naive softmax(scale (pse + Q K^T)) V
 * computed here in double; the attention mask, the sparse modes' windows,
 * pse, dropout by a bit mask, a strided query, softmaxMax / softmaxSum; the
 * argument checks.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_transformer.h"

enum { BSH, SBH, BSND, BNSD };
static const char *const layouts[] = {"BSH", "SBH", "BSND", "BNSD"};

typedef struct fa_case {
  aclDataType t;
  int layout;
  int64_t B, N, Nkv, Sq, Skv, D;
  double scale, keep;
  int mask; /* 0 none, 2: [Sq, Skv], 4: [B, 1, Sq, Skv] */
  int pse;  /* [1, N, Sq, Skv] */
  int mode;
  int64_t pre, next;
  int strided; /* query as a view of BNSD-ordered storage (BSND layout) */
} fa_case;

/* Index of (b, n, s, d) in a tensor of layout l with n heads. */
static int64_t at(int l, int64_t B, int64_t N, int64_t S, int64_t D, int64_t b, int64_t n, int64_t s, int64_t d) {
  switch (l) {
  case BSH:
    return ((b * S + s) * N + n) * D + d;
  case SBH:
    return ((s * B + b) * N + n) * D + d;
  case BSND:
    return ((b * S + s) * N + n) * D + d;
  default:
    return ((b * N + n) * S + s) * D + d;
  }
}

static int dims_of(int l, int64_t B, int64_t N, int64_t S, int64_t D, int64_t *d) {
  switch (l) {
  case BSH:
    d[0] = B, d[1] = S, d[2] = N * D;
    return 3;
  case SBH:
    d[0] = S, d[1] = B, d[2] = N * D;
    return 3;
  case BSND:
    d[0] = B, d[1] = S, d[2] = N, d[3] = D;
    return 4;
  default:
    d[0] = B, d[1] = N, d[2] = S, d[3] = D;
    return 4;
  }
}

static int outside(const fa_case *c, int64_t i, int64_t j) {
  int64_t d = j - i, sh = d - (c->Skv - c->Sq);
  switch (c->mode) {
  case 0:
    return d > c->next || -d > c->pre;
  case 2:
    return d > 0;
  case 3:
    return sh > 0;
  case 4:
    return sh > c->next || -sh > c->pre;
  default:
    return 0;
  }
}

static void run_case(aclrtStream st, const fa_case *c) {
  int64_t B = c->B, N = c->N, Nkv = c->Nkv, Sq = c->Sq, Skv = c->Skv, D = c->D;
  aclDataType t = c->t;
  uint32_t seed = 99u + (uint32_t)(c->layout * 7 + c->mode * 3 + c->mask);
  int64_t nq = B * N * Sq * D, nk = B * Nkv * Skv * D, nsc = B * N * Sq * Skv;
  double *q = malloc((size_t)nq * sizeof(double)), *k = malloc((size_t)nk * sizeof(double)),
         *v = malloc((size_t)nk * sizeof(double)), *pse = malloc((size_t)(N * Sq * Skv) * sizeof(double));
  double *mk = malloc((size_t)(B * Sq * Skv) * sizeof(double)), *want = malloc((size_t)nq * sizeof(double));
  double *wmax = malloc((size_t)(B * N * Sq * 8) * sizeof(double)),
         *wsum = malloc((size_t)(B * N * Sq * 8) * sizeof(double));
  int64_t nbytes = (nsc + 7) / 8;
  double *drop = malloc((size_t)nbytes * sizeof(double));
  /* values in layout order */
  for (int64_t i = 0; i < nq; i++)
    q[i] = nt_round(t, nt_rand(&seed) * 2 - 1);
  for (int64_t i = 0; i < nk; i++) {
    k[i] = nt_round(t, nt_rand(&seed) * 2 - 1);
    v[i] = nt_round(t, nt_rand(&seed) * 2 - 1);
  }
  for (int64_t i = 0; i < N * Sq * Skv; i++)
    pse[i] = nt_round(t, nt_rand(&seed) - 0.5);
  for (int64_t i = 0; i < B * Sq * Skv; i++)
    mk[i] = nt_rand(&seed) < 0.3;
  for (int64_t i = 0; i < nbytes; i++)
    drop[i] = floor(nt_rand(&seed) * 256);
  /* the reference, in double */
  double *s = malloc((size_t)(Skv > 0 ? Skv : 1) * sizeof(double));
  for (int64_t b = 0; b < B; b++)
    for (int64_t n = 0; n < N; n++)
      for (int64_t i = 0; i < Sq; i++) {
        int64_t kn = n / (N / Nkv);
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < Skv; j++) {
          double dot = 0;
          for (int64_t e = 0; e < D; e++)
            dot += q[at(c->layout, B, N, Sq, D, b, n, i, e)] * k[at(c->layout, B, Nkv, Skv, D, b, kn, j, e)];
          double x = c->scale * (dot + (c->pse ? pse[(n * Sq + i) * Skv + j] : 0));
          int masked = outside(c, i, j) || (c->mask == 2 && mk[i * Skv + j] != 0) ||
                       (c->mask == 4 && mk[(b * Sq + i) * Skv + j] != 0);
          s[j] = masked ? -INFINITY : x;
          if (s[j] > mx)
            mx = s[j];
        }
        for (int64_t j = 0; j < Skv; j++) {
          s[j] = mx == -INFINITY ? 0 : exp(s[j] - mx);
          sum += s[j];
        }
        for (int64_t e = 0; e < 8; e++) {
          wmax[((b * N + n) * Sq + i) * 8 + e] = mx;
          wsum[((b * N + n) * Sq + i) * 8 + e] = sum;
        }
        for (int64_t e = 0; e < D; e++) {
          double o = 0;
          for (int64_t j = 0; j < Skv; j++) {
            double p = sum > 0 ? s[j] / sum : 0;
            if (c->keep < 1) {
              int64_t f = ((b * N + n) * Sq + i) * Skv + j;
              p = ((int)drop[f / 8] >> (f % 8)) & 1 ? p / c->keep : 0;
            }
            o += p * v[at(c->layout, B, Nkv, Skv, D, b, kn, j, e)];
          }
          want[at(c->layout, B, N, Sq, D, b, n, i, e)] = nt_round(t, o);
        }
      }
  /* tensors */
  int64_t qd[4], kd[4];
  int rank = dims_of(c->layout, B, N, Sq, D, qd);
  dims_of(c->layout, B, Nkv, Skv, D, kd);
  nt_tensor tq;
  if (c->strided) { /* BSND view over BNSD storage */
    double *sto = malloc((size_t)nq * sizeof(double));
    for (int64_t b = 0; b < B; b++)
      for (int64_t n = 0; n < N; n++)
        for (int64_t i = 0; i < Sq; i++)
          for (int64_t e = 0; e < D; e++)
            sto[((b * N + n) * Sq + i) * D + e] = q[at(BSND, B, N, Sq, D, b, n, i, e)];
    const int64_t sst[4] = {N * Sq * D, D, Sq * D, 1};
    tq = nt_view(t, 4, qd, sst, 0, nq, sto);
    free(sto);
  } else {
    tq = nt_make(t, rank, qd, q);
  }
  nt_tensor tk = nt_make(t, rank, kd, k), tv = nt_make(t, rank, kd, v), to = nt_make(t, rank, qd, NULL);
  const int64_t pd[4] = {1, N, Sq, Skv}, md2[2] = {Sq, Skv}, md4[4] = {B, 1, Sq, Skv}, sd[4] = {B, N, Sq, 8},
                dd[1] = {nbytes};
  nt_tensor tp = {0}, tm = {0}, td = {0};
  if (c->pse)
    tp = nt_make(t, 4, pd, pse);
  if (c->mask)
    tm = nt_make(ACL_BOOL, c->mask, c->mask == 2 ? md2 : md4, mk);
  if (c->keep < 1)
    td = nt_make(ACL_UINT8, 1, dd, drop);
  nt_tensor tmax = nt_make(ACL_FLOAT, 4, sd, NULL), tsum = nt_make(ACL_FLOAT, 4, sd, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnFlashAttentionScoreGetWorkspaceSize(tq.t, tk.t, tv.t, tp.t, td.t, NULL, tm.t, NULL, c->scale, c->keep,
                                                 c->pre, c->next, N, (char *)layouts[c->layout], 0, c->mode, tmax.t,
                                                 tsum.t, NULL, to.t, &ws, &ex));
  nt_run(aclnnFlashAttentionScore, ws, ex, st);
  char what[160];
  snprintf(what, sizeof what, "FlashAttentionScore %s %s mask %d pse %d mode %d keep %g%s", nt_name(t),
           layouts[c->layout], c->mask, c->pse, c->mode, c->keep, c->strided ? " strided" : "");
  double tol = t == ACL_FLOAT ? 2e-5 : 4 * nt_rtol(t);
  double *g = nt_read(&to);
  NT_CHECK_ALL(what, g, want, nq, tol);
  free(g);
  g = nt_read(&tmax);
  NT_CHECK_ALL(what, g, wmax, B * N * Sq * 8, t == ACL_FLOAT ? 2e-5 : 2e-3);
  free(g);
  g = nt_read(&tsum);
  NT_CHECK_ALL(what, g, wsum, B * N * Sq * 8, t == ACL_FLOAT ? 2e-5 : 2e-3);
  free(g);
  nt_tensor *all[] = {&tq, &tk, &tv, &to, &tp, &tm, &td, &tmax, &tsum};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (all[i]->t != NULL)
      nt_free(all[i]);
  free(q);
  free(k);
  free(v);
  free(pse);
  free(mk);
  free(want);
  free(wmax);
  free(wsum);
  free(drop);
  free(s);
}

TEST(layouts_and_types) {
  aclrtStream st = nt_up();
  const aclDataType ts[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (int ti = 0; ti < 3; ti++)
    for (int l = 0; l < 4; l++) {
      /* GQA (4 query heads on 2), Sq over one block of rows, Skv over one block of keys */
      fa_case c = {ts[ti], l, 2, 4, 2, 37, 150, 16, 0.25, 1, 0, 0, 1, 0, 0, 0};
      run_case(st, &c);
    }
  fa_case one = {ACL_FLOAT, BNSD, 1, 1, 1, 1, 1, 3, 1, 1, 0, 0, 1, 0, 0, 0};
  run_case(st, &one);
  nt_down(st);
}

TEST(masks_pse_sparse_modes_dropout_views) {
  aclrtStream st = nt_up();
  const int64_t big = 2147483647;
  fa_case cs[] = {
      {ACL_FLOAT, BNSD, 2, 2, 1, 40, 135, 8, 0.3, 1, 2, 0, 0, big, big, 0}, /* mask [Sq, Skv] */
      {ACL_FLOAT, BSH, 2, 2, 2, 33, 70, 8, 0.3, 1, 4, 1, 1, 0, 0, 0},       /* mask [B, 1, Sq, Skv], pse */
      {ACL_FLOAT, BNSD, 1, 2, 2, 50, 140, 8, 0.3, 1, 0, 0, 0, 20, 5, 0},    /* band of mode 0 */
      {ACL_FLOAT, SBH, 1, 2, 1, 40, 40, 8, 0.3, 1, 0, 0, 2, 0, 0, 0},       /* causal, top left */
      {ACL_FLOAT, BSND, 1, 2, 2, 45, 30, 8, 0.3, 1, 0, 1, 3, 0, 0, 0},      /* causal, bottom right: rows with no key */
      {ACL_FLOAT, BNSD, 1, 2, 2, 30, 60, 8, 0.3, 1, 2, 0, 4, 7, 3, 0},      /* band, bottom right */
      {ACL_FLOAT16, BNSD, 2, 2, 2, 20, 48, 8, 0.3, 1, 2, 1, 2, 0, 0, 0},    /* f16: mask, pse, causal */
      {ACL_FLOAT, BNSD, 2, 2, 1, 20, 48, 8, 0.3, 0.75, 0, 0, 0, big, big, 0}, /* dropout */
      {ACL_FLOAT, BSND, 2, 4, 2, 35, 50, 8, 0.3, 1, 2, 0, 0, big, big, 1},    /* strided query */
      {ACL_BF16, BSND, 1, 2, 1, 35, 50, 16, 0.3, 1, 0, 0, 3, 0, 0, 1},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
    run_case(st, &cs[i]);
  nt_down(st);
}

TEST(argument_checks) {
  aclrtStream st = nt_up();
  const int64_t d[4] = {1, 2, 4, 8}, d16[4] = {1, 2, 4, 8}, sd[4] = {1, 2, 4, 8};
  nt_tensor q = nt_make(ACL_FLOAT, 4, d, NULL), k = nt_make(ACL_FLOAT, 4, d, NULL), o = nt_make(ACL_FLOAT, 4, d, NULL);
  nt_tensor h = nt_make(ACL_FLOAT16, 4, d16, NULL), bad = nt_make(ACL_FLOAT, 4, sd, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  char bnsd[] = "BNSD", xyz[] = "XYZ";
#define FA(Q, K, PAD, KEEP, HEADS, LAYOUT, MODE, OUT)                                                                  \
  aclnnFlashAttentionScoreGetWorkspaceSize(Q, K, K, NULL, NULL, PAD, NULL, NULL, 1.0, KEEP, 65536, 65536, HEADS,       \
                                           LAYOUT, 0, MODE, NULL, NULL, NULL, OUT, &ws, &ex)
  NT_FAILS(FA(NULL, k.t, NULL, 1, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_NULLPTR, "query is NULL");
  NT_FAILS(FA(q.t, k.t, NULL, 1, 2, NULL, 0, o.t), ACLNN_ERR_PARAM_NULLPTR, "inputLayout is NULL");
  NT_FAILS(FA(q.t, k.t, NULL, 1, 2, xyz, 0, o.t), ACLNN_ERR_PARAM_INVALID, "inputLayout is \"XYZ\"");
  NT_FAILS(FA(q.t, k.t, NULL, 1, 3, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "headNum is 3");
  NT_FAILS(FA(q.t, k.t, NULL, 0, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "keepProb is 0");
  NT_FAILS(FA(q.t, k.t, NULL, 0.5, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "dropMaskOptional is NULL");
  NT_FAILS(FA(q.t, k.t, NULL, 1, 2, bnsd, 7, o.t), ACLNN_ERR_PARAM_INVALID, "sparseMode is 7");
  NT_FAILS(FA(q.t, k.t, q.t, 1, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "paddingMaskOptional");
  NT_FAILS(FA(q.t, h.t, NULL, 1, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "one type");
  NT_FAILS(FA(h.t, h.t, NULL, 1, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "one type");
  const int64_t k3[4] = {1, 3, 4, 8};
  nt_tensor kk = nt_make(ACL_FLOAT, 4, k3, NULL);
  NT_FAILS(FA(q.t, kk.t, NULL, 1, 2, bnsd, 0, o.t), ACLNN_ERR_PARAM_INVALID, "does not fit query");
  nt_tensor i32 = nt_make(ACL_INT32, 4, d, NULL);
  NT_FAILS(FA(i32.t, i32.t, NULL, 1, 2, bnsd, 0, i32.t), ACLNN_ERR_PARAM_INVALID, "does not take");
#undef FA
  (void)bad;
  nt_free(&q);
  nt_free(&k);
  nt_free(&o);
  nt_free(&h);
  nt_free(&bad);
  nt_free(&kk);
  nt_free(&i32);
  nt_down(st);
}
