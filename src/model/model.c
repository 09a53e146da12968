/*
 * model.c - the registry of loaded models and the input/output descriptions
 * (see model.h).
 *
 * The registry is a list guarded by one mutex (a leaf lock).  Ids come from
 * a counter that only grows, so an id that was unloaded (or freed by
 * aclFinalize) is never handed out again and a stale id is always reported
 * as unknown rather than silently naming another model.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/errmsg.h"
#include "common/log.h"
#include "dump/dump.h"
#include "model/engine/engine.h"
#include "model/gears.h"
#include "model/model.h"
#include "rt/rt.h"

static struct {
  pthread_mutex_t lock;
  acl__model *list;   /* lock */
  size_t count;       /* lock */
  uint32_t next_id;   /* lock; the last id handed out */
} reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

/* ---- descriptions ------------------------------------------------------------ */

static size_t io_size(const acl__model_io *io, int rank_known) {
  size_t elem = io->dtype == ACL_DT_UNDEFINED ? 0 : aclDataTypeSize(io->dtype);
  if (!rank_known || elem == 0)
    return 0;
  size_t n = elem;
  for (size_t i = 0; i < io->rank; i++) {
    if (io->dims[i] < 0)
      return 0;
    if (io->dims[i] == 0)
      return 0;
    if ((uint64_t)io->dims[i] > SIZE_MAX / n)
      return 0; /* not representable: reported as unknown */
    n *= (size_t)io->dims[i];
  }
  return n;
}

static int io_from_tensor(const acl__graph_tensor *t, acl__model_io *io) {
  memset(io, 0, sizeof(*io));
  io->name = strdup(t->name != NULL ? t->name : "");
  if (io->name == NULL)
    return ACL_ERROR_BAD_ALLOC;
  io->dtype = t->dtype;
  int rank_known = t->rank >= 0;
  io->rank = rank_known ? (size_t)t->rank : 0;
  if (io->rank > 0) {
    io->dims = malloc(io->rank * sizeof(*io->dims));
    if (io->dims == NULL)
      return ACL_ERROR_BAD_ALLOC;
    for (size_t i = 0; i < io->rank; i++)
      io->dims[i] = t->dims[i].value >= 0 ? t->dims[i].value : -1;
  }
  io->format = io->rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
  io->size = io_size(io, rank_known);
  return 0;
}

static void io_free(acl__model_io *io, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(io[i].name);
    free(io[i].dims);
  }
  free(io);
}

void acl__model_iodesc_free(acl__model_iodesc *d) {
  io_free(d->inputs, d->n_inputs);
  io_free(d->outputs, d->n_outputs);
  memset(d, 0, sizeof(*d));
}

static int io_list_build(const acl__graph *g, const int *idx, size_t n, acl__model_io **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  if (n == 0)
    return 0;
  acl__model_io *io = calloc(n, sizeof(*io));
  if (io == NULL)
    return ACL_ERROR_BAD_ALLOC;
  *out = io;
  for (size_t i = 0; i < n; i++) {
    *n_out = i + 1; /* so that a partly built entry is freed */
    if (io_from_tensor(&g->tensors[idx[i]], &io[i]) != 0)
      return ACL_ERROR_BAD_ALLOC;
  }
  return 0;
}

int acl__model_iodesc_build(const acl__graph *g, acl__model_iodesc *out) {
  memset(out, 0, sizeof(*out));
  if (io_list_build(g, g->inputs, g->n_inputs, &out->inputs, &out->n_inputs) != 0 ||
      io_list_build(g, g->outputs, g->n_outputs, &out->outputs, &out->n_outputs) != 0) {
    acl__model_iodesc_free(out);
    return ACL_ERROR_BAD_ALLOC;
  }
  return 0;
}

