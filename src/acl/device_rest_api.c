/*
 * device_rest_api.c - the device functions of issue 10 §2 that need no
 * state of their own: the task scheduler choice, atomic capabilities, the
 * L2 cache flush, the float overflow status under its "Npu" names, memory
 * UCE information, managed-memory prefetch batches; and those the simulated
 * device cannot give a meaning, which say so (acl__not_supported).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/not_supported.h"
#include "acl/process.h"
#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/managed.h"
#include "rt/memory.h"
#include "rt/overflow.h"
#include "rt/rt.h"
#include "prof/prof.h"
#include "rt/graph.h"

aclError aclrtSetTsDevice(aclrtTsId tsId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "tsId %d is neither ACL_TS_ID_AICORE (0) nor ACL_TS_ID_AIVECTOR (1)",
                     (int)tsId);
  /* One scheduler (the executors) serves both kinds of cores here: either
   * choice is the one in effect. */
  return acl__context_current(__func__, &rc) == NULL ? rc : 0;
}

/* ---- atomics ---------------------------------------------------------------- */

/* What the simulated device's atomics can do for one operation: kernels are
 * host code, so every integer and float operation works on 8- to 64-bit
 * scalars (C11 atomics and compare-and-swap loops); none works on 128-bit
 * scalars or vectors, and DMA and SIMD forms do not exist. */
static uint32_t atomic_caps(aclrtAtomicOperation op) {
  const uint32_t scalars = ACL_RT_ATOMIC_CAPABILITY_SCALAR8 | ACL_RT_ATOMIC_CAPABILITY_SCALAR16 |
                           ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  switch (op) {
  case ACL_RT_ATOMIC_OPERATION_INTEGER_ADD:
  case ACL_RT_ATOMIC_OPERATION_INTEGER_MIN:
  case ACL_RT_ATOMIC_OPERATION_INTEGER_MAX:
  case ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT:
  case ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT:
    return ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED | scalars;
  case ACL_RT_ATOMIC_OPERATION_AND:
  case ACL_RT_ATOMIC_OPERATION_OR:
  case ACL_RT_ATOMIC_OPERATION_XOR:
  case ACL_RT_ATOMIC_OPERATION_EXCHANGE:
  case ACL_RT_ATOMIC_OPERATION_CAS:
    return ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED | scalars;
  case ACL_RT_ATOMIC_OPERATION_FLOAT_ADD:
  case ACL_RT_ATOMIC_OPERATION_FLOAT_MIN:
  case ACL_RT_ATOMIC_OPERATION_FLOAT_MAX:
    return ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
  default:
    return 0;
  }
}

static int atomic_query(const char *api, uint32_t *caps, const aclrtAtomicOperation *ops, uint32_t count) {
  if (caps == NULL || ops == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL",
                     caps == NULL ? "capabilities" : "operations");
  if (count == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "count is 0");
  for (uint32_t i = 0; i < count; i++)
    caps[i] = atomic_caps(ops[i]);
  return 0;
}

aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities, const aclrtAtomicOperation *operations,
                                              const uint32_t count, int32_t deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc) || acl__device_get(__func__, deviceId, &rc) == NULL)
    return rc;
  /* Device and host share the host's memory system: the same atomics. */
  return atomic_query(__func__, capabilities, operations, count);
}

aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities, const aclrtAtomicOperation *operations,
                                             const uint32_t count, int32_t srcDeviceId, int32_t dstDeviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc) || acl__device_get(__func__, srcDeviceId, &rc) == NULL ||
      acl__device_get(__func__, dstDeviceId, &rc) == NULL)
    return rc;
  if (srcDeviceId == dstDeviceId)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "srcDeviceId and dstDeviceId are both %d: peers are two devices",
                     (int)srcDeviceId);
  return atomic_query(__func__, capabilities, operations, count);
}

aclError aclrtDeviceL2CacheFlush(int32_t deviceId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  acl__device *d = acl__device_get(__func__, deviceId, &rc);
  if (d == NULL)
    return rc;
  /* The simulated device's "L2" is the host's coherent caches: what the
   * flush must guarantee - earlier device writes visible to later readers -
   * is a full fence. */
  atomic_thread_fence(memory_order_seq_cst);
  return 0;
}

