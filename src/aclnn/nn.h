/*
 * nn.h - the aclnn operator layer inside openacl: the objects of
 * aclnn/acl_meta.h, the data types' rules (promotion, casting), the plan an
 * operator's first phase makes and its second phase queues, and the
 * element-wise engine that runs plans on the device's executors.
 *
 * Layering: src/aclnn sits beside the API layer (src/acl) and calls the
 * runtime (src/rt) only: streams take a plan as one task, memory lookups
 * say whether an address is device memory.
 *
 * Ownership (docs/aclnn.md has the long form):
 *   aclTensor, aclScalar, arrays  made and freed by the caller; registered
 *            in the runtime's handle table, so a destroyed or foreign one is
 *            refused with a code instead of being dereferenced.
 *   lists    own their elements: aclDestroyTensorList destroys them.
 *   executor made by phase 1; a one-shot executor is freed by its phase 2
 *            (success or not), a repeatable one by aclDestroyAclOpExecutor.
 *            It holds no pointer to the caller's objects: everything phase 2
 *            needs is copied into it at phase 1, and every task carries its
 *            own copy of the plan, so an executor destroyed while its task
 *            is still queued is harmless.
 *
 * Threads: objects have no lock; like the vendor's, an object is used by
 * one thread at a time (both phases of an executor on the same thread).
 */
#ifndef OPENACL_ACLNN_NN_H
#define OPENACL_ACLNN_NN_H

#include <stdint.h>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"

/* The rank every operator of this slice accepts (vendor: "0-8 dims"). */
#define ACL__NN_MAX_RANK 8

/* ---- objects ------------------------------------------------------------ */

struct aclTensor {
  aclDataType dtype;
  aclFormat format;
  uint64_t ndim;         /* view rank */
  uint64_t nstorage;     /* storage rank */
  int64_t offset;        /* elements */
  void *data;            /* storage base: a device address (or NULL) */
  int64_t *dims;         /* ndim view dims */
  int64_t *strides;      /* ndim strides, elements (contiguous when created with NULL) */
  int64_t *storage;      /* nstorage dims */
  int64_t *heap;         /* the three arrays when they do not fit inline, else NULL */
  int64_t inline_[3 * ACL__NN_MAX_RANK];
};

struct aclScalar {
  aclDataType dtype;
  union {
    unsigned char raw[16];
    float f32;
    double f64;
    int8_t s8;
    int16_t s16;
    int32_t s32;
    int64_t s64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
  } v;
};

/* Every tensor given to an operator is checked with this first: NULL after
 * recording 161001 (NULL) or 161002 (not a live aclTensor) for `api`, naming
 * the parameter. */
const aclTensor *acl__nn_tensor_arg(const char *api, const char *name, const aclTensor *t, int *rc);
const aclScalar *acl__nn_scalar_arg(const char *api, const char *name, const aclScalar *s, int *rc);
int64_t acl__nn_numel(const aclTensor *t);
/* An aclIntArray parameter: its values and *size, or NULL after recording
 * 161001 / 161002 like acl__nn_tensor_arg. */
const int64_t *acl__nn_int_array_arg(const char *api, const char *name, const aclIntArray *a, uint64_t *size,
                                     int *rc);

/* A tensor-list parameter: its elements (the pointers, NULL ones kept) and
 * *size, or NULL after recording 161001 / 161002 like acl__nn_tensor_arg
 * (objects.c). */
aclTensor *const *acl__nn_tensor_list_arg(const char *api, const char *name, const aclTensorList *l, uint64_t *size,
                                          int *rc);

/* ---- data types (dtype.c) ------------------------------------------------ */

#define ACL__NN_BIT(dt) (1ull << (unsigned)(dt))
/* The real types the element-wise operators of this slice compute with. */
#define ACL__NN_FLOATS \
  (ACL__NN_BIT(ACL_FLOAT) | ACL__NN_BIT(ACL_FLOAT16) | ACL__NN_BIT(ACL_DOUBLE) | ACL__NN_BIT(ACL_BF16))
