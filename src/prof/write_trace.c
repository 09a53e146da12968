/*
 * write_trace.c - the timeline of a profile, msprof_<time>.json: a JSON
 * array of Chrome trace events (prof-dump.md §3.4) that ui.perfetto.dev and
 * chrome://tracing open.
 *
 * Processes (pid = real pid << 10 | sort index << 5 | device, 31 = host):
 *   MsprofTx (6)          markers and ranges, one track per host thread
 *   CANN (7)              AscendCL and runtime calls, one track per host thread
 *   Ascend Hardware (14)  per device: one track per stream ("Stream <id>")
 *                         with every task, and a model's operators nested
 *                         under its execution
 *   Memory (16)           per device: a counter of device memory in use
 * Flows (HostToDevice) join each submission to the task's execution.
 * Every duration is a complete ("X") event, so there is no begin without
 * an end; events are written in time order, so timestamps rise on every
 * track.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof/prof_internal.h"

#define HOST_DEV 31

static long pid_of(const acl__prof_session *s, int sort, int dev) {
  return ((long)s->pid << 10) | ((long)sort << 5) | (dev < 0 || dev > 30 ? HOST_DEV : dev);
}

static void ts(FILE *f, const acl__prof_session *s, uint64_t mono) {
  char b[32];
  fprintf(f, "\"%s\"", acl__prof_fmt_us(b, s, mono));
}

static void meta(FILE *f, int *first, long pid, long tid, const char *name, const char *key, const char *value,
                 int number) {
  fprintf(f, "%s\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%ld,\"tid\":%ld,\"args\":{\"%s\":", *first ? "" : ",", name,
          pid, tid, key);
  if (number)
    fputs(value, f);
  else {
    fputc('"', f);
    acl__prof_json_str(f, value);
    fputc('"', f);
  }
  fputs("}}", f);
  *first = 0;
}

static void process_meta(FILE *f, int *first, long pid, const char *name, const char *label, int sort) {
  char num[16];
  meta(f, first, pid, 0, "process_name", "name", name, 0);
  meta(f, first, pid, 0, "process_labels", "labels", label, 0);
  snprintf(num, sizeof(num), "%d", sort);
  meta(f, first, pid, 0, "process_sort_index", "sort_index", num, 1);
}

/* Names each track once: (pid, tid) seen before? */
typedef struct seen {
  long *pid, *tid;
  size_t n, cap;
} seen;

static int seen_add(seen *sn, long pid, long tid) {
  for (size_t i = 0; i < sn->n; i++)
    if (sn->pid[i] == pid && sn->tid[i] == tid)
      return 0;
  if (sn->n == sn->cap) {
    size_t nc = sn->cap ? sn->cap * 2 : 32;
    long *p = realloc(sn->pid, nc * sizeof(long));
    if (p == NULL)
      return 0;
    sn->pid = p;
    long *t = realloc(sn->tid, nc * sizeof(long));
    if (t == NULL)
      return 0;
    sn->tid = t;
    sn->cap = nc;
  }
  sn->pid[sn->n] = pid;
  sn->tid[sn->n] = tid;
  sn->n++;
  return 1;
}

static void track(FILE *f, int *first, seen *sn, long pid, long tid, const char *fmt, long id) {
  if (!seen_add(sn, pid, tid))
    return;
  char name[64], num[24];
  snprintf(name, sizeof(name), fmt, id);
  meta(f, first, pid, tid, "thread_name", "name", name, 0);
  snprintf(num, sizeof(num), "%ld", tid);
  meta(f, first, pid, tid, "thread_sort_index", "sort_index", num, 1);
}

static void x_event(FILE *f, int *first, const acl__prof_session *s, const char *name, long pid, long tid,
                    uint64_t t0, uint64_t t1, const char *cat) {
  fprintf(f, "%s\n{\"name\":\"", *first ? "" : ",");
  acl__prof_json_str(f, name);
  fprintf(f, "\",\"pid\":%ld,\"tid\":%ld,\"ts\":", pid, tid);
  ts(f, s, t0);
  fprintf(f, ",\"dur\":%.3f,\"ph\":\"X\",\"cat\":\"%s\",\"args\":{", (double)(t1 - t0) / 1000.0, cat);
  *first = 0;
}

/* An event to write at time t: which record, and what of it. */
typedef struct ev {
  uint64_t t;
  uint64_t end;        /* for ordering equal starts: the longer first */
  int what;            /* 0 record, 1 task, 2 flow end of task */
  size_t i;
} ev;

static int by_ev(const void *a, const void *b) {
  const ev *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return x->what - y->what;
}

/* The submissions (PREC_SUBMIT records) sorted by (device, stream, seq,
 * t0), so that each task finds its own with a binary search: a queue of
 * thousands of asynchronous tasks made a backward scan from each task's
 * start quadratic. */
typedef struct sub_key {
  int32_t device, stream;
  uint64_t seq, t0;
  size_t i; /* index in the records */
} sub_key;

static int key_cmp(const sub_key *x, const sub_key *y) {
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return 0;
}

