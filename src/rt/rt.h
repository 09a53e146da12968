/*
 * rt.h - the runtime's objects: devices, contexts, streams, events, tasks.
 *
 * Ownership (docs/design.md has the long form):
 *   device   one per visible device id, made at first use, kept until
 *            aclFinalize (a reset releases its resources, not the struct).
 *   context  belongs to one device; the default context is the device's,
 *            user contexts are created/destroyed by the user.
 *   stream   belongs to one context; a context's default stream lives and
 *            dies with it.
 *   event    belongs to one context.
 *   task     owned by its stream's queue from submit until it has run (or
 *            was discarded), then released.
 *
 * Every handle given to the user is registered in the handle table
 * (handle.c) with its type, so a destroyed, foreign or garbage pointer is
 * recognised without being dereferenced.
 *
 * Lock order (outer first):
 *   process lock (src/acl/init.c) -> device lock (acl__device.lock)
 *   -> context lock -> callback registry (callback.c) -> event lock
 *   -> stream lock -> leaves: scheduler lock (acl__device.sched_lock), the graph lock (graph.c),
 *   a device's memory-space lock, a handle-table stripe (writers only;
 *   lookups take no lock).
 *   (A record wakes the streams waiting on its event with the event lock
 *   held; a stream is put on the ready list with its lock held; tasks run
 *   with no runtime lock held.)
 */
#ifndef OPENACL_RT_RT_H
#define OPENACL_RT_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "hal/backend.h"
#include "hal/hal.h"

typedef struct acl__device acl__device;
typedef struct acl__context acl__context;
typedef struct acl__stream acl__stream;
typedef struct acl__event acl__event;
typedef struct acl__task acl__task;

/* ---- handles ------------------------------------------------------------ */

typedef enum acl__handle_type {
  ACL__H_CONTEXT = 1,
  ACL__H_STREAM,
  ACL__H_EVENT,
  ACL__H_BINARY,       /* aclrtBinHandle (kernel.c) */
  ACL__H_FUNCTION,     /* aclrtFuncHandle */
  ACL__H_ARGS,         /* aclrtArgsHandle */
  ACL__H_DATASET,      /* aclmdlDataset (src/acl/dataset.c) */
  ACL__H_TENSOR_DESC,  /* aclTensorDesc (src/acl/tensor_desc.c) */
  ACL__H_MODEL_DESC,   /* aclmdlDesc (src/acl/model_api.c) */
  ACL__H_DATA_BUFFER,  /* aclDataBuffer (src/acl/data_buffer.c) */
  ACL__H_STREAM_CONFIG, /* aclrtStreamConfigHandle (src/acl/stream_config_api.c) */
  /* devices, callbacks, allocators, labels (rt-breadth §4, §6, §7) */
  ACL__H_EXCEPTION_INFO, /* aclrtExceptionInfo, alive while its callbacks run (exception.c) */
  ACL__H_ALLOCATOR_DESC, /* aclrtAllocatorDesc (allocator.c) */
  ACL__H_LABEL,          /* aclrtLabel (label.c) */
  ACL__H_LABEL_LIST,     /* aclrtLabelList (label.c) */
  ACL__H_MODEL_CONFIG,   /* aclmdlConfigHandle (src/acl/model_config_api.c) */
  /* TDT (src/tdt/) */
  ACL__H_TDT_ITEM,       /* acltdtDataItem (item.c) */
  ACL__H_TDT_DATASET,    /* acltdtDataset (dataset.c) */
  ACL__H_TDT_CHANNEL,    /* acltdtChannelHandle (channel.c) */
  ACL__H_TDT_QUEUE_ATTR, /* acltdtQueueAttr (queue_attr.c) */
  ACL__H_TDT_ROUTE,      /* acltdtQueueRoute (route.c) */
  ACL__H_TDT_ROUTE_LIST, /* acltdtQueueRouteList (route.c) */
  ACL__H_TDT_ROUTE_QUERY, /* acltdtQueueRouteQueryInfo (route.c) */
  /* notifies (notify.c) */
  ACL__H_NOTIFY,         /* aclrtNotify */
  ACL__H_CNT_NOTIFY,     /* aclrtCntNotify */
  /* aclnn objects (src/aclnn/) */
  ACL__H_NN_TENSOR,      /* aclTensor */
  ACL__H_NN_SCALAR,      /* aclScalar */
  ACL__H_NN_INT_ARRAY,   /* aclIntArray */
  ACL__H_NN_FLOAT_ARRAY, /* aclFloatArray */
  ACL__H_NN_BOOL_ARRAY,  /* aclBoolArray */
  ACL__H_NN_TENSOR_LIST, /* aclTensorList */
  ACL__H_NN_SCALAR_LIST, /* aclScalarList */
  ACL__H_NN_EXECUTOR,    /* aclOpExecutor */
  /* task graphs (graph.c) */
  ACL__H_MODEL_RI,       /* aclmdlRI */
  ACL__H_RI_TASK,        /* aclmdlRITask: a task recorded in an aclmdlRI */
  ACL__H_RI_COND,        /* aclmdlRICondHandle (graph_cond.c) */
  ACL__H_RI_GRP,         /* aclrtTaskGrp (graph_update.c) */
  ACL__H_TYPE_COUNT
} acl__handle_type;

