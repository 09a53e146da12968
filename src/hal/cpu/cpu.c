/*
 * cpu.c - the simulated NPU: a device whose cores are the host's CPUs.
 * Probe reads the OPENACL_* variables; opening a device only allocates its
 * small state (the runtime reserves memory through mem_reserve and starts
 * the executor threads itself).  The device clock is CLOCK_MONOTONIC.
 */
#include "hal/cpu/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int acl__cpu_probe(const acl__env *env, int *count, acl__device_props *props, int max) {
  int n = env->device_count < max ? env->device_count : max;
  for (int i = 0; i < n; i++) {
    acl__device_props *p = &props[i];
    memset(p, 0, sizeof(*p));
    snprintf(p->soc_name, sizeof(p->soc_name), "%s", env->soc_name ? env->soc_name : "openacl-cpu");
    p->memory_capacity = env->device_memory;
    p->executor_threads = env->executor_threads;
    p->ai_core_num = env->executor_threads;     /* one "core" per executor thread */
    p->vector_core_num = env->executor_threads;
    p->l2_size = 0;                             /* reported as unknown: no dedicated cache */
    p->host_access = env->device_memory_host_access;
    p->mem_protection = env->memory_protection;
    p->shareable = env->shared_device;
  }
  *count = n;
  return 0;
}

static int acl__cpu_device_open(int phys_id, const acl__device_props *props, acl__backend_dev **out) {
  acl__backend_dev *d = calloc(1, sizeof(*d));
  if (d == NULL)
    return -1;
  d->phys_id = phys_id;
  d->props = *props;
  d->mem_fd = -1;
  *out = d;
  return 0;
}

static void acl__cpu_device_close(acl__backend_dev *dev) {
  if (dev == NULL)
    return;
  acl__cpu_mem_release(dev);
  free(dev);
}

static uint64_t acl__cpu_timestamp_ns(acl__backend_dev *dev) {
  (void)dev;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const acl__backend_ops acl__backend_cpu = {
    .version = ACL__BACKEND_VERSION,
    .name = "cpu",
    .probe = acl__cpu_probe,
    .device_open = acl__cpu_device_open,
    .device_close = acl__cpu_device_close,
    .mem_reserve = acl__cpu_mem_reserve,
    .access_begin = acl__cpu_access_begin,
    .access_end = acl__cpu_access_end,
    .module_load = acl__cpu_module_load,
    .module_get_function = acl__cpu_module_get_function,
    .module_unload = acl__cpu_module_unload,
    .timestamp_ns = acl__cpu_timestamp_ns,
    .mem_alias = acl__cpu_mem_alias,
    .mem_discard = acl__cpu_mem_discard,
    .mem_protection = acl__cpu_mem_protection,
    .thread_has_access = acl__cpu_thread_has_access,
    .module_symbol = acl__cpu_module_symbol,
    .module_symbol_at = acl__cpu_module_symbol_at,
    .mem_fd = acl__cpu_mem_fd,
    .mem_map_shared = acl__cpu_mem_map_shared,
};
