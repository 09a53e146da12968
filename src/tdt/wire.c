/*
 * wire.c - the wire form of a dataset: one block that holds everything a
 * receiver needs, with offsets instead of pointers so it can travel through
 * shared memory as well as through a channel in one process.
 *
 *   acl__tdt_wire header | n item records | dims | data of each item
 *   (each item's data starts on a 64-byte boundary)
 *
 * Sending copies each item's data into the block once (device memory with
 * aclrtMemcpy); receiving hands the block to the dataset, which points its
 * items into it, so a transfer costs one copy.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/tdt.h"

typedef struct wire_item {
  int32_t type, dtype;
  uint64_t dim_num, slice_num, slice_id;
  uint64_t dims_off, data_off, size;
} wire_item;

typedef struct wire_hdr {
  uint64_t bytes; /* the whole block */
  uint64_t cap;   /* bytes allocated (a recycled block may be larger) */
  uint64_t n;
  char name[ACL__TDT_NAME_MAX];
  wire_item items[];
} wire_hdr;

static size_t align_up(size_t v) { return (v + ACL__TDT_ALIGN - 1) & ~(size_t)(ACL__TDT_ALIGN - 1); }

int acl__tdt_wire_pack(const char *api, const acltdtDataset *ds, void *reuse, void **wire, size_t *bytes) {
  size_t off = align_up(sizeof(wire_hdr) + ds->n * sizeof(wire_item));
  size_t dims_at = off;
  for (size_t i = 0; i < ds->n; i++)
    off += ds->items[i]->dim_num * sizeof(int64_t);
  off = align_up(off);
  for (size_t i = 0; i < ds->n; i++) {
    acltdtTensorType t = ds->items[i]->type;
    if (t != ACL_TENSOR_DATA_TENSOR && t != ACL_TENSOR_DATA_END_OF_SEQUENCE && t != ACL_TENSOR_DATA_ABNORMAL)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "item %zu has tensor type %d: only TENSOR, END_OF_SEQUENCE and ABNORMAL items can be sent", i,
                       (int)t);
    if (ds->items[i]->size > SIZE_MAX / 2 - off)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "item %zu's size %zu is too large", i,
                       ds->items[i]->size);
    off = align_up(off + ds->items[i]->size);
  }
  size_t cap = off;
  wire_hdr *w = reuse;
  if (w != NULL && w->cap >= off) {
    cap = w->cap;
  } else {
    free(reuse);
    w = malloc(off);
  }
  if (w == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for %zu bytes of tensors", off);
  memset(w, 0, sizeof *w + ds->n * sizeof(wire_item));
  w->bytes = off;
  w->cap = cap;
  w->n = ds->n;
  memcpy(w->name, ds->name, sizeof w->name);
  size_t dpos = dims_at, pos = align_up(dims_at + 0);
  for (size_t i = 0; i < ds->n; i++)
    pos += ds->items[i]->dim_num * sizeof(int64_t);
  pos = align_up(pos);
  for (size_t i = 0; i < ds->n; i++) {
    const acltdtDataItem *it = ds->items[i];
    wire_item *wi = &w->items[i];
    wi->type = it->type;
    wi->dtype = it->dtype;
    wi->dim_num = it->dim_num;
    wi->slice_num = it->slice_num;
    wi->slice_id = it->slice_id;
    wi->dims_off = dpos;
    if (it->dim_num != 0)
      memcpy((char *)w + dpos, it->dims, it->dim_num * sizeof(int64_t));
    dpos += it->dim_num * sizeof(int64_t);
    wi->data_off = pos;
    wi->size = it->size;
    if (it->size != 0) {
      if (it->on_device) {
        int rc = aclrtMemcpy((char *)w + pos, it->size, it->data, it->size, ACL_MEMCPY_DEVICE_TO_HOST);
        if (rc != 0) {
          free(w);
          return acl__fail(api, rc, __FILE__, __LINE__,
                           "copying item %zu (%zu bytes of device memory at %p) failed; aclGetRecentErrMsg has the "
                           "copy's reason",
                           i, it->size, it->data);
        }
      } else {
        memcpy((char *)w + pos, it->data, it->size);
      }
    }
    pos = align_up(pos + it->size);
  }
  *wire = w;
  *bytes = off;
  return 0;
}

int acl__tdt_wire_unpack(const char *api, acltdtDataset *ds, void *wire) {
  wire_hdr *w = wire;
  acl__tdt_dataset_drop_received(ds);
  acltdtDataItem *owned = w->n == 0 ? NULL : calloc(w->n, sizeof *owned);
  acltdtDataItem **items = w->n == 0 ? NULL : calloc(w->n, sizeof *items);
  if (w->n != 0 && (owned == NULL || items == NULL)) {
    size_t n = (size_t)w->n;
    free(owned);
    free(items);
    free(wire);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for %zu received items", n);
  }
  for (size_t i = 0; i < w->n; i++) {
    const wire_item *wi = &w->items[i];
    acltdtDataItem *it = &owned[i];
    it->type = (acltdtTensorType)wi->type;
    it->dtype = (aclDataType)wi->dtype;
    it->dim_num = wi->dim_num;
    it->dims = wi->dim_num == 0 ? NULL : (int64_t *)((char *)w + wi->dims_off);
    it->size = wi->size;
    it->data = wi->size == 0 ? NULL : (char *)w + wi->data_off;
    it->slice_num = wi->slice_num;
    it->slice_id = wi->slice_id;
    it->received = 1;
    items[i] = it;
    acl__handle_register(it, ACL__H_TDT_ITEM);
  }
  ds->items = items;
  ds->owned = owned;
  ds->n = ds->cap = w->n;
  ds->wire = wire;
  ds->received = 1;
  memcpy(ds->name, w->name, sizeof ds->name);
  ds->name[sizeof ds->name - 1] = '\0';
  return 0;
}

void *acl__tdt_dataset_take_wire(acltdtDataset *ds) {
  if (!ds->received || ds->wire == NULL)
    return NULL;
  void *w = ds->wire;
  ds->wire = NULL;
  acl__tdt_dataset_drop_received(ds);
  return w;
}
