/* graph.c - the internal model graph: freeing, lookups and ONNX type facts. */
#include "model/graph.h"

#include <stdlib.h>
#include <string.h>

/* One row per ONNX data type: the aclDataType, the element size, the name. */
static const struct {
  int onnx;
  aclDataType acl;
  size_t size;
  const char *name;
} onnx_types[] = {
  {ACL__ONNX_FLOAT, ACL_FLOAT, 4, "float"},
  {ACL__ONNX_UINT8, ACL_UINT8, 1, "uint8"},
  {ACL__ONNX_INT8, ACL_INT8, 1, "int8"},
  {ACL__ONNX_UINT16, ACL_UINT16, 2, "uint16"},
  {ACL__ONNX_INT16, ACL_INT16, 2, "int16"},
  {ACL__ONNX_INT32, ACL_INT32, 4, "int32"},
  {ACL__ONNX_INT64, ACL_INT64, 8, "int64"},
  {ACL__ONNX_STRING, ACL_STRING, 0, "string"},
  {ACL__ONNX_BOOL, ACL_BOOL, 1, "bool"},
  {ACL__ONNX_FLOAT16, ACL_FLOAT16, 2, "float16"},
  {ACL__ONNX_DOUBLE, ACL_DOUBLE, 8, "double"},
  {ACL__ONNX_UINT32, ACL_UINT32, 4, "uint32"},
  {ACL__ONNX_UINT64, ACL_UINT64, 8, "uint64"},
  {ACL__ONNX_COMPLEX64, ACL_COMPLEX64, 8, "complex64"},
  {ACL__ONNX_COMPLEX128, ACL_COMPLEX128, 16, "complex128"},
  {ACL__ONNX_BFLOAT16, ACL_BF16, 2, "bfloat16"},
};

aclDataType acl__graph_onnx_to_acl(int onnx_type) {
  for (size_t i = 0; i < sizeof(onnx_types) / sizeof(onnx_types[0]); i++)
    if (onnx_types[i].onnx == onnx_type)
      return onnx_types[i].acl;
  return ACL_DT_UNDEFINED;
}

size_t acl__graph_onnx_elem_size(int onnx_type) {
  for (size_t i = 0; i < sizeof(onnx_types) / sizeof(onnx_types[0]); i++)
    if (onnx_types[i].onnx == onnx_type)
      return onnx_types[i].size;
  return 0;
}

const char *acl__graph_onnx_type_name(int onnx_type) {
  for (size_t i = 0; i < sizeof(onnx_types) / sizeof(onnx_types[0]); i++)
    if (onnx_types[i].onnx == onnx_type)
      return onnx_types[i].name;
  return "undefined";
}

int64_t acl__graph_numel(const acl__graph_tensor *t) {
  if (t->rank < 0)
    return -1;
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) {
    int64_t d = t->dims[i].value;
    if (d < 0)
      return -1;
    if (d != 0 && n > INT64_MAX / d)
      return -1;
    n *= d;
  }
  return n;
}

void acl__graph_tensor_clear(acl__graph_tensor *t) {
  if (t == NULL)
    return;
  free(t->name);
  if (t->dims != NULL)
    for (int i = 0; i < t->rank; i++)
      free(t->dims[i].symbol);
  free(t->dims);
  if (t->onnx_type == ACL__ONNX_STRING && t->data != NULL)
    for (size_t i = 0; i < t->data_size / sizeof(char *); i++)
      free(((char **)t->data)[i]);
  free(t->data);
  memset(t, 0, sizeof(*t));
}

static void attr_clear(acl__graph_attr *a) {
  free(a->name);
  free(a->s);
  free(a->floats);
  free(a->ints);
  if (a->strings != NULL)
    for (size_t i = 0; i < a->count; i++)
      free(a->strings[i]);
  free(a->strings);
  if (a->tensor != NULL) {
    acl__graph_tensor_clear(a->tensor);
    free(a->tensor);
  }
}

void acl__graph_free(acl__graph *g) {
  if (g == NULL)
    return;
  free(g->producer_name);
  free(g->graph_name);
  for (size_t i = 0; i < g->n_opsets; i++)
    free(g->opsets[i].domain);
  free(g->opsets);
  for (size_t i = 0; i < g->n_tensors; i++)
    acl__graph_tensor_clear(&g->tensors[i]);
  free(g->tensors);
  free(g->inputs);
  free(g->outputs);
  for (size_t i = 0; i < g->n_nodes; i++) {
    acl__graph_node *n = &g->nodes[i];
    free(n->name);
    free(n->op_type);
    free(n->domain);
    free(n->inputs);
    free(n->outputs);
    for (size_t j = 0; j < n->n_attrs; j++)
      attr_clear(&n->attrs[j]);
    free(n->attrs);
  }
  free(g->nodes);
  free(g->names.slots);
  free(g);
}

static uint64_t name_hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ull;
  }
  return h;
}

int acl__graph_find(const acl__graph *g, const char *name) {
  if (g == NULL || name == NULL || g->names.cap == 0)
    return -1;
  size_t mask = g->names.cap - 1;
  for (size_t i = (size_t)name_hash(name) & mask;; i = (i + 1) & mask) {
    int idx = g->names.slots[i];
    if (idx < 0)
      return -1;
    if (strcmp(g->tensors[idx].name, name) == 0)
      return idx;
  }
}

int64_t acl__graph_opset_version(const acl__graph *g, const char *domain) {
  if (domain == NULL || strcmp(domain, "ai.onnx") == 0)
    domain = "";
  for (size_t i = 0; i < g->n_opsets; i++) {
    const char *d = g->opsets[i].domain;
    if (strcmp(d, "ai.onnx") == 0)
      d = "";
    if (strcmp(d, domain) == 0)
      return g->opsets[i].version;
  }
  return -1;
}

int acl__graph_names_init(acl__graph *g, size_t max_tensors) {
  size_t cap = 16;
  while (cap < 2 * max_tensors + 1) {
    if (cap > SIZE_MAX / 4 / sizeof(int))
      return -1;
    cap *= 2;
  }
  g->names.slots = malloc(cap * sizeof(int));
  if (g->names.slots == NULL)
    return -1;
  memset(g->names.slots, 0xff, cap * sizeof(int)); /* every slot -1 */
  g->names.cap = cap;
  return 0;
}

void acl__graph_names_put(acl__graph *g, int idx) {
  size_t mask = g->names.cap - 1;
  size_t i = (size_t)name_hash(g->tensors[idx].name) & mask;
  while (g->names.slots[i] >= 0)
    i = (i + 1) & mask;
  g->names.slots[i] = idx;
}
