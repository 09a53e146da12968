/*
 * strings.c - the profiler's string pool: copies of marker messages and
 * operator descriptions that records point to.  They are kept for the
 * life of the process (records and the engine's per-step cache refer to
 * them), in blocks, so a copy costs one bump of a pointer.
 *
 * Lock: pool_lock (a leaf).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "prof/prof_internal.h"

#define BLOCK_BYTES 65536

typedef struct block {
  struct block *next;
  size_t used, size;
  char data[];
} block;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static block *pool; /* pool_lock */

const char *acl__prof_strdup(const char *s, size_t n) {
  if (s == NULL)
    s = "";
  char *out = NULL;
  pthread_mutex_lock(&pool_lock);
  if (pool == NULL || pool->size - pool->used < n + 1) {
    size_t size = n + 1 > BLOCK_BYTES ? n + 1 : BLOCK_BYTES;
    block *b = malloc(sizeof(*b) + size);
    if (b != NULL) {
      b->next = pool;
      b->used = 0;
      b->size = size;
      pool = b;
    }
  }
  if (pool != NULL && pool->size - pool->used >= n + 1) {
    out = pool->data + pool->used;
    memcpy(out, s, n);
    out[n] = '\0';
    pool->used += n + 1;
  }
  pthread_mutex_unlock(&pool_lock);
  return out != NULL ? out : "";
}

const acl__prof_opinfo *acl__prof_opinfo_intern(const char *name, const char *type, const char *impl,
                                                const char *in_shapes, const char *in_types,
                                                const char *out_shapes, const char *out_types,
                                                const char *formats_in, const char *formats_out) {
  acl__prof_opinfo *o = calloc(1, sizeof(*o));
  if (o == NULL)
    return NULL;
#define KEEP(f, v) o->f = acl__prof_strdup((v), (v) != NULL ? strlen(v) : 0)
  KEEP(name, name);
  KEEP(type, type);
  KEEP(impl, impl);
  KEEP(in_shapes, in_shapes);
  KEEP(in_types, in_types);
  KEEP(out_shapes, out_shapes);
  KEEP(out_types, out_types);
  KEEP(in_formats, formats_in);
  KEEP(out_formats, formats_out);
#undef KEEP
  return o;
}
