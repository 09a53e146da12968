/*
 * dump.c - data dump through the public API (tests api/dump/...): the
 * acl.json `dump` section (model dump by file and graph name, layers,
 * dump_mode, stats, overflow, watcher, exception dump), the runtime API
 * aclmdlInitDump / SetDump / FinalizeDump with its ordering codes, the
 * dump callback, the path queries, the exception-info helpers, and bad
 * input (unwritable path, spaces, two streams at once).
 *
 * The model "chain" (dump_util.h): X [2,3] -> "add.1" Add(X, B=[1,2,3]) -> T
 * -> "mul1" Mul(T, T) -> Y, so with X = 1..6 the reference intermediates
 * are T = {2,4,6,5,7,9} and Y = {4,16,36,25,49,81}.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "dump_util.h"
#include "harness.h"

static const float kX[6] = {1, 2, 3, 4, 5, 6};
static const float kB[3] = {1, 2, 3};
static const float kT[6] = {2, 4, 6, 5, 7, 9};
static const float kY[6] = {4, 16, 36, 25, 49, 81};

/* acl.json text with a dump section; `rest` is the inside of "dump" after dump_path. */
static char *json_dump(const char *dump_path, const char *rest) {
  char *j = NULL;
  CHECK(asprintf(&j, "{\"dump\": {\"dump_path\": \"%s\"%s%s}}", dump_path, rest[0] ? ", " : "", rest) > 0);
  return j;
}

/* Sets up dir, dump dir `out` inside it, acl.json, aclInit, the chain model. */
typedef struct fx {
  char *dir, *out, *model;
  uint32_t id;
} fx;

static void fx_up(fx *f, const char *rest) {
  f->dir = th_tmpdir();
  CHECK(asprintf(&f->out, "%s/out", f->dir) > 0);
  f->model = du_write_chain(f->dir, "chain.onnx");
  char *j = json_dump(f->out, rest);
  du_init(f->dir, j);
  free(j);
  CHECK_INT_EQ(aclmdlLoadFromFile(f->model, &f->id), ACL_SUCCESS);
}

static void fx_down(fx *f) {
  CHECK_INT_EQ(aclmdlUnload(f->id), ACL_SUCCESS);
  du_fini();
  th_rmtree(f->dir);
  free(f->dir);
  free(f->out);
  free(f->model);
}

static void run_ok(uint32_t id) {
  float y[6];
  CHECK_INT_EQ(du_run_chain(id, kX, y, NULL), ACL_SUCCESS);
  CHECK(memcmp(y, kY, sizeof(y)) == 0);
}

static char *join(const char *a, const char *b) {
  char *p = NULL;
  CHECK(asprintf(&p, "%s/%s", a, b) > 0);
  return p;
}

/* The dump files (no .npy / .csv) of a list. */
static size_t n_tensor_files(char **l) {
  size_t c = 0;
  for (size_t i = 0; l[i] != NULL; i++)
    c += strstr(l[i], ".npy") == NULL && strstr(l[i], ".csv") == NULL;
  return c;
}

/* The timestamp after the last '.' of a file name: `digits` digits. */
static void check_stamp(const char *name, size_t digits) {
  const char *dot = strrchr(name, '.');
  CHECK_NOT_NULL(dot);
  CHECK_INT_EQ(strlen(dot + 1), digits);
  for (const char *p = dot + 1; *p; p++)
    CHECK(*p >= '0' && *p <= '9');
}

static void check_npy(const char *out, const char *rel, const float *want, size_t n, const char *shape) {
  char *p = join(out, rel), sh[64];
  size_t got = 0;
  float *v = du_read_npy_f32(p, &got, sh, sizeof(sh));
  CHECK_INT_EQ(got, n);
  CHECK(memcmp(v, want, n * sizeof(float)) == 0);
  CHECK_STR_EQ(sh, shape);
  free(v);
  free(p);
}

