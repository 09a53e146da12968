/*
 * infer_gears.c - `openacl infer` on models loaded with gears, the way
 * msame and ais_bench run ATC's dynamic models: --dym-batch N (--dymBatch),
 * --dym-hw H,W (--dymHW) or --dym-shape "name:dims;..." (--dymDims) picks
 * one gear, which the vendor API is told with aclmdlSetDynamicBatchSize /
 * aclmdlSetDynamicHWSize / aclmdlSetInputDynamicDims.  Tensor descriptors,
 * the tool's way for models without gears, are refused by such a model.
 *
 * The value is checked against the model's gears before anything runs, so
 * a wrong one is a usage error listing the gears rather than an API error
 * at the first execution.  The rest of the tool sees the model without its
 * extra input (g->view), its inputs shaped for the chosen gear: files are
 * then checked against that shape like any static model's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "infer_job.h"

static size_t elems(const int64_t *dims, size_t rank) {
  size_t n = 1;
  for (size_t k = 0; k < rank; k++)
    n *= dims[k] < 0 ? 0 : (size_t)dims[k];
  return n;
}

/* The gears as the user writes them, for error messages: "1, 2, 4",
 * "224,224; 448,448" or "x:1,4; x:2,4" (one --dym-shape value per gear). */
static void list_gears(const tool_model *m, int kind, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  if (kind == GEARS_BATCH) {
    aclmdlBatch b;
    if (aclmdlGetDynamicBatch(m->desc, &b) != ACL_SUCCESS)
      return;
    for (size_t i = 0; i < b.batchCount && n < len; i++)
      n += (size_t)snprintf(buf + n, len - n, "%s%llu", i ? ", " : "", (unsigned long long)b.batch[i]);
  } else if (kind == GEARS_HW) {
    aclmdlHW hw;
    if (aclmdlGetDynamicHW(m->desc, (size_t)-1, &hw) != ACL_SUCCESS)
      return;
    for (size_t i = 0; i < hw.hwCount && n < len; i++)
      n += (size_t)snprintf(buf + n, len - n, "%s%llu,%llu", i ? "; " : "", (unsigned long long)hw.hw[i][0],
                            (unsigned long long)hw.hw[i][1]);
  } else {
    size_t count = 0;
    if (aclmdlGetInputDynamicGearCount(m->desc, (size_t)-1, &count) != ACL_SUCCESS || count == 0)
      return;
    aclmdlIODims *d = calloc(count, sizeof(*d));
    if (d == NULL || aclmdlGetInputDynamicDims(m->desc, (size_t)-1, d, count) != ACL_SUCCESS)
      count = 0;
    for (size_t g = 0; g < count && n < len; g++) {
      size_t off = 0;
      n += (size_t)snprintf(buf + n, len - n, "%s\"", g ? ", " : "");
      for (size_t i = 0; i + 1 < m->n_in && n < len; i++) {
        n += (size_t)snprintf(buf + n, len - n, "%s%s:", i ? ";" : "", m->in[i].name);
        for (size_t k = 0; k < m->in[i].rank && off < d[g].dimCount && n < len; k++, off++)
          n += (size_t)snprintf(buf + n, len - n, "%s%lld", k ? "," : "", (long long)d[g].dims[off]);
      }
      if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "\"");
    }
    free(d);
  }
}

static const char *const kind_var[] = {"", "OPENACL_DYNAMIC_BATCH", "OPENACL_DYNAMIC_HW", "OPENACL_DYNAMIC_DIMS"};
static const char *const kind_opt[] = {"", "--dym-batch N (msame, ais_bench: --dymBatch)",
                                       "--dym-hw H,W (msame: --dymHW)",
                                       "--dym-shape 'name:d1,d2,...;...' (msame: --dymDims, ais_bench: --dymShape)"};

