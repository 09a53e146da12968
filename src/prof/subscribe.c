/*
 * subscribe.c - model subscription: aclprofCreateSubscribeConfig,
 * aclprofModelSubscribe / UnSubscribe, and the readers of the 80-byte
 * ProfOpDesc records written to the subscriber's pipe
 * (aclprofGetOpDescSize, GetOpNum, GetOpType/Name[Len], GetOpStart/End/
 * Duration, GetModelId, GetOpFlag, GetOpAttriValue).
 *
 * Record layout and signature are the vendor's (prof-dump.md §1.5): the
 * strings are not in the record; opIndex keys an in-process table of
 * (type, name) that GetOpType / GetOpName read once and erase.  Each
 * execution of a subscribed model buffers one record per operator on the
 * engine's thread and writes them at the end of the execution.  Unsubscribe
 * closes the write end, so the reader's read() returns 0.
 *
 * Lock: sub_lock guards the subscriptions, the pending records and the
 * string table; taken after acl__prof_lock where both are held.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "common/errmsg.h"
#include "model/model.h"
#include "prof/prof_internal.h"

#define SUBCFG_MAGIC 0x73756263u /* "subc" */
#define MAX_SUBS 256

struct aclprofSubscribeConfig {
  uint32_t magic;
  int8_t time_info;
  aclprofAicoreMetrics metrics;
  int *fd;
};

typedef struct op_desc { /* ProfOpDesc, 80 bytes */
  uint32_t signature;
  uint32_t modelId;
  uint32_t flag;
  uint32_t threadId;
  uint64_t opIndex;
  uint64_t duration;
  uint64_t start;
  uint64_t end;
  uint64_t executionTime;
  uint64_t cubeFops;
  uint64_t vectorFops;
  uint32_t devId;
  uint32_t pad;
} op_desc;
_Static_assert(sizeof(op_desc) == 80, "ProfOpDesc is 80 bytes");

typedef struct sub {
  uint32_t model;
  int fd;
  op_desc *pending;
  size_t n, cap;
} sub;

typedef struct names {
  char *type, *name;
} names;

static pthread_mutex_t sub_lock = PTHREAD_MUTEX_INITIALIZER;
static sub subs[MAX_SUBS]; /* sub_lock */
static size_t n_subs;
static names *table;       /* sub_lock: opIndex - 1 -> strings */
static size_t n_table, cap_table;
static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[i] = c;
  }
}

static uint32_t signature(const op_desc *d) {
  pthread_once(&crc_once, crc_init);
  const unsigned char *b = (const unsigned char *)d;
  uint32_t sig = 0xFFFFFFFFu;
  for (size_t i = 4; i < sizeof(*d); i++)
    sig = crc_table[(sig ^ b[i]) & 0xFF] ^ (sig >> 8);
  return sig;
}

int acl__prof_sub_any(void) {
  pthread_mutex_lock(&sub_lock);
  int any = n_subs > 0;
  pthread_mutex_unlock(&sub_lock);
  return any;
}

static sub *find_locked(uint32_t model) {
  for (size_t i = 0; i < n_subs; i++)
    if (subs[i].model == model)
      return &subs[i];
  return NULL;
}

int acl__prof_sub_wants(uint32_t model) {
  pthread_mutex_lock(&sub_lock);
  int yes = find_locked(model) != NULL;
  pthread_mutex_unlock(&sub_lock);
  return yes;
}