TEST(model_all_layers) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}], \"dump_mode\": \"all\"");
  run_ok(f.id);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(n_tensor_files(l), 2);
  char sub[64];
  snprintf(sub, sizeof(sub), "/0/chain/%u/0/", f.id);
  const char *add = du_find(l, sub, "/Add.add_1.0.", NULL);
  const char *mul = du_find(l, sub, "/Mul.mul1.1.", NULL);
  CHECK_NOT_NULL(add);
  CHECK_NOT_NULL(mul);
  CHECK_INT_EQ(strlen(strchr(add, '/') ? add : "") > 0, 1);
  CHECK_INT_EQ(strchr(add, '/') - add, 14); /* {YYYYMMDDHHMMSS}/ */
  check_stamp(add, 16);
  du_dump d;
  char *p = join(f.out, add);
  du_read(p, &d);
  CHECK_STR_EQ(d.version, "2.0");
  CHECK_STR_EQ(d.op_name, "add.1");
  CHECK_INT_EQ(d.n_in, 2);
  CHECK_INT_EQ(d.n_out, 1);
  CHECK_INT_EQ(d.in_type[0], 1); /* DT_FLOAT */
  CHECK_INT_EQ(d.in_rank[0], 2);
  CHECK_INT_EQ(d.in_dims[0][0], 2);
  CHECK_INT_EQ(d.in_dims[0][1], 3);
  CHECK_INT_EQ(d.in_rank[1], 1);
  CHECK_INT_EQ(d.data_len, sizeof(kX) + sizeof(kB) + sizeof(kT));
  CHECK(memcmp(d.data, kX, sizeof(kX)) == 0);
  CHECK(memcmp(d.data + sizeof(kX), kB, sizeof(kB)) == 0);
  CHECK(memcmp(d.data + sizeof(kX) + sizeof(kB), kT, sizeof(kT)) == 0);
  du_dump_free(&d);
  free(p);
  p = join(f.out, mul);
  du_read(p, &d);
  CHECK_STR_EQ(d.op_name, "mul1");
  CHECK(memcmp(d.data + 2 * sizeof(kT), kY, sizeof(kY)) == 0);
  du_dump_free(&d);
  free(p);
  /* the .npy beside each tensor */
  char npy[512];
  snprintf(npy, sizeof(npy), "%s.output.0.2x3.npy", mul);
  check_npy(f.out, npy, kY, 6, "2, 3");
  snprintf(npy, sizeof(npy), "%s.input.1.3.npy", add);
  check_npy(f.out, npy, kB, 3, "3,");
  snprintf(npy, sizeof(npy), "%s.input.0.2x3.npy", mul);
  check_npy(f.out, npy, kT, 6, "2, 3");
  CHECK_STR_EQ(acldumpGetPath(DATA_DUMP) != NULL ? "set" : "NULL", "set");
  CHECK_STR_HAS(acldumpGetPath(DATA_DUMP), f.out);
  du_free_list(l);
  fx_down(&f);
}

TEST(model_by_graph_name_and_layer) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain_graph\", \"layer\": [\"mul1\"]}]");
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 1);
  const char *mul = du_find(l, "/chain_graph/", "/Mul.mul1.1.", NULL);
  CHECK_NOT_NULL(mul);
  du_dump d;
  char *p = join(f.out, mul);
  du_read(p, &d);
  CHECK_INT_EQ(d.n_in, 0); /* dump_mode defaults to output */
  CHECK_INT_EQ(d.n_out, 1);
  CHECK(memcmp(d.data, kY, sizeof(kY)) == 0);
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  fx_down(&f);
}

TEST(model_input_mode) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\", \"layer\": [\"add.1\"]}], \"dump_mode\": \"input\"");
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 1);
  const char *add = du_find(l, "/Add.add_1.0.", NULL);
  CHECK_NOT_NULL(add);
  du_dump d;
  char *p = join(f.out, add);
  du_read(p, &d);
  CHECK_INT_EQ(d.n_in, 2);
  CHECK_INT_EQ(d.n_out, 0);
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  fx_down(&f);
}

