/*
 * write_csv.c - the summary tables of a profile, in
 * PROF_.../mindstudio_profiler_output/ with the vendor's file names and
 * column headers (prof-dump.md §3.5): op_summary, op_statistic,
 * api_statistic, task_time, msprof_tx, memory_record, and a README.txt.
 * Times are microseconds of Unix time with 3 decimals; cells with no value
 * are N/A.
 */
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof/prof_internal.h"

const char *acl__prof_fmt_us(char *buf, const acl__prof_session *s, uint64_t mono_ns) {
  /* integer arithmetic: Unix µs need more digits than a double carries */
  uint64_t ns = s->real0 + (mono_ns - s->mono0);
  snprintf(buf, 32, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
  return buf;
}

static FILE *open_table(const char *dir, const char *name, const char *stamp, const char *header, int *err) {
  char path[4300];
  snprintf(path, sizeof(path), "%s/%s_%s.csv", dir, name, stamp);
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    *err = errno;
    return NULL;
  }
  fprintf(f, "%s\n", header);
  return f;
}

static int close_table(FILE *f, int *err) {
  if (f == NULL)
    return -1;
  if (ferror(f) || fclose(f) != 0) {
    if (*err == 0)
      *err = errno ? errno : EIO;
    return -1;
  }
  return 0;
}

/* ---- statistics by name ------------------------------------------------ */

typedef struct stat_row {
  const char *level;
  const char *name;
  size_t count;
  double total, min, max, sumsq;
} stat_row;

typedef struct stats {
  stat_row *rows;
  size_t n, cap;
} stats;

static void stat_add(stats *st, const char *level, const char *name, double us) {
  stat_row *r = NULL;
  for (size_t i = 0; i < st->n; i++)
    if (strcmp(st->rows[i].name, name) == 0 && strcmp(st->rows[i].level, level) == 0) {
      r = &st->rows[i];
      break;
    }
  if (r == NULL) {
    if (st->n == st->cap) {
      size_t nc = st->cap ? st->cap * 2 : 32;
      stat_row *bigger = realloc(st->rows, nc * sizeof(*bigger));
      if (bigger == NULL)
        return;
      st->rows = bigger;
      st->cap = nc;
    }
    r = &st->rows[st->n++];
    *r = (stat_row){level, name, 0, 0, DBL_MAX, 0, 0};
  }
  r->count++;
  r->total += us;
  r->sumsq += us * us;
  if (us < r->min)
    r->min = us;
  if (us > r->max)
    r->max = us;
}

static int by_total(const void *a, const void *b) {
  const stat_row *x = a, *y = b;
  return x->total < y->total ? 1 : x->total > y->total ? -1 : 0;
}

/* ---- the tables ---------------------------------------------------------- */

static void write_op_summary(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *dir,
                             int *err) {
  FILE *f = open_table(dir, "op_summary", s->stamp,
                       "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
                       "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
                       "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
                       "Output Data Types,Output Formats,Context ID,Implementation",
                       err);
  if (f == NULL)
    return;
  uint64_t prev_end = 0;
  int32_t prev_stream = -2;
  for (size_t i = 0; i < n; i++) {
    if (r[i].kind != PREC_OP)
      continue;
    const acl__prof_opinfo *o = r[i].ptr;
    double wait = prev_stream == r[i].stream && prev_end != 0 && r[i].t0 > prev_end
                      ? (double)(r[i].t0 - prev_end) / 1000.0 : 0.0;
    fprintf(f, "%d,%u,%llu,%d,", r[i].device < 0 ? 0 : r[i].device, r[i].model == UINT32_MAX ? 0 : r[i].model,
            (unsigned long long)r[i].seq, r[i].stream);
    acl__prof_csv_cell(f, o->name);
    fputc(',', f);
    acl__prof_csv_cell(f, o->type);
    char b0[32];
    fprintf(f, ",static,AI_CORE,%s,%.3f,%.3f,1,0,NO,", acl__prof_fmt_us(b0, s, r[i].t0),
            (double)(r[i].t1 - r[i].t0) / 1000.0, wait);
    acl__prof_csv_cell(f, o->in_shapes);
    fputc(',', f);
    acl__prof_csv_cell(f, o->in_types);
    fputc(',', f);
    acl__prof_csv_cell(f, o->in_formats);
    fputc(',', f);
    acl__prof_csv_cell(f, o->out_shapes);
    fputc(',', f);
    acl__prof_csv_cell(f, o->out_types);
    fputc(',', f);
    acl__prof_csv_cell(f, o->out_formats);
    fputs(",N/A,", f);
    acl__prof_csv_cell(f, o->impl);
    fputc('\n', f);
    prev_end = r[i].t1;
    prev_stream = r[i].stream;
  }
  close_table(f, err);
}

