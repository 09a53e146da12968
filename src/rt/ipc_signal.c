/*
 * ipc_signal.c - the host-wide registry of shared signals as this process
 * sees it, and the bell thread (ipc_signal.h, docs/processes.md).
 *
 * Why a thread: a wait parked on a shared signal must wake when another
 * process records, and nothing in this process runs then.  Each process
 * has a bell, a futex word in its registry slot; a process that changes a
 * signal bumps and wakes the bells of the processes whose bit is in the
 * signal's `waiting` mask (devshare.c, acl__ds_sig_ring).  The bell thread
 * sleeps on this process's bell and, when it moves, pokes every watcher.
 * A waiter publishes its bit before it looks at the word for the last time
 * and a recorder changes the word before it reads the mask (both
 * sequentially consistent), so a record is never missed.
 *
 * The thread starts with the registry, at the first export or import, and
 * is stopped and joined at aclFinalize, before the registry is unmapped.
 *
 * Locks: reg_lock (opening, closing) -> watch_lock -> the watched objects'
 * locks (in pokes) -> stream locks.  fork(): the child has no bell thread
 * and no registry; it forgets both (the parent's slot is the parent's).
 */
#include "rt/ipc_signal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/executor.h"
#include "rt/rt.h"

static struct {
  pthread_mutex_t reg_lock;
  acl__ds *ds;                  /* reg_lock to change; read by users after opening */
  pthread_t thread;
  int running;                  /* reg_lock */
  atomic_int stop;
  pthread_mutex_t watch_lock;
  acl__ipcsig_watcher *watchers; /* watch_lock */
  int holds[ACL__DS_SIGS];      /* reg_lock: this process's handles on each signal */
} acl__sig = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER, NULL, {0}};

static pthread_once_t acl__sig_once = PTHREAD_ONCE_INIT;

static void acl__sig_atfork_child(void) {
  pthread_mutex_init(&acl__sig.reg_lock, NULL);
  pthread_mutex_init(&acl__sig.watch_lock, NULL);
  acl__sig.ds = NULL; /* the mapping stays until exec or exit; the slot is the parent's */
  acl__sig.running = 0;
  atomic_store(&acl__sig.stop, 0);
  acl__sig.watchers = NULL;
  memset(acl__sig.holds, 0, sizeof(acl__sig.holds));
}

static void acl__sig_setup(void) { pthread_atfork(NULL, NULL, acl__sig_atfork_child); }

int acl__ipcsig_help_add(acl__ipcsig_help *h, acl__stream *s) {
  for (int i = 0; i < h->n; i++)
    if (h->s[i] == s)
      return 1;
  if (h->n == ACL__IPCSIG_HELP_MAX)
    return 0;
  pthread_mutex_lock(&s->lock);
  s->users++; /* as a synchronising thread: the stream is not freed under us */
  pthread_mutex_unlock(&s->lock);
  h->s[h->n++] = s;
  return 1;
}

/* Wakes the streams the pokes collected and runs their tasks in the bell
 * thread (acl__stream_resume_here: until a stream parks again, empties, or
 * reaches a task only an executor runs), then lets go of them. */
static void acl__sig_run(acl__ipcsig_help *h) {
  for (int i = 0; i < h->n; i++) {
    acl__stream *s = h->s[i];
    pthread_mutex_lock(&s->lock);
    if (!s->destroying)
      acl__stream_resume_here(s);
    else
      acl__stream_unpark(s);
    s->users--;
    if (s->destroying) {
      pthread_cond_broadcast(&s->idle_cond);
      acl__stream_settle_locked(s);
    }
    pthread_mutex_unlock(&s->lock);
  }
  h->n = 0;
}

static void *acl__sig_bell_main(void *arg) {
  acl__ds *ds = arg;
  _Atomic uint32_t *bell = acl__ds_bell(ds);
  uint64_t next_tick = 0;
  while (!atomic_load(&acl__sig.stop)) {
    uint32_t seen = atomic_load(bell);
    uint64_t now = acl__now_ns();
    int tick = now >= next_tick;
    acl__ipcsig_help help = {{NULL}, 0};
    pthread_mutex_lock(&acl__sig.watch_lock);
    int any = acl__sig.watchers != NULL;
    for (acl__ipcsig_watcher *w = acl__sig.watchers; w != NULL; w = w->next)
      w->poke(w->obj, tick, &help);
    pthread_mutex_unlock(&acl__sig.watch_lock);
    acl__sig_run(&help);
    if (tick)
      next_tick = now + (uint64_t)ACL__IPCSIG_TICK_MS * 1000000u;
    if (atomic_load(&acl__sig.stop))
      break;
    /* with watchers, parked waits may lose their peers: come back for the tick */
    acl__ds_bell_wait(bell, seen, any ? ACL__IPCSIG_TICK_MS : -1);
  }
  return NULL;
}

