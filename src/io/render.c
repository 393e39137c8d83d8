/* render.c: maps as pictures.  Every pixel of the output comes from exactly
 * one cell and one offset inside that cell's picture, so a cell with several
 * possible tiles (a domain) is simply the average of those tiles' pixels at
 * that offset: the same code draws witnesses, blends and highlights. */
#include "io/io.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 8 /* side of a solid square for tiles without pictures */

typedef struct painter {
  const tilesat_map *m;
  int tw, th, overlap;
  int words;
  uint8_t **pix; /* per tile: tw*th*4 bytes (owned when own[t]) */
  bool *own;
} painter;

static void painter_init(painter *p, const tilesat_map *m,
                         const tilesat_pictures *pics) {
  const tilesat_rules *r = m->rules;
  memset(p, 0, sizeof *p);
  p->m = m;
  p->words = r->words;
  if (pics) {
    p->tw = tilesat_pictures_width(pics);
    p->th = tilesat_pictures_height(pics);
    if (m->topo == TILESAT_SQUARE)
      p->overlap = tilesat_pictures_overlap(pics);
  } else {
    bool colours = true;
    uint8_t c[4];
    for (int t = 0; t < r->ntiles && colours; t++)
      colours = ts_parse_colour(r->names.v.v[t], c);
    /* a hex map needs room to shift its odd rows by half a cell */
    p->tw = p->th = colours && m->topo == TILESAT_SQUARE ? 1 : BLOCK;
  }
  p->pix = ts_calloc((size_t)r->ntiles, sizeof *p->pix);
  p->own = ts_calloc((size_t)r->ntiles, sizeof *p->own);
  size_t n = (size_t)p->tw * (size_t)p->th;
  for (int t = 0; t < r->ntiles; t++) {
    const uint8_t *got =
        pics ? tilesat_pictures_get(pics, r->names.v.v[t]) : NULL;
    if (got) {
      p->pix[t] = (uint8_t *)got;
      continue;
    }
    uint8_t c[4];
    tilesat_tile_colour(r, t, c);
    p->pix[t] = ts_malloc(n * 4);
    p->own[t] = true;
    for (size_t k = 0; k < n; k++)
      memcpy(p->pix[t] + 4 * k, c, 4);
  }
}

static void painter_free(painter *p) {
  for (int t = 0; t < p->m->rules->ntiles; t++)
    if (p->own[t])
      free(p->pix[t]);
  free(p->pix);
  free(p->own);
}

/* Output size of one map. */
static void map_size(const painter *p, int *w, int *h) {
  const tilesat_map *m = p->m;
  if (p->overlap) {
    int extra = m->periodic ? 0 : p->overlap - 1;
    *w = m->width + extra;
    *h = m->height + extra;
    return;
  }
  /* in 64 bits, saturated: big maps of big pictures overflow an int */
  long long W =
      (long long)m->width * p->tw + (m->topo == TILESAT_HEX ? p->tw / 2 : 0);
  long long H = (long long)m->height * p->th;
  *w = W > INT_MAX ? INT_MAX : (int)W;
  *h = H > INT_MAX ? INT_MAX : (int)H;
}

/* The largest map picture: as many pixels as a PNG tilesat reads back. */
static bool image_fits(size_t w, size_t h) { return w * h <= (1u << 26); }

