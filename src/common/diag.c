/* diag.c - the problem list used by the configuration and environment readers. */
#include "common/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void acl__diags_add(acl__diags *d, acl__diag_kind kind, int code,
                    const char *path, const char *fmt, ...) {
  if (d == NULL)
    return;
  if (d->count == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 8;
    acl__diag *items = realloc(d->items, cap * sizeof(*items));
    if (items == NULL)
      return;
    d->items = items;
    d->cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  char *msg = NULL;
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  char *p = strdup(path ? path : "");
  if (n < 0 || p == NULL) {
    if (n >= 0)
      free(msg);
    free(p);
    return;
  }
  acl__diag *e = &d->items[d->count++];
  e->kind = kind;
  e->code = code;
  e->path = p;
  e->message = msg;
}

const acl__diag *acl__diags_first_error(const acl__diags *d) {
  for (size_t i = 0; d != NULL && i < d->count; i++)
    if (d->items[i].kind == ACL__DIAG_ERROR)
      return &d->items[i];
  return NULL;
}

size_t acl__diags_error_count(const acl__diags *d) {
  size_t n = 0;
  for (size_t i = 0; d != NULL && i < d->count; i++)
    n += d->items[i].kind == ACL__DIAG_ERROR;
  return n;
}

void acl__diags_free(acl__diags *d) {
  if (d == NULL)
    return;
  for (size_t i = 0; i < d->count; i++) {
    free(d->items[i].path);
    free(d->items[i].message);
  }
  free(d->items);
  d->items = NULL;
  d->count = d->cap = 0;
}
