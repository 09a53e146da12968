/*
 * tdt_queue.c - TDT queues (acl/acl_tdt_queue.h) through the public API:
 * attributes, create / destroy, data and buffer enqueue / dequeue with
 * timeouts, grant / attach, routes and route queries, the vendor's two
 * queue samples, a producer thread, and other processes (tdt_proc.c, fork
 * + exec): a consumer, a buffer chain, a peer killed with SIGKILL, a
 * process without permission, a dead creator's queue reclaimed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"
#include "harness.h"

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static uint32_t make_queue(const char *name, uint32_t depth) {
  acltdtQueueAttr *a = acltdtCreateQueueAttr();
  CHECK_NOT_NULL(a);
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth), ACL_SUCCESS);
  uint32_t qid = 0;
  CHECK_INT_EQ(acltdtCreateQueue(a, &qid), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueAttr(a), ACL_SUCCESS);
  return qid;
}

TEST(attr_codes) {
  acltdtQueueAttr *a = acltdtCreateQueueAttr();
  CHECK_NOT_NULL(a);
  const char *name = NULL;
  uint32_t depth = 0;
  size_t ret = 0;
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &ret, &name), ACL_SUCCESS);
  CHECK_INT_EQ(ret, 8);
  CHECK_STR_EQ(name, "");
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof depth, &ret, &depth), ACL_SUCCESS);
  CHECK_INT_EQ(ret, 4);
  CHECK_INT_EQ(depth, 8);
  const char *mine = "q1";
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof mine, &mine), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof name, &ret, &name), ACL_SUCCESS);
  CHECK_STR_EQ(name, "q1");
  CHECK(name != mine); /* the attribute's own copy */
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, 16, &mine), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 8, &depth), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 4, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSetQueueAttr(a, (acltdtQueueAttrType)5, 4, &depth), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, 4, &ret, &name), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 2, &ret, &depth), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 4, NULL, &depth), ACL_ERROR_INVALID_PARAM);
  char longname[200];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  const char *lp = longname;
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_NAME_PTR, sizeof lp, &lp), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSetQueueAttr(NULL, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyQueueAttr(a), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueAttr(a), ACL_ERROR_INVALID_PARAM);
}

TEST(create_destroy_codes) {
  uint32_t qid = 0;
  CHECK_INT_EQ(acltdtCreateQueue(NULL, &qid), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtCreateQueue(NULL, &qid), ACL_ERROR_RT_CONTEXT_NULL); /* needs a current device */
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtCreateQueue(NULL, NULL), ACL_ERROR_INVALID_PARAM);
  acltdtQueueAttr *a = acltdtCreateQueueAttr();
  uint32_t depth = 1;
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtCreateQueue(a, &qid), ACL_ERROR_INVALID_PARAM);
  depth = 8193;
  CHECK_INT_EQ(acltdtSetQueueAttr(a, ACL_TDT_QUEUE_DEPTH_UINT32, 4, &depth), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtCreateQueue(a, &qid), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyQueueAttr(a), ACL_SUCCESS);
  uint32_t q1 = 0, q2 = 0;
  CHECK_INT_EQ(acltdtCreateQueue(NULL, &q1), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtCreateQueue(NULL, &q2), ACL_SUCCESS);
  CHECK_INT_NE(q1, q2);
  /* the queue is a 0600 object named with the user id */
  char path[128];
  struct stat st;
  snprintf(path, sizeof path, "/dev/shm/openacl-tdtq-u%u-%u", (unsigned)getuid(), q1);
  CHECK_INT_EQ(stat(path, &st), 0);
  CHECK_INT_EQ(st.st_mode & 0777, 0600);
  CHECK_INT_EQ(acltdtDestroyQueue(q1), ACL_SUCCESS);
  CHECK_INT_NE(stat(path, &st), 0); /* nothing left behind */
  CHECK_INT_EQ(acltdtDestroyQueue(q1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyQueue(q2), ACL_SUCCESS);
  teardown();
}