TEST(model_stats) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}], \"dump_data\": \"stats\", \"dump_mode\": \"all\"");
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 0);
  CHECK_INT_EQ(du_count(l, ".npy"), 0);
  const char *mul = du_find(l, "/Mul.mul1.1.", ".csv", NULL);
  CHECK_NOT_NULL(mul);
  char *p = join(f.out, mul);
  char *text = th_read_file(p);
  CHECK_STR_EQ(text, "Input/Output,Index,Data Size,Data Type,Format,Shape,Max Value,Min Value,Avg Value,Count,"
                     "Nan Count,Negative Inf Count,Positive Inf Count\n"
                     "Input,0,24,DT_FLOAT,ND,2x3,9,2,5.5,6,0,0,0\n"
                     "Input,1,24,DT_FLOAT,ND,2x3,9,2,5.5,6,0,0,0\n"
                     "Output,0,24,DT_FLOAT,ND,2x3,81,4,35.1667,6,0,0,0\n");
  free(text);
  free(p);
  du_free_list(l);
  fx_down(&f);
}

/* dump_stats chooses the columns: Count after Shape, then the chosen ones
 * in the vendor's fixed order (l2norm last), whatever order they are given
 * in; dump_step is accepted and changes nothing for inference. */
TEST(model_stats_columns) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}], \"dump_data\": \"stats\", \"dump_mode\": \"output\", "
            "\"dump_stats\": [\"L2norm\", \"Nan\", \"Max\"], \"dump_step\": \"0|2-4\"");
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  const char *mul = du_find(l, "/Mul.mul1.1.", ".csv", NULL);
  CHECK_NOT_NULL(mul);
  char *p = join(f.out, mul);
  char *text = th_read_file(p);
  /* the output is {4, 16, 25, 36, 49, 81}: its l2norm is sqrt(11155) */
  CHECK_STR_EQ(text, "Input/Output,Index,Data Size,Data Type,Format,Shape,Count,Max Value,Nan Count,l2norm\n"
                     "Output,0,24,DT_FLOAT,ND,2x3,6,81,0,105.617\n");
  free(text);
  free(p);
  du_free_list(l);
  fx_down(&f);
}

TEST(model_data_index_and_no_match) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}, {\"model_name\": \"other\"}]");
  run_ok(f.id);
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  char a[64], b[64];
  snprintf(a, sizeof(a), "/chain/%u/0/Mul", f.id);
  snprintf(b, sizeof(b), "/chain/%u/1/Mul", f.id);
  CHECK_NOT_NULL(du_find(l, a, NULL));
  CHECK_NOT_NULL(du_find(l, b, NULL));
  CHECK_INT_EQ(du_count(l, "other"), 0);
  du_free_list(l);
  fx_down(&f);
}

TEST(model_not_listed) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"resnet50\"}]");
  run_ok(f.id);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(n, 0);
  du_free_list(l);
  fx_down(&f);
}

TEST(overflow) {
  fx f;
  fx_up(&f, "\"dump_debug\": \"on\"");
  const float big[6] = {1e20f, 1e20f, 1e20f, 1, 2, 3};
  float y[6];
  CHECK_INT_EQ(du_run_chain(f.id, big, y, NULL), ACL_SUCCESS);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 1); /* only the node that overflowed */
  const char *mul = du_find(l, "/chain/", "/Mul.mul1.1.", NULL);
  CHECK_NOT_NULL(mul);
  du_dump d;
  char *p = join(f.out, mul);
  du_read(p, &d);
  CHECK_INT_EQ(d.n_in, 2);
  CHECK_INT_EQ(d.n_out, 1);
  CHECK_STR_HAS(d.dfx, "overflow");
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  run_ok(f.id); /* finite: nothing more */
  l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 1);
  du_free_list(l);
  fx_down(&f);
}

