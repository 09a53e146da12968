/*
 * dump_file.c - writing one dump record (dump.h): the vendor's dump file
 * (u64 little-endian header length, DumpData header, then the raw bytes of
 * every input and every output in order), or in stats mode the CSV of
 * prof-dump §5.4; a .npy beside each tensor so that numpy reads a dump with
 * no vendor tool; and the acldumpRegCallback sink, which receives the dump
 * file in chunks instead of the disk.
 *
 * Lock: none held while writing; the callback pointer is one atomic word.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "dump/dump.h"
#include "model/graph.h"

/* Largest payload of one callback chunk (docs/dump.md). */
#define CHUNK_MAX ((size_t)1 << 20)

static acl__dump_cb cb_fn; /* atomic */

int acl__dump_cb_register(acl__dump_cb cb) {
  __atomic_store_n(&cb_fn, cb, __ATOMIC_RELEASE);
  return 0;
}

void acl__dump_cb_unregister(void) { __atomic_store_n(&cb_fn, NULL, __ATOMIC_RELEASE); }

/* ---- small helpers ---------------------------------------------------- */

uint64_t acl__dump_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void acl__dump_stamp_s(char *buf, size_t n) {
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(buf, n, "%Y%m%d%H%M%S", &tm);
}

void acl__dump_stamp_ms(char *buf, size_t n) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  localtime_r(&ts.tv_sec, &tm);
  char s[32];
  strftime(s, sizeof(s), "%Y%m%d%H%M%S", &tm);
  snprintf(buf, n, "%s%03ld", s, ts.tv_nsec / 1000000L);
}