/* The colour of offset (dy, dx) of `cell`: its tile, or its domain's mean. */
static void cell_pixel(const painter *p, const int *tiles,
                       const uint64_t *domains, int cell, int dy, int dx,
                       uint8_t out[4]) {
  size_t off = ((size_t)dy * (size_t)p->tw + (size_t)dx) * 4;
  if (tiles && tiles[cell] < 0) { /* masked: not part of the map */
    memset(out, 0, 4);
    return;
  }
  if (tiles) {
    memcpy(out, p->pix[tiles[cell]] + off, 4);
    return;
  }
  /* weighted by the tiles' weights, as WFC draws its wave; equally when
   * the weights add up to nothing (or too much to sum) */
  const tilesat_rules *r = p->m->rules;
  const uint64_t *set = domains + (size_t)cell * (size_t)p->words;
  uint64_t sum[4] = {0, 0, 0, 0}, n = 0;
  bool weighted = true;
  for (int t = 0; t < r->ntiles && weighted; t++)
    if (ts_bit(set, t)) {
      weighted = r->weight[t] < ((uint64_t)1 << 40) &&
                 n + r->weight[t] < ((uint64_t)1 << 40);
      n += r->weight[t];
    }
  weighted = weighted && n > 0;
  n = 0;
  for (int t = 0; t < r->ntiles; t++)
    if (ts_bit(set, t)) {
      uint64_t w = weighted ? r->weight[t] : 1;
      for (int k = 0; k < 4; k++)
        sum[k] += w * p->pix[t][off + (size_t)k];
      n += w;
    }
  if (!n) {
    static const uint8_t black[4] = {0, 0, 0, 255};
    memcpy(out, black, 4);
    return;
  }
  for (int k = 0; k < 4; k++)
    out[k] = (uint8_t)((sum[k] + n / 2) / n);
}

static void mark(uint8_t px[4], bool tint) {
  if (tint) {
    px[0] = (uint8_t)((px[0] + 255 + 1) / 2);
    px[1] = (uint8_t)(px[1] / 2);
    px[2] = (uint8_t)(px[2] / 2);
  } else {
    px[0] = 255;
    px[1] = px[2] = 0;
  }
  px[3] = 255;
}

/* Cells outside a highlight are washed out two thirds of the way to
 * white, so that the marked ones stand out in full colour. */
static void fade(uint8_t px[4]) {
  for (int i = 0; i < 3; i++)
    px[i] = (uint8_t)((px[i] + 2 * 255 + 1) / 3);
}

/* Pixel (dy, dx) of a cell, highlighted or not: a red frame two pixels
 * wide on pictures of 8 or more (one below), a red tint under 3. */
static void emphasise(const painter *p, const bool *highlight, int cell, int dy,
                      int dx, uint8_t px[4]) {
  if (!highlight)
    return;
  if (!highlight[cell]) {
    fade(px);
    return;
  }
  bool tint = p->tw < 3 || p->th < 3;
  int b = p->tw >= 8 && p->th >= 8 ? 2 : 1;
  if (tint || dy < b || dx < b || dy >= p->th - b || dx >= p->tw - b)
    mark(px, tint);
}

/* An overlapping-model map: one pixel per cell, plus the last pattern's
 * other pixels along the right and bottom edges. */
static void draw_overlap(const painter *p, const int *tiles,
                         const uint64_t *domains, const bool *highlight,
                         tilesat_image *img, int x0, int y0) {
  const tilesat_map *m = p->m;
  int w, h;
  map_size(p, &w, &h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int r = y < m->height ? y : m->height - 1;
      int c = x < m->width ? x : m->width - 1;
      uint8_t *px =
          img->rgba +
          ((size_t)(y0 + y) * (size_t)img->width + (size_t)(x0 + x)) * 4;
      int cell = r * m->width + c;
      cell_pixel(p, tiles, domains, cell, y - r, x - c, px);
      if (highlight && highlight[cell] && y == r && x == c)
        mark(px, true);
      else if (highlight && !highlight[cell])
        fade(px);
    }
}

/* Draw one map into `img` with its top-left corner at (x0, y0). */
static void draw(const painter *p, const int *tiles, const uint64_t *domains,
                 const bool *highlight, tilesat_image *img, int x0, int y0) {
  if (p->overlap) {
    draw_overlap(p, tiles, domains, highlight, img, x0, y0);
    return;
  }
  const tilesat_map *m = p->m;
  for (int r = 0; r < m->height; r++)
    for (int c = 0; c < m->width; c++) {
      int cell = r * m->width + c;
      int cx =
          x0 + c * p->tw + (m->topo == TILESAT_HEX && r % 2 ? p->tw / 2 : 0);
      int cy = y0 + r * p->th;
      for (int dy = 0; dy < p->th; dy++)
        for (int dx = 0; dx < p->tw; dx++) {
          uint8_t *px =
              img->rgba +
              ((size_t)(cy + dy) * (size_t)img->width + (size_t)(cx + dx)) * 4;
          cell_pixel(p, tiles, domains, cell, dy, dx, px);
          emphasise(p, highlight, cell, dy, dx, px);
        }
    }
}

