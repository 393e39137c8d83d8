/* image.c: RGBA images and PNG files, through libpng's simplified API
 * (png_image), which converts every colour type and bit depth to 8-bit RGBA
 * and reports corrupt or truncated data as a message instead of longjmp'ing
 * into our code. */
#include "io/io.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

tilesat_image *tilesat_image_new(int width, int height) {
  if (width <= 0 || height <= 0)
    ts_misuse(__func__, "image sides must be positive");
  tilesat_image *img = ts_malloc(sizeof *img);
  img->width = width;
  img->height = height;
  img->rgba = ts_calloc((size_t)width * (size_t)height, 4);
  return img;
}

void tilesat_image_free(tilesat_image *img) {
  if (!img)
    return;
  free(img->rgba);
  free(img);
}

bool tilesat_is_png(const void *data, size_t len) {
  static const unsigned char sig[8] = {0x89, 'P',  'N',  'G',
                                       '\r', '\n', 0x1a, '\n'};
  return len >= 8 && !memcmp(data, sig, 8);
}

/* Images larger than this many pixels are refused rather than allocated:
 * a corrupt header must not make us ask for gigabytes. */
#define MAX_PIXELS (1 << 26)

tilesat_image *tilesat_image_parse_png(const void *data, size_t len,
                                       const char *filename,
                                       tilesat_error *err) {
  if (!tilesat_is_png(data, len)) {
    ts_error(err, filename, 0, "not a PNG file (no PNG signature)");
    return NULL;
  }
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&pi, data, len)) {
    ts_error(err, filename, 0, "bad PNG: %s", pi.message);
    png_image_free(&pi);
    return NULL;
  }
  if (pi.width == 0 || pi.height == 0 ||
      (uint64_t)pi.width * pi.height > MAX_PIXELS) {
    ts_error(err, filename, 0, "PNG of %ux%u pixels: too large", pi.width,
             pi.height);
    png_image_free(&pi);
    return NULL;
  }
  pi.format = PNG_FORMAT_RGBA;
  tilesat_image *img = tilesat_image_new((int)pi.width, (int)pi.height);
  if (!png_image_finish_read(&pi, NULL, img->rgba, 0, NULL)) {
    ts_error(err, filename, 0, "bad PNG: %s", pi.message);
    png_image_free(&pi);
    tilesat_image_free(img);
    return NULL;
  }
  png_image_free(&pi);
  return img;
}

tilesat_image *tilesat_image_read_png(const char *path, tilesat_error *err) {
  size_t len;
  char *data = ts_read_file(path, &len, err);
  if (!data)
    return NULL;
  tilesat_image *img = tilesat_image_parse_png(data, len, path, err);
  free(data);
  return img;
}

int ts_png_write_stream(const tilesat_image *img, FILE *f, const char *path,
                        tilesat_error *err) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  pi.width = (png_uint_32)img->width;
  pi.height = (png_uint_32)img->height;
  pi.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_stdio(&pi, f, 0, img->rgba, 0, NULL)) {
    ts_error(err, path, 0, "cannot write PNG: %s", pi.message);
    png_image_free(&pi);
    return -1;
  }
  return 0;
}

int tilesat_image_write_png_stream(const tilesat_image *img, FILE *f,
                                   const char *name, tilesat_error *err) {
  return ts_png_write_stream(img, f, name, err);
}

/* Not png_image_write_to_file, which removes the path when it fails: a
 * device node, as root, included. */
int tilesat_image_write_png(const tilesat_image *img, const char *path,
                            tilesat_error *err) {
  tilesat_output *out = tilesat_output_open(path, err);
  if (!out)
    return -1;
  if (ts_png_write_stream(img, tilesat_output_file(out), path, err)) {
    tilesat_output_discard(out);
    return -1;
  }
  return tilesat_output_commit(out, err);
}
