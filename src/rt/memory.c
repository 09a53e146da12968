/*
 * memory.c - device memory: each device's region and its sub-allocator,
 * pinned host memory, pointer classification, leak reports.
 *
 * One acl__mem_space per device id, kept for the life of the process (a
 * closed space is reused when the device opens again, so lookups never
 * race with a free()).  A space's lock guards its arena; the lock is a
 * leaf (nothing else is taken while it is held), so the order is
 *   device lock -> space lock        (acl__mem_open / reset / close)
 * and the API takes space locks only.  Pinned host allocations live in one
 * process-wide treap under acl__pinned.lock, also a leaf but for
 *   pinned lock -> registration lock (host_register.c)  (aclrtFreeHost)
 *
 * Lookups first compare the pointer with every open region through atomics
 * (no lock), so a host pointer costs 64 compares plus the pinned lookup
 * (and the registration and managed lookups when there are any).
 *
 * Protection: the backend reserves each region and says how host code is
 * kept out (docs/memory.md).  With the alias mechanism device code reaches
 * the region through a second mapping; memory.c registers it with
 * mem_xlate.c when the device opens, and classifies an alias address as the
 * view address it stands for.  Freed pages go back through the backend's
 * mem_discard (a shared-memory object needs a hole punched, not madvise).
 *
 * Sharing (docs/processes.md): unless OPENACL_SHARED_DEVICE=0 the backend's
 * region is a shared-memory object, and the space joins the device's
 * registry (devshare.c), which charges the capacity across processes:
 * one atomic compare-and-swap per allocation, one atomic subtraction per
 * free, and a plain store of this process's total.
 * IPC imports (mem_ipc.c) are blocks of this arena over which the
 * exporter's pages are mapped, charged to the exporter, not here.
 *
 * Physical memory: freed blocks keep their pages (that is the cache: the
 * next allocation of a similar size reuses them).  When more than a budget
 * of freed bytes has not been handed out again, the free pages are given
 * back to the system (madvise MADV_DONTNEED) in one sweep.
 */
#include "rt/memory.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/env.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/devshare.h"
#include "rt/mem_alloc.h"
#include "rt/mem_fault.h"
#include "rt/mem_internal.h"
#include "rt/mem_space.h"
#include "rt/vmm.h"

static struct acl__mem_space acl__spaces[ACL__ENV_MAX_DEVICES];

struct acl__mem_space *acl__mem_space_of(int32_t id) {
  return id >= 0 && id < ACL__ENV_MAX_DEVICES ? &acl__spaces[id] : NULL;
}

static void acl__mem_share(acl__device *d, struct acl__mem_space *sp);

/* Lock-free copy of each open region, for the first step of a lookup. */
static struct {
  atomic_uintptr_t base;
  atomic_size_t span;
} acl__ranges[ACL__ENV_MAX_DEVICES];

static struct {
  pthread_mutex_t lock; /* guards root, rng, count, bytes */
  acl__mblock *root;
  uint32_t rng;
  size_t count, bytes;
} acl__pinned = {PTHREAD_MUTEX_INITIALIZER, NULL, 0x12345u, 0, 0};
static atomic_size_t acl__pinned_count; /* live pinned allocations: host pointers skip the lookup at 0 */

static pthread_once_t acl__mem_once = PTHREAD_ONCE_INIT;
static size_t acl__page;

static void acl__mem_atfork_child(void) {
  /* Another thread may have held any of these locks at fork(): re-create
   * them.  The parent's devices are gone for the child (it must call
   * aclInit again); their regions stay mapped, so pointers into them are
   * still recognised (as stale) instead of being taken for host memory. */
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    pthread_mutex_init(&acl__spaces[i].lock, NULL);
    if (acl__spaces[i].open) {
      acl__spaces[i].open = 0;
      acl__spaces[i].stale = 1;
      acl__spaces[i].dev = NULL;
    }
    acl__spaces[i].ds = NULL; /* the parent's entry in the registry stays the parent's */
  }
  /* The treap may have been mid-update: forget the parent's pinned memory. */
  pthread_mutex_init(&acl__pinned.lock, NULL);
  acl__pinned.root = NULL;
  acl__pinned.count = acl__pinned.bytes = 0;
  atomic_store(&acl__pinned_count, 0);
  /* The parent's aliases are not mapped in the child (MADV_DONTFORK). */
  acl__mem_xlate_forget_all();
  acl__mem_reg_atfork_child();
  acl__mem_managed_atfork_child();
  acl__mem_fault_atfork_child();
  acl__vmm_atfork_child();
}

