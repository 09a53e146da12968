/*
 * adump_2_model_dump_config.c - in the style of the vendor's
 * example/5_performance/adump/2_model_dump_config: turn dump on at run
 * time (aclmdlInitDump, aclmdlSetDump("./acl.json"), aclmdlFinalizeDump),
 * print the directory acldumpGetPath(DATA_DUMP) names, run the work: an
 * aclnnAdd, dumped because the file turns dump_op_switch on.  run_sample.sh
 * checks the printed path and the dump file under it.
 */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "model_ri_common.h"

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

  aclrtStream stream = NULL;
  CHECK_ERROR(aclrtCreateStream(&stream));
  const float self[8] = {0, 1, 2, 3, 4, 5, 6, 7}, other[8] = {1, 1, 1, 2, 2, 2, 4, 4};
  void *selfDev = NULL, *otherDev = NULL, *outDev = NULL;
  aclTensor *tSelf = NULL, *tOther = NULL, *tOut = NULL;
  if (CreateTensor(self, 8, &selfDev, &tSelf) != 0 || CreateTensor(other, 8, &otherDev, &tOther) != 0 ||
      CreateTensor(NULL, 8, &outDev, &tOut) != 0 || RunAdd(tSelf, tOther, 1.0f, tOut, stream) != 0)
    return 1;
  CHECK_ERROR(aclrtSynchronizeStream(stream));
  if (PrintDevice("[INFO] add result", outDev, 8) != 0)
    return 1;
  aclDestroyTensor(tSelf);
  aclDestroyTensor(tOther);
  aclDestroyTensor(tOut);
  aclrtFree(selfDev);
  aclrtFree(otherDev);
  aclrtFree(outDev);
  CHECK_ERROR(aclrtDestroyStream(stream));
  CHECK_ERROR(aclmdlFinalizeDump());
  CHECK_ERROR(aclrtResetDevice(0));
  CHECK_ERROR(aclFinalize());
  return 0;
}
