/*
 * recipe_driver.c - drives the classify recipe's pieces (tools/openacl/
 * image.c and recipe_classify.c) without a model or the library, so that
 * tests/tool/recipe_units.sh can compare them with Pillow and numpy:
 *
 *   recipe_driver decode FILE              -> "W H" then W*H*3 RGB bytes to OUT
 *   recipe_driver preprocess FILE N,3,H,W|N,H,W,3 ITEM OUT [--opt value]...
 *                                          -> the whole float32 batch to OUT
 *   recipe_driver postprocess C ITEM s0,s1,... [--opt value]...
 *                                          -> the recipe's report on stdout
 *
 * Exit status: the recipe's (0, 1, 2), so error paths can be tested too.
 * tool_error and friends are the tool's (common.c); minimal copies here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "recipe.h"

void tool_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("openacl: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void tool_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("openacl: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int tool_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("openacl: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "; see 'openacl %s --help'\n", cmd);
  va_end(ap);
  return TOOL_USAGE;
}

const char *tool_dtype_name(aclDataType dt) { return dt == ACL_FLOAT ? "float32" : "other"; }

static size_t parse_dims(const char *s, int64_t *dims) {
  size_t n = 0;
  while (n < 16) {
    dims[n++] = strtoll(s, (char **)&s, 10);
    if (*s != ',')
      break;
    s++;
  }
  return n;
}

/* --name value pairs to the recipe's option hook. */
static int options(const tool_recipe *r, void *self, int argc, char **argv) {
  for (int i = 0; i < argc; i += 2) {
    int rc = r->option(self, argv[i] + 2, i + 1 < argc ? argv[i + 1] : NULL);
    if (rc == 1) {
      fprintf(stderr, "recipe_driver: %s is not the recipe's\n", argv[i]);
      return TOOL_USAGE;
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}

int main(int argc, char **argv) {
  const tool_recipe *r = tool_recipe_find("classify");
  void *self = NULL;
  tool_io in = {.name = "image", .dtype = ACL_FLOAT}, out = {.name = "logits", .dtype = ACL_FLOAT, .rank = 2};
  tool_model m = {.n_in = 1, .n_out = 1, .in = &in, .out = &out};
  void *buf = NULL;
  int rc = TOOL_USAGE;

  if (argc < 3 || r == NULL)
    goto done;
  self = r->create();
  if (strcmp(argv[1], "decode") == 0 && argc == 4) {
    tool_image img;
    char err[512];
    if (tool_image_load(argv[2], &img, err, sizeof(err)) != 0) {
      fprintf(stderr, "openacl: error: %s: %s\n", argv[2], err);
      rc = TOOL_FAIL;
      goto done;
    }
    FILE *f = fopen(argv[3], "wb");
    printf("%d %d\n", img.width, img.height);
    rc = f != NULL && fwrite(img.rgb, 3, (size_t)img.width * img.height, f) == (size_t)img.width * img.height ? 0 : 1;
    if (f != NULL)
      fclose(f);
    tool_image_free(&img);
  } else if (strcmp(argv[1], "preprocess") == 0 && argc >= 6) {
    in.rank = parse_dims(argv[3], in.dims);
    out.dims[0] = in.dims[0];
    out.dims[1] = 6;
    rc = options(r, self, argc - 6, argv + 6);
    if (rc == 0)
      rc = r->load_model(self, &m);
    if (rc != 0)
      goto done;
    size_t bytes = sizeof(float);
    for (size_t i = 0; i < in.rank; i++)
      bytes *= (size_t)in.dims[i];
    buf = calloc(1, bytes);
    rc = r->preprocess(self, &m, argv[2], buf, bytes, in.dims, in.rank, (size_t)atoi(argv[4]));
    FILE *f = rc == 0 ? fopen(argv[5], "wb") : NULL;
    if (f != NULL) {
      rc = fwrite(buf, 1, bytes, f) == bytes ? 0 : 1;
      fclose(f);
    }
  } else if (strcmp(argv[1], "postprocess") == 0 && argc >= 5) {
    in.rank = 4;
    in.dims[0] = -1, in.dims[1] = 3, in.dims[2] = 8, in.dims[3] = 8;
    out.dims[0] = -1;
    out.dims[1] = atoi(argv[2]);
    rc = options(r, self, argc - 5, argv + 5);
    if (rc == 0)
      rc = r->load_model(self, &m);
    if (rc != 0)
      goto done;
    float *v = buf = calloc(1024, sizeof(float));
    size_t n = 0;
    for (char *s = argv[4]; n < 1024 && *s != '\0'; s += *s == ',')
      v[n++] = strtof(s, &s);
    int64_t dims[2] = {(int64_t)n / out.dims[1], out.dims[1]};
    rc = r->postprocess(self, &m, "scores", v, n * sizeof(float), dims, 2, (size_t)atoi(argv[3]), stdout);
  }
done:
  if (rc == TOOL_USAGE && self == NULL)
    fprintf(stderr, "usage: recipe_driver decode|preprocess|postprocess ... (see the file's comment)\n");
  free(buf);
  if (self != NULL)
    r->destroy(self);
  return rc;
}
