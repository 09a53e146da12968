/*
 * shmq.c - queues in shared memory; shmq.h describes the object and its
 * rules.  This file holds the shared layout, the process's list of the
 * queues it has open, creation / attachment / destruction, and put / take
 * with timeouts and dead-peer detection.
 *
 * Locks: list_lock (this process's list: entries, refs) -> one queue's
 * shared `lock` (robust, process-shared: a process that dies holding it
 * hands it to the next locker, which marks it consistent; the ring's
 * positions are only advanced after an element is complete, so a half
 * written or half read element is never seen).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/errmsg.h"
#include "tdt/shmq.h"
#include "tdt/tdt.h"

#define SHMQ_MAGIC 0x51544454u /* "TDTQ" */
#define SHMQ_VERSION 1u
#define SHMQ_PROCS 64
#define SHMQ_ROUTES 32
#define SHMQ_MAX_QID 65536u
#define SHMQ_HDR_BYTES 16384u
#define SHMQ_REC 64u
#define SHMQ_SEG 128u
#define SHMQ_PAD_MARK 0xffffffffu
#define SHMQ_SLICE_MS 100
#define SHMQ_DEFAULT_MB 64

typedef struct shmq_proc {
  int32_t pid;          /* 0 = free slot */
  uint32_t perm;        /* ACL_TDT_QUEUE_PERMISSION_* bits granted */
  uint32_t attached;    /* the process opened the queue (creator, or attach) */
  uint32_t pad;
  uint64_t start;       /* its start time (/proc/<pid>/stat), against pid reuse */
} shmq_proc;

typedef struct shmq_hdr {
  _Atomic uint32_t magic; /* written last by the creator */
  uint32_t version, qid, depth, uid;
  int32_t creator;
  char name[ACL__TDT_NAME_MAX];
  uint64_t cap;           /* bytes of the ring */
  pthread_mutex_t lock;   /* guards everything below */
  pthread_cond_t not_empty, not_full;
  uint64_t wpos, rpos;    /* ring positions in bytes, growing */
  uint32_t count;         /* elements queued */
  uint32_t destroyed;     /* acltdtDestroyQueue (or the creator's exit) */
  uint32_t dead_seen;     /* a process that used the queue died without closing it */
  uint32_t nroutes;
  uint32_t routes[SHMQ_ROUTES]; /* forward destinations */
  shmq_proc procs[SHMQ_PROCS];
} shmq_hdr;

_Static_assert(sizeof(shmq_hdr) <= SHMQ_HDR_BYTES, "the queue header fits its page");

typedef struct shmq_rec {
  uint64_t bytes; /* the record, header included (a multiple of 64) */
  uint32_t nseg;  /* SHMQ_PAD_MARK: padding to the ring's end */
  uint32_t pad;
  unsigned char rest[48];
} shmq_rec;

typedef struct shmq_segd {
  uint64_t len;
  uint32_t user_len, pad;
  unsigned char user[ACL__SHMQ_USER_BYTES];
  unsigned char rest[16];
} shmq_segd;

_Static_assert(sizeof(shmq_rec) == SHMQ_REC && sizeof(shmq_segd) == SHMQ_SEG, "record layout");

struct acl__shmq {
  uint32_t qid;
  shmq_hdr *h;
  size_t len;
  int created;   /* this process made it */
  int internal;  /* opened for route forwarding only */
  uint32_t perm;
  pid_t owner;   /* the process that opened it (a forked child must attach again) */
  int refs;      /* list_lock: the list's own + users' */
  int closed;    /* list_lock: removed from the list */
  acl__shmq *next;
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static acl__shmq *list;  /* list_lock */
static int scanned;      /* list_lock: stale queues were looked for */

/* ---- names, processes ---------------------------------------------------- */

static void shm_name(char *buf, size_t n, uint32_t qid) {
  snprintf(buf, n, "/openacl-tdtq-u%u-%u", (unsigned)getuid(), qid);
}

/* Start time of pid (clock ticks since boot), 0 when unknown; *zombie = 1
 * for a process that has exited but was not reaped. */
static uint64_t proc_start(pid_t pid, int *zombie) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  *zombie = 0;
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (p == NULL)
    return 0;
  p += 2; /* field 3: state */
  *zombie = *p == 'Z' || *p == 'X';
  unsigned long long v = 0;
  for (int field = 3; field < 22 && p != NULL; field++) {
    p = strchr(p, ' ');
    if (p != NULL)
      p++;
  }
  if (p != NULL)
    v = strtoull(p, NULL, 10);
  return v;
}

