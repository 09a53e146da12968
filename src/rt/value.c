/*
 * value.c - aclrtValueWrite / aclrtValueWait: a 64-bit word in device
 * memory used to order streams, as a card's stream scheduler does.
 *
 * A value write is a task that stores the word and then wakes the value
 * waits watching that address whose condition now holds.  A value wait is a
 * task that checks its condition; when it does not hold yet the wait goes on
 * the watch list and parks its stream: no thread blocks, the executors go on
 * with other streams.  Writes that do not come from aclrtValueWrite (a
 * kernel, a copy, the host through aclrtMemcpy) are seen by the timer
 * thread (timer.c), which looks at the watched words every
 * ACL__VALUE_POLL_NS while a wait is parked, the way a card's scheduler
 * polls the word.
 *
 * A wait that the write (or a poll) found satisfied is marked so before its
 * stream is woken: a word that changes again before the wait runs does not
 * undo it.
 *
 * The watch list is split by address into ACL__VALUE_BUCKETS lists, each
 * with its own lock, so that streams signalling each other through
 * different words do not contend.
 *
 * Locks: a bucket lock -> stream lock (a wake).  Task functions take one
 * bucket lock with no other lock held; the poller takes them one at a time.
 * The word itself is read and written atomically.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "rt/executor.h"
#include "rt/memory.h"
#include "rt/rt.h"
#include "rt/timer.h"
#include "rt/value.h"

/* How often the timer thread looks at watched words while a wait is parked. */
#define ACL__VALUE_POLL_NS 1000000u
/* How long the polling goes on after the last wait parked. */
#define ACL__VALUE_LINGER_NS 100000000u
#define ACL__VALUE_BUCKETS 64

typedef struct acl__value_waiter {
  struct acl__value_waiter *next, *prev; /* its bucket's list (bucket lock) */
  const _Atomic uint64_t *addr;
  uint64_t value;
  uint32_t flag;
  acl__stream *stream;
  int linked;                            /* bucket lock; unlinked after linking = satisfied */
} acl__value_waiter;

typedef struct acl__value_bucket {
  pthread_mutex_t lock;
  acl__value_waiter *head;
  atomic_int count;                      /* waiters in the bucket: writes skip the lock at 0 */
} acl__value_bucket;

static acl__value_bucket acl__values[ACL__VALUE_BUCKETS];
static atomic_int acl__values_count;     /* waiters in all buckets: the poller skips at 0 */
static _Atomic uint64_t acl__values_last_park; /* when a wait last parked */

static pthread_once_t acl__values_once = PTHREAD_ONCE_INIT;
static void acl__values_init(void) {
  for (int i = 0; i < ACL__VALUE_BUCKETS; i++) {
    pthread_mutex_init(&acl__values[i].lock, NULL);
    acl__values[i].head = NULL; /* in a fork child: the parent's waits are not ours */
    atomic_store(&acl__values[i].count, 0);
  }
  atomic_store(&acl__values_count, 0);
}
static void acl__values_setup(void) {
  acl__values_init();
  pthread_atfork(NULL, NULL, acl__values_init);
}

static acl__value_bucket *acl__value_bucket_of(const void *addr) {
  uintptr_t a = (uintptr_t)addr >> 3; /* words are 8-byte aligned */
  return &acl__values[(a ^ (a >> 6) ^ (a >> 12)) & (ACL__VALUE_BUCKETS - 1)];
}

int acl__value_holds(uint64_t cur, uint64_t value, uint32_t flag) {
  switch (flag) {
  case ACL_STREAM_WAIT_VALUE_GEQ: return (int64_t)(cur - value) >= 0; /* wraps like a sequence number */
  case ACL_STREAM_WAIT_VALUE_EQ: return cur == value;
  case ACL_STREAM_WAIT_VALUE_AND: return (cur & value) != 0;
  case ACL_STREAM_WAIT_VALUE_NOR: return ~(cur | value) != 0;
  default: return 0;
  }
}

