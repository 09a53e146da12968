/*
 * dump_exception.c - exception dump outside models (dump.h): a failed
 * kernel launch (aclrtLaunchKernel & co.) under dump_scene aic_err_* writes
 * {root}/extra-info/data-dump/{device}/exception_info.{stream}.{task}.{YYYYMMDDHHMMSSmmm}
 * (the vendor's args-based variant: the header names the kernel, the one
 * "input" is the argument block as the program wrote it, dfx_message says
 * what failed); and the bodies of acldumpGetExceptionInfoPath and
 * acldumpSaveExceptionInfo (prof-dump §4.5).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "dump/dump.h"
#include "rt/exception.h"
#include "rt/kernel.h"

/* The root of exception files of the active configuration, or NULL when
 * exception dump is off (*c is then NULL, else a counted reference). */
static const char *exc_root(acl__dump_cfg **c) {
  *c = acl__dump_cfg_current();
  if (*c != NULL && (*c)->exception)
    return (*c)->exc_root != NULL ? (*c)->exc_root : ".";
  acl__dump_cfg_release(*c);
  *c = NULL;
  return NULL;
}

static void on_kernel_failed(const struct rtExceptionInfo *info) {
  acl__dump_cfg *c = NULL;
  const char *root = exc_root(&c);
  if (root == NULL)
    return;
  char fn[256] = "kernel", dir[PATH_MAX], name[256], stamp[32], msg[512];
  if (info->func != NULL)
    acl__kernel_function_name("exception dump", info->func, sizeof(fn), fn);
  snprintf(dir, sizeof(dir), "%s/extra-info/data-dump/%u", root, info->deviceid);
  acl__dump_stamp_ms(stamp, sizeof(stamp));
  snprintf(name, sizeof(name), "exception_info.%u.%u.%s", info->streamid, info->taskid, stamp);
  snprintf(msg, sizeof(msg), "kernel \"%s\": task %u on stream %u of device %u failed with %u", fn, info->taskid,
           info->streamid, info->deviceid, info->retcode);
  int64_t dims[1] = {(int64_t)info->args_len};
  acl__dump_tensor t = {1, ACL__ONNX_UINT8, 1, dims, info->args, info->args_len, (uint64_t)(uintptr_t)info->args};
  acl__dump_record rec = {dir, name, fn, NULL, NULL, msg, &t, info->args != NULL ? 1u : 0u, 0, 1, 0, 0};
  if (acl__dump_write(&rec) == 0)
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: exception dump of the failed kernel written to %s/%s", dir, name);
  acl__dump_cfg_release(c);
}

void acl__dump_exception_hook_install(void) { acl__exception_set_dump(on_kernel_failed); }

/* {root}/extra-info/data-dump/{device}, created and made canonical. */
static int device_dir(const char *api, const char *root, char *out, size_t n) {
  int32_t dev = 0;
  if (aclrtGetDevice(&dev) != ACL_SUCCESS)
    dev = 0;
  char tmp[PATH_MAX], real[PATH_MAX];
  snprintf(tmp, sizeof(tmp), "%s/extra-info/data-dump/%d", root, (int)dev);
  if (acl__dump_mkdirs(tmp) != 0 || realpath(tmp, real) == NULL)
    return acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                     "the exception dump directory '%s' cannot be created. Remedy: make the dump path writable", tmp);
  snprintf(out, n, "%s", real);
  return 0;
}

int acl__dump_exception_path_api(const char *api, char *path, size_t max_len) {
  int rc = 0;
  acl__dump_cfg *c = NULL;
  char dir[PATH_MAX];
  if (path == NULL || max_len <= 1)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s; pass a buffer of ACL_DUMP_MAX_FILE_PATH_LENGTH (4096) bytes",
                     path == NULL ? "path is NULL" : "maxLen is below 2");
  const char *root = exc_root(&c);
  if (root == NULL) {
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                   "exception dump is off. Remedy: set dump.dump_scene to \"aic_err_brief_dump\" (or norm/detail) in "
                   "acl.json or in the file given to aclmdlSetDump");
    goto done;
  }
  if ((rc = device_dir(api, root, dir, sizeof(dir))) != 0)
    goto done;
  if (strlen(dir) + 2 > max_len) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "maxLen %zu is too small for '%s/' (%zu bytes with its NUL)", max_len, dir, strlen(dir) + 2);
    goto done;
  }
  snprintf(path, max_len, "%s/", dir);
done:
  acl__dump_cfg_release(c);
  return rc;
}

/* The ONNX type matching an aclDataType, or 0 (raw bytes). */
static int onnx_of_acl(int32_t t) {
  switch (t) {
  case ACL_FLOAT:
    return ACL__ONNX_FLOAT;
  case ACL_FLOAT16:
    return ACL__ONNX_FLOAT16;
  case ACL_DOUBLE:
    return ACL__ONNX_DOUBLE;
  case ACL_BF16:
    return ACL__ONNX_BFLOAT16;
  case ACL_INT8:
    return ACL__ONNX_INT8;
  case ACL_UINT8:
    return ACL__ONNX_UINT8;
  case ACL_INT16:
    return ACL__ONNX_INT16;
  case ACL_UINT16:
    return ACL__ONNX_UINT16;
  case ACL_INT32:
    return ACL__ONNX_INT32;
  case ACL_UINT32:
    return ACL__ONNX_UINT32;
  case ACL_INT64:
    return ACL__ONNX_INT64;
  case ACL_UINT64:
    return ACL__ONNX_UINT64;
  case ACL_BOOL:
    return ACL__ONNX_BOOL;
  default:
    return 0;
  }
}

