/* blocks.c: the block guard of collapse (--guard blocks, and auto once the
 * exact guard runs past its budget), after Merrell's model synthesis,
 * "modifying in blocks".
 *
 * A run that empties a cell is not restarted: the cells of a block around
 * it (radius 3, a window of the map, wrapping on a torus) are decided
 * again, with every cell outside as it is.  The block is a map of its own
 * whose cells keep only the tiles of the map's wave after its pins and
 * bans (base) that every outside neighbour still allows: a decided
 * neighbour its tile, an undecided one some tile of its own (an emptied
 * one, to be repaired in turn, anything).  It is filled the way WFC fills
 * a map: a few plain runs of a collapser of its own (seeds from the run's
 * random stream, the rules' weights, WFC's order), and when none makes it,
 * SAT says whether it has a filling at all, and if so a guarded run (auto)
 * finds one.  A block with no filling doubles its radius, up to the whole
 * map, where SAT answers for every cell (UNSAT: no valid map at all).
 *
 * A block closed in by decided cells (less than an eighth of its outside
 * ring in the open wave: components of at least 256 undecided cells)
 * keeps WFC's defect (a river with an end): it is stretched instead into
 * a corridor to the nearest open cell or the map's edge, a straight strip
 * or an L-shaped band whose decided cells off the band keep their tiles;
 * when that has no filling, a corridor to the map's edge alone, and so
 * on, twice as wide each second time.
 *
 * The filled cells are then set in the wave, their supports counted
 * afresh, and their outside neighbours lose the tiles the new tiles do not
 * allow, propagated as any removal; the run goes on from there, and a
 * later contradiction is repaired the same way.  When the propagation
 * from filled blocks empties a cell in them or next to them, that cell's
 * block doubles its radius once for each: a contradiction that keeps
 * coming back gets ever larger blocks, up to the whole map.  (The run ends: a
 * repair leaves no cell less decided, and each choice decides one more.)  Cells
 * outside the blocks keep what they lost to the cells decided before: a sound
 * restriction (every tile left in the wave still has a support in each
 * neighbour), so every map the run ends with is valid (collapse.c checks
 * it). */
#include "wfc/collapse_internal.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_RADIUS 3  /* the first block: 7x7 */
#define BLOCK_TRIES 3   /* plain WFC runs in a block */
#define SAT_LEVEL 2     /* from this level on, SAT when WFC fails */
#define SAT_CELLS 10000 /* and at most this many cells */
/* CaDiCaL's conflicts for a block: 6 a cell, from 250 to 2000.  A block
 * with a filling has one found fast (Castle 512x512, seeds 1, 2 and 4: 65
 * of 77 within 125 conflicts, all within 3875, the most in blocks of 760
 * cells and more); the blocks left unknown were small (77 to 161 cells)
 * and no filling there is hard to prove: Castle's rivers have no end, so
 * a block whose boundary they cross an odd number of times has none, a
 * parity argument resolution needs very many steps for.  20,000 conflicts
 * spent there made Castle 512x512 take 7.2 s a map (median of 8 seeds,
 * 17.7 s at worst); 2,000 for every block, 5.3 s (10.2 s); this, 5.3 s
 * (8.6 s). */
#define BLOCK_CONFLICTS_MIN 250
#define BLOCK_CONFLICTS_MAX 2000
#define BLOCK_CONFLICTS_CELL 6

/* Is t at a cell allowed by a tile still possible at its neighbour n in
 * direction d? */
static bool allowed_by(const tilesat_collapse *c, int t, int d, int n) {
  size_t k = (size_t)d * (size_t)c->T + (size_t)t;
  const int *list = c->supp_list[k];
  const uint8_t *poss = c->possible + (size_t)n * (size_t)c->T;
  for (int i = 0; i < c->supp_len[k]; i++)
    if (poss[list[i]])
      return true;
  return false;
}

static bool in_block(const tilesat_collapse *c, const ts_window *w, int cell) {
  return ts_collapse_window_cell(c, w, cell) >= 0;
}

/* A corridor's band: the cells of its window within r (in both axes) of
 * the path from (ax, ay) along the row to (bx, ay), then along the column
 * to (bx, by), in the window's coordinates.  The window's decided cells
 * off the band keep their tiles: the corridor decides again only what the
 * defect needs to leave, not the whole rectangle around it. */
typedef struct band {
  bool on;
  int ax, ay, bx, by, r;
} band;

