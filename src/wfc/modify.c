/* modify.c: modifying in blocks (wfc/modify.h): the periodic pattern, one
 * block made again, and collapse --guard modify on a finite map.
 *
 * A block is a window of the plane, a map of its own that does not wrap:
 * its ring cells (the margin, on the sides where the plane goes on) are
 * pinned to the tiles they hold, so its other cells see their outside
 * neighbours as they are, and those cells keep the map's pins, bans and
 * masks.  WFC fills it (a collapser of its own, up to MOD_TRIES runs, the
 * seeds from the block's key; it propagates by tile bitsets,
 * collapse_bits.c: the wave AC-4 would leave, its bans and so the noise
 * that breaks ties between cells in another order), then CaDiCaL within
 * MOD_CONFLICTS; a block neither fills keeps its content, which is a
 * filling: the map stays valid after every block.  Same key, same block: a
 * block's result depends on its place, the seed and its cells' content alone.
 */
#include "wfc/modify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MOD_TRIES 8
#define MOD_CACHE 8 /* collapsers kept, one per window size */

mod_i128 ts_mod_floordiv(mod_i128 a, mod_i128 b) {
  mod_i128 q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int ts_mod_floormod(mod_i128 a, int b) {
  mod_i128 r = a % b;
  return (int)(r < 0 ? r + b : r);
}

void ts_mod_layer_offset(int layer, int side, bool hex_rows, int *oy, int *ox) {
  int half = side / 2;
  int hy = hex_rows ? half & ~1 : half;
  static const int ys[MOD_LAYERS] = {0, 1, 0, 1}, xs[MOD_LAYERS] = {0, 1, 1, 0};
  *oy = ys[layer % MOD_LAYERS] ? hy : 0;
  *ox = xs[layer % MOD_LAYERS] ? half : 0;
}

ts_mod_layer_geom ts_mod_layer_open(int layer, bool hex_rows) {
  /* layer 0's margins are rows (and columns) MOD_P - 1 and 0 modulo MOD_P,
   * layer 1's MOD_P/2 - 1 and MOD_P/2: a spot block centred on each pair,
   * MOD_SPOT / 2 - 1 cells on either side (a hex map's rows: one more, its
   * corner even) */
  const int half = MOD_P / 2, sh = hex_rows ? MOD_SPOT + 2 : MOD_SPOT;
  const int y0 = MOD_P - sh / 2, y1 = half - sh / 2;
  const int x0 = MOD_P - MOD_SPOT / 2, x1 = half - MOD_SPOT / 2;
  switch (layer % MOD_LAYERS) {
  case 0:
    return (ts_mod_layer_geom){0, 0, MOD_P, MOD_P};
  case 1:
    return (ts_mod_layer_geom){half, half, MOD_P, MOD_P};
  case 2:
    return (ts_mod_layer_geom){y0, x1, sh, MOD_SPOT};
  default:
    return (ts_mod_layer_geom){y1, x0, sh, MOD_SPOT};
  }
}

uint64_t ts_mod_block_key(uint64_t seed, int layer, mod_i128 brow,
                          mod_i128 bcol) {
  uint64_t x = seed ^ 0x6d6f64696679u;
  const uint64_t parts[5] = {(uint64_t)layer, (uint64_t)brow,
                             (uint64_t)(brow >> 64), (uint64_t)bcol,
                             (uint64_t)(bcol >> 64)};
  for (int i = 0; i < 5; i++) {
    x ^= parts[i];
    x = ts_splitmix64(&x);
  }
  return x;
}

/* ------------------------------------------------------------- pattern */

/* A valid map of the p x q torus by SAT: 1 (tiles), 0, or -1 with err. */
static int torus(const tilesat_rules *r, tilesat_topology topo, int p, int q,
                 const tilesat_solve_options *so, int *tiles,
                 tilesat_error *err) {
  tilesat_map *m = tilesat_map_new(r, q, p, topo, true, err);
  if (!m)
    return -1;
  int res = tilesat_check(m, so, tiles, err);
  tilesat_map_free(m);
  return res == TILESAT_SAT ? 1 : res == TILESAT_UNSAT ? 0 : -1;
}

static bool pattern_fits(int p, int q, bool hex, int need_h, int need_w) {
  if (hex && p % 2)
    return false;
  return (!need_h || need_h % p == 0) && (!need_w || need_w % q == 0);
}

/* The largest side up to `most` that fits `need` (0: any), even on hex
 * rows; 0 when none does. */
static int widest(int most, int need, bool even) {
  for (int n = most; n > 0; n--)
    if ((!need || need % n == 0) && (!even || n % 2 == 0))
      return n;
  return 0;
}

/* The varied pattern's side on a side of `need` cells (0: any): the
 * widest up to MOD_PATTERN; when that is under 4 (need has no divisor
 * from 4 to MOD_PATTERN: 34, 2 x 17, as samples.xml's Circuit), the
 * smallest divisor of need from MOD_PATTERN + 1 to MOD_PATTERN_WIDE,
 * `most` and half of need (a pattern as large as the map would be the
 * whole map's solver).  A periodic map has no edge to bring other tiles
 * in: from a 1x1 or 2x2 pattern its blocks kept it (Circuit 34x34: every
 * cell "bridge 0"). */
static int varied_side(int most, int need, bool even) {
  int n = widest(most < MOD_PATTERN ? most : MOD_PATTERN, need, even);
  if (n >= 4 || !need)
    return n;
  for (int d = MOD_PATTERN + 1;
       d <= MOD_PATTERN_WIDE && d <= most && d <= need / 2; d++)
    if (need % d == 0 && (!even || d % 2 == 0))
      return d;
  return n;
}

/* Up to n maps w x h (wrapping or not) filled by WFC with the exact guard,
 * seeds seed0, seed0 + 1, ...: how many were made, one after the other in
 * tiles (w * h each). */
static int guarded_maps(const tilesat_rules *r, tilesat_topology topo, int w,
                        int h, bool periodic, const tilesat_solve_options *so,
                        tilesat_guard guard, uint64_t seed0, int n,
                        int *tiles) {
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, w, h, topo, periodic, &err);
  tilesat_collapse *c = m ? tilesat_collapse_new(m, &err) : NULL;
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = guard;
  if (so)
    o.solve = *so;
  int made = 0;
  for (int i = 0; c && i < n; i++) {
    o.seed = seed0 + (uint64_t)i;
    made += tilesat_collapse_run(c, &o, tiles + (size_t)made * w * h, &err) ==
            TILESAT_SAT;
  }
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  return made;
}

