/*
 * host_register.c - registered host memory (aclrtHostRegister,
 * aclrtHostRegisterV2, aclrtHostGetDevicePointer, aclrtHostUnregister;
 * docs/memory.md "Registered host memory").
 *
 * A registration makes a host range page-locked (ACL_HOST_REG_PINNED: copies
 * from and to it are asynchronous, as with aclrtMallocHost memory) and/or
 * mapped for the device (ACL_HOST_REG_MAPPED).  A mapped range gets a
 * device-side address, as on an Ascend card where the device reaches host
 * memory through its own virtual addresses: host code cannot use that
 * address, device code can.  The device-side addresses are carved out of one
 * window of reserved address space with no access (PROT_NONE), sub-allocated
 * with the device allocator (mem_alloc.c):
 *   - a host access to the window faults, and mem_fault.c explains it;
 *   - device code reaches the host pages behind it through the translation
 *     of mem_xlate.c (acl__mem_reg_translate), which the runtime applies to
 *     kernel arguments;
 *   - copies refuse the device-side address (the vendor forbids it).
 * The window is reserved at the first mapped registration and kept for the
 * life of the process (a stale device-side address keeps faulting).
 *
 * Lock: acl__reg.lock guards both trees and the window's arena; it is a
 * leaf.  acl__reg_count lets lookups of other host pointers skip it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/mem_alloc.h"
#include "rt/mem_fault.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"

typedef struct acl__hostreg {
  acl__mblock host;  /* first: tree node keyed by the host address; size = bytes registered */
  acl__mblock *win;  /* the window block of a mapped registration, else NULL */
  uintptr_t dbase;   /* the device-side address of host.addr */
  uint32_t flags;    /* ACL_HOST_REG_* */
  int32_t dev_id;    /* the current device when it was registered */
  uint32_t gen;      /* acl__reg_gen when made: the parent's, in a forked child, are dead */
} acl__hostreg;

static struct {
  pthread_mutex_t lock; /* guards every field below */
  acl__mblock *root;    /* registrations by host address */
  uint32_t rng;
  acl__arena win;       /* device-side addresses */
  int win_ready;
} acl__reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0x9e3779b9u, {0}, 0};

static atomic_size_t acl__reg_count; /* live registrations */
static uint32_t acl__reg_gen;        /* bumped in a forked child (registration lock) */
static atomic_uintptr_t acl__reg_wbase;
static atomic_size_t acl__reg_wspan;

static size_t acl__reg_page(void) {
  long pg = sysconf(_SC_PAGESIZE);
  return pg > 0 ? (size_t)pg : 4096;
}

int acl__mem_reg_window_active(void) { return atomic_load(&acl__reg_wspan) != 0; }

/* Reserves the window (lock held).  0, or -1 when no address space is left. */
static int acl__reg_window_locked(void) {
  if (acl__reg.win_ready)
    return 0;
  /* Address space only (no access, nothing committed): 256 GiB of device-side
   * addresses, less where the address space is limited. */
  for (size_t span = (size_t)256 << 30; span >= ((size_t)1 << 30); span /= 2) {
    void *p = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      continue;
    if (acl__arena_init(&acl__reg.win, (uintptr_t)p, span, span) != 0) {
      munmap(p, span);
      return -1;
    }
    acl__reg.win_ready = 1;
    atomic_store(&acl__reg_wbase, (uintptr_t)p);
    atomic_store(&acl__reg_wspan, span);
    acl__mem_fault_install();
    acl__mem_fault_window((uintptr_t)p, span);
    atomic_fetch_add(&acl__mem_xlate_active, 1); /* kernel arguments are scanned from now on */
    return 0;
  }
  return -1;
}

/* The registration holding host address a (lock held), or NULL. */
static acl__hostreg *acl__reg_find_host_locked(uintptr_t a) {
  acl__mblock *b = acl__mtree_floor(acl__reg.root, a);
  if (b != NULL && a - b->addr < b->size)
    return (acl__hostreg *)b;
  return NULL;
}