static int proc_alive(pid_t pid, uint64_t start) {
  int zombie = 0;
  if (kill(pid, 0) != 0 && errno == ESRCH)
    return 0;
  uint64_t now = proc_start(pid, &zombie);
  if (zombie)
    return 0;
  return start == 0 || now == 0 || now == start;
}

static void lock_q(shmq_hdr *h) {
  if (pthread_mutex_lock(&h->lock) == EOWNERDEAD)
    pthread_mutex_consistent(&h->lock);
}

/* Drops the entries of dead processes; 1 when some other process used the
 * queue, died without closing it, and no other user is left.  Locked. */
static int peers_dead_locked(shmq_hdr *h) {
  pid_t self = getpid();
  int alive = 0;
  for (int i = 0; i < SHMQ_PROCS; i++) {
    shmq_proc *p = &h->procs[i];
    if (p->pid == 0 || p->pid == self || !p->attached)
      continue;
    if (proc_alive(p->pid, p->start)) {
      alive = 1;
    } else {
      h->dead_seen = 1;
      memset(p, 0, sizeof *p);
    }
  }
  return h->dead_seen && !alive;
}

/* 1 when no process that opened the queue is alive.  Locked. */
static int all_dead_locked(shmq_hdr *h) {
  for (int i = 0; i < SHMQ_PROCS; i++)
    if (h->procs[i].pid != 0 && h->procs[i].attached && proc_alive(h->procs[i].pid, h->procs[i].start))
      return 0;
  return 1;
}

static shmq_proc *proc_slot_locked(shmq_hdr *h, pid_t pid, int make) {
  for (int i = 0; i < SHMQ_PROCS; i++)
    if (h->procs[i].pid == pid)
      return &h->procs[i];
  if (make)
    for (int i = 0; i < SHMQ_PROCS; i++)
      if (h->procs[i].pid == 0) {
        memset(&h->procs[i], 0, sizeof h->procs[i]);
        h->procs[i].pid = pid;
        return &h->procs[i];
      }
  return NULL;
}

/* ---- mapping ------------------------------------------------------------- */

/* Maps an existing queue object; NULL when absent, not ours, or not ready. */
static shmq_hdr *map_existing(uint32_t qid, size_t *len) {
  char name[64];
  shm_name(name, sizeof name, qid);
  int fd = shm_open(name, O_RDWR, 0600);
  if (fd < 0)
    return NULL;
  struct stat st;
  shmq_hdr *h = NULL;
  if (fstat(fd, &st) == 0 && st.st_uid == getuid() && (size_t)st.st_size > SHMQ_HDR_BYTES) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) {
      h = m;
      if (atomic_load_explicit(&h->magic, memory_order_acquire) != SHMQ_MAGIC || h->version != SHMQ_VERSION ||
          h->qid != qid || SHMQ_HDR_BYTES + h->cap != (uint64_t)st.st_size) {
        munmap(m, (size_t)st.st_size);
        h = NULL;
      } else {
        *len = (size_t)st.st_size;
      }
    }
  }
  close(fd);
  return h;
}

/* Removes this user's queues whose processes are all dead (kill -9 of
 * every user).  Once per process, at its first acltdtCreateQueue. */
static void reclaim_stale(void) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "openacl-tdtq-u%u-", (unsigned)getuid());
  DIR *d = opendir("/dev/shm");
  if (d == NULL)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
      continue;
    char *end = NULL;
    unsigned long qid = strtoul(e->d_name + strlen(prefix), &end, 10);
    if (end == NULL || *end != '\0' || qid >= SHMQ_MAX_QID)
      continue;
    size_t len = 0;
    shmq_hdr *h = map_existing((uint32_t)qid, &len);
    if (h == NULL)
      continue;
    lock_q(h);
    if (!h->destroyed && all_dead_locked(h)) {
      h->destroyed = 1; /* a process that opened the name before us sees it and moves on */
      char name[64];
      shm_name(name, sizeof name, (uint32_t)qid);
      shm_unlink(name);
    }
    pthread_mutex_unlock(&h->lock);
    munmap(h, len);
  }
  closedir(d);
}

