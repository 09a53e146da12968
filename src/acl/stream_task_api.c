/*
 * stream_task_api.c - the device's built-in tasks: value writes and waits
 * (aclrtValueWrite / aclrtValueWait), element-wise reduction
 * (aclrtReduceAsync) and random numbers (aclrtRandomNumAsync).  Every
 * argument is checked here, at the call; the tasks are in src/rt/value.c,
 * reduce.c and random.c.
 *
 * Codes follow the vendor's layers: what its ACL layer checks (NULL
 * pointers, data types) gives ACL_ERROR_INVALID_PARAM, what its runtime
 * checks (flags, memory, sizes) gives ACL_ERROR_RT_PARAM_INVALID.
 */
#include <string.h>

#include "common/errmsg.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "rt/value.h"
#include "prof/prof.h"

/* [p, p + n) must lie inside one live allocation that device code reaches:
 * device memory (of device `dev` when not NULL), managed memory, or the
 * device-side address of registered host memory.  0, or a recorded
 * ACL_ERROR_RT_PARAM_INVALID naming `name`.  *room: the bytes from p to the
 * allocation's end. */
static int acl__device_range(const char *api, const char *name, const void *p, uint64_t n, acl__device *dev,
                             size_t *room) {
  acl__ptr_info in;
  acl__mem_classify(p, &in);
  int reachable = in.kind == ACL__PTR_DEVICE || in.kind == ACL__PTR_MANAGED ||
                  (in.kind == ACL__PTR_REGISTERED_DEVICE && in.alloc_base != NULL);
  if (!reachable)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is not in a live device allocation (%s). Remedy: pass memory from aclrtMalloc", name, p,
                     in.kind == ACL__PTR_DEVICE_UNALLOCATED ? "freed already, or never allocated" : "host memory");
  if (dev != NULL && in.kind == ACL__PTR_DEVICE && in.dev != dev)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is memory of device %d, but the stream belongs to device %d. Remedy: use memory of the "
                     "stream's device",
                     name, p, (int)in.dev->id, (int)dev->id);
  if (n > in.alloc_size - in.offset)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%s %p is %zu bytes into a %zu-byte allocation: %llu bytes from there run past its end", name, p,
                     in.offset, in.alloc_size, (unsigned long long)n);
  if (room != NULL)
    *room = in.alloc_size - in.offset;
  return 0;
}

/* ---- value writes and waits ------------------------------------------------------- */

static int acl__value_api(const char *api, void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream,
                          int is_wait) {
  int rc = 0;
  if (devAddr == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "devAddr is NULL");
  if (!is_wait && flag != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "flag %u is reserved and must be 0",
                     flag);
  if (is_wait && flag > ACL_STREAM_WAIT_VALUE_NOR)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "flag %u is not a condition: use ACL_STREAM_WAIT_VALUE_GEQ (0), _EQ (1), _AND (2) or _NOR (3)",
                     flag);
  if (((uintptr_t)devAddr & 7u) != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "devAddr %p is not 8-byte aligned; the value is one 64-bit word", devAddr);
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__device_range(api, "devAddr", devAddr, 8, NULL, NULL)) != 0)
    return rc;

  rc = acl__value_submit(s, devAddr, value, flag, is_wait);
  if (rc != ACL_ERROR_RT_STREAM_CONTEXT && rc != ACL_ERROR_BAD_ALLOC)
    return rc; /* 0, or a capture refused it and said why (graph.c) */
  return acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks (it is being destroyed, or out of "
                     "host memory)", s->id);
}

aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  return acl__value_api(__func__, devAddr, value, flag, stream, 0);
}

aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  return acl__value_api(__func__, devAddr, value, flag, stream, 1);
}

/* ---- reduction ------------------------------------------------------------------ */

/* Bytes per element; 0 for a type the reduction does not take (INT4: 1,
 * two elements to a byte). */
static size_t acl__reduce_elem(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32: return 4;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
  case ACL_UINT16: return 2;
  case ACL_INT8:
  case ACL_UINT8:
  case ACL_INT4: return 1;
  default: return 0;
  }
}

aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void *reserve) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (dst == NULL || src == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", dst == NULL ? "dst" : "src");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "reserve is reserved and must be NULL");
  size_t esize = acl__reduce_elem(type);
  if (esize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "type %d cannot be reduced: use ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, "
                     "ACL_INT32, ACL_INT4, ACL_UINT8, ACL_UINT16 or ACL_UINT32",
                     (int)type);
  if (kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "kind %d is not an aclrtReduceKind (ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM 10 .. _EQUAL 13)",
                     (int)kind);
  if (count == 0 || count % esize != 0)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "count %llu is not a positive multiple of the element size (%zu bytes); count is in bytes",
                     (unsigned long long)count, esize);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__device_range(__func__, "dst", dst, count, s->dev, NULL)) != 0 ||
      (rc = acl__device_range(__func__, "src", src, count, s->dev, NULL)) != 0)
    return rc;
  rc = acl__reduce_submit(s, acl__mem_dev_ptr(dst), acl__mem_dev_ptr(src), count, kind, type);
  if (rc != ACL_ERROR_RT_STREAM_CONTEXT && rc != ACL_ERROR_BAD_ALLOC)
    return rc; /* 0, or a capture refused it and said why (graph.c) */
  return ACL__FAIL(rc, "stream %d does not accept tasks (it is being destroyed, or out of host memory)", s->id);
}

/* ---- random numbers ---------------------------------------------------------------- */

static size_t acl__random_size(aclDataType t) {
  switch (t) {
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32: return 4;
  case ACL_FLOAT16:
  case ACL_BF16: return 2;
  case ACL_INT64:
  case ACL_UINT64: return 8;
  default: return 0;
  }
}

