/*
 * onnx_writer.h - small ONNX models for the model tests, written with the
 * protobuf-c structs generated from onnx.proto: one node over float inputs.
 */
#ifndef OPENACL_TEST_ONNX_WRITER_H
#define OPENACL_TEST_ONNX_WRITER_H

#include <stddef.h>
#include <stdint.h>

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

#endif
