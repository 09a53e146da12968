/*
 * rt_notify.c - notifies and count notifies in one process (reference
 * ipc-vmm-graphs-tdt §3): argument codes, one record releases one wait,
 * ordering across streams, timeouts, batch reset, every count-notify mode,
 * and the single-process rules of IPC notifies and IPC events.  The
 * cross-process behaviour is in ipc_signal.c.
 */
#include <stdlib.h>
#include <string.h>

#include "rt_common.h"

static void mark(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

TEST(notify_arguments) {
  rt_up();
  aclrtNotify n = NULL, m = NULL;
  aclrtCntNotify c = NULL;
  uint32_t id = 0, id2 = 0;
  CHECK_INT_EQ(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 2), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&m, ACL_NOTIFY_DEVICE_USE_ONLY), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyCreate(&c, 3), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetNotifyId(n, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetNotifyId(m, &id2), ACL_SUCCESS);
  CHECK(id != id2);
  CHECK_INT_EQ(aclrtCntNotifyGetId(c, &id2), ACL_SUCCESS);
  CHECK(id != id2);
  /* a count notify is no notify, and the other way round */
  CHECK_INT_EQ(aclrtRecordNotify(c, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "count notify");
  aclrtCntNotifyRecordInfo ri = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1};
  CHECK_INT_EQ(aclrtCntNotifyRecord(n, NULL, &ri), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtCntNotifyRecord(c, NULL, NULL), ACL_ERROR_INVALID_PARAM);
  ri.mode = (aclrtCntNotifyRecordMode)3; /* no such mode */
  CHECK_INT_EQ(aclrtCntNotifyRecord(c, NULL, &ri), ACL_ERROR_RT_PARAM_INVALID);
  aclrtCntNotifyWaitInfo wi;
  memset(&wi, 0, sizeof wi);
  wi.mode = (aclrtCntNotifyWaitMode)5;
  CHECK_INT_EQ(aclrtCntNotifyWaitWithTimeout(c, NULL, &wi), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNotifyBatchReset(NULL, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtNotifyBatchReset(&n, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_INVALID_HANDLE);
  CHECK_INT_EQ(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtDestroyNotify(m), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
  rt_down();
}

TEST(notify_orders_two_streams) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s1, s2;
  aclrtNotify n;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  atomic_int after = 0;
  rt_gate g = {0, 0};
  /* the vendor's guide: stream2 waits, stream1 records */
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s2, mark, &after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s1, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&after), 0);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after), 1);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  rt_down();
}

TEST(one_record_releases_one_wait) {
  rt_up();
  aclrtStream s1, s2;
  aclrtNotify n;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  atomic_int passed = 0;
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s2, mark, &passed), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s2, mark, &passed), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  /* the record was taken by the first wait: the second still waits */
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s2, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&passed), 1);
  CHECK_INT_EQ(aclrtRecordNotify(n, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&passed), 2);
  /* a record before the wait is kept until a wait takes it */
  CHECK_INT_EQ(aclrtRecordNotify(n, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  rt_down();
}

TEST(batch_reset_and_timeout) {
  rt_up();
  aclrtStream s;
  aclrtNotify n[2];
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n[0], 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n[1], 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n[0], s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n[1], s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyBatchReset(n, 2), ACL_SUCCESS);
  /* cleared: the wait finds nothing and fails after its 1 s */
  atomic_int after = 0;
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n[1], s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, mark, &after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "notify wait (no record within 1 s)");
  /* the stream goes on after the failed wait, as after an event wait's timeout */
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after), 1);
  CHECK_INT_EQ(aclrtDestroyNotify(n[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyNotify(n[1]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

/* Records `mode value` on s1, then checks that a wait for `wmode wvalue`
 * passes at once (expect 1) or not within 1 s (expect 0). */
static void cnt_step(aclrtCntNotify c, aclrtStream s, int rmode, uint32_t rvalue, int wmode, uint32_t wvalue,
                     int clear, int expect) {
  if (rmode >= 0) {
    aclrtCntNotifyRecordInfo ri = {(aclrtCntNotifyRecordMode)rmode, rvalue};
    CHECK_INT_EQ(aclrtCntNotifyRecord(c, s, &ri), ACL_SUCCESS);
  }
  aclrtCntNotifyWaitInfo wi;
  memset(&wi, 0, sizeof wi);
  wi.mode = (aclrtCntNotifyWaitMode)wmode;
  wi.value = wvalue;
  wi.timeout = 1;
  wi.isClear = (uint8_t)clear;
  CHECK_INT_EQ(aclrtCntNotifyWaitWithTimeout(c, s, &wi), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), expect ? ACL_SUCCESS : ACL_ERROR_RT_WAIT_TIMEOUT);
}

TEST(count_notify_modes) {
  rt_up();
  aclrtStream s;
  aclrtCntNotify c;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 1);            /* starts at 0 */
  cnt_step(c, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 3, 0, 1);
  cnt_step(c, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 6, 0, 1);
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 5, 0, 1);           /* 6 > 5 */
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 7, 0, 1);             /* 6 < 7 */
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 6, 1, 1); /* 0b110, cleared */
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 1);            /* the clear took */
  cnt_step(c, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 10, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 10, 0, 1);
  cnt_step(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 6, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 2, 0, 1);
  cnt_step(c, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 5, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 7, 0, 1);
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 7, 0, 0);           /* 7 > 7 never holds */
  CHECK_INT_EQ(aclrtCntNotifyReset(c, s), ACL_SUCCESS);
  cnt_step(c, s, -1, 0, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 0, 1);
  CHECK_INT_EQ(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(count_notify_releases_a_waiting_stream) {
  setenv("OPENACL_EXECUTOR_THREADS", "2", 1);
  rt_up();
  aclrtStream s1, s2;
  aclrtCntNotify c;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCntNotifyCreate(&c, 0), ACL_SUCCESS);
  aclrtCntNotifyWaitInfo wi;
  memset(&wi, 0, sizeof wi);
  wi.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE;
  wi.value = 3;
  atomic_int after = 0;
  CHECK_INT_EQ(aclrtCntNotifyWaitWithTimeout(c, s2, &wi), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s2, mark, &after), ACL_SUCCESS);
  aclrtCntNotifyRecordInfo ri = {ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1};
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(aclrtCntNotifyRecord(c, s1, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&after), 0); /* 2 < 3 */
  CHECK_INT_EQ(aclrtCntNotifyRecord(c, s1, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after), 1);
  CHECK_INT_EQ(aclrtCntNotifyDestroy(c), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  rt_down();
}

