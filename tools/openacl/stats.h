/*
 * stats.h - latency samples and their summary (min, mean, percentiles,
 * max, throughput), as `openacl infer` prints them and writes them as JSON.
 */
#ifndef OPENACL_TOOL_STATS_H
#define OPENACL_TOOL_STATS_H

#include <stddef.h>
#include <stdio.h>

typedef struct stats_samples {
  double *ms; /* one latency per execution, milliseconds */
  size_t n, cap;
  double items; /* items processed by these executions, for throughput */
} stats_samples;

typedef struct stats_summary {
  size_t count;
  double min, mean, p50, p90, p99, max; /* milliseconds */
  double total_ms;
  double items_per_s; /* items / total time */
} stats_summary;

/* 0, or -1 out of memory. */
int stats_add(stats_samples *s, double ms, double items);
void stats_free(stats_samples *s);
/* Sorts the samples; percentiles by linear interpolation between the
 * closest ranks (numpy's default).  count 0 when there are none. */
void stats_summarise(stats_samples *s, stats_summary *out);
/* Monotonic clock in milliseconds. */
double stats_now_ms(void);

#endif
