/*
 * mem_ipc.c - IPC memory (ipc-vmm-graphs-tdt §1, docs/processes.md): export
 * keys for ranges of this process's device memory, and imports of other
 * processes' ranges.
 *
 * A key lives in the device's registry (devshare.c): the exporter's pid, the
 * shared-memory object behind its region, the range's offset in it, the
 * whitelist.  An import opens the exporter's object through
 * /proc/<pid>/fd/<fd> (the kernel allows that to processes of the same
 * user only), takes a block of the importer's own device range - whole
 * pages, charged nothing: the exporter holds the memory - and maps the
 * exporter's pages over it with the device's protection (backend
 * mem_map_shared).  The imported pointer is then device memory like any
 * other: classification, copies, kernel arguments, the host-access trap.
 * Closing the import maps the device's own memory back and frees the block.
 *
 * Lifetimes: the mapping keeps the exporter's pages alive, so an importer
 * keeps working after the exporter closes its key, frees the memory (it
 * then sees what is allocated there next: logged) or dies (the registry
 * drops its keys: later imports fail).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/mem_space.h"

typedef struct acl__mem_import {
  char key[ACL__DS_KEY_LEN + 1];
  int32_t key_dev; /* the device whose registry holds the key */
  size_t len;      /* bytes mapped (whole pages) */
} acl__mem_import;

/* Imported pointers closed lately, so that aclrtFree of one succeeds. */
static struct {
  pthread_mutex_t lock;
  uintptr_t addr[64];
  unsigned next;
} acl__closed = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

static void acl__closed_add(uintptr_t a) {
  pthread_mutex_lock(&acl__closed.lock);
  acl__closed.addr[acl__closed.next++ % 64] = a;
  pthread_mutex_unlock(&acl__closed.lock);
}

int acl__mem_import_was_closed(const void *p) {
  int found = 0;
  pthread_mutex_lock(&acl__closed.lock);
  for (int i = 0; i < 64; i++)
    if (acl__closed.addr[i] == (uintptr_t)p && p != NULL) {
      acl__closed.addr[i] = 0;
      found = 1;
    }
  pthread_mutex_unlock(&acl__closed.lock);
  return found;
}

static size_t acl__mem_ipc_page(void) {
  long pg = sysconf(_SC_PAGESIZE);
  return pg > 0 ? (size_t)pg : 4096;
}

/* The device id a key names ("oacl-d<N>-<32 hex digits>"), -1 when it is no key openacl made. */
static int acl__mem_ipc_key_dev(const char *key) {
  if (strncmp(key, "oacl-d", 6) != 0)
    return -1;
  char *end = NULL;
  long dev = strtol(key + 6, &end, 10);
  if (end == key + 6 || *end != '-' || dev < 0 || dev >= ACL__ENV_MAX_DEVICES)
    return -1;
  size_t n = strnlen(end + 1, ACL__DS_KEY_LEN + 1);
  if (n != 32)
    return -1;
  for (size_t i = 0; i < n; i++)
    if (!((end[1 + i] >= '0' && end[1 + i] <= '9') || (end[1 + i] >= 'a' && end[1 + i] <= 'f')))
      return -1;
  return (int)dev;
}

/* Registries of devices this process does not use, mapped to import what
 * they exported (an importer on device 3 of memory of device 2, after
 * aclrtDeviceEnablePeerAccess, as the vendor's notify samples do). */
static struct {
  pthread_mutex_t lock;
  acl__ds *ds[ACL__ENV_MAX_DEVICES];
} acl__guests = {PTHREAD_MUTEX_INITIALIZER, {NULL}};

/* The registry of physical device phys as this process shares it, or NULL;
 * with guest_ok, that of a device it does not use, when one exists. */
static acl__ds *acl__mem_ipc_registry(int32_t phys, int guest_ok) {
  /* keys name the physical device (its registry's id): find the space of
   * the device this process sees it as */
  for (int32_t id = 0; id < ACL__ENV_MAX_DEVICES; id++) {
    struct acl__mem_space *sp = acl__mem_space_of(id);
    pthread_mutex_lock(&sp->lock);
    acl__ds *ds = sp->open && sp->dev != NULL && sp->dev->phys_id == phys ? sp->ds : NULL;
    pthread_mutex_unlock(&sp->lock);
    if (ds != NULL)
      return ds;
  }
  if (!guest_ok || phys < 0 || phys >= ACL__ENV_MAX_DEVICES || !acl__ds_enabled())
    return NULL;
  pthread_mutex_lock(&acl__guests.lock);
  if (acl__guests.ds[phys] == NULL)
    acl__guests.ds[phys] = acl__ds_attach(phys);
  acl__ds *ds = acl__guests.ds[phys];
  pthread_mutex_unlock(&acl__guests.lock);
  return ds;
}

