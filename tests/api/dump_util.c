/* dump_util.c - see dump_util.h. */
#include "dump_util.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "onnx.pb-c.h"

/* ---- models ----------------------------------------------------------------------- */

typedef struct vinfo {
  Onnx__ValueInfoProto v;
  Onnx__TypeProto t;
  Onnx__TypeProto__Tensor tt;
  Onnx__TensorShapeProto sh;
  Onnx__TensorShapeProto__Dimension d[2];
  Onnx__TensorShapeProto__Dimension *dp[2];
} vinfo;

/* rank -1: no shape */
static Onnx__ValueInfoProto *vi(vinfo *b, const char *name, int elem, int rank, const int64_t *dims) {
  onnx__value_info_proto__init(&b->v);
  onnx__type_proto__init(&b->t);
  onnx__type_proto__tensor__init(&b->tt);
  onnx__tensor_shape_proto__init(&b->sh);
  b->v.name = (char *)name;
  b->v.type = &b->t;
  b->t.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  b->t.tensor_type = &b->tt;
  b->tt.has_elem_type = 1;
  b->tt.elem_type = elem;
  if (rank >= 0) {
    b->tt.shape = &b->sh;
    b->sh.n_dim = (size_t)rank;
    b->sh.dim = b->dp;
    for (int i = 0; i < rank; i++) {
      onnx__tensor_shape_proto__dimension__init(&b->d[i]);
      b->d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
      b->d[i].dim_value = dims[i];
      b->dp[i] = &b->d[i];
    }
  }
  return &b->v;
}

static void node(Onnx__NodeProto *n, const char *op, const char *name, char **in, size_t n_in, char **out) {
  onnx__node_proto__init(n);
  n->op_type = (char *)op;
  n->name = (char *)name;
  n->n_input = n_in;
  n->input = in;
  n->n_output = 1;
  n->output = out;
}

static char *pack_to(const char *dir, const char *file, Onnx__GraphProto *graph) {
  Onnx__ModelProto model;
  Onnx__OperatorSetIdProto opset, *opset_p[1] = {&opset};
  onnx__model_proto__init(&model);
  onnx__operator_set_id_proto__init(&opset);
  opset.domain = "";
  opset.has_version = 1;
  opset.version = 13;
  model.has_ir_version = 1;
  model.ir_version = 7;
  model.producer_name = "dump-test";
  model.n_opset_import = 1;
  model.opset_import = opset_p;
  model.graph = graph;
  size_t size = onnx__model_proto__get_packed_size(&model);
  uint8_t *buf = malloc(size);
  CHECK_NOT_NULL(buf);
  CHECK_INT_EQ(onnx__model_proto__pack(&model, buf), size);
  char *path = NULL;
  CHECK(asprintf(&path, "%s/%s", dir, file) > 0);
  FILE *f = fopen(path, "wb");
  CHECK_NOT_NULL(f);
  CHECK_INT_EQ(fwrite(buf, 1, size, f), size);
  CHECK_INT_EQ(fclose(f), 0);
  free(buf);
  return path;
}

char *du_write_chain(const char *dir, const char *file) {
  static const float bias[3] = {1, 2, 3};
  const int64_t d23[2] = {2, 3}, d3[1] = {3};
  const int F = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
  Onnx__GraphProto graph;
  onnx__graph_proto__init(&graph);
  graph.name = "chain_graph";
  vinfo vx, vy;
  Onnx__ValueInfoProto *in_p[1] = {vi(&vx, "X", F, 2, d23)}, *out_p[1] = {vi(&vy, "Y", F, 2, d23)};
  graph.n_input = 1;
  graph.input = in_p;
  graph.n_output = 1;
  graph.output = out_p;
  Onnx__TensorProto w, *init_p[1] = {&w};
  onnx__tensor_proto__init(&w);
  w.name = "B";
  w.has_data_type = 1;
  w.data_type = F;
  w.n_dims = 1;
  w.dims = (int64_t *)d3;
  w.has_raw_data = 1;
  w.raw_data.len = sizeof(bias);
  w.raw_data.data = (uint8_t *)bias;
  graph.n_initializer = 1;
  graph.initializer = init_p;
  Onnx__NodeProto n0, n1, *node_p[2] = {&n0, &n1};
  char *in0[2] = {"X", "B"}, *out0[1] = {"T"}, *in1[2] = {"T", "T"}, *out1[1] = {"Y"};
  node(&n0, "Add", "add.1", in0, 2, out0);
  node(&n1, "Mul", "mul1", in1, 2, out1);
  graph.n_node = 2;
  graph.node = node_p;
  return pack_to(dir, file, &graph);
}

