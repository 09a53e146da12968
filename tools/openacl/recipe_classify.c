/*
 * recipe_classify.c - the "classify" recipe: JPEG/PNG pictures in, the top-k
 * classes out, for any image classifier with one float32 input [N,3,H,W] or
 * [N,H,W,3] and one output [N,classes] (or [N,classes,1,1]).
 *
 * Preprocessing is torchvision's ImageNet evaluation transform, because that
 * is what almost every published classifier was evaluated with:
 *   Resize(round(S * 256 / 224)) - shorter side scaled, aspect kept,
 *                                  bilinear, antialiased when shrinking
 *   CenterCrop(H, W)             - S = max(H, W), the model's size
 *   ToTensor + Normalize(mean, std) on 0..1 values, ImageNet's by default
 * A plain resize (stretching the picture to H x W, no crop) is --resize H,W
 * with the model's own size.  docs/recipes.md describes every option.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "image.h"
#include "recipe.h"

enum { LAYOUT_AUTO, LAYOUT_NCHW, LAYOUT_NHWC };
enum { SOFTMAX_AUTO, SOFTMAX_YES, SOFTMAX_NO };

typedef struct classify {
  /* options */
  char *labels_path;
  int topk;
  float mean[3], std[3];
  int resize_h, resize_w; /* 0,0: default; h>0,w==0: shorter side to h; both: exactly h x w */
  int layout;             /* asked for; then the one in use after load_model */
  int softmax;
  /* from the labels file */
  char **labels;
  size_t n_labels;
} classify;

static void *classify_create(void) {
  classify *c = calloc(1, sizeof(*c));
  if (c == NULL)
    return NULL;
  c->topk = 5;
  c->mean[0] = 0.485f, c->mean[1] = 0.456f, c->mean[2] = 0.406f;
  c->std[0] = 0.229f, c->std[1] = 0.224f, c->std[2] = 0.225f;
  return c;
}

static void classify_destroy(void *self) {
  classify *c = self;
  if (c == NULL)
    return;
  for (size_t i = 0; i < c->n_labels; i++)
    free(c->labels[i]);
  free(c->labels);
  free(c->labels_path);
  free(c);
}

/* "a,b,c" -> exactly n floats; 0 or -1. */
static int parse_floats(const char *s, float *out, int n) {
  for (int i = 0; i < n; i++) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno != 0 || !isfinite(v))
      return -1;
    out[i] = (float)v;
    if (i + 1 < n) {
      if (*end != ',')
        return -1;
      s = end + 1;
    } else if (*end != '\0') {
      return -1;
    }
  }
  return 0;
}

/* A positive int up to `max`, the whole string; -1 if not. */
static long parse_count(const char *s, long max) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < 1 || v > max)
    return -1;
  return v;
}

static int classify_option(void *self, const char *name, const char *value) {
  classify *c = self;
  static const char *const mine[] = {"labels", "topk", "mean", "std", "resize", "layout", "softmax", NULL};
  int known = 0;
  for (size_t i = 0; mine[i] != NULL; i++)
    known |= strcmp(name, mine[i]) == 0;
  if (!known)
    return 1;
  if (value == NULL || value[0] == '\0')
    return tool_usage_error("infer", "--%s needs a value (recipe classify)", name);
  if (strcmp(name, "labels") == 0) {
    free(c->labels_path);
    c->labels_path = strdup(value);
    if (c->labels_path == NULL) {
      tool_error("out of memory");
      return TOOL_FAIL;
    }
  } else if (strcmp(name, "topk") == 0) {
    long k = parse_count(value, 1000000);
    if (k < 0)
      return tool_usage_error("infer", "--topk '%s': expected a whole number of classes, at least 1", value);
    c->topk = (int)k;
  } else if (strcmp(name, "mean") == 0 || strcmp(name, "std") == 0) {
    int is_std = name[0] == 's';
    float v[3];
    if (parse_floats(value, v, 3) != 0 || (is_std && (v[0] <= 0 || v[1] <= 0 || v[2] <= 0)))
      return tool_usage_error("infer", "--%s '%s': expected three %snumbers R,G,B for 0..1 pixel values, e.g. %s", name,
                              value, is_std ? "positive " : "", is_std ? "0.229,0.224,0.225" : "0.485,0.456,0.406");
    memcpy(is_std ? c->std : c->mean, v, sizeof(v));
  } else if (strcmp(name, "resize") == 0) {
    const char *comma = strchr(value, ',');
    char first[32];
    long h, w = 0;
    size_t n = comma != NULL ? (size_t)(comma - value) : strlen(value);
    if (n >= sizeof(first))
      n = sizeof(first) - 1;
    memcpy(first, value, n);
    first[n] = '\0';
    h = parse_count(first, 65535);
    if (comma != NULL)
      w = parse_count(comma + 1, 65535);
    if (h < 0 || w < 0)
      return tool_usage_error("infer", "--resize '%s': expected N (shorter side) or H,W in pixels, e.g. 256 or 224,224",
                              value);
    c->resize_h = (int)h;
    c->resize_w = (int)w;
  } else if (strcmp(name, "layout") == 0) {
    if (strcmp(value, "NCHW") == 0 || strcmp(value, "nchw") == 0)
      c->layout = LAYOUT_NCHW;
    else if (strcmp(value, "NHWC") == 0 || strcmp(value, "nhwc") == 0)
      c->layout = LAYOUT_NHWC;
    else
      return tool_usage_error("infer", "--layout '%s': expected NCHW or NHWC", value);
  } else {
    if (strcmp(value, "auto") == 0)
      c->softmax = SOFTMAX_AUTO;
    else if (strcmp(value, "yes") == 0)
      c->softmax = SOFTMAX_YES;
    else if (strcmp(value, "no") == 0)
      c->softmax = SOFTMAX_NO;
    else
      return tool_usage_error("infer", "--softmax '%s': expected yes, no or auto", value);
  }
  return 0;
}

