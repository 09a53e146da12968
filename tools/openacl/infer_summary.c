/*
 * infer_summary.c - what `openacl infer` reports: model load time, the
 * first inference on its own (it pays for plan building and first-touch
 * memory), and the steady state after the warm-up runs, end-to-end (input
 * copies + execute + output copies) and compute-only (aclmdlExecute).
 */
#include <errno.h>
#include <string.h>

#include "infer_job.h"

static void row(const char *what, const stats_summary *s) {
  printf("  %-11s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %12.1f\n", what, s->min, s->mean, s->p50, s->p90, s->p99, s->max,
         s->items_per_s);
}

void infer_summary_print(const infer_job *j, const infer_times *t) {
  printf("model            %s (loaded in %.3f ms)\n", j->o->model, j->m->load_ms);
  if (j->o->precision_mode != NULL)
    printf("precision mode   %s\n", j->o->precision_mode);
  printf("first inference  %.3f ms end-to-end, %.3f ms compute\n", t->first_e2e, t->first_compute);
  if (t->e2e.count == 0) {
    printf("steady state     no runs after the first and the warm-up (use --loop N for latency statistics)\n");
    return;
  }
  printf("steady state     %zu runs after %ld warm-up, %g item%s per run\n", t->e2e.count, j->o->warmup, t->batch,
         t->batch == 1 ? "" : "s");
  printf("  %-11s %9s %9s %9s %9s %9s %9s %12s\n", "(ms)", "min", "mean", "p50", "p90", "p99", "max", "items/s");
  row("end-to-end", &t->e2e);
  row("compute", &t->compute);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s != '\0'; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void json_stats(FILE *f, const char *name, const stats_summary *s, int last) {
  if (s->count == 0)
    fprintf(f, "    \"%s\": null%s\n", name, last ? "" : ",");
  else
    fprintf(f,
            "    \"%s\": {\"min_ms\": %.6f, \"mean_ms\": %.6f, \"p50_ms\": %.6f, \"p90_ms\": %.6f, \"p99_ms\": %.6f, "
            "\"max_ms\": %.6f, \"items_per_s\": %.3f}%s\n",
            name, s->min, s->mean, s->p50, s->p90, s->p99, s->max, s->items_per_s, last ? "" : ",");
}

int infer_summary_json(const infer_job *j, const infer_times *t) {
  if (j->o->summary_json == NULL)
    return 0;
  FILE *f = fopen(j->o->summary_json, "w");
  if (f == NULL) {
    tool_error("cannot write --summary-json file '%s': %s", j->o->summary_json, strerror(errno));
    return TOOL_FAIL;
  }
  fprintf(f, "{\n  \"model\": ");
  json_str(f, j->o->model);
  fprintf(f, ",\n  \"device\": %d,\n  \"inputs\": [", (int)j->o->device);
  for (size_t i = 0; i < j->m->n_in; i++) {
    fprintf(f, "%s", i ? ", " : "");
    json_str(f, j->m->in[i].name);
  }
  fprintf(f, "],\n  \"outputs\": [");
  for (size_t i = 0; i < j->m->n_out; i++) {
    fprintf(f, "%s", i ? ", " : "");
    json_str(f, j->m->out[i].name);
  }
  fprintf(f, "],\n  \"executions\": %zu,\n  \"distinct_inputs\": %zu,\n  \"loop\": %ld,\n  \"warmup\": %ld,\n",
          t->executions, j->n_exec, j->o->loop, j->o->warmup);
  fprintf(f, "  \"items_per_execution\": %g,\n  \"load_ms\": %.6f,\n", t->batch, j->m->load_ms);
  fprintf(f, "  \"precision_mode\": ");
  json_str(f, j->o->precision_mode != NULL ? j->o->precision_mode : "must_keep_origin_dtype");
  fprintf(f, ",\n");
  fprintf(f, "  \"first_inference\": {\"end_to_end_ms\": %.6f, \"compute_ms\": %.6f},\n", t->first_e2e,
          t->first_compute);
  fprintf(f, "  \"steady_state\": {\n    \"runs\": %zu,\n", t->e2e.count);
  json_stats(f, "end_to_end", &t->e2e, 0);
  json_stats(f, "compute", &t->compute, 1);
  fprintf(f, "  }\n}\n");
  if (fclose(f) != 0) {
    tool_error("cannot write --summary-json file '%s': %s", j->o->summary_json, strerror(errno));
    return TOOL_FAIL;
  }
  return 0;
}
