/* wfc/modify.h: modifying in blocks (Merrell's model synthesis, Boris the
 * Brave's "infinite modifying in blocks"), shared by collapse --guard
 * modify (modify.c) and tilesat world (world.c).
 *
 * A map is made valid first (a periodic pattern found by SAT on a small
 * torus, tiled across it), then changed block by block: each of
 * MOD_LAYERS layers is a grid of blocks (ts_mod_layer_open; on a periodic
 * map MOD_P x MOD_P at one of four offsets), and each block's interior
 * (the block without its one-cell ring, the margin) is made again by
 * WFC, then by SAT, with everything outside it fixed; a block neither
 * fills keeps its content.  A block's WFC may run with tile weights of
 * its own (ts_mod_calibrate: a fixed margin makes WFC favour some tiles).
 * The map is valid after every
 * block, and the blocks of a layer do not touch each other's interiors
 * nor margins, so their order does not matter. */
#ifndef TILESAT_WFC_MODIFY_H
#define TILESAT_WFC_MODIFY_H

#include "wfc/collapse_internal.h"

#define MOD_P 16            /* a block's side, a multiple of 4 */
#define MOD_LAYERS 4        /* layers of blocks */
#define MOD_PATTERN 16      /* the largest side of a periodic pattern tried */
#define MOD_PATTERN_WIDE 64 /* ... or of a varied one on a periodic map */
#define MOD_CONFLICTS 2000  /* a block's SAT, after WFC */

/* Cell coordinates of an endless world pass 64 bits (chunk row times
 * chunk size): 128-bit integers for them, int for the window. */
__extension__ typedef __int128 mod_i128;

/* A periodic pattern: p rows, q columns, tiles[row * q + col]; wfc: made
 * by WFC (the varied pattern), not the smallest torus SAT found. */
typedef struct ts_mod_pattern {
  int p, q;
  int *tiles;
  bool wfc;
} ts_mod_pattern;

/* A periodic pattern, p dividing need_h and q dividing need_w where those
 * are not 0, at most max_p rows and max_q columns, rows even on a hex map:
 * the widest such torus up to MOD_PATTERN a side (a side with no divisor
 * from 4 to MOD_PATTERN: its smallest from there to MOD_PATTERN_WIDE)
 * filled by WFC with the exact guard, one fixed seed; else the smallest
 * torus (by area, rows then columns, each side at most MOD_PATTERN) that
 * has a valid map: 1 with *out, 0 when there is none, -1 with err. */
int ts_mod_pattern_find(const tilesat_rules *r, tilesat_topology topo,
                        int need_h, int need_w, int max_p, int max_q,
                        const tilesat_solve_options *so, ts_mod_pattern *out,
                        tilesat_error *err);

/* Floor division and modulo (the world's coordinates go negative). */
mod_i128 ts_mod_floordiv(mod_i128 a, mod_i128 b);
int ts_mod_floormod(mod_i128 a, int b);

/* The layer's block offsets: (row, column) of the blocks' corners modulo
 * the block's side. */
void ts_mod_layer_offset(int layer, int side, bool hex_rows, int *oy, int *ox);

/* A layer's blocks on an open map or the world's plane: corners at (oy,
 * ox) modulo MOD_P, bh x bw cells.  Layers 0 and 1 are MOD_P x MOD_P at
 * offsets (0,0) and (MOD_P/2, MOD_P/2): every cell but the crossings of
 * layer 0's margins with layer 1's is made again in one of them; layers
 * 2 and 3 are spot blocks, MOD_SPOT a side (MOD_SPOT + 2 rows on a hex
 * map, whose blocks start on even rows), around those crossings alone:
 * each cell is made again about 2 times, not 3.1.  Spots of 6 are 13%
 * faster, but their 4x4 window's centre is Castle's "ground" half the
 * time (a small window with fixed margins favours the tile that fits the
 * most neighbours); with 10, 15-18%, about as elsewhere. */
#define MOD_SPOT 10
typedef struct ts_mod_layer_geom {
  int oy, ox, bh, bw;
} ts_mod_layer_geom;
ts_mod_layer_geom ts_mod_layer_open(int layer, bool hex_rows);

/* A count constraint of a finite map as the blocks keep it: its class
 * cells in the map now (kept up to date by ts_mod_window) and its bounds. */
typedef struct ts_mod_count {
  const ts_global *g;
  long total;
  int lo, hi; /* met when lo <= total <= hi */
} ts_mod_count;

