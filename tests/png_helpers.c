/* png_helpers.c: see png_helpers.h. */
#include "png_helpers.h"
#include "helpers.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint8_t *decode_png(const char *path, int *width, int *height) {
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  cr_assert(png_image_begin_read_from_file(&pi, path), "%s: %s", path,
            pi.message);
  pi.format = PNG_FORMAT_RGBA;
  uint8_t *buf = malloc(PNG_IMAGE_SIZE(pi));
  cr_assert(png_image_finish_read(&pi, NULL, buf, 0, NULL), "%s: %s", path,
            pi.message);
  *width = (int)pi.width;
  *height = (int)pi.height;
  return buf;
}

const uint8_t *pixel_at(const uint8_t *rgba, int width, int x, int y) {
  return rgba + ((size_t)y * (size_t)width + (size_t)x) * 4;
}

char *temp_path(const char *suffix) {
  char *base = temp_file("", 0);
  unlink(base);
  char *p = malloc(strlen(base) + strlen(suffix) + 1);
  strcpy(p, base);
  strcat(p, suffix);
  free(base);
  return p;
}

int pixel_is(const uint8_t *p, const char *hex) {
  char got[8];
  snprintf(got, sizeof got, "#%02x%02x%02x", p[0], p[1], p[2]);
  return p[3] == 255 && !strcmp(got, hex);
}

void expect_same_png(const char *a, const char *b) {
  int wa, ha, wb, hb;
  uint8_t *pa = decode_png(a, &wa, &ha), *pb = decode_png(b, &wb, &hb);
  cr_assert(wa == wb && ha == hb && wa > 0, "%s %dx%d vs %s %dx%d", a, wa, ha,
            b, wb, hb);
  cr_expect_arr_eq(pa, pb, (size_t)wa * (size_t)ha * 4, "%s vs %s", a, b);
  free(pa);
  free(pb);
}