static void acl__mem_init_once(void) {
  long pg = sysconf(_SC_PAGESIZE);
  acl__page = pg > 0 ? (size_t)pg : 4096;
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++)
    pthread_mutex_init(&acl__spaces[i].lock, NULL);
  pthread_atfork(NULL, NULL, acl__mem_atfork_child);
  acl__mem_fault_install();
}

/* ---- open / reset / close ------------------------------------------------ */

int acl__mem_open(acl__device *d) {
  pthread_once(&acl__mem_once, acl__mem_init_once);
  if (d->id < 0 || d->id >= ACL__ENV_MAX_DEVICES)
    return ACL_ERROR_RT_INVALID_DEVICEID;
  struct acl__mem_space *sp = &acl__spaces[d->id];
  uint64_t capacity = d->props.memory_capacity;
  void *base = NULL;
  /* The backend reserves twice the capacity of address space (backend.h). */
  if (capacity == 0 || d->ops->mem_reserve(d->bdev, capacity, &base) != 0 || base == NULL) {
    ACL__LOGE(ACL__MOD_RUNTIME, "device %d: the %s backend could not reserve %llu bytes of device memory", (int)d->id,
              d->ops->name, (unsigned long long)capacity);
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  size_t span = (size_t)(capacity * 2) & ~(size_t)(ACL__ARENA_ALIGN - 1);
  pthread_mutex_lock(&sp->lock);
  if (acl__arena_init(&sp->arena, (uintptr_t)base, span, (size_t)capacity) != 0) {
    pthread_mutex_unlock(&sp->lock);
    return ACL_ERROR_BAD_ALLOC;
  }
  sp->open = 1;
  sp->stale = 0;
  sp->dev = d;
  sp->dev_id = d->id;
  sp->capacity = capacity;
  sp->serial = 0;
  /* Freed pages are kept up to a quarter of the capacity (16 MiB..1 GiB). */
  size_t budget = (size_t)(capacity / 4);
  sp->trim_budget = budget < ((size_t)16 << 20)  ? ((size_t)16 << 20)
                    : budget > ((size_t)1 << 30) ? ((size_t)1 << 30)
                                                 : budget;
  sp->n_usage = 0;
  atomic_store(&sp->opened, 0);
  void *alias = d->ops->mem_alias != NULL ? d->ops->mem_alias(d->bdev) : NULL;
  const char *mech = d->ops->mem_protection != NULL ? d->ops->mem_protection(d->bdev) : "off";
  sp->mech = mech;
  pthread_mutex_unlock(&sp->lock);
  atomic_store_explicit(&acl__ranges[d->id].span, 0, memory_order_release);
  atomic_store_explicit(&acl__ranges[d->id].base, (uintptr_t)base, memory_order_release);
  atomic_store_explicit(&acl__ranges[d->id].span, span, memory_order_release);
  acl__mem_xlate_region(d->id, (uintptr_t)base, span, (uintptr_t)alias);
  acl__mem_fault_region(d->id, (uintptr_t)base, span, mech, d->ops->thread_has_access);
  d->mem_base = base;
  d->mem = sp;
  acl__mem_share(d, sp);
  return 0;
}

/* Joins the device's registry when the backend made the region shareable
 * (device lock held).  A process configured with another capacity than the
 * processes already using the device keeps a private device. */
static void acl__mem_share(acl__device *d, struct acl__mem_space *sp) {
  int fd = d->ops->version >= 4 && d->ops->mem_fd != NULL ? d->ops->mem_fd(d->bdev) : -1;
  if (fd < 0 || !d->props.shareable)
    return;
  char why[256] = "";
  uint64_t cap = 0;
  /* the registry is the physical device's: processes that number devices
   * differently (ASCEND_RT_VISIBLE_DEVICES) still meet in it */
  acl__ds *ds = acl__ds_open(d->phys_id, sp->capacity, fd, &cap, why, sizeof(why));
  if (ds == NULL) {
    ACL__LOGW(ACL__MOD_RUNTIME,
              "device %d is private to this process: its registry cannot be used (%s); other processes cannot "
              "import its memory. Remedy: check /dev/shm, or set OPENACL_SHARED_DEVICE=0 to say so",
              (int)d->id, why);
    return;
  }
  if (cap != sp->capacity) {
    char path[96];
    acl__ds_path(d->phys_id, path, sizeof(path));
    ACL__LOGW(ACL__MOD_RUNTIME,
              "device %d is private to this process: the processes using it (%s) run it with %llu bytes of "
              "memory, this one asked for %llu (OPENACL_DEVICE_MEMORY). Remedy: give every process the same "
              "OPENACL_DEVICE_MEMORY, or another OPENACL_SHARED_DEVICE_NAME",
              (int)d->id, path, (unsigned long long)cap, (unsigned long long)sp->capacity);
    acl__ds_close(ds);
    return;
  }
  pthread_mutex_lock(&sp->lock);
  sp->ds = ds;
  pthread_mutex_unlock(&sp->lock);
}

/* Gives the pages of [addr, addr + len) back (space lock held; arg: the space). */
static void acl__mem_release_pages(uintptr_t addr, size_t len, void *arg) {
  struct acl__mem_space *sp = arg;
  acl__device *d = sp != NULL ? sp->dev : NULL;
  if (d != NULL && d->bdev != NULL && d->ops->mem_discard != NULL)
    d->ops->mem_discard(d->bdev, (void *)addr, len);
  else
    madvise((void *)addr, len, MADV_DONTNEED);
}

struct acl__leaks {
  size_t count, bytes;
  char list[512];
  size_t len;
};

static int acl__mem_leak_cb(acl__mblock *b, void *arg) {
  struct acl__leaks *l = arg;
  l->count++;
  l->bytes += b->requested;
  if (l->count <= 5 && l->len < sizeof(l->list)) {
    int n = snprintf(l->list + l->len, sizeof(l->list) - l->len, "%s%p (%zu bytes, %s from %s)",
                     l->count > 1 ? ", " : "", (void *)b->addr, b->requested, b->api ? b->api : "aclrtMalloc",
                     b->caller ? b->caller : "an unknown caller");
    if (n > 0)
      l->len += (size_t)n;
  }
  return 0;
}

void acl__mem_reset(acl__device *d) {
  struct acl__mem_space *sp = d->mem;
  if (sp == NULL)
    return;
  acl__vmm_reset(d->id);     /* mappings, reservations and physical memory (logged) */
  acl__mem_ipc_reset(d->id); /* imports first: their pages are another process's */
  struct acl__leaks leaks;
  memset(&leaks, 0, sizeof(leaks));
  pthread_mutex_lock(&sp->lock);
  if (sp->open) {
    acl__arena_foreach(&sp->arena, acl__mem_leak_cb, &leaks);
    if (sp->ds != NULL)
      acl__ds_uncharge(sp->ds, sp->arena.charged, 0);
    acl__arena_reset(&sp->arena);
    acl__mem_release_pages(sp->arena.base, sp->arena.span, sp);
    sp->n_usage = 0;
    if (atomic_exchange(&sp->opened, 0))
      mprotect((void *)sp->arena.base, sp->arena.span, PROT_NONE);
  }
  pthread_mutex_unlock(&sp->lock);
  if (leaks.count > 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "device %d was reset with %zu device allocation%s not freed (%zu bytes): %s%s. Free each "
              "aclrtMalloc with aclrtFree before aclrtResetDevice",
              (int)d->id, leaks.count, leaks.count == 1 ? "" : "s", leaks.bytes, leaks.list,
              leaks.count > 5 ? ", ..." : "");
}

void acl__mem_close(acl__device *d) {
  struct acl__mem_space *sp = d->mem;
  if (sp == NULL)
    return;
  atomic_store_explicit(&acl__ranges[sp->dev_id].span, 0, memory_order_release);
  acl__mem_xlate_region(sp->dev_id, 0, 0, 0);
  acl__mem_fault_region(sp->dev_id, 0, 0, NULL, NULL);
  pthread_mutex_lock(&sp->lock);
  if (sp->open) {
    acl__arena_foreach(&sp->arena, acl__mem_leak_cb, &(struct acl__leaks){0});
    acl__arena_fini(&sp->arena);
  }
  sp->open = 0;
  sp->dev = NULL;
  acl__ds *ds = sp->ds;
  sp->ds = NULL;
  pthread_mutex_unlock(&sp->lock);
  acl__ds_close(ds);
  d->mem = NULL;
  d->mem_base = NULL;
}

/* ---- lookups --------------------------------------------------------------- */

/* The id of the region holding p, or -1. */
static int acl__mem_region_of(uintptr_t p);
int acl__mem_region_id(uintptr_t a) { return acl__mem_region_of(a); }

static int acl__mem_region_of(uintptr_t p) {
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    size_t span = atomic_load_explicit(&acl__ranges[i].span, memory_order_acquire);
    if (span == 0)
      continue;
    uintptr_t base = atomic_load_explicit(&acl__ranges[i].base, memory_order_acquire);
    if (p >= base && p - base < span)
      return i;
  }
  return -1;
}

