/*
 * diag.h - a list of problems found while reading user input (acl.json, the
 * environment).  Each entry says where (a key path such as
 * "dump.dump_list[1].layer" or a variable name), what is wrong, and which
 * ACL error code it maps to.  Warnings and errors share the list so that
 * openaclCheckConfigFile can report every problem, while aclInit fails with
 * the code of the first error.
 */
#ifndef OPENACL_COMMON_DIAG_H
#define OPENACL_COMMON_DIAG_H

#include <stddef.h>

typedef enum acl__diag_kind {
  ACL__DIAG_WARNING = 0,
  ACL__DIAG_ERROR = 1
} acl__diag_kind;

typedef struct acl__diag {
  acl__diag_kind kind;
  int code;        /* aclError for errors; 0 for warnings */
  char *path;      /* key path or variable name; never NULL ("" = whole file) */
  char *message;   /* what is wrong, the bad value, the rule broken */
} acl__diag;

typedef struct acl__diags {
  acl__diag *items;
  size_t count;
  size_t cap;
} acl__diags;

/* Appends a problem.  Allocation failure drops the entry but never crashes. */
void acl__diags_add(acl__diags *d, acl__diag_kind kind, int code,
                    const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The first error, or NULL when there is none. */
const acl__diag *acl__diags_first_error(const acl__diags *d);
size_t acl__diags_error_count(const acl__diags *d);
void acl__diags_free(acl__diags *d);

#endif
