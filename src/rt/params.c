/*
 * params.c - process-wide runtime parameters: system parameter options (a
 * process value and one per context) and operator timeouts.  Everything is
 * an atomic, because any thread may set or read them at any time and no
 * reader needs two of them to agree.
 *
 * They outlive aclFinalize, as the vendor's process-scope settings do: a
 * program that sets them once before a loop of aclInit/aclFinalize keeps
 * them.
 */
#include "rt/params.h"

#include <stdatomic.h>

static _Atomic int64_t sys_value[ACL__SYSPARAM_COUNT];
static atomic_uint sys_set_mask;
static _Atomic uint64_t op_exec_timeout_ms;
static atomic_uint op_wait_timeout_s;

void acl__params_sys_set(int opt, int64_t value) {
  atomic_store(&sys_value[opt], value);
  atomic_fetch_or(&sys_set_mask, 1u << opt);
}

int acl__params_sys_get(int opt, int64_t *value) {
  if ((atomic_load(&sys_set_mask) & (1u << opt)) == 0)
    return 1;
  *value = atomic_load(&sys_value[opt]);
  return 0;
}

void acl__params_ctx_set(acl__context *c, int opt, int64_t value) {
  atomic_store(&c->sysparam[opt], value);
  atomic_fetch_or(&c->sysparam_set, 1u << opt);
}

int acl__params_ctx_get(const acl__context *c, int opt, int64_t *value) {
  if ((atomic_load(&((acl__context *)c)->sysparam_set) & (1u << opt)) == 0)
    return 1;
  *value = atomic_load(&((acl__context *)c)->sysparam[opt]);
  return 0;
}

void acl__params_op_exec_timeout_set_ms(uint64_t ms) { atomic_store(&op_exec_timeout_ms, ms); }
uint64_t acl__params_op_exec_timeout_ms(void) { return atomic_load(&op_exec_timeout_ms); }
void acl__params_op_wait_timeout_set_s(uint32_t s) { atomic_store(&op_wait_timeout_s, s); }
uint32_t acl__params_op_wait_timeout_s(void) { return atomic_load(&op_wait_timeout_s); }
