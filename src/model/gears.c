/*
 * gears.c - gears of dynamic models from OPENACL_DYNAMIC_BATCH / _HW / _DIMS
 * (see gears.h, and docs/models.md "Gears" for the rules written out).
 *
 * The variables are parsed strictly: a value that does not fit the model is
 * refused at load with a message naming the variable, rather than giving a
 * model whose gears differ from what the user asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "model/gears.h"

/* Gear values are sizes: 1 .. INT32_MAX keeps every product of a few of them
 * far from overflowing and is more than any real batch or image size. */
#define GEAR_VALUE_MAX INT32_MAX

const char *acl__gears_var(acl__gear_kind kind) {
  switch (kind) {
  case ACL__GEAR_BATCH:
    return "OPENACL_DYNAMIC_BATCH";
  case ACL__GEAR_HW:
    return "OPENACL_DYNAMIC_HW";
  default:
    return "OPENACL_DYNAMIC_DIMS";
  }
}

void acl__gears_free(acl__gears *gr) {
  if (gr == NULL)
    return;
  for (size_t i = 0; i < gr->n_in; i++) {
    free(gr->in[i].dims);
    free(gr->in[i].pos);
  }
  for (size_t i = 0; i < gr->n_out; i++) {
    free(gr->out[i].dims);
    free(gr->out[i].pos);
  }
  free(gr->in);
  free(gr->out);
  free(gr->values);
  free(gr);
}

/* ---- shapes ------------------------------------------------------------------ */

static int shape_from_tensor(const acl__graph_tensor *t, acl__gear_shape *s) {
  s->rank = t->rank;
  s->elem = t->onnx_type != 0 ? acl__graph_onnx_elem_size(t->onnx_type) : 0;
  if (t->rank <= 0)
    return 0;
  s->dims = malloc((size_t)t->rank * sizeof(*s->dims));
  s->pos = malloc((size_t)t->rank * sizeof(*s->pos));
  if (s->dims == NULL || s->pos == NULL)
    return -1;
  for (int k = 0; k < t->rank; k++) {
    s->dims[k] = t->dims[k].value >= 0 ? t->dims[k].value : -1;
    s->pos[k] = -1;
  }
  return 0;
}

static int shape_copy(const acl__gear_shape *src, acl__gear_shape *dst) {
  *dst = *src;
  dst->dims = NULL;
  dst->pos = NULL;
  if (src->rank <= 0)
    return 0;
  dst->dims = malloc((size_t)src->rank * sizeof(*dst->dims));
  dst->pos = malloc((size_t)src->rank * sizeof(*dst->pos));
  if (dst->dims == NULL || dst->pos == NULL)
    return -1;
  memcpy(dst->dims, src->dims, (size_t)src->rank * sizeof(*dst->dims));
  memcpy(dst->pos, src->pos, (size_t)src->rank * sizeof(*dst->pos));
  return 0;
}

acl__gears *acl__gears_copy(const acl__gears *gr, int *rc) {
  *rc = 0;
  if (gr == NULL)
    return NULL;
  acl__gears *c = calloc(1, sizeof(*c));
  if (c == NULL)
    goto oom;
  *c = *gr;
  c->values = NULL;
  c->in = NULL;
  c->out = NULL;
  c->n_in = c->n_out = 0;
  c->values = malloc(gr->n_gears * gr->n_pos * sizeof(*c->values) + 1);
  c->in = calloc(gr->n_in + 1, sizeof(*c->in));
  c->out = calloc(gr->n_out + 1, sizeof(*c->out));
  if (c->values == NULL || c->in == NULL || c->out == NULL)
    goto oom;
  memcpy(c->values, gr->values, gr->n_gears * gr->n_pos * sizeof(*c->values));
  for (size_t i = 0; i < gr->n_in; i++) {
    c->n_in = i + 1;
    if (shape_copy(&gr->in[i], &c->in[i]) != 0)
      goto oom;
  }
  for (size_t i = 0; i < gr->n_out; i++) {
    c->n_out = i + 1;
    if (shape_copy(&gr->out[i], &c->out[i]) != 0)
      goto oom;
  }
  return c;
oom:
  acl__gears_free(c);
  *rc = ACL_ERROR_BAD_ALLOC;
  return NULL;
}

void acl__gears_shape(const acl__gears *gr, const acl__gear_shape *s, size_t gear, int64_t *dims) {
  for (int k = 0; k < s->rank; k++)
    dims[k] = s->pos[k] >= 0 ? gr->values[gear * gr->n_pos + (size_t)s->pos[k]] : s->dims[k];
}

