/*
 * aclnn_index.c - the indexing, gather / scatter and selection operators of
 * reference aclnn.md section 8.9 (ctest -R api/aclnn/index): Gather,
 * GatherV2, IndexSelect, Embedding, Index, IndexPutImpl, Scatter /
 * ScatterValue (+ Inplace), InplaceMaskedFillScalar / Tensor, MaskedSelect,
 * Nonzero, OneHot, SWhere, on their types and on strided views, against
 * references computed here; out-of-range indices failing the task; the
 * data-dependent shapes; the argument checks; a repeatable executor.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_math.h"
#include "aclnnop/aclnn_ops_nn.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_UINT8,  ACL_BOOL};
#define NTYPES (sizeof types / sizeof types[0])

/* n values representable in t (small integers, quarters for floats) */
static double *vals(aclDataType t, int64_t n, uint32_t seed) {
  double *v = malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    double u = nt_rand(&seed);
    v[i] = nt_round(t, t == ACL_BOOL    ? (u < 0.5)
                       : nt_is_float(t) ? floor(u * 32) / 4 - 4
                                        : floor(u * 40) - (t == ACL_UINT8 ? 0 : 20));
  }
  return v;
}

/* A 2-D [r, c] tensor holding v (row-major) through a transposed view of its storage. */
static nt_tensor tview(aclDataType t, int64_t r, int64_t c, const double *v) {
  double *sto = malloc((size_t)(r * c) * sizeof(double));
  for (int64_t i = 0; i < r; i++)
    for (int64_t j = 0; j < c; j++)
      sto[j * r + i] = v[i * c + j];
  const int64_t d[2] = {r, c}, s[2] = {1, r};
  nt_tensor x = nt_view(t, 2, d, s, 0, r * c, sto);
  free(sto);
  return x;
}

/* A tensor list over the given tensors' memory: new descriptors (the list owns and destroys them; NULL stays NULL). */
static aclTensorList *tlist(const nt_tensor *const *x, int n) {
  aclTensor *t[8];
  for (int i = 0; i < n; i++)
    t[i] = x[i] == NULL ? NULL
                        : aclCreateTensor(x[i]->dims, (uint64_t)x[i]->ndim, x[i]->dt, x[i]->strides, x[i]->offset,
                                          ACL_FORMAT_ND, &x[i]->elems, 1, x[i]->dev);
  aclTensorList *l = aclCreateTensorList((const aclTensor *const *)t, (uint64_t)n);
  CHECK_NOT_NULL(l);
  return l;
}

static void check_out(const char *what, nt_tensor *o, const double *want, int64_t n) {
  double *g = nt_read(o);
  NT_CHECK_ALL(what, g, want, n, 0);
  free(g);
}

