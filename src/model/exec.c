/*
 * exec.c - the reference executor (see exec.h): checks every node has a
 * kernel, binds inputs and initializers, then runs the nodes in order, each
 * output in its own buffer, and copies the graph outputs out.
 */
#include "model/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

int64_t acl__tensor_numel(const acl__tensor *t) {
  return acl__op_numel(t->rank, t->dims);
}

int acl__tensor_alloc(acl__tensor *t, int onnx_type, int rank, const int64_t *dims) {
  size_t esz = acl__graph_onnx_elem_size(onnx_type);
  if (rank < 0 || rank > ACL__EXEC_MAX_RANK || esz == 0)
    return -1;
  size_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0 || (dims[i] > 0 && n > SIZE_MAX / 2 / esz / (size_t)dims[i]))
      return -1;
    n *= (size_t)dims[i];
  }
  void *p = calloc(n ? n : 1, esz);
  if (p == NULL)
    return -1;
  memset(t, 0, sizeof(*t));
  t->onnx_type = onnx_type;
  t->rank = rank;
  if (rank > 0)
    memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
  t->data = p;
  t->size = n * esz;
  t->owned = 1;
  return 0;
}

void acl__tensor_release(acl__tensor *t) {
  if (t->owned && t->is_sequence) {
    for (size_t i = 0; i < t->n_items; i++)
      acl__tensor_release(&t->items[i]);
    free(t->items);
  } else if (t->owned) {
    if (t->onnx_type == ACL__ONNX_STRING && t->data != NULL)
      for (size_t i = 0; i < t->size / sizeof(char *); i++)
        free(((char **)t->data)[i]);
    free(t->data);
  }
  memset(t, 0, sizeof(*t));
}

int acl__tensor_alloc_strings(acl__tensor *t, int rank, const int64_t *dims) {
  if (rank < 0 || rank > ACL__EXEC_MAX_RANK)
    return -1;
  size_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0 || (dims[i] > 0 && n > SIZE_MAX / 2 / sizeof(char *) / (size_t)dims[i]))
      return -1;
    n *= (size_t)dims[i];
  }
  void *p = calloc(n ? n : 1, sizeof(char *));
  if (p == NULL)
    return -1;
  memset(t, 0, sizeof(*t));
  t->onnx_type = ACL__ONNX_STRING;
  t->rank = rank;
  if (rank > 0)
    memcpy(t->dims, dims, (size_t)rank * sizeof(int64_t));
  t->data = p;
  t->size = n * sizeof(char *);
  t->owned = 1;
  return 0;
}

int acl__tensor_alloc_sequence(acl__tensor *t, int elem_type) {
  memset(t, 0, sizeof(*t));
  t->items = calloc(1, sizeof(*t->items)); /* never NULL: an empty sequence is a value */
  if (t->items == NULL)
    return -1;
  t->is_sequence = 1;
  t->onnx_type = elem_type;
  t->owned = 1;
  return 0;
}

int acl__tensor_seq_insert(acl__tensor *seq, size_t pos, const acl__tensor *item) {
  if (!seq->is_sequence || pos > seq->n_items)
    return -1;
  acl__tensor *grown = realloc(seq->items, (seq->n_items + 1) * sizeof(*grown));
  if (grown == NULL)
    return -1;
  seq->items = grown;
  acl__tensor copy;
  if (acl__tensor_copy(&copy, item) != 0)
    return -1;
  memmove(&grown[pos + 1], &grown[pos], (seq->n_items - pos) * sizeof(*grown));
  grown[pos] = copy;
  seq->n_items++;
  if (seq->onnx_type == 0)
    seq->onnx_type = item->onnx_type;
  return 0;
}

int acl__tensor_copy(acl__tensor *dst, const acl__tensor *src) {
  memset(dst, 0, sizeof(*dst));
  if (src->is_sequence) {
    if (acl__tensor_alloc_sequence(dst, src->onnx_type) != 0)
      return -1;
    for (size_t i = 0; i < src->n_items; i++)
      if (acl__tensor_seq_insert(dst, i, &src->items[i]) != 0) {
        acl__tensor_release(dst);
        return -1;
      }
    return 0;
  }
  if (src->onnx_type == ACL__ONNX_STRING) {
    if (acl__tensor_alloc_strings(dst, src->rank, src->dims) != 0)
      return -1;
    int64_t n = acl__tensor_numel(src);
    for (int64_t i = 0; i < n; i++) {
      char **slot = &((char **)dst->data)[i];
      *slot = strdup(acl__tensor_str(src, i));
      if (*slot == NULL) {
        acl__tensor_release(dst);
        return -1;
      }
    }
    return 0;
  }
  if (acl__tensor_alloc(dst, src->onnx_type, src->rank, src->dims) != 0)
    return -1;
  if (src->size > 0)
    memcpy(dst->data, src->data, src->size < dst->size ? src->size : dst->size);
  return 0;
}

int acl__tensor_present(const acl__tensor *t) {
  return t->data != NULL || (t->is_sequence && t->items != NULL);
}

