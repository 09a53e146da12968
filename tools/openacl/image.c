/*
 * image.c - JPEG (libjpeg-turbo) and PNG (libpng) decoding to 8-bit RGB, and
 * a bilinear resize, for the image recipes.
 *
 * Both libraries report fatal errors through a callback that must not
 * return; their defaults print and exit(), which a tool must never do on a
 * bad input file.  Ours longjmp back to the decoding function, which frees
 * what it holds at its one cleanup label and returns the reason.  Locals
 * changed between setjmp and a longjmp are volatile (C11 7.13.2.1).
 *
 * libjpeg's warnings (premature end of file, corrupt data) are errors here
 * too: by default the library fills what is missing with grey and carries
 * on, and a classifier would then answer confidently about half a picture.
 */
#include "image.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h> /* before jpeglib.h, which uses FILE without including it */
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

/* Refuse pictures above this many pixels before allocating for them: a
 * corrupt header can claim 65535 x 65535. */
#define TOOL_IMAGE_MAX_PIXELS (256u * 1024u * 1024u)

tool_image_format tool_image_sniff(const uint8_t *head, size_t n) {
  static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (n >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff)
    return TOOL_IMAGE_JPEG;
  if (n >= 8 && memcmp(head, png_sig, 8) == 0)
    return TOOL_IMAGE_PNG;
  return TOOL_IMAGE_UNKNOWN;
}

void tool_image_free(tool_image *img) {
  free(img->rgb);
  memset(img, 0, sizeof(*img));
}

static int size_ok(unsigned w, unsigned h, char *err, size_t err_size) {
  if (w == 0 || h == 0 || (unsigned long long)w * h > TOOL_IMAGE_MAX_PIXELS) {
    snprintf(err, err_size, "picture size %ux%u is empty or above the limit of %u pixels", w, h, TOOL_IMAGE_MAX_PIXELS);
    return 0;
  }
  return 1;
}

/* --- JPEG --------------------------------------------------------------- */

typedef struct jpeg_fail {
  struct jpeg_error_mgr pub; /* first: libjpeg passes &pub as cinfo->err */
  jmp_buf jump;
  char *err;
  size_t err_size;
} jpeg_fail;

static void jpeg_on_error(j_common_ptr cinfo) {
  jpeg_fail *f = (jpeg_fail *)cinfo->err;
  char msg[JMSG_LENGTH_MAX];
  f->pub.format_message(cinfo, msg);
  snprintf(f->err, f->err_size, "corrupt or unsupported JPEG: %s", msg);
  longjmp(f->jump, 1);
}

/* Level -1 is a warning (truncated file, corrupt data): fatal here, see the
 * top of the file.  Other levels are trace messages, ignored. */
static void jpeg_on_message(j_common_ptr cinfo, int level) {
  if (level < 0)
    jpeg_on_error(cinfo);
}

static int load_jpeg(FILE *file, tool_image *img, char *err, size_t err_size) {
  struct jpeg_decompress_struct cinfo;
  jpeg_fail fail;
  uint8_t *volatile pixels = NULL;
  volatile int created = 0;
  volatile int rc = -1;

  cinfo.err = jpeg_std_error(&fail.pub);
  fail.pub.error_exit = jpeg_on_error;
  fail.pub.emit_message = jpeg_on_message;
  fail.err = err;
  fail.err_size = err_size;
  if (setjmp(fail.jump))
    goto done;
  jpeg_create_decompress(&cinfo);
  created = 1;
  jpeg_stdio_src(&cinfo, file);
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    snprintf(err, err_size, "CMYK JPEGs are not supported; convert the picture to RGB");
    goto done;
  }
  cinfo.out_color_space = JCS_RGB; /* grayscale and YCbCr both come out as RGB */
  jpeg_start_decompress(&cinfo);
  if (!size_ok(cinfo.output_width, cinfo.output_height, err, err_size))
    goto done;
  size_t stride = (size_t)cinfo.output_width * 3;
  pixels = malloc(stride * cinfo.output_height);
  if (pixels == NULL) {
    snprintf(err, err_size, "out of memory for a %ux%u picture", cinfo.output_width, cinfo.output_height);
    goto done;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = pixels + stride * cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  img->width = (int)cinfo.output_width;
  img->height = (int)cinfo.output_height;
  img->rgb = pixels;
  pixels = NULL;
  rc = 0;
done:
  if (created)
    jpeg_destroy_decompress(&cinfo);
  free(pixels);
  return rc;
}

