/*
 * steps.c - the vocabulary of a plan: its values (shapes, layouts, where
 * their bytes live) and its steps (a oneDNN primitive, one of the engine's
 * own kernels), with the reorders between layouts.  What the operator
 * builders (dnnl_ops.c) and the plan builder (plan.c) make plans of; it
 * calls neither.
 */
#include "model/engine/engine_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"

const char *acl__eng_status(dnnl_status_t s) {
  switch (s) {
  case dnnl_success: return "success";
  case dnnl_out_of_memory: return "out of memory";
  case dnnl_invalid_arguments: return "invalid arguments";
  case dnnl_unimplemented: return "no implementation";
  case dnnl_iterator_ends: return "iterator ends";
  case dnnl_runtime_error: return "runtime error";
  case dnnl_not_required: return "not required";
  default: return "unknown status";
  }
}

/* ---- values and steps ----------------------------------------------------- */

int acl__eng_val_new(eng_plan *p) {
  if (p->n_vals == p->cap_vals) {
    int cap = p->cap_vals * 2 + 16;
    eng_val *v = realloc(p->vals, (size_t)cap * sizeof(*v));
    if (v == NULL)
      return -1;
    p->vals = v;
    p->cap_vals = cap;
  }
  eng_val *x = &p->vals[p->n_vals];
  memset(x, 0, sizeof(*x));
  x->base = -1;
  x->input = -1;
  x->first = x->last = -1;
  x->plain_copy = -1;
  x->layout_copy = -1;
  return p->n_vals++;
}

eng_step *acl__eng_step_new(eng_plan *p) {
  if (p->n_steps == p->cap_steps) {
    int cap = p->cap_steps * 2 + 16;
    eng_step *s = realloc(p->steps, (size_t)cap * sizeof(*s));
    if (s == NULL)
      return NULL;
    p->steps = s;
    p->cap_steps = cap;
  }
  eng_step *s = &p->steps[p->n_steps++];
  memset(s, 0, sizeof(*s));
  s->node = -1;
  return s;
}

void acl__eng_plain_md_dt(dnnl_memory_desc_t *md, int rank, const int64_t *dims, dnnl_data_type_t dt) {
  dnnl_dims_t d, st;
  int r = rank > 0 ? rank : 1;
  for (int k = 0; k < r; k++)
    d[k] = rank > 0 ? dims[k] : 1;
  int64_t s = 1;
  for (int k = r - 1; k >= 0; k--) {
    st[k] = s;
    s *= d[k] > 0 ? d[k] : 1;
  }
  dnnl_memory_desc_init_by_strides(md, r, d, dt, st);
}

void acl__eng_plain_md(dnnl_memory_desc_t *md, int rank, const int64_t *dims) {
  acl__eng_plain_md_dt(md, rank, dims, dnnl_f32);
}

/* Appends a primitive step for pd; its scratchpad size is recorded. */
int acl__eng_prim_step(eng_build *b, const dnnl_primitive_desc_t pd, const eng_arg *args, int n_args,
                       const char *what) {
  const char *impl = NULL;
  if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl != NULL) {
    /* the shapes of the step's arguments, so a slow implementation can be traced to its operands */
    char shapes[160] = "";
    size_t len = 0;
    for (int k = 0; k < n_args && len + 24 < sizeof(shapes); k++) {
      const eng_val *x = &b->p->vals[args[k].val];
      len += (size_t)snprintf(shapes + len, sizeof(shapes) - len, "%s[", k ? " " : "");
      for (int d = 0; d < x->rank && len + 16 < sizeof(shapes); d++)
        len += (size_t)snprintf(shapes + len, sizeof(shapes) - len, "%s%lld", d ? "," : "", (long long)x->dims[d]);
      len += (size_t)snprintf(shapes + len, sizeof(shapes) - len, "]");
    }
    ACL__LOGD(ACL__MOD_GE, "plan step %d: %s on oneDNN's %s, %s", b->p->n_steps, what, impl, shapes);
  }
  eng_step *s = acl__eng_step_new(b->p);
  if (s == NULL)
    return ACL_ERROR_BAD_ALLOC;
  s->kind = STEP_PRIM;
  s->what = what;
  s->node = b->node;
  s->args = malloc((size_t)(n_args ? n_args : 1) * sizeof(*args));
  if (s->args == NULL) {
    b->p->n_steps--;
    return ACL_ERROR_BAD_ALLOC;
  }
  memcpy(s->args, args, (size_t)n_args * sizeof(*args));
  s->n_args = n_args;
  const dnnl_memory_desc_t *sm = dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  s->scratch = sm != NULL ? dnnl_memory_desc_get_size(sm) : 0;
  if (dnnl_primitive_create(&s->prim, pd) != dnnl_success) {
    free(s->args);
    b->p->n_steps--;
    acl__diags_add(b->diags, ACL__DIAG_ERROR, ACL_ERROR_BAD_ALLOC, "", "oneDNN could not create a %s primitive",
                   what);
    return ACL_ERROR_BAD_ALLOC;
  }
  return 0;
}

