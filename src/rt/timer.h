/*
 * timer.h - the runtime's clock for parked tasks that must wake on time
 * (timer.c): event and notify waits with a timeout (event.c, notify.c) and
 * value waits, which watch device memory that any writer may change
 * (value.c).
 */
#ifndef OPENACL_RT_TIMER_H
#define OPENACL_RT_TIMER_H

#include <pthread.h>
#include <stdint.h>

/* Asks for the pollers to run at at_ns (CLOCK_MONOTONIC, acl__now_ns) or
 * soon after.  Any thread; no lock held, or a poller's own lock. */
void acl__timer_arm(uint64_t at_ns);

/* A list of parked waits with a deadline, one per kind of wait (event.c,
 * notify.c): an entry is embedded in the wait's own record. */
typedef struct acl__deadline_entry {
  struct acl__deadline_entry *prev, *next;
  uint64_t at;                 /* CLOCK_MONOTONIC ns */
  int listed;                  /* the list's lock */
} acl__deadline_entry;

typedef struct acl__deadline_list {
  pthread_mutex_t lock;
  acl__deadline_entry *head;
} acl__deadline_list;

#define ACL__DEADLINE_LIST_INIT {PTHREAD_MUTEX_INITIALIZER, NULL}

/* Puts e on l, due at `at`, and arms the timer thread for it. */
void acl__deadline_add(acl__deadline_list *l, acl__deadline_entry *e, uint64_t at);
/* Takes e off l if it is there (l's lock taken here). */
void acl__deadline_remove(acl__deadline_list *l, acl__deadline_entry *e);
/* For a poller: takes the entries due at `now` off l and calls due() for
 * each, with l's lock held (due may take the wait's object lock); returns
 * the earliest deadline left (0: none). */
uint64_t acl__deadline_poll(acl__deadline_list *l, uint64_t now, void (*due)(acl__deadline_entry *e));
/* fork child: the parent's waits are not the child's. */
void acl__deadline_reset(acl__deadline_list *l);

/* The pollers: each handles what is due at `now` and returns when it
 * wants to run next (0: nothing pending).  Called by the timer thread with
 * no lock held. */
uint64_t acl__event_poll(uint64_t now);
uint64_t acl__value_poll(uint64_t now);
uint64_t acl__notify_poll(uint64_t now); /* notify waits with a timeout (notify.c) */

#endif
