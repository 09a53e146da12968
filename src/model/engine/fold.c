/*
 * fold.c - shapes and constants by running reference kernels: a node whose
 * inputs are all constant is run once while the plan is built (folding),
 * any other node that oneDNN does not take is run once on zero-filled
 * stand-ins to learn its output shapes, and the nodes computing a pattern's
 * shape inputs are folded ahead of the node order when the pattern asks.
 */
#include "model/engine/engine_internal.h"

#include <stdlib.h>
#include <string.h>

/* Ops whose output shape depends on data however their inputs are given. */
static const char *const data_shaped[] = {"NonZero", "Unique", "NonMaxSuppression", "StringSplit", "RegexFullMatch",
                                          NULL};
/* Ops never folded (not deterministic). */
static const char *const random_ops[] = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                                         "Bernoulli", "Multinomial", NULL};
/* Ops whose output depends only on the input's shape: folded once shapes are known. */
static const char *const shape_only[] = {"Shape", "Size", NULL};

static int in_list(const char *const *list, const char *op) {
  for (int i = 0; list[i] != NULL; i++)
    if (strcmp(list[i], op) == 0)
      return 1;
  return 0;
}

int acl__eng_op_data_shaped(const char *op) { return in_list(data_shaped, op); }
int acl__eng_op_random(const char *op) { return in_list(random_ops, op); }
int acl__eng_op_shape_only(const char *op) { return in_list(shape_only, op); }

void acl__eng_val_set_shape(eng_val *x, const acl__tensor *t) {
  x->onnx_type = t->onnx_type;
  x->rank = t->rank;
  memcpy(x->dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
  x->bytes = (size_t)acl__op_numel(t->rank, t->dims) * acl__graph_onnx_elem_size(t->onnx_type);
  x->plain = 1;
  if (t->onnx_type == ACL__ONNX_FLOAT && t->rank <= DNNL_MAX_NDIMS)
    acl__eng_plain_md(&x->md, t->rank, t->dims);
}

/* Runs node ni's reference kernel on the plan's constants and on zero-filled
 * stand-ins for everything else.  With `keep`, the outputs become CONST
 * values (folding); otherwise only their types and shapes are recorded. */
int acl__eng_probe(eng_build *b, int ni, const int *ins, size_t nin, int keep) {
  acl__engine *e = b->e;
  eng_plan *p = b->p;
  const acl__graph_node *n = &e->g->nodes[ni];
  int rc = 0;
  size_t nout = n->n_outputs;
  acl__tensor *tmp = calloc(nin ? nin : 1, sizeof(*tmp));
  const acl__tensor **pin = calloc(nin ? nin : 1, sizeof(*pin));
  acl__tensor *outs = calloc(nout ? nout : 1, sizeof(*outs));
  if (tmp == NULL || pin == NULL || outs == NULL) {
    rc = ACL_ERROR_BAD_ALLOC;
    acl__diags_add(b->diags, ACL__DIAG_ERROR, rc, "", "out of memory");
    goto done;
  }
  for (size_t k = 0; k < nin; k++) {
    int v = ins[k];
    if (v < 0)
      continue;
    eng_val *x = &p->vals[v];
    if (x->kind == ENG_CONST) {
      pin[k] = &x->konst;
    } else {
      if (acl__tensor_alloc(&tmp[k], x->onnx_type, x->rank, x->dims) != 0) {
        rc = ACL_ERROR_BAD_ALLOC;
        acl__diags_add(b->diags, ACL__DIAG_ERROR, rc, "", "out of memory");
        goto done;
      }
      pin[k] = &tmp[k];
    }
  }
  acl__op_ctx ctx = {e->g, n, ni, e->opset, pin, nin, outs, nout, b->diags};
  rc = acl__exec_kernel(e->g, n)(&ctx);
  for (size_t k = 0; rc == 0 && k < nout; k++) {
    int v = acl__eng_resolve(e, n->outputs[k]);
    if (v < 0)
      continue;
    if (outs[k].is_sequence || acl__graph_onnx_elem_size(outs[k].onnx_type) == 0 ||
        outs[k].rank > ACL__EXEC_MAX_RANK) {
      p->fallback = 1; /* not a dense numeric tensor: the reference executor's business */
      break;
    }
    if (outs[k].data == NULL) {
      rc = acl__op_fail(&ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "output %zu not produced", k);
      break;
    }
    eng_val *x = &p->vals[v];
    acl__eng_val_set_shape(x, &outs[k]);
    if (keep) {
      x->kind = ENG_CONST;
      x->konst = outs[k];
      memset(&outs[k], 0, sizeof(outs[k]));
    }
  }
done:
  for (size_t k = 0; k < nout && outs != NULL; k++)
    acl__tensor_release(&outs[k]);
  for (size_t k = 0; k < nin && tmp != NULL; k++)
    acl__tensor_release(&tmp[k]);
  free(tmp);
  free((void *)pin);
  free(outs);
  return rc;
}

/* Pattern fusions look ahead at nodes the main loop has not reached, and an
 * exported model computes their shape inputs at run time (Shape -> Gather ->
 * Unsqueeze -> Concat -> Reshape) between the nodes of the pattern: this folds
 * the nodes making value v now, as the main loop would when it got there,
 * when they depend only on constants and on the dimensions of values already
 * defined.  Returns 1 when v is a constant (then or already). */
int acl__eng_fold_ahead(eng_build *b, int v, int depth) {
  acl__engine *e = b->e;
  const acl__graph *g = e->g;
  eng_plan *p = b->p;
  if (v < 0 || v >= p->n_vals)
    return 0;
  if (p->vals[v].kind == ENG_CONST)
    return 1;
  if (depth > 16 || v >= (int)g->n_tensors)
    return 0;
  int j = g->tensors[v].producer;
  if (j <= b->node || j >= (int)g->n_nodes || e->dead[j] || b->skip[j] || e->conv_w[j] >= 0 || e->conv_b[j] >= 0)
    return 0;
  const acl__graph_node *n = &g->nodes[j];
  if (n->domain[0] != '\0' || n->n_inputs > 16 || acl__eng_op_data_shaped(n->op_type) ||
      acl__eng_op_random(n->op_type))
    return 0;
  int dims_only = acl__eng_op_shape_only(n->op_type), ins[16];
  for (size_t k = 0; k < n->n_inputs; k++) {
    ins[k] = acl__eng_resolve(e, n->inputs[k]);
    if (ins[k] < 0)
      continue;
    if (dims_only ? p->vals[ins[k]].kind == 0 : !acl__eng_fold_ahead(b, ins[k], depth + 1))
      return 0; /* dimensions not known yet, or not a constant */
  }
  int fallback = p->fallback;
  if (acl__eng_probe(b, j, ins, n->n_inputs, 1) != 0 || p->fallback != fallback) {
    acl__diags_free(b->diags); /* the main loop meets it again and reports it */
    p->fallback = fallback;
    return 0;
  }
  b->skip[j] = 1; /* done: the main loop passes it */
  for (size_t k = 0; k < n->n_inputs; k++)
    if (ins[k] >= 0)
      b->uses_left[ins[k]]--;
  return p->vals[v].kind == ENG_CONST;
}
