/*
 * engine.c - the engine's lifetime, its shape-independent rewrites, the
 * plan cache and the execution loop.  See engine.h for the design.
 *
 * Locks: e->lock guards the plan list (held while a plan is built, so two
 * first executions with the same shapes build it once); each plan's lock
 * guards its free list of instances.  Order: e->lock before plan->lock.
 */
#include "model/engine/engine_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "prof/prof.h"

/* Plans kept per model: one per set of input shapes; the oldest unused one
 * goes when a new one would pass this. */
#define ENG_MAX_PLANS 8

/* ---- selection ----------------------------------------------------------- */

static pthread_once_t select_once = PTHREAD_ONCE_INIT;
static int engine_on = 1;

static void select_read(void) {
  const char *v = getenv("OPENACL_MODEL_ENGINE");
  if (v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0)
    engine_on = 1;
  else if (strcmp(v, "reference") == 0)
    engine_on = 0;
  else
    ACL__LOGW(ACL__MOD_GE, "OPENACL_MODEL_ENGINE=\"%s\" is not one of auto, reference; using auto", v);
}

int acl__engine_enabled(void) {
  pthread_once(&select_once, select_read);
  return engine_on;
}

/* Engine executions running now, in the whole process. */
static int engine_running;

/* ---- the OpenMP home thread ------------------------------------------------
 *
 * libgomp gives every thread that opens a parallel region a pool of worker
 * threads of its own, and once it manages more threads than the machine has
 * CPUs its idle workers spin only ~100 iterations (instead of ~300,000)
 * before sleeping in the kernel.  An execution run by the synchronising
 * thread one time (acl__stream_help) and by an executor another time left two
 * pools: three managed threads on a 2-core machine, so every one of oneDNN's
 * hundreds of parallel regions per execution paid a futex wake-up of the
 * worker.  Which thread ran the first executions was a race, so a process
 * ran ShuffleNetV2 x0.5 in either 1.5 ms or 12 ms, for its whole life.
 *
 * So the executions run on one thread of the process, this one, made on
 * first use: one OpenMP pool, one master, the team exactly the budget; the
 * thread that hands the work over (an executor, or the caller helping in
 * aclmdlExecute) sleeps on a condition variable meanwhile instead of taking
 * a core from the team.  Executions queued here run one after another, each
 * with the whole budget.  The cost is two wake-ups per execution. */

typedef struct home_job {
  struct home_job *next;
  int (*fn)(void *);
  void *arg;
  int rc;
  int done; /* guarded by home_lock */
} home_job;

static pthread_mutex_t home_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t home_work = PTHREAD_COND_INITIALIZER; /* a job was queued */
static pthread_cond_t home_done = PTHREAD_COND_INITIALIZER; /* a job finished */
static home_job *home_head, *home_tail;                     /* guarded by home_lock */
static int home_state; /* 0: not made yet, 1: running, -1: could not be made (run in place) */
static _Thread_local int on_home;
static pthread_once_t home_fork_once = PTHREAD_ONCE_INIT;

/* A fork child has no home thread (only the forking thread survives): it
 * makes a new one on first use.  The other threads of the parent cannot hold
 * home_lock in the child's copy, since the lock is held only briefly and the
 * prepare handler takes it around the fork. */
static void home_fork_prepare(void) { pthread_mutex_lock(&home_lock); }
static void home_fork_parent(void) { pthread_mutex_unlock(&home_lock); }
static void home_fork_child(void) {
  home_head = home_tail = NULL; /* queued jobs belong to threads the child does not have */
  home_state = 0;
  on_home = 0;
  /* the parent's waiters are not here: fresh condition variables, lest a
   * signal go to a waiter the child does not have */
  pthread_cond_init(&home_work, NULL);
  pthread_cond_init(&home_done, NULL);
  pthread_mutex_unlock(&home_lock);
}
static void home_fork_register(void) { pthread_atfork(home_fork_prepare, home_fork_parent, home_fork_child); }

static void *home_main(void *arg) {
  (void)arg;
  on_home = 1;
  acl__prof_api_depth = 1; /* the runtime's thread: its public calls are not the user's (prof.h) */
  pthread_mutex_lock(&home_lock);
  for (;;) {
    while (home_head == NULL)
      pthread_cond_wait(&home_work, &home_lock);
    home_job *j = home_head;
    home_head = j->next;
    if (home_head == NULL)
      home_tail = NULL;
    pthread_mutex_unlock(&home_lock);
    int rc = j->fn(j->arg);
    pthread_mutex_lock(&home_lock);
    j->rc = rc;
    j->done = 1;
    pthread_cond_broadcast(&home_done);
  }
  return NULL;
}

int acl__engine_on_home(void) { return on_home; }

