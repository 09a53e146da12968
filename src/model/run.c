/*
 * run.c - executing a loaded model as a stream task (see run.h).
 *
 * Inputs are read in place (the task runs with device-memory access); each
 * output comes from the executor in its own host buffer and is copied into
 * the caller's device buffer once every output has been checked, so a failed
 * execution leaves the output buffers untouched.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "common/diag.h"
#include "common/errmsg.h"
#include "common/log.h"
#include "dump/dump.h"
#include "model/exec.h"
#include "prof/prof.h"
#include "model/gears.h"
#include "model/graph.h"
#include "model/io_data.h"
#include "model/engine/engine.h"
#include "model/run.h"
#include "rt/memory.h"

typedef struct run_out {
  void *addr;
  size_t size;    /* the buffer's */
  size_t expect;  /* the exact bytes the model declares; 0 when not fully declared (dynamic) */
} run_out;

typedef struct run_task {
  acl__task t; /* first: the stream frees the task through it */
  acl__model *m;
  aclmdlDataset *output;
  acl__model_run_result *result;
  size_t n_in, n_out;
  acl__tensor *in;  /* data points into the caller's device buffers */
  run_out *out;
  int threads;      /* the engine's thread budget: the device's executor threads */
} run_task;

static unsigned char empty_tensor_byte; /* data of a 0-byte input */

/* "[1,3,224,224]"; "[]" for a scalar, "[?]"-free: -1 is printed as -1. */
static void fmt_shape(char *buf, size_t n, int rank, const int64_t *dims) {
  size_t len = 0;
  len += (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, i ? "," : "", dims[i]);
  if (len < n)
    snprintf(buf + len, n - len, "]");
}

static void fmt_graph_shape(char *buf, size_t n, const acl__graph_tensor *gt) {
  if (gt->rank < 0) {
    snprintf(buf, n, "(shape not declared)");
    return;
  }
  int64_t dims[ACL__EXEC_MAX_RANK];
  int rank = gt->rank > ACL__EXEC_MAX_RANK ? ACL__EXEC_MAX_RANK : gt->rank;
  for (int i = 0; i < rank; i++)
    dims[i] = gt->dims[i].value >= 0 ? gt->dims[i].value : -1;
  fmt_shape(buf, n, rank, dims);
}

static const char *tname(const acl__graph_tensor *gt) { return gt->name != NULL ? gt->name : ""; }

/* The buffer of `kind` `i` must be `bytes` bytes of device memory of m's device. */
static int check_device_mem(const char *api, int code, const acl__model *m, const char *kind, size_t i,
                            const char *name, const void *addr, size_t bytes) {
  acl__ptr_info info;
  acl__mem_classify(addr, &info);
  if (info.kind == ACL__PTR_HOST || info.kind == ACL__PTR_PINNED_HOST)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "%s %zu (\"%s\") must be device memory from aclrtMalloc, but %p is %s host memory. Remedy: "
                     "aclrtMalloc %zu bytes and copy the data with aclrtMemcpy (ACL_MEMCPY_HOST_TO_DEVICE for an "
                     "input, DEVICE_TO_HOST to read an output back)",
                     kind, i, name, addr, info.kind == ACL__PTR_HOST ? "pageable" : "pinned (aclrtMallocHost)",
                     bytes);
  if (info.kind == ACL__PTR_DEVICE_UNALLOCATED)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "%s %zu (\"%s\"): %p lies in device memory but not in a live allocation (freed with "
                     "aclrtFree?)", kind, i, name, addr);
  if (info.dev != m->ctx->dev)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "%s %zu (\"%s\"): %p is memory of device %d, but model %u was loaded on device %d", kind, i,
                     name, addr, info.dev != NULL ? (int)info.dev->id : -1, m->id, (int)m->device_id);
  if (info.offset > info.alloc_size || bytes > info.alloc_size - info.offset)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "%s %zu (\"%s\"): %zu bytes at %p run past the end of its allocation (offset %zu of a "
                     "%zu-byte allocation at %p)", kind, i, name, bytes, addr, info.offset, info.alloc_size,
                     info.alloc_base);
  return 0;
}

