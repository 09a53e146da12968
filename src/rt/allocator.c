/*
 * allocator.c - user allocators: descriptors and the per-stream registry.
 *
 * A descriptor is a small heap object the program fills with its
 * allocator's object and callbacks.  Registering it for a stream stores a
 * copy of the callbacks (and the descriptor's address, which GetByStream
 * hands back), so later changes to the descriptor, or destroying it, do not
 * change the registration - the vendor's rules.
 *
 * The runtime itself never calls the callbacks; it is a registry that the
 * layers which allocate memory for work on a stream consult (the vendor's
 * graph engine for dynamic-shape model executions and single operators).
 * docs/allocators.md says which openacl calls do.
 *
 * A registration goes when its stream is destroyed (acl__allocator_stream_gone),
 * so a stream created later at the same address starts without one.
 *
 * Lock: al_lock guards the registry; a leaf.  fork(): taken in the prepare
 * step after the callback registry (acl__allocator_atfork, called by
 * callback.c's fork hooks).
 */
#include "rt/allocator.h"

#include <pthread.h>
#include <stdlib.h>

#include "common/errmsg.h"
#include "rt/callback.h"

typedef struct al_entry {
  const acl__stream *s;      /* compared only */
  aclrtAllocatorDesc desc;   /* as registered, never dereferenced */
  acl__allocator fns;        /* the copy */
} al_entry;

static pthread_mutex_t al_lock = PTHREAD_MUTEX_INITIALIZER;
static al_entry *al_entries; /* al_lock */
static int al_n, al_cap;     /* al_lock */

void acl__allocator_atfork(int phase) {
  if (phase == ACL__FORK_PREPARE)
    pthread_mutex_lock(&al_lock);
  else if (phase == ACL__FORK_PARENT)
    pthread_mutex_unlock(&al_lock);
  else {
    pthread_mutex_init(&al_lock, NULL);
    al_n = 0; /* the parent's streams do not exist here */
  }
}

/* ---- descriptors ------------------------------------------------------------- */

aclrtAllocatorDesc acl__allocator_desc_create(void) {
  acl__allocator *a = calloc(1, sizeof(*a));
  if (a != NULL)
    acl__handle_register(a, ACL__H_ALLOCATOR_DESC);
  return a;
}

acl__allocator *acl__allocator_desc_get(const char *api, aclrtAllocatorDesc desc, int *rc) {
  if (desc == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                    "allocatorDesc is NULL. Remedy: pass a descriptor made by aclrtAllocatorCreateDesc");
    return NULL;
  }
  if (!acl__handle_valid(desc, ACL__H_ALLOCATOR_DESC)) {
    *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                    "allocatorDesc %p is not a live allocator descriptor (destroyed already, or never made by "
                    "aclrtAllocatorCreateDesc)",
                    desc);
    return NULL;
  }
  return desc;
}

void acl__allocator_desc_destroy(acl__allocator *a) {
  acl__handle_unregister(a);
  free(a);
}

/* ---- registry --------------------------------------------------------------------- */

static int al_find_locked(const acl__stream *s) {
  for (int i = 0; i < al_n; i++)
    if (al_entries[i].s == s)
      return i;
  return -1;
}

int acl__allocator_register(const char *api, const acl__stream *s, aclrtAllocatorDesc desc, const acl__allocator *a) {
  int rc = 0;
  pthread_mutex_lock(&al_lock);
  int i = al_find_locked(s);
  if (i < 0) {
    if (al_n == al_cap) {
      int cap = al_cap ? 2 * al_cap : 16;
      al_entry *bigger = realloc(al_entries, (size_t)cap * sizeof(*bigger));
      if (bigger == NULL) {
        rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a registration");
        goto out;
      }
      al_entries = bigger;
      al_cap = cap;
    }
    i = al_n++;
    al_entries[i].s = s;
  }
  al_entries[i].desc = desc; /* registering again replaces */
  al_entries[i].fns = *a;
out:
  pthread_mutex_unlock(&al_lock);
  return rc;
}

int acl__allocator_lookup(const acl__stream *s, aclrtAllocatorDesc *desc, acl__allocator *out) {
  pthread_mutex_lock(&al_lock);
  int i = al_find_locked(s);
  if (i >= 0) {
    if (desc != NULL)
      *desc = al_entries[i].desc;
    if (out != NULL)
      *out = al_entries[i].fns;
  }
  pthread_mutex_unlock(&al_lock);
  return i >= 0;
}

void acl__allocator_unregister(const acl__stream *s) {
  pthread_mutex_lock(&al_lock);
  int i = al_find_locked(s);
  if (i >= 0)
    al_entries[i] = al_entries[--al_n];
  pthread_mutex_unlock(&al_lock);
}

void acl__allocator_stream_gone(const acl__stream *s) { acl__allocator_unregister(s); }
