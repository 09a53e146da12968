/*
 * sample_files.h - the file protocol of the vendor's two-process samples
 * (example/1_basic_features/memory/file_ops.cpp; ipc-vmm-graphs-tdt §1.3,
 * §3.4, §4.3): the writer creates file/<name> and then an empty
 * file/<name>.done; the reader polls for the .done file, then reads the
 * whole file.  Unlike the vendor's, the reader looks every 100 ms rather
 * than every second, and gives up after a minute, so that a test never
 * hangs on a process that died.
 */
#ifndef OPENACL_SAMPLES_SAMPLE_FILES_H
#define OPENACL_SAMPLES_SAMPLE_FILES_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl/acl.h"

/* The vendor's log lines: "[INFO]  <message>", flushed at once (stdout is a file). */
#define SAMPLE_LOG(tag, ...)                                                                                           \
  do {                                                                                                                 \
    fputs(tag, stdout);                                                                                                \
    fprintf(stdout, __VA_ARGS__);                                                                                      \
    fputc('\n', stdout);                                                                                               \
    fflush(stdout);                                                                                                    \
  } while (0)
#define INFO_LOG(...) SAMPLE_LOG("[INFO]  ", __VA_ARGS__)
#define ERROR_LOG(...) SAMPLE_LOG("[ERROR]  ", __VA_ARGS__)

/* Leaves main with 1 when an ACL call fails, saying which, as the vendor's
 * samples do; who: "Process A" or "Process B". */
#define SAMPLE_CHECK_ACL(who, call)                                                                                    \
  do {                                                                                                                 \
    aclError r_ = (call);                                                                                              \
    if (r_ != ACL_SUCCESS) {                                                                                           \
      ERROR_LOG("%s: %s failed, error %d: %s", who, #call, (int)r_, aclGetRecentErrMsg());                             \
      return 1;                                                                                                        \
    }                                                                                                                  \
  } while (0)

static inline int sample_write_file(const char *name, const void *data, size_t len) {
  char path[256], done[300];
  snprintf(path, sizeof(path), "./file/%s", name);
  snprintf(done, sizeof(done), "%s.done", path);
  mkdir("./file", 0700); /* the vendor's run.sh makes it; either may come first here */
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len) {
    if (f != NULL)
      fclose(f);
    ERROR_LOG("write file %s failed", path);
    return -1;
  }
  fclose(f);
  f = fopen(done, "wb");
  if (f == NULL) {
    ERROR_LOG("write file %s failed", done);
    return -1;
  }
  fclose(f);
  return 0;
}

/* Waits for file/<name>.done, then reads up to len bytes of file/<name>;
 * the number of bytes read, -1 on failure. */
static inline long sample_read_file(const char *name, void *data, size_t len) {
  char path[256], done[300];
  snprintf(path, sizeof(path), "./file/%s", name);
  snprintf(done, sizeof(done), "%s.done", path);
  for (int waited = 0; access(done, F_OK) != 0; waited++) {
    if (waited == 600) {
      ERROR_LOG("no %s after a minute", done);
      return -1;
    }
    usleep(100000);
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    ERROR_LOG("read file %s failed", path);
    return -1;
  }
  size_t n = fread(data, 1, len, f);
  fclose(f);
  return (long)n;
}

#endif
