/*
 * log.c - black-box tests of the process log: where the plog files go, the
 * line format, the logging environment variables, rotation, the stdout copy,
 * the stderr fallback, truncation, flushing, threads and fork.
 *
 * Each test runs in its own process and sets the environment before aclInit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <regex.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "openacl/openacl.h"
#include "harness.h"

/* ---- helpers -------------------------------------------------------------- */

static const char *const log_vars[] = {
  "ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_MODULE_LOG_LEVEL", "ASCEND_SLOG_PRINT_TO_STDOUT",
  "ASCEND_LOG_PRINT_TO_STDOUT", "ASCEND_HOST_LOG_FILE_NUM", "OPENACL_LOG_FILE_SIZE",
  "ASCEND_LOG_DEVICE_FLUSH_TIMEOUT",
};

/* A fresh log directory as ASCEND_PROCESS_LOG_PATH, every other logging
 * variable unset.  Returns the directory (malloc'd). */
static char *log_setup(void) {
  for (size_t i = 0; i < sizeof(log_vars) / sizeof(log_vars[0]); i++)
    unsetenv(log_vars[i]);
  char *dir = th_tmpdir();
  setenv("ASCEND_PROCESS_LOG_PATH", dir, 1);
  umask(022);
  return dir;
}

static char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *str_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    abort();
  va_end(ap);
  return s;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The plog files of process `pid` under dir, full paths, sorted by name
 * (which is creation order); *count set.  NULL-terminated array. */
static char **plog_files(const char *dir, pid_t pid, size_t *count) {
  char *plog = str_printf("%s/debug/plog", dir);
  char *prefix = str_printf("plog-%d_", (int)pid);
  char **list = calloc(1, sizeof(char *));
  size_t n = 0;
  DIR *d = opendir(plog);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 || len < 4 ||
        strcmp(e->d_name + len - 4, ".log") != 0)
      continue;
    list = realloc(list, (n + 2) * sizeof(char *));
    list[n++] = str_printf("%s/%s", plog, e->d_name);
    list[n] = NULL;
  }
  if (d != NULL)
    closedir(d);
  qsort(list, n, sizeof(char *), cmp_str);
  free(plog);
  free(prefix);
  *count = n;
  return list;
}

static void free_list(char **list) {
  for (size_t i = 0; list[i] != NULL; i++)
    free(list[i]);
  free(list);
}

/* Everything this process logged so far, all its files concatenated. */
static char *read_all_logs(const char *dir) {
  size_t n;
  char **files = plog_files(dir, getpid(), &n);
  char *all = strdup("");
  for (size_t i = 0; i < n; i++) {
    char *text = th_read_file(files[i]);
    CHECK_NOT_NULL(text);
    char *joined = str_printf("%s%s", all, text);
    free(all);
    free(text);
    all = joined;
  }
  free_list(files);
  return all;
}

static size_t count_of(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
    n++;
  return n;
}

static int path_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Sends fd `target` (1 or 2) to a new file; returns the saved original. */
static int redirect_fd(int target, const char *path) {
  fflush(target == 1 ? stdout : stderr);
  int saved = dup(target);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(saved >= 0 && fd >= 0);
  CHECK(dup2(fd, target) == target);
  close(fd);
  return saved;
}

static void restore_fd(int target, int saved) {
  fflush(target == 1 ? stdout : stderr);
  dup2(saved, target);
  close(saved);
}

/* The whole line format, for one APP line from this process with the given
 * file:line and message text (a regex fragment). */
