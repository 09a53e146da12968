/*
 * vmm.c - virtual memory management and shareable physical-memory handles
 * (vmm.h, docs/processes.md "Virtual memory and shareable handles").
 *
 * A reservation (aclrtReserveMemAddress) is a block of the device's arena
 * charged nothing, marked `vmm` with its record as owner: its addresses
 * are the device's, so everything that knows device memory - the pointer
 * classification, the translation for device code (alias), the host-access
 * trap, the fault report - knows them too.  A physical allocation
 * (aclrtMallocPhysical) is a memfd of its own, charged against the
 * device's capacity (shared between processes through the registry).
 * aclrtMapMem maps the memfd over part of a reservation with the backend's
 * mem_map_shared, under the device's protection; aclrtUnmapMem puts the
 * device's own memory back.  The classification sees a mapping that grants
 * access as device memory (a run of adjacent accessible mappings is one
 * range for copies), a reserved address with nothing usable mapped as
 * device memory in no allocation, which copies refuse with a message that
 * says which call is missing.
 *
 * A shareable handle puts the memfd in the registry; an importer opens it
 * through /proc/<exporter>/fd/<fd> (devshare.c) and keeps its own
 * descriptor, so the pages live until every process freed its handle.
 *
 * Locks, in order: acl__vmm.lock (this file's: the handle tree and lists,
 * every field of handles and reservations) -> a space lock (memory.c: the
 * arena, and the mapping arrays, which the classification reads under the
 * space lock alone) -> the registry's lock (devshare.c).  Nothing here is
 * called with a space lock held except the two *_locked hooks, which take
 * no lock.
 */
#include "rt/vmm.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/env.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "rt/device.h"
#include "rt/devshare.h"
#include "rt/mem_fault.h"
#include "rt/mem_internal.h"
#include "rt/mem_space.h"

#define ACL__VMM_2M ((size_t)2 << 20)
#define ACL__VMM_1G ((size_t)1 << 30)

typedef struct acl__vmm_phys acl__vmm_phys;
typedef struct acl__vmm_resv acl__vmm_resv;

/* One physical allocation of this process (an aclrtDrvMemHandle). */
struct acl__vmm_phys {
  acl__mblock node; /* node.addr: the handle's value, in acl__vmm.root */
  acl__vmm_phys *prev, *next;
  int fd;               /* the memfd holding the pages */
  size_t size, gran;    /* bytes (a multiple of gran) */
  int attr, page, p2p;  /* the aclrtMemAttr asked for, its page kind, P2P */
  aclrtMemLocation loc; /* as asked for (imports: the importing device) */
  uint64_t reserve;
  int32_t dev;     /* charged to it (device memory) or freed with it (host memory) */
  int32_t reg_dev; /* imports: the device whose registry holds the handle */
  size_t charged;  /* bytes charged against dev's capacity (0: host memory, imports) */
  uint32_t refs;   /* MallocPhysical / Import + Retain - FreePhysical; 0: freed, waits for unmaps */
  uint32_t maps;   /* live mappings */
  uint64_t share;  /* the shareable handle it was exported as (imported: imported from), 0 none */
  int imported;
  const char *caller; /* the call site, for the reset report */
};

/* One mapping in a reservation. */
typedef struct acl__vmm_mrec {
  uintptr_t addr;
  size_t size;
  acl__vmm_phys *phys;
  uint64_t dev_rw; /* devices granted ACL_RT_MEM_ACCESS_FLAGS_READWRITE (bit = device id) */
  int host_rw;
} acl__vmm_mrec;

/* One reserved address range (the arena block b's owner). */
struct acl__vmm_resv {
  acl__vmm_resv *prev, *next;
  int32_t dev;
  uintptr_t base;
  size_t size;
  acl__mblock *b;
  acl__vmm_mrec *maps; /* sorted by address; written under both locks */
  size_t n, cap;
};

static struct {
  pthread_mutex_t lock;
  acl__mblock *root; /* live handles by value */
  uint32_t rng;
  acl__vmm_phys *phys;
  acl__vmm_resv *resv;
} acl__vmm = {PTHREAD_MUTEX_INITIALIZER, NULL, 0x2545f491u, NULL, NULL};

/* ---- properties ------------------------------------------------------------------- */

static size_t acl__vmm_host_page(void) {
  long pg = sysconf(_SC_PAGESIZE);
  return pg > 4096 ? (size_t)pg : 4096;
}

int acl__vmm_attr_info(int attr, int *page, int *p2p, int *side) {
  static const struct {
    signed char page, p2p, side;
  } t[] = {
      [ACL_DDR_MEM] = {-1, 0, 0},
      [ACL_HBM_MEM] = {-1, 0, 0},
      [ACL_DDR_MEM_HUGE] = {ACL__VMM_PG_HUGE, 0, ACL__VMM_SIDE_HOST},
      [ACL_DDR_MEM_NORMAL] = {ACL__VMM_PG_NORMAL, 0, ACL__VMM_SIDE_HOST},
      [ACL_HBM_MEM_HUGE] = {ACL__VMM_PG_HUGE, 0, ACL__VMM_SIDE_DEVICE},
      [ACL_HBM_MEM_NORMAL] = {ACL__VMM_PG_NORMAL, 0, ACL__VMM_SIDE_DEVICE},
      [ACL_DDR_MEM_P2P_HUGE] = {ACL__VMM_PG_HUGE, 1, ACL__VMM_SIDE_HOST},
      [ACL_DDR_MEM_P2P_NORMAL] = {ACL__VMM_PG_NORMAL, 1, ACL__VMM_SIDE_HOST},
      [ACL_HBM_MEM_P2P_HUGE] = {-1, 0, 0},
      [ACL_HBM_MEM_P2P_NORMAL] = {-1, 0, 0},
      [ACL_HBM_MEM_HUGE1G] = {ACL__VMM_PG_1G, 0, ACL__VMM_SIDE_DEVICE},
      [ACL_HBM_MEM_P2P_HUGE1G] = {-1, 0, 0},
      [ACL_MEM_NORMAL] = {ACL__VMM_PG_NORMAL, 0, ACL__VMM_SIDE_ANY},
      [ACL_MEM_HUGE] = {ACL__VMM_PG_HUGE, 0, ACL__VMM_SIDE_ANY},
      [ACL_MEM_HUGE1G] = {ACL__VMM_PG_1G, 0, ACL__VMM_SIDE_ANY},
      [ACL_MEM_P2P_NORMAL] = {ACL__VMM_PG_NORMAL, 1, ACL__VMM_SIDE_ANY},
      [ACL_MEM_P2P_HUGE] = {ACL__VMM_PG_HUGE, 1, ACL__VMM_SIDE_ANY},
      [ACL_MEM_P2P_HUGE1G] = {ACL__VMM_PG_1G, 1, ACL__VMM_SIDE_ANY},
  };
  if (attr < 0 || attr >= (int)(sizeof(t) / sizeof(t[0])) || t[attr].page < 0)
    return -1;
  *page = t[attr].page;
  *p2p = t[attr].p2p;
  *side = t[attr].side;
  return 0;
}