int acl__engine_call_home(int (*fn)(void *), void *arg) {
  if (on_home)
    return fn(arg);
  pthread_once(&home_fork_once, home_fork_register);
  home_job j = {.fn = fn, .arg = arg};
  pthread_mutex_lock(&home_lock);
  if (home_state == 0) {
    pthread_attr_t at;
    pthread_t t;
    int ok = pthread_attr_init(&at) == 0;
    if (ok) {
      pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED); /* it lives as long as the process */
      ok = pthread_create(&t, &at, home_main, NULL) == 0;
      pthread_attr_destroy(&at);
    }
    home_state = ok ? 1 : -1;
    if (!ok)
      ACL__LOGW(ACL__MOD_GE, "cannot start the engine's thread; executions run on their callers' threads");
  }
  if (home_state < 0) {
    pthread_mutex_unlock(&home_lock);
    return fn(arg);
  }
  if (home_tail != NULL)
    home_tail->next = &j;
  else
    home_head = &j;
  home_tail = &j;
  pthread_cond_signal(&home_work);
  while (!j.done)
    pthread_cond_wait(&home_done, &home_lock);
  pthread_mutex_unlock(&home_lock);
  return j.rc;
}

/* ---- single operators ----------------------------------------------------- */

static dnnl_engine_t cpu_engine;
static pthread_once_t cpu_engine_once = PTHREAD_ONCE_INIT;

static void cpu_engine_make(void) {
  dnnl_status_t s = dnnl_engine_create(&cpu_engine, dnnl_cpu, 0);
  if (s != dnnl_success) {
    cpu_engine = NULL;
    ACL__LOGW(ACL__MOD_GE, "oneDNN could not create a CPU engine for single operators: %s", acl__eng_status(s));
  }
}

dnnl_engine_t acl__engine_dnnl_cpu(void) {
  pthread_once(&cpu_engine_once, cpu_engine_make);
  return cpu_engine;
}

/* Values the engine does not carry (its values are dense numeric tensors). */
static int needs_reference(const acl__graph *g) {
  for (size_t i = 0; i < g->n_tensors; i++)
    if (g->tensors[i].onnx_type == ACL__ONNX_STRING)
      return 1;
  for (size_t i = 0; i < g->n_nodes; i++) {
    const char *op = g->nodes[i].op_type;
    if (strstr(op, "Sequence") != NULL || strcmp(op, "StringNormalizer") == 0 || strcmp(op, "Optional") == 0 ||
        strcmp(op, "OptionalGetElement") == 0 || strcmp(op, "OptionalHasElement") == 0)
      return 1;
  }
  return 0;
}

/* ---- rewrites ------------------------------------------------------------ */

static const acl__graph_attr *node_attr(const acl__graph_node *n, const char *name) {
  for (size_t i = 0; i < n->n_attrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0)
      return &n->attrs[i];
  return NULL;
}

static int is_op(const acl__graph_node *n, const char *op) {
  return n->domain[0] == '\0' && strcmp(n->op_type, op) == 0;
}

/* A float32 initializer (not an input a caller could feed) of `count` elements, or NULL. */
static const float *const_f32(const acl__engine *e, int v, int64_t count) {
  if (v < 0)
    return NULL;
  const acl__graph_tensor *t = &e->g->tensors[v];
  if (t->kind != ACL__TENSOR_INITIALIZER || t->onnx_type != ACL__ONNX_FLOAT || t->data == NULL)
    return NULL;
  if (count >= 0 && (int64_t)(t->data_size / sizeof(float)) != count)
    return NULL;
  return (const float *)t->data;
}

/* The only node reading value v, if exactly one node reads it once and it is
 * no graph output; else -1. */
static int sole_consumer(const acl__engine *e, int v) {
  if (e->consumers[v] != 1)
    return -1;
  const acl__graph *g = e->g;
  for (size_t i = 0; i < g->n_nodes; i++) {
    if (e->dead[i])
      continue;
    for (size_t k = 0; k < g->nodes[i].n_inputs; k++)
      if (acl__eng_resolve(e, g->nodes[i].inputs[k]) == v)
        return (int)i;
  }
  return -1;
}

static int add_extra(acl__engine *e, int rank, const int64_t *dims) {
  acl__tensor *x = realloc(e->extra, (size_t)(e->n_extra + 1) * sizeof(*x));
  if (x == NULL)
    return -1;
  e->extra = x;
  memset(&x[e->n_extra], 0, sizeof(x[0]));
  if (acl__tensor_alloc(&x[e->n_extra], ACL__ONNX_FLOAT, rank, dims) != 0)
    return -1;
  return (int)e->g->n_tensors + e->n_extra++;
}

/* Conv followed by BatchNormalization (inference) with constant weights:
 * W' = W * s, b' = (b - mean) * s + beta with s = gamma / sqrt(var + eps),
 * per output channel.  The BN node is removed. */
