/*
 * infer_dump.c - `openacl infer --dump` (msame / ais_bench spelling): every
 * layer of the model is dumped (inputs and outputs, the vendor's dump files
 * with a .npy beside each tensor) under OUTPUT/dump, or ./dump without
 * --output, through the public runtime dump API: aclmdlInitDump, then
 * aclmdlSetDump with a generated configuration before the model is loaded,
 * aclmdlFinalizeDump at the end (docs/dump.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "infer_job.h"

/* The model's file name without directory and suffix: dump_list's model_name. */
static void stem_of(const char *path, char *out, size_t n) {
  const char *b = strrchr(path, '/');
  snprintf(out, n, "%s", b != NULL ? b + 1 : path);
  char *dot = strrchr(out, '.');
  if (dot != NULL && dot != out)
    *dot = '\0';
}

/* A JSON string body with quotes and backslashes escaped. */
static void json_escape(const char *s, char *out, size_t n) {
  size_t k = 0;
  for (; *s != '\0' && k + 2 < n; s++) {
    if (*s == '"' || *s == '\\')
      out[k++] = '\\';
    out[k++] = *s;
  }
  out[k] = '\0';
}

int infer_dump_begin(const infer_opts *o) {
  int ret = tool_acl_init();
  if (ret != 0 || !o->dump)
    return ret;
  char dir[4096], cfg[4200], stem[1024], ed[8192], es[2048];
  snprintf(dir, sizeof(dir), "%s/dump", o->output != NULL ? o->output : ".");
  stem_of(o->model, stem, sizeof(stem));
  json_escape(dir, ed, sizeof(ed));
  json_escape(stem, es, sizeof(es));
  if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
    if (o->output != NULL)
      mkdir(o->output, 0750);
    if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
      tool_error("--dump: cannot create '%s': %s", dir, strerror(errno));
      return TOOL_FAIL;
    }
  }
  snprintf(cfg, sizeof(cfg), "%s/openacl_dump.json", dir);
  FILE *f = fopen(cfg, "w");
  if (f == NULL) {
    tool_error("--dump: cannot write '%s': %s", cfg, strerror(errno));
    return TOOL_FAIL;
  }
  fprintf(f, "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"%s\"}], \"dump_mode\": \"all\"}}\n",
          ed, es);
  fclose(f);
  aclError rc = aclmdlInitDump();
  if (rc == ACL_SUCCESS)
    rc = aclmdlSetDump(cfg);
  remove(cfg);
  if (rc != ACL_SUCCESS)
    return tool_acl_error("--dump: configuring the dump",
                          rc == ACL_ERROR_DUMP_NOT_RUN ? "aclmdlInitDump" : "aclmdlSetDump", rc);
  return 0;
}

void infer_dump_end(const infer_opts *o, int ran) {
  if (!o->dump)
    return;
  const char *where = acldumpGetPath(DATA_DUMP);
  if (ran && where != NULL)
    printf("dump: every layer's inputs and outputs written under %s (a .npy beside each tensor)\n", where);
  aclmdlFinalizeDump();
}
