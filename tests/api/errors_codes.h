/*
 * errors_codes.h - the error-code constants found in include/acl/, as
 * extracted at build time by errors_extract.sh into errors_header_codes.c.
 */
#ifndef OPENACL_TEST_ERRORS_CODES_H
#define OPENACL_TEST_ERRORS_CODES_H

#include <stddef.h>

typedef struct errors_header_code {
  const char *name;     /* "ACL_ERROR_RT_CONTEXT_NULL" */
  long long constant;   /* the value of the constant itself, as compiled */
  long long text_value; /* the number written in the header */
  const char *header;   /* the header that declares it */
} errors_header_code;

extern const errors_header_code errors_header_codes[];
extern const size_t errors_header_code_count;

#endif