static int fold_bn(acl__engine *e, int ci) {
  const acl__graph *g = e->g;
  const acl__graph_node *c = &g->nodes[ci];
  if (!is_op(c, "Conv") || c->n_inputs < 2 || c->n_outputs != 1)
    return 0;
  int y = c->outputs[0];
  int bi = sole_consumer(e, y);
  if (bi < 0)
    return 0;
  const acl__graph_node *bn = &g->nodes[bi];
  if (!is_op(bn, "BatchNormalization") || bn->n_inputs != 5 || acl__eng_resolve(e, bn->inputs[0]) != y)
    return 0;
  for (size_t k = 1; k < bn->n_outputs; k++)
    if (bn->outputs[k] >= 0)
      return 0;
  const acl__graph_attr *tm = node_attr(bn, "training_mode");
  if (tm != NULL && tm->i != 0)
    return 0;
  const acl__graph_tensor *wt = &g->tensors[c->inputs[1]];
  if (wt->rank < 3 || wt->dims[0].value <= 0)
    return 0;
  int64_t oc = wt->dims[0].value;
  int64_t wn = acl__graph_numel(wt);
  const float *w = const_f32(e, c->inputs[1], wn);
  const float *b = c->n_inputs > 2 && c->inputs[2] >= 0 ? const_f32(e, c->inputs[2], oc) : NULL;
  if (w == NULL || (c->n_inputs > 2 && c->inputs[2] >= 0 && b == NULL))
    return 0;
  const float *gam = const_f32(e, bn->inputs[1], oc), *bet = const_f32(e, bn->inputs[2], oc);
  const float *mean = const_f32(e, bn->inputs[3], oc), *var = const_f32(e, bn->inputs[4], oc);
  if (gam == NULL || bet == NULL || mean == NULL || var == NULL)
    return 0;
  const acl__graph_attr *ea = node_attr(bn, "epsilon");
  double eps = ea != NULL ? ea->f : 1e-5;
  int64_t wd[ACL__EXEC_MAX_RANK];
  for (int k = 0; k < wt->rank; k++)
    wd[k] = wt->dims[k].value;
  int nw = add_extra(e, wt->rank, wd);
  int nb = nw < 0 ? -1 : add_extra(e, 1, &oc);
  if (nb < 0)
    return -1;
  float *w2 = e->extra[nw - (int)g->n_tensors].data, *b2 = e->extra[nb - (int)g->n_tensors].data;
  int64_t per = wn / oc;
  for (int64_t o = 0; o < oc; o++) {
    double s = gam[o] / sqrt((double)var[o] + eps);
    for (int64_t i = 0; i < per; i++)
      w2[o * per + i] = (float)(w[o * per + i] * s);
    b2[o] = (float)(((b != NULL ? b[o] : 0.0) - mean[o]) * s + bet[o]);
  }
  e->conv_w[ci] = nw;
  e->conv_b[ci] = nb;
  e->dead[bi] = 1;
  e->alias[bn->outputs[0]] = y;
  e->folded++;
  return 0;
}

static int rewrite(acl__engine *e) {
  const acl__graph *g = e->g;
  /* Identity, and Dropout in inference (its mask output unused) */
  for (size_t i = 0; i < g->n_nodes; i++) {
    const acl__graph_node *n = &g->nodes[i];
    int drop = is_op(n, "Dropout") && n->n_inputs == 1 && (n->n_outputs < 2 || n->outputs[1] < 0);
    if ((is_op(n, "Identity") || drop) && n->n_inputs >= 1 && n->inputs[0] >= 0 && n->outputs[0] >= 0 &&
        !g->tensors[n->outputs[0]].is_graph_output) {
      e->dead[i] = 1;
      e->alias[n->outputs[0]] = n->inputs[0];
      e->folded++;
    }
  }
  for (size_t i = 0; i < g->n_nodes; i++)
    if (!e->dead[i])
      for (size_t k = 0; k < g->nodes[i].n_inputs; k++) {
        int v = acl__eng_resolve(e, g->nodes[i].inputs[k]);
        if (v >= 0)
          e->consumers[v]++;
      }
  for (size_t k = 0; k < g->n_outputs; k++)
    e->consumers[acl__eng_resolve(e, g->outputs[k])]++;
  for (size_t i = 0; i < g->n_nodes; i++)
    if (!e->dead[i] && fold_bn(e, (int)i) != 0)
      return -1;
  return 0;
}

/* Whether a lower precision applies: only on a CPU whose units multiply
 * bfloat16 faster than float32 (acl__precision_cpu_bf16); elsewhere
 * float32, said once. */
static int want_bf16(int precision) {
  if (precision != ACL__PREC_BF16)
    return 0;
  if (acl__precision_cpu_bf16())
    return 1;
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    ACL__LOGI(ACL__MOD_GE, "precision mode: this CPU has no bfloat16 units faster than its float32 ones (AMX, or "
                           "AVX512-BF16 outside Intel's CPUs); models run in float32");
  return 0;
}

