/*
 * graph_multi.c - model runtime instances over several streams
 * (docs/graphs.md): cross-stream capture through events (fork, join, the
 * lanes really run concurrently), the join rules, EXTERNAL records and
 * waits, build mode with stream activation, switches and labels, and
 * conditional tasks (IF / WHILE / SWITCH), discarded replays.  Public API
 * only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"

#define N 256

static void up(void) {
  setenv("OPENACL_EXECUTOR_THREADS", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

static void down(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

static void *dev_alloc(size_t n) {
  void *p = NULL;
  CHECK_INT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
  return p;
}

/* A word device tasks may be waiting on: written by a value write (an
 * atomic store), not by a copy. */
static void put_u64(void *d, uint64_t v) {
  CHECK_INT_EQ(aclrtValueWrite(d, v, 0, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
}

static uint64_t get_u64(const void *d) {
  uint64_t v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, 8, d, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

static uint8_t get_u8(const void *d) {
  uint8_t v = 0;
  CHECK_INT_EQ(aclrtMemcpy(&v, 1, d, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return v;
}

/* Fork and join through events.  The forked lane first waits for a word
 * that the origin lane writes only after the fork: replaying the lanes one
 * after the other (forked lane first) would never end, so this passes only
 * when they run concurrently. */
TEST(fork_join_runs_lanes_concurrently) {
  up();
  aclrtStream s1 = NULL, s2 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  aclrtEvent fork = NULL, join = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
  uint8_t *a = dev_alloc(N), *b = dev_alloc(N), *c = dev_alloc(N);
  uint64_t *word = dev_alloc(64);

  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 1, N, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS); /* s2 joins the capture */
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI cur = NULL;
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s2, &st, &cur), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  CHECK_INT_EQ(aclrtValueWait(word, 1, ACL_STREAM_WAIT_VALUE_EQ, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(word, 0, 0, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(join, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWrite(word, 1, 0, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s1, join), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(c, N, b, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s1), ACL_SUCCESS);
  /* only the origin ends a capture */
  aclmdlRI bad = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(s2, &bad), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_SUCCESS);
  CHECK_NOT_NULL(ri);
  CHECK(cur == ri);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s2, &st, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  CHECK_INT_EQ(get_u8(c), 0); /* nothing ran at capture */

  aclrtStream streams[4] = {0};
  uint32_t ns = 0;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, NULL, &ns), ACL_SUCCESS);
  CHECK_INT_EQ(ns, 2);
  ns = 1;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, streams, &ns), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
  ns = 4;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, streams, &ns), ACL_SUCCESS);
  CHECK_INT_EQ(ns, 2);
  CHECK(streams[0] == s1 && streams[1] == s2 && streams[2] == NULL);
  uint32_t nt = 0;
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s2, NULL, &nt), ACL_SUCCESS);
  CHECK_INT_EQ(nt, 5); /* wait, value wait, copy, value write, record */
  aclmdlRITask tasks[5];
  CHECK_INT_EQ(aclmdlRIGetTasksByStream(s2, tasks, &nt), ACL_SUCCESS);
  aclmdlRITaskType ty = ACL_MODEL_RI_TASK_DEFAULT;
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[0], &ty), ACL_SUCCESS);
  CHECK_INT_EQ(ty, ACL_MODEL_RI_TASK_EVENT_WAIT);
  CHECK_INT_EQ(aclmdlRITaskGetType(tasks[4], &ty), ACL_SUCCESS);
  CHECK_INT_EQ(ty, ACL_MODEL_RI_TASK_EVENT_RECORD);

  for (int it = 0; it < 20; it++) {
    CHECK_INT_EQ(aclrtMemset(c, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s1), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
    CHECK_INT_EQ(get_u8(c), 1);
    CHECK_INT_EQ(get_u8(c + N - 1), 1);
    CHECK_INT_EQ(get_u64(word), 0);
  }
  /* replays queued back to back on two streams */
  for (int it = 0; it < 10; it++)
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, it % 2 ? s1 : s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* the events' captured records do not hold outside waits */
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, join), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  aclrtDestroyEvent(fork);
  aclrtDestroyEvent(join);
  aclrtFree(a);
  aclrtFree(b);
  aclrtFree(c);
  aclrtFree(word);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
  down();
}

