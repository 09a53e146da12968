/*
 * cpu_memory.c - the simulated device's memory: one reserved address range
 * per device, kept out of reach of host code the way an Ascend card's HBM
 * is.
 *
 * A region is anonymous memory reserved with MAP_NORESERVE (pages cost
 * nothing until touched), twice the device's capacity in size (backend.h).  Unless the debug switch
 * OPENACL_DEVICE_MEMORY_HOST_ACCESS=1 is set, every region is tagged with
 * one process-wide Linux memory protection key whose default rights deny
 * all access, so a host dereference of a device pointer faults
 * (SIGSEGV, si_code SEGV_PKUERR; the runtime's handler in
 * src/rt/mem_fault.c explains it).  Threads that act as the device open
 * the key for themselves with acl__cpu_access_begin/end, which only write
 * the thread's PKRU register: a few instructions, no system call.
 *
 * Without protection keys (old CPU or kernel, pkey_alloc fails) regions
 * stay accessible and one warning says the check is off.
 *
 * Sanitizers: AddressSanitizer and ThreadSanitizer read and write
 * application memory from their interceptors in the thread that called
 * them, which the access brackets cover, and neither touches the region
 * otherwise, so protection stays on in those builds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

#include "acl/acl.h"
#include "common/log.h"
#include "hal/cpu/cpu.h"

static pthread_once_t acl__cpu_pkey_once = PTHREAD_ONCE_INIT;
static int acl__cpu_pkey = -1;           /* written once under acl__cpu_pkey_once */
static atomic_int acl__cpu_pkey_ready;   /* 1 once acl__cpu_pkey is final and valid */
static _Thread_local int acl__cpu_depth; /* access_begin nesting of this thread */

static void acl__cpu_pkey_init(void) {
  int k = pkey_alloc(0, PKEY_DISABLE_ACCESS);
  if (k < 0) {
    ACL__LOGW(ACL__MOD_DRV,
              "memory protection keys are not available (pkey_alloc: %s): host code can read and write device "
              "memory without faulting; host-access checking is off",
              strerror(errno));
    return;
  }
  acl__cpu_pkey = k;
  atomic_store_explicit(&acl__cpu_pkey_ready, 1, memory_order_release);
}

int acl__cpu_mem_reserve(acl__backend_dev *dev, uint64_t capacity, void **base) {
  const size_t align = (size_t)2 << 20;
  if (capacity == 0 || capacity > ((uint64_t)1 << 47))
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  /* Twice the capacity of address space: the runtime keeps at most
   * `capacity` bytes allocated, and the slack absorbs fragmentation. */
  size_t size = (((size_t)capacity + align - 1) & ~(align - 1)) * 2;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    ACL__LOGE(ACL__MOD_DRV, "device %d: reserving %zu bytes of address space failed: %s", dev->phys_id, size,
              strerror(errno));
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  if (!dev->props.host_access) {
    pthread_once(&acl__cpu_pkey_once, acl__cpu_pkey_init);
    if (acl__cpu_pkey >= 0 && pkey_mprotect(p, size, PROT_READ | PROT_WRITE, acl__cpu_pkey) != 0)
      ACL__LOGW(ACL__MOD_DRV,
                "device %d: tagging its memory with a protection key failed (%s); host code can "
                "touch it",
                dev->phys_id, strerror(errno));
  }
  dev->mem_base = p;
  dev->mem_size = size;
  *base = p;
  ACL__LOGI(ACL__MOD_DRV, "device %d: %zu bytes of address space at %p, host access %s", dev->phys_id, size, p,
            dev->props.host_access ? "allowed (OPENACL_DEVICE_MEMORY_HOST_ACCESS=1)"
            : acl__cpu_pkey >= 0   ? "trapped"
                                   : "not checked (no protection keys)");
  return 0;
}

void acl__cpu_mem_release(acl__backend_dev *dev) {
  if (dev->mem_base == NULL)
    return;
  munmap(dev->mem_base, dev->mem_size);
  dev->mem_base = NULL;
  dev->mem_size = 0;
}

void acl__cpu_access_begin(acl__backend_dev *dev) {
  (void)dev;
  if (acl__cpu_depth++ == 0 && atomic_load_explicit(&acl__cpu_pkey_ready, memory_order_acquire))
    pkey_set(acl__cpu_pkey, 0);
}

void acl__cpu_access_end(acl__backend_dev *dev) {
  (void)dev;
  if (acl__cpu_depth > 0 && --acl__cpu_depth == 0 && atomic_load_explicit(&acl__cpu_pkey_ready, memory_order_acquire))
    pkey_set(acl__cpu_pkey, PKEY_DISABLE_ACCESS);
}
