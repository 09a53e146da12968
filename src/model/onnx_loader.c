/*
 * onnx_loader.c - ONNX file -> acl__graph, safely (see onnx_loader.h).
 *
 * Order of work: read the bytes (size limits) -> walk the wire format with
 * the generated descriptors (nesting depth, well-formed lengths) -> unpack
 * with protobuf-c through a budgeted allocator -> convert and validate into
 * the graph, stopping at the first error -> free the protobuf message.
 * Every step is linear in the input (names are looked up in a hash table),
 * so hostile input cannot make loading slow.
 */
#include "model/onnx_loader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx.pb-c.h"

#define MAX_MODEL_DEFAULT ((size_t)INT32_MAX)
#define MAX_EXTERNAL_DEFAULT ((size_t)64 << 30)

typedef struct ctx {
  acl__diags *diags;
  const char *base_dir;  /* NULL: no external data allowed */
  char *base_real;       /* realpath(base_dir), made on first use */
  size_t ext_total, ext_max;
  acl__graph *g;
  ProtobufCAllocator *alloc; /* the decoder's: a tensor's raw_data goes back to it once copied */
  const struct spans *inits; /* initializers left in the file's bytes (streamed), or NULL: in the message */
} ctx;

/* Records the error and returns its code, so callers write
 * `rc = fail(...); goto out;`. */
static int fail(ctx *c, int code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(ctx *c, int code, const char *path, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  acl__diags_add(c->diags, ACL__DIAG_ERROR, code, path, "%s", msg);
  return code;
}

static const char *str_or_empty(const char *s) { return s != NULL ? s : ""; }

static char *dup_str(const char *s) { return strdup(str_or_empty(s)); }

static int oom(ctx *c, const char *path) {
  return fail(c, ACL_ERROR_PARSE_MODEL, path, "out of host memory while converting the model");
}

/* ---- budgeted allocator for protobuf-c ----------------------------------- */

typedef struct budget {
  size_t used, limit;
  int exceeded;
} budget;

#define HDR 16 /* keeps max_align_t alignment for the caller */

static void *budget_alloc(void *data, size_t size) {
  budget *b = data;
  if (size > SIZE_MAX - HDR || size + HDR > b->limit - b->used) {
    b->exceeded = 1;
    return NULL;
  }
  unsigned char *p = malloc(size + HDR);
  if (p == NULL)
    return NULL;
  memcpy(p, &size, sizeof(size));
  b->used += size + HDR;
  return p + HDR;
}

static void budget_free(void *data, void *ptr) {
  budget *b = data;
  if (ptr == NULL)
    return;
  unsigned char *p = (unsigned char *)ptr - HDR;
  size_t size;
  memcpy(&size, p, sizeof(size));
  b->used -= size + HDR;
  free(p);
}

/* ---- wire-format pre-pass ------------------------------------------------ */

/* Reads a varint at p[*pos..n); -1 when truncated or longer than 10 bytes. */
static int read_varint(const uint8_t *p, size_t n, size_t *pos, uint64_t *v) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*pos >= n)
      return -1;
    uint8_t b = p[(*pos)++];
    r |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = r;
      return 0;
    }
  }
  return -1;
}

/* Walks a message's fields, descending into message-typed fields with the
 * descriptor's help, so nesting depth is bounded before protobuf-c (which
 * recurses without a limit) sees the data.  Returns 0, or -1 with *where the
 * byte offset of the problem and *why a description. */
static int wire_scan(const uint8_t *p, size_t n, size_t base,
                     const ProtobufCMessageDescriptor *desc, int depth,
                     size_t *where, const char **why) {
  if (depth > ACL__ONNX_MAX_DEPTH) {
    *where = base;
    *why = "messages nested deeper than openacl accepts (64 levels)";
    return -1;
  }
  size_t pos = 0;
  while (pos < n) {
    size_t at = pos;
    uint64_t key, len;
    if (read_varint(p, n, &pos, &key) != 0) {
      *where = base + at;
      *why = "truncated field key";
      return -1;
    }
    uint64_t field = key >> 3;
    if (field == 0 || field > 536870911u) {
      *where = base + at;
      *why = "invalid field number";
      return -1;
    }
    switch (key & 7) {
    case 0:
      if (read_varint(p, n, &pos, &len) != 0) {
        *where = base + at;
        *why = "truncated varint";
        return -1;
      }
      break;
    case 1:
    case 5: {
      size_t w = (key & 7) == 1 ? 8 : 4;
      if (n - pos < w) {
        *where = base + at;
        *why = "truncated fixed-size field";
        return -1;
      }
      pos += w;
      break;
    }
    case 2: {
      if (read_varint(p, n, &pos, &len) != 0 || len > n - pos) {
        *where = base + at;
        *why = "length-delimited field runs past the end of its message (truncated file?)";
        return -1;
      }
      const ProtobufCFieldDescriptor *f =
          desc != NULL ? protobuf_c_message_descriptor_get_field(desc, (unsigned)field) : NULL;
      if (f != NULL && f->type == PROTOBUF_C_TYPE_MESSAGE &&
          wire_scan(p + pos, (size_t)len, base + pos, f->descriptor, depth + 1, where, why) != 0)
        return -1;
      pos += (size_t)len;
      break;
    }
    default:
      *where = base + at;
      *why = "unsupported wire type (groups or garbage)";
      return -1;
    }
  }
  return 0;
}

/* ---- initializers streamed from the file's bytes ------------------------ */

/* A model read from a file is decoded without its initializers first (a
 * copy of the bytes with them cut out, small), then one initializer at a
 * time from the file's bytes, whose pages are given back as soon as each is
 * converted.  Decoding it whole would hold the file, the decoded copy of
 * every weight and (briefly) the graph's: two to three times the weights. */
typedef struct spans {
  const uint8_t *base; /* the file's bytes, in our own anonymous mapping */
  size_t *off, *len;   /* each graph.initializer entry's TensorProto bytes */
  size_t n;
} spans;

static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7)
    p[n++] = (uint8_t)(v | 0x80);
  p[n++] = (uint8_t)v;
  return n;
}

/* The next field of p[*pos..n) (wire_scan has checked the bytes): its
 * number and wire type, and for wire type 2 its payload [*p0, *p0 + *plen).
 * -1 at a malformed field. */
