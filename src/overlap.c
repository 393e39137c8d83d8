/* overlap.c: WFC's overlapping model as a rule set.  Every N x N window of
 * the samples is a tile ("pattern"); pattern b may stand next to pattern a
 * in direction d iff the two agree on the N x (N-1) pixels they share when b
 * is shifted one pixel in direction d (OverlappingModel.cs's `agrees`).  The
 * rotations and reflections are the reference's, in its order. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static void rotate(const int *p, int *out, int n) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      out[x + y * n] = p[n - 1 - y + x * n];
}

static void reflect(const int *p, int *out, int n) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++)
      out[x + y * n] = p[n - 1 - x + y * n];
}

static bool agrees(const int *p1, const int *p2, int dx, int dy, int n) {
  int xmin = dx < 0 ? 0 : dx, xmax = dx < 0 ? dx + n : n;
  int ymin = dy < 0 ? 0 : dy, ymax = dy < 0 ? dy + n : n;
  for (int y = ymin; y < ymax; y++)
    for (int x = xmin; x < xmax; x++)
      if (p1[x + n * y] != p2[x - dx + n * (y - dy)])
        return false;
  return true;
}

tilesat_rules *tilesat_extract_patterns(const tilesat_image *const *images,
                                        size_t nimages, int n,
                                        bool periodic_input, int symmetry,
                                        tilesat_pictures **pics,
                                        tilesat_error *err) {
  if (nimages == 0 || n < 1 || n > 16 || symmetry < 1 || symmetry > 8)
    ts_misuse(__func__, "no images, or N or symmetry out of range");
  if (pics)
    *pics = NULL;
  size_t nn = (size_t)n * (size_t)n;
  TS_VEC(uint32_t) colours = {0}; /* distinct RGBA values, packed */
  ts_names keys = {0};            /* pattern -> index, by its colour ids */
  TS_VEC(int *) pats = {0};
  TS_VEC(uint64_t) count = {0};
  int *ps[8];
  for (int k = 0; k < 8; k++)
    ps[k] = ts_malloc(nn * sizeof(int));
  char *key = ts_malloc(nn * 12 + 1);
  for (size_t i = 0; i < nimages; i++) {
    const tilesat_image *img = images[i];
    int w = img->width, h = img->height;
    int *ids = ts_malloc((size_t)w * (size_t)h * sizeof *ids);
    for (size_t k = 0; k < (size_t)w * (size_t)h; k++) {
      const uint8_t *px = img->rgba + 4 * k;
      uint32_t c = (uint32_t)px[0] << 24 | (uint32_t)px[1] << 16 |
                   (uint32_t)px[2] << 8 | px[3];
      size_t j = 0;
      while (j < colours.n && colours.v[j] != c)
        j++;
      if (j == colours.n)
        TS_PUSH(colours, c);
      ids[k] = (int)j;
    }
    int ymax = periodic_input ? h : h - n + 1;
    int xmax = periodic_input ? w : w - n + 1;
    for (int y = 0; y < ymax; y++)
      for (int x = 0; x < xmax; x++) {
        for (int dy = 0; dy < n; dy++)
          for (int dx = 0; dx < n; dx++)
            ps[0][dx + dy * n] = ids[((y + dy) % h) * w + (x + dx) % w];
        reflect(ps[0], ps[1], n);
        rotate(ps[0], ps[2], n);
        reflect(ps[2], ps[3], n);
        rotate(ps[2], ps[4], n);
        reflect(ps[4], ps[5], n);
        rotate(ps[4], ps[6], n);
        reflect(ps[6], ps[7], n);
        for (int k = 0; k < symmetry; k++) {
          size_t len = 0;
          for (size_t j = 0; j < nn; j++)
            len += (size_t)sprintf(key + len, "%x.", (unsigned)ps[k][j]);
          int id = ts_names_intern(&keys, key, len);
          if ((size_t)id == pats.n) {
            int *copy = ts_malloc(nn * sizeof *copy);
            memcpy(copy, ps[k], nn * sizeof *copy);
            TS_PUSH(pats, copy);
            TS_PUSH(count, 0);
          }
          count.v[id]++;
        }
      }
    free(ids);
  }
  tilesat_rules *r = NULL;
  if (pats.n == 0) {
    ts_error(err, "--pattern", 0,
             "no %dx%d window fits in the samples (try --periodic-input or "
             "a smaller --pattern)",
             n, n);
    goto done;
  }
  ts_names names = {0};
  for (size_t p = 0; p < pats.n; p++) {
    char buf[32];
    int len = snprintf(buf, sizeof buf, "p%zu", p);
    ts_names_intern(&names, buf, (size_t)len);
  }
  r = ts_rules_new(TILESAT_SQUARE, &names);
  static const char *const dname[4] = {"N", "E", "S", "W"};
  static const int ddx[4] = {0, 1, 0, -1}, ddy[4] = {-1, 0, 1, 0};
  for (int k = 0; k < 4; k++) {
    int d = tilesat_dir_find(TILESAT_SQUARE, dname[k]);
    for (size_t a = 0; a < pats.n; a++)
      for (size_t b = 0; b < pats.n; b++)
        if (agrees(pats.v[a], pats.v[b], ddx[k], ddy[k], n))
          ts_rules_allow(r, (int)a, d, (int)b);
  }
  for (size_t p = 0; p < pats.n; p++)
    r->weight[p] = count.v[p];
  if (pics) {
    *pics = tilesat_pictures_new(n, n, n);
    uint8_t *px = ts_malloc(nn * 4);
    for (size_t p = 0; p < pats.n; p++) {
      for (size_t j = 0; j < nn; j++) {
        uint32_t c = colours.v[pats.v[p][j]];
        px[4 * j] = (uint8_t)(c >> 24);
        px[4 * j + 1] = (uint8_t)(c >> 16);
        px[4 * j + 2] = (uint8_t)(c >> 8);
        px[4 * j + 3] = (uint8_t)c;
      }
      tilesat_pictures_set(*pics, r->names.v.v[p], px);
    }
    free(px);
  }
done:
  for (int k = 0; k < 8; k++)
    free(ps[k]);
  free(key);
  for (size_t p = 0; p < pats.n; p++)
    free(pats.v[p]);
  free(pats.v);
  free(count.v);
  free(colours.v);
  ts_names_free(&keys);
  return r;
}
