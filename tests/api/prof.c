/*
 * prof.c - profiling through the public API (tests api/prof/...): the
 * aclprof lifecycle's ordering rules and codes, configurations, a profile
 * of copies, a model and host functions on two streams written as the
 * vendor's PROF_ directory (CSV headers, and the trace JSON checked by
 * tests/api/prof_trace_check.py when OPENACL_PROF_CHECKER is set), msproftx
 * markers and nested ranges, model subscription records read through a pipe,
 * aclmdlExecute from two threads at once while profiling, and bad input
 * (unwritable paths, paths with spaces).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "harness.h"
#include "model_helpers.h"

static char root[512];

static void setup(void) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  snprintf(root, sizeof(root), "/tmp/openacl prof test %d", (int)getpid()); /* a space on purpose */
}

static void teardown(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  char cmd[600];
  snprintf(cmd, sizeof(cmd), "%s rm -rf '%s'", getenv("OPENACL_PROF_KEEP") ? "true" : "", root);
  CHECK_INT_EQ(system(cmd), 0);
}

/* The PROF_ directory under root (the newest), into out. */
static int find_prof_dir(char *out, size_t size) {
  DIR *d = opendir(root);
  if (d == NULL)
    return -1;
  struct dirent *e;
  char best[256] = "";
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, "PROF_", 5) == 0 && strcmp(e->d_name, best) > 0)
      snprintf(best, sizeof(best), "%s", e->d_name);
  closedir(d);
  if (best[0] == '\0')
    return -1;
  snprintf(out, size, "%s/%s", root, best);
  return 0;
}

/* The first line of the file in dir/mindstudio_profiler_output whose name starts with prefix. */
static int first_line(const char *dir, const char *prefix, char *line, size_t size, int *rows) {
  char out[700];
  snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", dir);
  DIR *d = opendir(out);
  if (d == NULL)
    return -1;
  struct dirent *e;
  int rc = -1;
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
      char path[1000];
      snprintf(path, sizeof(path), "%s/%s", out, e->d_name);
      FILE *f = fopen(path, "r");
      if (f == NULL)
        break;
      line[0] = '\0';
      if (fgets(line, (int)size, f) != NULL)
        rc = 0;
      line[strcspn(line, "\n")] = '\0';
      char buf[4096];
      *rows = 0;
      while (fgets(buf, sizeof(buf), f) != NULL)
        (*rows)++;
      fclose(f);
      break;
    }
  closedir(d);
  return rc;
}

TEST(ordering_rules) {
  setup();
  uint32_t dev = 0;
  aclprofConfig *cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
  CHECK_NOT_NULL(cfg);
  /* without aclprofInit */
  CHECK_INT_EQ(aclprofStart(cfg), ACL_ERROR_PROF_NOT_RUN);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);
  CHECK_INT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
  /* bad init arguments */
  CHECK_INT_EQ(aclprofInit(NULL, 3), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofInit(root, strlen(root) + 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofInit(root, 0), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_ERROR_REPEAT_INITIALIZE);
  CHECK_INT_EQ(aclprofStart(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_ERROR_PROF_NOT_RUN);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
  teardown();
}

TEST(config_rules) {
  setup();
  uint32_t devs[2] = {0, 0};
  CHECK_NULL(aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API)); /* duplicate */
  CHECK_NULL(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
  CHECK_NULL(aclprofCreateConfig(devs, 0, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
  devs[0] = 999;
  CHECK_NULL(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, ACL_PROF_ACL_API));
  aclprofConfig *tx = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
  CHECK_NOT_NULL(tx);
  CHECK_INT_EQ(aclprofDestroyConfig(tx), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM);
  devs[0] = 0;
  aclprofConfig *bad = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, 1ULL << 40);
  CHECK_NOT_NULL(bad);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStart(bad), ACL_ERROR_PROF_MODULES_UNSUPPORTED);
  CHECK_INT_EQ(aclprofDestroyConfig(bad), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "150", 3), ACL_ERROR_INVALID_PROFILING_CONFIG);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "100MB", 5), ACL_ERROR_INVALID_PROFILING_CONFIG);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofSetConfig(ACL_PROF_HOST_SYS, "cpu", 4), ACL_ERROR_INVALID_PARAM); /* length */
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  teardown();
}