TEST(watcher) {
  fx f;
  fx_up(&f, "\"dump_scene\": \"watcher\", \"dump_list\": [{\"layer\": [\"mul1\"], \"watcher_nodes\": [\"add.1\"]}]");
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 1);
  const char *w = du_find(l, "/Add.add_1.1.", NULL); /* task id: the trigger, mul1 */
  CHECK_NOT_NULL(w);
  du_dump d;
  char *p = join(f.out, w);
  du_read(p, &d);
  CHECK_STR_EQ(d.op_name, "add.1");
  CHECK_STR_EQ(d.attr[0], "watcher_trigger");
  CHECK_STR_EQ(d.attr[1], "mul1");
  CHECK_INT_EQ(d.n_out, 1);
  CHECK(memcmp(d.data, kT, sizeof(kT)) == 0);
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  fx_down(&f);
}

TEST(exception_failing_node) {
  char *dir = th_tmpdir(), *out = join(dir, "exc");
  char *model = du_write_reshape(dir, "reshape.onnx");
  char *j = json_dump(out, "\"dump_scene\": \"aic_err_brief_dump\"");
  du_init(dir, j);
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(model, &id), ACL_SUCCESS);
  const int64_t good[2] = {3, 2}, bad[2] = {5, 7};
  CHECK_INT_EQ(du_run_reshape(id, good), ACL_SUCCESS);
  size_t n = 0;
  char **l = du_files(out, &n);
  CHECK_INT_EQ(n, 0);
  du_free_list(l);
  CHECK_INT_NE(du_run_reshape(id, bad), ACL_SUCCESS);
  l = du_files(out, NULL);
  const char *e = du_find(l, "extra-info/data-dump/0/Reshape.reshape1.0.", NULL);
  CHECK_NOT_NULL(e);
  const char *file = NULL;
  for (size_t i = 0; l[i] != NULL; i++)
    if (strstr(l[i], "Reshape.reshape1.0.") && !strstr(l[i], ".npy"))
      file = l[i];
  CHECK_NOT_NULL(file);
  check_stamp(file, 17);
  du_dump d;
  char *p = join(out, file);
  du_read(p, &d);
  CHECK_INT_EQ(d.n_in, 2);
  CHECK_INT_EQ(d.in_type[1], 8); /* DT_INT64 */
  CHECK(memcmp(d.data + 6 * sizeof(float), bad, sizeof(bad)) == 0);
  CHECK_STR_HAS(d.dfx, "reshape1");
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(out);
  free(model);
  free(j);
}