static size_t ring_bytes(void) {
  const char *v = getenv("OPENACL_TDT_QUEUE_MB");
  long mb = v != NULL && *v != '\0' ? strtol(v, NULL, 10) : SHMQ_DEFAULT_MB;
  if (mb < 1 || mb > 4096)
    mb = SHMQ_DEFAULT_MB;
  return (size_t)mb << 20;
}

static acl__shmq *list_add_locked(uint32_t qid, shmq_hdr *h, size_t len, int created, int internal, uint32_t perm) {
  acl__shmq *q = calloc(1, sizeof *q);
  if (q == NULL)
    return NULL;
  q->qid = qid;
  q->h = h;
  q->len = len;
  q->created = created;
  q->internal = internal;
  q->perm = perm;
  q->owner = getpid();
  q->refs = 1;
  q->next = list;
  list = q;
  return q;
}

int acl__shmq_create(const char *api, const char *name, uint32_t depth, uint32_t *qid) {
  size_t cap = ring_bytes(), len = SHMQ_HDR_BYTES + cap;
  pthread_mutex_lock(&list_lock);
  if (!scanned) {
    reclaim_stale();
    scanned = 1;
  }
  int rc = 0, fd = -1;
  uint32_t id = 0;
  char shm[64];
  for (; id < SHMQ_MAX_QID; id++) {
    shm_name(shm, sizeof shm, id);
    fd = shm_open(shm, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0 || errno != EEXIST)
      break;
  }
  if (fd < 0) {
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                   "no queue could be made in /dev/shm (%s). Remedy: check that /dev/shm is mounted and writable, "
                   "and destroy queues no longer needed",
                   id >= SHMQ_MAX_QID ? "every queue id is in use" : strerror(errno));
    goto out;
  }
  if (fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)len) != 0) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                   "sizing the queue's %zu bytes of shared memory failed: %s. Remedy: free space in /dev/shm or "
                   "lower OPENACL_TDT_QUEUE_MB",
                   len, strerror(errno));
    goto fail_unlink;
  }
  void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) {
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "mapping the queue's %zu bytes failed: %s", len,
                   strerror(errno));
    goto fail_unlink;
  }
  shmq_hdr *h = m;
  h->version = SHMQ_VERSION;
  h->qid = id;
  h->depth = depth;
  h->uid = (uint32_t)getuid();
  h->creator = (int32_t)getpid();
  snprintf(h->name, sizeof h->name, "%s", name);
  h->cap = cap;
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&h->lock, &ma);
  pthread_mutexattr_destroy(&ma);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&h->not_empty, &ca);
  pthread_cond_init(&h->not_full, &ca);
  pthread_condattr_destroy(&ca);
  int zombie = 0;
  shmq_proc *p = &h->procs[0];
  p->pid = (int32_t)getpid();
  p->perm = ACL__SHMQ_PERM_ALL;
  p->attached = 1;
  p->start = proc_start(getpid(), &zombie);
  atomic_store_explicit(&h->magic, SHMQ_MAGIC, memory_order_release);
  if (list_add_locked(id, h, len, 1, 0, ACL__SHMQ_PERM_ALL) == NULL) {
    munmap(m, len);
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a queue");
    goto fail_unlink;
  }
  close(fd);
  *qid = id;
  goto out;
fail_unlink:
  shm_unlink(shm);
  close(fd);
out:
  pthread_mutex_unlock(&list_lock);
  return rc;
}

static acl__shmq *find_locked(uint32_t qid, int want_internal) {
  pid_t self = getpid();
  for (acl__shmq *q = list; q != NULL; q = q->next)
    if (q->qid == qid && q->owner == self && (want_internal || !q->internal))
      return q;
  return NULL;
}

static int name_exists(uint32_t qid) {
  size_t len = 0;
  shmq_hdr *h = map_existing(qid, &len);
  if (h == NULL)
    return 0;
  int live = !h->destroyed;
  munmap(h, len);
  return live;
}

int acl__shmq_exists(uint32_t qid) { return name_exists(qid); }

