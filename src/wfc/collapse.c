/* collapse.c: Wave Function Collapse as mxgmn's reference runs it, on
 * tilesat's rules, so that a designer sees in tilesat the run WFC makes.
 *
 * The wave is every cell's set of possible tiles.  A run observes one
 * undecided cell at a time (the one of lowest Shannon entropy of its tile
 * weights, ties broken at random by a tiny noise as the reference does; or
 * fewest tiles; or reading order), chooses its tile at random in proportion
 * to weight, and propagates: arc consistency, AC-4 style.  support[c][e][t]
 * counts the tiles still possible in c's neighbour in direction e that
 * allow t at c; when a tile u leaves cell n, every tile t it supported in a
 * neighbour c loses one, and a tile left with no support is banned in turn
 * (only the tiles still possible at c are counted: the bits of u's allowed
 * set and c's possible set, a banned tile's count is not kep.
 * modify's block collapsers propagate by tile bitsets instead, AC-3 style
 * (collapse_bits.c: the same wave after each propagation, the bans in
 * another order).
 * That is exactly unit propagation on the support clauses of the CNF, i.e.
 * the propagation `trace` shows, at a constant cost per (removal, supported
 * tile).  A cell left with no tile is a contradiction: the run fails, as
 * WFC's does (WFC would restart).  Bans (tilesat_map_ban: WFC's ground)
 * and pins are applied before the first observation.
 *
 * Entropy, as the reference keeps it per cell: log(sum w) - sum(w log w) /
 * sum w over the possible tiles, its sums updated on every ban, the log and
 * the cell's place in the heap when the heap is next read (heap_flush).  A tile
 * of weight 0 is never chosen unless every possible tile has weight 0 (then
 * uniformly).
 *
 * The observation takes the top of a binary heap of the undecided cells
 * keyed on entropy (or count) plus a noise of at most 1e-6, drawn afresh
 * whenever the cell's key changes: the reference scans every cell with a
 * fresh noise each step (O(cells) a step, O(cells^2) a run); among cells
 * of equal entropy both pick one uniformly at random, because the noises of
 * cells the run has not touched since their last draw are exchangeable.
 * The noise has its own random stream, so the tile draws are the same
 * numbers as without it.
 *
 * The guard (--guard sat) bans, before a choice is committed, a tile with
 * which no valid map exists given the choices before it, and the cell
 * draws again.  It is lazy: the run goes on unguarded, since a run that
 * reaches no contradiction made no dooming choice; when one contradicts,
 * SAT finds a choice that doomed it (step k: the prefix of choices up to
 * k leaves no valid map; galloping back from the end, then bisecting, with
 * the prefixes as assumptions), that (step, cell, tile) is learnt, and the
 * run starts again from its seed.  A run is a function of its seed and the
 * dooms it has learnt, so the replay makes the same choices up to step k,
 * where the drawn tile is now banned (and propagated, like any removal)
 * and the cell draws again.
 *
 * The proof comes first from a window around the contradiction (radius 3,
 * doubled up to the map's size), a map of its own whose cells lose their
 * neighbours outside: a relaxation, so what refutes the window refutes the
 * map, and its CNF is small.  Only when no window does (a doom that is not
 * local: parity around a torus) the solver on the whole map is made, and
 * it finds the true point of no return.  The window's doom may lie after
 * the true point of no return (then another learn follows, at or before
 * it): the map is that of an eager guard (a solver call before each
 * choice) whenever the windows find the first doom, always valid, at the
 * cost of plain runs where WFC does not fail.  A guarded run never ends in
 * a contradiction; when the rules and pins alone have no valid map a
 * window or the whole map says so, and the run is UNSAT.
 *
 * The block guard (--guard blocks, or auto once the exact guard has made
 * its budget of solver calls) does not replay: propagation goes on past an
 * emptied cell (whose last tile is not propagated), and blocks.c decides a
 * block of cells around each emptied cell again; the run goes on.
 *
 * Global constraints (collapse_globals.c): borders are bans, counts and
 * (guarded) connected and path constraints are propagated with the wave.
 * Their propagation bans only what no valid map with the choices holds,
 * so a guarded run's contradiction proves its last choice doomed: the
 * guard learns it without a solver (global_learn), goes back further by
 * probing when every tile of a cell is doomed, and starts over from
 * another seed when it has to go back too often.  The block guard, which
 * decides blocks again without them, is not for such maps (nor for masked
 * ones): `blocks` refuses them and `auto` does not hand over.
 *
 * The solver on the whole map and the guard's windows, learns and
 * restarts are in collapse_guard.c; making and freeing a collapser, and
 * the memory it needs, in collapse_new.c; what a run left, why it failed,
 * the names of guards and heuristics and a run's progress lines in
 * collapse_results.c.
 */
#include "wfc/collapse_internal.h"
#include "wfc/modify.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double entropy_of(double sum_w, double sum_wlogw) {
  return sum_w > 0 ? log(sum_w) - sum_wlogw / sum_w : 0;
}

/* ---------------------------------------------------------- the heap */

static void heap_set(tilesat_collapse *c, int i, int cell) {
  c->heap[i] = cell;
  c->pos[cell] = i;
}

