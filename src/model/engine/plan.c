/*
 * plan.c - building a plan for one set of input shapes: walks the graph's
 * nodes in order and gives each to the operator builders (dnnl_ops.c), to
 * folding and shape probing (fold.c), or to a reference-kernel step; then
 * lifetimes and the arena layout; and the per-execution instances.  The
 * values and steps it makes plans of are steps.c's.  Calls go one way:
 * engine.c -> plan.c -> dnnl_ops.c -> fold.c, steps.c.
 *
 * Shapes come from three sources: oneDNN operators compute theirs
 * (dnnl_ops.c); nodes whose inputs are all constant are simply run
 * (folding); every other node is run once on zero-filled inputs of the right
 * shapes, which gives its output shapes as long as they do not depend on
 * input *values*.  Nodes whose output shape does depend on values they cannot
 * know in advance (NonZero, or a Reshape whose shape input is computed from
 * data) make the plan a "fallback": these input shapes run on the reference
 * executor.
 */
#include "model/engine/engine_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

#define ENG_ALIGN 64

/* ---- which inputs decide a shape ------------------------------------------ */

/* (op, input index) whose VALUES decide the output shape. */
static const struct { const char *op; int input; } value_shaped[] = {
  {"Reshape", 1}, {"Expand", 1}, {"Tile", 1}, {"Slice", 1}, {"Slice", 2}, {"Slice", 3}, {"Slice", 4},
  {"Pad", 1}, {"Pad", 3}, {"Resize", 1}, {"Resize", 2}, {"Resize", 3}, {"Upsample", 1},
  {"ConstantOfShape", 0}, {"Range", 0}, {"Range", 1}, {"Range", 2}, {"TopK", 1}, {"OneHot", 1},
  {"Squeeze", 1}, {"Unsqueeze", 1}, {"Split", 1}, {"ReduceSum", 1}, {"ReduceMean", 1}, {"ReduceMax", 1},
  {"ReduceMin", 1}, {"ReduceProd", 1}, {"ReduceL1", 1}, {"ReduceL2", 1}, {"ReduceLogSum", 1},
  {"ReduceLogSumExp", 1}, {"ReduceSumSquare", 1}, {"CenterCropPad", 1}, {"Compress", 1}, {"Trilu", 1},
  {"STFT", 2}, {"DFT", 1}, {"BlackmanWindow", 0}, {"HannWindow", 0}, {"HammingWindow", 0},
  {"MelWeightMatrix", 0}, {"MelWeightMatrix", 1}, {"MelWeightMatrix", 2}, {"GridSample", -1},
};
static int value_shaped_input(const char *op, int k) {
  for (size_t i = 0; i < sizeof(value_shaped) / sizeof(value_shaped[0]); i++)
    if (strcmp(value_shaped[i].op, op) == 0 && (value_shaped[i].input == k || value_shaped[i].input < 0))
      return 1;
  return 0;
}

/* ---- views ---------------------------------------------------------------- */

static int is_view_op(const char *op) {
  return strcmp(op, "Reshape") == 0 || strcmp(op, "Flatten") == 0 || strcmp(op, "Squeeze") == 0 ||
         strcmp(op, "Unsqueeze") == 0 || strcmp(op, "Identity") == 0;
}

/* Output 0 of node ni shares input 0's bytes from byte `off` on (shape
 * from the probe). */
static int make_view(eng_build *b, int ni, int in0, size_t off) {
  eng_plan *p = b->p;
  int src = acl__eng_plain(b, in0);
  if (src < 0)
    return ACL_ERROR_BAD_ALLOC;
  int v = acl__eng_resolve(b->e, b->e->g->nodes[ni].outputs[0]);
  eng_val *x = &p->vals[v];
  eng_val *s = &p->vals[src];
  if (s->kind == ENG_CONST) {
    /* a constant under another shape: borrow its data */
    x->kind = ENG_CONST;
    x->konst.onnx_type = x->onnx_type;
    x->konst.rank = x->rank;
    memcpy(x->konst.dims, x->dims, sizeof(x->dims));
    x->konst.data = (char *)s->konst.data + off;
    x->konst.size = x->bytes;
    x->konst.owned = 0;
  } else {
    x->kind = ENG_VIEW;
    x->base = src;
    x->view_off = off;
  }
  return 0;
}