void acl__handle_register(void *h, acl__handle_type type);
void acl__handle_unregister(void *h);
/* 1 when h is a live handle of that type. */
int acl__handle_valid(const void *h, acl__handle_type type);
const char *acl__handle_type_name(acl__handle_type type);
void acl__handle_atfork_prepare(void);
void acl__handle_atfork_parent(void);
void acl__handle_atfork_child(void);

/* ---- tasks -------------------------------------------------------------- */

/* What a task's run function returns besides an aclError (0 = success). */
#define ACL__TASK_PARK (-1)   /* not ready: park the stream until acl__stream_unpark */

typedef int (*acl__task_run_fn)(acl__task *t);

/*
 * A unit of work on a stream.  Submitters allocate a larger struct whose
 * first member is an acl__task (or use acl__task_new for small payloads),
 * set run, release and what, and call acl__stream_submit, which takes
 * ownership.  `run` is called on an executor thread (or on a thread that
 * synchronises and helps) with device-memory access enabled; it returns 0,
 * an aclError, or ACL__TASK_PARK.  A parked task is run again after
 * acl__stream_unpark(stream) and must then be able to finish.  `release`
 * frees the task (NULL = free()); it is called exactly once, after the last
 * run or when the task is discarded (stream destroyed by force, or a
 * previous task failed with ACL_STOP_ON_FAILURE).
 */
struct acl__task {
  acl__task *next;             /* queue link, owned by the stream */
  acl__task_run_fn run;
  void (*release)(acl__task *t);
  char what[64];               /* names the task in error messages: "kernel vadd (8 blocks)" */
  uint64_t seq;                /* set by submit: 1, 2, ... per stream */
  acl__stream *stream;         /* set by submit */
  int discarded;               /* set before release when the task never ran */
  int executor_only;           /* host code (host functions): never run by a thread that
                                  synchronises and helps, only by an executor */
  uint32_t submit_tid;         /* set by submit: the submitting thread, for exception info (exception.c) */
  uint8_t ri_type;             /* aclmdlRITaskType, set by submitters (ACL_MODEL_RI_TASK_DEFAULT = 0) */
  uint8_t ri_ok;               /* the submitter checked that the task can run many times and keeps no
                                  state from its submission: it may be recorded by a capture (graph.c) */
  void (*cancel)(acl__task *t); /* recorded tasks that park (graph.c): the replay parked in this task
                                  was discarded; stop waiting so that it can run again from the start
                                  (NULL: nothing to undo) */
};

/* Allocates a zeroed task with `extra` payload bytes after it (payload at
 * (char *)t + sizeof(acl__task) rounded to 16). */
acl__task *acl__task_new(size_t extra, acl__task_run_fn run, const char *what);
void *acl__task_payload(acl__task *t);

/* Queues a task.  0, or an error (stream being destroyed) after which the
 * task has been released.  The _seq form also gives the task's position in
 * the stream (the task itself may be gone by the time it returns). */
