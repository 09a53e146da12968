/*
 * null.c - a backend that does nothing but record which hooks the runtime
 * called, in order.  It exists to test the dispatch layer (which hook runs
 * when, how often) and is chosen with OPENACL_BACKEND=null.  Its memory is a
 * plain host buffer, and it has no kernels.
 *
 * The call log is read by tests through the environment: when
 * OPENACL_NULL_BACKEND_LOG names a file, each call appends one line
 * ("probe", "device_open 0", "mem_reserve 0 1048576", ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "acl/acl.h"
#include "hal/backend.h"

struct acl__backend_dev {
  int phys_id;
  void *mem;
  size_t mem_size;
};

static void acl__null_note(const char *fmt, int a, unsigned long long b) {
  const char *path = getenv("OPENACL_NULL_BACKEND_LOG");
  if (path == NULL || *path == '\0')
    return;
  FILE *f = fopen(path, "a");
  if (f == NULL)
    return;
  fprintf(f, fmt, a, b);
  fputc('\n', f);
  fclose(f);
}

static int acl__null_probe(const acl__env *env, int *count, acl__device_props *props, int max) {
  int n = env->device_count < max ? env->device_count : max;
  for (int i = 0; i < n; i++) {
    memset(&props[i], 0, sizeof(props[i]));
    snprintf(props[i].soc_name, sizeof(props[i].soc_name), "null");
    props[i].memory_capacity = (uint64_t)64 << 20;
    props[i].executor_threads = 1;
    props[i].ai_core_num = 1;
    props[i].vector_core_num = 1;
    props[i].host_access = 1;
  }
  *count = n;
  acl__null_note("probe %d %llu", n, 0);
  return 0;
}

static int acl__null_open(int phys_id, const acl__device_props *props, acl__backend_dev **out) {
  (void)props;
  acl__backend_dev *d = calloc(1, sizeof(*d));
  if (d == NULL)
    return -1;
  d->phys_id = phys_id;
  *out = d;
  acl__null_note("device_open %d %llu", phys_id, 0);
  return 0;
}

static void acl__null_close(acl__backend_dev *d) {
  acl__null_note("device_close %d %llu", d->phys_id, 0);
  if (d->mem != NULL)
    munmap(d->mem, d->mem_size);
  free(d);
}

static int acl__null_mem_reserve(acl__backend_dev *d, uint64_t capacity, void **base) {
  d->mem_size = (size_t)capacity * 2;
  d->mem = mmap(NULL, d->mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (d->mem == MAP_FAILED) {
    d->mem = NULL;
    return -1;
  }
  *base = d->mem;
  acl__null_note("mem_reserve %d %llu", d->phys_id, (unsigned long long)capacity);
  return 0;
}

static void acl__null_access(acl__backend_dev *d) { (void)d; }

static int acl__null_module_load(acl__backend_dev *d, const char *path, const void *data, size_t len, void **module,
                                 char *why, size_t why_len) {
  (void)d, (void)path, (void)data, (void)len, (void)module;
  snprintf(why, why_len, "the null backend runs no kernels");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static int acl__null_get_function(void *module, const char *name, acl__kernel_entry *fn) {
  (void)module, (void)name, (void)fn;
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static void acl__null_unload(void *module) { (void)module; }

/* Version 3: no module is ever loaded, so there are no symbols. */
static int acl__null_module_symbol(void *module, const char *name, int kind, void **addr, size_t *size, char *why,
                                   size_t why_len) {
  (void)module, (void)name, (void)kind, (void)addr, (void)size;
  snprintf(why, why_len, "the null backend loads no kernel binaries");
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static int acl__null_module_symbol_at(void *module, const void *addr, void **start, size_t *size) {
  (void)module, (void)addr, (void)start, (void)size;
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

static uint64_t acl__null_timestamp(acl__backend_dev *d) {
  (void)d;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const acl__backend_ops acl__backend_null = {
    .version = ACL__BACKEND_VERSION,
    .name = "null",
    .probe = acl__null_probe,
    .device_open = acl__null_open,
    .device_close = acl__null_close,
    .mem_reserve = acl__null_mem_reserve,
    .access_begin = acl__null_access,
    .access_end = acl__null_access,
    .module_load = acl__null_module_load,
    .module_get_function = acl__null_get_function,
    .module_unload = acl__null_unload,
    .timestamp_ns = acl__null_timestamp,
    .module_symbol = acl__null_module_symbol,
    .module_symbol_at = acl__null_module_symbol_at,
};
