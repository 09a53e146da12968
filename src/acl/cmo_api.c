/*
 * cmo_api.c - cache maintenance with descriptors and barriers
 * (aclrtCmoGetDescSize, aclrtCmoSetDesc, aclrtCmoAsyncWithDesc,
 * aclrtCmoAsyncWithBarrier, aclrtCmoWaitBarrier); docs/memory.md "Cache
 * maintenance" states the rules.
 *
 * The simulated device's caches are the host's, which are coherent: every
 * operation is a stream task that keeps its place in the stream's order and
 * does nothing else (the reference calls a no-op a faithful emulation for a
 * CPU backend).  A barrier wait is satisfied by that order: the operations
 * it names were queued earlier on the same stream and have finished when
 * it runs.  Arguments are checked as aclrtCmoAsync checks them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/mem_xfer.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "prof/prof.h"

/* A descriptor (device memory): what aclrtCmoSetDesc writes. */
#define ACL__CMO_DESC_SIZE 32u
#define ACL__CMO_DESC_MAGIC 0x4f41434c434d4f44ull /* "OACLCMOD" */
typedef struct acl__cmo_desc {
  uint64_t magic;
  uint64_t src;
  uint64_t size;
  uint64_t rsv;
} acl__cmo_desc;
_Static_assert(sizeof(acl__cmo_desc) == ACL__CMO_DESC_SIZE, "descriptor layout");

static int acl__cmo_type_valid(const char *api, const char *name, int type) {
  if (type < ACL_RT_CMO_TYPE_PREFETCH || type > ACL_RT_CMO_TYPE_FLUSH)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s %d is not an aclrtCmoType value (0..3)",
                     name, type);
  return 0;
}

/* `bytes` of live device memory at p, of device d (any device when NULL). */
static int acl__cmo_span(const char *api, const char *name, const void *p, size_t bytes, acl__device *d) {
  acl__ptr_info in;
  acl__mem_classify(p, &in);
  if (in.kind != ACL__PTR_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is %s, not a live device allocation. Remedy: aclrtMalloc it on the stream's device",
                     name, p, in.kind == ACL__PTR_DEVICE_UNALLOCATED ? "freed device memory" : acl__ptr_kind_text(&in));
  if (d != NULL && in.dev != d)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is memory of device %d, but the stream is on device %d", name, p, (int)in.dev->id,
                     (int)d->id);
  if (bytes > in.alloc_size - in.offset)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p needs %zu bytes, but only %zu are left in its %zu-byte allocation at %p", name, p, bytes,
                     in.alloc_size - in.offset, in.alloc_size, in.alloc_base);
  return 0;
}

/* ---- tasks ------------------------------------------------------------------- */

typedef struct acl__cmo_task {
  const void *desc; /* descriptor operations: read when the task runs; else NULL */
  acl__device *dev;
} acl__cmo_task;