size_t acl__vmm_granularity(int attr) {
  int page = 0, p2p = 0, side = 0;
  if (acl__vmm_attr_info(attr, &page, &p2p, &side) != 0)
    return 0;
  if (page == ACL__VMM_PG_1G)
    return ACL__VMM_1G;
  if (page == ACL__VMM_PG_HUGE || attr == ACL_HBM_MEM_NORMAL)
    return ACL__VMM_2M;
  return acl__vmm_host_page();
}

/* The memAttr aclrtMemGetAllocationPropertiesFromHandle reports: the
 * vendor's canonical name of (page kind, P2P, side). */
static int acl__vmm_canonical_attr(const acl__vmm_phys *p) {
  static const int dev[2][3] = {{ACL_HBM_MEM_NORMAL, ACL_HBM_MEM_HUGE, ACL_HBM_MEM_HUGE1G},
                                {ACL_MEM_P2P_NORMAL, ACL_MEM_P2P_HUGE, ACL_MEM_P2P_HUGE1G}};
  static const int host[2][3] = {{ACL_MEM_NORMAL, ACL_MEM_HUGE, ACL_MEM_HUGE1G},
                                 {ACL_DDR_MEM_P2P_NORMAL, ACL_MEM_P2P_HUGE, ACL_MEM_P2P_HUGE1G}};
  int is_dev = p->loc.type == ACL_MEM_LOCATION_TYPE_DEVICE;
  return is_dev ? dev[p->p2p != 0][p->page] : host[p->p2p != 0][p->page];
}

/* ---- lookups (vmm lock held) --------------------------------------------------------- */

static acl__vmm_phys *acl__vmm_find(const void *handle) {
  acl__mblock *n = acl__mtree_floor(acl__vmm.root, (uintptr_t)handle);
  return n != NULL && n->addr == (uintptr_t)handle && handle != NULL ? (acl__vmm_phys *)n : NULL;
}

/* A live handle (not freed), else 107000 recorded. */
static acl__vmm_phys *acl__vmm_handle(const char *api, const void *handle, int *rc) {
  acl__vmm_phys *p = acl__vmm_find(handle);
  if (p != NULL && p->refs > 0)
    return p;
  *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                  "handle %p is no live physical memory handle of this process: %s. Remedy: pass a handle "
                  "aclrtMallocPhysical, aclrtMemImportFromShareableHandle or aclrtMemRetainAllocationHandle "
                  "returned and that was not freed",
                  handle,
                  p != NULL ? "aclrtFreePhysical freed it already (its memory waits for the last aclrtUnmapMem)"
                            : "never returned, freed already, or its device was reset");
  return NULL;
}

/* The reservation holding address a (view address), with its space; NULL
 * when a is in none. */
static acl__vmm_resv *acl__vmm_resv_at(uintptr_t a, struct acl__mem_space **sp_out) {
  a = acl__mem_view_of(a);
  int id = acl__mem_region_id(a);
  struct acl__mem_space *sp = id >= 0 ? acl__mem_space_of(id) : NULL;
  if (sp == NULL)
    return NULL;
  pthread_mutex_lock(&sp->lock);
  acl__mblock *b = sp->open ? acl__arena_find(&sp->arena, a) : NULL;
  acl__vmm_resv *r = b != NULL && b->vmm ? b->owner : NULL;
  pthread_mutex_unlock(&sp->lock);
  if (r != NULL && a - r->base >= r->size)
    r = NULL; /* the block's rounding past the reservation's end */
  *sp_out = sp;
  return r;
}

