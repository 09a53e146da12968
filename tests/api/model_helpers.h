/*
 * model_helpers.h - what the model tests share: small ONNX models written
 * with the protobuf-c structs generated from onnx.proto (one node over float
 * inputs), and float device buffers for datasets.
 */
#ifndef OPENACL_TEST_MODEL_HELPERS_H
#define OPENACL_TEST_MODEL_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* A float graph input or output. */
typedef struct tw_value {
  const char *name;
  int rank;           /* -1: no shape declared */
  int64_t dims[4];    /* -1: symbolic */
  const char *sym[4]; /* the symbol of a -1 dim; NULL: "N" */
} tw_value;

/* A model (opset 13) with one node `op` reading `in` (at most 4) and, when
 * `bias` is not NULL, the float [4] initializer "B" as its last input,
 * writing `out`.  The packed bytes, malloc'd; the test fails on error. */
uint8_t *tw_one_node(const char *op, const tw_value *in, size_t n_in, const tw_value *out, const float *bias,
                     const char *producer, size_t *size);

/* A device buffer with its aclDataBuffer. */
typedef struct tw_io {
  void *dev;
  size_t size;
  aclDataBuffer *buf;
} tw_io;

void tw_io_alloc(tw_io *b, size_t size);
void tw_io_free(tw_io *b);
/* Element i of the test data of input k: small integers, exact in float. */
float tw_in_value(int k, size_t i);
/* Copies n elements of input k's test data to b's device memory. */
void tw_io_fill(tw_io *b, int k, size_t n);

#endif
