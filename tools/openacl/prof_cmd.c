/*
 * prof_cmd.c - `openacl prof DIR`: a terminal summary of a profile that
 * openacl wrote (docs/profiling.md): the operators that took the most time,
 * how busy each stream was over the profile's window, and the longest idle
 * gaps between the tasks of a stream.  It reads the CSV tables of
 * mindstudio_profiler_output/ (task_time_*.csv, op_summary_*.csv), finding
 * columns by their header names; it needs no device and no library call.
 *
 * Busy time of a stream: the union of its tasks' intervals, event waits left
 * out (a parked stream does no work; the waits are shown apart).  A gap is a
 * stretch with no task at all (running or waiting) between two tasks of one
 * stream.  Utilisation = busy / the profile's window (first task start to
 * last task end over all streams).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "tool.h"

#define OUT_DIR "mindstudio_profiler_output"

static void prof_help(FILE *f) {
  fprintf(f, "usage: openacl prof [--top N] DIR\n"
             "\n"
             "Summarises a profile openacl wrote (aclprofStart/aclprofStop, the acl.json\n"
             "\"profiler\" section, or 'openacl infer --profiler'): the operators that took\n"
             "the most time, each stream's busy time and utilisation over the profile's\n"
             "window, and the longest idle gaps between the tasks of a stream.\n"
             "\n"
             "  DIR         a PROF_... directory, its " OUT_DIR " folder, or a\n"
             "              folder holding PROF_... directories (the newest is read)\n"
             "  --top N     how many operators and gaps to list (default 10, 1..10000)\n"
             "  -h, --help  this text\n"
             "\n"
             "Reads task_time_*.csv and op_summary_*.csv; the full timeline is in\n"
             "msprof_*.json (open it in ui.perfetto.dev).  Exit status: 0 done, 1 DIR is\n"
             "not a readable profile, 2 usage error.  Documentation: docs/profiling.md.\n");
}

/* ---- finding the tables ---------------------------------------------------- */

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* PROF_<6 digits>_<17-digit time>_...: the time part, for "newest". */
static const char *prof_time(const char *name) {
  if (strncmp(name, "PROF_", 5) != 0 || strlen(name) < 30 || name[11] != '_')
    return NULL;
  return name + 12;
}

/* Resolves DIR to the folder holding the tables (out, size).  0, or 1 after
 * printing why. */
static int find_tables(const char *dir, char *out, size_t size) {
  if (!is_dir(dir)) {
    tool_error("'%s' is not a directory%s%s", dir, errno ? ": " : "", errno ? strerror(errno) : "");
    return 1;
  }
  char p[4096];
  snprintf(p, sizeof p, "%s/%s", dir, OUT_DIR);
  if (is_dir(p)) {
    snprintf(out, size, "%s", p);
    return 0;
  }
  /* the tables themselves, or a folder of PROF_ directories */
  DIR *d = opendir(dir);
  if (d == NULL) {
    tool_error("cannot read directory '%s': %s", dir, strerror(errno));
    return 1;
  }
  char best[256] = "";
  int tables = 0, profs = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "task_time_", 10) == 0 || strncmp(e->d_name, "op_summary_", 11) == 0)
      tables = 1;
    const char *t = prof_time(e->d_name);
    if (t != NULL && strlen(e->d_name) < sizeof best) {
      snprintf(p, sizeof p, "%s/%s/%s", dir, e->d_name, OUT_DIR);
      if (is_dir(p)) {
        profs++;
        if (best[0] == '\0' || strcmp(t, prof_time(best)) > 0)
          snprintf(best, sizeof best, "%s", e->d_name);
      }
    }
  }
  closedir(d);
  if (tables) {
    snprintf(out, size, "%s", dir);
    return 0;
  }
  if (best[0] != '\0') {
    snprintf(out, size, "%s/%s/%s", dir, best, OUT_DIR);
    if (profs > 1)
      printf("%d profiles in %s; reading the newest, %s\n\n", profs, dir, best);
    return 0;
  }
  tool_error("'%s' holds no profile: no " OUT_DIR
             " folder, no task_time_*.csv or op_summary_*.csv, no PROF_* directory. "
             "Remedy: pass the directory given to aclprofInit (or 'openacl infer --profiler'), or a PROF_... "
             "directory in it",
             dir);
  return 1;
}