tilesat_image *tilesat_render(const tilesat_map *m,
                              const tilesat_pictures *pics, const int *tiles,
                              const uint64_t *domains, const bool *highlight) {
  if (!tiles && !domains)
    ts_misuse(__func__, "neither tiles nor domains");
  painter p;
  painter_init(&p, m, pics);
  int w, h;
  map_size(&p, &w, &h);
  if (!image_fits((size_t)w, (size_t)h)) {
    painter_free(&p);
    return NULL;
  }
  tilesat_image *img = tilesat_image_new(w, h);
  draw(&p, tiles, domains, highlight, img, 0, 0);
  painter_free(&p);
  return img;
}

int tilesat_render_png(const tilesat_map *m, const tilesat_pictures *pics,
                       const int *tiles, const uint64_t *domains,
                       const bool *highlight, const char *path,
                       tilesat_error *err) {
  tilesat_image *img = tilesat_render(m, pics, tiles, domains, highlight);
  if (!img) {
    ts_error(err, path, 0,
             "the map's picture would be too large (over 2^26 pixels)");
    return -1;
  }
  int rc = tilesat_image_write_png(img, path, err);
  tilesat_image_free(img);
  return rc;
}

bool tilesat_render_fits(const tilesat_map *m, const tilesat_pictures *pics) {
  painter p;
  painter_init(&p, m, pics);
  int w, h;
  map_size(&p, &w, &h);
  painter_free(&p);
  return image_fits((size_t)w, (size_t)h);
}

/* A sheet of nmaps maps of w x h pixels: ceil(sqrt(nmaps)) columns; its
 * size in *sw x *sh and *cols; false when too large. */
static bool sheet_size(int w, int h, size_t nmaps, size_t *cols, size_t *sw,
                       size_t *sh) {
  size_t g = TILESAT_SHEET_GAP;
  *cols = 1;
  while (*cols * *cols < nmaps)
    ++*cols;
  size_t rows = nmaps ? (nmaps + *cols - 1) / *cols : 1;
  *sw = *cols * (size_t)w + (*cols - 1) * g;
  *sh = rows * (size_t)h + (rows - 1) * g;
  return *sw <= (1u << 15) && *sh <= (1u << 15) && *sw * *sh <= (1u << 26);
}

size_t tilesat_render_sheet_fits(const tilesat_map *m,
                                 const tilesat_pictures *pics, size_t nmaps) {
  painter p;
  painter_init(&p, m, pics);
  int w, h;
  map_size(&p, &w, &h);
  painter_free(&p);
  /* a larger sheet is never smaller (columns and rows only grow): the
   * largest that fits by bisection, in [lo, hi) */
  size_t cols, sw, sh, lo = 0, hi = nmaps > (1u << 26) ? (1u << 26) : nmaps;
  if (sheet_size(w, h, hi, &cols, &sw, &sh))
    return hi;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (sheet_size(w, h, mid, &cols, &sw, &sh))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

tilesat_image *tilesat_render_sheet(const tilesat_map *m,
                                    const tilesat_pictures *pics,
                                    const int *const *maps, size_t nmaps) {
  painter p;
  painter_init(&p, m, pics);
  int w, h, g = TILESAT_SHEET_GAP;
  map_size(&p, &w, &h);
  size_t cols, sw, sh;
  if (!sheet_size(w, h, nmaps, &cols, &sw, &sh)) {
    painter_free(&p);
    return NULL;
  }
  tilesat_image *img = tilesat_image_new((int)sw, (int)sh);
  for (size_t k = 0; k < sw * sh; k++) {
    img->rgba[4 * k] = img->rgba[4 * k + 1] = img->rgba[4 * k + 2] = 0x80;
    img->rgba[4 * k + 3] = 255;
  }
  for (size_t k = 0; k < nmaps; k++)
    draw(&p, maps[k], NULL, NULL, img, (int)(k % cols) * (w + g),
         (int)(k / cols) * (h + g));
  painter_free(&p);
  return img;
}