void acl__mem_classify(const void *p, acl__ptr_info *info) {
  memset(info, 0, sizeof(*info));
  uintptr_t a = acl__mem_view_of((uintptr_t)p);
  int r = a != 0 ? acl__mem_region_of(a) : -1;
  if (r >= 0) {
    struct acl__mem_space *sp = &acl__spaces[r];
    info->kind = ACL__PTR_DEVICE_UNALLOCATED;
    pthread_mutex_lock(&sp->lock);
    if (sp->open) {
      info->dev = sp->dev;
      acl__mblock *b = acl__arena_find(&sp->arena, a);
      if (b != NULL && b->vmm)
        acl__vmm_classify_locked(b, a, info);
      else if (b != NULL && a - b->addr >= b->uoff) {
        info->kind = ACL__PTR_DEVICE;
        info->alloc_base = (void *)(b->addr + b->uoff);
        info->alloc_size = b->requested;
        info->offset = a - b->addr - b->uoff;
      }
    }
    pthread_mutex_unlock(&sp->lock);
    return;
  }
  info->kind = ACL__PTR_HOST;
  if (a == 0)
    return;
  /* Registered memory first: a registration inside pinned memory is the
   * narrower range, and copies of registered memory should cost what
   * copies of pinned memory cost (one lookup each). */
  if (acl__mem_reg_classify(a, info))
    return;
  if (atomic_load_explicit(&acl__pinned_count, memory_order_acquire) != 0) {
    pthread_mutex_lock(&acl__pinned.lock);
    acl__mblock *b = acl__mtree_floor(acl__pinned.root, a);
    if (b != NULL && a - b->addr < b->size) {
      info->kind = ACL__PTR_PINNED_HOST;
      info->alloc_base = (void *)b->addr;
      info->alloc_size = b->requested;
      info->offset = a - b->addr;
    }
    pthread_mutex_unlock(&acl__pinned.lock);
    if (info->kind == ACL__PTR_PINNED_HOST)
      return;
  }
  if (acl__mem_managed_classify(a, info))
    return;
  memset(info, 0, sizeof(*info));
}