/* Index of the mapping of r that contains a, or -1. */
static long acl__vmm_map_index(const acl__vmm_resv *r, uintptr_t a) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) { /* first mapping starting above a */
    size_t mid = lo + (hi - lo) / 2;
    if (r->maps[mid].addr <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return -1;
  const acl__vmm_mrec *m = &r->maps[lo - 1];
  return a - m->addr < m->size ? (long)(lo - 1) : -1;
}

static const char *acl__vmm_reserve_hint(void) {
  return "Remedy: reserve the range with aclrtReserveMemAddress and pass an address inside it";
}

/* ---- the hooks memory.c calls (space lock held) ---------------------------------------- */

void acl__vmm_classify_locked(const acl__mblock *b, uintptr_t a, acl__ptr_info *info) {
  const acl__vmm_resv *r = b->owner;
  info->kind = ACL__PTR_DEVICE_UNALLOCATED;
  info->vmm = ACL__VMM_UNMAPPED;
  info->alloc_base = (void *)r->base;
  info->alloc_size = r->size;
  info->offset = a - r->base;
  if (a - r->base >= r->size)
    return;
  long i = acl__vmm_map_index(r, a);
  if (i < 0)
    return;
  const acl__vmm_mrec *m = &r->maps[i];
  if (m->dev_rw == 0) {
    info->vmm = ACL__VMM_NO_ACCESS;
    return;
  }
  size_t lo = (size_t)i, hi = (size_t)i;
  while (lo > 0 && r->maps[lo - 1].dev_rw != 0 && r->maps[lo - 1].addr + r->maps[lo - 1].size == r->maps[lo].addr)
    lo--;
  while (hi + 1 < r->n && r->maps[hi + 1].dev_rw != 0 && r->maps[hi].addr + r->maps[hi].size == r->maps[hi + 1].addr)
    hi++;
  info->kind = ACL__PTR_DEVICE;
  info->vmm = ACL__VMM_MAPPED;
  info->alloc_base = (void *)r->maps[lo].addr;
  info->alloc_size = r->maps[hi].addr + r->maps[hi].size - r->maps[lo].addr;
  info->offset = a - r->maps[lo].addr;
}

uint32_t acl__vmm_page_size_locked(const acl__mblock *b, uintptr_t a, uint32_t dflt) {
  const acl__vmm_resv *r = b->owner;
  long i = a - r->base < r->size ? acl__vmm_map_index(r, a) : -1;
  if (i < 0)
    return dflt;
  size_t g = r->maps[i].phys->gran;
  return g > UINT32_MAX ? UINT32_MAX : (uint32_t)g;
}

/* ---- reservations -------------------------------------------------------------------- */

int acl__vmm_reserve(const char *api, acl__device *d, size_t size, size_t alignment, const void *ra, void **out) {
  size_t page = acl__vmm_host_page();
  if (alignment != 0 && ((alignment & (alignment - 1)) != 0 || alignment > ACL__VMM_1G))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "alignment %zu is not a power of two up to 1 GiB. Remedy: pass 0 (it is reserved; openacl "
                     "aligns reservations to 2 MiB from 2 MiB on)",
                     alignment);
  if (size > ((size_t)1 << 47))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "size %zu is larger than any device's address range", size);
  size_t len = (size + page - 1) & ~(page - 1);
  size_t align = len >= ACL__VMM_2M ? ACL__VMM_2M : page;
  if (alignment > align)
    align = alignment;
  acl__vmm_resv *r = calloc(1, sizeof(*r));
  if (r == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a reservation's record");
  const char *caller = acl__mem_caller_name(ra);
  struct acl__mem_space *sp = acl__mem_space_of(d->id);
  pthread_mutex_lock(&acl__vmm.lock);
  pthread_mutex_lock(&sp->lock);
  int rc = 0;
  size_t largest = 0;
  acl__mblock *b = NULL;
  if (!sp->open)
    rc = ACL_ERROR_RT_CONTEXT_NULL;
  else if (acl__arena_alloc_aligned(&sp->arena, len, align, 0, &b) != 0)
    rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
  if (rc == ACL_ERROR_RT_MEMORY_ALLOCATION)
    largest = acl__arena_largest_free(&sp->arena);
  if (rc == 0) {
    b->vmm = 1;
    b->owner = r;
    b->requested = len;
    b->api = "aclrtReserveMemAddress";
    b->caller = caller;
    b->serial = ++sp->serial;
    r->dev = d->id;
    r->base = b->addr;
    r->size = len;
    r->b = b;
    r->next = acl__vmm.resv;
    if (r->next != NULL)
      r->next->prev = r;
    acl__vmm.resv = r;
  }
  pthread_mutex_unlock(&sp->lock);
  pthread_mutex_unlock(&acl__vmm.lock);
  if (rc == 0) {
    *out = (void *)r->base;
    return 0;
  }
  free(r);
  if (rc == ACL_ERROR_RT_CONTEXT_NULL)
    return acl__fail(api, rc, __FILE__, __LINE__, "device %d is not open (it was reset). Remedy: aclrtSetDevice(%d)",
                     (int)d->id, (int)d->id);
  return acl__fail(api, rc, __FILE__, __LINE__,
                   "device %d has no free address range of %zu bytes (aligned to %zu) to reserve: reservations take "
                   "the device's address space, which is twice its capacity, with its allocations; the largest "
                   "free range is %zu bytes. Remedy: release reservations no longer needed, reserve less, or give "
                   "the simulated device more with OPENACL_DEVICE_MEMORY",
                   (int)d->id, len, align, largest);
}

static void acl__vmm_resv_unlink(acl__vmm_resv *r) {
  if (r->prev != NULL)
    r->prev->next = r->next;
  else
    acl__vmm.resv = r->next;
  if (r->next != NULL)
    r->next->prev = r->prev;
}

