/*
 * shmq.h - queues in shared memory (shmq.c): the storage of acltdtCreateQueue
 * queues, which processes of one user share by queue id.
 *
 * One POSIX shared-memory object per queue, named
 * "/openacl-tdtq-u<uid>-<qid>", mode 0600, opened only when its owner is
 * the calling user.  It holds a header (robust process-shared mutex,
 * condition variables, the processes that use the queue and their
 * permissions, the routes that forward it) and a byte ring of elements.  An
 * element is a list of segments (a buffer chain; one for acltdtEnqueueData),
 * each with its data and a 96-byte private area.
 *
 * A process that dies never leaves the others waiting for ever: waits wake
 * every 100 ms and fail with ACL_ERROR_FAILURE once every other process
 * that used the queue is gone, or the queue was destroyed.  A queue whose
 * processes have all died is removed by the next acltdtCreateQueue of the
 * same user (and a creator's normal exit removes its queues).
 *
 * Lock order: the process's queue list lock (shmq.c) -> a queue's shared
 * lock; never two queues' shared locks at once.
 */
#ifndef OPENACL_TDT_SHMQ_H
#define OPENACL_TDT_SHMQ_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ACL__SHMQ_USER_BYTES 96
#define ACL__SHMQ_DEPTH_MIN 2
#define ACL__SHMQ_DEPTH_MAX 8192
#define ACL__SHMQ_MAX_SEGS 128
#define ACL__SHMQ_PERM_ALL 7u

typedef struct acl__shmq acl__shmq; /* this process's view of one queue */

/* One segment to put: data (host memory) and its private area. */
typedef struct acl__shmq_seg_in {
  const void *data;
  size_t len;
  const void *user;
  size_t user_len;
} acl__shmq_seg_in;

/* One segment of the element being taken (points into shared memory, valid
 * inside the take callback only). */
typedef struct acl__shmq_seg_out {
  const void *data;
  size_t len;
  const unsigned char *user; /* ACL__SHMQ_USER_BYTES */
  size_t user_len;
} acl__shmq_seg_out;

/* Called with the queue locked; returns 0 to consume the element or an
 * error code (recorded) to leave it queued. */
typedef int (*acl__shmq_take_fn)(void *ctx, const acl__shmq_seg_out *segs, uint32_t nseg);

/* Creates a queue of `depth` elements named `name`; its id in *qid.
 * 0 or a recorded error for api. */
int acl__shmq_create(const char *api, const char *name, uint32_t depth, uint32_t *qid);
/* This process's view of qid, with a reference (acl__shmq_release), or NULL
 * after recording into *rc for api: 100000 for no such queue, 207006 when the queue
 * exists but this process did not create or attach it (need_perm != 0) or
 * lacks a permission bit of need_perm. */
acl__shmq *acl__shmq_acquire(const char *api, uint32_t qid, uint32_t need_perm, int *rc);
/* Opens qid for internal use (route forwarding): no permission needed. */
acl__shmq *acl__shmq_acquire_internal(const char *api, uint32_t qid, int *rc);
void acl__shmq_release(acl__shmq *q);
uint32_t acl__shmq_id(const acl__shmq *q);
/* 1 when qid names a live queue of this user (not destroyed). */
int acl__shmq_exists(uint32_t qid);

/* Destroys qid (creator or MANAGE permission) or, for a process without
 * MANAGE, closes its view.  Fails with 500001 while forward routes leave
 * the queue (route.c checks the routes this process bound into it). */
int acl__shmq_destroy(const char *api, uint32_t qid);

/* Puts one element; timeout as in acl_tdt_queue.h; full -> full_code after
 * the timeout.  The element goes to the queue's forward routes instead when
 * it has any. */
int acl__shmq_put(const char *api, acl__shmq *q, const acl__shmq_seg_in *segs, uint32_t nseg, int32_t timeout,
                  int full_code);
/* Takes the oldest element through fn; empty -> empty_code after the
 * timeout. */
int acl__shmq_take(const char *api, acl__shmq *q, int32_t timeout, int empty_code, acl__shmq_take_fn fn, void *ctx);

/* Grants pid the permission bits on q (caller needs MANAGE). */
int acl__shmq_grant(const char *api, acl__shmq *q, int32_t pid, uint32_t perm);
/* Opens qid in this process once it was granted to this pid (waiting up to
 * timeout for the grant); the granted bits in *perm. */
int acl__shmq_attach(const char *api, uint32_t qid, int32_t timeout, uint32_t *perm);

/* Forward routes kept in the source queue's header. */
int acl__shmq_route_add(const char *api, acl__shmq *src, uint32_t dst);
int acl__shmq_route_remove(acl__shmq *src, uint32_t dst);
/* 1 when q is destroyed (its routes are then abnormal). */
int acl__shmq_destroyed(acl__shmq *q);

#endif
