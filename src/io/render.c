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

/* ------------------------------------------------- pictures for designers */

static const uint8_t mark_colour[TILESAT_NMARKS][4] = {
    {0, 0, 0, 0},       {255, 0, 0, 255}, {255, 140, 0, 255},
    {255, 0, 255, 255}, {255, 0, 0, 255},
};
static const char *const mark_text[TILESAT_NMARKS] = {
    "faded: not involved",
    "clash: a cell the clashing constraints name",
    "doomed: a choice of the doomed set",
    "empty: no tile left (the contradiction)",
    "broken pair: no allowed pair of tiles",
};
static const uint8_t grey[4] = {192, 192, 192, 255};
static const uint8_t black_px[4] = {0, 0, 0, 255};

/* A cell's rectangle at one pixel a picture pixel (x, y, w, h). */
static void cell_rect(const painter *p, int cell, int rect[4]) {
  const tilesat_map *m = p->m;
  int r = cell / m->width, c = cell % m->width;
  if (p->overlap) {
    rect[0] = c;
    rect[1] = r;
    rect[2] = rect[3] = 1;
    return;
  }
  rect[0] = c * p->tw + (m->topo == TILESAT_HEX && r % 2 ? p->tw / 2 : 0);
  rect[1] = r * p->th;
  rect[2] = p->tw;
  rect[3] = p->th;
}

/* The scale that gives each cell TILESAT_MARK_PIXELS a side; more, up to
 * 48 pixels a cell, while the map is under 192 pixels wide. */
static int mark_scale(const painter *p) {
  int side = p->overlap ? 1 : p->tw < p->th ? p->tw : p->th;
  int s = (TILESAT_MARK_PIXELS + side - 1) / side, w, h;
  map_size(p, &w, &h);
  while ((long long)w * (s + 1) <= 192 && side * (s + 1) <= 48)
    s++;
  return s;
}

/* The cell a pixel of the unscaled picture belongs to, or -1. */
static int owner(const painter *p, int x, int y) {
  const tilesat_map *m = p->m;
  if (p->overlap) {
    int r = y < m->height ? y : m->height - 1;
    int c = x < m->width ? x : m->width - 1;
    return r * m->width + c;
  }
  int r = y / p->th;
  int shift = m->topo == TILESAT_HEX && r % 2 ? p->tw / 2 : 0;
  if (x < shift || (x - shift) / p->tw >= m->width)
    return -1;
  return r * m->width + (x - shift) / p->tw;
}

/* The legend's rows for these marks (at most TILESAT_NMARKS + 1). */
static size_t legend_rows(const painter *p, const uint8_t *marks, bool blends,
                          bool all, ts_legend_row *rows, uint8_t faded[4],
                          uint8_t blend[4]) {
  size_t ncells = (size_t)p->m->width * (size_t)p->m->height, n = 0;
  bool used[TILESAT_NMARKS] = {false};
  for (size_t c = 0; marks && c < ncells; c++)
    if (marks[c] < TILESAT_NMARKS)
      used[marks[c]] = true;
  for (int k = 1; k < TILESAT_NMARKS; k++)
    if (used[k] || all)
      rows[n++] = (ts_legend_row){
          k == TILESAT_MARK_EMPTY ? black_px : grey, mark_colour[k],
          k == TILESAT_MARK_BROKEN ? mark_colour[k] : NULL, mark_text[k]};
  memcpy(faded, grey, 4);
  fade(faded);
  if (n && (used[TILESAT_MARK_NONE] || all))
    rows[n++] =
        (ts_legend_row){faded, NULL, NULL, mark_text[TILESAT_MARK_NONE]};
  if (blends || all) {
    const tilesat_rules *r = p->m->rules;
    uint8_t a[4], b[4];
    tilesat_tile_colour(r, 0, a);
    tilesat_tile_colour(r, r->ntiles > 1 ? 1 : 0, b);
    for (int k = 0; k < 4; k++)
      blend[k] = (uint8_t)((a[k] + b[k] + 1) / 2);
    rows[n++] = (ts_legend_row){blend, NULL, NULL,
                                "blend: the tiles a cell may still hold"};
  }
  return n;
}

/* The scaled map's size, and with the largest legend. */
static bool marked_size(const painter *p, size_t *w, size_t *h) {
  int nw, nh;
  map_size(p, &nw, &nh);
  size_t s = (size_t)mark_scale(p);
  *w = (size_t)nw * s;
  *h = (size_t)nh * s;
  if (*w > (1u << 15) || *h > (1u << 15) || *w * *h > (1u << 26))
    return false;
  ts_legend_row rows[TILESAT_NMARKS + 1];
  uint8_t faded[4], blend[4];
  size_t n = legend_rows(p, NULL, true, true, rows, faded, blend);
  size_t lw = *w, lh = *h;
  ts_legend_size(rows, n, &lw, &lh);
  return lw <= (1u << 15) && lh <= (1u << 15) && lw * lh <= (1u << 26);
}