const char *acl__tensor_str(const acl__tensor *t, int64_t i) {
  const char *s = ((char *const *)t->data)[i];
  return s != NULL ? s : "";
}

static int is_default_domain(const char *d) {
  return d[0] == '\0' || strcmp(d, "ai.onnx") == 0;
}

acl__exec_kernel_fn acl__exec_kernel(const acl__graph *g, const acl__graph_node *n) {
  int64_t v = is_default_domain(n->domain) ? acl__graph_opset_version(g, "") : acl__graph_opset_version(g, n->domain);
  return acl__op_lookup_domain(n->domain, n->op_type, v);
}

int acl__exec_check_supported(const acl__graph *g, acl__diags *diags) {
  int64_t opset = acl__graph_opset_version(g, "");
  char msg[1024];
  size_t len = 0;
  int missing = 0;
  msg[0] = '\0';
  for (size_t i = 0; i < g->n_nodes; i++) {
    const acl__graph_node *n = &g->nodes[i];
    int ok = acl__exec_kernel(g, n) != NULL;
    if (ok)
      continue;
    /* list each (domain, op type) once */
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) {
      const acl__graph_node *m = &g->nodes[j];
      seen = strcmp(m->op_type, n->op_type) == 0 && strcmp(m->domain, n->domain) == 0;
    }
    if (seen)
      continue;
    int64_t v = is_default_domain(n->domain) ? opset : acl__graph_opset_version(g, n->domain);
    if (len < sizeof(msg))
      len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s%s%s (opset %lld)", missing ? ", " : "",
                              is_default_domain(n->domain) ? "" : n->domain,
                              is_default_domain(n->domain) ? "" : ".", n->op_type, (long long)v);
    missing++;
  }
  if (missing == 0)
    return 0;
  acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_PARSE_MODEL, "graph.node",
                 "unsupported operator%s: %s", missing > 1 ? "s" : "", msg);
  return ACL_ERROR_PARSE_MODEL;
}

/* A borrowed view of a graph tensor's constant data. */
static int bind_const(const acl__graph_tensor *gt, acl__tensor *t) {
  if (gt->rank < 0 || gt->rank > ACL__EXEC_MAX_RANK)
    return -1;
  memset(t, 0, sizeof(*t));
  t->onnx_type = gt->onnx_type;
  t->rank = gt->rank;
  for (int i = 0; i < gt->rank; i++)
    t->dims[i] = gt->dims[i].value;
  t->data = gt->data;
  t->size = gt->data_size;
  t->owned = 0;
  return 0;
}

static int check_input(const acl__graph *g, size_t k, const acl__tensor *t, acl__diags *d) {
  const acl__graph_tensor *gt = &g->tensors[g->inputs[k]];
  char path[256];
  snprintf(path, sizeof(path), "input[%zu] (\"%s\")", k, gt->name);
  if (gt->is_sequence != t->is_sequence) {
    acl__diags_add(d, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, path, "a %s was given, the model expects a %s",
                   t->is_sequence ? "sequence" : "tensor", gt->is_sequence ? "sequence" : "tensor");
    return ACL_ERROR_INVALID_PARAM;
  }
  if (t->is_sequence)
    return 0; /* the kernels check the items */
  if (gt->onnx_type != 0 && gt->onnx_type != t->onnx_type) {
    acl__diags_add(d, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, path, "data type %s, the model expects %s",
                   acl__graph_onnx_type_name(t->onnx_type), acl__graph_onnx_type_name(gt->onnx_type));
    return ACL_ERROR_INVALID_PARAM;
  }
  size_t esz = t->onnx_type == ACL__ONNX_STRING ? sizeof(char *) : acl__graph_onnx_elem_size(t->onnx_type);
  if (esz == 0 || t->rank < 0 || t->rank > ACL__EXEC_MAX_RANK || (size_t)acl__tensor_numel(t) * esz > t->size ||
      (t->data == NULL && t->size > 0)) {
    acl__diags_add(d, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, path,
                   "unsupported type or rank, or buffer smaller than its shape");
    return ACL_ERROR_INVALID_PARAM;
  }
  int bad = gt->rank >= 0 && gt->rank != t->rank;
  for (int i = 0; !bad && gt->rank >= 0 && i < gt->rank; i++)
    bad = gt->dims[i].value >= 0 && gt->dims[i].value != t->dims[i];
  if (bad) {
    acl__diags_add(d, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, path, "shape does not match the model's");
    return ACL_ERROR_INVALID_PARAM;
  }
  return 0;
}

/* Tells the hook that node i ran: its outputs are outs[] when the kernel
 * failed, else their values in vals. */
static void notify(const acl__exec_hook *hook, const acl__graph *g, size_t i, const acl__tensor **ins,
                   const acl__tensor *outs, const acl__tensor **outp, const acl__tensor *vals, int rc,
                   acl__diags *diags) {
  const acl__graph_node *n = &g->nodes[i];
  for (size_t k = 0; k < n->n_outputs; k++) {
    const acl__tensor *t = rc != 0 ? &outs[k] : n->outputs[k] >= 0 ? &vals[n->outputs[k]] : NULL;
    outp[k] = t != NULL && acl__tensor_present(t) ? t : NULL;
  }
  acl__exec_node_event ev = {g, i, ins, n->n_inputs, outp, n->n_outputs, rc, vals, diags};
  hook->after_node(hook->user, &ev);
}

