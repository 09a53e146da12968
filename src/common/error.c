/* error.c - the error table expanded into an array, and lookups in it. */
#include "common/error.h"

#include <string.h>

#include "common/error_table.h"

#define ACL__ERROR_ENTRY(name, value, meaning, causes, remedy) \
  {#name, value, meaning, causes, remedy},
static const acl__error_info acl__errors[] = {ACL__ERROR_TABLE(ACL__ERROR_ENTRY)};
#undef ACL__ERROR_ENTRY

const acl__error_info *acl__error_lookup(int code) {
  for (size_t i = 0; i < sizeof(acl__errors) / sizeof(acl__errors[0]); i++)
    if (acl__errors[i].code == code)
      return &acl__errors[i];
  return NULL;
}

const acl__error_info *acl__error_lookup_name(const char *name) {
  if (name == NULL)
    return NULL;
  for (size_t i = 0; i < sizeof(acl__errors) / sizeof(acl__errors[0]); i++)
    if (strcmp(acl__errors[i].name, name) == 0)
      return &acl__errors[i];
  return NULL;
}

size_t acl__error_count(void) { return sizeof(acl__errors) / sizeof(acl__errors[0]); }

const acl__error_info *acl__error_at(size_t index) {
  return index < acl__error_count() ? &acl__errors[index] : NULL;
}

const char *acl__error_name(int code) {
  const acl__error_info *e = acl__error_lookup(code);
  return e ? e->name : "UNKNOWN_ERROR";
}
