/*
 * handle.c - the table of live handles.  ACL handles are void pointers, so
 * nothing else protects the runtime from a destroyed, foreign or garbage
 * one: every API looks its handle up here before dereferencing it.
 *
 * A set of pointers, split into stripes by hash.  Each stripe is an
 * open-addressing table.  Lookups take no lock: keys and types are atomics,
 * a key is published (release) after its type, and a stripe's table pointer
 * is swapped (release) when it grows.  Writers (register, unregister) take
 * the stripe's lock.  A table replaced by growth stays allocated (on the
 * stripe's retired list) because a reader may still be probing it; tables
 * only double, so the retired ones together are never bigger than the live
 * one.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt/rt.h"

/* 16 stripes: enough to spread writers, and few enough that the fork
 * prepare handler, which holds them all at once, stays within the lock
 * count ThreadSanitizer can track (64). */
#define ACL__HSTRIPES 16
#define ACL__HTOMB ((uintptr_t)1)

typedef struct acl__hslot {
  _Atomic uintptr_t key;   /* 0 = empty, 1 = tombstone */
  atomic_int type;
} acl__hslot;

typedef struct acl__htable {
  struct acl__htable *retired_next;
  size_t cap;              /* power of two */
  acl__hslot slots[];
} acl__htable;

typedef struct acl__hstripe {
  pthread_mutex_t lock;            /* writers */
  _Atomic(acl__htable *) table;    /* NULL until the first register */
  size_t used;                     /* live + tombstones (lock) */
  acl__htable *retired;            /* replaced tables (lock) */
} acl__hstripe;

static acl__hstripe acl__handles[ACL__HSTRIPES] = {
#define ACL__HS_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, 0, NULL}
#define ACL__HS_INIT8 ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT, ACL__HS_INIT
    ACL__HS_INIT8, ACL__HS_INIT8,
#undef ACL__HS_INIT8
#undef ACL__HS_INIT
};

