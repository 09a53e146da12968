/*
 * csv.h - a small reader of the CSV files the profiler writes (RFC 4180:
 * comma-separated, cells optionally in double quotes, "" for a quote inside,
 * CRLF or LF line ends).  The first record is the header; columns are found
 * by name, so a reader does not depend on their order.  Used by
 * `openacl prof` (prof_cmd.c).
 */
#ifndef OPENACL_TOOL_CSV_H
#define OPENACL_TOOL_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct tool_csv {
  FILE *f;
  char *buf; /* the current record's cells, each NUL-terminated */
  size_t len, cap;
  size_t *offs;   /* start of each cell in buf */
  size_t n, ncap; /* cells of the current record */
  char **header;  /* the header's cells (owned) */
  size_t nheader;
  long line; /* line number of the current record's start */
} tool_csv;

/* Opens `path` and reads its header; 0, or an errno value (EINVAL: empty file). */
int tool_csv_open(tool_csv *c, const char *path);
/* The next record: 1, 0 at the end, -1 on a read error (errno set). */
int tool_csv_next(tool_csv *c);
/* Index of the header column `name`, -1 if the file has none. */
int tool_csv_col(const tool_csv *c, const char *name);
/* Cell i of the current record ("" past its last cell or for col -1). */
const char *tool_csv_cell(const tool_csv *c, int i);
void tool_csv_close(tool_csv *c);

/* "1796174085084954.174" (µs with up to 3 decimals) as nanoseconds; 0 if
 * the cell is not such a number (*ok = 0). */
int64_t tool_csv_us_to_ns(const char *s, int *ok);

#endif
