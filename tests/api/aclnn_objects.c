/*
 * aclnn_objects.c - the objects of the aclnn common layer through the
 * public API: tensor descriptors and their getters, scalars, arrays, lists
 * (which own their elements), the status codes in the error table, and
 * aclnnInit / aclnnFinalize / aclDumpOpTensors.
 */
#include "aclnn_util.h"
#include "openacl/openacl.h"

/* ---- descriptors ---------------------------------------------------------------------------- */

TEST(tensor_descriptor_and_getters) {
  const int64_t dims[3] = {2, 3, 4}, strides[3] = {1, 2, 6}, storage[1] = {24};
  int dummy;
  aclTensor *t = aclCreateTensor(dims, 3, ACL_FLOAT16, strides, 5, ACL_FORMAT_NCHW, storage, 1, &dummy);
  CHECK_NOT_NULL(t);
  int64_t *v = NULL;
  uint64_t n = 0;
  CHECK_INT_EQ(aclGetViewShape(t, &v, &n), 0);
  CHECK_INT_EQ(n, 3);
  CHECK(v[0] == 2 && v[1] == 3 && v[2] == 4);
  free(v);
  CHECK_INT_EQ(aclGetViewStrides(t, &v, &n), 0);
  CHECK(n == 3 && v[0] == 1 && v[1] == 2 && v[2] == 6);
  free(v);
  CHECK_INT_EQ(aclGetStorageShape(t, &v, &n), 0);
  CHECK(n == 1 && v[0] == 24);
  free(v);
  int64_t off = 0;
  CHECK_INT_EQ(aclGetViewOffset(t, &off), 0);
  CHECK_INT_EQ(off, 5);
  aclFormat f;
  CHECK_INT_EQ(aclGetFormat(t, &f), 0);
  CHECK_INT_EQ(f, ACL_FORMAT_NCHW);
  aclDataType dt;
  CHECK_INT_EQ(aclGetDataType(t, &dt), 0);
  CHECK_INT_EQ(dt, ACL_FLOAT16);
  void *addr = NULL;
  CHECK_INT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  CHECK(addr == &dummy);
  CHECK_INT_EQ(aclSetRawTensorAddr(t, NULL), 0);
  CHECK_INT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  CHECK_NULL(addr);
  /* NULL strides: contiguous; a 0-D tensor has no dims (the array is still given) */
  CHECK_INT_EQ(aclInitTensor(t, dims, 3, ACL_INT64, NULL, 0, ACL_FORMAT_ND, dims, 3, &dummy), 0);
  CHECK_INT_EQ(aclGetViewStrides(t, &v, &n), 0);
  CHECK(n == 3 && v[0] == 12 && v[1] == 4 && v[2] == 1);
  free(v);
  CHECK_INT_EQ(aclGetDataType(t, &dt), 0);
  CHECK_INT_EQ(dt, ACL_INT64);
  /* more dims than inline storage holds */
  const int64_t many[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3};
  CHECK_INT_EQ(aclInitTensor(t, many, 12, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, many, 12, NULL), 0);
  CHECK_INT_EQ(aclGetViewShape(t, &v, &n), 0);
  CHECK(n == 12 && v[10] == 2 && v[11] == 3);
  free(v);
  CHECK_INT_EQ(aclDestroyTensor(t), 0);
  aclTensor *z = aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL);
  CHECK_NOT_NULL(z);
  CHECK_INT_EQ(aclGetViewShape(z, &v, &n), 0);
  CHECK_INT_EQ(n, 0);
  CHECK_NOT_NULL(v);
  free(v);
  CHECK_INT_EQ(aclDestroyTensor(z), 0);
}

