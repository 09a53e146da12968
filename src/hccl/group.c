/*
 * group.c - HcclGroupStart / HcclGroupEnd / HcclGroupStatusGet: between
 * Start and End, HcclSend and HcclRecv of the calling thread are checked
 * and kept instead of queued; End issues them as HcclBatchSendRecv calls,
 * one per (communicator, stream) in the order they first appeared, so that
 * sends and receives that would deadlock one by one (both ranks sending
 * first) run together.  A batch takes one send and one receive per peer:
 * the k-th send to a peer and the k-th receive from it go into batch k, so
 * the k-th message between two ranks is in batch k on both sides.  Collectives issued inside a
 * group are queued at once, as outside.  Groups nest (only the outermost
 * End issues).  The state is the calling thread's: no lock.
 */
#include <stdlib.h>
#include <string.h>

#include "hccl/hccl_int.h"

typedef struct hccl__grouped {
  HcclComm comm;
  aclrtStream stream;
  HcclSendRecvItem item;
} hccl__grouped;

static _Thread_local int hccl__group_depth;
static _Thread_local hccl__grouped *hccl__group_items;
static _Thread_local uint32_t hccl__group_n, hccl__group_cap;

int hccl__group_active(void) { return hccl__group_depth > 0; }

HcclResult hccl__group_add(const char *api, HcclComm comm, aclrtStream stream, HcclSendRecvType type, void *buf,
                           uint64_t count, HcclDataType dtype, uint32_t peer) {
  if (hccl__group_n == hccl__group_cap) {
    uint32_t cap = hccl__group_cap ? hccl__group_cap * 2 : 16;
    hccl__grouped *a = realloc(hccl__group_items, cap * sizeof(*a));
    if (a == NULL)
      return hccl__fail(api, HCCL_E_MEMORY, "out of host memory for the group's operations");
    hccl__group_items = a;
    hccl__group_cap = cap;
  }
  hccl__group_items[hccl__group_n++] = (hccl__grouped){comm, stream, {type, buf, count, dtype, peer}};
  return HCCL_SUCCESS;
}

HcclResult HcclGroupStart(void) {
  hccl__group_depth++;
  return HCCL_SUCCESS;
}

HcclResult HcclGroupEnd(void) {
  if (hccl__group_depth == 0)
    return hccl__fail(__func__, HCCL_E_PARA, "no HcclGroupStart to end");
  if (--hccl__group_depth > 0)
    return HCCL_SUCCESS;
  HcclResult rc = HCCL_SUCCESS;
  uint32_t n = hccl__group_n;
  hccl__grouped *all = hccl__group_items;
  uint8_t *done = calloc(n ? n : 1, 1);
  HcclSendRecvItem *batch = malloc((n ? n : 1) * sizeof(*batch));
  if (done == NULL || batch == NULL)
    rc = hccl__fail(__func__, HCCL_E_MEMORY, "out of host memory");
  /* each (comm, stream) in order of first appearance; batch k of it holds
   * the k-th send to each peer and the k-th receive from each peer, so the
   * k-th message from A to B is in batch k on both ranks */
  uint32_t *nth = malloc((n ? n : 1) * sizeof(uint32_t));
  if (nth == NULL && rc == HCCL_SUCCESS)
    rc = hccl__fail(__func__, HCCL_E_MEMORY, "out of host memory");
  for (uint32_t i = 0; i < n && rc == HCCL_SUCCESS; i++) {
    if (done[i])
      continue;
    uint32_t batches = 0;
    for (uint32_t j = i; j < n; j++) {
      if (all[j].comm != all[i].comm || all[j].stream != all[i].stream)
        continue;
      nth[j] = 0;
      for (uint32_t b = i; b < j; b++)
        nth[j] += all[b].comm == all[i].comm && all[b].stream == all[i].stream &&
                  all[b].item.remoteRank == all[j].item.remoteRank &&
                  all[b].item.sendRecvType == all[j].item.sendRecvType;
      if (nth[j] + 1 > batches)
        batches = nth[j] + 1;
    }
    for (uint32_t k = 0; k < batches && rc == HCCL_SUCCESS; k++) {
      uint32_t m = 0;
      for (uint32_t j = i; j < n; j++)
        if (!done[j] && all[j].comm == all[i].comm && all[j].stream == all[i].stream && nth[j] == k) {
          batch[m++] = all[j].item;
          done[j] = 1;
        }
      rc = HcclBatchSendRecv(batch, m, all[i].comm, all[i].stream);
    }
  }
  free(nth);
  free(done), free(batch);
  /* issued or failed: the group is over either way; the list goes too (a
   * thread that ends would leave it behind) */
  free(hccl__group_items);
  hccl__group_items = NULL;
  hccl__group_n = hccl__group_cap = 0;
  return rc;
}

HcclResult HcclGroupStatusGet(bool *isGroupEnabled) {
  if (isGroupEnabled == NULL)
    return hccl__fail(__func__, HCCL_E_PTR, "isGroupEnabled is NULL");
  *isGroupEnabled = hccl__group_depth > 0;
  return HCCL_SUCCESS;
}