/* One label per line; '\r' and trailing blanks dropped; a final empty line
 * is not a label.  0 or TOOL_FAIL (message printed). */
static int load_labels(classify *c) {
  FILE *f = fopen(c->labels_path, "r");
  char *line = NULL;
  size_t cap = 0, room = 0;
  ssize_t len;
  int rc = TOOL_FAIL;

  if (f == NULL) {
    tool_error("--labels %s: cannot open: %s", c->labels_path, strerror(errno));
    return TOOL_FAIL;
  }
  while ((len = getline(&line, &cap, f)) >= 0) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
      line[--len] = '\0';
    if (c->n_labels == room) {
      size_t grow = room ? room * 2 : 64;
      char **more = realloc(c->labels, grow * sizeof(*more));
      if (more == NULL)
        break;
      c->labels = more;
      room = grow;
    }
    c->labels[c->n_labels] = strdup(line);
    if (c->labels[c->n_labels] == NULL)
      break;
    c->n_labels++;
  }
  if (ferror(f) || !feof(f)) { /* a read error, or the loop stopped for memory */
    tool_error("--labels %s: %s", c->labels_path, ferror(f) ? strerror(errno) : "out of memory");
    goto done;
  }
  /* a file ending in a blank line: that line is not a class */
  while (c->n_labels > 0 && c->labels[c->n_labels - 1][0] == '\0')
    free(c->labels[--c->n_labels]);
  if (c->n_labels == 0) {
    tool_error("--labels %s: the file has no labels (expected one class name per line)", c->labels_path);
    goto done;
  }
  rc = 0;
done:
  free(line);
  fclose(f);
  return rc;
}

/* Classes in output 0 from its declared dims: [N,C] or [N,C,1,1]; 0 when
 * undeclared or dynamic (checked again on the actual output); -1 when the
 * shape is not a classifier's. */
static int64_t output_classes(const int64_t *dims, size_t rank) {
  if (rank == 0)
    return 0;
  if (rank == 2 || (rank == 4 && (dims[2] == 1 || dims[2] == -1) && (dims[3] == 1 || dims[3] == -1)))
    return dims[1] > 0 ? dims[1] : 0;
  return -1;
}

