/*
 * ops.c - the HCCL operators: argument checks in the vendor's order, then a
 * plan of messages over host staging memory (hccl_ops.h), queued as one
 * stream task (op.c).
 *
 * Checks (reference §2.3): a zero count succeeds at once, queuing nothing;
 * then NULL stream / comm / buffers give HCCL_E_PTR, a count above
 * 0x7FFFFFFFF HCCL_E_PARA, a data type or reduce op the operator does not
 * take HCCL_E_NOT_SUPPORT, a root or peer out of range HCCL_E_PARA, a
 * buffer that is not device memory of the rank's device HCCL_E_PARA.
 *
 * Plans: every rank sends what each peer needs directly to it and receives
 * directly from each; reductions run in rank order (0, 1, ..., n-1) on every
 * rank so that all get the same bits.  A large AllReduce goes in two such
 * exchanges (reduce-scatter, then all-gather).  Messages whose data sits in
 * the caller's buffers as it travels use them directly
 * (hccl__plan_msg_dev) where the memory protection allows; the rest, and
 * every message of an op whose direct messages would overlap, go through
 * host staging, so any in-place use (sendBuf == recvBuf, or the NCCL-style
 * in-place AllGather and ReduceScatter) works.
 */
#include <stdlib.h>
#include <string.h>

#include "hccl/hccl_ops.h"

#define HCCL__SYS_MAX_COUNT 0x7FFFFFFFFull

static HcclResult hccl__ptrs(const char *api, aclrtStream stream, HcclComm comm) {
  if (stream == NULL)
    return hccl__fail(api, HCCL_E_PTR, "stream is NULL. Remedy: pass a stream made with aclrtCreateStream");
  if (comm == NULL)
    return hccl__fail(api, HCCL_E_PTR, "comm is NULL. Remedy: pass a communicator from HcclCommInit*");
  return HCCL_SUCCESS;
}

static HcclResult hccl__nonnull(const char *api, const char *name, const void *p) {
  if (p == NULL)
    return hccl__fail(api, HCCL_E_PTR, "%s is NULL. Remedy: pass device memory from aclrtMalloc", name);
  return HCCL_SUCCESS;
}

static HcclResult hccl__count(const char *api, const char *name, uint64_t n) {
  if (n > HCCL__SYS_MAX_COUNT)
    return hccl__fail(api, HCCL_E_PARA, "%s %llu is above the largest count, 0x7FFFFFFFF", name,
                      (unsigned long long)n);
  return HCCL_SUCCESS;
}

static HcclResult hccl__usable(const char *api, hccl__comm *c) {
  if (atomic_load(&c->status) == HCCL_COMM_STATUS_SUSPENDING)
    return hccl__fail(api, HCCL_E_SUSPENDING, "communicator %s is suspended (HcclCommSuspend). Remedy: "
                      "HcclCommResume it first", c->name);
  return HCCL_SUCCESS;
}

static HcclResult hccl__rank_arg(const char *api, const char *name, uint32_t r, hccl__comm *c) {
  if (r >= c->nranks)
    return hccl__fail(api, HCCL_E_PARA, "%s %u is not a rank of the communicator (it has %u). Remedy: pass "
                      "0 .. %u", name, r, c->nranks, c->nranks - 1);
  return HCCL_SUCCESS;
}

/* [p, p + bytes) must be device memory of the rank's device, as on a card. */
static HcclResult hccl__devbuf(const char *api, hccl__comm *c, const char *name, const void *p, uint64_t bytes) {
  int32_t d = openaclDeviceOfRange(p, bytes);
  if (d < 0)
    return hccl__fail(api, HCCL_E_PARA, "%s %p (%llu bytes) is not inside one device allocation (host memory, "
                      "freed, or too small). Remedy: pass memory from aclrtMalloc on the rank's device",
                      name, p, (unsigned long long)bytes);
  if (d != c->device)
    return hccl__fail(api, HCCL_E_PARA, "%s %p is memory of device %d, but rank %u of communicator %s runs on "
                      "device %d. Remedy: allocate it after aclrtSetDevice(%d)",
                      name, p, (int)d, c->rank, c->name, (int)c->device, (int)c->device);
  return HCCL_SUCCESS;
}