int acl__engine_create(const acl__graph *g, int precision, acl__engine **out, acl__diags *diags) {
  *out = NULL;
  int rc = acl__exec_check_supported(g, diags); /* every node has a reference kernel */
  if (rc != 0)
    return rc;
  acl__engine *e = calloc(1, sizeof(*e));
  size_t nt = g->n_tensors ? g->n_tensors : 1, nn = g->n_nodes ? g->n_nodes : 1;
  if (e != NULL) {
    e->g = g;
    e->opset = acl__graph_opset_version(g, "");
    e->bf16 = want_bf16(precision);
    e->dead = calloc(nn, 1);
    e->alias = malloc(nt * sizeof(int));
    e->consumers = calloc(nt, sizeof(int));
    e->conv_w = malloc(nn * sizeof(int));
    e->conv_b = malloc(nn * sizeof(int));
    pthread_mutex_init(&e->lock, NULL);
  }
  if (e == NULL || e->dead == NULL || e->alias == NULL || e->consumers == NULL || e->conv_w == NULL ||
      e->conv_b == NULL)
    goto oom;
  for (size_t i = 0; i < nt; i++)
    e->alias[i] = -1;
  for (size_t i = 0; i < nn; i++)
    e->conv_w[i] = e->conv_b[i] = -1;
  dnnl_status_t s = dnnl_engine_create(&e->dnnl, dnnl_cpu, 0);
  if (s != dnnl_success) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "", "oneDNN could not create a CPU engine: %s",
                   acl__eng_status(s));
    acl__engine_destroy(e);
    return ACL_ERROR_BAD_ALLOC;
  }
  e->reference_only = needs_reference(g);
  if (!e->reference_only && rewrite(e) != 0)
    goto oom;
  *out = e;
  return 0;
oom:
  acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "", "out of memory preparing the model's engine");
  acl__engine_destroy(e);
  return ACL_ERROR_BAD_ALLOC;
}

void acl__engine_destroy(acl__engine *e) {
  if (e == NULL)
    return;
  while (e->plans != NULL) {
    eng_plan *p = e->plans;
    e->plans = p->next;
    acl__eng_profile_report(e, p);
    acl__eng_plan_free(p);
  }
  acl__eng_wcopies_free(e);
  for (int i = 0; i < e->n_extra; i++)
    acl__tensor_release(&e->extra[i]);
  free(e->extra);
  free(e->dead);
  free(e->alias);
  free(e->consumers);
  free(e->conv_w);
  free(e->conv_b);
  if (e->dnnl != NULL)
    dnnl_engine_destroy(e->dnnl);
  pthread_mutex_destroy(&e->lock);
  free(e);
}

void acl__engine_allow_weight_trim(acl__engine *e) {
  pthread_mutex_lock(&e->lock);
  e->trim_ok = 1;
  pthread_mutex_unlock(&e->lock);
}

int acl__engine_keep_weights(acl__engine *e, acl__diags *diags) {
  pthread_mutex_lock(&e->lock);
  e->trim_ok = 0;
  int rc = acl__eng_weights_restore(e);
  pthread_mutex_unlock(&e->lock);
  if (rc != 0)
    acl__diags_add(diags, ACL__DIAG_ERROR, rc, "", "out of memory bringing the model's weights back for the "
                   "reference executor");
  return rc;
}

void acl__engine_get_stats(acl__engine *e, acl__engine_stats *st) {
  pthread_mutex_lock(&e->lock);
  *st = e->last;
  st->plans = e->n_plans;
  pthread_mutex_unlock(&e->lock);
}

/* ---- the plan cache ------------------------------------------------------ */

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int64_t *make_key(const acl__tensor *in, size_t n, size_t *len) {
  size_t l = 0;
  for (size_t i = 0; i < n; i++)
    l += 2 + (size_t)(in[i].rank > 0 ? in[i].rank : 0);
  int64_t *k = malloc((l ? l : 1) * sizeof(*k));
  if (k == NULL)
    return NULL;
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    k[j++] = in[i].onnx_type;
    k[j++] = in[i].rank;
    for (int d = 0; d < in[i].rank; d++)
      k[j++] = in[i].dims[d];
  }
  *len = l;
  return k;
}

static void stats_of(acl__engine *e, const eng_plan *p) {
  acl__engine_stats *st = &e->last;
  memset(st, 0, sizeof(*st));
  st->steps = (size_t)p->n_steps;
  for (int i = 0; i < p->n_steps; i++) {
    if (p->steps[i].kind == STEP_PRIM)
      st->dnnl_steps++;
    else if (p->steps[i].kind == STEP_KERNEL && p->steps[i].kernel == acl__eng_relayout_run)
      st->relayout_steps++;
    else if (p->steps[i].kind == STEP_KERNEL)
      st->kernel_steps++;
    else
      st->ref_steps++;
  }
  st->fused = e->folded + p->fused;
  st->bf16_steps = p->bf16_steps;
  st->int8_steps = p->int8_steps;
  st->arena_bytes = p->arena_bytes;
  st->fallback = p->fallback;
}

