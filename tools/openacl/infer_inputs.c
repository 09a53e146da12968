/*
 * infer_inputs.c - where each model input's data comes from (files,
 * folders, generated zeros or random values, a recipe), and the checks
 * that run before the model does: the number of inputs, then every file's
 * bytes, shape and type against what the model expects.  Nothing runs on a
 * mismatch, so a long run never stops half-way on a bad file.
 *
 * Shapes: an input's shape starts as the model declares it; --dym-shape,
 * --dym-batch and --dym-hw fill its symbolic (-1) dimensions (then, without
 * --dym-shape, a recipe's input_shape hook those of the input it reads); a .npy file
 * fills those still open with its own shape.  A file that holds one item
 * (the shape without its first dimension, or with 1 there) is batched with
 * the next files of its folder: N files per execution, N the first
 * dimension.  The last batch may be short: with a symbolic first dimension
 * it runs smaller, with a static one it is padded with zeros.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "infer_job.h"
#include "npy.h"

static void fmt_dims(char *buf, size_t len, const int64_t *dims, size_t rank) {
  size_t n = (size_t)snprintf(buf, len, "[");
  for (size_t k = 0; k < rank && n < len; k++)
    n += (size_t)snprintf(buf + n, len - n, "%s%lld", k ? "," : "", (long long)dims[k]);
  if (n < len)
    snprintf(buf + n, len - n, "]");
}

static int has_suffix(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int add_file(infer_input *in, const char *path) {
  char **p = realloc(in->files, (in->n_files + 1) * sizeof(char *));
  if (p == NULL)
    return -1;
  in->files = p;
  in->files[in->n_files] = strdup(path);
  if (in->files[in->n_files] == NULL)
    return -1;
  in->n_files++;
  return 0;
}

/* The files of a folder that the tool (or the recipe) reads, sorted by name
 * so that runs are repeatable. */
static int list_folder(const infer_job *j, infer_input *in, const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    tool_error("input '%s': cannot open folder '%s': %s", in->io->name, dir, strerror(errno));
    return TOOL_FAIL;
  }
  int ret = 0;
  struct dirent *e;
  while (ret == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    struct stat st;
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    int ok = in->src == SRC_RECIPE ? j->o->recipe->accepts == NULL || j->o->recipe->accepts(j->o->recipe_self, path)
                                   : has_suffix(e->d_name, ".bin") || has_suffix(e->d_name, ".npy");
    if (ok && add_file(in, path) != 0) {
      tool_error("out of memory listing folder '%s'", dir);
      ret = TOOL_FAIL;
    }
  }
  closedir(d);
  if (ret == 0 && in->n_files == 0) {
    tool_error("input '%s': folder '%s' holds no %s files", in->io->name, dir,
               in->src == SRC_RECIPE ? "files recipe accepts (see --help)" : ".bin or .npy");
    ret = TOOL_FAIL;
  }
  if (ret == 0)
    qsort(in->files, in->n_files, sizeof(char *), cmp_str);
  return ret;
}

static int find_source(const infer_job *j, infer_input *in, const char *spec, int first) {
  struct stat st;
  if (strcmp(spec, "zeros") == 0) {
    in->src = SRC_ZEROS;
    return 0;
  }
  if (strcmp(spec, "random") == 0) {
    in->src = SRC_RANDOM;
    return 0;
  }
  in->src = first && j->o->recipe != NULL ? SRC_RECIPE : SRC_FILES;
  if (spec[0] == '\0') {
    tool_error("input '%s': --input names no file for it (an empty item in the comma-separated list)", in->io->name);
    return TOOL_FAIL;
  }
  if (stat(spec, &st) != 0) {
    tool_error("input '%s': cannot read '%s': %s", in->io->name, spec, strerror(errno));
    return TOOL_FAIL;
  }
  if (S_ISDIR(st.st_mode))
    return list_folder(j, in, spec);
  if (!S_ISREG(st.st_mode)) {
    tool_error("input '%s': '%s' is not a regular file or a folder", in->io->name, spec);
    return TOOL_FAIL;
  }
  if (in->src == SRC_RECIPE && j->o->recipe->accepts != NULL && !j->o->recipe->accepts(j->o->recipe_self, spec)) {
    tool_error("input '%s': recipe '%s' does not read '%s'", in->io->name, j->o->recipe->name, spec);
    return TOOL_FAIL;
  }
  if (in->src == SRC_FILES && !has_suffix(spec, ".bin") && !has_suffix(spec, ".npy")) {
    tool_error("input '%s': '%s' is neither a .bin nor a .npy file (or give a --recipe that reads it)", in->io->name,
               spec);
    return TOOL_FAIL;
  }
  return add_file(in, spec) == 0 ? 0 : TOOL_FAIL;
}

