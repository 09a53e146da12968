/*
 * exec.h - the reference executor: runs an acl__graph (graph.h) on host
 * memory with plain-C kernels (src/model/ops/), one node at a time, in the
 * graph's topological order.
 *
 * It is the correctness baseline every faster backend is compared with, so
 * it favours clarity: shapes are inferred per node from the actual input
 * shapes, every node output gets its own heap buffer, and all arithmetic of
 * the generic kernels goes through double.  Nothing here is public API; the
 * aclmdl layer calls it.
 *
 * Errors return an ACL code and append one entry to `diags` whose path names
 * the node (e.g. `graph.node[3] ("conv1", Conv)`):
 *
 *   ACL_ERROR_PARSE_MODEL        an operator (type, opset) has no kernel
 *   ACL_ERROR_INVALID_PARAM      input count, dtype or shape does not fit the graph or the op
 *   ACL_ERROR_OP_TYPE_NOT_MATCH  the op has a kernel, but not for this data type or attribute value
 *   ACL_ERROR_BAD_ALLOC          out of memory
 */
#ifndef OPENACL_MODEL_EXEC_H
#define OPENACL_MODEL_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "model/graph.h"

/* Highest tensor rank the kernels handle. */
#define ACL__EXEC_MAX_RANK 16

/* A dense, row-major tensor in host memory. */
typedef struct acl__tensor {
  int onnx_type;                     /* ACL__ONNX_* */
  int rank;
  int64_t dims[ACL__EXEC_MAX_RANK];
  void *data;                        /* numel x element size bytes (at least 1 byte allocated) */
  size_t size;                       /* bytes */
  int owned;                         /* data is freed by acl__tensor_release */
  /* Sequence values (ONNX seq(tensor)).  A sequence has data == NULL and
   * holds its tensors in items[0..n_items) (items is never NULL, so an empty
   * sequence is still a present value); onnx_type is the element type, or 0
   * while unknown; `owned` covers the items and their contents. */
  int is_sequence;
  struct acl__tensor *items;
  size_t n_items;
} acl__tensor;

/* String tensors (onnx_type ACL__ONNX_STRING) keep `data` as an array of
 * numel `char *`, each a NUL-terminated heap string (NULL reads as "");
 * size is numel x sizeof(char *).  `owned` covers the array and the strings.
 * acl__tensor_alloc refuses strings so byte-copying kernels cannot share
 * the pointers by mistake; string kernels use acl__tensor_alloc_strings. */

/* Allocates zeroed storage for a tensor of the given type and shape, owned
 * by `t` (whose previous contents are not freed).  0, or -1 when the shape is
 * invalid, the type has no fixed size or memory ran out. */
int acl__tensor_alloc(acl__tensor *t, int onnx_type, int rank, const int64_t *dims);
/* Frees owned data and clears the tensor. */
void acl__tensor_release(acl__tensor *t);
int64_t acl__tensor_numel(const acl__tensor *t);
/* A string tensor of the given shape, every element NULL (""); 0 or -1. */
int acl__tensor_alloc_strings(acl__tensor *t, int rank, const int64_t *dims);
/* An owned, empty sequence of element type `elem_type` (0: not known yet). */
int acl__tensor_alloc_sequence(acl__tensor *t, int elem_type);
/* Appends a deep copy of `item` to sequence `seq` at position pos (0..n_items);
 * 0, or -1 when memory ran out. */
int acl__tensor_seq_insert(acl__tensor *seq, size_t pos, const acl__tensor *item);
/* Deep copy of any value (tensor, string tensor or sequence) into a new owned dst. */
int acl__tensor_copy(acl__tensor *dst, const acl__tensor *src);
/* Whether a value is bound (plain and string tensors have data, sequences items). */
int acl__tensor_present(const acl__tensor *t);
/* Element i of a string tensor ("" for NULL). */
const char *acl__tensor_str(const acl__tensor *t, int64_t i);

/* The reference kernel of node n of g for the opset its domain imports, or
 * NULL.  The optimised engine runs the same kernels. */
struct acl__op_ctx;
typedef int (*acl__exec_kernel_fn)(struct acl__op_ctx *ctx);
acl__exec_kernel_fn acl__exec_kernel(const acl__graph *g, const acl__graph_node *n);

/* Checks that every node of `g` has a kernel for its (domain, op type,
 * opset).  On failure appends ONE diag listing every unsupported op type
 * with its opset, e.g. "unsupported operators: Loop (opset 13), If (opset 13)",
 * and returns ACL_ERROR_PARSE_MODEL. */
int acl__exec_check_supported(const acl__graph *g, acl__diags *diags);

/* Runs `g`.  `inputs` holds one tensor per graph input, in g->inputs order
 * (not owned: read only).  On success fills outputs[0..g->n_outputs) with
 * new owned tensors (release each with acl__tensor_release) and returns 0;
 * on failure the outputs are cleared. */
int acl__exec_run(const acl__graph *g, const acl__tensor *inputs, size_t n_inputs,
                  acl__tensor *outputs, size_t n_outputs, acl__diags *diags);

/* A per-node hook (dump, src/dump/): called after each node ran, on the
 * executing thread.  On success the node's outputs are already bound in
 * `vals`; on failure (rc != 0) `outs` holds whatever the kernel produced
 * and the run stops after the call. */
typedef struct acl__exec_node_event {
  const acl__graph *g;
  size_t node;                    /* index in g->nodes */
  const acl__tensor *const *ins;  /* n_ins entries; NULL for an absent optional input */
  size_t n_ins;
  const acl__tensor *const *outs; /* n_outs entries; NULL when not produced */
  size_t n_outs;
  int rc;                         /* the kernel's result */
  const acl__tensor *vals;        /* every graph tensor's value so far, indexed like g->tensors */
  acl__diags *diags;              /* the run's diagnostics (the failure's message) */
} acl__exec_node_event;

typedef struct acl__exec_hook {
  void (*after_node)(void *user, const acl__exec_node_event *ev);
  void *user;
} acl__exec_hook;

/* acl__exec_run with a node hook (NULL: none). */
int acl__exec_run_hooked(const acl__graph *g, const acl__tensor *inputs, size_t n_inputs, acl__tensor *outputs,
                         size_t n_outputs, const acl__exec_hook *hook, acl__diags *diags);

#endif