/* Frees an op that was never launched and records the failure. */
static HcclResult hccl__abort(hccl__op *op, const char *api) {
  if (op != NULL)
    hccl__op_unref(op);
  return hccl__fail(api, HCCL_E_MEMORY, "out of host memory for the staging buffers");
}

static hccl__op *hccl__new(hccl__comm *c, const char *api, uint32_t nmsgs, size_t stage, HcclDataType t,
                           HcclReduceOp op) {
  hccl__op *o = hccl__op_new(c, api, nmsgs, stage);
  if (o != NULL) {
    o->dtype = t;
    o->redop = op;
  }
  return o;
}

/* The reduction of n blocks of B bytes at stage offsets base + r * B. */
static int hccl__reduce_blocks(hccl__op *op, uint32_t n, size_t base, size_t B, uint64_t count) {
  size_t *offs = malloc(n * sizeof(size_t));
  if (offs == NULL)
    return -1;
  for (uint32_t r = 0; r < n; r++)
    offs[r] = base + r * B;
  int rc = hccl__plan_reduce(op, n, offs, count);
  free(offs);
  return rc;
}

/* ---- AllReduce, Reduce --------------------------------------------------------- */

/* Large AllReduces go in two phases, a reduce-scatter then an all-gather,
 * each a direct exchange: rank r reduces chunk r of every rank's buffer (in
 * rank order) and sends the result to every rank.  Each rank then sends and
 * receives 2 (n - 1) / n of the buffer, as a ring does, where sending the
 * whole buffer to every peer costs n - 1 buffers, and reduces one chunk
 * instead of n buffers; every rank gets chunk r with rank r's bits. */
#define HCCL__ALLREDUCE_SPLIT_MIN ((size_t)64 << 10)

/* Chunk r of count elements split n ways: its first element and length. */
static void hccl__chunk(uint64_t count, uint32_t n, uint32_t r, uint64_t *first, uint64_t *len) {
  uint64_t base = count / n, rem = count % n;
  *first = r * base + (r < rem ? r : rem);
  *len = base + (r < rem);
}

/* staging: [0, B) this rank's buffer, whose chunk p goes to rank p and is
 * replaced by the result's chunk p from it (direct messages: device memory
 * instead); then n blocks of this rank's chunk, one from each rank, reduced
 * into the first, which goes to every rank from there, or, direct, from
 * recvBuf, where the step puts it (a same-host peer then reads it there).
 * Direct and out of place, the reduction reads this rank's own block in
 * sendBuf and accumulates straight into recvBuf (hccl__plan_step_own). */
static hccl__op *hccl__allreduce_split(hccl__comm *c, const char *api, void *sendBuf, void *recvBuf,
                                       uint64_t count, HcclDataType t, HcclReduceOp redop) {
  uint32_t n = c->nranks, me = c->rank;
  size_t es = hccl__dtype_size(t), B = count * es;
  uint64_t f, len;
  hccl__chunk(count, n, me, &f, &len);
  size_t C = len * es, mine = f * es, red = B;
  hccl__op *o = hccl__new(c, api, 4 * (n - 1), B + n * C, t, redop);
  int bad = o == NULL || hccl__reduce_blocks(o, n, red, C, len) ||
            hccl__plan_step_out(o, (char *)recvBuf + mine, red, C) ||
            hccl__plan_step_own(o, me, (char *)sendBuf + mine, sendBuf, B);
  for (uint32_t p = 0; !bad && p < n; p++)
    if (p != me) {
      uint64_t pf, pl;
      hccl__chunk(count, n, p, &pf, &pl);
      bad = hccl__plan_msg_dev(o, 1, p, pf * es, (char *)sendBuf + pf * es, pl * es);
      hccl__plan_msg(o, 0, p, red + p * C, C);
    }
  if (!bad)
    hccl__plan_phase(o);
  for (uint32_t p = 0; !bad && p < n; p++)
    if (p != me) {
      uint64_t pf, pl;
      hccl__chunk(count, n, p, &pf, &pl);
      bad = hccl__plan_msg_step(o, p) ||
            hccl__plan_msg_dev(o, 0, p, pf * es, (char *)recvBuf + pf * es, pl * es);
    }
  if (bad && o != NULL) {
    hccl__op_unref(o);
    o = NULL;
  }
  return o;
}