/* A varied pattern: the largest torus that fits, filled by WFC with the
 * exact guard (one fixed seed, so every run and every chunk starts from the
 * same): its tiles in WFC's shares, so that what the blocks leave of the
 * start does not show (a 1x1 pattern, Circuit's bridge or Castle's ground,
 * came back from blocks whose margins held nothing else).  1 with tiles,
 * else 0 (the smallest torus is looked for then). */
static int varied(const tilesat_rules *r, tilesat_topology topo, int p, int q,
                  const tilesat_solve_options *so, int *tiles) {
  if (p * q < 16)
    return 0;
  return guarded_maps(r, topo, q, p, true, so, TILESAT_GUARD_SAT, 1, 1,
                      tiles) == 1;
}

int ts_mod_pattern_find(const tilesat_rules *r, tilesat_topology topo,
                        int need_h, int need_w, int max_p, int max_q,
                        const tilesat_solve_options *so, ts_mod_pattern *out,
                        tilesat_error *err) {
  bool hex = topo == TILESAT_HEX;
  int vp = varied_side(max_p, need_h, hex),
      vq = varied_side(max_q, need_w, false);
  size_t most = (size_t)MOD_PATTERN * MOD_PATTERN;
  if ((size_t)vp * (size_t)vq > most)
    most = (size_t)vp * (size_t)vq;
  int *tiles = ts_malloc(most * sizeof *tiles);
  if (vp && vq && varied(r, topo, vp, vq, so, tiles)) {
    *out = (ts_mod_pattern){vp, vq, tiles, true};
    return 1;
  }
  max_p = max_p < MOD_PATTERN ? max_p : MOD_PATTERN;
  max_q = max_q < MOD_PATTERN ? max_q : MOD_PATTERN;
  for (int area = 1; area <= max_p * max_q; area++)
    for (int p = 1; p <= max_p; p++) {
      int q = area / p;
      if (area % p || q > max_q || !pattern_fits(p, q, hex, need_h, need_w))
        continue;
      int res = torus(r, topo, p, q, so, tiles, err);
      if (res != 0) {
        if (res == 1)
          *out = (ts_mod_pattern){p, q, tiles, false};
        else
          free(tiles);
        return res;
      }
    }
  free(tiles);
  return 0;
}

/* -------------------------------------------------------------- blocks */

typedef struct mod_cached {
  tilesat_map *wm; /* its pins change from block to block; the collapser
                      holds its address */
  tilesat_collapse *c;
} mod_cached;

struct ts_mod_engine {
  const tilesat_rules *r;
  tilesat_topology topo;
  uint64_t seed;
  tilesat_solve_options so; /* quiet: no progress lines */
  mod_cached cache[MOD_CACHE];
  int ncached;
  int *gcell, *wtiles; /* a window's plane cells, its tiles */
  uint8_t *free_cell;
  size_t cap;
  double *w; /* the blocks' tile weights (ts_mod_engine_weights), or NULL */
  struct wcount { /* a count in the window under way (window_counts) */
    int n, cur;   /* its free cells, those of its class now */
    int lo, hi;   /* what they may hold */
    /* the count to move: at most j of its class cells (too high) or of
     * its other cells (too low), j from jt (as far as the window can) to
     * jl (one nearer) */
    bool low;
    int jt, jl;
  } * wc;
  int nwc;
  int *lits, *out; /* the count's literals and totalizer, cap of each */
  ts_mod_stats st;
  bool ac4; /* the blocks' collapsers count supports (cal_round's), not
               bitsets (collapse_bits.c) */
};

static void weigh(const ts_mod_engine *e, tilesat_collapse *c);

ts_mod_engine *ts_mod_engine_new(const tilesat_rules *r, tilesat_topology topo,
                                 uint64_t seed,
                                 const tilesat_solve_options *so) {
  ts_mod_engine *e = ts_calloc(1, sizeof *e);
  e->r = r;
  e->topo = topo;
  e->seed = seed;
  if (so)
    e->so = *so;
  else
    memset(&e->so, 0, sizeof e->so);
  e->so.progress = NULL;
  return e;
}

