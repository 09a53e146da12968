/*
 * acl/acl_dump.h - the dump API's types: what to dump and how tensors are
 * described in a dump.  The acldump* functions are declared here once
 * openacl implements them.
 */
#ifndef INC_EXTERNAL_ACL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_ACL_DUMP_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acldumpType {
  AIC_ERR_BRIEF_DUMP = 1,
  AIC_ERR_NORM_DUMP = 2,
  AIC_ERR_DETAIL_DUMP = 3,
  DATA_DUMP = 4,
  OVERFLOW_DUMP = 5
} acldumpType;

typedef enum acldumpTensorType {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT = 1,
  ACL_DUMP_TENSOR_WORKSPACE = 2
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
  ACL_DUMP_ADDR_PTR = 0,
  ACL_DUMP_ADDR_PTR_PTR = 1,
  ACL_DUMP_ADDR_RAW = 2
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST = 1,
  ACL_DUMP_PLACEMENT_END = 2
} acldumpTensorPlacement;

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_DUMP_H_ */