acl__ds *acl__ipcsig_registry(const char *api, int *rc) {
  pthread_once(&acl__sig_once, acl__sig_setup);
  pthread_mutex_lock(&acl__sig.reg_lock);
  if (acl__sig.ds == NULL) {
    char why[200] = "";
    uint64_t cap = 0;
    acl__ds *ds = acl__ds_open(ACL__DS_HOST, 0, -1, &cap, why, sizeof(why));
    if (ds == NULL) {
      pthread_mutex_unlock(&acl__sig.reg_lock);
      *rc = acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                      "signals cannot be shared with other processes here (%s). Remedy: unset "
                      "OPENACL_SHARED_DEVICE and make sure /dev/shm is writable",
                      why);
      return NULL;
    }
    atomic_store(&acl__sig.stop, 0);
    if (pthread_create(&acl__sig.thread, NULL, acl__sig_bell_main, ds) != 0) {
      acl__ds_close(ds);
      pthread_mutex_unlock(&acl__sig.reg_lock);
      *rc = acl__fail(api, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, __FILE__, __LINE__,
                      "the thread that wakes waits on shared signals could not be started");
      return NULL;
    }
    acl__sig.running = 1;
    acl__sig.ds = ds;
  }
  acl__ds *ds = acl__sig.ds;
  pthread_mutex_unlock(&acl__sig.reg_lock);
  return ds;
}

void acl__ipcsig_watch(acl__ipcsig_watcher *w) {
  pthread_mutex_lock(&acl__sig.watch_lock);
  if (!w->listed) {
    w->prev = NULL;
    w->next = acl__sig.watchers;
    if (w->next != NULL)
      w->next->prev = w;
    acl__sig.watchers = w;
    w->listed = 1;
  }
  pthread_mutex_unlock(&acl__sig.watch_lock);
  /* the bell thread may sleep without a limit (it had nothing to watch):
   * wake it, so that it ticks from now on */
  acl__ds *ds = acl__sig.ds;
  if (ds != NULL)
    acl__ds_bell_ring(acl__ds_bell(ds));
}

void acl__ipcsig_unwatch(acl__ipcsig_watcher *w) {
  pthread_mutex_lock(&acl__sig.watch_lock);
  if (w->listed) {
    if (w->prev != NULL)
      w->prev->next = w->next;
    else
      acl__sig.watchers = w->next;
    if (w->next != NULL)
      w->next->prev = w->prev;
    w->listed = 0;
  }
  pthread_mutex_unlock(&acl__sig.watch_lock);
}

void acl__ipcsig_hold(int32_t index) {
  pthread_mutex_lock(&acl__sig.reg_lock);
  acl__sig.holds[index]++;
  pthread_mutex_unlock(&acl__sig.reg_lock);
}

void acl__ipcsig_release(int32_t index) {
  pthread_mutex_lock(&acl__sig.reg_lock);
  if (--acl__sig.holds[index] == 0 && acl__sig.ds != NULL)
    acl__ds_sig_close(acl__sig.ds, index);
  pthread_mutex_unlock(&acl__sig.reg_lock);
}

void acl__ipcsig_ring(acl__ds_sig *s) {
  acl__ds *ds = acl__sig.ds;
  if (ds != NULL)
    acl__ds_sig_ring(ds, s);
}

int acl__ipcsig_peers(int32_t index) {
  acl__ds *ds = acl__sig.ds;
  return ds == NULL ? 1 : acl__ds_sig_peers(ds, index);
}

uint64_t acl__ipcsig_my_bit(void) {
  acl__ds *ds = acl__sig.ds;
  return ds == NULL ? 0 : acl__ds_my_bit(ds);
}

void acl__ipcsig_shutdown(void) {
  pthread_mutex_lock(&acl__sig.reg_lock);
  acl__ds *ds = acl__sig.ds;
  if (ds != NULL) {
    if (acl__sig.running) {
      atomic_store(&acl__sig.stop, 1);
      acl__ds_bell_ring(acl__ds_bell(ds));
      pthread_join(acl__sig.thread, NULL);
      acl__sig.running = 0;
    }
    pthread_mutex_lock(&acl__sig.watch_lock);
    int left = acl__sig.watchers != NULL;
    pthread_mutex_unlock(&acl__sig.watch_lock);
    if (left) /* objects still bound (leaked handles): keep the registry mapped for them */
      ACL__LOGW(ACL__MOD_RUNTIME, "aclFinalize: IPC notifies or events are still bound to other processes");
    else {
      acl__sig.ds = NULL;
      acl__ds_close(ds);
    }
  }
  pthread_mutex_unlock(&acl__sig.reg_lock);
}
