/*
 * common.c - what every subcommand of `openacl` shares: one-line error
 * messages (with an ACL code explained from the library's error table),
 * aclInit, and loading a model with its description copied into plain
 * structs so the subcommands need not call the aclmdlGet* queries again.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "openacl/openacl.h"
#include "tool.h"

/* A message line, written with one write: under mpirun the ranks share
 * stderr, and a line written in pieces (stderr is unbuffered: every fputc
 * is a write) came out cut by another rank's. */
typedef struct msgline {
  char b[4096];
  size_t n;
} msgline;

/* Appends s; one_line: without line breaks, since every message the tool
 * prints is one line, even when a library message quoted in it has several. */
static void line_add(msgline *l, const char *s, int one_line) {
  for (; *s != '\0' && l->n + 2 < sizeof(l->b); s++)
    l->b[l->n++] = one_line && (*s == '\n' || *s == '\r') ? ' ' : *s;
}

static void line_put(msgline *l) {
  l->b[l->n++] = '\n';
  fwrite(l->b, 1, l->n, stderr);
}

/* "rank N: " under mpirun (tool_set_rank), so that the job's mixed stderr
 * says who failed. */
static char rank_prefix[32];

void tool_set_rank(int rank) { snprintf(rank_prefix, sizeof(rank_prefix), "rank %d: ", rank); }

static void line_start(msgline *l, const char *kind) {
  l->n = 0;
  line_add(l, "openacl: ", 0);
  line_add(l, rank_prefix, 0);
  line_add(l, kind, 0);
  line_add(l, ": ", 0);
}

static void vreport(const char *kind, const char *fmt, va_list ap) {
  char msg[2048];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  msgline l;
  line_start(&l, kind);
  line_add(&l, msg, 1);
  line_put(&l);
}

void tool_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("error", fmt, ap);
  va_end(ap);
}

void tool_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport("warning", fmt, ap);
  va_end(ap);
}

int tool_acl_error(const char *what, const char *api, aclError rc) {
  openaclErrorInfo info;
  const int known = openaclGetErrorInfo(rc, &info) == ACL_SUCCESS && info.name != NULL;
  const char *recent = aclGetRecentErrMsg();
  char part[512];
  msgline l;
  line_start(&l, "error");
  line_add(&l, what, 1);
  snprintf(part, sizeof(part), ": %s returned %s (%d): ", api, known ? info.name : "an unknown code", (int)rc);
  line_add(&l, part, 0);
  line_add(&l, known ? info.meaning : "openacl's error table does not list this code", 1);
  if (recent != NULL && recent[0] != '\0') {
    /* the library's message repeats "<api> failed: <NAME> (<code>): ", said already */
    char prefix[256];
    snprintf(prefix, sizeof(prefix), "%s failed: %s (%d): ", api, known ? info.name : "", (int)rc);
    if (known && strncmp(recent, prefix, strlen(prefix)) == 0)
      recent += strlen(prefix);
    line_add(&l, "; details: ", 0);
    line_add(&l, recent, 1);
  }
  /* the remedy, unless the library's message gives it already */
  if (known && info.remedy != NULL && info.remedy[0] != '\0' &&
      (recent == NULL || strstr(recent, info.remedy) == NULL)) {
    line_add(&l, "; remedy: ", 0);
    line_add(&l, info.remedy, 1);
  }
  line_put(&l);
  return TOOL_FAIL;
}