/* The first registration overlapping [lo, hi) (lock held), or NULL. */
static acl__hostreg *acl__reg_overlap_locked(uintptr_t lo, uintptr_t hi) {
  acl__hostreg *r = acl__reg_find_host_locked(lo);
  if (r != NULL)
    return r;
  acl__mblock *b = acl__mtree_floor(acl__reg.root, hi - 1);
  if (b != NULL && b->addr >= lo && b->addr < hi)
    return (acl__hostreg *)b;
  return NULL;
}

int acl__mem_reg_add(const char *api, acl__device *d, void *p, uint64_t size, uint32_t flags, const void *ra,
                     void **dev_out) {
  uintptr_t lo = (uintptr_t)p;
  if (size > UINTPTR_MAX - lo)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p plus size %llu runs past the end of the address space", p, (unsigned long long)size);
  uintptr_t hi = lo + (uintptr_t)size;
  acl__ptr_info a, z;
  acl__mem_classify(p, &a);
  acl__mem_classify((void *)(hi - 1), &z);
  if (a.kind == ACL__PTR_DEVICE || a.kind == ACL__PTR_DEVICE_UNALLOCATED || z.kind == ACL__PTR_DEVICE ||
      z.kind == ACL__PTR_DEVICE_UNALLOCATED || a.kind == ACL__PTR_MANAGED || z.kind == ACL__PTR_MANAGED ||
      a.kind == ACL__PTR_REGISTERED_DEVICE || z.kind == ACL__PTR_REGISTERED_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "[%p, +%llu) is not host memory: it is %s. Remedy: register host memory (malloc, mmap or "
                     "aclrtMallocHost)",
                     p, (unsigned long long)size,
                     a.kind == ACL__PTR_MANAGED || z.kind == ACL__PTR_MANAGED ? "managed memory (aclrtMemAllocManaged)"
                     : a.kind == ACL__PTR_REGISTERED_DEVICE || z.kind == ACL__PTR_REGISTERED_DEVICE
                         ? "the device-side address of registered host memory"
                         : "device memory");
  if ((flags & ACL_HOST_REG_PINNED) && a.kind == ACL__PTR_PINNED_HOST)
    return acl__fail(api, ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, __FILE__, __LINE__,
                     "%p is aclrtMallocHost memory, which is page-locked already: ACL_HOST_REG_PINNED is for "
                     "ordinary (malloc, mmap) memory. Remedy: register it with ACL_HOST_REG_MAPPED only",
                     p);
  /* The whole range must be mapped: msync fails with ENOMEM on a hole. */
  size_t page = acl__reg_page();
  uintptr_t plo = lo & ~(uintptr_t)(page - 1), phi = (hi + page - 1) & ~(uintptr_t)(page - 1);
  if (msync((void *)plo, phi - plo, MS_ASYNC) != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "[%p, +%llu) is not all mapped host memory (%s). Remedy: register memory the process "
                     "allocated, with its true size",
                     p, (unsigned long long)size, strerror(errno));
  acl__hostreg *r = calloc(1, sizeof(*r));
  if (r == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a registration");
  r->host.addr = lo;
  r->host.size = (size_t)size;
  r->host.requested = (size_t)size;
  r->host.api = api;
  r->host.caller = acl__mem_caller_name(ra);
  r->flags = flags;
  r->dev_id = d->id;
  r->gen = acl__reg_gen;
  int rc = 0;
  pthread_mutex_lock(&acl__reg.lock);
  acl__hostreg *o = acl__reg_overlap_locked(lo, hi);
  if (o != NULL) {
    uintptr_t oa = o->host.addr;
    size_t os = o->host.size;
    const char *oapi = o->host.api;
    pthread_mutex_unlock(&acl__reg.lock);
    free(r);
    return acl__fail(api, ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, __FILE__, __LINE__,
                     "[%p, +%llu) overlaps the %zu-byte range at %p registered already (%s). Remedy: unregister it "
                     "first (aclrtHostUnregister), or register each range once",
                     p, (unsigned long long)size, os, (void *)oa, oapi);
  }
  if (flags & ACL_HOST_REG_MAPPED) {
    acl__mblock *b = NULL;
    size_t need = (size_t)size + 2 * page;
    if (acl__reg_window_locked() != 0 || acl__arena_alloc(&acl__reg.win, need, need, &b) != 0) {
      pthread_mutex_unlock(&acl__reg.lock);
      free(r);
      return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                       "no device-side addresses are left for %llu more bytes of registered host memory. Remedy: "
                       "unregister ranges you no longer need",
                       (unsigned long long)size);
    }
    b->owner = r;
    b->requested = (size_t)size;
    b->api = api;
    b->caller = r->host.caller;
    r->win = b;
    /* Same offset in the page as the host address: alignment carries over. */
    r->dbase = ((b->addr + page - 1) & ~(uintptr_t)(page - 1)) + (lo & (page - 1));
  }
  acl__reg.root = acl__mtree_insert(acl__reg.root, &r->host, &acl__reg.rng);
  atomic_fetch_add(&acl__reg_count, 1);
  if (dev_out != NULL)
    *dev_out = r->win != NULL ? (void *)r->dbase : NULL;
  pthread_mutex_unlock(&acl__reg.lock);
  return rc;
}

