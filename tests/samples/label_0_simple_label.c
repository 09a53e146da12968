/*
 * label_0_simple_label.c - in the style of the vendor's
 * example/2_advanced_features/label/0_simple_label (reference
 * ipc-vmm-graphs-tdt §5.5, §5.7): a model built on one persistent HEAD
 * stream; a uint32 branch index 1 in device memory; two labels in a list;
 * aclrtSwitchLabelByIndex submitted before the two aclrtSetLabel calls;
 * branch 0 writes 0xAA, branch 1 writes 0x55 into a result byte; end of
 * graph, build end, one execution.  Prints "Switch label executed
 * successfully with branch index 1." and "Run the simple_label sample
 * successfully."
 */
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

#define CHECK_RET(cond, what)                                                                                          \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("[ERROR] %s failed at line %d: %s\n", what, __LINE__, aclGetRecentErrMsg());                              \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

int main(void) {
  CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  aclrtStream stream = NULL, execStream = NULL;
  CHECK_RET(aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_PERSISTENT) == ACL_SUCCESS,
            "aclrtCreateStreamWithConfig");
  CHECK_RET(aclrtCreateStream(&execStream) == ACL_SUCCESS, "aclrtCreateStream");
  uint32_t *index = NULL;
  uint8_t *result = NULL;
  uint32_t branch = 1;
  CHECK_RET(aclrtMalloc((void **)&index, sizeof branch, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMalloc((void **)&result, 64, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemcpy(index, sizeof branch, &branch, sizeof branch, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "aclrtMemcpy");
  CHECK_RET(aclrtMemset(result, 64, 0, 64) == ACL_SUCCESS, "aclrtMemset");

  aclrtLabel labels[2] = {NULL};
  for (int i = 0; i < 2; i++)
    CHECK_RET(aclrtCreateLabel(&labels[i]) == ACL_SUCCESS, "aclrtCreateLabel");
  aclrtLabelList labelList = NULL;
  CHECK_RET(aclrtCreateLabelList(labels, 2, &labelList) == ACL_SUCCESS, "aclrtCreateLabelList");

  aclmdlRI modelRI = NULL;
  CHECK_RET(aclmdlRIBuildBegin(&modelRI, 0) == ACL_SUCCESS, "aclmdlRIBuildBegin");
  CHECK_RET(aclmdlRIBindStream(modelRI, stream, ACL_MODEL_STREAM_FLAG_HEAD) == ACL_SUCCESS, "aclmdlRIBindStream");
  CHECK_RET(aclrtSwitchLabelByIndex(index, 2, labelList, stream) == ACL_SUCCESS, "aclrtSwitchLabelByIndex");
  CHECK_RET(aclrtSetLabel(labels[0], stream) == ACL_SUCCESS, "aclrtSetLabel");
  CHECK_RET(aclrtMemsetAsync(result, 1, 0xAA, 1, stream) == ACL_SUCCESS, "aclrtMemsetAsync");
  CHECK_RET(aclmdlRIEndTask(modelRI, stream) == ACL_SUCCESS, "aclmdlRIEndTask");
  CHECK_RET(aclrtSetLabel(labels[1], stream) == ACL_SUCCESS, "aclrtSetLabel");
  CHECK_RET(aclrtMemsetAsync(result, 1, 0x55, 1, stream) == ACL_SUCCESS, "aclrtMemsetAsync");
  CHECK_RET(aclmdlRIEndTask(modelRI, stream) == ACL_SUCCESS, "aclmdlRIEndTask");
  CHECK_RET(aclmdlRIBuildEnd(modelRI, NULL) == ACL_SUCCESS, "aclmdlRIBuildEnd");

  CHECK_RET(aclmdlRIExecuteAsync(modelRI, execStream) == ACL_SUCCESS, "aclmdlRIExecuteAsync");
  CHECK_RET(aclrtSynchronizeStream(execStream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  uint8_t got = 0;
  CHECK_RET(aclrtMemcpy(&got, 1, result, 1, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "aclrtMemcpy");
  if (got != 0x55) {
    printf("[ERROR] the switch took branch 0x%02x, expected branch index %u\n", got, branch);
    return 1;
  }
  printf("Switch label executed successfully with branch index %u.\n", branch);

  CHECK_RET(aclmdlRIUnbindStream(modelRI, stream) == ACL_SUCCESS, "aclmdlRIUnbindStream");
  CHECK_RET(aclmdlRIDestroy(modelRI) == ACL_SUCCESS, "aclmdlRIDestroy");
  CHECK_RET(aclrtDestroyLabelList(labelList) == ACL_SUCCESS, "aclrtDestroyLabelList");
  for (int i = 0; i < 2; i++)
    CHECK_RET(aclrtDestroyLabel(labels[i]) == ACL_SUCCESS, "aclrtDestroyLabel");
  aclrtFree(index);
  aclrtFree(result);
  aclrtDestroyStream(stream);
  aclrtDestroyStream(execStream);
  aclrtResetDevice(0);
  aclFinalize();
  printf("Run the simple_label sample successfully.\n");
  return 0;
}
