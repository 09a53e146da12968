/*
 * dump.c - dump of aclnn operators: acl.json's "dump_op_switch": "on" (every
 * operator a stream runs) and aclDumpOpTensors (tensors the caller names),
 * docs/dump.md.
 *
 * Each dump is one file in the model dump's format under
 * {dump_path}/{time}/{device id}/, named {op_type}.{op_name}.{task id}.
 * {stream id}.{timestamp} as a model layer's: an operator's inputs as they
 * were before it ran (dump_mode input or all) and its outputs after it
 * (output or all), each gathered from its view (strides, offset) into
 * dense bytes.  op_type is the operator's name without "aclnn" ("Add"),
 * op_name the phase-2 function ("aclnnAdd"); the vendor's names for single
 * operators are not documented.
 *
 * Cost: phase 1 records each tensor's view in the executor only while a
 * dump configuration is active (acl__nn_dump_view), phase 2 gives the task
 * a descriptor only when that configuration dumps operators
 * (acl__nn_dump_attach); without one, nothing here runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnn/nn.h"
#include "common/config_internal.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "dump/dump.h"
#include "model/graph.h"
#include "rt/memory.h"
#include "rt/rt.h"

struct acl__nn_dump {
  acl__dump_cfg *cfg; /* a reference */
  char op_type[128], op_name[128];
  int32_t device;
  uint32_t stream;
  int all;            /* aclDumpOpTensors: every tensor, whatever dump_mode says */
  int n;
  struct {
    int is_input;
    acl__nn_dview v;
    const char *p;    /* element 0 */
    void *copy;       /* gathered bytes */
    size_t size;
  } t[2 * ACL__NN_MAX_SLOTS];
};

void acl__nn_dump_view(aclOpExecutor *ex, int slot, const aclTensor *t) {
  if (!acl__dump_cfg_any())
    return;
  if (ex->views == NULL && (ex->views = calloc(ACL__NN_MAX_SLOTS, sizeof(*ex->views))) == NULL)
    return; /* no dump of this operator */
  acl__nn_dview *v = &ex->views[slot];
  v->set = 1;
  v->dtype = t->dtype;
  v->rank = (int)t->ndim;
  v->off = t->offset;
  for (int k = 0; k < v->rank && k < ACL__NN_MAX_RANK; k++) {
    v->dims[k] = t->dims[k];
    v->st[k] = t->strides[k];
  }
}

static int onnx_type_of(aclDataType dt) {
  for (int o = 1; o <= 16; o++)
    if (acl__graph_onnx_to_acl(o) == dt)
      return o;
  return 0;
}

/* The active configuration when it dumps into a directory (for `ops`: and
 * turns operator dump on), referenced; else NULL. */
static acl__dump_cfg *dump_cfg(int ops) {
  if (!acl__dump_cfg_any())
    return NULL;
  acl__dump_cfg *c = acl__dump_cfg_current();
  if (c != NULL && (c->base == NULL || (ops && !c->op) || !acl__dump_cfg_live(c))) {
    acl__dump_cfg_release(c);
    c = NULL;
  }
  return c;
}

static acl__nn_dump *dump_new(acl__dump_cfg *c, const char *op_type, const char *op_name, const acl__stream *s) {
  acl__nn_dump *d = calloc(1, sizeof(*d));
  if (d == NULL) {
    acl__dump_cfg_release(c);
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: out of host memory; %s is not dumped", op_name);
    return NULL;
  }
  d->cfg = c;
  snprintf(d->op_type, sizeof(d->op_type), "%s", op_type);
  snprintf(d->op_name, sizeof(d->op_name), "%s", op_name);
  d->device = s->dev->id;
  d->stream = (uint32_t)s->id;
  return d;
}

static void dump_add(acl__nn_dump *d, int is_input, const acl__nn_dview *v, const void *base) {
  if (d->n >= 2 * ACL__NN_MAX_SLOTS || base == NULL)
    return;
  d->t[d->n].is_input = is_input;
  d->t[d->n].v = *v;
  d->t[d->n].p = (const char *)acl__mem_dev_ptr((void *)base) + v->off * (int64_t)acl__nn_dtype_size(v->dtype);
  d->n++;
}