static int next_field(const uint8_t *p, size_t n, size_t *pos, uint64_t *field, int *wt, size_t *p0, size_t *plen) {
  uint64_t key, v;
  if (read_varint(p, n, pos, &key) != 0)
    return -1;
  *field = key >> 3;
  *wt = (int)(key & 7);
  switch (*wt) {
  case 0:
    return read_varint(p, n, pos, &v);
  case 1:
  case 5:
    if (n - *pos < (*wt == 1 ? 8u : 4u))
      return -1;
    *pos += *wt == 1 ? 8 : 4;
    return 0;
  case 2:
    if (read_varint(p, n, pos, &v) != 0 || v > n - *pos)
      return -1;
    *p0 = *pos;
    *plen = (size_t)v;
    *pos += (size_t)v;
    return 0;
  default:
    return -1;
  }
}

/* Cuts graph.initializer out of the ModelProto p[0..n): *out (malloc) is the
 * rest, *sp where the initializers are.  1 when done; 0 when the model has
 * no initializers or not exactly one graph field (it is then decoded whole);
 * -1 when out of memory. */
static int split_initializers(const uint8_t *p, size_t n, uint8_t **out, size_t *out_n, spans *sp) {
  size_t pos = 0, g0 = 0, glen = 0, h0 = 0, p0 = 0, plen = 0;
  int graphs = 0, wt;
  uint64_t field;
  while (pos < n) {
    size_t at = pos;
    if (next_field(p, n, &pos, &field, &wt, &p0, &plen) != 0)
      return 0;
    if (field == 7 && wt == 2) {
      graphs++;
      h0 = at;
      g0 = p0;
      glen = plen;
    }
  }
  if (graphs != 1)
    return 0;
  size_t count = 0, cut = 0;
  for (pos = g0; pos < g0 + glen;) {
    size_t at = pos;
    if (next_field(p, g0 + glen, &pos, &field, &wt, &p0, &plen) != 0)
      return 0;
    if (field == 5 && wt == 2) {
      count++;
      cut += pos - at;
    }
  }
  if (count == 0)
    return 0;
  size_t newlen = glen - cut;
  uint8_t *o = malloc(h0 + 1 + 10 + newlen + (n - g0 - glen));
  sp->off = malloc(count * sizeof(size_t));
  sp->len = malloc(count * sizeof(size_t));
  if (o == NULL || sp->off == NULL || sp->len == NULL) {
    free(o);
    free(sp->off);
    free(sp->len);
    sp->off = sp->len = NULL;
    return -1;
  }
  size_t w = h0;
  memcpy(o, p, h0);
  o[w++] = (7 << 3) | 2;
  w += put_varint(o + w, newlen);
  sp->n = 0;
  for (pos = g0; pos < g0 + glen;) {
    size_t at = pos;
    next_field(p, g0 + glen, &pos, &field, &wt, &p0, &plen);
    if (field == 5 && wt == 2) {
      sp->off[sp->n] = p0;
      sp->len[sp->n++] = plen;
    } else {
      memcpy(o + w, p + at, pos - at);
      w += pos - at;
    }
  }
  memcpy(o + w, p + g0 + glen, n - g0 - glen);
  w += n - g0 - glen;
  sp->base = p;
  *out = o;
  *out_n = w;
  return 1;
}

/* Gives the whole pages inside a converted initializer's bytes back. */
static void release_span(const spans *sp, size_t i) {
  long pg = sysconf(_SC_PAGESIZE);
  uintptr_t a = (uintptr_t)(sp->base + sp->off[i]), b = a + sp->len[i];
  uintptr_t lo = (a + (uintptr_t)pg - 1) / (uintptr_t)pg * (uintptr_t)pg, hi = b / (uintptr_t)pg * (uintptr_t)pg;
  if (pg > 0 && hi > lo)
    madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* ---- types and shapes ---------------------------------------------------- */

static const char *type_case_name(Onnx__TypeProto__ValueCase vc) {
  switch (vc) {
  case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: return "a sequence";
  case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: return "a map";
  case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: return "an optional";
  case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE: return "a sparse tensor";
  default: return "no";
  }
}

/* Applies a ValueInfoProto's type and shape to `t`.  `required`: the value
 * must be a tensor with a known element type (graph inputs and outputs);
 * otherwise non-tensor or untyped infos are skipped (value_info hints). */
static int apply_value_info(ctx *c, const Onnx__ValueInfoProto *vi, acl__graph_tensor *t,
                            const char *path, int required) {
  char fp[1024];
  const Onnx__TypeProto *tp = vi->type;
  if (tp != NULL && tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE && tp->sequence_type != NULL &&
      tp->sequence_type->elem_type != NULL &&
      tp->sequence_type->elem_type->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
      tp->sequence_type->elem_type->tensor_type != NULL) {
    /* seq(tensor): the reference executor carries these (exec.h); the element type is kept, shapes vary */
    const Onnx__TypeProto__Tensor *et = tp->sequence_type->elem_type->tensor_type;
    int ety = et->has_elem_type ? et->elem_type : 0;
    if (ety != 0 && acl__graph_onnx_to_acl(ety) == ACL_DT_UNDEFINED) {
      snprintf(fp, sizeof(fp), "%.700s.type.sequence_type.elem_type", path);
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "sequence \"%.200s\" has unknown data type %d", t->name, ety);
    }
    t->is_sequence = 1;
    if (ety != 0 && t->onnx_type == 0) {
      t->onnx_type = ety;
      t->dtype = acl__graph_onnx_to_acl(ety);
    }
    return 0;
  }
  if (tp == NULL || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || tp->tensor_type == NULL) {
    if (!required)
      return 0;
    snprintf(fp, sizeof(fp), "%.700s.type", path);
    if (tp == NULL || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has no type", t->name);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp,
                "tensor \"%.200s\" is %s type; openacl supports only tensors here (unsupported)",
                t->name, type_case_name(tp->value_case));
  }
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  snprintf(fp, sizeof(fp), "%.700s.type.tensor_type.elem_type", path);
  int et = tt->has_elem_type ? tt->elem_type : 0;
  if (et == ACL__ONNX_UNDEFINED) {
    if (!required)
      return 0;
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has no element type", t->name);
  }
  if (acl__graph_onnx_to_acl(et) == ACL_DT_UNDEFINED)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has unknown data type %d", t->name, et);
  if (t->onnx_type != 0 && t->onnx_type != et)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" is declared %s here but is %s elsewhere",
                t->name, acl__graph_onnx_type_name(et), acl__graph_onnx_type_name(t->onnx_type));
  t->onnx_type = et;
  t->dtype = acl__graph_onnx_to_acl(et);
  if (tt->shape == NULL || t->rank >= 0)
    return 0; /* unknown rank, or already known (an initializer's own dims win) */
  if (tt->shape->n_dim > ACL__ONNX_MAX_RANK) {
    snprintf(fp, sizeof(fp), "%.700s.type.tensor_type.shape", path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has rank %zu; at most %d is supported",
                t->name, tt->shape->n_dim, ACL__ONNX_MAX_RANK);
  }
  acl__graph_dim *dims = calloc(tt->shape->n_dim ? tt->shape->n_dim : 1, sizeof(*dims));
  if (dims == NULL)
    return oom(c, path);
  for (size_t i = 0; i < tt->shape->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    dims[i].value = -1;
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE) {
      if (d->dim_value < 0) {
        for (size_t j = 0; j < i; j++)
          free(dims[j].symbol);
        free(dims);
        snprintf(fp, sizeof(fp), "%.700s.type.tensor_type.shape.dim[%zu]", path, i);
        return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has negative dimension %lld",
                    t->name, (long long)d->dim_value);
      }
      dims[i].value = d->dim_value;
    } else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
               d->dim_param != NULL && d->dim_param[0] != '\0') {
      dims[i].symbol = strdup(d->dim_param);
      if (dims[i].symbol == NULL) {
        for (size_t j = 0; j < i; j++)
          free(dims[j].symbol);
        free(dims);
        return oom(c, path);
      }
    }
  }
  t->dims = dims;
  t->rank = (int)tt->shape->n_dim;
  return 0;
}