TEST(unjoined_stream_fails_the_capture) {
  up();
  aclrtStream s1 = NULL, s2 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  aclrtEvent fork = NULL, join = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
  uint8_t *a = dev_alloc(N);
  aclmdlRI ri = NULL;
  /* s2 never joins back */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 2, N, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_ERROR_RT_STREAM_UNJOINED);
  CHECK_NULL(ri);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "join");
  /* s2 is free again: its work runs */
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 3, N, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(a), 3);
  /* joined back, then more work on s2: unjoined again */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(join, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s1, join), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 2, N, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_ERROR_RT_STREAM_UNJOINED);
  /* a stream capturing into another RI cannot wait on this one's event */
  aclrtStream s3 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s3), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s3, fork), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s3, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* a joined stream destroyed: the capture is invalidated */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
  aclrtDestroyEvent(fork);
  aclrtDestroyEvent(join);
  aclrtFree(a);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s3);
  down();
}

/* EXTERNAL records and waits connect a graph with the outside and with
 * another graph (the vendor's 4_model_sync_external). */
TEST(external_events) {
  up();
  aclrtStream s = NULL, out = NULL, s2 = NULL, w = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&w), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&out), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  aclrtEvent in_ev = NULL, out_ev = NULL, g_ev = NULL;
  CHECK_INT_EQ(aclrtCreateEventWithFlag(&in_ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEventWithFlag(&out_ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEventWithFlag(&g_ev, ACL_EVENT_SYNC), ACL_SUCCESS);
  uint8_t *a = dev_alloc(N), *b = dev_alloc(N), *c = dev_alloc(N);
  /* outside the capture the flags are refused */
  CHECK_INT_EQ(aclrtRecordEventWithFlag(out_ev, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);

  /* graph 1: waits for an outside record, writes a, records out_ev and g_ev */
  aclmdlRI g1 = NULL, g2 = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(s, in_ev, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetEvent(in_ev, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 7, N, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(out_ev, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEventWithFlag(g_ev, s, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &g1), ACL_SUCCESS);
  /* graph 2: waits for graph 1's record, copies a to b */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEventWithFlag(s2, g_ev, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtResetEvent(g_ev, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpyAsync(b, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s2, &g2), ACL_SUCCESS);

  for (int it = 0; it < 3; it++) {
    CHECK_INT_EQ(aclrtMemset(a, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemset(b, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemset(c, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(g2, s2), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(g1, s), ACL_SUCCESS);
    /* an outside wait queued after the replay waits for its EXTERNAL record */
    CHECK_INT_EQ(aclrtStreamWaitEvent(w, out_ev), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemcpyAsync(c, N, a, N, ACL_MEMCPY_DEVICE_TO_DEVICE, w), ACL_SUCCESS);
    usleep(20000);
    CHECK_INT_EQ(get_u8(a), 0); /* graph 1 waits for in_ev */
    aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    CHECK_INT_EQ(aclrtQueryEventStatus(out_ev, &es), ACL_SUCCESS);
    CHECK_INT_EQ(es, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    CHECK_INT_EQ(aclrtRecordEvent(in_ev, out), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(out), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeEvent(out_ev), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(w), ACL_SUCCESS);
    CHECK_INT_EQ(get_u8(c + 3), 7);
    CHECK_INT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK_INT_EQ(get_u8(a), 7);
    CHECK_INT_EQ(get_u8(b + N - 1), 7);
  }
  CHECK_INT_EQ(aclmdlRIDestroy(g1), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(g2), ACL_SUCCESS);
  aclrtDestroyEvent(in_ev);
  aclrtDestroyEvent(out_ev);
  aclrtDestroyEvent(g_ev);
  aclrtFree(a);
  aclrtFree(b);
  aclrtFree(c);
  aclrtDestroyStream(s);
  aclrtDestroyStream(out);
  aclrtDestroyStream(s2);
  aclrtDestroyStream(w);
  down();
}

/* A replay discarded while one of its lanes waits (aclmdlRIExecute's
 * timeout): every lane stops, the RI can run again and be destroyed. */
TEST(discarded_replay_stops_every_lane) {
  up();
  aclrtStream s1 = NULL, s2 = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  aclrtEvent fork = NULL, join = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
  uint64_t *word = dev_alloc(64);
  uint8_t *a = dev_alloc(N);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(fork, s1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(word, 5, ACL_STREAM_WAIT_VALUE_EQ, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(a, N, 9, N, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(join, s2), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s1, join), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s1, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIExecute(ri, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(get_u8(a), 0);
  put_u64(word, 5); /* the discarded lane forgot its wait: nothing runs now */
  usleep(20000);
  CHECK_INT_EQ(get_u8(a), 0);
  CHECK_INT_EQ(aclmdlRIExecute(ri, 5000), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(a), 9);
  put_u64(word, 0);
  CHECK_INT_EQ(aclmdlRIExecute(ri, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyEvent(fork);
  aclrtDestroyEvent(join);
  aclrtFree(word);
  aclrtFree(a);
  aclrtDestroyStream(s1);
  aclrtDestroyStream(s2);
  down();
}

/* ---- build mode ------------------------------------------------------------------ */

static aclrtStream persistent(void) {
  aclrtStream s = NULL;
  CHECK_INT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT), ACL_SUCCESS);
  return s;
}

/* Events between the streams of a built graph are edges too.  The first
 * HEAD stream waits for a record on a stream that a second HEAD stream
 * activates only once a gate opens: with the gate closed the timeout of
 * aclmdlRIExecute discards a replay whose main stream waits on an edge and
 * whose other stream waits on the gate; the graph runs again once the gate
 * is open. */
TEST(build_edge_waits_discarded) {
  up();
  aclrtStream head = persistent(), starter = persistent(), side = persistent();
  aclrtEvent ev = NULL;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  uint8_t *d = dev_alloc(N);
  uint64_t *gate = dev_alloc(64);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, starter, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, side, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 1, N, side), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, side), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_EQ, starter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtActiveStream(side, starter), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(head, ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d + 1, 1, 2, 1, head), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_SUCCESS);
  for (int round = 0; round < 2; round++) {
    CHECK_INT_EQ(aclmdlRIExecute(ri, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    CHECK_INT_EQ(get_u8(d + 1), 0);
  }
  put_u64(gate, 1);
  CHECK_INT_EQ(aclmdlRIExecute(ri, 5000), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(d), 1);
  CHECK_INT_EQ(get_u8(d + 1), 2);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyEvent(ev);
  aclrtFree(d);
  aclrtFree(gate);
  aclrtDestroyStream(head);
  aclrtDestroyStream(starter);
  aclrtDestroyStream(side);
  down();
}

TEST(build_switch_and_activate) {
  up();
  aclrtStream head = persistent(), one = persistent(), two = persistent(), conv = persistent();
  aclrtStream plain = NULL, exec = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&plain), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&exec), ACL_SUCCESS);
  int32_t *sel = dev_alloc(64), *k1 = dev_alloc(64), *k2 = dev_alloc(64);
  int32_t v = 1;
  CHECK_INT_EQ(aclrtMemcpy(k1, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  v = 2;
  CHECK_INT_EQ(aclrtMemcpy(k2, 4, &v, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  uint8_t *d1 = dev_alloc(N), *d2 = dev_alloc(N), *d3 = dev_alloc(N);

  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 1), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, head, 5), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, one, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, two, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, conv, ACL_MODEL_STREAM_FLAG_DEFAULT), ACL_SUCCESS);
  /* not bound: the vendor's code for an unbound stream */
  CHECK_INT_EQ(aclrtActiveStream(one, plain), ACL_ERROR_RT_STREAM_MODEL);

  CHECK_INT_EQ(aclrtMemsetAsync(d1, N, 3, N, head), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSwitchStream(sel, ACL_RT_EQUAL, k1, ACL_RT_SWITCH_INT32, one, NULL, head), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSwitchStream(sel, ACL_RT_EQUAL, k2, ACL_RT_SWITCH_INT32, two, NULL, head), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d1, N, 99, N, head), ACL_SUCCESS); /* neither: d1 = 99 */
  CHECK_INT_EQ(aclmdlRIEndTask(ri, head), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d2, N, 4, N, one), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtActiveStream(conv, one), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d2, N, 8, N, two), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtActiveStream(conv, two), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d3, N, 5, N, conv), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIEndTask(ri, conv), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, (void *)1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d1, N, 1, N, head), ACL_ERROR_RT_STREAM_MODEL); /* sealed */
  CHECK_INT_EQ(get_u8(d1), 0);                                                   /* nothing ran */

  int32_t sels[3] = {1, 2, 0};
  uint8_t want2[3] = {4, 8, 0}, want1[3] = {3, 3, 99}, want3[3] = {5, 5, 0};
  for (int it = 0; it < 3; it++) {
    CHECK_INT_EQ(aclrtMemcpy(sel, 4, &sels[it], 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemset(d1, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemset(d2, N, 0, N), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemset(d3, N, 0, N), ACL_SUCCESS);
    if (it == 1) {
      CHECK_INT_EQ(aclmdlRIExecute(ri, -1), ACL_SUCCESS);
    } else {
      CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, exec), ACL_SUCCESS);
      CHECK_INT_EQ(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    }
    CHECK_INT_EQ(get_u8(d1), want1[it]);
    CHECK_INT_EQ(get_u8(d2 + N - 1), want2[it]);
    CHECK_INT_EQ(get_u8(d3), want3[it]);
  }
  uint32_t ns = 0;
  CHECK_INT_EQ(aclmdlRIGetStreams(ri, NULL, &ns), ACL_SUCCESS);
  CHECK_INT_EQ(ns, 4);
  CHECK_INT_EQ(aclmdlRIUnbindStream(ri, plain), ACL_ERROR_RT_STREAM_MODEL);
  CHECK_INT_EQ(aclmdlRIUnbindStream(ri, one), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d2, N, 6, N, one), ACL_SUCCESS); /* an ordinary stream again */
  CHECK_INT_EQ(aclrtSynchronizeStream(one), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(d2), 6);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS); /* unbinds the rest */
  CHECK_INT_EQ(aclrtMemsetAsync(d3, N, 2, N, conv), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(conv), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(d3), 2);
  aclrtFree(sel);
  aclrtFree(k1);
  aclrtFree(k2);
  aclrtFree(d1);
  aclrtFree(d2);
  aclrtFree(d3);
  aclrtDestroyStream(head);
  aclrtDestroyStream(one);
  aclrtDestroyStream(two);
  aclrtDestroyStream(conv);
  aclrtDestroyStream(plain);
  aclrtDestroyStream(exec);
  down();
}

/* Labels: a jump through a list, set after the jump (the vendor's
 * label/0_simple_label), and a loop back to a label on the same stream. */
TEST(build_labels) {
  up();
  aclrtStream s = persistent(), exec = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&exec), ACL_SUCCESS);
  uint32_t *idx = dev_alloc(64);
  uint8_t *d = dev_alloc(N);
  aclrtLabel l0 = NULL, l1 = NULL;
  CHECK_INT_EQ(aclrtCreateLabel(&l0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateLabel(&l1), ACL_SUCCESS);
  aclrtLabel ls[2] = {l0, l1};
  aclrtLabelList list = NULL;
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, s, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l0, s), ACL_ERROR_RT_INTERNAL_ERROR); /* not in a list yet */
  CHECK_INT_EQ(aclrtCreateLabelList(ls, 2, &list), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 2, list, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l0, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l0, s), ACL_ERROR_RT_INTERNAL_ERROR); /* set once */
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 10, N, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIEndTask(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetLabel(l1, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 11, N, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIEndTask(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_SUCCESS);
  uint32_t picks[3] = {1, 0, 7}; /* past the end: the last label */
  uint8_t want[3] = {11, 10, 11};
  for (int it = 0; it < 3; it++) {
    CHECK_INT_EQ(aclrtMemcpy(idx, 4, &picks[it], 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, exec), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    CHECK_INT_EQ(get_u8(d), want[it]);
  }
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* a label never set: the build cannot end */
  aclrtLabel l2 = NULL;
  CHECK_INT_EQ(aclrtCreateLabel(&l2), ACL_SUCCESS);
  aclrtLabelList list2 = NULL;
  CHECK_INT_EQ(aclrtCreateLabelList(&l2, 1, &list2), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildBegin(&ri, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBindStream(ri, s, ACL_MODEL_STREAM_FLAG_HEAD), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSwitchLabelByIndex(idx, 1, list2, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "never set");
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_ERROR_RT_PARAM_INVALID); /* still being built */
  CHECK_INT_EQ(aclrtSetLabel(l2, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIEndTask(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIBuildEnd(ri, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIUnbindStream(ri, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtDestroyLabelList(list);
  aclrtDestroyLabelList(list2);
  aclrtDestroyLabel(l0);
  aclrtDestroyLabel(l1);
  aclrtDestroyLabel(l2);
  aclrtFree(idx);
  aclrtFree(d);
  aclrtDestroyStream(s);
  aclrtDestroyStream(exec);
  down();
}

/* ---- conditional tasks ------------------------------------------------------------- */

/* IF with two branches, WHILE whose body counts down the condition, SWITCH
 * with three cases; the host sets the user-managed conditions, the
 * ASSIGN_DEFAULT one is reset at each replay's start. */
TEST(cond_if_while_switch) {
  up();
  aclrtStream s = NULL, sub = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&sub), ACL_SUCCESS);
  uint8_t *out = dev_alloc(64);
  uint64_t *one = dev_alloc(64), *zero = dev_alloc(64), *counter = dev_alloc(64);
  put_u64(one, 1);
  aclmdlRI ri = NULL, cur = NULL;
  aclmdlRICondHandle hif = NULL, hwhile = NULL, hsw = NULL, hdef = NULL;
  uint64_t *pif = NULL, *pwhile = NULL, *psw = NULL, *pdef = NULL;
  aclmdlRI bif[2] = {0}, bwhile[1] = {0}, bsw[3] = {0}, bdef[1] = {0};
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, NULL, &cur), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 0, 0, &hif), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 0, 0, &hwhile), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 0, 0, &hsw), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &hdef), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 0, 7, &hdef), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(hif, &pif), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(hwhile, &pwhile), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(hsw, &psw), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(hdef, &pdef), ACL_SUCCESS);
  CHECK_INT_EQ(get_u64(pif), 0);

  aclmdlRICondTaskParams p = {hif, ACL_MODEL_RI_COND_TYPE_IF, 3, bif};
  CHECK_INT_EQ(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* IF: 1 or 2 */
  p.size = 2;
  CHECK_INT_EQ(aclmdlRIAddCondTask(p, sub, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  CHECK_INT_EQ(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* one task per handle */
  aclmdlRICondTaskParams pw = {hwhile, ACL_MODEL_RI_COND_TYPE_WHILE, 1, bwhile};
  CHECK_INT_EQ(aclmdlRIAddCondTask(pw, s, 0), ACL_SUCCESS);
  aclmdlRICondTaskParams ps = {hsw, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, bsw};
  CHECK_INT_EQ(aclmdlRIAddCondTask(ps, s, 0), ACL_SUCCESS);
  aclmdlRICondTaskParams pd = {hdef, ACL_MODEL_RI_COND_TYPE_IF, 1, bdef};
  CHECK_INT_EQ(aclmdlRIAddCondTask(pd, s, 0), ACL_SUCCESS);

  /* IF: true -> out[0] = 1, false -> out[0] = 2 */
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bif[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bif[1], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
               ACL_ERROR_RT_STREAM_CAPTURED);
  CHECK_INT_EQ(aclrtMemsetAsync(out, 1, 1, 1, sub), ACL_SUCCESS);
  aclmdlRI r = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &r), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
  CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &bif[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bif[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
               ACL_ERROR_RT_MODEL_CAPTURED);
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bif[1], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(out, 1, 2, 1, sub), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &bif[1]), ACL_SUCCESS);
  /* WHILE: out[1] += 1 (a reduce-add of one) and the counter counts down:
   * condition = counter, decremented by adding -1 */
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bwhile[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReduceAsync(out + 8, one, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, sub, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclrtReduceAsync(pwhile, counter, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, sub, NULL),
               ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &bwhile[0]), ACL_SUCCESS);
  /* SWITCH: out[16] = 10 + case */
  for (int i = 0; i < 3; i++) {
    CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bsw[i], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtMemsetAsync(out + 16, 1, 10 + i, 1, sub), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &bsw[i]), ACL_SUCCESS);
  }
  /* ASSIGN_DEFAULT 1: out[24] = 5 every replay, whatever the host wrote */
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, bdef[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(out + 24, 1, 5, 1, sub), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &bdef[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRIDestroy(bif[0]), ACL_ERROR_RT_PARAM_INVALID); /* goes with its root */
  CHECK_INT_EQ(aclmdlRIExecuteAsync(bif[0], s), ACL_ERROR_RT_PARAM_INVALID);

  int64_t minus1 = -1;
  CHECK_INT_EQ(aclrtMemcpy(counter, 8, &minus1, 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  uint64_t ifv[3] = {1, 0, 3}, whilev[3] = {3, 0, 1}, swv[3] = {2, 0, 9};
  uint8_t ifw[3] = {1, 2, 1}, sww[3] = {12, 10, 0};
  for (int it = 0; it < 3; it++) {
    CHECK_INT_EQ(aclrtMemset(out, 64, 0, 64), ACL_SUCCESS);
    put_u64(pif, ifv[it]);
    put_u64(pwhile, whilev[it]);
    put_u64(psw, swv[it]);
    put_u64(pdef, 0);
    CHECK_INT_EQ(aclmdlRIExecuteAsync(ri, s), ACL_SUCCESS);
    CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    CHECK_INT_EQ(get_u8(out), ifw[it]);
    CHECK_INT_EQ(get_u64(out + 8), whilev[it]); /* the body ran `whilev` times */
    CHECK_INT_EQ(get_u64(pwhile), 0);
    CHECK_INT_EQ(get_u8(out + 16), sww[it]);
    CHECK_INT_EQ(get_u8(out + 24), 5);
    CHECK_INT_EQ(get_u64(pdef), 1);
  }
  char path[] = "/tmp/openacl_graph_cond_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  CHECK_INT_EQ(aclmdlRIDebugJsonPrint(ri, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), ACL_SUCCESS);
  FILE *f = fopen(path, "r");
  CHECK_NOT_NULL(f);
  char buf[8192] = {0};
  size_t got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  unlink(path);
  CHECK(got > 0);
  CHECK_STR_HAS(buf, "WHILE task");
  CHECK_STR_HAS(buf, "SWITCH task (3 branches)");
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  /* handles go with their RI */
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(hif, &pif), ACL_ERROR_RT_PARAM_INVALID);
  /* not capturing: no handle */
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, NULL, &cur), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureEnd(s, &ri), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(ri, 0, 0, &hif), ACL_ERROR_RT_PARAM_INVALID);
  CHECK_INT_EQ(aclmdlRIDestroy(ri), ACL_SUCCESS);
  aclrtFree(out);
  aclrtFree(one);
  aclrtFree(zero);
  aclrtFree(counter);
  aclrtDestroyStream(s);
  aclrtDestroyStream(sub);
  down();
}