const char *acl__mem_protection(acl__device *d) {
  if (d == NULL || d->id < 0 || d->id >= ACL__ENV_MAX_DEVICES)
    return NULL;
  struct acl__mem_space *sp = &acl__spaces[d->id];
  pthread_mutex_lock(&sp->lock);
  const char *m = sp->open ? sp->mech : NULL;
  pthread_mutex_unlock(&sp->lock);
  return m;
}

acl__device *acl__mem_open_device(int32_t id) {
  if (id < 0 || id >= ACL__ENV_MAX_DEVICES)
    return NULL;
  struct acl__mem_space *sp = &acl__spaces[id];
  pthread_mutex_lock(&sp->lock);
  acl__device *d = sp->open ? sp->dev : NULL;
  pthread_mutex_unlock(&sp->lock);
  return d;
}

acl__device *acl__mem_owner(const void *p) {
  int r = p != NULL ? acl__mem_region_of((uintptr_t)p) : -1;
  if (r < 0)
    return NULL;
  struct acl__mem_space *sp = &acl__spaces[r];
  acl__device *d = NULL;
  pthread_mutex_lock(&sp->lock);
  if (sp->open && acl__arena_find(&sp->arena, (uintptr_t)p) != NULL)
    d = sp->dev;
  pthread_mutex_unlock(&sp->lock);
  return d;
}