#define ACL__NN_SINTS (ACL__NN_BIT(ACL_INT8) | ACL__NN_BIT(ACL_INT16) | ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))
#define ACL__NN_ARITH (ACL__NN_FLOATS | ACL__NN_SINTS | ACL__NN_BIT(ACL_UINT8) | ACL__NN_BIT(ACL_BOOL))
#define ACL__NN_COMPLEX (ACL__NN_BIT(ACL_COMPLEX32) | ACL__NN_BIT(ACL_COMPLEX64) | ACL__NN_BIT(ACL_COMPLEX128))

const char *acl__nn_dtype_name(aclDataType t);     /* "ACL_FLOAT16", or "data type 57" */
size_t acl__nn_dtype_size(aclDataType t);          /* bytes of one element; 0 when not a fixed-size type here */
int acl__nn_is_float(aclDataType t);               /* f16 f32 f64 bf16 */
int acl__nn_is_int(aclDataType t);                 /* signed or unsigned integers, not bool */
int acl__nn_is_complex(aclDataType t);
/* The Tensor (+) Tensor promotion of the vendor's table (reference aclnn.md
 * section 7.1); ACL_DT_UNDEFINED where the table says the pair does not promote. */
aclDataType acl__nn_promote(aclDataType a, aclDataType b);
/* The Tensor (+) Scalar promotion (section 7.1, second table). */
aclDataType acl__nn_promote_scalar(aclDataType tensor, aclDataType scalar);
/* The vendor's CanCast (section 7.2). */
int acl__nn_can_cast(aclDataType from, aclDataType to);
/* "ACL_FLOAT, ACL_FLOAT16, ..." for a mask: the text of the messages. */
void acl__nn_dtype_list(uint64_t mask, char *buf, size_t size);

/* ---- plans (what phase 1 decides and each task carries) ------------------- */

/* What one element computes.  a and b are the two operands (b unused by
 * the unary ones); alpha scales b where the operator has one. */
typedef enum acl__nn_op {
  /* binary */
  ACL__NN_ADD,        /* a + alpha*b */
  ACL__NN_SUB,        /* a - alpha*b */
  ACL__NN_MUL,
  ACL__NN_DIV,        /* true division */
  ACL__NN_DIV_TRUNC,  /* a / b rounded toward zero */
  ACL__NN_DIV_FLOOR,  /* a / b rounded down */
  ACL__NN_POW,
  ACL__NN_MAX,        /* NaN wins */
  ACL__NN_MIN,
  ACL__NN_REM,        /* a - floor(a/b)*b, the sign of b */
  ACL__NN_AND,        /* results 1 / 0 */
  ACL__NN_OR,
  ACL__NN_PRELU,      /* a > 0 ? a : b*a (b: the channel's weight) */
  ACL__NN_EQ,         /* comparisons: results 1 / 0, operands in the common type */
  ACL__NN_NE,
  ACL__NN_GT,
  ACL__NN_GE,
  ACL__NN_LT,
  ACL__NN_LE,
  /* unary */
  ACL__NN_COPY,
  ACL__NN_NEG,
  ACL__NN_ABS,
  ACL__NN_EXP,
  ACL__NN_LOG,
  ACL__NN_LOG2,
  ACL__NN_LOG10,
  ACL__NN_LOG1P,
  ACL__NN_SQRT,
  ACL__NN_RSQRT,
  ACL__NN_RECIP,
  ACL__NN_SIN,
  ACL__NN_COS,
  ACL__NN_TAN,
  ACL__NN_ATAN,
  ACL__NN_SINH,
  ACL__NN_COSH,
  ACL__NN_ERF,
  ACL__NN_FLOOR,
  ACL__NN_CEIL,
  ACL__NN_ROUND,      /* halves to even */
  ACL__NN_TRUNC,
  ACL__NN_SIGN,
  ACL__NN_NOT,        /* results 1 / 0 */
  ACL__NN_ISFINITE,   /* results 1 / 0 */
  /* activations (activation.c); prm[] holds their attributes */
  ACL__NN_RELU,
  ACL__NN_GELU_TANH,  /* 0.5x(1+tanh(sqrt(2/pi)(x+0.044715x^3))) */
  ACL__NN_GELU_ERF,   /* 0.5x(1+erf(x/sqrt 2)) */
  ACL__NN_SILU,
  ACL__NN_SIGMOID,
  ACL__NN_TANH,
  ACL__NN_LEAKY_RELU, /* prm[0]: negative slope */
  ACL__NN_HARDSWISH,
  ACL__NN_HARDSIGMOID,
  ACL__NN_SOFTPLUS,   /* prm[0]: beta, prm[1]: threshold */
  ACL__NN_ELU,        /* prm[0]: alpha, prm[1]: scale, prm[2]: input scale */
  ACL__NN_MISH,
  ACL__NN_CLAMP,      /* min(max(x, prm[0]), prm[1]) (clamp.c); an absent bound is -inf / +inf */
  ACL__NN_OP_COUNT
} acl__nn_op;