int acl__eng_kernel_step(eng_build *b, eng_kernel_fn kernel, void *params, const eng_arg *args, int n_args,
                         const char *what, const char *impl) {
  if (n_args > ENG_KERNEL_MAX_ARGS) {
    free(params);
    return 1; /* not a step this kernel can be: the node's other paths take it */
  }
  eng_step *s = acl__eng_step_new(b->p);
  eng_arg *a = malloc((size_t)(n_args ? n_args : 1) * sizeof(*args));
  if (s == NULL || a == NULL) {
    if (s != NULL)
      b->p->n_steps--;
    free(a);
    free(params);
    return ACL_ERROR_BAD_ALLOC;
  }
  memcpy(a, args, (size_t)n_args * sizeof(*args));
  s->kind = STEP_KERNEL;
  s->what = what;
  s->impl = impl;
  s->node = b->node;
  s->kernel = kernel;
  s->params = params;
  s->args = a;
  s->n_args = n_args;
  ACL__LOGD(ACL__MOD_GE, "plan step %d: %s on openacl's %s", b->p->n_steps - 1, what, impl);
  return 0;
}

dnnl_data_type_t acl__eng_dnnl_type(int onnx_type) {
  return onnx_type == ACL__ONNX_UINT8 ? dnnl_u8 : onnx_type == ACL__ONNX_INT8 ? dnnl_s8 : dnnl_f32;
}

void acl__eng_val_plain_md(const eng_val *x, dnnl_memory_desc_t *md) {
  acl__eng_plain_md_dt(md, x->rank, x->dims, acl__eng_dnnl_type(x->onnx_type));
}

/* The tag among channels-last, 16-, 8- and 4-channel blocked that md is for
 * its dims (float32, rank 4, channels a multiple of the block), or 0. */
dnnl_format_tag_t acl__eng_nhwc_or_blocked(const dnnl_memory_desc_t *md) {
  static const dnnl_format_tag_t tags[] = {dnnl_acdb, dnnl_aBcd16b, dnnl_aBcd8b, dnnl_aBcd4b};
  static const int group[] = {1, 16, 8, 4};
  if (md->ndims != 4 || md->data_type != dnnl_f32 || md->format_kind != dnnl_blocked)
    return 0;
  for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
    dnnl_memory_desc_t m;
    if (md->dims[1] % group[t] == 0 &&
        dnnl_memory_desc_init_by_tag(&m, 4, md->dims, dnnl_f32, tags[t]) == dnnl_success && dnnl_memory_desc_equal(&m, md))
      return tags[t];
  }
  return 0;
}

/* A step moving src into md with the engine's own kernel (kernels.c), when
 * one side is channels-last and the other 4/8/16-channel blocked, or one
 * side 16-channel blocked and the other 4/8 (ResNeXt's grouped convolutions
 * next to blocked 1x1 ones): 0, 1 when it is not such a move, or an ACL
 * error.  A 16-channel block's plane is a channels-last image of 16
 * channels, and its 4/8-channel sub-blocks that image's blocked form, so the
 * second kind is the first over N x C/16 images. */