static void check_line_format(const char *text, const char *file_line, const char *message) {
  char *pattern = str_printf("^\\[(DEBUG|INFO|WARNING|ERROR)\\] APP\\(%d,[^,)]+\\):"
                             "[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}\\.[0-9]{3} "
                             "\\[%s\\]([0-9]+) %s$",
                             (int)getpid(), file_line, message);
  regex_t re;
  CHECK_INT_EQ(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE), 0);
  regmatch_t m[3];
  int rc = regexec(&re, text, 3, m, 0);
  if (rc != 0)
    th_fail(__FILE__, __LINE__, "no line matches /%s/ in:\n%s", pattern, text);
  /* The main thread's id is the process id. */
  CHECK_INT_EQ(strtol(text + m[2].rm_so, NULL, 10), getpid());
  regfree(&re);
  free(pattern);
}

/* ---- layout and format ---------------------------------------------------- */

TEST(log_file_layout_and_line_format) {
  char *dir = log_setup();
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_ERROR, "my_func", "/some/where/app_main.c", 77, "hello %d %s", 42, "world");

  const char *path = openaclGetLogFilePath();
  CHECK_NOT_NULL(path);
  char *pattern = str_printf("^%s/debug/plog/plog-%d_[0-9]{17}\\.log$", dir, (int)getpid());
  regex_t re;
  CHECK_INT_EQ(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
  if (regexec(&re, path, 0, NULL, 0) != 0)
    th_fail(__FILE__, __LINE__, "log path '%s' does not match /%s/", path, pattern);
  regfree(&re);

  char *text = th_read_file(path);
  CHECK_NOT_NULL(text);
  check_line_format(text, "app_main\\.c:77", "my_func: hello 42 world");
  CHECK_STR_HAS(text, "[ERROR] APP(");

  struct stat st;
  char *sub = str_printf("%s/debug", dir);
  CHECK_INT_EQ(stat(sub, &st), 0);
  CHECK_INT_EQ(st.st_mode & 0777, 0750);
  free(sub);
  sub = str_printf("%s/debug/plog", dir);
  CHECK_INT_EQ(stat(sub, &st), 0);
  CHECK_INT_EQ(st.st_mode & 0777, 0750);
  free(sub);

  CHECK_INT_EQ(aclFinalize(), 0);
  free(text);
  free(pattern);
  th_rmtree(dir);
  free(dir);
}

TEST(log_nothing_created_when_nothing_logged) {
  char *dir = log_setup();
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_INFO, "f", "f.c", 1, "below the default ERROR threshold");
  aclAppLog(ACL_DEBUG, "f", "f.c", 2, "below the default ERROR threshold");
  CHECK_NULL(openaclGetLogFilePath());
  CHECK_INT_EQ(aclFinalize(), 0);
  char *sub = str_printf("%s/debug", dir);
  CHECK(!path_exists(sub));
  free(sub);
  th_rmtree(dir);
  free(dir);
}

TEST(log_embedded_newline_kept_record_ends_once) {
  char *dir = log_setup();
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_ERROR, "f", "f.c", 3, "first\nsecond");
  aclAppLog(ACL_ERROR, "f", "f.c", 4, "ends with newline\n");
  aclAppLog(ACL_ERROR, "f", "f.c", 5, "after");
  char *text = read_all_logs(dir);
  CHECK_STR_HAS(text, "f: first\nsecond\n[ERROR] APP(");
  CHECK_STR_HAS(text, "f: ends with newline\n[ERROR] APP(");
  CHECK(text[strlen(text) - 1] == '\n');
  CHECK_INT_EQ(aclFinalize(), 0);
  free(text);
  th_rmtree(dir);
  free(dir);
}

/* ---- levels --------------------------------------------------------------- */

