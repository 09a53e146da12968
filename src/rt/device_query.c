/*
 * device_query.c - utilisation, UUID, PCI bus id and SoC architecture of
 * the simulated device (see device_query.h).
 *
 * Utilisation: on a card, firmware samples how busy the cube, vector and
 * AI CPU cores were.  Here every kind of work runs on the device's executor
 * threads, so one figure serves all three: the CPU time the executors used
 * over the wall time they existed, between two samples.  Reading another
 * thread's CPU clock (pthread_getcpuclockid) costs nothing on the hot path:
 * the executors only register their clock when they start.
 *
 * Locks: acl__devstat.lock is a leaf.  A query takes the device lock first
 * (so the device cannot close under it), then this lock; an executor takes
 * only this lock, so a close that holds the device lock while it joins the
 * executors cannot deadlock with them.
 */
#include "rt/device_query.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"

struct acl__devstat {
  pthread_mutex_t lock;       /* guards everything below */
  int n, cap;                 /* registered executor clocks */
  clockid_t *clocks;
  pthread_t *threads;         /* whose clock each is, to remove it again */
  uint64_t cpu_gone_ns;       /* CPU time of executors that have left */
  uint64_t last_wall_ns;      /* the previous sample */
  uint64_t last_cpu_ns;
  int32_t last_pct;
};

#define ACL__UTIL_MIN_INTERVAL_NS 20000000ull /* 20 ms: closer samples repeat the last figure */

