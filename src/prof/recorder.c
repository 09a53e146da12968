/*
 * recorder.c - per-thread record buffers.  Each thread that reports while
 * profiling is on gets a buffer (chunks of records) registered once in a
 * global list; appending takes no lock: the owner fills a slot and then
 * publishes the new count with a release store.  Stop reads every buffer
 * of the current session up to its published count (acquire).
 *
 * Sessions are numbered (gen).  A buffer holding records of an older
 * session is reset by its owner on the next append, so Start never walks
 * or frees buffers other threads may be writing.  A buffer whose thread
 * ended is orphaned and adopted by the next new thread once its records
 * have been collected.
 *
 * Lock: reg_lock guards the registry list and adoption (taken when a
 * thread first records, and by acl__prof_collect); below acl__prof_lock.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "prof/prof_internal.h"

/* A chunk is 2 MiB, aligned and advised as a huge page: the first records of
 * a session touch fresh memory, and one fault per 2 MiB costs far less per
 * record than one per 4 KiB page (docs/performance.md, "Profiling cost"). */
#define CHUNK_BYTES (2u << 20)
#define CHUNK_RECS ((CHUNK_BYTES - 64) / sizeof(acl__prof_rec))
#define MAX_RECS_PER_THREAD (1u << 20) /* 1 Mi records (128 MiB) per thread per session */

typedef struct chunk {
  struct chunk *next;
  acl__prof_rec r[CHUNK_RECS];
} chunk;

typedef struct tbuf {
  struct tbuf *next;         /* registry list (reg_lock) */
  atomic_uint gen;           /* the session its records belong to (owner writes) */
  atomic_size_t published;   /* records readable by the collector */
  atomic_int orphan;         /* its thread ended */
  chunk *head, *cur;         /* owner only (and the collector, up to `published`) */
  size_t cur_n;              /* owner: records used in cur */
  uint32_t tid;              /* owner's thread id (set on adoption) */
} tbuf;

_Atomic unsigned acl__prof_flags;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static tbuf *reg_head;            /* reg_lock */
static atomic_uint cur_gen = 1;
static atomic_size_t dropped;     /* records lost to the per-thread cap or memory */
static _Thread_local tbuf *my_buf;
static _Thread_local uint32_t my_tid;
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

uint64_t acl__prof_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint32_t acl__prof_tid(void) {
  if (my_tid == 0)
    my_tid = (uint32_t)syscall(SYS_gettid);
  return my_tid;
}

static void thread_gone(void *p) {
  tbuf *b = p;
  atomic_store_explicit(&b->orphan, 1, memory_order_release);
}

static void make_key(void) { pthread_key_create(&exit_key, thread_gone); }

static tbuf *buf_get(void) {
  if (my_buf != NULL)
    return my_buf;
  pthread_once(&key_once, make_key);
  unsigned g = atomic_load(&cur_gen);
  tbuf *b = NULL;
  pthread_mutex_lock(&reg_lock);
  for (tbuf *x = reg_head; x != NULL; x = x->next) {
    int one = 1;
    if (atomic_load(&x->gen) != g && atomic_compare_exchange_strong(&x->orphan, &one, 0)) {
      b = x; /* an ended thread's buffer, already collected: reuse it */
      break;
    }
  }
  if (b == NULL && (b = calloc(1, sizeof(*b))) != NULL) {
    b->next = reg_head;
    reg_head = b;
  }
  pthread_mutex_unlock(&reg_lock);
  if (b == NULL)
    return NULL;
  b->tid = acl__prof_tid();
  my_buf = b;
  pthread_setspecific(exit_key, b);
  return b;
}

static chunk *chunk_new(void) {
  void *p = NULL;
  if (posix_memalign(&p, CHUNK_BYTES, sizeof(chunk)) != 0)
    return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, sizeof(chunk), MADV_HUGEPAGE); /* advice only: fine if refused */
#endif
  return p;
}

acl__prof_rec *acl__prof_slot(void) {
  tbuf *b = buf_get();
  if (b == NULL) {
    atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
    return NULL;
  }
  unsigned g = atomic_load_explicit(&cur_gen, memory_order_acquire);
  if (atomic_load_explicit(&b->gen, memory_order_relaxed) != g) {
    /* records of an older session: start over, reusing the chunks */
    atomic_store_explicit(&b->published, 0, memory_order_relaxed);
    b->cur = b->head;
    b->cur_n = 0;
    atomic_store_explicit(&b->gen, g, memory_order_release);
  }
  if (atomic_load_explicit(&b->published, memory_order_relaxed) >= MAX_RECS_PER_THREAD) {
    atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
    return NULL;
  }
  if (b->cur == NULL || b->cur_n == CHUNK_RECS) {
    chunk *next = b->cur != NULL ? b->cur->next : b->head;
    if (next == NULL) {
      next = chunk_new();
      if (next == NULL) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return NULL;
      }
      next->next = NULL;
      if (b->cur != NULL)
        b->cur->next = next;
      else
        b->head = next;
    }
    b->cur = next;
    b->cur_n = 0;
  }
  acl__prof_rec *r = &b->cur->r[b->cur_n];
  memset(r, 0, sizeof(*r));
  r->tid = b->tid;
  r->device = -1;
  r->stream = -1;
  r->model = UINT32_MAX;
  return r;
}

void acl__prof_commit(void) {
  tbuf *b = my_buf;
  b->cur_n++;
  atomic_fetch_add_explicit(&b->published, 1, memory_order_release);
}

void acl__prof_recorder_reset(void) {
  atomic_fetch_add(&cur_gen, 1);
  atomic_store(&dropped, 0);
}

static int by_time(const void *a, const void *b) {
  const acl__prof_rec *x = a, *y = b;
  if (x->t0 != y->t0)
    return x->t0 < y->t0 ? -1 : 1;
  if (x->t1 != y->t1)
    return x->t1 > y->t1 ? -1 : 1; /* the longer (enclosing) first */
  return (int)x->kind - (int)y->kind;
}

acl__prof_rec *acl__prof_collect(size_t *n_out) {
  unsigned g = atomic_load(&cur_gen);
  size_t n = 0, cap = 0;
  acl__prof_rec *all = NULL;
  pthread_mutex_lock(&reg_lock);
  for (tbuf *b = reg_head; b != NULL; b = b->next) {
    if (atomic_load_explicit(&b->gen, memory_order_acquire) != g)
      continue;
    size_t k = atomic_load_explicit(&b->published, memory_order_acquire);
    if (n + k > cap) {
      size_t nc = (n + k) * 2;
      acl__prof_rec *bigger = realloc(all, nc * sizeof(*all));
      if (bigger == NULL)
        break;
      all = bigger;
      cap = nc;
    }
    size_t left = k;
    for (chunk *c = b->head; c != NULL && left > 0; c = c->next) {
      size_t take = left < CHUNK_RECS ? left : CHUNK_RECS;
      memcpy(all + n, c->r, take * sizeof(*all));
      n += take;
      left -= take;
    }
  }
  pthread_mutex_unlock(&reg_lock);
  size_t lost = atomic_load(&dropped);
  if (lost > 0)
    ACL__LOGW(ACL__MOD_ASCENDCL, "profiling: %zu records were dropped (a thread passed %u records, or out "
              "of memory)", lost, MAX_RECS_PER_THREAD);
  if (n > 1)
    qsort(all, n, sizeof(*all), by_time);
  *n_out = n;
  return all;
}
