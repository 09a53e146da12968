/*
 * devshare.c - the per-user, per-device registry in shared memory that lets
 * several processes use one simulated device (devshare.h,
 * docs/processes.md).
 *
 * Layout: one fixed-size struct (acl__ds_shm) in a file of /dev/shm made
 * with mode 0600 by its first user; a file another uid owns, or one others
 * may read, is refused.  Initialisation is serialised with flock on the
 * file; everything after it with the robust mutex inside.  `dead` is set,
 * under the mutex, by the last process to leave just before it unlinks the
 * name: a process that opened the old file in between sees it and opens
 * the name again.
 *
 * A process is identified by its pid and its start time (field 22 of
 * /proc/<pid>/stat), so a reused pid is not taken for the process that
 * died.
 */
#include "rt/devshare.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <linux/futex.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"

#define ACL__DS_MAGIC 0x6f61636c64657631ull /* "oacldev1" */
#define ACL__DS_VERSION 3u /* 2: shared signals; 3: and the shareable-handle table */

typedef struct acl__ds_slot {
  int32_t pid; /* 0: free */
  int32_t mem_fd;
  uint64_t start;
  _Atomic uint64_t bytes;
  _Atomic uint32_t bell; /* futex: bumped when a signal this process waits on changes */
  _Atomic uint32_t busy; /* 1 while it changes `used` and `bytes` (lock-free, acl__ds_charge) */
  uint64_t checked;      /* CLOCK_MONOTONIC ns when its start time was last read (mutex) */
  char comm[16];
} acl__ds_slot;

/* Who may import a key, a signal or a handle: with check_pid, the pids the
 * exporter listed. */
typedef struct acl__ds_wl {
  uint32_t check_pid;
  uint32_t npids;
  int32_t pids[ACL__DS_PIDS];
} acl__ds_wl;

typedef struct acl__ds_exp {
  uint32_t live;
  int32_t slot;
  uint64_t off, size;
  acl__ds_wl wl;
  uint32_t imports;
  char key[ACL__DS_KEY_LEN + 1];
} acl__ds_exp;

/* A shared signal (IPC notify or IPC event); `s` is what the processes
 * touch without the lock. */
typedef struct acl__ds_sig_ent {
  uint32_t live;
  int32_t slot;      /* the creator */
  uint32_t kind;
  acl__ds_wl wl;
  char key[ACL__DS_KEY_LEN + 1];
  acl__ds_sig s;
} acl__ds_sig_ent;

/* One shareable physical-memory handle (devshare.h). */
typedef struct acl__ds_shr {
  uint32_t live;
  int32_t owner;      /* the exporter's slot; -1 once it freed the memory or died (no new imports) */
  int32_t owner_pid;
  int32_t fd;         /* the exporter's memfd, a descriptor of the exporter */
  uint64_t ino, devno; /* that object's identity, checked after an importer opened it */
  uint64_t handle;
  uint64_t size, gran;
  uint64_t charged;   /* bytes charged for it: the exporter's while it holds them, then this entry's */
  uint32_t attr;
  acl__ds_wl wl;
  uint16_t imports[ACL__DS_SLOTS]; /* open imports per process slot */
} acl__ds_shr;

typedef struct acl__ds_shm {
  uint64_t magic;
  uint32_t version, size;
  pthread_mutex_t lock;
  uint32_t dead;
  uint64_t capacity;
  _Atomic uint64_t used;
  acl__ds_slot slots[ACL__DS_SLOTS];
  acl__ds_exp exports[ACL__DS_EXPORTS];
  acl__ds_sig_ent sigs[ACL__DS_SIGS];
  acl__ds_shr shares[ACL__DS_SHARES];
} acl__ds_shm;

struct acl__ds {
  acl__ds_shm *shm;
  int fd;
  int slot;
  int dev_id;
  char path[96];
};

int acl__ds_enabled(void) {
  const char *v = getenv("OPENACL_SHARED_DEVICE");
  return v == NULL || *v == '\0' || strcmp(v, "0") != 0;
}