acl__shmq *acl__shmq_acquire(const char *api, uint32_t qid, uint32_t need_perm, int *rc) {
  pthread_mutex_lock(&list_lock);
  acl__shmq *q = find_locked(qid, 0);
  if (q != NULL && (q->perm & need_perm) == need_perm) {
    q->refs++;
    pthread_mutex_unlock(&list_lock);
    return q;
  }
  pthread_mutex_unlock(&list_lock);
  if (q != NULL)
    *rc = acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
              "this process holds permission bits 0x%x on queue %u; the call needs 0x%x (MANAGE 1, DEQUEUE 2, "
              "ENQUEUE 4). Remedy: the queue's creator grants them with acltdtGrantQueue, then call "
              "acltdtAttachQueue",
              q->perm, qid, need_perm);
  else if (name_exists(qid))
    *rc = acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
              "queue %u belongs to another process and was not attached by this one. Remedy: the creator calls "
              "acltdtGrantQueue(%u, %d, ...), then this process calls acltdtAttachQueue(%u, ...)",
              qid, qid, (int)getpid(), qid);
  else
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
              "qid %u is not a queue of this user (never created, or destroyed). Remedy: pass an id from "
              "acltdtCreateQueue",
              qid);
  return NULL;
}

acl__shmq *acl__shmq_acquire_internal(const char *api, uint32_t qid, int *rc) {
  pthread_mutex_lock(&list_lock);
  acl__shmq *q = find_locked(qid, 1);
  if (q == NULL) {
    size_t len = 0;
    shmq_hdr *h = map_existing(qid, &len);
    if (h != NULL && (q = list_add_locked(qid, h, len, 0, 1, 0)) == NULL)
      munmap(h, len);
  }
  if (q != NULL)
    q->refs++;
  pthread_mutex_unlock(&list_lock);
  if (q == NULL)
    *rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
              "queue %u does not exist (never created, or destroyed). Remedy: pass ids from acltdtCreateQueue", qid);
  return q;
}

static void unref_locked(acl__shmq *q) {
  if (--q->refs == 0) {
    munmap(q->h, q->len);
    free(q);
  }
}

void acl__shmq_release(acl__shmq *q) {
  if (q == NULL)
    return;
  pthread_mutex_lock(&list_lock);
  unref_locked(q);
  pthread_mutex_unlock(&list_lock);
}

uint32_t acl__shmq_id(const acl__shmq *q) { return q->qid; }

static void unlink_locked(acl__shmq *q) {
  for (acl__shmq **pp = &list; *pp != NULL; pp = &(*pp)->next)
    if (*pp == q) {
      *pp = q->next;
      break;
    }
  q->closed = 1;
}

/* Marks the queue destroyed, wakes its waiters and removes its name. */
static void destroy_shared(acl__shmq *q) {
  char name[64];
  lock_q(q->h);
  int already = q->h->destroyed;
  q->h->destroyed = 1;
  pthread_cond_broadcast(&q->h->not_empty);
  pthread_cond_broadcast(&q->h->not_full);
  pthread_mutex_unlock(&q->h->lock);
  if (!already) {
    shm_name(name, sizeof name, q->qid);
    shm_unlink(name);
  }
}

/* Removes this process from the queue's users. */
static void detach_shared(acl__shmq *q) {
  lock_q(q->h);
  shmq_proc *p = proc_slot_locked(q->h, getpid(), 0);
  if (p != NULL)
    memset(p, 0, sizeof *p);
  int orphan = !q->h->destroyed && all_dead_locked(q->h);
  if (orphan) /* its creator died: nobody else can remove it */
    q->h->destroyed = 1;
  pthread_mutex_unlock(&q->h->lock);
  if (orphan) {
    char name[64];
    shm_name(name, sizeof name, q->qid);
    shm_unlink(name);
  }
}

int acl__shmq_destroy(const char *api, uint32_t qid) {
  pthread_mutex_lock(&list_lock);
  acl__shmq *q = find_locked(qid, 0);
  if (q == NULL) {
    pthread_mutex_unlock(&list_lock);
    if (name_exists(qid))
      return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                       "queue %u belongs to another process and is not attached by this one. Remedy: only its "
                       "creator (or a process granted MANAGE that attached it) destroys it",
                       qid);
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "qid %u is not a queue of this user (never created, or destroyed already)", qid);
  }
  int manage = q->created || (q->perm & ACL_TDT_QUEUE_PERMISSION_MANAGE) != 0;
  if (manage) {
    lock_q(q->h);
    uint32_t nroutes = q->h->destroyed ? 0 : q->h->nroutes;
    uint32_t first = nroutes ? q->h->routes[0] : 0;
    pthread_mutex_unlock(&q->h->lock);
    if (nroutes != 0) {
      pthread_mutex_unlock(&list_lock);
      return acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                       "queue %u is the source of %u bound route%s (to queue %u%s). Remedy: unbind them with "
                       "acltdtUnbindQueueRoutes first",
                       qid, nroutes, nroutes == 1 ? "" : "s", first, nroutes > 1 ? ", ..." : "");
    }
    destroy_shared(q);
  } else {
    detach_shared(q);
  }
  unlink_locked(q);
  unref_locked(q);
  pthread_mutex_unlock(&list_lock);
  return 0;
}

