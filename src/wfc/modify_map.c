/* modify_map.c: collapse --guard modify on a finite map (wfc/modify.h).
 *
 * 1. The base: a periodic pattern (ts_mod_pattern_find: p dividing the height
 *    and q the width on a periodic map) tiled across the map at a phase
 *    drawn from the seed; when none is found, the whole map's SAT (UNSAT:
 *    no map).
 * 2. Pins and borders: each cell whose tile breaks a pin or a ban is made
 *    again by SAT in a window around it (radius 2, 4, 8, ...), the window's
 *    margin fixed; a window with no filling is tried again without its
 *    margin (ts_window_at: a relaxation), and when that has none either,
 *    the map has none (UNSAT, that window); a window as large as the map
 *    is the whole map's SAT.
 *    Counts: while one is unmet, windows made again by SAT move it toward
 *    its bounds and keep the others no farther (meet_counts); where they
 *    cannot, the whole map's SAT (UNSAT: no map).  From here on every
 *    window keeps every count (mod_plane, modify.h).
 * 3. MOD_LAYERS layers of blocks (modify.c), their WFC with the weights
 *    ts_mod_calibrate found for the rules, clipped to the map: a side on
 *    the map's edge has no margin; an open map's layers are
 *    ts_mod_layer_open's (16x16 blocks, then spots on their margins'
 *    crossings); on a periodic map 4 layers of 16x16 blocks wrap (at most
 *    as large as the map, the last of a row shorter). */
#include "wfc/modify.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Count windows: up to MOD_COUNT_SIDE cells a side (then the whole map's
 * SAT), each solve within MOD_CONFLICTS conflicts. */
#define MOD_COUNT_SIDE 256

typedef struct fin {
  tilesat_collapse *c;
  const tilesat_map *m;
  ts_mod_plane pl;
  ts_pin *pin, *ban; /* the map's, sorted by cell */
  ts_mod_engine *e;
  tilesat_solve_options so;
  ts_mod_count *counts; /* the map's count constraints, kept from step 3 on */
  int ncounts;
  tilesat_solve_options said; /* the caller's progress (so has none: its
                                 blocks' solves would each say they solve) */
  long blocks, done;          /* the layers' blocks, and those made again */
  struct timespec t0;         /* when the layers started */
} fin;

static int by_cell(const void *a, const void *b) {
  const ts_pin *x = a, *y = b;
  return x->cell != y->cell ? (x->cell > y->cell) - (x->cell < y->cell)
                            : (x->tile > y->tile) - (x->tile < y->tile);
}

static ts_pin *sorted(const ts_pin *v, size_t n) {
  ts_pin *out = ts_malloc((n + 1) * sizeof *out);
  if (n)
    memcpy(out, v, n * sizeof *out);
  qsort(out, n, sizeof *out, by_cell);
  return out;
}

/* Each cell's pins and bans, at hand: the map's lists sorted by cell (no
 * table of the map's cells). */
static void fin_index(fin *f) {
  const tilesat_map *m = f->m;
  f->pin = sorted(m->pins.v, m->pins.n);
  f->ban = sorted(m->bans.v, m->bans.n);
  f->pl.pin = f->pin;
  f->pl.npin = m->pins.n;
  f->pl.ban = f->ban;
  f->pl.nban = m->bans.n;
}

/* Does the cell's tile break a pin or a ban?  *ip and *ib: the first pin
 * and ban at the cell or after it, moved past the cell's. */
static bool breaks(const fin *f, int cell, size_t *ip, size_t *ib) {
  int t = f->pl.tiles[cell];
  bool masked = ts_masked(f->m, cell), broken = false;
  for (; *ip < f->pl.npin && f->pin[*ip].cell == cell; ++*ip)
    broken |= !masked && t != f->pin[*ip].tile;
  for (; *ib < f->pl.nban && f->ban[*ib].cell == cell; ++*ib)
    broken |= !masked && t == f->ban[*ib].tile;
  return broken;
}

/* The whole map by SAT: 0 (its tiles), TILESAT_UNSAT, or -1.  Past
 * TILESAT_MAX_CELL_TILES it does not exist: an error, not a table that
 * cannot fit. */