/* Bytes of shape s in gear `gear`; 0 when a dim stays unknown or the type is. */
static size_t shape_bytes(const acl__gears *gr, const acl__gear_shape *s, size_t gear) {
  if (s->rank < 0 || s->elem == 0)
    return 0;
  size_t n = s->elem;
  for (int k = 0; k < s->rank; k++) {
    int64_t v = s->pos[k] >= 0 ? gr->values[gear * gr->n_pos + (size_t)s->pos[k]] : s->dims[k];
    if (v <= 0 || (uint64_t)v > SIZE_MAX / n)
      return 0;
    n *= (size_t)v;
  }
  return n;
}

/* ---- keys ---------------------------------------------------------------------- */

void acl__gears_key(const acl__gears *gr, size_t gear, int64_t *key) {
  for (size_t j = 0; j < gr->n_key; j++)
    key[j] = gr->values[gear * gr->n_pos + j];
}

int acl__gears_find(const acl__gears *gr, const int64_t *key) {
  int64_t k[ACL_MAX_DIM_CNT];
  for (size_t g = 0; g < gr->n_gears; g++) {
    acl__gears_key(gr, g, k);
    if (memcmp(k, key, gr->n_key * sizeof(*k)) == 0)
      return (int)g;
  }
  return -1;
}

void acl__gears_list(const acl__gears *gr, char *buf, size_t n) {
  size_t len = 0;
  buf[0] = '\0';
  int64_t k[ACL_MAX_DIM_CNT];
  for (size_t g = 0; g < gr->n_gears && len + 1 < n; g++) {
    acl__gears_key(gr, g, k);
    const char *sep = g ? ", " : "";
    if (gr->kind == ACL__GEAR_BATCH) {
      len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, sep, k[0]);
    } else if (gr->kind == ACL__GEAR_HW) {
      len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64 "x%" PRId64, sep, k[0], k[1]);
    } else {
      len += (size_t)snprintf(buf + len, n - len, "%s[", sep);
      for (size_t j = 0; j < gr->n_key && len + 1 < n; j++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, j ? "," : "", k[j]);
      if (len + 1 < n)
        len += (size_t)snprintf(buf + len, n - len, "]");
    }
  }
}

/* ---- parsing -------------------------------------------------------------------- */

/* Parses the variable's value into gears of `per` values each: gears are
 * separated by `gear_sep` (0: every value is a gear), values by ','. */
static int parse_values(const char *api, const char *var, const char *s, char gear_sep, size_t per, size_t max_gears,
                        const char *what, int64_t **values, size_t *n_gears) {
  size_t cap = 16, n = 0, in_gear = 0;
  int64_t *v = malloc(cap * sizeof(*v));
  if (v == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to read %s", var);
  const char *p = s;
  int rc = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t')
      p++;
    char *end = NULL;
    errno = 0;
    long long x = (*p >= '0' && *p <= '9') ? strtoll(p, &end, 10) : 0;
    if (end == NULL || end == p || errno != 0 || x < 1 || x > GEAR_VALUE_MAX) {
      rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s=\"%s\": expected a whole number from 1 to %d at character %zu. Remedy: write %s", var, s,
                     GEAR_VALUE_MAX, (size_t)(p - s) + 1, what);
      break;
    }
    if (n == cap) {
      int64_t *nv = realloc(v, 2 * cap * sizeof(*v));
      if (nv == NULL) {
        rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory to read %s", var);
        break;
      }
      v = nv;
      cap *= 2;
    }
    v[n++] = x;
    in_gear++;
    p = end;
    while (*p == ' ' || *p == '\t')
      p++;
    int gear_end = *p == '\0' || (gear_sep != 0 && *p == gear_sep) || (gear_sep == 0 && *p == ',');
    if (!gear_end && *p != ',') {
      rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                     "%s=\"%s\": unexpected '%c' at character %zu. Remedy: write %s", var, s, *p, (size_t)(p - s) + 1,
                     what);
      break;
    }
    if (gear_end) {
      if (in_gear != per) {
        rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s=\"%s\": gear %zu has %zu value%s, but this model needs %zu per gear. Remedy: write %s", var,
                       s, (n - in_gear) / per + 1, in_gear, in_gear == 1 ? "" : "s", per, what);
        break;
      }
      in_gear = 0;
    }
    if (*p == '\0')
      break;
    p++;
  }
  size_t gears = rc == 0 ? n / per : 0;
  if (rc == 0 && gears > max_gears)
    rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__, "%s=\"%s\": %zu gears; at most %zu are allowed",
                   var, s, gears, max_gears);
  for (size_t a = 0; rc == 0 && a < gears; a++)
    for (size_t b = a + 1; rc == 0 && b < gears; b++)
      if (memcmp(&v[a * per], &v[b * per], per * sizeof(*v)) == 0)
        rc = acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s=\"%s\": gears %zu and %zu are the same; list each gear once", var, s, a + 1, b + 1);
  if (rc != 0) {
    free(v);
    return rc;
  }
  *values = v;
  *n_gears = gears;
  return 0;
}

