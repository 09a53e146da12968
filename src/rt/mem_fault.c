/*
 * mem_fault.c - the SIGSEGV handler that explains host accesses to device
 * memory, and the lock-free tables it reads (see mem_fault.h).
 *
 * The handler reads the region table (one entry per device, atomics) and
 * then asks memory.c for the allocation containing the address, which it
 * finds in the allocator's tree without taking the allocator's lock.  That
 * read is best effort: an allocation made or freed at that very moment by
 * another thread may be missed, and the message then only names the device.
 * Allocations pay nothing for it.
 *
 * The handler formats with its own digit routines and writes with write(2),
 * both async-signal-safe.  It then restores the default action and returns:
 * the faulting instruction runs again and the process dies of SIGSEGV, as
 * it would have without openacl.  Faults that are not ours go to the
 * handler that was installed before.
 */
#include "rt/mem_fault.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/env.h"
#include "common/log.h"
#include "rt/mem_internal.h"

#ifndef SEGV_PKUERR
#define SEGV_PKUERR 4
#endif

static struct {
  atomic_uintptr_t base;
  atomic_size_t span;
  _Atomic(const char *) mech;
  _Atomic(int (*)(void)) has_access;
} acl__fault_regions[ACL__ENV_MAX_DEVICES];
static atomic_uintptr_t acl__fault_win_base;
static atomic_size_t acl__fault_win_span;
/* The has_access of the last region registered: asks whether the faulting
 * thread is device code when the fault is in the registration window. */
static _Atomic(int (*)(void)) acl__fault_has_access;

static struct sigaction acl__fault_prev;
static atomic_int acl__fault_open_warned; /* the first acl__mem_fault_open was reported */
/* That report, written by the handler (which cannot log) and logged as a
 * WARNING by the executor when the task ends (acl__mem_fault_log_note): the
 * library prints nothing the log settings do not ask for. */
static char acl__fault_note[1024];
atomic_int acl__mem_fault_note_pending;
static pthread_once_t acl__fault_once = PTHREAD_ONCE_INIT;

/* ---- tables ------------------------------------------------------------ */

void acl__mem_fault_region(int32_t dev_id, uintptr_t base, size_t span, const char *mech, int (*has_access)(void)) {
  if (dev_id < 0 || dev_id >= ACL__ENV_MAX_DEVICES)
    return;
  atomic_store_explicit(&acl__fault_regions[dev_id].span, 0, memory_order_release);
  atomic_store_explicit(&acl__fault_regions[dev_id].base, base, memory_order_release);
  atomic_store_explicit(&acl__fault_regions[dev_id].mech, mech, memory_order_release);
  atomic_store_explicit(&acl__fault_regions[dev_id].has_access, has_access, memory_order_release);
  if (has_access != NULL)
    atomic_store_explicit(&acl__fault_has_access, has_access, memory_order_release);
  atomic_store_explicit(&acl__fault_regions[dev_id].span, span, memory_order_release);
}

void acl__mem_fault_window(uintptr_t base, size_t span) {
  atomic_store_explicit(&acl__fault_win_span, 0, memory_order_release);
  atomic_store_explicit(&acl__fault_win_base, base, memory_order_release);
  atomic_store_explicit(&acl__fault_win_span, span, memory_order_release);
}

/* ---- caller names ---------------------------------------------------------- */

#define ACL__CALLER_SLOTS 256

static pthread_mutex_t acl__caller_lock = PTHREAD_MUTEX_INITIALIZER; /* serialises inserts */
/* Open addressing; an entry's name is stored before its ra is published, so
 * a reader that sees ra sees the name (hits take no lock). */
static struct {
  _Atomic(const void *) ra;
  _Atomic(const char *) name;
} acl__callers[ACL__CALLER_SLOTS];

/* The name of the code at ra, formatted into a fresh string; NULL if out of memory. */
static char *acl__caller_format(const void *ra) {
  Dl_info info;
  char buf[256];
  memset(&info, 0, sizeof(info));
  if (dladdr(ra, &info) != 0 && info.dli_sname != NULL)
    snprintf(buf, sizeof(buf), "%s+0x%lx", info.dli_sname, (unsigned long)((uintptr_t)ra - (uintptr_t)info.dli_saddr));
  else if (info.dli_fname != NULL && info.dli_fname[0] != '\0') {
    const char *slash = strrchr(info.dli_fname, '/');
    snprintf(buf, sizeof(buf), "%s+0x%lx", slash ? slash + 1 : info.dli_fname,
             (unsigned long)((uintptr_t)ra - (uintptr_t)info.dli_fbase));
  } else
    snprintf(buf, sizeof(buf), "code at %p", ra);
  return strdup(buf);
}

