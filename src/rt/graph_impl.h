/*
 * graph_impl.h - what the files of the task-graph runtime share (graph.c:
 * objects, lifetime, queries; graph_capture.c: capture sessions, modes and
 * cross-stream joins; graph_replay.c: runners; graph_build.c: build mode,
 * labels, stream switches; graph_cond.c: conditional tasks).  Nothing
 * outside src/rt/graph*.c includes it; the rest of the runtime uses graph.h.
 *
 * Shape of an RI: one or more lanes, each the ordered tasks of one stream
 * (the capture's origin stream, a stream that joined it through an event,
 * or a stream bound in build mode).  Tasks are ordinary acl__tasks whose
 * submitter allowed recording (ri_ok), plus control tasks made here (edges,
 * end, switches, labels, cond tasks), which act on the runner that meets
 * them.
 *
 * Locks: stream lock -> g_lock -> RI lock (ri->lock, a leaf).  An event
 * lock is never held with either of the last two.
 */
#ifndef OPENACL_RT_GRAPH_IMPL_H
#define OPENACL_RT_GRAPH_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "rt/event.h"
#include "rt/graph.h"

#define RI_NAME_MAX 512
#define RI_MAX_DEPTH 8 /* nested conditional branches */

typedef enum { RI_CAPTURED, RI_BUILT, RI_BRANCH } ri_kind;

typedef struct ri_lane {
  acl__ri *ri;
  uint32_t index;
  acl__stream *s;       /* the user stream; compared and handed back, never dereferenced once unbound */
  int32_t sid;          /* its id, for messages and the JSON dump */
  uint32_t flag;        /* ACL_MODEL_STREAM_FLAG_HEAD / _DEFAULT */
  int bound;            /* s still sends its tasks here (acl__g_lock) */
  acl__task **tasks;    /* appended under the stream's lock while recording; a task
                           group update swaps entries (atomic stores, acl__g_lock) */
  uint32_t n, cap;
  uint8_t *off;         /* disabled tasks (aclmdlRITaskDisable + aclmdlRIUpdate), or NULL */
  acl__stream *runner;  /* internal stream the lane's runner uses (not the first HEAD lane's) */
} ri_lane;

typedef struct acl__capture acl__capture;

/* A stream's hook (s->capture): what it submits goes to `lane`. */
struct acl__capture {
  acl__ri *ri;
  ri_lane *lane;
  acl__stream *s;
  struct ri_session *cs;       /* the capture session; NULL for a stream bound in build mode */
  struct acl__capture *snext;  /* the session's hooks (g_lock) */
  int sealed;                  /* build mode: aclmdlRIBuildEnd ran (stream lock) */
  struct ri_grp *grp;          /* an update hook (aclmdlRICaptureTaskUpdateBegin): tasks go to pend */
  acl__task **pend;
  uint32_t npend, cap_pend;
};

/* One capture, begun on its origin stream; other streams join it. */
typedef struct ri_session {
  uint64_t id;                 /* events remember the session of their last record by id */
  acl__ri *ri;
  acl__capture *origin;
  aclmdlRICaptureMode mode;
  pthread_t thread;            /* the thread that called CaptureBegin */
  atomic_int invalid;          /* a forbidden call: CaptureEnd discards the RI */
  acl__capture *hooks;         /* origin first, then joined streams (g_lock) */
  acl__capture *grp_hook;      /* the stream with an open task group (atomic), ... */
  uint32_t grp_first;          /* ... and where in its lane the group starts */
  struct ri_session *next;     /* active sessions (g_lock) */
} ri_session;

typedef struct ri_cb {
  aclrtCallback fn;
  void *user;
} ri_cb;

/* A runner walks lanes: a stack of frames, one per conditional branch. */
typedef struct ri_frame {
  ri_lane *lane;
  uint32_t pos;
} ri_frame;

typedef struct ri_runner {
  acl__ri *ri;
  acl__task *self;             /* the task that runs it (the replay's composite or a lane task) */
  ri_frame st[RI_MAX_DEPTH + 1];
  int depth;
  int parked_edge;             /* waiting in ri->edge_waiters (ri->lock) */
  uint32_t wait_edge;
  struct ri_runner *wnext;
  acl__task *parked_in;        /* the recorded task it parked in, for a discard */
} ri_runner;

