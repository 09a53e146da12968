/*
 * prof_1_msproftx.c - in the style of the vendor's
 * example/5_performance/profiling/1_msproftx: step info and msproftx
 * stamps around a simulated model run: two marks, a push/pop range with a
 * nested one, and a start/stop range, every call checked.  The vendor's
 * sleeps (1 s, 1 s, 3 s) are scaled by SAMPLE_SLEEP_MS (default 200 ms a
 * second) to keep the test short.  run_sample.sh checks the lines and the
 * msprof_tx CSV: 2 markers, 2 push/pop (the inner one inside the outer),
 * 1 start/end inside the outer push/pop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define CHECK_ERROR(call)                                                                                              \
  do {                                                                                                                 \
    aclError ret_ = (call);                                                                                            \
    if (ret_ != ACL_SUCCESS) {                                                                                         \
      printf("[ERROR] %s failed at line %d: %d %s\n", #call, __LINE__, ret_, aclGetRecentErrMsg());                    \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

static void sleep_seconds(int s) {
  const char *e = getenv("SAMPLE_SLEEP_MS");
  long ms = (e != NULL ? atol(e) : 200) * s;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static void *stamp_with(const char *msg) {
  void *stamp = aclprofCreateStamp();
  if (stamp != NULL && aclprofSetStampTraceMessage(stamp, msg, (uint32_t)strlen(msg)) != ACL_SUCCESS) {
    aclprofDestroyStamp(stamp);
    return NULL;
  }
  return stamp;
}

int main(void) {
  CHECK_ERROR(aclInit(NULL));
  CHECK_ERROR(aclrtSetDevice(0));
  aclrtStream stream = NULL;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const char *path = "./output";
  CHECK_ERROR(aclprofInit(path, strlen(path)));
  uint32_t devices[1] = {0};
  aclprofConfig *config =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  if (config == NULL) {
    printf("[ERROR] aclprofCreateConfig failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  CHECK_ERROR(aclprofStart(config));

  aclprofStepInfo *step = aclprofCreateStepInfo();
  CHECK_ERROR(aclprofGetStepTimestamp(step, ACL_STEP_START, stream));

  void *loadMark = stamp_with("model_load_mark");
  void *forward = stamp_with("forward_pass_push");
  void *dispatch = stamp_with("operator_dispatch_push");
  void *preprocess = stamp_with("preprocess_range");
  void *execMark = stamp_with("model_exec_mark");
  if (!loadMark || !forward || !dispatch || !preprocess || !execMark) {
    printf("[ERROR] aclprofCreateStamp failed: %s\n", aclGetRecentErrMsg());
    return 1;
  }
  CHECK_ERROR(aclprofMark(loadMark));

  CHECK_ERROR(aclprofPush(forward));
  uint32_t rangeId = 0;
  printf("[INFO] Preprocess range start\n");
  CHECK_ERROR(aclprofRangeStart(preprocess, &rangeId));
  sleep_seconds(1);
  CHECK_ERROR(aclprofRangeStop(rangeId));
  printf("[INFO] Preprocess range stop\n");

  printf("[INFO] Nested operator dispatch range start\n");
  CHECK_ERROR(aclprofPush(dispatch));
  sleep_seconds(1);
  CHECK_ERROR(aclprofPop());
  printf("[INFO] Nested operator dispatch range stop\n");

  printf("[INFO] Model execute start\n");
  sleep_seconds(3);
  CHECK_ERROR(aclprofMark(execMark));
  printf("[INFO] Model execute end\n");
  CHECK_ERROR(aclprofPop());

  CHECK_ERROR(aclprofGetStepTimestamp(step, ACL_STEP_END, stream));
  aclprofDestroyStamp(loadMark);
  aclprofDestroyStamp(forward);
  aclprofDestroyStamp(dispatch);
  aclprofDestroyStamp(preprocess);
  aclprofDestroyStamp(execMark);
  aclprofDestroyStepInfo(step);

  CHECK_ERROR(aclprofStop(config));
  CHECK_ERROR(aclprofDestroyConfig(config));
  CHECK_ERROR(aclprofFinalize());
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclrtResetDevice(0));
  CHECK_ERROR(aclFinalize());
  printf("[INFO] sample finished\n");
  return 0;
}