static void print_dims(char *buf, size_t n, const int64_t *dims, size_t rank) {
  size_t used = 0;
  buf[0] = '\0';
  used += (size_t)snprintf(buf, n, "[");
  for (size_t i = 0; i < rank && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (used < n)
    snprintf(buf + used, n - used, "]");
}

static int classify_load_model(void *self, const tool_model *m) {
  classify *c = self;
  char shape[160];

  if (m->n_in != 1 || m->n_out < 1) {
    tool_error("recipe classify needs a model with one image input and a class-score output; this one has %zu "
               "inputs and %zu outputs",
               m->n_in, m->n_out);
    return TOOL_FAIL;
  }
  const tool_io *in = &m->in[0], *out = &m->out[0];
  print_dims(shape, sizeof(shape), in->dims, in->rank);
  if (in->dtype != ACL_FLOAT) {
    tool_error("recipe classify: input '%s' is %s, expected float32 (an image tensor)", in->name,
               tool_dtype_name(in->dtype));
    return TOOL_FAIL;
  }
  int chw = in->rank == 4 && (in->dims[1] == 3 || in->dims[1] == -1);
  int hwc = in->rank == 4 && (in->dims[3] == 3 || in->dims[3] == -1);
  int layout = c->layout;
  if (layout == LAYOUT_AUTO)
    layout = in->rank == 4 && in->dims[1] == 3 ? LAYOUT_NCHW : in->rank == 4 && in->dims[3] == 3 ? LAYOUT_NHWC : 0;
  if (layout == 0 || (layout == LAYOUT_NCHW && !chw) || (layout == LAYOUT_NHWC && !hwc)) {
    tool_error("recipe classify: input '%s' has shape %s, expected an RGB image batch [N,3,H,W] (NCHW) or "
               "[N,H,W,3] (NHWC)%s",
               in->name, shape,
               c->layout == LAYOUT_AUTO   ? ""
               : c->layout == LAYOUT_NCHW ? " for --layout NCHW"
                                          : " for --layout NHWC");
    return TOOL_FAIL;
  }
  c->layout = layout;
  /* an explicit --resize must leave something to crop (a dynamic size is
   * checked per picture in preprocess) */
  int64_t h = in->dims[layout == LAYOUT_NHWC ? 1 : 2], w = in->dims[layout == LAYOUT_NHWC ? 2 : 3];
  if (c->resize_h > 0 && h > 0 && w > 0 &&
      (c->resize_w > 0 ? c->resize_h < h || c->resize_w < w : c->resize_h < (h > w ? h : w)))
    return tool_usage_error("infer",
                            "--resize %d%s%.0d is smaller than the model's image size %lldx%lld (H x W): nothing "
                            "to crop",
                            c->resize_h, c->resize_w > 0 ? "," : "", c->resize_w, (long long)h, (long long)w);
  int64_t classes = output_classes(out->dims, out->rank);
  if (classes < 0 || (out->dtype != ACL_FLOAT && out->dtype != ACL_DT_UNDEFINED)) {
    print_dims(shape, sizeof(shape), out->dims, out->rank);
    tool_error("recipe classify: output '%s' is %s %s, expected float32 class scores [N,classes] or "
               "[N,classes,1,1]",
               out->name, tool_dtype_name(out->dtype), shape);
    return TOOL_FAIL;
  }
  if (c->labels_path != NULL) {
    int rc = load_labels(c);
    if (rc != 0)
      return rc;
    if (classes > 0 && (int64_t)c->n_labels < classes) {
      tool_error("--labels %s: %zu labels for %lld classes (output '%s'); expected one line per class", c->labels_path,
                 c->n_labels, (long long)classes, out->name);
      return TOOL_FAIL;
    }
    if (classes > 0 && (int64_t)c->n_labels > classes)
      tool_warn("--labels %s: %zu labels for %lld classes; the extra lines are not used", c->labels_path, c->n_labels,
                (long long)classes);
  }
  return 0;
}

/* A model that leaves the picture size open gets the one --resize gives
 * (H,W, or N for N x N), else 224 x 224, the ImageNet classifiers' size.
 * An open channel dimension is the 3 of RGB; the batch is the tool's. */
static int classify_input_shape(void *self, const tool_model *m, int64_t *dims, size_t rank) {
  const classify *c = self;
  (void)m;
  if (rank != 4)
    return 0;
  const int nhwc = c->layout == LAYOUT_NHWC;
  const size_t hk = nhwc ? 1 : 2, wk = nhwc ? 2 : 3, ck = nhwc ? 3 : 1;
  if (dims[hk] < 0)
    dims[hk] = c->resize_h > 0 ? c->resize_h : 224;
  if (dims[wk] < 0)
    dims[wk] = c->resize_w > 0 ? c->resize_w : c->resize_h > 0 ? c->resize_h : 224;
  if (dims[ck] < 0)
    dims[ck] = 3;
  return 0;
}

static int classify_accepts(void *self, const char *path) {
  static const char *const exts[] = {".jpg", ".jpeg", ".png", NULL};
  (void)self;
  return tool_path_has_ext(path, exts);
}

/* The size the picture is scaled to before the centre crop (see the top of
 * the file). */
static void scaled_size(const classify *c, int iw, int ih, int h, int w, int *sw, int *sh) {
  if (c->resize_h > 0 && c->resize_w > 0) {
    *sh = c->resize_h;
    *sw = c->resize_w;
    return;
  }
  int side = c->resize_h > 0 ? c->resize_h : (int)lround((h > w ? h : w) * 256.0 / 224.0);
  double s = (double)side / (iw < ih ? iw : ih);
  *sw = (int)lround(iw * s);
  *sh = (int)lround(ih * s);
  /* rounding may leave the longer side of a near-square picture a pixel
   * short of a non-square model's size */
  if (*sw < w && side >= w)
    *sw = w;
  if (*sh < h && side >= h)
    *sh = h;
}

static int classify_preprocess(void *self, const tool_model *m, const char *path, void *dst, size_t dst_size,
                               const int64_t *dims, size_t rank, size_t item) {
  classify *c = self;
  tool_image img = {0};
  float *scaled = NULL;
  char err[512];
  int rc = TOOL_FAIL;

  int nhwc = c->layout == LAYOUT_NHWC;
  int64_t h = rank == 4 ? dims[nhwc ? 1 : 2] : -1, w = rank == 4 ? dims[nhwc ? 2 : 3] : -1;
  if (h <= 0 || w <= 0 || h > 65535 || w > 65535) {
    tool_error("recipe classify: the image size of input '%s' is not known (dynamic); give it with --dym-shape",
               m->in[0].name);
    return TOOL_FAIL;
  }
  size_t plane = (size_t)h * (size_t)w, per_item = plane * 3;
  if ((item + 1) * per_item * sizeof(float) > dst_size) {
    tool_error("recipe classify: batch item %zu does not fit the %zu-byte input buffer", item, dst_size);
    return TOOL_FAIL;
  }
  if (tool_image_load(path, &img, err, sizeof(err)) != 0) {
    tool_error("%s: %s", path, err);
    return TOOL_FAIL;
  }
  int sw, sh;
  scaled_size(c, img.width, img.height, (int)h, (int)w, &sw, &sh);
  if (sw < w || sh < h) {
    rc = tool_usage_error("infer",
                          "--resize: %s scaled to %dx%d (H x W) is smaller than the model's image size "
                          "%lldx%lld: nothing to crop",
                          path, sh, sw, (long long)h, (long long)w);
    goto done;
  }
  scaled = malloc(sizeof(float) * (size_t)sw * (size_t)sh * 3);
  if (scaled == NULL || tool_image_resize(&img, sw, sh, scaled) != 0) {
    tool_error("%s: out of memory resizing a %dx%d picture to %dx%d", path, img.width, img.height, sw, sh);
    goto done;
  }
  int x0 = (sw - (int)w) / 2, y0 = (sh - (int)h) / 2;
  float *out = (float *)dst + item * per_item;
  float scale[3], shift[3]; /* (v / 255 - mean) / std == v * scale + shift */
  for (int k = 0; k < 3; k++) {
    scale[k] = 1.0f / (255.0f * c->std[k]);
    shift[k] = -c->mean[k] / c->std[k];
  }
  for (int64_t y = 0; y < h; y++)
    for (int64_t x = 0; x < w; x++) {
      const float *p = scaled + ((size_t)(y0 + y) * (size_t)sw + (size_t)(x0 + x)) * 3;
      for (int k = 0; k < 3; k++) {
        float v = p[k] * scale[k] + shift[k];
        if (nhwc)
          out[((size_t)y * (size_t)w + (size_t)x) * 3 + (size_t)k] = v;
        else
          out[(size_t)k * plane + (size_t)y * (size_t)w + (size_t)x] = v;
      }
    }
  rc = 0;
done:
  free(scaled);
  tool_image_free(&img);
  return rc;
}

/* Whether scores already are a probability distribution: every value in
 * [0, 1] and a sum within 1e-3 of 1 (a model ending in Softmax).  Logits
 * practically never pass both tests. */
static int is_distribution(const float *v, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(v[i] >= 0.0f && v[i] <= 1.0f))
      return 0;
    sum += v[i];
  }
  return fabs(sum - 1.0) <= 1e-3;
}