char *du_write_reshape(const char *dir, const char *file) {
  const int64_t d23[2] = {2, 3}, d2[1] = {2};
  Onnx__GraphProto graph;
  onnx__graph_proto__init(&graph);
  graph.name = "reshape_graph";
  vinfo vx, vs, vy;
  Onnx__ValueInfoProto *in_p[2] = {vi(&vx, "X", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 2, d23),
                                   vi(&vs, "S", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, d2)};
  Onnx__ValueInfoProto *out_p[1] = {vi(&vy, "Y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, -1, NULL)};
  graph.n_input = 2;
  graph.input = in_p;
  graph.n_output = 1;
  graph.output = out_p;
  Onnx__NodeProto n0, *node_p[1] = {&n0};
  char *in0[2] = {"X", "S"}, *out0[1] = {"Y"};
  node(&n0, "Reshape", "reshape1", in0, 2, out0);
  graph.n_node = 1;
  graph.node = node_p;
  return pack_to(dir, file, &graph);
}

/* ---- process ------------------------------------------------------------------------ */

void du_init(const char *dir, const char *json) {
  char *path = json != NULL ? th_write_file(dir, "acl.json", json) : NULL;
  CHECK_INT_EQ(aclInit(path), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  free(path);
}

void du_fini(void) {
  CHECK_INT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  CHECK_INT_EQ(aclFinalize(), ACL_SUCCESS);
}

typedef struct dev_buf {
  void *dev;
  aclDataBuffer *db;
} dev_buf;

static void buf_make(dev_buf *b, const void *host, size_t size) {
  CHECK_INT_EQ(aclrtMalloc(&b->dev, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  if (host != NULL)
    CHECK_INT_EQ(aclrtMemcpy(b->dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  b->db = aclCreateDataBuffer(b->dev, size);
  CHECK_NOT_NULL(b->db);
}

static void buf_free(dev_buf *b) {
  CHECK_INT_EQ(aclDestroyDataBuffer(b->db), ACL_SUCCESS);
  CHECK_INT_EQ(aclrtFree(b->dev), ACL_SUCCESS);
}

int du_run_chain(uint32_t id, const float *x, float *y, aclrtStream stream) {
  dev_buf bx, by;
  buf_make(&bx, x, 6 * sizeof(float));
  buf_make(&by, NULL, 6 * sizeof(float));
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, bx.db), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, by.db), ACL_SUCCESS);
  int rc;
  if (stream == NULL) {
    rc = aclmdlExecute(id, in, out);
  } else {
    rc = aclmdlExecuteAsync(id, in, out, stream);
    if (rc == 0)
      rc = aclrtSynchronizeStream(stream);
  }
  if (rc == 0 && y != NULL)
    CHECK_INT_EQ(aclrtMemcpy(y, 6 * sizeof(float), by.dev, 6 * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST), 0);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  buf_free(&bx);
  buf_free(&by);
  return rc;
}

int du_run_reshape(uint32_t id, const int64_t *s) {
  static const float x[6] = {1, 2, 3, 4, 5, 6};
  dev_buf bx, bs, by;
  buf_make(&bx, x, sizeof(x));
  buf_make(&bs, s, 2 * sizeof(int64_t));
  buf_make(&by, NULL, 6 * sizeof(float));
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, bx.db), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(in, bs.db), ACL_SUCCESS);
  CHECK_INT_EQ(aclmdlAddDatasetBuffer(out, by.db), ACL_SUCCESS);
  int rc = aclmdlExecute(id, in, out);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  buf_free(&bx);
  buf_free(&bs);
  buf_free(&by);
  return rc;
}

/* ---- files --------------------------------------------------------------------------- */

typedef struct list {
  char **v;
  size_t n, cap;
} list;

static void walk(const char *root, const char *rel, list *l) {
  char *path = NULL;
  CHECK(asprintf(&path, "%s%s%s", root, rel[0] ? "/" : "", rel) > 0);
  DIR *d = opendir(path);
  free(path);
  if (d == NULL)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    char *child = NULL, *full = NULL;
    CHECK(asprintf(&child, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) > 0);
    CHECK(asprintf(&full, "%s/%s", root, child) > 0);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
      walk(root, child, l);
      free(child);
    } else {
      if (l->n + 2 > l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, l->cap * sizeof(*l->v));
        CHECK_NOT_NULL(l->v);
      }
      l->v[l->n++] = child;
    }
    free(full);
  }
  closedir(d);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **du_files(const char *dir, size_t *n) {
  list l = {0};
  l.v = calloc(1, sizeof(*l.v));
  l.cap = 1;
  walk(dir, "", &l);
  if (l.n > 0)
    qsort(l.v, l.n, sizeof(*l.v), cmp_str);
  if (l.n + 1 > l.cap)
    l.v = realloc(l.v, (l.n + 1) * sizeof(*l.v));
  l.v[l.n] = NULL;
  if (n != NULL)
    *n = l.n;
  return l.v;
}

