/*
 * model_data.c - datasets and tensor descriptors (tests api/model_data/...), through
 * the public API only: every function, NULL arguments, out-of-range
 * indexes, destroyed and garbage handles, size and element-count math for
 * every aclDataType, unknown dimensions (-1) and rank (-2), shape and value
 * ranges, names, many buffers, and a dataset's own copies of descriptors.
 * None of these functions needs aclInit, so most tests never call it.
 * Leaks are found by the ASan build (scripts/test.sh).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "fail_alloc.h"
#include "harness.h"

/* The deprecated functions are part of the API under test. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* The last call failed and recorded a message that names api and has text. */
#define CHECK_FAILED(api, text)                           \
  do {                                                    \
    const char *m_ = aclGetRecentErrMsg();                \
    CHECK_STR_HAS(m_, api " failed");                     \
    CHECK_STR_HAS(m_, text);                              \
  } while (0)

/* No failure was recorded since the last look. */
#define CHECK_NO_MSG() CHECK_NULL(aclGetRecentErrMsg())

static const aclDataType all_types[] = {
    ACL_DT_UNDEFINED, ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_UINT8, ACL_INT16, ACL_UINT16,
    ACL_UINT32, ACL_INT64, ACL_UINT64, ACL_DOUBLE, ACL_BOOL, ACL_STRING, ACL_COMPLEX64, ACL_COMPLEX128,
    ACL_BF16, ACL_INT4, ACL_UINT1, ACL_COMPLEX32, ACL_HIFLOAT8, ACL_FLOAT8_E5M2, ACL_FLOAT8_E4M3FN,
    ACL_FLOAT8_E8M0, ACL_FLOAT6_E3M2, ACL_FLOAT6_E2M3, ACL_FLOAT4_E2M1, ACL_FLOAT4_E1M2,
};

/* ---- tensor descriptors ---------------------------------------------------- */

TEST(tdesc_create_and_query) {
  int64_t dims[] = {1, 3, 224, 224};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescType(d), ACL_FLOAT);
  CHECK_INT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 4);
  for (size_t i = 0; i < 4; i++) {
    int64_t v = 0;
    CHECK_INT_EQ(aclGetTensorDescDim(d, i), dims[i]);
    CHECK_INT_EQ(aclGetTensorDescDimV2(d, i, &v), ACL_SUCCESS);
    CHECK_INT_EQ(v, dims[i]);
  }
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 3 * 224 * 224);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 3 * 224 * 224 * 4);
  CHECK_STR_EQ(aclGetTensorDescName(d), "");
  CHECK_NO_MSG();
  /* the caller's array is copied */
  dims[1] = 99;
  CHECK_INT_EQ(aclGetTensorDescDim(d, 1), 3);
  aclDestroyTensorDesc(d);
  CHECK_NO_MSG();
}

TEST(tdesc_size_every_type) {
  int64_t dims[] = {2, 3, 7};
  for (size_t i = 0; i < sizeof(all_types) / sizeof(all_types[0]); i++) {
    aclTensorDesc *d = aclCreateTensorDesc(all_types[i], 3, dims, ACL_FORMAT_ND);
    CHECK_NOT_NULL(d);
    CHECK_INT_EQ(aclGetTensorDescType(d), all_types[i]);
    CHECK_INT_EQ(aclGetTensorDescElementCount(d), 42);
    CHECK_INT_EQ(aclGetTensorDescSize(d), 42 * aclDataTypeSize(all_types[i]));
    aclDestroyTensorDesc(d);
  }
  /* spot checks of the table itself */
  int64_t one = 5;
  aclTensorDesc *s = aclCreateTensorDesc(ACL_STRING, 1, &one, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescSize(s), 0);
  aclDestroyTensorDesc(s);
  aclTensorDesc *c = aclCreateTensorDesc(ACL_COMPLEX128, 1, &one, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescSize(c), 80);
  aclDestroyTensorDesc(c);
  aclTensorDesc *h = aclCreateTensorDesc(ACL_FLOAT16, 1, &one, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescSize(h), 10);
  aclDestroyTensorDesc(h);
  CHECK_NO_MSG();
}