static bool on_band(const band *b, int lx, int ly) {
  int x0 = b->ax < b->bx ? b->ax : b->bx, x1 = b->ax < b->bx ? b->bx : b->ax;
  int y0 = b->ay < b->by ? b->ay : b->by, y1 = b->ay < b->by ? b->by : b->ay;
  bool row = lx >= x0 - b->r && lx <= x1 + b->r && abs(ly - b->ay) <= b->r;
  bool col = ly >= y0 - b->r && ly <= y1 + b->r && abs(lx - b->bx) <= b->r;
  return row || col;
}

/* The block's map: window w, each cell banned every tile its base wave
 * lacks or an outside neighbour (not emptied) does not allow, and (a
 * corridor's band) every tile but its own when it is decided off the
 * band. */
static int block_bans(const tilesat_collapse *c, ts_window *w, const band *b) {
  const int T = c->T, D = c->D;
  int kept = 0;
  for (int lc = 0; lc < w->m.ncells; lc++) {
    int mc = ts_collapse_map_cell(c, w, lc);
    const uint8_t *base = c->base + (size_t)mc * (size_t)T;
    const int *nbr = c->nbr + (size_t)mc * (size_t)D;
    const uint8_t *now = b && b->on && c->count[mc] == 1 &&
                                 !on_band(b, lc % w->m.width, lc / w->m.width)
                             ? c->possible + (size_t)mc * (size_t)T
                             : NULL;
    kept += now != NULL;
    for (int t = 0; t < T; t++) {
      bool ok = now ? now[t] : base[t];
      for (int d = 0; d < D && ok; d++)
        if (nbr[d] >= 0 && c->count[nbr[d]] > 0 && !in_block(c, w, nbr[d]))
          ok = allowed_by(c, t, d, nbr[d]);
      if (!ok)
        TS_PUSH(w->m.bans, ((ts_pin){lc, t}));
    }
  }
  return kept;
}

/* A filling of block w by SAT (CaDiCaL, within the conflicts above):
 * TILESAT_SAT (tiles), TILESAT_UNKNOWN (none found), or -1 with err. */
static int sat_fill(tilesat_collapse *c, const tilesat_solve_options *so,
                    const tilesat_solve_options *own, const ts_window *w,
                    int *tiles, tilesat_error *err) {
  ts_collapse_say say;
  tilesat_solve_options q = ts_collapse_quiet(c, so, own, &say);
  snprintf(say.doing, sizeof say.doing,
           "the guard: filling a %dx%d block by SAT", w->m.width, w->m.height);
  q.backend = TILESAT_CADICAL; /* its conflict limit is exact */
  ts_solver *s = ts_solver_for_map(&w->m, &q);
  int limit = BLOCK_CONFLICTS_CELL * w->m.ncells;
  ts_solver_limit(s, limit < BLOCK_CONFLICTS_MIN   ? BLOCK_CONFLICTS_MIN
                     : limit > BLOCK_CONFLICTS_MAX ? BLOCK_CONFLICTS_MAX
                                                   : limit);
  c->calls++;
  int res = ts_solver_solve(s);
  if (res == TILESAT_UNKNOWN && ts_terminated(so))
    res = ts_solver_unknown(s, "collapse", err);
  else if (res == TILESAT_SAT)
    for (int lc = 0; lc < w->m.ncells; lc++)
      for (int t = 0; t < c->T; t++)
        if (ts_solver_value(s, ts_var(&w->m, lc, t)))
          tiles[lc] = t;
  ts_solver_free(s);
  return res == TILESAT_UNSAT ? TILESAT_UNKNOWN : res;
}

/* Fill block w (level `level`) the way WFC fills a map (tiles: its
 * cells'): a few plain runs of a collapser of its own, then a run that
 * repairs its own contradictions by smaller blocks, then (from level
 * SAT_LEVEL on, or at once for a corridor, long and thin: WFC meets
 * contradictions along it, and larger corridors only get longer) SAT.
 * 1 (filled), 0 (no filling found: a larger block), or -1 with err. */