/* --- PNG ---------------------------------------------------------------- */

typedef struct png_fail {
  jmp_buf jump;
  char *err;
  size_t err_size;
} png_fail;

static void png_on_error(png_structp png, png_const_charp msg) {
  png_fail *f = png_get_error_ptr(png);
  snprintf(f->err, f->err_size, "corrupt or unsupported PNG: %s", msg);
  longjmp(f->jump, 1);
}

/* libpng's warnings (an unknown ancillary chunk, an sRGB profile it
 * dislikes) do not spoil the pixels: stay quiet. */
static void png_on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static int load_png(FILE *file, tool_image *img, char *err, size_t err_size) {
  png_fail fail = {.err = err, .err_size = err_size};
  png_structp volatile png = NULL;
  png_infop volatile info = NULL;
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  volatile int rc = -1;

  png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &fail, png_on_error, png_on_warning);
  if (png != NULL)
    info = png_create_info_struct(png);
  if (png == NULL || info == NULL) {
    snprintf(err, err_size, "out of memory starting the PNG decoder");
    goto done;
  }
  if (setjmp(fail.jump))
    goto done;
  png_init_io(png, file);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  if (!size_ok(w, h, err, err_size))
    goto done;
  /* Everything to 8-bit RGB, as Pillow's convert("RGB") does: palette and
   * low-bit gray expanded, 16-bit reduced to its high byte, gray copied to
   * three channels, alpha dropped (not blended onto a background). */
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  size_t stride = png_get_rowbytes(png, info);
  if (stride != (size_t)w * 3) {
    snprintf(err, err_size, "corrupt or unsupported PNG: rows of %zu bytes after conversion, expected %zu", stride,
             (size_t)w * 3);
    goto done;
  }
  pixels = malloc(stride * h);
  rows = malloc(sizeof(*rows) * h);
  if (pixels == NULL || rows == NULL) {
    snprintf(err, err_size, "out of memory for a %ux%u picture", (unsigned)w, (unsigned)h);
    goto done;
  }
  for (png_uint_32 y = 0; y < h; y++)
    rows[y] = pixels + stride * y;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  img->width = (int)w;
  img->height = (int)h;
  img->rgb = pixels;
  pixels = NULL;
  rc = 0;
done:
  if (png != NULL) {
    png_structp p = png;
    png_infop i = info;
    png_destroy_read_struct(&p, i != NULL ? &i : NULL, NULL);
  }
  free(rows);
  free(pixels);
  return rc;
}

int tool_image_load(const char *path, tool_image *img, char *err, size_t err_size) {
  uint8_t head[8];
  size_t n;
  int rc = -1;
  FILE *file;

  memset(img, 0, sizeof(*img));
  file = fopen(path, "rb");
  if (file == NULL) {
    snprintf(err, err_size, "cannot open: %s", strerror(errno));
    return -1;
  }
  n = fread(head, 1, sizeof(head), file);
  rewind(file);
  switch (tool_image_sniff(head, n)) {
  case TOOL_IMAGE_JPEG:
    rc = load_jpeg(file, img, err, err_size);
    break;
  case TOOL_IMAGE_PNG:
    rc = load_png(file, img, err, err_size);
    break;
  default:
    snprintf(err, err_size, "not a JPEG or PNG file (%s)", n == 0 ? "empty" : "unknown first bytes");
    break;
  }
  fclose(file);
  return rc;
}

/* --- resize ------------------------------------------------------------- */

/* Filter taps for one axis, Pillow's way: output i is centred on input
 * (i + 0.5) * scale; the triangle filter is stretched by the scale when
 * shrinking so that every input pixel contributes. */
