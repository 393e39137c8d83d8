/* painter.c: how a map's cells become pixels, for render.c: the ts_painter's
 * tiles' pictures (or solid squares for tiles without any), the window
 * drawn, the pins and the scale asked for, the size of a map's picture,
 * and the colour of each offset of a cell (its tile, or its domain's
 * weighted mean). */
#include "io/painter.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 8 /* side of a solid square for tiles without pictures */

/* The side of the solid squares tiles without pictures are drawn as: a
 * pixel when every tile is named by its colour on a square map, else BLOCK
 * (a hex map needs room to shift its odd rows by half a cell). */
static int drawn_side(const tilesat_rules *r, tilesat_topology topo) {
  uint8_t c[4];
  for (int t = 0; t < r->ntiles; t++)
    if (!ts_parse_colour(r->names.v.v[t], c))
      return BLOCK;
  return topo == TILESAT_SQUARE ? 1 : BLOCK;
}

tilesat_pictures *tilesat_pictures_drawn(const tilesat_rules *r,
                                         tilesat_topology topo) {
  int side = drawn_side(r, topo);
  tilesat_pictures *p = tilesat_pictures_new(side, side, 0);
  size_t n = (size_t)side * (size_t)side;
  uint8_t *px = ts_malloc(n * 4);
  for (int t = 0; t < r->ntiles; t++) {
    uint8_t c[4];
    tilesat_tile_colour(r, t, c);
    for (size_t k = 0; k < n; k++)
      memcpy(px + 4 * k, c, 4);
    tilesat_pictures_set(p, r->names.v.v[t], px);
  }
  free(px);
  return p;
}

void ts_painter_init(ts_painter *p, const tilesat_map *m,
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
    p->tw = p->th = drawn_side(r, m->topo);
  }
  p->h = m->height;
  p->w = m->width;
  p->xn = p->xd = p->yn = p->yd = 1;
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

void ts_painter_free(ts_painter *p) {
  for (int t = 0; t < p->m->rules->ntiles; t++)
    if (p->own[t])
      free(p->pix[t]);
  free(p->pix);
  free(p->own);
  free(p->pinned);
}

static int clamp(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* The window and the pins `how` asks for; the scale is set apart (the
 * marked pictures' default depends on the window). */
void ts_painter_how(ts_painter *p, const tilesat_draw *how) {
  const tilesat_map *m = p->m;
  p->how = how;
  if (!how)
    return;
  const int *win = how->window;
  if (win[2] > 0 && win[3] > 0) {
    p->r0 = clamp(win[0], 0, m->height - 1);
    p->c0 = clamp(win[1], 0, m->width - 1);
    p->h = clamp(win[2], 1, m->height - p->r0);
    p->w = clamp(win[3], 1, m->width - p->c0);
    if (m->topo == TILESAT_HEX && p->r0 % 2) { /* keep the rows' shifts */
      p->r0--;
      p->h++;
    }
  }
  if (how->pins && m->pins.n) {
    p->pinned = ts_malloc((size_t)m->ncells * sizeof *p->pinned);
    for (int c = 0; c < m->ncells; c++)
      p->pinned[c] = -1;
    for (size_t i = 0; i < m->pins.n; i++)
      if (p->pinned[m->pins.v[i].cell] < 0)
        p->pinned[m->pins.v[i].cell] = m->pins.v[i].tile;
  }
}

/* The readable default (TILESAT_SCALE_READABLE): tiles of one pixel
 * (colours named by their colour) at up to READABLE_CELL pixels a cell,
 * the picture (a sheet: all its maps) at most READABLE_SIDE a side; other
 * pictures at their size (0). */
#define READABLE_CELL 8
#define READABLE_SIDE 1024
static int readable_scale(const ts_painter *p, size_t nmaps) {
  if (p->overlap || p->tw != 1 || p->th != 1)
    return 0;
  size_t cols = 1;
  while (cols * cols < nmaps)
    cols++;
  size_t rows = nmaps > 1 ? (nmaps + cols - 1) / cols : 1;
  size_t w = cols * (size_t)p->w, h = rows * (size_t)p->h;
  size_t side = w > h ? w : h;
  int s = READABLE_CELL;
  while (s > 1 && side * (size_t)s > READABLE_SIDE)
    s--;
  return s;
}

/* how->scale pixels a cell, when given: a picture's width to that, its
 * height in proportion (an overlapping map: a pixel a cell); nmaps the
 * maps of a sheet (0 or 1: one map). */
void ts_painter_scale(ts_painter *p, size_t nmaps) {
  int n = p->how ? p->how->scale : 0;
  if (n < 0)
    n = readable_scale(p, nmaps);
  if (n <= 0)
    return;
  if (p->overlap) {
    p->xn = p->yn = n;
    p->xd = p->yd = 1;
    return;
  }
  long long nh = ((long long)n * p->th + p->tw / 2) / p->tw;
  p->xn = n;
  p->xd = p->tw;
  p->yn = nh > 0 ? nh : 1;
  p->yd = p->th;
}

/* Output size of one map. */
void ts_map_size(const ts_painter *p, int *w, int *h) {
  const tilesat_map *m = p->m;
  if (p->overlap) {
    /* the last patterns' pixels, where the window reaches the map's end */
    int extra = m->periodic ? 0 : p->overlap - 1;
    *w = p->w + (p->c0 + p->w == m->width ? extra : 0);
    *h = p->h + (p->r0 + p->h == m->height ? extra : 0);
    return;
  }
  /* in 64 bits, saturated: big maps of big pictures overflow an int */
  long long W =
      (long long)p->w * p->tw + (m->topo == TILESAT_HEX ? p->tw / 2 : 0);
  long long H = (long long)p->h * p->th;
  *w = W > INT_MAX ? INT_MAX : (int)W;
  *h = H > INT_MAX ? INT_MAX : (int)H;
}

/* The colour of offset (dy, dx) of `cell`: its tile, or its domain's mean. */
void ts_cell_pixel(const ts_painter *p, const int *tiles,
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
  int pin = p->pinned ? p->pinned[cell] : -1;
  if (pin >= 0 && ts_bit(set, pin)) { /* a pin: its tile, not a blend */
    memcpy(out, p->pix[pin] + off, 4);
    return;
  }
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
