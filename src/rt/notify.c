/*
 * notify.c - notifies and count notifies (reference ipc-vmm-graphs-tdt §3,
 * docs/processes.md).
 *
 * A notify is a word: a record task sets it, a wait task parks its stream
 * until the word is set and clears it, so one record releases exactly one
 * wait.  A count notify's word is a 32-bit count that records change (set,
 * add, or, and) and waits compare (less, equal, bigger, bigger-or-equal,
 * all bits of a mask), clearing it on release when asked.  Both work like
 * event waits (event.c): a wait that cannot go on parks its stream on the
 * notify's waiter list, no thread blocks, and a record unparks the waiters,
 * which look at the word again when they run (so two waits on one notify
 * cannot both take one record: the clear is a compare-and-swap).
 *
 * IPC: aclrtNotifyGetExportKey moves the word into a shared signal of the
 * host-wide registry (devshare.c, ipc_signal.c); aclrtNotifyImportByKey in
 * another process binds a notify of its own to the same signal.  A record
 * in one process rings the bells of the processes with a wait parked on it;
 * their bell threads poke the notify, which unparks its waits.  Only the
 * creator waits on an IPC notify (the vendor's rule); importers record.
 * A parked wait whose every possible recorder has gone (the other
 * processes attached to the signal ended or destroyed their notify, and no
 * record is queued here) fails with ACL_ERROR_RT_SUSPECT_REMOTE_ERROR
 * instead of waiting forever; the bell thread looks every
 * ACL__IPCSIG_TICK_MS.
 *
 * Timeouts (seconds, from when the wait starts on the device): the timer
 * thread (timer.c) calls acl__notify_poll, which fails the waits past their
 * deadline with ACL_ERROR_RT_WAIT_TIMEOUT, reported at the stream's next
 * synchronisation.
 *
 * Task graphs (graph_capture.c): the three tasks may be recorded and run
 * once per replay.  A wait starts afresh each time (parked state, timer and
 * failure cleared when it ends, or when the replay parked in it is
 * discarded); a record held by a graph counts as a queued record
 * (`pending`) for as long as the graph holds it, since any replay may run
 * it.
 *
 * Lifetime: the handle holds one reference and every queued or recorded
 * task one; the memory (and the shared signal) goes with the last.
 *
 * Locks: nf_timers.lock -> notify lock -> stream lock; the watch lock
 * (ipc_signal.c) -> notify lock; notify lock -> the registry's lock
 * (export).  nf_live.lock is a leaf.
 */
#include "rt/notify.h"

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/executor.h"
#include "rt/graph.h"
#include "rt/idpool.h"
#include "rt/ipc_signal.h"
#include "rt/timer.h"

typedef struct nf_wait nf_wait;

struct acl__notify {
  int count;                  /* a count notify */
  acl__context *ctx;
  acl__device *dev;           /* where the id comes from */
  uint32_t id;
  pthread_mutex_t lock;
  int refs;                   /* the handle + one per queued task (lock) */
  _Atomic uint64_t local;     /* the word while no other process shares it */
  _Atomic uint64_t *word;     /* &local, or the shared signal's word (lock) */
  acl__ds *ds;                /* shared: the host-wide registry, */
  acl__ds_sig *sh;            /* the signal (lock), */
  int32_t sh_index;           /* and its index there */
  int imported;               /* bound by aclrtNotifyImportByKey */
  char key[ACL__DS_KEY_LEN + 1];
  atomic_int pending;         /* records queued in this process that have not run, and records held
                                 by task graphs */
  nf_wait *waiters;           /* parked waits (lock) */
  acl__ipcsig_watcher watch;
  acl__notify *prev, *next;   /* live notifies (nf_live.lock) */
};

struct nf_wait {
  acl__task t;
  acl__notify *n;
  uint32_t mode, value;       /* count notify: the condition */
  int clear;                  /* count notify: clear the count on release */
  uint32_t timeout_s;
  nf_wait *next;              /* n->waiters (notify lock) */
  int parked;                 /* on n->waiters (notify lock) */
  int result;                 /* a failure decided while parked (notify lock) */
  acl__deadline_entry timer;  /* with a timeout: on nf_timers */
  int armed;
};