int acl__vmm_release(const char *api, void *va) {
  struct acl__mem_space *sp = NULL;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_resv *r = acl__vmm_resv_at((uintptr_t)va, &sp);
  int rc = 0;
  if (r == NULL)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is not in an address range reserved by this process (never reserved, released already, or "
                   "its device was reset). Remedy: pass the address aclrtReserveMemAddress returned",
                   va);
  else if (r->base != acl__mem_view_of((uintptr_t)va))
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is %zu bytes into the %zu-byte reservation at %p, not its start. Remedy: pass the address "
                   "aclrtReserveMemAddress returned",
                   va, (size_t)(acl__mem_view_of((uintptr_t)va) - r->base), r->size, (void *)r->base);
  else if (r->n > 0)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the reservation at %p still has %zu mapping%s (the first at %p). Remedy: aclrtUnmapMem each "
                   "mapping first",
                   va, r->n, r->n == 1 ? "" : "s", (void *)r->maps[0].addr);
  if (rc == 0) {
    pthread_mutex_lock(&sp->lock);
    acl__arena_free(&sp->arena, r->b);
    pthread_mutex_unlock(&sp->lock);
    acl__vmm_resv_unlink(r);
    free(r->maps);
    free(r);
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* ---- physical memory ------------------------------------------------------------------- */

static void acl__vmm_phys_link(acl__vmm_phys *p) {
  p->node.addr = (uintptr_t)p;
  acl__vmm.root = acl__mtree_insert(acl__vmm.root, &p->node, &acl__vmm.rng);
  p->next = acl__vmm.phys;
  if (p->next != NULL)
    p->next->prev = p;
  acl__vmm.phys = p;
}

/* vmm lock held: frees p (no references, no mappings left): gives the
 * shareable handle up, the pages and the charge back. */
static void acl__vmm_destroy(acl__vmm_phys *p) {
  int keep = 0;
  if (p->share != 0) {
    struct acl__mem_space *rsp = acl__mem_space_of(p->imported ? p->reg_dev : p->dev);
    pthread_mutex_lock(&rsp->lock);
    acl__ds *ds = rsp->open ? rsp->ds : NULL;
    pthread_mutex_unlock(&rsp->lock);
    /* Before the descriptor closes: an importer opening it under the
     * registry's lock must not find its number reused. */
    if (ds != NULL && p->imported)
      acl__ds_share_import_done(ds, p->share);
    else if (ds != NULL)
      keep = acl__ds_share_release(ds, p->share);
  }
  close(p->fd);
  if (p->charged != 0) {
    struct acl__mem_space *sp = acl__mem_space_of(p->dev);
    pthread_mutex_lock(&sp->lock);
    if (sp->open)
      acl__mem_uncharge_locked(sp, p->charged, keep);
    pthread_mutex_unlock(&sp->lock);
  }
  acl__vmm.root = acl__mtree_erase(acl__vmm.root, p->node.addr);
  if (p->prev != NULL)
    p->prev->next = p->next;
  else
    acl__vmm.phys = p->next;
  if (p->next != NULL)
    p->next->prev = p->prev;
  free(p);
}

int acl__vmm_malloc_physical(const char *api, acl__device *ctx_dev, size_t size, const aclrtPhysicalMemProp *prop,
                             const void *ra, void **handle_out) {
  int page = 0, p2p = 0, side = 0, rc = 0;
  acl__vmm_attr_info((int)prop->memAttr, &page, &p2p, &side); /* checked by the caller */
  size_t gran = acl__vmm_granularity((int)prop->memAttr);
  if (size > SIZE_MAX - gran || size > ((size_t)1 << 47))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__, "size %zu is larger than any device's memory",
                     size);
  size_t len = (size + gran - 1) / gran * gran;
  int is_dev = prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE;
  acl__device *d = ctx_dev;
  if (is_dev && (int32_t)prop->location.id != ctx_dev->id) {
    if (prop->location.id > INT32_MAX)
      return acl__fail(api, ACL_ERROR_RT_INVALID_DEVICEID, __FILE__, __LINE__, "prop->location.id %u is no device id",
                       prop->location.id);
    d = acl__device_get(api, (int32_t)prop->location.id, &rc);
    if (d == NULL)
      return rc;
  }
  int fd = memfd_create("openacl-physical-memory", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
    int e = errno;
    if (fd >= 0)
      close(fd);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "the host cannot hold %zu bytes of physical memory for device %d (memfd_create, ftruncate: "
                     "%s)",
                     len, (int)d->id, strerror(e));
  }
  acl__vmm_phys *p = calloc(1, sizeof(*p));
  if (p == NULL) {
    close(fd);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a handle's record");
  }
  p->fd = fd;
  p->size = len;
  p->gran = gran;
  p->attr = (int)prop->memAttr;
  p->page = page;
  p->p2p = p2p;
  p->loc = prop->location;
  p->reserve = prop->reserve;
  p->dev = d->id;
  p->reg_dev = d->id;
  p->refs = 1;
  p->caller = acl__mem_caller_name(ra);
  struct acl__mem_space *sp = acl__mem_space_of(d->id);
  pthread_mutex_lock(&acl__vmm.lock);
  pthread_mutex_lock(&sp->lock);
  if (!sp->open)
    rc = acl__fail(api, ACL_ERROR_RT_CONTEXT_NULL, __FILE__, __LINE__,
                   "device %d is not open in this process. Remedy: aclrtSetDevice(%d) first", (int)d->id, (int)d->id);
  else if (is_dev)
    rc = acl__mem_charge_locked(api, sp, len, size);
  pthread_mutex_unlock(&sp->lock);
  if (rc == 0) {
    p->charged = is_dev ? len : 0;
    acl__vmm_phys_link(p);
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  if (rc != 0) {
    close(fd);
    free(p);
    return rc;
  }
  *handle_out = p;
  return 0;
}