int acl__exec_run(const acl__graph *g, const acl__tensor *inputs, size_t n_inputs,
                  acl__tensor *outputs, size_t n_outputs, acl__diags *diags) {
  return acl__exec_run_hooked(g, inputs, n_inputs, outputs, n_outputs, NULL, diags);
}

int acl__exec_run_hooked(const acl__graph *g, const acl__tensor *inputs, size_t n_inputs, acl__tensor *outputs,
                         size_t n_outputs, const acl__exec_hook *hook, acl__diags *diags) {
  int rc = 0;
  acl__tensor *vals = NULL, *outs = NULL;
  const acl__tensor **ins = NULL, **outp = NULL;
  for (size_t i = 0; i < n_outputs; i++)
    memset(&outputs[i], 0, sizeof(outputs[i]));
  if (n_inputs != g->n_inputs || n_outputs != g->n_outputs) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_INVALID_PARAM, "",
                   "%zu inputs and %zu outputs given, the model has %zu and %zu", n_inputs, n_outputs,
                   g->n_inputs, g->n_outputs);
    return ACL_ERROR_INVALID_PARAM;
  }
  rc = acl__exec_check_supported(g, diags);
  if (rc != 0)
    return rc;
  size_t max_io = 1;
  for (size_t i = 0; i < g->n_nodes; i++) {
    if (g->nodes[i].n_inputs > max_io)
      max_io = g->nodes[i].n_inputs;
    if (g->nodes[i].n_outputs > max_io)
      max_io = g->nodes[i].n_outputs;
  }
  vals = calloc(g->n_tensors ? g->n_tensors : 1, sizeof(*vals));
  ins = calloc(max_io, sizeof(*ins));
  outs = calloc(max_io, sizeof(*outs));
  if (hook != NULL)
    outp = calloc(max_io, sizeof(*outp));
  if (vals == NULL || ins == NULL || outs == NULL || (hook != NULL && outp == NULL)) {
    acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "", "out of memory");
    rc = ACL_ERROR_BAD_ALLOC;
    goto done;
  }
  for (size_t i = 0; i < g->n_tensors; i++)
    if (g->tensors[i].kind == ACL__TENSOR_INITIALIZER && bind_const(&g->tensors[i], &vals[i]) != 0) {
      acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_PARSE_MODEL, g->tensors[i].name, "rank too large");
      rc = ACL_ERROR_PARSE_MODEL;
      goto done;
    }
  for (size_t k = 0; k < n_inputs; k++) {
    rc = check_input(g, k, &inputs[k], diags);
    if (rc != 0)
      goto done;
    vals[g->inputs[k]] = inputs[k];
    vals[g->inputs[k]].owned = 0;
  }
  int64_t opset = acl__graph_opset_version(g, "");
  for (size_t i = 0; i < g->n_nodes; i++) {
    const acl__graph_node *n = &g->nodes[i];
    for (size_t k = 0; k < n->n_inputs; k++)
      ins[k] = n->inputs[k] >= 0 && acl__tensor_present(&vals[n->inputs[k]]) ? &vals[n->inputs[k]] : NULL;
    memset(outs, 0, n->n_outputs * sizeof(*outs));
    acl__op_ctx ctx = {g, n, (int)i, opset, ins, n->n_inputs, outs, n->n_outputs, diags};
    rc = acl__exec_kernel(g, n)(&ctx);
    if (hook != NULL && rc != 0)
      notify(hook, g, i, ins, outs, outp, vals, rc, diags);
    for (size_t k = 0; k < n->n_outputs; k++) {
      if (rc == 0 && n->outputs[k] >= 0 && !acl__tensor_present(&outs[k]))
        rc = acl__op_fail(&ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "output %zu not produced", k);
      if (rc == 0 && n->outputs[k] >= 0)
        vals[n->outputs[k]] = outs[k];
      else
        acl__tensor_release(&outs[k]);
    }
    if (rc != 0)
      goto done;
    if (hook != NULL)
      notify(hook, g, i, ins, outs, outp, vals, 0, diags);
  }
  for (size_t k = 0; k < n_outputs; k++) {
    const acl__tensor *src = &vals[g->outputs[k]];
    if (!acl__tensor_present(src) || acl__tensor_copy(&outputs[k], src) != 0) {
      acl__diags_add(diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, g->tensors[g->outputs[k]].name,
                     "cannot produce the output");
      rc = ACL_ERROR_BAD_ALLOC;
      for (size_t j = 0; j < n_outputs; j++)
        acl__tensor_release(&outputs[j]);
      goto done;
    }
  }
done:
  if (vals != NULL)
    for (size_t i = 0; i < g->n_tensors; i++)
      acl__tensor_release(&vals[i]);
  free(vals);
  free(ins);
  free(outs);
  free(outp);
  return rc;
}
