/*
 * log.c - the process logger: per-module thresholds, CANN-style plog files
 * with size-based rotation, an optional copy of every line on stdout, and a
 * stderr fallback when the log directory cannot be written.
 *
 * A record is formatted completely by the calling thread, in a stack buffer,
 * before any lock is taken; the writer lock only covers handing the finished
 * line to stdio (and opening, rotating or flushing the file).  One fwrite per
 * line under the lock is what keeps lines whole when many threads log.
 *
 * Nothing is created until the first line that passes the threshold: then
 *   <ASCEND_PROCESS_LOG_PATH>/debug/plog/plog-<pid>_<YYYYMMDDhhmmssmmm>.log
 * is opened (directories mode 0750, file 0640).  A new file is started when
 * the current one would exceed log_file_size; only the newest
 * host_log_file_num files of this process are kept.
 *
 * Before acl__log_configure has run (a program that logs with aclAppLog
 * before aclInit) every threshold is DEBUG, so the first call takes the slow
 * path, which configures the logger from the environment once and then
 * applies the real threshold.
 *
 * Locks, in the order they are taken:
 *   g_config_lock  serialises (re)configuration; never taken by the writer.
 *   g_lock         the writer lock: guards every field of `g`.
 *   g_time_lock    a leaf: the cached local time (see log_localtime).
 */
#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Message bytes per record including the NUL, as aclAppLog documents. */
#define LOG_MSG_MAX 1024
/* Room for "[WARNING] ASCENDCL(pid,name):date [file:line]tid " with the
 * program and file names capped below. */
#define LOG_HEAD_MAX 320
#define LOG_TRUNCATED "...[truncated]"
#define LOG_DEFAULT_FILE_SIZE ((size_t)20 << 20)
#define LOG_DEFAULT_FILE_NUM 10

/* Every module starts at DEBUG so that the first call reaches the slow path
 * and configures the logger (see log_ensure_configured). */
_Atomic int acl__log_threshold[ACL__MOD_COUNT];

static atomic_int g_configured;  /* 1 once thresholds hold real values */
static pthread_mutex_t g_config_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int tls_configuring;  /* this thread is in log_ensure_configured */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* Local time is computed under its own leaf lock (taken after g_lock when
 * both are held) and cached per second.  The lock matters for fork(): glibc
 * does not reset its time-zone lock in a child, so a child forked while one
 * of our threads was inside localtime_r would hang at its first log line.
 * Taking g_time_lock in the prepare handler keeps our threads out of
 * localtime_r at that moment. */
static pthread_mutex_t g_time_lock = PTHREAD_MUTEX_INITIALIZER;
static time_t g_time_sec = (time_t)-1;  /* guarded by g_time_lock */
static struct tm g_time_tm;             /* guarded by g_time_lock */

static void log_localtime(time_t sec, struct tm *out) {
  pthread_mutex_lock(&g_time_lock);
  if (sec != g_time_sec) {
    localtime_r(&sec, &g_time_tm);
    g_time_sec = sec;
  }
  *out = g_time_tm;
  pthread_mutex_unlock(&g_time_lock);
}
static struct {                 /* all guarded by g_lock */
  char *dir;                    /* ASCEND_PROCESS_LOG_PATH (NULL: default not yet computed) */
  size_t file_size;             /* rotate before a file would exceed this */
  int file_num;                 /* files of this process kept */
  int to_stdout;                /* copy every line to stdout */
  FILE *fp;                     /* the current plog file, NULL until the first line */
  char path[PATH_MAX];          /* its path ("" when fp is NULL) */
  size_t written;               /* bytes in the current file */
  pid_t owner;                  /* the process whose files these are (0: none yet) */
  long long last_stamp_ms;      /* stamp of the newest file name, for uniqueness */
  char **files;                 /* this process's file paths, oldest first; file_num slots */
  int nfiles;                   /* entries in use, <= file_num */
  int to_stderr;                /* the directory failed: lines go to stderr */
  int warned;                   /* the stderr warning was printed */
} g;

