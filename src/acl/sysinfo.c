/*
 * sysinfo.c - questions about the system that need no device: the run
 * mode, the SoC name, CANN attributes.
 */
#include <stddef.h>

#include "acl/acl.h"
#include "acl/process.h"
#include "common/errmsg.h"

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  /* Works before aclInit, as on the vendor stack.  openacl drives its
   * devices from the host, like a PCIe card. */
  if (runMode == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "runMode is NULL");
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

const char *aclrtGetSocName(void) {
  const acl__hal_info *h = acl__process_hal_info();
  if (h == NULL) {
    acl__process_require_init(__func__);
    return NULL;
  }
  return h->soc_name;
}

/* The simulated NPU computes in IEEE float on the host, so Inf/NaN behave
 * as IEEE says; bf16 and JIT compilation are not offered. */
static const aclCannAttr acl__cann_attrs[] = {ACL_CANN_ATTR_INF_NAN};

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num) {
  if (cannAttrList == NULL || num == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", cannAttrList == NULL ? "cannAttrList" : "num");
  *cannAttrList = acl__cann_attrs;
  *num = sizeof(acl__cann_attrs) / sizeof(acl__cann_attrs[0]);
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value) {
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  if (cannAttr != ACL_CANN_ATTR_INF_NAN && cannAttr != ACL_CANN_ATTR_BF16 && cannAttr != ACL_CANN_ATTR_JIT_COMPILE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cannAttr %d is not an aclCannAttr", (int)cannAttr);
  *value = 0;
  for (size_t i = 0; i < sizeof(acl__cann_attrs) / sizeof(acl__cann_attrs[0]); i++)
    if (acl__cann_attrs[i] == cannAttr)
      *value = 1;
  return ACL_SUCCESS;
}
