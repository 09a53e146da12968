/*
 * tx.c - msproftx: user stamps, markers, push/pop and start/stop ranges,
 * aclprofMarkEx (a marker task on a stream), aclprofStr2Id,
 * aclprofRangePushEx/Pop, and step info (aclprofGetStepTimestamp).
 * Everything is recorded as PREC_TX / PREC_STEP records of the session.
 *
 * The vendor's codes (prof-dump.md §1.7): before msproftx collection runs
 * CreateStamp returns NULL and Mark/Push/Pop/RangeStart/RangeStop/MarkEx
 * return -1 (its internal PROFILING_FAILED), which is what programs see.
 *
 * Locks: range_lock guards the open start/stop ranges and the one
 * outstanding RangePushEx (a leaf).  Push/pop stacks are per thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "common/errmsg.h"
#include "prof/prof_internal.h"
#include "rt/rt.h"

#define STAMP_MAGIC 0x73746d70u /* "stmp" */
#define MSG_MAX 128
#define STACK_MAX 64
#define PROF_FAILED (-1)

typedef struct stamp {
  uint32_t magic;
  char msg[MSG_MAX];
} stamp;

struct aclprofStepInfo {
  uint32_t magic;
  uint64_t index;
  int started, ended;
};
#define STEP_MAGIC 0x73746570u /* "step" */

typedef struct open_range {
  uint32_t id;
  uint32_t tid;
  uint64_t t0;
  const char *msg;
} open_range;

static pthread_mutex_t range_lock = PTHREAD_MUTEX_INITIALIZER;
static open_range *ranges; /* range_lock */
static size_t n_ranges, cap_ranges;
static uint32_t next_range_id = 1;
static aclprofEventAttributes *push_ex;     /* range_lock: the outstanding RangePushEx */
static uint64_t push_ex_t0;
static atomic_ullong next_step = 1;

static _Thread_local struct {
  const char *msg;
  uint64_t t0;
} stack[STACK_MAX];
static _Thread_local int depth;

void acl__prof_tx_record(int type, const char *msg, const char *domain, uint64_t t0, uint64_t t1, uint64_t id,
                         int32_t stream, int16_t device) {
  acl__prof_rec *r = acl__prof_slot();
  if (r == NULL)
    return;
  r->kind = PREC_TX;
  r->sub = (uint8_t)type;
  r->t0 = t0;
  r->t1 = t1;
  r->seq = id;
  r->stream = stream;
  r->device = device;
  r->ptr = msg;
  r->domain = domain;
  acl__prof_commit();
}

static void tx_record(int type, const char *msg, uint64_t t0, uint64_t t1, uint64_t id, int32_t stream,
                      int16_t device) {
  acl__prof_tx_record(type, msg, NULL, t0, t1, id, stream, device);
}

static int not_running(const char *api) {
  return acl__fail(api, PROF_FAILED, __FILE__, __LINE__,
                   "msproftx collection is not running. Remedy: call it between aclprofStart and aclprofStop of a "
                   "configuration with ACL_PROF_MSPROFTX (or acl.json profiler.msproftx \"on\")");
}

static const stamp *stamp_of(void *p) {
  const stamp *s = p;
  return s != NULL && s->magic == STAMP_MAGIC ? s : NULL;
}

void *aclprofCreateStamp(void) {
  if (!acl__prof_tx_active()) {
    not_running(__func__);
    return NULL;
  }
  stamp *s = calloc(1, sizeof(*s));
  if (s == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a stamp");
    return NULL;
  }
  s->magic = STAMP_MAGIC;
  return s;
}

void aclprofDestroyStamp(void *stamp_) {
  stamp *s = stamp_;
  if (s == NULL || s->magic != STAMP_MAGIC)
    return; /* the vendor only logs */
  s->magic = 0;
  free(s);
}

aclError aclprofSetStampTraceMessage(void *stamp_, const char *msg, uint32_t msgLen) {
  stamp *s = stamp_;
  if (s == NULL || s->magic != STAMP_MAGIC)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stamp %p is no live stamp of aclprofCreateStamp", stamp_);
  if (msg == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "msg is NULL");
  if (msgLen >= MSG_MAX)
    return ACL__FAIL(PROF_FAILED, "msgLen %u is too long: a stamp's message holds at most %d bytes", msgLen,
                     MSG_MAX - 1);
  size_t n = strnlen(msg, msgLen);
  memcpy(s->msg, msg, n);
  s->msg[n] = '\0';
  return 0;
}

aclError aclprofMark(void *stamp_) {
  if (!acl__prof_tx_active())
    return not_running(__func__);
  const stamp *s = stamp_of(stamp_);
  if (s == NULL)
    return ACL__FAIL(PROF_FAILED, "stamp %p is no live stamp of aclprofCreateStamp", stamp_);
  uint64_t t = acl__prof_now();
  tx_record(PTX_MARKER, acl__prof_strdup(s->msg, strlen(s->msg)), t, t, 0, -1, -1);
  return 0;
}

