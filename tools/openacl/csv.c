/*
 * csv.c - the CSV reader of csv.h: one record at a time, cells stored
 * NUL-terminated in one growing buffer.
 */
#include "csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int put(tool_csv *c, char ch) {
  if (c->len == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 256;
    char *b = realloc(c->buf, cap);
    if (b == NULL)
      return -1;
    c->buf = b;
    c->cap = cap;
  }
  c->buf[c->len++] = ch;
  return 0;
}

static int start_cell(tool_csv *c) {
  if (c->n == c->ncap) {
    size_t cap = c->ncap ? c->ncap * 2 : 32;
    size_t *o = realloc(c->offs, cap * sizeof(*o));
    if (o == NULL)
      return -1;
    c->offs = o;
    c->ncap = cap;
  }
  c->offs[c->n++] = c->len;
  return 0;
}

/* Reads one record into buf/offs: 1, 0 at EOF before any byte, -1 on error. */
static int read_record(tool_csv *c) {
  c->len = 0;
  c->n = 0;
  int ch = getc(c->f);
  if (ch == EOF)
    return ferror(c->f) ? -1 : 0;
  c->line++;
  if (start_cell(c) != 0)
    return -1;
  int quoted = 0;
  for (;; ch = getc(c->f)) {
    if (ch == EOF) {
      if (ferror(c->f))
        return -1;
      break;
    }
    if (quoted) {
      if (ch == '"') {
        int next = getc(c->f);
        if (next == '"') {
          if (put(c, '"') != 0)
            return -1;
          continue;
        }
        quoted = 0;
        if (next == EOF)
          break;
        ch = next; /* fall through to the unquoted handling */
      } else {
        if (ch == '\n')
          c->line++;
        if (put(c, (char)ch) != 0)
          return -1;
        continue;
      }
    }
    if (ch == '"') {
      quoted = 1;
    } else if (ch == ',') {
      if (put(c, '\0') != 0 || start_cell(c) != 0)
        return -1;
    } else if (ch == '\n') {
      break;
    } else if (ch != '\r') {
      if (put(c, (char)ch) != 0)
        return -1;
    }
  }
  return put(c, '\0') == 0 ? 1 : -1;
}

int tool_csv_open(tool_csv *c, const char *path) {
  memset(c, 0, sizeof(*c));
  c->f = fopen(path, "r");
  if (c->f == NULL)
    return errno;
  int r = read_record(c);
  if (r <= 0) {
    int err = r < 0 ? errno : EINVAL;
    tool_csv_close(c);
    return err ? err : EIO;
  }
  c->header = calloc(c->n, sizeof(*c->header));
  if (c->header == NULL) {
    tool_csv_close(c);
    return ENOMEM;
  }
  c->nheader = c->n;
  for (size_t i = 0; i < c->n; i++)
    if ((c->header[i] = strdup(c->buf + c->offs[i])) == NULL) {
      tool_csv_close(c);
      return ENOMEM;
    }
  return 0;
}

int tool_csv_next(tool_csv *c) {
  for (;;) {
    int r = read_record(c);
    if (r <= 0)
      return r;
    if (!(c->n == 1 && c->buf[0] == '\0'))
      return 1; /* blank lines are skipped */
  }
}

int tool_csv_col(const tool_csv *c, const char *name) {
  for (size_t i = 0; i < c->nheader; i++)
    if (strcmp(c->header[i], name) == 0)
      return (int)i;
  return -1;
}

const char *tool_csv_cell(const tool_csv *c, int i) { return i >= 0 && (size_t)i < c->n ? c->buf + c->offs[i] : ""; }

void tool_csv_close(tool_csv *c) {
  if (c->f != NULL)
    fclose(c->f);
  for (size_t i = 0; i < c->nheader; i++)
    free(c->header[i]);
  free(c->header);
  free(c->buf);
  free(c->offs);
  memset(c, 0, sizeof(*c));
}

int64_t tool_csv_us_to_ns(const char *s, int *ok) {
  *ok = 0;
  int64_t us = 0, frac = 0;
  int digits = 0, fdigits = 0;
  const char *p = s;
  for (; *p >= '0' && *p <= '9'; p++, digits++) {
    if (us > (INT64_MAX / 1000 - 9) / 10)
      return 0;
    us = us * 10 + (*p - '0');
  }
  if (*p == '.')
    for (p++; *p >= '0' && *p <= '9'; p++)
      if (fdigits < 3) {
        frac = frac * 10 + (*p - '0');
        fdigits++;
      }
  if (digits == 0 || *p != '\0')
    return 0;
  for (; fdigits < 3; fdigits++)
    frac *= 10;
  *ok = 1;
  return us * 1000 + frac;
}
