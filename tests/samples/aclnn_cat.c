/*
 * aclnn_cat.c - the sample of the vendor's aclnnCat page (ops-math
 * conversion/concat_d/docs/aclnnCat.md) in C: two [2, 3] float tensors in
 * an aclTensorList, aclnnCat along dim 0 into a [4, 3] out in its two
 * phases, the result printed as the vendor's samples print it.  The list
 * owns its tensors: aclDestroyTensorList releases them.  Built with the
 * vendor's link line and run by run_sample.sh, which checks the output.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_cat.h"

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
  aclrtStream stream;
  int ret = aclInit(NULL);
  CHECK_RET(ret == ACL_SUCCESS, "aclInit failed. ERROR: %d\n", ret);
  ret = aclrtSetDevice(device_id);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtSetDevice failed. ERROR: %d\n", ret);
  ret = aclrtCreateStream(&stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtCreateStream failed. ERROR: %d\n", ret);

  int64_t in_shape[2] = {2, 3}, out_shape[2] = {4, 3};
  float a_host[6] = {0, 1, 2, 3, 4, 5}, b_host[6] = {6, 7, 8, 9, 10, 11}, out_host[12] = {0};
  void *a_dev = NULL, *b_dev = NULL, *out_dev = NULL;
  aclTensor *a = NULL, *b = NULL, *out = NULL;
  if (create_acl_tensor(a_host, in_shape, 2, &a_dev, &a) != 0 ||
      create_acl_tensor(b_host, in_shape, 2, &b_dev, &b) != 0 ||
      create_acl_tensor(out_host, out_shape, 2, &out_dev, &out) != 0)
    return -1;
  const aclTensor *list[2] = {a, b};
  aclTensorList *tensors = aclCreateTensorList(list, 2);
  CHECK_RET(tensors != NULL, "aclCreateTensorList failed\n");

  /* phase 1, then phase 2 on the stream */
  uint64_t workspace_size = 0;
  aclOpExecutor *executor;
  ret = aclnnCatGetWorkspaceSize(tensors, 0, out, &workspace_size, &executor);
  CHECK_RET(ret == ACL_SUCCESS, "aclnnCatGetWorkspaceSize failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
  void *workspace = NULL;
  if (workspace_size > 0) {
    ret = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, "allocate workspace failed. ERROR: %d\n", ret);
  }
  ret = aclnnCat(workspace, workspace_size, executor, stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclnnCat failed. ERROR: %d (%s)\n", ret, aclGetRecentErrMsg());
  ret = aclrtSynchronizeStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, "aclrtSynchronizeStream failed. ERROR: %d\n", ret);

  ret = aclrtMemcpy(out_host, sizeof out_host, out_dev, sizeof out_host, ACL_MEMCPY_DEVICE_TO_HOST);
  CHECK_RET(ret == ACL_SUCCESS, "copy result from device to host failed. ERROR: %d\n", ret);
  for (int64_t i = 0; i < shape_size(out_shape, 2); i++)
    printf("result[%ld] is: %f\n", (long)i, out_host[i]);

  aclDestroyTensorList(tensors); /* a and b with it */
  aclDestroyTensor(out);
  aclrtFree(a_dev);
  aclrtFree(b_dev);
  aclrtFree(out_dev);
  if (workspace_size > 0)
    aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(device_id);
  aclFinalize();
  printf("aclnn_cat: done\n");
  return 0;
}
