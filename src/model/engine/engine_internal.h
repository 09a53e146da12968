/*
 * engine_internal.h - what the engine's files share: the rewritten graph
 * (engine.c), plans (plan.c), the oneDNN operator builders (dnnl_ops.c),
 * the engine's own kernels (kernels.c) and its OpenMP team (omp.c).
 *
 * Values.  Every tensor of the graph is a value, indexed like the graph's
 * tensor table; rewrites and plans append values of their own (folded
 * weights, reordered copies, views).  Within a plan each value has a shape,
 * a type and a storage:
 *   CONST  data known when the plan is built (initializers, folded nodes)
 *   INPUT  the caller's input buffer, read in place
 *   ARENA  a slice of the execution's arena, at a planned offset
 *   HEAP   produced by a reference kernel, which allocates its own output;
 *          freed after its last use
 *   VIEW   the bytes of another value (`base`) under another shape (Reshape,
 *          Flatten, Squeeze, Unsqueeze, Identity) or written in place (a
 *          convolution accumulating into its residual input)
 * and a oneDNN memory descriptor: plain row-major unless a oneDNN primitive
 * chose a blocked layout for it.
 */
#ifndef OPENACL_MODEL_ENGINE_ENGINE_INTERNAL_H
#define OPENACL_MODEL_ENGINE_ENGINE_INTERNAL_H

#include <dnnl.h>
#include <pthread.h>
#include <stdint.h>

#include "model/engine/dnnl_common.h"
#include "model/engine/engine.h"
#include "model/ops/ops.h"

enum { ENG_CONST = 1, ENG_INPUT, ENG_ARENA, ENG_HEAP, ENG_VIEW };

typedef struct eng_val {
  int kind;                 /* ENG_*; 0 until the plan defines it */
  int onnx_type;
  int rank;
  int64_t dims[ACL__EXEC_MAX_RANK];
  acl__tensor konst;        /* CONST: the data (owned when konst.owned) */
  int input;                /* INPUT: index into the graph's inputs */
  int base;                 /* VIEW: the value whose bytes these are */
  size_t view_off;          /* VIEW: where in base's bytes (a Gather of one index along axis 0) */
  dnnl_memory_desc_t md;    /* its layout; md.ndims == 0 when oneDNN cannot describe it */
  int plain;                /* dense row-major */
  size_t bytes;             /* ARENA: bytes; CONST/INPUT/HEAP: numel x element size */
  size_t offset;            /* ARENA: offset in the arena */
  int first, last;          /* steps that define and last read it (-1: none) */
  int plain_copy;           /* a plain reorder of this value, or -1 */
  int layout_copy;          /* its latest reorder into another layout (reused by later readers), or -1 */
  int graph_output;         /* read by the caller after the run */
  int out_slot;             /* k + 1 when this ARENA root holds exactly graph output k (plain, from byte 0):
                               an execution may put it in the caller's output buffer instead (engine.c) */
  float qscale;             /* not 0: the bytes are 8-bit integers (md's type) standing for float32 values
                               integer x qscale: a DequantizeLinear output kept quantised for an int8
                               convolution; readers that need float32 get a scaling reorder */
} eng_val;

enum { STEP_PRIM = 1, STEP_REF, STEP_KERNEL };

/* An engine kernel (kernels.c): ptr[k] are the bytes of the step's argument
 * k, in the order its builder gave them (at most ENG_KERNEL_MAX_ARGS). */
#define ENG_KERNEL_MAX_ARGS 64
typedef void (*eng_kernel_fn)(const void *params, void *const *ptr);

typedef struct eng_arg {
  int arg;   /* DNNL_ARG_* */
  int val;
} eng_arg;

typedef struct eng_step {
  int kind;
  /* PRIM */
  dnnl_primitive_t prim;
  eng_arg *args;
  int n_args;
  size_t scratch;           /* bytes of scratchpad it needs (given from the arena) */
  const char *what;         /* op type for messages */
  /* KERNEL: args (their `arg` unused) in the kernel's order */
  eng_kernel_fn kernel;
  void *params;             /* the kernel's, freed with the plan */
  const char *impl;         /* its name in logs and profiles */
  /* REF */
  int node;                 /* graph node index */
  int *ins;                 /* value per node input (-1 omitted) */
  int n_ins;
  int *outs;
  int n_outs;
} eng_step;

