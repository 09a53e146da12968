/*
 * model.h - the registry of loaded models (aclmdlLoadFrom* / aclmdlUnload)
 * and the description of a model's inputs and outputs (aclmdlDesc).
 *
 * A loaded model has an id (1, 2, ... never reused within a process run,
 * not even across aclFinalize / aclInit), the graph the loader produced,
 * the context it was loaded in (execute and unload must happen there) and
 * its input/output description, built once at load.
 *
 * Ownership: the registry owns each model.  acl__model_acquire hands out a
 * counted reference, so a model stays alive while a description is copied
 * or (later) an execution runs, even if another thread unloads it; the last
 * reference frees it.  aclFinalize unloads every model still loaded
 * (acl__model_finalize), logging each as leaked.
 *
 * Lock: one registry mutex (model.c), a leaf: nothing else is locked while
 * it is held, and it is never held while a graph is freed.
 */
#ifndef OPENACL_MODEL_MODEL_H
#define OPENACL_MODEL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "model/graph.h"

struct acl__context;

/* One input or output as aclmdlGetInputDims & co. report it. */
typedef struct acl__model_io {
  char *name;          /* the full ONNX name */
  aclDataType dtype;   /* ACL_DT_UNDEFINED when the file does not state it */
  aclFormat format;    /* ACL_FORMAT_NCHW for 4-D, else ACL_FORMAT_ND */
  size_t rank;         /* 0 for a scalar, and when the shape is not declared */
  int64_t *dims;       /* rank entries; -1 for an unknown or symbolic dim */
  size_t size;         /* bytes; 0 when a dim is -1, the shape or type unknown, or it overflows */
} acl__model_io;

typedef struct acl__model_iodesc {
  acl__model_io *inputs;   /* graph inputs that are not initializers, in file order */
  size_t n_inputs;
  acl__model_io *outputs;  /* graph outputs, in file order */
  size_t n_outputs;
} acl__model_iodesc;

/* Builds the description of a graph.  0 or ACL_ERROR_BAD_ALLOC (nothing
 * recorded; *out is then empty). */
int acl__model_iodesc_build(const acl__graph *g, acl__model_iodesc *out);
/* Deep copy; 0 or ACL_ERROR_BAD_ALLOC (then *out is empty). */
int acl__model_iodesc_copy(const acl__model_iodesc *src, acl__model_iodesc *out);
/* Frees what *d holds and empties it. */
void acl__model_iodesc_free(acl__model_iodesc *d);

struct acl__gears;

/* Caller-provided memory of aclmdlLoadFrom*WithMem (device memory of the
 * model's device, owned by the caller; NULL / 0 where openacl allocates). */
typedef struct acl__model_mem {
  void *work;
  size_t work_size;
  void *weight;
  size_t weight_size;
} acl__model_mem;

typedef struct acl__model {
  uint32_t id;
  acl__graph *graph;
  struct acl__context *ctx;  /* where it was loaded; compared, never dereferenced after load */
  int32_t device_id;         /* that context's device */
  acl__model_iodesc io;      /* with gears: largest-gear dims, plus the extra input last */
  struct acl__gears *gears;  /* gears.h; NULL for a model without gears.  Read-only after load */
  int cur_gear;              /* the gear the last aclmdlSet{DynamicBatchSize,...} chose, -1 none (atomic) */
  /* aclmdlLoadFrom*WithMem: the caller's working memory, for the engine to use
   * as its arena (NULL / 0: none given), and the caller's weight memory, which
   * holds the initializers' data (graph tensors point into it) */
  void *work_mem;
  size_t work_size;
  void *weight_mem;
  size_t weight_size;
  /* the optimised engine (engine/engine.h), made by the first execution on
   * an executor thread (which may read weights held in device memory);
   * published with an atomic compare-and-swap, freed with the model */
  struct acl__engine *engine;
  int precision;             /* ACL__PREC_*: the load's precision mode, for the engine */
  /* dump (src/dump/dump.h): the binding to the dump configuration in force
   * at load, or NULL when no dump applies (set once right after the load,
   * before the id is returned; freed with the model) */
  struct acl__dump_binding *dump;
  int refs;                  /* registry lock: the registry's own + one per acquire */
  struct acl__model *next;   /* registry lock */
} acl__model;

/* Describes graph g as a load would: the graph's inputs and outputs, and the
 * gears of the OPENACL_DYNAMIC_* variables (gears.h) when they apply (*gears
 * is then set, else NULL; gears may be NULL when the caller needs only io).
 * 0, or the recorded failure (bad variable, ACL_ERROR_BAD_ALLOC). */
int acl__model_describe(const char *api, const acl__graph *g, acl__model_iodesc *io, struct acl__gears **gears);
/* Registers a loaded graph made in context ctx (the model takes the graph,
 * also on failure).  mem: the memory of a ...WithMem load, whose weight part
 * already holds the initializers (acl__model_weights_move), or NULL.
 * precision: an ACL__PREC_* value (common/precision.h) for its engine.  0 and
 * *id, or the recorded failure (a bad gear variable, ACL_ERROR_BAD_ALLOC). */
int acl__model_add(const char *api, acl__graph *g, struct acl__context *ctx, const acl__model_mem *mem,
                   int precision, uint32_t *id);
/* The gear last chosen on model id, or -1 (none chosen, or not loaded).
 * Records nothing. */
int acl__model_cur_gear(uint32_t id);
void acl__model_set_cur_gear(acl__model *m, int gear);

/* worksize.c: the memory of aclmdlQuerySize and the ...WithMem loads.
 * Weight memory holds every initializer's data, each starting at a multiple
 * of ACL__MODEL_WEIGHT_ALIGN bytes. */
#define ACL__MODEL_WEIGHT_ALIGN 64
size_t acl__model_weight_size(const acl__graph *g);
/* An estimate of the working memory one execution needs (see worksize.c). */
size_t acl__model_work_size(const acl__graph *g);
/* Copies every initializer's data into device memory `mem` (at least
 * acl__model_weight_size bytes) and points the graph's tensors at it, freeing
 * their host copies.  0, or the recorded failure of the copy. */
int acl__model_weights_move(const char *api, acl__graph *g, void *mem, size_t size);
/* Before the graph is freed: forgets the data pointers into `mem` (they are
 * the caller's memory, not the graph's). */
void acl__model_weights_forget(acl__graph *g, const void *mem, size_t size);
/* A counted reference to model `id`, or NULL after recording
 * ACL_ERROR_INVALID_MODEL_ID for api (*rc holds the code). */
acl__model *acl__model_acquire(const char *api, uint32_t id, int *rc);
/* Another counted reference to a model the caller holds one of. */
void acl__model_retain(acl__model *m);
void acl__model_release(acl__model *m);
/* aclmdlUnload: removes model id when ctx is the context it was loaded in.
 * 0, ACL_ERROR_INVALID_MODEL_ID or ACL_ERROR_RT_MODEL_CONTEXT (recorded). */
int acl__model_unload(const char *api, uint32_t id, struct acl__context *ctx);
/* Models currently loaded (for tests and leak reports). */
size_t acl__model_count(void);
/* aclFinalize (called before acl__rt_shutdown, so before contexts and
 * devices go): unloads every model still loaded and logs it as leaked. */
void acl__model_finalize(void);
/* fork() handlers (src/acl/fork.c). */
void acl__model_atfork_prepare(void);
void acl__model_atfork_parent(void);
void acl__model_atfork_child(void);

#endif