/* Bucket lock held. */
static void acl__value_unlink_locked(acl__value_bucket *b, acl__value_waiter *w) {
  if (!w->linked)
    return;
  if (w->prev != NULL)
    w->prev->next = w->next;
  else
    b->head = w->next;
  if (w->next != NULL)
    w->next->prev = w->prev;
  w->linked = 0;
  atomic_fetch_sub(&b->count, 1);
  atomic_fetch_sub(&acl__values_count, 1);
}

/* Bucket lock held: wakes the bucket's waits (at `addr`, or all when NULL:
 * the poller) whose condition holds.  Returns 1 when waits remain. */
static int acl__value_wake_locked(acl__value_bucket *b, const _Atomic uint64_t *addr) {
  int left = 0;
  for (acl__value_waiter *w = b->head, *next; w != NULL; w = next) {
    next = w->next;
    if (addr != NULL && w->addr != addr)
      continue;
    /* the timer thread has no device access of its own; executors have */
    if (addr == NULL)
      acl__device_access_begin(w->stream->dev);
    uint64_t cur = atomic_load_explicit(w->addr, memory_order_acquire);
    if (addr == NULL)
      acl__device_access_end(w->stream->dev);
    if (!acl__value_holds(cur, w->value, w->flag)) {
      left = 1;
      continue;
    }
    acl__value_unlink_locked(b, w); /* unlinked = satisfied: the task sees it when it runs again */
    acl__stream_unpark(w->stream);
  }
  return left;
}

typedef struct acl__value_task {
  _Atomic uint64_t *addr;   /* as device code reaches it (acl__mem_dev_ptr) */
  void *user_addr;          /* as the program gave it (aclmdlRITaskGetParams) */
  uint64_t value;
  uint32_t flag;
  int parked;               /* wait: w was linked once (lock) */
  acl__value_waiter w;
} acl__value_task;

static int acl__value_write_run(acl__task *t) {
  acl__value_task *v = acl__task_payload(t);
  acl__value_bucket *b = acl__value_bucket_of(v->addr);
  atomic_store_explicit(v->addr, v->value, memory_order_seq_cst);
  /* seq_cst with the waiter's count increment: a wait that linked before
   * our store is seen here, or it sees our store when it checks */
  if (atomic_load_explicit(&b->count, memory_order_seq_cst) > 0) {
    pthread_mutex_lock(&b->lock);
    acl__value_wake_locked(b, v->addr);
    pthread_mutex_unlock(&b->lock);
  }
  return 0;
}

static int acl__value_wait_run(acl__task *t) {
  acl__value_task *v = acl__task_payload(t);
  acl__value_waiter *w = &v->w;
  acl__value_bucket *b = acl__value_bucket_of(v->addr);
  /* the common case, the word is there already: no lock (parked is this
   * task's own field until it links) */
  if (!v->parked && acl__value_holds(atomic_load_explicit(v->addr, memory_order_acquire), v->value, v->flag))
    return 0;
  pthread_mutex_lock(&b->lock);
  if (v->parked && !w->linked) {
    /* a write or a poll found it satisfied and unlinked it */
    v->parked = 0; /* a replayed graph runs the task again (graph.c) */
    pthread_mutex_unlock(&b->lock);
    return 0;
  }
  uint64_t cur = atomic_load_explicit(v->addr, memory_order_acquire);
  if (acl__value_holds(cur, v->value, v->flag)) {
    acl__value_unlink_locked(b, w);
    v->parked = 0;
    pthread_mutex_unlock(&b->lock);
    return 0;
  }
  int first = !v->parked;
  if (first) {
    w->addr = v->addr;
    w->value = v->value;
    w->flag = v->flag;
    w->stream = t->stream;
    w->prev = NULL;
    w->next = b->head;
    if (w->next != NULL)
      w->next->prev = w;
    b->head = w;
    w->linked = 1;
    v->parked = 1;
    atomic_fetch_add_explicit(&b->count, 1, memory_order_seq_cst);
    atomic_fetch_add(&acl__values_count, 1);
    /* read again now that writes see the wait: a write that stored after
     * the first read but looked at the count before the increment is seen
     * here (see acl__value_write_run) */
    cur = atomic_load_explicit(v->addr, memory_order_seq_cst);
    if (acl__value_holds(cur, v->value, v->flag)) {
      acl__value_unlink_locked(b, w);
      v->parked = 0;
      pthread_mutex_unlock(&b->lock);
      return 0;
    }
  }
  pthread_mutex_unlock(&b->lock);
  if (first) {
    /* writers that are not value writes are found by polling */
    uint64_t now = acl__now_ns();
    atomic_store_explicit(&acl__values_last_park, now, memory_order_relaxed);
    acl__timer_arm(now + ACL__VALUE_POLL_NS);
  }
  return ACL__TASK_PARK;
}

