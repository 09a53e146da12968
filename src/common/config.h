/*
 * config.h - the aclInit configuration file (acl.json): reading, full
 * validation, rounding, environment-dependent path resolution, and the
 * effective configuration as JSON.  The rules are in
 * shared reference acl-json.md and docs/configuration.md.
 *
 * Nothing here records aclGetRecentErrMsg messages or logs: problems go to
 * an acl__diags list with their key path, and the API layer (src/acl/init.c,
 * the openaclCheckConfigFile extension) decides what to do with them.
 */
#ifndef OPENACL_COMMON_CONFIG_H
#define OPENACL_COMMON_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "common/diag.h"
#include "common/env.h"

typedef struct acl__config acl__config;  /* defined in config_internal.h */

/* A configuration holding the documented defaults; NULL when out of memory. */
acl__config *acl__config_new(void);
void acl__config_free(acl__config *cfg);

/* Reads a file into a NUL-terminated buffer (*text, malloc'd, *len bytes).
 * A missing or unreadable file adds an error with ACL_ERROR_INVALID_FILE
 * and returns that code; a file larger than 64 MiB returns
 * ACL_ERROR_INVALID_FILE_SIZE. */
int acl__config_read_file(const char *path, char **text, size_t *len, acl__diags *diags);

/* Parses and validates acl.json text into cfg (which starts from defaults).
 * Every problem is added to diags: errors with their documented code, unknown
 * keys as warnings, rounding applied as warnings that give the effective
 * value.  Returns ACL_SUCCESS, or the code of the first error (cfg is then
 * unspecified and must only be freed). */
int acl__config_parse(acl__config *cfg, const char *text, size_t len, acl__diags *diags);

/* Resolves the dump and kernel-data paths with the documented environment
 * priority (NPU_COLLECT_PATH > ASCEND_WORK_PATH > dump_path > cwd for
 * exception dumps; ASCEND_DUMP_PATH > ASCEND_WORK_PATH > dump_path for kernel
 * data) and checks that they are writable (a warning if not). */
void acl__config_apply_env(acl__config *cfg, const acl__env *env, acl__diags *diags);

/* The effective configuration (defaults, file, environment, rounding) as a
 * JSON object text, indented two spaces or on one line (compact), malloc'd;
 * NULL when out of memory. */
char *acl__config_to_json(const acl__config *cfg, const acl__env *env, int compact);

/* Values the runtime needs. */
int acl__config_err_msg_mode(const acl__config *cfg);        /* 0 thread, 1 process */
int32_t acl__config_default_device(const acl__config *cfg);  /* -1 when not set */
/* A "profiler" key's value as written (NULL when absent), and the absolute
 * profiler.output (NULL when absent).  Read by src/prof/session.c. */
const char *acl__config_prof(const acl__config *cfg, const char *key);
const char *acl__config_prof_output(const acl__config *cfg);

/* How b differs from a, as "key: a-value -> b-value; ..." (malloc'd,
 * "" when they are equal).  Used when a repeated aclInit names another file. */
char *acl__config_diff(const acl__config *a, const acl__config *b);

#endif
