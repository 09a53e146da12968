/*
 * event.h - the event operations behind src/acl/event_api.c (see event.c for
 * how records, waits and resets work).  Each records its own failures.
 */
#ifndef OPENACL_RT_EVENT_H
#define OPENACL_RT_EVENT_H

#include "rt/rt.h"

/* The live event behind a handle; NULL after recording why for `api`. */
acl__event *acl__event_resolve(const char *api, aclrtEvent event, int *rc);
int acl__event_new(const char *api, acl__context *c, uint32_t flag, int ex, acl__event **out);
/* aclrtDestroyEvent: out of its context; freed when no queued task uses it. */
int acl__event_remove(const char *api, acl__event *e);
/* 0 when the event may be used on stream s (same context), else 107003. */
int acl__event_same_context(const char *api, acl__event *e, acl__stream *s);
int acl__event_record(const char *api, acl__event *e, acl__stream *s);
int acl__event_reset(const char *api, acl__event *e, acl__stream *s);
/* Later work on s waits for e's latest record (none: no wait).  timeout_ms
 * > 0: the wait fails with ACL_ERROR_RT_WAIT_TIMEOUT (reported at the
 * stream's next synchronisation) when the record has not run that long
 * after the wait started; 0: no limit. */
int acl__event_wait(const char *api, acl__stream *s, acl__event *e, int32_t timeout_ms);
/* all_ran: every record submitted so far has run; signaled: not reset since;
 * never_recorded: no record was ever submitted. */
void acl__event_state(acl__event *e, int *all_ran, int *signaled, int *never_recorded);
int acl__event_sync(const char *api, acl__event *e, int32_t timeout_ms);
/* The device time of e's latest record, or a recorded failure naming `which`. */
int acl__event_time(const char *api, const char *which, acl__event *e, uint64_t *ts);

/* Task graphs.  A record captured into aclmdlRI ri_id as its internal
 * edge `edge` marks the event (a later real record clears the mark);
 * mark_of gives the RI's id (UINT32_MAX: none) and the edge. */
void acl__event_graph_mark(acl__event *e, uint32_t ri_id, uint32_t edge);
uint32_t acl__event_graph_mark_of(acl__event *e, uint32_t *edge);
/* Submits an EXTERNAL record (wait 0) or wait of e to s, a stream that
 * records into an RI: a real event task that runs at each replay. */
int acl__event_graph_submit(const char *api, acl__event *e, acl__stream *s, int wait);
int acl__event_task_is_ext_record(acl__task *t);
/* aclmdlRIExecuteAsync: the record number of this replay's EXTERNAL record
 * t; the replay hands it to the task before running it. */
uint64_t acl__event_task_take_seq(acl__task *t);
void acl__event_task_set_seq(acl__task *t, uint64_t seq);
/* The event of a recorded event task (record, wait, reset), else NULL. */
acl__event *acl__event_of_task(acl__task *t);
/* Points recorded event task t at e (aclmdlRITaskSetParams + Update;
 * nothing runs it meanwhile). */
void acl__event_task_set_event(acl__task *t, acl__event *e);

/* IPC events: the creator writes the handle (the event needs ACL_EVENT_IPC);
 * another process opens it into an event of its context c. */
int acl__event_ipc_export(const char *api, acl__event *e, char handle[ACL_IPC_EVENT_HANDLE_SIZE]);
int acl__event_ipc_open(const char *api, acl__context *c, const char handle[ACL_IPC_EVENT_HANDLE_SIZE],
                        acl__event **out);

#endif