static int classify_postprocess(void *self, const tool_model *m, const char *path, const void *out, size_t out_size,
                                const int64_t *dims, size_t rank, size_t item, FILE *report) {
  classify *c = self;
  int64_t classes = rank >= 2 ? output_classes(dims, rank) : -1;
  double *p = NULL;
  size_t *order = NULL;
  int rc = TOOL_FAIL;

  if (classes <= 0) {
    char shape[160];
    print_dims(shape, sizeof(shape), dims, rank);
    tool_error("recipe classify: output '%s' has shape %s, expected [N,classes] or [N,classes,1,1]", m->out[0].name,
               shape);
    return TOOL_FAIL;
  }
  size_t n = (size_t)classes;
  if ((item + 1) * n * sizeof(float) > out_size) {
    tool_error("recipe classify: output '%s' holds %zu bytes, too few for batch item %zu of %zu classes",
               m->out[0].name, out_size, item, n);
    return TOOL_FAIL;
  }
  if (c->labels != NULL && c->n_labels < n) {
    tool_error("--labels %s: %zu labels for %zu classes (output '%s'); expected one line per class", c->labels_path,
               c->n_labels, n, m->out[0].name);
    return TOOL_FAIL;
  }
  const float *v = (const float *)out + item * n;
  p = malloc(n * sizeof(*p));
  order = malloc(n * sizeof(*order));
  if (p == NULL || order == NULL) {
    tool_error("out of memory for %zu class scores", n);
    goto done;
  }
  int soft = c->softmax == SOFTMAX_YES || (c->softmax == SOFTMAX_AUTO && !is_distribution(v, n));
  double top = -INFINITY, sum = 0;
  for (size_t i = 0; i < n; i++)
    top = v[i] > top ? v[i] : top;
  for (size_t i = 0; i < n; i++) {
    p[i] = soft ? exp((double)v[i] - top) : v[i]; /* minus the maximum: exp cannot overflow */
    sum += p[i];
  }
  for (size_t i = 0; soft && i < n; i++)
    p[i] /= sum;
  /* Top-k by partial selection: k is small, classes at most a few thousand.
   * Ties keep the lower class index first, so the output is deterministic. */
  size_t k = (size_t)c->topk < n ? (size_t)c->topk : n;
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  for (size_t i = 0; i < k; i++) {
    size_t best = i;
    for (size_t j = i + 1; j < n; j++)
      if (p[order[j]] > p[order[best]] || (p[order[j]] == p[order[best]] && order[j] < order[best]))
        best = j;
    size_t t = order[i];
    order[i] = order[best];
    order[best] = t;
  }
  fprintf(report, "%s: top-%zu of %zu classes (%s)\n", path, k, n, soft ? "softmax of the output" : "output as is");
  fprintf(report, "  rank  %-8s  class\n", soft ? "prob" : "score");
  for (size_t i = 0; i < k; i++) {
    size_t ci = order[i];
    if (c->labels != NULL)
      fprintf(report, "  %4zu  %8.4f  %s (%zu)\n", i + 1, p[ci], c->labels[ci], ci);
    else
      fprintf(report, "  %4zu  %8.4f  class_%zu\n", i + 1, p[ci], ci);
  }
  rc = 0;
done:
  free(p);
  free(order);
  return rc;
}

