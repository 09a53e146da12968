/* stream_api.c - the public stream functions: create, destroy, synchronise, query. */
#include <string.h>

#include "prof/prof.h"
#include "common/errmsg.h"
#include "rt/graph.h"
#include "rt/callback.h"
#include "rt/device.h"
#include "rt/executor.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "rt/state_callback.h"
#include "rt/stream_ctl.h"

static int acl__stream_create(const char *api, aclrtStream *stream, uint32_t priority, uint32_t flag,
                              acl__stream **out) {
  int rc = 0;
  if (stream == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "stream is NULL; pass where to store it");
  if (priority > 7)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "priority %u is outside 0 (highest) .. 7 (lowest)", priority);
  const uint32_t known = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                         ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
  if (flag & ~known)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "flag 0x%x has bits that are not ACL_STREAM_* flags (0x%x)", flag, flag & ~known);
  acl__context *c = acl__context_current(api, &rc);
  if (c == NULL)
    return rc;
  acl__stream_reap_orphans(c);
  acl__stream *s = acl__stream_new(c, priority, flag, 0);
  if (s == NULL && atomic_load(&c->dev->streams_live) >= ACL__MAX_STREAMS)
    return acl__fail(api, ACL_ERROR_RT_NO_STREAM_RESOURCE, __FILE__, __LINE__,
                     "device %d has %d streams, the most it holds. Remedy: destroy streams you no longer use",
                     (int)c->dev->id, ACL__MAX_STREAMS);
  if (s == NULL)
    return acl__fail(api, ACL_ERROR_RT_NO_STREAM_RESOURCE, __FILE__, __LINE__, "out of host memory for a stream");
  acl__context_add_stream(c, s);
  *stream = s;
  if (out != NULL)
    *out = s;
  acl__statecb_stream(s, ACL_RT_STREAM_STATE_CREATE_POST);
  return 0;
}

aclError aclrtCreateStream(aclrtStream *stream) { return acl__stream_create(__func__, stream, 0, 0, NULL); }

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  ACL__PROF_API_SCOPE();
  return acl__stream_create(__func__, stream, priority, flag, NULL);
}

aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle) {
  ACL__PROF_API_SCOPE();
  /* The handle is a public struct: any readable one is taken, as the
   * vendor's runtime takes it (aclrtCreateStreamConfigHandle is one way to
   * make it); NULL means the defaults. */
  aclrtStreamConfigHandle cfg = {NULL, 0, 0, 0};
  if (handle != NULL)
    cfg = *handle;
  if (cfg.flag > UINT32_MAX)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "the handle's flag 0x%llx has bits that are not ACL_STREAM_* flags",
                     (unsigned long long)cfg.flag);
  if (cfg.workptr != NULL) {
    acl__ptr_info in;
    acl__mem_classify(cfg.workptr, &in);
    if (in.kind != ACL__PTR_DEVICE || cfg.workSize == 0 || cfg.workSize > in.alloc_size - in.offset)
      return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                       "the handle's work memory (%p, %zu bytes) is not a range inside one device allocation. "
                       "Remedy: set ACL_RT_STREAM_WORK_ADDR_PTR to memory from aclrtMalloc and "
                       "ACL_RT_STREAM_WORK_SIZE to at most its size, or leave both unset",
                       cfg.workptr, cfg.workSize);
  } else if (cfg.workSize != 0) {
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "the handle sets a work size (%zu bytes) but no work address. Remedy: set "
                     "ACL_RT_STREAM_WORK_ADDR_PTR too, or leave both unset",
                     cfg.workSize);
  }
  acl__stream *s = NULL;
  int rc = acl__stream_create(__func__, stream, cfg.priority, (uint32_t)cfg.flag, &s);
  if (rc == 0) {
    /* the model layer runs models on this stream in this memory (the
     * model's own ACL_MDL_WORK_ADDR_PTR wins) */
    pthread_mutex_lock(&s->lock);
    s->work_ptr = cfg.workptr;
    s->work_size = cfg.workSize;
    pthread_mutex_unlock(&s->lock);
  }
  return rc;
}

