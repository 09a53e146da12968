/* fail_alloc.c - see fail_alloc.h. */
#include "fail_alloc.h"

#include <stdatomic.h>
#include <stddef.h>

#include "harness.h"

#if !TH_SANITIZED
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static atomic_long th_countdown = -1; /* fail when it reaches 0; -1 = off */
static atomic_long th_live;           /* allocations not yet freed */
static atomic_long th_calls;          /* allocation calls so far */

static int th_should_fail(void) {
  atomic_fetch_add(&th_calls, 1);
  if (atomic_load(&th_countdown) < 0)
    return 0;
  return atomic_fetch_sub(&th_countdown, 1) == 0;
}

void *malloc(size_t n) {
  void *p = th_should_fail() ? NULL : __libc_malloc(n);
  if (p)
    atomic_fetch_add(&th_live, 1);
  return p;
}

void *calloc(size_t a, size_t b) {
  void *p = th_should_fail() ? NULL : __libc_calloc(a, b);
  if (p)
    atomic_fetch_add(&th_live, 1);
  return p;
}

void *realloc(void *old, size_t n) {
  if (th_should_fail())
    return NULL;
  void *p = __libc_realloc(old, n);
  if (p && old == NULL)
    atomic_fetch_add(&th_live, 1);
  if (n == 0 && old != NULL && p == NULL)
    atomic_fetch_sub(&th_live, 1);
  return p;
}

void free(void *p) {
  if (p)
    atomic_fetch_sub(&th_live, 1);
  __libc_free(p);
}

long th_alloc_calls(void) { return atomic_load(&th_calls); }
long th_alloc_live(void) { return atomic_load(&th_live); }

long th_fail_each_allocation(void (*scenario)(void *arg), void *arg, void (*settle)(void)) {
  long c0 = atomic_load(&th_calls);
  scenario(arg);
  long total = atomic_load(&th_calls) - c0;
  if (settle)
    settle();
  for (long n = 0; n < total; n++) {
    long before = atomic_load(&th_live);
    atomic_store(&th_countdown, n);
    scenario(arg);
    atomic_store(&th_countdown, -1);
    if (settle)
      settle();
    long after = atomic_load(&th_live);
    if (after != before)
      th_fail(__FILE__, __LINE__, "failing allocation %ld of %ld leaked %ld allocations", n, total, after - before);
  }
  return total;
}
#endif