/* The three representations a plan computes in: operands are loaded into
 * one of them (f16 and bf16 compute in float and are rounded back), the
 * operation runs on whole rows of it, results are stored in the output's
 * type. */
typedef enum acl__nn_class { ACL__NN_F32 = 0, ACL__NN_F64, ACL__NN_I64 } acl__nn_class;

/* A constant: a scalar operand or alpha, in each class. */
typedef struct acl__nn_val {
  double d;
  float f;
  int64_t i;
} acl__nn_val;

typedef struct acl__nn_arg {
  int is_const;                     /* a scalar operand: `c`, no memory */
  int slot;                         /* tensors: the executor's address slot */
  aclDataType dtype;
  int64_t off;                      /* bytes from the slot's address to element 0 */
  int64_t st[ACL__NN_MAX_RANK];     /* bytes between neighbours along each plan dim (0: broadcast) */
  acl__nn_val c;
  char *p;                          /* set when queued: device address of element 0 */
} acl__nn_arg;

typedef struct acl__nn_plan {
  acl__nn_op op;
  int nin;                          /* operands: 1 or 2 */
  acl__nn_class lcls;               /* operands are loaded as */
  acl__nn_class rcls;               /* results are computed as */
  aclDataType cdt;                  /* the operation's data type (rounding of f16/bf16/narrow ints) */
  int alpha_one;                    /* alpha is 1 (or absent): the plain form */
  acl__nn_val alpha;
  double prm[3];                    /* the activations' attributes (slope, beta ...) */
  int rank;                         /* >= 1: dims after merging (0-D is one dim of 1) */
  int64_t dims[ACL__NN_MAX_RANK];
  int64_t numel;
  acl__nn_arg in[2];
  acl__nn_arg out;
} acl__nn_plan;

/* ---- executors (executor.c) ------------------------------------------------ */

/* The tensors of one executor: FlashAttentionScore has 11; a tensor-list
 * operator's elements count one each (Index a list of up to 8 plus self and
 * out; Cat, Stack and the Splits lists of up to ACL__NN_MAX_SLOTS - 1). */
#define ACL__NN_MAX_SLOTS 32

typedef struct acl__nn_slot {
  void *addr;                       /* the tensor's storage base, as the caller knows it */
  const char *name;                 /* the parameter, for messages: "self" */
  int used;                         /* lo, hi are set (not for an empty plan) */
  int64_t lo, hi;                   /* bytes [addr+lo, addr+hi) the plan touches */
  const void *key;                  /* phase 1: the aclTensor it stands for */
} acl__nn_slot;

typedef struct acl__nn_job acl__nn_job;

/* A tensor's view as phase 1 saw it, for dumps (dump.c). */
typedef struct acl__nn_dview {
  int set;
  aclDataType dtype;
  int rank;
  int64_t dims[ACL__NN_MAX_RANK];
  int64_t st[ACL__NN_MAX_RANK];     /* elements */
  int64_t off;                      /* elements from the slot's address to element 0 */
} acl__nn_dview;