/* Checks an explicit (non-NULL) user stream for destroy; unlinks it from its context. */
static acl__stream *acl__stream_take(const char *api, aclrtStream stream, int *rc) {
  if (stream == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "stream is NULL: the default stream cannot be destroyed");
    return NULL;
  }
  acl__stream *s = acl__stream_resolve(api, stream, rc);
  if (s == NULL)
    return NULL;
  if (s->is_default) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "stream %d is the default stream of its context; it lives as long as the context", s->id);
    return NULL;
  }
  if (!acl__context_remove_stream(s->ctx, s)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "stream %p is being destroyed by another thread", stream);
    return NULL;
  }
  return s;
}

static int acl__destroy(const char *api, aclrtStream stream, int force) {
  int rc = acl__callback_forbid(api); /* a destroy waits for the stream's work */
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_take(api, stream, &rc);
  if (s == NULL)
    return rc;
  acl__context *c = s->ctx;
  acl__stream_destroy(s, force, api);
  acl__stream_reap_orphans(c); /* streams destroyed by force earlier whose task has ended */
  return 0;
}

aclError aclrtDestroyStream(aclrtStream stream) { return acl__destroy(__func__, stream, 0); }
aclError aclrtDestroyStreamForce(aclrtStream stream) { return acl__destroy(__func__, stream, 1); }

static int acl__sync(const char *api, aclrtStream stream, int32_t timeout) {
  int rc = acl__sync_precheck(api, timeout);
  if (rc != 0)
    return rc;
  acl__stream *s = acl__stream_resolve(api, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__graph_check_unsafe(api, s)) != 0) /* capture modes (graph.c) */
    return rc;
  return acl__stream_sync_api(api, s, timeout);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  ACL__PROF_API_SCOPE();
  aclError rc = acl__sync(__func__, stream, -1);
  return rc;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  ACL__PROF_API_SCOPE();
  return acl__sync(__func__, stream, timeout);
}

aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (status == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "status is NULL");
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  if ((rc = acl__graph_check_unsafe(__func__, s)) != 0) /* capture modes (graph.c) */
    return rc;
  pthread_mutex_lock(&s->lock);
  *status = s->completed >= s->submitted ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  if (stream == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "stream is NULL: the default stream's failure mode cannot be set");
  if (mode != ACL_CONTINUE_ON_FAILURE && mode != ACL_STOP_ON_FAILURE)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "mode %llu is neither ACL_CONTINUE_ON_FAILURE (0) nor ACL_STOP_ON_FAILURE (1)",
                     (unsigned long long)mode);
  acl__stream *s = acl__stream_resolve(__func__, stream, &rc);
  if (s == NULL)
    return rc;
  pthread_mutex_lock(&s->lock);
  s->failure_mode = mode;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

/* The stream behind a query: checks the output pointer, then the stream. */
static acl__stream *acl__stream_to_query(const char *api, aclrtStream stream, const void *out, const char *out_name,
                                         int *rc) {
  if (out == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", out_name);
    return NULL;
  }
  return acl__stream_resolve(api, stream, rc);
}

aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_to_query(__func__, stream, priority, "priority", &rc);
  if (s != NULL) {
    pthread_mutex_lock(&s->lock); /* aclrtSetStreamAttribute may change it */
    *priority = s->priority;
    pthread_mutex_unlock(&s->lock);
  }
  return rc;
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_to_query(__func__, stream, flags, "flags", &rc);
  if (s != NULL)
    *flags = s->flags;
  return rc;
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId) {
  ACL__PROF_API_SCOPE();
  int rc = 0;
  acl__stream *s = acl__stream_to_query(__func__, stream, streamId, "streamId", &rc);
  if (s != NULL)
    *streamId = s->id;
  return rc;
}
