/*
 * errmsg.c - failure messages for aclGetRecentErrMsg and the thread's last
 * error code for aclrtGetLastError.
 *
 * Messages live in a small ring per thread (default) or in one ring for the
 * process (err_msg_mode 1).  A ring keeps the newest ACL__ERRMSG_KEEP
 * messages; older ones are dropped with a note, so a program that never
 * reads them does not grow without bound.
 *
 * Lock: acl__errmsg_lock guards the process ring and acl__errmsg_generation
 * writes.  Per-thread rings are only touched by their thread.
 * aclFinalize bumps the generation; rings of an older generation are
 * treated as empty, so other threads' stale messages vanish without any
 * thread touching another's memory.
 */
#include "common/errmsg.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/log.h"

#define ACL__ERRMSG_KEEP 16

typedef struct acl__errmsg_ring {
  char *msg[ACL__ERRMSG_KEEP];  /* msg[(head - 1) % KEEP] is the newest */
  unsigned head;                /* total pushed since the last take */
  unsigned long generation;
} acl__errmsg_ring;

typedef struct acl__errmsg_thread {
  acl__errmsg_ring ring;
  char *returned;               /* the string handed out last; freed at the next take */
  int last_error;
} acl__errmsg_thread;

static pthread_mutex_t acl__errmsg_lock = PTHREAD_MUTEX_INITIALIZER;
static acl__errmsg_ring acl__errmsg_process;   /* guarded by acl__errmsg_lock */
static _Atomic int acl__errmsg_process_mode;
static _Atomic unsigned long acl__errmsg_generation = 1;

static _Thread_local acl__errmsg_thread *acl__errmsg_tls;
static pthread_key_t acl__errmsg_key;
static pthread_once_t acl__errmsg_once = PTHREAD_ONCE_INIT;

static void acl__ring_clear(acl__errmsg_ring *r) {
  for (int i = 0; i < ACL__ERRMSG_KEEP; i++) {
    free(r->msg[i]);
    r->msg[i] = NULL;
  }
  r->head = 0;
}

static void acl__errmsg_thread_free(void *p) {
  acl__errmsg_thread *t = p;
  if (t == NULL)
    return;
  acl__ring_clear(&t->ring);
  free(t->returned);
  free(t);
  acl__errmsg_tls = NULL;
}

static void acl__errmsg_make_key(void) { pthread_key_create(&acl__errmsg_key, acl__errmsg_thread_free); }

static acl__errmsg_thread *acl__errmsg_self(void) {
  if (acl__errmsg_tls == NULL) {
    pthread_once(&acl__errmsg_once, acl__errmsg_make_key);
    acl__errmsg_tls = calloc(1, sizeof(*acl__errmsg_tls));
    if (acl__errmsg_tls == NULL)
      return NULL;
    acl__errmsg_tls->ring.generation = atomic_load(&acl__errmsg_generation);
    pthread_setspecific(acl__errmsg_key, acl__errmsg_tls);
  }
  return acl__errmsg_tls;
}

/* Empties a ring whose generation is older than the current one. */
static void acl__ring_refresh(acl__errmsg_ring *r) {
  unsigned long g = atomic_load(&acl__errmsg_generation);
  if (r->generation != g) {
    acl__ring_clear(r);
    r->generation = g;
  }
}

static void acl__ring_push(acl__errmsg_ring *r, char *msg) {
  acl__ring_refresh(r);
  unsigned slot = r->head % ACL__ERRMSG_KEEP;
  free(r->msg[slot]);
  r->msg[slot] = msg;
  r->head++;
}

/* Joins the ring newest first, one message per line, and empties it. */
static char *acl__ring_take(acl__errmsg_ring *r) {
  acl__ring_refresh(r);
  if (r->head == 0)
    return NULL;
  unsigned n = r->head < ACL__ERRMSG_KEEP ? r->head : ACL__ERRMSG_KEEP;
  unsigned dropped = r->head - n;
  size_t len = 1;
  for (unsigned i = 0; i < n; i++) {
    const char *m = r->msg[(r->head - 1 - i) % ACL__ERRMSG_KEEP];
    len += (m ? strlen(m) : 0) + 1;
  }
  len += 80;
  char *out = malloc(len);
  if (out != NULL) {
    size_t pos = 0;
    for (unsigned i = 0; i < n; i++) {
      const char *m = r->msg[(r->head - 1 - i) % ACL__ERRMSG_KEEP];
      pos += (size_t)snprintf(out + pos, len - pos, "%s%s", i ? "\n" : "", m ? m : "");
    }
    if (dropped)
      snprintf(out + pos, len - pos, "\n(%u older messages were dropped)", dropped);
  }
  acl__ring_clear(r);
  return out;
}