static _Thread_local struct {
  pid_t pid;                    /* process that tid belongs to (fork changes it) */
  long tid;
} tls_ids;

static _Thread_local char tls_path[PATH_MAX];  /* acl__log_current_path's copy */

#define ACL__LOG_MOD_NAME(name) #name,
static const char *const log_module_names[ACL__MOD_COUNT] = {ACL__LOG_MODULES(ACL__LOG_MOD_NAME)};
#undef ACL__LOG_MOD_NAME

const char *acl__log_level_name(int level) {
  switch (level) {
  case ACL__LOG_DEBUG: return "DEBUG";
  case ACL__LOG_INFO: return "INFO";
  case ACL__LOG_WARNING: return "WARNING";
  case ACL__LOG_ERROR: return "ERROR";
  case ACL__LOG_NONE: return "NONE";
  default: return "UNKNOWN";
  }
}

const char *acl__log_module_name(acl__log_module mod) {
  if ((int)mod < 0 || mod >= ACL__MOD_COUNT)
    return "UNKNOWN";
  return log_module_names[mod];
}

/* ---- configuration -------------------------------------------------------- */

static int clamp_level(int level) {
  if (level < ACL__LOG_DEBUG)
    return ACL__LOG_DEBUG;
  if (level > ACL__LOG_NONE)
    return ACL__LOG_NONE;
  return level;
}

/* $HOME/ascend/log (/tmp/ascend/log without HOME, as env.c), malloc'd; NULL
 * when out of memory. */
static char *default_log_dir(void) {
  const char *home = getenv("HOME");
  char *dir = NULL;
  if (asprintf(&dir, "%s/ascend/log", home && *home ? home : "/tmp") < 0)
    return NULL;
  return dir;
}

/* Deletes the oldest file of this process from disk and from the ring.
 * g_lock held. */
static void drop_oldest_locked(void) {
  unlink(g.files[0]);
  free(g.files[0]);
  memmove(g.files, g.files + 1, (size_t)(g.nfiles - 1) * sizeof(*g.files));
  g.nfiles--;
}

/* Forgets the current file and the list of this process's files.  With
 * `purge`, the FILE is a copy inherited over fork(): its buffer belongs to
 * the parent, which writes it, so it is dropped before closing.
 * g_lock held. */
static void forget_files_locked(int purge) {
  if (g.fp != NULL) {
    if (purge)
      __fpurge(g.fp);
    fclose(g.fp);
  }
  g.fp = NULL;
  g.path[0] = '\0';
  g.written = 0;
  for (int i = 0; i < g.nfiles; i++)
    free(g.files[i]);
  g.nfiles = 0;
}

/* Applies a configuration.  g_config_lock held. */
static void configure_locked(const acl__env *env) {
  for (int m = 0; m < ACL__MOD_COUNT; m++) {
    int level = env->module_log_level[m] >= 0 ? env->module_log_level[m] : env->global_log_level;
    atomic_store_explicit(&acl__log_threshold[m], clamp_level(level), memory_order_relaxed);
  }

  char *dir = env->process_log_path && *env->process_log_path ? strdup(env->process_log_path)
                                                               : default_log_dir();
  pthread_mutex_lock(&g_lock);
  if (dir != NULL && (g.dir == NULL || strcmp(dir, g.dir) != 0)) {
    /* Another directory: the next line opens a file there, and a failure
     * there deserves its own warning. */
    forget_files_locked(0);
    free(g.dir);
    g.dir = dir;
    dir = NULL;
    g.to_stderr = 0;
    g.warned = 0;
  }
  g.file_size = env->log_file_size > 0 ? env->log_file_size : LOG_DEFAULT_FILE_SIZE;
  int num = env->host_log_file_num > 0 ? env->host_log_file_num : LOG_DEFAULT_FILE_NUM;
  if (num != g.file_num) {
    while (g.nfiles > num)
      drop_oldest_locked();  /* fewer files allowed: the oldest go now */
    char **files = realloc(g.files, (size_t)num * sizeof(*files));
    if (files != NULL) {
      g.files = files;
      g.file_num = num;
    } else if (num < g.file_num) {
      g.file_num = num;      /* the larger ring still serves */
    }
  }
  g.to_stdout = env->print_to_stdout != 0;
  pthread_mutex_unlock(&g_lock);
  free(dir);
}