const char *acl__mem_caller_name(const void *ra) {
  if (ra == NULL)
    return "an unknown caller";
  size_t h = (size_t)(((uintptr_t)ra >> 2) * 0x9e3779b97f4a7c15ull >> 56);
  for (size_t n = 0; n < ACL__CALLER_SLOTS; n++) {
    size_t i = (h + n) % ACL__CALLER_SLOTS;
    const void *cur = atomic_load_explicit(&acl__callers[i].ra, memory_order_acquire);
    if (cur == ra)
      return atomic_load_explicit(&acl__callers[i].name, memory_order_relaxed);
    if (cur != NULL)
      continue;
    /* Free slot: insert under the lock (another thread may be inserting too). */
    const char *name = NULL;
    pthread_mutex_lock(&acl__caller_lock);
    for (; n < ACL__CALLER_SLOTS; n++) {
      i = (h + n) % ACL__CALLER_SLOTS;
      cur = atomic_load_explicit(&acl__callers[i].ra, memory_order_relaxed);
      if (cur == ra) {
        name = atomic_load_explicit(&acl__callers[i].name, memory_order_relaxed);
        break;
      }
      if (cur == NULL) {
        char *fresh = acl__caller_format(ra);
        if (fresh != NULL) {
          atomic_store_explicit(&acl__callers[i].name, fresh, memory_order_relaxed);
          atomic_store_explicit(&acl__callers[i].ra, ra, memory_order_release);
        }
        name = fresh;
        break;
      }
    }
    pthread_mutex_unlock(&acl__caller_lock);
    return name != NULL ? name : "an unknown caller";
  }
  return "an unknown caller";
}

void acl__mem_fault_atfork_child(void) { pthread_mutex_init(&acl__caller_lock, NULL); }

void acl__mem_fault_log_note(void) {
  if (atomic_exchange_explicit(&acl__mem_fault_note_pending, 0, memory_order_acquire))
    ACL__LOGW(ACL__MOD_RUNTIME, "%s", acl__fault_note);
}

/* ---- the handler ------------------------------------------------------------- */

typedef struct acl__sbuf {
  char b[1024];
  size_t n;
} acl__sbuf;

static void acl__sb_str(acl__sbuf *s, const char *t) {
  while (t != NULL && *t != '\0' && s->n < sizeof(s->b) - 1)
    s->b[s->n++] = *t++;
}

static void acl__sb_hex(acl__sbuf *s, uintptr_t v) {
  char tmp[2 + 16];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v != 0);
  acl__sb_str(s, "0x");
  while (n > 0 && s->n < sizeof(s->b) - 1)
    s->b[s->n++] = tmp[--n];
}

static void acl__sb_dec(acl__sbuf *s, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0 && s->n < sizeof(s->b) - 1)
    s->b[s->n++] = tmp[--n];
}

/* The device whose region holds a, or -1. */
static int acl__fault_region_of(uintptr_t a) {
  for (int i = 0; i < ACL__ENV_MAX_DEVICES; i++) {
    uintptr_t base = atomic_load_explicit(&acl__fault_regions[i].base, memory_order_acquire);
    size_t span = atomic_load_explicit(&acl__fault_regions[i].span, memory_order_acquire);
    if (span != 0 && a >= base && a - base < span)
      return i;
  }
  return -1;
}

static void acl__fault_pass_on(int sig, siginfo_t *info, void *uctx) {
  if (acl__fault_prev.sa_flags & SA_SIGINFO) {
    if (acl__fault_prev.sa_sigaction != NULL) {
      acl__fault_prev.sa_sigaction(sig, info, uctx);
      return;
    }
  } else if (acl__fault_prev.sa_handler != SIG_DFL && acl__fault_prev.sa_handler != SIG_IGN) {
    acl__fault_prev.sa_handler(sig);
    return;
  }
  /* Default action: return, fault again, die of the signal. */
  signal(sig, SIG_DFL);
}

/* A fault at a, the device-side address of registered host memory. */
static void acl__fault_window_message(acl__sbuf *s, uintptr_t a, int device_code) {
  uintptr_t dbase = 0, host = 0;
  size_t size = 0;
  const char *api = NULL, *caller = NULL;
  int found = acl__mem_reg_fault_describe(a, &dbase, &host, &size, &api, &caller);
  acl__sb_str(s, device_code ? "openacl: device code followed " : "openacl: host code accessed ");
  acl__sb_hex(s, a);
  acl__sb_str(s, ", the device-side address of registered host memory");
  if (found) {
    acl__sb_str(s, " (");
    acl__sb_dec(s, (uint64_t)(a - dbase));
    acl__sb_str(s, " bytes into the ");
    acl__sb_dec(s, size);
    acl__sb_str(s, "-byte range at host ");
    acl__sb_hex(s, host);
    acl__sb_str(s, " registered by ");
    acl__sb_str(s, api != NULL ? api : "aclrtHostRegister");
    acl__sb_str(s, " from ");
    acl__sb_str(s, caller != NULL ? caller : "an unknown caller");
    acl__sb_str(s, ")");
  } else {
    acl__sb_str(s, " (no live registration covers it: unregistered already?)");
  }
  if (device_code)
    acl__sb_str(s, ", which it read from memory: the runtime translates such addresses only where it hands them to "
                   "device code (kernel arguments). Remedy: pass the address as a kernel argument\n");
  else
    acl__sb_str(s, ", which only device code may use (a kernel argument, as on an Ascend card). Remedy: host code "
                   "uses the host pointer it registered\n");
}

