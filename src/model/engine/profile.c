/*
 * profile.c - per-step timing of the engine, for finding where a model's
 * time goes (OPENACL_MODEL_PROFILE=1).  Each plan adds up the wall time of
 * every step over its executions; when the plan is freed (model unloaded,
 * or pushed out of the plan cache) a table of the heaviest steps and the
 * time per kind of step goes to stderr.  Off by default: the only cost then
 * is one branch per step.
 */
#include "model/engine/engine_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t prof_once = PTHREAD_ONCE_INIT;
static int prof_on;

static void prof_read(void) {
  const char *v = getenv("OPENACL_MODEL_PROFILE");
  prof_on = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

int acl__eng_profiling(void) {
  pthread_once(&prof_once, prof_read);
  return prof_on;
}

double acl__eng_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The oneDNN implementation a primitive step uses ("ref" ones are slow). */
static const char *impl_of(const eng_step *s) {
  const_dnnl_primitive_desc_t pd = NULL;
  const char *impl = NULL;
  if (s->kind != STEP_PRIM || dnnl_primitive_get_primitive_desc(s->prim, &pd) != dnnl_success ||
      dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || impl == NULL)
    return "reference kernel";
  return impl;
}

static const char *kind_of(const eng_step *s) {
  return s->what != NULL ? s->what : "?";
}

void acl__eng_profile_report(const acl__engine *e, const eng_plan *p) {
  if (p->prof_ms == NULL || p->prof_runs < 2)
    return;
  int n = p->n_steps;
  int *order = malloc((n > 0 ? (size_t)n : 1) * sizeof(int));
  if (order == NULL)
    return;
  double total = 0;
  for (int i = 0; i < n; i++) {
    order[i] = i;
    total += p->prof_ms[i];
  }
  for (int i = 1; i < n; i++) /* by time, descending */
    for (int j = i; j > 0 && p->prof_ms[order[j]] > p->prof_ms[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  double runs = (double)(p->prof_runs - 1);
  fprintf(stderr, "openacl engine profile: %d steps, %zu runs (the first not counted), %.3f ms per run; input 0 dims",
          n, p->prof_runs, total / runs);
  for (size_t k = 1; p->key != NULL && k < p->key_len && k < 8; k++)
    fprintf(stderr, " %lld", (long long)p->key[k]);
  fprintf(stderr, "\n  per kind of step (ms per run, steps):\n");
  /* per kind: sum over steps with the same `what` and the same node op */
  char *done = calloc(n > 0 ? (size_t)n : 1, 1);
  for (int i = 0; done != NULL && i < n; i++) {
    if (done[i])
      continue;
    double t = 0;
    int cnt = 0;
    for (int j = i; j < n; j++)
      if (!done[j] && strcmp(kind_of(&p->steps[j]), kind_of(&p->steps[i])) == 0 &&
          p->steps[j].kind == p->steps[i].kind) {
        done[j] = 1;
        t += p->prof_ms[j];
        cnt++;
      }
    fprintf(stderr, "    %-24s %s %9.3f %5.1f%% %4d\n", kind_of(&p->steps[i]),
            p->steps[i].kind == STEP_REF ? "ref " : "dnnl", t / runs, total > 0 ? 100 * t / total : 0, cnt);
  }
  free(done);
  fprintf(stderr, "  heaviest steps (ms per run):\n");
  for (int i = 0; i < n && i < 25; i++) {
    const eng_step *s = &p->steps[order[i]];
    const char *name = s->node >= 0 ? e->g->nodes[s->node].name : "";
    fprintf(stderr, "    %4d %-20s %-28s %9.3f  %s\n", order[i], kind_of(s), impl_of(s), p->prof_ms[order[i]] / runs,
            name);
  }
  free(order);
}