/* One execution's private state: arena, oneDNN memory objects and stream. */
typedef struct eng_inst {
  struct eng_inst *next;     /* in the plan's free list */
  void *arena;
  int external;              /* the arena is the caller's work memory: not freed, not pooled */
  dnnl_stream_t stream;
  dnnl_memory_t *mem;        /* per value, created for values a primitive reads or writes */
  dnnl_memory_t scratch_mem; /* the scratchpad, at the arena's end */
  void **ptr;                /* per value: its bytes in this execution */
  acl__tensor *heap;         /* per value: HEAP tensors alive in this execution */
  dnnl_exec_arg_t **args;    /* per step: the argument array for dnnl_primitive_execute */
} eng_inst;

typedef struct eng_plan {
  struct eng_plan *next;
  int64_t *key;              /* rank and dims of every input, flattened */
  size_t key_len;
  eng_val *vals;
  int n_vals, cap_vals;
  eng_step *steps;
  int n_steps, cap_steps;
  int *outputs;              /* value holding each graph output (plain) */
  int n_outputs;
  int refs;                  /* executions using it (under the engine's lock) */
  size_t arena_bytes;        /* buffers + scratchpad */
  size_t scratch_offset;
  size_t scratch_bytes;
  int fallback;              /* run this shape on the reference executor */
  int ref_steps;             /* steps on reference kernels (which can fail on data, mid-run) */
  size_t fused;
  size_t bf16_steps;         /* primitives computing in bfloat16 */
  size_t int8_steps;         /* convolutions computing in int8 (quantised models) */
  pthread_mutex_t lock;      /* guards `free` and the profile */
  eng_inst *free;
  double *prof_ms;           /* OPENACL_MODEL_PROFILE: per step, ms summed over runs, then per step the
                                fastest run's ms (at prof_ms + n_steps + 1); else NULL */
  size_t prof_runs;
} eng_plan;

typedef struct eng_wcopy eng_wcopy; /* weights.c */

struct acl__engine {
  const acl__graph *g;
  int64_t opset;
  dnnl_engine_t dnnl;
  /* Rewrites: per node, 1 when removed (Identity, Dropout, a BN folded into
   * its convolution); `alias[v]` redirects a removed node's output value to
   * the value it equals.  Folded weights live in `extra` (values n_tensors..). */
  char *dead;
  int *alias;
  acl__tensor *extra;
  int n_extra;
  int *conv_w, *conv_b;      /* per node: replacement weight/bias value (-1 none) */
  int *consumers;            /* per value: how many node inputs read it (+1 for graph outputs) */
  size_t folded;
  int reference_only;        /* strings or sequences: the reference executor runs it all */
  int bf16;                  /* convolutions and matrix products read bfloat16 (ACL__PREC_BF16 on a CPU with it) */
  int work_busy;             /* an execution uses the caller's work memory (atomic) */
  pthread_mutex_t lock;      /* guards the plan list and the weights below */
  eng_plan *plans;
  eng_wcopy *wcopies;        /* weights reordered into their kernels' layouts, shared by the plans (weights.c) */
  char *trimmed;             /* per graph tensor: 1 while the initializer lives only as copies (weights.c) */
  int trim_ok;               /* the graph owns its initializers' bytes and no reference run has begun */
  size_t trim_pending;       /* bytes trimmed since the last malloc_trim (weights.c) */
  size_t n_plans;
  acl__engine_stats last;
};

/* plan.c */
int acl__eng_plan_build(acl__engine *e, const acl__tensor *inputs, size_t n_inputs, eng_plan **out,
                        acl__diags *diags);
void acl__eng_plan_free(eng_plan *p);
void acl__eng_inst_free(eng_plan *p, eng_inst *in);
/* arena: the caller's memory of at least p->arena_bytes, or NULL to allocate one */
eng_inst *acl__eng_inst_create(acl__engine *e, eng_plan *p, void *arena);

