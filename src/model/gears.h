/*
 * gears.h - the vendor's "gear" mode for models with dynamic dimensions.
 *
 * On Ascend, ATC compiles a model for a fixed set of batch sizes, image sizes
 * or input shapes (--dynamic_batch_size, --dynamic_image_size,
 * --dynamic_dims); the program picks one of them before each execution.
 * openacl runs ONNX files directly, so the gears come from environment
 * variables read at each load (OPENACL_DYNAMIC_BATCH, OPENACL_DYNAMIC_HW,
 * OPENACL_DYNAMIC_DIMS; the rules are in docs/models.md, "Gears").
 *
 * A gear model has "positions": the dynamic dimensions of its inputs, in
 * input order.  Each gear gives one value per position.  The user sees a gear
 * by its "key": the batch size (1 value), the (height, width) pair (2 values)
 * or, for OPENACL_DYNAMIC_DIMS, every position's value; the key is also what
 * the extra input ACL_DYNAMIC_TENSOR_NAME holds (int64, key-length elements).
 *
 * Nothing here is locked: a gears object is built once at load and only read
 * afterwards (descriptions hold their own copy).
 */
#ifndef OPENACL_MODEL_GEARS_H
#define OPENACL_MODEL_GEARS_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "model/graph.h"
#include "model/model.h"

typedef enum acl__gear_kind {
  ACL__GEAR_BATCH = 1, /* OPENACL_DYNAMIC_BATCH */
  ACL__GEAR_HW = 2,    /* OPENACL_DYNAMIC_HW */
  ACL__GEAR_DIMS = 3   /* OPENACL_DYNAMIC_DIMS */
} acl__gear_kind;

/* The shape of one input or output under the gears. */
typedef struct acl__gear_shape {
  int rank;      /* -1: not declared */
  int64_t *dims; /* the declared dims: >= 0, or -1 (symbolic or unknown) */
  int *pos;      /* per dim: the position whose value it takes, or -1 */
  size_t elem;   /* element size in bytes (0: unknown type) */
} acl__gear_shape;

typedef struct acl__gears {
  acl__gear_kind kind;
  size_t n_pos; /* dynamic input dimensions */
  size_t n_gears;
  int64_t *values;     /* n_gears x n_pos: each gear's value per position */
  size_t n_key;        /* values in a gear's key: 1 (batch), 2 (HW) or n_pos (dims) */
  size_t largest;      /* the gear the description reports (most input elements) */
  acl__gear_shape *in; /* one per graph input */
  size_t n_in;
  acl__gear_shape *out; /* one per graph output */
  size_t n_out;
} acl__gears;

/* The name of the variable a kind comes from. */
const char *acl__gears_var(acl__gear_kind kind);
/* Reads the gear variables for graph g at a load.  0 with *out NULL when no
 * variable is set or the model has no dynamic dimension; 0 with *out set; or
 * ACL_ERROR_INVALID_PARAM / ACL_ERROR_BAD_ALLOC recorded for api (a message
 * naming the variable, the value and the rule). */
int acl__gears_from_env(const char *api, const acl__graph *g, acl__gears **out);
/* Deep copy (NULL in: NULL out, *rc 0).  NULL and *rc = ACL_ERROR_BAD_ALLOC
 * on failure. */
acl__gears *acl__gears_copy(const acl__gears *gr, int *rc);
void acl__gears_free(acl__gears *gr);
/* Writes the n_key values of gear `gear`. */
void acl__gears_key(const acl__gears *gr, size_t gear, int64_t *key);
/* The gear whose key is `key` (n_key values), or -1. */
int acl__gears_find(const acl__gears *gr, const int64_t *key);
/* The dims of shape s in gear `gear` (s->rank values; -1 where unknown). */
void acl__gears_shape(const acl__gears *gr, const acl__gear_shape *s, size_t gear, int64_t *dims);
/* "1, 2, 4" / "224x224, 448x448" / "[1,224,224], [8,448,448]" into buf. */
void acl__gears_list(const acl__gears *gr, char *buf, size_t n);
/* Rewrites a description built from the graph: inputs and outputs get the
 * largest gear's dims and the most bytes any gear needs, and the extra input
 * ACL_DYNAMIC_TENSOR_NAME is appended.  0 or ACL_ERROR_BAD_ALLOC (io is then
 * left valid but partly rewritten; the caller frees it). */
int acl__gears_describe(const acl__gears *gr, acl__model_iodesc *io);

/* src/acl/model_api.c: a live, filled description's gears (NULL: none), its
 * inputs and outputs, and its model (0: described from a file or memory).
 * 0, or ACL_ERROR_INVALID_PARAM recorded for api. */
struct aclmdlDesc;
int acl__mdl_desc_gears(const char *api, const struct aclmdlDesc *desc, const acl__gears **gears,
                        const acl__model_iodesc **io, uint32_t *model_id);

#endif