TEST(tdesc_scalar_and_zero_dims) {
  aclTensorDesc *d = aclCreateTensorDesc(ACL_INT64, 0, NULL, ACL_FORMAT_ND);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 0);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 1);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 8);
  CHECK_NO_MSG();
  CHECK_INT_EQ(aclGetTensorDescDim(d, 0), -1);
  CHECK_FAILED("aclGetTensorDescDim", "index is 0");
  aclDestroyTensorDesc(d);

  int64_t z[] = {4, 0, 5};
  d = aclCreateTensorDesc(ACL_FLOAT, 3, z, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 0);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 0);
  CHECK_NO_MSG();
  aclDestroyTensorDesc(d);

  /* a product that would overflow, but a zero dimension makes it 0 */
  int64_t big0[] = {INT64_MAX, INT64_MAX, 0};
  d = aclCreateTensorDesc(ACL_FLOAT, 3, big0, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 0);
  CHECK_NO_MSG();
  aclDestroyTensorDesc(d);

  int64_t big[] = {INT64_MAX, INT64_MAX};
  d = aclCreateTensorDesc(ACL_FLOAT, 2, big, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 0);
  CHECK_FAILED("aclGetTensorDescElementCount", "overflows");
  aclDestroyTensorDesc(d);

  int64_t fits[] = {(int64_t)1 << 62};
  d = aclCreateTensorDesc(ACL_FLOAT, 1, fits, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), (size_t)1 << 62);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 0); /* 2^64 bytes */
  CHECK_FAILED("aclGetTensorDescSize", "overflows");
  aclDestroyTensorDesc(d);
}

TEST(tdesc_unknown_dims_and_rank) {
  int64_t dyn[] = {-1, 3, 224, 224};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 4, dyn, ACL_FORMAT_NCHW);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 4);
  CHECK_INT_EQ(aclGetTensorDescDim(d, 0), -1);
  int64_t v = 0;
  CHECK_INT_EQ(aclGetTensorDescDimV2(d, 0, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, -1);
  CHECK_NO_MSG();
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 0);
  CHECK_FAILED("aclGetTensorDescElementCount", "-1 (unknown)");
  CHECK_INT_EQ(aclGetTensorDescSize(d), 0);
  CHECK_FAILED("aclGetTensorDescSize", "-1 (unknown)");
  aclDestroyTensorDesc(d);

  int64_t unk[] = {-2};
  d = aclCreateTensorDesc(ACL_FLOAT, 1, unk, ACL_FORMAT_ND);
  CHECK_NOT_NULL(d);
  CHECK(aclGetTensorDescNumDims(d) == (size_t)ACL_UNKNOWN_RANK);
  CHECK_NO_MSG();
  CHECK_INT_EQ(aclGetTensorDescElementCount(d), 0);
  CHECK_FAILED("aclGetTensorDescElementCount", "unknown rank");
  /* the actual shape, once known, replaces it */
  int64_t real[] = {2, 5};
  CHECK_INT_EQ(aclSetTensorOriginShape(d, 2, real), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 2);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 40);
  aclDestroyTensorDesc(d);
}

TEST(tdesc_create_rejects) {
  int64_t dims[130] = {0};
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "numDims is -1");
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, 129, dims, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "numDims is 129");
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 128, dims, ACL_FORMAT_ND);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 128);
  aclDestroyTensorDesc(d);
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "dims is NULL");
  int64_t bad[] = {2, -3};
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, 2, bad, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "dims[1] is -3");
  int64_t bad2[] = {-2, 3};
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, 2, bad2, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "dims[0] is -2");
  CHECK_NULL(aclCreateTensorDesc((aclDataType)5, 0, NULL, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "dataType is 5");
  CHECK_NULL(aclCreateTensorDesc((aclDataType)-7, 0, NULL, ACL_FORMAT_ND));
  CHECK_FAILED("aclCreateTensorDesc", "dataType is -7");
  CHECK_NULL(aclCreateTensorDesc(ACL_FLOAT, 0, NULL, (aclFormat)7));
  CHECK_FAILED("aclCreateTensorDesc", "format is 7");
  /* undefined type and format are values a descriptor may hold */
  d = aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL, ACL_FORMAT_UNDEFINED);
  CHECK_NOT_NULL(d);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 0);
  aclDestroyTensorDesc(d);
  CHECK_NO_MSG();
}