/* at_least: a gear input, whose buffer is sized for the largest gear and
 * holds the chosen gear's data in its first bytes. */
static int check_input(const char *api, const acl__model *m, const aclmdlDataset *ds, size_t i, int at_least,
                       acl__tensor *t) {
  const int code = ACL_ERROR_MODEL_INPUT_NOT_MATCH;
  const acl__graph *g = m->graph;
  const acl__graph_tensor *gt = &g->tensors[g->inputs[i]];
  const char *name = tname(gt);
  aclDataBuffer *buf = acl__ds_buffer(ds, i);
  if (acl__data_buffer_check(api, "an input dataset buffer", buf) != 0)
    return code;
  void *addr = buf->data;
  size_t size = buf->length;
  const aclTensorDesc *desc = acl__ds_desc(ds, i);
  char decl[256];
  fmt_graph_shape(decl, sizeof(decl), gt);
  size_t elem = gt->onnx_type != 0 ? acl__graph_onnx_elem_size(gt->onnx_type) : 0;
  if (elem == 0)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "input %zu (\"%s\") has data type %s, which openacl cannot execute", i, name,
                     gt->onnx_type != 0 ? acl__graph_onnx_type_name(gt->onnx_type) : "(not declared)");
  if (gt->rank > ACL__EXEC_MAX_RANK)
    return acl__fail(api, code, __FILE__, __LINE__, "input %zu (\"%s\") has %d dimensions; at most %d are supported",
                     i, name, gt->rank, ACL__EXEC_MAX_RANK);
  memset(t, 0, sizeof(*t));
  t->onnx_type = gt->onnx_type;
  int dynamic = gt->rank < 0;
  for (int k = 0; k < gt->rank; k++)
    if (gt->dims[k].value < 0)
      dynamic = 1;
  const char *type = acl__graph_onnx_type_name(gt->onnx_type);
  if (desc != NULL) {
    aclDataType dt = desc->type;
    if (dt != gt->dtype)
      return acl__fail(api, code, __FILE__, __LINE__,
                       "input %zu (\"%s\"): the dataset's tensor descriptor has aclDataType %d, but the model's "
                       "input is %s (aclDataType %d)", i, name, (int)dt, type, (int)gt->dtype);
    size_t nd = acl__td_unknown_rank(desc) ? (size_t)ACL_UNKNOWN_RANK : desc->ndims;
    if (nd == ACL_UNKNOWN_RANK || nd > ACL__EXEC_MAX_RANK || (gt->rank >= 0 && nd != (size_t)gt->rank))
      return acl__fail(api, code, __FILE__, __LINE__,
                       "input %zu (\"%s\"): the dataset's tensor descriptor has %s%zu dimensions, but the model's "
                       "input is %s %s", i, name, nd == ACL_UNKNOWN_RANK ? "an unknown number of (-2) " : "",
                       nd == ACL_UNKNOWN_RANK ? (size_t)0 : nd, type, decl);
    t->rank = (int)nd;
    for (size_t k = 0; k < nd; k++)
      t->dims[k] = desc->dims[k];
    char got[256];
    fmt_shape(got, sizeof(got), t->rank, t->dims);
    for (int k = 0; k < t->rank; k++)
      if (t->dims[k] < 0 || (gt->rank >= 0 && gt->dims[k].value >= 0 && gt->dims[k].value != t->dims[k]))
        return acl__fail(api, code, __FILE__, __LINE__,
                         "input %zu (\"%s\"): the dataset's tensor descriptor has shape %s, which does not fit the "
                         "model's %s %s (dimension %d)%s", i, name, got, type, decl, k,
                         t->dims[k] < 0 ? ": give the actual size of every dimension" : "");
  } else if (dynamic) {
    return acl__fail(api, code, __FILE__, __LINE__,
                     "input %zu (\"%s\") is %s %s, with dimensions only known at run time. Remedy: describe the "
                     "actual shape with aclCreateTensorDesc and aclmdlSetDatasetTensorDesc(input, desc, %zu)", i,
                     name, type, decl, i);
  } else {
    t->rank = gt->rank;
    for (int k = 0; k < gt->rank; k++)
      t->dims[k] = gt->dims[k].value;
  }
  size_t bytes = elem;
  for (int k = 0; k < t->rank; k++) {
    if (t->dims[k] != 0 && (uint64_t)t->dims[k] > SIZE_MAX / (bytes ? bytes : 1))
      return acl__fail(api, code, __FILE__, __LINE__, "input %zu (\"%s\"): the shape's byte size overflows", i,
                       name);
    bytes *= (size_t)t->dims[k];
  }
  char shape[256];
  fmt_shape(shape, sizeof(shape), t->rank, t->dims);
  if (at_least ? size < bytes : size != bytes)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "input %zu (\"%s\", %s %s) needs a buffer of %s%zu bytes, but the dataset's buffer holds %zu bytes",
                     i, name, type, shape, at_least ? "at least " : "", bytes, size);
  if (bytes > 0) {
    if (addr == NULL)
      return acl__fail(api, code, __FILE__, __LINE__, "input %zu (\"%s\"): the buffer's address is NULL", i, name);
    int rc = check_device_mem(api, code, m, "input", i, name, addr, bytes);
    if (rc != 0)
      return rc;
  }
  t->data = bytes > 0 ? acl__mem_dev_ptr(addr) : &empty_tensor_byte; /* read on the device (memory.h) */
  t->size = bytes;
  t->owned = 0;
  return 0;
}