static void sift_up(tilesat_collapse *c, int i) {
  int cell = c->heap[i];
  double k = c->key[cell];
  while (i > 0) {
    int up = (i - 1) / 2;
    if (c->key[c->heap[up]] <= k)
      break;
    heap_set(c, i, c->heap[up]);
    i = up;
  }
  heap_set(c, i, cell);
}

static void sift_down(tilesat_collapse *c, int i) {
  int cell = c->heap[i];
  double k = c->key[cell];
  for (;;) {
    int down = 2 * i + 1;
    if (down >= c->heap_n)
      break;
    if (down + 1 < c->heap_n &&
        c->key[c->heap[down + 1]] < c->key[c->heap[down]])
      down++;
    if (c->key[c->heap[down]] >= k)
      break;
    heap_set(c, i, c->heap[down]);
    i = down;
  }
  heap_set(c, i, cell);
}

static double key_of(tilesat_collapse *c, int cell) {
  double x = c->heuristic == TILESAT_HEURISTIC_MRV ? (double)c->count[cell]
                                                   : c->entropy[cell];
  return x + 1e-6 * ts_rng_double(&c->noise);
}

/* No change pending (the heap built or restored anew). */
static void heap_clean(tilesat_collapse *c) {
  for (int k = 0; k < c->ndirty; k++)
    c->dirty_on[c->dirty[k]] = 0;
  c->ndirty = 0;
}

/* Every cell in the heap, each with a key and a noise of its own. */
static void heap_build(tilesat_collapse *c) {
  heap_clean(c);
  c->heap_n = 0;
  memset(c->pos, -1, (size_t)c->N * sizeof *c->pos);
  if (c->heuristic == TILESAT_HEURISTIC_SCANLINE)
    return;
  for (int cell = 0; cell < c->N; cell++) {
    if (c->count[cell] > 1) {
      c->key[cell] = key_of(c, cell);
      heap_set(c, c->heap_n++, cell);
    }
  }
  for (int i = c->heap_n / 2 - 1; i >= 0; i--)
    sift_down(c, i);
}

/* cell's entropy or count changed: a new key (and noise), or out of the
 * heap once decided or empty. */
static void heap_update(tilesat_collapse *c, int cell) {
  int i = c->pos[cell];
  if (i < 0)
    return;
  if (c->dirty_on[cell]) /* ts_collapse_set: the pending change is moot */
    c->dirty_on[cell] = 0;
  if (c->count[cell] <= 1) {
    c->pos[cell] = -1;
    if (--c->heap_n > i) {
      int moved = c->heap[c->heap_n];
      heap_set(c, i, moved);
      sift_up(c, i);
      if (c->pos[moved] == i)
        sift_down(c, i);
    }
    return;
  }
  double old = c->key[cell];
  c->key[cell] = key_of(c, cell);
  if (c->key[cell] < old)
    sift_up(c, i);
  else
    sift_down(c, i);
}

/* A ban on a cell in the heap, its key's change deferred to heap_flush
 * (a cell loses many tiles between two observations): its noise drawn now,
 * in the order the bans come, as heap_update draws it, and its entropy
 * (a log) and place in the heap once, when the heap is read.  The keys
 * are the same (the entropy of the same sums, the last noise drawn), so
 * the heap's least is the same cell. */
static void heap_defer(tilesat_collapse *c, int cell) {
  if (c->count[cell] > 1)
    c->pend[cell] = ts_rng_double(&c->noise);
  if (!c->dirty_on[cell]) {
    c->dirty_on[cell] = 1;
    c->dirty[c->ndirty++] = cell;
  }
}

/* The deferred changes into the heap, one cell at a time (the heap is
 * valid before each), in the order of their first ban. */
static void heap_flush(tilesat_collapse *c) {
  for (int k = 0; k < c->ndirty; k++) {
    int cell = c->dirty[k], i = c->pos[cell];
    if (!c->dirty_on[cell] || i < 0)
      continue;
    c->dirty_on[cell] = 0;
    c->entropy[cell] = entropy_of(c->sum_w[cell], c->sum_wlogw[cell]);
    if (c->count[cell] <= 1) {
      heap_update(c, cell);
      continue;
    }
    double old = c->key[cell];
    double x = c->heuristic == TILESAT_HEURISTIC_MRV ? (double)c->count[cell]
                                                     : c->entropy[cell];
    c->key[cell] = x + 1e-6 * c->pend[cell];
    if (c->key[cell] < old)
      sift_up(c, i);
    else
      sift_down(c, i);
  }
  c->ndirty = 0;
}

/* Remove tile t from cell; a cell left empty is the contradiction.  The
 * last tile's removal is not propagated: an empty cell would empty its
 * neighbours in turn; they go on counting it (a block repair, which
 * propagates past an empty cell, decides the cell again). */
static void ban(tilesat_collapse *c, int cell, int t) {
  size_t k = (size_t)cell * (size_t)c->T + (size_t)t;
  c->possible[k] = 0;
  c->pbits[(size_t)cell * (size_t)c->W + (size_t)(t / 64)] &=
      ~(1ull << (t % 64));
  c->count[cell]--;
  c->sum_w[cell] -= c->w[t];
  c->sum_wlogw[cell] -= c->wlogw[t];
  if (c->pos[cell] >= 0)
    heap_defer(c, cell);
  else
    c->entropy[cell] = entropy_of(c->sum_w[cell], c->sum_wlogw[cell]);
  if (c->cg)
    ts_cg_on_ban(c, cell, t);
  if (c->count[cell] > 0) {
    TS_PUSH(c->stack, ((ts_collapse_pair){cell, t}));
    return;
  }
  if (c->contradiction < 0)
    c->contradiction = cell;
  if (c->drain)
    TS_PUSH(c->empties, cell);
}

