/*
 * hccl_int.h - libhccl.so's internal objects: communicators, the groups of
 * ranks one process holds of a communicator, collective operations and the
 * progress engine that moves their messages.
 *
 * Shape (docs/distributed.md has the long form):
 *   comm    one HcclComm handle: one rank of a communicator, driven by the
 *           thread that set its device.
 *   group   what the ranks of one communicator living in this process
 *           share: the rank -> process map, the MPI communicator joining the
 *           processes (MPI_COMM_NULL when every rank is here), the mailboxes
 *           of the ranks that talk through host memory.
 *   op      one collective call: a stream task (openacl/stream_task.h) that
 *           copies what it must from device memory into host staging
 *           memory, posts its messages, and either sees them done at once
 *           (the task's fast path, all peers in other processes) or hands
 *           them to the progress engine and parks its stream; then it
 *           computes the result into device memory.
 *   msg     one point-to-point transfer of an op: to or from a rank of this
 *           process (matched in the group's mailbox) or of another process
 *           (MPI_Isend / MPI_Irecv on the group's MPI communicator), from or
 *           into staging memory or, where the memory protection allows it,
 *           device memory itself (through openaclDevicePtr's addresses); a
 *           large one from device memory to a process on this host goes as
 *           a description the receiver copies the data by, out of its
 *           mapping of the sender's device memory (transport_shm.c).
 * Every collective is one or two sets of messages between ranks, each posted
 * at once, with reductions in rank order, so every rank gets the same bits.
 *
 * Threads: the application's (API calls, communicator init), the device
 * executors (op task functions: staging, results, and the messages of ops
 * whose peers are all in other processes for up to HCCL__TRY_NS), one
 * progress thread per process (progress.c: posts, matches and tests
 * messages, enforces HCCL_EXEC_TIMEOUT, wakes the tasks).  Task functions
 * touch device memory (with access enabled); the progress thread and MPI
 * touch staging memory, and device memory only through openaclDevicePtr's
 * addresses when no protection keys guard it (op->direct).
 *
 * Lock order (outer first):
 *   registry lock (comm.c: the live communicators and the groups by id)
 *   -> group lock (hccl__group.lock: rendezvous state, mailboxes)
 *   -> engine lock (progress.c: the queue of new ops)
 *   -> op lock (hccl__op.lock: state, error, task pointer)
 *   The group lock is also taken alone by whoever drives an op, for the
 *   same-host mappings and refusals (transport_shm.c).
 *   MPI calls are made with no lock held but hccl__mpi_lock (transport_mpi.c),
 *   which is taken only when MPI gives less than MPI_THREAD_MULTIPLE.
 */
#ifndef OPENACL_HCCL_INT_H
#define OPENACL_HCCL_INT_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "hccl/hccl.h"
#include "openacl/stream_task.h"

#define HCCL__COMM_MAGIC 0x48434f4du /* "HCOM" */
#define HCCL__NAME_MAX COMM_NAME_MAX_LENGTH

/* ---- errors (hccl_api.c) --------------------------------------------------- */

/* Records "<api> failed: ... HCCL_E_x (n): <detail>" for aclGetRecentErrMsg
 * and returns code. */