/* Reads "d1,d2,..." (len bytes) into dims; the count, or -1. */
static int parse_list(const char *s, size_t len, int64_t *dims, size_t max) {
  size_t n = 0;
  const char *p = s, *end = s + len;
  while (p < end) {
    char *q;
    errno = 0;
    long long v = strtoll(p, &q, 10);
    if (q == p || q > end || errno != 0 || v < 1 || n == max || (q < end && *q != ','))
      return -1;
    dims[n++] = v;
    p = q < end ? q + 1 : q;
  }
  return n == 0 ? -1 : (int)n;
}

/* --dym-shape against the dims gears: the one gear that agrees with every
 * input the option names (inputs it leaves out may take any value). */
static int choose_dims(const infer_opts *o, const tool_model *m, infer_gears *g, const char *gears) {
  size_t count = 0;
  aclError rc = aclmdlGetInputDynamicGearCount(m->desc, (size_t)-1, &count);
  if (rc != ACL_SUCCESS)
    return tool_acl_error("reading the model's gears", "aclmdlGetInputDynamicGearCount", rc);
  aclmdlIODims *d = calloc(count + 1, sizeof(*d));
  int64_t *want = calloc(ACL_MAX_DIM_CNT, sizeof(int64_t));
  char *named = calloc(m->n_in + 1, 1);
  int ret = 0;
  if (d == NULL || want == NULL || named == NULL) {
    tool_error("out of memory");
    ret = TOOL_FAIL;
    goto out;
  }
  rc = aclmdlGetInputDynamicDims(m->desc, (size_t)-1, d, count);
  if (rc != ACL_SUCCESS) {
    ret = tool_acl_error("reading the model's gears", "aclmdlGetInputDynamicDims", rc);
    goto out;
  }
  /* where each real input's shape starts in a gear's concatenated dims */
  size_t total = 0;
  for (size_t i = 0; i < g->index; i++)
    total += m->in[i].rank;
  for (const char *p = o->dym_shape; p != NULL && *p != '\0';) {
    const char *semi = strchr(p, ';');
    size_t len = semi != NULL ? (size_t)(semi - p) : strlen(p);
    const char *colon = memchr(p, ':', len);
    size_t i = 0, off = 0;
    for (; colon != NULL && i < g->index; off += m->in[i].rank, i++)
      if (strlen(m->in[i].name) == (size_t)(colon - p) && strncmp(p, m->in[i].name, (size_t)(colon - p)) == 0)
        break;
    if (colon == NULL || i == g->index) {
      ret = tool_usage_error("infer", "option --dym-shape: '%.*s' is not name:d1,d2,... for an input of model '%s' "
                             "(its gears: %s)", (int)len, p, o->model, gears);
      goto out;
    }
    int n = parse_list(colon + 1, len - (size_t)(colon - p) - 1, want + off, m->in[i].rank);
    if (n != (int)m->in[i].rank) {
      ret = tool_usage_error("infer", "option --dym-shape: '%.*s' should give %zu sizes >= 1 for input '%s' (its "
                             "gears: %s)", (int)len, p, m->in[i].rank, m->in[i].name, gears);
      goto out;
    }
    named[i] = 1;
    p = semi != NULL ? semi + 1 : NULL;
  }
  size_t found = count;
  for (size_t gi = 0; gi < count && found == count; gi++) {
    int ok = d[gi].dimCount == total;
    for (size_t i = 0, off = 0; ok && i < g->index; off += m->in[i].rank, i++)
      for (size_t k = 0; named[i] && k < m->in[i].rank; k++)
        ok &= d[gi].dims[off + k] == want[off + k];
    if (ok)
      found = gi;
  }
  if (found == count) {
    ret = tool_usage_error("infer", "option --dym-shape: '%s' is not one of the gears of model '%s' (%s: %s)",
                           o->dym_shape, o->model, kind_var[GEARS_DIMS], gears);
    goto out;
  }
  g->dims = d[found];
out:
  free(d);
  free(want);
  free(named);
  return ret;
}