static HcclResult hccl__reduce_common(const char *api, void *sendBuf, void *recvBuf, uint64_t count,
                                      HcclDataType dataType, HcclReduceOp op, uint32_t root, int all, HcclComm comm,
                                      aclrtStream stream) {
  HcclResult rc;
  if (count == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendBuf", sendBuf)) ||
      (rc = hccl__nonnull(api, "recvBuf", recvBuf)) || (rc = hccl__count(api, "count", count)) ||
      (rc = hccl__check_dtype(api, dataType, 1)) || (rc = hccl__check_reduce(api, dataType, op)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = count * hccl__dtype_size(dataType);
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)) || (!all && (rc = hccl__rank_arg(api, "root", root, c))) ||
      (rc = hccl__devbuf(api, c, "sendBuf", sendBuf, B)) || (rc = hccl__devbuf(api, c, "recvBuf", recvBuf, B)))
    return rc;
  if (all && n > 1 && B >= HCCL__ALLREDUCE_SPLIT_MIN && count >= n) {
    hccl__op *o = hccl__allreduce_split(c, api, sendBuf, recvBuf, count, dataType, op);
    return o != NULL ? hccl__op_launch(o, stream) : hccl__abort(o, api);
  }
  int gather = all || me == root; /* this rank computes the result */
  hccl__op *o = hccl__new(c, api, all ? 2 * (n - 1) : gather ? n - 1 : 1, gather ? n * B : B, dataType, op);
  if (o == NULL)
    return hccl__abort(o, api);
  if (gather) {
    if (hccl__plan_in(o, sendBuf, me * B, B) || hccl__reduce_blocks(o, n, 0, B, count) ||
        hccl__plan_out(o, recvBuf, 0, B))
      return hccl__abort(o, api);
    for (uint32_t p = 0; p < n; p++)
      if (p != me) {
        if (all && hccl__plan_msg_dev(o, 1, p, me * B, sendBuf, B))
          return hccl__abort(o, api);
        hccl__plan_msg(o, 0, p, p * B, B);
      }
  } else {
    if (hccl__plan_msg_dev(o, 1, root, 0, sendBuf, B))
      return hccl__abort(o, api);
  }
  return hccl__op_launch(o, stream);
}

HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) {
  return hccl__reduce_common(__func__, sendBuf, recvBuf, count, dataType, op, 0, 1, comm, stream);
}

HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm comm, aclrtStream stream) {
  return hccl__reduce_common(__func__, sendBuf, recvBuf, count, dataType, op, root, 0, comm, stream);
}

/* ---- Broadcast, Scatter ------------------------------------------------------------ */

HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if (count == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "buf", buf)) ||
      (rc = hccl__count(api, "count", count)) || (rc = hccl__check_dtype(api, dataType, 0)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = count * hccl__dtype_size(dataType);
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)) || (rc = hccl__rank_arg(api, "root", root, c)) ||
      (rc = hccl__devbuf(api, c, "buf", buf, B)))
    return rc;
  hccl__op *o = hccl__new(c, api, me == root ? n - 1 : 1, B, dataType, HCCL_REDUCE_SUM);
  if (o == NULL)
    return hccl__abort(o, api);
  for (uint32_t p = 0; p < n; p++)
    if ((me == root && p != me) || (me != root && p == root))
      if (hccl__plan_msg_dev(o, me == root, p, 0, buf, B))
        return hccl__abort(o, api);
  return hccl__op_launch(o, stream);
}

HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if (recvCount == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "recvBuf", recvBuf)) ||
      (rc = hccl__count(api, "recvCount", recvCount)) || (rc = hccl__check_dtype(api, dataType, 0)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = recvCount * hccl__dtype_size(dataType);
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)) || (rc = hccl__rank_arg(api, "root", root, c)) ||
      (me == root && (rc = hccl__nonnull(api, "sendBuf", sendBuf))) ||
      (me == root && (rc = hccl__devbuf(api, c, "sendBuf", sendBuf, n * B))) ||
      (rc = hccl__devbuf(api, c, "recvBuf", recvBuf, B)))
    return rc;
  hccl__op *o = hccl__new(c, api, me == root ? n - 1 : 1, me == root ? n * B : B, dataType, HCCL_REDUCE_SUM);
  if (o == NULL)
    return hccl__abort(o, api);
  if (me == root) {
    if (hccl__plan_own(o, recvBuf, (char *)sendBuf + me * B, me * B, B))
      return hccl__abort(o, api);
    for (uint32_t p = 0; p < n; p++)
      if (p != me && hccl__plan_msg_dev(o, 1, p, p * B, (char *)sendBuf + p * B, B))
        return hccl__abort(o, api);
  } else {
    if (hccl__plan_msg_dev(o, 0, root, 0, recvBuf, B))
      return hccl__abort(o, api);
  }
  return hccl__op_launch(o, stream);
}

