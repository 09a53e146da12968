/*
 * index.h - what the indexing, gather / scatter and selection operators of
 * reference aclnn.md section 8.9 share (index.c, advindex.c, scatter.c,
 * select.c): one phase-1 prologue that checks a table of tensor
 * parameters, one that builds the job and its executor from the same
 * table, and the element helpers their kernels use (offsets, index
 * values, conversions, the run-time fault of a bad index).
 *
 * These operators move elements rather than compute on rows, so their
 * kernels walk elements one at a time; an element of the same type is
 * copied as bytes (any fixed-size type, complex too), one of another type
 * converts through int64 or double.
 */
#ifndef OPENACL_ACLNN_INDEX_H
#define OPENACL_ACLNN_INDEX_H

#include <stdint.h>

#include "aclnn/nn.h"

/* Types the data-moving operators take: every fixed-size type of the sheet. */
#define ACL__IX_ANY                                                                                                    \
  (ACL__NN_ARITH | ACL__NN_BIT(ACL_UINT16) | ACL__NN_BIT(ACL_UINT32) | ACL__NN_BIT(ACL_UINT64) |                       \
   ACL__NN_BIT(ACL_COMPLEX64) | ACL__NN_BIT(ACL_COMPLEX128))
/* The real ones (values converted or computed with). */
#define ACL__IX_REAL (ACL__NN_ARITH | ACL__NN_BIT(ACL_UINT16) | ACL__NN_BIT(ACL_UINT32) | ACL__NN_BIT(ACL_UINT64))
#define ACL__IX_INDEX (ACL__NN_BIT(ACL_INT32) | ACL__NN_BIT(ACL_INT64))
#define ACL__IX_MASK (ACL__NN_BIT(ACL_BOOL) | ACL__NN_BIT(ACL_UINT8))

/* One tensor parameter of an operator, in the operator's order (inputs,
 * then outputs; an in-place tensor appears twice, as input and output). */
typedef struct acl__ix_arg {
  const char *name; /* "self" */
  const aclTensor *t;
  int is_out;     /* written by the operator */
  int optional;   /* NULL allowed (then left out of the job) */
  uint64_t types; /* accepted types (0: any of ACL__IX_ANY) */
} acl__ix_arg;

/* Phase 1, step 1: every tensor of the table live (161001 / 161002),
 * workspaceSize and executor not NULL, ranks <= 8 and types accepted.
 * 0 or the code, recorded for api. */
int acl__ix_check(const char *api, const char *api2, const acl__ix_arg *a, int n, const uint64_t *workspaceSize,
                  aclOpExecutor *const *executor);

/* Phase 1, last step (after the operator's own checks): a job of `size`
 * bytes (the operator's struct, starting with an acl__nn_job) in a new
 * executor, with the table's tensors added in order; ti[i] is tensor i's
 * index in the job (-1 for a NULL optional one).  A 0-D tensor becomes a
 * [1] view.  NULL after recording 561101. */
void *acl__ix_job(const char *api, const char *api2, size_t size, acl__nn_job_fn run, const acl__ix_arg *a, int n,
                  int *ti, aclOpExecutor **ex);

/* dim in [-rank, rank) (a 0-D tensor counts as rank 1): *d the normalised
 * dim, or 161002 recorded. */
int acl__ix_dim(const char *api, const char *what, int64_t dim, int rank, int *d);
/* t broadcasts to shape (rank, dims) (161002 otherwise). */
int acl__ix_broadcasts(const char *api, const char *name, const aclTensor *t, int rank, const int64_t *dims);
/* Makes r a view of itself broadcast to (rank, dims): right-aligned, stride
 * 0 along the dims it repeats. */
void acl__ix_broadcast_view(acl__nn_tref *r, int rank, const int64_t *dims);

/* Row-major coordinates of element i of dims[0..rank). */
static inline void acl__ix_unravel(int64_t i, int rank, const int64_t *dims, int64_t *c) {
  for (int d = rank - 1; d >= 0; d--) {
    c[d] = dims[d] > 0 ? i % dims[d] : 0;
    i = dims[d] > 0 ? i / dims[d] : 0;
  }
}

/* Element offset of coordinates c in r. */
static inline int64_t acl__ix_off(const acl__nn_tref *r, const int64_t *c) {
  int64_t o = 0;
  for (int d = 0; d < r->rank; d++)
    o += c[d] * r->st[d];
  return o;
}

/* Address of the element at element offset o of r (element 0 at base). */
static inline char *acl__ix_at(const acl__nn_tref *r, char *base, int64_t o) {
  return base + o * (int64_t)acl__nn_dtype_size(r->dtype);
}

/* An index or mask element as int64 (s32, s64, u8, bool). */
int64_t acl__ix_index(const char *p, aclDataType t);
/* One element of type st at src into type dt at dst (bytes when the same). */
void acl__ix_convert(char *dst, aclDataType dt, const char *src, aclDataType st);

/* A run-time fault of the shared kernels: the first bad index seen. */
typedef struct acl__ix_fault {
  int hit; /* atomic */
  int64_t value, bound;
  const char *what; /* "index" */
} acl__ix_fault;

void acl__ix_fault_note(acl__ix_fault *f, const char *what, int64_t value, int64_t bound);
/* 0, or (after logging the fault for api2) the code a failed task reports:
 * ACL_ERROR_RT_AICORE_EXCEPTION, as a card's kernel fault. */
int acl__ix_fault_report(const char *api2, const acl__ix_fault *f);

/* Rewrites the view shape of the descriptor phase 1 saw (Nonzero,
 * MaskedSelect: the vendor reports the real size that way): dim 0 becomes
 * n.  Nothing when the descriptor was destroyed meanwhile. */
void acl__ix_set_dim0(aclTensor *t, int64_t n);

#endif