static int whole(fin *f, const char *why, tilesat_error *err) {
  const tilesat_map *m = f->m;
  if (ts_map_large(m)) {
    ts_error(err, "collapse", 0,
             "--guard modify needs the whole map's SAT (%s), and %dx%d with "
             "%d tiles is too large for it (at most %d cells times tiles)",
             why, m->width, m->height, m->rules->ntiles,
             TILESAT_MAX_CELL_TILES);
    return -1;
  }
  tilesat_solve_options so = f->so;
  if (so.backend == TILESAT_BACKEND_AUTO && f->ncounts)
    so.backend = TILESAT_CADICAL; /* counts: it finishes hard ones */
  int res = tilesat_check(m, &so, f->pl.tiles, err);
  return res == TILESAT_SAT ? 0 : res;
}

/* The base map: 0, TILESAT_UNSAT, or -1 with err. */
static int base(fin *f, tilesat_error *err) {
  tilesat_collapse *c = f->c;
  const tilesat_map *m = f->m;
  if (c->mod_p < 0) {
    ts_mod_pattern pt;
    ts_say(&f->said, "modifying in blocks: looking for a periodic pattern");
    /* a pattern larger than the map: the whole map's SAT instead */
    int res = ts_mod_pattern_find(
        m->rules, m->topo, m->periodic ? m->height : 0,
        m->periodic ? m->width : 0, m->height, m->width, &f->so, &pt, err);
    if (res < 0)
      return -1;
    c->mod_p = res ? pt.p : 0;
    c->mod_q = res ? pt.q : 0;
    c->mod_tiles = res ? pt.tiles : NULL;
    c->mod_wfc = res && pt.wfc;
  }
  c->mod.pattern_rows = c->mod_p;
  c->mod.pattern_cols = c->mod_q;
  if (c->mod_p == 0)
    return whole(f, "the rules have no periodic pattern up to 16x16", err);
  /* The pattern shifted by a phase drawn from the seed: the first layer's
   * blocks, aligned with a 16x16 pattern, all see one margin, and what
   * they make from it came back at the same place of every map (Castle's
   * seams, chi-square 4322 on 338 degrees of freedom; 370 with it). */
  const int p = c->mod_p, q = c->mod_q;
  uint64_t h = c->seed ^ 0x7068617365u;
  int dy = (int)(ts_splitmix64(&h) % (uint64_t)p);
  int dx = (int)(ts_splitmix64(&h) % (uint64_t)q);
  if (m->topo == TILESAT_HEX)
    dy &= ~1; /* odd rows stay odd */
  for (int y = 0; y < m->height; y++)
    for (int x = 0; x < m->width; x++) {
      int cell = y * m->width + x;
      f->pl.tiles[cell] = ts_masked(m, cell)
                              ? TILESAT_NO_TILE
                              : c->mod_tiles[(y + dy) % p * q + (x + dx) % q];
    }
  return 0;
}

/* One side of a window around a cell: from a - r to a + r on a side of
 * `dim` cells, cut at the edges (open) or modulo dim; false when it takes
 * the whole side.  The margin on the low and high ends in *lo, *hi. */
static bool side_place(int a, int r, int dim, bool periodic, bool even,
                       int *start, int *len, bool *lo, bool *hi) {
  int s = a - r, n = 2 * r + 1;
  if (periodic) {
    s = (s % dim + dim) % dim;
    if (even && s % 2) {
      s = s ? s - 1 : dim - 1;
      n++;
    }
    *lo = *hi = true;
    *start = s;
    *len = n;
    return n < dim;
  }
  int e = s + n < dim ? s + n : dim;
  s = s < 0 ? 0 : s;
  if (even && s % 2)
    s--;
  *start = s;
  *len = e - s;
  *lo = s > 0;
  *hi = e < dim;
  return *lo || *hi;
}

/* The window of radius r around cell: false when it is the whole map. */
static bool around(const fin *f, int cell, int r, ts_mod_rect *b) {
  const tilesat_map *m = f->m;
  bool lo, hi, left, right;
  bool hex = m->topo == TILESAT_HEX;
  bool rows = side_place(cell / m->width, r, m->height, m->periodic, hex,
                         &b->y0, &b->hh, &lo, &hi);
  bool cols = side_place(cell % m->width, r, m->width, m->periodic, false,
                         &b->x0, &b->ww, &left, &right);
  b->ring = (lo ? MOD_RING_N : 0u) | (hi ? MOD_RING_S : 0u) |
            (left ? MOD_RING_W : 0u) | (right ? MOD_RING_E : 0u);
  return m->periodic ? rows && cols : rows || cols;
}

/* Does the window of radius r around cell, without its margin, have no
 * filling (the map then has none)?  1 none (c->unsat_window says where),
 * 0 one, -1 with err. */