void ts_collapse_ban(tilesat_collapse *c, int cell, int t) { ban(c, cell, t); }

void ts_collapse_ban_bits(tilesat_collapse *c, int cell, int w, uint64_t mask) {
  if (c->cg) { /* its counters follow each ban */
    for (; mask; mask &= mask - 1)
      ban(c, cell, w * 64 + __builtin_ctzll(mask));
    return;
  }
  uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
  double sw = c->sum_w[cell], swl = c->sum_wlogw[cell]; /* in registers */
  int n = 0;
  for (uint64_t m = mask; m; m &= m - 1, n++) {
    int t = w * 64 + __builtin_ctzll(m);
    poss[t] = 0;
    sw -= c->w[t];
    swl -= c->wlogw[t];
  }
  c->sum_w[cell] = sw;
  c->sum_wlogw[cell] = swl;
  c->pbits[(size_t)cell * (size_t)c->W + (size_t)w] &= ~mask;
  c->count[cell] -= n;
  if (c->pos[cell] >= 0)
    heap_defer(c, cell);
  else
    c->entropy[cell] = entropy_of(c->sum_w[cell], c->sum_wlogw[cell]);
  if (c->count[cell] > 0)
    TS_PUSH(c->stack,
            ((ts_collapse_pair){cell, w * 64 + __builtin_ctzll(mask)}));
  else if (c->contradiction < 0)
    c->contradiction = cell;
}

/* Every tile of cell but keep banned (by bitset words in modify's
 * blocks). */
static void ban_others(tilesat_collapse *c, int cell, int keep) {
  if (c->done) {
    for (int w = 0; w < c->W; w++) {
      uint64_t m = c->pbits[(size_t)cell * (size_t)c->W + (size_t)w];
      if (keep / 64 == w)
        m &= ~(1ull << (keep % 64));
      if (m)
        ts_collapse_ban_bits(c, cell, w, m);
    }
    return;
  }
  for (int t = 0; t < c->T; t++)
    if (t != keep && c->possible[(size_t)cell * (size_t)c->T + (size_t)t])
      ban(c, cell, t);
}

void ts_collapse_set(tilesat_collapse *c, int cell, int t) {
  uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
  memset(poss, 0, (size_t)c->T);
  poss[t] = 1;
  uint64_t *bits = c->pbits + (size_t)cell * (size_t)c->W;
  memset(bits, 0, (size_t)c->W * sizeof *bits);
  bits[t / 64] = 1ull << (t % 64);
  c->count[cell] = 1;
  c->sum_w[cell] = c->w[t];
  c->sum_wlogw[cell] = c->wlogw[t];
  c->entropy[cell] = 0;
  heap_update(c, cell);
}

/* Tile u left cell n: the tiles it allowed in n's neighbours lose one
 * support each; a tile left with none is banned.  Only the tiles still
 * possible count (the bits of u's allowed set and the neighbour's
 * possible set, in increasing order as the support list has them: the
 * same bans in the same order as counting every tile).  Until the stack
 * is empty or a cell is empty; then the global constraints' own bans
 * (counts at a bound, regions cut off), propagated in turn. */
static void propagate(tilesat_collapse *c) {
  const int T = c->T, D = c->D, W = c->W;
  if (c->done) { /* modify's blocks: by bitsets (they never drain) */
    ts_collapse_propagate_bits(c);
    return;
  }
again:
  while (c->stack.n && (c->contradiction < 0 || c->drain)) {
    ts_collapse_pair p = c->stack.v[--c->stack.n];
    for (int d = 0; d < D; d++) {
      int cell = c->nbr[(size_t)p.cell * (size_t)D + (size_t)d];
      if (cell < 0)
        continue;
      /* cell sees n in direction e = opp(d); t at cell lost u's support */
      const uint64_t *allow =
          c->abits + ((size_t)d * (size_t)T + (size_t)p.tile) * (size_t)W;
      const uint64_t *poss = c->pbits + (size_t)cell * (size_t)W;
      uint16_t *s = c->support +
                    ((size_t)cell * (size_t)D + (size_t)c->opp[d]) * (size_t)T;
      for (int w = 0; w < W; w++)
        for (uint64_t m = allow[w] & poss[w]; m; m &= m - 1) {
          int t = w * 64 + __builtin_ctzll(m);
          if (--s[t] == 0)
            ban(c, cell, t);
        }
    }
  }
  if (c->cg && c->contradiction < 0 && ts_cg_propagate(c))
    goto again;
}

void ts_collapse_propagate(tilesat_collapse *c) { propagate(c); }

/* Every tile possible everywhere, then the tiles with no support where a
 * neighbour exists and the map's bans, then the pins. */