/* ---- tensor data --------------------------------------------------------- */

/* A decimal string to a non-negative integer; -1 when it is not one. */
static int parse_u64(const char *s, uint64_t *v) {
  if (s == NULL || *s == '\0')
    return -1;
  uint64_t r = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || r > (UINT64_MAX - 9) / 10)
      return -1;
    r = r * 10 + (uint64_t)(*s - '0');
  }
  *v = r;
  return 0;
}

/* The location must be a relative path below the model's directory: no
 * leading '/', no ".." component.  Symbolic links are checked by comparing
 * real paths afterwards. */
static int location_is_safe(const char *loc) {
  if (loc[0] == '/')
    return 0;
  const char *p = loc;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 2 && p[0] == '.' && p[1] == '.')
      return 0;
    p += len;
    while (*p == '/')
      p++;
  }
  return 1;
}

static int read_external(ctx *c, const Onnx__TensorProto *tp, acl__graph_tensor *t, size_t bytes,
                         const char *path) {
  char fp[1024];
  const char *loc = NULL, *off_s = NULL, *len_s = NULL;
  for (size_t i = 0; i < tp->n_external_data; i++) {
    const Onnx__StringStringEntryProto *e = tp->external_data[i];
    const char *k = str_or_empty(e->key);
    if (strcmp(k, "location") == 0)
      loc = e->value;
    else if (strcmp(k, "offset") == 0)
      off_s = e->value;
    else if (strcmp(k, "length") == 0)
      len_s = e->value;
  }
  snprintf(fp, sizeof(fp), "%.700s.external_data", path);
  if (loc == NULL || loc[0] == '\0')
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" is stored externally but has no \"location\"",
                t->name);
  if (!location_is_safe(loc) || strlen(loc) >= PATH_MAX / 2)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp,
                "tensor \"%.200s\": external data location \"%.200s\" must be a relative path inside the "
                "model's directory (no leading '/', no \"..\")", t->name, loc);
  uint64_t off = 0, len = 0;
  if (off_s != NULL && parse_u64(off_s, &off) != 0)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\": external data offset \"%.60s\" is not a "
                "non-negative integer", t->name, off_s);
  if (len_s != NULL && parse_u64(len_s, &len) != 0)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\": external data length \"%.60s\" is not a "
                "non-negative integer", t->name, len_s);
  if (c->base_dir == NULL)
    return fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp,
                "tensor \"%.200s\" is stored in external file \"%.200s\", but a model loaded from memory has "
                "no directory to find it in", t->name, loc);
  if (c->base_real == NULL) {
    c->base_real = realpath(c->base_dir, NULL);
    if (c->base_real == NULL)
      return fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "the model's directory \"%.200s\" cannot be resolved: %s",
                  c->base_dir, strerror(errno));
  }
  char *full = NULL, *real = NULL;
  int rc = 0, fd = -1;
  if (asprintf(&full, "%s/%s", c->base_real, loc) < 0) {
    full = NULL;
    rc = oom(c, fp);
    goto out;
  }
  real = realpath(full, NULL);
  if (real == NULL) {
    rc = fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "tensor \"%.200s\": external data file \"%.300s\": %s",
              t->name, full, strerror(errno));
    goto out;
  }
  size_t bl = strlen(c->base_real);
  if (strncmp(real, c->base_real, bl) != 0 || (real[bl] != '/' && strcmp(c->base_real, "/") != 0)) {
    rc = fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\": external data file \"%.200s\" resolves to "
              "\"%.200s\", outside the model's directory", t->name, loc, real);
    goto out;
  }
  fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    rc = fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "tensor \"%.200s\": cannot open external data file "
              "\"%.300s\": %s", t->name, real, strerror(errno));
    goto out;
  }
  if (!S_ISREG(st.st_mode)) {
    rc = fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "tensor \"%.200s\": external data \"%.300s\" is not a "
              "regular file", t->name, real);
    goto out;
  }
  uint64_t fsize = (uint64_t)st.st_size;
  if (len_s == NULL)
    len = off <= fsize ? fsize - off : 0;
  if (len != bytes) {
    rc = fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\": external data holds %llu bytes but its shape "
              "and type need %zu", t->name, (unsigned long long)len, bytes);
    goto out;
  }
  if (off > fsize || len > fsize - off) {
    rc = fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "tensor \"%.200s\": external data [offset %llu, length %llu] "
              "runs past the end of \"%.200s\" (%llu bytes)", t->name, (unsigned long long)off,
              (unsigned long long)len, loc, (unsigned long long)fsize);
    goto out;
  }
  if (bytes > c->ext_max - c->ext_total) {
    rc = fail(c, ACL_ERROR_MODEL_SIZE_INVALID, fp, "tensor \"%.200s\": external data exceeds the limit of %zu "
              "bytes for all external data", t->name, c->ext_max);
    goto out;
  }
  c->ext_total += bytes;
  t->data = malloc(bytes ? bytes : 1);
  if (t->data == NULL) {
    rc = oom(c, fp);
    goto out;
  }
  size_t done = 0;
  while (done < bytes) {
    ssize_t r = pread(fd, (char *)t->data + done, bytes - done, (off_t)(off + done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      rc = fail(c, ACL_ERROR_READ_MODEL_FAILURE, fp, "tensor \"%.200s\": reading \"%.200s\" failed: %s",
                t->name, loc, r < 0 ? strerror(errno) : "the file is shorter than expected");
      goto out;
    }
    done += (size_t)r;
  }
  t->data_size = bytes;
  t->external = 1;
out:
  if (fd >= 0)
    close(fd);
  free(full);
  free(real);
  return rc;
}

