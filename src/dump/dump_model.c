/*
 * dump_model.c - dump of model executions (dump.h, docs/dump.md).
 *
 * At load a model is bound to the configuration in force (acl__dump_bind):
 * its dump_list entries are matched against the model's file name without
 * suffix and the graph's own name, and its layers (ONNX node names; an
 * unnamed node is "<op_type>_<index>") are looked up once.  A model no dump
 * applies to gets no binding: its executions pay one pointer test.
 *
 * While dump applies, the model's executions run on the reference executor
 * (exec.c) with a per-node hook, which sees every node's inputs and outputs:
 *   model dump   the selected layers' inputs / outputs (dump_mode) as tensor
 *                files or stats CSVs, under
 *                {dump_path}/{time}/{device}/{model_name}/{model_id}/{data_index}/;
 *   overflow     (dump_debug) a node whose floating output holds Inf/NaN
 *                while its floating inputs are finite: inputs and outputs
 *                are dumped to the same layout and the overflow is logged;
 *   watcher      after each `layer` node (every node when none are listed)
 *                the outputs of the `watcher_nodes` that have run are dumped,
 *                task id = the triggering node, attr watcher_trigger = its name;
 *   exception    the failing node's inputs and outputs go to
 *                {root}/extra-info/data-dump/{device}/ when it fails.
 * Exception dump alone keeps the optimised engine: only a failed execution
 * runs again on the reference executor to find and capture the failing node.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/config_internal.h"
#include "common/log.h"
#include "dump/dump.h"

struct acl__dump_binding {
  acl__dump_cfg *cfg; /* counted reference */
  char dir_name[256]; /* the model's directory name */
  int model_match;    /* a dump_list entry names this model */
  int all_layers;
  char *selected;  /* per node: 1 when its layer is dumped */
  char **op_names; /* per node: the op name (node name or <op_type>_<index>) */
  size_t n_nodes;
  int need_ref; /* run on the reference executor with the hook */
  uint32_t model_id;
  int32_t device;
  uint64_t runs; /* atomic: the data_index of the next execution */
};

/* One execution's state, seen by the hook. */
typedef struct run_ctx {
  acl__dump_binding *b;
  uint32_t stream_id;
  char dir[4096]; /* {base}/{device}/{model}/{id}/{data_index} */
  size_t overflows;
} run_ctx;

void acl__dump_binding_free(acl__dump_binding *b) {
  if (b == NULL)
    return;
  for (size_t i = 0; b->op_names != NULL && i < b->n_nodes; i++)
    free(b->op_names[i]);
  free(b->op_names);
  free(b->selected);
  acl__dump_cfg_release(b->cfg);
  free(b);
}

/* The file name without directory and last suffix ("net" for "/a/net.onnx"). */
static void file_stem(char *dst, size_t n, const char *path) {
  const char *base = strrchr(path, '/');
  base = base != NULL ? base + 1 : path;
  snprintf(dst, n, "%s", base);
  char *dot = strrchr(dst, '.');
  if (dot != NULL && dot != dst)
    *dot = '\0';
}