static void write_op_statistic(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *dir,
                               int *err) {
  stats st = {0};
  double all = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i].kind == PREC_OP) {
      double us = (double)(r[i].t1 - r[i].t0) / 1000.0;
      stat_add(&st, "AI_CORE", ((const acl__prof_opinfo *)r[i].ptr)->type, us);
      all += us;
    }
  if (st.n > 1)
    qsort(st.rows, st.n, sizeof(*st.rows), by_total);
  FILE *f = open_table(dir, "op_statistic", s->stamp,
                       "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),"
                       "Ratio(%)",
                       err);
  for (size_t i = 0; f != NULL && i < st.n; i++) {
    const stat_row *x = &st.rows[i];
    fputs("0,", f);
    acl__prof_csv_cell(f, x->name);
    fprintf(f, ",AI_CORE,%zu,%.3f,%.3f,%.3f,%.3f,%.3f\n", x->count, x->total, x->min, x->total / (double)x->count,
            x->max, all > 0 ? 100.0 * x->total / all : 0.0);
  }
  close_table(f, err);
  free(st.rows);
}

static void write_api_statistic(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *dir,
                                int *err) {
  stats st = {0};
  for (size_t i = 0; i < n; i++) {
    double us = (double)(r[i].t1 - r[i].t0) / 1000.0;
    if (r[i].kind == PREC_API)
      stat_add(&st, "AscendCL", r[i].ptr, us);
    else if (r[i].kind == PREC_SUBMIT && (s->bits & ACL_PROF_RUNTIME_API))
      stat_add(&st, "Runtime", acl__prof_rt_name(r[i].sub), us);
  }
  if (st.n > 1)
    qsort(st.rows, st.n, sizeof(*st.rows), by_total);
  FILE *f = open_table(dir, "api_statistic", s->stamp,
                       "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance", err);
  for (size_t i = 0; f != NULL && i < st.n; i++) {
    const stat_row *x = &st.rows[i];
    double avg = x->total / (double)x->count;
    double var = x->sumsq / (double)x->count - avg * avg;
    fprintf(f, "host,%s,", x->level);
    acl__prof_csv_cell(f, x->name);
    fprintf(f, ",%.3f,%zu,%.3f,%.3f,%.3f,%.3f\n", x->total, x->count, avg, x->min, x->max, var > 0 ? var : 0.0);
  }
  close_table(f, err);
  free(st.rows);
}

static void write_task_time(const acl__prof_session *s, const acl__prof_rec *t, size_t n, const char *dir,
                            int *err) {
  FILE *f = open_table(dir, "task_time", s->stamp,
                       "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
                       "task_stop(us)",
                       err);
  for (size_t i = 0; f != NULL && i < n; i++) {
    fprintf(f, "%d,", t[i].device);
    acl__prof_csv_cell(f, t[i].text[0] ? t[i].text : "N/A");
    char b0[32], b1[32];
    fprintf(f, ",%s,%d,%llu,%.3f,%s,%s\n", acl__prof_task_type(t[i].sub), t[i].stream,
            (unsigned long long)t[i].seq, (double)(t[i].t1 - t[i].t0) / 1000.0, acl__prof_fmt_us(b0, s, t[i].t0),
            acl__prof_fmt_us(b1, s, t[i].t1));
  }
  close_table(f, err);
}