/* Parses "1,3,224,224" into dims; the count, or -1. */
static int parse_dims(const char *s, size_t len, int64_t *dims, size_t max) {
  size_t n = 0;
  const char *p = s, *end = s + len;
  while (p < end) {
    char *q;
    errno = 0;
    long long v = strtoll(p, &q, 10);
    if (q == p || errno != 0 || v < 1 || n == max || (q < end && *q != ','))
      return -1;
    dims[n++] = v;
    p = q < end ? q + 1 : q;
  }
  return n == 0 ? -1 : (int)n;
}

/* --dym-shape "name:1,3,224,224;name2:..." for input `in`: 0, or an exit code. */
static int apply_dym_shape(const infer_job *j, infer_input *in) {
  const char *p = j->o->dym_shape;
  while (p != NULL && *p != '\0') {
    const char *semi = strchr(p, ';');
    size_t len = semi != NULL ? (size_t)(semi - p) : strlen(p);
    const char *colon = memchr(p, ':', len);
    if (colon == NULL)
      return tool_usage_error("infer", "option --dym-shape: '%.*s' is not name:d1,d2,...", (int)len, p);
    size_t nlen = (size_t)(colon - p);
    if (strlen(in->io->name) == nlen && strncmp(p, in->io->name, nlen) == 0) {
      int64_t d[16];
      int n = parse_dims(colon + 1, len - nlen - 1, d, 16);
      if (n < 0)
        return tool_usage_error("infer", "option --dym-shape: '%.*s' is not name:d1,d2,... with sizes >= 1", (int)len,
                                p);
      char want[256], got[256];
      fmt_dims(want, sizeof(want), in->io->dims, in->io->rank);
      fmt_dims(got, sizeof(got), d, (size_t)n);
      if ((size_t)n != in->io->rank)
        return tool_usage_error("infer", "option --dym-shape: input '%s' has %zu dimensions %s, the option gives %d %s",
                                in->io->name, in->io->rank, want, n, got);
      for (size_t k = 0; k < in->io->rank; k++) {
        if (in->io->dims[k] >= 0 && in->io->dims[k] != d[k])
          return tool_usage_error("infer",
                                  "option --dym-shape: input '%s' is %s, the option gives %s (dimension %zu "
                                  "is static)",
                                  in->io->name, want, got, k);
        in->dims[k] = d[k];
      }
    }
    p = semi != NULL ? semi + 1 : NULL;
  }
  return 0;
}

static int check_dym_names(const infer_job *j) {
  const char *p = j->o->dym_shape;
  while (p != NULL && *p != '\0') {
    const char *semi = strchr(p, ';');
    size_t len = semi != NULL ? (size_t)(semi - p) : strlen(p);
    const char *colon = memchr(p, ':', len);
    if (colon == NULL)
      return tool_usage_error("infer", "option --dym-shape: '%.*s' is not name:d1,d2,...", (int)len, p);
    size_t nlen = (size_t)(colon - p);
    int found = 0;
    for (size_t i = 0; i < j->m->n_in; i++)
      found |= strlen(j->m->in[i].name) == nlen && strncmp(p, j->m->in[i].name, nlen) == 0;
    if (!found) {
      char names[1024] = "";
      for (size_t i = 0; i < j->m->n_in; i++)
        snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'", i ? ", " : "", j->m->in[i].name);
      return tool_usage_error("infer", "option --dym-shape: the model has no input '%.*s' (its inputs: %s)", (int)nlen,
                              p, names);
    }
    p = semi != NULL ? semi + 1 : NULL;
  }
  return 0;
}

static int resolve_dims(const infer_job *j, infer_input *in) {
  const tool_io *io = in->io;
  in->rank = io->rank;
  for (size_t k = 0; k < io->rank; k++) {
    in->dims[k] = io->dims[k];
    in->dynamic |= io->dims[k] < 0;
  }
  if (io->rank > 0 && io->dims[0] < 0 && j->o->dym_batch > 0)
    in->dims[0] = j->o->dym_batch;
  if (j->o->dym_hw != NULL) {
    int64_t hw[2];
    if (parse_dims(j->o->dym_hw, strlen(j->o->dym_hw), hw, 2) != 2)
      return tool_usage_error("infer", "option --dym-hw: '%s' is not HEIGHT,WIDTH", j->o->dym_hw);
    if (io->rank == 4 && io->dims[2] < 0 && io->dims[3] < 0) {
      in->dims[2] = hw[0];
      in->dims[3] = hw[1];
    }
  }
  return apply_dym_shape(j, in);
}