bool tilesat_render_marked_fits(const tilesat_map *m,
                                const tilesat_pictures *pics) {
  painter p;
  painter_init(&p, m, pics);
  size_t w, h;
  bool fits = marked_size(&p, &w, &h);
  painter_free(&p);
  return fits;
}

/* The dot of a broken pair: on the edge between the two cells' centres,
 * when they are neighbours on the picture. */
static void pair_dot(const painter *p, tilesat_image *img, int s, int a, int b,
                     int side) {
  int ra[4], rb[4];
  cell_rect(p, a, ra);
  cell_rect(p, b, rb);
  int ax = 2 * ra[0] + ra[2], ay = 2 * ra[1] + ra[3]; /* twice the centre */
  int bx = 2 * rb[0] + rb[2], by = 2 * rb[1] + rb[3];
  if (abs(ax - bx) > 3 * ra[2] || abs(ay - by) > 3 * ra[3])
    return; /* wrapped around the map */
  int x = (ax + bx) * s / 4 - side / 2, y = (ay + by) * s / 4 - side / 2;
  ts_fill_rect(img, x, y, side, side, mark_colour[TILESAT_MARK_BROKEN]);
  ts_frame_rect(img, x, y, side, side, 1, black_px);
}

tilesat_image *tilesat_render_marked(const tilesat_map *m,
                                     const tilesat_pictures *pics,
                                     const int *tiles, const uint64_t *domains,
                                     const uint8_t *marks, const int *pairs,
                                     size_t npairs) {
  if (!tiles && !domains)
    ts_misuse(__func__, "neither tiles nor domains");
  painter p;
  painter_init(&p, m, pics);
  size_t W, H;
  if (!marked_size(&p, &W, &H)) {
    painter_free(&p);
    return NULL;
  }
  int nw, nh, s = mark_scale(&p);
  map_size(&p, &nw, &nh);
  tilesat_image *native = tilesat_image_new(nw, nh);
  draw(&p, tiles, domains, NULL, native, 0, 0);
  size_t ncells = (size_t)m->width * (size_t)m->height;
  bool any = false;
  for (size_t c = 0; marks && c < ncells; c++)
    any |= marks[c] != TILESAT_MARK_NONE;
  tilesat_image *img = tilesat_image_new((int)W, (int)H);
  for (int y = 0; y < nh; y++)
    for (int x = 0; x < nw; x++) {
      uint8_t px[4];
      memcpy(px, native->rgba + 4 * ((size_t)y * (size_t)nw + (size_t)x), 4);
      int cell = any ? owner(&p, x, y) : -1;
      if (cell >= 0 && marks[cell] == TILESAT_MARK_NONE)
        fade(px);
      ts_fill_rect(img, x * s, y * s, s, s, px);
    }
  tilesat_image_free(native);
  for (size_t c = 0; any && c < ncells; c++) {
    int k = marks[c];
    if (k == TILESAT_MARK_NONE || k >= TILESAT_NMARKS)
      continue;
    int rect[4];
    cell_rect(&p, (int)c, rect);
    int side = (rect[2] < rect[3] ? rect[2] : rect[3]) * s;
    int b = side / 8 > 2 ? side / 8 : 2;
    ts_frame_rect(img, rect[0] * s, rect[1] * s, rect[2] * s, rect[3] * s, b,
                  mark_colour[k]);
  }
  for (size_t i = 0; i < npairs; i++) {
    int rect[4];
    cell_rect(&p, pairs[2 * i], rect);
    int side = (rect[2] < rect[3] ? rect[2] : rect[3]) * s;
    pair_dot(&p, img, s, pairs[2 * i], pairs[2 * i + 1],
             side / 3 > 6 ? side / 3 : 6);
  }
  ts_legend_row rows[TILESAT_NMARKS + 1];
  uint8_t faded[4], blend[4];
  bool blends = false; /* a cell of several tiles */
  for (size_t c = 0; !tiles && c < ncells && !blends; c++) {
    int k = 0;
    for (int w = 0; w < p.words; w++)
      k += __builtin_popcountll(domains[c * (size_t)p.words + (size_t)w]);
    blends = k > 1;
  }
  size_t n =
      legend_rows(&p, any ? marks : NULL, blends, false, rows, faded, blend);
  painter_free(&p);
  tilesat_image *out = n ? ts_legend_add(img, rows, n) : NULL;
  if (n) {
    tilesat_image_free(img);
    img = out;
  }
  return img;
}