extern const tool_recipe tool_recipe_classify; /* listed in recipes.c */
const tool_recipe tool_recipe_classify = {
    .name = "classify",
    .summary = "image classification: JPEG/PNG pictures in, the top-k classes out",
    .options = "  --labels FILE      class names, one per line in output order (default: class_<index>)\n"
               "  --topk N           how many classes to print per picture (default 5)\n"
               "  --mean R,G,B       subtracted from 0..1 pixel values (default ImageNet 0.485,0.456,0.406)\n"
               "  --std R,G,B        then divided by (default ImageNet 0.229,0.224,0.225)\n"
               "  --resize N|H,W     scale the shorter side to N, or the picture to H x W, before the centre\n"
               "                     crop to the model's size (default: shorter side to size * 256 / 224)\n"
               "  --layout NCHW|NHWC the input's layout (default: from its shape, where the 3 channels are)\n"
               "  --softmax auto|yes|no  probabilities from the scores (auto: unless they already sum to 1)\n",
    .create = classify_create,
    .destroy = classify_destroy,
    .option = classify_option,
    .load_model = classify_load_model,
    .input_shape = classify_input_shape,
    .accepts = classify_accepts,
    .preprocess = classify_preprocess,
    .infer = NULL,
    .postprocess = classify_postprocess,
};