static size_t elems(const int64_t *dims, size_t rank) {
  size_t n = 1;
  for (size_t k = 0; k < rank; k++)
    n *= dims[k] < 0 ? 0 : (size_t)dims[k];
  return n;
}

static int all_known(const int64_t *dims, size_t rank) {
  for (size_t k = 0; k < rank; k++)
    if (dims[k] < 0)
      return 0;
  return 1;
}

/* dims (rank r) against the pattern p (-1 matches anything). */
static int shape_fits(const int64_t *p, size_t pr, const int64_t *d, size_t r) {
  if (pr != r)
    return 0;
  for (size_t k = 0; k < r; k++)
    if (p[k] >= 0 && p[k] != d[k])
      return 0;
  return 1;
}

enum { FIT_NONE, FIT_FULL, FIT_ITEM };

/* How one file fits input `in`: a whole execution's data or one item of a
 * batch.  For .npy files `shape` receives the file's shape. */
static int file_fit(const infer_input *in, const char *path, int64_t *shape, size_t *rank, size_t *bytes,
                    size_t *offset) {
  const tool_io *io = in->io;
  const size_t es = tool_dtype_size(io->dtype);
  char want[256], got[256];
  fmt_dims(want, sizeof(want), in->dims, in->rank);
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    tool_error("input '%s': cannot read '%s': %s", io->name, path, strerror(errno));
    return -1;
  }
  int fit = FIT_NONE;
  struct stat st;
  fstat(fileno(f), &st);
  if (has_suffix(path, ".npy")) {
    npy_header h;
    char err[256];
    if (npy_read_header(f, &h, err, sizeof(err)) != 0) {
      tool_error("input '%s': '%s': %s", io->name, path, err);
      goto out;
    }
    fmt_dims(got, sizeof(got), h.dims, h.rank);
    if (h.dtype != io->dtype) {
      tool_error("input '%s': '%s' holds %s (%s) but the model expects %s", io->name, path, tool_dtype_name(h.dtype),
                 h.descr, tool_dtype_name(io->dtype));
      goto out;
    }
    if ((size_t)st.st_size < h.data_offset + h.data_size) {
      tool_error("input '%s': '%s' is truncated: shape %s needs %zu bytes of data, the file holds %lld", io->name, path,
                 got, h.data_size, (long long)st.st_size - (long long)h.data_offset);
      goto out;
    }
    if (shape_fits(in->dims, in->rank, h.dims, h.rank))
      fit = FIT_FULL;
    else if (in->rank >= 1 && in->dims[0] != 0 &&
             (shape_fits(in->dims + 1, in->rank - 1, h.dims, h.rank) ||
              (h.rank == in->rank && h.dims[0] == 1 && shape_fits(in->dims + 1, in->rank - 1, h.dims + 1, h.rank - 1))))
      fit = FIT_ITEM;
    else {
      tool_error("input '%s': '%s' has shape %s but the model expects %s%s", io->name, path, got, want,
                 in->rank >= 1 && in->dims[0] > 1 ? " (or one item of it)" : "");
      goto out;
    }
    memcpy(shape, h.dims, sizeof(h.dims));
    *rank = h.rank;
    *bytes = h.data_size;
    *offset = h.data_offset;
  } else {
    size_t size = (size_t)st.st_size;
    size_t item = in->rank >= 1 ? elems(in->dims + 1, in->rank - 1) * es : es;
    int rest_known = in->rank == 0 || all_known(in->dims + 1, in->rank - 1);
    if (!rest_known) {
      tool_error("input '%s': '%s' is a .bin file, which has no shape, and the model's shape %s is open: give "
                 "--dym-shape %s:d1,d2,... or use .npy files",
                 io->name, path, want, io->name);
      goto out;
    }
    if (all_known(in->dims, in->rank) && size == elems(in->dims, in->rank) * es)
      fit = FIT_FULL;
    else if (in->rank >= 1 && in->dims[0] < 0 && item > 0 && size > 0 && size % item == 0)
      fit = FIT_FULL; /* a symbolic batch the file's size decides */
    else if (in->rank >= 1 && in->dims[0] > 1 && size == item)
      fit = FIT_ITEM;
    else {
      if (all_known(in->dims, in->rank))
        tool_error("input '%s': '%s' holds %zu bytes but the model expects %zu (%s %s)%s", io->name, path, size,
                   elems(in->dims, in->rank) * es, tool_dtype_name(io->dtype), want,
                   in->rank >= 1 && in->dims[0] > 1 ? " or one item of it" : "");
      else
        tool_error("input '%s': '%s' holds %zu bytes, not a multiple of one item's %zu (%s %s)", io->name, path, size,
                   item, tool_dtype_name(io->dtype), want);
      goto out;
    }
    memcpy(shape, in->dims, sizeof(in->dims));
    *rank = in->rank;
    if (in->rank >= 1 && in->dims[0] < 0)
      shape[0] = (int64_t)(size / item);
    *bytes = size;
    *offset = 0;
  }
