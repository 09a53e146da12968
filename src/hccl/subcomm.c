/*
 * subcomm.c - HcclCreateSubCommConfig: a communicator over some ranks of a
 * global one, with no new bootstrap.
 *
 * The members already know where every parent rank lives (the parent
 * group's map), so the sub-communicator's root info is made locally on
 * each member: its id from the parent's id and subCommId, its root the
 * process of the first listed rank.  The rendezvous and the MPI
 * communicator are then those of any communicator (comm.c).  One level
 * only, as the vendor: a sub-communicator cannot be split again.
 */
#include <stdio.h>
#include <string.h>

#include "hccl/hccl_int.h"

#define HCCL__NOT_JOINING 0xFFFFFFFFull

HcclResult HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum, uint32_t *rankIds, uint64_t subCommId,
                                   uint32_t subCommRankId, HcclCommConfig *config, HcclComm *subComm) {
  const char *api = __func__;
  HcclResult rc;
  if (comm == NULL || subComm == NULL)
    return hccl__fail(api, HCCL_E_PTR, "%s is NULL", comm == NULL ? "comm" : "subComm");
  hccl__comm *p = hccl__comm_get(api, *comm, &rc);
  if (p == NULL)
    return rc;
  if (rankIds == NULL && subCommId == HCCL__NOT_JOINING) {
    *subComm = NULL; /* this rank is not in the sub-communicator */
    return HCCL_SUCCESS;
  }
  if (rankIds == NULL)
    return hccl__fail(api, HCCL_E_PTR, "rankIds is NULL (a rank that does not join passes subCommId 0xFFFFFFFF)");
  if (p->sub)
    return hccl__fail(api, HCCL_E_NOT_SUPPORT, "communicator %s is a sub-communicator already: only one level of "
                      "splitting. Remedy: split the global communicator", p->name);
  if (rankNum == 0 || rankNum > p->nranks)
    return hccl__fail(api, HCCL_E_PARA, "rankNum %u is not in 1 .. %u (the global communicator's size)", rankNum,
                      p->nranks);
  if (subCommRankId >= rankNum)
    return hccl__fail(api, HCCL_E_PARA, "subCommRankId %u is not below rankNum %u", subCommRankId, rankNum);
  for (uint32_t i = 0; i < rankNum; i++) {
    if (rankIds[i] >= p->nranks)
      return hccl__fail(api, HCCL_E_PARA, "rankIds[%u] = %u is not a rank of the global communicator (%u ranks)",
                        i, rankIds[i], p->nranks);
    if (i > 0 && rankIds[i] <= rankIds[i - 1])
      return hccl__fail(api, HCCL_E_PARA, "rankIds must be sorted and distinct (rankIds[%u] = %u after %u)", i,
                        rankIds[i], rankIds[i - 1]);
  }
  if (rankIds[subCommRankId] != p->rank)
    return hccl__fail(api, HCCL_E_PARA, "rankIds[subCommRankId = %u] is %u, but this is rank %u of the global "
                      "communicator", subCommRankId, rankIds[subCommRankId], p->rank);
  hccl__group *g = p->g;
  uint64_t id = g->id ^ ((subCommId + 1) * 0x9e3779b97f4a7c15u);
  if (id == 0)
    id = 1;
  char name[HCCL__NAME_MAX];
  snprintf(name, sizeof(name), "%.100s_sub_%llu", p->name, (unsigned long long)subCommId);
  hccl__rootinfo ri;
  /* the root: the process of the first listed rank (world[] is constant once the parent is ready) */
  hccl__rootinfo_fill(&ri, id, g->mpi_mode ? g->world[rankIds[0]] : -1, p->device, name);
  hccl__comm *c = NULL;
  rc = hccl__comm_init(api, rankNum, &ri, subCommRankId, config, &c);
  if (rc != HCCL_SUCCESS)
    return rc;
  c->sub = 1;
  *subComm = c;
  return HCCL_SUCCESS;
}
