/*
 * log.c - internal tests of the logger (src/common/log.c): configuration
 * from an acl__env built by hand, the ACL__LOG fast path, truncation,
 * reconfiguration, the flush bound and the fork hooks.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "harness.h"

/* An environment with the defaults and the given directory and level. */
static void test_env(acl__env *env, char *dir, int level) {
  memset(env, 0, sizeof(*env));
  env->global_log_level = level;
  for (int m = 0; m < ACL__MOD_COUNT; m++)
    env->module_log_level[m] = -1;
  env->process_log_path = dir;
  env->log_flush_timeout_ms = 2000;
  env->host_log_file_num = 10;
  env->log_file_size = 20u << 20;
  env->device_count = 1;
}

static char *current_text(void) {
  const char *path = acl__log_current_path();
  CHECK_NOT_NULL(path);
  acl__log_flush(-1);
  return th_read_file(path);
}

TEST(unit_log_names) {
  CHECK_STR_EQ(acl__log_level_name(ACL__LOG_DEBUG), "DEBUG");
  CHECK_STR_EQ(acl__log_level_name(ACL__LOG_INFO), "INFO");
  CHECK_STR_EQ(acl__log_level_name(ACL__LOG_WARNING), "WARNING");
  CHECK_STR_EQ(acl__log_level_name(ACL__LOG_ERROR), "ERROR");
  CHECK_STR_EQ(acl__log_level_name(ACL__LOG_NONE), "NONE");
  CHECK_STR_EQ(acl__log_level_name(17), "UNKNOWN");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_ASCENDCL), "ASCENDCL");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_RUNTIME), "RUNTIME");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_GE), "GE");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_DRV), "DRV");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_APP), "APP");
  CHECK_STR_EQ(acl__log_module_name(ACL__MOD_COUNT), "UNKNOWN");
}

static int evaluated;
static int side_effect(void) { return ++evaluated; }

TEST(unit_log_thresholds_per_module) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_WARNING);
  env.module_log_level[ACL__MOD_DRV] = ACL__LOG_DEBUG;
  env.module_log_level[ACL__MOD_GE] = ACL__LOG_NONE;
  acl__log_configure(&env);
  CHECK(!ACL__LOG_ENABLED(ACL__LOG_INFO, ACL__MOD_ASCENDCL));
  CHECK(ACL__LOG_ENABLED(ACL__LOG_WARNING, ACL__MOD_ASCENDCL));
  CHECK(ACL__LOG_ENABLED(ACL__LOG_DEBUG, ACL__MOD_DRV));
  CHECK(!ACL__LOG_ENABLED(ACL__LOG_ERROR, ACL__MOD_GE));
  /* Filtered calls do not evaluate their arguments. */
  ACL__LOGI(ACL__MOD_RUNTIME, "never %d", side_effect());
  CHECK_INT_EQ(evaluated, 0);
  CHECK_NULL(acl__log_current_path());  /* nothing logged, nothing open */
  ACL__LOGD(ACL__MOD_DRV, "drv debug %d", side_effect());
  CHECK_INT_EQ(evaluated, 1);
  char *text = current_text();
  CHECK_STR_HAS(text, "[DEBUG] DRV(");
  CHECK_STR_HAS(text, "[log.c:");
  CHECK_STR_HAS(text, "drv debug 1\n");
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(unit_log_configures_itself_before_configure) {
  char *dir = th_tmpdir();
  setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
  unsetenv("ASCEND_MODULE_LOG_LEVEL");
  ACL__LOGI(ACL__MOD_ASCENDCL, "first call, below the environment's level");
  CHECK_NULL(acl__log_current_path());
  CHECK(!ACL__LOG_ENABLED(ACL__LOG_INFO, ACL__MOD_ASCENDCL));
  ACL__LOGW(ACL__MOD_RUNTIME, "a warning");
  char *text = current_text();
  CHECK_STR_HAS(text, "] RUNTIME(");
  CHECK_STR_HAS(text, "a warning\n");
  CHECK(strstr(text, "first call") == NULL);
  CHECK_STR_HAS(acl__log_current_path(), dir);
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(unit_log_truncates_long_messages) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  acl__log_configure(&env);
  /* 2000 bytes of two-byte UTF-8 characters: the cut keeps characters whole. */
  char big[2001];
  for (int i = 0; i < 2000; i += 2) {
    big[i] = (char)0xC3;
    big[i + 1] = (char)0xA9;
  }
  big[2000] = '\0';
  acl__log_write(ACL__LOG_INFO, ACL__MOD_APP, "dir/x.c", 5, "<%s>", big);
  acl__log_write(ACL__LOG_INFO, ACL__MOD_APP, "x.c", 6, "%s", "exactly fits");
  char *text = current_text();
  char *msg = strstr(text, "]");
  msg = strchr(strstr(msg, "[x.c:5]"), ' ') + 1;
  char *end = strchr(msg, '\n');
  CHECK_NOT_NULL(end);
  CHECK(end - msg <= 1023 && end - msg >= 1021);
  CHECK(strncmp(end - 14, "...[truncated]", 14) == 0);
  CHECK(((unsigned char)end[-15] == 0xA9));  /* last kept byte ends a character */
  CHECK_STR_HAS(text, " exactly fits\n");
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(unit_log_keeps_errno) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  acl__log_configure(&env);
  errno = ERANGE;
  ACL__LOGE(ACL__MOD_ASCENDCL, "an error");
  CHECK_INT_EQ(errno, ERANGE);
  th_rmtree(dir);
  free(dir);
}