static int by_sub(const void *a, const void *b) {
  const sub_key *x = a, *y = b;
  int c = key_cmp(x, y);
  return c != 0 ? c : (x->t0 < y->t0 ? -1 : x->t0 > y->t0);
}

/* r's submissions as sorted keys (*n_out of them); NULL when out of memory. */
static sub_key *index_submits(const acl__prof_rec *r, size_t n, size_t *n_out) {
  size_t k = 0;
  sub_key *ix = malloc((n ? n : 1) * sizeof(*ix));
  if (ix == NULL)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (r[i].kind == PREC_SUBMIT)
      ix[k++] = (sub_key){r[i].device, r[i].stream, r[i].seq, r[i].t0, i};
  qsort(ix, k, sizeof(*ix), by_sub);
  *n_out = k;
  return ix;
}

/* The submission of task t: a PREC_SUBMIT with its key (a stream id may
 * come back after its stream is destroyed), the last before it started. */
static long find_submit(const sub_key *ix, size_t ns, const acl__prof_rec *t) {
  const sub_key want = {t->device, t->stream, t->seq, t->t0, 0};
  size_t lo = 0, hi = ns; /* the first entry after (key, t0) */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = key_cmp(&ix[mid], &want);
    if (c < 0 || (c == 0 && ix[mid].t0 <= t->t0))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || key_cmp(&ix[lo - 1], &want) != 0)
    return -1;
  return (long)ix[lo - 1].i;
}

