/*
 * conformance.c - runs Debian's ONNX backend test data (libonnx-testdata)
 * and compares every output with ONNX's own tolerances (rtol 1e-3,
 * atol 1e-7; strings exactly).
 *
 * Tests whose graph inputs and outputs are all numeric or bool tensors run
 * the way users run models: aclmdlLoadFromFile, inputs copied into
 * aclrtMalloc'd device buffers, tensor descriptors for inputs with
 * symbolic dims, aclmdlExecute, outputs copied back with the actual shapes
 * read from aclmdlGetDatasetTensorDesc.  So whatever engine sits behind
 * aclmdlExecute is what is tested.  Tests with sequence or string inputs or
 * outputs (aclmdl has no way to pass those) run on the internal reference
 * executor (acl__exec_run).  The per-group summary says how many ran each way.
 *
 * Each test is <group>/<name>: model.onnx plus test_data_set_N/input_N.pb
 * and output_*.pb (TensorProto, or SequenceProto for sequences).
 * tests/data/conformance/known_failures.txt lists the tests that do not pass
 * today, one per line, "<group>/<name>  <reason>".  A failure not in that
 * list fails this test (a regression); a listed test that now passes is
 * printed so it can be taken off the list.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "harness.h"
#include "model/exec.h"
#include "model/onnx_loader.h"
#include "model/ops/ops.h"
#include "onnx.pb-c.h"

#define DATA_ROOT "/usr/share/libonnx-testdata/data"
#define KNOWN OPENACL_SOURCE_DIR "/tests/data/conformance/known_failures.txt"
#define MAX_IO 16

static const char *const groups[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};

/* Reads a whole file; NULL when it cannot. */
static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = n >= 0 ? malloc(n > 0 ? (size_t)n : 1) : NULL;
  size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  if (buf == NULL || (long)got != n) {
    free(buf);
    return NULL;
  }
  *len = (size_t)n;
  return buf;
}

/* A TensorProto into a dense tensor (strings as exec.h keeps them); 0 on success. */
static int decode_tensor(const Onnx__TensorProto *tp, acl__tensor *t) {
  int64_t dims[ACL__EXEC_MAX_RANK];
  if (tp->n_dims > ACL__EXEC_MAX_RANK)
    return -1;
  for (size_t i = 0; i < tp->n_dims; i++)
    dims[i] = tp->dims[i];
  if (tp->data_type == ACL__ONNX_STRING) {
    if (acl__tensor_alloc_strings(t, (int)tp->n_dims, dims) != 0)
      return -1;
    if (tp->n_string_data != (size_t)acl__tensor_numel(t)) {
      acl__tensor_release(t);
      return -1;
    }
    for (size_t i = 0; i < tp->n_string_data; i++) {
      char *s = malloc(tp->string_data[i].len + 1);
      if (s == NULL) {
        acl__tensor_release(t);
        return -1;
      }
      if (tp->string_data[i].len > 0)
        memcpy(s, tp->string_data[i].data, tp->string_data[i].len);
      s[tp->string_data[i].len] = '\0';
      ((char **)t->data)[i] = s;
    }
    return 0;
  }
  if (acl__tensor_alloc(t, tp->data_type, (int)tp->n_dims, dims) != 0)
    return -1;
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
  return 0;
fail:
  acl__tensor_release(t);
  return -1;
}

/* Reads a varint at *p (below end); 0 on success. */
static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  *v = 0;
  for (int shift = 0; *p < end && shift < 64; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0)
      return 0;
  }
  return -1;
}

/* A SequenceProto of tensors.  onnx.proto of Debian's protobuf-c build has
 * no SequenceProto (it lives in onnx-data.proto), so the few fields needed
 * are read from the wire format: 2 elem_type, 3 tensor_values. */
static int decode_sequence(const uint8_t *buf, size_t len, acl__tensor *seq) {
  if (acl__tensor_alloc_sequence(seq, 0) != 0)
    return -1;
  const uint8_t *p = buf, *end = buf + len;
  while (p < end) {
    uint64_t key, v;
    if (varint(&p, end, &key) != 0)
      goto fail;
    int field = (int)(key >> 3), wire = (int)(key & 7);
    if (wire == 0) {
      if (varint(&p, end, &v) != 0)
        goto fail;
      if (field == 2 && v != 1) /* 1 = TENSOR; maps, sparse tensors and optionals are not read */
        goto fail;
    } else if (wire == 2) {
      if (varint(&p, end, &v) != 0 || v > (uint64_t)(end - p))
        goto fail;
      if (field == 3) {
        Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, (size_t)v, p);
        acl__tensor item;
        int rc = tp != NULL ? decode_tensor(tp, &item) : -1;
        if (tp != NULL)
          onnx__tensor_proto__free_unpacked(tp, NULL);
        if (rc != 0)
          goto fail;
        rc = acl__tensor_seq_insert(seq, seq->n_items, &item);
        acl__tensor_release(&item);
        if (rc != 0)
          goto fail;
      } else if (field != 1) {
        goto fail;
      }
      p += v;
    } else {
      goto fail;
    }
  }
  return 0;
