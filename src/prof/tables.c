/*
 * tables.c - helpers both writers use: tasks merged across parked runs,
 * runtime API names per task kind, CSV and JSON string escaping.
 */
#include <stdlib.h>
#include <string.h>

#include "prof/prof_internal.h"

static int by_key(const void *a, const void *b) {
  const acl__prof_rec *x = *(const acl__prof_rec *const *)a, *y = *(const acl__prof_rec *const *)b;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->stream != y->stream)
    return x->stream < y->stream ? -1 : 1;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static int by_start(const void *a, const void *b) {
  const acl__prof_rec *x = a, *y = b;
  if (x->t0 != y->t0)
    return x->t0 < y->t0 ? -1 : 1;
  return x->t1 > y->t1 ? -1 : x->t1 < y->t1;
}

acl__prof_rec *acl__prof_tasks(const acl__prof_rec *r, size_t n, size_t *n_out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += r[i].kind == PREC_TASK;
  const acl__prof_rec **ptr = malloc((k ? k : 1) * sizeof(*ptr));
  acl__prof_rec *out = malloc((k ? k : 1) * sizeof(*out));
  *n_out = 0;
  if (ptr == NULL || out == NULL) {
    free(ptr);
    free(out);
    return NULL;
  }
  k = 0;
  for (size_t i = 0; i < n; i++)
    if (r[i].kind == PREC_TASK)
      ptr[k++] = &r[i];
  qsort(ptr, k, sizeof(*ptr), by_key);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    const acl__prof_rec *t = ptr[i];
    /* a stream id is reused after destroy: same key, but the seq restarts, so
     * only a parked piece (rc park) is merged into the next run */
    if (m > 0 && out[m - 1].device == t->device && out[m - 1].stream == t->stream && out[m - 1].seq == t->seq &&
        out[m - 1].rc == -1 /* ACL__TASK_PARK */) {
      out[m - 1].t1 = t->t1;
      out[m - 1].rc = t->rc;
      memcpy(out[m - 1].text, t->text, sizeof(t->text));
      continue;
    }
    out[m++] = *t;
  }
  free(ptr);
  qsort(out, m, sizeof(*out), by_start);
  *n_out = m;
  return out;
}

const char *acl__prof_rt_name(int kind) {
  static const char *const names[PTASK_KIND_COUNT] = {
      "rtTaskSubmit", "rtKernelLaunch", "rtModelExecute", "rtMemcpyAsync", "rtCallbackLaunch", "rtEventRecord",
      "rtStreamWaitEvent", "rtProfilerTraceEx"};
  return kind >= 0 && kind < PTASK_KIND_COUNT ? names[kind] : "rtTaskSubmit";
}

void acl__prof_csv_cell(FILE *f, const char *s) {
  if (s == NULL)
    s = "";
  if (strpbrk(s, ",\"\n\r") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (const char *p = s; *p; p++) {
    if (*p == '"')
      fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

void acl__prof_json_str(FILE *f, const char *s) {
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
}
