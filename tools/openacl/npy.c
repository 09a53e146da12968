/*
 * npy.c - reading and writing .npy headers.  Only what a model input or
 * output can be: little-endian (or byte-order-free) numeric and bool
 * arrays in C order.  The header is a Python dict literal; we read the
 * three keys numpy always writes and refuse anything we do not understand
 * rather than guess.
 */
#include "npy.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  aclDataType dt;
  const char *descr;
} descrs[] = {
    {ACL_FLOAT, "<f4"},  {ACL_FLOAT16, "<f2"}, {ACL_DOUBLE, "<f8"},    {ACL_INT8, "|i1"},        {ACL_INT16, "<i2"},
    {ACL_INT32, "<i4"},  {ACL_INT64, "<i8"},   {ACL_UINT8, "|u1"},     {ACL_UINT16, "<u2"},      {ACL_UINT32, "<u4"},
    {ACL_UINT64, "<u8"}, {ACL_BOOL, "|b1"},    {ACL_COMPLEX64, "<c8"}, {ACL_COMPLEX128, "<c16"},
};

const char *npy_descr(aclDataType dt) {
  for (size_t i = 0; i < sizeof(descrs) / sizeof(descrs[0]); i++)
    if (descrs[i].dt == dt)
      return descrs[i].descr;
  return NULL;
}

/* '=' (native, little-endian here) and '|' (no byte order) read as '<'. */
static aclDataType dtype_of(const char *descr) {
  char d[16];
  snprintf(d, sizeof(d), "%s", descr);
  if (d[0] == '=' || (d[0] == '|' && d[1] != 'i' && d[1] != 'u' && d[1] != 'b'))
    d[0] = '<';
  if (d[0] == '<' && (strcmp(d + 1, "i1") == 0 || strcmp(d + 1, "u1") == 0 || strcmp(d + 1, "b1") == 0))
    d[0] = '|';
  for (size_t i = 0; i < sizeof(descrs) / sizeof(descrs[0]); i++)
    if (strcmp(descrs[i].descr, d) == 0)
      return descrs[i].dt;
  return ACL_DT_UNDEFINED;
}

/* The value after 'key': in the dict text, or NULL. */
static const char *find_key(const char *hdr, const char *key) {
  char pat[32];
  snprintf(pat, sizeof(pat), "'%s'", key);
  const char *p = strstr(hdr, pat);
  if (p == NULL)
    return NULL;
  p += strlen(pat);
  while (isspace((unsigned char)*p))
    p++;
  if (*p != ':')
    return NULL;
  p++;
  while (isspace((unsigned char)*p))
    p++;
  return p;
}

int npy_read_header(FILE *f, npy_header *h, char *err, size_t errlen) {
  unsigned char pre[12];
  char *hdr = NULL;
  int ret = -1;
  memset(h, 0, sizeof(*h));
  h->dtype = ACL_DT_UNDEFINED;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    snprintf(err, errlen, "not a .npy file (no \\x93NUMPY magic)");
    goto out;
  }
  size_t hlen, pre_len;
  if (pre[6] == 1) {
    hlen = pre[8] | (size_t)pre[9] << 8;
    pre_len = 10;
  } else if (pre[6] == 2 || pre[6] == 3) {
    if (fread(pre + 10, 1, 2, f) != 2) {
      snprintf(err, errlen, "truncated .npy header");
      goto out;
    }
    hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    pre_len = 12;
  } else {
    snprintf(err, errlen, ".npy format version %u.%u is not supported (1.0 to 3.0 are)", pre[6], pre[7]);
    goto out;
  }
  if (hlen > (1u << 20)) {
    snprintf(err, errlen, ".npy header of %zu bytes is implausibly long", hlen);
    goto out;
  }
  hdr = malloc(hlen + 1);
  if (hdr == NULL || fread(hdr, 1, hlen, f) != hlen) {
    snprintf(err, errlen, "truncated .npy header");
    goto out;
  }
  hdr[hlen] = '\0';
  h->data_offset = pre_len + hlen;
  const char *p = find_key(hdr, "descr");
  if (p == NULL || (*p != '\'' && *p != '"')) {
    snprintf(err, errlen, ".npy header has no 'descr'");
    goto out;
  }
  size_t n = strcspn(p + 1, "'\"");
  snprintf(h->descr, sizeof(h->descr), "%.*s", (int)(n < 15 ? n : 15), p + 1);
  if (h->descr[0] == '>') {
    snprintf(err, errlen, "big-endian .npy data ('%s') is not supported: save it little-endian", h->descr);
    goto out;
  }
  h->dtype = dtype_of(h->descr);
  if (h->dtype == ACL_DT_UNDEFINED) {
    snprintf(err, errlen, ".npy dtype '%s' is not one a model input can have", h->descr);
    goto out;
  }
  p = find_key(hdr, "fortran_order");
  if (p == NULL || strncmp(p, "False", 5) != 0) {
    snprintf(err, errlen, ".npy data in Fortran order is not supported: save it in C order");
    goto out;
  }
  p = find_key(hdr, "shape");
  if (p == NULL || *p != '(') {
    snprintf(err, errlen, ".npy header has no 'shape'");
    goto out;
  }
  p++;
  size_t count = 1;
  for (;;) {
    while (isspace((unsigned char)*p) || *p == ',')
      p++;
    if (*p == ')')
      break;
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (end == p || errno != 0 || v < 0 || h->rank == NPY_MAX_RANK) {
      snprintf(err, errlen, ".npy 'shape' is not a tuple of at most %d sizes", NPY_MAX_RANK);
      goto out;
    }
    h->dims[h->rank++] = v;
    count *= (size_t)v;
    p = end;
  }
  h->data_size = count * aclDataTypeSize(h->dtype);
  ret = 0;
out:
  free(hdr);
  return ret;
}

int npy_write(FILE *f, aclDataType dt, size_t rank, const int64_t *dims, const void *data, size_t size) {
  const char *descr = npy_descr(dt);
  char dict[512];
  int n = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (", descr ? descr : "|u1");
  for (size_t i = 0; i < rank; i++)
    n += snprintf(dict + n, sizeof(dict) - (size_t)n, "%lld%s", (long long)dims[i],
                  rank == 1      ? ","
                  : i + 1 < rank ? ", "
                                 : "");
  n += snprintf(dict + n, sizeof(dict) - (size_t)n, "), }");
  /* pad with spaces so the data starts at a multiple of 64, newline last */
  size_t total = 10 + (size_t)n + 1;
  size_t pad = (64 - total % 64) % 64;
  size_t hlen = (size_t)n + pad + 1;
  unsigned char pre[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
  if (fwrite(pre, 1, 10, f) != 10 || fwrite(dict, 1, (size_t)n, f) != (size_t)n)
    return -1;
  for (size_t i = 0; i < pad; i++)
    if (fputc(' ', f) == EOF)
      return -1;
  if (fputc('\n', f) == EOF || (size > 0 && fwrite(data, 1, size, f) != size))
    return -1;
  return 0;
}
