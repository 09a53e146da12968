/*
 * acl/acl_base.h - the common base of every AscendCL header: gathers the
 * runtime base (acl_base_rt.h), the model base (acl_base_mdl.h) and both
 * tables of error codes.  It declares nothing of its own.
 */
#ifndef INC_EXTERNAL_ACL_ACL_BASE_H_
#define INC_EXTERNAL_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_base_rt.h"
#include "acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* INC_EXTERNAL_ACL_ACL_BASE_H_ */
