/*
 * ipcevent_0_proc_b.c - written like the vendor's
 * example/2_advanced_features/ipcevent/0_ipcevent/proc_b: the consumer on
 * device 0 (or the device given) opens A's IPC event from
 * ./event_handle.bin, makes its stream wait for it, records it itself after
 * 2 s, and signals A through ./consumer_done.flag (./consumer_<id>.done
 * when run as consumer <id> of the multi-device sample: proc_b <device> <id>).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "acl/acl.h"
#include "sample_files.h"

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process B", call)

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int32_t device = argc > 1 ? atoi(argv[1]) : 0;
  int consumer = argc > 2 ? atoi(argv[2]) : 0;
  aclrtIpcEventHandle handle;
  int got = 0;
  for (int i = 0; i < 300 && !got; i++) { /* up to 30 s */
    FILE *f = fopen("./event_handle.bin", "rb");
    if (f != NULL) {
      got = fread(&handle, sizeof(handle), 1, f) == 1;
      fclose(f);
    }
    if (!got)
      usleep(100000);
  }
  if (!got) {
    printf("Process B: timed out waiting for ./event_handle.bin\n");
    return 1;
  }
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(device));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  aclrtEvent event = NULL;
  CHECK_ACL(aclrtIpcOpenEventHandle(handle, &event));
  printf("Process B: IPC event opened\n");
  CHECK_ACL(aclrtStreamWaitEvent(stream, event));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  printf("Process B: event received, stream synchronized\n");
  sleep(2);
  CHECK_ACL(aclrtRecordEvent(event, stream));
  CHECK_ACL(aclrtSynchronizeEvent(event));
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ACL(aclrtQueryEventStatus(event, &status));
  printf("Process B: event status = %d (1=completed)\n", (int)status);
  if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE)
    return 1;
  char flag[64] = "./consumer_done.flag";
  if (consumer > 0)
    snprintf(flag, sizeof(flag), "./consumer_%d.done", consumer);
  FILE *f = fopen(flag, "w");
  if (f != NULL)
    fclose(f);
  CHECK_ACL(aclrtDestroyEvent(event));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(device));
  CHECK_ACL(aclFinalize());
  printf("Process B: cleanup completed\n");
  return 0;
}