static void window_clear(tilesat_map *wm) {
  free(wm->pins.v);
  free(wm->bans.v);
  free(wm->masked);
  memset(wm, 0, sizeof *wm);
}

static void cache_drop(mod_cached *k) {
  tilesat_collapse_free(k->c);
  window_clear(k->wm);
  free(k->wm);
}

void ts_mod_engine_free(ts_mod_engine *e) {
  if (!e)
    return;
  for (int i = 0; i < e->ncached; i++)
    cache_drop(&e->cache[i]);
  free(e->gcell);
  free(e->wtiles);
  free(e->free_cell);
  free(e->w);
  free(e->wc);
  free(e->lits);
  free(e->out);
  free(e);
}

void ts_mod_engine_weights(ts_mod_engine *e, const double *w) {
  if (!w)
    return;
  int T = e->r->ntiles;
  e->w = ts_realloc(e->w, (size_t)T * sizeof *e->w);
  memcpy(e->w, w, (size_t)T * sizeof *e->w);
  for (int i = 0; i < e->ncached; i++)
    weigh(e, e->cache[i].c);
}

const ts_mod_stats *ts_mod_engine_stats(const ts_mod_engine *e) {
  return &e->st;
}

/* The engine's weights into a block's collapser (its runs' start reads
 * them afresh: a start kept for reuse is dropped). */
static void weigh(const ts_mod_engine *e, tilesat_collapse *c) {
  if (!e->w || !c)
    return;
  for (int t = 0; t < c->T; t++) {
    c->w[t] = e->w[t];
    c->wlogw[t] = e->w[t] > 0 ? e->w[t] * log(e->w[t]) : 0;
  }
  c->start_ok = false;
}

static void window_init(const ts_mod_engine *e, tilesat_map *wm, int hh,
                        int ww) {
  memset(wm, 0, sizeof *wm);
  wm->rules = e->r;
  wm->topo = e->topo;
  wm->width = ww;
  wm->height = hh;
  wm->ncells = ww * hh;
  wm->max_memory = tilesat_default_max_memory();
}

/* The window's cells: which plane cell each is, and which are free (not
 * on the ring, not masked).  Returns how many are free. */
static int window_cells(ts_mod_engine *e, const ts_mod_plane *pl, int y0,
                        int x0, int hh, int ww, unsigned ring) {
  size_t n = (size_t)hh * (size_t)ww;
  if (n > e->cap) {
    e->cap = n;
    e->gcell = ts_realloc(e->gcell, n * sizeof *e->gcell);
    e->wtiles = ts_realloc(e->wtiles, n * sizeof *e->wtiles);
    e->free_cell = ts_realloc(e->free_cell, n);
    e->lits = ts_realloc(e->lits, n * sizeof *e->lits);
    e->out = ts_realloc(e->out, n * sizeof *e->out);
  }
  int nfree = 0;
  for (int i = 0; i < hh; i++)
    for (int j = 0; j < ww; j++) {
      int y = (y0 + i) % pl->h, x = (x0 + j) % pl->w, lc = i * ww + j;
      int pc = y * pl->w + x;
      bool edge = (i == 0 && (ring & MOD_RING_N)) ||
                  (i == hh - 1 && (ring & MOD_RING_S)) ||
                  (j == 0 && (ring & MOD_RING_W)) ||
                  (j == ww - 1 && (ring & MOD_RING_E));
      e->gcell[lc] = pc;
      e->free_cell[lc] = !edge && !(pl->m && ts_masked(pl->m, pc));
      nfree += e->free_cell[lc];
    }
  return nfree;
}

/* A free cell of the window at its edge: the tiles its outside neighbours
 * (as they are in the plane) do not allow, banned. */
static void edge_bans(const ts_mod_engine *e, const ts_mod_plane *pl,
                      tilesat_map *wm, int lc) {
  const tilesat_rules *r = e->r;
  int pc = e->gcell[lc];
  for (int d = 0; d < r->ndirs; d++) {
    int ny, nx;
    if (ts_map_neighbor(wm, lc, d) >= 0 ||
        !tilesat_neighbor(e->topo, pl->w, pl->h, pl->periodic, pc / pl->w,
                          pc % pl->w, d, &ny, &nx))
      continue;
    int pn = ny * pl->w + nx;
    if (pl->m && ts_masked(pl->m, pn))
      continue;
    int u = pl->tiles[pn], back = tilesat_dir_opposite(e->topo, d);
    for (int t = 0; t < r->ntiles; t++)
      if (!ts_bit(ts_allowed(r, u, back), t))
        TS_PUSH(wm->bans, ((ts_pin){lc, t}));
  }
}

/* The window's pins and bans: fixed cells their tiles, free cells the
 * plane's pins and bans and what their outside neighbours do not allow. */