uint32_t acl__mem_page_size(const void *p) {
  uint32_t page = (uint32_t)(acl__page ? acl__page : 4096);
  int r = p != NULL ? acl__mem_region_of((uintptr_t)p) : -1;
  if (r < 0)
    return page;
  struct acl__mem_space *sp = &acl__spaces[r];
  pthread_mutex_lock(&sp->lock);
  acl__mblock *b = sp->open ? acl__arena_find(&sp->arena, (uintptr_t)p) : NULL;
  if (b != NULL && b->vmm) {
    page = acl__vmm_page_size_locked(b, (uintptr_t)p, page);
  } else if (b != NULL) {
    uint32_t pol = b->policy & 0xffu;
    if (pol == ACL_MEM_MALLOC_HUGE1G_ONLY || pol == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P)
      page = 1u << 30;
    else if (pol == ACL_MEM_MALLOC_HUGE_ONLY || pol == ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
             ((pol == ACL_MEM_MALLOC_HUGE_FIRST || pol == ACL_MEM_MALLOC_HUGE_FIRST_P2P) &&
              b->requested > ((size_t)1 << 20)))
      page = 2u << 20;
  }
  pthread_mutex_unlock(&sp->lock);
  return page;
}

void acl__mem_info(acl__device *d, size_t *free_bytes, size_t *total_bytes) {
  struct acl__mem_space *sp = &acl__spaces[d->id];
  pthread_mutex_lock(&sp->lock);
  if (sp->open) {
    *total_bytes = (size_t)sp->capacity;
    uint64_t used = sp->ds != NULL ? acl__ds_in_use(sp->ds) : sp->arena.charged;
    *free_bytes = used < sp->capacity ? (size_t)(sp->capacity - used) : 0;
  } else {
    *total_bytes = *free_bytes = 0;
  }
  pthread_mutex_unlock(&sp->lock);
}

/* ---- device allocations ------------------------------------------------------ */

/* The usage entry of `module` (space lock held); NULL when the table is full. */
static acl__mem_usage *acl__mem_usage_of(struct acl__mem_space *sp, uint16_t module) {
  for (size_t i = 0; i < sp->n_usage; i++)
    if (sp->usage[i].module == module)
      return &sp->usage[i];
  if (sp->n_usage == ACL__MEM_USAGE_MAX)
    return NULL;
  acl__mem_usage *u = &sp->usage[sp->n_usage++];
  memset(u, 0, sizeof(*u));
  u->module = module;
  return u;
}

size_t acl__mem_usage_get(acl__device *d, acl__mem_usage *out, size_t max) {
  if (d == NULL || d->id < 0 || d->id >= ACL__ENV_MAX_DEVICES)
    return 0;
  struct acl__mem_space *sp = &acl__spaces[d->id];
  pthread_mutex_lock(&sp->lock);
  size_t n = sp->open ? sp->n_usage : 0;
  for (size_t i = 0; i < n && i < max; i++)
    out[i] = sp->usage[i];
  pthread_mutex_unlock(&sp->lock);
  return n;
}