TEST(log_global_level_info_drops_debug) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_DEBUG, "f", "f.c", 1, "debug-line");
  aclAppLog(ACL_INFO, "f", "f.c", 2, "info-line");
  aclAppLog(ACL_WARNING, "f", "f.c", 3, "warning-line");
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK(strstr(text, "debug-line") == NULL);
  CHECK_STR_HAS(text, "[INFO] APP(");
  CHECK_STR_HAS(text, "info-line");
  CHECK_STR_HAS(text, "[WARNING] APP(");
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_report_loop_outcomes_are_not_errors) {
  /* A report thread polls: its timeouts and its start before aclrtSubscribeReport
   * are recorded but logged at DEBUG, so an INFO log stays free of them. */
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  CHECK_INT_EQ(aclrtSetDevice(0), 0);
  CHECK_INT_EQ(aclrtProcessReport(1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "is not subscribed");
  CHECK_INT_EQ(aclrtSubscribeReport((uint64_t)pthread_self(), NULL), 0);
  CHECK_INT_EQ(aclrtProcessReport(1), ACL_ERROR_RT_REPORT_TIMEOUT);
  CHECK_INT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_REPORT_TIMEOUT);
  CHECK_INT_EQ(aclrtUnSubscribeReport((uint64_t)pthread_self(), NULL), 0);
  CHECK_INT_EQ(aclrtResetDevice(0), 0);
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK(text == NULL || strstr(text, "aclrtProcessReport") == NULL);
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_global_level_debug_keeps_debug) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_DEBUG, "f", "f.c", 1, "debug-line");
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK_STR_HAS(text, "[DEBUG] APP(");
  CHECK_STR_HAS(text, "f: debug-line");
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_global_level_off_logs_nothing) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_ERROR, "f", "f.c", 1, "error-line");
  CHECK_NULL(openaclGetLogFilePath());
  CHECK_INT_EQ(aclFinalize(), 0);
  char *sub = str_printf("%s/debug", dir);
  CHECK(!path_exists(sub));
  free(sub);
  th_rmtree(dir);
  free(dir);
}

TEST(log_module_level_overrides_global) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
  setenv("ASCEND_MODULE_LOG_LEVEL", "APP=0", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_DEBUG, "f", "f.c", 1, "app-debug-line");
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK_STR_HAS(text, "f: app-debug-line");
  /* Other modules keep the global ERROR threshold. */
  CHECK(strstr(text, "[INFO] ASCENDCL(") == NULL);
  CHECK(strstr(text, "[DEBUG] ASCENDCL(") == NULL);
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_app_log_ignores_bad_level_and_null_format) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog((aclLogLevel)4, "f", "f.c", 1, "level four");
  aclAppLog((aclLogLevel)-1, "f", "f.c", 1, "level minus one");
  aclAppLog(ACL_ERROR, "f", "f.c", 1, NULL);
  aclAppLog(ACL_ERROR, NULL, NULL, 0, "no function, no file");
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK(strstr(text, "level four") == NULL);
  CHECK(strstr(text, "level minus one") == NULL);
  CHECK_STR_HAS(text, "no function, no file");
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_app_log_before_init) {
  char *dir = log_setup();
  aclAppLog(ACL_ERROR, "early", "early.c", 9, "before aclInit");
  const char *path = openaclGetLogFilePath();
  CHECK_NOT_NULL(path);
  char *text = th_read_file(path);
  CHECK_NOT_NULL(text);
  check_line_format(text, "early\\.c:9", "early: before aclInit");
  free(text);
  th_rmtree(dir);
  free(dir);
}

/* ---- stdout copy ------------------------------------------------------------ */

static void check_stdout_copy(const char *var) {
  char *dir = log_setup();
  setenv(var, "1", 1);
  char *out = str_printf("%s/stdout.txt", dir);
  int saved = redirect_fd(1, out);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_ERROR, "f", "f.c", 1, "copied-error-line");
  aclAppLog(ACL_DEBUG, "f", "f.c", 2, "filtered-debug-line");
  CHECK_INT_EQ(aclFinalize(), 0);
  restore_fd(1, saved);

  char *copy = th_read_file(out);
  CHECK_NOT_NULL(copy);
  check_line_format(copy, "f\\.c:1", "f: copied-error-line");
  CHECK(strstr(copy, "filtered-debug-line") == NULL);
  char *text = read_all_logs(dir);
  CHECK_STR_HAS(text, "f: copied-error-line");  /* also, not instead */
  free(text);
  free(copy);
  free(out);
  th_rmtree(dir);
  free(dir);
}

