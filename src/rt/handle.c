/*
 * handle.c - the table of live handles.  ACL handles are void pointers, so
 * nothing else protects the runtime from a destroyed, foreign or garbage
 * one: every API looks its handle up here before dereferencing it.
 *
 * A set of pointers, split into stripes by hash so that threads working on
 * different objects rarely meet on a lock.  Each stripe is an open-addressing
 * table that grows; deletions leave tombstones, cleared at the next growth.
 * Each stripe lock is a leaf lock.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "rt/rt.h"

/* 16 stripes: enough to spread contention, and few enough that the fork
 * prepare handler, which holds them all at once, stays within the lock
 * count ThreadSanitizer can track (64). */
#define ACL__HSTRIPES 16
#define ACL__HTOMB ((uintptr_t)1)

typedef struct acl__hslot {
  uintptr_t key;   /* 0 = empty, 1 = tombstone */
  int type;
} acl__hslot;

typedef struct acl__hstripe {
  pthread_mutex_t lock;
  acl__hslot *slots;
  size_t cap;      /* power of two */
  size_t used;     /* live + tombstones */
} acl__hstripe;

static acl__hstripe acl__handles[ACL__HSTRIPES] = {
#define ACL__HS_INIT {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0}
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

/* Finds k's slot, or the slot to insert it (first tombstone or empty). */
static acl__hslot *acl__hfind(acl__hstripe *s, uintptr_t k, int for_insert) {
  if (s->cap == 0)
    return NULL;
  size_t mask = s->cap - 1, i = (size_t)(acl__hmix(k) >> 8) & mask;
  acl__hslot *tomb = NULL;
  for (size_t n = 0; n < s->cap; n++, i = (i + 1) & mask) {
    acl__hslot *e = &s->slots[i];
    if (e->key == k)
      return e;
    if (e->key == 0)
      return for_insert ? (tomb ? tomb : e) : NULL;
    if (e->key == ACL__HTOMB && tomb == NULL)
      tomb = e;
  }
  return for_insert ? tomb : NULL;
}

static int acl__hgrow(acl__hstripe *s) {
  size_t cap = s->cap ? s->cap * 2 : 64;
  acl__hslot *old = s->slots;
  size_t old_cap = s->cap;
  acl__hslot *slots = calloc(cap, sizeof(*slots));
  if (slots == NULL)
    return -1;
  s->slots = slots;
  s->cap = cap;
  s->used = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].key > ACL__HTOMB) {
      acl__hslot *e = acl__hfind(s, old[i].key, 1);
      *e = old[i];
      s->used++;
    }
  free(old);
  return 0;
}

void acl__handle_register(void *h, acl__handle_type type) {
  uintptr_t k = (uintptr_t)h;
  acl__hstripe *s = acl__hstripe_of(k);
  pthread_mutex_lock(&s->lock);
  if ((s->used + 1) * 4 >= s->cap * 3 && acl__hgrow(s) != 0) {
    pthread_mutex_unlock(&s->lock);
    return; /* out of memory: the handle is unknown, later calls reject it */
  }
  acl__hslot *e = acl__hfind(s, k, 1);
  if (e->key == 0)
    s->used++;
  e->key = k;
  e->type = (int)type;
  pthread_mutex_unlock(&s->lock);
}

void acl__handle_unregister(void *h) {
  uintptr_t k = (uintptr_t)h;
  acl__hstripe *s = acl__hstripe_of(k);
  pthread_mutex_lock(&s->lock);
  acl__hslot *e = acl__hfind(s, k, 0);
  if (e != NULL)
    e->key = ACL__HTOMB;
  pthread_mutex_unlock(&s->lock);
}

int acl__handle_valid(const void *h, acl__handle_type type) {
  uintptr_t k = (uintptr_t)h;
  if (k <= ACL__HTOMB)
    return 0;
  acl__hstripe *s = acl__hstripe_of(k);
  pthread_mutex_lock(&s->lock);
  acl__hslot *e = acl__hfind(s, k, 0);
  int ok = e != NULL && e->type == (int)type;
  pthread_mutex_unlock(&s->lock);
  return ok;
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
    free(s->slots);
    s->slots = NULL;
    s->cap = s->used = 0;
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
  default: return "handle";
  }
}