static uint64_t acl__mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t acl__clock_ns(clockid_t c) {
  struct timespec ts;
  if (clock_gettime(c, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int acl__devstat_open(acl__device *d) {
  int cap = d->props.executor_threads > 0 ? d->props.executor_threads : 1;
  struct acl__devstat *st = calloc(1, sizeof(*st));
  if (st != NULL) {
    st->clocks = calloc((size_t)cap, sizeof(*st->clocks));
    st->threads = calloc((size_t)cap, sizeof(*st->threads));
  }
  if (st == NULL || st->clocks == NULL || st->threads == NULL) {
    if (st != NULL) {
      free(st->clocks);
      free(st->threads);
    }
    free(st);
    return ACL_ERROR_BAD_ALLOC;
  }
  pthread_mutex_init(&st->lock, NULL);
  st->cap = cap;
  st->last_wall_ns = acl__mono_ns();
  d->stat = st;
  return 0;
}

void acl__devstat_close(acl__device *d) {
  struct acl__devstat *st = d->stat;
  if (st == NULL)
    return;
  d->stat = NULL;
  pthread_mutex_destroy(&st->lock);
  free(st->clocks);
  free(st->threads);
  free(st);
}

void acl__devstat_executor_enter(acl__device *d) {
  struct acl__devstat *st = d->stat;
  clockid_t c;
  if (st == NULL || pthread_getcpuclockid(pthread_self(), &c) != 0)
    return;
  pthread_mutex_lock(&st->lock);
  if (st->n < st->cap) {
    st->clocks[st->n] = c;
    st->threads[st->n] = pthread_self();
    st->n++;
  }
  pthread_mutex_unlock(&st->lock);
}

void acl__devstat_executor_leave(acl__device *d) {
  struct acl__devstat *st = d->stat;
  if (st == NULL)
    return;
  pthread_mutex_lock(&st->lock);
  for (int i = 0; i < st->n; i++) {
    if (!pthread_equal(st->threads[i], pthread_self()))
      continue;
    /* its time still counts in the interval it was part of */
    st->cpu_gone_ns += acl__clock_ns(st->clocks[i]);
    st->n--;
    st->clocks[i] = st->clocks[st->n];
    st->threads[i] = st->threads[st->n];
    break;
  }
  pthread_mutex_unlock(&st->lock);
}

int32_t acl__devstat_utilization(acl__device *d) {
  int32_t pct = 0;
  pthread_mutex_lock(&d->lock);
  struct acl__devstat *st = d->open ? d->stat : NULL;
  if (st != NULL) {
    pthread_mutex_lock(&st->lock);
    uint64_t now = acl__mono_ns(), cpu = st->cpu_gone_ns;
    for (int i = 0; i < st->n; i++)
      cpu += acl__clock_ns(st->clocks[i]);
    uint64_t wall = now - st->last_wall_ns;
    if (wall < ACL__UTIL_MIN_INTERVAL_NS || st->cap == 0) {
      pct = st->last_pct;
    } else {
      uint64_t used = cpu > st->last_cpu_ns ? cpu - st->last_cpu_ns : 0;
      double p = 100.0 * (double)used / ((double)wall * (double)st->cap);
      pct = p > 100.0 ? 100 : (int32_t)(p + 0.5);
      st->last_pct = pct;
      st->last_wall_ns = now;
      st->last_cpu_ns = cpu;
    }
    pthread_mutex_unlock(&st->lock);
  }
  pthread_mutex_unlock(&d->lock);
  return pct;
}

/* ---- identity ------------------------------------------------------------------- */

static uint64_t acl__fnv1a(const char *s, uint64_t h) {
  for (; *s != '\0'; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

void acl__device_uuid(const acl__device *d, unsigned char out[16]) {
  char key[96];
  snprintf(key, sizeof(key), "openacl:%s:device:%d", d->ops->name, (int)d->phys_id);
  uint64_t a = acl__fnv1a(key, 0xcbf29ce484222325ull);
  uint64_t b = acl__fnv1a(key, a ^ 0x9e3779b97f4a7c15ull);
  for (int i = 0; i < 8; i++) {
    out[i] = (unsigned char)(a >> (56 - 8 * i));
    out[8 + i] = (unsigned char)(b >> (56 - 8 * i));
  }
  out[6] = (unsigned char)((out[6] & 0x0f) | 0x50); /* version 5: name-based */
  out[8] = (unsigned char)((out[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

void acl__device_pci_bus_id(const acl__device *d, char *out, size_t size) {
  snprintf(out, size, "%04x:%02x:%02x.%x", 0u, (unsigned)(d->phys_id + 1) & 0xffu, 0u, 0u);
}

/* ---- architectures -------------------------------------------------------------- */

/* SoC names and their NPU architecture, as the vendor's platform files
 * group them: Ascend 910 (dav-c100); 910B and the A3 series 910_93xx share
 * dav-c220; 310P is dav-m200, 310B dav-m300, 310 dav-m100, 950 dav-c310. */
static const struct {
  const char *name;
  int prefix;  /* 1: any name that starts with it */
  const char *arch;
} acl__socs[] = {
    {"openacl-cpu", 0, "openacl-cpu"},
    {"Ascend910A", 0, "dav-c100"},       {"Ascend910B", 0, "dav-c100"},
    {"Ascend910ProA", 0, "dav-c100"},    {"Ascend910ProB", 0, "dav-c100"},
    {"Ascend910PremiumA", 0, "dav-c100"},
    {"Ascend910B1", 0, "dav-c220"},      {"Ascend910B2", 0, "dav-c220"},
    {"Ascend910B2C", 0, "dav-c220"},     {"Ascend910B3", 0, "dav-c220"},
    {"Ascend910B4", 0, "dav-c220"},      {"Ascend910B4-1", 0, "dav-c220"},
    {"Ascend910_93", 1, "dav-c220"},
    {"Ascend310P1", 0, "dav-m200"},      {"Ascend310P3", 0, "dav-m200"},
    {"Ascend310P5", 0, "dav-m200"},      {"Ascend310P7", 0, "dav-m200"},
    {"Ascend310B1", 0, "dav-m300"},      {"Ascend310B2", 0, "dav-m300"},
    {"Ascend310B3", 0, "dav-m300"},      {"Ascend310B4", 0, "dav-m300"},
    {"Ascend310", 0, "dav-m100"},
    {"Ascend950", 1, "dav-c310"},
};

const char *acl__soc_arch(const char *soc) {
  for (size_t i = 0; i < sizeof(acl__socs) / sizeof(acl__socs[0]); i++) {
    size_t n = strlen(acl__socs[i].name);
    if (acl__socs[i].prefix ? strncmp(soc, acl__socs[i].name, n) == 0 && soc[n] != '\0'
                            : strcmp(soc, acl__socs[i].name) == 0)
      return acl__socs[i].arch;
  }
  return NULL;
}
