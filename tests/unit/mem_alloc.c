/*
 * mem_alloc.c - unit tests of the device-memory sub-allocator
 * (src/rt/mem_alloc.c): alignment, capacity, reuse, coalescing, interior
 * lookups, trimming, and a randomised run that checks every invariant.
 * The arena never touches the memory it manages, so it runs over a made-up
 * address range.
 */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "rt/mem_alloc.h"

#define BASE ((uintptr_t)0x100000000000ull)

/* Walks the blocks and checks: they tile [base, base + span) in order, no
 * two free blocks touch, every free block is in the list of its class, the
 * tree holds exactly the live blocks, and the counters add up. */
static void check_invariants(const acl__arena *a) {
  uintptr_t at = a->base;
  size_t live = 0, live_bytes = 0, charged = 0;
  const acl__mblock *prev = NULL;
  for (const acl__mblock *b = a->first; b != NULL; b = b->next) {
    CHECK_INT_EQ(b->addr, at);
    CHECK(b->size > 0);
    CHECK_INT_EQ(b->size % 64, 0);
    CHECK(b->prev == prev);
    if (prev != NULL)
      CHECK(!(prev->is_free && b->is_free));
    if (!b->is_free) {
      live++;
      live_bytes += b->size;
      charged += b->charged;
      CHECK(acl__arena_find(a, b->addr) == b);
      CHECK(acl__arena_find(a, b->addr + b->size - 1) == b);
    } else {
      CHECK(acl__arena_find(a, b->addr) == NULL);
      int found = 0;
      for (int fl = 0; fl < ACL__ARENA_FL_COUNT && !found; fl++)
        for (int sl = 0; sl < ACL__ARENA_SL_COUNT && !found; sl++)
          for (const acl__mblock *f = a->heads[fl][sl]; f != NULL; f = f->free_next)
            if (f == b) {
              found = 1;
              CHECK(a->fl_bitmap & ((uint64_t)1 << fl));
              CHECK(a->sl_bitmap[fl] & (1u << sl));
            }
      CHECK(found);
    }
    at += b->size;
    prev = b;
  }
  CHECK_INT_EQ(at, a->base + a->span);
  CHECK_INT_EQ(live, a->live);
  CHECK_INT_EQ(live_bytes, a->live_bytes);
  CHECK_INT_EQ(charged, a->charged);
}

TEST(alignment_and_lookup) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, (size_t)1 << 30, (size_t)1 << 29), 0);
  acl__mblock *b[100];
  for (int i = 0; i < 100; i++) {
    CHECK_INT_EQ(acl__arena_alloc(&a, (size_t)(i * 37 + 1), (size_t)(i * 37 + 1), &b[i]), 0);
    CHECK_INT_EQ(b[i]->addr % 64, 0);
  }
  for (int i = 0; i < 100; i++) {
    CHECK(acl__arena_find(&a, b[i]->addr + (uintptr_t)(i * 37)) == b[i]);
  }
  CHECK(acl__arena_find(&a, BASE - 1) == NULL);
  CHECK(acl__arena_find(&a, BASE + ((size_t)1 << 29)) == NULL);
  check_invariants(&a);
  acl__arena_fini(&a);
}

TEST(capacity_is_charged_not_span) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, 2u << 20, 1u << 20), 0);
  acl__mblock *x, *y, *z;
  CHECK_INT_EQ(acl__arena_alloc(&a, 600 << 10, 600 << 10, &x), 0);
  CHECK_INT_EQ(acl__arena_alloc(&a, 600 << 10, 600 << 10, &y), ACL__ARENA_OVER_CAPACITY);
  CHECK(y == NULL);
  CHECK_INT_EQ(acl__arena_alloc(&a, 400 << 10, 400 << 10, &y), 0);
  CHECK_INT_EQ(a.charged, 1000 << 10);
  acl__arena_free(&a, x);
  CHECK_INT_EQ(acl__arena_alloc(&a, 600 << 10, 600 << 10, &z), 0);
  CHECK_INT_EQ(a.peak_charged, 1000 << 10);
  /* A request larger than the whole span fails as "no range". */
  acl__arena_free(&a, y);
  acl__arena_free(&a, z);
  a.capacity = (size_t)-1;
  CHECK_INT_EQ(acl__arena_alloc(&a, 3u << 20, 3u << 20, &z), ACL__ARENA_NO_RANGE);
  check_invariants(&a);
  acl__arena_fini(&a);
}

TEST(free_then_alloc_reuses_the_address) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, (size_t)1 << 30, (size_t)1 << 30), 0);
  acl__mblock *keep, *b;
  CHECK_INT_EQ(acl__arena_alloc(&a, 4096, 4096, &keep), 0);
  CHECK_INT_EQ(acl__arena_alloc(&a, 5000, 5000, &b), 0);
  uintptr_t first = b->addr;
  for (int i = 0; i < 10000; i++) {
    acl__arena_free(&a, b);
    CHECK_INT_EQ(acl__arena_alloc(&a, (size_t)(4000 + (i % 7) * 150), 64, &b), 0);
    CHECK_INT_EQ(b->addr, first);
  }
  check_invariants(&a);
  acl__arena_fini(&a);
}