void acl__mem_ipc_shutdown(void) {
  pthread_mutex_lock(&acl__guests.lock);
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    acl__ds_detach(acl__guests.ds[i]);
    acl__guests.ds[i] = NULL;
  }
  pthread_mutex_unlock(&acl__guests.lock);
}

int acl__mem_ipc_export(const char *api, void *p, size_t size, int check_pid, char *key, size_t len) {
  acl__ptr_info info;
  acl__mem_classify(p, &info);
  if (info.kind != ACL__PTR_DEVICE || info.dev == NULL)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p is not device memory of this process (aclrtMalloc). Remedy: export a pointer into a live "
                     "device allocation",
                     p);
  if (size > info.alloc_size - info.offset)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%zu bytes from %p overrun its %zu-byte allocation by %zu bytes. Remedy: export at most the "
                     "rest of the allocation",
                     size, p, info.alloc_size, size - (info.alloc_size - info.offset));
  struct acl__mem_space *sp = acl__mem_space_of(info.dev->id);
  uintptr_t a = (uintptr_t)info.alloc_base + info.offset;
  char k[ACL__DS_KEY_LEN + 1];
  pthread_mutex_lock(&sp->lock);
  acl__mblock *b = sp->open ? acl__arena_find(&sp->arena, a) : NULL;
  int r = b == NULL ? -1 : b->vmm ? -4 : b->owner != NULL ? -2 : sp->ds == NULL ? -3 : 0;
  if (r == 0)
    r = acl__ds_export(sp->ds, a - sp->arena.base, size, check_pid, k);
  if (r == 0)
    b->exported = 1;
  pthread_mutex_unlock(&sp->lock);
  if (r == -1)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "%p was freed meanwhile", p);
  if (r == -2)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p was imported from another process (aclrtIpcMemImportByKey); only the process that "
                     "allocated memory can export it. Remedy: pass the key you imported on instead",
                     p);
  if (r == -4)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p is virtual memory mapped with aclrtMapMem, which has no IPC key. Remedy: share its "
                     "physical memory with aclrtMemExportToShareableHandle instead",
                     p);
  if (r == -3)
    return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                     "device %d is private to this process (OPENACL_SHARED_DEVICE=0, or its registry could not be "
                     "used: see the warning when it opened), so no other process can import its memory. Remedy: "
                     "unset OPENACL_SHARED_DEVICE",
                     (int)info.dev->id);
  if (r != 0)
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "device %d has %d IPC keys open already (the most one device keeps). Remedy: "
                     "aclrtIpcMemClose keys no longer needed",
                     (int)info.dev->id, ACL__DS_EXPORTS);
  snprintf(key, len, "%s", k);
  return 0;
}

int acl__mem_ipc_locate(const void *p, uint64_t size, int32_t *fd, uint64_t *off) {
  acl__ptr_info info;
  acl__mem_classify(p, &info);
  if (info.kind != ACL__PTR_DEVICE || info.dev == NULL || info.vmm || size > info.alloc_size - info.offset)
    return -1;
  acl__device *d = info.dev;
  int f = d->ops->version >= 4 && d->ops->mem_fd != NULL ? d->ops->mem_fd(d->bdev) : -1;
  struct acl__mem_space *sp = acl__mem_space_of(d->id);
  uintptr_t a = (uintptr_t)p;
  pthread_mutex_lock(&sp->lock);
  acl__mblock *b = sp->open ? acl__arena_find(&sp->arena, a) : NULL;
  /* the same conditions as an export: the device's own object, shared */
  int ok = f >= 0 && b != NULL && !b->vmm && b->owner == NULL && sp->ds != NULL;
  uint64_t o = a - sp->arena.base;
  pthread_mutex_unlock(&sp->lock);
  if (!ok)
    return -1;
  *fd = f;
  *off = o;
  return 0;
}

