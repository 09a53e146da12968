/*
 * infer.c - `openacl infer`: loads a model, checks every input against it,
 * then runs each execution `--loop` times and reports load time, the first
 * inference and the steady state (infer_summary.c), as msame and ais_bench
 * do on Ascend.  Everything that can be refused is refused before the first
 * execution (infer_inputs.c).
 *
 * Symbolic input dimensions are given to the model with tensor descriptors
 * (aclmdlSetDatasetTensorDesc) on every execution: it works for any model
 * without gear variables, and a short last batch simply runs smaller.
 * A model loaded with gears takes the vendor's gear API instead
 * (infer_gears.c): the gear is chosen once, on the input dataset, before
 * the first execution.
 * Output buffers of outputs whose size the model leaves open are estimated
 * (or given with --output-size) and grown when the model says they are too
 * small; docs/infer.md describes both.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infer_job.h"

typedef struct io_buf {
  void *host, *dev;
  size_t cap; /* bytes of both */
  aclDataBuffer *buf;
  int64_t dims[16]; /* the shape of the last execution */
  size_t rank, bytes;
  int growable; /* an output the model leaves open: grown when too small */
} io_buf;

typedef struct run_state {
  infer_job *j;
  io_buf *in, *out;
  aclmdlDataset *ds_in, *ds_out;
  infer_gears *gears; /* kind GEARS_NONE without gears */
  const tool_model *loaded; /* the model as loaded: with the gear input */
  io_buf gear_in;     /* the gear input's buffer: the tool's, filled by the Set call */
} run_state;

static int alloc_buf(io_buf *b, size_t cap, const char *what) {
  if (cap == 0)
    cap = 64;
  b->host = malloc(cap);
  if (b->host == NULL) {
    tool_error("out of memory: %zu bytes of host memory for %s", cap, what);
    return TOOL_FAIL;
  }
  aclError rc = aclrtMalloc(&b->dev, cap, ACL_MEM_MALLOC_HUGE_FIRST);
  if (rc != ACL_SUCCESS) {
    b->dev = NULL;
    char msg[512];
    snprintf(msg, sizeof(msg), "allocating %zu bytes of device memory for %s", cap, what);
    return tool_acl_error(msg, "aclrtMalloc", rc);
  }
  b->cap = cap;
  return 0;
}

static void free_buf(io_buf *b) {
  if (b->buf != NULL)
    aclDestroyDataBuffer(b->buf);
  if (b->dev != NULL)
    aclrtFree(b->dev);
  free(b->host);
  memset(b, 0, sizeof(*b));
}

/* Bytes for an output whose size the model does not state: its declared
 * dims with each open one replaced by the largest dimension the inputs use
 * (the batch for the first one), or 16 MiB when even the rank is unknown.
 * The buffer grows when an execution needs more. */
static size_t estimate_output(const infer_job *j, const tool_io *io) {
  int64_t batch = 1, largest = 1;
  for (size_t i = 0; i < j->m->n_in; i++) {
    const infer_input *in = &j->in[i];
    if (in->rank >= 1 && in->dims[0] > batch)
      batch = in->dims[0];
    for (size_t k = 0; k < in->rank; k++)
      if (in->dims[k] > largest)
        largest = in->dims[k];
  }
  if (io->rank == 0)
    return (size_t)16 << 20;
  size_t n = tool_dtype_size(io->dtype) ? tool_dtype_size(io->dtype) : 8;
  for (size_t k = 0; k < io->rank; k++)
    n *= (size_t)(io->dims[k] >= 0 ? io->dims[k] : k == 0 ? batch : largest);
  return n > 0 ? n : 64;
}

static int parse_output_sizes(infer_job *j) {
  const char *s = j->o->output_size;
  j->out_size = calloc(j->m->n_out + 1, sizeof(size_t));
  if (j->out_size == NULL) {
    tool_error("out of memory");
    return TOOL_FAIL;
  }
  if (s == NULL)
    return 0;
  size_t n = 0;
  while (*s != '\0') {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || (*end != ',' && *end != '\0') || v == 0 || s[0] == '-')
      return tool_usage_error("infer",
                              "option --output-size: '%s' is not a list of byte counts (>= 1) separated by "
                              "commas",
                              j->o->output_size);
    if (n < j->m->n_out)
      j->out_size[n] = (size_t)v;
    n++;
    s = *end == ',' ? end + 1 : end;
  }
  if (n != j->m->n_out)
    return tool_usage_error("infer", "option --output-size: %zu size%s given but the model has %zu output%s", n,
                            n == 1 ? "" : "s", j->m->n_out, j->m->n_out == 1 ? "" : "s");
  return 0;
}