fail:
  acl__tensor_release(seq);
  return -1;
}

/* Reads a test data file holding a value of graph tensor gt; 0 on success. */
static int read_value(const char *path, const acl__graph_tensor *gt, acl__tensor *t) {
  size_t len = 0;
  uint8_t *buf = read_file(path, &len);
  if (buf == NULL)
    return -1;
  int rc = -1;
  if (gt->is_sequence) {
    rc = decode_sequence(buf, len, t);
  } else {
    Onnx__TensorProto *tp = onnx__tensor_proto__unpack(NULL, len, buf);
    if (tp != NULL) {
      rc = decode_tensor(tp, t);
      onnx__tensor_proto__free_unpacked(tp, NULL);
    }
    /* ONNX writes bfloat16 test data as uint16 (the same bits) */
    if (rc == 0 && gt->onnx_type == ACL__ONNX_BFLOAT16 && t->onnx_type == ACL__ONNX_UINT16)
      t->onnx_type = ACL__ONNX_BFLOAT16;
  }
  free(buf);
  return rc;
}

/* 0 when got matches want within rtol 1e-3, atol 1e-7 (NaN matches NaN). */
static int compare(const acl__tensor *got, const acl__tensor *want, char *why, size_t n) {
  if (got->is_sequence != want->is_sequence || (want->is_sequence && got->n_items != want->n_items)) {
    snprintf(why, n, "a %s of %zu, expected a %s of %zu", got->is_sequence ? "sequence" : "tensor", got->n_items,
             want->is_sequence ? "sequence" : "tensor", want->n_items);
    return -1;
  }
  if (want->is_sequence) {
    for (size_t i = 0; i < want->n_items; i++)
      if (compare(&got->items[i], &want->items[i], why, n) != 0)
        return -1;
    return 0;
  }
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
    if (want->onnx_type == ACL__ONNX_STRING) {
      if (strcmp(acl__tensor_str(got, (int64_t)i), acl__tensor_str(want, (int64_t)i)) != 0) {
        snprintf(why, n, "element %zu is \"%.60s\", expected \"%.60s\"", i, acl__tensor_str(got, (int64_t)i),
                 acl__tensor_str(want, (int64_t)i));
        return -1;
      }
      continue;
    }
    if (!acl__op_numeric(want->onnx_type)) {
      snprintf(why, n, "the runner cannot compare type %d", want->onnx_type);
      return -1;
    }
    double a = acl__op_get(got, (int64_t)i), b = acl__op_get(want, (int64_t)i);
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

/* "<prefix><the latest error message>", without its remedy (the known-failures list wants the cause). */
static void api_why(char *why, size_t n, const char *prefix) {
  const char *m = aclGetRecentErrMsg();
  snprintf(why, n, "%s%s", prefix, m != NULL ? m : "?");
  char *cut = strstr(why, ". Remedy:");
  if (cut != NULL)
    *cut = '\0';
}

/* Whether aclmdl can carry every graph input and output (numeric or bool tensors). */
static int api_can_run(const acl__graph *g) {
  for (size_t i = 0; i < g->n_inputs + g->n_outputs; i++) {
    const acl__graph_tensor *t = &g->tensors[i < g->n_inputs ? g->inputs[i] : g->outputs[i - g->n_inputs]];
    if (t->is_sequence || t->onnx_type == 0 || acl__graph_onnx_elem_size(t->onnx_type) == 0)
      return 0;
  }
  return 1;
}

/* One data set through the public API: device buffers in and out, descriptors
 * for dynamic inputs, actual output shapes from the output dataset. */
static int api_run_set(uint32_t id, aclmdlDesc *desc, const acl__graph *g, const acl__tensor *in,
                       const acl__tensor *want, acl__tensor *out, char *why, size_t n) {
  size_t ni = g->n_inputs, no = g->n_outputs;
  void *dev[2 * MAX_IO] = {0};
  aclmdlDataset *ds_in = aclmdlCreateDataset(), *ds_out = aclmdlCreateDataset();
  int ok = ds_in != NULL && ds_out != NULL;
  for (size_t i = 0; ok && i < ni + no; i++) {
    int is_in = i < ni;
    /* dynamic outputs report size 0: then the caller sizes the buffer, here from the reference */
    size_t size = is_in ? in[i].size : aclmdlGetOutputSizeByIndex(desc, i - ni);
    if (!is_in && size == 0)
      size = want[i - ni].size;
    ok = aclrtMalloc(&dev[i], size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    if (ok && is_in && size > 0)
      ok = aclrtMemcpy(dev[i], size, in[i].data, size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
    aclDataBuffer *b = ok ? aclCreateDataBuffer(dev[i], size) : NULL;
    ok = b != NULL && aclmdlAddDatasetBuffer(is_in ? ds_in : ds_out, b) == ACL_SUCCESS;
    if (!ok && b != NULL)
      aclDestroyDataBuffer(b);
    const acl__graph_tensor *gt = is_in ? &g->tensors[g->inputs[i]] : NULL;
    int dynamic = gt != NULL && gt->rank < 0;
    for (int k = 0; gt != NULL && k < gt->rank; k++)
      dynamic |= gt->dims[k].value < 0;
    if (ok && dynamic) {
      aclTensorDesc *td = aclCreateTensorDesc(acl__graph_onnx_to_acl(in[i].onnx_type), in[i].rank, in[i].dims,
                                              ACL_FORMAT_ND);
      ok = td != NULL && aclmdlSetDatasetTensorDesc(ds_in, td, i) == ACL_SUCCESS;
      aclDestroyTensorDesc(td);
    }
  }
  if (!ok)
    api_why(why, n, "api: setting up buffers failed: ");
  else if (aclmdlExecute(id, ds_in, ds_out) != ACL_SUCCESS) {
    api_why(why, n, "run: ");
    ok = 0;
  }
  for (size_t i = 0; ok && i < no; i++) {
    /* the actual shape: the output dataset's descriptor when the run set one, else the declared dims */
    aclTensorDesc *td = aclmdlGetDatasetTensorDesc(ds_out, i);
    aclDataType dt = aclmdlGetOutputDataType(desc, i);
    int64_t dims[ACL__EXEC_MAX_RANK];
    int rank = 0;
    if (td != NULL) {
      dt = aclGetTensorDescType(td);
      rank = (int)aclGetTensorDescNumDims(td);
      for (int k = 0; k < rank && k < ACL__EXEC_MAX_RANK; k++)
        aclGetTensorDescDimV2(td, (size_t)k, &dims[k]);
    } else {
      aclmdlIODims d;
      ok = aclmdlGetOutputDims(desc, i, &d) == ACL_SUCCESS;
      rank = ok ? (int)d.dimCount : 0;
      for (int k = 0; k < rank && k < ACL__EXEC_MAX_RANK; k++)
        dims[k] = d.dims[k];
    }
    int type = want[i].onnx_type;
    if (!ok || dt != acl__graph_onnx_to_acl(type) || rank > ACL__EXEC_MAX_RANK ||
        acl__tensor_alloc(&out[i], type, rank, dims) != 0) {
      snprintf(why, n, "api: output %zu has aclDataType %d and rank %d, expected %s", i, (int)dt, rank,
               acl__graph_onnx_type_name(type));
      ok = 0;
    } else if (out[i].size > 0) {
      aclDataBuffer *b = aclmdlGetDatasetBuffer(ds_out, i);
      ok = out[i].size <= aclGetDataBufferSizeV2(b) &&
           aclrtMemcpy(out[i].data, out[i].size, dev[ni + i], out[i].size, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS;
      if (!ok)
        snprintf(why, n, "api: output %zu (%zu bytes) could not be read back", i, out[i].size);
    }
  }
  for (size_t i = 0; i < 2; i++) {
    aclmdlDataset *ds = i == 0 ? ds_in : ds_out;
    for (size_t k = 0; ds != NULL && k < aclmdlGetDatasetNumBuffers(ds); k++)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, k));
    if (ds != NULL)
      aclmdlDestroyDataset(ds);
  }
  for (size_t i = 0; i < ni + no; i++)
    if (dev[i] != NULL)
      aclrtFree(dev[i]);
  return ok ? 0 : -1;
}

/* *via_api is set when the test ran through aclmdl. */
static result run_one(const char *dir, char *why, size_t n, int *via_api) {
  char path[2048];
  snprintf(path, sizeof(path), "%s/model.onnx", dir);
  acl__graph *g = NULL;
  acl__diags d = {0};
  aclmdlDesc *desc = NULL;
  uint32_t id = 0;
  int loaded = 0;
  result r = R_FAIL;
  *via_api = 0;
  /* the internal loader only classifies the graph's inputs and outputs */
  if (acl__onnx_load_file(path, NULL, &g, &d) != 0) {
    const acl__diag *e = acl__diags_first_error(&d);
    snprintf(why, n, "load: %s", e ? e->message : "?");
    r = R_UNSUPPORTED;
    goto out;
  }
  if (g->n_inputs > MAX_IO || g->n_outputs > MAX_IO) {
    snprintf(why, n, "more than %d inputs or outputs", MAX_IO);
    goto out;
  }
  *via_api = api_can_run(g);
  if (*via_api) {
    if (aclmdlLoadFromFile(path, &id) != ACL_SUCCESS) {
      api_why(why, n, "");
      r = R_UNSUPPORTED; /* the model was refused before execution (e.g. unsupported operators) */
      goto out;
    }
    loaded = 1;
    desc = aclmdlCreateDesc();
    if (desc == NULL || aclmdlGetDesc(desc, id) != ACL_SUCCESS) {
      api_why(why, n, "api: ");
      goto out;
    }
  } else if (acl__exec_check_supported(g, &d) != 0) {
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
    acl__tensor in[MAX_IO], out[MAX_IO], want[MAX_IO];
    memset(in, 0, sizeof(in));
    memset(out, 0, sizeof(out));
    memset(want, 0, sizeof(want));
    size_t ni = g->n_inputs, no = g->n_outputs;
    int ok = 1;
    for (size_t i = 0; ok && i < ni; i++) {
      snprintf(path, sizeof(path), "%s/input_%zu.pb", sdir, i);
      ok = read_value(path, &g->tensors[g->inputs[i]], &in[i]) == 0;
    }
    for (size_t i = 0; ok && i < no; i++) {
      snprintf(path, sizeof(path), "%s/output_%zu.pb", sdir, i);
      ok = read_value(path, &g->tensors[g->outputs[i]], &want[i]) == 0;
    }
    if (!ok) {
      snprintf(why, n, "test data could not be read (types the runner does not decode)");
      r = R_UNSUPPORTED;
    } else if (*via_api) {
      ok = api_run_set(id, desc, g, in, want, out, why, n) == 0;
    } else if (acl__exec_run(g, in, ni, out, no, &d) != 0) {
      const acl__diag *e = acl__diags_first_error(&d);
      snprintf(why, n, "run: %s", e ? e->message : "?");
      ok = 0;
    }
    for (size_t i = 0; ok && i < no; i++)
      ok = compare(&out[i], &want[i], why, n) == 0;
    for (size_t i = 0; i < MAX_IO; i++) {
      acl__tensor_release(&in[i]);
      acl__tensor_release(&out[i]);
      acl__tensor_release(&want[i]);
    }
    if (!ok)
      goto out;
  }
  r = R_PASS;
out:
  if (desc != NULL)
    aclmdlDestroyDesc(desc);
  if (loaded)
    aclmdlUnload(id);
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
  CHECK_INT_EQ(aclInit(NULL), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const char *regen = getenv("OPENACL_CONFORMANCE_LIST"); /* writes a new list here */
  FILE *list = regen ? fopen(regen, "w") : NULL;
  int regressions = 0, fixed = 0, total_api = 0;
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
    int pass = 0, fail = 0, unsup = 0, api = 0, internal = 0;
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
      int via_api = 0;
      result r = run_one(dir, why, sizeof(why), &via_api);
      api += via_api;
      total_api += via_api;
      internal += !via_api;
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
    printf("%-18s %4d tests: %4d passed (%5.1f%%), %4d failed, %4d unsupported; %d through aclmdl, %d on the "
           "internal executor (sequence or string inputs/outputs, or not loadable)\n", groups[gi], total, pass,
           total ? 100.0 * pass / total : 0.0, fail, unsup, api, internal);
  }
  if (list)
    fclose(list);
  free(known_text);
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
  printf("%d regressions, %d listed tests now pass\n", regressions, fixed);
  CHECK_INT_EQ(regressions, 0);
  CHECK(total_api > 0); /* the public path must really be exercised */
}