/* gear: a model with gears, whose outputs accept any buffer big enough for
 * the chosen gear's result (checked when the task has run). */
static int check_output(const char *api, const acl__model *m, const aclmdlDataset *ds, size_t i, int gear,
                        run_out *o) {
  const int code = ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
  const acl__graph *g = m->graph;
  const acl__graph_tensor *gt = &g->tensors[g->outputs[i]];
  const char *name = tname(gt);
  aclDataBuffer *buf = acl__ds_buffer(ds, i);
  if (acl__data_buffer_check(api, "an output dataset buffer", buf) != 0)
    return code;
  o->addr = buf->data;
  o->size = buf->length;
  o->expect = m->io.outputs[i].size;
  char decl[256];
  fmt_graph_shape(decl, sizeof(decl), gt);
  const char *type = gt->onnx_type != 0 ? acl__graph_onnx_type_name(gt->onnx_type) : "(type not declared)";
  if (o->addr == NULL && o->size == 0)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "output %zu (\"%s\", %s %s) is an empty buffer (NULL, 0); openacl does not allocate output "
                     "memory for the model. Remedy: aclrtMalloc a buffer of aclmdlGetOutputSizeByIndex bytes (%zu) "
                     "and pass it", i, name, type, decl, o->expect);
  if (gear)
    o->expect = 0;
  if (o->expect != 0 && o->size != o->expect)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "output %zu (\"%s\", %s %s) needs a buffer of %zu bytes, but the dataset's buffer holds %zu bytes",
                     i, name, type, decl, o->expect, o->size);
  if (o->addr == NULL)
    return acl__fail(api, code, __FILE__, __LINE__, "output %zu (\"%s\"): the buffer's address is NULL", i, name);
  return check_device_mem(api, code, m, "output", i, name, o->addr, o->size);
}

/* The executor's output shape differs from the declared one. */
static int shape_differs(const acl__graph_tensor *gt, const acl__tensor *t) {
  if (gt->rank != t->rank)
    return 1;
  for (int k = 0; k < t->rank; k++)
    if (gt->dims[k].value != t->dims[k])
      return 1;
  return 0;
}

/* m's engine, made on first use (on a thread with device-memory access,
 * because the weights may be in device memory); NULL with rc 0 when
 * OPENACL_MODEL_ENGINE=reference leaves the graph to the reference executor. */