/* Copies a typed repeated field (int32_data, uint64_data, ...) into dense
 * elements of `esize` bytes, narrowing as ONNX stores small types widened. */
static void narrow_copy(void *dst, const void *src, size_t count, size_t src_size, size_t esize) {
  const unsigned char *s = src;
  unsigned char *d = dst;
  for (size_t i = 0; i < count; i++) {
    uint64_t v = 0;
    if (src_size == 4) {
      uint32_t x;
      memcpy(&x, s + i * 4, 4);
      v = x;
    } else {
      memcpy(&v, s + i * 8, 8);
    }
    /* little-endian host: the low bytes come first */
    memcpy(d + i * esize, &v, esize);
  }
}

/* String elements (string_data) into an array of n heap strings (graph.h). */
static int convert_strings(ctx *c, const Onnx__TensorProto *tp, acl__graph_tensor *t, size_t n, const char *path) {
  char fp[1024];
  if (tp->n_string_data != n) {
    snprintf(fp, sizeof(fp), "%.700s.string_data", path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" (string, %zu elements) holds %zu strings",
                t->name, n, tp->n_string_data);
  }
  char **strs = calloc(n ? n : 1, sizeof(char *));
  if (strs == NULL)
    return oom(c, path);
  t->data = strs;
  t->data_size = n * sizeof(char *); /* set now so acl__graph_tensor_clear frees what was copied */
  for (size_t i = 0; i < n; i++) {
    strs[i] = malloc(tp->string_data[i].len + 1);
    if (strs[i] == NULL)
      return oom(c, path);
    if (tp->string_data[i].len > 0)
      memcpy(strs[i], tp->string_data[i].data, tp->string_data[i].len);
    strs[i][tp->string_data[i].len] = '\0';
  }
  return 0;
}

/* Converts a TensorProto (initializer or tensor attribute) into `t`, which
 * already has its name. */
static int convert_tensor(ctx *c, const Onnx__TensorProto *tp, acl__graph_tensor *t, const char *path) {
  char fp[1024];
  t->kind = ACL__TENSOR_INITIALIZER;
  t->producer = -1;
  int et = tp->has_data_type ? tp->data_type : 0;
  snprintf(fp, sizeof(fp), "%.700s.data_type", path);
  if (et == ACL__ONNX_UNDEFINED)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has no data type", t->name);
  if (acl__graph_onnx_to_acl(et) == ACL_DT_UNDEFINED)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has unknown data type %d", t->name, et);
  if (tp->segment != NULL) {
    snprintf(fp, sizeof(fp), "%.700s.segment", path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\": segmented tensors are not supported",
                t->name);
  }
  t->onnx_type = et;
  t->dtype = acl__graph_onnx_to_acl(et);
  if (tp->n_dims > ACL__ONNX_MAX_RANK) {
    snprintf(fp, sizeof(fp), "%.700s.dims", path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has rank %zu; at most %d is supported",
                t->name, tp->n_dims, ACL__ONNX_MAX_RANK);
  }
  t->dims = calloc(tp->n_dims ? tp->n_dims : 1, sizeof(*t->dims));
  if (t->dims == NULL)
    return oom(c, path);
  t->rank = (int)tp->n_dims;
  for (size_t i = 0; i < tp->n_dims; i++) {
    if (tp->dims[i] < 0) {
      snprintf(fp, sizeof(fp), "%.700s.dims[%zu]", path, i);
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has negative dimension %lld", t->name,
                  (long long)tp->dims[i]);
    }
    t->dims[i].value = tp->dims[i];
  }
  size_t esize = et == ACL__ONNX_STRING ? sizeof(char *) : acl__graph_onnx_elem_size(et);
  int64_t numel = acl__graph_numel(t);
  if (numel < 0 || (uint64_t)numel > SIZE_MAX / esize) {
    snprintf(fp, sizeof(fp), "%.700s.dims", path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" has more elements than fit in memory",
                t->name);
  }
  size_t n = (size_t)numel, bytes = n * esize;
  if (et == ACL__ONNX_STRING)
    return convert_strings(c, tp, t, n, path);

  if (tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
    return read_external(c, tp, t, bytes, path);

  const void *src = NULL;
  size_t have = 0, want = n, src_size = 0;
  const char *field = "raw_data";
  if (tp->has_raw_data) {
    src = tp->raw_data.data;
    have = tp->raw_data.len;
    want = bytes;
    src_size = 1;
  } else {
    switch (et) {
    case ACL__ONNX_FLOAT:
    case ACL__ONNX_COMPLEX64:
      field = "float_data", src = tp->float_data, have = tp->n_float_data, src_size = 4;
      break;
    case ACL__ONNX_DOUBLE:
    case ACL__ONNX_COMPLEX128:
      field = "double_data", src = tp->double_data, have = tp->n_double_data, src_size = 8;
      break;
    case ACL__ONNX_INT64:
      field = "int64_data", src = tp->int64_data, have = tp->n_int64_data, src_size = 8;
      break;
    case ACL__ONNX_UINT32:
    case ACL__ONNX_UINT64:
      field = "uint64_data", src = tp->uint64_data, have = tp->n_uint64_data, src_size = 8;
      break;
    default: /* int32, int16, int8, uint16, uint8, bool, float16, bfloat16 */
      field = "int32_data", src = tp->int32_data, have = tp->n_int32_data, src_size = 4;
      break;
    }
    if (et == ACL__ONNX_COMPLEX64 || et == ACL__ONNX_COMPLEX128)
      want = 2 * n; /* real and imaginary parts; n <= SIZE_MAX / 16 here */
  }
  if (have != want) {
    snprintf(fp, sizeof(fp), "%.700s.%s", path, field);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" (%s, %lld elements) needs %zu %s but %s "
                "holds %zu", t->name, acl__graph_onnx_type_name(et), (long long)numel, want,
                src_size == 1 ? "bytes" : "values", field, have);
  }
  t->data = malloc(bytes ? bytes : 1);
  if (t->data == NULL)
    return oom(c, path);
  t->data_size = bytes;
  if (bytes == 0)
    return 0;
  if (src_size == 1 || src_size * want == bytes)
    memcpy(t->data, src, bytes);
  else
    narrow_copy(t->data, src, want, src_size, esize);
  if (tp->has_raw_data && c->alloc != NULL) {
    /* the decoded bytes are not needed again: freeing them now keeps the
     * peak memory of a load near one copy of the weights, not two */
    Onnx__TensorProto *w = (Onnx__TensorProto *)tp;
    c->alloc->free(c->alloc->allocator_data, w->raw_data.data);
    w->raw_data.data = NULL;
    w->raw_data.len = 0;
  }
  return 0;
}