TEST(tdesc_null_arguments) {
  CHECK_INT_EQ(aclGetTensorDescType(NULL), ACL_DT_UNDEFINED);
  CHECK_FAILED("aclGetTensorDescType", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescFormat(NULL), ACL_FORMAT_UNDEFINED);
  CHECK_FAILED("aclGetTensorDescFormat", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescSize(NULL), 0);
  CHECK_FAILED("aclGetTensorDescSize", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescElementCount(NULL), 0);
  CHECK_FAILED("aclGetTensorDescElementCount", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescNumDims(NULL), 0);
  CHECK_FAILED("aclGetTensorDescNumDims", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescDim(NULL, 0), -1);
  CHECK_FAILED("aclGetTensorDescDim", "desc is NULL");
  int64_t v = 7, r[2] = {0, 0};
  CHECK_INT_EQ(aclGetTensorDescDimV2(NULL, 0, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimV2", "desc is NULL");
  CHECK_INT_EQ(aclGetTensorDescDimRange(NULL, 0, 2, r), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimRange", "desc is NULL");
  CHECK_STR_EQ(aclGetTensorDescName(NULL), "");
  CHECK_FAILED("aclGetTensorDescName", "desc is NULL");
  aclSetTensorDescName(NULL, "x");
  CHECK_FAILED("aclSetTensorDescName", "desc is NULL");
  int64_t range[1][2] = {{1, 2}};
  CHECK_INT_EQ(aclSetTensorShapeRange(NULL, 1, range), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShapeRange", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorValueRange(NULL, 1, range), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorValueRange", "desc is NULL");
  int64_t dims[] = {1};
  CHECK_INT_EQ(aclSetTensorFormat(NULL, ACL_FORMAT_ND), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorFormat", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShape", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorOriginFormat(NULL, ACL_FORMAT_ND), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorOriginFormat", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorOriginShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorOriginShape", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorStorageFormat(NULL, ACL_FORMAT_ND), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorStorageFormat", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorStorageShape(NULL, 1, dims), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorStorageShape", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorDynamicInput(NULL, "x"), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorDynamicInput", "desc is NULL");
  char data[4] = {0};
  CHECK_INT_EQ(aclSetTensorConst(NULL, data, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorConst", "desc is NULL");
  CHECK_INT_EQ(aclSetTensorPlaceMent(NULL, ACL_MEMTYPE_HOST), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorPlaceMent", "desc is NULL");
  aclDestroyTensorDesc(NULL); /* like free(NULL) */
  CHECK_NO_MSG();

  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescDimV2(d, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimV2", "dimSize is NULL");
  CHECK_INT_EQ(aclGetTensorDescDimV2(d, 1, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimV2", "index is 1");
  CHECK_INT_EQ(v, 7);
  CHECK_INT_EQ(aclGetTensorDescDim(d, SIZE_MAX), -1);
  CHECK_FAILED("aclGetTensorDescDim", "desc");
  CHECK_INT_EQ(aclSetTensorShape(d, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShape", "dims is NULL");
  aclDestroyTensorDesc(d);
}

TEST(tdesc_destroyed_and_garbage) {
  int64_t dims[] = {2};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclDestroyTensorDesc(d);
  CHECK_NO_MSG();
  CHECK_INT_EQ(aclGetTensorDescType(d), ACL_DT_UNDEFINED);
  CHECK_FAILED("aclGetTensorDescType", "not a live aclTensorDesc");
  aclDestroyTensorDesc(d); /* double destroy */
  CHECK_FAILED("aclDestroyTensorDesc", "not a live aclTensorDesc");
  CHECK_INT_EQ(aclSetTensorFormat(d, ACL_FORMAT_ND), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorFormat", "not a live aclTensorDesc");

  int junk[64] = {0};
  aclTensorDesc *g = (aclTensorDesc *)junk;
  aclTensorDesc *wild = (aclTensorDesc *)(uintptr_t)0x1000;
  CHECK_INT_EQ(aclGetTensorDescFormat(g), ACL_FORMAT_UNDEFINED);
  CHECK_FAILED("aclGetTensorDescFormat", "not a live aclTensorDesc");
  CHECK_INT_EQ(aclGetTensorDescNumDims(wild), 0);
  CHECK_FAILED("aclGetTensorDescNumDims", "not a live aclTensorDesc");
  CHECK_STR_EQ(aclGetTensorDescName(wild), "");
  CHECK_FAILED("aclGetTensorDescName", "not a live aclTensorDesc");
  aclDestroyTensorDesc(g);
  CHECK_FAILED("aclDestroyTensorDesc", "not a live aclTensorDesc");
  CHECK_INT_EQ(aclSetTensorConst(wild, junk, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorConst", "not a live aclTensorDesc");

  /* a dataset is not a descriptor, and the message says what it is */
  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclGetTensorDescSize((const aclTensorDesc *)ds), 0);
  CHECK_FAILED("aclGetTensorDescSize", "is a dataset handle");
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
}

TEST(tdesc_shape_range) {
  int64_t dims[] = {-1, 3, -1};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 3, dims, ACL_FORMAT_ND);
  int64_t r[2] = {0, 0};
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 0, 2, r), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimRange", "0 shape ranges");
  int64_t ranges[3][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 16}, {3, 3}, {1, -1}};
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 3, ranges), ACL_SUCCESS);
  for (size_t i = 0; i < 3; i++) {
    int64_t out[4] = {-9, -9, -9, -9};
    CHECK_INT_EQ(aclGetTensorDescDimRange(d, i, 4, out), ACL_SUCCESS);
    CHECK_INT_EQ(out[0], ranges[i][0]);
    CHECK_INT_EQ(out[1], ranges[i][1]);
    CHECK_INT_EQ(out[2], -9); /* only two values written */
  }
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 3, 2, r), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimRange", "index is 3");
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 0, 1, r), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimRange", "dimRangeNum is 1");
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 0, 2, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclGetTensorDescDimRange", "dimRange is NULL");

  int64_t bad[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 2}, {5, 4}};
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 2, bad), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShapeRange", "dimsRange[1] is [5, 4]");
  int64_t neg[1][ACL_TENSOR_SHAPE_RANGE_NUM] = {{-1, 4}};
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 1, neg), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShapeRange", "dimsRange[0] is [-1, 4]");
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 2, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShapeRange", "dimsRange is NULL");
  static int64_t many[129][ACL_TENSOR_SHAPE_RANGE_NUM];
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 129, many), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShapeRange", "dimsCount is 129");
  /* failed calls left the ranges alone */
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 2, 2, r), ACL_SUCCESS);
  CHECK_INT_EQ(r[1], -1);
  /* zero ranges clears them */
  CHECK_INT_EQ(aclSetTensorShapeRange(d, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescDimRange(d, 0, 2, r), ACL_ERROR_INVALID_PARAM);
  (void)aclGetRecentErrMsg();
  aclDestroyTensorDesc(d);
}

TEST(tdesc_value_range) {
  int64_t dims[] = {2};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_INT64, 1, dims, ACL_FORMAT_ND);
  int64_t vr[2][ACL_TENSOR_VALUE_RANGE_NUM] = {{-5, 5}, {0, 100}};
  CHECK_INT_EQ(aclSetTensorValueRange(d, 2, vr), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorValueRange(d, 1, vr), ACL_SUCCESS); /* replaces */
  CHECK_INT_EQ(aclSetTensorValueRange(d, 1, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorValueRange", "valueRange is NULL");
  CHECK_INT_EQ(aclSetTensorValueRange(d, 0, NULL), ACL_SUCCESS); /* clears */
  CHECK_INT_EQ(aclSetTensorValueRange(d, 2, vr), ACL_SUCCESS);
  aclDestroyTensorDesc(d); /* frees them (ASan) */
  CHECK_NO_MSG();
}

TEST(tdesc_name) {
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
  CHECK_STR_EQ(aclGetTensorDescName(d), "");
  aclSetTensorDescName(d, "input_0");
  CHECK_STR_EQ(aclGetTensorDescName(d), "input_0");
  char buf[8] = "mutable";
  aclSetTensorDescName(d, buf);
  buf[0] = 'X'; /* the name is a copy */
  CHECK_STR_EQ(aclGetTensorDescName(d), "mutable");
  char *longname = malloc(5001);
  memset(longname, 'n', 5000);
  longname[5000] = '\0';
  aclSetTensorDescName(d, longname);
  CHECK_STR_EQ(aclGetTensorDescName(d), longname);
  free(longname);
  aclSetTensorDescName(d, ACL_DYNAMIC_TENSOR_NAME);
  CHECK_STR_EQ(aclGetTensorDescName(d), "ascend_mbatch_shape_data");
  aclSetTensorDescName(d, NULL); /* clears */
  CHECK_STR_EQ(aclGetTensorDescName(d), "");
  aclSetTensorDescName(d, "");
  CHECK_STR_EQ(aclGetTensorDescName(d), "");
  CHECK_NO_MSG();
  aclDestroyTensorDesc(d);
}

TEST(tdesc_formats_and_shapes) {
  int64_t dims[] = {1, 3, 4, 4};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 4, dims, ACL_FORMAT_NCHW);
  /* storage format and shape do not change what the queries return */
  int64_t nz[] = {1, 1, 4, 4, 16};
  CHECK_INT_EQ(aclSetTensorFormat(d, ACL_FORMAT_NC1HWC0), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorShape(d, 5, nz), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorStorageFormat(d, ACL_FORMAT_FRACTAL_NZ), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorStorageShape(d, 5, nz), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 4);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 48 * 2);
  /* the origin ones do */
  CHECK_INT_EQ(aclSetTensorOriginFormat(d, ACL_FORMAT_NHWC), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NHWC);
  int64_t nhwc[] = {2, 4, 4, 3};
  CHECK_INT_EQ(aclSetTensorOriginShape(d, 4, nhwc), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescDim(d, 0), 2);
  CHECK_INT_EQ(aclGetTensorDescDim(d, 3), 3);
  CHECK_INT_EQ(aclGetTensorDescSize(d), 96 * 2);
  CHECK_INT_EQ(aclSetTensorOriginShape(d, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 0);
  CHECK_INT_EQ(aclSetTensorShape(d, 0, NULL), ACL_SUCCESS);
  CHECK_NO_MSG();
  /* bad values are rejected and change nothing */
  CHECK_INT_EQ(aclSetTensorFormat(d, (aclFormat)1000), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorFormat", "format is 1000");
  CHECK_INT_EQ(aclSetTensorOriginFormat(d, (aclFormat)-5), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorOriginFormat", "format is -5");
  CHECK_INT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NHWC);
  int64_t bad[] = {3, -4};
  CHECK_INT_EQ(aclSetTensorOriginShape(d, 2, bad), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorOriginShape", "dims[1] is -4");
  CHECK_INT_EQ(aclSetTensorShape(d, -1, bad), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorShape", "numDims is -1");
  CHECK_INT_EQ(aclSetTensorStorageShape(d, 200, bad), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorStorageShape", "numDims is 200");
  CHECK_INT_EQ(aclGetTensorDescNumDims(d), 0);
  aclDestroyTensorDesc(d);
}

TEST(tdesc_operator_attributes) {
  int64_t dims[] = {4};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_INT32, 1, dims, ACL_FORMAT_ND);
  CHECK_INT_EQ(aclSetTensorDynamicInput(d, "x"), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorDynamicInput(d, "y"), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorDynamicInput(d, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorDynamicInput", "dynamicInputName is NULL");
  int32_t values[4] = {1, 2, 3, 4};
  CHECK_INT_EQ(aclSetTensorConst(d, values, sizeof(values)), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorConst(d, values, 4), ACL_SUCCESS); /* replaces */
  CHECK_INT_EQ(aclSetTensorConst(d, NULL, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorConst", "dataBuffer is NULL");
  CHECK_INT_EQ(aclSetTensorConst(d, values, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorConst", "length is 0");
  CHECK_INT_EQ(aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorPlaceMent(d, ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorPlaceMent(d, ACL_MEMTYPE_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorPlaceMent(d, (aclMemType)3), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclSetTensorPlaceMent", "memType is 3");
  CHECK_NO_MSG();
  aclDestroyTensorDesc(d);
}

/* ---- datasets -------------------------------------------------------------- */

TEST(dataset_buffers) {
  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_NOT_NULL(ds);
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), 0);
  CHECK_NULL(aclmdlGetDatasetBuffer(ds, 0));
  CHECK_FAILED("aclmdlGetDatasetBuffer", "holds 0 buffers");
  char mem[3][16];
  aclDataBuffer *b[3];
  for (int i = 0; i < 3; i++) {
    b[i] = aclCreateDataBuffer(mem[i], sizeof(mem[i]));
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b[i]), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), i + 1);
  }
  aclDataBuffer *empty = aclCreateDataBuffer(NULL, 0); /* an output the model fills */
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, empty), ACL_SUCCESS);
  for (size_t i = 0; i < 3; i++)
    CHECK(aclmdlGetDatasetBuffer(ds, i) == b[i]);
  CHECK(aclmdlGetDatasetBuffer(ds, 3) == empty);
  CHECK_NO_MSG();
  CHECK_NULL(aclmdlGetDatasetBuffer(ds, 4));
  CHECK_FAILED("aclmdlGetDatasetBuffer", "index is 4");
  CHECK_NULL(aclmdlGetDatasetBuffer(ds, SIZE_MAX));
  CHECK_FAILED("aclmdlGetDatasetBuffer", "holds 4 buffers");
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "dataBuffer is NULL");
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), 4);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  /* the buffers are the caller's and still valid */
  for (int i = 0; i < 3; i++) {
    CHECK(aclGetDataBufferAddr(b[i]) == mem[i]);
    CHECK_INT_EQ(aclDestroyDataBuffer(b[i]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
  CHECK_NO_MSG();
}

TEST(dataset_many_buffers) {
  enum { N = 10000 };
  aclmdlDataset *ds = aclmdlCreateDataset();
  aclDataBuffer **b = malloc(N * sizeof(*b));
  for (size_t i = 0; i < N; i++) {
    b[i] = aclCreateDataBuffer((void *)(uintptr_t)(0x1000 + i), i);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b[i]), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), N);
  for (size_t i = 0; i < N; i++) {
    CHECK(aclmdlGetDatasetBuffer(ds, i) == b[i]);
    CHECK_INT_EQ(aclGetDataBufferSizeV2(aclmdlGetDatasetBuffer(ds, i)), i);
  }
  /* one buffer may sit in a dataset twice, and in two datasets */
  aclmdlDataset *ds2 = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds2, b[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds2, b[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds2), 2);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  for (size_t i = 0; i < N; i++)
    aclDestroyDataBuffer(b[i]);
  free(b);
  CHECK_NO_MSG();
}

TEST(dataset_null_destroyed_and_garbage) {
  char mem[4];
  aclDataBuffer *b = aclCreateDataBuffer(mem, 4);
  int64_t dims[] = {1};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);

  CHECK_INT_EQ(aclmdlDestroyDataset(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlDestroyDataset", "dataset is NULL");
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(NULL, b), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "dataset is NULL");
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(NULL), 0);
  CHECK_FAILED("aclmdlGetDatasetNumBuffers", "dataset is NULL");
  CHECK_NULL(aclmdlGetDatasetBuffer(NULL, 0));
  CHECK_FAILED("aclmdlGetDatasetBuffer", "dataset is NULL");
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(NULL, d, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "dataset is NULL");
  CHECK_NULL(aclmdlGetDatasetTensorDesc(NULL, 0));
  CHECK_FAILED("aclmdlGetDatasetTensorDesc", "dataset is NULL");

  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_ERROR_INVALID_PARAM); /* double destroy */
  CHECK_FAILED("aclmdlDestroyDataset", "not a live aclmdlDataset");
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "not a live aclmdlDataset");
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), 0);
  CHECK_FAILED("aclmdlGetDatasetNumBuffers", "not a live aclmdlDataset");
  CHECK_NULL(aclmdlGetDatasetBuffer(ds, 0));
  CHECK_FAILED("aclmdlGetDatasetBuffer", "not a live aclmdlDataset");
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, d, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "not a live aclmdlDataset");
  CHECK_NULL(aclmdlGetDatasetTensorDesc(ds, 0));
  CHECK_FAILED("aclmdlGetDatasetTensorDesc", "not a live aclmdlDataset");

  long junk[32] = {0};
  aclmdlDataset *g = (aclmdlDataset *)junk;
  CHECK_INT_EQ(aclmdlDestroyDataset(g), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlDestroyDataset", "not a live aclmdlDataset");
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers((aclmdlDataset *)(uintptr_t)0xdead0), 0);
  CHECK_FAILED("aclmdlGetDatasetNumBuffers", "not a live aclmdlDataset");
  /* a descriptor is not a dataset */
  CHECK_INT_EQ(aclmdlAddDatasetBuffer((aclmdlDataset *)d, b), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "is a tensor descriptor handle");

  aclDestroyTensorDesc(d);
  aclDestroyDataBuffer(b);
}