static void start(tilesat_collapse *c, uint64_t seed, tilesat_heuristic h) {
  const tilesat_map *m = c->m;
  const int T = c->T, D = c->D, N = c->N;
  if (c->cg)
    ts_cg_stop(c->cg); /* until ts_cg_start, after the start's bans */
  ts_rng_seed(&c->rng, seed, 0x636f6cu);
  ts_rng_seed(&c->noise, seed, 0x6e6f6973u);
  c->heuristic = h;
  double sw = 0, swl = 0;
  for (int t = 0; t < T; t++) {
    sw += c->w[t];
    swl += c->wlogw[t];
  }
  memset(c->possible, 1, (size_t)N * (size_t)T);
  c->stack.n = c->choices.n = c->doomed.n = c->empties.n = 0;
  c->next_doom = 0;
  c->no_return = -1;
  c->contradiction = c->failed = -1;
  c->scan = 0;
  /* a fresh cell's supports (the first cell's, copied to the others) */
  const size_t row = (size_t)T * (size_t)D, W = (size_t)c->W;
  bool unsupported = false; /* a tile with no support in some direction */
  for (int t = 0; t < T && N > 0; t++)
    for (int d = 0; d < D; d++) {
      c->support[(size_t)d * (size_t)T + (size_t)t] =
          (uint16_t)c->supp_len[d * T + t];
      unsupported |= c->supp_len[d * T + t] == 0;
    }
  const double fresh = entropy_of(sw, swl);
  for (int cell = 0; cell < N; cell++) {
    c->count[cell] = T;
    c->sum_w[cell] = sw;
    c->sum_wlogw[cell] = swl;
    c->entropy[cell] = fresh;
    if (cell > 0 && !c->done) /* bitsets count none */
      memcpy(c->support + (size_t)cell * row, c->support,
             row * sizeof *c->support);
    for (size_t w = 0; w < W; w++) /* every tile: T bits */
      c->pbits[(size_t)cell * W + w] =
          (int)w < T / 64 ? ~0ull : (1ull << (T % 64)) - 1;
    if (ts_masked(m, cell)) { /* not part of the map: no tile, no choice */
      memset(c->possible + (size_t)cell * (size_t)T, 0, (size_t)T);
      memset(c->pbits + (size_t)cell * W, 0, W * sizeof *c->pbits);
      c->count[cell] = 0;
      c->sum_w[cell] = c->sum_wlogw[cell] = c->entropy[cell] = 0;
    }
  }
  if (c->done) /* nothing propagated yet: every cell as it is */
    memcpy(c->done, c->pbits, (size_t)N * W * sizeof *c->done);
  heap_build(c);
  for (int cell = 0; unsupported && cell < N && c->contradiction < 0; cell++)
    for (int t = 0; t < T; t++)
      for (int d = 0; d < D; d++)
        if (c->nbr[(size_t)cell * (size_t)D + (size_t)d] >= 0 &&
            c->supp_len[d * T + t] == 0 &&
            c->possible[(size_t)cell * (size_t)T + (size_t)t]) {
          ban(c, cell, t);
          break;
        }
  for (size_t i = 0; i < m->bans.n && c->contradiction < 0; i++) {
    size_t k =
        (size_t)m->bans.v[i].cell * (size_t)T + (size_t)m->bans.v[i].tile;
    if (c->possible[k])
      ban(c, m->bans.v[i].cell, m->bans.v[i].tile);
  }
  if (c->cg && c->contradiction < 0)
    ts_cg_start(c);
  propagate(c);
  for (size_t i = 0; i < m->pins.n && c->contradiction < 0; i++) {
    ban_others(c, m->pins.v[i].cell, m->pins.v[i].tile);
    propagate(c);
  }
}

/* The undecided cell to observe next, or -1 when every cell is decided. */
static int next_cell(tilesat_collapse *c, tilesat_heuristic h) {
  if (h == TILESAT_HEURISTIC_SCANLINE) {
    while (c->scan < c->N && c->count[c->scan] <= 1)
      c->scan++;
    return c->scan < c->N ? c->scan : -1;
  }
  heap_flush(c);
  return c->heap_n ? c->heap[0] : -1;
}

/* A tile of cell, in proportion to weight (uniformly if all weigh 0). */
static int choose(tilesat_collapse *c, int cell) {
  const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
  double total = c->sum_w[cell];
  bool uniform = !(total > 0);
  double r = ts_rng_double(&c->rng) * (uniform ? c->count[cell] : total);
  int last = -1;
  for (int t = 0; t < c->T; t++) {
    if (!poss[t])
      continue;
    last = t;
    r -= uniform ? 1 : c->w[t];
    if (r < 0)
      return t;
  }
  return last; /* rounding left r at or above the total */
}

static bool doomed(tilesat_collapse *c, int cell, int t) {
  size_t step = c->choices.n;
  while (c->next_doom < c->dooms.n && c->dooms.v[c->next_doom].step < step)
    c->next_doom++;
  for (size_t i = c->next_doom; i < c->dooms.n && c->dooms.v[i].step == step;
       i++)
    if (c->dooms.v[i].cell == cell && c->dooms.v[i].tile == t)
      return true;
  return false;
}

/* Choose a tile for cell, drawing again after each learnt doom (banned,
 * and propagated: the valid maps of the choices so far keep their
 * tiles). */