/* ---- nodes --------------------------------------------------------------- */

static int convert_attr(ctx *c, const Onnx__AttributeProto *ap, acl__graph_attr *a, const char *path) {
  char fp[1024];
  snprintf(fp, sizeof(fp), "%.700s.name", path);
  if (ap->name == NULL || ap->name[0] == '\0')
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the attribute has no name");
  a->name = strdup(ap->name);
  if (a->name == NULL)
    return oom(c, path);
  snprintf(fp, sizeof(fp), "%.700s (\"%.100s\")", path, ap->name);
  if (ap->ref_attr_name != NULL && ap->ref_attr_name[0] != '\0')
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "ref_attr_name is only allowed inside functions");
  int type = ap->has_type ? (int)ap->type : 0;
  if (type == 0) { /* very old writers omit the type: infer it from the field that is set */
    if (ap->has_f) type = ACL__ATTR_FLOAT;
    else if (ap->has_i) type = ACL__ATTR_INT;
    else if (ap->has_s) type = ACL__ATTR_STRING;
    else if (ap->t != NULL) type = ACL__ATTR_TENSOR;
    else if (ap->g != NULL) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
    else if (ap->n_floats) type = ACL__ATTR_FLOATS;
    else if (ap->n_ints) type = ACL__ATTR_INTS;
    else if (ap->n_strings) type = ACL__ATTR_STRINGS;
    else if (ap->n_graphs) type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS;
    else
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the attribute has no type and no value");
  }
  a->type = (acl__graph_attr_type)type;
  switch (type) {
  case ACL__ATTR_FLOAT:
    a->f = ap->f;
    return 0;
  case ACL__ATTR_INT:
    a->i = ap->i;
    return 0;
  case ACL__ATTR_STRING:
    a->s_len = ap->has_s ? ap->s.len : 0;
    a->s = malloc(a->s_len + 1);
    if (a->s == NULL)
      return oom(c, path);
    if (a->s_len)
      memcpy(a->s, ap->s.data, a->s_len);
    a->s[a->s_len] = '\0';
    return 0;
  case ACL__ATTR_FLOATS:
    a->count = ap->n_floats;
    a->floats = malloc(a->count ? a->count * sizeof(float) : 1);
    if (a->floats == NULL)
      return oom(c, path);
    if (a->count)
      memcpy(a->floats, ap->floats, a->count * sizeof(float));
    return 0;
  case ACL__ATTR_INTS:
    a->count = ap->n_ints;
    a->ints = malloc(a->count ? a->count * sizeof(int64_t) : 1);
    if (a->ints == NULL)
      return oom(c, path);
    if (a->count)
      memcpy(a->ints, ap->ints, a->count * sizeof(int64_t));
    return 0;
  case ACL__ATTR_STRINGS:
    a->strings = calloc(ap->n_strings ? ap->n_strings : 1, sizeof(char *));
    if (a->strings == NULL)
      return oom(c, path);
    for (size_t i = 0; i < ap->n_strings; i++) {
      a->strings[i] = malloc(ap->strings[i].len + 1);
      if (a->strings[i] == NULL)
        return oom(c, path);
      a->count = i + 1;
      if (ap->strings[i].len)
        memcpy(a->strings[i], ap->strings[i].data, ap->strings[i].len);
      a->strings[i][ap->strings[i].len] = '\0';
    }
    return 0;
  case ACL__ATTR_TENSOR: {
    if (ap->t == NULL)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "a tensor attribute without a tensor (field t)");
    a->tensor = calloc(1, sizeof(*a->tensor));
    if (a->tensor == NULL || (a->tensor->name = dup_str(ap->t->name)) == NULL)
      return oom(c, path);
    snprintf(fp, sizeof(fp), "%.700s (\"%.100s\").t", path, ap->name);
    return convert_tensor(c, ap->t, a->tensor, fp);
  }
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS:
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "subgraphs not supported yet (graph attribute)");
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO:
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS:
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "attribute type %d (tensors, sparse tensors or type protos) is "
                "not supported yet", type);
  default:
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "unknown attribute type %d", type);
  }
}

/* Adds a tensor named `name` to the table; the caller checked it is new. */
static acl__graph_tensor *add_tensor(ctx *c, const char *name) {
  acl__graph *g = c->g;
  acl__graph_tensor *t = &g->tensors[g->n_tensors];
  memset(t, 0, sizeof(*t));
  t->name = strdup(name);
  if (t->name == NULL)
    return NULL;
  t->producer = -1;
  t->rank = -1;
  t->dtype = ACL_DT_UNDEFINED;
  g->n_tensors++;
  acl__graph_names_put(g, (int)(g->n_tensors - 1));
  return t;
}

static int is_default_domain(const char *d) { return d == NULL || d[0] == '\0' || strcmp(d, "ai.onnx") == 0; }

