/*
 * profile_pipeline.c - profiling a two-stream inference pipeline, as a
 * program for an Ascend card would: batches alternate between two streams
 * (copy in, execute, copy out), the second stream waits on an event of the
 * first before its first batch, and each batch is an msproftx range.  The
 * profile goes to DIR/PROF_.../mindstudio_profiler_output: the CSV tables,
 * and msprof_*.json, the timeline to open in https://ui.perfetto.dev
 * (docs/profiling.md shows it).
 *
 *   profile_pipeline [MODEL.onnx [DIR [BATCHES]]]
 *
 * MODEL defaults to models/shapes/shapes.onnx (input [N,3,64,64]), DIR to
 * ./profile, BATCHES to 6 (of 8 images each).  Written against the vendor's
 * headers only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define BATCH 8
#define STREAMS 2

#define CHECK_ACL(call)                                                                            \
  do {                                                                                             \
    aclError check_rc_ = (call);                                                                   \
    if (check_rc_ != ACL_SUCCESS) {                                                                \
      const char *check_msg_ = aclGetRecentErrMsg();                                               \
      fprintf(stderr, "profile_pipeline: %s failed with %d\n%s\n", #call, (int)check_rc_,          \
              check_msg_ ? check_msg_ : "(no message)");                                          \
      goto out;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "models/shapes/shapes.onnx";
  const char *dir = argc > 2 ? argv[2] : "profile";
  int batches = argc > 3 ? atoi(argv[3]) : 6;
  int status = 1, inited = 0, dev_set = 0, prof_init = 0, prof_started = 0, loaded = 0;
  uint32_t model_id = 0, device = 0;
  aclrtStream stream[STREAMS] = {NULL, NULL};
  aclrtEvent ready = NULL;
  aclprofConfig *cfg = NULL;
  aclmdlDesc *desc = NULL;
  void *host_in = NULL, *host_out = NULL, *dev_in[STREAMS] = {NULL, NULL}, *dev_out[STREAMS] = {NULL, NULL};
  aclmdlDataset *in[STREAMS] = {NULL, NULL}, *out[STREAMS] = {NULL, NULL};
  aclTensorDesc *in_desc[STREAMS] = {NULL, NULL};
  size_t in_size = 0, out_size = 0;
  if (batches < 1)
    batches = 1;

  CHECK_ACL(aclInit(NULL));
  inited = 1;
  CHECK_ACL(aclrtSetDevice(0));
  dev_set = 1;
  for (int s = 0; s < STREAMS; s++)
    CHECK_ACL(aclrtCreateStream(&stream[s]));
  CHECK_ACL(aclrtCreateEvent(&ready));

  CHECK_ACL(aclprofInit(dir, strlen(dir)));
  prof_init = 1;
  cfg = aclprofCreateConfig(&device, 1, ACL_AICORE_NONE, NULL,
                            ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API | ACL_PROF_MSPROFTX);
  if (cfg == NULL) {
    fprintf(stderr, "profile_pipeline: aclprofCreateConfig failed\n%s\n", aclGetRecentErrMsg());
    goto out;
  }
  CHECK_ACL(aclprofStart(cfg));
  prof_started = 1;

  CHECK_ACL(aclmdlLoadFromFile(model, &model_id));
  loaded = 1;
  desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, model_id));
  aclmdlIODims idims, odims;
  CHECK_ACL(aclmdlGetInputDims(desc, 0, &idims));
  CHECK_ACL(aclmdlGetOutputDims(desc, 0, &odims));
  int64_t shape[ACL_MAX_DIM_CNT];
  size_t in_items = 1, out_items = 1;
  for (size_t k = 0; k < idims.dimCount; k++) {
    shape[k] = k == 0 ? BATCH : idims.dims[k];
    in_items *= (size_t)shape[k];
  }
  for (size_t k = 0; k < odims.dimCount; k++)
    out_items *= (size_t)(k == 0 ? BATCH : odims.dims[k]);
  in_size = in_items * sizeof(float);
  out_size = out_items * sizeof(float);
  CHECK_ACL(aclrtMallocHost(&host_in, in_size * STREAMS));
  CHECK_ACL(aclrtMallocHost(&host_out, out_size * STREAMS));
  for (size_t i = 0; i < in_items * STREAMS; i++)
    ((float *)host_in)[i] = (float)(i % 255) / 255.0f;
  for (int s = 0; s < STREAMS; s++) {
    CHECK_ACL(aclrtMalloc(&dev_in[s], in_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dev_out[s], out_size, ACL_MEM_MALLOC_HUGE_FIRST));
    in[s] = aclmdlCreateDataset();
    out[s] = aclmdlCreateDataset();
    CHECK_ACL(aclmdlAddDatasetBuffer(in[s], aclCreateDataBuffer(dev_in[s], in_size)));
    CHECK_ACL(aclmdlAddDatasetBuffer(out[s], aclCreateDataBuffer(dev_out[s], out_size)));
    in_desc[s] = aclCreateTensorDesc(ACL_FLOAT, (int)idims.dimCount, shape, ACL_FORMAT_NCHW);
    CHECK_ACL(aclmdlSetDatasetTensorDesc(in[s], in_desc[s], 0));
  }

  /* stream 1 starts once stream 0's first copy is in: an event between them */
  for (int b = 0; b < batches; b++) {
    int s = b % STREAMS;
    char what[32];
    snprintf(what, sizeof(what), "batch %d", b);
    void *stamp = aclprofCreateStamp();
    uint32_t range = 0;
    int ranged = stamp != NULL && aclprofSetStampTraceMessage(stamp, what, (uint32_t)strlen(what)) == ACL_SUCCESS &&
                 aclprofRangeStart(stamp, &range) == ACL_SUCCESS;
    CHECK_ACL(aclrtMemcpyAsync(dev_in[s], in_size, (char *)host_in + (size_t)s * in_size, in_size,
                               ACL_MEMCPY_HOST_TO_DEVICE, stream[s]));
    if (b == 0)
      CHECK_ACL(aclrtRecordEvent(ready, stream[0]));
    if (b == 1)
      CHECK_ACL(aclrtStreamWaitEvent(stream[1], ready));
    CHECK_ACL(aclmdlExecuteAsync(model_id, in[s], out[s], stream[s]));
    CHECK_ACL(aclrtMemcpyAsync((char *)host_out + (size_t)s * out_size, out_size, dev_out[s], out_size,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream[s]));
    if (ranged)
      aclprofRangeStop(range);
    if (stamp != NULL)
      aclprofDestroyStamp(stamp);
  }
  for (int s = 0; s < STREAMS; s++)
    CHECK_ACL(aclrtSynchronizeStream(stream[s]));
  printf("profile_pipeline: %d batches of %d on %d streams; first logits %g %g\n", batches, BATCH, STREAMS,
         ((float *)host_out)[0], ((float *)host_out)[1]);
  status = 0;
