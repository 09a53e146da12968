/*
 * queue_api.c - acltdtCreateQueue / DestroyQueue, enqueue and dequeue of
 * raw data (acltdtEnqueueData / DequeueData) and of buffers (acltdtEnqueue /
 * Dequeue), and sharing with other processes (acltdtGrantQueue /
 * AttachQueue).  The queues live in shared memory (shmq.c).
 *
 * Codes: full 207014 and empty 207013 for the data calls; the buffer calls
 * fail with 500001 on timeout, as the vendor's device build does.  A buffer
 * enqueued successfully belongs to the queue (it is freed here: the
 * element holds a copy); a dequeued buffer is a new one the caller frees
 * with acltdtFreeBuf.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/process.h"
#include "common/errmsg.h"
#include "rt/rt.h"
#include "tdt/queue_attr.h"
#include "tdt/route.h"
#include "tdt/shmq.h"
#include "tdt/tdt.h"

aclError acltdtCreateQueue(const acltdtQueueAttr *attr, uint32_t *qid) {
  int rc = 0;
  const char *name = "";
  uint32_t depth = ACL__TDT_QUEUE_DEPTH_DEFAULT;
  if (qid == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "qid is NULL");
  if (attr != NULL) {
    if ((rc = acl__tdt_check(__func__, "attr", attr, ACL__H_TDT_QUEUE_ATTR, "acltdtCreateQueueAttr")) != 0)
      return rc;
    name = acl__tdt_queue_attr_name(attr);
    depth = acl__tdt_queue_attr_depth(attr);
  }
  if ((rc = acl__process_require_init(__func__)) != 0)
    return rc;
  if (acl__context_current(__func__, &rc) == NULL)
    return rc;
  if (depth < ACL__SHMQ_DEPTH_MIN || depth > ACL__SHMQ_DEPTH_MAX)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "the attribute's depth is %u; a queue holds %d to %d elements. Remedy: set "
                     "ACL_TDT_QUEUE_DEPTH_UINT32 in that range",
                     depth, ACL__SHMQ_DEPTH_MIN, ACL__SHMQ_DEPTH_MAX);
  return acl__shmq_create(__func__, name, depth, qid);
}

aclError acltdtDestroyQueue(uint32_t qid) {
  uint32_t other = 0;
  if (acl__tdt_routes_using(qid, &other))
    return ACL__FAIL(ACL_ERROR_FAILURE,
                     "queue %u is in a route bound by this process (with queue %u). Remedy: unbind it with "
                     "acltdtUnbindQueueRoutes first",
                     qid, other);
  return acl__shmq_destroy(__func__, qid);
}

aclError acltdtEnqueueData(uint32_t qid, const void *data, size_t dataSize, const void *userData, size_t userDataSize,
                           int32_t timeout, uint32_t rsv) {
  if (data == NULL || dataSize == 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s: an element holds 1 byte or more",
                     data == NULL ? "data is NULL" : "dataSize is 0");
  if (userDataSize > ACL__SHMQ_USER_BYTES || (userData == NULL && userDataSize != 0))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "userData %s with userDataSize %zu: user data is NULL or 1 to %d bytes",
                     userData == NULL ? "NULL" : "set", userDataSize, ACL__SHMQ_USER_BYTES);
  if (rsv != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "rsv is %u; it is reserved and must be 0", rsv);
  int rc = 0;
  acl__shmq *q = acl__shmq_acquire(__func__, qid, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, &rc);
  if (q == NULL)
    return rc;
  acl__shmq_seg_in seg = {data, dataSize, userData, userData == NULL ? 0 : userDataSize};
  rc = acl__shmq_put(__func__, q, &seg, 1, timeout, ACL_ERROR_RT_QUEUE_FULL);
  acl__shmq_release(q);
  return rc;
}

typedef struct deq_data_ctx {
  void *data;
  size_t size, *ret;
  void *user;
  size_t user_size;
} deq_data_ctx;

static int take_data(void *ctx, const acl__shmq_seg_out *segs, uint32_t nseg) {
  deq_data_ctx *c = ctx;
  size_t total = 0, at = 0;
  for (uint32_t i = 0; i < nseg; i++)
    total += segs[i].len;
  for (uint32_t i = 0; i < nseg && at < c->size; i++) {
    size_t n = segs[i].len < c->size - at ? segs[i].len : c->size - at;
    memcpy((char *)c->data + at, segs[i].data, n);
    at += n;
  }
  if (c->user != NULL && c->user_size != 0 && nseg != 0)
    memcpy(c->user, segs[0].user, c->user_size);
  *c->ret = total;
  return 0;
}

aclError acltdtDequeueData(uint32_t qid, void *data, size_t dataSize, size_t *retDataSize, void *userData,
                           size_t userDataSize, int32_t timeout) {
  if (data == NULL || dataSize == 0 || retDataSize == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "%s", data == NULL ? "data is NULL" : dataSize == 0 ? "dataSize is 0"
                                                                                                 : "retDataSize is NULL");
  if (userDataSize > ACL__SHMQ_USER_BYTES || (userData == NULL && userDataSize != 0))
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "userData %s with userDataSize %zu: user data is NULL or 1 to %d bytes",
                     userData == NULL ? "NULL" : "set", userDataSize, ACL__SHMQ_USER_BYTES);
  int rc = 0;
  acl__shmq *q = acl__shmq_acquire(__func__, qid, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, &rc);
  if (q == NULL)
    return rc;
  deq_data_ctx c = {data, dataSize, retDataSize, userData, userDataSize};
  rc = acl__shmq_take(__func__, q, timeout, ACL_ERROR_RT_QUEUE_EMPTY, take_data, &c);
  acl__shmq_release(q);
  return rc;
}

aclError acltdtEnqueue(uint32_t qid, acltdtBuf buf, int32_t timeout) {
  uint32_t n = 0;
  int rc = 0;
  if (buf == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "buf is NULL. Remedy: pass a buffer from acltdtAllocBuf");
  if ((rc = aclrtGetBufChainNum(buf, &n)) != 0)
    return ACL__FAIL(rc, "buf %p is not a live buffer head (see the message before this one). Remedy: pass a "
                         "buffer from acltdtAllocBuf",
                     buf);
  acl__shmq_seg_in *segs = calloc(n, sizeof *segs);
  unsigned char(*user)[ACL__SHMQ_USER_BYTES] = calloc(n, sizeof *user);
  if (segs == NULL || user == NULL) {
    free(segs);
    free(user);
    return ACL__FAIL(ACL_ERROR_BAD_ALLOC, "out of host memory for a chain of %u buffers", n);
  }
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    aclrtMbuf b = NULL;
    void *p = NULL;
    size_t size = 0, len = 0;
    rc = aclrtGetBufFromChain(buf, i, &b);
    if (rc == 0)
      rc = aclrtGetBufData(b, &p, &size);
    if (rc == 0)
      rc = aclrtGetBufDataLen(b, &len);
    if (rc == 0)
      rc = aclrtGetBufUserData(b, user[i], ACL__SHMQ_USER_BYTES, 0);
    segs[i] = (acl__shmq_seg_in){p, len, user[i], ACL__SHMQ_USER_BYTES};
  }
  acl__shmq *q = rc == 0 ? acl__shmq_acquire(__func__, qid, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, &rc) : NULL;
  if (q != NULL) {
    rc = acl__shmq_put(__func__, q, segs, n, timeout, ACL_ERROR_FAILURE);
    acl__shmq_release(q);
    if (rc == 0)
      (void)aclrtFreeBuf(buf); /* the queue holds the element now */
  }
  free(segs);
  free(user);
  return rc;
}

