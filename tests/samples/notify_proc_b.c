/*
 * notify_proc_b.c - written like the vendor's
 * example/2_advanced_features/notify/0_ipc_notify_withpid/proc_b (and, built
 * with WITH_PID=0, 1_ipc_notify_withoutpid): on device 3, imports A's
 * memory and notify, writes 123 into the memory from its stream after a
 * pause, and records the notify behind the write.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "sample_files.h"

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process B", call)

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const int32_t dev = 3, peer = 2;
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(dev));
  int32_t can = 0;
  CHECK_ACL(aclrtDeviceCanAccessPeer(&can, dev, peer));
  if (can != 1) {
    printf("The target devices do not support data interaction\n");
    return 0;
  }
  CHECK_ACL(aclrtDeviceEnablePeerAccess(peer, 0));
  printf("Process B: enable data interaction between device %d and device %d\n", (int)dev, (int)peer);
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  char memName[256] = "";
  if (sample_read_file("memName.bin", memName, sizeof(memName) - 1) <= 0)
    return 1;
  void *devPtr = NULL;
  CHECK_ACL(aclrtIpcMemImportByKey(&devPtr, memName, 0));
  printf("Process B: import the shareable memory successfully\n");
#if WITH_PID
  int32_t pid = 0;
  CHECK_ACL(aclrtDeviceGetBareTgid(&pid));
  if (sample_write_file("pid.bin", &pid, sizeof(pid)) != 0)
    return 1;
  printf("Process B: get Process B's pid successfully\n");
#endif
  char notifyName[256] = "";
  if (sample_read_file("notifyName.bin", notifyName, sizeof(notifyName) - 1) <= 0)
    return 1;
  aclrtNotify notify = NULL;
  CHECK_ACL(aclrtNotifyImportByKey(&notify, notifyName, ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT));
  printf("Process B: import the shareable notify successfully\n");
  sleep(1); /* A's stream is held by its wait meanwhile (the vendor sleeps 5 s) */
  static const int32_t value = 123; /* the vendor's WriteDo kernel: a write on this stream */
  CHECK_ACL(aclrtMemcpyAsync(devPtr, sizeof(value), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE, stream));
  printf("Process B: write data 123 to the device memory\n");
  printf("Source data: %d\n", (int)value);
  CHECK_ACL(aclrtRecordNotify(notify, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  CHECK_ACL(aclrtIpcMemClose(memName));
  CHECK_ACL(aclrtDestroyNotify(notify));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(dev));
  CHECK_ACL(aclFinalize());
  printf("Process B: complete ipc notify synchronization\n");
  return 0;
}