void acl__prof_sub_op(uint32_t model, const acl__prof_opinfo *info, uint64_t t0, uint64_t t1, uint32_t tid,
                      int device) {
  pthread_mutex_lock(&sub_lock);
  sub *s = find_locked(model);
  if (s == NULL)
    goto out;
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 64;
    op_desc *bigger = realloc(s->pending, nc * sizeof(*bigger));
    if (bigger == NULL)
      goto out;
    s->pending = bigger;
    s->cap = nc;
  }
  if (n_table == cap_table) {
    size_t nc = cap_table ? cap_table * 2 : 256;
    names *bigger = realloc(table, nc * sizeof(*bigger));
    if (bigger == NULL)
      goto out;
    table = bigger;
    cap_table = nc;
  }
  names *nm = &table[n_table];
  nm->type = strdup(info->type);
  nm->name = strdup(info->name);
  if (nm->type == NULL || nm->name == NULL) {
    free(nm->type);
    free(nm->name);
    goto out;
  }
  n_table++;
  /* start and end in µs of the realtime clock */
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  uint64_t now_ns = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
  uint64_t mono_now = acl__prof_now();
  uint64_t start_ns = now_ns - (mono_now - t0), end_ns = now_ns - (mono_now - t1);
  op_desc *d = &s->pending[s->n++];
  memset(d, 0, sizeof(*d));
  d->modelId = model;
  d->flag = ACL_SUBSCRIBE_OP;
  d->threadId = tid;
  d->opIndex = n_table; /* 1-based */
  d->start = start_ns / 1000;
  d->end = end_ns / 1000;
  d->duration = d->end - d->start;
  d->executionTime = d->duration;
  d->devId = (uint32_t)(device < 0 ? 0 : device);
  d->signature = signature(d);
out:
  pthread_mutex_unlock(&sub_lock);
}

/* write() all of it; a closed reader (EPIPE) must not kill the process. */
static void write_all(int fd, const void *buf, size_t len) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  const char *p = buf;
  int broken = 0;
  while (len > 0) {
    ssize_t w = write(fd, p, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      broken = errno == EPIPE;
      break;
    }
    p += w;
    len -= (size_t)w;
  }
  if (broken) {
    struct timespec zero = {0, 0};
    sigtimedwait(&pipe_set, NULL, &zero); /* swallow our SIGPIPE */
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void flush_locked(sub *s) {
  if (s->n > 0 && s->fd >= 0)
    write_all(s->fd, s->pending, s->n * sizeof(op_desc));
  s->n = 0;
}

void acl__prof_sub_flush(uint32_t model) {
  pthread_mutex_lock(&sub_lock);
  sub *s = find_locked(model);
  if (s != NULL)
    flush_locked(s);
  pthread_mutex_unlock(&sub_lock);
}

aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch, aclprofAicoreMetrics aicoreMetrics,
                                                     void *fd) {
  if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timeInfoSwitch %d must be 0 or 1", (int)timeInfoSwitch);
    return NULL;
  }
  if (fd == NULL) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "fd is NULL. Remedy: pass a pointer to the int holding the write end of a "
              "pipe");
    return NULL;
  }
  aclprofSubscribeConfig *c = calloc(1, sizeof(*c));
  if (c == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a subscription configuration");
    return NULL;
  }
  c->magic = SUBCFG_MAGIC;
  c->time_info = timeInfoSwitch;
  c->metrics = aicoreMetrics;
  c->fd = fd;
  return c;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig) {
  if (profSubscribeConfig == NULL || profSubscribeConfig->magic != SUBCFG_MAGIC)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "profSubscribeConfig %p is no live subscription configuration",
                     (const void *)profSubscribeConfig);
  aclprofSubscribeConfig *c = (aclprofSubscribeConfig *)profSubscribeConfig;
  c->magic = 0;
  free(c);
  return 0;
}

aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig) {
  if (profSubscribeConfig == NULL || profSubscribeConfig->magic != SUBCFG_MAGIC)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "profSubscribeConfig %p is no live subscription configuration",
                     (const void *)profSubscribeConfig);
  int rc = 0;
  /* a loaded model, or an id declared by MsprofSetDeviceIdByGeModelIdx */
  if (!acl__prof_ge_model_declared(modelId)) {
    acl__model *m = acl__model_acquire(__func__, modelId, &rc);
    if (m == NULL)
      return rc;
    acl__model_release(m);
  }
  pthread_mutex_lock(&acl__prof_lock);
  unsigned f = atomic_load(&acl__prof_flags) & ~ACL__PROF_F_SUB;
  if (f != 0) {
    rc = ACL__FAIL(ACL_ERROR_PROF_API_CONFLICT, "profiling (aclprofStart or acl.json) is running; a subscription "
                   "cannot be opened with it. Remedy: stop profiling first");
    goto out;
  }
  pthread_mutex_lock(&sub_lock);
  if (find_locked(modelId) != NULL) {
    rc = ACL__FAIL(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "model %u is already subscribed. Remedy: "
                   "aclprofModelUnSubscribe it first", modelId);
  } else if (n_subs == MAX_SUBS) {
    rc = ACL__FAIL(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, "%d models are subscribed already", MAX_SUBS);
  } else {
    sub *s = &subs[n_subs++];
    memset(s, 0, sizeof(*s));
    s->model = modelId;
    s->fd = *profSubscribeConfig->fd;
  }
  pthread_mutex_unlock(&sub_lock);
  acl__prof_flags_update();
out:
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

aclError aclprofModelUnSubscribe(uint32_t modelId) {
  int rc = 0;
  pthread_mutex_lock(&acl__prof_lock);
  pthread_mutex_lock(&sub_lock);
  sub *s = find_locked(modelId);
  if (s == NULL) {
    rc = ACL__FAIL(ACL_ERROR_INVALID_MODEL_ID, "model %u is not subscribed", modelId);
  } else {
    flush_locked(s);
    int fd = s->fd, shared = 0;
    free(s->pending);
    *s = subs[--n_subs];
    for (size_t i = 0; i < n_subs; i++)
      shared |= subs[i].fd == fd;
    if (!shared && fd >= 0)
      close(fd); /* the reader's read() now returns 0 */
  }
  pthread_mutex_unlock(&sub_lock);
  acl__prof_flags_update();
  pthread_mutex_unlock(&acl__prof_lock);
  return rc;
}

aclError aclprofGetOpDescSize(size_t *opDescSize) {
  if (opDescSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "opDescSize is NULL");
  *opDescSize = sizeof(op_desc);
  return 0;
}

/* The record at index after checking the whole buffer; NULL after recording. */
static const op_desc *record_at(const char *api, const void *opInfo, size_t opInfoLen, uint32_t index, int quiet) {
  if (opInfo == NULL || opInfoLen == 0 || opInfoLen % sizeof(op_desc) != 0) {
    if (!quiet)
      acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                "opInfoLen %zu is not a whole number of %zu-byte records (or opInfo is NULL)", opInfoLen,
                sizeof(op_desc));
    return NULL;
  }
  size_t n = opInfoLen / sizeof(op_desc);
  for (size_t i = 0; i < n; i++) {
    op_desc d;
    memcpy(&d, (const char *)opInfo + i * sizeof(d), sizeof(d));
    if (signature(&d) != d.signature) {
      if (!quiet)
        acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                  "record %zu of opInfo has a bad signature: not data read from the subscription pipe", i);
      return NULL;
    }
  }
  if (index >= n) {
    if (!quiet)
      acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "index %u is out of range: opInfo holds %zu records",
                index, n);
    return NULL;
  }
  return (const op_desc *)((const char *)opInfo + index * sizeof(op_desc));
}

aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber) {
  if (opNumber == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "opNumber is NULL");
  if (record_at(__func__, opInfo, opInfoLen, 0, 0) == NULL)
    return ACL_ERROR_INVALID_PARAM;
  *opNumber = (uint32_t)(opInfoLen / sizeof(op_desc));
  return 0;
}

