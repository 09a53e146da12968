/*
 * tdt.h - the TDT layer's internal interface (acl_tdt.h, acl_tdt_queue.h).
 *
 * The TDT code sits above the runtime like the vendor's own TDT libraries:
 * it uses the public runtime API (devices, memcpy, shared buffers) plus the
 * handle table and error recording.  Three parts:
 *   item.c, dataset.c   data items and datasets, and their wire form
 *                       (wire.c): one relocatable block holding a whole
 *                       dataset, which channels carry;
 *   channel.c           channels: a bounded FIFO of wire blocks per handle;
 *   shmq.c              queues in shared memory (one object per queue id,
 *                       named with the user id, mode 0600) that several
 *                       processes of one user can open; queue_api.c,
 *                       queue_attr.c, route.c and buf_api.c are the public
 *                       functions on top of it.
 */
#ifndef OPENACL_TDT_TDT_H
#define OPENACL_TDT_TDT_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"

#define ACL__TDT_MAX_DIMS 128
#define ACL__TDT_NAME_MAX 128  /* bytes, NUL included */
#define ACL__TDT_ALIGN 64

/* ---- data items and datasets (item.c, dataset.c) ------------------------ */

struct acltdtDataItem {
  acltdtTensorType type;
  aclDataType dtype;
  size_t dim_num;
  int64_t *dims;          /* dim_num entries (own allocation, or in the wire block of a received dataset) */
  void *data;             /* borrowed: the user's, or the received dataset's wire block */
  size_t size;
  size_t slice_num, slice_id;
  int on_device;          /* data is device memory (checked by acltdtAddDataItem) */
  int received;           /* belongs to a received dataset, which frees it */
};

struct acltdtDataset {
  acltdtDataItem **items; /* received datasets: the items they own */
  size_t n, cap;
  char name[ACL__TDT_NAME_MAX];
  int received;           /* filled by acltdtReceiveTensor: owns its items and `wire` */
  void *wire;             /* received datasets: the block the items point into */
  acltdtDataItem *owned;  /* received datasets: the array of their n items */
};

/* 1 when p is a live data item / dataset (the handle table). */
int acl__tdt_item_valid(const void *p);
int acl__tdt_dataset_valid(const void *p);

/* ---- the wire form of a dataset (wire.c) -------------------------------- */

/* Packs ds into one malloc'd block (device data copied to the host);
 * *bytes = its size.  `reuse` (NULL or a block from
 * acl__tdt_dataset_take_wire) is used when large enough, else freed: a
 * channel recycles blocks, which saves the page faults of fresh ones.
 * 0 or a recorded error for `api`. */
int acl__tdt_wire_pack(const char *api, const acltdtDataset *ds, void *reuse, void **wire, size_t *bytes);
/* Detaches a received dataset's block for reuse (dropping its items);
 * NULL for other datasets. */
void *acl__tdt_dataset_take_wire(acltdtDataset *ds);
/* Makes ds (empty or received before) the owner of `wire`: drops its old
 * items, builds new ones pointing into the block.  Takes the block even on
 * failure.  0 or a recorded error. */
int acl__tdt_wire_unpack(const char *api, acltdtDataset *ds, void *wire);
/* Drops a received dataset's items and block (leaves it empty). */
void acl__tdt_dataset_drop_received(acltdtDataset *ds);

/* ---- handles and timeouts (common.c) ------------------------------------ */

/* 0 when h is a live handle of `type` (rt/rt.h acl__handle_type), else
 * records ACL_ERROR_INVALID_PARAM for `api` naming the argument `arg`, what
 * h really is, and `maker` (the function that makes such handles). */
int acl__tdt_check(const char *api, const char *arg, const void *h, int type, const char *maker);

/* timeout ms: -1 forever, 0 at once, > 0 that long; < -1 is recorded as
 * ACL_ERROR_INVALID_PARAM for `api`.  Fills the absolute CLOCK_MONOTONIC
 * deadline (unused for -1 and 0). */
struct timespec;
int acl__tdt_deadline(const char *api, int32_t timeout, struct timespec *deadline);

#endif