TEST(notify_destroyed_with_work_queued) {
  rt_up();
  aclrtStream s;
  aclrtNotify n;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
  /* the queued tasks keep what they use; the handle is gone at once */
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n, s), ACL_ERROR_RT_INVALID_HANDLE);
  atomic_store(&g.open, 1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  /* a notify left behind goes with its context, logged */
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(ipc_notify_rules_in_one_process) {
  rt_up();
  aclrtNotify n, m;
  char key[128] = "", key2[128] = "";
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  int32_t pid = 1;
  CHECK_INT_EQ(aclrtNotifySetImportPid(n, &pid, 1), ACL_ERROR_RT_PARAM_INVALID); /* not exported */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "has not been exported");
  CHECK_INT_EQ(aclrtNotifyGetExportKey(NULL, key, 65, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, 1), ACL_ERROR_RT_PARAM_INVALID); /* 0x2 disables the check */
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ((int)strlen(key), 39);
  CHECK(strncmp(key, "oacl-n-", 7) == 0);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key2, 65, 0), ACL_SUCCESS);
  CHECK_STR_EQ(key, key2); /* the same key again */
  CHECK_INT_EQ(aclrtNotifySetImportPid(n, &pid, 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNotifySetImportPid(n, &pid, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyImportByKey(&m, key, 4), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNotifyImportByKey(&m, key, 0), ACL_ERROR_RT_PARAM_INVALID); /* our own */
  CHECK_STR_HAS(aclGetRecentErrMsg(), "exported by this process");
  CHECK_INT_EQ(aclrtNotifyImportByKey(&m, "no key", 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclrtNotifyImportByKey(&m, "oacl-n-00000000000000000000000000000000", 0), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is not open");
  /* an exported notify still works in its own process */
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordNotify(n, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  aclrtServerPid sp = {0, &pid, 1};
  CHECK_INT_EQ(aclrtNotifySetImportPidInterServer(n, &sp, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(ipc_event_rules_in_one_process) {
  rt_up();
  aclrtEvent e, plain, o;
  aclrtIpcEventHandle h;
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_TIME_LINE), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtIpcGetEventHandle(NULL, &h), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcGetEventHandle(e, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcGetEventHandle(plain, &h), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "ACL_EVENT_IPC");
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  aclrtEventRecordedStatus st;
  CHECK_INT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK_INT_EQ(aclrtIpcGetEventHandle(e, &h), ACL_SUCCESS);
  CHECK(strncmp(h.reserved, "oacl-e-", 7) == 0);
  /* the record made before the handle is what waits see */
  CHECK_INT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s, e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  /* what IPC events do not support */
  uint32_t id;
  uint64_t ts;
  float ms;
  CHECK_INT_EQ(aclrtGetEventId(e, &id), ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK_INT_EQ(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK_INT_EQ(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK_INT_EQ(aclrtResetEvent(e, s), ACL_ERROR_FEATURE_UNSUPPORTED);
  aclrtEventWaitStatus ws;
  CHECK_INT_EQ(aclrtQueryEventWaitStatus(e, &ws), ACL_ERROR_FEATURE_UNSUPPORTED);
  /* opening: not our own, not a forged handle */
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(h, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(h, &o), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "made by this process");
  aclrtIpcEventHandle bad = h;
  bad.reserved[10] = 'z';
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(bad, &o), ACL_ERROR_RT_PARAM_INVALID);
  memset(&bad, 0, sizeof bad);
  memcpy(bad.reserved, "oacl-e-0123456789abcdef0123456789abcdef", 39);
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(bad, &o), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is not open");
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(plain), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
}

TEST(private_device_cannot_share) {
  setenv("OPENACL_SHARED_DEVICE", "0", 1);
  rt_up();
  aclrtNotify n;
  char key[80];
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "OPENACL_SHARED_DEVICE");
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  rt_down();
  unsetenv("OPENACL_SHARED_DEVICE");
}