/* A task that fails: phase 2 succeeds, the stream reports the kernel fault. */
static void expect_fault(nt_phase2 fn, aclOpExecutor *ex) {
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(fn(NULL, 0, ex, s), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST(gather) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t sd[2] = {3, 4}, id[2] = {2, 3};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int dim = 0; dim < 2; dim++)
      for (int view = 0; view < 2; view++) {
        aclDataType t = types[ti];
        double *v = vals(t, 12, 3u + (uint32_t)ti), idx[6], want[6];
        for (int i = 0; i < 6; i++)
          idx[i] = (i * 7 + dim) % (dim == 0 ? 3 : 4);
        for (int i = 0; i < 2; i++)
          for (int j = 0; j < 3; j++) {
            int64_t k = (int64_t)idx[i * 3 + j];
            want[i * 3 + j] = dim == 0 ? v[k * 4 + j] : v[i * 4 + k];
          }
        nt_tensor x = view ? tview(t, 3, 4, v) : nt_make(t, 2, sd, v);
        nt_tensor ix = nt_make(view ? ACL_INT32 : ACL_INT64, 2, id, idx), o = nt_make(t, 2, id, NULL);
        NT_OK(aclnnGatherGetWorkspaceSize(x.t, dim - 2 * view, ix.t, o.t, &ws, &ex));
        nt_run(aclnnGather, ws, ex, st);
        char what[64];
        snprintf(what, sizeof what, "Gather %s dim %d view %d", nt_name(t), dim, view);
        check_out(what, &o, want, 6);
        free(v);
        nt_free(&x);
        nt_free(&ix);
        nt_free(&o);
      }
  /* errors, and an index out of range at run time */
  double v[12] = {0}, bad[6] = {0, 1, 2, 3, 0, 1};
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, v), ix = nt_make(ACL_INT64, 2, id, bad), o = nt_make(ACL_FLOAT, 2, id, NULL);
  nt_tensor fx = nt_make(ACL_FLOAT, 2, id, bad), o16 = nt_make(ACL_FLOAT16, 2, id, NULL);
  NT_FAILS(aclnnGatherGetWorkspaceSize(NULL, 0, ix.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnGatherGetWorkspaceSize(x.t, 0, fx.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnGatherGetWorkspaceSize(x.t, 2, ix.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 2");
  NT_FAILS(aclnnGatherGetWorkspaceSize(x.t, 0, ix.t, o16.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "one type");
  NT_FAILS(aclnnGatherGetWorkspaceSize(x.t, 0, ix.t, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_OK(aclnnGatherGetWorkspaceSize(x.t, 0, ix.t, o.t, &ws, &ex)); /* 3 is past dim 0's 3 rows */
  expect_fault(aclnnGather, ex);
  nt_free(&x);
  nt_free(&ix);
  nt_free(&o);
  nt_free(&fx);
  nt_free(&o16);
  nt_down(st);
}

TEST(gather_v2_index_select_embedding) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t sd[3] = {3, 4, 2};
  for (size_t ti = 0; ti < NTYPES; ti++) {
    aclDataType t = types[ti];
    char what[64];
    double *v = vals(t, 24, 9u + (uint32_t)ti);
    nt_tensor x = nt_make(t, 3, sd, v);
    /* GatherV2 dim 1, index [2, 2]: out [3, 2, 2, 2] */
    const int64_t id[2] = {2, 2}, od[4] = {3, 2, 2, 2};
    double idx[4] = {3, 0, 1, 3}, want[24];
    for (int a = 0; a < 3; a++)
      for (int q = 0; q < 4; q++)
        for (int c = 0; c < 2; c++)
          want[(a * 4 + q) * 2 + c] = v[(a * 4 + (int)idx[q]) * 2 + c];
    nt_tensor ix = nt_make(ACL_INT64, 2, id, idx), o = nt_make(t, 4, od, NULL);
    NT_OK(aclnnGatherV2GetWorkspaceSize(x.t, 1, ix.t, o.t, &ws, &ex));
    nt_run(aclnnGatherV2, ws, ex, st);
    snprintf(what, sizeof what, "GatherV2 %s", nt_name(t));
    check_out(what, &o, want, 24);
    nt_free(&ix);
    nt_free(&o);
    /* IndexSelect dim 0, index [4] (s32) */
    const int64_t i1[1] = {4}, o1[3] = {4, 4, 2};
    double sel[4] = {2, 2, 0, 1}, w1[32];
    for (int q = 0; q < 4; q++)
      for (int r = 0; r < 8; r++)
        w1[q * 8 + r] = v[(int)sel[q] * 8 + r];
    ix = nt_make(ACL_INT32, 1, i1, sel);
    o = nt_make(t, 3, o1, NULL);
    NT_OK(aclnnIndexSelectGetWorkspaceSize(x.t, 0, ix.t, o.t, &ws, &ex));
    nt_run(aclnnIndexSelect, ws, ex, st);
    snprintf(what, sizeof what, "IndexSelect %s", nt_name(t));
    check_out(what, &o, w1, 32);
    nt_free(&ix);
    nt_free(&o);
    /* Embedding: weight [6, 4] (a transposed view), indices [2, 3] -> [2, 3, 4] */
    double *wv = vals(t, 24, 17u + (uint32_t)ti), ind[6] = {5, 0, 2, 2, 1, 4}, w2[24];
    for (int q = 0; q < 6; q++)
      for (int c = 0; c < 4; c++)
        w2[q * 4 + c] = wv[(int)ind[q] * 4 + c];
    nt_tensor w = tview(t, 6, 4, wv);
    const int64_t i2[2] = {2, 3}, o2[3] = {2, 3, 4};
    ix = nt_make(ACL_INT64, 2, i2, ind);
    o = nt_make(t, 3, o2, NULL);
    NT_OK(aclnnEmbeddingGetWorkspaceSize(w.t, ix.t, o.t, &ws, &ex));
    nt_run(aclnnEmbedding, ws, ex, st);
    snprintf(what, sizeof what, "Embedding %s", nt_name(t));
    check_out(what, &o, w2, 24);
    nt_free(&ix);
    nt_free(&o);
    nt_free(&w);
    free(wv);
    free(v);
    nt_free(&x);
  }
  /* a 0-D index: GatherV2 drops the dim */
  const int64_t d2[2] = {3, 2}, o0[1] = {3};
  double v2[6] = {1, 2, 3, 4, 5, 6}, one = 1, w0[3] = {2, 4, 6};
  nt_tensor x = nt_make(ACL_FLOAT, 2, d2, v2), i0 = nt_make(ACL_INT64, 0, NULL, &one),
            o = nt_make(ACL_FLOAT, 1, o0, NULL);
  NT_OK(aclnnGatherV2GetWorkspaceSize(x.t, -1, i0.t, o.t, &ws, &ex));
  nt_run(aclnnGatherV2, ws, ex, st);
  check_out("GatherV2 0-D index", &o, w0, 3);
  /* errors */
  const int64_t b2[2] = {2, 2};
  nt_tensor i2d = nt_make(ACL_INT64, 2, b2, v2);
  NT_FAILS(aclnnIndexSelectGetWorkspaceSize(x.t, 0, i2d.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "0-D or 1-D");
  NT_FAILS(aclnnEmbeddingGetWorkspaceSize(o.t, i0.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "2-D");
  NT_FAILS(aclnnGatherV2GetWorkspaceSize(x.t, 0, i0.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [3]");
  double big = 7;
  const int64_t r2[1] = {2};
  nt_tensor ib = nt_make(ACL_INT64, 0, NULL, &big), orow = nt_make(ACL_FLOAT, 1, r2, NULL);
  NT_OK(aclnnGatherV2GetWorkspaceSize(x.t, 0, ib.t, orow.t, &ws, &ex));
  expect_fault(aclnnGatherV2, ex);
  nt_free(&orow);
  /* a repeatable executor with a new index address */
  nt_tensor i1 = nt_make(ACL_INT64, 0, NULL, &(double){0});
  NT_OK(aclnnGatherV2GetWorkspaceSize(x.t, 1, i0.t, o.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclnnGatherV2(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  check_out("GatherV2 repeatable, run 1", &o, w0, 3);
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 1, i0.t, i1.dev), 0);
  CHECK_INT_EQ(aclnnGatherV2(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  double w1[3] = {1, 3, 5};
  check_out("GatherV2 repeatable, run 2", &o, w1, 3);
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 1, i0.t, i0.dev), 0); /* give i0 its memory back before it is freed */
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  nt_free(&x);
  nt_free(&i0);
  nt_free(&i1);
  nt_free(&ib);
  nt_free(&i2d);
  nt_free(&o);
  nt_down(st);
}

/* self [3, 4, 5] indexed three ways; reference by the coordinates */
TEST(index_and_index_put) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t sd[3] = {3, 4, 5}, i2[1] = {2};
  for (size_t ti = 0; ti < NTYPES; ti++) {
    aclDataType t = types[ti];
    char what[80];
    double *v = vals(t, 60, 21u + (uint32_t)ti);
    nt_tensor x = nt_make(t, 3, sd, v);
    /* [:, a, b] with a s64 [2], b s32 [2] (negative counts from the end): adjacent, out [3, 2] */
    double a[2] = {1, -1}, b[2] = {4, 0}, want[40];
    nt_tensor ia = nt_make(ACL_INT64, 1, i2, a), ib = nt_make(ACL_INT32, 1, i2, b);
    for (int p = 0; p < 3; p++)
      for (int q = 0; q < 2; q++)
        want[p * 2 + q] = v[(p * 4 + (a[q] < 0 ? 4 + (int)a[q] : (int)a[q])) * 5 + (int)b[q]];
    const nt_tensor *l1[3] = {NULL, &ia, &ib};
    aclTensorList *list = tlist(l1, 3);
    const int64_t od[2] = {3, 2};
    nt_tensor o = nt_make(t, 2, od, NULL);
    NT_OK(aclnnIndexGetWorkspaceSize(x.t, list, o.t, &ws, &ex));
    nt_run(aclnnIndex, ws, ex, st);
    snprintf(what, sizeof what, "Index [:, a, b] %s", nt_name(t));
    check_out(what, &o, want, 6);
    CHECK_INT_EQ(aclDestroyTensorList(list), 0);
    nt_free(&o);
    /* [a, :, b]: not adjacent, the broadcast dim first: out [2, 4] */
    for (int q = 0; q < 2; q++)
      for (int m = 0; m < 4; m++)
        want[q * 4 + m] = v[((a[q] < 0 ? 3 + (int)a[q] : (int)a[q]) * 4 + m) * 5 + (int)b[q]];
    const nt_tensor *l2[3] = {&ia, NULL, &ib};
    list = tlist(l2, 3);
    const int64_t od2[2] = {2, 4};
    o = nt_make(t, 2, od2, NULL);
    NT_OK(aclnnIndexGetWorkspaceSize(x.t, list, o.t, &ws, &ex));
    nt_run(aclnnIndex, ws, ex, st);
    snprintf(what, sizeof what, "Index [a, :, b] %s", nt_name(t));
    check_out(what, &o, want, 8);
    CHECK_INT_EQ(aclDestroyTensorList(list), 0);
    nt_free(&o);
    /* a bool mask [3, 4] over the first two dims: out [count, 5] */
    double mk[12], *w3 = want;
    int cnt = 0;
    for (int i = 0; i < 12; i++) {
      mk[i] = (i * 5 + 3) % 7 < 3;
      if (mk[i] != 0)
        for (int c = 0; c < 5; c++)
          w3[cnt * 5 + c] = v[i * 5 + c], cnt += c == 4;
    }
    const int64_t md[2] = {3, 4}, od3[2] = {cnt, 5};
    nt_tensor m = nt_make(ACL_BOOL, 2, md, mk);
    const nt_tensor *l3[1] = {&m};
    list = tlist(l3, 1);
    o = nt_make(t, 2, od3, NULL);
    NT_OK(aclnnIndexGetWorkspaceSize(x.t, list, o.t, &ws, &ex));
    nt_run(aclnnIndex, ws, ex, st);
    snprintf(what, sizeof what, "Index [mask] %s", nt_name(t));
    check_out(what, &o, w3, cnt * 5);
    nt_free(&o);
    /* IndexPutImpl with the mask: values [5] broadcast over the selected rows */
    if (t != ACL_BOOL) {
      double vv[5] = {1, 2, 3, 0, 1}, ref[60];
      memcpy(ref, v, sizeof ref);
      for (int i = 0; i < 12; i++)
        if (mk[i] != 0)
          for (int c = 0; c < 5; c++)
            ref[i * 5 + c] = nt_round(t, ref[i * 5 + c] + vv[c]);
      const int64_t vd[1] = {5};
      nt_tensor vt = nt_make(t, 1, vd, vv);
      NT_OK(aclnnIndexPutImplGetWorkspaceSize(x.t, list, vt.t, true, false, &ws, &ex));
      nt_run(aclnnIndexPutImpl, ws, ex, st);
      snprintf(what, sizeof what, "IndexPutImpl [mask] += %s", nt_name(t));
      check_out(what, &x, ref, 60);
      nt_free(&vt);
      /* integer indices with a repeated position: accumulate adds both, replace keeps the last */
      double ra[2] = {2, 2}, rb[2] = {1, 1}, pv[2] = {3, 1};
      const int64_t pd[2] = {2, 1};
      nt_tensor ja = nt_make(ACL_INT64, 1, i2, ra), jb = nt_make(ACL_INT64, 1, i2, rb), pt = nt_make(t, 2, pd, pv);
      const nt_tensor *l4[2] = {&ja, &jb};
      aclTensorList *list4 = tlist(l4, 2);
      for (int acc = 0; acc < 2; acc++) {
        NT_OK(aclnnIndexPutImplGetWorkspaceSize(x.t, list4, pt.t, acc, true, &ws, &ex));
        nt_run(aclnnIndexPutImpl, ws, ex, st);
        for (int c = 0; c < 5; c++)
          ref[(2 * 4 + 1) * 5 + c] = acc ? nt_round(t, 1 + 3 + 1) : 1;
        snprintf(what, sizeof what, "IndexPutImpl [a, b] accumulate %d %s", acc, nt_name(t));
        check_out(what, &x, ref, 60);
      }
      CHECK_INT_EQ(aclDestroyTensorList(list4), 0);
      nt_free(&ja);
      nt_free(&jb);
      nt_free(&pt);
    }
    CHECK_INT_EQ(aclDestroyTensorList(list), 0);
    nt_free(&m);
    nt_free(&ia);
    nt_free(&ib);
    nt_free(&x);
    free(v);
  }
  /* a repeatable executor: an index tensor moved with the list setter and with the flattened input index */
  {
    double v[12], a0[2] = {0, 2}, a1[2] = {1, 1}, w0[8], w1[8];
    for (int i = 0; i < 12; i++)
      v[i] = i;
    for (int q = 0; q < 2; q++)
      for (int c = 0; c < 4; c++) {
        w0[q * 4 + c] = v[(int)a0[q] * 4 + c];
        w1[q * 4 + c] = v[(int)a1[q] * 4 + c];
      }
    const int64_t d2[2] = {3, 4}, od[2] = {2, 4};
    nt_tensor x = nt_make(ACL_FLOAT, 2, d2, v), ia = nt_make(ACL_INT64, 1, i2, a0), ib = nt_make(ACL_INT64, 1, i2, a1),
              o = nt_make(ACL_FLOAT, 2, od, NULL);
    const nt_tensor *l[1] = {&ia};
    aclTensorList *list = tlist(l, 1);
    NT_OK(aclnnIndexGetWorkspaceSize(x.t, list, o.t, &ws, &ex));
    CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
    CHECK_INT_EQ(aclnnIndex(NULL, 0, ex, st), 0);
    CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
    check_out("Index repeatable, run 1", &o, w0, 8);
    CHECK_INT_EQ(aclSetDynamicInputTensorAddr(ex, 1, 0, list, ib.dev), 0);
    CHECK_INT_EQ(aclnnIndex(NULL, 0, ex, st), 0);
    CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
    check_out("Index repeatable, run 2 (list setter)", &o, w1, 8);
    NT_FAILS(aclSetDynamicInputTensorAddr(ex, 0, 0, list, ia.dev), ACLNN_ERR_PARAM_INVALID,
             "not a tensor-list parameter");
    NT_FAILS(aclSetDynamicTensorAddr(ex, 1, 1, list, ia.dev), ACLNN_ERR_PARAM_INVALID, "relativeIndex 1");
    NT_FAILS(aclSetDynamicOutputTensorAddr(ex, 1, 0, list, ia.dev), ACLNN_ERR_PARAM_INVALID, "among its outputs");
    aclTensor *tmp = aclCreateTensor(i2, 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND, i2, 1, ia.dev);
    CHECK_INT_EQ(aclSetInputTensorAddr(ex, 1, tmp, ia.dev), 0); /* input 1: the list's first tensor */
    CHECK_INT_EQ(aclnnIndex(NULL, 0, ex, st), 0);
    CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
    check_out("Index repeatable, run 3 (input setter)", &o, w0, 8);
    CHECK_INT_EQ(aclDestroyTensor(tmp), 0);
    CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
    CHECK_INT_EQ(aclDestroyTensorList(list), 0);
    nt_free(&x);
    nt_free(&ia);
    nt_free(&ib);
    nt_free(&o);
  }
  /* errors and a fault */
  double v[60] = {0}, bad[2] = {0, 3};
  nt_tensor x = nt_make(ACL_FLOAT, 3, sd, v), ia = nt_make(ACL_INT64, 1, i2, bad), fi = nt_make(ACL_FLOAT, 1, i2, bad);
  const int64_t od[3] = {2, 4, 5}, wrong[3] = {3, 4, 5};
  nt_tensor o = nt_make(ACL_FLOAT, 3, od, NULL), ow = nt_make(ACL_FLOAT, 3, wrong, NULL);
  const nt_tensor *lf[1] = {&fi}, *lok[1] = {&ia}, *lnull[1] = {NULL};
  aclTensorList *lbad = tlist(lf, 1), *lgood = tlist(lok, 1), *lnone = tlist(lnull, 1);
  NT_FAILS(aclnnIndexGetWorkspaceSize(x.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "indices is NULL");
  NT_FAILS(aclnnIndexGetWorkspaceSize(x.t, lbad, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnIndexGetWorkspaceSize(x.t, lnone, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "no index tensor");
  NT_FAILS(aclnnIndexGetWorkspaceSize(x.t, lgood, ow.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [3, 4, 5]");
  NT_OK(aclnnIndexGetWorkspaceSize(x.t, lgood, o.t, &ws, &ex)); /* 3 is past dim 0's 3 */
  expect_fault(aclnnIndex, ex);
  NT_OK(aclnnIndexPutImplGetWorkspaceSize(x.t, lgood, o.t, false, true, &ws, &ex));
  expect_fault(aclnnIndexPutImpl, ex);
  CHECK_INT_EQ(aclDestroyTensorList(lbad), 0);
  CHECK_INT_EQ(aclDestroyTensorList(lgood), 0);
  CHECK_INT_EQ(aclDestroyTensorList(lnone), 0);
  nt_free(&x);
  nt_free(&ia);
  nt_free(&fi);
  nt_free(&o);
  nt_free(&ow);
  nt_down(st);
}

TEST(scatter) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t sd[2] = {3, 4}, id[2] = {2, 3};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int dim = 0; dim < 2; dim++)
      for (int reduce = 0; reduce < 3; reduce++)
        for (int form = 0; form < 4; form++) { /* Scatter, ScatterValue, InplaceScatter, InplaceScatterValue */
          aclDataType t = types[ti];
          if (t == ACL_BOOL && reduce != 0)
            continue;
          double *v = vals(t, 12, 5u + (uint32_t)ti), *sv = vals(t, 6, 6u + (uint32_t)ti), idx[6], ref[12];
          double value = t == ACL_BOOL ? 1 : 2;
          for (int i = 0; i < 6; i++)
            idx[i] = (i * 5 + dim) % (dim == 0 ? 3 : 4);
          memcpy(ref, v, sizeof ref);
          for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
              int k = (int)idx[i * 3 + j], at = dim == 0 ? k * 4 + j : i * 4 + k;
              double s = form & 1 ? value : sv[i * 3 + j];
              ref[at] = nt_round(t, reduce == 0 ? s : reduce == 1 ? ref[at] + s : ref[at] * s);
            }
          nt_tensor x = form >= 2 ? tview(t, 3, 4, v) : nt_make(t, 2, sd, v);
          nt_tensor ix = nt_make(ACL_INT64, 2, id, idx), src = nt_make(t, 2, id, sv), o = nt_make(t, 2, sd, NULL);
          aclScalar *sc = nt_scalar(t, value);
          switch (form) {
          case 0:
            NT_OK(aclnnScatterGetWorkspaceSize(x.t, dim, ix.t, src.t, reduce, o.t, &ws, &ex));
            nt_run(aclnnScatter, ws, ex, st);
            break;
          case 1:
            NT_OK(aclnnScatterValueGetWorkspaceSize(x.t, dim, ix.t, sc, reduce, o.t, &ws, &ex));
            nt_run(aclnnScatterValue, ws, ex, st);
            break;
          case 2:
            NT_OK(aclnnInplaceScatterGetWorkspaceSize(x.t, dim, ix.t, src.t, reduce, &ws, &ex));
            nt_run(aclnnInplaceScatter, ws, ex, st);
            break;
          default:
            NT_OK(aclnnInplaceScatterValueGetWorkspaceSize(x.t, dim, ix.t, sc, reduce, &ws, &ex));
            nt_run(aclnnInplaceScatterValue, ws, ex, st);
            break;
          }
          char what[80];
          snprintf(what, sizeof what, "Scatter form %d %s dim %d reduce %d", form, nt_name(t), dim, reduce);
          check_out(what, form >= 2 ? &x : &o, ref, 12);
          aclDestroyScalar(sc);
          free(v);
          free(sv);
          nt_free(&x);
          nt_free(&ix);
          nt_free(&src);
          nt_free(&o);
        }
  double v[12] = {0}, bad[6] = {0, 1, 2, 3, 0, 1};
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, v), ix = nt_make(ACL_INT64, 2, id, bad), src = nt_make(ACL_FLOAT, 2, id, v);
  nt_tensor s16 = nt_make(ACL_FLOAT16, 2, id, v), big = nt_make(ACL_INT64, 2, sd, v);
  NT_FAILS(aclnnScatterGetWorkspaceSize(x.t, 0, ix.t, src.t, 3, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "reduce is 3");
  NT_FAILS(aclnnScatterGetWorkspaceSize(x.t, 0, ix.t, s16.t, 0, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "one type");
  NT_FAILS(aclnnScatterGetWorkspaceSize(x.t, 0, big.t, src.t, 0, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "no dim larger");
  NT_FAILS(aclnnScatterValueGetWorkspaceSize(x.t, 0, ix.t, NULL, 0, x.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR,
           "value is NULL");
  NT_OK(aclnnInplaceScatterGetWorkspaceSize(x.t, 0, ix.t, src.t, 0, &ws, &ex));
  expect_fault(aclnnInplaceScatter, ex);
  nt_free(&x);
  nt_free(&ix);
  nt_free(&src);
  nt_free(&s16);
  nt_free(&big);
  nt_down(st);
}

TEST(masked_fill) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t md[1] = {4};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int form = 0; form < 2; form++) {
      aclDataType t = types[ti];
      double *v = vals(t, 12, 31u + (uint32_t)ti), mk[4] = {1, 0, 0, 1}, ref[12], value = t == ACL_BOOL ? 1 : 3;
      for (int i = 0; i < 12; i++)
        ref[i] = mk[i % 4] != 0 ? value : v[i];
      nt_tensor x = tview(t, 3, 4, v), m = nt_make(ACL_BOOL, 1, md, mk);
      nt_tensor vt = nt_make(t == ACL_BOOL ? ACL_BOOL : ACL_INT32, 0, NULL, &value);
      aclScalar *sc = nt_scalar(t == ACL_BOOL ? ACL_BOOL : ACL_INT64, value);
      if (form == 0) {
        NT_OK(aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.t, m.t, sc, &ws, &ex));
        nt_run(aclnnInplaceMaskedFillScalar, ws, ex, st);
      } else {
        NT_OK(aclnnInplaceMaskedFillTensorGetWorkspaceSize(x.t, m.t, vt.t, &ws, &ex));
        nt_run(aclnnInplaceMaskedFillTensor, ws, ex, st);
      }
      char what[64];
      snprintf(what, sizeof what, "MaskedFill form %d %s", form, nt_name(t));
      check_out(what, &x, ref, 12);
      aclDestroyScalar(sc);
      free(v);
      nt_free(&x);
      nt_free(&m);
      nt_free(&vt);
    }
  const int64_t sd[2] = {3, 4}, bd[1] = {3};
  double z[12] = {0};
  nt_tensor x = nt_make(ACL_INT32, 2, sd, z), m = nt_make(ACL_BOOL, 1, bd, z), mf = nt_make(ACL_FLOAT, 1, md, z);
  aclScalar *f = nt_scalar(ACL_FLOAT, 1.5);
  NT_FAILS(aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.t, m.t, f, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not broadcast");
  NT_FAILS(aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.t, mf.t, f, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not take");
  nt_tensor m4 = nt_make(ACL_BOOL, 1, md, z);
  NT_FAILS(aclnnInplaceMaskedFillScalarGetWorkspaceSize(x.t, m4.t, f, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "does not cast");
  NT_FAILS(aclnnInplaceMaskedFillTensorGetWorkspaceSize(x.t, m4.t, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "one element");
  aclDestroyScalar(f);
  nt_free(&x);
  nt_free(&m);
  nt_free(&mf);
  nt_free(&m4);
  nt_down(st);
}

static void view_shape(const aclTensor *t, int64_t *d, uint64_t *n) {
  int64_t *v = NULL;
  CHECK_INT_EQ(aclGetViewShape(t, &v, n), 0);
  for (uint64_t i = 0; i < *n; i++)
    d[i] = v[i];
  free(v);
}

TEST(masked_select_and_nonzero) {
  aclrtStream st = nt_up();
  uint64_t ws, n;
  aclOpExecutor *ex;
  const int64_t sd[2] = {3, 4}, md[1] = {4}, od[1] = {12}, nd[2] = {12, 2};
  int64_t shape[4];
  for (size_t ti = 0; ti < NTYPES; ti++) {
    aclDataType t = types[ti];
    double *v = vals(t, 12, 41u + (uint32_t)ti), mk[4] = {0, 1, 1, 0}, want[24];
    nt_tensor x = tview(t, 3, 4, v), m = nt_make(ACL_UINT8, 1, md, mk), o = nt_make(t, 1, od, NULL);
    int cnt = 0;
    for (int i = 0; i < 12; i++)
      if (mk[i % 4] != 0)
        want[cnt++] = v[i];
    NT_OK(aclnnMaskedSelectGetWorkspaceSize(x.t, m.t, o.t, &ws, &ex));
    nt_run(aclnnMaskedSelect, ws, ex, st);
    view_shape(o.t, shape, &n);
    CHECK_INT_EQ(n, 1);
    CHECK_INT_EQ(shape[0], cnt);
    o.dims[0] = cnt;
    char what[64];
    snprintf(what, sizeof what, "MaskedSelect %s", nt_name(t));
    check_out(what, &o, want, cnt);
    /* Nonzero of the same values */
    nt_tensor z = nt_make(ACL_INT64, 2, nd, NULL);
    cnt = 0;
    for (int i = 0; i < 12; i++)
      if (v[i] != 0) {
        want[2 * cnt] = i / 4;
        want[2 * cnt + 1] = i % 4;
        cnt++;
      }
    NT_OK(aclnnNonzeroGetWorkspaceSize(x.t, z.t, &ws, &ex));
    nt_run(aclnnNonzero, ws, ex, st);
    view_shape(z.t, shape, &n);
    CHECK_INT_EQ(n, 2);
    CHECK_INT_EQ(shape[0], cnt);
    CHECK_INT_EQ(shape[1], 2);
    z.dims[0] = cnt;
    snprintf(what, sizeof what, "Nonzero %s", nt_name(t));
    check_out(what, &z, want, 2 * cnt);
    free(v);
    nt_free(&x);
    nt_free(&m);
    nt_free(&o);
    nt_free(&z);
  }
  double zz[12] = {0};
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, zz), m = nt_make(ACL_FLOAT, 1, md, zz), o = nt_make(ACL_FLOAT, 1, md, NULL);
  nt_tensor z = nt_make(ACL_INT64, 2, sd, NULL);
  NT_FAILS(aclnnMaskedSelectGetWorkspaceSize(x.t, m.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnMaskedSelectGetWorkspaceSize(x.t, z.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
  NT_FAILS(aclnnNonzeroGetWorkspaceSize(x.t, z.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "out must be [12, 2]");
  nt_free(&x);
  nt_free(&m);
  nt_free(&o);
  nt_free(&z);
  nt_down(st);
}

TEST(one_hot_and_s_where) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex;
  const aclDataType otypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_INT8};
  const int64_t sd[2] = {2, 3};
  double cls[6] = {0, 3, 1, 4, 2, -1}, on = 5, off = -1;
  for (size_t ti = 0; ti < sizeof otypes / sizeof otypes[0]; ti++)
    for (int axis = -1; axis <= 1; axis++) {
      aclDataType t = otypes[ti];
      int ax = axis < 0 ? 2 : axis;
      int64_t od[3];
      for (int k = 0, q = 0; k < 3; k++)
        od[k] = k == ax ? 4 : sd[q++];
      double want[24], offv = nt_round(t, off);
      for (int i = 0; i < 24; i++) {
        int64_t c[3] = {i / (od[1] * od[2]), (i / od[2]) % od[1], i % od[2]}, sc[2];
        for (int k = 0, q = 0; k < 3; k++)
          if (k != ax)
            sc[q++] = c[k];
        want[i] = cls[sc[0] * 3 + sc[1]] == (double)c[ax] ? on : offv;
      }
      nt_tensor x = nt_make(ACL_INT64, 2, sd, cls), onv = nt_make(t, 0, NULL, &on), offt = nt_make(t, 0, NULL, &off);
      nt_tensor o = nt_make(t, 3, od, NULL);
      NT_OK(aclnnOneHotGetWorkspaceSize(x.t, 4, onv.t, offt.t, axis, o.t, &ws, &ex));
      nt_run(aclnnOneHot, ws, ex, st);
      char what[64];
      snprintf(what, sizeof what, "OneHot %s axis %d", nt_name(t), axis);
      check_out(what, &o, want, 24);
      if (ti == 0 && axis == -1) {
        NT_FAILS(aclnnOneHotGetWorkspaceSize(x.t, 4, onv.t, offt.t, 3, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                 "axis is 3");
        NT_FAILS(aclnnOneHotGetWorkspaceSize(x.t, 5, onv.t, offt.t, -1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                 "has shape");
        NT_FAILS(aclnnOneHotGetWorkspaceSize(onv.t, 4, onv.t, offt.t, -1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                 "does not take");
      }
      nt_free(&x);
      nt_free(&onv);
      nt_free(&offt);
      nt_free(&o);
    }
  /* SWhere: condition [3, 1] (u8 and bool), self [1, 4] of one type, other [3, 4] of another, out promoted */
  const aclDataType pairs[][3] = {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, {ACL_FLOAT16, ACL_INT32, ACL_FLOAT16},
                                  {ACL_INT8, ACL_UINT8, ACL_INT16},  {ACL_BF16, ACL_FLOAT, ACL_DOUBLE},
                                  {ACL_INT64, ACL_BOOL, ACL_INT64},  {ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE},
                                  {ACL_BOOL, ACL_BOOL, ACL_BOOL},    {ACL_INT32, ACL_INT16, ACL_FLOAT}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
    for (int cu8 = 0; cu8 < 2; cu8++) {
      aclDataType ts = pairs[p][0], to = pairs[p][1], tout = pairs[p][2];
      const int64_t cd[2] = {3, 1}, s1[2] = {1, 4}, s2[2] = {3, 4};
      double c[3] = {1, 0, 1}, *a = vals(ts, 4, 51u + (uint32_t)p), *b = vals(to, 12, 52u + (uint32_t)p), want[12];
      for (int i = 0; i < 12; i++)
        want[i] = nt_round(tout, c[i / 4] != 0 ? a[i % 4] : b[i]);
      nt_tensor cond = nt_make(cu8 ? ACL_UINT8 : ACL_BOOL, 2, cd, c), x = nt_make(ts, 2, s1, a), y = tview(to, 3, 4, b),
                o = nt_make(tout, 2, s2, NULL);
      NT_OK(aclnnSWhereGetWorkspaceSize(cond.t, x.t, y.t, o.t, &ws, &ex));
      nt_run(aclnnSWhere, ws, ex, st);
      char what[64];
      snprintf(what, sizeof what, "SWhere %s %s -> %s", nt_name(ts), nt_name(to), nt_name(tout));
      check_out(what, &o, want, 12);
      if (p == 0 && cu8 == 0) {
        nt_tensor oi = nt_make(ACL_INT32, 2, s2, NULL), ob = nt_make(ACL_FLOAT, 2, s1, NULL);
        NT_FAILS(aclnnSWhereGetWorkspaceSize(cond.t, x.t, y.t, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                 "does not cast");
        NT_FAILS(aclnnSWhereGetWorkspaceSize(cond.t, x.t, y.t, ob.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
                 "has shape [1, 4]");
        NT_FAILS(aclnnSWhereGetWorkspaceSize(x.t, x.t, y.t, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not take");
        nt_free(&oi);
        nt_free(&ob);
      }
      free(a);
      free(b);
      nt_free(&cond);
      nt_free(&x);
      nt_free(&y);
      nt_free(&o);
    }
  nt_down(st);
}

/* Empty tensors, data-dependent counts of 0, and a mask whose count does not match out. */
TEST(empty_and_count_edges) {
  aclrtStream st = nt_up();
  uint64_t ws, n;
  aclOpExecutor *ex;
  const int64_t sd[2] = {3, 4}, e2[2] = {0, 4}, od[1] = {12}, nd[2] = {12, 2};
  double z[12] = {0};
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, z), ie = nt_make(ACL_INT64, 2, e2, NULL),
            oe = nt_make(ACL_FLOAT, 2, e2, NULL);
  NT_OK(aclnnGatherGetWorkspaceSize(x.t, 0, ie.t, oe.t, &ws, &ex));
  nt_run(aclnnGather, ws, ex, st);
  /* all zero: Nonzero and MaskedSelect report 0 */
  nt_tensor nz = nt_make(ACL_INT64, 2, nd, NULL), m = nt_make(ACL_BOOL, 2, sd, z), o = nt_make(ACL_FLOAT, 1, od, NULL);
  int64_t shape[2];
  NT_OK(aclnnNonzeroGetWorkspaceSize(x.t, nz.t, &ws, &ex));
  nt_run(aclnnNonzero, ws, ex, st);
  int64_t *v = NULL;
  CHECK_INT_EQ(aclGetViewShape(nz.t, &v, &n), 0);
  CHECK_INT_EQ(n, 2);
  shape[0] = v[0];
  shape[1] = v[1];
  free(v);
  CHECK_INT_EQ(shape[0], 0);
  CHECK_INT_EQ(shape[1], 2);
  NT_OK(aclnnMaskedSelectGetWorkspaceSize(x.t, m.t, o.t, &ws, &ex));
  nt_run(aclnnMaskedSelect, ws, ex, st);
  CHECK_INT_EQ(aclGetViewShape(o.t, &v, &n), 0);
  CHECK_INT_EQ(v[0], 0);
  free(v);
  /* Index by a mask selecting 2 rows into an out sized for 3: the task fails */
  const int64_t d1[1] = {3}, o3[2] = {3, 4};
  double mk[3] = {1, 0, 1};
  nt_tensor m1 = nt_make(ACL_BOOL, 1, d1, mk), out3 = nt_make(ACL_FLOAT, 2, o3, NULL);
  const nt_tensor *l[1] = {&m1};
  aclTensorList *list = tlist(l, 1);
  NT_OK(aclnnIndexGetWorkspaceSize(x.t, list, out3.t, &ws, &ex));
  expect_fault(aclnnIndex, ex);
  /* IndexPutImpl: values of another type */
  nt_tensor vh = nt_make(ACL_FLOAT16, 1, d1, mk);
  NT_FAILS(aclnnIndexPutImplGetWorkspaceSize(x.t, list, vh.t, false, false, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "one type");
  CHECK_INT_EQ(aclDestroyTensorList(list), 0);
  nt_tensor *all[] = {&x, &ie, &oe, &nz, &m, &o, &m1, &out3, &vh};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    nt_free(all[i]);
  nt_down(st);
}

/* Phase 2 is an ordinary stream task: a capture records it, and each replay runs it again on the memory's
 * current contents (IndexPutImpl with accumulate adds once per replay; Nonzero rewrites the shape each time). */
TEST(captured_into_a_task_graph) {
  aclrtStream st = nt_up();
  uint64_t ws;
  aclOpExecutor *ex1, *ex2;
  const int64_t d[1] = {4}, i1[1] = {2}, nd[2] = {4, 1};
  double v[4] = {0, 0, 0, 0}, ix[2] = {1, 3}, pv[2] = {1, 2};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d, v), ia = nt_make(ACL_INT32, 1, i1, ix), pt = nt_make(ACL_FLOAT, 1, i1, pv),
            nz = nt_make(ACL_INT64, 2, nd, NULL);
  const nt_tensor *l[1] = {&ia};
  aclTensorList *list = tlist(l, 1);
  NT_OK(aclnnIndexPutImplGetWorkspaceSize(x.t, list, pt.t, true, false, &ws, &ex1));
  NT_OK(aclnnNonzeroGetWorkspaceSize(x.t, nz.t, &ws, &ex2));
  CHECK_INT_EQ(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclnnIndexPutImpl(NULL, 0, ex1, st), 0);
  CHECK_INT_EQ(aclnnNonzero(NULL, 0, ex2, st), 0);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(st, &ri), ACL_SUCCESS);
  for (int run = 1; run <= 3; run++) {
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, st), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS);
    double want[4] = {0, run * 1.0, 0, run * 2.0}, wz[2] = {1, 3};
    check_out("captured IndexPutImpl +=", &x, want, 4);
    int64_t *shape = NULL;
    uint64_t n = 0;
    CHECK_INT_EQ(aclGetViewShape(nz.t, &shape, &n), 0);
    CHECK_INT_EQ(shape[0], 2);
    free(shape);
    nz.dims[0] = 2;
    check_out("captured Nonzero", &nz, wz, 2);
    nz.dims[0] = 4;
  }
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclDestroyTensorList(list), 0);
  nt_free(&x);
  nt_free(&ia);
  nt_free(&pt);
  nt_free(&nz);
  nt_down(st);
}
