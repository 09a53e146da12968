/*
 * ops.h - what the reference kernels share: the call context, the registry
 * and helpers for attributes, element access and broadcasting.
 *
 * A kernel reads ctx->in[] (NULL for an omitted optional input), infers each
 * output's type and shape from them, allocates it with acl__tensor_alloc and
 * fills it.  It reports problems with acl__op_fail, which names the node.
 * Generic kernels read and write elements through acl__op_get/acl__op_set
 * (double), which covers every fixed-size numeric type including float16,
 * bfloat16 and bool; int64 values beyond 2^53 lose precision there, so the
 * index and shape kernels copy bytes instead.
 */
#ifndef OPENACL_MODEL_OPS_OPS_H
#define OPENACL_MODEL_OPS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "model/exec.h"
#include "model/graph.h"

typedef struct acl__op_ctx {
  const acl__graph *g;
  const acl__graph_node *node;
  int node_index;
  int64_t opset;                  /* the ai.onnx opset the model imports */
  const acl__tensor *const *in;   /* n_in entries, NULL where omitted */
  size_t n_in;
  acl__tensor *out;               /* n_out entries, cleared; fill every one */
  size_t n_out;
  acl__diags *diags;
} acl__op_ctx;

typedef int (*acl__op_fn)(acl__op_ctx *ctx);

/* The kernel for op_type at `opset` (ai.onnx domain), or NULL. */
acl__op_fn acl__op_lookup(const char *op_type, int64_t opset);
/* The kernel for op_type in `domain` ("" or "ai.onnx" for the default,
 * "ai.onnx.preview.training"); `opset` is the version of that domain the
 * model imports. */
acl__op_fn acl__op_lookup_domain(const char *domain, const char *op_type, int64_t opset);

