/*
 * aclnn_0_hello_cann.c - the vendor's example/0_quickstart/0_hello_cann
 * flow in C: initialise, set a device, make a stream, put two input
 * tensors and an output on the device, run aclnnAdd in its two phases
 * (workspace from aclrtMalloc when phase 1 asks for one), synchronise,
 * copy the result back, print it, and release everything.  It is built
 * with the vendor's link line (-lnnopbase -lopapi next to the runtime's
 * library) and run by run_sample.sh, which checks what it prints.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK_RET(cond, ...)                                                                                           \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      printf(__VA_ARGS__);                                                                                             \
      return -1;                                                                                                       \
    }                                                                                                                  \
  } while (0)

static int64_t shape_size(const int64_t *shape, int n) {
  int64_t s = 1;
  for (int i = 0; i < n; i++)
    s *= shape[i];
  return s;
}

/* Device memory holding host data, and an ND tensor with contiguous strides over it. */
static int create_acl_tensor(const float *host, const int64_t *shape, int n, void **device_addr, aclTensor **tensor) {
  int64_t size = shape_size(shape, n) * (int64_t)sizeof(float);
  int ret = aclrtMalloc(device_addr, (size_t)size, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtMalloc failed. ERROR: %d\n", ret);
  ret = aclrtMemcpy(*device_addr, (size_t)size, host, (size_t)size, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtMemcpy failed. ERROR: %d\n", ret);
  int64_t strides[8];
  strides[n - 1] = 1;
  for (int i = n - 2; i >= 0; i--)
    strides[i] = shape[i + 1] * strides[i + 1];
  *tensor = aclCreateTensor(shape, (uint64_t)n, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, (uint64_t)n, *device_addr);
  CHECK_RET(*tensor != NULL, "aclCreateTensor failed\n");
  return 0;
}

int main(void) {
  int32_t device_id = 0;
  aclrtContext context;
  aclrtStream stream;
  int ret = aclInit(NULL);
  CHECK_RET(ret == ACL_SUCCESS, "aclInit failed. ERROR: %d\n", ret);
  ret = aclrtSetDevice(device_id);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtSetDevice failed. ERROR: %d\n", ret);
  ret = aclrtCreateContext(&context, device_id);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtCreateContext failed. ERROR: %d\n", ret);
  ret = aclrtCreateStream(&stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtCreateStream failed. ERROR: %d\n", ret);
  printf("hello cann: device %d ready\n", device_id);

  int64_t shape[2] = {4, 2};
  float self_host[8] = {0, 1, 2, 3, 4, 5, 6, 7}, other_host[8] = {1, 1, 1, 2, 2, 2, 3, 3}, out_host[8] = {0};
  void *self_dev = NULL, *other_dev = NULL, *out_dev = NULL;
  aclTensor *self = NULL, *other = NULL, *out = NULL;
  if (create_acl_tensor(self_host, shape, 2, &self_dev, &self) != 0 ||
      create_acl_tensor(other_host, shape, 2, &other_dev, &other) != 0 ||
      create_acl_tensor(out_host, shape, 2, &out_dev, &out) != 0)
    return -1;
  float alpha_value = 1.2f;
  aclScalar *alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
  CHECK_RET(alpha != NULL, "aclCreateScalar failed\n");

  /* phase 1: the workspace size and the executor */
  uint64_t workspace_size = 0;
  aclOpExecutor *executor;
  ret = aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspace_size, &executor);
  CHECK_RET(ret == ACL_SUCCESS, "aclnnAddGetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
  void *workspace = NULL;
  if (workspace_size > 0) {
    ret = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, "allocate workspace failed. ERROR: %d\n", ret);
  }
  /* phase 2: queued on the stream */
  ret = aclnnAdd(workspace, workspace_size, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclnnAdd failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtSynchronizeStream failed. ERROR: %d\n", ret);

  ret = aclrtMemcpy(out_host, sizeof out_host, out_dev, sizeof out_host, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, "copy result from device to host failed. ERROR: %d\n", ret);
  for (int64_t i = 0; i < shape_size(shape, 2); i++)
    printf("result[%ld] is: %f\n", (long)i, out_host[i]);

  aclDestroyTensor(self);
  aclDestroyTensor(other);
  aclDestroyTensor(out);
  aclDestroyScalar(alpha);
  aclrtFree(self_dev);
  aclrtFree(other_dev);
  aclrtFree(out_dev);
  if (workspace_size > 0)
    aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtDestroyContext(context);
  aclrtResetDevice(device_id);
  aclFinalize();
  printf("hello cann: done\n");
  return 0;
}
