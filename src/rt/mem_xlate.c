/*
 * mem_xlate.c - the addresses device code uses for device memory (see
 * memory.h, "addresses for device code").
 *
 * Two kinds of range translate:
 *   - a device region protected by the alias mechanism (the backend maps its
 *     memory twice, src/hal/cpu/cpu_memory.c): every address p of the view
 *     host code holds becomes p + delta in the read-write alias.  One entry
 *     per device id: {base, span, delta}, written when the device opens and
 *     cleared when it closes (device lock held), read with atomics;
 *   - the registration window (host_register.c): the device-side addresses
 *     of registered host memory, which translate to the host pages behind
 *     them through a lookup (host_register.c keeps the tree).
 *
 * acl__mem_xlate_active counts the ranges in use, so that when nothing
 * translates (protection keys or none, no registration) acl__mem_dev_ptr is
 * a load and a compare.  No lock is taken on the hot path; the window lookup
 * takes the registration lock (a leaf).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "common/env.h"
#include "rt/mem_internal.h"
#include "rt/memory.h"

atomic_int acl__mem_xlate_active;

static struct {
  atomic_uintptr_t base;
  atomic_size_t span; /* 0: unused */
  atomic_uintptr_t delta;
} acl__xl[ACL__ENV_MAX_DEVICES];
static atomic_int acl__xl_hi; /* entries [0, hi) may be in use */
/* The last translation of each slot, kept after its device closed until it
 * opens again: acl__mem_dev_ptr_ever compares addresses with it (it is
 * never used to reach memory). */
static struct {
  atomic_uintptr_t base;
  atomic_size_t span;
  atomic_uintptr_t delta;
} acl__xl_old[ACL__ENV_MAX_DEVICES];

void acl__mem_xlate_region(int32_t dev_id, uintptr_t base, size_t span, uintptr_t alias) {
  if (dev_id < 0 || dev_id >= ACL__ENV_MAX_DEVICES)
    return;
  size_t old = atomic_load_explicit(&acl__xl[dev_id].span, memory_order_acquire);
  int on = span != 0 && alias != 0 && alias != base;
  /* Publish span last: a reader that sees it sees base and delta. */
  atomic_store_explicit(&acl__xl[dev_id].span, 0, memory_order_release);
  if (on) {
    atomic_store_explicit(&acl__xl[dev_id].base, base, memory_order_relaxed);
    atomic_store_explicit(&acl__xl[dev_id].delta, alias - base, memory_order_relaxed);
    atomic_store_explicit(&acl__xl[dev_id].span, span, memory_order_release);
    int hi = atomic_load(&acl__xl_hi);
    while (hi < dev_id + 1 && !atomic_compare_exchange_weak(&acl__xl_hi, &hi, dev_id + 1))
      ;
  }
  if (!on && old != 0) {
    atomic_store(&acl__xl_old[dev_id].base, atomic_load(&acl__xl[dev_id].base));
    atomic_store(&acl__xl_old[dev_id].delta, atomic_load(&acl__xl[dev_id].delta));
    atomic_store(&acl__xl_old[dev_id].span, old);
  } else if (on) {
    atomic_store(&acl__xl_old[dev_id].span, 0);
  }
  if (on && old == 0)
    atomic_fetch_add(&acl__mem_xlate_active, 1);
  else if (!on && old != 0)
    atomic_fetch_sub(&acl__mem_xlate_active, 1);
}

void acl__mem_xlate_forget_all(void) {
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    atomic_store_explicit(&acl__xl[i].span, 0, memory_order_relaxed);
    atomic_store_explicit(&acl__xl_old[i].span, 0, memory_order_relaxed);
  }
  atomic_store(&acl__xl_hi, 0);
  atomic_store(&acl__mem_xlate_active, acl__mem_reg_window_active() ? 1 : 0);
}

void *acl__mem_dev_ptr_slow(const void *p) {
  uintptr_t a = (uintptr_t)p;
  if (a == 0)
    return NULL;
  int hi = atomic_load_explicit(&acl__xl_hi, memory_order_acquire);
  for (int i = 0; i < hi; i++) {
    size_t span = atomic_load_explicit(&acl__xl[i].span, memory_order_acquire);
    if (span == 0)
      continue;
    uintptr_t base = atomic_load_explicit(&acl__xl[i].base, memory_order_relaxed);
    if (a - base < span)
      return (void *)(a + atomic_load_explicit(&acl__xl[i].delta, memory_order_relaxed));
  }
  uintptr_t host = 0;
  if (acl__mem_reg_translate(a, &host))
    return (void *)host;
  return (void *)(uintptr_t)p;
}

void *acl__mem_dev_ptr_ever(const void *p) {
  uintptr_t a = (uintptr_t)p;
  void *t = acl__mem_dev_ptr(p);
  if ((uintptr_t)t != a || a == 0)
    return t;
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    size_t span = atomic_load(&acl__xl_old[i].span);
    uintptr_t base = atomic_load(&acl__xl_old[i].base);
    if (span != 0 && a - base < span)
      return (void *)(a + atomic_load(&acl__xl_old[i].delta));
  }
  return t;
}

uintptr_t acl__mem_view_of(uintptr_t a) {
  if (atomic_load_explicit(&acl__mem_xlate_active, memory_order_acquire) == 0)
    return a;
  int hi = atomic_load_explicit(&acl__xl_hi, memory_order_acquire);
  for (int i = 0; i < hi; i++) {
    size_t span = atomic_load_explicit(&acl__xl[i].span, memory_order_acquire);
    if (span == 0)
      continue;
    uintptr_t base = atomic_load_explicit(&acl__xl[i].base, memory_order_relaxed);
    uintptr_t alias = base + atomic_load_explicit(&acl__xl[i].delta, memory_order_relaxed);
    if (a - alias < span)
      return a - alias + base;
  }
  return a;
}

void acl__mem_dev_args(void *args, size_t size) {
  if (atomic_load_explicit(&acl__mem_xlate_active, memory_order_acquire) == 0 || args == NULL)
    return;
  unsigned char *b = args;
  for (size_t off = 0; off + sizeof(uintptr_t) <= size; off += sizeof(uintptr_t)) {
    uintptr_t w;
    memcpy(&w, b + off, sizeof w);
    if (w == 0)
      continue;
    uintptr_t t = (uintptr_t)acl__mem_dev_ptr_slow((const void *)w);
    if (t != w)
      memcpy(b + off, &t, sizeof t);
  }
}