static int setup(run_state *st) {
  infer_job *j = st->j;
  const tool_model *m = j->m;
  st->in = calloc(m->n_in + 1, sizeof(io_buf));
  st->out = calloc(m->n_out + 1, sizeof(io_buf));
  st->ds_in = aclmdlCreateDataset();
  st->ds_out = aclmdlCreateDataset();
  if (st->in == NULL || st->out == NULL || st->ds_in == NULL || st->ds_out == NULL) {
    tool_error("out of memory");
    return TOOL_FAIL;
  }
  char what[256];
  for (size_t i = 0; i < m->n_in; i++) {
    snprintf(what, sizeof(what), "input '%s'", m->in[i].name);
    int ret = alloc_buf(&st->in[i], j->in[i].max_bytes, what);
    if (ret != 0)
      return ret;
    st->in[i].buf = aclCreateDataBuffer(st->in[i].dev, j->in[i].max_bytes);
    aclError rc = st->in[i].buf == NULL ? ACL_ERROR_BAD_ALLOC : aclmdlAddDatasetBuffer(st->ds_in, st->in[i].buf);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("preparing the input dataset", "aclmdlAddDatasetBuffer", rc);
  }
  if (st->gears->kind != GEARS_NONE) {
    /* the extra input goes last, as the model declares it; the Set call
     * needs every input's buffer in the dataset and writes the gear there */
    const tool_io *gio = &st->loaded->in[st->gears->index];
    int ret = alloc_buf(&st->gear_in, gio->size, "the gear input");
    if (ret != 0)
      return ret;
    st->gear_in.buf = aclCreateDataBuffer(st->gear_in.dev, st->gear_in.cap);
    aclError rc =
        st->gear_in.buf == NULL ? ACL_ERROR_BAD_ALLOC : aclmdlAddDatasetBuffer(st->ds_in, st->gear_in.buf);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("preparing the input dataset", "aclmdlAddDatasetBuffer", rc);
    ret = infer_gears_choose(st->gears, st->loaded, st->ds_in);
    if (ret != 0)
      return ret;
  }
  for (size_t i = 0; i < m->n_out; i++) {
    io_buf *b = &st->out[i];
    /* an output the model leaves open is grown when it turns out too small,
     * whether its size was estimated or given with --output-size */
    b->growable = m->out[i].size == 0;
    size_t cap = j->out_size[i] ? j->out_size[i] : m->out[i].size;
    if (cap == 0)
      cap = estimate_output(j, &m->out[i]);
    snprintf(what, sizeof(what), "output '%s'", m->out[i].name);
    int ret = alloc_buf(b, cap, what);
    if (ret != 0)
      return ret;
    b->buf = aclCreateDataBuffer(b->dev, cap);
    aclError rc = b->buf == NULL ? ACL_ERROR_BAD_ALLOC : aclmdlAddDatasetBuffer(st->ds_out, b->buf);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("preparing the output dataset", "aclmdlAddDatasetBuffer", rc);
  }
  return 0;
}

