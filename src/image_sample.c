/* image_sample.c: a sample grid from an image, a pixel or an N x N block of
 * pixels per cell.  Tiles are identified by their exact pixels; names come
 * from a palette (or earlier samples' pictures) when they match. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

tilesat_grid *tilesat_grid_from_image(const tilesat_image *img,
                                      const char *filename, int tile_size,
                                      const tilesat_pictures *known,
                                      tilesat_pictures *pics,
                                      tilesat_error *err) {
  int n = tile_size;
  if (n <= 0)
    ts_misuse(__func__, "tile size must be positive");
  if (pics &&
      (tilesat_pictures_width(pics) != n || tilesat_pictures_height(pics) != n))
    ts_misuse(__func__, "pictures of another size");
  if (img->width % n || img->height % n) {
    ts_error(err, filename, 0,
             "image of %dx%d pixels does not divide into %dx%d tiles",
             img->width, img->height, n, n);
    return NULL;
  }
  if (known && (tilesat_pictures_width(known) != n ||
                tilesat_pictures_height(known) != n)) {
    ts_error(err, filename, 0,
             "the palette's pictures are %dx%d pixels, the tiles %dx%d",
             tilesat_pictures_width(known), tilesat_pictures_height(known), n,
             n);
    return NULL;
  }
  int w = img->width / n, h = img->height / n;
  ts_names names = {0};
  int *cells = ts_malloc((size_t)w * (size_t)h * sizeof *cells);
  uint8_t *px = ts_malloc((size_t)n * (size_t)n * 4);
  /* Tiles seen in this image, by their pixels as hex: repeats skip the
   * name search. */
  ts_names seen = {0};
  ts_ints seen_id = {0};
  size_t keylen = (size_t)n * (size_t)n * 8;
  char *key = ts_malloc(keylen + 1);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) {
      bool uniform = true;
      for (int y = 0; y < n; y++) {
        const uint8_t *src =
            img->rgba +
            ((size_t)(r * n + y) * (size_t)img->width + (size_t)c * (size_t)n) *
                4;
        memcpy(px + (size_t)y * (size_t)n * 4, src, (size_t)n * 4);
      }
      for (int k = 1; k < n * n && uniform; k++)
        uniform = !memcmp(px, px + 4 * k, 4);
      static const char hex[] = "0123456789abcdef";
      for (size_t k = 0; k < (size_t)n * (size_t)n * 4; k++) {
        key[2 * k] = hex[px[k] >> 4];
        key[2 * k + 1] = hex[px[k] & 15];
      }
      int s = ts_names_intern(&seen, key, keylen), id;
      if ((size_t)s < seen_id.n) {
        id = seen_id.v[s];
      } else {
        const char *name =
            known ? tilesat_pictures_find_pixels(known, px) : NULL;
        char buf[32];
        if (!name && pics)
          name = tilesat_pictures_find_pixels(pics, px);
        if (!name && uniform) {
          ts_colour_name(px, buf);
          name = buf;
        } else if (!name) {
          snprintf(buf, sizeof buf, "t%d",
                   pics ? tilesat_pictures_count(pics) : (int)seen_id.n);
          name = buf;
        }
        id = ts_names_intern(&names, name, strlen(name));
        TS_PUSH(seen_id, id);
        if (pics && !tilesat_pictures_get(pics, name))
          tilesat_pictures_set(pics, name, px);
      }
      cells[r * w + c] = id;
    }
  ts_names_free(&seen);
  free(seen_id.v);
  free(key);
  free(px);
  return ts_grid_new(filename, w, h, &names, cells);
}