/* The position whose input dimension carries `symbol`, or -1. */
static int symbol_pos(const acl__graph *g, const acl__gears *gr, const char *symbol) {
  if (symbol == NULL)
    return -1;
  for (size_t i = 0; i < gr->n_in; i++)
    for (int k = 0; k < gr->in[i].rank; k++) {
      const acl__graph_dim *d = &g->tensors[g->inputs[i]].dims[k];
      if (gr->in[i].pos[k] >= 0 && d->symbol != NULL && strcmp(d->symbol, symbol) == 0)
        return gr->in[i].pos[k];
    }
  return -1;
}

/* Marks the positions of the dynamic input dims for `kind`, checking that
 * every dynamic dim is one the kind fills. */
static int mark_positions(const char *api, const acl__graph *g, acl__gears *gr, const char *var) {
  for (size_t i = 0; i < gr->n_in; i++) {
    acl__gear_shape *s = &gr->in[i];
    const char *name = g->tensors[g->inputs[i]].name;
    if (s->rank < 0)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "%s is set, but input %zu (\"%s\") declares no shape, so its dynamic dimensions cannot be "
                       "named. Remedy: declare the input's shape in the ONNX file, or unset %s",
                       var, i, name, var);
    for (int k = 0; k < s->rank; k++) {
      if (s->dims[k] >= 0)
        continue;
      int ok = gr->kind == ACL__GEAR_DIMS || (gr->kind == ACL__GEAR_BATCH && k == 0) ||
               (gr->kind == ACL__GEAR_HW && s->rank == 4 && (k == 2 || k == 3));
      if (!ok)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "%s is set, but input %zu (\"%s\") has a dynamic dimension %d of %d, which %s does not "
                         "fill (%s). Remedy: use OPENACL_DYNAMIC_DIMS, which gives every dynamic dimension",
                         var, i, name, k, s->rank, var,
                         gr->kind == ACL__GEAR_BATCH ? "it fills the first dimension only"
                                                     : "it fills dimensions 2 and 3 (H, W) of 4-D inputs only");
      if (gr->n_pos >= ACL_MAX_DIM_CNT)
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "%s: the model has more than %d dynamic dimensions", var, ACL_MAX_DIM_CNT);
      /* batch: every input's first dim is the same position; HW: H and W are
       * positions 0 and 1 whatever the input; dims: one position per dim */
      if (gr->kind == ACL__GEAR_BATCH)
        s->pos[k] = 0, gr->n_pos = 1;
      else if (gr->kind == ACL__GEAR_HW)
        s->pos[k] = k - 2, gr->n_pos = 2;
      else
        s->pos[k] = (int)gr->n_pos++;
    }
  }
  if (gr->kind == ACL__GEAR_HW)
    for (size_t i = 0; i < gr->n_in; i++)
      if (gr->in[i].rank == 4 && ((gr->in[i].pos[2] >= 0) != (gr->in[i].pos[3] >= 0)))
        return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                         "%s is set, but input %zu (\"%s\") has only one of H and W dynamic. Remedy: use "
                         "OPENACL_DYNAMIC_DIMS",
                         var, i, g->tensors[g->inputs[i]].name);
  return 0;
}