/* ---- AllGather, ReduceScatter ------------------------------------------------------- */

HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if (sendCount == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendBuf", sendBuf)) ||
      (rc = hccl__nonnull(api, "recvBuf", recvBuf)) || (rc = hccl__count(api, "sendCount", sendCount)) ||
      (rc = hccl__check_dtype(api, dataType, 0)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = sendCount * hccl__dtype_size(dataType);
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)) || (rc = hccl__devbuf(api, c, "sendBuf", sendBuf, B)) ||
      (rc = hccl__devbuf(api, c, "recvBuf", recvBuf, n * B)))
    return rc;
  hccl__op *o = hccl__new(c, api, 2 * (n - 1), n * B, dataType, HCCL_REDUCE_SUM);
  if (o == NULL || hccl__plan_own(o, (char *)recvBuf + me * B, sendBuf, me * B, B))
    return hccl__abort(o, api);
  for (uint32_t p = 0; p < n; p++)
    if (p != me && (hccl__plan_msg_dev(o, 1, p, me * B, sendBuf, B) ||
                    hccl__plan_msg_dev(o, 0, p, p * B, (char *)recvBuf + p * B, B)))
      return hccl__abort(o, api);
  return hccl__op_launch(o, stream);
}

HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if (recvCount == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendBuf", sendBuf)) ||
      (rc = hccl__nonnull(api, "recvBuf", recvBuf)) || (rc = hccl__count(api, "recvCount", recvCount)) ||
      (rc = hccl__check_dtype(api, dataType, 1)) || (rc = hccl__check_reduce(api, dataType, op)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = recvCount * hccl__dtype_size(dataType);
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)) || (rc = hccl__devbuf(api, c, "sendBuf", sendBuf, n * B)) ||
      (rc = hccl__devbuf(api, c, "recvBuf", recvBuf, B)))
    return rc;
  /* staging: [0, nB) my input, [nB, 2nB) block me of every rank's input */
  hccl__op *o = hccl__new(c, api, 2 * (n - 1), 2 * n * B, dataType, op);
  if (o == NULL || hccl__plan_in(o, (const char *)sendBuf + me * B, n * B + me * B, B) ||
      hccl__reduce_blocks(o, n, n * B, B, recvCount) || hccl__plan_out(o, recvBuf, n * B, B))
    return hccl__abort(o, api);
  for (uint32_t p = 0; p < n; p++)
    if (p != me) {
      if (hccl__plan_msg_dev(o, 1, p, p * B, (char *)sendBuf + p * B, B))
        return hccl__abort(o, api);
      hccl__plan_msg(o, 0, p, n * B + p * B, B);
    }
  return hccl__op_launch(o, stream);
}

/* ---- the V variants and all-to-all ----------------------------------------------------- */

/* An exchange where rank me sends scount[p] elements at sdispl[p] of sendBuf to
 * each p and receives rcount[p] elements into rdispl[p] of recvBuf (elements
 * of stype / rtype), optionally reducing the received blocks (ReduceScatterV:
 * every rcount is rcount[me]).  Counts are host arrays, copied. */
