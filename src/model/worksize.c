/*
 * worksize.c - the memory sizes of aclmdlQuerySize / aclmdlQuerySizeFromMem
 * and the weight memory of aclmdlLoadFrom{File,Mem}WithMem (see model.h).
 *
 * Weight memory: every initializer's data, each piece starting at a multiple
 * of ACL__MODEL_WEIGHT_ALIGN (64) bytes, in tensor-table order.  String
 * initializers are arrays of host pointers and stay in host memory; they are
 * not counted.  Tensor attributes (Constant nodes) are not initializers and
 * stay with the graph too.
 *
 * Working memory: an estimate, until the engine plans its memory.  It is the
 * sum of the byte sizes of every node output whose type and shape the file
 * declares in full, each rounded up to 64 bytes: what an execution would need
 * if nothing were ever reused.  Node outputs of undeclared or symbolic shape
 * are not counted (their size is only known at run time), so for such models
 * it is a lower estimate; the reference executor allocates its intermediates
 * itself and does not need the memory at all.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common/errmsg.h"
#include "model/model.h"
#include "rt/memory.h"

static size_t align_up(size_t n) {
  return n > SIZE_MAX - (ACL__MODEL_WEIGHT_ALIGN - 1)
             ? SIZE_MAX
             : (n + ACL__MODEL_WEIGHT_ALIGN - 1) / ACL__MODEL_WEIGHT_ALIGN * ACL__MODEL_WEIGHT_ALIGN;
}

static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

static int is_weight(const acl__graph_tensor *t) {
  return t->kind == ACL__TENSOR_INITIALIZER && t->data != NULL && t->data_size > 0 && t->onnx_type != ACL__ONNX_STRING;
}

size_t acl__model_weight_size(const acl__graph *g) {
  size_t n = 0;
  for (size_t i = 0; i < g->n_tensors; i++)
    if (is_weight(&g->tensors[i]))
      n = add_sat(n, align_up(g->tensors[i].data_size));
  return n;
}

size_t acl__model_work_size(const acl__graph *g) {
  size_t n = 0;
  for (size_t i = 0; i < g->n_tensors; i++) {
    const acl__graph_tensor *t = &g->tensors[i];
    if (t->kind != ACL__TENSOR_NODE_OUTPUT || t->rank < 0 || t->onnx_type == 0)
      continue;
    size_t elem = acl__graph_onnx_elem_size(t->onnx_type);
    int64_t numel = acl__graph_numel(t);
    if (elem == 0 || numel < 0)
      continue;
    size_t bytes = (uint64_t)numel > SIZE_MAX / elem ? SIZE_MAX : (size_t)numel * elem;
    n = add_sat(n, align_up(bytes));
  }
  return n;
}

int acl__model_weights_move(const char *api, acl__graph *g, void *mem, size_t size) {
  size_t off = 0;
  for (size_t i = 0; i < g->n_tensors; i++) {
    acl__graph_tensor *t = &g->tensors[i];
    if (!is_weight(t))
      continue;
    if (off > size || t->data_size > size - off)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "weightSize %zu is too small for the weights: tensor \"%s\" needs %zu bytes at offset %zu. "
                       "Remedy: pass at least the weightSize of aclmdlQuerySize",
                       size, t->name, t->data_size, off);
    void *dst = (char *)mem + off;
    aclError rc = aclrtMemcpy(dst, size - off, t->data, t->data_size, ACL_MEMCPY_HOST_TO_DEVICE);
    if (rc != ACL_SUCCESS)
      return acl__fail(api, rc, __FILE__, __LINE__,
                       "copying weight \"%s\" (%zu bytes) into the weight memory at %p failed (aclrtMemcpy: %s)",
                       t->name, t->data_size, dst, aclGetRecentErrMsg());
    free(t->data);
    t->data = acl__mem_dev_ptr(dst); /* read by the engine on the device (rt/memory.h) */
    off += align_up(t->data_size);
  }
  return 0;
}

void acl__model_weights_forget(acl__graph *g, const void *mem, size_t size) {
  /* as acl__model_weights_move stored them, even if the device closed since */
  const char *lo = acl__mem_dev_ptr_ever(mem), *hi = lo + size;
  for (size_t i = 0; i < g->n_tensors; i++) {
    acl__graph_tensor *t = &g->tensors[i];
    if (t->data != NULL && (const char *)t->data >= lo && (const char *)t->data < hi)
      t->data = NULL;
  }
}