int acl__vmm_free_physical(const char *api, void *handle) {
  int rc = 0;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_phys *p = acl__vmm_handle(api, handle, &rc);
  if (p != NULL && --p->refs == 0 && p->maps == 0)
    acl__vmm_destroy(p);
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

int acl__vmm_properties(const char *api, void *handle, aclrtPhysicalMemProp *prop) {
  int rc = 0;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_phys *p = acl__vmm_handle(api, handle, &rc);
  if (p != NULL) {
    memset(prop, 0, sizeof(*prop));
    prop->handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop->memAttr = (aclrtMemAttr)acl__vmm_canonical_attr(p);
    prop->location = p->loc;
    prop->reserve = p->reserve;
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* ---- mappings ----------------------------------------------------------------------------- */

/* Space lock held: the device's own memory back over [addr, addr + len). */
static void acl__vmm_restore(struct acl__mem_space *sp, uintptr_t addr, size_t len) {
  acl__device *d = sp->dev;
  if (d == NULL || d->ops->version < 4 || d->ops->mem_map_shared == NULL)
    return;
  if (d->ops->mem_map_shared(d->bdev, (void *)addr, len, -1, 0) != 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "device %d: the range %p..%p could not get the device's own memory back after an unmap; its "
              "physical memory stays mapped there until the device is reset",
              (int)sp->dev_id, (void *)addr, (void *)(addr + len));
}

int acl__vmm_map(const char *api, void *va, size_t size, size_t offset, void *handle, int access) {
  int rc = 0;
  uintptr_t a = acl__mem_view_of((uintptr_t)va);
  struct acl__mem_space *sp = NULL;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_phys *p = acl__vmm_handle(api, handle, &rc);
  acl__vmm_resv *r = p != NULL ? acl__vmm_resv_at(a, &sp) : NULL;
  size_t align = p != NULL ? (p->gran < ACL__VMM_2M ? p->gran : ACL__VMM_2M) : 0;
  if (p == NULL)
    goto out;
  if (offset != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "offset is %zu; it must be 0: a mapping covers the whole physical allocation", offset);
    goto out;
  }
  if (size != p->size) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "size %zu is not the size of the physical allocation, %zu bytes (aclrtMallocPhysical's size "
                   "rounded up to its granularity, %zu). Remedy: map the whole allocation, with size %zu",
                   size, p->size, p->gran, p->size);
    goto out;
  }
  if (r == NULL) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is not in an address range reserved by this process. %s", va, acl__vmm_reserve_hint());
    goto out;
  }
  if (a % align != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is not aligned to the granularity of the physical memory (%zu bytes). Remedy: map at the "
                   "reservation's start plus a multiple of aclrtMemGetAllocationGranularity",
                   va, align);
    goto out;
  }
  if (size > r->size - (a - r->base)) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%zu bytes from %p run %zu bytes past the end of the %zu-byte reservation at %p. Remedy: reserve "
                   "a larger range, or map lower in it",
                   size, va, size - (r->size - (a - r->base)), r->size, (void *)r->base);
    goto out;
  }
  if (p->loc.type == ACL_MEM_LOCATION_TYPE_DEVICE && p->dev != r->dev) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the physical memory of handle %p is device %d's, the reservation at %p device %d's. Remedy: "
                   "reserve the range while device %d is current (aclrtSetDevice(%d))",
                   handle, (int)p->dev, (void *)r->base, (int)r->dev, (int)p->dev, (int)p->dev);
    goto out;
  }
  /* the first mapping at or above a, and the one below */
  size_t at = 0;
  while (at < r->n && r->maps[at].addr < a)
    at++;
  const acl__vmm_mrec *below = at > 0 ? &r->maps[at - 1] : NULL, *above = at < r->n ? &r->maps[at] : NULL;
  const acl__vmm_mrec *clash = below != NULL && below->addr + below->size > a ? below
                               : above != NULL && above->addr < a + size      ? above
                                                                              : NULL;
  if (clash != NULL) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%zu bytes at %p overlap the mapping of %zu bytes at %p. Remedy: aclrtUnmapMem it first, or "
                   "map elsewhere in the reservation",
                   size, va, clash->size, (void *)clash->addr);
    goto out;
  }
  if (r->n > 0 && r->maps[0].phys->imported != p->imported) { /* the mappings of a reservation are all alike */
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the reservation at %p holds %s memory already, and handle %p is %s: one reservation may not "
                   "mix memory of aclrtMallocPhysical with imported memory, as on the vendor's devices. Remedy: "
                   "reserve another range for it",
                   (void *)r->base, r->maps[0].phys->imported ? "imported" : "aclrtMallocPhysical", handle,
                   p->imported ? "imported" : "from aclrtMallocPhysical");
    goto out;
  }
  pthread_mutex_lock(&sp->lock);
  acl__device *d = sp->dev;
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 4;
    acl__vmm_mrec *m = realloc(r->maps, cap * sizeof(*m));
    if (m == NULL) {
      pthread_mutex_unlock(&sp->lock);
      rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a mapping's record");
      goto out;
    }
    r->maps = m;
    r->cap = cap;
  }
  int mr = d == NULL || d->ops->version < 4 || d->ops->mem_map_shared == NULL
               ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT
               : d->ops->mem_map_shared(d->bdev, (void *)a, size, p->fd, 0);
  if (mr == 0) {
    memmove(&r->maps[at + 1], &r->maps[at], (r->n - at) * sizeof(r->maps[0]));
    acl__vmm_mrec *m = &r->maps[at];
    memset(m, 0, sizeof(*m));
    m->addr = a;
    m->size = size;
    m->phys = p;
    m->dev_rw = access ? (uint64_t)1 << (r->dev & 63) : 0;
    r->n++;
  } else if (mr != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
    acl__vmm_restore(sp, a, size);
  }
  pthread_mutex_unlock(&sp->lock);
  if (mr == ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
    rc = acl__fail(api, mr, __FILE__, __LINE__, "device %d's backend (%s) cannot map physical memory", (int)r->dev,
                   d != NULL ? d->ops->name : "closed");
  else if (mr != 0)
    rc = acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                   "mapping %zu bytes at %p failed: the host refused the mapping (too many mappings? see "
                   "vm.max_map_count)",
                   size, va);
  else
    p->maps++;
out:
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* vmm lock and space lock held: removes mapping i of r (the memory goes
 * back to the device's own); returns its handle. */
static acl__vmm_phys *acl__vmm_unmap_at(struct acl__mem_space *sp, acl__vmm_resv *r, size_t i) {
  acl__vmm_mrec *m = &r->maps[i];
  acl__vmm_phys *p = m->phys;
  acl__vmm_restore(sp, m->addr, m->size);
  memmove(&r->maps[i], &r->maps[i + 1], (r->n - i - 1) * sizeof(r->maps[0]));
  r->n--;
  p->maps--;
  return p;
}

int acl__vmm_unmap(const char *api, void *va) {
  int rc = 0;
  uintptr_t a = acl__mem_view_of((uintptr_t)va);
  struct acl__mem_space *sp = NULL;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_resv *r = acl__vmm_resv_at(a, &sp);
  long i = r != NULL ? acl__vmm_map_index(r, a) : -1;
  if (r == NULL)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is not in an address range reserved by this process. Remedy: pass the address given to "
                   "aclrtMapMem",
                   va);
  else if (i < 0)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "nothing is mapped at %p (reservation of %zu bytes at %p): unmapped already, or never mapped. "
                   "Remedy: pass the address given to aclrtMapMem",
                   va, r->size, (void *)r->base);
  else if (r->maps[i].addr != a)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is %zu bytes into the mapping of %zu bytes at %p, not its start. Remedy: pass the address "
                   "given to aclrtMapMem",
                   va, (size_t)(a - r->maps[i].addr), r->maps[i].size, (void *)r->maps[i].addr);
  if (rc == 0) {
    pthread_mutex_lock(&sp->lock);
    acl__vmm_phys *p = acl__vmm_unmap_at(sp, r, (size_t)i);
    pthread_mutex_unlock(&sp->lock);
    if (p->refs == 0 && p->maps == 0) /* aclrtFreePhysical came first: the release waited for this */
      acl__vmm_destroy(p);
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* vmm lock held: the mapping that contains va, with its reservation and
 * space; NULL after recording 107000. */
static acl__vmm_mrec *acl__vmm_mapping(const char *api, void *va, acl__vmm_resv **r_out, struct acl__mem_space **sp_out,
                                       int *rc) {
  uintptr_t a = acl__mem_view_of((uintptr_t)va);
  acl__vmm_resv *r = acl__vmm_resv_at(a, sp_out);
  long i = r != NULL ? acl__vmm_map_index(r, a) : -1;
  if (i >= 0) {
    *r_out = r;
    return &r->maps[i];
  }
  if (r == NULL)
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "%p is not in an address range reserved by this process. %s", va, acl__vmm_reserve_hint());
  else
    *rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                    "nothing is mapped at %p (in the reservation of %zu bytes at %p). Remedy: map physical memory "
                    "there first (aclrtMallocPhysical, aclrtMapMem)",
                    va, r->size, (void *)r->base);
  return NULL;
}