int acl__mem_alloc(const char *api, acl__device *d, size_t requested, size_t charged, uint32_t policy,
                   uint16_t module, const void *ra, void **out) {
  struct acl__mem_space *sp = &acl__spaces[d->id];
  const char *caller = acl__mem_caller_name(ra);
  const char *api_name = api; /* the caller's __func__: static, so the fault handler may print it */
  acl__mblock *b = NULL;
  pthread_mutex_lock(&sp->lock);
  if (!sp->open) {
    pthread_mutex_unlock(&sp->lock);
    return acl__fail(api, ACL_ERROR_RT_CONTEXT_NULL, __FILE__, __LINE__,
                     "device %d is not open (it was reset). Remedy: call aclrtSetDevice(%d) first", (int)d->id,
                     (int)d->id);
  }
  uint64_t all_in_use = 0;
  if (sp->ds != NULL && acl__ds_charge(sp->ds, charged, sp->arena.charged + charged, &all_in_use) != 0) {
    uint64_t cap = sp->capacity;
    size_t mine = sp->arena.charged;
    pthread_mutex_unlock(&sp->lock);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "device %d is out of memory: %zu bytes were requested (%zu with the vendor's padding), "
                     "%llu of its %llu bytes are in use by all processes sharing it (%zu by this one). Remedy: "
                     "free memory you no longer need (aclrtFree), see who holds it with 'openacl devices', or "
                     "give the simulated device more with OPENACL_DEVICE_MEMORY",
                     (int)d->id, requested, charged, (unsigned long long)all_in_use, (unsigned long long)cap, mine);
  }
  int r = acl__arena_alloc(&sp->arena, charged, charged, &b);
  if (r != 0 && sp->ds != NULL)
    acl__ds_uncharge(sp->ds, charged, sp->arena.charged);
  if (r != 0) {
    size_t in_use = sp->arena.charged, largest = acl__arena_largest_free(&sp->arena);
    uint64_t cap = sp->capacity;
    pthread_mutex_unlock(&sp->lock);
    if (r == ACL__ARENA_OVER_CAPACITY)
      return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                       "device %d is out of memory: %zu bytes were requested (%zu with the vendor's padding), "
                       "%zu of its %llu bytes are in use, %llu are free. Remedy: free memory you no longer need "
                       "(aclrtFree), or give the simulated device more with OPENACL_DEVICE_MEMORY",
                       (int)d->id, requested, charged, in_use, (unsigned long long)cap,
                       (unsigned long long)(cap - in_use));
    if (r == ACL__ARENA_NO_RANGE)
      return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                       "device %d has %llu of its %llu bytes free, but its memory is too fragmented for %zu "
                       "contiguous bytes (%zu requested; the largest free range is %zu bytes). Remedy: free "
                       "memory you no longer need, allocate large buffers first, or raise OPENACL_DEVICE_MEMORY",
                       (int)d->id, (unsigned long long)(cap - in_use), (unsigned long long)cap, charged, requested,
                       largest);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory for the bookkeeping of a device allocation");
  }
  b->requested = requested;
  b->policy = policy;
  b->module = module;
  b->api = api_name;
  b->caller = caller;
  b->serial = ++sp->serial;
  acl__mem_usage *u = acl__mem_usage_of(sp, module);
  if (u != NULL) {
    u->cur += charged;
    if (u->cur > u->peak)
      u->peak = u->cur;
  }
  pthread_mutex_unlock(&sp->lock);
  *out = (void *)b->addr;
  return 0;
}

int acl__mem_charge_locked(const char *api, struct acl__mem_space *sp, size_t bytes, size_t requested) {
  uint64_t all_in_use = 0;
  if (bytes > sp->arena.capacity - sp->arena.charged ||
      (sp->ds != NULL && acl__ds_charge(sp->ds, bytes, sp->arena.charged + bytes, &all_in_use) != 0)) {
    uint64_t in_use = sp->ds != NULL ? acl__ds_in_use(sp->ds) : sp->arena.charged;
    (void)all_in_use;
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "device %d is out of memory: %zu bytes of physical memory were requested (%zu with the "
                     "granularity), %llu of its %llu bytes are in use%s (%zu by this process). Remedy: free "
                     "memory you no longer need (aclrtFreePhysical, aclrtFree), or give the simulated device more "
                     "with OPENACL_DEVICE_MEMORY",
                     (int)sp->dev_id, requested, bytes, (unsigned long long)in_use,
                     (unsigned long long)sp->capacity, sp->ds != NULL ? " by all processes sharing it" : "",
                     sp->arena.charged);
  }
  sp->arena.charged += bytes;
  if (sp->arena.charged > sp->arena.peak_charged)
    sp->arena.peak_charged = sp->arena.charged;
  acl__mem_usage *u = acl__mem_usage_of(sp, ACL__MEM_MODULE_APP);
  if (u != NULL) {
    u->cur += bytes;
    if (u->cur > u->peak)
      u->peak = u->cur;
  }
  return 0;
}

void acl__mem_uncharge_locked(struct acl__mem_space *sp, size_t bytes, int keep_in_use) {
  if (bytes > sp->arena.charged)
    bytes = sp->arena.charged;
  sp->arena.charged -= bytes;
  acl__mem_usage *u = acl__mem_usage_of(sp, ACL__MEM_MODULE_APP);
  if (u != NULL)
    u->cur -= u->cur >= bytes ? bytes : u->cur;
  if (sp->ds != NULL)
    acl__ds_uncharge(sp->ds, keep_in_use ? 0 : bytes, sp->arena.charged);
}