static int convert_node(ctx *c, const Onnx__GraphProto *gp, size_t ni, const Onnx__ModelProto *m) {
  acl__graph *g = c->g;
  const Onnx__NodeProto *np = gp->node[ni];
  acl__graph_node *n = &g->nodes[ni];
  char np_path[400], fp[700];
  snprintf(np_path, sizeof(np_path), "graph.node[%zu] (\"%.100s\", %.100s)", ni, str_or_empty(np->name),
           np->op_type && np->op_type[0] ? np->op_type : "no op_type");
  g->n_nodes = ni + 1; /* from here on acl__graph_free releases this node */
  n->name = dup_str(np->name);
  n->domain = dup_str(is_default_domain(np->domain) ? "" : np->domain);
  n->op_type = dup_str(np->op_type);
  if (n->name == NULL || n->domain == NULL || n->op_type == NULL)
    return oom(c, np_path);
  if (n->op_type[0] == '\0') {
    snprintf(fp, sizeof(fp), "%.700s.op_type", np_path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the node has no op_type");
  }
  if (acl__graph_opset_version(g, n->domain) < 0) {
    snprintf(fp, sizeof(fp), "%.700s.domain", np_path);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the node's domain \"%.100s\" is not in the model's opset_import",
                n->domain[0] ? n->domain : "ai.onnx");
  }
  for (size_t i = 0; i < m->n_functions; i++) {
    const Onnx__FunctionProto *fn = m->functions[i];
    if (strcmp(str_or_empty(fn->name), n->op_type) == 0 &&
        strcmp(is_default_domain(fn->domain) ? "" : fn->domain, n->domain) == 0)
      return fail(c, ACL_ERROR_PARSE_MODEL, np_path, "the node calls model-local function %.100s, which is not "
                  "supported yet", n->op_type);
  }
  n->inputs = malloc((np->n_input ? np->n_input : 1) * sizeof(int));
  n->outputs = malloc((np->n_output ? np->n_output : 1) * sizeof(int));
  n->attrs = calloc(np->n_attribute ? np->n_attribute : 1, sizeof(*n->attrs));
  if (n->inputs == NULL || n->outputs == NULL || n->attrs == NULL)
    return oom(c, np_path);
  for (size_t i = 0; i < np->n_input; i++) {
    const char *name = str_or_empty(np->input[i]);
    n->n_inputs = i + 1;
    n->inputs[i] = -1;
    if (name[0] == '\0')
      continue; /* an omitted optional input */
    int idx = acl__graph_find(g, name);
    if (idx >= 0) {
      n->inputs[i] = idx;
      continue;
    }
    snprintf(fp, sizeof(fp), "%.700s.input[%zu]", np_path, i);
    for (size_t later = ni; later < gp->n_node; later++)
      for (size_t o = 0; o < gp->node[later]->n_output; o++)
        if (strcmp(str_or_empty(gp->node[later]->output[o]), name) == 0)
          return fail(c, ACL_ERROR_PARSE_MODEL, fp, "uses tensor \"%.200s\", which %s (graph.node[%zu]) "
                      "produces: ONNX nodes must be in topological order (a cycle or a forward reference)",
                      name, later == ni ? "this node itself" : "a later node", later);
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "uses tensor \"%.200s\", which is not a graph input, an "
                "initializer or the output of an earlier node", name);
  }
  for (size_t i = 0; i < np->n_output; i++) {
    const char *name = str_or_empty(np->output[i]);
    n->n_outputs = i + 1;
    n->outputs[i] = -1;
    if (name[0] == '\0')
      continue; /* an omitted optional output */
    int idx = acl__graph_find(g, name);
    if (idx >= 0) {
      const acl__graph_tensor *prev = &g->tensors[idx];
      snprintf(fp, sizeof(fp), "%.700s.output[%zu]", np_path, i);
      if (prev->kind == ACL__TENSOR_NODE_OUTPUT)
        return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" is already produced by graph.node[%d]: "
                    "each tensor must have one producer", name, prev->producer);
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "tensor \"%.200s\" is already a graph %s: each tensor must "
                  "have one producer", name, prev->kind == ACL__TENSOR_INPUT ? "input" : "initializer");
    }
    acl__graph_tensor *t = add_tensor(c, name);
    if (t == NULL)
      return oom(c, np_path);
    t->kind = ACL__TENSOR_NODE_OUTPUT;
    t->producer = (int)ni;
    n->outputs[i] = (int)(g->n_tensors - 1);
  }
  for (size_t i = 0; i < np->n_attribute; i++) {
    snprintf(fp, sizeof(fp), "%.700s.attribute[%zu]", np_path, i);
    n->n_attrs = i + 1;
    int rc = convert_attr(c, np->attribute[i], &n->attrs[i], fp);
    if (rc != 0)
      return rc;
    for (size_t j = 0; j < i; j++)
      if (strcmp(n->attrs[j].name, n->attrs[i].name) == 0)
        return fail(c, ACL_ERROR_PARSE_MODEL, fp, "attribute \"%.100s\" appears twice (also attribute[%zu])",
                    n->attrs[i].name, j);
  }
  return 0;
}

/* ---- the model ----------------------------------------------------------- */

static int convert_initializer(ctx *c, const Onnx__TensorProto *tp, size_t i) {
  char fp[1024];
  snprintf(fp, sizeof(fp), "graph.initializer[%zu]", i);
  if (tp->name == NULL || tp->name[0] == '\0')
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the initializer has no name");
  snprintf(fp, sizeof(fp), "graph.initializer[%zu] (\"%.200s\")", i, tp->name);
  if (acl__graph_find(c->g, tp->name) >= 0)
    return fail(c, ACL_ERROR_PARSE_MODEL, fp, "initializer \"%.200s\" appears twice", tp->name);
  acl__graph_tensor *t = add_tensor(c, tp->name);
  if (t == NULL)
    return oom(c, fp);
  return convert_tensor(c, tp, t, fp);
}

