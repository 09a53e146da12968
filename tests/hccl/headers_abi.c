/*
 * headers_abi.c - hccl/hccl.h compiles as users compile it (C11 -pedantic,
 * the hccl/headers test) and pins the vendor's values and layouts (reference
 * §1): constants usable as constant expressions, enum values, struct
 * offsets for LP64.
 */
#include <stddef.h>

#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_types.h"

static char root_bytes[HCCL_ROOT_INFO_BYTES]; /* a constant expression in C */

_Static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo is 4108 bytes");
_Static_assert(sizeof(root_bytes) == 4108, "HCCL_ROOT_INFO_BYTES");
_Static_assert(HCCL_E_RESERVED == 1042 && HCCL_E_IN_STATUS == 1041 && HCCL_E_OOM == 24, "HcclResult");
_Static_assert(HCCL_E_PARA == 1 && HCCL_E_PTR == 2 && HCCL_E_NOT_SUPPORT == 5 && HCCL_E_TIMEOUT == 9 &&
                   HCCL_E_AGAIN == 20 && HCCL_E_REMOTE == 21 && HCCL_E_SUSPENDING == 22,
               "HcclResult");
_Static_assert(HCCL_DATA_TYPE_BFP16 == 11 && HCCL_DATA_TYPE_INT128 == 12 && HCCL_DATA_TYPE_HIF8 == 14 &&
                   HCCL_DATA_TYPE_FP8E4M3 == 15 && HCCL_DATA_TYPE_FP8E5M2 == 16 && HCCL_DATA_TYPE_FP8E8M0 == 17 &&
                   HCCL_DATA_TYPE_RESERVED == 255,
               "HcclDataType: the current numbering");
_Static_assert(HCCL_REDUCE_MIN == 3 && HCCL_REDUCE_RESERVED == 255, "HcclReduceOp");
_Static_assert(HCCL_COMM_CONFIG_RESERVED == 12 && HCCL_CMD_MAX == 104 && HCCL_CMD_HALF_ALLTOALLV == 20,
               "enums");
_Static_assert(HCCL_COMM_STATUS_INVALID == 254 && HCCL_COMM_STATE_PHASE_INVALID == -1, "status enums");
_Static_assert(HCCL_OP_EXPANSION_AIV_ONLY == 6 && HCCL_CONFIG_TYPE_OP_EXPANSION_MODE == 0, "expansion modes");
_Static_assert(sizeof(HcclSendRecvItem) == 32 && offsetof(HcclSendRecvItem, buf) == 8 &&
                   offsetof(HcclSendRecvItem, count) == 16 && offsetof(HcclSendRecvItem, dataType) == 24 &&
                   offsetof(HcclSendRecvItem, remoteRank) == 28,
               "HcclSendRecvItem layout");
_Static_assert(sizeof(HcclCommConfig) == 2248, "HcclCommConfig version 11");
_Static_assert(offsetof(HcclCommConfig, hcclBufferSize) == 24 && offsetof(HcclCommConfig, hcclCommName) == 32 &&
                   offsetof(HcclCommConfig, hcclUdi) == 160 && offsetof(HcclCommConfig, hcclOpExpansionMode) == 288 &&
                   offsetof(HcclCommConfig, hcclWorldRankID) == 300 && offsetof(HcclCommConfig, hcclJobID) == 304 &&
                   offsetof(HcclCommConfig, aclGraphZeroCopyEnable) == 312 &&
                   offsetof(HcclCommConfig, hcclExecTimeOut) == 316 && offsetof(HcclCommConfig, hcclAlgo) == 320 &&
                   offsetof(HcclCommConfig, hcclRetryEnable) == 1920 &&
                   offsetof(HcclCommConfig, hcclRetryParams) == 1970 &&
                   offsetof(HcclCommConfig, hcclBufferName) == 2098 && offsetof(HcclCommConfig, hcclQos) == 2228 &&
                   offsetof(HcclCommConfig, hcclSymWinMaxMemSizePerRank) == 2232 &&
                   offsetof(HcclCommConfig, hcclChannelSqDepth) == 2240,
               "HcclCommConfig offsets");
_Static_assert(sizeof(HcclConfigInfo) == HCCL_COMM_CONFIG_INFO_BYTES, "config header");

int headers_abi_use(void);
int headers_abi_use(void) {
  HcclCommConfig c;
  HcclCommConfigInit(&c);
  HcclConfigValue v = {1};
  return (int)c.hcclBufferSize + v.value + root_bytes[0];
}