/* The capture stream destroyed while one of its branches is being
 * captured: both captures end, nothing leaks (ASan), the branch's stream
 * works normally again. */
TEST(cond_root_gone_during_branch_capture) {
  up();
  aclrtStream s = NULL, sub = NULL;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&sub), ACL_SUCCESS);
  uint8_t *d = dev_alloc(N);
  aclmdlRI cur = NULL, br[1] = {NULL};
  aclmdlRICondHandle h = NULL;
  CHECK_INT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(s, NULL, &cur), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICondHandleCreate(cur, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h), ACL_SUCCESS);
  aclmdlRICondTaskParams p = {h, ACL_MODEL_RI_COND_TYPE_IF, 1, br};
  CHECK_INT_EQ(aclmdlRIAddCondTask(p, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlRICaptureToModelRIBegin(sub, br[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 4, N, sub), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  CHECK_INT_EQ(aclmdlRICaptureGetInfo(sub, &st, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  aclmdlRI ri = NULL;
  CHECK_INT_EQ(aclmdlRICaptureEnd(sub, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(h, NULL), ACL_ERROR_INVALID_PARAM);
  uint64_t *ptr = NULL;
  CHECK_INT_EQ(aclmdlRICondHandleGetCondPtr(h, &ptr), ACL_ERROR_RT_PARAM_INVALID); /* went with the RI */
  CHECK_INT_EQ(aclrtMemsetAsync(d, N, 5, N, sub), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(sub), ACL_SUCCESS);
  CHECK_INT_EQ(get_u8(d), 5);
  aclrtFree(d);
  aclrtDestroyStream(sub);
  down();
}