/* A normal exit removes the queues this process created and leaves the
 * others'; kill -9 is handled by the survivors' waits and reclaim_stale. */
__attribute__((destructor)) static void shmq_at_exit(void) {
  pthread_mutex_lock(&list_lock);
  pid_t self = getpid();
  for (acl__shmq *q = list; q != NULL; q = q->next) {
    if (q->owner != self || q->internal)
      continue;
    if (q->created)
      destroy_shared(q);
    else
      detach_shared(q);
  }
  pthread_mutex_unlock(&list_lock);
}

int acl__shmq_destroyed(acl__shmq *q) {
  lock_q(q->h);
  int d = q->h->destroyed != 0;
  pthread_mutex_unlock(&q->h->lock);
  return d;
}

/* ---- waiting --------------------------------------------------------------- */

static int ts_before(const struct timespec *a, const struct timespec *b) {
  return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* One wait slice (at most SHMQ_SLICE_MS) on cv; then 0 to look again, or
 * -1 when the deadline passed (timeout > 0), -2 when the queue's other
 * processes died.  Locked. */
static int wait_slice(shmq_hdr *h, pthread_cond_t *cv, int32_t timeout, const struct timespec *dl) {
  struct timespec now, until;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (timeout > 0 && !ts_before(&now, dl))
    return -1;
  until = now;
  until.tv_nsec += SHMQ_SLICE_MS * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  if (timeout > 0 && ts_before(dl, &until))
    until = *dl;
  if (pthread_cond_timedwait(cv, &h->lock, &until) == EOWNERDEAD)
    pthread_mutex_consistent(&h->lock);
  if (peers_dead_locked(h))
    return -2;
  return 0;
}

static size_t align64(size_t v) { return (v + 63) & ~(size_t)63; }

int acl__shmq_put(const char *api, acl__shmq *q, const acl__shmq_seg_in *segs, uint32_t nseg, int32_t timeout,
                  int full_code) {
  struct timespec dl;
  int rc = acl__tdt_deadline(api, timeout, &dl);
  if (rc != 0)
    return rc;
  shmq_hdr *h = q->h;
  size_t data = 0;
  for (uint32_t i = 0; i < nseg; i++)
    data += align64(segs[i].len);
  size_t need = SHMQ_REC + (size_t)nseg * SHMQ_SEG + data;
  if (need > h->cap)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "the element of %zu bytes does not fit queue %u's %llu bytes of memory. Remedy: send smaller "
                     "elements, or raise OPENACL_TDT_QUEUE_MB in the process that creates the queue",
                     need, q->qid, (unsigned long long)h->cap);
  lock_q(h);
  if (h->nroutes != 0 && !h->destroyed) { /* forwarded: the element goes to each destination instead */
    uint32_t n = h->nroutes, dst[SHMQ_ROUTES];
    memcpy(dst, h->routes, n * sizeof dst[0]);
    pthread_mutex_unlock(&h->lock);
    for (uint32_t i = 0; i < n && rc == 0; i++) {
      acl__shmq *d = acl__shmq_acquire_internal(api, dst[i], &rc);
      if (d == NULL)
        return acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                         "queue %u forwards to queue %u, which no longer exists. Remedy: unbind the route", q->qid,
                         dst[i]);
      rc = acl__shmq_put(api, d, segs, nseg, timeout, full_code);
      acl__shmq_release(d);
    }
    return rc;
  }
  for (;;) {
    if (h->destroyed) {
      rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                     "queue %u was destroyed (by acltdtDestroyQueue or its creator's exit). Remedy: stop using it", q->qid);
      break;
    }
    uint64_t used = h->wpos - h->rpos;
    if (used == 0)
      h->wpos = h->rpos = 0;
    size_t at = (size_t)(h->wpos % h->cap), pad = h->cap - at < need ? h->cap - at : 0;
    if (h->count < h->depth && used + pad + need <= h->cap) {
      unsigned char *ring = (unsigned char *)h + SHMQ_HDR_BYTES;
      if (pad != 0) {
        shmq_rec *pr = (shmq_rec *)(ring + at);
        pr->bytes = pad;
        pr->nseg = SHMQ_PAD_MARK;
        at = 0;
      }
      shmq_rec *r = (shmq_rec *)(ring + at);
      shmq_segd *sd = (shmq_segd *)(ring + at + SHMQ_REC);
      unsigned char *dp = ring + at + SHMQ_REC + (size_t)nseg * SHMQ_SEG;
      for (uint32_t i = 0; i < nseg; i++) {
        memset(&sd[i], 0, sizeof sd[i]);
        sd[i].len = segs[i].len;
        sd[i].user_len = (uint32_t)segs[i].user_len;
        if (segs[i].user_len != 0)
          memcpy(sd[i].user, segs[i].user, segs[i].user_len);
        if (segs[i].len != 0)
          memcpy(dp, segs[i].data, segs[i].len);
        dp += align64(segs[i].len);
      }
      r->bytes = need;
      r->nseg = nseg;
      h->wpos += pad + need; /* committed: the element is visible from here on */
      h->count++;
      pthread_cond_signal(&h->not_empty);
      break;
    }
    int w = timeout == 0 ? -1 : wait_slice(h, &h->not_full, timeout, &dl);
    if (w == -1) {
      rc = acl__fail_polled(api, full_code, __FILE__, __LINE__,
                            "queue %u is full (%u of %u elements, %llu of %llu bytes) after %d ms. Remedy: dequeue "
                            "from it, or wait longer",
                            q->qid, h->count, h->depth, (unsigned long long)used, (unsigned long long)h->cap,
                            (int)timeout);
      break;
    }
    if (w == -2) {
      rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                     "queue %u is full and every other process that used it has died: nothing will dequeue. "
                     "Remedy: destroy the queue",
                     q->qid);
      break;
    }
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