static int decide(tilesat_collapse *c, int cell) {
  for (;;) {
    int t = choose(c, cell);
    if (!doomed(c, cell, t))
      return t;
    ban(c, cell, t);
    propagate(c);
    if (c->contradiction >= 0)
      return -1; /* every tile left dooms: an earlier choice was wrong */
  }
}

void tilesat_collapse_options_init(tilesat_collapse_options *o) {
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->heuristic = TILESAT_HEURISTIC_ENTROPY;
  o->solve.backend = TILESAT_PICOSAT;
}

/* Every cell decided: the map, checked.  An unguarded run's map may break
 * a connected or path constraint (WFC does not see them): a failed run. */
static int finish(tilesat_collapse *c, int *tiles, tilesat_error *err) {
  for (int cell = 0; cell < c->N; cell++) {
    const uint8_t *poss = c->possible + (size_t)cell * (size_t)c->T;
    const uint8_t *one = memchr(poss, 1, (size_t)c->T);
    tiles[cell] = one ? (int)(one - poss) : TILESAT_NO_TILE; /* masked */
  }
  if (c->cg && !c->guarded) {
    c->failed = ts_collapse_globals_broken(c->m, tiles, c->why, sizeof c->why);
    if (c->failed >= 0)
      return TILESAT_UNKNOWN;
  }
  char why[512];
  if (!tilesat_map_verify(c->m, tiles, why, sizeof why)) {
    ts_error(err, "collapse", 0,
             "internal error: the collapsed map is not valid: %s", why);
    return -1;
  }
  return TILESAT_SAT;
}

/* The state at the start of this step into the snapshot (allocated the
 * first time), or back from it.  Copying is the same either way. */
#define SNAP_FIELDS(X)                                                         \
  X(support, c->done ? 0 : (size_t)c->N *(size_t)c->T *(size_t)c->D)           \
  X(possible, (size_t)c->N *(size_t)c->T)                                      \
  X(pbits, (size_t)c->N *(size_t)c->W)                                         \
  X(count, (size_t)c->N)                                                       \
  X(heap, (size_t)c->N)                                                        \
  X(pos, (size_t)c->N)                                                         \
  X(sum_w, (size_t)c->N)                                                       \
  X(sum_wlogw, (size_t)c->N)                                                   \
  X(entropy, (size_t)c->N)                                                     \
  X(key, (size_t)c->N)

static void snap_save_to(tilesat_collapse *c, ts_collapse_snapshot *s) {
  heap_flush(c);
#define SAVE(f, n)                                                             \
  if (!s->f)                                                                   \
    s->f = ts_malloc((n) * sizeof *s->f);                                      \
  memcpy(s->f, c->f, (n) * sizeof *s->f);
  SNAP_FIELDS(SAVE)
#undef SAVE
  s->heap_n = c->heap_n;
  s->scan = c->scan;
  s->rng = c->rng;
  s->noise = c->noise;
  s->step = c->choices.n;
}

static void snap_save(tilesat_collapse *c) { snap_save_to(c, &c->snap); }

static void snap_restore_from(tilesat_collapse *c,
                              const ts_collapse_snapshot *s) {
#define RESTORE(f, n) memcpy(c->f, s->f, (n) * sizeof *s->f);
  SNAP_FIELDS(RESTORE)
#undef RESTORE
  heap_clean(c); /* it was saved flushed */
  if (c->done)   /* saved propagated */
    memcpy(c->done, c->pbits, (size_t)c->N * (size_t)c->W * sizeof *c->done);
  c->heap_n = s->heap_n;
  c->scan = s->scan;
  c->rng = s->rng;
  c->noise = s->noise;
  c->choices.n = s->step;
  c->stack.n = c->doomed.n = c->empties.n = 0;
  c->next_doom = 0;
  c->no_return = -1;
  c->contradiction = c->failed = -1;
  if (c->cg)
    ts_cg_rebuild(c);
}

/* The state the last start left (start_snap), with the seeds' generators
 * and the heap's noise drawn again: the same as start() on the same map
 * and pins, without their bans and propagation. */
static void start_again(tilesat_collapse *c, uint64_t seed,
                        tilesat_heuristic h) {
  snap_restore_from(c, &c->start_snap);
  ts_rng_seed(&c->rng, seed, 0x636f6cu);
  ts_rng_seed(&c->noise, seed, 0x6e6f6973u);
  c->heuristic = h;
  c->scan = 0;
  heap_build(c);
}

/* The latest snapshot taken at or before step (NULL: none). */
static const ts_collapse_snapshot *snap_at(const tilesat_collapse *c,
                                           size_t step) {
  const ts_collapse_snapshot *s = c->snap.step <= step ? &c->snap : NULL;
  if (c->old.step <= step && (!s || c->old.step > s->step))
    s = &c->old;
  return s;
}

/* The state at step want saved: the snapshot before it kept as the older
 * one when it lies OLD_GAP steps back or more (with global constraints,
 * whose guard goes back a step at a time: a replay from it instead of
 * the seed). */
#define OLD_GAP 32
static void snap_keep(tilesat_collapse *c) {
  if (c->cg && c->snap.step != SIZE_MAX &&
      c->snap.step + OLD_GAP <= c->choices.n) {
    ts_collapse_snapshot t = c->old;
    c->old = c->snap;
    c->snap = t;
  }
  snap_save(c);
}