TEST(api_order_and_codes) {
  char *dir = th_tmpdir(), *out = join(dir, "o");
  CHECK_INT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlSetDump("x.json"), ACL_ERROR_UNINITIALIZE);
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_ERROR_UNINITIALIZE);
  du_init(dir, NULL);
  char *good = NULL, *bad = NULL, *nodump = NULL;
  char *j = json_dump(out, "\"dump_list\": [{\"model_name\": \"chain\"}]");
  good = th_write_file(dir, "good.json", j);
  bad = th_write_file(dir, "bad.json", "{\"dump\": {\"dump_mode\": \"sideways\"}}");
  nodump = th_write_file(dir, "nodump.json", "{\"err_msg_mode\": \"1\"}");
  CHECK_INT_EQ(aclmdlSetDump(good), ACL_ERROR_DUMP_NOT_RUN);
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  CHECK_INT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
  CHECK_INT_EQ(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(aclmdlSetDump("/nonexistent/dump.json"), ACL_ERROR_INVALID_FILE);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclmdlSetDump");
  CHECK_INT_EQ(aclmdlSetDump(bad), ACL_ERROR_INVALID_DUMP_CONFIG);
  CHECK_INT_EQ(aclmdlSetDump(nodump), ACL_ERROR_INVALID_DUMP_CONFIG);
  CHECK_NULL(acldumpGetPath(DATA_DUMP));
  CHECK_INT_EQ(aclmdlSetDump(good), ACL_SUCCESS);
  CHECK_NOT_NULL(acldumpGetPath(DATA_DUMP));
  CHECK_NULL(acldumpGetPath((acldumpType)99));
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
  CHECK_NULL(acldumpGetPath(DATA_DUMP));
  CHECK_INT_EQ(aclmdlInitDump(), ACL_SUCCESS); /* the trio may be repeated */
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  du_fini();
  CHECK_INT_EQ(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
  th_rmtree(dir);
  free(dir);
  free(out);
  free(j);
  free(good);
  free(bad);
  free(nodump);
}

TEST(api_applies_to_later_loads) {
  char *dir = th_tmpdir(), *out = join(dir, "o"), *model = du_write_chain(dir, "chain.onnx");
  du_init(dir, NULL);
  char *j = json_dump(out, "\"dump_list\": [{\"model_name\": \"chain\"}]");
  char *cfg = th_write_file(dir, "dump.json", j);
  uint32_t before = 0, after = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(model, &before), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDump(cfg), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlLoadFromFile(model, &after), ACL_SUCCESS);
  run_ok(before);
  size_t n = 0;
  char **l = du_files(out, &n);
  CHECK_INT_EQ(n, 0);
  du_free_list(l);
  run_ok(after);
  l = du_files(out, NULL);
  char sub[64];
  snprintf(sub, sizeof(sub), "/chain/%u/0/Mul.mul1.1.", after);
  CHECK_NOT_NULL(du_find(l, sub, NULL));
  size_t files = n_tensor_files(l);
  du_free_list(l);
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  run_ok(after); /* dump is off now */
  l = du_files(out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), files);
  du_free_list(l);
  CHECK_INT_EQ(aclmdlUnload(before), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlUnload(after), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(out);
  free(model);
  free(j);
  free(cfg);
}

TEST(api_after_json_dump) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}]");
  CHECK_INT_EQ(aclmdlInitDump(), ACL_ERROR_DUMP_ALREADY_RUN);
  fx_down(&f);
}

/* ---- the callback ---------------------------------------------------------- */

