/*
 * run.h - executing a loaded model (aclmdlExecute / aclmdlExecuteAsync) on
 * the reference executor (exec.h).
 *
 * acl__model_run_submit checks the datasets against the model at the call
 * (every failure is recorded for the API with the tensor, the expected and
 * the actual bytes, shape or type), then queues one task on a stream.  The
 * task, on an executor thread with device-memory access, reads the input
 * buffers in place, runs the graph and copies the results into the output
 * buffers; an output whose actual shape differs from the declared one (a
 * dynamic or undeclared shape) gets a tensor descriptor with the actual shape
 * on the output dataset (aclmdlGetDatasetTensorDesc).
 */
#ifndef OPENACL_MODEL_RUN_H
#define OPENACL_MODEL_RUN_H

#include "acl/acl.h"
#include "model/model.h"
#include "rt/rt.h"

/* What a waiting caller learns of its execution; written by the task. */
typedef struct acl__model_run_result {
  int ran;        /* the task ran (0: it was discarded) */
  int rc;         /* its aclError */
  char msg[768];  /* why, when rc != 0 */
} acl__model_run_result;

/* Checks input and output against model m and queues one execution on s.
 * The task takes its own reference to m.  result (may be NULL) is written
 * when the task runs and must stay valid until the stream has passed it.
 * 0, or the code of the recorded failure (nothing queued). */
int acl__model_run_submit(const char *api, acl__model *m, const aclmdlDataset *input, aclmdlDataset *output,
                          acl__stream *s, acl__model_run_result *result);

/* Builds the engine and the plan of a model whose input shapes are all
 * known (no gears, no dynamic dimensions), on the engine's thread, so the
 * first execution runs as fast as the others: the vendor's models come
 * compiled, and programs expect aclmdlLoad* to have done the preparing.
 * Best effort, nothing recorded: a failure is the first execution's to
 * report.  Not under a dump configuration (its reference runs keep the
 * weights) or OPENACL_MODEL_ENGINE=reference. */
void acl__model_prepare(acl__model *m);

#endif
