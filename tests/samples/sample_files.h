/*
 * sample_files.h - the vendor samples' file protocol between two processes
 * (example/1_basic_features/memory/file_ops.cpp, reference
 * ipc-vmm-graphs-tdt §1.3): the writer creates file/<name>, then an empty
 * file/<name>.done; the reader polls for the .done file, then reads.
 */
#ifndef OPENACL_SAMPLE_FILES_H
#define OPENACL_SAMPLE_FILES_H

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int sample_write_file(const char *name, const void *data, size_t len) {
  char path[256], done[256];
  mkdir("file", 0700);
  snprintf(path, sizeof(path), "file/%s", name);
  snprintf(done, sizeof(done), "file/%s.done", name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, len, f) != len || fclose(f) != 0)
    return -1;
  f = fopen(done, "wb");
  return f != NULL && fclose(f) == 0 ? 0 : -1;
}

/* Waits up to 30 s for file/<name>.done; returns the bytes read (at most
 * cap), -1 on timeout. */
static inline long sample_read_file(const char *name, void *data, size_t cap) {
  char path[256], done[256];
  snprintf(path, sizeof(path), "file/%s", name);
  snprintf(done, sizeof(done), "file/%s.done", name);
  for (int i = 0; i < 300 && access(done, F_OK) != 0; i++)
    usleep(100000);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  size_t n = fread(data, 1, cap, f);
  fclose(f);
  return (long)n;
}

#endif