void acl__ds_path(int dev_id, char *buf, size_t len) {
  const char *name = getenv("OPENACL_SHARED_DEVICE_NAME");
  char clean[32] = "";
  if (name != NULL) { /* keep it a plain file name */
    size_t j = 0;
    for (size_t i = 0; name[i] != '\0' && j + 1 < sizeof(clean); i++)
      if ((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
          (name[i] >= '0' && name[i] <= '9') || name[i] == '_' || name[i] == '.')
        clean[j++] = name[i];
    clean[j] = '\0';
  }
  if (dev_id == ACL__DS_HOST)
    snprintf(buf, len, "/dev/shm/openacl-u%u%s%s-ipc", (unsigned)getuid(), clean[0] ? "-" : "", clean);
  else
    snprintf(buf, len, "/dev/shm/openacl-u%u%s%s-dev%d", (unsigned)getuid(), clean[0] ? "-" : "", clean, dev_id);
}

/* The start time of pid (clock ticks since boot), 0 when it is gone. */
static uint64_t acl__ds_start_time(pid_t pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, buf, sizeof(buf) - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (p == NULL)
    return 0;
  /* fields after the command: state is field 3, starttime field 22 */
  int field = 2;
  for (p++; *p != '\0' && field < 22; p++)
    if (*p == ' ')
      field++;
  return strtoull(p, NULL, 10);
}

/* How long a start time read from /proc stays good: a pid is not reused
 * that fast (the kernel cycles through every other pid first), and reading
 * /proc for every process at every lock made each IPC import cost ~15 us
 * per process on the device. */
#define ACL__DS_CHECK_NS 100000000ull

static uint64_t acl__ds_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Mutex held. */
static int acl__ds_alive(acl__ds_slot *s) {
  if (s->pid <= 0)
    return 0;
  if (kill(s->pid, 0) != 0 && errno != EPERM)
    return 0;
  uint64_t now = acl__ds_now_ns();
  if (now - s->checked < ACL__DS_CHECK_NS)
    return 1;
  if (acl__ds_start_time(s->pid) != s->start)
    return 0;
  s->checked = now;
  return 1;
}

/* Mutex held: process slot i lets go of every shared signal; a signal no
 * process holds any more is freed.  Returns how many it held. */
static int acl__ds_sigs_leave(acl__ds_shm *m, int i) {
  int n = 0;
  uint64_t bit = 1ull << i;
  for (int k = 0; k < ACL__DS_SIGS; k++) {
    acl__ds_sig_ent *e = &m->sigs[k];
    if (!e->live)
      continue;
    atomic_fetch_and(&e->s.waiting, ~bit);
    if (atomic_fetch_and(&e->s.attached, ~bit) & bit)
      n++;
    if (atomic_load(&e->s.attached) == 0)
      memset(e, 0, sizeof(*e));
  }
  return n;
}

static int acl__ds_share_imported(const acl__ds_shr *e) {
  for (int i = 0; i < ACL__DS_SLOTS; i++)
    if (e->imports[i] != 0)
      return 1;
  return 0;
}

/* Mutex held: slot leaves (ended, or died) as far as shareable handles go:
 * its imports are gone; the handles it exported take no new imports, and
 * die unless other processes still hold imports, in which case their bytes
 * stay charged to the entry.  Returns the bytes so kept, which the caller
 * leaves in `used` while it gives back the rest of the slot's. */
static uint64_t acl__ds_share_drop_slot(acl__ds_shm *m, int slot) {
  uint64_t kept = 0;
  for (int k = 0; k < ACL__DS_SHARES; k++) {
    acl__ds_shr *e = &m->shares[k];
    if (!e->live)
      continue;
    e->imports[slot] = 0;
    if (e->owner != slot)
      continue;
    if (acl__ds_share_imported(e)) {
      e->owner = -1;
      kept += e->charged;
    } else {
      memset(e, 0, sizeof(*e));
    }
  }
  return kept;
}

/* Mutex held: entries whose exporter is gone and whose last import closed
 * give their bytes back. */
static void acl__ds_share_reap(acl__ds_shm *m) {
  for (int k = 0; k < ACL__DS_SHARES; k++) {
    acl__ds_shr *e = &m->shares[k];
    if (e->live && e->owner < 0 && !acl__ds_share_imported(e)) {
      atomic_fetch_sub(&m->used, e->charged);
      memset(e, 0, sizeof(*e));
    }
  }
}

/* Mutex held: a process died in the middle of a charge, so `used` may be
 * off by that allocation: count it again - what the live processes hold,
 * and the shareable handles whose exporter is gone but importers keep
 * charged.  A live process inside its own charge at this instant can make
 * the count miss its one allocation (uncharges never go below 0). */
static void acl__ds_recount(acl__ds_shm *m, int dev_id) {
  uint64_t sum = 0;
  for (int i = 0; i < ACL__DS_SLOTS; i++)
    if (m->slots[i].pid != 0)
      sum += atomic_load(&m->slots[i].bytes);
  for (int k = 0; k < ACL__DS_SHARES; k++)
    if (m->shares[k].live && m->shares[k].owner < 0)
      sum += m->shares[k].charged;
  uint64_t was = atomic_exchange(&m->used, sum);
  if (was != sum)
    ACL__LOGW(ACL__MOD_DRV, "device %d: a process was killed while it allocated or freed; %llu bytes in use "
              "counted again as %llu", dev_id, (unsigned long long)was, (unsigned long long)sum);
}

/* Mutex held: forgets processes that are gone, with their bytes and keys. */
static void acl__ds_sweep(acl__ds_shm *m, int dev_id) {
  int swept = 0, recount = 0;
  for (int i = 0; i < ACL__DS_SLOTS; i++) {
    acl__ds_slot *s = &m->slots[i];
    if (s->pid == 0 || acl__ds_alive(s))
      continue;
    swept = 1;
    recount |= atomic_load(&s->busy) != 0;
    atomic_store(&s->busy, 0);
    uint64_t b = atomic_exchange(&s->bytes, 0);
    uint64_t kept = acl__ds_share_drop_slot(m, i); /* bytes importers still hold */
    b = b > kept ? b - kept : 0;
    atomic_fetch_sub(&m->used, b);
    int keys = 0;
    for (int k = 0; k < ACL__DS_EXPORTS; k++)
      if (m->exports[k].live && m->exports[k].slot == i) {
        memset(&m->exports[k], 0, sizeof(m->exports[k]));
        keys++;
      }
    keys += acl__ds_sigs_leave(m, i);
    if (dev_id == ACL__DS_HOST)
      ACL__LOGW(ACL__MOD_DRV,
                "process %d ended without releasing its IPC notifies and events (killed?); %d of them %s "
                "released",
                (int)s->pid, keys, keys == 1 ? "was" : "were");
    else
      ACL__LOGW(ACL__MOD_DRV,
                "device %d: process %d ended without releasing the device (killed?); its %llu bytes of device "
                "memory and %d IPC key%s were recovered",
                dev_id, (int)s->pid, (unsigned long long)b, keys, keys == 1 ? "" : "s");
    s->pid = 0;
  }
  if (swept)
    acl__ds_share_reap(m);
  if (recount)
    acl__ds_recount(m, dev_id);
}

static int acl__ds_lock(acl__ds_shm *m, int dev_id) {
  int r = pthread_mutex_lock(&m->lock);
  if (r == EOWNERDEAD) {
    pthread_mutex_consistent(&m->lock);
    r = 0;
  }
  if (r != 0)
    return -1;
  acl__ds_sweep(m, dev_id);
  return 0;
}

static void acl__ds_unlock(acl__ds_shm *m) { pthread_mutex_unlock(&m->lock); }

/* Opens (creating when `create`) and maps the registry file.  NULL with why. */
static acl__ds_shm *acl__ds_map(const char *path, int create, uint64_t capacity, int *fd_out, char *why, size_t wl) {
  int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
  if (fd < 0) {
    snprintf(why, wl, "open %s: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_uid != getuid() || (st.st_mode & 077) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, wl, "%s is not a private file of this user (owner %u, mode %o)", path, (unsigned)st.st_uid,
             (unsigned)(st.st_mode & 0777));
    close(fd);
    return NULL;
  }
  flock(fd, LOCK_EX);
  fstat(fd, &st);
  int fresh = st.st_size == 0;
  if (fresh && (!create || ftruncate(fd, (off_t)sizeof(acl__ds_shm)) != 0)) {
    snprintf(why, wl, "%s: %s", path, create ? strerror(errno) : "empty registry");
    flock(fd, LOCK_UN);
    close(fd);
    return NULL;
  }
  acl__ds_shm *m = NULL;
  if ((size_t)st.st_size == sizeof(acl__ds_shm) || fresh)
    m = mmap(NULL, sizeof(acl__ds_shm), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == NULL || m == MAP_FAILED) {
    snprintf(why, wl, "%s has an unknown size (%lld bytes; another openacl version?)", path, (long long)st.st_size);
    flock(fd, LOCK_UN);
    close(fd);
    return NULL;
  }
  if (fresh) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&m->lock, &a);
    pthread_mutexattr_destroy(&a);
    m->version = ACL__DS_VERSION;
    m->size = (uint32_t)sizeof(acl__ds_shm);
    m->capacity = capacity;
    atomic_store(&m->used, 0);
    __atomic_store_n(&m->magic, ACL__DS_MAGIC, __ATOMIC_RELEASE);
  } else if (m->magic != ACL__DS_MAGIC || m->version != ACL__DS_VERSION || m->size != sizeof(acl__ds_shm)) {
    snprintf(why, wl, "%s was written by another openacl version", path);
    munmap(m, sizeof(*m));
    flock(fd, LOCK_UN);
    close(fd);
    return NULL;
  }
  flock(fd, LOCK_UN);
  *fd_out = fd;
  return m;
}

