/*
 * ipc_signal.h - this process's side of the signals it shares with other
 * processes (IPC notifies, notify.c; IPC events, event.c): the host-wide
 * registry that holds them (devshare.h, ACL__DS_HOST), and the bell
 * thread that wakes this process's parked waits when another process
 * records.
 *
 * An object bound to a shared signal puts a watcher on the watch list
 * while it exists; when the bell rings the bell thread calls every
 * watcher's poke, which unparks the object's waits so that they look at
 * the shared word again.  Every ACL__IPCSIG_TICK_MS while watchers exist
 * the pokes also get tick = 1: time to look whether the processes that
 * could signal a parked wait are still alive (acl__ds_sig_peers).  Pokes run
 * with the watch lock held: a watcher taken off the list
 * (acl__ipcsig_unwatch) is never poked afterwards.
 */
#ifndef OPENACL_RT_IPC_SIGNAL_H
#define OPENACL_RT_IPC_SIGNAL_H

#include "rt/devshare.h"

#define ACL__IPCSIG_TICK_MS 100

/* Streams a poke unparked, for the bell thread to run at once (below). */
#define ACL__IPCSIG_HELP_MAX 16
typedef struct acl__ipcsig_help {
  struct acl__stream *s[ACL__IPCSIG_HELP_MAX];
  int n;
} acl__ipcsig_help;

typedef struct acl__ipcsig_watcher {
  struct acl__ipcsig_watcher *prev, *next;
  void (*poke)(void *obj, int tick, acl__ipcsig_help *help);
  void *obj;
  int listed;
} acl__ipcsig_watcher;

/* The host-wide registry, opened (and the bell thread started) on first
 * use; NULL after recording why for `api` in *rc (shared devices off,
 * /dev/shm unusable). */
acl__ds *acl__ipcsig_registry(const char *api, int *rc);
/* A handle of this process on signal `index` (after acl__ds_sig_create or
 * acl__ds_sig_open), and its end: the process lets go of the signal with
 * its last handle, however many times it opened it. */
void acl__ipcsig_hold(int32_t index);
void acl__ipcsig_release(int32_t index);
void acl__ipcsig_watch(acl__ipcsig_watcher *w);
void acl__ipcsig_unwatch(acl__ipcsig_watcher *w);
/* Changes of a signal made in this process reach the other processes. */
void acl__ipcsig_ring(acl__ds_sig *s);
/* 0 when every other process that could signal s is gone. */
int acl__ipcsig_peers(int32_t index);
/* A poke found a wait parked on stream s that can go on now.  The caller
 * (holding the lock of the object the wait is parked on: s is alive)
 * hands s to the bell thread, which holds it as a user of the stream,
 * wakes it after the pokes and runs its tasks itself instead of waking an
 * executor: fewer thread hand-offs per cross-process signal.  0 when the
 * list is full: the caller unparks s itself (acl__stream_unpark). */
int acl__ipcsig_help_add(acl__ipcsig_help *h, struct acl__stream *s);
/* This process's bit in a signal's `waiting` and `attached` masks. */
uint64_t acl__ipcsig_my_bit(void);
/* aclFinalize: stops the bell thread and leaves the registry. */
void acl__ipcsig_shutdown(void);

#endif