static struct {
  char name[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  unsigned char *bytes;
  size_t len;
  int chunks, last, bad_len, files;
} cb_seen;

static int32_t dump_cb(const acldumpChunk *c, int32_t len) {
  if ((size_t)len != sizeof(acldumpChunk) + c->bufLen)
    cb_seen.bad_len++;
  if (strstr(c->fileName, "/Mul.mul1.") != NULL) {
    if (cb_seen.name[0] == '\0')
      snprintf(cb_seen.name, sizeof(cb_seen.name), "%s", c->fileName);
    if ((size_t)c->offset != cb_seen.len)
      cb_seen.bad_len++;
    cb_seen.bytes = realloc(cb_seen.bytes, cb_seen.len + c->bufLen);
    memcpy(cb_seen.bytes + cb_seen.len, c->dataBuf, c->bufLen);
    cb_seen.len += c->bufLen;
    cb_seen.chunks++;
  }
  cb_seen.last += c->isLastChunk == 1;
  return 0;
}

TEST(callback_chunks) {
  CHECK_INT_EQ(sizeof(acldumpChunk), 4120);
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\"}], \"dump_mode\": \"all\"");
  CHECK_INT_EQ(acldumpRegCallback(NULL, 0), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(acldumpRegCallback(dump_cb, 1), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(acldumpRegCallback(dump_cb, 0), ACL_SUCCESS);
  run_ok(f.id);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(n, 0); /* the callback gets the data instead of the disk */
  du_free_list(l);
  CHECK_INT_EQ(cb_seen.bad_len, 0);
  CHECK_INT_EQ(cb_seen.last, 2); /* two files, each ends once */
  CHECK_INT_EQ(cb_seen.chunks, 1);
  CHECK_STR_HAS(cb_seen.name, f.out);
  CHECK(cb_seen.name[0] == '/');
  char *p = join(f.dir, "from_cb");
  FILE *w = fopen(p, "wb");
  CHECK_NOT_NULL(w);
  CHECK_INT_EQ(fwrite(cb_seen.bytes, 1, cb_seen.len, w), cb_seen.len);
  fclose(w);
  du_dump d;
  du_read(p, &d);
  CHECK_STR_EQ(d.op_name, "mul1");
  CHECK(memcmp(d.data + 2 * sizeof(kT), kY, sizeof(kY)) == 0);
  du_dump_free(&d);
  free(p);
  acldumpUnregCallback();
  run_ok(f.id);
  l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 2);
  du_free_list(l);
  free(cb_seen.bytes);
  fx_down(&f);
}

/* ---- exception info, paths, operator info record ----------------------------------- */

TEST(exception_info_api) {
  char *dir = th_tmpdir(), *out = join(dir, "exc");
  char buf[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  du_init(dir, NULL);
  CHECK_INT_EQ(acldumpGetExceptionInfoPath(buf, sizeof(buf)), ACL_ERROR_FAILURE); /* exception dump off */
  du_fini();
  char *j = json_dump(out, "\"dump_scene\": \"aic_err_brief_dump\"");
  du_init(dir, j);
  CHECK_INT_EQ(acldumpGetExceptionInfoPath(NULL, sizeof(buf)), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acldumpGetExceptionInfoPath(buf, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acldumpGetExceptionInfoPath(buf, 8), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acldumpGetExceptionInfoPath(buf, sizeof(buf)), ACL_SUCCESS);
  CHECK_STR_HAS(buf, "/exc/extra-info/data-dump/0/");
  CHECK_STR_HAS(acldumpGetPath(AIC_ERR_BRIEF_DUMP), "/exc/extra-info/data-dump");

  const float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  void *dev = NULL;
  CHECK_INT_EQ(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  acldumpTensorInfo t;
  memset(&t, 0, sizeof(t));
  t.type = ACL_DUMP_TENSOR_INPUT;
  t.tensorSize = sizeof(host);
  t.format = ACL_FORMAT_ND;
  t.dataType = ACL_FLOAT;
  t.tensorAddr = dev;
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  t.shapeNum = 2;
  t.shape[0] = 4;
  t.shape[1] = 2;
  CHECK_INT_EQ(acldumpSaveExceptionInfo(NULL, "x", &t, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acldumpSaveExceptionInfo("../up", "x", &t, 1), ACL_ERROR_INVALID_PARAM);
  CHECK_INT_EQ(acldumpSaveExceptionInfo("f", "x", &t, 0), ACL_ERROR_INVALID_PARAM);
  t.addrType = ACL_DUMP_ADDR_PTR;
  CHECK_INT_EQ(acldumpSaveExceptionInfo("f", "x", &t, 1), ACL_ERROR_INVALID_PARAM);
  t.addrType = ACL_DUMP_ADDR_RAW;
  CHECK_INT_EQ(acldumpSaveExceptionInfo("save_exception_info", "component=demo;stage=forward", &t, 1), ACL_SUCCESS);
  char **l = du_files(buf, NULL);
  const char *file = du_find(l, "save_exception_info.custom.", NULL);
  CHECK_NOT_NULL(file);
  check_stamp(file, 17);
  char *p = join(buf, file);
  struct stat st;
  CHECK_INT_EQ(stat(p, &st), 0);
  CHECK_INT_EQ(st.st_mode & 0777, 0400);
  du_dump d;
  du_read(p, &d);
  CHECK_STR_EQ(d.op_name, "save_exception_info");
  CHECK_STR_EQ(d.attr[0], "user_tag");
  CHECK_STR_EQ(d.attr[1], "component=demo;stage=forward");
  CHECK_INT_EQ(d.n_in, 1);
  CHECK(memcmp(d.data, host, sizeof(host)) == 0);
  du_dump_free(&d);
  free(p);
  du_free_list(l);
  CHECK_INT_EQ(aclrtFree(dev), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(out);
  free(j);
}

TEST(op_dump_args) {
  char *dir = th_tmpdir(), *args = join(dir, "args dir/sub");
  du_init(dir, NULL);
  CHECK_INT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, NULL), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(aclopStartDumpArgs(0, args), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS); /* not started: no-op */
  CHECK_INT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, args), ACL_SUCCESS);
  struct stat st;
  CHECK_INT_EQ(stat(args, &st), 0);
  CHECK(S_ISDIR(st.st_mode));
  CHECK_INT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, args), ACL_ERROR_FAILURE);
  CHECK_INT_EQ(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS);
  CHECK_INT_EQ(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, "/proc/openacl-no"), ACL_ERROR_FAILURE);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(args);
}

