/*
 * timer.c - one thread that wakes parked tasks on time: the deadlines of
 * event and notify waits with a timeout and the polling of value waits.
 *
 * On a card these run on the device's scheduler, whatever the compute
 * units are busy with; here the executors may all be inside long kernels or
 * blocking host functions, so timing is kept apart from them.  The thread
 * starts with the first timed wait of the process and sleeps until the
 * earliest time asked for; with nothing pending it sleeps without a limit
 * and costs nothing.  It touches no device: the pollers (event.c, value.c)
 * walk their own lists, which are empty once every task has gone.
 *
 * Deadline lists (timer.h) are the pollers' shared bookkeeping: a list's
 * lock is taken before the lock of a wait's object (event, notify).
 *
 * Lock: acl__timer.lock, a leaf, never held while the pollers run.  A fork
 * child forgets the thread (it does not exist there) and starts a new one
 * when it needs it.
 */
#include <pthread.h>
#include <time.h>

#include "common/log.h"
#include "rt/executor.h"
#include "rt/timer.h"

static struct {
  pthread_mutex_t lock;
  pthread_cond_t cond;   /* CLOCK_MONOTONIC */
  _Atomic uint64_t due;  /* the earliest time asked for; 0: none (written with the lock) */
  int started;           /* lock */
  int failed;            /* the thread could not be started (lock) */
} acl__timer = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0};

static pthread_once_t acl__timer_once = PTHREAD_ONCE_INIT;

static void acl__timer_atfork_child(void) {
  pthread_mutex_init(&acl__timer.lock, NULL);
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&acl__timer.cond, &a);
  pthread_condattr_destroy(&a);
  acl__timer.due = 0;
  acl__timer.started = 0;
}

static void acl__timer_setup(void) {
  /* the condition waits on the monotonic clock, as the deadlines are kept */
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_destroy(&acl__timer.cond);
  pthread_cond_init(&acl__timer.cond, &a);
  pthread_condattr_destroy(&a);
  pthread_atfork(NULL, NULL, acl__timer_atfork_child);
}

static void *acl__timer_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&acl__timer.lock);
  for (;;) {
    if (acl__timer.due == 0) {
      pthread_cond_wait(&acl__timer.cond, &acl__timer.lock);
      continue;
    }
    uint64_t now = acl__now_ns();
    if (now < acl__timer.due) {
      struct timespec ts = {(time_t)(acl__timer.due / 1000000000u), (long)(acl__timer.due % 1000000000u)};
      pthread_cond_timedwait(&acl__timer.cond, &acl__timer.lock, &ts);
      continue;
    }
    acl__timer.due = 0;
    pthread_mutex_unlock(&acl__timer.lock);
    uint64_t next = 0;
    uint64_t due[] = {acl__event_poll(now), acl__value_poll(now), acl__notify_poll(now)};
    for (size_t i = 0; i < sizeof(due) / sizeof(due[0]); i++)
      if (due[i] != 0 && (next == 0 || due[i] < next))
        next = due[i];
    pthread_mutex_lock(&acl__timer.lock);
    if (next != 0 && (acl__timer.due == 0 || next < acl__timer.due))
      acl__timer.due = next;
  }
  return NULL;
}

void acl__timer_arm(uint64_t at_ns) {
  /* armed already for that time or earlier: nothing to do, no lock */
  uint64_t due = atomic_load_explicit(&acl__timer.due, memory_order_acquire);
  if (due != 0 && due <= at_ns)
    return;
  pthread_once(&acl__timer_once, acl__timer_setup);
  pthread_mutex_lock(&acl__timer.lock);
  if (!acl__timer.started && !acl__timer.failed) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, acl__timer_main, NULL) == 0) {
      acl__timer.started = 1;
    } else {
      acl__timer.failed = 1;
      ACL__LOGE(ACL__MOD_RUNTIME, "the timer thread could not be started: event waits will not time out and value "
                                  "waits will see only aclrtValueWrite");
    }
    pthread_attr_destroy(&attr);
  }
  if (acl__timer.due == 0 || at_ns < acl__timer.due) {
    acl__timer.due = at_ns;
    pthread_cond_signal(&acl__timer.cond);
  }
  pthread_mutex_unlock(&acl__timer.lock);
}

/* ---- deadline lists ----------------------------------------------------------- */

static void acl__deadline_unlink(acl__deadline_list *l, acl__deadline_entry *e) {
  if (e->prev != NULL)
    e->prev->next = e->next;
  else
    l->head = e->next;
  if (e->next != NULL)
    e->next->prev = e->prev;
  e->listed = 0;
}

void acl__deadline_add(acl__deadline_list *l, acl__deadline_entry *e, uint64_t at) {
  pthread_mutex_lock(&l->lock);
  e->at = at;
  e->prev = NULL;
  e->next = l->head;
  if (e->next != NULL)
    e->next->prev = e;
  l->head = e;
  e->listed = 1;
  pthread_mutex_unlock(&l->lock);
  acl__timer_arm(at);
}

void acl__deadline_remove(acl__deadline_list *l, acl__deadline_entry *e) {
  pthread_mutex_lock(&l->lock);
  if (e->listed)
    acl__deadline_unlink(l, e);
  pthread_mutex_unlock(&l->lock);
}

uint64_t acl__deadline_poll(acl__deadline_list *l, uint64_t now, void (*due)(acl__deadline_entry *e)) {
  uint64_t next = 0;
  pthread_mutex_lock(&l->lock);
  for (acl__deadline_entry *e = l->head, *n; e != NULL; e = n) {
    n = e->next;
    if (e->at > now) {
      if (next == 0 || e->at < next)
        next = e->at;
      continue;
    }
    acl__deadline_unlink(l, e);
    due(e);
  }
  pthread_mutex_unlock(&l->lock);
  return next;
}

void acl__deadline_reset(acl__deadline_list *l) {
  pthread_mutex_init(&l->lock, NULL);
  l->head = NULL;
}
