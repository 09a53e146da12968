/*
 * dnnl.h - the aclnn operators' layer over oneDNN (dnnl.c): descriptors of
 * tensor views, and primitives run on the model engine's thread.
 */
#ifndef OPENACL_ACLNN_DNNL_H
#define OPENACL_ACLNN_DNNL_H

#include <dnnl.h>

#include "aclnn/nn.h"
#include "model/engine/dnnl_common.h"

#define ACL__NN_DNNL_MAX_ARGS 6

/* One primitive of a run and its arguments: buf[i] is the data of
 * argument arg[i] (DNNL_ARG_*), laid out as md[i]. */
typedef struct acl__nn_dstep {
  dnnl_primitive_t prim;
  int n;
  int arg[ACL__NN_DNNL_MAX_ARGS];
  const dnnl_memory_desc_t *md[ACL__NN_DNNL_MAX_ARGS];
  void *buf[ACL__NN_DNNL_MAX_ARGS];
  const dnnl_memory_desc_t *scratch_md; /* the primitive's scratchpad (NULL or empty: none), given per run */
  /* NULL, or ACL__NN_DNNL_MAX_ARGS + 1 slots (the last for the scratchpad) where the caller keeps this step's
   * memory objects from run to run: made at the first run on the engine's thread, where runs come one at a
   * time, and given each later run's buffers there (creating one costs about 1 us, a run has up to a dozen);
   * acl__nn_dnnl_mem_free destroys them.  Runs elsewhere make and destroy their own. */
  dnnl_memory_t *mem;
} acl__nn_dstep;

/* The descriptor of tref t's view in type dt (its dims and element
 * strides); -1 when oneDNN cannot describe it (negative strides, a stride
 * of 0 along a dim larger than 1). */
int acl__nn_dnnl_md(dnnl_memory_desc_t *md, const acl__nn_tref *t, dnnl_data_type_t dt);
/* t can be handed to oneDNN where it lies: float32, strides it can describe. */
int acl__nn_dnnl_usable(const acl__nn_tref *t);
/* pd is oneDNN's reference implementation (slow: the caller may prefer
 * another layout). */
int acl__nn_dnnl_is_ref(const_dnnl_primitive_desc_t pd);
/* Runs the steps in order on the engine's thread (device access open), with
 * an OpenMP team of `threads`: 0 or an aclError. */
int acl__nn_dnnl_run(struct acl__device *dev, int threads, const acl__nn_dstep *steps, int n);
/* Primitives are made for the team they run with (oneDNN sizes a
 * primitive's work for the threads of the thread that makes it): fn(arg) on
 * the calling thread when its team is that one, else on the engine's thread
 * with that team; its result returned.  threads: the
 * current context's device's executors (acl__nn_dnnl_threads), which phase
 * 2 passes to acl__nn_dnnl_run again. */
int acl__nn_dnnl_threads(void);
int acl__nn_dnnl_make(int threads, int (*fn)(void *), void *arg);
/* Attributes for primitives made here: the scratchpad is ours (each run
 * allocates its own, acl__nn_dstep.scratch_md), not oneDNN's per-thread one.
 * NULL when out of memory; dnnl_primitive_attr_destroy when done. */
dnnl_primitive_attr_t acl__nn_dnnl_attr(void);
/* Destroys the n memory objects of mem[] that were made (acl__nn_dstep.mem). */
void acl__nn_dnnl_mem_free(dnnl_memory_t *mem, int n);
/* A buffer for md (acl__nn_temp: give it back with acl__nn_temp_free), or NULL. */
void *acl__nn_dnnl_temp(const dnnl_memory_desc_t *md);

#endif