static int relaxed_none(fin *f, int cell, int r, tilesat_error *err) {
  ts_window w;
  if (!ts_window_at(f->m, cell, r, &w))
    return 0;
  int res = tilesat_check(&w.m, &f->so, NULL, err);
  ts_window_free(&w);
  if (res == TILESAT_UNSAT)
    f->c->unsat_window = w;
  return res == TILESAT_UNSAT ? 1 : res < 0 ? -1 : 0;
}

/* Make the cell keep its pin and bans: 0, TILESAT_UNSAT, or -1. */
static int fix_cell(fin *f, int cell, tilesat_error *err) {
  for (int r = 2;; r *= 2) {
    ts_mod_rect b;
    if (!around(f, cell, r, &b))
      return whole(f, "a pin or border window grew to the whole map", err);
    f->c->mod.pin_windows++;
    int res = ts_mod_window(f->e, &f->pl, &b, 0, 0, err);
    if (res != 0)
      return res < 0 ? -1 : 0;
    res = relaxed_none(f, cell, r, err);
    if (res != 0)
      return res < 0 ? -1 : TILESAT_UNSAT;
  }
}

/* The blocks of a periodic side of `dim` cells, at offset 0 or half a
 * block: starts, lengths and margins; returns how many (at most dim /
 * MOD_P + 3). */
typedef struct seg {
  int start, len;
  unsigned lo, hi;
} seg;

static int segments(int dim, bool half, bool even, seg *out) {
  int n = 0;
  int side = dim < MOD_P ? dim : MOD_P, off = half ? side / 2 : 0;
  if (even && off % 2) /* a hex map's rows keep their parity */
    off--;
  for (int s = off; s < off + dim; s += side) {
    int len = off + dim - s < side ? off + dim - s : side;
    out[n++] = (seg){s % dim, len, 1, 1};
  }
  return n;
}

/* An open map's blocks of len cells at offset off modulo MOD_P, cut at
 * its edges (no margin there). */
static int segments_open(int dim, int off, int len, seg *out) {
  int n = 0;
  for (int s = off > 0 ? off - MOD_P : 0; s < dim; s += MOD_P) {
    int a = s < 0 ? 0 : s, b = s + len < dim ? s + len : dim;
    if (b > a)
      out[n++] = (seg){a, b - a, s > 0, s + len < dim};
  }
  return n;
}

/* Layer l's blocks along the rows and the columns: on a periodic map 4
 * layers of MOD_P x MOD_P blocks at offsets (0,0), (8,8), (0,8), (8,0)
 * (they wrap, the last of a row shorter); on an open map
 * ts_mod_layer_open's. */
static void layer_segments(const tilesat_map *m, int l, seg *rows, int *nr,
                           seg *cols, int *nc) {
  if (m->periodic) {
    int oy, ox;
    ts_mod_layer_offset(l, MOD_P, false, &oy, &ox);
    *nr = segments(m->height, oy != 0, m->topo == TILESAT_HEX, rows);
    *nc = segments(m->width, ox != 0, false, cols);
    return;
  }
  ts_mod_layer_geom g = ts_mod_layer_open(l, m->topo == TILESAT_HEX);
  *nr = segments_open(m->height, g.oy, g.bh, rows);
  *nc = segments_open(m->width, g.ox, g.bw, cols);
}

void ts_mod_last_blocks(int w, int h, bool periodic, bool hex, uint64_t seed,
                        int *id, ts_mod_rect *in) {
  (void)seed;
  tilesat_map m = {.width = w,
                   .height = h,
                   .periodic = periodic,
                   .topo = hex ? TILESAT_HEX : TILESAT_SQUARE};
  int most = w > h ? w : h, k = 0;
  seg *rows = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *rows);
  seg *cols = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *cols);
  for (int c = 0; c < w * h; c++)
    id[c] = -1;
  for (int l = 0; l < MOD_LAYERS; l++) {
    int nr, nc;
    layer_segments(&m, l, rows, &nr, cols, &nc);
    for (int i = 0; i < nr; i++)
      for (int j = 0; j < nc; j++, k++) {
        /* the free cells: the block without its ring's sides */
        ts_mod_rect b = {rows[i].start + (int)rows[i].lo,
                         cols[j].start + (int)cols[j].lo,
                         rows[i].len - (int)(rows[i].lo + rows[i].hi),
                         cols[j].len - (int)(cols[j].lo + cols[j].hi), 0};
        for (int y = 0; y < b.hh; y++)
          for (int x = 0; x < b.ww; x++) {
            int c = (b.y0 + y) % h * w + (b.x0 + x) % w;
            id[c] = k;
            in[c] = b;
          }
      }
  }
  free(rows);
  free(cols);
}

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) +
         1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* Where the layers stand, on the caller's progress (it throttles): the
 * block, of how many, and the time left at the pace so far. */
