/*
 * adump_3_save_exception_info.c - in the style of the vendor's
 * example/5_performance/adump/3_save_exception_info: with exception dump on
 * (acl.json dump_scene aic_err_brief_dump), print the exception-info
 * directory and save three device tensors of the work with a user tag:
 * the inputs and output of an aclnnAdd of two fp32 [4,2] tensors, as in the
 * vendor's sample.  Failures only warn, as in the vendor's.
 * run_sample.sh checks the path and the
 * extra-info/data-dump/0/save_exception_info.custom.<stamp> file.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "model_ri_common.h"

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

  aclrtStream stream = NULL;
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
  const float self[N] = {0, 1, 2, 3, 4, 5, 6, 7}, other[N] = {1, 1, 1, 2, 2, 2, 3, 3};
  void *dev[3] = {NULL, NULL, NULL};
  aclTensor *t[3] = {NULL, NULL, NULL};
  if (CreateTensor(self, N, &dev[0], &t[0]) != 0 || CreateTensor(other, N, &dev[1], &t[1]) != 0 ||
      CreateTensor(NULL, N, &dev[2], &t[2]) != 0 || RunAdd(t[0], t[1], 1.2f, t[2], stream) != 0)
    return 1;
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
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

  for (int i = 0; i < 3; i++) {
    aclDestroyTensor(t[i]);
    aclrtFree(dev[i]);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ret == ACL_SUCCESS ? 0 : 1;
}