TEST(data_buffer_null_destroyed_and_garbage) {
  char mem[4];
  aclDataBuffer *b = aclCreateDataBuffer(mem, 4);
  CHECK_NOT_NULL(b);
  CHECK_INT_EQ(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclDestroyDataBuffer", "dataBuffer is NULL");
  CHECK_INT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
  CHECK_INT_EQ(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM); /* double destroy */
  CHECK_FAILED("aclDestroyDataBuffer", "not a live aclDataBuffer");
  CHECK_INT_EQ(aclUpdateDataBuffer(b, mem, 4), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclUpdateDataBuffer", "not a live aclDataBuffer");
  CHECK_NULL(aclGetDataBufferAddr(b));
  CHECK_FAILED("aclGetDataBufferAddr", "not a live aclDataBuffer");
  CHECK_INT_EQ(aclGetDataBufferSizeV2(b), 0);
  CHECK_FAILED("aclGetDataBufferSizeV2", "not a live aclDataBuffer");
  CHECK_INT_EQ(aclGetDataBufferSize(b), 0);
  CHECK_FAILED("aclGetDataBufferSize", "not a live aclDataBuffer");

  /* garbage and foreign handles never reach a dataset */
  long junk[8] = {0};
  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, (aclDataBuffer *)junk), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "not a live aclDataBuffer");
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, (aclDataBuffer *)ds), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlAddDatasetBuffer", "is a dataset handle");
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers(ds), 0);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  CHECK_NULL(aclGetDataBufferAddr((aclDataBuffer *)(uintptr_t)0xdead0));
  CHECK_FAILED("aclGetDataBufferAddr", "not a live aclDataBuffer");
}