TEST(unwritable_path) {
  setup();
  const char *p = "/proc/openacl-cannot-write-here";
  uint32_t dev = 0;
  aclprofConfig *cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
  CHECK_INT_EQ(aclprofInit(p, strlen(p)), ACL_SUCCESS); /* the directory is made at start */
  CHECK_INT_EQ(aclprofStart(cfg), ACL_ERROR_PROFILING_FAILURE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclprofStart");
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  teardown();
}

static void host_fn(void *arg) { (void)arg; usleep(1000); }

/* Runs a one-node model on two streams with copies and host functions. */
static void workload(int with_model) {
  aclrtStream s[2];
  CHECK_INT_EQ(aclrtCreateStream(&s[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtCreateStream(&s[1]), ACL_SUCCESS);
  uint32_t mid = 0;
  tw_io in, out, out2;
  aclmdlDataset *di = NULL, *dout = NULL, *dout2 = NULL; /* one output per stream: no two writers */
  if (with_model) {
    tw_value x = {"x", 2, {2, 4}, {0}}, y = {"y", 2, {2, 4}, {0}};
    size_t size = 0;
    uint8_t *buf = tw_one_node("Relu", &x, 1, &y, NULL, "prof test", &size);
    CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &mid), ACL_SUCCESS);
    free(buf);
    tw_io_alloc(&in, 32);
    tw_io_alloc(&out, 32);
    tw_io_alloc(&out2, 32);
    tw_io_fill(&in, 0, 8);
    di = aclmdlCreateDataset();
    dout = aclmdlCreateDataset();
    dout2 = aclmdlCreateDataset();
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(di, in.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(dout, out.buf), ACL_SUCCESS);
    CHECK_INT_EQ(aclmdlAddDatasetBuffer(dout2, out2.buf), ACL_SUCCESS);
  }
  void *dev = NULL;
  char host[4096] = {0};
  CHECK_INT_EQ(aclrtMalloc(&dev, 2 * sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS); /* a half per stream */
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < 2; k++) {
      CHECK_INT_EQ(aclrtMemcpyAsync((char *)dev + k * sizeof(host), sizeof(host), host, sizeof(host),
                                    ACL_MEMCPY_HOST_TO_DEVICE, s[k]),
                   ACL_SUCCESS);
      CHECK_INT_EQ(aclrtLaunchHostFunc(s[k], host_fn, NULL), ACL_SUCCESS);
      if (with_model)
        CHECK_INT_EQ(aclmdlExecuteAsync(mid, di, k ? dout2 : dout, s[k]), ACL_SUCCESS);
    }
  }
  aclrtEvent ev;
  CHECK_INT_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtRecordEvent(ev, s[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtStreamWaitEvent(s[1], ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSynchronizeStream(s[1]), ACL_SUCCESS);
  if (with_model)
    CHECK_INT_EQ(aclmdlExecute(mid, di, dout), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyEvent(ev), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(dev), ACL_SUCCESS);
  if (with_model) {
    aclmdlDestroyDataset(di);
    aclmdlDestroyDataset(dout);
    aclmdlDestroyDataset(dout2);
    tw_io_free(&in);
    tw_io_free(&out);
    tw_io_free(&out2);
    CHECK_INT_EQ(aclmdlUnload(mid), ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclrtDestroyStream(s[0]), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s[1]), ACL_SUCCESS);
}

static void check_trace(const char *dir) {
  const char *checker = getenv("OPENACL_PROF_CHECKER");
  if (checker == NULL || checker[0] == '\0')
    return;
  char cmd[1500];
  snprintf(cmd, sizeof(cmd), "%s '%s'", checker, dir);
  CHECK_INT_EQ(system(cmd), 0);
}

TEST(profile_two_streams) {
  setup();
  uint32_t dev = 0;
  aclprofConfig *cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL,
                                           ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API |
                                               ACL_PROF_MSPROFTX | ACL_PROF_TASK_MEMORY);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  workload(1);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  char dir[600], line[1024];
  int rows = 0;
  CHECK_INT_EQ(find_prof_dir(dir, sizeof(dir)), 0);
  CHECK_INT_EQ(first_line(dir, "op_summary_", line, sizeof(line), &rows), 0);
  CHECK_STR_HAS(line, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),"
                      "Task Duration(us),Task Wait Time(us)");
  CHECK_INT_EQ(rows, 9); /* 8 asynchronous executions and one synchronous, one Relu each */
  CHECK_INT_EQ(first_line(dir, "task_time_", line, sizeof(line), &rows), 0);
  CHECK_STR_EQ(line, "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)");
  CHECK(rows >= 8 * 3 + 2);
  CHECK_INT_EQ(first_line(dir, "api_statistic_", line, sizeof(line), &rows), 0);
  CHECK_STR_EQ(line, "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance");
  CHECK(rows >= 1);
  CHECK_INT_EQ(first_line(dir, "op_statistic_", line, sizeof(line), &rows), 0);
  CHECK_INT_EQ(rows, 1);
  CHECK_INT_EQ(first_line(dir, "msprof_", line, sizeof(line), &rows), 0); /* the trace */
  check_trace(dir);
  teardown();
}