struct aclOpExecutor {
  const char *api2;                 /* the phase-2 function that runs it: "aclnnAdd" */
  int repeatable;
  int empty;                        /* nothing to compute (an empty tensor) */
  uint64_t workspace;               /* bytes phase 1 asked for */
  int nslots;
  acl__nn_slot slot[ACL__NN_MAX_SLOTS];
  int n_in, n_out;                  /* tensor inputs and outputs, in the operator's order */
  int in_slot[ACL__NN_MAX_SLOTS], out_slot[ACL__NN_MAX_SLOTS];
  acl__nn_plan plan;                /* element-wise operators */
  acl__nn_job *job;                 /* the others (job.c): NULL for element-wise ones */
  acl__nn_dview *views;             /* per slot, recorded while a dump configuration is active (dump.c), or NULL */
  /* a tensor-list parameter, for aclSetDynamic*TensorAddr: an input (Index's and IndexPutImpl's indices, Cat's
   * and Stack's tensors) or an output (the Splits' out) */
  int has_list;
  int list_out;                     /* the list is an output: list_el[] counts the outputs */
  int list_ir;                      /* its position among the operator's inputs (or outputs) */
  int list_ir_all;                  /* an output list's position among the inputs, then the outputs */
  int list_n;                       /* its elements */
  int list_el[ACL__NN_MAX_SLOTS];   /* element -> index among the inputs, or outputs (-1: a NULL element) */
};

/* A new executor for phase 2 function api2 (registered), or NULL. */
aclOpExecutor *acl__nn_exec_new(const char *api2);
/* 1 when the output shares memory with an input other than element by
 * element in step (then the result goes through a temporary buffer). */
int acl__nn_exec_overlaps(const aclOpExecutor *ex);

/* Phase 2 of every operator: runs (queues) the executor made by `api`'s
 * phase 1 on `stream`.  Records the failure for `api`. */
aclnnStatus acl__nn_run(const char *api, void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                        aclrtStream stream);

/* aclInit / aclFinalize call these (aclnnInit / aclnnFinalize do too). */
void acl__nn_init(const char *config_path);
void acl__nn_finalize(void);

/* ---- phase 1 of the element-wise operators (elementwise.c) ------------------ */

/* How the data type an element-wise operator computes in is found. */
typedef enum acl__nn_rule {
  ACL__NN_RULE_TT,        /* Tensor (+) Tensor table (also for a scalar operand given as a tensor) */
  ACL__NN_RULE_TS,        /* Tensor (+) Scalar table */
  ACL__NN_RULE_ADDS,      /* Adds / Subs / Muls / Rsubs (reference 8.1, Adds) */
  ACL__NN_RULE_SELF,      /* self's type (unary) */
  ACL__NN_RULE_NONE       /* no common type: logical operators read truth values */
} acl__nn_rule;

/* Flags of an element-wise operator. */
enum {
  ACL__NN_F_FLOAT = 1,        /* an integral or bool common type computes in float (true division, exp ...) */
  ACL__NN_F_OUT_SAME = 2,     /* out's type must equal self's (Floor, Ceil, ...) */
  ACL__NN_F_OUT_BOOL = 4,     /* out must be bool (IsFinite) */
  ACL__NN_F_RESULT_BOOL = 8,  /* the result is 1/0, castable to any out type (logical) */
  ACL__NN_F_ALPHA = 16,       /* alpha scales b (Add, Sub ...) */
  ACL__NN_F_NOT_BOTH_BOOL = 32, /* Pow: a bool base with a bool exponent is refused */
  ACL__NN_F_INT_EXP_NONNEG = 64, /* Pow: an integral result needs a non-negative scalar exponent */
  ACL__NN_F_NO_BOOL = 128,    /* a bool common type is refused (Remainder) */
  ACL__NN_F_SWAP = 256,       /* the plan computes b op a (Rsub) */
  ACL__NN_F_COMPARE = 512,    /* comparisons: operands in the common type, results 1/0 into any out type */
  ACL__NN_F_CHANNEL = 1024    /* operand 1 is 1-D, one value per channel (dim 1 of self) or one for all (Prelu) */
};