/* which: 0 type, 1 name.  Length with the NUL, or 0 after recording. */
static int str_len(const char *api, const void *opInfo, size_t len, uint32_t index, int which, size_t *out) {
  if (out == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "the length pointer is NULL");
  const op_desc *d = record_at(api, opInfo, len, index, 0);
  if (d == NULL)
    return ACL_ERROR_INVALID_PARAM;
  uint64_t key;
  memcpy(&key, &d->opIndex, sizeof(key));
  int rc = 0;
  pthread_mutex_lock(&sub_lock);
  const char *s = key >= 1 && key <= n_table ? (which ? table[key - 1].name : table[key - 1].type) : NULL;
  if (s == NULL)
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "the %s of record %u was read already (each is read once) or is unknown", which ? "name" : "type",
                   index);
  else
    *out = strlen(s) + 1;
  pthread_mutex_unlock(&sub_lock);
  return rc;
}

static int str_get(const char *api, const void *opInfo, size_t len, uint32_t index, int which, char *buf,
                   size_t size) {
  if (buf == NULL || size == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "the buffer is NULL or its length is 0");
  const op_desc *d = record_at(api, opInfo, len, index, 0);
  if (d == NULL)
    return ACL_ERROR_INVALID_PARAM;
  uint64_t key;
  memcpy(&key, &d->opIndex, sizeof(key));
  int rc = 0;
  pthread_mutex_lock(&sub_lock);
  char **slot = key >= 1 && key <= n_table ? (which ? &table[key - 1].name : &table[key - 1].type) : NULL;
  if (slot == NULL || *slot == NULL) {
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "the %s of record %u was read already (each is read once) or is unknown", which ? "name" : "type",
                   index);
  } else {
    snprintf(buf, size, "%s", *slot);
    free(*slot);
    *slot = NULL; /* read once, as the vendor's table erases it */
  }
  pthread_mutex_unlock(&sub_lock);
  return rc;
}

aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen) {
  return str_len(__func__, opInfo, opInfoLen, index, 0, opTypeLen);
}
aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType, size_t opTypeLen) {
  return str_get(__func__, opInfo, opInfoLen, index, 0, opType, opTypeLen);
}
aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen) {
  return str_len(__func__, opInfo, opInfoLen, index, 1, opNameLen);
}
aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName, size_t opNameLen) {
  return str_get(__func__, opInfo, opInfoLen, index, 1, opName, opNameLen);
}

static uint64_t field(const char *api, const void *opInfo, size_t len, uint32_t index, size_t off) {
  const op_desc *d = record_at(api, opInfo, len, index, 0);
  uint64_t v = 0;
  if (d != NULL)
    memcpy(&v, (const char *)d + off, sizeof(v));
  return v;
}

uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return field(__func__, opInfo, opInfoLen, index, offsetof(op_desc, start));
}
uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return field(__func__, opInfo, opInfoLen, index, offsetof(op_desc, end));
}
uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index) {
  return field(__func__, opInfo, opInfoLen, index, offsetof(op_desc, duration));
}

size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index) {
  const op_desc *d = record_at(__func__, opInfo, opInfoLen, index, 0);
  uint32_t v = 0;
  if (d != NULL)
    memcpy(&v, (const char *)d + offsetof(op_desc, modelId), sizeof(v));
  return v;
}

aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index) {
  const op_desc *d = record_at(__func__, opInfo, opInfoLen, index, 0);
  uint32_t v = ACL_SUBSCRIBE_NONE;
  if (d != NULL)
    memcpy(&v, (const char *)d + offsetof(op_desc, flag), sizeof(v));
  return (aclprofSubscribeOpFlag)v;
}

const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                   aclprofSubscribeOpAttri attri) {
  static _Thread_local char value[16];
  const op_desc *d = record_at(__func__, opInfo, opInfoLen, index, 0);
  if (d == NULL || attri != ACL_SUBSCRIBE_ATTRI_THREADID)
    return NULL;
  uint32_t flag, tid;
  memcpy(&flag, (const char *)d + offsetof(op_desc, flag), sizeof(flag));
  memcpy(&tid, (const char *)d + offsetof(op_desc, threadId), sizeof(tid));
  if (flag != ACL_SUBSCRIBE_OP_THREAD)
    return NULL;
  snprintf(value, sizeof(value), "%u", tid);
  return value;
}
