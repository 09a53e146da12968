/*
 * dump.h - data dump (issue 12, docs/dump.md): what the acl.json `dump`
 * section or aclmdlSetDump turns on, and the hooks the model layer calls.
 *
 * Pieces (one file each):
 *   dump_config.c     the active configuration: a counted snapshot of one
 *                     `dump` section (acl.json at aclInit, or the file of
 *                     aclmdlSetDump), its time-stamped directory, and the
 *                     aclmdlInitDump / SetDump / FinalizeDump state machine;
 *   dump_model.c      binding a loaded model to the configuration of its
 *                     load, and the per-node hook of the reference executor
 *                     (model dump, overflow detection, watcher, exception);
 *   dump_file.c       one dump "file": the vendor's format (u64 header
 *                     length, DumpData protobuf, raw tensor bytes), the
 *                     stats CSV, the .npy beside each tensor, and the
 *                     acldumpRegCallback sink that replaces the disk;
 *   dump_proto.c      a small proto3 encoder for toolkit.dump.DumpData;
 *   dump_exception.c  exception dump of a failed kernel launch, and the
 *                     acldumpSaveExceptionInfo / GetExceptionInfoPath bodies.
 *
 * Zero cost when off: a model loaded while no dump applies has m->dump ==
 * NULL, and its executions test that one pointer.
 *
 * Lock order: dump_config.c's cfg_lock, then dump_file.c's cb_lock; both
 * leaves with respect to the rest of openacl (no other lock is taken while
 * they are held, and neither is held while a callback or a file write runs).
 */
#ifndef OPENACL_DUMP_DUMP_H
#define OPENACL_DUMP_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "model/exec.h"
#include "model/graph.h"

struct acl__config;

/* One dump_list entry, copied from the configuration. */
typedef struct acl__dump_entry {
  char *model_name; /* NULL: no model_name (watcher entries) */
  int all_layers;   /* no `layer` key, or an empty list */
  char **layer;
  size_t n_layer;
  char **watch; /* watcher_nodes */
  size_t n_watch;
} acl__dump_entry;

/* A counted snapshot of one `dump` section. */
typedef struct acl__dump_cfg {
  int refs;       /* atomic */
  unsigned epoch; /* live while it equals the dump epoch (aclmdlFinalizeDump / aclFinalize move it) */
  int model, op, overflow, exception, watcher; /* what it turns on */
  int mode;                                    /* DUMP_MODE_* (config_internal.h): 0 input, 1 output, 2 all */
  int stats;                                   /* dump_data "stats" */
  unsigned stats_cols;                         /* dump_stats: bit i = acl__cfg_dump_stats_names[i]; 0: the six */
  int level;                                   /* dump_level: 0 op, 1 kernel, 2 all (all the same here) */
  char *path;                                  /* dump_path made absolute; NULL when absent */
  char *base;                                  /* {path}/{YYYYMMDDHHMMSS}: the data-dump directory; NULL without path */
  char *exc_root; /* exception dump root (NPU_COLLECT_PATH > ASCEND_WORK_PATH > dump_path > cwd) */
  acl__dump_entry *list;
  size_t n_list;
} acl__dump_cfg;

/* ---- dump_config.c ---------------------------------------------------- */

/* aclInit: makes the acl.json section the active configuration (nothing when
 * it turns nothing on).  Never fails: problems are logged. */
void acl__dump_config_from_init(const struct acl__config *cfg);
/* aclFinalize: turns dump off and forgets the runtime-API state. */
void acl__dump_config_shutdown(void);
/* The public entry points' bodies (src/acl/dump_api.c); failures recorded for api. */
int acl__dump_init_api(const char *api);
int acl__dump_set_api(const char *api, const char *path);
int acl__dump_finalize_api(const char *api);
/* Whether c is still in force (no aclmdlFinalizeDump / aclFinalize since). */
int acl__dump_cfg_live(const acl__dump_cfg *c);
/* Whether a configuration is active (a cheap test before binding a model). */
int acl__dump_cfg_any(void);
/* A counted reference to the active configuration, or NULL. */
acl__dump_cfg *acl__dump_cfg_current(void);
void acl__dump_cfg_release(acl__dump_cfg *c);
/* acldumpGetPath: a stable string, or NULL. */
const char *acl__dump_get_path(acldumpType type);

/* ---- dump_model.c ----------------------------------------------------- */