/* One element-wise operator call: up to two operands, each a tensor or a
 * scalar, an optional alpha, and the output (an operand again when in place). */
typedef struct acl__nn_ew {
  const char *api;                  /* the phase-1 function: "aclnnAddGetWorkspaceSize" */
  const char *api2;                 /* its phase 2: "aclnnAdd" */
  acl__nn_op op;
  int flags;
  acl__nn_rule rule;
  uint64_t in_types;                /* accepted operand types */
  uint64_t out_types;               /* accepted output types */
  const char *name[2];              /* parameter names for messages: "self", "other" */
  const aclTensor *t[2];            /* tensor operands (NULL where the operand is a scalar) */
  const aclScalar *s[2];            /* scalar operands */
  int nin;                          /* 1 or 2 */
  int scalar_operand[2];            /* operand i is a scalar (s[i]); otherwise a tensor (t[i]) */
  const aclScalar *alpha;           /* ACL__NN_F_ALPHA */
  const aclTensor *out;
  const char *out_name;             /* "out", "result", or the in-place parameter's name */
  int inplace;                      /* out is operand 0's tensor */
  double prm[3];                    /* the activations' attributes, copied into the plan */
} acl__nn_ew;

/* Checks the call (the vendor's rules, codes 161001 / 161002 with a message
 * naming the parameter), plans it and hands out the executor. */
aclnnStatus acl__nn_elementwise(const acl__nn_ew *e, uint64_t *workspaceSize, aclOpExecutor **executor);

/* The plan's geometry, for operators that build plans of their own (Sum of a
 * list, sum.c): t's element strides seen from the broadcast shape (rank,
 * dims), 0 along the dims it broadcasts; and the plan's merged shape with
 * the byte strides of nargs operands (dtype set) from their element strides
 * est[a][rank] (dims of 1 dropped, runs every operand walks as one merged). */
void acl__nn_bcast_strides(const aclTensor *t, int rank, const int64_t *dims, int64_t *st);
void acl__nn_plan_dims(acl__nn_plan *p, int rank, const int64_t *dims, int nargs, acl__nn_arg *const *args,
                       int64_t (*est)[ACL__NN_MAX_RANK]);

/* A unary operator (one tensor operand): in place when out_name is NULL
 * (self is written, its parameter named `name`). */
