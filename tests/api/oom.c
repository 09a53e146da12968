/*
 * oom.c - every allocation aclInit makes may fail: it must then return an
 * error, leave nothing half-initialised, leak nothing, and work on the next
 * try.  The test binary interposes malloc and friends (forwarding to glibc's
 * __libc_* functions) so it can fail the Nth allocation made anywhere in the
 * process, the library and jansson included.  Sanitizer builds replace
 * malloc themselves, so there the test only checks that it is skipped.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "acl/acl.h"
#include "harness.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OOM_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OOM_SANITIZED 1
#endif
#endif

#ifndef OOM_SANITIZED
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static atomic_long oom_countdown = -1; /* fail when it reaches 0; -1 = off */
static atomic_long oom_live;           /* allocations not yet freed */
static atomic_long oom_calls;          /* allocation calls so far */

static int oom_should_fail(void) {
  atomic_fetch_add(&oom_calls, 1);
  long c = atomic_load(&oom_countdown);
  if (c < 0)
    return 0;
  return atomic_fetch_sub(&oom_countdown, 1) == 0;
}

void *malloc(size_t n) {
  if (oom_should_fail())
    return NULL;
  void *p = __libc_malloc(n);
  if (p)
    atomic_fetch_add(&oom_live, 1);
  return p;
}
void *calloc(size_t a, size_t b) {
  if (oom_should_fail())
    return NULL;
  void *p = __libc_calloc(a, b);
  if (p)
    atomic_fetch_add(&oom_live, 1);
  return p;
}
void *realloc(void *old, size_t n) {
  if (oom_should_fail())
    return NULL;
  void *p = __libc_realloc(old, n);
  if (p && old == NULL)
    atomic_fetch_add(&oom_live, 1);
  if (n == 0 && old != NULL && p == NULL)
    atomic_fetch_sub(&oom_live, 1);
  return p;
}
void free(void *p) {
  if (p)
    atomic_fetch_sub(&oom_live, 1);
  __libc_free(p);
}

static const char *full_config =
    "{\"dump\": {\"dump_list\": [{\"model_name\": \"m\", \"layer\": [\"a\", \"b\"]}], \"dump_path\": \"/tmp\","
    " \"dump_mode\": \"all\"}, \"max_opqueue_num\": \"100\", \"err_msg_mode\": \"1\","
    " \"defaultDevice\": {\"default_device\": 0}, \"StackSize\": {\"aicore_stack_size\": 32768},"
    " \"unknown_key\": 1}";
#endif

TEST(init_survives_every_failed_allocation) {
#ifdef OOM_SANITIZED
  printf("skipped: the sanitizer owns malloc in this build\n");
#else
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1); /* no log file: its buffer would outlive the loop */
  char *dir = th_tmpdir();
  char *cfg = th_write_file(dir, "acl.json", full_config);
  /* warm up once: lazily created per-process and per-thread state */
  CHECK_INT_EQ(aclInit(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  aclGetRecentErrMsg();
  aclGetRecentErrMsg();
  /* how many allocations one successful aclInit makes */
  long c0 = atomic_load(&oom_calls);
  CHECK_INT_EQ(aclInit(cfg), ACL_SUCCESS);
  long total = atomic_load(&oom_calls) - c0;
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  aclGetRecentErrMsg();
  aclGetRecentErrMsg();
  int failures = 0;
  for (long n = 0; n < total; n++) {
    long before = atomic_load(&oom_live);
    atomic_store(&oom_countdown, n);
    aclError rc = aclInit(cfg);
    atomic_store(&oom_countdown, -1);
    if (rc == ACL_SUCCESS) {
      /* that allocation was optional (e.g. a warning's text): still whole */
      CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
      aclGetRecentErrMsg();
      aclGetRecentErrMsg();
      if (atomic_load(&oom_live) != before)
        th_fail(__FILE__, __LINE__, "allocation %ld failed, init succeeded, %ld allocations leaked", n,
                atomic_load(&oom_live) - before);
      continue;
    }
    failures++;
    CHECK_INT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE); /* nothing half-initialised */
    aclGetRecentErrMsg();                                   /* frees what the thread holds */
    aclGetRecentErrMsg();
    long after = atomic_load(&oom_live);
    if (after != before)
      th_fail(__FILE__, __LINE__, "failing allocation %ld (rc %d) leaked %ld allocations", n, rc, after - before);
  }
  printf("aclInit makes %ld allocations; failing each one: %d failed cleanly, %ld were optional\n", total,
         failures, total - failures);
  CHECK(failures > 10);
  th_rmtree(dir);
  free(cfg);
  free(dir);
#endif
}
