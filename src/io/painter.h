/* io/painter.h: the ts_painter (painter.c), which render.c draws maps,
 * sheets, marked pictures and heat maps with. */
#ifndef TILESAT_IO_PAINTER_H
#define TILESAT_IO_PAINTER_H

#include "io/io.h"

typedef struct ts_painter {
  const tilesat_map *m;
  int tw, th, overlap;
  int words;
  uint8_t **pix; /* per tile: tw*th*4 bytes (owned when own[t]) */
  bool *own;
  int r0, c0, h, w;        /* the window drawn: its first row, column, size */
  long long xn, xd;        /* output pixels = picture pixels * xn / xd */
  long long yn, yd;        /* the same down */
  int *pinned;             /* per cell its pinned tile or -1 (NULL: none) */
  const tilesat_draw *how; /* NULL: tilesat_render's defaults */
} ts_painter;

/* Set up for m drawn with pics (NULL: solid squares), freed. */
void ts_painter_init(ts_painter *p, const tilesat_map *m,
                     const tilesat_pictures *pics);
void ts_painter_free(ts_painter *p);
/* The window and the pins `how` asks for; the scale is set apart (the
 * marked pictures' default depends on the window). */
void ts_painter_how(ts_painter *p, const tilesat_draw *how);
/* how->scale pixels a cell, when given (for a sheet of nmaps maps). */
void ts_painter_scale(ts_painter *p, size_t nmaps);
/* Output size of one map. */
void ts_map_size(const ts_painter *p, int *w, int *h);
/* The colour of offset (dy, dx) of `cell`: its tile, or its domain's mean. */
void ts_cell_pixel(const ts_painter *p, const int *tiles,
                   const uint64_t *domains, int cell, int dy, int dx,
                   uint8_t out[4]);

/* A picture coordinate v scaled by num/den, rounded up: the first output
 * pixel whose picture pixel (rounded down) is v or more. */
static inline long long up(long long v, long long num, long long den) {
  return (v * num + den - 1) / den;
}

/* The largest map picture: as many pixels as a PNG tilesat reads back. */
static inline bool image_fits(size_t w, size_t h) {
  return w * h <= (1u << 26);
}

/* A marked pixel: tinted red, or red. */
static inline void mark(uint8_t px[4], bool tint) {
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

#endif
