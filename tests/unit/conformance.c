/*
 * conformance.c - runs Debian's ONNX backend test data (libonnx-testdata)
 * through the reference executor (src/model/exec.c) and compares every
 * output with ONNX's own tolerances (rtol 1e-3, atol 1e-7).
 *
 * Each test is <group>/<name>: model.onnx plus test_data_set_N/input_N.pb
 * and output_*.pb.  tests/data/conformance/known_failures.txt lists the
 * tests that do not pass today, one per line, "<group>/<name>  <reason>".
 * A failure not in that list fails this test (a regression); a listed test
 * that now passes is printed so it can be taken off the list.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/exec.h"
#include "model/onnx_loader.h"
#include "onnx.pb-c.h"

#define DATA_ROOT "/usr/share/libonnx-testdata/data"
#define KNOWN OPENACL_SOURCE_DIR "/tests/data/conformance/known_failures.txt"

static const char *const groups[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};

/* Reads a TensorProto file into a dense tensor; 0 on success. */
static int read_tensor(const char *path, acl__tensor *t) {
  char *buf = NULL;
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc(n > 0 ? (size_t)n : 1);
  size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  if (buf == NULL || (long)got != n) {
    free(buf);
    return -1;
  }
  Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, (size_t)n, (const uint8_t *)buf);
  free(buf);
  if (tp == NULL)
    return -1;
  int rc = -1;
  int64_t dims[ACL__EXEC_MAX_RANK];
  if (tp->n_dims > ACL__EXEC_MAX_RANK)
    goto out;
  for (size_t i = 0; i < tp->n_dims; i++)
    dims[i] = tp->dims[i];
  if (acl__tensor_alloc(t, tp->data_type, (int)tp->n_dims, dims) != 0)
    goto out;
  size_t es = acl__graph_onnx_elem_size(tp->data_type), numel = (size_t)acl__tensor_numel(t);
  if (es == 0)
    goto fail;
  if (numel == 0) {
    /* empty tensor: nothing to copy */
  } else if (tp->has_raw_data) {
    if (tp->raw_data.len != numel * es)
      goto fail;
    memcpy(t->data, tp->raw_data.data, tp->raw_data.len);
  } else if (tp->data_type == ACL__ONNX_FLOAT && tp->n_float_data == numel) {
    memcpy(t->data, tp->float_data, numel * 4);
  } else if (tp->data_type == ACL__ONNX_DOUBLE && tp->n_double_data == numel) {
    memcpy(t->data, tp->double_data, numel * 8);
  } else if ((tp->data_type == ACL__ONNX_INT64) && tp->n_int64_data == numel) {
    memcpy(t->data, tp->int64_data, numel * 8);
  } else if (tp->n_int32_data == numel && es <= 4) {
    for (size_t i = 0; i < numel; i++) {
      int32_t v = tp->int32_data[i];
      memcpy((char *)t->data + i * es, &v, es); /* little-endian: the low bytes */
    }
  } else {
    goto fail;
  }
  rc = 0;
  goto out;
fail:
  acl__tensor_release(t);
out:
  onnx__tensor_proto__free_unpacked(tp, NULL);
  return rc;
}

static double elem(const acl__tensor *t, size_t i) {
  const char *p = (const char *)t->data;
  switch (t->onnx_type) {
  case ACL__ONNX_FLOAT: { float v; memcpy(&v, p + i * 4, 4); return v; }
  case ACL__ONNX_DOUBLE: { double v; memcpy(&v, p + i * 8, 8); return v; }
  case ACL__ONNX_INT64: { int64_t v; memcpy(&v, p + i * 8, 8); return (double)v; }
  case ACL__ONNX_INT32: { int32_t v; memcpy(&v, p + i * 4, 4); return v; }
  case ACL__ONNX_INT16: { int16_t v; memcpy(&v, p + i * 2, 2); return v; }
  case ACL__ONNX_UINT16: { uint16_t v; memcpy(&v, p + i * 2, 2); return v; }
  case ACL__ONNX_UINT32: { uint32_t v; memcpy(&v, p + i * 4, 4); return v; }
  case ACL__ONNX_UINT64: { uint64_t v; memcpy(&v, p + i * 8, 8); return (double)v; }
  case ACL__ONNX_INT8: return (int8_t)p[i];
  case ACL__ONNX_UINT8:
  case ACL__ONNX_BOOL: return (uint8_t)p[i];
  default: return NAN;
  }
}

/* 0 when got matches want within rtol 1e-3, atol 1e-7 (NaN matches NaN). */
static int compare(const acl__tensor *got, const acl__tensor *want, char *why, size_t n) {
  if (got->rank != want->rank || memcmp(got->dims, want->dims, sizeof(int64_t) * (size_t)want->rank) != 0) {
    snprintf(why, n, "shape differs");
    return -1;
  }
  if (got->onnx_type != want->onnx_type) {
    snprintf(why, n, "type %d, expected %d", got->onnx_type, want->onnx_type);
    return -1;
  }
  size_t numel = (size_t)acl__tensor_numel(want);
  for (size_t i = 0; i < numel; i++) {
    double a = elem(got, i), b = elem(want, i);
    if (isnan(a) && isnan(b))
      continue;
    if (isinf(a) && isinf(b) && (a > 0) == (b > 0))
      continue;
    if (!(fabs(a - b) <= 1e-7 + 1e-3 * fabs(b))) {
      snprintf(why, n, "element %zu is %g, expected %g", i, a, b);
      return -1;
    }
  }
  return 0;
}

typedef enum { R_PASS, R_FAIL, R_UNSUPPORTED } result;

