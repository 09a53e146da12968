/*
 * data_buffer.h - what the rest of the library needs of aclDataBuffer
 * (data_buffer.c): the handle check.
 */
#ifndef OPENACL_ACL_DATA_BUFFER_H
#define OPENACL_ACL_DATA_BUFFER_H

#include "acl/acl.h"

/* 0 when buf is a live aclDataBuffer; otherwise records a failure of `api`
 * naming the argument `arg` and returns ACL_ERROR_INVALID_PARAM. */
int acl__data_buffer_check(const char *api, const char *arg, const aclDataBuffer *buf);

#endif