/* What a loaded model keeps (model.h: acl__model.dump). */
typedef struct acl__dump_binding acl__dump_binding;

/* At load: the binding of a model to the active configuration, or NULL when
 * no dump applies to it.  path: the file it was loaded from (NULL: memory). */
acl__dump_binding *acl__dump_bind(const char *path, const acl__graph *g, uint32_t model_id, int32_t device_id);
void acl__dump_binding_free(acl__dump_binding *b);

/* One execution with dump: runs g on the reference executor with the node
 * hook when the binding asks for it (model dump, overflow, watcher), else
 * calls `engine(engine_arg)` and, when that fails with exception dump on,
 * runs the reference executor once more to capture the failing node's
 * tensors.  Same contract as acl__exec_run otherwise. */
typedef int (*acl__dump_engine_fn)(void *arg);
int acl__dump_run(acl__dump_binding *b, const acl__graph *g, const acl__tensor *in, size_t n_in, acl__tensor *outs,
                  size_t n_out, uint32_t stream_id, acl__dump_engine_fn engine, void *engine_arg, acl__diags *diags);

/* ---- dump_file.c ------------------------------------------------------ */

/* One tensor of a dump file. */
typedef struct acl__dump_tensor {
  int is_input;
  int onnx_type; /* ACL__ONNX_*; 0 with raw_u8 for raw bytes */
  int rank;
  const int64_t *dims;
  const void *data;
  size_t size;
  uint64_t address;
} acl__dump_tensor;

typedef struct acl__dump_record {
  const char *dir;                    /* created when missing */
  const char *name;                   /* file name */
  const char *op_name;                /* header op_name */
  const char *attr_name, *attr_value; /* one OpAttr, or NULLs */
  const char *dfx_message;            /* or NULL */
  const acl__dump_tensor *t;
  size_t n;
  int stats;     /* write <name>.csv instead of the tensor file */
  int npy;       /* write {name}.{input|output}.{i}.{shape}.npy beside */
  int read_only; /* file mode 0400 (acldumpSaveExceptionInfo) */
  unsigned stats_cols; /* dump_stats columns (acl__dump_cfg.stats_cols); 0: the default six */
} acl__dump_record;

/* Writes one record (to the callback when registered).  0, or -1 after
 * logging why (a dump failure never fails the execution that asked). */
int acl__dump_write(const acl__dump_record *r);
/* mkdir -p with mode 0750: 0 or -1 (errno set). */
int acl__dump_mkdirs(const char *path);
/* Name part with every character outside [A-Za-z0-9_-] replaced by '_'. */
void acl__dump_sanitize(char *dst, size_t n, const char *src);
/* Time stamps: microseconds since the epoch; local YYYYMMDDHHMMSS, and
 * YYYYMMDDHHMMSSmmm. */
uint64_t acl__dump_now_us(void);
void acl__dump_stamp_s(char *buf, size_t n);
void acl__dump_stamp_ms(char *buf, size_t n);

/* The acldumpRegCallback sink. */
typedef int32_t (*acl__dump_cb)(const acldumpChunk *chunk, int32_t len);
int acl__dump_cb_register(acl__dump_cb cb);
void acl__dump_cb_unregister(void);

/* ---- dump_proto.c ----------------------------------------------------- */

/* A growable byte buffer. */
typedef struct acl__dump_buf {
  unsigned char *p;
  size_t len, cap;
  int oom;
} acl__dump_buf;
void acl__dump_buf_free(acl__dump_buf *b);
/* The serialized DumpData header of record r (tensors' data left out). */
int acl__dump_proto_header(const acl__dump_record *r, uint64_t dump_time, acl__dump_buf *out);
/* The proto OutputDataType of an ONNX type, and its DT_ name for the CSV. */
int acl__dump_proto_dtype(int onnx_type);
const char *acl__dump_dtype_name(int onnx_type);
/* The proto OutputDataType of an aclDataType (-1 when it has none). */
int acl__dump_proto_dtype_acl(int acl_type);

/* ---- dump_exception.c ------------------------------------------------- */

/* Registers the kernel-failure hook with the runtime (exception.c). */
void acl__dump_exception_hook_install(void);
int acl__dump_exception_path_api(const char *api, char *path, size_t max_len);
int acl__dump_save_exception_api(const char *api, const char *file_name, const char *user_tag,
                                 const acldumpTensorInfo *tensors, size_t count);

#endif
