/*
 * mem_alloc.c - the device-memory sub-allocator (see mem_alloc.h): a
 * two-level segregated fit over one address range, with out-of-band block
 * nodes and a treap of live allocations.
 *
 * Size classes: sizes below 1 KiB fall in 16 linear classes of 64 bytes;
 * above, each power of two [2^f, 2^(f+1)) is split in 16 equal classes.
 * Every free block sits in the list of the class its size falls in.  To
 * allocate n bytes we look in the first class whose every block is >= n
 * (n rounded up to its class boundary), found with two bitmap scans; if
 * none, we scan the class n itself falls in (a block there may still fit).
 * The chosen block is split and the rest goes back to its class.  Freeing
 * merges the block with free neighbours (address-ordered links) at once.
 */
#include "rt/mem_alloc.h"

#include <stdlib.h>
#include <string.h>

#define ACL__ARENA_SHIFT 6 /* log2(ACL__ARENA_ALIGN) */
#define ACL__ARENA_SMALL ((size_t)1 << (ACL__ARENA_SL_BITS + ACL__ARENA_SHIFT))
#define ACL__NODES_PER_CHUNK 512

struct acl__node_chunk {
  acl__node_chunk *next;
  acl__mblock nodes[ACL__NODES_PER_CHUNK];
};

/* ---- treap ------------------------------------------------------------- */