static int io_list_copy(const acl__model_io *src, size_t n, acl__model_io **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  if (n == 0)
    return 0;
  acl__model_io *io = calloc(n, sizeof(*io));
  if (io == NULL)
    return ACL_ERROR_BAD_ALLOC;
  *out = io;
  for (size_t i = 0; i < n; i++) {
    *n_out = i + 1;
    io[i] = src[i];
    io[i].name = strdup(src[i].name);
    io[i].dims = NULL;
    if (io[i].name == NULL)
      return ACL_ERROR_BAD_ALLOC;
    if (src[i].rank > 0) {
      io[i].dims = malloc(src[i].rank * sizeof(*io[i].dims));
      if (io[i].dims == NULL)
        return ACL_ERROR_BAD_ALLOC;
      memcpy(io[i].dims, src[i].dims, src[i].rank * sizeof(*io[i].dims));
    }
  }
  return 0;
}

int acl__model_iodesc_copy(const acl__model_iodesc *src, acl__model_iodesc *out) {
  memset(out, 0, sizeof(*out));
  if (io_list_copy(src->inputs, src->n_inputs, &out->inputs, &out->n_inputs) != 0 ||
      io_list_copy(src->outputs, src->n_outputs, &out->outputs, &out->n_outputs) != 0) {
    acl__model_iodesc_free(out);
    return ACL_ERROR_BAD_ALLOC;
  }
  return 0;
}

/* ---- registry ------------------------------------------------------------------ */

static void model_free(acl__model *m) {
  acl__engine_destroy(m->engine); /* before the graph it points into */
  if (m->graph != NULL && m->weight_mem != NULL)
    acl__model_weights_forget(m->graph, m->weight_mem, m->weight_size);
  acl__gears_free(m->gears);
  acl__dump_binding_free(m->dump);
  acl__graph_free(m->graph);
  acl__model_iodesc_free(&m->io);
  free(m);
}

int acl__model_describe(const char *api, const acl__graph *g, acl__model_iodesc *io, acl__gears **gears) {
  acl__gears *gr = NULL;
  if (gears != NULL)
    *gears = NULL;
  int rc = acl__gears_from_env(api, g, &gr);
  if (rc != 0)
    return rc;
  if (acl__model_iodesc_build(g, io) != 0 || (gr != NULL && acl__gears_describe(gr, io) != 0)) {
    acl__model_iodesc_free(io);
    acl__gears_free(gr);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "out of host memory for the model's input and output description");
  }
  if (gears != NULL)
    *gears = gr;
  else
    acl__gears_free(gr);
  return 0;
}

int acl__model_add(const char *api, acl__graph *g, struct acl__context *ctx, const acl__model_mem *mem,
                   int precision, uint32_t *id) {
  acl__model *m = calloc(1, sizeof(*m));
  if (m == NULL) {
    if (mem != NULL && mem->weight != NULL)
      acl__model_weights_forget(g, mem->weight, mem->weight_size);
    acl__graph_free(g);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__, "out of host memory for a model");
  }
  m->graph = g;
  m->ctx = ctx;
  m->device_id = ctx != NULL ? ctx->dev->id : -1;
  m->refs = 1;
  m->cur_gear = -1;
  m->precision = precision;
  if (mem != NULL) {
    m->work_mem = mem->work;
    m->work_size = mem->work_size;
    m->weight_mem = mem->weight;
    m->weight_size = mem->weight_size;
  }
  int rc = acl__model_describe(api, g, &m->io, &m->gears);
  if (rc != 0) {
    model_free(m);
    return rc;
  }
  pthread_mutex_lock(&reg.lock);
  if (reg.next_id == UINT32_MAX) {
    pthread_mutex_unlock(&reg.lock);
    model_free(m);
    return acl__fail(api, ACL_ERROR_BAD_ALLOC, __FILE__, __LINE__,
                     "every model id (1 to %u) has been used in this process", UINT32_MAX - 1);
  }
  m->id = ++reg.next_id;
  m->next = reg.list;
  reg.list = m;
  reg.count++;
  *id = m->id;
  pthread_mutex_unlock(&reg.lock);
  return 0;
}

/* With the lock held: the model and the link that points to it. */
static acl__model **find_locked(uint32_t id) {
  for (acl__model **p = &reg.list; *p != NULL; p = &(*p)->next)
    if ((*p)->id == id)
      return p;
  return NULL;
}

