/*
 * oom.c - every allocation aclInit makes may fail: it must then return an
 * error, leave nothing half-initialised, leak nothing, and work on the next
 * try.  tests/harness/fail_alloc.c fails the Nth allocation made anywhere in
 * the process, the library and jansson included.  Sanitizer builds replace
 * malloc themselves, so there the test is skipped.
 */
#include <stdint.h>

#include "acl/acl.h"
#include "fail_alloc.h"
#include "harness.h"

#if !TH_SANITIZED
static const char *full_config =
    "{\"dump\": {\"dump_list\": [{\"model_name\": \"m\", \"layer\": [\"a\", \"b\"]}], \"dump_path\": \"/tmp\","
    " \"dump_mode\": \"all\"}, \"max_opqueue_num\": \"100\", \"err_msg_mode\": \"1\","
    " \"defaultDevice\": {\"default_device\": 0}, \"StackSize\": {\"aicore_stack_size\": 32768},"
    " \"unknown_key\": 1}";

static void settle(void) {
  aclGetRecentErrMsg(); /* frees what the thread holds */
  aclGetRecentErrMsg();
}

typedef struct init_run {
  const char *cfg;
  int failures; /* runs in which aclInit failed */
} init_run;

/* One aclInit: either whole (then finalised) or failed with nothing half-initialised. */
static void init_once(void *arg) {
  init_run *run = arg;
  aclError rc = aclInit(run->cfg);
  if (rc == ACL_SUCCESS) {
    CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS); /* that allocation was optional: still whole */
    return;
  }
  run->failures++;
  CHECK_INT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}
#endif

TEST(init_survives_every_failed_allocation) {
#if TH_SANITIZED
  printf("skipped: the sanitizer owns malloc in this build\n");
#else
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1); /* no log file: its buffer would outlive the loop */
  char *dir = th_tmpdir();
  char *cfg = th_write_file(dir, "acl.json", full_config);
  /* warm up once: lazily created per-process and per-thread state */
  CHECK_INT_EQ(aclInit(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  settle();
  init_run run = {cfg, 0};
  long total = th_fail_each_allocation(init_once, &run, settle);
  printf("aclInit makes %ld allocations; failing each one: %d failed cleanly, %ld were optional\n", total,
         run.failures, total - run.failures);
  CHECK(run.failures > 10);
  th_rmtree(dir);
  free(cfg);
  free(dir);
#endif
}