int acl__gears_from_env(const char *api, const acl__graph *g, acl__gears **out) {
  *out = NULL;
  static const acl__gear_kind kinds[3] = {ACL__GEAR_BATCH, ACL__GEAR_HW, ACL__GEAR_DIMS};
  const char *val = NULL;
  acl__gear_kind kind = ACL__GEAR_BATCH;
  for (int i = 0; i < 3; i++) {
    const char *s = getenv(acl__gears_var(kinds[i]));
    if (s == NULL || s[0] == '\0')
      continue;
    if (val != NULL)
      return acl__fail(api, ACL_ERROR_INVALID_PARAM, __FILE__, __LINE__,
                       "both %s and %s are set; a model has one kind of gears. Remedy: unset one of them",
                       acl__gears_var(kind), acl__gears_var(kinds[i]));
    val = s;
    kind = kinds[i];
  }
  if (val == NULL)
    return 0;
  /* a model without dynamic dimensions stays static, as ATC would build it */
  int dynamic = 0;
  for (size_t i = 0; i < g->n_inputs; i++) {
    const acl__graph_tensor *t = &g->tensors[g->inputs[i]];
    dynamic |= t->rank < 0;
    for (int k = 0; k < t->rank; k++)
      dynamic |= t->dims[k].value < 0;
  }
  if (!dynamic)
    return 0;
  const char *var = acl__gears_var(kind);
  acl__gears *gr = calloc(1, sizeof(*gr));
  if (gr == NULL)
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the gears of %s", var);
  gr->kind = kind;
  int rc = 0;
  gr->in = calloc(g->n_inputs + 1, sizeof(*gr->in));
  gr->out = calloc(g->n_outputs + 1, sizeof(*gr->out));
  if (gr->in == NULL || gr->out == NULL)
    goto oom;
  for (size_t i = 0; i < g->n_inputs; i++) {
    gr->n_in = i + 1;
    if (shape_from_tensor(&g->tensors[g->inputs[i]], &gr->in[i]) != 0)
      goto oom;
  }
  for (size_t i = 0; i < g->n_outputs; i++) {
    gr->n_out = i + 1;
    if (shape_from_tensor(&g->tensors[g->outputs[i]], &gr->out[i]) != 0)
      goto oom;
  }
  if ((rc = mark_positions(api, g, gr, var)) != 0)
    goto fail;
  const char *what = kind == ACL__GEAR_BATCH ? "batch sizes separated by commas, e.g. \"1,2,4,8\""
                     : kind == ACL__GEAR_HW  ? "height,width pairs separated by ';', e.g. \"224,224;448,448\""
                                             : "one value per dynamic input dimension (in input order), gears "
                                               "separated by ';', e.g. \"1,224,224;8,448,448\"";
  size_t max = kind == ACL__GEAR_BATCH ? ACL_MAX_BATCH_NUM
               : kind == ACL__GEAR_HW  ? ACL_MAX_HW_NUM
                                       : ACL_MAX_SHAPE_COUNT;
  if ((rc = parse_values(api, var, val, kind == ACL__GEAR_BATCH ? 0 : ';', gr->n_pos, max, what, &gr->values,
                         &gr->n_gears)) != 0)
    goto fail;
  gr->n_key = gr->n_pos;
  /* outputs: a symbolic dim named like a dynamic input dim follows it */
  for (size_t i = 0; i < gr->n_out; i++)
    for (int k = 0; k < gr->out[i].rank; k++)
      if (gr->out[i].dims[k] < 0)
        gr->out[i].pos[k] = symbol_pos(g, gr, g->tensors[g->outputs[i]].dims[k].symbol);
  /* the largest gear: the most input elements in all */
  long double best = -1;
  for (size_t gi = 0; gi < gr->n_gears; gi++) {
    long double total = 0;
    for (size_t i = 0; i < gr->n_in; i++) {
      long double n = 1;
      for (int k = 0; k < gr->in[i].rank; k++)
        n *= (long double)(gr->in[i].pos[k] >= 0 ? gr->values[gi * gr->n_pos + (size_t)gr->in[i].pos[k]]
                                                 : gr->in[i].dims[k]);
      total += n;
    }
    if (total > best) {
      best = total;
      gr->largest = gi;
    }
  }
  *out = gr;
  return 0;
oom:
  rc = acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for the gears of %s", var);
fail:
  acl__gears_free(gr);
  return rc;
}

/* ---- descriptions ------------------------------------------------------------------ */

static void describe_one(const acl__gears *gr, const acl__gear_shape *s, acl__model_io *io) {
  if (s->rank <= 0 || (size_t)s->rank != io->rank)
    return;
  int known = 1;
  acl__gears_shape(gr, s, gr->largest, io->dims);
  for (int k = 0; k < s->rank; k++)
    known &= io->dims[k] >= 0;
  size_t most = 0;
  for (size_t gi = 0; known && gi < gr->n_gears; gi++) {
    size_t b = shape_bytes(gr, s, gi);
    most = b > most ? b : most;
  }
  if (io->dtype != ACL_DT_UNDEFINED)
    io->size = known ? most : 0;
}

int acl__gears_describe(const acl__gears *gr, acl__model_iodesc *io) {
  for (size_t i = 0; i < gr->n_in && i < io->n_inputs; i++)
    describe_one(gr, &gr->in[i], &io->inputs[i]);
  for (size_t i = 0; i < gr->n_out && i < io->n_outputs; i++)
    describe_one(gr, &gr->out[i], &io->outputs[i]);
  acl__model_io *in = realloc(io->inputs, (io->n_inputs + 1) * sizeof(*in));
  if (in == NULL)
    return ACL_ERROR_BAD_ALLOC;
  io->inputs = in;
  acl__model_io *x = &in[io->n_inputs];
  memset(x, 0, sizeof(*x));
  x->name = strdup(ACL_DYNAMIC_TENSOR_NAME);
  x->dims = malloc(sizeof(*x->dims));
  if (x->name == NULL || x->dims == NULL) {
    free(x->name);
    free(x->dims);
    return ACL_ERROR_BAD_ALLOC;
  }
  x->dtype = ACL_INT64;
  x->format = ACL_FORMAT_ND;
  x->rank = 1;
  x->dims[0] = (int64_t)gr->n_key;
  x->size = gr->n_key * sizeof(int64_t);
  io->n_inputs++;
  return 0;
}
