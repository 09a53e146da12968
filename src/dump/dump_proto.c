/*
 * dump_proto.c - the header of a dump file: toolkit.dump.DumpData (the
 * vendor's dump_task.proto) written with a small hand-made proto3 encoder,
 * so that msaccucmp and any protobuf reader parse openacl's dumps.
 *
 * Fields are written in field-number order, defaults (0, "", empty) left
 * out, `dim` packed, the `data` bytes fields left empty: the tensors' bytes
 * follow the header in the file (dump_file.c).
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base.h"
#include "dump/dump.h"
#include "model/graph.h"

enum { WT_VARINT = 0, WT_LEN = 2 };
enum { FMT_ND = 2 };

void acl__dump_buf_free(acl__dump_buf *b) {
  free(b->p);
  memset(b, 0, sizeof(*b));
}

static void put(acl__dump_buf *b, const void *p, size_t n) {
  if (b->oom)
    return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->len + n)
      cap *= 2;
    unsigned char *q = realloc(b->p, cap);
    if (q == NULL) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  if (n > 0)
    memcpy(b->p + b->len, p, n);
  b->len += n;
}

static void varint(acl__dump_buf *b, uint64_t v) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    tmp[n] = (unsigned char)(v & 0x7f);
    v >>= 7;
    if (v != 0)
      tmp[n] |= 0x80;
    n++;
  } while (v != 0);
  put(b, tmp, n);
}

static void key(acl__dump_buf *b, unsigned field, unsigned wt) { varint(b, ((uint64_t)field << 3) | wt); }

static void field_varint(acl__dump_buf *b, unsigned field, uint64_t v) {
  if (v == 0)
    return;
  key(b, field, WT_VARINT);
  varint(b, v);
}

static void field_bytes(acl__dump_buf *b, unsigned field, const void *p, size_t n) {
  if (n == 0)
    return;
  key(b, field, WT_LEN);
  varint(b, n);
  put(b, p, n);
}

static void field_str(acl__dump_buf *b, unsigned field, const char *s) {
  if (s != NULL)
    field_bytes(b, field, s, strlen(s));
}

/* A sub-message: encoded into its own buffer, then written length-delimited
 * (an empty message is still written: it is an element of a repeated field). */
static void field_msg(acl__dump_buf *b, unsigned field, acl__dump_buf *sub) {
  if (sub->oom)
    b->oom = 1;
  key(b, field, WT_LEN);
  varint(b, sub->len);
  put(b, sub->p, sub->len);
}

/* Shape { repeated uint64 dim = 1 (packed) } */
static void field_shape(acl__dump_buf *b, unsigned field, int rank, const int64_t *dims) {
  acl__dump_buf sh = {0}, packed = {0};
  for (int i = 0; i < rank; i++)
    varint(&packed, (uint64_t)dims[i]);
  if (rank > 0) {
    key(&sh, 1, WT_LEN);
    varint(&sh, packed.len);
    put(&sh, packed.p, packed.len);
    if (packed.oom)
      sh.oom = 1;
  }
  field_msg(b, field, &sh);
  acl__dump_buf_free(&sh);
  acl__dump_buf_free(&packed);
}

int acl__dump_proto_dtype(int t) {
  switch (t) {
  case ACL__ONNX_FLOAT:
    return 1;
  case ACL__ONNX_FLOAT16:
    return 2;
  case ACL__ONNX_INT8:
    return 3;
  case ACL__ONNX_UINT8:
    return 4;
  case ACL__ONNX_INT16:
    return 5;
  case ACL__ONNX_UINT16:
    return 6;
  case ACL__ONNX_INT32:
    return 7;
  case ACL__ONNX_INT64:
    return 8;
  case ACL__ONNX_UINT32:
    return 9;
  case ACL__ONNX_UINT64:
    return 10;
  case ACL__ONNX_BOOL:
    return 11;
  case ACL__ONNX_DOUBLE:
    return 12;
  case ACL__ONNX_STRING:
    return 13;
  case ACL__ONNX_COMPLEX64:
    return 16;
  case ACL__ONNX_COMPLEX128:
    return 17;
  case ACL__ONNX_BFLOAT16:
    return 27;
  default:
    return 0;
  }
}

