/*
 * sysparam_api.c - system parameter options (process and context scope)
 * and operator timeouts: argument checks, then src/rt/params.c.
 *
 * The options are recorded and read back; the simulated device computes
 * deterministically whatever ACL_OPT_DETERMINISTIC says, and has no debug
 * kernels or early start to switch.  The operator execution timeout is
 * enforced by kernel launches (src/rt/kernel.c): blocks not yet started
 * when it expires do not run and the launch fails with
 * ACL_ERROR_RT_AICORE_TIMEOUT (507014).
 */
#include <stdint.h>

#include "acl/process.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/params.h"
#include "rt/rt.h"
#include "prof/prof.h"

static const char *const opt_names[ACL__SYSPARAM_COUNT] = {
    "ACL_OPT_DETERMINISTIC", "ACL_OPT_ENABLE_DEBUG_KERNEL", "ACL_OPT_STRONG_CONSISTENCY",
    "ACL_OPT_ENABLE_KERNEL_EARLY_START"};

/* The option and, for a set, its value: ACL_OPT_DETERMINISTIC takes 0 (off)
 * to 3 (batch consistency), the switches 0 or 1. */
static int check_opt(const char *api, aclSysParamOpt opt, int has_value, int64_t value) {
  if ((int)opt < 0 || (int)opt >= ACL__SYSPARAM_COUNT)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "opt %d is not an aclSysParamOpt value (0..%d)", (int)opt, ACL__SYSPARAM_COUNT - 1);
  int64_t max = opt == ACL_OPT_DETERMINISTIC ? 3 : 1;
  if (has_value && (value < 0 || value > max))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "value %lld for %s is out of range 0..%lld",
                     (long long)value, opt_names[opt], (long long)max);
  return 0;
}

static int not_set(const char *api, aclSysParamOpt opt, const char *scope) {
  return acl__fail(api, ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, __FILE__, __LINE__,
                   "%s has not been set for this %s. Remedy: set it first (aclrt%sSetSysParamOpt), or treat "
                   "107021 as \"the default applies\"",
                   opt_names[opt], scope, scope[0] == 'c' ? "Ctx" : "");
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  rc = check_opt(__func__, opt, 1, value);
  if (rc != 0)
    return rc;
  acl__params_sys_set((int)opt, value);
  return 0;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  ACL__PROF_API_SCOPE();
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  rc = check_opt(__func__, opt, 0, 0);
  if (rc != 0)
    return rc;
  return acl__params_sys_get((int)opt, value) == 0 ? 0 : not_set(__func__, opt, "process");
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
  ACL__PROF_API_SCOPE();
  int rc = check_opt(__func__, opt, 1, value);
  if (rc != 0)
    return rc;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  acl__params_ctx_set(c, (int)opt, value);
  return 0;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value) {
  ACL__PROF_API_SCOPE();
  if (value == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  int rc = check_opt(__func__, opt, 0, 0);
  if (rc != 0)
    return rc;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  return acl__params_ctx_get(c, (int)opt, value) == 0 ? 0 : not_set(__func__, opt, "context");
}

/* ---- operator timeouts ---------------------------------------------------- */

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  ACL__PROF_API_SCOPE();
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  acl__params_op_wait_timeout_set_s(timeout);
  return 0;
}

static int set_exec_ms(const char *api, uint64_t ms) {
  int rc = acl__process_require_init(api);
  if (rc != 0)
    return rc;
  acl__params_op_exec_timeout_set_ms(ms);
  return 0;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) { return set_exec_ms(__func__, (uint64_t)timeout * 1000u); }

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) { return set_exec_ms(__func__, timeout); }

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout) {
  ACL__PROF_API_SCOPE();
  if (actualTimeout == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "actualTimeout is NULL");
  if (timeout > UINT64_MAX - ACL__OP_TIMEOUT_INTERVAL_US)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timeout %llu us is too large", (unsigned long long)timeout);
  /* Rounded up to the interval, so a timeout is never shorter than asked. */
  uint64_t ms = (timeout + ACL__OP_TIMEOUT_INTERVAL_US - 1) / ACL__OP_TIMEOUT_INTERVAL_US;
  int rc = set_exec_ms(__func__, ms);
  if (rc == 0)
    *actualTimeout = ms * ACL__OP_TIMEOUT_INTERVAL_US;
  return rc;
}

aclError aclrtGetOpTimeOutInterval(uint64_t *interval) {
  ACL__PROF_API_SCOPE();
  if (interval == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "interval is NULL");
  *interval = ACL__OP_TIMEOUT_INTERVAL_US;
  return 0;
}

aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs) {
  ACL__PROF_API_SCOPE();
  if (timeoutMs == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timeoutMs is NULL");
  int rc = acl__process_require_init(__func__);
  if (rc != 0)
    return rc;
  uint64_t ms = acl__params_op_exec_timeout_ms();
  *timeoutMs = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
  return 0;
}