TEST(unit_log_reconfigure_moves_to_new_directory) {
  char *a = th_tmpdir(), *b = th_tmpdir();
  acl__env env;
  test_env(&env, a, ACL__LOG_INFO);
  acl__log_configure(&env);
  ACL__LOGE(ACL__MOD_ASCENDCL, "in a");
  CHECK_STR_HAS(acl__log_current_path(), a);
  char *first = strdup(acl__log_current_path());
  /* Same directory again (aclInit after aclFinalize): the file stays. */
  acl__log_configure(&env);
  CHECK_STR_EQ(acl__log_current_path(), first);
  test_env(&env, b, ACL__LOG_INFO);
  acl__log_configure(&env);
  CHECK_NULL(acl__log_current_path());  /* opened at the next line */
  ACL__LOGE(ACL__MOD_ASCENDCL, "in b");
  CHECK_STR_HAS(acl__log_current_path(), b);
  char *text = th_read_file(first);
  CHECK_STR_HAS(text, "in a\n");
  CHECK(strstr(text, "in b") == NULL);
  free(text);
  free(first);
  th_rmtree(a);
  th_rmtree(b);
  free(a);
  free(b);
}

/* Rotation inside one millisecond still gives distinct, ordered names. */
TEST(unit_log_rotation_names_unique) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  env.log_file_size = 1;  /* every line starts a new file */
  env.host_log_file_num = 50;
  acl__log_configure(&env);
  char *names[20];
  for (int i = 0; i < 20; i++) {
    ACL__LOGI(ACL__MOD_GE, "line %d", i);
    names[i] = strdup(acl__log_current_path());
    if (i > 0)
      CHECK(strcmp(names[i - 1], names[i]) < 0);
  }
  /* Fewer files allowed after a reconfiguration: the oldest go at once. */
  env.host_log_file_num = 4;
  acl__log_configure(&env);
  for (int i = 0; i < 20; i++) {
    struct stat st;
    CHECK_INT_EQ(stat(names[i], &st) == 0, i >= 16);
    free(names[i]);
  }
  th_rmtree(dir);
  free(dir);
}

static void *flush_in_thread(void *arg) {
  int *rc = arg;
  uint64_t t0 = th_now_ns();
  rc[0] = acl__log_flush(100);
  rc[1] = (int)((th_now_ns() - t0) / 1000000);
  return NULL;
}

TEST(unit_log_flush_bound) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  acl__log_configure(&env);
  ACL__LOGI(ACL__MOD_APP, "buffered");
  /* Fast when nothing is in the way. */
  uint64_t t0 = th_now_ns();
  CHECK_INT_EQ(acl__log_flush(2000), 0);
  CHECK((th_now_ns() - t0) < 100u * 1000000u);
  /* Bounded when the writer lock is held (here by the fork hook). */
  acl__log_atfork_prepare();
  pthread_t t;
  int rc[2] = {7, 0};
  CHECK_INT_EQ(pthread_create(&t, NULL, flush_in_thread, rc), 0);
  pthread_join(t, NULL);
  acl__log_atfork_parent();
  CHECK_INT_EQ(rc[0], -1);
  CHECK(rc[1] >= 90 && rc[1] < 5000);
  CHECK_INT_EQ(acl__log_flush(-1), 0);
  th_rmtree(dir);
  free(dir);
}