typedef struct nf_task {
  acl__task t;
  acl__notify *n;
  uint32_t mode, value;
  int ran;   /* counted out of `pending` already */
  int graph; /* submitted to a stream that records into a task graph: out of `pending` at release */
} nf_task;

static struct {
  pthread_mutex_t lock;
  acl__notify *head;
} nf_live = {PTHREAD_MUTEX_INITIALIZER, NULL};

static acl__deadline_list nf_timers = ACL__DEADLINE_LIST_INIT;

static pthread_once_t nf_once = PTHREAD_ONCE_INIT;
static void nf_atfork_child(void) {
  acl__deadline_reset(&nf_timers); /* the parent's waits are not ours */
  pthread_mutex_init(&nf_live.lock, NULL);
}
static void nf_setup(void) { pthread_atfork(NULL, NULL, nf_atfork_child); }

/* ---- the word ---------------------------------------------------------------- */

static int nf_holds(uint64_t word, uint32_t mode, uint32_t value) {
  uint32_t c = (uint32_t)word;
  switch (mode) {
  case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: return c < value;
  case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE: return c == value;
  case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE: return c > value;
  case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE: return c >= value;
  default: return (c & value) == value; /* ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE */
  }
}

/* Notify lock held: 1 when w may go on now, having taken what it consumes. */
static int nf_try(acl__notify *n, const nf_wait *w) {
  _Atomic uint64_t *word = n->word;
  uint64_t v = atomic_load(word);
  for (;;) {
    if (n->count ? !nf_holds(v, w->mode, w->value) : v == 0)
      return 0;
    if (n->count && !w->clear)
      return 1;
    if (atomic_compare_exchange_weak(word, &v, 0))
      return 1;
  }
}

/* Notify lock held: 1 when w would go on now (nothing is taken). */
static int nf_holds_now(acl__notify *n, const nf_wait *w) {
  uint64_t v = atomic_load(n->word);
  return n->count ? nf_holds(v, w->mode, w->value) : v != 0;
}

static uint64_t nf_apply(uint64_t v, uint32_t mode, uint32_t value) {
  uint32_t c = (uint32_t)v;
  switch (mode) {
  case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: return value;
  case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE: return (uint32_t)(c + value);
  case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE: return c | value;
  default: return c & value; /* ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, as the vendor documents it */
  }
}

/* Notify lock held: takes w off the waiter list; the last one out clears
 * this process's bit in the shared signal's waiting mask. */
static void nf_unlink_locked(acl__notify *n, nf_wait *w) {
  if (!w->parked)
    return;
  for (nf_wait **pp = &n->waiters; *pp; pp = &(*pp)->next)
    if (*pp == w) {
      *pp = w->next;
      break;
    }
  w->parked = 0;
  if (n->waiters == NULL && n->sh != NULL)
    atomic_fetch_and(&n->sh->waiting, ~acl__ipcsig_my_bit());
}

/* Notify lock held: every parked wait runs again and looks at the word. */
static void nf_wake_locked(acl__notify *n) {
  for (nf_wait *w = n->waiters; w != NULL; w = w->next)
    acl__stream_unpark(w->t.stream);
}

/* ---- lifetime ---------------------------------------------------------------- */

static void nf_unref(acl__notify *n) {
  pthread_mutex_lock(&n->lock);
  int last = --n->refs == 0;
  pthread_mutex_unlock(&n->lock);
  if (!last)
    return;
  if (n->sh != NULL) {
    acl__ipcsig_unwatch(&n->watch); /* no poke runs on n after this */
    acl__ipcsig_release(n->sh_index);
  }
  pthread_mutex_destroy(&n->lock);
  free(n);
}

static void nf_timer_remove(nf_wait *w) { acl__deadline_remove(&nf_timers, &w->timer); }

/* ---- tasks ------------------------------------------------------------------- */

static void nf_wait_release(acl__task *t) {
  nf_wait *w = (nf_wait *)t;
  nf_timer_remove(w); /* discarded while parked: off the timer list, then off the waiters */
  pthread_mutex_lock(&w->n->lock);
  nf_unlink_locked(w->n, w);
  pthread_mutex_unlock(&w->n->lock);
  nf_unref(w->n);
  free(w);
}

