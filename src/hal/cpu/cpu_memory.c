/*
 * cpu_memory.c - the simulated device's memory: one reserved address range
 * per device, kept out of reach of host code the way an Ascend card's HBM
 * is.
 *
 * A region is twice the device's capacity of address space (backend.h),
 * reserved without committing memory: pages cost nothing until touched.
 * Host code holds addresses in that region ("the view"); how its accesses
 * are trapped is one of three mechanisms, chosen once per region:
 *
 *   pkeys  anonymous memory tagged with one process-wide Linux memory
 *          protection key whose default rights deny all access.  Threads
 *          that act as the device open the key for themselves with
 *          acl__cpu_access_begin/end, which only write the thread's PKRU
 *          register: a few instructions, no system call.  Device code uses
 *          the view's addresses as they are.  Needs a CPU and kernel with
 *          protection keys (x86 PKU; arm64 POE with Linux 6.12 or later).
 *   alias  a shared-memory object (memfd) mapped twice: the view with no
 *          access at all, and an alias, read-write, that only the runtime
 *          knows.  A host access to the view faults (SEGV_ACCERR) in every
 *          thread; the runtime translates each device pointer it hands to
 *          device code (copies, kernel arguments, model buffers) by the
 *          constant (alias - view), one addition (src/rt/mem_xlate.c).
 *          Works on any Linux machine.
 *   off    anonymous read-write memory: host accesses are not trapped
 *          (OPENACL_DEVICE_MEMORY_HOST_ACCESS=1, OPENACL_MEMORY_PROTECTION=off,
 *          or neither mechanism available).
 *
 * OPENACL_MEMORY_PROTECTION=auto (the default) takes the first of pkeys,
 * alias, off that works here; pkeys, alias and off force one, and a forced
 * mechanism this machine lacks falls back to the next one with a warning.
 * pkeys is preferred: device code may then follow any device pointer,
 * including one it read from device memory, which alias cannot translate.
 *
 * Sharing (docs/processes.md): unless OPENACL_SHARED_DEVICE=0, the region of
 * every mechanism is a memfd mapped MAP_SHARED, so that another process of
 * the user can map a range of it (IPC memory) by opening
 * /proc/<pid>/fd/<fd>.  One object per device, not one per allocation:
 * aclrtMalloc stays a sub-allocation in user space with no system call.
 * acl__cpu_mem_map_shared maps such a foreign range over part of the region
 * with the same protection (view, alias, key) as the rest; virtual memory
 * management (src/rt/vmm.c) maps each physical allocation - a memfd of its
 * own - over a reserved range the same way, in every mode.
 *
 * Sanitizers: AddressSanitizer and ThreadSanitizer read and write
 * application memory from their interceptors in the thread that called
 * them, which the access brackets (pkeys) or the translated addresses
 * (alias) cover, so protection stays on in those builds.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "acl/acl.h"
#include "common/log.h"
#include "hal/cpu/cpu.h"


static pthread_once_t acl__cpu_pkey_once = PTHREAD_ONCE_INIT;
static int acl__cpu_pkey = -1;           /* written once under acl__cpu_pkey_once */
static int acl__cpu_pkey_errno;          /* why pkey_alloc failed */
static atomic_int acl__cpu_pkey_ready;   /* 1 once a region uses the key (PKRU writes are needed) */
static _Thread_local int acl__cpu_depth; /* access_begin nesting of this thread */

static void acl__cpu_pkey_init(void) {
  int k = pkey_alloc(0, PKEY_DISABLE_ACCESS);
  if (k < 0) {
    acl__cpu_pkey_errno = errno;
    return;
  }
  acl__cpu_pkey = k;
}

static const char *const acl__cpu_mech_names[] = {"auto", "pkeys", "alias", "off"};