TEST(msproftx_ranges) {
  setup();
  /* before collection: NULL stamps and -1 */
  CHECK_NULL(aclprofCreateStamp());
  CHECK_INT_EQ(aclprofPop(), -1);
  aclprofConfig *cfg = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  void *outer = aclprofCreateStamp(), *inner = aclprofCreateStamp(), *mark = aclprofCreateStamp();
  CHECK_NOT_NULL(outer);
  CHECK_INT_EQ(aclprofSetStampTraceMessage(outer, "outer", 5), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofSetStampTraceMessage(inner, "inner, with a comma", 19), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofSetStampTraceMessage(mark, "mark", 4), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofMark(mark), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofPush(outer), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofPush(inner), ACL_SUCCESS);
  usleep(2000);
  CHECK_INT_EQ(aclprofPop(), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofPop(), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofPop(), -1); /* empty stack */
  uint32_t id = 0;
  CHECK_INT_EQ(aclprofRangeStart(outer, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofRangeStart(outer, &id), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofRangeStop(id + 1000), -1);
  CHECK_INT_EQ(aclprofRangeStop(id), ACL_SUCCESS);
  aclrtStream s;
  CHECK_INT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofMarkEx("on stream", 9, s), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofMarkEx("on stream", 3, s), -1);
  CHECK_INT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  CHECK(aclprofStr2Id("abc") != UINT64_MAX);
  CHECK(aclprofStr2Id("") == UINT64_MAX);
  aclprofStepInfo *step = aclprofCreateStepInfo();
  CHECK_INT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_START, NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofGetStepTimestamp(step, ACL_STEP_END, NULL), ACL_SUCCESS);
  aclprofDestroyStepInfo(step);
  aclprofDestroyStamp(outer);
  aclprofDestroyStamp(inner);
  aclprofDestroyStamp(mark);
  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  char dir[600], line[1024];
  int rows = 0;
  CHECK_INT_EQ(find_prof_dir(dir, sizeof(dir)), 0);
  CHECK_INT_EQ(first_line(dir, "msprof_tx_", line, sizeof(line), &rows), 0);
  CHECK_STR_EQ(line, "Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),End_time(us),"
                     "message_type,message,domain,Device Start_time(us),Device End_time(us)");
  CHECK_INT_EQ(rows, 5); /* mark, inner, outer, range, marker_ex */
  check_trace(dir);
  teardown();
}

typedef struct reader {
  int fd;
  int records;
  int named;
} reader;

static void *read_pipe(void *arg) {
  reader *r = arg;
  size_t sz = 0;
  aclprofGetOpDescSize(&sz);
  char buf[80 * 16];
  ssize_t n;
  while ((n = read(r->fd, buf, sizeof(buf))) > 0) {
    uint32_t num = 0;
    if (aclprofGetOpNum(buf, (size_t)n, &num) != ACL_SUCCESS)
      continue;
    for (uint32_t i = 0; i < num; i++) {
      char type[65], name[257];
      size_t len = 0;
      r->records++;
      if (aclprofGetOpTypeLen(buf, (size_t)n, i, &len) == 0 && aclprofGetOpType(buf, (size_t)n, i, type, len) == 0 &&
          strcmp(type, "Relu") == 0 && aclprofGetOpName(buf, (size_t)n, i, name, sizeof(name)) == 0 &&
          aclprofGetOpEnd(buf, (size_t)n, i) >= aclprofGetOpStart(buf, (size_t)n, i))
        r->named++;
    }
  }
  return NULL;
}

TEST(subscription_records) {
  setup();
  size_t sz = 0;
  CHECK_INT_EQ(aclprofGetOpDescSize(&sz), ACL_SUCCESS);
  CHECK_INT_EQ((int)sz, 80);
  int fds[2];
  CHECK_INT_EQ(pipe(fds), 0);
  tw_value x = {"x", 2, {2, 4}, {0}}, y = {"y", 2, {2, 4}, {0}};
  size_t size = 0;
  uint8_t *buf = tw_one_node("Relu", &x, 1, &y, NULL, "prof test", &size);
  uint32_t mid = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &mid), ACL_SUCCESS);
  free(buf);
  CHECK_NULL(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]));
  aclprofSubscribeConfig *sc = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  CHECK_NOT_NULL(sc);
  CHECK_INT_EQ(aclprofModelSubscribe(mid + 100, sc), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(aclprofModelSubscribe(mid, sc), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofModelSubscribe(mid, sc), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_ERROR_PROF_API_CONFLICT);
  reader rd = {fds[0], 0, 0};
  pthread_t th;
  CHECK_INT_EQ(pthread_create(&th, NULL, read_pipe, &rd), 0);
  tw_io in, out;
  tw_io_alloc(&in, 32);
  tw_io_alloc(&out, 32);
  tw_io_fill(&in, 0, 8);
  aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(di, in.buf), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(dout, out.buf), ACL_SUCCESS);
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(aclmdlExecute(mid, di, dout), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofModelUnSubscribe(mid), ACL_SUCCESS); /* closes fds[1]: the reader ends */
  CHECK_INT_EQ(aclprofModelUnSubscribe(mid), ACL_ERROR_INVALID_MODEL_ID);
  CHECK_INT_EQ(pthread_join(th, NULL), 0);
  close(fds[0]);
  CHECK_INT_EQ(rd.records, 3);
  CHECK_INT_EQ(rd.named, 3);
  char junk[80] = {0};
  uint32_t num = 0;
  CHECK_INT_EQ(aclprofGetOpNum(junk, 80, &num), ACL_ERROR_INVALID_PARAM); /* bad signature */
  CHECK_INT_EQ(aclprofGetOpNum(junk, 79, &num), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclprofDestroySubscribeConfig(sc), ACL_SUCCESS);
  aclmdlDestroyDataset(di);
  aclmdlDestroyDataset(dout);
  tw_io_free(&in);
  tw_io_free(&out);
  CHECK_INT_EQ(aclmdlUnload(mid), ACL_SUCCESS);
  teardown();
}