/* Removes r (lock held) and frees it. */
static void acl__reg_drop_locked(acl__hostreg *r) {
  acl__reg.root = acl__mtree_erase(acl__reg.root, r->host.addr);
  if (r->win != NULL) {
    r->win->owner = NULL;
    acl__arena_free(&acl__reg.win, r->win);
  }
  atomic_fetch_sub(&acl__reg_count, 1);
  free(r);
}

int acl__mem_reg_remove(const char *api, void *p) {
  uintptr_t a = (uintptr_t)p;
  pthread_mutex_lock(&acl__reg.lock);
  acl__hostreg *r = acl__reg_find_host_locked(a);
  if (r != NULL && r->host.addr == a) {
    acl__reg_drop_locked(r);
    pthread_mutex_unlock(&acl__reg.lock);
    return 0;
  }
  uintptr_t start = r != NULL ? r->host.addr : 0;
  size_t size = r != NULL ? r->host.size : 0;
  pthread_mutex_unlock(&acl__reg.lock);
  if (r != NULL)
    return acl__fail(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __FILE__, __LINE__,
                     "%p is %zu bytes into the %zu-byte range registered at %p, not its start. Remedy: pass the "
                     "pointer that was registered",
                     p, (size_t)(a - start), size, (void *)start);
  acl__ptr_info in;
  acl__mem_classify(p, &in);
  if (in.kind == ACL__PTR_REGISTERED_DEVICE)
    return acl__fail(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __FILE__, __LINE__,
                     "%p is a device-side address of registered host memory, not the host pointer that was "
                     "registered. Remedy: pass the host pointer",
                     p);
  return acl__fail(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __FILE__, __LINE__,
                   "%p is not registered (never, or unregistered already). Remedy: register it with "
                   "aclrtHostRegister or aclrtHostRegisterV2 first",
                   p);
}

int acl__mem_reg_dev_pointer(const char *api, void *p, void **dev_out) {
  uintptr_t a = (uintptr_t)p;
  pthread_mutex_lock(&acl__reg.lock);
  acl__hostreg *r = atomic_load(&acl__reg_count) != 0 ? acl__reg_find_host_locked(a) : NULL;
  int mapped = r != NULL && r->win != NULL;
  uintptr_t d = mapped ? r->dbase + (a - r->host.addr) : 0;
  uintptr_t start = r != NULL ? r->host.addr : 0;
  pthread_mutex_unlock(&acl__reg.lock);
  if (r == NULL)
    return acl__fail(api, ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, __FILE__, __LINE__,
                     "%p is not inside registered host memory. Remedy: register it first with aclrtHostRegisterV2 "
                     "(ACL_HOST_REG_MAPPED)",
                     p);
  if (!mapped)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p is inside the range registered at %p without ACL_HOST_REG_MAPPED (page-locked only), which "
                     "has no device-side address. Remedy: register it with ACL_HOST_REG_MAPPED",
                     p, (void *)start);
  *dev_out = (void *)d;
  return 0;
}

