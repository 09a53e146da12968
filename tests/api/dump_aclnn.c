/*
 * dump_aclnn.c - dump of aclnn operators (docs/dump.md): acl.json's
 * "dump_op_switch": "on" makes every operator a stream runs write one file
 * (inputs as they were before it ran, outputs after, each view gathered
 * densely), dump_mode picks the sides, and aclDumpOpTensors dumps the
 * tensors a caller names; without a dump configuration nothing is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "dump_util.h"
#include "harness.h"

static char *json_op(const char *out, const char *mode, const char *sw) {
  char *j = NULL;
  CHECK(asprintf(&j, "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [], \"dump_op_switch\": \"%s\", "
                     "\"dump_mode\": \"%s\"}}",
                 out, sw, mode) > 0);
  return j;
}

typedef struct fx {
  char *dir, *out;
  aclrtStream s;
  void *a, *b, *y;
} fx;

/* a = 0..5 viewed as [3,2] transposed ([2,3], strides {1,2}), b = 10..15, y = a + b */
static void fx_up(fx *f, const char *mode, const char *sw) {
  f->dir = th_tmpdir();
  CHECK(asprintf(&f->out, "%s/out", f->dir) > 0);
  char *j = sw != NULL ? json_op(f->out, mode, sw) : NULL;
  du_init(f->dir, j);
  free(j);
  CHECK_INT_EQ(aclrtCreateStream(&f->s), ACL_SUCCESS);
  float ha[6], hb[6];
  for (int i = 0; i < 6; i++) {
    ha[i] = (float)i;
    hb[i] = 10.f + (float)i;
  }
  void **bufs[3] = {&f->a, &f->b, &f->y};
  for (int i = 0; i < 3; i++)
    CHECK_INT_EQ(aclrtMalloc(bufs[i], sizeof(ha), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(f->a, sizeof(ha), ha, sizeof(ha), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtMemcpy(f->b, sizeof(hb), hb, sizeof(hb), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

static void fx_down(fx *f) {
  aclrtFree(f->a);
  aclrtFree(f->b);
  aclrtFree(f->y);
  CHECK_INT_EQ(aclrtDestroyStream(f->s), ACL_SUCCESS);
  du_fini();
  th_rmtree(f->dir);
  free(f->dir);
  free(f->out);
}

static void run_add(fx *f) {
  int64_t dims[2] = {2, 3}, at[2] = {1, 2}, st[2] = {3, 1}, sd[1] = {6};
  aclTensor *a = aclCreateTensor(dims, 2, ACL_FLOAT, at, 0, ACL_FORMAT_ND, sd, 1, f->a);
  aclTensor *b = aclCreateTensor(dims, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sd, 1, f->b);
  aclTensor *y = aclCreateTensor(dims, 2, ACL_FLOAT, st, 0, ACL_FORMAT_ND, sd, 1, f->y);
  float one = 1.f;
  aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor *ex = NULL;
  CHECK_INT_EQ(aclnnAddGetWorkspaceSize(a, b, alpha, y, &ws, &ex), 0);
  CHECK_INT_EQ(aclnnAdd(NULL, 0, ex, f->s), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(f->s), ACL_SUCCESS);
  aclDestroyTensor(a);
  aclDestroyTensor(b);
  aclDestroyTensor(y);
  aclDestroyScalar(alpha);
}

/* The dump files (not the .npy beside them) of list l with needle in their names: the count, the first. */
static size_t tensor_files(char **l, const char *needle, const char **first) {
  size_t c = 0;
  for (size_t i = 0; l[i] != NULL; i++)
    if (strstr(l[i], needle) != NULL && strstr(l[i], ".npy") == NULL && c++ == 0 && first != NULL)
      *first = l[i];
  return c;
}

/* The one dump file under f->out whose name has `needle`; its parse in d. */
static void read_one(fx *f, const char *needle, du_dump *d) {
  size_t n = 0;
  char **l = du_files(f->out, &n);
  const char *rel = NULL;
  CHECK_INT_EQ(tensor_files(l, needle, &rel), 1);
  CHECK_NOT_NULL(rel);
  char *p = NULL;
  CHECK(asprintf(&p, "%s/%s", f->out, rel != NULL ? rel : "") > 0);
  CHECK_STR_HAS(p, "/0/Add.aclnnAdd."); /* {path}/{time}/{device}/{op_type}.{op_name}... */
  du_read(p, d);
  free(p);
  du_free_list(l);
}

static const float want_a[6] = {0, 2, 4, 1, 3, 5}; /* the transposed view, gathered */
static const float want_b[6] = {10, 11, 12, 13, 14, 15};
static const float want_y[6] = {10, 13, 16, 14, 17, 20};

TEST(op_switch_all) {
  fx f;
  fx_up(&f, "all", "on");
  run_add(&f);
  du_dump d;
  read_one(&f, "Add.aclnnAdd.", &d);
  CHECK_STR_EQ(d.op_name, "aclnnAdd");
  CHECK_INT_EQ(d.n_in, 2);
  CHECK_INT_EQ(d.n_out, 1);
  CHECK_INT_EQ(d.in_rank[0], 2);
  CHECK_INT_EQ(d.in_dims[0][0], 2);
  CHECK_INT_EQ(d.in_dims[0][1], 3);
  CHECK_INT_EQ(d.data_len, 3 * sizeof(want_a));
  if (d.data_len == 3 * sizeof(want_a)) {
    CHECK(memcmp(d.data, want_a, sizeof(want_a)) == 0);
    CHECK(memcmp(d.data + sizeof(want_a), want_b, sizeof(want_b)) == 0);
    CHECK(memcmp(d.data + 2 * sizeof(want_a), want_y, sizeof(want_y)) == 0);
  }
  du_dump_free(&d);
  fx_down(&f);
}

TEST(op_switch_every_run) {
  fx f;
  fx_up(&f, "output", "on");
  run_add(&f);
  run_add(&f); /* two runs, two files */
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(tensor_files(l, "Add.aclnnAdd.", NULL), 2);
  du_free_list(l);
  fx_down(&f);
}

TEST(op_switch_output_mode) {
  fx f;
  fx_up(&f, "output", "on");
  run_add(&f);
  du_dump d;
  read_one(&f, "Add.aclnnAdd.", &d);
  CHECK_INT_EQ(d.n_in, 0);
  CHECK_INT_EQ(d.n_out, 1);
  CHECK(d.data_len == sizeof(want_y) && memcmp(d.data, want_y, sizeof(want_y)) == 0);
  du_dump_free(&d);
  fx_down(&f);
}

/* dump_op_switch off, or no dump at all: no file */
TEST(op_switch_off) {
  fx f;
  fx_up(&f, "all", "off");
  run_add(&f);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(du_count(l, "aclnnAdd"), 0);
  du_free_list(l);
  fx_down(&f);
}

TEST(no_dump_configuration) {
  fx f;
  fx_up(&f, "all", NULL);
  run_add(&f);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  CHECK_INT_EQ(n, 0);
  du_free_list(l);
  fx_down(&f);
}

/* aclDumpOpTensors: the caller's tensors, inputs first, under the caller's names */
TEST(dump_op_tensors) {
  fx f;
  fx_up(&f, "output", "on"); /* aclDumpOpTensors writes every tensor, whatever dump_mode says */
  run_add(&f);
  int64_t dims[2] = {2, 3}, sd[1] = {6};
  aclTensor *t[2] = {aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, sd, 1, f.b),
                     aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, sd, 1, f.y)};
  CHECK_INT_EQ(aclDumpOpTensors("MyAdd", "my add/1", t, 1, 1, f.s), 0);
  CHECK_INT_EQ(aclrtSynchronizeStream(f.s), ACL_SUCCESS);
  size_t n = 0;
  char **l = du_files(f.out, &n);
  const char *rel = NULL;
  CHECK_INT_EQ(tensor_files(l, "/0/MyAdd.my_add_1.", &rel), 1);
  if (rel != NULL) {
    char *p = NULL;
    CHECK(asprintf(&p, "%s/%s", f.out, rel) > 0);
    du_dump d;
    du_read(p, &d);
    CHECK_INT_EQ(d.n_in, 1);
    CHECK_INT_EQ(d.n_out, 1);
    CHECK(d.data_len == 2 * sizeof(want_b) && memcmp(d.data, want_b, sizeof(want_b)) == 0 &&
          memcmp(d.data + sizeof(want_b), want_y, sizeof(want_y)) == 0);
    du_dump_free(&d);
    free(p);
  }
  du_free_list(l);
  /* host memory is refused, as phase 2 refuses it */
  float host[6] = {0};
  aclTensor *h = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, sd, 1, host);
  CHECK_INT_EQ(aclDumpOpTensors("MyAdd", "x", &h, 1, 0, f.s), 161002);
  CHECK_STR_HAS(aclGetRecentErrMsg(), "aclDumpOpTensors");
  CHECK_INT_EQ(aclDumpOpTensors("MyAdd", "x", t, 1, 1, NULL), 161001);
  aclDestroyTensor(h);
  aclDestroyTensor(t[0]);
  aclDestroyTensor(t[1]);
  fx_down(&f);
}
