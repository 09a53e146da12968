/*
 * data_buffer.c - aclDataBuffer: a (pointer, size) pair that the model API
 * passes around.  The buffer never owns the memory it points to.
 *
 * Every buffer is registered in the runtime's handle table, so a destroyed
 * or garbage pointer (bindings pass handles as integers) is rejected with a
 * message instead of being dereferenced.  The getters, which return values
 * rather than codes, return NULL or 0 for such a pointer and record why.
 */
#include <stdlib.h>

#include "acl/acl.h"
#include "common/errmsg.h"
#include "model/io_data.h"
#include "rt/rt.h"
#include "prof/prof.h"



aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  ACL__PROF_API_SCOPE();
  /* (NULL, 0) is allowed: an empty output buffer the model fills itself. */
  aclDataBuffer *b = malloc(sizeof(*b));
  if (b == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte aclDataBuffer", sizeof(*b));
    return NULL;
  }
  b->data = data;
  b->length = size;
  acl__handle_register(b, ACL__H_DATA_BUFFER);
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  ACL__PROF_API_SCOPE();
  int rc = acl__data_buffer_check(__func__, "dataBuffer", dataBuffer);
  if (rc != 0)
    return rc;
  acl__handle_unregister((void *)dataBuffer);
  free((void *)dataBuffer);
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  ACL__PROF_API_SCOPE();
  int rc = acl__data_buffer_check(__func__, "dataBuffer", dataBuffer);
  if (rc != 0)
    return rc;
  dataBuffer->data = data;
  dataBuffer->length = size;
  return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  ACL__PROF_API_SCOPE();
  return acl__data_buffer_check(__func__, "dataBuffer", dataBuffer) == 0 ? dataBuffer->data : NULL;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  ACL__PROF_API_SCOPE();
  /* Deprecated by the vendor because it truncates sizes above 4 GiB. */
  return acl__data_buffer_check(__func__, "dataBuffer", dataBuffer) == 0 ? (uint32_t)dataBuffer->length : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  ACL__PROF_API_SCOPE();
  return acl__data_buffer_check(__func__, "dataBuffer", dataBuffer) == 0 ? dataBuffer->length : 0;
}