typedef struct taps {
  int *first, *count;
  float *weight; /* out * max_taps */
  int max_taps;
} taps;

static void taps_free(taps *t) {
  free(t->first);
  free(t->count);
  free(t->weight);
}

static int taps_make(int in, int out, taps *t) {
  double scale = (double)in / out, fscale = scale > 1 ? scale : 1, support = fscale;
  t->max_taps = (int)ceil(support) * 2 + 1;
  t->first = malloc(sizeof(int) * (size_t)out);
  t->count = malloc(sizeof(int) * (size_t)out);
  t->weight = malloc(sizeof(float) * (size_t)out * (size_t)t->max_taps);
  if (t->first == NULL || t->count == NULL || t->weight == NULL)
    return -1;
  for (int i = 0; i < out; i++) {
    double centre = (i + 0.5) * scale, sum = 0;
    int lo = (int)(centre - support + 0.5), hi = (int)(centre + support + 0.5);
    if (lo < 0)
      lo = 0;
    if (hi > in)
      hi = in;
    if (hi - lo > t->max_taps)
      hi = lo + t->max_taps;
    float *w = t->weight + (size_t)i * t->max_taps;
    for (int x = lo; x < hi; x++) {
      double d = fabs((x - centre + 0.5) / fscale);
      w[x - lo] = (float)(d < 1 ? 1 - d : 0);
      sum += w[x - lo];
    }
    for (int x = lo; x < hi; x++)
      w[x - lo] = sum > 0 ? (float)(w[x - lo] / sum) : 0;
    t->first[i] = lo;
    t->count[i] = hi - lo;
  }
  return 0;
}

int tool_image_resize(const tool_image *src, int w, int h, float *dst) {
  taps tx = {0}, ty = {0};
  float *tmp = NULL; /* horizontal pass: src->height rows of w pixels */
  int rc = -1;

  if (taps_make(src->width, w, &tx) != 0 || taps_make(src->height, h, &ty) != 0)
    goto done;
  tmp = malloc(sizeof(float) * (size_t)src->height * (size_t)w * 3);
  if (tmp == NULL)
    goto done;
  for (int y = 0; y < src->height; y++) {
    const uint8_t *row = src->rgb + (size_t)y * src->width * 3;
    for (int x = 0; x < w; x++) {
      const float *k = tx.weight + (size_t)x * tx.max_taps;
      float acc[3] = {0, 0, 0};
      for (int j = 0; j < tx.count[x]; j++) {
        const uint8_t *p = row + (size_t)(tx.first[x] + j) * 3;
        acc[0] += k[j] * p[0];
        acc[1] += k[j] * p[1];
        acc[2] += k[j] * p[2];
      }
      memcpy(tmp + ((size_t)y * w + x) * 3, acc, sizeof(acc));
    }
  }
  for (int y = 0; y < h; y++) {
    const float *k = ty.weight + (size_t)y * ty.max_taps;
    for (int x = 0; x < w; x++) {
      float acc[3] = {0, 0, 0};
      for (int j = 0; j < ty.count[y]; j++) {
        const float *p = tmp + ((size_t)(ty.first[y] + j) * w + x) * 3;
        acc[0] += k[j] * p[0];
        acc[1] += k[j] * p[1];
        acc[2] += k[j] * p[2];
      }
      memcpy(dst + ((size_t)y * w + x) * 3, acc, sizeof(acc));
    }
  }
  rc = 0;
done:
  taps_free(&tx);
  taps_free(&ty);
  free(tmp);
  return rc;
}

int tool_path_has_ext(const char *path, const char *const *exts) {
  size_t n = strlen(path);
  for (size_t i = 0; exts[i] != NULL; i++) {
    size_t e = strlen(exts[i]);
    if (n <= e)
      continue;
    size_t j = 0;
    while (j < e && tolower((unsigned char)path[n - e + j]) == tolower((unsigned char)exts[i][j]))
      j++;
    if (j == e)
      return 1;
  }
  return 0;
}