TEST(log_slog_print_to_stdout_copies_lines) { check_stdout_copy("ASCEND_SLOG_PRINT_TO_STDOUT"); }

TEST(log_log_print_to_stdout_copies_lines) { check_stdout_copy("ASCEND_LOG_PRINT_TO_STDOUT"); }

/* ---- rotation --------------------------------------------------------------- */

TEST(log_rotation_keeps_host_log_file_num) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  setenv("OPENACL_LOG_FILE_SIZE", "1024", 1);
  setenv("ASCEND_HOST_LOG_FILE_NUM", "3", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  for (int i = 0; i < 300; i++)
    aclAppLog(ACL_INFO, "rot", "rot.c", 1, "rotation line %04d", i);
  CHECK_INT_EQ(aclFinalize(), 0);

  size_t n;
  char **files = plog_files(dir, getpid(), &n);
  CHECK_INT_EQ(n, 3);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    CHECK_INT_EQ(stat(files[i], &st), 0);
    CHECK(st.st_size > 0 && st.st_size <= 1024);
  }
  /* The newest file (names sort by creation) holds the latest line (aclFinalize
   * may add its own INFO line after it), and is the current file. */
  char *newest = th_read_file(files[n - 1]);
  CHECK_NOT_NULL(newest);
  size_t len = strlen(newest);
  CHECK(len > 0 && newest[len - 1] == '\n');
  const char *last = NULL;
  for (const char *p = newest; (p = strstr(p, "rot: rotation line ")) != NULL; p++)
    last = p;
  CHECK_NOT_NULL(last);
  CHECK(strncmp(last, "rot: rotation line 0299\n", 24) == 0);
  CHECK_STR_EQ(openaclGetLogFilePath(), files[n - 1]);
  /* The oldest lines are gone with the deleted files. */
  char *all = read_all_logs(dir);
  CHECK(strstr(all, "rotation line 0000") == NULL);
  free(all);
  free(newest);
  free_list(files);
  th_rmtree(dir);
  free(dir);
}

/* ---- unwritable directory ---------------------------------------------------- */

TEST(log_unwritable_directory_warns_once_and_uses_stderr) {
  char *dir = log_setup();
  char *file = th_write_file(dir, "not-a-dir", "x");
  char *bad = str_printf("%s/logs", file);
  setenv("ASCEND_PROCESS_LOG_PATH", bad, 1);
  char *err = str_printf("%s/stderr.txt", dir);
  int saved = redirect_fd(2, err);
  int rc = aclInit(NULL);
  aclAppLog(ACL_ERROR, "f", "f.c", 1, "first-error-line");
  aclAppLog(ACL_ERROR, "f", "f.c", 2, "second-error-line");
  aclAppLog(ACL_ERROR, "f", "f.c", 3, "third-error-line");
  const char *path = openaclGetLogFilePath();
  int frc = aclFinalize();
  restore_fd(2, saved);

  CHECK_INT_EQ(rc, 0);
  CHECK_INT_EQ(frc, 0);
  CHECK_NULL(path);
  char *text = th_read_file(err);
  CHECK_NOT_NULL(text);
  CHECK_INT_EQ(count_of(text, "openacl: warning: cannot write log files in"), 1);
  char *warning = str_printf("openacl: warning: cannot write log files in '%s': %s; logging to "
                             "stderr instead. Set ASCEND_PROCESS_LOG_PATH to a writable directory.\n",
                             bad, strerror(ENOTDIR));
  CHECK_STR_HAS(text, warning);
  check_line_format(text, "f\\.c:1", "f: first-error-line");
  CHECK_STR_HAS(text, "f: second-error-line\n");
  CHECK_STR_HAS(text, "f: third-error-line\n");
  free(warning);
  free(text);
  free(err);
  free(bad);
  free(file);
  th_rmtree(dir);
  free(dir);
}

