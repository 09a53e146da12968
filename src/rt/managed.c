/*
 * managed.c - managed memory (see managed.h).
 *
 * Each allocation is its own anonymous mapping, 2 MiB aligned and sized,
 * host- and device-accessible (no protection applies: host code may touch
 * it).  Its node in a process-wide treap (keyed by address) carries one
 * record per 2 MiB page: the advice given (read-mostly, preferred location,
 * accessors) and the last prefetch target.  Queries answer over a range:
 * a value all its pages share, or "mixed".
 *
 * Lock: acl__managed.lock guards the treap, the records and the total; a
 * leaf.  acl__managed_count lets lookups of other pointers skip it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/errmsg.h"
#include "rt/managed.h"
#include "rt/mem_alloc.h"
#include "rt/mem_fault.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"

/* A location as stored: type ACL_MEM_LOCATIONTYPE_* (INVALID = none) and id. */
typedef struct acl__mloc {
  int8_t type;
  int32_t id;
} acl__mloc;

typedef struct acl__mpage {
  uint8_t read_mostly;
  uint8_t accessed_by_host;
  acl__mloc preferred;
  acl__mloc last_prefetch;
  uint64_t accessed_by; /* bit i: device i */
} acl__mpage;

typedef struct acl__mrange {
  acl__mblock node; /* first: tree node; addr, size (rounded), requested */
  int32_t dev_id;   /* the device current at allocation */
  size_t npages;
  acl__mpage *pages;
} acl__mrange;

static struct {
  pthread_mutex_t lock; /* guards root, rng, total and every allocation's pages */
  acl__mblock *root;
  uint32_t rng;
  uint64_t total; /* bytes of live allocations */
} acl__managed = {PTHREAD_MUTEX_INITIALIZER, NULL, 0x51ed270bu, 0};

static atomic_size_t acl__managed_count;

/* The allocation holding a (lock held), or NULL. */
static acl__mrange *acl__managed_find_locked(uintptr_t a) {
  acl__mblock *b = acl__mtree_floor(acl__managed.root, a);
  if (b != NULL && a - b->addr < b->size)
    return (acl__mrange *)b;
  return NULL;
}

int acl__managed_alloc(const char *api, acl__device *d, uint64_t size, const void *ra, void **out) {
  const uint64_t page = ACL__MANAGED_PAGE;
  if (size > ACL__MANAGED_LIMIT)
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "size %llu is more than the 3 TB of managed memory a process may have",
                     (unsigned long long)size);
  uint64_t rounded = (size + page - 1) & ~(page - 1);
  acl__mrange *m = calloc(1, sizeof(*m));
  size_t npages = (size_t)(rounded / page);
  acl__mpage *pages = m != NULL ? calloc(npages, sizeof(*pages)) : NULL;
  if (pages == NULL) {
    free(m);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory for the bookkeeping of %llu bytes of managed memory",
                     (unsigned long long)size);
  }
  pthread_mutex_lock(&acl__managed.lock);
  int over = rounded > ACL__MANAGED_LIMIT - acl__managed.total;
  uint64_t in_use = acl__managed.total;
  if (!over)
    acl__managed.total += rounded; /* reserved now: two threads cannot both pass the limit */
  pthread_mutex_unlock(&acl__managed.lock);
  if (over) {
    free(pages);
    free(m);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "%llu more bytes of managed memory would exceed the 3 TB a process may have (%llu are in use). "
                     "Remedy: free managed memory you no longer need (aclrtFree)",
                     (unsigned long long)rounded, (unsigned long long)in_use);
  }
  /* 2 MiB aligned, so that the kernel may back it with huge pages. */
  size_t span = (size_t)rounded + (size_t)page;
  char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) {
    int e = errno;
    pthread_mutex_lock(&acl__managed.lock);
    acl__managed.total -= rounded;
    pthread_mutex_unlock(&acl__managed.lock);
    free(pages);
    free(m);
    return acl__fail(api, ACL_ERROR_RT_MEMORY_ALLOCATION, __FILE__, __LINE__,
                     "the host could not map %llu bytes for managed memory (%s)", (unsigned long long)rounded,
                     strerror(e));
  }
  uintptr_t start = ((uintptr_t)raw + (uintptr_t)page - 1) & ~(uintptr_t)(page - 1);
  if (start > (uintptr_t)raw)
    munmap(raw, start - (uintptr_t)raw);
  uintptr_t end = start + (uintptr_t)rounded;
  if ((uintptr_t)raw + span > end)
    munmap((void *)end, (uintptr_t)raw + span - end);
  m->node.addr = start;
  m->node.size = (size_t)rounded;
  m->node.requested = (size_t)size;
  m->node.api = api;
  m->node.caller = acl__mem_caller_name(ra);
  m->dev_id = d->id;
  m->npages = npages;
  m->pages = pages;
  pthread_mutex_lock(&acl__managed.lock);
  acl__managed.root = acl__mtree_insert(acl__managed.root, &m->node, &acl__managed.rng);
  atomic_fetch_add(&acl__managed_count, 1);
  pthread_mutex_unlock(&acl__managed.lock);
  *out = (void *)start;
  return 0;
}