static int fill_block(tilesat_collapse *c, const tilesat_collapse_options *o,
                      const ts_window *w, int level, bool corridor, int *tiles,
                      tilesat_error *err) {
  tilesat_collapse *sub = tilesat_collapse_new(&w->m, err);
  if (!sub)
    return -1;
  sub->parent = c;
  sub->parent_so = &o->solve;
  tilesat_collapse_options so = *o;
  so.solve.progress = NULL;
  so.limit = 0;
  so.guard = TILESAT_GUARD_NONE;
  int res = TILESAT_UNKNOWN;
  for (int i = 0; i < BLOCK_TRIES && res == TILESAT_UNKNOWN; i++) {
    so.seed = ts_rng_next(&c->rng);
    res = tilesat_collapse_run(sub, &so, tiles, err);
    if (res == TILESAT_UNKNOWN && sub->choices.n == 0)
      res = TILESAT_UNSAT; /* its bans alone: propagation refuted them */
  }
  if (res == TILESAT_UNKNOWN && level > 0) {
    sub->level_cap = level - 1;
    so.guard = TILESAT_GUARD_BLOCKS;
    so.seed = ts_rng_next(&c->rng);
    res = tilesat_collapse_run(sub, &so, tiles, err);
    c->calls += sub->calls;
  }
  if (res == TILESAT_UNKNOWN && (level >= SAT_LEVEL || corridor) &&
      w->m.ncells <= SAT_CELLS)
    res = sat_fill(c, &so.solve, &o->solve, w, tiles, err);
  tilesat_collapse_free(sub);
  return res == TILESAT_SAT ? 1 : res < 0 ? -1 : 0;
}

/* How many tiles still possible at n allow t in direction d of it (an
 * emptied n: 1, until its own repair counts again). */
static uint16_t support_of(const tilesat_collapse *c, int t, int d, int n) {
  if (c->count[n] == 0)
    return 1;
  size_t q = (size_t)d * (size_t)c->T + (size_t)t;
  const uint8_t *poss = c->possible + (size_t)n * (size_t)c->T;
  uint16_t sup = 0;
  for (int i = 0; i < c->supp_len[q]; i++)
    sup += poss[c->supp_list[q][i]];
  return sup;
}

/* For each outside neighbour n of the block's cell mc (tile t), in
 * direction d of it: its tiles' supports from mc counted afresh, or (ban)
 * the tiles left with none taken. */
static void ring_of(tilesat_collapse *c, const ts_window *w, int mc, int t,
                    bool take) {
  const int T = c->T, D = c->D;
  const tilesat_rules *r = c->m->rules;
  for (int d = 0; d < D; d++) {
    int n = c->nbr[(size_t)mc * (size_t)D + (size_t)d];
    if (n < 0 || c->count[n] == 0 || in_block(c, w, n))
      continue;
    int e = c->opp[d]; /* from n to mc */
    for (int u = 0; u < T; u++) {
      size_t nu = (size_t)n * (size_t)T + (size_t)u;
      if (!c->possible[nu])
        continue;
      uint16_t *s =
          &c->support[((size_t)n * (size_t)D + (size_t)e) * (size_t)T + u];
      if (!take)
        *s = ts_bit(ts_allowed(r, u, e), t);
      else if (*s == 0)
        ts_collapse_ban(c, n, u);
    }
  }
}

/* Set the block's cells to tiles, count their supports afresh, and take
 * from their outside neighbours the tiles the new ones do not allow
 * (queued: the caller propagates).  Every support first, then the
 * removals they make. */
static void apply(tilesat_collapse *c, const ts_window *w, const int *tiles) {
  const int T = c->T, D = c->D;
  for (int lc = 0; lc < w->m.ncells; lc++)
    ts_collapse_set(c, ts_collapse_map_cell(c, w, lc), tiles[lc]);
  for (int lc = 0; lc < w->m.ncells; lc++) {
    int mc = ts_collapse_map_cell(c, w, lc), t = tiles[lc];
    for (int d = 0; d < D; d++) {
      size_t k = ((size_t)mc * (size_t)D + (size_t)d) * (size_t)T + (size_t)t;
      int n = c->nbr[(size_t)mc * (size_t)D + (size_t)d];
      if (n >= 0)
        c->support[k] = support_of(c, t, d, n);
    }
  }
  for (int take = 0; take < 2; take++)
    for (int lc = 0; lc < w->m.ncells; lc++)
      ring_of(c, w, ts_collapse_map_cell(c, w, lc), tiles[lc], take);
}

/* The open part of the wave: the cells of components of undecided cells
 * (count > 1, joined across their neighbours) of at least `big` cells
 * (OPEN_CELLS).  A defect WFC made (a river with an end, a wall that does
 * not close) can leave through them; an undecided cell in a small pocket
 * closed in by decided cells cannot take it (the pocket is closed in just
 * the same: a corridor to it fails, and so do the larger ones after it;
 * Castle 256x256, seed 5: 22 s, 1 s with open cells only).  What a search
 * finds is kept for every cell it met (c->open_memo) until the wave
 * changes (a new epoch). */