/* dnnl_ops.c: create the primitive(s) for graph node `ni` in plan `p`, or
 * return 1 when oneDNN does not take this node (the plan then runs the
 * reference kernel), or an ACL error code.  May fuse the following nodes
 * (marking them in `skip`). */
typedef struct eng_build {
  acl__engine *e;
  eng_plan *p;
  char *skip;                /* per node: fused into an earlier step */
  int *uses_left;            /* per value: node reads still to come */
  acl__diags *diags;
  int node;                  /* the node being built: steps record it (profile, logs) */
} eng_build;
int acl__eng_dnnl_node(eng_build *b, int ni, const int *ins, size_t nin);

/* A graph tensor through the engine's rewrites (aliases made at creation). */
static inline int acl__eng_resolve(const acl__engine *e, int v) {
  while (v >= 0 && v < (int)e->g->n_tensors && e->alias[v] >= 0)
    v = e->alias[v];
  return v;
}

/* fold.c: shapes and constants from the reference kernels. */
int acl__eng_op_data_shaped(const char *op); /* output shape depends on data whatever the inputs */
int acl__eng_op_random(const char *op);      /* never folded */
int acl__eng_op_shape_only(const char *op);  /* output depends on the input's shape only */
void acl__eng_val_set_shape(eng_val *x, const acl__tensor *t); /* type and shape of t, plain layout */
/* Runs node ni's reference kernel on the plan's constants and zero-filled
 * stand-ins: with keep its outputs become constants (folding), else only
 * their types and shapes are recorded. */
int acl__eng_probe(eng_build *b, int ni, const int *ins, size_t nin, int keep);
int acl__eng_fold_ahead(eng_build *b, int v, int depth); /* 1: v is a constant, folded ahead if need be */

/* steps.c: a plan's values and steps. */
/* Byte offset of v's data from its root's (the sum along its chain of views). */
size_t acl__eng_view_off(const eng_plan *p, int v);
int acl__eng_val_new(eng_plan *p);
eng_step *acl__eng_step_new(eng_plan *p);
int acl__eng_plain(eng_build *b, int v);                     /* a plain version of v (reorder step if needed) */
int acl__eng_prim_step(eng_build *b, const dnnl_primitive_desc_t pd, const eng_arg *args, int n_args,
                       const char *what);
/* Appends a step running an engine kernel; takes params (freed with the
 * plan, also when this fails).  1 (nothing appended) past
 * ENG_KERNEL_MAX_ARGS arguments. */
int acl__eng_kernel_step(eng_build *b, eng_kernel_fn kernel, void *params, const eng_arg *args, int n_args,
                         const char *what, const char *impl);
/* omp.c: fn over [0, n) split into one contiguous range per thread of
 * the calling thread's OpenMP team (oneDNN's), or all of it here. */
void acl__engine_parallel(size_t n, void (*fn)(void *ctx, size_t begin, size_t end), void *ctx);

/* kernels.c: the engine's own kernels, for patterns oneDNN has no fast
 * path for.  Concatenation along channels, then a per-channel affine map
 * (an inference batch normalization) and optionally ReLU, in one pass:
 * DenseNet's Concat -> BatchNormalization -> Relu, without writing the
 * concatenation.  Inputs and output share a layout in which every image's
 * channels come in groups of `group` (1: plain NCHW; 8 or 16: oneDNN's
 * nChw8c / nChw16c), each group's `spatial` pixels contiguous with the
 * group's channels innermost; or channels-last (group ENG_CHANNELS_LAST,
 * NHWC).  ptr: the parts, then the output. */
enum { ENG_CHANNELS_LAST = -1 };
typedef struct eng_concat_norm {
  int parts;
  int relu;
  int64_t batch, spatial, channels, group;
  int64_t *part_channels; /* per part, each a multiple of group */
  float *scale, *shift;   /* per output channel: y = x * scale + shift */
} eng_concat_norm;
/* One allocation (free() releases it) with room for the arrays; NULL when out of memory. */
eng_concat_norm *acl__eng_concat_norm_new(int parts, int64_t channels);
void acl__eng_concat_norm_run(const void *params, void *const *ptr);