/* ---- float overflow, under the vendor's "Npu" names ----------------------------- */

/* checkMode: the vendor passes 0 (the status of the whole device); any other
 * mode selects per-core statuses the simulated device does not keep. */
aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (outputAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "outputAddr is NULL. Remedy: pass 64 bytes of device memory");
  if (checkMode != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "checkMode is %u; only 0 (the device's status) is supported", checkMode);
  if (outputSize != 64)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "outputSize is %llu; the overflow status is 64 bytes",
                     (unsigned long long)outputSize);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  acl__ptr_info info;
  acl__mem_classify(outputAddr, &info);
  if (info.kind != ACL__PTR_DEVICE || info.dev != s->dev || info.alloc_size - info.offset < 64)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "outputAddr %p must point to 64 bytes of device memory of device %d, the stream's. Remedy: "
                     "aclrtMalloc the buffer on that device",
                     outputAddr, (int)s->dev->id);
  return acl__overflow_status_get(__func__, s, outputAddr);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (checkMode != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "checkMode is %u; only 0 (the device's status) is supported", checkMode);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__overflow_status_reset(__func__, s);
}

aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr) {
  ACL__PROF_API_SCOPE();
  if (overflowAddr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "overflowAddr is NULL");
  return acl__not_supported(__func__, "", "the overflow status is kept per device, not at a context address");
}

aclError aclrtGetHardwareSyncAddr(void **addr) {
  ACL__PROF_API_SCOPE();
  if (addr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "addr is NULL");
  return acl__not_supported(__func__, "", "the simulated device has no hardware synchronisation registers");
}

/* ---- memory UCE ----------------------------------------------------------------- */

aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize, size_t *retSize) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (memUceInfoArray == NULL || retSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", memUceInfoArray == NULL ? "memUceInfoArray" : "retSize");
  if (arraySize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "arraySize is 0");
  if (!acl__rt_live(__func__, &rc) || acl__device_get(__func__, deviceId, &rc) == NULL)
    return rc;
  /* Host memory reports no uncorrectable errors to openacl: none to list. */
  *retSize = 0;
  return 0;
}

aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize) {
  ACL__PROF_API_SCOPE();
  if (memUceInfoArray == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "memUceInfoArray is NULL");
  (void)deviceId;
  (void)arraySize;
  return acl__not_supported(__func__, "", "host memory has no uncorrectable-error pages to repair or isolate");
}

/* ---- snapshots ---------------------------------------------------------------- */

