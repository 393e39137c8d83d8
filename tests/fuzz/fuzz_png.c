/* fuzz_png.c: PNG samples.  What decodes is written and read back the
 * same, cut into tiles of every size 1 to 4 that divides it (then again
 * with that cut's pictures as a palette), and, when small, extracted as WFC's
 * overlapping model with patterns of 2 and 3 (wrapping and symmetry chosen
 * by the input's length); every rule set is written and read back. */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>

static void write_read_back(const tilesat_image *img) {
  tilesat_error err;
  const char *path = fuzz_path("back.png");
  FUZZ_CHECK(tilesat_image_write_png(img, path, &err) == 0,
             "tilesat_image_write_png: %s", err.msg);
  tilesat_image *back = tilesat_image_read_png(path, &err);
  FUZZ_CHECK(back && back->width == img->width && back->height == img->height &&
                 !memcmp(back->rgba, img->rgba,
                         (size_t)img->width * (size_t)img->height * 4),
             "a written PNG reads back different");
  tilesat_image_free(back);
}

/* Cut into n x n tiles, collecting pictures; extract the rules. */
static void cut(const tilesat_image *img, int n, const tilesat_pictures *known,
                tilesat_pictures *pics) {
  tilesat_error err;
  tilesat_grid *g =
      tilesat_grid_from_image(img, "fuzz.png", n, known, pics, &err);
  if (!g)
    return;
  FUZZ_CHECK(tilesat_grid_width(g) == img->width / n &&
                 tilesat_grid_height(g) == img->height / n,
             "a %dx%d image cut into %dx%d tiles is a %dx%d grid", img->width,
             img->height, n, n, tilesat_grid_width(g), tilesat_grid_height(g));
  const tilesat_grid *one[1] = {g};
  tilesat_rules *r = tilesat_extract(one, 1, TILESAT_SQUARE, false, &err);
  FUZZ_CHECK(r != NULL, "an image sample does not extract: %s", err.msg);
  fuzz_rules_roundtrip(r);
  tilesat_rules_free(r);
  tilesat_grid_free(g);
}

static void patterns(const tilesat_image *img, size_t size) {
  const tilesat_image *one[1] = {img};
  for (int n = 2; n <= 3; n++) {
    tilesat_error err;
    tilesat_pictures *pics = NULL;
    tilesat_rules *r = tilesat_extract_patterns(
        one, 1, n, size & 1, (int)(size % 8) + 1, &pics, &err);
    if (!r)
      continue;
    FUZZ_CHECK(pics && tilesat_pictures_count(pics) == tilesat_rules_ntiles(r),
               "patterns and their pictures differ");
    fuzz_rules_roundtrip(r);
    tilesat_rules_free(r);
    tilesat_pictures_free(pics);
  }
}

/* The note tilesat's pictures carry (tilesat_png_note), read from the
 * file, and the picture scaled back by the numbers it names, as verify and
 * --pins-from do: every image it gives is at most the picture's size. */
static void noted(const tilesat_image *img, const uint8_t *data, size_t size) {
  const char *path = fuzz_path("noted.png");
  FILE *f = fopen(path, "wb");
  FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && !fclose(f),
             "cannot write %s", path);
  char note[80];
  long long xn, xd, yn, yd;
  if (!tilesat_png_note(path, note, sizeof note) ||
      sscanf(note, "scaled %lld/%lld %lld/%lld", &xn, &xd, &yn, &yd) != 4)
    return;
  tilesat_image *back = tilesat_image_unscale(img, xn, xd, yn, yd);
  FUZZ_CHECK(!back ||
                 (back->width <= img->width && back->height <= img->height),
             "a picture scaled back grew");
  tilesat_image_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilesat_error err;
  tilesat_image *img = tilesat_image_parse_png(data, size, "fuzz.png", &err);
  if (!img)
    return 0;
  if ((size_t)img->width * (size_t)img->height <= 1 << 16)
    noted(img, data, size);
  size_t pixels = (size_t)img->width * (size_t)img->height;
  if (pixels <= 4096) {
    write_read_back(img);
    for (int n = 1; n <= 4; n++) {
      if (img->width % n || img->height % n)
        continue;
      tilesat_pictures *pics = tilesat_pictures_new(n, n, 0);
      cut(img, n, NULL, pics);
      cut(img, n, pics, NULL); /* the first cut's pictures as a palette */
      tilesat_pictures_free(pics);
    }
  }
  if (pixels <= 256)
    patterns(img, size);
  tilesat_image_free(img);
  return 0;
}