/* Choices between two polls of terminate: a few milliseconds. */
#define POLL_CHOICES 4096
#define REPORT_CHOICES                                                         \
  256 /* a progress line offered (the caller throttles)                        \
       */

/* How run_once begins: from the seed, from the snapshot, or on from the
 * wave as it is (auto, once the exact guard gave up). */
enum { RUN_START, RUN_RESUME, RUN_ON };

static bool stop_asked(const tilesat_collapse_options *o, tilesat_error *err) {
  if (!o->solve.terminate || !o->solve.terminate(o->solve.terminate_user))
    return false;
  ts_error(err, "collapse", 0, "interrupted");
  return true;
}

/* Every REPORT_CHOICES choices a progress line offered, and every
 * POLL_CHOICES a stop asked: true (with err) to stop. */
static bool poll_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                     tilesat_error *err) {
  if (c->choices.n % REPORT_CHOICES)
    return false;
  if (c->choices.n % POLL_CHOICES == 0 && stop_asked(o, err))
    return true;
  ts_collapse_report(c, &o->solve, NULL);
  return false;
}

/* One run from the seed, banning the dooms learnt, and repairing each
 * contradiction by blocks once they are on: 0 (the map's cells all
 * decided, or a contradiction), 1 (it stopped at o->limit choices: the
 * wave as it is), 2, 3, TILESAT_UNSAT or -1 with err (ts_blocks_repair's). */
/* A run from its seed: the start (or the one modify kept, start_reuse). */
static void run_start(tilesat_collapse *c, const tilesat_collapse_options *o) {
  /* the block guard decides blocks again without global constraints or
   * masks: not on such maps (blocks refused, auto as sat), nor by bitsets
   * (modify's blocks: no support counts for a repair to mend) */
  bool blocks = !c->cg && !c->m->masked && !c->done;
  c->drain = blocks && (o->guard == TILESAT_GUARD_BLOCKS ||
                        o->guard == TILESAT_GUARD_AUTO);
  c->blocks_on = blocks && o->guard == TILESAT_GUARD_BLOCKS;
  if (c->start_reuse == 2 && c->start_ok)
    start_again(c, c->seed_now, o->heuristic);
  else
    start(c, c->seed_now, o->heuristic);
  if (c->start_reuse == 1 && (c->start_ok = c->contradiction < 0))
    snap_save_to(c, &c->start_snap);
  /* at every start: the map's pins and bans may have changed since the
   * last run (modify's windows change them block by block) */
  if (c->drain && c->contradiction < 0) {
    if (!c->base)
      c->base = ts_malloc((size_t)c->N * (size_t)c->T);
    memcpy(c->base, c->possible, (size_t)c->N * (size_t)c->T);
  }
}

static int run_once(tilesat_collapse *c, const tilesat_collapse_options *o,
                    int how, tilesat_error *err) {
  if (how == RUN_RESUME)
    snap_restore_from(c, snap_at(c, c->snap_want));
  else if (how == RUN_START)
    run_start(c, o);
  for (;;) {
    if (c->contradiction >= 0) {
      /* none left by the pins alone: propagation refuted them */
      if (!c->blocks_on || c->choices.n == 0)
        return 0;
      if (stop_asked(o, err))
        return -1;
      int rc = ts_blocks_repair(c, o, err);
      if (rc)
        return rc;
      continue;
    }
    if (o->limit > 0 && c->choices.n >= (size_t)o->limit)
      return 1;
    if (poll_run(c, o, err))
      return -1;
    if (c->choices.n == c->snap_want && c->snap.step != c->snap_want &&
        c->old.step != c->snap_want)
      snap_keep(c);
    int cell = next_cell(c, o->heuristic);
    if (cell < 0)
      return 0;
    int keep = decide(c, cell);
    if (keep < 0)
      continue;
    TS_PUSH(c->choices, ((ts_collapse_pair){cell, keep}));
    ban_others(c, cell, keep);
    propagate(c);
  }
}

/* ------------------------------------------------------------ probing */

/* The state after the first j choices of ch (the run's), with the dooms
 * learnt at steps up to j banned: from the snapshot when it is no later,
 * else from the seed. */
static void replay_to(tilesat_collapse *c, const ts_collapse_pair *ch,
                      size_t j) {
  size_t i = 0, d = 0;
  const ts_collapse_snapshot *s = snap_at(c, j);
  if (s) {
    snap_restore_from(c, s);
    i = s->step;
  } else {
    start(c, c->seed_now, c->heuristic);
  }
  while (d < c->dooms.n && c->dooms.v[d].step < i)
    d++; /* their cells are decided */
  for (; c->contradiction < 0; i++) {
    for (; d < c->dooms.n && c->dooms.v[d].step == i; d++) {
      const ts_collapse_doom *x = &c->dooms.v[d];
      if (c->possible[(size_t)x->cell * (size_t)c->T + (size_t)x->tile])
        ban(c, x->cell, x->tile);
    }
    propagate(c);
    if (i == j || c->contradiction >= 0)
      break;
    ts_collapse_pair p = ch[i];
    ban_others(c, p.cell, p.tile);
    propagate(c);
    TS_PUSH(c->choices, p);
  }
}