/* The chosen value, checked against the gears; fills g->batch / h, w / dims. */
static int choose(const infer_opts *o, const tool_model *m, infer_gears *g) {
  char gears[2048];
  list_gears(m, g->kind, gears, sizeof(gears));
  const int given = g->kind == GEARS_BATCH ? o->dym_batch > 0 : g->kind == GEARS_HW ? o->dym_hw != NULL
                                                                                     : o->dym_shape != NULL;
  if (!given)
    return tool_usage_error("infer", "model '%s' was loaded with gears (%s: %s): choose one with %s", o->model,
                            kind_var[g->kind], gears, kind_opt[g->kind]);
  if (g->kind == GEARS_DIMS)
    return choose_dims(o, m, g, gears);
  if (g->kind == GEARS_BATCH) {
    aclmdlBatch b;
    aclError rc = aclmdlGetDynamicBatch(m->desc, &b);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("reading the model's gears", "aclmdlGetDynamicBatch", rc);
    for (size_t i = 0; i < b.batchCount; i++)
      if (b.batch[i] == (uint64_t)o->dym_batch) {
        g->batch = b.batch[i];
        return 0;
      }
    return tool_usage_error("infer", "option --dym-batch: %ld is not one of the gears of model '%s' (%s: %s)",
                            o->dym_batch, o->model, kind_var[g->kind], gears);
  }
  int64_t hw[2];
  if (parse_list(o->dym_hw, strlen(o->dym_hw), hw, 2) != 2)
    return tool_usage_error("infer", "option --dym-hw: '%s' is not HEIGHT,WIDTH (the gears of model '%s': %s)",
                            o->dym_hw, o->model, gears);
  aclmdlHW h;
  aclError rc = aclmdlGetDynamicHW(m->desc, (size_t)-1, &h);
  if (rc != ACL_SUCCESS)
    return tool_acl_error("reading the model's gears", "aclmdlGetDynamicHW", rc);
  for (size_t i = 0; i < h.hwCount; i++)
    if (h.hw[i][0] == (uint64_t)hw[0] && h.hw[i][1] == (uint64_t)hw[1]) {
      g->h = h.hw[i][0];
      g->w = h.hw[i][1];
      return 0;
    }
  return tool_usage_error("infer", "option --dym-hw: %s is not one of the gears of model '%s' (%s: %s)", o->dym_hw,
                          o->model, kind_var[g->kind], gears);
}

/* Shapes input i of the view for the chosen gear.  The description gives
 * the largest gear's dims; a dimension the gears fill is one whose range
 * over the gears is not a single value (one that is has that value in the
 * chosen gear too). */
static int shape_input(const tool_model *m, infer_gears *g, size_t i, size_t off) {
  tool_io *io = &g->view.in[i];
  if (g->kind == GEARS_DIMS) {
    for (size_t k = 0; k < io->rank; k++)
      io->dims[k] = g->dims.dims[off + k];
  } else {
    aclmdlIODimsRange r;
    aclError rc = aclmdlGetInputDimsRange(m->desc, i, &r);
    if (rc != ACL_SUCCESS) {
      char what[256];
      snprintf(what, sizeof(what), "reading the gear dimensions of input '%s'", io->name);
      return tool_acl_error(what, "aclmdlGetInputDimsRange", rc);
    }
    for (size_t k = 0; k < io->rank && k < r.rangeCount; k++) {
      if (r.range[k][0] == r.range[k][1])
        continue;
      if (g->kind == GEARS_BATCH && k == 0)
        io->dims[k] = (int64_t)g->batch;
      else if (g->kind == GEARS_HW && io->rank == 4 && (k == 2 || k == 3))
        io->dims[k] = (int64_t)(k == 2 ? g->h : g->w);
    }
  }
  io->size = elems(io->dims, io->rank) * tool_dtype_size(io->dtype);
  return 0;
}