/* The plan for these inputs, built if new.  NULL with a diag on failure. */
static eng_plan *get_plan(acl__engine *e, const acl__tensor *in, size_t n, int threads, int *rc,
                          acl__diags *diags) {
  size_t len = 0;
  int64_t *key = make_key(in, n, &len);
  if (key == NULL) {
    *rc = ACL_ERROR_BAD_ALLOC;
    acl__diags_add(diags, ACL__DIAG_ERROR, *rc, "", "out of memory");
    return NULL;
  }
  pthread_mutex_lock(&e->lock);
  eng_plan *p, **pp;
  for (pp = &e->plans; (p = *pp) != NULL; pp = &p->next)
    if (p->key_len == len && memcmp(p->key, key, len * sizeof(*key)) == 0)
      break;
  if (p != NULL) {
    /* most recently used first */
    *pp = p->next;
    p->next = e->plans;
    e->plans = p;
    free(key);
  } else {
    double t0 = now_ms();
    /* building runs oneDNN's parallel loops too (weights reordered, int8
     * compensation computed): the same budget, one thread under TSan */
    acl__engine_set_threads(threads > 0 ? threads : 1);
    /* the build reads the weights as the graph holds them; it trims them again after */
    *rc = acl__eng_weights_restore(e);
    if (*rc != 0)
      acl__diags_add(diags, ACL__DIAG_ERROR, *rc, "", "out of memory bringing the model's weights back");
    else
      *rc = acl__eng_plan_build(e, in, n, &p, diags);
    if (*rc != 0) {
      free(key);
      pthread_mutex_unlock(&e->lock);
      return NULL;
    }
    p->key = key;
    p->key_len = len;
    p->next = e->plans;
    e->plans = p;
    e->n_plans++;
    stats_of(e, p);
    e->last.build_ms = now_ms() - t0;
    ACL__LOGI(ACL__MOD_GE, "model plan built in %.1f ms: %d steps (%zu oneDNN, %zu in bfloat16, %zu in int8, "
              "%zu openacl kernels, %zu reference), %zu nodes fused, arena %zu bytes%s", e->last.build_ms, p->n_steps,
              e->last.dnnl_steps, e->last.bf16_steps, e->last.int8_steps, e->last.kernel_steps, e->last.ref_steps, e->last.fused, p->arena_bytes,
              p->fallback ? ", runs on the reference executor" : "");
    acl__eng_weights_trim(e);
    /* drop the least recently used plan nobody is running */
    if (e->n_plans > ENG_MAX_PLANS) {
      eng_plan **lp = NULL, *q, **qp;
      for (qp = &e->plans; (q = *qp) != NULL; qp = &q->next)
        if (q != p && q->refs == 0)
          lp = qp;
      if (lp != NULL) {
        q = *lp;
        *lp = q->next;
        e->n_plans--;
        acl__eng_profile_report(e, q);
        acl__eng_plan_free(q);
      }
    }
  }
  p->refs++;
  pthread_mutex_unlock(&e->lock);
  return p;
}

static void put_plan(acl__engine *e, eng_plan *p) {
  pthread_mutex_lock(&e->lock);
  p->refs--;
  pthread_mutex_unlock(&e->lock);
}

int acl__engine_prepare(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, int threads,
                        acl__diags *diags) {
  if (!acl__engine_enabled() || e->reference_only || n_inputs != e->g->n_inputs)
    return 0;
  int rc = 0;
  eng_plan *p = get_plan(e, inputs, n_inputs, threads, &rc, diags);
  if (p != NULL)
    put_plan(e, p);
  return rc;
}

/* ---- execution ----------------------------------------------------------- */

static int root_of(const eng_plan *p, int v) {
  while (p->vals[v].kind == ENG_VIEW)
    v = p->vals[v].base;
  return v;
}

static void *val_ptr(const eng_plan *p, const eng_inst *in, int v) {
  char *base = in->ptr[root_of(p, v)];
  return base != NULL ? base + acl__eng_view_off(p, v) : NULL;
}

