/*
 * infer_outputs.c - the files `openacl infer --output DIR` writes: one per
 * model output per execution, DIR/<stem>_<output name>.<bin|npy|txt>, where
 * the stem is the execution's first input file without its extension (or
 * run<N> for generated inputs).  Nothing is written anywhere else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "infer_job.h"
#include "npy.h"

/* mkdir -p: creates each missing folder of `path`. */
static int make_dirs(const char *path) {
  char p[4096];
  snprintf(p, sizeof(p), "%s", path);
  for (char *s = p + 1; *s != '\0'; s++) {
    if (*s != '/')
      continue;
    *s = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
      return -1;
    *s = '/';
  }
  if (mkdir(p, 0777) != 0 && errno != EEXIST)
    return -1;
  struct stat st;
  if (stat(p, &st) != 0)
    return -1;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

int infer_outputs_prepare(infer_job *j) {
  j->outdir[0] = '\0';
  if (j->o->output == NULL)
    return 0;
  if (j->o->output_dirname != NULL)
    snprintf(j->outdir, sizeof(j->outdir), "%s/%s", j->o->output, j->o->output_dirname);
  else
    snprintf(j->outdir, sizeof(j->outdir), "%s", j->o->output);
  if (make_dirs(j->outdir) != 0) {
    tool_error("cannot create output folder '%s': %s", j->outdir, strerror(errno));
    return TOOL_FAIL;
  }
  return 0;
}

static void txt_value(FILE *f, const void *data, size_t k, aclDataType dt) {
  switch (dt) {
  case ACL_FLOAT:
    fprintf(f, "%.9g", (double)((const float *)data)[k]);
    break;
  case ACL_DOUBLE:
    fprintf(f, "%.17g", ((const double *)data)[k]);
    break;
  case ACL_INT8:
    fprintf(f, "%d", ((const int8_t *)data)[k]);
    break;
  case ACL_UINT8:
  case ACL_BOOL:
    fprintf(f, "%u", ((const uint8_t *)data)[k]);
    break;
  case ACL_INT16:
    fprintf(f, "%d", ((const int16_t *)data)[k]);
    break;
  case ACL_UINT16:
    fprintf(f, "%u", ((const uint16_t *)data)[k]);
    break;
  case ACL_INT32:
    fprintf(f, "%d", ((const int32_t *)data)[k]);
    break;
  case ACL_UINT32:
    fprintf(f, "%u", ((const uint32_t *)data)[k]);
    break;
  case ACL_INT64:
    fprintf(f, "%lld", (long long)((const int64_t *)data)[k]);
    break;
  case ACL_UINT64:
    fprintf(f, "%llu", (unsigned long long)((const uint64_t *)data)[k]);
    break;
  case ACL_FLOAT16: {
    uint16_t h = ((const uint16_t *)data)[k];
    int e = (h >> 10) & 0x1f, man = h & 0x3ff;
    double v = e == 0    ? man / 1024.0 / 16384.0
               : e == 31 ? (man ? 0.0 / 0.0 : 1.0 / 0.0)
                         : (1.0 + man / 1024.0) * (double)(1u << e) / 32768.0;
    fprintf(f, "%.5g", h & 0x8000 ? -v : v);
    break;
  }
  case ACL_BF16: {
    uint32_t x = (uint32_t)((const uint16_t *)data)[k] << 16;
    float v;
    memcpy(&v, &x, 4);
    fprintf(f, "%.4g", (double)v);
    break;
  }
  default:
    fprintf(f, "?");
    break;
  }
}

/* TXT: one line per row of the last dimension, values separated by spaces
 * (msame's layout); a scalar is one line. */
static int write_txt(FILE *f, const void *data, size_t bytes, const int64_t *dims, size_t rank, aclDataType dt) {
  size_t es = tool_dtype_size(dt);
  size_t n = es ? bytes / es : 0;
  size_t row = rank >= 1 && dims[rank - 1] > 0 ? (size_t)dims[rank - 1] : 1;
  for (size_t k = 0; k < n; k++) {
    txt_value(f, data, k, dt);
    fputc((k + 1) % row == 0 ? '\n' : ' ', f);
  }
  return ferror(f) ? -1 : 0;
}

int infer_outputs_write(const infer_job *j, size_t e, size_t i, const void *data, size_t bytes, const int64_t *dims,
                        size_t rank, aclDataType dt) {
  static const char *ext[] = {"bin", "npy", "txt"};
  char stem[1024], name[256], path[8192];
  if (j->outdir[0] == '\0')
    return 0;
  infer_inputs_stem(j, e, stem, sizeof(stem));
  /* output names may hold '/' or ':' (ONNX allows any string) */
  snprintf(name, sizeof(name), "%s", j->m->out[i].name[0] ? j->m->out[i].name : "output");
  for (char *s = name; *s != '\0'; s++)
    if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9') && *s != '-' && *s != '.')
      *s = '_';
  snprintf(path, sizeof(path), "%s/%s_%s.%s", j->outdir, stem, name, ext[j->o->outfmt]);
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    tool_error("cannot write output file '%s': %s", path, strerror(errno));
    return TOOL_FAIL;
  }
  int rc;
  if (j->o->outfmt == INFER_NPY)
    rc = npy_write(f, dt, rank, dims, data, bytes);
  else if (j->o->outfmt == INFER_TXT)
    rc = write_txt(f, data, bytes, dims, rank, dt);
  else
    rc = bytes > 0 && fwrite(data, 1, bytes, f) != bytes ? -1 : 0;
  if (fclose(f) != 0)
    rc = -1;
  if (rc != 0) {
    tool_error("cannot write output file '%s': %s", path, strerror(errno));
    return TOOL_FAIL;
  }
  return 0;
}
