/*
 * graph.h - model runtime instances (aclmdlRI, "ACL graph"): what the rest
 * of the runtime and the API layer call.  The implementation is split over
 * src/rt/graph*.c (graph_impl.h says which file holds what, and the lock
 * order); docs/graphs.md has the user's view.
 */
#ifndef OPENACL_RT_GRAPH_H
#define OPENACL_RT_GRAPH_H

#include <stdint.h>

#include "acl/acl.h"
#include "rt/rt.h"

typedef struct acl__ri acl__ri;

/* The live RI behind a handle; NULL after recording why for `api`. */
acl__ri *acl__ri_resolve(const char *api, aclmdlRI modelRI, int *rc);
/* The live recorded task behind a handle (aclmdlRITask), likewise. */
acl__task *acl__ri_task_resolve(const char *api, aclmdlRITask task, int *rc);

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
/* aclmdlRICaptureToModelRIBegin: s records into branch ri. */
int acl__graph_capture_into(const char *api, acl__stream *s, acl__ri *ri, aclmdlRICaptureMode mode);
int acl__graph_capture_end(const char *api, acl__stream *s, acl__ri **out);
int acl__graph_capture_info(acl__stream *s, aclmdlRICaptureStatus *status, acl__ri **ri);
int acl__graph_exchange_mode(aclmdlRICaptureMode *mode);
/* The captures recording into ri are invalidated (logged with `why`). */
void acl__graph_invalidate_ri(acl__ri *ri, const char *why);

/* Events on streams that record into an RI (graph_capture.c).  Each returns
 * ACL__GRAPH_PASS when the call is an ordinary one (the stream records
 * nothing and, for a wait, the event's last record was not captured), else
 * 0 or a recorded error.  A wait on a stream not recording joins the
 * capture the event's last record belongs to. */
#define ACL__GRAPH_PASS (-100)
int acl__graph_event_record(const char *api, acl__event *e, acl__stream *s);
int acl__graph_event_wait(const char *api, acl__stream *s, acl__event *e);

int acl__graph_execute_async(const char *api, acl__ri *ri, acl__stream *s);
int acl__graph_destroy(const char *api, acl__ri *ri);
/* A context is released, after its streams: the RIs made in it that the
 * program did not destroy go, logged (their destroy callbacks run). */
void acl__graph_context_gone(acl__context *c);
int acl__graph_callback(const char *api, acl__ri *ri, aclrtCallback fn, void *user, int add);
int acl__graph_set_name(acl__ri *ri, const char *name);
int acl__graph_get_name(const char *api, acl__ri *ri, uint32_t max_len, char *name);
uint32_t acl__graph_id(acl__ri *ri);
/* The streams of ri: copies up to *n (array given), sets *n to the count
 * written (or the total when streams == NULL); 1 when the array was too
 * small.  acl__graph_tasks_of_stream likewise for the tasks recorded from
 * s into the newest live RI that has s. */
int acl__graph_streams(acl__ri *ri, aclrtStream *streams, uint32_t *n);
int acl__graph_tasks_of_stream(acl__stream *s, aclmdlRITask *tasks, uint32_t *n);
uint32_t acl__graph_task_seq(acl__task *t);
int acl__graph_debug_print(acl__ri *ri);
int acl__graph_debug_json(const char *api, acl__ri *ri, const char *path, uint32_t flags);

/* Build mode, labels, stream switches (graph_build.c). */
int acl__graph_build_begin(const char *api, acl__context *c, acl__ri **out);
int acl__graph_bind(const char *api, acl__ri *ri, acl__stream *s, uint32_t flag);
int acl__graph_unbind(const char *api, acl__ri *ri, acl__stream *s);
int acl__graph_end_task(const char *api, acl__ri *ri, acl__stream *s);
int acl__graph_build_end(const char *api, acl__ri *ri);
int acl__graph_active_stream(const char *api, acl__stream *active, acl__stream *s);
int acl__graph_switch_stream(const char *api, void *left, aclrtCondition cond, void *right, aclrtCompareDataType type,
                             acl__stream *target, acl__stream *s);
/* aclrtSetLabel: a label task at the end of bound stream s; its place is
 * written to *lane / *pos (opaque to label.c). */
int acl__graph_set_label(const char *api, acl__stream *s, void **lane, uint32_t *pos);
/* aclrtSwitchLabelByIndex on bound stream s; the targets are looked up
 * through `resolve` when the build ends. */
int acl__graph_switch_label(const char *api, void *ptr, uint32_t max_value, aclrtLabelList list, acl__stream *s);

/* Conditional tasks (graph_cond.c). */
int acl__graph_cond_create(const char *api, acl__ri *ri, uint32_t def, aclmdlRICondHandleFlag flag,
                           aclmdlRICondHandle *out);
int acl__graph_cond_ptr(const char *api, aclmdlRICondHandle h, uint64_t **ptr);
int acl__graph_cond_add(const char *api, aclmdlRICondTaskParams *p, acl__stream *s);

/* Task groups, task parameters, aborts (graph_update.c). */
int acl__graph_grp_begin(const char *api, acl__stream *s);
int acl__graph_grp_end(const char *api, acl__stream *s, aclrtTaskGrp *out);
int acl__graph_update_begin(const char *api, acl__stream *u, aclrtTaskGrp handle);
int acl__graph_update_end(const char *api, acl__stream *u);
int acl__graph_task_get(const char *api, acl__task *t, aclmdlRITaskParams *p);
int acl__graph_task_set(const char *api, acl__task *t, const aclmdlRITaskParams *p);
int acl__graph_task_disable(const char *api, acl__task *t);
int acl__graph_update(const char *api, acl__ri *ri);
int acl__graph_kernel_attr(const char *api, acl__task *t, aclrtLaunchKernelAttrId id, aclrtLaunchKernelAttrValue *v);
int acl__graph_abort(const char *api, acl__ri *ri);
/* aclrtCacheLastTaskOpInfo (extend 0) / ExtendInfo (1): a copy kept for the
 * task this thread recorded last; acl__graph_task_info reads it back. */
int acl__graph_cache_info(const char *api, const void *info, size_t size, int extend);
size_t acl__graph_task_info(acl__ri *ri, acl__task *t, int extend, const void **data);
/* aclrtPersistentTaskClean: the tasks recorded so far on a stream bound to
 * an RI being built are dropped. */
int acl__graph_persistent_clean(const char *api, acl__stream *s);

#endif