out:
  fclose(f);
  return fit == FIT_NONE ? -1 : fit;
}

static int check_files(infer_input *in) {
  int mode = 0;
  for (size_t f = 0; f < in->n_files; f++) {
    int64_t shape[16];
    size_t rank, bytes, offset;
    int fit = file_fit(in, in->files[f], shape, &rank, &bytes, &offset);
    if (fit < 0)
      return TOOL_FAIL;
    if (mode == 0)
      mode = fit;
    if (fit != mode) {
      tool_error("input '%s': '%s' holds %s but '%s' holds %s: the files of one input must all be whole batches or "
                 "all single items",
                 in->io->name, in->files[0], mode == FIT_FULL ? "a whole batch" : "one item", in->files[f],
                 fit == FIT_FULL ? "a whole batch" : "one item");
      return TOOL_FAIL;
    }
    if (fit == FIT_ITEM && f == 0) {
      /* the first item fixes the open dimensions after the batch: the files
       * batched together must all have its shape (checked by file_fit) */
      const size_t skip = rank == in->rank ? 1 : 0;
      for (size_t k = 1; k < in->rank; k++)
        if (in->dims[k] < 0)
          in->dims[k] = shape[k - 1 + skip];
    }
    if (fit == FIT_ITEM)
      bytes *= in->dims[0] > 0 ? (size_t)in->dims[0] : 1;
    if (bytes > in->max_bytes)
      in->max_bytes = bytes;
  }
  in->batched = mode == FIT_ITEM;
  if (in->batched && in->dims[0] < 0)
    in->dims[0] = 1; /* single items and no --dym-batch: one per execution */
  in->per_exec = in->batched ? (size_t)in->dims[0] : 1;
  return 0;
}