/* kernels.c: float32 [N, C, H, W] from channels-last (NHWC) to 4/8/16-channel
 * blocked (nChw4c / nChw8c / nChw16c, C a multiple of the group) or back;
 * ptr: the source, then the destination. */
typedef struct eng_relayout {
  int64_t batch, channels, spatial;
  int group;       /* 4, 8 or 16 */
  int to_blocked;  /* 1: channels-last -> blocked; 0: blocked -> channels-last */
} eng_relayout;
void acl__eng_relayout_run(const void *params, void *const *ptr);

/* vec512.c: Swish (SiLU), y = x * sigmoid(x), over n floats of any layout
 * (padding is zeros, which it keeps); ptr: x, then y (may be x).  With
 * channels > 0, x is float32 [batch, channels, H, W] (spatial = H * W)
 * channels-last (group ENG_CHANNELS_LAST) or 16-channel blocked (group 16,
 * channels a multiple of 16), and ptr[2] gets the mean of y over
 * each image's pixels, [batch, channels] (a squeeze-and-excitation block's
 * GlobalAveragePool, in the same pass); channels-last, each image is split
 * in `parts` runs of pixels whose sums ptr[3] holds, [batch * parts,
 * channels].  Only where acl__eng_vec512() (the CPU has AVX-512). */
typedef struct eng_swish {
  int64_t n;
  int64_t batch, channels, spatial, group, parts;
} eng_swish;
int acl__eng_vec512(void);
void acl__eng_swish_run(const void *params, void *const *ptr);

/* vec512.c: GELU (the erf form) over n floats of any layout; ptr: x, then y. */
typedef struct eng_gelu {
  int64_t n;
} eng_gelu;
void acl__eng_gelu_run(const void *params, void *const *ptr);

/* vec512.c: y = x * s, s one factor per image and channel (a squeeze-and-
 * excitation block's [N, C, 1, 1] excitation, batch stride s_batch: 0 when
 * shared by the images), x and y float32 [batch, channels, H, W] channels-
 * last or 16-channel blocked as in eng_swish; ptr: x, s, y. */
typedef struct eng_scale {
  int64_t batch, channels, spatial, group, s_batch;
} eng_scale;
void acl__eng_scale_run(const void *params, void *const *ptr);

/* x's dense row-major layout in its element type (float32, or u8 / s8 for
 * UINT8 / INT8 values); a quantised value's plain form is float32. */
void acl__eng_val_plain_md(const eng_val *x, dnnl_memory_desc_t *md);
dnnl_data_type_t acl__eng_dnnl_type(int onnx_type);
int acl__eng_reorder(eng_build *b, int src, const dnnl_memory_desc_t *md); /* new ARENA value in md */
/* dnnl_acdb (channels-last), dnnl_aBcd16b / 8b / 4b (blocked) when md is that layout of float32 rank-4 dims; else 0 */
dnnl_format_tag_t acl__eng_nhwc_or_blocked(const dnnl_memory_desc_t *md);

/* weights.c: reordered weights shared by the plans; initializers trimmed
 * while only copies are read.  All under the engine's lock. */
int acl__eng_weight_id(const acl__engine *e, const void *data); /* the weight whose bytes start at data, or -1 */
const void *acl__eng_wcopy_find(const acl__engine *e, int id, const dnnl_memory_desc_t *src_md,
                                const dnnl_memory_desc_t *md);
int acl__eng_wcopy_add(acl__engine *e, int id, const dnnl_memory_desc_t *src_md, const dnnl_memory_desc_t *md,
                       void *data); /* takes data (0), or -1 when out of memory (the caller keeps it) */
void acl__eng_wcopies_free(acl__engine *e);
void acl__eng_weight_copied(acl__engine *e, int id); /* a copy of weight id was made: trim it if only it is read */
void acl__eng_weights_trim(acl__engine *e);   /* after a plan build */
int acl__eng_weights_restore(acl__engine *e); /* before the originals may be read: 0 or ACL_ERROR_BAD_ALLOC */

/* profile.c: OPENACL_MODEL_PROFILE, per-step timing printed when a plan goes */
int acl__eng_profiling(void);
double acl__eng_now_ms(void);
void acl__eng_profile_report(const acl__engine *e, const eng_plan *p);

#endif
