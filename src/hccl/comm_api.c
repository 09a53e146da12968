/*
 * comm_api.c - the communicator entry points: argument checks in the
 * vendor's terms, then comm.c.  Rank tables (HcclCommInitClusterInfo*) and
 * sub-communicators (HcclCreateSubCommConfig) live in ranktable.c and
 * subcomm.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hccl/hccl_int.h"

static HcclResult hccl__init_root(const char *api, uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                  const HcclCommConfig *config, HcclComm *comm) {
  if (rootInfo == NULL)
    return hccl__fail(api, HCCL_E_PTR, "rootInfo is NULL. Remedy: pass the root info HcclGetRootInfo made");
  if (comm == NULL)
    return hccl__fail(api, HCCL_E_PTR, "comm is NULL. Remedy: pass an HcclComm to fill");
  if (nRanks == 0)
    return hccl__fail(api, HCCL_E_PARA, "nRanks is 0. Remedy: pass the number of ranks");
  if (rank >= nRanks)
    return hccl__fail(api, HCCL_E_PARA, "rank %u is not below nRanks %u", rank, nRanks);
  hccl__rootinfo ri;
  HcclResult rc = hccl__rootinfo_read(api, rootInfo, &ri);
  if (rc != HCCL_SUCCESS)
    return rc;
  hccl__comm *c = NULL;
  rc = hccl__comm_init(api, nRanks, &ri, rank, config, &c);
  if (rc == HCCL_SUCCESS)
    *comm = c;
  return rc;
}

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank, HcclComm *comm) {
  return hccl__init_root(__func__, nRanks, rootInfo, rank, NULL, comm);
}

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                      const HcclCommConfig *config, HcclComm *comm) {
  if (config == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "config is NULL. Remedy: pass a config set up by HcclCommConfigInit, "
                      "or call HcclCommInitRootInfo");
  return hccl__init_root(__func__, nRanks, rootInfo, rank, config, comm);
}

HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms) {
  if (devices == NULL || comms == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "%s is NULL", devices == NULL ? "devices" : "comms");
  if (ndev == 0)
    return hccl__fail(__func__, HCCL_E_PARA, "ndev is 0. Remedy: pass the number of devices");
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS)
    return hccl__fail(__func__, HCCL_E_RUNTIME, "aclrtGetDeviceCount failed. Remedy: call aclInit first");
  for (uint32_t i = 0; i < ndev; i++) {
    if (devices[i] < 0 || (uint32_t)devices[i] >= count)
      return hccl__fail(__func__, HCCL_E_PARA, "devices[%u] = %d is not a device (there are %u)", i,
                        (int)devices[i], count);
    for (uint32_t j = 0; j < i; j++)
      if (devices[j] == devices[i])
        return hccl__fail(__func__, HCCL_E_PARA, "devices[%u] and devices[%u] are both device %d: one rank per "
                          "device", j, i, (int)devices[i]);
  }
  return hccl__comm_init_all(__func__, ndev, devices, comms);
}

HcclResult HcclCommDestroy(HcclComm comm) {
  if (comm == NULL)
    return HCCL_SUCCESS;
  HcclResult rc;
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  return hccl__comm_destroy(__func__, c);
}

HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize) {
  HcclResult rc;
  if (rankSize == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "rankSize is NULL");
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  *rankSize = c->nranks;
  return HCCL_SUCCESS;
}

HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank) {
  HcclResult rc;
  if (rank == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "rank is NULL");
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  *rank = c->rank;
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommName(HcclComm comm, char *commName) {
  HcclResult rc;
  if (commName == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "commName is NULL. Remedy: pass a buffer of %d bytes",
                      COMM_NAME_MAX_LENGTH);
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  snprintf(commName, COMM_NAME_MAX_LENGTH, "%s", c->name);
  return HCCL_SUCCESS;
}

HcclResult HcclCommGetHandleWithName(const char *commName, HcclComm *comm) {
  if (commName == NULL || comm == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "%s is NULL", commName == NULL ? "commName" : "comm");
  hccl__comm *c = hccl__comm_find_name(commName);
  if (c == NULL)
    return hccl__fail(__func__, HCCL_E_NOT_FOUND, "no live communicator in this process is named \"%.128s\"",
                      commName);
  *comm = c;
  return HCCL_SUCCESS;
}

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError) {
  HcclResult rc;
  if (asyncError == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "asyncError is NULL");
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  *asyncError = (HcclResult)atomic_load(&c->async_error);
  return HCCL_SUCCESS;
}

HcclResult HcclCommSuspend(HcclComm comm) {
  HcclResult rc;
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  atomic_store(&c->status, HCCL_COMM_STATUS_SUSPENDING);
  return HCCL_SUCCESS;
}

HcclResult HcclCommResume(HcclComm comm) {
  HcclResult rc;
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  atomic_store(&c->status, HCCL_COMM_STATUS_READY);
  return HCCL_SUCCESS;
}

HcclResult HcclCommGetStatus(const char *commId, HcclCommStatus *status) {
  if (commId == NULL || status == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "%s is NULL", commId == NULL ? "commId" : "status");
  hccl__comm *c = hccl__comm_find_name(commId);
  if (c == NULL)
    return hccl__fail(__func__, HCCL_E_NOT_FOUND, "no live communicator in this process is named \"%.128s\"",
                      commId);
  *status = (HcclCommStatus)atomic_load(&c->status);
  return HCCL_SUCCESS;
}

HcclResult HcclConfigGetInfo(HcclComm comm, HcclConfigType cfgType, uint32_t infoLen, void *info) {
  HcclResult rc;
  if (info == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "info is NULL");
  hccl__comm *c = hccl__comm_get(__func__, comm, &rc);
  if (c == NULL)
    return rc;
  if (cfgType != HCCL_CONFIG_TYPE_OP_EXPANSION_MODE)
    return hccl__fail(__func__, HCCL_E_NOT_SUPPORT, "cfgType %d is not supported (only "
                      "HCCL_CONFIG_TYPE_OP_EXPANSION_MODE)", (int)cfgType);
  if (infoLen < sizeof(HcclConfigTypeOpExpansionMode))
    return hccl__fail(__func__, HCCL_E_PARA, "infoLen %u is below %zu", infoLen,
                      sizeof(HcclConfigTypeOpExpansionMode));
  /* collectives are expanded by the host here */
  HcclConfigTypeOpExpansionMode m = HCCL_OP_EXPANSION_MODE_HOST;
  memcpy(info, &m, sizeof(m));
  return HCCL_SUCCESS;
}