static uint64_t acl__hmix(uintptr_t k) {
  uint64_t x = (uint64_t)k;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

static acl__hstripe *acl__hstripe_of(uintptr_t k) { return &acl__handles[acl__hmix(k) & (ACL__HSTRIPES - 1)]; }

/* Finds k's slot in t, or (for_insert) the slot to put it in. */
static acl__hslot *acl__hfind(acl__htable *t, uintptr_t k, int for_insert) {
  if (t == NULL)
    return NULL;
  size_t mask = t->cap - 1, i = (size_t)(acl__hmix(k) >> 8) & mask;
  acl__hslot *tomb = NULL;
  for (size_t n = 0; n < t->cap; n++, i = (i + 1) & mask) {
    acl__hslot *e = &t->slots[i];
    uintptr_t key = atomic_load_explicit(&e->key, memory_order_acquire);
    if (key == k)
      return e;
    if (key == 0)
      return for_insert ? (tomb ? tomb : e) : NULL;
    if (key == ACL__HTOMB && tomb == NULL)
      tomb = e;
  }
  return for_insert ? tomb : NULL;
}

static acl__htable *acl__htable_new(size_t cap) {
  acl__htable *t = calloc(1, sizeof(*t) + cap * sizeof(acl__hslot));
  if (t != NULL)
    t->cap = cap;
  return t;
}

/* Stripe lock held: a table twice as big with the live keys, published. */
static int acl__hgrow(acl__hstripe *s) {
  acl__htable *old = atomic_load_explicit(&s->table, memory_order_relaxed);
  acl__htable *t = acl__htable_new(old ? old->cap * 2 : 64);
  if (t == NULL)
    return -1;
  size_t used = 0;
  for (size_t i = 0; old != NULL && i < old->cap; i++) {
    uintptr_t key = atomic_load_explicit(&old->slots[i].key, memory_order_relaxed);
    if (key <= ACL__HTOMB)
      continue;
    acl__hslot *e = acl__hfind(t, key, 1);
    atomic_store_explicit(&e->type, atomic_load_explicit(&old->slots[i].type, memory_order_relaxed),
                          memory_order_relaxed);
    atomic_store_explicit(&e->key, key, memory_order_relaxed);
    used++;
  }
  atomic_store_explicit(&s->table, t, memory_order_release);
  s->used = used;
  if (old != NULL) {
    old->retired_next = s->retired;
    s->retired = old;
  }
  return 0;
}

void acl__handle_register(void *h, acl__handle_type type) {
  uintptr_t k = (uintptr_t)h;
  acl__hstripe *s = acl__hstripe_of(k);
  pthread_mutex_lock(&s->lock);
  acl__htable *t = atomic_load_explicit(&s->table, memory_order_relaxed);
  if ((t == NULL || (s->used + 1) * 4 >= t->cap * 3) && acl__hgrow(s) != 0) {
    pthread_mutex_unlock(&s->lock);
    return; /* out of memory: the handle is unknown, later calls reject it */
  }
  t = atomic_load_explicit(&s->table, memory_order_relaxed);
  acl__hslot *e = acl__hfind(t, k, 1);
  if (atomic_load_explicit(&e->key, memory_order_relaxed) == 0)
    s->used++;
  atomic_store_explicit(&e->type, (int)type, memory_order_relaxed);
  atomic_store_explicit(&e->key, k, memory_order_release);
  pthread_mutex_unlock(&s->lock);
}

void acl__handle_unregister(void *h) {
  uintptr_t k = (uintptr_t)h;
  acl__hstripe *s = acl__hstripe_of(k);
  pthread_mutex_lock(&s->lock);
  acl__hslot *e = acl__hfind(atomic_load_explicit(&s->table, memory_order_relaxed), k, 0);
  if (e != NULL)
    atomic_store_explicit(&e->key, ACL__HTOMB, memory_order_release);
  pthread_mutex_unlock(&s->lock);
}

int acl__handle_valid(const void *h, acl__handle_type type) {
  uintptr_t k = (uintptr_t)h;
  if (k <= ACL__HTOMB)
    return 0;
  acl__hstripe *s = acl__hstripe_of(k);
  acl__hslot *e = acl__hfind(atomic_load_explicit(&s->table, memory_order_acquire), k, 0);
  return e != NULL && atomic_load_explicit(&e->type, memory_order_relaxed) == (int)type;
}

/* fork(): no stripe may be inherited locked, and the child forgets every
 * handle (the objects behind them belong to the parent's runtime). */
void acl__handle_atfork_prepare(void) {
  for (int i = 0; i < ACL__HSTRIPES; i++)
    pthread_mutex_lock(&acl__handles[i].lock);
}

void acl__handle_atfork_parent(void) {
  for (int i = ACL__HSTRIPES - 1; i >= 0; i--)
    pthread_mutex_unlock(&acl__handles[i].lock);
}

void acl__handle_atfork_child(void) {
  for (int i = 0; i < ACL__HSTRIPES; i++) {
    acl__hstripe *s = &acl__handles[i];
    pthread_mutex_init(&s->lock, NULL);
    free(atomic_load_explicit(&s->table, memory_order_relaxed));
    while (s->retired != NULL) {
      acl__htable *n = s->retired->retired_next;
      free(s->retired);
      s->retired = n;
    }
    atomic_store_explicit(&s->table, NULL, memory_order_relaxed);
    s->used = 0;
  }
}

const char *acl__handle_type_name(acl__handle_type type) {
  switch (type) {
  case ACL__H_CONTEXT: return "context";
  case ACL__H_STREAM: return "stream";
  case ACL__H_EVENT: return "event";
  case ACL__H_BINARY: return "binary";
  case ACL__H_FUNCTION: return "function";
  case ACL__H_ARGS: return "kernel arguments";
  case ACL__H_DATASET: return "dataset";
  case ACL__H_TENSOR_DESC: return "tensor descriptor";
  case ACL__H_MODEL_DESC: return "model description";
  case ACL__H_DATA_BUFFER: return "data buffer";
  case ACL__H_STREAM_CONFIG: return "stream configuration";
  case ACL__H_EXCEPTION_INFO: return "exception info";
  case ACL__H_ALLOCATOR_DESC: return "allocator descriptor";
  case ACL__H_LABEL: return "label";
  case ACL__H_LABEL_LIST: return "label list";
  case ACL__H_MODEL_CONFIG: return "model load configuration";
  case ACL__H_TDT_ITEM: return "TDT data item";
  case ACL__H_TDT_DATASET: return "TDT dataset";
  case ACL__H_TDT_CHANNEL: return "TDT channel";
  case ACL__H_TDT_QUEUE_ATTR: return "TDT queue attribute set";
  case ACL__H_TDT_ROUTE: return "TDT queue route";
  case ACL__H_TDT_ROUTE_LIST: return "TDT queue route list";
  case ACL__H_TDT_ROUTE_QUERY: return "TDT queue route query";
  case ACL__H_NOTIFY: return "notify";
  case ACL__H_CNT_NOTIFY: return "count notify";
  case ACL__H_NN_TENSOR: return "aclTensor";
  case ACL__H_NN_SCALAR: return "aclScalar";
  case ACL__H_NN_INT_ARRAY: return "aclIntArray";
  case ACL__H_NN_FLOAT_ARRAY: return "aclFloatArray";
  case ACL__H_NN_BOOL_ARRAY: return "aclBoolArray";
  case ACL__H_NN_TENSOR_LIST: return "aclTensorList";
  case ACL__H_NN_SCALAR_LIST: return "aclScalarList";
  case ACL__H_NN_EXECUTOR: return "aclOpExecutor";
  case ACL__H_MODEL_RI: return "model runtime instance";
  case ACL__H_RI_TASK: return "model runtime instance task";
  case ACL__H_RI_COND: return "condition handle";
  case ACL__H_RI_GRP: return "task group";
  default: return "handle";
  }
}