static int bad_name(const char *f) {
  if (f == NULL || f[0] == '\0')
    return 1;
  for (const char *p = f; (p = strstr(p, "..")) != NULL; p += 2)
    if ((p == f || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
      return 1;
  return 0;
}

int acl__dump_save_exception_api(const char *api, const char *file_name, const char *user_tag,
                                 const acldumpTensorInfo *tensors, size_t count) {
  int rc = 0;
  acl__dump_cfg *c = NULL;
  acl__dump_tensor *t = NULL;
  int64_t(*dims)[ACL_DUMP_MAX_SHAPE_NUM] = NULL;
  void **host = NULL;
  if (bad_name(file_name))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "fileName %s%s%s is %s; pass a plain name such as \"save_exception_info\"", file_name ? "\"" : "",
                     file_name ? file_name : "NULL", file_name ? "\"" : "",
                     file_name == NULL      ? "not given"
                     : file_name[0] == '\0' ? "empty"
                                            : "a path with a '..' part");
  if (tensors == NULL || count == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s; pass at least one acldumpTensorInfo",
                     tensors == NULL ? "tensors is NULL" : "tensorCount is 0");
  for (size_t i = 0; i < count; i++) {
    const acldumpTensorInfo *ti = &tensors[i];
    const char *why = ti->tensorAddr == NULL                  ? "tensorAddr is NULL"
                      : ti->tensorSize == 0                   ? "tensorSize is 0"
                      : ti->shapeNum > ACL_DUMP_MAX_SHAPE_NUM ? "shapeNum is above ACL_DUMP_MAX_SHAPE_NUM (25)"
                      : ti->originShapeNum > ACL_DUMP_MAX_SHAPE_NUM
                          ? "originShapeNum is above ACL_DUMP_MAX_SHAPE_NUM (25)"
                      : ti->addrType != ACL_DUMP_ADDR_RAW          ? "addrType is not ACL_DUMP_ADDR_RAW"
                      : ti->placement != ACL_DUMP_PLACEMENT_DEVICE ? "placement is not ACL_DUMP_PLACEMENT_DEVICE"
                                                                   : NULL;
    if (why != NULL)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "tensors[%zu]: %s", i, why);
  }
  const char *root = exc_root(&c);
  if (root == NULL) {
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                   "exception dump is off. Remedy: set dump.dump_scene to \"aic_err_brief_dump\" (or norm/detail) in "
                   "acl.json or in the file given to aclmdlSetDump");
    goto done;
  }
  char dir[PATH_MAX], name[PATH_MAX], stamp[32];
  if ((rc = device_dir(api, root, dir, sizeof(dir))) != 0)
    goto done;
  t = calloc(count, sizeof(*t));
  dims = calloc(count, sizeof(*dims));
  host = calloc(count, sizeof(*host));
  if (t == NULL || dims == NULL || host == NULL) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory");
    goto done;
  }
  for (size_t i = 0; i < count; i++) {
    const acldumpTensorInfo *ti = &tensors[i];
    if ((host[i] = malloc(ti->tensorSize)) == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for tensors[%zu]", i);
      goto done;
    }
    if (aclrtMemcpy(host[i], ti->tensorSize, ti->tensorAddr, ti->tensorSize, ACL_MEMCPY_DEVICE_TO_HOST) != 0) {
      rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "tensors[%zu]: %zu bytes at %p cannot be read as device memory of the current device", i,
                     ti->tensorSize, (void *)ti->tensorAddr);
      goto done;
    }
    for (uint32_t k = 0; k < ti->shapeNum; k++)
      dims[i][k] = (int64_t)ti->shape[k];
    int onnx = onnx_of_acl(ti->dataType);
    t[i] = (acl__dump_tensor){
        ti->type == ACL_DUMP_TENSOR_INPUT,  onnx, (int)ti->shapeNum, dims[i], host[i], ti->tensorSize,
        (uint64_t)(uintptr_t)ti->tensorAddr};
    if (onnx == 0) { /* raw bytes */
      t[i].rank = 1;
      dims[i][0] = (int64_t)ti->tensorSize;
    }
  }
  const char *base = strrchr(file_name, '/');
  base = base != NULL ? base + 1 : file_name;
  acl__dump_stamp_ms(stamp, sizeof(stamp));
  snprintf(name, sizeof(name), "%s.custom.%s", file_name, stamp);
  int has_tag = user_tag != NULL && user_tag[0] != '\0';
  acl__dump_record rec = {dir, name, base, has_tag ? "user_tag" : NULL, has_tag ? user_tag : NULL, NULL, t, count,
                          0,   0,    1,    0};
  if (acl__dump_write(&rec) != 0)
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__, "cannot write '%s/%s' (see the log)", dir, name);
done:
  for (size_t i = 0; host != NULL && i < count; i++)
    free(host[i]);
  free(host);
  free(dims);
  free(t);
  acl__dump_cfg_release(c);
  return rc;
}