static void write_tx(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *dir, int *err) {
  static const char *const types[] = {"marker", "push/pop", "start/end", "marker_ex"};
  FILE *f = open_table(dir, "msprof_tx", s->stamp,
                       "Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),"
                       "End_time(us),message_type,message,domain,Device Start_time(us),Device End_time(us)",
                       err);
  for (size_t i = 0; f != NULL && i < n; i++) {
    if (r[i].kind != PREC_TX)
      continue;
    char b0[32], b1[32];
    fprintf(f, "host,%d,%u,N/A,%s,N/A,N/A,%s,%s,string,", s->pid, r[i].tid, types[r[i].sub & 3],
            acl__prof_fmt_us(b0, s, r[i].t0), acl__prof_fmt_us(b1, s, r[i].t1));
    acl__prof_csv_cell(f, r[i].ptr);
    fputc(',', f);
    acl__prof_csv_cell(f, r[i].domain != NULL ? r[i].domain : "default");
    fputs(",N/A,N/A\n", f);
  }
  close_table(f, err);
}

static void write_memory(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *dir, int *err) {
  FILE *f = open_table(dir, "memory_record", s->stamp,
                       "Device_id,Component,Timestamp(us),Total Allocated(KB),Total Reserved(KB)", err);
  for (size_t i = 0; f != NULL && i < n; i++)
    if (r[i].kind == PREC_MEM) {
      char b0[32];
      fprintf(f, "%d,APP,%s,%.3f,%.3f\n", r[i].device, acl__prof_fmt_us(b0, s, r[i].t0), (double)r[i].seq / 1024.0,
              (double)r[i].seq / 1024.0);
    }
  close_table(f, err);
}

static void write_readme(const char *dir, int *err) {
  char path[4300];
  snprintf(path, sizeof(path), "%s/README.txt", dir);
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    *err = errno;
    return;
  }
  fputs("Profile written by openacl (a simulated NPU on the host CPU).\n"
        "msprof_*.json      timeline in the Chrome trace-event format: open it in https://ui.perfetto.dev or\n"
        "                   chrome://tracing (CANN = host threads, Ascend Hardware = streams).\n"
        "op_summary_*.csv   one row per model operator run (oneDNN implementation in the last column).\n"
        "op_statistic_*.csv operators by type: count and time.\n"
        "api_statistic_*.csv AscendCL and runtime calls: count and time.\n"
        "task_time_*.csv    every task on every stream.\n"
        "msprof_tx_*.csv    msproftx markers and ranges (with ACL_PROF_MSPROFTX).\n"
        "memory_record_*.csv device memory in use over time (with ACL_PROF_TASK_MEMORY).\n"
        "Summarise it in the terminal with: openacl prof <this PROF_ directory>\n",
        f);
  close_table(f, err);
}

int acl__prof_write_csv(const acl__prof_session *s, const acl__prof_rec *r, size_t n, const char *outdir) {
  int err = 0;
  size_t nt = 0;
  acl__prof_rec *tasks = acl__prof_tasks(r, n, &nt);
  if (s->bits & (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0)) {
    write_op_summary(s, r, n, outdir, &err);
    write_op_statistic(s, r, n, outdir, &err);
    write_task_time(s, tasks, nt, outdir, &err);
  }
  if (s->bits & (ACL_PROF_ACL_API | ACL_PROF_RUNTIME_API))
    write_api_statistic(s, r, n, outdir, &err);
  if (s->bits & ACL_PROF_MSPROFTX)
    write_tx(s, r, n, outdir, &err);
  if (s->bits & ACL_PROF_TASK_MEMORY)
    write_memory(s, r, n, outdir, &err);
  write_readme(outdir, &err);
  free(tasks);
  return err;
}