const char *acl__dump_dtype_name(int t) {
  switch (acl__dump_proto_dtype(t)) {
  case 1:
    return "DT_FLOAT";
  case 2:
    return "DT_FLOAT16";
  case 3:
    return "DT_INT8";
  case 4:
    return "DT_UINT8";
  case 5:
    return "DT_INT16";
  case 6:
    return "DT_UINT16";
  case 7:
    return "DT_INT32";
  case 8:
    return "DT_INT64";
  case 9:
    return "DT_UINT32";
  case 10:
    return "DT_UINT64";
  case 11:
    return "DT_BOOL";
  case 12:
    return "DT_DOUBLE";
  case 13:
    return "DT_STRING";
  case 16:
    return "DT_COMPLEX64";
  case 17:
    return "DT_COMPLEX128";
  case 27:
    return "DT_BF16";
  default:
    return "DT_UNDEFINED";
  }
}

int acl__dump_proto_dtype_acl(int a) {
  /* prof-dump §5.3: aclDataType -> OutputDataType is not the identity */
  static const int map[][2] = {{ACL_FLOAT, 1},       {ACL_FLOAT16, 2},    {ACL_INT8, 3},        {ACL_INT32, 7},
                               {ACL_UINT8, 4},       {ACL_INT16, 5},      {ACL_UINT16, 6},      {ACL_UINT32, 9},
                               {ACL_INT64, 8},       {ACL_UINT64, 10},    {ACL_DOUBLE, 12},     {ACL_BOOL, 11},
                               {ACL_STRING, 13},     {ACL_COMPLEX64, 16}, {ACL_COMPLEX128, 17}, {ACL_BF16, 27},
                               {ACL_DT_UNDEFINED, 0}};
  for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
    if (map[i][0] == a)
      return map[i][1];
  return -1;
}

/* OpInput: 1 data_type, 2 format, 3 shape, 5 size, 6 original_shape, 8 address.
 * OpOutput: 1 data_type, 2 format, 3 shape, 6 size, 7 original_shape, 9 address. */
static void tensor_msg(acl__dump_buf *b, const acl__dump_tensor *t) {
  acl__dump_buf m = {0};
  int in = t->is_input;
  field_varint(&m, 1, (uint64_t)(t->onnx_type ? acl__dump_proto_dtype(t->onnx_type) : 4 /* raw: DT_UINT8 */));
  field_varint(&m, 2, FMT_ND);
  field_shape(&m, 3, t->rank, t->dims);
  field_varint(&m, in ? 5 : 6, t->size);
  field_shape(&m, in ? 6 : 7, t->rank, t->dims);
  field_varint(&m, in ? 8 : 9, t->address);
  field_msg(b, in ? 4 : 3, &m);
  acl__dump_buf_free(&m);
}

int acl__dump_proto_header(const acl__dump_record *r, uint64_t dump_time, acl__dump_buf *out) {
  memset(out, 0, sizeof(*out));
  field_str(out, 1, "2.0");
  field_varint(out, 2, dump_time);
  for (size_t i = 0; i < r->n; i++)
    if (!r->t[i].is_input)
      tensor_msg(out, &r->t[i]);
  for (size_t i = 0; i < r->n; i++)
    if (r->t[i].is_input)
      tensor_msg(out, &r->t[i]);
  field_str(out, 6, r->op_name);
  if (r->attr_name != NULL) {
    acl__dump_buf a = {0};
    field_str(&a, 1, r->attr_name);
    field_str(&a, 2, r->attr_value);
    field_msg(out, 7, &a);
    acl__dump_buf_free(&a);
  }
  field_str(out, 9, r->dfx_message);
  if (out->oom) {
    acl__dump_buf_free(out);
    return -1;
  }
  return 0;
}