int acl__stream_submit(acl__stream *s, acl__task *t);
int acl__stream_submit_seq(acl__stream *s, acl__task *t, uint64_t *seq);
/* Wakes a stream whose task returned ACL__TASK_PARK.  Any thread; safe to
 * call before the executor has finished parking (the wake is remembered). */
void acl__stream_unpark(acl__stream *s);

/* Runs fn(i, arg) for i in [0, n) on the device's executors and the calling
 * thread, returning when all have finished: the blocks of a kernel launch.
 * Returns the first nonzero value an fn returned (all blocks still run). */
int acl__device_parallel_for(acl__device *d, uint32_t n, int (*fn)(uint32_t i, void *arg), void *arg);

/* ---- devices ------------------------------------------------------------ */

/* Streams and events one device holds at most (aclrtGetStreamAvailableNum,
 * aclrtGetEventAvailNum): the event count is the vendor's (Atlas A2/A3); the
 * stream count is larger than a card's, because a stream here costs only a
 * small struct. */
#define ACL__MAX_STREAMS 32768
#define ACL__MAX_EVENTS 65536
/* Notifies (both kinds) per device: an Atlas A2 / A3 card has 8192 (reference ipc-vmm-graphs-tdt §3.2). */
#define ACL__MAX_NOTIFIES 8192

struct acl__device {
  int32_t id;                  /* user (visible) id */
  int32_t phys_id;
  int32_t logic_id;            /* its ASCEND_RT_VISIBLE_DEVICES entry (= id when unset) */
  const acl__backend_ops *ops;
  acl__backend_dev *bdev;      /* NULL while not open */
  acl__device_props props;
  pthread_mutex_t lock;        /* guards everything below but the scheduler */
  int set_count;               /* aclrtSetDevice calls not yet reset */
  int user_contexts;           /* live contexts made by aclrtCreateContext */
  acl__context *user_ctx_list; /* those contexts, linked by dev_next */
  int open;
  acl__context *default_ctx;   /* NULL until first use */
  /* device memory (memory.c) */
  void *mem_base;
  struct acl__mem_space *mem;
  /* peer access: bit i = access to device i enabled */
  uint64_t peer_mask;
  /* stream and event ids (stream.c, event.c): bitmaps of the ids in use, lock-free */
  _Atomic uint64_t stream_ids[ACL__MAX_STREAMS / 64];
  _Atomic uint64_t event_ids[ACL__MAX_EVENTS / 64];
  atomic_int streams_live, events_live;
  atomic_uint ex_event_ids;       /* Ex events: ids above ACL__MAX_EVENTS, not limited */
  _Atomic uint64_t notify_ids[ACL__MAX_NOTIFIES / 64]; /* notifies and count notifies (notify.c) */
  atomic_int task_abort;          /* aclrtDeviceTaskAbort in progress (task_abort.c) */
  /* scheduler (executor.c) */
  pthread_mutex_t sched_lock;
  pthread_cond_t sched_cond;
  struct acl__sched *sched;
  /* ---- devices: limits, faults, statistics (rt-breadth §3, §4) ----
   * Atomics: read and written by any thread without the device lock. */
  _Atomic uint32_t res_limit[2];  /* aclrtSetDeviceResLimit by aclrtDevResLimitType; 0 = not set
                                     (the hardware count applies); kept until aclFinalize */
  atomic_int overflow;            /* overflow.c: a task of a stream with the overflow switch on raised
                                     a float exception; cleared by aclrtResetOverflowStatus and at close */
  atomic_int fault;               /* exception.c: aclrtErrorType of the latest failed task since the
                                     device opened (ACL_RT_NO_ERROR: none) */
  struct acl__devstat *stat;      /* device_query.c: executor CPU clocks for utilisation; made at open */
};

/* The device with user id `id`, or NULL after recording ACL_ERROR_RT_INVALID_DEVICEID
 * for `api` (message quotes the visibility variables when they are the cause). */
acl__device *acl__device_get(const char *api, int32_t id, int *rc);
/* Makes sure the device is open (backend, memory, executors, default
 * context).  Device lock must NOT be held.  0 or an error (recorded). */