/* Quadruples every output buffer the model leaves open; 0 when there was one to grow. */
static int grow_outputs(run_state *st) {
  int grown = 0;
  for (size_t i = 0; i < st->j->m->n_out; i++) {
    io_buf *b = &st->out[i];
    if (!b->growable || b->cap > ((size_t)1 << 34))
      continue;
    void *host = realloc(b->host, b->cap * 4), *dev = NULL;
    if (host == NULL)
      return -1;
    b->host = host;
    if (aclrtMalloc(&dev, b->cap * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
      return -1;
    aclrtFree(b->dev);
    b->dev = dev;
    b->cap *= 4;
    if (aclUpdateDataBuffer(b->buf, dev, b->cap) != ACL_SUCCESS)
      return -1;
    grown = 1;
  }
  return grown ? 0 : -1;
}

/* Loads execution e's data into host memory and its shapes into the dataset. */
static int stage_inputs(run_state *st, size_t e, size_t *items) {
  infer_job *j = st->j;
  for (size_t i = 0; i < j->m->n_in; i++) {
    io_buf *b = &st->in[i];
    size_t it = 1;
    int ret = infer_inputs_fill(j, i, e, b->host, b->dims, &b->rank, &b->bytes, &it);
    if (ret != 0)
      return ret;
    if (i == 0)
      *items = it;
    aclError rc = aclUpdateDataBuffer(b->buf, b->dev, b->bytes);
    if (rc != ACL_SUCCESS)
      return tool_acl_error("preparing the input dataset", "aclUpdateDataBuffer", rc);
    if (!j->in[i].dynamic)
      continue;
    aclTensorDesc *d = aclCreateTensorDesc(j->m->in[i].dtype, (int)b->rank, b->dims, j->m->in[i].format);
    rc = d == NULL ? ACL_ERROR_INVALID_PARAM : aclmdlSetDatasetTensorDesc(st->ds_in, d, i);
    aclDestroyTensorDesc(d);
    if (rc != ACL_SUCCESS) {
      char what[256];
      snprintf(what, sizeof(what), "giving input '%s' its shape", j->m->in[i].name);
      return tool_acl_error(what, "aclmdlSetDatasetTensorDesc", rc);
    }
  }
  return 0;
}

/* One execution: inputs to the device, execute, outputs back.  Times in ms. */
static aclError run_once(run_state *st, double *e2e, double *compute, const char **api) {
  infer_job *j = st->j;
  const tool_model *m = j->m;
  aclError rc = ACL_SUCCESS;
  double t0 = stats_now_ms();
  for (size_t i = 0; rc == ACL_SUCCESS && i < m->n_in; i++) {
    *api = "aclrtMemcpy";
    rc = aclrtMemcpy(st->in[i].dev, st->in[i].cap, st->in[i].host, st->in[i].bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  }
  double t1 = stats_now_ms();
  if (rc == ACL_SUCCESS) {
    *api = "aclmdlExecute";
    if (j->o->recipe != NULL && j->o->recipe->infer != NULL)
      rc = (aclError)j->o->recipe->infer(j->o->recipe_self, m);
    else
      rc = aclmdlExecute(m->id, st->ds_in, st->ds_out);
  }
  double t2 = stats_now_ms();
  for (size_t i = 0; rc == ACL_SUCCESS && i < m->n_out; i++) {
    io_buf *b = &st->out[i];
    /* an output of declared size fills it; its actual shape (rarely not the
     * declared one) is read once per execution, in finish_execution, so the
     * timed loop costs what a plain C loop costs */
    const aclTensorDesc *d = m->out[i].size == 0 ? aclmdlGetDatasetTensorDesc(st->ds_out, i) : NULL;
    if (d != NULL) {
      b->rank = aclGetTensorDescNumDims(d);
      if (b->rank > 16)
        b->rank = 0;
      for (size_t k = 0; k < b->rank; k++)
        aclGetTensorDescDimV2(d, k, &b->dims[k]);
      b->bytes = aclGetTensorDescSize(d);
    } else {
      b->rank = m->out[i].rank;
      memcpy(b->dims, m->out[i].dims, sizeof(b->dims));
      b->bytes = m->out[i].size;
    }
    if (b->bytes > b->cap)
      b->bytes = b->cap;
    *api = "aclrtMemcpy";
    if (b->bytes > 0)
      rc = aclrtMemcpy(b->host, b->cap, b->dev, b->bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  }
  double t3 = stats_now_ms();
  *e2e = t3 - t0;
  *compute = t2 - t1;
  return rc;
}

static void progress(size_t done, size_t total) {
  const int width = 40;
  int fill = (int)((double)done / (double)total * width);
  fprintf(stderr, "\r%6zu/%zu [", done, total);
  for (int k = 0; k < width; k++)
    fputc(k < fill ? '#' : '.', stderr);
  fputc(']', stderr);
  if (done == total)
    fputc('\n', stderr);
  fflush(stderr);
}

static void describe(const tool_model *m) {
  for (int out = 0; out < 2; out++) {
    size_t n = out ? m->n_out : m->n_in;
    for (size_t i = 0; i < n; i++) {
      const tool_io *io = out ? &m->out[i] : &m->in[i];
      fprintf(stderr, "openacl: debug: %s %zu '%s': %s [", out ? "output" : "input", i, io->name,
              tool_dtype_name(io->dtype));
      for (size_t k = 0; k < io->rank; k++)
        fprintf(stderr, "%s%lld", k ? "," : "", (long long)io->dims[k]);
      fprintf(stderr, "], %zu bytes\n", io->size);
    }
  }
}

/* After the last run of execution e: the output files and the recipe's answers. */
static int finish_execution(run_state *st, size_t e, size_t items) {
  infer_job *j = st->j;
  for (size_t i = 0; i < j->m->n_out; i++) {
    io_buf *b = &st->out[i];
    const aclTensorDesc *d = j->m->out[i].size != 0 ? aclmdlGetDatasetTensorDesc(st->ds_out, i) : NULL;
    if (d != NULL && aclGetTensorDescNumDims(d) <= 16) {
      b->rank = aclGetTensorDescNumDims(d);
      for (size_t k = 0; k < b->rank; k++)
        aclGetTensorDescDimV2(d, k, &b->dims[k]);
    }
    int ret = infer_outputs_write(j, e, i, b->host, b->bytes, b->dims, b->rank, j->m->out[i].dtype);
    if (ret != 0)
      return ret;
  }
  const tool_recipe *r = j->o->recipe;
  if (r == NULL || r->postprocess == NULL || j->m->n_out == 0)
    return 0;
  const infer_input *in = &j->in[0];
  for (size_t k = 0; k < items; k++) {
    int ret = r->postprocess(j->o->recipe_self, j->m, in->files[e * in->per_exec + k], st->out[0].host,
                             st->out[0].bytes, st->out[0].dims, st->out[0].rank, k, stdout);
    if (ret != 0)
      return ret;
  }
  return 0;
}

static int run_all(run_state *st, const infer_shard *sh, infer_times *t) {
  infer_job *j = st->j;
  const infer_opts *o = j->o;
  stats_samples e2e = {0}, compute = {0};
  size_t lo = 0, hi = 0;
  infer_shard_range(sh, j->n_exec, &lo, &hi);
  const int bar = !o->quiet && hi - lo >= 10 && isatty(STDERR_FILENO);
  int ret = 0, first = 1;
  const double t_start = stats_now_ms();
  /* under mpirun, executions lo..hi-1 of the single run's 0..n_exec-1; each
   * rank warms up on its first one */
  for (size_t e = lo; ret == 0 && e < hi; e++) {
    size_t items = 1;
    ret = stage_inputs(st, e, &items);
    const double per_run = o->batchsize > 0 ? (double)o->batchsize : (double)items;
    if (e == lo)
      t->batch = per_run;
    long reps = o->loop + (e == lo ? o->warmup : 0), grows = 0;
    for (long r = 0; ret == 0 && r < reps; r++) {
      double te = 0, tc = 0;
      const char *api = "";
      aclError rc = run_once(st, &te, &tc, &api);
      if (rc == ACL_ERROR_MODEL_OUTPUT_NOT_MATCH && grows < 12 && grow_outputs(st) == 0) {
        grows++;
        r--; /* the same run again with bigger output buffers; not measured */
        continue;
      }
      if (rc != ACL_SUCCESS) {
        char what[1200];
        snprintf(what, sizeof(what), "running model '%s' (execution %zu, run %ld)", o->model, e, r);
        ret = tool_acl_error(what, api, rc);
        break;
      }
      t->executions++;
      t->items_run += per_run;
      if (o->debug)
        fprintf(stderr, "openacl: debug: execution %zu run %ld: %.3f ms end-to-end, %.3f ms compute\n", e, r, te, tc);
      if (first) {
        t->first_e2e = te;
        t->first_compute = tc;
        first = 0;
      } else if (!(e == lo && r <= o->warmup)) {
        if (stats_add(&e2e, te, per_run) != 0 || stats_add(&compute, tc, per_run) != 0) {
          tool_error("out of memory recording latencies");
          ret = TOOL_FAIL;
        }
      }
    }
    if (ret == 0)
      ret = finish_execution(st, e, items);
    if (ret == 0) {
      t->shard_execs++;
      t->items += (double)items;
    }
    if (bar)
      progress(e - lo + 1, hi - lo);
  }
  t->run_ms = stats_now_ms() - t_start;
  stats_summarise(&e2e, &t->e2e);
  stats_summarise(&compute, &t->compute);
  stats_free(&e2e);
  stats_free(&compute);
  return ret;
}

int tool_cmd_infer(int argc, char **argv) {
  infer_opts o;
  tool_model m;
  infer_job j;
  run_state st;
  infer_times t;
  infer_gears gears;
  infer_shard shard;
  int loaded = 0;
  memset(&m, 0, sizeof(m));
  memset(&j, 0, sizeof(j));
  memset(&st, 0, sizeof(st));
  memset(&t, 0, sizeof(t));
  memset(&gears, 0, sizeof(gears));
  memset(&shard, 0, sizeof(shard));
  int ret = infer_shard_detect(&shard);
  if (ret == 0)
    ret = infer_opts_parse(argc, argv, &o);
  if (ret != 0) {
    ret = ret < 0 ? TOOL_OK : ret;
    goto out;
  }
  j.o = &o;
  j.m = &m;
  st.j = &j;
  ret = infer_dump_begin(&o);
  if (ret == 0)
    ret = infer_prof_begin(&o);
  if (ret == 0)
    ret = infer_shard_begin(&shard, &o); /* before anything a rank may fail at: see infer_shard.c */
  if (ret != 0)
    goto out;
  ret = tool_model_load(o.model, o.device, o.precision_mode, &m);
  if (ret != 0)
    goto out;
  loaded = 1;
  if (o.debug)
    describe(&m);
  st.gears = &gears;
  st.loaded = &m;
  ret = infer_gears_open(&o, &m, &gears);
  if (ret != 0)
    goto out;
  if (gears.kind != GEARS_NONE)
    j.m = &gears.view; /* the rest of the tool sees the real inputs only */
  if (o.recipe != NULL && o.recipe->load_model != NULL) {
    ret = o.recipe->load_model(o.recipe_self, j.m);
    if (ret != 0)
      goto out;
  }
  ret = parse_output_sizes(&j);
  if (ret == 0)
    ret = infer_inputs_prepare(&j);
  if (ret == 0)
    ret = infer_outputs_prepare(&j);
  if (ret == 0)
    ret = setup(&st);
  ret = infer_shard_ready(&shard, ret);
  if (ret == 0)
    ret = run_all(&st, &shard, &t);
  if (ret == 0 && !o.quiet && !infer_shard_reports(&shard))
    infer_summary_print(&j, &t);
  if (ret == 0 && !infer_shard_reports(&shard))
    ret = infer_summary_json(&j, &t);
out:
  ret = infer_shard_end(&shard, &j, &t, ret);
  if (st.ds_in != NULL)
    aclmdlDestroyDataset(st.ds_in);
  if (st.ds_out != NULL)
    aclmdlDestroyDataset(st.ds_out);
  if (st.in != NULL)
    for (size_t i = 0; i < j.m->n_in; i++)
      free_buf(&st.in[i]);
  if (st.out != NULL)
    for (size_t i = 0; i < j.m->n_out; i++)
      free_buf(&st.out[i]);
  free_buf(&st.gear_in);
  free(st.in);
  free(st.out);
  infer_inputs_free(&j);
  free(j.out_size);
  infer_gears_free(&gears);
  int prof_ret = infer_prof_end(&o, ret == 0);
  if (ret == 0)
    ret = prof_ret;
  if (loaded)
    tool_model_unload(&m, o.device);
  infer_dump_end(&o, ret == 0);
  if (o.recipe != NULL && o.recipe->destroy != NULL && o.recipe_self != NULL)
    o.recipe->destroy(o.recipe_self);
  aclFinalize();
  return ret;
}