static void acl__ds_comm(char out[16]) {
  memset(out, 0, 16);
  int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = read(fd, out, 15);
  close(fd);
  for (ssize_t i = 0; i < n; i++)
    if (out[i] == '\n')
      out[i] = '\0';
}

/* Removes the registries of this user that no live process uses (left by
 * processes that were all killed, or by test processes with their own
 * OPENACL_SHARED_DEVICE_NAME), other than `keep`. */
static void acl__ds_reap(const char *keep) {
  char prefix[32];
  snprintf(prefix, sizeof(prefix), "openacl-u%u-", (unsigned)getuid());
  DIR *dir = opendir("/dev/shm");
  if (dir == NULL)
    return;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    char path[300], why[160];
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
      continue;
    snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
    if (strcmp(path, keep) == 0)
      continue;
    int fd = -1;
    acl__ds_shm *m = acl__ds_map(path, 0, 0, &fd, why, sizeof(why));
    if (m == NULL)
      continue;
    if (acl__ds_lock(m, -1) == 0) {
      int users = 0;
      for (int i = 0; i < ACL__DS_SLOTS; i++)
        users += m->slots[i].pid != 0;
      if (!m->dead && users == 0) {
        m->dead = 1;
        unlink(path);
      }
      acl__ds_unlock(m);
    }
    munmap(m, sizeof(*m));
    close(fd);
  }
  closedir(dir);
}