/* Calls fn for each file of folder `dir` whose name is prefix*.csv, in name order. */
static int each_table(const char *dir, const char *prefix, int (*fn)(const char *path, void *arg), void *arg,
                      int *found) {
  struct dirent **names;
  int n = scandir(dir, &names, NULL, alphasort);
  if (n < 0) {
    tool_error("cannot read directory '%s': %s", dir, strerror(errno));
    return 1;
  }
  int rc = 0;
  for (int i = 0; i < n; i++) {
    const char *nm = names[i]->d_name;
    size_t len = strlen(nm);
    if (rc == 0 && strncmp(nm, prefix, strlen(prefix)) == 0 && len > 4 && strcmp(nm + len - 4, ".csv") == 0) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", dir, nm);
      *found = 1;
      rc = fn(path, arg);
    }
    free(names[i]);
  }
  free(names);
  return rc;
}

/* ---- records ---------------------------------------------------------------- */

typedef struct task {
  int device, stream, wait;
  int64_t start, stop; /* ns */
  char *name;
} task;

typedef struct op {
  int model;
  char *name, *type, *impl;
  int64_t dur; /* ns */
} op;

typedef struct profile {
  task *tasks;
  size_t n_tasks, cap_tasks;
  op *ops;
  size_t n_ops, cap_ops;
  int has_ops_table;
} profile;