/* A Gather of one constant index along axis 0 (q = qkv[0] in attention
 * blocks) picks a contiguous slice: a view at that slice's offset.  The
 * byte offset, or -1 when the node is not such a Gather. */
static long long gather_slice(eng_build *b, int ni, const int *ins, size_t nin) {
  const acl__graph_node *n = &b->e->g->nodes[ni];
  if (strcmp(n->op_type, "Gather") != 0 || nin != 2 || ins[0] < 0 || ins[1] < 0)
    return -1;
  for (size_t k = 0; k < n->n_attrs; k++)
    if (strcmp(n->attrs[k].name, "axis") == 0 && n->attrs[k].i != 0)
      return -1;
  const eng_val *x = &b->p->vals[ins[0]], *ix = &b->p->vals[ins[1]];
  if (ix->kind != ENG_CONST || ix->rank != 0 || x->rank < 1 || x->dims[0] <= 0 ||
      (ix->onnx_type != ACL__ONNX_INT64 && ix->onnx_type != ACL__ONNX_INT32))
    return -1;
  int64_t i = ix->onnx_type == ACL__ONNX_INT64 ? *(const int64_t *)ix->konst.data : *(const int32_t *)ix->konst.data;
  if (i < 0)
    i += x->dims[0];
  if (i < 0 || i >= x->dims[0])
    return -1; /* the reference kernel reports it */
  size_t row = (size_t)acl__op_numel(x->rank - 1, x->dims + 1) * acl__graph_onnx_elem_size(x->onnx_type);
  return (long long)((size_t)i * row);
}

/* ---- the build ------------------------------------------------------------- */

static int ref_step(eng_build *b, int ni, const int *ins, size_t nin) {
  acl__engine *e = b->e;
  const acl__graph_node *n = &e->g->nodes[ni];
  int *si = malloc((nin ? nin : 1) * sizeof(int));
  int *so = malloc((n->n_outputs ? n->n_outputs : 1) * sizeof(int));
  if (si == NULL || so == NULL)
    goto oom;
  /* reference kernels read dense row-major data: reorder blocked inputs first */
  for (size_t k = 0; k < nin; k++) {
    si[k] = ins[k] >= 0 ? acl__eng_plain(b, ins[k]) : -1;
    if (ins[k] >= 0 && si[k] < 0)
      goto oom;
  }
  for (size_t k = 0; k < n->n_outputs; k++) {
    so[k] = acl__eng_resolve(e, n->outputs[k]);
    if (so[k] >= 0)
      b->p->vals[so[k]].kind = ENG_HEAP;
  }
  eng_step *s = acl__eng_step_new(b->p);
  if (s == NULL)
    goto oom;
  s->kind = STEP_REF;
  ACL__LOGD(ACL__MOD_GE, "plan step %d: %s on the reference kernel", b->p->n_steps - 1, n->op_type);
  s->node = ni;
  s->what = n->op_type;
  s->ins = si;
  s->outs = so;
  s->n_ins = (int)nin;
  s->n_outs = (int)n->n_outputs;
  return 0;
oom:
  free(si);
  free(so);
  return ACL_ERROR_BAD_ALLOC;
}

static int check_inputs(acl__engine *e, const acl__tensor *in, size_t n, acl__diags *d) {
  const acl__graph *g = e->g;
  for (size_t k = 0; k < n; k++) {
    const acl__graph_tensor *gt = &g->tensors[g->inputs[k]];
    const acl__tensor *t = &in[k];
    int bad = (gt->onnx_type != 0 && gt->onnx_type != t->onnx_type) || t->rank < 0 ||
              t->rank > ACL__EXEC_MAX_RANK || acl__graph_onnx_elem_size(t->onnx_type) == 0 ||
              (gt->rank >= 0 && gt->rank != t->rank);
    for (int i = 0; !bad && gt->rank >= 0 && i < gt->rank; i++)
      bad = gt->dims[i].value >= 0 && gt->dims[i].value != t->dims[i];
    if (!bad && (size_t)acl__tensor_numel(t) * acl__graph_onnx_elem_size(t->onnx_type) > t->size)
      bad = 1;
    if (bad) {
      acl__diags_add(d, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, gt->name,
                     "input %zu: type, rank or shape does not match the model, or the buffer is too small", k);
      return ACL_ERROR_INVALID_PARAM;
    }
  }
  return 0;
}