static void window_fill(const ts_mod_engine *e, const ts_mod_plane *pl,
                        tilesat_map *wm) {
  wm->pins.n = wm->bans.n = 0;
  for (int lc = 0; lc < wm->ncells; lc++) {
    int pc = e->gcell[lc];
    if (wm->masked && wm->masked[lc])
      continue;
    if (!e->free_cell[lc]) {
      TS_PUSH(wm->pins, ((ts_pin){lc, pl->tiles[pc]}));
      continue;
    }
    edge_bans(e, pl, wm, lc);
    if (!pl->m)
      continue;
    for (size_t k = pl->npin ? ts_mod_first_at(pl->pin, pl->npin, pc) : 0;
         k < pl->npin && pl->pin[k].cell == pc; k++)
      TS_PUSH(wm->pins, ((ts_pin){lc, pl->pin[k].tile}));
    for (size_t k = pl->nban ? ts_mod_first_at(pl->ban, pl->nban, pc) : 0;
         k < pl->nban && pl->ban[k].cell == pc; k++)
      TS_PUSH(wm->bans, ((ts_pin){lc, pl->ban[k].tile}));
  }
}

size_t ts_mod_first_at(const ts_pin *v, size_t n, int cell) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].cell < cell)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Does the window hold a masked cell? */
static bool window_masked(const ts_mod_engine *e, const ts_mod_plane *pl,
                          int n) {
  if (!pl->m || !pl->m->masked)
    return false;
  for (int lc = 0; lc < n; lc++)
    if (pl->m->masked[e->gcell[lc]])
      return true;
  return false;
}

/* A collapser for an hh x ww window without masks, kept; NULL with err. */
static mod_cached *cached(ts_mod_engine *e, int hh, int ww,
                          tilesat_error *err) {
  for (int i = 0; i < e->ncached; i++)
    if (e->cache[i].wm->height == hh && e->cache[i].wm->width == ww)
      return &e->cache[i];
  if (e->ncached == MOD_CACHE) { /* the oldest goes */
    cache_drop(&e->cache[0]);
    memmove(e->cache, e->cache + 1, (MOD_CACHE - 1) * sizeof *e->cache);
    e->ncached--;
  }
  mod_cached *k = &e->cache[e->ncached];
  k->wm = ts_malloc(sizeof *k->wm);
  window_init(e, k->wm, hh, ww);
  k->c = tilesat_collapse_new(k->wm, err);
  if (!k->c) {
    window_clear(k->wm);
    free(k->wm);
    return NULL;
  }
  weigh(e, k->c);
  if (!e->ac4)
    ts_collapse_bits_on(k->c);
  e->ncached++;
  return k;
}

/* -------------------------------------------------------------- counts */

static bool in_class(const ts_global *g, int tile) {
  return tile >= 0 && ts_bit(g->class, tile);
}

static int clamp(long v, int n) { return v < 0 ? 0 : v > n ? n : (int)v; }

/* The window's range for count k (its free cells counted in *w): a met
 * count stays met, an unmet one comes no farther from its bounds; the
 * count to move, pl->move, may come as near as it can (w->jt) and must
 * come one nearer (w->jl).  False when k is pl->move and no filling of
 * the window could move it. */
static bool window_range(const ts_mod_plane *pl, const ts_mod_count *k,
                         struct wcount *w) {
  long out = k->total - w->cur;
  int lo = clamp(k->lo - out, w->n), hi = clamp((long)k->hi - out, w->n);
  bool high = k->total > k->hi, low = k->total < k->lo;
  w->low = low;
  if (k != pl->move) {
    w->lo = low ? w->cur : lo;
    w->hi = high ? w->cur : hi;
    return true;
  }
  w->lo = high ? lo : 0; /* not past its bounds on the other side */
  w->hi = high ? w->n : hi;
  w->jt = high ? hi : w->n - lo; /* hi < cur, lo > cur: k->total's side */
  w->jl = high ? w->cur - 1 : w->n - w->cur - 1;
  return w->jl >= 0;
}

/* Each count's range in the window whose cells window_cells set: false
 * when the count to move cannot move in it. */
static bool window_counts(ts_mod_engine *e, const ts_mod_plane *pl,
                          int ncells) {
  if (pl->ncounts > e->nwc) {
    e->nwc = pl->ncounts;
    e->wc = ts_realloc(e->wc, (size_t)e->nwc * sizeof *e->wc);
  }
  bool can = true;
  for (int i = 0; i < pl->ncounts; i++) {
    const ts_global *g = pl->counts[i].g;
    struct wcount *w = &e->wc[i];
    w->n = w->cur = 0;
    for (int lc = 0; lc < ncells; lc++)
      if (e->free_cell[lc] && ts_global_covers(pl->m, g, e->gcell[lc])) {
        w->n++;
        w->cur += in_class(g, pl->tiles[e->gcell[lc]]);
      }
    can &= window_range(pl, &pl->counts[i], w);
  }
  return can;
}

/* Count i's class cells among the window's free cells in e->wtiles. */
static int window_new(const ts_mod_engine *e, const ts_mod_plane *pl, int i,
                      int ncells) {
  const ts_global *g = pl->counts[i].g;
  int k = 0;
  for (int lc = 0; lc < ncells; lc++)
    k += e->free_cell[lc] && in_class(g, e->wtiles[lc]) &&
         ts_global_covers(pl->m, g, e->gcell[lc]);
  return k;
}

/* Does the window's filling in e->wtiles keep each count in its range? */
static bool counts_keep(const ts_mod_engine *e, const ts_mod_plane *pl,
                        int ncells) {
  for (int i = 0; i < pl->ncounts; i++) {
    const struct wcount *w = &e->wc[i];
    if (!w->n || (w->lo == 0 && w->hi == w->n))
      continue;
    int k = window_new(e, pl, i, ncells);
    if (k < w->lo || k > w->hi)
      return false;
  }
  return true;
}

