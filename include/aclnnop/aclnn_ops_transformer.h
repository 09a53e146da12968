/*
 * aclnnop/aclnn_ops_transformer.h - every operator header of the
 * transformer family (the vendor's ops-transformer) that openacl implements
 * (docs/aclnn.md lists them).
 */
#ifndef OP_API_INC_ACLNN_OPS_TRANSFORMER_H_
#define OP_API_INC_ACLNN_OPS_TRANSFORMER_H_

#include "aclnn_flash_attention_score.h"

#endif /* OP_API_INC_ACLNN_OPS_TRANSFORMER_H_ */
