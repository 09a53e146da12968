/*
 * sample_model.h - the small model the adump samples run where the vendor's
 * samples call aclnnAdd (openacl has no aclnn operators yet, issue 14):
 * chain.onnx, Y = (X + [1,2,3])^2 over a float [2,3] tensor, two nodes
 * ("add.1" Add, "mul1" Mul), written by sample_model_writer into the
 * sample's working directory.  Public API only.
 */
#ifndef OPENACL_SAMPLE_MODEL_H
#define OPENACL_SAMPLE_MODEL_H

#include <stdint.h>

#include "acl/acl.h"

/* Loads path, runs it once on x[6] (y[6] gets the output), unloads it.
 * *modelId gets the id it had.  0 or the failing aclError (printed). */
int sample_run_chain(const char *path, const float *x, float *y, uint32_t *modelId);

#endif