static void acl__fault_handler(int sig, siginfo_t *info, void *uctx) {
  uintptr_t a = (uintptr_t)info->si_addr;
  int dev = acl__fault_region_of(a);
  uintptr_t wbase = atomic_load_explicit(&acl__fault_win_base, memory_order_acquire);
  size_t wspan = atomic_load_explicit(&acl__fault_win_span, memory_order_acquire);
  int in_window = dev < 0 && wspan != 0 && a - wbase < wspan;
  if ((dev < 0 && !in_window) || (info->si_code != SEGV_PKUERR && info->si_code != SEGV_ACCERR)) {
    acl__fault_pass_on(sig, info, uctx);
    return;
  }
  acl__sbuf s;
  s.n = 0;
  if (in_window) {
    int (*has)(void) = atomic_load_explicit(&acl__fault_has_access, memory_order_acquire);
    acl__fault_window_message(&s, a, has != NULL && has());
  } else {
    uintptr_t base = 0;
    size_t size = 0;
    const char *api = NULL, *caller = NULL;
    const char *mech = atomic_load_explicit(&acl__fault_regions[dev].mech, memory_order_acquire);
    int (*has)(void) = atomic_load_explicit(&acl__fault_regions[dev].has_access, memory_order_acquire);
    /* A device thread faults on the view only under the alias mechanism:
     * it followed a device pointer nobody translated (a kernel that read a
     * pointer from device memory).  A card would serve it: open the
     * allocation's pages and let it go on, once saying what it costs. */
    int device_code = has != NULL && has();
    uintptr_t lo = 0, hi = 0;
    if (device_code && mech != NULL && strcmp(mech, "alias") == 0 && acl__mem_fault_open(dev, a, &lo, &hi)) {
      if (!atomic_exchange(&acl__fault_open_warned, 1)) {
        acl__sb_str(&s, "device code reached device memory at ");
        acl__sb_hex(&s, a);
        acl__sb_str(&s, " (device ");
        acl__sb_dec(&s, (uint64_t)dev);
        acl__sb_str(&s, ") through an address the runtime did not translate - a kernel following a device pointer it "
                        "read from device memory? Under OPENACL_MEMORY_PROTECTION=alias that works, but [");
        acl__sb_hex(&s, lo);
        acl__sb_str(&s, ", ");
        acl__sb_hex(&s, hi);
        acl__sb_str(&s, ") is now open to host code too until it is freed (later ones are opened without this "
                        "message). Pass device pointers as kernel arguments, or use OPENACL_MEMORY_PROTECTION=pkeys "
                        "where the CPU has protection keys");
        memcpy(acl__fault_note, s.b, s.n);
        acl__fault_note[s.n] = '\0';
        atomic_store_explicit(&acl__mem_fault_note_pending, 1, memory_order_release);
      }
      return; /* the access runs again, and succeeds */
    }
    acl__sb_str(&s, device_code ? "openacl: device code (a kernel or a task on an executor thread) accessed device "
                                  "memory at "
                                : "openacl: host code accessed device memory at ");
    acl__sb_hex(&s, a);
    acl__sb_str(&s, " (device ");
    acl__sb_dec(&s, (uint64_t)dev);
    if (acl__mem_fault_describe(dev, a, &base, &size, &api, &caller)) {
      acl__sb_str(&s, ", inside a ");
      acl__sb_dec(&s, size);
      acl__sb_str(&s, "-byte allocation at ");
      acl__sb_hex(&s, base);
      acl__sb_str(&s, " made by ");
      acl__sb_str(&s, api != NULL ? api : "aclrtMalloc");
      acl__sb_str(&s, " from ");
      acl__sb_str(&s, caller != NULL ? caller : "an unknown caller");
    } else {
      acl__sb_str(&s, ", outside every live allocation: freed already, or never allocated");
    }
    if (device_code) {
      acl__sb_str(&s, ") through the address host code holds. Under the alias protection mechanism device code "
                      "reaches device memory only through pointers the runtime translated (a kernel's pointer "
                      "arguments), not through a device pointer it read from device memory. Remedy: pass the "
                      "pointer as a kernel argument, or run with OPENACL_MEMORY_PROTECTION=pkeys (where the CPU "
                      "has protection keys) or off\n");
    } else {
      acl__sb_str(&s, "), which host code cannot touch, as on an Ascend card (trapped by the ");
      acl__sb_str(&s, mech != NULL ? mech : "pkeys");
      acl__sb_str(&s, " mechanism): copy it with aclrtMemcpy, or set OPENACL_DEVICE_MEMORY_HOST_ACCESS=1 while "
                      "debugging\n");
    }
  }
  ssize_t w = write(STDERR_FILENO, s.b, s.n);
  (void)w;
  /* Die of the signal: default action, then the access runs again. */
  signal(sig, SIG_DFL);
  raise(sig);
}

static void acl__fault_install_once(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = acl__fault_handler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &acl__fault_prev);
}

void acl__mem_fault_install(void) { pthread_once(&acl__fault_once, acl__fault_install_once); }