static int grow(void **p, size_t *cap, size_t n, size_t elem) {
  if (n < *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 256;
  void *q = realloc(*p, c * elem);
  if (q == NULL)
    return -1;
  *p = q;
  *cap = c;
  return 0;
}

static int bad_table(const char *path, const tool_csv *c, const char *what) {
  tool_error("%s line %ld: %s. Remedy: pass a profile openacl wrote, unchanged", path, c->line, what);
  return 1;
}

static int read_tasks(const char *path, void *arg) {
  profile *pr = arg;
  tool_csv c;
  int err = tool_csv_open(&c, path);
  if (err != 0) {
    tool_error("cannot read '%s': %s", path, strerror(err));
    return 1;
  }
  int cd = tool_csv_col(&c, "Device_id"), cn = tool_csv_col(&c, "kernel_name"), ck = tool_csv_col(&c, "kernel_type"),
      cs = tool_csv_col(&c, "stream_id"), c0 = tool_csv_col(&c, "task_start(us)"),
      c1 = tool_csv_col(&c, "task_stop(us)");
  int rc = 0;
  if (cs < 0 || c0 < 0 || c1 < 0)
    rc = bad_table(path, &c, "the header lacks stream_id, task_start(us) or task_stop(us)");
  int r;
  while (rc == 0 && (r = tool_csv_next(&c)) == 1) {
    int ok0, ok1;
    task t = {atoi(tool_csv_cell(&c, cd)),
              atoi(tool_csv_cell(&c, cs)),
              strcmp(tool_csv_cell(&c, ck), "EVENT_WAIT") == 0,
              tool_csv_us_to_ns(tool_csv_cell(&c, c0), &ok0),
              tool_csv_us_to_ns(tool_csv_cell(&c, c1), &ok1),
              NULL};
    if (!ok0 || !ok1 || t.stop < t.start) {
      rc = bad_table(path, &c, "task_start(us) / task_stop(us) are not times in µs with start <= stop");
      break;
    }
    if (grow((void **)&pr->tasks, &pr->cap_tasks, pr->n_tasks, sizeof(task)) != 0 ||
        (t.name = strdup(tool_csv_cell(&c, cn))) == NULL) {
      tool_error("out of memory reading '%s'", path);
      rc = 1;
      break;
    }
    pr->tasks[pr->n_tasks++] = t;
  }
  if (rc == 0 && r < 0) {
    tool_error("cannot read '%s': %s", path, strerror(errno));
    rc = 1;
  }
  tool_csv_close(&c);
  return rc;
}

static int read_ops(const char *path, void *arg) {
  profile *pr = arg;
  tool_csv c;
  int err = tool_csv_open(&c, path);
  if (err != 0) {
    tool_error("cannot read '%s': %s", path, strerror(err));
    return 1;
  }
  int cm = tool_csv_col(&c, "Model ID"), cn = tool_csv_col(&c, "Op Name"), ct = tool_csv_col(&c, "OP Type"),
      cdur = tool_csv_col(&c, "Task Duration(us)"), ci = tool_csv_col(&c, "Implementation");
  int rc = 0;
  if (cn < 0 || cdur < 0)
    rc = bad_table(path, &c, "the header lacks Op Name or Task Duration(us)");
  int r;
  while (rc == 0 && (r = tool_csv_next(&c)) == 1) {
    int ok;
    op o = {atoi(tool_csv_cell(&c, cm)), NULL, NULL, NULL, tool_csv_us_to_ns(tool_csv_cell(&c, cdur), &ok)};
    if (!ok) {
      rc = bad_table(path, &c, "Task Duration(us) is not a time in µs");
      break;
    }
    if (grow((void **)&pr->ops, &pr->cap_ops, pr->n_ops, sizeof(op)) != 0 ||
        (o.name = strdup(tool_csv_cell(&c, cn))) == NULL || (o.type = strdup(tool_csv_cell(&c, ct))) == NULL ||
        (o.impl = strdup(tool_csv_cell(&c, ci))) == NULL) {
      free(o.name);
      free(o.type);
      tool_error("out of memory reading '%s'", path);
      rc = 1;
      break;
    }
    pr->ops[pr->n_ops++] = o;
  }
  if (rc == 0 && r < 0) {
    tool_error("cannot read '%s': %s", path, strerror(errno));
    rc = 1;
  }
  tool_csv_close(&c);
  return rc;
}

static void profile_free(profile *pr) {
  for (size_t i = 0; i < pr->n_tasks; i++)
    free(pr->tasks[i].name);
  for (size_t i = 0; i < pr->n_ops; i++) {
    free(pr->ops[i].name);
    free(pr->ops[i].type);
    free(pr->ops[i].impl);
  }
  free(pr->tasks);
  free(pr->ops);
}

/* ---- summaries ------------------------------------------------------------ */

static double us(int64_t ns) { return (double)ns / 1000.0; }

/* Up to `w` bytes of s, "…"-less: cut with a trailing '~' when longer. */
static void put_cut(const char *s, int w) {
  int len = (int)strlen(s);
  if (len <= w)
    printf("%-*s", w, s);
  else
    printf("%.*s~", w - 1, s);
}

typedef struct op_row {
  const op *first;
  size_t count;
  int64_t total, max;
} op_row;

static int op_key_cmp(const void *a, const void *b) {
  const op *x = a, *y = b;
  if (x->model != y->model)
    return x->model < y->model ? -1 : 1;
  int c = strcmp(x->name, y->name);
  return c ? c : strcmp(x->type, y->type);
}

static int op_row_cmp(const void *a, const void *b) {
  const op_row *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return strcmp(x->first->name, y->first->name);
}

static int type_key_cmp(const void *a, const void *b) {
  const op *x = a, *y = b;
  return strcmp(x->type, y->type);
}

/* Groups the sorted ops by `same` into rows (returned, *n set), by total time. */
static op_row *group(const op *ops, size_t n_ops, int by_type, size_t *n) {
  op_row *rows = calloc(n_ops ? n_ops : 1, sizeof(*rows));
  if (rows == NULL)
    return NULL;
  *n = 0;
  for (size_t i = 0; i < n_ops; i++) {
    const op *o = &ops[i];
    int same = *n > 0 && (by_type ? type_key_cmp(o, rows[*n - 1].first) == 0 : op_key_cmp(o, rows[*n - 1].first) == 0);
    if (!same)
      rows[(*n)++] = (op_row){o, 0, 0, 0};
    op_row *r = &rows[*n - 1];
    r->count++;
    r->total += o->dur;
    if (o->dur > r->max)
      r->max = o->dur;
  }
  qsort(rows, *n, sizeof(*rows), op_row_cmp);
  return rows;
}

static int print_ops(profile *pr, int top) {
  if (!pr->has_ops_table) {
    printf("operators: no op_summary table (profiled with task time l0, or without ACL_PROF_TASK_TIME)\n\n");
    return 0;
  }
  if (pr->n_ops == 0) {
    printf("operators: none recorded (no model ran with operator records)\n\n");
    return 0;
  }
  int64_t all = 0;
  for (size_t i = 0; i < pr->n_ops; i++)
    all += pr->ops[i].dur;
  qsort(pr->ops, pr->n_ops, sizeof(op), op_key_cmp);
  size_t n;
  op_row *rows = group(pr->ops, pr->n_ops, 0, &n);
  if (rows == NULL) {
    tool_error("out of memory summarising operators");
    return 1;
  }
  printf("top operators by total time (%zu runs of %zu operators, %.3f us in all)\n", pr->n_ops, n, us(all));
  printf("  %-5s %-28s %-16s %7s %14s %12s %12s %6s  %s\n", "MODEL", "OP NAME", "OP TYPE", "COUNT", "TOTAL(us)",
         "AVG(us)", "MAX(us)", "SHARE", "IMPLEMENTATION");
  for (size_t i = 0; i < n && i < (size_t)top; i++) {
    const op_row *r = &rows[i];
    printf("  %-5d ", r->first->model);
    put_cut(r->first->name, 28);
    putchar(' ');
    put_cut(r->first->type, 16);
    printf(" %7zu %14.3f %12.3f %12.3f %5.1f%%  %s\n", r->count, us(r->total), us(r->total) / (double)r->count,
           us(r->max), all ? 100.0 * (double)r->total / (double)all : 0.0, r->first->impl);
  }
  if (n > (size_t)top)
    printf("  ... %zu more (--top)\n", n - (size_t)top);
  free(rows);
  qsort(pr->ops, pr->n_ops, sizeof(op), type_key_cmp);
  rows = group(pr->ops, pr->n_ops, 1, &n);
  if (rows == NULL) {
    tool_error("out of memory summarising operators");
    return 1;
  }
  printf("\nby operator type\n");
  printf("  %-16s %7s %14s %12s %6s\n", "OP TYPE", "COUNT", "TOTAL(us)", "AVG(us)", "SHARE");
  for (size_t i = 0; i < n && i < (size_t)top; i++) {
    const op_row *r = &rows[i];
    printf("  ");
    put_cut(r->first->type, 16);
    printf(" %7zu %14.3f %12.3f %5.1f%%\n", r->count, us(r->total), us(r->total) / (double)r->count,
           all ? 100.0 * (double)r->total / (double)all : 0.0);
  }
  printf("\n");
  free(rows);
  return 0;
}

static int task_cmp(const void *a, const void *b) {
  const task *x = a, *y = b;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->stop < y->stop ? -1 : x->stop > y->stop;
}

typedef struct gap {
  const task *before, *after;
  int64_t at, len; /* at: end of `before` */
} gap;

static int gap_cmp(const void *a, const void *b) {
  const gap *x = a, *y = b;
  if (x->len != y->len)
    return x->len > y->len ? -1 : 1;
  return x->at < y->at ? -1 : x->at > y->at;
}

static int print_streams(profile *pr, int top) {
  if (pr->n_tasks == 0) {
    printf("streams: no tasks recorded\n");
    return 0;
  }
  qsort(pr->tasks, pr->n_tasks, sizeof(task), task_cmp);
  int64_t t0 = pr->tasks[0].start, t1 = pr->tasks[0].stop;
  for (size_t i = 0; i < pr->n_tasks; i++) {
    if (pr->tasks[i].start < t0)
      t0 = pr->tasks[i].start;
    if (pr->tasks[i].stop > t1)
      t1 = pr->tasks[i].stop;
  }
  int64_t window = t1 - t0;
  gap *gaps = malloc(pr->n_tasks * sizeof(*gaps));
  if (gaps == NULL) {
    tool_error("out of memory summarising streams");
    return 1;
  }
  size_t n_gaps = 0;
  printf("streams (utilisation = busy time / the %.3f us window; event waits are not busy)\n", us(window));
  printf("  %-6s %-6s %7s %14s %14s %14s %6s\n", "DEVICE", "STREAM", "TASKS", "BUSY(us)", "WAIT(us)", "IDLE(us)",
         "UTIL");
  for (size_t i = 0; i < pr->n_tasks;) {
    size_t j = i;
    int64_t busy = 0, wait = 0, covered = 0;
    int64_t bend = INT64_MIN, cend = INT64_MIN; /* ends of the busy and of the covered union so far */
    const task *last = NULL;
    for (; j < pr->n_tasks && pr->tasks[j].device == pr->tasks[i].device && pr->tasks[j].stream == pr->tasks[i].stream;
         j++) {
      const task *t = &pr->tasks[j];
      if (last != NULL && t->start > cend)
        gaps[n_gaps++] = (gap){last, t, cend, t->start - cend};
      if (t->wait) {
        wait += t->stop - t->start;
      } else if (t->stop > bend) {
        busy += t->stop - (t->start > bend ? t->start : bend);
        bend = t->stop;
      }
      if (t->stop > cend) {
        covered += t->stop - (t->start > cend ? t->start : cend);
        cend = t->stop;
        last = t;
      } else if (last == NULL) {
        last = t;
      }
    }
    printf("  %-6d %-6d %7zu %14.3f %14.3f %14.3f %5.1f%%\n", pr->tasks[i].device, pr->tasks[i].stream, j - i, us(busy),
           us(wait), us(window - covered), window ? 100.0 * (double)busy / (double)window : 100.0);
    i = j;
  }
  qsort(gaps, n_gaps, sizeof(*gaps), gap_cmp);
  if (n_gaps == 0) {
    printf("\nidle gaps: none (every stream ran its tasks back to back)\n");
  } else {
    printf("\nlongest idle gaps between the tasks of a stream (AT: from the window's start)\n");
    printf("  %-6s %-6s %14s %14s  %-34s %s\n", "DEVICE", "STREAM", "AT(us)", "GAP(us)", "AFTER", "BEFORE");
    for (size_t i = 0; i < n_gaps && i < (size_t)top; i++) {
      const gap *g = &gaps[i];
      printf("  %-6d %-6d %14.3f %14.3f  ", g->after->device, g->after->stream, us(g->at - t0), us(g->len));
      put_cut(g->before->name, 34);
      printf(" %s\n", g->after->name);
    }
    if (n_gaps > (size_t)top)
      printf("  ... %zu more (--top)\n", n_gaps - (size_t)top);
  }
  free(gaps);
  return 0;
}

/* ---- the command ------------------------------------------------------------ */

int tool_cmd_prof(int argc, char **argv) {
  const char *dir = NULL;
  long top = 10;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      prof_help(stdout);
      return TOOL_OK;
    }
    if (strcmp(a, "--top") == 0 || strncmp(a, "--top=", 6) == 0) {
      const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
      char *end;
      if (v == NULL)
        return tool_usage_error("prof", "--top needs a value");
      errno = 0;
      top = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || errno != 0 || top < 1 || top > 10000)
        return tool_usage_error("prof", "--top '%s' is not a count from 1 to 10000", v);
      continue;
    }
    if (a[0] == '-' && a[1] != '\0')
      return tool_usage_error("prof", "unknown option '%s'", a);
    if (dir != NULL)
      return tool_usage_error("prof", "one DIR only ('%s' and '%s' given)", dir, a);
    dir = a;
  }
  if (dir == NULL)
    return tool_usage_error("prof", "no DIR given: pass the profile's directory");
  char tables[4096];
  errno = 0;
  if (find_tables(dir, tables, sizeof tables) != 0)
    return TOOL_FAIL;
  profile pr = {0};
  int found_tasks = 0, found_ops = 0;
  int rc = each_table(tables, "task_time_", read_tasks, &pr, &found_tasks);
  if (rc == 0)
    rc = each_table(tables, "op_summary_", read_ops, &pr, &found_ops);
  if (rc == 0 && !found_tasks && !found_ops) {
    tool_error("'%s' has no task_time_*.csv or op_summary_*.csv: the profile was not written (was aclprofStop or "
               "aclprofFinalize called?)",
               tables);
    rc = 1;
  }
  if (rc == 0) {
    pr.has_ops_table = found_ops;
    printf("profile: %s\n\n", tables);
    rc = print_ops(&pr, (int)top);
    if (rc == 0)
      rc = print_streams(&pr, (int)top);
  }
  profile_free(&pr);
  return rc == 0 ? TOOL_OK : TOOL_FAIL;
}