void acl__log_configure(const acl__env *env) {
  if (env == NULL)
    return;
  pthread_mutex_lock(&g_config_lock);
  configure_locked(env);
  atomic_store_explicit(&g_configured, 1, memory_order_release);
  pthread_mutex_unlock(&g_config_lock);
}

/* The defaults of env.h, without reading the environment. */
static void default_env(acl__env *env) {
  memset(env, 0, sizeof(*env));
  env->global_log_level = ACL__LOG_ERROR;
  for (int m = 0; m < ACL__MOD_COUNT; m++)
    env->module_log_level[m] = -1;
  env->log_flush_timeout_ms = 2000;
  env->host_log_file_num = LOG_DEFAULT_FILE_NUM;
  env->log_file_size = LOG_DEFAULT_FILE_SIZE;
  env->device_count = 1;
}

/* Slow path of the first log call before acl__log_configure: configure once
 * from the environment.  The environment reader may itself log; such a
 * nested call sees tls_configuring and is judged by the defaults. */
static void log_ensure_configured(void) {
  if (atomic_load_explicit(&g_configured, memory_order_acquire) || tls_configuring)
    return;
  pthread_mutex_lock(&g_config_lock);
  if (!atomic_load_explicit(&g_configured, memory_order_relaxed)) {
    tls_configuring = 1;
    acl__env env;
    default_env(&env);
    configure_locked(&env);  /* defaults first, for lines logged while loading */
    if (acl__env_load(&env, NULL) == 0)
      configure_locked(&env);
    acl__env_free(&env);
    tls_configuring = 0;
    atomic_store_explicit(&g_configured, 1, memory_order_release);
  }
  pthread_mutex_unlock(&g_config_lock);
}

/* ---- files ---------------------------------------------------------------- */

/* mkdir -p with mode 0750; existing components are fine.  Returns 0 or an
 * errno value. */
static int make_dirs(const char *path) {
  char buf[PATH_MAX];
  size_t len = strlen(path);
  if (len == 0 || len >= sizeof(buf))
    return len == 0 ? ENOENT : ENAMETOOLONG;
  memcpy(buf, path, len + 1);
  for (char *p = buf + 1; ; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0750) != 0 && errno != EEXIST)
        return errno;
      *p = c;
      if (c == '\0')
        break;
    }
  }
  struct stat st;
  if (stat(path, &st) != 0)
    return errno;
  return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Opens a new plog file.  Names carry the local time to the millisecond; a
 * second file within the same millisecond takes the next millisecond, so
 * names stay unique and sort in creation order.  Returns 0 or an errno
 * value.  g_lock held. */
static int open_file_locked(pid_t pid) {
  char plog[PATH_MAX];
  if (snprintf(plog, sizeof(plog), "%s/debug/plog", g.dir) >= (int)sizeof(plog))
    return ENAMETOOLONG;
  int err = make_dirs(plog);
  if (err != 0)
    return err;

  long long stamp = now_ms();
  if (stamp <= g.last_stamp_ms)
    stamp = g.last_stamp_ms + 1;
  for (int attempt = 0; attempt < 1000; attempt++, stamp++) {
    time_t sec = (time_t)(stamp / 1000);
    struct tm tm;
    log_localtime(sec, &tm);
    char path[PATH_MAX];
    int n = snprintf(path, sizeof(path), "%s/plog-%d_%04d%02d%02d%02d%02d%02d%03d.log", plog,
                     (int)pid, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec, (int)(stamp % 1000));
    if (n < 0 || n >= (int)sizeof(path))
      return ENAMETOOLONG;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
    if (fd < 0) {
      if (errno == EEXIST)
        continue;
      return errno;
    }
    FILE *fp = fdopen(fd, "w");
    char *copy = strdup(path);
    if (fp == NULL || copy == NULL) {
      err = fp == NULL ? errno : ENOMEM;
      if (fp != NULL)
        fclose(fp);
      else
        close(fd);
      unlink(path);
      free(copy);
      return err;
    }
    /* Keep at most file_num files: the new one replaces the oldest. */
    if (g.nfiles == g.file_num)
      drop_oldest_locked();
    g.files[g.nfiles++] = copy;
    g.fp = fp;
    memcpy(g.path, path, (size_t)n + 1);
    g.written = 0;
    g.owner = pid;
    g.last_stamp_ms = stamp;
    return 0;
  }
  return EEXIST;
}