static void say_block(fin *f, int l) {
  if (!f->said.progress)
    return;
  char left[48] = "";
  double s = since(&f->t0);
  if (f->done > 0 && s >= 1)
    snprintf(left, sizeof left, ", about %.0f s left",
             s * (double)(f->blocks - f->done) / (double)f->done);
  const ts_mod_stats *st = ts_mod_engine_stats(f->e);
  ts_say(&f->said,
         "modifying in blocks: block %ld of %ld (layer %d of %d; %ld made "
         "again by WFC, %ld by SAT)%s",
         f->done + 1, f->blocks, l + 1, MOD_LAYERS, st->wfc, st->sat, left);
}

static int layer(fin *f, int l, seg *rows, seg *cols, tilesat_error *err) {
  int nr, nc;
  layer_segments(f->m, l, rows, &nr, cols, &nc);
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++, f->done++) {
      say_block(f, l);
      if (ts_terminated(&f->so)) {
        ts_error(err, "collapse", 0, "interrupted");
        return -1;
      }
      ts_mod_rect b = {
          rows[i].start, cols[j].start, rows[i].len, cols[j].len,
          (rows[i].lo ? MOD_RING_N : 0u) | (rows[i].hi ? MOD_RING_S : 0u) |
              (cols[j].lo ? MOD_RING_W : 0u) | (cols[j].hi ? MOD_RING_E : 0u)};
      uint64_t key = ts_mod_block_key(f->c->seed, l, i, j);
      if (ts_mod_window(f->e, &f->pl, &b, key, -1, err) < 0)
        return -1;
    }
  return 0;
}

/* The blocks' weights (ts_mod_calibrate), found once for the collapser, when
 * its pattern was made by WFC (so WFC with the exact guard fills the
 * calibration's maps soon) and the map has at least MOD_CAL_CELLS cells
 * not masked (on a smaller one the calibration would cost more than the
 * map: Castle 0.85 s, a 64x64 map 0.03 s; 1024 tiles 4.4 s, for a 513x513
 * map masked but for 960 cells); else the rules' own.  0, or -1 with err. */
static int weights(fin *f, tilesat_error *err) {
  tilesat_collapse *c = f->c;
  if (!c->mod_wfc || c->m->ncells - c->m->nmasked < MOD_CAL_CELLS)
    return 0;
  if (!c->mod_w) {
    c->mod_w = ts_malloc((size_t)c->T * sizeof *c->mod_w);
    ts_say(&f->said, "modifying in blocks: calibrating the blocks' weights");
    if (ts_mod_calibrate(c->m->rules, c->m->topo, &f->so, c->mod_w, err) < 0) {
      free(c->mod_w);
      c->mod_w = NULL;
      return -1;
    }
  }
  ts_mod_engine_weights(f->e, c->mod_w);
  return 0;
}

/* ------------------------------------------------------------- counts */

/* Each count's class cells in the map as it is now. */
static void counts_total(fin *f) {
  const tilesat_map *m = f->m;
  for (int i = 0; i < f->ncounts; i++) {
    ts_mod_count *k = &f->counts[i];
    k->total = 0;
    for (int c = 0; c < m->ncells; c++) {
      int t = f->pl.tiles[c];
      k->total +=
          t >= 0 && ts_bit(k->g->class, t) && ts_global_covers(m, k->g, c);
    }
  }
}

/* The map's counts and their bounds. */
static void counts_index(fin *f) {
  const tilesat_map *m = f->m;
  f->counts = ts_calloc(m->globals.n + 1, sizeof *f->counts);
  for (size_t i = 0; i < m->globals.n; i++) {
    const ts_global *g = &m->globals.v[i];
    if (g->kind != TILESAT_GLOBAL_COUNT)
      continue;
    ts_mod_count *k = &f->counts[f->ncounts++];
    k->g = g;
    k->lo = g->cmp == TS_AT_MOST ? 0 : g->k;
    k->hi = g->cmp == TS_AT_LEAST ? INT_MAX : g->k;
  }
}