acl__ds *acl__ds_open(int dev_id, uint64_t capacity, int mem_fd, uint64_t *capacity_out, char *why, size_t wl) {
  if (!acl__ds_enabled()) {
    snprintf(why, wl, "OPENACL_SHARED_DEVICE=0");
    return NULL;
  }
  acl__ds *ds = calloc(1, sizeof(*ds));
  if (ds == NULL) {
    snprintf(why, wl, "out of host memory");
    return NULL;
  }
  acl__ds_path(dev_id, ds->path, sizeof(ds->path));
  ds->dev_id = dev_id;
  acl__ds_reap(ds->path);
  for (int attempt = 0; attempt < 16; attempt++) {
    acl__ds_shm *m = acl__ds_map(ds->path, 1, capacity, &ds->fd, why, wl);
    if (m == NULL)
      break;
    if (acl__ds_lock(m, dev_id) != 0) {
      snprintf(why, wl, "%s: its lock cannot be recovered", ds->path);
      munmap(m, sizeof(*m));
      close(ds->fd);
      break;
    }
    if (m->dead) { /* the last user just unlinked it: open the name again */
      acl__ds_unlock(m);
      munmap(m, sizeof(*m));
      close(ds->fd);
      continue;
    }
    int slot = -1;
    for (int i = 0; i < ACL__DS_SLOTS && slot < 0; i++)
      if (m->slots[i].pid == 0)
        slot = i;
    if (slot < 0) {
      acl__ds_unlock(m);
      snprintf(why, wl, "%d processes use device %d already (the most one device takes)", ACL__DS_SLOTS, dev_id);
      munmap(m, sizeof(*m));
      close(ds->fd);
      break;
    }
    int users = 0;
    for (int i = 0; i < ACL__DS_SLOTS; i++)
      users += m->slots[i].pid != 0;
    if (users == 0) /* nobody left from earlier runs: this process sets the capacity */
      m->capacity = capacity;
    acl__ds_slot *s = &m->slots[slot];
    s->pid = (int32_t)getpid();
    s->start = acl__ds_start_time(getpid());
    s->checked = acl__ds_now_ns();
    s->mem_fd = mem_fd;
    atomic_store(&s->bytes, 0);
    acl__ds_comm(s->comm);
    *capacity_out = m->capacity;
    acl__ds_unlock(m);
    ds->shm = m;
    ds->slot = slot;
    return ds;
  }
  if (why[0] == '\0')
    snprintf(why, wl, "%s kept being replaced", ds->path);
  free(ds);
  return NULL;
}

acl__ds *acl__ds_attach(int dev_id) {
  acl__ds *ds = calloc(1, sizeof(*ds));
  if (ds == NULL)
    return NULL;
  char why[160];
  acl__ds_path(dev_id, ds->path, sizeof(ds->path));
  ds->dev_id = dev_id;
  ds->slot = -1;
  ds->shm = acl__ds_map(ds->path, 0, 0, &ds->fd, why, sizeof(why));
  if (ds->shm == NULL) {
    free(ds);
    return NULL;
  }
  return ds;
}

void acl__ds_detach(acl__ds *ds) {
  if (ds == NULL)
    return;
  munmap(ds->shm, sizeof(*ds->shm));
  close(ds->fd);
  free(ds);
}

void acl__ds_close(acl__ds *ds) {
  if (ds == NULL)
    return;
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) == 0) {
    acl__ds_slot *s = &m->slots[ds->slot];
    uint64_t b = atomic_exchange(&s->bytes, 0);
    uint64_t kept = acl__ds_share_drop_slot(m, ds->slot);
    atomic_fetch_sub(&m->used, b > kept ? b - kept : 0);
    acl__ds_share_reap(m);
    for (int k = 0; k < ACL__DS_EXPORTS; k++)
      if (m->exports[k].live && m->exports[k].slot == ds->slot)
        memset(&m->exports[k], 0, sizeof(m->exports[k]));
    acl__ds_sigs_leave(m, ds->slot);
    s->pid = 0;
    int users = 0;
    for (int i = 0; i < ACL__DS_SLOTS; i++)
      users += m->slots[i].pid != 0;
    if (users == 0) {
      m->dead = 1;
      unlink(ds->path);
    }
    acl__ds_unlock(m);
  }
  munmap(m, sizeof(*m));
  close(ds->fd);
  free(ds);
}

