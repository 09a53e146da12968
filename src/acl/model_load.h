/*
 * model_load.h - the body every model load shares (model_api.c), for the
 * loads that take their arguments another way (aclmdlLoadWithConfig,
 * model_config_api.c).
 */
#ifndef OPENACL_ACL_MODEL_LOAD_H
#define OPENACL_ACL_MODEL_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Loads the ONNX model in file `path` (or the `size` bytes at `data` when
 * path is NULL) into the current context, with the caller's memory `mem`
 * (NULL: openacl's) and precision (an ACL__PREC_* value).  The caller has
 * checked aclInit and that the model argument is not NULL.  0 and *modelId,
 * or the recorded failure of api. */
int acl__mdl_load(const char *api, const char *path, const void *data, size_t size, acl__model_mem *mem,
                  int precision, uint32_t *modelId);

#endif