static void view_tensor(const eng_plan *p, const eng_inst *in, int v, acl__tensor *t) {
  const eng_val *x = &p->vals[v];
  memset(t, 0, sizeof(*t));
  t->onnx_type = x->onnx_type;
  t->rank = x->rank;
  memcpy(t->dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
  t->size = (size_t)acl__op_numel(x->rank, x->dims) * acl__graph_onnx_elem_size(x->onnx_type);
  t->data = val_ptr(p, in, v);
}

static int run_ref(acl__engine *e, eng_plan *p, eng_inst *in, int si, acl__diags *diags) {
  const eng_step *s = &p->steps[si];
  const acl__graph_node *n = &e->g->nodes[s->node];
  acl__tensor views[16], *vt = views;
  const acl__tensor *ins_small[16], **ins = ins_small;
  acl__tensor outs_small[8], *outs = outs_small;
  int rc = 0;
  if (s->n_ins > 16) {
    vt = calloc((size_t)s->n_ins, sizeof(*vt));
    ins = calloc((size_t)s->n_ins, sizeof(*ins));
  }
  if (s->n_outs > 8)
    outs = calloc((size_t)s->n_outs, sizeof(*outs));
  if (vt == NULL || ins == NULL || outs == NULL) {
    rc = ACL_ERROR_BAD_ALLOC;
    acl__diags_add(diags, ACL__DIAG_ERROR, rc, "", "out of memory");
    goto done;
  }
  memset(outs, 0, (size_t)s->n_outs * sizeof(*outs));
  for (int k = 0; k < s->n_ins; k++) {
    ins[k] = NULL;
    if (s->ins[k] >= 0) {
      view_tensor(p, in, s->ins[k], &vt[k]);
      ins[k] = &vt[k];
    }
  }
  acl__op_ctx ctx = {e->g, n, s->node, e->opset, ins, (size_t)s->n_ins, outs, (size_t)s->n_outs, diags};
  rc = acl__exec_kernel(e->g, n)(&ctx);
  for (int k = 0; k < s->n_outs; k++) {
    int v = s->outs[k];
    if (rc == 0 && v >= 0) {
      const eng_val *x = &p->vals[v];
      if (outs[k].data == NULL || outs[k].onnx_type != x->onnx_type || outs[k].rank != x->rank ||
          memcmp(outs[k].dims, x->dims, sizeof(int64_t) * (size_t)x->rank) != 0)
        rc = acl__op_fail(&ctx, ACL_ERROR_INVALID_PARAM,
                          "output %d came out with another type or shape than planned for these input shapes", k);
    }
    if (rc == 0 && v >= 0) {
      in->heap[v] = outs[k];
      in->ptr[v] = outs[k].data;
    } else {
      acl__tensor_release(&outs[k]);
    }
  }
done:
  if (vt != views)
    free(vt);
  if (ins != ins_small)
    free((void *)ins);
  if (outs != outs_small)
    free(outs);
  return rc;
}

/* HEAP values whose last reader was step si are freed after it. */
static void free_dead(eng_plan *p, eng_inst *in, int si) {
  const eng_step *s = &p->steps[si];
  int n = s->kind == STEP_REF ? s->n_ins : s->n_args;
  for (int k = 0; k < n; k++) {
    int v = s->kind == STEP_REF ? s->ins[k] : s->args[k].val;
    if (v < 0)
      continue;
    v = root_of(p, v);
    if (p->vals[v].kind == ENG_HEAP && p->vals[v].last == si && in->heap[v].data != NULL) {
      acl__tensor_release(&in->heap[v]);
      in->ptr[v] = NULL;
    }
  }
}

/* Whether every output k of this plan is exactly what the caller's buffer
 * dest[k] of dest_size[k] bytes expects (the declared type, the size), so
 * that nothing the caller checks afterwards can fail: only then are the
 * buffers written (a failed execution leaves them untouched). */
static int dests_fit(const acl__engine *e, const eng_plan *p, size_t n_outputs, void *const *dest,
                     const size_t *dest_size) {
  for (size_t k = 0; dest != NULL && k < n_outputs; k++) {
    const eng_val *x = &p->vals[p->outputs[k]];
    int declared = e->g->tensors[e->g->outputs[k]].onnx_type;
    if (dest[k] == NULL || (declared != 0 && declared != x->onnx_type) ||
        dest_size[k] != (size_t)acl__op_numel(x->rank, x->dims) * acl__graph_onnx_elem_size(x->onnx_type))
      return 0;
  }
  return dest != NULL;
}

/* dest (NULL: none) are the caller's output buffers.  When they all fit
 * (dests_fit), the outputs go there and outputs[k] borrow them (not owned):
 * an output whose bytes are an arena value's is computed right there (the
 * steps write it in place of the arena) unless a reference kernel could
 * still fail on data half-way, any other is copied there at the end. */
static int run_plan(acl__engine *e, eng_plan *p, eng_inst *in, const acl__tensor *inputs, acl__tensor *outputs,
                    size_t n_outputs, void *const *dest, const size_t *dest_size, acl__diags *diags) {
  int rc = 0;
  for (int v = 0; v < p->n_vals; v++)
    if (p->vals[v].kind == ENG_INPUT)
      in->ptr[v] = inputs[p->vals[v].input].data;
  if (!dests_fit(e, p, n_outputs, dest, dest_size))
    dest = NULL;
  for (size_t k = 0; dest != NULL && p->ref_steps == 0 && k < n_outputs; k++) {
    int r = root_of(p, p->outputs[k]), overlaps = 0;
    /* not over an input (a caller reusing one buffer for both): the steps would overwrite what they read */
    for (size_t i = 0; i < e->g->n_inputs && !overlaps; i++)
      overlaps = (const char *)dest[k] < (const char *)inputs[i].data + inputs[i].size &&
                 (const char *)inputs[i].data < (const char *)dest[k] + dest_size[k];
    if (p->vals[r].out_slot == (int)k + 1 && (uintptr_t)dest[k] % 64 == 0 && !overlaps)
      in->ptr[r] = dest[k];
  }
  for (int si = 0; rc == 0 && si < p->n_steps; si++) {
    eng_step *s = &p->steps[si];
    double t0 = p->prof_ms != NULL ? acl__eng_now_ms() : 0;
    uint64_t prof_t0 = ACL__PROF_ON() ? acl__prof_now() : 0; /* aclprof operator records (src/prof/) */
    if (s->kind == STEP_REF) {
      rc = run_ref(e, p, in, si, diags);
    } else if (s->kind == STEP_KERNEL) {
      void *ptr[ENG_KERNEL_MAX_ARGS]; /* acl__eng_kernel_step keeps n_args within it */
      for (int k = 0; k < s->n_args; k++)
        ptr[k] = val_ptr(p, in, s->args[k].val);
      s->kernel(s->params, ptr);
    } else {
      for (int k = 0; k < s->n_args; k++) {
        int r = root_of(p, s->args[k].val);
        if (p->vals[r].kind == ENG_INPUT || p->vals[r].kind == ENG_HEAP || p->vals[r].out_slot)
          dnnl_memory_set_data_handle(in->mem[s->args[k].val], val_ptr(p, in, s->args[k].val));
      }
      dnnl_status_t st = dnnl_primitive_execute(s->prim, in->stream, s->n_args + (s->scratch > 0),
                                                in->args[si]);
      if (st != dnnl_success) {
        rc = ACL_ERROR_FAILURE;
        acl__diags_add(diags, ACL__DIAG_ERROR, rc, "", "oneDNN %s failed: %s", s->what, acl__eng_status(st));
      }
    }
    free_dead(p, in, si);
    if (prof_t0 != 0)
      acl__eng_prof_step(e, p, in, si, prof_t0); /* profile.c */
    if (p->prof_ms != NULL) {
      dnnl_stream_wait(in->stream);
      double t = acl__eng_now_ms() - t0;
      double *fastest = &p->prof_ms[p->n_steps + 1 + si];
      pthread_mutex_lock(&p->lock);
      p->prof_ms[si] += t;
      if (p->prof_runs > 0 && (*fastest == 0 || t < *fastest))
        *fastest = t;
      pthread_mutex_unlock(&p->lock);
    }
  }
  if (p->prof_ms != NULL) {
    /* the first run pays for first touches and lazy set-up: not counted */
    pthread_mutex_lock(&p->lock);
    if (p->prof_runs++ == 0)
      memset(p->prof_ms, 0, (size_t)p->n_steps * sizeof(double));
    pthread_mutex_unlock(&p->lock);
  }
  if (rc == 0)
    dnnl_stream_wait(in->stream);
  for (size_t k = 0; rc == 0 && k < n_outputs; k++) {
    int v = p->outputs[k];
    const eng_val *x = &p->vals[v];
    size_t bytes = (size_t)acl__op_numel(x->rank, x->dims) * acl__graph_onnx_elem_size(x->onnx_type);
    if (dest != NULL) {
      /* the caller's buffer: computed there, or copied there now */
      outputs[k].onnx_type = x->onnx_type;
      outputs[k].rank = x->rank;
      memcpy(outputs[k].dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
      outputs[k].data = dest[k];
      outputs[k].size = bytes;
      const void *src = x->kind == ENG_CONST ? x->konst.data : val_ptr(p, in, v);
      if (src != dest[k] && bytes > 0)
        memcpy(dest[k], src, bytes);
      continue;
    }
    if (acl__tensor_alloc(&outputs[k], x->onnx_type, x->rank, x->dims) != 0) {
      rc = ACL_ERROR_BAD_ALLOC;
      acl__diags_add(diags, ACL__DIAG_ERROR, rc, e->g->tensors[e->g->outputs[k]].name, "out of memory");
      break;
    }
    const void *src = x->kind == ENG_CONST ? x->konst.data : val_ptr(p, in, v);
    if (outputs[k].size > 0)
      memcpy(outputs[k].data, src, outputs[k].size);
  }
  if (rc != 0)
    for (size_t k = 0; k < n_outputs; k++)
      acl__tensor_release(&outputs[k]);
  /* a failed run may leave HEAP values behind; the outputs placed in the caller's buffers go back to the arena */
  for (int v = 0; v < p->n_vals; v++) {
    if (in->heap[v].data != NULL) {
      acl__tensor_release(&in->heap[v]);
      in->ptr[v] = NULL;
    }
    if (p->vals[v].out_slot)
      in->ptr[v] = (char *)in->arena + p->vals[v].offset;
  }
  return rc;
}

static int engine_run(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, acl__tensor *outputs,
                      size_t n_outputs, void *const *dest, const size_t *dest_size, int threads, void *work,
                      size_t work_size, acl__diags *diags) {
  const acl__graph *g = e->g;
  if (!acl__engine_enabled() || e->reference_only)
    return acl__exec_run(g, inputs, n_inputs, outputs, n_outputs, diags); /* no plan: nothing trimmed */
  if (n_inputs != g->n_inputs || n_outputs != g->n_outputs) {
    int rc = acl__engine_keep_weights(e, diags);
    return rc != 0 ? rc : acl__exec_run(g, inputs, n_inputs, outputs, n_outputs, diags); /* it reports the mismatch */
  }
  int rc = 0;
  eng_plan *p = get_plan(e, inputs, n_inputs, threads, &rc, diags);
  if (p == NULL)
    return rc;
  if (p->fallback) {
    put_plan(e, p);
    rc = acl__engine_keep_weights(e, diags);
    return rc != 0 ? rc : acl__exec_run(g, inputs, n_inputs, outputs, n_outputs, diags);
  }
  /* the caller's work memory, when it fits and no other execution uses it */
  eng_inst *in = NULL;
  int zero = 0;
  if (work != NULL && ((uintptr_t)work % 64) == 0 && p->arena_bytes <= work_size &&
      __atomic_compare_exchange_n(&e->work_busy, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
    in = acl__eng_inst_create(e, p, work);
    if (in == NULL)
      __atomic_store_n(&e->work_busy, 0, __ATOMIC_RELEASE);
  }
  if (in == NULL) {
    pthread_mutex_lock(&p->lock);
    in = p->free;
    if (in != NULL)
      p->free = in->next;
    pthread_mutex_unlock(&p->lock);
  }
  if (in == NULL)
    in = acl__eng_inst_create(e, p, NULL);
  if (in == NULL) {
    put_plan(e, p);
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "",
                   "out of memory for the model's working memory (%zu bytes)", p->arena_bytes);
    return ACL_ERROR_BAD_ALLOC;
  }
  /* executions running at once share the budget instead of each taking all of it (callers of this function
   * on several threads, as the unit tests do; aclmdlExecute's come one at a time: acl__engine_call_home) */
  int running = __atomic_add_fetch(&engine_running, 1, __ATOMIC_RELAXED);
  acl__engine_set_threads(threads / running > 0 ? threads / running : 1);
  rc = run_plan(e, p, in, inputs, outputs, n_outputs, dest, dest_size, diags);
  __atomic_sub_fetch(&engine_running, 1, __ATOMIC_RELAXED);
  if (in->external) {
    acl__eng_inst_free(p, in);
    __atomic_store_n(&e->work_busy, 0, __ATOMIC_RELEASE);
  } else {
    pthread_mutex_lock(&p->lock);
    in->next = p->free;
    p->free = in;
    pthread_mutex_unlock(&p->lock);
  }
  put_plan(e, p);
  return rc;
}

int acl__engine_run(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, acl__tensor *outputs,
                    size_t n_outputs, int threads, void *work, size_t work_size, acl__diags *diags) {
  /* the caller's output buffers: outputs given as data, not owned (run_plan uses them when all fit) */
  int given = n_outputs > 0;
  for (size_t i = 0; i < n_outputs; i++)
    given &= outputs[i].data != NULL && !outputs[i].owned && !outputs[i].is_sequence;
  void *dest_small[16], **dest = NULL;
  size_t size_small[16], *dest_size = NULL;
  if (given) {
    dest = n_outputs <= 16 ? dest_small : malloc(n_outputs * sizeof(*dest));
    dest_size = n_outputs <= 16 ? size_small : malloc(n_outputs * sizeof(*dest_size));
  }
  for (size_t i = 0; dest != NULL && dest_size != NULL && i < n_outputs; i++) {
    dest[i] = outputs[i].data;
    dest_size[i] = outputs[i].size;
  }
  if (dest == NULL || dest_size == NULL) { /* none given, or no memory to note them: the results come as before */
    if (dest != dest_small)
      free(dest);
    if (dest_size != size_small)
      free(dest_size);
    dest = NULL;
    dest_size = NULL;
  }
  for (size_t i = 0; i < n_outputs; i++)
    memset(&outputs[i], 0, sizeof(outputs[i]));
  int rc = engine_run(e, inputs, n_inputs, outputs, n_outputs, dest, dest_size, threads, work, work_size, diags);
  if (dest != dest_small)
    free(dest);
  if (dest_size != size_small)
    free(dest_size);
  return rc;
}