TEST(tensor_checks) {
  const int64_t dims[1] = {4};
  CHECK_NULL(aclCreateTensor(NULL, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclCreateTensor failed: ACLNN_ERR_PARAM_NULLPTR (161001): viewDims is NULL");
  CHECK_NULL(aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 1, NULL));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "storageDims is NULL");
  aclTensor *t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL);
  int64_t *v;
  uint64_t n;
  NT_FAILS(aclGetViewShape(NULL, &v, &n), ACLNN_ERR_PARAM_NULLPTR,
           "aclGetViewShape failed: ACLNN_ERR_PARAM_NULLPTR (161001): tensor is NULL");
  NT_FAILS(aclGetViewShape(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "viewDims is NULL");
  NT_FAILS(aclGetViewShape(t, &v, NULL), ACLNN_ERR_PARAM_NULLPTR, "viewDimsNum is NULL");
  NT_FAILS(aclGetStorageShape(t, &v, NULL), ACLNN_ERR_PARAM_NULLPTR, "storageDimsNum is NULL");
  NT_FAILS(aclGetViewStrides(t, NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "stridesValue is NULL");
  NT_FAILS(aclGetViewOffset(t, NULL), ACLNN_ERR_PARAM_NULLPTR, "offset is NULL");
  NT_FAILS(aclGetFormat(t, NULL), ACLNN_ERR_PARAM_NULLPTR, "format is NULL");
  NT_FAILS(aclGetDataType(t, NULL), ACLNN_ERR_PARAM_NULLPTR, "dataType is NULL");
  NT_FAILS(aclGetRawTensorAddr(t, NULL), ACLNN_ERR_PARAM_NULLPTR, "addr is NULL");
  NT_FAILS(aclSetRawTensorAddr(NULL, NULL), ACLNN_ERR_PARAM_NULLPTR, "tensor is NULL");
  NT_FAILS(aclInitTensor(NULL, dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL), ACLNN_ERR_PARAM_NULLPTR,
           "tensor is NULL");
  NT_FAILS(aclInitTensor(t, NULL, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL), ACLNN_ERR_PARAM_NULLPTR,
           "viewDims is NULL");
  /* destroy: NULL is fine; a destroyed one is refused, not freed twice */
  CHECK_INT_EQ(aclDestroyTensor(NULL), 0);
  CHECK_INT_EQ(aclDestroyTensor(t), 0);
  NT_FAILS(aclDestroyTensor(t), ACLNN_ERR_PARAM_INVALID, "is not a live aclTensor");
  int64_t off;
  NT_FAILS(aclGetViewOffset(t, &off), ACLNN_ERR_PARAM_INVALID, "is not a live aclTensor");
}

TEST(scalars_arrays_lists) {
  float f = 2.5f;
  aclScalar *s = aclCreateScalar(&f, ACL_FLOAT);
  CHECK_NOT_NULL(s);
  CHECK_NULL(aclCreateScalar(NULL, ACL_FLOAT));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclCreateScalar failed: ACLNN_ERR_PARAM_NULLPTR (161001): value is NULL");
  CHECK_NULL(aclCreateScalar(&f, ACL_STRING));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "dataType ACL_STRING cannot be a scalar");
  CHECK_NULL(aclCreateScalar(&f, (aclDataType)99));
  /* the value is copied at once */
  int64_t i64[3] = {1, 2, 3};
  aclIntArray *ia = aclCreateIntArray(i64, 3);
  float fl[2] = {1, 2};
  aclFloatArray *fa = aclCreateFloatArray(fl, 2);
  bool bl[1] = {true};
  aclBoolArray *ba = aclCreateBoolArray(bl, 1);
  aclIntArray *empty = aclCreateIntArray(NULL, 0);
  CHECK(ia && fa && ba && empty);
  CHECK_NULL(aclCreateIntArray(NULL, 2));
  CHECK_STR_HAS(aclGetRecentErrMsg(), "value is NULL but size is 2");
  uint64_t n = 0;
  CHECK_INT_EQ(aclGetIntArraySize(ia, &n), 0);
  CHECK_INT_EQ(n, 3);
  CHECK_INT_EQ(aclGetFloatArraySize(fa, &n), 0);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(aclGetBoolArraySize(ba, &n), 0);
  CHECK_INT_EQ(n, 1);
  CHECK_INT_EQ(aclGetIntArraySize(empty, &n), 0);
  CHECK_INT_EQ(n, 0);
  NT_FAILS(aclGetIntArraySize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "array is NULL");
  NT_FAILS(aclGetIntArraySize(ia, NULL), ACLNN_ERR_PARAM_NULLPTR, "size is NULL");
  NT_FAILS(aclGetIntArraySize((const aclIntArray *)fa, &n), ACLNN_ERR_PARAM_INVALID,
           "is an aclFloatArray, not an aclIntArray");
  CHECK_INT_EQ(aclDestroyIntArray(ia), 0);
  CHECK_INT_EQ(aclDestroyFloatArray(fa), 0);
  CHECK_INT_EQ(aclDestroyBoolArray(ba), 0);
  CHECK_INT_EQ(aclDestroyIntArray(empty), 0);
  CHECK_INT_EQ(aclDestroyIntArray(NULL), 0);
  NT_FAILS(aclDestroyIntArray(ia), ACLNN_ERR_PARAM_INVALID, "not a live aclIntArray");
  /* lists own their elements */
  const int64_t d[1] = {2};
  const aclTensor *ts[2] = {aclCreateTensor(d, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, d, 1, NULL),
                            aclCreateTensor(d, 1, ACL_INT32, NULL, 0, ACL_FORMAT_ND, d, 1, NULL)};
  aclTensorList *tl = aclCreateTensorList(ts, 2);
  CHECK_NOT_NULL(tl);
  CHECK_INT_EQ(aclGetTensorListSize(tl, &n), 0);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(aclDestroyTensorList(tl), 0);
  NT_FAILS(aclDestroyTensor(ts[0]), ACLNN_ERR_PARAM_INVALID, "not a live aclTensor");
  int32_t three = 3;
  const aclScalar *ss[2] = {s, aclCreateScalar(&three, ACL_INT32)};
  aclScalarList *sl = aclCreateScalarList(ss, 2);
  CHECK_INT_EQ(aclGetScalarListSize(sl, &n), 0);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(aclDestroyScalarList(sl), 0);
  NT_FAILS(aclDestroyScalar(s), ACLNN_ERR_PARAM_INVALID, "not a live aclScalar");
  /* NULL or 0 makes an empty list */
  aclTensorList *el = aclCreateTensorList(NULL, 5);
  CHECK_INT_EQ(aclGetTensorListSize(el, &n), 0);
  CHECK_INT_EQ(n, 0);
  CHECK_INT_EQ(aclDestroyTensorList(el), 0);
  CHECK_INT_EQ(aclDestroyTensorList(NULL), 0);
  CHECK_INT_EQ(aclDestroyScalarList(NULL), 0);
  NT_FAILS(aclGetScalarListSize(NULL, &n), ACLNN_ERR_PARAM_NULLPTR, "scalarList is NULL");
}

