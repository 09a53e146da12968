/*
 * profile.c - per-step timing of the engine, for finding where a model's
 * time goes (OPENACL_MODEL_PROFILE=1).  Each plan adds up the wall time of
 * every step over its executions; when the plan is freed (model unloaded,
 * or pushed out of the plan cache) a table of the heaviest steps and the
 * time per kind of step goes to stderr.  Off by default: the only cost then
 * is one branch per step.
 *
 * It also feeds the aclprof profiler (src/prof/): with profiling on, each
 * step becomes an operator record (name, type, shapes, types, the oneDNN
 * implementation) through acl__eng_prof_step.  What a step is does not
 * change between runs of a plan, so it is described once per (plan, step)
 * and kept in a small table until the plan is freed.
 */
#include "model/engine/engine_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/graph.h"
#include "prof/prof.h"

static pthread_once_t prof_once = PTHREAD_ONCE_INIT;
static int prof_on;
static int prof_steps = 25; /* how many of the heaviest steps the table lists: every one with "all" */

static void prof_read(void) {
  const char *v = getenv("OPENACL_MODEL_PROFILE");
  prof_on = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
  if (prof_on && strcmp(v, "all") == 0)
    prof_steps = 1 << 30;
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
  if (s->kind == STEP_KERNEL)
    return s->impl;
  if (s->kind != STEP_PRIM || dnnl_primitive_get_primitive_desc(s->prim, &pd) != dnnl_success ||
      dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || impl == NULL)
    return "reference kernel";
  return impl;
}

static const char *kind_of(const eng_step *s) {
  return s->what != NULL ? s->what : "?";
}

/* ---- operator records for the profiler ----------------------------------- */

/* (plan, step) -> description, open addressing; info_lock guards it. */
typedef struct info_slot {
  const eng_plan *p;
  int si;
  const acl__prof_opinfo *info;
} info_slot;

static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;
static info_slot *info_tab; /* info_lock */
static size_t info_cap, info_n;

