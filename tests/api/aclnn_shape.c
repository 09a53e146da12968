/*
 * aclnn_shape.c - the type conversion and shape operators of reference
 * aclnn.md section 8.8 (ctest -R api/aclnn/shape): Cast between every pair
 * of types, Cat, Stack, SplitTensor, SplitWithSize, Slice, SliceV2,
 * StridedSlice, Permute, Flatten, Expand, Repeat, Flip, Tril / Triu (and in
 * place), ConstantPadNd, on contiguous and strided views, against
 * references computed here; tensor lists with repeatable executors and the
 * dynamic address setters; the argument checks.
 */
#include <math.h>

#include "aclnn_util.h"
#include "aclnnop/aclnn_ops_nn.h"

static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16,  ACL_DOUBLE, ACL_INT8,   ACL_UINT8,
                                    ACL_INT16, ACL_INT32,   ACL_INT64, ACL_BOOL,   ACL_UINT16, ACL_UINT32};
#define NTYPES (sizeof types / sizeof types[0])

/* ---- helpers ------------------------------------------------------------------------------------- */

/* n distinct-ish values that type t holds exactly. */
static double *vals(aclDataType t, int64_t n) {
  double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    double x = t == ACL_BOOL                                            ? (double)(i % 3 != 0)
               : nt_is_float(t)                                         ? (double)(i % 41 - 20) * 0.5
               : (t == ACL_UINT8 || t == ACL_UINT16 || t == ACL_UINT32) ? (double)(i % 200)
                                                                        : (double)(i % 101 - 50);
    v[i] = nt_round(t, x);
  }
  return v;
}

/* A tensor of dims holding v in row-major order: contiguous, or (strided)
 * column-major, so no two neighbours along the last dim are neighbours in memory. */
static nt_tensor mk(aclDataType t, int nd, const int64_t *dims, const double *v, int strided) {
  if (!strided)
    return nt_make(t, nd, dims, v);
  int64_t st[8], n = nt_numel(nd, dims), s = 1;
  for (int k = 0; k < nd; k++) {
    st[k] = s;
    s *= dims[k] > 0 ? dims[k] : 1;
  }
  double *sto = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = i, off = 0;
    for (int k = nd - 1; k >= 0; k--) {
      off += (rem % dims[k]) * st[k];
      rem /= dims[k];
    }
    sto[off] = v != NULL ? v[i] : 77;
  }
  nt_tensor x = nt_view(t, nd, dims, st, 0, n, sto);
  free(sto);
  return x;
}

/* Row-major index of idx over dims; the multi-index of i. */
static int64_t lin(int nd, const int64_t *dims, const int64_t *idx) {
  int64_t i = 0;
  for (int k = 0; k < nd; k++)
    i = i * dims[k] + idx[k];
  return i;
}

static void unlin(int nd, const int64_t *dims, int64_t i, int64_t *idx) {
  for (int k = nd - 1; k >= 0; k--) {
    idx[k] = i % dims[k];
    i /= dims[k];
  }
}

static void expect(const char *what, const nt_tensor *o, const double *want) {
  double *g = nt_read(o);
  NT_CHECK_ALL(what, g, want, nt_numel(o->ndim, o->dims), 0);
  free(g);
}

/* Maps out's element (multi-index) to self's row-major index, or -1 for a fill. */
typedef int64_t (*src_of)(const int64_t *oidx, const void *arg);

/* The reference of a view operator: want[i] = v[src(i)] (or fill). */
static double *ref_view(int ond, const int64_t *odims, const double *v, src_of f, const void *arg, double fill) {
  int64_t n = nt_numel(ond, odims), idx[16];
  double *w = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
  for (int64_t i = 0; i < n; i++) {
    unlin(ond, odims, i, idx);
    int64_t s = f(idx, arg);
    w[i] = s < 0 ? fill : v[s];
  }
  return w;
}

typedef aclnnStatus (*phase2)(void *, uint64_t, aclOpExecutor *, aclrtStream);

/* ---- Cast ------------------------------------------------------------------------------------------ */