int acl__mem_reg_classify(uintptr_t a, acl__ptr_info *info) {
  size_t wspan = atomic_load_explicit(&acl__reg_wspan, memory_order_acquire);
  int in_window = wspan != 0 && a - atomic_load_explicit(&acl__reg_wbase, memory_order_relaxed) < wspan;
  if (!in_window && atomic_load_explicit(&acl__reg_count, memory_order_acquire) == 0)
    return 0;
  memset(info, 0, sizeof(*info));
  int32_t dev_id = -1;
  pthread_mutex_lock(&acl__reg.lock);
  if (in_window) {
    info->kind = ACL__PTR_REGISTERED_DEVICE;
    acl__mblock *b = acl__arena_find(&acl__reg.win, a);
    acl__hostreg *r = b != NULL ? b->owner : NULL;
    if (r != NULL && r->gen == acl__reg_gen && a >= r->dbase && a - r->dbase < r->host.size) {
      dev_id = r->dev_id;
      info->alloc_base = (void *)r->dbase;
      info->alloc_size = r->host.size;
      info->offset = a - r->dbase;
    }
  } else {
    acl__hostreg *r = acl__reg_find_host_locked(a);
    if (r != NULL) {
      info->kind = ACL__PTR_REGISTERED_HOST; /* dev stays NULL: a host pointer, not a device one */
      info->alloc_base = (void *)r->host.addr;
      info->alloc_size = r->host.size;
      info->offset = a - r->host.addr;
    }
  }
  pthread_mutex_unlock(&acl__reg.lock);
  if (dev_id >= 0)
    info->dev = acl__mem_open_device(dev_id);
  return info->kind != ACL__PTR_HOST;
}

int acl__mem_reg_translate(uintptr_t a, uintptr_t *host) {
  size_t wspan = atomic_load_explicit(&acl__reg_wspan, memory_order_acquire);
  if (wspan == 0 || a - atomic_load_explicit(&acl__reg_wbase, memory_order_relaxed) >= wspan)
    return 0;
  int found = 0;
  pthread_mutex_lock(&acl__reg.lock);
  acl__mblock *b = acl__arena_find(&acl__reg.win, a);
  acl__hostreg *r = b != NULL ? b->owner : NULL;
  if (r != NULL && r->gen == acl__reg_gen) {
    /* Any address of the block maps to the same place in the host pages
     * (the slack before dbase and after the end lies in the same pages). */
    *host = r->host.addr + (a - r->dbase);
    found = 1;
  }
  pthread_mutex_unlock(&acl__reg.lock);
  return found;
}

void acl__mem_reg_drop_range(void *p, size_t size) {
  if (atomic_load(&acl__reg_count) == 0)
    return;
  uintptr_t lo = (uintptr_t)p, hi = lo + size;
  int dropped = 0;
  pthread_mutex_lock(&acl__reg.lock);
  for (acl__hostreg *r; (r = acl__reg_overlap_locked(lo, hi)) != NULL; dropped++)
    acl__reg_drop_locked(r);
  pthread_mutex_unlock(&acl__reg.lock);
  if (dropped > 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "%d registration%s inside the pinned memory at %p freed with aclrtFreeHost %s dropped. Call "
              "aclrtHostUnregister before aclrtFreeHost",
              dropped, dropped == 1 ? "" : "s", p, dropped == 1 ? "was" : "were");
}

int acl__mem_reg_fault_describe(uintptr_t a, uintptr_t *dev_base, uintptr_t *host, size_t *size, const char **api,
                                const char **caller) {
  if (!acl__reg.win_ready)
    return 0;
  acl__mblock *b = acl__mtree_floor(acl__reg.win.root, a);
  if (b == NULL || b->is_free || a - b->addr >= b->size)
    return 0;
  acl__hostreg *r = b->owner;
  if (r == NULL)
    return 0;
  *dev_base = r->dbase;
  *host = r->host.addr;
  *size = r->host.size;
  *api = r->host.api;
  *caller = r->host.caller;
  return 1;
}

void acl__mem_reg_atfork_child(void) {
  /* The parent's registrations are not the child's (the vendor's driver
   * does not carry them across fork either): the host tree is forgotten
   * (its nodes leak, as the pinned ones do).  The window keeps their
   * device-side addresses allocated, so they still fault and the fault
   * handler can still say whose they were; translation finds no owner
   * through the host tree any more. */
  pthread_mutex_init(&acl__reg.lock, NULL);
  acl__reg.root = NULL;
  acl__reg_gen++;
  atomic_store(&acl__reg_count, 0);
}
