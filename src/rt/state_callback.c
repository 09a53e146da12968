/*
 * state_callback.c - named state callbacks: stream created / about to be
 * destroyed (aclrtRegStreamStateCallback), device set / reset
 * (aclrtRegDeviceStateCallback), device task abort stages
 * (aclrtSetDeviceTaskAbortCallback).
 *
 * The vendor keeps one registry per kind, process-wide, keyed by a
 * non-empty name: a NULL callback removes the name (an unknown name is no
 * error), registering a name again with a callback fails with
 * ACL_ERROR_RT_PARAM_INVALID.  Registrations outlive aclFinalize, like the
 * init callbacks.  Callbacks run synchronously on the thread doing the
 * operation, from a copy of the registry, so a callback may register or
 * remove names.
 *
 * Lock: acl__statecb.lock, a leaf, never held while a callback runs.  A
 * fork child re-creates it (the child's registry is as the parent left it).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/state_callback.h"

typedef struct acl__statecb_entry {
  char *name;
  void (*fn)(void);
  void *args;
} acl__statecb_entry;

static struct {
  pthread_mutex_t lock;
  acl__statecb_entry *list[ACL__STATECB_KINDS]; /* guarded by lock */
  size_t n[ACL__STATECB_KINDS], cap[ACL__STATECB_KINDS];
  atomic_int any;                               /* entries in all registries: a fast "none" */
} acl__statecb = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t acl__statecb_once = PTHREAD_ONCE_INIT;

static void acl__statecb_atfork_child(void) { pthread_mutex_init(&acl__statecb.lock, NULL); }
static void acl__statecb_setup(void) { pthread_atfork(NULL, NULL, acl__statecb_atfork_child); }

static const char *const acl__statecb_what[ACL__STATECB_KINDS] = {"stream-state", "device-state", "task-abort"};

int acl__statecb_register(const char *api, acl__statecb_kind kind, const char *name, void (*fn)(void), void *args) {
  if (name == NULL || name[0] == '\0')
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "regName is %s; pass a non-empty name that identifies the callback",
                     name == NULL ? "NULL" : "empty");
  pthread_once(&acl__statecb_once, acl__statecb_setup);
  int rc = 0;
  pthread_mutex_lock(&acl__statecb.lock);
  acl__statecb_entry *l = acl__statecb.list[kind];
  size_t n = acl__statecb.n[kind], i = 0;
  while (i < n && strcmp(l[i].name, name) != 0)
    i++;
  if (fn == NULL) {
    if (i < n) { /* removed; an unknown name is no error */
      free(l[i].name);
      l[i] = l[n - 1];
      acl__statecb.n[kind]--;
      atomic_fetch_sub(&acl__statecb.any, 1);
    }
    goto out;
  }
  if (i < n) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "a %s callback named \"%s\" is registered already. Remedy: remove it first (callback NULL) or "
                   "use another name",
                   acl__statecb_what[kind], name);
    goto out;
  }
  if (n == acl__statecb.cap[kind]) {
    size_t cap = n ? n * 2 : 4;
    acl__statecb_entry *bigger = realloc(l, cap * sizeof(*l));
    if (bigger == NULL) {
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the registry");
      goto out;
    }
    acl__statecb.list[kind] = l = bigger;
    acl__statecb.cap[kind] = cap;
  }
  char *copy = strdup(name);
  if (copy == NULL) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the registry");
    goto out;
  }
  l[n] = (acl__statecb_entry){copy, fn, args};
  acl__statecb.n[kind] = n + 1;
  atomic_fetch_add(&acl__statecb.any, 1);
out:
  pthread_mutex_unlock(&acl__statecb.lock);
  return rc;
}

/* A copy of one registry (names not copied: only fn and args are used,
 * and the name for a failing task-abort callback, copied under the lock). */
static size_t acl__statecb_snapshot(acl__statecb_kind kind, acl__statecb_entry **out) {
  *out = NULL;
  if (atomic_load_explicit(&acl__statecb.any, memory_order_relaxed) == 0)
    return 0;
  pthread_mutex_lock(&acl__statecb.lock);
  size_t n = acl__statecb.n[kind];
  acl__statecb_entry *copy = n ? malloc(n * sizeof(*copy)) : NULL;
  if (copy != NULL) {
    memcpy(copy, acl__statecb.list[kind], n * sizeof(*copy));
    for (size_t i = 0; i < n; i++)
      copy[i].name = NULL;
  } else {
    n = 0;
  }
  pthread_mutex_unlock(&acl__statecb.lock);
  *out = copy;
  return n;
}

void acl__statecb_stream(acl__stream *s, aclrtStreamState state) {
  acl__statecb_entry *l;
  size_t n = acl__statecb_snapshot(ACL__STATECB_STREAM, &l);
  for (size_t i = 0; i < n; i++)
    ((aclrtStreamStateCallback)l[i].fn)((aclrtStream)s, state, l[i].args);
  free(l);
}

void acl__statecb_device(int32_t device_id, aclrtDeviceState state) {
  acl__statecb_entry *l;
  size_t n = acl__statecb_snapshot(ACL__STATECB_DEVICE, &l);
  for (size_t i = 0; i < n; i++)
    ((aclrtDeviceStateCallback)l[i].fn)(device_id, state, l[i].args);
  free(l);
}

int32_t acl__statecb_task_abort(int32_t device_id, aclrtDeviceTaskAbortStage stage, uint32_t timeout_ms,
                                char *failed_name, size_t cap) {
  acl__statecb_entry *l;
  size_t n = acl__statecb_snapshot(ACL__STATECB_TASK_ABORT, &l);
  int32_t rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    rc = ((aclrtDeviceTaskAbortCallback)l[i].fn)(device_id, stage, timeout_ms, l[i].args);
    if (rc != 0 && failed_name != NULL && cap > 0) {
      /* the name, if the entry is still registered */
      failed_name[0] = '\0';
      pthread_mutex_lock(&acl__statecb.lock);
      for (size_t k = 0; k < acl__statecb.n[ACL__STATECB_TASK_ABORT]; k++) {
        acl__statecb_entry *e = &acl__statecb.list[ACL__STATECB_TASK_ABORT][k];
        if (e->fn == l[i].fn && e->args == l[i].args) {
          snprintf(failed_name, cap, "%s", e->name);
          break;
        }
      }
      pthread_mutex_unlock(&acl__statecb.lock);
    }
  }
  free(l);
  return rc;
}