HcclResult hccl__fail(const char *api, HcclResult code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *hccl__result_name(HcclResult code);

/* ---- environment (hccl_api.c) ------------------------------------------------ */

/* HCCL_EXEC_TIMEOUT in seconds (0 = never), HCCL_CONNECT_TIMEOUT in seconds. */
int hccl__env_exec_timeout(void);
int hccl__env_connect_timeout(void);
/* OPENACL_HCCL_ZERO_COPY: 1 (default) lets messages use device memory itself where the memory protection
 * allows it, 0 stages every message through host memory. */
int hccl__env_zero_copy(void);
/* OPENACL_HCCL_PEER_MEMORY: 1 (default) lets a rank read the device memory of
 * a rank in another process on this host directly (transport_shm.c), 0
 * moves every byte through MPI. */
int hccl__env_peer_memory(void);
uint64_t hccl__now_ns(void);

/* ---- data types and reductions (reduce.c) ----------------------------------- */

/* Element size, 0 for a type HCCL does not know. */
size_t hccl__dtype_size(HcclDataType t);
const char *hccl__dtype_name(HcclDataType t);
const char *hccl__op_name(HcclReduceOp op);
/* Checks in the vendor's order: 0, HCCL_E_NOT_SUPPORT (recorded for api). */
HcclResult hccl__check_dtype(const char *api, HcclDataType t, int reducing);
HcclResult hccl__check_reduce(const char *api, HcclDataType t, HcclReduceOp op);
/* acc[i] = acc[i] op in[i], for n elements. */
void hccl__reduce(void *acc, const void *in, uint64_t n, HcclDataType t, HcclReduceOp op);

/* ---- copies (copy.c) -------------------------------------------------------- */

/* memcpy of non-overlapping [src, src + n) to dst for a block nothing reads
 * soon: from HCCL__COPY_STREAM_MIN bytes, around the caches where the CPU
 * can. */
#define HCCL__COPY_STREAM_MIN ((size_t)4 << 20)
void hccl__copy_large(void *dst, const void *src, size_t n);

/* ---- root info (rootinfo.c) ------------------------------------------------ */

/* What HcclRootInfo carries (the rest of its 4108 bytes are zero). */
typedef struct hccl__rootinfo {
  uint32_t magic;           /* HCCL__ROOTINFO_MAGIC */
  uint32_t version;
  uint64_t id;              /* unique: names the communicator and keys the rendezvous */
  int32_t root_world;       /* MPI_COMM_WORLD rank of the root process, -1: no MPI job */
  int32_t root_pid;
  int32_t root_device;      /* the root's device when it made the info */
  uint32_t reserved;
  uint64_t root_start;      /* the root process's start time: with the pid, names the process */
  char host[64];            /* the root's host name */
  char name[HCCL__NAME_MAX]; /* default communicator name: "<host>%<pid>_<device>_<id>" */
} hccl__rootinfo;

#define HCCL__ROOTINFO_MAGIC 0x4f41484bu /* "KHAO" */
#define HCCL__ROOTINFO_VERSION 1u

/* 0, or HCCL_E_PARA recorded for api when the bytes are no root info. */
HcclResult hccl__rootinfo_read(const char *api, const HcclRootInfo *ri, hccl__rootinfo *out);
/* 1 when the root info was made by this very process. */
int hccl__rootinfo_is_self(const hccl__rootinfo *ri);
uint64_t hccl__unique_id(void);
/* Fills a root info naming this process as the root (rank tables and
 * sub-communicators make theirs without HcclGetRootInfo); name NULL: the
 * default name. */
void hccl__rootinfo_fill(hccl__rootinfo *ri, uint64_t id, int32_t root_world, int32_t dev, const char *name);

/* ---- MPI (transport_mpi.c) ---------------------------------------------------- */

/* Whether this process takes part in an MPI job: MPI initialised already, or
 * launched by mpirun.  Initialises MPI (MPI_THREAD_MULTIPLE) when launched
 * but not initialised; never finalises an MPI the application owns.
 * *world_rank / *world_size: -1 / 0 when not in a job.  With init 0 and MPI
 * not initialised, the launcher's rank and size are reported (from its
 * environment) without initialising.  0 or a recorded error. */
HcclResult hccl__mpi_ensure(const char *api, int init, int *world_rank, int *world_size);
/* 0 once MPI is being finalised (our exit handler or the application's
 * MPI_Finalize): MPI calls then block in hccl__mpi_lock forever. */
int hccl__mpi_alive(void);
void hccl__mpi_lock(void);
void hccl__mpi_unlock(void);
/* Tags for the rendezvous on MPI_COMM_WORLD, from a communicator id. */
int hccl__mpi_tag(uint64_t id, int which);
/* Waits for req until the deadline (hccl__now_ns clock), testing.  0 done,
 * 1 timed out and cancelled (the buffer is free again), 2 timed out and MPI
 * keeps the buffer (the caller must leak it), -1 MPI error. */
int hccl__mpi_wait(MPI_Request *req, uint64_t deadline_ns);

/* ---- groups (group.c) ------------------------------------------------------------ */

/* 1 between HcclGroupStart and the matching HcclGroupEnd on this thread. */
int hccl__group_active(void);
/* Keeps a checked send or receive for HcclGroupEnd. */
HcclResult hccl__group_add(const char *api, HcclComm comm, aclrtStream stream, HcclSendRecvType type, void *buf,
                           uint64_t count, HcclDataType dtype, uint32_t peer);

/* ---- communicators (comm.c) -------------------------------------------------- */

typedef struct hccl__comm hccl__comm;
typedef struct hccl__group hccl__group;
typedef struct hccl__op hccl__op;
typedef struct hccl__msg hccl__msg;

struct hccl__group {
  uint64_t id;
  uint32_t nranks;
  hccl__group *next;          /* the registry's list (registry lock) */
  pthread_mutex_t lock;       /* guards the fields below but the constants after init */
  pthread_cond_t cond;        /* rendezvous progress */
  int refs;                   /* comms of this process + ops still referring to it */
  hccl__comm **members;       /* [nranks]: this process's comms by rank, NULL for others */
  uint32_t local_joined;      /* members set so far */
  int collector;              /* a thread of the root process collects the joins */
  int mapped;                 /* world[] complete */
  int ready;                  /* MPI communicator made (or not needed) */
  int failed;                 /* rendezvous failed: the waiting members give up */
  /* constants once ready: */
  int mpi_mode;               /* 1: ranks may be in other processes */
  int32_t *world;             /* [nranks]: MPI_COMM_WORLD rank of each rank's process, -1 local mode */
  int32_t *proc;              /* [nranks]: rank in `mpi` of each rank's process, -1 for this one */
  int my_world;
  MPI_Comm mpi;               /* MPI_COMM_NULL when all ranks are in this process */
  MPI_Comm ack;               /* a duplicate of mpi for same-host transfers' replies (transport_shm.c) */
  int mpi_broken;             /* an MPI request could not be finished: never free `mpi` */
  /* mailboxes (group lock): unmatched sends and receives by (src, dst) */
  hccl__msg **box_send, **box_recv; /* [nranks * nranks] FIFO heads */
  /* same-host transfers (transport_shm.c), group lock: */
  struct hccl__peermap *peermaps; /* peers' device memory mapped here, kept until the group is freed */
  uint8_t *shm_refused;           /* [nranks]: the peer could not map this process's memory: plain MPI */
};

struct hccl__comm {
  uint32_t magic;
  hccl__comm *next;            /* live list (registry lock) */
  hccl__group *g;
  uint32_t rank, nranks;
  int32_t device;
  char name[HCCL__NAME_MAX];
  int exec_timeout_s;          /* 0: wait forever */
  int sub;                     /* made by HcclCreateSubCommConfig (no further split) */
  atomic_int inflight;         /* ops queued and not yet released */
  atomic_int async_error;      /* HcclResult of the first failed op */
  atomic_int status;           /* HcclCommStatus */
  atomic_int direct;           /* messages use device memory itself: 0 not known yet, 1 yes, 2 no (op.c) */
  int peer_memory;             /* OPENACL_HCCL_PEER_MEMORY: same-host transfers allowed (transport_shm.c) */
  /* One staging buffer kept between operations (op.c): a fresh one each
   * time costs page faults and unmaps that cost more than the copy. */
  pthread_mutex_t stage_lock;  /* guards the two below */
  void *stage_cache;
  size_t stage_cache_bytes;
  /* [2 * nranks]: messages sent to / received from each peer so far (the
   * launching thread): the k-th send from a to b is the k-th receive of b
   * from a, which names a same-host transfer's replies (transport_shm.c) */
  uint32_t *seq;
};

/* The comm behind a handle, NULL (recorded HCCL_E_PTR / HCCL_E_PARA) when it is none. */
hccl__comm *hccl__comm_get(const char *api, HcclComm h, HcclResult *rc);
/* Creates rank `rank` of the communicator `ri` describes, on the calling
 * thread's current device, waiting for the other ranks (HCCL_CONNECT_TIMEOUT). */
HcclResult hccl__comm_init(const char *api, uint32_t nranks, const hccl__rootinfo *ri, uint32_t rank,
                           const HcclCommConfig *cfg, hccl__comm **out);
HcclResult hccl__comm_init_all(const char *api, uint32_t ndev, const int32_t *devices, HcclComm *comms);
HcclResult hccl__comm_destroy(const char *api, hccl__comm *c);
hccl__comm *hccl__comm_find_name(const char *name);
/* Reads a config into the comm (name, exec timeout) and checks it. */
HcclResult hccl__config_apply(const char *api, const HcclCommConfig *cfg, char *name, int *exec_timeout);
void hccl__group_unref(hccl__group *g);

/* ---- operations (ops.c, progress.c) ------------------------------------------- */

enum { HCCL__OP_NEW = 0, HCCL__OP_POSTED, HCCL__OP_DONE };

/* What a same-host send posts in place of its data (transport_shm.c). */
typedef struct hccl__shm_desc {
  uint64_t magic;
  uint64_t host;               /* the sender's machine and boot */
  int32_t pid, fd;             /* the object behind the sender's device memory: /proc/<pid>/fd/<fd> */
  uint64_t inode, obj_size, offset, bytes;
} hccl__shm_desc;

struct hccl__msg {
  hccl__msg *next;             /* mailbox FIFO (group lock) */
  hccl__op *op;
  int send;                    /* 1 send, 0 receive */
  uint32_t peer;               /* the other rank */
  void *buf;                   /* the data: op->stage + off, or the runtime's address of dev, once the task runs */
  size_t off;
  void *dev;                   /* device memory the message may use directly (op->direct), else NULL */
  size_t bytes;
  int local;                   /* peer in this process: mailbox */
  int done;                    /* progress thread (local: group lock) */
  int posted;                  /* MPI request live */
  MPI_Request req;
  /* same-host transfers (transport_shm.c) */
  uint32_t seq;                /* the message's number between this rank and the peer, this direction */
  int shm;                     /* 0 plain; 1 the description went / came instead of the data; 2 the data
                                  follows on the group's ack communicator (the receiver could not map) */
  int posted2;                 /* req2 live: a send's reply, or a receive's reply being sent */
  MPI_Request req2;
  int32_t reply;               /* 0 the receiver copied the data, 1 it asks for the data by MPI */
  hccl__shm_desc desc;         /* a send's description while it travels */
  uint32_t red_block;          /* a receive of reduction block k - 1 (0: none): it may be held (below) */
  const void *held;            /* a held receive: the data, read in place from the sender's device memory by
                                  the reduction, which then replies (shm 3) */
};

/* The largest message handed to MPI at once (its counts are ints). */
#define HCCL__MSG_MAX ((size_t)1 << 30)

struct hccl__op {
  hccl__comm *comm;
  hccl__group *g;
  const char *api;             /* "HcclAllReduce" */
  pthread_mutex_t lock;        /* guards state, error, errwhat, task */
  int state;
  int error;                   /* aclError the task returns */
  char errwhat[64];
  openaclStreamTask *task;     /* NULL once released */
  int refs;                    /* the task + the engine (op lock) */
  /* set by the builder, read by the task and the engine */
  hccl__msg *msgs;             /* phase 0 ones first */
  uint32_t nmsgs, msgs_cap;
  uint32_t nphase0;            /* messages of phase 0 (nmsgs: one phase) */
  int phase;                   /* whoever drives the op: the phase posted */
  int plan_failed;             /* a message could not be planned (out of memory) */
  uint64_t deadline_ns;        /* engine: 0 = none */
  hccl__op *eng_next;          /* engine lists (engine lock / progress thread) */
  uint32_t pending;            /* progress thread: messages not done */
  int zombie;                  /* timed out with MPI requests that would not cancel */
  int settled;                 /* the task's thread: no longer counted in comm->inflight */
  int direct;                  /* messages with dev use it: no copy through staging for them */
  int remote_only;             /* every message goes through MPI: the task may drive them (hccl__engine_try) */
  int posted_by_task;          /* the task posted the messages (hccl__engine_try) */
  int red_early;               /* receives may be held: the reduction runs once the phase's receives are
                                  done, whoever drives the op, and releases them (transport_shm.c) */
  /* what the reduction computes */
  HcclDataType dtype;
  HcclReduceOp redop;
  void *stage;                 /* host staging: layout is the op's */
  size_t stage_bytes;          /* what the op uses of it */
  size_t stage_cap;            /* its allocated size */
  void *extra;                 /* the plan (hccl_ops.h) */
};

/* Allocates an op of `nmsgs` messages and `stage` staging bytes. */
hccl__op *hccl__op_new(hccl__comm *c, const char *api, uint32_t nmsgs, size_t stage);
void hccl__op_unref(hccl__op *op);
/* Queues the op on the stream as a task: HCCL_SUCCESS, or the error
 * (recorded) after which the op is gone. */
HcclResult hccl__op_launch(hccl__op *op, aclrtStream stream);
/* Progress engine: takes the op's messages (task function, first run). */
void hccl__engine_post(hccl__op *op);
/* The task function's fast path for an op whose peers are all in other
 * processes: posts its messages from the calling thread and drives them
 * for up to HCCL__TRY_NS.  1: the op is done (its task finishes it now);
 * 0: handed to the engine with its messages posted (the task parks). */
int hccl__engine_try(hccl__op *op);
/* How long a task drives its own messages before it parks: long enough for a
 * small or medium operation whose peers are there, short enough that a stream
 * waiting on something else of this process parks soon (the executor is
 * free again, and no wait depends on a spinning task). */
#define HCCL__TRY_NS 300000u
/* Between the phases of a two-phase op (the engine or the task, whoever
 * drives it): the reduction of phase 0's blocks (op.c). */
void hccl__op_step(hccl__op *op);
/* The op's reduction, once (op.c): block k read in place from a held
 * receive's data where there is one, which it then releases. */
void hccl__op_reduce(hccl__op *op);
/* The driver's check after testing: runs the reduction of an op with
 * red_early once every receive of its reducing phase is done. */
void hccl__op_reduce_early(hccl__op *op);

#endif
