/*
 * error.h - lookups in the one table of error codes (error_table.h).
 * The table drives aclGetRecentErrMsg texts, openaclGetErrorInfo, the
 * `openacl explain` tool and a test that cross-checks every constant in
 * include/acl/.
 */
#ifndef OPENACL_COMMON_ERROR_H
#define OPENACL_COMMON_ERROR_H

#include <stddef.h>

typedef struct acl__error_info {
  const char *name;     /* "ACL_ERROR_INVALID_PARAM" */
  int code;             /* 100000 */
  const char *meaning;  /* one line: what the code says happened */
  const char *causes;   /* the usual reasons, in the user's terms */
  const char *remedy;   /* what to do about it */
} acl__error_info;

/* NULL when the code is not in the table.  Aliases (ACL_ERROR_NONE) are in the
 * table too; a lookup by number returns the first, canonical name. */
const acl__error_info *acl__error_lookup(int code);
const acl__error_info *acl__error_lookup_name(const char *name);
size_t acl__error_count(void);
const acl__error_info *acl__error_at(size_t index);
/* The canonical name, or "UNKNOWN_ERROR" for codes outside the table. */
const char *acl__error_name(int code);

#endif