static bool counts_met(const fin *f) {
  for (int i = 0; i < f->ncounts; i++)
    if (!mod_count_met(&f->counts[i]))
      return false;
  return true;
}

/* One side's windows of `side` cells at offset off (a multiple of 2 on a
 * hex map's rows) for the counts: on an open map cut at its edges (no
 * margin there), on a periodic one wrapping, the last shorter.  Returns
 * how many (at most dim / side + 2). */
static int count_segments(int dim, int side, int off, bool periodic, seg *out) {
  int n = 0;
  if (periodic) {
    side = side < dim ? side : dim;
    for (int s = off % side; s < off % side + dim; s += side) {
      int len = off % side + dim - s < side ? off % side + dim - s : side;
      out[n++] = (seg){s % dim, len, 1, 1};
    }
    return n;
  }
  for (int s = off > 0 ? off - side : 0; s < dim; s += side) {
    int a = s < 0 ? 0 : s, b = s + side < dim ? s + side : dim;
    if (b > a)
      out[n++] = (seg){a, b - a, a > 0, b < dim};
  }
  return n;
}

/* One sweep of count k's windows (side cells, at offset off both ways)
 * that meet its cells, each made again by SAT to move k toward its
 * bounds: how many moved it, or -1 with err. */
static int count_sweep(fin *f, ts_mod_count *k, int side, int off, seg *rows,
                       seg *cols, tilesat_error *err) {
  const tilesat_map *m = f->m;
  bool hex = m->topo == TILESAT_HEX;
  int nr =
      count_segments(m->height, side, hex ? off & ~1 : off, m->periodic, rows);
  int nc = count_segments(m->width, side, off, m->periodic, cols);
  int moved = 0;
  f->pl.move = k;
  for (int i = 0; i < nr && !mod_count_met(k); i++)
    for (int j = 0; j < nc && !mod_count_met(k); j++) {
      if (ts_terminated(&f->so)) {
        ts_error(err, "collapse", 0, "interrupted");
        return -1;
      }
      const ts_global *g = k->g;
      seg a = rows[i], b = cols[j];
      if (!m->periodic && (a.start > g->r1 || a.start + a.len <= g->r0 ||
                           b.start > g->c1 || b.start + b.len <= g->c0))
        continue; /* none of its cells */
      ts_mod_rect w = {a.start, b.start, a.len, b.len,
                       (a.lo ? MOD_RING_N : 0u) | (a.hi ? MOD_RING_S : 0u) |
                           (b.lo ? MOD_RING_W : 0u) | (b.hi ? MOD_RING_E : 0u)};
      long before = k->total;
      int res = ts_mod_window(f->e, &f->pl, &w, 0, MOD_CONFLICTS, err);
      if (res < 0)
        return -1;
      f->c->mod.count_windows++;
      moved += res == 1 && k->total != before;
    }
  f->pl.move = NULL;
  return moved;
}

/* Make every count hold by windows that move one toward its bounds and
 * keep the others no farther (16x16, at offsets 0 and 8, then 32x32 and
 * so on, again while they move it); when windows as large as the map
 * cannot, the whole map's SAT (UNSAT: no map).  0, TILESAT_UNSAT, or -1. */
static int meet_counts(fin *f, tilesat_error *err) {
  const tilesat_map *m = f->m;
  int most = m->width > m->height ? m->width : m->height;
  seg *rows = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *rows);
  seg *cols = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *cols);
  int res = 0;
  for (int side = MOD_P; res == 0 && !counts_met(f); side *= 2) {
    if (2 * side >= most || side > MOD_COUNT_SIDE) {
      res = whole(f, "the counts need windows as large as the map", err);
      break;
    }
    for (int half = 0; half < 2 && res == 0; half++)
      for (int i = 0; i < f->ncounts && res == 0; i++)
        for (int moved = 1; moved > 0 && !mod_count_met(&f->counts[i]);) {
          moved = count_sweep(f, &f->counts[i], side, half * side / 2, rows,
                              cols, err);
          res = moved < 0 ? -1 : 0;
        }
  }
  free(rows);
  free(cols);
  return res;
}

