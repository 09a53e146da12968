/*
 * acl/acl_base_mdl.h - the base of the model API: the tensor descriptor
 * handle and its constants.  The tensor descriptor functions are declared
 * here once openacl implements them.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_MDL_H_
#define INC_EXTERNAL_ACL_ACL_BASE_MDL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of bounds of one dimension's range: [min, max]. */
#define ACL_TENSOR_SHAPE_RANGE_NUM 2
#define ACL_TENSOR_VALUE_RANGE_NUM 2
/* aclGetTensorDescNumDims returns this for a shape of unknown rank (-2). */
#define ACL_UNKNOWN_RANK 0xFFFFFFFFFFFFFFFE

/* Describes a tensor: element type, shape, format, name. */
typedef struct aclTensorDesc aclTensorDesc;

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_BASE_MDL_H_ */