int infer_inputs_prepare(infer_job *j) {
  const tool_model *m = j->m;
  const infer_opts *o = j->o;
  char *specs = strdup(o->input != NULL ? o->input : "");
  int ret = 0;
  j->in = calloc(m->n_in + 1, sizeof(infer_input));
  if (specs == NULL || j->in == NULL) {
    tool_error("out of memory");
    ret = TOOL_FAIL;
    goto out;
  }
  for (size_t i = 0; i < m->n_in; i++)
    j->in[i].io = &m->in[i];
  /* count first: a wrong count explains the rest */
  size_t n_specs = o->input == NULL ? m->n_in : 1;
  for (const char *p = specs; o->input != NULL && *p != '\0'; p++)
    n_specs += *p == ',';
  if (n_specs != m->n_in) {
    char names[1024] = "";
    for (size_t i = 0; i < m->n_in; i++)
      snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s'%s'", i ? ", " : "", m->in[i].name);
    tool_error("--input gives %zu input%s but model '%s' has %zu (%s); separate them with commas", n_specs,
               n_specs == 1 ? "" : "s", o->model, m->n_in, names);
    ret = TOOL_FAIL;
    goto out;
  }
  ret = check_dym_names(j);
  char *tok = specs;
  for (size_t i = 0; ret == 0 && i < m->n_in; i++) {
    infer_input *in = &j->in[i];
    const char *spec = "zeros";
    if (o->input != NULL) {
      /* strsep keeps empty items, which are errors */
      spec = strsep(&tok, ",");
    }
    ret = resolve_dims(j, in);
    if (ret == 0)
      ret = find_source(j, in, spec, i == 0);
    if (ret != 0)
      break;
    char want[256];
    fmt_dims(want, sizeof(want), in->dims, in->rank);
    if (in->io->dtype == ACL_STRING || tool_dtype_size(in->io->dtype) == 0) {
      tool_error("input '%s' has type %s, which openacl infer cannot feed", in->io->name,
                 tool_dtype_name(in->io->dtype));
      ret = TOOL_FAIL;
    } else if (in->src == SRC_ZEROS || in->src == SRC_RANDOM) {
      if (!all_known(in->dims, in->rank)) {
        ret = tool_usage_error("infer",
                               "input '%s' has the open shape %s: give --dym-shape %s:d1,d2,... (or "
                               "--dym-batch) to generate %s",
                               in->io->name, want, in->io->name, in->src == SRC_ZEROS ? "zeros" : "random data");
      }
      in->max_bytes = elems(in->dims, in->rank) * tool_dtype_size(in->io->dtype);
    } else if (in->src == SRC_RECIPE) {
      if (o->dym_shape == NULL && o->recipe->input_shape != NULL && !all_known(in->dims, in->rank)) {
        ret = o->recipe->input_shape(o->recipe_self, m, in->dims, in->rank);
        if (ret != 0)
          break;
        fmt_dims(want, sizeof(want), in->dims, in->rank);
      }
      if (in->rank >= 1 && in->dims[0] < 0)
        in->dims[0] = 1;
      if (!all_known(in->dims, in->rank)) {
        ret = tool_usage_error("infer",
                               "input '%s' has the open shape %s: give --dym-shape %s:d1,d2,... for recipe "
                               "'%s'",
                               in->io->name, want, in->io->name, o->recipe->name);
      }
      in->batched = 1;
      in->per_exec = in->rank >= 1 ? (size_t)in->dims[0] : 1;
      in->max_bytes = elems(in->dims, in->rank) * tool_dtype_size(in->io->dtype);
    } else {
      ret = check_files(in);
    }
  }
  /* every input with files must make the same number of executions */
  j->n_exec = 0;
  const infer_input *first = NULL;
  for (size_t i = 0; ret == 0 && i < m->n_in; i++) {
    infer_input *in = &j->in[i];
    if (in->n_files == 0)
      continue;
    size_t n = (in->n_files + in->per_exec - 1) / in->per_exec;
    if (first != NULL && n != j->n_exec) {
      tool_error("input '%s' has %zu file%s (%zu execution%s) but input '%s' has %zu (%zu): give every input the same "
                 "number of files",
                 first->io->name, first->n_files, first->n_files == 1 ? "" : "s", j->n_exec, j->n_exec == 1 ? "" : "s",
                 in->io->name, in->n_files, n);
      ret = TOOL_FAIL;
    }
    if (first == NULL)
      first = in;
    j->n_exec = n;
  }
  if (j->n_exec == 0)
    j->n_exec = 1;
out:
  free(specs);
  return ret;
}

void infer_inputs_free(infer_job *j) {
  for (size_t i = 0; j->in != NULL && i < j->m->n_in; i++) {
    for (size_t f = 0; f < j->in[i].n_files; f++)
      free(j->in[i].files[f]);
    free(j->in[i].files);
  }
  free(j->in);
  j->in = NULL;
}

/* xorshift64*: small, fast, and the same sequence everywhere for a seed. */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static uint16_t to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, man = x & 0x7fffff;
  if (e < 103)
    return (uint16_t)sign;
  if (e < 113)
    return (uint16_t)(sign | ((man | 0x800000) >> (126 - e)));
  return (uint16_t)(sign | ((e - 112) << 10) | (man >> 13));
}

/* Floats uniform in [0, 1), integers in [0, 100), bools 0 or 1. */
static void fill_random(void *dst, size_t n, aclDataType dt, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  for (size_t k = 0; k < n; k++) {
    uint64_t r = next_rand(&s);
    double u = (double)(r >> 11) / 9007199254740992.0;
    int64_t iv = (int64_t)(r % 100);
    switch (dt) {
    case ACL_FLOAT:
      ((float *)dst)[k] = (float)u;
      break;
    case ACL_DOUBLE:
      ((double *)dst)[k] = u;
      break;
    case ACL_FLOAT16:
      ((uint16_t *)dst)[k] = to_half((float)u);
      break;
    case ACL_BF16: {
      float f = (float)u;
      uint32_t x;
      memcpy(&x, &f, 4);
      ((uint16_t *)dst)[k] = (uint16_t)(x >> 16);
      break;
    }
    case ACL_INT8:
      ((int8_t *)dst)[k] = (int8_t)iv;
      break;
    case ACL_UINT8:
      ((uint8_t *)dst)[k] = (uint8_t)iv;
      break;
    case ACL_INT16:
      ((int16_t *)dst)[k] = (int16_t)iv;
      break;
    case ACL_UINT16:
      ((uint16_t *)dst)[k] = (uint16_t)iv;
      break;
    case ACL_INT32:
      ((int32_t *)dst)[k] = (int32_t)iv;
      break;
    case ACL_UINT32:
      ((uint32_t *)dst)[k] = (uint32_t)iv;
      break;
    case ACL_INT64:
      ((int64_t *)dst)[k] = iv;
      break;
    case ACL_UINT64:
      ((uint64_t *)dst)[k] = (uint64_t)iv;
      break;
    case ACL_BOOL:
      ((uint8_t *)dst)[k] = (uint8_t)(r >> 63);
      break;
    default:
      memset((char *)dst + k * aclDataTypeSize(dt), 0, aclDataTypeSize(dt));
      break;
    }
  }
}

