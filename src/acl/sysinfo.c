/*
 * sysinfo.c - questions about the system that need no device: the run
 * mode, the SoC name, CANN attributes.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/process.h"
#include "openacl/openacl.h"
#include "common/env.h"
#include "common/errmsg.h"
#include "hal/hal.h"
#include "prof/prof.h"

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  ACL__PROF_API_SCOPE();
  /* Works before aclInit, as on the vendor stack.  openacl drives its
   * devices from the host, like a PCIe card. */
  if (runMode == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "runMode is NULL");
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

/* Before aclInit the name comes from a discovery of its own, done once and
 * kept: the vendor answers without aclInit too (its tools probe the SoC to
 * choose a build target), from a runtime singleton it caches. */
static char acl__soc_probed[64];
static pthread_once_t acl__soc_once = PTHREAD_ONCE_INIT;

static void acl__soc_probe(void) {
  acl__env env;
  memset(&env, 0, sizeof(env));
  acl__hal_info *info = calloc(1, sizeof(*info));
  if (info != NULL && acl__env_load(&env, NULL) == ACL_SUCCESS) {
    acl__hal_discover(&env, info);
    if (info->visible_count > 0)
      memcpy(acl__soc_probed, info->soc_name, sizeof(acl__soc_probed) - 1);
  }
  acl__env_free(&env);
  free(info);
}

const char *aclrtGetSocName(void) {
  ACL__PROF_API_SCOPE();
  const acl__hal_info *h = acl__process_hal_info();
  if (h != NULL)
    return h->soc_name;
  pthread_once(&acl__soc_once, acl__soc_probe);
  if (acl__soc_probed[0] == '\0') {
    ACL__FAIL(ACL_ERROR_RT_NO_DEVICE, "no device is visible, so there is no SoC to name");
    return NULL;
  }
  return acl__soc_probed;
}

aclError openaclGetVisibleDeviceCount(uint32_t *count) {
  if (count == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "count is NULL");
  *count = 0;
  const acl__hal_info *h = acl__process_hal_info();
  acl__hal_info *probed = NULL;
  acl__env env;
  memset(&env, 0, sizeof(env));
  if (h == NULL) { /* before aclInit: discover now, as aclInit would */
    probed = calloc(1, sizeof(*probed));
    int rc = probed == NULL ? ACL_ERROR_BAD_ALLOC : acl__env_load(&env, NULL);
    if (rc == ACL_SUCCESS)
      acl__hal_discover(&env, probed);
    acl__env_free(&env);
    if (rc != ACL_SUCCESS) {
      free(probed);
      return ACL__FAIL(rc, "out of host memory while reading the environment");
    }
    h = probed;
  }
  aclError ret = ACL_SUCCESS;
  if (h->visibility_error[0] != '\0')
    ret = ACL__FAIL(ACL_ERROR_RT_INVALID_DEVICEID,
                    "no device is visible because %s. Remedy: fix the variable, or unset it to see every device",
                    h->visibility_error);
  else
    *count = (uint32_t)h->visible_count;
  free(probed);
  return ret;
}

/* The simulated NPU computes in IEEE float on the host, so Inf/NaN behave
 * as IEEE says; bf16 and JIT compilation are not offered. */
static const aclCannAttr acl__cann_attrs[] = {ACL_CANN_ATTR_INF_NAN};

aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num) {
  ACL__PROF_API_SCOPE();
  if (cannAttrList == NULL || num == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", cannAttrList == NULL ? "cannAttrList" : "num");
  *cannAttrList = acl__cann_attrs;
  *num = sizeof(acl__cann_attrs) / sizeof(acl__cann_attrs[0]);
  return ACL_SUCCESS;
}

aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value) {
  ACL__PROF_API_SCOPE();
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
