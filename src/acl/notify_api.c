/*
 * notify_api.c - notifies, count notifies and IPC notifies of acl_rt.h
 * (ipc-vmm-graphs-tdt §3, docs/processes.md).  Argument checks follow the
 * vendor's layers (NULL pointers 100000 in the ACL layer, flags, modes and
 * counts 107000 in the runtime layer); the work is in src/rt/notify.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "prof/prof.h"
#include "rt/notify.h"
#include "rt/rt.h"

/* The notify of `h` and the stream to put its task on. */
static int acl__notify_and_stream(const char *api, const void *h, int count, aclrtStream stream, acl__notify **n,
                                  acl__stream **s) {
  int rc = 0;
  if ((*n = acl__notify_resolve(api, h, count, &rc)) == NULL)
    return rc;
  if ((*s = acl__stream_resolve(api, stream, &rc)) == NULL)
    return rc;
  return 0;
}

static int acl__notify_new_api(const char *api, void **out, uint64_t flag, int count) {
  if (out == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL; pass where to store it",
                     count ? "cntNotify" : "notify");
  if (flag > ACL_NOTIFY_DEVICE_USE_ONLY)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "flag is 0x%llx, not ACL_NOTIFY_DEFAULT (0) or ACL_NOTIFY_DEVICE_USE_ONLY (1)",
                     (unsigned long long)flag);
  int rc = 0;
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  acl__notify *n = NULL;
  if ((rc = acl__notify_create(api, c, count, &n)) == 0)
    *out = n;
  return rc;
}

/* ---- notifies ------------------------------------------------------------------- */

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag) {
  ACL__PROF_API_SCOPE();
  return acl__notify_new_api(__func__, notify, flag, 0);
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, notify, 0, &rc);
  return n == NULL ? rc : acl__notify_destroy(__func__, n);
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__notify *n = NULL;
  acl__stream *s = NULL;
  int rc = acl__notify_and_stream(__func__, notify, 0, stream, &n, &s);
  return rc != 0 ? rc : acl__notify_record(__func__, n, s, 0, 0);
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  ACL__PROF_API_SCOPE();
  acl__notify *n = NULL;
  acl__stream *s = NULL;
  int rc = acl__notify_and_stream(__func__, notify, 0, stream, &n, &s);
  if (rc != 0)
    return rc;
  if (acl__notify_imported(n))
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "notify %u was imported from another process; only the process that created an IPC notify "
                     "waits on it, importers record it. Remedy: wait in the creator, or use a notify of this "
                     "process",
                     acl__notify_id(n));
  /* timeout is in seconds (the vendor's documentation and runtime; its header says ms) */
  return acl__notify_wait(__func__, n, s, 0, 0, 1, timeout);
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId) {
  ACL__PROF_API_SCOPE();
  if (notifyId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "notifyId is NULL; pass where to store the id");
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, notify, 0, &rc);
  if (n == NULL)
    return rc;
  *notifyId = acl__notify_id(n);
  return 0;
}

aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num) {
  ACL__PROF_API_SCOPE();
  if (notifies == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "notifies is NULL");
  if (num == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "num is 0: give at least one notify");
  /* synchronous, from the host; stops at the first bad handle, as the vendor's does */
  for (size_t i = 0; i < num; i++) {
    int rc = 0;
    acl__notify *n = acl__notify_resolve(__func__, notifies[i], 0, &rc);
    if (n == NULL)
      return rc;
    acl__notify_clear(n);
  }
  return 0;
}

/* ---- IPC notifies --------------------------------------------------------------- */

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (notify == NULL || key == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", notify == NULL ? "notify" : "key");
  if (len < 65)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "len is %zu: a key takes up to 64 characters and its NUL. Remedy: pass a buffer of 65 bytes "
                     "or more, and len 65",
                     len);
  if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "flags is 0x%llx, not ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (0) or "
                     "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION (0x2)",
                     (unsigned long long)flags);
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, notify, 0, &rc);
  if (n == NULL)
    return rc;
  return acl__notify_export(__func__, n, flags == ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT, key, len);
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num) {
  ACL__PROF_API_SCOPE();
  if (notify == NULL || pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", notify == NULL ? "notify" : "pid");
  if (num == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "num is 0: give at least one pid");
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, notify, 0, &rc);
  if (n == NULL)
    return rc;
  return acl__notify_allow(__func__, n, pid, num);
}

aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids, size_t num) {
  ACL__PROF_API_SCOPE();
  if (notify == NULL || serverPids == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", notify == NULL ? "notify" : "serverPids");
  (void)num;
  /* The simulated device is one server: aclrtNotifySetImportPid is the whitelist. */
  return acl__not_supported(__func__, "", "an Atlas A3 super-node feature, as on the vendor's other chips");
}

aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (notify == NULL || key == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", notify == NULL ? "notify" : "key");
  /* bit 1: enable peer access with the creator's device (the simulated
   * devices reach each other's notifies anyway); bit 0: device use only */
  if (flags > (ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS | ACL_NOTIFY_DEVICE_USE_ONLY))
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "flags is 0x%llx: only ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS (0x2) and "
                     "ACL_NOTIFY_DEVICE_USE_ONLY (0x1) are defined",
                     (unsigned long long)flags);
  int rc = 0;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  acl__notify *n = NULL;
  if ((rc = acl__notify_import(__func__, c, key, &n)) == 0)
    *notify = n;
  return rc;
}

/* ---- count notifies ------------------------------------------------------------- */

aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag) {
  ACL__PROF_API_SCOPE();
  return acl__notify_new_api(__func__, cntNotify, flag, 1);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, cntNotify, 1, &rc);
  return n == NULL ? rc : acl__notify_destroy(__func__, n);
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo *info) {
  ACL__PROF_API_SCOPE();
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL");
  if (info->mode != ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE && info->mode != ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE &&
      info->mode != ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE && info->mode != ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "info->mode is %d, not an aclrtCntNotifyRecordMode (0 set, 1 add, 2 or, 4 and)", (int)info->mode);
  acl__notify *n = NULL;
  acl__stream *s = NULL;
  int rc = acl__notify_and_stream(__func__, cntNotify, 1, stream, &n, &s);
  return rc != 0 ? rc : acl__notify_record(__func__, n, s, (uint32_t)info->mode, info->value);
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo *info) {
  ACL__PROF_API_SCOPE();
  if (info == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "info is NULL");
  if ((unsigned)info->mode > ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "info->mode is %d, not an aclrtCntNotifyWaitMode (0 less, 1 equal, 2 bigger, 3 bigger or "
                     "equal, 4 equal with bitmask)",
                     (int)info->mode);
  acl__notify *n = NULL;
  acl__stream *s = NULL;
  int rc = acl__notify_and_stream(__func__, cntNotify, 1, stream, &n, &s);
  return rc != 0 ? rc
                 : acl__notify_wait(__func__, n, s, (uint32_t)info->mode, info->value, info->isClear != 0,
                                    info->timeout);
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  acl__notify *n = NULL;
  acl__stream *s = NULL;
  int rc = acl__notify_and_stream(__func__, cntNotify, 1, stream, &n, &s);
  return rc != 0 ? rc : acl__notify_reset_task(__func__, n, s);
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId) {
  ACL__PROF_API_SCOPE();
  if (notifyId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "notifyId is NULL; pass where to store the id");
  int rc = 0;
  acl__notify *n = acl__notify_resolve(__func__, cntNotify, 1, &rc);
  if (n == NULL)
    return rc;
  *notifyId = acl__notify_id(n);
  return 0;
}
