/*
 * prof_0_create_config.c - in the style of the vendor's
 * example/5_performance/profiling/0_create_config: profile a stretch of a
 * program through the aclprof API with every data type the sample sets and
 * one aclprofSetConfig.  Like the vendor's, it checks only SetConfig's
 * return and prints each step; "model running" is a copy on the stream.
 * run_sample.sh checks the lines and the ./output/PROF_... directory.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

int main(void) {
  aclInit(NULL);
  int32_t deviceId = 0;
  aclrtSetDevice(deviceId);
  aclrtStream stream = NULL;
  aclrtCreateStream(&stream);

  const char *aclProfPath = "./output";
  aclprofInit(aclProfPath, strlen(aclProfPath));
  printf("[INFO] profiling init done\n");
  uint32_t deviceIdList[1] = {0};
  aclprofConfig *config =
      aclprofCreateConfig(deviceIdList, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, NULL,
                          ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU |
                              ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API);
  const char *memFreq = "15";
  aclError ret = aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, memFreq, strlen(memFreq));
  if (ret != ACL_SUCCESS) {
    printf("[ERROR] aclprofSetConfig failed: %d %s\n", ret, aclGetRecentErrMsg());
    return 1;
  }
  printf("[INFO] profiling set config done\n");
  aclprofStart(config);
  printf("[INFO] profiling start\n");

  printf("[INFO] model running ....\n");
  float host[256] = {0};
  void *dev = NULL;
  aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpyAsync(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, stream);
  aclrtSynchronizeStream(stream);
  aclrtFree(dev);

  aclprofStop(config);
  aclprofDestroyConfig(config);
  aclprofFinalize();
  printf("[INFO] profiling stop and finalize done\n");

  aclrtDestroyStream(stream);
  aclrtResetDeviceForce(deviceId);
  aclFinalize();
  return 0;
}