/* The window's filling in e->wtiles goes into the plane: the counts. */
static void counts_apply(const ts_mod_engine *e, ts_mod_plane *pl, int ncells) {
  for (int i = 0; i < pl->ncounts; i++)
    if (e->wc[i].n)
      pl->counts[i].total += window_new(e, pl, i, ncells) - e->wc[i].cur;
}

static void to_solver(void *user, int group, const int *lits, size_t n) {
  (void)group;
  ts_solver_add_clause(user, lits, n);
}

/* "The cell holds a tile of g's class" as a literal of s (a new
 * variable y, y <-> one of the class's tiles, when the class has more than
 * one). */
static int class_lit(ts_solver *s, const tilesat_map *wm, const ts_global *g,
                     int lc, int *next, int *buf) {
  if (g->ntiles == 1)
    return ts_var(wm, lc, g->tile);
  int y = ++*next, len = 0;
  buf[len++] = -y;
  for (int t = 0; t < wm->rules->ntiles; t++)
    if (ts_bit(g->class, t)) {
      int l[2] = {-ts_var(wm, lc, t), y};
      ts_solver_add_clause(s, l, 2);
      buf[len++] = ts_var(wm, lc, t);
    }
  ts_solver_add_clause(s, buf, (size_t)len);
  return y;
}

/* Count i's class literals on the window's free cells into e->lits:
 * how many. */
static int count_lits(ts_mod_engine *e, const ts_mod_plane *pl,
                      const tilesat_map *wm, ts_solver *s, int i, int *next) {
  const ts_global *g = pl->counts[i].g;
  int n = 0;
  int *buf = ts_malloc(((size_t)wm->rules->ntiles + 1) * sizeof *buf);
  for (int lc = 0; lc < wm->ncells; lc++)
    if (e->free_cell[lc] && ts_global_covers(pl->m, g, e->gcell[lc]))
      e->lits[n++] = class_lit(s, wm, g, lc, next, buf);
  free(buf);
  return n;
}

/* Count i's range on the window's free cells, in s: a totalizer each
 * way, at most hi of the class literals and at most n - lo of their
 * negations; for the count to move, its totalizer of at most j (out[j]:
 * more than j) into e->out. */
static void sat_count(ts_mod_engine *e, const ts_mod_plane *pl,
                      const tilesat_map *wm, ts_solver *s, int i, int *next) {
  const struct wcount *w = &e->wc[i];
  bool move = &pl->counts[i] == pl->move;
  int lo = w->lo, hi = w->hi;
  if (!w->n || (!move && lo <= 0 && hi >= w->n))
    return;
  int n = count_lits(e, pl, wm, s, i, next);
  if (hi < n) {
    ts_totalizer_up(e->lits, n, hi + 1, next, to_solver, s, e->out);
    int unit = -e->out[hi];
    ts_solver_add_clause(s, &unit, 1);
  }
  if (lo > 0) {
    for (int k = 0; k < n; k++)
      e->lits[k] = -e->lits[k];
    ts_totalizer_up(e->lits, n, n - lo + 1, next, to_solver, s, e->out);
    int unit = -e->out[n - lo];
    ts_solver_add_clause(s, &unit, 1);
    for (int k = 0; k < n; k++)
      e->lits[k] = -e->lits[k];
  }
  if (move) { /* its totalizer: e->out */
    for (int k = 0; w->low && k < n; k++)
      e->lits[k] = -e->lits[k];
    ts_totalizer_up(e->lits, n, w->jl + 1, next, to_solver, s, e->out);
  }
}

/* WFC on the window: up to MOD_TRIES plain runs, a filling that breaks
 * a count's range one that failed.  1 filled, 0, -1. */
static int fill_wfc(ts_mod_engine *e, const ts_mod_plane *pl,
                    tilesat_collapse *c, uint64_t key, tilesat_error *err) {
  tilesat_collapse_options co;
  tilesat_collapse_options_init(&co);
  co.solve = e->so;
  for (int t = 0; t < MOD_TRIES; t++) {
    uint64_t x = key + (uint64_t)t;
    co.seed = ts_splitmix64(&x);
    c->start_reuse = t == 0 ? 1 : 2; /* the same window: its start once */
    int res = tilesat_collapse_run(c, &co, e->wtiles, err);
    c->start_reuse = 0;
    if (res < 0)
      return -1;
    if (res == TILESAT_SAT && counts_keep(e, pl, c->m->ncells))
      return 1;
  }
  return 0;
}

/* One solve of s within `conflicts` (0: no bound), assuming `assume` (0:
 * nothing): 1 with e->wtiles, 0, -1 with err. */
static int solve_read(ts_mod_engine *e, ts_solver *s, const tilesat_map *wm,
                      int conflicts, int assume, tilesat_error *err) {
  if (conflicts > 0)
    ts_solver_limit(s, conflicts);
  if (assume)
    ts_solver_assume(s, assume);
  int res = ts_solver_solve(s);
  if (res == TILESAT_UNKNOWN && ts_terminated(&e->so))
    res = ts_solver_unknown(s, "collapse", err);
  if (res == TILESAT_SAT)
    for (int lc = 0; lc < wm->ncells; lc++) {
      e->wtiles[lc] = TILESAT_NO_TILE;
      for (int t = 0; t < e->r->ntiles; t++)
        if (ts_solver_value(s, ts_var(wm, lc, t)))
          e->wtiles[lc] = t;
    }
  return res == TILESAT_SAT ? 1 : res < 0 ? -1 : 0;
}