static int take_buf(void *ctx, const acl__shmq_seg_out *segs, uint32_t nseg) {
  aclrtMbuf head = NULL;
  int rc = 0;
  for (uint32_t i = 0; i < nseg && rc == 0; i++) {
    aclrtMbuf b = NULL;
    void *p = NULL;
    size_t size = 0;
    rc = aclrtAllocBuf(&b, segs[i].len == 0 ? 1 : segs[i].len);
    if (rc != 0)
      break;
    (void)aclrtGetBufData(b, &p, &size);
    memcpy(p, segs[i].data, segs[i].len);
    (void)aclrtSetBufDataLen(b, segs[i].len);
    (void)aclrtSetBufUserData(b, segs[i].user, ACL__SHMQ_USER_BYTES, 0);
    if (head == NULL)
      head = b;
    else if ((rc = aclrtAppendBufChain(head, b)) != 0)
      (void)aclrtFreeBuf(b);
  }
  if (rc != 0) {
    if (head != NULL)
      (void)aclrtFreeBuf(head);
    return rc;
  }
  *(aclrtMbuf *)ctx = head;
  return 0;
}

aclError acltdtDequeue(uint32_t qid, acltdtBuf *buf, int32_t timeout) {
  if (buf == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "buf is NULL");
  int rc = 0;
  acl__shmq *q = acl__shmq_acquire(__func__, qid, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, &rc);
  if (q == NULL)
    return rc;
  aclrtMbuf got = NULL;
  rc = acl__shmq_take(__func__, q, timeout, ACL_ERROR_FAILURE, take_buf, &got);
  acl__shmq_release(q);
  if (rc == 0)
    *buf = got;
  return rc;
}

aclError acltdtGrantQueue(uint32_t qid, int32_t pid, uint32_t permission, int32_t timeout) {
  if (pid <= 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "pid is %d; it is the process id of the process to grant", (int)pid);
  if (permission == 0 || (permission & ~ACL__SHMQ_PERM_ALL) != 0)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM,
                     "permission is 0x%x: it is a non-empty combination of ACL_TDT_QUEUE_PERMISSION_MANAGE (1), "
                     "_DEQUEUE (2) and _ENQUEUE (4)",
                     permission);
  if (timeout < -1)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "timeout is %d ms: -1, 0 or a positive number", (int)timeout);
  int rc = 0;
  acl__shmq *q = acl__shmq_acquire(__func__, qid, ACL_TDT_QUEUE_PERMISSION_MANAGE, &rc);
  if (q == NULL)
    return rc;
  rc = acl__shmq_grant(__func__, q, pid, permission);
  acl__shmq_release(q);
  return rc;
}

aclError acltdtAttachQueue(uint32_t qid, int32_t timeout, uint32_t *permission) {
  int rc = 0;
  if (permission == NULL)
    return ACL__FAIL(ACL_ERROR_INVALID_PARAM, "permission is NULL");
  if ((rc = acl__process_require_init(__func__)) != 0)
    return rc;
  return acl__shmq_attach(__func__, qid, timeout, permission);
}
