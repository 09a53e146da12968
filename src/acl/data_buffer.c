/*
 * data_buffer.c - aclDataBuffer: a (pointer, size) pair that the model API
 * passes around.  The buffer never owns the memory it points to.
 */
#include <stdlib.h>

#include "acl/acl.h"
#include "common/errmsg.h"

struct aclDataBuffer {
  void *data;
  size_t length;
};

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  /* (NULL, 0) is allowed: an empty output buffer the model fills itself. */
  aclDataBuffer *b = malloc(sizeof(*b));
  if (b == NULL) {
    ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a %zu-byte aclDataBuffer", sizeof(*b));
    return NULL;
  }
  b->data = data;
  b->length = size;
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  if (dataBuffer == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
  free((void *)dataBuffer);
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  if (dataBuffer == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "dataBuffer is NULL");
  dataBuffer->data = data;
  dataBuffer->length = size;
  return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) { return dataBuffer ? dataBuffer->data : NULL; }

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  /* Deprecated by the vendor because it truncates sizes above 4 GiB. */
  return dataBuffer ? (uint32_t)dataBuffer->length : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) { return dataBuffer ? dataBuffer->length : 0; }