static acl__engine *engine_of(acl__model *m, int *rc, acl__diags *diags) {
  acl__engine *e = __atomic_load_n(&m->engine, __ATOMIC_ACQUIRE);
  *rc = 0;
  if (e == NULL && acl__engine_enabled()) {
    *rc = acl__engine_create(m->graph, m->precision, &e, diags);
    if (*rc != 0)
      return NULL;
    /* the graph owns its weights: the engine may keep only its copies; not under a dump, which may run the
     * reference executor right after this engine's first execution (exception dump) */
    if (m->weight_mem == NULL && __atomic_load_n(&m->dump, __ATOMIC_ACQUIRE) == NULL)
      acl__engine_allow_weight_trim(e);
    acl__engine *expected = NULL;
    if (!__atomic_compare_exchange_n(&m->engine, &expected, e, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      acl__engine_destroy(e); /* another execution made it first */
      e = expected;
    }
  }
  return e;
}

/* Runs the model on its engine, or on the reference executor. */
static int run_engine(run_task *r, acl__tensor *outs, acl__diags *diags) {
  acl__model *m = r->m;
  int rc = 0;
  acl__engine *e = engine_of(m, &rc, diags);
  if (rc != 0)
    return rc;
  if (e == NULL) {
    memset(outs, 0, r->n_out * sizeof(*outs)); /* no buffers of the caller's here */
    return acl__exec_run(m->graph, r->in, r->n_in, outs, r->n_out, diags);
  }
  return acl__engine_run(e, r->in, r->n_in, outs, r->n_out, r->threads, acl__mem_dev_ptr(m->work_mem), m->work_size,
                         diags);
}

/* run_engine on the engine's thread (acl__engine_call_home): that thread is
 * no executor, so it opens device-memory access for the execution itself. */
typedef struct run_home {
  run_task *r;
  acl__tensor *outs;
  acl__diags *diags;
} run_home;

static int run_engine_cb(void *arg) {
  run_home *h = arg;
  return run_engine(h->r, h->outs, h->diags);
}

static int run_engine_home(void *arg) {
  run_home *h = arg;
  acl__device *d = h->r->t.stream->dev;
  acl__model *m = h->r->m;
  acl__dump_binding *dump = __atomic_load_n(&m->dump, __ATOMIC_ACQUIRE);
  acl__device_access_begin(d);
  if (ACL__PROF_ON()) /* the operators that follow belong to this execution (src/prof/) */
    acl__prof_exec_enter(&h->r->t, m->id);
  /* a dump may run the reference executor, which reads the graph's weights */
  acl__engine *e = dump == NULL ? NULL : __atomic_load_n(&m->engine, __ATOMIC_ACQUIRE);
  int rc = e != NULL ? acl__engine_keep_weights(e, h->diags) : 0;
  if (rc == 0 && dump != NULL)
    memset(h->outs, 0, h->r->n_out * sizeof(*h->outs)); /* the dump's executions allocate their outputs */
  if (rc == 0)
    rc = __builtin_expect(dump == NULL, 1)
             ? run_engine(h->r, h->outs, h->diags)
             : acl__dump_run(dump, m->graph, h->r->in, h->r->n_in, h->outs, h->r->n_out,
                             (uint32_t)h->r->t.stream->id, run_engine_cb, h, h->diags); /* dump.h */
  if (ACL__PROF_ON())
    acl__prof_exec_leave();
  acl__device_access_end(d);
  return rc;
}

/* ---- preparing at load ----------------------------------------------------- */

typedef struct prep_home {
  acl__model *m;
  acl__device *dev;
  acl__tensor *in;
  acl__diags *diags;
} prep_home;

static double mono_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int prepare_home(void *arg) {
  prep_home *h = arg;
  acl__device_access_begin(h->dev);
  int rc = 0;
  acl__engine *e = engine_of(h->m, &rc, h->diags);
  if (e != NULL)
    rc = acl__engine_prepare(e, h->in, h->m->graph->n_inputs, h->dev->props.executor_threads, h->diags);
  acl__device_access_end(h->dev);
  return rc;
}

void acl__model_prepare(acl__model *m) {
  const acl__graph *g = m->graph;
  if (!acl__engine_enabled() || m->ctx == NULL || m->gears != NULL || __atomic_load_n(&m->dump, __ATOMIC_ACQUIRE))
    return;
  acl__tensor *in = calloc(g->n_inputs ? g->n_inputs : 1, sizeof(*in));
  if (in == NULL)
    return;
  int known = 1;
  for (size_t i = 0; known && i < g->n_inputs; i++) {
    const acl__graph_tensor *gt = &g->tensors[g->inputs[i]];
    size_t bytes = gt->onnx_type != 0 ? acl__graph_onnx_elem_size(gt->onnx_type) : 0;
    known = bytes > 0 && gt->rank >= 0 && gt->rank <= ACL__EXEC_MAX_RANK;
    in[i].onnx_type = gt->onnx_type;
    in[i].rank = known ? gt->rank : 0;
    for (int k = 0; known && k < gt->rank; k++) {
      known = gt->dims[k].value >= 0;
      in[i].dims[k] = gt->dims[k].value;
      bytes *= known ? (size_t)gt->dims[k].value : 0;
    }
    in[i].size = bytes; /* shapes only: the build reads no input data */
  }
  acl__diags diags = {0};
  prep_home h = {m, m->ctx->dev, in, &diags};
  double t0 = mono_ms();
  int rc = known ? acl__engine_call_home(prepare_home, &h) : 0;
  if (known)
    ACL__LOGI(ACL__MOD_GE, "model %u prepared at load in %.1f ms%s", m->id, mono_ms() - t0,
              rc != 0 ? " (failed: its first execution will build the plan again and report why)" : "");
  acl__diags_free(&diags);
  free(in);
}

static int run_task_run(acl__task *task) {
  run_task *r = (run_task *)task;
  const acl__graph *g = r->m->graph;
  char msg[sizeof(r->result->msg)] = "";
  acl__diags diags = {0};
  acl__tensor *outs = calloc(r->n_out ? r->n_out : 1, sizeof(*outs));
  /* the engine writes each output straight into its buffer when the result fills it as expected */
  for (size_t i = 0; outs != NULL && i < r->n_out; i++) {
    outs[i].data = acl__mem_dev_ptr(r->out[i].addr);
    outs[i].size = r->out[i].expect != 0 ? r->out[i].expect : r->out[i].size;
  }
  run_home home = {r, outs, &diags};
  int rc = outs == NULL ? ACL_ERROR_BAD_ALLOC : acl__engine_call_home(run_engine_home, &home);
  if (outs == NULL) {
    snprintf(msg, sizeof(msg), "model %u: out of host memory for %zu outputs", r->m->id, r->n_out);
  } else if (rc != 0) {
    const acl__diag *d = acl__diags_first_error(&diags);
    snprintf(msg, sizeof(msg), "model %u: %s%s%s", r->m->id, d != NULL ? d->path : "",
             d != NULL && d->path[0] ? ": " : "", d != NULL ? d->message : "the execution failed");
  }
  acl__diags_free(&diags);
  /* check every output before writing any */
  for (size_t i = 0; rc == 0 && i < r->n_out; i++) {
    const acl__graph_tensor *gt = &g->tensors[g->outputs[i]];
    const acl__tensor *t = &outs[i];
    const run_out *o = &r->out[i];
    char got[256];
    fmt_shape(got, sizeof(got), t->rank, t->dims);
    if (gt->onnx_type != 0 && t->onnx_type != gt->onnx_type) {
      rc = ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
      snprintf(msg, sizeof(msg), "model %u: output %zu (\"%s\") came out as %s %s, but the model declares %s",
               r->m->id, i, tname(gt), acl__graph_onnx_type_name(t->onnx_type), got,
               acl__graph_onnx_type_name(gt->onnx_type));
    } else if (o->expect != 0 ? t->size != o->expect : t->size > o->size) {
      rc = ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
      snprintf(msg, sizeof(msg), "model %u: output %zu (\"%s\") came out as %s %s (%zu bytes), but its buffer holds "
               "%zu bytes", r->m->id, i, tname(gt), acl__graph_onnx_type_name(t->onnx_type), got, t->size, o->size);
    }
  }
  for (size_t i = 0; rc == 0 && i < r->n_out; i++) {
    const acl__graph_tensor *gt = &g->tensors[g->outputs[i]];
    const acl__tensor *t = &outs[i];
    if (t->size > 0 && t->data != acl__mem_dev_ptr(r->out[i].addr))
      memcpy(acl__mem_dev_ptr(r->out[i].addr), t->data, t->size);
    /* a shape only known now: tell the caller through the output dataset */
    if (shape_differs(gt, t) && acl__handle_valid(r->output, ACL__H_DATASET) &&
        i < r->output->n) {
      aclTensorDesc *d = aclCreateTensorDesc(acl__graph_onnx_to_acl(t->onnx_type), t->rank, t->dims,
                                             t->rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND);
      if (d != NULL) {
        aclSetTensorDescName(d, tname(gt));
        aclmdlSetDatasetTensorDesc(r->output, d, i);
        aclDestroyTensorDesc(d);
      }
    }
  }
  for (size_t i = 0; outs != NULL && i < r->n_out; i++)
    acl__tensor_release(&outs[i]);
  free(outs);
  if (rc != 0)
    ACL__LOGE(ACL__MOD_GE, "%s", msg);
  if (r->result != NULL) {
    r->result->rc = rc;
    memcpy(r->result->msg, msg, sizeof(msg));
    r->result->ran = 1; /* the waiting caller reads it after the stream passed the task */
  }
  return rc;
}

static void run_task_release(acl__task *task) {
  run_task *r = (run_task *)task;
  acl__model_release(r->m);
  free(r->in);
  free(r->out);
  free(r);
}

static int check_dataset(const char *api, const char *arg, const aclmdlDataset *ds, int code, size_t want,
                         const char *kind, const acl__model *m) {
  if (ds == NULL)
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s is NULL; pass a dataset made by aclmdlCreateDataset", arg);
  if (!acl__handle_valid(ds, ACL__H_DATASET))
    return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s %p is not a live aclmdlDataset (it was destroyed, or never created by aclmdlCreateDataset)",
                     arg, (const void *)ds);
  size_t n = ds->n;
  if (n != want)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "%s holds %zu buffers, but model %u has %zu %ss: add one buffer per %s, in order", arg, n, m->id,
                     want, kind, kind);
  return 0;
}

