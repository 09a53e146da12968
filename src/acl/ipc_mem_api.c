/*
 * ipc_mem_api.c - IPC memory of acl_rt.h (ipc-vmm-graphs-tdt §1,
 * docs/processes.md): export keys, imports by key, pid whitelists and
 * closes (aclrtDeviceGetBareTgid is in device_query_api.c).  Argument checks follow the vendor's
 * layers (NULL pointers 100000 in the ACL layer, sizes and flags 107000 in
 * the runtime layer); the work is in src/rt/mem_ipc.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/mem_internal.h"
#include "rt/rt.h"
#include "prof/prof.h"

aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (devPtr == NULL || key == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", devPtr == NULL ? "devPtr" : "key");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "size is 0: export at least one byte");
  if (len < 65)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "len is %zu: a key takes up to 64 characters and its NUL. Remedy: pass a buffer of 65 bytes "
                     "or more, and len 65",
                     len);
  if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "flags is 0x%llx, not ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (0) or "
                     "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION (1)",
                     (unsigned long long)flags);
  int rc = 0;
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  return acl__mem_ipc_export(__func__, devPtr, size, flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT, key, len);
}

aclError aclrtIpcMemClose(const char *key) {
  ACL__PROF_API_SCOPE();
  if (key == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "key is NULL");
  return acl__mem_ipc_close(__func__, key);
}

aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags) {
  ACL__PROF_API_SCOPE();
  if (devPtr == NULL || key == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", devPtr == NULL ? "devPtr" : "key");
  if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "flags is 0x%llx, not ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT (0) or "
                     "ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS (1)",
                     (unsigned long long)flags);
  int rc = 0;
  acl__context *c = acl__context_current(__func__, &rc);
  if (c == NULL)
    return rc;
  return acl__mem_ipc_import(__func__, c->dev, key, devPtr);
}

aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num) {
  ACL__PROF_API_SCOPE();
  if (key == NULL || pid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", key == NULL ? "key" : "pid");
  if (num == 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "num is 0: give at least one pid");
  return acl__mem_ipc_allow(__func__, key, pid, num);
}

aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr) {
  ACL__PROF_API_SCOPE();
  if (key == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "key is NULL");
  if (type != ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "type is %d, not ACL_RT_IPC_MEM_ATTR_ACCESS_LINK (0)", (int)type);
  if (attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "attr is %llu, not an ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_* value (0..3)",
                     (unsigned long long)attr);
  /* The simulated device has one link, which every import uses. */
  return acl__not_supported(__func__, "", "an Atlas A3 super-node setting, as on the vendor's other chips");
}

aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num) {
  ACL__PROF_API_SCOPE();
  if (key == NULL || serverPids == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", key == NULL ? "key" : "serverPids");
  (void)num;
  /* The simulated device is one server: aclrtIpcMemSetImportPid is the whitelist. */
  return acl__not_supported(__func__, "", "an Atlas A3 super-node feature, as on the vendor's other chips");
}
