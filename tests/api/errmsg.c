/* errmsg.c - aclGetRecentErrMsg, aclrtGetLastError / PeekAtLastError, err_msg_mode. */
#include <pthread.h>

#include "acl/acl.h"
#include "harness.h"

static aclError fail_once(void) { return aclDestroyDataBuffer(NULL); }

TEST(no_message_is_null) {
  CHECK_NULL(aclGetRecentErrMsg());
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_NULL(aclGetRecentErrMsg());
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(message_names_api_code_cause_and_remedy) {
  CHECK_INT_EQ(fail_once(), ACL_ERROR_INVALID_PARAM);
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "aclDestroyDataBuffer failed");
  CHECK_STR_HAS(m, "ACL_ERROR_INVALID_PARAM (100000)");
  CHECK_STR_HAS(m, "dataBuffer is NULL");
  CHECK_STR_HAS(m, "Remedy:");
}

TEST(reading_clears) {
  fail_once();
  CHECK_NOT_NULL(aclGetRecentErrMsg());
  CHECK_NULL(aclGetRecentErrMsg());
}

TEST(messages_come_newest_first) {
  aclDestroyDataBuffer(NULL);
  aclrtGetVersion(NULL, NULL, NULL);
  const char *m = aclGetRecentErrMsg();
  CHECK_NOT_NULL(m);
  const char *a = strstr(m, "aclrtGetVersion");
  const char *b = strstr(m, "aclDestroyDataBuffer");
  CHECK(a != NULL && b != NULL && a < b);
}

TEST(many_unread_messages_stay_bounded) {
  for (int i = 0; i < 1000; i++)
    fail_once();
  const char *m = aclGetRecentErrMsg();
  CHECK_STR_HAS(m, "older messages were dropped");
  CHECK(strlen(m) < 16 * 1024);
}

static const char *other_thread_msg;
static void *other_thread(void *arg) {
  (void)arg;
  other_thread_msg = aclGetRecentErrMsg() ? "seen" : NULL;
  fail_once();
  return NULL;
}

TEST(thread_mode_is_default) {
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  fail_once();
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  pthread_join(t, NULL);
  CHECK_NULL(other_thread_msg);             /* the other thread did not see ours */
  const char *m = aclGetRecentErrMsg();     /* and we see only ours: one line */
  CHECK_NOT_NULL(m);
  CHECK(strchr(m, '\n') == NULL);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(process_mode_from_acl_json) {
  char *dir = th_tmpdir();
  char *cfg = th_write_file(dir, "acl.json", "{\"err_msg_mode\": \"1\"}");
  CHECK_INT_EQ(aclInit(cfg), ACL_SUCCESS);
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  pthread_join(t, NULL);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclDestroyDataBuffer failed");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  th_rmtree(dir);
  free(cfg);
  free(dir);
}

TEST(last_error_get_clears_peek_keeps) {
  CHECK_INT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  fail_once();
  CHECK_INT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtGetLastError((aclrtLastErrLevel)5), ACL_ERROR_INVALID_PARAM);
}