TEST(cast_every_pair) {
  aclrtStream st = nt_up();
  const int64_t dims[2] = {3, 5};
  for (size_t a = 0; a < NTYPES; a++)
    for (size_t b = 0; b < NTYPES; b++) {
      aclDataType ta = types[a], tb = types[b];
      double *v = vals(ta, 15), want[15];
      v[1] = nt_round(ta, nt_is_float(ta) ? -2.75 : v[1]); /* truncation toward zero */
      for (int i = 0; i < 15; i++)
        want[i] = nt_round(tb, v[i]);
      for (int strided = 0; strided < 2; strided++) {
        nt_tensor x = mk(ta, 2, dims, v, strided), o = mk(tb, 2, dims, NULL, !strided);
        uint64_t ws;
        aclOpExecutor *ex;
        NT_OK(aclnnCastGetWorkspaceSize(x.t, tb, o.t, &ws, &ex));
        nt_run(aclnnCast, ws, ex, st);
        char what[64];
        snprintf(what, sizeof what, "Cast %s -> %s%s", nt_name(ta), nt_name(tb), strided ? " (views)" : "");
        expect(what, &o, want);
        nt_free(&x);
        nt_free(&o);
      }
      free(v);
    }
  /* NaN to an integer is 0; large values saturate */
  const int64_t d3[1] = {3};
  double nv[3] = {NAN, 1e30, -1e30}, w32[3] = {0, 2147483647.0, -2147483648.0};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d3, nv), o = nt_make(ACL_INT64, 1, d3, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnCastGetWorkspaceSize(x.t, ACL_INT64, o.t, &ws, &ex));
  nt_run(aclnnCast, ws, ex, st);
  double *g = nt_read(&o);
  CHECK(g[0] == 0 && g[1] > 9e18 && g[2] < -9e18);
  free(g);
  (void)w32;
  /* errors */
  NT_FAILS(aclnnCastGetWorkspaceSize(NULL, ACL_INT64, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "self is NULL");
  NT_FAILS(aclnnCastGetWorkspaceSize(x.t, ACL_INT64, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnCastGetWorkspaceSize(x.t, ACL_INT64, o.t, NULL, &ex), ACLNN_ERR_PARAM_NULLPTR, "workspaceSize");
  NT_FAILS(aclnnCastGetWorkspaceSize(x.t, ACL_INT32, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "but dtype is");
  const int64_t d4[1] = {4};
  nt_tensor o4 = nt_make(ACL_INT64, 1, d4, NULL);
  NT_FAILS(aclnnCastGetWorkspaceSize(x.t, ACL_INT64, o4.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has shape [4]");
  nt_free(&x);
  nt_free(&o);
  nt_free(&o4);
  nt_down(st);
}

/* Complex types: a copy keeps both parts, real to complex has imaginary 0, complex to real keeps the real part. */
TEST(cast_complex) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {2};
  float c[4] = {1.5f, -2.0f, 3.0f, 4.0f};
  void *dc, *dd, *df;
  CHECK_INT_EQ(aclrtMalloc(&dc, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  CHECK_INT_EQ(aclrtMalloc(&dd, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  CHECK_INT_EQ(aclrtMalloc(&df, 64, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  CHECK_INT_EQ(aclrtMemcpy(dc, 64, c, sizeof c, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  aclTensor *tc = aclCreateTensor(d, 1, ACL_COMPLEX64, NULL, 0, ACL_FORMAT_ND, d, 1, dc);
  aclTensor *td = aclCreateTensor(d, 1, ACL_COMPLEX128, NULL, 0, ACL_FORMAT_ND, d, 1, dd);
  aclTensor *tf = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, df);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnCastGetWorkspaceSize(tc, ACL_COMPLEX128, td, &ws, &ex));
  nt_run(aclnnCast, ws, ex, st);
  double got[4];
  CHECK_INT_EQ(aclrtMemcpy(got, sizeof got, dd, sizeof got, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  CHECK(got[0] == 1.5 && got[1] == -2.0 && got[2] == 3.0 && got[3] == 4.0);
  NT_OK(aclnnCastGetWorkspaceSize(td, ACL_FLOAT, tf, &ws, &ex));
  nt_run(aclnnCast, ws, ex, st);
  float fr[2];
  CHECK_INT_EQ(aclrtMemcpy(fr, sizeof fr, df, sizeof fr, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  CHECK(fr[0] == 1.5f && fr[1] == 3.0f);
  NT_OK(aclnnCastGetWorkspaceSize(tf, ACL_COMPLEX64, tc, &ws, &ex));
  nt_run(aclnnCast, ws, ex, st);
  CHECK_INT_EQ(aclrtMemcpy(c, sizeof c, dc, sizeof c, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  CHECK(c[0] == 1.5f && c[1] == 0 && c[2] == 3.0f && c[3] == 0);
  aclDestroyTensor(tc);
  aclDestroyTensor(td);
  aclDestroyTensor(tf);
  aclrtFree(dc);
  aclrtFree(dd);
  aclrtFree(df);
  nt_down(st);
}

/* ---- Permute, Flip, Expand, Repeat, Flatten -------------------------------------------------------- */

static const int64_t D3[3] = {2, 3, 4};

typedef struct perm_arg {
  int p[3];
} perm_arg;

static int64_t perm_src(const int64_t *o, const void *arg) {
  const perm_arg *a = arg;
  int64_t s[3];
  for (int k = 0; k < 3; k++)
    s[a->p[k]] = o[k];
  return lin(3, D3, s);
}

static int64_t flip_src(const int64_t *o, const void *arg) {
  const int *f = arg;
  int64_t s[3];
  for (int k = 0; k < 3; k++)
    s[k] = f[k] ? D3[k] - 1 - o[k] : o[k];
  return lin(3, D3, s);
}

TEST(permute_flip) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++) {
      aclDataType t = types[ti];
      double *v = vals(t, 24);
      nt_tensor x = mk(t, 3, D3, v, strided);
      uint64_t ws;
      aclOpExecutor *ex;
      /* Permute (2, 0, 1), given as (-1, 0, 1) */
      perm_arg pa = {{2, 0, 1}};
      const int64_t pd[3] = {-1, 0, 1}, od[3] = {4, 2, 3};
      aclIntArray *dims = aclCreateIntArray(pd, 3);
      nt_tensor o = mk(t, 3, od, NULL, !strided);
      NT_OK(aclnnPermuteGetWorkspaceSize(x.t, dims, o.t, &ws, &ex));
      nt_run(aclnnPermute, ws, ex, st);
      double *w = ref_view(3, od, v, perm_src, &pa, 0);
      expect("Permute", &o, w);
      free(w);
      nt_free(&o);
      aclDestroyIntArray(dims);
      /* Flip dims 0 and 2 */
      const int64_t fd[2] = {0, -1};
      const int fl[3] = {1, 0, 1};
      dims = aclCreateIntArray(fd, 2);
      o = mk(t, 3, D3, NULL, !strided);
      NT_OK(aclnnFlipGetWorkspaceSize(x.t, dims, o.t, &ws, &ex));
      nt_run(aclnnFlip, ws, ex, st);
      w = ref_view(3, D3, v, flip_src, fl, 0);
      expect("Flip", &o, w);
      free(w);
      nt_free(&o);
      aclDestroyIntArray(dims);
      nt_free(&x);
      free(v);
    }
  nt_tensor x = nt_make(ACL_FLOAT, 3, D3, NULL), o = nt_make(ACL_FLOAT, 3, D3, NULL);
  const int64_t twice[3] = {0, 0, 1}, two[2] = {0, 1}, bad[3] = {0, 1, 3};
  aclIntArray *a1 = aclCreateIntArray(twice, 3), *a2 = aclCreateIntArray(two, 2), *a3 = aclCreateIntArray(bad, 3);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnPermuteGetWorkspaceSize(x.t, a1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "names dim 0 twice");
  NT_FAILS(aclnnPermuteGetWorkspaceSize(x.t, a2, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dims has 2 values");
  NT_FAILS(aclnnPermuteGetWorkspaceSize(x.t, a3, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dims is 3, out of range");
  NT_FAILS(aclnnPermuteGetWorkspaceSize(x.t, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "dims is NULL");
  NT_FAILS(aclnnFlipGetWorkspaceSize(x.t, a1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "twice");
  nt_tensor oi = nt_make(ACL_INT32, 3, D3, NULL);
  NT_FAILS(aclnnFlipGetWorkspaceSize(x.t, a2, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "output out is ACL_INT32");
  aclDestroyIntArray(a1);
  aclDestroyIntArray(a2);
  aclDestroyIntArray(a3);
  nt_free(&x);
  nt_free(&o);
  nt_free(&oi);
  nt_down(st);
}

static int64_t expand_src(const int64_t *o, const void *arg) {
  (void)arg; /* self [3, 1] into [2, 3, 4] */
  return o[1];
}

static int64_t repeat_src(const int64_t *o, const void *arg) {
  (void)arg; /* self [2, 3] repeated (2, 1, 2) into [2, 2, 6] */
  return (o[1] % 2) * 3 + o[2] % 3;
}

TEST(expand_repeat_flatten) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++) {
      aclDataType t = types[ti];
      double *v = vals(t, 24);
      uint64_t ws;
      aclOpExecutor *ex;
      /* Expand [3, 1] to [2, 3, 4] (size given with -1 for the kept dim) */
      const int64_t sd[2] = {3, 1}, size[3] = {2, -1, 4};
      aclIntArray *a = aclCreateIntArray(size, 3);
      nt_tensor x = mk(t, 2, sd, v, strided), o = mk(t, 3, D3, NULL, !strided);
      NT_OK(aclnnExpandGetWorkspaceSize(x.t, a, o.t, &ws, &ex));
      nt_run(aclnnExpand, ws, ex, st);
      double *w = ref_view(3, D3, v, expand_src, NULL, 0);
      expect("Expand", &o, w);
      free(w);
      nt_free(&x);
      nt_free(&o);
      aclDestroyIntArray(a);
      /* Repeat [2, 3] by (2, 1, 2) */
      const int64_t rd[2] = {2, 3}, reps[3] = {2, 1, 2}, od[3] = {2, 2, 6};
      a = aclCreateIntArray(reps, 3);
      x = mk(t, 2, rd, v, strided);
      o = mk(t, 3, od, NULL, !strided);
      NT_OK(aclnnRepeatGetWorkspaceSize(x.t, a, o.t, &ws, &ex));
      nt_run(aclnnRepeat, ws, ex, st);
      w = ref_view(3, od, v, repeat_src, NULL, 0);
      expect("Repeat", &o, w);
      free(w);
      nt_free(&x);
      nt_free(&o);
      aclDestroyIntArray(a);
      /* Flatten [2, 3, 4] at each axis: the same elements in the same order */
      x = mk(t, 3, D3, v, strided);
      for (int axis = -3; axis <= 3; axis++) {
        int ax = axis < 0 ? axis + 3 : axis;
        int64_t fd[2] = {1, 1};
        for (int k = 0; k < 3; k++)
          fd[k < ax ? 0 : 1] *= D3[k];
        o = mk(t, 2, fd, NULL, !strided);
        NT_OK(aclnnFlattenGetWorkspaceSize(x.t, axis, o.t, &ws, &ex));
        nt_run(aclnnFlatten, ws, ex, st);
        expect("Flatten", &o, v);
        nt_free(&o);
      }
      nt_free(&x);
      free(v);
    }
  uint64_t ws;
  aclOpExecutor *ex;
  const int64_t sd[2] = {3, 2}, size[3] = {2, 3, 4}, shortsz[1] = {4}, negrep[2] = {1, -1};
  aclIntArray *a = aclCreateIntArray(size, 3), *s1 = aclCreateIntArray(shortsz, 1), *nr = aclCreateIntArray(negrep, 2);
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, NULL), o = nt_make(ACL_FLOAT, 3, D3, NULL);
  NT_FAILS(aclnnExpandGetWorkspaceSize(x.t, a, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not expand");
  NT_FAILS(aclnnExpandGetWorkspaceSize(x.t, s1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "size has 1 values");
  NT_FAILS(aclnnRepeatGetWorkspaceSize(x.t, s1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "repeats has 1 values");
  NT_FAILS(aclnnRepeatGetWorkspaceSize(x.t, nr, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "repeats[1] is -1");
  NT_FAILS(aclnnFlattenGetWorkspaceSize(x.t, 3, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "axis is 3");
  NT_FAILS(aclnnFlattenGetWorkspaceSize(x.t, 1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "writes [3, 2]");
  aclDestroyIntArray(a);
  aclDestroyIntArray(s1);
  aclDestroyIntArray(nr);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* ---- slices ------------------------------------------------------------------------------------------ */

/* A slice spec over [2, 3, 4]: out index k of dim d reads self index begin[d] + k * step[d]. */
typedef struct sl_arg {
  int64_t begin[3], step[3];
} sl_arg;

static int64_t slice_src(const int64_t *o, const void *arg) {
  const sl_arg *a = arg;
  int64_t s[3];
  for (int k = 0; k < 3; k++)
    s[k] = a->begin[k] + o[k] * a->step[k];
  return lin(3, D3, s);
}

static void run_slice(aclrtStream st, const char *what, aclDataType t, int strided, const int64_t *od,
                      const sl_arg *ref, int which, const int64_t *p, const int64_t *arrays, int n) {
  double *v = vals(t, 24);
  nt_tensor x = mk(t, 3, D3, v, strided), o = mk(t, 3, od, NULL, !strided);
  uint64_t ws;
  aclOpExecutor *ex;
  if (which == 0) {
    NT_OK(aclnnSliceGetWorkspaceSize(x.t, p[0], p[1], p[2], p[3], o.t, &ws, &ex));
    nt_run(aclnnSlice, ws, ex, st);
  } else {
    aclIntArray *a[4];
    for (int i = 0; i < 4; i++)
      a[i] = aclCreateIntArray(arrays + i * n, (uint64_t)n);
    if (which == 1) {
      NT_OK(aclnnSliceV2GetWorkspaceSize(x.t, a[0], a[1], a[2], a[3], o.t, &ws, &ex));
      nt_run(aclnnSliceV2, ws, ex, st);
    } else {
      NT_OK(aclnnStridedSliceGetWorkspaceSize(x.t, a[0], a[1], a[2], p[0], p[1], p[2], p[3], p[4], o.t, &ws, &ex));
      nt_run(aclnnStridedSlice, ws, ex, st);
    }
    for (int i = 0; i < 4; i++)
      aclDestroyIntArray(a[i]);
  }
  double *w = ref_view(3, od, v, slice_src, ref, 0);
  expect(what, &o, w);
  free(w);
  free(v);
  nt_free(&x);
  nt_free(&o);
}

TEST(slice_slicev2) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++) {
      aclDataType t = types[ti];
      /* Slice dim -1, 1:100:2 -> [2, 3, 2] (end clamped) */
      const int64_t od1[3] = {2, 3, 2}, p1[4] = {-1, 1, 100, 2};
      const sl_arg r1 = {{0, 0, 1}, {1, 1, 2}};
      run_slice(st, "Slice 1:100:2", t, strided, od1, &r1, 0, p1, NULL, 0);
      /* Slice dim 1, -2:-1:1 -> [2, 1, 4] */
      const int64_t od2[3] = {2, 1, 4}, p2[4] = {1, -2, -1, 1};
      const sl_arg r2 = {{0, 1, 0}, {1, 1, 1}};
      run_slice(st, "Slice -2:-1", t, strided, od2, &r2, 0, p2, NULL, 0);
      /* SliceV2 axes (2, 0): 3:0 (empty) is not taken; starts (0, 1), ends (4, 2), steps (3, 1) -> [1, 3, 2] */
      const int64_t od3[3] = {1, 3, 2}, arr[8] = {0, 1, /* ends */ 4, 2, /* axes */ 2, 0, /* steps */ 3, 1};
      const sl_arg r3 = {{1, 0, 0}, {1, 1, 3}};
      run_slice(st, "SliceV2", t, strided, od3, &r3, 1, NULL, arr, 2);
    }
  /* an empty slice */
  const int64_t od[3] = {2, 0, 4}, p[4] = {1, 2, 1, 1};
  const sl_arg r = {{0, 0, 0}, {1, 1, 1}};
  run_slice(st, "Slice empty", ACL_FLOAT, 0, od, &r, 0, p, NULL, 0);
  nt_tensor x = nt_make(ACL_FLOAT, 3, D3, NULL), o = nt_make(ACL_FLOAT, 3, D3, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnSliceGetWorkspaceSize(x.t, 0, 0, 2, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "step is 0");
  NT_FAILS(aclnnSliceGetWorkspaceSize(x.t, 3, 0, 2, 1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 3");
  NT_FAILS(aclnnSliceGetWorkspaceSize(x.t, 0, 0, 1, 1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "writes [1, 3, 4]");
  const int64_t one[1] = {0}, two[2] = {0, 0};
  aclIntArray *a1 = aclCreateIntArray(one, 1), *a2 = aclCreateIntArray(two, 2);
  NT_FAILS(aclnnSliceV2GetWorkspaceSize(x.t, a1, a2, a1, a1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "they need one length");
  NT_FAILS(aclnnSliceV2GetWorkspaceSize(x.t, a2, a2, a2, a2, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "twice");
  NT_FAILS(aclnnSliceV2GetWorkspaceSize(x.t, a1, a1, a1, a1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "steps[0] is 0");
  NT_FAILS(aclnnSliceV2GetWorkspaceSize(x.t, a1, NULL, a1, a1, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "ends is NULL");
  aclDestroyIntArray(a1);
  aclDestroyIntArray(a2);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* StridedSlice of an arange [2, 3, 4] (0 .. 23) against results worked out by hand (TensorFlow's rules). */
TEST(strided_slice) {
  aclrtStream st = nt_up();
  double v[24];
  for (int i = 0; i < 24; i++)
    v[i] = i;
  typedef struct ss_case {
    const char *what;
    int n;
    int64_t b[4], e[4], s[4];
    int64_t bm, em, elm, nam, sam;
    int ond;
    int64_t od[4];
    double want[24];
  } ss_case;
  static const ss_case cases[] = {
      /* [1:, ::-1, 1:3] */
      {"plain, reversed dim",
       3,
       {1, 0, 1},
       {2, 0, 3},
       {1, -1, 1},
       2,
       2,
       0,
       0,
       0,
       3,
       {1, 3, 2},
       {21, 22, 17, 18, 13, 14}},
      /* [..., 0] (shrink the last dim) */
      {"ellipsis, shrink", 2, {0, 0}, {0, 1}, {1, 1}, 0, 0, 1, 0, 2, 2, {2, 3}, {0, 4, 8, 12, 16, 20}},
      /* [0, newaxis, :, -1:0:-2] */
      {"new axis, negative stride",
       4,
       {0, 0, 0, -1},
       {1, 0, 0, 0},
       {1, 1, 1, -2},
       4,
       4,
       0,
       2,
       1,
       3,
       {1, 3, 2},
       {3, 1, 7, 5, 11, 9}},
      /* [:, 1] with the rest taken whole */
      {"trailing dims whole", 2, {0, 1}, {0, 2}, {1, 1}, 1, 1, 0, 0, 2, 2, {2, 4}, {4, 5, 6, 7, 16, 17, 18, 19}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int strided = 0; strided < 2; strided++) {
      const ss_case *k = &cases[c];
      nt_tensor x = mk(ACL_INT32, 3, D3, v, strided), o = mk(ACL_INT32, k->ond, k->od, NULL, !strided);
      aclIntArray *b = aclCreateIntArray(k->b, (uint64_t)k->n), *e = aclCreateIntArray(k->e, (uint64_t)k->n),
                  *s = aclCreateIntArray(k->s, (uint64_t)k->n);
      uint64_t ws;
      aclOpExecutor *ex;
      NT_OK(aclnnStridedSliceGetWorkspaceSize(x.t, b, e, s, k->bm, k->em, k->elm, k->nam, k->sam, o.t, &ws, &ex));
      nt_run(aclnnStridedSlice, ws, ex, st);
      expect(k->what, &o, k->want);
      aclDestroyIntArray(b);
      aclDestroyIntArray(e);
      aclDestroyIntArray(s);
      nt_free(&x);
      nt_free(&o);
    }
  nt_tensor x = nt_make(ACL_INT32, 3, D3, v), o = nt_make(ACL_INT32, 3, D3, NULL);
  const int64_t z[1] = {0}, one[1] = {1}, big[1] = {5};
  aclIntArray *az = aclCreateIntArray(z, 1), *a1 = aclCreateIntArray(one, 1), *ab = aclCreateIntArray(big, 1);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnStridedSliceGetWorkspaceSize(x.t, az, a1, az, 0, 0, 0, 0, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "strides[0] is 0");
  NT_FAILS(aclnnStridedSliceGetWorkspaceSize(x.t, ab, a1, a1, 0, 0, 0, 0, 1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "shrunk axis");
  NT_FAILS(aclnnStridedSliceGetWorkspaceSize(x.t, az, a1, a1, 0, 0, 0, 0, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "writes [1, 3, 4]");
  aclDestroyIntArray(az);
  aclDestroyIntArray(a1);
  aclDestroyIntArray(ab);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* ---- Tril / Triu, ConstantPadNd ----------------------------------------------------------------------- */

TEST(tril_triu) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++)
      for (int64_t diag = -2; diag <= 2; diag++)
        for (int upper = 0; upper < 2; upper++)
          for (int inplace = 0; inplace < 2; inplace++) {
            aclDataType t = types[ti];
            double *v = vals(t, 24), w[24];
            for (int i = 0; i < 24; i++) {
              int64_t r = (i / 4) % 3, c = i % 4;
              int keep = upper ? c - r >= diag : c - r <= diag;
              w[i] = keep ? v[i] : 0;
            }
            nt_tensor x = mk(t, 3, D3, v, strided), o = inplace ? x : mk(t, 3, D3, NULL, !strided);
            uint64_t ws;
            aclOpExecutor *ex;
            if (inplace && upper) {
              NT_OK(aclnnInplaceTriuGetWorkspaceSize(x.t, diag, &ws, &ex));
              nt_run(aclnnInplaceTriu, ws, ex, st);
            } else if (inplace) {
              NT_OK(aclnnInplaceTrilGetWorkspaceSize(x.t, diag, &ws, &ex));
              nt_run(aclnnInplaceTril, ws, ex, st);
            } else if (upper) {
              NT_OK(aclnnTriuGetWorkspaceSize(x.t, diag, o.t, &ws, &ex));
              nt_run(aclnnTriu, ws, ex, st);
            } else {
              NT_OK(aclnnTrilGetWorkspaceSize(x.t, diag, o.t, &ws, &ex));
              nt_run(aclnnTril, ws, ex, st);
            }
            expect(upper ? "Triu" : "Tril", &o, w);
            if (!inplace)
              nt_free(&o);
            nt_free(&x);
            free(v);
          }
  const int64_t d1[1] = {4};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d1, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnTrilGetWorkspaceSize(x.t, 0, x.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 1 dims");
  NT_FAILS(aclnnInplaceTriuGetWorkspaceSize(x.t, 0, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "selfRef has 1 dims");
  NT_FAILS(aclnnInplaceTriuGetWorkspaceSize(NULL, 0, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "selfRef is NULL");
  NT_FAILS(aclnnTriuGetWorkspaceSize(x.t, 0, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  nt_free(&x);
  nt_down(st);
}

typedef struct pad_arg {
  int64_t pb[2]; /* begin pads of dims 0 and 1 of a [2, 3] self */
  int64_t sd[2];
} pad_arg;

static int64_t pad_src(const int64_t *o, const void *arg) {
  const pad_arg *a = arg;
  int64_t r = o[0] - a->pb[0], c = o[1] - a->pb[1];
  if (r < 0 || r >= a->sd[0] || c < 0 || c >= a->sd[1])
    return -1;
  return r * a->sd[1] + c;
}

TEST(constant_pad_nd) {
  aclrtStream st = nt_up();
  const int64_t sd[2] = {2, 3};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++) {
      aclDataType t = types[ti];
      double *v = vals(t, 6), fill = nt_round(t, 9);
      aclScalar *val = nt_scalar(ACL_INT32, 9);
      /* pad (1, 2) on the last dim; then (-1, 1) on the last and (1, 1) on the first (a crop) */
      const int64_t p1[2] = {1, 2}, p2[4] = {-1, 1, 1, 1}, od1[2] = {2, 6}, od2[2] = {4, 3};
      const pad_arg r1 = {{0, 1}, {2, 3}}, r2 = {{1, -1}, {2, 3}};
      const int64_t *ps[2] = {p1, p2}, *ods[2] = {od1, od2};
      const pad_arg *rs[2] = {&r1, &r2};
      const uint64_t np[2] = {2, 4};
      for (int c = 0; c < 2; c++) {
        aclIntArray *pad = aclCreateIntArray(ps[c], np[c]);
        nt_tensor x = mk(t, 2, sd, v, strided), o = mk(t, 2, ods[c], NULL, !strided);
        uint64_t ws;
        aclOpExecutor *ex;
        NT_OK(aclnnConstantPadNdGetWorkspaceSize(x.t, pad, val, o.t, &ws, &ex));
        nt_run(aclnnConstantPadNd, ws, ex, st);
        double *w = ref_view(2, ods[c], v, pad_src, rs[c], fill);
        expect("ConstantPadNd", &o, w);
        free(w);
        nt_free(&x);
        nt_free(&o);
        aclDestroyIntArray(pad);
      }
      aclDestroyScalar(val);
      free(v);
    }
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, NULL), o = nt_make(ACL_FLOAT, 2, sd, NULL);
  const int64_t odd[3] = {1, 1, 1}, crop[2] = {-2, -2};
  aclIntArray *a3 = aclCreateIntArray(odd, 3), *ac = aclCreateIntArray(crop, 2);
  aclScalar *val = nt_scalar(ACL_FLOAT, 0);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnConstantPadNdGetWorkspaceSize(x.t, a3, val, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "even count");
  NT_FAILS(aclnnConstantPadNdGetWorkspaceSize(x.t, ac, val, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "below 0");
  NT_FAILS(aclnnConstantPadNdGetWorkspaceSize(x.t, a3, NULL, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "value is NULL");
  aclDestroyIntArray(a3);
  aclDestroyIntArray(ac);
  aclDestroyScalar(val);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* ---- lists: Cat, Stack, SplitTensor, SplitWithSize ------------------------------------------------------ */

/* A list over the tensors of xs (which it then owns: their .t is cleared). */
static aclTensorList *list_of(nt_tensor *xs, int n) {
  const aclTensor *ts[8];
  for (int i = 0; i < n; i++) {
    ts[i] = xs[i].t;
    xs[i].t = NULL;
  }
  aclTensorList *l = aclCreateTensorList(ts, (uint64_t)n);
  CHECK_NOT_NULL(l);
  return l;
}

TEST(cat) {
  aclrtStream st = nt_up();
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++)
      for (int dim = 0; dim < 2; dim++) {
        aclDataType t = types[ti];
        if (t == ACL_UINT16 || t == ACL_UINT32) /* not Cat's (below) */
          continue;
        /* [2, 1] + [2, 3] + [2, 2] along dim 1, or the transposes along dim 0; an int32 element promotes */
        const int64_t w[3] = {1, 3, 2};
        double *v[3], want[12];
        nt_tensor xs[4];
        int n = 0;
        for (int i = 0; i < 3; i++) {
          aclDataType ei =
              i == 1 && t != ACL_BOOL && t != ACL_UINT16 && t != ACL_UINT32 && t != ACL_INT64 ? ACL_INT8 : t;
          int64_t d[2] = {dim ? 2 : w[i], dim ? w[i] : 2};
          v[i] = vals(ei, 2 * w[i]);
          xs[n++] = mk(ei, 2, d, v[i], strided);
          if (i == 0) { /* a legacy empty [0] element, skipped */
            const int64_t z[1] = {0};
            xs[n++] = nt_make(t, 1, z, NULL);
          }
        }
        for (int r = 0, at = 0; r < 3; r++)
          for (int64_t k = 0; k < 2 * w[r]; k++) {
            int64_t row = dim ? k / w[r] : k / 2, col = dim ? k % w[r] : k % 2;
            int64_t oi = dim ? row * 6 + at + col : (at + row) * 2 + col;
            want[oi] = nt_round(t, v[r][k]);
            if (k == 2 * w[r] - 1)
              at += (int)w[r];
          }
        const int64_t od[2] = {dim ? 2 : 6, dim ? 6 : 2};
        nt_tensor o = mk(t, 2, od, NULL, !strided);
        aclTensorList *l = list_of(xs, n);
        uint64_t ws;
        aclOpExecutor *ex;
        NT_OK(aclnnCatGetWorkspaceSize(l, dim - 2, o.t, &ws, &ex));
        nt_run(aclnnCat, ws, ex, st);
        expect("Cat", &o, want);
        CHECK_INT_EQ(aclDestroyTensorList(l), 0);
        for (int i = 0; i < n; i++)
          nt_free(&xs[i]);
        for (int i = 0; i < 3; i++)
          free(v[i]);
        nt_free(&o);
      }
  /* errors */
  const int64_t a[2] = {2, 3}, b[2] = {3, 3}, od[2] = {4, 3};
  nt_tensor xs[2] = {nt_make(ACL_FLOAT, 2, a, NULL), nt_make(ACL_FLOAT, 2, b, NULL)};
  nt_tensor o = nt_make(ACL_FLOAT, 2, od, NULL), oi = nt_make(ACL_INT32, 2, od, NULL);
  aclTensorList *l = list_of(xs, 2), *empty = aclCreateTensorList(NULL, 0);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 1, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "does not join");
  nt_tensor u16 = nt_make(ACL_UINT16, 2, od, NULL);
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 0, u16.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "output out is ACL_UINT16");
  nt_free(&u16);
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 2, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 2");
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "writes [5, 3]");
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 0, oi.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "cannot be cast");
  NT_FAILS(aclnnCatGetWorkspaceSize(NULL, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "tensors is NULL");
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 0, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  NT_FAILS(aclnnCatGetWorkspaceSize(empty, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 0 tensors");
  const aclTensor *holes[2] = {o.t, NULL};
  aclTensorList *lh = aclCreateTensorList(holes, 2);
  NT_FAILS(aclnnCatGetWorkspaceSize(lh, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "tensors[1] is NULL");
  /* (the list owns o.t now) */
  CHECK_INT_EQ(aclDestroyTensorList(lh), 0);
  o.t = NULL;
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  CHECK_INT_EQ(aclDestroyTensorList(empty), 0);
  nt_free(&xs[0]);
  nt_free(&xs[1]);
  nt_free(&o);
  nt_free(&oi);
  nt_down(st);
}

TEST(stack) {
  aclrtStream st = nt_up();
  const int64_t sd[2] = {2, 3};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++)
      for (int dim = -3; dim < 3; dim++) {
        aclDataType t = types[ti];
        int d = dim < 0 ? dim + 3 : dim;
        double *v[3];
        nt_tensor xs[3];
        for (int i = 0; i < 3; i++) {
          v[i] = vals(t, 6 + 7 * i);
          v[i] += 7 * i;
          xs[i] = mk(t, 2, sd, v[i], strided);
        }
        int64_t od[3], q = 0;
        for (int k = 0; k < 3; k++)
          od[k] = k == d ? 3 : sd[q++];
        double want[18];
        for (int64_t i = 0; i < 18; i++) {
          int64_t idx[3], s[2];
          unlin(3, od, i, idx);
          for (int k = 0, r = 0; k < 3; k++)
            if (k != d)
              s[r++] = idx[k];
          want[i] = v[idx[d]][s[0] * 3 + s[1]];
        }
        nt_tensor o = mk(t, 3, od, NULL, !strided);
        aclTensorList *l = list_of(xs, 3);
        uint64_t ws;
        aclOpExecutor *ex;
        NT_OK(aclnnStackGetWorkspaceSize(l, dim, o.t, &ws, &ex));
        nt_run(aclnnStack, ws, ex, st);
        expect("Stack", &o, want);
        CHECK_INT_EQ(aclDestroyTensorList(l), 0);
        for (int i = 0; i < 3; i++) {
          nt_free(&xs[i]);
          free(v[i] - 7 * i);
        }
        nt_free(&o);
      }
  const int64_t b[2] = {3, 2}, od[3] = {2, 2, 3};
  nt_tensor xs[2] = {nt_make(ACL_FLOAT, 2, sd, NULL), nt_make(ACL_FLOAT, 2, b, NULL)};
  nt_tensor o = nt_make(ACL_FLOAT, 3, od, NULL);
  aclTensorList *l = list_of(xs, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnStackGetWorkspaceSize(l, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "but the first is");
  NT_FAILS(aclnnStackGetWorkspaceSize(l, 3, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "dim is 3");
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  nt_free(&xs[0]);
  nt_free(&xs[1]);
  nt_free(&o);
  nt_down(st);
}

TEST(split) {
  aclrtStream st = nt_up();
  const int64_t sd[2] = {5, 2};
  for (size_t ti = 0; ti < NTYPES; ti++)
    for (int strided = 0; strided < 2; strided++)
      for (int withsize = 0; withsize < 2; withsize++) {
        aclDataType t = types[ti];
        double *v = vals(t, 10);
        nt_tensor x = mk(t, 2, sd, v, strided);
        /* SplitTensor by 2 along dim 0: 2, 2, 1 rows; SplitWithSize (1, 0, 4) along dim -2 */
        const int64_t rows2[3] = {2, 2, 1}, rows1[3] = {1, 0, 4};
        const int64_t *rows = withsize ? rows1 : rows2;
        nt_tensor os[3];
        for (int i = 0; i < 3; i++) {
          int64_t d[2] = {rows[i], 2};
          os[i] = mk(t, 2, d, NULL, !strided);
        }
        nt_tensor keep[3] = {os[0], os[1], os[2]};
        aclTensorList *l = list_of(os, 3);
        uint64_t ws;
        aclOpExecutor *ex;
        if (withsize) {
          aclIntArray *a = aclCreateIntArray(rows1, 3);
          NT_OK(aclnnSplitWithSizeGetWorkspaceSize(x.t, a, -2, l, &ws, &ex));
          nt_run(aclnnSplitWithSize, ws, ex, st);
          aclDestroyIntArray(a);
        } else {
          NT_OK(aclnnSplitTensorGetWorkspaceSize(x.t, 2, 0, l, &ws, &ex));
          nt_run(aclnnSplitTensor, ws, ex, st);
        }
        int64_t at = 0;
        for (int i = 0; i < 3; i++) {
          expect("Split", &keep[i], v + at * 2);
          at += rows[i];
        }
        CHECK_INT_EQ(aclDestroyTensorList(l), 0);
        for (int i = 0; i < 3; i++) {
          keep[i].t = NULL;
          nt_free(&keep[i]);
        }
        nt_free(&x);
        free(v);
      }
  nt_tensor x = nt_make(ACL_FLOAT, 2, sd, NULL);
  const int64_t d2[2] = {2, 2}, sizes[2] = {2, 2};
  nt_tensor os[2] = {nt_make(ACL_FLOAT, 2, d2, NULL), nt_make(ACL_INT32, 2, d2, NULL)};
  aclTensorList *l = list_of(os, 2);
  aclIntArray *a = aclCreateIntArray(sizes, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnSplitTensorGetWorkspaceSize(x.t, 2, 0, l, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "makes 3 pieces");
  NT_FAILS(aclnnSplitTensorGetWorkspaceSize(x.t, 0, 0, l, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "splitSections is 0");
  NT_FAILS(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 0, l, &ws, &ex), ACLNN_ERR_PARAM_INVALID,
           "output out[1] is ACL_INT32");
  NT_FAILS(aclnnSplitWithSizeGetWorkspaceSize(x.t, a, 0, l, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "sums to 4");
  NT_FAILS(aclnnSplitTensorGetWorkspaceSize(x.t, 3, 0, NULL, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR, "out is NULL");
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  nt_free(&os[0]);
  nt_free(&os[1]);
  aclDestroyIntArray(a);
  nt_free(&x);
  nt_down(st);
}

/* A repeatable Cat whose inputs move between runs through the dynamic setters, and a Split whose outputs do. */
TEST(lists_repeatable_and_dynamic_addresses) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {2}, od[1] = {4};
  double a[2] = {1, 2}, b[2] = {3, 4}, c[2] = {5, 6};
  nt_tensor xs[2] = {nt_make(ACL_FLOAT, 1, d, a), nt_make(ACL_FLOAT, 1, d, b)};
  nt_tensor alt = nt_make(ACL_FLOAT, 1, d, c), o = nt_make(ACL_FLOAT, 1, od, NULL);
  void *dev[2] = {xs[0].dev, xs[1].dev};
  aclTensorList *l = list_of(xs, 2);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnCatGetWorkspaceSize(l, 0, o.t, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclnnCat(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  const double w1[4] = {1, 2, 3, 4}, w2[4] = {1, 2, 5, 6}, w3[4] = {5, 6, 5, 6};
  expect("Cat run 1", &o, w1);
  /* element 1 of the list parameter 0 (an input) now reads c */
  CHECK_INT_EQ(aclSetDynamicInputTensorAddr(ex, 0, 1, l, alt.dev), 0);
  CHECK_INT_EQ(aclnnCat(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  expect("Cat run 2", &o, w2);
  /* flattened input index 0 (the list's first element) */
  aclTensor *dummy = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL);
  CHECK_INT_EQ(aclSetInputTensorAddr(ex, 0, dummy, alt.dev), 0);
  CHECK_INT_EQ(aclnnCat(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  expect("Cat run 3", &o, w3);
  NT_FAILS(aclSetDynamicInputTensorAddr(ex, 0, 2, l, alt.dev), ACLNN_ERR_PARAM_INVALID, "relativeIndex 2");
  NT_FAILS(aclSetDynamicInputTensorAddr(ex, 1, 0, l, alt.dev), ACLNN_ERR_PARAM_INVALID, "irIndex 1");
  NT_FAILS(aclSetDynamicOutputTensorAddr(ex, 0, 0, l, alt.dev), ACLNN_ERR_PARAM_INVALID, "not a tensor-list");
  CHECK_INT_EQ(aclSetDynamicTensorAddr(ex, 0, 0, l, dev[0]), 0);
  CHECK_INT_EQ(aclSetDynamicTensorAddr(ex, 0, 1, l, dev[1]), 0);
  CHECK_INT_EQ(aclnnCat(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  expect("Cat run 4", &o, w1);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  aclDestroyTensor(dummy);

  /* Split o into two lists' worth: out is output list 0, parameter 1 (after self) */
  nt_tensor ps[2] = {nt_make(ACL_FLOAT, 1, d, NULL), nt_make(ACL_FLOAT, 1, d, NULL)};
  nt_tensor keep[2] = {ps[0], ps[1]};
  aclTensorList *ol = list_of(ps, 2);
  NT_OK(aclnnSplitTensorGetWorkspaceSize(o.t, 2, 0, ol, &ws, &ex));
  CHECK_INT_EQ(aclSetAclOpExecutorRepeatable(ex), 0);
  CHECK_INT_EQ(aclSetDynamicOutputTensorAddr(ex, 0, 0, ol, alt.dev), 0);
  CHECK_INT_EQ(aclnnSplitTensor(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  const double w12[2] = {1, 2};
  expect("Split into the moved out[0]", &alt, w12);
  NT_FAILS(aclSetDynamicTensorAddr(ex, 0, 0, ol, alt.dev), ACLNN_ERR_PARAM_INVALID, "irIndex 0");
  CHECK_INT_EQ(aclSetDynamicTensorAddr(ex, 1, 0, ol, keep[0].dev), 0);
  CHECK_INT_EQ(aclnnSplitTensor(NULL, 0, ex, st), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(st), 0);
  expect("Split out[0]", &keep[0], w12);
  CHECK_INT_EQ(aclDestroyAclOpExecutor(ex), 0);
  CHECK_INT_EQ(aclDestroyTensorList(ol), 0);
  for (int i = 0; i < 2; i++) {
    keep[i].t = NULL;
    nt_free(&keep[i]);
  }
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  /* the list's tensors were destroyed with it; the memory is ours */
  CHECK_INT_EQ(aclrtFree(dev[0]), 0);
  CHECK_INT_EQ(aclrtFree(dev[1]), 0);
  nt_free(&alt);
  nt_free(&o);
  nt_down(st);
}

/* A list longer than openacl takes is refused with a message. */
TEST(list_too_long) {
  aclrtStream st = nt_up();
  const int64_t d[1] = {1}, od[1] = {40};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d, NULL), o = nt_make(ACL_FLOAT, 1, od, NULL);
  const aclTensor *ts[40];
  for (int i = 0; i < 40; i++)
    ts[i] = aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, x.dev);
  aclTensorList *l = aclCreateTensorList(ts, 40);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnCatGetWorkspaceSize(l, 0, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "has 40 tensors");
  CHECK_INT_EQ(aclDestroyTensorList(l), 0);
  nt_free(&x);
  nt_free(&o);
  nt_down(st);
}

/* Large pieces are shared out over the executors in runs of a row: every element still lands once. */
TEST(large_pieces) {
  aclrtStream st = nt_up();
  const int64_t n = 300001, d1[1] = {n}, d2[2] = {3, n / 3 + 1}, sd[2] = {3, n / 3};
  double *v = malloc((size_t)n * sizeof(double)), *w = malloc((size_t)(3 * d2[1]) * sizeof(double));
  for (int64_t i = 0; i < n; i++)
    v[i] = (double)(i % 1000) - 500;
  nt_tensor x = nt_make(ACL_FLOAT, 1, d1, v), o = nt_make(ACL_INT32, 1, d1, NULL);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_OK(aclnnCastGetWorkspaceSize(x.t, ACL_INT32, o.t, &ws, &ex));
  nt_run(aclnnCast, ws, ex, st);
  expect("large Cast", &o, v);
  nt_free(&o);
  /* ConstantPadNd of [3, 100000] to [3, 100001]: long rows, a fill then a copy */
  nt_tensor s = nt_make(ACL_FLOAT, 2, sd, v), p = nt_make(ACL_FLOAT, 2, d2, NULL);
  const int64_t pad[2] = {1, 0};
  aclIntArray *a = aclCreateIntArray(pad, 2);
  aclScalar *val = nt_scalar(ACL_FLOAT, 7);
  NT_OK(aclnnConstantPadNdGetWorkspaceSize(s.t, a, val, p.t, &ws, &ex));
  nt_run(aclnnConstantPadNd, ws, ex, st);
  for (int64_t i = 0; i < 3 * d2[1]; i++)
    w[i] = i % d2[1] == 0 ? 7 : v[(i / d2[1]) * sd[1] + i % d2[1] - 1];
  expect("large ConstantPadNd", &p, w);
  aclDestroyIntArray(a);
  aclDestroyScalar(val);
  nt_free(&s);
  nt_free(&p);
  nt_free(&x);
  free(v);
  free(w);
  nt_down(st);
}

/* Attributes so large that the result's dims would overflow int64 are refused, not wrapped. */
TEST(huge_attributes) {
  aclrtStream st = nt_up();
  const int64_t d[2] = {2, 3}, reps[2] = {INT64_MAX / 2 + 1, 1}, pad[2] = {INT64_MAX, 0};
  nt_tensor x = nt_make(ACL_FLOAT, 2, d, NULL), o = nt_make(ACL_FLOAT, 2, d, NULL);
  aclIntArray *r = aclCreateIntArray(reps, 2), *p = aclCreateIntArray(pad, 2);
  aclScalar *v = nt_scalar(ACL_FLOAT, 0);
  uint64_t ws;
  aclOpExecutor *ex;
  NT_FAILS(aclnnRepeatGetWorkspaceSize(x.t, r, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "fit int64");
  NT_FAILS(aclnnConstantPadNdGetWorkspaceSize(x.t, p, v, o.t, &ws, &ex), ACLNN_ERR_PARAM_INVALID, "beyond");
  /* a step larger than the dim: one element */
  const int64_t o1[2] = {2, 1};
  nt_tensor o2 = nt_make(ACL_FLOAT, 2, o1, NULL);
  NT_OK(aclnnSliceGetWorkspaceSize(x.t, 1, 0, 3, INT64_MAX, o2.t, &ws, &ex));
  nt_run(aclnnSlice, ws, ex, st);
  aclDestroyIntArray(r);
  aclDestroyIntArray(p);
  aclDestroyScalar(v);
  nt_free(&x);
  nt_free(&o);
  nt_free(&o2);
  nt_down(st);
}
