/*
 * ipc_proc.c - the other process of the multi-process tests (tests/api/ipc.c),
 * in the spirit of the vendor's proc_a / proc_b samples, driven line by line
 * on stdin; every answer is one line on stdout:
 *   (start)            "pid <pid>" once device 0 is set
 *   alloc <bytes>      "ok" or "rc <code>"           one aclrtMalloc, kept as buffer 0, 1, ...
 *   fill <buf> <byte>  "ok" or "rc <code>"           aclrtMemset of the whole buffer
 *   export <buf> <flags>  "key <key>" or "rc <code>"
 *   allow <key> <pid>  "ok" or "rc <code>"           aclrtIpcMemSetImportPid
 *   import <key>       "ok" or "rc <code>"           the import is kept as buffer N
 *   sum <buf> <bytes>  "sum <n>"                     the bytes' sum, read with aclrtMemcpy
 *   write <buf> <byte> <bytes>  "ok" or "rc <code>"  aclrtMemcpy of that many bytes set to byte
 *   close <key>        "ok" or "rc <code>"           aclrtIpcMemClose
 *   free <buf>         "ok" or "rc <code>"
 *   meminfo            "mem <free> <total>"
 *   churn              "ok", then aclrtMalloc + aclrtFree of 1 MiB without end (to be killed)
 *   exit               leaves without aclFinalize: exit(0)
 *   load <id> <dir> <ms> <seed> <full|noalloc> <pid>...
 *                      "started", later "done <counts>"  one process's share of
 *                      the eight-process load (ipc_load.c); "FAILED: <why>" on any error
 *   finish             "ok"                          checks the load's stable buffers, closes their imports
 *   unload             "ok"                          closes and frees this process's stable buffer
 * End of input: aclrtResetDevice, aclFinalize, exit 0.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "proc_answers.h"
#include "ipc_load.h"

static void *bufs[64];
static size_t sizes[64];
static int nbufs;

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    printf("init failed\n");
    return 1;
  }
  printf("pid %d\n", (int)getpid());
  char line[512], a[256];
  while (fgets(line, sizeof(line), stdin) != NULL) {
    unsigned long long x = 0, y = 0, z = 0;
    if (sscanf(line, "alloc %llu", &x) == 1) {
      void *p = NULL;
      aclError rc = aclrtMalloc(&p, x, ACL_MEM_MALLOC_HUGE_FIRST);
      if (rc == ACL_SUCCESS) {
        bufs[nbufs] = p;
        sizes[nbufs++] = x;
      }
      reply_rc(rc);
    } else if (sscanf(line, "fill %llu %llu", &x, &y) == 2) {
      reply_rc(aclrtMemset(bufs[x], sizes[x], (int32_t)y, sizes[x]));
    } else if (sscanf(line, "export %llu %llu", &x, &y) == 2) {
      char key[256] = "";
      aclError rc = aclrtIpcMemGetExportKey(bufs[x], sizes[x], key, 65, y);
      if (rc == ACL_SUCCESS)
        printf("key %s\n", key);
      else
        reply_rc(rc);
    } else if (sscanf(line, "allow %255s %llu", a, &x) == 2) {
      int32_t pid = (int32_t)x;
      reply_rc(aclrtIpcMemSetImportPid(a, &pid, 1));
    } else if (sscanf(line, "import %255s", a) == 1) {
      void *p = NULL;
      aclError rc = aclrtIpcMemImportByKey(&p, a, 0);
      if (rc == ACL_SUCCESS) {
        bufs[nbufs] = p;
        sizes[nbufs++] = 0;
      }
      reply_rc(rc);
    } else if (sscanf(line, "sum %llu %llu", &x, &y) == 2) {
      reply_sum(bufs[x], y);
    } else if (sscanf(line, "write %llu %llu %llu", &x, &y, &z) == 3) {
      reply_rc(write_bytes(bufs[x], (int)y, z));
    } else if (sscanf(line, "close %255s", a) == 1) {
      reply_rc(aclrtIpcMemClose(a));
    } else if (sscanf(line, "free %llu", &x) == 1) {
      reply_rc(aclrtFree(bufs[x]));
    } else if (strncmp(line, "meminfo", 7) == 0) {
      size_t f = 0, t = 0;
      aclrtGetMemInfo(ACL_HBM_MEM, &f, &t);
      printf("mem %zu %zu\n", f, t);
    } else if (strncmp(line, "load ", 5) == 0) {
      ipc_load(line);
    } else if (strncmp(line, "finish", 6) == 0) {
      ipc_load_finish();
    } else if (strncmp(line, "unload", 6) == 0) {
      ipc_load_unload();
    } else if (strncmp(line, "churn", 5) == 0) {
      printf("ok\n");
      for (;;) {
        void *q = NULL;
        if (aclrtMalloc(&q, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
          aclrtFree(q);
      }
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