static int build_nodes(eng_build *b) {
  acl__engine *e = b->e;
  const acl__graph *g = e->g;
  eng_plan *p = b->p;
  int ins_small[32];
  /* Constant nodes first: exporters put them right before their reader, and
   * pattern fusions look ahead at constants of nodes not reached yet */
  for (size_t i = 0; i < g->n_nodes; i++) {
    const acl__graph_node *n = &g->nodes[i];
    if (!e->dead[i] && n->n_inputs == 0 && n->domain[0] == '\0' && strcmp(n->op_type, "Constant") == 0) {
      int rc = acl__eng_probe(b, (int)i, ins_small, 0, 1);
      if (rc == ACL_ERROR_BAD_ALLOC)
        return rc;
      if (rc != 0) {
        acl__diags_free(b->diags);
        continue; /* the main loop meets it again and reports it */
      }
      b->skip[i] = 1;
    }
  }
  for (size_t i = 0; i < g->n_nodes; i++) {
    if (e->dead[i] || b->skip[i])
      continue;
    const acl__graph_node *n = &g->nodes[i];
    b->node = (int)i;
    /* a BN folded into a convolution without bias gave it one: a third input */
    size_t nin = n->n_inputs < 3 && e->conv_b[i] >= 0 ? 3 : n->n_inputs;
    int *ins = nin <= 32 ? ins_small : malloc(nin * sizeof(int));
    if (ins == NULL)
      return ACL_ERROR_BAD_ALLOC;
    int all_const = 1, rc = 0;
    for (size_t k = 0; k < nin; k++) {
      ins[k] = k < n->n_inputs ? acl__eng_resolve(e, n->inputs[k]) : -1;
      if (k == 1 && e->conv_w[i] >= 0)
        ins[k] = e->conv_w[i];
      if (k == 2 && e->conv_b[i] >= 0)
        ins[k] = e->conv_b[i];
      if (ins[k] >= 0) {
        b->uses_left[ins[k]]--;
        if (p->vals[ins[k]].kind != ENG_CONST)
          all_const = 0;
      }
    }
    int is_default = n->domain[0] == '\0';
    if (acl__eng_op_data_shaped(n->op_type)) {
      p->fallback = 1;
    } else if (all_const && !acl__eng_op_random(n->op_type)) {
      rc = acl__eng_probe(b, (int)i, ins, nin, 1);
    } else if (is_default && acl__eng_op_shape_only(n->op_type)) {
      rc = acl__eng_probe(b, (int)i, ins, nin, 1);
    } else {
      for (size_t k = 0; k < nin; k++)
        if (ins[k] >= 0 && p->vals[ins[k]].kind != ENG_CONST && value_shaped_input(n->op_type, (int)k))
          p->fallback = 1;
      if (!p->fallback) {
        rc = is_default ? acl__eng_dnnl_node(b, (int)i, ins, nin) : 1;
        if (rc == 1) {
          rc = acl__eng_probe(b, (int)i, ins, nin, 0);
          long long slice = rc == 0 && is_default ? gather_slice(b, (int)i, ins, nin) : -1;
          if (rc == 0 && is_default && is_view_op(n->op_type) && ins[0] >= 0 &&
              (strcmp(n->op_type, "Identity") != 0 || !g->tensors[n->outputs[0]].is_graph_output))
            rc = make_view(b, (int)i, ins[0], 0);
          else if (slice >= 0)
            rc = make_view(b, (int)i, ins[0], (size_t)slice);
          else if (rc == 0)
            rc = ref_step(b, (int)i, ins, nin);
        }
      }
    }
    if (ins != ins_small)
      free(ins);
    if (rc != 0) {
      if (!p->fallback && rc != ACL_ERROR_BAD_ALLOC) {
        /* the probe failed: let the reference executor report it with real data */
        p->fallback = 1;
        acl__diags_free(b->diags);
      }
      if (rc == ACL_ERROR_BAD_ALLOC)
        return rc;
    }
    if (p->fallback) {
      ACL__LOGI(ACL__MOD_GE, "node %zu (%s) decides its output shape from data: these input shapes run on the "
                "reference executor", i, n->op_type);
      return 0;
    }
  }
  return 0;
}

/* Lifetimes of root values, then offsets: largest first, each at the lowest
 * offset free during its whole lifetime. */