/* The directory cannot be used: say so once and send lines to stderr.
 * g_lock held. */
static void fall_back_to_stderr_locked(int err) {
  if (g.fp != NULL) {
    fclose(g.fp);
    g.fp = NULL;
    g.path[0] = '\0';
  }
  g.to_stderr = 1;
  if (!g.warned) {
    g.warned = 1;
    fprintf(stderr,
            "openacl: warning: cannot write log files in '%s': %s; logging to stderr instead. "
            "Set ASCEND_PROCESS_LOG_PATH to a writable directory.\n",
            g.dir ? g.dir : "", strerror(err));
  }
}

/* Hands one finished line to its destinations.  g_lock held. */
static void write_line_locked(int level, const char *line, size_t len, pid_t pid) {
  if (g.owner != 0 && g.owner != pid) {
    forget_files_locked(1);  /* forked without the atfork handlers */
    g.owner = 0;
    g.last_stamp_ms = 0;
  }

  if (!g.to_stderr) {
    if (g.dir == NULL)
      g.dir = default_log_dir();
    int err = 0;
    if (g.dir == NULL) {
      err = ENOMEM;
    } else if (g.fp != NULL && g.written > 0 && g.written + len > g.file_size) {
      fclose(g.fp);  /* rotation: a full file is never reopened */
      g.fp = NULL;
      g.path[0] = '\0';
    }
    if (err == 0 && g.fp == NULL && g.files != NULL)
      err = open_file_locked(pid);
    else if (err == 0 && g.fp == NULL)
      err = ENOMEM;  /* the file ring could not be allocated */
    if (err == 0) {
      fwrite(line, 1, len, g.fp);
      if (level >= ACL__LOG_ERROR)
        fflush(g.fp);
      if (ferror(g.fp))
        err = errno ? errno : EIO;
      else
        g.written += len;
    }
    if (err != 0)
      fall_back_to_stderr_locked(err);
  }
  if (g.to_stderr)
    fwrite(line, 1, len, stderr);  /* unbuffered */
  if (g.to_stdout) {
    fwrite(line, 1, len, stdout);
    if (level >= ACL__LOG_ERROR)
      fflush(stdout);
  }
}

/* ---- formatting ----------------------------------------------------------- */

static const char *base_name(const char *file) {
  const char *slash = file ? strrchr(file, '/') : NULL;
  return slash ? slash + 1 : file ? file : "?";
}

/* Cuts a too-long message at `limit` bytes, on a UTF-8 character boundary,
 * and appends the marker.  msg holds at least limit + marker bytes. */
static size_t truncate_message(char *msg, size_t limit) {
  size_t keep = limit - (sizeof(LOG_TRUNCATED) - 1);
  while (keep > 0 && ((unsigned char)msg[keep] & 0xC0) == 0x80)
    keep--;
  memcpy(msg + keep, LOG_TRUNCATED, sizeof(LOG_TRUNCATED));
  return keep + sizeof(LOG_TRUNCATED) - 1;
}

