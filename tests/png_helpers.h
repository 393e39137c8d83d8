/* png_helpers.h: decoding PNG outputs in the tests with libpng directly,
 * not through tilesat's reader, and temporary paths with a suffix. */
#ifndef TILESAT_TEST_PNG_HELPERS_H
#define TILESAT_TEST_PNG_HELPERS_H

#include <stdint.h>

/* RGBA pixels of a PNG file (malloc'd); asserts it decodes. */
uint8_t *decode_png(const char *path, int *width, int *height);
/* The two PNG files decode to the same non-empty picture. */
void expect_same_png(const char *a, const char *b);
/* The 4 bytes of pixel (x, y). */
const uint8_t *pixel_at(const uint8_t *rgba, int width, int x, int y);
/* A fresh path in /tmp ending in `suffix` (malloc'd; nothing created). */
char *temp_path(const char *suffix);
/* Does pixel p equal "#rrggbb" (opaque)? */
int pixel_is(const uint8_t *p, const char *hex);

#endif