/* Does every tile of cell x lead the propagation to a contradiction? */
static bool probe_fails(tilesat_collapse *c, int x) {
  if (c->contradiction >= 0)
    return true;
  snap_save_to(c, &c->probe);
  for (int t = 0; t < c->T; t++) {
    if (!c->possible[(size_t)x * (size_t)c->T + (size_t)t])
      continue;
    ban_others(c, x, t);
    propagate(c);
    bool ok = c->contradiction < 0;
    snap_restore_from(c, &c->probe);
    if (ok)
      return false;
  }
  return true;
}

/* Every tile of cell x, the run's next choice, dooms it: the choices
 * before are to blame, the last or an earlier one.  The first prefix
 * after which propagation refutes every tile of x (probing: galloping
 * back from the whole run, then bisecting; a longer prefix bans more, so
 * it fails too), found by replaying the run's prefixes.  Its length, 0
 * when the pins alone fail; the state is left as it is. */
size_t ts_collapse_probe_back(tilesat_collapse *c, int x) {
  size_t n = c->choices.n;
  ts_collapse_pair *ch = ts_malloc((n + 1) * sizeof *ch);
  memcpy(ch, c->choices.v, n * sizeof *ch);
  long lo = -1, hi = (long)n; /* prefix lo leaves x a tile, prefix hi not */
  for (long step = 1; hi - lo > 1; step *= 2) {
    long j = hi - step > lo ? hi - step : lo + 1;
    replay_to(c, ch, (size_t)j);
    if (!probe_fails(c, x)) {
      lo = j;
      break;
    }
    hi = j;
  }
  while (hi - lo > 1) {
    long j = lo + (hi - lo) / 2;
    replay_to(c, ch, (size_t)j);
    if (probe_fails(c, x))
      hi = j;
    else
      lo = j;
  }
  c->choices.n = 0;
  for (size_t i = 0; i < n; i++)
    TS_PUSH(c->choices, ch[i]);
  free(ch);
  return (size_t)hi;
}

/* Starts over when a block repair grows to the whole map and its solver
 * would not fit in --max-memory: then an error. */
#define MEMORY_RESTARTS 8

static int memory_gave_up(const tilesat_collapse *c, tilesat_error *err) {
  if (!err)
    return -1;
  char why[sizeof err->msg];
  const char *own = "collapse: ";
  snprintf(why, sizeof why, "%s",
           err->msg + (strncmp(err->msg, own, strlen(own)) ? 0 : strlen(own)));
  ts_error(err, "collapse", 0,
           "the guard's blocks grew to the whole map in each of %ld starts, "
           "and its solver does not fit: %s",
           c->restarts + 1, why);
  return -1;
}

/* A run whose whole map's solver would not fit: auto goes on by modify
 * (its result, on a map without count, connected or path constraints);
 * else 3 (start over from the next seed, err cleared: a new start, not an
 * error), or past MEMORY_RESTARTS, -1 with err. */
static int memory_restart(tilesat_collapse *c,
                          const tilesat_collapse_options *o, int *tiles,
                          tilesat_error *err) {
  if (o->guard == TILESAT_GUARD_AUTO && !c->cg) { /* no whole map's solver */
    const char *why = c->auto_why ? c->auto_why
                                  : "its blocks grew to the whole map, whose "
                                    "solver does not fit";
    int res = ts_modify_run(c, o, tiles, err);
    c->mod.auto_why = why;
    return res;
  }
  if (c->restarts >= MEMORY_RESTARTS)
    return memory_gave_up(c, err);
  ts_collapse_undo(c, "a new start from another seed (the whole map's "
                      "solver would not fit --max-memory)");
  ts_collapse_new_start(c);
  c->restart_why = "the whole map's solver would not fit --max-memory";
  c->snap_want = SIZE_MAX;
  if (err)
    err->msg[0] = '\0';
  return 3;
}

/* auto on a map larger than AUTO_BLOCKS_CELLS that blocks could make
 * (no count, connected or path constraints, no mask): by modify at once.
 * Blocks there are heavy-tailed (Castle 1024x1024: 63 to 296 s a map, and
 * over 120 s without an answer with a tower pinned), modify takes 10 s. */
#define AUTO_BLOCKS_MAP "512x512"
#define AUTO_BLOCKS_CELLS (512 * 512)
static bool auto_by_modify(const tilesat_collapse *c,
                           const tilesat_collapse_options *o) {
  return o->guard == TILESAT_GUARD_AUTO && !c->cg && !c->m->masked &&
         c->m->ncells > AUTO_BLOCKS_CELLS;
}

/* A hash of the map's pins and bans. */
static uint64_t pins_key(const tilesat_map *m) {
  uint64_t h = 0xcbf29ce484222325u;
  const ts_pin *v[2] = {m->pins.v, m->bans.v};
  const size_t n[2] = {m->pins.n, m->bans.n};
  for (int k = 0; k < 2; k++) {
    h = (h ^ n[k]) * 0x100000001b3u;
    for (size_t i = 0; i < n[k]; i++)
      h = (h ^ ((uint64_t)(unsigned)v[k][i].cell << 32 |
                (uint64_t)(unsigned)v[k][i].tile)) *
          0x100000001b3u;
  }
  return h;
}

/* The map's pins or bans changed since the guard's solver was made
 * (modify's windows change them block by block; a caller may pin more):
 * the solver and what it knew of the map go. */