int acl__mem_ipc_allow(const char *api, const char *key, const int32_t *pids, size_t n) {
  int dev = acl__mem_ipc_key_dev(key);
  acl__ds *ds = dev >= 0 ? acl__mem_ipc_registry(dev, 0) : NULL;
  int r = ds == NULL ? ACL__DS_NO_KEY : acl__ds_export_allow(ds, key, pids, n);
  if (r == ACL__DS_NO_KEY)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "'%.70s' is no live IPC key of this process (never made, or closed, or its memory freed). "
                     "Remedy: pass the key aclrtIpcMemGetExportKey wrote",
                     key);
  if (r == ACL__DS_NOT_OWNER)
    return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                     "key '%s' was exported by another process; only the exporter may add pids to its whitelist",
                     key);
  if (r != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "key '%s' has %d pids on its whitelist already (the most one key takes)", key, ACL__DS_PIDS);
  return 0;
}

int acl__mem_ipc_import(const char *api, acl__device *d, const char *key, void **out) {
  int dev = acl__mem_ipc_key_dev(key);
  if (dev < 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "'%.70s' is not an IPC key (aclrtIpcMemGetExportKey writes 'oacl-d<device>-' and 32 hex "
                     "digits). Remedy: pass the whole key the exporter wrote",
                     key);
  acl__ds *ds = acl__mem_ipc_registry(dev, 1);
  if (ds == NULL)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "key '%s' belongs to physical device %d, which no process uses as a shared device (its "
                     "exporter ended, or this process keeps a private device). Remedy: import while the exporter "
                     "runs, and leave OPENACL_SHARED_DEVICE unset",
                     key, dev);
  acl__ds_export_info info;
  int r = acl__ds_import(ds, key, &info);
  if (r == ACL__DS_NO_KEY)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "key '%s' is not open on device %d: it was never made, its exporter closed it or freed the "
                     "memory, or the exporter's process ended. Remedy: import while the exporter keeps it open",
                     key, dev);
  if (r == ACL__DS_DENIED)
    return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                     "process %d is not on the whitelist of key '%s'. Remedy: the exporter adds this pid "
                     "(aclrtDeviceGetBareTgid) with aclrtIpcMemSetImportPid, or exports with "
                     "ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION",
                     (int)getpid(), key);
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)info.owner_pid, info.owner_fd);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    acl__ds_import_done(ds, key);
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "the memory of key '%s' cannot be opened (%s: %s): its exporter (process %d) is ending or "
                     "runs as another user. Remedy: import while the exporter runs",
                     key, path, strerror(errno), (int)info.owner_pid);
  }
  size_t pg = acl__mem_ipc_page();
  uint64_t lo = info.off & ~(uint64_t)(pg - 1);
  size_t len = (size_t)(((info.off + info.size + pg - 1) & ~(uint64_t)(pg - 1)) - lo);
  acl__mem_import *rec = calloc(1, sizeof(*rec));
  struct acl__mem_space *sp = acl__mem_space_of(d->id);
  acl__mblock *b = NULL;
  int rc = rec == NULL ? ACL_ERROR_BAD_ALLOC : 0;
  pthread_mutex_lock(&sp->lock);
  if (rc == 0 && (!sp->open || acl__arena_alloc_aligned(&sp->arena, len, pg, 0, &b) != 0))
    rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
  if (rc == 0 && (d->ops->version < 4 || d->ops->mem_map_shared == NULL ||
                  d->ops->mem_map_shared(d->bdev, (void *)b->addr, len, fd, lo) != 0)) {
    if (d->ops->mem_map_shared != NULL)
      d->ops->mem_map_shared(d->bdev, (void *)b->addr, len, -1, 0);
    acl__arena_free(&sp->arena, b);
    rc = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
  }
  if (rc == 0) {
    snprintf(rec->key, sizeof(rec->key), "%s", key);
    rec->key_dev = dev;
    rec->len = len;
    b->owner = rec;
    b->uoff = (uint32_t)(info.off - lo);
    b->requested = (size_t)info.size;
    b->api = "aclrtIpcMemImportByKey";
    b->caller = "another process";
    b->serial = ++sp->serial;
    *out = (void *)(b->addr + b->uoff);
  }
  pthread_mutex_unlock(&sp->lock);
  close(fd);
  if (rc == 0)
    return 0;
  free(rec);
  acl__ds_import_done(ds, key);
  if (rc == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    return acl__fail(api, rc, __FILE__, __LINE__,
                     "device %d's backend (%s) cannot map another process's memory", (int)d->id, d->ops->name);
  return acl__fail(api, rc, __FILE__, __LINE__,
                   "device %d has no free address range of %zu bytes for the import of key '%s'. Remedy: free "
                   "memory, or close imports no longer needed",
                   (int)d->id, len, key);
}