static int place(eng_plan *p) {
  for (int si = 0; si < p->n_steps; si++) {
    const eng_step *s = &p->steps[si];
    int n = s->kind == STEP_REF ? s->n_ins + s->n_outs : s->n_args;
    for (int k = 0; k < n; k++) {
      int v = s->kind == STEP_REF ? (k < s->n_ins ? s->ins[k] : s->outs[k - s->n_ins]) : s->args[k].val;
      if (v < 0)
        continue;
      while (p->vals[v].kind == ENG_VIEW)
        v = p->vals[v].base;
      eng_val *x = &p->vals[v];
      if (x->first < 0 || si < x->first)
        x->first = si;
      if (si > x->last)
        x->last = si;
    }
  }
  for (int k = 0; k < p->n_outputs; k++) {
    int v = p->outputs[k];
    while (p->vals[v].kind == ENG_VIEW)
      v = p->vals[v].base;
    p->vals[v].last = p->n_steps; /* read by the caller after the last step */
  }
  int n = 0;
  int *order = malloc((size_t)(p->n_vals ? p->n_vals : 1) * sizeof(int));
  if (order == NULL)
    return -1;
  for (int v = 0; v < p->n_vals; v++)
    if (p->vals[v].kind == ENG_ARENA && p->vals[v].first >= 0)
      order[n++] = v;
  /* insertion sort by size, descending (n is small) */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && p->vals[order[j]].bytes > p->vals[order[j - 1]].bytes; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  size_t top = 0;
  for (int i = 0; i < n; i++) {
    eng_val *x = &p->vals[order[i]];
    size_t off = 0;
    int moved = 1;
    while (moved) {
      moved = 0;
      for (int j = 0; j < i; j++) {
        const eng_val *y = &p->vals[order[j]];
        if (y->last < x->first || x->last < y->first)
          continue; /* not alive at the same time */
        if (off < y->offset + y->bytes && y->offset < off + x->bytes) {
          off = (y->offset + y->bytes + ENG_ALIGN - 1) / ENG_ALIGN * ENG_ALIGN;
          moved = 1;
        }
      }
    }
    x->offset = off;
    if (off + x->bytes > top)
      top = off + x->bytes;
  }
  free(order);
  size_t scratch = 0;
  for (int si = 0; si < p->n_steps; si++)
    if (p->steps[si].kind == STEP_PRIM && p->steps[si].scratch > scratch)
      scratch = p->steps[si].scratch;
  p->scratch_offset = (top + ENG_ALIGN - 1) / ENG_ALIGN * ENG_ALIGN;
  p->scratch_bytes = scratch;
  p->arena_bytes = p->scratch_offset + scratch;
  return 0;
}

