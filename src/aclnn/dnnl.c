/*
 * dnnl.c - the aclnn operators' thin layer over oneDNN (matmul.c, conv.c):
 * memory descriptors of a tensor view, and running a short list of
 * primitives (reorders, a matmul or a convolution) on the model engine's
 * thread, where oneDNN keeps its one OpenMP team (engine.c), with
 * device-memory access open and the device's executor count as the team.
 *
 * Primitives are made at phase 1 on the process's CPU engine
 * (acl__engine_dnnl_cpu) and kept in the operator's job; each run wraps
 * the task's addresses in oneDNN memory objects of its own.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aclnn/dnnl.h"
#include "model/engine/engine.h"
#include "rt/rt.h"

int acl__nn_dnnl_md(dnnl_memory_desc_t *md, const acl__nn_tref *t, dnnl_data_type_t dt) {
  dnnl_dims_t d, st;
  int r = t->rank > 0 ? t->rank : 1;
  int64_t outer = 1; /* a stride past every element: dims of 1 get it (their stride does not matter) */
  for (int k = 0; k < r; k++) {
    d[k] = t->rank > 0 ? t->dims[k] : 1;
    st[k] = t->rank > 0 ? t->st[k] : 1;
    if (st[k] < 0 || (st[k] == 0 && d[k] > 1))
      return -1;
    if (d[k] > 1 && st[k] * d[k] > outer)
      outer = st[k] * d[k];
  }
  for (int k = 0; k < r; k++)
    if (d[k] == 1)
      st[k] = outer;
  return dnnl_memory_desc_init_by_strides(md, r, d, dt, st) == dnnl_success ? 0 : -1;
}

int acl__nn_dnnl_usable(const acl__nn_tref *t) {
  if (t->dtype != ACL_FLOAT)
    return 0;
  for (int k = 0; k < t->rank; k++)
    if (t->st[k] < 0 || (t->st[k] == 0 && t->dims[k] > 1))
      return 0;
  return 1;
}

int acl__nn_dnnl_is_ref(const_dnnl_primitive_desc_t pd) {
  const char *impl = NULL;
  if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success || impl == NULL)
    return 0;
  return strstr(impl, "ref") != NULL;
}

typedef struct dnnl_call {
  struct acl__device *dev;
  int threads;
  const acl__nn_dstep *steps;
  int n;
} dnnl_call;

static int dnnl_home(void *arg) {
  const dnnl_call *c = arg;
  int rc = 0;
  dnnl_engine_t eng = acl__engine_dnnl_cpu();
  dnnl_stream_t stream = NULL;
  int home = acl__engine_on_home(); /* steps' kept memory objects may be used (dnnl.h) */
  /* elsewhere (an executor, or a thread that synchronises and helps: a program's thread) the thread's own
   * OpenMP setting is given back after */
  int before = home ? 0 : acl__engine_caller_team();
  acl__device_access_begin(c->dev);
  acl__engine_set_threads(c->threads); /* the team the primitives were made for (acl__nn_dnnl_make) */
  if (eng == NULL || dnnl_stream_create(&stream, eng, dnnl_stream_default_flags) != dnnl_success)
    rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
  for (int s = 0; s < c->n && rc == 0; s++) {
    const acl__nn_dstep *st = &c->steps[s];
    dnnl_exec_arg_t args[ACL__NN_DNNL_MAX_ARGS + 1];
    int kept[ACL__NN_DNNL_MAX_ARGS + 1] = {0};
    int n = st->n, made = 0;
    void *scratch = NULL;
    if (st->scratch_md != NULL && dnnl_memory_desc_get_size(st->scratch_md) > 0) {
      if ((scratch = acl__nn_dnnl_temp(st->scratch_md)) == NULL)
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
      n++;
    }
    for (; made < n && rc == 0; made++) {
      int sc = made == st->n;
      void *buf = sc ? scratch : st->buf[made];
      dnnl_memory_t *keep = home && st->mem != NULL ? &st->mem[sc ? ACL__NN_DNNL_MAX_ARGS : made] : NULL;
      args[made].arg = sc ? DNNL_ARG_SCRATCHPAD : st->arg[made];
      if (keep != NULL && *keep != NULL) {
        args[made].memory = *keep;
        kept[made] = 1;
        if (dnnl_memory_set_data_handle(*keep, buf) != dnnl_success) {
          rc = ACL_ERROR_RT_INTERNAL_ERROR;
          made++;
          break;
        }
        continue;
      }
      if (dnnl_memory_create(&args[made].memory, sc ? st->scratch_md : st->md[made], eng, buf) != dnnl_success) {
        rc = ACL_ERROR_RT_MEMORY_ALLOCATION;
        break;
      }
      if (keep != NULL) {
        *keep = args[made].memory;
        kept[made] = 1;
      }
    }
    if (rc == 0 && dnnl_primitive_execute(st->prim, stream, n, args) != dnnl_success)
      rc = ACL_ERROR_RT_INTERNAL_ERROR;
    if (rc == 0)
      dnnl_stream_wait(stream);
    for (int i = 0; i < made; i++)
      if (!kept[i])
        dnnl_memory_destroy(args[i].memory);
    acl__nn_temp_free(scratch);
  }
  if (stream != NULL)
    dnnl_stream_destroy(stream);
  if (before > 0)
    acl__engine_set_threads(before);
  acl__device_access_end(c->dev);
  return rc;
}

int acl__nn_dnnl_run(struct acl__device *dev, int threads, const acl__nn_dstep *steps, int n) {
  dnnl_call c = {dev, threads, steps, n};
  /* a team of one opens no OpenMP pool (oneDNN runs its loops inline): the calling executor runs the steps
   * itself, without the two hand-offs to the engine's thread and back (primitives may run concurrently,
   * each run has its own scratchpad) */
  if (acl__engine_team(threads) == 1)
    return dnnl_home(&c);
  return acl__engine_call_home(dnnl_home, &c);
}

int acl__nn_dnnl_threads(void) {
  acl__context *c = acl__context_peek();
  if (c != NULL && c->dev != NULL && c->dev->props.executor_threads > 0)
    return c->dev->props.executor_threads;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

typedef struct dnnl_make {
  int threads;
  int (*fn)(void *);
  void *arg;
} dnnl_make;

static int dnnl_make_home(void *arg) {
  const dnnl_make *m = arg;
  acl__engine_set_threads(m->threads);
  return m->fn(m->arg);
}

int acl__nn_dnnl_make(int threads, int (*fn)(void *), void *arg) {
  /* the caller's own team is the one the primitive will run with (the usual case: both the host's cores):
   * made here, without the two hand-offs to the engine's thread */
  if (acl__engine_caller_team() == acl__engine_team(threads))
    return fn(arg);
  dnnl_make m = {threads, fn, arg};
  return acl__engine_call_home(dnnl_make_home, &m);
}

void acl__nn_dnnl_mem_free(dnnl_memory_t *mem, int n) {
  for (int i = 0; i < n; i++)
    if (mem[i] != NULL)
      dnnl_memory_destroy(mem[i]);
}

void *acl__nn_dnnl_temp(const dnnl_memory_desc_t *md) { return acl__nn_temp(dnnl_memory_desc_get_size(md)); }

dnnl_primitive_attr_t acl__nn_dnnl_attr(void) {
  dnnl_primitive_attr_t attr = NULL;
  if (dnnl_primitive_attr_create(&attr) != dnnl_success)
    return NULL;
  dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
  return attr;
}