/* The window's solver (CaDiCaL): its map and the counts. */
static ts_solver *window_solver(ts_mod_engine *e, const ts_mod_plane *pl,
                                const tilesat_map *wm) {
  tilesat_solve_options q = e->so;
  q.backend = TILESAT_CADICAL;
  ts_solver *s = ts_solver_for_map(wm, &q);
  int next = ts_encode_nvars(wm);
  for (int i = 0; i < pl->ncounts; i++) /* the count to move last */
    if (&pl->counts[i] != pl->move)
      sat_count(e, pl, wm, s, i, &next);
  if (pl->move)
    sat_count(e, pl, wm, s, (int)(pl->move - pl->counts), &next);
  return s;
}

/* SAT on the window within `conflicts` (0: no bound), the counts in
 * their ranges: 1 filled, 0, -1. */
static int fill_sat(ts_mod_engine *e, const ts_mod_plane *pl,
                    const tilesat_map *wm, int conflicts, tilesat_error *err) {
  ts_solver *s = window_solver(e, pl, wm);
  int res = solve_read(e, s, wm, conflicts, 0, err);
  ts_solver_free(s);
  return res;
}

/* How many of the count to move's literals (e->lits, as its totalizer
 * counts them) the last model holds. */
static int model_j(const ts_mod_engine *e, ts_solver *s, int n) {
  int j = 0;
  for (int k = 0; k < n; k++)
    j += ts_solver_value(s, abs(e->lits[k])) == (e->lits[k] > 0);
  return j;
}

/* The count to move as near its bounds as the window can take it: a
 * filling with at most jl of its literals (one nearer), then each time
 * one with fewer than the last had, down to jt or until none is found
 * within `conflicts` (the solves that fail cost the most: one here).
 * The last filling in e->wtiles: 1, 0 (none moves it), -1 with err. */
static int fill_move(ts_mod_engine *e, const ts_mod_plane *pl,
                     const tilesat_map *wm, int conflicts, tilesat_error *err) {
  const struct wcount *w = &e->wc[pl->move - pl->counts];
  ts_solver *s = window_solver(e, pl, wm);
  int *best = ts_malloc((size_t)wm->ncells * sizeof *best);
  int found = 0;
  for (int j = w->jl; j >= w->jt;) {
    int res = solve_read(e, s, wm, conflicts, -e->out[j], err);
    if (res < 0)
      found = -1;
    if (res != 1)
      break;
    memcpy(best, e->wtiles, (size_t)wm->ncells * sizeof *best);
    found = 1;
    j = model_j(e, s, w->n) - 1;
  }
  if (found == 1)
    memcpy(e->wtiles, best, (size_t)wm->ncells * sizeof *best);
  free(best);
  ts_solver_free(s);
  return found;
}

/* The window wm filled by WFC (c, when given), then SAT. */
static int fill_window(ts_mod_engine *e, const ts_mod_plane *pl,
                       tilesat_map *wm, tilesat_collapse *c, uint64_t key,
                       tilesat_error *err) {
  tilesat_collapse *own = NULL;
  if (!c && !(c = own = tilesat_collapse_new(wm, err)))
    return -1;
  if (own) {
    weigh(e, own);
    if (!e->ac4)
      ts_collapse_bits_on(own);
  }
  int res = fill_wfc(e, pl, c, key, err);
  tilesat_collapse_free(own);
  if (res == 1) {
    e->st.wfc++;
    return 1;
  }
  if (res == 0 && (res = fill_sat(e, pl, wm, MOD_CONFLICTS, err)) == 1)
    e->st.sat++;
  if (res == 0)
    e->st.kept++;
  return res;
}

/* The window's own map: the cached one for its size when it holds no
 * masked cell, else *own (freed by the caller with window_clear). */
static tilesat_map *window_map(ts_mod_engine *e, const ts_mod_plane *pl, int hh,
                               int ww, tilesat_map *own, tilesat_collapse **c,
                               tilesat_error *err) {
  *c = NULL;
  if (window_masked(e, pl, hh * ww)) {
    window_init(e, own, hh, ww);
    own->masked = ts_calloc((size_t)hh * (size_t)ww, 1);
    for (int lc = 0; lc < hh * ww; lc++)
      if (pl->m->masked[e->gcell[lc]]) {
        own->masked[lc] = 1;
        own->nmasked++;
      }
    return own;
  }
  memset(own, 0, sizeof *own);
  mod_cached *k = cached(e, hh, ww, err);
  if (!k)
    return NULL;
  *c = k->c;
  return k->wm;
}

/* The window without its margin, which its cells' bans stand for (the
 * tiles their fixed outside neighbours do not allow, edge_bans): fewer
 * cells for WFC, none pinned.  A hex window keeps its rows' margin (its
 * first row's parity is the plane's). */