int acl__device_ensure_open(const char *api, acl__device *d);
/* Runs `fn` with device-memory access enabled on the calling thread. */
void acl__device_access_begin(acl__device *d);
void acl__device_access_end(acl__device *d);
int acl__device_count(void);

/* ---- contexts ----------------------------------------------------------- */

struct acl__context {
  acl__device *dev;
  acl__context *dev_next;        /* device's user-context list (device lock) */
  int is_default;
  acl__stream *default_stream;
  pthread_mutex_t lock;          /* guards the lists */
  acl__stream *streams;          /* user streams, linked by ctx_next */
  acl__stream *orphans;          /* streams destroyed by force whose running task had not
                                    ended (stream.c), linked by ctx_next */
  acl__event *events;            /* linked by ctx_next */
  /* aclrtCtxSetSysParamOpt values by aclSysParamOpt (src/rt/params.c); bit i of
   * sysparam_set: option i was set.  Atomics: any thread, no lock. */
  _Atomic int64_t sysparam[4];
  atomic_uint sysparam_set;
};

/* The calling thread's current context; NULL after recording
 * ACL_ERROR_RT_CONTEXT_NULL for `api` ("call aclrtSetDevice or
 * aclrtSetCurrentContext first").  Applies acl.json defaultDevice. */
acl__context *acl__context_current(const char *api, int *rc);
/* Same, without recording anything: NULL when the thread has none. */
acl__context *acl__context_peek(void);

/* Resolves a stream argument: NULL = the current context's default stream.
 * Checks the handle and that it belongs to the current context (107003).
 * NULL after recording the failure; *rc holds the code. */
acl__stream *acl__stream_resolve(const char *api, aclrtStream stream, int *rc);

/* ---- streams and events (stream.c, event.c) ---------------------------- */

struct acl__stream {
  acl__context *ctx;
  acl__device *dev;                 /* ctx->dev, kept here: a stream destroyed by force may
                                       outlive its context's struct by a task (stream.c) */
  acl__stream *ctx_next, *ctx_prev; /* the context's user-stream list, or its list of streams
                                       destroyed by force that still run a task (context lock) */
  int in_ctx_list;                  /* context lock */
  uint32_t priority;            /* 0 (highest) .. 7; written with the lock held (ready lists) */
  uint32_t flags;
  int is_default;
  int32_t id;                   /* per device, reused after destroy (stream.c) */
  uint64_t failure_mode;        /* ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE */
  pthread_mutex_t lock;         /* guards the queue and state below */
  pthread_cond_t idle_cond;     /* signalled when the queue drains, a task fails, or the
                                   stream is stopped or aborted */
  acl__task *head, *tail;       /* tasks not yet run; head may be running */
  acl__task *batch_last;        /* while RUNNING: the last task of the batch being run
                                   without the lock (head..batch_last belong to the runner) */
  uint64_t submitted;           /* seq of the last submitted task */
  uint64_t completed;           /* seq of the last finished task */
  int state;                    /* executor.c: idle / ready / running / parked / stopped */
  int wakeups;                  /* unparks that arrived before the park */
  int error;                    /* first unreported task error (aclError) */
  char error_msg[256];
  int destroying;
  /* Control (aclrtStreamStop / aclrtStreamAbort / aclrtDestroyStreamForce).  Written
   * with the lock held; the runner reads them between tasks without it. */
  atomic_int stopped;           /* aclrtStreamStop: run nothing more until aborted */
  _Atomic uint64_t drop_upto;   /* tasks with seq <= this that have not started are
                                   discarded unrun (abort, destroy by force) ... */
  _Atomic uint64_t keep_seq;    /* ... except this one (destroy by force: the head task the
                                   card would already be running) */
  _Atomic uint64_t cut_upto;    /* a kernel of seq <= this that is running skips its
                                   remaining blocks (stop, abort) ... */
  atomic_int cut_code;          /* ... and fails with this code */
  uint64_t abort_gen;           /* bumped by each abort: synchronisations in progress end */
  int orphan;                   /* destroyed by force while a task still ran: freed by the
                                   context (stream.c) once `dead` */
  int dead;                     /* orphan with nothing left: only the memory remains */
  atomic_int sched_refs;        /* executors that took the stream off the ready list and have
                                   not yet let go of it: destroy waits for 0 */
  int waiters;                  /* threads waiting on idle_cond */
  int users;                    /* threads inside a synchronisation of the stream */
  acl__stream *sched_next;      /* scheduler ready list link (sched_lock) */
  /* callbacks (callback.c): the subscribed report thread, 0 = none */
  uint64_t report_thread;
  /* aclrtSetStreamAttribute values kept for aclrtGetStreamAttribute (lock) */
  uint32_t overflow_switch, user_tag, cache_op_info;
  /* aclrtCreateStreamV2: model work memory the user manages (NULL/0: none) */
  void *work_ptr;
  size_t work_size;
  /* aclmdlRICaptureBegin..End (graph.c): tasks submitted go to the capture, not the queue (lock) */
  struct acl__capture *capture;
};

