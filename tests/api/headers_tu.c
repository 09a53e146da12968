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
#include "openacl/openacl.h"
#include "openacl/kernel.h"
#include "mstx/ms_tools_ext.h"
#include "mstx/ms_tools_ext.h"
#include "mstx/mstx_detail/mstx_inject.h"
#include "profiling/aprof_pub.h"
#include "profiling/aprof_pub.h"

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
  (void)acltdtDestroyDataItem(tdt_item);
  (void)acltdtCreateQueueRouteQueryInfo();
  return classify(ACL_ERROR_BAD_ALLOC) + (int)dims.dimCount + (int)version.version[0] + (int)kind +
         (int)memType + (int)dt + (int)aclDataTypeSize(dt);
}