void acl__ds_atfork_child(void) {
  /* memory.c forgets its handles (they stay allocated: the parent's entries
   * are the parent's business). */
}

/* `busy` brackets the two updates: a process killed between them (the
 * shared counter changed, its own total not yet, or the other way round)
 * leaves busy set, and the sweep then counts `used` again from the live
 * processes' totals instead of trusting it (acl__ds_recount). */
int acl__ds_charge(acl__ds *ds, uint64_t bytes, uint64_t mine, uint64_t *in_use_out) {
  acl__ds_shm *m = ds->shm;
  acl__ds_slot *s = &m->slots[ds->slot];
  atomic_store_explicit(&s->busy, 1, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst); /* a kill is a signal: program order is what counts */
  uint64_t cur = atomic_load_explicit(&m->used, memory_order_relaxed);
  do {
    if (bytes > m->capacity || cur > m->capacity - bytes) {
      *in_use_out = cur;
      atomic_store_explicit(&s->busy, 0, memory_order_relaxed);
      return -1;
    }
  } while (!atomic_compare_exchange_weak_explicit(&m->used, &cur, cur + bytes, memory_order_relaxed,
                                                  memory_order_relaxed));
  /* One writer (this process, under its space lock): a store, not a read-modify-write. */
  atomic_store_explicit(&s->bytes, mine, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst);
  atomic_store_explicit(&s->busy, 0, memory_order_release);
  return 0;
}

void acl__ds_uncharge(acl__ds *ds, uint64_t bytes, uint64_t mine) {
  acl__ds_shm *m = ds->shm;
  acl__ds_slot *s = &m->slots[ds->slot];
  atomic_store_explicit(&s->busy, 1, memory_order_relaxed);
  atomic_signal_fence(memory_order_seq_cst);
  atomic_store_explicit(&s->bytes, mine, memory_order_relaxed);
  /* never below 0: a recount may have run while another process was busy */
  uint64_t cur = atomic_load_explicit(&m->used, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(&m->used, &cur, cur > bytes ? cur - bytes : 0, memory_order_relaxed,
                                                memory_order_relaxed)) {
  }
  atomic_signal_fence(memory_order_seq_cst);
  atomic_store_explicit(&s->busy, 0, memory_order_release);
}

uint64_t acl__ds_in_use(acl__ds *ds) { return atomic_load_explicit(&ds->shm->used, memory_order_relaxed); }

/* ---- whitelists --------------------------------------------------------------- */

/* Adds the pids not listed yet; ACL__DS_FULL when there is no room left. */
static int acl__ds_wl_add(acl__ds_wl *wl, const int32_t *pids, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int have = 0;
    for (uint32_t j = 0; j < wl->npids; j++)
      have |= wl->pids[j] == pids[i];
    if (have)
      continue;
    if (wl->npids == ACL__DS_PIDS)
      return ACL__DS_FULL;
    wl->pids[wl->npids++] = pids[i];
  }
  return 0;
}

/* 1 when the calling process may not import. */
static int acl__ds_wl_denied(const acl__ds_wl *wl) {
  if (!wl->check_pid)
    return 0;
  for (uint32_t j = 0; j < wl->npids; j++)
    if (wl->pids[j] == (int32_t)getpid())
      return 0;
  return 1;
}

/* ---- keys ------------------------------------------------------------------ */

static acl__ds_exp *acl__ds_find(acl__ds_shm *m, const char *key) {
  for (int k = 0; k < ACL__DS_EXPORTS; k++)
    if (m->exports[k].live && strncmp(m->exports[k].key, key, ACL__DS_KEY_LEN + 1) == 0)
      return &m->exports[k];
  return NULL;
}

/* key = prefix and 128 random bits in hex; -1 when the kernel gives no randomness. */
static int acl__ds_new_key(const char *prefix, char key[ACL__DS_KEY_LEN + 1]) {
  unsigned char rnd[16];
  size_t got = 0;
  while (got < sizeof(rnd)) {
    ssize_t n = getrandom(rnd + got, sizeof(rnd) - got, 0);
    if (n <= 0 && errno != EINTR)
      return -1;
    if (n > 0)
      got += (size_t)n;
  }
  int n = snprintf(key, ACL__DS_KEY_LEN + 1, "%s", prefix);
  for (size_t i = 0; i < sizeof(rnd) && n + 2 <= ACL__DS_KEY_LEN; i++)
    n += snprintf(key + n, 3, "%02x", rnd[i]);
  return 0;
}

