/*
 * aclnn_random.c - Dropout, reference aclnn.md section 8.13 (ctest -R
 * api/aclnn/random): on f32 / f16 / bf16, every element dropped (0) or
 * scaled by 1/(1-p) as its mask bit says, about p of them dropped, the same
 * mask for the same seed and offset (also through a strided view and in
 * place), another for another seed or offset, the mask's padding bits 0;
 * train false and p 0 copy and leave the mask alone, p 1 drops everything;
 * the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_dropout.h"

#define N 1000
#define MASK_BYTES ((N + 127) / 128 * 16)

typedef struct drop_out {
  double *y;
  unsigned char mask[MASK_BYTES];
} drop_out;

/* Dropout of x (values 1 + i/8 as t holds them) through the given tensors; results read back. */
static drop_out run(aclrtStream st, aclDataType t, double p, bool train, int64_t seed, int64_t offset, int strided,
                    int inplace) {
  const int64_t d[1] = {N}, dm[1] = {MASK_BYTES}, s2[1] = {2};
  double v[2 * N];
  for (int i = 0; i < 2 * N; i++)
    v[i] = nt_round(t, 1 + (i % 64) / 8.0);
  double mfill[MASK_BYTES];
  for (int i = 0; i < MASK_BYTES; i++)
    mfill[i] = 0xa5;
  nt_tensor x = strided ? nt_view(t, 1, d, s2, 1, 2 * N, v) : nt_make(t, 1, d, v);
  nt_tensor o = inplace ? x : nt_make(t, 1, d, NULL), m = nt_make(ACL_UINT8, 1, dm, mfill);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnDropoutGetWorkspaceSize(x.t, p, train, seed, offset, o.t, m.t, &ws, &ex));
  nt_run(aclnnDropout, ws, ex, st);
  drop_out r;
  r.y = nt_read(&o);
  double *mb = nt_read(&m);
  for (int i = 0; i < MASK_BYTES; i++)
    r.mask[i] = (unsigned char)mb[i];
  free(mb);
  /* each element: dropped (0, bit clear) or kept and scaled (bit set) */
  if (train && p > 0) {
    double scale = p < 1 ? 1 / (1 - p) : 0;
    for (int i = 0; i < N; i++) {
      double xi = strided ? v[1 + 2 * i] : v[i];
      int bit = (r.mask[i / 8] >> (i % 8)) & 1;
      double want = bit ? nt_round(t, xi * scale) : 0;
      if (!nt_close(r.y[i], want, nt_rtol(t)))
        th_fail(__FILE__, __LINE__, "Dropout %s element %d is %g, want %g (mask bit %d)", nt_name(t), i, r.y[i], want,
                bit);
    }
    for (int i = N; i < MASK_BYTES * 8; i++)
      CHECK_INT_EQ((r.mask[i / 8] >> (i % 8)) & 1, 0);
  }
  if (!inplace)
    nt_free(&o);
  nt_free(&x);
  nt_free(&m);
  return r;
}

static int kept(const drop_out *r) {
  int n = 0;
  for (int i = 0; i < N; i++)
    n += (r->mask[i / 8] >> (i % 8)) & 1;
  return n;
}

TEST(dropout_train) {
  aclrtStream st = nt_up();
  static const aclDataType ts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (size_t i = 0; i < 3; i++) {
    drop_out a = run(st, ts[i], 0.3, true, 42, 0, 0, 0);
    int k = kept(&a);
    if (k < 630 || k > 770)
      th_fail(__FILE__, __LINE__, "Dropout p 0.3 kept %d of %d", k, N);
    /* reproducible: the same seed and offset give the same mask, also through a strided view and in place */
    drop_out b = run(st, ts[i], 0.3, true, 42, 0, 1, 0), c = run(st, ts[i], 0.3, true, 42, 0, 0, 1);
    CHECK(memcmp(a.mask, b.mask, sizeof a.mask) == 0);
    CHECK(memcmp(a.mask, c.mask, sizeof a.mask) == 0);
    /* another seed, another offset: other masks; offset k shifts the stream by k elements */
    drop_out e = run(st, ts[i], 0.3, true, 43, 0, 0, 0), f = run(st, ts[i], 0.3, true, 42, 8, 0, 0);
    CHECK(memcmp(a.mask, e.mask, sizeof a.mask) != 0);
    CHECK(memcmp(a.mask + 1, f.mask, N / 8 - 1) == 0);
    free(a.y);
    free(b.y);
    free(c.y);
    free(e.y);
    free(f.y);
  }
  nt_down(st);
}

TEST(dropout_copy_and_all) {
  aclrtStream st = nt_up();
  for (int c = 0; c < 3; c++) {
    /* train false, or p 0: a copy, the mask left as it was; p 1: all dropped */
    drop_out r = run(st, ACL_FLOAT, c == 1 ? 0 : c == 2 ? 1 : 0.5, c != 0, 7, 0, 1, 0);
    for (int i = 0; i < N; i++) {
      double want = c == 2 ? 0 : 1 + (((1 + 2 * i) % 64) / 8.0);
      if (r.y[i] != want)
        th_fail(__FILE__, __LINE__, "case %d element %d is %g, want %g", c, i, r.y[i], want);
    }
    for (int i = 0; i < MASK_BYTES; i++)
      CHECK_INT_EQ(r.mask[i], c == 2 ? 0 : 0xa5);
    free(r.y);
  }
  nt_down(st);
}

TEST(dropout_errors) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {N}, dm[1] = {MASK_BYTES}, bad[1] = {N / 8};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d, NULL), o = nt_make(ACL_FLOAT, 1, d, NULL), m = nt_make(ACL_UINT8, 1, dm, NULL);
  nt_tensor mb = nt_make(ACL_UINT8, 1, bad, NULL), m8 = nt_make(ACL_INT8, 1, dm, NULL),
            oh = nt_make(ACL_FLOAT16, 1, d, NULL), xi = nt_make(ACL_INT32, 1, d, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, 1.5, true, 0, 0, o.t, m.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "p is 1.5");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, NAN, true, 0, 0, o.t, m.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "p is");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, 0.5, true, 0, 0, o.t, mb.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "writes [128]");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, 0.5, true, 0, 0, o.t, m8.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "maskOut is ACL_INT8");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, 0.5, true, 0, 0, oh.t, m.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "out is ACL_FLOAT16");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(xi.t, 0.5, true, 0, 0, o.t, m.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "input is ACL_INT32");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(x.t, 0.5, true, 0, 0, o.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "maskOut is NULL");
  NT_FAILS(aclnnDropoutGetWorkspaceSize(NULL, 0.5, true, 0, 0, o.t, m.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "input is NULL");
  nt_free(&x);
  nt_free(&o);
  nt_free(&m);
  nt_free(&mb);
  nt_free(&m8);
  nt_free(&oh);
  nt_free(&xi);
  nt_down(st);
}
