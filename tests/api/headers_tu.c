/*
 * headers_tu.c - a translation unit that includes every public header, some
 * twice, and uses the macros that expand in user code.  tests/api/headers.cmake
 * compiles it (syntax only) as C99, C11 and C++11 with -pedantic -Werror and
 * no macro defined, as a user program would.
 */
#include "acl/acl.h"
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_base_mdl.h"
#include "acl/acl_base_rt.h"
#include "acl/acl_dump.h"
#include "acl/acl_mdl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "acl/acl_tdt_queue.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "openacl/openacl.h"
#include "openacl/kernel.h"
#include "openacl/stream_task.h"
#include "openacl/openacl.h"
#include "openacl/kernel.h"
#include "openacl/stream_task.h"
#include "mstx/ms_tools_ext.h"
#include "mstx/ms_tools_ext.h"
#include "mstx/mstx_detail/mstx_inject.h"
#include "profiling/aprof_pub.h"
#include "profiling/aprof_pub.h"
#include "aclnn/acl_meta.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_add_v3.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_isfinite.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_ops_math.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_rsub.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tan.h"
#include "aclnnop/aclnn_trunc.h"
#include "aclnnop/aclnn_util.h"
#include "aclnnop/aclnn_ops_math.h"
#include "aclnnop/aclnn_ops_nn.h"
#include "aclnnop/aclnn_ops_transformer.h"

int headers_tu_use(aclrtStream stream);
/* The deprecation macros expand to something every compiler accepts. */
ACL_DEPRECATED int headers_tu_old(void);
ACL_DEPRECATED_MESSAGE("use headers_tu_use instead") int headers_tu_older(void);

/* Error codes of all three declaration styles compare with an aclError;
 * the runtime's #define codes also work as case labels. */
static int classify(aclError rc) {
  if (rc == ACL_SUCCESS || rc == ACL_RT_SUCCESS)
    return 0;
  if (rc == ACL_ERROR_INVALID_PARAM || rc == ACL_ERROR_RT_PARAM_INVALID ||
      rc == (aclError)ACL_ERROR_GE_PARAM_INVALID)
    return 1;
  switch (rc) {
  case ACL_ERROR_RT_CONTEXT_NULL:
    return 2;
  default:
    return 3;
  }
}

int headers_tu_use(aclrtStream stream) {
  acltdtTensorType tdt_type = ACL_TENSOR_DATA_END_OF_SEQUENCE;
  acltdtDataItem *tdt_item = acltdtCreateDataItem(tdt_type, NULL, 0, ACL_FLOAT, NULL, 0);
  aclmdlIODims dims;
  aclCANNPackageVersion version;
  aclrtMemcpyKind kind = ACL_MEMCPY_HOST_TO_DEVICE;
  enum aclrtMemType memType = HBM_TYPE;
  aclDataType dt = ACL_FLOAT16;
  uint64_t bits = ACL_PROF_ACL_API | ACL_PROF_AICORE_SHAPE;
  aclInitCallbackFunc cb = 0;
  openaclErrorInfo info;
  (void)stream;
  (void)cb;
  (void)bits;
  dims.dimCount = 0;
  version.version[0] = '\0';
  /* The log macro with and without arguments after the format. */
  ACL_APP_LOG(ACL_INFO, "no arguments");
  ACL_APP_LOG(ACL_ERROR, "%d %s", 1, "two");
  (void)openaclGetErrorInfo(ACL_ERROR_RT_CONTEXT_NULL, &info);
  /* mstx: the inline calls, a domain, a range around a mark */
  {
    mstxDomainHandle_t d = mstxDomainCreateA("headers_tu");
    mstxRangeId r = mstxRangeStartA("tu", stream);
    uint64_t tool = MSTX_TOOL_INVALID_ID;
    mstxDomainMarkA(d, "tu", NULL);
    mstxRangeEnd(r);
    mstxDomainDestroy(d);
    mstxGetToolId(&tool);
    (void)MsprofSetDeviceIdByGeModelIdx(0, 0);
  }
  /* aclnn: the two phases of an operator, the status codes as case labels */
  {
    int64_t shape[1] = {1};
    bool flags[1] = {true};
    aclTensor *t = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, NULL);
    aclBoolArray *ba = aclCreateBoolArray(flags, 1);
    uint64_t ws = 0;
    aclOpExecutor *ex = NULL;
    aclnnStatus st = aclnnAbsGetWorkspaceSize(t, t, &ws, &ex);
    switch (st) {
    case ACLNN_SUCCESS: st = aclnnAbs(NULL, ws, ex, stream); break;
    case ACLNN_ERR_PARAM_NULLPTR:
    case ACLNN_ERR_PARAM_INVALID: break;
    default: break;
    }
    (void)aclDestroyBoolArray(ba);
    (void)aclDestroyTensor(t);
    (void)aclnnFinalize();
  }
  (void)acltdtDestroyDataItem(tdt_item);
  (void)acltdtCreateQueueRouteQueryInfo();
  return classify(ACL_ERROR_BAD_ALLOC) + (int)dims.dimCount + (int)version.version[0] + (int)kind +
         (int)memType + (int)dt + (int)aclDataTypeSize(dt);
}
