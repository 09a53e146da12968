/*
 * strings.c - the profiler's string pool: copies of marker messages and
 * operator descriptions that records point to.  They are kept for the
 * life of the process (records and the engine's per-step cache refer to
 * them), in blocks, so a copy costs one bump of a pointer.
 *
 * Lock: pool_lock (a leaf).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "prof/prof_internal.h"

#define BLOCK_BYTES 65536

typedef struct block {
  struct block *next;
  size_t used, size;
  _Alignas(max_align_t) char data[]; /* pool_alloc hands out max_align_t-aligned pieces */
} block;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static block *pool; /* pool_lock */

/* n bytes from the pool, aligned for any object; NULL when out of memory. */
static void *pool_alloc(size_t n) {
  const size_t align = sizeof(max_align_t);
  void *out = NULL;
  pthread_mutex_lock(&pool_lock);
  size_t at = pool != NULL ? (pool->used + align - 1) / align * align : 0;
  if (pool == NULL || at > pool->size || pool->size - at < n) {
    size_t size = n > BLOCK_BYTES ? n : BLOCK_BYTES;
    block *b = malloc(sizeof(*b) + size);
    if (b != NULL) {
      b->next = pool;
      b->used = 0;
      b->size = size;
      pool = b;
    }
    at = 0;
  }
  if (pool != NULL && at <= pool->size && pool->size - at >= n) {
    out = pool->data + at;
    pool->used = at + n;
  }
  pthread_mutex_unlock(&pool_lock);
  return out;
}

const char *acl__prof_strdup(const char *s, size_t n) {
  if (s == NULL)
    s = "";
  char *out = pool_alloc(n + 1);
  if (out == NULL)
    return "";
  memcpy(out, s, n);
  out[n] = '\0';
  return out;
}

const acl__prof_opinfo *acl__prof_opinfo_intern(const char *name, const char *type, const char *impl,
                                                const char *in_shapes, const char *in_types,
                                                const char *out_shapes, const char *out_types,
                                                const char *formats_in, const char *formats_out) {
  /* from the pool too: the plans that cache it come and go, the records
   * that point to it stay until the process ends */
  acl__prof_opinfo *o = pool_alloc(sizeof(*o));
  if (o == NULL)
    return NULL;
  memset(o, 0, sizeof(*o));
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