void acl__log_vwrite(int level, acl__log_module mod, const char *file, int line,
                     const char *fmt, va_list ap) {
  if ((int)mod < 0 || mod >= ACL__MOD_COUNT || fmt == NULL)
    return;
  if (level < ACL__LOG_DEBUG)
    level = ACL__LOG_DEBUG;
  if (level > ACL__LOG_ERROR)
    level = ACL__LOG_ERROR;
  log_ensure_configured();
  if (!ACL__LOG_ENABLED(level, mod))
    return;

  int saved_errno = errno;  /* logging must not disturb the caller */
  pid_t pid = getpid();
  if (tls_ids.pid != pid) {
    tls_ids.pid = pid;
    tls_ids.tid = (long)syscall(SYS_gettid);
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  log_localtime(ts.tv_sec, &tm);

  char buf[LOG_HEAD_MAX + LOG_MSG_MAX + 1];
  int head = snprintf(buf, LOG_HEAD_MAX,
                      "[%s] %s(%d,%.64s):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld [%.128s:%d]%ld ",
                      acl__log_level_name(level), log_module_names[mod], (int)pid,
                      program_invocation_short_name, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                      tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000,
                      ts.tv_nsec / 1000 % 1000, base_name(file), line, tls_ids.tid);
  if (head < 0)
    head = 0;
  if (head >= LOG_HEAD_MAX)
    head = LOG_HEAD_MAX - 1;
  char *msg = buf + head;
  int n = vsnprintf(msg, LOG_MSG_MAX, fmt, ap);
  size_t mlen = n < 0 ? 0 : (size_t)n;
  if (mlen >= LOG_MSG_MAX)
    mlen = truncate_message(msg, LOG_MSG_MAX - 1);
  if (mlen > 0 && msg[mlen - 1] == '\n')
    mlen--;  /* the record supplies its own newline */
  msg[mlen++] = '\n';
  size_t len = (size_t)head + mlen;

  pthread_mutex_lock(&g_lock);
  write_line_locked(level, buf, len, pid);
  pthread_mutex_unlock(&g_lock);
  errno = saved_errno;
}

void acl__log_write(int level, acl__log_module mod, const char *file, int line,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  acl__log_vwrite(level, mod, file, line, fmt, ap);
  va_end(ap);
}

/* ---- flush, queries, fork ------------------------------------------------- */

int acl__log_flush(int timeout_ms) {
  int rc;
  if (timeout_ms < 0) {
    rc = pthread_mutex_lock(&g_lock);
  } else {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (deadline.tv_nsec >= 1000000000) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000;
    }
    rc = pthread_mutex_timedlock(&g_lock, &deadline);
  }
  if (rc != 0)
    return -1;
  if (g.fp != NULL && g.owner == getpid())
    fflush(g.fp);
  if (g.to_stdout)
    fflush(stdout);
  pthread_mutex_unlock(&g_lock);
  return 0;
}

const char *acl__log_current_path(void) {
  pthread_mutex_lock(&g_lock);
  int have = g.fp != NULL && g.owner == getpid();
  if (have)
    memcpy(tls_path, g.path, strlen(g.path) + 1);
  pthread_mutex_unlock(&g_lock);
  return have ? tls_path : NULL;
}

void acl__log_atfork_prepare(void) {
  pthread_mutex_lock(&g_config_lock);
  pthread_mutex_lock(&g_lock);
  pthread_mutex_lock(&g_time_lock);
}

void acl__log_atfork_parent(void) {
  pthread_mutex_unlock(&g_time_lock);
  pthread_mutex_unlock(&g_lock);
  pthread_mutex_unlock(&g_config_lock);
}

void acl__log_atfork_child(void) {
  /* Only this thread exists now: re-create the locks instead of unlocking
   * them, then let the next line open the child's own file. */
  pthread_mutex_init(&g_config_lock, NULL);
  pthread_mutex_init(&g_lock, NULL);
  pthread_mutex_init(&g_time_lock, NULL);
  forget_files_locked(1);
  g.owner = 0;
  g.last_stamp_ms = 0;
}
