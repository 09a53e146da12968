/* env.c - environment variables: bad values warn (never silently), the init timeline is logged. */
#include <fcntl.h>
#include <unistd.h>

#include "acl/acl.h"
#include "harness.h"
#include "openacl/openacl.h"

/* Runs aclInit with stderr captured; returns the warnings it reported
 * (openaclGetInitWarnings), after checking that the library kept quiet on
 * stderr: the log level of these tests (default ERROR) does not ask for
 * WARNING lines. */
static char *init_capturing_stderr(aclError *rc) {
  char *dir = th_tmpdir();
  char path[512];
  snprintf(path, sizeof(path), "%s/stderr.txt", dir);
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
  *rc = aclInit(NULL);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char *err = th_read_file(path);
  CHECK_STR_EQ(err, "");
  free(err);
  th_rmtree(dir);
  free(dir);
  size_t needed = 0;
  CHECK_INT_EQ(openaclGetInitWarnings(NULL, 0, &needed), ACL_ERROR_INVALID_PARAM);
  char *out = calloc(1, needed);
  CHECK_INT_EQ(openaclGetInitWarnings(out, needed, &needed), ACL_SUCCESS);
  return out;
}

TEST(bad_log_level_warns_with_name_value_default) {
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "loud", 1);
  aclError rc;
  char *err = init_capturing_stderr(&rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_HAS(err, "ASCEND_GLOBAL_LOG_LEVEL");
  CHECK_STR_HAS(err, "'loud'");
  CHECK_STR_HAS(err, "using 3 instead");
  free(err);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(bad_flush_timeout_warns) {
  setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "999999", 1);
  aclError rc;
  char *err = init_capturing_stderr(&rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_HAS(err, "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT");
  CHECK_STR_HAS(err, "0 to 180000");
  free(err);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(bad_module_log_level_warns) {
  setenv("ASCEND_MODULE_LOG_LEVEL", "NOPE=1:APP=x", 1);
  aclError rc;
  char *err = init_capturing_stderr(&rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_HAS(err, "module 'NOPE'");
  CHECK_STR_HAS(err, "APP=x");
  free(err);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(bad_visible_devices_warn_and_quote_token) {
  setenv("ASCEND_RT_VISIBLE_DEVICES", "0,x", 1);
  setenv("ASCEND_VISIBLE_DEVICES", "0-", 1);
  aclError rc;
  char *err = init_capturing_stderr(&rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_HAS(err, "ASCEND_RT_VISIBLE_DEVICES");
  CHECK_STR_HAS(err, "'x'");
  CHECK_STR_HAS(err, "ASCEND_VISIBLE_DEVICES");
  CHECK_STR_HAS(err, "'0-'");
  free(err);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(good_values_print_nothing) {
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
  setenv("ASCEND_VISIBLE_DEVICES", "0", 1);
  setenv("ASCEND_RT_VISIBLE_DEVICES", "0", 1);
  setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "0", 1);
  aclError rc;
  char *err = init_capturing_stderr(&rc);
  CHECK_INT_EQ(rc, ACL_SUCCESS);
  CHECK_STR_EQ(err, "");
  free(err);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(effective_config_shows_environment) {
  setenv("ASCEND_RT_VISIBLE_DEVICES", "0", 1);
  setenv("ASCEND_LOG_DEVICE_FLUSH_TIMEOUT", "1234", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  char buf[16384];
  size_t n;
  CHECK_INT_EQ(openaclGetEffectiveConfig(buf, sizeof(buf), &n), ACL_SUCCESS);
  CHECK_STR_HAS(buf, "1234");
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  CHECK_INT_EQ(openaclGetEffectiveConfig(buf, sizeof(buf), &n), ACL_ERROR_UNINITIALIZE);
}

TEST(init_timeline_is_logged_at_info) {
  char *dir = th_tmpdir();
  setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  const char *p = openaclGetLogFilePath();
  CHECK_NOT_NULL(p);
  char *path = strdup(p);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  char *log = th_read_file(path);
  CHECK_STR_HAS(log, "[INFO] ASCENDCL(");
  CHECK_STR_HAS(log, "aclInit timeline: environment ");
  CHECK_STR_HAS(log, "logger ");
  CHECK_STR_HAS(log, "configuration ");
  CHECK_STR_HAS(log, "device discovery ");
  CHECK_STR_HAS(log, "resource manager ");
  CHECK_STR_HAS(log, "total ");
  free(log);
  free(path);
  th_rmtree(dir);
  free(dir);
}
