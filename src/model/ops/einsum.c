/*
 * einsum.c - Einsum (opset 12): any equation with explicit ("->") or
 * implicit output, repeated subscripts (diagonals), and "..." broadcast
 * dimensions.  It loops over every combination of all subscripts and
 * accumulates products in double: simple and exact enough for a reference,
 * though not fast.
 */
#include <ctype.h>
#include <string.h>

#include "acl/acl_base.h"
#include "model/ops/ops.h"

#define MAX_LABELS 64 /* 52 letters, then up to 12 ellipsis dims */
#define ELL 52

/* Parses one term into labels; ellipsis dims get ELL + k, right-aligned to ell_rank.
 * Returns the number of labels, or -1. */
static int parse_term(const char *t, size_t len, int rank, int ell_rank, int *labels) {
  int n = 0, letters = 0;
  for (size_t i = 0; i < len; i++)
    letters += isalpha((unsigned char)t[i]) != 0;
  for (size_t i = 0; i < len; i++) {
    char c = t[i];
    if (c == '.') {
      if (i + 2 >= len || t[i + 1] != '.' || t[i + 2] != '.')
        return -1;
      int k = rank >= 0 ? rank - letters : ell_rank; /* an input's own ellipsis rank, or the output's */
      if (k < 0 || k > ell_rank || ELL + ell_rank > MAX_LABELS)
        return -1;
      for (int e = 0; e < k; e++)
        labels[n++] = ELL + (ell_rank - k) + e;
      i += 2;
    } else if (isalpha((unsigned char)c)) {
      labels[n++] = islower((unsigned char)c) ? c - 'a' : 26 + c - 'A';
    } else {
      return -1;
    }
    if (n > ACL__EXEC_MAX_RANK)
      return -1;
  }
  return n;
}

int acl__k_einsum(acl__op_ctx *ctx) {
  int rc = acl__op_need(ctx, ctx->n_in);
  if (rc != 0)
    return rc;
  const char *eq_attr = acl__op_attr_str(ctx, "equation", NULL);
  char eq[256];
  size_t el = 0;
  for (const char *p = eq_attr; p != NULL && *p && el + 1 < sizeof(eq); p++)
    if (*p != ' ')
      eq[el++] = *p;
  eq[el] = '\0';
  if (eq_attr == NULL || ctx->n_in == 0 || ctx->n_in > 8)
    return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "needs an equation and 1 to 8 inputs");
  const char *arrow = strstr(eq, "->");
  size_t lhs_len = arrow != NULL ? (size_t)(arrow - eq) : el;
  int in_labels[8][ACL__EXEC_MAX_RANK], n_lab[8], ell_rank = 0;
  /* the ellipsis covers the most dims any input gives it */
  const char *t = eq;
  for (size_t k = 0; k < ctx->n_in; k++) {
    const char *end = memchr(t, ',', lhs_len - (size_t)(t - eq));
    size_t len = end != NULL ? (size_t)(end - t) : lhs_len - (size_t)(t - eq);
    int letters = 0;
    for (size_t i = 0; i < len; i++)
      letters += isalpha((unsigned char)t[i]) != 0;
    if (memchr(t, '.', len) != NULL && ctx->in[k]->rank - letters > ell_rank)
      ell_rank = ctx->in[k]->rank - letters;
    t = end != NULL ? end + 1 : t + len;
  }
  int64_t size[MAX_LABELS];
  int used[MAX_LABELS] = {0};
  for (int l = 0; l < MAX_LABELS; l++)
    size[l] = 1;
  t = eq;
  for (size_t k = 0; k < ctx->n_in; k++) {
    const char *end = memchr(t, ',', lhs_len - (size_t)(t - eq));
    size_t len = end != NULL ? (size_t)(end - t) : lhs_len - (size_t)(t - eq);
    const acl__tensor *x = ctx->in[k];
    n_lab[k] = parse_term(t, len, x->rank, ell_rank, in_labels[k]);
    if (n_lab[k] != x->rank || (k + 1 < ctx->n_in) != (end != NULL))
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "equation \"%s\" does not fit input %zu of rank %d", eq_attr,
                          k, x->rank);
    for (int d = 0; d < x->rank; d++) {
      int l = in_labels[k][d];
      if (used[l] && size[l] != x->dims[d] && size[l] != 1 && x->dims[d] != 1)
        return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "subscript %d of input %zu has size %lld, elsewhere %lld",
                            d, k, (long long)x->dims[d], (long long)size[l]);
      if (!used[l] || size[l] == 1)
        size[l] = x->dims[d];
      used[l]++;
    }
    t = end != NULL ? end + 1 : t + len;
  }
  int out_labels[ACL__EXEC_MAX_RANK], n_out = 0;
  if (arrow != NULL) {
    n_out = parse_term(arrow + 2, strlen(arrow + 2), -1, ell_rank, out_labels);
    if (n_out < 0)
      return acl__op_fail(ctx, ACL_ERROR_INVALID_PARAM, "cannot read the output of equation \"%s\"", eq_attr);
  } else { /* implicit: the ellipsis, then the letters used once, alphabetically */
    for (int e = 0; e < ell_rank; e++)
      out_labels[n_out++] = ELL + e;
    for (int l = 0; l < ELL && n_out < ACL__EXEC_MAX_RANK; l++)
      if (used[l] == 1)
        out_labels[n_out++] = l;
  }
  int64_t odims[ACL__EXEC_MAX_RANK];
  for (int d = 0; d < n_out; d++)
    odims[d] = size[out_labels[d]];
  rc = acl__op_alloc(ctx, 0, ctx->in[0]->onnx_type, n_out, odims);
  if (rc != 0)
    return rc;
  /* every label in play: output ones first, then the summed ones */
  int all[MAX_LABELS], n_all = 0;
  for (int d = 0; d < n_out; d++)
    all[n_all++] = out_labels[d];
  for (int l = 0; l < MAX_LABELS; l++) {
    int in_out = 0;
    for (int d = 0; d < n_out; d++)
      in_out |= out_labels[d] == l;
    if (used[l] && !in_out)
      all[n_all++] = l;
  }
  int64_t coord[MAX_LABELS] = {0}, total = 1;
  for (int i = 0; i < n_all; i++)
    total *= size[all[i]];
  for (int64_t it = 0; it < total; it++) {
    int64_t rem = it;
    for (int i = n_all - 1; i >= 0; i--) {
      coord[all[i]] = rem % size[all[i]];
      rem /= size[all[i]];
    }
    double prod = 1;
    for (size_t k = 0; k < ctx->n_in; k++) {
      const acl__tensor *x = ctx->in[k];
      int64_t off = 0;
      for (int d = 0; d < x->rank; d++)
        off = off * x->dims[d] + (x->dims[d] == 1 ? 0 : coord[in_labels[k][d]]);
      prod *= acl__op_get(x, off);
    }
    int64_t o = 0;
    for (int d = 0; d < n_out; d++)
      o = o * odims[d] + coord[out_labels[d]];
    acl__op_set(&ctx->out[0], o, acl__op_get(&ctx->out[0], o) + prod);
  }
  return 0;
}