/* One thread of concurrent_execute: its own datasets, EXEC_RUNS synchronous
 * executions of the shared model; the first failing code in rc. */
#define EXEC_RUNS 25
typedef struct exec_arg {
  uint32_t mid;
  aclError rc;
} exec_arg;

static void *exec_thread(void *p) {
  exec_arg *a = p;
  a->rc = aclrtSetDevice(0);
  tw_io in, out;
  tw_io_alloc(&in, 32);
  tw_io_alloc(&out, 32);
  tw_io_fill(&in, 0, 8);
  aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
  if (a->rc == ACL_SUCCESS)
    a->rc = aclmdlAddDatasetBuffer(di, in.buf);
  if (a->rc == ACL_SUCCESS)
    a->rc = aclmdlAddDatasetBuffer(dout, out.buf);
  for (int i = 0; i < EXEC_RUNS && a->rc == ACL_SUCCESS; i++)
    a->rc = aclmdlExecute(a->mid, di, dout);
  aclmdlDestroyDataset(di);
  aclmdlDestroyDataset(dout);
  tw_io_free(&in);
  tw_io_free(&out);
  return NULL;
}

/* aclmdlExecute from two threads at once with profiling on: every
 * execution's operator recorded, a sound trace (and, under TSan, no race
 * between the recording threads and the writer). */
TEST(concurrent_execute_two_threads) {
  setup();
  tw_value x = {"x", 2, {2, 4}, {0}}, y = {"y", 2, {2, 4}, {0}};
  size_t size = 0;
  uint8_t *buf = tw_one_node("Relu", &x, 1, &y, NULL, "prof threads", &size);
  uint32_t mid = 0;
  CHECK_INT_EQ(aclmdlLoadFromMem(buf, size, &mid), ACL_SUCCESS);
  free(buf);
  uint32_t dev = 0;
  aclprofConfig *cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL,
                                           ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_RUNTIME_API);
  CHECK_INT_EQ(aclprofInit(root, strlen(root)), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofStart(cfg), ACL_SUCCESS);
  exec_arg a[2] = {{mid, 0}, {mid, 0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(pthread_create(&th[i], NULL, exec_thread, &a[i]), 0);
  for (int i = 0; i < 2; i++) {
    CHECK_INT_EQ(pthread_join(th[i], NULL), 0);
    CHECK_INT_EQ(a[i].rc, ACL_SUCCESS);
  }
  CHECK_INT_EQ(aclprofStop(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclprofFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(mid), ACL_SUCCESS);
  char dir[600], line[1024];
  int rows = 0;
  CHECK_INT_EQ(find_prof_dir(dir, sizeof(dir)), 0);
  CHECK_INT_EQ(first_line(dir, "op_summary_", line, sizeof(line), &rows), 0);
  CHECK_INT_EQ(rows, 2 * EXEC_RUNS); /* one Relu per execution */
  CHECK_INT_EQ(first_line(dir, "task_time_", line, sizeof(line), &rows), 0);
  CHECK(rows >= 2 * EXEC_RUNS);
  CHECK_INT_EQ(first_line(dir, "api_statistic_", line, sizeof(line), &rows), 0);
  CHECK(rows >= 1);
  check_trace(dir);
  teardown();
}

TEST(profile_off_costs_nothing_visible) {
  /* profiling never started: no directory appears and work runs as usual */
  setup();
  workload(0);
  char dir[600];
  CHECK_INT_EQ(find_prof_dir(dir, sizeof(dir)), -1);
  teardown();
}