#define OPEN_CELLS 256
typedef struct open_wave {
  tilesat_collapse *c;
  int big;   /* a component of at least this size is open */
  bool edge; /* only the map's edge is a way out */
  TS_VEC(int) stack;
} open_wave;

/* Is x in a component of at least ow->big undecided cells?  A search
 * bounded at that many cells. */
static bool open_cell(open_wave *ow, int x) {
  tilesat_collapse *c = ow->c;
  if (c->count[x] <= 1)
    return false;
  if (!c->open_memo) {
    c->open_memo = ts_calloc((size_t)c->N, sizeof *c->open_memo);
    c->open_seen = ts_calloc((size_t)c->N, sizeof *c->open_seen);
  }
  if (c->open_memo[x] >> 1 == c->open_epoch)
    return c->open_memo[x] & 1;
  unsigned stamp = ++c->open_stamp;
  size_t sp = 0;
  int n = 0;
  c->open_seen[x] = stamp;
  TS_PUSH(ow->stack, x);
  while (sp < ow->stack.n && n < ow->big) {
    int y = ow->stack.v[sp++];
    n++;
    for (int d = 0; d < c->D; d++) {
      int z = c->nbr[(size_t)y * (size_t)c->D + (size_t)d];
      if (z >= 0 && c->open_seen[z] != stamp && c->count[z] > 1) {
        c->open_seen[z] = stamp;
        TS_PUSH(ow->stack, z);
      }
    }
  }
  bool open = n >= ow->big;
  for (size_t i = 0; i < ow->stack.n; i++)
    c->open_memo[ow->stack.v[i]] = c->open_epoch << 1 | open;
  ow->stack.n = 0;
  return open;
}

/* The wave changed: what open_cell found is stale. */
static void open_changed(open_wave *ow) { ow->c->open_epoch++; }

/* Does the block reach out to the open wave: is at least an eighth of
 * its outside ring open, or does it meet the map's edge?  A block closed
 * in keeps the defect WFC made: a filling moves it, at best, to the next
 * block. */
static bool open_block(const tilesat_collapse *c, const ts_window *w,
                       open_wave *ow) {
  long ring = 0, open = 0;
  for (int lc = 0; lc < w->m.ncells; lc++) {
    int mc = ts_collapse_map_cell(c, w, lc);
    for (int d = 0; d < c->D; d++) {
      int n = c->nbr[(size_t)mc * (size_t)c->D + (size_t)d];
      if (n < 0)
        return true;
      if (!in_block(c, w, n)) {
        ring++;
        open += open_cell(ow, n);
      }
    }
  }
  return 8 * open >= ring;
}

/* Is the cell at (X, Y) (the map unwrapped) off the map's edge (not on a
 * torus) or open? */
static bool way_out(const tilesat_collapse *c, open_wave *ow, int X, int Y) {
  const tilesat_map *m = c->m;
  int W = m->width, H = m->height;
  bool off = X < 0 || Y < 0 || X >= W || Y >= H;
  if (off && !m->periodic)
    return true;
  if (ow->edge)
    return false;
  X = (X % W + W) % W;
  Y = (Y % H + H) % H;
  return open_cell(ow, Y * W + X);
}

/* The nearest way out along a straight strip 2r + 1 wide from (cx, cy)
 * in direction (ux, uy): its distance, or 0 when none is nearer than
 * `limit`. */
static int ray(const tilesat_collapse *c, open_wave *ow, int cx, int cy, int ux,
               int uy, int r, int limit) {
  for (int k = r + 1; k < limit; k++)
    for (int j = -r; j <= r; j++)
      if (way_out(c, ow, cx + k * ux + j * abs(uy), cy + k * uy + j * abs(ux)))
        return k;
  return 0;
}

/* The block of radius r around x stretched to the nearest open cell (or
 * to the map's edge) found in rings around x, the one nearest an axis of
 * its ring, its decided cells off the band along the way kept; or a
 * straight strip to the nearest way out in one of the four directions,
 * when that is smaller: the corridor along which WFC's defect can leave
 * (Castle 512x512: blocks 97 to 385 cells wide in squares that stretched
 * to any undecided cell).  False when there is none. */
/* The nearest way out in rings around (cx, cy), the one nearest an axis
 * of its ring: its offset (*bx, *by), or false when there is none. */
