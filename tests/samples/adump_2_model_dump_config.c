/*
 * adump_2_model_dump_config.c - in the style of the vendor's
 * example/5_performance/adump/2_model_dump_config: turn dump on at run
 * time (aclmdlInitDump, aclmdlSetDump("./acl.json"), aclmdlFinalizeDump),
 * print the directory acldumpGetPath(DATA_DUMP) names, run the work.  The
 * vendor's sample runs an aclnnAdd; openacl has no aclnn operators yet
 * (issue 14), so this one runs chain.onnx (sample_model.h), loaded after
 * aclmdlSetDump so the configuration applies.  run_sample.sh checks the
 * printed path and the dump files under it.
 */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "sample_model.h"

#define CHECK_ERROR(call)                                                                                              \
  do {                                                                                                                 \
    aclError ret_ = (call);                                                                                            \
    if (ret_ != ACL_SUCCESS) {                                                                                         \
      printf("[ERROR] %s failed at line %d: %d %s\n", #call, __LINE__, ret_, aclGetRecentErrMsg());                    \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

int main(void) {
  CHECK_ERROR(aclInit(NULL));
  CHECK_ERROR(aclrtSetDevice(0));
  CHECK_ERROR(aclmdlInitDump());
  CHECK_ERROR(aclmdlSetDump("./acl.json"));
  const char *dumpPath = acldumpGetPath(DATA_DUMP);
  if (dumpPath == NULL)
    printf("[WARN] acldumpGetPath returned NULL; the dump path is not known\n");
  else
    printf("[INFO] dump path: %s\n", dumpPath);

  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {0};
  uint32_t modelId = 0;
  if (sample_run_chain("./chain.onnx", x, y, &modelId) != 0)
    return 1;
  printf("[INFO] model %u executed: y[0] = %g\n", modelId, (double)y[0]);
  CHECK_ERROR(aclmdlFinalizeDump());
  CHECK_ERROR(aclrtResetDevice(0));
  CHECK_ERROR(aclFinalize());
  return 0;
}
