/*
 * tool.h - what the `openacl` command's files share: the subcommands, error
 * reporting and the loaded model.  The tool uses the public API only
 * (acl/acl.h and openacl/openacl.h), like any other client of the library.
 *
 * Exit codes: 0 success, 1 a failure while working (a failing API call, an
 * unreadable file, a mismatch found), 2 a usage error (bad option or value).
 */
#ifndef OPENACL_TOOL_TOOL_H
#define OPENACL_TOOL_TOOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

enum { TOOL_OK = 0, TOOL_FAIL = 1, TOOL_USAGE = 2 };

/* Subcommands: argv[0] is the subcommand's name; each returns an exit code. */
int tool_cmd_infer(int argc, char **argv);
int tool_cmd_devices(int argc, char **argv);
int tool_cmd_explain(int argc, char **argv);
int tool_cmd_config(int argc, char **argv);
int tool_cmd_prof(int argc, char **argv);

/* "openacl: error: <message>" on stderr, one line. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Under mpirun: every message after this says "openacl: rank N: error: ...". */
void tool_set_rank(int rank);
/* "openacl: warning: <message>" on stderr. */
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A failed API call: "openacl: error: <what>: <api> returned <NAME> (<code>): <meaning>" plus the
 * library's recent message (aclGetRecentErrMsg) when there is one, and the remedy from the error table.
 * Returns TOOL_FAIL. */
int tool_acl_error(const char *what, const char *api, aclError rc);
/* Usage error: the message, then "see 'openacl <cmd> --help'".  Returns TOOL_USAGE. */
int tool_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A model input or output, as its description reports it. */
typedef struct tool_io {
  char name[128];
  aclDataType dtype;
  aclFormat format;
  size_t rank;
  int64_t dims[16];    /* -1: dynamic */
  size_t size;         /* bytes; 0 when dynamic */
} tool_io;

/* A loaded model (device and context set up by tool_model_load). */
typedef struct tool_model {
  uint32_t id;
  aclmdlDesc *desc;
  size_t n_in, n_out;
  tool_io *in, *out;
  double load_ms;
} tool_model;

/* aclInit(NULL) once per process; 0 or an exit code (the error is printed). */
int tool_acl_init(void);
/* Sets the device, creates a context, loads `path` and describes it; 0 or an exit code. */
/* precision: a precision mode name (OPENACL_MDL_PRECISION_MODE_PTR), or NULL
 * for the process's (OPENACL_PRECISION_MODE). */
int tool_model_load(const char *path, int32_t device, const char *precision, tool_model *m);
void tool_model_unload(tool_model *m, int32_t device);

/* Bytes of one element of dtype (aclDataTypeSize), 0 if unknown. */
size_t tool_dtype_size(aclDataType dt);
/* "float32", "int64", ... as numpy spells them. */
const char *tool_dtype_name(aclDataType dt);

#endif
