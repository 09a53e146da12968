/*
 * graph.h - the internal graph a model file is read into (see onnx_loader.h).
 *
 * A graph is a flat table of tensors and a list of nodes in execution
 * (topological) order.  Nodes refer to tensors by index into the table, so
 * later stages (shape inference, rewrites, planning) never look names up.
 * Every tensor has exactly one producer: a graph input, an initializer
 * (constant weight) or the output of one node.
 *
 * Ownership: the graph owns everything it points to (names, dims, attribute
 * values, initializer data); acl__graph_free releases it all.  Nothing in it
 * points into the original file or protobuf message.
 */
#ifndef OPENACL_MODEL_GRAPH_H
#define OPENACL_MODEL_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

/* ONNX TensorProto.DataType values (the file's numbering, kept as read). */
enum {
  ACL__ONNX_UNDEFINED = 0, ACL__ONNX_FLOAT = 1, ACL__ONNX_UINT8 = 2, ACL__ONNX_INT8 = 3,
  ACL__ONNX_UINT16 = 4, ACL__ONNX_INT16 = 5, ACL__ONNX_INT32 = 6, ACL__ONNX_INT64 = 7,
  ACL__ONNX_STRING = 8, ACL__ONNX_BOOL = 9, ACL__ONNX_FLOAT16 = 10, ACL__ONNX_DOUBLE = 11,
  ACL__ONNX_UINT32 = 12, ACL__ONNX_UINT64 = 13, ACL__ONNX_COMPLEX64 = 14,
  ACL__ONNX_COMPLEX128 = 15, ACL__ONNX_BFLOAT16 = 16
};

/* One dimension: a size >= 0, or -1 when unknown; symbolic dims (ONNX
 * dim_param, e.g. "batch") are -1 with the symbol kept. */
typedef struct acl__graph_dim {
  int64_t value;
  char *symbol; /* NULL unless the file named the dimension */
} acl__graph_dim;

typedef enum acl__graph_tensor_kind {
  ACL__TENSOR_INPUT = 0,       /* a graph input the caller feeds */
  ACL__TENSOR_INITIALIZER = 1, /* a constant stored in the model (weights) */
  ACL__TENSOR_NODE_OUTPUT = 2  /* produced by node `producer` */
} acl__graph_tensor_kind;

typedef struct acl__graph_tensor {
  char *name;
  acl__graph_tensor_kind kind;
  int producer;          /* node index for NODE_OUTPUT, else -1 */
  int onnx_type;         /* ACL__ONNX_*, 0 when not known (intermediates) */
  aclDataType dtype;     /* ACL_DT_UNDEFINED when not known */
  int rank;              /* -1 when the shape is not known */
  acl__graph_dim *dims;  /* rank entries */
  /* Initializers (and tensor attributes): the elements, little-endian,
   * densely packed, data_size == element count * element size. */
  void *data;
  size_t data_size;
  int external;          /* the data came from an external data file */
  int is_graph_output;
  /* Appended: a value of type seq(tensor) (graph inputs and outputs,
   * value_info); onnx_type is then the element type and rank is -1.
   * String initializers (onnx_type ACL__ONNX_STRING) keep `data` as an array
   * of data_size / sizeof(char *) NUL-terminated heap strings. */
  int is_sequence;
} acl__graph_tensor;

typedef enum acl__graph_attr_type {
  ACL__ATTR_FLOAT = 1,
  ACL__ATTR_INT = 2,
  ACL__ATTR_STRING = 3,
  ACL__ATTR_TENSOR = 4,
  ACL__ATTR_FLOATS = 6,
  ACL__ATTR_INTS = 7,
  ACL__ATTR_STRINGS = 8
} acl__graph_attr_type;

typedef struct acl__graph_attr {
  char *name;
  acl__graph_attr_type type;
  float f;
  int64_t i;
  char *s;                   /* STRING: NUL-terminated copy; s_len excludes the NUL */
  size_t s_len;
  size_t count;              /* FLOATS / INTS / STRINGS */
  float *floats;
  int64_t *ints;
  char **strings;
  acl__graph_tensor *tensor; /* TENSOR: kind INITIALIZER, not in the tensor table */
} acl__graph_attr;

typedef struct acl__graph_node {
  char *name;     /* "" when the file gave none */
  char *op_type;
  char *domain;   /* "" for the default ai.onnx domain */
  int *inputs;    /* tensor indices; -1 for an omitted optional input ("") */
  size_t n_inputs;
  int *outputs;   /* tensor indices; -1 for an omitted optional output */
  size_t n_outputs;
  acl__graph_attr *attrs;
  size_t n_attrs;
} acl__graph_node;

typedef struct acl__graph_opset {
  char *domain;   /* "" for ai.onnx */
  int64_t version;
} acl__graph_opset;

/* A simple string -> index map (open addressing). */
typedef struct acl__graph_names {
  int *slots;     /* tensor index, or -1 for empty */
  size_t cap;     /* a power of two */
} acl__graph_names;

typedef struct acl__graph {
  int64_t ir_version;
  char *producer_name;
  char *graph_name;
  acl__graph_opset *opsets;
  size_t n_opsets;
  acl__graph_tensor *tensors;
  size_t n_tensors;
  int *inputs;    /* graph inputs fed by the caller, in file order (no initializers) */
  size_t n_inputs;
  int *outputs;   /* graph outputs, in file order */
  size_t n_outputs;
  acl__graph_node *nodes;
  size_t n_nodes;
  acl__graph_names names;
} acl__graph;

void acl__graph_free(acl__graph *g);
/* The index of the tensor called `name`, or -1. */
int acl__graph_find(const acl__graph *g, const char *name);
/* The version of `domain` ("" or "ai.onnx" for the default) imported by the
 * model, or -1. */
int64_t acl__graph_opset_version(const acl__graph *g, const char *domain);
/* ONNX data type -> aclDataType (ACL_DT_UNDEFINED when there is none) and
 * the element size in bytes (0 for strings and unknown types). */
aclDataType acl__graph_onnx_to_acl(int onnx_type);
size_t acl__graph_onnx_elem_size(int onnx_type);
const char *acl__graph_onnx_type_name(int onnx_type);
/* Element count of a fully known shape; -1 when a dim is unknown or the
 * count overflows int64. */
int64_t acl__graph_numel(const acl__graph_tensor *t);
void acl__graph_tensor_clear(acl__graph_tensor *t);
/* For the loader: sizes the name table for at most `max_tensors` tensors
 * (0 or -1 on allocation failure), then adds tensor `idx` under its name
 * (the caller checks with acl__graph_find that the name is new). */
int acl__graph_names_init(acl__graph *g, size_t max_tensors);
void acl__graph_names_put(acl__graph *g, int idx);

#endif