int acl__mem_managed_free(const char *api, void *p, int *rc) {
  if (atomic_load_explicit(&acl__managed_count, memory_order_acquire) == 0)
    return 0;
  uintptr_t a = (uintptr_t)p;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = acl__managed_find_locked(a);
  if (m == NULL) {
    pthread_mutex_unlock(&acl__managed.lock);
    return 0;
  }
  if (m->node.addr != a) {
    uintptr_t start = m->node.addr;
    size_t req = m->node.requested;
    pthread_mutex_unlock(&acl__managed.lock);
    *rc = acl__fail(api, ACL_ERROR_RT_MEMORY_FREE, __FILE__, __LINE__,
                    "%p is %zu bytes into the %zu-byte managed allocation at %p, not its start. Remedy: pass "
                    "aclrtFree the pointer aclrtMemAllocManaged returned",
                    p, (size_t)(a - start), req, (void *)start);
    return 0;
  }
  acl__managed.root = acl__mtree_erase(acl__managed.root, a);
  acl__managed.total -= m->node.size;
  atomic_fetch_sub(&acl__managed_count, 1);
  pthread_mutex_unlock(&acl__managed.lock);
  munmap((void *)m->node.addr, m->node.size);
  free(m->pages);
  free(m);
  return 1;
}

int acl__mem_managed_classify(uintptr_t a, acl__ptr_info *info) {
  if (atomic_load_explicit(&acl__managed_count, memory_order_acquire) == 0)
    return 0;
  int32_t dev_id = -1;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = acl__managed_find_locked(a);
  if (m != NULL) {
    memset(info, 0, sizeof(*info));
    info->kind = ACL__PTR_MANAGED;
    info->alloc_base = (void *)m->node.addr;
    info->alloc_size = m->node.size; /* the whole rounded allocation is usable */
    info->offset = a - m->node.addr;
    dev_id = m->dev_id;
  }
  pthread_mutex_unlock(&acl__managed.lock);
  if (m != NULL)
    info->dev = acl__mem_open_device(dev_id); /* device code may use it: the device it was made on */
  return m != NULL;
}

void acl__mem_managed_atfork_child(void) {
  /* Private anonymous mappings are copied into the child, but its runtime
   * starts over: forget the parent's allocations (their nodes leak). */
  pthread_mutex_init(&acl__managed.lock, NULL);
  acl__managed.root = NULL;
  acl__managed.total = 0;
  atomic_store(&acl__managed_count, 0);
}

/* ---- ranges and locations ------------------------------------------------------------ */

int acl__managed_check_range(const char *api, const void *ptr, uint64_t size) {
  uintptr_t a = (uintptr_t)ptr;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = atomic_load(&acl__managed_count) ? acl__managed_find_locked(a) : NULL;
  uintptr_t start = m != NULL ? m->node.addr : 0;
  size_t span = m != NULL ? m->node.size : 0;
  pthread_mutex_unlock(&acl__managed.lock);
  if (m == NULL)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "ptr %p is not managed memory. Remedy: pass memory from aclrtMemAllocManaged", ptr);
  if (size > span - (a - start))
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "%llu bytes from %p run past the end of the %zu-byte managed allocation at %p (%zu bytes are "
                     "left)",
                     (unsigned long long)size, ptr, span, (void *)start, (size_t)(span - (a - start)));
  return 0;
}

static int acl__numa_node_exists(int32_t id) {
  if (id < 0)
    return 0;
  char path[64];
  snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", (int)id);
  struct stat st;
  if (stat(path, &st) == 0)
    return 1;
  /* No sysfs (containers): a machine without NUMA information has node 0. */
  return id == 0 && stat("/sys/devices/system/node", &st) != 0;
}

static int32_t acl__numa_current(void) {
  unsigned cpu = 0, node = 0;
  if (getcpu(&cpu, &node) != 0)
    return 0;
  return (int32_t)node;
}

