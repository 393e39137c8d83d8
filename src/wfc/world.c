/* world.c: chunks of an endless map (tilesat world), by modifying in
 * blocks (wfc/modify.h) on the unbounded plane.
 *
 * The plane starts as the rules' smallest periodic pattern, tiled from
 * cell (0,0); layer l (0..MOD_LAYERS-1) makes every block of its grid
 * (ts_mod_layer_open: bh x bw cells, corners at the layer's offset modulo
 * MOD_P) again, its one-cell margin fixed.  The cells asked for are computed
 * from their dependency cone alone: the blocks of the last layer that meet
 * them, which need the state after the layer before on their whole area (the
 * margin, and the content a block that fails keeps), so the region of
 * layer l is that of layer l+1 grown to hold every block of layer l
 * that meets it, down to the pattern.  A block's result depends on its place
 * (its key: the seed, its layer, block row and column), the seed and its cells'
 * content alone, so a chunk is the same whatever was asked before, and time and
 * memory grow with the chunk, not with its coordinates (cells in 128-bit
 * integers: chunk row times chunk size passes 64 bits). */
#include "wfc/modify.h"

#include <stdlib.h>
#include <string.h>

/* The world's cells held at once: the region of the first layer. */
#define WORLD_MAX_SIDE 8192

struct tilesat_world {
  const tilesat_rules *r;
  tilesat_topology topo;
  uint64_t seed;
  tilesat_solve_options so;
  ts_mod_pattern pat;
  tilesat_modify_stats st;
};

tilesat_world *tilesat_world_new(const tilesat_rules *r, tilesat_topology topo,
                                 uint64_t seed, const tilesat_solve_options *so,
                                 tilesat_error *err) {
  if (!r)
    ts_misuse(__func__, "NULL rules");
  tilesat_world *w = ts_calloc(1, sizeof *w);
  w->r = r;
  w->topo = topo;
  w->seed = seed;
  if (so)
    w->so = *so;
  w->so.progress = NULL;
  int res = ts_mod_pattern_find(r, topo, 0, 0, MOD_PATTERN, MOD_PATTERN, &w->so,
                                &w->pat, err);
  if (res == 0)
    ts_error(err, "world", 0,
             "an endless map needs a periodic pattern of the rules (a valid "
             "map of a small torus), and they have none up to %dx%d: a "
             "finite map may still exist ('tilesat check RULES --size WxH', "
             "or collapse --guard sat), or 'tilesat repair RULES --size 4x4 "
             "--periodic' says which pairs to allow for one",
             MOD_PATTERN, MOD_PATTERN);
  if (res != 1) {
    free(w);
    return NULL;
  }
  w->st.pattern_rows = w->pat.p;
  w->st.pattern_cols = w->pat.q;
  return w;
}

void tilesat_world_free(tilesat_world *w) {
  if (!w)
    return;
  free(w->pat.tiles);
  free(w);
}

void tilesat_world_stats(const tilesat_world *w, tilesat_modify_stats *out) {
  *out = w->st;
}

/* A range of cells [a, b) of rows or columns, in the plane's numbers. */
typedef struct span128 {
  mod_i128 a, b;
} span128;

/* s grown to hold every block of len cells at offset off (modulo MOD_P)
 * that meets it (spot blocks leave gaps: s is kept whole). */
static span128 aligned(span128 s, int off, int len) {
  mod_i128 first =
      -ts_mod_floordiv(-(s.a - off - len + 1), MOD_P) * MOD_P + off;
  mod_i128 last = ts_mod_floordiv(s.b - 1 - off, MOD_P) * MOD_P + off + len;
  return (span128){first < s.a ? first : s.a, last > s.b ? last : s.b};
}

/* The first corner of a block at offset off at or after a. */
static mod_i128 first_block(mod_i128 a, int off) {
  return -ts_mod_floordiv(-(a - off), MOD_P) * MOD_P + off;
}

/* The regions of each layer, the last first. */
static void cone(span128 rows, span128 cols, bool hex, span128 *rl,
                 span128 *cl) {
  for (int l = MOD_LAYERS - 1; l >= 0; l--) {
    ts_mod_layer_geom g = ts_mod_layer_open(l, hex);
    rows = aligned(rows, g.oy, g.bh);
    cols = aligned(cols, g.ox, g.bw);
    rl[l] = rows;
    cl[l] = cols;
  }
}