int infer_gears_open(const infer_opts *o, const tool_model *m, infer_gears *g) {
  memset(g, 0, sizeof(*g));
  size_t idx = m->n_in;
  for (size_t i = 0; i < m->n_in; i++)
    if (strcmp(m->in[i].name, ACL_DYNAMIC_TENSOR_NAME) == 0)
      idx = i;
  if (idx == m->n_in)
    return 0;
  if (idx + 1 != m->n_in) {
    tool_error("model '%s': its gear input '%s' is input %zu, not the last one (%zu)", o->model,
               ACL_DYNAMIC_TENSOR_NAME, idx, m->n_in - 1);
    return TOOL_FAIL;
  }
  aclmdlBatch b;
  aclmdlHW hw;
  size_t count = 0;
  if (aclmdlGetDynamicBatch(m->desc, &b) == ACL_SUCCESS && b.batchCount > 0)
    g->kind = GEARS_BATCH;
  else if (aclmdlGetDynamicHW(m->desc, (size_t)-1, &hw) == ACL_SUCCESS && hw.hwCount > 0)
    g->kind = GEARS_HW;
  else if (aclmdlGetInputDynamicGearCount(m->desc, (size_t)-1, &count) == ACL_SUCCESS && count > 0)
    g->kind = GEARS_DIMS;
  else {
    tool_error("model '%s' has the gear input '%s' but reports no batch, HW or dims gears", o->model,
               ACL_DYNAMIC_TENSOR_NAME);
    return TOOL_FAIL;
  }
  g->index = idx;
  int ret = choose(o, m, g);
  if (ret != 0)
    return ret;
  g->view = *m;
  g->view.n_in = idx;
  g->view.in = calloc(idx + 1, sizeof(tool_io));
  g->view.out = calloc(m->n_out + 1, sizeof(tool_io));
  if (g->view.in == NULL || g->view.out == NULL) {
    tool_error("out of memory");
    return TOOL_FAIL;
  }
  memcpy(g->view.in, m->in, idx * sizeof(tool_io));
  memcpy(g->view.out, m->out, m->n_out * sizeof(tool_io));
  for (size_t i = 0, off = 0; ret == 0 && i < idx; off += m->in[i].rank, i++)
    ret = shape_input(m, g, i, off);
  return ret;
}

int infer_gears_choose(infer_gears *g, const tool_model *m, aclmdlDataset *ds_in) {
  aclError rc;
  const char *api;
  if (g->kind == GEARS_BATCH) {
    api = "aclmdlSetDynamicBatchSize";
    rc = aclmdlSetDynamicBatchSize(m->id, ds_in, g->index, g->batch);
  } else if (g->kind == GEARS_HW) {
    api = "aclmdlSetDynamicHWSize";
    rc = aclmdlSetDynamicHWSize(m->id, ds_in, g->index, g->h, g->w);
  } else {
    api = "aclmdlSetInputDynamicDims";
    rc = aclmdlSetInputDynamicDims(m->id, ds_in, g->index, &g->dims);
  }
  if (rc != ACL_SUCCESS)
    return tool_acl_error("choosing the model's gear", api, rc);
  /* outputs of a known size are sized for the gear, so that each run copies
   * back only the gear's bytes; open ones are read from the output
   * dataset's tensor descriptors after each execution, as without gears */
  for (size_t i = 0; i < g->view.n_out; i++) {
    tool_io *io = &g->view.out[i];
    aclmdlIODims d;
    if (io->size == 0 || aclmdlGetCurOutputDims(m->desc, i, &d) != ACL_SUCCESS || d.dimCount > 16)
      continue;
    int known = 1;
    for (size_t k = 0; k < d.dimCount; k++)
      known &= d.dims[k] >= 0;
    if (!known || elems(d.dims, d.dimCount) * tool_dtype_size(io->dtype) == 0)
      continue;
    io->rank = d.dimCount;
    memcpy(io->dims, d.dims, d.dimCount * sizeof(int64_t));
    io->size = elems(io->dims, io->rank) * tool_dtype_size(io->dtype);
  }
  return 0;
}

void infer_gears_free(infer_gears *g) {
  free(g->view.in);
  free(g->view.out);
  memset(g, 0, sizeof(*g));
}