int tool_usage_error(const char *cmd, const char *fmt, ...) {
  char msg[1024], tail[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  msgline l;
  line_start(&l, "error");
  line_add(&l, msg, 1);
  snprintf(tail, sizeof(tail), " (see 'openacl %s --help')", cmd);
  line_add(&l, tail, 0);
  line_put(&l);
  return TOOL_USAGE;
}

int tool_acl_init(void) {
  static int done;
  if (done)
    return 0;
  aclError rc = aclInit(NULL);
  if (rc != ACL_SUCCESS)
    return tool_acl_error("initialising openacl", "aclInit", rc);
  done = 1;
  /* The library keeps its warnings (a malformed visibility variable, ...) in
   * the log unless the log level asks for them on stderr; a command-line
   * tool's user should see them anyway. */
  size_t needed = 0;
  aclError q = openaclGetInitWarnings(NULL, 0, &needed);
  (void)aclGetRecentErrMsg(); /* the size query's "buffer too small": not a failure of the user's */
  if (q == ACL_ERROR_INVALID_PARAM && needed > 1) {
    char *text = malloc(needed);
    if (text != NULL && openaclGetInitWarnings(text, needed, &needed) == ACL_SUCCESS) {
      for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n"))
        tool_warn("%s", strncmp(line, "warning ", 8) == 0 ? line + 8 : line);
    }
    free(text);
  }
  return 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Copies one input's or output's description; the dims and size say -1 / 0
 * for what is only known at execution (symbolic dimensions). */
static int describe_io(aclmdlDesc *d, size_t i, int is_in, tool_io *io) {
  aclmdlIODims dims;
  aclError rc = is_in ? aclmdlGetInputDims(d, i, &dims) : aclmdlGetOutputDims(d, i, &dims);
  if (rc != ACL_SUCCESS)
    return tool_acl_error("describing the model", is_in ? "aclmdlGetInputDims" : "aclmdlGetOutputDims", rc);
  const char *name = is_in ? aclmdlGetInputNameByIndex(d, i) : aclmdlGetOutputNameByIndex(d, i);
  snprintf(io->name, sizeof(io->name), "%s", name != NULL ? name : dims.name);
  io->dtype = is_in ? aclmdlGetInputDataType(d, i) : aclmdlGetOutputDataType(d, i);
  io->format = is_in ? aclmdlGetInputFormat(d, i) : aclmdlGetOutputFormat(d, i);
  io->rank = dims.dimCount < 16 ? dims.dimCount : 16;
  for (size_t k = 0; k < io->rank; k++)
    io->dims[k] = dims.dims[k];
  io->size = is_in ? aclmdlGetInputSizeByIndex(d, i) : aclmdlGetOutputSizeByIndex(d, i);
  return 0;
}

/* Loads with aclmdlLoadFromFile, or, for a precision mode, through a
 * configuration handle carrying OPENACL_MDL_PRECISION_MODE_PTR. */
static aclError load_file(const char *path, const char *precision, uint32_t *id, const char **api) {
  *api = "aclmdlLoadFromFile";
  if (precision == NULL)
    return aclmdlLoadFromFile(path, id);
  aclmdlConfigHandle *h = aclmdlCreateConfigHandle();
  *api = "aclmdlCreateConfigHandle";
  if (h == NULL)
    return ACL_ERROR_BAD_ALLOC;
  size_t type = ACL_MDL_LOAD_FROM_FILE;
  aclError rc = aclmdlSetConfigOpt(h, ACL_MDL_LOAD_TYPE_SIZET, &type, sizeof(type));
  if (rc == ACL_SUCCESS)
    rc = aclmdlSetConfigOpt(h, ACL_MDL_PATH_PTR, &path, sizeof(path));
  if (rc == ACL_SUCCESS)
    rc = aclmdlSetConfigOpt(h, OPENACL_MDL_PRECISION_MODE_PTR, &precision, sizeof(precision));
  *api = "aclmdlSetConfigOpt";
  if (rc == ACL_SUCCESS) {
    rc = aclmdlLoadWithConfig(h, id);
    *api = "aclmdlLoadWithConfig";
  }
  aclmdlDestroyConfigHandle(h);
  return rc;
}

int tool_model_load(const char *path, int32_t device, const char *precision, tool_model *m) {
  memset(m, 0, sizeof(*m));
  int ret = tool_acl_init();
  aclrtContext ctx = NULL;
  char what[1200];
  if (ret != 0)
    goto out;
  aclError rc = aclrtSetDevice(device);
  if (rc != ACL_SUCCESS) {
    snprintf(what, sizeof(what), "opening device %d", (int)device);
    ret = tool_acl_error(what, "aclrtSetDevice", rc);
    goto out;
  }
  rc = aclrtCreateContext(&ctx, device);
  if (rc != ACL_SUCCESS) {
    snprintf(what, sizeof(what), "creating a context on device %d", (int)device);
    ret = tool_acl_error(what, "aclrtCreateContext", rc);
    goto out;
  }
  double t0 = now_ms();
  const char *api = NULL;
  rc = load_file(path, precision, &m->id, &api);
  m->load_ms = now_ms() - t0;
  if (rc != ACL_SUCCESS) {
    snprintf(what, sizeof(what), "loading model '%s'", path);
    ret = tool_acl_error(what, api, rc);
    goto out;
  }
  m->desc = aclmdlCreateDesc();
  if (m->desc == NULL) {
    ret = tool_acl_error("describing the model", "aclmdlCreateDesc", ACL_ERROR_BAD_ALLOC);
    goto out;
  }
  rc = aclmdlGetDesc(m->desc, m->id);
  if (rc != ACL_SUCCESS) {
    ret = tool_acl_error("describing the model", "aclmdlGetDesc", rc);
    goto out;
  }
  m->n_in = aclmdlGetNumInputs(m->desc);
  m->n_out = aclmdlGetNumOutputs(m->desc);
  m->in = calloc(m->n_in + 1, sizeof(tool_io));
  m->out = calloc(m->n_out + 1, sizeof(tool_io));
  if (m->in == NULL || m->out == NULL) {
    tool_error("out of memory describing model '%s'", path);
    ret = TOOL_FAIL;
    goto out;
  }
  for (size_t i = 0; ret == 0 && i < m->n_in; i++)
    ret = describe_io(m->desc, i, 1, &m->in[i]);
  for (size_t i = 0; ret == 0 && i < m->n_out; i++)
    ret = describe_io(m->desc, i, 0, &m->out[i]);
out:
  if (ret != 0 && ctx != NULL) {
    tool_model_unload(m, device);
    m->id = 0;
  }
  return ret;
}

void tool_model_unload(tool_model *m, int32_t device) {
  aclrtContext ctx = NULL;
  if (m->id != 0)
    aclmdlUnload(m->id);
  if (m->desc != NULL)
    aclmdlDestroyDesc(m->desc);
  free(m->in);
  free(m->out);
  memset(m, 0, sizeof(*m));
  /* the context tool_model_load created is the current one */
  if (aclrtGetCurrentContext(&ctx) == ACL_SUCCESS && ctx != NULL)
    aclrtDestroyContext(ctx);
  aclrtResetDevice(device);
}

size_t tool_dtype_size(aclDataType dt) { return dt == ACL_DT_UNDEFINED ? 0 : aclDataTypeSize(dt); }

const char *tool_dtype_name(aclDataType dt) {
  switch (dt) {
  case ACL_FLOAT:
    return "float32";
  case ACL_FLOAT16:
    return "float16";
  case ACL_BF16:
    return "bfloat16";
  case ACL_DOUBLE:
    return "float64";
  case ACL_INT8:
    return "int8";
  case ACL_INT16:
    return "int16";
  case ACL_INT32:
    return "int32";
  case ACL_INT64:
    return "int64";
  case ACL_UINT8:
    return "uint8";
  case ACL_UINT16:
    return "uint16";
  case ACL_UINT32:
    return "uint32";
  case ACL_UINT64:
    return "uint64";
  case ACL_BOOL:
    return "bool";
  case ACL_COMPLEX64:
    return "complex64";
  case ACL_COMPLEX128:
    return "complex128";
  case ACL_STRING:
    return "string";
  default:
    return "undefined";
  }
}