/* Appends a diag naming the node and returns `code`. */
int acl__op_fail(acl__op_ctx *ctx, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Allocates out[k]; on failure reports ACL_ERROR_BAD_ALLOC / INVALID_PARAM. */
int acl__op_alloc(acl__op_ctx *ctx, size_t k, int onnx_type, int rank, const int64_t *dims);
/* Requires at least `min` inputs present at 0..min-1. */
int acl__op_need(acl__op_ctx *ctx, size_t min);

/* Attributes */
const acl__graph_attr *acl__op_attr(const acl__op_ctx *ctx, const char *name);
int64_t acl__op_attr_int(const acl__op_ctx *ctx, const char *name, int64_t dflt);
float acl__op_attr_float(const acl__op_ctx *ctx, const char *name, float dflt);
const char *acl__op_attr_str(const acl__op_ctx *ctx, const char *name, const char *dflt);
/* INTS attribute: count, or -1 when absent. */
int64_t acl__op_attr_ints(const acl__op_ctx *ctx, const char *name, const int64_t **vals);

/* Element access */
int acl__op_numeric(int onnx_type);   /* get/set support the type */
int acl__op_is_float(int onnx_type);
double acl__op_get(const acl__tensor *t, int64_t i);
void acl__op_set(acl__tensor *t, int64_t i, double v);
/* Integer read of an int32/int64 (or any numeric) element, exact for int64. */
int64_t acl__op_get_i64(const acl__tensor *t, int64_t i);
size_t acl__op_esize(int onnx_type);

/* Shapes */
int64_t acl__op_numel(int rank, const int64_t *dims);
/* Row-major strides of a shape. */
void acl__op_strides(int rank, const int64_t *dims, int64_t *st);
/* Reads a 1-D int tensor into v[0..max); its count, or -1 when longer than max. */
int64_t acl__op_ints_in(const acl__tensor *t, int64_t *v, int64_t max);
/* numpy broadcast of two shapes into out (rank = max); -1 if incompatible. */
int acl__op_broadcast_shape(int ra, const int64_t *da, int rb, const int64_t *db, int *ro, int64_t *dout);
/* Strides of `t` seen from an output of rank ro (0 where broadcast). */
void acl__op_bcast_strides(const acl__tensor *t, int ro, const int64_t *dout, int64_t *strides);
/* Normalises a possibly negative axis into [0, rank); -1 if out of range. */
int acl__op_axis(int64_t axis, int rank);

/* Convolution and pooling geometry from the node's attributes (strides,
 * dilations, pads, auto_pad) for input x and kernel sizes ks (rank-2 of
 * them).  Spatial dims are right-aligned into 3 (leading ones are size 1).
 * The optimised engine uses it too, so both agree on every output shape. */
typedef struct acl__op_geom {
  int ns;               /* spatial dims in the model */
  int64_t in[3], k[3], s[3], d[3], pb[3], pe[3], out[3];
} acl__op_geom;
int acl__op_conv_geometry(acl__op_ctx *ctx, const acl__tensor *x, const int64_t *ks, int ceil_mode,
                          acl__op_geom *g);

/* Kernels, by family (see the registry in registry.c). */
int acl__k_unary(acl__op_ctx *ctx);
int acl__k_binary(acl__op_ctx *ctx);
int acl__k_variadic(acl__op_ctx *ctx);
int acl__k_where(acl__op_ctx *ctx);
int acl__k_clip(acl__op_ctx *ctx);
int acl__k_prelu(acl__op_ctx *ctx);
int acl__k_cast(acl__op_ctx *ctx);
int acl__k_matmul(acl__op_ctx *ctx);
int acl__k_gemm(acl__op_ctx *ctx);
int acl__k_conv(acl__op_ctx *ctx);
int acl__k_pool(acl__op_ctx *ctx);
int acl__k_global_pool(acl__op_ctx *ctx);
int acl__k_batchnorm(acl__op_ctx *ctx);
int acl__k_instancenorm(acl__op_ctx *ctx);
int acl__k_layernorm(acl__op_ctx *ctx);
int acl__k_softmax(acl__op_ctx *ctx);
int acl__k_reduce(acl__op_ctx *ctx);
int acl__k_argminmax(acl__op_ctx *ctx);
int acl__k_reshape(acl__op_ctx *ctx);
int acl__k_flatten(acl__op_ctx *ctx);
int acl__k_transpose(acl__op_ctx *ctx);
int acl__k_concat(acl__op_ctx *ctx);
int acl__k_squeeze(acl__op_ctx *ctx);
int acl__k_unsqueeze(acl__op_ctx *ctx);
int acl__k_gather(acl__op_ctx *ctx);
int acl__k_identity(acl__op_ctx *ctx);
int acl__k_dropout(acl__op_ctx *ctx);
int acl__k_shape(acl__op_ctx *ctx);
int acl__k_constant(acl__op_ctx *ctx);
int acl__k_split(acl__op_ctx *ctx);
int acl__k_slice(acl__op_ctx *ctx);
int acl__k_expand(acl__op_ctx *ctx);
int acl__k_tile(acl__op_ctx *ctx);
int acl__k_pad(acl__op_ctx *ctx);
int acl__k_constant_of_shape(acl__op_ctx *ctx);
int acl__k_range(acl__op_ctx *ctx);
int acl__k_size(acl__op_ctx *ctx);
int acl__k_nllloss(acl__op_ctx *ctx);
int acl__k_sce(acl__op_ctx *ctx);
int acl__k_gather_elements(acl__op_ctx *ctx);
int acl__k_scatter_elements(acl__op_ctx *ctx);
int acl__k_trilu(acl__op_ctx *ctx);
int acl__k_eyelike(acl__op_ctx *ctx);
int acl__k_cumsum(acl__op_ctx *ctx);
int acl__k_shrink(acl__op_ctx *ctx);
int acl__k_castlike(acl__op_ctx *ctx);
int acl__k_depth_to_space(acl__op_ctx *ctx);
int acl__k_space_to_depth(acl__op_ctx *ctx);
int acl__k_onehot(acl__op_ctx *ctx);
int acl__k_compress(acl__op_ctx *ctx);
int acl__k_resize(acl__op_ctx *ctx);
int acl__k_convtranspose(acl__op_ctx *ctx);
int acl__k_gather_nd(acl__op_ctx *ctx);
int acl__k_scatter_nd(acl__op_ctx *ctx);
int acl__k_topk(acl__op_ctx *ctx);
int acl__k_nonzero(acl__op_ctx *ctx);
int acl__k_reverse_sequence(acl__op_ctx *ctx);
/* sequence.c */
int acl__k_sequence_empty(acl__op_ctx *ctx);
int acl__k_sequence_construct(acl__op_ctx *ctx);
int acl__k_sequence_insert(acl__op_ctx *ctx);
int acl__k_sequence_erase(acl__op_ctx *ctx);
int acl__k_sequence_at(acl__op_ctx *ctx);
int acl__k_sequence_length(acl__op_ctx *ctx);
int acl__k_concat_from_sequence(acl__op_ctx *ctx);
int acl__k_split_to_sequence(acl__op_ctx *ctx);
/* strings.c */
int acl__k_string_normalizer(acl__op_ctx *ctx);
/* Cast where `x` or `to` is a string (called by the Cast kernels). */
int acl__op_cast_strings(acl__op_ctx *ctx, const acl__tensor *x, int to);
/* training.c (Gradient is in domain ai.onnx.preview.training) */
int acl__k_gradient(acl__op_ctx *ctx);
/* BatchNormalization with training_mode=1 (called by acl__k_batchnorm). */
int acl__op_batchnorm_training(acl__op_ctx *ctx);
int acl__k_optimizer(acl__op_ctx *ctx);
/* quant.c */
int acl__k_quantize_linear(acl__op_ctx *ctx);
int acl__k_dequantize_linear(acl__op_ctx *ctx);
int acl__k_dynamic_quantize_linear(acl__op_ctx *ctx);
/* windows.c, linalg.c, norm.c */
int acl__k_window(acl__op_ctx *ctx);
int acl__k_det(acl__op_ctx *ctx);
int acl__k_lrn(acl__op_ctx *ctx);
int acl__k_mvn(acl__op_ctx *ctx);
/* unique.c */
int acl__k_unique(acl__op_ctx *ctx);
/* einsum.c */
int acl__k_einsum(acl__op_ctx *ctx);
/* nms.c */
int acl__k_nms(acl__op_ctx *ctx);

#endif
