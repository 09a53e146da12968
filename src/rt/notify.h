/*
 * notify.h - notifies and count notifies (notify.c): the operations behind
 * src/acl/notify_api.c, which checks the arguments.  Each records its own
 * failures.
 */
#ifndef OPENACL_RT_NOTIFY_H
#define OPENACL_RT_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "rt/rt.h"

typedef struct acl__notify acl__notify;

/* count: 1 for aclrtCntNotifyCreate, 0 for aclrtCreateNotify. */
int acl__notify_create(const char *api, acl__context *c, int count, acl__notify **out);
/* The live notify (count 0) or count notify (count 1) behind a handle;
 * NULL after recording why. */
acl__notify *acl__notify_resolve(const char *api, const void *h, int count, int *rc);
int acl__notify_destroy(const char *api, acl__notify *n);
/* A record task on s: a notify is set; a count notify's count changes by
 * mode (aclrtCntNotifyRecordMode) and value. */
int acl__notify_record(const char *api, acl__notify *n, acl__stream *s, uint32_t mode, uint32_t value);
/* A wait task on s: the stream goes on once the notify is set (and clears
 * it), or once a count notify's count satisfies mode (aclrtCntNotifyWaitMode)
 * and value (and is cleared when clear).  timeout_s 0 or UINT32_MAX: no
 * limit; else the wait fails with ACL_ERROR_RT_WAIT_TIMEOUT after that long. */
int acl__notify_wait(const char *api, acl__notify *n, acl__stream *s, uint32_t mode, uint32_t value, int clear,
                     uint32_t timeout_s);
/* A task on s that sets a count notify's count to 0. */
int acl__notify_reset_task(const char *api, acl__notify *n, acl__stream *s);
/* Clears a notify now, from the host (aclrtNotifyBatchReset). */
void acl__notify_clear(acl__notify *n);
uint32_t acl__notify_id(const acl__notify *n);
/* 1 when n came from aclrtNotifyImportByKey. */
int acl__notify_imported(const acl__notify *n);

/* IPC: the creator exports (its key, len >= 65), whitelists pids; another
 * process imports by key into its context c. */
int acl__notify_export(const char *api, acl__notify *n, int check_pid, char *key, size_t len);
int acl__notify_allow(const char *api, acl__notify *n, const int32_t *pids, size_t num);
int acl__notify_import(const char *api, acl__context *c, const char *key, acl__notify **out);

/* A context goes (device reset, aclFinalize): its notifies go with it,
 * logged as leaks. */
void acl__notify_context_gone(acl__context *c);

#endif