static int nf_wait_run(acl__task *t) {
  nf_wait *w = (nf_wait *)t;
  acl__notify *n = w->n;
  pthread_mutex_lock(&n->lock);
  int ok = nf_try(n, w);
  if (!ok && w->result == 0 && !w->parked) {
    w->next = n->waiters;
    n->waiters = w;
    w->parked = 1;
    if (n->sh != NULL) {
      /* publish this process as a waiter, then look once more: a record in
       * another process either sees the bit or changed the word before */
      atomic_fetch_or(&n->sh->waiting, acl__ipcsig_my_bit());
      ok = nf_try(n, w);
    }
  }
  int result = ok ? 0 : w->result;
  if (ok || result != 0) {
    nf_unlink_locked(n, w);
    w->result = 0; /* a replay runs the task again from the start */
  }
  pthread_mutex_unlock(&n->lock);
  if (ok || result != 0) {
    nf_timer_remove(w);
    w->armed = 0;
    if (result == ACL_ERROR_RT_WAIT_TIMEOUT)
      snprintf(t->what, sizeof(t->what), "%snotify wait (no record within %u s)", n->count ? "count " : "",
               w->timeout_s);
    else if (result != 0)
      snprintf(t->what, sizeof(t->what), "notify wait (every process that could record it has ended)");
    return result;
  }
  if (w->timeout_s != 0 && w->timeout_s != UINT32_MAX && !w->armed) {
    /* the timeout runs from when the wait starts on the device */
    w->armed = 1;
    acl__deadline_add(&nf_timers, &w->timer, acl__now_ns() + (uint64_t)w->timeout_s * 1000000000u);
  }
  return ACL__TASK_PARK;
}

/* A wait's deadline passed (timer lock held): unless it went on meanwhile, it fails. */
static void nf_wait_due(acl__deadline_entry *d) {
  nf_wait *w = (nf_wait *)((char *)d - offsetof(nf_wait, timer));
  acl__notify *n = w->n;
  pthread_mutex_lock(&n->lock);
  if (w->parked && w->result == 0) {
    w->result = ACL_ERROR_RT_WAIT_TIMEOUT;
    nf_unlink_locked(n, w);
    acl__stream_unpark(w->t.stream); /* the task lives until it has run again */
  }
  pthread_mutex_unlock(&n->lock);
}

uint64_t acl__notify_poll(uint64_t now) { return acl__deadline_poll(&nf_timers, now, nf_wait_due); }

/* The replay parked in this wait was discarded (graph_replay.c): off the
 * timer and the waiter list, to start afresh at the next replay. */
static void nf_wait_cancel(acl__task *t) {
  nf_wait *w = (nf_wait *)t;
  nf_timer_remove(w);
  w->armed = 0;
  pthread_mutex_lock(&w->n->lock);
  nf_unlink_locked(w->n, w);
  w->result = 0;
  pthread_mutex_unlock(&w->n->lock);
}

static void nf_record_release(acl__task *t) {
  nf_task *r = (nf_task *)t;
  if (!r->ran)
    atomic_fetch_sub(&r->n->pending, 1);
  nf_unref(r->n);
  free(r);
}

static int nf_record_run(acl__task *t) {
  nf_task *r = (nf_task *)t;
  acl__notify *n = r->n;
  pthread_mutex_lock(&n->lock);
  _Atomic uint64_t *word = n->word;
  if (!n->count) {
    atomic_store(word, 1);
  } else {
    uint64_t v = atomic_load(word);
    while (!atomic_compare_exchange_weak(word, &v, nf_apply(v, r->mode, r->value))) {
    }
  }
  if (!r->graph && !r->ran) {
    r->ran = 1;
    atomic_fetch_sub(&n->pending, 1);
  }
  nf_wake_locked(n);
  acl__ds_sig *sh = n->sh;
  pthread_mutex_unlock(&n->lock);
  if (sh != NULL)
    acl__ipcsig_ring(sh);
  return 0;
}

static int nf_reset_run(acl__task *t) {
  nf_task *r = (nf_task *)t;
  pthread_mutex_lock(&r->n->lock);
  atomic_store(r->n->word, 0);
  nf_wake_locked(r->n); /* a count of 0 may be what a LESS wait waits for */
  pthread_mutex_unlock(&r->n->lock);
  return 0;
}

