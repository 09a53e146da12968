/*
 * stream_ctl.h - controlling a stream's work from the host (stream.c):
 * aclrtStreamStop, aclrtStreamAbort (and aclrtDeviceTaskAbort through it),
 * priority changes, and the release of streams destroyed by force.
 */
#ifndef OPENACL_RT_STREAM_CTL_H
#define OPENACL_RT_STREAM_CTL_H

#include "rt/rt.h"

/* Nothing more runs on s; a kernel running now skips its remaining blocks
 * and fails with ACL_ERROR_RT_INTERNAL_ERROR; queued and later tasks wait,
 * and synchronising returns ACL_ERROR_RT_INTERNAL_ERROR, until an abort or
 * a destroy.  Returns at once; 0. */
int acl__stream_stop(acl__stream *s);
/* Discards every task of s that has not started; a kernel running now skips
 * its remaining blocks; the stream runs again what is queued after the
 * call (a stop ends).  `code` is what the next synchronisation reports when
 * something was discarded or cut, `by` names the API in that message.
 * Returns at once; 0. */
int acl__stream_abort(acl__stream *s, int code, const char *by);
/* Changes the priority of a live stream (its place in the ready lists too). */
void acl__stream_set_priority(acl__stream *s, uint32_t priority);
/* Frees the context's streams destroyed by force whose last task ended. */
void acl__stream_reap_orphans(acl__context *c);

#endif
