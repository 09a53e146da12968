/* utils.c - data types, fp16 conversion, data buffers, versions, system info. */
#include <math.h>

#include "acl/acl.h"
#include "openacl/openacl.h"
#include "harness.h"

TEST(data_type_sizes) {
  CHECK_INT_EQ(aclDataTypeSize(ACL_FLOAT), 4);
  CHECK_INT_EQ(aclDataTypeSize(ACL_FLOAT16), 2);
  CHECK_INT_EQ(aclDataTypeSize(ACL_BF16), 2);
  CHECK_INT_EQ(aclDataTypeSize(ACL_INT8), 1);
  CHECK_INT_EQ(aclDataTypeSize(ACL_BOOL), 1);
  CHECK_INT_EQ(aclDataTypeSize(ACL_INT4), 1);
  CHECK_INT_EQ(aclDataTypeSize(ACL_UINT1), 1);
  CHECK_INT_EQ(aclDataTypeSize(ACL_INT64), 8);
  CHECK_INT_EQ(aclDataTypeSize(ACL_DOUBLE), 8);
  CHECK_INT_EQ(aclDataTypeSize(ACL_COMPLEX32), 4);
  CHECK_INT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8);
  CHECK_INT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16);
  CHECK_INT_EQ(aclDataTypeSize(ACL_STRING), 0);
  CHECK_INT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0);
  CHECK_INT_EQ(aclDataTypeSize(ACL_FLOAT4_E2M1), 8); /* the vendor's default branch */
  CHECK_INT_EQ(aclDataTypeSize((aclDataType)999), 8);
}

TEST(fp16_to_float) {
  CHECK(aclFloat16ToFloat(0x3C00) == 1.0f);
  CHECK(aclFloat16ToFloat(0xC000) == -2.0f);
  CHECK(aclFloat16ToFloat(0x7BFF) == 65504.0f);
  CHECK(aclFloat16ToFloat(0x0001) == ldexpf(1.0f, -24));
  CHECK(aclFloat16ToFloat(0x0000) == 0.0f);
  /* documented quirks: no Inf/NaN on the way in */
  CHECK(aclFloat16ToFloat(0x7C00) == 65536.0f);
  CHECK(aclFloat16ToFloat(0xFC00) == -65536.0f);
  CHECK(aclFloat16ToFloat(0x7E00) == 98304.0f);
}

TEST(float_to_fp16) {
  CHECK_INT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  CHECK_INT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  CHECK_INT_EQ(aclFloatToFloat16(0.5f), 0x3800);
  CHECK_INT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
  CHECK_INT_EQ(aclFloatToFloat16(ldexpf(1.0f, -24)), 0x0001);
  CHECK_INT_EQ(aclFloatToFloat16(0.0f), 0x0000);
  CHECK_INT_EQ(aclFloatToFloat16(1.0f + ldexpf(1.0f, -11)), 0x3C00); /* ties to even */
  /* documented quirks: saturation instead of Inf/NaN */
  CHECK_INT_EQ(aclFloatToFloat16(INFINITY), 0x7BFF);
  CHECK_INT_EQ(aclFloatToFloat16(-INFINITY), 0xFBFF);
  CHECK_INT_EQ(aclFloatToFloat16(NAN), 0x7BFF);
  CHECK_INT_EQ(aclFloatToFloat16(1e9f), 0x7BFF);
  /* every finite fp16 survives a round trip */
  for (unsigned h = 0; h < 0x10000; h++) {
    if ((h & 0x7C00) == 0x7C00)
      continue;
    float f = aclFloat16ToFloat((aclFloat16)h);
    unsigned back = aclFloatToFloat16(f);
    if (back != h && !(f == 0.0f && (back & 0x7FFF) == 0))
      th_fail(__FILE__, __LINE__, "0x%04x -> %g -> 0x%04x", h, f, back);
  }
}