TEST(dataset_tensor_descs) {
  char mem[2][64];
  aclDataBuffer *b0 = aclCreateDataBuffer(mem[0], 64), *b1 = aclCreateDataBuffer(mem[1], 64);
  aclmdlDataset *ds = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b1), ACL_SUCCESS);
  /* none set: NULL, which is not a failure */
  CHECK_NULL(aclmdlGetDatasetTensorDesc(ds, 0));
  CHECK_NO_MSG();

  int64_t dims[] = {2, 8};
  aclTensorDesc *mine = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  aclSetTensorDescName(mine, "x");
  int64_t ranges[2][ACL_TENSOR_SHAPE_RANGE_NUM] = {{1, 4}, {8, 8}};
  CHECK_INT_EQ(aclSetTensorShapeRange(mine, 2, ranges), ACL_SUCCESS);
  int32_t cval = 7;
  CHECK_INT_EQ(aclSetTensorConst(mine, &cval, sizeof(cval)), ACL_SUCCESS);
  CHECK_INT_EQ(aclSetTensorDynamicInput(mine, "dyn"), ACL_SUCCESS);
  int64_t vr[1][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 1}};
  CHECK_INT_EQ(aclSetTensorValueRange(mine, 1, vr), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, mine, 1), ACL_SUCCESS);

  aclTensorDesc *held = aclmdlGetDatasetTensorDesc(ds, 1);
  CHECK_NOT_NULL(held);
  CHECK(held != mine); /* the dataset keeps its own copy */
  CHECK_NULL(aclmdlGetDatasetTensorDesc(ds, 0));
  /* the caller's descriptor is the caller's to change and destroy */
  aclSetTensorDescName(mine, "changed");
  aclDestroyTensorDesc(mine);
  CHECK_INT_EQ(aclGetTensorDescType(held), ACL_FLOAT);
  CHECK_INT_EQ(aclGetTensorDescFormat(held), ACL_FORMAT_ND);
  CHECK_INT_EQ(aclGetTensorDescNumDims(held), 2);
  CHECK_INT_EQ(aclGetTensorDescDim(held, 1), 8);
  CHECK_INT_EQ(aclGetTensorDescSize(held), 64);
  CHECK_STR_EQ(aclGetTensorDescName(held), "x");
  int64_t r[2];
  CHECK_INT_EQ(aclGetTensorDescDimRange(held, 0, 2, r), ACL_SUCCESS);
  CHECK_INT_EQ(r[0], 1);
  CHECK_INT_EQ(r[1], 4);
  CHECK_NO_MSG();

  /* the copy belongs to the dataset: destroying it is refused */
  aclDestroyTensorDesc(held);
  CHECK_FAILED("aclDestroyTensorDesc", "belongs to a dataset");
  CHECK_INT_EQ(aclGetTensorDescDim(held, 0), 2);
  /* it may be changed in place, and set again (a no-op) */
  aclSetTensorDescName(held, "renamed");
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, held, 1), ACL_SUCCESS);
  CHECK(aclmdlGetDatasetTensorDesc(ds, 1) == held);
  CHECK_STR_EQ(aclGetTensorDescName(held), "renamed");
  /* and copied to another index */
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, held, 0), ACL_SUCCESS);
  aclTensorDesc *held0 = aclmdlGetDatasetTensorDesc(ds, 0);
  CHECK(held0 != NULL && held0 != held);
  CHECK_STR_EQ(aclGetTensorDescName(held0), "renamed");

  /* setting a new one replaces (and frees) the old copy */
  int64_t dims2[] = {-1};
  aclTensorDesc *other = aclCreateTensorDesc(ACL_INT8, 1, dims2, ACL_FORMAT_NCHW);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, other, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclGetTensorDescType(held), ACL_DT_UNDEFINED); /* the old copy is gone */
  CHECK_FAILED("aclGetTensorDescType", "not a live aclTensorDesc");
  CHECK_INT_EQ(aclGetTensorDescType(aclmdlGetDatasetTensorDesc(ds, 1)), ACL_INT8);

  /* bad arguments */
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, other, 2), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "index is 2");
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "tensorDesc is NULL");
  /* destroyed (tested at once: a later allocation may reuse the address) */
  aclTensorDesc *gone = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
  aclDestroyTensorDesc(gone);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, gone, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "tensorDesc");
  CHECK_NULL(aclmdlGetDatasetTensorDesc(ds, 2));
  CHECK_FAILED("aclmdlGetDatasetTensorDesc", "index is 2");
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, (aclTensorDesc *)ds, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_FAILED("aclmdlSetDatasetTensorDesc", "is a dataset handle");

  aclTensorDesc *last = aclmdlGetDatasetTensorDesc(ds, 1);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS); /* frees its copies (ASan) */
  CHECK_INT_EQ(aclGetTensorDescNumDims(last), 0);
  CHECK_FAILED("aclGetTensorDescNumDims", "not a live aclTensorDesc");
  aclDestroyTensorDesc(other);
  aclDestroyDataBuffer(b0);
  aclDestroyDataBuffer(b1);
  CHECK_NO_MSG();
}

