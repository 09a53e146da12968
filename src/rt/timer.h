/*
 * timer.h - the runtime's clock for parked tasks that must wake on time
 * (timer.c): event and notify waits with a timeout (event.c, notify.c) and
 * value waits, which watch device memory that any writer may change
 * (value.c).
 */
#ifndef OPENACL_RT_TIMER_H
#define OPENACL_RT_TIMER_H

#include <stdint.h>

/* Asks for the pollers to run at at_ns (CLOCK_MONOTONIC, acl__now_ns) or
 * soon after.  Any thread; no lock held, or a poller's own lock. */
void acl__timer_arm(uint64_t at_ns);

/* The pollers: each handles what is due at `now` and returns when it
 * wants to run next (0: nothing pending).  Called by the timer thread with
 * no lock held. */
uint64_t acl__event_poll(uint64_t now);
uint64_t acl__value_poll(uint64_t now);
uint64_t acl__notify_poll(uint64_t now); /* notify waits with a timeout (notify.c) */

#endif