int acl__eng_plan_build(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, eng_plan **out,
                        acl__diags *diags) {
  const acl__graph *g = e->g;
  *out = NULL;
  int rc = check_inputs(e, inputs, n_inputs, diags);
  if (rc != 0)
    return rc;
  eng_plan *p = calloc(1, sizeof(*p));
  eng_build b = {e, p, NULL, NULL, diags, -1};
  if (p == NULL)
    goto oom;
  pthread_mutex_init(&p->lock, NULL);
  int nbase = (int)g->n_tensors + e->n_extra;
  for (int v = 0; v < nbase; v++)
    if (acl__eng_val_new(p) < 0)
      goto oom;
  b.skip = calloc(g->n_nodes ? g->n_nodes : 1, 1);
  b.uses_left = calloc((size_t)(nbase ? nbase : 1), sizeof(int));
  p->outputs = calloc(g->n_outputs ? g->n_outputs : 1, sizeof(int));
  if (b.skip == NULL || b.uses_left == NULL || p->outputs == NULL)
    goto oom;
  for (int v = 0; v < nbase; v++) {
    eng_val *x = &p->vals[v];
    const acl__tensor *c = NULL;
    acl__tensor gt = {0};
    if (v < (int)g->n_tensors && g->tensors[v].kind == ACL__TENSOR_INITIALIZER) {
      const acl__graph_tensor *t = &g->tensors[v];
      gt.onnx_type = t->onnx_type;
      gt.rank = t->rank;
      for (int k = 0; k < t->rank && k < ACL__EXEC_MAX_RANK; k++)
        gt.dims[k] = t->dims[k].value;
      gt.data = t->data;
      gt.size = t->data_size;
      if (t->rank <= ACL__EXEC_MAX_RANK && (t->data != NULL || t->data_size == 0))
        c = &gt;
    } else if (v >= (int)g->n_tensors) {
      c = &e->extra[v - (int)g->n_tensors];
    }
    if (c != NULL) {
      acl__eng_val_set_shape(x, c);
      x->kind = ENG_CONST;
      x->konst = *c;
      x->konst.owned = 0;
      if (x->konst.data == NULL) {
        static char empty;
        x->konst.data = &empty;
      }
    }
  }
  for (size_t k = 0; k < n_inputs; k++) {
    eng_val *x = &p->vals[g->inputs[k]];
    acl__eng_val_set_shape(x, &inputs[k]);
    x->kind = ENG_INPUT;
    x->input = (int)k;
  }
  for (size_t i = 0; i < g->n_nodes; i++)
    if (!e->dead[i])
      for (size_t k = 0; k < g->nodes[i].n_inputs || (k == 2 && e->conv_b[i] >= 0); k++) {
        int v = k < g->nodes[i].n_inputs ? acl__eng_resolve(e, g->nodes[i].inputs[k]) : -1;
        if (k == 1 && e->conv_w[i] >= 0)
          v = e->conv_w[i];
        if (k == 2 && e->conv_b[i] >= 0)
          v = e->conv_b[i];
        if (v >= 0)
          b.uses_left[v]++;
      }
  for (size_t k = 0; k < g->n_outputs; k++) {
    int v = acl__eng_resolve(e, g->outputs[k]);
    b.uses_left[v]++;
    p->vals[v].graph_output = 1;
  }
  rc = build_nodes(&b);
  if (rc != 0)
    goto fail;
  if (!p->fallback) {
    for (size_t k = 0; k < g->n_outputs; k++) {
      int v = acl__eng_resolve(e, g->outputs[k]);
      if (p->vals[v].kind == 0) {
        p->fallback = 1; /* never produced: let the reference executor say why */
        break;
      }
      if (!p->vals[v].plain)
        v = acl__eng_plain(&b, v);
      if (v < 0)
        goto oom;
      p->outputs[k] = v;
    }
    p->n_outputs = (int)g->n_outputs;
  }
  for (int si = 0; si < p->n_steps; si++)
    p->ref_steps += p->steps[si].kind == STEP_REF;
  if (!p->fallback && place(p) != 0)
    goto oom;
  /* outputs that are an arena value's bytes exactly: candidates for the caller's buffers */
  for (int k = 0; !p->fallback && k < p->n_outputs; k++) {
    int v = p->outputs[k], r = v;
    while (p->vals[r].kind == ENG_VIEW)
      r = p->vals[r].base;
    eng_val *x = &p->vals[r];
    size_t bytes = (size_t)acl__op_numel(p->vals[v].rank, p->vals[v].dims) *
                   acl__graph_onnx_elem_size(p->vals[v].onnx_type);
    if (x->kind == ENG_ARENA && x->plain && x->out_slot == 0 && x->bytes == bytes && acl__eng_view_off(p, v) == 0)
      x->out_slot = k + 1;
  }
  if (!p->fallback && acl__eng_profiling() && (p->prof_ms = calloc(2 * ((size_t)p->n_steps + 1), sizeof(double))) == NULL)
    goto oom;
  free(b.skip);
  free(b.uses_left);
  *out = p;
  return 0;
oom:
  rc = ACL_ERROR_BAD_ALLOC;
  acl__diags_add(diags, ACL__DIAG_ERROR, rc, "", "out of memory planning the model's execution");
fail:
  free(b.skip);
  free(b.uses_left);
  if (p != NULL)
    acl__eng_plan_free(p);
  return rc;
}

void acl__eng_plan_free(eng_plan *p) {
  if (p == NULL)
    return;
  while (p->free != NULL) {
    eng_inst *in = p->free;
    p->free = in->next;
    acl__eng_inst_free(p, in);
  }
  for (int i = 0; i < p->n_steps; i++) {
    eng_step *s = &p->steps[i];
    if (s->prim != NULL)
      dnnl_primitive_destroy(s->prim);
    free(s->args);
    free(s->params);
    free(s->ins);
    free(s->outs);
  }
  for (int v = 0; v < p->n_vals; v++)
    if (p->vals[v].kind == ENG_CONST && p->vals[v].konst.owned)
      acl__tensor_release(&p->vals[v].konst);
  free(p->prof_ms);
  free(p->steps);
  free(p->vals);
  free(p->outputs);
  free(p->key);
  pthread_mutex_destroy(&p->lock);
  free(p);
}