/* Waits until every task submitted so far has finished, or timeout_ms
 * (-1 = forever, 0 = just look).  Returns 0, the stream's pending task error
 * (then cleared), or ACL_ERROR_RT_STREAM_SYNC_TIMEOUT; a failure is recorded
 * for aclGetRecentErrMsg as a failure of `api`.  The calling thread may run
 * queued tasks of the stream itself while it waits. */
int acl__stream_sync_api(const char *api, acl__stream *s, int32_t timeout_ms);
#define acl__stream_sync(s, timeout_ms) acl__stream_sync_api(__func__, (s), (timeout_ms))

/* ---- events (event.c) ----------------------------------------------------- */

struct acl__event {
  acl__context *ctx;
  acl__event *ctx_next;
  uint32_t flags;
  int ex;                       /* made by aclrtCreateEventExWithFlag */
  uint32_t id;                  /* aclrtGetEventId: per device (event.c) */
  acl__device *dev;             /* the device the id belongs to */
  atomic_int flavour;           /* aclrtRecordEventWithFlag / ...WaitEventWithFlag: the first
                                   flag used (0 none, 1 DEFAULT, 2 EXTERNAL) sticks */
  pthread_mutex_t lock;         /* guards the fields below */
  pthread_cond_t cond;          /* broadcast when a record completes */
  int refs;                     /* the handle + one per queued task using it */
  uint64_t recorded;            /* records submitted */
  uint64_t done;                /* highest record executed */
  int signaled;                 /* the latest executed record came after the latest reset */
  uint64_t ts_ns;               /* device time of the latest executed record */
  acl__stream *last_stream;     /* where the latest record was queued, and its */
  uint64_t last_stream_seq;     /* task's position there: a synchronising thread helps it along */
  int host_waiters;
  struct acl__event_waiter *waiters;  /* streams parked until done >= target */
  uint32_t graph_ri;            /* the latest record was captured: into aclmdlRI graph_ri - 1 (written
                                   under the lock, atomically: read without it as a hint) ... */
  uint32_t graph_edge;          /* ... as its internal edge graph_edge (graph_capture.c); 0: not */
  /* IPC events (ACL_EVENT_IPC) once exported or opened: recorded and done
   * live in a shared signal of the host-wide registry (event.c) */
  struct acl__ds_sig *ipc;
  int32_t ipc_index;
  int ipc_opened;               /* made by aclrtIpcOpenEventHandle */
  int ipc_lost;                 /* every other process bound to it ended: waits fail */
  atomic_int ipc_pending;       /* records queued in this process that have not run */
  char ipc_key[65];
  struct acl__ipcsig_watcher *ipc_watch;
};

/* ---- runtime lifetime (device.c) ------------------------------------------ */

/* aclInit's resource-manager stage: the device table from discovery.  No
 * device is opened.  default_device is acl.json's defaultDevice (-1: none).
 * 0 or ACL_ERROR_BAD_ALLOC. */
int acl__rt_init(const acl__hal_info *hal, int32_t default_device);
/* aclFinalize: resets every device still set (bounded wait for in-flight
 * work), logs what leaked, frees the device table. */
void acl__rt_shutdown(void);
/* fork child: forgets every device without touching executor threads (they
 * do not exist in the child). */
void acl__rt_atfork_child(void);

#endif