static int unknown_id(const char *api, uint32_t id, uint32_t last) {
  if (id == 0 || id > last)
    return acl__fail(api, ACL_ERROR_INVALID_MODEL_ID, __FILE__, __LINE__,
                     "model id %u was never returned by aclmdlLoadFromFile or aclmdlLoadFromMem in this process",
                     id);
  return acl__fail(api, ACL_ERROR_INVALID_MODEL_ID, __FILE__, __LINE__,
                   "model %u is not loaded: it was unloaded (aclmdlUnload, or aclFinalize unloaded it)", id);
}

acl__model *acl__model_acquire(const char *api, uint32_t id, int *rc) {
  pthread_mutex_lock(&reg.lock);
  acl__model **p = find_locked(id);
  acl__model *m = p != NULL ? *p : NULL;
  if (m != NULL)
    m->refs++;
  uint32_t last = reg.next_id;
  pthread_mutex_unlock(&reg.lock);
  if (m == NULL)
    *rc = unknown_id(api, id, last);
  return m;
}

void acl__model_retain(acl__model *m) {
  pthread_mutex_lock(&reg.lock);
  m->refs++;
  pthread_mutex_unlock(&reg.lock);
}

void acl__model_release(acl__model *m) {
  if (m == NULL)
    return;
  pthread_mutex_lock(&reg.lock);
  int last = --m->refs == 0;
  pthread_mutex_unlock(&reg.lock);
  if (last)
    model_free(m);
}

int acl__model_unload(const char *api, uint32_t id, struct acl__context *ctx) {
  pthread_mutex_lock(&reg.lock);
  acl__model **p = find_locked(id);
  if (p == NULL) {
    uint32_t last = reg.next_id;
    pthread_mutex_unlock(&reg.lock);
    return unknown_id(api, id, last);
  }
  acl__model *m = *p;
  if (m->ctx != ctx) {
    void *mctx = m->ctx;
    int32_t mdev = m->device_id;
    pthread_mutex_unlock(&reg.lock);
    return acl__fail(api, ACL_ERROR_RT_MODEL_CONTEXT, __FILE__, __LINE__,
                     "model %u was loaded in context %p (device %d), but the current context is %p (device %d). "
                     "Remedy: make the loading context current (aclrtSetCurrentContext) before unloading",
                     id, mctx, (int)mdev, (void *)ctx, (int)ctx->dev->id);
  }
  *p = m->next;
  reg.count--;
  int last = --m->refs == 0;
  pthread_mutex_unlock(&reg.lock);
  if (last)
    model_free(m);
  return 0;
}

int acl__model_cur_gear(uint32_t id) {
  int gear = -1;
  pthread_mutex_lock(&reg.lock);
  acl__model **p = find_locked(id);
  if (p != NULL)
    gear = __atomic_load_n(&(*p)->cur_gear, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&reg.lock);
  return gear;
}

void acl__model_set_cur_gear(acl__model *m, int gear) { __atomic_store_n(&m->cur_gear, gear, __ATOMIC_RELAXED); }

size_t acl__model_count(void) {
  pthread_mutex_lock(&reg.lock);
  size_t n = reg.count;
  pthread_mutex_unlock(&reg.lock);
  return n;
}

void acl__model_finalize(void) {
  pthread_mutex_lock(&reg.lock);
  acl__model *list = reg.list;
  reg.list = NULL;
  reg.count = 0;
  pthread_mutex_unlock(&reg.lock);
  while (list != NULL) {
    acl__model *m = list;
    list = m->next;
    ACL__LOGW(ACL__MOD_GE, "aclFinalize: model %u (graph \"%s\", loaded on device %d) was still loaded; "
              "unloaded it. Remedy: call aclmdlUnload before aclFinalize", m->id,
              m->graph != NULL && m->graph->graph_name != NULL ? m->graph->graph_name : "", (int)m->device_id);
    acl__model_release(m);
  }
}

/* fork(): the registry lock is never inherited held, and the child forgets
 * the parent's models (their memory is the parent's runtime's). */
void acl__model_atfork_prepare(void) { pthread_mutex_lock(&reg.lock); }
void acl__model_atfork_parent(void) { pthread_mutex_unlock(&reg.lock); }
void acl__model_atfork_child(void) {
  pthread_mutex_init(&reg.lock, NULL);
  reg.list = NULL; /* dropped, not freed: the child must not run the parent's teardown */
  reg.count = 0;
}
