/*
 * onnx_loader.h - reads an ONNX model (a file, or bytes in memory) into an
 * acl__graph (graph.h), checking everything later stages rely on.
 *
 * The file is decoded with protobuf-c (code generated from Debian's
 * onnx.proto at build time) under a memory budget, after a pass over the
 * wire format that bounds message nesting, so a hostile file can neither
 * exhaust memory nor the stack.  Then the model is validated and converted:
 * IR version and opsets in range, every node input defined earlier (ONNX
 * files are in topological order), unique names, known data types,
 * non-negative dims, initializer sizes matching shape x type, external
 * data inside the model's directory and inside its file.
 *
 * Errors return an ACL code and append one entry to `diags` whose path names
 * the place (e.g. `graph.node[3] ("conv1", Conv).input[1]`) and whose message
 * says what is wrong.  The loader does not record aclGetRecentErrMsg; its
 * caller (the aclmdl layer) does.
 *
 *   ACL_ERROR_READ_MODEL_FAILURE  file (or external data file) missing, unreadable, not a regular file,
 *                                 shorter than the data it should hold
 *   ACL_ERROR_MODEL_SIZE_INVALID  model empty or larger than the limit
 *   ACL_ERROR_PARSE_MODEL         not protobuf, invalid or unsupported structure
 */
#ifndef OPENACL_MODEL_ONNX_LOADER_H
#define OPENACL_MODEL_ONNX_LOADER_H

#include <stddef.h>

#include "common/diag.h"
#include "model/graph.h"

/* What the loader accepts. */
#define ACL__ONNX_IR_MIN 3
#define ACL__ONNX_IR_MAX 8
/* The issue asks for opsets 7..17; older ones are read too, because the
 * pytorch-converted and pytorch-operator conformance models use opsets 1..6. */
#define ACL__ONNX_OPSET_MIN 1
#define ACL__ONNX_OPSET_MAX 17
/* Deepest message nesting accepted (model > graph > node > attribute > ...). */
#define ACL__ONNX_MAX_DEPTH 64
#define ACL__ONNX_MAX_RANK 64

typedef struct acl__onnx_limits {
  size_t max_model_size;     /* bytes of the .onnx itself; 0 = 2 GiB - 1 (protobuf's limit) */
  size_t max_decode_memory;  /* bytes protobuf-c may allocate; 0 = 256 MiB + 64 x model size */
  size_t max_external_bytes; /* all external data together; 0 = 64 GiB */
} acl__onnx_limits;

/* Reads `path`; external data files are looked up next to it.  `limits` may
 * be NULL for the defaults.  On success *out owns a new graph (free it with
 * acl__graph_free) and 0 is returned; otherwise *out is NULL. */
int acl__onnx_load_file(const char *path, const acl__onnx_limits *limits,
                        acl__graph **out, acl__diags *diags);
/* Reads a model in memory.  `base_dir` is where external data files are;
 * NULL means the model may not use external data. */
int acl__onnx_load_mem(const void *data, size_t size, const char *base_dir,
                       const acl__onnx_limits *limits, acl__graph **out,
                       acl__diags *diags);

#endif
