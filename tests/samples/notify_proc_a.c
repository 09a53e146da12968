/*
 * notify_proc_a.c - written like the vendor's
 * example/2_advanced_features/notify/0_ipc_notify_withpid/proc_a (and, built
 * with WITH_PID=0, 1_ipc_notify_withoutpid; reference ipc-vmm-graphs-tdt
 * §3.4): on device 2, shares 1 MiB of device memory and a notify with
 * process B on device 3, waits on the notify in its stream, then reads what
 * B wrote.  The read is queued behind the wait, so it prints 123 only if the
 * wait really held the stream until B recorded.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "sample_files.h"

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process A", call)

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const int32_t dev = 2, peer = 3;
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(dev));
  int32_t can = 0;
  CHECK_ACL(aclrtDeviceCanAccessPeer(&can, dev, peer));
  if (can != 1) {
    printf("The target devices do not support data interaction\n");
    return 0;
  }
  CHECK_ACL(aclrtDeviceEnablePeerAccess(peer, 0));
  printf("Process A: enable data interaction between device %d and device %d\n", (int)dev, (int)peer);
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  size_t size = 1024 * 1024;
  void *devPtr = NULL;
  CHECK_ACL(aclrtMalloc(&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemset(devPtr, size, 0, size));
  char memName[256] = "";
  CHECK_ACL(aclrtIpcMemGetExportKey(devPtr, size, memName, 65, ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  if (sample_write_file("memName.bin", memName, strlen(memName)) != 0)
    return 1;
  printf("Process A: get the shareable memory identifier successfully\n");
  aclrtNotify notify = NULL;
  CHECK_ACL(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  char notifyName[256] = "";
#if WITH_PID
  CHECK_ACL(aclrtNotifyGetExportKey(notify, notifyName, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
  int32_t pid = 0;
  if (sample_read_file("pid.bin", &pid, sizeof(pid)) != (long)sizeof(pid)) {
    printf("Process A: no pid from process B\n");
    return 1;
  }
  CHECK_ACL(aclrtNotifySetImportPid(notify, &pid, 1));
  printf("Process A: add Process B to the whitelist successfully\n");
#else
  CHECK_ACL(aclrtNotifyGetExportKey(notify, notifyName, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
#endif
  if (sample_write_file("notifyName.bin", notifyName, strlen(notifyName)) != 0)
    return 1;
  printf("Process A: get the shareable notify identifier successfully\n");
  CHECK_ACL(aclrtWaitAndResetNotify(notify, stream, 0));
  int32_t value = 0; /* the vendor's ReadDo kernel: a read queued behind the wait */
  CHECK_ACL(aclrtMemcpyAsync(&value, sizeof(value), devPtr, sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  printf("Destination data: %d\n", (int)value);
  CHECK_ACL(aclrtIpcMemClose(memName));
  CHECK_ACL(aclrtFree(devPtr));
  CHECK_ACL(aclrtDestroyNotify(notify));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(dev));
  CHECK_ACL(aclFinalize());
  printf("Process A: complete ipc notify synchronization\n");
  return 0;
}