acl__nn_dump *acl__nn_dump_attach(const aclOpExecutor *ex, const char *api, const acl__stream *s) {
  if (ex->views == NULL)
    return NULL;
  acl__dump_cfg *c = dump_cfg(1);
  if (c == NULL)
    return NULL;
  acl__nn_dump *d = dump_new(c, strncmp(api, "aclnn", 5) == 0 ? api + 5 : api, api, s);
  if (d == NULL)
    return NULL;
  for (int i = 0; i < ex->n_in; i++)
    if (ex->views[ex->in_slot[i]].set)
      dump_add(d, 1, &ex->views[ex->in_slot[i]], ex->slot[ex->in_slot[i]].addr);
  for (int i = 0; i < ex->n_out; i++)
    if (ex->views[ex->out_slot[i]].set)
      dump_add(d, 0, &ex->views[ex->out_slot[i]], ex->slot[ex->out_slot[i]].addr);
  return d;
}

/* The view's elements, dense, in a new buffer (NULL when out of memory). */
static void *gather(const acl__nn_dview *v, const char *p0, size_t *size) {
  size_t es = acl__nn_dtype_size(v->dtype);
  int64_t n = 1, idx[ACL__NN_MAX_RANK] = {0};
  for (int k = 0; k < v->rank; k++)
    n *= v->dims[k];
  *size = (size_t)n * es;
  char *out = malloc(*size ? *size : 1);
  for (int64_t i = 0; out != NULL && i < n; i++) {
    int64_t off = 0;
    for (int k = 0; k < v->rank; k++)
      off += idx[k] * v->st[k];
    memcpy(out + (size_t)i * es, p0 + off * (int64_t)es, es);
    for (int k = v->rank - 1; k >= 0 && ++idx[k] == v->dims[k]; k--)
      idx[k] = 0;
  }
  return out;
}

static void take(acl__nn_dump *d, int inputs) {
  int mode = d->all ? DUMP_MODE_ALL : d->cfg->mode;
  if ((inputs && mode == DUMP_MODE_OUTPUT) || (!inputs && mode == DUMP_MODE_INPUT))
    return;
  for (int i = 0; i < d->n; i++)
    if (d->t[i].is_input == inputs && d->t[i].copy == NULL)
      d->t[i].copy = gather(&d->t[i].v, d->t[i].p, &d->t[i].size);
}

void acl__nn_dump_before(acl__nn_dump *d) {
  if (d != NULL && acl__dump_cfg_live(d->cfg))
    take(d, 1);
}

void acl__nn_dump_after(acl__nn_dump *d, uint64_t task_id, int rc) {
  if (d == NULL)
    return;
  if (rc == 0 && acl__dump_cfg_live(d->cfg)) {
    take(d, 0);
    acl__dump_tensor t[2 * ACL__NN_MAX_SLOTS];
    int64_t dims[2 * ACL__NN_MAX_SLOTS][ACL__NN_MAX_RANK];
    size_t n = 0;
    for (int i = 0; i < d->n; i++) {
      if (d->t[i].copy == NULL)
        continue;
      memcpy(dims[n], d->t[i].v.dims, sizeof(dims[n]));
      t[n] = (acl__dump_tensor){d->t[i].is_input, onnx_type_of(d->t[i].v.dtype), d->t[i].v.rank, dims[n],
                                d->t[i].copy, d->t[i].size, (uint64_t)(uintptr_t)d->t[i].p};
      n++;
    }
    char dir[4096], name[768], ty[128], nm[128];
    snprintf(dir, sizeof(dir), "%s/%d", d->cfg->base, (int)d->device);
    acl__dump_sanitize(ty, sizeof(ty), d->op_type);
    acl__dump_sanitize(nm, sizeof(nm), d->op_name);
    snprintf(name, sizeof(name), "%s.%s.%llu.%u.%llu", ty, nm, (unsigned long long)task_id, d->stream,
             (unsigned long long)acl__dump_now_us());
    acl__dump_record rec = {dir, name, d->op_name, NULL, NULL, NULL, t, n, d->cfg->stats, !d->cfg->stats, 0,
                            d->cfg->stats_cols};
    acl__dump_write(&rec);
  }
  for (int i = 0; i < d->n; i++) {
    free(d->t[i].copy);
    d->t[i].copy = NULL;
  }
}