/* What the blocks change: a grid of cells (tiles[y * w + x]), wrapping or
 * not; for a finite map its pins and bans (pin[0 .. npin), ban[0 ..
 * nban), each sorted by cell: no table of the map's cells), masks and
 * counts.  A window's new filling keeps every met count met (the count of
 * its own cells bounded by the count's bounds less the count outside
 * them) and moves no unmet count away from its bounds; `move` (NULL:
 * none), an unmet count, it must move toward them: SAT alone then, first
 * as far as the window can (the count met, or all its cells in or out of
 * the class), else by one at least; a window that cannot move it (none of
 * its cells could change the count) is not tried. */
typedef struct ts_mod_plane {
  int *tiles;
  int w, h;
  bool periodic;
  const tilesat_map *m; /* NULL: the world (no pins, bans nor masks) */
  const ts_pin *pin, *ban;
  size_t npin, nban;
  ts_mod_count *counts; /* ncounts of them (0 in the world) */
  int ncounts;
  const ts_mod_count *move;
} ts_mod_plane;

/* Is the count met? */
static inline bool mod_count_met(const ts_mod_count *k) {
  return k->lo <= k->total && k->total <= k->hi;
}

/* The first of v[0 .. n) (sorted by cell) at cell or after it. */
size_t ts_mod_first_at(const ts_pin *v, size_t n, int cell);

/* What the blocks did. */
typedef struct ts_mod_stats {
  long wfc, sat, kept; /* blocks made again by WFC, by SAT, kept */
  long long cells;     /* their free cells, summed */
} ts_mod_stats;

typedef struct ts_mod_engine ts_mod_engine;
ts_mod_engine *ts_mod_engine_new(const tilesat_rules *r, tilesat_topology topo,
                                 uint64_t seed,
                                 const tilesat_solve_options *so);
void ts_mod_engine_free(ts_mod_engine *e);
const ts_mod_stats *ts_mod_engine_stats(const ts_mod_engine *e);
/* The tile weights of the blocks' WFC runs (copied; NULL: the rules'). */
void ts_mod_engine_weights(ts_mod_engine *e, const double *w);

/* The calibration's own cells (6 maps 48x48): modify calibrates maps of
 * at least as many cells (modify_map.c). */
#define MOD_CAL_CELLS 13824
/* The blocks' tile weights, w[tile], corrected so that a block made again
 * keeps the tile shares of WFC's maps (open maps made by WFC with the
 * exact guard, fixed seeds): 1 calibrated, 0 not (the rules' weights in
 * w), -1 with err. */
int ts_mod_calibrate(const tilesat_rules *r, tilesat_topology topo,
                     const tilesat_solve_options *so, double *w,
                     tilesat_error *err);

/* Ring sides of a block: the sides where its margin is (the others are
 * the map's edge). */
enum { MOD_RING_N = 1, MOD_RING_S = 2, MOD_RING_W = 4, MOD_RING_E = 8 };
#define MOD_RING_ALL 15

/* A window of the plane: rows y0..y0+hh-1 and columns x0..x0+ww-1
 * (modulo its size when it wraps), its margin on `ring`'s sides. */
typedef struct ts_mod_rect {
  int y0, x0, hh, ww;
  unsigned ring;
} ts_mod_rect;

/* The window's cells but its margin made again, with everything outside
 * as it is and the plane's counts kept (mod_plane): conflicts < 0, a block
 * (WFC, the runs' seeds from key, then SAT within MOD_CONFLICTS, else kept,
 * counted in the stats); else SAT alone within that many conflicts (0: no
 * bound).  1 made again, 0 not, -1 with err. */
int ts_mod_window(ts_mod_engine *e, ts_mod_plane *pl, const ts_mod_rect *b,
                  uint64_t key, int conflicts, tilesat_error *err);

/* The hash of a block's place: the seed, its layer and its block row and
 * column in the plane's own numbering. */
uint64_t ts_mod_block_key(uint64_t seed, int layer, mod_i128 brow,
                          mod_i128 bcol);

/* collapse --guard modify on c's map (its borders as bans): TILESAT_SAT
 * with tiles, TILESAT_UNSAT, or -1 with err.  c->repairs holds the blocks
 * made again, c->resolved the blocks kept, c->calls the windows the pins
 * and bans took. */
int ts_modify_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                  int *tiles, tilesat_error *err);

/* Which block of collapse --guard modify's layers made each cell of a w x
 * h map last (its seed, periodic or not, hex rows or not): id[cell], the
 * blocks numbered in the order they are made (-1: none, a cell of the
 * margins' crossings on a map too small for a layer), and that block's
 * free cells (the block without its margin) in in[cell], ring 0.  Where
 * two neighbours' ids differ, a seam: the content on either side was
 * made last by a different WFC run, one of them with the other fixed.
 * For the look's measure (tests/look_seams.c). */
void ts_mod_last_blocks(int w, int h, bool periodic, bool hex, uint64_t seed,
                        int *id, ts_mod_rect *in);

#endif