int acl__prof_write_trace(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *path) {
  static const char *const tx_types[] = {"marker", "push/pop", "start/end", "marker_ex"};
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return errno;
  size_t nt = 0;
  acl__prof_rec *tasks = acl__prof_tasks(r, n, &nt);
  long *flow_of = calloc(nt ? nt : 1, sizeof(long)); /* task -> submit record index + 1 */
  size_t *task_of = calloc(n ? n : 1, sizeof(size_t)); /* submit record -> task index + 1 */
  ev *evs = malloc((n + 2 * nt + 1) * sizeof(ev));
  size_t n_sub = 0;
  sub_key *subs = index_submits(r, n, &n_sub);
  int first = 1;
  seen sn = {0};
  size_t ne = 0;
  if (evs == NULL || flow_of == NULL || task_of == NULL || subs == NULL || (nt > 0 && tasks == NULL))
    goto done;
  for (size_t i = 0; i < n; i++)
    if (r[i].kind != PREC_TASK)
      evs[ne++] = (ev){r[i].t0, r[i].t1, 0, i};
  for (size_t i = 0; i < nt; i++) {
    evs[ne++] = (ev){tasks[i].t0, tasks[i].t1, 1, i};
    flow_of[i] = find_submit(subs, n_sub, &tasks[i]) + 1;
    if (flow_of[i] > 0)
      task_of[flow_of[i] - 1] = i + 1;
  }
  qsort(evs, ne, sizeof(*evs), by_ev);

  fputs("[", f);
  long tx_pid = pid_of(s, 6, -1), cann_pid = pid_of(s, 7, -1);
  process_meta(f, &first, tx_pid, "MsprofTx", "CPU", 6);
  process_meta(f, &first, cann_pid, "CANN", "CPU", 7);
  for (int d = 0; d < 31; d++) {
    int used = 0;
    for (size_t i = 0; i < nt && !used; i++)
      used = tasks[i].device == d;
    for (size_t i = 0; i < n && !used; i++)
      used = (r[i].kind == PREC_OP || r[i].kind == PREC_MEM) && r[i].device == d;
    if (!used && !(s->devices & (1ull << d)))
      continue;
    char label[16];
    snprintf(label, sizeof(label), "NPU %d", d);
    process_meta(f, &first, pid_of(s, 14, d), "Ascend Hardware", label, 14);
    process_meta(f, &first, pid_of(s, 16, d), "Memory", label, 16);
  }

  for (size_t k = 0; k < ne; k++) {
    if (evs[k].what == 1) {
      const acl__prof_rec *t = &tasks[evs[k].i];
      long pid = pid_of(s, 14, t->device);
      track(f, &first, &sn, pid, t->stream, "Stream %ld", t->stream);
      x_event(f, &first, s, t->text[0] ? t->text : acl__prof_task_kind_name(t->sub), pid, t->stream, t->t0, t->t1,
              "task");
      fprintf(f, "\"Task Type\":\"%s\",\"Stream Id\":%d,\"Task Id\":%llu,\"Result\":%d", acl__prof_task_type(t->sub),
              t->stream, (unsigned long long)t->seq, t->rc);
      if (t->model != UINT32_MAX)
        fprintf(f, ",\"Model Id\":%u", t->model);
      fputs("}}", f);
      if (flow_of[evs[k].i] > 0) {
        /* the flow's end, bound to this task's slice */
        fprintf(f, ",\n{\"name\":\"HostToDevice%zu\",\"pid\":%ld,\"tid\":%d,\"ph\":\"f\",\"bp\":\"e\","
                   "\"cat\":\"HostToDevice\",\"id\":%zu,\"ts\":",
                evs[k].i + 1, pid, t->stream, evs[k].i + 1);
        ts(f, s, t->t0);
        fputs("}", f);
      }
      continue;
    }
    const acl__prof_rec *x = &r[evs[k].i];
    switch (x->kind) {
    case PREC_API:
    case PREC_SUBMIT: {
      int api = x->kind == PREC_API;
      char name[96];
      snprintf(name, sizeof(name), "%s@%s", api ? "AscendCL" : "Runtime",
               api ? (const char *)x->ptr : acl__prof_rt_name(x->sub));
      track(f, &first, &sn, cann_pid, x->tid, "Thread %ld", x->tid);
      x_event(f, &first, s, name, cann_pid, x->tid, x->t0, x->t1, api ? "acl" : "runtime");
      fprintf(f, "\"Thread Id\":%u,\"Mode\":\"host\",\"level\":\"%s\"", x->tid, api ? "acl" : "runtime");
      if (!api) {
        fprintf(f, ",\"Stream Id\":%d,\"Task Id\":%llu,\"task\":\"", x->stream, (unsigned long long)x->seq);
        acl__prof_json_str(f, x->text);
        fputc('"', f);
      }
      fputs("}}", f);
      if (!api && task_of[evs[k].i] > 0) { /* the flow's start, to the task it became */
        size_t id = task_of[evs[k].i];
        fprintf(f, ",\n{\"name\":\"HostToDevice%zu\",\"pid\":%ld,\"tid\":%u,\"ph\":\"s\",\"cat\":\"HostToDevice\","
                   "\"id\":%zu,\"ts\":",
                id, cann_pid, x->tid, id);
        ts(f, s, x->t0);
        fputs("}", f);
      }
      break;
    }
    case PREC_OP: {
      const acl__prof_opinfo *o = x->ptr;
      long pid = pid_of(s, 14, x->device);
      long tid = x->stream >= 0 ? x->stream : (long)x->tid;
      track(f, &first, &sn, pid, tid, x->stream >= 0 ? "Stream %ld" : "Thread %ld", tid);
      x_event(f, &first, s, o->name[0] ? o->name : o->type, pid, tid, x->t0, x->t1, "op");
      fputs("\"Task Type\":\"AI_CORE\",\"OP Type\":\"", f);
      acl__prof_json_str(f, o->type);
      fputs("\",\"Implementation\":\"", f);
      acl__prof_json_str(f, o->impl);
      fputs("\",\"Input Shapes\":\"", f);
      acl__prof_json_str(f, o->in_shapes);
      fputs("\",\"Input Data Types\":\"", f);
      acl__prof_json_str(f, o->in_types);
      fputs("\",\"Output Shapes\":\"", f);
      acl__prof_json_str(f, o->out_shapes);
      fputs("\",\"Output Data Types\":\"", f);
      acl__prof_json_str(f, o->out_types);
      fprintf(f, "\",\"Model Id\":%u,\"Task Id\":%llu}}", x->model, (unsigned long long)x->seq);
      break;
    }
    case PREC_TX:
      track(f, &first, &sn, tx_pid, x->tid, "Thread %ld", x->tid);
      if (x->t1 > x->t0) {
        x_event(f, &first, s, x->ptr, tx_pid, x->tid, x->t0, x->t1, "msproftx");
      } else {
        fprintf(f, ",\n{\"name\":\"");
        acl__prof_json_str(f, x->ptr);
        fprintf(f, "\",\"pid\":%ld,\"tid\":%u,\"ts\":", tx_pid, x->tid);
        ts(f, s, x->t0);
        fputs(",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"msproftx\",\"args\":{", f);
      }
      fprintf(f, "\"Category\":\"N/A\",\"Payload_type\":\"N/A\",\"Payload_value\":\"N/A\",\"Message_type\":\"string\","
                 "\"event_type\":\"%s\",\"domain\":\"",
              tx_types[x->sub & 3]);
      acl__prof_json_str(f, x->domain != NULL ? x->domain : "default");
      fputs("\"}}", f);
      break;
    case PREC_MEM:
      fprintf(f, ",\n{\"name\":\"Device memory\",\"pid\":%ld,\"tid\":0,\"ts\":", pid_of(s, 16, x->device));
      ts(f, s, x->t0);
      fprintf(f, ",\"ph\":\"C\",\"args\":{\"in use (MB)\":%.3f}}", (double)x->seq / 1048576.0);
      break;
    case PREC_STEP:
      track(f, &first, &sn, cann_pid, x->tid, "Thread %ld", x->tid);
      fprintf(f, ",\n{\"name\":\"Step %llu %s\",\"pid\":%ld,\"tid\":%u,\"ts\":", (unsigned long long)x->seq,
              x->sub == 0 ? "start" : "end", cann_pid, x->tid);
      ts(f, s, x->t0);
      fputs(",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"Step Trace\"}", f);
      break;
    default:
      break;
    }
  }
  fputs("\n]\n", f);
done:
  free(evs);
  free(subs);
  free(flow_of);
  free(task_of);
  free(tasks);
  free(sn.pid);
  free(sn.tid);
  int err = ferror(f) ? EIO : 0;
  if (fclose(f) != 0 && err == 0)
    err = errno;
  return err;
}
