/*
 * ipcevent_0_proc_a.c - written like the vendor's
 * example/2_advanced_features/ipcevent/0_ipcevent/proc_a (reference
 * ipc-vmm-graphs-tdt §2): the producer on device 0 creates an IPC event,
 * records it, hands its handle to process B through ./event_handle.bin and
 * waits for ./consumer_done.flag.  run_sample.sh starts proc_a and proc_b
 * at once and checks proc_a's log for "cleanup completed".
 *
 * With an argument N it is the producer of the vendor's
 * 1_ipcevent_multi_device: N consumers on devices 1..N each write
 * ./consumer_<id>.done, and the producer ends with "finished successfully".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "acl/acl.h"
#include "sample_files.h"

#define CHECK_ACL(call) SAMPLE_CHECK_ACL("Process A", call)

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int consumers = argc > 1 ? atoi(argv[1]) : 0; /* 0: the single-consumer sample */
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  aclrtEvent event = NULL;
  CHECK_ACL(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
  printf("Process A: IPC event created\n");
  CHECK_ACL(aclrtRecordEvent(event, stream));
  CHECK_ACL(aclrtSynchronizeEvent(event));
  printf("Process A: event recorded and synchronized\n");
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ACL(aclrtQueryEventStatus(event, &status));
  printf("Process A: event status = %d (1=completed)\n", (int)status);
  if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE)
    return 1;
  aclrtIpcEventHandle handle;
  CHECK_ACL(aclrtIpcGetEventHandle(event, &handle));
  /* written under another name and renamed, so that B never reads half of it */
  FILE *f = fopen("./event_handle.bin.tmp", "wb");
  if (f == NULL || fwrite(&handle, sizeof(handle), 1, f) != 1 || fclose(f) != 0 ||
      rename("./event_handle.bin.tmp", "./event_handle.bin") != 0) {
    printf("Process A: cannot write ./event_handle.bin\n");
    return 1;
  }
  printf("Process A: IPC event handle written to ./event_handle.bin\n");
  int done = 0;
  for (int i = 0; i < 300 && !done; i++) { /* up to 30 s */
    done = 1;
    for (int c = 1; c <= consumers; c++) {
      char flag[64];
      snprintf(flag, sizeof(flag), "./consumer_%d.done", c);
      done &= access(flag, F_OK) == 0;
    }
    if (consumers == 0)
      done = access("./consumer_done.flag", F_OK) == 0;
    if (!done)
      usleep(100000);
  }
  if (!done) {
    printf("Process A: timed out waiting for the consumer\n");
    return 1;
  }
  printf("Process A: consumer finished\n");
  CHECK_ACL(aclrtDestroyEvent(event));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  remove("./event_handle.bin");
  remove("./consumer_done.flag");
  printf("Process A: cleanup completed\n");
  if (consumers > 0)
    printf("Producer finished successfully\n");
  return 0;
}
