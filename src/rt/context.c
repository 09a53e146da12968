/*
 * context.c - contexts and the calling thread's current context.
 *
 * The current context is per thread.  It is only a pointer: every use
 * checks it against the handle table, so a context destroyed by another
 * thread (or released by a device reset) reads as "no context" instead of
 * being dereferenced.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/graph.h"
#include "rt/label.h"
#include "rt/notify.h"
#include "rt/rt.h"
#include "rt/state_callback.h"

static _Thread_local acl__context *acl__tls_ctx;
/* Bumped whenever a context is released.  A thread whose current context
 * was validated at the present generation can use it without a lookup in
 * the handle table (the common case: every API call of a running program). */
static atomic_ulong acl__ctx_generation = 1;
static _Thread_local unsigned long acl__tls_ctx_gen;

static int acl__context_unlink_locked(acl__context *c, acl__stream *s);

acl__context *acl__context_new(acl__device *d, int is_default) {
  acl__context *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return NULL;
  c->dev = d;
  c->is_default = is_default;
  pthread_mutex_init(&c->lock, NULL);
  c->default_stream = acl__stream_new(c, 0, 0, 1);
  if (c->default_stream == NULL) {
    pthread_mutex_destroy(&c->lock);
    free(c);
    return NULL;
  }
  acl__handle_register(c, ACL__H_CONTEXT);
  return c;
}

void acl__context_release(acl__context *c, const char *api) {
  acl__handle_unregister(c);
  acl__label_context_gone(c); /* labels belong to a context (label.c) */
  atomic_fetch_add(&acl__ctx_generation, 1);
  /* Streams first (their queued work may record events), then events. */
  int n_streams = 0, n_events = 0;
  for (;;) {
    pthread_mutex_lock(&c->lock);
    acl__stream *s = c->streams;
    if (s != NULL)
      acl__context_unlink_locked(c, s);
    pthread_mutex_unlock(&c->lock);
    if (s == NULL)
      break;
    n_streams++;
    acl__stream_destroy(s, 0, api);
  }
  acl__stream_destroy(c->default_stream, 0, api);
  c->default_stream = NULL;
  acl__graph_context_gone(c); /* no replay runs any more; their internal streams go with them */
  for (;;) {
    pthread_mutex_lock(&c->lock);
    acl__event *e = c->events;
    if (e != NULL)
      c->events = e->ctx_next;
    pthread_mutex_unlock(&c->lock);
    if (e == NULL)
      break;
    n_events++;
    acl__event_destroy(e);
  }
  acl__notify_context_gone(c); /* after the streams: their queued tasks hold the notifies */
  if (n_streams || n_events)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "%s: the %s context of device %d still had %d stream(s) and %d event(s); they were destroyed",
              api, c->is_default ? "default" : "user", (int)c->dev->id, n_streams, n_events);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

void acl__contexts_release_all(acl__device *d, const char *api) {
  for (;;) {
    pthread_mutex_lock(&d->lock);
    acl__context *c = d->user_ctx_list;
    if (c != NULL) {
      d->user_ctx_list = c->dev_next;
      d->user_contexts--;
    }
    pthread_mutex_unlock(&d->lock);
    if (c == NULL)
      return;
    ACL__LOGW(ACL__MOD_RUNTIME, "%s: a context of device %d made by aclrtCreateContext was not destroyed", api,
              (int)d->id);
    acl__context_release(c, api);
  }
}

void acl__context_set_current(acl__context *c) {
  acl__tls_ctx = c;
  acl__tls_ctx_gen = 0; /* validated at the next use */
}

void acl__context_add_stream(acl__context *c, acl__stream *s) {
  pthread_mutex_lock(&c->lock);
  s->ctx_prev = NULL;
  s->ctx_next = c->streams;
  if (c->streams != NULL)
    c->streams->ctx_prev = s;
  c->streams = s;
  s->in_ctx_list = 1;
  pthread_mutex_unlock(&c->lock);
}

static int acl__context_unlink_locked(acl__context *c, acl__stream *s) {
  if (!s->in_ctx_list)
    return 0;
  if (s->ctx_prev != NULL)
    s->ctx_prev->ctx_next = s->ctx_next;
  else
    c->streams = s->ctx_next;
  if (s->ctx_next != NULL)
    s->ctx_next->ctx_prev = s->ctx_prev;
  s->ctx_next = s->ctx_prev = NULL;
  s->in_ctx_list = 0;
  return 1;
}

int acl__context_remove_stream(acl__context *c, acl__stream *s) {
  pthread_mutex_lock(&c->lock);
  int removed = acl__context_unlink_locked(c, s);
  pthread_mutex_unlock(&c->lock);
  return removed;
}

acl__context *acl__context_peek(void) {
  acl__context *c = acl__tls_ctx;
  if (c == NULL)
    return NULL;
  unsigned long gen = atomic_load_explicit(&acl__ctx_generation, memory_order_acquire);
  if (acl__tls_ctx_gen == gen)
    return c;
  if (!acl__handle_valid(c, ACL__H_CONTEXT)) {
    acl__tls_ctx = NULL;
    return NULL;
  }
  acl__tls_ctx_gen = gen;
  return c;
}

acl__context *acl__context_current(const char *api, int *rc) {
  if (!acl__rt_live(api, rc))
    return NULL;
  acl__context *c = acl__context_peek();
  if (c != NULL)
    return c;
  int32_t def = acl__rt_default_device();
  if (def >= 0) {
    /* acl.json defaultDevice: a thread that never chose a device uses it. */
    acl__device *d = acl__device_get(api, def, rc);
    if (d == NULL)
      return NULL;
    *rc = acl__device_set(api, d);
    return *rc == 0 ? acl__context_peek() : NULL;
  }
  *rc = acl__fail(api, ACL_ERROR_RT_CONTEXT_NULL, __FILE__, __LINE__,
                  "this thread has no current context. Remedy: call aclrtSetDevice(deviceId) or "
                  "aclrtSetCurrentContext(context) in this thread first");
  return NULL;
}

/* ---- user contexts (aclrtCreateContext / aclrtDestroyContext) ---------------- */

int acl__context_create_user(const char *api, acl__device *d, acl__context **out) {
  int rc = acl__device_ensure_open(api, d);
  if (rc != 0)
    return rc;
  acl__context *c = acl__context_new(d, 0);
  if (c == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a context");
  pthread_mutex_lock(&d->lock);
  c->dev_next = d->user_ctx_list;
  d->user_ctx_list = c;
  d->user_contexts++;
  pthread_mutex_unlock(&d->lock);
  acl__context_set_current(c);
  *out = c;
  acl__statecb_stream(c->default_stream, ACL_RT_STREAM_STATE_CREATE_POST); /* state_callback.c */
  return 0;
}

int acl__context_destroy_user(const char *api, acl__context *c) {
  if (c->is_default)
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "context %p is the default context of device %d, which aclrtResetDevice releases. Remedy: "
                     "destroy only contexts made by aclrtCreateContext",
                     (void *)c, (int)c->dev->id);
  acl__device *d = c->dev;
  pthread_mutex_lock(&d->lock);
  int found = 0;
  for (acl__context **pp = &d->user_ctx_list; *pp != NULL; pp = &(*pp)->dev_next)
    if (*pp == c) {
      *pp = c->dev_next;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&d->lock);
  if (!found)
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "context %p is being destroyed by another thread", (void *)c);
  if (acl__tls_ctx == c)
    acl__tls_ctx = NULL;
  acl__context_release(c, api);
  acl__device_context_gone(d);
  return 0;
}