struct acl__ri {
  acl__device *dev;
  acl__context *ctx;
  uint32_t id;
  ri_kind kind;
  acl__ri *parent;             /* RI_BRANCH: the RI whose cond task runs it */
  int depth;                   /* branch nesting (0 for a root) */
  ri_lane **lanes;             /* grown under g_lock while recording; fixed after */
  uint32_t nlanes, cap_lanes;
  ri_lane *main;               /* the lane the replay task runs itself: the first HEAD lane */
  atomic_uint nedges;          /* internal edges (captured record -> wait pairs) */
  uint64_t *edge_gen;          /* per edge: replay generation of its last record (lock) */
  acl__task **ext_records;     /* EXTERNAL event records: numbered at each ExecuteAsync */
  uint32_t n_ext;
  struct ri_cond_handle *conds;/* cond handles of this RI (graph_cond.c) */
  acl__ri **branches;          /* RIs its cond tasks made (freed with it) */
  uint32_t nbranches, cap_branches;
  int executor_only;           /* a recorded task must run on an executor */
  struct ri_grp *grps;         /* task groups (graph_update.c) */
  acl__task **old;             /* tasks replaced by group updates: freed with the RI */
  uint32_t nold, cap_old;
  struct ri_edit *edits;       /* aclmdlRITaskSetParams / TaskDisable waiting for aclmdlRIUpdate */
  struct ri_info *infos;       /* aclrtCacheLastTaskOpInfo / ExtendInfo copies (lock) */
  pthread_mutex_t lock;        /* guards what follows */
  pthread_cond_t idle;         /* busy went to 0 */
  int recording;               /* capture or build still open */
  int capturing_branches;      /* branch captures not yet ended (parent's CaptureEnd: 107045) */
  int busy;                    /* a replay is running */
  uint64_t gen;                /* replay generation */
  int runners;                 /* runners of the current replay still going */
  int first_error;
  char error_what[64];
  int aborting;                /* the replay was discarded: runners stop at their next task */
  acl__stream *main_parked;    /* the replay task waits for the other runners */
  ri_runner *main_runner;      /* the replay task's runner while it runs */
  int main_gone;               /* the replay task was discarded: the last runner frees the RI */
  ri_runner *edge_waiters;
  ri_runner **live;            /* runners started by this replay (for an abort) */
  int nlive, cap_live;
  struct ri_exec *waiters, *wtail; /* replays waiting for the RI */
  int queued;                  /* replays submitted and not yet released */
  char name[RI_NAME_MAX];
  ri_cb *cbs;
  int ncbs;
  acl__ri *next;               /* live RIs (g_lock) */
};

extern pthread_mutex_t acl__g_lock;
extern acl__ri *acl__g_ris;    /* acl__g_lock */

/* Control tasks: made here, recorded like any task; run() acts on the
 * runner the replay is in (acl__ri_cur). */
#define RI_CTL_JUMPED (-2)     /* the runner's position was set: do not advance */
#define RI_CTL_END (-3)        /* the runner ends */
extern _Thread_local ri_runner *acl__ri_cur;
/* The task this thread recorded last, and its RI (aclrtCacheLastTask*). */
extern _Thread_local acl__task *acl__ri_last_task;
extern _Thread_local acl__ri *acl__ri_last_ri;

acl__ri *acl__ri_new(acl__context *ctx, ri_kind kind);
void acl__ri_free(acl__ri *ri);
ri_lane *acl__ri_add_lane(acl__ri *ri, acl__stream *s, uint32_t flag);
/* Stream lock held: appends t to the hook's lane. */
int acl__ri_append_locked(acl__capture *h, acl__task *t);
/* Recording ends: internal streams for lanes other than the main one. */
int acl__ri_seal(const char *api, acl__ri *ri);
void acl__ri_publish(acl__ri *ri);
acl__task *acl__ri_ctl_new(size_t extra, acl__task_run_fn run, const char *what);
/* Starts a runner on `lane` for the current replay (ActiveStream). */
int acl__ri_start_runner(acl__ri *ri, ri_lane *lane);
/* Internal edge tasks (graph_replay.c): a captured record of edge k of
 * `owner`, or a wait for it; acl__ri_edge_of tells them apart (0: not an
 * edge task). */
acl__task *acl__ri_edge_task(acl__ri *owner, uint32_t k, int wait);
int acl__ri_edge_of(acl__task *t, uint32_t *k, int *wait);
/* graph_cond.c: cond handles set to their defaults at a replay's start. */
void acl__ri_cond_reset(acl__ri *ri);
void acl__ri_cond_free(acl__ri *ri);
/* graph_update.c: a task submitted to a stream in task-update mode (stream
 * lock held); the RI's groups and edits freed. */
int acl__ri_update_collect_locked(acl__capture *h, acl__task *t);
void acl__ri_update_free(acl__ri *ri);
/* graph_replay.c: the running replay of ri stops with `rc` (aclmdlRIAbort);
 * 1 when one was running. */
int acl__ri_abort(acl__ri *ri, int rc);

/* Unhooks the streams still bound to ri (build mode; destroy). */
void acl__graph_unbind_all(acl__ri *ri);
const char *acl__graph_kind_name(int k);

#endif