static int acl__vfail(int level, const char *api, int code, const char *fmt, va_list ap) {
  char cause[1024];
  vsnprintf(cause, sizeof(cause), fmt, ap);

  const acl__error_info *info = acl__error_lookup(code);
  const char *remedy = (info && info->remedy[0] && strstr(cause, "Remedy:") == NULL) ? info->remedy : NULL;
  char *msg = NULL;
  if (asprintf(&msg, "%s failed: %s (%d): %s%s%s", api, info ? info->name : "UNKNOWN_ERROR", code, cause,
               remedy ? ". Remedy: " : "", remedy ? remedy : "") < 0)
    msg = NULL;

  ACL__LOG(level, ACL__MOD_ASCENDCL, "%s", msg ? msg : cause);

  acl__errmsg_thread *t = acl__errmsg_self();
  if (t != NULL)
    t->last_error = code;
  if (msg == NULL)
    return code;
  if (atomic_load_explicit(&acl__errmsg_process_mode, memory_order_relaxed)) {
    pthread_mutex_lock(&acl__errmsg_lock);
    acl__ring_push(&acl__errmsg_process, msg);
    pthread_mutex_unlock(&acl__errmsg_lock);
  } else if (t != NULL) {
    acl__ring_push(&t->ring, msg);
  } else {
    free(msg);
  }
  return code;
}

int acl__fail(const char *api, int code, const char *file, int line, const char *fmt, ...) {
  (void)file;
  (void)line;
  va_list ap;
  va_start(ap, fmt);
  int rc = acl__vfail(ACL__LOG_ERROR, api, code, fmt, ap);
  va_end(ap);
  return rc;
}

int acl__fail_polled(const char *api, int code, const char *file, int line, const char *fmt, ...) {
  (void)file;
  (void)line;
  va_list ap;
  va_start(ap, fmt);
  int rc = acl__vfail(ACL__LOG_DEBUG, api, code, fmt, ap);
  va_end(ap);
  return rc;
}

void acl__errmsg_set_mode(int process_wide) { atomic_store(&acl__errmsg_process_mode, process_wide != 0); }

const char *acl__errmsg_take(void) {
  acl__errmsg_thread *t = acl__errmsg_self();
  if (t == NULL)
    return NULL;
  char *out;
  if (atomic_load_explicit(&acl__errmsg_process_mode, memory_order_relaxed)) {
    pthread_mutex_lock(&acl__errmsg_lock);
    out = acl__ring_take(&acl__errmsg_process);
    pthread_mutex_unlock(&acl__errmsg_lock);
  } else {
    out = acl__ring_take(&t->ring);
  }
  free(t->returned);
  t->returned = out;
  return out;
}

void acl__errmsg_clear_all(void) {
  pthread_mutex_lock(&acl__errmsg_lock);
  atomic_fetch_add(&acl__errmsg_generation, 1);
  acl__ring_clear(&acl__errmsg_process);
  pthread_mutex_unlock(&acl__errmsg_lock);
}

int acl__last_error_get(int clear) {
  acl__errmsg_thread *t = acl__errmsg_self();
  if (t == NULL)
    return 0;
  int code = t->last_error;
  if (clear)
    t->last_error = 0;
  return code;
}

void acl__errmsg_atfork_prepare(void) { pthread_mutex_lock(&acl__errmsg_lock); }
void acl__errmsg_atfork_parent(void) { pthread_mutex_unlock(&acl__errmsg_lock); }
void acl__errmsg_atfork_child(void) {
  pthread_mutex_init(&acl__errmsg_lock, NULL);
  atomic_fetch_add(&acl__errmsg_generation, 1);
  acl__ring_clear(&acl__errmsg_process);
}