/* Works the same after aclInit, and a runtime handle is named as what it is. */
TEST(after_init_and_runtime_handles) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlGetDatasetNumBuffers((aclmdlDataset *)stream), 0);
  CHECK_FAILED("aclmdlGetDatasetNumBuffers", "is a stream handle");
  CHECK_INT_EQ(aclGetTensorDescType((aclTensorDesc *)stream), ACL_DT_UNDEFINED);
  CHECK_FAILED("aclGetTensorDescType", "is a stream handle");
  aclmdlDataset *ds = aclmdlCreateDataset();
  int64_t dims[] = {3};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclDataBuffer *b = aclCreateDataBuffer(NULL, 0);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(ds, b), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDatasetTensorDesc(ds, d, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  /* plain host objects: they outlive aclFinalize */
  CHECK_INT_EQ(aclGetTensorDescSize(aclmdlGetDatasetTensorDesc(ds, 0)), 12);
  CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  aclDestroyTensorDesc(d);
  aclDestroyDataBuffer(b);
  CHECK_NO_MSG();
}

static void *churn(void *arg) {
  (void)arg;
  for (int i = 0; i < 2000; i++) {
    int64_t dims[] = {i % 7 + 1, 2};
    aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    aclmdlDataset *ds = aclmdlCreateDataset();
    aclDataBuffer *b = aclCreateDataBuffer(NULL, 0);
    if (d == NULL || ds == NULL || b == NULL || aclmdlAddDatasetBuffer(ds, b) != ACL_SUCCESS ||
        aclmdlSetDatasetTensorDesc(ds, d, 0) != ACL_SUCCESS ||
        aclGetTensorDescSize(aclmdlGetDatasetTensorDesc(ds, 0)) != (size_t)(i % 7 + 1) * 8 ||
        aclmdlDestroyDataset(ds) != ACL_SUCCESS)
      return (void *)1;
    aclDestroyTensorDesc(d);
    aclDestroyDataBuffer(b);
  }
  return NULL;
}

