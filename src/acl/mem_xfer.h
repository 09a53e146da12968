/*
 * mem_xfer.h - copies and fills as the memory API describes, checks and
 * runs them (mem_xfer.c), shared by memory_api.c (aclrtMemcpy*, aclrtMemset*)
 * and memory_batch_api.c (batches, descriptors, conditional copies).
 *
 * A transfer is described once (acl__xfer), validated once
 * (acl__xfer_check: kind against the pointers, bounds, peer access), then
 * either done in the calling thread (acl__xfer_now) or queued as one task
 * on a stream (acl__xfer_submit).  Asynchronous work that involves pageable
 * host memory completes before the call returns, as the vendor documents:
 * the task is queued behind the stream's earlier work and the call waits
 * for that task alone.
 */
#ifndef OPENACL_ACL_MEM_XFER_H
#define OPENACL_ACL_MEM_XFER_H

#include <stddef.h>
#include <stdint.h>

#include "rt/memory.h"
#include "rt/rt.h"

enum { ACL__XFER_COPY = 0, ACL__XFER_FILL8, ACL__XFER_FILL32 };

/* One copy or fill: `height` rows of `width` bytes, rows `dpitch` /
 * `spitch` apart (1 row for plain copies). */
typedef struct acl__xfer {
  int op;
  void *dst;
  const void *src;
  size_t width, height, dpitch, spitch;
  uint32_t value;
  acl__device *ddev, *sdev; /* device memory of that device on each side, NULL otherwise */
  int pageable;             /* a side is ordinary (pageable) host memory */
  void *staging;            /* HOST_TO_BUF_TO_DEVICE: private copy of the source */
  int symbol;               /* ACL__XFER_SYM_DST / _SRC: that side is a kernel binary's global */
  void *pin;                /* symbol copies: the binary's reference (acl__kernel_symbol_unpin) */
} acl__xfer;

enum { ACL__XFER_SYM_DST = 1, ACL__XFER_SYM_SRC = 2 };

extern const char *const acl__kind_names[8];

/* kind in 0..7, else ACL_ERROR_INVALID_PARAM recorded. */
int acl__kind_valid(const char *api, int kind);
/* What p is, in words ("device memory", "pinned host memory", ...). */
const char *acl__ptr_kind_text(const acl__ptr_info *in);
/* Validates a copy (src != NULL) or a fill (src == NULL) whose pointers are
 * non-NULL and whose kind is in range; fills x's devices and pageable. */
int acl__xfer_check(const char *api, acl__xfer *x, int kind, size_t dst_extent, size_t src_extent, int is_async);
/* acl__xfer_check for a copy one side of which (x->symbol says which) is
 * a global of a kernel binary loaded for `sym_dev`: that side counts as
 * device memory of sym_dev for the kind and for peer access, is already
 * bounds-checked by the caller, and is reached by its own address. */
int acl__xfer_check_symbol(const char *api, acl__xfer *x, int kind, acl__device *sym_dev, size_t extent,
                           int is_async);
/* Runs x in the calling thread, with access to the devices involved. */
void acl__xfer_now(const acl__xfer *x);
/* Queues n checked transfers as one task on s (they run in order); waits
 * for it when one involves pageable host memory.  Frees the staging
 * buffers in every case. */
int acl__xfer_submit(const char *api, acl__stream *s, acl__xfer *x, size_t n);
/* Drops the staging buffers and binary references of n transfers that will
 * not be submitted. */
void acl__xfer_discard(acl__xfer *x, size_t n);

#endif