TEST(status_codes_in_the_error_table) {
  static const struct {
    int code;
    const char *name;
  } codes[] = {{ACLNN_ERR_PARAM_NULLPTR, "ACLNN_ERR_PARAM_NULLPTR"},
               {ACLNN_ERR_PARAM_INVALID, "ACLNN_ERR_PARAM_INVALID"},
               {ACLNN_ERR_RUNTIME_ERROR, "ACLNN_ERR_RUNTIME_ERROR"},
               {ACLNN_ERR_INNER, "ACLNN_ERR_INNER"},
               {ACLNN_ERR_INNER_CREATE_EXECUTOR, "ACLNN_ERR_INNER_CREATE_EXECUTOR"},
               {ACLNN_ERR_INNER_NULLPTR, "ACLNN_ERR_INNER_NULLPTR"},
               {ACLNN_ERR_INNER_KEY_CONFLICT, "ACLNN_ERR_INNER_KEY_CONFLICT"},
               {ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID, "ACLNN_ERR_INNER_STATIC_BLOCK_DIM_INVALID"}};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    CHECK_STR_EQ(openaclGetErrorName(codes[i].code), codes[i].name);
    openaclErrorInfo info;
    CHECK_INT_EQ(openaclGetErrorInfo(codes[i].code, &info), ACL_SUCCESS);
    CHECK(info.remedy != NULL && info.remedy[0] != '\0');
  }
  CHECK_INT_EQ(ACLNN_ERR_INNER_KEY_CONFILICT, ACLNN_ERR_INNER_KEY_CONFLICT);
  CHECK_INT_EQ(ACLNN_SUCCESS, ACL_SUCCESS);
}

TEST(init_finalize_dump) {
  CHECK_INT_EQ(aclnnInit(NULL), 0);
  CHECK_INT_EQ(aclnnInit("/nonexistent/aclnn.json"), 0); /* a missing file is no error */
  char *dir = th_tmpdir();
  char *cfg = th_write_file(dir, "aclnn.json", "{\"op_debug_config\": {\"enable_debug_kernel\": \"on\"}}");
  CHECK_INT_EQ(aclnnInit(cfg), 0);
  char *bad = th_write_file(dir, "bad.json", "{not json");
  CHECK_INT_EQ(aclnnInit(bad), 0);
  CHECK_INT_EQ(aclnnFinalize(), 0);
  CHECK_INT_EQ(aclnnFinalize(), 0);
  free(cfg);
  free(bad);
  th_rmtree(dir);
  free(dir);
  aclrtStream st = nt_up(); /* aclInit initialised aclnn too */
  const int64_t d[1] = {2};
  nt_tensor x = nt_make(ACL_FLOAT, 1, d, NULL);
  aclTensor *ts[2] = {x.t, x.t};
  CHECK_INT_EQ(aclDumpOpTensors("Add", "add1", ts, 1, 1, st), 0);
  NT_FAILS(aclDumpOpTensors(NULL, "add1", ts, 1, 1, st), ACLNN_ERR_PARAM_NULLPTR, "opType is NULL");
  NT_FAILS(aclDumpOpTensors("Add", "add1", NULL, 1, 1, st), ACLNN_ERR_PARAM_NULLPTR, "tensors is NULL");
  NT_FAILS(aclDumpOpTensors("Add", "add1", ts, 1, 1, NULL), ACLNN_ERR_PARAM_NULLPTR, "stream is NULL");
  nt_free(&x);
  nt_down(st);
}