int acl__managed_check_location(const char *api, const char *what, aclrtMemManagedLocation loc) {
  int rc = 0;
  switch (loc.type) {
  case ACL_MEM_LOCATIONTYPE_INVALID:
  case ACL_MEM_LOCATIONTYPE_HOST:
  case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT:
    return 0; /* id ignored */
  case ACL_MEM_LOCATIONTYPE_DEVICE:
    if (acl__device_get(api, loc.id, &rc) == NULL)
      return rc;
    return 0;
  case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
    if (!acl__numa_node_exists(loc.id))
      return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                       "%s.id %d is not a NUMA node of this host", what, (int)loc.id);
    return 0;
  default:
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s.type %d is not an aclrtMemManagedLocationType value (0..4)", what, (int)loc.type);
  }
}

static acl__mloc acl__mloc_of(aclrtMemManagedLocation loc) {
  acl__mloc m = {(int8_t)loc.type, loc.id};
  if (loc.type == ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT) {
    m.type = ACL_MEM_LOCATIONTYPE_HOST_NUMA;
    m.id = acl__numa_current();
  } else if (loc.type == ACL_MEM_LOCATIONTYPE_HOST || loc.type == ACL_MEM_LOCATIONTYPE_INVALID) {
    m.id = 0;
  }
  return m;
}

/* The pages [*first, *end) of m that [a, a + size) touches. */
static void acl__managed_pages(const acl__mrange *m, uintptr_t a, uint64_t size, size_t *first, size_t *end) {
  uint64_t off = a - m->node.addr;
  *first = (size_t)(off / ACL__MANAGED_PAGE);
  uint64_t last = (off + (size ? size : 1) - 1) / ACL__MANAGED_PAGE;
  *end = (size_t)last + 1 > m->npages ? m->npages : (size_t)last + 1;
}

/* ---- advice and prefetch ---------------------------------------------------------------- */

int acl__managed_advise(const char *api, const void *ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                        aclrtMemManagedLocation loc) {
  acl__mloc l = acl__mloc_of(loc);
  int host = l.type == ACL_MEM_LOCATIONTYPE_HOST || l.type == ACL_MEM_LOCATIONTYPE_HOST_NUMA;
  if ((advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
       advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY) &&
      l.type == ACL_MEM_LOCATIONTYPE_INVALID)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "this advice needs a location (a device or the host), and location.type is "
                     "ACL_MEM_LOCATIONTYPE_INVALID");
  uintptr_t a = (uintptr_t)ptr;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = acl__managed_find_locked(a);
  if (m != NULL) {
    size_t first, end;
    acl__managed_pages(m, a, size, &first, &end);
    for (size_t i = first; i < end; i++) {
      acl__mpage *pg = &m->pages[i];
      switch (advise) {
      case ACL_MEM_ADVISE_SET_READ_MOSTLY:
        pg->read_mostly = 1;
        break;
      case ACL_MEM_ADVISE_UNSET_READ_MOSTLY:
        pg->read_mostly = 0;
        break;
      case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION:
        pg->preferred = l;
        break;
      case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        pg->preferred.type = ACL_MEM_LOCATIONTYPE_INVALID;
        pg->preferred.id = 0;
        break;
      case ACL_MEM_ADVISE_SET_ACCESSED_BY:
        if (host)
          pg->accessed_by_host = 1;
        else if (l.id >= 0 && l.id < 64)
          pg->accessed_by |= (uint64_t)1 << l.id;
        break;
      case ACL_MEM_ADVISE_UNSET_ACCESSED_BY:
        if (host)
          pg->accessed_by_host = 0;
        else if (l.id >= 0 && l.id < 64)
          pg->accessed_by &= ~((uint64_t)1 << l.id);
        break;
      }
    }
  }
  pthread_mutex_unlock(&acl__managed.lock);
  return 0;
}

void acl__managed_prefetch_run(const void *ptr, uint64_t size, aclrtMemManagedLocation loc) {
  acl__mloc l = acl__mloc_of(loc);
  uintptr_t a = (uintptr_t)ptr;
  int live = 0;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = acl__managed_find_locked(a);
  if (m != NULL && size <= m->node.size - (a - m->node.addr)) {
    size_t first, end;
    acl__managed_pages(m, a, size, &first, &end);
    for (size_t i = first; i < end; i++)
      m->pages[i].last_prefetch = l;
    live = 1;
  }
  pthread_mutex_unlock(&acl__managed.lock);
#ifdef MADV_POPULATE_WRITE
  /* The data "arrives": its pages are made present, as a migration would.
   * (Freed meanwhile: nothing to do.  A racing aclrtFree is the caller's
   * bug, as on a card; populating an unmapped range only fails.) */
  if (live)
    madvise((void *)a, (size_t)size, MADV_POPULATE_WRITE);
#else
  (void)live;
#endif
}