int acl__ds_export(acl__ds *ds, uint64_t off, uint64_t size, int check_pid, char key[ACL__DS_KEY_LEN + 1]) {
  char prefix[24];
  snprintf(prefix, sizeof(prefix), "oacl-d%d-", ds->dev_id);
  if (acl__ds_new_key(prefix, key) != 0)
    return ACL__DS_FULL;
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_FULL;
  int r = ACL__DS_FULL;
  for (int k = 0; k < ACL__DS_EXPORTS; k++) {
    acl__ds_exp *e = &m->exports[k];
    if (e->live)
      continue;
    memset(e, 0, sizeof(*e));
    e->live = 1;
    e->slot = ds->slot;
    e->off = off;
    e->size = size;
    e->wl.check_pid = check_pid != 0;
    memcpy(e->key, key, ACL__DS_KEY_LEN + 1);
    r = 0;
    break;
  }
  acl__ds_unlock(m);
  return r;
}

int acl__ds_export_allow(acl__ds *ds, const char *key, const int32_t *pids, size_t n) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_exp *e = acl__ds_find(m, key);
  int r = e == NULL ? ACL__DS_NO_KEY : e->slot != ds->slot ? ACL__DS_NOT_OWNER : 0;
  if (r == 0)
    r = acl__ds_wl_add(&e->wl, pids, n);
  acl__ds_unlock(m);
  return r;
}

int acl__ds_import(acl__ds *ds, const char *key, acl__ds_export_info *info) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_exp *e = acl__ds_find(m, key);
  int r = e == NULL ? ACL__DS_NO_KEY : 0;
  if (r == 0 && e->slot != ds->slot && acl__ds_wl_denied(&e->wl))
    r = ACL__DS_DENIED;
  if (r == 0) {
    const acl__ds_slot *s = &m->slots[e->slot];
    info->owner_pid = s->pid;
    info->owner_fd = s->mem_fd;
    info->off = e->off;
    info->size = e->size;
    info->dev_id = ds->dev_id;
    e->imports++;
  }
  acl__ds_unlock(m);
  return r;
}

void acl__ds_import_done(acl__ds *ds, const char *key) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return;
  acl__ds_exp *e = acl__ds_find(m, key);
  if (e != NULL && e->imports > 0)
    e->imports--;
  acl__ds_unlock(m);
}

int acl__ds_export_close(acl__ds *ds, const char *key, uint32_t *imports_out) {
  acl__ds_shm *m = ds->shm;
  *imports_out = 0;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_exp *e = acl__ds_find(m, key);
  int r = e == NULL ? ACL__DS_NO_KEY : e->slot != ds->slot ? ACL__DS_NOT_OWNER : 0;
  if (r == 0) {
    *imports_out = e->imports;
    memset(e, 0, sizeof(*e));
  }
  acl__ds_unlock(m);
  return r;
}

int acl__ds_export_drop_range(acl__ds *ds, uint64_t off, uint64_t size) {
  acl__ds_shm *m = ds->shm;
  int n = 0;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return 0;
  for (int k = 0; k < ACL__DS_EXPORTS; k++) {
    acl__ds_exp *e = &m->exports[k];
    if (e->live && e->slot == ds->slot && e->off >= off && e->off < off + size) {
      memset(e, 0, sizeof(*e));
      n++;
    }
  }
  acl__ds_unlock(m);
  return n;
}

/* ---- shared signals ---------------------------------------------------------- */

static acl__ds_sig_ent *acl__ds_sig_find(acl__ds_shm *m, const char *key, uint32_t kind) {
  for (int k = 0; k < ACL__DS_SIGS; k++)
    if (m->sigs[k].live && m->sigs[k].kind == kind && strncmp(m->sigs[k].key, key, ACL__DS_KEY_LEN + 1) == 0)
      return &m->sigs[k];
  return NULL;
}

int acl__ds_sig_create(acl__ds *ds, uint32_t kind, int check_pid, uint64_t word, uint64_t recorded,
                       char key[ACL__DS_KEY_LEN + 1], int32_t *index) {
  if (acl__ds_new_key(kind == ACL__DS_SIG_EVENT ? "oacl-e-" : "oacl-n-", key) != 0)
    return ACL__DS_FULL;
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_FULL;
  int r = ACL__DS_FULL;
  for (int k = 0; k < ACL__DS_SIGS; k++) {
    acl__ds_sig_ent *e = &m->sigs[k];
    if (e->live)
      continue;
    memset(e, 0, sizeof(*e));
    e->live = 1;
    e->slot = ds->slot;
    e->kind = kind;
    e->wl.check_pid = check_pid != 0;
    memcpy(e->key, key, ACL__DS_KEY_LEN + 1);
    atomic_store(&e->s.word, word);
    atomic_store(&e->s.recorded, recorded);
    atomic_store(&e->s.attached, 1ull << ds->slot);
    *index = k;
    r = 0;
    break;
  }
  acl__ds_unlock(m);
  return r;
}

