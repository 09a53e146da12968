/*
 * model_ri_common.h - what the task-graph and dump samples (model_ri_*,
 * label_*, adump_*) share, as the vendor's samples share their common utilities: a result
 * check that prints the runtime's message, 1-D float tensors over device
 * memory, and the two-phase aclnnAdd / aclnnMul calls they put on a stream.
 */
#ifndef OPENACL_SAMPLES_MODEL_RI_COMMON_H
#define OPENACL_SAMPLES_MODEL_RI_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

#define CHECK_RET(cond, what)                                                                                          \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf("[ERROR] %s failed at line %d: %s\n", what, __LINE__, aclGetRecentErrMsg());                              \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

/* n floats of device memory holding `host` (NULL: zeros), and a tensor over them. */
static inline int CreateTensor(const float *host, int64_t n, void **dev, aclTensor **tensor) {
  size_t size = (size_t)n * sizeof(float);
  CHECK_RET(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclrtMemset(*dev, size, 0, size) == ACL_SUCCESS, "aclrtMemset");
  if (host != NULL)
    CHECK_RET(aclrtMemcpy(*dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
  int64_t stride = 1;
  *tensor = aclCreateTensor(&n, 1, ACL_FLOAT, &stride, 0, ACL_FORMAT_ND, &n, 1, *dev);
  CHECK_RET(*tensor != NULL, "aclCreateTensor");
  return 0;
}

/* out = self + alpha * other, queued on stream */
static inline int RunAdd(aclTensor *self, aclTensor *other, float alphaValue, aclTensor *out, aclrtStream stream) {
  aclScalar *alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
  uint64_t wsSize = 0;
  aclOpExecutor *executor = NULL;
  CHECK_RET(aclnnAddGetWorkspaceSize(self, other, alpha, out, &wsSize, &executor) == ACL_SUCCESS,
            "aclnnAddGetWorkspaceSize");
  void *ws = NULL;
  if (wsSize > 0)
    CHECK_RET(aclrtMalloc(&ws, wsSize, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
  CHECK_RET(aclnnAdd(ws, wsSize, executor, stream) == ACL_SUCCESS, "aclnnAdd");
  aclDestroyScalar(alpha);
  return 0; /* a workspace, if any, must outlive the model: these samples' operators need none */
}

/* out = self * other, queued on stream */
static inline int RunMul(aclTensor *self, aclTensor *other, aclTensor *out, aclrtStream stream) {
  uint64_t wsSize = 0;
  aclOpExecutor *executor = NULL;
  CHECK_RET(aclnnMulGetWorkspaceSize(self, other, out, &wsSize, &executor) == ACL_SUCCESS,
            "aclnnMulGetWorkspaceSize");
  CHECK_RET(wsSize == 0, "aclnnMul without a workspace");
  CHECK_RET(aclnnMul(NULL, 0, executor, stream) == ACL_SUCCESS, "aclnnMul");
  return 0;
}

static inline int PrintDevice(const char *name, const void *dev, int n) {
  float host[64];
  CHECK_RET(n <= 64, "PrintDevice");
  CHECK_RET(aclrtMemcpy(host, (size_t)n * sizeof(float), dev, (size_t)n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) ==
                ACL_SUCCESS,
            "aclrtMemcpy");
  if (name != NULL)
    printf("%s: ", name);
  for (int i = 0; i < n; i++)
    printf("%.4f ", host[i]);
  printf("\n");
  return 0;
}

#endif
