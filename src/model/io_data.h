/*
 * io_data.h - the data of a model execution's inputs and outputs:
 * aclDataBuffer, aclmdlDataset and aclTensorDesc.  The API layer creates,
 * checks and changes them (src/acl/data_buffer.c, dataset.c,
 * tensor_desc.c); an execution (run.c) reads them through the accessors
 * below once the handles are checked, instead of calling the public getters,
 * which would check every handle again on each call and record an API call
 * the program never made in the profile.
 *
 * A dataset holds the caller's buffers (which the caller may destroy at any
 * time: check each with acl__data_buffer_check before reading it) and its
 * own copies of tensor descriptors (alive as long as the dataset).
 */
#ifndef OPENACL_MODEL_IO_DATA_H
#define OPENACL_MODEL_IO_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

struct aclDataBuffer { /* never owns the memory it points to */
  void *data;
  size_t length;
};

typedef struct acl__ds_entry {
  aclDataBuffer *buf;   /* the caller's */
  aclTensorDesc *desc;  /* the dataset's copy, or NULL */
} acl__ds_entry;

struct aclmdlDataset {
  size_t n, cap; /* entries used, allocated */
  acl__ds_entry *entries;
};

#define ACL__TD_MAX_DIMS ACL_MAX_DIM_CNT
#define ACL__TD_UNKNOWN_RANK_DIM (-2) /* the one dimension of a shape of unknown rank */

struct aclTensorDesc {
  aclDataType type;
  aclFormat format;                 /* origin format */
  size_t ndims;                     /* origin shape */
  int64_t dims[ACL__TD_MAX_DIMS];
  aclFormat storage_format;         /* ACL_FORMAT_UNDEFINED until set */
  int has_storage_shape;
  size_t storage_ndims;
  int64_t storage_dims[ACL__TD_MAX_DIMS];
  size_t nranges;                   /* aclSetTensorShapeRange */
  int64_t ranges[ACL__TD_MAX_DIMS][ACL_TENSOR_SHAPE_RANGE_NUM];
  size_t nvalue_ranges;             /* aclSetTensorValueRange; malloc'd */
  int64_t (*value_ranges)[ACL_TENSOR_VALUE_RANGE_NUM];
  char *name;                       /* malloc'd; NULL reads as "" */
  char *dynamic_input;              /* malloc'd; NULL = none */
  void *const_data;                 /* malloc'd copy; NULL = not a constant */
  size_t const_len;
  aclMemType placement;
  int owned;                        /* a dataset's copy: the dataset frees it */
};

/* 0 when buf is a live aclDataBuffer; otherwise records a failure of `api`
 * naming the argument `arg` and returns ACL_ERROR_INVALID_PARAM. */
int acl__data_buffer_check(const char *api, const char *arg, const aclDataBuffer *buf);

/* A live dataset's buffer i (i < ds->n) and its descriptor (NULL: none set). */
static inline aclDataBuffer *acl__ds_buffer(const aclmdlDataset *ds, size_t i) { return ds->entries[i].buf; }
static inline const aclTensorDesc *acl__ds_desc(const aclmdlDataset *ds, size_t i) { return ds->entries[i].desc; }

/* A descriptor of unknown rank: the one dimension -2. */
static inline int acl__td_unknown_rank(const aclTensorDesc *d) {
  return d->ndims == 1 && d->dims[0] == ACL__TD_UNKNOWN_RANK_DIM;
}

#endif
