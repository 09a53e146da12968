/* sample_ops.h - the collective samples' common body (sample_ops.c). */
#ifndef SAMPLE_OPS_H
#define SAMPLE_OPS_H

#include <stdint.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

/* Runs operator `op` ("allreduce", ...) as rank `rank` of `n` on a stream of
 * the current device; *out (malloc'd, *out_n floats) is what the rank
 * prints, *print 0 when the vendor's sample prints nothing on this rank.
 * 0, or -1 after printing the sample's error line. */
int sample_run_op(const char *op, uint32_t rank, uint32_t n, HcclComm comm, float **out, uint64_t *out_n,
                  int *print);

#endif
