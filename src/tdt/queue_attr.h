/* queue_attr.h - queue attributes (queue_attr.c) as acltdtCreateQueue reads them. */
#ifndef OPENACL_TDT_QUEUE_ATTR_H
#define OPENACL_TDT_QUEUE_ATTR_H

#include <stdint.h>

#include "acl/acl_tdt_queue.h"

#define ACL__TDT_QUEUE_DEPTH_DEFAULT 8u

const char *acl__tdt_queue_attr_name(const acltdtQueueAttr *attr);
uint32_t acl__tdt_queue_attr_depth(const acltdtQueueAttr *attr);

#endif
