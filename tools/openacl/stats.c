/*
 * stats.c - latency statistics.  Samples are kept (8 bytes per execution)
 * rather than binned, so percentiles are exact.
 */
#include "stats.h"

#include <stdlib.h>
#include <time.h>

double stats_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int stats_add(stats_samples *s, double ms, double items) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 1024;
    double *p = realloc(s->ms, cap * sizeof(double));
    if (p == NULL)
      return -1;
    s->ms = p;
    s->cap = cap;
  }
  s->ms[s->n++] = ms;
  s->items += items;
  return 0;
}

void stats_free(stats_samples *s) {
  free(s->ms);
  s->ms = NULL;
  s->n = s->cap = 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double percentile(const double *v, size_t n, double q) {
  double pos = q * (double)(n - 1);
  size_t lo = (size_t)pos;
  size_t hi = lo + 1 < n ? lo + 1 : lo;
  return v[lo] + (v[hi] - v[lo]) * (pos - (double)lo);
}

void stats_summarise(stats_samples *s, stats_summary *out) {
  *out = (stats_summary){0};
  if (s->n == 0)
    return;
  qsort(s->ms, s->n, sizeof(double), cmp_double);
  out->count = s->n;
  for (size_t i = 0; i < s->n; i++)
    out->total_ms += s->ms[i];
  out->min = s->ms[0];
  out->max = s->ms[s->n - 1];
  out->mean = out->total_ms / (double)s->n;
  out->p50 = percentile(s->ms, s->n, 0.50);
  out->p90 = percentile(s->ms, s->n, 0.90);
  out->p99 = percentile(s->ms, s->n, 0.99);
  out->items_per_s = out->total_ms > 0 ? s->items / (out->total_ms / 1e3) : 0;
}