void acl__dump_sanitize(char *dst, size_t n, const char *src) {
  size_t i = 0;
  for (; src != NULL && src[i] != '\0' && i + 1 < n; i++) {
    char c = src[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    dst[i] = ok ? c : '_';
  }
  if (n > 0)
    dst[i] = '\0';
}

int acl__dump_mkdirs(const char *path) {
  char tmp[4096];
  size_t len = strlen(path);
  if (len == 0 || len >= sizeof(tmp)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(tmp, path, len + 1);
  for (char *p = tmp + 1; *p != '\0'; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(tmp, 0750) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  if (mkdir(tmp, 0750) != 0 && errno != EEXIST)
    return -1;
  struct stat st;
  if (stat(tmp, &st) != 0 || !S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

/* ---- stats -------------------------------------------------------------- */

static float half_to_float(uint16_t h) {
  uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, f;
  if (e == 0) {
    if (m == 0) {
      f = s;
    } else { /* subnormal */
      e = 127 - 15 + 1;
      while (!(m & 0x400)) {
        m <<= 1;
        e--;
      }
      f = s | (e << 23) | ((m & 0x3ff) << 13);
    }
  } else if (e == 31) {
    f = s | 0x7f800000u | (m << 13);
  } else {
    f = s | ((e + 127 - 15) << 23) | (m << 13);
  }
  float r;
  memcpy(&r, &f, sizeof(r));
  return r;
}

static int is_float_type(int t) {
  return t == ACL__ONNX_FLOAT || t == ACL__ONNX_FLOAT16 || t == ACL__ONNX_DOUBLE || t == ACL__ONNX_BFLOAT16;
}

/* Element i of a numeric tensor as a double. */
static double elem(int t, const void *data, size_t i) {
  const unsigned char *p = data;
  switch (t) {
  case ACL__ONNX_FLOAT: {
    float v;
    memcpy(&v, p + i * 4, 4);
    return v;
  }
  case ACL__ONNX_DOUBLE: {
    double v;
    memcpy(&v, p + i * 8, 8);
    return v;
  }
  case ACL__ONNX_FLOAT16: {
    uint16_t v;
    memcpy(&v, p + i * 2, 2);
    return half_to_float(v);
  }
  case ACL__ONNX_BFLOAT16: {
    uint16_t v;
    memcpy(&v, p + i * 2, 2);
    uint32_t w = (uint32_t)v << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
  }
  case ACL__ONNX_INT8:
    return ((const int8_t *)data)[i];
  case ACL__ONNX_UINT8:
  case ACL__ONNX_BOOL:
    return p[i];
  case ACL__ONNX_INT16: {
    int16_t v;
    memcpy(&v, p + i * 2, 2);
    return v;
  }
  case ACL__ONNX_UINT16: {
    uint16_t v;
    memcpy(&v, p + i * 2, 2);
    return v;
  }
  case ACL__ONNX_INT32: {
    int32_t v;
    memcpy(&v, p + i * 4, 4);
    return v;
  }
  case ACL__ONNX_UINT32: {
    uint32_t v;
    memcpy(&v, p + i * 4, 4);
    return v;
  }
  case ACL__ONNX_INT64: {
    int64_t v;
    memcpy(&v, p + i * 8, 8);
    return (double)v;
  }
  case ACL__ONNX_UINT64: {
    uint64_t v;
    memcpy(&v, p + i * 8, 8);
    return (double)v;
  }
  default:
    return 0;
  }
}

static void fmt_shape_x(char *buf, size_t n, int rank, const int64_t *dims) {
  size_t len = 0;
  buf[0] = '\0';
  if (rank == 0) {
    snprintf(buf, n, "-");
    return;
  }
  for (int i = 0; i < rank && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, i ? "x" : "", dims[i]);
}

static void fmt_val(char *buf, size_t n, int t, double v) {
  if (is_float_type(t))
    snprintf(buf, n, "%g", v);
  else if (t == ACL__ONNX_INT64)
    snprintf(buf, n, "%" PRId64, (int64_t)v);
  else
    snprintf(buf, n, "%" PRId32, (int32_t)v);
}

/* dump_stats bits (acl__cfg_dump_stats_names order) */
enum { ST_MAX = 1, ST_MIN = 2, ST_AVG = 4, ST_NAN = 8, ST_NINF = 16, ST_PINF = 32, ST_L2 = 64, ST_SIX = 63 };

/* One CSV row per tensor.  The default six statistics (dump_stats absent,
 * or exactly those six) in the vendor's "compatible" column order, with
 * Count among them; any other selection: Count after Shape, then the
 * selected columns in a fixed order. */
static char *stats_csv(const acl__dump_record *r, size_t *len) {
  acl__dump_buf b = {0};
  unsigned cols = r->stats_cols == 0 ? ST_SIX : r->stats_cols;
  int compat = cols == ST_SIX;
  char head[256];
  if (compat) {
    snprintf(head, sizeof(head), "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,"
                                 "Count,Nan Count,Negative Inf Count,Positive Inf Count\n");
  } else {
    static const char *const names[] = {"Max Value", "Min Value", "Avg Value", "Nan Count", "Negative Inf Count",
                                        "Positive Inf Count", "l2norm"};
    size_t hl = (size_t)snprintf(head, sizeof(head), "Input/Output,Index,Data Size,Data Type,Format,Shape,Count");
    for (int i = 0; i < 7; i++)
      if (cols & (1u << i))
        hl += (size_t)snprintf(head + hl, sizeof(head) - hl, ",%s", names[i]);
    snprintf(head + hl, sizeof(head) - hl, "\n");
  }
  size_t nin = 0, nout = 0, hlen = strlen(head);
  char *text = malloc(hlen + 1);
  if (text == NULL)
    return NULL;
  memcpy(text, head, hlen + 1);
  b.p = (unsigned char *)text;
  b.len = hlen;
  b.cap = hlen + 1;
  for (size_t k = 0; k < r->n; k++) {
    const acl__dump_tensor *t = &r->t[k];
    size_t esz = acl__graph_onnx_elem_size(t->onnx_type);
    size_t count = esz ? t->size / esz : 0;
    double mx = -INFINITY, mn = INFINITY, sum = 0, sq = 0;
    size_t fin = 0, nan = 0, ninf = 0, pinf = 0;
    for (size_t i = 0; i < count; i++) {
      double v = elem(t->onnx_type, t->data, i);
      if (isnan(v)) {
        nan++;
      } else if (isinf(v)) {
        if (v < 0)
          ninf++;
        else
          pinf++;
      } else {
        fin++;
        sum += v;
        sq += v * v;
        if (v > mx)
          mx = v;
        if (v < mn)
          mn = v;
      }
    }
    char shape[256], smax[64] = "NA", smin[64] = "NA", savg[64] = "NA", line[768];
    fmt_shape_x(shape, sizeof(shape), t->rank, t->dims);
    if (fin > 0) {
      fmt_val(smax, sizeof(smax), t->onnx_type, mx);
      fmt_val(smin, sizeof(smin), t->onnx_type, mn);
      fmt_val(savg, sizeof(savg), t->onnx_type, sum / (double)fin);
    }
    int n;
    if (compat) {
      n = snprintf(line, sizeof(line), "%s,%zu,%zu,%s,ND,%s,%s,%s,%s,%zu,%zu,%zu,%zu\n",
                   t->is_input ? "Input" : "Output", t->is_input ? nin++ : nout++, t->size,
                   acl__dump_dtype_name(t->onnx_type), shape, smax, smin, savg, count, nan, ninf, pinf);
    } else {
      char sl2[64] = "NA";
      if (fin > 0 && is_float_type(t->onnx_type))
        snprintf(sl2, sizeof(sl2), "%g", sqrt(sq));
      n = snprintf(line, sizeof(line), "%s,%zu,%zu,%s,ND,%s,%zu", t->is_input ? "Input" : "Output",
                   t->is_input ? nin++ : nout++, t->size, acl__dump_dtype_name(t->onnx_type), shape, count);
      char cell[64];
      const char *cells[7] = {smax, smin, savg, NULL, NULL, NULL, sl2};
      size_t counts[7] = {0, 0, 0, nan, ninf, pinf, 0};
      for (int i = 0; i < 7 && n > 0 && (size_t)n < sizeof(line); i++) {
        if (!(cols & (1u << i)))
          continue;
        if (cells[i] == NULL)
          snprintf(cell, sizeof(cell), "%zu", counts[i]);
        n += snprintf(line + n, sizeof(line) - (size_t)n, ",%s", cells[i] != NULL ? cells[i] : cell);
      }
      if (n > 0 && (size_t)n + 1 < sizeof(line))
        n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
    }
    if (n > 0) {
      /* append through the proto buffer's growth */
      size_t want = b.len + (size_t)n + 1;
      if (want > b.cap) {
        unsigned char *q = realloc(b.p, want * 2);
        if (q == NULL) {
          free(b.p);
          return NULL;
        }
        b.p = q;
        b.cap = want * 2;
      }
      memcpy(b.p + b.len, line, (size_t)n);
      b.len += (size_t)n;
    }
  }
  b.p[b.len] = '\0';
  *len = b.len;
  return (char *)b.p;
}

/* ---- .npy --------------------------------------------------------------- */

static const char *npy_descr(int t) {
  switch (t) {
  case ACL__ONNX_FLOAT:
    return "<f4";
  case ACL__ONNX_DOUBLE:
    return "<f8";
  case ACL__ONNX_FLOAT16:
    return "<f2";
  case ACL__ONNX_BFLOAT16:
    return "<u2"; /* numpy has no bfloat16: the raw bits (docs/dump.md) */
  case ACL__ONNX_INT8:
    return "|i1";
  case ACL__ONNX_UINT8:
    return "|u1";
  case ACL__ONNX_BOOL:
    return "|b1";
  case ACL__ONNX_INT16:
    return "<i2";
  case ACL__ONNX_UINT16:
    return "<u2";
  case ACL__ONNX_INT32:
    return "<i4";
  case ACL__ONNX_UINT32:
    return "<u4";
  case ACL__ONNX_INT64:
    return "<i8";
  case ACL__ONNX_UINT64:
    return "<u8";
  case ACL__ONNX_COMPLEX64:
    return "<c8";
  case ACL__ONNX_COMPLEX128:
    return "<c16";
  case 0:
    return "|u1"; /* raw bytes */
  default:
    return NULL;
  }
}

static int write_all(int fd, const void *p, size_t n) {
  const unsigned char *c = p;
  while (n > 0) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    c += w;
    n -= (size_t)w;
  }
  return 0;
}

static int write_npy(const char *path, const acl__dump_tensor *t) {
  const char *descr = npy_descr(t->onnx_type);
  if (descr == NULL)
    return 0; /* not a numeric tensor: no .npy */
  char shape[512];
  size_t len = 0;
  shape[0] = '\0';
  for (int i = 0; i < t->rank && len < sizeof(shape); i++)
    len += (size_t)snprintf(shape + len, sizeof(shape) - len, "%" PRId64 ",%s", t->dims[i], i + 1 < t->rank ? " " : "");
  if (t->rank > 1 && len > 0 && len < sizeof(shape))
    shape[len - 1] = '\0'; /* "(2, 3)" rather than "(2, 3,)" */
  char head[768];
  int h = snprintf(head, sizeof(head), "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
  if (h < 0 || (size_t)h + 80 > sizeof(head))
    return -1;
  size_t total = 10 + (size_t)h + 1;
  size_t pad = (64 - total % 64) % 64;
  memset(head + h, ' ', pad);
  head[(size_t)h + pad] = '\n';
  size_t hlen = (size_t)h + pad + 1;
  unsigned char pre[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0)
    return -1;
  int rc = write_all(fd, pre, sizeof(pre)) || write_all(fd, head, hlen) || write_all(fd, t->data, t->size);
  if (close(fd) != 0)
    rc = -1;
  return rc ? -1 : 0;
}

/* ---- the sink ------------------------------------------------------------ */

/* Hands `n` bytes of file `path` to the callback in chunks; 0 or -1. */
static int to_callback(acl__dump_cb cb, const char *path, const void *const *parts, const size_t *sizes,
                       size_t n_parts) {
  acldumpChunk *c = malloc(sizeof(*c) + CHUNK_MAX);
  if (c == NULL)
    return -1;
  size_t total = 0;
  for (size_t i = 0; i < n_parts; i++)
    total += sizes[i];
  memset(c, 0, sizeof(*c));
  snprintf(c->fileName, sizeof(c->fileName), "%s", path);
  size_t sent = 0, part = 0, in_part = 0;
  int rc = 0;
  do {
    size_t fill = 0;
    while (fill < CHUNK_MAX && part < n_parts) {
      size_t take = sizes[part] - in_part;
      if (take > CHUNK_MAX - fill)
        take = CHUNK_MAX - fill;
      if (take > 0)
        memcpy(c->dataBuf + fill, (const unsigned char *)parts[part] + in_part, take);
      fill += take;
      in_part += take;
      if (in_part == sizes[part]) {
        part++;
        in_part = 0;
      }
    }
    c->bufLen = (uint32_t)fill;
    c->offset = (int64_t)sent;
    c->flag = 0;
    sent += fill;
    c->isLastChunk = sent == total ? 1u : 0u;
    int32_t r = cb(c, (int32_t)(sizeof(*c) + fill));
    if (r != 0) {
      ACL__LOGE(ACL__MOD_ASCENDCL,
                "dump: the acldumpRegCallback callback returned %d for '%s'; the rest of the file "
                "is not delivered",
                (int)r, path);
      rc = -1;
      break;
    }
  } while (sent < total);
  free(c);
  return rc;
}

static int to_disk(const char *path, const void *const *parts, const size_t *sizes, size_t n_parts, int mode) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0)
    return -1;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n_parts; i++)
    rc = write_all(fd, parts[i], sizes[i]);
  if (close(fd) != 0)
    rc = -1;
  return rc;
}

int acl__dump_write(const acl__dump_record *r) {
  int rc = -1;
  char *path = NULL, *csv = NULL;
  const void **parts = NULL;
  size_t *sizes = NULL;
  acl__dump_buf hdr = {0};
  acl__dump_cb cb = __atomic_load_n(&cb_fn, __ATOMIC_ACQUIRE);
  if (asprintf(&path, "%s/%s%s", r->dir, r->name, r->stats ? ".csv" : "") < 0) {
    path = NULL;
    goto oom;
  }
  if (cb == NULL && acl__dump_mkdirs(r->dir) != 0) {
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: cannot create directory '%s': %s; '%s' is not written", r->dir, strerror(errno),
              r->name);
    goto done;
  }
  if (r->stats) {
    size_t len = 0;
    if ((csv = stats_csv(r, &len)) == NULL)
      goto oom;
    const void *p[1] = {csv};
    size_t s[1] = {len + (cb != NULL)}; /* the callback gets the text with its NUL */
    rc = cb != NULL ? to_callback(cb, path, p, s, 1) : to_disk(path, p, s, 1, 0640);
  } else {
    if (acl__dump_proto_header(r, acl__dump_now_us(), &hdr) != 0)
      goto oom;
    parts = calloc(r->n + 2, sizeof(*parts));
    sizes = calloc(r->n + 2, sizeof(*sizes));
    if (parts == NULL || sizes == NULL)
      goto oom;
    unsigned char len8[8];
    for (int i = 0; i < 8; i++)
      len8[i] = (unsigned char)((uint64_t)hdr.len >> (8 * i));
    size_t k = 0;
    parts[k] = len8;
    sizes[k++] = 8;
    parts[k] = hdr.p;
    sizes[k++] = hdr.len;
    for (int pass = 1; pass >= 0; pass--) /* inputs' bytes first, then outputs' */
      for (size_t i = 0; i < r->n; i++)
        if (r->t[i].is_input == pass) {
          parts[k] = r->t[i].data;
          sizes[k++] = r->t[i].size;
        }
    rc = cb != NULL ? to_callback(cb, path, parts, sizes, k)
                    : to_disk(path, parts, sizes, k, r->read_only ? 0400 : 0640);
    if (rc == 0 && cb == NULL && r->npy) {
      size_t nin = 0, nout = 0;
      for (size_t i = 0; rc == 0 && i < r->n; i++) {
        const acl__dump_tensor *t = &r->t[i];
        char shape[256], *np = NULL;
        fmt_shape_x(shape, sizeof(shape), t->rank, t->dims);
        if (t->rank == 0)
          snprintf(shape, sizeof(shape), "scalar");
        if (asprintf(&np, "%s.%s.%zu.%s.npy", path, t->is_input ? "input" : "output", t->is_input ? nin++ : nout++,
                     shape) < 0)
          goto oom;
        rc = write_npy(np, t);
        free(np);
      }
    }
  }
  if (rc != 0 && cb == NULL)
    ACL__LOGE(ACL__MOD_ASCENDCL, "dump: cannot write '%s': %s", path, strerror(errno));
  goto done;
oom:
  ACL__LOGE(ACL__MOD_ASCENDCL, "dump: out of host memory; '%s' is not written", r->name);
  rc = -1;
done:
  free(path);
  free(csv);
  free(parts);
  free(sizes);
  acl__dump_buf_free(&hdr);
  return rc;
}