int acl__ds_sig_allow(acl__ds *ds, int32_t index, const int32_t *pids, size_t n) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_sig_ent *e = &m->sigs[index];
  int r = !e->live ? ACL__DS_NO_KEY : e->slot != ds->slot ? ACL__DS_NOT_OWNER : 0;
  if (r == 0)
    r = acl__ds_wl_add(&e->wl, pids, n);
  acl__ds_unlock(m);
  return r;
}

int acl__ds_sig_open(acl__ds *ds, const char *key, uint32_t kind, int32_t *index) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_sig_ent *e = acl__ds_sig_find(m, key, kind);
  /* the creator must still hold it: a destroyed (or dead) creator's key is gone */
  int r = e == NULL || !(atomic_load(&e->s.attached) & (1ull << e->slot)) ? ACL__DS_NO_KEY : 0;
  if (r == 0 && e->slot == ds->slot)
    r = ACL__DS_SELF;
  if (r == 0 && acl__ds_wl_denied(&e->wl))
    r = ACL__DS_DENIED;
  if (r == 0) {
    atomic_fetch_or(&e->s.attached, 1ull << ds->slot);
    atomic_store(&e->s.had_peer, 1);
    *index = (int32_t)(e - m->sigs);
  }
  acl__ds_unlock(m);
  return r;
}

acl__ds_sig *acl__ds_sig_at(acl__ds *ds, int32_t index) { return &ds->shm->sigs[index].s; }

void acl__ds_sig_close(acl__ds *ds, int32_t index) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return;
  acl__ds_sig_ent *e = &m->sigs[index];
  uint64_t bit = 1ull << ds->slot;
  atomic_fetch_and(&e->s.waiting, ~bit);
  if (e->live && (atomic_fetch_and(&e->s.attached, ~bit) & ~bit) == 0)
    memset(e, 0, sizeof(*e));
  acl__ds_unlock(m);
}

uint64_t acl__ds_my_bit(acl__ds *ds) { return 1ull << ds->slot; }

_Atomic uint32_t *acl__ds_bell(acl__ds *ds) { return &ds->shm->slots[ds->slot].bell; }

void acl__ds_bell_ring(_Atomic uint32_t *bell) {
  atomic_fetch_add(bell, 1);
  syscall(SYS_futex, (uint32_t *)bell, FUTEX_WAKE, 1, NULL, NULL, 0);
}

void acl__ds_bell_wait(_Atomic uint32_t *bell, uint32_t seen, int timeout_ms) {
  /* returns at once when the bell moved since `seen`; EINTR, timeouts and
   * spurious wake-ups are fine: the caller looks again */
  struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
  syscall(SYS_futex, (uint32_t *)bell, FUTEX_WAIT, seen, timeout_ms < 0 ? NULL : &ts, NULL, 0);
}

void acl__ds_sig_ring(acl__ds *ds, acl__ds_sig *s) {
  uint64_t w = atomic_load(&s->waiting) & ~(1ull << ds->slot);
  while (w != 0) {
    int i = __builtin_ctzll(w);
    w &= w - 1;
    acl__ds_bell_ring(&ds->shm->slots[i].bell);
  }
}

int acl__ds_sig_peers(acl__ds *ds, int32_t index) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return 1;
  const acl__ds_sig *s = &m->sigs[index].s;
  /* the sweep in the lock has dropped the processes that are gone */
  int r = !atomic_load(&s->had_peer) || (atomic_load(&s->attached) & ~(1ull << ds->slot)) != 0;
  acl__ds_unlock(m);
  return r;
}

/* ---- shareable physical-memory handles ------------------------------------------ */

static int acl__ds_random(void *buf, size_t len) {
  size_t got = 0;
  while (got < len) {
    ssize_t n = getrandom((char *)buf + got, len - got, 0);
    if (n <= 0 && errno != EINTR)
      return -1;
    if (n > 0)
      got += (size_t)n;
  }
  return 0;
}

static acl__ds_shr *acl__ds_share_find(acl__ds_shm *m, uint64_t handle) {
  for (int k = 0; k < ACL__DS_SHARES; k++)
    if (m->shares[k].live && m->shares[k].handle == handle && handle != 0)
      return &m->shares[k];
  return NULL;
}