void du_free_list(char **l) {
  for (size_t i = 0; l != NULL && l[i] != NULL; i++)
    free(l[i]);
  free(l);
}

const char *du_find(char **l, ...) {
  for (size_t i = 0; l[i] != NULL; i++) {
    va_list ap;
    va_start(ap, l);
    int all = 1;
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
      all &= strstr(l[i], s) != NULL;
    va_end(ap);
    if (all)
      return l[i];
  }
  return NULL;
}

size_t du_count(char **l, const char *needle) {
  size_t c = 0;
  for (size_t i = 0; l[i] != NULL; i++)
    c += strstr(l[i], needle) != NULL;
  return c;
}

/* ---- reading a dump file ---------------------------------------------------------------- */

typedef struct rd {
  const unsigned char *p, *end;
} rd;

static uint64_t rd_varint(rd *r) {
  uint64_t v = 0;
  for (int s = 0; s < 64; s += 7) {
    CHECK(r->p < r->end);
    unsigned char b = *r->p++;
    v |= (uint64_t)(b & 0x7f) << s;
    if (!(b & 0x80))
      return v;
  }
  th_fail(__FILE__, __LINE__, "bad varint");
}

/* OpInput / OpOutput: data_type 1, shape 3; size 5 (input) / 6 (output). */
static void rd_tensor(rd r, int input, uint64_t *size, int *type, int *rank, uint64_t *dims) {
  while (r.p < r.end) {
    uint64_t k = rd_varint(&r);
    unsigned f = (unsigned)(k >> 3), wt = (unsigned)(k & 7);
    if (wt == 0) {
      uint64_t v = rd_varint(&r);
      if (f == 1)
        *type = (int)v;
      if (f == (input ? 5u : 6u))
        *size = v;
    } else {
      CHECK_INT_EQ(wt, 2);
      uint64_t len = rd_varint(&r);
      CHECK(len <= (uint64_t)(r.end - r.p));
      if (f == 3) { /* Shape { packed dim = 1 } */
        rd s = {r.p, r.p + len};
        while (s.p < s.end) {
          uint64_t kk = rd_varint(&s);
          CHECK_INT_EQ(kk, (1 << 3) | 2);
          uint64_t pl = rd_varint(&s);
          rd d = {s.p, s.p + pl};
          while (d.p < d.end && *rank < 8)
            dims[(*rank)++] = rd_varint(&d);
          s.p += pl;
        }
      }
      r.p += len;
    }
  }
}

static void copy_str(char *dst, size_t n, const unsigned char *p, uint64_t len) {
  size_t c = len < n - 1 ? (size_t)len : n - 1;
  memcpy(dst, p, c);
  dst[c] = '\0';
}

