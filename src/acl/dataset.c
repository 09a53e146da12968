/*
 * dataset.c - aclmdlDataset: the input or output buffers of one model
 * execution, in order, each with an optional tensor descriptor.  Plain host
 * data: no aclInit is needed, as with the vendor's.
 *
 * Ownership, as the vendor's: a dataset never owns its aclDataBuffers
 * (aclmdlDestroyDataset leaves them to the caller), but it owns the tensor
 * descriptors it holds - aclmdlSetDatasetTensorDesc stores a copy, and
 * aclmdlDestroyDataset frees the copies.  The caller keeps and destroys its
 * own descriptor.
 *
 * Every dataset is registered in the runtime's handle table, so a destroyed
 * or garbage pointer is rejected with a message instead of being
 * dereferenced.  A dataset is not locked: one dataset must not be changed
 * by two threads at once, nor while an execution that uses it runs.
 */
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "acl/tensor_desc.h"
#include "common/errmsg.h"
#include "model/io_data.h"
#include "rt/rt.h"
#include "prof/prof.h"


static int ds_check(const char *api, const aclmdlDataset *ds) {
  if (ds == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "dataset is NULL");
  if (acl__handle_valid(ds, ACL__H_DATASET))
    return 0;
  for (int t = 1; t < ACL__H_TYPE_COUNT; t++)
    if (acl__handle_valid(ds, (acl__handle_type)t))
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "dataset %p is a %s handle, not an aclmdlDataset", (const void *)ds,
                       acl__handle_type_name((acl__handle_type)t));
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "dataset %p is not a live aclmdlDataset (it was destroyed, or never created by "
                   "aclmdlCreateDataset)", (const void *)ds);
}

static int ds_check_index(const char *api, const aclmdlDataset *ds, size_t index) {
  if (index < ds->n)
    return 0;
  if (ds->n == 0)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "index is %zu; dataset %p holds 0 buffers. Remedy: add the buffers with "
                     "aclmdlAddDatasetBuffer first", index, (const void *)ds);
  return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                   "index is %zu; dataset %p holds %zu buffers (indexes 0 to %zu are valid). Remedy: add the "
                   "buffer with aclmdlAddDatasetBuffer first", index, (const void *)ds, ds->n, ds->n - 1);
}

aclmdlDataset *aclmdlCreateDataset(void) {
  ACL__PROF_API_SCOPE();
  aclmdlDataset *ds = calloc(1, sizeof(*ds));
  if (ds == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte aclmdlDataset", sizeof(*ds));
    return NULL;
  }
  acl__handle_register(ds, ACL__H_DATASET);
  if (!acl__handle_valid(ds, ACL__H_DATASET)) {
    free(ds);
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory to register a dataset");
    return NULL;
  }
  return ds;
}

aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  ACL__PROF_API_SCOPE();
  int rc = ds_check(__func__, dataset);
  if (rc != 0)
    return rc;
  aclmdlDataset *ds = (aclmdlDataset *)dataset;
  acl__handle_unregister(ds);
  for (size_t i = 0; i < ds->n; i++)
    acl__tensor_desc_free_owned(ds->entries[i].desc); /* the buffers stay the caller's */
  free(ds->entries);
  free(ds);
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer) {
  ACL__PROF_API_SCOPE();
  int rc = ds_check(__func__, dataset);
  if (rc != 0)
    return rc;
  rc = acl__data_buffer_check(__func__, "dataBuffer", dataBuffer);
  if (rc != 0)
    return rc;
  if (dataset->n == dataset->cap) {
    size_t cap = dataset->cap ? dataset->cap * 2 : 8;
    acl__ds_entry *e = cap < SIZE_MAX / sizeof(*e) ? realloc(dataset->entries, cap * sizeof(*e)) : NULL;
    if (e == NULL)
      return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory to hold %zu buffers in dataset %p", cap,
                       (void *)dataset);
    dataset->entries = e;
    dataset->cap = cap;
  }
  dataset->entries[dataset->n].buf = dataBuffer;
  dataset->entries[dataset->n].desc = NULL;
  dataset->n++;
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  ACL__PROF_API_SCOPE();
  if (ds_check(__func__, dataset) != 0)
    return 0;
  return dataset->n;
}

aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index) {
  ACL__PROF_API_SCOPE();
  if (ds_check(__func__, dataset) != 0 || ds_check_index(__func__, dataset, index) != 0)
    return NULL;
  return dataset->entries[index].buf;
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc, size_t index) {
  ACL__PROF_API_SCOPE();
  int rc = ds_check(__func__, dataset);
  if (rc == 0)
    rc = acl__tensor_desc_check(__func__, "tensorDesc", tensorDesc);
  if (rc == 0)
    rc = ds_check_index(__func__, dataset, index);
  if (rc != 0)
    return rc;
  acl__ds_entry *e = &dataset->entries[index];
  if (e->desc == tensorDesc)
    return ACL_SUCCESS; /* the descriptor it already holds */
  aclTensorDesc *copy = acl__tensor_desc_clone_owned(__func__, tensorDesc);
  if (copy == NULL)
    return ACL_ERROR_BAD_ALLOC; /* recorded by the copy */
  acl__tensor_desc_free_owned(e->desc);
  e->desc = copy;
  return ACL_SUCCESS;
}

aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index) {
  ACL__PROF_API_SCOPE();
  if (ds_check(__func__, dataset) != 0 || ds_check_index(__func__, dataset, index) != 0)
    return NULL;
  return dataset->entries[index].desc; /* NULL, without a failure, when none was set */
}
