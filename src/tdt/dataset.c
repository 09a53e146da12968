/*
 * dataset.c - TDT datasets: an ordered list of data items and a name.
 *
 * Ownership: a user-made dataset lists items it does not own (the user
 * destroys them).  A dataset filled by acltdtReceiveTensor owns its items
 * and the one block they point into (wire.c); destroying it, or receiving
 * into it again, frees them.  Items of one dataset are all host memory or
 * all device memory.
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/device.h"
#include "rt/rt.h"
#include "tdt/tdt.h"

int acl__tdt_dataset_valid(const void *p) { return p != NULL && acl__handle_valid(p, ACL__H_TDT_DATASET); }

acltdtDataset *acltdtCreateDataset(void) {
  acltdtDataset *ds = calloc(1, sizeof *ds);
  if (ds == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a dataset");
    return NULL;
  }
  acl__handle_register(ds, ACL__H_TDT_DATASET);
  return ds;
}

void acl__tdt_dataset_drop_received(acltdtDataset *ds) {
  if (!ds->received)
    return;
  for (size_t i = 0; i < ds->n; i++)
    acl__handle_unregister(ds->items[i]);
  free(ds->items);
  free(ds->owned);
  free(ds->wire);
  ds->items = NULL;
  ds->owned = NULL;
  ds->wire = NULL;
  ds->n = ds->cap = 0;
  ds->received = 0;
  ds->name[0] = '\0';
}

aclError acltdtDestroyDataset(acltdtDataset *dataset) {
  int rc = acl__tdt_check(__func__, "dataset", dataset, ACL__H_TDT_DATASET, "acltdtCreateDataset");
  if (rc != 0)
    return rc;
  acl__handle_unregister(dataset);
  if (dataset->received)
    acl__tdt_dataset_drop_received(dataset);
  else
    free(dataset->items);
  free(dataset);
  return 0;
}

/* Device memory of the simulated NPU, or host memory (anything else). */
static int on_device(const void *p) {
  aclrtPtrAttributes a;
  /* before aclInit no memory is device memory (and the query would fail) */
  if (p == NULL || acl__device_peek(0) == NULL || aclrtPointerGetAttributes(p, &a) != ACL_SUCCESS)
    return 0;
  return a.location.type == ACL_MEM_LOCATION_TYPE_DEVICE;
}

aclError acltdtAddDataItem(acltdtDataset *dataset, acltdtDataItem *dataItem) {
  int rc = acl__tdt_check(__func__, "dataset", dataset, ACL__H_TDT_DATASET, "acltdtCreateDataset");
  if (rc == 0)
    rc = acl__tdt_check(__func__, "dataItem", dataItem, ACL__H_TDT_ITEM, "acltdtCreateDataItem");
  if (rc != 0)
    return rc;
  if (dataset->received)
    return ACL__FAIL(ACL_ERROR_FEATURE_UNSUPPORTED,
                     "dataset %p was filled by acltdtReceiveTensor: items cannot be added to a received dataset. "
                     "Remedy: build the dataset to send with acltdtCreateDataset",
                     (void *)dataset);
  if (dataItem->received)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataItem %p belongs to a received dataset. Remedy: make a new item with acltdtCreateDataItem "
                     "that points at its data",
                     (void *)dataItem);
  dataItem->on_device = on_device(dataItem->data);
  if (dataset->n != 0 && dataset->items[0]->on_device != dataItem->on_device)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataItem %p holds %s memory but the dataset's items hold %s memory: one dataset's items are "
                     "all host or all device memory",
                     (void *)dataItem, dataItem->on_device ? "device" : "host",
                     dataset->items[0]->on_device ? "device" : "host");
  if (dataset->n == dataset->cap) {
    size_t cap = dataset->cap == 0 ? 4 : dataset->cap * 2;
    acltdtDataItem **items = realloc(dataset->items, cap * sizeof *items);
    if (items == NULL)
      return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for %zu items", cap);
    dataset->items = items;
    dataset->cap = cap;
  }
  dataset->items[dataset->n++] = dataItem;
  return 0;
}

acltdtDataItem *acltdtGetDataItem(const acltdtDataset *dataset, size_t index) {
  if (acl__tdt_check(__func__, "dataset", dataset, ACL__H_TDT_DATASET, "acltdtCreateDataset") != 0)
    return NULL;
  if (index >= dataset->n) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "index %zu is out of range: the dataset holds %zu items", index, dataset->n);
    return NULL;
  }
  return dataset->items[index];
}

size_t acltdtGetDatasetSize(const acltdtDataset *dataset) {
  return acl__tdt_dataset_valid(dataset) ? dataset->n : 0;
}

const char *acltdtGetDatasetName(const acltdtDataset *dataset) {
  return acl__tdt_dataset_valid(dataset) ? dataset->name : NULL;
}