acl__dump_binding *acl__dump_bind(const char *path, const acl__graph *g, uint32_t model_id, int32_t device_id) {
  acl__dump_cfg *c = acl__dump_cfg_current();
  if (c == NULL)
    return NULL;
  acl__dump_binding *b = calloc(1, sizeof(*b));
  if (b == NULL)
    goto oom;
  b->cfg = c;
  c = NULL;
  b->model_id = model_id;
  b->device = device_id;
  b->n_nodes = g->n_nodes;
  b->op_names = calloc(g->n_nodes ? g->n_nodes : 1, sizeof(*b->op_names));
  b->selected = calloc(g->n_nodes ? g->n_nodes : 1, 1);
  if (b->op_names == NULL || b->selected == NULL)
    goto oom;
  for (size_t i = 0; i < g->n_nodes; i++) {
    const acl__graph_node *n = &g->nodes[i];
    int rc = n->name != NULL && n->name[0] != '\0' ? asprintf(&b->op_names[i], "%s", n->name)
                                                   : asprintf(&b->op_names[i], "%s_%zu", n->op_type, i);
    if (rc < 0) {
      b->op_names[i] = NULL;
      goto oom;
    }
  }
  char stem[256] = "";
  if (path != NULL)
    file_stem(stem, sizeof(stem), path);
  const char *gname = g->graph_name != NULL ? g->graph_name : "";
  const char *matched = NULL;
  for (size_t e = 0; b->cfg->model && e < b->cfg->n_list; e++) {
    const acl__dump_entry *en = &b->cfg->list[e];
    if (en->model_name == NULL ||
        !((stem[0] && strcmp(en->model_name, stem) == 0) || (gname[0] && strcmp(en->model_name, gname) == 0)))
      continue;
    if (matched == NULL)
      matched = en->model_name;
    b->model_match = 1;
    b->all_layers |= en->all_layers;
    for (size_t k = 0; k < en->n_layer; k++) {
      int found = 0;
      for (size_t i = 0; i < g->n_nodes; i++)
        if (strcmp(b->op_names[i], en->layer[k]) == 0)
          b->selected[i] = found = 1;
      if (!found)
        ACL__LOGW(ACL__MOD_ASCENDCL,
                  "dump: layer \"%s\" of dump_list model \"%s\" is no node of model %u; "
                  "layer names are ONNX node names",
                  en->layer[k], en->model_name, model_id);
    }
  }
  if (b->all_layers)
    memset(b->selected, 1, g->n_nodes);
  acl__dump_sanitize(b->dir_name, sizeof(b->dir_name),
                     matched != NULL ? matched
                     : stem[0]       ? stem
                     : gname[0]      ? gname
                                     : "model");
  b->need_ref = b->model_match || b->cfg->overflow || b->cfg->watcher;
  if (!b->need_ref && !b->cfg->exception) {
    acl__dump_binding_free(b);
    return NULL;
  }
  ACL__LOGI(ACL__MOD_ASCENDCL, "dump: model %u (\"%s\") is dumped%s: %s", model_id, b->dir_name,
            b->need_ref ? " on the reference executor" : "",
            b->model_match     ? (b->all_layers ? "every layer" : "the listed layers")
            : b->cfg->overflow ? "overflowing nodes"
            : b->cfg->watcher  ? "watcher nodes"
                               : "failing nodes");
  return b;
oom:
  ACL__LOGE(ACL__MOD_ASCENDCL, "dump: out of host memory; model %u is not dumped", model_id);
  acl__dump_cfg_release(c);
  acl__dump_binding_free(b);
  return NULL;
}

/* ---- the hook ------------------------------------------------------------ */

static int dumpable(const acl__tensor *t) {
  return t != NULL && !t->is_sequence && t->onnx_type != ACL__ONNX_STRING && t->data != NULL;
}

static void add_tensor(acl__dump_tensor *arr, size_t *n, const acl__tensor *t, int is_input) {
  if (!dumpable(t))
    return;
  acl__dump_tensor *d = &arr[(*n)++];
  d->is_input = is_input;
  d->onnx_type = t->onnx_type;
  d->rank = t->rank;
  d->dims = t->dims;
  d->data = t->data;
  d->size = t->size;
  d->address = (uint64_t)(uintptr_t)t->data;
}

/* {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp} */
static void tensor_file_name(char *buf, size_t n, const char *op_type, const char *op_name, size_t task,
                             uint32_t stream) {
  char t[128], o[512];
  acl__dump_sanitize(t, sizeof(t), op_type);
  acl__dump_sanitize(o, sizeof(o), op_name);
  snprintf(buf, n, "%s.%s.%zu.%" PRIu32 ".%" PRIu64, t, o, task, stream, acl__dump_now_us());
}

static int float_type(int t) {
  return t == ACL__ONNX_FLOAT || t == ACL__ONNX_DOUBLE || t == ACL__ONNX_FLOAT16 || t == ACL__ONNX_BFLOAT16;
}

