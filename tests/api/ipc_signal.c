/*
 * ipc_signal.c - IPC notifies and IPC events between processes
 * (api/ipc_signal/..., reference ipc-vmm-graphs-tdt §2-3, docs/processes.md):
 * a stream of one process waits until another process's stream records,
 * pid whitelists, importers that may only record, the creator's key in
 * another process, and a recorder killed with kill -9 while the other
 * process waits (the wait fails instead of hanging; the registry
 * recovers).  The other process is ipc_signal_proc.c.
 *
 * The harness gives each test its own OPENACL_SHARED_DEVICE_NAME; the
 * helpers inherit it.
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "acl/acl.h"
#include "proc_driver.h"
#include "rt_common.h"

static void start(proc *p) { proc_start_args(p, OPENACL_IPC_SIGNAL_PROC, NULL); }

static void mark(void *arg) { atomic_fetch_add((atomic_int *)arg, 1); }

/* 1 when the helper has answered something we have not read. */
static int answered(proc *p) {
  struct pollfd pf = {fileno(p->out), POLLIN, 0};
  return poll(&pf, 1, 0) == 1;
}

/* The host-wide registry of the shared signals of this test. */
static int registry_exists(void) {
  const char *name = getenv("OPENACL_SHARED_DEVICE_NAME");
  char path[256];
  snprintf(path, sizeof(path), "/dev/shm/openacl-u%u%s%s-ipc", (unsigned)getuid(), name ? "-" : "", name ? name : "");
  struct stat st;
  return stat(path, &st) == 0;
}

TEST(notify_recorded_by_another_process) {
  rt_up();
  aclrtStream s;
  aclrtNotify n;
  char key[128] = "";
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), ACL_SUCCESS);
  proc b;
  start(&b);
  CHECK_STR_EQ(proc_cmd(&b, "nimport %s", key), "rc 207006"); /* not on the whitelist */
  CHECK_INT_EQ(aclrtNotifySetImportPid(n, &b.dev_pid, 1), ACL_SUCCESS);
  CHECK_STR_EQ(proc_cmd(&b, "nimport %s", key), "ok");
  CHECK_STR_EQ(proc_cmd(&b, "nwait 1"), "rc 107000"); /* importers record, only the creator waits */
  atomic_int after = 0;
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, mark, &after), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  CHECK_INT_EQ(atomic_load(&after), 0);
  CHECK_STR_EQ(proc_cmd(&b, "nrecord"), "ok");
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(atomic_load(&after), 1);
  /* a record with nobody waiting is kept for the next wait */
  CHECK_STR_EQ(proc_cmd(&b, "nrecord"), "ok");
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 1), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(proc_end(&b), 0);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK(registry_exists());
  rt_down();
  CHECK(!registry_exists()); /* the last process out removes it */
}

TEST(notify_without_pid_validation) {
  rt_up();
  aclrtNotify n;
  char key[128] = "";
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
  proc b;
  start(&b);
  CHECK_STR_EQ(proc_cmd(&b, "nimport %s", key), "ok");
  CHECK_STR_EQ(proc_cmd(&b, "nrecord"), "ok");
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, NULL, 5), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(proc_end(&b), 0);
  /* the creator destroys: the key is gone for later importers */
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  start(&b);
  CHECK_STR_EQ(proc_cmd(&b, "nimport %s", key), "rc 107000");
  CHECK_INT_EQ(proc_end(&b), 0);
  rt_down();
}

/* The helper creates and waits; this process records: the helper's bell
 * thread must wake its parked stream. */