static int convert_model(ctx *c, const Onnx__ModelProto *m) {
  acl__graph *g = c->g;
  char fp[1024];
  int rc;
  if (!m->has_ir_version)
    return fail(c, ACL_ERROR_PARSE_MODEL, "ir_version", "the model has no ir_version (not an ONNX model?)");
  g->ir_version = m->ir_version;
  if (m->ir_version < ACL__ONNX_IR_MIN || m->ir_version > ACL__ONNX_IR_MAX)
    return fail(c, ACL_ERROR_PARSE_MODEL, "ir_version", "IR version %lld is not supported; openacl reads IR "
                "versions %d to %d", (long long)m->ir_version, ACL__ONNX_IR_MIN, ACL__ONNX_IR_MAX);
  g->producer_name = dup_str(m->producer_name);
  if (g->producer_name == NULL)
    return oom(c, "");

  g->opsets = calloc(m->n_opset_import ? m->n_opset_import : 1, sizeof(*g->opsets));
  if (g->opsets == NULL)
    return oom(c, "opset_import");
  for (size_t i = 0; i < m->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *op = m->opset_import[i];
    snprintf(fp, sizeof(fp), "opset_import[%zu]", i);
    const char *dom = is_default_domain(op->domain) ? "" : op->domain;
    if (!op->has_version || op->version < 1)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "domain \"%.100s\" has no valid version",
                  dom[0] ? dom : "ai.onnx");
    if (acl__graph_opset_version(g, dom) >= 0)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "domain \"%.100s\" is imported twice", dom[0] ? dom : "ai.onnx");
    if (dom[0] == '\0' && (op->version < ACL__ONNX_OPSET_MIN || op->version > ACL__ONNX_OPSET_MAX))
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "opset %lld of domain ai.onnx is not supported; openacl supports "
                  "opsets %d to %d", (long long)op->version, ACL__ONNX_OPSET_MIN, ACL__ONNX_OPSET_MAX);
    g->opsets[i].domain = strdup(dom);
    if (g->opsets[i].domain == NULL)
      return oom(c, fp);
    g->opsets[i].version = op->version;
    g->n_opsets = i + 1;
  }

  const Onnx__GraphProto *gp = m->graph;
  if (gp == NULL)
    return fail(c, ACL_ERROR_PARSE_MODEL, "graph", "the model has no graph");
  g->graph_name = dup_str(gp->name);
  if (g->graph_name == NULL)
    return oom(c, "graph");
  if (gp->n_sparse_initializer > 0)
    return fail(c, ACL_ERROR_PARSE_MODEL, "graph.sparse_initializer[0]", "sparse initializers are not "
                "supported yet");

  /* Every tensor comes from an initializer, an input or a node output, so
   * their sum bounds the table (each count is bounded by the decode budget). */
  size_t n_init = c->inits != NULL ? c->inits->n : gp->n_initializer;
  size_t max_tensors = n_init + gp->n_input;
  for (size_t i = 0; i < gp->n_node; i++)
    max_tensors += gp->node[i]->n_output;
  if (max_tensors > (size_t)INT32_MAX / 4)
    return fail(c, ACL_ERROR_PARSE_MODEL, "graph", "the graph has too many tensors (%zu)", max_tensors);
  g->tensors = calloc(max_tensors ? max_tensors : 1, sizeof(*g->tensors));
  g->inputs = malloc((gp->n_input ? gp->n_input : 1) * sizeof(int));
  g->outputs = malloc((gp->n_output ? gp->n_output : 1) * sizeof(int));
  g->nodes = calloc(gp->n_node ? gp->n_node : 1, sizeof(*g->nodes));
  if (g->tensors == NULL || g->inputs == NULL || g->outputs == NULL || g->nodes == NULL ||
      acl__graph_names_init(g, max_tensors) != 0)
    return oom(c, "graph");

  for (size_t i = 0; i < n_init; i++) {
    if (c->inits == NULL) {
      rc = convert_initializer(c, gp->initializer[i], i);
    } else {
      Onnx__TensorProto *tp = onnx__tensor_proto__unpack(c->alloc, c->inits->len[i], c->inits->base + c->inits->off[i]);
      snprintf(fp, sizeof(fp), "graph.initializer[%zu]", i);
      rc = tp == NULL ? fail(c, ACL_ERROR_PARSE_MODEL, fp, "the initializer is not a valid TensorProto (protobuf "
                             "decoding failed)")
                      : convert_initializer(c, tp, i);
      if (tp != NULL)
        onnx__tensor_proto__free_unpacked(tp, c->alloc);
      release_span(c->inits, i);
    }
    if (rc != 0)
      return rc;
  }

  for (size_t i = 0; i < gp->n_input; i++) {
    const Onnx__ValueInfoProto *vi = gp->input[i];
    snprintf(fp, sizeof(fp), "graph.input[%zu]", i);
    if (vi->name == NULL || vi->name[0] == '\0')
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the graph input has no name");
    snprintf(fp, sizeof(fp), "graph.input[%zu] (\"%.200s\")", i, vi->name);
    int idx = acl__graph_find(g, vi->name);
    if (idx >= 0 && g->tensors[idx].kind == ACL__TENSOR_INPUT)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "graph input \"%.200s\" appears twice", vi->name);
    if (idx >= 0) {
      /* an initializer listed as an input too (required before IR 4): it
       * is a constant, not something the caller feeds; types must agree */
      if ((rc = apply_value_info(c, vi, &g->tensors[idx], fp, 0)) != 0)
        return rc;
      continue;
    }
    acl__graph_tensor *t = add_tensor(c, vi->name);
    if (t == NULL)
      return oom(c, fp);
    t->kind = ACL__TENSOR_INPUT;
    g->inputs[g->n_inputs++] = (int)(g->n_tensors - 1);
    if ((rc = apply_value_info(c, vi, t, fp, 1)) != 0)
      return rc;
  }

  for (size_t i = 0; i < gp->n_node; i++)
    if ((rc = convert_node(c, gp, i, m)) != 0)
      return rc;

  for (size_t i = 0; i < gp->n_output; i++) {
    const Onnx__ValueInfoProto *vi = gp->output[i];
    snprintf(fp, sizeof(fp), "graph.output[%zu]", i);
    if (vi->name == NULL || vi->name[0] == '\0')
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "the graph output has no name");
    snprintf(fp, sizeof(fp), "graph.output[%zu] (\"%.200s\")", i, vi->name);
    int idx = acl__graph_find(g, vi->name);
    if (idx < 0)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "graph output \"%.200s\" is not produced by any node, input "
                  "or initializer", vi->name);
    if (g->tensors[idx].is_graph_output)
      return fail(c, ACL_ERROR_PARSE_MODEL, fp, "graph output \"%.200s\" appears twice", vi->name);
    g->tensors[idx].is_graph_output = 1;
    g->outputs[g->n_outputs++] = idx;
    if ((rc = apply_value_info(c, vi, &g->tensors[idx], fp, 1)) != 0)
      return rc;
  }

  for (size_t i = 0; i < gp->n_value_info; i++) {
    const Onnx__ValueInfoProto *vi = gp->value_info[i];
    int idx = vi->name != NULL ? acl__graph_find(g, vi->name) : -1;
    if (idx < 0)
      continue; /* hints about tensors the graph does not have are harmless */
    snprintf(fp, sizeof(fp), "graph.value_info[%zu] (\"%.200s\")", i, vi->name);
    if ((rc = apply_value_info(c, vi, &g->tensors[idx], fp, 0)) != 0)
      return rc;
  }
  return 0;
}

static void limits_resolve(const acl__onnx_limits *in, acl__onnx_limits *out) {
  memset(out, 0, sizeof(*out));
  if (in != NULL)
    *out = *in;
  if (out->max_model_size == 0)
    out->max_model_size = MAX_MODEL_DEFAULT;
  if (out->max_external_bytes == 0)
    out->max_external_bytes = MAX_EXTERNAL_DEFAULT;
}