int acl__shmq_take(const char *api, acl__shmq *q, int32_t timeout, int empty_code, acl__shmq_take_fn fn, void *ctx) {
  struct timespec dl;
  int rc = acl__tdt_deadline(api, timeout, &dl);
  if (rc != 0)
    return rc;
  shmq_hdr *h = q->h;
  lock_q(h);
  for (;;) {
    if (h->count > 0) {
      unsigned char *ring = (unsigned char *)h + SHMQ_HDR_BYTES;
      shmq_rec *r = (shmq_rec *)(ring + h->rpos % h->cap);
      if (r->nseg == SHMQ_PAD_MARK) {
        h->rpos += r->bytes;
        r = (shmq_rec *)ring;
      }
      acl__shmq_seg_out out[ACL__SHMQ_MAX_SEGS];
      uint32_t n = r->nseg <= ACL__SHMQ_MAX_SEGS ? r->nseg : ACL__SHMQ_MAX_SEGS;
      const shmq_segd *sd = (const shmq_segd *)((unsigned char *)r + SHMQ_REC);
      const unsigned char *dp = (unsigned char *)r + SHMQ_REC + (size_t)r->nseg * SHMQ_SEG;
      for (uint32_t i = 0; i < n; i++) {
        out[i].data = dp;
        out[i].len = sd[i].len;
        out[i].user = sd[i].user;
        out[i].user_len = sd[i].user_len;
        dp += align64(sd[i].len);
      }
      rc = fn(ctx, out, n);
      if (rc == 0) {
        h->rpos += r->bytes;
        h->count--;
        pthread_cond_signal(&h->not_full);
      }
      break;
    }
    if (h->destroyed) {
      rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                     "queue %u is empty and was destroyed (by acltdtDestroyQueue or its creator's exit). Remedy: "
                     "stop using it",
                     q->qid);
      break;
    }
    int w = timeout == 0 ? -1 : wait_slice(h, &h->not_empty, timeout, &dl);
    if (w == -1) {
      rc = acl__fail_polled(api, empty_code, __FILE__, __LINE__,
                            "queue %u is empty after %d ms. Remedy: enqueue into it, or wait longer", q->qid,
                            (int)timeout);
      break;
    }
    if (w == -2) {
      rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                     "queue %u is empty and every other process that used it has died: nothing will enqueue. "
                     "Remedy: destroy the queue",
                     q->qid);
      break;
    }
  }
  pthread_mutex_unlock(&h->lock);
  return rc;
}