static int relayout_step(eng_build *b, int src, int v, const dnnl_memory_desc_t *md) {
  dnnl_format_tag_t from = acl__eng_nhwc_or_blocked(&b->p->vals[src].md), to = acl__eng_nhwc_or_blocked(md);
  if (from == 0 || to == 0 || from == to)
    return 1;
  const int64_t *d = md->dims;
  eng_relayout r;
  if ((from == dnnl_acdb) != (to == dnnl_acdb)) {
    dnnl_format_tag_t blocked = from == dnnl_acdb ? to : from;
    r = (eng_relayout){d[0], d[1], d[2] * d[3], blocked == dnnl_aBcd16b ? 16 : blocked == dnnl_aBcd8b ? 8 : 4,
                       to != dnnl_acdb};
  } else if ((from == dnnl_aBcd16b) != (to == dnnl_aBcd16b)) {
    dnnl_format_tag_t finer = from == dnnl_aBcd16b ? to : from;
    r = (eng_relayout){d[0] * (d[1] / 16), 16, d[2] * d[3], finer == dnnl_aBcd8b ? 8 : 4, from == dnnl_aBcd16b};
  } else {
    return 1; /* 8 <-> 4 channels: oneDNN's reorder */
  }
  eng_relayout *k = malloc(sizeof(*k));
  if (k == NULL)
    return ACL_ERROR_BAD_ALLOC;
  *k = r;
  eng_arg a[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, v}};
  return acl__eng_kernel_step(b, acl__eng_relayout_run, k, a, 2, "reorder", "relayout");
}

/* A new ARENA value holding `src` reordered into `md`.  A quantised src
 * (qscale, a DequantizeLinear kept in 8 bits) is scaled on its way to
 * float32, and stays quantised (same scale) on its way to another 8-bit
 * layout. */
/* A new ARENA value for src in md (qscale: the new value's; 0 for float32). */
static int moved_val(eng_plan *p, int src, const dnnl_memory_desc_t *md, float qscale) {
  int v = acl__eng_val_new(p);
  if (v < 0)
    return -1;
  eng_val *x = &p->vals[v], *s = &p->vals[src];
  x->kind = ENG_ARENA;
  x->onnx_type = s->onnx_type;
  x->rank = s->rank;
  memcpy(x->dims, s->dims, sizeof(x->dims));
  x->md = *md;
  x->bytes = dnnl_memory_desc_get_size(md);
  x->qscale = qscale;
  dnnl_memory_desc_t plain;
  acl__eng_val_plain_md(x, &plain);
  x->plain = x->qscale == 0 && dnnl_memory_desc_equal(md, &plain);
  return v;
}

int acl__eng_reorder(eng_build *b, int src, const dnnl_memory_desc_t *md) {
  eng_plan *p = b->p;
  float qs = p->vals[src].qscale;
  int dequant = qs != 0 && md->data_type == dnnl_f32;
  int v = moved_val(p, src, md, dequant ? 0 : qs);
  if (v < 0)
    return -1;
  /* channels-last <-> blocked: the engine's own copy */
  int rc = qs == 0 ? relayout_step(b, src, v, md) : 1;
  if (rc != 1) {
    if (rc != 0)
      p->n_vals--;
    return rc == 0 ? v : -1;
  }
  dnnl_primitive_desc_t pd = NULL;
  dnnl_primitive_attr_t attr = NULL;
  if (dequant && (dnnl_primitive_attr_create(&attr) != dnnl_success ||
                  dnnl_primitive_attr_set_output_scales(attr, 1, 0, &qs) != dnnl_success)) {
    if (attr != NULL)
      dnnl_primitive_attr_destroy(attr);
    p->n_vals--;
    return -1;
  }
  dnnl_status_t st = dnnl_reorder_primitive_desc_create(&pd, &p->vals[src].md, b->e->dnnl, md, b->e->dnnl, attr);
  if (attr != NULL)
    dnnl_primitive_attr_destroy(attr);
  if (st != dnnl_success) {
    p->n_vals--;
    return -1;
  }
  eng_arg a[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, v}};
  rc = acl__eng_prim_step(b, pd, a, 2, "reorder");
  dnnl_primitive_desc_destroy(pd);
  return rc == 0 ? v : -1;
}

int acl__eng_plain(eng_build *b, int v) {
  eng_plan *p = b->p;
  if (p->vals[v].plain)
    return v;
  if (p->vals[v].plain_copy >= 0)
    return p->vals[v].plain_copy;
  dnnl_memory_desc_t md;
  acl__eng_val_plain_md(&p->vals[v], &md);
  int c = acl__eng_reorder(b, v, &md);
  if (c >= 0)
    p->vals[v].plain_copy = c;
  return c;
}

/* ---- views ---------------------------------------------------------------- */

size_t acl__eng_view_off(const eng_plan *p, int v) {
  size_t off = 0;
  while (p->vals[v].kind == ENG_VIEW) {
    off += p->vals[v].view_off;
    v = p->vals[v].base;
  }
  return off;
}