/* ---- the library's own output ------------------------------------------------- */

/* aclInit with a configuration that draws a warning, stdout and stderr in
 * files; returns what openaclGetInitWarnings said (malloc'd). */
static char *init_with_warning(const char *dir, char **out, char **err) {
  char *cfg = th_write_file(dir, "acl.json", "{\"dumpp\": {}}");
  char *out_path = str_printf("%s/stdout.txt", dir), *err_path = str_printf("%s/stderr.txt", dir);
  int saved_out = redirect_fd(1, out_path), saved_err = redirect_fd(2, err_path);
  int rc = aclInit(cfg);
  size_t needed = 0;
  int nrc = openaclGetInitWarnings(NULL, 0, &needed);
  char *warnings = calloc(1, needed ? needed : 1);
  int wrc = openaclGetInitWarnings(warnings, needed, &needed);
  int frc = aclFinalize();
  restore_fd(2, saved_err);
  restore_fd(1, saved_out);
  CHECK_INT_EQ(rc, 0);
  CHECK_INT_EQ(nrc, ACL_ERROR_INVALID_PARAM); /* too small, *needed set */
  CHECK_INT_EQ(wrc, 0);
  CHECK_INT_EQ(frc, 0);
  *out = th_read_file(out_path);
  *err = th_read_file(err_path);
  CHECK(*out != NULL && *err != NULL);
  free(out_path);
  free(err_path);
  free(cfg);
  return warnings;
}

TEST(log_error_level_keeps_the_library_quiet) {
  /* ASCEND_GLOBAL_LOG_LEVEL=3 (ERROR): a configuration warning goes to the
   * log file and to openaclGetInitWarnings, not to stdout or stderr. */
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
  char *out, *err;
  char *w = init_with_warning(dir, &out, &err);
  CHECK_STR_EQ(out, "");
  CHECK_STR_EQ(err, "");
  CHECK_STR_HAS(w, "warning ");
  CHECK_STR_HAS(w, "acl.json: dumpp: unknown key, ignored; did you mean \"dump\"?\n");
  char *logs = read_all_logs(dir); /* ERROR lets no WARNING line into the log either */
  CHECK(strstr(logs, "dumpp") == NULL);
  CHECK_INT_EQ(openaclGetInitWarnings(NULL, 0, &(size_t){0}), ACL_ERROR_UNINITIALIZE);
  free(logs);
  free(w);
  free(out);
  free(err);
  th_rmtree(dir);
  free(dir);
}

TEST(log_warning_level_echoes_warnings_on_stderr) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
  char *out, *err;
  char *w = init_with_warning(dir, &out, &err);
  CHECK_STR_EQ(out, "");
  CHECK_STR_HAS(err, "openacl: warning: ");
  CHECK_STR_HAS(err, "acl.json: dumpp: unknown key, ignored");
  CHECK_INT_EQ(count_of(err, "dumpp"), 1);
  CHECK_STR_HAS(w, "dumpp: unknown key");
  char *logs = read_all_logs(dir);
  CHECK_STR_HAS(logs, "dumpp: unknown key");
  free(logs);
  free(w);
  free(out);
  free(err);
  th_rmtree(dir);
  free(dir);
}

TEST(log_init_without_warnings_reports_none) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  char buf[8] = "x";
  size_t needed = 0;
  CHECK_INT_EQ(openaclGetInitWarnings(buf, sizeof(buf), &needed), 0);
  CHECK_STR_EQ(buf, "");
  CHECK_INT_EQ(needed, 1);
  CHECK_INT_EQ(aclFinalize(), 0);
  th_rmtree(dir);
  free(dir);
}

/* ---- truncation, flushing ------------------------------------------------------ */