TEST(data_buffer) {
  char mem[64];
  aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));
  CHECK_NOT_NULL(b);
  CHECK(aclGetDataBufferAddr(b) == mem);
  CHECK_INT_EQ(aclGetDataBufferSizeV2(b), 64);
  CHECK_INT_EQ(aclGetDataBufferSize(b), 64);
  CHECK_INT_EQ(aclUpdateDataBuffer(b, mem + 8, 8), ACL_SUCCESS);
  CHECK(aclGetDataBufferAddr(b) == mem + 8);
  CHECK_INT_EQ(aclGetDataBufferSizeV2(b), 8);
  CHECK_INT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
  aclDataBuffer *empty = aclCreateDataBuffer(NULL, 0);
  CHECK_NOT_NULL(empty);
  CHECK_INT_EQ(aclDestroyDataBuffer(empty), ACL_SUCCESS);
  CHECK_NULL(aclGetDataBufferAddr(NULL));
  CHECK_INT_EQ(aclGetDataBufferSizeV2(NULL), 0);
  CHECK_INT_EQ(aclUpdateDataBuffer(NULL, mem, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(versions) {
  int32_t a, b, c;
  CHECK_INT_EQ(aclrtGetVersion(&a, &b, &c), ACL_SUCCESS);
  CHECK_INT_EQ(a, ACL_MAJOR_VERSION);
  CHECK_INT_EQ(b, ACL_MINOR_VERSION);
  CHECK_INT_EQ(c, ACL_PATCH_VERSION);
  CHECK_INT_EQ(aclrtGetVersion(&a, NULL, &c), ACL_ERROR_INVALID_PARAM);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "minorVersion");
  char s[ACL_PKG_VERSION_MAX_SIZE];
  CHECK_INT_EQ(aclsysGetVersionStr((char *)"runtime", s), ACL_SUCCESS);
  CHECK(strlen(s) >= 5 && strchr(s, '.') != NULL);
  CHECK_INT_EQ(aclsysGetVersionStr((char *)"driver", s), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "not installed");
  int32_t n = 0;
  CHECK_INT_EQ(aclsysGetVersionNum((char *)"cann", &n), ACL_SUCCESS);
  CHECK(n > 0);
  aclCANNPackageVersion v;
  CHECK_INT_EQ(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &v), ACL_SUCCESS);
  CHECK_STR_EQ(v.version, s);
  CHECK_INT_EQ(aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &v), ACL_ERROR_INVALID_FILE);
}

TEST(run_mode_works_before_init) {
  aclrtRunMode m = ACL_DEVICE;
  CHECK_INT_EQ(aclrtGetRunMode(&m), ACL_SUCCESS);
  CHECK_INT_EQ(m, ACL_HOST);
  CHECK_INT_EQ(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(soc_name) {
  /* Before aclInit too, as the vendor's SoC probes expect; no error recorded. */
  CHECK_STR_EQ(aclrtGetSocName(), "openacl-cpu");
  CHECK_NULL(aclGetRecentErrMsg());
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_STR_EQ(aclrtGetSocName(), "openacl-cpu");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  setenv("OPENACL_SOC_NAME", "Ascend910B1", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_STR_EQ(aclrtGetSocName(), "Ascend910B1");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(soc_name_before_init_follows_the_environment) {
  setenv("OPENACL_SOC_NAME", "Ascend310P3", 1);
  CHECK_STR_EQ(aclrtGetSocName(), "Ascend310P3");
  CHECK_NULL(aclGetRecentErrMsg());
}

TEST(soc_name_before_init_without_devices) {
  setenv("ASCEND_RT_VISIBLE_DEVICES", "7", 1);
  CHECK_NULL(aclrtGetSocName());
  CHECK_STR_HAS(aclGetRecentErrMsg(), "no device is visible");
}

TEST(visible_device_count_before_and_after_init) {
  uint32_t n = 99, after = 0;
  CHECK_INT_EQ(openaclGetVisibleDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
  setenv("OPENACL_DEVICE_COUNT", "4", 1);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "3,1", 1);
  CHECK_INT_EQ(openaclGetVisibleDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 2);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetDeviceCount(&after), ACL_SUCCESS);
  CHECK_INT_EQ(openaclGetVisibleDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, after);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  /* before aclInit the environment is read at each call */
  setenv("ASCEND_RT_VISIBLE_DEVICES", "5", 1);
  CHECK_INT_EQ(openaclGetVisibleDeviceCount(&n), ACL_ERROR_RT_INVALID_DEVICEID);
  CHECK_INT_EQ(n, 0);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "ASCEND_RT_VISIBLE_DEVICES='5' is invalid");
  unsetenv("ASCEND_RT_VISIBLE_DEVICES");
  CHECK_INT_EQ(openaclGetVisibleDeviceCount(&n), ACL_SUCCESS);
  CHECK_INT_EQ(n, 4);
}

TEST(cann_attributes) {
  const aclCannAttr *list = NULL;
  size_t n = 0;
  CHECK_INT_EQ(aclGetCannAttributeList(&list, &n), ACL_SUCCESS);
  CHECK(n >= 1);
  int32_t v = -1;
  CHECK_INT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_INF_NAN, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 1);
  CHECK_INT_EQ(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, 0);
  CHECK_INT_EQ(aclGetCannAttribute((aclCannAttr)77, &v), ACL_ERROR_INVALID_PARAM);
}
