/*
 * queue_attr.c - acltdtQueueAttr: a queue's name and depth for
 * acltdtCreateQueue (name "" and depth 8 by default).  The struct is the
 * vendor's (opaque to users).  ACL_TDT_QUEUE_NAME_PTR values are pointers:
 * Set takes the address of a `const char *` and copies the string; Get
 * writes a `const char *` to the attribute's own copy.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/queue_attr.h"
#include "tdt/tdt.h"

struct tagMemQueueAttr {
  char name[ACL__TDT_NAME_MAX];
  uint32_t depth;
  uint32_t workMode;
  uint32_t flowCtrlDropTime;
  bool flowCtrlFlag;
  bool overWriteFlag;
  uint32_t deployType : 1;
  uint32_t resv : 31;
};

const char *acl__tdt_queue_attr_name(const acltdtQueueAttr *attr) { return attr->name; }
uint32_t acl__tdt_queue_attr_depth(const acltdtQueueAttr *attr) { return attr->depth; }

acltdtQueueAttr *acltdtCreateQueueAttr(void) {
  acltdtQueueAttr *a = calloc(1, sizeof *a);
  if (a == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a queue attribute set");
    return NULL;
  }
  a->depth = ACL__TDT_QUEUE_DEPTH_DEFAULT;
  acl__handle_register(a, ACL__H_TDT_QUEUE_ATTR);
  return a;
}

aclError acltdtDestroyQueueAttr(const acltdtQueueAttr *attr) {
  int rc = acl__tdt_check(__func__, "attr", attr, ACL__H_TDT_QUEUE_ATTR, "acltdtCreateQueueAttr");
  if (rc != 0)
    return rc;
  acl__handle_unregister((void *)attr);
  free((void *)attr);
  return 0;
}

static int check_type(const char *api, int type) {
  if (type != ACL_TDT_QUEUE_NAME_PTR && type != ACL_TDT_QUEUE_DEPTH_UINT32)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "type %d is not an acltdtQueueAttrType (ACL_TDT_QUEUE_NAME_PTR 0, ACL_TDT_QUEUE_DEPTH_UINT32 1)",
                     type);
  return 0;
}

aclError acltdtSetQueueAttr(acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len, const void *param) {
  int rc = acl__tdt_check(__func__, "attr", attr, ACL__H_TDT_QUEUE_ATTR, "acltdtCreateQueueAttr");
  if (rc == 0)
    rc = check_type(__func__, (int)type);
  if (rc != 0)
    return rc;
  if (param == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "param is NULL");
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    const char *name = NULL;
    if (len != sizeof name)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                       "len is %zu: ACL_TDT_QUEUE_NAME_PTR takes the address of a const char * (len %zu)", len,
                       sizeof name);
    memcpy(&name, param, sizeof name);
    if (name == NULL)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "the name pointer param points at is NULL");
    if (strlen(name) + 1 > sizeof attr->name)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "the name is %zu characters; the limit is %zu", strlen(name),
                       sizeof attr->name - 1);
    strcpy(attr->name, name);
    return 0;
  }
  if (len == 0 || len > sizeof attr->depth)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len is %zu: ACL_TDT_QUEUE_DEPTH_UINT32 is a uint32_t (1 to %zu bytes)",
                     len, sizeof attr->depth);
  uint32_t depth = 0;
  memcpy(&depth, param, len);
  attr->depth = depth;
  return 0;
}

aclError acltdtGetQueueAttr(const acltdtQueueAttr *attr, acltdtQueueAttrType type, size_t len, size_t *paramRetSize,
                            void *param) {
  int rc = acl__tdt_check(__func__, "attr", attr, ACL__H_TDT_QUEUE_ATTR, "acltdtCreateQueueAttr");
  if (rc == 0)
    rc = check_type(__func__, (int)type);
  if (rc != 0)
    return rc;
  if (param == NULL || paramRetSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", param == NULL ? "param" : "paramRetSize");
  size_t need = type == ACL_TDT_QUEUE_NAME_PTR ? sizeof(const char *) : sizeof attr->depth;
  if (len < need)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "len is %zu; the value takes %zu bytes", len, need);
  if (type == ACL_TDT_QUEUE_NAME_PTR) {
    const char *name = attr->name;
    memcpy(param, &name, sizeof name);
  } else {
    memcpy(param, &attr->depth, sizeof attr->depth);
  }
  *paramRetSize = need;
  return 0;
}