static HcclResult hccl__exchange(const char *api, hccl__comm *c, const void *sendBuf, const uint64_t *scount,
                                 const uint64_t *sdispl, HcclDataType stype, const void *recvBuf,
                                 const uint64_t *rcount, const uint64_t *rdispl, HcclDataType rtype, int reduce,
                                 HcclReduceOp op, aclrtStream stream) {
  HcclResult rc;
  uint32_t n = c->nranks, me = c->rank;
  size_t ses = hccl__dtype_size(stype), res = hccl__dtype_size(rtype);
  uint64_t sext = 0, rext = 0, stot = 0, rtot = 0;
  for (uint32_t p = 0; p < n; p++) {
    if (scount[p] > HCCL__SYS_MAX_COUNT || rcount[p] > HCCL__SYS_MAX_COUNT || sdispl[p] > HCCL__SYS_MAX_COUNT ||
        rdispl[p] > HCCL__SYS_MAX_COUNT)
      return hccl__fail(api, HCCL_E_PARA, "the count or displacement for rank %u is above 0x7FFFFFFFF", p);
    if (scount[p] && sdispl[p] + scount[p] > sext)
      sext = sdispl[p] + scount[p];
    if (rcount[p] && rdispl[p] + rcount[p] > rext)
      rext = rdispl[p] + rcount[p];
    stot += scount[p];
    rtot += rcount[p];
  }
  if (scount[me] * ses != rcount[me] * res && !reduce)
    return hccl__fail(api, HCCL_E_PARA, "rank %u sends itself %llu bytes but expects %llu", me,
                      (unsigned long long)(scount[me] * ses), (unsigned long long)(rcount[me] * res));
  if (sext > 0 && ((rc = hccl__nonnull(api, "sendBuf", sendBuf)) ||
                   (rc = hccl__devbuf(api, c, "sendBuf", sendBuf, sext * ses))))
    return rc;
  if (rext > 0 && ((rc = hccl__nonnull(api, "recvBuf", recvBuf)) ||
                   (rc = hccl__devbuf(api, c, "recvBuf", recvBuf, rext * res))))
    return rc;
  /* staging: the send blocks packed, then the receive blocks packed */
  size_t roff0 = stot * ses;
  hccl__op *o = hccl__new(c, api, 2 * (n - 1), roff0 + rtot * res, rtype, op);
  if (o == NULL)
    return hccl__abort(o, api);
  size_t *soff = malloc(n * sizeof(size_t)), *roff = malloc(n * sizeof(size_t));
  int bad = soff == NULL || roff == NULL;
  size_t s = 0, r = roff0;
  for (uint32_t p = 0; !bad && p < n; p++) {
    soff[p] = s;
    roff[p] = r;
    s += scount[p] * ses;
    r += rcount[p] * res;
  }
  /* my own block: straight from my input into my receive slot */
  if (!bad && reduce) {
    bad = hccl__plan_in(o, (const char *)sendBuf + sdispl[me] * ses, roff[me], rcount[me] * res) ||
          hccl__plan_reduce(o, n, roff, rcount[me]) ||
          hccl__plan_out(o, (void *)(uintptr_t)recvBuf, roff[0], rcount[me] * res);
  } else if (!bad) {
    bad = hccl__plan_own(o, (char *)(uintptr_t)recvBuf + rdispl[me] * res, (const char *)sendBuf + sdispl[me] * ses,
                         roff[me], rcount[me] * res);
  }
  for (uint32_t p = 0; !bad && p < n; p++)
    if (p != me) {
      bad = hccl__plan_msg_dev(o, 1, p, soff[p], (const char *)sendBuf + sdispl[p] * ses, scount[p] * ses);
      if (reduce)
        hccl__plan_msg(o, 0, p, roff[p], rcount[p] * res);
      else
        bad = bad || hccl__plan_msg_dev(o, 0, p, roff[p], (char *)(uintptr_t)recvBuf + rdispl[p] * res,
                                        rcount[p] * res);
    }
  free(soff), free(roff);
  if (bad)
    return hccl__abort(o, api);
  return hccl__op_launch(o, stream);
}

HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType, const void *recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if (sendCount == 0 && recvCount == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendBuf", sendBuf)) ||
      (rc = hccl__nonnull(api, "recvBuf", recvBuf)) || (rc = hccl__count(api, "sendCount", sendCount)) ||
      (rc = hccl__count(api, "recvCount", recvCount)) || (rc = hccl__check_dtype(api, sendType, 0)) ||
      (rc = hccl__check_dtype(api, recvType, 0)))
    return rc;
  if (sendCount != recvCount || sendType != recvType)
    return hccl__fail(api, HCCL_E_PARA, "sendCount %llu / sendType %s differ from recvCount %llu / recvType %s. "
                      "Remedy: use HcclAlltoAllV for unequal blocks", (unsigned long long)sendCount,
                      hccl__dtype_name(sendType), (unsigned long long)recvCount, hccl__dtype_name(recvType));
  if (sendBuf == recvBuf)
    return hccl__fail(api, HCCL_E_PARA, "recvBuf must differ from sendBuf (no in-place all-to-all)");
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  uint32_t n = c->nranks;
  uint64_t *v = malloc(4 * n * sizeof(uint64_t));
  if (v == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  for (uint32_t p = 0; p < n; p++) {
    v[p] = v[2 * n + p] = sendCount;
    v[n + p] = v[3 * n + p] = p * sendCount;
  }
  rc = hccl__exchange(api, c, sendBuf, v, v + n, sendType, recvBuf, v + 2 * n, v + 3 * n, recvType, 0,
                      HCCL_REDUCE_SUM, stream);
  free(v);
  return rc;
}

HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls, HcclDataType sendType,
                         const void *recvBuf, const void *recvCounts, const void *rdispls, HcclDataType recvType,
                         HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendCounts", sendCounts)) ||
      (rc = hccl__nonnull(api, "sdispls", sdispls)) || (rc = hccl__nonnull(api, "recvCounts", recvCounts)) ||
      (rc = hccl__nonnull(api, "rdispls", rdispls)) || (rc = hccl__check_dtype(api, sendType, 0)) ||
      (rc = hccl__check_dtype(api, recvType, 0)))
    return rc;
  if (sendBuf != NULL && sendBuf == recvBuf)
    return hccl__fail(api, HCCL_E_PARA, "recvBuf must differ from sendBuf (no in-place all-to-all)");
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  return hccl__exchange(api, c, sendBuf, sendCounts, sdispls, sendType, recvBuf, recvCounts, rdispls, recvType, 0,
                        HCCL_REDUCE_SUM, stream);
}

HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix, HcclDataType sendType,
                          const void *recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendCountMatrix", sendCountMatrix)) ||
      (rc = hccl__check_dtype(api, sendType, 0)) || (rc = hccl__check_dtype(api, recvType, 0)))
    return rc;
  if (sendBuf != NULL && sendBuf == recvBuf)
    return hccl__fail(api, HCCL_E_PARA, "recvBuf must differ from sendBuf (no in-place all-to-all)");
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  uint32_t n = c->nranks, me = c->rank;
  const uint64_t *m = sendCountMatrix; /* m[i * n + j]: rank i sends to rank j */
  uint64_t *v = malloc(4 * n * sizeof(uint64_t));
  if (v == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  uint64_t s = 0, r = 0;
  for (uint32_t p = 0; p < n; p++) { /* packed in rank order (reference §8: assumed) */
    v[p] = m[(size_t)me * n + p];
    v[n + p] = s;
    s += v[p];
    v[2 * n + p] = m[(size_t)p * n + me];
    v[3 * n + p] = r;
    r += v[2 * n + p];
  }
  rc = hccl__exchange(api, c, sendBuf, v, v + n, sendType, recvBuf, v + 2 * n, v + 3 * n, recvType, 0,
                      HCCL_REDUCE_SUM, stream);
  free(v);
  return rc;
}

HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf, const void *recvCounts,
                          const void *recvDispls, HcclDataType dataType, HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "recvCounts", recvCounts)) ||
      (rc = hccl__nonnull(api, "recvDispls", recvDispls)) || (rc = hccl__count(api, "sendCount", sendCount)) ||
      (rc = hccl__check_dtype(api, dataType, 0)))
    return rc;
  if (sendBuf != NULL && sendBuf == recvBuf)
    return hccl__fail(api, HCCL_E_PARA, "recvBuf must differ from sendBuf");
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  uint32_t n = c->nranks, me = c->rank;
  const uint64_t *rc_ = recvCounts;
  if (rc_[me] != sendCount)
    return hccl__fail(api, HCCL_E_PARA, "recvCounts[%u] is %llu but this rank's sendCount is %llu; they must be "
                      "equal", me, (unsigned long long)rc_[me], (unsigned long long)sendCount);
  uint64_t *v = malloc(2 * n * sizeof(uint64_t));
  if (v == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  for (uint32_t p = 0; p < n; p++) {
    v[p] = sendCount;
    v[n + p] = 0;
  }
  rc = hccl__exchange(api, c, sendBuf, v, v + n, dataType, recvBuf, recvCounts, recvDispls, dataType, 0,
                      HCCL_REDUCE_SUM, stream);
  free(v);
  return rc;
}

HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts, const void *sendDispls, void *recvBuf,
                              uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                              aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendCounts", sendCounts)) ||
      (rc = hccl__nonnull(api, "sendDispls", sendDispls)) || (rc = hccl__count(api, "recvCount", recvCount)) ||
      (rc = hccl__check_dtype(api, dataType, 1)) || (rc = hccl__check_reduce(api, dataType, op)))
    return rc;
  if (sendBuf != NULL && sendBuf == recvBuf)
    return hccl__fail(api, HCCL_E_PARA, "recvBuf must differ from sendBuf");
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  uint32_t n = c->nranks, me = c->rank;
  const uint64_t *sc = sendCounts;
  if (sc[me] != recvCount)
    return hccl__fail(api, HCCL_E_PARA, "sendCounts[%u] is %llu but recvCount is %llu; they must be equal", me,
                      (unsigned long long)sc[me], (unsigned long long)recvCount);
  uint64_t *v = malloc(2 * n * sizeof(uint64_t));
  if (v == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  for (uint32_t p = 0; p < n; p++) {
    v[p] = recvCount;
    v[n + p] = 0;
  }
  rc = hccl__exchange(api, c, sendBuf, sendCounts, sendDispls, dataType, recvBuf, v, v + n, dataType, 1, op,
                      stream);
  free(v);
  return rc;
}

/* ---- point to point, barrier --------------------------------------------------------------- */

static HcclResult hccl__p2p(const char *api, int send, void *buf, uint64_t count, HcclDataType dataType,
                            uint32_t peer, HcclComm comm, aclrtStream stream) {
  HcclResult rc;
  if (count == 0)
    return HCCL_SUCCESS;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, send ? "sendBuf" : "recvBuf", buf)) ||
      (rc = hccl__count(api, "count", count)) || (rc = hccl__check_dtype(api, dataType, 0)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  size_t B = count * hccl__dtype_size(dataType);
  if ((rc = hccl__usable(api, c)) || (rc = hccl__rank_arg(api, send ? "destRank" : "srcRank", peer, c)))
    return rc;
  if (peer == c->rank)
    return hccl__fail(api, HCCL_E_NOT_SUPPORT, "rank %u %s itself. Remedy: copy with aclrtMemcpyAsync, or pair "
                      "a send and a receive to self in HcclBatchSendRecv", peer, send ? "sends to" : "receives from");
  if ((rc = hccl__devbuf(api, c, send ? "sendBuf" : "recvBuf", buf, B)))
    return rc;
  if (hccl__group_active()) /* issued with the rest of the group by HcclGroupEnd */
    return hccl__group_add(api, comm, stream, send ? HCCL_SEND : HCCL_RECV, buf, count, dataType, peer);
  hccl__op *o = hccl__new(c, api, 1, B, dataType, HCCL_REDUCE_SUM);
  if (o == NULL || hccl__plan_msg_dev(o, send, peer, 0, buf, B))
    return hccl__abort(o, api);
  return hccl__op_launch(o, stream);
}

HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
  return hccl__p2p(__func__, 1, sendBuf, count, dataType, destRank, comm, stream);
}

HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
  return hccl__p2p(__func__, 0, recvBuf, count, dataType, srcRank, comm, stream);
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)) || (rc = hccl__nonnull(api, "sendRecvInfo", sendRecvInfo)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  uint32_t n = c->nranks, me = c->rank;
  if ((rc = hccl__usable(api, c)))
    return rc;
  if (itemNum == 0 || itemNum > 2 * n)
    return hccl__fail(api, HCCL_E_PARA, "itemNum %u is not in 1 .. 2 x rank size (%u)", itemNum, 2 * n);
  uint8_t *seen = calloc(2 * (size_t)n, 1);
  if (seen == NULL)
    return hccl__fail(api, HCCL_E_MEMORY, "out of host memory");
  size_t total = 0;
  int self_send = -1, self_recv = -1;
  rc = HCCL_SUCCESS;
  for (uint32_t i = 0; i < itemNum && rc == HCCL_SUCCESS; i++) {
    HcclSendRecvItem *it = &sendRecvInfo[i];
    size_t es = hccl__dtype_size(it->dataType);
    if (it->sendRecvType != HCCL_SEND && it->sendRecvType != HCCL_RECV)
      rc = hccl__fail(api, HCCL_E_PARA, "item %u: sendRecvType %d is neither HCCL_SEND nor HCCL_RECV", i,
                      (int)it->sendRecvType);
    else if (it->buf == NULL)
      rc = hccl__fail(api, HCCL_E_PTR, "item %u: buf is NULL", i);
    else if (es == 0 || it->dataType == HCCL_DATA_TYPE_INT128)
      rc = hccl__fail(api, HCCL_E_PARA, "item %u: dataType %d is not supported", i, (int)it->dataType);
    else if (it->count > HCCL__SYS_MAX_COUNT)
      rc = hccl__fail(api, HCCL_E_PARA, "item %u: count %llu is above 0x7FFFFFFFF", i,
                      (unsigned long long)it->count);
    else if (it->remoteRank >= n)
      rc = hccl__fail(api, HCCL_E_PARA, "item %u: remoteRank %u is not a rank (the communicator has %u)", i,
                      it->remoteRank, n);
    else if (seen[2 * it->remoteRank + it->sendRecvType]++)
      rc = hccl__fail(api, HCCL_E_PARA, "item %u: a second %s rank %u (one of each per peer)", i,
                      it->sendRecvType == HCCL_SEND ? "send to" : "receive from", it->remoteRank);
    else if (it->count > 0)
      rc = hccl__devbuf(api, c, "item buf", it->buf, it->count * es);
    if (rc == HCCL_SUCCESS) {
      total += it->count * es;
      if (it->remoteRank == me)
        *(it->sendRecvType == HCCL_SEND ? &self_send : &self_recv) = (int)i;
    }
  }
  free(seen);
  if (rc != HCCL_SUCCESS)
    return rc;
  if ((self_send >= 0) != (self_recv >= 0) ||
      (self_send >= 0 && sendRecvInfo[self_send].count * hccl__dtype_size(sendRecvInfo[self_send].dataType) !=
                             sendRecvInfo[self_recv].count * hccl__dtype_size(sendRecvInfo[self_recv].dataType)))
    return hccl__fail(api, HCCL_E_PARA, "a send to self must pair with a receive from self of the same size");
  hccl__op *o = hccl__new(c, api, itemNum, total, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM);
  if (o == NULL)
    return hccl__abort(o, api);
  size_t off = 0, self_off = 0;
  int bad = 0;
  for (uint32_t i = 0; i < itemNum && !bad; i++) {
    HcclSendRecvItem *it = &sendRecvInfo[i];
    size_t B = it->count * hccl__dtype_size(it->dataType);
    if ((int)i == self_send) {
      self_off = off;
      bad = hccl__plan_in(o, it->buf, off, B);
    } else if ((int)i != self_recv) {
      bad = hccl__plan_msg_dev(o, it->sendRecvType == HCCL_SEND, it->remoteRank, off, it->buf, B);
    }
    off += B;
  }
  if (!bad && self_recv >= 0)
    bad = hccl__plan_out(o, sendRecvInfo[self_recv].buf, self_off,
                         sendRecvInfo[self_recv].count * hccl__dtype_size(sendRecvInfo[self_recv].dataType));
  if (bad)
    return hccl__abort(o, api);
  return hccl__op_launch(o, stream);
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
  const char *api = __func__;
  HcclResult rc;
  if ((rc = hccl__ptrs(api, stream, comm)))
    return rc;
  hccl__comm *c = hccl__comm_get(api, comm, &rc);
  if (c == NULL)
    return rc;
  if ((rc = hccl__usable(api, c)))
    return rc;
  uint32_t n = c->nranks, me = c->rank;
  hccl__op *o = hccl__new(c, api, 2 * (n - 1), 0, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM);
  if (o == NULL)
    return hccl__abort(o, api);
  for (uint32_t p = 0; p < n; p++)
    if (p != me) {
      hccl__plan_msg(o, 1, p, 0, 0);
      hccl__plan_msg(o, 0, p, 0, 0);
    }
  return hccl__op_launch(o, stream);
}
