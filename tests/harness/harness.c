/* harness.c - the test registry, the runner and small file helpers. */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TH_MAX 512
static struct { const char *name; th_fn fn; } th_tests[TH_MAX];
static int th_count;

void th_register(const char *name, th_fn fn) {
  if (th_count == TH_MAX) {
    fprintf(stderr, "harness: too many tests\n");
    abort();
  }
  th_tests[th_count].name = name;
  th_tests[th_count].fn = fn;
  th_count++;
}

void th_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "FAIL %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  exit(1);
}

static int th_run_one(int i) {
  th_tests[i].fn();
  return 0;
}

int th_main(int argc, char **argv) {
  /* Each test process gets its own shared devices (docs/processes.md), so
   * tests running at once never share capacity; helper processes a test
   * starts inherit the name and share the test's devices. */
  char ns[32];
  snprintf(ns, sizeof(ns), "t%d", (int)getpid());
  setenv("OPENACL_SHARED_DEVICE_NAME", ns, 0);
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (int i = 0; i < th_count; i++)
      printf("%s\n", th_tests[i].name);
    return 0;
  }
  if (argc > 1) {
    for (int i = 0; i < th_count; i++)
      if (strcmp(th_tests[i].name, argv[1]) == 0) {
        th_run_one(i);
        printf("PASS %s\n", argv[1]);
        return 0;
      }
    fprintf(stderr, "harness: no test named '%s' (try --list)\n", argv[1]);
    return 2;
  }
  int failed = 0;
  for (int i = 0; i < th_count; i++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      th_run_one(i);
      fflush(NULL);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    printf("%s %s\n", ok ? "PASS" : "FAIL", th_tests[i].name);
    failed += !ok;
  }
  printf("%d passed, %d failed\n", th_count - failed, failed);
  return failed ? 1 : 0;
}

char *th_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  char *path = NULL;
  if (asprintf(&path, "%s/openacl-test-XXXXXX", base && *base ? base : "/tmp") < 0)
    abort();
  if (mkdtemp(path) == NULL) {
    perror("mkdtemp");
    abort();
  }
  return path;
}

char *th_write_file(const char *dir, const char *name, const char *text) {
  char *path = NULL;
  if (asprintf(&path, "%s/%s", dir, name) < 0)
    abort();
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    perror(path);
    abort();
  }
  fputs(text, f);
  fclose(f);
  return path;
}

char *th_read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len - 1 == 0) {
      cap *= 2;
      char *b = realloc(buf, cap);
      if (b == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

void th_rmtree(const char *path) {
  DIR *d = opendir(path);
  if (d == NULL) {
    unlink(path);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    char *child = NULL;
    if (asprintf(&child, "%s/%s", path, e->d_name) < 0)
      abort();
    struct stat st;
    if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode))
      th_rmtree(child);
    else
      unlink(child);
    free(child);
  }
  closedir(d);
  rmdir(path);
}

uint64_t th_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