/* acl__onnx_load_mem; `owned`: data is our own anonymous mapping of `size`
 * bytes (a file read by acl__onnx_load_file), unmapped as soon as what was
 * decoded from it is converted, and its initializers streamed (spans). */
static int load_mem(const void *data, size_t size, int owned, const char *base_dir,
                    const acl__onnx_limits *limits, acl__graph **out, acl__diags *diags) {
  budget b = {0};
  ProtobufCAllocator alloc = {.alloc = budget_alloc, .free = budget_free, .allocator_data = &b};
  ctx c = {.diags = diags, .base_dir = base_dir, .alloc = &alloc};
  acl__onnx_limits lim;
  limits_resolve(limits, &lim);
  Onnx__ModelProto *m = NULL;
  spans sp = {0};
  int rc = 0;
  if (out != NULL)
    *out = NULL;
  if (out == NULL || (data == NULL && size > 0)) {
    rc = fail(&c, ACL_ERROR_PARSE_MODEL, "", "no model data or no place for the result");
    goto out;
  }
  if (size == 0) {
    rc = fail(&c, ACL_ERROR_MODEL_SIZE_INVALID, "", "the model is empty (0 bytes)");
    goto out;
  }
  if (size > lim.max_model_size) {
    rc = fail(&c, ACL_ERROR_MODEL_SIZE_INVALID, "", "the model is %zu bytes; the limit is %zu", size,
              lim.max_model_size);
    goto out;
  }
  c.ext_max = lim.max_external_bytes;
  size_t where = 0;
  const char *why = NULL;
  if (wire_scan(data, size, 0, &onnx__model_proto__descriptor, 0, &where, &why) != 0) {
    rc = fail(&c, ACL_ERROR_PARSE_MODEL, "", "not a valid ONNX protobuf at byte %zu of %zu: %s", where, size, why);
    goto out;
  }
  b.limit = lim.max_decode_memory;
  if (b.limit == 0)
    b.limit = size > (SIZE_MAX - ((size_t)256 << 20)) / 64 ? SIZE_MAX : ((size_t)256 << 20) + 64 * size;
  uint8_t *rest = NULL;
  size_t rest_size = 0;
  int split = owned ? split_initializers(data, size, &rest, &rest_size, &sp) : 0;
  if (split < 0) {
    rc = oom(&c, "");
    goto out;
  }
  m = onnx__model_proto__unpack(&alloc, split ? rest_size : size, split ? rest : data);
  free(rest); /* protobuf-c copies what it decodes */
  if (split)
    c.inits = &sp;
  if (m == NULL) {
    if (b.exceeded)
      rc = fail(&c, ACL_ERROR_PARSE_MODEL, "", "decoding the model needs more than %zu bytes of memory, the "
                "limit for a %zu-byte file (a hostile or corrupt file?)", b.limit, size);
    else
      rc = fail(&c, ACL_ERROR_PARSE_MODEL, "", "the file is not a valid ONNX model (protobuf decoding failed: "
                "a required field is missing, a field has the wrong type, or the file is truncated)");
    goto out;
  }
  if (owned && !split) {
    munmap((void *)data, size);
    owned = 0;
  }
  c.g = calloc(1, sizeof(*c.g));
  if (c.g == NULL) {
    rc = oom(&c, "");
    goto out;
  }
  rc = convert_model(&c, m);
out:
  if (m != NULL)
    onnx__model_proto__free_unpacked(m, &alloc);
  if (owned)
    munmap((void *)data, size);
  free(sp.off);
  free(sp.len);
  free(c.base_real);
  if (rc != 0) {
    acl__graph_free(c.g);
  } else {
    *out = c.g;
  }
  return rc;
}

int acl__onnx_load_mem(const void *data, size_t size, const char *base_dir,
                       const acl__onnx_limits *limits, acl__graph **out, acl__diags *diags) {
  return load_mem(data, size, 0, base_dir, limits, out, diags);
}

int acl__onnx_load_file(const char *path, const acl__onnx_limits *limits, acl__graph **out,
                        acl__diags *diags) {
  ctx c = {.diags = diags};
  acl__onnx_limits lim;
  limits_resolve(limits, &lim);
  int fd = -1, rc = 0;
  unsigned char *buf = NULL;
  size_t size = 0;
  char *dir = NULL;
  if (out != NULL)
    *out = NULL;
  if (path == NULL || path[0] == '\0') {
    rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "no model path given");
    goto out;
  }
  /* O_NONBLOCK: opening a FIFO must not hang; only regular files are read */
  fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "cannot open model file \"%.400s\": %s", path,
              strerror(errno));
    goto out;
  }
  if (!S_ISREG(st.st_mode)) {
    rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "model file \"%.400s\" is not a regular file", path);
    goto out;
  }
  if (st.st_size == 0) {
    rc = fail(&c, ACL_ERROR_MODEL_SIZE_INVALID, "", "model file \"%.400s\" is empty", path);
    goto out;
  }
  if ((uint64_t)st.st_size > lim.max_model_size) {
    rc = fail(&c, ACL_ERROR_MODEL_SIZE_INVALID, "", "model file \"%.400s\" is %lld bytes; the limit is %zu",
              path, (long long)st.st_size, lim.max_model_size);
    goto out;
  }
  size_t done = 0;
  size = (size_t)st.st_size;
  /* an anonymous mapping of our own, whose pages the loader gives back as it goes */
  buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED) {
    buf = NULL;
    rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "no host memory to read the %zu-byte model file", size);
    goto out;
  }
  while (done < size) {
    ssize_t r = read(fd, buf + done, size - done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "reading model file \"%.400s\" failed: %s", path,
                r < 0 ? strerror(errno) : "the file shrank while being read");
      goto out;
    }
    done += (size_t)r;
  }
  close(fd);
  fd = -1;
  const char *slash = strrchr(path, '/');
  dir = slash == NULL ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
  if (dir == NULL) {
    rc = fail(&c, ACL_ERROR_READ_MODEL_FAILURE, "", "out of host memory");
    goto out;
  }
  rc = load_mem(buf, size, 1, dir, &lim, out, diags); /* unmaps buf */
  buf = NULL;
out:
  if (fd >= 0)
    close(fd);
  if (buf != NULL)
    munmap(buf, size);
  free(dir);
  return rc;
}
