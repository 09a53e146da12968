/*
 * engine.h - the optimised model engine: runs an acl__graph with oneDNN
 * for the heavy operators and the reference kernels (src/model/ops/) for
 * everything else.  aclmdlExecute uses it; the reference executor (exec.h)
 * stays the correctness baseline and the fallback.
 *
 * Two stages:
 *  - acl__engine_create (at aclmdlLoad*): graph rewrites that do not depend
 *    on input shapes: Identity/Dropout removed, BatchNormalization folded into
 *    the convolution before it.
 *  - a plan per set of input shapes, built at the first execution with those
 *    shapes and cached: shape inference, constant folding, fusions (a
 *    convolution with the residual Add and the activation after it), layout
 *    choice (oneDNN's blocked layouts between oneDNN operators, reorders at
 *    the boundaries), weights reordered once, primitives created, and a
 *    static memory plan (one arena per execution, buffers reused by
 *    liveness).  A plan the engine cannot build (an operator whose output
 *    shape depends on tensor values it cannot know in advance, say) makes
 *    the execution use the reference executor instead: slower, never wrong.
 *
 * Thread budget: oneDNN runs its parallel loops on OpenMP threads; the
 * caller passes the device's executor count as the budget, and executions
 * running at the same time divide it between them, so models use the
 * device's threads and not more.
 *
 * Thread safety: one engine may run on several threads at once; each
 * execution takes its own arena and oneDNN memory objects ("instance") from
 * a pool kept per plan.
 */
#ifndef OPENACL_MODEL_ENGINE_ENGINE_H
#define OPENACL_MODEL_ENGINE_ENGINE_H

#include <stddef.h>

#include "common/diag.h"
#include "common/precision.h"
#include "model/exec.h"
#include "model/graph.h"

typedef struct acl__engine acl__engine;

/* Prepares `g` (which must outlive the engine).  precision: an ACL__PREC_*
 * value (common/precision.h); bfloat16 applies only where the CPU computes
 * it natively, else float32 with an INFO log line.  Returns 0 with *out set,
 * or ACL_ERROR_BAD_ALLOC.  Never fails for a graph the reference executor can
 * run: what the engine cannot do is left to the reference kernels. */
int acl__engine_create(const acl__graph *g, int precision, acl__engine **out, acl__diags *diags);
/* After it the graph's trimmed initializers (below) have no data: the graph
 * is fit only for acl__graph_free. */
void acl__engine_destroy(acl__engine *e);

/* The graph owns its initializers' bytes (not the caller's weight memory):
 * the engine may free an initializer that only its reordered copies are read
 * for, and rebuilds it before anything reads it (weights.c). */
void acl__engine_allow_weight_trim(acl__engine *e);
/* Rebuilds every trimmed initializer and trims no more: call before reading
 * the graph's weights yourself (the reference executor, dumps).  0, or
 * ACL_ERROR_BAD_ALLOC (then the graph must not be run). */
int acl__engine_keep_weights(acl__engine *e, acl__diags *diags);

/* Runs the graph; the same contract as acl__exec_run (exec.h): `inputs` are
 * read in place, `outputs` receive new owned tensors - except when every
 * output is given with data (not owned: the caller's buffer of `size`
 * bytes) and each result has exactly that size and its declared type: then
 * the results are written there (computed in place where the plan allows,
 * else copied once) and the outputs come back borrowing the buffers.  A
 * failed run leaves the buffers untouched.  `work` (may be NULL):
 * the caller's working memory (aclmdlLoadFrom*WithMem), used as the arena of
 * one execution at a time when the plan's arena fits in `work_size`. */
int acl__engine_run(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, acl__tensor *outputs,
                    size_t n_outputs, int threads, void *work, size_t work_size, acl__diags *diags);

/* Builds the plan for inputs of these shapes (their data is not read) as
 * the first acl__engine_run with them would, so that run starts at once.
 * 0 also when there is nothing to build (the reference executor runs the
 * graph); else the build's failure. */
int acl__engine_prepare(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, int threads,
                        acl__diags *diags);

/* Runs fn(arg) on the engine's thread (engine.c: one OpenMP master for the
 * whole process, so that oneDNN keeps one team whichever thread executes a
 * model) and returns its result; the caller sleeps meanwhile.  fn must set
 * up anything thread-bound it needs, such as device-memory access. */
int acl__engine_call_home(int (*fn)(void *), void *arg);
/* 1 on the engine's thread (inside acl__engine_call_home's fn there): what
 * runs here runs one at a time. */
int acl__engine_on_home(void);

/* Which executor OPENACL_MODEL_ENGINE selects: 1 for the engine (default,
 * "auto"), 0 for the reference executor ("reference").  Read once. */
int acl__engine_enabled(void);
/* 0 when OPENACL_CONV_WINOGRAD=0 keeps convolutions off Winograd. */
int acl__eng_winograd_on(void);

/* Statistics of the last plan built, for tests and the log. */
typedef struct acl__engine_stats {
  size_t plans;          /* plans cached */
  size_t steps;          /* steps of the newest plan */
  size_t dnnl_steps;     /* of which oneDNN primitives (reorders included) */
  size_t ref_steps;      /* of which reference kernels */
  size_t kernel_steps;   /* of which the engine's own kernels (kernels.c) but relayouts */
  size_t relayout_steps; /* of which the engine's moves between channels-last and blocked (kernels.c) */
  size_t fused;          /* nodes fused into another (BN folds, adds, activations) */
  size_t arena_bytes;    /* the newest plan's arena */
  int fallback;          /* the newest input shapes run on the reference executor */
  double build_ms;       /* time the newest plan took to build */
  size_t bf16_steps;     /* primitives of the newest plan that compute in bfloat16 */
  size_t int8_steps;     /* convolutions of the newest plan that compute in int8 */
} acl__engine_stats;
void acl__engine_get_stats(acl__engine *e, acl__engine_stats *st);

#endif