aclError aclrtSnapShotProcessLock(void) {
  ACL__PROF_API_SCOPE();
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

aclError aclrtSnapShotProcessUnlock(void) {
  ACL__PROF_API_SCOPE();
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

aclError aclrtSnapShotProcessBackup(void) {
  ACL__PROF_API_SCOPE();
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

aclError aclrtSnapShotProcessRestore(void) {
  ACL__PROF_API_SCOPE();
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback, void *args) {
  ACL__PROF_API_SCOPE();
  if (callback == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "callback is NULL");
  (void)stage;
  (void)args;
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback) {
  ACL__PROF_API_SCOPE();
  if (callback == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "callback is NULL");
  (void)stage;
  return acl__not_supported(__func__, "", "no driver holds the device state apart from the process to snapshot");
}

/* ---- stream tasks that belong to other features ------------------------------------ */

aclError aclrtPersistentTaskClean(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  return s == NULL ? rc : acl__graph_persistent_clean(__func__, s);
}

aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize) {
  ACL__PROF_API_SCOPE();
  if (infoPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "infoPtr is NULL");
  return acl__graph_cache_info(__func__, infoPtr, infoSize, 0);
}

aclError aclrtCacheLastTaskExtendInfo(const void *const infoPtr, const size_t infoSize) {
  ACL__PROF_API_SCOPE();
  if (infoPtr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "infoPtr is NULL");
  return acl__graph_cache_info(__func__, infoPtr, infoSize, 1);
}

aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  if (userdata == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "userdata is NULL");
  (void)length;
  (void)stream;
  return acl__not_supported(__func__, "", "the vendor does not document what a profiling trace records");
}

/* ---- managed memory: prefetch batches --------------------------------------------- */

typedef struct prefetch_range {
  const void *ptr;
  size_t size;
  aclrtMemManagedLocation loc;
} prefetch_range;

typedef struct prefetch_batch {
  size_t count;
  prefetch_range *r;
} prefetch_batch;

static int batch_run(acl__task *t) {
  prefetch_batch *b = acl__task_payload(t);
  for (size_t i = 0; i < b->count; i++)
    acl__managed_prefetch_run(b->r[i].ptr, b->r[i].size, b->r[i].loc);
  return 0;
}

static void batch_release(acl__task *t) {
  prefetch_batch *b = acl__task_payload(t);
  free(b->r);
  free(t);
}

/* Range i goes to prefetchLocs[j] for the last j with prefetchLocIdxs[j] <= i;
 * prefetchLocIdxs starts at 0 and increases (the layout of the batch copy
 * functions). */
aclError aclrtMemManagedPrefetchBatchAsync(const void **devPtrs, size_t *sizes, size_t count,
                                           aclrtMemManagedLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (!acl__rt_live(__func__, &rc))
    return rc;
  if (devPtrs == NULL || sizes == NULL || prefetchLocs == NULL || prefetchLocIdxs == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL",
                     devPtrs == NULL        ? "devPtrs"
                     : sizes == NULL        ? "sizes"
                     : prefetchLocs == NULL ? "prefetchLocs"
                                            : "prefetchLocIdxs");
  if (count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "count %zu / numPrefetchLocs %zu: both must be at least 1, and "
                     "numPrefetchLocs at most count",
                     count, numPrefetchLocs);
  if (flags != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "flags is %llu; it is reserved and must be 0", (unsigned long long)flags);
  if (prefetchLocIdxs[0] != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "prefetchLocIdxs[0] is %zu; it must be 0", prefetchLocIdxs[0]);
  for (size_t j = 1; j < numPrefetchLocs; j++)
    if (prefetchLocIdxs[j] <= prefetchLocIdxs[j - 1] || prefetchLocIdxs[j] >= count)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                       "prefetchLocIdxs[%zu] is %zu: the indexes must increase and stay below count (%zu)", j,
                       prefetchLocIdxs[j], count);
  prefetch_range *r = calloc(count, sizeof *r);
  if (r == NULL)
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for %zu ranges", count);
  size_t j = 0;
  for (size_t i = 0; i < count && rc == 0; i++) {
    while (j + 1 < numPrefetchLocs && prefetchLocIdxs[j + 1] <= i)
      j++;
    char what[48];
    snprintf(what, sizeof what, "prefetchLocs[%zu]", j);
    if (devPtrs[i] == NULL || sizes[i] == 0)
      rc = ACL__FAIL(ACL_ERROR_INVALID_PARAM, "range %zu: %s", i,
                     devPtrs[i] == NULL ? "devPtrs[i] is NULL" : "sizes[i] is 0");
    if (rc == 0)
      rc = acl__managed_check_range(__func__, devPtrs[i], sizes[i]);
    if (rc == 0)
      rc = acl__managed_check_location(__func__, what, prefetchLocs[j]);
    if (rc == 0 && prefetchLocs[j].type == ACL_MEM_LOCATIONTYPE_INVALID)
      rc = ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "%s.type is ACL_MEM_LOCATIONTYPE_INVALID: a prefetch needs a target",
                     what);
    r[i].ptr = devPtrs[i];
    r[i].size = sizes[i];
    r[i].loc = prefetchLocs[j];
  }
  acl__stream *s = rc == 0 ? acl__stream_resolve(__func__, stream, &rc) : NULL;
  if (s == NULL) {
    free(r);
    return rc;
  }
  acl__task *t = acl__task_new(sizeof(prefetch_batch), batch_run, NULL);
  if (t == NULL) {
    free(r);
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a task");
  }
  t->release = batch_release;
  snprintf(t->what, sizeof(t->what), "managed prefetch of %zu ranges", count);
  prefetch_batch *b = acl__task_payload(t);
  b->count = count;
  b->r = r;
  rc = acl__stream_submit(s, t);
  if (rc != 0)
    return ACL__FAIL(rc, "stream %d does not accept tasks: it is being destroyed", (int)s->id);
  return 0;
}