TEST(log_long_message_truncated) {
  char *dir = log_setup();
  CHECK_INT_EQ(aclInit(NULL), 0);
  char big[3001];
  memset(big, 'x', 3000);
  big[3000] = '\0';
  aclAppLog(ACL_ERROR, "func", "f.c", 1, "%s", big);
  aclAppLog(ACL_ERROR, "func", "f.c", 2, "short one after");
  char *text = read_all_logs(dir);
  const char *msg = strstr(text, "func: xxx");
  CHECK_NOT_NULL(msg);
  const char *end = strchr(msg, '\n');
  CHECK_NOT_NULL(end);
  /* 1024 bytes including the NUL: 1023 characters of message. */
  CHECK_INT_EQ(end - msg, 1023);
  CHECK(strncmp(end - strlen("...[truncated]"), "...[truncated]", strlen("...[truncated]")) == 0);
  CHECK_STR_HAS(text, "func: short one after\n");
  CHECK_INT_EQ(aclFinalize(), 0);
  free(text);
  th_rmtree(dir);
  free(dir);
}

TEST(log_error_line_in_file_when_call_returns) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_INFO, "f", "f.c", 1, "buffered-info-line");
  aclAppLog(ACL_ERROR, "f", "f.c", 2, "immediate-error-line");
  /* Read with no flush and no aclFinalize. */
  const char *path = openaclGetLogFilePath();
  CHECK_NOT_NULL(path);
  char *text = th_read_file(path);
  CHECK_NOT_NULL(text);
  CHECK_STR_HAS(text, "f: immediate-error-line\n");
  CHECK_STR_HAS(text, "f: buffered-info-line\n");  /* written before it, so flushed with it */
  free(text);
  CHECK_INT_EQ(aclFinalize(), 0);
  th_rmtree(dir);
  free(dir);
}

TEST(log_everything_in_file_after_finalize) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "0", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  for (int i = 0; i < 2000; i++)
    aclAppLog(ACL_DEBUG, "f", "f.c", 1, "buffered line %d", i);
  CHECK_INT_EQ(aclFinalize(), 0);
  char *text = read_all_logs(dir);
  CHECK_INT_EQ(count_of(text, "f: buffered line "), 2000);
  CHECK_STR_HAS(text, "f: buffered line 1999\n");
  free(text);
  th_rmtree(dir);
  free(dir);
}

/* ---- threads ----------------------------------------------------------------- */

#define LOG_THREADS 8
#define LOG_LINES 2000

static void *log_thread(void *arg) {
  int k = (int)(intptr_t)arg;
  for (int i = 0; i < LOG_LINES; i++)
    aclAppLog(ACL_INFO, "worker", "thr.c", (uint32_t)k, "thread %d line %d %s", k, i,
              "padding-padding-padding-padding-padding-padding-padding-padding");
  return NULL;
}