out:
  if (prof_started && aclprofStop(cfg) != ACL_SUCCESS)
    status = 1;
  if (cfg != NULL)
    aclprofDestroyConfig(cfg);
  if (prof_init && aclprofFinalize() != ACL_SUCCESS)
    status = 1;
  if (status == 0)
    printf("profile_pipeline: profile written under %s/\n", dir);
  for (int s = 0; s < STREAMS; s++) {
    for (int d = 0; d < 2; d++) {
      aclmdlDataset *ds = d ? out[s] : in[s];
      if (ds == NULL)
        continue;
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++)
        aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
      aclmdlDestroyDataset(ds);
    }
    if (in_desc[s] != NULL)
      aclDestroyTensorDesc(in_desc[s]);
    if (dev_in[s] != NULL)
      aclrtFree(dev_in[s]);
    if (dev_out[s] != NULL)
      aclrtFree(dev_out[s]);
  }
  if (host_in != NULL)
    aclrtFreeHost(host_in);
  if (host_out != NULL)
    aclrtFreeHost(host_out);
  if (desc != NULL)
    aclmdlDestroyDesc(desc);
  if (loaded)
    aclmdlUnload(model_id);
  if (ready != NULL)
    aclrtDestroyEvent(ready);
  for (int s = 0; s < STREAMS; s++)
    if (stream[s] != NULL)
      aclrtDestroyStream(stream[s]);
  if (dev_set)
    aclrtResetDevice(0);
  if (inited)
    aclFinalize();
  return status;
}
