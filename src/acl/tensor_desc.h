/*
 * tensor_desc.h - what the rest of the library needs of aclTensorDesc
 * (tensor_desc.c): handle checks, and the copies a dataset owns.
 */
#ifndef OPENACL_ACL_TENSOR_DESC_H
#define OPENACL_ACL_TENSOR_DESC_H

#include "acl/acl.h"

/* 0 when desc is a live tensor descriptor; otherwise records a failure of
 * `api` naming the argument `arg` and returns ACL_ERROR_INVALID_PARAM. */
int acl__tensor_desc_check(const char *api, const char *arg, const aclTensorDesc *desc);

/* A registered deep copy of src that belongs to a dataset: aclDestroyTensorDesc
 * refuses it, acl__tensor_desc_free_owned frees it.  NULL (recorded as a
 * failure of `api`) when out of memory. */
aclTensorDesc *acl__tensor_desc_clone_owned(const char *api, const aclTensorDesc *src);
void acl__tensor_desc_free_owned(aclTensorDesc *desc);

#endif
