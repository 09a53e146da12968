/*
 * dump_util.h - what the dump tests (tests/api/dump*.c) share: small ONNX
 * models with named nodes written with the protobuf-c structs, running them
 * through the public API, finding the files a dump wrote, and reading a
 * dump file (u64 header length, DumpData header, raw tensor bytes) back.
 */
#ifndef OPENACL_TEST_DUMP_UTIL_H
#define OPENACL_TEST_DUMP_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* chain: X float [2,3] --"add.1" Add(X, B=[1,2,3])--> T --"mul1" Mul(T, T)--> Y float [2,3]
 * graph name "chain_graph".  Written to dir/<file>; the path, malloc'd. */
char *du_write_chain(const char *dir, const char *file);
/* reshape: X float [2,3], S int64 [2] --"reshape1" Reshape--> Y float (no shape); graph "reshape_graph". */
char *du_write_reshape(const char *dir, const char *file);

/* aclInit with `json` written to dir/acl.json (NULL: no file), then aclrtSetDevice(0). */
void du_init(const char *dir, const char *json);
void du_fini(void);

/* Runs chain model `id` on x[6] (stream: NULL = aclmdlExecute), y[6] gets the output; the aclError. */
int du_run_chain(uint32_t id, const float *x, float *y, aclrtStream stream);
/* Runs reshape model `id` with shape s[2]; the aclError. */
int du_run_reshape(uint32_t id, const int64_t *s);

/* Every regular file under dir (paths relative to dir), sorted; *n entries,
 * NULL-terminated array, free with du_free_list. */
char **du_files(const char *dir, size_t *n);
void du_free_list(char **l);
/* The first entry of l containing every one of the NULL-terminated needles, or NULL. */
const char *du_find(char **l, ...);
/* Count of entries containing needle. */
size_t du_count(char **l, const char *needle);

/* A parsed dump file. */
typedef struct du_dump {
  char version[16];
  char op_name[256];
  char attr[2][256]; /* first OpAttr name, value */
  char dfx[1024];
  size_t n_in, n_out;
  uint64_t in_size[8], out_size[8];
  int in_type[8], out_type[8];
  int in_rank[8], out_rank[8];
  uint64_t in_dims[8][8], out_dims[8][8];
  unsigned char *data; /* the raw bytes after the header */
  size_t data_len;
  size_t file_len;
} du_dump;

/* Reads and checks a dump file (the test fails on a malformed one). */
void du_read(const char *path, du_dump *d);
void du_dump_free(du_dump *d);
/* The float data of a .npy file: *n elements, malloc'd; the header's shape text in shape. */
float *du_read_npy_f32(const char *path, size_t *n, char *shape, size_t shape_len);

#endif