int acl__ds_share_export(acl__ds *ds, int fd, uint64_t size, uint64_t gran, uint32_t attr, uint64_t charged,
                         int check_pid, uint64_t *handle_out) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return ACL__DS_FULL;
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_FULL;
  int r = ACL__DS_FULL;
  acl__ds_shr *e = NULL;
  for (int k = 0; k < ACL__DS_SHARES && e == NULL; k++)
    if (!m->shares[k].live)
      e = &m->shares[k];
  uint64_t h = 0;
  /* 64 random bits, never 0, never a handle in use */
  for (int tries = 0; e != NULL && tries < 8 && h == 0; tries++)
    if (acl__ds_random(&h, sizeof(h)) != 0 || acl__ds_share_find(m, h) != NULL)
      h = 0;
  if (e != NULL && h != 0) {
    memset(e, 0, sizeof(*e));
    e->live = 1;
    e->owner = ds->slot;
    e->owner_pid = m->slots[ds->slot].pid;
    e->fd = fd;
    e->ino = (uint64_t)st.st_ino;
    e->devno = (uint64_t)st.st_dev;
    e->handle = h;
    e->size = size;
    e->gran = gran;
    e->charged = charged;
    e->attr = attr;
    e->wl.check_pid = check_pid != 0;
    *handle_out = h;
    r = 0;
  }
  acl__ds_unlock(m);
  return r;
}

int acl__ds_share_allow(acl__ds *ds, uint64_t handle, const int32_t *pids, size_t n) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_shr *e = acl__ds_share_find(m, handle);
  int r = e == NULL || e->owner < 0 ? ACL__DS_NO_KEY : e->owner != ds->slot ? ACL__DS_NOT_OWNER : 0;
  if (r == 0)
    r = acl__ds_wl_add(&e->wl, pids, n);
  acl__ds_unlock(m);
  return r;
}

int acl__ds_share_import(acl__ds *ds, uint64_t handle, acl__ds_share_info *info, int *fd_out) {
  acl__ds_shm *m = ds->shm;
  *fd_out = -1;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return ACL__DS_NO_KEY;
  acl__ds_shr *e = acl__ds_share_find(m, handle);
  int r = e == NULL || e->owner < 0 ? ACL__DS_NO_KEY : e->owner == ds->slot ? ACL__DS_SELF : 0;
  if (r == 0 && acl__ds_wl_denied(&e->wl))
    r = ACL__DS_DENIED;
  if (r == 0) {
    info->owner_pid = e->owner_pid;
    info->size = e->size;
    info->gran = e->gran;
    info->attr = e->attr;
    /* Opened under the lock: the exporter gives the entry up before it
     * closes the descriptor, so the number cannot name another file yet;
     * the identity check is a second guard. */
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)e->owner_pid, (int)e->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || (uint64_t)st.st_ino != e->ino || (uint64_t)st.st_dev != e->devno)) {
      close(fd);
      fd = -1;
    }
    if (fd < 0) {
      r = ACL__DS_GONE;
    } else {
      e->imports[ds->slot]++;
      *fd_out = fd;
    }
  }
  acl__ds_unlock(m);
  return r;
}

void acl__ds_share_import_done(acl__ds *ds, uint64_t handle) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return;
  acl__ds_shr *e = acl__ds_share_find(m, handle);
  if (e != NULL && e->imports[ds->slot] > 0) {
    e->imports[ds->slot]--;
    acl__ds_share_reap(m);
  }
  acl__ds_unlock(m);
}

int acl__ds_share_release(acl__ds *ds, uint64_t handle) {
  acl__ds_shm *m = ds->shm;
  if (acl__ds_lock(m, ds->dev_id) != 0)
    return 0;
  acl__ds_shr *e = acl__ds_share_find(m, handle);
  int kept = 0;
  if (e != NULL && e->owner == ds->slot) {
    if (acl__ds_share_imported(e)) {
      e->owner = -1;
      kept = 1;
    } else {
      memset(e, 0, sizeof(*e));
    }
  }
  acl__ds_unlock(m);
  return kept;
}

/* ---- listing ------------------------------------------------------------------ */

int acl__ds_list(int dev_id, acl__ds_proc *out, int max, uint64_t *capacity, uint64_t *in_use) {
  char path[96], why[160] = "";
  acl__ds_path(dev_id, path, sizeof(path));
  *capacity = *in_use = 0;
  int fd = -1;
  acl__ds_shm *m = acl__ds_map(path, 0, 0, &fd, why, sizeof(why));
  if (m == NULL)
    return -1;
  int n = -1;
  if (acl__ds_lock(m, dev_id) == 0) {
    n = 0;
    if (!m->dead) {
      for (int i = 0; i < ACL__DS_SLOTS; i++) {
        const acl__ds_slot *s = &m->slots[i];
        if (s->pid == 0)
          continue;
        if (n < max) {
          out[n].pid = s->pid;
          out[n].bytes = atomic_load(&s->bytes);
          memcpy(out[n].comm, s->comm, sizeof(out[n].comm));
        }
        n++;
      }
      *capacity = m->capacity;
      *in_use = atomic_load(&m->used);
      if (n == 0) { /* left behind by processes that were killed: remove it */
        m->dead = 1;
        unlink(path);
      }
    }
    acl__ds_unlock(m);
  }
  munmap(m, sizeof(*m));
  close(fd);
  return n;
}