int acl__mem_free(const char *api, void *p) {
  uintptr_t a = (uintptr_t)p;
  int r = acl__mem_region_of(a);
  if (r < 0) {
    int rc = 0;
    if (acl__mem_managed_free(api, p, &rc))
      return 0;
    if (rc != 0)
      return rc;
    acl__ptr_info info;
    acl__mem_classify(p, &info);
    if (info.kind == ACL__PTR_PINNED_HOST)
      return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                       "%p is pinned host memory from aclrtMallocHost, not device memory. Remedy: free it with "
                       "aclrtFreeHost",
                       p);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p is not device memory: it lies in no device's memory region (a host pointer, or one "
                     "from another library)",
                     p);
  }
  struct acl__mem_space *sp = &acl__spaces[r];
  pthread_mutex_lock(&sp->lock);
  if (!sp->open) {
    int stale = sp->stale;
    pthread_mutex_unlock(&sp->lock);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p belongs to device %d's memory, which was %s", p, r,
                     stale ? "the parent process's (memory is not inherited across fork)"
                           : "released when the device was reset; the allocation no longer exists");
  }
  acl__mblock *b = acl__arena_find(&sp->arena, a);
  if (b != NULL && b->vmm) {
    uintptr_t start = b->addr;
    size_t len = b->requested;
    pthread_mutex_unlock(&sp->lock);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p is in the virtual address range of %zu bytes at %p reserved with aclrtReserveMemAddress, "
                     "which aclrtFree does not free. Remedy: aclrtUnmapMem each mapping, aclrtFreePhysical the "
                     "physical memory, then aclrtReleaseMemAddress(%p)",
                     p, len, (void *)start, (void *)start);
  }
  if (b != NULL && b->owner != NULL && b->addr + b->uoff == a) { /* an IPC import: aclrtFree closes it */
    pthread_mutex_unlock(&sp->lock);
    return acl__mem_import_close_at(api, p);
  }
  if (b == NULL && acl__mem_import_was_closed(p)) {
    pthread_mutex_unlock(&sp->lock);
    return 0; /* the vendor's samples free an imported pointer after aclrtIpcMemClose */
  }
  if (b == NULL || b->addr != a) {
    size_t off = b ? (size_t)(a - b->addr) : 0, req = b ? b->requested : 0;
    uintptr_t start = b ? b->addr : 0;
    pthread_mutex_unlock(&sp->lock);
    if (b == NULL)
      return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                       "%p is in device %d's memory but not in a live allocation: it was freed already "
                       "(double free?) or never allocated",
                       p, r);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p is %zu bytes into the %zu-byte allocation at %p on device %d, not its start. Remedy: "
                     "pass aclrtFree the pointer aclrtMalloc returned",
                     p, off, req, (void *)start, r);
  }
  acl__mem_usage *u = acl__mem_usage_of(sp, b->module);
  if (u != NULL)
    u->cur -= u->cur >= b->charged ? b->charged : u->cur;
  if (atomic_load_explicit(&sp->opened, memory_order_acquire)) {
    /* Close what device code opened (a neighbour sharing an edge page that
     * is still in use faults again and is opened again). */
    uintptr_t lo = b->addr & ~(uintptr_t)(acl__page - 1);
    uintptr_t hi = (b->addr + b->size + acl__page - 1) & ~(uintptr_t)(acl__page - 1);
    mprotect((void *)lo, hi - lo, PROT_NONE);
  }
  if (sp->ds != NULL) {
    acl__ds_uncharge(sp->ds, b->charged, sp->arena.charged - b->charged);
    if (b->exported) {
      int keys = acl__ds_export_drop_range(sp->ds, b->addr - sp->arena.base, b->size);
      if (keys > 0)
        ACL__LOGW(ACL__MOD_RUNTIME,
                  "%s: %p was freed with %d IPC key%s still open (aclrtIpcMemGetExportKey); the key%s no longer "
                  "import%s, and a process that imported it sees whatever is allocated there next. Remedy: "
                  "wait for the importers, aclrtIpcMemClose the key, then free",
                  api, p, keys, keys == 1 ? "" : "s", keys == 1 ? "" : "s", keys == 1 ? "s" : "");
    }
  }
  acl__arena_free(&sp->arena, b);
  if (acl__arena_dirty(&sp->arena) > sp->trim_budget)
    acl__arena_trim(&sp->arena, acl__page, acl__mem_release_pages, sp);
  pthread_mutex_unlock(&sp->lock);
  return 0;
}

