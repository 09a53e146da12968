/*
 * label_api.c - the label functions of rt-breadth §7: argument checks, then
 * src/rt/label.c.  docs/labels.md says what works on openacl today.
 */
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/label.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtCreateLabel(aclrtLabel *label) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (label == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "label is NULL; pass where to store the new label");
  acl__context *c = acl__context_current(__func__, &rc);
  return c == NULL ? rc : acl__label_create(__func__, c, label);
}

aclError aclrtDestroyLabel(aclrtLabel label) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (label == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "label is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__label_destroy(__func__, label);
}

aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (labels == NULL || labelList == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", labels == NULL ? "labels" : "labelList");
  if (num == 0 || num > ACL__LABEL_MAX)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "num is %zu; a list holds 1 to %d labels", num, ACL__LABEL_MAX);
  acl__context *c = acl__context_current(__func__, &rc);
  return c == NULL ? rc : acl__label_list_create(__func__, c, labels, num, labelList);
}

aclError aclrtDestroyLabelList(aclrtLabelList labelList) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (labelList == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "labelList is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  return acl__label_list_destroy(__func__, labelList);
}

aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (label == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL%s", label == NULL ? "label" : "stream",
                     label == NULL ? "" : "; a label is set on a stream bound to a model runtime instance, never "
                                          "on the default stream");
  return acl__label_set(__func__, label, stream);
}

aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (ptr == NULL || labelList == NULL || stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     ptr == NULL ? "ptr" : labelList == NULL ? "labelList" : "stream");
  return acl__label_switch(__func__, ptr, maxValue, labelList, stream);
}
