/*
 * weights.c - constant weights in the layouts oneDNN's kernels prefer,
 * shared by every plan of a model, and the originals they stand for.
 *
 * Copies.  A convolution or matrix product reads its constant weights
 * reordered once into the layout its kernel prefers (packed matrix-product
 * weights run BERT's products 1.2-2.5x faster than plain ones).  Each copy
 * is kept here per (weight, source layout, layout), so that the plans of
 * other shapes (batch 1 and 8, gears) share it instead of making their own.
 *
 * Trimming.  Once a plan is built, a graph initializer that no step of any
 * plan reads in its own bytes (every reader has a copy) is freed: the model's
 * weights are then in memory once, not twice - for a transformer that is
 * most of its memory.  It is rebuilt exactly, by reordering a copy of the
 * same type back into its layout, before anything may read it again: the
 * next plan's build, and the reference executor (plans it runs, dumps), after
 * which the engine trims no more.  Only initializers whose bytes the graph
 * owns are trimmed (acl__engine_allow_weight_trim; not weights in the
 * caller's memory).
 *
 * Everything here runs under the engine's lock (engine.c: plan builds and
 * acl__engine_keep_weights).  Executions never read a trimmed weight: the
 * steps that read the originals are exactly what keeps them.
 */
#include "model/engine/engine_internal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "common/log.h"

struct eng_wcopy {
  eng_wcopy *next;
  int id;                     /* the weight: a graph tensor, or n_tensors + an index in extra */
  dnnl_memory_desc_t src_md;  /* how the source view read the weight's bytes */
  dnnl_memory_desc_t md;      /* the copy's layout */
  void *data;
};

int acl__eng_weight_id(const acl__engine *e, const void *data) {
  const acl__graph *g = e->g;
  if (data == NULL)
    return -1;
  for (size_t i = 0; i < g->n_tensors; i++)
    if (g->tensors[i].kind == ACL__TENSOR_INITIALIZER && g->tensors[i].data == data)
      return (int)i;
  for (int i = 0; i < e->n_extra; i++)
    if (e->extra[i].data == data)
      return (int)g->n_tensors + i;
  return -1;
}

const void *acl__eng_wcopy_find(const acl__engine *e, int id, const dnnl_memory_desc_t *src_md,
                                const dnnl_memory_desc_t *md) {
  for (const eng_wcopy *c = e->wcopies; c != NULL; c = c->next)
    if (c->id == id && dnnl_memory_desc_equal(&c->src_md, src_md) && dnnl_memory_desc_equal(&c->md, md))
      return c->data;
  return NULL;
}

int acl__eng_wcopy_add(acl__engine *e, int id, const dnnl_memory_desc_t *src_md, const dnnl_memory_desc_t *md,
                       void *data) {
  eng_wcopy *c = malloc(sizeof(*c));
  if (c == NULL)
    return -1;
  c->id = id;
  c->src_md = *src_md;
  c->md = *md;
  c->data = data;
  c->next = e->wcopies;
  e->wcopies = c;
  return 0;
}

void acl__eng_wcopies_free(acl__engine *e) {
  while (e->wcopies != NULL) {
    eng_wcopy *c = e->wcopies;
    e->wcopies = c->next;
    free(c->data);
    free(c);
  }
  free(e->trimmed);
  e->trimmed = NULL;
}

/* A copy from which weight `id` comes back exactly: the same element type,
 * its source view covering the weight's bytes from the start, densely, and a
 * blocked layout (oneDNN cannot reorder Winograd's transformed weights back). */
static const eng_wcopy *exact_copy(const acl__engine *e, int id) {
  const acl__graph_tensor *t = &e->g->tensors[id];
  dnnl_data_type_t dt = acl__eng_dnnl_type(t->onnx_type);
  for (const eng_wcopy *c = e->wcopies; c != NULL; c = c->next)
    if (c->id == id && c->src_md.data_type == dt && c->md.data_type == dt && c->md.format_kind == dnnl_blocked &&
        c->src_md.format_kind == dnnl_blocked && c->src_md.offset0 == 0 &&
        dnnl_memory_desc_get_size(&c->src_md) == t->data_size)
      return c;
  return NULL;
}

/* Whether value v of plan p (through its views) is constant data in [lo, hi). */
static int val_in(const eng_plan *p, int v, const char *lo, const char *hi) {
  while (v >= 0 && p->vals[v].kind == ENG_VIEW)
    v = p->vals[v].base;
  const eng_val *x = v >= 0 ? &p->vals[v] : NULL;
  return x != NULL && x->kind == ENG_CONST && (const char *)x->konst.data >= lo && (const char *)x->konst.data < hi;
}

/* Whether a step of plan p (or its outputs) reads bytes in [lo, hi). */
static int plan_reads(const eng_plan *p, const char *lo, const char *hi) {
  for (int si = 0; si < p->n_steps; si++) {
    const eng_step *s = &p->steps[si];
    int n = s->kind == STEP_REF ? s->n_ins : s->n_args;
    for (int k = 0; k < n; k++)
      if (val_in(p, s->kind == STEP_REF ? s->ins[k] : s->args[k].val, lo, hi))
        return 1;
  }
  for (int k = 0; k < p->n_outputs; k++)
    if (val_in(p, p->outputs[k], lo, hi))
      return 1;
  return 0;
}