/* A replay parked in this wait was discarded (graph.c): off the list, to
 * start afresh at the next replay. */
static void acl__value_wait_cancel(acl__task *t) {
  acl__value_task *v = acl__task_payload(t);
  if (!v->parked)
    return;
  acl__value_bucket *b = acl__value_bucket_of(v->addr);
  pthread_mutex_lock(&b->lock);
  acl__value_unlink_locked(b, &v->w);
  v->parked = 0;
  pthread_mutex_unlock(&b->lock);
}

static void acl__value_task_release(acl__task *t) {
  acl__value_task *v = acl__task_payload(t);
  if (v->parked) {
    /* discarded while parked: off the list before the memory goes */
    acl__value_bucket *b = acl__value_bucket_of(v->addr);
    pthread_mutex_lock(&b->lock);
    acl__value_unlink_locked(b, &v->w);
    pthread_mutex_unlock(&b->lock);
  }
  free(t);
}

int acl__value_submit(acl__stream *s, void *addr, uint64_t value, uint32_t flag, int is_wait) {
  pthread_once(&acl__values_once, acl__values_setup);
  acl__task *t = acl__task_new(sizeof(acl__value_task), is_wait ? acl__value_wait_run : acl__value_write_run,
                               is_wait ? "value wait" : "value write");
  if (t == NULL)
    return ACL_ERROR_BAD_ALLOC;
  t->release = acl__value_task_release;
  t->ri_type = is_wait ? ACL_MODEL_RI_TASK_VALUE_WAIT : ACL_MODEL_RI_TASK_VALUE_WRITE;
  t->ri_ok = 1; /* a wait resets its state when satisfied, so it can run again */
  if (is_wait)
    t->cancel = acl__value_wait_cancel;
  acl__value_task *v = acl__task_payload(t);
  v->addr = acl__mem_dev_ptr(addr);
  v->user_addr = addr;
  v->value = value;
  v->flag = flag;
  return acl__stream_submit(s, t);
}

uint64_t acl__value_poll(uint64_t now) {
  int left = 0;
  for (int i = 0; i < ACL__VALUE_BUCKETS && atomic_load(&acl__values_count) > 0; i++) {
    acl__value_bucket *b = &acl__values[i];
    if (atomic_load(&b->count) == 0)
      continue;
    pthread_mutex_lock(&b->lock);
    left |= acl__value_wake_locked(b, NULL);
    pthread_mutex_unlock(&b->lock);
  }
  /* Waits that come and go (streams handing work to each other) would
   * otherwise wake the timer thread at each park: it keeps its tick for a
   * while after the last one, and a park then finds it armed already. */
  uint64_t last = atomic_load_explicit(&acl__values_last_park, memory_order_relaxed);
  int recent = last != 0 && now - last < ACL__VALUE_LINGER_NS;
  return left || recent ? now + ACL__VALUE_POLL_NS : 0;
}

int acl__value_task_params(acl__task *t, void **addr, uint64_t *value, uint32_t *flag) {
  if (t->run != acl__value_wait_run && t->run != acl__value_write_run)
    return -1;
  acl__value_task *v = acl__task_payload(t);
  *addr = v->user_addr;
  *value = v->value;
  *flag = v->flag;
  return 0;
}

void acl__value_task_update(acl__task *t, void *addr, uint64_t value, uint32_t flag) {
  acl__value_task *v = acl__task_payload(t);
  v->addr = acl__mem_dev_ptr(addr);
  v->user_addr = addr;
  v->value = value;
  v->flag = flag;
}