/* ---- bad input --------------------------------------------------------------------- */

TEST(unwritable_path) {
  char *dir = th_tmpdir(), *model = du_write_chain(dir, "chain.onnx");
  du_init(dir, NULL);
  char *cfg = th_write_file(dir, "d.json",
                            "{\"dump\": {\"dump_path\": \"/proc/openacl-no\", \"dump_list\": [{\"model_name\": "
                            "\"chain\"}]}}");
  CHECK_INT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlSetDump(cfg), ACL_ERROR_INVALID_DUMP_CONFIG);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "/proc/openacl-no");
  CHECK_INT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  du_fini();
  /* in acl.json the path is only warned about; executions still succeed */
  du_init(dir, "{\"dump\": {\"dump_path\": \"/proc/openacl-no\", \"dump_list\": [{\"model_name\": \"chain\"}]}}");
  uint32_t id = 0;
  CHECK_INT_EQ(aclmdlLoadFromFile(model, &id), ACL_SUCCESS);
  run_ok(id);
  CHECK_INT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  du_fini();
  th_rmtree(dir);
  free(dir);
  free(model);
  free(cfg);
}

TEST(path_with_spaces) {
  fx f;
  f.dir = th_tmpdir();
  CHECK(asprintf(&f.out, "%s/my dump dir", f.dir) > 0);
  f.model = du_write_chain(f.dir, "my chain.v1.onnx");
  char *j = json_dump(f.out, "\"dump_list\": [{\"model_name\": \"my chain.v1\"}]");
  du_init(f.dir, j);
  free(j);
  CHECK_INT_EQ(aclmdlLoadFromFile(f.model, &f.id), ACL_SUCCESS);
  run_ok(f.id);
  char **l = du_files(f.out, NULL);
  CHECK_NOT_NULL(du_find(l, "/my_chain_v1/", "/Mul.mul1.1.", NULL)); /* model name: ' ' and '.' become '_' */
  du_free_list(l);
  fx_down(&f);
}

typedef struct worker {
  aclrtContext ctx;
  uint32_t id;
  int failures;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  aclrtStream s = NULL;
  if (aclrtSetCurrentContext(w->ctx) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
    w->failures++;
    return NULL;
  }
  for (int i = 0; i < 3; i++) {
    float y[6];
    if (du_run_chain(w->id, kX, y, s) != ACL_SUCCESS || memcmp(y, kY, sizeof(y)) != 0)
      w->failures++;
  }
  aclrtDestroyStream(s);
  return NULL;
}

TEST(two_streams) {
  fx f;
  fx_up(&f, "\"dump_list\": [{\"model_name\": \"chain\", \"layer\": [\"mul1\"]}]");
  aclrtContext ctx = NULL;
  CHECK_INT_EQ(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
  worker w[2] = {{ctx, f.id, 0}, {ctx, f.id, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
  for (int i = 0; i < 2; i++)
    CHECK_INT_EQ(pthread_join(t[i], NULL), 0);
  CHECK_INT_EQ(w[0].failures + w[1].failures, 0);
  char **l = du_files(f.out, NULL);
  CHECK_INT_EQ(n_tensor_files(l), 6);
  for (int i = 0; i < 6; i++) {
    char sub[64];
    snprintf(sub, sizeof(sub), "/chain/%u/%d/Mul.mul1.1.", f.id, i);
    CHECK_NOT_NULL(du_find(l, sub, NULL));
  }
  du_free_list(l);
  fx_down(&f);
}