static size_t info_hash(const eng_plan *p, int si, size_t cap) {
  uint64_t h = ((uint64_t)(uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull ^ (uint64_t)si * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h >> 17) & (cap - 1);
}

static int info_put_locked(const eng_plan *p, int si, const acl__prof_opinfo *info) {
  if ((info_n + 1) * 2 > info_cap) {
    size_t nc = info_cap ? info_cap * 2 : 256;
    info_slot *t = calloc(nc, sizeof(*t));
    if (t == NULL)
      return -1;
    for (size_t i = 0; i < info_cap; i++)
      if (info_tab[i].p != NULL) {
        size_t h = info_hash(info_tab[i].p, info_tab[i].si, nc);
        while (t[h].p != NULL)
          h = (h + 1) & (nc - 1);
        t[h] = info_tab[i];
      }
    free(info_tab);
    info_tab = t;
    info_cap = nc;
  }
  size_t h = info_hash(p, si, info_cap);
  while (info_tab[h].p != NULL)
    h = (h + 1) & (info_cap - 1);
  info_tab[h] = (info_slot){p, si, info};
  info_n++;
  return 0;
}

/* The plan is going: forget its steps (rebuilding the table without them). */
static void info_forget(const eng_plan *p) {
  pthread_mutex_lock(&info_lock);
  size_t cap = info_cap;
  info_slot *old = info_tab;
  int found = 0;
  for (size_t i = 0; i < cap && !found; i++)
    found = old[i].p == p;
  if (found) {
    info_tab = NULL;
    info_cap = info_n = 0;
    for (size_t i = 0; i < cap; i++)
      if (old[i].p != NULL && old[i].p != p)
        info_put_locked(old[i].p, old[i].si, old[i].info);
    free(old);
  }
  pthread_mutex_unlock(&info_lock);
}

static void dtype_name(char *out, size_t size, int onnx_type) {
  const char *n = acl__graph_onnx_type_name(onnx_type);
  size_t k = (size_t)snprintf(out, size, "DT_");
  for (const char *c = n; *c && k + 1 < size; c++)
    out[k++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
  out[k < size ? k : size - 1] = '\0';
}

/* Appends value v's shape, type and format to the three lists. */
static void describe_val(const eng_plan *p, int v, char *shapes, char *types, char *formats, size_t size) {
  if (v < 0 || v >= p->n_vals)
    return;
  const eng_val *x = &p->vals[v];
  size_t n = strlen(shapes);
  if (n > 0 && n + 1 < size)
    shapes[n++] = ';';
  for (int d = 0; d < x->rank && n + 24 < size; d++)
    n += (size_t)snprintf(shapes + n, size - n, d ? ",%lld" : "%lld", (long long)x->dims[d]);
  shapes[n < size ? n : size - 1] = '\0';
  char t[32];
  dtype_name(t, sizeof(t), x->onnx_type);
  n = strlen(types);
  snprintf(types + n, size - n, "%s%s", n ? ";" : "", t);
  n = strlen(formats);
  snprintf(formats + n, size - n, "%s%s", n ? ";" : "", x->rank == 4 ? "NCHW" : "ND");
}

static const char *impl_of(const eng_step *s);

static const acl__prof_opinfo *describe(const acl__engine *e, const eng_plan *p, int si) {
  const eng_step *s = &p->steps[si];
  enum { L = 512 };
  char in_s[L] = "", in_t[L] = "", in_f[L] = "", out_s[L] = "", out_t[L] = "", out_f[L] = "", name[160];
  if (s->kind == STEP_REF) {
    for (int k = 0; k < s->n_ins; k++)
      describe_val(p, s->ins[k], in_s, in_t, in_f, L);
    for (int k = 0; k < s->n_outs; k++)
      describe_val(p, s->outs[k], out_s, out_t, out_f, L);
  } else {
    for (int k = 0; k < s->n_args; k++) {
      int a = s->args[k].arg;
      if (a == DNNL_ARG_SCRATCHPAD || a == DNNL_ARG_WORKSPACE)
        continue;
      if (a == DNNL_ARG_DST)
        describe_val(p, s->args[k].val, out_s, out_t, out_f, L);
      else
        describe_val(p, s->args[k].val, in_s, in_t, in_f, L);
    }
  }
  const acl__graph_node *node = s->node >= 0 && (size_t)s->node < e->g->n_nodes ? &e->g->nodes[s->node] : NULL;
  const char *type = node != NULL ? node->op_type : (s->what != NULL ? s->what : "Reorder");
  if (node != NULL && node->name[0] != '\0')
    snprintf(name, sizeof(name), "%s", node->name);
  else
    snprintf(name, sizeof(name), "%s_%d", type, node != NULL ? s->node : si);
  return acl__prof_opinfo_intern(name, type, impl_of(s), in_s, in_t,
                                 out_s, out_t, in_f, out_f);
}

void acl__eng_prof_step(const acl__engine *e, const eng_plan *p, eng_inst *in, int si, uint64_t t0) {
  if (p->steps[si].kind == STEP_PRIM)
    dnnl_stream_wait(in->stream); /* the step's time, not its submission's */
  uint64_t t1 = acl__prof_now();
  const acl__prof_opinfo *info = NULL;
  pthread_mutex_lock(&info_lock);
  if (info_cap > 0)
    for (size_t h = info_hash(p, si, info_cap); info_tab[h].p != NULL; h = (h + 1) & (info_cap - 1))
      if (info_tab[h].p == p && info_tab[h].si == si) {
        info = info_tab[h].info;
        break;
      }
  pthread_mutex_unlock(&info_lock);
  if (info == NULL) {
    info = describe(e, p, si);
    pthread_mutex_lock(&info_lock);
    if (info != NULL)
      info_put_locked(p, si, info);
    pthread_mutex_unlock(&info_lock);
  }
  acl__prof_op(info, t0, t1);
}

void acl__eng_profile_report(const acl__engine *e, const eng_plan *p) {
  info_forget(p);
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
    static const char *const runs_on[] = {[STEP_PRIM] = "dnnl", [STEP_REF] = "ref ", [STEP_KERNEL] = "own "};
    fprintf(stderr, "    %-26s %s %9.3f %5.1f%% %4d\n", kind_of(&p->steps[i]), runs_on[p->steps[i].kind], t / runs, total > 0 ? 100 * t / total : 0, cnt);
  }
  free(done);
  /* the fastest run of a step says what it costs on a machine that is busy with other work too */
  fprintf(stderr, "  heaviest steps (ms per run: mean, fastest):\n");
  for (int i = 0; i < n && i < prof_steps; i++) {
    const eng_step *s = &p->steps[order[i]];
    const char *name = s->node >= 0 ? e->g->nodes[s->node].name : "";
    fprintf(stderr, "    %4d %-20s %-28s %9.3f %9.3f  %s\n", order[i], kind_of(s), impl_of(s),
            p->prof_ms[order[i]] / runs, p->prof_ms[n + 1 + order[i]], name);
  }
  free(order);
}