/* Every block of layer l inside its region (rl, cl) of the plane whose
 * first cell is (r0, c0). */
static int layer(tilesat_world *w, ts_mod_engine *e, ts_mod_plane *pl, int l,
                 span128 rl, span128 cl, span128 r0c0, tilesat_error *err) {
  ts_mod_layer_geom g = ts_mod_layer_open(l, w->topo == TILESAT_HEX);
  for (mod_i128 y = first_block(rl.a, g.oy); y + g.bh <= rl.b; y += MOD_P)
    for (mod_i128 x = first_block(cl.a, g.ox); x + g.bw <= cl.b; x += MOD_P) {
      if (ts_terminated(&w->so)) {
        ts_error(err, "world", 0, "interrupted");
        return -1;
      }
      ts_mod_rect b = {(int)(y - r0c0.a), (int)(x - r0c0.b), g.bh, g.bw,
                       MOD_RING_ALL};
      uint64_t key =
          ts_mod_block_key(w->seed, l, ts_mod_floordiv(y - g.oy, MOD_P),
                           ts_mod_floordiv(x - g.ox, MOD_P));
      if (ts_mod_window(e, pl, &b, key, -1, err) < 0)
        return -1;
    }
  return 0;
}

/* The plane of the first layer's region, as the pattern tiles it. */
static int *base(const tilesat_world *w, span128 rows, span128 cols, int h,
                 int wd) {
  int *tiles = ts_malloc((size_t)h * (size_t)wd * sizeof *tiles);
  for (int y = 0; y < h; y++) {
    int py = ts_mod_floormod(rows.a + y, w->pat.p);
    for (int x = 0; x < wd; x++)
      tiles[(size_t)y * (size_t)wd + (size_t)x] =
          w->pat.tiles[py * w->pat.q + ts_mod_floormod(cols.a + x, w->pat.q)];
  }
  return tiles;
}

int tilesat_world_chunks(tilesat_world *w, int64_t crow, int64_t ccol, int n,
                         int span_w, int span_h, int *tiles,
                         tilesat_error *err) {
  if (!w || !tiles || n < 1 || span_w < 1 || span_h < 1)
    ts_misuse(__func__, "NULL argument or a size below 1");
  if ((long)n * span_w > WORLD_MAX_SIDE - 8 * MOD_P ||
      (long)n * span_h > WORLD_MAX_SIDE - 8 * MOD_P) {
    ts_error(err, "world", 0, "at most %d cells a side at once, not %ldx%ld",
             WORLD_MAX_SIDE - 8 * MOD_P, (long)n * span_w, (long)n * span_h);
    return -1;
  }
  span128 rows = {(mod_i128)crow * n,
                  (mod_i128)crow * n + (mod_i128)n * span_h};
  span128 cols = {(mod_i128)ccol * n,
                  (mod_i128)ccol * n + (mod_i128)n * span_w};
  span128 rl[MOD_LAYERS], cl[MOD_LAYERS];
  cone(rows, cols, w->topo == TILESAT_HEX, rl, cl);
  int h = (int)(rl[0].b - rl[0].a), wd = (int)(cl[0].b - cl[0].a);
  ts_mod_plane pl = {.tiles = base(w, rl[0], cl[0], h, wd), .w = wd, .h = h};
  ts_mod_engine *e = ts_mod_engine_new(w->r, w->topo, w->seed, &w->so);
  span128 origin = {rl[0].a, cl[0].a};
  int rc = 0;
  for (int l = 0; l < MOD_LAYERS && !rc; l++)
    rc = layer(w, e, &pl, l, rl[l], cl[l], origin, err);
  const ts_mod_stats *st = ts_mod_engine_stats(e);
  w->st.wfc = st->wfc;
  w->st.sat = st->sat;
  w->st.kept = st->kept;
  w->st.cells = st->cells;
  int dy = (int)(rows.a - rl[0].a), dx = (int)(cols.a - cl[0].a);
  int oh = n * span_h, ow = n * span_w;
  for (int y = 0; y < oh && !rc; y++)
    memcpy(tiles + (size_t)y * (size_t)ow,
           pl.tiles + (size_t)(y + dy) * (size_t)wd + (size_t)dx,
           (size_t)ow * sizeof *tiles);
  ts_mod_engine_free(e);
  free(pl.tiles);
  return rc;
}