/* Whether a floating tensor holds Inf or NaN (0 for other types). */
static int non_finite(const acl__tensor *t) {
  if (!dumpable(t) || !float_type(t->onnx_type))
    return 0;
  size_t esz = acl__graph_onnx_elem_size(t->onnx_type), n = esz ? t->size / esz : 0;
  const unsigned char *p = t->data;
  for (size_t i = 0; i < n; i++) {
    if (t->onnx_type == ACL__ONNX_FLOAT) {
      float v;
      memcpy(&v, p + i * 4, 4);
      if (!isfinite(v))
        return 1;
    } else if (t->onnx_type == ACL__ONNX_DOUBLE) {
      double v;
      memcpy(&v, p + i * 8, 8);
      if (!isfinite(v))
        return 1;
    } else {
      uint16_t v;
      memcpy(&v, p + i * 2, 2);
      unsigned exp_mask = t->onnx_type == ACL__ONNX_FLOAT16 ? 0x7c00u : 0x7f80u;
      if ((v & exp_mask) == exp_mask)
        return 1;
    }
  }
  return 0;
}

static void write_node(run_ctx *r, const acl__exec_node_event *ev, int mode, int stats, const char *why) {
  const acl__graph_node *n = &ev->g->nodes[ev->node];
  acl__dump_tensor *t = calloc(ev->n_ins + ev->n_outs + 1, sizeof(*t));
  if (t == NULL)
    return;
  size_t k = 0;
  if (mode != DUMP_MODE_OUTPUT)
    for (size_t i = 0; i < ev->n_ins; i++)
      add_tensor(t, &k, ev->ins[i], 1);
  if (mode != DUMP_MODE_INPUT)
    for (size_t i = 0; i < ev->n_outs; i++)
      add_tensor(t, &k, ev->outs[i], 0);
  char name[768];
  tensor_file_name(name, sizeof(name), n->op_type, r->b->op_names[ev->node], ev->node, r->stream_id);
  acl__dump_record rec = {r->dir, name, r->b->op_names[ev->node], NULL, NULL, why, t, k, stats, !stats, 0,
                          r->b->cfg->stats_cols};
  acl__dump_write(&rec);
  free(t);
}

static void write_exception(run_ctx *r, const acl__exec_node_event *ev) {
  const acl__dump_cfg *c = r->b->cfg;
  const acl__graph_node *n = &ev->g->nodes[ev->node];
  acl__dump_tensor *t = calloc(ev->n_ins + ev->n_outs + 1, sizeof(*t));
  if (t == NULL)
    return;
  size_t k = 0;
  for (size_t i = 0; i < ev->n_ins; i++)
    add_tensor(t, &k, ev->ins[i], 1);
  for (size_t i = 0; i < ev->n_outs; i++)
    add_tensor(t, &k, ev->outs[i], 0);
  char dir[4096], name[768], ty[128], op[512], stamp[32], msg[1024];
  snprintf(dir, sizeof(dir), "%s/extra-info/data-dump/%d", c->exc_root ? c->exc_root : ".", (int)r->b->device);
  acl__dump_sanitize(ty, sizeof(ty), n->op_type);
  acl__dump_sanitize(op, sizeof(op), r->b->op_names[ev->node]);
  acl__dump_stamp_ms(stamp, sizeof(stamp));
  snprintf(name, sizeof(name), "%s.%s.%zu.%s", ty, op, ev->node, stamp);
  const acl__diag *d = acl__diags_first_error(ev->diags);
  snprintf(msg, sizeof(msg), "model %u, stream %u, node %zu (\"%s\", %s) failed with %d: %s", r->b->model_id,
           r->stream_id, ev->node, r->b->op_names[ev->node], n->op_type, ev->rc,
           d != NULL ? d->message : "(no message)");
  acl__dump_record rec = {dir, name, r->b->op_names[ev->node], NULL, NULL, msg, t, k, 0, 1, 0, 0};
  if (acl__dump_write(&rec) == 0)
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: exception dump of the failing node written to %s/%s", dir, name);
  free(t);
}

static void write_watched(run_ctx *r, const acl__exec_node_event *ev, const char *watch) {
  const acl__graph *g = ev->g;
  for (size_t j = 0; j <= ev->node; j++) {
    if (strcmp(r->b->op_names[j], watch) != 0)
      continue;
    const acl__graph_node *w = &g->nodes[j];
    acl__dump_tensor *t = calloc(w->n_outputs + 1, sizeof(*t));
    if (t == NULL)
      return;
    size_t k = 0;
    for (size_t o = 0; o < w->n_outputs; o++)
      if (w->outputs[o] >= 0)
        add_tensor(t, &k, &ev->vals[w->outputs[o]], 0);
    char name[768];
    tensor_file_name(name, sizeof(name), w->op_type, watch, ev->node, r->stream_id);
    acl__dump_record rec = {r->dir, name, watch, "watcher_trigger", r->b->op_names[ev->node],
                            NULL,   t,    k,     r->b->cfg->stats,  !r->b->cfg->stats,
                            0,      r->b->cfg->stats_cols};
    acl__dump_write(&rec);
    free(t);
  }
}