static result run_one(const char *dir, char *why, size_t n) {
  char path[2048];
  snprintf(path, sizeof(path), "%s/model.onnx", dir);
  acl__graph *g = NULL;
  acl__diags d = {0};
  result r = R_FAIL;
  if (acl__onnx_load_file(path, NULL, &g, &d) != 0) {
    const acl__diag *e = acl__diags_first_error(&d);
    snprintf(why, n, "load: %s", e ? e->message : "?");
    r = R_UNSUPPORTED;
    goto out;
  }
  if (acl__exec_check_supported(g, &d) != 0) {
    const acl__diag *e = acl__diags_first_error(&d);
    snprintf(why, n, "%s", e ? e->message : "unsupported");
    r = R_UNSUPPORTED;
    goto out;
  }
  for (int set = 0; set < 8; set++) {
    char sdir[1200];
    snprintf(sdir, sizeof(sdir), "%s/test_data_set_%d", dir, set);
    DIR *probe = opendir(sdir);
    if (probe == NULL)
      break;
    closedir(probe);
    acl__tensor in[16], out[16], want[16];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    memset(want, 0, sizeof(want));
    size_t ni = g->n_inputs, no = g->n_outputs;
    int ok = ni <= 16 && no <= 16;
    for (size_t i = 0; ok && i < ni; i++) {
      snprintf(path, sizeof(path), "%s/input_%zu.pb", sdir, i);
      ok = read_tensor(path, &in[i]) == 0;
    }
    for (size_t i = 0; ok && i < no; i++) {
      snprintf(path, sizeof(path), "%s/output_%zu.pb", sdir, i);
      ok = read_tensor(path, &want[i]) == 0;
    }
    if (!ok) {
      snprintf(why, n, "test data could not be read (types the runner does not decode)");
      r = R_UNSUPPORTED;
    } else if (acl__exec_run(g, in, ni, out, no, &d) != 0) {
      const acl__diag *e = acl__diags_first_error(&d);
      snprintf(why, n, "run: %s", e ? e->message : "?");
      ok = 0;
    } else {
      for (size_t i = 0; ok && i < no; i++)
        ok = compare(&out[i], &want[i], why, n) == 0;
    }
    for (size_t i = 0; i < 16; i++) {
      acl__tensor_release(&in[i]);
      acl__tensor_release(&out[i]);
      acl__tensor_release(&want[i]);
    }
    if (!ok)
      goto out;
  }
  r = R_PASS;
out:
  acl__diags_free(&d);
  if (g)
    acl__graph_free(g);
  return r;
}

/* The known-failures list: one "<group>/<name>" per line, then a reason. */
static char *known_text;
static int known_has(const char *id) {
  size_t len = strlen(id);
  for (const char *p = known_text; p && *p;) {
    if (strncmp(p, id, len) == 0 && (p[len] == ' ' || p[len] == '\t' || p[len] == '\n' || p[len] == '\0'))
      return 1;
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(onnx_backend_test_data) {
  DIR *root = opendir(DATA_ROOT);
  if (root == NULL) {
    printf("skipped: %s is not installed (Debian package libonnx-testdata)\n", DATA_ROOT);
    return;
  }
  closedir(root);
  known_text = th_read_file(KNOWN);
  const char *regen = getenv("OPENACL_CONFORMANCE_LIST"); /* writes a new list here */
  FILE *list = regen ? fopen(regen, "w") : NULL;
  int regressions = 0, fixed = 0;
  for (size_t gi = 0; gi < sizeof(groups) / sizeof(groups[0]); gi++) {
    char gdir[512];
    snprintf(gdir, sizeof(gdir), "%s/%s", DATA_ROOT, groups[gi]);
    DIR *dd = opendir(gdir);
    if (dd == NULL)
      continue;
    char *names[2048];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL && nn < 2048)
      if (e->d_name[0] != '.')
        names[nn++] = strdup(e->d_name);
    closedir(dd);
    qsort(names, nn, sizeof(names[0]), cmp_str);
    int pass = 0, fail = 0, unsup = 0;
    for (size_t i = 0; i < nn; i++) {
      char dir[1024], id[600], why[512] = "";
      snprintf(dir, sizeof(dir), "%s/%s", gdir, names[i]);
      snprintf(id, sizeof(id), "%s/%s", groups[gi], names[i]);
      char model[1100];
      snprintf(model, sizeof(model), "%s/model.onnx", dir);
      FILE *mf = fopen(model, "rb");
      if (mf == NULL) {
        free(names[i]);
        continue;
      }
      fclose(mf);
      result r = run_one(dir, why, sizeof(why));
      pass += r == R_PASS;
      fail += r == R_FAIL;
      unsup += r == R_UNSUPPORTED;
      if (r != R_PASS) {
        for (char *c = why; *c; c++)
          if (*c == '\n')
            *c = ' ';
        if (list)
          fprintf(list, "%s  %s\n", id, why);
        if (!known_has(id)) {
          printf("REGRESSION %s: %s\n", id, why);
          regressions++;
        }
      } else if (known_has(id)) {
        printf("now passes (remove from the known-failures list): %s\n", id);
        fixed++;
      }
      free(names[i]);
    }
    int total = pass + fail + unsup;
    printf("%-18s %4d tests: %4d passed (%5.1f%%), %4d failed, %4d unsupported\n", groups[gi], total, pass,
           total ? 100.0 * pass / total : 0.0, fail, unsup);
  }
  if (list)
    fclose(list);
  free(known_text);
  printf("%d regressions, %d listed tests now pass\n", regressions, fixed);
  CHECK_INT_EQ(regressions, 0);
}
