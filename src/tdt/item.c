/*
 * item.c - TDT data items: one tensor (type, data type, dims, a borrowed
 * data pointer and size, slice info) or a marker (end of sequence,
 * abnormal) that carries no data.
 *
 * Ownership: a user-made item borrows its data and owns its dims; the user
 * destroys it (after the datasets that list it).  Items of a received
 * dataset belong to that dataset (acltdtDestroyDataItem refuses them).
 */
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/tdt.h"

int acl__tdt_item_valid(const void *p) { return p != NULL && acl__handle_valid(p, ACL__H_TDT_ITEM); }

acltdtDataItem *acltdtCreateDataItem(acltdtTensorType tdtType, const int64_t *dims, size_t dimNum,
                                     aclDataType dataType, void *data, size_t size) {
  if (tdtType < ACL_TENSOR_DATA_TENSOR || tdtType > ACL_TENSOR_DATA_END_TENSOR) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "tdtType %d is not an acltdtTensorType (0 to 4)", (int)tdtType);
    return NULL;
  }
  if ((dims == NULL) != (dimNum == 0)) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dims is %s but dimNum is %zu: pass both (a tensor) or neither (a scalar)",
              dims == NULL ? "NULL" : "set", dimNum);
    return NULL;
  }
  if (dimNum > ACL__TDT_MAX_DIMS) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dimNum %zu is over the limit of %d dims", dimNum, ACL__TDT_MAX_DIMS);
    return NULL;
  }
  if (tdtType != ACL_TENSOR_DATA_TENSOR && dims != NULL) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM,
              "tdtType %d is a marker, which has no dims. Remedy: pass dims NULL and dimNum 0", (int)tdtType);
    return NULL;
  }
  if (data == NULL && size != 0) {
    ACL__FAIL(ACL_ERROR_INVALID_PARAM, "data is NULL but size is %zu", size);
    return NULL;
  }
  acltdtDataItem *it = calloc(1, sizeof *it);
  int64_t *d = dimNum == 0 ? NULL : malloc(dimNum * sizeof *d);
  if (it == NULL || (dimNum != 0 && d == NULL)) {
    free(it);
    free(d);
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a data item");
    return NULL;
  }
  if (dimNum != 0)
    memcpy(d, dims, dimNum * sizeof *d);
  it->type = tdtType;
  it->dims = d;
  it->dim_num = dimNum;
  if (tdtType == ACL_TENSOR_DATA_TENSOR || tdtType == ACL_TENSOR_DATA_SLICE_TENSOR ||
      tdtType == ACL_TENSOR_DATA_END_TENSOR) {
    it->dtype = dataType;
    it->data = data;
    it->size = size;
  } else {
    it->dtype = ACL_DT_UNDEFINED; /* markers carry no data */
  }
  acl__handle_register(it, ACL__H_TDT_ITEM);
  return it;
}

aclError acltdtDestroyDataItem(acltdtDataItem *dataItem) {
  int rc = acl__tdt_check(__func__, "dataItem", dataItem, ACL__H_TDT_ITEM, "acltdtCreateDataItem");
  if (rc != 0)
    return rc;
  if (dataItem->received)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dataItem %p belongs to a received dataset. Remedy: destroy the dataset with "
                     "acltdtDestroyDataset, which frees its items", (void *)dataItem);
  acl__handle_unregister(dataItem);
  free(dataItem->dims);
  free(dataItem);
  return 0;
}

acltdtTensorType acltdtGetTensorTypeFromItem(const acltdtDataItem *dataItem) {
  return acl__tdt_item_valid(dataItem) ? dataItem->type : ACL_TENSOR_DATA_UNDEFINED;
}

aclDataType acltdtGetDataTypeFromItem(const acltdtDataItem *dataItem) {
  return acl__tdt_item_valid(dataItem) ? dataItem->dtype : ACL_DT_UNDEFINED;
}

void *acltdtGetDataAddrFromItem(const acltdtDataItem *dataItem) {
  return acl__tdt_item_valid(dataItem) ? dataItem->data : NULL;
}

size_t acltdtGetDataSizeFromItem(const acltdtDataItem *dataItem) {
  return acl__tdt_item_valid(dataItem) ? dataItem->size : 0;
}

size_t acltdtGetDimNumFromItem(const acltdtDataItem *dataItem) {
  return acl__tdt_item_valid(dataItem) ? dataItem->dim_num : 0;
}

aclError acltdtGetSliceInfoFromItem(const acltdtDataItem *dataItem, size_t *sliceNum, size_t *sliceId) {
  int rc = acl__tdt_check(__func__, "dataItem", dataItem, ACL__H_TDT_ITEM, "acltdtCreateDataItem");
  if (rc != 0)
    return rc;
  if (sliceNum == NULL || sliceId == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", sliceNum == NULL ? "sliceNum" : "sliceId");
  *sliceNum = dataItem->slice_num;
  *sliceId = dataItem->slice_id;
  return 0;
}

aclError acltdtGetDimsFromItem(const acltdtDataItem *dataItem, int64_t *dims, size_t dimNum) {
  int rc = acl__tdt_check(__func__, "dataItem", dataItem, ACL__H_TDT_ITEM, "acltdtCreateDataItem");
  if (rc != 0)
    return rc;
  if ((dims == NULL) != (dimNum == 0))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dims is %s but dimNum is %zu: dims is NULL exactly when dimNum is 0",
                     dims == NULL ? "NULL" : "set", dimNum);
  if (dimNum < dataItem->dim_num)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "dimNum %zu is smaller than the item's %zu dims. Remedy: size dims with "
                     "acltdtGetDimNumFromItem",
                     dimNum, dataItem->dim_num);
  if (dataItem->dim_num != 0)
    memcpy(dims, dataItem->dims, dataItem->dim_num * sizeof *dims);
  return 0;
}