static void pins_changed(tilesat_collapse *c) {
  uint64_t key = pins_key(c->m);
  if (key == c->pins_key)
    return;
  c->pins_key = key;
  ts_solver_free(c->solver);
  ts_cuts_free(c->cuts);
  c->solver = NULL;
  c->cuts = NULL;
  c->map_sat = -1;
}

/* A run of a collapser for modify (tilesat_collapse_new_modify): auto goes
 * on by modify at once; the other guards need the whole map's tables. */
static int light_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                     int *tiles, tilesat_error *err) {
  if (o->guard == TILESAT_GUARD_AUTO) {
    int res = ts_modify_run(c, o, tiles, err);
    c->mod.past_bound = true;
    return res;
  }
  ts_error(err, "collapse", 0,
           "--guard %s needs the whole map's collapser%s; --guard modify does "
           "not",
           tilesat_guard_name(o->guard),
           ts_map_large(c->m) ? ", and the map is too large for it" : "");
  return -1;
}

/* A run's counters and state back to its start, from o's seed. */
static void run_reset(tilesat_collapse *c, const tilesat_collapse_options *o) {
  c->dooms.n = 0;
  c->undo_from = 0;
  c->undo_why = NULL;
  c->calls = c->repairs = c->resolved = 0;
  c->backs = c->learns = c->restarts = 0;
  c->restart_why = NULL;
  c->seed = c->seed_now = o->seed;
  c->guarded = o->guard != TILESAT_GUARD_NONE;
  c->snap.step = c->old.step = c->snap_want = SIZE_MAX;
  c->unsat_window.m.width = 0;
  c->mod.used = false;
  c->auto_why = NULL;
}

/* Before a run of the whole map's collapser: 0 (on), or -1 with err when
 * the guard refuses the map. */
static int run_refuse(tilesat_collapse *c, const tilesat_collapse_options *o,
                      tilesat_error *err) {
  pins_changed(c);
  if (o->guard != TILESAT_GUARD_NONE && collapse_refuse(c->m, true, err))
    return -1;
  if (o->guard == TILESAT_GUARD_BLOCKS && (c->cg || c->m->masked) &&
      tilesat_map_refuse_globals(c->m, 1u << TILESAT_GLOBAL_BORDER,
                                 "collapse --guard blocks", "; --guard sat can",
                                 err))
    return -1;
  return 0;
}

int tilesat_collapse_run(tilesat_collapse *c, const tilesat_collapse_options *o,
                         int *tiles, tilesat_error *err) {
  if (!c || !o || !tiles)
    ts_misuse(__func__, "NULL argument");
  if ((unsigned)o->guard > TILESAT_GUARD_MODIFY)
    ts_misuse(__func__, "no such guard");
  if (o->guard == TILESAT_GUARD_MODIFY)
    return ts_modify_run(c, o, tiles, err);
  if (c->light) /* no table of the whole map: auto goes to modify */
    return light_run(c, o, tiles, err);
  if (run_refuse(c, o, err))
    return -1;
  run_reset(c, o);
  if (auto_by_modify(c, o)) { /* blocks are heavy-tailed there */
    int res = ts_modify_run(c, o, tiles, err);
    c->mod.auto_why = "the map is larger than " AUTO_BLOCKS_MAP " cells";
    return res;
  }
  ts_collapse_say_exact(c, o);
  for (int how = RUN_START;;) {
    int st = run_once(c, o, how, err);
    if (st == 1 || st == 2) /* the limit, or a block's cap */
      return TILESAT_UNKNOWN;
    if (st == 3) /* the whole map's solver does not fit: start over */
      st = memory_restart(c, o, tiles, err);
    if (st == 3) {
      how = RUN_START;
      continue;
    }
    if (st != 0)
      return st;
    if (c->contradiction < 0)
      return finish(c, tiles, err);
    if (o->guard == TILESAT_GUARD_NONE)
      return TILESAT_UNKNOWN;
    if (c->choices.n == 0) /* the pins alone: propagation refuted them */
      return TILESAT_UNSAT;
    if (stop_asked(o, err))
      return -1;
    int res = ts_collapse_guard_learn(c, o, err);
    if (res == TILESAT_UNKNOWN) { /* auto, past its budget: blocks on */
      c->blocks_on = true;
      c->snap_want = SIZE_MAX;
      c->next_doom = c->dooms.n;
      how = RUN_ON;
      continue;
    }
    if (res != TILESAT_SAT)
      return res;
    if (!c->dooms.n) { /* a new start */
      ts_collapse_undo(c, "a new start from another seed");
      c->snap_want = SIZE_MAX;
      how = RUN_START;
      continue;
    }
    /* The run up to the new doom's step is the same again (the dooms
     * before it are): resume from the state saved at a step no later, or
     * replay from the seed and save it there this time. */
    c->snap_want = c->dooms.v[c->dooms.n - 1].step;
    if (c->snap.step > c->snap_want) /* dooms before it changed */
      c->snap.step = SIZE_MAX;
    if (c->old.step > c->snap_want)
      c->old.step = SIZE_MAX;
    how = snap_at(c, c->snap_want) ? RUN_RESUME : RUN_START;
    ts_collapse_undo(c, "an exact ban replays the run from before the "
                        "choice it bans");
  }
}
