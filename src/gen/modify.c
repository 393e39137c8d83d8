/* modify.c: modifying in blocks (gen/modify.h): the periodic pattern, one
 * block made again, and collapse --guard modify on a finite map.
 *
 * A block is a window of the plane, a map of its own that does not wrap:
 * its ring cells (the margin, on the sides where the plane goes on) are
 * pinned to the tiles they hold, so its other cells see their outside
 * neighbours as they are, and those cells keep the map's pins, bans and
 * masks.  WFC fills it (a collapser of its own, up to MOD_TRIES runs, the
 * seeds from the block's key), then CaDiCaL within MOD_CONFLICTS; a block
 * neither fills keeps its content, which is a filling: the map stays valid
 * after every block.  Same key, same block: a block's result depends on
 * its place, the seed and its cells' content alone. */
#include "gen/modify.h"

#include <stdlib.h>
#include <string.h>

#define MOD_TRIES 8
#define MOD_CONFLICTS 2000
#define MOD_CACHE 8 /* collapsers kept, one per window size */

mod_i128 mod_floordiv(mod_i128 a, mod_i128 b) {
  mod_i128 q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int mod_floormod(mod_i128 a, int b) {
  mod_i128 r = a % b;
  return (int)(r < 0 ? r + b : r);
}

void mod_layer_offset(int layer, int side, bool hex_rows, int *oy, int *ox) {
  int half = side / 2;
  int hy = hex_rows ? half & ~1 : half;
  static const int ys[MOD_LAYERS] = {0, 1, 0, 1}, xs[MOD_LAYERS] = {0, 1, 1, 0};
  *oy = ys[layer % MOD_LAYERS] ? hy : 0;
  *ox = xs[layer % MOD_LAYERS] ? half : 0;
}

mod_layer_geom mod_layer_open(int layer, bool hex_rows) {
  /* layer 0's margins are rows (and columns) MOD_P - 1 and 0 modulo MOD_P,
   * layer 1's MOD_P/2 - 1 and MOD_P/2: a spot block centred on each pair,
   * MOD_SPOT / 2 - 1 cells on either side (a hex map's rows: one more, its
   * corner even) */
  const int half = MOD_P / 2, sh = hex_rows ? MOD_SPOT + 2 : MOD_SPOT;
  const int y0 = MOD_P - sh / 2, y1 = half - sh / 2;
  const int x0 = MOD_P - MOD_SPOT / 2, x1 = half - MOD_SPOT / 2;
  switch (layer % MOD_LAYERS) {
  case 0:
    return (mod_layer_geom){0, 0, MOD_P, MOD_P};
  case 1:
    return (mod_layer_geom){half, half, MOD_P, MOD_P};
  case 2:
    return (mod_layer_geom){y0, x1, sh, MOD_SPOT};
  default:
    return (mod_layer_geom){y1, x0, sh, MOD_SPOT};
  }
}

uint64_t mod_block_key(uint64_t seed, int layer, mod_i128 brow, mod_i128 bcol) {
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
  tilesat_error err;
  tilesat_map *m = tilesat_map_new(r, q, p, topo, true, &err);
  tilesat_collapse *c = m ? tilesat_collapse_new(m, &err) : NULL;
  tilesat_collapse_options o;
  tilesat_collapse_options_init(&o);
  o.guard = TILESAT_GUARD_SAT;
  if (so)
    o.solve = *so;
  int res = c ? tilesat_collapse_run(c, &o, tiles, &err) : TILESAT_UNKNOWN;
  tilesat_collapse_free(c);
  tilesat_map_free(m);
  return res == TILESAT_SAT;
}

int mod_pattern_find(const tilesat_rules *r, tilesat_topology topo, int need_h,
                     int need_w, int max_p, int max_q,
                     const tilesat_solve_options *so, mod_pattern *out,
                     tilesat_error *err) {
  bool hex = topo == TILESAT_HEX;
  int *tiles = ts_malloc((size_t)MOD_PATTERN * MOD_PATTERN * sizeof *tiles);
  max_p = max_p < MOD_PATTERN ? max_p : MOD_PATTERN;
  max_q = max_q < MOD_PATTERN ? max_q : MOD_PATTERN;
  int vp = widest(max_p, need_h, hex), vq = widest(max_q, need_w, false);
  if (vp && vq && varied(r, topo, vp, vq, so, tiles)) {
    *out = (mod_pattern){vp, vq, tiles};
    return 1;
  }
  for (int area = 1; area <= max_p * max_q; area++)
    for (int p = 1; p <= max_p; p++) {
      int q = area / p;
      if (area % p || q > max_q || !pattern_fits(p, q, hex, need_h, need_w))
        continue;
      int res = torus(r, topo, p, q, so, tiles, err);
      if (res != 0) {
        if (res == 1)
          *out = (mod_pattern){p, q, tiles};
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

struct mod_engine {
  const tilesat_rules *r;
  tilesat_topology topo;
  uint64_t seed;
  tilesat_solve_options so; /* quiet: no progress lines */
  mod_cached cache[MOD_CACHE];
  int ncached;
  int *gcell, *wtiles; /* a window's plane cells, its tiles */
  uint8_t *free_cell;
  size_t cap;
  mod_stats st;
};

mod_engine *mod_engine_new(const tilesat_rules *r, tilesat_topology topo,
                           uint64_t seed, const tilesat_solve_options *so) {
  mod_engine *e = ts_calloc(1, sizeof *e);
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

void mod_engine_free(mod_engine *e) {
  if (!e)
    return;
  for (int i = 0; i < e->ncached; i++)
    cache_drop(&e->cache[i]);
  free(e->gcell);
  free(e->wtiles);
  free(e->free_cell);
  free(e);
}

const mod_stats *mod_engine_stats(const mod_engine *e) { return &e->st; }

static void window_init(const mod_engine *e, tilesat_map *wm, int hh, int ww) {
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
static int window_cells(mod_engine *e, const mod_plane *pl, int y0, int x0,
                        int hh, int ww, unsigned ring) {
  size_t n = (size_t)hh * (size_t)ww;
  if (n > e->cap) {
    e->cap = n;
    e->gcell = ts_realloc(e->gcell, n * sizeof *e->gcell);
    e->wtiles = ts_realloc(e->wtiles, n * sizeof *e->wtiles);
    e->free_cell = ts_realloc(e->free_cell, n);
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
static void edge_bans(const mod_engine *e, const mod_plane *pl, tilesat_map *wm,
                      int lc) {
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
static void window_fill(const mod_engine *e, const mod_plane *pl,
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
    for (size_t k = pl->npin ? mod_first_at(pl->pin, pl->npin, pc) : 0;
         k < pl->npin && pl->pin[k].cell == pc; k++)
      TS_PUSH(wm->pins, ((ts_pin){lc, pl->pin[k].tile}));
    for (size_t k = pl->nban ? mod_first_at(pl->ban, pl->nban, pc) : 0;
         k < pl->nban && pl->ban[k].cell == pc; k++)
      TS_PUSH(wm->bans, ((ts_pin){lc, pl->ban[k].tile}));
  }
}

size_t mod_first_at(const ts_pin *v, size_t n, int cell) {
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
static bool window_masked(const mod_engine *e, const mod_plane *pl, int n) {
  if (!pl->m || !pl->m->masked)
    return false;
  for (int lc = 0; lc < n; lc++)
    if (pl->m->masked[e->gcell[lc]])
      return true;
  return false;
}

/* A collapser for an hh x ww window without masks, kept; NULL with err. */
static mod_cached *cached(mod_engine *e, int hh, int ww, tilesat_error *err) {
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
  e->ncached++;
  return k;
}

/* WFC on the window: up to MOD_TRIES plain runs.  1 filled, 0, -1. */
static int fill_wfc(mod_engine *e, tilesat_collapse *c, uint64_t key,
                    tilesat_error *err) {
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
    if (res == TILESAT_SAT)
      return 1;
  }
  return 0;
}

/* SAT on the window (CaDiCaL within MOD_CONFLICTS): 1 filled, 0, -1. */
static int fill_sat(mod_engine *e, const tilesat_map *wm, int conflicts,
                    tilesat_error *err) {
  tilesat_solve_options q = e->so;
  q.backend = TILESAT_CADICAL;
  ts_solver *s = ts_solver_for_map(wm, &q);
  if (conflicts > 0)
    ts_solver_limit(s, conflicts);
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
  ts_solver_free(s);
  return res == TILESAT_SAT ? 1 : res < 0 ? -1 : 0;
}

/* The window wm filled by WFC (c, when given), then SAT. */
static int fill_window(mod_engine *e, tilesat_map *wm, tilesat_collapse *c,
                       uint64_t key, tilesat_error *err) {
  tilesat_collapse *own = NULL;
  if (!c && !(c = own = tilesat_collapse_new(wm, err)))
    return -1;
  int res = fill_wfc(e, c, key, err);
  tilesat_collapse_free(own);
  if (res == 1) {
    e->st.wfc++;
    return 1;
  }
  if (res == 0 && (res = fill_sat(e, wm, MOD_CONFLICTS, err)) == 1)
    e->st.sat++;
  if (res == 0)
    e->st.kept++;
  return res;
}

/* The window's own map: the cached one for its size when it holds no
 * masked cell, else *own (freed by the caller with window_clear). */
static tilesat_map *window_map(mod_engine *e, const mod_plane *pl, int hh,
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
static void inner(const mod_engine *e, mod_rect *b) {
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

int mod_window(mod_engine *e, mod_plane *pl, const mod_rect *b, uint64_t key,
               int conflicts, tilesat_error *err) {
  mod_rect in = *b;
  inner(e, &in);
  int nfree = in.hh <= 0 || in.ww <= 0
                  ? 0
                  : window_cells(e, pl, in.y0, in.x0, in.hh, in.ww, in.ring);
  if (!nfree)
    return 0;
  if (conflicts < 0)
    e->st.cells += nfree;
  tilesat_map own;
  tilesat_collapse *c;
  tilesat_map *wm = window_map(e, pl, in.hh, in.ww, &own, &c, err);
  if (!wm)
    return -1;
  window_fill(e, pl, wm);
  int res = conflicts >= 0 ? fill_sat(e, wm, conflicts, err)
                           : fill_window(e, wm, c, key, err);
  if (res == 1)
    for (int lc = 0; lc < in.hh * in.ww; lc++)
      if (e->free_cell[lc])
        pl->tiles[e->gcell[lc]] = e->wtiles[lc];
  window_clear(&own);
  return res;
}
