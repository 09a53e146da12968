/*
 * process.h - the process-wide state that aclInit sets up and aclFinalize
 * tears down, as seen by the rest of the library.
 */
#ifndef OPENACL_ACL_PROCESS_H
#define OPENACL_ACL_PROCESS_H

#include "common/config.h"
#include "common/env.h"
#include "hal/hal.h"

/* 0 when openacl is initialised.  Otherwise records a failure of `api` that
 * says what to call first (naming fork() when the state was inherited from a
 * parent process) and returns ACL_ERROR_UNINITIALIZE. */
int acl__process_require_init(const char *api);

/* Device information collected by aclInit; NULL before aclInit.  Valid until
 * aclFinalize. */
const acl__hal_info *acl__process_hal_info(void);
/* OPENACL_PRECISION_MODE as aclInit read it: an ACL__PREC_* value (float32
 * when not initialised). */
int acl__process_precision_mode(void);

/* fork() handlers (fork.c registers them once per process). */
void acl__process_atfork_prepare(void);
void acl__process_atfork_parent(void);
void acl__process_atfork_child(void);
void acl__fork_register_handlers(void);

#endif
