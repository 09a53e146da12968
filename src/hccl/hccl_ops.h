/*
 * hccl_ops.h - an operation's plan (op.c runs it, ops.c builds it for each
 * collective): copies in, messages, a reduction, copies out.
 */
#ifndef OPENACL_HCCL_OPS_H
#define OPENACL_HCCL_OPS_H

#include "hccl/hccl_int.h"

typedef struct hccl__copy {
  void *dev;     /* device address as host code holds it (translated when used) */
  size_t off;    /* staging offset */
  size_t bytes;
  int for_msg;   /* stages a message's data: skipped when the op is direct */
} hccl__copy;

typedef struct hccl__plan {
  hccl__copy *in, *out;
  uint32_t nin, in_cap, nout, out_cap;
  size_t *red_off;   /* staging offsets of the blocks reduced, in rank order, into the first */
  uint32_t red_n;
  uint64_t red_count;
  int red_between;   /* the reduction runs between the two phases, not before the copies out */
  int red_done;      /* the reduction ran (hccl__op_reduce) */
  /* a two-phase AllReduce (hccl__plan_step_own): this rank's block of the
   * reduction, red_own_k, is device memory red_own_dev; when the op is
   * direct and it does not overlap step_dev's block (acc_direct, set at
   * launch), the reduction reads it in place and accumulates straight into
   * step_dev: no copy in, no step copy */
  const void *red_own_dev;
  uint32_t red_own_k;
  const void *red_src_all;  /* the whole input, which step_dev must not overlap */
  size_t red_src_all_bytes;
  int acc_direct;
  void *step_dev;    /* direct ops: after the step, staging [step_off, + step_bytes) is copied here */
  size_t step_off, step_bytes;
  void *own_dst;     /* the rank's own block (hccl__plan_own), NULL if none */
  const void *own_src;
  size_t own_bytes;
} hccl__plan;

/* Adds message op->nmsgs (the op was made with room for it). */
void hccl__plan_msg(hccl__op *op, int send, uint32_t peer, size_t stage_off, size_t bytes);
/* A message whose data is device memory [dev, dev + bytes).  When the
 * memory protection lets the runtime's other threads reach device memory
 * (no protection keys), MPI and the progress thread use it directly
 * (openaclDevicePtr): no copy through host memory.  Otherwise, or when the
 * op's direct messages overlap (in-place uses), it goes through staging
 * at stage_off with the copy in (a send) or out (a receive) that implies;
 * copies in of the same range are made once.  0, or -1 out of memory. */
int hccl__plan_msg_dev(hccl__op *op, int send, uint32_t peer, size_t stage_off, const void *dev, size_t bytes);
/* The rank's own block of an exchange, src (in sendBuf) to dst (in
 * recvBuf): one copy between the two when the op is direct, made before the
 * messages; else through staging at stage_off, in before the messages and
 * out after.  One per op.  0, or -1 out of memory. */
int hccl__plan_own(hccl__op *op, void *dst, const void *src, size_t stage_off, size_t bytes);
/* A phase-1 send of what the step (the reduction between the phases)
 * leaves at stage_off: when the op is direct, the step also copies it to
 * device memory dev, which the message then sends from (a same-host peer
 * reads it there); else it goes from staging, and the copy to dev is made
 * after the messages.  One per op.  0, or -1 out of memory. */
int hccl__plan_step_out(hccl__op *op, void *dev, size_t stage_off, size_t bytes);
int hccl__plan_msg_step(hccl__op *op, uint32_t peer);
/* After hccl__plan_reduce and hccl__plan_step_out: block k of the reduction
 * is this rank's own, at device memory dev, inside the op's input [all,
 * all + all_bytes); it is also copied in to the block's staging offset,
 * except when the op is direct and step_out's memory overlaps no input
 * (then the reduction reads it there and accumulates into step_out's
 * memory).  0, or -1 out of memory. */
int hccl__plan_step_own(hccl__op *op, uint32_t k, const void *dev, const void *all, size_t all_bytes);
/* 0, or -1 out of memory. */
int hccl__plan_in(hccl__op *op, const void *dev, size_t stage_off, size_t bytes);
int hccl__plan_out(hccl__op *op, void *dev, size_t stage_off, size_t bytes);
int hccl__plan_reduce(hccl__op *op, uint32_t nblocks, const size_t *offs, uint64_t count);
/* The messages planned so far are phase 0; those planned after, phase 1,
 * posted once phase 0 is done and the reduction has run. */
void hccl__plan_phase(hccl__op *op);

#endif
