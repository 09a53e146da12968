/*
 * vmm_proc.c - the other process of the shareable-handle tests
 * (tests/api/vmm_share.c), driven line by line on stdin like ipc_proc.c;
 * every answer is one line on stdout:
 *   (start)               "pid <pid>" once device 0 is set
 *   malloc <bytes>        "ok" or "rc <code>"      aclrtMallocPhysical (ACL_MEM_NORMAL, device 0): handle 0, 1, ...
 *   export <h> <flags>    "sh <handle>" or "rc <code>"  aclrtMemExportToShareableHandle (decimal)
 *   allow <sh> <pid>      "ok" or "rc <code>"      aclrtMemSetPidToShareableHandle
 *   import <sh>           "ok" or "rc <code>"      aclrtMemImportFromShareableHandle: the next handle
 *   map <h> <bytes>       "ok" or "rc <code>"      reserve, map, grant device 0 access: mapping 0, 1, ...
 *   fill <m> <byte>       "ok" or "rc <code>"      aclrtMemset of the whole mapping
 *   sum <m> <bytes>       "sum <n>" or "rc <code>" the bytes' sum, read with aclrtMemcpy
 *   write <m> <byte> <bytes>  "ok" or "rc <code>"  aclrtMemcpy of that many bytes set to byte
 *   unmap <m>             "ok" or "rc <code>"      aclrtUnmapMem and aclrtReleaseMemAddress
 *   free <h>              "ok" or "rc <code>"      aclrtFreePhysical
 *   meminfo               "mem <free> <total>"
 *   exit                  leaves without aclFinalize: exit(0)
 * End of input: aclrtResetDevice, aclFinalize, exit 0.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "proc_answers.h"

static aclrtDrvMemHandle handles[64];
static int nhandles;
static void *maps[64];
static size_t map_sizes[64];
static int nmaps;

static aclError map_handle(aclrtDrvMemHandle h, size_t size) {
  void *va = NULL;
  aclError rc = aclrtReserveMemAddress(&va, size, 0, NULL, 0);
  if (rc != ACL_SUCCESS)
    return rc;
  rc = aclrtMapMem(va, size, 0, h, 0);
  if (rc != ACL_SUCCESS) {
    aclrtReleaseMemAddress(va);
    return rc;
  }
  aclrtMemAccessDesc d;
  memset(&d, 0, sizeof(d));
  d.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = 0;
  rc = aclrtMemSetAccess(va, size, &d, 1);
  if (rc != ACL_SUCCESS)
    return rc;
  maps[nmaps] = va;
  map_sizes[nmaps++] = size;
  return ACL_SUCCESS;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    printf("init failed\n");
    return 1;
  }
  printf("pid %d\n", (int)getpid());
  char line[512];
  while (fgets(line, sizeof(line), stdin) != NULL) {
    unsigned long long x = 0, y = 0, z = 0;
    if (sscanf(line, "malloc %llu", &x) == 1) {
      aclrtPhysicalMemProp p;
      memset(&p, 0, sizeof(p));
      p.memAttr = ACL_MEM_NORMAL;
      p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      aclrtDrvMemHandle h = NULL;
      aclError rc = aclrtMallocPhysical(&h, x, &p, 0);
      if (rc == ACL_SUCCESS)
        handles[nhandles++] = h;
      reply_rc(rc);
    } else if (sscanf(line, "export %llu %llu", &x, &y) == 2) {
      uint64_t sh = 0;
      aclError rc = aclrtMemExportToShareableHandle(handles[x], ACL_MEM_HANDLE_TYPE_NONE, y, &sh);
      if (rc == ACL_SUCCESS)
        printf("sh %llu\n", (unsigned long long)sh);
      else
        reply_rc(rc);
    } else if (sscanf(line, "allow %llu %llu", &x, &y) == 2) {
      int32_t pid = (int32_t)y;
      reply_rc(aclrtMemSetPidToShareableHandle(x, &pid, 1));
    } else if (sscanf(line, "import %llu", &x) == 1) {
      aclrtDrvMemHandle h = NULL;
      aclError rc = aclrtMemImportFromShareableHandle(x, 0, &h);
      if (rc == ACL_SUCCESS)
        handles[nhandles++] = h;
      reply_rc(rc);
    } else if (sscanf(line, "map %llu %llu", &x, &y) == 2) {
      reply_rc(map_handle(handles[x], y));
    } else if (sscanf(line, "fill %llu %llu", &x, &y) == 2) {
      reply_rc(aclrtMemset(maps[x], map_sizes[x], (int32_t)y, map_sizes[x]));
    } else if (sscanf(line, "sum %llu %llu", &x, &y) == 2) {
      reply_sum(maps[x], y);
    } else if (sscanf(line, "write %llu %llu %llu", &x, &y, &z) == 3) {
      reply_rc(write_bytes(maps[x], (int)y, z));
    } else if (sscanf(line, "unmap %llu", &x) == 1) {
      aclError rc = aclrtUnmapMem(maps[x]);
      if (rc == ACL_SUCCESS)
        rc = aclrtReleaseMemAddress(maps[x]);
      reply_rc(rc);
    } else if (sscanf(line, "free %llu", &x) == 1) {
      reply_rc(aclrtFreePhysical(handles[x]));
    } else if (strncmp(line, "meminfo", 7) == 0) {
      size_t f = 0, t = 0;
      aclrtGetMemInfo(ACL_HBM_MEM, &f, &t);
      printf("mem %zu %zu\n", f, t);
    } else if (strncmp(line, "exit", 4) == 0) {
      exit(0);
    } else {
      printf("unknown command\n");
    }
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