/* Pins and bans, the counts, then the layers: 0, TILESAT_UNSAT, or -1. */
static int modify(fin *f, tilesat_error *err) {
  counts_index(f);
  int res = base(f, err);
  /* the cells with a pin or a ban, in the order of the cells */
  size_t ip = 0, ib = 0;
  while (res == 0 && (ip < f->pl.npin || ib < f->pl.nban)) {
    int cell = ip == f->pl.npin ? f->ban[ib].cell
               : ib == f->pl.nban || f->pin[ip].cell < f->ban[ib].cell
                   ? f->pin[ip].cell
                   : f->ban[ib].cell;
    if (breaks(f, cell, &ip, &ib)) {
      ts_say(&f->said,
             "modifying in blocks: making cells again around "
             "the pins and borders (%ld windows)",
             f->c->mod.pin_windows);
      res = fix_cell(f, cell, err);
    }
  }
  if (res == 0 && f->ncounts) { /* the counts from here on */
    counts_total(f);
    f->pl.counts = f->counts;
    f->pl.ncounts = f->ncounts;
    res = meet_counts(f, err);
  }
  if (res == 0)
    res = weights(f, err);
  if (res != 0)
    return res;
  counts_total(f); /* whole() may have made the map again */
  int most = (f->m->width > f->m->height ? f->m->width : f->m->height);
  seg *rows = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *rows);
  seg *cols = ts_malloc(((size_t)most / MOD_P + 3) * sizeof *cols);
  for (int l = 0; l < MOD_LAYERS; l++) {
    int nr, nc;
    layer_segments(f->m, l, rows, &nr, cols, &nc);
    f->blocks += (long)nr * nc;
  }
  clock_gettime(CLOCK_MONOTONIC, &f->t0);
  for (int l = 0; l < MOD_LAYERS && res == 0; l++)
    res = layer(f, l, rows, cols, err);
  free(rows);
  free(cols);
  return res;
}

/* What modify needs: the map's tiles (the caller's) and mask, its pins
 * and bans sorted, and whatever the map's size, its blocks' collapsers (up
 * to 8 window sizes of at most MOD_P x MOD_P cells) and a solver of a
 * block (counted as 4 more): no table of cells times tiles, so a map past
 * that bound too.  0, or -1 with err. */
static int modify_refuse(const tilesat_map *m, tilesat_error *err) {
  double block =
      (double)MOD_P * MOD_P *
      ts_collapse_bytes_per_cell(m->rules->ntiles, m->rules->ndirs, false);
  double fixed =
      12 * block + 2.0 * (double)(m->pins.n + m->bans.n) * sizeof(ts_pin);
  double need = fixed + (double)m->ncells * (4 + (m->masked ? 1 : 0));
  return ts_memory_refuse_large(m, need, fixed, "collapse --guard modify", err);
}

int ts_modify_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                  int *tiles, tilesat_error *err) {
  if (tilesat_map_refuse_globals(
          c->m,
          1u << TILESAT_GLOBAL_BORDER | 1u << TILESAT_GLOBAL_COUNT |
              TILESAT_KEEPS_MASK,
          "collapse --guard modify",
          ts_map_large(c->m)
              ? "; --guard sat can on a map within 2^28 cells times tiles"
              : "; --guard sat can",
          err))
    return -1;
  memset(&c->mod, 0, sizeof c->mod);
  c->mod.used = true;
  c->unsat_window.m.width = 0;
  c->seed = o->seed;
  c->contradiction = -1;
  c->choices.n = 0;
  fin f = {.c = c, .m = c->m};
  f.so = o->solve;
  f.so.progress = NULL;
  f.said = o->solve;
  f.pl = (ts_mod_plane){.tiles = tiles,
                        .w = c->m->width,
                        .h = c->m->height,
                        .periodic = c->m->periodic,
                        .m = c->m};
  if (modify_refuse(c->m, err))
    return -1;
  fin_index(&f);
  f.e = ts_mod_engine_new(c->m->rules, c->m->topo, o->seed, &f.so);
  int res = modify(&f, err);
  const ts_mod_stats *st = ts_mod_engine_stats(f.e);
  c->mod.wfc = st->wfc;
  c->mod.sat = st->sat;
  c->mod.kept = st->kept;
  c->mod.cells = st->cells;
  c->repairs = st->wfc + st->sat;
  ts_mod_engine_free(f.e);
  free(f.counts);
  free(f.pin);
  free(f.ban);
  char why[512];
  if (res == 0 && !tilesat_map_verify(c->m, tiles, why, sizeof why)) {
    ts_error(err, "collapse", 0, "--guard modify made a map that breaks %s",
             why);
    return -1;
  }
  return res == 0 ? TILESAT_SAT : res;
}
