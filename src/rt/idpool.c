/*
 * idpool.c - lock-free id sets (see idpool.h).  A word with a free bit is
 * claimed with a compare-and-swap; a lost race retries the same word.  The
 * scan starts at word 0 every time so that the lowest id is reused first:
 * with the largest pool (65536 events: 1024 words) a full scan is a few
 * hundred nanoseconds, and creating objects is not a hot path.
 */
#include "rt/idpool.h"

int32_t acl__idpool_take(_Atomic uint64_t *bits, size_t nwords) {
  for (size_t w = 0; w < nwords; w++) {
    uint64_t cur = atomic_load_explicit(&bits[w], memory_order_relaxed);
    while (cur != UINT64_MAX) {
      int b = __builtin_ctzll(~cur);
      if (atomic_compare_exchange_weak_explicit(&bits[w], &cur, cur | (1ull << b), memory_order_acq_rel,
                                                memory_order_relaxed))
        return (int32_t)(w * 64 + (size_t)b);
    }
  }
  return -1;
}

void acl__idpool_give(_Atomic uint64_t *bits, int32_t id) {
  if (id < 0)
    return;
  atomic_fetch_and_explicit(&bits[id / 64], ~(1ull << (id % 64)), memory_order_acq_rel);
}