/* ---- instances ---------------------------------------------------------------- */

void acl__eng_inst_free(eng_plan *p, eng_inst *in) {
  if (in == NULL)
    return;
  for (int v = 0; in->mem != NULL && v < p->n_vals; v++)
    if (in->mem[v] != NULL)
      dnnl_memory_destroy(in->mem[v]);
  if (in->scratch_mem != NULL)
    dnnl_memory_destroy(in->scratch_mem);
  for (int i = 0; in->args != NULL && i < p->n_steps; i++)
    free(in->args[i]);
  if (in->stream != NULL)
    dnnl_stream_destroy(in->stream);
  free(in->args);
  free(in->mem);
  free(in->ptr);
  free(in->heap);
  if (!in->external)
    free(in->arena);
  free(in);
}

eng_inst *acl__eng_inst_create(acl__engine *e, eng_plan *p, void *arena) {
  eng_inst *in = calloc(1, sizeof(*in));
  if (in == NULL)
    return NULL;
  size_t nv = (size_t)(p->n_vals ? p->n_vals : 1);
  in->mem = calloc(nv, sizeof(*in->mem));
  in->ptr = calloc(nv, sizeof(*in->ptr));
  in->heap = calloc(nv, sizeof(*in->heap));
  in->args = calloc((size_t)(p->n_steps ? p->n_steps : 1), sizeof(*in->args));
  in->external = arena != NULL;
  if (arena != NULL)
    in->arena = arena;
  else if (p->arena_bytes > 0 && posix_memalign(&in->arena, ENG_ALIGN, p->arena_bytes) != 0)
    in->arena = NULL;
  if (in->mem == NULL || in->ptr == NULL || in->heap == NULL || in->args == NULL ||
      (p->arena_bytes > 0 && in->arena == NULL) || dnnl_stream_create(&in->stream, e->dnnl,
                                                                      dnnl_stream_default_flags) != dnnl_success)
    goto fail;
  for (int v = 0; v < p->n_vals; v++) {
    const eng_val *x = &p->vals[v];
    if (x->kind == ENG_ARENA)
      in->ptr[v] = (char *)in->arena + x->offset;
    else if (x->kind == ENG_CONST)
      in->ptr[v] = x->konst.data;
  }
  if (p->scratch_bytes > 0) {
    dnnl_memory_desc_t md;
    dnnl_dims_t d = {(dnnl_dim_t)p->scratch_bytes};
    dnnl_memory_desc_init_by_tag(&md, 1, d, dnnl_u8, dnnl_a);
    if (dnnl_memory_create(&in->scratch_mem, &md, e->dnnl, (char *)in->arena + p->scratch_offset) != dnnl_success)
      goto fail;
  }
  for (int si = 0; si < p->n_steps; si++) {
    const eng_step *s = &p->steps[si];
    if (s->kind != STEP_PRIM)
      continue;
    in->args[si] = calloc((size_t)s->n_args + 1, sizeof(dnnl_exec_arg_t));
    if (in->args[si] == NULL)
      goto fail;
    for (int k = 0; k < s->n_args; k++) {
      int v = s->args[k].val;
      if (in->mem[v] == NULL) {
        int r = v;
        while (p->vals[r].kind == ENG_VIEW)
          r = p->vals[r].base;
        void *h = in->ptr[r] != NULL ? (char *)in->ptr[r] + acl__eng_view_off(p, v) : DNNL_MEMORY_NONE;
        if (dnnl_memory_create(&in->mem[v], &p->vals[v].md, e->dnnl, h) != dnnl_success)
          goto fail;
      }
      in->args[si][k].arg = s->args[k].arg;
      in->args[si][k].memory = in->mem[v];
    }
    if (s->scratch > 0) {
      in->args[si][s->n_args].arg = DNNL_ARG_SCRATCHPAD;
      in->args[si][s->n_args].memory = in->scratch_mem;
    }
  }
  return in;
fail:
  acl__eng_inst_free(p, in);
  return NULL;
}