static int nf_submit(const char *api, acl__notify *n, acl__stream *s, acl__task *t) {
  t->ri_ok = 1; /* each runs again from the start: a capture may record it (see the top) */
  pthread_mutex_lock(&n->lock);
  n->refs++;
  pthread_mutex_unlock(&n->lock);
  int rc = acl__stream_submit(s, t); /* on failure the task has been released */
  if (rc != 0)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d is being destroyed", s->id);
  return 0;
}

int acl__notify_record(const char *api, acl__notify *n, acl__stream *s, uint32_t mode, uint32_t value) {
  nf_task *r = calloc(1, sizeof(*r));
  if (r == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a notify task");
  r->t.run = nf_record_run;
  r->t.release = nf_record_release;
  snprintf(r->t.what, sizeof(r->t.what), "%snotify record", n->count ? "count " : "");
  r->n = n;
  r->mode = mode;
  r->value = value;
  r->graph = acl__stream_capturing(s); /* a hint: wrong only when a capture begins or ends meanwhile, which
                                          moves the give-back between run and release, no more */
  atomic_fetch_add(&n->pending, 1);
  return nf_submit(api, n, s, &r->t);
}

int acl__notify_reset_task(const char *api, acl__notify *n, acl__stream *s) {
  nf_task *r = calloc(1, sizeof(*r));
  if (r == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a notify task");
  r->t.run = nf_reset_run;
  r->t.release = nf_record_release;
  snprintf(r->t.what, sizeof(r->t.what), "count notify reset");
  r->n = n;
  r->ran = 1; /* not a record: `pending` counts records only */
  return nf_submit(api, n, s, &r->t);
}

int acl__notify_wait(const char *api, acl__notify *n, acl__stream *s, uint32_t mode, uint32_t value, int clear,
                     uint32_t timeout_s) {
  pthread_once(&nf_once, nf_setup);
  nf_wait *w = calloc(1, sizeof(*w));
  if (w == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a notify task");
  w->t.run = nf_wait_run;
  w->t.release = nf_wait_release;
  snprintf(w->t.what, sizeof(w->t.what), "%snotify wait", n->count ? "count " : "");
  w->n = n;
  w->mode = mode;
  w->value = value;
  w->clear = clear;
  w->timeout_s = timeout_s;
  w->t.cancel = nf_wait_cancel;
  return nf_submit(api, n, s, &w->t);
}

void acl__notify_clear(acl__notify *n) {
  pthread_mutex_lock(&n->lock);
  atomic_store(n->word, 0);
  pthread_mutex_unlock(&n->lock);
}

uint32_t acl__notify_id(const acl__notify *n) { return n->id; }

int acl__notify_imported(const acl__notify *n) { return n->imported; }

/* ---- objects ----------------------------------------------------------------- */

int acl__notify_create(const char *api, acl__context *c, int count, acl__notify **out) {
  pthread_once(&nf_once, nf_setup);
  acl__device *d = c->dev;
  int32_t id = acl__idpool_take(d->notify_ids, ACL__MAX_NOTIFIES / 64);
  if (id < 0)
    return acl__fail(api, ACL_ERROR_RT_NO_NOTIFY_RESOURCE, __FILE__, __LINE__,
                     "device %d has %d notifies already (count notifies included), as many as a card has. "
                     "Remedy: destroy notifies you no longer use",
                     (int)d->id, ACL__MAX_NOTIFIES);
  acl__notify *n = calloc(1, sizeof(*n));
  if (n == NULL) {
    acl__idpool_give(d->notify_ids, id);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a notify");
  }
  n->count = count;
  n->ctx = c;
  n->dev = d;
  n->id = (uint32_t)id;
  n->refs = 1;
  n->word = &n->local;
  n->sh_index = -1;
  pthread_mutex_init(&n->lock, NULL);
  n->watch.obj = n;
  pthread_mutex_lock(&nf_live.lock);
  n->next = nf_live.head;
  if (n->next != NULL)
    n->next->prev = n;
  nf_live.head = n;
  pthread_mutex_unlock(&nf_live.lock);
  acl__handle_register(n, count ? ACL__H_CNT_NOTIFY : ACL__H_NOTIFY);
  *out = n;
  return 0;
}

acl__notify *acl__notify_resolve(const char *api, const void *h, int count, int *rc) {
  if (!acl__rt_live(api, rc))
    return NULL;
  const char *what = count ? "cntNotify" : "notify";
  if (h == NULL) {
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s is NULL", what);
    return NULL;
  }
  if (!acl__handle_valid(h, count ? ACL__H_CNT_NOTIFY : ACL__H_NOTIFY)) {
    if (acl__handle_valid(h, count ? ACL__H_NOTIFY : ACL__H_CNT_NOTIFY))
      *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                      "%s %p is a %s, not one of %s. Remedy: use the %s functions on it", what, h,
                      count ? "notify" : "count notify", count ? "aclrtCntNotifyCreate" : "aclrtCreateNotify",
                      count ? "aclrt...Notify" : "aclrtCntNotify...");
    else
      *rc = acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                      "%s %p is not a live %s (destroyed already, or never created)", what, h,
                      count ? "count notify" : "notify");
    return NULL;
  }
  return (acl__notify *)h;
}

/* Takes n out of the live list; 0 when another thread did already. */
static int nf_unlist(acl__notify *n) {
  pthread_mutex_lock(&nf_live.lock);
  int found = 0;
  for (acl__notify *p = nf_live.head; p != NULL; p = p->next)
    if (p == n) {
      found = 1;
      break;
    }
  if (found) {
    if (n->prev != NULL)
      n->prev->next = n->next;
    else
      nf_live.head = n->next;
    if (n->next != NULL)
      n->next->prev = n->prev;
  }
  pthread_mutex_unlock(&nf_live.lock);
  return found;
}

static void nf_retire(acl__notify *n) {
  acl__handle_unregister(n);
  acl__idpool_give(n->dev->notify_ids, (int32_t)n->id);
  nf_unref(n);
}

int acl__notify_destroy(const char *api, acl__notify *n) {
  if (!nf_unlist(n))
    return acl__fail(api, ACL_ERROR_RT_INVALID_HANDLE, __FILE__, __LINE__,
                     "notify %p is being destroyed by another thread", (void *)n);
  nf_retire(n);
  return 0;
}

void acl__notify_context_gone(acl__context *c) {
  for (;;) {
    acl__notify *n = NULL;
    pthread_mutex_lock(&nf_live.lock);
    for (acl__notify *p = nf_live.head; p != NULL; p = p->next)
      if (p->ctx == c) {
        n = p;
        break;
      }
    pthread_mutex_unlock(&nf_live.lock);
    if (n == NULL || !nf_unlist(n))
      return;
    ACL__LOGW(ACL__MOD_RUNTIME, "%s %u of device %d was not destroyed before its context went; destroyed now",
              n->count ? "count notify" : "notify", n->id, (int)n->dev->id);
    nf_retire(n);
  }
}

/* ---- IPC ------------------------------------------------------------------------ */

/* The bell thread: another process changed the signal (or tick: time to
 * look whether anyone is left to record it). */
static void nf_poke(void *obj, int tick, acl__ipcsig_help *help) {
  acl__notify *n = obj;
  int lost = 0;
  if (tick) {
    pthread_mutex_lock(&n->lock);
    int check = n->waiters != NULL && atomic_load(&n->pending) == 0;
    pthread_mutex_unlock(&n->lock);
    lost = check && !acl__ipcsig_peers(n->sh_index);
  }
  pthread_mutex_lock(&n->lock);
  for (nf_wait *w = n->waiters, *next; w != NULL; w = next) {
    next = w->next;
    if (lost && w->result == 0 && atomic_load(n->word) == 0) {
      w->result = ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
      nf_unlink_locked(n, w);
    }
    if ((w->result != 0 || nf_holds_now(n, w)) && !acl__ipcsig_help_add(help, w->t.stream))
      acl__stream_unpark(w->t.stream); /* only the waits that can go on */
  }
  pthread_mutex_unlock(&n->lock);
}

/* "oacl-n-" and 32 lowercase hex digits. */
static int nf_key_ok(const char *key) {
  if (strncmp(key, "oacl-n-", 7) != 0 || strnlen(key, ACL__DS_KEY_LEN + 1) != 7 + 32)
    return 0;
  for (int i = 7; i < 7 + 32; i++)
    if (!((key[i] >= '0' && key[i] <= '9') || (key[i] >= 'a' && key[i] <= 'f')))
      return 0;
  return 1;
}

int acl__notify_export(const char *api, acl__notify *n, int check_pid, char *key, size_t len) {
  if (n->imported)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "notify %u was imported from another process (aclrtNotifyImportByKey); only its creator "
                     "exports it. Remedy: pass the creator's key on",
                     n->id);
  int rc = 0;
  acl__ds *ds = acl__ipcsig_registry(api, &rc);
  if (ds == NULL)
    return rc;
  int fresh = 0;
  pthread_mutex_lock(&n->lock);
  if (n->sh == NULL) {
    int32_t idx = -1;
    char k[ACL__DS_KEY_LEN + 1];
    /* the word moves into the signal under the lock: no task of n runs meanwhile */
    if (acl__ds_sig_create(ds, ACL__DS_SIG_NOTIFY, check_pid, atomic_load(&n->local), 0, k, &idx) != 0) {
      pthread_mutex_unlock(&n->lock);
      return acl__fail(api, ACL_ERROR_RT_NO_NOTIFY_RESOURCE, __FILE__, __LINE__,
                       "%d notifies and events are shared between processes already (the most this host's "
                       "registry holds). Remedy: destroy IPC notifies and events no longer used",
                       ACL__DS_SIGS);
    }
    acl__ipcsig_hold(idx);
    n->ds = ds;
    n->sh = acl__ds_sig_at(ds, idx);
    n->sh_index = idx;
    n->word = &n->sh->word;
    memcpy(n->key, k, sizeof(k));
    n->watch.poke = nf_poke;
    fresh = 1;
  }
  /* exporting again gives the same key */
  snprintf(key, len, "%s", n->key);
  pthread_mutex_unlock(&n->lock);
  if (fresh) /* not under the notify lock: the bell thread pokes with the watch lock held */
    acl__ipcsig_watch(&n->watch);
  return 0;
}