TEST(data_enqueue_dequeue) {
  setup();
  uint32_t q = make_queue("data", 2);
  char out[16];
  size_t got = 0;
  int user = 0;
  CHECK_INT_EQ(acltdtEnqueueData(q, NULL, 4, NULL, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtEnqueueData(q, "a", 0, NULL, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtEnqueueData(q, "a", 2, NULL, 0, 0, 1), ACL_ERROR_INVALID_PARAM); /* rsv */
  CHECK_INT_EQ(acltdtEnqueueData(q, "a", 2, &user, 97, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtEnqueueData(q, "a", 2, NULL, 0, -2, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtEnqueueData(9999, "a", 2, NULL, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  user = 41;
  CHECK_INT_EQ(acltdtEnqueueData(q, "first", 6, &user, sizeof user, 0, 0), ACL_SUCCESS);
  user = 42;
  CHECK_INT_EQ(acltdtEnqueueData(q, "second one", 11, &user, sizeof user, -1, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtEnqueueData(q, "third", 6, NULL, 0, 0, 0), ACL_ERROR_RT_QUEUE_FULL);
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(acltdtEnqueueData(q, "third", 6, NULL, 0, 40, 0), ACL_ERROR_RT_QUEUE_FULL);
  CHECK(th_now_ns() - t0 >= 35000000ull);
  CHECK_INT_EQ(acltdtDequeueData(q, NULL, 4, &got, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDequeueData(q, out, 4, NULL, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDequeueData(q, out, sizeof out, &got, &user, sizeof user, 0), ACL_SUCCESS);
  CHECK_INT_EQ(got, 6);
  CHECK_STR_EQ(out, "first");
  CHECK_INT_EQ(user, 41);
  /* a short buffer gets the start; retDataSize says the element's size */
  memset(out, 0, sizeof out);
  CHECK_INT_EQ(acltdtDequeueData(q, out, 6, &got, NULL, 0, 1000), ACL_SUCCESS);
  CHECK_INT_EQ(got, 11);
  CHECK(memcmp(out, "second", 6) == 0);
  CHECK_INT_EQ(acltdtDequeueData(q, out, sizeof out, &got, NULL, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  t0 = th_now_ns();
  CHECK_INT_EQ(acltdtDequeueData(q, out, sizeof out, &got, NULL, 0, 30), ACL_ERROR_RT_QUEUE_EMPTY);
  CHECK(th_now_ns() - t0 >= 25000000ull);
  /* large elements wrap around the ring */
  static char big[3 << 20], back[3 << 20];
  for (int round = 0; round < 40; round++) {
    memset(big, 'a' + round % 26, sizeof big);
    CHECK_INT_EQ(acltdtEnqueueData(q, big, sizeof big, NULL, 0, 0, 0), ACL_SUCCESS);
    CHECK_INT_EQ(acltdtDequeueData(q, back, sizeof back, &got, NULL, 0, 0), ACL_SUCCESS);
    CHECK_INT_EQ(got, sizeof big);
    CHECK(memcmp(big, back, sizeof big) == 0);
  }
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(buffer_enqueue_dequeue) {
  setup();
  uint32_t q = make_queue("bufs", 4);
  acltdtBuf head = NULL, tail = NULL, got = NULL, copy = NULL;
  CHECK_INT_EQ(acltdtAllocBuf(64, 5, &head), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtAllocBuf(64, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAllocBuf(32, ACL_TDT_NORMAL_MEM, &tail), ACL_SUCCESS);
  void *p = NULL;
  size_t size = 0, len = 9;
  CHECK_INT_EQ(acltdtGetBufData(head, &p, &size), ACL_SUCCESS);
  CHECK_INT_EQ(size, 64);
  CHECK_INT_EQ(acltdtGetBufDataLen(head, &len), ACL_SUCCESS);
  CHECK_INT_EQ(len, 0);
  memcpy(p, "head", 4);
  CHECK_INT_EQ(acltdtSetBufDataLen(head, 4), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSetBufDataLen(head, 65), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtSetBufUserData(head, "meta", 4, 10), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSetBufUserData(head, "meta", 4, 94), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetBufData(tail, &p, &size), ACL_SUCCESS);
  memcpy(p, "tail!", 5);
  CHECK_INT_EQ(acltdtSetBufDataLen(tail, 5), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAppendBufChain(head, tail), ACL_SUCCESS);
  uint32_t num = 0;
  CHECK_INT_EQ(acltdtGetBufChainNum(head, &num), ACL_SUCCESS);
  CHECK_INT_EQ(num, 2);
  CHECK_INT_EQ(acltdtCopyBufRef(head, &copy), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtFreeBuf(copy), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtEnqueue(q, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtEnqueue(q, head, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtFreeBuf(head), ACL_ERROR_INVALID_PARAM); /* the queue took it */
  CHECK_INT_EQ(acltdtDequeue(q, NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDequeue(q, &got, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetBufChainNum(got, &num), ACL_SUCCESS);
  CHECK_INT_EQ(num, 2);
  char meta[4];
  CHECK_INT_EQ(acltdtGetBufUserData(got, meta, 4, 10), ACL_SUCCESS);
  CHECK(memcmp(meta, "meta", 4) == 0);
  acltdtBuf second = NULL;
  CHECK_INT_EQ(acltdtGetBufFromChain(got, 1, &second), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetBufFromChain(got, 2, &second), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetBufDataLen(second, &len), ACL_SUCCESS);
  CHECK_INT_EQ(len, 5);
  CHECK_INT_EQ(acltdtGetBufData(second, &p, &size), ACL_SUCCESS);
  CHECK(memcmp(p, "tail!", 5) == 0);
  CHECK_INT_EQ(acltdtFreeBuf(got), ACL_SUCCESS);
  /* data and buffers mix: an EnqueueData element comes out as one buffer */
  CHECK_INT_EQ(acltdtEnqueueData(q, "raw", 3, NULL, 0, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDequeue(q, &got, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetBufDataLen(got, &len), ACL_SUCCESS);
  CHECK_INT_EQ(len, 3);
  CHECK_INT_EQ(acltdtFreeBuf(got), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDequeue(q, &got, 0), ACL_ERROR_FAILURE); /* empty: the vendor's timeout code */
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(grant_attach_in_process) {
  setup();
  uint32_t q = make_queue("grant", 4), perm = 0;
  CHECK_INT_EQ(acltdtAttachQueue(q, 0, &perm), ACL_SUCCESS); /* the creator holds every bit */
  CHECK_INT_EQ(perm, 7);
  CHECK_INT_EQ(acltdtAttachQueue(q, 0, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGrantQueue(q, 0, 2, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGrantQueue(q, 12345, 0, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGrantQueue(q, 12345, 8, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGrantQueue(q, 12345, 6, -5), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGrantQueue(q, 12345, 6, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGrantQueue(9999, 12345, 6, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtAttachQueue(9999, 0, &perm), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

static void add_route(acltdtQueueRouteList *l, uint32_t s, uint32_t d) {
  acltdtQueueRoute *r = acltdtCreateQueueRoute(s, d);
  CHECK_NOT_NULL(r);
  CHECK_INT_EQ(acltdtAddQueueRoute(l, r), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS); /* the list holds a copy */
}

static int32_t route_status(acltdtQueueRouteList *l, size_t i) {
  acltdtQueueRoute *r = acltdtCreateQueueRoute(0, 0);
  int32_t st = -1;
  size_t ret = 0;
  CHECK_INT_EQ(acltdtGetQueueRoute(l, i, r), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, 4, &ret, &st), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS);
  return st;
}

TEST(routes_forward_and_query) {
  setup();
  uint32_t src = make_queue("src", 4), d1 = make_queue("d1", 4), d2 = make_queue("d2", 4);
  acltdtQueueRoute *r = acltdtCreateQueueRoute(src, d1);
  uint32_t v = 0;
  size_t ret = 0;
  CHECK_INT_EQ(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_DST_UINT32, 4, &ret, &v), ACL_SUCCESS);
  CHECK_INT_EQ(v, d1);
  CHECK_INT_EQ(acltdtGetQueueRouteParam(r, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, 2, &ret, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtGetQueueRouteParam(r, (acltdtQueueRouteParamType)9, 4, &ret, &v), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtDestroyQueueRoute(r), ACL_SUCCESS);
  acltdtQueueRouteList *l = acltdtCreateQueueRouteList();
  add_route(l, src, d1);
  add_route(l, src, d2);
  CHECK_INT_EQ(acltdtGetQueueRouteNum(l), 2);
  CHECK_INT_EQ(acltdtGetQueueRouteNum(NULL), 0);
  CHECK_INT_EQ(route_status(l, 0), ACL_TDT_QUEUE_ROUTE_UNBIND);
  CHECK_INT_EQ(acltdtBindQueueRoutes(l), ACL_SUCCESS);
  CHECK_INT_EQ(route_status(l, 1), ACL_TDT_QUEUE_ROUTE_BIND);
  /* fan-out: both destinations get the element */
  char out[8];
  size_t got = 0;
  CHECK_INT_EQ(acltdtEnqueueData(src, "fan", 4, NULL, 0, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDequeueData(d1, out, sizeof out, &got, NULL, 0, 0), ACL_SUCCESS);
  CHECK_STR_EQ(out, "fan");
  CHECK_INT_EQ(acltdtDequeueData(d2, out, sizeof out, &got, NULL, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDequeueData(src, out, sizeof out, &got, NULL, 0, 0), ACL_ERROR_RT_QUEUE_EMPTY);
  /* a cycle, a self route and a missing queue are refused, with status 2 */
  acltdtQueueRouteList *bad = acltdtCreateQueueRouteList();
  add_route(bad, d1, src);
  add_route(bad, d2, d2);
  add_route(bad, d2, 9999);
  CHECK_INT_EQ(acltdtBindQueueRoutes(bad), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(route_status(bad, 0), ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL);
  CHECK_INT_EQ(route_status(bad, 1), ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL);
  CHECK_INT_EQ(route_status(bad, 2), ACL_TDT_QUEUE_ROUTE_BIND_ABNORMAL);
  CHECK_INT_EQ(acltdtUnbindQueueRoutes(bad), ACL_ERROR_FAILURE); /* never bound */
  /* queries */
  acltdtQueueRouteQueryInfo *qi = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteList *res = acltdtCreateQueueRouteList();
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM); /* no mode */
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC;
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode), 0);
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM); /* no source id */
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 4, &src), 0);
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, 8, &src),
               ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetQueueRouteNum(res), 2);
  mode = ACL_TDT_QUEUE_ROUTE_QUERY_DST;
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode), 0);
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, 4, &d2), 0);
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS); /* the list is cleared first */
  CHECK_INT_EQ(acltdtGetQueueRouteNum(res), 1);
  mode = ACL_TDT_QUEUE_ROUTE_QUERY_ABNORMAL;
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode), 0);
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetQueueRouteNum(res), 0);
  mode = (acltdtQueueRouteQueryMode)7;
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(qi, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof mode, &mode), 0);
  CHECK_INT_EQ(acltdtQueryQueueRoutes(qi, res), ACL_ERROR_INVALID_PARAM);
  /* a routed queue cannot be destroyed; unbound it can */
  CHECK_INT_EQ(acltdtDestroyQueue(src), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(acltdtDestroyQueue(d1), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(acltdtUnbindQueueRoutes(l), ACL_SUCCESS);
  CHECK_INT_EQ(route_status(l, 0), ACL_TDT_QUEUE_ROUTE_UNBIND);
  CHECK_INT_EQ(acltdtEnqueueData(src, "stay", 5, NULL, 0, 0, 0), ACL_SUCCESS); /* no longer forwarded */
  CHECK_INT_EQ(acltdtDequeueData(src, out, sizeof out, &got, NULL, 0, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueue(src), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueue(d1), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueue(d2), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteQueryInfo(qi), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(res), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(bad), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(l), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(l), ACL_ERROR_INVALID_PARAM);
  teardown();
}

/* ---- the vendor's samples (tdt_queue/0_simple_queue, 1_queue_route) ------ */

TEST(sample_simple_queue) {
  setup();
  acltdtQueueAttr *attr = acltdtCreateQueueAttr();
  const char *name = "simple_queue";
  uint32_t depth = 4;
  CHECK_INT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(depth), &depth), ACL_SUCCESS);
  const char *gotName = NULL;
  uint32_t gotDepth = 0;
  size_t ret = 0;
  CHECK_INT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(gotName), &ret, &gotName), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetQueueAttr(attr, ACL_TDT_QUEUE_DEPTH_UINT32, sizeof(gotDepth), &ret, &gotDepth), ACL_SUCCESS);
  printf("QueueAttr name=%s, depth=%u\n", gotName, gotDepth);
  CHECK_STR_EQ(gotName, "simple_queue");
  CHECK_INT_EQ(gotDepth, 4);
  uint32_t qid = 0;
  CHECK_INT_EQ(acltdtCreateQueue(attr, &qid), ACL_SUCCESS);
  printf("Created queue id=%u\n", qid);
  CHECK_INT_EQ(acltdtDestroyQueue(qid), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueAttr(attr), ACL_SUCCESS);
  printf("Run the simple_queue sample successfully.\n");
  teardown();
}

TEST(sample_queue_route) {
  setup();
  uint32_t src = make_queue("route_src_queue", 4), dst = make_queue("route_dst_queue", 4);
  acltdtQueueRoute *route = acltdtCreateQueueRoute(src, dst);
  acltdtQueueRouteList *list = acltdtCreateQueueRouteList();
  CHECK_INT_EQ(acltdtAddQueueRoute(list, route), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtBindQueueRoutes(list), ACL_SUCCESS);
  acltdtQueueRouteQueryInfo *info = acltdtCreateQueueRouteQueryInfo();
  acltdtQueueRouteQueryMode mode = ACL_TDT_QUEUE_ROUTE_QUERY_SRC_AND_DST;
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_MODE_ENUM, sizeof(mode), &mode), 0);
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_SRC_ID_UINT32, sizeof(src), &src), 0);
  CHECK_INT_EQ(acltdtSetQueueRouteQueryInfo(info, ACL_TDT_QUEUE_ROUTE_QUERY_DST_ID_UINT32, sizeof(dst), &dst), 0);
  acltdtQueueRouteList *result = acltdtCreateQueueRouteList();
  CHECK_INT_EQ(acltdtQueryQueueRoutes(info, result), ACL_SUCCESS);
  size_t num = acltdtGetQueueRouteNum(result);
  printf("Queried route count: %zu\n", num);
  CHECK_INT_EQ(num, 1);
  acltdtQueueRoute *out = acltdtCreateQueueRoute(0, 0);
  CHECK_INT_EQ(acltdtGetQueueRoute(result, 0, out), ACL_SUCCESS);
  uint32_t s = 0, d = 0;
  int32_t status = -1;
  size_t ret = 0;
  CHECK_INT_EQ(acltdtGetQueueRouteParam(out, ACL_TDT_QUEUE_ROUTE_SRC_UINT32, sizeof(s), &ret, &s), 0);
  CHECK_INT_EQ(acltdtGetQueueRouteParam(out, ACL_TDT_QUEUE_ROUTE_DST_UINT32, sizeof(d), &ret, &d), 0);
  CHECK_INT_EQ(acltdtGetQueueRouteParam(out, ACL_TDT_QUEUE_ROUTE_STATUS_INT32, sizeof(status), &ret, &status), 0);
  printf("Route: src=%u dst=%u status=%d\n", s, d, status);
  CHECK_INT_EQ(status, 1);
  CHECK_INT_EQ(acltdtUnbindQueueRoutes(list), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRoute(out), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRoute(route), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(result), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteList(list), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueueRouteQueryInfo(info), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueue(src), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtDestroyQueue(dst), ACL_SUCCESS);
  printf("Run the queue_route sample successfully.\n");
  teardown();
}

/* ---- threads ------------------------------------------------------------- */

static void *queue_producer(void *arg) {
  uint32_t q = *(uint32_t *)arg;
  for (int i = 0; i < 500; i++)
    CHECK_INT_EQ(acltdtEnqueueData(q, &i, sizeof i, NULL, 0, -1, 0), ACL_SUCCESS);
  return NULL;
}

TEST(queue_producer_thread) {
  setup();
  uint32_t q = make_queue("threads", 3);
  pthread_t t;
  CHECK_INT_EQ(pthread_create(&t, NULL, queue_producer, &q), 0);
  for (int i = 0; i < 500; i++) {
    int v = -1;
    size_t got = 0;
    CHECK_INT_EQ(acltdtDequeueData(q, &v, sizeof v, &got, NULL, 0, 10000), ACL_SUCCESS);
    CHECK_INT_EQ(v, i);
  }
  CHECK_INT_EQ(pthread_join(t, NULL), 0);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

/* ---- other processes (tdt_proc.c) ------------------------------------------ */

/* Starts tdt_proc with args; its stdout into *out_fd when out_fd != NULL. */
static pid_t spawn(const char *mode, uint32_t qid, const char *n, int *out_fd) {
  int fds[2] = {-1, -1};
  if (out_fd != NULL)
    CHECK_INT_EQ(pipe(fds), 0);
  char q[16];
  snprintf(q, sizeof q, "%u", qid);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    if (out_fd != NULL) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
    }
    execl(OPENACL_TDT_PROC, OPENACL_TDT_PROC, mode, q, n, (char *)NULL);
    _exit(127);
  }
  if (out_fd != NULL) {
    close(fds[1]);
    *out_fd = fds[0];
  }
  return pid;
}

static int wait_exit(pid_t pid) {
  int st = 0;
  CHECK_INT_EQ(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

TEST(cross_process_consumer) {
  setup();
  uint32_t q = make_queue("xproc", 2);
  pid_t child = spawn("consumer", q, "5", NULL);
  CHECK_INT_EQ(acltdtGrantQueue(q, (int32_t)child, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), ACL_SUCCESS);
  for (int i = 0; i < 5; i++) { /* depth 2: the producer waits for the other process */
    char msg[32];
    snprintf(msg, sizeof msg, "msg %d", i);
    CHECK_INT_EQ(acltdtEnqueueData(q, msg, strlen(msg) + 1, &i, sizeof i, 10000, 0), ACL_SUCCESS);
  }
  CHECK_INT_EQ(wait_exit(child), 0);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(cross_process_buffer_chain) {
  setup();
  uint32_t q = make_queue("xbufs", 2);
  pid_t child = spawn("bufs", q, NULL, NULL);
  CHECK_INT_EQ(acltdtGrantQueue(q, (int32_t)child, ACL_TDT_QUEUE_PERMISSION_DEQUEUE, 0), ACL_SUCCESS);
  acltdtBuf head = NULL, tail = NULL;
  void *p = NULL;
  size_t size = 0;
  CHECK_INT_EQ(acltdtAllocBuf(16, ACL_TDT_NORMAL_MEM, &head), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAllocBuf(16, ACL_TDT_NORMAL_MEM, &tail), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtSetBufUserData(head, "hdr", 3, 0), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtGetBufData(tail, &p, &size), ACL_SUCCESS);
  memcpy(p, "second", 6);
  CHECK_INT_EQ(acltdtSetBufDataLen(tail, 6), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtAppendBufChain(head, tail), ACL_SUCCESS);
  CHECK_INT_EQ(acltdtEnqueue(q, head, 1000), ACL_SUCCESS);
  CHECK_INT_EQ(wait_exit(child), 0);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(cross_process_no_permission) {
  setup();
  uint32_t q = make_queue("noperm", 2);
  pid_t child = spawn("noperm", q, NULL, NULL);
  CHECK_INT_EQ(wait_exit(child), 0);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(cross_process_peer_killed) {
  setup();
  uint32_t q = make_queue("killed", 2);
  pid_t child = spawn("hold", q, NULL, NULL);
  CHECK_INT_EQ(acltdtGrantQueue(q, (int32_t)child, ACL_TDT_QUEUE_PERMISSION_ENQUEUE, 0), ACL_SUCCESS);
  char buf[8];
  size_t got = 0;
  CHECK_INT_EQ(acltdtDequeueData(q, buf, sizeof buf, &got, NULL, 0, 10000), ACL_SUCCESS);
  CHECK_STR_EQ(buf, "ready");
  CHECK_INT_EQ(kill(child, SIGKILL), 0);
  CHECK_INT_EQ(wait_exit(child), 128 + SIGKILL);
  /* blocking for ever would hang: the dead peer is noticed instead */
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(acltdtDequeueData(q, buf, sizeof buf, &got, NULL, 0, -1), ACL_ERROR_FAILURE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "died");
  CHECK(th_now_ns() - t0 < 2000000000ull);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}

TEST(cross_process_dead_creator_reclaimed) {
  setup();
  int out = -1;
  pid_t child = spawn("create_and_die", 0, NULL, &out);
  char line[32] = {0};
  size_t n = 0;
  while (n < sizeof line - 1) {
    ssize_t r = read(out, line + n, 1);
    if (r <= 0 || line[n] == '\n')
      break;
    n++;
  }
  close(out);
  uint32_t dead_q = (uint32_t)strtoul(line, NULL, 10);
  char path[128];
  struct stat st;
  snprintf(path, sizeof path, "/dev/shm/openacl-tdtq-u%u-%u", (unsigned)getuid(), dead_q);
  CHECK_INT_EQ(stat(path, &st), 0);
  CHECK_INT_EQ(kill(child, SIGKILL), 0);
  CHECK_INT_EQ(wait_exit(child), 128 + SIGKILL);
  /* the next create of this user removes the orphan */
  uint32_t q = 0;
  CHECK_INT_EQ(acltdtCreateQueue(NULL, &q), ACL_SUCCESS);
  CHECK_INT_NE(stat(path, &st) == 0 && q != dead_q, 1);
  CHECK_INT_EQ(acltdtDestroyQueue(q), ACL_SUCCESS);
  teardown();
}
