/*
 * sample_model.c - runs chain.onnx for the adump samples (sample_model.h):
 * load from file, device buffers for the input and output, aclmdlExecute,
 * copy back, unload; public API only, written like the vendor's sample
 * helpers.
 */
#include "sample_model.h"

#include <stdio.h>

#define BYTES (6 * sizeof(float))

int sample_run_chain(const char *path, const float *x, float *y, uint32_t *modelId) {
  uint32_t id = 0;
  void *dx = NULL, *dy = NULL;
  aclmdlDataset *in = NULL, *out = NULL;
  aclDataBuffer *bx = NULL, *by = NULL;
  int rc = aclmdlLoadFromFile(path, &id);
  if (rc != ACL_SUCCESS) {
    printf("[ERROR] aclmdlLoadFromFile(%s) failed: %d %s\n", path, rc, aclGetRecentErrMsg());
    return rc;
  }
  *modelId = id;
  if ((rc = aclrtMalloc(&dx, BYTES, ACL_MEM_MALLOC_HUGE_FIRST)) != 0 ||
      (rc = aclrtMalloc(&dy, BYTES, ACL_MEM_MALLOC_HUGE_FIRST)) != 0 ||
      (rc = aclrtMemcpy(dx, BYTES, x, BYTES, ACL_MEMCPY_HOST_TO_DEVICE)) != 0)
    goto out;
  in = aclmdlCreateDataset();
  out = aclmdlCreateDataset();
  bx = aclCreateDataBuffer(dx, BYTES);
  by = aclCreateDataBuffer(dy, BYTES);
  if (in == NULL || out == NULL || bx == NULL || by == NULL) {
    rc = ACL_ERROR_BAD_ALLOC;
    goto out;
  }
  if ((rc = aclmdlAddDatasetBuffer(in, bx)) != 0 || (rc = aclmdlAddDatasetBuffer(out, by)) != 0)
    goto out;
  if ((rc = aclmdlExecute(id, in, out)) != 0)
    goto out;
  rc = aclrtMemcpy(y, BYTES, dy, BYTES, ACL_MEMCPY_DEVICE_TO_HOST);
out:
  if (rc != 0)
    printf("[ERROR] running %s failed: %d %s\n", path, rc, aclGetRecentErrMsg());
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  aclDestroyDataBuffer(bx);
  aclDestroyDataBuffer(by);
  aclrtFree(dx);
  aclrtFree(dy);
  aclmdlUnload(id);
  return rc;
}