int acl__notify_allow(const char *api, acl__notify *n, const int32_t *pids, size_t num) {
  pthread_mutex_lock(&n->lock);
  int shared = n->sh != NULL && !n->imported;
  pthread_mutex_unlock(&n->lock);
  if (!shared)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "notify %u %s. Remedy: aclrtNotifyGetExportKey first, in the process that created it", n->id,
                     n->imported ? "was imported from another process; only its creator keeps the whitelist"
                                 : "has not been exported");
  if (acl__ds_sig_allow(n->ds, n->sh_index, pids, num) != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the whitelist of notify %u is full (%d pids at most)", n->id, ACL__DS_PIDS);
  return 0;
}

int acl__notify_import(const char *api, acl__context *c, const char *key, acl__notify **out) {
  if (!nf_key_ok(key))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "'%.70s' is not a notify key (aclrtNotifyGetExportKey writes 'oacl-n-' and 32 hex digits). "
                     "Remedy: pass the whole key the creator wrote",
                     key);
  int rc = 0;
  acl__ds *ds = acl__ipcsig_registry(api, &rc);
  if (ds == NULL)
    return rc;
  int32_t idx = -1;
  int r = acl__ds_sig_open(ds, key, ACL__DS_SIG_NOTIFY, &idx);
  if (r == ACL__DS_NO_KEY)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "notify key '%s' is not open: it was never made, its creator destroyed the notify, or the "
                     "creator's process ended. Remedy: import while the creator keeps it",
                     key);
  if (r == ACL__DS_DENIED)
    return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                     "process %d is not on the whitelist of notify key '%s'. Remedy: the creator adds this pid "
                     "(aclrtDeviceGetBareTgid) with aclrtNotifySetImportPid, or exports with "
                     "ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION",
                     (int)getpid(), key);
  if (r == ACL__DS_SELF)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "notify key '%s' was exported by this process; use the notify itself", key);
  acl__ipcsig_hold(idx);
  acl__notify *n = NULL;
  if ((rc = acl__notify_create(api, c, 0, &n)) != 0) {
    acl__ipcsig_release(idx);
    return rc;
  }
  pthread_mutex_lock(&n->lock);
  n->imported = 1;
  n->ds = ds;
  n->sh = acl__ds_sig_at(ds, idx);
  n->sh_index = idx;
  n->word = &n->sh->word;
  snprintf(n->key, sizeof(n->key), "%s", key);
  n->watch.poke = nf_poke;
  pthread_mutex_unlock(&n->lock);
  acl__ipcsig_watch(&n->watch);
  *out = n;
  return 0;
}
