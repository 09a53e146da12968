/*
 * acl/acl.h - the one header AscendCL programs include: the runtime API
 * (acl_rt.h), single operators (acl_op.h) and models (acl_mdl.h), and
 * through them the base types and every error code.  Profiling (acl_prof.h)
 * and the operator compiler (acl_op_compiler.h) are included separately, as
 * with the vendor.
 */
#ifndef INC_EXTERNAL_ACL_ACL_H_
#define INC_EXTERNAL_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* INC_EXTERNAL_ACL_ACL_H_ */