/* A memfd twice mapped: view (no access) and alias (read-write).  0 or -1. */
static int acl__cpu_alias_map(acl__backend_dev *dev, size_t size, void **view, void **alias, int *fd_out) {
  int fd = memfd_create("openacl-device-memory", MFD_CLOEXEC);
  if (fd < 0)
    return -1;
  if (ftruncate(fd, (off_t)size) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  void *v = mmap(NULL, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  void *a = v == MAP_FAILED ? MAP_FAILED : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (a == MAP_FAILED) {
    int e = errno;
    if (v != MAP_FAILED)
      munmap(v, size);
    close(fd);
    errno = e;
    return -1;
  }
  /* A forked child gets the view (still no access: a stray access there is
   * still reported) but not the alias: the parent's device memory is not
   * the child's. */
  madvise(a, size, MADV_DONTFORK);
  (void)dev;
  *view = v;
  *alias = a;
  *fd_out = fd;
  return 0;
}

/* A memfd of `size` bytes mapped read-write and shared; MAP_FAILED on failure. */
static void *acl__cpu_shared_map(size_t size, int *fd_out) {
  int fd = memfd_create("openacl-device-memory", MFD_CLOEXEC);
  if (fd < 0)
    return MAP_FAILED;
  void *p = ftruncate(fd, (off_t)size) == 0
                ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0)
                : MAP_FAILED;
  if (p == MAP_FAILED) {
    int e = errno;
    close(fd);
    errno = e;
    return MAP_FAILED;
  }
  *fd_out = fd;
  return p;
}

int acl__cpu_mem_reserve(acl__backend_dev *dev, uint64_t capacity, void **base) {
  const size_t align = (size_t)2 << 20;
  if (capacity == 0 || capacity > ((uint64_t)1 << 47))
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  /* Twice the capacity of address space: the runtime keeps at most
   * `capacity` bytes allocated, and the slack absorbs fragmentation. */
  size_t size = (((size_t)capacity + align - 1) & ~(align - 1)) * 2;
  int want = dev->props.host_access ? ACL__MEMPROT_OFF : dev->props.mem_protection;
  if (want < ACL__MEMPROT_AUTO || want > ACL__MEMPROT_OFF)
    want = ACL__MEMPROT_AUTO;
  int mech = ACL__MEMPROT_OFF;
  if (want == ACL__MEMPROT_AUTO || want == ACL__MEMPROT_PKEYS) {
    pthread_once(&acl__cpu_pkey_once, acl__cpu_pkey_init);
    if (acl__cpu_pkey >= 0)
      mech = ACL__MEMPROT_PKEYS;
    else if (want == ACL__MEMPROT_PKEYS)
      ACL__LOGW(ACL__MOD_DRV,
                "OPENACL_MEMORY_PROTECTION=pkeys, but memory protection keys are not available here (pkey_alloc: "
                "%s); device %d uses the alias mechanism instead",
                strerror(acl__cpu_pkey_errno), dev->phys_id);
  }
  if (mech == ACL__MEMPROT_OFF && want != ACL__MEMPROT_OFF)
    mech = ACL__MEMPROT_ALIAS;

  void *p = MAP_FAILED;
  if (mech == ACL__MEMPROT_ALIAS) {
    void *alias = NULL;
    int fd = -1;
    if (acl__cpu_alias_map(dev, size, &p, &alias, &fd) == 0) {
      dev->mem_alias = alias;
      dev->mem_fd = fd;
    } else {
      ACL__LOGW(ACL__MOD_DRV,
                "device %d: mapping its memory twice (memfd_create and mmap: %s) failed; host code can read and "
                "write device memory without faulting, host-access checking is off",
                dev->phys_id, strerror(errno));
      p = MAP_FAILED;
      mech = ACL__MEMPROT_OFF;
    }
  }
  if (p == MAP_FAILED && dev->props.shareable) {
    int fd = -1;
    p = acl__cpu_shared_map(size, &fd);
    if (p != MAP_FAILED)
      dev->mem_fd = fd;
    else
      ACL__LOGW(ACL__MOD_DRV,
                "device %d: its memory cannot be made shareable (memfd_create and mmap: %s); other processes "
                "cannot import it (IPC memory). Remedy: set OPENACL_SHARED_DEVICE=0 to say so",
                dev->phys_id, strerror(errno));
  }
  if (p == MAP_FAILED) {
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      ACL__LOGE(ACL__MOD_DRV, "device %d: reserving %zu bytes of address space failed: %s", dev->phys_id, size,
                strerror(errno));
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
  }
  if (mech == ACL__MEMPROT_PKEYS) {
    if (pkey_mprotect(p, size, PROT_READ | PROT_WRITE, acl__cpu_pkey) == 0) {
      atomic_store_explicit(&acl__cpu_pkey_ready, 1, memory_order_release);
    } else {
      ACL__LOGW(ACL__MOD_DRV,
                "device %d: tagging its memory with a protection key failed (%s); host code can touch it",
                dev->phys_id, strerror(errno));
      mech = ACL__MEMPROT_OFF;
    }
  }
  if (mech == ACL__MEMPROT_OFF && !dev->props.host_access && want != ACL__MEMPROT_OFF)
    ACL__LOGW(ACL__MOD_DRV, "device %d: host-access checking is off: no protection mechanism works here",
              dev->phys_id);
  dev->mem_mech = mech;
  dev->mem_base = p;
  dev->mem_size = size;
  *base = p;
  ACL__LOGI(ACL__MOD_DRV, "device %d: %zu bytes of address space at %p, host access %s (%s)", dev->phys_id, size, p,
            dev->props.host_access    ? "allowed (OPENACL_DEVICE_MEMORY_HOST_ACCESS=1)"
            : mech == ACL__MEMPROT_OFF ? "not checked"
                                       : "trapped",
            acl__cpu_mech_names[mech]);
  return 0;
}

void acl__cpu_mem_release(acl__backend_dev *dev) {
  if (dev->mem_base == NULL)
    return;
  munmap(dev->mem_base, dev->mem_size);
  if (dev->mem_alias != NULL)
    munmap(dev->mem_alias, dev->mem_size);
  if (dev->mem_fd >= 0)
    close(dev->mem_fd);
  dev->mem_base = dev->mem_alias = NULL;
  dev->mem_fd = -1;
  dev->mem_size = 0;
}

void *acl__cpu_mem_alias(acl__backend_dev *dev) { return dev->mem_alias; }

void acl__cpu_mem_discard(acl__backend_dev *dev, void *addr, size_t len) {
  if (dev->mem_base == NULL || len == 0)
    return;
  if (dev->mem_fd >= 0) {
    /* The pages live in the shared-memory object: unmapping them from the
     * page tables (MADV_DONTNEED) would keep them; punch them out. */
    off_t off = (off_t)((uintptr_t)addr - (uintptr_t)dev->mem_base);
    if (fallocate(dev->mem_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, (off_t)len) != 0)
      madvise((char *)(dev->mem_alias != NULL ? dev->mem_alias : dev->mem_base) + off, len, MADV_REMOVE);
    return;
  }
  madvise(addr, len, MADV_DONTNEED);
}

int acl__cpu_mem_fd(acl__backend_dev *dev) { return dev->mem_fd; }

int acl__cpu_mem_map_shared(acl__backend_dev *dev, void *addr, size_t len, int fd, uint64_t off) {
  uintptr_t rel = (uintptr_t)addr - (uintptr_t)dev->mem_base;
  if (dev->mem_base == NULL || rel >= dev->mem_size || len > dev->mem_size - rel)
    return ACL_ERROR_RT_PARAM_INVALID;
  int view_prot = dev->mem_mech == ACL__MEMPROT_ALIAS ? PROT_NONE : PROT_READ | PROT_WRITE;
  if (fd < 0) { /* the device's own memory again */
    fd = dev->mem_fd;
    off = rel;
  }
  if (fd < 0) {
    /* A private region (anonymous memory: OPENACL_SHARED_DEVICE=0 without
     * the alias mechanism): fresh pages are its own memory. */
    if (mmap(addr, len, view_prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED)
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
  } else if (mmap(addr, len, view_prot, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, (off_t)off) == MAP_FAILED) {
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  if (dev->mem_mech == ACL__MEMPROT_ALIAS) {
    char *al = (char *)dev->mem_alias + rel;
    if (mmap(al, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, (off_t)off) == MAP_FAILED)
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    madvise(al, len, MADV_DONTFORK);
  } else if (dev->mem_mech == ACL__MEMPROT_PKEYS) {
    if (pkey_mprotect(addr, len, PROT_READ | PROT_WRITE, acl__cpu_pkey) != 0)
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
  }
  return 0;
}

const char *acl__cpu_mem_protection(acl__backend_dev *dev) {
  int m = dev->mem_mech;
  return m >= ACL__MEMPROT_PKEYS && m <= ACL__MEMPROT_OFF ? acl__cpu_mech_names[m] : "off";
}

int acl__cpu_thread_has_access(void) { return acl__cpu_depth > 0; }

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