int acl__vmm_set_access(const char *api, void *va, size_t size, const aclrtMemAccessDesc *desc, size_t count) {
  uint64_t dev_rw = 0;
  int host_rw = 0;
  for (size_t k = 0; k < count; k++) {
    const aclrtMemAccessDesc *x = &desc[k];
    for (size_t j = 0; j < sizeof(x->rsv); j++)
      if (x->rsv[j] != 0)
        return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                         "desc[%zu].rsv[%zu] is %u; the reserved bytes must be 0", k, j, (unsigned)x->rsv[j]);
    if (x->flags == ACL_RT_MEM_ACCESS_FLAGS_NONE || x->flags == ACL_RT_MEM_ACCESS_FLAGS_READ)
      return acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                       "desc[%zu].flags is %s: only ACL_RT_MEM_ACCESS_FLAGS_READWRITE is supported, as on the "
                       "vendor's devices",
                       k,
                       x->flags == ACL_RT_MEM_ACCESS_FLAGS_NONE ? "ACL_RT_MEM_ACCESS_FLAGS_NONE"
                                                                : "ACL_RT_MEM_ACCESS_FLAGS_READ");
    if (x->flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE)
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "desc[%zu].flags is %d, not an aclrtMemAccessFlags value", k, (int)x->flags);
    if (x->location.type == ACL_MEM_LOCATION_TYPE_HOST) {
      if (x->location.id != 0)
        return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                         "desc[%zu].location is the host with id %u; the host's id is 0", k, x->location.id);
      host_rw = 1;
    } else if (x->location.type == ACL_MEM_LOCATION_TYPE_DEVICE) {
      if (x->location.id >= (uint32_t)acl__device_count())
        return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                         "desc[%zu].location.id %u is no device: this process sees %d", k, x->location.id,
                         acl__device_count());
      dev_rw |= (uint64_t)1 << (x->location.id & 63);
    } else {
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "desc[%zu].location.type is %d: access is granted to ACL_MEM_LOCATION_TYPE_HOST (0) or "
                       "ACL_MEM_LOCATION_TYPE_DEVICE (1)",
                       k, (int)x->location.type);
    }
  }
  int rc = 0;
  acl__vmm_resv *r = NULL;
  struct acl__mem_space *sp = NULL;
  uintptr_t a = acl__mem_view_of((uintptr_t)va);
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_mrec *m = acl__vmm_mapping(api, va, &r, &sp, &rc);
  size_t first = m != NULL ? (size_t)(m - r->maps) : 0, last = first;
  if (m != NULL && m->addr != a) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "%p is %zu bytes into the mapping of %zu bytes at %p; the range must start where a mapping "
                   "starts. Remedy: pass the address and size given to aclrtMapMem",
                   va, (size_t)(a - m->addr), m->size, (void *)m->addr);
    m = NULL;
  }
  if (m != NULL) {
    /* whole adjacent mappings, from va to exactly va + size */
    uintptr_t end = m->addr + m->size;
    while (end - a < size && last + 1 < r->n && r->maps[last + 1].addr == end) {
      last++;
      end = r->maps[last].addr + r->maps[last].size;
    }
    if (end - a != size) {
      rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "size %zu does not end where a mapping ends: the mapping%s from %p cover%s %zu bytes. Remedy: "
                     "pass the address and size given to aclrtMapMem",
                     size, last > first ? "s" : "", va, last > first ? "" : "s", (size_t)(end - a));
      m = NULL;
    }
  }
  if (m != NULL) {
    pthread_mutex_lock(&sp->lock);
    for (size_t i = first; i <= last; i++) {
      r->maps[i].dev_rw |= dev_rw;
      r->maps[i].host_rw |= host_rw;
    }
    pthread_mutex_unlock(&sp->lock);
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

int acl__vmm_get_access(const char *api, void *va, const aclrtMemLocation *loc, uint64_t *flag) {
  if (loc->type != ACL_MEM_LOCATION_TYPE_HOST && loc->type != ACL_MEM_LOCATION_TYPE_DEVICE)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "location->type is %d: ask for ACL_MEM_LOCATION_TYPE_HOST (0) or ACL_MEM_LOCATION_TYPE_DEVICE "
                     "(1)",
                     (int)loc->type);
  if (loc->type == ACL_MEM_LOCATION_TYPE_DEVICE && loc->id >= (uint32_t)acl__device_count())
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "location->id %u is no device: this process sees %d", loc->id, acl__device_count());
  int rc = 0;
  acl__vmm_resv *r = NULL;
  struct acl__mem_space *sp = NULL;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_mrec *m = acl__vmm_mapping(api, va, &r, &sp, &rc);
  if (m != NULL) {
    int rw = loc->type == ACL_MEM_LOCATION_TYPE_HOST ? m->host_rw : (int)((m->dev_rw >> (loc->id & 63)) & 1u);
    *flag = rw ? ACL_RT_MEM_ACCESS_FLAGS_READWRITE : ACL_RT_MEM_ACCESS_FLAGS_NONE;
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

int acl__vmm_retain(const char *api, void *va, void **handle_out) {
  int rc = 0;
  acl__vmm_resv *r = NULL;
  struct acl__mem_space *sp = NULL;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_mrec *m = acl__vmm_mapping(api, va, &r, &sp, &rc);
  if (m != NULL) {
    m->phys->refs++;
    *handle_out = m->phys;
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

int acl__vmm_address_range(const char *api, void *p, void **base, size_t *size) {
  acl__ptr_info in;
  acl__mem_classify(p, &in);
  if (in.vmm != ACL__VMM_NONE) {
    int rc = 0;
    acl__vmm_resv *r = NULL;
    struct acl__mem_space *sp = NULL;
    pthread_mutex_lock(&acl__vmm.lock);
    acl__vmm_mrec *m = acl__vmm_mapping(api, p, &r, &sp, &rc);
    if (m != NULL) {
      if (base != NULL)
        *base = (void *)m->addr;
      if (size != NULL)
        *size = m->size;
    }
    pthread_mutex_unlock(&acl__vmm.lock);
    return rc;
  }
  switch (in.kind) {
  case ACL__PTR_DEVICE:
  case ACL__PTR_PINNED_HOST:
  case ACL__PTR_MANAGED:
    if (base != NULL)
      *base = in.alloc_base;
    if (size != NULL)
      *size = in.alloc_size;
    return 0;
  case ACL__PTR_DEVICE_UNALLOCATED:
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p is in device %d's memory but in no live allocation: freed already, or never allocated", p,
                     in.dev != NULL ? (int)in.dev->id : -1);
  default:
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%p is host memory that is in no allocation of openacl: the range of a pointer is known for "
                     "aclrtMalloc and aclrtMallocHost blocks and mapped virtual memory. Remedy: pass a pointer "
                     "into one of those",
                     p);
  }
}

/* ---- shareable handles ---------------------------------------------------------------------- */

/* The registry of device id's space, NULL when it is private or closed. */
static acl__ds *acl__vmm_registry(int32_t id) {
  struct acl__mem_space *sp = acl__mem_space_of(id);
  if (sp == NULL)
    return NULL;
  pthread_mutex_lock(&sp->lock);
  acl__ds *ds = sp->open ? sp->ds : NULL;
  pthread_mutex_unlock(&sp->lock);
  return ds;
}

int acl__vmm_export(const char *api, void *handle, int check_pid, uint64_t *out) {
  int rc = 0;
  pthread_mutex_lock(&acl__vmm.lock);
  acl__vmm_phys *p = acl__vmm_handle(api, handle, &rc);
  if (p == NULL)
    goto out;
  if (p->imported) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "handle %p was imported from another process (shareable handle 0x%016llx); only memory of "
                   "aclrtMallocPhysical is exported. Remedy: pass that shareable handle on instead",
                   handle, (unsigned long long)p->share);
    goto out;
  }
  if (p->share != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "handle %p was exported already, as shareable handle 0x%016llx; a handle is exported once. "
                   "Remedy: pass that shareable handle on",
                   handle, (unsigned long long)p->share);
    goto out;
  }
  acl__ds *ds = acl__vmm_registry(p->dev);
  if (ds == NULL) {
    rc = acl__fail(api, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, __FILE__, __LINE__,
                   "device %d is private to this process (OPENACL_SHARED_DEVICE=0, or its registry could not be "
                   "used: see the warning when it opened), so no other process can import its memory. Remedy: "
                   "unset OPENACL_SHARED_DEVICE",
                   (int)p->dev);
    goto out;
  }
  uint64_t h = 0;
  if (acl__ds_share_export(ds, p->fd, p->size, p->gran, (uint32_t)p->attr, p->charged, check_pid, &h) != 0) {
    rc = acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                   "device %d has %d shareable handles already (the most one device keeps). Remedy: free "
                   "exported physical memory no longer shared",
                   (int)p->dev, ACL__DS_SHARES);
    goto out;
  }
  p->share = h;
  *out = h;