/* Whether initializer id may be freed now that it has an exact copy. */
static int trimmable(acl__engine *e, int id) {
  const acl__graph *g = e->g;
  if (!e->trim_ok || id < 0 || id >= (int)g->n_tensors)
    return 0;
  if (e->trimmed == NULL && (e->trimmed = calloc(g->n_tensors ? g->n_tensors : 1, 1)) == NULL)
    return 0; /* no memory to remember what was trimmed: keep everything */
  const acl__graph_tensor *t = &g->tensors[id];
  return !e->trimmed[id] && t->data != NULL && t->data_size > 0 && exact_copy(e, id) != NULL;
}

/* Gives freed pages back to the system once `at_least` bytes were freed
 * since the last time.  The originals came from the loading thread's malloc
 * arena and the copies from the engine's: without this, glibc keeps freed
 * pages in the middle of a heap resident, and a model's peak memory is its
 * weights twice.  Not after every weight: each call walks the heaps. */
static void give_back(acl__engine *e, size_t at_least) {
  if (e->trim_pending < at_least || e->trim_pending == 0)
    return;
  e->trim_pending = 0;
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

static void trim(acl__engine *e, int id) {
  acl__graph_tensor *t = (acl__graph_tensor *)&e->g->tensors[id]; /* the model's own bytes (see above) */
  free(t->data);
  t->data = NULL;
  e->trimmed[id] = 1;
  e->trim_pending += t->data_size;
  give_back(e, (size_t)32 << 20);
}

void acl__eng_weight_copied(acl__engine *e, int id) {
  /* read by one node input, the one whose step now reads the copy (its
   * builder has nothing left to fail on but memory): free it at once, so a
   * build holds the originals and the copies of a few weights, not all */
  if (trimmable(e, id) && e->consumers[id] == 1 && !e->g->tensors[id].is_graph_output)
    trim(e, id);
}

void acl__eng_weights_trim(acl__engine *e) {
  const acl__graph *g = e->g;
  size_t freed = 0, n = 0;
  for (const eng_wcopy *c = e->wcopies; c != NULL; c = c->next) {
    if (!trimmable(e, c->id))
      continue;
    const char *lo = g->tensors[c->id].data, *hi = lo + g->tensors[c->id].data_size;
    int read = 0;
    for (const eng_plan *p = e->plans; p != NULL && !read; p = p->next)
      read = plan_reads(p, lo, hi);
    if (read)
      continue;
    freed += g->tensors[c->id].data_size;
    n++;
    trim(e, c->id);
  }
  give_back(e, 0);
  if (n > 0)
    ACL__LOGI(ACL__MOD_GE, "model weights: %zu more initializers (%zu bytes) kept only in their kernels' layouts", n,
              freed);
}

int acl__eng_weights_restore(acl__engine *e) {
  const acl__graph *g = e->g;
  if (e->trimmed == NULL)
    return 0;
  int rc = 0;
  dnnl_stream_t st = NULL;
  for (size_t id = 0; id < g->n_tensors && rc == 0; id++) {
    if (!e->trimmed[id])
      continue;
    acl__graph_tensor *t = (acl__graph_tensor *)&g->tensors[id];
    const eng_wcopy *c = exact_copy(e, (int)id);
    void *buf = malloc(t->data_size);
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t pr = NULL;
    dnnl_memory_t from = NULL, to = NULL;
    rc = buf == NULL || (st == NULL && dnnl_stream_create(&st, e->dnnl, dnnl_stream_default_flags) != dnnl_success);
    if (rc == 0)
      rc = dnnl_reorder_primitive_desc_create(&pd, &c->md, e->dnnl, &c->src_md, e->dnnl, NULL) != dnnl_success ||
           dnnl_primitive_create(&pr, pd) != dnnl_success ||
           dnnl_memory_create(&from, &c->md, e->dnnl, c->data) != dnnl_success ||
           dnnl_memory_create(&to, &c->src_md, e->dnnl, buf) != dnnl_success;
    if (rc == 0) {
      dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
      rc = dnnl_primitive_execute(pr, st, 2, args) != dnnl_success || dnnl_stream_wait(st) != dnnl_success;
    }
    if (to)
      dnnl_memory_destroy(to);
    if (from)
      dnnl_memory_destroy(from);
    if (pr)
      dnnl_primitive_destroy(pr);
    if (pd)
      dnnl_primitive_desc_destroy(pd);
    if (rc == 0) {
      t->data = buf;
      e->trimmed[id] = 0;
    } else {
      free(buf);
    }
  }
  if (st)
    dnnl_stream_destroy(st);
  return rc == 0 ? 0 : ACL_ERROR_BAD_ALLOC;
}