static int marker_task_run(acl__task *t) {
  (void)t;
  return 0;
}

/* The device side of a mark: a marker task on the stream, which the
 * executors record on the stream's track. */
int acl__prof_tx_marker_task(const char *api, void *stream, const char *msg, int32_t *stream_id, int16_t *device,
                             uint64_t *seq) {
  int rc = 0;
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  acl__task *task = acl__task_new(0, marker_task_run, NULL);
  if (task == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the marker task");
  snprintf(task->what, sizeof(task->what), "msproftx %s", msg);
  rc = acl__stream_submit_seq(s, task, seq);
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__, "the stream no longer accepts work (it is being destroyed)");
  *stream_id = s->id;
  *device = (int16_t)s->dev->id;
  return 0;
}

aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream) {
  if (!acl__prof_tx_active())
    return not_running(__func__);
  if (msg == NULL || stream == NULL)
    return ACL__FAIL(PROF_FAILED, "%s is NULL; aclprofMarkEx needs a message and a stream",
                     msg == NULL ? "msg" : "stream");
  if (msgLen == 0 || msgLen > 155 || strnlen(msg, 156) != msgLen)
    return ACL__FAIL(PROF_FAILED, "msgLen %zu must be strlen(msg) and from 1 to 155", msgLen);
  uint64_t t = acl__prof_now();
  const char *m = acl__prof_strdup(msg, msgLen);
  int32_t sid = -1;
  int16_t dev = -1;
  uint64_t seq = 0;
  int rc = acl__prof_tx_marker_task(__func__, stream, m, &sid, &dev, &seq);
  if (rc != 0)
    return rc;
  tx_record(PTX_MARKER_EX, m, t, t, seq, sid, dev);
  return 0;
}

