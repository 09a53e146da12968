/*
 * openacl/openacl.h - openacl's own extensions to the AscendCL API.
 *
 * Nothing here exists in the vendor's headers; programs that use these
 * functions build only against openacl.  Tools and bindings use them to
 * explain error codes and to show the effective configuration.
 */
#ifndef OPENACL_OPENACL_H_
#define OPENACL_OPENACL_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of openacl's error table.  All strings are static. */
typedef struct openaclErrorInfo {
  const char *name;     /* "ACL_ERROR_INVALID_PARAM" */
  aclError code;        /* 100000 */
  const char *meaning;  /* what the code says happened */
  const char *causes;   /* the usual reasons */
  const char *remedy;   /* what to do */
} openaclErrorInfo;

/* Looks a code up.  ACL_SUCCESS when found; ACL_ERROR_INVALID_PARAM when info
 * is NULL or the code is not one openacl knows (info->name is then NULL). */
ACL_FUNC_VISIBILITY aclError openaclGetErrorInfo(aclError code, openaclErrorInfo *info);
/* The same by name ("ACL_ERROR_RT_CONTEXT_NULL"). */
ACL_FUNC_VISIBILITY aclError openaclGetErrorInfoByName(const char *name, openaclErrorInfo *info);
/* The name of a code, or "UNKNOWN_ERROR"; never NULL. */
ACL_FUNC_VISIBILITY const char *openaclGetErrorName(aclError code);
/* Walks the whole table: index 0 .. openaclGetErrorCount()-1. */
ACL_FUNC_VISIBILITY size_t openaclGetErrorCount(void);
ACL_FUNC_VISIBILITY aclError openaclGetErrorInfoByIndex(size_t index, openaclErrorInfo *info);

/* The effective configuration of the running aclInit (defaults, acl.json,
 * environment, rounding applied) as a JSON object.  Copies at most bufSize
 * bytes including the NUL into buf (buf may be NULL with bufSize 0) and
 * writes the full size including the NUL to *needed.  ACL_ERROR_UNINITIALIZE
 * before aclInit; ACL_ERROR_INVALID_PARAM when buf is too small (with
 * *needed set) or needed is NULL. */
ACL_FUNC_VISIBILITY aclError openaclGetEffectiveConfig(char *buf, size_t bufSize, size_t *needed);

/* The warnings of this init cycle (the environment's and the configuration
 * file's), one line each: "warning <source>: <key path>: <message>", where
 * source is "environment", the file's path or "defaults"; "" when there were
 * none.  They reach the log and stderr only when the log level lets WARNING
 * lines through (docs/logging.md: the library prints nothing the log
 * settings do not ask for), so a tool or binding that wants to show them
 * asks here.  Copying and *needed as in
 * openaclGetEffectiveConfig; ACL_ERROR_UNINITIALIZE before aclInit. */
ACL_FUNC_VISIBILITY aclError openaclGetInitWarnings(char *buf, size_t bufSize, size_t *needed);

/* Validates an acl.json file exactly as aclInit would, without initialising.
 * Returns what aclInit would return for it (ACL_SUCCESS when valid).  When
 * report is not NULL it receives one line per problem, "error|warning
 * <key path>: <message>", or the effective configuration as JSON when the
 * file is valid; truncation and *needed work as in openaclGetEffectiveConfig
 * (a report that does not fit is truncated, never an error). */
ACL_FUNC_VISIBILITY aclError openaclCheckConfigFile(const char *path, char *report, size_t reportSize,
                                                    size_t *needed);

/* The path of the log file this process writes, or NULL when it writes none
 * (logging off, or to stderr because the directory is not writable). */
ACL_FUNC_VISIBILITY const char *openaclGetLogFilePath(void);

/* The number of devices this process can use, before or after aclInit: the
 * devices the backend offers (OPENACL_DEVICE_COUNT simulated ones) after
 * ASCEND_VISIBLE_DEVICES and ASCEND_RT_VISIBLE_DEVICES.  Before aclInit it
 * reads the environment at each call, so a launcher can check a device id
 * before initialising.  When a visibility variable is invalid, *count is 0
 * and the return is ACL_ERROR_RT_INVALID_DEVICEID with the reason for
 * aclGetRecentErrMsg (what aclrtSetDevice would say). */
ACL_FUNC_VISIBILITY aclError openaclGetVisibleDeviceCount(uint32_t *count);

/* Records a failure of `api` the way the runtime records its own: the
 * message "<api> failed: <NAME> (<code>): <detail>. Remedy: ..." (the table's
 * remedy unless detail has one) for aclGetRecentErrMsg, the calling thread's
 * last error for aclrtGetLastError, and an ERROR log line.  For bindings and
 * layers built on the API (the Python module) whose own checks fail.
 * Returns code.  A NULL api or detail is recorded as "(null)". */
ACL_FUNC_VISIBILITY aclError openaclRecordError(const char *api, aclError code, const char *detail);

/* How host code is kept out of device deviceId's memory (docs/memory.md):
 * "pkeys", "alias" or "off" (a static string).  Under "alias" device code
 * reaches device memory at other addresses than the ones host code holds,
 * so a pointer value a kernel writes into memory differs from the host's.
 * The device must be open (aclrtSetDevice): ACL_ERROR_RT_CONTEXT_NULL
 * otherwise; ACL_ERROR_RT_INVALID_DEVICEID for an id that is no device. */
ACL_FUNC_VISIBILITY aclError openaclGetMemoryProtection(int32_t deviceId, const char **mechanism);

/* A process using a shared simulated device (docs/processes.md). */
typedef struct openaclDeviceProcess {
  int32_t pid;
  uint64_t memoryBytes; /* device memory it holds */
  char name[16];        /* its command name */
} openaclDeviceProcess;

/* The processes of this user that use device deviceId (numbered as this
 * process numbers devices), read from the device's registry without opening
 * the device: up to maxCount of them into procs, how many there are into
 * *count (0 when none, or when devices are per process:
 * OPENACL_SHARED_DEVICE=0), the device's capacity and the bytes all of them
 * hold into *capacity and *inUse.  Needs aclInit; ACL_ERROR_INVALID_PARAM
 * for NULL outputs (procs may be NULL when maxCount is 0),
 * ACL_ERROR_RT_INVALID_DEVICEID for an id that is no device. */
ACL_FUNC_VISIBILITY aclError openaclGetDeviceProcesses(int32_t deviceId, openaclDeviceProcess *procs,
                                                       uint32_t maxCount, uint32_t *count, uint64_t *capacity,
                                                       uint64_t *inUse);

/* An aclmdlSetConfigOpt attribute of openacl's, outside the vendor's
 * aclmdlConfigAttr values: the precision mode aclmdlLoadWithConfig loads the
 * model in, named as the vendor's model converter names them
 * ("must_keep_origin_dtype", "allow_mix_precision", "force_fp16", ...;
 * docs/models.md, "Precision modes").  attrValue is the address of a
 * `const char *`, valueSize sizeof(const char *); the string is copied.  It
 * overrides OPENACL_PRECISION_MODE for that load. */
#define OPENACL_MDL_PRECISION_MODE_PTR 0x0A01

#ifdef __cplusplus
}
#endif

#endif