aclnnStatus acl__nn_unary(const char *api, const char *api2, acl__nn_op op, int flags, uint64_t in_types,
                          uint64_t out_types, const char *name, const aclTensor *self, const char *out_name,
                          const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/* Defines phase 2 of operator `name` (aclnnAdd ...): every one is the same
 * call; the executor knows what to run. */
#define ACL__NN_PHASE2(name)                                                                          \
  aclnnStatus name(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) { \
    ACL__PROF_API_SCOPE();                                                                            \
    return acl__nn_run(#name, workspace, workspaceSize, executor, stream);                            \
  }

/* ---- operators that are not element-wise (job.c) ---------------------------------- */

/* A tensor operand as phase 1 saw it. */
typedef struct acl__nn_tref {
  int slot;                         /* the executor's address slot */
  int is_out;                       /* written by the operator */
  aclDataType dtype;
  int rank;
  int64_t dims[ACL__NN_MAX_RANK];
  int64_t st[ACL__NN_MAX_RANK];     /* elements */
  int64_t off;                      /* elements from the slot's address to element 0 */
  int64_t lo, hi;                   /* bytes around the slot's address it reaches (hi == lo: empty) */
} acl__nn_tref;

struct acl__device;
/* Runs a job once: ptr[i] is the address of tensor i's element 0 (in the
 * job's order); called on an executor thread with device-memory access.
 * 0 or an aclError. */
typedef int (*acl__nn_job_fn)(const acl__nn_job *j, char *const *ptr, struct acl__device *dev);

/* What an operator's phase 1 hands its tasks: the tensors and whatever the
 * operator embeds after this header (attributes, a oneDNN primitive).  It is
 * shared, read-only, by the executor and every task queued from it, and
 * freed with the last of them. */
struct acl__nn_job {
  int refs;                         /* atomic */
  acl__nn_job_fn run;
  void (*destroy)(acl__nn_job *j);  /* releases what the operator hung on it (NULL: nothing) */
  int pointwise;                    /* each output element depends only on the inputs' elements at its position
                                       (in the tensors' own dims), read before it is written: an input that is
                                       an output's very view is read in place, without a copy (executor.c) */
  int nt;
  acl__nn_tref t[ACL__NN_MAX_SLOTS];
};

/* A zeroed job of `size` bytes (the operator's struct, which starts with an
 * acl__nn_job) with one reference, or NULL. */
void *acl__nn_job_new(size_t size, acl__nn_job_fn run);
void acl__nn_job_unref(acl__nn_job *j);
/* An executor for phase 2 function api2 carrying job (its reference moves
 * to the executor, also on failure); NULL after recording 561101. */
aclOpExecutor *acl__nn_job_exec(const char *api, const char *api2, acl__nn_job *job);
/* Adds tensor t (parameter `name`) to ex's job as input or output: the
 * index of its tref.  An in-place tensor is added twice (input, then
 * output) and gets one slot. */
int acl__nn_job_tensor(aclOpExecutor *ex, const aclTensor *t, const char *name, int is_out);
/* Ends phase 1: *workspaceSize (0) and *executor. */
aclnnStatus acl__nn_job_done(aclOpExecutor *ex, uint64_t *workspaceSize, aclOpExecutor **executor);
/* Queues ex's job on s (executor.c calls it). */
struct acl__stream;
aclnnStatus acl__nn_job_submit(const char *api, aclOpExecutor *ex, struct acl__stream *s);

/* Copies from tref t (element 0 at base) the elements whose first k
 * indices make `outer` (row-major over dims[0..k)), dims[k..rank) in
 * row-major order, into dst as float / double; the store forms write them
 * back.  The operators move the dims they work along to the end of a tref
 * (a view, nothing is copied) and walk the rest. */
void acl__nn_gather_f32(const acl__nn_tref *t, const char *base, int k, int64_t outer, float *dst);
void acl__nn_scatter_f32(const acl__nn_tref *t, char *base, int k, int64_t outer, const float *src);
void acl__nn_gather_f64(const acl__nn_tref *t, const char *base, int k, int64_t outer, double *dst);
void acl__nn_scatter_f64(const acl__nn_tref *t, char *base, int k, int64_t outer, const double *src);
void acl__nn_gather_i64(const acl__nn_tref *t, const char *base, int k, int64_t outer, int64_t *dst);
void acl__nn_scatter_i64(const acl__nn_tref *t, char *base, int k, int64_t outer, const int64_t *src);
/* Moves dim d of t to the end (the others keep their order). */
void acl__nn_tref_move_last(acl__nn_tref *t, int d);
int64_t acl__nn_tref_numel(const acl__nn_tref *t, int from, int to); /* product of dims[from..to) */
/* Runs fn(i, arg) for i in [0, n) on the device's executors (blocks of
 * work; a small n runs on the calling thread). */
int acl__nn_parallel(struct acl__device *dev, int64_t n, int64_t cost_per_item,
                     void (*fn)(int64_t begin, int64_t end, void *arg), void *arg);

/* The checks every operator shares (elementwise.c): a tensor's rank (at
 * most 8) and dims (>= 0); a type in `allowed` (what: "tensor", "output").
 * 0, or 161002 recorded for api. */
int acl__nn_check_dims(const char *api, const char *api2, const char *name, const aclTensor *t);
int acl__nn_check_type(const char *api, const char *api2, const char *what, const char *name, aclDataType t,
                       uint64_t allowed);

/* Scratch buffers of the operators' tasks (64-byte aligned), and their return: large ones are kept in a
 * small pool for the next task instead of going back to the system, whose fresh pages fault on first
 * touch at every run (job.c).  acl__nn_temp_drain empties the pool (aclnnFinalize). */
void *acl__nn_temp(size_t bytes);
void acl__nn_temp_free(void *p);
void acl__nn_temp_drain(void);
/* Drops the convolution primitives kept for recent shapes (conv.c; aclnnFinalize). */
void acl__nn_conv_cache_drain(void);

/* "[2, 3, 4]" */
const char *acl__nn_shape_text(const int64_t *d, uint64_t n, char *buf, size_t size);

/* ---- the engine (kernel.c) ------------------------------------------------------ */

/* Runs elements [start, end) of a queued plan (addresses set). */
void acl__nn_kernel_range(const acl__nn_plan *p, int64_t start, int64_t end);
/* Converts a scalar to the constant a plan uses for type cdt (a value of
 * type cdt, in each class). */
void acl__nn_const_of(const aclScalar *s, aclDataType cdt, acl__nn_val *v);
/* The class values of type t are computed in. */
acl__nn_class acl__nn_class_of(aclDataType t);
/* n elements of type t at src (byte stride st) to float / double, and back. */
void acl__nn_load_f32(float *dst, const char *src, int64_t st, int64_t n, aclDataType t);
void acl__nn_load_f64(double *dst, const char *src, int64_t st, int64_t n, aclDataType t);
void acl__nn_load_i64(int64_t *dst, const char *src, int64_t st, int64_t n, aclDataType t);
void acl__nn_store_f32(char *dst, int64_t st, int64_t n, aclDataType t, const float *src);
void acl__nn_store_f64(char *dst, int64_t st, int64_t n, aclDataType t, const double *src);
void acl__nn_store_i64(char *dst, int64_t st, int64_t n, aclDataType t, const int64_t *src);

/* ---- the copy engine (copy.c): the shape, fill and creation operators ------------------- */

/* A view of one of a job's tensors; up to 16 dims, as Repeat splits each
 * dim of out in two. */
#define ACL__NN_VIEW_RANK (2 * ACL__NN_MAX_RANK)

typedef struct acl__nn_view {
  int t;                            /* the job's tensor (tref index): the task's ptr[t] is its element 0 */
  int rank;
  int64_t off;                      /* elements from that element 0 */
  int64_t dims[ACL__NN_VIEW_RANK];
  int64_t st[ACL__NN_VIEW_RANK];    /* elements */
} acl__nn_view;

typedef enum acl__nn_piece_kind {
  ACL__NN_PIECE_COPY,   /* dst = src, converted to dst's type (same dims) */
  ACL__NN_PIECE_FILL,   /* dst = the constant c */
  ACL__NN_PIECE_TRIL,   /* COPY, but where col - row > diag (the last two dims) 0 */
  ACL__NN_PIECE_TRIU,   /* COPY, but where col - row < diag 0 */
  ACL__NN_PIECE_ARANGE  /* dst[k] = start + k * step (dst 1-D) */
} acl__nn_piece_kind;

/* One step of a copy job; a job runs its pieces in order. */
typedef struct acl__nn_piece {
  acl__nn_piece_kind kind;
  acl__nn_view dst, src;            /* src: COPY, TRIL, TRIU */
  unsigned char c[16];              /* FILL: the value as dst's type holds it */
  int64_t diag;                     /* TRIL, TRIU */
  int int_steps;                    /* ARANGE in int64 (istart, istep), else in double */
  int64_t istart, istep;
  double start, step;
} acl__nn_piece;

/* Roles of a copy job's tensors. */
enum { ACL__NN_CP_IN, ACL__NN_CP_OUT, ACL__NN_CP_IN_UNREAD };

/* An executor for api2 with a copy job of room for npieces, or NULL after
 * recording 561101 for api. */
aclOpExecutor *acl__nn_cp_new(const char *api, const char *api2, int npieces);
/* Adds tensor t (parameter `name`) to the job: its tref index.  An in-place
 * operator adds its tensor as ACL__NN_CP_IN (or ACL__NN_CP_IN_UNREAD where
 * the old values are not read: fills) and then as ACL__NN_CP_OUT. */
int acl__nn_cp_tensor(aclOpExecutor *ex, const aclTensor *t, const char *name, int role);
/* The view of the whole of t (0-D: one element), as tref ti. */
void acl__nn_cp_full(acl__nn_view *v, int ti, const aclTensor *t);
/* Appends a piece of `kind` (zeroed), or NULL when the job is full. */
acl__nn_piece *acl__nn_cp_add(aclOpExecutor *ex, acl__nn_piece_kind kind);
/* Sets a FILL piece's constant: s converted to dst's type (NULL: zero; a
 * scalar of a complex type keeps its parts for a complex dst). */
void acl__nn_cp_const(aclOpExecutor *ex, acl__nn_piece *p, const aclScalar *s, double v);
/* Ends phase 1 of a copy job: merges dims, marks an empty job. */
aclnnStatus acl__nn_cp_done(aclOpExecutor *ex, uint64_t *workspaceSize, aclOpExecutor **executor);
/* n elements of type st at s (byte stride ss) converted into type dt at d
 * (byte stride ds): floating to integral saturates and maps NaN to 0;
 * complex to real keeps the real part. */
void acl__nn_convert(char *d, int64_t ds, aclDataType dt, const char *s, int64_t ss, aclDataType st, int64_t n);

/* The checks that open every operator of the copy engine: each of the n
 * tensors live (161001 / 161002 naming it; a NULL name skips an optional
 * one), workspaceSize and executor not NULL, each tensor of at most 8 dims. */
int acl__nn_cp_args(const char *api, const char *api2, int n, const aclTensor *const *ts, const char *const *names,
                    const uint64_t *workspaceSize, aclOpExecutor *const *executor);
/* 0 when t has the `rank` dims `want`, else 161002 recorded. */
int acl__nn_check_shape(const char *api, const char *api2, const char *name, const aclTensor *t,
                        const int64_t *want, int rank);

/* Phase 2's check of an address (executor.c): [addr+lo, addr+hi) lies in one
 * allocation device code on `dev` reaches, and addr+off is aligned to the
 * element size; else the code, recorded for api naming `name`. */
struct acl__device;
int acl__nn_check_memory(const char *api, const char *name, const void *addr, int64_t lo, int64_t hi, int64_t off,
                         size_t esize, struct acl__device *dev);

/* ---- dump (dump.c) --------------------------------------------------------------------------- */

struct acl__stream;
typedef struct acl__nn_dump acl__nn_dump;
/* Phase 1: records tensor t's view for slot `slot` when a dump configuration is active. */
void acl__nn_dump_view(aclOpExecutor *ex, int slot, const aclTensor *t);
/* Phase 2: the task's dump when the active configuration dumps operators, else NULL. */
acl__nn_dump *acl__nn_dump_attach(const aclOpExecutor *ex, const char *api, const struct acl__stream *s);
/* Around the task's run (NULL: nothing): inputs before, outputs and the file after (task_id: its sequence). */
void acl__nn_dump_before(acl__nn_dump *d);
void acl__nn_dump_after(acl__nn_dump *d, uint64_t task_id, int rc);
void acl__nn_dump_free(acl__nn_dump *d);
/* aclDumpOpTensors' body: queues the dump of the tensors on s (nothing when dump is off). */
aclnnStatus acl__nn_dump_tensors(const char *api, const char *op_type, const char *op_name, aclTensor **tensors,
                                 size_t n_in, size_t n_out, struct acl__stream *s);

#endif