static int acl__cmo_task_run(acl__task *t) {
  acl__cmo_task *p = acl__task_payload(t);
  if (p->desc == NULL)
    return 0; /* coherent caches: nothing to do but keep the stream's order */
  acl__cmo_desc d;
  memcpy(&d, acl__mem_dev_ptr(p->desc), sizeof d); /* executors have device access */
  acl__ptr_info in;
  acl__mem_classify((const void *)(uintptr_t)d.src, &in);
  if (d.magic != ACL__CMO_DESC_MAGIC || in.kind != ACL__PTR_DEVICE || in.dev != p->dev ||
      d.size > in.alloc_size - in.offset) {
    snprintf(t->what, sizeof t->what, "cache operation by descriptor %p: %s", p->desc,
             d.magic != ACL__CMO_DESC_MAGIC ? "descriptor not set" : "range is no live device memory");
    ACL__LOGE(ACL__MOD_RUNTIME,
              "aclrtCmoAsyncWithDesc: the descriptor at %p %s. Remedy: write it with aclrtCmoSetDesc and keep its "
              "range allocated until the operation has run",
              p->desc, d.magic != ACL__CMO_DESC_MAGIC ? "holds no descriptor" : "describes memory that is not live");
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  return 0;
}

static int acl__cmo_submit(const char *api, acl__stream *s, const void *desc, const char *what) {
  acl__task *t = acl__task_new(sizeof(acl__cmo_task), acl__cmo_task_run, NULL);
  if (t == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a task");
  snprintf(t->what, sizeof t->what, "%s", what);
  acl__cmo_task *p = acl__task_payload(t);
  p->desc = desc;
  p->dev = s->ctx->dev;
  int rc = acl__stream_submit(s, t);
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks: it is being destroyed", (int)s->id);
  return 0;
}

/* ---- descriptors ---------------------------------------------------------------- */

aclError aclrtCmoGetDescSize(size_t *size) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (size == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  *size = ACL__CMO_DESC_SIZE;
  return 0;
}

aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (cmoDesc == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", cmoDesc == NULL ? "cmoDesc" : "src");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  rc = acl__cmo_span(__func__, "cmoDesc", cmoDesc, ACL__CMO_DESC_SIZE, NULL);
  if (rc == 0)
    rc = acl__cmo_span(__func__, "src", src, size, NULL);
  if (rc != 0)
    return rc;
  acl__cmo_desc d;
  memset(&d, 0, sizeof d);
  d.magic = ACL__CMO_DESC_MAGIC;
  d.src = (uint64_t)(uintptr_t)src;
  d.size = size;
  /* Written into device memory as a host-to-device copy would write it. */
  acl__xfer w = {ACL__XFER_COPY, cmoDesc, &d, sizeof d, 1, sizeof d, sizeof d, 0, NULL, NULL, 0, NULL, 0, NULL};
  rc = acl__xfer_check(__func__, &w, ACL_MEMCPY_HOST_TO_DEVICE, sizeof d, sizeof d, 0);
  if (rc != 0)
    return rc;
  acl__xfer_now(&w);
  return 0;
}

aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void *reserve) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (cmoDesc == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "cmoDesc is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is not NULL; it is reserved and must be NULL");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  rc = acl__cmo_type_valid(__func__, "cmoType", (int)cmoType);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  rc = acl__cmo_span(__func__, "cmoDesc", cmoDesc, ACL__CMO_DESC_SIZE, s->ctx->dev);
  if (rc != 0)
    return rc;
  return acl__cmo_submit(__func__, s, cmoDesc, "cache operation by descriptor");
}

/* ---- barriers ------------------------------------------------------------------- */

aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "src is NULL");
  if (size == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "size is 0");
  if (!acl__rt_live(__func__, &rc))
    return rc;
  rc = acl__cmo_type_valid(__func__, "cmoType", (int)cmoType);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  rc = acl__cmo_span(__func__, "src", src, size, s->ctx->dev);
  if (rc != 0)
    return rc;
  char what[96];
  snprintf(what, sizeof what, "cache operation %d of %zu bytes, barrier %u", (int)cmoType, size, barrierId);
  return acl__cmo_submit(__func__, s, NULL, what);
}

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (taskInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
  if (flag != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flag is %u; it is reserved and must be 0", flag);
  if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "taskInfo->barrierNum is %zu; it must be 1..%u", taskInfo->barrierNum,
                     ACL_RT_CMO_MAX_BARRIER_NUM);
  if (!acl__rt_live(__func__, &rc))
    return rc;
  for (size_t i = 0; i < taskInfo->barrierNum; i++) {
    char name[48];
    snprintf(name, sizeof name, "taskInfo->cmoInfo[%zu].cmoType", i);
    rc = acl__cmo_type_valid(__func__, name, (int)taskInfo->cmoInfo[i].cmoType);
    if (rc != 0)
      return rc;
  }
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  char what[64];
  snprintf(what, sizeof what, "wait for %zu cache barrier%s", taskInfo->barrierNum,
           taskInfo->barrierNum == 1 ? "" : "s");
  return acl__cmo_submit(__func__, s, NULL, what);
}