static int read_data(const infer_input *in, const char *path, void *dst, size_t max, int64_t *shape, size_t *rank,
                     size_t *bytes) {
  size_t offset = 0;
  int fit = file_fit(in, path, shape, rank, bytes, &offset);
  if (fit < 0)
    return TOOL_FAIL;
  if (*bytes > max) {
    tool_error("input '%s': '%s' changed since it was checked (now %zu bytes)", in->io->name, path, *bytes);
    return TOOL_FAIL;
  }
  FILE *f = fopen(path, "rb");
  int ok = f != NULL && fseek(f, (long)offset, SEEK_SET) == 0 && fread(dst, 1, *bytes, f) == *bytes;
  if (f != NULL)
    fclose(f);
  if (!ok) {
    tool_error("input '%s': cannot read '%s': %s", in->io->name, path, errno ? strerror(errno) : "short read");
    return TOOL_FAIL;
  }
  return 0;
}

int infer_inputs_fill(infer_job *j, size_t i, size_t e, void *host, int64_t *dims, size_t *rank, size_t *bytes,
                      size_t *items) {
  infer_input *in = &j->in[i];
  const size_t es = tool_dtype_size(in->io->dtype);
  memcpy(dims, in->dims, sizeof(in->dims));
  *rank = in->rank;
  *items = in->rank >= 1 && in->dims[0] > 0 ? (size_t)in->dims[0] : 1;
  if (in->src == SRC_ZEROS || in->src == SRC_RANDOM) {
    *bytes = in->max_bytes;
    if (in->src == SRC_ZEROS)
      memset(host, 0, *bytes);
    else
      fill_random(host, *bytes / es, in->io->dtype, j->o->seed + i);
    return 0;
  }
  if (!in->batched) {
    int ret = read_data(in, in->files[e], host, in->max_bytes, dims, rank, bytes);
    *items = *rank >= 1 ? (size_t)dims[0] : 1;
    return ret;
  }
  /* a batch of single items: files e*N ... */
  const size_t n = in->per_exec, from = e * n;
  const size_t count = from + n <= in->n_files ? n : in->n_files - from;
  const size_t item_bytes = elems(in->dims, in->rank) * es / n;
  const int shrink = in->io->rank >= 1 && in->io->dims[0] < 0;
  memset(host, 0, in->max_bytes); /* a short batch of a static model is padded with zeros */
  dims[0] = shrink ? (int64_t)count : (int64_t)n;
  *bytes = (size_t)dims[0] * item_bytes;
  *items = count;
  for (size_t k = 0; k < count; k++) {
    const char *path = in->files[from + k];
    if (in->src == SRC_RECIPE) {
      int ret = j->o->recipe->preprocess(j->o->recipe_self, j->m, path, host, *bytes, dims, *rank, k);
      if (ret != 0)
        return ret;
      continue;
    }
    int64_t shape[16];
    size_t r, b;
    int ret = read_data(in, path, (char *)host + k * item_bytes, item_bytes, shape, &r, &b);
    if (ret != 0)
      return ret;
  }
  return 0;
}

void infer_inputs_stem(const infer_job *j, size_t e, char *buf, size_t len) {
  for (size_t i = 0; i < j->m->n_in; i++) {
    const infer_input *in = &j->in[i];
    if (in->n_files == 0)
      continue;
    const char *path = in->files[e * in->per_exec];
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(buf, len, "%.*s", (int)n, base);
    return;
  }
  snprintf(buf, len, "run%zu", e);
}