void acl__nn_dump_free(acl__nn_dump *d) {
  if (d == NULL)
    return;
  for (int i = 0; i < d->n; i++)
    free(d->t[i].copy);
  acl__dump_cfg_release(d->cfg);
  free(d);
}

/* ---- aclDumpOpTensors ------------------------------------------------------------------ */

typedef struct dump_task {
  acl__nn_dump *d;
} dump_task;

static int dump_task_run(acl__task *t) {
  dump_task *k = acl__task_payload(t);
  acl__nn_dump_before(k->d);
  acl__nn_dump_after(k->d, t->seq, 0);
  return 0;
}

static void dump_task_release(acl__task *t) {
  dump_task *k = acl__task_payload(t);
  acl__nn_dump_free(k->d);
  free(t);
}

aclnnStatus acl__nn_dump_tensors(const char *api, const char *op_type, const char *op_name, aclTensor **tensors,
                                 size_t n_in, size_t n_out, acl__stream *s) {
  acl__dump_cfg *c = dump_cfg(0);
  if (c == NULL)
    return ACLNN_SUCCESS; /* dump is off: nothing to write */
  if (n_in + n_out > 2 * ACL__NN_MAX_SLOTS) {
    acl__dump_cfg_release(c);
    return acl__fail(api, ACLNN_ERR_PARAM_INVALID, __FILE__, __LINE__, "%zu tensors: at most %d in one dump",
                     n_in + n_out, 2 * ACL__NN_MAX_SLOTS);
  }
  acl__nn_dump *d = dump_new(c, op_type, op_name, s);
  if (d == NULL)
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for the dump");
  d->all = 1;
  for (size_t i = 0; i < n_in + n_out; i++) {
    const aclTensor *t = tensors[i];
    acl__nn_dview v = {1, t->dtype, (int)t->ndim, {0}, {0}, t->offset};
    for (int k = 0; k < v.rank && k < ACL__NN_MAX_RANK; k++) {
      v.dims[k] = t->dims[k];
      v.st[k] = t->strides[k];
    }
    int64_t n = acl__nn_numel(t), es = (int64_t)acl__nn_dtype_size(t->dtype), lo = t->offset * es, hi = lo;
    for (int k = 0; k < v.rank; k++) {
      int64_t span = (v.dims[k] - 1) * v.st[k] * es;
      *(span < 0 ? &lo : &hi) += span;
    }
    int rc = n <= 0 ? 0 : es == 0 ? ACLNN_ERR_PARAM_INVALID
                                  : acl__nn_check_memory(api, i < n_in ? "an input tensor" : "an output tensor",
                                                         t->data, lo, hi + es, t->offset * es, (size_t)es, s->dev);
    if (rc != 0) {
      acl__nn_dump_free(d);
      return es == 0 ? acl__fail(api, rc, __FILE__, __LINE__, "tensor %zu: type %s cannot be dumped", i,
                                 acl__nn_dtype_name(t->dtype))
                     : rc;
    }
    if (n > 0)
      dump_add(d, i < n_in, &v, t->data);
  }
  acl__task *t = acl__task_new(sizeof(dump_task), dump_task_run, api);
  if (t == NULL) {
    acl__nn_dump_free(d);
    return acl__fail(api, ACLNN_ERR_INNER, __FILE__, __LINE__, "out of host memory for the task");
  }
  ((dump_task *)acl__task_payload(t))->d = d;
  t->release = dump_task_release;
  if (acl__stream_submit(s, t) != 0)
    return acl__fail(api, ACLNN_ERR_RUNTIME_ERROR, __FILE__, __LINE__,
                     "stream %d does not take tasks (it is being destroyed, or host memory ran out)", s->id);
  return ACLNN_SUCCESS;
}
