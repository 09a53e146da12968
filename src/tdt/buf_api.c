/*
 * buf_api.c - the acltdt*Buf functions: the shared buffers that
 * acltdtEnqueue / acltdtDequeue carry.  They are the runtime's aclrtMbuf
 * buffers (src/acl/buf_api.c: a data area, a 96-byte private area, a data
 * length, chains of up to 128), as on the vendor's device where both names
 * reach the same buffer pool; only the allocation type is TDT's own.
 */
#include "common/errmsg.h"
#include "tdt/tdt.h"

aclError acltdtAllocBuf(size_t size, uint32_t type, acltdtBuf *buf) {
  if (type != ACL_TDT_NORMAL_MEM && type != ACL_TDT_DVPP_MEM)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "type is %u: ACL_TDT_NORMAL_MEM (0) or ACL_TDT_DVPP_MEM (1)", type);
  return aclrtAllocBuf(buf, size);
}

aclError acltdtFreeBuf(acltdtBuf buf) { return aclrtFreeBuf(buf); }

aclError acltdtGetBufData(const acltdtBuf buf, void **dataPtr, size_t *size) {
  return aclrtGetBufData(buf, dataPtr, size);
}

aclError acltdtSetBufDataLen(acltdtBuf buf, size_t len) { return aclrtSetBufDataLen(buf, len); }

aclError acltdtGetBufDataLen(acltdtBuf buf, size_t *len) { return aclrtGetBufDataLen(buf, len); }

aclError acltdtAppendBufChain(acltdtBuf headBuf, acltdtBuf buf) { return aclrtAppendBufChain(headBuf, buf); }

aclError acltdtGetBufChainNum(acltdtBuf headBuf, uint32_t *num) { return aclrtGetBufChainNum(headBuf, num); }

aclError acltdtGetBufFromChain(acltdtBuf headBuf, uint32_t index, acltdtBuf *buf) {
  return aclrtGetBufFromChain(headBuf, index, buf);
}

aclError acltdtGetBufUserData(const acltdtBuf buf, void *dataPtr, size_t size, size_t offset) {
  return aclrtGetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtSetBufUserData(acltdtBuf buf, const void *dataPtr, size_t size, size_t offset) {
  return aclrtSetBufUserData(buf, dataPtr, size, offset);
}

aclError acltdtCopyBufRef(const acltdtBuf buf, acltdtBuf *newBuf) { return aclrtCopyBufRef(buf, newBuf); }