/* ---- sharing ------------------------------------------------------------------ */

int acl__shmq_grant(const char *api, acl__shmq *q, int32_t pid, uint32_t perm) {
  int rc = 0;
  lock_q(q->h);
  shmq_proc *p = q->h->destroyed ? NULL : proc_slot_locked(q->h, pid, 1);
  if (q->h->destroyed)
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__, "queue %u was destroyed", q->qid);
  else if (p == NULL)
    rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__,
                   "queue %u already has %d processes: no room to grant pid %d. Remedy: destroy queues or share "
                   "them among fewer processes",
                   q->qid, SHMQ_PROCS, (int)pid);
  else
    p->perm |= perm;
  pthread_mutex_unlock(&q->h->lock);
  return rc;
}

int acl__shmq_attach(const char *api, uint32_t qid, int32_t timeout, uint32_t *perm) {
  struct timespec dl, now;
  int rc = acl__tdt_deadline(api, timeout, &dl);
  if (rc != 0)
    return rc;
  pthread_mutex_lock(&list_lock);
  acl__shmq *q = find_locked(qid, 0);
  if (q != NULL) { /* created or attached already */
    *perm = q->perm;
    pthread_mutex_unlock(&list_lock);
    return 0;
  }
  pthread_mutex_unlock(&list_lock);
  size_t len = 0;
  shmq_hdr *h = map_existing(qid, &len);
  if (h == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "qid %u is not a queue of this user (never created, destroyed, or its creator exited)", qid);
  pid_t self = getpid();
  uint32_t bits = 0;
  for (;;) {
    lock_q(h);
    shmq_proc *p = proc_slot_locked(h, self, 0);
    if (p != NULL && p->perm != 0 && !h->destroyed) {
      int zombie = 0;
      p->attached = 1;
      p->start = proc_start(self, &zombie);
      bits = p->perm;
    }
    int gone = h->destroyed;
    pthread_mutex_unlock(&h->lock);
    if (bits != 0 || gone)
      break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (timeout == 0 || (timeout > 0 && !ts_before(&now, &dl)))
      break;
    struct timespec nap = {0, 5 * 1000000L};
    nanosleep(&nap, NULL);
  }
  if (bits == 0) {
    munmap(h, len);
    return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                     "queue %u was not granted to this process (pid %d) within %d ms. Remedy: the creator calls "
                     "acltdtGrantQueue(%u, %d, permission, ...) first",
                     qid, (int)self, (int)timeout, qid, (int)self);
  }
  pthread_mutex_lock(&list_lock);
  q = find_locked(qid, 0);
  if (q == NULL && list_add_locked(qid, h, len, 0, 0, bits) == NULL)
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a queue view");
  else if (q != NULL) /* another thread attached meanwhile */
    munmap(h, len);
  pthread_mutex_unlock(&list_lock);
  if (rc == 0)
    *perm = bits;
  return rc;
}

/* ---- routes ------------------------------------------------------------------- */

int acl__shmq_route_add(const char *api, acl__shmq *src, uint32_t dst) {
  int rc = 0;
  lock_q(src->h);
  uint32_t i = 0;
  while (i < src->h->nroutes && src->h->routes[i] != dst)
    i++;
  if (i == src->h->nroutes) {
    if (src->h->nroutes == SHMQ_ROUTES)
      rc = acl__fail(api, ACL_ERROR_FAILURE, __FILE__, __LINE__, "queue %u already forwards to %d queues (the limit)",
                     src->qid, SHMQ_ROUTES);
    else
      src->h->routes[src->h->nroutes++] = dst;
  }
  pthread_mutex_unlock(&src->h->lock);
  return rc;
}

int acl__shmq_route_remove(acl__shmq *src, uint32_t dst) {
  int found = 0;
  lock_q(src->h);
  for (uint32_t i = 0; i < src->h->nroutes; i++)
    if (src->h->routes[i] == dst) {
      src->h->routes[i] = src->h->routes[--src->h->nroutes];
      found = 1;
      break;
    }
  pthread_mutex_unlock(&src->h->lock);
  return found;
}