out:
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* Calls fn on the registry of every open shared device until it returns
 * something else than ACL__DS_NO_KEY; *dev_out: that device. */
static int acl__vmm_each_registry(int (*fn)(acl__ds *ds, void *arg), void *arg, int32_t *dev_out) {
  int r = ACL__DS_NO_KEY;
  for (int32_t id = 0; id < ACL__ENV_MAX_DEVICES && r == ACL__DS_NO_KEY; id++) {
    acl__ds *ds = acl__vmm_registry(id);
    if (ds == NULL)
      continue;
    r = fn(ds, arg);
    *dev_out = id;
  }
  return r;
}

struct acl__vmm_allow_arg {
  uint64_t sh;
  const int32_t *pids;
  size_t n;
};

static int acl__vmm_allow_fn(acl__ds *ds, void *arg) {
  struct acl__vmm_allow_arg *x = arg;
  return acl__ds_share_allow(ds, x->sh, x->pids, x->n);
}

int acl__vmm_allow(const char *api, uint64_t shareable, const int32_t *pids, size_t n) {
  struct acl__vmm_allow_arg x = {shareable, pids, n};
  int32_t dev = -1;
  pthread_mutex_lock(&acl__vmm.lock);
  int r = acl__vmm_each_registry(acl__vmm_allow_fn, &x, &dev);
  pthread_mutex_unlock(&acl__vmm.lock);
  if (r == ACL__DS_NO_KEY)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "0x%016llx is no live shareable handle of a device this process uses (never exported, or its "
                     "memory freed). Remedy: pass what aclrtMemExportToShareableHandle wrote",
                     (unsigned long long)shareable);
  if (r == ACL__DS_NOT_OWNER)
    return acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                     "shareable handle 0x%016llx was exported by another process; only the exporter may add pids to "
                     "its whitelist",
                     (unsigned long long)shareable);
  if (r != 0)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "shareable handle 0x%016llx has %d pids on its whitelist already (the most one handle takes)",
                     (unsigned long long)shareable, ACL__DS_PIDS);
  return 0;
}

struct acl__vmm_import_arg {
  uint64_t sh;
  acl__ds_share_info info;
  int fd;
};

static int acl__vmm_import_fn(acl__ds *ds, void *arg) {
  struct acl__vmm_import_arg *x = arg;
  return acl__ds_share_import(ds, x->sh, &x->info, &x->fd);
}

