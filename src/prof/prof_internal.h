/*
 * prof_internal.h - what the profiler's files share: the record every hook
 * appends (recorder.c), the collection session (session.c), the writers
 * (write_csv.c, write_trace.c) and the operator-info pool (opinfo.c).
 *
 * Lock order: acl__prof_lock (session state) -> the recorder's registry
 * lock -> the string pool lock.  Hooks take none of them.
 */
#ifndef OPENACL_PROF_PROF_INTERNAL_H
#define OPENACL_PROF_PROF_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "prof/prof.h"

enum { PREC_API = 1, PREC_SUBMIT, PREC_TASK, PREC_OP, PREC_TX, PREC_MEM, PREC_STEP };

/* Task kinds (PREC_TASK / PREC_SUBMIT `sub`), from the task's name. */
enum {
  PTASK_OTHER = 0,
  PTASK_KERNEL,
  PTASK_MODEL,
  PTASK_MEMCPY,
  PTASK_HOSTFUNC,
  PTASK_EVENT_RECORD,
  PTASK_EVENT_WAIT,
  PTASK_MARKER,
  PTASK_KIND_COUNT
};

/* msproftx event types (PREC_TX `sub`), the vendor's codes. */
enum { PTX_MARKER = 0, PTX_PUSHPOP = 1, PTX_STARTEND = 2, PTX_MARKER_EX = 3 };

struct acl__prof_opinfo {
  const char *name, *type, *impl;
  const char *in_shapes, *in_types, *out_shapes, *out_types, *in_formats, *out_formats;
};

typedef struct acl__prof_rec {
  uint8_t kind;     /* PREC_* */
  uint8_t sub;      /* TASK/SUBMIT: PTASK_*; TX: PTX_* */
  int16_t device;   /* -1: host */
  int32_t stream;   /* stream id, -1: none */
  uint32_t tid;     /* the recording thread */
  uint32_t tid2;    /* TASK: the submitting thread */
  uint32_t model;   /* OP, TASK of a model: model id; else UINT32_MAX */
  int32_t rc;       /* TASK: its result */
  uint64_t seq;     /* TASK/SUBMIT/OP: the task's seq on its stream; TX: range id; MEM: bytes in use */
  uint64_t t0, t1;  /* monotonic ns (t0 == t1 for instants) */
  const void *ptr;  /* API: name literal; OP: opinfo; TX: message (string pool) */
  union {
    char text[56];      /* TASK/SUBMIT: the task's name */
    const char *domain; /* TX: the mstx domain's name (string pool); NULL: "default" */
  };
} acl__prof_rec;

/* ---- recorder.c ------------------------------------------------------------ */
/* A slot in the calling thread's buffer for the current session, or NULL
 * (out of memory).  Fill it, then acl__prof_commit. */
acl__prof_rec *acl__prof_slot(void);
void acl__prof_commit(void);
uint32_t acl__prof_tid(void);
/* Begins a new session: records of older ones are dropped as threads write. */
void acl__prof_recorder_reset(void);
/* Every record of the current session (copied, malloc'd), sorted by t0. */
acl__prof_rec *acl__prof_collect(size_t *n);

/* ---- tx.c: what mstx.c shares with the msproftx calls --------------------- */
/* Appends a PREC_TX record (domain NULL: "default"). */
void acl__prof_tx_record(int type, const char *msg, const char *domain, uint64_t t0, uint64_t t1, uint64_t id,
                         int32_t stream, int16_t device);
/* Puts a marker task named "msproftx <msg>" on `stream` (an aclrtStream):
 * 0 with its stream id, device and seq, or the aclError (recorded for api). */
int acl__prof_tx_marker_task(const char *api, void *stream, const char *msg, int32_t *stream_id, int16_t *device,
                             uint64_t *seq);

/* ---- mstx.c ---------------------------------------------------------------- */
/* Sets MSTX_INJECTION_PATH to this library's path when it is unset. */
void acl__prof_mstx_advertise(void);

/* ---- aprof.c --------------------------------------------------------------- */
/* Whether MsprofSetDeviceIdByGeModelIdx declared this model id. */
int acl__prof_ge_model_declared(uint32_t model);

/* ---- strings.c: copies that live until aclFinalize ------------------------ */
const char *acl__prof_strdup(const char *s, size_t n);

/* ---- session.c ------------------------------------------------------------- */
extern pthread_mutex_t acl__prof_lock;
typedef struct acl__prof_session {
  char dir[4096];          /* the PROF_... directory */
  char stamp[16];          /* YYYYMMDDHHMMSS for file names */
  uint64_t bits;           /* ACL_PROF_* data types */
  uint64_t devices;        /* bit per device collected */
  uint64_t mono0, real0;   /* clocks at start, ns: Unix time = real0 + (mono - mono0) */
  uint64_t mono_end;
  int pid;
} acl__prof_session;
/* The session being written; valid only while acl__prof_lock is held. */
int acl__prof_tx_active(void);

/* ---- write_csv.c / write_trace.c ------------------------------------------ */
int acl__prof_write_csv(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *outdir);
int acl__prof_write_trace(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *path);
/* µs of Unix time of a monotonic ns stamp, "<us>.<3 digits>", in buf[32]. */
const char *acl__prof_fmt_us(char *buf, const acl__prof_session *s, uint64_t mono_ns);
const char *acl__prof_task_kind_name(int kind);
const char *acl__prof_task_type(int kind); /* vendor "Task Type" column */

/* ---- tables.c: views of the records both writers use -------------------- */
/* The task records, one per task: a task that parked (event waits) ran
 * several times; its pieces are merged (first start, last end).  Sorted by
 * start.  *n_out tasks, malloc'd. */
acl__prof_rec *acl__prof_tasks(const acl__prof_rec *r, size_t n, size_t *n_out);
/* The runtime API name of a submission of each task kind ("rtKernelLaunch"). */
const char *acl__prof_rt_name(int kind);
/* Writes s as a CSV cell (quoted when it holds , " or a newline). */
void acl__prof_csv_cell(FILE *f, const char *s);
/* Writes s as the body of a JSON string (escaped). */
void acl__prof_json_str(FILE *f, const char *s);

/* ---- subscribe.c ----------------------------------------------------------- */
/* Operator records of model `model` ran by the calling thread's execution
 * (between acl__prof_exec_enter and leave), written to its subscriber. */
int acl__prof_sub_wants(uint32_t model);
void acl__prof_sub_op(uint32_t model, const acl__prof_opinfo *info, uint64_t t0, uint64_t t1, uint32_t tid,
                      int device);
void acl__prof_sub_flush(uint32_t model);
int acl__prof_sub_any(void);

/* Recomputes acl__prof_flags from the session and the subscriptions (prof lock held). */
void acl__prof_flags_update(void);

#endif