/* Space lock held: the first import of key (or at address at, when key is
 * NULL) in the space, else NULL. */
struct acl__mem_ipc_find {
  const char *key;
  uintptr_t at;
  acl__mblock *found;
};

static int acl__mem_ipc_find_cb(acl__mblock *b, void *arg) {
  struct acl__mem_ipc_find *f = arg;
  const acl__mem_import *rec = b->owner;
  if (rec == NULL || b->vmm) /* a reservation's owner is vmm.c's record */
    return 0;
  if (f->key != NULL ? strcmp(rec->key, f->key) == 0 : b->addr + b->uoff == f->at || f->at == 0) {
    f->found = b;
    return 1;
  }
  return 0;
}

/* Space lock held: unmaps and frees the import b. */
static void acl__mem_ipc_unmap(struct acl__mem_space *sp, acl__mblock *b, acl__mem_import *rec) {
  acl__device *d = sp->dev;
  d->ops->mem_map_shared(d->bdev, (void *)b->addr, rec->len, -1, 0);
  acl__closed_add(b->addr + b->uoff);
  acl__arena_free(&sp->arena, b);
}

/* Closes imports matching (key) or (at) in every space; returns how many. */
static int acl__mem_ipc_close_imports(const char *key, uintptr_t at, int32_t only_dev) {
  int n = 0;
  for (int32_t id = 0; id < ACL__ENV_MAX_DEVICES; id++) {
    if (only_dev >= 0 && id != only_dev)
      continue;
    struct acl__mem_space *sp = acl__mem_space_of(id);
    for (;;) {
      struct acl__mem_ipc_find f = {key, at, NULL};
      acl__mem_import *rec = NULL;
      pthread_mutex_lock(&sp->lock);
      if (sp->open)
        acl__arena_foreach(&sp->arena, acl__mem_ipc_find_cb, &f);
      if (f.found != NULL) {
        rec = f.found->owner;
        acl__mem_ipc_unmap(sp, f.found, rec);
      }
      pthread_mutex_unlock(&sp->lock);
      if (rec == NULL)
        break;
      acl__ds *ds = acl__mem_ipc_registry(rec->key_dev, 1);
      if (ds != NULL)
        acl__ds_import_done(ds, rec->key);
      free(rec);
      n++;
      if (at != 0)
        break;
    }
  }
  return n;
}

int acl__mem_ipc_close(const char *api, const char *key) {
  int dev = acl__mem_ipc_key_dev(key);
  if (dev < 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "'%.70s' is not an IPC key. Remedy: pass the key aclrtIpcMemGetExportKey wrote", key);
  if (acl__mem_ipc_close_imports(key, 0, -1) > 0)
    return 0;
  acl__ds *ds = acl__mem_ipc_registry(dev, 0);
  uint32_t imports = 0;
  int r = ds == NULL ? ACL__DS_NO_KEY : acl__ds_export_close(ds, key, &imports);
  if (r == ACL__DS_NOT_OWNER)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "key '%s' was exported by another process and this one has no import of it open. Remedy: "
                     "close a key once per import, and in the exporter",
                     key);
  if (r != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "key '%s' is not open here: no import of it is open in this process, and it is no live key "
                     "this process exported (closed already, or its memory freed)",
                     key);
  if (imports > 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "%s: key %s was closed while %u import%s of it %s still open in other processes; they keep their "
              "mappings, but close imports before the exporter closes, as the vendor requires",
              api, key, imports, imports == 1 ? "" : "s", imports == 1 ? "is" : "are");
  return 0;
}

int acl__mem_import_close_at(const char *api, void *p) {
  (void)api;
  acl__mem_ipc_close_imports(NULL, (uintptr_t)p, -1);
  return 0;
}

void acl__mem_ipc_reset(int32_t id) {
  /* at 0 with key NULL matches every import of the space */
  while (acl__mem_ipc_close_imports(NULL, 0, id) > 0) {
  }
}