static void inner(const ts_mod_engine *e, ts_mod_rect *b) {
  bool rows = e->topo != TILESAT_HEX;
  if (rows && (b->ring & MOD_RING_N)) {
    b->y0++;
    b->hh--;
  }
  if (rows && (b->ring & MOD_RING_S))
    b->hh--;
  if (b->ring & MOD_RING_W) {
    b->x0++;
    b->ww--;
  }
  if (b->ring & MOD_RING_E)
    b->ww--;
  b->ring &= rows ? 0u : (unsigned)(MOD_RING_N | MOD_RING_S);
}

int ts_mod_window(ts_mod_engine *e, ts_mod_plane *pl, const ts_mod_rect *b,
                  uint64_t key, int conflicts, tilesat_error *err) {
  ts_mod_rect in = *b;
  inner(e, &in);
  int nfree = in.hh <= 0 || in.ww <= 0
                  ? 0
                  : window_cells(e, pl, in.y0, in.x0, in.hh, in.ww, in.ring);
  if (!nfree)
    return 0;
  if (pl->ncounts && !window_counts(e, pl, in.hh * in.ww))
    return 0; /* the count to move cannot move here */
  if (conflicts < 0)
    e->st.cells += nfree;
  tilesat_map own;
  tilesat_collapse *c;
  tilesat_map *wm = window_map(e, pl, in.hh, in.ww, &own, &c, err);
  if (!wm)
    return -1;
  window_fill(e, pl, wm);
  int res = pl->move         ? fill_move(e, pl, wm, conflicts, err)
            : conflicts >= 0 ? fill_sat(e, pl, wm, conflicts, err)
                             : fill_window(e, pl, wm, c, key, err);
  if (res == 1) {
    counts_apply(e, pl, in.hh * in.ww);
    for (int lc = 0; lc < in.hh * in.ww; lc++)
      if (e->free_cell[lc])
        pl->tiles[e->gcell[lc]] = e->wtiles[lc];
  }
  window_clear(&own);
  return res;
}

/* ---------------------------------------------------------- calibration */

#define CAL_P 48     /* the reference maps' side */
#define CAL_MAPS 6   /* reference maps */
#define CAL_ROUNDS 4 /* weight corrections; the last half averaged */

/* The reference: CAL_MAPS open maps CAL_P a side filled by WFC with the
 * exact guard (fixed seeds: every run and every process calibrates
 * alike).  How many were made; tiles[i * CAL_P * CAL_P ..]. */
static int cal_refs(const tilesat_rules *r, tilesat_topology topo,
                    const tilesat_solve_options *so, int *tiles) {
  return guarded_maps(r, topo, CAL_P, CAL_P, false, so, TILESAT_GUARD_AUTO,
                      0x63616cu, CAL_MAPS, tiles);
}

/* One round: each MOD_P x MOD_P block of each reference (corners every
 * MOD_P / 2 cells, inside the map) made again once from the reference,
 * with the weights w: the tiles its interior held (had) and holds (got),
 * counted.  0, or -1 with err.  Its blocks' collapsers count supports
 * (AC-4, as before the blocks propagated by bitsets: the same weights,
 * 600 blocks a calibration, a fraction of a second). */
static int cal_round(const tilesat_rules *r, tilesat_topology topo,
                     const tilesat_solve_options *so, const int *ref, int n,
                     const double *w, int round, double *had, double *got,
                     tilesat_error *err) {
  const int P = CAL_P, PP = CAL_P * CAL_P, step = MOD_P / 2;
  const int nb = (P - MOD_P) / step + 1; /* blocks a side */
  ts_mod_engine *e = ts_mod_engine_new(r, topo, 0, so);
  e->ac4 = true;
  ts_mod_engine_weights(e, w);
  int *buf = ts_malloc((size_t)PP * sizeof *buf);
  ts_mod_plane pl = {.tiles = buf, .w = P, .h = P};
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    const int *was = ref + (size_t)i * PP;
    memcpy(buf, was, (size_t)PP * sizeof *buf);
    for (int b = 0; b < nb * nb && !rc; b++) {
      ts_mod_rect rect = {b / nb * step, b % nb * step, MOD_P, MOD_P,
                          MOD_RING_ALL};
      uint64_t key = ts_mod_block_key(0x63616cu + (uint64_t)round, 0, i, b);
      rc = ts_mod_window(e, &pl, &rect, key, -1, err) < 0 ? -1 : 0;
      for (int y = 1; y < MOD_P - 1; y++)
        for (int x = 1; x < MOD_P - 1; x++) {
          int cell = (rect.y0 + y) * P + rect.x0 + x;
          had[was[cell]]++;
          got[buf[cell]]++;
          buf[cell] = was[cell]; /* the next block sees the reference */
        }
    }
  }
  free(buf);
  ts_mod_engine_free(e);
  return rc;
}

/* Symmetries of the rules: the tiles that a rotation or reflection of a
 * square map (one that keeps the rules, weights and allowed pairs) maps
 * onto each other share one correction, as WFC gives them one share: the
 * correction of a collective feature (Knots' corners turning one way or
 * the other) from a few reference maps is mostly their noise, and the
 * blocks amplify it.  orbit[t]: the least tile of t's orbit. */
#define SYM_NODES 20000 /* a permutation's search gives up past it */

