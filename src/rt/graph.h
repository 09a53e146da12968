/*
 * graph.h - model runtime instances captured from a stream (aclmdlRI, "ACL
 * graph"), first slice of issue 14: single-stream capture and replay.
 * docs/graphs.md has the user's view.
 */
#ifndef OPENACL_RT_GRAPH_H
#define OPENACL_RT_GRAPH_H

#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

typedef struct acl__ri acl__ri;

/* 1 when s is being captured: a hint read without the lock, for
 * submitters that name their task only when it is recorded. */
static inline int acl__stream_capturing(acl__stream *s) {
  return __atomic_load_n(&s->capture, __ATOMIC_RELAXED) != NULL;
}

/* Stream lock held, s->capture != NULL: records t in the capture (0), or
 * refuses it (an aclError, recorded for aclGetRecentErrMsg; the capture is
 * invalidated) and the caller releases it. */
int acl__graph_capture_task_locked(acl__stream *s, acl__task *t);

/* A call the capture modes govern ("unsafe": synchronous copies and
 * memsets, synchronising or querying a stream or the device).  s: the
 * stream it concerns, or NULL.  0 when allowed, else
 * ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC recorded for `api` and the capture
 * that forbids it invalidated.  Costs one atomic load when nothing is
 * being captured. */
int acl__graph_check_unsafe(const char *api, acl__stream *s);
/* A call that cannot be recorded yet on a capturing stream (event record /
 * wait / reset): 0 when s is not capturing, else 207000 recorded and the
 * capture invalidated. */
int acl__graph_refuse(const char *api, acl__stream *s, const char *what);

/* Stream destroy: a capture still active on s is ended and its RI
 * discarded (with a warning). */
void acl__graph_stream_gone(acl__stream *s);

int acl__graph_capture_begin(const char *api, acl__stream *s, aclmdlRICaptureMode mode);
int acl__graph_capture_end(const char *api, acl__stream *s, acl__ri **out);
int acl__graph_capture_info(acl__stream *s, aclmdlRICaptureStatus *status, acl__ri **ri);
int acl__graph_exchange_mode(aclmdlRICaptureMode *mode);

int acl__graph_execute_async(const char *api, acl__ri *ri, acl__stream *s);
int acl__graph_destroy(const char *api, acl__ri *ri);
/* aclFinalize: the RIs the program did not destroy go, logged (their destroy
 * callbacks run). */
void acl__graph_finalize(void);
int acl__graph_callback(const char *api, acl__ri *ri, aclrtCallback fn, void *user, int add);
int acl__graph_set_name(acl__ri *ri, const char *name);
int acl__graph_get_name(const char *api, acl__ri *ri, uint32_t max_len, char *name);
uint32_t acl__graph_id(acl__ri *ri);
acl__stream *acl__graph_origin(acl__ri *ri);
/* Tasks of the newest live RI captured on s: copies up to *n (array given),
 * sets *n to the count written (or the total when tasks == NULL); 1 when
 * the array was too small. */
int acl__graph_tasks_of_stream(acl__stream *s, aclmdlRITask *tasks, uint32_t *n);
uint32_t acl__graph_task_seq(acl__task *t);
int acl__graph_debug_print(acl__ri *ri);
int acl__graph_debug_json(const char *api, acl__ri *ri, const char *path, uint32_t flags);

#endif
