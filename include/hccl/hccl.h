/*
 * hccl/hccl.h - the HCCL collective communication API with the vendor's
 * names, values and signatures (hicann/hccl include/hccl.h and hicann/hcomm
 * include/hccl/hccl_comm.h), in one C11 header: the operators and the
 * communicator management.  libhccl.so implements them on openacl's
 * simulated devices and Open MPI (docs/distributed.md).
 */
#ifndef HCCL_H_
#define HCCL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HCCL_API
#define HCCL_API __attribute__((visibility("default")))
#endif

/* ---- communicator management -------------------------------------------- */

/* Sets a config to "nothing chosen": size, magic word and version in the
 * header, every field at its NOT_SET value or empty. */
static inline void HcclCommConfigInit(HcclCommConfig *config) {
  if (config == NULL)
    return;
  HcclConfigInfo *info = (HcclConfigInfo *)(void *)config;
  info->size = sizeof(HcclCommConfig);
  info->magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
  info->version = HCCL_COMM_CONFIG_VERSION;
  info->reserved = 0;
  config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
  config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
  config->hcclCommName[0] = '\0';
  config->hcclUdi[0] = '\0';
  config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
  config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
  config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
  config->hcclWorldRankID = 0;
  config->hcclJobID = 0;
  config->aclGraphZeroCopyEnable = 0;
  config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
  config->hcclAlgo[0] = '\0';
  config->hcclRetryEnable[0] = '\0';
  config->hcclRetryParams[0] = '\0';
  config->hcclBufferName[0] = '\0';
  config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
  config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
  config->hcclChannelSqDepth = HCCL_COMM_SQ_DEPTH_CONFIG_NOT_SET;
}

HCCL_API HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm);
HCCL_API HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
                                                  HcclComm *comm);
HCCL_API HcclResult HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum, uint32_t *rankIds, uint64_t subCommId,
                                            uint32_t subCommRankId, HcclCommConfig *config, HcclComm *subComm);
HCCL_API HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
HCCL_API HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                         HcclComm *comm);
HCCL_API HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                               const HcclCommConfig *config, HcclComm *comm);
HCCL_API HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue);
HCCL_API HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue *configValue);
HCCL_API HcclResult HcclGetCommName(HcclComm comm, char *commName);
HCCL_API HcclResult HcclCommGetHandleWithName(const char *commName, HcclComm *comm);
HCCL_API HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
HCCL_API HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
HCCL_API HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclCommDestroy(HcclComm comm);
HCCL_API HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);
HCCL_API HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError);
HCCL_API const char *HcclGetErrorString(HcclResult code);
HCCL_API uint32_t HcclGetCommConfigCapability(void);
HCCL_API HcclResult HcclCommSuspend(HcclComm comm);
HCCL_API HcclResult HcclCommResume(HcclComm comm);
HCCL_API HcclResult HcclCommGetStatus(const char *commId, HcclCommStatus *status);
HCCL_API HcclResult HcclCommRegCommStateCallback(const char *regName, HcclCommStateCallback cb, void *args);
HCCL_API HcclResult HcclCommSetMemoryRange(HcclComm comm, void *baseVirPtr, size_t size, size_t alignment,
                                           uint64_t flags);
HCCL_API HcclResult HcclCommUnsetMemoryRange(HcclComm comm, void *baseVirPtr);
HCCL_API HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr, size_t size, size_t offset,
                                               aclrtDrvMemHandle handle, uint64_t flags);
HCCL_API HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void *virPtr);
HCCL_API HcclResult HcclCommWorkingDevNicSet(HcclComm comm, uint32_t *ranks, bool *useBackup, uint32_t nRanks);
HCCL_API HcclResult HcclGroupStart(void);
HCCL_API HcclResult HcclGroupEnd(void);
HCCL_API HcclResult HcclGroupStatusGet(bool *isGroupEnabled);
HCCL_API HcclResult HcclCommSymWinRegister(HcclComm comm, void *addr, uint64_t size, HcclCommSymWindow *winHandle,
                                           uint32_t flag);
HCCL_API HcclResult HcclCommSymWinDeregister(HcclCommSymWindow winHandle);
HCCL_API HcclResult HcclCommSymWinGet(HcclComm comm, void *ptr, size_t size, HcclCommSymWindow *winHandle,
                                      size_t *offset);
HCCL_API HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void *info);

/* ---- operators (stream tasks: success means queued) ---------------------- */

HCCL_API HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
                                  HcclReduceOp op, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                                  aclrtStream stream);
HCCL_API HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                      HcclReduceOp op, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts, const void *sendDispls, void *recvBuf,
                                       uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                       aclrtStream stream);
HCCL_API HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                                uint32_t root, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
                                  HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf, const void *recvCounts,
                                   const void *recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                             aclrtStream stream);
HCCL_API HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                             aclrtStream stream);
HCCL_API HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix, HcclDataType sendType,
                                   const void *recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
                                  HcclDataType sendType, const void *recvBuf, const void *recvCounts,
                                  const void *rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType, const void *recvBuf,
                                 uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                               uint32_t root, HcclComm comm, aclrtStream stream);
HCCL_API HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