TEST(notify_wakes_the_other_process) {
  rt_up();
  proc b;
  start(&b);
  char key[128] = "";
  CHECK(sscanf(proc_cmd(&b, "ncreate 0"), "key %127s", key) == 1);
  aclrtNotify n;
  CHECK_INT_EQ(aclrtNotifyImportByKey(&n, key, 0), ACL_ERROR_RT_NO_PERMISSION);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclrtNotifySetImportPid");
  int32_t me = 0;
  CHECK_INT_EQ(aclrtDeviceGetBareTgid(&me), ACL_SUCCESS);
  CHECK_STR_EQ(proc_cmd(&b, "nallow %d", (int)me), "ok");
  CHECK_INT_EQ(aclrtNotifyImportByKey(&n, key, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
  proc_send(&b, "nwait 0");
  rt_sleep_ms(100);
  CHECK(!answered(&b));
  CHECK_INT_EQ(aclrtRecordNotify(n, NULL), ACL_SUCCESS);
  CHECK_STR_EQ(proc_answer(&b), "ok");
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(proc_end(&b), 0);
  rt_down();
}

/* kill -9 of the only process that could record: the wait fails. */
TEST(notify_recorder_killed) {
  rt_up();
  aclrtStream s;
  aclrtNotify n;
  char key[128] = "";
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtNotifyGetExportKey(n, key, 65, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), ACL_SUCCESS);
  proc b;
  start(&b);
  CHECK_STR_EQ(proc_cmd(&b, "nimport %s", key), "ok");
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
  kill(b.pid, SIGKILL);
  proc_end(&b);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "every process that could record it has ended");
  /* the notify itself still works here */
  CHECK_INT_EQ(aclrtRecordNotify(n, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyNotify(n), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
  CHECK(!registry_exists());
}

/* The helper creates, records and exports an IPC event; this process opens
 * it (its handle in *h). */
static aclrtEvent open_helper_event(proc *b, aclrtIpcEventHandle *h) {
  char key[128] = "";
  CHECK(sscanf(proc_cmd(b, "ecreate"), "key %127s", key) == 1);
  memset(h, 0, sizeof *h);
  memcpy(h->reserved, key, strlen(key));
  aclrtEvent e = NULL;
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(*h, &e), ACL_SUCCESS);
  return e;
}

/* The vendor's ipcevent sample, and a real cross-process wait. */
TEST(ipc_event_between_processes) {
  rt_up();
  proc b;
  start(&b);
  aclrtIpcEventHandle h;
  aclrtEvent e = open_helper_event(&b, &h);
  aclrtEventRecordedStatus st;
  CHECK_INT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE); /* the creator's record ran */
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s, e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  CHECK_STR_EQ(proc_cmd(&b, "estatus"), "status 1");
  /* the helper's stream waits for a record of ours that has not run yet */
  rt_gate g = {0, 0};
  CHECK_INT_EQ(aclrtLaunchHostFunc(s, rt_gate_wait, &g), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
  CHECK_INT_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  proc_send(&b, "ewait");
  rt_sleep_ms(100);
  CHECK(!answered(&b));
  atomic_store(&g.open, 1);
  CHECK_STR_EQ(proc_answer(&b), "ok");
  /* and the other way round, through a host synchronisation */
  CHECK_STR_EQ(proc_cmd(&b, "erecord"), "ok");
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(proc_end(&b), 0);
  /* the creator is gone: its handle opens nothing */
  CHECK_INT_EQ(aclrtIpcOpenEventHandle(h, &e), ACL_ERROR_RT_PARAM_INVALID);
  rt_down();
  CHECK(!registry_exists());
}

/* kill -9 of the process whose record a wait and a synchronisation wait for. */
TEST(ipc_event_recorder_killed) {
  rt_up();
  proc b;
  start(&b);
  aclrtIpcEventHandle h;
  aclrtEvent e = open_helper_event(&b, &h);
  CHECK_STR_EQ(proc_cmd(&b, "eblocked"), "ok"); /* a record that will never run */
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s, e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  kill(b.pid, SIGKILL);
  proc_end(&b);
  CHECK_INT_EQ(aclrtSynchronizeEvent(e), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_SUSPECT_REMOTE_ERROR);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "every other process bound to it ended");
  CHECK_INT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  rt_down();
  CHECK(!registry_exists());
}