int acl__vmm_import(const char *api, acl__device *d, uint64_t shareable, void **handle_out) {
  struct acl__vmm_import_arg x;
  memset(&x, 0, sizeof(x));
  x.sh = shareable;
  x.fd = -1;
  int32_t reg_dev = -1;
  int rc = 0;
  pthread_mutex_lock(&acl__vmm.lock);
  int r = shareable == 0 ? ACL__DS_NO_KEY : acl__vmm_each_registry(acl__vmm_import_fn, &x, &reg_dev);
  if (r == ACL__DS_NO_KEY)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "0x%016llx is no live shareable handle of a device this process uses: never exported, its "
                   "exporter freed the memory (aclrtFreePhysical), or the exporter's process ended. Remedy: import "
                   "while the exporter holds the memory, with the exporter's device set here too (aclrtSetDevice), "
                   "and OPENACL_SHARED_DEVICE unset",
                   (unsigned long long)shareable);
  else if (r == ACL__DS_SELF)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "shareable handle 0x%016llx was exported by this process, which may not import it. Remedy: use "
                   "the handle aclrtMallocPhysical returned here; import in the other processes",
                   (unsigned long long)shareable);
  else if (r == ACL__DS_DENIED)
    rc = acl__fail(api, ACL_ERROR_RT_NO_PERMISSION, __FILE__, __LINE__,
                   "process %d is not on the whitelist of shareable handle 0x%016llx. Remedy: the exporter adds "
                   "this pid (aclrtDeviceGetBareTgid) with aclrtMemSetPidToShareableHandle, or exports with "
                   "ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION",
                   (int)getpid(), (unsigned long long)shareable);
  else if (r == ACL__DS_GONE)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the memory of shareable handle 0x%016llx cannot be opened: its exporter (process %d) is ending "
                   "or runs as another user. Remedy: import while the exporter runs",
                   (unsigned long long)shareable, (int)x.info.owner_pid);
  else if (r != 0)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "shareable handle 0x%016llx cannot be imported (registry error %d)", (unsigned long long)shareable,
                   r);
  acl__vmm_phys *p = NULL;
  int page = 0, p2p = 0, side = 0;
  if (rc == 0 && acl__vmm_attr_info((int)x.info.attr, &page, &p2p, &side) != 0)
    rc = acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                   "the registry describes shareable handle 0x%016llx with an unknown memory attribute %u (another "
                   "openacl version?)",
                   (unsigned long long)shareable, x.info.attr);
  else if (rc == 0 && (p = calloc(1, sizeof(*p))) == NULL)
    rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a handle's record");
  if (rc != 0 && x.fd >= 0) { /* found but not taken: the import is not open */
    acl__ds *ds = acl__vmm_registry(reg_dev);
    if (ds != NULL)
      acl__ds_share_import_done(ds, shareable);
    close(x.fd);
  }
  if (rc == 0) {
    p->fd = x.fd;
    p->size = (size_t)x.info.size;
    p->gran = (size_t)x.info.gran;
    p->attr = (int)x.info.attr;
    p->page = page;
    p->p2p = p2p;
    p->loc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p->loc.id = (uint32_t)d->id;
    p->dev = d->id;
    p->reg_dev = reg_dev;
    p->refs = 1;
    p->share = shareable;
    p->imported = 1;
    p->caller = "aclrtMemImportFromShareableHandle";
    acl__vmm_phys_link(p);
    *handle_out = p;
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  return rc;
}

/* ---- reset and fork ----------------------------------------------------------------------- */

static int acl__vmm_belongs(const acl__vmm_phys *p, int32_t dev) {
  return p->dev == dev || (p->imported && p->reg_dev == dev);
}

void acl__vmm_reset(int32_t dev_id) {
  size_t resv = 0, maps = 0, handles = 0, bytes = 0;
  char first[160] = "";
  pthread_mutex_lock(&acl__vmm.lock);
  /* mappings in its reservations, and of its memory anywhere */
  for (acl__vmm_resv *r = acl__vmm.resv; r != NULL; r = r->next) {
    struct acl__mem_space *sp = acl__mem_space_of(r->dev);
    pthread_mutex_lock(&sp->lock);
    for (size_t i = r->n; i-- > 0;)
      if (r->dev == dev_id || acl__vmm_belongs(r->maps[i].phys, dev_id)) {
        acl__vmm_unmap_at(sp, r, i);
        maps++;
      }
    pthread_mutex_unlock(&sp->lock);
  }
  for (acl__vmm_resv *r = acl__vmm.resv, *next; r != NULL; r = next) {
    next = r->next;
    if (r->dev != dev_id)
      continue;
    struct acl__mem_space *sp = acl__mem_space_of(r->dev);
    pthread_mutex_lock(&sp->lock);
    if (sp->open)
      acl__arena_free(&sp->arena, r->b);
    pthread_mutex_unlock(&sp->lock);
    acl__vmm_resv_unlink(r);
    free(r->maps);
    free(r);
    resv++;
  }
  for (acl__vmm_phys *p = acl__vmm.phys, *next; p != NULL; p = next) {
    next = p->next;
    if (p->refs > 0 && !acl__vmm_belongs(p, dev_id))
      continue;
    if (p->maps > 0)
      continue; /* freed, still mapped in another device's reservation */
    if (p->refs > 0) {
      if (handles++ == 0)
        snprintf(first, sizeof(first), " (the first: %zu bytes, %s from %s)", p->size,
                 p->imported ? "imported" : "aclrtMallocPhysical", p->caller != NULL ? p->caller : "an unknown caller");
      bytes += p->size;
    }
    acl__vmm_destroy(p);
  }
  pthread_mutex_unlock(&acl__vmm.lock);
  if (resv + maps + handles > 0)
    ACL__LOGW(ACL__MOD_RUNTIME,
              "device %d was reset with virtual memory in use: %zu reservation%s, %zu mapping%s, %zu physical "
              "memory handle%s not freed (%zu bytes)%s. Before aclrtResetDevice: aclrtUnmapMem, aclrtFreePhysical, "
              "aclrtReleaseMemAddress",
              (int)dev_id, resv, resv == 1 ? "" : "s", maps, maps == 1 ? "" : "s", handles, handles == 1 ? "" : "s",
              bytes, first);
}

void acl__vmm_atfork_child(void) {
  /* Another thread may have held the lock or been mid-update: forget the
   * parent's records (the child has no devices; the memory is released at
   * its exit). */
  pthread_mutex_init(&acl__vmm.lock, NULL);
  acl__vmm.root = NULL;
  acl__vmm.phys = NULL;
  acl__vmm.resv = NULL;
}
