/*
 * params.h - process-wide runtime parameters (params.c): the system
 * parameter options of aclrtSetSysParamOpt / aclrtCtxSetSysParamOpt and the
 * operator timeouts of aclrtSetOpExecuteTimeOut* / aclrtSetOpWaitTimeout.
 * The public entry points are in src/acl/sysparam_api.c.
 */
#ifndef OPENACL_RT_PARAMS_H
#define OPENACL_RT_PARAMS_H

#include <stdint.h>

#include "rt/rt.h"

#define ACL__SYSPARAM_COUNT 4 /* aclSysParamOpt values 0..3 */

/* The granularity of operator execution timeouts, in microseconds
 * (aclrtGetOpTimeOutInterval): timeouts are kept in whole milliseconds. */
#define ACL__OP_TIMEOUT_INTERVAL_US 1000u

/* Process scope.  get: 0 and *value, or 1 when the option was never set. */
void acl__params_sys_set(int opt, int64_t value);
int acl__params_sys_get(int opt, int64_t *value);
/* Context scope (acl__context.sysparam). */
void acl__params_ctx_set(acl__context *c, int opt, int64_t value);
int acl__params_ctx_get(const acl__context *c, int opt, int64_t *value);

/* Operator execution timeout in milliseconds; 0 = none was set (a kernel
 * may run as long as it needs).  Checked by kernel launches (kernel.c). */
void acl__params_op_exec_timeout_set_ms(uint64_t ms);
uint64_t acl__params_op_exec_timeout_ms(void);
/* Event wait timeout in seconds (aclrtSetOpWaitTimeout); 0 = never. */
void acl__params_op_wait_timeout_set_s(uint32_t s);
uint32_t acl__params_op_wait_timeout_s(void);

#endif