/* ---- pinned host memory --------------------------------------------------------- */

int acl__mem_host_alloc(const char *api, size_t size, const void *ra, void **out) {
  pthread_once(&acl__mem_once, acl__mem_init_once);
  size_t page = acl__page;
  if (size > SIZE_MAX - page)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "size %zu is too large", size);
  size_t rounded = (size + page - 1) & ~(page - 1);
  acl__mblock *n = calloc(1, sizeof(*n));
  void *p = n != NULL ? aligned_alloc(page, rounded) : NULL;
  if (p == NULL) {
    free(n);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "the host has no %zu bytes of memory left for pinned memory", size);
  }
  n->addr = (uintptr_t)p;
  n->size = rounded;
  n->requested = size;
  n->api = "aclrtMallocHost";
  n->caller = acl__mem_caller_name(ra);
  pthread_mutex_lock(&acl__pinned.lock);
  acl__pinned.root = acl__mtree_insert(acl__pinned.root, n, &acl__pinned.rng);
  acl__pinned.count++;
  acl__pinned.bytes += size;
  atomic_fetch_add(&acl__pinned_count, 1);
  pthread_mutex_unlock(&acl__pinned.lock);
  *out = p;
  return 0;
}

int acl__mem_host_free(const char *api, void *p) {
  uintptr_t a = (uintptr_t)p;
  pthread_mutex_lock(&acl__pinned.lock);
  acl__mblock *b = acl__mtree_floor(acl__pinned.root, a);
  if (b != NULL && b->addr == a) {
    acl__mem_reg_drop_range((void *)b->addr, b->size); /* a leaf lock under the pinned one */
    acl__pinned.root = acl__mtree_erase(acl__pinned.root, a);
    acl__pinned.count--;
    acl__pinned.bytes -= b->requested;
    atomic_fetch_sub(&acl__pinned_count, 1);
    pthread_mutex_unlock(&acl__pinned.lock);
    free((void *)b->addr);
    free(b);
    return 0;
  }
  size_t off = b != NULL && a - b->addr < b->size ? (size_t)(a - b->addr) : 0;
  size_t req = off ? b->requested : 0;
  uintptr_t start = off ? b->addr : 0;
  pthread_mutex_unlock(&acl__pinned.lock);
  if (off != 0)
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p is %zu bytes into the %zu-byte pinned allocation at %p, not its start", p, off, req,
                     (void *)start);
  if (acl__mem_region_of(a) >= 0)
    return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                     "%p is device memory, not pinned host memory. Remedy: free it with aclrtFree", p);
  return acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                   "%p was not returned by aclrtMallocHost, or was freed already", p);
}

int acl__mem_fault_describe(int dev, uintptr_t a, uintptr_t *addr, size_t *size, const char **api,
                            const char **caller) {
  if (dev < 0 || dev >= ACL__ENV_MAX_DEVICES)
    return 0;
  struct acl__mem_space *sp = &acl__spaces[dev];
  acl__mblock *b = acl__mtree_floor(sp->arena.root, a);
  if (b == NULL || b->is_free || a - b->addr >= b->size)
    return 0;
  *addr = b->addr + b->uoff;
  *size = b->requested;
  *api = b->api;
  *caller = b->caller;
  return 1;
}

int acl__mem_fault_open(int dev, uintptr_t a, uintptr_t *lo_out, uintptr_t *hi_out) {
  /* Signal handler: no lock.  The block is read best effort, as above. */
  if (dev < 0 || dev >= ACL__ENV_MAX_DEVICES)
    return 0;
  struct acl__mem_space *sp = &acl__spaces[dev];
  acl__mblock *b = acl__mtree_floor(sp->arena.root, a);
  if (b == NULL || b->is_free || a - b->addr >= b->size)
    return 0;
  uintptr_t page = acl__page ? acl__page : 4096;
  uintptr_t lo = b->addr & ~(page - 1), hi = (b->addr + b->size + page - 1) & ~(page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return 0;
  atomic_store_explicit(&sp->opened, 1, memory_order_release);
  *lo_out = lo;
  *hi_out = hi;
  return 1;
}