TEST(log_threads_write_whole_lines) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  pthread_t t[LOG_THREADS];
  for (int k = 0; k < LOG_THREADS; k++)
    CHECK_INT_EQ(pthread_create(&t[k], NULL, log_thread, (void *)(intptr_t)k), 0);
  for (int k = 0; k < LOG_THREADS; k++)
    pthread_join(t[k], NULL);
  CHECK_INT_EQ(aclFinalize(), 0);

  char *text = read_all_logs(dir);
  char *pattern = str_printf("^\\[INFO\\] APP\\(%d,[^,)]+\\):[0-9-]{10}-[0-9:]{8}\\.[0-9]{3}\\.[0-9]{3} "
                             "\\[thr\\.c:([0-9])\\]([0-9]+) worker: thread ([0-9]) line ([0-9]+) "
                             "(padding-){7}padding$",
                             (int)getpid());
  regex_t re;
  CHECK_INT_EQ(regcomp(&re, pattern, REG_EXTENDED), 0);
  int per_thread[LOG_THREADS] = {0};
  int next[LOG_THREADS] = {0};
  long tids[LOG_THREADS] = {0};
  size_t worker_lines = 0;
  for (char *line = text, *nl; *line != '\0'; line = nl + 1) {
    nl = strchr(line, '\n');
    CHECK_NOT_NULL(nl);
    *nl = '\0';
    if (strstr(line, "worker:") == NULL)
      continue;
    worker_lines++;
    regmatch_t m[5];
    if (regexec(&re, line, 5, m, 0) != 0)
      th_fail(__FILE__, __LINE__, "malformed line: '%s'", line);
    int k = atoi(line + m[3].rm_so);
    CHECK_INT_EQ(atoi(line + m[1].rm_so), k);
    long tid = strtol(line + m[2].rm_so, NULL, 10);
    if (tids[k] == 0)
      tids[k] = tid;
    CHECK_INT_EQ(tid, tids[k]);      /* one thread, one id */
    CHECK_INT_EQ(atoi(line + m[4].rm_so), next[k]);  /* each thread's lines in order */
    next[k]++;
    per_thread[k]++;
  }
  CHECK_INT_EQ(worker_lines, LOG_THREADS * LOG_LINES);
  for (int k = 0; k < LOG_THREADS; k++) {
    CHECK_INT_EQ(per_thread[k], LOG_LINES);
    CHECK_INT_NE(tids[k], getpid());
    for (int j = 0; j < k; j++)
      CHECK_INT_NE(tids[j], tids[k]);
  }
  regfree(&re);
  free(pattern);
  free(text);
  th_rmtree(dir);
  free(dir);
}

/* ---- fork ---------------------------------------------------------------------- */

TEST(log_forked_child_writes_its_own_file) {
  char *dir = log_setup();
  setenv("ASCEND_GLOBAL_LOG_LEVEL", "1", 1);
  CHECK_INT_EQ(aclInit(NULL), 0);
  aclAppLog(ACL_ERROR, "parent", "p.c", 1, "parent-before-fork");
  aclAppLog(ACL_INFO, "parent", "p.c", 2, "parent-buffered-before-fork");
  char *parent_path = strdup(openaclGetLogFilePath());

  fflush(NULL);
  pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    /* Not initialised here: the child inherits nothing but the settings. */
    aclAppLog(ACL_ERROR, "child", "c.c", 1, "child-line");
    const char *path = openaclGetLogFilePath();
    char *want = str_printf("%s/debug/plog/plog-%d_", dir, (int)getpid());
    int ok = path != NULL && strncmp(path, want, strlen(want)) == 0;
    _exit(ok ? 0 : 3);
  }
  int status = 0;
  CHECK_INT_EQ(waitpid(child, &status, 0), child);
  CHECK(WIFEXITED(status));
  CHECK_INT_EQ(WEXITSTATUS(status), 0);
  aclAppLog(ACL_ERROR, "parent", "p.c", 3, "parent-after-fork");
  CHECK_STR_EQ(openaclGetLogFilePath(), parent_path);
  CHECK_INT_EQ(aclFinalize(), 0);

  size_t n;
  char **files = plog_files(dir, child, &n);
  CHECK_INT_EQ(n, 1);
  char *ctext = th_read_file(files[0]);
  CHECK_NOT_NULL(ctext);
  char *ctag = str_printf("[ERROR] APP(%d,", (int)child);
  CHECK_STR_HAS(ctext, ctag);
  CHECK_STR_HAS(ctext, "child: child-line\n");
  CHECK(strstr(ctext, "parent-") == NULL);

  char *ptext = read_all_logs(dir);
  CHECK(strstr(ptext, "child-line") == NULL);
  CHECK_INT_EQ(count_of(ptext, "parent-before-fork"), 1);
  CHECK_INT_EQ(count_of(ptext, "parent-buffered-before-fork"), 1);
  CHECK_INT_EQ(count_of(ptext, "parent-after-fork"), 1);
  free(ptext);
  free(ctag);
  free(ctext);
  free_list(files);
  free(parent_path);
  th_rmtree(dir);
  free(dir);
}