/* A gear model: the gear the dataset's tensor descriptors (set by
 * aclmdlSetDynamicBatchSize & co.) choose, and the extra input's buffer. */
static int check_gear(const char *api, const acl__model *m, const aclmdlDataset *ds) {
  const int code = ACL_ERROR_MODEL_INPUT_NOT_MATCH;
  const acl__gears *gr = m->gears;
  const acl__graph *g = m->graph;
  int64_t vals[ACL_MAX_DIM_CNT];
  for (size_t j = 0; j < gr->n_pos; j++)
    vals[j] = -1;
  char list[512];
  acl__gears_list(gr, list, sizeof(list));
  const char *set = gr->kind == ACL__GEAR_BATCH ? "aclmdlSetDynamicBatchSize"
                    : gr->kind == ACL__GEAR_HW  ? "aclmdlSetDynamicHWSize"
                                                : "aclmdlSetInputDynamicDims";
  for (size_t i = 0; i < gr->n_in; i++) {
    const acl__gear_shape *sh = &gr->in[i];
    const aclTensorDesc *desc = acl__ds_desc(ds, i);
    for (int k = 0; k < sh->rank; k++) {
      if (sh->pos[k] < 0)
        continue;
      if (desc == NULL)
        return acl__fail(api, code, __FILE__, __LINE__,
                         "model %u has gears (%s: %s), but no gear was chosen for input %zu (\"%s\"). Remedy: call "
                         "%s(modelId, input, %zu, ...) before executing", m->id, acl__gears_var(gr->kind), list, i,
                         tname(&g->tensors[g->inputs[i]]), set, g->n_inputs);
      int64_t v = desc->ndims == (size_t)sh->rank && !acl__td_unknown_rank(desc) ? desc->dims[k] : -1;
      size_t p = (size_t)sh->pos[k];
      if (vals[p] < 0)
        vals[p] = v;
      else if (vals[p] != v)
        vals[p] = -2; /* two inputs disagree: no gear */
    }
  }
  int64_t key[ACL_MAX_DIM_CNT];
  for (size_t j = 0; j < gr->n_key; j++)
    key[j] = vals[j];
  if (acl__gears_find(gr, key) < 0)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "model %u: the shapes of the input dataset's tensor descriptors are not one of the model's gears "
                     "(%s: %s). Remedy: choose a gear with %s rather than setting the descriptors by hand", m->id,
                     acl__gears_var(gr->kind), list, set);
  size_t x = g->n_inputs;
  aclDataBuffer *buf = acl__ds_buffer(ds, x);
  if (acl__data_buffer_check(api, "an input dataset buffer", buf) != 0)
    return code;
  void *addr = buf->data;
  size_t need = gr->n_key * sizeof(int64_t);
  if (addr == NULL || buf->length < need)
    return acl__fail(api, code, __FILE__, __LINE__,
                     "input %zu (\"%s\") needs a device buffer of %zu bytes (aclmdlGetInputSizeByIndex), but the "
                     "dataset's buffer is %p, %zu bytes", x, ACL_DYNAMIC_TENSOR_NAME, need, addr, buf->length);
  return check_device_mem(api, code, m, "input", x, ACL_DYNAMIC_TENSOR_NAME, addr, need);
}