/* Different datasets and descriptors may be used from different threads. */
TEST(threads_create_destroy) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    CHECK_INT_EQ(pthread_create(&t[i], NULL, churn, NULL), 0);
  for (int i = 0; i < 4; i++) {
    void *r = (void *)1;
    CHECK_INT_EQ(pthread_join(t[i], &r), 0);
    CHECK_NULL(r);
  }
  CHECK_NO_MSG();
}

#if !TH_SANITIZED
/* Builds and tears down descriptors and a dataset; every call either works
 * or fails with ACL_ERROR_BAD_ALLOC (NULL for the creates). */
static void oom_scenario(void *arg) {
  (void)arg;
  static char mem[64];
  int64_t dims[] = {2, 3};
  int64_t vr[2][ACL_TENSOR_VALUE_RANGE_NUM] = {{0, 1}, {2, 3}};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
  if (d != NULL) {
    aclSetTensorDescName(d, "a fairly long tensor name");
    aclError rc = aclSetTensorConst(d, mem, sizeof(mem));
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_BAD_ALLOC);
    rc = aclSetTensorValueRange(d, 2, vr);
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_BAD_ALLOC);
    rc = aclSetTensorDynamicInput(d, "dyn");
    CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_BAD_ALLOC);
  }
  aclmdlDataset *ds = aclmdlCreateDataset();
  aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));
  if (ds != NULL && b != NULL) {
    for (int i = 0; i < 20; i++) {
      aclError rc = aclmdlAddDatasetBuffer(ds, b);
      CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_BAD_ALLOC);
    }
    for (size_t i = 0; d != NULL && i < 2 && i < aclmdlGetDatasetNumBuffers(ds); i++) {
      aclError rc = aclmdlSetDatasetTensorDesc(ds, d, i);
      CHECK(rc == ACL_SUCCESS || rc == ACL_ERROR_BAD_ALLOC);
    }
  }
  if (ds != NULL)
    CHECK_INT_EQ(aclmdlDestroyDataset(ds), ACL_SUCCESS);
  if (b != NULL)
    CHECK_INT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
  aclDestroyTensorDesc(d);
}

static void settle_messages(void) {
  aclGetRecentErrMsg(); /* frees what the thread holds */
  aclGetRecentErrMsg();
}
#endif

/* Every allocation these functions make may fail: the call then fails
 * cleanly (or, for an optional one, still works) and nothing leaks. */
TEST(all_allocations_may_fail) {
#if TH_SANITIZED
  printf("skipped: the sanitizer owns malloc in this build\n");
#else
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1); /* no log file */
  /* warm up: per-thread message state, and handle-table stripes big enough */
  enum { WARM = 4000 };
  static int c0_for_warmup;
  aclTensorDesc **many = calloc(WARM, sizeof(*many));
  for (int i = 0; i < WARM; i++)
    many[i] = aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND);
  for (int i = 0; i < WARM; i++)
    aclDestroyTensorDesc(many[i]);
  free(many);
  aclDestroyTensorDesc((aclTensorDesc *)&c0_for_warmup); /* a failure message: the ring exists */
  oom_scenario(NULL);
  settle_messages();
  long total = th_fail_each_allocation(oom_scenario, NULL, settle_messages);
  printf("the scenario makes %ld allocations; each failed in turn without a crash or a leak\n", total);
  CHECK(total >= 8);
#endif
}
