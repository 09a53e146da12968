/*
 * ipc_signal_proc.c - the other process of the IPC notify and IPC event
 * tests (ipc_signal.c, proc_driver.h), on device 0 or the device given as
 * its argument.  One stream; every answer is one line:
 *   ncreate <flags>   "key <key>" or "rc <code>"  aclrtCreateNotify + aclrtNotifyGetExportKey(flags)
 *   nallow <pid>      "ok" / "rc <code>"          aclrtNotifySetImportPid
 *   nimport <key>     "ok" / "rc <code>"          aclrtNotifyImportByKey
 *   nrecord           "ok" / "rc <code>"          aclrtRecordNotify + aclrtSynchronizeStream
 *   nwait <seconds>   "ok" / "rc <code>"          aclrtWaitAndResetNotify + aclrtSynchronizeStream
 *   ecreate           "key <key>" / "rc <code>"   an ACL_EVENT_IPC event, recorded, synchronized, its handle
 *   eopen <key>       "ok" / "rc <code>"          aclrtIpcOpenEventHandle
 *   erecord           "ok" / "rc <code>"          aclrtRecordEvent + aclrtSynchronizeEvent
 *   eblocked          "ok" / "rc <code>"          a record queued behind a host function that never ends
 *   ewait             "ok" / "rc <code>"          aclrtStreamWaitEvent + aclrtSynchronizeStream
 *   esync             "ok" / "rc <code>"          aclrtSynchronizeEvent
 *   estatus           "status <n>"                aclrtQueryEventStatus
 *   exit              leaves at once: _exit(0)
 * End of input: destroys what it made, resets the device, aclFinalize.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "proc_answers.h"

static void forever(void *arg) {
  (void)arg;
  for (;;)
    pause();
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int dev = argc > 1 ? atoi(argv[1]) : 0;
  aclrtStream s = NULL, side = NULL;
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(dev) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
    printf("init failed\n");
    return 1;
  }
  int32_t me = 0;
  aclrtDeviceGetBareTgid(&me);
  printf("pid %d\n", (int)me);
  aclrtNotify n = NULL;
  aclrtEvent e = NULL;
  char line[512], a[256];
  while (fgets(line, sizeof(line), stdin) != NULL) {
    unsigned long long x = 0;
    if (sscanf(line, "ncreate %llu", &x) == 1) {
      char key[256] = "";
      aclError rc = aclrtCreateNotify(&n, 0);
      if (rc == ACL_SUCCESS)
        rc = aclrtNotifyGetExportKey(n, key, 65, x);
      if (rc == ACL_SUCCESS)
        printf("key %s\n", key);
      else
        reply_rc(rc);
    } else if (sscanf(line, "nallow %llu", &x) == 1) {
      int32_t pid = (int32_t)x;
      reply_rc(aclrtNotifySetImportPid(n, &pid, 1));
    } else if (sscanf(line, "nimport %255s", a) == 1) {
      reply_rc(aclrtNotifyImportByKey(&n, a, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
    } else if (strncmp(line, "nrecord", 7) == 0) {
      aclError rc = aclrtRecordNotify(n, s);
      reply_rc(rc != ACL_SUCCESS ? rc : aclrtSynchronizeStream(s));
    } else if (sscanf(line, "nwait %llu", &x) == 1) {
      aclError rc = aclrtWaitAndResetNotify(n, s, (uint32_t)x);
      reply_rc(rc != ACL_SUCCESS ? rc : aclrtSynchronizeStream(s));
    } else if (strncmp(line, "ecreate", 7) == 0) {
      aclrtIpcEventHandle h;
      aclError rc = aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC);
      if (rc == ACL_SUCCESS)
        rc = aclrtRecordEvent(e, s);
      if (rc == ACL_SUCCESS)
        rc = aclrtSynchronizeEvent(e);
      if (rc == ACL_SUCCESS)
        rc = aclrtIpcGetEventHandle(e, &h);
      if (rc == ACL_SUCCESS)
        printf("key %.64s\n", h.reserved);
      else
        reply_rc(rc);
    } else if (sscanf(line, "eopen %255s", a) == 1) {
      aclrtIpcEventHandle h;
      memset(&h, 0, sizeof h);
      memcpy(h.reserved, a, strnlen(a, sizeof h.reserved));
      reply_rc(aclrtIpcOpenEventHandle(h, &e));
    } else if (strncmp(line, "erecord", 7) == 0) {
      aclError rc = aclrtRecordEvent(e, s);
      reply_rc(rc != ACL_SUCCESS ? rc : aclrtSynchronizeEvent(e));
    } else if (strncmp(line, "eblocked", 8) == 0) {
      aclError rc = side == NULL ? aclrtCreateStream(&side) : ACL_SUCCESS;
      if (rc == ACL_SUCCESS)
        rc = aclrtLaunchHostFunc(side, forever, NULL);
      reply_rc(rc != ACL_SUCCESS ? rc : aclrtRecordEvent(e, side));
    } else if (strncmp(line, "ewait", 5) == 0) {
      aclError rc = aclrtStreamWaitEvent(s, e);
      reply_rc(rc != ACL_SUCCESS ? rc : aclrtSynchronizeStream(s));
    } else if (strncmp(line, "esync", 5) == 0) {
      reply_rc(aclrtSynchronizeEvent(e));
    } else if (strncmp(line, "estatus", 7) == 0) {
      aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
      aclError rc = aclrtQueryEventStatus(e, &st);
      if (rc == ACL_SUCCESS)
        printf("status %d\n", (int)st);
      else
        reply_rc(rc);
    } else if (strncmp(line, "exit", 4) == 0) {
      _exit(0);
    } else {
      printf("unknown command: %s", line);
    }
  }
  if (n != NULL)
    aclrtDestroyNotify(n);
  if (e != NULL)
    aclrtDestroyEvent(e);
  aclrtDestroyStream(s);
  aclrtResetDevice(dev);
  aclFinalize();
  return 0;
}
