/*
 * aclnnop/aclnn_ops_nn.h - every operator header of the neural-network
 * family (the vendor's ops-nn) that openacl implements (docs/aclnn.md lists
 * them).
 */
#ifndef OP_API_INC_ACLNN_OPS_NN_H_
#define OP_API_INC_ACLNN_OPS_NN_H_

#include "aclnn_adaptive_avg_pool2d.h"
#include "aclnn_adaptive_max_pool2d.h"
#include "aclnn_add_rms_norm.h"
#include "aclnn_addmm.h"
#include "aclnn_avgpool2d.h"
#include "aclnn_batch_matmul.h"
#include "aclnn_batch_norm.h"
#include "aclnn_convolution.h"
#include "aclnn_elu.h"
#include "aclnn_gelu.h"
#include "aclnn_gelu_v2.h"
#include "aclnn_group_norm.h"
#include "aclnn_hardsigmoid.h"
#include "aclnn_hardswish.h"
#include "aclnn_layer_norm.h"
#include "aclnn_leaky_relu.h"
#include "aclnn_logsoftmax.h"
#include "aclnn_matmul.h"
#include "aclnn_max_pool.h"
#include "aclnn_max_pool2d_with_indices.h"
#include "aclnn_mish.h"
#include "aclnn_mm.h"
#include "aclnn_norm.h"
#include "aclnn_prelu.h"
#include "aclnn_relu.h"
#include "aclnn_rms_norm.h"
#include "aclnn_sigmoid.h"
#include "aclnn_silu.h"
#include "aclnn_softmax.h"
#include "aclnn_softplus.h"
#include "aclnn_topk.h"
#include "aclnn_gather.h"
#include "aclnn_gather_v2.h"
#include "aclnn_index_select.h"
#include "aclnn_embedding.h"
#include "aclnn_index.h"
#include "aclnn_index_put_impl.h"
#include "aclnn_scatter.h"
#include "aclnn_nonzero.h"

#include "aclnn_flip.h"

#endif /* OP_API_INC_ACLNN_OPS_NN_H_ */
