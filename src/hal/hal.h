/*
 * hal.h - what the API layer knows about devices before any is used.
 *
 * aclInit calls acl__hal_discover: it only reads what devices exist and how
 * the visibility variables map them (no backend is loaded, no thread
 * started, no memory reserved).  Devices are brought up at their first
 * aclrtSetDevice by the runtime layer.
 */
#ifndef OPENACL_HAL_HAL_H
#define OPENACL_HAL_HAL_H

#include <stdint.h>

#include "common/env.h"
#include "hal/backend.h"

typedef struct acl__hal_info {
  const acl__backend_ops *ops;        /* the backend OPENACL_BACKEND chose */
  acl__device_props props[ACL__ENV_MAX_DEVICES];  /* by physical id */
  int physical_count;                 /* devices the backend offers */
  int visible_count;                  /* after ASCEND_VISIBLE_DEVICES and ASCEND_RT_VISIBLE_DEVICES */
  int32_t user_to_physical[ACL__ENV_MAX_DEVICES];
  int32_t user_to_logical[ACL__ENV_MAX_DEVICES];  /* the ASCEND_RT_VISIBLE_DEVICES entry (= user id when unset) */
  char soc_name[64];
  char visibility_error[256];         /* "" when the visibility variables are valid */
} acl__hal_info;

/* Fills info from the environment and the backend's probe (which loads and
 * starts nothing).  Never fails: a bad visibility variable leaves
 * visible_count 0 and explains itself in visibility_error, which the device
 * calls report with ACL_ERROR_RT_INVALID_DEVICEID. */
void acl__hal_discover(const acl__env *env, acl__hal_info *info);

#endif