TEST(coalescing_gives_back_one_block) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, 1u << 20, 1u << 20), 0);
  acl__mblock *b[16];
  for (int i = 0; i < 16; i++)
    CHECK_INT_EQ(acl__arena_alloc(&a, 64u << 10, 64u << 10, &b[i]), 0);
  CHECK_INT_EQ(acl__arena_largest_free(&a), 0);
  /* Free in an interleaved order; every merge path runs. */
  for (int i = 0; i < 16; i += 2)
    acl__arena_free(&a, b[i]);
  check_invariants(&a);
  CHECK_INT_EQ(acl__arena_largest_free(&a), 64u << 10);
  for (int i = 15; i >= 1; i -= 2)
    acl__arena_free(&a, b[i]);
  check_invariants(&a);
  CHECK(a.first->next == NULL);
  CHECK_INT_EQ(acl__arena_largest_free(&a), 1u << 20);
  /* The whole range can be had again in one piece. */
  acl__mblock *all;
  CHECK_INT_EQ(acl__arena_alloc(&a, 1u << 20, 1u << 20, &all), 0);
  CHECK_INT_EQ(all->addr, BASE);
  acl__arena_fini(&a);
}

struct released {
  size_t bytes;
  int calls;
};

static void note_release(uintptr_t addr, size_t len, void *arg) {
  struct released *r = arg;
  CHECK_INT_EQ(addr % 4096, 0);
  CHECK_INT_EQ(len % 4096, 0);
  r->bytes += len;
  r->calls++;
}

TEST(trim_releases_free_pages_only) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, 64u << 20, 64u << 20), 0);
  acl__mblock *x, *y, *z;
  CHECK_INT_EQ(acl__arena_alloc(&a, 1u << 20, 1u << 20, &x), 0);
  CHECK_INT_EQ(acl__arena_alloc(&a, 100, 100, &y), 0);
  CHECK_INT_EQ(acl__arena_alloc(&a, 1u << 20, 1u << 20, &z), 0);
  acl__arena_free(&a, x);
  acl__arena_free(&a, z);
  CHECK_INT_EQ(acl__arena_dirty(&a), 2u << 20);
  struct released r = {0, 0};
  acl__arena_trim(&a, 4096, note_release, &r);
  /* x's megabyte, and z's pages from the one after y's page up to the old mark. */
  CHECK(r.bytes >= (2u << 20) - 8192 && r.bytes <= (2u << 20));
  CHECK_INT_EQ(acl__arena_dirty(&a), 0);
  CHECK_INT_EQ(a.high_water, y->addr + y->size);
  check_invariants(&a);
  acl__arena_fini(&a);
}

TEST(reset_forgets_everything) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, 8u << 20, 8u << 20), 0);
  acl__mblock *b;
  for (int i = 0; i < 1000; i++)
    CHECK_INT_EQ(acl__arena_alloc(&a, 1000, 1000, &b), 0);
  acl__arena_reset(&a);
  CHECK_INT_EQ(a.live, 0);
  CHECK_INT_EQ(a.charged, 0);
  check_invariants(&a);
  CHECK_INT_EQ(acl__arena_alloc(&a, 8u << 20, 8u << 20, &b), 0);
  acl__arena_fini(&a);
}

static int count_cb(acl__mblock *b, void *arg) {
  uintptr_t *last = arg;
  CHECK(b->addr > *last);
  *last = b->addr;
  return 0;
}

TEST(random_stress_keeps_invariants) {
  acl__arena a;
  CHECK_INT_EQ(acl__arena_init(&a, BASE, 256u << 20, 128u << 20), 0);
  enum { N = 2000 };
  acl__mblock *live[N] = {0};
  unsigned seed = 12345;
  for (int step = 0; step < 200000; step++) {
    int i = (int)(rand_r(&seed) % N);
    if (live[i] != NULL) {
      acl__arena_free(&a, live[i]);
      live[i] = NULL;
    } else {
      int big = rand_r(&seed) % 50 == 0;
      size_t size = big ? (size_t)(rand_r(&seed) % (4u << 20)) + 1 : (size_t)(rand_r(&seed) % 20000) + 1;
      size_t charge = (size + 31) / 32 * 32 + 32;
      int rc = acl__arena_alloc(&a, charge, charge, &live[i]);
      CHECK(rc == 0 || rc == ACL__ARENA_OVER_CAPACITY || rc == ACL__ARENA_NO_RANGE);
      if (rc == 0) {
        live[i]->requested = size;
        CHECK_INT_EQ(live[i]->addr % 64, 0);
      }
    }
    if (step % 20000 == 0)
      check_invariants(&a);
  }
  check_invariants(&a);
  uintptr_t last = 0;
  acl__arena_foreach(&a, count_cb, &last);
  for (int i = 0; i < N; i++)
    if (live[i] != NULL)
      acl__arena_free(&a, live[i]);
  check_invariants(&a);
  CHECK(a.first->next == NULL);
  acl__arena_fini(&a);
}
