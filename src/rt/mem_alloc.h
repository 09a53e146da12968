/*
 * mem_alloc.h - the sub-allocator that carves one device's address range
 * into allocations, and the address-ordered tree the pointer lookups use.
 *
 * An arena covers [base, base + span) and hands out blocks whose start and
 * size are multiples of 64 bytes.  It is a two-level segregated fit (size
 * classes with free lists, 16 classes per power of two, bitmaps to find a
 * non-empty class in O(1)); a freed block is merged with free neighbours at
 * once, so freeing and allocating similar sizes keeps reusing the same
 * addresses and the same physical pages.  Every block is described by a node
 * kept in host memory (never inside the device range); live allocations are
 * also kept in a treap keyed by address, which finds the allocation that
 * contains an interior pointer in O(log n).
 *
 * Capacity: the arena counts the bytes its callers charge for each live
 * allocation (the vendor's sizing) and refuses to go above `capacity`; the
 * span is larger than the capacity so that fragmentation rarely makes an
 * allocation fail while the capacity still has room.
 *
 * Nothing here locks: the owner (memory.c) holds its per-device lock around
 * every call.  Nothing here touches the memory it manages, except through
 * the release callback of acl__arena_trim.
 */
#ifndef OPENACL_RT_MEM_ALLOC_H
#define OPENACL_RT_MEM_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define ACL__ARENA_ALIGN 64u
#define ACL__ARENA_SL_BITS 4
#define ACL__ARENA_SL_COUNT (1 << ACL__ARENA_SL_BITS)
#define ACL__ARENA_FL_COUNT 48

typedef struct acl__mblock acl__mblock;

/* One block of an arena (free or allocated), or one pinned host allocation
 * (memory.c uses the same node and tree for those). */
struct acl__mblock {
  uintptr_t addr;
  size_t size;                        /* address space covered (multiple of 64) */
  acl__mblock *prev, *next;           /* neighbours in address order */
  acl__mblock *free_prev, *free_next; /* the free list of its class (free blocks) */
  acl__mblock *left, *right;          /* treap of live allocations */
  uint32_t prio;                      /* treap priority */
  uint8_t is_free;
  /* What the owner records about a live allocation. */
  size_t requested;   /* bytes the caller asked for */
  size_t charged;     /* bytes counted against the capacity */
  const char *api;    /* "aclrtMalloc", ... */
  const char *caller; /* where it was called from (interned) */
  uint32_t policy;
  uint16_t module; /* the component it is counted for (aclrtGetMemUsageInfo) */
  uint64_t serial; /* allocation number on this device */
  void *owner;     /* the owner's record (host_register.c: the registration; memory.c: an IPC import,
                      or a reservation when vmm is set) */
  uint32_t uoff;   /* the allocation starts at addr + uoff (IPC imports of unaligned ranges), else 0 */
  uint8_t exported; /* memory.c: an IPC key was made for part of it */
  uint8_t vmm;      /* a virtual address reservation (vmm.c): owner is its record, not an IPC import */
};

typedef struct acl__node_chunk acl__node_chunk;

typedef struct acl__arena {
  uintptr_t base;
  size_t span;
  size_t capacity;
  size_t charged; /* sum of `charged` over live allocations */
  size_t peak_charged;
  size_t live;          /* live allocations */
  size_t live_bytes;    /* sum of block sizes of live allocations */
  uintptr_t high_water; /* end of the highest block handed out since the last trim */
  size_t dirty;         /* bytes freed and not handed out again since the last trim */
  uint64_t fl_bitmap;
  uint32_t sl_bitmap[ACL__ARENA_FL_COUNT];
  acl__mblock *heads[ACL__ARENA_FL_COUNT][ACL__ARENA_SL_COUNT];
  acl__mblock *first; /* lowest block */
  acl__mblock *root;  /* treap of live allocations */
  uint32_t rng;
  /* node pool */
  acl__node_chunk *chunks;
  acl__mblock *spare;
} acl__arena;

/* Results of acl__arena_alloc besides 0. */
#define ACL__ARENA_OVER_CAPACITY 1  /* charged + request > capacity */
#define ACL__ARENA_NO_RANGE 2       /* capacity left, but no free range that large (fragmentation) */
#define ACL__ARENA_NO_HOST_MEMORY 3 /* a node could not be allocated */

/* base and span must be multiples of 64; span >= 64.  0, or -1 when out of
 * host memory. */
int acl__arena_init(acl__arena *a, uintptr_t base, size_t span, size_t capacity);
/* Releases every node; the arena must be initialised again before use. */
void acl__arena_fini(acl__arena *a);
/* Forgets every allocation: the whole span is one free block again. */
void acl__arena_reset(acl__arena *a);

/* Allocates a block of at least `bytes` (rounded up to 64) charging
 * `charge` bytes against the capacity. */
int acl__arena_alloc(acl__arena *a, size_t bytes, size_t charge, acl__mblock **out);
/* As acl__arena_alloc, with the block's start a multiple of `align` (a power
 * of two, >= 64). */
int acl__arena_alloc_aligned(acl__arena *a, size_t bytes, size_t align, size_t charge, acl__mblock **out);
void acl__arena_free(acl__arena *a, acl__mblock *b);
/* The live allocation whose block contains p, or NULL. */
acl__mblock *acl__arena_find(const acl__arena *a, uintptr_t p);
/* Calls fn for each live allocation in address order; stops when fn returns nonzero. */
void acl__arena_foreach(const acl__arena *a, int (*fn)(acl__mblock *b, void *arg), void *arg);
/* The largest free block. */
size_t acl__arena_largest_free(const acl__arena *a);
/* Bytes freed and not handed out again since the last trim: free space that
 * may still hold physical pages. */
size_t acl__arena_dirty(const acl__arena *a);
/* Calls release(addr, len) for the page-aligned inside of every free block
 * below the high-water mark, then lowers the mark to the top live block. */
void acl__arena_trim(acl__arena *a, size_t page, void (*release)(uintptr_t addr, size_t len, void *arg), void *arg);

/* The treap on its own (also used for pinned host memory). */
acl__mblock *acl__mtree_insert(acl__mblock *root, acl__mblock *n, uint32_t *rng);
acl__mblock *acl__mtree_erase(acl__mblock *root, uintptr_t addr);
/* The node with the greatest addr <= p, or NULL. */
acl__mblock *acl__mtree_floor(acl__mblock *root, uintptr_t p);

#endif
