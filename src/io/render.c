/* render.c: maps as pictures.  Every pixel of the output comes from exactly
 * one cell and one offset inside that cell's picture, so a cell with several
 * possible tiles (a domain) is simply the average of those tiles' pixels at
 * that offset: the same code draws witnesses, blends and highlights.  The
 * ts_painter that does so (pictures, window, scale, a cell's colours) is in
 * painter.c. */
#include "io/painter.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Cells outside a highlight are washed out two thirds of the way to
 * white, so that the marked ones stand out in full colour. */
static void fade(uint8_t px[4]) {
  for (int i = 0; i < 3; i++)
    px[i] = (uint8_t)((px[i] + 2 * 255 + 1) / 3);
}

/* Is the cell pinned (drawn as its pin, never washed out)? */
static bool pinned_cell(const ts_painter *p, int cell) {
  return p->pinned && p->pinned[cell] >= 0;
}

/* Pixel (dy, dx) of a cell, highlighted or not: a red frame two pixels
 * wide on pictures of 8 or more (one below), a red tint under 3. */
static void emphasise(const ts_painter *p, const bool *highlight, int cell,
                      int dy, int dx, uint8_t px[4]) {
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
static void draw_overlap(const ts_painter *p, const int *tiles,
                         const uint64_t *domains, const bool *highlight,
                         tilesat_image *img, int x0, int y0) {
  const tilesat_map *m = p->m;
  int w, h;
  ts_map_size(p, &w, &h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int r = y < p->h ? y : p->h - 1;
      int c = x < p->w ? x : p->w - 1;
      uint8_t *px =
          img->rgba +
          ((size_t)(y0 + y) * (size_t)img->width + (size_t)(x0 + x)) * 4;
      int cell = (p->r0 + r) * m->width + p->c0 + c;
      ts_cell_pixel(p, tiles, domains, cell, y - r, x - c, px);
      if (highlight && highlight[cell] && y == r && x == c)
        mark(px, true);
      else if (highlight && !highlight[cell])
        fade(px);
    }
}

/* Draw one map into `img` with its top-left corner at (x0, y0). */
static void draw(const ts_painter *p, const int *tiles, const uint64_t *domains,
                 const bool *highlight, tilesat_image *img, int x0, int y0) {
  if (p->overlap) {
    draw_overlap(p, tiles, domains, highlight, img, x0, y0);
    return;
  }
  const tilesat_map *m = p->m;
  for (int r = 0; r < p->h; r++)
    for (int c = 0; c < p->w; c++) {
      int cell = (p->r0 + r) * m->width + p->c0 + c;
      int cx = x0 + c * p->tw +
               (m->topo == TILESAT_HEX && (p->r0 + r) % 2 ? p->tw / 2 : 0);
      int cy = y0 + r * p->th;
      if (tiles && !highlight) { /* a tile (or nothing), a row at a time */
        size_t row = (size_t)p->tw * 4;
        for (int dy = 0; dy < p->th; dy++) {
          uint8_t *px =
              img->rgba +
              ((size_t)(cy + dy) * (size_t)img->width + (size_t)cx) * 4;
          if (tiles[cell] < 0) /* masked: not part of the map */
            memset(px, 0, row);
          else
            memcpy(px, p->pix[tiles[cell]] + (size_t)dy * row, row);
        }
        continue;
      }
      for (int dy = 0; dy < p->th; dy++)
        for (int dx = 0; dx < p->tw; dx++) {
          uint8_t *px =
              img->rgba +
              ((size_t)(cy + dy) * (size_t)img->width + (size_t)(cx + dx)) * 4;
          ts_cell_pixel(p, tiles, domains, cell, dy, dx, px);
          emphasise(p, highlight, cell, dy, dx, px);
        }
    }
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

/* ----------------------------------------------------- scaled and marked */

static const uint8_t grey[4] = {192, 192, 192, 255};
static const uint8_t black_px[4] = {0, 0, 0, 255};
static const uint8_t white_px[4] = {255, 255, 255, 255};

static bool side_fits(size_t w, size_t h) {
  return w <= (1u << 15) && h <= (1u << 15) && w * h <= (1u << 26);
}

/* The output's size: the picture, scaled. */
static void scaled_size(const ts_painter *p, size_t *w, size_t *h) {
  long long nw, nh;
  if (p->overlap) {
    int iw, ih;
    ts_map_size(p, &iw, &ih);
    nw = iw;
    nh = ih;
  } else { /* not saturated: scaled down, it may fit */
    nw = (long long)p->w * p->tw + (p->m->topo == TILESAT_HEX ? p->tw / 2 : 0);
    nh = (long long)p->h * p->th;
  }
  *w = (size_t)up(nw, p->xn, p->xd);
  *h = (size_t)up(nh, p->yn, p->yd);
}

/* A cell's rectangle on the picture before scaling (x, y, w, h), false
 * when it is outside the window. */
static bool cell_rect(const ts_painter *p, int cell, int rect[4]) {
  const tilesat_map *m = p->m;
  int r = cell / m->width - p->r0, c = cell % m->width - p->c0;
  if (r < 0 || c < 0 || r >= p->h || c >= p->w)
    return false;
  if (p->overlap) {
    rect[0] = c;
    rect[1] = r;
    rect[2] = rect[3] = 1;
    return true;
  }
  rect[0] =
      c * p->tw + (m->topo == TILESAT_HEX && (p->r0 + r) % 2 ? p->tw / 2 : 0);
  rect[1] = r * p->th;
  rect[2] = p->tw;
  rect[3] = p->th;
  return true;
}

/* The same on the output, scaled. */
static bool out_rect(const ts_painter *p, int cell, int o[4]) {
  int rect[4];
  if (!cell_rect(p, cell, rect))
    return false;
  o[0] = (int)up(rect[0], p->xn, p->xd);
  o[1] = (int)up(rect[1], p->yn, p->yd);
  o[2] = (int)up(rect[0] + rect[2], p->xn, p->xd) - o[0];
  o[3] = (int)up(rect[1] + rect[3], p->yn, p->yd) - o[1];
  return true;
}

/* The cell a pixel of the picture before scaling belongs to, or -1. */
static int owner(const ts_painter *p, int x, int y) {
  const tilesat_map *m = p->m;
  if (p->overlap) {
    int r = y < p->h ? y : p->h - 1;
    int c = x < p->w ? x : p->w - 1;
    return (p->r0 + r) * m->width + p->c0 + c;
  }
  int r = y / p->th;
  int shift = m->topo == TILESAT_HEX && (p->r0 + r) % 2 ? p->tw / 2 : 0;
  if (x < shift || (x - shift) / p->tw >= p->w)
    return -1;
  return (p->r0 + r) * m->width + p->c0 + (x - shift) / p->tw;
}

/* The map drawn, the cells `marks` leaves unmarked washed out (when any
 * is marked), scaled by nearest neighbour. */
/* The same drawn pixel by pixel from the cells, for a picture scaled
 * down: its full size may be larger than any image (Castle's 7-pixel
 * tiles on 2048x2048 cells at --scale 1). */
static tilesat_image *picture_down(const ts_painter *p, const int *tiles,
                                   const uint64_t *domains,
                                   const uint8_t *marks) {
  const tilesat_map *m = p->m;
  size_t W, H;
  scaled_size(p, &W, &H);
  tilesat_image *img = tilesat_image_new((int)W, (int)H);
  for (size_t Y = 0; Y < H; Y++) {
    int y = (int)((long long)Y * p->yd / p->yn);
    for (size_t X = 0; X < W; X++) {
      int x = (int)((long long)X * p->xd / p->xn), cell = owner(p, x, y);
      if (cell < 0)
        continue; /* a hex row's shift: transparent */
      int r = cell / m->width - p->r0, c = cell % m->width - p->c0;
      int dy = p->overlap ? y - r : y - r * p->th;
      int dx =
          p->overlap
              ? x - c
              : x - c * p->tw -
                    (m->topo == TILESAT_HEX && (p->r0 + r) % 2 ? p->tw / 2 : 0);
      uint8_t *px = img->rgba + 4 * (Y * W + X);
      ts_cell_pixel(p, tiles, domains, cell, dy, dx, px);
      if (marks && marks[cell] == TILESAT_MARK_NONE && !pinned_cell(p, cell))
        fade(px);
    }
  }
  return img;
}

static tilesat_image *picture(const ts_painter *p, const int *tiles,
                              const uint64_t *domains, const bool *highlight,
                              const uint8_t *marks) {
  int nw, nh;
  ts_map_size(p, &nw, &nh);
  size_t W, H;
  scaled_size(p, &W, &H);
  if (!highlight && W * H < (size_t)nw * (size_t)nh)
    return picture_down(p, tiles, domains, marks);
  tilesat_image *native = tilesat_image_new(nw, nh);
  draw(p, tiles, domains, highlight, native, 0, 0);
  for (int y = 0; marks && y < nh; y++)
    for (int x = 0; x < nw; x++) {
      int cell = owner(p, x, y);
      if (cell >= 0 && marks[cell] == TILESAT_MARK_NONE &&
          !pinned_cell(p, cell))
        fade(native->rgba + 4 * ((size_t)y * (size_t)nw + (size_t)x));
    }
  if (p->xn == p->xd && p->yn == p->yd)
    return native;
  tilesat_image *img = tilesat_image_new((int)W, (int)H);
  for (size_t Y = 0; Y < H; Y++) {
    size_t y = (size_t)((long long)Y * p->yd / p->yn);
    for (size_t X = 0; X < W; X++) {
      size_t x = (size_t)((long long)X * p->xd / p->xn);
      memcpy(img->rgba + 4 * (Y * W + X),
             native->rgba + 4 * (y * (size_t)nw + x), 4);
    }
  }
  tilesat_image_free(native);
  return img;
}

/* A mark's frame: 2 pixels, 1/8 of a cell of 24 pixels or more. */
static int mark_width(int side) { return side / 8 > 2 ? side / 8 : 2; }

/* A pin's mark on the output rectangle o: a frame t pixels black, t white
 * (inside a mark's frame of `in` pixels), and the cell's picture drawn
 * whole inside it, resized to fit: the frames cover none of the tile's
 * pixels, so two pinned tiles that differ look different (every pixel of
 * the picture shows while the inside is as large as the picture). */
static void pin_mark(const ts_painter *p, tilesat_image *img, const int *tiles,
                     const uint64_t *domains, int cell, const int o[4], int in,
                     int t) {
  ts_frame_rect(img, o[0] + in, o[1] + in, o[2] - 2 * in, o[3] - 2 * in, t,
                black_px);
  ts_frame_rect(img, o[0] + in + t, o[1] + in + t, o[2] - 2 * (in + t),
                o[3] - 2 * (in + t), t, white_px);
  int b = in + 2 * t, iw = o[2] - 2 * b, ih = o[3] - 2 * b;
  for (int y = 0; y < ih; y++)
    for (int x = 0; x < iw; x++) {
      int X = o[0] + b + x, Y = o[1] + b + y;
      if (X < 0 || Y < 0 || X >= img->width || Y >= img->height)
        continue;
      int dx = p->overlap ? 0 : (int)((long long)x * p->tw / iw);
      int dy = p->overlap ? 0 : (int)((long long)y * p->th / ih);
      ts_cell_pixel(p, tiles, domains, cell, dy, dx,
                    img->rgba +
                        4 * ((size_t)Y * (size_t)img->width + (size_t)X));
    }
}

/* A pin frame's width on a cell of `side` pixels. */
static int pin_width(int side) { return side / 16 > 1 ? side / 16 : 1; }

/* Pin i's rectangle on the output (o) and the frames around it: *in, a
 * mark's frame, and the pin frame's width (returned), 0 when the pin is
 * not framed (a second pin on its cell, outside the window, a cell under
 * 5 pixels a side or with no room inside the mark's frame). */
static int pin_room(const ts_painter *p, size_t i, const uint8_t *marks,
                    int o[4], int *in) {
  int cell = p->m->pins.v[i].cell;
  if (!p->pinned || p->pinned[cell] != p->m->pins.v[i].tile ||
      !out_rect(p, cell, o))
    return 0;
  int side = o[2] < o[3] ? o[2] : o[3];
  int t = pin_width(side);
  *in =
      marks && marks[cell] != TILESAT_MARK_NONE && marks[cell] < TILESAT_NMARKS
          ? mark_width(side)
          : 0;
  return side - 2 * *in >= 4 * t + 1 ? t : 0;
}

/* Pinned cells marked (pin_mark); how many were. */
static size_t frame_pins(const ts_painter *p, tilesat_image *img,
                         const int *tiles, const uint64_t *domains,
                         const uint8_t *marks) {
  size_t framed = 0;
  for (size_t i = 0; p->pinned && i < p->m->pins.n; i++) {
    int o[4], in, t = pin_room(p, i, marks, o, &in);
    if (t) {
      pin_mark(p, img, tiles, domains, p->m->pins.v[i].cell, o, in, t);
      framed++;
    }
  }
  return framed;
}

/* ------------------------------------------------------ pins drawn whole */

/* The largest --scale (options.h) that the least scale keeping pins whole
 * is looked for under. */
#define SCALE_MAX 512

/* A pinned tile's picture as drawn (an overlapping map's: one pixel). */
static void pin_need(const ts_painter *p, int *w, int *h) {
  *w = p->overlap ? 1 : p->tw;
  *h = p->overlap ? 1 : p->th;
}

/* Does a pinned tile show whole, every pixel of its picture, on a cell of
 * cw x ch output pixels: inside its frames (pin_room) and, `marked`, a
 * mark's frame, the widest frames a pinned cell can get (unframed: inside
 * the mark's frame alone)? */
static bool pin_whole(const ts_painter *p, int cw, int ch, bool marked) {
  int side = cw < ch ? cw : ch, t = pin_width(side), nw, nh;
  int in = marked ? mark_width(side) : 0;
  int b = side - 2 * in >= 4 * t + 1 ? in + 2 * t : in;
  pin_need(p, &nw, &nh);
  return cw - 2 * b >= nw && ch - 2 * b >= nh;
}

/* The same on a heat map's cell of `cell` pixels (framed from 6). */
static bool heat_pin_whole(const ts_painter *p, int cell) {
  int b = cell >= 6 ? 2 * pin_width(cell) : 0, nw, nh;
  pin_need(p, &nw, &nh);
  return cell - 2 * b >= nw && cell - 2 * b >= nh;
}

/* A cell's size on the output as the ts_painter scales it. */
static void cell_out(const ts_painter *p, int *cw, int *ch) {
  int nw = p->overlap ? 1 : p->tw, nh = p->overlap ? 1 : p->th;
  *cw = (int)up(nw, p->xn, p->xd);
  *ch = (int)up(nh, p->yn, p->yd);
}

/* Is a pin drawn (its cell in the window)? */
static bool pins_shown(const ts_painter *p) {
  int rect[4];
  for (size_t i = 0; p->pinned && i < p->m->pins.n; i++)
    if (cell_rect(p, p->m->pins.v[i].cell, rect))
      return true;
  return false;
}

/* The least --scale N from which on (up to SCALE_MAX) pinned tiles show
 * whole, N pixels a cell across as painter_scale draws it (a heat map's:
 * N x N); -1 when SCALE_MAX does not. */
static int least_whole(const ts_painter *p, bool marked, bool heat) {
  int least = -1;
  for (int n = SCALE_MAX; n >= 1; n--) {
    long long nh =
        p->overlap || heat ? n : ((long long)n * p->th + p->tw / 2) / p->tw;
    int ch = nh > 0 ? (int)nh : 1;
    if (heat ? !heat_pin_whole(p, n) : !pin_whole(p, n, ch, marked))
      break;
    least = n;
  }
  return least;
}

/* ---------------------------------------------------------------- legend */

#define NAME_SHOWN 40 /* a tile's name in a legend: at most this long */

typedef struct legend {
  ts_legend_row rows[TILESAT_NMARKS + 3 + TILESAT_LEGEND_TILES];
  char text[TILESAT_LEGEND_TILES + 1][NAME_SHOWN + 32];
  uint8_t colour[TILESAT_LEGEND_TILES]
                [4]; /* the tiles' (the ts_painter's go) */
  uint8_t faded[4], blend[4];
  size_t n;
} legend;

/* Is every tile drawn in one colour, and is some tile's name not its
 * colour?  Then a legend says which tile each colour is. */
static bool plain_colours(const ts_painter *p) {
  const tilesat_rules *r = p->m->rules;
  if (p->overlap)
    return false;
  size_t n = (size_t)p->tw * (size_t)p->th;
  bool named = false;
  for (int t = 0; t < r->ntiles; t++) {
    for (size_t k = 1; k < n; k++)
      if (memcmp(p->pix[t] + 4 * k, p->pix[t], 4))
        return false;
    uint8_t c[4];
    named |= !ts_parse_colour(r->names.v.v[t], c);
  }
  return named;
}

/* The tiles the window shows, of `tiles` maps (nmaps of them) or of the
 * domains (all: every tile of the rules). */
static bool *shown_tiles(const ts_painter *p, const int *const *maps,
                         size_t nmaps, const uint64_t *domains, bool all) {
  const tilesat_map *m = p->m;
  bool *used = ts_calloc((size_t)m->rules->ntiles, 1);
  for (int r = p->r0; r < p->r0 + p->h; r++)
    for (int c = p->c0; c < p->c0 + p->w; c++) {
      size_t cell = (size_t)r * (size_t)m->width + (size_t)c;
      for (size_t k = 0; k < nmaps; k++)
        if (maps[k][cell] >= 0)
          used[maps[k][cell]] = true;
      for (int t = 0; domains && t < m->rules->ntiles; t++)
        used[t] |= ts_bit(domains + cell * (size_t)p->words, t);
    }
  for (int t = 0; all && t < m->rules->ntiles; t++)
    used[t] = true;
  return used;
}

/* Rows naming the plain colours of the tiles shown, in the rules' order:
 * at most TILESAT_LEGEND_TILES, then how many more. */
static void tile_rows(const ts_painter *p, const bool *used, legend *lg) {
  const tilesat_rules *r = p->m->rules;
  int more = 0;
  size_t k = 0;
  for (int t = 0; t < r->ntiles; t++) {
    if (!used[t])
      continue;
    if (k == TILESAT_LEGEND_TILES) {
      more++;
      continue;
    }
    char shown[NAME_SHOWN + 1];
    tilesat_shown(shown, sizeof shown, r->names.v.v[t]);
    snprintf(lg->text[k], sizeof lg->text[k], "%s", shown);
    memcpy(lg->colour[k], p->pix[t], 4);
    lg->rows[lg->n++] =
        (ts_legend_row){lg->colour[k], NULL, NULL, lg->text[k], NULL};
    k++;
  }
  if (more) {
    snprintf(lg->text[k], sizeof lg->text[k], "and %d more tile%s", more,
             more == 1 ? "" : "s");
    lg->rows[lg->n++] =
        (ts_legend_row){white_px, NULL, NULL, lg->text[k], NULL};
  }
}

static void pin_row(legend *lg) {
  lg->rows[lg->n++] = (ts_legend_row){
      grey, black_px, NULL, "pinned: a tile you placed (--pin, --pins-from)",
      white_px};
}

/* A plain picture's legend (how->legend): the tiles' colours when they
 * are plain, the pins' frame when `pins` were framed. */
static void plain_legend(const ts_painter *p, const int *const *maps,
                         size_t nmaps, const uint64_t *domains, bool pins,
                         bool all, legend *lg) {
  lg->n = 0;
  if (!p->how || !p->how->legend)
    return;
  if (plain_colours(p)) {
    bool *used = shown_tiles(p, maps, nmaps, domains, all);
    tile_rows(p, used, lg);
    free(used);
  }
  if (pins)
    pin_row(lg);
}

/* img with lg below it (img itself when lg is empty; NULL, img freed,
 * when too large). */
static tilesat_image *with_legend(tilesat_image *img, const legend *lg) {
  if (!lg->n)
    return img;
  tilesat_image *out = ts_legend_add(img, lg->rows, lg->n);
  tilesat_image_free(img);
  return out;
}

/* Does a picture of w x h with the largest legend fit? */
static bool legend_fits(size_t w, size_t h, const legend *lg) {
  if (lg->n)
    ts_legend_size(lg->rows, lg->n, &w, &h);
  return side_fits(w, h);
}

/* ---------------------------------------------------------- plain maps */

static void painter_open(ts_painter *p, const tilesat_map *m,
                         const tilesat_pictures *pics, const tilesat_draw *how,
                         size_t nmaps) {
  ts_painter_init(p, m, pics);
  ts_painter_how(p, how);
  ts_painter_scale(p, nmaps);
}

/* Does the plain picture fit, before and after scaling? */
static bool plain_fits(const ts_painter *p, size_t nmaps, size_t *sw,
                       size_t *sh, size_t *cols) {
  int nw, nh;
  ts_map_size(p, &nw, &nh);
  size_t w, h;
  scaled_size(p, &w, &h);
  if (!side_fits(w, h) ||
      (w * h >= (size_t)nw * (size_t)nh && !image_fits((size_t)nw, (size_t)nh)))
    return false; /* (a picture scaled down is drawn at its size) */
  if (!nmaps) {
    *sw = w;
    *sh = h;
  } else if (w > INT_MAX || h > INT_MAX ||
             !sheet_size((int)w, (int)h, nmaps, cols, sw, sh)) {
    return false;
  }
  legend lg;
  plain_legend(p, NULL, 0, NULL, p->pinned != NULL, true, &lg);
  return legend_fits(*sw, *sh, &lg);
}

tilesat_image *tilesat_render(const tilesat_map *m,
                              const tilesat_pictures *pics, const int *tiles,
                              const uint64_t *domains, const bool *highlight) {
  if (!tiles && !domains)
    ts_misuse(__func__, "neither tiles nor domains");
  ts_painter p;
  ts_painter_init(&p, m, pics);
  int w, h;
  ts_map_size(&p, &w, &h);
  tilesat_image *img = image_fits((size_t)w, (size_t)h)
                           ? picture(&p, tiles, domains, highlight, NULL)
                           : NULL;
  ts_painter_free(&p);
  return img;
}

tilesat_image *tilesat_render_drawn(const tilesat_map *m,
                                    const tilesat_pictures *pics,
                                    const int *tiles, const uint64_t *domains,
                                    const tilesat_draw *how) {
  if (!tiles && !domains)
    ts_misuse(__func__, "neither tiles nor domains");
  ts_painter p;
  painter_open(&p, m, pics, how, 1);
  size_t w, h, cols;
  tilesat_image *img = NULL;
  if (plain_fits(&p, 0, &w, &h, &cols)) {
    img = picture(&p, tiles, domains, NULL, NULL);
    size_t pins = frame_pins(&p, img, tiles, domains, NULL);
    legend lg;
    const int *maps[1] = {tiles};
    plain_legend(&p, maps, tiles ? 1 : 0, domains, pins > 0, false, &lg);
    img = with_legend(img, &lg);
  }
  ts_painter_free(&p);
  return img;
}

bool tilesat_render_fits(const tilesat_map *m, const tilesat_pictures *pics) {
  ts_painter p;
  ts_painter_init(&p, m, pics);
  int w, h;
  ts_map_size(&p, &w, &h);
  ts_painter_free(&p);
  return image_fits((size_t)w, (size_t)h);
}

bool tilesat_render_drawn_fits(const tilesat_map *m,
                               const tilesat_pictures *pics,
                               const tilesat_draw *how) {
  ts_painter p;
  painter_open(&p, m, pics, how, 1);
  size_t w, h, cols;
  bool fits = plain_fits(&p, 0, &w, &h, &cols);
  ts_painter_free(&p);
  return fits;
}

/* ---------------------------------------------------------- contact sheets */

size_t tilesat_render_sheet_fits(const tilesat_map *m,
                                 const tilesat_pictures *pics, size_t nmaps) {
  return tilesat_render_sheet_drawn_fits(m, pics, nmaps, NULL);
}

size_t tilesat_render_sheet_drawn_fits(const tilesat_map *m,
                                       const tilesat_pictures *pics,
                                       size_t nmaps, const tilesat_draw *how) {
  ts_painter p;
  painter_open(&p, m, pics, how, nmaps);
  /* a larger sheet is never smaller (columns and rows only grow): the
   * largest that fits by bisection, in [lo, hi) */
  size_t cols, sw, sh, lo = 0, hi = nmaps > (1u << 26) ? (1u << 26) : nmaps;
  if (plain_fits(&p, hi, &sw, &sh, &cols)) {
    ts_painter_free(&p);
    return hi;
  }
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (plain_fits(&p, mid, &sw, &sh, &cols))
      lo = mid;
    else
      hi = mid;
  }
  ts_painter_free(&p);
  return lo;
}

tilesat_image *tilesat_render_sheet(const tilesat_map *m,
                                    const tilesat_pictures *pics,
                                    const int *const *maps, size_t nmaps) {
  return tilesat_render_sheet_drawn(m, pics, maps, nmaps, NULL);
}

tilesat_image *tilesat_render_sheet_drawn(const tilesat_map *m,
                                          const tilesat_pictures *pics,
                                          const int *const *maps, size_t nmaps,
                                          const tilesat_draw *how) {
  ts_painter p;
  painter_open(&p, m, pics, how, nmaps);
  size_t w, h, cols, sw, sh;
  scaled_size(&p, &w, &h);
  if (!plain_fits(&p, nmaps, &sw, &sh, &cols)) {
    ts_painter_free(&p);
    return NULL;
  }
  tilesat_image *img = tilesat_image_new((int)sw, (int)sh);
  for (size_t k = 0; k < sw * sh; k++) {
    img->rgba[4 * k] = img->rgba[4 * k + 1] = img->rgba[4 * k + 2] = 0x80;
    img->rgba[4 * k + 3] = 255;
  }
  size_t pins = 0, g = TILESAT_SHEET_GAP;
  for (size_t k = 0; k < nmaps; k++) {
    tilesat_image *one = picture(&p, maps[k], NULL, NULL, NULL);
    pins += frame_pins(&p, one, maps[k], NULL, NULL);
    size_t x0 = (k % cols) * (w + g), y0 = (k / cols) * (h + g);
    for (size_t y = 0; y < h; y++)
      memcpy(img->rgba + 4 * ((y0 + y) * sw + x0), one->rgba + 4 * y * w,
             4 * w);
    tilesat_image_free(one);
  }
  legend lg;
  plain_legend(&p, maps, nmaps, NULL, pins > 0, false, &lg);
  ts_painter_free(&p);
  return with_legend(img, &lg);
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

/* The scale that gives each cell TILESAT_MARK_PIXELS a side; more, up to
 * 48 pixels a cell, while the map is under 192 pixels wide. */
static int mark_scale(const ts_painter *p) {
  int side = p->overlap ? 1 : p->tw < p->th ? p->tw : p->th;
  int s = (TILESAT_MARK_PIXELS + side - 1) / side, w, h;
  ts_map_size(p, &w, &h);
  while ((long long)w * (s + 1) <= 192 && side * (s + 1) <= 48)
    s++;
  return s;
}

/* The legend's rows for these marks: a row per kind of mark used, the
 * washed-out cells, the blends, the pins (all: every row there may be). */
static void marked_legend(const ts_painter *p, const uint8_t *marks,
                          const uint64_t *domains, bool blends, bool pins,
                          bool all, legend *lg) {
  size_t ncells = (size_t)p->m->width * (size_t)p->m->height;
  bool used[TILESAT_NMARKS] = {false};
  lg->n = 0;
  for (size_t c = 0; marks && c < ncells; c++)
    if (marks[c] < TILESAT_NMARKS)
      used[marks[c]] = true;
  for (int k = 1; k < TILESAT_NMARKS; k++)
    if (used[k] || all)
      lg->rows[lg->n++] = (ts_legend_row){
          k == TILESAT_MARK_EMPTY ? black_px : grey, mark_colour[k],
          k == TILESAT_MARK_BROKEN ? mark_colour[k] : NULL, mark_text[k], NULL};
  memcpy(lg->faded, grey, 4);
  fade(lg->faded);
  if (lg->n && (used[TILESAT_MARK_NONE] || all))
    lg->rows[lg->n++] = (ts_legend_row){lg->faded, NULL, NULL,
                                        mark_text[TILESAT_MARK_NONE], NULL};
  if (blends || all) {
    const tilesat_rules *r = p->m->rules;
    uint8_t a[4], b[4];
    tilesat_tile_colour(r, 0, a);
    tilesat_tile_colour(r, r->ntiles > 1 ? 1 : 0, b);
    for (int k = 0; k < 4; k++)
      lg->blend[k] = (uint8_t)((a[k] + b[k] + 1) / 2);
    lg->rows[lg->n++] = (ts_legend_row){
        lg->blend, NULL, NULL, "blend: the tiles a cell may still hold", NULL};
  }
  if (pins || (all && p->pinned))
    pin_row(lg);
  if (p->how && p->how->legend && plain_colours(p)) {
    bool *used_tiles = shown_tiles(p, NULL, 0, domains, all);
    tile_rows(p, used_tiles, lg);
    free(used_tiles);
  }
}

/* The scaled map's size, and with the largest legend. */
static bool marked_size(const ts_painter *p, size_t *w, size_t *h) {
  int nw, nh;
  ts_map_size(p, &nw, &nh);
  scaled_size(p, w, h);
  if (!side_fits(*w, *h) || (*w * *h >= (size_t)nw * (size_t)nh &&
                             !image_fits((size_t)nw, (size_t)nh)))
    return false; /* (a picture scaled down is drawn at its size) */
  legend lg;
  marked_legend(p, NULL, NULL, true, true, true, &lg);
  return legend_fits(*w, *h, &lg);
}

/* The marked pictures' own scale grown, when pins are drawn, to the
 * least that shows each pinned tile whole inside the widest frames
 * (pin_whole), while the picture fits; else left as it is (pinned tiles
 * drawn smaller: tilesat_render_pins_cut says so). */
static void pins_scale(ts_painter *p) {
  if (!pins_shown(p))
    return;
  long long s0 = p->xn, big = p->tw > p->th ? p->tw : p->th;
  for (long long s = s0; s * big <= (1 << 15); s++) {
    p->xn = p->yn = s;
    int cw, ch;
    cell_out(p, &cw, &ch);
    if (!pin_whole(p, cw, ch, true))
      continue;
    size_t w, h;
    if (!marked_size(p, &w, &h))
      break;
    return;
  }
  p->xn = p->yn = s0;
}

static void marked_open(ts_painter *p, const tilesat_map *m,
                        const tilesat_pictures *pics, const tilesat_draw *how) {
  ts_painter_init(p, m, pics);
  ts_painter_how(p, how);
  if (how && how->scale > 0) {
    ts_painter_scale(p, 1);
  } else {
    p->xn = p->yn = mark_scale(p);
    p->xd = p->yd = 1;
    pins_scale(p);
  }
}

bool tilesat_render_marked_fits(const tilesat_map *m,
                                const tilesat_pictures *pics) {
  return tilesat_render_marked_drawn_fits(m, pics, NULL);
}

bool tilesat_render_marked_drawn_fits(const tilesat_map *m,
                                      const tilesat_pictures *pics,
                                      const tilesat_draw *how) {
  ts_painter p;
  marked_open(&p, m, pics, how);
  size_t w, h;
  bool fits = marked_size(&p, &w, &h);
  ts_painter_free(&p);
  return fits;
}

/* The dot of a broken pair: on the edge between the two cells' centres,
 * when they are neighbours on the picture. */
static void pair_dot(const ts_painter *p, tilesat_image *img, int a, int b) {
  int ra[4], rb[4];
  if (!out_rect(p, a, ra) || !out_rect(p, b, rb))
    return;
  int side = (ra[2] < ra[3] ? ra[2] : ra[3]) / 3;
  side = side > 6 ? side : 6;
  int ax = 2 * ra[0] + ra[2], ay = 2 * ra[1] + ra[3]; /* twice the centre */
  int bx = 2 * rb[0] + rb[2], by = 2 * rb[1] + rb[3];
  if (abs(ax - bx) > 3 * ra[2] || abs(ay - by) > 3 * ra[3])
    return; /* wrapped around the map */
  int x = (ax + bx) / 4 - side / 2, y = (ay + by) / 4 - side / 2;
  ts_fill_rect(img, x, y, side, side, mark_colour[TILESAT_MARK_BROKEN]);
  ts_frame_rect(img, x, y, side, side, 1, black_px);
}

/* The marks' frames. */
static void frame_marks(const ts_painter *p, tilesat_image *img,
                        const uint8_t *marks) {
  size_t ncells = (size_t)p->m->width * (size_t)p->m->height;
  for (size_t c = 0; c < ncells; c++) {
    int k = marks[c], o[4];
    if (k == TILESAT_MARK_NONE || k >= TILESAT_NMARKS ||
        !out_rect(p, (int)c, o))
      continue;
    int side = o[2] < o[3] ? o[2] : o[3];
    ts_frame_rect(img, o[0], o[1], o[2], o[3], mark_width(side),
                  mark_colour[k]);
  }
}

/* Does a cell of the window hold several tiles? */
static bool any_blend(const ts_painter *p, const uint64_t *domains) {
  const tilesat_map *m = p->m;
  for (int r = p->r0; r < p->r0 + p->h; r++)
    for (int c = p->c0; c < p->c0 + p->w; c++) {
      size_t cell = (size_t)r * (size_t)m->width + (size_t)c;
      if (p->pinned && p->pinned[cell] >= 0 &&
          ts_bit(domains + cell * (size_t)p->words, p->pinned[cell]))
        continue; /* drawn as its pin */
      int k = 0;
      for (int w = 0; w < p->words; w++)
        k += __builtin_popcountll(domains[cell * (size_t)p->words + (size_t)w]);
      if (k > 1)
        return true;
    }
  return false;
}

tilesat_image *tilesat_render_marked(const tilesat_map *m,
                                     const tilesat_pictures *pics,
                                     const int *tiles, const uint64_t *domains,
                                     const uint8_t *marks, const int *pairs,
                                     size_t npairs) {
  return tilesat_render_marked_drawn(m, pics, tiles, domains, marks, pairs,
                                     npairs, NULL);
}

tilesat_image *
tilesat_render_marked_drawn(const tilesat_map *m, const tilesat_pictures *pics,
                            const int *tiles, const uint64_t *domains,
                            const uint8_t *marks, const int *pairs,
                            size_t npairs, const tilesat_draw *how) {
  if (!tiles && !domains)
    ts_misuse(__func__, "neither tiles nor domains");
  ts_painter p;
  marked_open(&p, m, pics, how);
  size_t W, H;
  if (!marked_size(&p, &W, &H)) {
    ts_painter_free(&p);
    return NULL;
  }
  size_t ncells = (size_t)m->width * (size_t)m->height;
  bool any = false;
  for (size_t c = 0; marks && c < ncells; c++)
    any |= marks[c] != TILESAT_MARK_NONE;
  tilesat_image *img = picture(&p, tiles, domains, NULL, any ? marks : NULL);
  if (any)
    frame_marks(&p, img, marks);
  size_t pins = frame_pins(&p, img, tiles, domains, any ? marks : NULL);
  for (size_t i = 0; i < npairs; i++)
    pair_dot(&p, img, pairs[2 * i], pairs[2 * i + 1]);
  legend lg;
  marked_legend(&p, any ? marks : NULL, domains,
                !tiles && any_blend(&p, domains), pins > 0, false, &lg);
  ts_painter_free(&p);
  return with_legend(img, &lg);
}

/* ---------------------------------------------------------- heat maps */

#define HEAT_PIN_NOTE "framed: a tile you placed (--pin, --pins-from)"

bool tilesat_heat_map_drawn_fits(const tilesat_map *m, long runs, int cell) {
  return ts_heat_map_fits(m->width, m->height, runs, cell,
                          m->pins.n ? HEAT_PIN_NOTE : NULL);
}

/* The heat map's cell: `cell` when given, else TILESAT_HEAT_CELL grown
 * to the least that shows pinned tiles whole (heat_pin_whole), while the
 * heat map fits (else TILESAT_HEAT_CELL: tilesat_heat_map_pins_cut). */
static int heat_cell(const ts_painter *p, long runs, int cell) {
  if (cell > 0)
    return cell;
  const tilesat_map *m = p->m;
  for (int c = TILESAT_HEAT_CELL; p->pinned && c <= (1 << 15); c++)
    if (heat_pin_whole(p, c))
      return ts_heat_map_fits(m->width, m->height, runs, c, HEAT_PIN_NOTE)
                 ? c
                 : TILESAT_HEAT_CELL;
  return TILESAT_HEAT_CELL;
}

/* A ts_painter for the heat map's pins (none: no pins). */
static void heat_painter(ts_painter *p, const tilesat_map *m,
                         const tilesat_pictures *pics, tilesat_draw *how) {
  memset(how, 0, sizeof *how);
  how->pins = true;
  ts_painter_init(p, m, pics);
  ts_painter_how(p, how);
}

tilesat_image *tilesat_heat_map_drawn(const tilesat_map *m,
                                      const tilesat_pictures *pics,
                                      const long *hits, long runs, int cell) {
  ts_painter p;
  tilesat_draw how;
  heat_painter(&p, m, pics, &how);
  cell = heat_cell(&p, runs, cell);
  tilesat_image *img = ts_heat_map(m->width, m->height, hits, runs, cell,
                                   m->pins.n ? HEAT_PIN_NOTE : NULL);
  if (!img || !m->pins.n) {
    ts_painter_free(&p);
    return img;
  }
  int *tiles = ts_calloc((size_t)m->ncells, sizeof *tiles);
  for (int c = 0; c < m->ncells; c++)
    tiles[c] = p.pinned[c] >= 0 ? p.pinned[c] : 0;
  int t = cell >= 6 ? pin_width(cell) : 0;
  for (int c = 0; c < m->ncells; c++)
    if (p.pinned[c] >= 0) { /* the map is drawn one pixel in */
      int o[4] = {1 + c % m->width * cell, 1 + c / m->width * cell, cell, cell};
      pin_mark(&p, img, tiles, NULL, c, o, 0, t);
    }
  free(tiles);
  ts_painter_free(&p);
  return img;
}

int tilesat_heat_map_pins_cut(const tilesat_map *m,
                              const tilesat_pictures *pics, long runs,
                              int cell) {
  ts_painter p;
  tilesat_draw how;
  heat_painter(&p, m, pics, &how);
  int least = 0;
  if (p.pinned && !heat_pin_whole(&p, heat_cell(&p, runs, cell)))
    least = least_whole(&p, false, true);
  ts_painter_free(&p);
  return least;
}

int tilesat_render_pins_cut(const tilesat_map *m, const tilesat_pictures *pics,
                            const tilesat_draw *how, bool marked) {
  ts_painter p;
  if (marked)
    marked_open(&p, m, pics, how);
  else
    painter_open(&p, m, pics, how, 1);
  int least = 0, cw, ch;
  cell_out(&p, &cw, &ch);
  if (pins_shown(&p) && !pin_whole(&p, cw, ch, marked))
    least = least_whole(&p, marked, false);
  ts_painter_free(&p);
  return least;
}

/* --------------------------------------------------- what a picture is */

void tilesat_render_drawn_note(const tilesat_map *m,
                               const tilesat_pictures *pics,
                               const tilesat_draw *how, size_t nmaps,
                               char *note, size_t len) {
  ts_painter p;
  painter_open(&p, m, pics, how, nmaps);
  bool framed = false;
  for (size_t i = 0; p.pinned && i < m->pins.n && !framed; i++) {
    int o[4], in;
    framed = pin_room(&p, i, NULL, o, &in) > 0;
  }
  if (nmaps > 1)
    snprintf(note, len, "sheet");
  else if (p.xn < p.xd || p.yn < p.yd)
    snprintf(note, len, "smaller");
  else if (framed || (how && how->legend && plain_colours(&p)))
    snprintf(note, len, "legend");
  else
    snprintf(note, len, "scaled %lld/%lld %lld/%lld", p.xn, p.xd, p.yn, p.yd);
  ts_painter_free(&p);
}
