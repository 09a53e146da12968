/*
 * adump_3_save_exception_info.c - in the style of the vendor's
 * example/5_performance/adump/3_save_exception_info: with exception dump on
 * (acl.json dump_scene aic_err_brief_dump), print the exception-info
 * directory and save three device tensors of the work with a user tag.
 * The vendor's sample saves the inputs and output of an aclnnAdd; openacl
 * has no aclnn operators yet (issue 14), so this one adds on the host,
 * copies the three fp32 [4,2] tensors to the device and runs chain.onnx
 * (sample_model.h) as "the work".  Failures only warn, as in the vendor's.
 * run_sample.sh checks the path and the
 * extra-info/data-dump/0/save_exception_info.custom.<stamp> file.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "sample_model.h"

#define N 8

static void fill_tensor(acldumpTensorInfo *t, acldumpTensorType type, void *dev) {
  memset(t, 0, sizeof(*t));
  t->type = type;
  t->tensorSize = N * sizeof(float);
  t->format = ACL_FORMAT_ND;
  t->dataType = ACL_FLOAT;
  t->tensorAddr = (int64_t *)dev;
  t->addrType = ACL_DUMP_ADDR_RAW;
  t->placement = ACL_DUMP_PLACEMENT_DEVICE;
  t->shapeNum = 2;
  t->shape[0] = 4;
  t->shape[1] = 2;
  t->originShapeNum = 2;
  t->originShape[0] = 4;
  t->originShape[1] = 2;
}

int main(void) {
  aclError ret = aclInit("./acl.json");
  if (ret != ACL_SUCCESS) {
    printf("[ERROR] aclInit failed: %d %s\n", ret, aclGetRecentErrMsg());
    return 1;
  }
  aclrtSetDevice(0);
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  ret = acldumpGetExceptionInfoPath(path, sizeof(path));
  if (ret != ACL_SUCCESS)
    printf("[WARN] acldumpGetExceptionInfoPath failed: %d %s\n", ret, aclGetRecentErrMsg());
  else
    printf("[INFO] exception info path: %s\n", path);

  float self[N] = {0, 1, 2, 3, 4, 5, 6, 7}, other[N] = {1, 1, 1, 2, 2, 2, 3, 3}, out[N];
  for (int i = 0; i < N; i++)
    out[i] = self[i] + 1.2f * other[i];
  void *dev[3] = {NULL, NULL, NULL};
  const float *host[3] = {self, other, out};
  for (int i = 0; i < 3; i++) {
    if (aclrtMalloc(&dev[i], sizeof(self), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(dev[i], sizeof(self), host[i], sizeof(self), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      printf("[ERROR] device buffer %d: %s\n", i, aclGetRecentErrMsg());
      return 1;
    }
  }
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {0};
  uint32_t modelId = 0;
  if (sample_run_chain("./chain.onnx", x, y, &modelId) != 0)
    return 1;

  acldumpTensorInfo tensors[3];
  fill_tensor(&tensors[0], ACL_DUMP_TENSOR_INPUT, dev[0]);
  fill_tensor(&tensors[1], ACL_DUMP_TENSOR_INPUT, dev[1]);
  fill_tensor(&tensors[2], ACL_DUMP_TENSOR_OUTPUT, dev[2]);
  ret = acldumpSaveExceptionInfo("save_exception_info", "component=demo;stage=forward;note=save_exception_info_example",
                                 tensors, 3);
  if (ret != ACL_SUCCESS)
    printf("[WARN] acldumpSaveExceptionInfo failed: %d %s\n", ret, aclGetRecentErrMsg());
  else
    printf("[INFO] exception info saved\n");

  for (int i = 0; i < 3; i++)
    aclrtFree(dev[i]);
  aclrtResetDevice(0);
  aclFinalize();
  return ret == ACL_SUCCESS ? 0 : 1;
}