typedef struct sym {
  const tilesat_rules *r;
  int g[4]; /* direction d goes to g[d] */
  int *pi;  /* tile a goes to pi[a], or -1 */
  int *deg; /* [tile][dir]: how many tiles it allows there */
  bool *used;
  long nodes;
} sym;

static bool allow3(const tilesat_rules *r, int a, int d, int b) {
  return ts_bit(ts_allowed(r, a, d), b);
}

/* Can a go to b, given the tiles before a? */
static bool sym_fits(const sym *s, int a, int b) {
  const tilesat_rules *r = s->r;
  if (r->weight[a] != r->weight[b])
    return false;
  for (int d = 0; d < 4; d++)
    if (s->deg[a * 4 + d] != s->deg[b * 4 + s->g[d]] ||
        allow3(r, a, d, a) != allow3(r, b, s->g[d], b))
      return false;
  for (int x = 0; x < a; x++)
    for (int d = 0; d < 4; d++)
      if (allow3(r, a, d, x) != allow3(r, b, s->g[d], s->pi[x]) ||
          allow3(r, x, d, a) != allow3(r, s->pi[x], s->g[d], b))
        return false;
  return true;
}

static bool sym_search(sym *s, int a) {
  if (a == s->r->ntiles)
    return true;
  for (int b = 0; b < s->r->ntiles && s->nodes <= SYM_NODES; b++) {
    if (s->used[b] || (++s->nodes, !sym_fits(s, a, b)))
      continue;
    s->pi[a] = b;
    s->used[b] = true;
    if (sym_search(s, a + 1))
      return true;
    s->used[b] = false;
  }
  s->pi[a] = -1;
  return false;
}

static int orbit_root(int *orbit, int t) {
  while (orbit[t] != t)
    t = orbit[t] = orbit[orbit[t]];
  return t;
}

static void orbits(const tilesat_rules *r, tilesat_topology topo, int *orbit) {
  int T = r->ntiles;
  for (int t = 0; t < T; t++)
    orbit[t] = t;
  if (topo == TILESAT_HEX)
    return;
  sym s = {.r = r};
  s.pi = ts_malloc((size_t)T * sizeof *s.pi);
  s.used = ts_malloc((size_t)T * sizeof *s.used);
  s.deg = ts_calloc((size_t)T * 4, sizeof *s.deg);
  for (int t = 0; t < T; t++)
    for (int d = 0; d < 4; d++)
      for (int k = 0; k < r->words; k++)
        s.deg[t * 4 + d] += __builtin_popcountll(ts_allowed(r, t, d)[k]);
  for (int k = 1; k < 8; k++) { /* 3 rotations, 4 reflections */
    for (int d = 0; d < 4; d++)
      s.g[d] = k < 4 ? (d + k) % 4 : ((k - 4) - d + 4) % 4;
    memset(s.used, 0, (size_t)T * sizeof *s.used);
    s.nodes = 0;
    if (!sym_search(&s, 0))
      continue;
    for (int t = 0; t < T; t++) {
      int a = orbit_root(orbit, t), b = orbit_root(orbit, s.pi[t]);
      orbit[a > b ? a : b] = a < b ? a : b;
    }
  }
  for (int t = 0; t < T; t++)
    orbit[t] = orbit_root(orbit, t);
  free(s.pi);
  free(s.used);
  free(s.deg);
}

int ts_mod_calibrate(const tilesat_rules *r, tilesat_topology topo,
                     const tilesat_solve_options *so, double *w,
                     tilesat_error *err) {
  int T = r->ntiles;
  for (int t = 0; t < T; t++)
    w[t] = (double)r->weight[t];
  int *ref = ts_malloc((size_t)CAL_MAPS * CAL_P * CAL_P * sizeof *ref);
  int n = cal_refs(r, topo, so, ref);
  double *had = ts_malloc(2 * (size_t)T * sizeof *had), *got = had + T;
  int *orbit = ts_malloc((size_t)T * sizeof *orbit);
  double *logw = ts_calloc((size_t)T, sizeof *logw);
  if (n > 0)
    orbits(r, topo, orbit);
  int rc = n > 0 ? 1 : 0;
  for (int round = 0; round < CAL_ROUNDS && rc == 1; round++) {
    memset(had, 0, 2 * (size_t)T * sizeof *had);
    if (cal_round(r, topo, so, ref, n, w, round, had, got, err)) {
      rc = -1;
      break;
    }
    for (int t = 0; t < T; t++)
      if (orbit[t] != t) {
        had[orbit[t]] += had[t];
        got[orbit[t]] += got[t];
      }
    for (int t = 0; t < T; t++) {
      int o = orbit[t];
      double f = (had[o] + 1) / (got[o] + 1);
      f = f < 0.5 ? 0.5 : f > 2 ? 2 : f;
      w[t] *= f;
      if (round >= CAL_ROUNDS / 2)
        logw[t] += log(w[t] > 0 ? w[t] : 1);
    }
  }
  const int later = CAL_ROUNDS - CAL_ROUNDS / 2; /* rounds averaged */
  if (rc == 1) /* the later rounds' weights, averaged: less noise */
    for (int t = 0; t < T; t++)
      if (w[t] > 0)
        w[t] = exp(logw[t] / (double)later);
  free(logw);
  free(had);
  free(orbit);
  free(ref);
  return rc;
}