void du_read(const char *path, du_dump *d) {
  memset(d, 0, sizeof(*d));
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    th_fail(__FILE__, __LINE__, "cannot open dump file %s", path);
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *all = malloc((size_t)sz + 1);
  CHECK_NOT_NULL(all);
  CHECK_INT_EQ(fread(all, 1, (size_t)sz, f), sz);
  fclose(f);
  d->file_len = (size_t)sz;
  CHECK(sz >= 8);
  uint64_t n = 0;
  for (int i = 0; i < 8; i++)
    n |= (uint64_t)all[i] << (8 * i);
  CHECK(n <= (uint64_t)sz - 8);
  rd r = {all + 8, all + 8 + n};
  while (r.p < r.end) {
    uint64_t k = rd_varint(&r);
    unsigned fld = (unsigned)(k >> 3), wt = (unsigned)(k & 7);
    if (wt == 0) {
      rd_varint(&r);
      continue;
    }
    CHECK_INT_EQ(wt, 2);
    uint64_t len = rd_varint(&r);
    CHECK(len <= (uint64_t)(r.end - r.p));
    if (fld == 1)
      copy_str(d->version, sizeof(d->version), r.p, len);
    else if (fld == 6)
      copy_str(d->op_name, sizeof(d->op_name), r.p, len);
    else if (fld == 9)
      copy_str(d->dfx, sizeof(d->dfx), r.p, len);
    else if (fld == 7) {
      rd a = {r.p, r.p + len};
      while (a.p < a.end) {
        uint64_t kk = rd_varint(&a);
        uint64_t l = rd_varint(&a);
        unsigned af = (unsigned)(kk >> 3);
        if (af == 1 || af == 2)
          copy_str(d->attr[af - 1], sizeof(d->attr[0]), a.p, l);
        a.p += l;
      }
    } else if (fld == 4 && d->n_in < 8) {
      size_t i = d->n_in++;
      rd_tensor((rd){r.p, r.p + len}, 1, &d->in_size[i], &d->in_type[i], &d->in_rank[i], d->in_dims[i]);
    } else if (fld == 3 && d->n_out < 8) {
      size_t i = d->n_out++;
      rd_tensor((rd){r.p, r.p + len}, 0, &d->out_size[i], &d->out_type[i], &d->out_rank[i], d->out_dims[i]);
    }
    r.p += len;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < d->n_in; i++)
    total += d->in_size[i];
  for (size_t i = 0; i < d->n_out; i++)
    total += d->out_size[i];
  CHECK_INT_EQ(8 + n + total, (uint64_t)sz); /* the raw bytes are exactly the tensors' sizes */
  d->data_len = (size_t)total;
  d->data = malloc(d->data_len + 1);
  CHECK_NOT_NULL(d->data);
  memcpy(d->data, all + 8 + n, d->data_len);
  free(all);
}

void du_dump_free(du_dump *d) {
  free(d->data);
  d->data = NULL;
}

float *du_read_npy_f32(const char *path, size_t *n, char *shape, size_t shape_len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    th_fail(__FILE__, __LINE__, "cannot open %s", path);
  unsigned char pre[10];
  CHECK_INT_EQ(fread(pre, 1, 10, f), 10);
  CHECK(memcmp(pre, "\x93NUMPY", 6) == 0);
  size_t hlen = (size_t)pre[8] | ((size_t)pre[9] << 8);
  CHECK_INT_EQ((10 + hlen) % 64, 0);
  char *h = calloc(1, hlen + 1);
  CHECK_NOT_NULL(h);
  CHECK_INT_EQ(fread(h, 1, hlen, f), hlen);
  CHECK_STR_HAS(h, "'descr': '<f4'");
  char *s = strstr(h, "'shape': (");
  CHECK_NOT_NULL(s);
  s += 10;
  char *e = strchr(s, ')');
  CHECK_NOT_NULL(e);
  snprintf(shape, shape_len, "%.*s", (int)(e - s), s);
  free(h);
  long here = ftell(f);
  fseek(f, 0, SEEK_END);
  size_t bytes = (size_t)(ftell(f) - here);
  fseek(f, here, SEEK_SET);
  float *v = malloc(bytes + sizeof(float));
  CHECK_NOT_NULL(v);
  CHECK_INT_EQ(fread(v, 1, bytes, f), bytes);
  fclose(f);
  *n = bytes / sizeof(float);
  return v;
}