TEST(unit_log_fork_hooks) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  acl__log_configure(&env);
  ACL__LOGE(ACL__MOD_APP, "parent error");
  ACL__LOGI(ACL__MOD_APP, "parent buffered");
  char *parent = strdup(acl__log_current_path());

  acl__log_atfork_prepare();
  pid_t pid = fork();
  if (pid == 0) {
    acl__log_atfork_child();
    if (acl__log_current_path() != NULL)
      _exit(2);
    ACL__LOGI(ACL__MOD_APP, "child line");
    const char *path = acl__log_current_path();
    if (path == NULL || strcmp(path, parent) == 0)
      _exit(3);
    char tag[64];
    snprintf(tag, sizeof(tag), "plog-%d_", (int)getpid());
    if (strstr(path, tag) == NULL)
      _exit(4);
    acl__log_flush(-1);
    _exit(0);
  }
  acl__log_atfork_parent();
  int status = 0;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  ACL__LOGI(ACL__MOD_APP, "parent after");
  char *text = current_text();
  CHECK_INT_EQ(strstr(text, "parent buffered") != NULL, 1);
  CHECK(strstr(strstr(text, "parent buffered") + 1, "parent buffered") == NULL);
  CHECK(strstr(text, "child line") == NULL);
  CHECK_STR_HAS(text, "parent after\n");
  free(text);
  free(parent);
  th_rmtree(dir);
  free(dir);
}

/* Writers, a reconfiguring thread, flushes and path queries all at once:
 * every line whole, nothing lost (ThreadSanitizer runs this too). */
#define STRESS_THREADS 6
#define STRESS_LINES 3000

static atomic_int stress_done;

static void *stress_writer(void *arg) {
  int k = (int)(intptr_t)arg;
  for (int i = 0; i < STRESS_LINES; i++) {
    ACL__LOGI(ACL__MOD_RUNTIME, "w%d n%d %s", k, i, "0123456789abcdef0123456789abcdef");
    if (i % 500 == 0)
      acl__log_flush(-1);
  }
  return NULL;
}

static void *stress_other(void *arg) {
  acl__env *env = arg;
  while (!atomic_load(&stress_done)) {
    acl__log_configure(env);  /* same directory: the file stays */
    (void)acl__log_current_path();
  }
  return NULL;
}

TEST(unit_log_threads_stress) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_INFO);
  acl__log_configure(&env);
  pthread_t t[STRESS_THREADS], other;
  CHECK_INT_EQ(pthread_create(&other, NULL, stress_other, &env), 0);
  for (int k = 0; k < STRESS_THREADS; k++)
    CHECK_INT_EQ(pthread_create(&t[k], NULL, stress_writer, (void *)(intptr_t)k), 0);
  for (int k = 0; k < STRESS_THREADS; k++)
    pthread_join(t[k], NULL);
  atomic_store(&stress_done, 1);
  pthread_join(other, NULL);

  char *text = current_text();
  int count[STRESS_THREADS] = {0};
  for (char *line = text, *nl; *line != '\0'; line = nl + 1) {
    nl = strchr(line, '\n');
    CHECK_NOT_NULL(nl);
    *nl = '\0';
    CHECK(strncmp(line, "[INFO] RUNTIME(", 15) == 0);
    char *w = strstr(line, " w");
    CHECK_NOT_NULL(w);
    int k = -1, i = -1;
    char tail[64];
    CHECK_INT_EQ(sscanf(w, " w%d n%d %63s", &k, &i, tail), 3);
    CHECK(k >= 0 && k < STRESS_THREADS);
    CHECK_INT_EQ(i, count[k]);
    CHECK_STR_EQ(tail, "0123456789abcdef0123456789abcdef");
    count[k]++;
  }
  for (int k = 0; k < STRESS_THREADS; k++)
    CHECK_INT_EQ(count[k], STRESS_LINES);
  free(text);
  th_rmtree(dir);
  free(dir);
}

/* A fork() that bypasses the hooks (no aclInit registered them): the child
 * still drops the parent's FILE and buffered lines and opens its own file. */
TEST(unit_log_fork_without_hooks) {
  char *dir = th_tmpdir();
  acl__env env;
  test_env(&env, dir, ACL__LOG_DEBUG);
  env.log_file_size = 4096;
  env.host_log_file_num = 2;
  acl__log_configure(&env);
  ACL__LOGI(ACL__MOD_APP, "parent buffered");
  char *parent = strdup(acl__log_current_path());
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    /* Enough lines to rotate several times: the parent's file must survive. */
    for (int i = 0; i < 200; i++)
      ACL__LOGI(ACL__MOD_APP, "child line %d", i);
    acl__log_flush(-1);
    const char *path = acl__log_current_path();
    _exit(path != NULL && strcmp(path, parent) != 0 ? 0 : 3);
  }
  int status = 0;
  CHECK_INT_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  CHECK_STR_EQ(acl__log_current_path(), parent);
  char *text = current_text();
  CHECK_STR_HAS(text, "parent buffered\n");
  CHECK(strstr(strstr(text, "parent buffered") + 1, "parent buffered") == NULL);
  CHECK(strstr(text, "child line") == NULL);
  free(text);
  free(parent);
  th_rmtree(dir);
  free(dir);
}