/* ---- attributes ----------------------------------------------------------------------- */

/* What all pages [first, end) share: the chosen location, or type INVALID / id -2 when they differ. */
static acl__mloc acl__managed_common(const acl__mrange *m, size_t first, size_t end, int last) {
  acl__mloc c = last ? m->pages[first].last_prefetch : m->pages[first].preferred;
  for (size_t i = first + 1; i < end; i++) {
    acl__mloc x = last ? m->pages[i].last_prefetch : m->pages[i].preferred;
    if (x.type != c.type || x.id != c.id) {
      c.type = ACL_MEM_LOCATIONTYPE_INVALID;
      c.id = -2;
      return c;
    }
  }
  return c;
}

/* The vendor's integer encodings: a device's id, -1 for the host, -2 for none or mixed. */
static int32_t acl__mloc_location(acl__mloc c) {
  switch (c.type) {
  case ACL_MEM_LOCATIONTYPE_DEVICE:
    return c.id;
  case ACL_MEM_LOCATIONTYPE_HOST:
  case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
    return -1;
  default:
    return -2;
  }
}

static int32_t acl__mloc_id(acl__mloc c) {
  switch (c.type) {
  case ACL_MEM_LOCATIONTYPE_DEVICE:
  case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
    return c.id;
  case ACL_MEM_LOCATIONTYPE_HOST:
    return -1;
  default:
    return -2;
  }
}

int acl__managed_get_attr(const char *api, aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size,
                          void *data, size_t data_size) {
  int accessed = attribute == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY;
  if (attribute < ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY || attribute > ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "attribute %d is not an aclrtMemManagedRangeAttribute value (1..8)", (int)attribute);
  if (accessed ? (data_size == 0 || data_size % 4 != 0) : data_size != 4)
    return acl__fail(api, ACL_ERROR_RT_PARAM_INVALID, __FILE__, __LINE__,
                     "dataSize %zu does not fit attribute %d: %s", data_size, (int)attribute,
                     accessed ? "ACCESSED_BY takes a non-zero multiple of 4 bytes (an int per accessor)"
                              : "it takes exactly 4 bytes");
  int rc = acl__managed_check_range(api, ptr, size);
  if (rc != 0)
    return rc;
  uintptr_t a = (uintptr_t)ptr;
  int32_t v = -2;
  size_t nslots = data_size / 4;
  int32_t slots[65];
  size_t nacc = 0;
  pthread_mutex_lock(&acl__managed.lock);
  acl__mrange *m = acl__managed_find_locked(a);
  if (m != NULL) {
    size_t first, end;
    acl__managed_pages(m, a, size, &first, &end);
    switch (attribute) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
      v = 1;
      for (size_t i = first; i < end; i++)
        if (!m->pages[i].read_mostly)
          v = 0;
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
      v = acl__mloc_location(acl__managed_common(m, first, end, 0));
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
      v = acl__managed_common(m, first, end, 0).type;
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
      v = acl__mloc_id(acl__managed_common(m, first, end, 0));
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
      v = acl__mloc_location(acl__managed_common(m, first, end, 1));
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
      v = acl__managed_common(m, first, end, 1).type;
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
      v = acl__mloc_id(acl__managed_common(m, first, end, 1));
      break;
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      /* the accessors every page of the range has */
      uint64_t devs = ~(uint64_t)0;
      int host = 1;
      for (size_t i = first; i < end; i++) {
        devs &= m->pages[i].accessed_by;
        host = host && m->pages[i].accessed_by_host;
      }
      for (int d = 0; d < 64; d++)
        if (devs & ((uint64_t)1 << d))
          slots[nacc++] = d;
      if (host)
        slots[nacc++] = -1;
      break;
    }
    }
  }
  pthread_mutex_unlock(&acl__managed.lock);
  if (accessed) {
    for (size_t i = 0; i < nslots; i++) {
      int32_t x = i < nacc ? slots[i] : -2;
      memcpy((char *)data + 4 * i, &x, 4);
    }
  } else {
    memcpy(data, &v, 4);
  }
  return 0;
}