static void after_node(void *user, const acl__exec_node_event *ev) {
  run_ctx *r = user;
  acl__dump_binding *b = r->b;
  const acl__dump_cfg *c = b->cfg;
  size_t i = ev->node;
  if (ev->rc != 0) {
    if (c->exception)
      write_exception(r, ev);
    return;
  }
  if (b->model_match && b->selected[i])
    write_node(r, ev, c->mode, c->stats, NULL);
  if (c->overflow) {
    int out_bad = 0, in_bad = 0;
    for (size_t k = 0; k < ev->n_outs; k++)
      out_bad |= non_finite(ev->outs[k]);
    for (size_t k = 0; out_bad && k < ev->n_ins; k++)
      in_bad |= non_finite(ev->ins[k]);
    if (out_bad && !in_bad) {
      r->overflows++;
      write_node(r, ev, DUMP_MODE_ALL, c->stats, "overflow: an output holds Inf or NaN while the inputs are finite");
      ACL__LOGW(ACL__MOD_ASCENDCL,
                "dump: overflow in model %u, node %zu (\"%s\", %s): an output holds Inf or NaN "
                "while the inputs are finite; its inputs and outputs are dumped under %s",
                b->model_id, i, b->op_names[i], ev->g->nodes[i].op_type, r->dir);
    }
  }
  if (c->watcher)
    for (size_t e = 0; e < c->n_list; e++) {
      const acl__dump_entry *en = &c->list[e];
      int trig = en->all_layers;
      for (size_t k = 0; !trig && k < en->n_layer; k++)
        trig = strcmp(en->layer[k], b->op_names[i]) == 0;
      for (size_t k = 0; trig && k < en->n_watch; k++)
        write_watched(r, ev, en->watch[k]);
    }
}

int acl__dump_run(acl__dump_binding *b, const acl__graph *g, const acl__tensor *in, size_t n_in, acl__tensor *outs,
                  size_t n_out, uint32_t stream_id, acl__dump_engine_fn engine, void *engine_arg, acl__diags *diags) {
  if (!acl__dump_cfg_live(b->cfg))
    return engine(engine_arg);
  run_ctx *r = calloc(1, sizeof(*r));
  if (r == NULL) {
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: out of host memory; execution of model %u is not dumped", b->model_id);
    return engine(engine_arg);
  }
  r->b = b;
  r->stream_id = stream_id;
  uint64_t idx = __atomic_fetch_add(&b->runs, 1, __ATOMIC_ACQ_REL);
  snprintf(r->dir, sizeof(r->dir), "%s/%d/%s/%" PRIu32 "/%" PRIu64, b->cfg->base ? b->cfg->base : ".", (int)b->device,
           b->dir_name, b->model_id, idx);
  acl__exec_hook hook = {after_node, r};
  int rc;
  if (b->need_ref) {
    rc = acl__exec_run_hooked(g, in, n_in, outs, n_out, &hook, diags);
    if (r->overflows > 0)
      ACL__LOGW(ACL__MOD_ASCENDCL, "dump: execution %" PRIu64 " of model %u: %zu node(s) overflowed", idx, b->model_id,
                r->overflows);
  } else {
    rc = engine(engine_arg);
    if (rc != 0) { /* exception dump: find and capture the failing node */
      acl__tensor *tmp = calloc(n_out ? n_out : 1, sizeof(*tmp));
      acl__diags d2 = {0};
      if (tmp != NULL && acl__exec_run_hooked(g, in, n_in, tmp, n_out, &hook, &d2) == 0) {
        ACL__LOGW(ACL__MOD_ASCENDCL,
                  "dump: model %u failed on its engine but not on the reference executor; "
                  "no node to dump",
                  b->model_id);
        for (size_t k = 0; k < n_out; k++)
          acl__tensor_release(&tmp[k]);
      }
      acl__diags_free(&d2);
      free(tmp);
    }
  }
  free(r);
  return rc;
}