static bool nearest_out(const tilesat_collapse *c, open_wave *ow, int cx,
                        int cy, int r, int *bx, int *by) {
  int W = c->m->width, H = c->m->height, far = W > H ? W : H;
  for (int d = r + 1; d <= far; d++) {
    int best = -1;
    for (int dy = -d; dy <= d; dy++) {
      int step = dy == -d || dy == d ? 1 : 2 * d; /* the ring only */
      for (int dx = -d; dx <= d; dx += step) {
        int off = abs(dx) < abs(dy) ? abs(dx) : abs(dy);
        if ((best < 0 || off < best) && way_out(c, ow, cx + dx, cy + dy)) {
          best = off;
          *bx = dx;
          *by = dy;
        }
      }
    }
    if (best >= 0)
      return true;
  }
  return false;
}

static bool corridor_to(const tilesat_collapse *c, open_wave *ow, int x, int r,
                        ts_window *w, band *b) {
  int W = c->m->width, H = c->m->height, cx = x % W, cy = x / W;
  int far = W > H ? W : H;
  long area = -1;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0, bx = 0, by = 0;
  if (nearest_out(c, ow, cx, cy, r, &bx, &by)) {
    x0 = (bx < 0 ? bx : 0) - r, y0 = (by < 0 ? by : 0) - r;
    x1 = (bx > 0 ? bx : 0) + r, y1 = (by > 0 ? by : 0) + r;
    area = (long)(x1 - x0 + 1) * (y1 - y0 + 1);
    *b = (band){true, -x0, -y0, bx - x0, by - y0, r};
  }
  /* a straight corridor when it is smaller (its window all band) */
  static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int i = 0; i < 4; i++) {
    int ux = dirs[i][0], uy = dirs[i][1];
    long side = 2L * r + 1;
    int limit = area < 0 ? far + 1 : (int)(area / side - side + 1);
    int k = ray(c, ow, cx, cy, ux, uy, r, limit < far + 1 ? limit : far + 1);
    if (!k)
      continue;
    area = (k + side) * side;
    x0 = ux < 0 ? -k - r : -r, x1 = ux > 0 ? k + r : r;
    y0 = uy < 0 ? -k - r : -r, y1 = uy > 0 ? k + r : r;
    b->on = false;
  }
  return area >= 0 && ts_collapse_window_rect(c, cx + x0, cy + y0, x1 - x0 + 1,
                                              y1 - y0 + 1, w);
}

/* A corridor to an open cell; when none is left (the run's end on a
 * torus), to the nearest undecided cell. */
static bool corridor(const tilesat_collapse *c, open_wave *ow, int x, int r,
                     ts_window *w, band *b) {
  if (corridor_to(c, ow, x, r, w, b))
    return true;
  int big = ow->big;
  ow->big = 1;
  open_changed(ow);
  bool found = corridor_to(c, ow, x, r, w, b);
  ow->big = big;
  open_changed(ow);
  return found;
}

/* A corridor's half-width at `level`, and where it leads (ow->edge): on a
 * map with edges, to the open wave and then to the edge, each at radius 3,
 * 6, 12, ...; on a torus, to the open wave at the block's radius.  The
 * open wave is not always a way out: a defect Castle's rules cannot close
 * (a river's end) needs a partner, and an undecided area closed in by
 * decided cells has none (the rivers crossing its edge come in pairs),
 * while the map's edge ends any river.  Castle 1024x1024, seed 1: 105 s
 * a map with edge corridors; not done in 200 s without (corridors of 7 to
 * 97 cells wide, 350 long, failing to an open area). */
static int edge_level(const tilesat_collapse *c, int level, int r,
                      open_wave *ow) {
  if (c->m->periodic)
    return r;
  ow->edge = level % 2 == 1;
  return BLOCK_RADIUS << (level / 2);
}

/* A repair made in this call: a contradiction its propagation leads to
 * in its block or next to it may be the same one back.  A cell's block
 * starts one level up for each such repair: one that keeps coming back
 * gets ever larger blocks. */
typedef struct repaired {
  int x, r;
} repaired;

static int start_level(const tilesat_collapse *c, const repaired *done,
                       size_t n, int x) {
  int level = 0;
  for (size_t i = 0; i < n; i++) {
    ts_window w;
    if (!ts_collapse_window(c, done[i].x, done[i].r + 1, &w) ||
        ts_collapse_window_cell(c, &w, x) >= 0)
      level++;
  }
  return level;
}

