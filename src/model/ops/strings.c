/*
 * strings.c - ops on string tensors (exec.h: data is an array of char *):
 * StringNormalizer, and Cast between strings and numbers.
 *
 * Case folding is ASCII only: the reference has no locale tables, and the
 * ONNX tests use English words.  Non-ASCII bytes are kept as they are.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

static int is_stopword(const acl__graph_attr *stop, const char *s, int case_sensitive) {
  for (size_t i = 0; stop != NULL && i < stop->count; i++)
    if ((case_sensitive ? strcmp(stop->strings[i], s) : strcasecmp(stop->strings[i], s)) == 0)
      return 1;
  return 0;
}

int acl__k_string_normalizer(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, 1);
  if (rc != 0)
    return rc;
  const acl__tensor *x = ctx->in[0];
  if (x->onnx_type != ACL__ONNX_STRING || x->rank < 1 || x->rank > 2 || (x->rank == 2 && x->dims[0] != 1))
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "input must be a string tensor of shape [C] or [1, C]");
  const char *action = acl__op_attr_str(ctx, "case_change_action", "NONE");
  int change = strcmp(action, "LOWER") == 0 ? -1 : strcmp(action, "UPPER") == 0 ? 1 : 0;
  if (change == 0 && strcmp(action, "NONE") != 0)
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "case_change_action \"%s\" is not NONE, LOWER or UPPER",
                        action);
  const acl__graph_attr *stop = acl__op_attr(ctx, "stopwords");
  if (stop != NULL && stop->type != ACL__ATTR_STRINGS)
    stop = NULL;
  int case_sensitive = acl__op_attr_int(ctx, "is_case_sensitive", 0) != 0;
  int64_t n = acl__tensor_numel(x), kept = 0;
  for (int64_t i = 0; i < n; i++)
    kept += !is_stopword(stop, acl__tensor_str(x, i), case_sensitive);
  /* Everything filtered: ONNX returns one empty string rather than an empty tensor. */
  int64_t dims[2] = {1, kept ? kept : 1};
  if (x->rank == 1)
    dims[0] = dims[1];
  if (acl__tensor_alloc_strings(&ctx->out[0], x->rank, dims) != 0)
    return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output");
  char **out = ctx->out[0].data;
  for (int64_t i = 0, j = 0; i < n; i++) {
    const char *s = acl__tensor_str(x, i);
    if (is_stopword(stop, s, case_sensitive))
      continue;
    out[j] = strdup(s);
    if (out[j] == NULL)
      return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output");
    for (char *c = out[j]; change != 0 && *c; c++)
      *c = (char)(change > 0 ? toupper((unsigned char)*c) : tolower((unsigned char)*c));
    j++;
  }
  return 0;
}

/* Shortest text that reads back as the same float (as numpy prints float32). */
static void format_float(double v, int single, char *buf, size_t n) {
  if (isnan(v)) {
    snprintf(buf, n, "NaN");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, n, v > 0 ? "INF" : "-INF");
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
      return;
  }
}

/* Cast with a string on either side; the numeric side goes through double. */
int acl__op_cast_strings(acl__op_ctx *ctx, const acl__tensor *x, int to) {
  int64_t n = acl__tensor_numel(x);
  if (to == ACL__ONNX_STRING) {
    if (!acl__op_numeric(x->onnx_type) && x->onnx_type != ACL__ONNX_STRING)
      return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "cast from %s to string not supported",
                          acl__graph_onnx_type_name(x->onnx_type));
    if (acl__tensor_alloc_strings(&ctx->out[0], x->rank, x->dims) != 0)
      return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output");
    for (int64_t i = 0; i < n; i++) {
      char buf[64];
      if (x->onnx_type == ACL__ONNX_STRING)
        snprintf(buf, sizeof(buf), "%s", acl__tensor_str(x, i));
      else if (acl__op_is_float(x->onnx_type))
        format_float(acl__op_get(x, i), x->onnx_type != ACL__ONNX_DOUBLE, buf, sizeof(buf));
      else
        snprintf(buf, sizeof(buf), "%lld", (long long)acl__op_get_i64(x, i));
      ((char **)ctx->out[0].data)[i] = strdup(buf);
      if (((char **)ctx->out[0].data)[i] == NULL)
        return acl__op_fail(ctx, ACL_ERROR_BAD_ALLOC, "cannot allocate the output");
    }
    return 0;
  }
  if (!acl__op_numeric(to))
    return acl__op_fail(ctx, ACL_ERROR_OP_TYPE_NOT_MATCH, "cast from string to %s not supported",
                        acl__graph_onnx_type_name(to));
  int rc = acl__op_alloc(ctx, 0, to, x->rank, x->dims);
  for (int64_t i = 0; rc == 0 && i < n; i++) {
    const char *s = acl__tensor_str(x, i);
    char *end;
    double v = strtod(s, &end); /* reads "NaN", "INF", "-inf" and exponents too */
    if (end == s)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "element %lld (\"%.40s\") is not a number", (long long)i, s);
    acl__op_set(&ctx->out[0], i, v);
  }
  return rc;
}
