/*
 * registry.c - the table of reference kernels: op type, the first opset it
 * covers, the kernel.  Where an op's semantics changed between opsets the
 * kernel reads ctx->opset itself (e.g. Softmax's axis in opset 13, Slice's
 * attributes becoming inputs in opset 10); a separate row is used only when
 * a whole op is absent before some opset.
 */
#include <string.h>

#include "model/ops/ops.h"

static const struct {
  const char *op;
  int since;
  acl__op_fn fn;
} kernels[] = {
  /* elementwise.c */
  {"Relu", 1, acl__k_unary}, {"Sigmoid", 1, acl__k_unary}, {"Tanh", 1, acl__k_unary},
  {"Exp", 1, acl__k_unary}, {"Log", 1, acl__k_unary}, {"Sqrt", 1, acl__k_unary},
  {"Abs", 1, acl__k_unary}, {"Neg", 1, acl__k_unary}, {"Reciprocal", 1, acl__k_unary},
  {"Floor", 1, acl__k_unary}, {"Ceil", 1, acl__k_unary}, {"Erf", 9, acl__k_unary},
  {"LeakyRelu", 1, acl__k_unary}, {"Elu", 1, acl__k_unary}, {"Selu", 1, acl__k_unary},
  {"HardSigmoid", 1, acl__k_unary}, {"Softplus", 1, acl__k_unary}, {"Softsign", 1, acl__k_unary},
  {"Sin", 7, acl__k_unary}, {"Cos", 7, acl__k_unary}, {"Tan", 7, acl__k_unary},
  {"Asin", 7, acl__k_unary}, {"Acos", 7, acl__k_unary}, {"Atan", 7, acl__k_unary},
  {"Sinh", 9, acl__k_unary}, {"Cosh", 9, acl__k_unary}, {"Asinh", 9, acl__k_unary},
  {"Acosh", 9, acl__k_unary}, {"Atanh", 9, acl__k_unary}, {"Sign", 9, acl__k_unary},
  {"Round", 11, acl__k_unary}, {"Not", 1, acl__k_unary}, {"IsNaN", 9, acl__k_unary},
  {"IsInf", 10, acl__k_unary}, {"ThresholdedRelu", 10, acl__k_unary}, {"HardSwish", 14, acl__k_unary},
  {"Celu", 12, acl__k_unary}, {"Mish", 18, acl__k_unary},
  {"Add", 1, acl__k_binary}, {"Sub", 1, acl__k_binary}, {"Mul", 1, acl__k_binary},
  {"Div", 1, acl__k_binary}, {"Pow", 1, acl__k_binary}, {"Equal", 1, acl__k_binary},
  {"Less", 1, acl__k_binary}, {"Greater", 1, acl__k_binary}, {"LessOrEqual", 12, acl__k_binary},
  {"GreaterOrEqual", 12, acl__k_binary}, {"And", 1, acl__k_binary}, {"Or", 1, acl__k_binary},
  {"Xor", 1, acl__k_binary}, {"Mod", 10, acl__k_binary}, {"BitShift", 11, acl__k_binary},
  {"Max", 1, acl__k_variadic}, {"Min", 1, acl__k_variadic}, {"Sum", 1, acl__k_variadic},
  {"Mean", 1, acl__k_variadic},
  {"Where", 9, acl__k_where}, {"Clip", 1, acl__k_clip}, {"PRelu", 1, acl__k_prelu},
  {"Cast", 1, acl__k_cast},
  /* linalg.c */
  {"MatMul", 1, acl__k_matmul}, {"Gemm", 1, acl__k_gemm},
  /* conv.c */
  {"Conv", 1, acl__k_conv}, {"MaxPool", 1, acl__k_pool}, {"AveragePool", 1, acl__k_pool},
  {"GlobalAveragePool", 1, acl__k_global_pool}, {"GlobalMaxPool", 1, acl__k_global_pool},
  /* norm.c */
  {"BatchNormalization", 1, acl__k_batchnorm}, {"InstanceNormalization", 1, acl__k_instancenorm},
  {"LayerNormalization", 17, acl__k_layernorm},
  {"Softmax", 1, acl__k_softmax}, {"LogSoftmax", 1, acl__k_softmax}, {"Hardmax", 1, acl__k_softmax},
  /* reduce.c */
  {"ReduceMean", 1, acl__k_reduce}, {"ReduceSum", 1, acl__k_reduce}, {"ReduceMax", 1, acl__k_reduce},
  {"ReduceMin", 1, acl__k_reduce}, {"ReduceProd", 1, acl__k_reduce}, {"ReduceL1", 1, acl__k_reduce},
  {"ReduceL2", 1, acl__k_reduce}, {"ReduceLogSum", 1, acl__k_reduce},
  {"ReduceLogSumExp", 1, acl__k_reduce}, {"ReduceSumSquare", 1, acl__k_reduce},
  {"ArgMax", 1, acl__k_argminmax}, {"ArgMin", 1, acl__k_argminmax},
  /* shape.c */
  {"Reshape", 1, acl__k_reshape}, {"Flatten", 1, acl__k_flatten}, {"Transpose", 1, acl__k_transpose},
  {"Concat", 1, acl__k_concat}, {"Squeeze", 1, acl__k_squeeze}, {"Unsqueeze", 1, acl__k_unsqueeze}, {"Gather", 1, acl__k_gather},
  {"Identity", 1, acl__k_identity}, {"Dropout", 1, acl__k_dropout}, {"Shape", 1, acl__k_shape},
  {"Constant", 1, acl__k_constant},
  /* slice_pad.c */
  {"Split", 1, acl__k_split}, {"Slice", 1, acl__k_slice}, {"Expand", 8, acl__k_expand},
  {"Tile", 1, acl__k_tile}, {"Pad", 1, acl__k_pad},
  /* generate.c */
  {"ConstantOfShape", 9, acl__k_constant_of_shape}, {"Range", 11, acl__k_range}, {"Size", 1, acl__k_size},
  /* loss.c */
  {"NegativeLogLikelihoodLoss", 12, acl__k_nllloss}, {"SoftmaxCrossEntropyLoss", 12, acl__k_sce},
  /* index.c */
  {"GatherElements", 11, acl__k_gather_elements}, {"ScatterElements", 11, acl__k_scatter_elements},
  {"Scatter", 9, acl__k_scatter_elements}, {"Trilu", 14, acl__k_trilu}, {"EyeLike", 9, acl__k_eyelike},
  {"CumSum", 11, acl__k_cumsum}, {"Shrink", 9, acl__k_shrink}, {"CastLike", 15, acl__k_castlike},
  {"DepthToSpace", 1, acl__k_depth_to_space}, {"SpaceToDepth", 1, acl__k_space_to_depth},
  {"OneHot", 9, acl__k_onehot}, {"Compress", 9, acl__k_compress},
  /* resize.c */
  {"Resize", 10, acl__k_resize}, {"Upsample", 7, acl__k_resize},
  /* convtranspose.c */
  {"ConvTranspose", 1, acl__k_convtranspose},
  /* select.c */
  {"GatherND", 11, acl__k_gather_nd}, {"ScatterND", 11, acl__k_scatter_nd}, {"TopK", 1, acl__k_topk},
  {"NonZero", 9, acl__k_nonzero}, {"ReverseSequence", 10, acl__k_reverse_sequence},
  /* sequence.c */
  {"SequenceEmpty", 11, acl__k_sequence_empty}, {"SequenceConstruct", 11, acl__k_sequence_construct},
  {"SequenceInsert", 11, acl__k_sequence_insert}, {"SequenceErase", 11, acl__k_sequence_erase},
  {"SequenceAt", 11, acl__k_sequence_at}, {"SequenceLength", 11, acl__k_sequence_length},
  {"ConcatFromSequence", 11, acl__k_concat_from_sequence}, {"SplitToSequence", 11, acl__k_split_to_sequence},
  /* strings.c */
  {"StringNormalizer", 10, acl__k_string_normalizer},
  /* quant.c */
  {"QuantizeLinear", 10, acl__k_quantize_linear}, {"DequantizeLinear", 10, acl__k_dequantize_linear},
  {"DynamicQuantizeLinear", 11, acl__k_dynamic_quantize_linear},
  /* windows.c, linalg.c, norm.c */
  {"HannWindow", 17, acl__k_window}, {"HammingWindow", 17, acl__k_window}, {"BlackmanWindow", 17, acl__k_window},
  {"Det", 11, acl__k_det}, {"LRN", 1, acl__k_lrn}, {"MeanVarianceNormalization", 9, acl__k_mvn},
  /* unique.c */
  {"Unique", 11, acl__k_unique},
  /* einsum.c */
  {"Einsum", 12, acl__k_einsum},
  /* nms.c */
  {"NonMaxSuppression", 10, acl__k_nms},
  };

/* Kernels of the ai.onnx.preview.training domain (its own opset numbering). */
static const struct {
  const char *op;
  int since;
  acl__op_fn fn;
} training_kernels[] = {
  {"Gradient", 1, acl__k_gradient}, {"Adagrad", 1, acl__k_optimizer}, {"Momentum", 1, acl__k_optimizer},
  {"Adam", 1, acl__k_optimizer},
};

acl__op_fn acl__op_lookup(const char *op_type, int64_t opset) {
  for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
    if (strcmp(kernels[i].op, op_type) == 0 && (opset < 0 || kernels[i].since <= opset))
      return kernels[i].fn;
  return NULL;
}

acl__op_fn acl__op_lookup_domain(const char *domain, const char *op_type, int64_t opset) {
  if (domain[0] == '\0' || strcmp(domain, "ai.onnx") == 0)
    return acl__op_lookup(op_type, opset);
  if (strcmp(domain, "ai.onnx.preview.training") != 0)
    return NULL;
  for (size_t i = 0; i < sizeof(training_kernels) / sizeof(training_kernels[0]); i++)
    if (strcmp(training_kernels[i].op, op_type) == 0 && (opset < 0 || training_kernels[i].since <= opset))
      return training_kernels[i].fn;
  return NULL;
}
