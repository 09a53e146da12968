/*
 * rootinfo.c - HcclGetRootInfo and the contents of HcclRootInfo.
 *
 * The 4108 opaque bytes start with an hccl__rootinfo: a magic number and
 * version (so that garbage is refused), a 64-bit id unique to this call (it
 * keys the rendezvous and, in hex, ends the default communicator name), the
 * root process's MPI_COMM_WORLD rank (-1 when it is in no MPI job) and its
 * pid, start time and host.  Nothing in it is a pointer or a handle, so a
 * program may pass it on by MPI_Bcast, a file or a socket.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hccl/hccl_int.h"

_Static_assert(sizeof(hccl__rootinfo) <= HCCL_ROOT_INFO_BYTES, "root info fits the vendor's size");

uint64_t hccl__unique_id(void) {
  uint64_t id = 0;
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (read(fd, &id, sizeof(id)) != (ssize_t)sizeof(id))
      id = 0;
    close(fd);
  }
  /* mixed with time, pid and a counter in case /dev/urandom is missing */
  static atomic_uint_fast64_t counter;
  uint64_t x = id ^ hccl__now_ns() ^ ((uint64_t)getpid() << 32) ^ (atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15u);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdu;
  x ^= x >> 33;
  return x != 0 ? x : 1;
}

/* The process's start time (field 22 of /proc/self/stat): with the pid it
 * names this process across pid reuse. */
static uint64_t hccl__self_start(void) {
  static _Atomic uint64_t cached; /* any thread may fill it: they all read the same value */
  uint64_t c = atomic_load(&cached);
  if (c != 0)
    return c;
  uint64_t start = 1;
  FILE *f = fopen("/proc/self/stat", "r");
  if (f != NULL) {
    char buf[1024];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    char *p = strrchr(buf, ')');
    for (int field = 2; p != NULL && field < 22; field++)
      p = strchr(p + 1, ' ');
    if (p != NULL)
      start = strtoull(p + 1, NULL, 10);
  }
  atomic_store(&cached, start);
  return start;
}

int hccl__rootinfo_is_self(const hccl__rootinfo *ri) {
  char host[64] = {0};
  gethostname(host, sizeof(host) - 1);
  return ri->root_pid == (int32_t)getpid() && ri->root_start == hccl__self_start() &&
         strncmp(ri->host, host, sizeof(ri->host)) == 0;
}

HcclResult hccl__rootinfo_read(const char *api, const HcclRootInfo *ri, hccl__rootinfo *out) {
  memcpy(out, ri->internal, sizeof(*out));
  if (out->magic != HCCL__ROOTINFO_MAGIC || out->version != HCCL__ROOTINFO_VERSION || out->id == 0)
    return hccl__fail(api, HCCL_E_PARA,
                      "rootInfo holds no root info (magic 0x%08x, version %u). Remedy: pass the %d bytes "
                      "HcclGetRootInfo filled on the root, unchanged",
                      out->magic, out->version, HCCL_ROOT_INFO_BYTES);
  out->host[sizeof(out->host) - 1] = '\0';
  out->name[sizeof(out->name) - 1] = '\0';
  return HCCL_SUCCESS;
}

void hccl__rootinfo_fill(hccl__rootinfo *ri, uint64_t id, int32_t root_world, int32_t dev, const char *name) {
  memset(ri, 0, sizeof(*ri));
  ri->magic = HCCL__ROOTINFO_MAGIC;
  ri->version = HCCL__ROOTINFO_VERSION;
  ri->id = id;
  ri->root_world = root_world;
  ri->root_pid = (int32_t)getpid();
  ri->root_device = dev;
  ri->root_start = hccl__self_start();
  gethostname(ri->host, sizeof(ri->host) - 1);
  if (name != NULL)
    snprintf(ri->name, sizeof(ri->name), "%s", name);
  else /* the vendor's shape: <host ip>%<nic>_<port>_<device>_<timestamp>; ours names host, pid, device, id */
    snprintf(ri->name, sizeof(ri->name), "%.40s%%%d_%d_%016llx", ri->host, (int)ri->root_pid, (int)dev,
             (unsigned long long)id);
}

HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo) {
  if (rootInfo == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "rootInfo is NULL. Remedy: pass an HcclRootInfo to fill");
  int world = -1, size = 0;
  HcclResult rc = hccl__mpi_ensure(__func__, 0, &world, &size);
  if (rc != HCCL_SUCCESS)
    return rc;
  int32_t dev = -1;
  if (aclrtGetDevice(&dev) != ACL_SUCCESS) {
    (void)aclGetRecentErrMsg(); /* no device is fine here: the id just says -1 */
    dev = -1;
  }
  hccl__rootinfo ri;
  hccl__rootinfo_fill(&ri, hccl__unique_id(), size > 1 ? world : -1, dev, NULL);
  memset(rootInfo->internal, 0, sizeof(rootInfo->internal));
  memcpy(rootInfo->internal, &ri, sizeof(ri));
  return HCCL_SUCCESS;
}
