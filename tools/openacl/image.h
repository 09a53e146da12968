/*
 * image.h - pictures for the image recipes: JPEG and PNG files decoded to
 * 8-bit RGB, and resized with a bilinear filter.
 *
 * Decoding never exits the process: libjpeg's and libpng's fatal errors come
 * back here (setjmp/longjmp) and become a message naming the file.
 */
#ifndef OPENACL_TOOL_IMAGE_H
#define OPENACL_TOOL_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Interleaved 8-bit RGB, rows top to bottom, no padding. */
typedef struct tool_image {
  int width, height;
  uint8_t *rgb; /* width * height * 3 bytes, malloc'd */
} tool_image;

/* Which decoder a file needs, from its first bytes (not its name). */
typedef enum { TOOL_IMAGE_UNKNOWN, TOOL_IMAGE_JPEG, TOOL_IMAGE_PNG } tool_image_format;

/* Decodes a JPEG or PNG file to RGB: grayscale, palette, alpha (dropped, not
 * blended) and 16-bit PNGs all become 8-bit RGB; CMYK JPEGs are refused.
 * 0 on success; otherwise -1 and a one-line reason in `err` ("not a JPEG
 * or PNG file", "truncated or corrupt JPEG: ...").  `img` is then empty. */
int tool_image_load(const char *path, tool_image *img, char *err, size_t err_size);
void tool_image_free(tool_image *img);

tool_image_format tool_image_sniff(const uint8_t *head, size_t n);

/* Resamples `src` to `w` x `h` into `dst` (RGB float, 0..255, w*h*3 values)
 * with a bilinear (triangle) filter whose support widens when shrinking, as
 * Pillow's BILINEAR does, so downscaled pictures do not alias.  0, or -1 when
 * out of memory. */
int tool_image_resize(const tool_image *src, int w, int h, float *dst);

/* Whether `path` ends in one of the NULL-terminated `exts` (".jpg", ...),
 * ignoring case. */
int tool_path_has_ext(const char *path, const char *const *exts);

#endif