/* The whole map as one block: filled by SAT.  0, TILESAT_UNSAT, -1, or,
 * when its solver would not fit in --max-memory (Castle 1024x1024: 37.5
 * GiB with PicoSAT, 54 GiB with CaDiCaL), 3 with err: the run starts over
 * from another seed (tilesat_collapse_run), as a block that grows that far
 * is rare; in a block's own collapser, 2: the block gives up, and the
 * parent grows it (its own whole map decides). */
static int whole_map(tilesat_collapse *c, const tilesat_collapse_options *o,
                     tilesat_error *err) {
  if (!c->solver &&
      ts_collapse_solver_refuse(c, &o->solve, c->parent ? NULL : err))
    return c->parent ? 2 : 3;
  int *tiles = ts_malloc((size_t)c->N * sizeof *tiles);
  int res = ts_collapse_solve_map(c, &o->solve, tiles, err);
  if (res == TILESAT_SAT) {
    ts_window w;
    memset(&w, 0, sizeof w);
    w.m = *c->m;
    w.m.periodic = false;
    apply(c, &w, tiles);
    c->repairs++;
    c->resolved += c->N;
  }
  free(tiles);
  return res == TILESAT_SAT ? 0 : res;
}

/* auto's bound on a block (of radius r) on a map of 256x256 cells or
 * more: past it the run goes on by modify (tilesat_collapse_run), whose
 * blocks stay small, rather than grow blocks towards the whole map. */
#define AUTO_BLOCK_SIDE "49x49"
#define AUTO_BLOCK_RADIUS 24
static bool auto_bound(const tilesat_collapse *c,
                       const tilesat_collapse_options *o, int r) {
  return !c->parent && o->guard == TILESAT_GUARD_AUTO && !c->cg &&
         c->m->ncells >= 256 * 256 && r >= AUTO_BLOCK_RADIUS;
}

int ts_blocks_repair(tilesat_collapse *c, const tilesat_collapse_options *o,
                     tilesat_error *err) {
  int *tiles = NULL, rc = 0;
  TS_VEC(repaired) done = {0};
  open_wave ow = {.c = c, .big = OPEN_CELLS};
  open_changed(&ow); /* the wave is not the last call's */
  ts_collapse_undo(c, "a block repair decides the cells around a "
                      "contradiction again");
  for (size_t i = 0; i < c->empties.n && !rc; i++) {
    int x = c->empties.v[i];
    if (c->count[x] != 0) /* decided again by an earlier block */
      continue;
    for (int level = start_level(c, done.v, done.n, x);; level++) {
      if (level > c->level_cap) { /* a block's own collapser gives up */
        rc = 2;
        break;
      }
      ts_collapse_report(c, &o->solve, "the guard: repairing blocks");
      ts_window w;
      int r = level < 16 ? BLOCK_RADIUS << level : INT32_MAX;
      if (auto_bound(c, o, r)) { /* auto goes on by modify */
        c->auto_why = "a block grew to " AUTO_BLOCK_SIDE " cells";
        rc = 3;
        break;
      }
      if (r > c->m->width + c->m->height || !ts_collapse_window(c, x, r, &w)) {
        rc = whole_map(c, o, err);
        break;
      }
      band b = {0};
      int kept = block_bans(c, &w, NULL);
      bool stretched = !open_block(c, &w, &ow);
      if (stretched) { /* a corridor out */
        free(w.m.bans.v);
        bool found = corridor(c, &ow, x, edge_level(c, level, r, &ow), &w, &b);
        ow.edge = false;
        if (!found) {
          rc = whole_map(c, o, err);
          break;
        }
        kept = block_bans(c, &w, &b);
      }
      tiles = ts_realloc(tiles, (size_t)w.m.ncells * sizeof *tiles);
      int filled = fill_block(c, o, &w, level, stretched, tiles, err);
      if (filled == 1) {
        apply(c, &w, tiles);
        open_changed(&ow);
        c->repairs++;
        c->resolved += w.m.ncells - kept;
        TS_PUSH(done, ((repaired){x, r}));
      }
      free(w.m.bans.v);
      if (filled != 0) {
        rc = filled < 0 ? -1 : 0;
        break;
      }
    }
    if (rc == 0) {
      ts_collapse_propagate(c);
      open_changed(&ow);
    }
  }
  free(tiles);
  free(done.v);
  free(ow.stack.v);
  if (rc == 0) {
    c->empties.n = 0;
    c->contradiction = -1;
  }
  return rc;
}