/* Decodes one aclrtRandomParaInfo; want_size 0: any size from 1 to 8. */
static int acl__random_param_of(const char *name, const aclrtRandomParaInfo *in, size_t want_size,
                                acl__random_param *out) {
  if (in->isAddr > 1)
    return acl__fail("aclrtRandomNumAsync", ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "%s.isAddr is %u: use 0 (a value) or 1 (a device address)", name,
                     in->isAddr);
  if (in->size == 0 || in->size > 8 || (want_size != 0 && in->size != want_size))
    return acl__fail("aclrtRandomNumAsync", ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "%s.size is %u bytes; it must be %s", name, in->size,
                     want_size == 2 ? "2 for this data type" : want_size == 4 ? "4 for this data type"
                     : want_size == 8                                        ? "8 for this data type"
                                                                             : "1 to 8");
  memset(out, 0, sizeof(*out));
  out->is_addr = in->isAddr;
  out->size = in->size;
  if (in->isAddr) {
    uint64_t a = 0;
    for (int i = 7; i >= 0; i--)
      a = (a << 8) | in->valueOrAddr[i];
    int rc = acl__device_range("aclrtRandomNumAsync", name, (const void *)(uintptr_t)a, in->size, NULL, NULL);
    out->addr = acl__mem_dev_ptr((const void *)(uintptr_t)a); /* read by the task */
    return rc;
  }
  memcpy(out->bytes, in->valueOrAddr, in->size);
  return 0;
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream, void *reserve) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (taskInfo == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "taskInfo is NULL");
  if (reserve != NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "reserve is reserved and must be NULL");
  acl__random_job job;
  memset(&job, 0, sizeof(job));
  job.type = taskInfo->dataType;
  job.func = taskInfo->randomNumFuncParaInfo.funcType;
  size_t esize = acl__random_size(job.type);
  if (esize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataType %d is not taken: use ACL_INT32, ACL_INT64, ACL_UINT32, ACL_UINT64, ACL_BF16, "
                     "ACL_FLOAT16 or ACL_FLOAT",
                     (int)job.type);
  if ((unsigned)job.func > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "funcType %d is not an aclrtRandomNumFuncType (DROPOUT_BITMASK 0 .. TRUNCATED_NORMAL_DIS 3)",
                     (int)job.func);
  int is_float = job.type == ACL_FLOAT || job.type == ACL_FLOAT16 || job.type == ACL_BF16;
  if (job.func != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS && !is_float)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                     "%s takes a floating-point dataType (ACL_FLOAT, ACL_FLOAT16, ACL_BF16), not %d",
                     job.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? "the dropout bitmask (its ratio)"
                                                                            : "a normal distribution",
                     (int)job.type);
  const aclrtRandomNumFuncParaInfo *f = &taskInfo->randomNumFuncParaInfo;
  switch (job.func) {
  case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
    rc = acl__random_param_of("dropoutRation", &f->paramInfo.dropoutBitmaskInfo.dropoutRation, esize, &job.p1);
    break;
  case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
    if ((rc = acl__random_param_of("min", &f->paramInfo.uniformDisInfo.min, esize, &job.p1)) == 0)
      rc = acl__random_param_of("max", &f->paramInfo.uniformDisInfo.max, esize, &job.p2);
    break;
  default:
    if ((rc = acl__random_param_of("mean", &f->paramInfo.normalDisInfo.mean, esize, &job.p1)) == 0)
      rc = acl__random_param_of("stddev", &f->paramInfo.normalDisInfo.stddev, esize, &job.p2);
    break;
  }
  if (rc != 0)
    return rc;
  if ((rc = acl__random_param_of("randomSeed", &taskInfo->randomSeed, 0, &job.seed)) != 0 ||
      (rc = acl__random_param_of("randomNum", &taskInfo->randomNum, 0, &job.num)) != 0)
    return rc;
  if (taskInfo->randomResultAddr == NULL || taskInfo->randomCounterAddr == NULL)
    return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID, "%s is NULL; pass device memory",
                     taskInfo->randomResultAddr == NULL ? "randomResultAddr" : "randomCounterAddr");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  size_t room = 0;
  if ((rc = acl__device_range(__func__, "randomCounterAddr", taskInfo->randomCounterAddr, 16, s->dev, NULL)) != 0 ||
      (rc = acl__device_range(__func__, "randomResultAddr", taskInfo->randomResultAddr, 1, s->dev, &room)) != 0)
    return rc;
  if (taskInfo->randomParaAddr != NULL &&
      (rc = acl__device_range(__func__, "randomParaAddr", taskInfo->randomParaAddr, 1, s->dev, NULL)) != 0)
    return rc;
  if (!job.num.is_addr) {
    uint64_t n = 0;
    for (int i = job.num.size - 1; i >= 0; i--)
      n = (n << 8) | job.num.bytes[i];
    uint64_t need = job.func == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK ? (n + 7) / 8 : n * esize;
    if (need > room)
      return ACL__FAIL(ACL_ERROR_RT_PARAM_INVALID,
                       "randomNum %llu needs %llu bytes at randomResultAddr, but only %zu remain in its allocation",
                       (unsigned long long)n, (unsigned long long)need, room);
  }
  job.result = acl__mem_dev_ptr(taskInfo->randomResultAddr);
  job.counter = acl__mem_dev_ptr(taskInfo->randomCounterAddr);
  rc = acl__random_submit(s, &job, room);
  if (rc != 0)
    return ACL__FAIL(rc, "stream %d does not accept tasks (it is being destroyed, or out of host memory)", s->id);
  return 0;
}