static uint32_t acl__mtree_rand(uint32_t *s) {
  uint32_t x = *s ? *s : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

acl__mblock *acl__mtree_insert(acl__mblock *root, acl__mblock *n, uint32_t *rng) {
  if (root == NULL) {
    n->left = n->right = NULL;
    n->prio = acl__mtree_rand(rng);
    return n;
  }
  if (n->addr < root->addr) {
    root->left = acl__mtree_insert(root->left, n, rng);
    if (root->left->prio > root->prio) {
      acl__mblock *l = root->left;
      root->left = l->right;
      l->right = root;
      return l;
    }
  } else {
    root->right = acl__mtree_insert(root->right, n, rng);
    if (root->right->prio > root->prio) {
      acl__mblock *r = root->right;
      root->right = r->left;
      r->left = root;
      return r;
    }
  }
  return root;
}

static acl__mblock *acl__mtree_merge(acl__mblock *a, acl__mblock *b) {
  if (a == NULL)
    return b;
  if (b == NULL)
    return a;
  if (a->prio > b->prio) {
    a->right = acl__mtree_merge(a->right, b);
    return a;
  }
  b->left = acl__mtree_merge(a, b->left);
  return b;
}

acl__mblock *acl__mtree_erase(acl__mblock *root, uintptr_t addr) {
  if (root == NULL)
    return NULL;
  if (addr < root->addr)
    root->left = acl__mtree_erase(root->left, addr);
  else if (addr > root->addr)
    root->right = acl__mtree_erase(root->right, addr);
  else {
    acl__mblock *m = acl__mtree_merge(root->left, root->right);
    root->left = root->right = NULL;
    return m;
  }
  return root;
}

acl__mblock *acl__mtree_floor(acl__mblock *root, uintptr_t p) {
  acl__mblock *best = NULL;
  while (root != NULL) {
    if (root->addr <= p) {
      best = root;
      root = root->right;
    } else {
      root = root->left;
    }
  }
  return best;
}

/* ---- nodes ------------------------------------------------------------- */

static acl__mblock *acl__arena_node(acl__arena *a) {
  if (a->spare == NULL) {
    acl__node_chunk *c = malloc(sizeof(*c));
    if (c == NULL)
      return NULL;
    c->next = a->chunks;
    a->chunks = c;
    for (int i = ACL__NODES_PER_CHUNK - 1; i >= 0; i--) {
      c->nodes[i].next = a->spare;
      a->spare = &c->nodes[i];
    }
  }
  acl__mblock *n = a->spare;
  a->spare = n->next;
  memset(n, 0, sizeof(*n));
  return n;
}

static void acl__arena_node_put(acl__arena *a, acl__mblock *n) {
  n->next = a->spare;
  a->spare = n;
}

/* ---- size classes ------------------------------------------------------ */

static int acl__fls(size_t v) { /* index of the highest set bit; v != 0 */
  return (int)(sizeof(unsigned long long) * 8 - 1) - __builtin_clzll((unsigned long long)v);
}

static void acl__arena_mapping(size_t size, int *fl, int *sl) {
  if (size < ACL__ARENA_SMALL) {
    *fl = 0;
    *sl = (int)(size >> ACL__ARENA_SHIFT);
    return;
  }
  int f = acl__fls(size);
  *sl = (int)((size >> (f - ACL__ARENA_SL_BITS)) ^ ((size_t)1 << ACL__ARENA_SL_BITS));
  *fl = f - (ACL__ARENA_SL_BITS + ACL__ARENA_SHIFT) + 1;
  if (*fl >= ACL__ARENA_FL_COUNT) {
    *fl = ACL__ARENA_FL_COUNT - 1;
    *sl = ACL__ARENA_SL_COUNT - 1;
  }
}

static void acl__arena_list_add(acl__arena *a, acl__mblock *b) {
  int fl, sl;
  acl__arena_mapping(b->size, &fl, &sl);
  b->is_free = 1;
  b->free_prev = NULL;
  b->free_next = a->heads[fl][sl];
  if (b->free_next != NULL)
    b->free_next->free_prev = b;
  a->heads[fl][sl] = b;
  a->fl_bitmap |= (uint64_t)1 << fl;
  a->sl_bitmap[fl] |= (uint32_t)1 << sl;
}

static void acl__arena_list_remove(acl__arena *a, acl__mblock *b) {
  int fl, sl;
  acl__arena_mapping(b->size, &fl, &sl);
  if (b->free_prev != NULL)
    b->free_prev->free_next = b->free_next;
  else
    a->heads[fl][sl] = b->free_next;
  if (b->free_next != NULL)
    b->free_next->free_prev = b->free_prev;
  if (a->heads[fl][sl] == NULL) {
    a->sl_bitmap[fl] &= ~((uint32_t)1 << sl);
    if (a->sl_bitmap[fl] == 0)
      a->fl_bitmap &= ~((uint64_t)1 << fl);
  }
  b->free_prev = b->free_next = NULL;
  b->is_free = 0;
}

/* A free block of at least `size` bytes, or NULL. */
static acl__mblock *acl__arena_search(acl__arena *a, size_t size) {
  size_t rounded = size;
  if (size >= ACL__ARENA_SMALL)
    rounded += ((size_t)1 << (acl__fls(size) - ACL__ARENA_SL_BITS)) - 1;
  int fl, sl;
  acl__arena_mapping(rounded, &fl, &sl);
  uint32_t sl_map = a->sl_bitmap[fl] & (~(uint32_t)0 << sl);
  if (sl_map == 0) {
    uint64_t fl_map = fl + 1 < 64 ? a->fl_bitmap & (~(uint64_t)0 << (fl + 1)) : 0;
    if (fl_map != 0) {
      fl = __builtin_ctzll(fl_map);
      sl_map = a->sl_bitmap[fl];
    }
  }
  if (sl_map != 0) {
    sl = __builtin_ctz(sl_map);
    return a->heads[fl][sl];
  }
  /* Nothing in a class that surely fits: a block of the request's own class
   * may still be large enough (first fit, bounded). */
  acl__arena_mapping(size, &fl, &sl);
  int n = 0;
  for (acl__mblock *b = a->heads[fl][sl]; b != NULL && n < 256; b = b->free_next, n++)
    if (b->size >= size)
      return b;
  return NULL;
}

/* ---- arena ------------------------------------------------------------- */

static void acl__arena_free_nodes(acl__arena *a) {
  acl__node_chunk *c = a->chunks;
  while (c != NULL) {
    acl__node_chunk *next = c->next;
    free(c);
    c = next;
  }
  a->chunks = NULL;
  a->spare = NULL;
}

static int acl__arena_start(acl__arena *a) {
  memset(a->heads, 0, sizeof(a->heads));
  memset(a->sl_bitmap, 0, sizeof(a->sl_bitmap));
  a->fl_bitmap = 0;
  a->root = NULL;
  a->charged = a->live = a->live_bytes = 0;
  a->high_water = a->base;
  a->dirty = 0;
  acl__mblock *b = acl__arena_node(a);
  if (b == NULL)
    return -1;
  b->addr = a->base;
  b->size = a->span;
  a->first = b;
  acl__arena_list_add(a, b);
  return 0;
}

int acl__arena_init(acl__arena *a, uintptr_t base, size_t span, size_t capacity) {
  memset(a, 0, sizeof(*a));
  a->base = base;
  a->span = span & ~(size_t)(ACL__ARENA_ALIGN - 1);
  a->capacity = capacity;
  a->rng = 0x2545f491u ^ (uint32_t)(base >> 12);
  return acl__arena_start(a);
}

void acl__arena_fini(acl__arena *a) {
  acl__arena_free_nodes(a);
  a->first = NULL;
  a->root = NULL;
}

void acl__arena_reset(acl__arena *a) {
  /* Put every node back on the spare list, then start over. */
  acl__mblock *b = a->first;
  while (b != NULL) {
    acl__mblock *next = b->next;
    acl__arena_node_put(a, b);
    b = next;
  }
  a->first = NULL;
  if (acl__arena_start(a) != 0)
    a->first = NULL; /* cannot happen: the spare list has nodes */
}

int acl__arena_alloc(acl__arena *a, size_t bytes, size_t charge, acl__mblock **out) {
  *out = NULL;
  if (charge > a->capacity - a->charged)
    return ACL__ARENA_OVER_CAPACITY;
  if (bytes > a->span)
    return ACL__ARENA_NO_RANGE;
  size_t size = (bytes + ACL__ARENA_ALIGN - 1) & ~(size_t)(ACL__ARENA_ALIGN - 1);
  if (size == 0)
    size = ACL__ARENA_ALIGN;
  acl__mblock *b = acl__arena_search(a, size);
  if (b == NULL)
    return ACL__ARENA_NO_RANGE;
  acl__mblock *rest = NULL;
  if (b->size - size >= ACL__ARENA_ALIGN) {
    rest = acl__arena_node(a);
    if (rest == NULL)
      return ACL__ARENA_NO_HOST_MEMORY;
  }
  acl__arena_list_remove(a, b);
  if (rest != NULL) {
    rest->addr = b->addr + size;
    rest->size = b->size - size;
    rest->prev = b;
    rest->next = b->next;
    if (b->next != NULL)
      b->next->prev = rest;
    b->next = rest;
    b->size = size;
    acl__arena_list_add(a, rest);
  }
  b->charged = charge;
  b->requested = 0;
  a->root = acl__mtree_insert(a->root, b, &a->rng);
  a->charged += charge;
  if (a->charged > a->peak_charged)
    a->peak_charged = a->charged;
  a->live++;
  a->live_bytes += b->size;
  if (b->addr + b->size > a->high_water)
    a->high_water = b->addr + b->size;
  a->dirty = a->dirty > b->size ? a->dirty - b->size : 0;
  *out = b;
  return 0;
}

int acl__arena_alloc_aligned(acl__arena *a, size_t bytes, size_t align, size_t charge, acl__mblock **out) {
  if (align <= ACL__ARENA_ALIGN)
    return acl__arena_alloc(a, bytes, charge, out);
  size_t size = (bytes + ACL__ARENA_ALIGN - 1) & ~(size_t)(ACL__ARENA_ALIGN - 1);
  int r = acl__arena_alloc(a, size + align - ACL__ARENA_ALIGN, charge, out);
  if (r != 0)
    return r;
  acl__mblock *b = *out;
  size_t head = (size_t)((align - (b->addr & (align - 1))) & (align - 1));
  if (head == 0)
    return 0;
  /* Give [addr, addr + head) back as a free block before b. */
  acl__mblock *p = b->prev;
  a->root = acl__mtree_erase(a->root, b->addr);
  if (p != NULL && p->is_free) {
    acl__arena_list_remove(a, p);
    p->size += head;
    acl__arena_list_add(a, p);
  } else {
    acl__mblock *h = acl__arena_node(a);
    if (h == NULL) {
      a->root = acl__mtree_insert(a->root, b, &a->rng);
      acl__arena_free(a, b);
      *out = NULL;
      return ACL__ARENA_NO_HOST_MEMORY;
    }
    h->addr = b->addr;
    h->size = head;
    h->prev = p;
    h->next = b;
    if (p != NULL)
      p->next = h;
    else
      a->first = h;
    b->prev = h;
    acl__arena_list_add(a, h);
  }
  b->addr += head;
  b->size -= head;
  a->live_bytes -= head;
  a->root = acl__mtree_insert(a->root, b, &a->rng);
  return 0;
}

void acl__arena_free(acl__arena *a, acl__mblock *b) {
  a->root = acl__mtree_erase(a->root, b->addr);
  a->charged -= b->charged;
  a->live--;
  a->live_bytes -= b->size;
  a->dirty += b->size;
  b->charged = b->requested = 0;
  b->api = b->caller = NULL;
  b->owner = NULL;
  b->uoff = 0;
  b->exported = 0;
  b->vmm = 0;
  acl__mblock *p = b->prev, *n = b->next;
  if (n != NULL && n->is_free) {
    acl__arena_list_remove(a, n);
    b->size += n->size;
    b->next = n->next;
    if (n->next != NULL)
      n->next->prev = b;
    acl__arena_node_put(a, n);
  }
  if (p != NULL && p->is_free) {
    acl__arena_list_remove(a, p);
    p->size += b->size;
    p->next = b->next;
    if (b->next != NULL)
      b->next->prev = p;
    acl__arena_node_put(a, b);
    b = p;
  }
  acl__arena_list_add(a, b);
}

acl__mblock *acl__arena_find(const acl__arena *a, uintptr_t p) {
  acl__mblock *b = acl__mtree_floor(a->root, p);
  if (b != NULL && p - b->addr < b->size)
    return b;
  return NULL;
}

static int acl__arena_walk(acl__mblock *n, int (*fn)(acl__mblock *b, void *arg), void *arg) {
  while (n != NULL) {
    if (acl__arena_walk(n->left, fn, arg))
      return 1;
    if (fn(n, arg))
      return 1;
    n = n->right;
  }
  return 0;
}

void acl__arena_foreach(const acl__arena *a, int (*fn)(acl__mblock *b, void *arg), void *arg) {
  acl__arena_walk(a->root, fn, arg);
}

size_t acl__arena_largest_free(const acl__arena *a) {
  if (a->fl_bitmap == 0)
    return 0;
  int fl = acl__fls((size_t)a->fl_bitmap);
  int sl = acl__fls((size_t)a->sl_bitmap[fl]);
  size_t best = 0;
  for (const acl__mblock *b = a->heads[fl][sl]; b != NULL; b = b->free_next)
    if (b->size > best)
      best = b->size;
  return best;
}

size_t acl__arena_dirty(const acl__arena *a) { return a->dirty; }

void acl__arena_trim(acl__arena *a, size_t page, void (*release)(uintptr_t addr, size_t len, void *arg), void *arg) {
  uintptr_t top = a->base;
  for (acl__mblock *b = a->first; b != NULL && b->addr < a->high_water; b = b->next) {
    if (!b->is_free) {
      top = b->addr + b->size;
      continue;
    }
    /* Whole pages inside the free block, up to the mark: none is shared
     * with a live block, and pages above the mark were never handed out. */
    uintptr_t mask = ~(uintptr_t)(page - 1);
    uintptr_t lo = (b->addr + page - 1) & mask;
    uintptr_t hi = (b->addr + b->size) & mask;
    uintptr_t hw = (a->high_water + page - 1) & mask;
    if (hi > hw)
      hi = hw;
    if (hi > lo)
      release(lo, hi - lo, arg);
  }
  a->high_water = top;
  a->dirty = 0;
}
