/*
 * prof_2_subscribe_model.c - in the style of the vendor's
 * example/5_performance/profiling/2_subscribe_model: declare model 0 on
 * device 0 with MsprofSetDeviceIdByGeModelIdx (no model is loaded),
 * subscribe it into a pipe, read the pipe on a thread, unsubscribe.  The
 * reader ends only because aclprofModelUnSubscribe closes the write end.
 * The vendor sleeps 3 s while "running"; SAMPLE_SLEEP_MS (default 300)
 * sets this one's.  run_sample.sh checks the lines (0 records).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "profiling/aprof_pub.h"

#define CHECK_ERROR(call)                                                                                              \
  do {                                                                                                                 \
    aclError ret_ = (call);                                                                                            \
    if (ret_ != ACL_SUCCESS) {                                                                                         \
      printf("[ERROR] %s failed at line %d: %d %s\n", #call, __LINE__, ret_, aclGetRecentErrMsg());                    \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

static void *reader(void *arg) {
  int fd = *(int *)arg;
  size_t opDescSize = 0;
  if (aclprofGetOpDescSize(&opDescSize) != ACL_SUCCESS)
    return NULL;
  size_t bufferSize = opDescSize * 64;
  char *buffer = malloc(bufferSize);
  unsigned long records = 0;
  while (buffer != NULL) {
    ssize_t n = read(fd, buffer, bufferSize);
    if (n <= 0)
      break;
    uint32_t opNum = 0;
    if (aclprofGetOpNum(buffer, (size_t)n, &opNum) != ACL_SUCCESS)
      continue;
    for (uint32_t i = 0; i < opNum; i++) {
      size_t typeLen = 0, nameLen = 0;
      char type[256] = "", name[256] = "";
      aclprofGetOpTypeLen(buffer, (size_t)n, i, &typeLen);
      aclprofGetOpType(buffer, (size_t)n, i, type, sizeof(type));
      aclprofGetOpNameLen(buffer, (size_t)n, i, &nameLen);
      aclprofGetOpName(buffer, (size_t)n, i, name, sizeof(name));
      printf("[INFO] model %zu op %s (%s) start %llu end %llu duration %llu\n", aclprofGetModelId(buffer, (size_t)n, i),
             name, type, (unsigned long long)aclprofGetOpStart(buffer, (size_t)n, i),
             (unsigned long long)aclprofGetOpEnd(buffer, (size_t)n, i),
             (unsigned long long)aclprofGetOpDuration(buffer, (size_t)n, i));
      records++;
    }
  }
  free(buffer);
  printf("[INFO] subscription reader got %lu records and exits\n", records);
  return NULL;
}

int main(void) {
  CHECK_ERROR(aclInit(NULL));
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = NULL;
  CHECK_ERROR(aclrtCreateStream(&stream));
  uint32_t modelId = 0;
  if (MsprofSetDeviceIdByGeModelIdx(modelId, 0) != 0) {
    printf("[ERROR] MsprofSetDeviceIdByGeModelIdx failed\n");
    return 1;
  }
  int subFd[2];
  if (pipe(subFd) != 0) {
    printf("[ERROR] pipe failed\n");
    return 1;
  }
  aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &subFd[1]);
  if (config == NULL) {
    printf("[ERROR] aclprofCreateSubscribeConfig failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  CHECK_ERROR(aclprofModelSubscribe(modelId, config));
  pthread_t tid;
  if (pthread_create(&tid, NULL, reader, &subFd[0]) != 0) {
    printf("[ERROR] pthread_create failed\n");
    return 1;
  }
  printf("[INFO] Running\n");
  const char *e = getenv("SAMPLE_SLEEP_MS");
  long ms = e != NULL ? atol(e) : 300;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  CHECK_ERROR(aclprofModelUnSubscribe(modelId));
  pthread_join(tid, NULL);
  close(subFd[0]);
  printf("[INFO] Stopped\n");
  CHECK_ERROR(aclprofDestroySubscribeConfig(config));
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  CHECK_ERROR(aclFinalize());
  return 0;
}