/* Input i takes some of its dims from the gear. */
static int gear_input(const acl__gears *gr, size_t i) {
  for (int k = 0; i < gr->n_in && k < gr->in[i].rank; k++)
    if (gr->in[i].pos[k] >= 0)
      return 1;
  return 0;
}

int acl__model_run_submit(const char *api, acl__model *m, const aclmdlDataset *input, aclmdlDataset *output,
                          acl__stream *s, acl__model_run_result *result) {
  const acl__graph *g = m->graph;
  const int gear = m->gears != NULL;
  int rc = check_dataset(api, "input", input, ACL_ERROR_MODEL_INPUT_NOT_MATCH, g->n_inputs + (gear ? 1 : 0), "input",
                         m);
  if (rc == 0)
    rc = check_dataset(api, "output", output, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH, g->n_outputs, "output", m);
  if (rc != 0)
    return rc;
  run_task *r = calloc(1, sizeof(*r));
  if (r != NULL) {
    r->in = calloc(g->n_inputs ? g->n_inputs : 1, sizeof(*r->in));
    r->out = calloc(g->n_outputs ? g->n_outputs : 1, sizeof(*r->out));
  }
  if (r == NULL || r->in == NULL || r->out == NULL) {
    if (r != NULL) {
      free(r->in);
      free(r->out);
      free(r);
    }
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for an execution of model %u",
                     m->id);
  }
  r->n_in = g->n_inputs;
  r->n_out = g->n_outputs;
  if (gear)
    rc = check_gear(api, m, input);
  for (size_t i = 0; rc == 0 && i < r->n_in; i++)
    rc = check_input(api, m, input, i, gear && gear_input(m->gears, i), &r->in[i]);
  for (size_t i = 0; rc == 0 && i < r->n_out; i++)
    rc = check_output(api, m, output, i, gear, &r->out[i]);
  if (rc != 0) {
    free(r->in);
    free(r->out);
    free(r);
    return rc;
  }
  /* the task's own reference: the model stays alive until the task is released */
  acl__model_retain(m);
  r->m = m;
  r->threads = s->ctx->dev->props.executor_threads;
  r->output = output;
  r->result = result;
  r->t.run = run_task_run;
  r->t.release = run_task_release;
  /* an asynchronous execution reads the input buffers and writes the output
   * buffers each time it runs, and nobody waits for its result struct: a
   * capture may record it (graph.c) */
  r->t.ri_ok = result == NULL;
  snprintf(r->t.what, sizeof(r->t.what), "execution of model %u", m->id);
  if (result != NULL)
    memset(result, 0, sizeof(*result));
  rc = acl__stream_submit(s, &r->t);
  if (rc == ACL_ERROR_RT_STREAM_CONTEXT)
    return acl__fail(api, rc, __FILE__, __LINE__, "stream %d does not accept tasks: it is being destroyed",
                     (int)s->id);
  return rc; /* 0, or a capture refused it and said why (graph.c) */
}