aclError aclprofPush(void *stamp_) {
  if (stamp_ == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stamp is NULL");
  if (!acl__prof_tx_active())
    return not_running(__func__);
  const stamp *s = stamp_of(stamp_);
  if (s == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stamp %p is no live stamp of aclprofCreateStamp", stamp_);
  if (depth >= STACK_MAX)
    return ACL__FAIL(PROF_FAILED, "more than %d nested aclprofPush on this thread", STACK_MAX);
  stack[depth].msg = acl__prof_strdup(s->msg, strlen(s->msg));
  stack[depth].t0 = acl__prof_now();
  depth++;
  return 0;
}

aclError aclprofPop(void) {
  if (!acl__prof_tx_active())
    return not_running(__func__);
  if (depth == 0)
    return ACL__FAIL(PROF_FAILED, "no aclprofPush of this thread is open. Remedy: pair every aclprofPop with an "
                     "aclprofPush on the same thread");
  depth--;
  tx_record(PTX_PUSHPOP, stack[depth].msg, stack[depth].t0, acl__prof_now(), 0, -1, -1);
  return 0;
}

aclError aclprofRangeStart(void *stamp_, uint32_t *rangeId) {
  if (stamp_ == NULL || rangeId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", stamp_ == NULL ? "stamp" : "rangeId");
  if (!acl__prof_tx_active())
    return not_running(__func__);
  const stamp *s = stamp_of(stamp_);
  if (s == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stamp %p is no live stamp of aclprofCreateStamp", stamp_);
  open_range o = {0, acl__prof_tid(), acl__prof_now(), acl__prof_strdup(s->msg, strlen(s->msg))};
  int rc = 0;
  pthread_mutex_lock(&range_lock);
  if (n_ranges == cap_ranges) {
    size_t nc = cap_ranges ? cap_ranges * 2 : 16;
    open_range *bigger = realloc(ranges, nc * sizeof(*ranges));
    if (bigger == NULL) {
      rc = ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a range");
      goto out;
    }
    ranges = bigger;
    cap_ranges = nc;
  }
  o.id = next_range_id++;
  if (next_range_id == 0)
    next_range_id = 1;
  ranges[n_ranges++] = o;
  *rangeId = o.id;
out:
  pthread_mutex_unlock(&range_lock);
  return rc;
}

aclError aclprofRangeStop(uint32_t rangeId) {
  if (!acl__prof_tx_active())
    return not_running(__func__);
  open_range o = {0};
  pthread_mutex_lock(&range_lock);
  for (size_t i = 0; i < n_ranges; i++)
    if (ranges[i].id == rangeId) {
      o = ranges[i];
      ranges[i] = ranges[--n_ranges];
      break;
    }
  pthread_mutex_unlock(&range_lock);
  if (o.id == 0)
    return ACL__FAIL(PROF_FAILED, "rangeId %u is not an open range of aclprofRangeStart", rangeId);
  tx_record(PTX_STARTEND, o.msg, o.t0, acl__prof_now(), o.id, -1, -1);
  return 0;
}

/* The vendor's DoubleHash: two polynomial lanes, 29 and 131. */
uint64_t aclprofStr2Id(const char *message) {
  if (message == NULL || message[0] == '\0')
    return UINT64_MAX;
  uint32_t hi = 0, lo = 0;
  for (const char *p = message; *p; p++) {
    hi = hi * 29u + (uint32_t)(int32_t)*p;
    lo = lo * 131u + (uint32_t)(int32_t)*p;
  }
  return ((uint64_t)hi << 32) | lo;
}

aclError aclprofRangePushEx(aclprofEventAttributes *attr) {
  if (attr == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "attr is NULL");
  if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO)
    return ACL__FAIL(PROF_FAILED, "attr->messageType %u is not ACL_PROF_MESSAGE_TYPE_TENSOR_INFO (0)",
                     attr->messageType);
  pthread_mutex_lock(&range_lock);
  push_ex = attr;
  push_ex_t0 = acl__prof_now();
  pthread_mutex_unlock(&range_lock);
  return 0;
}

aclError aclprofRangePop(void) {
  pthread_mutex_lock(&range_lock);
  aclprofEventAttributes *a = push_ex;
  uint64_t t0 = push_ex_t0;
  push_ex = NULL;
  pthread_mutex_unlock(&range_lock);
  if (a == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "no aclprofRangePushEx is outstanding");
  if (!acl__prof_tx_active())
    return 0;
  /* the node's tensors, as text: "op 0x<nameId> type 0x<typeId>: in 1x3x224x224 DT 0; out ..." */
  char text[512];
  size_t n = 0;
  const aclprofTensorInfo *ti = a->message.tensorInfo;
  if (ti != NULL) {
    n += (size_t)snprintf(text, sizeof(text), "op %llu type %llu:", (unsigned long long)ti->opNameId,
                          (unsigned long long)ti->opTypeId);
    for (uint32_t i = 0; ti->tensors != NULL && i < ti->tensorNum && n < sizeof(text) - 64; i++) {
      const aclprofTensor *t = &ti->tensors[i];
      n += (size_t)snprintf(text + n, sizeof(text) - n, " %s ", t->type == 0 ? "in" : "out");
      uint32_t dims = t->shapeDim < ACL_PROF_TENSOR_DATA_SHAPE_LEN ? t->shapeDim : ACL_PROF_TENSOR_DATA_SHAPE_LEN;
      for (uint32_t d = 0; d < dims && n < sizeof(text) - 32; d++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, d ? "x%u" : "%u", t->shape[d]);
      n += (size_t)snprintf(text + n, sizeof(text) - n, " dtype %u;", t->dataType);
    }
  } else {
    n = (size_t)snprintf(text, sizeof(text), "tensor info");
  }
  if (n >= sizeof(text))
    n = sizeof(text) - 1;
  tx_record(PTX_PUSHPOP, acl__prof_strdup(text, n), t0, acl__prof_now(), 0, -1, -1);
  return 0;
}

aclprofStepInfo *aclprofCreateStepInfo(void) {
  aclprofStepInfo *s = calloc(1, sizeof(*s));
  if (s == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for step info");
    return NULL;
  }
  s->magic = STEP_MAGIC;
  s->index = atomic_fetch_add(&next_step, 1);
  return s;
}

void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo) {
  if (stepinfo == NULL || stepinfo->magic != STEP_MAGIC)
    return;
  stepinfo->magic = 0;
  free(stepinfo);
}

aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream) {
  if (stepInfo == NULL || stepInfo->magic != STEP_MAGIC)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stepInfo %p is no live step info of aclprofCreateStepInfo",
                     (void *)stepInfo);
  if (tag != ACL_STEP_START && tag != ACL_STEP_END)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "tag %d is neither ACL_STEP_START (0) nor ACL_STEP_END (1)", (int)tag);
  int *done = tag == ACL_STEP_START ? &stepInfo->started : &stepInfo->ended;
  if (*done)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "step %llu already has its %s time. Remedy: one START and one END "
                     "per step info", (unsigned long long)stepInfo->index, tag == ACL_STEP_START ? "START" : "END");
  int rc = 0;
  acl__stream *s = stream != NULL ? acl__stream_resolve(__func__, stream, &rc) : NULL;
  if (stream != NULL && s == NULL)
    return rc;
  *done = 1;
  if (!ACL__PROF_ON() || !(atomic_load(&acl__prof_flags) & ACL__PROF_F_TASK))
    return 0;
  acl__prof_rec *r = acl__prof_slot();
  if (r != NULL) {
    r->kind = PREC_STEP;
    r->sub = (uint8_t)tag;
    r->seq = stepInfo->index;
    r->t0 = r->t1 = acl__prof_now();
    if (s != NULL) {
      r->stream = s->id;
      r->device = (int16_t)s->dev->id;
    }
    acl__prof_commit();
  }
  return 0;
}
