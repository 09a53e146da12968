/*
 * tdt_proc.c - the other process of the cross-process TDT queue tests
 * (tdt_queue.c starts it with fork+exec), in the style of the vendor's
 * proc_a / proc_b samples.  Usage: tdt_proc MODE QID [N]
 *   consumer QID N  attach (waiting for the grant), dequeue N elements
 *                   "msg <i>" with user data i, check them
 *   bufs QID        attach, dequeue one buffer chain of two, check it
 *   hold QID        attach, enqueue "ready", then sleep until killed
 *   noperm QID      attach without a grant: 207006 expected everywhere
 *   create_and_die  create a queue, print its id, sleep until killed
 * Exit status 0 when everything was as expected; messages on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"

#define EXPECT(cond)                                                            \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "tdt_proc: %s:%d: %s failed\n", __FILE__, __LINE__, #cond); \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

static int run(int argc, char **argv) {
  const char *mode = argv[1];
  uint32_t qid = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0, perm = 0;
  EXPECT(aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS);
  if (strcmp(mode, "create_and_die") == 0) {
    EXPECT(acltdtCreateQueue(NULL, &qid) == ACL_SUCCESS);
    printf("%u\n", qid);
    fflush(stdout);
    for (;;)
      pause();
  }
  if (strcmp(mode, "noperm") == 0) {
    char b[8];
    size_t got = 0;
    EXPECT(acltdtAttachQueue(qid, 0, &perm) == ACL_ERROR_RT_NO_PERMISSION);
    EXPECT(acltdtEnqueueData(qid, "x", 1, NULL, 0, 0, 0) == ACL_ERROR_RT_NO_PERMISSION);
    EXPECT(acltdtDequeueData(qid, b, sizeof b, &got, NULL, 0, 0) == ACL_ERROR_RT_NO_PERMISSION);
    EXPECT(acltdtDestroyQueue(qid) == ACL_ERROR_RT_NO_PERMISSION);
    return 0;
  }
  EXPECT(acltdtAttachQueue(qid, 10000, &perm) == ACL_SUCCESS);
  if (strcmp(mode, "consumer") == 0) {
    int n = atoi(argv[3]);
    EXPECT((perm & ACL_TDT_QUEUE_PERMISSION_DEQUEUE) != 0);
    for (int i = 0; i < n; i++) {
      char buf[64] = {0}, want[64];
      int user = -1;
      size_t got = 0;
      EXPECT(acltdtDequeueData(qid, buf, sizeof buf, &got, &user, sizeof user, 10000) == ACL_SUCCESS);
      snprintf(want, sizeof want, "msg %d", i);
      EXPECT(got == strlen(want) + 1 && strcmp(buf, want) == 0 && user == i);
    }
    printf("consumer: %d elements received\n", n);
  } else if (strcmp(mode, "bufs") == 0) {
    acltdtBuf head = NULL, second = NULL;
    uint32_t num = 0;
    void *p = NULL;
    size_t size = 0, len = 0;
    char user[4] = {0};
    EXPECT(acltdtDequeue(qid, &head, 10000) == ACL_SUCCESS);
    EXPECT(acltdtGetBufChainNum(head, &num) == ACL_SUCCESS && num == 2);
    EXPECT(acltdtGetBufFromChain(head, 1, &second) == ACL_SUCCESS);
    EXPECT(acltdtGetBufData(second, &p, &size) == ACL_SUCCESS && acltdtGetBufDataLen(second, &len) == ACL_SUCCESS);
    EXPECT(len == 6 && memcmp(p, "second", 6) == 0);
    EXPECT(acltdtGetBufUserData(head, user, 3, 0) == ACL_SUCCESS && memcmp(user, "hdr", 3) == 0);
    EXPECT(acltdtFreeBuf(head) == ACL_SUCCESS);
    printf("bufs: chain of %u received\n", num);
  } else if (strcmp(mode, "hold") == 0) {
    EXPECT(acltdtEnqueueData(qid, "ready", 6, NULL, 0, 1000, 0) == ACL_SUCCESS);
    for (;;)
      pause();
  }
  EXPECT(aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: tdt_proc consumer|bufs|hold|noperm|create_and_die QID [N]\n");
    return 2;
  }
  return run(argc, argv);
}
